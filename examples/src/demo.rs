//! `--demo`: an rmcp client in the same process answers each question from a script and
//! prints every round: the keys asked, the size of the sealed `requestState`, and the result.

use std::collections::BTreeMap;

use rmcp::{
    ClientLifecycleMode, ClientServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
        Implementation, InputRequest, InputResponses, JsonObject, ProtocolVersion,
    },
    service::{RoleClient, RunningService},
    transport::{
        StreamableHttpClientTransport, streamable_http_client::StreamableHttpClientTransportConfig,
    },
};
use serde_json::{Value, json};

/// A client that declares form elicitation, as the demo answers forms.
pub fn elicitation_client() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::builder().enable_elicitation().build(),
        Implementation::new("mrtr-demo", env!("CARGO_PKG_VERSION")),
    )
}

/// Connects a 2026-07-28 client (`server/discover`, no handshake) to an HTTP server.
pub async fn connect(url: &str) -> anyhow::Result<RunningService<RoleClient, ClientConfig>> {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()),
    );
    Ok(elicitation_client()
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await?)
}

/// An accepted form answer.
pub fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

/// The `signup` call the demo makes, and its scripted answers: the README prints its rounds.
pub fn signup_script() -> (Value, BTreeMap<&'static str, Value>) {
    let answers = BTreeMap::from([
        (
            "profile",
            accept(json!({"name": "Ada", "email": "ada@example.com"})),
        ),
        ("plan", accept(json!({"plan": "pro"}))),
        ("confirm", accept(json!({"confirm": true}))),
    ]);
    (json!({"team": "Analytical Engines"}), answers)
}

/// One round as the client saw it.
#[derive(Debug)]
pub struct Round {
    pub keys: Vec<String>,
    pub messages: Vec<String>,
    pub state_bytes: usize,
}

/// Calls `tool` round by round, answering each key from `answers`, until it completes or a
/// key has no scripted answer.
pub async fn drive(
    client: &RunningService<RoleClient, ClientConfig>,
    tool: &str,
    arguments: Value,
    answers: &BTreeMap<&str, Value>,
    mut on_round: impl FnMut(&Round),
) -> anyhow::Result<CallToolResult> {
    let arguments: JsonObject = serde_json::from_value(arguments)?;
    let mut params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
    for _ in 0..rmcp::model::DEFAULT_MRTR_MAX_ROUNDS {
        match client.call_tool_once(params.clone()).await? {
            CallToolResponse::Complete(result) => return Ok(result),
            CallToolResponse::InputRequired(input) => {
                let requests = input.input_requests.unwrap_or_default();
                let state = input.request_state;
                on_round(&Round {
                    keys: requests.keys().cloned().collect(),
                    messages: requests.values().map(message_of).collect(),
                    state_bytes: state.as_ref().map_or(0, String::len),
                });
                let mut responses = InputResponses::new();
                for key in requests.keys() {
                    let answer = answers
                        .get(key.as_str())
                        .ok_or_else(|| anyhow::anyhow!("no scripted answer for `{key}`"))?;
                    responses.insert(key.clone(), answer.clone());
                }
                params.input_responses = Some(responses);
                params.request_state = state;
            }
            other => anyhow::bail!("unexpected response: {other:?}"),
        }
    }
    anyhow::bail!(
        "no result after {} rounds",
        rmcp::model::DEFAULT_MRTR_MAX_ROUNDS
    )
}

impl Round {
    /// The line the demo prints for round `number`.
    pub fn line(&self, number: usize) -> String {
        format!(
            "round {number}: asks {:?} ({}); requestState {} bytes",
            self.keys,
            self.messages.join(" | "),
            self.state_bytes
        )
    }
}

fn message_of(request: &InputRequest) -> String {
    serde_json::to_value(request)
        .ok()
        .and_then(|v| v["params"]["message"].as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The text of a result's first content block.
pub fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}
