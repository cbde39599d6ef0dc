//! The prompts and resources of `notes.rs` on stdio with a fixed key, for tests that spawn a
//! real child process.

use mrtr_examples::serve;
use mrtr_tests::notes::Notes;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let engine = mrtr::Engine::builder()
        .key(1, mrtr_tests::keys::test_key(9))
        .build()?;
    serve::serve_stdio(Notes::new(engine)).await
}
