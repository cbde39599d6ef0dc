//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/peers/package.json`) against the conformance example server, served in process on
//! loopback.
//!
//! - `mrtr_scenarios_pass` runs the 14 `input-required-result-*` scenarios one by one and
//!   requires every check of each to pass.
//! - `tasks_scenarios_pass` does the same for the nine scenarios of the tasks extension. The
//!   suite runs an extension's scenarios only without `--spec-version` (they then speak the
//!   2026-07-28 wire), and its requirement set does not score them.
//! - `requirements_2026_07_28` runs the whole frozen 2026-07-28 set, prints a pass/fail line per
//!   scenario, and requires the MRTR scenarios and every other scored scenario to pass, except
//!   the failures README.md's "Conformance" section attributes to rmcp's wire layer
//!   ([`RMCP_WIRE_FAILURES`]). Of the scenarios the suite runs but does not score
//!   (extensions), the nine tasks scenarios must pass too; the others are reported.

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    fs::File,
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{ExitStatus, Stdio},
    time::Duration,
};

use mrtr::Engine;
use mrtr_examples::conformance::Conformance;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// The 14 MRTR scenarios of the 2026-07-28 requirement set.
const MRTR_SCENARIOS: [&str; 14] = [
    "input-required-result-basic-elicitation",
    "input-required-result-basic-sampling",
    "input-required-result-basic-list-roots",
    "input-required-result-request-state",
    "input-required-result-multiple-input-requests",
    "input-required-result-multi-round",
    "input-required-result-missing-input-response",
    "input-required-result-non-tool-request",
    "input-required-result-result-type",
    "input-required-result-unsupported-methods",
    "input-required-result-tampered-state",
    "input-required-result-capability-check",
    "input-required-result-ignore-extra-params",
    "input-required-result-validate-input",
];

/// The nine scenarios of the tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663).
/// The tenth, `tasks-status-notifications`, only reports itself skipped: the suite has no
/// harness for it yet.
const TASKS_SCENARIOS: [&str; 9] = [
    "tasks-lifecycle",
    "tasks-capability-negotiation",
    "tasks-dispatch-and-envelope",
    "tasks-wire-fields",
    "tasks-request-state-removal",
    "tasks-request-headers",
    "tasks-mrtr-input",
    "tasks-mrtr-composition",
    "tasks-required-task-error",
];

/// Scored scenarios that fail for reasons in rmcp's wire layer, with the evidence in README.md
/// ("Conformance"). None with rmcp 3.11 and the suite 0.2.0-alpha.12.
const RMCP_WIRE_FAILURES: &[&str] = &[];

/// Scenarios the suite does not score yet (pending), which the README says pass: they must.
const PENDING_SCENARIOS: [&str; 3] = [
    "json-schema-2020-12",
    "http-header-validation",
    "http-custom-header-server-validation",
];

/// How long one scenario may take, the suite's own 30 s per-scenario timeout included.
const SCENARIO_TIMEOUT: Duration = Duration::from_secs(120);
/// How long the whole requirement set may take.
const REQUIREMENTS_TIMEOUT: Duration = Duration::from_secs(600);

/// The server, in process on 127.0.0.1, stopped when dropped.
struct Served {
    url: String,
    cancel: CancellationToken,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

async fn serve() -> Served {
    let engine = Engine::builder()
        .key(1, mrtr_tests::keys::test_key(11))
        .build()
        .expect("a fixed key is valid");
    let cancel = CancellationToken::new();
    let (addr, _task) = mrtr_examples::serve::serve_http(
        Conformance::new(engine),
        SocketAddr::from(([127, 0, 0, 1], 0)),
        cancel.clone(),
    )
    .await
    .expect("the conformance server binds 127.0.0.1:0");
    Served {
        url: format!("http://{addr}/mcp"),
        cancel,
    }
}

/// Node 22 and the suite's entry point, installed on first use.
fn suite() -> (PathBuf, PathBuf) {
    let node = mrtr_tests::peers::node();
    let index = mrtr_tests::peers::dir()
        .join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    assert!(index.exists(), "{} is missing", index.display());
    (node, index)
}

/// A fresh, empty directory under Cargo's scratch space for integration tests.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("conformance")
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// What one run of the suite left behind.
struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
    /// The `checks.json` of each scenario, by scenario name.
    checks: BTreeMap<String, Vec<Value>>,
}

