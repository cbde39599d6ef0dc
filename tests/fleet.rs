//! Single use across a fleet of real processes: Redis as the shared replay store, two
//! `wizard-http` instances sharing it and their keys, and nginx round robin in front, all on
//! loopback. See `support/services.rs` for how each is started and stopped.
//!
//! - both replay stores keep the one documented contract, and answer random sequences alike;
//! - a store that cannot be reached, or hangs, fails the round closed, and the same request
//!   runs its round once the store is back;
//! - over TLS (`rediss://`), the server's certificate is checked against the roots given;
//! - with `requirepass`, the password in the URL opens it, and no log shows a password;
//! - the README's Redis ACL user has every right both stores need, and each is needed;
//! - a Redis that may evict records is named in the log; one out of memory fails rounds closed;
//! - a record in Redis lives as long as its state and the clock skew allowance, no longer;
//! - a fleet whose clocks run behind Redis's keeps single use, and past that allowance fails
//!   rounds closed when Redis's clock says their states expired;
//! - a final state replayed 32 times at once, through both instances, runs its effect once;
//! - a round claimed by an instance that is killed runs again on the other one, after the
//!   lease and not before;
//! - sixty flows complete while an instance is killed and restarted, each effect at most twice;
//! - a pre-2026 client's session is lost to round robin, and kept by `ip_hash`.
//!
//! The wizard's `signup` logs one line when it signs someone up: its effect, counted in the
//! instances' logs.

use std::{
    future::Future,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant, SystemTime},
};

use mrtr::{
    Engine,
    replay::{MemoryStore, RedisStore, ReplayStore, RoundKey, StoreErrorKind},
    task::RedisTaskStore,
};
use mrtr_examples::{
    demo::{connect, text_of},
    wizard::Wizard,
};
use mrtr_tests::{
    loopback::Loopback,
    rounds::{Asked, Reply, Rounds, Tool, accept, finish, send},
    services::{
        ClockOff, FLEET_KEYS, Fleet, Nginx, PatientClient, RedisServer, WizardInstance, free_port,
        signup_effect,
    },
    store_contract, stores_agree, task_store_contract, wizard_http,
};
use rmcp::{
    ServiceError,
    model::{CallToolRequestParams, CallToolResult, ErrorCode},
};
use serde_json::{Value, json};
use tokio::{sync::Barrier, task::JoinSet};

const SIGNUP: Tool = Tool {
    name: "signup",
    small_states: None,
};

fn ada() -> Value {
    accept(json!({ "name": "Ada" }))
}

fn pro() -> Value {
    accept(json!({ "plan": "pro" }))
}

fn confirm(yes: bool) -> Value {
    accept(json!({ "confirm": yes }))
}

/// Runs `body` under `limit`.
async fn within(
    limit: Duration,
    body: impl Future<Output = anyhow::Result<()>>,
) -> anyhow::Result<()> {
    tokio::time::timeout(limit, body)
        .await
        .map_err(|_| anyhow::anyhow!("the test did not finish within {limit:?}"))?
}

#[track_caller]
fn assert_signed_up(result: &CallToolResult, team: &str) {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert_eq!(
        text_of(result),
        format!("Signed up Ada to {team} on the pro plan")
    );
    assert_eq!(
        result.structured_content,
        Some(json!({ "name": "Ada", "team": team, "plan": "pro" }))
    );
}

/// The first two answers of `rounds`' signup: the question `confirm`, its state not yet used.
async fn up_to_confirm(rounds: &Rounds<'_>) -> anyhow::Result<Asked> {
    let profile = rounds.first().await?;
    let plan = rounds
        .ask(Some(&profile.state), json!({ "profile": ada() }))
        .await?;
    let last = rounds
        .ask(Some(&plan.state), json!({ "plan": pro() }))
        .await?;
    assert_eq!(
        [&profile.key, &plan.key, &last.key],
        ["profile", "plan", "confirm"]
    );
    Ok(last)
}

/// Signs Ada up to `team` through every round of `rounds`: the result, and the final round's
/// question and answer, to send again.
async fn sign_up(
    rounds: &Rounds<'_>,
    team: &str,
) -> anyhow::Result<(CallToolResult, Asked, Value)> {
    let last = up_to_confirm(rounds).await?;
    let answer = json!({ "confirm": confirm(true) });
    let result = rounds.finish(Some(&last.state), answer.clone()).await?;
    assert_signed_up(&result, team);
    Ok((result, last, answer))
}

// =============================================================================
// One contract, two stores
// =============================================================================

