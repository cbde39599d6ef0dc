//! The wizard's `signup` tool driven end to end by real rmcp clients, round by round, over
//! loopback HTTP, an in-memory duplex pipe and a real child process on stdio.
//!
//! Every scenario is written once against a connected 2026-07-28 client and run on each
//! transport (see the `transport_tests!` invocations at the bottom). Scenarios that move the
//! clock run only where the server shares the test's [`TestClock`] (HTTP and duplex: the
//! child process reads the real clock).

use std::{
    future::Future,
    process::Stdio,
    sync::{Arc, Mutex},
    time::Duration,
};

use mrtr_examples::{
    demo::{elicitation_client, text_of},
    wizard::Wizard,
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

const WELCOME: &str = "Welcome to Rust! What should we call you?";
const WHICH_PLAN: &str = "Which plan would you like?";
const CONFIRM: &str = "Sign Ada up for pro?";
const DONE: &str = "Signed up Ada to Rust on the pro plan";

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
fn wizard_on_duplex(clock: &TestClock) -> (tokio::io::DuplexStream, tokio::task::JoinHandle<()>) {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let wizard = Wizard::new(clock.engine());
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
    /// `None` for the child process, whose clock the test cannot move.
    clock: Option<TestClock>,
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
        let clock = TestClock::default();
        Ok(match via {
            Via::Http => {
                let loopback = Loopback::start(Wizard::new(clock.engine())).await?;
                let transport = StreamableHttpClientTransport::from_config(
                    StreamableHttpClientTransportConfig::with_uri(loopback.url.clone()),
                );
                let client = handler.serve_with_lifecycle(transport, discover()).await?;
                Self {
                    client,
                    clock: Some(clock),
                    _server: Server::Http {
                        _loopback: loopback,
                    },
                }
            }
            Via::Duplex => {
                let (io, task) = wizard_on_duplex(&clock);
                let client = handler.serve_with_lifecycle(io, discover()).await?;
                Self {
                    client,
                    clock: Some(clock),
                    _server: Server::Task(task),
                }
            }
            Via::Child => {
                let client = handler
                    .serve_with_lifecycle(wizard_child()?, discover())
                    .await?;
                Self {
                    client,
                    clock: None,
                    _server: Server::Child,
                }
            }
        })
    }

    async fn close(self) -> anyhow::Result<()> {
        let Self {
            client, _server, ..
        } = self;
        client.cancel().await?;
        Ok(())
    }
}

/// A session for the scenarios: the demo's client config (form elicitation declared).
enum Session {
    /// The client `Loopback::start` connected, as the HTTP scenarios use it as is.
    Http {
        loopback: Loopback,
        clock: TestClock,
    },
    Other(Connected<ClientConfig>),
}

impl Session {
    async fn start(via: Via) -> anyhow::Result<Self> {
        match via {
            Via::Http => {
                let clock = TestClock::default();
                let loopback = Loopback::start(Wizard::new(clock.engine())).await?;
                Ok(Self::Http { loopback, clock })
            }
            other => Ok(Self::Other(
                Connected::start(other, elicitation_client()).await?,
            )),
        }
    }

    fn client(&self) -> &Client {
        match self {
            Self::Http { loopback, .. } => &loopback.client,
            Self::Other(connected) => &connected.client,
        }
    }

    fn clock(&self) -> anyhow::Result<&TestClock> {
        match self {
            Self::Http { clock, .. } => Ok(clock),
            Self::Other(connected) => connected
                .clock
                .as_ref()
                .ok_or_else(|| anyhow::anyhow!("this transport's server reads the real clock")),
        }
    }

