// The rewrites that the errors of `str_arm_binding_held`, `str_slices_in_for`,
// `closure_capture_shadowed`, `closure_changes_captures`, `shadow_after_change`,
// `question_built_before_its_ask` and `str_literal_held` suggest compile; so does a changing closure used only before
// the ask.
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
    #[tool(description = "Runs a command")]
    async fn command(&self) -> String {
        let cmd = "greet".to_owned();
        match cmd.as_str() {
            "quit" => "bye".to_owned(),
            other => {
                let other = other.to_owned();
                let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
                format!("{other} {name:?}")
            }
        }
    }

    #[mrtr_tool]
    #[tool(description = "Runs a numbered command")]
    async fn numbered(&self) -> String {
        let (n, cmd) = (1u32, "greet".to_owned());
        match (n, cmd.as_str()) {
            (0, _) => "none".to_owned(),
            (count, verb) => {
                let verb = verb.to_owned();
                let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
                format!("{count} {verb} {name:?}")
            }
        }
    }

    #[mrtr_tool]
    #[tool(description = "Greets a nickname")]
    async fn nickname(&self) -> String {
        let nick: Option<String> = Some("Ada".to_owned());
        if let Some(short) = nick.as_deref() {
            let short = short.to_owned();
            let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
            return format!("{short} {name:?}");
        }
        String::new()
    }

    #[mrtr_tool]
    #[tool(description = "Greets each")]
    async fn greet_each(&self) -> String {
        let line = "Ada,Grace".to_owned();
        let mut greeted = Vec::new();
        for (index, who) in line.split(',').map(str::to_owned).enumerate() {
            let name = ask!(name = elicit::<Name>(format!("{index}: name for {who}?"))).ok();
            greeted.push(name.map(|n| n.name));
        }
        format!("{greeted:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Greets each of a list")]
    async fn greet_listed(&self) -> String {
        let mut greeted = Vec::new();
        for who in ["Ada", "Grace"].map(String::from) {
            let name = ask!(name = elicit::<Name>(format!("Name for {who}?"))).ok();
            greeted.push(name.map(|n| n.name));
        }
        for who in vec!["Ada", "Grace"].into_iter().map(str::to_owned) {
            let name = ask!(again = elicit::<Name>(format!("Again for {who}?"))).ok();
            greeted.push(name.map(|n| n.name));
        }
        format!("{greeted:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Sums a slice's ends")]
    async fn ends(&self) -> String {
        let nums = vec![1u32, 5, 9];
        match nums.as_slice() {
            &[first, .., last] => {
                let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
                format!("{} {name:?}", first + last)
            }
            _ => String::new(),
        }
    }

    #[mrtr_tool]
    #[tool(description = "Adds")]
    async fn add(&self) -> String {
        let n = 1;
        let add = |v: usize| v + n;
        let m = 100;
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{} {m}", add(name.map_or(0, |name| name.len())))
    }

    #[mrtr_tool]
    #[tool(description = "Counts")]
    async fn count(&self) -> String {
        let mut count = 0;
        let mut bump = || count += 1;
        bump();
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        let mut bump = || count += 1;
        bump();
        format!("{count} {name:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Counts before asking")]
    async fn count_before(&self) -> String {
        let mut count = 0;
        let mut bump = || count += 1;
        bump();
        bump();
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{count} {name:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Counts in a loop")]
    async fn count_in_loop(&self) -> String {
        let mut x = 1;
        for i in 0..2 {
            x += 1;
            let shifted = x + i;
            let name = ask!(name = elicit::<Name>(format!("Name {shifted}?"))).ok().map(|n| n.name);
            println!("{name:?}");
        }
        format!("{x}")
    }

    #[mrtr_tool]
    #[tool(description = "Builds its question in a function")]
    async fn asks_a_made_question(&self) -> String {
        let name = ask!(name = name_question("Ada")).ok().map(|n| n.name);
        format!("{name:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Holds an owned greeting")]
    async fn owned_greeting(&self) -> String {
        let greeting = if std::env::var_os("FORMAL").is_some() {
            "Good day".to_owned()
        } else {
            "Hi".to_owned()
        };
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("{greeting} {name:?}")
    }
}

fn name_question(who: &str) -> mrtr::Elicit<Name> {
    elicit::<Name>(format!("Name for {who}?"))
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