#[tokio::test(flavor = "multi_thread")]
async fn memory_store_keeps_the_contract() -> anyhow::Result<()> {
    within(Duration::from_secs(10), async {
        store_contract::check(&MemoryStore::default()).await;
        Ok(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn redis_store_keeps_the_contract() -> anyhow::Result<()> {
    within(Duration::from_secs(20), async {
        let redis = RedisServer::start().await?;
        let store = RedisStore::open(&redis.url())?;
        store_contract::check(&store).await;

        // By Redis's clock, a record whose expiry has passed is not made: the state it would
        // guard has expired there.
        let round = RoundKey {
            flow: store_contract::flow(),
            round: 1,
        };
        let past = SystemTime::now() - Duration::from_secs(2);
        let lease = Duration::from_secs(10);
        let refused = store
            .claim(round, store_contract::holder(), lease, past)
            .await;
        let error = refused.expect_err("a claim past its expiry");
        assert_eq!(error.kind(), StoreErrorKind::Expired, "{error}");
        assert!(error.to_string().contains("ran out 2 s ago"), "{error}");
        let key = format!("{}{round}", RedisStore::DEFAULT_PREFIX);
        assert_eq!(redis.command(&["EXISTS", &key]).await?, "0");
        Ok(())
    })
    .await
}

/// Random claims, renewals, completions and releases get the same answers from Redis's Lua
/// scripts as from the in-memory store, step by step.
#[test]
fn redis_and_memory_stores_answer_alike() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let redis = runtime
        .block_on(RedisServer::start())
        .expect("redis-server starts");
    let memory = MemoryStore::default();
    let shared = RedisStore::open(&redis.url()).expect("a Redis URL");
    stores_agree::check(&memory, &shared, 150);
    drop(redis);
}

// =============================================================================
// A store that cannot be reached
// =============================================================================

/// How long one Redis command may take in the tests below before the round fails closed.
const STORE_TIMEOUT: Duration = Duration::from_millis(500);

/// A wizard in this process whose replay store is the Redis at `url`, answered by a client.
async fn wizard_on_redis(url: &str, lease: Duration) -> anyhow::Result<Loopback> {
    let store = RedisStore::open(url)?.with_timeout(STORE_TIMEOUT);
    let engine = Engine::builder()
        .key(1, mrtr_tests::keys::test_key(7))
        .replay_store(store)
        .lease(lease)
        .build()?;
    Loopback::start(Wizard::new(engine)).await
}

/// Sends `request`, which must fail closed: `-32603` with a generic message, well within the
/// bound of one store command and its one retry.
async fn assert_fails_closed(rounds: &Rounds<'_>, request: &CallToolRequestParams) {
    let started = Instant::now();
    match send(rounds.client, request.clone()).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INTERNAL_ERROR, "{error:?}");
            assert_eq!(error.data, None);
            // Nothing about the store reaches the client: that goes to the server log.
            let said = error.message.to_lowercase();
            for detail in ["redis", "127.0.0.1", "connect", "refused", "timed", "store"] {
                assert!(!said.contains(detail), "the client was told {said:?}");
            }
        }
        other => panic!("expected -32603, got {other:?}"),
    }
    let took = started.elapsed();
    assert!(took < 4 * STORE_TIMEOUT, "failing closed took {took:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn redis_unreachable_fails_closed_and_recovers() -> anyhow::Result<()> {
    within(Duration::from_secs(30), async {
        let mut redis = RedisServer::start().await?;
        let served = wizard_on_redis(&redis.url(), Engine::DEFAULT_LEASE).await?;
        let rounds = SIGNUP.rounds(&served.client, "Outage");

        // With Redis up, rounds claim and run.
        let profile = rounds.first().await?;
        let plan = rounds
            .ask(Some(&profile.state), json!({ "profile": ada() }))
            .await?;

        // Redis is gone: the next round fails closed, as often as it is sent.
        redis.stop();
        let next = rounds.call(Some(&plan.state), json!({ "plan": pro() }));
        assert_fails_closed(&rounds, &next).await;
        assert_fails_closed(&rounds, &next).await;

        // Back on the same port (empty): the same request runs its round.
        redis.restart().await?;
        let last = rounds.ask_with(next).await?;
        assert_eq!(last.key, "confirm");
        let result = rounds
            .finish(Some(&last.state), json!({ "confirm": confirm(true) }))
            .await?;
        assert_signed_up(&result, "Outage");
        Ok(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn redis_that_hangs_fails_closed_within_its_timeout() -> anyhow::Result<()> {
    const LEASE: Duration = Duration::from_secs(10);
    within(Duration::from_secs(30), async {
        let redis = RedisServer::start().await?;
        let served = wizard_on_redis(&redis.url(), LEASE).await?;
        let rounds = SIGNUP.rounds(&served.client, "Hang");
        let profile = rounds.first().await?;
        let plan = rounds
            .ask(Some(&profile.state), json!({ "profile": ada() }))
            .await?;

        // Redis accepts the connection's bytes but answers nothing.
        redis.freeze()?;
        let next = rounds.call(Some(&plan.state), json!({ "plan": pro() }));
        assert_fails_closed(&rounds, &next).await;

        // Thawed, Redis runs the claim the engine gave up on, and then the release the engine
        // sent after it: the retry runs the round at once instead of waiting out a lease held
        // by nobody.
        redis.thaw()?;
        let started = Instant::now();
        let last = rounds.ask_with(next).await?;
        assert_eq!(last.key, "confirm");
        let took = started.elapsed();
        assert!(
            took < LEASE / 3,
            "the retry waited {took:?}: the abandoned claim was kept"
        );
        let result = rounds
            .finish(Some(&last.state), json!({ "confirm": confirm(true) }))
            .await?;
        assert_signed_up(&result, "Hang");
        Ok(())
    })
    .await
}

// =============================================================================
// Redis over TLS
// =============================================================================

/// An instance on `rediss://` that trusts the server's CA (through `SSL_CERT_FILE`, as for a
/// private CA) keeps its records in that Redis and runs whole flows; one that does not trust
/// it fails each guarded round closed and logs why.
#[tokio::test(flavor = "multi_thread")]
async fn an_instance_on_redis_over_tls_checks_the_certificate() -> anyhow::Result<()> {
    within(Duration::from_secs(60), async {
        let redis = RedisServer::start_tls().await?;
        let tls_url = redis.tls_url().expect("a TLS port");
        let ca = redis.ca_file().display().to_string();
        let instance = async |env: &[(&str, &str)]| {
            WizardInstance::start_with_env(wizard_http!(), free_port(), FLEET_KEYS, &tls_url, env)
                .await
        };

        let trusting = instance(&[("SSL_CERT_FILE", &ca)]).await?;
        let client = connect(&trusting.url()).await?;
        let rounds = SIGNUP.rounds(&client, "Sealed");
        let last = up_to_confirm(&rounds).await?;
        let result = rounds
            .finish(Some(&last.state), json!({ "confirm": confirm(true) }))
            .await?;
        assert_signed_up(&result, "Sealed");
        let records = redis.key_count().await?;
        assert!(
            records >= 3,
            "{records} records in Redis after three guarded rounds"
        );

        // Its roots (the system's, or an `SSL_CERT_FILE` this process inherited) do not hold the
        // test CA: the handshake fails, and so does the round, closed.
        let doubting = instance(&[]).await?;
        let client = connect(&doubting.url()).await?;
        let rounds = SIGNUP.rounds(&client, "Doubted");
        let profile = rounds.first().await?;
        let next = rounds.call(Some(&profile.state), json!({ "profile": ada() }));
        match send(&client, next).await {
            Err(ServiceError::McpError(error)) => {
                assert_eq!(error.code, ErrorCode::INTERNAL_ERROR, "{error:?}");
                assert!(!error.message.to_lowercase().contains("certificate"));
            }
            other => panic!("expected -32603, got {other:?}"),
        }
        let log = doubting.log();
        assert!(log.to_lowercase().contains("certificate"), "{log}");
        assert_eq!(
            redis.key_count().await?,
            records,
            "a record past a failed handshake"
        );
        Ok(())
    })
    .await
}

// =============================================================================
// What an operator configures
// =============================================================================

/// `url` with `password` in it, as for a Redis with `requirepass`.
fn with_password(url: &str, password: &str) -> String {
    url.replacen("redis://", &format!("redis://:{password}@"), 1)
}

/// Sends `request` to an instance whose store fails: `-32603`, nothing about the store in it.
async fn assert_refused(client: &mrtr_tests::transports::Client, request: CallToolRequestParams) {
    match send(client, request).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INTERNAL_ERROR, "{error:?}");
            assert_eq!(error.message, "the server could not run this request");
        }
        other => panic!("expected -32603, got {other:?}"),
    }
}

/// An instance whose port another process holds, as another test's server may take it between
/// `free_port` and the bind, fails to start: that process is not taken for it.
#[tokio::test(flavor = "multi_thread")]
async fn an_instance_whose_port_is_taken_fails_to_start() -> anyhow::Result<()> {
    within(Duration::from_secs(60), async {
        let taken = std::net::TcpListener::bind("127.0.0.1:0")?;
        let port = taken.local_addr()?.port();
        let redis = RedisServer::start().await?;
        let started = WizardInstance::start(wizard_http!(), port, FLEET_KEYS, &redis.url()).await;
        let error = started
            .err()
            .expect("no instance on a port that another process holds");
        assert!(error.to_string().contains("exited"), "{error:#}");
        Ok(())
    })
    .await
}

/// A Redis with `requirepass`: a URL holding the password runs whole flows; a wrong password,
/// or none, fails each guarded round closed and logs why; a URL that does not parse stops the
/// instance at startup. No log shows a password.
#[tokio::test(flavor = "multi_thread")]
async fn a_redis_with_a_password_needs_it_in_the_url_and_no_log_shows_it() -> anyhow::Result<()> {
    const PASSWORD: &str = "s3cret-of-redis";
    const WRONG: &str = "n0t-the-s3cret";
    within(Duration::from_secs(60), async {
        let redis = RedisServer::start_with_password(PASSWORD).await?;
        let instance = async |url: &str| {
            WizardInstance::start(wizard_http!(), free_port(), FLEET_KEYS, url).await
        };

        let trusted = instance(&with_password(&redis.url(), PASSWORD)).await?;
        let client = connect(&trusted.url()).await?;
        let rounds = SIGNUP.rounds(&client, "Guarded");
        let last = up_to_confirm(&rounds).await?;
        let result = rounds
            .finish(Some(&last.state), json!({ "confirm": confirm(true) }))
            .await?;
        assert_signed_up(&result, "Guarded");
        assert!(redis.key_count().await? >= 3, "no records in Redis");
        let log = trusted.log();
        assert!(!log.contains(PASSWORD), "{log}");
        // `requirepass` alone leaves the policy at `noeviction`: no warning about it.
        assert!(!log.contains("maxmemory-policy"), "{log}");

        let mut refused_logs = String::new();
        for (url, reason) in [
            (
                with_password(&redis.url(), WRONG),
                "Password authentication failed",
            ),
            (redis.url(), "NOAUTH"),
        ] {
            let refused = instance(&url).await?;
            let client = connect(&refused.url()).await?;
            let rounds = SIGNUP.rounds(&client, "Locked out");
            let profile = rounds.first().await?;
            let next = rounds.call(Some(&profile.state), json!({ "profile": ada() }));
            assert_refused(&client, next.clone()).await;
            assert_refused(&client, next).await;
            let log = refused.log();
            refused_logs += &log;
            assert!(log.contains("replay store unavailable"), "{log}");
            assert!(log.contains(reason), "{log}");
            assert!(!log.contains(PASSWORD) && !log.contains(WRONG), "{log}");
        }
        // Without a password, the store connects but cannot read the eviction policy: the
        // warning says why.
        let policy_unread = refused_logs
            .lines()
            .find(|line| line.contains("could not read Redis's maxmemory-policy"))
            .unwrap_or_default();
        assert!(policy_unread.contains("NOAUTH"), "{refused_logs}");

        // Not a port: the instance stops before it serves, and says which setting is wrong.
        let unparsable = format!("redis://:{PASSWORD}@127.0.0.1:port/0");
        let Err(error) = instance(&unparsable).await else {
            panic!("an instance started on {unparsable:?}");
        };
        let error = format!("{error:#}");
        assert!(error.contains("MRTR_REDIS_URL"), "{error}");
        assert!(error.contains("not a Redis URL"), "{error}");
        assert!(!error.contains(PASSWORD), "{error}");
        Ok(())
    })
    .await
}

/// The Redis ACL user the README gives a fleet, its `PASSWORD` still to fill in; `RedisStore`'s
/// docs give the same.
fn readme_acl_user() -> &'static str {
    let user_in = |text: &'static str| {
        text.lines()
            .map(|line| line.trim().trim_start_matches("/// "))
            .find(|line| line.starts_with("user mrtr on >PASSWORD "))
    };
    let readme = user_in(include_str!("../README.md")).expect("README.md gives a Redis ACL user");
    let docs = user_in(include_str!("../runtime/src/replay/redis.rs"));
    assert_eq!(
        docs,
        Some(readme),
        "RedisStore's docs give another ACL user"
    );
    readme
}

