//! What `peers_typescript` and `peers_python` share: a wizard served in this process on
//! loopback HTTP, a driver script of an official SDK client run against it as a child process
//! (killed on timeout), the scenarios with their expected questions and results, and the tests
//! themselves ([`peer_tests!`]).
//!
//! The drivers (`tests/peers/typescript/drive.mjs`, `tests/peers/python/drive.py`) take the URL
//! and a scenario as JSON: the tool calls to make and the answers to give, keyed by the
//! question's message or by its form's property names. The SDK runs the input-required rounds
//! itself; the driver only answers each elicitation. It prints one JSON line: the negotiated
//! protocol version and, per call, the questions it was asked and the final `CallToolResult`.

use std::path::PathBuf;

use mrtr_examples::wizard::Wizard;
use mrtr_tests::{clock::TestClock, loopback::Served};
use mrtr_tests::{driver_output::*, wizard_text::*};
use serde_json::{Value, json};

/// `signup`'s questions, as `(key, message)`, in order.
const SIGNUP_QUESTIONS: [(&str, &str); 3] = [
    ("profile", WELCOME),
    ("plan", WHICH_PLAN),
    ("confirm", CONFIRM),
];

/// An official SDK client, driven by a script of ours.
pub struct Peer {
    /// The name its driver reports as `client`.
    pub client: &'static str,
    /// The interpreter that runs the driver, installing the pinned peers on first use.
    pub program: fn() -> PathBuf,
    /// The driver script, under `tests/peers/`.
    pub script: &'static str,
    /// What the SDK's error says when a call takes more than its default cap of 10 rounds.
    pub round_cap_error: &'static str,
}

/// An interpreter and the driver script it runs.
struct Driver {
    program: PathBuf,
    script: PathBuf,
}

impl Peer {
    async fn driver(&self) -> anyhow::Result<Driver> {
        let program = tokio::task::spawn_blocking(self.program).await?;
        Ok(Driver {
            program,
            script: mrtr_tests::peers::dir().join(self.script),
        })
    }

    /// Drives a fresh wizard through `scenario`; the client must have reached 2026-07-28.
    async fn drive(&self, scenario: &Value) -> anyhow::Result<Value> {
        let output = drive(self.driver().await?, scenario).await?;
        assert_protocol(&output, self.client);
        Ok(output)
    }

    pub async fn signup_and_onboard(&self, negotiation: Negotiation) -> anyhow::Result<()> {
        let output = self.drive(&happy_scenario(negotiation)).await?;
        assert_signed_up(&output);
        assert_onboarded(&output);
        Ok(())
    }

    pub async fn declining_the_plan_cancels_signup(&self) -> anyhow::Result<()> {
        let output = self.drive(&decline_scenario()).await?;
        assert_declined_at_plan(&output);
        Ok(())
    }

    pub async fn the_longest_onboarding_takes_thirteen_rounds(&self) -> anyhow::Result<()> {
        let output = self.drive(&longest_onboarding_scenario(Some(13))).await?;
        assert_longest_onboarding(&output);
        Ok(())
    }

    pub async fn the_longest_onboarding_exceeds_the_default_round_cap(&self) -> anyhow::Result<()> {
        let scenario = longest_onboarding_scenario(None);
        let error = drive(self.driver().await?, &scenario)
            .await
            .expect_err("13 rounds exceed the default cap of 10");
        assert!(
            error.to_string().contains(self.round_cap_error),
            "{error:#}"
        );
        Ok(())
    }
}

