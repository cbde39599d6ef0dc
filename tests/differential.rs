//! Differential tests: every tool body of the corpus runs twice with the same answers. Once
//! straight through, each `ask!` answered on the spot; once as a resumable tool, split into
//! rounds through the sealed `requestState` over a real rmcp client. The results, the questions
//! asked and the journal of side effects must be equal: resuming repeats and skips nothing.
//!
//! A corpus body is written once, in `corpus!`, and compiled both ways. Bodies use explicit
//! ask keys, `note!(args, ..)` for side effects, and `Args { run, n }` as their arguments.

use std::{collections::BTreeMap, sync::atomic::AtomicU64, time::Duration};

use mrtr::{Elicited, Engine, Form, ask, elicit, mrtr_tool};
use mrtr_tests::{
    clock::TestClock,
    straight::{SCRIPT, Script, journal, note},
};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolRequestParams, CallToolResponse, InputResponses, JsonObject, ServerCapabilities,
        ServerConfig,
    },
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Args {
    /// Names the journal of this run.
    pub run: String,
    /// A number the bodies branch and loop on.
    pub n: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Form)]
pub struct Text {
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Form)]
pub struct Num {
    pub num: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Form)]
pub struct Yes {
    pub yes: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema, Form)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red,
    Green,
    Blue,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Form)]
pub struct Pick {
    pub color: Color,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub x: i64,
    pub y: i64,
}

/// Records a side effect of the current run.
macro_rules! note {
    ($args:expr, $($what:tt)*) => {
        note(&$args.run, format!($($what)*))
    };
}

/// Compiles each body as a resumable tool (`Corpus::NAME`) and as a straight async fn
/// (`straight::NAME`) whose `ask!` reads the next answer of a script.
macro_rules! corpus {
    ($( $name:ident($args:ident) => $body:block )*) => {
        #[derive(Clone)]
        pub struct Corpus {
            tool_router: ToolRouter<Self>,
            engine: Engine,
        }

        #[tool_router]
        impl Corpus {
            $(
                #[mrtr_tool]
                #[tool]
                async fn $name(&self, Parameters($args): Parameters<Args>) -> Result<String, String> $body
            )*
        }

        mod straight {
            #![allow(unused_mut, unused_variables, unreachable_code, clippy::all)]
            use super::prelude::*;
            use mrtr_tests::straight_ask as ask;
            $(
                pub async fn $name($args: Args) -> Result<String, String> $body
            )*
        }

        /// Every body, by name, for the table of cases.
        const NAMES: &[&str] = &[$(stringify!($name)),*];

        async fn run_straight(name: &str, args: Args) -> Result<String, String> {
            match name {
                $(stringify!($name) => straight::$name(args).await,)*
                other => panic!("no corpus body named {other}"),
            }
        }
    };
}

/// What corpus bodies may use, besides `ask!`.
mod prelude {
    pub use super::{Args, Color, Num, Pick, Point, Text, Yes, double, refuse};
    pub use mrtr::{Elicited, elicit};
    pub use mrtr_tests::straight::note;
    #[allow(unused_imports)]
    pub use std::collections::{BTreeMap, HashMap, VecDeque};
}

pub fn refuse(refused: mrtr::Refused) -> String {
    format!("refused at {}", refused.key)
}

pub async fn double(n: i64) -> i64 {
    tokio::task::yield_now().await;
    n * 2
}

corpus! {
    straight_line(args) => {
        note!(args, "start {}", args.n);
        let first = ask!(first = elicit::<Text>("First?")).accepted().map_err(refuse)?.text;
        note!(args, "got {first}");
        let number = ask!(number = elicit::<Num>(format!("A number after {first}?"))).accepted().map_err(refuse)?.num;
        let doubled = double(number).await;
        note!(args, "doubled {doubled}");
        Ok(format!("{first}:{doubled}"))
    }

    if_else_in_a_loop(args) => {
        let mut total = 0i64;
        let mut seen = Vec::new();
        for i in 0..args.n {
            note!(args, "iteration {i}");
            if i % 2 == 0 {
                let even = ask!(even = elicit::<Num>(format!("Even {i}?"))).accepted().map_err(refuse)?.num;
                total += even;
                seen.push(format!("e{even}"));
            } else {
                let odd = ask!(odd = elicit::<Text>(format!("Odd {i}?"))).ok().map(|t| t.text).unwrap_or_default();
                seen.push(odd);
            }
            note!(args, "after {i}: {total}");
        }
        Ok(format!("{total} {seen:?}"))
    }

    match_on_an_answer(args) => {
        let point = Point { x: 1, y: 2 };
        let reply = match ask!(pick = elicit::<Pick>("Color?")) {
            Elicited::Accept(Pick { color: Color::Red }) => {
                note!(args, "red");
                let yes = ask!(sure = elicit::<Yes>("Sure about red?")).ok().is_some_and(|y| y.yes);
                format!("red {yes} {}", point.x)
            }
            Elicited::Accept(Pick { color }) => {
                note!(args, "other {color:?}");
                format!("{color:?} {}", point.y)
            }
            Elicited::Decline(refused) | Elicited::Cancel(refused) => return Err(refuse(refused)),
        };
        note!(args, "reply {reply}");
        Ok(reply)
    }
}

