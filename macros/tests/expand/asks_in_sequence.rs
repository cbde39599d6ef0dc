//! A tool that asks the user, then the model, then the client's roots. (Forms and their derive
//! are in `form_derive.rs`, so that this expansion is the tool's alone.)
use mrtr::{UrlElicited, ask, elicit_url, mrtr_tool, roots, sample};
use rmcp::{handler::server::wrapper::Parameters, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    team: String,
}

struct Wizard;

#[tool_router]
impl Wizard {
    #[mrtr_tool]
    #[tool(description = "Welcome someone to a team")]
    async fn welcome(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let team = args.team.trim().to_owned();
        match ask!(terms = elicit_url("Accept the terms", "https://example.com/terms")) {
            UrlElicited::Accept => {}
            UrlElicited::Decline(refused) | UrlElicited::Cancel(refused) => {
                return Err(refused.to_string());
            }
        }
        let greeting = ask!(greeting = sample("Write a one-line welcome").max_tokens(40)).text;
        let places = ask!(roots()).len();
        Ok([team, greeting, places.to_string()].join(" "))
    }
}

impl mrtr::MrtrServer for Wizard {}

fn main() {}
