//! The load generator (`cargo run --example loadgen`) drives whole flows of `signup` and
//! `onboard` at a wizard on loopback: every flow completes as scripted, each round is timed and
//! its `requestState` measured, and a URL that is not loopback is refused before anything is
//! sent.

use std::time::Duration;

use mrtr::Engine;
use mrtr_examples::{
    loadgen::{self, Error, Options, Report, Tool},
    wizard::Wizard,
};
use mrtr_tests::{loopback::Served, transports::bounded};

fn wizard() -> Wizard {
    Wizard::new(
        Engine::builder()
            .without_principal()
            .build()
            .expect("an engine"),
    )
}

fn options(url: &str, tool: Tool) -> Options {
    Options {
        url: url.to_owned(),
        tool,
        flows: 40,
        concurrency: 4,
        duration: Duration::from_secs(10),
        json: false,
    }
}

/// All 40 flows completed with `rounds` questions each, every round's state measured.
#[track_caller]
fn assert_all_completed(report: &Report, asks: &[&str]) {
    assert_eq!(
        (
            report.started,
            report.completed,
            report.failed,
            report.cut_off
        ),
        (40, 40, 0, 0),
        "{report}"
    );
    assert!(report.passed(), "{report}");
    assert_eq!(report.stopped_by, "flows", "{report}");
    assert_eq!(report.workers, 4);
    assert_eq!(report.rounds_per_flow, asks.len(), "{report}");
    assert_eq!(report.requests_per_flow, asks.len() + 1, "{report}");
    assert_eq!(report.latency_us.count, 40 * (asks.len() + 1));
    assert_eq!(report.flow_latency_us.count, 40);
    assert!(
        report.flows_per_s > 0.0 && report.elapsed_s > 0.0,
        "{report}"
    );
    assert!(report.failures.is_empty(), "{report}");

    let asked: Vec<Option<&str>> = report.requests.iter().map(|r| r.asks.as_deref()).collect();
    let mut expected: Vec<Option<&str>> = asks.iter().copied().map(Some).collect();
    expected.push(None);
    assert_eq!(asked, expected);
    for request in &report.requests {
        assert_eq!(request.latency_us.count, 40);
        assert!(request.latency_us.p50 <= request.latency_us.p90);
        assert!(request.latency_us.p90 <= request.latency_us.p99);
        assert!(request.latency_us.p99 <= request.latency_us.max);
        match (request.asks.as_deref(), request.state_bytes) {
            (Some(_), Some(sizes)) => assert!(0 < sizes.min && sizes.min <= sizes.max),
            (None, None) => {}
            other => panic!("request {}: {other:?}", request.request),
        }
    }

    let json = report.to_json();
    // One line, fields in the order of `Report` (floats may differ in the last digit when
    // read back, so compare the rest).
    let line = report.to_json_line();
    assert!(
        !line.contains('\n') && line.starts_with("{\"parameters\":"),
        "{line}"
    );
    let read: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(read["requests"], json["requests"]);
    assert_eq!(read["latency_us"], json["latency_us"]);
    assert_eq!(json["completed"], 40);
    assert_eq!(json["failed"], 0);
    assert_eq!(json["rounds_per_flow"], asks.len());
    assert_eq!(json["parameters"]["flows"], 40);
    assert_eq!(json["parameters"]["concurrency"], 4);
    assert_eq!(json["parameters"]["seconds"], 10.0);
    assert!(json["requests"][0]["state_bytes"]["min"].as_u64() > Some(0));
    assert_eq!(
        report.command_line,
        format!(
            "--url {} --tool {} --flows 40 --concurrency 4 --seconds 10",
            report.parameters.url, report.parameters.tool
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signup_flows_all_complete() -> anyhow::Result<()> {
    bounded(async {
        let served = Served::start(wizard()).await?;
        let report = loadgen::run(&options(&served.url, Tool::Signup)).await?;
        assert_all_completed(&report, &["profile", "plan", "confirm"]);
        Ok(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn onboard_flows_all_complete() -> anyhow::Result<()> {
    bounded(async {
        let served = Served::start(wizard()).await?;
        let report = loadgen::run(&options(&served.url, Tool::Onboard)).await?;
        assert_all_completed(&report, &["profile", "role", "repo", "notify"]);
        Ok(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wizard5_flows_all_complete() -> anyhow::Result<()> {
    bounded(async {
        let served = Served::start(wizard()).await?;
        let report = loadgen::run(&options(&served.url, Tool::Wizard5)).await?;
        assert_all_completed(&report, &["q1", "q2", "q3", "q4", "q5"]);
        Ok(())
    })
    .await
}

/// `questions` asks under one key each round; the script takes any one key and checks the
/// joined answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn questions_flows_all_complete_whatever_the_key() -> anyhow::Result<()> {
    bounded(async {
        let served = Served::start(wizard()).await?;
        let report = loadgen::run(&options(&served.url, Tool::Questions(7))).await?;
        assert_eq!((report.completed, report.failed), (40, 0), "{report}");
        assert!(report.passed(), "{report}");
        assert_eq!(report.rounds_per_flow, 7, "{report}");
        for request in &report.requests[..7] {
            assert_eq!(request.asks, None);
            assert!(request.state_bytes.is_some_and(|sizes| sizes.min > 0));
        }
        assert_eq!(report.requests[7].state_bytes, None);
        assert!(
            report
                .command_line
                .contains("--tool questions --questions 7")
        );
        assert_eq!(Tool::Questions(3).script().text, "a1, a2, a3");
        Ok(())
    })
    .await
}

/// With far more flows than fit in the time, the time bound ends the run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_bound_ends_a_run() -> anyhow::Result<()> {
    bounded(async {
        let served = Served::start(wizard()).await?;
        let report = loadgen::run(&Options {
            flows: loadgen::MAX_FLOWS,
            concurrency: 2,
            duration: Duration::from_millis(500),
            ..options(&served.url, Tool::Signup)
        })
        .await?;
        assert_eq!(report.stopped_by, "seconds", "{report}");
        assert!(report.completed > 0, "{report}");
        assert_eq!(report.failed, 0, "{report}");
        assert!(report.started < loadgen::MAX_FLOWS);
        assert_eq!(report.started, report.completed + report.cut_off);
        assert!(report.elapsed_s < 2.0, "{report}");
        Ok(())
    })
    .await
}

/// A server without the tool: every flow fails, with its reason, and the run does not pass.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_flows_are_counted_with_reasons() -> anyhow::Result<()> {
    bounded(async {
        let engine = Engine::builder().without_principal().build()?;
        let served = Served::start(mrtr_examples::conformance::Conformance::new(engine)).await?;
        let report = loadgen::run(&Options {
            flows: 8,
            concurrency: 2,
            ..options(&served.url, Tool::Signup)
        })
        .await?;
        assert_eq!((report.completed, report.failed), (0, 8), "{report}");
        assert!(!report.passed());
        assert_eq!(report.failures.len(), loadgen::MAX_REASONS);
        assert!(
            report.failures[0].starts_with("flow 1: request 1: "),
            "{report}"
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn only_loopback_urls_are_accepted() {
    for url in [
        "http://example.com/mcp",
        "http://10.0.0.1:8080/mcp",
        "http://127.0.0.2:8080/mcp",
        "http://127.0.0.1.nip.io/mcp",
        "http://localhost.example.com/mcp",
        "http://127.0.0.1@example.com/mcp",
        "http://user:pw@127.0.0.1/mcp",
        "http://[::2]/mcp",
        "http://0.0.0.0:8080/mcp",
        "ftp://127.0.0.1/mcp",
        "127.0.0.1:8080/mcp",
        "not a url",
    ] {
        let refused = tokio::time::timeout(
            Duration::from_secs(5),
            loadgen::run(&options(url, Tool::Signup)),
        )
        .await
        .expect("a refusal sends nothing");
        match refused {
            Err(error @ Error::NotLoopback(_)) => assert_eq!(error.exit_code(), 2, "{url}"),
            other => panic!("{url}: {other:?}"),
        }
        let from_args = Options::from_args(["--url", url]);
        assert!(
            matches!(&from_args, Err(e @ Error::NotLoopback(_)) if e.exit_code() == 2),
            "{url}: {from_args:?}"
        );
    }
    for url in [
        "http://127.0.0.1:8080/mcp",
        "http://localhost:8080/mcp",
        "http://LOCALHOST/mcp",
        "http://[::1]:8080/mcp",
        "https://127.0.0.1/mcp",
    ] {
        assert!(loadgen::check_loopback(url).is_ok(), "{url}");
    }
}

#[test]
fn the_command_line_is_read_and_bounded() {
    let options = Options::from_args([
        "--url=http://localhost:9000/mcp",
        "--tool",
        "onboard",
        "--flows",
        "1000",
        "--concurrency",
        "8",
        "--seconds",
        "30",
        "--json",
    ])
    .unwrap();
    assert_eq!(
        options,
        Options {
            url: "http://localhost:9000/mcp".to_owned(),
            tool: Tool::Onboard,
            flows: 1000,
            concurrency: 8,
            duration: Duration::from_secs(30),
            json: true,
        }
    );
    assert_eq!(
        Options::from_args(Vec::<String>::new()).unwrap(),
        Options::default()
    );
    assert_eq!(
        Options::default().command_line(),
        "--url http://127.0.0.1:8080/mcp --tool signup --flows 200 --concurrency 4 --seconds 20"
    );
    for (args, count) in [
        (&["--tool", "questions", "--questions", "7"][..], 7),
        (&["--questions=3", "--tool=questions"], 3),
        (&["--tool", "questions"], loadgen::DEFAULT_QUESTIONS),
    ] {
        let options = Options::from_args(args.iter().copied()).unwrap();
        assert_eq!(options.tool, Tool::Questions(count), "{args:?}");
        assert_eq!(
            Options::from_args(options.command_line().split(' ')).unwrap(),
            options
        );
    }
    for args in [
        &["--tool", "questions", "--questions", "0"][..],
        &["--tool", "questions", "--questions", "101"],
        &["--questions", "5"],
        &["--tool", "signup", "--questions", "5"],
        &["--flows", "0"][..],
        &["--flows", "many"],
        &["--concurrency", "0"],
        &["--seconds", "0"],
        &["--seconds", "-1"],
        &["--seconds", "inf"],
        &["--seconds", "3601"],
        &["--tool", "nope"],
        &["--flows"],
        &["--unknown"],
    ] {
        match Options::from_args(args.iter().copied()) {
            Err(error @ Error::Usage(_)) => assert_eq!(error.exit_code(), 2, "{args:?}"),
            other => panic!("{args:?}: {other:?}"),
        }
    }
    assert!(matches!(Options::from_args(["--help"]), Err(Error::Help)));
}
