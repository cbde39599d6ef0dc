//! What mrtr costs per round, against tools hand-written on rmcp, in the same run.
//!
//! - **Against hand-written tools** (P1, P2): `signup` (three questions) and `wizard5` (five)
//!   run on two servers over rmcp on an in-memory duplex: the wizard, and
//!   [`HandWritten`], what a careful author writes with rmcp alone (a step enum sealed with
//!   rmcp's HMAC `RequestStateCodec`, bound to the arguments). mrtr encrypts as well
//!   (AES-256-GCM-SIV) and guards single use, so the ratio includes both. Two ratios: the time
//!   of whole calls, client included, all on one thread; and the servers' CPU time alone, each
//!   server on a thread of its own, which is what P1 states. State sizes too.
//! - **Single use**: the same three rounds on a tool that allows replay (no guard), on a
//!   single-use tool with the in-memory replay store, and with a Redis store on a
//!   `redis-server` the benchmark starts on loopback (skipped, with a note, if not installed).
//! - **Seal and open** (P3): a state with 256 B of locals, both modes, beside rmcp's codec.
//! - **A long flow** (P4): one round of a 51-question flow at round 2 and at round 50.
//!
//! Ratios come from alternating blocks in the same run, each with a 95% interval for its
//! median (bootstrap over the blocks) and whether that shows its goal met, and, with valgrind
//! installed, from instruction counts of copies of this benchmark under callgrind, which noise
//! cannot move. Everything is also written to `target/bench-results/rounds.json` for the
//! plots; a filtered run (`-- long_flow`) keeps the other parts' results there.
//!
//! `cargo bench -p mrtr-tests --bench rounds`; for a quick before-and-after check of a change,
//! `MRTR_BENCH_PAIRED=wizard5` (or `signup`) runs only that tool's paired ratio, nine times;
//! `signup_unguarded` pairs the hand-written `signup` with the same mrtr body under
//! `replay = "allow"`, which like the hand-written tool does not enforce single use; `guard`
//! pairs that body with its single-use twin on one server. Each with `server:` before it
//! (`MRTR_BENCH_PAIRED=server:signup`) compares the servers' CPU time instead of the calls'.
//! `MRTR_BENCH_PAIRED=server:long_flow` runs only P4's ratio by the server's CPU, once.
//! `MRTR_BENCH_TTL` sets the steady engine's state TTL in seconds (2 by default), and
//! `MRTR_BENCH_WARMUP` how many seconds the paired ratios run before each measure (the TTL and
//! a second by default): long enough, 15 s here, for the memory store's ring buffers to have
//! come round once, so that no block pays for touching their pages the first time.

use std::{collections::BTreeMap, sync::Mutex, time::Duration};

use criterion::{BenchmarkFilter, Criterion};
use mrtr::{
    Engine,
    replay::{MemoryStore, RedisStore},
};
use mrtr_examples::wizard::Wizard;
use mrtr_tests::{
    baseline::HandWritten,
    bench_results,
    long_flow::LongFlow,
    services::RedisServer,
    signups::Signups,
    stats::{Paired, Side, median},
};
use rmcp::{
    ClientLifecycleMode, ClientServiceExt, ServerHandler, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, ClientConfig, InputResponses, JsonObject,
        ProtocolVersion,
    },
    service::{RoleClient, RunningService},
};
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ClientConfig>;

async fn connect<S: ServerHandler + Send + 'static>(server: S) -> Client {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    client_over(client_io).await
}

/// A 2026-07-28 client on its end of a duplex.
async fn client_over(client_io: tokio::io::DuplexStream) -> Client {
    mrtr_examples::demo::elicitation_client()
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("client connects")
}

/// A server on a thread of its own, so that its CPU time is read apart from the client's: P1
/// is about the server's CPU, and on one thread the client's work (parsing the questions is
/// most of it) would count on both sides alike and shrink every difference.
struct ServerThread {
    /// `/proc/self/task/TID/schedstat` of the server's thread.
    schedstat: std::path::PathBuf,
}

impl ServerThread {
    /// Nanoseconds its thread has run: the first field of its `schedstat`.
    fn cpu_ns(&self) -> u64 {
        let schedstat = std::fs::read_to_string(&self.schedstat).expect("the server's schedstat");
        schedstat
            .split_whitespace()
            .next()
            .and_then(|ns| ns.parse().ok())
            .expect("nanoseconds first in schedstat")
    }
}

/// Pins this process's threads, and those it starts later, to the CPU it runs on. With the
/// client and the server on two CPUs, each round wakes a thread on the other one, and that
/// wake-up, charged to the server at random, doubled its CPU time in some blocks and not in
/// others; on one CPU the blocks agree within a few percent.
#[cfg(target_os = "linux")]
fn pin_to_one_cpu() {
    // SAFETY: `sched_getcpu` reads, and `sched_setaffinity` is given a set it owns, of its size.
    unsafe {
        let cpu = libc::sched_getcpu();
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(usize::try_from(cpu).unwrap_or(0), &mut set);
        let pinned = libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set);
        assert_eq!(
            pinned,
            0,
            "pinning to CPU {cpu}: {}",
            std::io::Error::last_os_error()
        );
    }
}

