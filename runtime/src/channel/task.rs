//! The task channel (`io.modelcontextprotocol/tasks`, SEP-2663): a tool call that runs as a
//! task, its questions read by the client from `tasks/get` and answered with `tasks/update`.
//!
//! A task waiting for input is a record, not a live future: the round that asked ended like a
//! native round, and its sealed `requestState` is kept in the task's record, with the
//! questions under keys made unique for the task's life. When `tasks/update` (on any instance)
//! answers the last of them, that instance runs the next round as a native retry of the
//! original call, through the same machine, envelope, key ring and replay store. Between asks
//! the work runs in the background on the instance that started or resumed it.

use std::{
    collections::HashMap,
    panic::AssertUnwindSafe,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
};

use base64::Engine as _;
use futures::{
    FutureExt,
    future::{Either, select},
};
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities,
        CreateTaskResult, ErrorCode, GetTaskParams, GetTaskResult, InputRequests, InputResponses,
        JsonObject, TaskStatus, UpdateTaskParams,
    },
    service::RequestContext,
};
use tokio::sync::{oneshot, watch};

use crate::{
    Engine, MrtrServer,
    log::Escaped,
    replay::{StoreError, StoreErrorKind},
    task::record::{Asked, TaskRecord, millis, task_key, timestamp, unix_ms},
};

/// Handed to a round through its request's extensions: the round runs in the task channel.
#[derive(Clone)]
pub(crate) struct TaskLink(Arc<Link>);

struct Link {
    /// Fires when the task starts; `None` once it has, or for a round inside a task.
    start: Mutex<Option<oneshot::Sender<()>>>,
    started: AtomicBool,
    /// The response that told the client the call became a task, once its record exists.
    created: watch::Sender<Option<CreateTaskResult>>,
    /// For a round inside a task: which task, and what the call that created it declared.
    inside: Option<Inside>,
}

struct Inside {
    task: String,
    capabilities: ClientCapabilities,
}

impl TaskLink {
    /// A call that may become a task.
    fn starting() -> (Self, oneshot::Receiver<()>) {
        let (sender, receiver) = oneshot::channel();
        let link = Link {
            start: Mutex::new(Some(sender)),
            started: AtomicBool::new(false),
            created: watch::Sender::new(None),
            inside: None,
        };
        (Self(Arc::new(link)), receiver)
    }

    /// A round inside task `id`, which already started.
    fn in_task(id: &str, capabilities: ClientCapabilities) -> Self {
        Self(Arc::new(Link {
            start: Mutex::new(None),
            started: AtomicBool::new(true),
            created: watch::Sender::new(None),
            inside: Some(Inside {
                task: id.to_owned(),
                capabilities,
            }),
        }))
    }

    /// Whether this round runs inside the task that `created` made: the round that started
    /// the task, run again because the instance running it died (`get`'s takeover).
    pub(crate) fn is_inside(&self, created: &CreateTaskResult) -> bool {
        self.0
            .inside
            .as_ref()
            .is_some_and(|inside| inside.task == created.task.task_id)
    }

    /// The call becomes a task here: the client gets `CreateTaskResult` while it runs on.
    pub(crate) fn start(&self) {
        let sender = self
            .0
            .start
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        if let Some(sender) = sender {
            self.0.started.store(true, Ordering::SeqCst);
            let _ = sender.send(());
        }
    }

    fn started(&self) -> bool {
        self.0.started.load(Ordering::SeqCst)
    }

    /// Whether this call became a task (rather than being a round inside one).
    pub(crate) fn became_task(&self) -> bool {
        self.started() && self.0.inside.is_none()
    }

    /// The response that told the client this call became a task, once it has. Never
    /// completes for a call that does not become one, or a round inside a task.
    pub(crate) async fn created(&self) -> CreateTaskResult {
        let mut created = self.0.created.subscribe();
        let created = created
            .wait_for(Option::is_some)
            .await
            .map(|created| created.clone());
        match created {
            Ok(Some(created)) => created,
            _ => std::future::pending().await,
        }
    }

