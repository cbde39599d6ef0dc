//! How the examples serve: Streamable HTTP at `/mcp`, or stdio, both from rmcp, to clients of
//! every era: 2026-07-28 clients statelessly, and 2025-06-18 or 2025-11-25 clients on a
//! session, through [`mrtr::Bridged`].

use std::{net::SocketAddr, sync::Arc};

use mrtr::{Bridged, MrtrServer};
use rmcp::{
    ServerHandler, ServiceExt,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};
use tokio_util::sync::CancellationToken;

/// Which clients an HTTP server answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clients {
    /// 2026-07-28 clients statelessly, and pre-2026 clients on a session.
    EveryEra,
    /// 2026-07-28 clients only: rmcp opens no session for a pre-2026 client, and skips
    /// classifying each request as one or the other.
    NativeOnly,
}

/// The Streamable HTTP service for `server`: stateless for 2026-07-28 clients, with an
/// `Mcp-Session-Id` session for the `initialize` of a pre-2026 client.
pub fn http_service<S>(server: S, cancel: CancellationToken) -> axum::Router
where
    S: ServerHandler + MrtrServer + Clone + Send + Sync + 'static,
{
    http_service_for(server, cancel, Clients::EveryEra)
}

/// [`http_service`] for the `clients` given.
pub fn http_service_for<S>(server: S, cancel: CancellationToken, clients: Clients) -> axum::Router
where
    S: ServerHandler + MrtrServer + Clone + Send + Sync + 'static,
{
    let sessions = session_manager(server.mrtr_engine());
    let service: StreamableHttpService<Bridged<S>, LocalSessionManager> =
        StreamableHttpService::new(
            move || Ok(Bridged::new(server.clone())),
            Arc::new(sessions),
            StreamableHttpServerConfig::default()
                .with_legacy_session_mode(clients == Clients::EveryEra)
                .with_json_response(true)
                .with_cancellation_token(cancel),
        );
    axum::Router::new().nest_service("/mcp", service)
}

/// The sessions of pre-2026 clients, each kept while its client is idle for as long as one of
/// its questions may wait for an answer (rmcp's default, 5 minutes, is shorter than the state
/// TTL's 10).
pub fn session_manager(engine: &mrtr::Engine) -> LocalSessionManager {
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(engine.session_keep_alive());
    sessions
}

/// Binds `addr` and serves `server` at `http://ADDR/mcp` until `cancel` fires.
/// Returns the bound address (useful with port 0) and the serving task.
pub async fn serve_http<S>(
    server: S,
    addr: SocketAddr,
    cancel: CancellationToken,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)>
where
    S: ServerHandler + MrtrServer + Clone + Send + Sync + 'static,
{
    serve_http_for(server, addr, cancel, Clients::EveryEra).await
}

/// [`serve_http`] for the `clients` given.
pub async fn serve_http_for<S>(
    server: S,
    addr: SocketAddr,
    cancel: CancellationToken,
    clients: Clients,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)>
where
    S: ServerHandler + MrtrServer + Clone + Send + Sync + 'static,
{
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let router = http_service_for(server, cancel.child_token(), clients);
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

/// Serves `server` on stdin/stdout until the client closes stdin, to clients of every era.
pub async fn serve_stdio<S>(server: S) -> anyhow::Result<()>
where
    S: ServerHandler + MrtrServer + Send + 'static,
{
    let running = Bridged::new(server).serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}

/// How an example runs, from its command line.
pub enum Mode {
    /// `--http ADDR`, or no argument: Streamable HTTP at `http://ADDR/mcp`.
    Http(SocketAddr),
    /// `--stdio`.
    Stdio,
    /// `--demo`: a scripted client in the same process.
    Demo,
}

/// Reads `[--http ADDR | --stdio | --demo]`, accepting the flags in `allowed`. Prints the usage
/// and exits with status 2 on anything else.
pub fn mode_from_args(program: &str, default_port: u16, allowed: &[&str]) -> Mode {
    let usage = format!(
        "usage: {program} [{}]",
        allowed
            .iter()
            .map(|flag| if *flag == "--http" {
                "--http ADDR"
            } else {
                flag
            })
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mode = match args.as_slice() {
        [] => Ok(Mode::Http(SocketAddr::from(([127, 0, 0, 1], default_port)))),
        [flag, addr] if *flag == "--http" && allowed.contains(flag) => {
            addr.parse().map(Mode::Http).map_err(|e| {
                format!("--http {addr}: {e}; give an address like 127.0.0.1:{default_port}")
            })
        }
        [flag] if *flag == "--stdio" && allowed.contains(flag) => Ok(Mode::Stdio),
        [flag] if *flag == "--demo" && allowed.contains(flag) => Ok(Mode::Demo),
        _ => Err(usage),
    };
    mode.unwrap_or_else(|message| {
        eprintln!("{message}");
        std::process::exit(2);
    })
}

/// Logs to stderr (on stdio, stdout carries only MCP messages), at `warn` and the `info` of
/// mrtr and the examples unless `RUST_LOG` says otherwise; in colour only on a terminal, as a
/// client that shows a stdio server's stderr gets plain text.
pub fn init_logging() {
    use std::io::IsTerminal;
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "warn,mrtr=info,mrtr_examples=info".into()),
        )
        .init();
}

/// Serves `server` at `http://ADDR/mcp` until Ctrl-C.
pub async fn serve_http_until_ctrl_c<S>(
    program: &str,
    server: S,
    addr: SocketAddr,
    clients: Clients,
) -> anyhow::Result<()>
where
    S: ServerHandler + MrtrServer + Clone + Send + Sync + 'static,
{
    let cancel = CancellationToken::new();
    let (bound, task) = serve_http_for(server, addr, cancel.clone(), clients).await?;
    let sessions = match clients {
        Clients::EveryEra => " (and 2025-11-25, 2025-06-18 sessions)",
        Clients::NativeOnly => "",
    };
    eprintln!("{program}: serving MCP 2026-07-28{sessions} at http://{bound}/mcp (Ctrl-C to stop)");
    tokio::signal::ctrl_c().await?;
    cancel.cancel();
    task.await?;
    Ok(())
}
