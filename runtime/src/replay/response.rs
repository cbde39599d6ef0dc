//! A round's response in its wire form: what the first request answered, recorded for its
//! duplicates. One type for tools, prompts and resources, so that one store serves them all.

use rmcp::{
    ErrorData,
    handler::server::{prompt::IntoGetPromptResult, tool::IntoCallToolResult},
    model::{
        CallToolResponse, CallToolResult, CreateTaskResult, GetPromptResponse, GetPromptResult,
        InputRequiredResult, ReadResourceResponse, ReadResourceResult,
    },
};
use serde::{Deserialize, Serialize};

use crate::outcome::IntoReadResourceResult;

/// The response of a guarded round, as the client received it (or will).
///
/// Its `Debug` shows an `InputRequired` response's question keys and its state's length, not
/// the state: a state resumes the call for whoever holds it.
#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RecordedResponse {
    /// A completed `tools/call`.
    Tool(CallToolResult),
    /// A `tools/call` that became a task.
    Task(CreateTaskResult),
    /// A completed `prompts/get`.
    Prompt(GetPromptResult),
    /// A completed `resources/read`.
    Resource(ReadResourceResult),
    /// More questions, and the state of the next round.
    InputRequired(InputRequiredResult),
    /// A JSON-RPC error.
    Error(ErrorData),
}

impl std::fmt::Debug for RecordedResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Tool(result) => f.debug_tuple("Tool").field(result).finish(),
            Self::Task(result) => f.debug_tuple("Task").field(result).finish(),
            Self::Prompt(result) => f.debug_tuple("Prompt").field(result).finish(),
            Self::Resource(result) => f.debug_tuple("Resource").field(result).finish(),
            Self::InputRequired(input) => f
                .debug_tuple("InputRequired")
                .field(&WithoutState(input))
                .finish(),
            Self::Error(error) => f.debug_tuple("Error").field(error).finish(),
        }
    }
}

/// An `InputRequiredResult` for logs: its questions by key, its state by length only.
pub(crate) struct WithoutState<'a>(pub(crate) &'a InputRequiredResult);

impl std::fmt::Debug for WithoutState<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        struct Sealed(usize);
        impl std::fmt::Debug for Sealed {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "<sealed, {} bytes>", self.0)
            }
        }
        let input = self.0;
        f.debug_struct("InputRequiredResult")
            .field(
                "input_requests",
                &input
                    .input_requests
                    .as_ref()
                    .map(|requests| requests.keys().collect::<Vec<_>>()),
            )
            .field(
                "request_state",
                &input
                    .request_state
                    .as_ref()
                    .map(|state| Sealed(state.len())),
            )
            .finish_non_exhaustive()
    }
}

/// What a response of one method looks like on the wire. Implemented by the three markers the
/// generated code passes to [`Machine::run`](crate::__private::Machine::run).
#[doc(hidden)]
pub trait Wire<R> {
    /// The wire form of what the function returned.
    fn record(result: R) -> RecordedResponse;
}

/// `tools/call`.
#[doc(hidden)]
pub struct ToolCall;
/// `prompts/get`.
#[doc(hidden)]
pub struct PromptGet;
/// `resources/read`.
#[doc(hidden)]
pub struct ResourceRead;

/// A response of another method than the request's: a store mixed up its records.
fn misrouted(what: &str) -> ErrorData {
    tracing::error!("mrtr: a recorded response of {what} came back for another method");
    ErrorData::internal_error("the server recorded a response it cannot send", None)
}

/// What a `#[mrtr_tool]` function may return: what rmcp's `#[tool]` accepts.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a result a tool can send",
    label = "a `#[mrtr_tool]` returns what rmcp's `#[tool]` accepts",
    note = "return `String`, `CallToolResult`, `Json<T>` (with `T: Serialize + JsonSchema`), \
            `ContentBlock` or `()`, or a `Result` of these with an error that is one too (`String`, \
            `ErrorData`): for a number, `Result<String, String>` with `Ok(n.to_string())`"
)]
pub trait ToolResult: IntoCallToolResult {}

#[diagnostic::do_not_recommend]
impl<R: IntoCallToolResult> ToolResult for R {}

/// What a `#[mrtr_prompt]` function may return.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a result a prompt can send",
    label = "a `#[mrtr_prompt]` returns what rmcp's `#[prompt]` accepts",
    note = "return `Result<GetPromptResult, ErrorData>`, `GetPromptResult` or \
            `Vec<PromptMessage>`"
)]
pub trait PromptResult: IntoGetPromptResult {}

#[diagnostic::do_not_recommend]
impl<R: IntoGetPromptResult> PromptResult for R {}

/// What a `#[mrtr_resource]` function may return.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a result a resource can send",
    label = "a `#[mrtr_resource]` returns its finished result, and mrtr makes the \
             `ReadResourceResponse` of each round",
    note = "return `Result<ReadResourceResult, ErrorData>` (or `ReadResourceResult`)"
)]
pub trait ResourceResult: IntoReadResourceResult {}

