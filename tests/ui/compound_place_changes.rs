// A compound assignment whose place changes a local and whose operand asks.
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
    #[tool(description = "Appends a name")]
    async fn append(&self) -> String {
        let mut names = vec!["a".to_owned(), "b".to_owned()];
        let mut at = 0;
        names[{ at += 1; at }] += &ask!(name = elicit::<Name>("Name?")).ok().map_or(String::new(), |n| n.name);
        format!("{names:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
