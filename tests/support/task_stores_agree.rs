//! Two task stores side by side: random sequences of creations, reads and compare-and-sets on
//! a few ids must get the same answer from each store at every step, error kinds included.
//! Run on `MemoryTaskStore` and `RedisTaskStore`, it holds the Lua script to the in-memory
//! store's rules, and the other way round.
//!
//! No answer depends on timing. Records live a minute, a century or `Duration::MAX` (which both
//! stores keep a century), all of which outlive the run, or are brief: they outlive each case
//! by far, and every id is read again only once all of them ran out, so that a replace that
//! lost its record's expiry shows. Each case draws fresh ids, so runs against a long-lived
//! store do not collide; four ids a case make creations collide, compare-and-sets both match
//! and miss, and reads find nothing.
//!
//! `has_room` is not compared: Redis has no bound of its own and always has room, while the
//! memory store has room up to its bytes, so the two differ by design. Nor is `is_shared`.

use std::{
    cell::{Cell, RefCell},
    collections::HashMap,
    time::{Duration, Instant},
};

use mrtr::{Engine, replay::StoreErrorKind, task::TaskStore};
use proptest::{prelude::*, test_runner::TestCaseError};

use crate::{store_contract::random16, stores_agree::runtime_and_runner};

/// The ids a case touches.
const IDS: usize = 4;

/// The most records a case picks from.
const RECORDS: usize = 5;

/// How long a brief record lives: far longer than a case takes; waited out after the run.
const BRIEF: Duration = Duration::from_secs(2);

/// How long past the last brief record's expiry the stores are read again.
const MARGIN: Duration = Duration::from_millis(250);

#[derive(Debug, Clone, Copy, PartialEq)]
enum Ttl {
    Minute,
    Century,
    /// Past what a clock can hold: each store keeps it a century.
    Forever,
    Brief,
}

impl Ttl {
    fn duration(self) -> Duration {
        match self {
            Self::Minute => Duration::from_secs(60),
            Self::Century => Engine::MAX_TIME,
            Self::Forever => Duration::MAX,
            Self::Brief => BRIEF,
        }
    }
}

/// Records are picked from the case's few, so that equal ones meet.
#[derive(Debug, Clone)]
enum Op {
    Create {
        id: usize,
        record: usize,
        ttl: Ttl,
    },
    Get {
        id: usize,
    },
    Replace {
        id: usize,
        expected: Expected,
        record: usize,
    },
}

/// What a replace expects.
#[derive(Debug, Clone, Copy)]
enum Expected {
    /// What the id's last successful write left, empty if none did.
    Held,
    /// One of the case's records, which may or may not be it.
    Record(usize),
}

/// Empty, not UTF-8, short and long.
fn record() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        Just(vec![0xff, 0x00, 0xc3, 0x28, 0x80]),
        prop::collection::vec(any::<u8>(), 1..16),
        prop::collection::vec(any::<u8>(), 16..600),
    ]
}

fn ops() -> impl Strategy<Value = Op> {
    let id = 0..IDS;
    let ttl = prop_oneof![4 => Just(Ttl::Minute), 1 => Just(Ttl::Century), 1 => Just(Ttl::Forever), 2 => Just(Ttl::Brief)];
    let expected = prop_oneof![
        2 => Just(Expected::Held),
        1 => (0..RECORDS).prop_map(Expected::Record),
    ];
    prop_oneof![
        3 => (id.clone(), 0..RECORDS, ttl)
            .prop_map(|(id, record, ttl)| Op::Create { id, record, ttl }),
        2 => id.clone().prop_map(|id| Op::Get { id }),
        4 => (id, expected, 0..RECORDS)
            .prop_map(|(id, expected, record)| Op::Replace { id, expected, record }),
    ]
}

/// What a step answered, comparable across stores.
#[derive(Debug, PartialEq)]
enum Answer {
    Created(Result<(), StoreErrorKind>),
    Read(Result<Option<Vec<u8>>, StoreErrorKind>),
    Replaced(Result<bool, StoreErrorKind>),
}

async fn create(store: &dyn TaskStore, id: &str, record: &[u8], ttl: Duration) -> Answer {
    Answer::Created(
        store
            .create(id, record, ttl)
            .await
            .map_err(|error| error.kind()),
    )
}

async fn get(store: &dyn TaskStore, id: &str) -> Answer {
    Answer::Read(store.get(id).await.map_err(|error| error.kind()))
}

