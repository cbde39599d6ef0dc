//! Server memory per pending interaction: 1,000 `signup` flows left waiting at their first
//! question, on a `wizard-http` process, measured as the growth of its resident memory.
//!
//! - **Native** (2026-07-28): each flow's first round returns its question and a sealed state,
//!   which the client keeps; the server keeps nothing but its counters.
//! - **Legacy** (2025-11-25 clients, served by `mrtr::Bridged`): each flow is a session whose
//!   `tools/call` is parked in a task on the server while `elicitation/create` waits for the
//!   client. Each of the 1,000 clients has its own session; none answers until all are counted.
//! - **Task** (the tasks extension): 1,000 `provision` tasks waiting for their question in
//!   `tasks/get`. Each is a record in the server's task store, holding the sealed state of the
//!   round that asked; nothing runs.
//!
//! Then the legacy clients and the tasks are answered, and every flow must complete. Resident
//! memory is a coarse measure (pages, and what the allocator keeps), so each side is the median
//! of three rounds of 1,000, and the baseline is taken after warm-up flows of each kind. Tasks
//! run on a second process: a task's record outlives its answer (until its TTL), and memory the
//! legacy sessions gave back would hold new records without the process growing.
//! Results go to `target/bench-results/pending_memory.json`.
//!
//! `cargo bench -p mrtr-tests --bench pending_memory`

use std::{
    process::Command,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use mrtr_tests::{
    bench_servers::ServerProcess,
    poll::until,
    task_client::{TaskClient, accept, tasks_and_elicitation},
};
use rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData,
    model::{
        CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig,
        ElicitRequestParams, ElicitResult, ElicitationAction, Implementation, JsonObject,
        ProtocolVersion,
    },
    service::{RequestContext, RoleClient},
    transport::{
        StreamableHttpClientTransport, streamable_http_client::StreamableHttpClientTransportConfig,
    },
};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

const FLOWS: usize = 1000;
const REPEATS: usize = 3;

fn signup_arguments() -> JsonObject {
    serde_json::from_value(json!({"team": "Rust"})).unwrap()
}

/// A 2025-11-25 client that answers nothing until `release` has a permit for it.
#[derive(Clone)]
struct WaitingUser {
    asked: Arc<AtomicUsize>,
    release: Arc<Semaphore>,
}

impl ClientHandler for WaitingUser {
    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::new(
            ClientCapabilities::builder().enable_elicitation().build(),
            Implementation::new("waiting-user", "1"),
        );
        config.protocol_version = ProtocolVersion::V_2025_11_25;
        config
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let permit = self.release.acquire().await;
        drop(permit);
        let message = match &request {
            ElicitRequestParams::FormElicitationParams { message, .. } => message.as_str(),
            _ => "",
        };
        let content = if message.starts_with("Welcome") {
            json!({"name": "Ada"})
        } else if message.starts_with("Which plan") {
            json!({"plan": "pro"})
        } else {
            json!({"confirm": true})
        };
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
    }
}

