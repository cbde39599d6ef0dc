// A `match` or `if let` binding that borrows (`as_str`, `as_deref`), used after an ask in its arm.
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
    #[tool(description = "Runs a command")]
    async fn command(&self) -> String {
        let cmd = "greet".to_owned();
        match cmd.as_str() {
            "quit" => "bye".to_owned(),
            other => {
                let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
                format!("{other} {name:?}")
            }
        }
    }

    #[mrtr_tool]
    #[tool(description = "Runs a numbered command")]
    async fn numbered(&self) -> String {
        let (n, cmd) = (1u32, "greet".to_owned());
        match (n, cmd.as_str()) {
            (0, _) => "none".to_owned(),
            (count, verb) => {
                let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
                format!("{count} {verb} {name:?}")
            }
        }
    }

    #[mrtr_tool]
    #[tool(description = "Greets a nickname")]
    async fn nickname(&self) -> String {
        let nick: Option<String> = Some("Ada".to_owned());
        if let Some(short) = nick.as_deref() {
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            return format!("{short} {name:?}");
        }
        String::new()
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
