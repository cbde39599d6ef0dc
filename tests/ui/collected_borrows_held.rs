// A `Vec<&str>` collected from the arguments, held across an `ask!`. Collected through picks
// and reads only, it is collected again on resume. Through the user's own function, which may
// do more, it cannot be, and the error says to collect owned values: otherwise it would fail
// only as a lifetime error at the attribute. Nor into a `mut` local the tool changes after
// (`words.sort()`), which made again would lose the change: the error says so.
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
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    // Collected again on resume, or not borrowed: these compile.
    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn again(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let words: Vec<&str> = args.text.split(',').map(str::trim).collect();
        let long = args.text.split(' ').filter(|w| w.len() > 3).collect::<Vec<_>>();
        let owned: Vec<String> = args.text.split(',').map(|w| cleaned(w).to_owned()).collect();
        let fixed: Vec<&str> = vec!["a", "b"];
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        Ok(format!("{words:?} {long:?} {owned:?} {fixed:?} {name:?}"))
    }

    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let words: Vec<&str> = args.text.split(',').map(cleaned).collect();
        let short = args.text.split(',').filter(|w| wanted(w)).collect::<Vec<&str>>();
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        Ok(format!("{words:?} {short:?} {name:?}"))
    }

    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn sorted(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let mut words: Vec<&str> = args.text.split(',').map(str::trim).collect();
        words.sort();
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        Ok(format!("{words:?} {name:?}"))
    }
}

fn cleaned(word: &str) -> &str {
    word.trim()
}

fn wanted(word: &str) -> bool {
    !word.is_empty()
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
