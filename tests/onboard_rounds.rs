//! The wizard's `onboard` tool driven end to end by real rmcp clients, round by round, over
//! loopback HTTP, an in-memory duplex pipe and a real child process on stdio.
//!
//! `onboard` branches (`confirm_admin` only for admins), loops (`repo` until `more` is false
//! or five repositories are collected) and iterates (`notify` once per repository, in order).
//! Every scenario is written once against a connected 2026-07-28 client and run on each
//! transport (see the `transport_tests!` invocations at the bottom).

use std::{
    collections::BTreeSet,
    future::Future,
    process::Stdio,
    sync::{Arc, Mutex},
    time::Duration,
};

use mrtr_examples::{
    demo::{elicitation_client, text_of},
    wizard::{MAX_REPOS, Wizard},
};
use mrtr_tests::{clock::TestClock, loopback::Loopback};
use rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, ServiceError, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientConfig, ElicitRequestParams,
        ElicitResult, ElicitationAction, ErrorCode, InputResponses, JsonObject, ProtocolVersion,
    },
    service::{RequestContext, RoleClient, RunningService, Service},
    transport::{
        StreamableHttpClientTransport, TokioChildProcess,
        streamable_http_client::StreamableHttpClientTransportConfig,
    },
};
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ClientConfig>;

const TOOL: &str = "onboard";
const WELCOME: &str = "Welcome to Rust! What should we call you?";
const WHICH_ROLE: &str = "Which role will you take?";
const CONFIRM_ADMIN: &str = "Admins can delete repositories. Continue as admin?";

/// Every sealed state of `onboard` stays below this many bytes.
const SMALL_STATE: usize = 1024;

fn repo_message(so_far: usize) -> String {
    format!("Add a repository to watch ({so_far} so far)")
}

fn notify_message(repo: &str) -> String {
    format!("Notifications for {repo}?")
}

// =============================================================================
// Transports
// =============================================================================

/// Every test body runs under this bound.
async fn bounded(body: impl Future<Output = anyhow::Result<()>>) -> anyhow::Result<()> {
    tokio::time::timeout(Duration::from_secs(30), body)
        .await
        .map_err(|_| anyhow::anyhow!("the test did not finish within 30 seconds"))?
}

#[derive(Debug, Clone, Copy)]
enum Via {
    /// Stateless Streamable HTTP on 127.0.0.1, the server in this process.
    Http,
    /// `tokio::io::duplex`: the server in this process, newline-delimited JSON-RPC.
    Duplex,
    /// The `wizard-stdio` binary as a child process, spoken to over its stdin/stdout.
    Child,
}

fn discover() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    }
}

fn wizard_child() -> anyhow::Result<TokioChildProcess> {
    let (child, _stderr) = TokioChildProcess::builder(tokio::process::Command::new(env!(
        "CARGO_BIN_EXE_wizard-stdio"
    )))
    .stderr(Stdio::null())
    .spawn()?;
    Ok(child)
}

