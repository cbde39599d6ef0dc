//! The engine: the key ring, the state lifetime, the replay store, the clock and the principal
//! hook that every `#[mrtr_tool]` of a server shares.

use std::{
    fmt,
    sync::{Arc, OnceLock},
    time::{Duration, SystemTime},
};

use base64::Engine as _;
use rmcp::{RoleServer, service::RequestContext};
use zeroize::Zeroizing;

use crate::{
    envelope::KeyRing,
    key_check,
    log::RefusalLog,
    replay::{MemoryStore, ReplayStore},
    task::{MemoryTaskStore, TaskStore, Tasks},
};

/// The environment variable [`Engine::from_env`] reads the sealing keys from.
///
/// Format: a comma-separated list of `ID:KEY`, newest first. `ID` is a number from 0 to 255
/// that names the key inside every state it seals; `KEY` is 32 random bytes in base64
/// (standard or URL-safe, padding optional). New states are sealed with the first key and
/// states sealed with any listed key still open, which is how keys rotate:
///
/// ```text
/// MRTR_KEYS="2:<new key: 32 random bytes in base64>,1:<the key it replaces>"
/// ```
///
/// Make a key with `head -c 32 /dev/urandom | base64`. The engine refuses, at startup, a key
/// that is not random enough to be one (a repeated byte, a counting sequence, printable text)
/// and keys published in mrtr's own documentation. Set but empty is an error too.
pub const KEYS_ENV: &str = "MRTR_KEYS";

/// The environment variable [`Engine::from_env`] reads the audience from: the name of the
/// deployment (`production`, `staging-eu`) bound into every state, so that deployments that
/// share keys still cannot open each other's states. See [`EngineBuilder::audience`].
pub const AUDIENCE_ENV: &str = "MRTR_AUDIENCE";

/// The environment variable [`Engine::from_env`] reads a Redis URL from, for the replay store
/// and the task store that several instances share: `redis://127.0.0.1:6379/0`, or `rediss://`
/// for TLS. Needs the crate's `redis` feature, and `redis-tls` for `rediss://`.
pub const REDIS_URL_ENV: &str = "MRTR_REDIS_URL";

/// The environment variable [`Engine::from_env`] reads the in-memory replay store's capacity
/// from, in records (default [`MemoryStore::DEFAULT_CAPACITY`](crate::replay::MemoryStore)).
/// A record lives as long as the state it guards, plus the clock skew allowance, so an instance
/// holds about its guarded rounds per second times the TTL and that allowance: 100,000 records
/// last a 10-minute TTL (and a minute's allowance) at about 150 rounds/s.
/// Not with [`REDIS_URL_ENV`], whose store has no such bound.
pub const REPLAY_CAPACITY_ENV: &str = "MRTR_REPLAY_CAPACITY";

/// A source of the current time, so tests can move the clock.
pub type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

type PrincipalFn = Arc<dyn Fn(&RequestContext<RoleServer>) -> Option<String> + Send + Sync>;

/// What every round of every `#[mrtr_tool]` on a server needs: keys, TTL, clock, principal.
///
/// Cheap to clone. Build one with [`Engine::builder`] or [`Engine::from_env`], or let
/// [`MrtrServer`](crate::MrtrServer) fall back to [`Engine::global`].
#[derive(Clone)]
pub struct Engine {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) keys: KeyRing,
    pub(crate) ttl: Duration,
    pub(crate) clock: Clock,
    /// Whether `clock` is the system clock, which the replay stores keep time by too.
    pub(crate) system_clock: bool,
    pub(crate) principal: Option<PrincipalFn>,
    pub(crate) require_principal: bool,
    pub(crate) audience: String,
    pub(crate) refusals: RefusalLog,
    /// Calls refused while the replay store is full.
    pub(crate) full_refusals: RefusalLog,
    /// Rounds whose next state would pass `max_state_bytes`: answers a client chose can do it.
    pub(crate) oversized_states: RefusalLog,
    pub(crate) max_state_bytes: usize,
    pub(crate) store: Arc<dyn ReplayStore>,
    /// `store` itself when it is a [`MemoryStore`], which the guard calls without a future.
    pub(crate) memory: Option<Arc<MemoryStore>>,
    pub(crate) lease: Duration,
    pub(crate) duplicate_wait: Duration,
    pub(crate) clock_skew: Duration,
    pub(crate) flow_lifetime: Duration,
    pub(crate) max_rounds: u32,
    pub(crate) tasks: Tasks,
    /// Why this engine runs nothing: [`Engine::global`]'s stand-in for a configuration that
    /// does not build. Every call is refused with `-32603`, and the reason logged.
    pub(crate) unusable: Option<ConfigError>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("key_ids", &self.inner.keys.ids())
            .field("sign_only", &self.inner.keys.is_sign_only())
            .field("audience", &self.inner.audience)
            .field("principal_hook", &self.inner.principal.is_some())
            .field("require_principal", &self.inner.require_principal)
            .field("ttl", &self.inner.ttl)
            .field("max_state_bytes", &self.inner.max_state_bytes)
            .field("flow_lifetime", &self.inner.flow_lifetime)
            .field("max_rounds", &self.inner.max_rounds)
            .field("lease", &self.inner.lease)
            .field("duplicate_wait", &self.inner.duplicate_wait)
            .field("clock_skew", &self.inner.clock_skew)
            .field("shared_store", &self.inner.store.is_shared())
            .finish_non_exhaustive()
    }
}

/// Settings only: never a key's bytes.
impl fmt::Debug for EngineBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key_ids: Vec<u8> = self.keys.iter().map(|(id, _)| *id).collect();
        f.debug_struct("EngineBuilder")
            .field("key_ids", &key_ids)
            .field("audience", &self.audience)
            .field("principal_hook", &self.principal.is_some())
            .field("principal_choice", &self.principal_choice)
            .field("ttl", &self.ttl)
            .field("flow_lifetime", &self.flow_lifetime)
            .field("max_rounds", &self.max_rounds)
            .field("max_state_bytes", &self.max_state_bytes)
            .field("sign_only", &self.sign_only)
            .field("lease", &self.lease)
            .field("duplicate_wait", &self.duplicate_wait)
            .field("clock_skew", &self.clock_skew)
            .field("own_clock", &self.clock.is_some())
            .field(
                "shared_store",
                &self.store.as_ref().map(|store| store.is_shared()),
            )
            .field("task_ttl", &self.task_ttl)
            .field("task_poll_interval", &self.task_poll_interval)
            .finish_non_exhaustive()
    }
}