    /// The capabilities a round inside a task asks within.
    pub(crate) fn capabilities(&self) -> Option<&ClientCapabilities> {
        self.0.inside.as_ref().map(|inside| &inside.capabilities)
    }
}

/// The tasks running on this instance, to stop when they are cancelled.
#[derive(Default)]
pub(crate) struct Running(Mutex<HashMap<String, Stop>>);

struct Stop {
    runner: String,
    abort: tokio::task::AbortHandle,
    cancel: Box<dyn FnOnce() + Send>,
}

impl Running {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Stop>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Lists a task's run as running here. Its future must not finish before this.
    fn add(&self, id: &str, run: Run) {
        let Run {
            runner,
            abort,
            cancel,
        } = run;
        let stop = Stop {
            runner,
            abort,
            cancel,
        };
        self.lock().insert(id.to_owned(), stop);
    }

    /// Unlists `runner`'s run of the task, unless a later run of it took its place.
    fn done(&self, id: &str, runner: &str) {
        let mut running = self.lock();
        if running.get(id).is_some_and(|stop| stop.runner == runner) {
            running.remove(id);
        }
    }

    fn stop(&self, id: &str) {
        let stop = self.lock().remove(id);
        if let Some(stop) = stop {
            (stop.cancel)();
            stop.abort.abort();
        }
    }

    /// How many tasks run on this instance now.
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }
}

/// `-32602` for a task that does not exist, expired, or is someone else's.
fn not_found() -> ErrorData {
    ErrorData::invalid_params("Failed to retrieve task: Task not found", None)
}

fn unavailable(what: &str, error: impl std::fmt::Display) -> ErrorData {
    tracing::error!(%error, "mrtr: the task store failed to {what}");
    ErrorData::internal_error("the task store is unavailable", None)
}

/// `-32603` for a task store with no room: clients fill it, so the refusal is logged at most
/// once per interval, with a count, as the replay store's are, and the client is told to come
/// back later rather than that the store is down.
fn too_many_tasks(engine: &Engine, bytes: usize, error: &dyn std::fmt::Display) -> ErrorData {
    if let Some(before) = engine.inner.full_refusals.due(engine.now()) {
        tracing::warn!(
            bytes,
            %error,
            refused_since_last_line = before,
            "mrtr: the task store has no room; raise MemoryTaskStore's capacity or max_bytes, \
             or share a RedisTaskStore"
        );
    }
    ErrorData::internal_error(
        "the server has too many tasks in progress; try again later",
        None,
    )
}

/// A store's failure to create a task: full, or unavailable.
fn not_created(engine: &Engine, bytes: usize, error: StoreError) -> ErrorData {
    match error.kind() {
        StoreErrorKind::Full => too_many_tasks(engine, bytes, &error),
        _ => unavailable("create a task", error),
    }
}

/// The task a run settles into, and the run's token, once the task exists.
#[derive(Clone)]
struct Holding {
    id: String,
    runner: String,
}

/// A fresh random id: a task's, or a runner's token.
fn random_id() -> Result<String, ErrorData> {
    let mut id = [0u8; 16];
    getrandom::getrandom(&mut id).map_err(|error| {
        tracing::error!(%error, "mrtr: the system random source failed");
        ErrorData::internal_error("the server could not start the task", None)
    })?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(id))
}

