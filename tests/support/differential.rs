//! The runs the differential tests compare: a body run straight through, each `ask!`
//! answered at once from a script, and the same body as a resumable tool, answered round by
//! round over a real rmcp client, or on a pre-2026 session through `mrtr::Bridged`.

use std::{
    future::Future,
    sync::atomic::{AtomicU64, Ordering},
};

use std::{collections::VecDeque, sync::Mutex};

// Sampling and roots are deprecated by SEP-2577, and still asked on pre-2026 sessions.
#[allow(deprecated)]
use rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, ServerHandler, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig,
        CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
        ElicitationAction, Implementation, InputResponses, JsonObject, ListRootsResult,
        ProtocolVersion,
    },
    service::{RequestContext, RoleClient, RunningService},
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::straight::{SCRIPT, Script, journal};

/// The arguments of every differential body.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Args {
    /// Names the journal of this run.
    pub run: String,
    /// A number the bodies branch and loop on.
    pub n: u32,
}

/// A question for a number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, mrtr::Form)]
pub struct Num {
    pub num: i64,
}

/// One script: the argument `n` and the answers, in the order the questions come.
#[derive(Debug, Clone)]
pub struct Run {
    pub answers: Vec<Value>,
    pub n: u32,
}

/// What a run shows: its result, the questions it asked (key and message) and its journal.
#[derive(Debug, PartialEq)]
pub struct Observed {
    pub result: Result<String, String>,
    pub asked: Vec<(String, String)>,
    pub journal: Vec<String>,
}

/// An accepted form answer with `content`.
pub fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

static RUNS: AtomicU64 = AtomicU64::new(0);

/// A journal name no other run has.
fn fresh_run(label: &str) -> String {
    let id = RUNS.fetch_add(1, Ordering::SeqCst);
    format!("{label}-{id}")
}

/// Runs `body` straight through, each `ask!` answered from `case`'s script.
pub async fn straight<F, Fut>(case: &Run, body: F) -> Observed
where
    F: FnOnce(Args) -> Fut,
    Fut: Future<Output = Result<String, String>>,
{
    let run = fresh_run("straight");
    let args = Args {
        run: run.clone(),
        n: case.n,
    };
    let (result, asked) = SCRIPT
        .scope(Script::new(case.answers.clone()), async {
            let result = body(args).await;
            (result, SCRIPT.with(Script::asked))
        })
        .await;
    Observed {
        result,
        asked,
        journal: journal(&run),
    }
}

/// How many of `case`'s answers a straight run of `body` leaves untaken: a script with answers
/// over takes another path than the one it was written for.
pub async fn answers_left<F, Fut>(case: &Run, body: F) -> usize
where
    F: FnOnce(Args) -> Fut,
    Fut: Future<Output = Result<String, String>>,
{
    let args = Args {
        run: fresh_run("spent"),
        n: case.n,
    };
    SCRIPT
        .scope(Script::new(case.answers.clone()), async {
            body(args).await.ok();
            SCRIPT.with(Script::left)
        })
        .await
}