/// A problem with the engine's configuration: keys, store or lifetimes. Raised at startup,
/// never per request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(String);

/// The former name of [`ConfigError`].
#[deprecated(note = "renamed to `ConfigError`")]
pub type KeyError = ConfigError;

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Engine {
    /// How long a state stays valid unless the builder says otherwise: 10 minutes.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(600);
    /// The largest `requestState` a round may produce unless the builder says otherwise.
    pub const DEFAULT_MAX_STATE_BYTES: usize = 16 * 1024;
    /// How long a whole flow may last, from its first round, unless the builder says otherwise:
    /// 1 hour. No state of the flow expires after it.
    pub const DEFAULT_FLOW_LIFETIME: Duration = Duration::from_secs(3600);
    /// The most rounds one call may take unless the builder says otherwise.
    pub const DEFAULT_MAX_ROUNDS: u32 = 100;
    /// How long a claimed round blocks its retries if the instance running it dies: 10 s.
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(10);
    /// How long a duplicate request waits for the first to finish: 30 s.
    pub const DEFAULT_DUPLICATE_WAIT: Duration = Duration::from_secs(30);
    /// How far apart the clocks of instances may be: records outlive their states by this much.
    pub const DEFAULT_CLOCK_SKEW: Duration = Duration::from_secs(60);
    /// How often at most a refused `requestState` is logged: 10 s. Each line counts those
    /// refused since the last.
    pub const DEFAULT_REFUSAL_LOG_INTERVAL: Duration = Duration::from_secs(10);
    /// How long a task's record lives from its creation, its `ttlMs`: 1 hour.
    pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(3600);
    /// How often a client should poll `tasks/get`, its `pollIntervalMs`: 1 s.
    pub const DEFAULT_TASK_POLL_INTERVAL: Duration = Duration::from_secs(1);
    /// The shortest lease `build` accepts: 100 ms. A round renews its lease every third of it,
    /// and a shorter one would lapse between renewals while the round still runs.
    pub const MIN_LEASE: Duration = Duration::from_millis(100);
    /// The longest time setting `build` accepts: 100 years. Times are added to clocks and sent
    /// to stores, which cannot hold much more.
    pub const MAX_TIME: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
    /// The shortest `task_poll_interval` `build` accepts: 10 ms. A task on a shared store reads
    /// its record once per interval while it runs.
    pub const MIN_TASK_POLL_INTERVAL: Duration = Duration::from_millis(10);
    /// The smallest `max_state_bytes` `build` accepts: 128. A state that saves nothing takes
    /// 52 to about 100 bytes.
    pub const MIN_STATE_BYTES: usize = 128;

    /// Starts an engine configuration.
    pub fn builder() -> EngineBuilder {
        EngineBuilder::default()
    }

    /// An engine with keys from [`KEYS_ENV`], or a random per-process key if it is unset, the
    /// audience from [`AUDIENCE_ENV`], if set, and the replay and task stores on Redis at
    /// [`REDIS_URL_ENV`], or in memory if it is unset (the replay store of
    /// [`REPLAY_CAPACITY_ENV`] records, if that is set).
    ///
    /// The random key and the memory store work for a single instance only: a retry that
    /// reaches another instance, or the same one after a restart, is rejected, and duplicates
    /// are caught only on the instance that ran the round. A warning says so in the log.
    pub fn from_env() -> Result<Engine, ConfigError> {
        EngineBuilder::from_env()?.build()
    }

    /// The replay store that makes each state single-use.
    pub fn replay_store(&self) -> &Arc<dyn ReplayStore> {
        &self.inner.store
    }

    /// The store that keeps the records of tasks.
    pub fn task_store(&self) -> &Arc<dyn TaskStore> {
        &self.inner.tasks.store
    }

    /// How long an HTTP session of a pre-2026 client must be kept while the client sends
    /// nothing: a question on a session waits up to the state TTL for its answer, and rmcp's
    /// `LocalSessionManager` closes a session after 5 idle minutes by default, which would end
    /// the call with no response. This is the TTL and a minute more, so that the client hears
    /// "the client did not answer within .." first:
    /// `sessions.session_config.keep_alive = Some(engine.session_keep_alive());`
    pub fn session_keep_alive(&self) -> Duration {
        self.inner.ttl.saturating_add(Duration::from_secs(60))
    }

    /// How many tasks run on this instance now (between asks, a task runs nowhere).
    pub fn running_tasks(&self) -> usize {
        self.inner.tasks.running.len()
    }

    /// The process-wide engine built by [`Engine::from_env`] on first use: what
    /// [`MrtrServer`](crate::MrtrServer) uses unless a server returns its own.
    ///
    /// If the environment is malformed ([`KEYS_ENV`], [`AUDIENCE_ENV`], [`REDIS_URL_ENV`] or
    /// [`REPLAY_CAPACITY_ENV`]),
    /// it is an engine that refuses every call with `-32603` and logs why. Call
    /// [`Engine::try_global`] at startup so that the server does not start at all.
    pub fn global() -> &'static Engine {
        match Self::global_built() {
            Ok(engine) | Err((_, engine)) => engine,
        }
    }

    /// [`Engine::global`], or why the environment does not configure one: call it first
    /// thing in `main`, `mrtr::Engine::try_global()?;`, so that a malformed [`KEYS_ENV`] stops
    /// the server at startup rather than failing its calls.
    pub fn try_global() -> Result<&'static Engine, ConfigError> {
        Self::global_built().map_err(|(error, _)| error.clone())
    }

    fn global_built() -> Result<&'static Engine, &'static (ConfigError, Engine)> {
        static GLOBAL: OnceLock<Result<Engine, (ConfigError, Engine)>> = OnceLock::new();
        GLOBAL
            .get_or_init(|| {
                Engine::from_env().map_err(|error| {
                    tracing::error!(
                        %error,
                        "mrtr: the engine's configuration is invalid; every call will fail \
                         until it is fixed"
                    );
                    (error.clone(), Engine::unusable(error))
                })
            })
            .as_ref()
    }

    /// An engine that refuses every call because of `error`.
    fn unusable(error: ConfigError) -> Engine {
        // It seals nothing, so a fixed key does; a fixed key also cannot fail the build.
        let key = std::array::from_fn(|index| {
            let index = index as u8;
            (index.wrapping_mul(index).wrapping_mul(151))
                .wrapping_add(index.wrapping_mul(7))
                .wrapping_add(13)
        });
        let mut engine = Engine::builder()
            .key(0, key)
            .without_principal()
            .build()
            .unwrap_or_else(|_| unreachable!("a fixed key and default settings build"));
        if let Some(inner) = Arc::get_mut(&mut engine.inner) {
            inner.unusable = Some(error);
        }
        engine
    }

    pub(crate) fn now(&self) -> SystemTime {
        (self.inner.clock)()
    }

    pub(crate) fn principal(&self, context: &RequestContext<RoleServer>) -> Option<String> {
        self.inner.principal.as_ref().and_then(|f| f(context))
    }
}

