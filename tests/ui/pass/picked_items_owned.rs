// Items picked out of the arguments and held across an ask, owned: no borrow error. A `char`
// from `.chars()`, a copy, `.cloned()`, `.map(str::to_owned)`, what `into_iter()` hands on, a
// `usize` from `str::find`, and values whose type the `let` names (one from a `get` of the
// user's own that gives an owned value).
use mrtr::{elicit, mrtr_tool};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    tool, tool_handler, tool_router,
};

#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    text: String,
    tags: Vec<String>,
    counts: Vec<u32>,
}

/// A type of the user's own whose `get` gives an owned value.
struct Labels;

impl Labels {
    fn get(&self, index: usize) -> Option<String> {
        Some(format!("label {index}"))
    }
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Holds owned items")]
    async fn owned(&self, Parameters(args): Parameters<Args>) -> String {
        let initial = args.text.chars().next();
        let biggest = args.counts.iter().copied().max();
        let first_tag = args.tags.first().cloned();
        let last_word = args.text.split_whitespace().last().map(str::to_owned);
        let last_tag = args.tags.clone().into_iter().last();
        let space = args.text.find(' ');
        let third: Option<u32> = args.counts.get(2).copied();
        let label: Option<String> = Labels.get(1);
        let name = mrtr::ask!(name = elicit::<Name>("Name?"));
        format!(
            "{initial:?} {biggest:?} {first_tag:?} {last_word:?} {last_tag:?} {space:?} {third:?} {label:?} {name:?}"
        )
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
