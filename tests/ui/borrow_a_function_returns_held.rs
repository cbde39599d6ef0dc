// A `&str` that the user's own function returns from a borrow, held across an `ask!`. mrtr
// cannot see that it borrows, so it is saved, and only a `&'static str` can be: rustc says
// that the local it borrows from does not live long enough, at the `let` that holds it.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Sure {
    sure: bool,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    path: String,
}

fn extension(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or("")
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Opens a file")]
    async fn open(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let ext = extension(&args.path);
        let sure = ask!(sure = elicit::<Sure>(format!("Open a .{ext} file?"))).accepted()?.sure;
        Ok(format!("{ext} {sure}"))
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