/// Serves a wizard on one end of an in-memory pipe and returns the other end.
fn wizard_on_duplex() -> (tokio::io::DuplexStream, tokio::task::JoinHandle<()>) {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let wizard = Wizard::new(TestClock::default().engine());
    let task = tokio::spawn(async move {
        // The server answers `server/discover` itself; it ends when the client hangs up.
        if let Ok(running) = wizard.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    (client_io, task)
}

/// A wizard and a client connected to it, with whatever keeps the server alive.
struct Connected<S: Service<RoleClient>> {
    client: RunningService<RoleClient, S>,
    _server: Server,
}

enum Server {
    /// Stops the HTTP server when dropped. Its own client is not used.
    Http {
        _loopback: Loopback,
    },
    Task(tokio::task::JoinHandle<()>),
    /// The child is owned by the client's transport.
    Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Server::Task(task) = self {
            task.abort();
        }
    }
}

impl<S: Service<RoleClient>> Connected<S> {
    /// Connects `handler` as a 2026-07-28 client (`server/discover`) to a fresh wizard.
    async fn start(via: Via, handler: S) -> anyhow::Result<Self> {
        Ok(match via {
            Via::Http => {
                let loopback = Loopback::start(Wizard::new(TestClock::default().engine())).await?;
                let transport = StreamableHttpClientTransport::from_config(
                    StreamableHttpClientTransportConfig::with_uri(loopback.url.clone()),
                );
                let client = handler.serve_with_lifecycle(transport, discover()).await?;
                Self {
                    client,
                    _server: Server::Http {
                        _loopback: loopback,
                    },
                }
            }
            Via::Duplex => {
                let (io, task) = wizard_on_duplex();
                let client = handler.serve_with_lifecycle(io, discover()).await?;
                Self {
                    client,
                    _server: Server::Task(task),
                }
            }
            Via::Child => {
                let client = handler
                    .serve_with_lifecycle(wizard_child()?, discover())
                    .await?;
                Self {
                    client,
                    _server: Server::Child,
                }
            }
        })
    }

    async fn close(self) -> anyhow::Result<()> {
        let Self { client, _server } = self;
        client.cancel().await?;
        Ok(())
    }
}

// =============================================================================
// Rounds by hand
// =============================================================================

/// One question the server sent back.
#[derive(Debug, Clone)]
struct Asked {
    keys: Vec<String>,
    key: String,
    message: String,
    schema: Value,
    state: String,
}

#[derive(Debug)]
enum Reply {
    Asked(Asked),
    Done(CallToolResult),
}

fn arguments(team: &str) -> JsonObject {
    let mut object = JsonObject::new();
    object.insert("team".to_owned(), json!(team));
    object
}

/// A first call: no `requestState`, no answers.
fn first_call(team: &str) -> CallToolRequestParams {
    CallToolRequestParams::new(TOOL).with_arguments(arguments(team))
}

/// A call carrying `responses` (a JSON object) and, if any, `state`.
fn call_with(team: &str, state: Option<&str>, responses: Value) -> CallToolRequestParams {
    let mut params = first_call(team);
    let responses: InputResponses =
        serde_json::from_value(responses).expect("responses are a JSON object");
    params.input_responses = Some(responses);
    params.request_state = state.map(str::to_owned);
    params
}

fn accept(content: Value) -> Value {
    json!({ "action": "accept", "content": content })
}

fn decline() -> Value {
    json!({ "action": "decline" })
}

fn cancel() -> Value {
    json!({ "action": "cancel" })
}

fn ada() -> Value {
    accept(json!({ "name": "Ada" }))
}

fn role(role: &str) -> Value {
    accept(json!({ "role": role }))
}

fn confirm_admin(confirm: bool) -> Value {
    accept(json!({ "confirm": confirm }))
}

fn repo(repo: &str, more: bool) -> Value {
    accept(json!({ "repo": repo, "more": more }))
}

fn level(level: &str) -> Value {
    accept(json!({ "level": level }))
}

/// Sends one round.
async fn send(client: &Client, params: CallToolRequestParams) -> Result<Reply, ServiceError> {
    Ok(match client.call_tool_once(params).await? {
        CallToolResponse::Complete(result) => Reply::Done(result),
        CallToolResponse::InputRequired(input) => {
            let requests = input.input_requests.unwrap_or_default();
            let keys: Vec<String> = requests.keys().cloned().collect();
            let (key, request) = requests
                .into_iter()
                .next()
                .expect("an input_required result carries at least one request");
            let request = serde_json::to_value(request).expect("a request serializes");
            assert_eq!(request["method"], "elicitation/create", "{request}");
            Reply::Asked(Asked {
                keys,
                key,
                message: request["params"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                schema: request["params"]["requestedSchema"].clone(),
                state: input
                    .request_state
                    .expect("a question from mrtr always carries requestState"),
            })
        }
        other => panic!("unexpected response: {other:?}"),
    })
}

/// Sends one round that must come back as a single question with a small state.
async fn ask(client: &Client, params: CallToolRequestParams) -> anyhow::Result<Asked> {
    match send(client, params).await? {
        Reply::Asked(asked) => {
            assert_eq!(
                asked.keys.len(),
                1,
                "one question per round: {:?}",
                asked.keys
            );
            assert!(!asked.state.is_empty());
            assert!(
                asked.state.len() < SMALL_STATE,
                "requestState of `{}` is {} bytes",
                asked.key,
                asked.state.len()
            );
            Ok(asked)
        }
        Reply::Done(result) => anyhow::bail!("expected a question, got a result: {result:?}"),
    }
}

/// Sends one round that must come back as a result.
async fn finish(client: &Client, params: CallToolRequestParams) -> anyhow::Result<CallToolResult> {
    match send(client, params).await? {
        Reply::Done(result) => Ok(result),
        Reply::Asked(asked) => anyhow::bail!("expected a result, got a question: {asked:?}"),
    }
}

/// Sends one round that must be refused with `-32602`: not a result, not a question.
async fn refused(client: &Client, params: CallToolRequestParams) -> anyhow::Result<ErrorData> {
    match send(client, params).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{error:?}");
            assert!(error.message.contains("requestState"), "{error:?}");
            Ok(error)
        }
        Err(other) => anyhow::bail!("expected a JSON-RPC -32602 error, got {other:?}"),
        Ok(reply) => anyhow::bail!("expected a JSON-RPC -32602 error, got {reply:?}"),
    }
}

