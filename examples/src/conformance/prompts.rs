//! The plain prompts of the `prompts-*` scenarios, and `completion/complete` for
//! `completion-complete`.

use rmcp::{
    ErrorData,
    handler::server::wrapper::Parameters,
    model::{
        CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock, GetPromptResult,
        PromptMessage, Reference, ResourceContents, Role,
    },
    prompt, prompt_router,
};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{Conformance, resources::TEMPLATE, tools::PNG_BASE64};

/// Arguments of `test_prompt_with_arguments`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TwoArgs {
    /// First test argument.
    pub arg1: String,
    /// Second test argument.
    pub arg2: String,
}

/// Arguments of `test_prompt_with_embedded_resource`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct EmbedArgs {
    /// URI of the resource to embed.
    #[serde(rename = "resourceUri")]
    pub resource_uri: String,
}

#[prompt_router(router = "plain_prompts", vis = "pub(super)")]
impl Conformance {
    /// `prompts-get-simple`.
    #[prompt(description = "A simple prompt without arguments")]
    async fn test_simple_prompt(&self) -> GetPromptResult {
        GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            "This is a simple prompt for testing.",
        )])
    }

    /// `prompts-get-with-args`.
    #[prompt(description = "A prompt with two required arguments")]
    async fn test_prompt_with_arguments(
        &self,
        Parameters(args): Parameters<TwoArgs>,
    ) -> GetPromptResult {
        GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Prompt with arguments: arg1='{}', arg2='{}'",
                args.arg1, args.arg2
            ),
        )])
    }

    /// `prompts-get-embedded-resource`.
    #[prompt(description = "A prompt that embeds the resource it is given")]
    async fn test_prompt_with_embedded_resource(
        &self,
        Parameters(args): Parameters<EmbedArgs>,
    ) -> GetPromptResult {
        GetPromptResult::new(vec![
            PromptMessage::new(
                Role::User,
                ContentBlock::resource(
                    ResourceContents::text(
                        "Embedded resource content for testing.",
                        args.resource_uri,
                    )
                    .with_mime_type("text/plain"),
                ),
            ),
            PromptMessage::new_text(Role::User, "Please process the embedded resource above."),
        ])
    }

    /// `prompts-get-with-image`.
    #[prompt(description = "A prompt with an image")]
    async fn test_prompt_with_image(&self) -> GetPromptResult {
        GetPromptResult::new(vec![
            PromptMessage::new(Role::User, ContentBlock::image(PNG_BASE64, "image/png")),
            PromptMessage::new_text(Role::User, "Please analyze the image above."),
        ])
    }
}

/// `completion/complete`: the candidates for a prompt argument or a template variable that
/// start with what the user typed. Unknown references complete to nothing.
pub fn complete(request: &CompleteRequestParams) -> Result<CompleteResult, ErrorData> {
    let argument = request.argument.name.as_str();
    let candidates: &[&str] = match &request.r#ref {
        Reference::Prompt(prompt) if prompt.name == "test_prompt_with_arguments" => {
            match argument {
                "arg1" => &["paris", "park", "party"],
                "arg2" => &["world", "wide", "web"],
                _ => &[],
            }
        }
        Reference::Resource(template) if template.uri == TEMPLATE && argument == "id" => {
            &["123", "456", "789"]
        }
        _ => &[],
    };
    let typed = request.argument.value.as_str();
    let values = candidates
        .iter()
        .filter(|candidate| candidate.starts_with(typed))
        .map(|candidate| (*candidate).to_owned())
        .collect();
    let completion =
        CompletionInfo::with_all_values(values).map_err(|e| ErrorData::internal_error(e, None))?;
    Ok(CompleteResult::new(completion))
}
