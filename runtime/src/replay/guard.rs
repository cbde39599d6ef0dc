//! The engine's side of single use: claim a round before it runs, wait for a duplicate's first
//! response, keep the claim's lease alive while the round runs, and record its response.

use std::{
    convert::Infallible,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use rmcp::ErrorData;

use super::{Claim, Holder, Recorded, RecordedResponse, RoundKey, StoreError, StoreErrorKind};
use crate::{
    Engine,
    envelope::{self, Binding},
    log::Escaped,
    question::Rebuild,
};

/// A round this request holds: it runs it, then records the response.
pub(crate) struct Held {
    key: RoundKey,
    holder: Holder,
    expires_at: SystemTime,
    /// The record's number in the in-memory store, which finds it by that.
    at: Option<u64>,
}

impl Held {
    /// The record's number in the in-memory store.
    pub(crate) fn at(&self) -> Option<u64> {
        self.at
    }
}

/// How a guarded round starts.
pub(crate) enum Entered {
    /// This request runs the round.
    Won(Held),
    /// An earlier request ran it: its response, to send again.
    Replayed(RecordedResponse),
}

/// The longest pause between two looks at a round another request is running.
const MAX_PAUSE: Duration = Duration::from_millis(100);

/// The client sees this when the store fails; the reason goes to the log.
fn store_failed(engine: &Engine, tool: &str, key: &RoundKey, error: &StoreError) -> ErrorData {
    match error.kind() {
        StoreErrorKind::Full => {
            if let Some(before) = engine.inner.full_refusals.due(engine.now()) {
                tracing::warn!(tool = %Escaped(tool), round = %key, %error, refused_since_last_line = before, "mrtr: replay store full, round refused");
            }
            too_busy()
        }
        _ => {
            tracing::error!(tool = %Escaped(tool), round = %key, %error, "mrtr: replay store unavailable, round refused");
            internal()
        }
    }
}

fn internal() -> ErrorData {
    ErrorData::internal_error("the server could not run this request", None)
}

/// A new flow may start only if the store has room for it.
pub(crate) fn admit(engine: &Engine, tool: &str) -> Result<(), ErrorData> {
    engine.inner.store.admit_flow().map_err(|error| {
        if let Some(before) = engine.inner.full_refusals.due(engine.now()) {
            tracing::warn!(tool = %Escaped(tool), %error, refused_since_last_line = before, "mrtr: replay store full, new flow refused");
        }
        too_busy()
    })
}

fn too_busy() -> ErrorData {
    ErrorData::internal_error(
        "the server has too many calls in progress; try again later",
        None,
    )
}

/// When the record of a state that expires at `state_expires_at` (whole seconds on the engine's
/// clock) may go, on the store's clock: the time the state has left, from now, and the clock
/// skew allowed between instances. A store keeps time by the system clock (or Redis's), so an
/// engine clock that runs behind it must not shorten the record. `now` is the system clock's.
fn record_expiry(engine: &Engine, state_expires_at: u64, now: SystemTime) -> SystemTime {
    let state_expires = Duration::from_secs(state_expires_at);
    let kept_from = if engine.inner.system_clock {
        // The state's own expiry, read off no second clock: records made in the same second
        // then expire together, in the order they were made, which the in-memory store drops
        // from the front of its queue instead of sorting them.
        UNIX_EPOCH.checked_add(state_expires).map(|at| at.max(now))
    } else {
        let engine_now = engine.now().duration_since(UNIX_EPOCH).unwrap_or_default();
        now.checked_add(state_expires.saturating_sub(engine_now))
    };
    // `build` bounds the TTL and skew far below what a `SystemTime` holds.
    kept_from
        .and_then(|at| at.checked_add(engine.inner.clock_skew))
        .unwrap_or(now + Engine::MAX_TIME)
}

/// Makes the record of round `key` in the in-memory store as its state, which expires at
/// `state_expires_at` (Unix seconds), is sealed; the place the state carries to find it.
/// `by` is the record of the round sealing it, if it holds one. `None` for any other store.
pub(crate) fn reserve(
    engine: &Engine,
    key: RoundKey,
    state_expires_at: u64,
    by: Option<u64>,
) -> Option<u16> {
    let memory = engine.inner.memory.as_ref()?;
    // One clock read for the record's expiry and the store's.
    let now = SystemTime::now();
    memory.reserve_at(key, record_expiry(engine, state_expires_at, now), by, now)
}

/// Claims round `key`, whose state expires at `state_expires_at` (Unix seconds) and carries
/// `place`. Waits, up to the engine's bound, while another request runs it.
pub(crate) async fn enter(
    engine: &Engine,
    binding: &Binding<'_>,
    key: RoundKey,
    place: Option<u16>,
    state_expires_at: u64,
) -> Result<Entered, ErrorData> {
    let inner = &engine.inner;
    let holder = Holder::new().map_err(|error| {
        tracing::error!(%error, "mrtr: the system random source failed");
        internal()
    })?;
    // One clock read for the record's expiry and the claim's, read again after each pause.
    let mut wall = SystemTime::now();
    let expires_at = record_expiry(engine, state_expires_at, wall);
    // Set when a duplicate first finds the round running.
    let mut give_up = None;
    let mut pause = Duration::from_millis(2);
    loop {
        let claimed = match &inner.memory {
            Some(memory) => memory
                .claim_placed_at(
                    key,
                    place,
                    holder,
                    inner.lease,
                    expires_at,
                    Instant::now(),
                    wall,
                )
                .map(|(claim, at)| (claim, Some(at))),
            None => inner
                .store
                .claim(key, holder, inner.lease, expires_at)
                .await
                .map(|claim| (claim, None)),
        };
        match claimed {
            Ok((Claim::Won, at)) => {
                return Ok(Entered::Won(Held {
                    key,
                    holder,
                    expires_at,
                    at,
                }));
            }
            Ok((Claim::Done(recorded), _)) => {
                tracing::debug!(tool = %Escaped(binding.name), round = %key, "mrtr: duplicate request, sending the first response again");
                return replayed(engine, binding, &key, &recorded).map(Entered::Replayed);
            }
            Ok((Claim::Running, _))
                if Instant::now() + pause
                    <= *give_up.get_or_insert_with(|| Instant::now() + inner.duplicate_wait) =>
            {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(MAX_PAUSE);
                wall = SystemTime::now();
            }
            Ok((Claim::Running, _)) => {
                tracing::warn!(
                    tool = %Escaped(binding.name), round = %key, waited = ?inner.duplicate_wait,
                    "mrtr: a duplicate request gave up waiting for the first to finish"
                );
                return Err(ErrorData::internal_error(
                    "this request is already being answered; retry it later",
                    None,
                ));
            }
            Err(error) if error.kind() == StoreErrorKind::Expired => {
                inner.refusals.refused(engine.now(), binding.name, &error);
                return Err(crate::machine::invalid_state(binding.method));
            }
            Err(error) => {
                // The claim may still land (a timeout); drop it in the background, so that it
                // does not hold the round for a whole lease against the client's retry.
                let store = inner.store.clone();
                tokio::spawn(async move { store.release(key, holder).await });
                return Err(store_failed(engine, binding.name, &key, &error));
            }
        }
    }
}

fn replayed(
    engine: &Engine,
    binding: &Binding<'_>,
    key: &RoundKey,
    recorded: &Recorded,
) -> Result<RecordedResponse, ErrorData> {
    let sealed = match (recorded.response(), recorded.as_sealed()) {
        (Some(Ok(response)), _) => return Ok(response),
        (Some(Err(error)), _) => {
            tracing::error!(tool = %Escaped(binding.name), round = %key, error = %error.message, "mrtr: a recorded response could not be built again");
            return Err(internal());
        }
        (None, Some(sealed)) => sealed,
        (None, None) => return Err(internal()),
    };
    let opened = envelope::open_record(&engine.inner.keys, binding, key, sealed).map_err(|reason| {
        tracing::error!(tool = %Escaped(binding.name), round = %key, %reason, "mrtr: a recorded response does not open; was it sealed with a key this instance does not list (retired, or not rolled out here yet)?");
        internal()
    })?;
    serde_json::from_slice(&opened).map_err(|error| {
        tracing::error!(tool = %Escaped(binding.name), round = %key, %error, "mrtr: a recorded response does not decode");
        internal()
    })
}

/// Renews the lease of `held` while the round runs. Never returns: the round's future is
/// raced against it.
pub(crate) async fn keep_alive(engine: &Engine, held: &Held) -> Infallible {
    let inner = &engine.inner;
    let every = (inner.lease / 3).max(Duration::from_millis(10));
    loop {
        tokio::time::sleep(every).await;
        let renewed = match &inner.memory {
            Some(memory) => Ok(memory.renew_placed(held.key, held.at, held.holder, inner.lease)),
            None => inner.store.renew(held.key, held.holder, inner.lease).await,
        };
        match renewed {
            Ok(true) => {}
            // The store cannot tell which: a record held by another looks like one it lost.
            Ok(false) => tracing::warn!(
                round = %held.key,
                "mrtr: a round lost its claim: it outlived its lease and another request took \
                 it over (raise the lease if rounds run this long), or the store lost its claim \
                 (a Redis that restarted empty)"
            ),
            Err(error) => {
                tracing::warn!(round = %held.key, %error, "mrtr: could not renew a round's lease")
            }
        }
    }
}

/// Stores the response of `held` for its duplicates: as it is in a store in this process (its
/// questions as what `rebuild`s them, when there is that), else serialized and sealed. A failure is logged: the response still goes to this client,
/// and a retry runs the round again once the lease lapses.
pub(crate) async fn record(
    engine: &Engine,
    binding: &Binding<'_>,
    held: Held,
    response: &RecordedResponse,
    rebuild: Option<Rebuild>,
) {
    if let Some(memory) = &engine.inner.memory {
        let stored = memory.record_placed(
            held.key,
            held.at,
            held.holder,
            response,
            rebuild,
            held.expires_at,
        );
        return report_stored(binding.name, &held, stored);
    }
    let store = &engine.inner.store;
    let recorded = if store.keeps_sealed_bytes() {
        let sealed = serde_json::to_vec(response)
            .map_err(|error| error.to_string())
            .and_then(|json| {
                envelope::seal_record(&engine.inner.keys, binding, &held.key, &json)
                    .map_err(|_| "sealing failed".to_owned())
            });
        match sealed {
            Ok(sealed) => Recorded::sealed(sealed),
            Err(error) => {
                tracing::error!(tool = %Escaped(binding.name), round = %held.key, %error, "mrtr: could not record a response");
                return;
            }
        }
    } else {
        Recorded::in_process(response, rebuild)
    };
    match store
        .complete(held.key, held.holder, recorded.clone(), held.expires_at)
        .await
    {
        Err(error) => {
            tracing::warn!(
                tool = %Escaped(binding.name), round = %held.key, %error,
                "mrtr: could not record a response; trying again while the lease holds"
            );
            let (engine, tool) = (engine.clone(), binding.name.to_owned());
            tokio::spawn(async move { record_later(&engine, &tool, held, recorded).await });
        }
        stored => report_stored(binding.name, &held, stored),
    }
}

/// Tries again, for up to a lease, to record a response the store did not take: a store that
/// is back within that time still gives the round's duplicates its response (they wait for it
/// meanwhile), rather than running the round again once the lease lapses.
async fn record_later(engine: &Engine, tool: &str, held: Held, recorded: Recorded) {
    let give_up = Instant::now() + engine.inner.lease;
    let mut pause = Duration::from_millis(50);
    let mut stored = Err(StoreError::unavailable("not tried"));
    while Instant::now() + pause <= give_up {
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_secs(1));
        stored = engine
            .inner
            .store
            .complete(held.key, held.holder, recorded.clone(), held.expires_at)
            .await;
        if stored.is_ok() {
            break;
        }
    }
    match stored {
        Ok(true) => {
            tracing::info!(tool = %Escaped(tool), round = %held.key, "mrtr: recorded a response on a later try")
        }
        // The first try may have landed after all (a timeout), or the lease lapsed first.
        Ok(false) => tracing::warn!(
            tool = %Escaped(tool), round = %held.key,
            "mrtr: a later try to record a response found the round recorded, taken over, or \
             the store lost its claim (a Redis that restarted empty)"
        ),
        Err(_) => report_stored(tool, &held, stored),
    }
}

