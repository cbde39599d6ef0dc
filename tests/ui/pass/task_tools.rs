// Task tools: optional and required, the whole body as the task or from `start_task()` on,
// with the marker in a branch, behind a path, and next to loops and checkpoints. Nothing is
// saved at `start_task()`, so what lives only across it needs no serde: a clock, a guard, a
// borrow, a `for` over borrowed items.
use mrtr::{ask, checkpoint, elicit, mrtr_tool, start_task};
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
    #[mrtr_tool(task = "optional")]
    #[tool(description = "Works, then asks")]
    async fn whole(&self) -> String {
        let mut names = Vec::new();
        for _ in 0..3 {
            names.push(ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name));
            ask!(checkpoint());
        }
        format!("{names:?}")
    }

    #[mrtr_tool(task = "required", replay = "allow")]
    #[tool(description = "Asks, then starts the task")]
    async fn after_input(&self) -> String {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        if name.is_some() {
            mrtr::ask!(mrtr::start_task());
        }
        format!("Hello {name:?}")
    }

    #[mrtr_tool(task = "optional")]
    #[tool(description = "Holds what cannot be saved across the start of its task")]
    async fn holds_across_the_start(&self) -> String {
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name).unwrap_or_default();
        let started = std::time::Instant::now();
        let lock = std::sync::Mutex::new(0u32);
        let _guard = lock.lock();
        let first = name.as_str();
        let mut sum = 0;
        for length in &[1usize, 2, 3] {
            if *length == 2 {
                ask!(start_task());
            }
            sum += length;
        }
        format!("{first} {sum} {:?}", started.elapsed() > std::time::Duration::ZERO)
    }

    #[mrtr_tool(version = "2", task = "optional")]
    #[tool(description = "Starts the task at once")]
    async fn at_once(&self) -> String {
        ask!(start_task());
        let name = ask!(name = elicit::<Name>("Name?")).ok().map(|n| n.name);
        format!("Hello {name:?}")
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

fn main() {}
