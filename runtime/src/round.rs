//! What one request brings to the machine: its method and name, a digest of its arguments,
//! the answers and state of the retry, and its client capabilities. Extracted from rmcp's tool
//! and prompt contexts, or built from a `resources/read` request.

use std::{borrow::Cow, sync::Arc};

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

use crate::{
    Engine, MrtrServer, args_digest::args_digest, channel::task::TaskLink, log::Escaped,
    server::engine_of,
};

/// Everything one round needs besides the tool's own parameters and the server's engine.
///
/// `#[mrtr_tool]` adds it as the first parameter after `self`, so it reads the raw arguments
/// (for the digest the state is bound to) before `Parameters<T>` takes them.
pub struct Round {
    pub(crate) method: &'static str,
    pub(crate) name: Cow<'static, str>,
    pub(crate) args_digest: [u8; 32],
    pub(crate) input_responses: Option<InputResponses>,
    pub(crate) request_state: Option<String>,
    /// Shared with the request's extensions, for [`crate::Capabilities`].
    pub(crate) capabilities: Arc<ClientCapabilities>,
    /// Who is calling, from the engine's principal hook, asked while the request's context is
    /// at hand (so the context need not be copied).
    pub(crate) principal: Option<String>,
    /// The task channel's link, when the call may become a task or runs inside one.
    pub(crate) task: Option<TaskLink>,
}

/// Names the call only, so a `#[tracing::instrument]` under `#[mrtr_tool]` can record the hidden
/// parameter without printing answers or the sealed state.
impl std::fmt::Debug for Round {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Round")
            .field("method", &self.method)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl<S: MrtrServer> FromContextPart<ToolCallContext<'_, S>> for Round {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let task = context
            .request_context
            .extensions
            .get::<TaskLink>()
            .cloned();
        // Inside a task, a round asks within what the call that created it declared.
        let capabilities = match task.as_ref().and_then(TaskLink::capabilities) {
            Some(capabilities) => {
                remember_declared(&mut context.request_context, capabilities.clone())
            }
            None => declared(&mut context.request_context),
        };
        Ok(Self {
            method: "tools/call",
            name: context.name.clone(),
            args_digest: args_digest(context.arguments.as_ref()),
            input_responses: context.input_responses.take(),
            request_state: context.request_state.take(),
            capabilities,
            principal: engine_of(context.service).principal(&context.request_context),
            task,
        })
    }
}

/// The capabilities a round asks within, kept in the request's extensions for
/// [`crate::Capabilities`]: the round is extracted first, so `Capabilities` reads the same
/// (the creating call's inside a task), wherever it stands among the parameters.
#[derive(Clone)]
pub(crate) struct Declared(pub(crate) Arc<ClientCapabilities>);

fn remember_declared(
    context: &mut RequestContext<RoleServer>,
    capabilities: ClientCapabilities,
) -> Arc<ClientCapabilities> {
    let capabilities = Arc::new(capabilities);
    context.extensions.insert(Declared(capabilities.clone()));
    capabilities
}

/// What the request declared, unless a channel already put what its rounds ask within in the
/// extensions (a legacy session: its client's capabilities without the tasks extension).
fn declared(context: &mut RequestContext<RoleServer>) -> Arc<ClientCapabilities> {
    match context.extensions.get::<Declared>() {
        Some(Declared(capabilities)) => capabilities.clone(),
        None => {
            let capabilities = context.client_capabilities().unwrap_or_default();
            remember_declared(context, capabilities)
        }
    }
}

/// What a round asks within, as [`declared`] finds it, without keeping it.
pub(crate) fn declared_in(context: &RequestContext<RoleServer>) -> Arc<ClientCapabilities> {
    match context.extensions.get::<Declared>() {
        Some(Declared(capabilities)) => capabilities.clone(),
        None => Arc::new(context.client_capabilities().unwrap_or_default()),
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
/// ```
/// # use rmcp::{
/// #     ErrorData, RoleServer, ServerHandler,
/// #     handler::server::router::prompt::PromptRouter,
/// #     model::{GetPromptRequestParams, GetPromptResponse},
/// #     service::RequestContext,
/// # };
/// # #[derive(Clone)]
/// # struct MyServer { prompt_router: PromptRouter<Self> }
/// # impl mrtr::MrtrServer for MyServer {}
/// impl ServerHandler for MyServer {
///     async fn get_prompt(
///         &self,
///         request: GetPromptRequestParams,
///         context: RequestContext<RoleServer>,
///     ) -> Result<GetPromptResponse, ErrorData> {
///         mrtr::get_prompt(&self.prompt_router, self, request, context).await
///     }
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
                prompt = %Escaped(&context.name),
                "mrtr: prompts/get reached a #[mrtr_prompt] without its retry fields; call \
                 mrtr::get_prompt from ServerHandler::get_prompt instead of #[prompt_handler]"
            );
            return Err(ErrorData::internal_error(
                "the server routes prompts/get without mrtr::get_prompt",
                None,
            ));
        };
        let capabilities = declared(&mut context.context);
        Ok(Self {
            method: "prompts/get",
            name: Cow::Owned(context.name.clone()),
            args_digest: args_digest(context.arguments.as_ref()),
            input_responses: retry.input_responses,
            request_state: retry.request_state,
            capabilities,
            principal: engine_of(context.server).principal(&context.context),
            task: None,
        })
    }
}

impl Round {
    /// The round of a `resources/read`, bound to the resource's URI.
    pub fn for_resource(
        request: &ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
        engine: &Engine,
    ) -> Self {
        Self {
            method: "resources/read",
            name: Cow::Owned(request.uri.clone()),
            args_digest: args_digest(None),
            input_responses: request.input_responses.clone(),
            request_state: request.request_state.clone(),
            capabilities: declared_in(context),
            principal: engine.principal(context),
            task: None,
        }
    }
}
