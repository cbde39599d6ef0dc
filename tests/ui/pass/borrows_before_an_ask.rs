// A binding that borrows from one that dies before the next ask, shadowed or not, is folded
// with it: nothing borrowed leaves the block, and the expansion terminates.
use mrtr::{elicit, mrtr_tool};
use rmcp::{ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router};

#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
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
    #[tool(description = "Shadows a borrowed binding")]
    async fn shadowed(&self) -> String {
        let greeting = "  Hello  ".to_owned();
        let trimmed = greeting.trim();
        let greeting = trimmed.to_owned();
        let first = mrtr::ask!(first = elicit::<Name>("First name?"));
        format!("{greeting} {first:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Hands on an owned copy of a borrow")]
    async fn copied(&self) -> String {
        let greeting = "  Hello  ".to_owned();
        let trimmed = greeting.trim();
        let other = trimmed.to_owned();
        let first = mrtr::ask!(first = elicit::<Name>("First name?"));
        format!("{other} {first:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
