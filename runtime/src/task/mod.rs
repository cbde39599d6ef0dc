//! Tools that run as tasks (`io.modelcontextprotocol/tasks`, SEP-2663).
//!
//! `#[mrtr_tool(task = "optional")]` or `#[mrtr_tool(task = "required")]` lets a tool run as a
//! task for a client that declares the extension on its `tools/call`: the client gets a
//! `CreateTaskResult` at once and polls `tasks/get`. The tool's `ask!` points work unchanged:
//! a round that asks puts the task in `input_required`, with its questions in `tasks/get` under
//! keys unique over the task's life (`<round>.<key>`), and `tasks/update` answers them. When the
//! last is answered, the next round runs as a native retry would, through the same machine,
//! envelope, key ring and replay store; the sealed `requestState` stays in the task's record
//! and never reaches the client.
//!
//! - A client without the extension gets a plain multi round-trip call (`"optional"`), or
//!   `-32021` naming the extension (`"required"`).
//! - The task starts at the tool's first line, or, if the tool has one,
//!   at `ask!(start_task())`: the asks before it are ordinary rounds of `tools/call`, answered
//!   before the task exists.
//! - Records live in a [`TaskStore`]: [`MemoryTaskStore`] by default, [`RedisTaskStore`]
//!   (feature `redis`) for a fleet (`MRTR_REDIS_URL`), where a task started on one instance is
//!   polled, answered and cancelled on any other, and a task whose instance died mid-round is
//!   taken over by the next `tasks/get` on another once its lease lapsed.
//! - Serve the server through [`Bridged`](crate::Bridged): it creates tasks, answers
//!   `tasks/get`, `tasks/update` and `tasks/cancel`, and advertises the extension.
//!
#![doc = redis_task_store_link!()]

use std::{sync::Arc, time::Duration};

use crate::channel::task::Running;

pub(crate) mod record;
#[cfg(feature = "redis")]
mod redis;
mod store;

#[cfg(feature = "redis")]
pub use redis::RedisTaskStore;
pub use store::{MemoryTaskStore, TaskStore};

/// Whether a tool runs as a task: `#[mrtr_tool(task = "..")]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskSupport {
    /// Never: the default.
    Never,
    /// For a client that declares the extension; others get a plain call.
    Optional,
    /// Only as a task; a client without the extension gets `-32021`.
    Required,
}

/// `ask!(start_task())` marks where a task tool's task begins: the asks before it are rounds of
/// `tools/call` itself, and the client gets `CreateTaskResult` when the tool reaches it. It
/// asks nothing, and where no task starts (a client without the extension, or inside a task
/// already) it simply goes on. Only in a tool with `#[mrtr_tool(task = "..")]`.
pub fn start_task() -> StartTask {
    StartTask(())
}

/// Where a task begins; see [`start_task`].
#[must_use = "a question does nothing until it is asked: `ask!(key = ..)`"]
#[derive(Debug, Clone, Copy)]
pub struct StartTask(());

crate::checkpoint::asks_nothing!(StartTask);

/// The engine's task settings and the tasks running on this instance.
pub(crate) struct Tasks {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(crate) ttl: Duration,
    pub(crate) poll_interval: Duration,
    pub(crate) running: Running,
}
