// A compound assignment whose place can return early with `?` and whose operand asks.
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
    async fn append(&self) -> Result<String, String> {
        let mut names = std::collections::BTreeMap::from([("a".to_owned(), String::new())]);
        let key = "b".to_owned();
        *names.get_mut(&key).ok_or("no such name")? += &ask!(name = elicit::<Name>("Name?")).ok().map_or(String::new(), |n| n.name);
        Ok(format!("{names:?}"))
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
