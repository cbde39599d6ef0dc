//! The wizard's `signup` tool driven end to end by real rmcp clients, round by round, over
//! loopback HTTP, an in-memory duplex pipe and a real child process on stdio.
//!
//! Every scenario is written once against a connected 2026-07-28 client and run on each
//! transport (see the `transport_tests!` invocation at the bottom). Scenarios that move the
//! clock run only where the server shares the test's [`TestClock`] (HTTP and duplex: the
//! child process reads the real clock).

use std::time::Duration;

use mrtr_examples::demo::text_of;
use mrtr_tests::{
    clock::TestClock,
    rounds::{
        Asked, Rounds, Tool, accept, assert_asked, assert_tool_error, cancel, decline, messages_of,
        refused,
    },
    transports::{Client, Connected, Via, bounded},
    user::ScriptedUser,
};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

const SIGNUP: Tool = Tool {
    name: "signup",
    small_states: None,
};

const WELCOME: &str = "Welcome to Rust! What should we call you?";
const WHICH_PLAN: &str = "Which plan would you like?";
const CONFIRM: &str = "Sign Ada up for pro?";
const DONE: &str = "Signed up Ada to Rust on the pro plan";

/// `client`'s calls of `signup` for team Rust.
fn rust(client: &Client) -> Rounds<'_> {
    SIGNUP.rounds(client, "Rust")
}

fn ada() -> Value {
    accept(json!({ "name": "Ada" }))
}

fn pro() -> Value {
    accept(json!({ "plan": "pro" }))
}

fn yes() -> Value {
    accept(json!({ "confirm": true }))
}

/// Every key of each question.
fn all_keys_of(asked: &[Asked]) -> Vec<Vec<String>> {
    asked.iter().map(|a| a.keys.clone()).collect()
}

fn assert_signed_up(result: &CallToolResult) {
    assert_eq!(text_of(result), DONE);
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert_eq!(
        result.structured_content,
        Some(json!({ "name": "Ada", "team": "Rust", "plan": "pro" }))
    );
}

fn assert_cancelled_at(result: &CallToolResult, key: &str) {
    assert_tool_error(result, &format!("Signup cancelled at {key}"));
}

/// The three rounds of a happy signup, stopping before the last answer: the questions asked.
async fn three_questions(client: &Client) -> anyhow::Result<[Asked; 3]> {
    let rust = rust(client);
    let profile = rust.first().await?;
    let plan = rust
        .ask(Some(&profile.state), json!({ "profile": ada() }))
        .await?;
    let confirm = rust
        .ask(Some(&plan.state), json!({ "plan": pro() }))
        .await?;
    assert_eq!(
        [&profile.key, &plan.key, &confirm.key],
        ["profile", "plan", "confirm"]
    );
    Ok([profile, plan, confirm])
}

/// The answer each step's key takes on the happy path.
fn happy_answer(key: &str) -> Value {
    match key {
        "profile" => ada(),
        "plan" => pro(),
        "confirm" => yes(),
        other => panic!("no such step: {other}"),
    }
}

/// The happy signup, as `(key, answer)` rounds.
fn happy_script() -> Vec<(&'static str, Value)> {
    ["profile", "plan", "confirm"]
        .map(|key| (key, happy_answer(key)))
        .to_vec()
}

// =============================================================================
// Scenarios
// =============================================================================

async fn happy_path(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = rust(client).run_script(&happy_script()).await?;
    assert_eq!(all_keys_of(&asked), [["profile"], ["plan"], ["confirm"]]);
    assert_eq!(messages_of(&asked), [WELCOME, WHICH_PLAN, CONFIRM]);
    assert_signed_up(&result);

    // Each round hands back a fresh state.
    assert_ne!(asked[0].state, asked[1].state);
    assert_ne!(asked[1].state, asked[2].state);

    // The forms are the typed answers' schemas.
    let profile = &asked[0].schema;
    assert_eq!(profile["type"], "object", "{profile}");
    assert!(profile["properties"]["name"].is_object(), "{profile}");
    assert!(profile["properties"]["email"].is_object(), "{profile}");
    assert_eq!(profile["required"], json!(["name"]), "{profile}");
    let plan = &asked[1].schema;
    assert_eq!(plan["required"], json!(["plan"]), "{plan}");
    assert_eq!(
        plan["properties"]["plan"]["enum"],
        json!(["free", "pro", "enterprise"]),
        "{plan}"
    );
    assert_eq!(asked[2].schema["properties"]["confirm"]["type"], "boolean");
    Ok(())
}

async fn abort_at_confirm(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = rust(client)
        .run_script(&[
            ("profile", ada()),
            ("plan", pro()),
            ("confirm", accept(json!({ "confirm": false }))),
        ])
        .await?;
    assert_eq!(all_keys_of(&asked), [["profile"], ["plan"], ["confirm"]]);
    assert_eq!(text_of(&result), "Signup aborted");
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert_eq!(result.structured_content, None);
    Ok(())
}