/// The servers' CPU time is read from Linux's `/proc`, so the measure runs on Linux only.
#[cfg(not(target_os = "linux"))]
fn pin_to_one_cpu() {
    panic!("the servers' CPU time is measured on Linux only (/proc/self/task/TID/schedstat)");
}

/// Whether this system has what the servers' CPU measure reads.
const SERVER_CPU_MEASURED: bool = cfg!(target_os = "linux");

/// Connects a client on the calling runtime to `server`, served on a thread of its own with a
/// runtime of its own; the thread ends when the client goes.
async fn connect_on_own_thread<S: ServerHandler + Send + 'static>(
    server: S,
) -> (Client, ServerThread) {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let (send_path, path) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let own = std::fs::read_link("/proc/thread-self").expect("/proc/thread-self on Linux");
        send_path
            .send(std::path::Path::new("/proc").join(own).join("schedstat"))
            .unwrap();
        runtime().block_on(async move {
            if let Ok(running) = server.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
    });
    let schedstat = path.recv().expect("the server thread starts");
    (client_over(client_io).await, ServerThread { schedstat })
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A tool, its arguments and the text it must end with.
#[derive(Clone, Copy)]
struct Flow {
    tool: &'static str,
    arguments: fn() -> Value,
    expected: &'static str,
}

const SIGNED_UP: &str = "Signed up Ada to Rust on the pro plan";
const SIGNUP: Flow = Flow {
    tool: "signup",
    arguments: || json!({"team": "Rust"}),
    expected: SIGNED_UP,
};
const SIGNUP_REPLAYABLE: Flow = Flow {
    tool: "signup_replayable",
    ..SIGNUP
};
const WIZARD5: Flow = Flow {
    tool: "wizard5",
    arguments: || json!({}),
    expected: "a1, a2, a3, a4, a5",
};

/// The answer the benchmarks give to each question they are asked.
fn answer(key: &str) -> Value {
    let content = match key {
        "profile" => json!({"name": "Ada", "email": "ada@example.com"}),
        "plan" => json!({"plan": "pro"}),
        "confirm" => json!({"confirm": true}),
        // `wizard5`'s q1..q5: the answer names its question.
        _ => json!({"answer": format!("a{}", key.trim_start_matches('q'))}),
    };
    json!({"action": "accept", "content": content})
}

/// One whole call, round by round, answering each question with [`answer`]; returns the size
/// of each round's state.
async fn run(client: &Client, flow: Flow) -> Vec<usize> {
    let arguments: JsonObject = serde_json::from_value((flow.arguments)()).unwrap();
    let mut params = CallToolRequestParams::new(flow.tool).with_arguments(arguments);
    let mut sizes = Vec::new();
    loop {
        match client
            .call_tool_once(params.clone())
            .await
            .expect("round succeeds")
        {
            CallToolResponse::Complete(result) => {
                assert_eq!(mrtr_examples::demo::text_of(&result), flow.expected);
                return sizes;
            }
            CallToolResponse::InputRequired(input) => {
                let key = input.input_requests.unwrap().into_keys().next().unwrap();
                sizes.push(input.request_state.as_ref().map_or(0, String::len));
                let answer = answer(&key);
                params.input_responses = Some(InputResponses::from([(key, answer)]));
                params.request_state = input.request_state;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}

/// What this run measured, written to `target/bench-results/rounds.json` at the end.
static RESULTS: Mutex<BTreeMap<String, Value>> = Mutex::new(BTreeMap::new());

fn record(key: impl Into<String>, value: Value) {
    RESULTS.lock().unwrap().insert(key.into(), value);
}

/// Clients of the wizard and of the hand-written server.
async fn wizard_and_hand_written() -> (Client, Client) {
    (
        connect(Wizard::new(steady_engine().build().unwrap())).await,
        connect(HandWritten::new()).await,
    )
}

/// P1 and P2: each flow on the wizard and on the hand-written server.
fn against_hand_written(c: &mut Criterion) {
    let runtime = runtime();
    let (mrtr, by_hand) = runtime.block_on(wizard_and_hand_written());
    for flow in [SIGNUP, WIZARD5] {
        let group_name = format!("{} rounds", flow.tool);
        if !selected(&["against_hand_written", &group_name]) {
            continue;
        }
        let mrtr_sizes = runtime.block_on(run(&mrtr, flow));
        let hand_sizes = runtime.block_on(run(&by_hand, flow));
        println!(
            "{}: requestState bytes per round: mrtr {mrtr_sizes:?}, hand-written {hand_sizes:?}",
            flow.tool
        );
        let mut group = c.benchmark_group(&group_name);
        group.measurement_time(Duration::from_secs(5));
        group.bench_function(BASELINE, |b| {
            b.to_async(&runtime).iter(|| run(&by_hand, flow))
        });
        group.bench_function(MRTR, |b| b.to_async(&runtime).iter(|| run(&mrtr, flow)));
        group.finish();
        let paired = paired_ratio(&runtime, Meter::Wall, (&by_hand, flow), (&mrtr, flow));
        println!(
            "{}: paired ratio mrtr / hand-written, time with the client: {paired}; at most \
             1.00: {}",
            flow.tool,
            paired.verdict(1.0)
        );
        let server_cpu = SERVER_CPU_MEASURED.then(|| server_cpu_ratio(&runtime, flow));
        match &server_cpu {
            Some(server_cpu) => println!(
                "{}: paired ratio mrtr / hand-written, server CPU: {server_cpu}; at most 1.00: {}",
                flow.tool,
                server_cpu.verdict(1.0)
            ),
            None => println!(
                "{}: no server CPU ratio: it is measured on Linux only",
                flow.tool
            ),
        }
        record(
            format!("duplex/{}", flow.tool),
            json!({
                "state_bytes": {"mrtr": mrtr_sizes, "hand_written": hand_sizes},
                "paired_ratio": paired.ratio,
                "paired_ratio_95_interval": paired.interval,
                "server_cpu_paired_ratio": server_cpu.as_ref().map(|paired| paired.ratio),
                "server_cpu_paired_ratio_95_interval": server_cpu.as_ref().map(|paired| paired.interval),
                "mean_ns": {
                    "mrtr": mean_ns(&group_name, MRTR),
                    "hand_written": mean_ns(&group_name, BASELINE),
                },
                "rounds": mrtr_sizes.len() + 1,
            }),
        );
    }
}

/// An engine whose replay store stays at its steady size during the run: records live as
/// long as their states, so a 2-second TTL keeps about two seconds' worth of rounds, as a
/// production store keeps one TTL's worth. (With the default 10 minutes the store would only
/// grow during a run, and the benchmark would measure its growth.)
fn steady_engine() -> mrtr::EngineBuilder {
    Engine::builder()
        .key(1, mrtr_tests::keys::test_key(7))
        .without_principal()
        .ttl(steady_ttl())
        .clock_skew(Duration::ZERO)
        .replay_store(MemoryStore::with_capacity(10_000_000))
}

/// The same three rounds without the guard, with the memory store and with Redis.
fn single_use(c: &mut Criterion) {
    if !selected(&["single_use", GUARD_GROUP]) {
        return;
    }
    let runtime = runtime();
    let redis = runtime.block_on(RedisServer::start());
    let (memory, on_redis) = runtime.block_on(async {
        let memory = connect(Signups::new(steady_engine().build().unwrap())).await;
        let on_redis = match &redis {
            Ok(redis) => {
                let store = RedisStore::open(&redis.url()).unwrap();
                Some(
                    connect(Signups::new(
                        steady_engine().replay_store(store).build().unwrap(),
                    ))
                    .await,
                )
            }
            Err(error) => {
                println!("no Redis measurement: {error}");
                None
            }
        };
        (memory, on_redis)
    });
    let mut group = c.benchmark_group(GUARD_GROUP);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function(NO_GUARD, |b| {
        b.to_async(&runtime)
            .iter(|| run(&memory, SIGNUP_REPLAYABLE))
    });
    group.bench_function(MEMORY_STORE, |b| {
        b.to_async(&runtime).iter(|| run(&memory, SIGNUP))
    });
    if let Some(on_redis) = &on_redis {
        group.bench_function(REDIS_STORE, |b| {
            b.to_async(&runtime).iter(|| run(on_redis, SIGNUP))
        });
    }
    group.finish();

    // The ratios, from blocks that alternate, so that noise on a shared machine falls on both
    // sides alike.
    let no_guard = (&memory, SIGNUP_REPLAYABLE);
    let memory_ratio = paired_ratio(&runtime, Meter::Wall, no_guard, (&memory, SIGNUP));
    println!(
        "paired ratio single use with {MEMORY_STORE} / no guard: {memory_ratio}; at most 1.05: {}",
        memory_ratio.verdict(1.05)
    );
    let mut guard = json!({
        "paired_ratio": {MEMORY_STORE: memory_ratio.ratio},
        "paired_ratio_95_interval": {MEMORY_STORE: memory_ratio.interval},
        "mean_ns": {
            NO_GUARD: mean_ns(GUARD_GROUP, NO_GUARD),
            MEMORY_STORE: mean_ns(GUARD_GROUP, MEMORY_STORE),
        },
    });
    if let Some(on_redis) = &on_redis {
        let redis_ratio = paired_ratio(&runtime, Meter::Wall, no_guard, (on_redis, SIGNUP));
        println!("paired ratio single use with {REDIS_STORE} / no guard: {redis_ratio}");
        guard["paired_ratio"][REDIS_STORE] = json!(redis_ratio.ratio);
        guard["paired_ratio_95_interval"][REDIS_STORE] = json!(redis_ratio.interval);
        guard["mean_ns"][REDIS_STORE] = json!(mean_ns(GUARD_GROUP, REDIS_STORE));
    }
    record("guard", guard);
    drop(redis);
}

/// P1 as it is stated: the CPU time of the wizard's server thread over the hand-written
/// server's, each on a thread of its own, the process pinned to one CPU (see
/// [`pin_to_one_cpu`]; the rest of the run stays pinned).
fn server_cpu_ratio(runtime: &tokio::runtime::Runtime, flow: Flow) -> Paired {
    pin_to_one_cpu();
    let ((mrtr, mrtr_thread), (by_hand, hand_thread)) = runtime.block_on(async {
        (
            connect_on_own_thread(Wizard::new(engine())).await,
            connect_on_own_thread(HandWritten::new()).await,
        )
    });
    paired_ratio(
        runtime,
        Meter::ServerCpu(&hand_thread, &mrtr_thread),
        (&by_hand, flow),
        (&mrtr, flow),
    )
}

/// What a block of calls costs: its wall time (client included, all on one thread), or the CPU
/// time of the server threads of the base and the other side.
#[derive(Clone, Copy)]
enum Meter<'a> {
    Wall,
    ServerCpu(&'a ServerThread, &'a ServerThread),
}

impl<'a> Meter<'a> {
    fn server(self, side: Side) -> Option<&'a ServerThread> {
        match (self, side) {
            (Meter::Wall, _) => None,
            (Meter::ServerCpu(base, _), Side::Base) => Some(base),
            (Meter::ServerCpu(_, other), Side::Other) => Some(other),
        }
    }

    /// What `block` costs, as this meter reads it for `side`.
    fn measure(self, side: Side, block: impl FnOnce()) -> f64 {
        let server = self.server(side);
        let (wall, cpu) = (std::time::Instant::now(), server.map(ServerThread::cpu_ns));
        block();
        match server.zip(cpu) {
            Some((server, cpu)) => (server.cpu_ns() - cpu) as f64,
            None => wall.elapsed().as_secs_f64(),
        }
    }
}

/// The ratio, over alternating blocks of calls, of the cost of `other`'s calls over `base`'s.
///
/// Both first run alternately for longer than the steady engine's TTL, so that the replay
/// store holds the records of this pace: after a criterion run at full speed, the first
/// seconds would also pay for dropping the records of that faster phase.
fn paired_ratio(
    runtime: &tokio::runtime::Runtime,
    meter: Meter<'_>,
    base: (&Client, Flow),
    other: (&Client, Flow),
) -> Paired {
    let start = std::time::Instant::now();
    while start.elapsed() < *STEADY_AFTER {
        runtime.block_on(run(base.0, base.1));
        runtime.block_on(run(other.0, other.1));
    }
    paired_blocks(
        runtime,
        meter,
        || run(base.0, base.1),
        || run(other.0, other.1),
    )
}

/// How long a new pace takes to reach its steady store: the steady engine's TTL and a second,
/// or `MRTR_BENCH_WARMUP` seconds.
static STEADY_AFTER: std::sync::LazyLock<Duration> = std::sync::LazyLock::new(|| {
    std::env::var("MRTR_BENCH_WARMUP")
        .ok()
        .and_then(|seconds| seconds.parse().ok())
        .map_or(steady_ttl() + Duration::from_secs(1), Duration::from_secs)
});

/// The steady engine's state TTL: 2 seconds, or `MRTR_BENCH_TTL` seconds, to see how the
/// guard's cost grows with the size of its store.
fn steady_ttl() -> Duration {
    let seconds = std::env::var("MRTR_BENCH_TTL")
        .ok()
        .and_then(|ttl| ttl.parse().ok())
        .unwrap_or(2);
    Duration::from_secs(seconds)
}

/// `other`'s cost over `base`'s, over 41 alternating blocks of 40 calls each: both run back
/// to back in every block, so drift in the machine's speed cancels out.
fn paired_blocks<B, O>(
    runtime: &tokio::runtime::Runtime,
    meter: Meter<'_>,
    base: impl Fn() -> B,
    other: impl Fn() -> O,
) -> Paired
where
    B: std::future::Future,
    O: std::future::Future,
{
    const BLOCKS: usize = 41;
    const CALLS: usize = 40;
    Paired::alternating(BLOCKS, |side| {
        meter.measure(side, || match side {
            Side::Base => runtime.block_on(async {
                for _ in 0..CALLS {
                    base().await;
                }
            }),
            Side::Other => runtime.block_on(async {
                for _ in 0..CALLS {
                    other().await;
                }
            }),
        })
    })
}

const GUARD_GROUP: &str = "single_use_three_rounds";
const NO_GUARD: &str = "no_guard";
const MEMORY_STORE: &str = "memory_store";
const REDIS_STORE: &str = "redis_store";

const BASELINE: &str = "hand_written_rmcp";
const MRTR: &str = "mrtr";

/// The mean time of one benchmark of this run, from criterion's own estimates.
fn mean_ns(group: &str, function: &str) -> Option<f64> {
    let path = bench_results::target_dir()
        .join("criterion")
        .join(group)
        .join(function)
        .join("new/estimates.json");
    let estimates: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    estimates["mean"]["point_estimate"].as_f64()
}

const ENVELOPE_GROUP: &str = "seal and open a 256 B state";
const ENCRYPTED: &str = "mrtr, AES-256-GCM-SIV";
const SIGNED: &str = "mrtr, sign-only HMAC-SHA256";
const RMCP_CODEC: &str = "rmcp RequestStateCodec, HMAC";
const ENVELOPE_KEY: &str = "seal_and_open_256_bytes_ns";

/// P3: sealing plus opening a state with 256 B of saved locals, in both of mrtr's modes,
/// beside rmcp's own HMAC codec on the same payload as the baseline.
fn envelope(c: &mut Criterion) {
    if !selected(&["envelope", ENVELOPE_GROUP]) {
        return;
    }
    let locals: Vec<u8> = (0..=255u8).collect();
    let encrypted = mrtr::internals::Sealer::new(false);
    let signed = mrtr::internals::Sealer::new(true);
    assert!(encrypted.round_trip(&locals) > 256 && signed.round_trip(&locals) > 256);
    let codec = rmcp::model::RequestStateCodec::try_new(vec![7u8; 32]).expect("a 32-byte key");
    let mut group = c.benchmark_group(ENVELOPE_GROUP);
    group.measurement_time(Duration::from_secs(3));
    group.bench_function(RMCP_CODEC, |b| {
        b.iter(|| {
            let sealed = codec.seal(std::hint::black_box(&locals));
            codec.open(&sealed).map(|opened| opened.len()).unwrap_or(0)
        })
    });
    group.bench_function(ENCRYPTED, |b| {
        b.iter(|| encrypted.round_trip(std::hint::black_box(&locals)))
    });
    group.bench_function(SIGNED, |b| {
        b.iter(|| signed.round_trip(std::hint::black_box(&locals)))
    });
    group.finish();
    let mut times = serde_json::Map::new();
    for mode in [RMCP_CODEC, ENCRYPTED, SIGNED] {
        times.insert(mode.to_owned(), json!(mean_ns(ENVELOPE_GROUP, mode)));
    }
    record(ENVELOPE_KEY, Value::Object(times));
}

const LONG_GROUP: &str = "one round of a 51-question flow";
const LONG_QUESTIONS: u32 = 51;
/// The rounds of the long flow that are timed: the request that answers question `n - 1`.
const LONG_ROUNDS: [usize; 2] = [2, 50];

/// The request of each round of a `questions_replayable` flow of [`LONG_QUESTIONS`], each with
/// the state and answer it carries; and each round's state size.
async fn long_flow_requests(client: &Client) -> (Vec<CallToolRequestParams>, Vec<usize>) {
    let arguments: JsonObject =
        serde_json::from_value(json!({ "questions": LONG_QUESTIONS })).unwrap();
    let mut params = CallToolRequestParams::new("questions_replayable").with_arguments(arguments);
    let (mut requests, mut sizes) = (Vec::new(), Vec::new());
    loop {
        requests.push(params.clone());
        match client.call_tool_once(params.clone()).await.unwrap() {
            CallToolResponse::InputRequired(input) => {
                let key = input.input_requests.unwrap().into_keys().next().unwrap();
                sizes.push(input.request_state.as_ref().map_or(0, String::len));
                let answer = json!({"action": "accept", "content": {"answer": format!("a{}", requests.len())}});
                params.input_responses = Some(InputResponses::from([(key, answer)]));
                params.request_state = input.request_state;
            }
            CallToolResponse::Complete(_) => return (requests, sizes),
            other => panic!("unexpected {other:?}"),
        }
    }
}

/// Round `round` of the long flow sent again: the size of the state it hands back. Panics
/// unless it asks.
async fn long_flow_round(
    client: &Client,
    requests: &[CallToolRequestParams],
    round: usize,
) -> usize {
    match client.call_tool_once(requests[round - 1].clone()).await {
        Ok(CallToolResponse::InputRequired(input)) => input.request_state.map_or(0, |s| s.len()),
        other => panic!("round {round}: {other:?}"),
    }
}

/// P4: one round at round 2 and at round 50 of a long flow. The tool allows replay, so the
/// same request resumes the flow afresh each time.
fn long_flow(c: &mut Criterion) {
    if !selected(&["long_flow", LONG_GROUP]) {
        return;
    }
    let runtime = runtime();
    let client = runtime.block_on(connect(LongFlow::new(long_flow_engine())));
    let (requests, sizes) = runtime.block_on(long_flow_requests(&client));
    let one_round = |round: usize| long_flow_round(&client, &requests, round);
    let mut group = c.benchmark_group(LONG_GROUP);
    group.measurement_time(Duration::from_secs(3));
    for round in LONG_ROUNDS {
        group.bench_function(format!("round {round}"), |b| {
            b.to_async(&runtime).iter(|| one_round(round))
        });
    }
    group.finish();
    // Pins the rest of the run to one CPU, as `server_cpu_ratio` does: after the criterion
    // runs, which are timed on both CPUs.
    let by_server_cpu = SERVER_CPU_MEASURED.then(|| long_flow_server_cpu(&runtime));
    let [early, late] = LONG_ROUNDS.map(|round| mean_ns(LONG_GROUP, &format!("round {round}")));
    let means = late.zip(early).map(|(late, early)| late / early);
    // The ratio P4 is judged by: alternating blocks, as for P1, so that drift between the two
    // criterion runs above does not move it.
    let [round_2, round_50] = LONG_ROUNDS;
    let paired = paired_blocks(
        &runtime,
        Meter::Wall,
        || one_round(round_2),
        || one_round(round_50),
    );
    println!(
        "round 50 / round 2 of a {LONG_QUESTIONS}-question flow: {paired} in alternating blocks; \
         at most 1.2: {}; {} from criterion's means",
        paired.verdict(1.2),
        means.map_or("none".to_owned(), |ratio| format!("{ratio:.3}"))
    );
    if let Some(server) = &by_server_cpu {
        println!(
            "round 50 / round 2 by the server's CPU alone: {server}; at most 1.2: {}",
            server.verdict(1.2)
        );
    }
    record(
        "long_flow",
        json!({
            "state_bytes": sizes,
            "round_ns": {"2": early, "50": late},
            "ratio_50_to_2": paired.ratio,
            "ratio_50_to_2_95_interval": paired.interval,
            "ratio_of_means": means,
            "server_cpu_ratio_50_to_2": by_server_cpu.as_ref().map(|paired| paired.ratio),
            "server_cpu_ratio_50_to_2_95_interval": by_server_cpu.as_ref().map(|paired| paired.interval),
        }),
    );
}

/// The long flow's engine, with the default TTL: the same states are sent again for the whole
/// measurement.
fn long_flow_engine() -> Engine {
    Engine::builder()
        .key(1, mrtr_tests::keys::test_key(7))
        .without_principal()
        .build()
        .unwrap()
}

/// P4 by the server's CPU alone: rounds 2 and 50 in alternating blocks on a long flow served
/// on a thread of its own, the process pinned to one CPU (see [`pin_to_one_cpu`]).
fn long_flow_server_cpu(runtime: &tokio::runtime::Runtime) -> Paired {
    pin_to_one_cpu();
    let (client, thread) =
        runtime.block_on(connect_on_own_thread(LongFlow::new(long_flow_engine())));
    let (requests, _) = runtime.block_on(long_flow_requests(&client));
    let one_round = |round: usize| long_flow_round(&client, &requests, round);
    let [round_2, round_50] = LONG_ROUNDS;
    paired_blocks(
        runtime,
        Meter::ServerCpu(&thread, &thread),
        || one_round(round_2),
        || one_round(round_50),
    )
}

/// Every part, each timed by criterion. A filter picks whole parts (see [`selected`]), so
/// criterion's own filter is off: it would skip only what criterion times, and each part also
/// measures around that.
fn benches() {
    let mut criterion = Criterion::default()
        .configure_from_args()
        .with_benchmark_filter(BenchmarkFilter::AcceptAll);
    against_hand_written(&mut criterion);
    single_use(&mut criterion);
    envelope(&mut criterion);
    long_flow(&mut criterion);
}

/// Set in a copy of this benchmark that only counts: `server:tool`, to call `CALLS` times.
const COUNT_ENV: &str = "MRTR_BENCH_COUNT";
const CALLS: usize = 300;
/// How many calls a counting copy makes instead, for profiling it under `perf`.
const CALLS_ENV: &str = "MRTR_BENCH_CALLS";
/// Set in a counting copy to serve on a thread of its own, so that `valgrind --tool=callgrind
/// --separate-threads=yes` counts the server apart from the client.
const SERVER_THREAD_ENV: &str = "MRTR_BENCH_SERVER_THREAD";

/// What a counting copy runs: `CALLS` whole flows of one tool on one server.
fn count_calls(spec: &str) {
    if let Some(round) = spec.strip_prefix("long:") {
        return count_long_flow_round(round.parse().expect("long:ROUND, a round of the long flow"));
    }
    let flow = match spec.split_once(':').map(|(_, tool)| tool) {
        Some("signup") => SIGNUP,
        Some("signup_replayable") => SIGNUP_REPLAYABLE,
        Some("wizard5") => WIZARD5,
        _ => panic!("{COUNT_ENV}={spec}: unknown tool"),
    };
    let runtime = runtime();
    runtime.block_on(async {
        let engine = || steady_engine().build().unwrap();
        let client = match spec.split_once(':').map(|(server, _)| server) {
            Some("signups") => connect_counted(Signups::new(engine())).await,
            Some("wizard") => connect_counted(Wizard::new(engine())).await,
            Some("hand") => connect_counted(HandWritten::new()).await,
            _ => panic!("{COUNT_ENV}={spec}: unknown server"),
        };
        for _ in 0..calls_to_count() {
            run(&client, flow).await;
        }
    });
}

/// A counting copy's client of `server`: on this thread, or on one of its own if
/// [`SERVER_THREAD_ENV`] is set.
async fn connect_counted<S: ServerHandler + Send + 'static>(server: S) -> Client {
    if std::env::var_os(SERVER_THREAD_ENV).is_some() {
        connect_on_own_thread(server).await.0
    } else {
        connect(server).await
    }
}

/// How many calls a counting copy makes: `CALLS`, or what [`CALLS_ENV`] says.
fn calls_to_count() -> usize {
    std::env::var(CALLS_ENV)
        .ok()
        .and_then(|calls| calls.parse().ok())
        .unwrap_or(CALLS)
}

/// What a counting copy runs for `long:ROUND`: the long flow's requests made once, then round
/// `ROUND` alone, `CALLS` times (the tool allows replay).
fn count_long_flow_round(round: usize) {
    let runtime = runtime();
    runtime.block_on(async {
        let client = connect(LongFlow::new(long_flow_engine())).await;
        let (requests, _) = long_flow_requests(&client).await;
        // The last request completes the flow; the rounds before it ask.
        assert!(
            (1..requests.len()).contains(&round),
            "{COUNT_ENV}=long:{round}: the flow asks in rounds 1 to {}",
            requests.len() - 1
        );
        for _ in 0..calls_to_count() {
            long_flow_round(&client, &requests, round).await;
        }
    });
}

/// Instructions a copy of this benchmark executes for `spec` (see [`count_calls`]), counted
/// by callgrind: exact and repeatable, whatever else the machine is doing.
fn instructions(spec: &str) -> Option<u64> {
    instructions_of_calls(spec, CALLS)
}

/// [`instructions`] of a copy that makes `calls` calls.
fn instructions_of_calls(spec: &str, calls: usize) -> Option<u64> {
    let output = std::process::Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(std::env::current_exe().ok()?)
        .env(COUNT_ENV, spec)
        .env(CALLS_ENV, calls.to_string())
        .output()
        .ok()?;
    let log = String::from_utf8_lossy(&output.stderr);
    let line = log.lines().find(|line| line.contains("I   refs:"))?;
    line.rsplit(' ').next()?.replace(',', "").parse().ok()
}

/// The ratio of instructions of `ours` over `base`, printed and recorded under `name`.
fn instruction_ratio(name: &str, base: &str, ours: &str) {
    match (instructions(base), instructions(ours)) {
        (Some(base_count), Some(our_count)) => {
            let ratio = our_count as f64 / base_count as f64;
            println!(
                "instructions {ours} / {base} (callgrind, {CALLS} flows each): {ratio:.4} \
                 ({} vs {} per flow)",
                our_count / CALLS as u64,
                base_count / CALLS as u64
            );
            record(
                format!("instructions/{name}"),
                json!({"ratio": ratio, "per_flow": {ours: our_count / CALLS as u64, base: base_count / CALLS as u64}}),
            );
        }
        _ => println!("no instruction counts for {name}: valgrind is not installed"),
    }
}

/// P4 in instructions: one round 50 of the long flow over one round 2, each less the
/// instructions of making the flow's requests (a copy that makes no call).
fn long_flow_instruction_ratio() {
    let [round_2, round_50] = LONG_ROUNDS.map(|round| format!("long:{round}"));
    let counts = (
        instructions_of_calls(&round_2, 0),
        instructions_of_calls(&round_2, CALLS),
        instructions_of_calls(&round_50, 0),
        instructions_of_calls(&round_50, CALLS),
    );
    let (Some(setup_2), Some(all_2), Some(setup_50), Some(all_50)) = counts else {
        return println!("no instruction counts for long_flow: valgrind is not installed");
    };
    let per_round = |all: u64, setup: u64| all.saturating_sub(setup) / CALLS as u64;
    let (early, late) = (per_round(all_2, setup_2), per_round(all_50, setup_50));
    let ratio = late as f64 / early as f64;
    println!(
        "instructions round 50 / round 2 of the long flow (callgrind, {CALLS} rounds each, client \
         included): {ratio:.4} ({late} vs {early} per round)"
    );
    record(
        "instructions/long_flow",
        json!({"ratio": ratio, "per_round": {"2": early, "50": late}}),
    );
}

/// Set to `signup` or `wizard5` to measure only that tool's paired ratio, nine times over:
/// a quick before-and-after check of a change. With `server:` before it (`server:signup`),
/// each server runs on a thread of its own and the ratio is of their CPU time alone.
const PAIRED_ENV: &str = "MRTR_BENCH_PAIRED";

fn paired_only(mode: &str) {
    if mode == "server:long_flow" {
        let paired = long_flow_server_cpu(&runtime());
        return println!("{mode}: round 50 / round 2 by the server's CPU: {paired}");
    }
    let (by_server_cpu, tool) = match mode.strip_prefix("server:") {
        Some(tool) => (true, tool),
        None => (false, mode),
    };
    if by_server_cpu {
        pin_to_one_cpu();
    }
    let runtime = runtime();
    let serve = |server: Server| {
        runtime.block_on(async {
            if by_server_cpu {
                let (client, thread) = match server {
                    Server::Wizard => connect_on_own_thread(Wizard::new(engine())).await,
                    Server::Signups => connect_on_own_thread(Signups::new(engine())).await,
                    Server::HandWritten => connect_on_own_thread(HandWritten::new()).await,
                };
                (client, Some(thread))
            } else {
                let client = match server {
                    Server::Wizard => connect(Wizard::new(engine())).await,
                    Server::Signups => connect(Signups::new(engine())).await,
                    Server::HandWritten => connect(HandWritten::new()).await,
                };
                (client, None)
            }
        })
    };
    // The base, hand-written or without the guard, and the other side.
    let (base, other) = match tool {
        // The guard's own cost: single use against `replay = "allow"`, on one server.
        "guard" => (
            (Server::Signups, SIGNUP_REPLAYABLE),
            (Server::Signups, SIGNUP),
        ),
        "signup" => ((Server::HandWritten, SIGNUP), (Server::Wizard, SIGNUP)),
        "wizard5" => ((Server::HandWritten, WIZARD5), (Server::Wizard, WIZARD5)),
        // The same body with `replay = "allow"`: what the hand-written tool does, no single use.
        "signup_unguarded" => (
            (Server::HandWritten, SIGNUP),
            (Server::Signups, SIGNUP_REPLAYABLE),
        ),
        _ => panic!(
            "{PAIRED_ENV}={mode}: use signup, wizard5, signup_unguarded or guard, with or \
             without server: before it"
        ),
    };
    let base_server = serve(base.0);
    let one_server = base.0 == other.0;
    let other_server = (!one_server).then(|| serve(other.0));
    let other_server = other_server.as_ref().unwrap_or(&base_server);
    let meter = match (&base_server.1, &other_server.1) {
        (Some(base), Some(other)) => Meter::ServerCpu(base, other),
        _ => Meter::Wall,
    };
    let ratios: Vec<f64> = (0..9)
        .map(|_| {
            paired_ratio(
                &runtime,
                meter,
                (&base_server.0, base.1),
                (&other_server.0, other.1),
            )
            .ratio
        })
        .collect();
    let what = match tool {
        "guard" => "single use / no guard",
        _ => "mrtr / hand-written",
    };
    let measure = if by_server_cpu {
        "server CPU"
    } else {
        "time, client included"
    };
    println!("{mode}: paired ratios {what}, {measure}: {ratios:.3?}");
    println!("{mode}: median {:.3}", median(&ratios));
}

/// The servers [`paired_only`] compares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Server {
    Wizard,
    Signups,
    HandWritten,
}

