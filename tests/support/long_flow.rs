//! A flow as long as you like: the wizard's `questions` body with `replay = "allow"`, so a
//! benchmark can send the same round's state again and again and time a real resume each time.

use mrtr::{Engine, ask, elicit, mrtr_tool};
use mrtr_examples::questions::{Answer, QuestionsArgs};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
};

#[derive(Clone)]
pub struct LongFlow {
    tool_router: ToolRouter<Self>,
    engine: Engine,
}

impl LongFlow {
    pub fn new(engine: Engine) -> Self {
        Self {
            tool_router: Self::tool_router(),
            engine,
        }
    }
}

#[tool_router]
impl LongFlow {
    #[mrtr_tool(replay = "allow")]
    #[tool(description = "Asks `questions` questions under the key q and joins the answers")]
    async fn questions_replayable(
        &self,
        Parameters(args): Parameters<QuestionsArgs>,
    ) -> Result<String, String> {
        let total = args.questions;
        let mut answers = Vec::new();
        for number in 1..=total {
            let answer = ask!(q = elicit::<Answer>(format!("Question {number} of {total}")))
                .accepted()
                .map_err(|refused| refused.to_string())?
                .answer;
            answers.push(answer);
        }
        Ok(answers.join(", "))
    }
}

impl mrtr::MrtrServer for LongFlow {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for LongFlow {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}