/// Runs `node index.js server --url URL ARGS -o OUT`, killing it after `timeout`. Its output
/// goes to files, so a chatty child never blocks on a full pipe.
async fn run_suite(url: &str, args: &[&str], out: &Path, timeout: Duration) -> Run {
    let (node, index) = suite();
    let results = out.join("results");
    let stdout_path = out.join("stdout.txt");
    let stderr_path = out.join("stderr.txt");
    let mut child = tokio::process::Command::new(&node)
        .arg(&index)
        .args(["server", "--url", url])
        .args(args)
        .arg("-o")
        .arg(&results)
        .stdin(Stdio::null())
        .stdout(File::create(&stdout_path).expect("create stdout.txt"))
        .stderr(File::create(&stderr_path).expect("create stderr.txt"))
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("could not start {}: {e}", node.display()));
    let status = match tokio::time::timeout(timeout, child.wait()).await {
        Ok(status) => status.expect("wait for the conformance suite"),
        Err(_) => {
            let _ = child.kill().await;
            panic!(
                "the conformance suite ({args:?}) did not finish within {timeout:?}; it was \
                 killed. Its output so far is in {}",
                out.display()
            );
        }
    };
    let read = |path: &Path| strip_ansi(&std::fs::read_to_string(path).unwrap_or_default());
    Run {
        status,
        stdout: read(&stdout_path),
        stderr: read(&stderr_path),
        checks: read_checks(&results),
    }
}

/// `checks.json` per scenario. The suite writes `server-<scenario>-<timestamp>/checks.json`,
/// the timestamp being `2026-07-28T10-34-19-951Z`: six `-`-separated parts.
fn read_checks(results: &Path) -> BTreeMap<String, Vec<Value>> {
    let mut checks = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(results) else {
        return checks;
    };
    for entry in entries.flatten() {
        let dir = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = dir.strip_prefix("server-") else {
            continue;
        };
        let parts: Vec<&str> = rest.split('-').collect();
        if parts.len() <= 6 {
            continue;
        }
        let scenario = parts[..parts.len() - 6].join("-");
        let Ok(text) = std::fs::read_to_string(entry.path().join("checks.json")) else {
            continue;
        };
        let list = match serde_json::from_str::<Value>(&text) {
            Ok(Value::Array(list)) => list,
            other => panic!("{dir}/checks.json is not an array of checks: {other:?}"),
        };
        checks.insert(scenario, list);
    }
    checks
}

/// A check counts as passed when it is `SUCCESS`, or `INFO` (a note, not a verdict).
fn passed(check: &Value) -> bool {
    matches!(check["status"].as_str(), Some("SUCCESS" | "INFO"))
}

