//! The baseline of the benchmarks: the wizard's tools written by hand on rmcp alone, as a
//! careful author would without mrtr. Each tool keeps its progress in a `Step` enum that
//! carries exactly what its later rounds need, sealed into `requestState` with rmcp's HMAC
//! [`RequestStateCodec`] (ttl 600 s) and bound to the tool and its arguments. Answers are read
//! into typed forms, as mrtr's `elicit` reads them, and asked again when they do not fit.
//!
//! - `signup`: profile, plan, confirmation.
//! - `onboard`: a name, a role (admins confirm), repositories in a loop, a level for each.
//! - `wizard5`: five one-field questions in a row.
//!
//! Each tool has its own `#[tool_router]`; [`HandWritten::new`] joins them. The questions,
//! messages, schemas and results are those of the mrtr versions in `mrtr_examples`, which
//! `tests/baseline_parity.rs` checks round by round.

mod onboard;
mod signup;
mod wizard5;

use std::{borrow::Cow, time::Duration};

use rmcp::{
    ErrorData, ServerHandler,
    handler::server::router::tool::ToolRouter,
    model::{
        CallToolResponse, CallToolResult, ContentBlock, ElicitRequest, ElicitRequestParams,
        ElicitationAction, ElicitationSchema, InputRequest, InputRequests, InputRequiredResult,
        InputResponses, ProtocolVersion, RequestStateCodec, SealOptions, ServerCapabilities,
        ServerConfig,
    },
    tool_handler,
};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::Value;

pub use onboard::OnboardArgs;
pub use signup::SignupArgs;

/// How long a sealed step stays valid.
const TTL: Duration = Duration::from_secs(600);

/// The hand-written server: `signup`, `onboard` and `wizard5`.
#[derive(Clone)]
pub struct HandWritten {
    tool_router: ToolRouter<Self>,
    codec: RequestStateCodec,
}

impl Default for HandWritten {
    fn default() -> Self {
        Self::new()
    }
}

impl HandWritten {
    pub fn new() -> Self {
        Self {
            tool_router: Self::signup_router() + Self::onboard_router() + Self::wizard5_router(),
            codec: RequestStateCodec::try_new([7u8; 32].to_vec())
                .expect("a 32-byte key is long enough"),
        }
    }

    /// The step a round resumes at: `first` without a state, else the step sealed in `state`,
    /// which must have been sealed for the same `binding`.
    fn open<S: DeserializeOwned>(
        &self,
        state: Option<String>,
        binding: &[u8],
        first: S,
    ) -> Result<S, ErrorData> {
        match state {
            None => Ok(first),
            Some(sealed) => self.codec.open_json_with(&sealed, binding).map_err(|_| {
                ErrorData::invalid_params(
                    "requestState is invalid or expired; call the tool again without \
                     requestState",
                    None,
                )
            }),
        }
    }

    /// Asks the one question `key` (a form elicitation) and seals `step` for the next round.
    fn ask(
        &self,
        binding: &[u8],
        key: &str,
        message: String,
        schema: &str,
        step: &impl Serialize,
    ) -> Result<CallToolResponse, ErrorData> {
        let schema: ElicitationSchema = serde_json::from_str(schema)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let request = InputRequest::Elicitation(ElicitRequest::new(
            ElicitRequestParams::FormElicitationParams {
                meta: None,
                message,
                requested_schema: schema,
            },
        ));
        let state = self
            .codec
            .seal_json_with(step, &SealOptions::new().associated_data(binding).ttl(TTL))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let requests = InputRequests::from([(key.to_owned(), request)]);
        Ok(InputRequiredResult::new(Some(requests), Some(state)).into())
    }
}

/// What a call's state is bound to: the tool, then its arguments. Tool names hold no NUL, so
/// no two tools' bindings collide, whatever the arguments.
fn binding(tool: &str, arguments: &[u8]) -> Vec<u8> {
    let mut binding = Vec::with_capacity(tool.len() + 1 + arguments.len());
    binding.extend_from_slice(tool.as_bytes());
    binding.push(0);
    binding.extend_from_slice(arguments);
    binding
}

/// The reply to the question `key`.
enum Reply<T> {
    /// Accepted, with a form that fits `T`.
    Accepted(T),
    /// Declined or cancelled.
    Refused,
    /// No reply, or one that does not fit: ask again.
    Unusable,
}

/// Reads the reply to `key` from the round's `inputResponses`: an `ElicitResult` whose
/// `content` (`{}` if absent) must deserialize as `T`. Replies to other keys are ignored.
fn reply<T: DeserializeOwned>(responses: &Option<InputResponses>, key: &str) -> Reply<T> {
    #[derive(Deserialize)]
    struct ElicitResult {
        action: ElicitationAction,
        #[serde(default)]
        content: Option<Value>,
    }
    let Some(reply) = responses.as_ref().and_then(|responses| responses.get(key)) else {
        return Reply::Unusable;
    };
    let Ok(reply) = ElicitResult::deserialize(reply) else {
        return Reply::Unusable;
    };
    match reply.action {
        ElicitationAction::Accept => {
            let content = reply
                .content
                .unwrap_or_else(|| Value::Object(Default::default()));
            T::deserialize(content).map_or(Reply::Unusable, Reply::Accepted)
        }
        ElicitationAction::Decline | ElicitationAction::Cancel => Reply::Refused,
        _ => Reply::Unusable,
    }
}

/// A finished call: `text`, and `structured` content if any.
fn done(text: String, structured: Option<Value>) -> Result<CallToolResponse, ErrorData> {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = structured;
    Ok(result.into())
}

/// A call that ended as a tool error with `text`.
fn failed(text: String) -> Result<CallToolResponse, ErrorData> {
    Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for HandWritten {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    /// Its tools answer with `input_required` results, which only 2026-07-28 clients read.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(&[ProtocolVersion::V_2026_07_28])
    }
}
