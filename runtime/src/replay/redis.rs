//! The replay store of a fleet: records in Redis, claimed and completed by Lua scripts so that
//! each step is atomic across every instance.

use std::{
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use redis::{
    Script,
    aio::{ConnectionManager, ConnectionManagerConfig},
};
use tokio::sync::OnceCell;

use super::{Claim, Holder, Recorded, ReplayStore, RoundKey, StoreError};

/// Records in Redis, shared by every instance that points at the same server: the store for a
/// fleet. Works with a stock `redis-server` 6.2 or later.
///
/// A record is one string key, `PREFIX` + `flow:round`, that expires (`PXAT`) when the state it
/// guards does, plus the engine's clock skew allowance; a claim that Redis's clock says comes
/// after that is refused as expired, so no instance whose clock runs behind can open a state
/// whose record is gone. Leases are measured on the Redis server's clock, so instances whose
/// clocks differ still agree on them. Responses arrive sealed by the engine: Redis never sees
/// a tool's output in the clear.
///
/// The connection opens on first use and reconnects by itself. While Redis cannot be reached,
/// every guarded round fails closed with `-32603` and the reason in the log.
///
/// Records must not be evicted early: run Redis with `maxmemory-policy noeviction` (its
/// default). The store checks the policy when it connects and logs an error otherwise.
///
/// With Redis ACLs, this user has the rights both this store and
/// [`RedisTaskStore`](crate::task::RedisTaskStore) use, and no other, on their default prefixes;
/// name it in the URL, `redis://mrtr:PASSWORD@HOST:6379/0`:
///
/// ```text
/// user mrtr on >PASSWORD resetkeys ~mrtr:replay:* ~mrtr:task:* resetchannels -@all +evalsha +script|load +get +set +del +time
/// ```
///
/// Add `+config|get` to let the store check the eviction policy; without it, it logs a warning
/// that it could not.
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub struct RedisStore {
    client: redis::Client,
    /// Shared with a task store made by
    /// [`RedisTaskStore::sharing`](crate::task::RedisTaskStore::sharing).
    connection: Arc<OnceCell<ConnectionManager>>,
    prefix: String,
    timeout: Duration,
}

/// Not the URL, which may hold a password.
impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// `R` + holder (32 hex digits) + `:`: the part of a running record that names its holder.
const HOLDER_END: usize = 34;

/// Finds the Redis server's time in milliseconds, as `now_ms`.
const NOW: &str = "local t = redis.call('TIME') \
                   local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

impl RedisStore {
    /// The default prefix of every key the store writes.
    pub const DEFAULT_PREFIX: &'static str = "mrtr:replay:";
    /// How long one Redis command may take before the round fails closed: 2 s.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

    /// A store on the Redis server at `url`: `redis://host:port/db`, or `rediss://` for TLS,
    /// which needs the crate's `redis-tls` feature and trusts the system's root certificates
    /// (or those of `SSL_CERT_FILE` or `SSL_CERT_DIR`, when set). Only the URL is checked here;
    /// the connection opens on first use.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        prepare_tls(url)?;
        let client = redis::Client::open(url).map_err(|error| {
            StoreError::unavailable(format!(
                "not a Redis URL ({error}); write it like redis://127.0.0.1:6379/0"
            ))
        })?;
        Ok(Self {
            client,
            connection: Arc::default(),
            prefix: Self::DEFAULT_PREFIX.to_owned(),
            timeout: Self::DEFAULT_TIMEOUT,
        })
    }

    /// Writes every key under `prefix` instead of [`Self::DEFAULT_PREFIX`], so that the records
    /// of two deployments that share a Redis server do not mix.
    ///
    /// A prefix keeps records apart, not states: if both deployments open each other's states
    /// (the same keys and audience), each would run a state once, so a state could run twice.
    /// Give each deployment its own [`audience`](crate::EngineBuilder::audience) or keys.
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// How long one command (or connecting) may take before the round fails closed.
    /// Default: [`Self::DEFAULT_TIMEOUT`]. Set it before making a task store
    /// [`sharing`](crate::task::RedisTaskStore::sharing) this one's connection: the timeout is
    /// the connection's, so a store given one afterwards gets a connection of its own.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        // The timeout is the connection's: a store that shared one gets one of its own.
        self.connection = Arc::default();
        self
    }

    /// The same server and connection, under this store's URL and timeout.
    pub(crate) fn sharing(&self) -> Self {
        Self {
            client: self.client.clone(),
            connection: Arc::clone(&self.connection),
            prefix: self.prefix.clone(),
            timeout: self.timeout,
        }
    }

    pub(crate) async fn connection(&self) -> Result<ConnectionManager, StoreError> {
        self.connection
            .get_or_try_init(|| async {
                let config = ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(self.timeout))
                    .set_response_timeout(Some(self.timeout))
                    .set_number_of_retries(1)
                    .set_max_delay(Duration::from_millis(200));
                let mut connection =
                    ConnectionManager::new_with_config(self.client.clone(), config)
                        .await
                        .map_err(unavailable)?;
                check_eviction_policy(&mut connection).await;
                check_clock(&mut connection).await;
                Ok(connection)
            })
            .await
            .cloned()
    }

    fn key(&self, key: &RoundKey) -> String {
        format!("{}{key}", self.prefix)
    }
}

