//! The wizard's `onboard` tool driven end to end by real rmcp clients, round by round, over
//! loopback HTTP, an in-memory duplex pipe and a real child process on stdio.
//!
//! `onboard` branches (`confirm_admin` only for admins), loops (`repo` until `more` is false
//! or five repositories are collected) and iterates (`notify` once per repository, in order).
//! Every scenario is written once against a connected 2026-07-28 client and run on each
//! transport (see the `transport_tests!` invocation at the bottom).

use std::collections::BTreeSet;

use mrtr_examples::{demo::text_of, wizard::MAX_REPOS};
use mrtr_tests::{
    rounds::{
        Asked, Rounds, Tool, accept, assert_asked, assert_tool_error, cancel, decline, keys_of,
        messages_of,
    },
    transports::{Client, Connected, Via},
    user::ScriptedUser,
};
use rmcp::{ServiceError, model::CallToolResult};
use serde_json::{Value, json};

/// Every sealed state of `onboard` stays below this many bytes.
const SMALL_STATE: usize = 1024;

const ONBOARD: Tool = Tool {
    name: "onboard",
    small_states: Some(SMALL_STATE),
};

const WELCOME: &str = "Welcome to Rust! What should we call you?";
const WHICH_ROLE: &str = "Which role will you take?";
const CONFIRM_ADMIN: &str = "Admins can delete repositories. Continue as admin?";

fn repo_message(so_far: usize) -> String {
    format!("Add a repository to watch ({so_far} so far)")
}

fn notify_message(repo: &str) -> String {
    format!("Notifications for {repo}?")
}

/// `client`'s calls of `onboard` for team Rust.
fn rust(client: &Client) -> Rounds<'_> {
    ONBOARD.rounds(client, "Rust")
}

fn ada() -> Value {
    accept(json!({ "name": "Ada" }))
}

fn role(role: &str) -> Value {
    accept(json!({ "role": role }))
}

fn confirm_admin(confirm: bool) -> Value {
    accept(json!({ "confirm": confirm }))
}

fn repo(repo: &str, more: bool) -> Value {
    accept(json!({ "repo": repo, "more": more }))
}

fn level(level: &str) -> Value {
    accept(json!({ "level": level }))
}

/// The result of a completed onboarding of Ada to Rust.
fn assert_onboarded(result: &CallToolResult, role: &str, repos: &[(&str, &str)]) {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let listing: Vec<String> = repos
        .iter()
        .map(|(repo, level)| format!("{repo}={level}"))
        .collect();
    assert_eq!(
        text_of(result),
        format!("Onboarded Ada as {role} to Rust: {}", listing.join(", "))
    );
    let repos: Vec<Value> = repos
        .iter()
        .map(|(repo, level)| json!({ "repo": repo, "level": level }))
        .collect();
    assert_eq!(
        result.structured_content,
        Some(json!({ "name": "Ada", "role": role, "team": "Rust", "repos": repos }))
    );
}

/// Ada's answers, as `(key, answer)` rounds: `as_role`, then `confirm_admin` if `confirm` is
/// given, then a `repo` round for each `(repository, more)` and a `notify` round for each
/// level.
fn answers(
    as_role: &str,
    confirm: Option<bool>,
    repos: &[(&str, bool)],
    levels: &[&str],
) -> Vec<(&'static str, Value)> {
    let mut script = vec![("profile", ada()), ("role", role(as_role))];
    script.extend(confirm.map(|confirm| ("confirm_admin", confirm_admin(confirm))));
    script.extend(repos.iter().map(|(name, more)| ("repo", repo(name, *more))));
    script.extend(levels.iter().map(|l| ("notify", level(l))));
    script
}

/// `mrtr`, `rmcp`, then `tokio` and no more.
const THREE_REPOS: [(&str, bool); 3] = [("mrtr", true), ("rmcp", true), ("tokio", false)];

fn assert_cancelled_at(result: &CallToolResult, key: &str) {
    assert_tool_error(result, &format!("Onboarding cancelled at {key}"));
}

// =============================================================================
// Scenarios
// =============================================================================