/// Declining or cancelling at `step` ends the call with `Signup cancelled at <step>`.
async fn refuse_at_each_step(client: &Client, refusal: fn() -> Value) -> anyhow::Result<()> {
    let runs = rust(client)
        .refuse_each_round(&happy_script(), refusal)
        .await?;
    for (step, asked, result) in runs {
        assert_eq!(asked.last().map(|a| a.key.as_str()), Some(step));
        assert_cancelled_at(&result, step);
    }
    Ok(())
}

async fn decline_at_each_step(client: &Client) -> anyhow::Result<()> {
    refuse_at_each_step(client, decline).await
}

async fn cancel_at_each_step(client: &Client) -> anyhow::Result<()> {
    refuse_at_each_step(client, cancel).await
}

/// An answer that does not fit its form brings the same question back, with a new state,
/// and the call still completes once answered properly.
async fn wrong_shapes_are_asked_again(client: &Client) -> anyhow::Result<()> {
    let rust = rust(client);
    // Profile without a name, a name of the wrong type, an email that is not one, a reply that
    // is no ElicitResult, an unknown action, and no answer for the key at all: all ask
    // `profile` again.
    let first = rust.first().await?;
    let mut state = first.state.clone();
    for wrong in [
        accept(json!({ "email": "ada@example.com" })),
        accept(json!({ "name": 42 })),
        // Deserializes, but breaks the schema's `format: email`.
        accept(json!({ "name": "Ada", "email": "ada at example.com" })),
        accept(json!([])),
        json!("Ada"),
        json!({ "action": "maybe" }),
    ] {
        let again = rust.ask(Some(&state), json!({ "profile": wrong })).await?;
        assert_eq!(again.key, "profile", "after {wrong}");
        assert_eq!(again.message, WELCOME);
        assert_ne!(again.state, state, "a re-ask seals a new state");
        state = again.state;
    }
    let again = rust.ask(Some(&state), json!({ "plan": pro() })).await?;
    assert_eq!(
        again.key, "profile",
        "an answer to another key does not answer this one"
    );
    state = again.state;

    let plan = rust.ask(Some(&state), json!({ "profile": ada() })).await?;
    assert_eq!(plan.key, "plan");
    let platinum = json!({ "plan": accept(json!({ "plan": "platinum" })) });
    let again = rust.ask(Some(&plan.state), platinum).await?;
    assert_asked(&again, "plan", WHICH_PLAN);
    let capitalised = json!({ "plan": accept(json!({ "plan": "Pro" })) });
    let again = rust.ask(Some(&again.state), capitalised).await?;
    assert_eq!(again.key, "plan", "plan names are lowercase");

    let confirm = rust
        .ask(Some(&again.state), json!({ "plan": pro() }))
        .await?;
    assert_asked(&confirm, "confirm", CONFIRM);
    let a_string = json!({ "confirm": accept(json!({ "confirm": "yes" })) });
    let again = rust.ask(Some(&confirm.state), a_string).await?;
    // The locals restored from the state still name Ada and pro.
    assert_asked(&again, "confirm", CONFIRM);
    let empty = json!({ "confirm": accept(json!({})) });
    let again = rust.ask(Some(&again.state), empty).await?;
    assert_eq!(again.key, "confirm");

    let result = rust
        .finish(Some(&again.state), json!({ "confirm": yes() }))
        .await?;
    assert_signed_up(&result);
    Ok(())
}

/// A wrong-shaped answer on a first call (no state) is asked again too.
async fn wrong_shape_on_a_first_call(client: &Client) -> anyhow::Result<()> {
    let rust = rust(client);
    let nickname = json!({ "profile": accept(json!({ "nickname": "Ada" })) });
    let again = rust.ask(None, nickname).await?;
    assert_asked(&again, "profile", WELCOME);
    let plan = rust
        .ask(Some(&again.state), json!({ "profile": ada() }))
        .await?;
    assert_eq!(plan.key, "plan");
    Ok(())
}

/// Keys nobody asked for are ignored, including answers to questions not asked yet.
async fn unknown_keys_are_ignored(client: &Client) -> anyhow::Result<()> {
    let rust = rust(client);
    let profile = rust.first().await?;
    let responses = json!({
        "profile": accept(json!({ "name": "Ada", "shoe_size": 38 })),
        "bogus": { "action": "accept", "content": { "x": 1 } },
        "also-bogus": "whatever",
        // Not asked yet: the next round still asks it.
        "plan": accept(json!({ "plan": "enterprise" })),
    });
    let plan = rust.ask(Some(&profile.state), responses).await?;
    assert_asked(&plan, "plan", WHICH_PLAN);
    let responses =
        json!({ "plan": pro(), "confirm": accept(json!({ "confirm": false })), "zzz": null });
    let confirm = rust.ask(Some(&plan.state), responses).await?;
    assert_asked(&confirm, "confirm", CONFIRM);
    let responses = json!({ "confirm": yes(), "profile": decline() });
    let result = rust.finish(Some(&confirm.state), responses).await?;
    assert_signed_up(&result);
    Ok(())
}

