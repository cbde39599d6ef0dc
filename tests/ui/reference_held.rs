// A reference held across an `ask!`: `&owned` is made again on resume, but `&self.greeting` is
// refused, as the instance that takes the retry may hold another value.
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
    greeting: String,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn greet(&self) -> String {
        let owned = "Hello".to_owned();
        let short = &owned;
        let greeting = &self.greeting;
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{greeting} {short} {name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