/// The checks that did not pass, each with its id, status, message and details.
fn describe_failures(checks: &[Value]) -> String {
    let mut text = String::new();
    for check in checks.iter().filter(|check| !passed(check)) {
        let details = check
            .get("details")
            .map(|d| {
                let mut d = d.to_string();
                if d.len() > 1500 {
                    d.truncate(1500);
                    d.push_str("...");
                }
                d
            })
            .unwrap_or_default();
        let _ = writeln!(
            text,
            "  - {} ({}): {}: {}\n    details: {details}",
            check["id"].as_str().unwrap_or("?"),
            check["name"].as_str().unwrap_or("?"),
            check["status"].as_str().unwrap_or("?"),
            check["errorMessage"].as_str().unwrap_or(""),
        );
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mrtr_scenarios_pass() {
    scenarios_pass("MRTR", &MRTR_SCENARIOS, &["--spec-version", "2026-07-28"]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tasks_scenarios_pass() {
    scenarios_pass("tasks", &TASKS_SCENARIOS, &[]).await;
}

/// Runs each scenario on its own and requires every one of its checks to pass, the suite's
/// `wire-schema-valid` included.
async fn scenarios_pass(kind: &str, scenarios: &[&str], args: &[&str]) {
    let _ = suite();
    let served = serve().await;
    let mut failures = String::new();
    for scenario in scenarios {
        let out = scratch(scenario);
        let mut scenario_args = vec!["--scenario", scenario];
        scenario_args.extend_from_slice(args);
        let run = run_suite(&served.url, &scenario_args, &out, SCENARIO_TIMEOUT).await;
        let checks = run.checks.get(*scenario).cloned().unwrap_or_default();
        let problems = describe_failures(&checks);
        if checks.is_empty() || !problems.is_empty() || !run.status.success() {
            let _ = writeln!(
                failures,
                "{scenario}: {}, {} checks\n{problems}  stdout tail: {}\n  stderr tail: {}",
                run.status,
                checks.len(),
                tail(&run.stdout, 1500),
                tail(&run.stderr, 1500),
            );
        } else {
            println!("{scenario}: {} checks passed", checks.len());
            let _ = std::fs::remove_dir_all(&out);
        }
    }
    assert!(
        failures.is_empty(),
        "{kind} conformance scenarios failed:\n{failures}"
    );
}

/// One line of the suite's summary: `✓ name: 3 passed, 0 failed`.
struct Summary {
    ok: bool,
    passed: usize,
    failed: usize,
}

/// The summary lines of the suite's stdout, and the scenarios listed as not scored (with the
/// reason the suite gives, such as `extension`).
fn parse_summary(stdout: &str) -> (BTreeMap<String, Summary>, BTreeMap<String, String>) {
    let mut summary = BTreeMap::new();
    let mut unscored = BTreeMap::new();
    let mut in_unscored = false;
    for line in stdout.lines() {
        if line.starts_with("Not scored") {
            in_unscored = true;
            continue;
        }
        let trimmed = line.trim_start();
        let (ok, rest) = if let Some(rest) = trimmed.strip_prefix("✓ ") {
            (true, rest)
        } else if let Some(rest) = trimmed.strip_prefix("✗ ") {
            (false, rest)
        } else {
            continue;
        };
        if in_unscored {
            if let Some((name, reason)) = rest.split_once(" (") {
                unscored.insert(name.to_owned(), reason.trim_end_matches(')').to_owned());
            }
        } else if let Some((name, counts)) = rest.split_once(": ") {
            let number = |word: &str| {
                counts
                    .split(", ")
                    .find_map(|part| part.strip_suffix(word))
                    .and_then(|n| n.trim().parse().ok())
                    .unwrap_or(0)
            };
            summary.insert(
                name.to_owned(),
                Summary {
                    ok,
                    passed: number(" passed"),
                    failed: number(" failed"),
                },
            );
        }
    }
    (summary, unscored)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requirements_2026_07_28() {
    let _ = suite();
    let served = serve().await;
    let out = scratch("requirements-2026-07-28");
    let run = run_suite(
        &served.url,
        &["--requirements", "2026-07-28"],
        &out,
        REQUIREMENTS_TIMEOUT,
    )
    .await;
    let (summary, unscored) = parse_summary(&run.stdout);
    assert!(
        !summary.is_empty(),
        "no summary in the suite's output ({}):\n{}\n{}",
        run.status,
        tail(&run.stdout, 3000),
        tail(&run.stderr, 3000)
    );

    println!("conformance --requirements 2026-07-28 against the conformance example:");
    println!(
        "{:<48} {:<10} {:>6} {:>6}  scored",
        "scenario", "result", "pass", "fail"
    );
    for (name, line) in &summary {
        let scored = unscored
            .get(name)
            .map_or("yes".to_owned(), |why| format!("no ({why})"));
        let result = if line.ok { "PASS" } else { "FAIL" };
        println!(
            "{name:<48} {result:<10} {:>6} {:>6}  {scored}",
            line.passed, line.failed
        );
    }

    let mut problems = String::new();
    // The tasks scenarios are not scored, but run: they must pass here too.
    let required = MRTR_SCENARIOS.iter().map(|name| (*name, "MRTR"));
    let required = required.chain(TASKS_SCENARIOS.iter().map(|name| (*name, "tasks")));
    let required = required.chain(PENDING_SCENARIOS.iter().map(|name| (*name, "pending")));
    for (scenario, kind) in required {
        let checks = run.checks.get(scenario).cloned().unwrap_or_default();
        match summary.get(scenario) {
            Some(line)
                if line.ok && !checks.is_empty() && describe_failures(&checks).is_empty() => {}
            Some(_) => {
                let _ = writeln!(
                    problems,
                    "{scenario} ({kind}) failed:\n{}",
                    describe_failures(&checks)
                );
            }
            None => {
                let _ = writeln!(problems, "{scenario} ({kind}) did not run");
            }
        }
    }
    for (name, line) in &summary {
        if line.ok || MRTR_SCENARIOS.contains(&name.as_str()) || unscored.contains_key(name) {
            continue;
        }
        let checks = run.checks.get(name).cloned().unwrap_or_default();
        if RMCP_WIRE_FAILURES.contains(&name.as_str()) {
            println!(
                "{name}: fails in rmcp's wire layer (see README.md, Conformance):\n{}",
                describe_failures(&checks)
            );
            continue;
        }
        let _ = writeln!(
            problems,
            "{name} failed, and README.md does not attribute it to rmcp:\n{}",
            describe_failures(&checks)
        );
    }
    for name in RMCP_WIRE_FAILURES {
        if summary.get(*name).is_some_and(|line| line.ok) {
            println!("{name} now passes: drop it from RMCP_WIRE_FAILURES and the README table");
        }
    }
    assert!(
        problems.is_empty(),
        "conformance failures:\n{problems}\nfull output in {}",
        out.display()
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// The text without the suite's hard-coded terminal colors (`ESC [ ... m`).
fn strip_ansi(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

fn tail(text: &str, max: usize) -> &str {
    let start = text.len().saturating_sub(max);
    let start = (start..=text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    &text[start..]
}
