//! Task records on Redis, shared by a fleet: a task started on one instance is polled,
//! answered and cancelled on any other.

use std::time::Duration;

use redis::Script;

use super::TaskStore;
use crate::replay::{RedisStore, StoreError, async_trait, redis::unavailable};

/// Task records on a Redis server that every instance of the deployment shares. Each record
/// is one key, `mrtr:task:<id>` by default, that expires with the task's TTL.
///
/// [`Engine::from_env`](crate::Engine::from_env) uses one when `MRTR_REDIS_URL` is set, on
/// the replay store's connection ([`sharing`](Self::sharing)).
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub struct RedisTaskStore {
    connection: RedisStore,
    prefix: String,
}

/// Not the URL, which may hold a password.
impl std::fmt::Debug for RedisTaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisTaskStore")
            .field("prefix", &self.prefix)
            .field("connection", &self.connection)
            .finish()
    }
}

impl RedisTaskStore {
    /// The default prefix of every key the store writes.
    pub const DEFAULT_PREFIX: &'static str = "mrtr:task:";

    /// A store on the Redis server at `url`, written as for
    /// [`RedisStore::open`](crate::replay::RedisStore::open) (`rediss://` for TLS, with the
    /// `redis-tls` feature). Only the URL is checked here; the connection opens on first use.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        Ok(Self {
            connection: RedisStore::open(url)?,
            prefix: Self::DEFAULT_PREFIX.to_owned(),
        })
    }

    /// A store on the server and the connection of `replay`, the replay store: one connection
    /// per instance for both, opened on first use by either, with `replay`'s timeout; and
    /// the checks of Redis's eviction policy and clock it logs as it connects appear once.
    /// [`EngineBuilder::store_from_env`](crate::EngineBuilder::store_from_env) makes its task
    /// store this way.
    ///
    /// ```no_run
    /// use mrtr::{replay::RedisStore, task::RedisTaskStore};
    ///
    /// let replay = RedisStore::open("redis://127.0.0.1:6379/0")?;
    /// let tasks = RedisTaskStore::sharing(&replay);
    /// let engine = mrtr::Engine::builder()
    ///     .replay_store(replay)
    ///     .task_store(tasks)
    ///     .build()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn sharing(replay: &RedisStore) -> Self {
        Self {
            connection: replay.sharing(),
            prefix: Self::DEFAULT_PREFIX.to_owned(),
        }
    }

    /// Writes every key under `prefix` instead of [`Self::DEFAULT_PREFIX`].
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// How long one command (or connecting) may take before the request fails with `-32603`.
    /// Default: [`RedisStore::DEFAULT_TIMEOUT`], or the replay store's for one made by
    /// [`sharing`](Self::sharing), which then gets a connection of its own.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.connection = self.connection.with_timeout(timeout);
        self
    }

    fn key(&self, id: &str) -> String {
        format!("{}{id}", self.prefix)
    }
}

/// Sets `KEYS[1]` to `ARGV[2]`, keeping its expiry, if it still is `ARGV[1]`.
fn replace_script() -> &'static Script {
    static SCRIPT: std::sync::OnceLock<Script> = std::sync::OnceLock::new();
    SCRIPT.get_or_init(|| {
        Script::new(
            "if redis.call('GET', KEYS[1]) == ARGV[1] then
               redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
               return 1
             end
             return 0",
        )
    })
}

#[async_trait]
impl TaskStore for RedisTaskStore {
    async fn create(&self, id: &str, record: &[u8], ttl: Duration) -> Result<(), StoreError> {
        let mut connection = self.connection.connection().await?;
        // At most a century, as the memory store keeps it: Redis refuses a longer `PX`.
        let millis = super::record::millis(ttl.min(crate::Engine::MAX_TIME)).max(1);
        let created: Option<String> = redis::cmd("SET")
            .arg(self.key(id))
            .arg(record)
            .arg("PX")
            .arg(millis)
            .arg("NX")
            .query_async(&mut connection)
            .await
            .map_err(unavailable)?;
        match created {
            Some(_) => Ok(()),
            None => Err(StoreError::unavailable(format!(
                "Redis already holds a task with the fresh id {id}"
            ))),
        }
    }

    async fn get(&self, id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let mut connection = self.connection.connection().await?;
        redis::cmd("GET")
            .arg(self.key(id))
            .query_async(&mut connection)
            .await
            .map_err(unavailable)
    }

    async fn replace(&self, id: &str, expected: &[u8], record: &[u8]) -> Result<bool, StoreError> {
        let mut connection = self.connection.connection().await?;
        let replaced: i64 = replace_script()
            .key(self.key(id))
            .arg(expected)
            .arg(record)
            .invoke_async(&mut connection)
            .await
            .map_err(unavailable)?;
        Ok(replaced == 1)
    }

    fn is_shared(&self) -> bool {
        true
    }
}
