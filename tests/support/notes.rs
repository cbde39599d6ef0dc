//! A server of prompts and resources that ask, for the peer tests (`tests/peers_prompts.rs`)
//! and the `notes-stdio` binary: the prompt `brief` takes an argument (`audience`) and asks
//! twice, the second time for a number in a range; the resources of the template
//! `notes://{id}` ask who reads them.

use mrtr::{Engine, Form, ask, elicit, mrtr_prompt, mrtr_resource};
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::{router::prompt::PromptRouter, wrapper::Parameters},
    model::{
        GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
        PaginatedRequestParams, PromptMessage, ReadResourceRequestParams, ReadResourceResponse,
        ReadResourceResult, ResourceContents, Role, ServerCapabilities, ServerConfig,
    },
    prompt, prompt_router,
    service::RequestContext,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct BriefArgs {
    audience: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Topic {
    topic: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Length {
    #[schemars(range(min = 10, max = 500))]
    words: u32,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Reader {
    name: String,
}

#[derive(Clone)]
pub struct Notes {
    prompt_router: PromptRouter<Self>,
    engine: Engine,
}

/// The prompt's second question.
pub const WORDS: &str = "How many words?";

#[prompt_router]
impl Notes {
    #[mrtr_prompt]
    #[prompt(description = "A brief for an audience, once we know its topic and length")]
    async fn brief(
        &self,
        Parameters(args): Parameters<BriefArgs>,
    ) -> Result<GetPromptResult, ErrorData> {
        let refused = |r: mrtr::Refused| ErrorData::invalid_params(r.to_string(), None);
        let topic =
            ask!(topic = elicit::<Topic>(format!("A brief for {}: about what?", args.audience)))
                .accepted()
                .map_err(refused)?
                .topic;
        let words = ask!(words = elicit::<Length>(WORDS))
            .accepted()
            .map_err(refused)?
            .words;
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Write a {words}-word brief about {topic} for {}.",
                args.audience
            ),
        )]))
    }
}

impl Notes {
    /// The template `notes://{id}`: its state is bound to the URI read.
    #[mrtr_resource]
    async fn note(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        let _ = &context;
        let id = request.uri.trim_start_matches("notes://").to_owned();
        let name = ask!(reader = elicit::<Reader>(format!("Who reads {}?", request.uri)))
            .accepted()
            .map_err(|r| ErrorData::invalid_params(r.to_string(), None))?
            .name;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(
            format!("note {id}, for {name}"),
            request.uri.clone(),
        )]))
    }
}

impl Notes {
    pub fn new(engine: Engine) -> Self {
        Self {
            prompt_router: Self::prompt_router(),
            engine,
        }
    }
}

impl mrtr::MrtrServer for Notes {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

impl ServerHandler for Notes {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
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

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri.starts_with("notes://") {
            return self.note(request, context).await;
        }
        Err(ErrorData::resource_not_found("no such resource", None))
    }
}
