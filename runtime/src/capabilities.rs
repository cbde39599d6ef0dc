//! What the client of this request declared it can answer, for tools that branch on it.

use rmcp::{
    ErrorData, RoleServer,
    handler::server::{common::FromContextPart, prompt::PromptContext, tool::ToolCallContext},
    model::ClientCapabilities,
    service::RequestContext,
};

use crate::round::declared_in;

/// The request's declared client capabilities, as a tool parameter:
///
/// ```
/// # use mrtr::{Form, ask, elicit, mrtr_tool};
/// # use rmcp::{handler::server::router::tool::ToolRouter, tool, tool_router};
/// # #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Form)]
/// # struct Profile { name: String }
/// # #[derive(Clone)]
/// # struct MyServer { tool_router: ToolRouter<Self> }
/// # impl mrtr::MrtrServer for MyServer {}
/// # #[tool_router]
/// # impl MyServer {
/// #[mrtr_tool]
/// #[tool(description = "Greets the user")]
/// async fn greet(&self, caps: mrtr::Capabilities) -> String {
///     if caps.elicitation_form() {
///         let profile = ask!(profile = elicit::<Profile>("Your name?"));
///         format!("Hello {}", profile.ok().map_or("stranger".into(), |p| p.name))
///     } else {
///         "Hello stranger".to_owned()
///     }
/// }
/// # }
/// ```
///
/// Each round reads its own request's capabilities: a retry may declare fewer. Inside a task
/// they are those of the call that created it, which its questions must keep to. Works in
/// `#[mrtr_tool]` and `#[mrtr_prompt]` methods, in any position among the parameters; in a plain
/// rmcp tool, put it before any `RequestMetaObject` parameter, whose extractor takes the
/// request's `_meta` away.
#[derive(Debug, Clone, Default)]
pub struct Capabilities(pub ClientCapabilities);

impl Capabilities {
    /// Form elicitation (`elicitation: {}` or `elicitation.form`).
    pub fn elicitation_form(&self) -> bool {
        self.0
            .elicitation
            .as_ref()
            .is_some_and(|e| e.form.is_some() || e.url.is_none())
    }

    /// URL elicitation (`elicitation.url`).
    pub fn elicitation_url(&self) -> bool {
        self.0.elicitation.as_ref().is_some_and(|e| e.url.is_some())
    }

    /// Sampling.
    pub fn sampling(&self) -> bool {
        self.0.sampling.is_some()
    }

    /// Sampling with tools (`sampling.tools`).
    pub fn sampling_tools(&self) -> bool {
        self.0.sampling.as_ref().is_some_and(|s| s.tools.is_some())
    }

    /// `roots/list`.
    pub fn roots(&self) -> bool {
        self.0.roots.is_some()
    }
}

impl<S> FromContextPart<ToolCallContext<'_, S>> for Capabilities {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        Ok(Self::of(&context.request_context))
    }
}

impl<S> FromContextPart<PromptContext<'_, S>> for Capabilities {
    fn from_context_part(context: &mut PromptContext<'_, S>) -> Result<Self, ErrorData> {
        Ok(Self::of(&context.context))
    }
}

impl Capabilities {
    /// What the round asks within, kept by its `Round`; else what the request declares.
    fn of(context: &RequestContext<RoleServer>) -> Self {
        Self(ClientCapabilities::clone(&declared_in(context)))
    }
}
