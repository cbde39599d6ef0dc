//! Where tasks live: [`TaskStore`], and [`MemoryTaskStore`] for one instance.

use std::{
    collections::HashMap,
    sync::{Mutex, MutexGuard},
    time::{Duration, Instant},
};

use crate::replay::{StoreError, async_trait};

/// Keeps each task's record, as opaque bytes, from its creation until its TTL runs out.
///
/// Every instance that serves a task's `tasks/get`, `tasks/update` or `tasks/cancel` must see
/// the same store: [`MemoryTaskStore`] (the default) for one instance,
/// [`RedisTaskStore`] (feature `redis`) for a fleet. Changes go through
/// [`replace`](TaskStore::replace), a compare-and-set, so that two instances never both resume
/// a task and a cancel is never lost.
///
#[doc = redis_task_store_link!()]
#[async_trait]
pub trait TaskStore: Send + Sync + 'static {
    /// Stores the record of a new task. `id` is fresh and random. The record expires `ttl`
    /// from now; a `ttl` under a millisecond counts as one (Redis's least). Fails if `id` still
    /// holds a live record, which stays as it was: records change only through
    /// [`replace`](TaskStore::replace).
    async fn create(&self, id: &str, record: &[u8], ttl: Duration) -> Result<(), StoreError>;

    /// The record of `id`; `None` if there is none or it expired.
    async fn get(&self, id: &str) -> Result<Option<Vec<u8>>, StoreError>;

    /// Replaces the record of `id` with `record` if it still is `expected`, keeping its
    /// expiry. `false` if it changed meanwhile or is gone.
    async fn replace(&self, id: &str, expected: &[u8], record: &[u8]) -> Result<bool, StoreError>;

    /// Whether other instances see this store's records. A running task then also watches its
    /// record, so that a cancel that reaches another instance stops it.
    fn is_shared(&self) -> bool {
        false
    }

    /// Whether a task may grow by `bytes` of a client's answers: `false` refuses the
    /// `tasks/update` that brings them. A store with no bound of its own always has room.
    fn has_room(&self, bytes: usize) -> bool {
        let _ = bytes;
        true
    }
}

/// Task records in this process's memory: the default, for one instance.
///
/// It holds at most [`capacity`](MemoryTaskStore::with_capacity) live tasks, and about
/// [`max_bytes`](MemoryTaskStore::max_bytes) of their records (a task keeps its call's
/// arguments, its pending answers and its result); a new task past either fails with `-32603`
/// and the reason in the log, and so does a `tasks/update` whose answers would pass the bytes.
/// Tasks already running may still grow past them with their results, to finish.
pub struct MemoryTaskStore {
    records: Mutex<Records>,
    capacity: usize,
    max_bytes: usize,
}

impl std::fmt::Debug for MemoryTaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryTaskStore")
            .field("capacity", &self.capacity)
            .field("max_bytes", &self.max_bytes)
            .finish_non_exhaustive()
    }
}

#[derive(Default)]
struct Records {
    by_id: HashMap<String, Record>,
    /// The bytes of every record held, expired ones until they are dropped.
    bytes: usize,
}

impl Records {
    fn drop_expired(&mut self, now: Instant) {
        let mut dropped = 0;
        self.by_id.retain(|_, record| {
            let live = record.expires > now;
            if !live {
                dropped += record.bytes.len();
            }
            live
        });
        self.bytes -= dropped;
    }
}

struct Record {
    bytes: Vec<u8>,
    expires: Instant,
}

impl Default for MemoryTaskStore {
    fn default() -> Self {
        Self::with_capacity(Self::DEFAULT_CAPACITY)
    }
}

impl MemoryTaskStore {
    /// How many live tasks the default store holds: 10,000.
    pub const DEFAULT_CAPACITY: usize = 10_000;

