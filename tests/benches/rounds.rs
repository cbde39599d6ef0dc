//! What mrtr costs per round, against a hand-written rmcp MRTR tool in the same run.
//!
//! Both servers run `signup`'s three questions over rmcp on an in-memory duplex. The baseline
//! is what a careful author writes with rmcp alone: a `requestState` enum sealed with rmcp's
//! HMAC `RequestStateCodec`, bound to the arguments, with typed answer parsing. mrtr encrypts
//! as well (XChaCha20-Poly1305), so the ratio includes that. State sizes are printed too.
//!
//! A second group measures single use: the same three rounds on a tool that allows replay
//! (no guard), on a single-use tool with the in-memory replay store, and with a Redis store on a
//! `redis-server` the benchmark starts on loopback (skipped, with a note, if it is not installed).
//!
//! With valgrind installed, it also counts the instructions of 300 calls with and without the
//! guard in two copies of itself under callgrind, a ratio that noise cannot move.
//!
//! `cargo bench -p mrtr-tests --bench rounds`

use std::{collections::BTreeMap, time::Duration};

use criterion::{Criterion, criterion_group};
use mrtr::{
    Engine,
    replay::{MemoryStore, RedisStore},
};
use mrtr_examples::wizard::Wizard;
use mrtr_tests::{baseline::HandWritten, services::RedisServer, signups::Signups};
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

fn answers() -> BTreeMap<&'static str, Value> {
    BTreeMap::from([
        (
            "profile",
            json!({"action": "accept", "content": {"name": "Ada", "email": "ada@example.com"}}),
        ),
        (
            "plan",
            json!({"action": "accept", "content": {"plan": "pro"}}),
        ),
        (
            "confirm",
            json!({"action": "accept", "content": {"confirm": true}}),
        ),
    ])
}

/// One whole signup, round by round; returns the size of each round's state.
async fn signup(client: &Client) -> Vec<usize> {
    signup_with(client, "signup", "Signed up Ada to Rust on the pro plan").await
}

