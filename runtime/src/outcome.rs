//! What a `#[mrtr_tool]` method returns to rmcp.

use rmcp::{
    ErrorData,
    handler::server::{prompt::IntoGetPromptResult, tool::IntoCallToolResult},
    model::{
        CallToolResponse, GetPromptResponse, InputRequiredResult, ReadResourceResponse,
        ReadResourceResult,
    },
};

use crate::replay::{RecordedResponse, response::WithoutState};

/// The result of one round: the tool finished, needs input, or the round failed.
///
/// `#[mrtr_tool]` changes a tool's return type `R` to `Outcome<R>`; rmcp turns it into the
/// `tools/call` response.
///
/// Its `Debug`, which `#[tracing::instrument(ret)]` logs, shows the questions' keys and the
/// sealed state's length, not the state: a state resumes the call for whoever holds it.
#[non_exhaustive]
pub enum Outcome<R> {
    /// The function returned.
    Done(R),
    /// The function stopped at an `ask!`: questions and the sealed state for the retry.
    InputRequired(InputRequiredResult),
    /// The round could not run, for example because `requestState` did not verify.
    Failed(ErrorData),
    /// A single-use round's response in its wire form, as recorded for its duplicates: this
    /// request's own, or the first response to the same state.
    Recorded(RecordedResponse),
}

impl<R: std::fmt::Debug> std::fmt::Debug for Outcome<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Done(result) => f.debug_tuple("Done").field(result).finish(),
            Self::InputRequired(input) => f
                .debug_tuple("InputRequired")
                .field(&WithoutState(input))
                .finish(),
            Self::Failed(error) => f.debug_tuple("Failed").field(error).finish(),
            Self::Recorded(response) => f.debug_tuple("Recorded").field(response).finish(),
        }
    }
}

impl<R: IntoCallToolResult> IntoCallToolResult for Outcome<R> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        match self {
            Self::Done(result) => result.into_call_tool_result(),
            Self::InputRequired(input) => Ok(CallToolResponse::InputRequired(input)),
            Self::Failed(error) => Err(error),
            Self::Recorded(response) => response.into_call_tool_response(),
        }
    }
}

impl<R: IntoGetPromptResult> IntoGetPromptResult for Outcome<R> {
    fn into_get_prompt_result(self) -> Result<GetPromptResponse, ErrorData> {
        match self {
            Self::Done(result) => result.into_get_prompt_result(),
            Self::InputRequired(input) => Ok(GetPromptResponse::InputRequired(input)),
            Self::Failed(error) => Err(error),
            Self::Recorded(response) => response.into_get_prompt_response(),
        }
    }
}

/// What a `#[mrtr_resource]` method may return.
pub trait IntoReadResourceResult {
    /// The final `resources/read` result, or a JSON-RPC error.
    fn into_read_resource_result(self) -> Result<ReadResourceResult, ErrorData>;
}

impl IntoReadResourceResult for ReadResourceResult {
    fn into_read_resource_result(self) -> Result<ReadResourceResult, ErrorData> {
        Ok(self)
    }
}

impl IntoReadResourceResult for Result<ReadResourceResult, ErrorData> {
    fn into_read_resource_result(self) -> Result<ReadResourceResult, ErrorData> {
        self
    }
}

impl<R> Outcome<R> {
    /// The `resources/read` response of this round; `record` is the one the round ran with
    /// (`Wire::record` of `resources/read`), so an unsendable result is one error.
    pub fn into_read_resource_response(
        self,
        record: fn(R) -> RecordedResponse,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match self {
            Self::Done(result) => record(result).into_read_resource_response(),
            Self::InputRequired(input) => Ok(ReadResourceResponse::InputRequired(input)),
            Self::Failed(error) => Err(error),
            Self::Recorded(response) => response.into_read_resource_response(),
        }
    }
}
