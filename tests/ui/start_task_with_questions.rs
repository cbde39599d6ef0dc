// `start_task()` shares an `ask!` with a question.
use mrtr::{ask, elicit, mrtr_tool, start_task};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool(task = "required")]
    #[tool(description = "Greets")]
    async fn greet(&self) -> String {
        let (name, ()) = ask!(name = elicit::<Name>("Name?"), begin = start_task());
        format!("Hello {:?}", name.ok().map(|n| n.name))
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
