//! `onboard` by hand: a name, a role (an admin confirms, or becomes a developer), the
//! repositories to watch (asked in a loop until `more` is false or there are five) and a
//! notification level for each (asked in a loop over them).

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
pub struct OnboardArgs {
    pub team: String,
}

/// The most repositories `onboard` asks for.
const MAX_REPOS: usize = 5;

/// The question a round asks, with what the rounds after it need.
#[derive(Serialize, Deserialize)]
enum Step {
    /// `profile`.
    Name,
    /// `role`.
    Role { name: String },
    /// `confirm_admin`: the role is admin if confirmed, else developer.
    ConfirmAdmin { name: String },
    /// `repo`, with the repositories given so far (fewer than five).
    Repo {
        name: String,
        role: Role,
        repos: Vec<String>,
    },
    /// `notify` for `repos[levels.len()]`, with the levels of the repositories before it.
    Notify {
        name: String,
        role: Role,
        repos: Vec<String>,
        levels: Vec<Level>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Role {
    Developer,
    Admin,
    Viewer,
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Level {
    All,
    Mentions,
    None,
}

impl Role {
    fn as_str(self) -> &'static str {
        match self {
            Role::Developer => "developer",
            Role::Admin => "admin",
            Role::Viewer => "viewer",
        }
    }
}

impl Level {
    fn as_str(self) -> &'static str {
        match self {
            Level::All => "all",
            Level::Mentions => "mentions",
            Level::None => "none",
        }
    }
}

#[derive(Deserialize)]
struct Name {
    name: String,
}

#[derive(Deserialize)]
struct RoleChoice {
    role: Role,
}

#[derive(Deserialize)]
struct Confirm {
    confirm: bool,
}

#[derive(Deserialize)]
struct RepoAnswer {
    repo: String,
    more: bool,
}

#[derive(Deserialize)]
struct LevelChoice {
    level: Level,
}

// The requested schemas, as mrtr's `#[derive(Form)]` makes them from the form types of
// `mrtr_examples::wizard` (doc comments of fields and enums become descriptions), written as
// they travel: rmcp puts the keys in order.
const NAME_SCHEMA: &str =
    r#"{"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}"#;
const ROLE_SCHEMA: &str = r#"{"properties":{"role":{"description":"The roles a member can take.","enum":["developer","admin","viewer"],"type":"string"}},"required":["role"],"type":"object"}"#;
const CONFIRM_SCHEMA: &str =
    r#"{"properties":{"confirm":{"type":"boolean"}},"required":["confirm"],"type":"object"}"#;
const REPO_SCHEMA: &str = r#"{"properties":{"more":{"type":"boolean"},"repo":{"type":"string"}},"required":["repo","more"],"type":"object"}"#;
const LEVEL_SCHEMA: &str = r#"{"properties":{"level":{"description":"How much to hear about a repository.","enum":["all","mentions","none"],"type":"string"}},"required":["level"],"type":"object"}"#;

impl Step {
    fn key(&self) -> &'static str {
        match self {
            Step::Name => "profile",
            Step::Role { .. } => "role",
            Step::ConfirmAdmin { .. } => "confirm_admin",
            Step::Repo { .. } => "repo",
            Step::Notify { .. } => "notify",
        }
    }

    fn message(&self, team: &str) -> String {
        match self {
            Step::Name => format!("Welcome to {team}! What should we call you?"),
            Step::Role { .. } => "Which role will you take?".to_owned(),
            Step::ConfirmAdmin { .. } => {
                "Admins can delete repositories. Continue as admin?".to_owned()
            }
            Step::Repo { repos, .. } => {
                format!("Add a repository to watch ({} so far)", repos.len())
            }
            Step::Notify { repos, levels, .. } => {
                format!("Notifications for {}?", repos[levels.len()])
            }
        }
    }

    fn schema(&self) -> &'static str {
        match self {
            Step::Name => NAME_SCHEMA,
            Step::Role { .. } => ROLE_SCHEMA,
            Step::ConfirmAdmin { .. } => CONFIRM_SCHEMA,
            Step::Repo { .. } => REPO_SCHEMA,
            Step::Notify { .. } => LEVEL_SCHEMA,
        }
    }
}