/// What the builder was told about callers, besides the hook itself.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum PrincipalChoice {
    /// Nothing: `build` warns when there is no hook.
    #[default]
    Unsaid,
    /// Calls whose principal is unknown are refused.
    Required,
    /// The server does not tell callers apart.
    Without,
}

/// Configures an [`Engine`].
///
/// ```
/// use std::time::Duration;
/// use mrtr::{Engine, replay::MemoryStore};
///
/// let engine = Engine::builder()
///     .keys_from_env()?                          // MRTR_KEYS, if set
///     .replay_store(MemoryStore::with_capacity(50_000))
///     .ttl(Duration::from_secs(300))             // each state expires 5 minutes after it is sealed
///     .flow_lifetime(Duration::from_secs(1800))  // and never after the flow's first round + 30 min
///     .max_rounds(20)
///     .lease(Duration::from_secs(5))             // a dead instance's claim blocks retries 5 s
///     .build()?;
/// # Ok::<(), mrtr::ConfigError>(())
/// ```
///
/// A clone keeps the settings and shares the stores set on it, so engines built from clones of
/// one builder guard their rounds in one replay store.
#[derive(Default, Clone)]
#[must_use = "an engine builder does nothing until `build()`"]
pub struct EngineBuilder {
    keys: Vec<(u8, Zeroizing<[u8; 32]>)>,
    ttl: Option<Duration>,
    clock: Option<Clock>,
    principal: Option<PrincipalFn>,
    principal_choice: PrincipalChoice,
    audience: String,
    refusal_log_interval: Option<Duration>,
    max_state_bytes: Option<usize>,
    sign_only: bool,
    store: Option<Arc<dyn ReplayStore>>,
    memory: Option<Arc<MemoryStore>>,
    lease: Option<Duration>,
    duplicate_wait: Option<Duration>,
    clock_skew: Option<Duration>,
    flow_lifetime: Option<Duration>,
    max_rounds: Option<u32>,
    task_store: Option<Arc<dyn TaskStore>>,
    task_ttl: Option<Duration>,
    task_poll_interval: Option<Duration>,
}

impl EngineBuilder {
    /// A builder with what [`Engine::from_env`] reads from the environment, to configure further:
    /// `EngineBuilder::from_env()?.principal(..).build()?`.
    pub fn from_env() -> Result<Self, ConfigError> {
        Engine::builder()
            .keys_from_env()?
            .audience_from_env()?
            .store_from_env()
    }

    /// Sign `requestState` with HMAC-SHA256 instead of encrypting it: the client can read the
    /// saved locals (postcard), but not change them. Only for tools that hold no secrets across
    /// an ask. States of one mode do not open in the other.
    pub fn sign_only(mut self) -> Self {
        self.sign_only = true;
        self
    }

    /// Adds a 32-byte key under `id`. The first key added seals; every key opens.
    pub fn key(mut self, id: u8, key: [u8; 32]) -> Self {
        self.keys.push((id, Zeroizing::new(key)));
        self
    }

    /// Adds the keys listed in [`KEYS_ENV`], if it is set. See there for the format.
    pub fn keys_from_env(self) -> Result<Self, ConfigError> {
        self.keys_from_setting(std::env::var(KEYS_ENV))
    }

