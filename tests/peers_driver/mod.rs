//! What `peers_typescript` and `peers_python` share: a wizard served in this process on
//! loopback HTTP, a driver script of an official SDK client run against it as a child process
//! (killed on timeout), and the scenarios with their expected questions and results.
//!
//! The drivers (`tests/peers/typescript/drive.mjs`, `tests/peers/python/drive.py`) take the URL
//! and a scenario as JSON: the tool calls to make and the answers to give, keyed by the
//! question's message or by its form's property names. The SDK runs the input-required rounds
//! itself; the driver only answers each elicitation. It prints one JSON line: the negotiated
//! protocol version and, per call, the questions it was asked and the final `CallToolResult`.

use std::{net::SocketAddr, path::PathBuf, process::Stdio, time::Duration};

use mrtr_examples::wizard::Wizard;
use mrtr_tests::clock::TestClock;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// How long one driver run may take before it is killed.
const TIMEOUT: Duration = Duration::from_secs(60);

pub const WELCOME: &str = "Welcome to Rust! What should we call you?";
pub const WHICH_PLAN: &str = "Which plan would you like?";
pub const CONFIRM: &str = "Sign Ada up for pro?";
pub const SIGNED_UP: &str = "Signed up Ada to Rust on the pro plan";
pub const WHICH_ROLE: &str = "Which role will you take?";
pub const CONFIRM_ADMIN: &str = "Admins can delete repositories. Continue as admin?";
pub const FIRST_REPO: &str = "Add a repository to watch (0 so far)";
pub const SECOND_REPO: &str = "Add a repository to watch (1 so far)";
pub const NOTIFY_MRTR: &str = "Notifications for mrtr?";
pub const NOTIFY_RMCP: &str = "Notifications for rmcp?";
pub const ONBOARDED: &str = "Onboarded Ada as admin to Rust: mrtr=all, rmcp=mentions";

/// An interpreter and the driver script it runs.
pub struct Driver {
    pub program: PathBuf,
    pub script: PathBuf,
}

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

/// The wizard on `127.0.0.1:0` with the fixed test key, stopped when dropped.
struct Served {
    url: String,
    cancel: CancellationToken,
}

impl Served {
    async fn start() -> anyhow::Result<Self> {
        let cancel = CancellationToken::new();
        let (addr, _task) = mrtr_examples::serve::serve_http(
            Wizard::new(TestClock::default().engine()),
            SocketAddr::from(([127, 0, 0, 1], 0)),
            cancel.clone(),
        )
        .await?;
        Ok(Self {
            url: format!("http://{addr}/mcp"),
            cancel,
        })
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// Serves a fresh wizard, runs `driver` on `scenario` against it and returns its JSON output.
pub async fn drive(driver: Driver, scenario: &Value) -> anyhow::Result<Value> {
    let served = Served::start().await?;
    let mut command = tokio::process::Command::new(&driver.program);
    command
        .arg(&driver.script)
        .arg(&served.url)
        .arg(scenario.to_string())
        .current_dir(mrtr_tests::peers::dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    // Loopback only: no proxy may see the traffic.
    for proxy in [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ] {
        command.env_remove(proxy);
    }
    command
        .env("NO_PROXY", "127.0.0.1")
        .env("no_proxy", "127.0.0.1");
    let child = command
        .spawn()
        .map_err(|e| anyhow::anyhow!("could not start {}: {e}", driver.program.display()))?;
    // On timeout the future is dropped with the child, which kills it.
    let output = tokio::time::timeout(TIMEOUT, child.wait_with_output())
        .await
        .map_err(|_| {
            anyhow::anyhow!(
                "{} did not finish within {TIMEOUT:?} and was killed",
                driver.script.display()
            )
        })??;
    drop(served);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    anyhow::ensure!(
        output.status.success(),
        "{} failed ({}):\nstdout: {stdout}\nstderr: {stderr}",
        driver.script.display(),
        output.status
    );
    let line = stdout
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .ok_or_else(|| anyhow::anyhow!("no output; stderr: {stderr}"))?;
    serde_json::from_str(line)
        .map_err(|e| anyhow::anyhow!("output is not JSON ({e}): {line}\nstderr: {stderr}"))
}

fn accept(content: Value) -> Value {
    json!({ "action": "accept", "content": content })
}

fn team() -> Value {
    json!({ "team": "Rust" })
}

/// `signup` then `onboard` for team Rust: Ada, pro, confirmed; an admin, confirmed, watching
/// `mrtr` (all) and `rmcp` (mentions). Every question is answered by its message.
pub fn happy_scenario(negotiation: Negotiation) -> Value {
    json!({
        "negotiation": negotiation.as_str(),
        "calls": [
            { "name": "signup", "arguments": team() },
            { "name": "onboard", "arguments": team() },
        ],
        "answers": [
            { "message": WELCOME, "reply": accept(json!({ "name": "Ada" })) },
            { "message": WHICH_PLAN, "reply": accept(json!({ "plan": "pro" })) },
            { "message": CONFIRM, "reply": accept(json!({ "confirm": true })) },
            { "message": WHICH_ROLE, "reply": accept(json!({ "role": "admin" })) },
            { "message": CONFIRM_ADMIN, "reply": accept(json!({ "confirm": true })) },
            { "message": FIRST_REPO, "reply": accept(json!({ "repo": "mrtr", "more": true })) },
            { "message": SECOND_REPO, "reply": accept(json!({ "repo": "rmcp", "more": false })) },
            { "message": NOTIFY_MRTR, "reply": accept(json!({ "level": "all" })) },
            { "message": NOTIFY_RMCP, "reply": accept(json!({ "level": "mentions" })) },
        ],
    })
}

/// `signup` for team Rust, declining the plan. The plan question is answered by its form's
/// property names, not its message.
pub fn decline_scenario() -> Value {
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
pub fn longest_onboarding_scenario(max_rounds: Option<u32>) -> Value {
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
pub const LONGEST_ONBOARDING_ROUNDS: usize = 13;

/// The one call named `name` in the driver's output.
fn call<'a>(output: &'a Value, name: &str) -> &'a Value {
    let calls = output["calls"].as_array().expect("calls is an array");
    let mut named = calls.iter().filter(|call| call["name"] == name);
    let found = named
        .next()
        .unwrap_or_else(|| panic!("no {name} call: {output}"));
    assert!(named.next().is_none(), "two {name} calls: {output}");
    found
}

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

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(key, message)| ((*key).to_owned(), (*message).to_owned()))
        .collect()
}

/// The result's only content block is the text `text`.
fn assert_text(result: &Value, text: &str) {
    assert_eq!(
        result["content"],
        json!([{ "type": "text", "text": text }]),
        "{result}"
    );
}

pub fn assert_protocol(output: &Value, client: &str) {
    assert_eq!(output["client"], client, "{output}");
    assert_eq!(output["protocolVersion"], "2026-07-28", "{output}");
}

/// `signup` asked its three questions and signed Ada up.
pub fn assert_signed_up(output: &Value) {
    let signup = call(output, "signup");
    assert_eq!(
        questions(signup),
        pairs(&[
            ("profile", WELCOME),
            ("plan", WHICH_PLAN),
            ("confirm", CONFIRM)
        ]),
        "{signup}"
    );
    let properties: Vec<&Value> = signup["asked"]
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
        ]
    );
    let result = &signup["result"];
    assert_text(result, SIGNED_UP);
    assert_ne!(result["isError"], true, "{result}");
    assert_eq!(
        result["structuredContent"],
        json!({ "name": "Ada", "team": "Rust", "plan": "pro" }),
        "{result}"
    );
}

