// Only a tool runs as a task.
use mrtr::{ask, elicit, mrtr_prompt};
use rmcp::{model::GetPromptResult, prompt, prompt_router};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

#[derive(Clone)]
struct Server;

#[prompt_router]
impl Server {
    #[mrtr_prompt(task = "optional")]
    #[prompt(description = "Greets")]
    async fn greet(&self) -> GetPromptResult {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        GetPromptResult::new(vec![]).with_description(format!("Hello {name:?}"))
    }
}

impl mrtr::MrtrServer for Server {}

fn main() {}
