//! What a resumed call must and must not do: code before the resume point never runs again,
//! locals come back with the types inferred from their initializers, and `?`, early `return`
//! and `.await` between asks behave as in a plain `async fn`.

use std::{
    collections::{BTreeMap, HashMap},
    sync::{Arc, Mutex},
    time::Duration,
};

use mrtr::{
    Engine, Form, ask, elicit, mrtr_tool,
    testing::{Answer, Harness},
};
use mrtr_examples::demo;
use mrtr_tests::{clock::TestClock, loopback::Loopback};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Word {
    word: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Go {
    go: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Tally {
    label: String,
    hits: u32,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Args {
    prefix: String,
    #[serde(default)]
    stop_early: bool,
}

/// Records which segment of the tool body ran, in order.
#[derive(Clone, Default)]
struct Journal(Arc<Mutex<Vec<&'static str>>>);

impl Journal {
    fn note(&self, segment: &'static str) {
        self.0.lock().unwrap().push(segment);
    }

    fn entries(&self) -> Vec<&'static str> {
        self.0.lock().unwrap().clone()
    }
}

#[derive(Clone)]
struct Segments {
    tool_router: ToolRouter<Self>,
    engine: Engine,
    journal: Journal,
}

async fn slow_double(n: u32) -> u32 {
    tokio::task::yield_now().await;
    n * 2
}

fn check(word: &str) -> Result<(), String> {
    if word == "bad" {
        Err("bad word".to_owned())
    } else {
        Ok(())
    }
}

#[tool_router]
impl Segments {
    #[mrtr_tool]
    #[tool(description = "Three rounds; journals every segment")]
    async fn segments(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, String> {
        self.journal.note("before first ask");
        let words = vec![format!("{}-start", args.prefix)];
        let tally = Tally {
            label: args.prefix.clone(),
            hits: 1,
        };
        let mut index = HashMap::new();
        index.insert(args.prefix.clone(), 1u32);
        let pair = (args.prefix.len(), String::from("pair"));
        let maybe = Some(slow_double(21).await);

        let first = ask!(first = elicit::<Word>("First word?"))
            .accepted()
            .map_err(|r| r.to_string())?;
        self.journal.note("between first and second");
        check(&first.word)?;
        let mut words = words;
        words.push(first.word);
        let doubled = slow_double(tally.hits).await;
        if args.stop_early {
            return Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "stopped after {}",
                words.join(",")
            ))]));
        }

        let second = ask!(second = elicit::<Word>("Second word?"))
            .accepted()
            .map_err(|r| r.to_string())?;
        self.journal.note("between second and third");
        words.push(second.word);
        *index.entry(args.prefix.clone()).or_default() += doubled;

        let go = ask!(elicit::<Go>("Go?"))
            .accepted()
            .map_err(|r| r.to_string())?
            .go;
        self.journal.note("after third ask");
        let summary = json!({
            "words": words,
            "tally": tally.label,
            "hits": index[&args.prefix],
            "pair": [pair.0, pair.1],
            "maybe": maybe,
            "go": go,
        });
        Ok(CallToolResult::success(vec![ContentBlock::text(
            summary.to_string(),
        )]))
    }
}

struct Dice;

impl Dice {
    fn r#gen(&self) -> u8 {
        4
    }
}

/// Postcard cannot read it back (the skipped `note`), and JSON has no tuple keys.
#[derive(Serialize, Deserialize)]
struct Grid {
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    cells: BTreeMap<(u8, u8), u8>,
}

#[tool_router(router = json_router)]
impl Segments {
    #[mrtr_tool]
    #[tool(description = "Holds a value that reads back from neither postcard nor JSON")]
    async fn holds_grid(&self) -> String {
        let grid = Grid {
            note: None,
            cells: [((1, 2), 3)].into(),
        };
        let word = ask!(word = elicit::<Word>("Word?")).ok().map(|w| w.word);
        format!("{} {word:?}", grid.cells.len())
    }
}

