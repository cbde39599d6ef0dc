// A value taken from a `const` or `static` of the body whose type holds a reference other
// than `&str` (`&[&str]`, `&[u8]`), held across an `ask!`: it does not read back from the
// state. A `&str` does, and so do arrays and tuples of them.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler, handler::server::router::tool::ToolRouter, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Yes {
    yes: bool,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Picks a name")]
    async fn pick(&self) -> String {
        static WORDS: &[&str] = &["one", "two"];
        const RAW: &[u8] = b"raw";
        let all = WORDS;
        let raw = RAW;
        let go = ask!(go = elicit::<Yes>("Go?")).ok().is_some_and(|y| y.yes);
        format!("{all:?} {raw:?} {go}")
    }

    #[mrtr_tool]
    #[tool(description = "Items that are or hold `&str` are saved, and owned copies")]
    async fn owned(&self) -> String {
        const NAMES: [&str; 3] = ["red", "green", "blue"];
        const LIMITS: [u32; 3] = [1, 2, 3];
        static WORDS: &[&str] = &["a", "b"];
        static PAIRS: &[(&str, u32)] = &[("one", 1), ("two", 2)];
        let pick = NAMES[2];
        let all = NAMES;
        let pair = PAIRS[0];
        let word = WORDS[1];
        let limit = LIMITS[1];
        let count = WORDS.len();
        let go = ask!(go = elicit::<Yes>("Go?")).ok().is_some_and(|y| y.yes);
        format!("{pick} {all:?} {pair:?} {word} {limit} {count} {go} {}", NAMES[0])
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
