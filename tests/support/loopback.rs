//! Servers on 127.0.0.1 with a port chosen by the OS, stopped when dropped.

use std::net::SocketAddr;

use rmcp::{
    ServerHandler,
    model::ClientConfig,
    service::{RoleClient, RunningService},
};
use tokio_util::sync::CancellationToken;

/// A server on loopback, stateless Streamable HTTP at `url`, stopped when dropped.
pub struct Served {
    pub url: String,
    cancel: CancellationToken,
}

impl Served {
    pub async fn start<S>(server: S) -> anyhow::Result<Self>
    where
        S: ServerHandler + mrtr::MrtrServer + Clone + Send + Sync + 'static,
    {
        let cancel = CancellationToken::new();
        let (addr, _task) = mrtr_examples::serve::serve_http(
            server,
            SocketAddr::from(([127, 0, 0, 1], 0)),
            cancel.clone(),
        )
        .await?;
        Ok(Self {
            url: format!("http://{addr}/mcp"),
            cancel,
        })
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// A server on loopback and a connected 2026-07-28 client that declares form elicitation.
pub struct Loopback {
    /// Dropped first: the server stops before its client goes.
    _served: Served,
    pub url: String,
    pub client: RunningService<RoleClient, ClientConfig>,
}

impl Loopback {
    pub async fn start<S>(server: S) -> anyhow::Result<Self>
    where
        S: ServerHandler + mrtr::MrtrServer + Clone + Send + Sync + 'static,
    {
        let served = Served::start(server).await?;
        let client = mrtr_examples::demo::connect(&served.url).await?;
        Ok(Self {
            url: served.url.clone(),
            _served: served,
            client,
        })
    }
}

/// A 2026-07-28 client of the server at `url` that declares exactly `capabilities` (JSON).
pub async fn connect_declaring(
    url: &str,
    capabilities: serde_json::Value,
) -> RunningService<RoleClient, ClientConfig> {
    use rmcp::{
        ClientLifecycleMode, ClientServiceExt,
        model::{ClientCapabilities, Implementation, ProtocolVersion},
        transport::{
            StreamableHttpClientTransport,
            streamable_http_client::StreamableHttpClientTransportConfig,
        },
    };
    let capabilities: ClientCapabilities =
        serde_json::from_value(capabilities).expect("client capabilities");
    ClientConfig::new(capabilities, Implementation::new("mrtr-tests", "1"))
        .serve_with_lifecycle(
            StreamableHttpClientTransport::from_config(
                StreamableHttpClientTransportConfig::with_uri(url.to_owned()),
            ),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("client connects")
}
