// `.accepted()?` in a tool whose error type is rmcp's `ErrorData`: mrtr has no
// `From<Refused>` for it on purpose, so the error says the two ways to choose what the client sees.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ErrorData as McpError, ServerHandler,
    handler::server::router::tool::ToolRouter,
    model::{CallToolResult, ContentBlock},
    tool, tool_handler, tool_router,
};

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
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
    async fn greet(&self) -> Result<CallToolResult, rmcp::ErrorData> {
        let name = ask!(name = elicit::<Name>("Name?")).accepted()?;
        Ok(CallToolResult::success(vec![ContentBlock::text(name.name)]))
    }

    #[mrtr_tool]
    #[tool(description = "Greets, under rmcp's examples' name for the error")]
    async fn welcome(&self) -> Result<String, McpError> {
        let answer = ask!(name = elicit::<Name>("Name?"));
        // A `?` in a closure leaves the closure: not this error.
        let parse = |text: &str| -> Result<u8, String> {
            Ok(text.parse::<u8>().map_err(|e| e.to_string())?)
        };
        let name = answer.accepted()?;
        Ok(format!("Welcome {} {:?}", name.name, parse("1")))
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
