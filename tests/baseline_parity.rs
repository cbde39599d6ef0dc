//! The hand-written baseline (`mrtr_tests::baseline::HandWritten`) behaves as the mrtr tools
//! it is measured against: `signup`, `onboard` and `wizard5` are called on both servers with
//! the same answer scripts, each over an in-memory duplex with rmcp's 2026-07-28 client, and
//! every round must ask the same question (key, kind, message, requested schema) and the call
//! must end with the same result.
//!
//! Beside the parsed comparison, each server's response lines are tapped off the pipe and
//! compared byte for byte, with only the JSON-RPC `id` and the `requestState` value masked (the
//! two servers seal differently): the requested schemas and the results must be the same bytes.

use std::sync::{Arc, Mutex};

use mrtr::Engine;
use mrtr_examples::wizard::Wizard;
use mrtr_tests::baseline::HandWritten;
use rmcp::{
    ClientLifecycleMode, ClientServiceExt, ServerHandler, ServiceError, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, ClientConfig, InputResponses, JsonObject,
        ProtocolVersion,
    },
    service::{RoleClient, RunningService},
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

type Client = RunningService<RoleClient, ClientConfig>;

/// The lines a server wrote to its client, in order.
type Tap = Arc<Mutex<Vec<String>>>;

/// Serves `server` on a duplex pipe and connects a 2026-07-28 client (as benches/rounds.rs
/// does), with a tap on the server-to-client direction.
async fn connect<S: ServerHandler + Send + 'static>(server: S) -> (Client, Tap) {
    let (server_io, server_end) = tokio::io::duplex(64 * 1024);
    let (client_end, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let (from_server, mut to_server) = tokio::io::split(server_end);
    let (mut from_client, mut to_client) = tokio::io::split(client_end);
    tokio::spawn(async move {
        let _ = tokio::io::copy(&mut from_client, &mut to_server).await;
    });
    let tap = Tap::default();
    let lines = tap.clone();
    tokio::spawn(async move {
        let mut from_server = BufReader::new(from_server).lines();
        while let Ok(Some(line)) = from_server.next_line().await {
            lines.lock().unwrap().push(line.clone());
            if to_client.write_all(line.as_bytes()).await.is_err()
                || to_client.write_all(b"\n").await.is_err()
                || to_client.flush().await.is_err()
            {
                break;
            }
        }
    });
    let client = mrtr_examples::demo::elicitation_client()
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("client connects");
    (client, tap)
}

/// Both servers, each with its client.
struct Servers {
    mrtr: (Client, Tap),
    by_hand: (Client, Tap),
}

impl Servers {
    async fn start() -> Self {
        let engine = Engine::builder()
            .key(1, mrtr_tests::keys::test_key(7))
            .without_principal()
            .build()
            .expect("an engine");
        Self {
            mrtr: connect(Wizard::new(engine)).await,
            by_hand: connect(HandWritten::new()).await,
        }
    }

    /// Runs `script` on both servers and asserts the same rounds and the same end.
    async fn assert_same(&self, tool: &str, arguments: Option<Value>, script: &[(&str, Value)]) {
        let call = Call {
            tool,
            arguments,
            script,
        };
        let mrtr = call.run(&self.mrtr).await;
        let by_hand = call.run(&self.by_hand).await;
        assert_parity(&call.name(), &mrtr, &by_hand);
    }
}

/// One question, as the client received it.
#[derive(Debug, PartialEq)]
struct Question {
    key: String,
    /// The input request's method and mode: `elicitation/create` + `form`.
    kind: (Value, Value),
    message: Value,
    /// The requested schema, parsed.
    schema: Value,
    /// The requested schema exactly as it was on the wire.
    schema_bytes: String,
}

