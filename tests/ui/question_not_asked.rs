// A question built but not asked: `unused_must_use` says to wrap it in `ask!` (denied here to
// show the warning).
#![deny(unused_must_use)]
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
    #[tool(description = "Forgets to ask")]
    async fn forgets(&self) -> String {
        elicit::<Name>("Name?");
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