/// Whether `id` has the shape of an id [`random_id`] makes: 16 bytes in unpadded base64url.
fn plausible_id(id: &str) -> bool {
    id.len() == 22
        && id
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// A `tools/call` from a client that declared the tasks extension. The call runs in the
/// background; if it starts a task (a task tool, at its start or at `start_task()`), the
/// client gets `CreateTaskResult` once the task's record exists. Otherwise it gets the call's
/// own response: a plain tool's result, or a round of input asked before the task starts.
pub(crate) async fn call<S>(
    server: &Arc<S>,
    request: CallToolRequestParams,
    mut context: RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData>
where
    S: ServerHandler + MrtrServer,
{
    let engine = server.mrtr_engine().clone();
    let (link, started) = TaskLink::starting();
    context.extensions.insert(link.clone());
    // A task outlives its request; only `tasks/cancel` cancels it. Until it starts, the
    // request's own cancellation (or its client leaving) stops a first call. A retry's round
    // runs to its end and is recorded (under single use it has claimed its state), as a
    // native round does: the client's re-issue then gets its response, not a half-run round
    // run again.
    let stops_when_cancelled = request.request_state.is_none();
    let request_cancelled = context.ct.clone();
    let request_cancelled = async move {
        if stops_when_cancelled {
            request_cancelled.cancelled().await
        } else {
            std::future::pending().await
        }
    };
    context.ct = Default::default();
    let cancel = context.ct.clone();
    let capabilities = context.client_capabilities().unwrap_or_default();
    let principal = engine.principal(&context);
    let (created, holding) = watch::channel(None::<Holding>);
    let announced = link.clone();
    let run = {
        let (server, engine, request) = (server.clone(), engine.clone(), request.clone());
        async move {
            let mut waiting = holding.clone();
            let work = async {
                let response = round(&*server, request.clone(), context.clone()).await;
                if !link.started() {
                    return Some(response);
                }
                let held = waiting.wait_for(Option::is_some).await.ok()?.clone()?;
                let mut call = request;
                strip_rounds(&mut call);
                drive(&*server, &engine, &held, call, context, response).await;
                None
            };
            let finished = watched(&engine, holding.clone(), work).await.flatten();
            // Finished, failed or stopped: this run no longer runs here.
            if let Some(held) = holding.borrow().clone() {
                engine.inner.tasks.running.done(&held.id, &held.runner);
            }
            finished
        }
    };
    let mut handle = tokio::spawn(run);
    let handle_abort = handle.abort_handle();
    // Dropped before the task is decided, this call stops the run, unless it is a retry's.
    let mut undecided = AbortOnDrop(stops_when_cancelled.then(|| handle_abort.clone()));
    let request_cancelled = std::pin::pin!(request_cancelled);
    let ended = select(&mut handle, request_cancelled);
    let ended = match select(started, ended).await {
        Either::Right((ended, _)) => ended,
        Either::Left((Ok(()), _)) => {
            undecided.0 = None;
            let stop: (_, Box<dyn FnOnce() + Send>) =
                (handle_abort, Box::new(move || cancel.cancel()));
            let response = create(&engine, request, capabilities, principal, created, stop).await;
            // The round's duplicates get this response too (`Machine::run`).
            if let Ok(CallToolResponse::Task(task)) = &response {
                announced.0.created.send_replace(Some(task.clone()));
            }
            return response;
        }
        // The call ended without starting a task, or is about to.
        Either::Left((Err(_), ended)) => ended.await,
    };
    let joined = match ended {
        Either::Left((joined, _)) => joined,
        Either::Right(((), _)) => {
            tracing::debug!(tool = %Escaped(&request.name), "mrtr: a call was cancelled before its task started");
            return Err(ErrorData::internal_error("the request was cancelled", None));
        }
    };
    match joined {
        Ok(Some(response)) => response,
        Ok(None) => Err(ErrorData::internal_error("the task could not start", None)),
        Err(error) => {
            tracing::error!(%error, tool = %Escaped(&request.name), "mrtr: a tool call panicked");
            Err(ErrorData::internal_error("the tool failed", None))
        }
    }
}

/// Runs one round of the call. A tool that panics ends its round with `-32603`, so that its
/// task fails rather than stays `working`.
async fn round<S: ServerHandler>(
    server: &S,
    call: CallToolRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let name = call.name.clone();
    match AssertUnwindSafe(server.call_tool(call, context))
        .catch_unwind()
        .await
    {
        Ok(response) => response,
        Err(_) => {
            tracing::error!(tool = %Escaped(&name), "mrtr: a tool panicked in a round of a task");
            Err(ErrorData::internal_error("the tool failed", None))
        }
    }
}

/// Aborts a call whose request went away before it was answered.
struct AbortOnDrop(Option<tokio::task::AbortHandle>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(abort) = self.0.take() {
            abort.abort();
        }
    }
}

/// A run of a task on this instance: its token, and how to stop it.
struct Run {
    runner: String,
    abort: tokio::task::AbortHandle,
    cancel: Box<dyn FnOnce() + Send>,
}

/// Writes the new task's record, then lets the running call settle into it. The record keeps
/// the call, and the answers and state of the round that started the task, to run it again
/// should this instance die before it settles.
async fn create(
    engine: &Engine,
    mut call: CallToolRequestParams,
    capabilities: ClientCapabilities,
    principal: Option<String>,
    created: watch::Sender<Option<Holding>>,
    (abort, cancel): (tokio::task::AbortHandle, Box<dyn FnOnce() + Send>),
) -> Result<CallToolResponse, ErrorData> {
    let refuse = |error: ErrorData| {
        abort.abort();
        error
    };
    let id = random_id().map_err(refuse)?;
    let runner = random_id().map_err(refuse)?;
    let now = engine.now();
    let stamp = timestamp(now);
    let tasks = &engine.inner.tasks;
    let (answers, state) = (call.input_responses.take(), call.request_state.take());
    strip_rounds(&mut call);
    let mut record = TaskRecord {
        status: TaskStatus::Working,
        created_at: stamp.clone(),
        updated_at: stamp,
        ttl_ms: millis(tasks.ttl),
        poll_interval_ms: millis(tasks.poll_interval),
        principal,
        call,
        capabilities,
        rounds: 0,
        asked: Default::default(),
        answers: answers.unwrap_or_default(),
        state,
        runner: String::new(),
        lease_until_ms: 0,
        answer_by_ms: 0,
        result: None,
        error: None,
    };
    record.hold(&runner, now, engine.inner.lease);
    let bytes = record.to_bytes();
    if let Err(error) = tasks.store.create(&id, &bytes, tasks.ttl).await {
        return Err(refuse(not_created(engine, bytes.len(), error)));
    }
    tracing::debug!(task = %id, tool = %Escaped(&record.call.name), "mrtr: a task started");
    let run = Run {
        runner: runner.clone(),
        abort,
        cancel,
    };
    tasks.running.add(&id, run);
    let _ = created.send(Some(Holding {
        id: id.clone(),
        runner,
    }));
    Ok(CallToolResponse::Task(CreateTaskResult::new(
        record.task(&id),
    )))
}

/// The call as the task keeps it: its name and arguments. Each round in the task adds its own
/// answers and state; the request's `_meta` (capabilities, progress token) was that request's.
fn strip_rounds(call: &mut CallToolRequestParams) {
    call.input_responses = None;
    call.request_state = None;
    call.meta = None;
}

/// Runs `work`. With a store other instances share, once the task exists it also renews
/// its run's lease on the task every poll interval, and stops `work` when the task was
/// cancelled elsewhere, ended, or was taken over by another instance.
async fn watched<T>(
    engine: &Engine,
    mut holding: watch::Receiver<Option<Holding>>,
    work: impl Future<Output = T>,
) -> Option<T> {
    let tasks = &engine.inner.tasks;
    if !tasks.store.is_shared() {
        return Some(work.await);
    }
    let watch = async {
        let Ok(Some(Holding { id, runner })) = holding
            .wait_for(Option::is_some)
            .await
            .map(|held| held.clone())
        else {
            return std::future::pending().await;
        };
        loop {
            tokio::time::sleep(tasks.poll_interval).await;
            let now = engine.now();
            let renewed = modify(engine, &id, |record| {
                let ours = record.status == TaskStatus::Working && record.runner == runner;
                if ours {
                    record.hold(&runner, now, engine.inner.lease);
                }
                ours
            })
            .await;
            match renewed {
                Ok(Some(Changed { applied: true, .. })) => {}
                // Cancelled, ended, taken over or expired.
                Ok(_) => return,
                // A store that is away leaves the work running.
                Err(_) => {}
            }
        }
    };
    match select(std::pin::pin!(work), std::pin::pin!(watch)).await {
        Either::Left((done, _)) => Some(done),
        Either::Right(((), _)) => {
            tracing::debug!("mrtr: a task cancelled, or taken over, elsewhere stopped here");
            None
        }
    }
}

/// Runs rounds of the task from `response` on, until one asks or the call ends, and writes
/// the outcome into the task's record.
async fn drive<S: ServerHandler>(
    server: &S,
    engine: &Engine,
    held: &Holding,
    call: CallToolRequestParams,
    context: RequestContext<RoleServer>,
    mut response: Result<CallToolResponse, ErrorData>,
) {
    let id = &held.id;
    let outcome = loop {
        match response {
            Ok(CallToolResponse::InputRequired(input)) => {
                let questions = input.input_requests.unwrap_or_default();
                if !questions.is_empty() {
                    break Outcome::Asked(questions, input.request_state);
                }
                // A checkpoint: nothing to ask, go straight on.
                let mut next = call.clone();
                next.input_responses = Some(InputResponses::new());
                next.request_state = input.request_state;
                response = round(server, next, context.clone()).await;
            }
            Ok(CallToolResponse::Complete(result)) => break Outcome::Completed(as_object(&result)),
            Ok(_) => {
                tracing::error!(task = %id, "mrtr: a round inside a task answered with a task");
                break Outcome::Failed(as_object(&ErrorData::internal_error(
                    "the tool answered with a task inside a task",
                    None,
                )));
            }
            Err(error) => break Outcome::Failed(as_object(&in_task(error))),
        }
    };
    settle(engine, held, outcome).await;
}

/// A round's error as the task's client should read it: it never saw a `requestState`, so a
/// state that no longer opens (it outlived its TTL while the task waited) is said plainly.
fn in_task(error: ErrorData) -> ErrorData {
    if error.code == ErrorCode::INVALID_PARAMS && error.message.starts_with("requestState") {
        return input_expired();
    }
    error
}

/// Why a task that waited for input past its state's TTL failed.
fn input_expired() -> ErrorData {
    ErrorData::invalid_params(
        "the task waited for input longer than its progress is kept (the engine's state TTL); \
         call the tool again",
        None,
    )
}

fn as_object(value: &impl serde::Serialize) -> JsonObject {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}

/// How a run of rounds ended.
enum Outcome {
    Asked(InputRequests, Option<String>),
    Completed(JsonObject),
    Failed(JsonObject),
}

/// Writes how the rounds ended into the task's record, unless the task was cancelled or
/// another instance took it over.
async fn settle(engine: &Engine, held: &Holding, outcome: Outcome) {
    let (id, now) = (&held.id, engine.now());
    let changed = modify(engine, id, |record| {
        if record.status != TaskStatus::Working || record.runner != held.runner {
            return false;
        }
        match &outcome {
            Outcome::Asked(questions, state) => {
                record.rounds += 1;
                record.asked = questions
                    .iter()
                    .map(|(key, request)| {
                        let asked = Asked {
                            key: key.clone(),
                            request: request.clone(),
                        };
                        (task_key(record.rounds, key), asked)
                    })
                    .collect();
                record.answers = InputResponses::new();
                record.state = state.clone();
                record.status = TaskStatus::InputRequired;
                record.answer_by_ms = unix_ms(now).saturating_add(millis(engine.inner.ttl));
            }
            Outcome::Completed(result) => {
                record.result = Some(result.clone());
                record.state = None;
                record.status = TaskStatus::Completed;
            }
            Outcome::Failed(error) => {
                record.error = Some(error.clone());
                record.state = None;
                record.status = TaskStatus::Failed;
            }
        }
        record.touch(now);
        true
    })
    .await;
    match changed {
        Ok(Some(Changed { record, .. })) => {
            tracing::debug!(task = %id, status = ?record.status, "mrtr: a task's rounds settled");
        }
        Ok(None) => tracing::info!(task = %id, "mrtr: a task expired while it ran"),
        Err(error) => {
            tracing::error!(task = %id, %error.message, "mrtr: a task's outcome was lost")
        }
    }
}

/// A record after a change, and whether the change applied.
struct Changed {
    record: TaskRecord,
    applied: bool,
}

/// Applies `change` to the record of `id` with a compare-and-set, retrying when another
/// instance changed it meanwhile. `None` if there is no such task.
async fn modify(
    engine: &Engine,
    id: &str,
    mut change: impl FnMut(&mut TaskRecord) -> bool,
) -> Result<Option<Changed>, ErrorData> {
    let store = &engine.inner.tasks.store;
    for _ in 0..64 {
        let Some((mut record, bytes)) = load(engine, id).await? else {
            return Ok(None);
        };
        if !change(&mut record) {
            return Ok(Some(Changed {
                record,
                applied: false,
            }));
        }
        match store.replace(id, &bytes, &record.to_bytes()).await {
            Ok(true) => {
                return Ok(Some(Changed {
                    record,
                    applied: true,
                }));
            }
            Ok(false) => continue,
            Err(error) => return Err(unavailable("change a task", error)),
        }
    }
    tracing::error!(task = %id, "mrtr: a task's record kept changing under an update");
    Err(ErrorData::internal_error(
        "the task is busy; try again",
        None,
    ))
}

/// The record of `id` and its bytes as stored.
async fn load(engine: &Engine, id: &str) -> Result<Option<(TaskRecord, Vec<u8>)>, ErrorData> {
    // A client's id that `random_id` cannot have made never reaches the store.
    if !plausible_id(id) {
        return Ok(None);
    }
    let bytes = match engine.inner.tasks.store.get(id).await {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(error) => return Err(unavailable("read a task", error)),
    };
    match TaskRecord::from_bytes(&bytes) {
        Ok(record) => Ok(Some((record, bytes))),
        Err(error) => {
            tracing::error!(task = %Escaped(id), %error, "mrtr: a task record does not read back");
            Ok(None)
        }
    }
}

/// The record of `id`, if it exists and the caller may see it.
async fn owned(
    engine: &Engine,
    id: &str,
    context: &RequestContext<RoleServer>,
) -> Result<TaskRecord, ErrorData> {
    let Some((record, _)) = load(engine, id).await? else {
        return Err(not_found());
    };
    match record.is_for(&engine.principal(context)) {
        true => Ok(record),
        false => Err(refused(id)),
    }
}

/// `-32602` for another principal's task, as for one that does not exist.
fn refused(id: &str) -> ErrorData {
    tracing::info!(task = %Escaped(id), "mrtr: refused another principal's task");
    not_found()
}

/// `tasks/get`. With a shared store, a `working` task whose runner let its lease lapse (its
/// instance died) is taken over: its round runs again here, from the answers and state it
/// started with, under the replay guard like any retry.
pub(crate) async fn get<S>(
    server: &Arc<S>,
    request: GetTaskParams,
    context: RequestContext<RoleServer>,
) -> Result<GetTaskResult, ErrorData>
where
    S: ServerHandler + MrtrServer,
{
    let engine = server.mrtr_engine();
    let id = request.task_id;
    let mut record = owned(engine, &id, &context).await?;
    let now = engine.now();
    if record.waits_too_long(now) {
        let expired = as_object(&input_expired());
        if let Some(Changed { record: failed, .. }) = modify(engine, &id, |record| {
            record.expire_input(now, expired.clone())
        })
        .await?
        {
            tracing::info!(task = %id, "mrtr: a task waited for input past its state's TTL");
            record = failed;
        }
    }
    let lease = engine.inner.lease;
    if engine.inner.tasks.store.is_shared() && record.abandoned(now, lease) {
        let runner = random_id()?;
        let taken = modify(engine, &id, |record| {
            let abandoned = record.abandoned(now, lease);
            if abandoned {
                record.hold(&runner, now, lease);
            }
            abandoned
        })
        .await?;
        if let Some(Changed {
            record: taken,
            applied: true,
        }) = taken
        {
            tracing::warn!(task = %id, "mrtr: took over a task whose instance stopped renewing it");
            record = taken.clone();
            resume(server, &id, taken, context, runner);
        }
    }
    Ok(GetTaskResult::new(record.detailed(&id)))
}

/// `tasks/update`: keeps the answers to outstanding questions (others are ignored), and once
/// none is left, resumes the task with them in the background.
pub(crate) async fn update<S>(
    server: &Arc<S>,
    request: UpdateTaskParams,
    context: RequestContext<RoleServer>,
) -> Result<(), ErrorData>
where
    S: ServerHandler + MrtrServer,
{
    let engine = server.mrtr_engine().clone();
    let id = request.task_id;
    let (caller, mut foreign) = (engine.principal(&context), false);
    let now = engine.now();
    let runner = random_id()?;
    // Answers wait in the task's record until the last one comes: a store past its bytes
    // takes no more of them.
    let answers = serde_json::to_vec(&request.input_responses).map_or(0, |json| json.len());
    if !engine.inner.tasks.store.has_room(answers) {
        return Err(too_many_tasks(
            &engine,
            answers,
            &"no room for a task's answers",
        ));
    }
    let expired = as_object(&input_expired());
    let changed = modify(&engine, &id, |record| {
        foreign = !record.is_for(&caller);
        if foreign {
            return false;
        }
        if record.expire_input(now, expired.clone()) {
            return true;
        }
        if record.status != TaskStatus::InputRequired {
            return false;
        }
        let mut answered = false;
        for (key, answer) in &request.input_responses {
            if let Some(asked) = record.asked.remove(key) {
                record.answers.insert(asked.key, answer.clone());
                answered = true;
            }
        }
        if record.asked.is_empty() {
            record.status = TaskStatus::Working;
            record.hold(&runner, now, engine.inner.lease);
        }
        if answered {
            record.touch(now);
        }
        answered
    })
    .await?;
    let Some(Changed { record, applied }) = changed else {
        return Err(not_found());
    };
    if foreign {
        return Err(refused(&id));
    }
    if !applied || record.status != TaskStatus::Working {
        return Ok(());
    }
    // This update answered the last question: the next round runs here.
    resume(server, &id, record, context, runner);
    Ok(())
}

/// Runs the task's next round in the background on this instance, as `runner`: the stored call
/// with the answers and state in the record, then on until a round asks or the call ends.
fn resume<S>(
    server: &Arc<S>,
    id: &str,
    record: TaskRecord,
    mut context: RequestContext<RoleServer>,
    runner: String,
) where
    S: ServerHandler + MrtrServer,
{
    let engine = server.mrtr_engine().clone();
    let mut next = record.call.clone();
    // A task's first round, run again, is a first call; any other is a retry.
    if record.state.is_some() || !record.answers.is_empty() {
        next.input_responses = Some(record.answers);
        next.request_state = record.state;
    }
    context
        .extensions
        .insert(TaskLink::in_task(id, record.capabilities));
    context.ct = Default::default();
    let cancel = context.ct.clone();
    let call = record.call;
    let (registered, is_registered) = oneshot::channel::<()>();
    let held = Holding {
        id: id.to_owned(),
        runner: runner.clone(),
    };
    let run = {
        let (server, engine) = (server.clone(), engine.clone());
        async move {
            // Listed as running before it can finish, so that finishing unlists it.
            let _ = is_registered.await;
            let (_, holding) = watch::channel(Some(held.clone()));
            let work = async {
                let response = round(&*server, next, context.clone()).await;
                drive(&*server, &engine, &held, call, context, response).await;
            };
            watched(&engine, holding, work).await;
            engine.inner.tasks.running.done(&held.id, &held.runner);
        }
    };
    let handle = tokio::spawn(run);
    let run = Run {
        runner,
        abort: handle.abort_handle(),
        cancel: Box::new(move || cancel.cancel()),
    };
    engine.inner.tasks.running.add(id, run);
    let _ = registered.send(());
}

/// `tasks/cancel`: a task not yet ended ends `cancelled`, and stops if it runs here. An
/// ended task stays as it is.
pub(crate) async fn cancel(
    engine: &Engine,
    request: CancelTaskParams,
    context: &RequestContext<RoleServer>,
) -> Result<(), ErrorData> {
    let id = request.task_id;
    let (caller, mut foreign) = (engine.principal(context), false);
    let now = engine.now();
    let changed = modify(engine, &id, |record| {
        foreign = !record.is_for(&caller);
        if foreign || record.status.is_terminal() {
            return false;
        }
        record.status = TaskStatus::Cancelled;
        record.asked.clear();
        record.answers.clear();
        record.state = None;
        record.touch(now);
        true
    })
    .await?;
    let Some(changed) = changed else {
        return Err(not_found());
    };
    if foreign {
        return Err(refused(&id));
    }
    if changed.applied {
        tracing::debug!(task = %id, "mrtr: a task was cancelled");
        engine.inner.tasks.running.stop(&id);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ids_of_the_shape_it_makes_are_looked_up() {
        for _ in 0..100 {
            assert!(plausible_id(&random_id().unwrap()));
        }
        for id in [
            "",
            "gate-test",
            "tasks-conformance-nonexistent-12345",
            "mrtr:task:*",
        ] {
            assert!(!plausible_id(id), "{id}");
        }
        assert!(!plausible_id(&"A".repeat(23)));
        assert!(!plausible_id("AAAAAAAAAAAAAAAAAAAA/+"));
    }

    /// Clients fill a bounded task store: past it, a new task is refused as busy (`-32603`,
    /// "try again later"), logged once per interval with a count, not as an unavailable store
    /// with an error line per call.
    #[test]
    fn a_full_task_store_refuses_new_tasks_as_busy_and_logs_them_once_per_interval() {
        let engine = Engine::builder()
            .keys_from_str("1:X2XQbUjbJfvYQXgBhUoZdeUD6eHcAwRctSvzddqmzfo=")
            .unwrap()
            .without_principal()
            .task_store(crate::task::MemoryTaskStore::with_capacity(1))
            .build()
            .unwrap();
        let start = || {
            let engine = engine.clone();
            async move {
                let abort = tokio::spawn(std::future::pending::<()>()).abort_handle();
                let (created, _) = watch::channel(None);
                create(
                    &engine,
                    CallToolRequestParams::new("steps"),
                    ClientCapabilities::default(),
                    None,
                    created,
                    (abort, Box::new(|| {})),
                )
                .await
            }
        };
        let logs = crate::log::captured(|| {
            crate::replay::block_on(async {
                assert!(start().await.is_ok(), "the first task has room");
                for _ in 0..100 {
                    let refused = start().await.unwrap_err();
                    assert_eq!(refused.code, ErrorCode::INTERNAL_ERROR);
                    assert!(refused.message.contains("try again later"), "{refused:?}");
                }
            })
        });
        let lines: Vec<&str> = logs
            .lines()
            .filter(|line| !line.contains("DEBUG"))
            .collect();
        assert_eq!(lines.len(), 1, "{logs}");
        assert!(
            lines[0].contains("WARN") && lines[0].contains("no room"),
            "{logs}"
        );
    }
}
