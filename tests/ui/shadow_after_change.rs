// An outer binding saved at an ask, changed in a loop body by the statements that the rewrite
// folds with the `let` that shadows it.
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
    #[tool(description = "Counts")]
    async fn count(&self) -> String {
        let mut x = 1;
        for i in 0..2 {
            x += 1;
            let x = x + i;
            let name = ask!(name = elicit::<Name>(format!("Name {x}?"))).ok().map(|n| n.name);
            println!("{name:?}");
        }
        format!("{x}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
