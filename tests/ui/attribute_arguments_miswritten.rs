// Attribute arguments written wrong: given twice, without a value, unquoted, positional.
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
    #[mrtr_tool(version = "2", version = "3")]
    #[tool(description = "Greets")]
    async fn twice_versioned(&self) -> String {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{name:?}")
    }

    #[mrtr_tool(replay)]
    #[tool(description = "Greets")]
    async fn bare_replay(&self) -> String {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{name:?}")
    }

    #[mrtr_tool(task = optional)]
    #[tool(description = "Greets")]
    async fn unquoted_task(&self) -> String {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{name:?}")
    }

    #[mrtr_tool("2")]
    #[tool(description = "Greets")]
    async fn positional(&self) -> String {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