/// A first call that already answers `profile` goes straight to `plan`; one that answers
/// only a later key is asked `profile`.
async fn first_call_may_answer_the_first_question(client: &Client) -> anyhow::Result<()> {
    let rust = rust(client);
    let plan = rust.ask(None, json!({ "profile": ada() })).await?;
    assert_asked(&plan, "plan", WHICH_PLAN);
    let confirm = rust
        .ask(Some(&plan.state), json!({ "plan": pro() }))
        .await?;
    assert_asked(&confirm, "confirm", CONFIRM);
    let result = rust
        .finish(Some(&confirm.state), json!({ "confirm": yes() }))
        .await?;
    assert_signed_up(&result);

    let profile = rust.ask(None, json!({ "plan": pro() })).await?;
    assert_asked(&profile, "profile", WELCOME);

    // A refusal on the first call is read too.
    let result = rust.finish(None, json!({ "profile": decline() })).await?;
    assert_cancelled_at(&result, "profile");
    Ok(())
}

const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `state` with the character at `index` swapped for another base64url character whose
/// value differs in its top bit, so the decoded bytes change.
fn flip(state: &str, index: usize) -> String {
    let mut bytes = state.as_bytes().to_vec();
    let value = BASE64URL
        .iter()
        .position(|c| *c == bytes[index])
        .expect("requestState is base64url");
    bytes[index] = BASE64URL[value ^ 32];
    String::from_utf8(bytes).expect("still ASCII")
}

/// Tampered and truncated states are refused with `-32602`, at every round; the genuine
/// state still works afterwards.
async fn tampered_state_is_refused(client: &Client) -> anyhow::Result<()> {
    let rust = rust(client);
    let questions = three_questions(client).await?;
    for question in &questions {
        let state = &question.state;
        let answer = json!({ question.key.clone(): happy_answer(&question.key) });
        let len = state.len();
        // Version, key id, the 12-byte flow id, the header and the 16-byte tag at least.
        assert!(
            len >= 52,
            "a sealed state is at least 52 characters: {state}"
        );

        let mut forged: Vec<(String, String)> = [0, 2, len / 4, len / 2, 3 * len / 4, len - 2]
            .into_iter()
            .map(|index| (format!("flipped at {index}"), flip(state, index)))
            .collect();
        forged.push(("last char dropped".into(), state[..len - 1].to_owned()));
        forged.push(("last 4 chars dropped".into(), state[..len - 4].to_owned()));
        forged.push(("halved".into(), state[..len / 2].to_owned()));
        forged.push(("8 chars left".into(), state[..8].to_owned()));
        forged.push(("one char left".into(), state[..1].to_owned()));
        forged.push(("empty".into(), String::new()));
        forged.push(("4 chars appended".into(), format!("{state}AAAA")));
        forged.push((
            "not base64url".into(),
            format!("{}*{}", &state[..10], &state[11..]),
        ));

        for (how, forged) in forged {
            assert_ne!(&forged, state);
            let error = rust
                .refused(Some(&forged), answer.clone())
                .await
                .map_err(|e| anyhow::anyhow!("{} state {how}: {e}", question.key))?;
            assert_eq!(error.data, None, "the reason stays in the server log");
        }
        // Without an answer, too: a forged state is never a re-prompt.
        rust.refused(Some(&flip(state, len / 2)), json!({})).await?;
    }

    // Nothing was consumed: the genuine last state completes the call.
    let result = rust
        .finish(Some(&questions[2].state), json!({ "confirm": yes() }))
        .await?;
    assert_signed_up(&result);
    Ok(())
}

/// A state is bound to the call's arguments: replayed for another team it is refused.
async fn state_replayed_for_another_team_is_refused(client: &Client) -> anyhow::Result<()> {
    let rust = rust(client);
    let questions = three_questions(client).await?;
    for question in &questions {
        let answer = json!({ question.key.clone(): happy_answer(&question.key) });
        for team in ["Go", "rust", "Rust ", ""] {
            SIGNUP
                .rounds(client, team)
                .refused(Some(&question.state), answer.clone())
                .await
                .map_err(|e| anyhow::anyhow!("{} state for team {team:?}: {e}", question.key))?;
        }
        // An extra argument changes the binding too.
        let mut params = rust.call(Some(&question.state), answer.clone());
        params
            .arguments
            .as_mut()
            .expect("arguments")
            .insert("admin".to_owned(), json!(true));
        refused(client, params).await?;
    }
    let result = rust
        .finish(Some(&questions[2].state), json!({ "confirm": yes() }))
        .await?;
    assert_signed_up(&result);
    Ok(())
}

