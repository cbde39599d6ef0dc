//! The engine: the key ring, the state lifetime, the clock and the principal hook that every
//! `#[mrtr_tool]` of a server shares.

use std::{
    fmt,
    sync::{Arc, OnceLock},
    time::{Duration, SystemTime},
};

use base64::Engine as _;
use rmcp::{RoleServer, service::RequestContext};
use zeroize::Zeroizing;

use crate::envelope::KeyRing;

/// The environment variable [`Engine::from_env`] reads the sealing keys from.
///
/// Format: a comma-separated list of `ID:KEY`, newest first. `ID` is a number from 0 to 255
/// that names the key inside every state it seals; `KEY` is 32 random bytes in base64
/// (standard or URL-safe, padding optional). New states are sealed with the first key and
/// states sealed with any listed key still open, which is how keys rotate:
///
/// ```text
/// MRTR_KEYS="2:q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8w,1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
/// ```
///
/// Make a key with `head -c 32 /dev/urandom | base64`.
pub const KEYS_ENV: &str = "MRTR_KEYS";

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
    pub(crate) principal: Option<PrincipalFn>,
    pub(crate) max_state_bytes: usize,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("key_ids", &self.inner.keys.ids())
            .field("ttl", &self.inner.ttl)
            .field("max_state_bytes", &self.inner.max_state_bytes)
            .finish_non_exhaustive()
    }
}

/// A problem with the configured keys. Raised at startup, never per request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyError(String);

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KeyError {}

impl Engine {
    /// How long a state stays valid unless the builder says otherwise: 10 minutes.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(600);
    /// The largest `requestState` a round may produce unless the builder says otherwise.
    pub const DEFAULT_MAX_STATE_BYTES: usize = 16 * 1024;

    /// Starts an engine configuration.
    pub fn builder() -> EngineBuilder {
        EngineBuilder::default()
    }

    /// An engine with keys from [`KEYS_ENV`], or a random per-process key if it is unset.
    ///
    /// The random key works for a single instance only: a retry that reaches another instance,
    /// or the same one after a restart, is rejected. A warning says so in the log.
    pub fn from_env() -> Result<Engine, KeyError> {
        Self::builder().keys_from_env()?.build()
    }

    /// The process-wide engine built by [`Engine::from_env`] on first use.
    ///
    /// # Panics
    /// If [`KEYS_ENV`] is set but malformed. Call [`Engine::from_env`] at startup to turn that
    /// into an error you handle.
    pub fn global() -> &'static Engine {
        static GLOBAL: OnceLock<Engine> = OnceLock::new();
        GLOBAL.get_or_init(|| match Engine::from_env() {
            Ok(engine) => engine,
            Err(error) => panic!("mrtr: {KEYS_ENV} is invalid: {error}"),
        })
    }

    pub(crate) fn now(&self) -> SystemTime {
        (self.inner.clock)()
    }

    pub(crate) fn principal(&self, context: &RequestContext<RoleServer>) -> Option<String> {
        self.inner.principal.as_ref().and_then(|f| f(context))
    }
}

/// Configures an [`Engine`].
#[derive(Default)]
pub struct EngineBuilder {
    keys: Vec<(u8, Zeroizing<[u8; 32]>)>,
    ttl: Option<Duration>,
    clock: Option<Clock>,
    principal: Option<PrincipalFn>,
    max_state_bytes: Option<usize>,
    sign_only: bool,
}

