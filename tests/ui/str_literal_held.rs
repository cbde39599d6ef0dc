// A string literal held across an `ask!`, chosen by branches, one of which may leave, or
// overwritten after the ask: a `&'static str` does not read back from the state.
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
    formal: bool,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn greet(&self) -> String {
        let greeting = if self.formal { "Good day" } else { "Hi" };
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{greeting} {name:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets formally, or not at all")]
    async fn formal(&self) -> String {
        let greeting = match self.formal {
            true => concat!("Good ", "day"),
            false => return "no greeting".to_owned(),
        };
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{greeting} {name:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets, then changes its greeting")]
    async fn overwritten(&self) -> String {
        let mut greeting = "Hi";
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        let shown = greeting.len();
        greeting = "Bye";
        format!("{greeting} {shown} {name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