async fn replace(store: &dyn TaskStore, id: &str, expected: &[u8], record: &[u8]) -> Answer {
    Answer::Replaced(
        store
            .replace(id, expected, record)
            .await
            .map_err(|error| error.kind()),
    )
}

/// An id some case used, and the TTL its record was created with, if one was.
struct Used {
    id: String,
    created_with: Option<Ttl>,
}

/// Runs `cases` random sequences on both stores, from a thread that is not in a runtime, then
/// reads every id again once the brief records ran out. Panics with the shortest sequence on
/// which the stores disagree, or with the id they disagree on after.
pub fn check(left: &dyn TaskStore, right: &dyn TaskStore, cases: u32) {
    let (runtime, mut runner) = runtime_and_runner(cases);
    let run = (
        prop::collection::vec(record(), 1..=RECORDS),
        prop::collection::vec(ops(), 1..48),
    );
    let used = RefCell::new(Vec::<Used>::new());
    let brief_ones_lapse = Cell::new(None::<Instant>);
    let outcome = runner.run(&run, |(records, run)| {
        let started = Instant::now();
        let ids: Vec<String> = (0..IDS)
            .map(|_| format!("agree-{:032x}", u128::from_le_bytes(random16())))
            .collect();
        let mut created_with = [None; IDS];
        let mut held: HashMap<usize, Vec<u8>> = HashMap::new();
        let pick = |at: usize| &records[at % records.len()];
        let steps = runtime.block_on(async {
            for (serial, op) in run.iter().enumerate() {
                let (want, got) = match *op {
                    Op::Create {
                        id,
                        record: at,
                        ttl,
                    } => {
                        let want = create(left, &ids[id], pick(at), ttl.duration()).await;
                        let got = create(right, &ids[id], pick(at), ttl.duration()).await;
                        if want == Answer::Created(Ok(())) {
                            created_with[id] = Some(ttl);
                            held.insert(id, pick(at).clone());
                            if ttl == Ttl::Brief {
                                brief_ones_lapse.set(Some(Instant::now() + BRIEF));
                            }
                        }
                        (want, got)
                    }
                    Op::Get { id } => (get(left, &ids[id]).await, get(right, &ids[id]).await),
                    Op::Replace {
                        id,
                        expected,
                        record: at,
                    } => {
                        let expected = match expected {
                            Expected::Held => held.get(&id).cloned().unwrap_or_default(),
                            Expected::Record(other) => pick(other).clone(),
                        };
                        let want = replace(left, &ids[id], &expected, pick(at)).await;
                        let got = replace(right, &ids[id], &expected, pick(at)).await;
                        if want == Answer::Replaced(Ok(true)) {
                            held.insert(id, pick(at).clone());
                        }
                        (want, got)
                    }
                };
                if got != want {
                    return Err(format!(
                        "step {serial}, {op:?}: {want:?} from one store, {got:?} from the other"
                    ));
                }
            }
            Ok(())
        });
        used.borrow_mut().extend(
            ids.into_iter()
                .zip(created_with)
                .map(|(id, created_with)| Used { id, created_with }),
        );
        steps.map_err(|disagreement| {
            let took = started.elapsed();
            let timing = if took >= BRIEF {
                format!(" (the case took {took:?}, past a brief record's life: timing may be why)")
            } else {
                String::new()
            };
            TestCaseError::fail(format!("{disagreement}{timing}"))
        })
    });
    if let Err(failure) = outcome {
        panic!("the task stores disagree: {failure}");
    }

    // Once every brief record ran out, each id reads alike again, and takes a new record
    // alike: a record one store still holds kept no expiry there.
    if let Some(lapse) = brief_ones_lapse.get() {
        std::thread::sleep((lapse + MARGIN).saturating_duration_since(Instant::now()));
    }
    runtime.block_on(async {
        for Used { id, created_with } in used.into_inner() {
            let minute = Ttl::Minute.duration();
            let steps = [
                ("read", get(left, &id).await, get(right, &id).await),
                (
                    "created again",
                    create(left, &id, b"after", minute).await,
                    create(right, &id, b"after", minute).await,
                ),
            ];
            for (step, want, got) in steps {
                assert_eq!(
                    want, got,
                    "the task stores disagree once brief records ran out: {id}, created with \
                     {created_with:?}, {step}"
                );
            }
        }
    });
}
