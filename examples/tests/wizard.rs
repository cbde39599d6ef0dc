//! The wizard's tools, unit-tested with `mrtr::testing`: each call runs in process, its answers
//! scripted per key.

use mrtr::{
    Engine,
    testing::{Answer, Harness, HarnessError, Kind, Run},
};
use mrtr_examples::wizard::{MAX_REPOS, Wizard};
use rmcp::model::ErrorCode;
use serde_json::json;

async fn wizard() -> Harness {
    let engine = Engine::builder()
        .without_principal()
        .build()
        .expect("an engine with a random key");
    Harness::start(Wizard::new(engine)).await
}

fn ada() -> Answer {
    Answer::accept(json!({"name": "Ada", "email": "ada@example.com"}))
}

fn plan(plan: &str) -> Answer {
    Answer::accept(json!({"plan": plan}))
}

fn confirm(yes: bool) -> Answer {
    Answer::accept(json!({"confirm": yes}))
}

/// Every `requestState` of the run is new and smaller than `bytes`.
#[track_caller]
fn assert_small_fresh_states(run: &Run, bytes: usize) {
    let states: std::collections::BTreeSet<&str> =
        run.rounds().iter().map(|r| r.state.as_str()).collect();
    assert_eq!(
        states.len(),
        run.round_count(),
        "a state was handed out twice"
    );
    assert!(
        run.max_state_bytes() < bytes,
        "a state of {} bytes, over {bytes}",
        run.max_state_bytes()
    );
}

mod signup {
    use super::*;

    #[tokio::test]
    async fn asks_three_questions_then_signs_up() {
        let harness = wizard().await;
        let run = harness
            .call("signup")
            .arguments(json!({"team": "Analytical Engines"}))
            .answer("profile", ada())
            .answer("plan", plan("pro"))
            .answer("confirm", confirm(true))
            .run()
            .await
            .unwrap();

        assert_eq!(run.keys(), ["profile", "plan", "confirm"]);
        assert_eq!(run.round_count(), 3);
        assert_eq!(
            run.asked("profile").message,
            "Welcome to Analytical Engines! What should we call you?"
        );
        assert_eq!(run.asked("plan").message, "Which plan would you like?");
        assert_eq!(run.asked("confirm").message, "Sign Ada up for pro?");
        assert!(run.questions().all(|q| q.kind == Kind::Form));
        assert_small_fresh_states(&run, 256);

        assert!(!run.is_error());
        assert_eq!(
            run.text(),
            "Signed up Ada to Analytical Engines on the pro plan"
        );
        assert_eq!(
            run.result().structured_content,
            Some(json!({"name": "Ada", "team": "Analytical Engines", "plan": "pro"}))
        );
    }

    #[tokio::test]
    async fn its_forms_are_the_answer_types_schemas() {
        let harness = wizard().await;
        let run = harness
            .call("signup")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", ada())
            .answer("plan", plan("free"))
            .answer("confirm", confirm(true))
            .run()
            .await
            .unwrap();
        let profile = &run.asked("profile").schema;
        assert_eq!(profile["type"], "object");
        assert_eq!(profile["properties"]["name"]["type"], "string");
        assert_eq!(profile["properties"]["email"]["format"], "email");
        assert_eq!(profile["required"], json!(["name"]));
        assert_eq!(
            run.asked("plan").schema["properties"]["plan"]["enum"],
            json!(["free", "pro", "enterprise"])
        );
        assert_eq!(
            run.asked("confirm").schema["properties"]["confirm"]["type"],
            "boolean"
        );
    }

    #[tokio::test]
    async fn a_decline_or_cancel_at_any_key_ends_it_there() {
        let harness = wizard().await;
        let happy = [("profile", ada()), ("plan", plan("pro"))];
        for refusal in [Answer::decline(), Answer::cancel()] {
            for (at, key) in ["profile", "plan", "confirm"].into_iter().enumerate() {
                let mut call = harness.call("signup").arguments(json!({"team": "Rust"}));
                for (before, answer) in &happy[..at] {
                    call = call.answer(*before, answer.clone());
                }
                let run = call.answer(key, refusal.clone()).run().await.unwrap();
                assert!(run.is_error(), "{key}: {run:?}");
                assert_eq!(run.text(), format!("Signup cancelled at {key}"));
                assert_eq!(run.keys().last(), Some(&key));
                assert_eq!(run.round_count(), at + 1);
                assert_eq!(run.result().structured_content, None);
            }
        }
    }

