//! One server for every client: [`Bridged`] serves native 2026-07-28 requests as they are, and
//! runs the rounds of a pre-2026 client's `tools/call`, `prompts/get` and `resources/read` in
//! process, putting each round's questions to the client on its session.

use std::{borrow::Cow, sync::Arc};

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::*,
    service::{NotificationContext, RequestContext, SubscriptionContext},
};

use crate::{
    MrtrServer,
    channel::{Answered, legacy::Session, run_rounds, task},
    round::Declared,
};

/// `server`, served to clients of every protocol version in use.
///
/// - A 2026-07-28 client gets `InputRequiredResult`s and retries, as without the bridge.
/// - A 2025-06-18 or 2025-11-25 client, on a session (Streamable HTTP with `Mcp-Session-Id`, or
///   stdio), never sees a round: each question of a round goes to it as a server-initiated
///   request (`elicitation/create`, `sampling/createMessage`, `roots/list`), the questions of
///   one round at once, and the next round runs with its answers, in process. The state never
///   leaves the server, and no tool changes.
///
/// - A client that declares the tasks extension (`io.modelcontextprotocol/tasks`) on a
///   `tools/call` gets a task for a tool marked `#[mrtr_tool(task = "..")]`: the bridge
///   creates it, answers `tasks/get`, `tasks/update` and `tasks/cancel` from the engine's task
///   store, and advertises the extension. See [`mrtr::task`](crate::task).
///
/// The bridge also adds those two versions to the versions the server supports.
#[derive(Debug)]
pub struct Bridged<S> {
    server: Arc<S>,
}

impl<S> Clone for Bridged<S> {
    fn clone(&self) -> Self {
        Self {
            server: self.server.clone(),
        }
    }
}

impl<S> Bridged<S> {
    /// Serves `server` to clients of every era.
    pub fn new(server: S) -> Self {
        Self {
            server: Arc::new(server),
        }
    }

    /// The server inside.
    pub fn inner(&self) -> &S {
        &self.server
    }
}

/// The protocol versions a pre-2026 client may negotiate.
const LEGACY_VERSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2025_06_18];

/// `-32021` does not exist before 2026-07-28: a question the client did not declare becomes
/// `-32603` "Client does not support elicitation (required for elicitation/create)", the error
/// the official SDKs raise on a 2025 session. Other errors pass as they are.
fn legacy_error(error: ErrorData) -> ErrorData {
    if error.code != ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY {
        return error;
    }
    let required = error
        .data
        .as_ref()
        .and_then(|data| data.get("requiredCapabilities"))
        .and_then(|required| required.as_object())
        .cloned()
        .unwrap_or_default();
    let method = |capability: &str| match capability {
        "elicitation" => "elicitation/create",
        "sampling" => "sampling/createMessage",
        "roots" => "roots/list",
        _ => "a server request",
    };
    let missing: Vec<String> = required
        .iter()
        .map(
            |(capability, settings)| match (capability.as_str(), settings.as_object()) {
                // A tool that runs only as a task, which a 2025 session cannot run.
                ("extensions", Some(extensions)) => {
                    let names: Vec<&str> = extensions.keys().map(String::as_str).collect();
                    format!("the {} extension", names.join(", "))
                }
                _ => format!("{capability} (required for {})", method(capability)),
            },
        )
        .collect();
    // What the client lacks, unless it is only the tasks extension: a session never runs a
    // task, whatever its client declared.
    let message = if required.keys().eq(["extensions"]) {
        TASK_ONLY.to_owned()
    } else {
        format!("{CAPABILITY_PREFIX}{}", missing.join(", "))
    };
    ErrorData::internal_error(message, error.data)
}

const CAPABILITY_PREFIX: &str = "Client does not support ";

const TASK_ONLY: &str = "This tool runs only as a task, which a session of protocol version \
                         2025-11-25 or earlier cannot run; call it with 2026-07-28 and the \
                         io.modelcontextprotocol/tasks extension";

/// An error a 2025 server's tool ends with as a tool error, as the official SDKs' do.
fn is_capability(error: &ErrorData) -> bool {
    error.message.starts_with(CAPABILITY_PREFIX) || error.message == TASK_ONLY
}

/// Runs `rounds` until they end, or until the client cancels the request
/// (`notifications/cancelled`) or its session closes: the tool stops at its current ask, and
/// the question it was waiting on is dropped.
async fn until_cancelled<T>(
    context: &RequestContext<RoleServer>,
    rounds: impl Future<Output = Result<T, ErrorData>>,
) -> Result<T, ErrorData> {
    let rounds = std::pin::pin!(rounds);
    let cancelled = std::pin::pin!(context.ct.cancelled());
    match futures::future::select(rounds, cancelled).await {
        futures::future::Either::Left((result, _)) => result,
        futures::future::Either::Right(((), _)) => {
            tracing::debug!("mrtr: a legacy request was cancelled at an ask");
            Err(ErrorData::internal_error("the request was cancelled", None))
        }
    }
}

