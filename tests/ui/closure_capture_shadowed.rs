// A closure used after an ask, whose captured binding a later `let` shadows before the ask.
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
    #[tool(description = "Adds")]
    async fn add(&self) -> String {
        let n = 1;
        let add = |v: usize| v + n;
        let n = 100;
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{} {n}", add(name.map_or(0, |name| name.len())))
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