#[diagnostic::do_not_recommend]
impl<R: IntoReadResourceResult> ResourceResult for R {}

impl<R: ToolResult> Wire<R> for ToolCall {
    fn record(result: R) -> RecordedResponse {
        match result.into_call_tool_result() {
            Ok(CallToolResponse::Complete(result)) => RecordedResponse::Tool(result),
            Ok(CallToolResponse::InputRequired(input)) => RecordedResponse::InputRequired(input),
            Ok(CallToolResponse::Task(task)) => RecordedResponse::Task(task),
            Ok(_) => RecordedResponse::Error(misrouted("an unknown kind")),
            Err(error) => RecordedResponse::Error(error),
        }
    }
}

impl<R: PromptResult> Wire<R> for PromptGet {
    fn record(result: R) -> RecordedResponse {
        match result.into_get_prompt_result() {
            Ok(GetPromptResponse::Complete(result)) => RecordedResponse::Prompt(result),
            Ok(GetPromptResponse::InputRequired(input)) => RecordedResponse::InputRequired(input),
            Ok(_) => RecordedResponse::Error(misrouted("an unknown kind")),
            Err(error) => RecordedResponse::Error(error),
        }
    }
}

impl<R: ResourceResult> Wire<R> for ResourceRead {
    fn record(result: R) -> RecordedResponse {
        match result.into_read_resource_result() {
            Ok(result) => RecordedResponse::Resource(result),
            Err(error) => RecordedResponse::Error(error),
        }
    }
}

impl RecordedResponse {
    pub(crate) fn into_call_tool_response(self) -> Result<CallToolResponse, ErrorData> {
        match self {
            Self::Tool(result) => Ok(CallToolResponse::Complete(result)),
            Self::Task(task) => Ok(CallToolResponse::Task(task)),
            Self::InputRequired(input) => Ok(CallToolResponse::InputRequired(input)),
            Self::Error(error) => Err(error),
            Self::Prompt(_) | Self::Resource(_) => Err(misrouted("another method")),
        }
    }

    pub(crate) fn into_get_prompt_response(self) -> Result<GetPromptResponse, ErrorData> {
        match self {
            Self::Prompt(result) => Ok(GetPromptResponse::Complete(result)),
            Self::InputRequired(input) => Ok(GetPromptResponse::InputRequired(input)),
            Self::Error(error) => Err(error),
            Self::Tool(_) | Self::Task(_) | Self::Resource(_) => Err(misrouted("another method")),
        }
    }

    pub(crate) fn into_read_resource_response(self) -> Result<ReadResourceResponse, ErrorData> {
        match self {
            Self::Resource(result) => Ok(ReadResourceResponse::Complete(result)),
            Self::InputRequired(input) => Ok(ReadResourceResponse::InputRequired(input)),
            Self::Error(error) => Err(error),
            Self::Tool(_) | Self::Task(_) | Self::Prompt(_) => Err(misrouted("another method")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ContentBlock;

    /// A state resumes the call for whoever holds it, so `Debug` (and so a log) shows its length.
    #[test]
    fn debug_shows_a_state_by_its_length_and_questions_by_their_keys() {
        let input: InputRequiredResult = serde_json::from_value(serde_json::json!({
            "resultType": "input_required",
            "inputRequests": {"pin": {"method": "roots/list", "params": {}}},
            "requestState": "SEALED-STATE-0815",
        }))
        .unwrap();
        let shown = format!("{:?}", RecordedResponse::InputRequired(input.clone()));
        assert!(!shown.contains("SEALED-STATE-0815"), "{shown}");
        assert!(shown.contains(r#"Some(["pin"])"#), "{shown}");
        assert!(shown.contains("<sealed, 17 bytes>"), "{shown}");
        let outcome = crate::Outcome::<String>::InputRequired(input);
        assert_eq!(format!("{outcome:?}"), shown);
    }

    #[test]
    fn responses_read_back_from_their_recorded_form() {
        let mut result = CallToolResult::success(vec![ContentBlock::text("done")]);
        result.structured_content = Some(serde_json::json!({"n": 1}));
        let cases = [
            RecordedResponse::Tool(result),
            RecordedResponse::InputRequired(InputRequiredResult::from_request_state("s")),
            RecordedResponse::Error(ErrorData::invalid_params("nope", None)),
        ];
        for case in cases {
            let bytes = serde_json::to_vec(&case).unwrap();
            let back: RecordedResponse = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(
                serde_json::to_value(&back).unwrap(),
                serde_json::to_value(&case).unwrap()
            );
        }
    }

    #[test]
    fn a_response_of_another_method_is_an_error() {
        let prompt = RecordedResponse::Prompt(GetPromptResult::new(vec![]));
        assert!(prompt.into_call_tool_response().is_err());
    }
}
