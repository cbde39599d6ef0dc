// A `match` or `if let` binding that borrows (`as_str`, `as_deref`, `first`), used after an ask in
// its arm, where mrtr does not bind it again on resume. The corpus body
// `borrowed_arms_bound_again_on_resume` (`tests/differential.rs`) shows those it does.
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
    // A tuple of a borrow and a number is not made again on resume.
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

    // `short` is bound twice where an ask outlives it.
    #[mrtr_tool]
    #[tool(description = "Greets two nicknames")]
    async fn nicknames(&self) -> String {
        let nick: Option<String> = Some("Ada".to_owned());
        let other: Option<String> = Some("Bea".to_owned());
        let mut out = String::new();
        if let Some(short) = nick.as_deref() {
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            out.push_str(&format!("{short} {name:?}"));
        }
        if let Some(short) = other.as_deref() {
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            out.push_str(&format!("{short} {name:?}"));
        }
        out
    }

    // The list changes before a later ask: on resume there, `Some(first)` would not match.
    #[mrtr_tool]
    #[tool(description = "Empties a list")]
    async fn emptied(&self) -> String {
        let mut list = vec!["a".to_owned()];
        if let Some(first) = list.first() {
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            let said = format!("{first} {name:?}");
            list.clear();
            let again = ask!(name = elicit::<Name>("Again?")).ok().map(|n| n.name);
            return format!("{said} {again:?}");
        }
        String::new()
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
