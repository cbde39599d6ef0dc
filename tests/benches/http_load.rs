//! Server CPU under HTTP load, side by side, in one run: each server is its own process on
//! loopback, driven by the repo's load generator ([`mrtr_examples::loadgen`]: 8 clients, every
//! result checked), and its CPU time read from `/proc` (each thread's, in nanoseconds) before and
//! after each block of flows.
//!
//! - **P1 over HTTP**: `signup` and `wizard5` on `wizard-http` (mrtr) against `baseline-http`
//!   (the same tools hand-written on rmcp), in blocks that run each server once in a rotating
//!   order; the ratio of server CPU per request, median over the blocks, with a 95% interval
//!   for that median (bootstrap over the blocks) and whether it shows the ratio at most 1.00.
//!   A control measures a second instance of `baseline-http` against it in the same `wizard5`
//!   blocks: how far apart two identical servers come out is the noise of this measure here,
//!   over the same minutes.
//! - **Against the other SDKs**: `questions` (one question per round) on mrtr, the TypeScript
//!   SDK v2 server and the Python SDK 2.3 server, both as its docs teach for a loop (returning
//!   `InputRequiredResult` itself) and with `Resolve` resolvers. Server CPU per flow at 10
//!   questions, and how it grows with the number of questions; state bytes per round.
//! - **Latency under load**: each request's latency percentiles, from the same runs.
//!
//! A peer whose runtime is missing (`npm ci` and the venv of `tests/peers`, as `.ci/run`
//! makes them) is skipped with a note. Results go to `target/bench-results/http_load.json`; a run
//! of one part keeps the other parts' results there.
//!
//! `cargo bench -p mrtr-tests --bench http_load`. Add `-- --quick` for a short run, `-- --long`
//! for four times the blocks of `wizard5` and its control against the hand-written tools (about
//! 16 minutes, without `signup`), and `-- hand_written` or `-- sdks` for one part.

use std::{collections::BTreeMap, process::Command, time::Duration};

use mrtr_examples::loadgen::{self, Options, Report, Tool};
use mrtr_tests::{
    bench_servers::{ServerProcess, node_server, python_server},
    stats::{Paired, median, quantile},
};
use serde_json::{Value, json};

/// Clients driving each server at once.
const CONCURRENCY: usize = 8;

/// How much to measure: the full run, `--quick` or `--long`.
#[derive(Clone, Copy)]
struct Scale {
    /// Alternating blocks per comparison with the other SDKs.
    blocks: usize,
    /// Alternating blocks per comparison with the hand-written tools: their difference is a few
    /// percent, under the noise of one block, so their median needs more.
    hand_written_blocks: usize,
    /// Flows per block of `signup` (other tools scale down by their CPU per flow).
    signup_flows: u64,
    /// Compare `wizard5` and its control only, leaving `signup` out.
    long: bool,
}

const FULL: Scale = Scale {
    blocks: 7,
    hand_written_blocks: 25,
    signup_flows: 2000,
    long: false,
};
/// A block's ratio varies by about ±7% here, and the median of 25 by about ±1.7%: four times
/// the blocks halve that.
const LONG: Scale = Scale {
    hand_written_blocks: 100,
    long: true,
    ..FULL
};
const QUICK: Scale = Scale {
    blocks: 3,
    hand_written_blocks: 3,
    signup_flows: 400,
    long: false,
};

/// One block: `flows` flows of `tool` against `server`. Returns the load generator's report and
/// the server's CPU time over the block.
async fn block(
    server: &ServerProcess,
    tool: Tool,
    flows: u64,
) -> anyhow::Result<(Report, Duration)> {
    let options = Options {
        url: server.url(),
        tool,
        flows,
        concurrency: CONCURRENCY,
        duration: Duration::from_secs(600),
        json: true,
    };
    let before = server.cpu_time()?;
    let report = loadgen::run(&options).await?;
    let cpu = server.cpu_time()?.since(&before);
    anyhow::ensure!(
        report.passed() && report.completed == flows,
        "{} did not complete every {tool} flow:\n{report}",
        server.name()
    );
    Ok((report, cpu))
}

