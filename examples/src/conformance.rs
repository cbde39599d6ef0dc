//! The server the official MCP conformance suite (`@modelcontextprotocol/conformance`) runs its
//! 2026-07-28 server scenarios against.
//!
//! Each scenario names the fixtures it calls. They live in one file per area:
//!
//! - [`input_required`]: the tools and the prompt of the 14 `input-required-result-*` scenarios, written
//!   with `#[mrtr_tool]` and `#[mrtr_prompt]`: every question goes through `ask!`.
//! - [`tools`]: the plain tools of `tools-call-*`, `tools-list`, `json-schema-2020-12`,
//!   `server-stateless` and `http-custom-header-server-validation`.
//! - [`prompts`]: the plain prompts of `prompts-*` and `completion-complete`.
//! - [`resources`]: the resources and the template of `resources-*`, `caching` and
//!   `sep-2164-resource-not-found`.
//! - [`tasks`]: the tools of the nine `tasks-*` scenarios of the tasks extension, task tools
//!   written with `#[mrtr_tool(task = "..")]`.
//!
//! The wire protocol (`server/discover`, header and `_meta` validation, caching hints, Host
//! checks) is rmcp's. `cargo run --example conformance` serves it at `http://127.0.0.1:8081/mcp`.

use std::borrow::Cow;

use mrtr::Engine;
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::router::{prompt::PromptRouter, tool::ToolRouter},
    model::{
        CacheScope, CompleteRequestParams, CompleteResult, GetPromptRequestParams,
        GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
        ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
        ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
    },
    service::RequestContext,
    tool_handler,
};

pub mod input_required;
pub mod prompts;
pub mod resources;
pub mod tasks;
pub mod tools;

/// The conformance fixtures: every tool, prompt and resource the 2026-07-28 server scenarios call.
#[derive(Clone)]
pub struct Conformance {
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
    engine: Engine,
}

impl Conformance {
    /// The fixtures, sealing `requestState` with `engine`.
    pub fn new(engine: Engine) -> Self {
        Self {
            tool_router: Self::input_required_tools() + Self::plain_tools() + Self::task_tools(),
            prompt_router: Self::input_required_prompts() + Self::plain_prompts(),
            engine,
        }
    }
}

impl mrtr::MrtrServer for Conformance {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Conformance {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .enable_completions()
                .build(),
        )
        .with_server_info(Implementation::new(
            "mrtr-conformance",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions("Fixtures for the MCP conformance suite's 2026-07-28 server scenarios.")
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(&[ProtocolVersion::V_2026_07_28])
    }

    /// In name order, the tasks extension's fixtures last: a client that calls the first tool
    /// listed with no arguments and no capabilities (as the suite's header scenarios do) gets
    /// one any client can call, not `confirm_delete`, which needs the tasks extension.
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let task_fixtures: Vec<_> = Self::task_tools()
            .list_all()
            .into_iter()
            .map(|tool| tool.name)
            .collect();
        let mut tools = self.tool_router.list_all();
        tools.sort_by_key(|tool| task_fixtures.contains(&tool.name));
        let mut listed = ListToolsResult::with_all_items(tools);
        if context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28)
        {
            listed.ttl_ms = Some(0);
            listed.cache_scope = Some(CacheScope::Public);
        }
        Ok(listed)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        // Not `#[prompt_handler]`: `mrtr::get_prompt` keeps the retry's `inputResponses` and
        // `requestState` for the `#[mrtr_prompt]` fixture.
        mrtr::get_prompt(&self.prompt_router, self, request, context).await
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(
            self.prompt_router.list_all(),
        ))
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        prompts::complete(&request)
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list()))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read(&request.uri).map(ReadResourceResponse::Complete)
    }
}