/// Runs each program with each of its scripts straight (`run_straight`) and through `observe`,
/// and lists every run that differs. `keyed`: whether `observe` sees the questions' keys (a
/// session does not). Also counts the runs by how many questions they asked.
pub async fn compare<S, SFut, O, OFut>(
    programs: &[(&'static str, Vec<Run>)],
    run_straight: S,
    channel: &str,
    keyed: bool,
    observe: O,
) -> (Vec<String>, std::collections::BTreeMap<usize, usize>)
where
    S: Fn(&'static str, Args) -> SFut,
    SFut: Future<Output = Result<String, String>>,
    O: Fn(&'static str, Run) -> OFut,
    OFut: Future<Output = Observed>,
{
    let mut mismatches = Vec::new();
    let mut asked = std::collections::BTreeMap::new();
    for (name, runs) in programs {
        for (index, case) in runs.iter().enumerate() {
            let mut expected = straight(case, |args| run_straight(name, args)).await;
            if !keyed {
                for (key, _) in &mut expected.asked {
                    *key = "?".to_owned();
                }
            }
            *asked.entry(expected.asked.len()).or_insert(0) += 1;
            let observed = observe(name, case.clone()).await;
            if observed != expected {
                mismatches.push(format!(
                    "{name}, script {index}:\n  straight: {expected:?}\n  {channel}: {observed:?}"
                ));
            }
        }
    }
    (mismatches, asked)
}

/// Calls tool `name` round by round through `client`, answering each round's questions, in
/// the order of their keys, with the script's next answers.
pub async fn in_rounds(
    client: &RunningService<RoleClient, rmcp::model::ClientConfig>,
    name: &str,
    case: &Run,
) -> Observed {
    let run = fresh_run("rounds");
    let arguments: JsonObject = serde_json::from_value(json!({"run": run, "n": case.n})).unwrap();
    let mut params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
    let mut answers = case.answers.clone().into_iter();
    let mut asked = Vec::new();
    loop {
        let response = match client.call_tool_once(params.clone()).await {
            Ok(response) => response,
            // A failed round (say, a state that does not restore) shows up as a mismatch.
            Err(error) => {
                return Observed {
                    result: Err(format!("round failed: {error}")),
                    asked,
                    journal: journal(&run),
                };
            }
        };
        match response {
            CallToolResponse::Complete(result) => {
                let text = mrtr_examples::demo::text_of(&result);
                let result = if result.is_error == Some(true) {
                    Err(text)
                } else {
                    Ok(text)
                };
                return Observed {
                    result,
                    asked,
                    journal: journal(&run),
                };
            }
            CallToolResponse::InputRequired(input) => {
                // A round's questions come in the order of their keys.
                let mut responses = InputResponses::new();
                for (key, request) in input.input_requests.unwrap_or_default() {
                    let request = serde_json::to_value(request).unwrap();
                    asked.push((
                        key.clone(),
                        request["params"]["message"]
                            .as_str()
                            .unwrap_or_default()
                            .to_owned(),
                    ));
                    let Some(answer) = answers.next() else {
                        return Observed {
                            result: Err("asked more questions than the script answers".to_owned()),
                            asked,
                            journal: journal(&run),
                        };
                    };
                    responses.insert(key, answer);
                }
                params.input_responses = Some(responses);
                params.request_state = input.request_state;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}

/// A 2025-11-25 client that answers each question the server sends on its session
/// (`elicitation/create` in form or URL mode, `sampling/createMessage`, `roots/list`) with the
/// next answer of the script set for the call in progress.
#[derive(Clone, Default)]
pub struct ScriptedUser {
    script: std::sync::Arc<Mutex<(VecDeque<Value>, Vec<String>)>>,
}

impl ScriptedUser {
    /// Records the question's message and reads the next answer as `T`. With the script spent,
    /// `None`: the run then shows as asking more than the straight one.
    fn next<T: serde::de::DeserializeOwned>(
        &self,
        message: String,
    ) -> Result<Option<T>, ErrorData> {
        let mut script = self.script.lock().unwrap();
        script.1.push(message);
        let Some(answer) = script.0.pop_front() else {
            return Ok(None);
        };
        serde_json::from_value(answer)
            .map(Some)
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))
    }
}

#[allow(deprecated)]
impl ClientHandler for ScriptedUser {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities = serde_json::from_value(
            json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}),
        )
        .expect("capabilities");
        let mut config = ClientConfig::new(capabilities, Implementation::new("scripted", "1"));
        config.protocol_version = ProtocolVersion::V_2025_11_25;
        config
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let message = match request {
            ElicitRequestParams::FormElicitationParams { message, .. }
            | ElicitRequestParams::UrlElicitationParams { message, .. } => message,
            other => format!("{other:?}"),
        };
        Ok(self
            .next(message)?
            .unwrap_or_else(|| ElicitResult::new(ElicitationAction::Cancel)))
    }

    async fn create_message(
        &self,
        _request: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        self.next(String::new())?
            .ok_or_else(|| ErrorData::internal_error("the script has no answer left", None))
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        self.next(String::new())?
            .ok_or_else(|| ErrorData::internal_error("the script has no answer left", None))
    }
}

/// `server` behind [`mrtr::Bridged`] on one end of an in-memory pipe, and a [`ScriptedUser`]
/// on a 2025-11-25 session with it.
pub async fn on_a_session<S: ServerHandler + mrtr::MrtrServer + Clone>(
    server: S,
) -> anyhow::Result<(ScriptedUser, RunningService<RoleClient, ScriptedUser>)> {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server = mrtr::Bridged::new(server);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let user = ScriptedUser::default();
    let client = user
        .clone()
        .serve_with_lifecycle(client_io, ClientLifecycleMode::Initialize)
        .await?;
    Ok((user, client))
}

/// Calls tool `name` on a session, the server asking each question as `elicitation/create`.
/// The questions are keyed `?`: a session's requests do not carry the ask's key.
pub async fn on_session(
    user: &ScriptedUser,
    client: &RunningService<RoleClient, ScriptedUser>,
    name: &str,
    case: &Run,
) -> Observed {
    let run = fresh_run("session");
    *user.script.lock().unwrap() = (case.answers.clone().into(), Vec::new());
    let arguments: JsonObject = serde_json::from_value(json!({"run": run, "n": case.n})).unwrap();
    let called = client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments))
        .await;
    let result = match called {
        Ok(result) => {
            let text = mrtr_examples::demo::text_of(&result);
            if result.is_error == Some(true) {
                Err(text)
            } else {
                Ok(text)
            }
        }
        Err(error) => Err(format!("call failed: {error}")),
    };
    let asked = std::mem::take(&mut user.script.lock().unwrap().1);
    Observed {
        result,
        asked: asked
            .into_iter()
            .map(|message| ("?".to_owned(), message))
            .collect(),
        journal: journal(&run),
    }
}

