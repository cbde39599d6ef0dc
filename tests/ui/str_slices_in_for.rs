// A `for` over string slices whose body asks, through an adapter that runs the tool's own
// code: the `&str` items would be saved.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

fn wanted(who: &str) -> bool {
    !who.is_empty()
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    // Compiles: the slices are read again from the held `String` on resume.
    #[mrtr_tool]
    #[tool(description = "Greets each")]
    async fn greet_each(&self) -> String {
        let line = "Ada,Grace".to_owned();
        let mut greeted = Vec::new();
        for (index, who) in line.split(',').enumerate() {
            let name = ask!(name = elicit::<Name>(format!("{index}: name for {who}?"))).ok();
            greeted.push(name.map(|n| n.name));
        }
        format!("{greeted:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets each named")]
    async fn greet_named(&self) -> String {
        let line = "Ada,,Grace".to_owned();
        let mut greeted = Vec::new();
        for (index, who) in line.split(',').filter(|who| wanted(who)).enumerate() {
            let name = ask!(name = elicit::<Name>(format!("{index}: name for {who}?"))).ok();
            greeted.push(name.map(|n| n.name));
        }
        format!("{greeted:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
