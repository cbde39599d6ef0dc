//! How the examples serve: stateless Streamable HTTP at `/mcp`, or stdio, both from rmcp.

use std::{net::SocketAddr, sync::Arc};

use rmcp::{
    ServerHandler, ServiceExt,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};
use tokio_util::sync::CancellationToken;

/// The stateless Streamable HTTP service for `server` (2026-07-28: no sessions).
pub fn http_service<S>(server: S, cancel: CancellationToken) -> axum::Router
where
    S: ServerHandler + Clone + Send + Sync + 'static,
{
    let service: StreamableHttpService<S, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_cancellation_token(cancel),
    );
    axum::Router::new().nest_service("/mcp", service)
}

/// Binds `addr` and serves `server` at `http://ADDR/mcp` until `cancel` fires.
/// Returns the bound address (useful with port 0) and the serving task.
pub async fn serve_http<S>(
    server: S,
    addr: SocketAddr,
    cancel: CancellationToken,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)>
where
    S: ServerHandler + Clone + Send + Sync + 'static,
{
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let router = http_service(server, cancel.child_token());
    let task = tokio::spawn(async move {
        let shutdown = async move { cancel.cancelled_owned().await };
        if let Err(error) = axum::serve(listener, router)
            .with_graceful_shutdown(shutdown)
            .await
        {
            tracing::error!(%error, "HTTP server stopped");
        }
    });
    Ok((bound, task))
}

/// Serves `server` on stdin/stdout until the client closes stdin.
pub async fn serve_stdio<S>(server: S) -> anyhow::Result<()>
where
    S: ServerHandler + Send + 'static,
{
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
