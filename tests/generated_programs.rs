//! Differential test over generated programs: `build.rs` writes random tool bodies
//! (`programs/generator.rs`: integers, strings, vectors, closures, branches, loops with
//! labels and `break` values, early returns, `?`, and asks in each place the README allows),
//! each compiled both as a resumable tool and straight through, as `differential.rs` does
//! with its hand-written corpus. Every program runs with three scripts, on each channel: in
//! native rounds, on a pre-2026 session and as a task. The results, the questions and the
//! journals must be those of the straight run.
//!
//! Other programs: `MRTR_PROGRAMS_SEED=7 MRTR_PROGRAMS_COUNT=200 cargo test -p mrtr-tests
//! --test generated_programs`. The bodies are in `target/*/build/mrtr-tests-*/out/`.

#![allow(
    unused_mut,
    unused_variables,
    unused_assignments,
    unused_labels,
    dead_code,
    unused_parens,
    unused_imports,
    unreachable_code,
    clippy::all
)]

use std::{collections::BTreeMap, future::Future, time::Duration};

use mrtr::{Elicited, Engine, Form, ask, elicit, mrtr_tool};
use mrtr_tests::{
    clock::TestClock,
    differential::{
        self, Args, Num, Observed, Run, accept, as_a_task, in_rounds, on_a_session, on_session,
    },
    loopback::{Served, connect_declaring},
    note,
    task_client::{TaskClient, tasks_and_elicitation},
};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Compiles each body as a resumable tool and as a straight async fn.
macro_rules! programs {
    ($( $name:ident($args:ident) => $body:block )*) => {
        #[derive(Clone)]
        pub struct Programs {
            tool_router: ToolRouter<Self>,
            engine: Engine,
        }

        #[tool_router]
        impl Programs {
            $(
                #[mrtr_tool(task = "optional")]
                #[tool]
                async fn $name(&self, Parameters($args): Parameters<Args>) -> Result<String, String> $body
            )*
        }

        mod straight {
            use super::{
                Args, Num, Record, Word, check, list_len_with, list_with, note, records_of, refuse,
                text_len_with, text_with, twice,
            };
            use mrtr::{Elicited, elicit};
            use mrtr_tests::straight_ask as ask;
            $(
                pub async fn $name($args: Args) -> Result<String, String> $body
            )*
        }

        async fn run_straight(name: &str, args: Args) -> Result<String, String> {
            match name {
                $(stringify!($name) => straight::$name(args).await,)*
                other => panic!("no program named {other}"),
            }
        }
    };
}

/// A struct whose fields the bodies move one by one.
#[derive(Debug, Serialize, Deserialize)]
pub struct Record {
    pub text: String,
    pub list: Vec<i64>,
    pub n: i64,
}

/// Records to loop over or match: `n` of them, at most 3.
pub fn records_of(n: i64) -> Vec<Record> {
    (0..n.clamp(0, 3))
        .map(|i| Record {
            text: format!("i{i}"),
            list: vec![i, n],
            n: i.wrapping_mul(n),
        })
        .collect()
}

/// A question for a word.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Form)]
pub struct Word {
    pub word: String,
}

pub fn refuse(refused: mrtr::Refused) -> String {
    format!("refused at {}", refused.key)
}

/// An async step between asks.
pub async fn twice(n: i64) -> i64 {
    tokio::task::yield_now().await;
    n.wrapping_mul(2)
}

/// Takes a text and a number.
pub fn text_with(text: String, n: i64) -> i64 {
    (text.len() as i64).wrapping_mul(100).wrapping_add(n)
}

pub fn text_len_with(text: &str, n: i64) -> i64 {
    (text.len() as i64).wrapping_mul(10).wrapping_add(n)
}

/// Takes a list and a number.
pub fn list_with(list: Vec<i64>, n: i64) -> i64 {
    list.iter()
        .fold(n, |sum, x| sum.wrapping_mul(3).wrapping_add(*x))
}

