//! How big `requestState` is: no larger than a hand-written tool's at any round, and growing
//! only with what the tool holds.

use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use mrtr::{
    Engine,
    testing::{Answer, Harness},
};
use mrtr_examples::wizard::Wizard;
use mrtr_tests::baseline::HandWritten;
use serde_json::json;

fn engine() -> Engine {
    Engine::builder()
        .key(1, mrtr_tests::keys::test_key(7))
        .without_principal()
        .build()
        .unwrap()
}

/// The bytes a state carries before base64.
fn raw_len(state: &str) -> usize {
    URL_SAFE_NO_PAD.decode(state).expect("base64url").len()
}

/// Over 50 rounds of `questions`, each state is the one before plus the answer it now holds:
/// a length byte and the text. Nothing else grows.
#[tokio::test]
async fn a_50_round_state_grows_only_with_the_answers_it_holds() {
    let harness = Harness::start(Wizard::new(engine())).await;
    let answers: Vec<String> = (1..=50).map(|round| format!("answer {round}")).collect();
    let run = harness
        .call("questions")
        .arguments(json!({"questions": 50}))
        .answers(
            "q",
            answers
                .iter()
                .map(|answer| Answer::accept(json!({ "answer": answer }))),
        )
        .run()
        .await
        .unwrap();
    assert_eq!(run.text(), answers.join(", "));
    let sizes: Vec<usize> = run.rounds().iter().map(|r| raw_len(&r.state)).collect();
    eprintln!(
        "{:?}",
        run.rounds()
            .iter()
            .take(3)
            .map(|r| r.state.clone())
            .collect::<Vec<_>>()
    );
    assert_eq!(sizes.len(), 50);
    for (round, pair) in sizes.windows(2).enumerate() {
        let held = 1 + answers[round].len();
        assert_eq!(
            pair[1] - pair[0],
            held,
            "round {} to {}: {sizes:?}",
            round + 1,
            round + 2
        );
    }
    // Round 1 holds no answer yet: the envelope, the header, the loop's counters and an empty
    // list, and the 4-byte type check of what is held.
    assert!(sizes[0] <= 52, "{sizes:?}");
}

/// A tool's rounds on both servers with the same answers: every round's state from mrtr is no
/// larger than the hand-written one's (sealed with rmcp's HMAC codec, which signs and does not
/// encrypt), and both end alike.
async fn no_larger_than_by_hand(
    tool: &str,
    arguments: serde_json::Value,
    answers: &[(&str, Answer)],
) {
    let run = async |harness: Harness| {
        let mut call = harness.call(tool).arguments(arguments.clone());
        for (key, answer) in answers {
            call = call.answer(*key, answer.clone());
        }
        call.run().await.unwrap()
    };
    let ours = run(Harness::start(Wizard::new(engine())).await).await;
    let theirs = run(Harness::start(HandWritten::new()).await).await;
    assert_eq!(ours.keys(), theirs.keys(), "{tool}");
    assert_eq!(ours.text(), theirs.text(), "{tool}");
    let sizes = |run: &mrtr::testing::Run| -> Vec<usize> {
        run.rounds()
            .iter()
            .map(|round| round.state_bytes())
            .collect()
    };
    let (ours, theirs) = (sizes(&ours), sizes(&theirs));
    for (round, (ours, theirs)) in ours.iter().zip(&theirs).enumerate() {
        assert!(
            ours <= theirs,
            "{tool} round {}: mrtr {ours} B, hand-written {theirs} B",
            round + 1
        );
    }
}

fn accept(content: serde_json::Value) -> Answer {
    Answer::accept(content)
}

#[tokio::test]
async fn signup_states_are_no_larger_than_hand_written_ones() {
    no_larger_than_by_hand(
        "signup",
        json!({"team": "Analytical Engines"}),
        &[
            (
                "profile",
                accept(json!({"name": "Ada", "email": "ada@example.com"})),
            ),
            ("plan", accept(json!({"plan": "enterprise"}))),
            ("confirm", accept(json!({"confirm": true}))),
        ],
    )
    .await;
}

#[tokio::test]
async fn onboard_states_are_no_larger_than_hand_written_ones() {
    no_larger_than_by_hand(
        "onboard",
        json!({"team": "Navy"}),
        &[
            ("profile", accept(json!({"name": "Grace Hopper"}))),
            ("role", accept(json!({"role": "admin"}))),
            ("confirm_admin", accept(json!({"confirm": true}))),
            ("repo", accept(json!({"repo": "cobol", "more": true}))),
            ("repo", accept(json!({"repo": "flow-matic", "more": true}))),
            ("repo", accept(json!({"repo": "a-0", "more": false}))),
            ("notify", accept(json!({"level": "all"}))),
            ("notify", accept(json!({"level": "mentions"}))),
            ("notify", accept(json!({"level": "none"}))),
        ],
    )
    .await;
}

