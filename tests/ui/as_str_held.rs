// A `&str` from `.as_str()` held across an `ask!`, whose `owned` a later `let` binds again, or
// whose own name another `let` binds: it is not made again on resume, and is refused, saying why.
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
        let owned = "Hello".to_owned();
        let greeting = owned.as_str();
        let owned = greeting.len();
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{greeting} {owned} {name:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets, then counts")]
    async fn twice(&self) -> String {
        let owned = "Hello".to_owned();
        let greeting = owned.as_str();
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        let said = format!("{greeting} {name:?}");
        let greeting = said.len();
        format!("{greeting}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