/// Whether this request declares the tasks extension, as it must to be answered with a task.
fn declares_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks())
}

/// `tasks/*` on a pre-2026 session, whose client declared the extension at `initialize`
/// although the server did not offer it there: not served, so that a session can neither read
/// nor answer the tasks of 2026-07-28 clients.
fn no_tasks_on_a_session<M: rmcp::model::ConstString>(
    context: &RequestContext<RoleServer>,
) -> Result<(), ErrorData> {
    if is_legacy(context) {
        return Err(ErrorData::method_not_found::<M>());
    }
    Ok(())
}

/// Whether this request came on a session negotiated below 2026-07-28.
fn is_legacy(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version.as_str() < ProtocolVersion::V_2026_07_28.as_str())
}

/// A request run round by round (by the bridge, and by `mrtr::testing`): a retry carries the
/// answers and the state.
pub trait Retry: Clone {
    fn retry(self, answers: Option<InputResponses>, state: Option<String>) -> Self;
}

/// A response that may ask for input.
trait MayAsk: Sized {
    fn answered(self) -> Answered<Self>;
}

macro_rules! rounds_of {
    ($($request:ty => $response:ident),*) => {
        $(
            impl Retry for $request {
                fn retry(mut self, answers: Option<InputResponses>, state: Option<String>) -> Self {
                    self.input_responses = answers;
                    self.request_state = state;
                    self
                }
            }

            impl MayAsk for $response {
                fn answered(self) -> Answered<Self> {
                    match self {
                        $response::InputRequired(input) => Answered::Asked(input),
                        other => Answered::Final(other),
                    }
                }
            }
        )*
    };
}

rounds_of! {
    CallToolRequestParams => CallToolResponse,
    GetPromptRequestParams => GetPromptResponse,
    ReadResourceRequestParams => ReadResourceResponse
}

impl<S: ServerHandler + MrtrServer> Bridged<S> {
    /// Runs `request` on a legacy session: each round through `handler`, its questions to the
    /// client on the session, until a round is final or the client cancels.
    async fn in_rounds<P, R, F, Fut>(
        &self,
        context: &RequestContext<RoleServer>,
        method: &'static str,
        request: P,
        handler: F,
    ) -> Result<R, ErrorData>
    where
        P: Retry,
        R: MayAsk,
        F: Fn(P, RequestContext<RoleServer>) -> Fut,
        Fut: Future<Output = Result<R, ErrorData>>,
    {
        // A legacy client may take as long over one question as its state stays valid.
        let session = Session::new(context.peer.clone(), self.server.mrtr_engine(), method);
        // What its rounds ask within: a session never runs a task, whatever its client
        // declared at `initialize`.
        let mut context = context.clone();
        let mut capabilities = context.client_capabilities().unwrap_or_default();
        if let Some(extensions) = capabilities.extensions.as_mut() {
            extensions.remove(TASKS_EXTENSION_ID);
        }
        context.extensions.insert(Declared(Arc::new(capabilities)));
        let context = &context;
        let rounds = run_rounds(&session, |answers, state| {
            session.round_begins();
            let round = handler(request.clone().retry(answers, state), context.clone());
            async move { round.await.map(MayAsk::answered) }
        });
        until_cancelled(context, rounds).await.map_err(legacy_error)
    }
}

