// A `while` whose condition chains `let`s, with an `ask!` in its body, compiles.
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
        let mut names = vec!["Bo".to_owned()];
        let mut asked = Vec::new();
        while let Some(name) = names.pop()
            && name.len() < 3
        {
            asked.push(ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name));
        }
        format!("Hello {asked:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
