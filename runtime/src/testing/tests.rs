//! The harness on a small server that asks every kind of question.

use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::ErrorCode,
    tool, tool_handler, tool_router,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Answer, Harness, HarnessError, Kind};
use crate::{Form, ask, checkpoint, elicit, elicit_url, mrtr_tool, roots, sample};

#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema, Form)]
struct Name {
    name: String,
}

#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema, Form)]
struct Item {
    item: String,
    more: bool,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Ticks {
    ticks: u32,
}

#[derive(Clone)]
struct Kinds {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Kinds {
    #[mrtr_tool]
    #[tool(description = "Asks a name")]
    async fn greet(&self) -> Result<String, String> {
        let name = ask!(user_name = elicit::<Name>("What is your name?"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .name;
        Ok(format!("Hello {name}"))
    }

    #[mrtr_tool]
    #[tool(description = "Collects items until told to stop")]
    async fn collect(&self) -> Result<String, String> {
        let mut items = Vec::new();
        loop {
            let answer = ask!(item = elicit::<Item>(format!("Item {}?", items.len() + 1)))
                .accepted()
                .map_err(|refused| refused.to_string())?;
            items.push(answer.item);
            if !answer.more {
                break;
            }
        }
        Ok(items.join(","))
    }

    #[mrtr_tool]
    #[tool(description = "A form, a sample and the roots in one round, then a page")]
    async fn everything(&self) -> Result<String, String> {
        let (name, capital, places) = ask!(
            user_name = elicit::<Name>("What is your name?"),
            capital = sample("What is the capital of France?").max_tokens(10),
            client_roots = roots(),
        );
        let name = name.accepted().map_err(|r| r.to_string())?.name;
        ask!(login = elicit_url("Sign in", "https://example.com/login"))
            .accepted()
            .map_err(|r| r.to_string())?;
        let uris: Vec<String> = places.into_iter().map(|root| root.uri).collect();
        Ok(format!("{name}|{}|{}", capital.text, uris.join(",")))
    }

    #[mrtr_tool]
    #[tool(description = "A page whose URL is not absolute")]
    async fn relative_page(&self) -> Result<String, String> {
        ask!(login = elicit_url("Sign in", "/login"))
            .accepted()
            .map_err(|r| r.to_string())?;
        Ok("signed in".to_owned())
    }

    #[mrtr_tool]
    #[tool(description = "State-only rounds")]
    async fn ticker(&self, Parameters(args): Parameters<Ticks>) -> String {
        let mut done = 0;
        while done < args.ticks {
            ask!(tick = checkpoint());
            done += 1;
        }
        format!("{done} ticks")
    }
}

impl crate::MrtrServer for Kinds {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Kinds {}

async fn harness() -> Harness {
    Harness::start(Kinds {
        tool_router: Kinds::tool_router(),
    })
    .await
}

#[tokio::test]
async fn a_scripted_call_records_its_questions_rounds_and_result() {
    let harness = harness().await;
    let run = harness
        .call("greet")
        .answer("user_name", Answer::accept(Name { name: "Ada".into() }))
        .run()
        .await
        .unwrap();
    assert_eq!(run.text(), "Hello Ada");
    assert!(!run.is_error());
    assert_eq!(run.round_count(), 1);
    assert_eq!(run.keys(), ["user_name"]);
    let asked = run.asked("user_name");
    assert_eq!(asked.kind, Kind::Form);
    assert_eq!(asked.message, "What is your name?");
    assert_eq!(asked.schema["properties"]["name"]["type"], "string");
    assert_eq!(asked.request["method"], "elicitation/create");
    assert_eq!(run.rounds()[0].state_bytes(), run.max_state_bytes());
    assert!(run.max_state_bytes() > 0);
    assert!(run.unused_answers().is_empty());
}

#[tokio::test]
async fn declines_and_cancels_reach_the_tool() {
    let harness = harness().await;
    for (answer, text) in [
        (Answer::decline(), "the user declined `user_name`"),
        (Answer::cancel(), "the user cancelled `user_name`"),
    ] {
        let run = harness
            .call("greet")
            .answer("user_name", answer)
            .run()
            .await
            .unwrap();
        assert!(run.is_error(), "{run:?}");
        assert_eq!(run.text(), text);
    }
}

#[tokio::test]
async fn a_key_asked_again_takes_the_next_queued_answer() {
    let harness = harness().await;
    let run = harness
        .call("collect")
        .answers(
            "item",
            [
                Answer::accept(json!({"item": "a", "more": true})),
                Answer::raw(json!({"action": "accept", "content": {"item": "b"}})),
                Answer::accept(json!({"item": "b", "more": true})),
            ],
        )
        .answer("item", Answer::accept(json!({"item": "c", "more": false})))
        .run()
        .await
        .unwrap();
    assert_eq!(run.text(), "a,b,c");
    assert_eq!(run.keys(), ["item"; 4]);
    let messages: Vec<&str> = run.questions().map(|q| q.message.as_str()).collect();
    // The answer that does not fit asks the same question again.
    assert_eq!(messages, ["Item 1?", "Item 2?", "Item 2?", "Item 3?"]);
}

#[tokio::test]
async fn answers_left_over_are_reported() {
    let harness = harness().await;
    let run = harness
        .call("greet")
        .answer("user_name", Answer::accept(json!({"name": "Ada"})))
        .answer("user_name", Answer::decline())
        .answer("never", Answer::cancel())
        .run()
        .await
        .unwrap();
    assert_eq!(run.unused_answers(), ["never", "user_name"]);
}

#[tokio::test]
async fn every_kind_of_question_is_read_and_answered() {
    let harness = harness().await;
    let run = harness
        .call("everything")
        .answer("user_name", Answer::accept(json!({"name": "Ada"})))
        .answer("capital", Answer::sampled("Paris"))
        .answer("client_roots", Answer::roots(["file:///a", "file:///b"]))
        .answer("login", Answer::accept_url())
        .run()
        .await
        .unwrap();
    assert_eq!(run.text(), "Ada|Paris|file:///a,file:///b");
    assert_eq!(run.round_count(), 2);
    assert_eq!(
        run.rounds()[0].keys(),
        ["capital", "client_roots", "user_name"]
    );
    assert_eq!(run.asked("capital").kind, Kind::Sampling);
    assert_eq!(
        run.asked("capital").message,
        "What is the capital of France?"
    );
    assert_eq!(run.asked("capital").schema, serde_json::Value::Null);
    assert_eq!(run.asked("client_roots").kind, Kind::Roots);
    assert_eq!(run.asked("client_roots").message, "");
    assert_eq!(run.asked("login").kind, Kind::Url);
    assert_eq!(run.asked("login").message, "Sign in");
    assert_eq!(
        run.asked("login").request["params"]["url"],
        "https://example.com/login"
    );
}

#[tokio::test]
async fn checkpoints_are_rounds_without_questions() {
    let harness = harness().await;
    let run = harness
        .call("ticker")
        .arguments(json!({"ticks": 3}))
        .run()
        .await
        .unwrap();
    assert_eq!(run.text(), "3 ticks");
    assert_eq!(run.round_count(), 3);
    assert!(run.keys().is_empty());
    assert!(run.rounds().iter().all(|round| !round.state.is_empty()));
}

#[tokio::test]
async fn a_question_without_an_answer_left_names_its_key_and_message() {
    let harness = harness().await;
    let error = harness
        .call("collect")
        .answer("item", Answer::accept(json!({"item": "a", "more": true})))
        .run()
        .await
        .unwrap_err();
    let HarnessError::Unscripted { question, rounds } = &error else {
        panic!("expected an unscripted question, got {error}")
    };
    assert_eq!(question.key, "item");
    assert_eq!(question.message, "Item 2?");
    assert_eq!(rounds.len(), 2);
    let message = error.to_string();
    assert!(message.contains("`item`"), "{message}");
    assert!(message.contains("Item 2?"), "{message}");
    assert!(message.contains("round 2"), "{message}");
    assert_eq!(format!("{error:?}"), message);
}

#[tokio::test]
async fn a_call_past_the_round_bound_fails() {
    let harness = harness().await;
    let error = harness
        .call("ticker")
        .arguments(json!({"ticks": 50}))
        .max_rounds(5)
        .run()
        .await
        .unwrap_err();
    assert!(
        matches!(error, HarnessError::TooManyRounds { limit: 5, .. }),
        "{error}"
    );
    assert_eq!(error.rounds().len(), 6);
    assert!(error.to_string().contains("more than 5 times"), "{error}");
    // Within the bound it completes.
    let run = harness
        .call("ticker")
        .arguments(json!({"ticks": 5}))
        .max_rounds(5)
        .run()
        .await
        .unwrap();
    assert_eq!(run.round_count(), 5);
}

#[tokio::test]
async fn a_missing_capability_is_a_protocol_error() {
    let harness = Harness::with_capabilities(
        Kinds {
            tool_router: Kinds::tool_router(),
        },
        json!({"elicitation": {"form": {}}}),
    )
    .await;
    let error = harness.call("everything").run().await.unwrap_err();
    let protocol = error.protocol_error().expect("a JSON-RPC error");
    assert_eq!(protocol.code, ErrorCode(-32021));
    assert_eq!(
        protocol.data.as_ref().unwrap()["requiredCapabilities"],
        json!({"sampling": {}, "roots": {}})
    );
    assert!(error.rounds().is_empty());
    assert!(error.to_string().contains("-32021"), "{error}");
}

#[tokio::test]
async fn a_url_elicitation_whose_url_is_not_absolute_is_an_internal_error() {
    let harness = harness().await;
    let error = harness.call("relative_page").run().await.unwrap_err();
    let protocol = error.protocol_error().expect("a JSON-RPC error");
    assert_eq!(protocol.code, ErrorCode::INTERNAL_ERROR);
    assert!(error.rounds().is_empty());
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() {
    let harness = harness().await;
    let error = harness.call("nope").run().await.unwrap_err();
    assert!(error.protocol_error().is_some(), "{error}");
}