    fn keys_from_setting(
        self,
        setting: Result<String, std::env::VarError>,
    ) -> Result<Self, ConfigError> {
        match setting {
            Ok(spec) if spec.trim().is_empty() => Err(ConfigError(format!(
                "{KEYS_ENV} is set but empty; list `ID:BASE64KEY` entries (make a key with \
                 `head -c 32 /dev/urandom | base64`), or unset it for a per-process key"
            ))),
            Ok(spec) => self.keys_from_str(&spec),
            Err(std::env::VarError::NotPresent) => Ok(self),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(ConfigError(format!("{KEYS_ENV} is not valid UTF-8")))
            }
        }
    }

    /// Adds keys written as in [`KEYS_ENV`]: `ID:BASE64,ID:BASE64`, newest first.
    pub fn keys_from_str(mut self, spec: &str) -> Result<Self, ConfigError> {
        if spec.split(',').all(|entry| entry.trim().is_empty()) {
            return Err(ConfigError(
                "the key list is empty; list `ID:BASE64KEY` entries, newest first".to_owned(),
            ));
        }
        for (index, entry) in spec.split(',').map(str::trim).enumerate() {
            if entry.is_empty() {
                continue;
            }
            let (id, key) = entry.split_once(':').ok_or_else(|| {
                ConfigError(format!(
                    "entry {} is not `ID:BASE64KEY` (e.g. `1:{}`)",
                    index + 1,
                    "A".repeat(43)
                ))
            })?;
            // The id is not quoted: an entry written `KEY:ID` would put the key in the log.
            let id: u8 = id.trim().parse().map_err(|_| {
                ConfigError(format!(
                    "entry {}: the key id before `:` is not a number from 0 to 255 (entries \
                     are `ID:BASE64KEY`, id first)",
                    index + 1
                ))
            })?;
            let bytes = decode_key(key.trim()).ok_or_else(|| {
                ConfigError(format!(
                    "entry {}: key {id} is not base64 of exactly 32 bytes \
                     (make one with `head -c 32 /dev/urandom | base64`)",
                    index + 1
                ))
            })?;
            self = self.key(id, bytes);
        }
        Ok(self)
    }

    /// How long a sealed state stays valid, in whole seconds (a fraction is rounded up; zero
    /// fails `build`): at least this long, and less than a second more. Default:
    /// [`Engine::DEFAULT_TTL`].
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = Some(ttl);
        self
    }

    /// The clock that stamps and checks expiry. Default: the system clock.
    pub fn clock(mut self, clock: impl Fn() -> SystemTime + Send + Sync + 'static) -> Self {
        self.clock = Some(Arc::new(clock));
        self
    }

    /// Who is calling, for example the `sub` of a validated bearer token found in
    /// `context.extensions`. A state sealed for one principal does not open for another.
    ///
    /// Over Streamable HTTP, rmcp puts each request's `http::request::Parts` in
    /// `context.extensions`: its headers, and in its own `extensions` what a layer in front of
    /// the service (an axum middleware that checked the token) put on the request.
    ///
    /// ```
    /// /// What the auth middleware in front of the MCP service adds to a request whose bearer
    /// /// token it validated.
    /// #[derive(Clone)]
    /// struct Caller {
    ///     subject: String,
    /// }
    ///
    /// let engine = mrtr::Engine::builder()
    ///     .principal(|context| {
    ///         let parts = context.extensions.get::<http::request::Parts>()?;
    ///         Some(parts.extensions.get::<Caller>()?.subject.clone())
    ///     })
    ///     .require_principal() // no caller, no call (-32600)
    ///     .build()?;
    /// # drop(engine);
    /// # Ok::<(), mrtr::ConfigError>(())
    /// ```
    ///
    /// Without a hook, states are bound to no one: whoever holds a state can resume the call.
    /// `build` warns about that unless [`without_principal`](Self::without_principal) says it
    /// is meant.
    pub fn principal(
        mut self,
        principal: impl Fn(&RequestContext<RoleServer>) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.principal = Some(Arc::new(principal));
        self
    }

    /// Refuses every call, first calls and retries, whose principal the hook does not know
    /// (returns `None`), with `-32600`. Needs a [`principal`](Self::principal) hook.
    pub fn require_principal(mut self) -> Self {
        self.principal_choice = PrincipalChoice::Required;
        self
    }

    /// Says that this server does not tell callers apart (stdio, a single user), so states
    /// are bound to no principal on purpose; `build` then does not warn about it.
    pub fn without_principal(mut self) -> Self {
        self.principal_choice = PrincipalChoice::Without;
        self
    }

    /// The name of this deployment (`production`, `staging-eu`), bound into every state and
    /// record: deployments that share keys, by accident or by design, still cannot open each
    /// other's states. Every instance of one deployment needs the same audience. Default: none.
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = audience.into();
        self
    }

    /// Uses the audience in [`AUDIENCE_ENV`], if it is set.
    pub fn audience_from_env(self) -> Result<Self, ConfigError> {
        match std::env::var(AUDIENCE_ENV) {
            Err(std::env::VarError::NotPresent) => Ok(self),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(ConfigError(format!("{AUDIENCE_ENV} is not valid UTF-8")))
            }
            Ok(audience) if audience.trim().is_empty() => Err(ConfigError(format!(
                "{AUDIENCE_ENV} is set but empty; name the deployment, or unset it"
            ))),
            Ok(audience) => Ok(self.audience(audience.trim())),
        }
    }

    /// How often at most a refused `requestState` is logged; each line counts the states
    /// refused since the last one. Default: [`Engine::DEFAULT_REFUSAL_LOG_INTERVAL`].
    pub fn refusal_log_interval(mut self, interval: Duration) -> Self {
        self.refusal_log_interval = Some(interval);
        self
    }

    /// The largest sealed `requestState` a round may produce. A round that would exceed it
    /// fails with `-32603` ("the tool's progress is too large to hand back") rather than send
    /// it, and the log names both sizes.
    pub fn max_state_bytes(mut self, bytes: usize) -> Self {
        self.max_state_bytes = Some(bytes);
        self
    }

    /// The store that makes each state single-use. Default: a [`MemoryStore`], for one
    /// instance. Several instances need a store they share, such as [`RedisStore`] (feature
    /// `redis`).
    ///
    #[doc = redis_store_link!()]
    pub fn replay_store(mut self, store: impl ReplayStore) -> Self {
        let store = Arc::new(store);
        self.memory = memory_store(&store);
        self.store = Some(store);
        self
    }

    /// The store that keeps task records. Default: a [`MemoryTaskStore`], for one instance.
    /// Several instances need one they share, such as [`RedisTaskStore`] (feature `redis`).
    ///
    #[doc = redis_task_store_link!()]
    pub fn task_store(mut self, store: impl TaskStore) -> Self {
        self.task_store = Some(Arc::new(store));
        self
    }

    /// How long a task's record lives from its creation (its `ttlMs`). A task still running
    /// or waiting for input when it runs out is gone: `tasks/get` answers `-32602`.
    /// Default: [`Engine::DEFAULT_TASK_TTL`].
    pub fn task_ttl(mut self, ttl: Duration) -> Self {
        self.task_ttl = Some(ttl);
        self
    }

    /// How often a client should poll `tasks/get` (its `pollIntervalMs`); also how often a
    /// task running on a shared store checks whether it was cancelled elsewhere.
    /// Default: [`Engine::DEFAULT_TASK_POLL_INTERVAL`].
    pub fn task_poll_interval(mut self, interval: Duration) -> Self {
        self.task_poll_interval = Some(interval);
        self
    }

    /// Uses Redis at the URL in [`REDIS_URL_ENV`], if it is set, as both the replay store and
    /// the task store (a [`RedisTaskStore`] on the same connection), replacing any set before; or
    /// an in-memory replay store of [`REPLAY_CAPACITY_ENV`] records, if that is set. Set a
    /// store of your own after this call to keep it.
    ///
    #[doc = redis_task_store_link!()]
    pub fn store_from_env(self) -> Result<Self, ConfigError> {
        let redis = std::env::var(REDIS_URL_ENV);
        let with_redis = !matches!(redis, Err(std::env::VarError::NotPresent));
        let builder = self.store_from_setting(redis)?;
        builder.capacity_from_setting(std::env::var(REPLAY_CAPACITY_ENV), with_redis)
    }

    /// `with_redis`: whether [`REDIS_URL_ENV`] is set too.
    fn capacity_from_setting(
        self,
        setting: Result<String, std::env::VarError>,
        with_redis: bool,
    ) -> Result<Self, ConfigError> {
        let capacity = match setting {
            Err(std::env::VarError::NotPresent) => return Ok(self),
            Ok(text) => text.trim().replace('_', "").parse::<usize>().ok(),
            Err(std::env::VarError::NotUnicode(_)) => None,
        };
        if with_redis {
            return Err(ConfigError(format!(
                "{REPLAY_CAPACITY_ENV} sizes the in-memory replay store; unset it with \
                 {REDIS_URL_ENV}"
            )));
        }
        match capacity {
            Some(capacity) if capacity > 0 => {
                Ok(self.replay_store(crate::replay::MemoryStore::with_capacity(capacity)))
            }
            _ => Err(ConfigError(format!(
                "{REPLAY_CAPACITY_ENV} must be a number of records above 0, such as 1000000"
            ))),
        }
    }

    fn store_from_setting(
        self,
        setting: Result<String, std::env::VarError>,
    ) -> Result<Self, ConfigError> {
        match setting {
            Err(std::env::VarError::NotPresent) => Ok(self),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(ConfigError(format!("{REDIS_URL_ENV} is not valid UTF-8")))
            }
            Ok(url) if url.trim().is_empty() => Err(ConfigError(format!(
                "{REDIS_URL_ENV} is set but empty; unset it to keep records in memory"
            ))),
            #[cfg(feature = "redis")]
            Ok(url) => {
                let store = crate::replay::RedisStore::open(url.trim())
                    .map_err(|error| ConfigError(format!("{REDIS_URL_ENV}: {error}")))?;
                let tasks = crate::task::RedisTaskStore::sharing(&store);
                Ok(self.replay_store(store).task_store(tasks))
            }
            #[cfg(not(feature = "redis"))]
            Ok(_) => Err(ConfigError(format!(
                "{REDIS_URL_ENV} is set, but mrtr was built without its `redis` feature: \
                 depend on `mrtr = {{ features = [\"redis\"] }}`"
            ))),
        }
    }

    /// How long a claimed round blocks retries of its state if the instance running it dies.
    /// With a shared task store it is also the lease a task's running round holds on the task:
    /// another instance takes the task over once it lapsed for a whole lease more.
    /// The request running a round renews its lease while it runs, so a slow round keeps it.
    /// `build` fails below [`Engine::MIN_LEASE`], or, with a shared task store, below the task
    /// poll interval, at which a task's round renews it. Default: [`Engine::DEFAULT_LEASE`].
    pub fn lease(mut self, lease: Duration) -> Self {
        self.lease = Some(lease);
        self
    }

    /// How long a duplicate request waits for the first to finish before it fails with
    /// `-32603`. Default: [`Engine::DEFAULT_DUPLICATE_WAIT`].
    pub fn duplicate_wait(mut self, wait: Duration) -> Self {
        self.duplicate_wait = Some(wait);
        self
    }

    /// How far apart the clocks of the instances, and of a shared replay store such as Redis,
    /// may be. Records outlive the states they guard by this much. A store with a clock of its
    /// own refuses a state whose record it would already have dropped (Redis does: `-32602`,
    /// as for an expired state), so an instance further behind it than this has its states
    /// refused early rather than run twice. Default: [`Engine::DEFAULT_CLOCK_SKEW`].
    pub fn clock_skew(mut self, skew: Duration) -> Self {
        self.clock_skew = Some(skew);
        self
    }

    /// How long a whole flow may last from its first round: no state of the flow expires after
    /// it, however often its questions are asked again. In whole seconds, like
    /// [`ttl`](Self::ttl). Default: [`Engine::DEFAULT_FLOW_LIFETIME`].
    pub fn flow_lifetime(mut self, lifetime: Duration) -> Self {
        self.flow_lifetime = Some(lifetime);
        self
    }

    /// The most rounds one call may take; the round past it fails with `-32603`. The cap is
    /// sealed into each state at the flow's first round. Default: [`Engine::DEFAULT_MAX_ROUNDS`].
    pub fn max_rounds(mut self, rounds: u32) -> Self {
        self.max_rounds = Some(rounds);
        self
    }

    /// Builds the engine. Without any key it makes a random one and warns that several
    /// instances need a shared key; on a store that is not shared it warns likewise.
    ///
    /// Fails if the store keeps records for less time than a state stays valid, since a
    /// state that still opens must find its record.
    pub fn build(self) -> Result<Engine, ConfigError> {
        check_settings(&self)?;
        let mut keys = self.keys;
        if keys.is_empty() {
            tracing::warn!(
                "mrtr: {KEYS_ENV} is not set, so requestState is sealed with a random key made \
                 for this process. Retries that reach another instance or a restarted one will \
                 be rejected. Give every instance the same {KEYS_ENV} to run more than one."
            );
            let mut key = Zeroizing::new([0u8; 32]);
            getrandom::getrandom(key.as_mut())
                .map_err(|e| ConfigError(format!("the system random source failed: {e}")))?;
            keys.push((0, key));
        }
        let mut seen = [false; 256];
        for (id, key) in &keys {
            if std::mem::replace(&mut seen[usize::from(*id)], true) {
                return Err(ConfigError(format!("key id {id} is listed twice")));
            }
            key_check::check(key).map_err(|problem| {
                ConfigError(format!(
                    "key {id} {problem}; make a key with `head -c 32 /dev/urandom | base64`"
                ))
            })?;
        }
        match (self.principal_choice, self.principal.is_some()) {
            (PrincipalChoice::Required, false) => {
                return Err(ConfigError(
                    "require_principal needs a principal hook: set `principal(..)` to say who \
                     is calling"
                        .to_owned(),
                ));
            }
            (PrincipalChoice::Unsaid, false) => tracing::warn!(
                "mrtr: no principal hook is set, so a requestState is bound to no caller: \
                 whoever holds one can resume the call. Set `EngineBuilder::principal` to bind \
                 states to the authenticated caller, or `without_principal()` if this server \
                 does not tell callers apart. The default engine (`Engine::global`, which \
                 `impl MrtrServer for .. {{}}` uses) is built so: to set either, build an engine \
                 and return it from `MrtrServer::mrtr_engine`"
            ),
            _ => {}
        }
        let ttl = whole_seconds("ttl", self.ttl.unwrap_or(Engine::DEFAULT_TTL))?;
        let flow_lifetime = whole_seconds(
            "flow_lifetime",
            self.flow_lifetime.unwrap_or(Engine::DEFAULT_FLOW_LIFETIME),
        )?;
        let lease = self.lease.unwrap_or(Engine::DEFAULT_LEASE);
        let poll_interval = self
            .task_poll_interval
            .unwrap_or(Engine::DEFAULT_TASK_POLL_INTERVAL);
        if lease < Engine::MIN_LEASE {
            return Err(ConfigError(format!(
                "the lease of {lease:?} is shorter than {:?}: a round renews its lease every \
                 third of it, so a shorter one lapses while the round runs and a duplicate runs \
                 it again. Set `lease` to at least {:?}",
                Engine::MIN_LEASE,
                Engine::MIN_LEASE
            )));
        }
        if lease > ttl {
            tracing::warn!(
                "mrtr: the lease of {lease:?} is longer than the state TTL of {ttl:?}: if an \
                 instance dies mid-round, its state expires before a retry may run the round \
                 again, so that call cannot finish. Lower `lease` or raise `ttl`"
            );
        }
        let task_store = self
            .task_store
            .unwrap_or_else(|| Arc::new(MemoryTaskStore::default()));
        if task_store.is_shared() && poll_interval > lease {
            return Err(ConfigError(format!(
                "the task poll interval of {poll_interval:?} is longer than the lease of \
                 {lease:?}: with a shared task store, a task's running round renews its lease \
                 once per poll interval, and another instance takes over a task whose lease \
                 lapsed for a whole lease more, so it would run the task again while it runs. \
                 Lower `task_poll_interval` or raise `lease`"
            )));
        }
        let clock_skew = self.clock_skew.unwrap_or(Engine::DEFAULT_CLOCK_SKEW);
        let max_rounds = self.max_rounds.unwrap_or(Engine::DEFAULT_MAX_ROUNDS);
        if max_rounds == 0 {
            return Err(ConfigError("max_rounds must be at least 1".to_owned()));
        }
        let (store, memory) = match self.store {
            Some(store) => (store, self.memory),
            None => {
                let memory = Arc::new(MemoryStore::default());
                (memory.clone() as Arc<dyn ReplayStore>, Some(memory))
            }
        };
        if let Some(retention) = store.retention() {
            let needed = ttl.saturating_add(clock_skew);
            if retention < needed {
                return Err(ConfigError(format!(
                    "the replay store keeps records for {retention:?}, but a state stays valid \
                     for {ttl:?} and records must outlive states by the clock skew of \
                     {clock_skew:?}: a state could outlive its record and run twice. Keep \
                     records for at least {needed:?}, or shorten the TTL"
                )));
            }
        }
        if !store.is_shared() {
            tracing::warn!(
                "mrtr: the replay store is not shared (records live in this process), so a \
                 duplicate request is caught only by the instance that ran the round. Give \
                 every instance the same shared store ({REDIS_URL_ENV}) to run more than one."
            );
        }
        let refusal_log_interval = self
            .refusal_log_interval
            .unwrap_or(Engine::DEFAULT_REFUSAL_LOG_INTERVAL);
        Ok(Engine {
            inner: Arc::new(Inner {
                keys: if self.sign_only {
                    KeyRing::new(keys).sign_only()
                } else {
                    KeyRing::new(keys)
                },
                ttl,
                system_clock: self.clock.is_none(),
                clock: self.clock.unwrap_or_else(|| Arc::new(SystemTime::now)),
                principal: self.principal,
                require_principal: self.principal_choice == PrincipalChoice::Required,
                audience: self.audience,
                refusals: RefusalLog::new(refusal_log_interval),
                full_refusals: RefusalLog::new(refusal_log_interval),
                oversized_states: RefusalLog::new(refusal_log_interval),
                max_state_bytes: self
                    .max_state_bytes
                    .unwrap_or(Engine::DEFAULT_MAX_STATE_BYTES),
                store,
                memory,
                lease,
                duplicate_wait: self
                    .duplicate_wait
                    .unwrap_or(Engine::DEFAULT_DUPLICATE_WAIT),
                clock_skew,
                flow_lifetime,
                max_rounds,
                unusable: None,
                tasks: Tasks {
                    store: task_store,
                    ttl: self.task_ttl.unwrap_or(Engine::DEFAULT_TASK_TTL),
                    poll_interval,
                    running: Default::default(),
                },
            }),
        })
    }
}

