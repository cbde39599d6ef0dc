//! A `tracing` writer that keeps every line in memory, for tests that read what was logged.

use std::sync::{Arc, Mutex, OnceLock};

/// The lines logged through it, shared by its clones.
#[derive(Clone, Default)]
pub struct LogLines(Arc<Mutex<Vec<u8>>>);

impl LogLines {
    /// Runs `f` with a subscriber on this thread that writes here, at `level` and above.
    ///
    /// While only one subscriber is registered, tracing asks just the calling thread's about a
    /// callsite hit for the first time, so another test's thread would mark it unwanted for good
    /// and its line would be missed. A second one, kept for the whole run, makes it ask every
    /// registered subscriber.
    pub fn capture<R>(&self, level: tracing::Level, f: impl FnOnce() -> R) -> R {
        static SECOND: OnceLock<tracing::Dispatch> = OnceLock::new();
        SECOND.get_or_init(|| tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default()));
        let writer = self.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_max_level(level)
            .with_ansi(false)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            // A callsite cached as unwanted before this subscriber came is asked again.
            tracing::callsite::rebuild_interest_cache();
            f()
        })
    }

    /// Everything logged so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl std::io::Write for LogLines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