/// A `rediss://` URL needs the `redis-tls` feature, and rustls a crypto provider: ring, unless
/// the process already chose one.
fn prepare_tls(url: &str) -> Result<(), StoreError> {
    let tls = url
        .get(..9)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("rediss://"));
    if !tls {
        return Ok(());
    }
    #[cfg(feature = "redis-tls")]
    {
        // An error means another provider is installed already, which serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
        Ok(())
    }
    #[cfg(not(feature = "redis-tls"))]
    Err(StoreError::unavailable(
        "a rediss:// URL (Redis over TLS) needs mrtr's `redis-tls` feature: \
         mrtr = { version = \"..\", features = [\"redis-tls\"] }",
    ))
}

pub(crate) fn unavailable(error: redis::RedisError) -> StoreError {
    StoreError::unavailable(format!("Redis: {error}"))
}

/// Milliseconds since the Unix epoch, for `PXAT`.
fn unix_millis(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_millis()
        .try_into()
        .unwrap_or(u64::MAX)
}

fn millis(duration: Duration) -> u64 {
    duration.as_millis().try_into().unwrap_or(u64::MAX)
}

/// Logs an error if Redis may evict records before they expire.
async fn check_eviction_policy(connection: &mut ConnectionManager) {
    let policy: redis::RedisResult<Vec<String>> = redis::cmd("CONFIG")
        .arg("GET")
        .arg("maxmemory-policy")
        .query_async(connection)
        .await;
    match policy.as_deref() {
        Ok([_, policy]) if policy == "noeviction" => {}
        Ok([_, policy]) => tracing::error!(
            policy = %policy,
            "mrtr: Redis may evict replay records before the states they guard expire, which \
             would let a state run twice when memory is tight; set `maxmemory-policy noeviction`"
        ),
        // The reason (no permission for CONFIG, no password) tells an operator what to fix.
        Err(error) => tracing::warn!(
            %error,
            "mrtr: could not read Redis's maxmemory-policy; make sure it is `noeviction`, or \
             records may be evicted before the states they guard expire"
        ),
        Ok(answer) => tracing::warn!(
            answer = ?answer,
            "mrtr: could not read Redis's maxmemory-policy; make sure it is `noeviction`, or \
             records may be evicted before the states they guard expire"
        ),
    }
}

/// How far this host's clock may be from Redis's before the store warns: NTP keeps hosts far
/// closer, and the round trip to Redis is part of it.
const CLOCK_WARNING: Duration = Duration::from_secs(1);

