// A generic `#[mrtr_tool]` method.
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
    async fn greet<T: Default + std::fmt::Debug>(&self) -> String {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{:?} {name:?}", T::default())
    }

    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn borrowed<'a>(&'a self) -> String {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
