// A local annotated with a reference type (`let s: &str`) held across an `ask!`, from a call
// or a borrow: mrtr cannot tell a `&'static str` from a borrow of a local there.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

fn word(formal: bool) -> &'static str {
    if formal { "Good day" } else { "Hi" }
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
        let greeting: &str = word(true);
        let owned = String::from("Ada");
        let short: &str = &owned;
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{greeting} {short} {name:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets, saying what it holds")]
    async fn said(&self) -> String {
        let greeting: &'static str = word(false);
        let literal: &str = "Hello";
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{greeting} {literal} {name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
