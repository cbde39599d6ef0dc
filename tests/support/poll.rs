//! Waiting in a test for what another task does.

use std::time::Duration;

/// Waits until `done` holds, looking every 20 ms for at most `within`; an error naming `what`
/// if it never does.
pub async fn until(what: &str, within: Duration, done: impl Fn() -> bool) -> anyhow::Result<()> {
    let started = tokio::time::Instant::now();
    while !done() {
        if started.elapsed() > within {
            anyhow::bail!("{what} did not happen within {within:?}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}
