// Mutable borrows a user reaches for to change items by asking: a `for` over `iter_mut()`,
// `&mut v` or `values_mut()`, and an `if let` or `match` on `get_mut(..)` or `last_mut()` whose
// arm changes the item with the answer. A copy would lose the change, so each error says to
// loop over positions or keys, or to ask first.
use std::collections::BTreeMap;

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
    #[tool(description = "Renames")]
    async fn rename(&self) -> String {
        let mut names = vec!["a".to_owned(), "b".to_owned()];
        for name in names.iter_mut() {
            *name = ask!(name = elicit::<Name>("Name?")).ok().map_or_else(String::new, |n| n.name);
        }
        for name in &mut names {
            name.push_str(&ask!(suffix = elicit::<Name>("Suffix?")).ok().map_or_else(String::new, |n| n.name));
        }
        let mut by_id: BTreeMap<u32, String> = BTreeMap::new();
        for name in by_id.values_mut().rev() {
            name.push('!');
            ask!(seen = elicit::<Name>("Seen?"));
        }
        if let Some(first) = by_id.get_mut(&1) {
            first.push_str(&ask!(first = elicit::<Name>("First?")).ok().map_or_else(String::new, |n| n.name));
        }
        match names.last_mut() {
            Some(last) => *last += &ask!(last = elicit::<Name>("Last?")).ok().map_or_else(String::new, |n| n.name),
            None => {}
        }
        format!("{names:?} {by_id:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