    #[tokio::test]
    async fn saying_no_at_the_end_aborts() {
        let harness = wizard().await;
        let run = harness
            .call("signup")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", ada())
            .answer("plan", plan("enterprise"))
            .answer("confirm", confirm(false))
            .run()
            .await
            .unwrap();
        assert_eq!(run.asked("confirm").message, "Sign Ada up for enterprise?");
        assert!(!run.is_error());
        assert_eq!(run.text(), "Signup aborted");
    }

    #[tokio::test]
    async fn an_answer_that_does_not_fit_asks_again() {
        let harness = wizard().await;
        let run = harness
            .call("signup")
            .arguments(json!({"team": "Rust"}))
            .answers(
                "plan",
                [Answer::accept(json!({"plan": "platinum"})), plan("pro")],
            )
            .answer("profile", ada())
            .answer("confirm", confirm(true))
            .run()
            .await
            .unwrap();
        assert_eq!(run.keys(), ["profile", "plan", "plan", "confirm"]);
        assert_eq!(run.text(), "Signed up Ada to Rust on the pro plan");
    }

    #[tokio::test]
    async fn a_key_without_an_answer_fails_the_run_with_its_question() {
        let harness = wizard().await;
        let error = harness
            .call("signup")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", ada())
            .run()
            .await
            .unwrap_err();
        let HarnessError::Unscripted { question, .. } = &error else {
            panic!("{error}");
        };
        assert_eq!(question.key, "plan");
        assert!(
            error.to_string().contains("Which plan would you like?"),
            "{error}"
        );
    }

    #[tokio::test]
    async fn a_client_without_form_elicitation_gets_32021() {
        let engine = Engine::builder().without_principal().build().unwrap();
        let harness =
            Harness::with_capabilities(Wizard::new(engine), json!({"sampling": {}})).await;
        let error = harness
            .call("signup")
            .arguments(json!({"team": "Rust"}))
            .run()
            .await
            .unwrap_err();
        let protocol = error.protocol_error().expect("a JSON-RPC error");
        assert_eq!(protocol.code, ErrorCode(-32021));
        assert_eq!(
            protocol.data.as_ref().unwrap()["requiredCapabilities"],
            json!({"elicitation": {}})
        );
    }
}

mod onboard {
    use super::*;

    fn role(role: &str) -> Answer {
        Answer::accept(json!({"role": role}))
    }

    fn repo(name: &str, more: bool) -> Answer {
        Answer::accept(json!({"repo": name, "more": more}))
    }

    fn level(level: &str) -> Answer {
        Answer::accept(json!({"level": level}))
    }

    #[tokio::test]
    async fn branches_and_loops() {
        let harness = wizard().await;
        let run = harness
            .call("onboard")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", Answer::accept(json!({"name": "Ada"})))
            .answer("role", role("admin"))
            .answer("confirm_admin", confirm(true))
            .answers("repo", [repo("core", true), repo("book", false)])
            .answers("notify", [level("all"), level("mentions")])
            .run()
            .await
            .unwrap();
        assert_eq!(
            run.keys(),
            [
                "profile",
                "role",
                "confirm_admin",
                "repo",
                "repo",
                "notify",
                "notify"
            ]
        );
        let messages: Vec<&str> = run.questions().map(|q| q.message.as_str()).collect();
        assert_eq!(
            messages[3..],
            [
                "Add a repository to watch (0 so far)",
                "Add a repository to watch (1 so far)",
                "Notifications for core?",
                "Notifications for book?",
            ]
        );
        assert_eq!(
            run.text(),
            "Onboarded Ada as admin to Rust: core=all, book=mentions"
        );
        assert_eq!(
            run.result().structured_content.as_ref().unwrap()["role"],
            "admin"
        );
        assert!(run.unused_answers().is_empty());
    }

    #[tokio::test]
    async fn a_developer_is_not_asked_to_confirm() {
        let harness = wizard().await;
        let run = harness
            .call("onboard")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", Answer::accept(json!({"name": "Ada"})))
            .answer("role", role("developer"))
            .answer("repo", repo("core", false))
            .answer("notify", level("none"))
            .run()
            .await
            .unwrap();
        assert_eq!(run.keys(), ["profile", "role", "repo", "notify"]);
        assert_eq!(run.text(), "Onboarded Ada as developer to Rust: core=none");
    }

