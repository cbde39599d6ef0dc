//! What the peer drivers (`tests/peers/*/drive*`) are given and what they print: the wizard's
//! scripted answers, keyed by question message, and checks of the calls in a driver's JSON
//! output. Shared by the peer tests of both protocol eras.

use serde_json::{Value, json};

use crate::wizard_text::*;

pub fn accept(content: Value) -> Value {
    json!({ "action": "accept", "content": content })
}

/// The arguments of every wizard call in these scenarios.
pub fn team() -> Value {
    json!({ "team": "Rust" })
}

/// `signup`'s answers: Ada, pro, confirmed.
pub fn signup_answers() -> Vec<Value> {
    vec![
        json!({ "message": WELCOME, "reply": accept(json!({ "name": "Ada" })) }),
        json!({ "message": WHICH_PLAN, "reply": accept(json!({ "plan": "pro" })) }),
        json!({ "message": CONFIRM, "reply": accept(json!({ "confirm": true })) }),
    ]
}

/// `onboard`'s answers after the welcome: an admin, confirmed, watching `mrtr` (all) and
/// `rmcp`, whose level is `rmcp_level`.
pub fn onboard_admin_answers(rmcp_level: Value) -> Vec<Value> {
    vec![
        json!({ "message": WHICH_ROLE, "reply": accept(json!({ "role": "admin" })) }),
        json!({ "message": CONFIRM_ADMIN, "reply": accept(json!({ "confirm": true })) }),
        json!({ "message": FIRST_REPO, "reply": accept(json!({ "repo": "mrtr", "more": true })) }),
        json!({ "message": SECOND_REPO, "reply": accept(json!({ "repo": "rmcp", "more": false })) }),
        json!({ "message": NOTIFY_MRTR, "reply": accept(json!({ "level": "all" })) }),
        json!({ "message": NOTIFY_RMCP, "reply": rmcp_level }),
    ]
}

/// The questions of [`onboard_admin_answers`], welcome included, in the order they come.
pub const ONBOARD_ADMIN_QUESTIONS: [&str; 7] = [
    WELCOME,
    WHICH_ROLE,
    CONFIRM_ADMIN,
    FIRST_REPO,
    SECOND_REPO,
    NOTIFY_MRTR,
    NOTIFY_RMCP,
];

/// The structured result of [`signup_answers`].
pub fn signed_up() -> Value {
    json!({ "name": "Ada", "team": "Rust", "plan": "pro" })
}

/// The structured result of [`onboard_admin_answers`] with `rmcp` on mentions.
pub fn onboarded() -> Value {
    json!({
        "name": "Ada",
        "role": "admin",
        "team": "Rust",
        "repos": [
            { "repo": "mrtr", "level": "all" },
            { "repo": "rmcp", "level": "mentions" },
        ],
    })
}

/// The one call named `name` in the driver's output.
pub fn call_named<'a>(output: &'a Value, name: &str) -> &'a Value {
    let calls = output["calls"].as_array().expect("calls is an array");
    let mut named = calls.iter().filter(|call| call["name"] == name);
    let found = named
        .next()
        .unwrap_or_else(|| panic!("no {name} call: {output}"));
    assert!(named.next().is_none(), "two {name} calls: {output}");
    found
}

/// The driver's only call, which is named `name`.
pub fn only_call<'a>(output: &'a Value, name: &str) -> &'a Value {
    let calls = output["calls"].as_array().expect("calls is an array");
    assert_eq!(calls.len(), 1, "{output}");
    call_named(output, name)
}

/// The message of each question the call was asked, in order.
pub fn messages(call: &Value) -> Vec<&str> {
    call["asked"]
        .as_array()
        .expect("asked is an array")
        .iter()
        .map(|asked| asked["message"].as_str().unwrap_or_default())
        .collect()
}

/// `signup` was asked its three forms: profile, plan and confirmation, by property names.
pub fn assert_signup_forms(call: &Value) {
    let properties: Vec<&Value> = call["asked"]
        .as_array()
        .expect("asked is an array")
        .iter()
        .map(|asked| &asked["properties"])
        .collect();
    assert_eq!(
        properties,
        [
            &json!(["email", "name"]),
            &json!(["plan"]),
            &json!(["confirm"])
        ],
        "{call}"
    );
}

/// The result's only content block is the text `text`.
pub fn assert_text(result: &Value, text: &str) {
    assert_eq!(
        result["content"],
        json!([{ "type": "text", "text": text }]),
        "{result}"
    );
}

/// The call completed: the text `text`, no error, and the structured content `structured`.
pub fn assert_completed(result: &Value, text: &str, structured: Value) {
    assert_text(result, text);
    assert_ne!(result["isError"], true, "{result}");
    assert_eq!(result["structuredContent"], structured, "{result}");
}

/// The tool ended with the error text `text` and no structured content.
pub fn assert_tool_error(result: &Value, text: &str) {
    assert_text(result, text);
    assert_eq!(result["isError"], true, "{result}");
    assert!(result.get("structuredContent").is_none(), "{result}");
}
