// A question that changes a local.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

async fn greeting() -> String {
    "Hello".to_owned()
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn greet(&self) -> Result<String, String> {
        let mut asked = 0;
        let name = ask!(name = elicit::<Name>({
            asked += 1;
            format!("Question {asked}")
        }));
        Ok(format!("{name:?} {asked}"))
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
