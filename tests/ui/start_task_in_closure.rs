// `start_task()` inside a closure: it marks a place in the tool's own body.
use mrtr::{ask, mrtr_tool, start_task};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool(task = "optional")]
    #[tool(description = "Works")]
    async fn work(&self) -> String {
        let start = || ask!(start_task());
        start();
        "done".to_owned()
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
