// A plain copy of a borrow held across an `ask!`, where it is not made again: its name bound
// again later, or the name it copies bound again later. The error is at the copy, not rustc's
// lifetime error at the attribute.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Yes {
    yes: bool,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    name: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Labels")]
    async fn relabel(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let name = args.name.trim();
        let label = name;
        let yes = ask!(yes = elicit::<Yes>(format!("{label}?"))).ok().is_some_and(|y| y.yes);
        let out = format!("{label} {yes}");
        let label = out.len();
        let sure = ask!(sure = elicit::<Yes>("Sure?")).ok().is_some_and(|y| y.yes);
        Ok(format!("{out} {label} {sure}"))
    }

    #[mrtr_tool]
    #[tool(description = "Renames")]
    async fn rename(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let name = args.name.trim();
        let label = name;
        let yes = ask!(yes = elicit::<Yes>(format!("{label}?"))).ok().is_some_and(|y| y.yes);
        let name = 3;
        let sure = ask!(sure = elicit::<Yes>("Sure?")).ok().is_some_and(|y| y.yes);
        Ok(format!("{label} {yes} {name} {sure}"))
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
