// An argument computed before the `ask!` of its statement is saved at the ask, so it may not
// borrow (`map.insert(key.as_str(), ask!(..)..)`).
use std::collections::BTreeMap;

use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    key: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Value {
    value: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Stores a value")]
    async fn store(&self, Parameters(args): Parameters<Args>) -> String {
        let mut values = BTreeMap::new();
        values.insert(
            args.key.as_str(),
            ask!(value = elicit::<Value>("Value?")).ok().map(|v| v.value),
        );
        format!("{values:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