/// Both stores' contracts on the Redis at `url`: how the first broken rule of each failed.
async fn broken_contracts(url: &str) -> anyhow::Result<Vec<String>> {
    let replay = RedisStore::open(url)?;
    let tasks = RedisTaskStore::open(url)?;
    // A contract panics on the first rule its store breaks: a task catches that.
    let replay = tokio::spawn(async move { store_contract::check(&replay).await });
    let tasks = tokio::spawn(async move { task_store_contract::check(&tasks).await });
    let mut broken = Vec::new();
    for checked in [replay.await, tasks.await] {
        if let Err(failed) = checked {
            let panic = failed.into_panic();
            let message = panic.downcast_ref::<String>().cloned();
            broken.push(message.unwrap_or_else(|| "a panic without a message".to_owned()));
        }
    }
    Ok(broken)
}

/// The README's ACL user: both stores keep their contracts with its rights, and lose them
/// without any one of them; named in an instance's URL it runs whole flows, single use
/// included, and no log shows its password. Only with `+config|get` does the store read the
/// eviction policy instead of warning that it could not.
#[tokio::test(flavor = "multi_thread")]
async fn the_readme_redis_acl_user_has_every_right_the_stores_need_and_no_other()
-> anyhow::Result<()> {
    const PASSWORD: &str = "acl-s3cret";
    within(Duration::from_secs(60), async {
        let user = readme_acl_user().replace("PASSWORD", PASSWORD);
        let rights: Vec<&str> = user
            .split_whitespace()
            .filter(|word| word.starts_with('+'))
            .collect();
        assert!(rights.len() >= 5, "{user}");
        // The README's user, the same with `+config|get`, and one more without each right.
        let mut config = format!(
            "{user}\n{} +config|get\n",
            user.replacen("user mrtr ", "user checks ", 1)
        );
        for (lacking, right) in rights.iter().enumerate() {
            let without = user.replacen("user mrtr ", &format!("user lacks{lacking} "), 1);
            config += &without.replacen(&format!(" {right}"), "", 1);
            config += "\n";
        }
        let redis = RedisServer::start_with_config(&config).await?;
        let url_of = |name: &str| {
            redis
                .url()
                .replacen("redis://", &format!("redis://{name}:{PASSWORD}@"), 1)
        };

        let broken = broken_contracts(&url_of("mrtr")).await?;
        assert!(broken.is_empty(), "{broken:?}");
        for (lacking, right) in rights.iter().enumerate() {
            // Scripts another user loaded would run without `+script|load`.
            redis.command(&["SCRIPT", "FLUSH"]).await?;
            redis.command(&["ACL", "LOG", "RESET"]).await?;
            let broken = broken_contracts(&url_of(&format!("lacks{lacking}"))).await?;
            assert!(!broken.is_empty(), "the stores need no `{right}`");
            // Redis's log of denials names the command, also one a script ran.
            let denied = redis.command(&["ACL", "LOG"]).await?;
            let command = format!("\nobject\n{}\n", &right[1..]);
            assert!(
                denied.contains(&command),
                "without `{right}` the stores broke for another reason: {broken:?}\n{denied}"
            );
        }

        let mut warned = Vec::new();
        for name in ["mrtr", "checks"] {
            let instance =
                WizardInstance::start(wizard_http!(), free_port(), FLEET_KEYS, &url_of(name))
                    .await?;
            let client = connect(&instance.url()).await?;
            let team = format!("Least {name}");
            let rounds = SIGNUP.rounds(&client, &team);
            let (result, last, answer) = sign_up(&rounds, &team).await?;
            let again = rounds.finish(Some(&last.state), answer).await?;
            assert_eq!(again, result, "a duplicate did not get the first response");
            let log = instance.log();
            assert_eq!(log.matches(&signup_effect(&team)).count(), 1, "{log}");
            assert!(!log.contains(PASSWORD), "{log}");
            warned.push(log.contains("could not read Redis's maxmemory-policy"));
            if name == "mrtr" {
                assert!(log.contains("'config|get'"), "{log}");
            }
        }
        assert_eq!(warned, [true, false]);
        Ok(())
    })
    .await
}

