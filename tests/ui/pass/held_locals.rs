// Un-annotated owned locals of several serde types, held across two asks, compile.
use std::collections::HashMap;

use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Note {
    text: String,
    stars: u8,
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
        let list = vec!["a".to_owned(), "b".to_owned()];
        let note = Note {
            text: "hi".to_owned(),
            stars: 3,
        };
        let mut counts = HashMap::new();
        counts.insert("x".to_owned(), 1u32);
        let pair = (7u64, "seven".to_owned());
        let maybe = Some(2.5f64);
        let first = ask!(first = elicit::<Name>("First name?"))
            .ok()
            .map(|n| n.name);
        let last = ask!(last = elicit::<Name>("Last name?"))
            .ok()
            .map(|n| n.name);
        format!(
            "{list:?} {} {} {counts:?} {pair:?} {maybe:?} {first:?} {last:?}",
            note.text, note.stars
        )
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
