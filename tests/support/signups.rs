//! What single use costs: the wizard's three-question `signup` twice, once single-use (the
//! default) and once with `replay = "allow"`, on one server, for the benchmark to compare.

use mrtr::{Engine, ask, elicit, mrtr_tool};
use mrtr_examples::wizard::{Confirm, PlanChoice, Profile, SignupArgs};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
};

#[derive(Clone)]
pub struct Signups {
    tool_router: ToolRouter<Self>,
    engine: Engine,
}

impl Signups {
    pub fn new(engine: Engine) -> Self {
        Self {
            tool_router: Self::tool_router(),
            engine,
        }
    }
}

fn signed_up(team: &str, name: &str, plan: &str, confirmed: bool) -> CallToolResult {
    let text = match confirmed {
        true => format!("Signed up {name} to {team} on the {plan} plan"),
        false => "Signup aborted".to_owned(),
    };
    CallToolResult::success(vec![ContentBlock::text(text)])
}

#[tool_router]
impl Signups {
    #[mrtr_tool]
    #[tool(description = "Three questions; each state opens once")]
    async fn signup(
        &self,
        Parameters(args): Parameters<SignupArgs>,
    ) -> Result<CallToolResult, String> {
        let name = ask!(profile = elicit::<Profile>("Name?"))
            .accepted()
            .map_err(|r| r.to_string())?
            .name;
        let plan = ask!(plan = elicit::<PlanChoice>("Plan?"))
            .accepted()
            .map_err(|r| r.to_string())?
            .plan;
        let confirmed = ask!(confirm = elicit::<Confirm>("Sure?"))
            .accepted()
            .map_err(|r| r.to_string())?
            .confirm;
        Ok(signed_up(&args.team, &name, plan.as_str(), confirmed))
    }

    #[mrtr_tool(replay = "allow")]
    #[tool(description = "The same three questions; states may be replayed")]
    async fn signup_replayable(
        &self,
        Parameters(args): Parameters<SignupArgs>,
    ) -> Result<CallToolResult, String> {
        let name = ask!(profile = elicit::<Profile>("Name?"))
            .accepted()
            .map_err(|r| r.to_string())?
            .name;
        let plan = ask!(plan = elicit::<PlanChoice>("Plan?"))
            .accepted()
            .map_err(|r| r.to_string())?
            .plan;
        let confirmed = ask!(confirm = elicit::<Confirm>("Sure?"))
            .accepted()
            .map_err(|r| r.to_string())?
            .confirm;
        Ok(signed_up(&args.team, &name, plan.as_str(), confirmed))
    }
}

impl mrtr::MrtrServer for Signups {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Signups {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}
