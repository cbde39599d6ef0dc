//! What single use costs: the wizard's three-question `signup` twice, once single-use (the
//! default) and once with `replay = "allow"`, on one server, for the benchmark to compare.

use mrtr::{Engine, Refused, ask, elicit, mrtr_tool};
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

fn cancelled(refused: Refused) -> String {
    format!("Signup cancelled at {}", refused.key)
}

/// The wizard's last step, as its `signup` ends.
fn signed_up(team: &str, profile: &Profile, plan: &str) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(format!(
        "Signed up {} to {} on the {} plan",
        profile.name, team, plan
    ))]);
    result.structured_content = Some(serde_json::json!({
        "name": profile.name,
        "team": team,
        "plan": plan,
    }));
    tracing::info!(
        "signed up {} to {} on the {} plan",
        profile.name,
        team,
        plan
    );
    result
}

// Both bodies are the wizard's `signup`, word for word but for the last step's helper, so that
// `signup_replayable` is also the hand-written tool's work without single use.
#[tool_router]
impl Signups {
    #[mrtr_tool]
    #[tool(description = "Three questions; each state opens once")]
    async fn signup(
        &self,
        Parameters(args): Parameters<SignupArgs>,
    ) -> Result<CallToolResult, String> {
        let profile = ask!(
            profile = elicit::<Profile>(format!(
                "Welcome to {}! What should we call you?",
                args.team
            ))
        )
        .accepted()
        .map_err(cancelled)?;
        let plan = ask!(plan = elicit::<PlanChoice>("Which plan would you like?"))
            .accepted()
            .map_err(cancelled)?
            .plan;
        let confirmed = ask!(
            confirm = elicit::<Confirm>(format!("Sign {} up for {}?", profile.name, plan.as_str()))
        )
        .accepted()
        .map_err(cancelled)?
        .confirm;
        if !confirmed {
            return Ok(CallToolResult::success(vec![ContentBlock::text(
                "Signup aborted",
            )]));
        }
        Ok(signed_up(&args.team, &profile, plan.as_str()))
    }

    #[mrtr_tool(replay = "allow")]
    #[tool(description = "The same three questions; states may be replayed")]
    async fn signup_replayable(
        &self,
        Parameters(args): Parameters<SignupArgs>,
    ) -> Result<CallToolResult, String> {
        let profile = ask!(
            profile = elicit::<Profile>(format!(
                "Welcome to {}! What should we call you?",
                args.team
            ))
        )
        .accepted()
        .map_err(cancelled)?;
        let plan = ask!(plan = elicit::<PlanChoice>("Which plan would you like?"))
            .accepted()
            .map_err(cancelled)?
            .plan;
        let confirmed = ask!(
            confirm = elicit::<Confirm>(format!("Sign {} up for {}?", profile.name, plan.as_str()))
        )
        .accepted()
        .map_err(cancelled)?
        .confirm;
        if !confirmed {
            return Ok(CallToolResult::success(vec![ContentBlock::text(
                "Signup aborted",
            )]));
        }
        Ok(signed_up(&args.team, &profile, plan.as_str()))
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
