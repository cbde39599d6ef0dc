// A local that a value made again on resume reads in its closure, moved while that value is
// still used after an ask: making it again needs the local, so it is saved at the ask, and
// rustc reports the borrow of a moved value there. The README says to move a clone instead.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    text: String,
    prefix: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let prefix = args.prefix.clone();
        let hit = args.text.split(',').find(|w| w.starts_with(prefix.as_str()));
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        let kept = prefix;
        let again = ask!(again = elicit::<Name>("Again?")).ok().map(|n| n.name);
        Ok(format!("{hit:?} {kept} {name:?} {again:?}"))
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
