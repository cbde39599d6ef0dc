//! Tasks across a fleet: two instances that share their keys and a real Redis (as replay
//! store and task store), on loopback. A task started on one is polled, answered and
//! cancelled on the other; a task whose instance is killed mid-work is taken over by the
//! other, also one that started after a round; both task stores keep the one documented
//! contract, and answer random sequences of operations alike.

use std::time::Duration;

use mrtr::{
    Engine,
    replay::RedisStore,
    task::{MemoryTaskStore, RedisTaskStore},
};
use mrtr_examples::conformance::Conformance;
use mrtr_tests::{
    loopback::Served,
    services::{FLEET_KEYS, RedisServer, WizardInstance, free_port},
    task_client::{TaskClient, accept, tasks_and_elicitation, text},
    task_store_contract, task_stores_agree,
};
use serde_json::json;

/// One instance of the fleet: its engine (to see what runs on it) and its URL.
struct Instance {
    engine: Engine,
    _served: Served,
    client: TaskClient,
}

async fn instance(redis: &RedisServer) -> Instance {
    let engine = Engine::builder()
        .key(1, mrtr_tests::keys::test_key(41))
        .replay_store(RedisStore::open(&redis.url()).unwrap())
        .task_store(RedisTaskStore::open(&redis.url()).unwrap())
        .task_poll_interval(Duration::from_millis(200))
        .build()
        .unwrap();
    let served = Served::start(Conformance::new(engine.clone()))
        .await
        .unwrap();
    let client = TaskClient::new(&served.url, tasks_and_elicitation());
    Instance {
        engine,
        _served: served,
        client,
    }
}

/// Two processes of `program` on one Redis, and a task client of each.
struct Fleet {
    a: WizardInstance,
    b: WizardInstance,
    on_a: TaskClient,
    on_b: TaskClient,
    _redis: RedisServer,
}

impl Fleet {
    async fn start(program: &std::path::Path) -> Self {
        let redis = RedisServer::start().await.expect("redis starts");
        let url = redis.url();
        let start = |port| WizardInstance::start(program, port, FLEET_KEYS, &url);
        let a = start(free_port()).await.expect("instance A starts");
        let b = start(free_port()).await.expect("instance B starts");
        Self {
            on_a: TaskClient::new(&a.url(), tasks_and_elicitation()),
            on_b: TaskClient::new(&b.url(), tasks_and_elicitation()),
            a,
            b,
            _redis: redis,
        }
    }
}

async fn within_time<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(90), f)
        .await
        .expect("test finished in time")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_task_stores_keep_the_contract() {
    within_time(async {
        task_store_contract::check(&MemoryTaskStore::default()).await;
        let redis = RedisServer::start().await.expect("redis starts");
        task_store_contract::check(&RedisTaskStore::open(&redis.url()).unwrap()).await;
    })
    .await;
}