#[tool_router(router = onboard_router, vis = "pub(super)")]
impl HandWritten {
    #[tool(description = "Onboard to a team, written by hand")]
    async fn onboard(
        &self,
        Parameters(args): Parameters<OnboardArgs>,
        RequestState(state): RequestState,
        Responses(responses): Responses,
    ) -> Result<CallToolResponse, ErrorData> {
        let binding = binding("onboard", args.team.as_bytes());
        let step = self.open(state, &binding, Step::Name)?;
        // A state whose `notify` points past its repositories was not sealed here.
        if let Step::Notify { repos, levels, .. } = &step
            && levels.len() >= repos.len()
        {
            return Err(ErrorData::internal_error("inconsistent onboard step", None));
        }
        let key = step.key();
        let cancelled = || failed(format!("Onboarding cancelled at {key}"));
        let next = match step {
            Step::Name => match reply::<Name>(&responses, key) {
                Reply::Accepted(Name { name }) => Step::Role { name },
                Reply::Refused => return cancelled(),
                Reply::Unusable => Step::Name,
            },
            Step::Role { name } => match reply::<RoleChoice>(&responses, key) {
                Reply::Accepted(RoleChoice { role: Role::Admin }) => Step::ConfirmAdmin { name },
                Reply::Accepted(RoleChoice { role }) => Step::Repo {
                    name,
                    role,
                    repos: Vec::new(),
                },
                Reply::Refused => return cancelled(),
                Reply::Unusable => Step::Role { name },
            },
            Step::ConfirmAdmin { name } => match reply::<Confirm>(&responses, key) {
                Reply::Accepted(Confirm { confirm }) => Step::Repo {
                    name,
                    role: if confirm {
                        Role::Admin
                    } else {
                        Role::Developer
                    },
                    repos: Vec::new(),
                },
                Reply::Refused => return cancelled(),
                Reply::Unusable => Step::ConfirmAdmin { name },
            },
            Step::Repo {
                name,
                role,
                mut repos,
            } => match reply::<RepoAnswer>(&responses, key) {
                Reply::Accepted(answer) => {
                    repos.push(answer.repo);
                    if answer.more && repos.len() < MAX_REPOS {
                        Step::Repo { name, role, repos }
                    } else {
                        Step::Notify {
                            name,
                            role,
                            repos,
                            levels: Vec::new(),
                        }
                    }
                }
                Reply::Refused => return cancelled(),
                Reply::Unusable => Step::Repo { name, role, repos },
            },
            Step::Notify {
                name,
                role,
                repos,
                mut levels,
            } => match reply::<LevelChoice>(&responses, key) {
                Reply::Accepted(LevelChoice { level }) => {
                    levels.push(level);
                    if levels.len() == repos.len() {
                        return onboarded(&name, role, &args.team, &repos, &levels);
                    }
                    Step::Notify {
                        name,
                        role,
                        repos,
                        levels,
                    }
                }
                Reply::Refused => return cancelled(),
                Reply::Unusable => Step::Notify {
                    name,
                    role,
                    repos,
                    levels,
                },
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

/// The result of a whole onboarding.
fn onboarded(
    name: &str,
    role: Role,
    team: &str,
    repos: &[String],
    levels: &[Level],
) -> Result<CallToolResponse, ErrorData> {
    let listing: Vec<String> = repos
        .iter()
        .zip(levels)
        .map(|(repo, level)| format!("{repo}={}", level.as_str()))
        .collect();
    done(
        format!(
            "Onboarded {name} as {} to {team}: {}",
            role.as_str(),
            listing.join(", ")
        ),
        Some(json!({
            "name": name,
            "role": role.as_str(),
            "team": team,
            "repos": repos
                .iter()
                .zip(levels)
                .map(|(repo, level)| json!({"repo": repo, "level": level.as_str()}))
                .collect::<Vec<_>>(),
        })),
    )
}
