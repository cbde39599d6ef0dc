//! What a pending legacy interaction holds, and that it lets go: 1,000 flows waiting on a
//! question, then cancelled by the client (`notifications/cancelled`) or cut off by a closed
//! session, leave the server's tasks and the process's memory where they were.

use std::{
    alloc::{GlobalAlloc, Layout, System},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering},
    },
    time::Duration,
};

use mrtr::Bridged;
use mrtr_examples::wizard::Wizard;
use mrtr_tests::poll::until;
use rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, ServiceExt,
    model::{
        CallToolRequest, CallToolRequestParams, ClientCapabilities, ClientConfig, ClientRequest,
        ElicitRequestParams, ElicitResult, ElicitationAction, Implementation, JsonObject,
        ProtocolVersion,
    },
    service::{PeerRequestOptions, RequestContext, RoleClient, RunningService},
};
use serde_json::json;

/// Counts the bytes this process has allocated and not freed.
struct Counting;

static IN_USE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        IN_USE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        IN_USE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const FLOWS: usize = 1_000;

/// How long a test waits for the server to get somewhere.
const WAIT: Duration = Duration::from_secs(20);

/// The byte count is the whole process's: one test at a time measures.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A 2025-11-25 client that is asked and does not answer until released, or until the server
/// cancels its question.
#[derive(Clone, Default)]
struct Stalling {
    asked: Arc<AtomicUsize>,
    released: Arc<AtomicBool>,
}

impl ClientHandler for Stalling {
    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::new(
            ClientCapabilities::builder().enable_elicitation().build(),
            Implementation::new("stalling-user", "1"),
        );
        config.protocol_version = ProtocolVersion::V_2025_11_25;
        config
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        while !self.released.load(Ordering::SeqCst) && !context.ct.is_cancelled() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Ok(ElicitResult::new(ElicitationAction::Decline))
    }
}

fn signup() -> ClientRequest {
    let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"})).unwrap();
    ClientRequest::CallToolRequest(CallToolRequest::new(
        CallToolRequestParams::new("signup").with_arguments(arguments),
    ))
}

/// The server on a runtime of its own, so that its tasks can be counted.
struct Server {
    runtime: tokio::runtime::Runtime,
}

impl Server {
    fn new() -> Self {
        Self {
            runtime: tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap(),
        }
    }

    fn tasks(&self) -> usize {
        self.runtime.metrics().num_alive_tasks()
    }

    /// A new session for a 2025-11-25 client.
    async fn connect(&self, user: &Stalling) -> RunningService<RoleClient, Stalling> {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let engine = mrtr::Engine::builder()
            .key(1, mrtr_tests::keys::test_key(6))
            .build()
            .unwrap();
        self.runtime.spawn(async move {
            if let Ok(running) = Bridged::new(Wizard::new(engine)).serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        user.clone()
            .serve_with_lifecycle(client_io, ClientLifecycleMode::Initialize)
            .await
            .unwrap()
    }
}

fn bytes() -> isize {
    IN_USE.load(Ordering::Relaxed)
}

/// After the flows are gone, what is left is a small share of what they held.
fn assert_let_go(base: isize, peak: isize, after: isize) {
    let held = peak - base;
    let left = after - base;
    println!("{FLOWS} pending flows held {held} bytes; {left} remain after they ended");
    assert!(held > 0);
    assert!(left < held / 20, "{left} of {held} bytes remain");
}

/// A thousand flows asked and then cancelled on `client`'s session. Returns the bytes in use
/// before, at the peak and after.
async fn cancelled_batch(
    server: &Server,
    client: &RunningService<RoleClient, Stalling>,
    user: &Stalling,
) -> (isize, isize, isize) {
    user.asked.store(0, Ordering::SeqCst);
    user.released.store(false, Ordering::SeqCst);
    let (base_tasks, base_bytes) = (server.tasks(), bytes());

    let mut calls = Vec::new();
    for _ in 0..FLOWS {
        let call = client
            .send_cancellable_request(signup(), PeerRequestOptions::no_options())
            .await
            .unwrap();
        calls.push(call);
    }
    until("every flow asking", WAIT, || {
        user.asked.load(Ordering::SeqCst) == FLOWS
    })
    .await
    .expect("every flow asks");
    let (peak_tasks, peak_bytes) = (server.tasks(), bytes());
    assert!(peak_tasks >= base_tasks + FLOWS, "{peak_tasks} tasks");

    for call in calls {
        call.cancel(None).await.unwrap();
    }
    until(
        &format!("the server's tasks back to their baseline of {base_tasks}"),
        WAIT,
        || server.tasks() <= base_tasks,
    )
    .await
    .unwrap_or_else(|_| panic!("{} server tasks remain", server.tasks()));
    user.released.store(true, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(200)).await;
    (base_bytes, peak_bytes, bytes())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_cancelled_flows_leave_no_task_and_no_memory() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let server = Server::new();
    let user = Stalling::default();
    let client = server.connect(&user).await;
    // One flow asked and cancelled first, so that what a session sets up on its first
    // cancellation is part of the baseline.
    let warm_up = client
        .send_cancellable_request(signup(), PeerRequestOptions::no_options())
        .await
        .unwrap();
    until("the warm-up flow asking", WAIT, || {
        user.asked.load(Ordering::SeqCst) == 1
    })
    .await
    .expect("the warm-up flow asks");
    warm_up.cancel(None).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A first batch grows the session's tables to what a thousand flows need; they keep that
    // capacity. The second batch is measured: what it leaves behind is what flows leak.
    cancelled_batch(&server, &client, &user).await;
    let (base, peak, after) = cancelled_batch(&server, &client, &user).await;
    assert_let_go(base, peak, after);
    drop(client);
    server.runtime.shutdown_background();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_flows_of_a_closed_session_leave_no_task_and_no_memory() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let server = Server::new();
    let (base_tasks, base_bytes) = (server.tasks(), bytes());
    let user = Stalling::default();
    let client = server.connect(&user).await;

    let mut calls = Vec::new();
    for _ in 0..FLOWS {
        calls.push(
            client
                .send_cancellable_request(signup(), PeerRequestOptions::no_options())
                .await
                .unwrap(),
        );
    }
    until("every flow asking", WAIT, || {
        user.asked.load(Ordering::SeqCst) == FLOWS
    })
    .await
    .expect("every flow asks");
    let peak_bytes = bytes();
    assert!(server.tasks() >= base_tasks + FLOWS);

    // The client goes away with its session.
    user.released.store(true, Ordering::SeqCst);
    drop(calls);
    client.cancel().await.unwrap();
    until("the server's tasks back to their baseline", WAIT, || {
        server.tasks() <= base_tasks
    })
    .await
    .expect("the server's tasks end");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_let_go(base_bytes, peak_bytes, bytes());
    server.runtime.shutdown_background();
}
