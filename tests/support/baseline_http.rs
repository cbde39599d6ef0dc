//! The hand-written baseline ([`HandWritten`]: `signup`, `onboard`, `wizard5` on rmcp alone)
//! over stateless Streamable HTTP, served as `wizard-http` serves the mrtr wizard, to measure
//! and compare the two over a real network stack.
//!
//! Usage: `baseline-http ADDR`. It serves `http://ADDR/mcp` until Ctrl-C. The baseline speaks
//! MCP 2026-07-28 only (its tools answer with `input_required` results), so unlike
//! `wizard-http` it opens no sessions for pre-2026 clients. Its states are sealed with a fixed
//! key, the same in every process, so instances behind one proxy open each other's states.

use std::{net::SocketAddr, sync::Arc};

use mrtr_examples::serve;
use mrtr_tests::baseline::HandWritten;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio_util::sync::CancellationToken;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    serve::init_logging();
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: baseline-http ADDR"))?
        .parse()?;
    let program = "baseline";
    let cancel = CancellationToken::new();
    // Built once and cloned for each request, as `mrtr_examples::serve` does for the wizard.
    let server = HandWritten::new();
    let service: StreamableHttpService<HandWritten, LocalSessionManager> =
        StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default()
                .with_legacy_session_mode(false)
                .with_json_response(true)
                .with_cancellation_token(cancel.child_token()),
        );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let shutdown = {
        let cancel = cancel.clone();
        async move { cancel.cancelled_owned().await }
    };
    let task = tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, router)
            .with_graceful_shutdown(shutdown)
            .await
        {
            tracing::error!(%error, "HTTP server stopped");
        }
    });
    eprintln!("{program}: serving MCP 2026-07-28 at http://{bound}/mcp (Ctrl-C to stop)");
    tokio::signal::ctrl_c().await?;
    cancel.cancel();
    task.await?;
    Ok(())
}
