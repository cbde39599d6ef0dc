//! Single use: every `requestState` runs its round once.
//!
//! Sealing binds a state to its call, but a copy of it opens until it expires. So, like an
//! idempotency key, every flow draws a random id at its first round, and opening a state claims
//! `(flow id, round)` in a [`ReplayStore`] before any of the tool's code runs for that round:
//!
//! - the first request carrying a state runs the round, and its response is stored: sealed
//!   with the engine's keys for a store outside the process, as it is in the memory store;
//! - any duplicate of that request, concurrent or later, gets the first response again and never
//!   runs the tool's code, even when it carries other answers: answers cannot fork a flow;
//! - a concurrent duplicate waits, up to [`EngineBuilder::duplicate_wait`], for the first to
//!   finish;
//! - a claim holds a lease that its request renews while the round runs. If the instance dies
//!   after claiming and before answering, a retry of the same state runs the round again once
//!   the lease lapses ([`EngineBuilder::lease`], 10 s by default). That is the one at-least-once
//!   window;
//! - a record lives until the state it guards expires (plus the clock skew allowance), so a
//!   state that still opens always finds its record;
//! - a store that cannot be reached fails the round closed, with `-32603`.
//!
//! [`MemoryStore`] is the default, for one instance. [`RedisStore`] (feature `redis`) is for a
//! fleet. Implement [`ReplayStore`] for anything else.
//!
//! [`EngineBuilder::duplicate_wait`]: crate::EngineBuilder::duplicate_wait
#![doc = redis_store_link!()]
//! [`EngineBuilder::lease`]: crate::EngineBuilder::lease

use std::{
    fmt,
    time::{Duration, SystemTime},
};

use rmcp::{
    ErrorData,
    model::{InputRequiredResult, MetaObject},
};

use crate::question::Rebuild;

pub(crate) mod guard;
mod memory;
#[cfg(feature = "redis")]
pub(crate) mod redis;
pub(crate) mod response;

/// The attribute an implementation of [`ReplayStore`] goes under, re-exported so that a store
/// needs no dependency of its own: `#[mrtr::replay::async_trait]`.
pub use async_trait::async_trait;
pub use memory::MemoryStore;
pub(crate) use memory::at_most_a_century;
#[cfg(feature = "redis")]
pub use redis::RedisStore;
pub use response::RecordedResponse;

/// The random 96-bit id a flow draws at its first round: the nonce of each of its states.
pub type FlowId = [u8; 12];

/// One round of one flow: what a [`ReplayStore`] keys its records by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoundKey {
    /// The flow's id.
    pub flow: FlowId,
    /// The round the state opens (1 for the state the first round handed out).
    pub round: u32,
}

impl fmt::Display for RoundKey {
    /// `flow-in-hex:round`, for store keys and logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for byte in self.flow {
            write!(f, "{byte:02x}")?;
        }
        write!(f, ":{}", self.round)
    }
}

/// Who holds a claim: a token unique to each request that claims a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Holder(pub [u8; 16]);

impl Holder {
    /// A token no other claim has: this process's random half and a counter.
    pub(crate) fn new() -> Result<Self, getrandom::Error> {
        static PROCESS: std::sync::OnceLock<[u8; 8]> = std::sync::OnceLock::new();
        static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let process = match PROCESS.get() {
            Some(process) => *process,
            None => {
                let mut random = [0u8; 8];
                getrandom::getrandom(&mut random)?;
                *PROCESS.get_or_init(|| random)
            }
        };
        let count = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut token = [0u8; 16];
        token[..8].copy_from_slice(&process);
        token[8..].copy_from_slice(&count.to_le_bytes());
        Ok(Self(token))
    }
}

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

/// A round's response as a store keeps it: sealed bytes, or, for a store in this process that
/// says so ([`ReplayStore::keeps_sealed_bytes`]), the response as JSON or its questions as what
/// builds them again.
#[derive(Debug, Clone)]
pub struct Recorded(RecordedForm);

#[derive(Clone)]
enum RecordedForm {
    Sealed(Vec<u8>),
    /// The response as JSON, neither sealed nor a copy of its parts: a copy would hold blocks of
    /// its own for as long as the record lives.
    Json(Vec<u8>),
    /// Questions, kept as what builds them again (see [`Question::keep`](crate::Question::keep)),
    /// and the rest of the response without them.
    Asked {
        rebuild: Rebuild,
        request_state: Option<String>,
        meta: Option<MetaObject>,
    },
}

impl fmt::Debug for RecordedForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sealed(bytes) => f.debug_tuple("Sealed").field(&bytes.len()).finish(),
            Self::Json(json) => f.debug_tuple("Json").field(&json.len()).finish(),
            Self::Asked { request_state, .. } => f
                .debug_struct("Asked")
                .field("request_state", request_state)
                .finish_non_exhaustive(),
        }
    }
}