/// A Redis that may evict records (`allkeys-lru`) gets an error in the log naming its policy
/// and the one to set, once the store connects.
#[tokio::test(flavor = "multi_thread")]
async fn a_redis_that_may_evict_records_is_named_in_the_log() -> anyhow::Result<()> {
    within(Duration::from_secs(30), async {
        let redis = RedisServer::start_with_config("maxmemory-policy allkeys-lru\n").await?;
        let instance =
            WizardInstance::start(wizard_http!(), free_port(), FLEET_KEYS, &redis.url()).await?;
        let client = connect(&instance.url()).await?;
        let rounds = SIGNUP.rounds(&client, "Evicted");
        up_to_confirm(&rounds).await?;
        let log = instance.log();
        let warned: Vec<&str> = log
            .lines()
            .filter(|line| line.contains("set `maxmemory-policy noeviction`"))
            .collect();
        assert!(!warned.is_empty(), "{log}");
        assert!(warned.iter().all(|line| line.contains("ERROR")), "{log}");
        assert!(
            warned.iter().all(|line| line.contains("allkeys-lru")),
            "{log}"
        );
        Ok(())
    })
    .await
}

/// A Redis out of memory under `noeviction` refuses a claim's write: the final round fails
/// closed and its effect does not run; once Redis has room, the same request runs it once.
#[tokio::test(flavor = "multi_thread")]
async fn a_full_redis_refuses_the_round_and_its_effect_runs_once_after() -> anyhow::Result<()> {
    const TEAM: &str = "Full";
    within(Duration::from_secs(30), async {
        let redis = RedisServer::start().await?;
        let instance =
            WizardInstance::start(wizard_http!(), free_port(), FLEET_KEYS, &redis.url()).await?;
        let client = connect(&instance.url()).await?;
        let rounds = SIGNUP.rounds(&client, TEAM);
        let last = up_to_confirm(&rounds).await?;
        let final_request = rounds.call(Some(&last.state), json!({ "confirm": confirm(true) }));

        redis.command(&["CONFIG", "SET", "maxmemory", "1"]).await?;
        assert_refused(&client, final_request.clone()).await;
        assert_refused(&client, final_request.clone()).await;
        let log = instance.log();
        assert!(log.contains("OOM"), "{log}");
        assert_eq!(instance.log().matches(&signup_effect(TEAM)).count(), 0);

        redis.command(&["CONFIG", "SET", "maxmemory", "0"]).await?;
        let result = finish(&client, final_request.clone()).await?;
        assert_signed_up(&result, TEAM);
        let again = finish(&client, final_request).await?;
        assert_eq!(serde_json::to_value(again)?, serde_json::to_value(result)?);
        assert_eq!(
            instance.log().matches(&signup_effect(TEAM)).count(),
            1,
            "{}",
            instance.log()
        );
        Ok(())
    })
    .await
}