/// The tests of one [`Peer`], each against a fresh wizard. The doc comments given before
/// `pin` and `auto` are those of the two negotiation tests, which say how the SDK is told.
macro_rules! peer_tests {
    ($peer:expr, $(#[$pin:meta])* pin, $(#[$auto:meta])* auto $(,)?) => {
        const PEER: $crate::peers_driver::Peer = $peer;

        $(#[$pin])*
        #[tokio::test]
        async fn signup_and_onboard_through_all_rounds() -> anyhow::Result<()> {
            PEER.signup_and_onboard($crate::peers_driver::Negotiation::Pin).await
        }

        $(#[$auto])*
        #[tokio::test]
        async fn auto_negotiation_reaches_2026_07_28() -> anyhow::Result<()> {
            PEER.signup_and_onboard($crate::peers_driver::Negotiation::Auto).await
        }

        #[tokio::test]
        async fn declining_the_plan_cancels_signup() -> anyhow::Result<()> {
            PEER.declining_the_plan_cancels_signup().await
        }

        /// The longest `onboard` takes 13 rounds; with the cap raised to 13 the client goes
        /// through all of them, and the loop stops at five repositories.
        #[tokio::test]
        async fn the_longest_onboarding_takes_thirteen_rounds() -> anyhow::Result<()> {
            PEER.the_longest_onboarding_takes_thirteen_rounds().await
        }

        /// The SDK gives up after 10 rounds by default, so the longest `onboard` (13 questions,
        /// one per round) fails in this client unless the cap is raised.
        #[tokio::test]
        async fn the_longest_onboarding_exceeds_the_default_round_cap() -> anyhow::Result<()> {
            PEER.the_longest_onboarding_exceeds_the_default_round_cap().await
        }
    };
}

pub(crate) use peer_tests;

/// How the driver's client reaches protocol 2026-07-28.
#[derive(Debug, Clone, Copy)]
pub enum Negotiation {
    /// Adopt 2026-07-28 up front (TypeScript `{ pin }`, which still checks `server/discover`;
    /// Python `mode="2026-07-28"`, no probe).
    Pin,
    /// Probe `server/discover` and pick the version from its answer.
    Auto,
}

impl Negotiation {
    fn as_str(self) -> &'static str {
        match self {
            Negotiation::Pin => "pin",
            Negotiation::Auto => "auto",
        }
    }
}

/// Serves a fresh wizard on `127.0.0.1:0` with the fixed test key, runs `driver` on `scenario`
/// against it and returns its JSON output.
async fn drive(driver: Driver, scenario: &Value) -> anyhow::Result<Value> {
    let served = Served::start(Wizard::new(TestClock::default().engine())).await?;
    let output = mrtr_tests::peers::run_driver(
        &driver.program,
        &driver.script,
        &[&served.url, &scenario.to_string()],
    )
    .await;
    drop(served);
    output
}

/// Every question of `signup` then `onboard`, once each (the welcome is the same question).
fn happy_answers() -> Vec<Value> {
    let mut answers = signup_answers();
    answers.extend(onboard_admin_answers(accept(
        json!({ "level": "mentions" }),
    )));
    answers
}

/// `signup` then `onboard` for team Rust: Ada, pro, confirmed; an admin, confirmed, watching
/// `mrtr` (all) and `rmcp` (mentions). Every question is answered by its message.
fn happy_scenario(negotiation: Negotiation) -> Value {
    json!({
        "negotiation": negotiation.as_str(),
        "calls": [
            { "name": "signup", "arguments": team() },
            { "name": "onboard", "arguments": team() },
        ],
        "answers": happy_answers(),
    })
}

/// `signup` for team Rust, declining the plan. The plan question is answered by its form's
/// property names, not its message.
fn decline_scenario() -> Value {
    json!({
        "negotiation": Negotiation::Pin.as_str(),
        "calls": [{ "name": "signup", "arguments": team() }],
        "answers": [
            { "message": WELCOME, "reply": accept(json!({ "name": "Ada", "email": "ada@example.com" })) },
            { "properties": ["plan"], "reply": { "action": "decline" } },
        ],
    })
}

/// `onboard`'s longest path: Bob takes admin but does not confirm it (so stays a developer)
/// and keeps saying "more" until the loop stops at [`MAX_REPOS`]; every level is asked by its
/// form's property names. That is 3 + 5 + 5 = 13 questions, one per round, so 13 rounds:
/// `max_rounds` is the client's cap (`None`: the SDK's default, 10).
///
/// [`MAX_REPOS`]: mrtr_examples::wizard::MAX_REPOS
fn longest_onboarding_scenario(max_rounds: Option<u32>) -> Value {
    let mut answers = vec![
        json!({ "message": WELCOME, "reply": accept(json!({ "name": "Bob" })) }),
        json!({ "message": WHICH_ROLE, "reply": accept(json!({ "role": "admin" })) }),
        json!({ "message": CONFIRM_ADMIN, "reply": accept(json!({ "confirm": false })) }),
    ];
    for n in 0..mrtr_examples::wizard::MAX_REPOS {
        answers.push(json!({
            "message": format!("Add a repository to watch ({n} so far)"),
            "reply": accept(json!({ "repo": format!("repo{n}"), "more": true })),
        }));
    }
    answers.push(json!({ "properties": ["level"], "reply": accept(json!({ "level": "none" })) }));
    let mut scenario = json!({
        "calls": [{ "name": "onboard", "arguments": team() }],
        "answers": answers,
    });
    if let Some(max_rounds) = max_rounds {
        scenario["maxRounds"] = json!(max_rounds);
    }
    scenario
}

/// The questions (and so the rounds) of [`longest_onboarding_scenario`].
const LONGEST_ONBOARDING_ROUNDS: usize = 13;

/// `(key, message)` of each question the client was asked, in order.
fn questions(call: &Value) -> Vec<(String, String)> {
    call["asked"]
        .as_array()
        .expect("asked is an array")
        .iter()
        .map(|asked| {
            (
                asked["key"].as_str().unwrap_or_default().to_owned(),
                asked["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The one call named `name` in the driver's output, which asked the questions `expected`, as
/// `(key, message)`, in order.
fn call_asking<'a>(output: &'a Value, name: &str, expected: &[(&str, &str)]) -> &'a Value {
    let call = call_named(output, name);
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(key, message)| ((*key).to_owned(), (*message).to_owned()))
        .collect();
    assert_eq!(questions(call), expected, "{call}");
    call
}

fn assert_protocol(output: &Value, client: &str) {
    assert_eq!(output["client"], client, "{output}");
    assert_eq!(output["protocolVersion"], "2026-07-28", "{output}");
}

/// `signup` asked its three questions and signed Ada up.
fn assert_signed_up(output: &Value) {
    let signup = call_asking(output, "signup", &SIGNUP_QUESTIONS);
    assert_signup_forms(signup);
    assert_completed(&signup["result"], SIGNED_UP, signed_up());
}

/// `onboard` went through the branch (admin confirmed), the `loop` (two repositories) and the
/// `for` (a level per repository), one question per round.
fn assert_onboarded(output: &Value) {
    let onboard = call_asking(
        output,
        "onboard",
        &[
            ("profile", WELCOME),
            ("role", WHICH_ROLE),
            ("confirm_admin", CONFIRM_ADMIN),
            ("repo", FIRST_REPO),
            ("repo", SECOND_REPO),
            ("notify", NOTIFY_MRTR),
            ("notify", NOTIFY_RMCP),
        ],
    );
    assert_completed(&onboard["result"], ONBOARDED, onboarded());
}

/// `onboard` took all 13 rounds: the admin refused, the loop stopped at five repositories.
fn assert_longest_onboarding(output: &Value) {
    let onboard = call_named(output, "onboard");
    let mut expected = vec![
        ("profile".to_owned(), WELCOME.to_owned()),
        ("role".to_owned(), WHICH_ROLE.to_owned()),
        ("confirm_admin".to_owned(), CONFIRM_ADMIN.to_owned()),
    ];
    let repos: Vec<String> = (0..mrtr_examples::wizard::MAX_REPOS)
        .map(|n| format!("repo{n}"))
        .collect();
    for n in 0..repos.len() {
        expected.push((
            "repo".to_owned(),
            format!("Add a repository to watch ({n} so far)"),
        ));
    }
    for repo in &repos {
        expected.push(("notify".to_owned(), format!("Notifications for {repo}?")));
    }
    assert_eq!(expected.len(), LONGEST_ONBOARDING_ROUNDS);
    assert_eq!(questions(onboard), expected, "{onboard}");
    let listing: Vec<String> = repos.iter().map(|repo| format!("{repo}=none")).collect();
    assert_completed(
        &onboard["result"],
        &format!("Onboarded Bob as developer to Rust: {}", listing.join(", ")),
        json!({
            "name": "Bob",
            "role": "developer",
            "team": "Rust",
            "repos": repos
                .iter()
                .map(|repo| json!({ "repo": repo, "level": "none" }))
                .collect::<Vec<_>>(),
        }),
    );
}

/// `signup` stopped at the declined plan with a tool error.
fn assert_declined_at_plan(output: &Value) {
    // Asked `profile` and `plan`, not `confirm`.
    let signup = call_asking(output, "signup", &SIGNUP_QUESTIONS[..2]);
    assert_tool_error(&signup["result"], "Signup cancelled at plan");
}
