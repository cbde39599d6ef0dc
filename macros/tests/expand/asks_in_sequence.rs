//! A tool that asks the user, then the model, then the client's roots. (Forms and their derive
//! are in `form_derive.rs`, and the arguments are a plain JSON object, so that this expansion
//! is the tool's and rmcp's alone.)
use mrtr::{UrlElicited, ask, elicit_url, mrtr_tool, roots, sample};
use rmcp::{handler::server::wrapper::Parameters, model::JsonObject, tool, tool_router};

struct Wizard;

#[tool_router]
impl Wizard {
    #[mrtr_tool]
    #[tool(description = "Welcome someone to a team")]
    async fn welcome(&self, Parameters(args): Parameters<JsonObject>) -> Result<String, String> {
        let team = args.get("team").and_then(|team| team.as_str()).unwrap_or("").to_owned();
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
