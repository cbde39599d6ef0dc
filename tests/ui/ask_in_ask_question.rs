// `ask!` inside the question of another `ask!`.
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
        let last = ask!(
            last = elicit::<Name>(
                ask!(first = elicit::<Name>("First name?"))
                    .ok()
                    .map(|n| n.name)
                    .unwrap_or_default()
            )
        )
        .ok()
        .map(|n| n.name);
        format!("Hello {last:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
