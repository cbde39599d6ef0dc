//! The contract between `ask!` and the kinds of input it can ask for.

use rmcp::{
    ErrorData,
    model::{ClientCapabilities, InputRequest},
};
use serde_json::Value;

/// Something `ask!` can send to the client, and the typed answer that comes back.
///
/// [`elicit`](crate::elicit) builds one. The machine checks the client's capabilities, sends
/// [`Question::into_input_request`], and on the retry reads the answer with
/// [`Question::read_answer`]. An answer that does not read asks the same question again.
pub trait Question {
    /// What the tool gets back.
    type Answer;

    /// The capabilities this question needs that `declared` lacks, or `None` if it may be asked.
    fn missing_capability(&self, declared: &ClientCapabilities) -> Option<ClientCapabilities>;

    /// The request that goes into `inputRequests`. An error here is a server bug, such as a
    /// form type whose schema is not flat.
    fn into_input_request(self) -> Result<InputRequest, ErrorData>;

    /// Reads the client's answer. `Err` says why it does not fit; the question is asked again.
    fn read_answer(key: &str, response: &Value) -> Result<Self::Answer, String>;
}
