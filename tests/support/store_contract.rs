//! The contract of [`ReplayStore`], as its documentation states it, checked against any store.
//!
//! Every check uses fresh random flow ids, so runs against a long-lived store (a shared Redis)
//! do not collide. The whole contract takes about 1.5 s: it waits for a lease and a record to
//! lapse.

use std::{
    collections::hash_map::RandomState,
    hash::{BuildHasher, Hasher},
    sync::atomic::{AtomicU64, Ordering},
    time::{Duration, SystemTime},
};

use mrtr::replay::{Claim, FlowId, Holder, Recorded, ReplayStore, RoundKey};

/// Long enough never to lapse during a check.
const LEASE: Duration = Duration::from_secs(30);
/// Short enough to lapse during a check.
const SHORT_LEASE: Duration = Duration::from_millis(200);

/// 16 random bytes: a fresh `RandomState` is seeded from the OS per process, and a counter
/// keeps draws in one process apart.
pub fn random16() -> [u8; 16] {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut bytes = [0u8; 16];
    for half in bytes.chunks_mut(8) {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        half.copy_from_slice(&hasher.finish().to_le_bytes());
    }
    bytes
}

/// A flow id no other draw has.
pub fn flow() -> FlowId {
    let mut flow = FlowId::default();
    let len = flow.len();
    flow.copy_from_slice(&random16()[..len]);
    flow
}

/// A holder no other draw has.
pub fn holder() -> Holder {
    Holder(random16())
}

fn key(flow: FlowId, round: u32) -> RoundKey {
    RoundKey { flow, round }
}

/// A minute from now: records that outlive the check.
fn later() -> SystemTime {
    SystemTime::now() + Duration::from_secs(60)
}

/// What a sealed response may look like: binary, every byte value, and not small.
fn binary_response(tag: u8) -> Vec<u8> {
    let mut response: Vec<u8> = (0..=255u8).collect();
    response.extend(std::iter::repeat_n(tag, 20_000));
    response.push(0);
    response
}

/// Checks every documented rule of [`ReplayStore`] on `store`. Panics on the first broken one.
pub async fn check(store: &dyn ReplayStore) {
    // The checks that wait run side by side.
    tokio::join!(
        a_round_is_won_once_then_answers_its_response(store),
        only_the_holder_renews_or_completes(store),
        rounds_and_flows_are_independent(store),
        a_lapsed_lease_hands_the_round_over(store),
        a_record_lasts_until_it_expires_and_no_longer(store),
        only_the_holder_releases_a_claim_it_never_ran(store),
    );
}

/// A claim given up on is dropped by its holder alone, and never once the round is done.
async fn only_the_holder_releases_a_claim_it_never_ran(store: &dyn ReplayStore) {
    let round = key(flow(), 5);
    let (owner, other) = (holder(), holder());
    let release = |holder| async move {
        store
            .release(round, holder)
            .await
            .unwrap_or_else(|error| panic!("release {round}: {error}"))
    };

    assert!(!release(owner).await, "release a round nobody claimed");
    assert_eq!(claim(store, round, owner).await, Claim::Won);
    assert!(!release(other).await, "release another's claim");
    assert_eq!(claim(store, round, other).await, Claim::Running);
    assert!(release(owner).await, "the holder releases its claim");
    assert_eq!(claim(store, round, other).await, Claim::Won, "free again");
    assert!(complete(store, round, other, b"done").await);
    assert!(!release(other).await, "release a done round");
    assert_eq!(
        claim(store, round, owner).await,
        Claim::Done(Recorded::sealed(b"done".to_vec()))
    );
}

async fn claim(store: &dyn ReplayStore, key: RoundKey, holder: Holder) -> Claim {
    store
        .claim(key, holder, LEASE, later())
        .await
        .unwrap_or_else(|error| panic!("claim {key}: {error}"))
}

async fn complete(store: &dyn ReplayStore, key: RoundKey, holder: Holder, response: &[u8]) -> bool {
    store
        .complete(key, holder, Recorded::sealed(response.to_vec()), later())
        .await
        .unwrap_or_else(|error| panic!("complete {key}: {error}"))
}

async fn renew(store: &dyn ReplayStore, key: RoundKey, holder: Holder, lease: Duration) -> bool {
    store
        .renew(key, holder, lease)
        .await
        .unwrap_or_else(|error| panic!("renew {key}: {error}"))
}

/// Won, then Running while held, then Done with the response, byte for byte, to everyone.
async fn a_round_is_won_once_then_answers_its_response(store: &dyn ReplayStore) {
    let round = key(flow(), 1);
    let (first, second, third) = (holder(), holder(), holder());
    let response = binary_response(b'a');

    assert_eq!(claim(store, round, first).await, Claim::Won, "a free round");
    assert_eq!(claim(store, round, second).await, Claim::Running, "held");
    assert_eq!(
        claim(store, round, first).await,
        Claim::Running,
        "the holder's own second claim finds it held too"
    );
    assert!(
        complete(store, round, first, &response).await,
        "by the holder"
    );
    for anyone in [second, third, first] {
        assert_eq!(
            claim(store, round, anyone).await,
            Claim::Done(Recorded::sealed(response.clone())),
            "a done round answers its response"
        );
    }

    // Done is final: the former holder can neither renew it nor record another response.
    assert!(
        !renew(store, round, first, LEASE).await,
        "renew a done round"
    );
    complete(store, round, first, b"another").await;
    assert_eq!(
        claim(store, round, third).await,
        Claim::Done(Recorded::sealed(response))
    );
}

