//! A clock the tests move by hand, to expire states without waiting.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, SystemTime},
};

/// Real time plus an offset the test can advance.
#[derive(Clone, Default)]
pub struct TestClock {
    offset_secs: Arc<AtomicU64>,
}

impl TestClock {
    pub fn advance(&self, by: Duration) {
        self.offset_secs.fetch_add(by.as_secs(), Ordering::SeqCst);
    }

    pub fn now(&self) -> SystemTime {
        SystemTime::now() + Duration::from_secs(self.offset_secs.load(Ordering::SeqCst))
    }

    /// An engine with a fixed test key that reads this clock.
    pub fn engine(&self) -> mrtr::Engine {
        let clock = self.clone();
        mrtr::Engine::builder()
            .key(1, crate::keys::test_key(7))
            .clock(move || clock.now())
            .build()
            .expect("a fixed key is valid")
    }
}
