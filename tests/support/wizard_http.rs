//! The wizard over Streamable HTTP, configured from the environment exactly as the example is
//! (`MRTR_KEYS`, `MRTR_REDIS_URL`), for tests that run a fleet of real processes.
//!
//! Usage: `wizard-http ADDR`.

use std::net::SocketAddr;

use mrtr_examples::{serve, wizard::Wizard};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    serve::init_logging();
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: wizard-http ADDR"))?
        .parse()?;
    let engine = mrtr::EngineBuilder::from_env()?
        .without_principal()
        .build()?;
    serve::serve_http_until_ctrl_c("wizard", Wizard::new(engine), addr).await
}