#[tool_router(router = edge_router)]
impl Segments {
    #[mrtr_tool]
    #[tool(
        name = "loop",
        description = "A raw identifier as its name and as a key"
    )]
    async fn r#loop(&self) -> String {
        // `gen` is reserved in edition 2024, where only `r#gen` names it.
        let roll = Dice.r#gen();
        let r#type = ask!(elicit::<Word>("Which type?")).ok().map(|w| w.word);
        let r#kind = ask!(r#match = elicit::<Word>("Match?"))
            .ok()
            .map(|w| w.word);
        ask!(done = elicit::<Word>("Done?"));
        format!("{type:?} {kind:?} {roll}", type = r#type)
    }

    #[mrtr_tool]
    #[tool(description = "Asks a question that a closure builds from a local changed just before")]
    async fn closure_question(&self) -> String {
        let mut count = 0u32;
        if count == 0 {
            count += 5;
            let show = || format!("count is {count}");
            let word = ask!(word = elicit::<Word>(show())).ok().map(|w| w.word);
            return format!("{word:?} at {}", show());
        }
        String::new()
    }

    #[mrtr_tool]
    #[tool(description = "Holds a value whose Drop is counted across an ask")]
    async fn holds_counted(&self) -> String {
        let held = Counted(7);
        let go = ask!(go = elicit::<Go>("Go on?")).ok().is_some();
        format!("{} {go}", held.0)
    }

    #[mrtr_tool]
    #[tool(description = "Makes a value it does not use after an ask")]
    async fn unused_after_the_ask(&self) -> String {
        let timer = Timer;
        std::hint::black_box(&timer);
        let go = ask!(go = elicit::<Go>("Go on?")).ok().is_some();
        format!(
            "{} {go}",
            TIMER_DROPS.load(std::sync::atomic::Ordering::SeqCst)
        )
    }

    #[mrtr_tool]
    #[tool(description = "Holds a value with a skipped field across an ask")]
    async fn holds_skipped(&self) -> String {
        let mut held = Skipping {
            kept: 1,
            skipped: 1,
        };
        held.skipped = 5;
        let go = ask!(go = elicit::<Go>("Go on?")).ok().is_some();
        format!("{} {} {go}", held.kept, held.skipped)
    }

    #[mrtr_tool]
    #[tool(description = "Loops over a mapped iterator that notes each item, asking once")]
    async fn effects_in_the_iterator(&self) -> String {
        let mut seen = Vec::new();
        let noted = std::cell::RefCell::new(Vec::new());
        for item in (0..3).inspect(|i| noted.borrow_mut().push(format!("item {i}"))) {
            if item == 1 {
                break;
            }
            seen.push(format!("{:?}", noted.borrow()));
            ask!(go = elicit::<Go>("Go on?"));
        }
        format!("{seen:?}")
    }

    #[mrtr_tool]
    #[tool(description = "Holds a shared counter across an ask")]
    async fn holds_shared(&self) -> String {
        let shared = std::sync::Arc::new(std::sync::Mutex::new(0u32));
        let go = ask!(go = elicit::<Go>("Go on?")).ok().is_some();
        *shared.lock().unwrap() += u32::from(go);
        format!("{go}")
    }

    #[mrtr_tool]
    #[tool(description = "Turns a refusal into an error result, as the README shows")]
    async fn refusal_as_result(&self) -> Result<CallToolResult, rmcp::ErrorData> {
        let word = match ask!(word = elicit::<Word>("A word?")).accepted() {
            Ok(answer) => answer.word,
            Err(refused) => return Ok(refused.into()),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(word)]))
    }

    #[mrtr_tool]
    #[tool(description = "Names its questions after the one binding of each pattern")]
    async fn pattern_keys(&self) -> String {
        let Some(Word { word }) = ask!(elicit::<Word>("A word?")).ok() else {
            return "no word".to_owned();
        };
        let Go { go } = ask!(elicit::<Go>("Go on?"))
            .ok()
            .unwrap_or(Go { go: false });
        let (first, again) = (ask!(elicit::<Go>("Sure?")).ok().is_some(), go);
        format!("{word} {go} {first} {again}")
    }

    #[mrtr_tool]
    #[tool(description = "Loops over an endless iterator with an ask in its body")]
    async fn endless_loop(&self) -> String {
        let mut words = Vec::new();
        for word in std::iter::repeat("w".to_owned()) {
            words.push(word);
            ask!(go = elicit::<Go>("Go on?"));
        }
        format!("{words:?}")
    }
}

