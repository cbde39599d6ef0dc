// String literals in an array, a tuple, a `vec!`, an `Option` or an `if`'s branches held across
// an `ask!`: the value's type holds a `&'static str`, which does not read back from the state.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Pick {
    index: u32,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Picks a color")]
    async fn pick(&self) -> String {
        let options = ["red", "green", "blue"];
        let pairs = vec![("one", 1), ("two", 2)];
        let fallback = Some("none");
        let labels = if options.len() > 2 { ["x", "y"] } else { ["z", "w"] };
        let index = ask!(index = elicit::<Pick>("Which?")).ok().map_or(0, |p| p.index as usize);
        let picked = options.get(index).copied().or(fallback).unwrap_or_default();
        format!("{picked} {pairs:?} {labels:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Takes a pair apart: each part is checked by its type")]
    async fn parts(&self) -> String {
        let (label, count) = ("label".to_owned(), 2);
        let index = ask!(index = elicit::<Pick>("Which?")).ok().map_or(0, |p| p.index);
        format!("{label} {count} {index}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