/// Microseconds of server CPU per request of a block.
fn per_request_us(report: &Report, cpu: Duration, flows: u64) -> f64 {
    cpu.as_secs_f64() * 1e6 / (flows as f64 * report.requests_per_flow as f64)
}

fn state_bytes(report: &Report) -> Vec<usize> {
    report
        .requests
        .iter()
        .filter_map(|request| request.state_bytes.map(|sizes| sizes.max))
        .collect()
}

fn latency(report: &Report) -> Value {
    json!(
        report
            .requests
            .iter()
            .map(|request| json!({
                "request": request.request,
                "p50_us": request.latency_us.p50,
                "p90_us": request.latency_us.p90,
                "p99_us": request.latency_us.p99,
            }))
            .collect::<Vec<_>>()
    )
}

/// P1 over HTTP: each of `ours` against `theirs` (mrtr against hand-written, and for the
/// control a second instance of the hand-written server), one tool, in the same blocks: each
/// block runs every server once, in an order that rotates, so that the comparison and its
/// control see the same stretch of the machine's noise. One JSON object per entry of `ours`,
/// naming its sides by their labels.
async fn against_hand_written(
    theirs: (&ServerProcess, &str),
    ours: &[(&ServerProcess, &str)],
    tool: Tool,
    flows: u64,
    scale: Scale,
) -> anyhow::Result<Vec<Value>> {
    let servers: Vec<&ServerProcess> = std::iter::once(theirs.0)
        .chain(ours.iter().map(|(server, _)| *server))
        .collect();
    // Warm every server up: connections, allocator, the first flows' one-time work.
    for server in &servers {
        block(server, tool, flows / 4).await?;
    }
    // Per block, each server's CPU per request, in the order of `servers`.
    let mut blocks: Vec<Vec<f64>> = Vec::new();
    let mut last = vec![None; servers.len()];
    for index in 0..scale.hand_written_blocks {
        let mut cpu = vec![0.0; servers.len()];
        for offset in 0..servers.len() {
            let at = (index + offset) % servers.len();
            let (report, used) = block(servers[at], tool, flows).await?;
            cpu[at] = per_request_us(&report, used, flows);
            last[at] = Some(report);
        }
        blocks.push(cpu);
    }
    let their_cpu: Vec<f64> = blocks.iter().map(|cpu| cpu[0]).collect();
    let h = median(&their_cpu);
    let mut compared = Vec::new();
    for (position, (server, label)) in ours.iter().enumerate() {
        let at = position + 1;
        let our_cpu: Vec<f64> = blocks.iter().map(|cpu| cpu[at]).collect();
        let ratios: Vec<f64> = blocks.iter().map(|cpu| cpu[at] / cpu[0]).collect();
        let paired = Paired::of(&ratios);
        let (low, high) = (quantile(&ratios, 0.25), quantile(&ratios, 0.75));
        let m = median(&our_cpu);
        println!(
            "{tool} over HTTP: server CPU per request {} {m:.1} us, {} {h:.1} us; ratio \
             {paired}, at most 1.00: {} (median of {} blocks of {flows} flows, each server once \
             per block in rotating order; half the blocks from {low:.3} to {high:.3})",
            server.name(),
            theirs.0.name(),
            paired.verdict(1.0),
            scale.hand_written_blocks
        );
        // Sizes and latency come from the last block of this server.
        let report = last[at].as_ref().expect("at least one block");
        compared.push(json!({
            "ratio": paired.ratio,
            "block_ratios": ratios,
            "block_ratio_quartiles": [low, high],
            "ratio_95_interval": paired.interval,
            "cpu_per_request_us": {*label: m, theirs.1: h},
            "flows_per_block": flows,
            "state_bytes": state_bytes(report),
            "latency": latency(report),
        }));
    }
    Ok(compared)
}

