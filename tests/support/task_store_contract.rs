//! The contract of [`TaskStore`], as its documentation states it, checked against any store.
//! Ids are fresh random strings, so runs against a long-lived store do not collide.

use std::time::Duration;

use mrtr::task::TaskStore;

fn fresh_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(std::process::id().into());
    format!("contract-{:016x}", hasher.finish())
}

/// Checks every documented rule of [`TaskStore`] on `store`. Panics on the first broken one.
pub async fn check(store: &dyn TaskStore) {
    let long = Duration::from_secs(60);

    // A record reads back as written; an unknown id is `None`.
    let id = fresh_id();
    let first: Vec<u8> = (0..=255u8).chain(std::iter::repeat_n(0, 5000)).collect();
    store.create(&id, &first, long).await.expect("create");
    assert_eq!(store.get(&id).await.unwrap().as_deref(), Some(&first[..]));
    assert_eq!(store.get(&fresh_id()).await.unwrap(), None);

    // A create on a live id fails and leaves the record as it was.
    assert!(store.create(&id, b"overwrite", long).await.is_err());
    assert_eq!(store.get(&id).await.unwrap().as_deref(), Some(&first[..]));

    // `replace` is a compare-and-set: against what is there it applies, against anything
    // else it does not.
    assert!(!store.replace(&id, b"not it", b"lost").await.unwrap());
    assert_eq!(store.get(&id).await.unwrap().as_deref(), Some(&first[..]));
    assert!(store.replace(&id, &first, b"second").await.unwrap());
    assert_eq!(
        store.get(&id).await.unwrap().as_deref(),
        Some(&b"second"[..])
    );
    assert!(!store.replace(&id, &first, b"stale").await.unwrap());
    assert!(!store.replace(&fresh_id(), b"", b"nothing").await.unwrap());

    // Of many replacing the same record at once, exactly one wins.
    let wins = futures_wins(store, &id, b"second").await;
    assert_eq!(wins, 1, "exactly one concurrent replace applies");

    // A record expires with its TTL, and replacing it does not extend it.
    let short = fresh_id();
    store
        .create(&short, b"brief", Duration::from_millis(400))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(store.replace(&short, b"brief", b"changed").await.unwrap());
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(store.get(&short).await.unwrap(), None, "expired");
    assert!(!store.replace(&short, b"changed", b"back").await.unwrap());
}

async fn futures_wins(store: &dyn TaskStore, id: &str, expected: &[u8]) -> usize {
    let attempts = (0..16).map(|n| {
        let record = format!("winner {n}").into_bytes();
        async move { store.replace(id, expected, &record).await.unwrap() }
    });
    let mut wins = 0;
    for won in futures::future::join_all(attempts).await {
        wins += usize::from(won);
    }
    wins
}
