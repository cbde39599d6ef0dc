// An `ask!` in a match guard, in a `match` whose arms also ask.
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
        let mood = 1;
        match mood {
            1 if ask!(check = elicit::<Name>("Check?")).ok().is_some() => "Hello".to_owned(),
            _ => ask!(name = elicit::<Name>("Name?"))
                .ok()
                .map(|n| n.name)
                .unwrap_or_default(),
        }
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
