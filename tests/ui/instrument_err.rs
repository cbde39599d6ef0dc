// `err` of `#[tracing::instrument]` below `#[mrtr_tool]`: it reads a `Result` the function no longer returns.
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
    #[tracing::instrument(skip(self), err)]
    async fn greet(&self) -> Result<String, String> {
        let name = ask!(name = elicit::<Name>("Name?")).accepted()?.name;
        Ok(format!("Hello {name}"))
    }

    #[mrtr_tool]
    #[tool(description = "Greets, logging the error's Debug")]
    #[tracing::instrument(err(Debug), skip_all, level = "debug")]
    async fn greet_debug(&self) -> Result<String, String> {
        let name = ask!(name = elicit::<Name>("Name?")).accepted()?.name;
        Ok(format!("Hello {name}"))
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
