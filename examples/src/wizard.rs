//! The wizard server: `signup` asks three questions, one per round.

use mrtr::{Engine, Form, Refused, ask, elicit, mrtr_tool};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, ContentBlock, Implementation, ProtocolVersion, ServerCapabilities,
        ServerConfig,
    },
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Arguments of `signup`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SignupArgs {
    /// The team to join.
    pub team: String,
}

/// Round 1: who is signing up.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct Profile {
    /// What we should call you.
    pub name: String,
    /// Where to send the welcome mail.
    #[schemars(email)]
    pub email: Option<String>,
}

/// The plans on offer.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, Form)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    Free,
    Pro,
    Enterprise,
}

impl Plan {
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
            Plan::Enterprise => "enterprise",
        }
    }
}

/// Round 2: which plan.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct PlanChoice {
    pub plan: Plan,
}

/// Round 3: last check.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct Confirm {
    pub confirm: bool,
}

/// Arguments of `onboard`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct OnboardArgs {
    /// The team to join.
    pub team: String,
}

/// Onboarding round 1: just a name.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct Name {
    pub name: String,
}

/// The roles a member can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Form)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Developer,
    Admin,
    Viewer,
}

/// Onboarding round 2: the role.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct RoleChoice {
    pub role: Role,
}

/// One repository to watch, and whether more follow.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct RepoAnswer {
    pub repo: String,
    pub more: bool,
}

/// How much to hear about a repository.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, Form)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    All,
    Mentions,
    None,
}

/// The notification level for one repository.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct LevelChoice {
    pub level: Level,
}

/// The most repositories `onboard` asks for.
pub const MAX_REPOS: usize = 5;

fn wire_name<T: Serialize>(value: T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// A server with resumable tools: `signup` (three rounds in a row), `onboard` (a branch and
/// two loops), the benchmark tools of [`questions`](crate::questions), and `provision`, a task
/// for clients that support tasks ([`provision`](crate::provision)).
#[derive(Clone)]
pub struct Wizard {
    tool_router: ToolRouter<Self>,
    engine: Engine,
}

impl Wizard {
    /// A wizard that seals its state with `engine`.
    pub fn new(engine: Engine) -> Self {
        Self {
            tool_router: Self::tool_router()
                + Self::onboard_router()
                + Self::questions_router()
                + Self::provision_router(),
            engine,
        }
    }
}

fn cancelled(refused: Refused) -> String {
    format!("Signup cancelled at {}", refused.key)
}

fn onboarding_cancelled(refused: Refused) -> String {
    format!("Onboarding cancelled at {}", refused.key)
}

#[tool_router]
impl Wizard {
    #[mrtr_tool]
    #[tool(description = "Sign up to a team: asks for your profile, a plan and a confirmation")]
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
        let mut result = CallToolResult::success(vec![ContentBlock::text(format!(
            "Signed up {} to {} on the {} plan",
            profile.name,
            args.team,
            plan.as_str()
        ))]);
        result.structured_content = Some(serde_json::json!({
            "name": profile.name,
            "team": args.team,
            "plan": plan.as_str(),
        }));
        // The call's one effect. Single use makes it run once per flow, however often the
        // client sends the final state.
        tracing::info!(
            "signed up {} to {} on the {} plan",
            profile.name,
            args.team,
            plan.as_str()
        );
        Ok(result)
    }
}

#[tool_router(router = onboard_router)]
impl Wizard {
    #[mrtr_tool]
    #[tool(
        description = "Onboard to a team: your name, a role, the repositories to watch and \
                          how much to hear about each"
    )]
    async fn onboard(
        &self,
        Parameters(args): Parameters<OnboardArgs>,
    ) -> Result<CallToolResult, String> {
        let name = ask!(
            profile = elicit::<Name>(format!(
                "Welcome to {}! What should we call you?",
                args.team
            ))
        )
        .accepted()
        .map_err(onboarding_cancelled)?
        .name;

        let mut role = ask!(role = elicit::<RoleChoice>("Which role will you take?"))
            .accepted()
            .map_err(onboarding_cancelled)?
            .role;
        if role == Role::Admin {
            let confirmed = ask!(
                confirm_admin =
                    elicit::<Confirm>("Admins can delete repositories. Continue as admin?")
            )
            .accepted()
            .map_err(onboarding_cancelled)?
            .confirm;
            if !confirmed {
                role = Role::Developer;
            }
        }

        let mut repos = Vec::new();
        loop {
            let answer = ask!(
                repo = elicit::<RepoAnswer>(format!(
                    "Add a repository to watch ({} so far)",
                    repos.len()
                ))
            )
            .accepted()
            .map_err(onboarding_cancelled)?;
            repos.push(answer.repo);
            if !answer.more || repos.len() == MAX_REPOS {
                break;
            }
        }

        let mut watched = Vec::new();
        for repo in repos {
            let level = ask!(notify = elicit::<LevelChoice>(format!("Notifications for {repo}?")))
                .accepted()
                .map_err(onboarding_cancelled)?
                .level;
            watched.push((repo, level));
        }

        let listing: Vec<String> = watched
            .iter()
            .map(|(repo, level)| format!("{repo}={}", wire_name(level)))
            .collect();
        let mut result = CallToolResult::success(vec![ContentBlock::text(format!(
            "Onboarded {name} as {} to {}: {}",
            wire_name(role),
            args.team,
            listing.join(", ")
        ))]);
        result.structured_content = Some(serde_json::json!({
            "name": name,
            "role": role,
            "team": args.team,
            "repos": watched
                .iter()
                .map(|(repo, level)| serde_json::json!({"repo": repo, "level": level}))
                .collect::<Vec<_>>(),
        }));
        Ok(result)
    }
}

impl mrtr::MrtrServer for Wizard {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Wizard {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "mrtr-wizard",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions("Call `signup` or `onboard` with a team name; each asks its questions round by round.")
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(&[ProtocolVersion::V_2026_07_28])
    }
}