impl Recorded {
    /// Sealed bytes, as a store read them back.
    pub fn sealed(bytes: Vec<u8>) -> Self {
        Self(RecordedForm::Sealed(bytes))
    }

    /// The sealed bytes to write. `None` for a response handed over as it is, which the engine
    /// does only to a store whose [`ReplayStore::keeps_sealed_bytes`] is `false`.
    pub fn as_sealed(&self) -> Option<&[u8]> {
        match &self.0 {
            RecordedForm::Sealed(bytes) => Some(bytes),
            RecordedForm::Json(_) | RecordedForm::Asked { .. } => None,
        }
    }

    /// `response` for a store in this process: as JSON, or, when its round's questions are
    /// built again by `rebuild`, as `rebuild` and the state. A response that does not serialize
    /// never reached its client either (rmcp sends JSON), so a duplicate gets an error.
    pub(crate) fn in_process(response: &RecordedResponse, rebuild: Option<Rebuild>) -> Self {
        match (response, rebuild) {
            (RecordedResponse::InputRequired(input), Some(rebuild)) => Self(RecordedForm::Asked {
                rebuild,
                request_state: input.request_state.clone(),
                meta: input.meta.clone(),
            }),
            _ => Self(RecordedForm::Json(
                serde_json::to_vec(response).unwrap_or_default(),
            )),
        }
    }

    /// The response, for a store in this process; `None` for sealed bytes.
    pub(crate) fn response(&self) -> Option<Result<RecordedResponse, ErrorData>> {
        match &self.0 {
            RecordedForm::Json(json) => Some(serde_json::from_slice(json).map_err(|error| {
                ErrorData::internal_error(
                    format!("a recorded response does not read: {error}"),
                    None,
                )
            })),
            RecordedForm::Asked {
                rebuild,
                request_state,
                meta,
            } => Some(rebuild.requests().map(|requests| {
                let mut input = InputRequiredResult::new(requests, request_state.clone());
                input.meta = meta.clone();
                RecordedResponse::InputRequired(input)
            })),
            RecordedForm::Sealed(_) => None,
        }
    }
}

impl PartialEq for Recorded {
    /// The same bytes, or questions kept for the same next state.
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (RecordedForm::Sealed(a), RecordedForm::Sealed(b)) => a == b,
            (RecordedForm::Json(a), RecordedForm::Json(b)) => a == b,
            (
                RecordedForm::Asked {
                    request_state: a, ..
                },
                RecordedForm::Asked {
                    request_state: b, ..
                },
            ) => a == b,
            _ => false,
        }
    }
}

impl Eq for Recorded {}

/// What [`ReplayStore::claim`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The round was free, or its holder's lease had lapsed: the caller now holds it.
    Won,
    /// The round already ran: the response it gave, to send again.
    Done(Recorded),
    /// Another request holds the round and its lease has not lapsed.
    Running,
}

/// Why a store could not answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    kind: StoreErrorKind,
    message: String,
}

/// The kinds of [`StoreError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreErrorKind {
    /// The store could not be reached or failed. The round fails closed.
    Unavailable,
    /// A bounded store has no room for another record.
    Full,
    /// By the store's own clock, the record's `expires_at` has passed before it was made: the
    /// state it would guard has expired there, though not by the instance's clock, which runs
    /// behind by more than the clock skew allowance. The client gets `-32602`, as for any
    /// expired state.
    Expired,
}

impl StoreError {
    /// The store could not be reached or failed; `message` goes to the server log.
    pub fn unavailable(message: impl fmt::Display) -> Self {
        Self {
            kind: StoreErrorKind::Unavailable,
            message: message.to_string(),
        }
    }

    /// The store is full; `message` goes to the server log.
    pub fn full(message: impl fmt::Display) -> Self {
        Self {
            kind: StoreErrorKind::Full,
            message: message.to_string(),
        }
    }

    /// By the store's clock, the record would expire before it was made; `message` goes to the
    /// server log. See [`StoreErrorKind::Expired`].
    pub fn expired(message: impl fmt::Display) -> Self {
        Self {
            kind: StoreErrorKind::Expired,
            message: message.to_string(),
        }
    }

