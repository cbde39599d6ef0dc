//! The wizard over Streamable HTTP, configured from the environment exactly as the example is
//! (`MRTR_KEYS`, `MRTR_REDIS_URL`), for tests that run a fleet of real processes.
//!
//! Usage: `wizard-http ADDR [--native-only]`. With `--native-only` it answers MCP 2026-07-28
//! clients only, as `baseline-http` does, so that the HTTP benchmark compares the two on the
//! same transport; without it, clients of every era, as the example does.

use std::net::SocketAddr;

use mrtr_examples::{
    serve::{self, Clients},
    wizard::Wizard,
};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    serve::init_logging();
    let usage = || anyhow::anyhow!("usage: wizard-http ADDR [--native-only]");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (addr, clients) = match args.as_slice() {
        [addr] => (addr, Clients::EveryEra),
        [addr, flag] if flag == "--native-only" => (addr, Clients::NativeOnly),
        _ => return Err(usage()),
    };
    let addr: SocketAddr = addr.parse()?;
    let engine = mrtr::EngineBuilder::from_env()?
        .without_principal()
        .build()?;
    serve::serve_http_until_ctrl_c("wizard", Wizard::new(engine), addr, clients).await
}
