//! `Clients::NativeOnly`, the serving `wizard-http --native-only` and the HTTP benchmark use:
//! 2026-07-28 flows run as they do when every era is served, and the `initialize` of a
//! pre-2026 client gets no session.

use std::net::SocketAddr;

use mrtr::Engine;
use mrtr_examples::{
    loadgen::{self, Options, Tool},
    serve::{self, Clients},
    wizard::Wizard,
};
use mrtr_tests::transports::bounded;
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// Serves the wizard to `clients` on a free loopback port; its URL, and what stops it.
async fn serve(clients: Clients) -> anyhow::Result<(String, CancellationToken)> {
    let engine = Engine::builder().without_principal().build()?;
    let cancel = CancellationToken::new();
    let (addr, _task) = serve::serve_http_for(
        Wizard::new(engine),
        SocketAddr::from(([127, 0, 0, 1], 0)),
        cancel.clone(),
        clients,
    )
    .await?;
    Ok((format!("http://{addr}/mcp"), cancel))
}

/// The session id a 2025-11-25 `initialize` gets, if any, and the response's status.
async fn legacy_initialize(url: &str) -> anyhow::Result<(u16, Option<String>)> {
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "legacy-user", "version": "1"}
        }
    });
    let response = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_string())
        .send()
        .await?;
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    Ok((response.status().as_u16(), session))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_flows_complete_when_only_native_clients_are_served() -> anyhow::Result<()> {
    bounded(async {
        let (url, cancel) = serve(Clients::NativeOnly).await?;
        let report = loadgen::run(&Options {
            url,
            tool: Tool::Wizard5,
            flows: 20,
            concurrency: 4,
            duration: std::time::Duration::from_secs(10),
            json: false,
        })
        .await?;
        cancel.cancel();
        assert!(report.passed(), "{report}");
        assert_eq!((report.completed, report.failed), (20, 0), "{report}");
        Ok(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_initialize_gets_a_session_only_when_every_era_is_served() -> anyhow::Result<()> {
    bounded(async {
        let (every_era, stop_every_era) = serve(Clients::EveryEra).await?;
        let (native_only, stop_native_only) = serve(Clients::NativeOnly).await?;
        let with_sessions = legacy_initialize(&every_era).await?;
        let without = legacy_initialize(&native_only).await?;
        stop_every_era.cancel();
        stop_native_only.cancel();
        println!("every era: {with_sessions:?}; native only: {without:?}");
        assert_eq!(with_sessions.0, 200);
        assert!(with_sessions.1.is_some(), "{with_sessions:?}");
        assert_eq!(without.1, None, "{without:?}");
        Ok(())
    })
    .await
}