impl mrtr::MrtrServer for Segments {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Segments {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

async fn run(
    args: Value,
    answers: BTreeMap<&str, Value>,
) -> (Vec<Vec<String>>, CallToolResult, Vec<&'static str>) {
    let journal = Journal::default();
    let server = Segments {
        tool_router: Segments::tool_router() + Segments::json_router() + Segments::edge_router(),
        engine: TestClock::default().engine(),
        journal: journal.clone(),
    };
    let loopback = Loopback::start(server).await.expect("server starts");
    let mut rounds = Vec::new();
    let result = demo::drive(&loopback.client, "segments", args, &answers, |round| {
        rounds.push(round.keys.clone())
    })
    .await
    .expect("the call completes");
    (rounds, result, journal.entries())
}

/// The segments server on loopback, with `engine`.
async fn serve(engine: Engine) -> Loopback {
    let server = Segments {
        tool_router: Segments::tool_router() + Segments::json_router() + Segments::edge_router(),
        engine,
        journal: Journal::default(),
    };
    Loopback::start(server).await.expect("server starts")
}

async fn within_time<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), f)
        .await
        .expect("test finished in time")
}

#[tokio::test]
async fn every_segment_runs_once_and_locals_come_back_without_annotations() {
    within_time(async {
        let answers = BTreeMap::from([
            ("first", accept(json!({"word": "alpha"}))),
            ("second", accept(json!({"word": "beta"}))),
            ("go", accept(json!({"go": true}))),
        ]);
        let (rounds, result, journal) = run(json!({"prefix": "p"}), answers).await;
        assert_eq!(rounds, vec![vec!["first"], vec!["second"], vec!["go"]]);
        assert_eq!(
            journal,
            vec![
                "before first ask",
                "between first and second",
                "between second and third",
                "after third ask"
            ],
            "each segment runs exactly once across the four rounds"
        );
        let summary: Value = serde_json::from_str(&demo::text_of(&result)).unwrap();
        assert_eq!(
            summary,
            json!({
                "words": ["p-start", "alpha", "beta"],
                "tally": "p",
                "hits": 3,
                "pair": [1, "pair"],
                "maybe": 42,
                "go": true,
            })
        );
    })
    .await;
}

#[tokio::test]
async fn early_return_between_asks_ends_the_call() {
    within_time(async {
        let answers = BTreeMap::from([("first", accept(json!({"word": "alpha"})))]);
        let (rounds, result, journal) =
            run(json!({"prefix": "p", "stop_early": true}), answers).await;
        assert_eq!(rounds, vec![vec!["first"]]);
        assert_eq!(demo::text_of(&result), "stopped after p-start,alpha");
        assert_eq!(
            journal,
            vec!["before first ask", "between first and second"]
        );
    })
    .await;
}

#[tokio::test]
async fn question_mark_between_asks_returns_the_error_as_a_tool_error() {
    within_time(async {
        let answers = BTreeMap::from([("first", accept(json!({"word": "bad"})))]);
        let (_, result, journal) = run(json!({"prefix": "p"}), answers).await;
        assert_eq!(result.is_error, Some(true));
        assert_eq!(demo::text_of(&result), "bad word");
        assert_eq!(
            journal,
            vec!["before first ask", "between first and second"]
        );
    })
    .await;
}