    /// Which kind of failure this is.
    pub fn kind(&self) -> StoreErrorKind {
        self.kind
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

/// Where the records of single use live. Every operation on one key must be atomic with respect
/// to the others on that key, across every instance that shares the store.
///
/// A record is `running` (held by a [`Holder`] until its lease lapses) or `done` (with the
/// response of the round). The engine hands the store opaque, already sealed bytes, unless the
/// store keeps responses in this process ([`ReplayStore::keeps_sealed_bytes`]).
///
/// Lease times are measured on the store's own clock, so that instances whose clocks differ
/// agree on when a lease lapses. Record expiry is the absolute time the guarded state expires.
#[async_trait::async_trait]
pub trait ReplayStore: Send + Sync + 'static {
    /// In one atomic step: if `key` has no record, or a `running` record whose lease has
    /// lapsed, make it `running`, held by `holder` for `lease`, kept until `expires_at`, and
    /// answer [`Claim::Won`]. A `done` record answers [`Claim::Done`] with its response; a
    /// `running` record whose lease holds answers [`Claim::Running`].
    ///
    /// A store that instances share and that keeps time by a clock of its own should refuse to
    /// make a record whose `expires_at` that clock has passed, with [`StoreError::expired`],
    /// as [`RedisStore`] does: then no instance whose clock runs behind it can open a state
    /// whose record is already gone, and single use does not depend on the instances' clocks.
    ///
    #[doc = redis_store_link!()]
    async fn claim(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
        expires_at: SystemTime,
    ) -> Result<Claim, StoreError>;

    /// Extends the lease of a round `holder` still holds. `Ok(false)` if it holds it no more.
    async fn renew(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
    ) -> Result<bool, StoreError>;

    /// Turns the round `holder` holds into `done` with `response`, kept until `expires_at`.
    /// `Ok(false)` if `holder` lost the round (its lease lapsed and another request took it);
    /// the record is then left as it is.
    async fn complete(
        &self,
        key: RoundKey,
        holder: Holder,
        response: Recorded,
        expires_at: SystemTime,
    ) -> Result<bool, StoreError>;

    /// Drops the claim `holder` made on a round it never ran, if it still holds it: called after
    /// a claim whose answer was lost (a timeout), so that a claim the store applied anyway does
    /// not block retries for a whole lease. `Ok(false)` if `holder` does not hold the round.
    /// The default does nothing, which only costs those retries the wait.
    async fn release(&self, key: RoundKey, holder: Holder) -> Result<bool, StoreError> {
        let _ = (key, holder);
        Ok(false)
    }

    /// The longest the store keeps a record whatever `expires_at` says, if it has such a limit.
    /// Building an engine whose states outlive it fails.
    fn retention(&self) -> Option<Duration> {
        None
    }

    /// Whether the store wants each response sealed into bytes: the default, and a must for
    /// anything outside this process. A store in this process's memory, which no other caller
    /// reaches, answers `false` and keeps responses as they are, which saves serializing and
    /// sealing every response.
    fn keeps_sealed_bytes(&self) -> bool {
        true
    }

    /// Whether instances share this store. An engine on a store that is not shared warns at
    /// startup that a fleet needs one that is.
    fn is_shared(&self) -> bool;

    /// Whether a new flow may start. A bounded store refuses while it is nearly full, so that
    /// flows in progress keep room to finish.
    fn admit_flow(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// A store shared by several engines in one process, as a fleet's instances share Redis.
#[async_trait::async_trait]
impl<S: ReplayStore + ?Sized> ReplayStore for std::sync::Arc<S> {
    async fn claim(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
        expires_at: SystemTime,
    ) -> Result<Claim, StoreError> {
        (**self).claim(key, holder, lease, expires_at).await
    }

    async fn renew(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        (**self).renew(key, holder, lease).await
    }

    async fn complete(
        &self,
        key: RoundKey,
        holder: Holder,
        response: Recorded,
        expires_at: SystemTime,
    ) -> Result<bool, StoreError> {
        (**self).complete(key, holder, response, expires_at).await
    }

    fn keeps_sealed_bytes(&self) -> bool {
        (**self).keeps_sealed_bytes()
    }

    async fn release(&self, key: RoundKey, holder: Holder) -> Result<bool, StoreError> {
        (**self).release(key, holder).await
    }

    fn retention(&self) -> Option<Duration> {
        (**self).retention()
    }

    fn is_shared(&self) -> bool {
        (**self).is_shared()
    }

    fn admit_flow(&self) -> Result<(), StoreError> {
        (**self).admit_flow()
    }
}

/// `len` bytes (at least a `usize`'s) that no other `serial` of a run repeats: the records and
/// responses of the stores' model tests.
#[cfg(test)]
pub(crate) fn unique_bytes(len: usize, serial: usize) -> Vec<u8> {
    let mut bytes = serial.to_le_bytes().to_vec();
    bytes.resize(len.max(bytes.len()), serial as u8);
    bytes
}

/// Runs `future` to its end on a runtime of its own, for the stores' unit tests.
#[cfg(test)]
pub(crate) fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
        .block_on(future)
}
