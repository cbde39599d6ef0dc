//! Servers on 127.0.0.1 with a port chosen by the OS, stopped when dropped.

use std::net::SocketAddr;

use rmcp::{
    ServerHandler,
    model::ClientConfig,
    service::{RoleClient, RunningService},
};
use tokio_util::sync::CancellationToken;

/// A server on loopback and a connected 2026-07-28 client that declares form elicitation.
pub struct Loopback {
    pub url: String,
    pub client: RunningService<RoleClient, ClientConfig>,
    cancel: CancellationToken,
}

impl Loopback {
    pub async fn start<S>(server: S) -> anyhow::Result<Self>
    where
        S: ServerHandler + Clone + Send + Sync + 'static,
    {
        let cancel = CancellationToken::new();
        let (addr, _task) = mrtr_examples::serve::serve_http(
            server,
            SocketAddr::from(([127, 0, 0, 1], 0)),
            cancel.clone(),
        )
        .await?;
        let url = format!("http://{addr}/mcp");
        let client = mrtr_examples::demo::connect(&url).await?;
        Ok(Self {
            url,
            client,
            cancel,
        })
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}
