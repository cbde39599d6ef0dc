// A `for` over mutably borrowed items with an `ask!` in its body: the items left are saved.
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
        let mut teams = vec!["red".to_owned(), "blue".to_owned()];
        let mut names = Vec::new();
        for team in teams.iter_mut() {
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            team.push_str(name.as_deref().unwrap_or("?"));
            names.push(team.clone());
        }
        format!("Hello {names:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
