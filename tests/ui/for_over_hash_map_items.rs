// A `for` over items borrowed from a `HashMap`, with an `ask!` in its body, or a `let` held across
// one that takes an item of its iterator: read back, the map may yield its items in another
// order, so mrtr cannot find the item it was at, or take the same one again.
use std::collections::{BTreeMap, HashMap};

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
    // Compiles: a `BTreeMap` keeps its order.
    #[mrtr_tool]
    #[tool(description = "Names each team, in order")]
    async fn name_sorted(&self) -> String {
        let sizes = BTreeMap::from([("red".to_owned(), 3), ("blue".to_owned(), 5)]);
        let mut names = Vec::new();
        let first = sizes.keys().next();
        for (team, size) in &sizes {
            let name = ask!(name = elicit::<Name>(format!("Name for {team} ({size})?"))).ok();
            names.push(name.map(|n| n.name));
        }
        format!("{first:?} {names:?}")
    }

    // A `let` that takes an item of a `HashMap`'s iterator, held across an ask.
    #[mrtr_tool]
    #[tool(description = "Names a team")]
    async fn name_one(&self) -> String {
        let sizes = HashMap::from([("red".to_owned(), 3), ("blue".to_owned(), 5)]);
        let team = sizes.keys().next();
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{team:?} {name:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Names each team")]
    async fn name_each(&self) -> String {
        let sizes = HashMap::from([("red".to_owned(), 3), ("blue".to_owned(), 5)]);
        let mut names = Vec::new();
        for (team, size) in &sizes {
            let name = ask!(name = elicit::<Name>(format!("Name for {team} ({size})?"))).ok();
            names.push(name.map(|n| n.name));
        }
        format!("{names:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