/// `onboard` went through the branch (admin confirmed), the `loop` (two repositories) and the
/// `for` (a level per repository), one question per round.
pub fn assert_onboarded(output: &Value) {
    let onboard = call(output, "onboard");
    assert_eq!(
        questions(onboard),
        pairs(&[
            ("profile", WELCOME),
            ("role", WHICH_ROLE),
            ("confirm_admin", CONFIRM_ADMIN),
            ("repo", FIRST_REPO),
            ("repo", SECOND_REPO),
            ("notify", NOTIFY_MRTR),
            ("notify", NOTIFY_RMCP),
        ]),
        "{onboard}"
    );
    let result = &onboard["result"];
    assert_text(result, ONBOARDED);
    assert_ne!(result["isError"], true, "{result}");
    assert_eq!(
        result["structuredContent"],
        json!({
            "name": "Ada",
            "role": "admin",
            "team": "Rust",
            "repos": [
                { "repo": "mrtr", "level": "all" },
                { "repo": "rmcp", "level": "mentions" },
            ],
        }),
        "{result}"
    );
}

/// `onboard` took all 13 rounds: the admin refused, the loop stopped at five repositories.
pub fn assert_longest_onboarding(output: &Value) {
    let onboard = call(output, "onboard");
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
    let result = &onboard["result"];
    let listing: Vec<String> = repos.iter().map(|repo| format!("{repo}=none")).collect();
    assert_text(
        result,
        &format!("Onboarded Bob as developer to Rust: {}", listing.join(", ")),
    );
    assert_ne!(result["isError"], true, "{result}");
    assert_eq!(
        result["structuredContent"],
        json!({
            "name": "Bob",
            "role": "developer",
            "team": "Rust",
            "repos": repos
                .iter()
                .map(|repo| json!({ "repo": repo, "level": "none" }))
                .collect::<Vec<_>>(),
        }),
        "{result}"
    );
}

/// `signup` stopped at the declined plan with a tool error.
pub fn assert_declined_at_plan(output: &Value) {
    let signup = call(output, "signup");
    assert_eq!(
        questions(signup),
        pairs(&[("profile", WELCOME), ("plan", WHICH_PLAN)]),
        "{signup}"
    );
    let result = &signup["result"];
    assert_text(result, "Signup cancelled at plan");
    assert_eq!(result["isError"], true, "{result}");
    assert!(result.get("structuredContent").is_none(), "{result}");
}