/// Admin, confirmed; two repositories: every kind of round, in order.
async fn admin_confirmed(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = rust(client).run_script(&admin_script()).await?;
    assert_eq!(
        keys_of(&asked),
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
    assert_eq!(
        messages_of(&asked),
        [
            WELCOME,
            WHICH_ROLE,
            CONFIRM_ADMIN,
            &repo_message(0),
            &repo_message(1),
            &notify_message("mrtr"),
            &notify_message("rmcp"),
        ]
    );
    assert_onboarded(&result, "admin", &[("mrtr", "all"), ("rmcp", "mentions")]);

    // The forms are the typed answers' schemas.
    let name = &asked[0].schema;
    assert_eq!(name["required"], json!(["name"]), "{name}");
    assert_eq!(name["properties"]["name"]["type"], "string", "{name}");
    let roles = &asked[1].schema;
    assert_eq!(
        roles["properties"]["role"]["enum"],
        json!(["developer", "admin", "viewer"]),
        "{roles}"
    );
    let confirm = &asked[2].schema;
    assert_eq!(
        confirm["properties"]["confirm"]["type"], "boolean",
        "{confirm}"
    );
    let repo = &asked[3].schema;
    assert_eq!(repo["properties"]["repo"]["type"], "string", "{repo}");
    assert_eq!(repo["properties"]["more"]["type"], "boolean", "{repo}");
    let required: BTreeSet<&str> = repo["required"]
        .as_array()
        .map(|keys| keys.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert_eq!(required, BTreeSet::from(["repo", "more"]), "{repo}");
    let levels = &asked[5].schema;
    assert_eq!(
        levels["properties"]["level"]["enum"],
        json!(["all", "mentions", "none"]),
        "{levels}"
    );
    Ok(())
}

/// An admin who does not confirm carries on as a developer.
async fn admin_refused_becomes_developer(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = rust(client)
        .run_script(&answers(
            "admin",
            Some(false),
            &[("mrtr", false)],
            &["none"],
        ))
        .await?;
    assert_eq!(
        keys_of(&asked),
        ["profile", "role", "confirm_admin", "repo", "notify"]
    );
    assert_eq!(asked[2].message, CONFIRM_ADMIN);
    assert_onboarded(&result, "developer", &[("mrtr", "none")]);
    Ok(())
}

/// Only admins are asked to confirm.
async fn viewer_is_not_asked_to_confirm(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = rust(client)
        .run_script(&answers(
            "viewer",
            None,
            &[("mrtr", true), ("rmcp", false)],
            &["mentions", "all"],
        ))
        .await?;
    assert_eq!(
        keys_of(&asked),
        ["profile", "role", "repo", "repo", "notify", "notify"]
    );
    assert_eq!(
        messages_of(&asked),
        [
            WELCOME,
            WHICH_ROLE,
            &repo_message(0),
            &repo_message(1),
            &notify_message("mrtr"),
            &notify_message("rmcp"),
        ]
    );
    assert_onboarded(&result, "viewer", &[("mrtr", "mentions"), ("rmcp", "all")]);
    Ok(())
}

/// One repository: the loop runs once and so does the `for`.
async fn single_repo(client: &Client) -> anyhow::Result<()> {
    let (asked, result) = rust(client)
        .run_script(&answers("developer", None, &[("mrtr", false)], &["all"]))
        .await?;
    assert_eq!(keys_of(&asked), ["profile", "role", "repo", "notify"]);
    assert_eq!(
        messages_of(&asked),
        [
            WELCOME,
            WHICH_ROLE,
            &repo_message(0),
            &notify_message("mrtr")
        ]
    );
    assert_onboarded(&result, "developer", &[("mrtr", "all")]);
    Ok(())
}

/// The fifth answer still says `more`, but the cap ends the loop: exactly five `repo`
/// rounds, then five `notify` rounds in the order the repositories came.
async fn five_repos_cap_the_loop(client: &Client) -> anyhow::Result<()> {
    assert_eq!(MAX_REPOS, 5);
    let names = ["alpha", "beta", "gamma", "delta", "epsilon"];
    let levels = ["all", "mentions", "none", "mentions", "all"];
    let script = answers(
        "admin",
        Some(true),
        &names.map(|name| (name, true)),
        &levels,
    );
    let (asked, result) = rust(client).run_script(&script).await?;

    let repos: Vec<&Asked> = asked.iter().filter(|a| a.key == "repo").collect();
    assert_eq!(repos.len(), 5);
    let expected: Vec<String> = (0..5).map(repo_message).collect();
    assert_eq!(
        repos.iter().map(|a| a.message.clone()).collect::<Vec<_>>(),
        expected
    );
    let notifies: Vec<&Asked> = asked.iter().filter(|a| a.key == "notify").collect();
    assert_eq!(notifies.len(), 5);
    let expected: Vec<String> = names.iter().map(|name| notify_message(name)).collect();
    assert_eq!(
        notifies
            .iter()
            .map(|a| a.message.clone())
            .collect::<Vec<_>>(),
        expected
    );
    // The rounds come in one block each: no `repo` after the first `notify`.
    let mut keys = keys_of(&asked);
    keys.dedup();
    assert_eq!(keys, ["profile", "role", "confirm_admin", "repo", "notify"]);
    assert_eq!(asked.len(), 13);

    let watched: Vec<(&str, &str)> = names.iter().copied().zip(levels).collect();
    assert_onboarded(&result, "admin", &watched);
    Ok(())
}

/// Declining the second `notify` ends the call there.
async fn decline_inside_the_for_loop(client: &Client) -> anyhow::Result<()> {
    let mut script = answers("developer", None, &THREE_REPOS, &["all"]);
    script.push(("notify", decline()));
    let (asked, result) = rust(client).run_script(&script).await?;
    assert_eq!(
        messages_of(&asked)[5..],
        [notify_message("mrtr"), notify_message("rmcp")]
    );
    assert_cancelled_at(&result, "notify");
    Ok(())
}

/// Cancelling the second `repo` ends the call there.
async fn cancel_inside_the_loop(client: &Client) -> anyhow::Result<()> {
    let mut script = answers("viewer", None, &[("mrtr", true)], &[]);
    script.push(("repo", cancel()));
    let (asked, result) = rust(client).run_script(&script).await?;
    assert_eq!(messages_of(&asked)[2..], [repo_message(0), repo_message(1)]);
    assert_cancelled_at(&result, "repo");
    Ok(())
}

/// The happy admin script with two repositories, as `(key, answer)` rounds.
fn admin_script() -> Vec<(&'static str, Value)> {
    answers(
        "admin",
        Some(true),
        &[("mrtr", true), ("rmcp", false)],
        &["all", "mentions"],
    )
}

/// Declining or cancelling at any round, inside the branch and both loops included, ends
/// the call with `Onboarding cancelled at <key>`.
async fn refuse_at_each_round(client: &Client, refusal: fn() -> Value) -> anyhow::Result<()> {
    let runs = rust(client)
        .refuse_each_round(&admin_script(), refusal)
        .await?;
    for (round, (key, asked, result)) in runs.into_iter().enumerate() {
        assert_eq!(asked.len(), round + 1);
        assert_cancelled_at(&result, key);
    }
    Ok(())
}

async fn decline_at_each_round(client: &Client) -> anyhow::Result<()> {
    refuse_at_each_round(client, decline).await
}

async fn cancel_at_each_round(client: &Client) -> anyhow::Result<()> {
    refuse_at_each_round(client, cancel).await
}

/// A wrong-shaped `level` at the second of three `notify` rounds asks the same repository
/// again; the items left in the `for` and the levels already given survive the re-asks.
async fn wrong_shape_inside_the_for_loop(client: &Client) -> anyhow::Result<()> {
    let rust = rust(client);
    let asked = rust
        .run_script_until(&answers("developer", None, &THREE_REPOS, &["none"]))
        .await?;
    let second = asked.last().expect("rounds were asked").clone();
    assert_asked(&second, "notify", &notify_message("rmcp"));

    let mut states = vec![second.state.clone()];
    let mut state = second.state;
    for wrong in [
        level("loud"),
        level("All"),
        accept(json!({})),
        accept(json!({ "level": 1 })),
        json!("mentions"),
        unknown_action(),
    ] {
        let again = rust.ask(Some(&state), json!({ "notify": wrong })).await?;
        assert_eq!(
            (again.key.as_str(), again.message.as_str()),
            ("notify", notify_message("rmcp").as_str()),
            "after {wrong}"
        );
        assert!(
            !states.contains(&again.state),
            "a re-ask seals a new state (after {wrong})"
        );
        states.push(again.state.clone());
        state = again.state;
    }

    let mentions = json!({ "notify": level("mentions") });
    let third = rust.ask(Some(&state), mentions).await?;
    assert_asked(&third, "notify", &notify_message("tokio"));
    // Wrong once more at the last item, then right.
    let loud = json!({ "notify": level("loud") });
    let again = rust.ask(Some(&third.state), loud).await?;
    assert_eq!(again.message, notify_message("tokio"));
    assert_ne!(again.state, third.state);
    let all = json!({ "notify": level("all") });
    let result = rust.finish(Some(&again.state), all).await?;
    assert_onboarded(
        &result,
        "developer",
        &[("mrtr", "none"), ("rmcp", "mentions"), ("tokio", "all")],
    );
    Ok(())
}

/// An `ElicitResult` with an action it does not know.
fn unknown_action() -> Value {
    json!({ "action": "maybe" })
}

/// A wrong-shaped `repo` answer asks the same `(k so far)` again; the repositories already
/// collected survive the re-ask.
async fn wrong_shape_inside_the_loop(client: &Client) -> anyhow::Result<()> {
    let rust = rust(client);
    let asked = rust
        .run_script_until(&answers("viewer", None, &[("mrtr", true)], &[]))
        .await?;
    let second = asked.last().expect("rounds were asked").clone();
    assert_asked(&second, "repo", &repo_message(1));
    let mut state = second.state;
    for wrong in [
        accept(json!({ "repo": "rmcp" })),
        accept(json!({ "more": false })),
        accept(json!({ "repo": 7, "more": false })),
        accept(json!({ "repo": "rmcp", "more": "no" })),
    ] {
        let again = rust.ask(Some(&state), json!({ "repo": wrong })).await?;
        assert_eq!(
            (again.key.as_str(), again.message.as_str()),
            ("repo", repo_message(1).as_str()),
            "after {wrong}"
        );
        assert_ne!(again.state, state);
        state = again.state;
    }
    let rmcp = json!({ "repo": repo("rmcp", true) });
    let third = rust.ask(Some(&state), rmcp).await?;
    assert_eq!(third.message, repo_message(2));
    let tokio = json!({ "repo": repo("tokio", false) });
    let first_notify = rust.ask(Some(&third.state), tokio).await?;
    assert_eq!(first_notify.message, notify_message("mrtr"));
    let mut state = first_notify.state;
    // Answer for the repository asked, and check which one is asked next.
    for (answer, next_repo) in [("all", "rmcp"), ("none", "tokio")] {
        let next = rust
            .ask(Some(&state), json!({ "notify": level(answer) }))
            .await?;
        assert_eq!(next.message, notify_message(next_repo));
        state = next.state;
    }
    let mentions = json!({ "notify": level("mentions") });
    let result = rust.finish(Some(&state), mentions).await?;
    assert_onboarded(
        &result,
        "viewer",
        &[("mrtr", "all"), ("rmcp", "none"), ("tokio", "mentions")],
    );
    Ok(())
}

/// The state of every round, replayed with another team, is refused with `-32602`; the
/// genuine states still work afterwards.
async fn state_replayed_for_another_team_is_refused(client: &Client) -> anyhow::Result<()> {
    let script = admin_script();
    let asked = rust(client)
        .run_script_until(&script[..script.len() - 1])
        .await?;
    assert_eq!(asked.len(), script.len());
    for (question, (key, answer)) in asked.iter().zip(&script) {
        assert_eq!(question.key, *key);
        for team in ["Go", "rust", "Rust ", ""] {
            ONBOARD
                .rounds(client, team)
                .refused(Some(&question.state), json!({ *key: answer.clone() }))
                .await
                .map_err(|e| {
                    anyhow::anyhow!("{key} state ({}) for team {team:?}: {e}", question.message)
                })?;
        }
        // Without an answer too: it is refused, not asked again.
        ONBOARD
            .rounds(client, "Go")
            .refused(Some(&question.state), json!({}))
            .await?;
    }
    // Nothing was consumed: the genuine last state completes the call.
    let (key, answer) = script.last().expect("a script");
    let last = asked.last().expect("rounds were asked");
    let result = rust(client)
        .finish(Some(&last.state), json!({ *key: answer.clone() }))
        .await?;
    assert_onboarded(&result, "admin", &[("mrtr", "all"), ("rmcp", "mentions")]);
    Ok(())
}

// =============================================================================
// rmcp's own `call_tool` loop
// =============================================================================

const LEVELS: [&str; 3] = ["all", "mentions", "none"];

/// A user that answers by the question's text: an admin who confirms and adds `repos`
/// repositories named `repo-<k>`, saying `more` while it has more to add.
fn admin_user(repos: usize) -> ScriptedUser {
    ScriptedUser::new(move |message| {
        Some(match message {
            WELCOME => json!({ "name": "Ada" }),
            WHICH_ROLE => json!({ "role": "admin" }),
            CONFIRM_ADMIN => json!({ "confirm": true }),
            other => {
                if let Some(k) = (0..MAX_REPOS).find(|k| other == repo_message(*k)) {
                    json!({ "repo": format!("repo-{k}"), "more": k + 1 < repos })
                } else {
                    let k =
                        (0..MAX_REPOS).find(|k| other == notify_message(&format!("repo-{k}")))?;
                    json!({ "level": LEVELS[k % LEVELS.len()] })
                }
            }
        })
    })
}

/// What [`admin_user`]`(repos)` is asked, in order, for a complete onboarding.
fn admin_user_questions(repos: usize) -> Vec<String> {
    let mut expected = vec![
        WELCOME.to_owned(),
        WHICH_ROLE.to_owned(),
        CONFIRM_ADMIN.to_owned(),
    ];
    let repos = repos.min(MAX_REPOS);
    expected.extend((0..repos).map(repo_message));
    expected.extend((0..repos).map(|k| notify_message(&format!("repo-{k}"))));
    expected
}

fn user_watched(repos: usize) -> Vec<(String, &'static str)> {
    (0..repos.min(MAX_REPOS))
        .map(|k| (format!("repo-{k}"), LEVELS[k % LEVELS.len()]))
        .collect()
}

fn assert_user_onboarded(result: &CallToolResult, repos: usize) {
    let watched = user_watched(repos);
    let watched: Vec<(&str, &str)> = watched.iter().map(|(r, l)| (r.as_str(), *l)).collect();
    assert_onboarded(result, "admin", &watched);
}

/// rmcp's `call_tool` answers every round through the `ClientHandler` (7 rounds).
async fn rmcp_call_tool_loop_completes(via: Via) -> anyhow::Result<()> {
    let user = admin_user(2);
    let connected = Connected::start(via, user.clone()).await?;
    let result = connected
        .client
        .call_tool(ONBOARD.first_call("Rust"))
        .await?;
    assert_user_onboarded(&result, 2);
    assert_eq!(user.asked(), admin_user_questions(2));
    connected.close().await
}

/// Five repositories for an admin take 13 questions, so 14 `tools/call` requests: more than
/// rmcp's default cap of 10, so `call_tool` gives up, and a cap of 14 completes. rmcp counts
/// every request of the loop, the completing one too, so a cap of 13 is one short. The user
/// always says `more`, so the loop stops at the cap.
async fn rmcp_call_tool_loop_needs_a_higher_cap_for_five_repos(via: Via) -> anyhow::Result<()> {
    let user = admin_user(7);
    let connected = Connected::start(via, user.clone()).await?;
    for cap in [None, Some(13)] {
        let outcome = match cap {
            None => connected.client.call_tool(ONBOARD.first_call("Rust")).await,
            Some(cap) => {
                connected
                    .client
                    .call_tool_with_mrtr_max_rounds(ONBOARD.first_call("Rust"), cap)
                    .await
            }
        };
        let expected = cap.unwrap_or(rmcp::model::DEFAULT_MRTR_MAX_ROUNDS);
        match outcome {
            Err(ServiceError::InputRequiredRoundsExceeded { max_rounds }) => {
                assert_eq!(max_rounds, expected);
            }
            other => anyhow::bail!("expected the cap of {expected} to be hit, got {other:?}"),
        }
        // The last question was put to the user, but its answer never sent.
        assert_eq!(user.asked(), admin_user_questions(7)[..expected]);
        user.forget();
    }
    let result = connected
        .client
        .call_tool_with_mrtr_max_rounds(ONBOARD.first_call("Rust"), 14)
        .await?;
    assert_user_onboarded(&result, 7);
    assert_eq!(user.asked(), admin_user_questions(7));
    assert_eq!(user.asked().len(), 13);
    connected.close().await
}

// =============================================================================
// Tests
// =============================================================================

// One module per transport (`http`, `stdio_duplex`, `stdio_child`), one test per scenario.
mrtr_tests::transport_tests!(
    plain: [
        admin_confirmed,
        admin_refused_becomes_developer,
        viewer_is_not_asked_to_confirm,
        single_repo,
        five_repos_cap_the_loop,
        decline_inside_the_for_loop,
        cancel_inside_the_loop,
        decline_at_each_round,
        cancel_at_each_round,
        wrong_shape_inside_the_for_loop,
        wrong_shape_inside_the_loop,
        state_replayed_for_another_team_is_refused,
    ],
    via: [
        rmcp_call_tool_loop_completes,
        rmcp_call_tool_loop_needs_a_higher_cap_for_five_repos,
    ],
);