/// Logs a warning if this host's clock is more than [`CLOCK_WARNING`] from Redis's: records
/// expire by Redis's clock at times this host sets, so a host behind Redis makes records that
/// last that much less than the states they guard. Single use holds anyway (the claim script
/// refuses a state whose record would have expired), but past the engine's clock skew
/// allowance the host's states are refused before their time.
async fn check_clock(connection: &mut ConnectionManager) {
    let before = SystemTime::now();
    let time: redis::RedisResult<(u64, u64)> = redis::cmd("TIME").query_async(connection).await;
    let after = SystemTime::now();
    let Ok((seconds, micros)) = time else {
        // Only the scripts need `TIME`; a failure here shows again in the first round.
        return;
    };
    let Some(redis_now) = Duration::from_secs(seconds).checked_add(Duration::from_micros(micros))
    else {
        return;
    };
    let since_epoch = |time: SystemTime| time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let (earliest, latest) = (since_epoch(before), since_epoch(after));
    let (direction, off_by) = if redis_now > latest {
        ("behind", redis_now - latest)
    } else if redis_now < earliest {
        ("ahead of", earliest - redis_now)
    } else {
        return;
    };
    if off_by > CLOCK_WARNING {
        let off_by = off_by.as_secs_f64().round();
        let last = if direction == "behind" {
            "less"
        } else {
            "more"
        };
        tracing::warn!(
            "mrtr: this host's clock is {direction} Redis's by {off_by} s; replay records last \
             that much {last}, so keep the engine's clock skew allowance \
             (`EngineBuilder::clock_skew`, 60 s by default) above how far the fleet's clocks may \
             be from Redis's: past it, Redis refuses this host's states early, as expired"
        );
    }
}

fn claim_script() -> Script {
    Script::new(&format!(
        "{NOW}
         local current = redis.call('GET', KEYS[1])
         if current then
           if string.sub(current, 1, 1) == 'D' then
             return {{'done', string.sub(current, 2)}}
           end
           local lease_until = tonumber(string.sub(current, {start}))
           if lease_until and lease_until > now_ms then
             return {{'running', ''}}
           end
         end
         if tonumber(ARGV[3]) <= now_ms then
           return {{'expired', tostring(now_ms - tonumber(ARGV[3]))}}
         end
         local expire_at = math.max(tonumber(ARGV[3]), now_ms + 1000)
         redis.call('SET', KEYS[1], 'R' .. ARGV[1] .. ':' .. (now_ms + tonumber(ARGV[2])),
                    'PXAT', expire_at)
         return {{'won', ''}}",
        start = HOLDER_END + 1
    ))
}

/// Returns 0 unless `KEYS[1]` is a running record held by `ARGV[1]`.
fn held_by_caller() -> String {
    format!(
        "local current = redis.call('GET', KEYS[1])
         if not current or string.sub(current, 1, {HOLDER_END}) ~= 'R' .. ARGV[1] .. ':' then
           return 0
         end"
    )
}

fn renew_script() -> Script {
    Script::new(&format!(
        "{NOW}
         {held}
         redis.call('SET', KEYS[1], 'R' .. ARGV[1] .. ':' .. (now_ms + tonumber(ARGV[2])),
                    'KEEPTTL')
         return 1",
        held = held_by_caller()
    ))
}

fn complete_script() -> Script {
    Script::new(&format!(
        "{NOW}
         {held}
         local expire_at = math.max(tonumber(ARGV[3]), now_ms + 1000)
         redis.call('SET', KEYS[1], 'D' .. ARGV[2], 'PXAT', expire_at)
         return 1",
        held = held_by_caller()
    ))
}

fn release_script() -> Script {
    Script::new(&format!(
        "{held}
         redis.call('DEL', KEYS[1])
         return 1",
        held = held_by_caller()
    ))
}

/// The scripts, built once per process.
struct Scripts {
    claim: Script,
    renew: Script,
    complete: Script,
    release: Script,
}

fn scripts() -> &'static Scripts {
    static SCRIPTS: std::sync::OnceLock<Scripts> = std::sync::OnceLock::new();
    SCRIPTS.get_or_init(|| Scripts {
        claim: claim_script(),
        renew: renew_script(),
        complete: complete_script(),
        release: release_script(),
    })
}

