//! `MemoryTaskStore` against a model of its contract: a map from id to record and its expiry,
//! where only live records count. Random creations, reads, compare-and-sets, room checks and
//! clock steps must get the same answers from both, and the store's byte count must always
//! be the sum of the records it holds.

use std::collections::HashMap;

use proptest::prelude::*;

use super::*;
use crate::replay::{StoreErrorKind, unique_bytes};

/// Milliseconds since the start of a run.
type Millis = u64;

#[derive(Debug, Clone)]
enum Op {
    /// A new task: ids are fresh, as the engine's random ones are.
    Create {
        len: usize,
        ttl: Millis,
    },
    Get {
        task: usize,
    },
    /// Replaces a task's record, expecting what it holds (`stale: false`) or an older one.
    Replace {
        task: usize,
        stale: bool,
        len: usize,
    },
    HasRoom {
        bytes: usize,
    },
    Wait(Millis),
}

/// Why a new task is refused: the store says which bound to raise.
#[derive(Debug, PartialEq)]
enum Refused {
    Capacity,
    Bytes,
}

impl Refused {
    fn of(error: StoreError) -> Result<Self, String> {
        let message = error.to_string();
        match error.kind() {
            StoreErrorKind::Full if message.contains("with_capacity") => Ok(Self::Capacity),
            StoreErrorKind::Full if message.contains("max_bytes") => Ok(Self::Bytes),
            _ => Err(message),
        }
    }
}

struct ModelRecord {
    bytes: Vec<u8>,
    previous: Vec<u8>,
    expires: Millis,
}

/// The contract as the docs state it: at most `capacity` live tasks and `max_bytes` of live
/// records for a new one; a running task may grow past the bytes; expired records are gone.
struct Model {
    records: HashMap<String, ModelRecord>,
    capacity: usize,
    max_bytes: usize,
}

impl Model {
    fn live(&self, now: Millis) -> impl Iterator<Item = &ModelRecord> {
        self.records
            .values()
            .filter(move |record| record.expires > now)
    }

    fn live_bytes(&self, now: Millis) -> usize {
        self.live(now).map(|record| record.bytes.len()).sum()
    }

    fn create(
        &mut self,
        id: String,
        bytes: Vec<u8>,
        ttl: Millis,
        now: Millis,
    ) -> Result<(), Refused> {
        if self.live(now).count() >= self.capacity {
            return Err(Refused::Capacity);
        }
        if self.live_bytes(now) + bytes.len() > self.max_bytes {
            return Err(Refused::Bytes);
        }
        let record = ModelRecord {
            previous: bytes.clone(),
            bytes,
            expires: now + ttl,
        };
        self.records.insert(id, record);
        Ok(())
    }

    fn get(&self, id: &str, now: Millis) -> Option<Vec<u8>> {
        let record = self.records.get(id)?;
        (record.expires > now).then(|| record.bytes.clone())
    }

    fn replace(&mut self, id: &str, expected: &[u8], bytes: Vec<u8>, now: Millis) -> bool {
        match self.records.get_mut(id) {
            Some(record) if record.expires > now && record.bytes == expected => {
                record.previous = std::mem::replace(&mut record.bytes, bytes);
                true
            }
            _ => false,
        }
    }

    fn has_room(&self, bytes: usize, now: Millis) -> bool {
        self.live_bytes(now).saturating_add(bytes) <= self.max_bytes
    }
}

/// Sizes around the store's least bound of 64 KiB, so a run reaches it in a few tasks.
fn lens() -> impl Strategy<Value = usize> {
    prop_oneof![0usize..64, (8usize..40).prop_map(|kib| kib << 10)]
}

fn ops() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (lens(), 1u64..2_000).prop_map(|(len, ttl)| Op::Create { len, ttl }),
        2 => (0usize..16).prop_map(|task| Op::Get { task }),
        3 => (0usize..16, any::<bool>(), lens())
            .prop_map(|(task, stale, len)| Op::Replace { task, stale, len }),
        1 => prop_oneof![lens(), Just(usize::MAX)].prop_map(|bytes| Op::HasRoom { bytes }),
        2 => (0u64..600).prop_map(Op::Wait),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn the_store_answers_as_its_contract_says(
        capacity in 1usize..8,
        max_kib in 64usize..160,
        run in prop::collection::vec(ops(), 1..60),
    ) {
        let max_bytes = max_kib << 10;
        let store = MemoryTaskStore::with_capacity(capacity).max_bytes(max_bytes);
        let mut model = Model { records: HashMap::new(), capacity, max_bytes };
        let start = Instant::now();
        let instant = |at: Millis| start + Duration::from_millis(at);
        let mut ids: Vec<String> = Vec::new();
        let mut now: Millis = 0;
        for (serial, op) in run.into_iter().enumerate() {
            match op {
                Op::Create { len, ttl } => {
                    let id = format!("task-{serial}");
                    let bytes = unique_bytes(len, serial);
                    let got = store
                        .create_at(&id, &bytes, Duration::from_millis(ttl), instant(now))
                        .map_err(Refused::of);
                    let want = model.create(id.clone(), bytes, ttl, now).map_err(Ok);
                    prop_assert_eq!(&got, &want, "{:?}", op);
                    if got.is_ok() {
                        ids.push(id);
                    }
                }
                Op::Get { task } => {
                    let Some(id) = ids.get(task) else { continue };
                    prop_assert_eq!(store.get_at(id, instant(now)), model.get(id, now), "{:?}", op);
                }
                Op::Replace { task, stale, len } => {
                    let Some(id) = ids.get(task) else { continue };
                    let held = &model.records[id];
                    let expected = if stale { held.previous.clone() } else { held.bytes.clone() };
                    let bytes = unique_bytes(len, serial);
                    let got = store.replace_at(id, &expected, &bytes, instant(now));
                    prop_assert_eq!(got, model.replace(id, &expected, bytes, now), "{:?}", op);
                }
                Op::HasRoom { bytes } => {
                    let got = store.has_room_at(bytes, instant(now));
                    prop_assert_eq!(got, model.has_room(bytes, now), "{:?}", op);
                }
                Op::Wait(millis) => now += millis,
            }
            let records = store.records();
            let held: usize = records.by_id.values().map(|record| record.bytes.len()).sum();
            prop_assert_eq!(records.bytes, held, "the byte count drifted");
            prop_assert!(records.by_id.keys().all(|id| model.records.contains_key(id)));
        }
        // Once every task expired, a store at capacity still takes a new one.
        let end = now + 10_000;
        for serial in 0..capacity {
            let id = format!("after-{serial}");
            prop_assert!(store.create_at(&id, b"task", Duration::from_secs(1), instant(end)).is_ok());
        }
        prop_assert_eq!(store.records().by_id.len(), capacity);
    }
}
