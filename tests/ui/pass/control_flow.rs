// `ask!` inside `if`, `match`, `loop`, `for` and `while` compiles, with owned locals held.
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
        let mut names = Vec::new();
        let polite = names.is_empty();
        if polite {
            let first = ask!(first = elicit::<Name>("First name?"))
                .ok()
                .map(|n| n.name);
            names.push(first);
        }
        let mood = names.len();
        let extra = match mood {
            0 => None,
            _ => ask!(extra = elicit::<Name>("Another name?"))
                .ok()
                .map(|n| n.name),
        };
        names.push(extra);
        loop {
            let again = ask!(again = elicit::<Name>("Again?")).ok().map(|n| n.name);
            if again.is_some() {
                names.push(again);
                break;
            }
        }
        for team in ["red".to_owned(), "blue".to_owned()] {
            let member = ask!(member = elicit::<Name>(format!("Who is in {team}?")))
                .ok()
                .map(|n| n.name);
            names.push(member);
        }
        while names.len() < 6 {
            names.push(ask!(more = elicit::<Name>("More?")).ok().map(|n| n.name));
        }
        format!("Hello {names:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