/// The `questions` servers written with the other SDKs, those whose runtime is here.
async fn sdk_servers() -> Vec<ServerProcess> {
    let port_flag = |port: u16| vec!["--port".to_owned(), port.to_string()];
    let candidates: [(&str, anyhow::Result<Command>); 3] = [
        ("typescript-sdk-v2", node_server("questions_server.mjs")),
        ("python-sdk-2.3", python_server("questions_server.py")),
        (
            "python-sdk-2.3-resolve",
            python_server("questions_server.py").map(|mut command| {
                command.args(["--style", "resolve"]);
                command
            }),
        ),
    ];
    let mut servers = Vec::new();
    for (name, command) in candidates {
        let started = match command {
            Ok(command) => ServerProcess::start(name, command, port_flag).await,
            Err(error) => Err(error),
        };
        match started {
            Ok(server) => servers.push(server),
            Err(error) => println!("skipping {name}: {error:#}"),
        }
    }
    servers
}

/// Flows per block for `server` at `questions`, so each block takes about the same CPU.
fn sdk_flows(server: &ServerProcess, questions: u32, scale: Scale) -> u64 {
    let per_question_cost = match server.name() {
        "mrtr" => 1,
        "typescript-sdk-v2" | "python-sdk-2.3" => 10,
        // Each round replays every resolver before it.
        _ => 5 * u64::from(questions),
    };
    (scale.signup_flows * 3 / (u64::from(questions) * per_question_cost)).max(5)
}

/// CPU per flow of `questions` on every server, alternating servers within each block.
async fn against_sdks(
    servers: &[&ServerProcess],
    questions: u32,
    blocks: usize,
    scale: Scale,
) -> anyhow::Result<BTreeMap<String, Value>> {
    let tool = Tool::Questions(questions);
    for server in servers {
        block(server, tool, sdk_flows(server, questions, scale) / 4 + 1).await?;
    }
    let mut cpu_per_flow: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut reports = BTreeMap::new();
    for index in 0..blocks {
        let mut order = servers.to_vec();
        if index % 2 == 1 {
            order.reverse();
        }
        for server in order {
            let flows = sdk_flows(server, questions, scale);
            let (report, cpu) = block(server, tool, flows).await?;
            cpu_per_flow
                .entry(server.name())
                .or_default()
                .push(cpu.as_secs_f64() * 1e3 / flows as f64);
            reports.insert(server.name(), report);
        }
    }
    Ok(servers
        .iter()
        .map(|server| {
            let report = &reports[server.name()];
            (
                server.name().to_owned(),
                json!({
                    "cpu_per_flow_ms": median(&cpu_per_flow[server.name()]),
                    "state_bytes": state_bytes(report),
                    "latency": latency(report),
                }),
            )
        })
        .collect())
}

