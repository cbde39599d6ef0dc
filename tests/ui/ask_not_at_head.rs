// An `ask!` evaluated after a method's receiver that runs code (`make().with(ask!(..))`): the
// receiver cannot be computed first on its own, as an argument is.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

struct Greeting(String);

impl Greeting {
    fn with(self, name: Option<String>) -> String {
        format!("{} {name:?}", self.0)
    }
}

fn greeting() -> Greeting {
    Greeting("Hello".to_owned())
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
        let text = greeting().with(ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name));
        text
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
