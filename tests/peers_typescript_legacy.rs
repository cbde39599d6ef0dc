//! The wizard driven by the official TypeScript SDK v1 client (`@modelcontextprotocol/sdk`
//! 1.32.2, `tests/peers/typescript/drive_legacy.mjs`), a client of the earlier protocol: it
//! opens a 2025-11-25 session with `initialize` and answers each question as a server-initiated
//! `elicitation/create` on that session, while [`mrtr::Bridged`] runs the tool's rounds in
//! process. Each scenario runs over loopback Streamable HTTP (the wizard served in this process
//! by `serve_http`, with an `Mcp-Session-Id` session) and over stdio (the `wizard-stdio` binary,
//! which the SDK spawns as its child).
//!
//! The driver takes a scenario as JSON, the tool calls to make and the answers to give keyed by
//! the question's message, and prints one JSON line: the negotiated protocol version, the
//! session id and, per call, the questions it was asked and the final `CallToolResult`.

use mrtr_examples::wizard::Wizard;
use mrtr_tests::{clock::TestClock, loopback::Served};
use mrtr_tests::{driver_output::*, wizard_text::*};
use serde_json::{Value, json};

/// How the SDK reaches the wizard.
#[derive(Debug, Clone, Copy)]
enum Via {
    /// Streamable HTTP on 127.0.0.1, the wizard served in this process by `serve_http`.
    Http,
    /// stdio, the `wizard-stdio` binary at this path spawned by the SDK.
    Stdio(&'static str),
}

/// Runs the driver against a fresh wizard reached `via`, on `scenario`, and returns its JSON
/// output, after checking that the client negotiated 2025-11-25 (on a session, over HTTP).
async fn drive(via: Via, scenario: &Value) -> anyhow::Result<Value> {
    let node = tokio::task::spawn_blocking(mrtr_tests::peers::node).await?;
    let script = mrtr_tests::peers::dir().join("typescript/drive_legacy.mjs");
    let scenario = scenario.to_string();
    // Stopped when dropped, after the driver is done.
    let served = match via {
        Via::Http => Some(Served::start(Wizard::new(TestClock::default().engine())).await?),
        Via::Stdio(_) => None,
    };
    let target: Vec<&str> = match (via, &served) {
        (Via::Http, Some(served)) => vec!["--url", &served.url],
        (Via::Stdio(program), _) => vec!["--stdio", program],
        (Via::Http, None) => unreachable!("served above"),
    };
    let args: Vec<&str> = target.into_iter().chain([scenario.as_str()]).collect();
    let output = mrtr_tests::peers::run_driver(&node, &script, &args).await?;
    drop(served);
    assert_session(&output, via);
    Ok(output)
}

/// The client is the v1 SDK on 2025-11-25; over HTTP it holds an `Mcp-Session-Id`.
fn assert_session(output: &Value, via: Via) {
    assert_eq!(output["client"], "typescript-v1", "{output}");
    assert_eq!(output["protocolVersion"], "2025-11-25", "{output}");
    match via {
        Via::Http => {
            assert_eq!(output["transport"], "http", "{output}");
            assert!(
                output["sessionId"]
                    .as_str()
                    .is_some_and(|id| !id.is_empty()),
                "no Mcp-Session-Id: {output}"
            );
        }
        Via::Stdio(_) => assert_eq!(output["transport"], "stdio", "{output}"),
    }
}

/// `signup` for team Rust: Ada, pro, confirmed.
async fn signup(via: Via) -> anyhow::Result<()> {
    let scenario = json!({
        "calls": [{ "name": "signup", "arguments": team() }],
        "answers": signup_answers(),
    });
    let output = drive(via, &scenario).await?;
    let call = only_call(&output, "signup");
    assert_eq!(messages(call), [WELCOME, WHICH_PLAN, CONFIRM], "{call}");
    assert_signup_forms(call);
    assert_completed(&call["result"], SIGNED_UP, signed_up());
    Ok(())
}

/// `onboard` for team Rust through the branch (admin, confirmed), the `loop` (two
/// repositories) and the `for` (a level for each).
async fn onboard(via: Via) -> anyhow::Result<()> {
    let mut answers = signup_answers();
    answers.truncate(1);
    answers.extend(onboard_admin_answers(accept(
        json!({ "level": "mentions" }),
    )));
    let scenario = json!({
        "calls": [{ "name": "onboard", "arguments": team() }],
        "answers": answers,
    });
    let output = drive(via, &scenario).await?;
    let call = only_call(&output, "onboard");
    assert_eq!(messages(call), ONBOARD_ADMIN_QUESTIONS, "{call}");
    assert_completed(&call["result"], ONBOARDED, onboarded());
    Ok(())
}

/// `onboard` with two repositories, the level of the first given and that of the second
/// declined: the tool ends inside its `for` loop, with a tool error.
async fn declining_in_the_for_loop_cancels_onboarding(via: Via) -> anyhow::Result<()> {
    let scenario = json!({
        "calls": [{ "name": "onboard", "arguments": team() }],
        "answers": [
            { "message": WELCOME, "reply": accept(json!({ "name": "Ada" })) },
            { "message": WHICH_ROLE, "reply": accept(json!({ "role": "developer" })) },
            { "message": FIRST_REPO, "reply": accept(json!({ "repo": "mrtr", "more": true })) },
            { "message": SECOND_REPO, "reply": accept(json!({ "repo": "rmcp", "more": false })) },
            { "message": NOTIFY_MRTR, "reply": accept(json!({ "level": "all" })) },
            { "message": NOTIFY_RMCP, "reply": { "action": "decline" } },
        ],
    });
    let output = drive(via, &scenario).await?;
    let call = only_call(&output, "onboard");
    assert_eq!(
        messages(call),
        [
            WELCOME,
            WHICH_ROLE,
            FIRST_REPO,
            SECOND_REPO,
            NOTIFY_MRTR,
            NOTIFY_RMCP
        ],
        "{call}"
    );
    assert_tool_error(&call["result"], CANCELLED_AT_NOTIFY);
    Ok(())
}

/// One module per transport, one test per scenario.
macro_rules! legacy_tests {
    ($($module:ident: $via:expr;)*) => {
        $(
            mod $module {
                use super::Via;

                #[tokio::test]
                async fn signup_to_completion() -> anyhow::Result<()> {
                    super::signup($via).await
                }

                #[tokio::test]
                async fn onboard_through_the_branch_and_both_loops() -> anyhow::Result<()> {
                    super::onboard($via).await
                }

                #[tokio::test]
                async fn declining_in_the_for_loop_cancels_onboarding() -> anyhow::Result<()> {
                    super::declining_in_the_for_loop_cancels_onboarding($via).await
                }
            }
        )*
    };
}

legacy_tests! {
    http: Via::Http;
    stdio: Via::Stdio(env!("CARGO_BIN_EXE_wizard-stdio"));
}
