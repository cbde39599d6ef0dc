//! The replay store of a single instance: records in this process's memory, kept in the order
//! they were made, so that they expire from the front.
//!
//! A state the engine hands out carries the low bits of its record's number (the record is
//! reserved as the state is sealed), so that claiming it needs no hash index: writing to an
//! index slot last touched a TTL ago was a third of the guard's time. States without a place
//! (from another instance, from before a restart, or when reservations are full) go through
//! the index.
//!
//! A record holds no allocation of its own in the common case. What it answers duplicates with
//! sits in one byte queue shared by all records: its questions' bytes and its state, or any
//! other response as JSON. Records that each held a few blocks of their own for a whole TTL
//! fragmented glibc's heap among the requests' short-lived blocks, which cost more than the
//! guard's own work; see BENCHMARKS.md.

use std::{
    cmp::Reverse,
    collections::{BinaryHeap, HashMap, VecDeque, hash_map::Entry as Slot},
    sync::{Mutex, MutexGuard},
    time::{Duration, Instant, SystemTime},
};

use rmcp::{ErrorData, model::MetaObject};

use super::{
    Claim, Holder, Recorded, RecordedForm, RecordedResponse, ReplayStore, RoundKey, StoreError,
};
use crate::{
    log::RefusalLog,
    question::{KeptQuestions, Rebuild},
};

/// Records in this process's memory: the default store, for one instance.
///
/// It holds at most [`capacity`](MemoryStore::with_capacity) records, and about
/// [`max_bytes`](MemoryStore::max_bytes) of what they answer duplicates with, and never forgets
/// one before the state it guards expires. Past 90% of either it refuses new flows, so that
/// flows in progress keep room to finish; when full it refuses new rounds too. Both come back
/// to the client as `-32603`, with the reason in the log. Records reserved for states handed
/// out and not claimed yet have a capacity of their own, as large. A response larger than a
/// sixteenth of `max_bytes` is not kept: its round is still recorded, and a duplicate gets an
/// error saying so instead of the round running again.
///
/// Instances do not see each other's records: several instances need a shared store such as
/// [`RedisStore`] (feature `redis`).
///
#[doc = redis_store_link!()]
pub struct MemoryStore {
    records: Mutex<Records>,
    capacity: usize,
    max_bytes: usize,
    /// Responses too large to keep, logged once a minute.
    unkept: RefusalLog,
}

impl std::fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryStore")
            .field("capacity", &self.capacity)
            .field("max_bytes", &self.max_bytes)
            .finish_non_exhaustive()
    }
}

/// Buffers larger than this (in bytes; in records, a 64th of it) shrink once a quarter full.
const SHRINK_ABOVE: usize = 1 << 20;

#[derive(Default)]
struct Records {
    /// Where each live record sits: its number in `queue`. Keys are flow ids the engine drew
    /// at random and opened from a sealed state, so a fast hash is safe.
    by_key: HashMap<RoundKey, u64, foldhash::fast::RandomState>,
    /// Every record, in the order made, live or not; the front is number `first`.
    queue: VecDeque<Entry>,
    first: u64,
    /// The bytes of recorded questions and their states, in the order of `queue`; the front is
    /// byte `first_byte` of all ever kept.
    bytes: VecDeque<u8>,
    first_byte: u64,
    /// Records that expire before one made earlier, soonest first: the queue alone would keep
    /// them until that one expires.
    early: BinaryHeap<Reverse<(SystemTime, u64)>>,
    /// The latest expiry of any record made so far.
    latest: Option<SystemTime>,
    /// How many records it keeps: entries claimed, neither gone nor moved.
    kept: usize,
    /// How many records are reserved for states and not claimed yet; at most the capacity
    /// again, apart from it.
    reserved: usize,
}

struct Entry {
    key: RoundKey,
    expires_at: SystemTime,
    state: RecordState,
    /// Where its bytes start in `Records::bytes` (counted from the first byte ever kept), and
    /// how many there are.
    bytes_at: u64,
    bytes_len: usize,
    /// Whether `Records::by_key` finds it; a record reserved for a state is found through the
    /// place the state carries instead.
    indexed: bool,
    /// The record this round reserved for the state it handed out ([`NOT_RESERVED`] if none,
    /// [`RESERVE_REFUSED`] if the store was full): a round run again reuses it, so that every
    /// state of the next round finds the same record.
    next: u64,
}

const NOT_RESERVED: u64 = u64::MAX;
const RESERVE_REFUSED: u64 = u64::MAX - 1;

/// A state carries the low bits of its record's number.
const PLACE_BITS: u32 = 16;

/// The place a state carries for record `number`.
fn place_of(number: u64) -> u16 {
    (number & ((1 << PLACE_BITS) - 1)) as u16
}

impl Entry {
    /// Whether the record is still in the queue's care: not dropped before it reached the
    /// front. A moved record's old place stays, so that states carrying it find where it went.
    fn is_live(&self) -> bool {
        !matches!(self.state, RecordState::Gone)
    }
}

impl RecordState {
    /// Whether it counts as a record kept: claimed, not gone, and not the old place of one
    /// that moved.
    fn is_kept(&self) -> bool {
        !matches!(self, Self::Reserved | Self::Gone | Self::Moved { .. })
    }
}

enum RecordState {
    /// Made as the state that opens it was sealed, and not claimed yet.
    Reserved,
    Running {
        holder: Holder,
        lease_until: Instant,
    },
    /// Questions, kept as what builds them again: their bytes come first among the record's,
    /// then the `requestState`.
    Asked {
        questions: KeptQuestions,
        question_bytes: u32,
        has_state: bool,
        meta: Option<Box<MetaObject>>,
    },
    /// Any other response, as JSON among the bytes.
    Json,
    /// Sealed bytes, as a caller handed them over.
    Sealed,
    /// Moved to the back of the queue, to `to`, when it completed.
    Moved { to: u64 },
    /// Dropped before it reached the front of the queue.
    Gone,
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self::with_capacity(Self::DEFAULT_CAPACITY)
    }
}

impl MemoryStore {
    /// How many records the default store holds: 100,000.
    pub const DEFAULT_CAPACITY: usize = 100_000;

    /// How many bytes of responses the default store keeps: 256 MiB.
    pub const DEFAULT_MAX_BYTES: usize = 256 << 20;