    #[tokio::test]
    async fn an_admin_who_backs_out_becomes_a_developer() {
        let harness = wizard().await;
        let run = harness
            .call("onboard")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", Answer::accept(json!({"name": "Ada"})))
            .answer("role", role("admin"))
            .answer("confirm_admin", confirm(false))
            .answer("repo", repo("core", false))
            .answer("notify", level("all"))
            .run()
            .await
            .unwrap();
        assert_eq!(
            run.asked("confirm_admin").message,
            "Admins can delete repositories. Continue as admin?"
        );
        assert_eq!(run.text(), "Onboarded Ada as developer to Rust: core=all");
    }

    #[tokio::test]
    async fn the_repo_loop_stops_at_the_cap_and_states_stay_small() {
        let harness = wizard().await;
        let names = ["a", "b", "c", "d", "e", "f"];
        let run = harness
            .call("onboard")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", Answer::accept(json!({"name": "Ada"})))
            .answer("role", role("admin"))
            .answer("confirm_admin", confirm(true))
            .answers("repo", names.map(|name| repo(name, true)))
            .answers("notify", names.map(|_| level("all")))
            .run()
            .await
            .unwrap();
        let asked = |key| run.keys().iter().filter(|k| **k == key).count();
        assert_eq!(asked("repo"), MAX_REPOS);
        assert_eq!(asked("notify"), MAX_REPOS);
        // The README's count: more than rmcp's own client allows by default.
        assert_eq!(run.round_count(), 13);
        assert_eq!(run.unused_answers(), ["notify", "repo"]);
        assert_small_fresh_states(&run, 256);
        assert_eq!(
            run.text(),
            "Onboarded Ada as admin to Rust: a=all, b=all, c=all, d=all, e=all"
        );
    }

    #[tokio::test]
    async fn a_decline_inside_the_for_loop_ends_it() {
        let harness = wizard().await;
        let run = harness
            .call("onboard")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", Answer::accept(json!({"name": "Ada"})))
            .answer("role", role("viewer"))
            .answers("repo", [repo("core", true), repo("book", false)])
            .answers("notify", [level("all"), Answer::decline()])
            .run()
            .await
            .unwrap();
        assert!(run.is_error());
        assert_eq!(run.text(), "Onboarding cancelled at notify");
        assert_eq!(run.round_count(), 6);
    }

    #[tokio::test]
    async fn a_round_bound_below_the_call_fails_it() {
        let harness = wizard().await;
        let error = harness
            .call("onboard")
            .arguments(json!({"team": "Rust"}))
            .answer("profile", Answer::accept(json!({"name": "Ada"})))
            .answer("role", role("viewer"))
            .answers("repo", [repo("core", true), repo("book", false)])
            .answers("notify", [level("all"), level("all")])
            .max_rounds(4)
            .run()
            .await
            .unwrap_err();
        assert!(
            matches!(error, HarnessError::TooManyRounds { limit: 4, .. }),
            "{error}"
        );
    }
}

/// `provision` is a task tool; to a client without the tasks extension, as here, it is an
/// ordinary call with one round.
mod provision {
    use super::*;

    #[tokio::test]
    async fn prepares_asks_where_then_provisions() {
        let harness = wizard().await;
        let run = harness
            .call("provision")
            .arguments(json!({"team": "Rust", "prepare_ms": 10}))
            .answer("region", Answer::accept(json!({"region": "eu"})))
            .run()
            .await
            .unwrap();
        assert_eq!(run.keys(), ["region"]);
        assert_eq!(
            run.asked("region").message,
            "Rust's workspace is ready to create. Where should it live?"
        );
        assert_eq!(
            run.asked("region").schema["properties"]["region"]["enum"],
            json!(["eu", "us", "apac"])
        );
        assert_eq!(run.text(), "Provisioned Rust's workspace in eu");

        let run = harness
            .call("provision")
            .arguments(json!({"team": "Rust", "prepare_ms": 0}))
            .answer("region", Answer::decline())
            .run()
            .await
            .unwrap();
        assert!(run.is_error());
        assert_eq!(run.text(), "Provisioning cancelled at region");
    }
}