/// Random creations, reads and compare-and-sets get the same answers, error kinds included,
/// from Redis's commands and Lua script as from the in-memory store, step by step and once
/// brief records ran out.
#[test]
fn redis_and_memory_task_stores_answer_alike() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let redis = runtime
        .block_on(RedisServer::start())
        .expect("redis-server starts");
    let memory = MemoryTaskStore::default();
    let shared = RedisTaskStore::open(&redis.url()).expect("a Redis URL");
    task_stores_agree::check(&memory, &shared, 150);
    drop(redis);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_started_on_one_instance_is_answered_and_cancelled_on_the_other() {
    within_time(async {
        let redis = RedisServer::start().await.expect("redis starts");
        let (a, b) = (instance(&redis).await, instance(&redis).await);

        // Started on A, seen and answered on B, finished as seen from A.
        let task = a
            .client
            .start("confirm_delete", json!({"filename": "fleet.txt"}))
            .await;
        let waiting = b.client.wait_for(&task, "input_required").await;
        assert_eq!(
            waiting["inputRequests"]["1.confirm"]["params"]["message"],
            "Delete 'fleet.txt'?"
        );
        b.client.confirm(&task).await;
        let done = a.client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "deleted 'fleet.txt'", "{done}");

        // Two questions, answered one on each instance.
        let task = a.client.start("multi_input", json!({})).await;
        a.client.wait_for(&task, "input_required").await;
        a.client
            .update(&task, json!({"1.name": accept(json!({"name": "Lin"}))}))
            .await;
        let half = b.client.get(&task).await;
        assert_eq!(
            half["inputRequests"].as_object().unwrap().len(),
            1,
            "{half}"
        );
        b.client.confirm(&task).await;
        let done = a.client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "name=\"Lin\" confirmed=true");

        // The round before the task on A, its retry (which starts the task) on B.
        let first = a.client.call("test_tool_with_task", json!({})).await;
        assert_eq!(first["resultType"], "input_required", "{first}");
        let answers = json!({"user_name": accept(json!({"name": "Ana"}))});
        let created = b
            .client
            .retry(
                "test_tool_with_task",
                json!({}),
                answers,
                &first["requestState"],
            )
            .await;
        let task = created["taskId"].as_str().expect("a task").to_owned();
        let done = a.client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "Hello, Ana! (computed in task)");

        // Work running on A stops when B cancels it.
        let task = a
            .client
            .start("slow_compute", json!({"seconds": 60, "label": "fleet"}))
            .await;
        assert_eq!(a.engine.running_tasks(), 1);
        assert_eq!(
            b.client.cancel(&task).await,
            json!({"resultType": "complete"})
        );
        assert_eq!(a.client.get(&task).await["status"], "cancelled");
        let stopped = tokio::time::Instant::now() + Duration::from_secs(5);
        while a.engine.running_tasks() > 0 {
            assert!(
                tokio::time::Instant::now() < stopped,
                "A still runs a task B cancelled"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(b.engine.running_tasks(), 0);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_whose_instance_is_killed_mid_work_is_taken_over() {
    within_time(async {
        let program = std::path::Path::new(env!("CARGO_BIN_EXE_wizard-http"));
        let mut fleet = Fleet::start(program).await;

        let arguments = json!({"team": "Rust", "prepare_ms": 1500});
        let task = fleet.on_a.start("provision", arguments).await;
        fleet.a.kill();
        assert_eq!(fleet.on_b.get(&task).await["status"], "working");

        // A renewed its lease (10 s) every second; B takes over one lease after it lapsed, and
        // runs the round again from the start.
        let waiting = fleet
            .on_b
            .wait_for_within(&task, "input_required", Duration::from_secs(40))
            .await;
        assert_eq!(waiting["status"], "input_required", "{waiting}");
        fleet
            .on_b
            .update(&task, json!({"1.region": accept(json!({"region": "us"}))}))
            .await;
        let done = fleet.on_b.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "Provisioned Rust's workspace in us");
        assert!(
            fleet.b.log().contains("took over a task"),
            "B's log: {}",
            fleet.b.log()
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_started_after_a_round_is_taken_over_when_its_instance_is_killed() {
    within_time(async {
        let program = std::path::Path::new(env!("CARGO_BIN_EXE_task-tools-http"));
        let mut fleet = Fleet::start(program).await;

        let arguments = json!({"work_ms": 3000});
        let first = fleet.on_a.call("word_then_work", arguments.clone()).await;
        assert_eq!(first["resultType"], "input_required", "{first}");
        let answers = json!({"word": accept(json!({"word": "w"}))});
        let state = &first["requestState"];
        let created = fleet
            .on_a
            .retry("word_then_work", arguments.clone(), answers.clone(), state)
            .await;
        assert_eq!(created["resultType"], "task", "{created}");
        let task = created["taskId"].as_str().expect("a task id").to_owned();
        // A duplicate on the other instance gets the same task.
        let again = fleet
            .on_b
            .retry("word_then_work", arguments, answers, state)
            .await;
        assert_eq!(again["taskId"], task.as_str(), "{again}");
        fleet.a.kill();

        // B takes over once A's lease lapsed, and runs the round that started the task again.
        let waiting = fleet
            .on_b
            .wait_for_within(&task, "input_required", Duration::from_secs(40))
            .await;
        assert_eq!(waiting["status"], "input_required", "{waiting}");
        fleet.on_b.confirm(&task).await;
        let done = fleet.on_b.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "w: true", "{done}");
        assert!(
            fleet.b.log().contains("took over a task"),
            "B's log: {}",
            fleet.b.log()
        );
    })
    .await;
}

/// An instance configured from the environment keeps its replay records and its tasks on one
/// Redis connection, so it checks Redis's eviction policy (here one that may evict) once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_keeps_both_stores_on_one_redis_connection() {
    within_time(async {
        let redis = RedisServer::start_with_config("maxmemory-policy allkeys-lru\n")
            .await
            .expect("redis starts");
        let program = std::path::Path::new(env!("CARGO_BIN_EXE_task-tools-http"));
        let instance = WizardInstance::start(program, free_port(), FLEET_KEYS, &redis.url())
            .await
            .expect("the instance starts");
        let client = TaskClient::new(&instance.url(), tasks_and_elicitation());

        // A guarded round that starts a task: both stores write.
        let arguments = json!({"work_ms": 10});
        let first = client.call("word_then_work", arguments.clone()).await;
        assert_eq!(first["resultType"], "input_required", "{first}");
        let answers = json!({"word": accept(json!({"word": "w"}))});
        let created = client
            .retry("word_then_work", arguments, answers, &first["requestState"])
            .await;
        let task = created["taskId"].as_str().expect("a task id").to_owned();
        client.wait_for(&task, "input_required").await;
        client.confirm(&task).await;
        let done = client.wait_for(&task, "completed").await;
        assert_eq!(text(&done["result"]), "w: true", "{done}");
        assert!(
            redis.key_count().await.unwrap() >= 2,
            "a replay record and a task"
        );

        // Redis lists the connection asking, and the instance's one.
        let clients = redis.command(&["CLIENT", "LIST"]).await.unwrap();
        let others: Vec<&str> = clients
            .lines()
            .filter(|line| !line.contains("cmd=client|list"))
            .collect();
        assert_eq!(others.len(), 1, "{clients}");
        let log = instance.log();
        assert_eq!(
            log.matches("set `maxmemory-policy noeviction`").count(),
            1,
            "{log}"
        );
    })
    .await;
}
