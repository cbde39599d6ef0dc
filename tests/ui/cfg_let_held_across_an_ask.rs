// Alternatives of one `let` chosen by `#[cfg]`, held across an ask: the macro sees both.
use mrtr::{ask, elicit, mrtr_tool};
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Num {
    num: i64,
}

struct Server;

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool]
    async fn mode(&self) -> String {
        #[cfg(debug_assertions)]
        let mode = "debug".to_owned();
        #[cfg(not(debug_assertions))]
        let mode = "release".to_owned();
        let n = ask!(n = elicit::<Num>("n?")).ok().map_or(0, |n| n.num);
        format!("{mode} {n}")
    }
}

impl mrtr::MrtrServer for Server {}

fn main() {}
