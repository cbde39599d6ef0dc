//! `MemoryStore` against a model of its contract: a map from key to record, with no queue,
//! heap, index, places or shared bytes. Random sequences of reservations, claims (at a
//! reserved record's place, or through the index), renewals, completions, releases and clock
//! steps must get the same answers from both, and the store's queue must stay consistent and
//! empty out once everything expired.

use std::collections::HashMap;

use proptest::prelude::*;

use super::*;
use crate::replay::{StoreErrorKind, block_on, unique_bytes};

/// Milliseconds since the start of a run, on both clocks.
type Millis = u64;

#[derive(Debug, Clone)]
enum Op {
    /// As the state of `key` is sealed; the engine never reserves a key that has a record.
    Reserve {
        key: RoundKey,
        expires: Millis,
    },
    Claim {
        key: RoundKey,
        holder: u8,
        lease: Millis,
        expires: Millis,
    },
    Renew {
        key: RoundKey,
        holder: u8,
        lease: Millis,
    },
    Complete {
        key: RoundKey,
        holder: u8,
        response_len: usize,
        expires: Millis,
        /// At the number the claim found, as the engine completes, or by key, as the trait.
        at_claimed: bool,
    },
    Release {
        key: RoundKey,
        holder: u8,
    },
    Admit,
    Len,
    Wait(Millis),
}

#[derive(Debug, Clone, PartialEq)]
enum ModelState {
    Reserved,
    Running { holder: u8, lease_until: Millis },
    Done(Vec<u8>),
}

#[derive(Debug, Clone)]
struct ModelRecord {
    state: ModelState,
    expires: Millis,
}

/// The contract, written as plainly as it reads. Expired records go when the store looks for
/// room or counts (claim, admit, len), as the store drops them.
struct Model {
    records: HashMap<RoundKey, ModelRecord>,
    capacity: usize,
}

impl Model {
    fn expire(&mut self, now: Millis) {
        self.records.retain(|_, record| record.expires > now);
    }

    fn claim(
        &mut self,
        key: RoundKey,
        holder: u8,
        lease: Millis,
        expires: Millis,
        now: Millis,
    ) -> Result<Claim, ()> {
        self.expire(now);
        let running = ModelState::Running {
            holder,
            lease_until: now + lease,
        };
        let full = self.kept() >= self.capacity;
        match self.records.get_mut(&key) {
            None if full => Err(()),
            // A reserved record becomes one kept: it needs the room a new one does.
            Some(ModelRecord {
                state: ModelState::Reserved,
                ..
            }) if full => Err(()),
            None => {
                self.records.insert(
                    key,
                    ModelRecord {
                        state: running,
                        expires,
                    },
                );
                Ok(Claim::Won)
            }
            Some(record) => match &record.state {
                ModelState::Running { lease_until, .. } if *lease_until > now => Ok(Claim::Running),
                ModelState::Reserved | ModelState::Running { .. } => {
                    record.state = running;
                    Ok(Claim::Won)
                }
                ModelState::Done(bytes) => Ok(Claim::Done(Recorded::sealed(bytes.clone()))),
            },
        }
    }

    /// Records kept: all but those reserved.
    fn kept(&self) -> usize {
        self.records.len() - self.reserved()
    }

    fn reserved(&self) -> usize {
        let reserved = |record: &&ModelRecord| record.state == ModelState::Reserved;
        self.records.values().filter(reserved).count()
    }

    /// Whether `key` was reserved; `false` if the reservations are at the capacity.
    fn reserve(&mut self, key: RoundKey, expires: Millis, now: Millis) -> bool {
        self.expire(now);
        if self.reserved() >= self.capacity {
            return false;
        }
        let reserved = ModelRecord {
            state: ModelState::Reserved,
            expires,
        };
        self.records.insert(key, reserved);
        true
    }