/// Another request's renew or complete is refused and changes nothing.
async fn only_the_holder_renews_or_completes(store: &dyn ReplayStore) {
    let round = key(flow(), 3);
    let (owner, other) = (holder(), holder());

    assert!(
        !renew(store, round, owner, LEASE).await,
        "renew a round nobody claimed"
    );
    assert!(
        !complete(store, round, owner, b"unclaimed").await,
        "complete a round nobody claimed"
    );
    assert_eq!(
        claim(store, round, owner).await,
        Claim::Won,
        "a refused complete left no record"
    );

    assert!(
        !complete(store, round, other, b"not mine").await,
        "complete by a non-holder"
    );
    assert!(
        !renew(store, round, other, LEASE).await,
        "renew by a non-holder"
    );
    assert_eq!(
        claim(store, round, other).await,
        Claim::Running,
        "still held after a non-holder's complete and renew"
    );
    assert!(
        renew(store, round, owner, LEASE).await,
        "renew by the holder"
    );
    assert!(
        complete(store, round, owner, b"mine").await,
        "complete by the holder"
    );
    assert_eq!(
        claim(store, round, other).await,
        Claim::Done(Recorded::sealed(b"mine".to_vec()))
    );
}

/// Rounds of one flow and the same round of two flows are separate records.
async fn rounds_and_flows_are_independent(store: &dyn ReplayStore) {
    let (f, g) = (flow(), flow());
    let (one, two, other) = (key(f, 1), key(f, 2), key(g, 1));
    let (a, b, c, d) = (holder(), holder(), holder(), holder());

    for (round, by) in [(one, a), (two, b), (other, c)] {
        assert_eq!(claim(store, round, by).await, Claim::Won, "{round}");
    }
    assert!(complete(store, one, a, b"one").await);
    assert_eq!(
        claim(store, two, d).await,
        Claim::Running,
        "round 2 still held"
    );
    assert_eq!(
        claim(store, other, d).await,
        Claim::Running,
        "flow g still held"
    );
    assert!(
        !complete(store, other, a, b"wrong flow").await,
        "a holder of f's round 1 does not hold g's"
    );
    assert!(complete(store, other, c, b"other").await);
    assert!(complete(store, two, b, b"two").await);
    assert_eq!(
        claim(store, one, d).await,
        Claim::Done(Recorded::sealed(b"one".to_vec()))
    );
    assert_eq!(
        claim(store, two, d).await,
        Claim::Done(Recorded::sealed(b"two".to_vec()))
    );
    assert_eq!(
        claim(store, other, d).await,
        Claim::Done(Recorded::sealed(b"other".to_vec()))
    );
}

/// A holder that stops renewing loses the round once its lease lapses; the next claim wins it,
/// and the former holder can neither renew nor complete it.
async fn a_lapsed_lease_hands_the_round_over(store: &dyn ReplayStore) {
    let round = key(flow(), 2);
    let (dead, retry, late) = (holder(), holder(), holder());

    let won = store.claim(round, dead, SHORT_LEASE, later()).await;
    assert_eq!(won, Ok(Claim::Won));
    assert_eq!(
        claim(store, round, retry).await,
        Claim::Running,
        "within the lease"
    );
    tokio::time::sleep(SHORT_LEASE + Duration::from_millis(150)).await;

    assert_eq!(
        claim(store, round, retry).await,
        Claim::Won,
        "after the lease lapsed"
    );
    assert_eq!(
        claim(store, round, late).await,
        Claim::Running,
        "the new holder's lease holds"
    );
    assert!(
        !renew(store, round, dead, LEASE).await,
        "renew by the former holder"
    );
    assert!(
        !complete(store, round, dead, b"too late").await,
        "complete by the former holder"
    );
    assert_eq!(claim(store, round, late).await, Claim::Running);
    assert!(complete(store, round, retry, b"retried").await);
    assert_eq!(
        claim(store, round, late).await,
        Claim::Done(Recorded::sealed(b"retried".to_vec()))
    );
}

/// A record, running or done, is gone once its `expires_at` has passed, whatever its lease.
async fn a_record_lasts_until_it_expires_and_no_longer(store: &dyn ReplayStore) {
    let (done, running) = (key(flow(), 1), key(flow(), 1));
    let (first, second) = (holder(), holder());
    let expires_at = SystemTime::now() + Duration::from_secs(1);

    for round in [done, running] {
        let won = store.claim(round, first, LEASE, expires_at).await;
        assert_eq!(won, Ok(Claim::Won), "{round}");
    }
    let completed = store
        .complete(
            done,
            first,
            Recorded::sealed(b"soon gone".to_vec()),
            expires_at,
        )
        .await;
    assert_eq!(completed, Ok(true));
    assert_eq!(
        claim(store, done, second).await,
        Claim::Done(Recorded::sealed(b"soon gone".to_vec())),
        "before it expires"
    );
    assert_eq!(
        claim(store, running, second).await,
        Claim::Running,
        "before it expires"
    );

    let past = expires_at + Duration::from_millis(300);
    tokio::time::sleep(past.duration_since(SystemTime::now()).unwrap_or_default()).await;
    for round in [done, running] {
        assert_eq!(
            claim(store, round, second).await,
            Claim::Won,
            "{round} after it expired"
        );
    }
}