/// A whole call: its questions and how it ended.
#[derive(Debug)]
struct Transcript {
    questions: Vec<Question>,
    /// The `result` of the last response, or its JSON-RPC `error`.
    end: Value,
    /// Every response line, its `id` and `requestState` masked.
    wire: Vec<String>,
    /// The length of each question's `requestState`.
    state_bytes: Vec<usize>,
}

struct Call<'a> {
    tool: &'a str,
    arguments: Option<Value>,
    script: &'a [(&'a str, Value)],
}

impl Call<'_> {
    fn name(&self) -> String {
        let script: Vec<String> = self
            .script
            .iter()
            .map(|(key, answer)| format!("{key}={answer}"))
            .collect();
        format!("{} {:?} [{}]", self.tool, self.arguments, script.join("; "))
    }

    fn first(&self) -> CallToolRequestParams {
        let params = CallToolRequestParams::new(self.tool.to_owned());
        match &self.arguments {
            Some(arguments) => params.with_arguments(
                serde_json::from_value::<JsonObject>(arguments.clone())
                    .expect("arguments are an object"),
            ),
            None => params,
        }
    }

    /// Calls the tool, answering each question with the next scripted answer, whose key must
    /// be the key asked, until the call ends; the script must be used up by then.
    async fn run(&self, (client, tap): &(Client, Tap)) -> Transcript {
        let name = self.name();
        let mut transcript = Transcript {
            questions: Vec::new(),
            end: Value::Null,
            wire: Vec::new(),
            state_bytes: Vec::new(),
        };
        let mut params = self.first();
        let mut script = self.script.iter();
        loop {
            tap.lock().unwrap().clear();
            let response = client.call_tool_once(params.clone()).await;
            let line = response_line(tap, &name);
            transcript.wire.push(mask_state(&line));
            let raw: Value = serde_json::from_str(&line).expect("a response is JSON");
            match response {
                Ok(CallToolResponse::InputRequired(input)) => {
                    let state = input
                        .request_state
                        .expect("a question carries requestState");
                    let asked = input.input_requests.unwrap_or_default();
                    assert_eq!(asked.len(), 1, "{name}: one question per round");
                    let key = asked.keys().next().expect("one key").clone();
                    let request = &raw["result"]["inputRequests"][&key];
                    transcript.questions.push(Question {
                        kind: (request["method"].clone(), request["params"]["mode"].clone()),
                        message: request["params"]["message"].clone(),
                        schema: request["params"]["requestedSchema"].clone(),
                        schema_bytes: raw_member(&line, "requestedSchema")
                            .unwrap_or_else(|| panic!("{name}: no requestedSchema in {line}"))
                            .to_owned(),
                        key: key.clone(),
                    });
                    transcript.state_bytes.push(state.len());
                    let Some((scripted, answer)) = script.next() else {
                        panic!("{name}: no scripted answer for `{key}`");
                    };
                    assert_eq!(
                        key,
                        *scripted,
                        "{name}: round {}",
                        transcript.questions.len()
                    );
                    params.input_responses = Some(InputResponses::from([(key, answer.clone())]));
                    params.request_state = Some(state);
                }
                Ok(CallToolResponse::Complete(_)) => {
                    transcript.end = raw["result"].clone();
                    break;
                }
                Err(ServiceError::McpError(_)) => {
                    transcript.end = raw["error"].clone();
                    break;
                }
                other => panic!("{name}: unexpected response {other:?}"),
            }
        }
        assert!(
            script.next().is_none(),
            "{name}: the call ended before the script did: {}",
            transcript.end
        );
        transcript
    }
}

/// The one response line the tap caught for the last request.
fn response_line(tap: &Tap, name: &str) -> String {
    let lines = tap.lock().unwrap();
    let responses: Vec<&String> = lines
        .iter()
        .filter(|line| {
            let value: Value = serde_json::from_str(line).unwrap_or_default();
            value.get("id").is_some()
                && (value.get("result").is_some() || value.get("error").is_some())
        })
        .collect();
    assert_eq!(
        responses.len(),
        1,
        "{name}: one response per request: {lines:?}"
    );
    responses[0].clone()
}