pub fn list_len_with(list: &[i64], n: i64) -> i64 {
    (list.len() as i64).wrapping_mul(7).wrapping_add(n)
}

/// Fails on some numbers, for `?`.
pub fn check(n: i64) -> Result<i64, String> {
    if n.rem_euclid(11) == 10 {
        Err(format!("check failed on {n}"))
    } else {
        Ok(n)
    }
}

include!(concat!(env!("OUT_DIR"), "/generated_programs.rs"));

fn runs(scripts: &[(u32, &[Option<i64>])]) -> Vec<Run> {
    scripts
        .iter()
        .map(|(n, answers)| Run {
            n: *n,
            answers: answers
                .iter()
                .map(|answer| match answer {
                    // Fits both questions: a form answer's other keys are ignored.
                    Some(num) => accept(json!({ "num": num, "word": format!("w{num}") })),
                    None => json!({"action": "decline"}),
                })
                .collect(),
        })
        .collect()
}

/// Runs every program with each of its scripts straight and through `observe`, and fails
/// with every run that differs. Returns how many runs asked how many questions.
async fn compare<F, Fut>(channel: &str, keyed: bool, observe: F) -> BTreeMap<usize, usize>
where
    F: Fn(&'static str, Run) -> Fut,
    Fut: Future<Output = Observed>,
{
    let programs: Vec<(&'static str, Vec<Run>)> = SCRIPTS
        .iter()
        .map(|(name, scripts)| (*name, runs(scripts)))
        .collect();
    let (mismatches, asked) = differential::compare(
        &programs,
        |name, args| run_straight(name, args),
        channel,
        keyed,
        observe,
    )
    .await;
    assert!(
        mismatches.is_empty(),
        "seed {SEED}, {channel}: {} of {} runs differ\n{}",
        mismatches.len(),
        SCRIPTS.len() * 3,
        mismatches.join("\n")
    );
    asked
}

fn programs() -> Programs {
    Programs {
        tool_router: Programs::tool_router(),
        engine: TestClock::default().engine(),
    }
}

async fn within_time<F: Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(300), f)
        .await
        .expect("the programs ran in time")
}

#[tokio::test]
async fn generated_programs_resume_as_they_run_straight() {
    within_time(async {
        let served = Served::start(programs()).await.expect("server starts");
        let client = connect_declaring(&served.url, json!({"elicitation": {"form": {}}})).await;
        let client = &client;
        let asked = compare("rounds", true, |name, case| async move {
            in_rounds(client, name, &case).await
        })
        .await;
        eprintln!("runs by the number of questions they asked: {asked:?}");
        // The programs must ask: many runs go through several rounds.
        let asking: usize = asked.range(2..).map(|(_, runs)| runs).sum();
        assert!(
            asking * 5 >= SCRIPTS.len() * 3 * 2,
            "too few runs ask twice or more: {asked:?}"
        );
    })
    .await;
}

/// The same programs on a pre-2026 session: each question goes to the client as
/// `elicitation/create` while the call runs (`mrtr::Bridged`).
#[tokio::test]
async fn generated_programs_run_the_same_on_a_session() {
    within_time(async {
        let (user, client) = on_a_session(programs()).await.expect("a session");
        let (user, client) = (&user, &client);
        compare("session", false, |name, case| async move {
            on_session(user, client, name, &case).await
        })
        .await;
    })
    .await;
}

/// The same programs as tasks (the tasks extension): each round that asks waits in
/// `input_required` for `tasks/update`.
#[tokio::test]
async fn generated_programs_run_the_same_as_tasks() {
    within_time(async {
        let served = Served::start(programs()).await.expect("server starts");
        let client = TaskClient::new(&served.url, tasks_and_elicitation());
        let client = &client;
        compare("task", true, |name, case| async move {
            as_a_task(client, name, &case).await
        })
        .await;
    })
    .await;
}

impl mrtr::MrtrServer for Programs {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Programs {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}