#[tokio::test]
async fn a_refusal_flows_through_question_mark() {
    within_time(async {
        let answers = BTreeMap::from([
            ("first", accept(json!({"word": "alpha"}))),
            ("second", json!({"action": "decline"})),
        ]);
        let (_, result, journal) = run(json!({"prefix": "p"}), answers).await;
        assert_eq!(result.is_error, Some(true));
        assert_eq!(demo::text_of(&result), "the user declined `second`");
        assert_eq!(
            journal,
            vec!["before first ask", "between first and second"]
        );
    })
    .await;
}

#[tokio::test]
async fn a_local_that_cannot_be_read_back_fails_its_first_round_not_the_retry() {
    within_time(async {
        let server = Segments {
            tool_router: Segments::tool_router()
                + Segments::json_router()
                + Segments::edge_router(),
            engine: TestClock::default().engine(),
            journal: Journal::default(),
        };
        let loopback = Loopback::start(server).await.expect("server starts");
        let error = loopback
            .client
            .call_tool_once(rmcp::model::CallToolRequestParams::new("holds_grid"))
            .await
            .expect_err("neither postcard nor JSON reads a Grid back");
        let rmcp::ServiceError::McpError(error) = error else {
            panic!("expected a JSON-RPC error, got {error:?}")
        };
        assert_eq!(error.code, rmcp::model::ErrorCode::INTERNAL_ERROR);
        assert_eq!(error.message, "the tool could not save its progress");
    })
    .await;
}

/// A raw identifier is its name without `r#`: the tool's flowchart const, and the key of the
/// question a `let r#type` binds (as `r#match = ..` keys its question `match`).
#[tokio::test]
async fn raw_identifiers_key_their_questions_by_their_names() {
    within_time(async {
        let loopback = serve(TestClock::default().engine()).await;
        let mut keys = Vec::new();
        let answers = BTreeMap::from([
            ("type", accept(json!({"word": "a"}))),
            ("match", accept(json!({"word": "b"}))),
            ("done", accept(json!({"word": "c"}))),
        ]);
        let result = demo::drive(&loopback.client, "loop", json!({}), &answers, |round| {
            keys.extend(round.keys.iter().cloned())
        })
        .await
        .expect("the call completes");
        assert_eq!(keys, ["type", "match", "done"]);
        assert_eq!(demo::text_of(&result), r#"Some("a") Some("b") 4"#);
        assert!(Segments::LOOP_FLOW.contains("ask type"));
    })
    .await;
}

#[tokio::test]
async fn sign_only_states_are_readable_and_still_resume() {
    within_time(async {
        let clock = TestClock::default();
        let reading = clock.clone();
        let engine = Engine::builder()
            .key(1, mrtr_tests::keys::test_key(5))
            .clock(move || reading.now())
            .sign_only()
            .build()
            .unwrap();
        let loopback = serve(engine).await;
        let arguments = serde_json::from_value(json!({"prefix": "readable"})).unwrap();
        let first = loopback
            .client
            .call_tool_once(
                rmcp::model::CallToolRequestParams::new("segments").with_arguments(arguments),
            )
            .await
            .unwrap();
        let rmcp::model::CallToolResponse::InputRequired(input) = first else {
            panic!("expected a question")
        };
        use base64::Engine as _;
        let state = input.request_state.unwrap();
        let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(&state)
            .unwrap();
        assert!(
            raw.windows(14).any(|w| w == b"readable-start"),
            "the saved locals are readable"
        );

        let answers = BTreeMap::from([
            ("first", accept(json!({"word": "alpha"}))),
            ("second", accept(json!({"word": "beta"}))),
            ("go", accept(json!({"go": true}))),
        ]);
        let result = demo::drive(
            &loopback.client,
            "segments",
            json!({"prefix": "readable"}),
            &answers,
            |_| {},
        )
        .await
        .expect("the call completes");
        let summary: Value = serde_json::from_str(&demo::text_of(&result)).unwrap();
        assert_eq!(summary["words"], json!(["readable-start", "alpha", "beta"]));
    })
    .await;
}

/// A `tools/call` over raw HTTP, as the user named in `x-user`.
async fn call_as(url: &str, user: &str, state: Option<&str>, answers: Value) -> Value {
    let mut params = json!({
        "name": "segments",
        "arguments": {"prefix": "p"},
        "inputResponses": answers,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
        }
    });
    if let Some(state) = state {
        params["requestState"] = json!(state);
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let response = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "segments")
        .header("x-user", user)
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    serde_json::from_str(&response.text().await.unwrap()).unwrap()
}

