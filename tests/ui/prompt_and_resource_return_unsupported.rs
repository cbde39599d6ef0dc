// A prompt and a resource whose return types cannot be sent.
use mrtr::{ask, elicit, mrtr_prompt, mrtr_resource};
use rmcp::{
    RoleServer, model::ReadResourceRequestParams, prompt, prompt_router, service::RequestContext,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

#[derive(Clone)]
struct Server;

#[prompt_router]
impl Server {
    #[mrtr_prompt]
    #[prompt(description = "Greets")]
    async fn greet(&self) -> String {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("Hello {name:?}")
    }
}

impl Server {
    #[mrtr_resource]
    async fn secret(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> String {
        let _ = (&request, &context);
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

fn main() {}