    /// A store that holds at most `capacity` records (at least one), and
    /// [`DEFAULT_MAX_BYTES`](Self::DEFAULT_MAX_BYTES) of their responses.
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            records: Mutex::new(Records::default()),
            capacity: capacity.max(1),
            max_bytes: Self::DEFAULT_MAX_BYTES,
            unkept: RefusalLog::new(Duration::from_secs(60)),
        }
    }

    /// Keeps about `bytes` of responses (at least 64 KiB): the questions and states of rounds
    /// that asked, and the results of rounds that finished. Past it, new rounds are refused
    /// until records expire; a single response over a sixteenth of it is not kept.
    #[must_use]
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes.max(64 << 10);
        self
    }

    /// The largest response kept for duplicates.
    fn max_response_bytes(&self) -> usize {
        self.max_bytes / 16
    }

    /// How many records it holds now, expired ones aside.
    pub fn len(&self) -> usize {
        self.len_at(SystemTime::now())
    }

    fn len_at(&self, wall: SystemTime) -> usize {
        let mut records = self.records();
        records.drop_expired(wall);
        records.kept
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

    /// [`ReplayStore::claim`], answered at once: the engine calls it without a future.
    pub(crate) fn claim_now(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
        expires_at: SystemTime,
    ) -> Result<Claim, StoreError> {
        self.claim_placed(key, None, holder, lease, expires_at)
            .map(|(claim, _)| claim)
    }

    /// [`Self::claim_now`] for a state that carries its record's `place` ([`Self::reserve_at`]),
    /// with the record's number, which [`Self::record_placed`] and [`Self::renew_placed`] take.
    pub(crate) fn claim_placed(
        &self,
        key: RoundKey,
        place: Option<u16>,
        holder: Holder,
        lease: Duration,
        expires_at: SystemTime,
    ) -> Result<(Claim, u64), StoreError> {
        self.claim_placed_at(
            key,
            place,
            holder,
            lease,
            expires_at,
            Instant::now(),
            SystemTime::now(),
        )
    }

    /// [`Self::claim_now`] at `now` on the lease clock and `wall` on the expiry clock.
    #[cfg(test)]
    fn claim_at(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
        expires_at: SystemTime,
        now: Instant,
        wall: SystemTime,
    ) -> Result<Claim, StoreError> {
        self.claim_placed_at(key, None, holder, lease, expires_at, now, wall)
            .map(|(claim, _)| claim)
    }

    /// [`Self::claim_placed`] at `now` on the lease clock and `wall` on the expiry clock.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn claim_placed_at(
        &self,
        key: RoundKey,
        place: Option<u16>,
        holder: Holder,
        lease: Duration,
        expires_at: SystemTime,
        now: Instant,
        wall: SystemTime,
    ) -> Result<(Claim, u64), StoreError> {
        let mut records = self.records();
        records.drop_expired(wall);
        let running = RecordState::Running {
            holder,
            lease_until: at_most_a_century(now, lease),
        };
        let placed = place.and_then(|place| records.placed(&key, place));
        let full = records.kept >= self.capacity;
        let full_of_bytes = records.bytes.len() >= self.max_bytes;
        let next = records.next_number();
        let number = match placed {
            Some(number) => number,
            None => self.indexed_or_vacant(&mut records, key, full, full_of_bytes)?,
        };
        // A reserved record becomes one kept: it needs the room a new one does.
        if matches!(records.entry_state(number), Some(RecordState::Reserved))
            && let Some(error) = self.no_room(full, full_of_bytes)
        {
            return Err(error);
        }
        if number == next {
            records.push(key, expires_at, running, true);
            return Ok((Claim::Won, number));
        }
        let entry = records.entry(number);
        let claim = match &entry.state {
            RecordState::Running { lease_until, .. } if *lease_until > now => Claim::Running,
            // A lapsed lease, or a record reserved or dropped (`Gone` is never indexed, and a
            // place finds none).
            RecordState::Running { .. } | RecordState::Reserved | RecordState::Gone => {
                records.set_state(number, running);
                Claim::Won
            }
            RecordState::Asked { .. } | RecordState::Json | RecordState::Sealed => {
                Claim::Done(records.recorded(number))
            }
            // `placed` and the index follow a moved record.
            RecordState::Moved { .. } => {
                return Err(StoreError::unavailable(
                    "the in-memory replay store lost track of a moved record",
                ));
            }
        };
        Ok((claim, number))
    }

    /// [`Self::reserve_at`] now.
    #[cfg(test)]
    pub(crate) fn reserve(
        &self,
        key: RoundKey,
        expires_at: SystemTime,
        by: Option<u64>,
    ) -> Option<u16> {
        self.reserve_at(key, expires_at, by, SystemTime::now())
    }

    /// Makes the record of round `key` as the state that opens it is sealed, kept until
    /// `expires_at`, so that claiming it needs no index: the state carries the low bits of its
    /// number, the place returned. `None` when the reservations are at the capacity: the claim
    /// then goes through the index, as a state's from another instance does. `wall` is now on
    /// the expiry clock.
    ///
    /// `by` is the record of the round sealing the state, if it holds one: a round run again
    /// (a lapsed lease) gets the place it reserved before, so that both states find one record.
    pub(crate) fn reserve_at(
        &self,
        key: RoundKey,
        expires_at: SystemTime,
        by: Option<u64>,
        wall: SystemTime,
    ) -> Option<u16> {
        let mut records = self.records();
        records.drop_expired(wall);
        let by = by.and_then(|by| records.sealing_round(by, &key));
        if let Some(by) = by {
            match records.entry(by).next {
                NOT_RESERVED => {}
                RESERVE_REFUSED => return None,
                earlier if records.placed(&key, place_of(earlier)).is_some() => {
                    return Some(place_of(earlier));
                }
                _ => {}
            }
        }
        let number = (records.reserved < self.capacity)
            .then(|| records.push(key, expires_at, RecordState::Reserved, false));
        if let Some(by) = by {
            records.entry_mut(by).next = number.unwrap_or(RESERVE_REFUSED);
        }
        number.map(place_of)
    }

    /// The number of the record of `key` in the index, where it went if it moved, or `next`,
    /// indexed for the caller to push, if there is room for a new record.
    fn indexed_or_vacant(
        &self,
        records: &mut Records,
        key: RoundKey,
        full: bool,
        full_of_bytes: bool,
    ) -> Result<u64, StoreError> {
        let next = records.next_number();
        let no_room = self.no_room(full, full_of_bytes);
        match records.by_key.entry(key) {
            Slot::Occupied(slot) => Ok(*slot.get()),
            Slot::Vacant(_) if let Some(error) = no_room => Err(error),
            Slot::Vacant(slot) => {
                slot.insert(next);
                Ok(next)
            }
        }
    }

    /// Why a new record does not fit, if it does not.
    fn no_room(&self, full: bool, full_of_bytes: bool) -> Option<StoreError> {
        if full {
            return Some(StoreError::full(format!(
                "the in-memory replay store holds its capacity of {} records; raise it with \
                 MemoryStore::with_capacity, shorten the state TTL, or use a shared store",
                self.capacity
            )));
        }
        full_of_bytes.then(|| {
            StoreError::full(format!(
                "the in-memory replay store keeps its {} bytes of responses; raise it with \
                 MemoryStore::max_bytes, shorten the state TTL, or use a shared store",
                self.max_bytes
            ))
        })
    }

    /// Records `response` for the round `holder` holds, as [`ReplayStore::complete`] does with
    /// [`Recorded::in_process`], but writing its bytes straight into the queue: no copy of the
    /// state, and no JSON but the one in the queue.
    #[cfg(test)]
    pub(crate) fn record_now(
        &self,
        key: RoundKey,
        holder: Holder,
        response: &RecordedResponse,
        rebuild: Option<Rebuild>,
        expires_at: SystemTime,
    ) -> Result<bool, StoreError> {
        self.record_placed(key, None, holder, response, rebuild, expires_at)
    }

    /// [`Self::record_now`] for the round claimed as record `at` ([`Self::claim_placed`]).
    pub(crate) fn record_placed(
        &self,
        key: RoundKey,
        at: Option<u64>,
        holder: Holder,
        response: &RecordedResponse,
        rebuild: Option<Rebuild>,
        expires_at: SystemTime,
    ) -> Result<bool, StoreError> {
        match (response, rebuild) {
            (RecordedResponse::InputRequired(input), Some(rebuild)) => self.finish_asked(
                key,
                at,
                holder,
                expires_at,
                rebuild,
                input.request_state.as_deref(),
                input.meta.clone(),
            ),
            _ => {
                // Written out of the lock, and copied in whole: serde_json writes a token at a
                // time, which costs more straight into the queue than the copy.
                let mut json = Bounded::new(self.max_response_bytes());
                let kept = match serde_json::to_writer(&mut json, response) {
                    Ok(()) => Ok(&[json.bytes.as_slice()][..]),
                    Err(_) if json.overflowed => Err(Unkept::TooLarge),
                    Err(_) => Err(Unkept::Unwritten),
                };
                self.finish(key, at, holder, expires_at, RecordState::Json, kept)
            }
        }
    }

    /// Turns the round `holder` holds into a record of the questions it asked again, which
    /// `rebuild` builds, and the state it handed out, if any.
    #[allow(clippy::too_many_arguments)]
    fn finish_asked(
        &self,
        key: RoundKey,
        at: Option<u64>,
        holder: Holder,
        expires_at: SystemTime,
        rebuild: Rebuild,
        request_state: Option<&str>,
        meta: Option<MetaObject>,
    ) -> Result<bool, StoreError> {
        let (questions, bytes) = rebuild.into_parts();
        let state = RecordState::Asked {
            questions,
            question_bytes: u32::try_from(bytes.len()).unwrap_or(u32::MAX),
            has_state: request_state.is_some(),
            meta: meta.map(Box::new),
        };
        let parts = [&bytes[..], request_state.unwrap_or_default().as_bytes()];
        self.finish(key, at, holder, expires_at, state, Ok(&parts))
    }

    /// Turns the round `holder` holds into `state`, with `kept`'s bytes appended. The record
    /// moves to the back of the queue unless it is there, so that the bytes stay in the order
    /// of the queue. Bytes that do not fit, or could not be written, are dropped: a duplicate
    /// then gets an error, for a response that could not have reached its client either.
    fn finish(
        &self,
        key: RoundKey,
        at: Option<u64>,
        holder: Holder,
        expires_at: SystemTime,
        state: RecordState,
        kept: Result<&[&[u8]], Unkept>,
    ) -> Result<bool, StoreError> {
        let mut records = self.records();
        let Some(mut number) = records.held(at, &key, holder) else {
            return Ok(false);
        };
        let last = records.next_number() - 1;
        let kept_until = records.entry(number).expires_at;
        if number != last || expires_at > kept_until {
            number = records.move_to_back(number, expires_at.max(kept_until));
        }
        let before = records.bytes.len();
        // What fits both a single response and what is left of the store's bytes.
        let room = self
            .max_response_bytes()
            .min(self.max_bytes.saturating_sub(before));
        let kept = kept.and_then(|parts| {
            let fits = parts.iter().map(|part| part.len()).sum::<usize>() <= room;
            fits.then_some(parts).ok_or(Unkept::TooLarge)
        });
        let overflowed = matches!(kept, Err(Unkept::TooLarge));
        let state = match kept {
            Ok(parts) => {
                for part in parts {
                    records.bytes.extend(*part);
                }
                state
            }
            Err(_) => {
                if overflowed {
                    let unkept = RecordedResponse::Error(ErrorData::internal_error(
                        "the response to this request was too large to keep for a repeat of \
                         it; call again without requestState",
                        None,
                    ));
                    // An error of a fixed text always writes.
                    let _ = serde_json::to_writer(&mut records.bytes, &unkept);
                }
                RecordState::Json
            }
        };
        let bytes_len = records.bytes.len() - before;
        records.set_state(number, state);
        records.entry_mut(number).bytes_len = bytes_len;
        drop(records);
        if overflowed && let Some(before) = self.unkept.due(SystemTime::now()) {
            tracing::warn!(
                room,
                unkept_since_last_line = before,
                "mrtr: a response larger than the in-memory replay store keeps (a sixteenth of \
                 its bytes, or what is left of them) is not kept; a duplicate of its request \
                 gets an error (raise MemoryStore::max_bytes)"
            );
        }
        Ok(true)
    }
}

