//! Task tools end to end, over loopback HTTP: the tasks extension's rules that the conformance
//! scenarios do not reach. Keys made new per round and mapped back, code between asks run
//! once, checkpoints and capabilities inside a task, answers that do not count, cancelling,
//! callers kept apart, the task's lifetime, and the official Rust SDK's client.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use mrtr::{Engine, Form, ask, checkpoint, elicit, mrtr_tool, sample, start_task};
use mrtr_tests::{
    loopback::Served,
    task_client::{TaskClient, accept, tasks_and_elicitation, text},
};
use rmcp::{
    ClientLifecycleMode, ClientServiceExt, ServerHandler, ServiceExt,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolRequest, CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig,
        ClientRequest, GetTaskParams, Implementation, InputRequest, InputResponses,
        ProtocolVersion, ServerCapabilities, ServerConfig, TaskStatus, UpdateTaskParams,
    },
    service::PeerRequestOptions,
    tool, tool_handler, tool_router,
    transport::{
        StreamableHttpClientTransport, streamable_http_client::StreamableHttpClientTransportConfig,
    },
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Word {
    word: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Confirm {
    confirm: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct StepsArgs {
    times: u32,
}

/// What the tools did, in order.
#[derive(Clone, Default)]
struct Effects(Arc<Mutex<Vec<String>>>);

impl Effects {
    fn note(&self, effect: impl Into<String>) {
        self.0.lock().unwrap().push(effect.into());
    }

    fn all(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

#[derive(Clone)]
struct TaskTools {
    tool_router: ToolRouter<Self>,
    engine: Engine,
    effects: Effects,
    /// Holds `slow_start` before its task starts, until the test opens it.
    gate: Arc<tokio::sync::Semaphore>,
    /// Holds `word_then_task` after its task starts, until the test opens it.
    started_gate: Arc<tokio::sync::Semaphore>,
}

#[tool_router]
impl TaskTools {
    #[mrtr_tool(task = "optional")]
    #[tool(description = "Asks for a word `times` times, under the same key")]
    async fn steps(&self, Parameters(args): Parameters<StepsArgs>) -> Result<String, String> {
        let mut words = Vec::new();
        for step in 0..args.times {
            self.effects.note(format!("before {step}"));
            let word = ask!(word = elicit::<Word>(format!("Word {step}?")))
                .accepted()
                .map_err(|refused| refused.to_string())?
                .word;
            words.push(word);
        }
        self.effects.note("done");
        Ok(words.join(" "))
    }

    #[mrtr_tool(task = "required")]
    #[tool(description = "Works, checkpoints, works, asks")]
    async fn halves(&self) -> String {
        self.effects.note("first half");
        ask!(checkpoint());
        self.effects.note("second half");
        let go = ask!(confirm = elicit::<Confirm>("Go on?"))
            .accepted()
            .is_ok_and(|answer| answer.confirm);
        format!("went on: {go}")
    }

    #[mrtr_tool(task = "required")]
    #[tool(description = "Asks the client's model")]
    async fn asks_the_model(&self) -> String {
        let reply = ask!(reply = sample("Say hi").max_tokens(10));
        reply.result().to_string()
    }

    #[mrtr_tool(task = "required")]
    #[tool(description = "Prepares until the gate opens, then starts its task")]
    async fn slow_start(&self) -> String {
        self.effects.note("preparing");
        let permit = self.gate.acquire().await;
        self.effects.note("prepared");
        drop(permit);
        ask!(start_task());
        "started".to_owned()
    }

    #[mrtr_tool(task = "optional")]
    #[tool(description = "Asks for a word, starts its task, waits at a gate, then asks to go on")]
    async fn word_then_task(&self) -> String {
        let word = ask!(word = elicit::<Word>("Word?"))
            .accepted()
            .map(|answer| answer.word)
            .unwrap_or_default();
        ask!(start_task());
        self.effects.note(format!("task for {word}"));
        drop(self.started_gate.acquire().await);
        let go = ask!(confirm = elicit::<Confirm>("Go on?"))
            .accepted()
            .is_ok_and(|answer| answer.confirm);
        format!("{word}: {go}")
    }

    #[mrtr_tool]
    #[tool(description = "Asks for a word, waits at the gate, then asks to go on; no task")]
    async fn word_gate_confirm(&self) -> String {
        let word = ask!(word = elicit::<Word>("Word?"))
            .accepted()
            .map(|answer| answer.word)
            .unwrap_or_default();
        self.effects.note(format!("got {word}"));
        drop(self.gate.acquire().await);
        self.effects.note("past the gate");
        let go = ask!(confirm = elicit::<Confirm>("Go on?"))
            .accepted()
            .is_ok_and(|answer| answer.confirm);
        format!("{word}: {go}")
    }

    #[mrtr_tool(task = "required")]
    #[tool(description = "Reports what it may ask, before and after a question")]
    async fn what_it_may_ask(
        &self,
        _meta: rmcp::model::RequestMetaObject,
        caps: mrtr::Capabilities,
    ) -> String {
        let before = (caps.elicitation_form(), caps.sampling());
        ask!(confirm = elicit::<Confirm>("Go on?"));
        let after = (caps.elicitation_form(), caps.sampling());
        format!("before {before:?}, after {after:?}")
    }

    #[mrtr_tool(task = "required")]
    #[tool(description = "Breaks after a question")]
    async fn breaks(&self) -> String {
        let go = ask!(confirm = elicit::<Confirm>("Break?"))
            .accepted()
            .is_ok();
        assert!(!go, "the tool broke");
        "did not break".to_owned()
    }

    #[mrtr_tool(task = "required")]
    #[tool(description = "Works for 30 s, then notes it")]
    async fn long_work(&self) -> String {
        tokio::time::sleep(Duration::from_secs(30)).await;
        self.effects.note("long work done");
        "done".to_owned()
    }
}

impl mrtr::MrtrServer for TaskTools {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for TaskTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

fn engine() -> mrtr::EngineBuilder {
    Engine::builder().key(1, mrtr_tests::keys::test_key(21))
}

async fn serve(engine: Engine) -> (Served, TaskTools) {
    let tools = TaskTools {
        tool_router: TaskTools::tool_router(),
        engine,
        effects: Effects::default(),
        gate: Arc::new(tokio::sync::Semaphore::new(0)),
        started_gate: Arc::new(tokio::sync::Semaphore::new(0)),
    };
    let served = Served::start(tools.clone()).await.expect("serves");
    (served, tools)
}

async fn within_time<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), f)
        .await
        .expect("test finished in time")
}

/// rmcp's client, declaring form elicitation and the tasks extension.
fn rust_client() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::builder()
            .enable_elicitation()
            .enable_tasks()
            .build(),
        Implementation::new("mrtr-tests", "1"),
    )
}