    /// A store that holds at most `capacity` live tasks (at least one).
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            records: Mutex::new(Records::default()),
            capacity: capacity.max(1),
            max_bytes: Self::DEFAULT_MAX_BYTES,
        }
    }

    /// How many bytes of records the default store holds: 256 MiB.
    pub const DEFAULT_MAX_BYTES: usize = 256 << 20;

    /// Holds about `bytes` of records (at least 64 KiB): past it, new tasks are refused.
    #[must_use]
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes.max(64 << 10);
        self
    }

    fn records(&self) -> MutexGuard<'_, Records> {
        // Nothing panics while holding the lock, so a poisoned lock is still consistent.
        self.records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl TaskStore for MemoryTaskStore {
    async fn create(&self, id: &str, record: &[u8], ttl: Duration) -> Result<(), StoreError> {
        self.create_at(id, record, ttl, Instant::now())
    }

    async fn get(&self, id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.get_at(id, Instant::now()))
    }

    async fn replace(&self, id: &str, expected: &[u8], record: &[u8]) -> Result<bool, StoreError> {
        Ok(self.replace_at(id, expected, record, Instant::now()))
    }

    fn has_room(&self, bytes: usize) -> bool {
        self.has_room_at(bytes, Instant::now())
    }
}

/// The shortest time a record is kept: Redis's `PX` takes whole milliseconds from 1.
const LEAST_TTL: Duration = Duration::from_millis(1);

/// The store's operations at `now`, so that its tests step a clock instead of sleeping.
impl MemoryTaskStore {
    fn create_at(
        &self,
        id: &str,
        record: &[u8],
        ttl: Duration,
        now: Instant,
    ) -> Result<(), StoreError> {
        let mut records = self.records();
        if records.by_id.get(id).is_some_and(|held| held.expires > now) {
            return Err(StoreError::unavailable(format!(
                "the task store already holds a task with the fresh id {id}"
            )));
        }
        let over = |records: &Records| {
            records.by_id.len() >= self.capacity || records.bytes + record.len() > self.max_bytes
        };
        if over(&records) {
            records.drop_expired(now);
        }
        if records.by_id.len() >= self.capacity {
            return Err(StoreError::full(format!(
                "the task store holds {} live tasks, its capacity; raise it with \
                 MemoryTaskStore::with_capacity or share a RedisTaskStore",
                self.capacity
            )));
        }
        if over(&records) {
            return Err(StoreError::full(format!(
                "the task store holds {} bytes of live tasks, and a new one of {} would pass \
                 its {}; raise it with MemoryTaskStore::max_bytes or share a RedisTaskStore",
                records.bytes,
                record.len(),
                self.max_bytes
            )));
        }
        records.bytes += record.len();
        let replaced = records.by_id.insert(
            id.to_owned(),
            Record {
                bytes: record.to_vec(),
                expires: crate::replay::at_most_a_century(now, ttl.max(LEAST_TTL)),
            },
        );
        if let Some(replaced) = replaced {
            records.bytes -= replaced.bytes.len();
        }
        Ok(())
    }

    fn get_at(&self, id: &str, now: Instant) -> Option<Vec<u8>> {
        let records = self.records();
        records
            .by_id
            .get(id)
            .filter(|record| record.expires > now)
            .map(|record| record.bytes.clone())
    }

    fn replace_at(&self, id: &str, expected: &[u8], record: &[u8], now: Instant) -> bool {
        let mut records = self.records();
        let Records { by_id, bytes } = &mut *records;
        match by_id.get_mut(id) {
            Some(found) if found.expires > now && found.bytes == expected => {
                *bytes = *bytes - found.bytes.len() + record.len();
                found.bytes = record.to_vec();
                true
            }
            _ => false,
        }
    }

    fn has_room_at(&self, bytes: usize, now: Instant) -> bool {
        let mut records = self.records();
        if records.bytes.saturating_add(bytes) > self.max_bytes {
            records.drop_expired(now);
        }
        records.bytes.saturating_add(bytes) <= self.max_bytes
    }
}