/// `now + by`, or a hundred years from now if `by` is longer: a caller of the trait may ask
/// for any lease.
pub(crate) fn at_most_a_century(now: Instant, by: Duration) -> Instant {
    now.checked_add(by.min(crate::Engine::MAX_TIME))
        .unwrap_or(now)
}

/// Why a round's response is not kept for its duplicates.
#[derive(Debug)]
enum Unkept {
    /// Larger than a single response may be, or than what is left of the store's bytes.
    TooLarge,
    /// Its serializer failed.
    Unwritten,
}

/// A response written ahead of the lock, failing once past `room`: an oversized response is
/// never held whole.
struct Bounded {
    bytes: Vec<u8>,
    room: usize,
    overflowed: bool,
}

impl Bounded {
    fn new(room: usize) -> Self {
        Self {
            bytes: Vec::with_capacity(room.min(256)),
            room,
            overflowed: false,
        }
    }

    #[cold]
    #[inline(never)]
    fn overflow(&mut self) -> std::io::Result<()> {
        self.overflowed = true;
        Err(std::io::Error::other("past the replay store's room"))
    }
}

// serde_json writes a token at a time through `write_all`: inlined, with the overflow out of
// line, this costs half what `write` behind the default `write_all` does.
impl std::io::Write for Bounded {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.write_all(bytes).map(|()| bytes.len())
    }

    #[inline(always)]
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if bytes.len() > self.room - self.bytes.len() {
            return self.overflow();
        }
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Records {
    fn number_of(&self, key: &RoundKey) -> Option<u64> {
        self.by_key.get(key).copied()
    }

    /// The number of the record of `key`, if it is running, held by `holder`: at `at`, where
    /// its claim found it (or where it moved since), else through the index.
    fn held(&self, at: Option<u64>, key: &RoundKey, holder: Holder) -> Option<u64> {
        let number = match at {
            Some(at) => Some(at)
                .filter(|at| self.holds(*at))
                .map(|at| self.forwarded(at))
                .filter(|number| self.entry(*number).key == *key)?,
            None => self.number_of(key)?,
        };
        matches!(self.entry(number).state, RecordState::Running { holder: current, .. } if current == holder)
            .then_some(number)
    }

    /// Whether record `number` is still in the queue.
    fn holds(&self, number: u64) -> bool {
        number >= self.first && number < self.next_number()
    }

    /// Where record `number` is now: itself, or where it moved.
    fn forwarded(&self, mut number: u64) -> u64 {
        // Each move goes to a later number, which expires no sooner: it is in the queue.
        while let RecordState::Moved { to } = self.entry(number).state {
            number = to;
        }
        number
    }

    /// The record of `key` at `place`, where a state carries it ([`MemoryStore::reserve_at`]),
    /// followed to where it moved: the newest number ending in those bits whose record is of
    /// `key`. `None` if none is (the record expired, or the state is from another instance).
    fn placed(&self, key: &RoundKey, place: u16) -> Option<u64> {
        let next = self.next_number();
        let step = 1u64 << PLACE_BITS;
        let mut number = (next & !(step - 1)) | u64::from(place);
        if number >= next {
            number = number.checked_sub(step)?;
        }
        while number >= self.first {
            let entry = self.entry(number);
            if entry.key == *key && entry.is_live() {
                return Some(self.forwarded(number));
            }
            number = number.checked_sub(step)?;
        }
        None
    }

    /// Record `by`, if it is the live record of the round before `key`'s, followed to where it
    /// moved: the round that seals `key`'s state.
    fn sealing_round(&self, by: u64, key: &RoundKey) -> Option<u64> {
        let by = Some(by).filter(|by| self.holds(*by))?;
        let by = self.forwarded(by);
        let entry = self.entry(by);
        (entry.is_live()
            && entry.key.flow == key.flow
            && entry.key.round.checked_add(1) == Some(key.round))
        .then_some(by)
    }

    /// Sets record `number`'s state, keeping the counts of records kept and reserved.
    fn set_state(&mut self, number: u64, state: RecordState) {
        self.tally(&state, true);
        let old = std::mem::replace(&mut self.entry_mut(number).state, state);
        self.tally(&old, false);
    }

    /// Counts `state` in, or out.
    fn tally(&mut self, state: &RecordState, add: bool) {
        let count = match state {
            RecordState::Reserved => &mut self.reserved,
            state if state.is_kept() => &mut self.kept,
            _ => return,
        };
        *count = if add { *count + 1 } else { *count - 1 };
    }

    /// Record `number`'s state, if it is in the queue.
    fn entry_state(&self, number: u64) -> Option<&RecordState> {
        self.holds(number).then(|| &self.entry(number).state)
    }

    fn entry(&self, number: u64) -> &Entry {
        &self.queue[(number - self.first) as usize]
    }

    fn entry_mut(&mut self, number: u64) -> &mut Entry {
        &mut self.queue[(number - self.first) as usize]
    }

    /// The number the next record pushed gets.
    fn next_number(&self) -> u64 {
        self.first + self.queue.len() as u64
    }

    /// Moves live record `number` to the back of the queue, kept until `expires_at`, its bytes
    /// not yet written; its new number. Its old place goes when it reaches the front.
    fn move_to_back(&mut self, number: u64, expires_at: SystemTime) -> u64 {
        let moved = self.next_number();
        let entry = self.entry_mut(number);
        let (key, indexed, next) = (entry.key, entry.indexed, entry.next);
        // States carry the places of reserved records, and a late seal the number of the
        // round sealing it: the old place forwards.
        let state = std::mem::replace(&mut entry.state, RecordState::Moved { to: moved });
        self.tally(&state, false);
        self.push(key, expires_at, state, indexed);
        self.entry_mut(moved).next = next;
        if indexed && let Some(slot) = self.by_key.get_mut(&key) {
            *slot = moved;
        }
        moved
    }

    /// Adds a record with no bytes at the back of the queue (the caller indexes it if
    /// `indexed`); its number.
    fn push(
        &mut self,
        key: RoundKey,
        expires_at: SystemTime,
        state: RecordState,
        indexed: bool,
    ) -> u64 {
        let number = self.next_number();
        self.tally(&state, true);
        match self.latest {
            Some(latest) if latest > expires_at => self.early.push(Reverse((expires_at, number))),
            _ => self.latest = Some(expires_at),
        }
        self.queue.push_back(Entry {
            key,
            expires_at,
            state,
            bytes_at: self.first_byte + self.bytes.len() as u64,
            bytes_len: 0,
            indexed,
            next: NOT_RESERVED,
        });
        number
    }

    /// Forgets record `number` now; its place in the queue goes when it reaches the front.
    /// A moved record's old place that goes at `now` while the record lives on indexes it,
    /// for the states that still carry that place.
    fn drop_entry(&mut self, number: u64, now: SystemTime) {
        let entry = self.entry(number);
        let (key, unindex) = (entry.key, entry.indexed && entry.state.is_kept());
        let forwarded = match entry.state {
            RecordState::Moved { to } => Some(self.forwarded(to)),
            _ => None,
        };
        self.set_state(number, RecordState::Gone);
        if unindex && self.by_key.get(&key) == Some(&number) {
            self.by_key.remove(&key);
        }
        if let Some(to) = forwarded {
            let record = self.entry(to);
            if record.state.is_kept() && !record.indexed && record.expires_at > now {
                self.by_key.entry(key).or_insert(to);
                self.entry_mut(to).indexed = true;
            }
        }
    }

    /// The response record `number` keeps, built for a duplicate.
    fn recorded(&self, number: u64) -> Recorded {
        let entry = self.entry(number);
        match &entry.state {
            RecordState::Asked {
                questions,
                question_bytes,
                has_state,
                meta,
            } => {
                let mut bytes = self.bytes_of(entry);
                let state = bytes.split_off((*question_bytes as usize).min(bytes.len()));
                Recorded(RecordedForm::Asked {
                    rebuild: Rebuild::from_parts(questions.clone(), bytes),
                    // The bytes were a `String`'s.
                    request_state: has_state.then(|| String::from_utf8_lossy(&state).into_owned()),
                    meta: meta.as_deref().cloned(),
                })
            }
            RecordState::Json => Recorded(RecordedForm::Json(self.bytes_of(entry))),
            RecordState::Sealed => Recorded::sealed(self.bytes_of(entry)),
            RecordState::Reserved
            | RecordState::Running { .. }
            | RecordState::Moved { .. }
            | RecordState::Gone => Recorded::sealed(Vec::new()),
        }
    }

    fn bytes_of(&self, entry: &Entry) -> Vec<u8> {
        let start = (entry.bytes_at - self.first_byte) as usize;
        self.bytes
            .range(start..start + entry.bytes_len)
            .copied()
            .collect()
    }

    fn drop_expired(&mut self, now: SystemTime) {
        while let Some(front) = self.queue.front() {
            if front.is_live() && front.expires_at > now {
                break;
            }
            let number = self.first;
            if front.is_live() {
                self.drop_entry(number, now);
            }
            if let Some(front) = self.queue.pop_front() {
                self.bytes.drain(..front.bytes_len);
                self.first_byte += front.bytes_len as u64;
            }
            self.first += 1;
        }
        while let Some(Reverse((expires_at, number))) = self.early.peek().copied() {
            if expires_at > now {
                break;
            }
            self.early.pop();
            if number >= self.first && self.entry(number).is_live() {
                self.drop_entry(number, now);
            }
        }
        // Give back what a burst left behind.
        if self.bytes.capacity() > SHRINK_ABOVE && self.bytes.len() < self.bytes.capacity() / 4 {
            self.bytes.shrink_to(self.bytes.len() * 2);
        }
        if self.queue.capacity() > SHRINK_ABOVE / 64 && self.queue.len() < self.queue.capacity() / 4
        {
            self.queue.shrink_to(self.queue.len() * 2);
        }
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
        self.claim_now(key, holder, lease, expires_at)
    }

    async fn renew(
        &self,
        key: RoundKey,
        holder: Holder,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        Ok(self.renew_at(key, None, holder, lease, Instant::now()))
    }

    async fn complete(
        &self,
        key: RoundKey,
        holder: Holder,
        response: Recorded,
        expires_at: SystemTime,
    ) -> Result<bool, StoreError> {
        let (state, bytes) = match response.0 {
            RecordedForm::Asked {
                rebuild,
                request_state,
                meta,
            } => {
                let request_state = request_state.as_deref();
                return self.finish_asked(
                    key,
                    None,
                    holder,
                    expires_at,
                    rebuild,
                    request_state,
                    meta,
                );
            }
            RecordedForm::Sealed(bytes) => (RecordState::Sealed, bytes),
            RecordedForm::Json(json) => (RecordState::Json, json),
        };
        self.finish(key, None, holder, expires_at, state, Ok(&[&bytes[..]]))
    }

    async fn release(&self, key: RoundKey, holder: Holder) -> Result<bool, StoreError> {
        let mut records = self.records();
        let Some(number) = records.held(None, &key, holder) else {
            return Ok(false);
        };
        records.drop_entry(number, SystemTime::now());
        Ok(true)
    }

    fn keeps_sealed_bytes(&self) -> bool {
        false
    }

    fn is_shared(&self) -> bool {
        false
    }

    fn admit_flow(&self) -> Result<(), StoreError> {
        self.admit_flow_at(SystemTime::now())
    }
}

