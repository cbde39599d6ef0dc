// `ask!` inside another macro's arguments (`dbg!`); `format!`, the printing macros and `vec!` unfold.
use mrtr::{ask, elicit, mrtr_tool};
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
    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn greet(&self) -> String {
        let names = dbg!(ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name));
        format!("{names:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