#[async_trait::async_trait]
impl ReplayStore for RedisStore {
    async fn claim(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
        expires_at: SystemTime,
    ) -> Result<Claim, StoreError> {
        let mut connection = self.connection().await?;
        let (outcome, response): (String, Vec<u8>) = scripts()
            .claim
            .key(self.key(&key))
            .arg(holder.to_string())
            .arg(millis(lease))
            .arg(unix_millis(expires_at))
            .invoke_async(&mut connection)
            .await
            .map_err(unavailable)?;
        match outcome.as_str() {
            "won" => Ok(Claim::Won),
            "done" => Ok(Claim::Done(Recorded::sealed(response))),
            "running" => Ok(Claim::Running),
            "expired" => {
                let ago = String::from_utf8_lossy(&response);
                let seconds = ago.parse::<u64>().map_or(0, |millis| millis / 1000);
                Err(StoreError::expired(format!(
                    "by Redis's clock the state and the clock skew allowance ran out {seconds} s \
                     ago, though this host's clock still accepts it: this host's clock is behind \
                     Redis's by more than the allowance (`EngineBuilder::clock_skew`)"
                )))
            }
            other => Err(StoreError::unavailable(format!(
                "Redis: the claim script answered `{other}`"
            ))),
        }
    }

    async fn renew(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let mut connection = self.connection().await?;
        let renewed: i64 = scripts()
            .renew
            .key(self.key(&key))
            .arg(holder.to_string())
            .arg(millis(lease))
            .invoke_async(&mut connection)
            .await
            .map_err(unavailable)?;
        Ok(renewed == 1)
    }

    async fn complete(
        &self,
        key: RoundKey,
        holder: Holder,
        response: Recorded,
        expires_at: SystemTime,
    ) -> Result<bool, StoreError> {
        let response = response.as_sealed().ok_or_else(|| {
            StoreError::unavailable("RedisStore was handed a response that is not sealed")
        })?;
        let mut connection = self.connection().await?;
        let completed: i64 = scripts()
            .complete
            .key(self.key(&key))
            .arg(holder.to_string())
            .arg(response)
            .arg(unix_millis(expires_at))
            .invoke_async(&mut connection)
            .await
            .map_err(unavailable)?;
        Ok(completed == 1)
    }

    async fn release(&self, key: RoundKey, holder: Holder) -> Result<bool, StoreError> {
        let mut connection = self.connection().await?;
        let released: i64 = scripts()
            .release
            .key(self.key(&key))
            .arg(holder.to_string())
            .invoke_async(&mut connection)
            .await
            .map_err(unavailable)?;
        Ok(released == 1)
    }

    fn is_shared(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_made_sharing_uses_the_same_connection_until_its_timeout_changes() {
        let replay = RedisStore::open("redis://127.0.0.1:6379/0").unwrap();
        let shared = replay.sharing();
        assert!(Arc::ptr_eq(&replay.connection, &shared.connection));
        assert_eq!(shared.timeout, replay.timeout);
        let own = shared.with_timeout(Duration::from_secs(5));
        assert!(!Arc::ptr_eq(&replay.connection, &own.connection));
    }

    #[test]
    fn a_tls_url_needs_the_tls_feature_and_says_so() {
        for url in ["rediss://127.0.0.1:6380/0", "REDISS://cache.internal/0"] {
            let opened = RedisStore::open(url);
            if cfg!(feature = "redis-tls") {
                assert!(opened.is_ok(), "{url}: {:?}", opened.err());
            } else {
                let error = opened.expect_err("refused").to_string();
                assert!(error.contains("`redis-tls` feature"), "{error}");
            }
        }
        assert!(RedisStore::open("redis://127.0.0.1:6379/0").is_ok());
        let error = RedisStore::open("http://127.0.0.1/")
            .unwrap_err()
            .to_string();
        assert!(error.contains("not a Redis URL"), "{error}");
    }
}
