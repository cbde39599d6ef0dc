// `#[mrtr_tool]` on a free function, outside the server's `#[tool_router]` impl.
use mrtr::{ask, elicit, mrtr_tool};

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Name {
    name: String,
}

#[mrtr_tool]
async fn greet() -> String {
    let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
    format!("Hello {name:?}")
}

fn main() {}