/// Task tools behind `Bridged` on an in-memory pipe, and rmcp's client speaking `version`.
async fn on_duplex(
    version: ProtocolVersion,
) -> (
    TaskTools,
    tokio::task::JoinHandle<()>,
    rmcp::service::RunningService<rmcp::RoleClient, ClientConfig>,
) {
    let tools = TaskTools {
        tool_router: TaskTools::tool_router(),
        engine: engine().build().unwrap(),
        effects: Effects::default(),
        gate: Arc::new(tokio::sync::Semaphore::new(0)),
        started_gate: Arc::new(tokio::sync::Semaphore::new(0)),
    };
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server = mrtr::Bridged::new(tools.clone());
    let serving = tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let mut config = rust_client();
    let lifecycle = if version == ProtocolVersion::V_2026_07_28 {
        discover()
    } else {
        config.protocol_version = version;
        ClientLifecycleMode::Initialize
    };
    let client = config
        .serve_with_lifecycle(client_io, lifecycle)
        .await
        .expect("client connects");
    (tools, serving, client)
}

fn discover() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    }
}

/// The keys of a task's outstanding questions.
fn keys(task: &Value) -> Vec<String> {
    task["inputRequests"]
        .as_object()
        .map(|asked| asked.keys().cloned().collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loop_asks_under_a_new_key_each_round_and_gets_each_answer_back() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let task = client.start("steps", json!({"times": 3})).await;
        for (round, word) in ["alpha", "beta", "gamma"].into_iter().enumerate() {
            let waiting = client.wait_for(&task, "input_required").await;
            let key = format!("{}.word", round + 1);
            assert_eq!(keys(&waiting), vec![key.clone()], "{waiting}");
            assert_eq!(
                waiting["inputRequests"][&key]["params"]["message"],
                format!("Word {round}?")
            );
            assert!(waiting.get("requestState").is_none(), "{waiting}");
            let ack = client
                .update(&task, json!({ key: accept(json!({"word": word})) }))
                .await;
            assert_eq!(ack, json!({"resultType": "complete"}));
        }
        let done = client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "alpha beta gamma", "{done}");
        assert_eq!(
            tools.effects.all(),
            ["before 0", "before 1", "before 2", "done"],
            "code between asks runs once"
        );
    })
    .await;
}

