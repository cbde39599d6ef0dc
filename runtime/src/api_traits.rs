//! The public types a server shares between tasks and prints: `Send + Sync + 'static` and
//! `Debug`, and their `Debug` never shows a key or a Redis URL.

use crate::{
    Bridged, Capabilities, ConfigError, Elicited, Engine, EngineBuilder, Refused, Root, Sampled,
    UrlElicited,
    replay::{Claim, MemoryStore, RecordedResponse, StoreError},
    task::MemoryTaskStore,
};

fn shared_and_printable<T: Send + Sync + std::fmt::Debug + 'static>() {}

#[test]
fn public_types_are_send_sync_and_debug() {
    shared_and_printable::<Engine>();
    shared_and_printable::<EngineBuilder>();
    shared_and_printable::<ConfigError>();
    shared_and_printable::<StoreError>();
    shared_and_printable::<MemoryStore>();
    shared_and_printable::<MemoryTaskStore>();
    shared_and_printable::<Claim>();
    shared_and_printable::<RecordedResponse>();
    shared_and_printable::<Elicited<String>>();
    shared_and_printable::<Refused>();
    shared_and_printable::<UrlElicited>();
    shared_and_printable::<Sampled>();
    shared_and_printable::<Root>();
    shared_and_printable::<Capabilities>();
    shared_and_printable::<Bridged<()>>();
    #[cfg(feature = "redis")]
    {
        shared_and_printable::<crate::replay::RedisStore>();
        shared_and_printable::<crate::task::RedisTaskStore>();
    }
    #[cfg(feature = "testing")]
    {
        shared_and_printable::<crate::testing::Harness>();
        shared_and_printable::<crate::testing::Call<'static>>();
        shared_and_printable::<crate::testing::HarnessError>();
    }
}

#[test]
fn a_builder_prints_its_key_ids_and_not_its_keys() {
    let builder = Engine::builder()
        .key(7, [0xAB; 32])
        .ttl(std::time::Duration::from_secs(30));
    let printed = format!("{builder:?}");
    assert!(printed.contains("key_ids: [7]"), "{printed}");
    assert!(printed.contains("ttl: Some(30s)"), "{printed}");
    assert!(!printed.contains("171"), "a key byte: {printed}");
}

#[test]
fn an_engine_prints_its_settings_and_not_its_keys() {
    let key = "X2XQbUjbJfvYQXgBhUoZdeUD6eHcAwRctSvzddqmzfo=";
    let engine = Engine::builder()
        .keys_from_str(&format!("7:{key}"))
        .unwrap()
        .without_principal()
        .sign_only()
        .build()
        .unwrap();
    let printed = format!("{engine:?}");
    for setting in [
        "key_ids: [7]",
        "sign_only: true",
        "principal_hook: false",
        "ttl: 600s",
    ] {
        assert!(printed.contains(setting), "{setting}: {printed}");
    }
    // The key's first bytes, 95 and 109, as `Debug` would list them.
    assert!(
        !printed.contains(key) && !printed.contains("95, 109"),
        "{printed}"
    );
}

#[cfg(feature = "redis")]
#[test]
fn a_redis_store_prints_without_its_url() {
    let url = "redis://user:hunter2@redis.internal:6379/0";
    let store = crate::replay::RedisStore::open(url).unwrap();
    let tasks = crate::task::RedisTaskStore::open(url).unwrap();
    for printed in [format!("{store:?}"), format!("{tasks:?}")] {
        assert!(printed.contains("prefix: \"mrtr:"), "{printed}");
        assert!(!printed.contains("hunter2") && !printed.contains("redis.internal"));
    }
}