#[tokio::test]
async fn a_state_opens_only_for_the_principal_it_was_sealed_for() {
    within_time(async {
        let engine = Engine::builder()
            .key(1, mrtr_tests::keys::test_key(6))
            .principal(|context| {
                let parts = context.extensions.get::<http::request::Parts>()?;
                Some(parts.headers.get("x-user")?.to_str().ok()?.to_owned())
            })
            .build()
            .unwrap();
        let loopback = serve(engine).await;
        let first = call_as(&loopback.url, "ada", None, json!({})).await;
        let state = first["result"]["requestState"]
            .as_str()
            .expect("a state")
            .to_owned();
        let answer = json!({"first": {"action": "accept", "content": {"word": "alpha"}}});

        let stolen = call_as(&loopback.url, "mallory", Some(&state), answer.clone()).await;
        assert_eq!(stolen["error"]["code"], -32602, "{stolen}");

        let own = call_as(&loopback.url, "ada", Some(&state), answer).await;
        assert_eq!(
            own["result"]["inputRequests"]["second"]["method"], "elicitation/create",
            "{own}"
        );
    })
    .await;
}

#[tokio::test]
async fn require_principal_refuses_every_call_whose_caller_is_unknown() {
    within_time(async {
        let engine = Engine::builder()
            .key(1, mrtr_tests::keys::test_key(6))
            .principal(|context| {
                let parts = context.extensions.get::<http::request::Parts>()?;
                let user = parts.headers.get("x-user")?.to_str().ok()?;
                (!user.is_empty()).then(|| user.to_owned())
            })
            .require_principal()
            .build()
            .unwrap();
        let loopback = serve(engine).await;
        let anonymous = call_as(&loopback.url, "", None, json!({})).await;
        assert_eq!(anonymous["error"]["code"], -32600, "{anonymous}");
        assert!(
            anonymous["error"]["message"]
                .as_str()
                .unwrap()
                .contains("authenticate"),
            "{anonymous}"
        );
        let first = call_as(&loopback.url, "ada", None, json!({})).await;
        let state = first["result"]["requestState"].as_str().expect("a state");
        let answer = json!({"first": {"action": "accept", "content": {"word": "alpha"}}});
        let retried = call_as(&loopback.url, "", Some(state), answer).await;
        assert_eq!(retried["error"]["code"], -32600, "{retried}");
    })
    .await;
}

