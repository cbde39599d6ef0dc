// A `for` over items borrowed from a held `Vec` whose body asks and changes the `Vec`: the
// loop borrows it throughout, as in plain Rust, so the change is a borrow error.
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
    #[tool(description = "Adds a name for each team")]
    async fn name_teams(&self) -> String {
        let mut teams = vec!["red".to_owned(), "blue".to_owned()];
        for team in &teams {
            let name = ask!(name = elicit::<Name>(format!("Name for {team}?"))).ok();
            teams.push(name.map_or_else(String::new, |n| n.name));
        }
        format!("{teams:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