/// `duration` rounded up to whole seconds, as states carry their times; zero is an error.
/// Refuses times too long for the clocks and stores they go to, and settings that would make
/// every state or task useless.
fn check_settings(builder: &EngineBuilder) -> Result<(), ConfigError> {
    let times = [
        ("ttl", builder.ttl),
        ("flow_lifetime", builder.flow_lifetime),
        ("lease", builder.lease),
        ("duplicate_wait", builder.duplicate_wait),
        ("clock_skew", builder.clock_skew),
        ("task_ttl", builder.task_ttl),
        ("task_poll_interval", builder.task_poll_interval),
        ("refusal_log_interval", builder.refusal_log_interval),
    ];
    for (setting, time) in times {
        if let Some(time) = time
            && time > Engine::MAX_TIME
        {
            return Err(ConfigError(format!(
                "`{setting}` is {time:?}, longer than the 100 years that clocks and stores can \
                 hold added to now; set it to at most `Engine::MAX_TIME`"
            )));
        }
    }
    if builder.task_ttl.is_some_and(|ttl| ttl.is_zero()) {
        return Err(ConfigError(
            "`task_ttl` is zero: every task would be gone before its client first asks for it. \
             Give it at least as long as a task runs and waits for answers"
                .to_owned(),
        ));
    }
    if let Some(interval) = builder.task_poll_interval
        && interval < Engine::MIN_TASK_POLL_INTERVAL
    {
        return Err(ConfigError(format!(
            "`task_poll_interval` is {interval:?}: clients would poll, and tasks on a shared \
             store read their records, without pause. Set it to at least {:?}",
            Engine::MIN_TASK_POLL_INTERVAL
        )));
    }
    if let Some(bytes) = builder.max_state_bytes
        && bytes < Engine::MIN_STATE_BYTES
    {
        return Err(ConfigError(format!(
            "`max_state_bytes` is {bytes}, too small for any state (one that saves nothing \
             takes 52 to about 100 bytes), so every round that asks would fail. Set it to at \
             least {}",
            Engine::MIN_STATE_BYTES
        )));
    }
    Ok(())
}