/// A task's timestamps are written from the engine's clock; one past what ISO 8601 can write
/// (a test clock far in the future) is written as the latest it can, and the task runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_runs_on_an_engine_clock_past_what_a_timestamp_can_write() {
    within_time(async {
        let far = std::time::UNIX_EPOCH + Duration::from_secs(10_000_000_000_000);
        let engine = engine().clock(move || far).build().unwrap();
        let (served, _) = serve(engine).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let task = client.start("steps", json!({"times": 1})).await;
        let waiting = client.wait_for(&task, "input_required").await;
        let stamp = waiting["lastUpdatedAt"].as_str().unwrap_or_default();
        assert!(stamp.starts_with("+262142-12-31T23:59:59.999"), "{waiting}");
        client
            .update(&task, json!({ "1.word": accept(json!({"word": "far"})) }))
            .await;
        let done = client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "far", "{done}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_extension_an_optional_task_tool_is_a_plain_call() {
    within_time(async {
        let (served, _) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, json!({"elicitation": {}}));
        let first = client.call("steps", json!({"times": 1})).await;
        assert_eq!(first["resultType"], "input_required", "{first}");
        assert!(first.get("taskId").is_none(), "{first}");
        assert_eq!(
            keys(&first),
            ["word"],
            "native rounds keep the tool's own keys"
        );
        let answers = json!({"word": accept(json!({"word": "plain"}))});
        let done = client
            .retry(
                "steps",
                json!({"times": 1}),
                answers,
                &first["requestState"],
            )
            .await;
        assert_eq!(text(&done), "plain", "{done}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_of_the_retry_that_started_a_task_gets_that_task() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let first = client.call("word_then_task", json!({})).await;
        assert_eq!(first["resultType"], "input_required", "{first}");
        let answers = json!({"word": accept(json!({"word": "w"}))});
        let state = &first["requestState"];
        let created = client
            .retry("word_then_task", json!({}), answers.clone(), state)
            .await;
        assert_eq!(created["resultType"], "task", "{created}");
        let task = created["taskId"].as_str().expect("a task id").to_owned();
        // The task waits at the gate: a duplicate gets the task, without waiting for it.
        let again = client
            .retry("word_then_task", json!({}), answers.clone(), state)
            .await;
        assert_eq!(again["resultType"], "task", "{again}");
        assert_eq!(again["taskId"], task.as_str(), "{again}");
        assert!(again.get("requestState").is_none(), "{again}");
        tools.started_gate.add_permits(1);
        let waiting = client.wait_for(&task, "input_required").await;
        assert_eq!(keys(&waiting), ["1.confirm"], "{waiting}");
        let no = json!({"1.confirm": accept(json!({"confirm": false}))});
        client.update(&task, no).await;
        let done = client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "w: false", "{done}");
        // Once the task ended too.
        let late = client
            .retry("word_then_task", json!({}), answers, state)
            .await;
        assert_eq!(late["resultType"], "task", "{late}");
        assert_eq!(late["taskId"], task.as_str(), "{late}");
        assert_eq!(tools.effects.all(), ["task for w"], "the work ran once");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_of_a_retry_that_became_a_task_as_it_began_gets_that_task() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let arguments = json!({"times": 2});
        let plain = TaskClient::new(&served.url, json!({"elicitation": {}}));
        let first = plain.call("steps", arguments.clone()).await;
        assert_eq!(first["resultType"], "input_required", "{first}");
        let state = &first["requestState"];
        // The retry comes from a client that declares tasks, so the round becomes a task.
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let answers = json!({"word": accept(json!({"word": "a"}))});
        let created = client
            .retry("steps", arguments.clone(), answers.clone(), state)
            .await;
        assert_eq!(created["resultType"], "task", "{created}");
        let task = created["taskId"].as_str().expect("a task id").to_owned();
        let again = client
            .retry("steps", arguments.clone(), answers.clone(), state)
            .await;
        assert_eq!(again["resultType"], "task", "{again}");
        assert_eq!(
            again["taskId"],
            task.as_str(),
            "the first request's task: {again}"
        );
        let waiting = client.wait_for(&task, "input_required").await;
        let key = keys(&waiting).pop().expect("a question");
        client
            .update(&task, json!({key: accept(json!({"word": "b"}))}))
            .await;
        let done = client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "a b", "{done}");
        assert_eq!(tools.effects.all(), ["before 0", "before 1", "done"]);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_that_does_not_open_is_refused_before_a_task_starts() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let refused = client
            .retry("steps", json!({"times": 1}), json!({}), &json!("garbage!!"))
            .await;
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        assert_eq!(
            refused["error"]["message"],
            "requestState is invalid or expired; call the tool again without requestState",
            "{refused}"
        );
        assert!(tools.effects.all().is_empty());
    })
    .await;
}