#[derive(Clone)]
struct Run {
    answers: Vec<Value>,
    n: u32,
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

/// The scripts each body is run with.
fn cases(name: &str) -> Vec<Run> {
    let text = |t: &str| accept(json!({"text": t}));
    let num = |n: i64| accept(json!({"num": n}));
    let yes = |y: bool| accept(json!({"yes": y}));
    let pick = |c: &str| accept(json!({"color": c}));
    let decline = json!({"action": "decline"});
    let run = |n: u32, answers: Vec<Value>| Run { answers, n };
    match name {
        "straight_line" => vec![
            run(1, vec![text("a"), num(21)]),
            run(1, vec![decline.clone()]),
        ],
        "if_else_in_a_loop" => vec![
            run(0, vec![]),
            run(3, vec![num(1), text("x"), num(5)]),
            run(4, vec![num(2), decline.clone(), num(3), text("y")]),
            run(2, vec![decline.clone()]),
        ],
        "match_on_an_answer" => vec![
            run(0, vec![pick("red"), yes(true)]),
            run(0, vec![pick("blue")]),
            run(0, vec![decline.clone()]),
        ],
        other => panic!("no cases for {other}"),
    }
}

#[derive(Debug, PartialEq)]
struct Observed {
    result: Result<String, String>,
    asked: Vec<(String, String)>,
    journal: Vec<String>,
}

static RUNS: AtomicU64 = AtomicU64::new(0);

fn fresh_run(label: &str) -> String {
    let id = RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    format!("{label}-{id}")
}

async fn straight(name: &str, case: &Run) -> Observed {
    let run = fresh_run("straight");
    let args = Args {
        run: run.clone(),
        n: case.n,
    };
    let (result, asked) = SCRIPT
        .scope(Script::new(case.answers.clone()), async {
            let result = run_straight(name, args).await;
            (result, SCRIPT.with(Script::asked))
        })
        .await;
    Observed {
        result,
        asked,
        journal: journal(&run),
    }
}

async fn in_rounds(
    client: &rmcp::service::RunningService<rmcp::service::RoleClient, rmcp::model::ClientConfig>,
    name: &str,
    case: &Run,
) -> Observed {
    let run = fresh_run("rounds");
    let arguments: JsonObject = serde_json::from_value(json!({"run": run, "n": case.n})).unwrap();
    let mut params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
    let mut answers = case.answers.clone().into_iter();
    let mut asked = Vec::new();
    for _ in 0..=case.answers.len() {
        match client
            .call_tool_once(params.clone())
            .await
            .expect("the round succeeds")
        {
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
                let requests = input.input_requests.unwrap_or_default();
                assert_eq!(requests.len(), 1, "one question per round");
                let (key, request) = requests.into_iter().next().unwrap();
                let request = serde_json::to_value(request).unwrap();
                asked.push((
                    key.clone(),
                    request["params"]["message"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                ));
                let answer = answers
                    .next()
                    .expect("the script has an answer for every round");
                params.input_responses = Some(InputResponses::from([(key, answer)]));
                params.request_state = input.request_state;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    panic!("{name} asked more questions than the script answers")
}

#[tokio::test]
async fn resumed_rounds_equal_the_straight_run() {
    tokio::time::timeout(Duration::from_secs(120), async {
        let server = Corpus {
            tool_router: Corpus::tool_router(),
            engine: TestClock::default().engine(),
        };
        let loopback = mrtr_tests::loopback::Loopback::start(server)
            .await
            .expect("server starts");
        let mut checked = BTreeMap::new();
        for name in NAMES {
            for (index, case) in cases(name).iter().enumerate() {
                let expected = straight(name, case).await;
                let observed = in_rounds(&loopback.client, name, case).await;
                assert_eq!(observed, expected, "{name}, case {index}");
                *checked.entry(*name).or_insert(0) += 1;
            }
        }
        assert_eq!(checked.len(), NAMES.len());
    })
    .await
    .expect("the corpus ran in time");
}

impl mrtr::MrtrServer for Corpus {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Corpus {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}
