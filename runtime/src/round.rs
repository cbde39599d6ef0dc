//! The per-call input a `#[mrtr_tool]` method extracts from rmcp's tool call context.

use std::borrow::Cow;

use rmcp::{
    ErrorData,
    handler::server::{common::FromContextPart, tool::ToolCallContext},
    model::{ClientCapabilities, InputResponses},
};

use crate::{Engine, MrtrServer, args_digest::args_digest};

/// Everything one round needs besides the tool's own parameters.
///
/// `#[mrtr_tool]` adds it as the first parameter after `self`, so it reads the raw arguments
/// (for the digest the state is bound to) before `Parameters<T>` takes them.
pub struct Round {
    pub(crate) engine: Engine,
    pub(crate) method: &'static str,
    pub(crate) name: Cow<'static, str>,
    pub(crate) args_digest: [u8; 32],
    pub(crate) input_responses: Option<InputResponses>,
    pub(crate) request_state: Option<String>,
    pub(crate) capabilities: ClientCapabilities,
    pub(crate) principal: Option<String>,
}

impl<S: MrtrServer> FromContextPart<ToolCallContext<'_, S>> for Round {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let engine = context.service.mrtr_engine().clone();
        let principal = engine.principal(&context.request_context);
        Ok(Self {
            method: "tools/call",
            name: context.name.clone(),
            args_digest: args_digest(context.arguments.as_ref()),
            input_responses: context.input_responses.take(),
            request_state: context.request_state.take(),
            capabilities: context
                .request_context
                .client_capabilities()
                .unwrap_or_default(),
            principal,
            engine,
        })
    }
}