    fn held(&mut self, key: RoundKey, holder: u8) -> Option<&mut ModelRecord> {
        self.records.get_mut(&key).filter(|record| {
            matches!(record.state, ModelState::Running { holder: current, .. } if current == holder)
        })
    }

    fn renew(&mut self, key: RoundKey, holder: u8, lease: Millis, now: Millis) -> bool {
        let Some(record) = self.held(key, holder) else {
            return false;
        };
        record.state = ModelState::Running {
            holder,
            lease_until: now + lease,
        };
        true
    }

    fn complete(&mut self, key: RoundKey, holder: u8, response: Vec<u8>, expires: Millis) -> bool {
        let Some(record) = self.held(key, holder) else {
            return false;
        };
        record.state = ModelState::Done(response);
        record.expires = record.expires.max(expires);
        true
    }

    fn release(&mut self, key: RoundKey, holder: u8) -> bool {
        if self.held(key, holder).is_none() {
            return false;
        }
        self.records.remove(&key);
        true
    }

    fn admit(&mut self, now: Millis) -> Result<(), ()> {
        self.expire(now);
        if self.kept() >= self.capacity - self.capacity / 10 {
            return Err(());
        }
        Ok(())
    }

    fn len(&mut self, now: Millis) -> usize {
        self.expire(now);
        self.kept()
    }
}

/// The store's own bookkeeping: every record's bytes follow the one before's, the index points
/// at live records of its keys, and every live record is indexed.
fn check_queue(records: &Records) -> Result<(), TestCaseError> {
    let mut at = records.first_byte;
    for (offset, entry) in records.queue.iter().enumerate() {
        prop_assert_eq!(
            entry.bytes_at,
            at,
            "record {} does not follow its bytes",
            offset
        );
        at += entry.bytes_len as u64;
        let number = records.first + offset as u64;
        if entry.indexed && entry.state.is_kept() {
            prop_assert_eq!(records.by_key.get(&entry.key), Some(&number));
        }
    }
    prop_assert_eq!(at - records.first_byte, records.bytes.len() as u64);
    for (key, number) in &records.by_key {
        prop_assert!(*number >= records.first);
        let entry = records.entry(*number);
        prop_assert!(entry.indexed && entry.state.is_kept() && entry.key == *key);
    }
    let kept = records
        .queue
        .iter()
        .filter(|entry| entry.state.is_kept())
        .count();
    prop_assert_eq!(records.kept, kept);
    let reserved = |entry: &&Entry| matches!(entry.state, RecordState::Reserved);
    prop_assert_eq!(
        records.reserved,
        records.queue.iter().filter(reserved).count()
    );
    Ok(())
}

fn keys() -> impl Strategy<Value = RoundKey> {
    (0u8..4, 1u32..4).prop_map(|(flow, round)| RoundKey {
        flow: [flow; 12],
        round,
    })
}

