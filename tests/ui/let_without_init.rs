// A `let` without a value, declared before an `ask!` and given its value in a loop; a pattern
// without a value.
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
        let greeting;
        loop {
            greeting = "Hello".to_owned();
            break;
        }
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{greeting} {name:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets twice")]
    async fn twice(&self) -> String {
        let (first, second);
        (first, second) = ("Hello".to_owned(), "Hi".to_owned());
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{first} {second} {name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