/// `line` with what differs between any two calls masked: the JSON-RPC `id` (the clients
/// count their requests) and the value of `"requestState"` (the servers seal differently).
fn mask_state(line: &str) -> String {
    let mut line = line.to_owned();
    for (member, end) in [("\"id\":", ','), ("\"requestState\":\"", '"')] {
        if let Some(at) = line.find(member) {
            let start = at + member.len();
            let length = line[start..].find(end).expect("a member that ends");
            line.replace_range(start..start + length, "…");
        }
    }
    line
}

/// The text of the first object member `"name":{…}` in `line`, braces included.
fn raw_member<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let member = format!("\"{name}\":");
    let start = line.find(&member)? + member.len();
    let bytes = line.as_bytes();
    if bytes.get(start) != Some(&b'{') {
        return None;
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (offset, &byte) in bytes[start..].iter().enumerate() {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'{') => depth += 1,
            (false, _, b'}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(&line[start..=start + offset]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The first way `by_hand` differs from `mrtr`, if any.
fn difference(mrtr: &Transcript, by_hand: &Transcript) -> Option<String> {
    for (round, (ours, theirs)) in mrtr.questions.iter().zip(&by_hand.questions).enumerate() {
        if ours != theirs {
            return Some(format!(
                "question {}: mrtr {ours:#?}, by hand {theirs:#?}",
                round + 1
            ));
        }
    }
    if mrtr.questions.len() != by_hand.questions.len() {
        return Some(format!(
            "mrtr asked {} questions, the hand-written tool {}",
            mrtr.questions.len(),
            by_hand.questions.len()
        ));
    }
    if mrtr.end != by_hand.end {
        return Some(format!(
            "the call ended with {} from mrtr, {} by hand",
            mrtr.end, by_hand.end
        ));
    }
    if let Some((round, (ours, theirs))) = mrtr
        .wire
        .iter()
        .zip(&by_hand.wire)
        .enumerate()
        .find(|(_, (ours, theirs))| ours != theirs)
    {
        return Some(format!(
            "response {} differs in its bytes:\n mrtr:    {ours}\n by hand: {theirs}",
            round + 1
        ));
    }
    None
}

#[track_caller]
fn assert_parity(name: &str, mrtr: &Transcript, by_hand: &Transcript) {
    if let Some(difference) = difference(mrtr, by_hand) {
        panic!("{name}: {difference}");
    }
    assert_eq!(mrtr.wire.len(), by_hand.wire.len(), "{name}");
    assert!(
        by_hand.state_bytes.iter().all(|&bytes| bytes > 0),
        "{name}: every question carries a state"
    );
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

fn refusals() -> [Value; 2] {
    [decline(), cancel()]
}

/// Replies that fit no form: an unknown action, no `ElicitResult` at all, an array of content.
fn unusable() -> [Value; 4] {
    [
        json!({ "action": "maybe" }),
        json!({ "action": "Accept", "content": {} }),
        json!("accept"),
        accept(json!([])),
    ]
}

/// For each round of `happy`, the script that answers the rounds before it and refuses that one
/// with `refusal`.
fn refusing_each_round(
    happy: &[(&'static str, Value)],
    refusal: &Value,
) -> Vec<Vec<(&'static str, Value)>> {
    (0..happy.len())
        .map(|round| {
            let mut script = happy[..round].to_vec();
            script.push((happy[round].0, refusal.clone()));
            script
        })
        .collect()
}

mod signup {
    use super::*;

    fn team() -> Option<Value> {
        Some(json!({ "team": "Rust" }))
    }

    fn happy(confirm: bool) -> Vec<(&'static str, Value)> {
        vec![
            (
                "profile",
                accept(json!({ "name": "Ada", "email": "ada@example.com" })),
            ),
            ("plan", accept(json!({ "plan": "pro" }))),
            ("confirm", accept(json!({ "confirm": confirm }))),
        ]
    }

    #[tokio::test]
    async fn signs_up_or_aborts() {
        let servers = Servers::start().await;
        servers.assert_same("signup", team(), &happy(true)).await;
        servers.assert_same("signup", team(), &happy(false)).await;
        let enterprise = [
            ("profile", accept(json!({ "name": "Grace" }))),
            ("plan", accept(json!({ "plan": "enterprise", "seats": 3 }))),
            ("confirm", accept(json!({ "confirm": true }))),
        ];
        servers
            .assert_same(
                "signup",
                Some(json!({ "team": "Analytical Engines" })),
                &enterprise,
            )
            .await;
    }

    #[tokio::test]
    async fn refused_at_each_question() {
        let servers = Servers::start().await;
        for refusal in refusals() {
            for script in refusing_each_round(&happy(true), &refusal) {
                servers.assert_same("signup", team(), &script).await;
            }
        }
    }

    #[tokio::test]
    async fn answers_that_do_not_fit_are_asked_again() {
        let servers = Servers::start().await;
        let [ada, pro, yes] = happy(true).try_into().expect("three rounds");
        let misfits = [
            ("profile", accept(json!({ "email": "ada@example.com" }))),
            ("profile", accept(json!({ "name": 42 }))),
            ("profile", accept(json!({ "name": "Ada", "email": 42 }))),
            ("plan", accept(json!({ "plan": "platinum" }))),
            ("plan", accept(json!({ "plan": "Pro" }))),
            ("confirm", accept(json!({ "confirm": "yes" }))),
            ("confirm", accept(json!({}))),
        ];
        for misfit in misfits {
            let mut script = vec![ada.clone(), pro.clone(), yes.clone()];
            let round = script.iter().position(|(key, _)| *key == misfit.0).unwrap();
            script.insert(round, misfit);
            servers.assert_same("signup", team(), &script).await;
        }
        for reply in unusable() {
            let script = [("profile", reply), ada.clone(), pro.clone(), yes.clone()];
            servers.assert_same("signup", team(), &script).await;
        }
    }

    /// Rounds that carry no answer, or one for another key, ask again; a first call may
    /// answer the first question; a state that does not open is refused, the same way.
    #[tokio::test]
    async fn off_script_rounds() {
        let servers = Servers::start().await;
        let [ada, pro, _] = happy(true).try_into().expect("three rounds");
        let mut lines: Vec<Vec<String>> = Vec::new();
        for server in [&servers.mrtr, &servers.by_hand] {
            let call = Call {
                tool: "signup",
                arguments: team(),
                script: &[],
            };
            let mut seen = Vec::new();
            // A first call that answers the first question: the second is asked.
            let mut params = call.first();
            params.input_responses =
                Some(InputResponses::from([(ada.0.to_owned(), ada.1.clone())]));
            let (line, state) = round(server, params.clone()).await;
            seen.push(line);
            // An answer to a question not asked yet, then no answers at all: asked again.
            params.input_responses = Some(InputResponses::from([(
                "confirm".to_owned(),
                pro.1.clone(),
            )]));
            params.request_state = state;
            let (line, state) = round(server, params.clone()).await;
            seen.push(line);
            params.input_responses = None;
            params.request_state = state;
            let (line, state) = round(server, params.clone()).await;
            seen.push(line);
            // The same state with its last character changed.
            let mut forged = state.expect("a question carries a state");
            let last = if forged.ends_with('A') { "B" } else { "A" };
            forged.pop();
            forged.push_str(last);
            params.request_state = Some(forged);
            let (line, _) = round(server, params.clone()).await;
            seen.push(line);
            // A state of another tool.
            let (_, state) = round(
                server,
                Call {
                    tool: "wizard5",
                    arguments: None,
                    script: &[],
                }
                .first(),
            )
            .await;
            params.request_state = state;
            let (line, _) = round(server, params).await;
            seen.push(line);
            lines.push(seen);
        }
        assert!(lines[0][3].contains("-32602"), "{}", lines[0][3]);
        assert!(lines[0][4].contains("-32602"), "{}", lines[0][4]);
        assert_eq!(lines[0], lines[1]);
    }

    /// Sends one round: its response line, the state masked, and the state.
    async fn round(
        (client, tap): &(Client, Tap),
        params: CallToolRequestParams,
    ) -> (String, Option<String>) {
        tap.lock().unwrap().clear();
        let state = match client.call_tool_once(params).await {
            Ok(CallToolResponse::InputRequired(input)) => input.request_state,
            _ => None,
        };
        (mask_state(&response_line(tap, "round")), state)
    }
}

mod onboard {
    use super::*;

    fn team() -> Option<Value> {
        Some(json!({ "team": "Rust" }))
    }

    /// The answers of one onboarding: `role`, the admin's confirmation if any, the
    /// repositories with `more`, and one level per repository.
    fn script(
        role: &str,
        admin: Option<bool>,
        repos: &[(&str, bool)],
        levels: &[&str],
    ) -> Vec<(&'static str, Value)> {
        let mut script = vec![
            ("profile", accept(json!({ "name": "Ada" }))),
            ("role", accept(json!({ "role": role }))),
        ];
        if let Some(confirm) = admin {
            script.push(("confirm_admin", accept(json!({ "confirm": confirm }))));
        }
        for (repo, more) in repos {
            script.push(("repo", accept(json!({ "repo": repo, "more": more }))));
        }
        for level in levels {
            script.push(("notify", accept(json!({ "level": level }))));
        }
        script
    }

    const FIVE: [(&str, bool); 5] = [
        ("mrtr", true),
        ("rmcp", true),
        ("tokio", true),
        ("serde", true),
        // `more` is true, but five is the most: the loop ends.
        ("axum", true),
    ];

    #[tokio::test]
    async fn roles_and_repositories() {
        let servers = Servers::start().await;
        let one = [("mrtr", false)];
        let three = [("mrtr", true), ("rmcp", true), ("tokio", false)];
        let levels = ["all", "mentions", "none", "all", "mentions"];
        for (role, admin) in [
            ("developer", None),
            ("viewer", None),
            ("admin", Some(true)),
            ("admin", Some(false)),
        ] {
            for repos in [&one[..], &three[..], &FIVE[..]] {
                let script = script(role, admin, repos, &levels[..repos.len()]);
                servers.assert_same("onboard", team(), &script).await;
            }
            // No repository collected: the first `repo` question (0 so far) is refused.
            for refusal in refusals() {
                let mut script = script(role, admin, &[], &[]);
                script.push(("repo", refusal));
                servers.assert_same("onboard", team(), &script).await;
            }
        }
    }

    #[tokio::test]
    async fn refused_at_each_question() {
        let servers = Servers::start().await;
        let admin = script(
            "admin",
            Some(true),
            &[("mrtr", true), ("rmcp", false)],
            &["all", "none"],
        );
        for refusal in refusals() {
            for script in refusing_each_round(&admin, &refusal) {
                servers.assert_same("onboard", team(), &script).await;
            }
        }
    }

    #[tokio::test]
    async fn answers_that_do_not_fit_are_asked_again() {
        let servers = Servers::start().await;
        let happy = script(
            "admin",
            Some(false),
            &[("mrtr", true), ("rmcp", true), ("tokio", false)],
            &["none", "mentions", "all"],
        );
        let misfits = [
            (0, ("profile", accept(json!({ "nickname": "Ada" })))),
            (1, ("role", accept(json!({ "role": "Admin" })))),
            (1, ("role", accept(json!({ "role": "owner" })))),
            (2, ("confirm_admin", accept(json!({ "confirm": "no" })))),
            (3, ("repo", accept(json!({ "repo": "mrtr" })))),
            (4, ("repo", accept(json!({ "repo": 7, "more": false })))),
            (
                5,
                ("repo", accept(json!({ "repo": "tokio", "more": "no" }))),
            ),
            (6, ("notify", accept(json!({ "level": "loud" })))),
            (7, ("notify", accept(json!({ "level": 1 })))),
            (8, ("notify", accept(json!({})))),
        ];
        for (round, misfit) in misfits {
            let mut script = happy.clone();
            script.insert(round, misfit);
            servers.assert_same("onboard", team(), &script).await;
        }
        for reply in unusable() {
            let mut script = happy.clone();
            script.insert(7, ("notify", reply));
            servers.assert_same("onboard", team(), &script).await;
        }
    }
}

mod wizard5 {
    use super::*;

    fn happy() -> Vec<(&'static str, Value)> {
        ["q1", "q2", "q3", "q4", "q5"]
            .into_iter()
            .zip(["one", "two", "three", "four", "five"])
            .map(|(key, answer)| (key, accept(json!({ "answer": answer }))))
            .collect()
    }

    #[tokio::test]
    async fn joins_five_answers() {
        let servers = Servers::start().await;
        servers.assert_same("wizard5", None, &happy()).await;
        servers
            .assert_same("wizard5", Some(json!({})), &happy())
            .await;
        let mut extra = happy();
        extra[2].1 = accept(json!({ "answer": "", "also": true }));
        servers.assert_same("wizard5", None, &extra).await;
    }

    #[tokio::test]
    async fn refused_at_each_question() {
        let servers = Servers::start().await;
        for refusal in refusals() {
            for script in refusing_each_round(&happy(), &refusal) {
                servers.assert_same("wizard5", None, &script).await;
            }
        }
    }

    #[tokio::test]
    async fn answers_that_do_not_fit_are_asked_again() {
        let servers = Servers::start().await;
        for (round, misfit) in [
            (0, ("q1", accept(json!({})))),
            (1, ("q2", accept(json!({ "answer": 5 })))),
            (4, ("q5", accept(json!({ "answer": null })))),
        ] {
            let mut script = happy();
            script.insert(round, misfit);
            servers.assert_same("wizard5", None, &script).await;
        }
        for reply in unusable() {
            let mut script = happy();
            script.insert(2, ("q3", reply));
            servers.assert_same("wizard5", None, &script).await;
        }
    }
}

/// The comparison sees a changed message, reordered schema bytes and a changed result.
#[tokio::test]
async fn the_comparison_notices_differences() {
    let servers = Servers::start().await;
    let script = [
        ("q1", accept(json!({ "answer": "one" }))),
        ("q2", decline()),
    ];
    let call = Call {
        tool: "wizard5",
        arguments: None,
        script: &script,
    };
    let original = call.run(&servers.by_hand).await;
    let changed = |change: fn(&mut Transcript)| {
        let call = &call;
        let servers = &servers;
        async move {
            let mut changed = call.run(&servers.by_hand).await;
            change(&mut changed);
            changed
        }
    };
    assert_eq!(difference(&original, &changed(|_| {}).await), None);
    let message = changed(|t| t.questions[1].message = json!("Question 2 of 6")).await;
    assert!(difference(&original, &message).is_some(), "a message");
    let reordered = changed(|t| {
        t.wire[0] = t.wire[0].replace(
            r#"{"answer":{"description":"Your answer.","type":"string"}}"#,
            r#"{"answer":{"type":"string","description":"Your answer."}}"#,
        )
    })
    .await;
    assert_ne!(
        reordered.wire, original.wire,
        "the replaced text is on the wire"
    );
    assert!(difference(&original, &reordered).is_some(), "schema bytes");
    let result = changed(|t| t.end["isError"] = json!(false)).await;
    assert!(difference(&original, &result).is_some(), "the result");
}