/// Delegates each request method to the server inside.
macro_rules! delegate {
    ($($(#[$attr:meta])* $name:ident($($arg:ident: $ty:ty),*) -> $out:ty;)*) => {
        $(
            $(#[$attr])*
            async fn $name(&self, $($arg: $ty),*) -> $out {
                self.server.$name($($arg),*).await
            }
        )*
    };
}

/// Every method goes to the server inside, except that `tools/call`, `prompts/get` and
/// `resources/read` on a pre-2026 session run their rounds in process, that a `tools/call`
/// declaring the tasks extension may become a task, that `tasks/*` are the bridge's own, and
/// that `initialize` and `server/discover` are rmcp's own, negotiating with the legacy versions
/// added.
impl<S: ServerHandler + MrtrServer> ServerHandler for Bridged<S> {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !is_legacy(&context) {
            if declares_tasks(&context) {
                return Box::pin(task::call(&self.server, request, context)).await;
            }
            return self.server.call_tool(request, context).await;
        }
        // Boxed, here and below: a legacy call's future is large, and unboxed it would make
        // every native request's future as large.
        let answered = Box::pin(self.in_rounds(
            &context,
            "tools/call",
            request,
            |request, context| self.server.call_tool(request, context),
        ))
        .await;
        // A tool of a 2025 server that asks what the client did not declare ends with an error
        // result, as the official SDKs' tools do.
        match answered {
            Err(error) if error.code == ErrorCode::INTERNAL_ERROR && is_capability(&error) => {
                Ok(CallToolResponse::Complete(CallToolResult::error(vec![
                    ContentBlock::text(error.message),
                ])))
            }
            other => other,
        }
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if !is_legacy(&context) {
            return self.server.get_prompt(request, context).await;
        }
        Box::pin(
            self.in_rounds(&context, "prompts/get", request, |request, context| {
                self.server.get_prompt(request, context)
            }),
        )
        .await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if !is_legacy(&context) {
            return self.server.read_resource(request, context).await;
        }
        Box::pin(
            self.in_rounds(&context, "resources/read", request, |request, context| {
                self.server.read_resource(request, context)
            }),
        )
        .await
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        let mut versions = self.server.supported_protocol_versions().into_owned();
        for version in LEGACY_VERSIONS {
            if !versions.contains(&version) {
                versions.push(version);
            }
        }
        Cow::Owned(versions)
    }

    /// rmcp's own negotiation, without the tasks extension: a pre-2026 session runs each call
    /// in process, never as a task (SEP-2663 tasks are a 2026-07-28 extension).
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        if let Some(extensions) = result.capabilities.extensions.as_mut() {
            extensions.remove(TASKS_EXTENSION_ID);
            if extensions.is_empty() {
                result.capabilities.extensions = None;
            }
        }
        Ok(result)
    }

    fn get_info(&self) -> ServerConfig {
        let mut info = self.server.get_info();
        info.capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .entry(TASKS_EXTENSION_ID.to_owned())
            .or_default();
        info
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        no_tasks_on_a_session::<GetTaskMethod>(&context)?;
        task::get(&self.server, request, context).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        no_tasks_on_a_session::<UpdateTaskMethod>(&context)?;
        task::update(&self.server, request, context).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        no_tasks_on_a_session::<CancelTaskMethod>(&context)?;
        task::cancel(self.server.mrtr_engine(), request, &context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.server.get_tool(name)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.server.accepted_subscription_filter(requested)
    }

    /// One of MCP's own methods arrives here when its params do not parse: `-32602`, not the
    /// server's "method not found".
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if let Some(refusal) = crate::malformed::refusal(&request) {
            return Err(refusal);
        }
        self.server.on_custom_request(request, context).await
    }

    delegate! {
        ping(context: RequestContext<RoleServer>) -> Result<(), ErrorData>;
        complete(request: CompleteRequestParams, context: RequestContext<RoleServer>)
            -> Result<CompleteResult, ErrorData>;
        #[allow(deprecated)]
        set_level(request: SetLevelRequestParams, context: RequestContext<RoleServer>)
            -> Result<(), ErrorData>;
        list_prompts(request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>)
            -> Result<ListPromptsResult, ErrorData>;
        list_resources(request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>)
            -> Result<ListResourcesResult, ErrorData>;
        list_resource_templates(
            request: Option<PaginatedRequestParams>,
            context: RequestContext<RoleServer>
        ) -> Result<ListResourceTemplatesResult, ErrorData>;
        listen(context: SubscriptionContext) -> Result<(), ErrorData>;
        #[allow(deprecated)]
        subscribe(request: SubscribeRequestParams, context: RequestContext<RoleServer>)
            -> Result<(), ErrorData>;
        #[allow(deprecated)]
        unsubscribe(request: UnsubscribeRequestParams, context: RequestContext<RoleServer>)
            -> Result<(), ErrorData>;
        list_tools(request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>)
            -> Result<ListToolsResult, ErrorData>;
        on_cancelled(notification: CancelledNotificationParam, context: NotificationContext<RoleServer>) -> ();
        on_progress(notification: ProgressNotificationParam, context: NotificationContext<RoleServer>) -> ();
        on_initialized(context: NotificationContext<RoleServer>) -> ();
        on_roots_list_changed(context: NotificationContext<RoleServer>) -> ();
        on_custom_notification(notification: CustomNotification, context: NotificationContext<RoleServer>) -> ();
        list_skills(request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>)
            -> Result<ListSkillsResult, ErrorData>;
        get_skill(request: GetSkillRequestParams, context: RequestContext<RoleServer>)
            -> Result<GetSkillResult, ErrorData>;
        read_resource_directory(
            request: ReadResourceDirectoryRequestParams,
            context: RequestContext<RoleServer>
        ) -> Result<ReadResourceDirectoryResult, ErrorData>;
    }
}
