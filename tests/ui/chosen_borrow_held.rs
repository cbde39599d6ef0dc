// A local chosen by an `if` between a literal and a borrow, held across an `ask!`. With a test
// that only reads, it is chosen again on resume. With a test that calls the user's function,
// which may do more, it cannot be, and the error says to hold an owned value: otherwise it
// would fail only as a lifetime error at the attribute.
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
    tags: Vec<String>,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    // Chosen again on resume: this compiles.
    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn again(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let label = if args.tags.is_empty() { "none" } else { args.tags[0].as_str() };
        let name = ask!(name = elicit::<Name>(format!("Name for {label}?"))).ok().map(|n| n.name);
        Ok(format!("{label} {name:?}"))
    }

    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let label = if wanted(&args.text) { args.text.trim() } else { "none" };
        let name = ask!(name = elicit::<Name>(format!("Name for {label}?"))).ok().map(|n| n.name);
        Ok(format!("{label} {name:?}"))
    }
}

fn wanted(text: &str) -> bool {
    !text.is_empty()
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
