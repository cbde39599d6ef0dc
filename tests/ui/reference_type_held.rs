// A local annotated with a reference type (`let s: &str`) held across an `ask!`, from a call:
// mrtr cannot tell a `&'static str` from a borrow there. A borrow of a held local is made
// again on resume (`short`), and so is one that binds the name it reads, in its own block or
// in one inside (`asked`), but not where a borrow of the old one is used after (`owned`).
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
        let owned = String::from(" Ada ");
        let asked = {
            let owned = owned.trim();
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            format!("{owned} {name:?}")
        };
        format!("{greeting} {owned} {asked}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets, showing what it borrowed first")]
    async fn shown(&self) -> String {
        let owned = String::from(" Ada ");
        let first = &owned;
        let owned = owned.trim();
        println!("{first}");
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{owned} {name:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets, saying what it holds")]
    async fn said(&self) -> String {
        let greeting: &'static str = word(false);
        let literal: &str = "Hello";
        let owned = String::from("Ada");
        let short: &str = &owned;
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{greeting} {literal} {short} {name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