/// The default TTL is 10 minutes, counted from the round that sealed the state.
async fn expired_state_is_refused(client: &Client, clock: &TestClock) -> anyhow::Result<()> {
    let rust = rust(client);
    // 9 minutes between rounds is fine, and the TTL restarts with every round.
    let profile = rust.first().await?;
    clock.advance(Duration::from_secs(9 * 60));
    let plan = rust
        .ask(Some(&profile.state), json!({ "profile": ada() }))
        .await?;
    assert_eq!(plan.key, "plan");
    clock.advance(Duration::from_secs(9 * 60));
    let confirm = rust
        .ask(Some(&plan.state), json!({ "plan": pro() }))
        .await?;
    assert_asked(&confirm, "confirm", CONFIRM);

    // 11 minutes later the last state has expired: refused, not re-asked.
    clock.advance(Duration::from_secs(11 * 60));
    rust.refused(Some(&confirm.state), json!({ "confirm": yes() }))
        .await?;
    // So have the older ones.
    rust.refused(Some(&plan.state), json!({ "plan": pro() }))
        .await?;
    rust.refused(Some(&profile.state), json!({ "profile": ada() }))
        .await?;

    // A new call starts over.
    let profile = rust.first().await?;
    assert_eq!(profile.key, "profile");
    Ok(())
}

/// A state lives its TTL and less than a second more: 10 minutes and a second after it was
/// sealed, it is refused.
async fn state_expires_within_a_second_after_its_ttl(
    client: &Client,
    clock: &TestClock,
) -> anyhow::Result<()> {
    let rust = rust(client);
    let profile = rust.first().await?;
    clock.advance(Duration::from_secs(10 * 60 + 1));
    rust.refused(Some(&profile.state), json!({ "profile": ada() }))
        .await?;
    Ok(())
}

/// rmcp's own `call_tool` loop answers every round through the `ClientHandler`.
async fn rmcp_call_tool_loop_completes(via: Via) -> anyhow::Result<()> {
    let user = ScriptedUser::new(|message| {
        Some(match message {
            WELCOME => json!({ "name": "Ada", "email": "ada@example.com" }),
            WHICH_PLAN => json!({ "plan": "pro" }),
            CONFIRM => json!({ "confirm": true }),
            _ => return None,
        })
    });
    let connected = Connected::start(via, user.clone()).await?;
    let result = connected
        .client
        .call_tool(SIGNUP.first_call("Rust"))
        .await?;
    assert_signed_up(&result);
    assert_eq!(user.asked(), [WELCOME, WHICH_PLAN, CONFIRM]);
    connected.close().await
}

// =============================================================================
// Tests
// =============================================================================

// One module per transport (`http`, `stdio_duplex`, `stdio_child`), one test per scenario.
mrtr_tests::transport_tests!(
    plain: [
        happy_path,
        abort_at_confirm,
        decline_at_each_step,
        cancel_at_each_step,
        wrong_shapes_are_asked_again,
        wrong_shape_on_a_first_call,
        unknown_keys_are_ignored,
        first_call_may_answer_the_first_question,
        tampered_state_is_refused,
        state_replayed_for_another_team_is_refused,
    ],
    // The child process reads the real clock, so these run only in process.
    clocked: [expired_state_is_refused, state_expires_within_a_second_after_its_ttl],
    via: [rmcp_call_tool_loop_completes],
);

/// The child's states do not open on another server with another key, and vice versa.
#[tokio::test]
async fn a_state_opens_only_on_a_server_with_its_key() -> anyhow::Result<()> {
    bounded(async {
        let child = Connected::session(mrtr_tests::wizard_stdio!()).await?;
        let http = Connected::session(Via::Http).await?;
        let (child_rust, http_rust) = (rust(&child.client), rust(&http.client));
        let from_child = child_rust.first().await?;
        let from_http = http_rust.first().await?;
        http_rust
            .refused(Some(&from_child.state), json!({ "profile": ada() }))
            .await?;
        child_rust
            .refused(Some(&from_http.state), json!({ "profile": ada() }))
            .await?;
        // Two in-process servers with the same key share states: any instance takes a retry.
        let other = Connected::session(Via::Duplex).await?;
        let plan = rust(&other.client)
            .ask(Some(&from_http.state), json!({ "profile": ada() }))
            .await?;
        assert_eq!(plan.key, "plan");
        child.close().await?;
        other.close().await?;
        http.close().await
    })
    .await
}