fn engine() -> Engine {
    steady_engine().build().unwrap()
}

/// The benchmark filter `cargo bench -p mrtr-tests --bench rounds -- FILTER` was given, if any:
/// the first argument that is neither one of criterion's options nor an option's value.
fn filter() -> Option<String> {
    // Criterion's options that take no value; every other one takes the next argument.
    const FLAGS: [&str; 14] = [
        "--verbose",
        "-v",
        "--quiet",
        "--noplot",
        "-n",
        "--discard-baseline",
        "--list",
        "--ignored",
        "--exact",
        "--quick",
        "--test",
        "--bench",
        "--nocapture",
        "--show-output",
    ];
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if !arg.starts_with('-') {
            return Some(arg);
        }
        if !arg.contains('=') && !FLAGS.contains(&arg.as_str()) {
            args.next();
        }
    }
    None
}

/// Whether a part of this benchmark runs: with no filter, or one that is part of its function's
/// or its criterion group's name.
fn selected(names: &[&str]) -> bool {
    filter().is_none_or(|filter| names.iter().any(|name| name.contains(&filter)))
}

fn main() {
    if let Ok(tool) = std::env::var(PAIRED_ENV) {
        return paired_only(&tool);
    }
    if let Ok(spec) = std::env::var(COUNT_ENV) {
        return count_calls(&spec);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    // Criterion's folders keep earlier runs' means: only those of groups this run measured.
    let measured = |key: &str| RESULTS.lock().unwrap().contains_key(key);
    for flow in [SIGNUP, WIZARD5] {
        let group = format!("{} rounds", flow.tool);
        let means = (mean_ns(&group, BASELINE), mean_ns(&group, MRTR));
        if let (true, (Some(baseline), Some(ours))) =
            (measured(&format!("duplex/{}", flow.tool)), means)
        {
            println!(
                "ratio mrtr / hand-written, {}: {:.3} ({:.1} us vs {:.1} us per flow)",
                flow.tool,
                ours / baseline,
                ours / 1000.0,
                baseline / 1000.0
            );
        }
    }
    if let (true, Some(codec)) = (measured(ENVELOPE_KEY), mean_ns(ENVELOPE_GROUP, RMCP_CODEC)) {
        for mode in [ENCRYPTED, SIGNED] {
            if let Some(ours) = mean_ns(ENVELOPE_GROUP, mode) {
                println!(
                    "seal + open of 256 B, {mode}: {:.2} us (goal: under 3 us); ratio to {RMCP_CODEC}: {:.2}",
                    ours / 1000.0,
                    ours / codec
                );
            }
        }
    }
    if selected(&["instructions"]) {
        instruction_ratio("signup", "hand:signup", "wizard:signup");
        instruction_ratio("wizard5", "hand:wizard5", "wizard:wizard5");
        instruction_ratio("guard", "signups:signup_replayable", "signups:signup");
        long_flow_instruction_ratio();
    }
    let results = std::mem::take(&mut *RESULTS.lock().unwrap());
    // A filtered run keeps the other parts' results from an earlier run.
    match bench_results::merge_into("rounds.json", Value::Object(results.into_iter().collect())) {
        Ok(path) => println!("results: {}", path.display()),
        Err(error) => println!("results not written: {error}"),
    }
}
