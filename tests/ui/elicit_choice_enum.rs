// `elicit::<T>` on a choice enum, which is a form's field, not a form.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
enum Color {
    Red,
    Green,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Picks")]
    async fn pick(&self) -> String {
        let color = ask!(color = elicit::<Color>("Color?")).ok();
        format!("{color:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