fn whole_seconds(setting: &str, duration: Duration) -> Result<Duration, ConfigError> {
    if duration.is_zero() {
        return Err(ConfigError(format!(
            "`{setting}` is zero: no state would ever open. Give it at least one second"
        )));
    }
    let seconds = duration
        .as_secs()
        .saturating_add(u64::from(duration.subsec_nanos() > 0));
    Ok(Duration::from_secs(seconds))
}

fn decode_key(text: &str) -> Option<[u8; 32]> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(text).ok())
        .and_then(|bytes| <[u8; 32]>::try_from(bytes.as_slice()).ok())
}

/// `store` as a [`MemoryStore`], if it is one (or an `Arc` of one).
fn memory_store<S: ReplayStore>(store: &Arc<S>) -> Option<Arc<MemoryStore>> {
    let any: Arc<dyn std::any::Any + Send + Sync> = store.clone();
    match any.downcast::<MemoryStore>() {
        Ok(memory) => Some(memory),
        Err(any) => any
            .downcast::<Arc<MemoryStore>>()
            .ok()
            .map(|shared: Arc<Arc<MemoryStore>>| Arc::clone(&*shared)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::captured;

    const KEY_A: &str = "X2XQbUjbJfvYQXgBhUoZdeUD6eHcAwRctSvzddqmzfo=";
    const KEY_B: &str = "nI2dFm02e4jJ7QZKfhTOJ20rXKEcsq5kP9jvn3wcYlc";

    fn key(text: &str) -> [u8; 32] {
        decode_key(text).unwrap()
    }

    #[test]
    fn parses_a_key_list_newest_first() {
        let spec = format!("7:{KEY_A}, 3:{KEY_B}=");
        let engine = Engine::builder()
            .keys_from_str(&spec)
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(engine.inner.keys.ids(), vec![7, 3]);
    }

    #[test]
    fn rejects_malformed_entries_with_a_fix() {
        let cases = [
            ("nocolon", "ID:BASE64KEY"),
            ("x:AAAA", "0 to 255"),
            ("300:AAAA", "0 to 255"),
            ("1:AAAA", "exactly 32 bytes"),
            (" , ", "empty"),
        ];
        for (spec, expected) in cases {
            let error = Engine::builder().keys_from_str(spec).err().unwrap();
            assert!(error.to_string().contains(expected), "{spec}: {error}");
        }
        // An entry written key first: the error must not quote the key.
        let error = Engine::builder()
            .keys_from_str(&format!("{KEY_A}:1"))
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("id first") && !error.contains(&KEY_A[..12]),
            "{error}"
        );
    }

    #[test]
    fn a_set_but_empty_key_variable_is_an_error() {
        use std::env::VarError;
        for empty in ["", "  ", "\n"] {
            let error = Engine::builder()
                .keys_from_setting(Ok(empty.to_owned()))
                .err()
                .unwrap();
            assert!(error.to_string().contains("set but empty"), "{error}");
        }
        let unset = Engine::builder()
            .keys_from_setting(Err(VarError::NotPresent))
            .unwrap();
        assert!(unset.keys.is_empty());
    }

    #[test]
    fn the_documented_example_is_a_placeholder() {
        let docs = include_str!("engine.rs");
        let example = docs
            .lines()
            .find(|line| line.starts_with("/// MRTR_KEYS="))
            .unwrap();
        assert!(example.contains("<new key"), "{example}");
        assert!(Engine::builder().keys_from_str(&example[15..]).is_err());
    }

    #[test]
    fn published_and_weak_keys_are_refused_at_startup() {
        let published = [
            "1:q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8w",
            "1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
        ];
        for spec in published {
            let error = Engine::builder()
                .keys_from_str(spec)
                .unwrap()
                .build()
                .unwrap_err();
            assert!(error.to_string().contains("published"), "{error}");
        }
        for weak in [[0u8; 32], [7; 32]] {
            let error = Engine::builder().key(4, weak).build().unwrap_err();
            assert!(error.to_string().contains("key 4"), "{error}");
            assert!(error.to_string().contains("/dev/urandom"), "{error}");
        }
        // An older key in the list is checked too.
        let error = Engine::builder()
            .key(2, key(KEY_A))
            .key(1, *b"The quick brown fox jumps over!!")
            .build()
            .unwrap_err();
        assert!(error.to_string().contains("printable text"), "{error}");
    }

    #[test]
    fn the_replay_capacity_setting_is_checked_at_startup() {
        use std::env::VarError;
        let capacity =
            |value: &str| Engine::builder().capacity_from_setting(Ok(value.to_owned()), false);
        assert!(capacity("2_000_000").unwrap().store.is_some());
        assert!(
            Engine::builder()
                .capacity_from_setting(Err(VarError::NotPresent), false)
                .unwrap()
                .store
                .is_none()
        );
        for bad in ["0", "-1", "many", ""] {
            let error = capacity(bad).err().unwrap();
            assert!(error.to_string().contains("above 0"), "{bad}: {error}");
        }
        let both = Engine::builder()
            .capacity_from_setting(Ok("10".to_owned()), true)
            .err()
            .unwrap();
        assert!(both.to_string().contains(REDIS_URL_ENV), "{both}");
        // As with Redis, the setting replaces a store set on the builder before.
        let replaced = Engine::builder()
            .replay_store(crate::replay::MemoryStore::default())
            .capacity_from_setting(Ok("10".to_owned()), false)
            .unwrap();
        let store = format!("{:?}", replaced.memory.unwrap());
        assert!(store.contains("capacity: 10,"), "{store}");
    }

    #[test]
    fn the_redis_setting_is_checked_at_startup() {
        use std::env::VarError;
        let setting = |value: &str| Engine::builder().store_from_setting(Ok(value.to_owned()));
        let unset = Engine::builder().store_from_setting(Err(VarError::NotPresent));
        assert!(
            !unset
                .unwrap()
                .key(1, key(KEY_A))
                .build()
                .unwrap()
                .inner
                .store
                .is_shared()
        );
        let empty = setting(" ").err().unwrap();
        assert!(empty.to_string().contains("set but empty"), "{empty}");
        #[cfg(feature = "redis")]
        {
            let engine = setting("redis://127.0.0.1:6379/0").unwrap();
            assert!(
                engine
                    .key(1, key(KEY_A))
                    .build()
                    .unwrap()
                    .inner
                    .store
                    .is_shared()
            );
            let bad = setting("http://nowhere").err().unwrap();
            assert!(
                bad.to_string().contains("redis://127.0.0.1:6379/0"),
                "{bad}"
            );
        }
        #[cfg(not(feature = "redis"))]
        {
            let off = setting("redis://127.0.0.1:6379/0").err().unwrap();
            assert!(off.to_string().contains("`redis` feature"), "{off}");
        }
    }

    /// The guard calls a memory store directly; any other store through its trait.
    #[test]
    fn a_memory_store_is_found_however_it_is_given() {
        let base = || Engine::builder().key(1, key(KEY_A)).without_principal();
        let memory = |builder: EngineBuilder| builder.build().unwrap().inner.memory.is_some();
        assert!(memory(base()));
        assert!(memory(base().replay_store(MemoryStore::with_capacity(10))));
        assert!(memory(
            base().replay_store(Arc::new(MemoryStore::with_capacity(10)))
        ));
        let shared: Arc<dyn ReplayStore> = Arc::new(MemoryStore::default());
        assert!(!memory(base().replay_store(shared)));
    }

    use crate::replay::StoreError;

    /// A memory task store that says it is shared, as Redis's is.
    struct SharedTasks(MemoryTaskStore);

    #[async_trait::async_trait]
    impl TaskStore for SharedTasks {
        async fn create(&self, id: &str, record: &[u8], ttl: Duration) -> Result<(), StoreError> {
            self.0.create(id, record, ttl).await
        }

        async fn get(&self, id: &str) -> Result<Option<Vec<u8>>, StoreError> {
            self.0.get(id).await
        }

        async fn replace(
            &self,
            id: &str,
            expected: &[u8],
            record: &[u8],
        ) -> Result<bool, StoreError> {
            self.0.replace(id, expected, record).await
        }

        fn is_shared(&self) -> bool {
            true
        }
    }

    #[test]
    fn times_that_would_break_single_use_or_expiry_fail_the_build() {
        let base = || Engine::builder().key(1, key(KEY_A)).without_principal();
        let error = |builder: EngineBuilder| builder.build().unwrap_err().to_string();
        let short = error(base().lease(Duration::from_millis(5)));
        assert!(short.contains("at least 100ms"), "{short}");
        let slow_polls = || {
            base()
                .lease(Duration::from_millis(300))
                .task_poll_interval(Duration::from_secs(1))
        };
        // Only a shared task store takes tasks over.
        assert!(slow_polls().build().is_ok());
        let shared = error(slow_polls().task_store(SharedTasks(MemoryTaskStore::default())));
        assert!(shared.contains("Lower `task_poll_interval`"), "{shared}");
        assert!(error(base().ttl(Duration::ZERO)).contains("`ttl` is zero"));
        assert!(error(base().flow_lifetime(Duration::ZERO)).contains("`flow_lifetime` is zero"));
        let built = base()
            .ttl(Duration::from_millis(900))
            .flow_lifetime(Duration::from_millis(1500))
            .lease(Engine::MIN_LEASE)
            .task_poll_interval(Engine::MIN_LEASE)
            .build()
            .unwrap();
        assert_eq!(built.inner.ttl, Duration::from_secs(1), "rounded up");
        assert_eq!(built.inner.flow_lifetime, Duration::from_secs(2));
    }

    /// Times that would overflow a clock or a store when added to now, and settings under
    /// which nothing could work, fail the build instead of failing each round.
    #[test]
    fn times_too_long_and_settings_that_make_every_round_fail_fail_the_build() {
        let base = || Engine::builder().key(1, key(KEY_A)).without_principal();
        let error = |builder: EngineBuilder| builder.build().unwrap_err().to_string();
        let too_long = Engine::MAX_TIME + Duration::from_secs(1);
        type Setter = fn(EngineBuilder, Duration) -> EngineBuilder;
        let settings: [(&str, Setter); 8] = [
            ("ttl", EngineBuilder::ttl),
            ("flow_lifetime", EngineBuilder::flow_lifetime),
            ("lease", EngineBuilder::lease),
            ("duplicate_wait", EngineBuilder::duplicate_wait),
            ("clock_skew", EngineBuilder::clock_skew),
            ("task_ttl", EngineBuilder::task_ttl),
            ("task_poll_interval", EngineBuilder::task_poll_interval),
            ("refusal_log_interval", EngineBuilder::refusal_log_interval),
        ];
        for (name, set) in settings {
            for time in [too_long, Duration::MAX] {
                let refused = error(set(base(), time));
                assert!(
                    refused.contains(&format!("`{name}`")) && refused.contains("Engine::MAX_TIME"),
                    "{refused}"
                );
            }
        }
        let longest = base()
            .ttl(Engine::MAX_TIME)
            .flow_lifetime(Engine::MAX_TIME)
            .clock_skew(Engine::MAX_TIME)
            .task_ttl(Engine::MAX_TIME)
            .build()
            .unwrap();
        assert!(longest.session_keep_alive() > Engine::MAX_TIME);
        assert!(error(base().task_ttl(Duration::ZERO)).contains("`task_ttl` is zero"));
        let polls = error(base().task_poll_interval(Duration::ZERO));
        assert!(polls.contains("at least 10ms"), "{polls}");
        let tiny = error(base().max_state_bytes(52));
        assert!(tiny.contains("at least 128"), "{tiny}");
        assert!(
            base()
                .max_state_bytes(Engine::MIN_STATE_BYTES)
                .build()
                .is_ok()
        );
    }

    #[test]
    fn engines_built_from_clones_of_a_builder_share_its_stores() {
        let base = Engine::builder()
            .key(1, key(KEY_A))
            .without_principal()
            .ttl(Duration::from_secs(30))
            .replay_store(crate::replay::MemoryStore::with_capacity(10));
        let (one, two) = (base.clone().build().unwrap(), base.build().unwrap());
        assert!(Arc::ptr_eq(one.replay_store(), two.replay_store()));
        assert_eq!(
            (one.inner.ttl, two.inner.ttl),
            (Duration::from_secs(30), Duration::from_secs(30))
        );
    }

    #[test]
    fn rejects_a_duplicate_id() {
        let spec = format!("1:{KEY_A},1:{KEY_B}");
        let error = Engine::builder()
            .keys_from_str(&spec)
            .unwrap()
            .build()
            .unwrap_err();
        assert!(error.to_string().contains("twice"));
    }

    #[test]
    fn building_without_a_principal_hook_warns_unless_told() {
        let base = || Engine::builder().key(1, key(KEY_A));
        let logs = captured(|| drop(base().build().unwrap()));
        assert!(logs.contains("no principal hook is set"), "{logs}");
        // What a server on the default engine, which cannot call the builder, does about it.
        assert!(
            logs.contains("impl MrtrServer for .. {}")
                && logs.contains("return it from `MrtrServer::mrtr_engine`"),
            "{logs}"
        );
        let logs = captured(|| drop(base().without_principal().build().unwrap()));
        assert!(!logs.contains("principal"), "{logs}");
        let logs = captured(|| drop(base().principal(|_| None).build().unwrap()));
        assert!(!logs.contains("principal"), "{logs}");
        let error = base().require_principal().build().unwrap_err();
        assert!(error.to_string().contains("principal(..)"), "{error}");
    }
}