async fn measure(scale: Scale, part: Option<String>) -> anyhow::Result<Value> {
    let wanted = |name: &str| part.as_deref().is_none_or(|part| name.contains(part));
    let mut mrtr_command = Command::new(env!("CARGO_BIN_EXE_wizard-http"));
    mrtr_command
        .env("MRTR_KEYS", mrtr_tests::services::FLEET_KEYS)
        .env_remove("MRTR_REDIS_URL")
        // Enough records for the whole run at the default 10-minute TTL.
        .env("MRTR_REPLAY_CAPACITY", "5000000")
        .env("RUST_LOG", "warn");
    // Native clients only, as `baseline-http` serves: the same transport on both sides.
    let mrtr = ServerProcess::start("mrtr", mrtr_command, |port| {
        vec![format!("127.0.0.1:{port}"), "--native-only".to_owned()]
    })
    .await?;
    let mut hand_command = Command::new(env!("CARGO_BIN_EXE_baseline-http"));
    hand_command.env("RUST_LOG", "warn");
    let by_hand = ServerProcess::start("hand-written", hand_command, |port| {
        vec![format!("127.0.0.1:{port}")]
    })
    .await?;

    let mut results = serde_json::Map::new();
    results.insert(
        "machine".to_owned(),
        json!({"cpus": std::thread::available_parallelism().map_or(0, |n| n.get()), "concurrency": CONCURRENCY}),
    );
    if wanted("hand_written") {
        let theirs = (&by_hand, "hand_written");
        if !scale.long {
            let [signup] = against_hand_written(
                theirs,
                &[(&mrtr, "mrtr")],
                Tool::Signup,
                scale.signup_flows,
                scale,
            )
            .await?
            .try_into()
            .expect("one comparison");
            results.insert("hand_written/signup".to_owned(), signup);
        }
        // The control: a second instance of the hand-written server, measured in the same
        // blocks. Its ratios are the noise of this measure on this machine.
        let mut twin_command = Command::new(env!("CARGO_BIN_EXE_baseline-http"));
        twin_command.env("RUST_LOG", "warn");
        let twin = ServerProcess::start("hand-written-twin", twin_command, |port| {
            vec![format!("127.0.0.1:{port}")]
        })
        .await?;
        let wizard5_flows = scale.signup_flows * 3 / 5;
        let [wizard5, control] = against_hand_written(
            theirs,
            &[(&mrtr, "mrtr"), (&twin, "twin")],
            Tool::Wizard5,
            wizard5_flows,
            scale,
        )
        .await?
        .try_into()
        .expect("two comparisons");
        // A long run's results sit beside the full run's, not over them.
        let prefix = match scale.long {
            true => "hand_written_long",
            false => "hand_written",
        };
        results.insert(format!("{prefix}/wizard5"), wizard5);
        results.insert(format!("{prefix}/control_wizard5"), control);
    }
    drop(by_hand);
    if !wanted("sdks") {
        return Ok(Value::Object(results));
    }

    let sdks = sdk_servers().await;
    let mut servers = vec![&mrtr];
    servers.extend(sdks.iter());
    let at_ten = against_sdks(&servers, 10, scale.blocks, scale).await?;
    let mrtr_ms = at_ten["mrtr"]["cpu_per_flow_ms"]
        .as_f64()
        .unwrap_or(f64::NAN);
    for (name, measured) in &at_ten {
        let ms = measured["cpu_per_flow_ms"].as_f64().unwrap_or(f64::NAN);
        println!(
            "questions=10 on {name}: {ms:.3} ms server CPU per flow ({:.1}x mrtr); state bytes \
             per round {}",
            ms / mrtr_ms,
            measured["state_bytes"]
        );
    }
    results.insert("sdks/questions_10".to_owned(), json!(at_ten));
    let mut growth = BTreeMap::new();
    for questions in [1u32, 2, 5, 20] {
        let measured = against_sdks(&servers, questions, 1, scale).await?;
        growth.insert(questions.to_string(), measured);
    }
    growth.insert("10".to_owned(), at_ten);
    results.insert("sdks/growth".to_owned(), json!(growth));
    Ok(Value::Object(results))
}

fn main() -> anyhow::Result<()> {
    // `cargo bench` passes `--bench`; a filter or other flags are not used.
    let flag = |name: &str| std::env::args().any(|arg| arg == name);
    let scale = match (flag("--quick"), flag("--long")) {
        (true, _) => QUICK,
        (false, true) => LONG,
        (false, false) => FULL,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    // The first argument that is not a flag picks a part, as a benchmark filter does.
    let part = std::env::args().skip(1).find(|arg| !arg.starts_with("--"));
    let results = runtime.block_on(measure(scale, part))?;
    // A run of one part keeps the other parts' results from an earlier run.
    let path = mrtr_tests::bench_results::merge_into("http_load.json", results)?;
    println!("results: {}", path.display());
    Ok(())
}
