//! Pre-2026 clients (2025-11-25 sessions) served by [`mrtr::Bridged`]: the same `#[mrtr_tool]`
//! runs its rounds in process, each question sent to the client as `elicitation/create` on its
//! session. Work in progress for issue 8: rmcp's own client, over a duplex pipe and over
//! Streamable HTTP with a session.

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
};

use mrtr::Bridged;
use mrtr_examples::{demo::text_of, wizard::Wizard};
use mrtr_tests::transports::bounded;
use rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, ServiceExt,
    model::{
        CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
        ElicitationAction, Implementation, JsonObject, ProtocolVersion,
    },
    service::{RequestContext, RoleClient, RunningService},
    transport::{
        StreamableHttpClientTransport,
        streamable_http_client::StreamableHttpClientTransportConfig,
        streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
        },
    },
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// A 2025-11-25 client that answers signup's questions and records each message.
#[derive(Clone, Default)]
struct LegacyUser {
    asked: Arc<Mutex<Vec<String>>>,
    /// Declares no elicitation capability.
    no_elicitation: bool,
}

impl ClientHandler for LegacyUser {
    fn get_info(&self) -> ClientConfig {
        let capabilities = match self.no_elicitation {
            true => ClientCapabilities::default(),
            false => ClientCapabilities::builder().enable_elicitation().build(),
        };
        let mut config = ClientConfig::new(capabilities, Implementation::new("legacy-user", "1"));
        config.protocol_version = ProtocolVersion::V_2025_11_25;
        config
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::FormElicitationParams { message, .. } = request else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        self.asked.lock().unwrap().push(message.clone());
        let content: Value = if message.starts_with("Welcome") {
            json!({"name": "Ada"})
        } else if message.starts_with("Which plan") {
            json!({"plan": "pro"})
        } else {
            json!({"confirm": true})
        };
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
    }
}

fn wizard() -> Bridged<Wizard> {
    let engine = mrtr::Engine::builder().key(1, [4; 32]).build().unwrap();
    Bridged::new(Wizard::new(engine))
}

async fn sign_up(client: &RunningService<RoleClient, LegacyUser>, user: &LegacyUser) {
    assert_eq!(
        client.peer_info().map(|info| info.protocol_version.clone()),
        Some(ProtocolVersion::V_2025_11_25)
    );
    let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"})).unwrap();
    let result = client
        .call_tool(CallToolRequestParams::new("signup").with_arguments(arguments))
        .await
        .expect("the legacy call completes");
    assert_eq!(text_of(&result), "Signed up Ada to Rust on the pro plan");
    assert_eq!(
        *user.asked.lock().unwrap(),
        [
            "Welcome to Rust! What should we call you?",
            "Which plan would you like?",
            "Sign Ada up for pro?"
        ]
    );
}

#[tokio::test]
async fn a_2025_11_25_client_signs_up_over_a_pipe() -> anyhow::Result<()> {
    bounded(async {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            if let Ok(running) = wizard().serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let user = LegacyUser::default();
        let client = user
            .clone()
            .serve_with_lifecycle(client_io, ClientLifecycleMode::Initialize)
            .await?;
        sign_up(&client, &user).await;
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_2025_11_25_client_signs_up_over_http_with_a_session() -> anyhow::Result<()> {
    bounded(async {
        let cancel = CancellationToken::new();
        let service: StreamableHttpService<Bridged<Wizard>, LocalSessionManager> =
            StreamableHttpService::new(
                || Ok(wizard()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default()
                    .with_legacy_session_mode(true)
                    .with_cancellation_token(cancel.child_token()),
            );
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let url = format!("http://{}/mcp", listener.local_addr()?);
        let router = axum::Router::new().nest_service("/mcp", service);
        let server_cancel = cancel.clone();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(async move { server_cancel.cancelled_owned().await })
                .await;
        });
        let user = LegacyUser::default();
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(url),
        );
        let client = user
            .clone()
            .serve_with_lifecycle(transport, ClientLifecycleMode::Initialize)
            .await?;
        sign_up(&client, &user).await;
        cancel.cancel();
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_question_the_client_did_not_declare_ends_the_tool_with_an_error_result()
-> anyhow::Result<()> {
    bounded(async {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            if let Ok(running) = wizard().serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let user = LegacyUser {
            no_elicitation: true,
            ..LegacyUser::default()
        };
        let client = user
            .clone()
            .serve_with_lifecycle(client_io, ClientLifecycleMode::Initialize)
            .await?;
        let arguments: JsonObject = serde_json::from_value(json!({"team": "Rust"}))?;
        let result = client
            .call_tool(CallToolRequestParams::new("signup").with_arguments(arguments))
            .await?;
        // As the official SDKs' tools end on a 2025 session: an error result, not -32021.
        assert_eq!(result.is_error, Some(true), "{result:?}");
        assert_eq!(
            text_of(&result),
            "Client does not support elicitation (required for elicitation/create)"
        );
        assert!(user.asked.lock().unwrap().is_empty());
        Ok(())
    })
    .await
}
