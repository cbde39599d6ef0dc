// `start_task()` in a prompt: only a tool runs as a task.
use mrtr::{ask, elicit, mrtr_prompt, start_task};
use rmcp::{model::GetPromptResult, prompt, prompt_router};

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
    async fn greet(&self) -> GetPromptResult {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        ask!(start_task());
        GetPromptResult::new(vec![]).with_description(format!("Hello {name:?}"))
    }
}

impl mrtr::MrtrServer for Server {}

fn main() {}