fn ops() -> impl Strategy<Value = Op> {
    let holder = 0u8..3;
    let lease = 0u64..300;
    let expires = 1u64..2_000;
    prop_oneof![
        4 => (keys(), holder.clone(), lease.clone(), expires.clone()).prop_map(
            |(key, holder, lease, expires)| Op::Claim { key, holder, lease, expires }
        ),
        1 => (keys(), holder.clone(), lease).prop_map(|(key, holder, lease)| Op::Renew {
            key,
            holder,
            lease
        }),
        3 => (keys(), holder.clone(), 0usize..200, expires.clone(), any::<bool>()).prop_map(
            |(key, holder, response_len, expires, at_claimed)| Op::Complete {
                key,
                holder,
                response_len,
                expires,
                at_claimed,
            }
        ),
        2 => (keys(), expires).prop_map(|(key, expires)| Op::Reserve { key, expires }),
        1 => (keys(), holder).prop_map(|(key, holder)| Op::Release { key, holder }),
        1 => Just(Op::Admit),
        1 => Just(Op::Len),
        2 => (0u64..400).prop_map(Op::Wait),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn the_store_answers_as_its_contract_says(
        capacity in 1usize..8,
        run in prop::collection::vec(ops(), 1..80),
    ) {
        let store = MemoryStore::with_capacity(capacity);
        let mut model = Model { records: HashMap::new(), capacity };
        let (start, start_wall) = (Instant::now(), SystemTime::now());
        let instant = |at: Millis| start + Duration::from_millis(at);
        let wall = |at: Millis| start_wall + Duration::from_millis(at);
        let holder = |index: u8| Holder([index; 16]);
        let mut now: Millis = 0;
        // The place each reserved key's state carries, and the record each claim won.
        let mut places: HashMap<RoundKey, u16> = HashMap::new();
        let mut claimed: HashMap<(RoundKey, u8), u64> = HashMap::new();
        for (serial, op) in run.into_iter().enumerate() {
            match op {
                Op::Reserve { key, expires } => {
                    if model.len(now) != store.len_at(wall(now)) || model.records.contains_key(&key) {
                        continue;
                    }
                    let got = store.reserve_at(key, wall(now + expires), None, wall(now));
                    prop_assert_eq!(got.is_some(), model.reserve(key, now + expires, now), "{:?}", op);
                    if let Some(place) = got {
                        places.insert(key, place);
                    }
                }
                Op::Claim { key, holder: who, lease, expires } => {
                    let lease_time = Duration::from_millis(lease);
                    let got = store
                        .claim_placed_at(key, places.get(&key).copied(), holder(who), lease_time, wall(now + expires), instant(now), wall(now))
                        .map(|(claim, at)| {
                            if claim == Claim::Won {
                                claimed.insert((key, who), at);
                            }
                            claim
                        })
                        .map_err(|error| error.kind());
                    let want = model
                        .claim(key, who, lease, now + expires, now)
                        .map_err(|()| StoreErrorKind::Full);
                    prop_assert_eq!(got, want, "{:?}", op);
                }
                Op::Renew { key, holder: who, lease } => {
                    let at = claimed.get(&(key, who)).copied();
                    let got = store.renew_at(key, at, holder(who), Duration::from_millis(lease), instant(now));
                    prop_assert_eq!(got, model.renew(key, who, lease, now), "{:?}", op);
                }
                Op::Complete { key, holder: who, response_len, expires, at_claimed } => {
                    let bytes = unique_bytes(response_len, serial);
                    let got = if at_claimed || places.contains_key(&key) {
                        let at = claimed.get(&(key, who)).copied();
                        let parts = [&bytes[..]];
                        store.finish(key, at, holder(who), wall(now + expires), RecordState::Sealed, Ok(&parts))
                    } else {
                        block_on(store.complete(
                            key,
                            holder(who),
                            Recorded::sealed(bytes.clone()),
                            wall(now + expires),
                        ))
                    };
                    prop_assert_eq!(got, Ok(model.complete(key, who, bytes, now + expires)), "{:?}", op);
                }
                // The engine releases only a round whose claim failed, never one at a place.
                Op::Release { key, .. } if places.contains_key(&key) => {}
                Op::Release { key, holder: who } => {
                    let got = block_on(store.release(key, holder(who)));
                    prop_assert_eq!(got, Ok(model.release(key, who)), "{:?}", op);
                }
                Op::Admit => {
                    let got = store.admit_flow_at(wall(now)).map_err(|error| error.kind());
                    prop_assert_eq!(got, model.admit(now).map_err(|()| StoreErrorKind::Full));
                }
                Op::Len => prop_assert_eq!(store.len_at(wall(now)), model.len(now)),
                Op::Wait(millis) => now += millis,
            }
            check_queue(&store.records())?;
        }
        // Once every state expired, nothing is left behind.
        let end = now + 10_000;
        prop_assert_eq!(store.len_at(wall(end)), 0);
        let records = store.records();
        prop_assert!(records.queue.is_empty() && records.bytes.is_empty() && records.early.is_empty());
    }
}