/// The hook of `EngineBuilder::principal`'s rustdoc: a middleware in front of the MCP service
/// puts the caller on the request, and the hook finds it in the request's
/// `http::request::Parts`, which rmcp hands on in `context.extensions`.
#[tokio::test]
async fn a_principal_hook_reads_what_a_middleware_put_on_the_request() {
    #[derive(Clone)]
    struct Caller {
        subject: String,
    }

    async fn authenticate(
        mut request: axum::extract::Request,
        next: axum::middleware::Next,
    ) -> axum::response::Response {
        let user = request
            .headers()
            .get("x-user")
            .and_then(|user| user.to_str().ok())
            .filter(|user| !user.is_empty())
            .map(str::to_owned);
        if let Some(subject) = user {
            request.extensions_mut().insert(Caller { subject });
        }
        next.run(request).await
    }

    within_time(async {
        let engine = Engine::builder()
            .key(1, mrtr_tests::keys::test_key(6))
            .principal(|context| {
                let parts = context.extensions.get::<http::request::Parts>()?;
                Some(parts.extensions.get::<Caller>()?.subject.clone())
            })
            .require_principal()
            .build()
            .unwrap();
        let server = Segments {
            tool_router: Segments::tool_router(),
            engine,
            journal: Journal::default(),
        };
        let cancel = tokio_util::sync::CancellationToken::new();
        let router = mrtr_examples::serve::http_service(server, cancel.clone())
            .layer(axum::middleware::from_fn(authenticate));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let served = tokio::spawn(async move { axum::serve(listener, router).await });

        let anonymous = call_as(&url, "", None, json!({})).await;
        assert_eq!(anonymous["error"]["code"], -32600, "{anonymous}");
        let first = call_as(&url, "ada", None, json!({})).await;
        let state = first["result"]["requestState"]
            .as_str()
            .expect("a state")
            .to_owned();
        let answer = json!({"first": {"action": "accept", "content": {"word": "alpha"}}});
        let stolen = call_as(&url, "mallory", Some(&state), answer.clone()).await;
        assert_eq!(stolen["error"]["code"], -32602, "{stolen}");
        let own = call_as(&url, "ada", Some(&state), answer).await;
        assert_eq!(
            own["result"]["inputRequests"]["second"]["method"], "elicitation/create",
            "{own}"
        );
        cancel.cancel();
        served.abort();
    })
    .await;
}

/// How many `Counted` values were dropped.
static COUNTED_DROPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[derive(Serialize, Deserialize)]
struct Counted(u32);

