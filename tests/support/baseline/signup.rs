//! `signup` by hand: a profile, a plan, a confirmation, one question per round.

use rmcp::{
    ErrorData,
    handler::server::{
        tool::{InputResponses as Responses, RequestState},
        wrapper::Parameters,
    },
    model::CallToolResponse,
    tool, tool_router,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{HandWritten, Reply, binding, done, failed, reply};

#[derive(Deserialize, schemars::JsonSchema)]
pub struct SignupArgs {
    pub team: String,
}

/// The question a round asks, with what the rounds after it need.
#[derive(Serialize, Deserialize)]
enum Step {
    Profile,
    Plan { name: String },
    Confirm { name: String, plan: Plan },
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Plan {
    Free,
    Pro,
    Enterprise,
}

impl Plan {
    fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
            Plan::Enterprise => "enterprise",
        }
    }
}

#[derive(Deserialize)]
struct Profile {
    name: String,
    #[allow(dead_code)] // Read only to check that it fits.
    email: Option<String>,
}

#[derive(Deserialize)]
struct PlanChoice {
    plan: Plan,
}

#[derive(Deserialize)]
struct Confirm {
    confirm: bool,
}

// The requested schemas, as mrtr's `#[derive(Form)]` makes them from the form types of
// `mrtr_examples::wizard` (doc comments of fields and enums become descriptions), written as
// they travel: rmcp puts the keys in order.
const PROFILE_SCHEMA: &str = r#"{"properties":{"email":{"description":"Where to send the welcome mail.","format":"email","type":"string"},"name":{"description":"What we should call you.","type":"string"}},"required":["name"],"type":"object"}"#;
const PLAN_SCHEMA: &str = r#"{"properties":{"plan":{"description":"The plans on offer.","enum":["free","pro","enterprise"],"type":"string"}},"required":["plan"],"type":"object"}"#;
const CONFIRM_SCHEMA: &str =
    r#"{"properties":{"confirm":{"type":"boolean"}},"required":["confirm"],"type":"object"}"#;

impl Step {
    fn key(&self) -> &'static str {
        match self {
            Step::Profile => "profile",
            Step::Plan { .. } => "plan",
            Step::Confirm { .. } => "confirm",
        }
    }

    fn message(&self, team: &str) -> String {
        match self {
            Step::Profile => format!("Welcome to {team}! What should we call you?"),
            Step::Plan { .. } => "Which plan would you like?".to_owned(),
            Step::Confirm { name, plan } => format!("Sign {name} up for {}?", plan.as_str()),
        }
    }

    fn schema(&self) -> &'static str {
        match self {
            Step::Profile => PROFILE_SCHEMA,
            Step::Plan { .. } => PLAN_SCHEMA,
            Step::Confirm { .. } => CONFIRM_SCHEMA,
        }
    }
}

#[tool_router(router = signup_router, vis = "pub(super)")]
impl HandWritten {
    #[tool(description = "Sign up, written by hand")]
    async fn signup(
        &self,
        Parameters(args): Parameters<SignupArgs>,
        RequestState(state): RequestState,
        Responses(responses): Responses,
    ) -> Result<CallToolResponse, ErrorData> {
        let binding = binding("signup", args.team.as_bytes());
        let step = self.open(state, &binding, Step::Profile)?;
        let key = step.key();
        let cancelled = || failed(format!("Signup cancelled at {key}"));
        let next = match step {
            Step::Profile => match reply::<Profile>(&responses, key) {
                Reply::Accepted(profile) => Step::Plan { name: profile.name },
                Reply::Refused => return cancelled(),
                Reply::Unusable => Step::Profile,
            },
            Step::Plan { name } => match reply::<PlanChoice>(&responses, key) {
                Reply::Accepted(choice) => Step::Confirm {
                    name,
                    plan: choice.plan,
                },
                Reply::Refused => return cancelled(),
                Reply::Unusable => Step::Plan { name },
            },
            Step::Confirm { name, plan } => match reply::<Confirm>(&responses, key) {
                Reply::Accepted(Confirm { confirm: true }) => {
                    let plan = plan.as_str();
                    let team = &args.team;
                    return done(
                        format!("Signed up {name} to {team} on the {plan} plan"),
                        Some(json!({"name": name, "team": team, "plan": plan})),
                    );
                }
                Reply::Accepted(Confirm { confirm: false }) => {
                    return done("Signup aborted".to_owned(), None);
                }
                Reply::Refused => return cancelled(),
                Reply::Unusable => Step::Confirm { name, plan },
            },
        };
        self.ask(
            &binding,
            next.key(),
            next.message(&args.team),
            next.schema(),
            &next,
        )
    }
}