/// Calls `onboard` for `team` and answers each round with the next scripted `(key, answer)`,
/// checking that the key asked is the scripted one. Returns the questions and the result.
/// Every round's state is new and small.
async fn run_script(
    client: &Client,
    team: &str,
    script: &[(&str, Value)],
) -> anyhow::Result<(Vec<Asked>, CallToolResult)> {
    let mut asked: Vec<Asked> = Vec::new();
    let mut params = first_call(team);
    let mut script = script.iter();
    loop {
        match send(client, params).await? {
            Reply::Done(result) => {
                anyhow::ensure!(
                    script.next().is_none(),
                    "the call completed before the script ended: {result:?}"
                );
                assert_states_fresh_and_small(&asked);
                return Ok((asked, result));
            }
            Reply::Asked(question) => {
                let Some((key, answer)) = script.next() else {
                    anyhow::bail!(
                        "no scripted answer for {question:?} after {:?}",
                        keys_of(&asked)
                    );
                };
                assert_eq!(
                    question.keys,
                    [*key],
                    "round {} ({})",
                    asked.len() + 1,
                    question.message
                );
                params = call_with(
                    team,
                    Some(&question.state),
                    json!({ key.to_owned(): answer.clone() }),
                );
                asked.push(question);
            }
        }
    }
}

/// Each round hands back a state no earlier round had, and none grows past [`SMALL_STATE`].
fn assert_states_fresh_and_small(asked: &[Asked]) {
    let distinct: BTreeSet<&str> = asked.iter().map(|a| a.state.as_str()).collect();
    assert_eq!(
        distinct.len(),
        asked.len(),
        "a state was handed out twice: {:?}",
        keys_of(asked)
    );
    for (round, question) in asked.iter().enumerate() {
        assert!(
            question.state.len() < SMALL_STATE,
            "round {} ({}) sealed {} bytes",
            round + 1,
            question.key,
            question.state.len()
        );
    }
}

fn keys_of(asked: &[Asked]) -> Vec<&str> {
    asked.iter().map(|a| a.key.as_str()).collect()
}

fn messages_of(asked: &[Asked]) -> Vec<&str> {
    asked.iter().map(|a| a.message.as_str()).collect()
}

/// The result of a completed onboarding of Ada to Rust.
fn assert_onboarded(result: &CallToolResult, role: &str, repos: &[(&str, &str)]) {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let listing: Vec<String> = repos
        .iter()
        .map(|(repo, level)| format!("{repo}={level}"))
        .collect();
    assert_eq!(
        text_of(result),
        format!("Onboarded Ada as {role} to Rust: {}", listing.join(", "))
    );
    let repos: Vec<Value> = repos
        .iter()
        .map(|(repo, level)| json!({ "repo": repo, "level": level }))
        .collect();
    assert_eq!(
        result.structured_content,
        Some(json!({ "name": "Ada", "role": role, "team": "Rust", "repos": repos }))
    );
}

fn assert_cancelled_at(result: &CallToolResult, key: &str) {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    assert_eq!(text_of(result), format!("Onboarding cancelled at {key}"));
    assert_eq!(result.structured_content, None);
}

// =============================================================================
// Scenarios
// =============================================================================