/// A record in Redis expires with the state it guards plus the clock skew allowance: not
/// before (a duplicate meanwhile gets the first response), and not much after (Redis is left
/// empty).
#[tokio::test(flavor = "multi_thread")]
async fn a_record_in_redis_lives_as_long_as_its_state_and_the_skew() -> anyhow::Result<()> {
    const TTL: Duration = Duration::from_secs(2);
    const SKEW: Duration = Duration::from_secs(2);
    within(Duration::from_secs(30), async {
        let redis = RedisServer::start().await?;
        let engine = Engine::builder()
            .key(1, mrtr_tests::keys::test_key(7))
            .replay_store(RedisStore::open(&redis.url())?)
            .ttl(TTL)
            .clock_skew(SKEW)
            .lease(Duration::from_secs(1))
            .build()?;
        let served = Loopback::start(Wizard::new(engine)).await?;
        let rounds = SIGNUP.rounds(&served.client, "Brief");
        let handed_out = Instant::now();
        let profile = rounds.first().await?;
        let plan = rounds
            .ask(Some(&profile.state), json!({ "profile": ada() }))
            .await?;

        // The state lives at least its TTL and less than a second more; its record the skew
        // more.
        let key = redis.command(&["KEYS", "mrtr:replay:*"]).await?;
        let left = Duration::from_millis(redis.command(&["PTTL", &key]).await?.parse()?);
        let kept = TTL + SKEW;
        assert!(
            left + handed_out.elapsed() >= kept && left <= kept + Duration::from_secs(1),
            "the record of a state with {TTL:?} left is kept {left:?}"
        );

        // A duplicate within the TTL gets the first response.
        let again = rounds
            .ask(Some(&profile.state), json!({ "profile": ada() }))
            .await?;
        assert_eq!(again.state, plan.state);

        // Past the state's expiry, and the skew, the record is gone.
        let past = handed_out + kept + Duration::from_secs(1) + handed_out.elapsed();
        tokio::time::sleep_until(past.into()).await;
        let records = redis.command(&["KEYS", "mrtr:replay:*"]).await?;
        assert_eq!(records, "", "records outlived their states");
        Ok(())
    })
    .await
}

/// The PTTL, in whole seconds, of every record in Redis.
async fn records_left(redis: &RedisServer) -> anyhow::Result<Vec<i64>> {
    let keys = redis.command(&["KEYS", "mrtr:replay:*"]).await?;
    let mut left = Vec::new();
    for key in keys.lines() {
        let millis: i64 = redis.command(&["PTTL", key]).await?.parse()?;
        left.push(millis / 1000);
    }
    Ok(left)
}