impl MemoryStore {
    /// [`ReplayStore::renew`] for the round claimed as record `at` ([`Self::claim_placed`]).
    pub(crate) fn renew_placed(
        &self,
        key: RoundKey,
        at: Option<u64>,
        holder: Holder,
        lease: Duration,
    ) -> bool {
        self.renew_at(key, at, holder, lease, Instant::now())
    }

    /// [`ReplayStore::renew`] at `now` on the lease clock.
    fn renew_at(
        &self,
        key: RoundKey,
        at: Option<u64>,
        holder: Holder,
        lease: Duration,
        now: Instant,
    ) -> bool {
        let mut records = self.records();
        let Some(number) = records.held(at, &key, holder) else {
            return false;
        };
        if let RecordState::Running { lease_until, .. } = &mut records.entry_mut(number).state {
            *lease_until = at_most_a_century(now, lease);
        }
        true
    }

    /// [`ReplayStore::admit_flow`] at `wall` on the expiry clock.
    fn admit_flow_at(&self, wall: SystemTime) -> Result<(), StoreError> {
        let mut records = self.records();
        records.drop_expired(wall);
        if records.kept >= self.admission_limit() {
            return Err(StoreError::full(format!(
                "the in-memory replay store holds {} of its {} records, so new flows wait for \
                 room; raise it with MemoryStore::with_capacity, shorten the state TTL, or use \
                 a shared store",
                records.kept, self.capacity
            )));
        }
        if records.bytes.len() >= self.max_bytes - self.max_bytes / 10 {
            return Err(StoreError::full(format!(
                "the in-memory replay store keeps {} of its {} bytes of responses, so new flows \
                 wait for room; raise it with MemoryStore::max_bytes, shorten the state TTL, or \
                 use a shared store",
                records.bytes.len(),
                self.max_bytes
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod against_a_model;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::StoreErrorKind;
    use crate::replay::block_on;

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
            assert_eq!(store.len_at(soon + Duration::from_millis(50)), 1);
        });
    }

    #[test]
    fn a_record_that_expires_before_one_made_earlier_goes_at_its_own_time() {
        block_on(async {
            let store = MemoryStore::default();
            let holder = Holder([1; 16]);
            let soon = SystemTime::now() + Duration::from_millis(150);
            store.claim(key(1), holder, LEASE, later(60)).await.unwrap();
            store.claim(key(2), holder, LEASE, soon).await.unwrap();
            store.claim(key(3), holder, LEASE, later(60)).await.unwrap();
            assert_eq!(store.len(), 3);
            let past_soon = soon + Duration::from_millis(50);
            assert_eq!(store.len_at(past_soon), 2);
            assert_eq!(
                store.claim_at(key(2), holder, LEASE, later(60), Instant::now(), past_soon),
                Ok(Claim::Won)
            );
            assert_eq!(
                store.claim(key(1), Holder([2; 16]), LEASE, later(60)).await,
                Ok(Claim::Running)
            );
        });
    }

    #[test]
    fn questions_kept_out_of_order_answer_with_their_own_state() {
        use rmcp::model::InputRequiredResult;

        fn asked(state: &str) -> Recorded {
            let question = crate::elicit::<Confirm>(format!("Sure about {state}?"));
            let rebuild = crate::question::QuestionSet::rebuild(&question, &["q"]);
            let response = super::super::RecordedResponse::InputRequired(
                InputRequiredResult::from_request_state(state),
            );
            Recorded::in_process(&response, rebuild)
        }
        #[derive(serde::Deserialize, schemars::JsonSchema, crate::Form)]
        #[allow(dead_code)]
        struct Confirm {
            sure: bool,
        }
        /// The state of a recorded round, and the message of its question.
        fn state_of(claim: Claim) -> Option<(String, String)> {
            let Claim::Done(recorded) = claim else {
                return None;
            };
            let Some(Ok(super::super::RecordedResponse::InputRequired(input))) =
                recorded.response()
            else {
                return None;
            };
            let request = serde_json::to_value(input.input_requests?.get("q")?).ok()?;
            let message = request["params"]["message"].as_str()?.to_owned();
            Some((input.request_state?, message))
        }
        block_on(async {
            let store = MemoryStore::default();
            let (a, b, c) = (Holder([1; 16]), Holder([2; 16]), Holder([3; 16]));
            let other = Holder([9; 16]);
            for (round, holder) in [(1, a), (2, b), (3, c)] {
                store
                    .claim(key(round), holder, LEASE, later(60))
                    .await
                    .unwrap();
            }
            // Completed in another order than claimed: the first two move to the back.
            assert_eq!(
                store.complete(key(2), b, asked("two"), later(60)).await,
                Ok(true)
            );
            assert_eq!(
                store.complete(key(1), a, asked("one"), later(60)).await,
                Ok(true)
            );
            assert_eq!(
                store.complete(key(3), c, asked("three"), later(60)).await,
                Ok(true)
            );
            for (round, state) in [(1, "one"), (2, "two"), (3, "three")] {
                let claim = store
                    .claim(key(round), other, LEASE, later(60))
                    .await
                    .unwrap();
                assert_eq!(
                    state_of(claim),
                    Some((state.to_owned(), format!("Sure about {state}?")))
                );
            }
            assert_eq!(store.len(), 3);
            // Once the first record expires and its bytes go, a later one still reads its own.
            let store = MemoryStore::default();
            let soon = SystemTime::now() + Duration::from_millis(100);
            let d = Holder([4; 16]);
            store.claim(key(4), d, LEASE, soon).await.unwrap();
            store
                .complete(key(4), d, asked("four"), soon)
                .await
                .unwrap();
            let e = Holder([5; 16]);
            store.claim(key(5), e, LEASE, later(60)).await.unwrap();
            store
                .complete(key(5), e, asked("five"), later(60))
                .await
                .unwrap();
            tokio::time::sleep(Duration::from_millis(150)).await;
            assert_eq!(store.len(), 1);
            let claim = store.claim(key(5), other, LEASE, later(60)).await.unwrap();
            assert_eq!(
                state_of(claim),
                Some(("five".to_owned(), "Sure about five?".to_owned()))
            );
        });
    }

    #[test]
    fn queues_give_memory_back_after_a_burst() {
        block_on(async {
            let store = MemoryStore::default();
            let holder = Holder([1; 16]);
            let soon = SystemTime::now() + Duration::from_millis(100);
            let state = vec![7u8; 1000];
            for round in 0..2_000 {
                store.claim(key(round), holder, LEASE, soon).await.unwrap();
                store
                    .complete(key(round), holder, Recorded::sealed(state.clone()), soon)
                    .await
                    .unwrap();
            }
            let grown = store.records().bytes.capacity();
            assert!(grown >= 2_000_000, "{grown}");
            tokio::time::sleep(Duration::from_millis(150)).await;
            assert_eq!(store.len(), 0);
            let records = store.records();
            assert!(
                records.bytes.capacity() < grown / 4,
                "{}",
                records.bytes.capacity()
            );
            assert!(records.queue.is_empty());
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

    #[test]
    fn a_store_past_its_bytes_refuses_new_flows_then_new_rounds_until_records_expire() {
        block_on(async {
            let store = MemoryStore::with_capacity(1000).max_bytes(64 << 10);
            let holder = Holder([1; 16]);
            let soon = SystemTime::now() + Duration::from_millis(300);
            let response = bytes(&[7; 4000]);
            let mut round = 0;
            // 4,000 bytes a record: the 15th passes 90% of 64 KiB.
            while store.admit_flow().is_ok() {
                store.claim(key(round), holder, LEASE, soon).await.unwrap();
                let kept = store.complete(key(round), holder, response.clone(), soon);
                assert_eq!(kept.await, Ok(true));
                round += 1;
            }
            assert_eq!(round, 15);
            let refused = store.admit_flow().unwrap_err();
            assert_eq!(refused.kind(), StoreErrorKind::Full);
            assert!(refused.to_string().contains("max_bytes"), "{refused}");
            // Rounds of flows in progress still find room, up to the whole budget (past it,
            // what they finish with is kept as an error), and then are refused.
            while store.claim(key(round), holder, LEASE, soon).await.is_ok() {
                let kept = store.complete(key(round), holder, response.clone(), soon);
                assert_eq!(kept.await, Ok(true));
                round += 1;
                assert!(round < 100, "the store never filled");
            }
            assert!(store.records().bytes.len() < (64 << 10) + 200);
            assert_eq!(
                store.claim(key(15), holder, LEASE, soon).await,
                Ok(Claim::Done(response.clone()))
            );
            // Nothing was dropped to make room.
            assert_eq!(
                store.claim(key(0), holder, LEASE, soon).await,
                Ok(Claim::Done(response.clone()))
            );
            tokio::time::sleep(Duration::from_millis(400)).await;
            store.admit_flow().unwrap();
            assert_eq!(
                store.claim(key(round), holder, LEASE, later(60)).await,
                Ok(Claim::Won)
            );
        });
    }

    #[test]
    fn a_response_too_large_to_keep_answers_a_duplicate_with_an_error() {
        block_on(async {
            let store = MemoryStore::with_capacity(10).max_bytes(64 << 10);
            let (a, b) = (Holder([1; 16]), Holder([2; 16]));
            store.claim(key(1), a, LEASE, later(60)).await.unwrap();
            let large = bytes(&[7; 5000]);
            assert_eq!(store.complete(key(1), a, large, later(60)).await, Ok(true));
            let Ok(Claim::Done(recorded)) = store.claim(key(1), b, LEASE, later(60)).await else {
                panic!("the round is recorded");
            };
            match recorded.response() {
                Some(Ok(RecordedResponse::Error(error))) => {
                    assert!(error.message.contains("too large to keep"), "{error:?}")
                }
                other => panic!("expected an error for the duplicate, got {other:?}"),
            }
            // It kept the error, not the response.
            assert!(store.records().bytes.len() < 500);
        });
    }

    /// A finished round's response, written as JSON ahead of the lock: kept whole when it fits,
    /// and an error for its duplicates when it is larger than a sixteenth of the bytes.
    #[test]
    fn a_finished_round_keeps_its_result_or_an_error_when_too_large() {
        let store = MemoryStore::with_capacity(10).max_bytes(64 << 10);
        let (first, duplicate) = (Holder([1; 16]), Holder([2; 16]));
        let finish = |round: u32, text: String| {
            let response = RecordedResponse::Tool(rmcp::model::CallToolResult::success(vec![
                rmcp::model::ContentBlock::text(text),
            ]));
            let claimed = store.claim_now(key(round), first, LEASE, later(60));
            assert!(matches!(claimed, Ok(Claim::Won)), "{claimed:?}");
            let recorded = store.record_now(key(round), first, &response, None, later(60));
            assert_eq!(recorded, Ok(true));
            match store.claim_now(key(round), duplicate, LEASE, later(60)) {
                Ok(Claim::Done(recorded)) => recorded.response(),
                other => panic!("the round is recorded, got {other:?}"),
            }
        };
        let kept = finish(1, "done \"quoted\" é".to_owned());
        match kept {
            Some(Ok(RecordedResponse::Tool(result))) => {
                assert_eq!(
                    result.content[0].as_text().map(|text| text.text.as_str()),
                    Some("done \"quoted\" é")
                );
            }
            other => panic!("expected the result, got {other:?}"),
        }
        let kept_bytes = store.records().bytes.len();
        match finish(2, "x".repeat(5000)) {
            Some(Ok(RecordedResponse::Error(error))) => {
                assert!(error.message.contains("too large to keep"), "{error:?}")
            }
            other => panic!("expected an error for the duplicate, got {other:?}"),
        }
        assert!(store.records().bytes.len() - kept_bytes < 500);
    }

    #[test]
    fn rounds_that_finish_together_keep_within_the_bytes() {
        block_on(async {
            let store = MemoryStore::with_capacity(100).max_bytes(64 << 10);
            let holder = Holder([1; 16]);
            // Twenty rounds claimed while the store is empty, then finishing: the last ones
            // find no room left, and keep an error for their duplicates instead.
            for round in 0..20 {
                store
                    .claim(key(round), holder, LEASE, later(60))
                    .await
                    .unwrap();
            }
            for round in 0..20 {
                let kept = store.complete(key(round), holder, bytes(&[7; 4000]), later(60));
                assert_eq!(kept.await, Ok(true));
            }
            assert!(store.records().bytes.len() <= (64 << 10) + 4 * 200);
            assert_eq!(
                store.claim(key(15), holder, LEASE, later(60)).await,
                Ok(Claim::Done(bytes(&[7; 4000])))
            );
            let Ok(Claim::Done(last)) = store.claim(key(19), holder, LEASE, later(60)).await else {
                panic!("the last round is recorded");
            };
            assert!(
                matches!(last.response(), Some(Ok(RecordedResponse::Error(_)))),
                "{last:?}"
            );
        });
    }

    #[test]
    fn a_round_that_asked_with_too_large_a_question_keeps_an_error() {
        use rmcp::model::InputRequiredResult;

        #[derive(serde::Deserialize, schemars::JsonSchema, crate::Form)]
        #[allow(dead_code)]
        struct Confirm {
            sure: bool,
        }
        block_on(async {
            let store = MemoryStore::with_capacity(10).max_bytes(64 << 10);
            let (a, b) = (Holder([1; 16]), Holder([2; 16]));
            store.claim(key(1), a, LEASE, later(60)).await.unwrap();
            // A question whose message is past a sixteenth of the store's bytes.
            let question = crate::elicit::<Confirm>("x".repeat(5000));
            let rebuild = crate::question::QuestionSet::rebuild(&question, &["q"]);
            let response =
                RecordedResponse::InputRequired(InputRequiredResult::from_request_state("next"));
            assert_eq!(
                store.record_now(key(1), a, &response, rebuild, later(60)),
                Ok(true)
            );
            let Ok(Claim::Done(recorded)) = store.claim(key(1), b, LEASE, later(60)).await else {
                panic!("the round is recorded");
            };
            assert!(
                matches!(recorded.response(), Some(Ok(RecordedResponse::Error(_)))),
                "{recorded:?}"
            );
            assert!(store.records().bytes.len() < 500);
        });
    }

    /// Round `round` of one flow.
    fn flow_round(round: u32) -> RoundKey {
        RoundKey {
            flow: [7; 12],
            round,
        }
    }

    /// A round's result, for a record.
    fn result(text: &str) -> RecordedResponse {
        RecordedResponse::Tool(rmcp::model::CallToolResult::success(vec![
            rmcp::model::ContentBlock::text(text),
        ]))
    }

    fn text_of(claim: Claim) -> String {
        let Claim::Done(recorded) = claim else {
            panic!("not done: {claim:?}");
        };
        match recorded.response() {
            Some(Ok(RecordedResponse::Tool(result))) => result.content[0]
                .as_text()
                .map(|text| text.text.clone())
                .unwrap_or_default(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_reserved_record_is_claimed_at_its_place_without_the_index() {
        let store = MemoryStore::default();
        let (a, b) = (Holder([1; 16]), Holder([2; 16]));
        let place = store.reserve(key(2), later(60), None).unwrap();
        // Reserved, not yet a record kept.
        assert_eq!((store.len(), store.records().reserved), (0, 1));
        let (claim, at) = store
            .claim_placed(key(2), Some(place), a, LEASE, later(60))
            .unwrap();
        assert_eq!(claim, Claim::Won);
        assert_eq!((store.len(), store.records().reserved), (1, 0));
        let again = store.claim_placed(key(2), Some(place), b, LEASE, later(60));
        assert_eq!(again.unwrap().0, Claim::Running);
        assert!(store.renew_placed(key(2), Some(at), a, LEASE));
        assert!(!store.renew_placed(key(2), Some(at), b, LEASE));
        let recorded = store.record_placed(key(2), Some(at), a, &result("ok"), None, later(60));
        assert_eq!(recorded, Ok(true));
        let duplicate = store.claim_placed(key(2), Some(place), b, LEASE, later(60));
        assert_eq!(text_of(duplicate.unwrap().0), "ok");
        assert!(store.records().by_key.is_empty());
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn a_duplicate_finds_a_record_that_moved_to_the_back() {
        let store = MemoryStore::default();
        let (a, b) = (Holder([1; 16]), Holder([2; 16]));
        let first = store.reserve(key(2), later(60), None).unwrap();
        let second = store.reserve(key(3), later(60), None).unwrap();
        let (_, at_first) = store
            .claim_placed(key(2), Some(first), a, LEASE, later(60))
            .unwrap();
        let (_, at_second) = store
            .claim_placed(key(3), Some(second), a, LEASE, later(60))
            .unwrap();
        // The first completes while a later record is behind it, so it moves to the back.
        let done =
            store.record_placed(key(2), Some(at_first), a, &result("first"), None, later(60));
        assert_eq!(done, Ok(true));
        let done = store.record_placed(
            key(3),
            Some(at_second),
            a,
            &result("second"),
            None,
            later(60),
        );
        assert_eq!(done, Ok(true));
        let duplicate = store.claim_placed(key(2), Some(first), b, LEASE, later(60));
        assert_eq!(text_of(duplicate.unwrap().0), "first");
        let duplicate = store.claim_placed(key(3), Some(second), b, LEASE, later(60));
        assert_eq!(text_of(duplicate.unwrap().0), "second");
        // The old places forward; they are not records.
        assert_eq!(store.len(), 2);
    }

    #[test]
    fn a_place_that_holds_no_record_of_its_key_goes_through_the_index() {
        let store = MemoryStore::default();
        let (a, b) = (Holder([1; 16]), Holder([2; 16]));
        let other = store.reserve(key(7), later(60), None).unwrap();
        // A state from another instance, or from before a restart: its place is another's.
        let (claim, at) = store
            .claim_placed(key(2), Some(other), a, LEASE, later(60))
            .unwrap();
        assert_eq!(claim, Claim::Won);
        assert!(store.records().by_key.contains_key(&key(2)));
        let again = store.claim_placed(key(2), Some(other), b, LEASE, later(60));
        assert_eq!(again.unwrap().0, Claim::Running);
        let done = store.record_placed(key(2), Some(at), a, &result("ok"), None, later(60));
        assert_eq!(done, Ok(true));
        assert_eq!(
            text_of(store.claim_now(key(2), b, LEASE, later(60)).unwrap()),
            "ok"
        );
        // The reserved record it passed over is still there for its own state.
        let own = store.claim_placed(key(7), Some(other), b, LEASE, later(60));
        assert_eq!(own.unwrap().0, Claim::Won);
    }

    #[test]
    fn a_round_run_again_hands_out_a_state_for_the_record_it_reserved() {
        let store = MemoryStore::default();
        let (a, b) = (Holder([1; 16]), Holder([2; 16]));
        let (_, held) = store
            .claim_placed(flow_round(1), None, a, Duration::ZERO, later(60))
            .unwrap();
        let place = store.reserve(flow_round(2), later(60), Some(held)).unwrap();
        // The lease lapsed: another request runs round 1 again, and seals round 2's state.
        let (claim, again) = store
            .claim_placed(flow_round(1), None, b, LEASE, later(60))
            .unwrap();
        assert_eq!((claim, again), (Claim::Won, held));
        assert_eq!(
            store.reserve(flow_round(2), later(60), Some(again)),
            Some(place)
        );
        // Once the second run recorded round 1, a late seal of the first finds it moved.
        let done = store.record_placed(
            flow_round(1),
            Some(again),
            b,
            &result("one"),
            None,
            later(60),
        );
        assert_eq!(done, Ok(true));
        assert_eq!(
            store.reserve(flow_round(2), later(60), Some(held)),
            Some(place)
        );
        assert_eq!((store.len(), store.records().reserved), (1, 1));
        // A record of another round is not the one sealing `flow_round(3)`'s state.
        assert_ne!(
            store.reserve(flow_round(3), later(60), Some(held)),
            Some(place)
        );
    }

    #[test]
    fn reservations_have_a_capacity_of_their_own_and_a_claim_needs_room() {
        let store = MemoryStore::with_capacity(2);
        let (a, b) = (Holder([1; 16]), Holder([2; 16]));
        let one = store.reserve(key(1), later(60), None).unwrap();
        assert!(store.reserve(key(2), later(60), None).is_some());
        let (_, held) = store
            .claim_placed(flow_round(1), None, a, Duration::ZERO, later(60))
            .unwrap();
        // Two reserved: the next state gets no place, and a run again of its round neither,
        // so that both of its states find one record through the index.
        assert_eq!(store.reserve(flow_round(2), later(60), Some(held)), None);
        store.records().drop_entry(1, SystemTime::now());
        assert_eq!(store.records().reserved, 1);
        let (_, again) = store
            .claim_placed(flow_round(1), None, b, LEASE, later(60))
            .unwrap();
        assert_eq!(store.reserve(flow_round(2), later(60), Some(again)), None);
        // Kept records full: a reserved one is not claimed either.
        store
            .claim_placed(key(7), None, a, LEASE, later(60))
            .unwrap();
        let refused = store.claim_placed(key(1), Some(one), a, LEASE, later(60));
        assert_eq!(refused.unwrap_err().kind(), StoreErrorKind::Full);
    }

    #[test]
    fn reserved_records_expire_with_their_states() {
        let store = MemoryStore::default();
        let soon = SystemTime::now() + Duration::from_millis(150);
        let place = store.reserve(key(2), soon, None).unwrap();
        assert_eq!(store.records().reserved, 1);
        let past = soon + Duration::from_millis(50);
        assert_eq!(store.len_at(past), 0);
        assert_eq!(store.records().reserved, 0);
        assert_eq!(store.records().queue.len(), 0);
        let holder = Holder([1; 16]);
        let claimed = store.claim_placed_at(
            key(2),
            Some(place),
            holder,
            LEASE,
            later(60),
            Instant::now(),
            past,
        );
        assert_eq!(claimed.unwrap().0, Claim::Won);
        assert!(store.records().by_key.contains_key(&key(2)));
    }

    #[test]
    fn places_repeat_every_65536_records_and_still_find_their_own() {
        let store = MemoryStore::with_capacity(1 << 20);
        let place = store.reserve(key(1), later(60), None).unwrap();
        for n in 0..(1u32 << PLACE_BITS) {
            let other = RoundKey {
                flow: [9; 12],
                round: n + 10,
            };
            store.reserve(other, later(60), None).unwrap();
        }
        let holder = Holder([1; 16]);
        let (claim, at) = store
            .claim_placed(key(1), Some(place), holder, LEASE, later(60))
            .unwrap();
        assert_eq!((claim, at), (Claim::Won, 0));
        assert!(store.records().by_key.is_empty());
    }

    #[test]
    fn a_record_that_moved_to_live_longer_is_found_after_its_old_place_expires() {
        let store = MemoryStore::default();
        let (a, b) = (Holder([1; 16]), Holder([2; 16]));
        let now = SystemTime::now();
        let (soon, later_on) = (now + Duration::from_secs(10), now + Duration::from_secs(20));
        let place = store.reserve(flow_round(2), soon, None).unwrap();
        let (_, at) = store
            .claim_placed(flow_round(2), Some(place), a, LEASE, soon)
            .unwrap();
        let done = store.record_placed(flow_round(2), Some(at), a, &result("ok"), None, later_on);
        assert_eq!(done, Ok(true));
        let past_soon = soon + Duration::from_secs(1);
        let duplicate = store.claim_placed_at(
            flow_round(2),
            Some(place),
            b,
            LEASE,
            later_on,
            Instant::now(),
            past_soon,
        );
        assert_eq!(text_of(duplicate.unwrap().0), "ok");
        assert_eq!(store.len_at(later_on + Duration::from_secs(1)), 0);
        assert!(store.records().by_key.is_empty());
    }
}