#[tokio::test]
async fn wizard5_states_are_no_larger_than_hand_written_ones() {
    let answers: Vec<(String, Answer)> = (1..=5)
        .map(|n| {
            (
                format!("q{n}"),
                accept(json!({"answer": format!("answer number {n}")})),
            )
        })
        .collect();
    let answers: Vec<(&str, Answer)> = answers
        .iter()
        .map(|(key, answer)| (key.as_str(), answer.clone()))
        .collect();
    no_larger_than_by_hand("wizard5", json!({}), &answers).await;
}

/// The same loop over ten repositories, iterating a clone and borrowing from the `Vec` it
/// holds anyway.
mod loops {
    use mrtr::{ask, elicit, mrtr_tool};
    use rmcp::{
        ServerHandler, handler::server::router::tool::ToolRouter, model::ServerConfig, tool,
        tool_handler, tool_router,
    };

    #[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]
    pub struct Level {
        level: String,
    }

    pub fn repos() -> Vec<String> {
        (0..10)
            .map(|i| format!("github.com/analytical-engines/repository-{i}"))
            .collect()
    }

    #[derive(Clone)]
    pub struct Loops {
        tool_router: ToolRouter<Self>,
        engine: mrtr::Engine,
    }

    impl Loops {
        pub fn new(engine: mrtr::Engine) -> Self {
            Self {
                tool_router: Self::tool_router(),
                engine,
            }
        }
    }

    #[tool_router]
    impl Loops {
        #[mrtr_tool]
        #[tool]
        async fn copied(&self) -> Result<String, String> {
            let text = format!("  {}  ", "x".repeat(40));
            let repos = repos();
            let name = text.trim().to_owned();
            let first = repos.first().cloned();
            let level = ask!(level = elicit::<Level>(format!("Level for {name}?")))
                .accepted()
                .map_err(|refused| refused.to_string())?
                .level;
            Ok(format!(
                "{name} {first:?} {level} {} {}",
                text.len(),
                repos.len()
            ))
        }

        #[mrtr_tool]
        #[tool]
        async fn made_again(&self) -> Result<String, String> {
            let text = format!("  {}  ", "x".repeat(40));
            let repos = repos();
            let name = text.trim();
            let first = repos.first();
            let level = ask!(level = elicit::<Level>(format!("Level for {name}?")))
                .accepted()
                .map_err(|refused| refused.to_string())?
                .level;
            Ok(format!(
                "{name} {first:?} {level} {} {}",
                text.len(),
                repos.len()
            ))
        }

        #[mrtr_tool]
        #[tool]
        async fn arm_copied(&self) -> Result<String, String> {
            let repos = repos();
            match repos.first().cloned() {
                Some(first) => {
                    let level = ask!(level = elicit::<Level>(format!("Level for {first}?")))
                        .accepted()
                        .map_err(|refused| refused.to_string())?
                        .level;
                    Ok(format!("{first} {level} {}", repos.len()))
                }
                None => Ok(String::new()),
            }
        }

        #[mrtr_tool]
        #[tool]
        async fn arm_bound_again(&self) -> Result<String, String> {
            let repos = repos();
            match repos.first() {
                Some(first) => {
                    let level = ask!(level = elicit::<Level>(format!("Level for {first}?")))
                        .accepted()
                        .map_err(|refused| refused.to_string())?
                        .level;
                    Ok(format!("{first} {level} {}", repos.len()))
                }
                None => Ok(String::new()),
            }
        }

        #[mrtr_tool]
        #[tool]
        async fn collected_copies(&self) -> Result<String, String> {
            let repos = repos();
            let names: Vec<String> = repos
                .iter()
                .map(|repo| repo.trim_start_matches("github.com/").to_owned())
                .filter(|name| name.ends_with('1') || name.ends_with('2'))
                .collect();
            let level = ask!(level = elicit::<Level>(format!("Level for {names:?}?")))
                .accepted()
                .map_err(|refused| refused.to_string())?
                .level;
            Ok(format!("{names:?} {level} {}", repos.len()))
        }

        #[mrtr_tool]
        #[tool]
        async fn collected_again(&self) -> Result<String, String> {
            let repos = repos();
            let names: Vec<&str> = repos
                .iter()
                .map(|repo| repo.trim_start_matches("github.com/"))
                .filter(|name| name.ends_with('1') || name.ends_with('2'))
                .collect();
            let level = ask!(level = elicit::<Level>(format!("Level for {names:?}?")))
                .accepted()
                .map_err(|refused| refused.to_string())?
                .level;
            Ok(format!("{names:?} {level} {}", repos.len()))
        }

        #[mrtr_tool]
        #[tool]
        async fn owned(&self) -> Result<String, String> {
            let repos = repos();
            let mut levels = Vec::new();
            for repo in repos.clone() {
                let level = ask!(level = elicit::<Level>(format!("Level for {repo}?")))
                    .accepted()
                    .map_err(|refused| refused.to_string())?
                    .level;
                levels.push(format!("{repo}={level}"));
            }
            Ok(format!("{} {}", repos.len(), levels.join(",")))
        }

