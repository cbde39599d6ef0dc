//! Two replay stores side by side: random sequences of claims, renewals, completions and
//! releases, by several holders over a few rounds, must get the same answer from each store
//! at every step. Run on `MemoryStore` and `RedisStore`, it holds the Lua scripts to the
//! in-memory store's rules, and the other way round.
//!
//! Leases are either held for the whole run or lapsed at once (zero), so no answer depends on
//! how long a step takes; every record outlives the run. Each run uses fresh flow ids, so runs
//! against a long-lived store do not collide.

use std::time::{Duration, SystemTime};

use mrtr::replay::{Claim, Holder, Recorded, ReplayStore, RoundKey, StoreErrorKind};
use proptest::{
    prelude::*,
    test_runner::{Config, TestCaseError, TestRunner},
};

use crate::store_contract::{flow, holder};

/// A lease that lasts the whole run.
const HELD: Duration = Duration::from_secs(60);

#[derive(Debug, Clone)]
enum Op {
    Claim {
        round: usize,
        holder: usize,
        held: bool,
    },
    Renew {
        round: usize,
        holder: usize,
        held: bool,
    },
    Complete {
        round: usize,
        holder: usize,
        response_len: usize,
    },
    Release {
        round: usize,
        holder: usize,
    },
}

/// The rounds a run touches: three flows of two rounds each.
const ROUNDS: usize = 6;
const HOLDERS: usize = 3;

fn ops() -> impl Strategy<Value = Op> {
    let round = 0..ROUNDS;
    let holder = 0..HOLDERS;
    prop_oneof![
        4 => (round.clone(), holder.clone(), any::<bool>())
            .prop_map(|(round, holder, held)| Op::Claim { round, holder, held }),
        1 => (round.clone(), holder.clone(), any::<bool>())
            .prop_map(|(round, holder, held)| Op::Renew { round, holder, held }),
        3 => (round.clone(), holder.clone(), 0usize..600).prop_map(
            |(round, holder, response_len)| Op::Complete { round, holder, response_len }
        ),
        1 => (round, holder).prop_map(|(round, holder)| Op::Release { round, holder }),
    ]
}

/// A response no other completion in the run repeats, with every byte value in it.
fn response(len: usize, serial: usize) -> Vec<u8> {
    let mut bytes = serial.to_le_bytes().to_vec();
    bytes.extend((0..len).map(|at| (at * 7 + serial) as u8));
    bytes
}

/// What a step answered, comparable across stores.
#[derive(Debug, PartialEq)]
enum Answer {
    Claim(Result<Claim, StoreErrorKind>),
    Changed(Result<bool, StoreErrorKind>),
}

async fn apply(
    store: &dyn ReplayStore,
    keys: &[RoundKey],
    holders: &[Holder],
    op: &Op,
    serial: usize,
) -> Answer {
    let lease = |held: bool| if held { HELD } else { Duration::ZERO };
    let expires = SystemTime::now() + Duration::from_secs(600);
    match *op {
        Op::Claim {
            round,
            holder,
            held,
        } => Answer::Claim(
            store
                .claim(keys[round], holders[holder], lease(held), expires)
                .await
                .map_err(|error| error.kind()),
        ),
        Op::Renew {
            round,
            holder,
            held,
        } => Answer::Changed(
            store
                .renew(keys[round], holders[holder], lease(held))
                .await
                .map_err(|error| error.kind()),
        ),
        Op::Complete {
            round,
            holder,
            response_len,
        } => {
            let response = Recorded::sealed(response(response_len, serial));
            Answer::Changed(
                store
                    .complete(keys[round], holders[holder], response, expires)
                    .await
                    .map_err(|error| error.kind()),
            )
        }
        Op::Release { round, holder } => Answer::Changed(
            store
                .release(keys[round], holders[holder])
                .await
                .map_err(|error| error.kind()),
        ),
    }
}

/// Runs `cases` random sequences on both stores, from a thread that is not in a runtime.
/// Panics with the shortest sequence on which they disagree.
pub fn check(left: &dyn ReplayStore, right: &dyn ReplayStore, cases: u32) {
    let (runtime, mut runner) = runtime_and_runner(cases);
    let run = prop::collection::vec(ops(), 1..48);
    let outcome = runner.run(&run, |run| {
        runtime.block_on(async {
            let keys: Vec<RoundKey> = (0..ROUNDS / 2)
                .flat_map(|_| {
                    let flow = flow();
                    [1, 2].map(|round| RoundKey { flow, round })
                })
                .collect();
            let holders: Vec<Holder> = (0..HOLDERS).map(|_| holder()).collect();
            for (serial, op) in run.iter().enumerate() {
                let want = apply(left, &keys, &holders, op, serial).await;
                let got = apply(right, &keys, &holders, op, serial).await;
                if got != want {
                    return Err(TestCaseError::fail(format!(
                        "step {serial}, {op:?}: {want:?} from one store, {got:?} from the other"
                    )));
                }
            }
            Ok(())
        })
    });
    if let Err(failure) = outcome {
        panic!("the stores disagree: {failure}");
    }
}

/// A runtime for the stores' futures and a proptest runner of `cases` cases that saves no
/// failures to disk, for each of the stores' differential checks.
pub(crate) fn runtime_and_runner(cases: u32) -> (tokio::runtime::Runtime, TestRunner) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    (runtime, TestRunner::new(config))
}