/// One whole call of `tool`, a three-question signup, round by round.
async fn signup_with(client: &Client, tool: &'static str, expected: &str) -> Vec<usize> {
    let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"})).unwrap();
    let mut params = CallToolRequestParams::new(tool).with_arguments(arguments);
    let answers = answers();
    let mut sizes = Vec::new();
    loop {
        match client
            .call_tool_once(params.clone())
            .await
            .expect("round succeeds")
        {
            CallToolResponse::Complete(result) => {
                assert_eq!(mrtr_examples::demo::text_of(&result), expected);
                return sizes;
            }
            CallToolResponse::InputRequired(input) => {
                let key = input.input_requests.unwrap().into_keys().next().unwrap();
                sizes.push(input.request_state.as_ref().map_or(0, String::len));
                params.input_responses = Some(InputResponses::from([(
                    key.clone(),
                    answers[key.as_str()].clone(),
                )]));
                params.request_state = input.request_state;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}

fn rounds(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (mrtr, by_hand) = runtime.block_on(async {
        (
            connect(Wizard::new(steady_engine().build().unwrap())).await,
            connect(HandWritten::new()).await,
        )
    });
    let mrtr_sizes = runtime.block_on(signup(&mrtr));
    let hand_sizes = runtime.block_on(signup(&by_hand));
    println!("requestState bytes per round: mrtr {mrtr_sizes:?}, hand-written {hand_sizes:?}");

    let mut group = c.benchmark_group(GROUP);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function(BASELINE, |b| b.to_async(&runtime).iter(|| signup(&by_hand)));
    group.bench_function(MRTR, |b| b.to_async(&runtime).iter(|| signup(&mrtr)));
    group.finish();
    let paired = paired_ratio(&runtime, (&by_hand, "signup"), (&mrtr, "signup"));
    println!("paired ratio mrtr / hand-written: {paired:.3}");
}

/// An engine whose replay store stays at its steady size during the run: records live as
/// long as their states, so a 2-second TTL keeps about two seconds' worth of rounds, as a
/// production store keeps one TTL's worth. (With the default 10 minutes the store would only
/// grow during a run, and the benchmark would measure its growth.)
fn steady_engine() -> mrtr::EngineBuilder {
    Engine::builder()
        .key(1, mrtr_tests::keys::test_key(7))
        .ttl(Duration::from_secs(2))
        .clock_skew(Duration::ZERO)
        .replay_store(MemoryStore::with_capacity(10_000_000))
}

/// The same three rounds without the guard, with the memory store and with Redis.
fn single_use(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
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
            .iter(|| signup_with(&memory, "signup_replayable", SIGNED_UP))
    });
    group.bench_function(MEMORY_STORE, |b| {
        b.to_async(&runtime)
            .iter(|| signup_with(&memory, "signup", SIGNED_UP))
    });
    if let Some(on_redis) = &on_redis {
        group.bench_function(REDIS_STORE, |b| {
            b.to_async(&runtime)
                .iter(|| signup_with(on_redis, "signup", SIGNED_UP))
        });
    }
    group.finish();

    // The ratios, from blocks that alternate, so that noise on a shared machine falls on both
    // sides alike.
    let no_guard = (&memory, "signup_replayable");
    let memory_ratio = paired_ratio(&runtime, no_guard, (&memory, "signup"));
    println!("paired ratio single use with {MEMORY_STORE} / no guard: {memory_ratio:.3}");
    if let Some(on_redis) = &on_redis {
        let redis_ratio = paired_ratio(&runtime, no_guard, (on_redis, "signup"));
        println!("paired ratio single use with {REDIS_STORE} / no guard: {redis_ratio:.3}");
    }
    drop(redis);
}

/// The median, over alternating blocks of calls, of the time of `other`'s calls over `base`'s.
fn paired_ratio(
    runtime: &tokio::runtime::Runtime,
    base: (&Client, &'static str),
    other: (&Client, &'static str),
) -> f64 {
    const BLOCKS: usize = 41;
    const CALLS: usize = 40;
    let time = |(client, tool): (&Client, &'static str)| {
        let start = std::time::Instant::now();
        runtime.block_on(async {
            for _ in 0..CALLS {
                signup_with(client, tool, SIGNED_UP).await;
            }
        });
        start.elapsed().as_secs_f64()
    };
    let mut ratios: Vec<f64> = (0..BLOCKS)
        .map(|block| match block % 2 {
            0 => {
                let base = time(base);
                time(other) / base
            }
            _ => {
                let other = time(other);
                other / time(base)
            }
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[BLOCKS / 2]
}

const SIGNED_UP: &str = "Signed up Ada to Rust on the pro plan";

/// Whether this run measured Redis: an earlier run's estimates may still be on disk.
static REDIS_MEASURED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

const GUARD_GROUP: &str = "single_use_three_rounds";
const NO_GUARD: &str = "no_guard";
const MEMORY_STORE: &str = "memory_store";
const REDIS_STORE: &str = "redis_store";

const GROUP: &str = "signup_three_rounds";
const BASELINE: &str = "hand_written_rmcp";
const MRTR: &str = "mrtr";

/// The mean time of one benchmark of this run, from criterion's own estimates.
fn mean_ns(group: &str, function: &str) -> Option<f64> {
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let path = target
        .join("criterion")
        .join(group)
        .join(function)
        .join("new/estimates.json");
    let estimates: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    estimates["mean"]["point_estimate"].as_f64()
}

const ENVELOPE_GROUP: &str = "seal and open a 256 B state";
const ENCRYPTED: &str = "mrtr, XChaCha20-Poly1305";
const SIGNED: &str = "mrtr, sign-only HMAC-SHA256";
const RMCP_CODEC: &str = "rmcp RequestStateCodec, HMAC";

/// P3: sealing plus opening a state with 256 B of saved locals, in both of mrtr's modes,
/// beside rmcp's own HMAC codec on the same payload as the baseline.
fn envelope(c: &mut Criterion) {
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
}

criterion_group!(benches, rounds, single_use, envelope);

/// Set in a copy of this benchmark that only counts: the tool to call, `CALLS` times.
const COUNT_TOOL_ENV: &str = "MRTR_BENCH_COUNT_TOOL";
const CALLS: usize = 300;

/// Calls `tool` of a [`Signups`] server `CALLS` times, for callgrind to count.
fn count_calls(tool: &str) {
    let tool: &'static str = if tool == "signup" {
        "signup"
    } else {
        "signup_replayable"
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = connect(Signups::new(steady_engine().build().unwrap())).await;
        for _ in 0..CALLS {
            signup_with(&client, tool, SIGNED_UP).await;
        }
    });
}

/// Instructions a copy of this benchmark executes calling `tool` [`CALLS`] times, counted by
/// callgrind: exact and repeatable, whatever else the machine is doing.
fn instructions(tool: &str) -> Option<u64> {
    let output = std::process::Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(std::env::current_exe().ok()?)
        .env(COUNT_TOOL_ENV, tool)
        .output()
        .ok()?;
    let log = String::from_utf8_lossy(&output.stderr);
    let line = log.lines().find(|line| line.contains("I   refs:"))?;
    line.rsplit(' ').next()?.replace(',', "").parse().ok()
}

fn main() {
    if let Ok(tool) = std::env::var(COUNT_TOOL_ENV) {
        return count_calls(&tool);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    if let (Some(baseline), Some(ours)) = (mean_ns(GROUP, BASELINE), mean_ns(GROUP, MRTR)) {
        println!(
            "ratio mrtr / hand-written: {:.2} ({:.1} us vs {:.1} us per three-round signup)",
            ours / baseline,
            ours / 1000.0,
            baseline / 1000.0
        );
    }
    if let Some(codec) = mean_ns(ENVELOPE_GROUP, RMCP_CODEC) {
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
    match (instructions("signup_replayable"), instructions("signup")) {
        (Some(unguarded), Some(guarded)) => println!(
            "instructions single use with {MEMORY_STORE} / no guard (callgrind, {CALLS} calls \
             each): {:.4} ({} more per call)",
            guarded as f64 / unguarded as f64,
            (guarded.saturating_sub(unguarded)) / CALLS as u64
        ),
        _ => println!("no instruction counts: valgrind is not installed"),
    }
    let Some(unguarded) = mean_ns(GUARD_GROUP, NO_GUARD) else {
        return;
    };
    let redis = REDIS_MEASURED.load(std::sync::atomic::Ordering::Relaxed);
    let stores = [MEMORY_STORE]
        .into_iter()
        .chain(redis.then_some(REDIS_STORE));
    for store in stores {
        if let Some(guarded) = mean_ns(GUARD_GROUP, store) {
            println!(
                "ratio single use with {store} / no guard: {:.3} ({:.1} us vs {:.1} us per \
                 three-round signup)",
                guarded / unguarded,
                guarded / 1000.0,
                unguarded / 1000.0
            );
        }
    }
}
