// A local that picks a borrowed item out of the arguments, held across an `ask!`: `.first()`,
// `.get(1)` and `.strip_prefix(..)` are made again on resume, as is `.next()` of a `split`
// filtered by a read. Filtered by the user's own function, which may do more than read, or a
// `.get(at)` whose `at` then changes, cannot be: an `Option<&str>` fails only as a lifetime
// error at the attribute, so the error names the call to add `.cloned()` after. So does an
// `Option` mapped by a closure to a borrow.
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
    // Made again on resume from `args`, rather than saved: these compile.
    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn remade(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let first_tag = args.tags.first();
        let second_tag = args.tags.get(1);
        let rest = args.text.strip_prefix("Dr. ").ok_or("not a doctor")?;
        let first_word = args.text.split(' ').next();
        let short: Vec<&str> = args.text.split(' ').map(str::trim).filter(|w| w.len() < 4).collect();
        let top_tag = args.tags.iter().max();
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        Ok(format!(
            "{first_tag:?} {second_tag:?} {rest} {first_word:?} {top_tag:?} {short:?} {name:?}"
        ))
    }

    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let first_word = args.text.split(' ').filter(|w| wanted(w)).next();
        let mut at = 0;
        let tag = args.tags.get(at);
        at += 1;
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        Ok(format!("{first_word:?} {tag:?} {at} {name:?}"))
    }

    // A position mapped to a borrow of a local by a closure: a lifetime error at the
    // attribute, unless the error is at the `let`. Mapped to an owned value, or from a
    // constant, it compiles.
    #[mrtr_tool]
    #[tool(description = "Picks")]
    async fn mapped(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let chosen = args.tags.iter().position(|t| t.len() > 2);
        let picked = chosen.map(|i| args.tags[i].trim()).unwrap_or("none");
        let found = chosen.and_then(|i| args.tags.get(i));
        let owned = chosen.map(|i| args.tags[i].trim().to_owned()).unwrap_or_default();
        let constant = chosen.map(|i| NAMES[i % 2].trim()).unwrap_or("none");
        let longest = args.tags.iter().filter(|t| wanted(t)).max().map(String::as_str).unwrap_or("");
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        Ok(format!("{picked} {found:?} {owned} {constant} {longest} {name:?}"))
    }
}

const NAMES: [&str; 2] = ["a", "b"];

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn wanted(word: &str) -> bool {
    !word.is_empty()
}

fn main() {}
