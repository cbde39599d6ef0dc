//! The replay store of a single instance: a bounded map in memory.

use std::{
    cmp::Reverse,
    collections::{BinaryHeap, HashMap},
    sync::{Mutex, MutexGuard},
    time::{Duration, Instant, SystemTime},
};

use super::{Claim, Holder, Recorded, ReplayStore, RoundKey, StoreError};

/// Records in this process's memory: the default store, for one instance.
///
/// It holds at most [`capacity`](MemoryStore::with_capacity) records and never forgets one
/// before the state it guards expires. Past 90% of its capacity it refuses new flows, so that
/// flows in progress keep room to finish; when full it refuses new rounds too. Both come back
/// to the client as `-32603`, with the reason in the log.
///
/// Instances do not see each other's records: several instances need a shared store such as
/// [`RedisStore`](crate::replay::RedisStore).
pub struct MemoryStore {
    records: Mutex<Records>,
    capacity: usize,
}

#[derive(Default)]
struct Records {
    by_key: HashMap<RoundKey, Record>,
    /// Every record's expiry, soonest first, to drop expired records without a scan.
    expiring: BinaryHeap<Reverse<(SystemTime, RoundKey)>>,
}

struct Record {
    expires_at: SystemTime,
    state: RecordState,
}

enum RecordState {
    Running {
        holder: Holder,
        lease_until: Instant,
    },
    Done(Recorded),
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self::with_capacity(Self::DEFAULT_CAPACITY)
    }
}

impl MemoryStore {
    /// How many records the default store holds: 100,000.
    pub const DEFAULT_CAPACITY: usize = 100_000;

    /// A store that holds at most `capacity` records (at least one).
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            records: Mutex::new(Records::default()),
            capacity: capacity.max(1),
        }
    }

    /// How many records it holds now, expired ones aside.
    pub fn len(&self) -> usize {
        let mut records = self.records();
        records.drop_expired(SystemTime::now());
        records.by_key.len()
    }

    /// Whether it holds no record.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn records(&self) -> MutexGuard<'_, Records> {
        // No code panics while holding the lock, so a poisoned lock is still consistent.
        self.records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Past this many records, new flows are refused.
    fn admission_limit(&self) -> usize {
        self.capacity - self.capacity / 10
    }
}

impl Records {
    fn drop_expired(&mut self, now: SystemTime) {
        while let Some(Reverse((expires_at, key))) = self.expiring.peek().copied() {
            if expires_at > now {
                break;
            }
            self.expiring.pop();
            // A record's expiry only moves later; a stale heap entry leaves the record alone.
            if self
                .by_key
                .get(&key)
                .is_some_and(|record| record.expires_at <= now)
            {
                self.by_key.remove(&key);
            }
        }
    }

    fn keep_until(&mut self, key: RoundKey, expires_at: SystemTime) {
        self.expiring.push(Reverse((expires_at, key)));
    }
}

#[async_trait::async_trait]
impl ReplayStore for MemoryStore {
    async fn claim(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
        expires_at: SystemTime,
    ) -> Result<Claim, StoreError> {
        let now = Instant::now();
        let mut records = self.records();
        records.drop_expired(SystemTime::now());
        let running = RecordState::Running {
            holder,
            lease_until: now + lease,
        };
        let full = records.by_key.len() >= self.capacity;
        match records.by_key.get_mut(&key) {
            Some(record) => match &record.state {
                RecordState::Done(response) => Ok(Claim::Done(response.clone())),
                RecordState::Running { lease_until, .. } if *lease_until > now => {
                    Ok(Claim::Running)
                }
                RecordState::Running { .. } => {
                    record.state = running;
                    Ok(Claim::Won)
                }
            },
            None if full => Err(StoreError::full(format!(
                "the in-memory replay store holds its capacity of {} records; raise it with \
                 MemoryStore::with_capacity, shorten the state TTL, or use a shared store",
                self.capacity
            ))),
            None => {
                records.by_key.insert(
                    key,
                    Record {
                        expires_at,
                        state: running,
                    },
                );
                records.keep_until(key, expires_at);
                Ok(Claim::Won)
            }
        }
    }

