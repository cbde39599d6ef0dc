// A statement macro that declares a binding, before an ask: the binding would end with the
// round's first pass, so its being unused is an error.
macro_rules! bump {
    ($v:ident) => {
        let $v = $v + 100;
    };
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
    #[tool(description = "Bumps")]
    async fn bump(&self) -> String {
        let x = 1;
        bump!(x);
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{x} {name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
