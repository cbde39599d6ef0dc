// Locals that die before the next ask (a borrow of a held `String`, a `File` result, a
// shadowed binding, a local given a new value after it is read) are not saved, so they compile;
// so do `mrtr::ask!` without a key and `#[mrtr_tool(version = "..")]`.
use mrtr::{elicit, mrtr_tool};
use rmcp::{ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router};

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
    #[mrtr_tool(version = "1")]
    #[tool(description = "Greets")]
    async fn greet(&self) -> String {
        let greeting = "Hello there".to_owned();
        let words: Vec<&str> = greeting.split(' ').collect();
        let count = words.len();
        let file = std::fs::File::open("greeting.txt");
        let exists = file.is_ok();
        let count = count + 1;
        let first = mrtr::ask!(elicit::<Name>("First name?")).ok().map(|n| n.name);
        let last = mrtr::ask!(elicit::<Name>(format!("{greeting}, last name?")))
            .ok()
            .map(|n| n.name);
        format!("{greeting} {first:?} {last:?} {exists} {count}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets, then changes its greeting")]
    async fn overwritten(&self) -> String {
        let mut greeting = "Hi";
        let shown = greeting.len();
        let name = mrtr::ask!(elicit::<Name>("Name?")).ok().map(|n| n.name);
        let mut names: Vec<String> = name.into_iter().collect();
        let count = names.len();
        names = mrtr::ask!(elicit::<Name>("Another?")).ok().map(|n| n.name).into_iter().collect();
        greeting = "Bye";
        format!("{greeting} {shown} {names:?} {count}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