    async fn close(self) -> anyhow::Result<()> {
        match self {
            Self::Http { loopback, .. } => {
                drop(loopback);
                Ok(())
            }
            Self::Other(connected) => connected.close().await,
        }
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
    CallToolRequestParams::new("signup").with_arguments(arguments(team))
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

fn pro() -> Value {
    accept(json!({ "plan": "pro" }))
}

fn yes() -> Value {
    accept(json!({ "confirm": true }))
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

/// Sends one round that must come back as a question.
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

/// Calls `signup` for `team` and answers each round with the next scripted `(key, answer)`,
/// checking that the key asked is the scripted one. Returns the questions and the result.
async fn run_script(
    client: &Client,
    team: &str,
    script: &[(&str, Value)],
) -> anyhow::Result<(Vec<Asked>, CallToolResult)> {
    let mut asked = Vec::new();
    let mut params = first_call(team);
    let mut script = script.iter();
    loop {
        match send(client, params).await? {
            Reply::Done(result) => {
                anyhow::ensure!(
                    script.next().is_none(),
                    "the call completed before the script ended: {result:?}"
                );
                return Ok((asked, result));
            }
            Reply::Asked(question) => {
                let Some((key, answer)) = script.next() else {
                    anyhow::bail!("no scripted answer for {question:?}");
                };
                assert_eq!(question.keys, [*key], "round {}", asked.len() + 1);
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

fn keys_of(asked: &[Asked]) -> Vec<Vec<String>> {
    asked.iter().map(|a| a.keys.clone()).collect()
}

fn messages_of(asked: &[Asked]) -> Vec<&str> {
    asked.iter().map(|a| a.message.as_str()).collect()
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
    assert_eq!(result.is_error, Some(true), "{result:?}");
    assert_eq!(text_of(result), format!("Signup cancelled at {key}"));
    assert_eq!(result.structured_content, None);
}

/// The three rounds of a happy signup, stopping before the last answer: the questions asked.
async fn three_questions(client: &Client) -> anyhow::Result<[Asked; 3]> {
    let profile = ask(client, first_call("Rust")).await?;
    let plan = ask(
        client,
        call_with("Rust", Some(&profile.state), json!({ "profile": ada() })),
    )
    .await?;
    let confirm = ask(
        client,
        call_with("Rust", Some(&plan.state), json!({ "plan": pro() })),
    )
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

// =============================================================================
// Scenarios
// =============================================================================

async fn happy_path(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = run_script(
        client,
        "Rust",
        &[("profile", ada()), ("plan", pro()), ("confirm", yes())],
    )
    .await?;
    assert_eq!(keys_of(&asked), [["profile"], ["plan"], ["confirm"]]);
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
    let (asked, result) = run_script(
        client,
        "Rust",
        &[
            ("profile", ada()),
            ("plan", pro()),
            ("confirm", accept(json!({ "confirm": false }))),
        ],
    )
    .await?;
    assert_eq!(keys_of(&asked), [["profile"], ["plan"], ["confirm"]]);
    assert_eq!(text_of(&result), "Signup aborted");
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert_eq!(result.structured_content, None);
    Ok(())
}

/// Declining or cancelling at `step` ends the call with `Signup cancelled at <step>`.
async fn refuse_at_each_step(client: &Client, refusal: fn() -> Value) -> anyhow::Result<()> {
    for step in ["profile", "plan", "confirm"] {
        let mut script: Vec<(&str, Value)> = Vec::new();
        for earlier in ["profile", "plan", "confirm"] {
            if earlier == step {
                script.push((earlier, refusal()));
                break;
            }
            script.push((earlier, happy_answer(earlier)));
        }
        let (asked, result) = run_script(client, "Rust", &script).await?;
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
    // Profile without a name, a name of the wrong type, a reply that is no ElicitResult, an
    // unknown action, and no answer for the key at all: all ask `profile` again.
    let first = ask(client, first_call("Rust")).await?;
    let mut state = first.state.clone();
    for wrong in [
        accept(json!({ "email": "ada@example.com" })),
        accept(json!({ "name": 42 })),
        accept(json!([])),
        json!("Ada"),
        json!({ "action": "maybe" }),
    ] {
        let again = ask(
            client,
            call_with("Rust", Some(&state), json!({ "profile": wrong })),
        )
        .await?;
        assert_eq!(again.key, "profile", "after {wrong}");
        assert_eq!(again.message, WELCOME);
        assert_ne!(again.state, state, "a re-ask seals a new state");
        state = again.state;
    }
    let again = ask(
        client,
        call_with("Rust", Some(&state), json!({ "plan": pro() })),
    )
    .await?;
    assert_eq!(
        again.key, "profile",
        "an answer to another key does not answer this one"
    );
    state = again.state;

    let plan = ask(
        client,
        call_with("Rust", Some(&state), json!({ "profile": ada() })),
    )
    .await?;
    assert_eq!(plan.key, "plan");
    let again = ask(
        client,
        call_with(
            "Rust",
            Some(&plan.state),
            json!({ "plan": accept(json!({ "plan": "platinum" })) }),
        ),
    )
    .await?;
    assert_eq!(
        (again.key.as_str(), again.message.as_str()),
        ("plan", WHICH_PLAN)
    );
    let again = ask(
        client,
        call_with(
            "Rust",
            Some(&again.state),
            json!({ "plan": accept(json!({ "plan": "Pro" })) }),
        ),
    )
    .await?;
    assert_eq!(again.key, "plan", "plan names are lowercase");

    let confirm = ask(
        client,
        call_with("Rust", Some(&again.state), json!({ "plan": pro() })),
    )
    .await?;
    assert_eq!(
        (confirm.key.as_str(), confirm.message.as_str()),
        ("confirm", CONFIRM)
    );
    let again = ask(
        client,
        call_with(
            "Rust",
            Some(&confirm.state),
            json!({ "confirm": accept(json!({ "confirm": "yes" })) }),
        ),
    )
    .await?;
    // The locals restored from the state still name Ada and pro.
    assert_eq!(
        (again.key.as_str(), again.message.as_str()),
        ("confirm", CONFIRM)
    );
    let again = ask(
        client,
        call_with(
            "Rust",
            Some(&again.state),
            json!({ "confirm": accept(json!({})) }),
        ),
    )
    .await?;
    assert_eq!(again.key, "confirm");

    let result = finish(
        client,
        call_with("Rust", Some(&again.state), json!({ "confirm": yes() })),
    )
    .await?;
    assert_signed_up(&result);
    Ok(())
}

/// A wrong-shaped answer on a first call (no state) is asked again too.
async fn wrong_shape_on_a_first_call(client: &Client) -> anyhow::Result<()> {
    let again = ask(
        client,
        call_with(
            "Rust",
            None,
            json!({ "profile": accept(json!({ "nickname": "Ada" })) }),
        ),
    )
    .await?;
    assert_eq!(
        (again.key.as_str(), again.message.as_str()),
        ("profile", WELCOME)
    );
    let plan = ask(
        client,
        call_with("Rust", Some(&again.state), json!({ "profile": ada() })),
    )
    .await?;
    assert_eq!(plan.key, "plan");
    Ok(())
}

/// Keys nobody asked for are ignored, including answers to questions not asked yet.
async fn unknown_keys_are_ignored(client: &Client) -> anyhow::Result<()> {
    let profile = ask(client, first_call("Rust")).await?;
    let plan = ask(
        client,
        call_with(
            "Rust",
            Some(&profile.state),
            json!({
                "profile": accept(json!({ "name": "Ada", "shoe_size": 38 })),
                "bogus": { "action": "accept", "content": { "x": 1 } },
                "also-bogus": "whatever",
                // Not asked yet: the next round still asks it.
                "plan": accept(json!({ "plan": "enterprise" })),
            }),
        ),
    )
    .await?;
    assert_eq!(
        (plan.key.as_str(), plan.message.as_str()),
        ("plan", WHICH_PLAN)
    );
    let confirm = ask(
        client,
        call_with(
            "Rust",
            Some(&plan.state),
            json!({ "plan": pro(), "confirm": accept(json!({ "confirm": false })), "zzz": null }),
        ),
    )
    .await?;
    assert_eq!(
        (confirm.key.as_str(), confirm.message.as_str()),
        ("confirm", CONFIRM)
    );
    let result = finish(
        client,
        call_with(
            "Rust",
            Some(&confirm.state),
            json!({ "confirm": yes(), "profile": decline() }),
        ),
    )
    .await?;
    assert_signed_up(&result);
    Ok(())
}

/// A first call that already answers `profile` goes straight to `plan`; one that answers
/// only a later key is asked `profile`.
async fn first_call_may_answer_the_first_question(client: &Client) -> anyhow::Result<()> {
    let plan = ask(client, call_with("Rust", None, json!({ "profile": ada() }))).await?;
    assert_eq!(
        (plan.key.as_str(), plan.message.as_str()),
        ("plan", WHICH_PLAN)
    );
    let confirm = ask(
        client,
        call_with("Rust", Some(&plan.state), json!({ "plan": pro() })),
    )
    .await?;
    assert_eq!(
        (confirm.key.as_str(), confirm.message.as_str()),
        ("confirm", CONFIRM)
    );
    let result = finish(
        client,
        call_with("Rust", Some(&confirm.state), json!({ "confirm": yes() })),
    )
    .await?;
    assert_signed_up(&result);

    let profile = ask(client, call_with("Rust", None, json!({ "plan": pro() }))).await?;
    assert_eq!(
        (profile.key.as_str(), profile.message.as_str()),
        ("profile", WELCOME)
    );

    // A refusal on the first call is read too.
    let result = finish(
        client,
        call_with("Rust", None, json!({ "profile": decline() })),
    )
    .await?;
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
    let questions = three_questions(client).await?;
    for question in &questions {
        let state = &question.state;
        let answer = json!({ question.key.clone(): happy_answer(&question.key) });
        let len = state.len();
        assert!(len > 60, "a sealed state has a nonce and a tag: {state}");

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
            let error = refused(client, call_with("Rust", Some(&forged), answer.clone()))
                .await
                .map_err(|e| anyhow::anyhow!("{} state {how}: {e}", question.key))?;
            assert_eq!(error.data, None, "the reason stays in the server log");
        }
        // Without an answer, too: a forged state is never a re-prompt.
        refused(
            client,
            call_with("Rust", Some(&flip(state, len / 2)), json!({})),
        )
        .await?;
    }

    // Nothing was consumed: the genuine last state completes the call.
    let result = finish(
        client,
        call_with(
            "Rust",
            Some(&questions[2].state),
            json!({ "confirm": yes() }),
        ),
    )
    .await?;
    assert_signed_up(&result);
    Ok(())
}

/// A state is bound to the call's arguments: replayed for another team it is refused.
async fn state_replayed_for_another_team_is_refused(client: &Client) -> anyhow::Result<()> {
    let questions = three_questions(client).await?;
    for question in &questions {
        let answer = json!({ question.key.clone(): happy_answer(&question.key) });
        for team in ["Go", "rust", "Rust ", ""] {
            refused(
                client,
                call_with(team, Some(&question.state), answer.clone()),
            )
            .await
            .map_err(|e| anyhow::anyhow!("{} state for team {team:?}: {e}", question.key))?;
        }
        // An extra argument changes the binding too.
        let mut params = call_with("Rust", Some(&question.state), answer.clone());
        params
            .arguments
            .as_mut()
            .expect("arguments")
            .insert("admin".to_owned(), json!(true));
        refused(client, params).await?;
    }
    let result = finish(
        client,
        call_with(
            "Rust",
            Some(&questions[2].state),
            json!({ "confirm": yes() }),
        ),
    )
    .await?;
    assert_signed_up(&result);
    Ok(())
}

/// The default TTL is 10 minutes, counted from the round that sealed the state.
async fn expired_state_is_refused(client: &Client, clock: &TestClock) -> anyhow::Result<()> {
    // 9 minutes between rounds is fine, and the TTL restarts with every round.
    let profile = ask(client, first_call("Rust")).await?;
    clock.advance(Duration::from_secs(9 * 60));
    let plan = ask(
        client,
        call_with("Rust", Some(&profile.state), json!({ "profile": ada() })),
    )
    .await?;
    assert_eq!(plan.key, "plan");
    clock.advance(Duration::from_secs(9 * 60));
    let confirm = ask(
        client,
        call_with("Rust", Some(&plan.state), json!({ "plan": pro() })),
    )
    .await?;
    assert_eq!(
        (confirm.key.as_str(), confirm.message.as_str()),
        ("confirm", CONFIRM)
    );

    // 11 minutes later the last state has expired: refused, not re-asked.
    clock.advance(Duration::from_secs(11 * 60));
    refused(
        client,
        call_with("Rust", Some(&confirm.state), json!({ "confirm": yes() })),
    )
    .await?;
    // So have the older ones.
    refused(
        client,
        call_with("Rust", Some(&plan.state), json!({ "plan": pro() })),
    )
    .await?;
    refused(
        client,
        call_with("Rust", Some(&profile.state), json!({ "profile": ada() })),
    )
    .await?;

    // A new call starts over.
    let profile = ask(client, first_call("Rust")).await?;
    assert_eq!(profile.key, "profile");
    Ok(())
}

/// A state sealed exactly 10 minutes ago is already expired.
async fn state_expires_at_exactly_the_ttl(
    client: &Client,
    clock: &TestClock,
) -> anyhow::Result<()> {
    let profile = ask(client, first_call("Rust")).await?;
    clock.advance(Duration::from_secs(10 * 60));
    refused(
        client,
        call_with("Rust", Some(&profile.state), json!({ "profile": ada() })),
    )
    .await?;
    Ok(())
}

/// A user that answers by the question's text and records what it was asked.
#[derive(Clone, Default)]
struct ScriptedUser {
    asked: Arc<Mutex<Vec<String>>>,
}

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
            WELCOME => json!({ "name": "Ada", "email": "ada@example.com" }),
            WHICH_PLAN => json!({ "plan": "pro" }),
            CONFIRM => json!({ "confirm": true }),
            _ => return Ok(ElicitResult::new(ElicitationAction::Decline)),
        };
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
    }
}

/// rmcp's own `call_tool` loop answers every round through the `ClientHandler`.
async fn rmcp_call_tool_loop_completes(via: Via) -> anyhow::Result<()> {
    let user = ScriptedUser::default();
    let connected = Connected::start(via, user.clone()).await?;
    let result = connected.client.call_tool(first_call("Rust")).await?;
    assert_signed_up(&result);
    assert_eq!(
        *user.asked.lock().expect("not poisoned"),
        [WELCOME, WHICH_PLAN, CONFIRM]
    );
    connected.close().await
}

// =============================================================================
// Tests
// =============================================================================

/// One module per transport, one test per scenario.
macro_rules! transport_tests {
    (
        $module:ident, $via:expr,
        plain: [$($plain:ident),* $(,)?],
        clocked: [$($clocked:ident),* $(,)?] $(,)?
    ) => {
        mod $module {
            use super::*;

            $(
                #[tokio::test]
                async fn $plain() -> anyhow::Result<()> {
                    bounded(async {
                        let session = Session::start($via).await?;
                        super::$plain(session.client()).await?;
                        session.close().await
                    })
                    .await
                }
            )*

            $(
                #[tokio::test]
                async fn $clocked() -> anyhow::Result<()> {
                    bounded(async {
                        let session = Session::start($via).await?;
                        super::$clocked(session.client(), session.clock()?).await?;
                        session.close().await
                    })
                    .await
                }
            )*

            #[tokio::test]
            async fn rmcp_call_tool_loop_completes() -> anyhow::Result<()> {
                bounded(super::rmcp_call_tool_loop_completes($via)).await
            }
        }
    };
}

transport_tests!(
    http, Via::Http,
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
    clocked: [expired_state_is_refused, state_expires_at_exactly_the_ttl],
);

transport_tests!(
    stdio_duplex, Via::Duplex,
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
    clocked: [expired_state_is_refused, state_expires_at_exactly_the_ttl],
);

// The child process reads the real clock, so the expiry scenarios run only in process.
transport_tests!(
    stdio_child, Via::Child,
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
    clocked: [],
);

/// The child's states do not open on another server with another key, and vice versa.
#[tokio::test]
async fn a_state_opens_only_on_a_server_with_its_key() -> anyhow::Result<()> {
    bounded(async {
        let child = Session::start(Via::Child).await?;
        let http = Session::start(Via::Http).await?;
        let from_child = ask(child.client(), first_call("Rust")).await?;
        let from_http = ask(http.client(), first_call("Rust")).await?;
        refused(
            http.client(),
            call_with("Rust", Some(&from_child.state), json!({ "profile": ada() })),
        )
        .await?;
        refused(
            child.client(),
            call_with("Rust", Some(&from_http.state), json!({ "profile": ada() })),
        )
        .await?;
        // Two in-process servers with the same key share states: any instance takes a retry.
        let other = Session::start(Via::Duplex).await?;
        let plan = ask(
            other.client(),
            call_with("Rust", Some(&from_http.state), json!({ "profile": ada() })),
        )
        .await?;
        assert_eq!(plan.key, "plan");
        child.close().await?;
        other.close().await?;
        http.close().await
    })
    .await
}
