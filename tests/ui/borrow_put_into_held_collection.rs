// A borrow put into a collection that an `ask!` outlives: the collection is saved at the ask,
// and a `BTreeMap<&str, Option<String>>` passes the saving bound's trait check (as `&'static str`s) to
// fail only as a lifetime error at the attribute. The error is at the borrow put in.
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
    items: Vec<String>,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    // Owned values, literals, or a collection made after the ask: these compile.
    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn owned(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let mut kept = std::collections::BTreeMap::new();
        let mut labels = Vec::new();
        for item in &args.items {
            let name = ask!(name = elicit::<Name>(format!("Name for {item}?"))).ok().map(|n| n.name);
            kept.insert(item.clone(), name);
            labels.push("seen");
        }
        let lens: Vec<usize> = args.items.iter().map(|item| item.len()).collect();
        let mut names: Vec<String> = Vec::new();
        let mut all_lens: Vec<usize> = Vec::new();
        let mut slots = vec![0; 2];
        for (i, item) in args.items.iter().enumerate() {
            let name = ask!(again = elicit::<Name>(format!("Name for {item}?"))).ok().map(|n| n.name);
            names.push(item.clone());
            names.extend(item.split(',').map(str::to_owned));
            all_lens.extend(&lens);
            slots[i % 2] = item.len();
            drop(name);
        }
        let mut firsts = Vec::new();
        for item in &args.items {
            firsts.push(item.as_str());
        }
        Ok(format!("{kept:?} {labels:?} {firsts:?} {names:?} {all_lens:?} {slots:?}"))
    }

    #[mrtr_tool]
    #[tool(description = "Greets")]
    async fn greet(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let mut kept = std::collections::BTreeMap::new();
        let mut seen = Vec::new();
        for item in &args.items {
            let name = ask!(name = elicit::<Name>(format!("Name for {item}?"))).ok().map(|n| n.name);
            kept.insert(item.as_str(), name);
            seen.push(item);
        }
        Ok(format!("{kept:?} {seen:?}"))
    }

    #[mrtr_tool]
    #[tool(description = "Greets the trimmed")]
    async fn trimmed(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let mut seen = Vec::new();
        for item in &args.items {
            let item = item.trim();
            let name = ask!(name = elicit::<Name>(format!("Name for {item}?"))).ok().map(|n| n.name);
            seen.push(item);
            drop(name);
        }
        Ok(format!("{seen:?}"))
    }

    // Into a collection typed to hold borrows, items split from a local, a place inside one.
    #[mrtr_tool]
    #[tool(description = "Groups")]
    async fn places(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let mut typed: Vec<&str> = Vec::new();
        let mut words = Vec::new();
        let mut groups = std::collections::BTreeMap::new();
        let mut slots = vec![""; 2];
        for (i, item) in args.items.iter().enumerate() {
            let name = ask!(name = elicit::<Name>(format!("Name for {item}?"))).ok().map(|n| n.name);
            typed.push(item);
            words.extend(item.split(','));
            groups.entry(item.len()).or_insert_with(Vec::new).push(item.as_str());
            slots[i % 2] = item.as_str();
            drop(name);
        }
        Ok(format!("{typed:?} {words:?} {groups:?} {slots:?}"))
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
