// A field moved and then read again after an `ask!`: rustc refuses it without mrtr too, and
// mrtr does not clone it into a program that compiles.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
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
        let who = Name { name: "ada".to_owned() };
        let moved = who.name;
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{moved} {name:?} {}", who.name)
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