/// A fleet whose clocks run behind Redis's makes records that Redis keeps that much shorter
/// (ahead, longer), and the store warns of it as it connects. Single use holds at every offset:
///
/// - within the clock skew allowance (60 s by default) records outlive the states they guard,
///   and a duplicate of a final round gets the first response;
/// - past it (655 s behind), a record outlives its state by Redis's clock only, here by 5 s:
///   after that a duplicate of the final round fails with `-32602`, as for an expired state,
///   because the claim script refuses to make a record Redis's clock says has expired, where it
///   would otherwise run the round again;
/// - past the TTL and the allowance (700 s behind), every state the instance seals has expired
///   by Redis's clock, and its first retry fails the same way, having run nothing.
#[tokio::test(flavor = "multi_thread")]
async fn a_fleet_behind_redis_keeps_single_use_and_past_the_clock_skew_allowance_fails_closed()
-> anyhow::Result<()> {
    const KEPT: i64 = (Engine::DEFAULT_TTL.as_secs() + Engine::DEFAULT_CLOCK_SKEW.as_secs()) as i64;
    const SKEW: i64 = Engine::DEFAULT_CLOCK_SKEW.as_secs() as i64;
    within(Duration::from_secs(90), async {
        let redis = RedisServer::start().await?;
        // Seconds behind Redis (less than 0: ahead).
        for behind in [0, -50, 50, 655, 700] {
            redis.command(&["FLUSHALL"]).await?;
            let clock = ClockOff::by(&format!("{:+}s", -behind))?;
            let instance = WizardInstance::start_with_env(
                wizard_http!(),
                free_port(),
                FLEET_KEYS,
                &redis.url(),
                &clock.env(),
            )
            .await?;
            let client = connect(&instance.url()).await?;
            let team = format!("Behind by {behind}");
            let rounds = SIGNUP.rounds(&client, &team);
            let refused = async |request| match send(&client, request).await {
                Err(ServiceError::McpError(error)) => {
                    assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{error:?}");
                    assert!(
                        error
                            .message
                            .starts_with("requestState is invalid or expired"),
                        "{error:?}"
                    );
                }
                other => panic!("{behind} s behind: expected -32602, got {other:?}"),
            };
            let expired_by_redis =
                "by Redis's clock the state and the clock skew allowance ran out";

            if behind >= KEPT {
                let profile = rounds.first().await?;
                refused(rounds.call(Some(&profile.state), json!({ "profile": ada() }))).await;
                assert_eq!(records_left(&redis).await?, [] as [i64; 0], "a record made");
                let log = instance.log();
                assert!(log.contains(expired_by_redis), "{log}");
                let warned = format!("clock is behind Redis's by {behind} s");
                assert!(log.contains(&warned), "{log}");
                continue;
            }

            let (_, last, answer) = sign_up(&rounds, &team).await?;
            // Redis keeps each record the state's TTL and the allowance, less how far behind
            // the instance is.
            let kept = KEPT - behind;
            let left = records_left(&redis).await?;
            assert!(!left.is_empty(), "no records");
            assert!(
                left.iter().all(|left| (kept - 5..=kept).contains(left)),
                "{behind} s behind: records kept {left:?} s, not about {kept} s"
            );

            if behind > SKEW {
                // Once the records are gone, the instance still accepts the final state; Redis
                // refuses it.
                while !records_left(&redis).await?.is_empty() {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                refused(rounds.call(Some(&last.state), answer)).await;
                let log = instance.log();
                assert!(log.contains(expired_by_redis), "{log}");
            } else {
                // A duplicate of the final round gets the first response.
                let again = rounds.finish(Some(&last.state), answer).await?;
                assert_signed_up(&again, &team);
            }
            let log = instance.log();
            assert_eq!(
                log.matches(&signup_effect(&team)).count(),
                1,
                "{behind} s behind: {log}"
            );
            // The store says how far off the clock is, as it connects.
            let said = match behind {
                0 => "clock is ",
                1.. => &format!("clock is behind Redis's by {behind} s"),
                ..0 => &format!("clock is ahead of Redis's by {} s", -behind),
            };
            assert_eq!(log.contains(said), behind != 0, "{log}");
        }
        Ok(())
    })
    .await
}

// =============================================================================
// Replays across two instances
// =============================================================================

#[tokio::test(flavor = "multi_thread")]
async fn a_final_state_replayed_32_times_across_two_instances_runs_its_effect_once()
-> anyhow::Result<()> {
    const TEAM: &str = "Replayed";
    const COPIES: usize = 32;
    within(Duration::from_secs(60), async {
        let fleet = Fleet::start(wizard_http!(), 2).await?;
        let client = connect(&fleet.url()).await?;
        let rounds = SIGNUP.rounds(&client, TEAM);

        // The flow crosses instances: nginx sends each request to the next one.
        let last = up_to_confirm(&rounds).await?;
        let before = fleet.requests_per_instance();
        assert!(
            before.iter().all(|&hits| hits > 0),
            "the rounds did not reach both instances: {before:?}"
        );

        // 32 clients send the final request at once.
        let final_request = rounds.call(Some(&last.state), json!({ "confirm": confirm(true) }));
        let start = Arc::new(Barrier::new(COPIES));
        let mut copies = JoinSet::new();
        for _ in 0..COPIES {
            let (url, request, start) = (fleet.url(), final_request.clone(), start.clone());
            copies.spawn(async move {
                let client = connect(&url).await?;
                start.wait().await;
                finish(&client, request).await
            });
        }
        let mut results = Vec::new();
        while let Some(result) = copies.join_next().await {
            results.push(serde_json::to_value(result??)?);
        }

        let first = &results[0];
        assert_signed_up(&serde_json::from_value(first.clone())?, TEAM);
        for (copy, result) in results.iter().enumerate() {
            assert_eq!(result, first, "copy {copy} got another result");
        }
        let after = fleet.requests_per_instance();
        assert!(
            after.iter().zip(&before).all(|(a, b)| a > b),
            "the copies did not reach both instances: {before:?} then {after:?}"
        );

        // Other answers in a duplicate change nothing.
        let declined = rounds
            .finish(Some(&last.state), json!({ "confirm": confirm(false) }))
            .await?;
        assert_eq!(&serde_json::to_value(declined)?, first);

        assert_eq!(
            fleet.count_logged(&signup_effect(TEAM)),
            1,
            "the effect ran other than once:\n{}",
            fleet.logs()
        );
        Ok(())
    })
    .await
}

// =============================================================================
// An instance dies
// =============================================================================

#[tokio::test(flavor = "multi_thread")]
async fn a_round_claimed_by_a_killed_instance_runs_again_after_its_lease() -> anyhow::Result<()> {
    const TEAM: &str = "Orphaned";
    within(Duration::from_secs(60), async {
        let mut fleet = Fleet::start(wizard_http!(), 2).await?;
        // Instance 0 runs the first rounds, so it has claimed rounds in Redis before.
        let direct = connect(&fleet.instances[0].url()).await?;
        let rounds = SIGNUP.rounds(&direct, TEAM);
        let last = up_to_confirm(&rounds).await?;
        let final_request = rounds.call(Some(&last.state), json!({ "confirm": confirm(true) }));

        // Instance 0 gets the final request and claims its round; Redis, frozen, holds the
        // claim unanswered, and instance 0 dies before it hears back. Thawed, Redis records
        // the claim of a dead holder.
        fleet.redis.freeze()?;
        let doomed = tokio::spawn({
            let request = final_request.clone();
            async move { send(&direct, request).await }
        });
        // Instance 0 is killed only once its claim waits in Redis's socket, however slow the
        // machine (a fixed pause let a loaded instance die before it claimed).
        let sent = Instant::now();
        while fleet.redis.unread_bytes()? == 0 {
            assert!(
                sent.elapsed() < Duration::from_secs(20),
                "instance 0 sent Redis no claim"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        fleet.instances[0].kill();
        // The claim's lease starts when Redis runs it, after this.
        let thawed = Instant::now();
        fleet.redis.thaw()?;
        assert!(doomed.await?.is_err(), "a killed instance answered");

        // The client retries through the proxy: the round runs once the dead claim's lease
        // lapses, and not before.
        let client = connect(&fleet.url()).await?;
        let result = finish(&client, final_request).await?;
        let waited = thawed.elapsed();
        assert_signed_up(&result, TEAM);
        assert!(
            waited >= Engine::DEFAULT_LEASE - Duration::from_millis(100),
            "the retry ran the round within the dead instance's lease, {waited:?} after it began"
        );
        assert!(
            waited < Engine::DEFAULT_LEASE + Duration::from_secs(10),
            "{waited:?}"
        );
        assert_eq!(
            fleet.count_logged(&signup_effect(TEAM)),
            1,
            "{}",
            fleet.logs()
        );
        println!("the retry of the orphaned round waited {waited:?}");
        Ok(())
    })
    .await
}

const FLOWS: usize = 60;
/// Flows in progress at once.
const WORKERS: usize = 8;
/// The instance is killed once this many flows have completed...
const KILL_AFTER: usize = 20;
/// ...and flows from this one on start only after it is back, so it serves again.
const AFTER_RESTART: usize = 40;
/// How long nginx skips an upstream after it failed (`fail_timeout` in `services.rs`).
const NGINX_FAIL_TIMEOUT: Duration = Duration::from_secs(1);
/// The longest one flow may take: above the 10 s lease a retry waits out, and the 30 s a
/// duplicate waits.
const FLOW_DEADLINE: Duration = Duration::from_secs(60);

/// Where the flows stand.
#[derive(Default)]
struct Progress {
    next: AtomicUsize,
    started: AtomicUsize,
    completed: AtomicUsize,
}

/// One flow, as its client saw it.
struct Flow {
    team: String,
    result: CallToolResult,
    failures: usize,
    took: Duration,
}

fn team(flow: usize) -> String {
    format!("Fleet-{flow:02}")
}

/// Answers every round of `team`'s signup, retrying each request as it is until it is answered.
async fn patient_signup(client: &mut PatientClient, team: &str) -> anyhow::Result<CallToolResult> {
    let deadline = Instant::now() + FLOW_DEADLINE;
    let mut params = SIGNUP.first_call(team);
    for (key, answer) in [
        ("profile", ada()),
        ("plan", pro()),
        ("confirm", confirm(true)),
    ] {
        let asked = match client.send(&params, deadline).await? {
            Reply::Asked(asked) => asked,
            Reply::Done(result) => anyhow::bail!("{team}: a result before `{key}`: {result:?}"),
        };
        anyhow::ensure!(
            asked.keys == [key],
            "{team}: asked {:?}, not {key}",
            asked.keys
        );
        params = with_answer(&params, &asked.state, key, answer);
    }
    match client.send(&params, deadline).await? {
        Reply::Done(result) => Ok(result),
        Reply::Asked(asked) => anyhow::bail!("{team}: asked {:?} after confirm", asked.keys),
    }
}

fn with_answer(
    first: &CallToolRequestParams,
    state: &str,
    key: &str,
    answer: Value,
) -> CallToolRequestParams {
    let mut params = first.clone();
    params.request_state = Some(state.to_owned());
    params.input_responses =
        Some(serde_json::from_value(json!({ key: answer })).expect("answers are a JSON object"));
    params
}

/// Runs flows until none is left; flows from [`AFTER_RESTART`] on wait for `restarted`.
async fn worker(
    url: String,
    progress: Arc<Progress>,
    mut restarted: tokio::sync::watch::Receiver<bool>,
) -> anyhow::Result<Vec<Flow>> {
    let mut client = PatientClient::new(&url);
    let mut flows = Vec::new();
    loop {
        let flow = progress.next.fetch_add(1, Ordering::SeqCst);
        if flow >= FLOWS {
            return Ok(flows);
        }
        if flow >= AFTER_RESTART {
            restarted.wait_for(|&back| back).await?;
        }
        let team = team(flow);
        let failures = client.failures;
        let started = Instant::now();
        progress.started.fetch_add(1, Ordering::SeqCst);
        let result = patient_signup(&mut client, &team).await?;
        progress.completed.fetch_add(1, Ordering::SeqCst);
        flows.push(Flow {
            team,
            result,
            failures: client.failures - failures,
            took: started.elapsed(),
        });
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn sixty_flows_complete_while_an_instance_is_killed_and_restarted() -> anyhow::Result<()> {
    within(Duration::from_secs(100), async {
        let mut fleet = Fleet::start(wizard_http!(), 2).await?;
        let began = Instant::now();
        let progress = Arc::new(Progress::default());
        let (restarted_tx, restarted) = tokio::sync::watch::channel(false);
        let mut workers = JoinSet::new();
        for _ in 0..WORKERS {
            workers.spawn(worker(fleet.url(), progress.clone(), restarted.clone()));
        }

        while progress.completed.load(Ordering::SeqCst) < KILL_AFTER {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        fleet.instances[0].kill();
        let in_flight =
            progress.started.load(Ordering::SeqCst) - progress.completed.load(Ordering::SeqCst);
        let killed_at = began.elapsed();
        tokio::time::sleep(Duration::from_secs(1)).await;
        fleet.instances[0].restart().await?;
        let at_restart = fleet.requests_per_instance();
        // nginx skips an upstream for 1 s (`fail_timeout`) after it failed, which it may have
        // done just before the restart.
        tokio::time::sleep(NGINX_FAIL_TIMEOUT + Duration::from_millis(100)).await;
        restarted_tx.send(true)?;

        let mut flows = Vec::new();
        while let Some(done) = workers.join_next().await {
            flows.extend(done??);
        }
        assert_eq!(flows.len(), FLOWS);
        for flow in &flows {
            assert_signed_up(&flow.result, &flow.team);
        }
        let after = fleet.requests_per_instance();
        assert!(
            after[0] > at_restart[0],
            "the restarted instance served nothing: {at_restart:?} then {after:?}"
        );

        // Each effect ran once, or twice for a round the dead instance ran but did not record.
        let mut extra = 0;
        for flow in &flows {
            let effects = fleet.count_logged(&signup_effect(&flow.team));
            assert!(
                (1..=2).contains(&effects),
                "{} signed up {effects} times:\n{}",
                flow.team,
                fleet.logs()
            );
            extra += effects - 1;
        }
        assert!(
            extra <= in_flight,
            "{extra} effects ran twice, more than the {in_flight} flows in progress at the kill"
        );

        let failures: usize = flows.iter().map(|flow| flow.failures).sum();
        let retried = flows.iter().filter(|flow| flow.failures > 0).count();
        let slowest = flows.iter().map(|flow| flow.took).max().unwrap_or_default();
        let waited_a_lease = flows
            .iter()
            .filter(|flow| flow.took >= Engine::DEFAULT_LEASE / 2)
            .count();
        println!(
            "{FLOWS} flows in {:?}: instance 0 killed at {killed_at:?} with {in_flight} flows \
             in progress; {extra} effects ran twice; {failures} failed attempts over {retried} \
             flows; {waited_a_lease} flows waited out a dead claim's lease (slowest {slowest:?}); \
             requests per instance {after:?}",
            began.elapsed()
        );
        Ok(())
    })
    .await
}

// =============================================================================
// Pre-2026 clients on a fleet
// =============================================================================

/// A 2025-11-25 client that answers `signup`'s three questions.
#[derive(Clone)]
struct SessionUser;

impl rmcp::ClientHandler for SessionUser {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        let mut config = rmcp::model::ClientConfig::new(
            rmcp::model::ClientCapabilities::builder()
                .enable_elicitation()
                .build(),
            rmcp::model::Implementation::new("session-user", "1"),
        );
        config.protocol_version = rmcp::model::ProtocolVersion::V_2025_11_25;
        config
    }

    async fn create_elicitation(
        &self,
        request: rmcp::model::ElicitRequestParams,
        _: rmcp::service::RequestContext<rmcp::RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, rmcp::ErrorData> {
        let message = match &request {
            rmcp::model::ElicitRequestParams::FormElicitationParams { message, .. } => message,
            _ => "",
        };
        let content = match message {
            m if m.starts_with("Welcome") => json!({"name": "Ada"}),
            m if m.starts_with("Which plan") => json!({"plan": "pro"}),
            _ => json!({"confirm": true}),
        };
        Ok(
            rmcp::model::ElicitResult::new(rmcp::model::ElicitationAction::Accept)
                .with_content(content),
        )
    }
}

/// `signup` for `team` by a 2025-11-25 client on a session opened at `url`.
async fn signup_on_a_session(url: &str, team: &str) -> anyhow::Result<CallToolResult> {
    use rmcp::{
        ClientLifecycleMode, ClientServiceExt,
        transport::{
            StreamableHttpClientTransport,
            streamable_http_client::StreamableHttpClientTransportConfig,
        },
    };
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()),
    );
    let client = tokio::time::timeout(
        Duration::from_secs(15),
        SessionUser.serve_with_lifecycle(transport, ClientLifecycleMode::Initialize),
    )
    .await??;
    let arguments = json!({ "team": team }).as_object().cloned();
    let mut request = CallToolRequestParams::new("signup");
    request.arguments = arguments;
    let result = tokio::time::timeout(Duration::from_secs(15), client.call_tool(request)).await??;
    let _ = client.cancel().await;
    Ok(result)
}

/// What the README says of a fleet: a 2026-07-28 client needs no sticky sessions, but a
/// pre-2026 client's session lives in the instance that answered its `initialize` (its
/// questions wait there, in process), so a proxy must send all of a client's requests to one
/// instance. Round robin loses the session; `ip_hash` keeps it.
#[tokio::test(flavor = "multi_thread")]
async fn a_pre_2026_session_needs_a_proxy_that_keeps_each_client_on_one_instance()
-> anyhow::Result<()> {
    within(Duration::from_secs(90), async {
        let fleet = Fleet::start(wizard_http!(), 2).await?;
        let lost = signup_on_a_session(&fleet.url(), "Round robin").await;
        assert!(
            lost.is_err(),
            "a session survived round robin: {lost:?}; say so in the README"
        );
        // nginx logs a request once it has answered it: the client may see the answer first.
        let reached_both = mrtr_tests::poll::until(
            "the session's requests reaching both instances",
            Duration::from_secs(5),
            || fleet.requests_per_instance().iter().all(|&hits| hits > 0),
        )
        .await;
        assert!(
            reached_both.is_ok(),
            "the session's requests did not reach both instances: {:?}",
            fleet.requests_per_instance()
        );

        let ports: Vec<u16> = fleet.instances.iter().map(WizardInstance::port).collect();
        let by_client = Nginx::by_client_address(&ports).await?;
        assert_signed_up(
            &signup_on_a_session(&by_client.url(), "By client").await?,
            "By client",
        );
        // A 2026-07-28 client behind the same proxy is served as ever.
        let client = connect(&by_client.url()).await?;
        let rounds = SIGNUP.rounds(&client, "Native");
        let last = up_to_confirm(&rounds).await?;
        let done = rounds
            .finish(Some(&last.state), json!({ "confirm": confirm(true) }))
            .await?;
        assert_signed_up(&done, "Native");
        Ok(())
    })
    .await
}