/// Admin, confirmed; two repositories: every kind of round, in order.
async fn admin_confirmed(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = run_script(
        client,
        "Rust",
        &[
            ("profile", ada()),
            ("role", role("admin")),
            ("confirm_admin", confirm_admin(true)),
            ("repo", repo("mrtr", true)),
            ("repo", repo("rmcp", false)),
            ("notify", level("all")),
            ("notify", level("mentions")),
        ],
    )
    .await?;
    assert_eq!(
        keys_of(&asked),
        [
            "profile",
            "role",
            "confirm_admin",
            "repo",
            "repo",
            "notify",
            "notify"
        ]
    );
    assert_eq!(
        messages_of(&asked),
        [
            WELCOME,
            WHICH_ROLE,
            CONFIRM_ADMIN,
            &repo_message(0),
            &repo_message(1),
            &notify_message("mrtr"),
            &notify_message("rmcp"),
        ]
    );
    assert_onboarded(&result, "admin", &[("mrtr", "all"), ("rmcp", "mentions")]);

    // The forms are the typed answers' schemas.
    let name = &asked[0].schema;
    assert_eq!(name["required"], json!(["name"]), "{name}");
    assert_eq!(name["properties"]["name"]["type"], "string", "{name}");
    let roles = &asked[1].schema;
    assert_eq!(
        roles["properties"]["role"]["enum"],
        json!(["developer", "admin", "viewer"]),
        "{roles}"
    );
    let confirm = &asked[2].schema;
    assert_eq!(
        confirm["properties"]["confirm"]["type"], "boolean",
        "{confirm}"
    );
    let repo = &asked[3].schema;
    assert_eq!(repo["properties"]["repo"]["type"], "string", "{repo}");
    assert_eq!(repo["properties"]["more"]["type"], "boolean", "{repo}");
    let required: BTreeSet<&str> = repo["required"]
        .as_array()
        .map(|keys| keys.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert_eq!(required, BTreeSet::from(["repo", "more"]), "{repo}");
    let levels = &asked[5].schema;
    assert_eq!(
        levels["properties"]["level"]["enum"],
        json!(["all", "mentions", "none"]),
        "{levels}"
    );
    Ok(())
}

/// An admin who does not confirm carries on as a developer.
async fn admin_refused_becomes_developer(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = run_script(
        client,
        "Rust",
        &[
            ("profile", ada()),
            ("role", role("admin")),
            ("confirm_admin", confirm_admin(false)),
            ("repo", repo("mrtr", false)),
            ("notify", level("none")),
        ],
    )
    .await?;
    assert_eq!(
        keys_of(&asked),
        ["profile", "role", "confirm_admin", "repo", "notify"]
    );
    assert_eq!(asked[2].message, CONFIRM_ADMIN);
    assert_onboarded(&result, "developer", &[("mrtr", "none")]);
    Ok(())
}

/// Only admins are asked to confirm.
async fn viewer_is_not_asked_to_confirm(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = run_script(
        client,
        "Rust",
        &[
            ("profile", ada()),
            ("role", role("viewer")),
            ("repo", repo("mrtr", true)),
            ("repo", repo("rmcp", false)),
            ("notify", level("mentions")),
            ("notify", level("all")),
        ],
    )
    .await?;
    assert_eq!(
        keys_of(&asked),
        ["profile", "role", "repo", "repo", "notify", "notify"]
    );
    assert_eq!(
        messages_of(&asked),
        [
            WELCOME,
            WHICH_ROLE,
            &repo_message(0),
            &repo_message(1),
            &notify_message("mrtr"),
            &notify_message("rmcp"),
        ]
    );
    assert_onboarded(&result, "viewer", &[("mrtr", "mentions"), ("rmcp", "all")]);
    Ok(())
}

/// One repository: the loop runs once and so does the `for`.
async fn single_repo(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = run_script(
        client,
        "Rust",
        &[
            ("profile", ada()),
            ("role", role("developer")),
            ("repo", repo("mrtr", false)),
            ("notify", level("all")),
        ],
    )
    .await?;
    assert_eq!(keys_of(&asked), ["profile", "role", "repo", "notify"]);
    assert_eq!(
        messages_of(&asked),
        [
            WELCOME,
            WHICH_ROLE,
            &repo_message(0),
            &notify_message("mrtr")
        ]
    );
    assert_onboarded(&result, "developer", &[("mrtr", "all")]);
    Ok(())
}

/// The fifth answer still says `more`, but the cap ends the loop: exactly five `repo`
/// rounds, then five `notify` rounds in the order the repositories came.
async fn five_repos_cap_the_loop(client: &Client) -> anyhow::Result<()> {
    assert_eq!(MAX_REPOS, 5);
    let names = ["alpha", "beta", "gamma", "delta", "epsilon"];
    let levels = ["all", "mentions", "none", "mentions", "all"];
    let mut script = vec![("profile", ada()), ("role", role("admin"))];
    script.push(("confirm_admin", confirm_admin(true)));
    script.extend(names.iter().map(|name| ("repo", repo(name, true))));
    script.extend(levels.iter().map(|l| ("notify", level(l))));
    let (asked, result) = run_script(client, "Rust", &script).await?;

    let repos: Vec<&Asked> = asked.iter().filter(|a| a.key == "repo").collect();
    assert_eq!(repos.len(), 5);
    let expected: Vec<String> = (0..5).map(repo_message).collect();
    assert_eq!(
        repos.iter().map(|a| a.message.clone()).collect::<Vec<_>>(),
        expected
    );
    let notifies: Vec<&Asked> = asked.iter().filter(|a| a.key == "notify").collect();
    assert_eq!(notifies.len(), 5);
    let expected: Vec<String> = names.iter().map(|name| notify_message(name)).collect();
    assert_eq!(
        notifies
            .iter()
            .map(|a| a.message.clone())
            .collect::<Vec<_>>(),
        expected
    );
    // The rounds come in one block each: no `repo` after the first `notify`.
    let mut keys = keys_of(&asked);
    keys.dedup();
    assert_eq!(keys, ["profile", "role", "confirm_admin", "repo", "notify"]);
    assert_eq!(asked.len(), 13);

    let watched: Vec<(&str, &str)> = names.iter().copied().zip(levels).collect();
    assert_onboarded(&result, "admin", &watched);
    Ok(())
}

/// Declining the second `notify` ends the call there.
async fn decline_inside_the_for_loop(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = run_script(
        client,
        "Rust",
        &[
            ("profile", ada()),
            ("role", role("developer")),
            ("repo", repo("mrtr", true)),
            ("repo", repo("rmcp", true)),
            ("repo", repo("tokio", false)),
            ("notify", level("all")),
            ("notify", decline()),
        ],
    )
    .await?;
    assert_eq!(
        messages_of(&asked)[5..],
        [notify_message("mrtr"), notify_message("rmcp")]
    );
    assert_cancelled_at(&result, "notify");
    Ok(())
}

/// Cancelling the second `repo` ends the call there.
async fn cancel_inside_the_loop(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = run_script(
        client,
        "Rust",
        &[
            ("profile", ada()),
            ("role", role("viewer")),
            ("repo", repo("mrtr", true)),
            ("repo", cancel()),
        ],
    )
    .await?;
    assert_eq!(messages_of(&asked)[2..], [repo_message(0), repo_message(1)]);
    assert_cancelled_at(&result, "repo");
    Ok(())
}

/// The happy admin script with two repositories, as `(key, answer)` rounds.
fn admin_script() -> Vec<(&'static str, Value)> {
    vec![
        ("profile", ada()),
        ("role", role("admin")),
        ("confirm_admin", confirm_admin(true)),
        ("repo", repo("mrtr", true)),
        ("repo", repo("rmcp", false)),
        ("notify", level("all")),
        ("notify", level("mentions")),
    ]
}

/// Declining or cancelling at any round, inside the branch and both loops included, ends
/// the call with `Onboarding cancelled at <key>`.
async fn refuse_at_each_round(client: &Client, refusal: fn() -> Value) -> anyhow::Result<()> {
    let happy = admin_script();
    for round in 0..happy.len() {
        let mut script = happy[..round].to_vec();
        let key = happy[round].0;
        script.push((key, refusal()));
        let (asked, result) = run_script(client, "Rust", &script).await?;
        assert_eq!(asked.len(), round + 1);
        assert_cancelled_at(&result, key);
    }
    Ok(())
}

async fn decline_at_each_round(client: &Client) -> anyhow::Result<()> {
    refuse_at_each_round(client, decline).await
}

async fn cancel_at_each_round(client: &Client) -> anyhow::Result<()> {
    refuse_at_each_round(client, cancel).await
}

/// A wrong-shaped `level` at the second of three `notify` rounds asks the same repository
/// again; the items left in the `for` and the levels already given survive the re-asks.
async fn wrong_shape_inside_the_for_loop(client: &Client) -> anyhow::Result<()> {
    let asked = run_script_until(
        client,
        &[
            ("profile", ada()),
            ("role", role("developer")),
            ("repo", repo("mrtr", true)),
            ("repo", repo("rmcp", true)),
            ("repo", repo("tokio", false)),
            ("notify", level("none")),
        ],
    )
    .await?;
    let second = asked.last().expect("rounds were asked").clone();
    assert_eq!(
        (second.key.as_str(), second.message.as_str()),
        ("notify", notify_message("rmcp").as_str())
    );

    let mut states = vec![second.state.clone()];
    let mut state = second.state;
    for wrong in [
        level("loud"),
        level("All"),
        accept(json!({})),
        accept(json!({ "level": 1 })),
        json!("mentions"),
        unknown_action(),
    ] {
        let again = ask(
            client,
            call_with("Rust", Some(&state), json!({ "notify": wrong })),
        )
        .await?;
        assert_eq!(
            (again.key.as_str(), again.message.as_str()),
            ("notify", notify_message("rmcp").as_str()),
            "after {wrong}"
        );
        assert!(
            !states.contains(&again.state),
            "a re-ask seals a new state (after {wrong})"
        );
        states.push(again.state.clone());
        state = again.state;
    }

    let third = ask(
        client,
        call_with("Rust", Some(&state), json!({ "notify": level("mentions") })),
    )
    .await?;
    assert_eq!(
        (third.key.as_str(), third.message.as_str()),
        ("notify", notify_message("tokio").as_str())
    );
    // Wrong once more at the last item, then right.
    let again = ask(
        client,
        call_with(
            "Rust",
            Some(&third.state),
            json!({ "notify": level("loud") }),
        ),
    )
    .await?;
    assert_eq!(again.message, notify_message("tokio"));
    assert_ne!(again.state, third.state);
    let result = finish(
        client,
        call_with(
            "Rust",
            Some(&again.state),
            json!({ "notify": level("all") }),
        ),
    )
    .await?;
    assert_onboarded(
        &result,
        "developer",
        &[("mrtr", "none"), ("rmcp", "mentions"), ("tokio", "all")],
    );
    Ok(())
}

/// An `ElicitResult` with an action it does not know.
fn unknown_action() -> Value {
    json!({ "action": "maybe" })
}

/// A wrong-shaped `repo` answer asks the same `(k so far)` again; the repositories already
/// collected survive the re-ask.
async fn wrong_shape_inside_the_loop(client: &Client) -> anyhow::Result<()> {
    let asked = run_script_until(
        client,
        &[
            ("profile", ada()),
            ("role", role("viewer")),
            ("repo", repo("mrtr", true)),
        ],
    )
    .await?;
    let second = asked.last().expect("rounds were asked").clone();
    assert_eq!(
        (second.key.as_str(), second.message.as_str()),
        ("repo", repo_message(1).as_str())
    );
    let mut state = second.state;
    for wrong in [
        accept(json!({ "repo": "rmcp" })),
        accept(json!({ "more": false })),
        accept(json!({ "repo": 7, "more": false })),
        accept(json!({ "repo": "rmcp", "more": "no" })),
    ] {
        let again = ask(
            client,
            call_with("Rust", Some(&state), json!({ "repo": wrong })),
        )
        .await?;
        assert_eq!(
            (again.key.as_str(), again.message.as_str()),
            ("repo", repo_message(1).as_str()),
            "after {wrong}"
        );
        assert_ne!(again.state, state);
        state = again.state;
    }
    let third = ask(
        client,
        call_with("Rust", Some(&state), json!({ "repo": repo("rmcp", true) })),
    )
    .await?;
    assert_eq!(third.message, repo_message(2));
    let first_notify = ask(
        client,
        call_with(
            "Rust",
            Some(&third.state),
            json!({ "repo": repo("tokio", false) }),
        ),
    )
    .await?;
    assert_eq!(first_notify.message, notify_message("mrtr"));
    let mut state = first_notify.state;
    // Answer for the repository asked, and check which one is asked next.
    for (answer, next_repo) in [("all", "rmcp"), ("none", "tokio")] {
        let next = ask(
            client,
            call_with("Rust", Some(&state), json!({ "notify": level(answer) })),
        )
        .await?;
        assert_eq!(next.message, notify_message(next_repo));
        state = next.state;
    }
    let result = finish(
        client,
        call_with("Rust", Some(&state), json!({ "notify": level("mentions") })),
    )
    .await?;
    assert_onboarded(
        &result,
        "viewer",
        &[("mrtr", "all"), ("rmcp", "none"), ("tokio", "mentions")],
    );
    Ok(())
}

/// Answers `script` in order and returns every question asked, the last one unanswered.
async fn run_script_until(client: &Client, script: &[(&str, Value)]) -> anyhow::Result<Vec<Asked>> {
    let mut asked: Vec<Asked> = Vec::new();
    let mut params = first_call("Rust");
    for (key, answer) in script {
        let question = ask(client, params).await?;
        assert_eq!(question.key, *key, "round {}", asked.len() + 1);
        params = call_with(
            "Rust",
            Some(&question.state),
            json!({ key.to_owned(): answer.clone() }),
        );
        asked.push(question);
    }
    asked.push(ask(client, params).await?);
    assert_states_fresh_and_small(&asked);
    Ok(asked)
}

/// The state of every round, replayed with another team, is refused with `-32602`; the
/// genuine states still work afterwards.
async fn state_replayed_for_another_team_is_refused(client: &Client) -> anyhow::Result<()> {
    let script = admin_script();
    let asked = run_script_until(client, &script[..script.len() - 1]).await?;
    assert_eq!(asked.len(), script.len());
    for (question, (key, answer)) in asked.iter().zip(&script) {
        assert_eq!(question.key, *key);
        for team in ["Go", "rust", "Rust ", ""] {
            refused(
                client,
                call_with(team, Some(&question.state), json!({ *key: answer.clone() })),
            )
            .await
            .map_err(|e| {
                anyhow::anyhow!("{key} state ({}) for team {team:?}: {e}", question.message)
            })?;
        }
        // Without an answer too: it is refused, not asked again.
        refused(client, call_with("Go", Some(&question.state), json!({}))).await?;
    }
    // Nothing was consumed: the genuine last state completes the call.
    let (key, answer) = script.last().expect("a script");
    let last = asked.last().expect("rounds were asked");
    let result = finish(
        client,
        call_with("Rust", Some(&last.state), json!({ *key: answer.clone() })),
    )
    .await?;
    assert_onboarded(&result, "admin", &[("mrtr", "all"), ("rmcp", "mentions")]);
    Ok(())
}

// =============================================================================
// rmcp's own `call_tool` loop
// =============================================================================

/// A user that answers by the question's text and records what it was asked: an admin
/// who confirms and adds `repos` repositories named `repo-<k>`, always saying `more`.
#[derive(Clone)]
struct ScriptedUser {
    repos: usize,
    asked: Arc<Mutex<Vec<String>>>,
}

impl ScriptedUser {
    fn new(repos: usize) -> Self {
        Self {
            repos,
            asked: Arc::default(),
        }
    }

    fn asked(&self) -> Vec<String> {
        self.asked.lock().expect("not poisoned").clone()
    }

    /// What this user is asked, in order, for a complete onboarding.
    fn expected(&self) -> Vec<String> {
        let mut expected = vec![
            WELCOME.to_owned(),
            WHICH_ROLE.to_owned(),
            CONFIRM_ADMIN.to_owned(),
        ];
        let repos = self.repos.min(MAX_REPOS);
        expected.extend((0..repos).map(repo_message));
        expected.extend((0..repos).map(|k| notify_message(&format!("repo-{k}"))));
        expected
    }
}

const LEVELS: [&str; 3] = ["all", "mentions", "none"];

impl ClientHandler for ScriptedUser {
    fn get_info(&self) -> ClientConfig {
        elicitation_client()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::FormElicitationParams { message, .. } = request else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        self.asked
            .lock()
            .expect("not poisoned")
            .push(message.clone());
        let content = match message.as_str() {
            WELCOME => json!({ "name": "Ada" }),
            WHICH_ROLE => json!({ "role": "admin" }),
            CONFIRM_ADMIN => json!({ "confirm": true }),
            other => {
                if let Some(k) = (0..MAX_REPOS).find(|k| other == repo_message(*k)) {
                    json!({ "repo": format!("repo-{k}"), "more": k + 1 < self.repos })
                } else if let Some(k) =
                    (0..MAX_REPOS).find(|k| other == notify_message(&format!("repo-{k}")))
                {
                    json!({ "level": LEVELS[k % LEVELS.len()] })
                } else {
                    return Ok(ElicitResult::new(ElicitationAction::Decline));
                }
            }
        };
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
    }
}

fn user_watched(repos: usize) -> Vec<(String, &'static str)> {
    (0..repos.min(MAX_REPOS))
        .map(|k| (format!("repo-{k}"), LEVELS[k % LEVELS.len()]))
        .collect()
}

fn assert_user_onboarded(result: &CallToolResult, repos: usize) {
    let watched = user_watched(repos);
    let watched: Vec<(&str, &str)> = watched.iter().map(|(r, l)| (r.as_str(), *l)).collect();
    assert_onboarded(result, "admin", &watched);
}

/// rmcp's `call_tool` answers every round through the `ClientHandler` (7 rounds).
async fn rmcp_call_tool_loop_completes(via: Via) -> anyhow::Result<()> {
    let user = ScriptedUser::new(2);
    let connected = Connected::start(via, user.clone()).await?;
    let result = connected.client.call_tool(first_call("Rust")).await?;
    assert_user_onboarded(&result, 2);
    assert_eq!(user.asked(), user.expected());
    connected.close().await
}

/// Five repositories for an admin take 13 questions, so 14 `tools/call` requests: more than
/// rmcp's default cap of 10, so `call_tool` gives up, and a cap of 14 completes. rmcp counts
/// every request of the loop, the completing one too, so a cap of 13 is one short. The user
/// always says `more`, so the loop stops at the cap.
async fn rmcp_call_tool_loop_needs_a_higher_cap_for_five_repos(via: Via) -> anyhow::Result<()> {
    let user = ScriptedUser::new(7);
    let connected = Connected::start(via, user.clone()).await?;
    for cap in [None, Some(13)] {
        let outcome = match cap {
            None => connected.client.call_tool(first_call("Rust")).await,
            Some(cap) => {
                connected
                    .client
                    .call_tool_with_mrtr_max_rounds(first_call("Rust"), cap)
                    .await
            }
        };
        let expected = cap.unwrap_or(rmcp::model::DEFAULT_MRTR_MAX_ROUNDS);
        match outcome {
            Err(ServiceError::InputRequiredRoundsExceeded { max_rounds }) => {
                assert_eq!(max_rounds, expected);
            }
            other => anyhow::bail!("expected the cap of {expected} to be hit, got {other:?}"),
        }
        // The last question was put to the user, but its answer never sent.
        assert_eq!(user.asked(), user.expected()[..expected]);
        user.asked.lock().expect("not poisoned").clear();
    }
    let result = connected
        .client
        .call_tool_with_mrtr_max_rounds(first_call("Rust"), 14)
        .await?;
    assert_user_onboarded(&result, 7);
    assert_eq!(user.asked(), user.expected());
    assert_eq!(user.asked().len(), 13);
    connected.close().await
}

// =============================================================================
// Tests
// =============================================================================

/// One module per transport, one test per scenario.
macro_rules! transport_tests {
    ($module:ident, $via:expr, [$($scenario:ident),* $(,)?] $(,)?) => {
        mod $module {
            use super::*;

            $(
                #[tokio::test]
                async fn $scenario() -> anyhow::Result<()> {
                    bounded(async {
                        let session = Connected::start($via, elicitation_client()).await?;
                        super::$scenario(&session.client).await?;
                        session.close().await
                    })
                    .await
                }
            )*

            #[tokio::test]
            async fn rmcp_call_tool_loop_completes() -> anyhow::Result<()> {
                bounded(super::rmcp_call_tool_loop_completes($via)).await
            }

            #[tokio::test]
            async fn rmcp_call_tool_loop_needs_a_higher_cap_for_five_repos() -> anyhow::Result<()> {
                bounded(super::rmcp_call_tool_loop_needs_a_higher_cap_for_five_repos($via)).await
            }
        }
    };
}

transport_tests!(
    http,
    Via::Http,
    [
        admin_confirmed,
        admin_refused_becomes_developer,
        viewer_is_not_asked_to_confirm,
        single_repo,
        five_repos_cap_the_loop,
        decline_inside_the_for_loop,
        cancel_inside_the_loop,
        decline_at_each_round,
        cancel_at_each_round,
        wrong_shape_inside_the_for_loop,
        wrong_shape_inside_the_loop,
        state_replayed_for_another_team_is_refused,
    ],
);

transport_tests!(
    stdio_duplex,
    Via::Duplex,
    [
        admin_confirmed,
        admin_refused_becomes_developer,
        viewer_is_not_asked_to_confirm,
        single_repo,
        five_repos_cap_the_loop,
        decline_inside_the_for_loop,
        cancel_inside_the_loop,
        decline_at_each_round,
        cancel_at_each_round,
        wrong_shape_inside_the_for_loop,
        wrong_shape_inside_the_loop,
        state_replayed_for_another_team_is_refused,
    ],
);

transport_tests!(
    stdio_child,
    Via::Child,
    [
        admin_confirmed,
        admin_refused_becomes_developer,
        viewer_is_not_asked_to_confirm,
        single_repo,
        five_repos_cap_the_loop,
        decline_inside_the_for_loop,
        cancel_inside_the_loop,
        decline_at_each_round,
        cancel_at_each_round,
        wrong_shape_inside_the_for_loop,
        wrong_shape_inside_the_loop,
        state_replayed_for_another_team_is_refused,
    ],
);
