// A question built in a `let` before its `ask!`: it would be held across the ask.
use mrtr::{ask, elicit, mrtr_tool, sample};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Num {
    num: i64,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Builds its questions first")]
    async fn count(&self) -> String {
        let question = elicit::<Num>("How many?");
        let n = ask!(n = question).ok().map(|n| n.num);
        let summary = sample(format!("Summarize {n:?}")).max_tokens(50);
        let text = ask!(summary);
        format!("{n:?} {}", text.text)
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
