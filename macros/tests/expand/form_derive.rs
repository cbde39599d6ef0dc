//! `#[derive(Form)]` on a form and on a choice.
#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
#[serde(rename_all = "lowercase")]
enum Plan {
    /// For one person
    Free,
    /// For a team
    Pro,
}

#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
struct Signup {
    /// What should we call you?
    name: String,
    plan: Plan,
    newsletter: Option<bool>,
}

fn main() {}