    async fn renew(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let mut records = self.records();
        match records.by_key.get_mut(&key).map(|record| &mut record.state) {
            Some(RecordState::Running {
                holder: current,
                lease_until,
            }) if *current == holder => {
                *lease_until = Instant::now() + lease;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn complete(
        &self,
        key: RoundKey,
        holder: Holder,
        response: Recorded,
        expires_at: SystemTime,
    ) -> Result<bool, StoreError> {
        let mut records = self.records();
        let Some(record) = records.by_key.get_mut(&key) else {
            return Ok(false);
        };
        if !matches!(record.state, RecordState::Running { holder: current, .. } if current == holder)
        {
            return Ok(false);
        }
        record.state = RecordState::Done(response);
        if expires_at > record.expires_at {
            record.expires_at = expires_at;
            records.keep_until(key, expires_at);
        }
        Ok(true)
    }

    async fn release(&self, key: RoundKey, holder: Holder) -> Result<bool, StoreError> {
        let mut records = self.records();
        let held = matches!(
            records.by_key.get(&key).map(|record| &record.state),
            Some(RecordState::Running { holder: current, .. }) if *current == holder
        );
        if held {
            records.by_key.remove(&key);
        }
        Ok(held)
    }

    fn keeps_sealed_bytes(&self) -> bool {
        false
    }

    fn is_shared(&self) -> bool {
        false
    }

    fn admit_flow(&self) -> Result<(), StoreError> {
        let mut records = self.records();
        records.drop_expired(SystemTime::now());
        if records.by_key.len() >= self.admission_limit() {
            return Err(StoreError::full(format!(
                "the in-memory replay store holds {} of its {} records, so new flows wait for \
                 room; raise it with MemoryStore::with_capacity, shorten the state TTL, or use \
                 a shared store",
                records.by_key.len(),
                self.capacity
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::StoreErrorKind;

    fn key(round: u32) -> RoundKey {
        RoundKey {
            flow: [round as u8; 12],
            round,
        }
    }

    fn later(seconds: u64) -> SystemTime {
        SystemTime::now() + Duration::from_secs(seconds)
    }

    const LEASE: Duration = Duration::from_secs(10);

    fn bytes(text: &[u8]) -> Recorded {
        Recorded::sealed(text.to_vec())
    }

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn a_round_is_won_once_then_answers_its_response() {
        block_on(async {
            let store = MemoryStore::default();
            let (a, b) = (Holder([1; 16]), Holder([2; 16]));
            assert_eq!(
                store.claim(key(1), a, LEASE, later(60)).await,
                Ok(Claim::Won)
            );
            assert_eq!(
                store.claim(key(1), b, LEASE, later(60)).await,
                Ok(Claim::Running)
            );
            assert_eq!(
                store.complete(key(1), b, bytes(b"no"), later(60)).await,
                Ok(false)
            );
            assert_eq!(
                store.complete(key(1), a, bytes(b"yes"), later(60)).await,
                Ok(true)
            );
            assert_eq!(
                store.claim(key(1), b, LEASE, later(60)).await,
                Ok(Claim::Done(bytes(b"yes")))
            );
        });
    }

    #[test]
    fn a_lapsed_lease_hands_the_round_over() {
        block_on(async {
            let store = MemoryStore::default();
            let (a, b) = (Holder([1; 16]), Holder([2; 16]));
            assert_eq!(
                store.claim(key(1), a, Duration::ZERO, later(60)).await,
                Ok(Claim::Won)
            );
            assert_eq!(
                store.claim(key(1), b, LEASE, later(60)).await,
                Ok(Claim::Won)
            );
            assert_eq!(store.renew(key(1), a, LEASE).await, Ok(false));
            assert_eq!(store.renew(key(1), b, LEASE).await, Ok(true));
            assert_eq!(
                store.complete(key(1), a, bytes(b"late"), later(60)).await,
                Ok(false)
            );
        });
    }

    #[test]
    fn records_last_until_their_state_expires_and_no_longer() {
        block_on(async {
            let store = MemoryStore::default();
            let holder = Holder([1; 16]);
            let soon = SystemTime::now() + Duration::from_millis(150);
            store.claim(key(1), holder, LEASE, soon).await.unwrap();
            store
                .complete(key(1), holder, bytes(b"r"), soon)
                .await
                .unwrap();
            store.claim(key(2), holder, LEASE, later(60)).await.unwrap();
            assert_eq!(store.len(), 2);
            tokio::time::sleep(Duration::from_millis(200)).await;
            assert_eq!(store.len(), 1);
        });
    }

    #[test]
    fn a_full_store_refuses_new_flows_first_then_new_rounds_and_forgets_nothing() {
        block_on(async {
            let store = MemoryStore::with_capacity(10);
            let holder = Holder([1; 16]);
            for round in 0..9 {
                store.admit_flow().unwrap();
                store
                    .claim(key(round), holder, LEASE, later(60))
                    .await
                    .unwrap();
            }
            let refused = store.admit_flow().unwrap_err();
            assert_eq!(refused.kind(), StoreErrorKind::Full);
            assert!(refused.to_string().contains("with_capacity"), "{refused}");
            // Flows in progress still have room, up to the capacity.
            assert_eq!(
                store.claim(key(9), holder, LEASE, later(60)).await,
                Ok(Claim::Won)
            );
            let full = store
                .claim(key(10), holder, LEASE, later(60))
                .await
                .unwrap_err();
            assert_eq!(full.kind(), StoreErrorKind::Full);
            // Nothing was dropped to make room.
            for round in 0..10 {
                assert_eq!(
                    store.claim(key(round), holder, LEASE, later(60)).await,
                    Ok(Claim::Running)
                );
            }
        });
    }
}