impl Drop for Counted {
    fn drop(&mut self) {
        COUNTED_DROPS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// A held value lives one round: each round drops its own copy, and saving reads one back to
/// check it, so `Drop` runs more than once per call (README, "Values live one round").
#[tokio::test]
async fn a_held_value_is_dropped_once_per_copy_not_once_per_call() {
    let harness = edge_cases().await;
    let run = within_time(
        harness
            .call("holds_counted")
            .answer("go", Answer::accept(json!({"go": true})))
            .run(),
    )
    .await
    .expect("the call completes");
    assert_eq!(run.text(), "7 true");
    assert_eq!(
        run.round_count(),
        1,
        "one round of questions, then the retry"
    );
    // Round 1: the read-back copy and the value itself; round 2: the restored value.
    assert_eq!(COUNTED_DROPS.load(std::sync::atomic::Ordering::SeqCst), 3);
}

/// How many `Timer` values were dropped.
static TIMER_DROPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Neither `Serialize` nor read after its ask: not held.
struct Timer;

impl Drop for Timer {
    fn drop(&mut self) {
        TIMER_DROPS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// A value not used after an ask is dropped when its round ends, at the ask, not at the end of
/// its block (README, "Values live one round").
#[tokio::test]
async fn a_value_not_used_after_an_ask_is_dropped_at_the_ask() {
    let harness = edge_cases().await;
    let run = within_time(
        harness
            .call("unused_after_the_ask")
            .answer("go", Answer::accept(json!({"go": true})))
            .run(),
    )
    .await
    .expect("the call completes");
    assert_eq!(run.text(), "1 true");
}

#[derive(Serialize, Deserialize)]
struct Skipping {
    kept: u32,
    #[serde(skip)]
    skipped: u32,
}

/// What is held is what serde writes: a skipped field comes back as its default (README,
/// "Values live one round").
#[tokio::test]
async fn a_skipped_field_comes_back_as_its_default() {
    let harness = edge_cases().await;
    let run = within_time(
        harness
            .call("holds_skipped")
            .answer("go", Answer::accept(json!({"go": true})))
            .run(),
    )
    .await
    .expect("the call completes");
    assert_eq!(run.text(), "1 0 true");
}

/// A `for` whose body asks collects its iterator before the first pass, so an adapter's
/// effects all run first, even for items the loop never reaches (README, "Loops").
#[tokio::test]
async fn an_iterators_effects_run_before_the_first_pass() {
    let harness = edge_cases().await;
    let run = within_time(
        harness
            .call("effects_in_the_iterator")
            .answer("go", Answer::accept(json!({"go": true})))
            .run(),
    )
    .await
    .expect("the call completes");
    // Straight through, the first pass would see `["item 0"]`.
    assert_eq!(run.text(), r#"["[\"item 0\", \"item 1\", \"item 2\"]"]"#);
}

/// A `let` whose pattern binds one name keys its ask by that name; two names leave `ask_N`.
#[tokio::test]
async fn a_pattern_with_one_binding_names_its_question() {
    let harness = edge_cases().await;
    let run = within_time(
        harness
            .call("pattern_keys")
            .answer("word", Answer::accept(json!({"word": "kite"})))
            .answer("go", Answer::accept(json!({"go": true})))
            .answer("ask_3", Answer::accept(json!({"go": true})))
            .run(),
    )
    .await
    .expect("the call completes");
    assert_eq!(run.keys(), ["word", "go", "ask_3"]);
    assert_eq!(run.text(), "kite true true true");
}

/// `Ok(refused.into())` in a tool returning `Result<CallToolResult, ErrorData>` (README,
/// "Answers"): the client gets an error result, not a JSON-RPC error.
#[tokio::test]
async fn a_refusal_becomes_an_error_result() {
    let harness = edge_cases().await;
    let declined = within_time(
        harness
            .call("refusal_as_result")
            .answer("word", Answer::decline())
            .run(),
    )
    .await
    .expect("the call completes");
    assert!(declined.is_error());
    assert_eq!(declined.text(), "the user declined `word`");
    let accepted = within_time(
        harness
            .call("refusal_as_result")
            .answer("word", Answer::accept(json!({"word": "kite"})))
            .run(),
    )
    .await
    .expect("the call completes");
    assert!(!accepted.is_error());
    assert_eq!(accepted.text(), "kite");
}

/// The tools of `edge_router`, in process.
async fn edge_cases() -> Harness {
    Harness::start(Segments {
        tool_router: Segments::edge_router(),
        engine: TestClock::default().engine(),
        journal: Journal::default(),
    })
    .await
}

/// Calls `tool`, which must fail with `-32603`.
async fn fails_internally(harness: &Harness, tool: &str) {
    let error = within_time(harness.call(tool).run())
        .await
        .expect_err("the call fails");
    assert_eq!(
        error.protocol_error().map(|e| e.code),
        Some(rmcp::model::ErrorCode::INTERNAL_ERROR),
        "{error}"
    );
}

/// A closure made after a local changes, in the statement that asks, is made again on resume
/// from the local as it was at the ask: asked again, the question reads the same; called after
/// the ask, the closure sees the change.
#[tokio::test]
async fn a_closure_made_in_the_asking_statement_sees_the_local_as_at_the_ask() {
    let harness = edge_cases().await;
    let not_a_word = Answer::raw(json!({"action": "accept", "content": {"word": 5}}));
    let run = within_time(
        harness
            .call("closure_question")
            .answers("word", [not_a_word, Answer::accept(json!({"word": "w"}))])
            .run(),
    )
    .await
    .expect("the call completes");
    let asked: Vec<&str> = run.questions().map(|q| q.message.as_str()).collect();
    assert_eq!(asked, ["count is 5", "count is 5"]);
    assert_eq!(run.text(), "Some(\"w\") at count is 5");
}

/// A `for` over an endless iterator, whose body asks, cannot save the items it has yet to visit:
/// the call fails with `-32603` at once, rather than the server collecting forever.
#[tokio::test]
async fn a_for_over_an_endless_iterator_fails_the_call() {
    let harness = edge_cases().await;
    fails_internally(&harness, "endless_loop").await;
}

/// An `Arc` around a `Mutex` held across an ask would come back as a copy: the round that would
/// save it fails with `-32603` instead.
#[tokio::test]
async fn a_shared_mutable_handle_held_across_an_ask_fails_the_round() {
    let harness = edge_cases().await;
    fails_internally(&harness, "holds_shared").await;
}
