//! A task tool that asks before its task starts and works after it, over Streamable HTTP,
//! configured from the environment as `wizard-http` is (`MRTR_KEYS`, `MRTR_REDIS_URL`), for
//! the fleet test that kills an instance while such a task works.
//!
//! Usage: `task-tools-http ADDR`.

use std::{net::SocketAddr, time::Duration};

use mrtr::{Engine, Form, ask, elicit, mrtr_tool, start_task};
use mrtr_examples::serve::{self, Clients};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Word {
    word: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Confirm {
    confirm: bool,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct WorkArgs {
    /// How long the task works before its question, in milliseconds (at most 10,000).
    work_ms: u64,
}

#[derive(Clone)]
struct TaskTools {
    tool_router: ToolRouter<Self>,
    engine: Engine,
}

#[tool_router]
impl TaskTools {
    #[mrtr_tool(task = "required")]
    #[tool(description = "Asks for a word, starts its task, works, then asks to keep the word")]
    async fn word_then_work(
        &self,
        Parameters(args): Parameters<WorkArgs>,
    ) -> Result<String, String> {
        let word = ask!(word = elicit::<Word>("Word?"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .word;
        ask!(start_task());
        tokio::time::sleep(Duration::from_millis(args.work_ms.min(10_000))).await;
        let keep = ask!(confirm = elicit::<Confirm>(format!("Keep {word}?")))
            .accepted()
            .is_ok_and(|answer| answer.confirm);
        Ok(format!("{word}: {keep}"))
    }
}

impl mrtr::MrtrServer for TaskTools {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for TaskTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    serve::init_logging();
    let [addr] = <[String; 1]>::try_from(std::env::args().skip(1).collect::<Vec<_>>())
        .map_err(|_| anyhow::anyhow!("usage: task-tools-http ADDR"))?;
    let addr: SocketAddr = addr.parse()?;
    let engine = mrtr::EngineBuilder::from_env()?
        .without_principal()
        .build()?;
    let tools = TaskTools {
        tool_router: TaskTools::tool_router(),
        engine,
    };
    serve::serve_http_until_ctrl_c("task-tools", tools, addr, Clients::EveryEra).await
}
