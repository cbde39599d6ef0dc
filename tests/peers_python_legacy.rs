//! The wizard driven by the official Python SDK (`mcp` 2.3.0) as a client of the earlier
//! protocol (`tests/peers/python/drive_legacy.py`): `Client(..., mode="legacy")` initializes at
//! 2025-11-25 and answers each question, sent on its session as an `elicitation/create`
//! request by [`mrtr::Bridged`], through its elicitation callback; the tool then completes with
//! a normal result. Every scenario runs over Streamable HTTP with a session (the wizard served
//! in this process by `serve_http`) and over stdio (the `wizard-stdio` binary, launched by the
//! SDK).

use mrtr_examples::wizard::Wizard;
use mrtr_tests::{clock::TestClock, loopback::Served};
use mrtr_tests::{driver_output::*, wizard_text::*};
use serde_json::{Value, json};

/// How the driver reaches the wizard.
#[derive(Debug, Clone, Copy)]
enum Via {
    /// Streamable HTTP on 127.0.0.1, a fresh wizard served in this process by `serve_http`.
    Http,
    /// The SDK launches the `wizard-stdio` binary and speaks to it over stdin/stdout.
    Stdio,
}

/// Runs `drive_legacy.py` on `scenario` against a fresh wizard reached `via`, and returns its
/// JSON output, after checking it reports the transport and protocol 2025-11-25.
async fn drive(via: Via, scenario: &Value) -> anyhow::Result<Value> {
    let python = tokio::task::spawn_blocking(mrtr_tests::peers::python).await?;
    let script = mrtr_tests::peers::dir().join("python/drive_legacy.py");
    // Kept until the driver is done; dropping it stops the server.
    let mut served = None;
    let (flag, target, transport) = match via {
        Via::Http => {
            let server = Served::start(Wizard::new(TestClock::default().engine())).await?;
            let url = server.url.clone();
            served = Some(server);
            ("--url", url, "http")
        }
        Via::Stdio => (
            "--stdio",
            env!("CARGO_BIN_EXE_wizard-stdio").to_owned(),
            "stdio",
        ),
    };
    let output =
        mrtr_tests::peers::run_driver(&python, &script, &[flag, &target, &scenario.to_string()])
            .await?;
    drop(served);
    assert_eq!(output["client"], "python-legacy", "{output}");
    assert_eq!(output["transport"], transport, "{output}");
    assert_eq!(output["protocolVersion"], "2025-11-25", "{output}");
    Ok(output)
}

/// One call of `tool` for team Rust, answering by message.
fn scenario(tool: &str, answers: Vec<Value>) -> Value {
    json!({
        "calls": [{ "name": tool, "arguments": team() }],
        "answers": answers,
    })
}

/// Ada as a confirmed admin, watching `mrtr` and `rmcp`; `rmcp`'s level is `rmcp_level`.
fn onboard_scenario(rmcp_level: Value) -> Value {
    let mut answers = signup_answers();
    answers.truncate(1);
    answers.extend(onboard_admin_answers(rmcp_level));
    scenario("onboard", answers)
}

/// The one call in the driver's output: its name is `name`, and it was asked exactly the
/// questions `expected`, in order, each as its own `elicitation/create` request on the session
/// (distinct JSON-RPC ids).
fn call_asking<'a>(output: &'a Value, name: &str, expected: &[&str]) -> &'a Value {
    let call = only_call(output, name);
    assert_eq!(messages(call), expected, "{call}");
    let asked = call["asked"].as_array().expect("asked is an array");
    // A JSON-RPC id of the server's (rmcp numbers its requests); had the SDK been driving
    // input-required rounds instead, the callback would see the question's key, a string.
    let mut ids: Vec<String> = asked
        .iter()
        .map(|asked| {
            assert!(asked["requestId"].is_number(), "{call}");
            asked["requestId"].to_string()
        })
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), asked.len(), "one request per question: {call}");
    call
}

async fn signup_completes(via: Via) -> anyhow::Result<()> {
    let output = drive(via, &scenario("signup", signup_answers())).await?;
    let signup = call_asking(&output, "signup", &[WELCOME, WHICH_PLAN, CONFIRM]);
    assert_signup_forms(signup);
    assert_completed(&signup["result"], SIGNED_UP, signed_up());
    Ok(())
}

async fn onboard_completes(via: Via) -> anyhow::Result<()> {
    let output = drive(
        via,
        &onboard_scenario(accept(json!({ "level": "mentions" }))),
    )
    .await?;
    let onboard = call_asking(&output, "onboard", &ONBOARD_ADMIN_QUESTIONS);
    assert_completed(&onboard["result"], ONBOARDED, onboarded());
    Ok(())
}

async fn declining_in_the_for_loop_cancels(via: Via) -> anyhow::Result<()> {
    let output = drive(via, &onboard_scenario(json!({ "action": "decline" }))).await?;
    // The second pass of the `for` is declined: every question up to it was asked, no more.
    let onboard = call_asking(&output, "onboard", &ONBOARD_ADMIN_QUESTIONS);
    assert_tool_error(&onboard["result"], CANCELLED_AT_NOTIFY);
    Ok(())
}

/// `signup` to completion: three questions in order, at 2025-11-25.
#[tokio::test]
async fn signup_over_http() -> anyhow::Result<()> {
    signup_completes(Via::Http).await
}

/// `signup` to completion: three questions in order, at 2025-11-25.
#[tokio::test]
async fn signup_over_stdio() -> anyhow::Result<()> {
    signup_completes(Via::Stdio).await
}

/// `onboard` through the admin branch, the `loop` (two repositories) and the `for`.
#[tokio::test]
async fn onboard_over_http() -> anyhow::Result<()> {
    onboard_completes(Via::Http).await
}

/// `onboard` through the admin branch, the `loop` (two repositories) and the `for`.
#[tokio::test]
async fn onboard_over_stdio() -> anyhow::Result<()> {
    onboard_completes(Via::Stdio).await
}

/// A decline inside `onboard`'s `for` ends the tool with "Onboarding cancelled at notify".
#[tokio::test]
async fn declining_a_level_cancels_onboard_over_http() -> anyhow::Result<()> {
    declining_in_the_for_loop_cancels(Via::Http).await
}

/// A decline inside `onboard`'s `for` ends the tool with "Onboarding cancelled at notify".
#[tokio::test]
async fn declining_a_level_cancels_onboard_over_stdio() -> anyhow::Result<()> {
    declining_in_the_for_loop_cancels(Via::Stdio).await
}
