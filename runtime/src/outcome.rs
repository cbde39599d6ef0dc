//! What a `#[mrtr_tool]` method returns to rmcp.

use rmcp::{
    ErrorData,
    handler::server::tool::IntoCallToolResult,
    model::{CallToolResponse, InputRequiredResult},
};

/// The result of one round: the tool finished, needs input, or the round failed.
///
/// `#[mrtr_tool]` changes a tool's return type `R` to `Outcome<R>`; rmcp turns it into the
/// `tools/call` response.
#[derive(Debug)]
pub enum Outcome<R> {
    /// The function returned.
    Done(R),
    /// The function stopped at an `ask!`: questions and the sealed state for the retry.
    InputRequired(InputRequiredResult),
    /// The round could not run, for example because `requestState` did not verify.
    Failed(ErrorData),
}

impl<R: IntoCallToolResult> IntoCallToolResult for Outcome<R> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        match self {
            Self::Done(result) => result.into_call_tool_result(),
            Self::InputRequired(input) => Ok(CallToolResponse::InputRequired(input)),
            Self::Failed(error) => Err(error),
        }
    }
}
