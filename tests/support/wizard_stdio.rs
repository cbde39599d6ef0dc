//! The wizard on stdio with a fixed key, for tests that spawn a real child process.

use mrtr_examples::{serve, wizard::Wizard};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let engine = mrtr::Engine::builder()
        .key(1, mrtr_tests::keys::test_key(9))
        .build()?;
    serve::serve_stdio(Wizard::new(engine)).await
}