/// rmcp reads a request whose params do not parse as a method of the server's own, which
/// servers answer "method not found"; the bridge answers `-32602`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn params_of_the_wrong_type_are_invalid_params_not_an_unknown_method() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let cases = [
            (
                "tools/call",
                json!({"name": "steps", "arguments": {"times": 1}, "requestState": 12345}),
            ),
            (
                "tools/call",
                json!({"name": "steps", "arguments": {"times": 1}, "inputResponses": []}),
            ),
            ("tools/call", json!({"name": 5})),
            ("tasks/get", json!({"taskId": 5})),
            (
                "tasks/update",
                json!({"taskId": "x", "inputResponses": "y"}),
            ),
        ];
        for (method, params) in cases {
            let response = client.request(method, params.clone()).await;
            assert_eq!(
                response["error"]["code"], -32602,
                "{method} {params}: {response}"
            );
            assert_eq!(
                response["error"]["message"],
                format!("the params of `{method}` are not valid"),
                "{response}"
            );
        }
        assert!(tools.effects.all().is_empty());
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_task_tool_refuses_a_client_without_the_extension() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, json!({"elicitation": {}}));
        let refused = client.call("halves", json!({})).await;
        assert_eq!(refused["error"]["code"], -32021, "{refused}");
        assert_eq!(
            refused["error"]["data"]["requiredCapabilities"],
            json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
        );
        assert!(tools.effects.all().is_empty(), "no code ran");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_checkpoint_inside_a_task_goes_straight_on() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let task = client.start("halves", json!({})).await;
        let waiting = client.wait_for(&task, "input_required").await;
        assert_eq!(keys(&waiting), ["1.confirm"], "{waiting}");
        client.confirm(&task).await;
        let done = client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "went on: true");
        assert_eq!(tools.effects.all(), ["first half", "second half"]);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_the_creating_call_did_not_declare_fails_the_task() {
    within_time(async {
        let (served, _) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let task = client.start("asks_the_model", json!({})).await;
        let failed = client.wait_for(&task, "failed").await;
        assert_eq!(failed["status"], "failed", "{failed}");
        assert_eq!(failed["error"]["code"], -32021, "{failed}");
        assert_eq!(
            failed["error"]["data"]["requiredCapabilities"],
            json!({"sampling": {}})
        );
        assert!(failed.get("result").is_none());
    })
    .await;
}