/// Calls tool `name` as a task (the tasks extension, over stateless HTTP): each round that asks
/// puts the task in `input_required`, and the script's next answer goes back with
/// `tasks/update`. The questions are keyed as the tool keys them, without the round.
pub async fn as_a_task(
    client: &crate::task_client::TaskClient,
    name: &str,
    case: &Run,
) -> Observed {
    let run = fresh_run("task");
    let observed = |result, asked| Observed {
        result,
        asked,
        journal: journal(&run),
    };
    let arguments = json!({"run": run, "n": case.n});
    let mut answers = case.answers.clone().into_iter();
    let mut asked = Vec::new();
    let mut created = client.call(name, arguments.clone()).await;
    // The rounds before `start_task()` are plain rounds, answered in the order of their keys.
    while created["resultType"] == "input_required" {
        let mut responses = serde_json::Map::new();
        for (key, request) in by_key(&created) {
            let message = request["params"]["message"].as_str().unwrap_or_default();
            asked.push((key.clone(), message.to_owned()));
            let Some(answer) = answers.next() else {
                let more = "asked more questions than the script answers".to_owned();
                return observed(Err(more), asked);
            };
            responses.insert(key, answer);
        }
        let state = created["requestState"].clone();
        created = client
            .retry(name, arguments.clone(), Value::Object(responses), &state)
            .await;
    }
    let Some(task) = created["taskId"].as_str().map(str::to_owned) else {
        // The call ended before its task started.
        if created["resultType"] == "complete" {
            return observed(tool_result(&created), asked);
        }
        return observed(Err(format!("no task: {created}")), asked);
    };
    let mut answered = std::collections::BTreeSet::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        if tokio::time::Instant::now() > deadline {
            return observed(Err(format!("task {task} never ended")), asked);
        }
        let got = client.get(&task).await;
        match got["status"].as_str().unwrap_or_default() {
            "input_required" => {
                // A round's questions are answered in the order of their keys, one update each.
                let Some((key, request)) = by_key(&got)
                    .into_iter()
                    .find(|(key, _)| !answered.contains(key))
                else {
                    tokio::time::sleep(std::time::Duration::from_millis(2)).await;
                    continue;
                };
                answered.insert(key.clone());
                let unrounded = key.split_once('.').map_or(key.as_str(), |(_, key)| key);
                asked.push((
                    unrounded.to_owned(),
                    request["params"]["message"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                ));
                let Some(answer) = answers.next() else {
                    return observed(
                        Err("asked more questions than the script answers".to_owned()),
                        asked,
                    );
                };
                client.update(&task, json!({ key: answer })).await;
            }
            "completed" => return observed(tool_result(&got["result"]), asked),
            "failed" | "cancelled" => return observed(Err(format!("task ended: {got}")), asked),
            _ => tokio::time::sleep(std::time::Duration::from_millis(2)).await,
        }
    }
}

/// The `inputRequests` of a response or task, in the order of their keys.
fn by_key(asking: &Value) -> Vec<(String, Value)> {
    let requests = asking["inputRequests"].as_object().cloned();
    let mut requests: Vec<(String, Value)> = requests.unwrap_or_default().into_iter().collect();
    requests.sort_by(|a, b| a.0.cmp(&b.0));
    requests
}

/// A tool's result as the differential runs compare it: its text, as an error if it is one.
fn tool_result(result: &Value) -> Result<String, String> {
    let text = crate::task_client::text(result).to_owned();
    match result["isError"].as_bool() {
        Some(true) => Err(text),
        _ => Ok(text),
    }
}