impl EngineBuilder {
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
    pub fn keys_from_env(self) -> Result<Self, KeyError> {
        match std::env::var(KEYS_ENV) {
            Ok(spec) => self.keys_from_str(&spec),
            Err(std::env::VarError::NotPresent) => Ok(self),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(KeyError(format!("{KEYS_ENV} is not valid UTF-8")))
            }
        }
    }

    /// Adds keys written as in [`KEYS_ENV`]: `ID:BASE64,ID:BASE64`, newest first.
    pub fn keys_from_str(mut self, spec: &str) -> Result<Self, KeyError> {
        for (index, entry) in spec.split(',').map(str::trim).enumerate() {
            if entry.is_empty() {
                continue;
            }
            let (id, key) = entry.split_once(':').ok_or_else(|| {
                KeyError(format!(
                    "entry {} is not `ID:BASE64KEY` (e.g. `1:{}`)",
                    index + 1,
                    "A".repeat(43)
                ))
            })?;
            let id: u8 = id.trim().parse().map_err(|_| {
                KeyError(format!(
                    "entry {}: key id `{id}` is not a number from 0 to 255",
                    index + 1
                ))
            })?;
            let bytes = decode_key(key.trim()).ok_or_else(|| {
                KeyError(format!(
                    "entry {}: key {id} is not base64 of exactly 32 bytes \
                     (make one with `head -c 32 /dev/urandom | base64`)",
                    index + 1
                ))
            })?;
            self = self.key(id, bytes);
        }
        Ok(self)
    }

    /// How long a sealed state stays valid. Default: [`Engine::DEFAULT_TTL`].
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
    pub fn principal(
        mut self,
        principal: impl Fn(&RequestContext<RoleServer>) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.principal = Some(Arc::new(principal));
        self
    }

    /// The largest sealed `requestState` a round may produce. A round that would exceed it
    /// fails with an internal error naming the size, rather than sending it.
    pub fn max_state_bytes(mut self, bytes: usize) -> Self {
        self.max_state_bytes = Some(bytes);
        self
    }

    /// Builds the engine. Without any key it makes a random one and warns that several
    /// instances need a shared key.
    pub fn build(self) -> Result<Engine, KeyError> {
        let mut keys = self.keys;
        if keys.is_empty() {
            tracing::warn!(
                "mrtr: {KEYS_ENV} is not set, so requestState is sealed with a random key made \
                 for this process. Retries that reach another instance or a restarted one will \
                 be rejected. Give every instance the same {KEYS_ENV} to run more than one."
            );
            let mut key = Zeroizing::new([0u8; 32]);
            getrandom::getrandom(key.as_mut())
                .map_err(|e| KeyError(format!("the system random source failed: {e}")))?;
            keys.push((0, key));
        }
        let mut seen = [false; 256];
        for (id, _) in &keys {
            if std::mem::replace(&mut seen[usize::from(*id)], true) {
                return Err(KeyError(format!("key id {id} is listed twice")));
            }
        }
        Ok(Engine {
            inner: Arc::new(Inner {
                keys: if self.sign_only {
                    KeyRing::new(keys).sign_only()
                } else {
                    KeyRing::new(keys)
                },
                ttl: self.ttl.unwrap_or(Engine::DEFAULT_TTL),
                clock: self.clock.unwrap_or_else(|| Arc::new(SystemTime::now)),
                principal: self.principal,
                max_state_bytes: self
                    .max_state_bytes
                    .unwrap_or(Engine::DEFAULT_MAX_STATE_BYTES),
            }),
        })
    }
}

fn decode_key(text: &str) -> Option<[u8; 32]> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(text).ok())
        .and_then(|bytes| <[u8; 32]>::try_from(bytes.as_slice()).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY_A: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8";

    #[test]
    fn parses_a_key_list_newest_first() {
        let spec = format!("7:{KEY_A}, 3:{KEY_A}=");
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
        ];
        for (spec, expected) in cases {
            let error = Engine::builder().keys_from_str(spec).err().unwrap();
            assert!(error.to_string().contains(expected), "{spec}: {error}");
        }
    }

    #[test]
    fn the_documented_example_parses() {
        let spec = "2:q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8w,1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8";
        let engine = Engine::builder()
            .keys_from_str(spec)
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(engine.inner.keys.ids(), vec![2, 1]);
    }

    #[test]
    fn rejects_a_duplicate_id() {
        let spec = format!("1:{KEY_A},1:{KEY_A}");
        let error = Engine::builder()
            .keys_from_str(&spec)
            .unwrap()
            .build()
            .unwrap_err();
        assert!(error.to_string().contains("twice"));
    }
}
