// A local enum without serde that is matched with an ask in an arm and read again after the
// match: it is alive at the ask, so it is saved, and must be serde.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Ask,
    Skip,
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
        let step = Step::Ask;
        let name = match step {
            Step::Ask => ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name),
            Step::Skip => None,
        };
        format!("{step:?} {name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
