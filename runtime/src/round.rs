//! The per-call input a `#[mrtr_tool]` method extracts from rmcp's tool call context.

use std::borrow::Cow;

use rmcp::{
    ErrorData, RoleServer,
    handler::server::{
        common::FromContextPart, prompt::PromptContext, router::prompt::PromptRouter,
        tool::ToolCallContext,
    },
    model::{
        ClientCapabilities, GetPromptRequestParams, GetPromptResponse, InputResponses,
        ReadResourceRequestParams,
    },
    service::RequestContext,
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

/// What rmcp's prompt router does not pass on: stashed by [`get_prompt`] for the prompt's
/// [`Round`] to pick up.
#[derive(Clone)]
struct PromptRetry {
    input_responses: Option<InputResponses>,
    request_state: Option<String>,
}

/// Routes a `prompts/get` request to rmcp's prompt router, keeping the retry's
/// `inputResponses` and `requestState` for `#[mrtr_prompt]` methods. Call it from
/// `ServerHandler::get_prompt` in place of rmcp's `#[prompt_handler]`:
///
/// ```ignore
/// async fn get_prompt(&self, request: GetPromptRequestParams, context: RequestContext<RoleServer>)
///     -> Result<GetPromptResponse, ErrorData>
/// {
///     mrtr::get_prompt(&self.prompt_router, self, request, context).await
/// }
/// ```
pub async fn get_prompt<S: Send + Sync + 'static>(
    router: &PromptRouter<S>,
    server: &S,
    request: GetPromptRequestParams,
    mut context: RequestContext<RoleServer>,
) -> Result<GetPromptResponse, ErrorData> {
    context.extensions.insert(PromptRetry {
        input_responses: request.input_responses,
        request_state: request.request_state,
    });
    router
        .get_prompt(PromptContext::new(
            server,
            request.name,
            request.arguments,
            context,
        ))
        .await
}

impl<S: MrtrServer> FromContextPart<PromptContext<'_, S>> for Round {
    fn from_context_part(context: &mut PromptContext<'_, S>) -> Result<Self, ErrorData> {
        let Some(retry) = context.context.extensions.remove::<PromptRetry>() else {
            tracing::error!(
                prompt = %context.name,
                "mrtr: prompts/get reached a #[mrtr_prompt] without its retry fields; call \
                 mrtr::get_prompt from ServerHandler::get_prompt instead of #[prompt_handler]"
            );
            return Err(ErrorData::internal_error(
                "the server routes prompts/get without mrtr::get_prompt",
                None,
            ));
        };
        let engine = context.server.mrtr_engine().clone();
        let principal = engine.principal(&context.context);
        Ok(Self {
            method: "prompts/get",
            name: Cow::Owned(context.name.clone()),
            args_digest: args_digest(context.arguments.as_ref()),
            input_responses: retry.input_responses,
            request_state: retry.request_state,
            capabilities: context.context.client_capabilities().unwrap_or_default(),
            principal,
            engine,
        })
    }
}

impl Round {
    /// The round of a `resources/read`, bound to the resource's URI.
    pub fn for_resource<S: MrtrServer + ?Sized>(
        server: &S,
        request: &ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Self {
        let engine = server.mrtr_engine().clone();
        let principal = engine.principal(context);
        Self {
            method: "resources/read",
            name: Cow::Owned(request.uri.clone()),
            args_digest: args_digest(None),
            input_responses: request.input_responses.clone(),
            request_state: request.request_state.clone(),
            capabilities: context.client_capabilities().unwrap_or_default(),
            principal,
            engine,
        }
    }
}
