// A `for` over references to string literals whose body asks: the `&&str` items would be
// saved. The literals themselves (`for who in ["Ada", "Grace"]`) are saved.
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
    #[tool(description = "Greets each")]
    async fn greet_each(&self) -> String {
        let mut greeted = Vec::new();
        for who in &["Ada", "Grace"] {
            let name = ask!(name = elicit::<Name>(format!("Name for {who}?"))).ok();
            greeted.push(name.map(|n| n.name));
        }
        for who in ["Ada", "Grace"].iter().rev() {
            let name = ask!(again = elicit::<Name>(format!("Again for {who}?"))).ok();
            greeted.push(name.map(|n| n.name));
        }
        format!("{greeted:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets each, by value")]
    async fn by_value(&self) -> String {
        let mut greeted = Vec::new();
        for who in ["Ada", "Grace"].iter().copied() {
            let name = ask!(name = elicit::<Name>(format!("Name for {who}?"))).ok();
            greeted.push((who, name.map(|n| n.name)));
        }
        for who in vec!["Ada", "Grace"].into_iter().rev() {
            let name = ask!(again = elicit::<Name>(format!("Again for {who}?"))).ok();
            greeted.push((who, name.map(|n| n.name)));
        }
        format!("{greeted:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