        #[mrtr_tool]
        #[tool]
        async fn borrowed(&self) -> Result<String, String> {
            let repos = repos();
            let mut levels = Vec::new();
            for repo in &repos {
                let level = ask!(level = elicit::<Level>(format!("Level for {repo}?")))
                    .accepted()
                    .map_err(|refused| refused.to_string())?
                    .level;
                levels.push(format!("{repo}={level}"));
            }
            Ok(format!("{} {}", repos.len(), levels.join(",")))
        }
    }

    impl mrtr::MrtrServer for Loops {
        fn mrtr_engine(&self) -> &mrtr::Engine {
            &self.engine
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Loops {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(
                rmcp::model::ServerCapabilities::builder()
                    .enable_tools()
                    .build(),
            )
        }
    }
}

/// A loop over items borrowed from a held `Vec` carries a count, not the items left: from one
/// round to the next its state grows by the answer it now holds alone, and it is smaller than
/// the loop over a clone by the items left and the one it is at (each a length byte and the
/// text).
#[tokio::test]
async fn a_loop_over_borrowed_items_carries_a_count_not_the_items_left() {
    let harness = Harness::start(loops::Loops::new(engine())).await;
    let run = async |tool: &str| {
        let answers = (0..10).map(|_| Answer::accept(json!({"level": "all"})));
        harness
            .call(tool)
            .answers("level", answers)
            .run()
            .await
            .unwrap()
    };
    let (owned, borrowed) = (run("owned").await, run("borrowed").await);
    assert_eq!(owned.text(), borrowed.text());
    let sizes = |run: &mrtr::testing::Run| -> Vec<usize> {
        run.rounds().iter().map(|r| raw_len(&r.state)).collect()
    };
    let (owned, borrowed) = (sizes(&owned), sizes(&borrowed));
    let repos = loops::repos();
    for round in 0..10 {
        // The items left, and the one the loop is at, which the clone's loop saves too.
        let left: usize = repos[round..].iter().map(|repo| 1 + repo.len()).sum();
        assert_eq!(
            owned[round] - borrowed[round],
            left,
            "round {}: owned {owned:?}, borrowed {borrowed:?}",
            round + 1
        );
        if round > 0 {
            let held = 1 + format!("{}=all", repos[round - 1]).len();
            assert_eq!(borrowed[round] - borrowed[round - 1], held, "{borrowed:?}");
        }
    }
}

/// A `let` that only borrows from what the tool holds is made again on resume, so it costs no
/// bytes of its own: where the tool holds what it borrows from anyway, the state is smaller
/// than the one holding owned copies by exactly those copies. (Where it does not, the borrow
/// keeps it alive, and it is saved instead.)
#[tokio::test]
async fn a_borrowing_let_costs_no_bytes() {
    let (copied, made_again) = first_state_sizes("copied", "made_again").await;
    let first = loops::repos().remove(0);
    // A length byte and 40 `x`s; a `Some` tag, a length byte and the repository.
    let copies = (1 + 40) + (1 + 1 + first.len());
    assert_eq!(copied - made_again, copies);
}

/// An arm whose binding borrows from a `Vec` the tool holds anyway is bound again on resume:
/// its state is smaller than that of the arm on a clone by the item it holds, a length byte and
/// the repository.
#[tokio::test]
async fn an_arm_that_borrows_costs_no_bytes() {
    let (copied, bound_again) = first_state_sizes("arm_copied", "arm_bound_again").await;
    let first = loops::repos().remove(0);
    assert_eq!(copied - bound_again, 1 + first.len());
}

/// References collected from a `Vec` the tool holds anyway, through a pick and a test that
/// reads, are collected again on resume: the state is smaller than that of the owned copies by
/// those copies, a length byte for the `Vec` and a length byte and the text for each.
#[tokio::test]
async fn collected_references_cost_no_bytes() {
    let (copied, collected) = first_state_sizes("collected_copies", "collected_again").await;
    let names = [
        "analytical-engines/repository-1",
        "analytical-engines/repository-2",
    ];
    let copies = 1 + names.iter().map(|name| 1 + name.len()).sum::<usize>();
    assert_eq!(copied - collected, copies);
}

/// The first round's state size of two `loops` tools, each answered with one level, after
/// checking that they return the same text.
async fn first_state_sizes(copying: &str, borrowing: &str) -> (usize, usize) {
    let harness = Harness::start(loops::Loops::new(engine())).await;
    let run = async |tool: &str| {
        harness
            .call(tool)
            .answers("level", [Answer::accept(json!({"level": "all"}))])
            .run()
            .await
            .unwrap()
    };
    let (copied, borrowed) = (run(copying).await, run(borrowing).await);
    assert_eq!(copied.text(), borrowed.text());
    let size = |run: &mrtr::testing::Run| raw_len(&run.rounds()[0].state);
    (size(&copied), size(&borrowed))
}