/// A client of the tasks extension whose connection drops during a retry's round, before any
/// task: the round runs to its end, as a native round does, and the client's re-issue gets its
/// response at once, with nothing run twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_whose_client_leaves_mid_round_finishes_and_its_reissue_gets_the_response() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let first = client.call("word_gate_confirm", json!({})).await;
        assert_eq!(first["resultType"], "input_required", "{first}");
        let answers = json!({"word": accept(json!({"word": "ada"}))});
        let retry = {
            let (client, answers, state) = (
                client.clone(),
                answers.clone(),
                first["requestState"].clone(),
            );
            tokio::spawn(async move {
                client
                    .retry("word_gate_confirm", json!({}), answers, &state)
                    .await
            })
        };
        while tools.effects.all().is_empty() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // The client leaves: its connection closes mid-round.
        retry.abort();
        assert!(retry.await.is_err(), "the retry was cut off");
        tokio::time::sleep(Duration::from_millis(100)).await;
        tools.gate.add_permits(1);
        while tools.effects.all().len() < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let reissued = tokio::time::timeout(
            Duration::from_secs(5),
            client.retry(
                "word_gate_confirm",
                json!({}),
                answers,
                &first["requestState"],
            ),
        )
        .await
        .expect("answered well within the 10 s lease");
        assert_eq!(keys(&reissued), ["confirm"], "{reissued}");
        assert_eq!(tools.effects.all(), ["got ada", "past the gate"]);
    })
    .await;
}

