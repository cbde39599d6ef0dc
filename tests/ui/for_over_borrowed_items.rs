// A `for` over borrowed items with an `ask!` in its body, where mrtr cannot read the items
// again on resume: from the server's own fields, or through an adapter that runs a closure.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

fn wanted(team: &str) -> bool {
    team.len() > 3
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
    teams: Vec<String>,
    motto: String,
}

#[tool_router]
impl Server {
    // Compiles: the items are read again from the held `Vec` on resume.
    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn greet(&self) -> String {
        let teams = vec!["red".to_owned(), "blue".to_owned()];
        let mut names = Vec::new();
        for team in teams.iter() {
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            names.push((team.clone(), name));
        }
        format!("Hello {names:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets the server's teams")]
    async fn greet_server_teams(&self) -> String {
        let mut names = Vec::new();
        for team in self.teams.iter() {
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            names.push((team.clone(), name));
        }
        for team in &self.teams {
            let name = ask!(again = elicit::<Name>("Name?")).ok().map(|n| n.name);
            names.push((team.clone(), name));
        }
        for (i, line) in self.motto.lines().enumerate() {
            let name = ask!(line = elicit::<Name>(format!("Line {i}?"))).ok().map(|n| n.name);
            names.push((line.to_owned(), name));
        }
        format!("Hello {names:?}")
    }

    // Compiles, as the errors above say: owned copies of the server's items.
    #[mrtr_tool]
    #[tool(description = "Greets copies of the server's teams")]
    async fn greet_server_teams_owned(&self) -> String {
        let mut names = Vec::new();
        for team in self.teams.iter().cloned() {
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            names.push((team, name));
        }
        for (i, line) in self.motto.lines().map(str::to_owned).enumerate() {
            let name = ask!(line = elicit::<Name>(format!("Line {i}?"))).ok().map(|n| n.name);
            names.push((line, name));
        }
        format!("Hello {names:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets long names")]
    async fn greet_long(&self) -> String {
        let teams = vec!["red".to_owned(), "blue".to_owned()];
        let mut names = Vec::new();
        for team in teams.iter().filter(|team| wanted(team)) {
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            names.push((team.clone(), name));
        }
        format!("Hello {names:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
