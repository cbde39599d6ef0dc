//! Single use and a bounded lifetime, through real rounds over loopback HTTP: a state runs its
//! round once, a duplicate gets the first response, a dead instance's round runs again only
//! after its lease, a failing store fails closed, and no flow outlives its deadline or round
//! cap. With a real Redis: a duplicate on another instance waits for the round, a Redis that
//! restarts empty mid-round loses its claim, and one back within the lease keeps it.

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU32, Ordering},
    },
    time::{Duration, SystemTime},
};

use mrtr::{
    ConfigError, Engine, Form, ask, elicit, mrtr_tool,
    replay::{Claim, Holder, MemoryStore, Recorded, RedisStore, ReplayStore, RoundKey, StoreError},
};
use mrtr_examples::demo::{self, text_of};
use mrtr_tests::{
    clock::TestClock,
    log_lines::LogLines,
    loopback::Served,
    rounds::{Asked, Reply, accept, send},
    services::RedisServer,
    transports::{Client, bounded},
};
use rmcp::{
    ErrorData, ServerHandler, ServiceError,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolRequestParams, CallToolResult, ContentBlock, ErrorCode, InputResponses, JsonObject,
        ServerCapabilities, ServerConfig,
    },
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::Notify;

#[derive(Debug, Deserialize, JsonSchema)]
struct PayArgs {
    payee: String,
    amount: u32,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Confirm {
    confirm: bool,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Account {
    account: String,
}

/// What the tools did, in order, across every instance that shares it.
#[derive(Clone, Default)]
struct Effects(Arc<Mutex<Vec<String>>>);

impl Effects {
    fn note(&self, effect: String) {
        self.0.lock().unwrap().push(effect);
    }

    fn all(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }

    fn count(&self, effect: &str) -> usize {
        self.all().iter().filter(|e| *e == effect).count()
    }

    /// Waits (bounded by the test) until `effect` has happened.
    async fn happened(&self, effect: &str) {
        while self.count(effect) == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// Holds `pay` between its first effect and its last, while closed.
#[derive(Clone, Default)]
struct Gate(Arc<(AtomicBool, Notify)>);

impl Gate {
    fn closed() -> Self {
        Self::default()
    }

    fn open() -> Self {
        let gate = Self::default();
        gate.release();
        gate
    }

    fn release(&self) {
        self.0.0.store(true, Ordering::SeqCst);
        self.0.1.notify_waiters();
    }

    async fn pass(&self) {
        loop {
            let notified = self.0.1.notified();
            if self.0.0.load(Ordering::SeqCst) {
                return;
            }
            notified.await;
        }
    }
}

#[derive(Clone)]
struct Ledger {
    tool_router: ToolRouter<Self>,
    engine: Engine,
    effects: Effects,
    gate: Gate,
    /// Numbers the payments: a round that ran twice would answer differently.
    payments: Arc<AtomicU32>,
}

impl Ledger {
    fn new(engine: Engine, effects: &Effects, gate: Gate) -> Self {
        Self {
            tool_router: Self::tool_router(),
            engine,
            effects: effects.clone(),
            gate,
            payments: Arc::default(),
        }
    }
}

fn text(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

#[tool_router]
impl Ledger {
    #[mrtr_tool]
    #[tool(description = "Pays someone once they confirm")]
    async fn pay(&self, Parameters(args): Parameters<PayArgs>) -> Result<CallToolResult, String> {
        let confirmed =
            ask!(confirm = elicit::<Confirm>(format!("Pay {} to {}?", args.amount, args.payee)))
                .accepted()
                .map_err(|refused| refused.to_string())?
                .confirm;
        self.effects.note(format!("charging {}", args.payee));
        self.gate.pass().await;
        if confirmed && args.payee == "crash" {
            panic!("the payment service is down");
        }
        if !confirmed {
            return Ok(text(format!("did not pay {}", args.payee)));
        }
        let number = self.payments.fetch_add(1, Ordering::SeqCst) + 1;
        self.effects.note(format!("paid {}", args.payee));
        Ok(text(format!(
            "paid {} to {} (payment {number})",
            args.amount, args.payee
        )))
    }

    #[mrtr_tool(replay = "allow")]
    #[tool(description = "Reads a balance; read-only, so its states may be replayed")]
    async fn balance(&self) -> Result<CallToolResult, String> {
        let account = ask!(account = elicit::<Account>("Which account?"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .account;
        self.effects.note(format!("read {account}"));
        Ok(text(format!("{account}: 42")))
    }
}

impl mrtr::MrtrServer for Ledger {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Ledger {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

fn engine() -> mrtr::EngineBuilder {
    Engine::builder().key(1, mrtr_tests::keys::test_key(5))
}

/// A ledger on loopback and a client connected to it.
async fn serve(ledger: Ledger) -> anyhow::Result<(Served, Client)> {
    let served = Served::start(ledger).await?;
    let client = demo::connect(&served.url).await?;
    Ok((served, client))
}

fn pay(payee: &str, state: Option<&str>, answers: Value) -> CallToolRequestParams {
    call("pay", json!({"payee": payee, "amount": 5}), state, answers)
}

fn call(
    tool: &str,
    arguments: Value,
    state: Option<&str>,
    answers: Value,
) -> CallToolRequestParams {
    let arguments: JsonObject = serde_json::from_value(arguments).expect("an object");
    let mut params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
    let answers: InputResponses = serde_json::from_value(answers).expect("an object");
    if !answers.is_empty() {
        params.input_responses = Some(answers);
    }
    params.request_state = state.map(str::to_owned);
    params
}

fn yes() -> Value {
    json!({"confirm": accept(json!({"confirm": true}))})
}

fn no() -> Value {
    json!({"confirm": accept(json!({"confirm": false}))})
}

async fn asked(client: &Client, params: CallToolRequestParams) -> anyhow::Result<Asked> {
    match send(client, params).await? {
        Reply::Asked(asked) => Ok(asked),
        Reply::Done(result) => anyhow::bail!("expected a question, got {result:?}"),
    }
}

async fn done(client: &Client, params: CallToolRequestParams) -> anyhow::Result<CallToolResult> {
    match send(client, params).await? {
        Reply::Done(result) => Ok(result),
        Reply::Asked(asked) => anyhow::bail!("expected a result, got {asked:?}"),
    }
}

async fn failed(client: &Client, params: CallToolRequestParams) -> anyhow::Result<ErrorData> {
    match send(client, params).await {
        Err(ServiceError::McpError(error)) => Ok(error),
        other => anyhow::bail!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_copies_of_a_final_state_run_the_effect_once() -> anyhow::Result<()> {
    bounded(async {
        let effects = Effects::default();
        let gate = Gate::closed();
        let (_served, client) =
            serve(Ledger::new(engine().build()?, &effects, gate.clone())).await?;
        let first = asked(&client, pay("ada", None, json!({}))).await?;

        // Eight copies of the final request: the first holds the round open while the seven
        // others, some with another answer, arrive.
        let client = Arc::new(client);
        let send_copy = |answers: Value| {
            let client = client.clone();
            let params = pay("ada", Some(&first.state), answers);
            tokio::spawn(async move { done(&client, params).await })
        };
        let mut copies = vec![send_copy(yes())];
        effects.happened("charging ada").await;
        copies.extend((1..8).map(|copy| send_copy(if copy % 3 == 2 { no() } else { yes() })));
        tokio::time::sleep(Duration::from_millis(50)).await;
        gate.release();
        let mut results = Vec::new();
        for copy in copies {
            results.push(copy.await??);
        }

        let first_result = serde_json::to_value(&results[0])?;
        assert!(
            text_of(&results[0]).starts_with("paid 5 to ada"),
            "{first_result}"
        );
        for result in &results {
            assert_eq!(serde_json::to_value(result)?, first_result);
        }
        assert_eq!(effects.all(), ["charging ada", "paid ada"]);

        // Later, with another answer: still the first response, and nothing runs.
        let late = done(&client, pay("ada", Some(&first.state), no())).await?;
        assert_eq!(serde_json::to_value(&late)?, first_result);
        assert_eq!(effects.all(), ["charging ada", "paid ada"]);
        Ok(())
    })
    .await
}

/// A round whose tool panics fails with `-32603` rather than leave its client waiting, and is
/// recorded like any failure: a retry of its state gets the same error, and what the round did
/// before the panic does not happen again.
#[tokio::test]
async fn a_round_that_panics_fails_and_is_not_run_again() -> anyhow::Result<()> {
    bounded(async {
        let effects = Effects::default();
        let (_served, client) =
            serve(Ledger::new(engine().build()?, &effects, Gate::open())).await?;
        let first = asked(&client, pay("crash", None, json!({}))).await?;
        for _ in 0..2 {
            let error = failed(&client, pay("crash", Some(&first.state), yes())).await?;
            assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
            assert_eq!(error.message, "the tool failed");
        }
        assert_eq!(effects.count("charging crash"), 1);
        // The server goes on serving.
        let next = asked(&client, pay("bob", None, json!({}))).await?;
        let result = done(&client, pay("bob", Some(&next.state), yes())).await?;
        assert_eq!(text_of(&result), "paid 5 to bob (payment 1)");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_duplicate_of_a_question_round_gets_the_same_next_state() -> anyhow::Result<()> {
    bounded(async {
        let effects = Effects::default();
        let (_served, client) =
            serve(Ledger::new(engine().build()?, &effects, Gate::open())).await?;
        let first = asked(&client, pay("bob", None, json!({}))).await?;

        // Sent back with no answer, the question comes again with a new state...
        let again = asked(&client, pay("bob", Some(&first.state), json!({}))).await?;
        assert_eq!(again.key, "confirm");
        assert_ne!(again.state, first.state);
        // ...and every later copy of the same request gets that same question and state,
        // answered or not: a re-sent state never comes back with a fresh expiry, and answers
        // cannot fork it.
        for answers in [json!({}), yes(), no()] {
            let copy = asked(&client, pay("bob", Some(&first.state), answers)).await?;
            assert_eq!(copy, again);
        }
        assert!(effects.all().is_empty());

        let result = done(&client, pay("bob", Some(&again.state), yes())).await?;
        assert_eq!(text_of(&result), "paid 5 to bob (payment 1)");
        assert_eq!(effects.count("paid bob"), 1);
        Ok(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_waits_for_the_first_with_a_bound() -> anyhow::Result<()> {
    bounded(async {
        let effects = Effects::default();
        let gate = Gate::closed();
        let engine = engine()
            .duplicate_wait(Duration::from_millis(300))
            .build()?;
        let (_served, client) = serve(Ledger::new(engine, &effects, gate.clone())).await?;
        let client = Arc::new(client);
        let first = asked(&client, pay("cy", None, json!({}))).await?;

        let running = {
            let client = client.clone();
            let params = pay("cy", Some(&first.state), yes());
            tokio::spawn(async move { done(&client, params).await })
        };
        effects.happened("charging cy").await;

        // The first is still running: the duplicate waits its bound, then gives up, unrun.
        let busy = failed(&client, pay("cy", Some(&first.state), yes())).await?;
        assert_eq!(busy.code, ErrorCode::INTERNAL_ERROR);
        assert!(busy.message.contains("already being answered"), "{busy:?}");
        assert_eq!(effects.count("charging cy"), 1);

        gate.release();
        let result = running.await??;
        let later = done(&client, pay("cy", Some(&first.state), yes())).await?;
        assert_eq!(
            serde_json::to_value(&later)?,
            serde_json::to_value(&result)?
        );
        assert_eq!(effects.all(), ["charging cy", "paid cy"]);
        Ok(())
    })
    .await
}

/// The one at-least-once window: an instance dies after claiming a round and before answering.
/// Its claim blocks retries until its lease lapses; then a retry runs the round again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_instances_round_runs_again_after_its_lease() -> anyhow::Result<()> {
    bounded(async {
        let store = Arc::new(MemoryStore::default());
        let effects = Effects::default();
        let lease = Duration::from_secs(1);
        let instance = |gate: Gate| -> anyhow::Result<Ledger> {
            let engine = engine()
                .replay_store(store.clone())
                .lease(lease)
                .duplicate_wait(Duration::from_millis(200))
                .build()?;
            Ok(Ledger::new(engine, &effects, gate))
        };

        // Instance A runs on a runtime of its own, so that the test can kill it mid-round.
        let runtime_a = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()?;
        let a = instance(Gate::closed())?;
        let served_a = runtime_a.spawn(Served::start(a)).await??;
        let client_a = Arc::new(demo::connect(&served_a.url).await?);
        let (_served_b, client_b) = serve(instance(Gate::open())?).await?;

        let first = asked(&client_a, pay("dee", None, json!({}))).await?;
        let final_round = pay("dee", Some(&first.state), yes());
        let stuck = {
            let client_a = client_a.clone();
            let params = final_round.clone();
            tokio::spawn(async move { send(&client_a, params).await })
        };
        effects.happened("charging dee").await;
        // A dies: every task of its runtime is dropped where it stands.
        runtime_a.shutdown_background();
        assert!(stuck.await?.is_err(), "A's client sees its request fail");

        // A retry on B while A's lease holds is not run...
        let busy = failed(&client_b, final_round.clone()).await?;
        assert!(busy.message.contains("already being answered"), "{busy:?}");
        assert_eq!(effects.count("charging dee"), 1);

        // ...and once it lapses, the client's retry runs the round again and completes.
        let result = loop {
            match send(&client_b, final_round.clone()).await {
                Ok(Reply::Done(result)) => break result,
                Err(ServiceError::McpError(error))
                    if error.message.contains("already being answered") =>
                {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                other => anyhow::bail!("unexpected reply: {other:?}"),
            }
        };
        assert_eq!(text_of(&result), "paid 5 to dee (payment 1)");
        assert_eq!(effects.all(), ["charging dee", "charging dee", "paid dee"]);

        // From then on the round is done: duplicates get B's response.
        let again = done(&client_b, final_round).await?;
        assert_eq!(
            serde_json::to_value(&again)?,
            serde_json::to_value(&result)?
        );
        assert_eq!(effects.count("charging dee"), 2);
        drop(served_a);
        Ok(())
    })
    .await
}

/// A store written by a user: one that cannot be reached, or one that keeps records for a
/// fixed time whatever their states say.
struct UserStore {
    reachable: bool,
    retention: Option<Duration>,
}

impl UserStore {
    fn unreachable() -> Self {
        Self {
            reachable: false,
            retention: None,
        }
    }

    fn keeping_records_for(retention: Duration) -> Self {
        Self {
            reachable: true,
            retention: Some(retention),
        }
    }

    fn answer<T>(&self, answer: T) -> Result<T, StoreError> {
        match self.reachable {
            true => Ok(answer),
            false => Err(StoreError::unavailable("connection refused by 127.0.0.1:1")),
        }
    }
}

#[mrtr::replay::async_trait]
impl ReplayStore for UserStore {
    async fn claim(
        &self,
        _: RoundKey,
        _: Holder,
        _: Duration,
        _: SystemTime,
    ) -> Result<Claim, StoreError> {
        self.answer(Claim::Won)
    }

    async fn renew(&self, _: RoundKey, _: Holder, _: Duration) -> Result<bool, StoreError> {
        self.answer(true)
    }

    async fn complete(
        &self,
        _: RoundKey,
        _: Holder,
        _: Recorded,
        _: SystemTime,
    ) -> Result<bool, StoreError> {
        self.answer(true)
    }

    fn retention(&self) -> Option<Duration> {
        self.retention
    }

    fn is_shared(&self) -> bool {
        true
    }
}

/// A memory store, reached through the trait, whose first `failures` completions fail, as a
/// Redis link that drops for a moment does.
struct FlakyCompletions {
    inner: MemoryStore,
    failures: AtomicU32,
}

#[mrtr::replay::async_trait]
impl ReplayStore for FlakyCompletions {
    async fn claim(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
        expires_at: SystemTime,
    ) -> Result<Claim, StoreError> {
        self.inner.claim(key, holder, lease, expires_at).await
    }

    async fn renew(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        self.inner.renew(key, holder, lease).await
    }

    async fn complete(
        &self,
        key: RoundKey,
        holder: Holder,
        response: Recorded,
        expires_at: SystemTime,
    ) -> Result<bool, StoreError> {
        let failing = self
            .failures
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
                left.checked_sub(1)
            })
            .is_ok();
        if failing {
            return Err(StoreError::unavailable("connection reset by 127.0.0.1:1"));
        }
        self.inner.complete(key, holder, response, expires_at).await
    }

    fn is_shared(&self) -> bool {
        true
    }
}

/// A response the store did not take at once is recorded on a later try, within the lease:
/// a duplicate waits for it and gets it, and the round does not run again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_response_the_store_missed_once_is_recorded_on_a_later_try() -> anyhow::Result<()> {
    bounded(async {
        let effects = Effects::default();
        let store = FlakyCompletions {
            inner: MemoryStore::default(),
            failures: AtomicU32::new(2),
        };
        let engine = engine()
            .replay_store(store)
            .lease(Duration::from_secs(1))
            .build()?;
        let (_served, client) = serve(Ledger::new(engine, &effects, Gate::open())).await?;
        let first = asked(&client, pay("ada", None, json!({}))).await?;
        let result = done(&client, pay("ada", Some(&first.state), yes())).await?;
        assert_eq!(text_of(&result), "paid 5 to ada (payment 1)");
        let again = done(&client, pay("ada", Some(&first.state), yes())).await?;
        assert_eq!(text_of(&again), "paid 5 to ada (payment 1)");
        assert_eq!(effects.all(), ["charging ada", "paid ada"]);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_unreachable_store_fails_closed() -> anyhow::Result<()> {
    bounded(async {
        let effects = Effects::default();
        let engine = engine().replay_store(UserStore::unreachable()).build()?;
        let (_served, client) = serve(Ledger::new(engine, &effects, Gate::open())).await?;
        // A first call claims nothing, so it asks as usual.
        let first = asked(&client, pay("eve", None, json!({}))).await?;
        // Its retry must be claimed, and cannot be: no code of the round runs.
        let error = failed(&client, pay("eve", Some(&first.state), yes())).await?;
        assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
        assert!(
            !error.message.contains("127.0.0.1"),
            "the reason stays in the log: {error:?}"
        );
        assert!(effects.all().is_empty());
        Ok(())
    })
    .await
}

#[test]
fn a_store_that_forgets_records_before_their_states_expire_is_refused() {
    let five_minutes = Duration::from_secs(300);
    let error: ConfigError = engine()
        .replay_store(UserStore::keeping_records_for(five_minutes))
        .build()
        .unwrap_err();
    let message = error.to_string();
    assert!(message.contains("keeps records for 300s"), "{message}");
    assert!(message.contains("state stays valid for 600s"), "{message}");
    assert!(message.contains("at least 660s"), "{message}");

    // A TTL that, with the clock skew allowance, fits the retention is accepted.
    let fits = engine()
        .replay_store(UserStore::keeping_records_for(five_minutes))
        .ttl(Duration::from_secs(240))
        .build();
    assert!(fits.is_ok());
    let no_skew = engine()
        .replay_store(UserStore::keeping_records_for(five_minutes))
        .ttl(five_minutes)
        .clock_skew(Duration::ZERO)
        .build();
    assert!(no_skew.is_ok());
}

#[tokio::test]
async fn a_full_memory_store_refuses_new_flows_first_and_forgets_nothing() -> anyhow::Result<()> {
    bounded(async {
        let effects = Effects::default();
        let engine = engine()
            .replay_store(MemoryStore::with_capacity(10))
            .build()?;
        let (_served, client) = serve(Ledger::new(engine, &effects, Gate::open())).await?;

        // Nine flows, each past one round: nine records, the store's 90% mark.
        let mut open = Vec::new();
        for n in 0..9 {
            let payee = format!("p{n}");
            let first = asked(&client, pay(&payee, None, json!({}))).await?;
            let second = asked(&client, pay(&payee, Some(&first.state), json!({}))).await?;
            open.push((payee, first, second));
        }
        let refused = failed(&client, pay("late", None, json!({}))).await?;
        assert_eq!(refused.code, ErrorCode::INTERNAL_ERROR);
        assert!(
            refused.message.contains("too many calls in progress"),
            "{refused:?}"
        );

        // A flow in progress still finishes: the last tenth is kept for them.
        let (payee, _, second) = &open[0];
        let paid = done(&client, pay(payee, Some(&second.state), yes())).await?;
        assert_eq!(text_of(&paid), "paid 5 to p0 (payment 1)");
        // Full now: no round of any flow runs unguarded.
        let (payee, _, second) = &open[1];
        let full = failed(&client, pay(payee, Some(&second.state), yes())).await?;
        assert!(
            full.message.contains("too many calls in progress"),
            "{full:?}"
        );
        // And no record was dropped to make room: the first flow's old states still answer
        // with their first responses.
        for (payee, first, second) in &open {
            let copy = asked(&client, pay(payee, Some(&first.state), yes())).await?;
            assert_eq!(copy.state, second.state);
        }
        assert_eq!(effects.all(), ["charging p0", "paid p0"]);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_tool_that_allows_replay_runs_each_copy() -> anyhow::Result<()> {
    bounded(async {
        let effects = Effects::default();
        let (_served, client) =
            serve(Ledger::new(engine().build()?, &effects, Gate::open())).await?;
        let first = asked(&client, call("balance", json!({}), None, json!({}))).await?;
        let answer = json!({"account": accept(json!({"account": "savings"}))});
        for _ in 0..2 {
            let result = done(
                &client,
                call("balance", json!({}), Some(&first.state), answer.clone()),
            )
            .await?;
            assert_eq!(text_of(&result), "savings: 42");
        }
        assert_eq!(effects.all(), ["read savings", "read savings"]);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn no_state_outlives_its_flows_deadline() -> anyhow::Result<()> {
    bounded(async {
        let clock = TestClock::default();
        let now = clock.clone();
        let engine = engine()
            .clock(move || now.now())
            .ttl(Duration::from_secs(120))
            .flow_lifetime(Duration::from_secs(300))
            .build()?;
        let effects = Effects::default();
        let (_served, client) = serve(Ledger::new(engine, &effects, Gate::open())).await?;

        // Each re-ask hands out a new state, but none expires past the first round + 300 s.
        let mut state = asked(&client, pay("fay", None, json!({}))).await?.state;
        for step in [100, 100, 90] {
            clock.advance(Duration::from_secs(step));
            state = asked(&client, pay("fay", Some(&state), json!({})))
                .await?
                .state;
        }
        // 290 s in: the last state was sealed 0 s ago with a 120 s TTL, yet the flow ends at 300.
        clock.advance(Duration::from_secs(15));
        let error = failed(&client, pay("fay", Some(&state), yes())).await?;
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(effects.all().is_empty());
        Ok(())
    })
    .await
}

/// An engine clock that runs behind the system's (a skewed host, or a test clock): the store
/// keeps a record by its own clock for as long as the state has left on the engine's, so a
/// duplicate still gets the first response instead of running the round again.
#[tokio::test]
async fn an_engine_clock_behind_the_system_clock_keeps_each_state_single_use() -> anyhow::Result<()>
{
    bounded(async {
        for lag in [Duration::from_secs(3600), Duration::from_secs(120)] {
            let effects = Effects::default();
            let engine = engine()
                .clock(move || SystemTime::now() - lag)
                .ttl(Duration::from_secs(60))
                .build()?;
            let (_served, client) = serve(Ledger::new(engine, &effects, Gate::open())).await?;
            let first = asked(&client, pay("hal", None, json!({}))).await?;
            for _ in 0..2 {
                let paid = done(&client, pay("hal", Some(&first.state), yes())).await?;
                assert_eq!(text_of(&paid), "paid 5 to hal (payment 1)", "lag {lag:?}");
            }
            assert_eq!(effects.all(), ["charging hal", "paid hal"], "lag {lag:?}");
        }
        Ok(())
    })
    .await
}

/// States carry whole seconds: a state sealed late in a second still lives its whole TTL, and
/// no more than a second past it.
#[tokio::test]
async fn a_state_lives_at_least_its_ttl_and_less_than_a_second_more() -> anyhow::Result<()> {
    bounded(async {
        let at = Arc::new(Mutex::new(SystemTime::UNIX_EPOCH));
        let reading = at.clone();
        let engine = engine()
            .clock(move || *reading.lock().unwrap())
            .ttl(Duration::from_secs(1))
            .build()?;
        let effects = Effects::default();
        let (_served, client) = serve(Ledger::new(engine, &effects, Gate::open())).await?;
        // A fixed clock, an hour ahead, at .950 of a second.
        let ahead =
            SystemTime::now().duration_since(SystemTime::UNIX_EPOCH)? + Duration::from_secs(3600);
        let sealed_at = Duration::from_secs(ahead.as_secs()) + Duration::from_millis(950);
        let set = |after: u64| {
            *at.lock().unwrap() = SystemTime::UNIX_EPOCH + sealed_at + Duration::from_millis(after);
        };
        // Sealed at .950 of a second: still open 990 ms later.
        set(0);
        let first = asked(&client, pay("ivy", None, json!({}))).await?;
        set(990);
        let paid = done(&client, pay("ivy", Some(&first.state), yes())).await?;
        assert_eq!(text_of(&paid), "paid 5 to ivy (payment 1)");
        // And refused once the second after its TTL began.
        set(0);
        let second = asked(&client, pay("jo", None, json!({}))).await?;
        set(1050);
        let late = failed(&client, pay("jo", Some(&second.state), yes())).await?;
        assert_eq!(late.code, ErrorCode::INVALID_PARAMS);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn the_round_cap_is_sealed_into_the_flow_and_enforced() -> anyhow::Result<()> {
    bounded(async {
        let effects = Effects::default();
        let store = Arc::new(MemoryStore::default());
        let capped = engine().replay_store(store.clone()).max_rounds(3).build()?;
        let generous = engine().replay_store(store).build()?;
        let (_served_a, client_a) = serve(Ledger::new(capped, &effects, Gate::open())).await?;
        let (_served_b, client_b) = serve(Ledger::new(generous, &effects, Gate::open())).await?;

        // Started under a cap of 3, continued on an instance whose own cap is 100.
        let first = asked(&client_a, pay("gus", None, json!({}))).await?;
        let second = asked(&client_b, pay("gus", Some(&first.state), json!({}))).await?;
        let third = asked(&client_b, pay("gus", Some(&second.state), json!({}))).await?;
        let error = failed(&client_b, pay("gus", Some(&third.state), json!({}))).await?;
        assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
        assert!(error.message.contains("more than 3 rounds"), "{error:?}");

        // A flow started on the generous instance goes past 3.
        let mut state = asked(&client_b, pay("hal", None, json!({}))).await?.state;
        for _ in 0..5 {
            state = asked(&client_b, pay("hal", Some(&state), json!({})))
                .await?
                .state;
        }
        let paid = done(&client_b, pay("hal", Some(&state), yes())).await?;
        assert_eq!(text_of(&paid), "paid 5 to hal (payment 1)");
        Ok(())
    })
    .await
}

/// A Redis that restarts empty while a round runs takes the round's claim with it: the client
/// that ran the round still gets its response, the log says the claim was lost rather than
/// that another request took the round over, and a retry of the state runs the round again (a
/// Redis that restarts empty lets a state run once more).
#[test]
fn a_redis_that_restarts_empty_mid_round_loses_its_claim_and_says_so() -> anyhow::Result<()> {
    let lines = LogLines::default();
    // One thread, so that the log of every task the round spawns is captured.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let lease = Duration::from_millis(600);
    lines.capture(tracing::Level::WARN, || {
        runtime.block_on(bounded(async {
            let mut redis = RedisServer::start().await?;
            let effects = Effects::default();
            let gate = Gate::closed();
            let engine = engine()
                .replay_store(RedisStore::open(&redis.url())?)
                .lease(lease)
                .build()?;
            let (_served, client) = serve(Ledger::new(engine, &effects, gate.clone())).await?;
            let first = asked(&client, pay("eve", None, json!({}))).await?;
            let final_round = pay("eve", Some(&first.state), yes());

            let (result, restarted) = tokio::join!(done(&client, final_round.clone()), async {
                effects.happened("charging eve").await;
                redis.restart().await?;
                // A renewal of the lease finds the claim gone.
                tokio::time::sleep(lease / 2).await;
                gate.release();
                anyhow::Ok(())
            });
            restarted?;
            assert_eq!(text_of(&result?), "paid 5 to eve (payment 1)");

            let again = done(&client, final_round).await?;
            assert_eq!(text_of(&again), "paid 5 to eve (payment 2)");
            // Recording the first response finds no claim (maybe on a later try).
            mrtr_tests::poll::until("a warning of the lost claim", 4 * lease, || {
                lines.text().contains("the store lost its claim")
            })
            .await
        }))
    })?;
    let logs = lines.text();
    assert!(
        !logs.contains("a round finished after its lease lapsed"),
        "{logs}"
    );
    Ok(())
}

/// A Redis that goes down as a round finishes, and comes back with its records (saved to disk)
/// within the lease: the client that ran the round gets its response, mrtr records it on a later
/// try, and a retry gets that response instead of running the round again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_back_within_the_lease_gets_the_response_recorded_on_a_later_try()
-> anyhow::Result<()> {
    bounded(async {
        let mut redis = RedisServer::start().await?;
        let effects = Effects::default();
        let gate = Gate::closed();
        let store = RedisStore::open(&redis.url())?.with_timeout(Duration::from_millis(200));
        let engine = engine()
            .replay_store(store)
            .lease(Duration::from_secs(5))
            .build()?;
        let (_served, client) = serve(Ledger::new(engine, &effects, gate.clone())).await?;
        let first = asked(&client, pay("fay", None, json!({}))).await?;
        let final_round = pay("fay", Some(&first.state), yes());

        let (result, outage) = tokio::join!(done(&client, final_round.clone()), async {
            effects.happened("charging fay").await;
            // The claim is on disk; Redis dies, and the round finishes while it is down.
            redis.command(&["SAVE"]).await?;
            redis.stop();
            gate.release();
            effects.happened("paid fay").await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            redis.restart().await
        });
        outage?;
        let result = result?;
        assert_eq!(text_of(&result), "paid 5 to fay (payment 1)");

        // Well within the lease, the retry gets the first response.
        let again = done(&client, final_round).await?;
        assert_eq!(
            serde_json::to_value(&again)?,
            serde_json::to_value(&result)?
        );
        assert_eq!(effects.all(), ["charging fay", "paid fay"]);
        Ok(())
    })
    .await
}

/// The same final state sent to two instances on one Redis while its round runs: the instance
/// that claimed it runs it, the other waits and sends its response, and the effect runs once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_on_another_instance_waits_for_the_round_on_redis() -> anyhow::Result<()> {
    bounded(async {
        let redis = RedisServer::start().await?;
        let effects = Effects::default();
        let gate = Gate::closed();
        let instance = || -> anyhow::Result<Ledger> {
            let engine = engine()
                .replay_store(RedisStore::open(&redis.url())?)
                .build()?;
            Ok(Ledger::new(engine, &effects, gate.clone()))
        };
        let (_served_a, client_a) = serve(instance()?).await?;
        let (_served_b, client_b) = serve(instance()?).await?;
        let first = asked(&client_a, pay("gus", None, json!({}))).await?;
        let final_round = pay("gus", Some(&first.state), yes());

        let (on_a, on_b) = tokio::join!(done(&client_a, final_round.clone()), async {
            effects.happened("charging gus").await;
            let on_b = done(&client_b, final_round.clone());
            tokio::pin!(on_b);
            // B waits while A's round runs...
            let early = tokio::time::timeout(Duration::from_millis(300), &mut on_b).await;
            assert!(
                early.is_err(),
                "B answered while A ran the round: {early:?}"
            );
            // ...and answers once A has.
            gate.release();
            on_b.await
        });
        let (on_a, on_b) = (on_a?, on_b?);
        assert_eq!(text_of(&on_a), "paid 5 to gus (payment 1)");
        assert_eq!(serde_json::to_value(&on_b)?, serde_json::to_value(&on_a)?);
        assert_eq!(effects.all(), ["charging gus", "paid gus"]);
        Ok(())
    })
    .await
}
