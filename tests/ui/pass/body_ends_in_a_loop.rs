// A body that ends in a `loop` that returns from inside: no "unreachable expression" warning
// at `#[mrtr_tool]`, as in a plain `async fn`.
#![deny(unreachable_code)]
use mrtr::{elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
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
    #[tool(description = "Asks until the user answers")]
    async fn greet(&self) -> String {
        loop {
            let name = mrtr::ask!(name = elicit::<Name>("Name?"));
            if let Ok(name) = name.accepted() {
                return format!("Hello {}", name.name);
            }
        }
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
