//! What the client of this request declared it can answer, for tools that branch on it.

use rmcp::{
    ErrorData,
    handler::server::{common::FromContextPart, prompt::PromptContext, tool::ToolCallContext},
    model::ClientCapabilities,
};

/// The request's declared client capabilities, as a tool parameter:
///
/// ```ignore
/// async fn tool(&self, caps: mrtr::Capabilities) -> String {
///     if caps.elicitation_form() { /* ask!(..elicit..) */ } else { /* sample, or a default */ }
/// }
/// ```
///
/// Each round reads its own request's capabilities: a retry may declare fewer. Works in
/// `#[mrtr_tool]` and `#[mrtr_prompt]` methods. Put it before any `RequestMetaObject`
/// parameter: rmcp's extractor for that one takes the request's `_meta` away.
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
        Ok(Self(
            context
                .request_context
                .client_capabilities()
                .unwrap_or_default(),
        ))
    }
}

impl<S> FromContextPart<PromptContext<'_, S>> for Capabilities {
    fn from_context_part(context: &mut PromptContext<'_, S>) -> Result<Self, ErrorData> {
        Ok(Self(
            context.context.client_capabilities().unwrap_or_default(),
        ))
    }
}
