//! The two runs the differential tests compare: a body run straight through, each `ask!`
//! answered at once from a script, and the same body as a resumable tool, answered round by
//! round over a real rmcp client.

use std::{
    future::Future,
    sync::atomic::{AtomicU64, Ordering},
};

use rmcp::{
    model::{CallToolRequestParams, CallToolResponse, InputResponses, JsonObject},
    service::{RoleClient, RunningService},
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::straight::{SCRIPT, Script, journal};

/// The arguments of every differential body.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Args {
    /// Names the journal of this run.
    pub run: String,
    /// A number the bodies branch and loop on.
    pub n: u32,
}

/// One script: the argument `n` and the answers, in the order the questions come.
#[derive(Debug, Clone)]
pub struct Run {
    pub answers: Vec<Value>,
    pub n: u32,
}

/// What a run shows: its result, the questions it asked (key and message) and its journal.
#[derive(Debug, PartialEq)]
pub struct Observed {
    pub result: Result<String, String>,
    pub asked: Vec<(String, String)>,
    pub journal: Vec<String>,
}

/// An accepted form answer with `content`.
pub fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

static RUNS: AtomicU64 = AtomicU64::new(0);

/// A journal name no other run has.
fn fresh_run(label: &str) -> String {
    let id = RUNS.fetch_add(1, Ordering::SeqCst);
    format!("{label}-{id}")
}

/// Runs `body` straight through, each `ask!` answered from `case`'s script.
pub async fn straight<F, Fut>(case: &Run, body: F) -> Observed
where
    F: FnOnce(Args) -> Fut,
    Fut: Future<Output = Result<String, String>>,
{
    let run = fresh_run("straight");
    let args = Args {
        run: run.clone(),
        n: case.n,
    };
    let (result, asked) = SCRIPT
        .scope(Script::new(case.answers.clone()), async {
            let result = body(args).await;
            (result, SCRIPT.with(Script::asked))
        })
        .await;
    Observed {
        result,
        asked,
        journal: journal(&run),
    }
}

/// Calls tool `name` round by round through `client`, answering each round's one question
/// with the script's next answer.
pub async fn in_rounds(
    client: &RunningService<RoleClient, rmcp::model::ClientConfig>,
    name: &str,
    case: &Run,
) -> Observed {
    let run = fresh_run("rounds");
    let arguments: JsonObject = serde_json::from_value(json!({"run": run, "n": case.n})).unwrap();
    let mut params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
    let mut answers = case.answers.clone().into_iter();
    let mut asked = Vec::new();
    loop {
        let response = match client.call_tool_once(params.clone()).await {
            Ok(response) => response,
            // A failed round (say, a state that does not restore) shows up as a mismatch.
            Err(error) => {
                return Observed {
                    result: Err(format!("round failed: {error}")),
                    asked,
                    journal: journal(&run),
                };
            }
        };
        match response {
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
                let Some(answer) = answers.next() else {
                    return Observed {
                        result: Err("asked more questions than the script answers".to_owned()),
                        asked,
                        journal: journal(&run),
                    };
                };
                params.input_responses = Some(InputResponses::from([(key, answer)]));
                params.request_state = input.request_state;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