/// Logs a recording that did not land.
fn report_stored(tool: &str, held: &Held, stored: Result<bool, StoreError>) {
    match stored {
        Ok(true) => {}
        Ok(false) => tracing::warn!(
            tool = %Escaped(tool), round = %held.key,
            "mrtr: a round finished without its claim: its lease lapsed and another request \
             took it over, or the store lost its claim (a Redis that restarted empty)"
        ),
        Err(error) => tracing::error!(
            tool = %Escaped(tool), round = %held.key, %error,
            "mrtr: could not record a response within a lease; a retry of this state runs \
             the round again"
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{log::captured, replay::MemoryStore};

    fn engine_on(clock: Option<crate::engine::Clock>) -> Engine {
        let builder = Engine::builder()
            .keys_from_str("1:X2XQbUjbJfvYQXgBhUoZdeUD6eHcAwRctSvzddqmzfo=")
            .unwrap()
            .without_principal()
            .clock_skew(Duration::from_secs(5));
        match clock {
            Some(clock) => builder.clock(move || clock()),
            None => builder,
        }
        .build()
        .unwrap()
    }

    /// On the system clock, the records of states that expire in the same second all expire at
    /// that second (and the skew), read off no second clock: the in-memory store then drops them
    /// in the order they were made, without sorting.
    #[test]
    fn on_the_system_clock_a_record_expires_with_its_state_and_the_skew() {
        let engine = engine_on(None);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let state_expires_at = now + 600;
        let expected = UNIX_EPOCH + Duration::from_secs(state_expires_at + 5);
        for _ in 0..100 {
            assert_eq!(
                record_expiry(&engine, state_expires_at, SystemTime::now()),
                expected
            );
        }
        // A state that has just expired still gets its record for the skew, from now.
        let past = record_expiry(&engine, now - 60, SystemTime::now());
        assert!(
            past >= SystemTime::now() + Duration::from_secs(4),
            "{past:?}"
        );
    }

    /// An engine clock of its own may run apart from the system clock, which stores keep time
    /// by: the record keeps the time the state has left on the engine's clock, from now.
    #[test]
    fn on_a_clock_of_its_own_a_record_keeps_the_time_its_state_has_left() {
        let behind = Arc::new(|| SystemTime::now() - Duration::from_secs(3600));
        let engine = engine_on(Some(behind.clone()));
        let engine_now = behind().duration_since(UNIX_EPOCH).unwrap().as_secs();
        let before = SystemTime::now();
        let expiry = record_expiry(&engine, engine_now + 600, SystemTime::now());
        let left = expiry.duration_since(before).unwrap();
        assert!(
            left > Duration::from_secs(600) && left <= Duration::from_secs(606),
            "{left:?}"
        );
    }

    /// A flood of calls against a full store logs one line per interval, with a count.
    #[test]
    fn refusals_of_a_full_store_are_logged_once_per_interval() {
        let store = MemoryStore::with_capacity(10);
        let engine = Engine::builder()
            .keys_from_str("1:X2XQbUjbJfvYQXgBhUoZdeUD6eHcAwRctSvzddqmzfo=")
            .unwrap()
            .without_principal()
            .replay_store(store)
            .build()
            .unwrap();
        let memory = engine.inner.memory.clone().unwrap();
        let expires = SystemTime::now() + Duration::from_secs(600);
        for flow in 0..9u8 {
            let key = RoundKey {
                flow: [flow; 12],
                round: 1,
            };
            let holder = Holder::new().unwrap();
            let claim = memory.claim_now(key, holder, Duration::from_secs(10), expires);
            assert!(matches!(claim, Ok(Claim::Won)), "{claim:?}");
        }
        let logs = captured(|| {
            for _ in 0..1000 {
                assert!(admit(&engine, "pay").is_err());
            }
        });
        let lines: Vec<&str> = logs.lines().collect();
        assert_eq!(lines.len(), 1, "{logs}");
        assert!(lines[0].contains("new flow refused"), "{logs}");
        // Rounds refused while full share the count: no line until the interval is over.
        let full = StoreError::full("no room");
        let key = RoundKey {
            flow: [0; 12],
            round: 2,
        };
        let logs = captured(|| {
            for _ in 0..1000 {
                let error = store_failed(&engine, "pay", &key, &full);
                assert!(error.message.contains("too many calls"));
            }
        });
        assert_eq!(logs, "", "{logs}");
    }
}