/// `Capabilities` reads what the task's questions may use, the creating call's, whatever
/// the `tasks/update` that resumes it declares, and wherever it stands among the parameters.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capabilities_inside_a_task_are_the_creating_calls() {
    within_time(async {
        let (served, _) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let task = client.start("what_it_may_ask", json!({})).await;
        client.wait_for(&task, "input_required").await;
        let other = TaskClient::new(
            &served.url,
            json!({"sampling": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}}),
        );
        other.confirm(&task).await;
        let done = client.wait_for(&task, "completed").await;
        assert_eq!(
            text(&done["result"]),
            "before (true, false), after (true, false)",
            "{done}"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_panics_fails_its_task() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let task = client.start("breaks", json!({})).await;
        client.wait_for(&task, "input_required").await;
        client.confirm(&task).await;
        let failed = client.wait_for(&task, "failed").await;
        assert_eq!(failed["status"], "failed", "{failed}");
        assert_eq!(failed["error"]["code"], -32603);
        assert_eq!(tools.engine.running_tasks(), 0);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_that_are_not_outstanding_are_ignored_and_the_last_answer_resumes_once() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let task = client.start("steps", json!({"times": 2})).await;
        client.wait_for(&task, "input_required").await;
        let ignored = client
            .update(
                &task,
                json!({"2.word": accept(json!({"word": "early"})), "x": 1}),
            )
            .await;
        assert_eq!(ignored, json!({"resultType": "complete"}));
        assert_eq!(keys(&client.get(&task).await), ["1.word"]);

        // The same last answer, eight times at once: one resumes the task.
        let answer = json!({"1.word": accept(json!({"word": "one"}))});
        let updates: Vec<_> = (0..8)
            .map(|_| {
                let (client, task, answer) = (client.clone(), task.clone(), answer.clone());
                tokio::spawn(async move { client.update(&task, answer).await })
            })
            .collect();
        for update in updates {
            assert_eq!(update.await.unwrap(), json!({"resultType": "complete"}));
        }
        let waiting = client.wait_for(&task, "input_required").await;
        assert_eq!(keys(&waiting), ["2.word"], "{waiting}");
        let stale = json!({"1.word": accept(json!({"word": "again"}))});
        client.update(&task, stale).await;
        assert_eq!(keys(&client.get(&task).await), ["2.word"]);
        client
            .update(&task, json!({"2.word": accept(json!({"word": "two"}))}))
            .await;
        let done = client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "one two");
        assert_eq!(tools.effects.all(), ["before 0", "before 1", "done"]);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_task_stays_cancelled_and_its_work_stops() {
    within_time(async {
        let (served, tools) = serve(engine().build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());

        let waiting = client.start("steps", json!({"times": 1})).await;
        client.wait_for(&waiting, "input_required").await;
        assert_eq!(
            client.cancel(&waiting).await,
            json!({"resultType": "complete"})
        );
        let cancelled = client.get(&waiting).await;
        assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
        assert!(cancelled.get("inputRequests").is_none(), "{cancelled}");
        client
            .update(&waiting, json!({"1.word": accept(json!({"word": "late"}))}))
            .await;
        assert_eq!(client.get(&waiting).await["status"], "cancelled");
        assert_eq!(
            client.cancel(&waiting).await,
            json!({"resultType": "complete"})
        );

        let working = client.start("long_work", json!({})).await;
        assert_eq!(client.get(&working).await["status"], "working");
        assert_eq!(tools.engine.running_tasks(), 1);
        client.cancel(&working).await;
        assert_eq!(client.get(&working).await["status"], "cancelled");
        assert_eq!(tools.engine.running_tasks(), 0, "the work was stopped");
        assert!(!tools.effects.all().contains(&"long work done".to_owned()));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_caller_cannot_see_answer_or_cancel_a_task() {
    within_time(async {
        let engine = engine()
            .principal(|context| {
                let parts = context.extensions.get::<http::request::Parts>()?;
                let user = parts.headers.get("x-user")?.to_str().ok()?;
                (!user.is_empty()).then(|| user.to_owned())
            })
            .build()
            .unwrap();
        let (served, _) = serve(engine).await;
        let ada = TaskClient::new(&served.url, tasks_and_elicitation()).as_user("ada");
        let mallory = ada.as_user("mallory");
        let task = ada.start("steps", json!({"times": 1})).await;
        ada.wait_for(&task, "input_required").await;

        let answer = json!({"1.word": accept(json!({"word": "stolen"}))});
        for refused in [
            mallory.get(&task).await,
            mallory.update(&task, answer).await,
            mallory.cancel(&task).await,
        ] {
            assert_eq!(refused["error"]["code"], -32602, "{refused}");
        }
        let still = ada.get(&task).await;
        assert_eq!(still["status"], "input_required", "{still}");
        ada.update(&task, json!({"1.word": accept(json!({"word": "own"}))}))
            .await;
        assert_eq!(
            text(&ada.wait_for(&task, "completed").await["result"]),
            "own"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_gone_after_its_ttl() {
    within_time(async {
        let engine = engine()
            .task_ttl(Duration::from_millis(400))
            .build()
            .unwrap();
        let (served, _) = serve(engine).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let created = client.call("steps", json!({"times": 1})).await;
        assert_eq!(created["ttlMs"], 400, "{created}");
        let task = created["taskId"].as_str().unwrap();
        client.wait_for(task, "input_required").await;
        tokio::time::sleep(Duration::from_millis(600)).await;
        let gone = client.get(task).await;
        assert_eq!(gone["error"]["code"], -32602, "{gone}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_after_the_state_expired_fails_the_task_in_words_its_client_knows() {
    within_time(async {
        let clock = mrtr_tests::clock::TestClock::default();
        let (served, tools) = serve(clock.engine()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let task = client.start("steps", json!({"times": 1})).await;
        client.wait_for(&task, "input_required").await;
        clock.advance(Engine::DEFAULT_TTL + Duration::from_secs(1));
        client
            .update(&task, json!({"1.word": accept(json!({"word": "late"}))}))
            .await;
        let failed = client.wait_for(&task, "failed").await;
        assert_eq!(failed["status"], "failed", "{failed}");
        assert_eq!(failed["error"]["code"], -32602);
        let message = failed["error"]["message"].as_str().unwrap();
        assert!(message.contains("waited for input longer"), "{message}");
        assert!(!message.contains("requestState"), "{message}");
        assert_eq!(
            tools.effects.all(),
            ["before 0"],
            "nothing ran after the ask"
        );
    })
    .await;
}

/// Past the state's TTL no answer can resume the task: `tasks/get` says so at once, rather
/// than show a question whose answer would be thrown away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_that_waited_past_its_state_ttl_shows_failed_before_any_answer() {
    within_time(async {
        let clock = mrtr_tests::clock::TestClock::default();
        let (served, tools) = serve(clock.engine()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let task = client.start("steps", json!({"times": 1})).await;
        client.wait_for(&task, "input_required").await;
        clock.advance(Engine::DEFAULT_TTL - Duration::from_secs(1));
        assert_eq!(client.get(&task).await["status"], "input_required");
        clock.advance(Duration::from_secs(2));
        let failed = client.get(&task).await;
        assert_eq!(failed["status"], "failed", "{failed}");
        assert_eq!(failed["error"]["code"], -32602);
        let message = failed["error"]["message"].as_str().unwrap();
        assert!(message.contains("waited for input longer"), "{message}");
        assert!(failed.get("inputRequests").is_none(), "{failed}");
        // A late answer changes nothing.
        client
            .update(&task, json!({"1.word": accept(json!({"word": "late"}))}))
            .await;
        assert_eq!(client.get(&task).await["status"], "failed");
        assert_eq!(tools.effects.all(), ["before 0"]);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_cancelled_before_its_task_starts_stops_there() {
    within_time(async {
        let (tools, serving, client) = on_duplex(ProtocolVersion::V_2026_07_28).await;
        let call = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new("slow_start"),
        ));
        let pending = client
            .send_cancellable_request(call, PeerRequestOptions::no_options())
            .await
            .unwrap();
        while tools.effects.all().is_empty() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        pending.cancel(None).await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        tools.gate.add_permits(1);
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(
            tools.effects.all(),
            ["preparing"],
            "the call stopped at its cancel"
        );
        assert_eq!(tools.engine.running_tasks(), 0);
        client.cancel().await.ok();
        serving.abort();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_session_gets_a_tool_error_from_a_required_task_tool() {
    within_time(async {
        let (tools, _, client) = on_duplex(ProtocolVersion::V_2025_11_25).await;
        let result = client
            .call_tool(CallToolRequestParams::new("halves"))
            .await
            .expect("a tool result");
        assert_eq!(result.is_error, Some(true), "{result:?}");
        let text = serde_json::to_value(&result).unwrap()["content"][0]["text"].clone();
        assert_eq!(
            text,
            "This tool runs only as a task, which a session of protocol version 2025-11-25 or \
             earlier cannot run; call it with 2026-07-28 and the io.modelcontextprotocol/tasks \
             extension"
        );
        assert!(tools.effects.all().is_empty(), "no code ran");
        client.cancel().await.ok();
    })
    .await;
}

/// A 2025 session runs calls in process: `tasks/*` are refused on it even when its client
/// declared the extension at `initialize` (as the Inspector's legacy client does), so it
/// cannot read or answer the tasks of 2026-07-28 clients.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_session_has_no_tasks_even_when_its_client_declares_them() {
    within_time(async {
        let (_, _, client) = on_duplex(ProtocolVersion::V_2025_11_25).await;
        let declared = client
            .peer_info()
            .map(|info| info.capabilities.supports_tasks());
        assert_eq!(declared, Some(false), "the server does not offer tasks");
        let refused = client
            .get_task(GetTaskParams::new(
                "0123456789abcdef0123456789abcdef".to_owned(),
            ))
            .await
            .expect_err("a session has no tasks");
        assert!(
            matches!(&refused, rmcp::ServiceError::McpError(error)
                if error.code == rmcp::model::ErrorCode::METHOD_NOT_FOUND),
            "{refused:?}"
        );
        client.cancel().await.ok();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wizard_provisions_a_workspace_as_a_task() {
    within_time(async {
        let wizard = mrtr_examples::wizard::Wizard::new(engine().build().unwrap());
        let served = Served::start(wizard).await.expect("serves");
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let arguments = json!({"team": "Rust", "prepare_ms": 50});
        let task = client.start("provision", arguments).await;
        let waiting = client.wait_for(&task, "input_required").await;
        assert_eq!(
            waiting["inputRequests"]["1.region"]["params"]["message"],
            "Rust's workspace is ready to create. Where should it live?"
        );
        client
            .update(
                &task,
                json!({"1.region": accept(json!({"region": "apac"}))}),
            )
            .await;
        let done = client.wait_for(&task, "completed").await;
        assert_eq!(
            text(&done["result"]),
            "Provisioned Rust's workspace in apac"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_rust_client_drives_a_task_with_input() {
    within_time(async {
        let (served, _) = serve(engine().build().unwrap()).await;
        let client = rust_client()
            .serve_with_lifecycle(
                StreamableHttpClientTransport::from_config(
                    StreamableHttpClientTransportConfig::with_uri(served.url.clone()),
                ),
                discover(),
            )
            .await
            .expect("client connects");
        let arguments = json!({"times": 2}).as_object().cloned().unwrap();
        let created = client
            .call_tool_once(CallToolRequestParams::new("steps").with_arguments(arguments))
            .await
            .expect("tools/call");
        let CallToolResponse::Task(created) = created else {
            panic!("not a task: {created:?}");
        };
        let id = created.task.task_id;
        let mut answered = Vec::new();
        let result = loop {
            let got = client
                .get_task(GetTaskParams::new(id.clone()))
                .await
                .expect("tasks/get");
            match got.task.status() {
                TaskStatus::InputRequired => {
                    let json = serde_json::to_value(&got).unwrap();
                    let mut answers = InputResponses::new();
                    for (key, request) in json["inputRequests"].as_object().unwrap() {
                        let request: InputRequest =
                            serde_json::from_value(request.clone()).unwrap();
                        assert!(matches!(request, InputRequest::Elicitation(_)));
                        answered.push(key.clone());
                        let word = format!("w{}", answered.len());
                        answers.insert(key.clone(), accept(json!({ "word": word })));
                    }
                    client
                        .update_task(UpdateTaskParams::new(id.clone(), answers))
                        .await
                        .expect("tasks/update");
                }
                TaskStatus::Completed => {
                    break serde_json::to_value(&got).unwrap()["result"].clone();
                }
                TaskStatus::Working => tokio::time::sleep(Duration::from_millis(20)).await,
                other => panic!("task ended {other:?}"),
            }
        };
        assert_eq!(answered, ["1.word", "2.word"]);
        assert_eq!(text(&result), "w1 w2");
        client.cancel().await.ok();
    })
    .await;
}

/// A 2025 client that declares the tasks extension calls a task tool on its session: the call
/// runs in process, as every session call does, with no warning that the server lacks
/// `Bridged` (it has it) and no task made.
#[test]
fn a_2025_session_that_declares_tasks_runs_a_task_tool_in_process_without_a_warning() {
    let lines = mrtr_tests::log_lines::LogLines::default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    lines.capture(tracing::Level::WARN, || {
        runtime.block_on(within_time(async {
            let (tools, _, client) = on_duplex(ProtocolVersion::V_2025_11_25).await;
            let arguments = json!({"times": 0}).as_object().cloned().unwrap();
            let result = client
                .call_tool(CallToolRequestParams::new("steps").with_arguments(arguments))
                .await
                .expect("a tool result");
            assert_ne!(result.is_error, Some(true), "{result:?}");
            assert_eq!(tools.engine.running_tasks(), 0);
            client.cancel().await.ok();
        }))
    });
    let logs = lines.text();
    assert!(!logs.contains("mrtr::Bridged"), "{logs}");
}

/// Answers wait in a task's record until the last one comes: a memory task store past its bytes
/// refuses a `tasks/update` that would grow it, and takes answers again once there is room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_store_past_its_bytes_refuses_answers_that_would_grow_it() {
    within_time(async {
        let store = mrtr::task::MemoryTaskStore::with_capacity(10).max_bytes(64 << 10);
        let (served, _) = serve(engine().task_store(store).build().unwrap()).await;
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let task = client.start("steps", json!({"times": 1})).await;
        client.wait_for(&task, "input_required").await;
        let long = json!({"1.word": accept(json!({"word": "x".repeat(70 << 10)}))});
        let refused = client
            .request(
                "tasks/update",
                json!({"taskId": task, "inputResponses": long}),
            )
            .await;
        assert_eq!(refused["error"]["code"], -32603, "{refused}");
        assert!(
            refused["error"]["message"]
                .as_str()
                .is_some_and(|message| message.contains("too many tasks")),
            "{refused}"
        );
        client
            .update(&task, json!({"1.word": accept(json!({"word": "short"}))}))
            .await;
        let done = client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "short");
    })
    .await;
}
