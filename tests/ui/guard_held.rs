// A guard kept for its `Drop` (`let _timer = ..`) lives to the end of its block, as in Rust,
// so across the ask: it must be saved, and cannot be.
struct Timer(std::time::Instant);

impl Drop for Timer {
    fn drop(&mut self) {
        println!("{:?}", self.0.elapsed());
    }
}

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
    #[tool(description = "Times")]
    async fn timed(&self) -> String {
        let _timer = Timer(std::time::Instant::now());
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