/// Bytes the server grew by while 1,000 native flows wait at their first question.
async fn native(server: &ServerProcess) -> anyhow::Result<i64> {
    let client = mrtr_examples::demo::elicitation_client()
        .serve_with_lifecycle(
            StreamableHttpClientTransport::from_config(
                StreamableHttpClientTransportConfig::with_uri(server.url()),
            ),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await?;
    let before = server.resident_bytes()? as i64;
    let mut states = Vec::with_capacity(FLOWS);
    for _ in 0..FLOWS {
        let params = CallToolRequestParams::new("signup").with_arguments(signup_arguments());
        match client.call_tool_once(params).await? {
            CallToolResponse::InputRequired(input) => states.push(input.request_state),
            other => anyhow::bail!("a first round that asks nothing: {other:?}"),
        }
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let after = server.resident_bytes()? as i64;
    anyhow::ensure!(states.iter().all(Option::is_some));
    Ok(after - before)
}

/// Bytes the server grew by while 1,000 legacy flows, each on its own session, wait at their
/// first question; then they are answered and must all complete.
async fn legacy(server: &ServerProcess) -> anyhow::Result<i64> {
    let user = WaitingUser {
        asked: Arc::new(AtomicUsize::new(0)),
        release: Arc::new(Semaphore::new(0)),
    };
    let before = server.resident_bytes()? as i64;
    let mut clients = Vec::with_capacity(FLOWS);
    for _ in 0..FLOWS {
        let client = user
            .clone()
            .serve_with_lifecycle(
                StreamableHttpClientTransport::from_config(
                    StreamableHttpClientTransportConfig::with_uri(server.url()),
                ),
                ClientLifecycleMode::Initialize,
            )
            .await?;
        clients.push(Arc::new(client));
    }
    let calls: Vec<_> = clients
        .iter()
        .map(|client| {
            let client = client.clone();
            tokio::spawn(async move {
                client
                    .call_tool(
                        CallToolRequestParams::new("signup").with_arguments(signup_arguments()),
                    )
                    .await
            })
        })
        .collect();
    until(
        "every legacy flow to be asked",
        Duration::from_secs(60),
        || user.asked.load(Ordering::SeqCst) >= FLOWS,
    )
    .await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let after = server.resident_bytes()? as i64;
    user.release.add_permits(Semaphore::MAX_PERMITS / 2);
    for call in calls {
        let result = call.await??;
        anyhow::ensure!(
            mrtr_examples::demo::text_of(&result) == "Signed up Ada to Rust on the pro plan",
            "a legacy flow ended otherwise: {result:?}"
        );
    }
    for client in clients {
        if let Ok(client) = Arc::try_unwrap(client) {
            let _ = client.cancel().await;
        }
    }
    Ok(after - before)
}

/// Bytes the server grew by while 1,000 `provision` tasks wait for their question; then they
/// are answered and must all complete.
async fn tasks(server: &ServerProcess) -> anyhow::Result<i64> {
    let client = TaskClient::new(&server.url(), tasks_and_elicitation());
    let before = server.resident_bytes()? as i64;
    let arguments = json!({"team": "Rust", "prepare_ms": 0});
    let mut ids = Vec::with_capacity(FLOWS);
    for _ in 0..FLOWS {
        let created = client.call("provision", arguments.clone()).await;
        let id = created["taskId"].as_str();
        let id = id.ok_or_else(|| anyhow::anyhow!("provision made no task: {created}"))?;
        ids.push(id.to_owned());
    }
    for id in &ids {
        let waiting = client.wait_for(id, "input_required").await;
        anyhow::ensure!(waiting["status"] == "input_required", "{waiting}");
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let after = server.resident_bytes()? as i64;
    let answer = json!({"1.region": accept(json!({"region": "eu"}))});
    for id in &ids {
        client.update(id, answer.clone()).await;
    }
    for id in &ids {
        let done = client.wait_for(id, "completed").await;
        anyhow::ensure!(
            done["result"]["content"][0]["text"] == "Provisioned Rust's workspace in eu",
            "a task ended otherwise: {done}"
        );
    }
    Ok(after - before)
}

fn median(mut values: Vec<i64>) -> i64 {
    values.sort();
    values[values.len() / 2]
}

async fn wizard_http() -> anyhow::Result<ServerProcess> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_wizard-http"));
    command
        .env("MRTR_KEYS", mrtr_tests::services::FLEET_KEYS)
        .env_remove("MRTR_REDIS_URL")
        // Enough records for the whole run at the default 10-minute TTL.
        .env("MRTR_REPLAY_CAPACITY", "5000000")
        .env("RUST_LOG", "error");
    ServerProcess::start("mrtr", command, |port| vec![format!("127.0.0.1:{port}")]).await
}

async fn measure() -> anyhow::Result<Value> {
    let server = wizard_http().await?;
    // Warm up: both kinds once, so the baseline holds what any first flow allocates for good.
    native(&server).await?;
    legacy(&server).await?;
    let (mut natives, mut legacies, mut taskses) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..REPEATS {
        natives.push(native(&server).await?);
        legacies.push(legacy(&server).await?);
    }
    drop(server);
    // Tasks on a process of their own: memory the legacy sessions gave back would otherwise
    // hold the first task records without growing the process.
    let server = wizard_http().await?;
    tasks(&server).await?;
    for _ in 0..REPEATS {
        taskses.push(tasks(&server).await?);
    }
    let (native, legacy) = (median(natives.clone()), median(legacies.clone()));
    let task = median(taskses.clone());
    let per = |bytes: i64| bytes as f64 / FLOWS as f64;
    println!(
        "server memory per pending flow ({FLOWS} pending, median of {REPEATS}): native {:.0} B, \
         legacy session {:.0} B, task {:.0} B",
        per(native),
        per(legacy),
        per(task)
    );
    Ok(json!({
        "flows": FLOWS,
        "native_bytes_per_flow": per(native),
        "legacy_bytes_per_flow": per(legacy),
        "task_bytes_per_flow": per(task),
        "native_growth_bytes": natives,
        "legacy_growth_bytes": legacies,
        "task_growth_bytes": taskses,
    }))
}

fn main() -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let results = runtime.block_on(measure())?;
    let path = mrtr_tests::bench_results::merge_into("pending_memory.json", results)?;
    println!("results: {}", path.display());
    Ok(())
}