#[async_trait]
impl<T: TaskStore + ?Sized> TaskStore for std::sync::Arc<T> {
    async fn create(&self, id: &str, record: &[u8], ttl: Duration) -> Result<(), StoreError> {
        (**self).create(id, record, ttl).await
    }

    async fn get(&self, id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        (**self).get(id).await
    }

    async fn replace(&self, id: &str, expected: &[u8], record: &[u8]) -> Result<bool, StoreError> {
        (**self).replace(id, expected, record).await
    }

    fn is_shared(&self) -> bool {
        (**self).is_shared()
    }

    fn has_room(&self, bytes: usize) -> bool {
        (**self).has_room(bytes)
    }
}

#[cfg(test)]
mod against_a_model;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::StoreErrorKind;

    #[test]
    fn new_tasks_past_the_bytes_are_refused_until_records_expire_and_running_ones_grow() {
        let store = MemoryTaskStore::with_capacity(100).max_bytes(64 << 10);
        let record = vec![b'x'; 20 << 10];
        let hour = Duration::from_secs(3600);
        let short = Duration::from_millis(200);
        let start = Instant::now();
        store.create_at("a", &record, short, start).unwrap();
        store.create_at("b", &record, short, start).unwrap();
        store.create_at("c", &record, hour, start).unwrap();
        let refused = store.create_at("d", &record, hour, start).unwrap_err();
        assert_eq!(refused.kind(), StoreErrorKind::Full);
        assert!(refused.to_string().contains("max_bytes"), "{refused}");
        // A running task may still grow, to finish.
        let grown = vec![b'y'; 40 << 10];
        assert!(store.replace_at("c", &record, &grown, start));
        assert_eq!(store.get_at("c", start), Some(grown.clone()));
        assert!(
            !store.has_room_at(1, start),
            "no room for a client's answers"
        );
        assert!(!store.has_room_at(usize::MAX, start));
        // Once `a` and `b` expire, their bytes make room.
        let later = start + Duration::from_millis(300);
        store.create_at("d", &record, hour, later).unwrap();
        assert_eq!(store.records().bytes, grown.len() + record.len());
    }

    /// A create never overwrites a live task, as Redis's `SET NX` does not; once the task
    /// expired, its id takes a new one.
    #[test]
    fn a_create_on_a_live_id_is_refused_and_on_an_expired_one_succeeds() {
        let store = MemoryTaskStore::default();
        let start = Instant::now();
        let second = Duration::from_secs(1);
        store.create_at("a", b"first", second, start).unwrap();
        let refused = store
            .create_at("a", b"second", Duration::from_secs(60), start)
            .unwrap_err();
        assert_eq!(refused.kind(), StoreErrorKind::Unavailable);
        assert!(refused.to_string().contains("already holds"), "{refused}");
        assert_eq!(store.get_at("a", start), Some(b"first".to_vec()));
        let later = start + second;
        assert_eq!(store.get_at("a", later), None, "the first expired");
        store.create_at("a", b"third", second, later).unwrap();
        assert_eq!(store.get_at("a", later), Some(b"third".to_vec()));
        assert_eq!(store.records().bytes, b"third".len());
    }

    /// As in Redis, whose `PX` takes no less than a millisecond.
    #[test]
    fn a_ttl_under_a_millisecond_keeps_the_record_a_millisecond() {
        let store = MemoryTaskStore::default();
        let start = Instant::now();
        for (id, ttl) in [("zero", Duration::ZERO), ("nanos", Duration::from_nanos(5))] {
            store.create_at(id, b"task", ttl, start).unwrap();
            assert_eq!(store.get_at(id, start), Some(b"task".to_vec()), "{id}");
            let past = start + Duration::from_millis(1);
            assert_eq!(store.get_at(id, past), None, "{id}");
        }
    }
}
