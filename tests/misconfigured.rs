//! A server on the default engine (`impl MrtrServer for S {}`) whose `MRTR_KEYS` is malformed:
//! `Engine::try_global` says why at startup, without quoting the key, and a server started
//! anyway answers every call with `-32603` at once instead of leaving its client waiting.
//!
//! Its own test binary: it sets `MRTR_KEYS` for the whole process.

use std::time::Duration;

use mrtr::{Engine, Form, ask, elicit, mrtr_tool};
use mrtr_tests::{log_lines::LogLines, loopback::Loopback};
use rmcp::{
    ServerHandler,
    handler::server::router::tool::ToolRouter,
    model::{CallToolRequestParams, ErrorCode, ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::Deserialize;

/// A well-formed key, written the wrong way round: `KEY:ID`.
const KEY: &str = "T0UJgBhdxAbsgUxyqLiL+Jt0qFFqiTkb6qJ+dAyfy1M=";

#[derive(Debug, Deserialize, JsonSchema, Form)]
struct Go {
    #[allow(dead_code)]
    go: bool,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[mrtr_tool]
    #[tool(description = "Asks once")]
    async fn t(&self) -> String {
        ask!(go = elicit::<Go>("Go?"));
        "went".to_owned()
    }
}

impl mrtr::MrtrServer for Server {}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[test]
fn a_malformed_key_list_stops_startup_or_fails_each_call_at_once() {
    // SAFETY: set before any other thread of this test binary starts.
    unsafe { std::env::set_var("MRTR_KEYS", format!("{KEY}:1")) };
    let logs = LogLines::default();
    let sink = logs.clone();
    let _subscriber = tracing::subscriber::set_default(
        tracing_subscriber::fmt()
            .with_writer(move || sink.clone())
            .with_ansi(false)
            .finish(),
    );

    let error = Engine::try_global().unwrap_err().to_string();
    assert!(
        error.contains("entry 1") && error.contains("ID:BASE64KEY"),
        "{error}"
    );
    assert!(!error.contains(KEY), "the error quotes the key: {error}");

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let served = Loopback::start(Server {
            tool_router: Server::tool_router(),
        })
        .await
        .unwrap();
        for _ in 0..2 {
            let call = served
                .client
                .call_tool_once(CallToolRequestParams::new("t"));
            let answered = tokio::time::timeout(Duration::from_secs(10), call)
                .await
                .expect("the call is answered, not left waiting");
            match answered {
                Err(rmcp::ServiceError::McpError(error)) => {
                    assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
                    assert!(error.message.contains("misconfigured"), "{}", error.message);
                }
                other => panic!("expected -32603, got {other:?}"),
            }
        }
    });
    let logged = logs.text();
    assert!(logged.contains("configuration is invalid"), "{logged}");
    assert!(!logged.contains(KEY), "the log quotes the key: {logged}");
}
