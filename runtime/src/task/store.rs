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
/// [`RedisTaskStore`](crate::task::RedisTaskStore) for a fleet. Changes go through
/// [`replace`](TaskStore::replace), a compare-and-set, so that two instances never both resume
/// a task and a cancel is never lost.
#[async_trait]
pub trait TaskStore: Send + Sync + 'static {
    /// Stores the record of a new task. `id` is fresh and random. The record expires `ttl`
    /// from now.
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
}

/// Task records in this process's memory: the default, for one instance.
///
/// It holds at most [`capacity`](MemoryTaskStore::with_capacity) live tasks; a new task past
/// that fails with `-32603` and the reason in the log.
pub struct MemoryTaskStore {
    records: Mutex<HashMap<String, Record>>,
    capacity: usize,
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
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            records: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
        }
    }

    fn records(&self) -> MutexGuard<'_, HashMap<String, Record>> {
        // Nothing panics while holding the lock, so a poisoned lock is still consistent.
        self.records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl TaskStore for MemoryTaskStore {
    async fn create(&self, id: &str, record: &[u8], ttl: Duration) -> Result<(), StoreError> {
        let now = Instant::now();
        let mut records = self.records();
        if records.len() >= self.capacity {
            records.retain(|_, record| record.expires > now);
        }
        if records.len() >= self.capacity {
            return Err(StoreError::full(format!(
                "the task store holds {} live tasks, its capacity; raise it with \
                 MemoryTaskStore::with_capacity or share a RedisTaskStore",
                self.capacity
            )));
        }
        records.insert(
            id.to_owned(),
            Record {
                bytes: record.to_vec(),
                expires: now + ttl,
            },
        );
        Ok(())
    }

    async fn get(&self, id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let records = self.records();
        Ok(records
            .get(id)
            .filter(|record| record.expires > Instant::now())
            .map(|record| record.bytes.clone()))
    }

    async fn replace(&self, id: &str, expected: &[u8], record: &[u8]) -> Result<bool, StoreError> {
        let mut records = self.records();
        match records.get_mut(id) {
            Some(found) if found.expires > Instant::now() && found.bytes == expected => {
                found.bytes = record.to_vec();
                Ok(true)
            }
            _ => Ok(false),
        }
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
}
