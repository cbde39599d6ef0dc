//! What reaches the server log through real rounds: never an answer or a saved local, at any
//! level; client-chosen strings escaped; refused states and states over the size limit
//! summarized at a bounded rate.
//!
//! One test per binary: it installs the process-wide log subscriber that captures every line.

use std::{sync::OnceLock, time::Duration};

use mrtr::{Engine, Form, ask, elicit, mrtr_resource, mrtr_tool};
use mrtr_tests::log_lines::LogLines;
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolRequestParams, CallToolResponse, InputResponses, JsonObject,
        ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents,
        ServerCapabilities, ServerConfig,
    },
    service::RequestContext,
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

const LOCAL: &str = "LOCAL-SECRET-0815";
const ANSWERS: [&str; 3] = ["ANSWER-SECRET-1", "ANSWER-SECRET-2", "ANSWER-SECRET-3"];

#[derive(Deserialize, JsonSchema)]
struct VaultArgs {
    seed: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Unlock {
    pin: String,
    code: u32,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Said {
    text: String,
}

#[derive(Clone)]
struct Vault {
    tool_router: ToolRouter<Self>,
    engine: Engine,
}

#[tool_router]
impl Vault {
    #[mrtr_tool]
    // Between the two, as the README says: it records the round mrtr adds, by its `Debug`,
    // and the fields and level it is given; `ret` logs each round's outcome, not its state.
    #[tracing::instrument(skip(self, args), level = "info", fields(vault = "main"), ret)]
    #[tool(description = "Holds a secret across an ask")]
    async fn vault(&self, Parameters(args): Parameters<VaultArgs>) -> Result<String, String> {
        let token = format!("{}-token", args.seed);
        let unlock = ask!(unlock = elicit::<Unlock>("PIN and code?"))
            .accepted()
            .map_err(|refused| refused.to_string())?;
        // A tool that panics on an answer: its log line names the tool, never the answer.
        assert_ne!(unlock.code, 13, "unlucky {}", unlock.pin);
        Ok(format!(
            "{} {} {}",
            token.len(),
            unlock.pin.len(),
            unlock.code
        ))
    }
}

#[tool_router(router = hoard_router)]
impl Vault {
    #[mrtr_tool]
    #[tool(description = "Holds what it is told across a second ask")]
    async fn hoard(&self) -> Result<String, String> {
        let said = ask!(said = elicit::<Said>("Say something"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .text;
        let sure = ask!(sure = elicit::<Unlock>("Sure?"))
            .accepted()
            .map_err(|refused| refused.to_string())?;
        Ok(format!("{} {}", said.len(), sure.code))
    }
}

impl Vault {
    #[mrtr_resource]
    async fn page(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        let _ = &context;
        let unlock = ask!(unlock = elicit::<Unlock>("PIN and code?"))
            .accepted()
            .map_err(|r| ErrorData::invalid_params(r.to_string(), None))?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(
            unlock.code.to_string(),
            request.uri.clone(),
        )]))
    }
}

impl mrtr::MrtrServer for Vault {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Vault {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.page(request, context).await
    }
}

/// Every line logged in this process, at every level, rmcp's own request dumps aside (see the
/// README: rmcp logs whole requests at `debug`).
fn captured() -> &'static LogLines {
    static LOGS: OnceLock<LogLines> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = LogLines::default();
        let sink = logs.clone();
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("trace,rmcp=info"))
            .with_ansi(false)
            .with_writer(move || sink.clone())
            .init();
        logs
    })
}

fn logs() -> String {
    captured().text()
}

fn call(state: Option<&str>, answer: Option<Value>) -> CallToolRequestParams {
    let mut arguments = JsonObject::new();
    arguments.insert("seed".to_owned(), json!(LOCAL));
    let mut params = CallToolRequestParams::new("vault").with_arguments(arguments);
    params.request_state = state.map(str::to_owned);
    params.input_responses =
        answer.map(|answer| InputResponses::from([("unlock".to_owned(), answer)]));
    params
}

fn state_of(response: CallToolResponse) -> String {
    match response {
        CallToolResponse::InputRequired(input) => input.request_state.unwrap(),
        other => panic!("expected input_required, got {other:?}"),
    }
}

#[tokio::test]
async fn the_log_holds_no_answer_no_local_and_no_raw_client_string() {
    captured();
    let cancel = CancellationToken::new();
    let engine = Engine::builder()
        .key(1, mrtr_tests::keys::test_key(21))
        .without_principal()
        .refusal_log_interval(Duration::from_secs(3600))
        .max_state_bytes(2048)
        .build()
        .unwrap();
    let vault = Vault {
        tool_router: Vault::tool_router() + Vault::hoard_router(),
        engine,
    };
    let (addr, _) =
        mrtr_examples::serve::serve_http(vault, ([127, 0, 0, 1], 0).into(), cancel.clone())
            .await
            .unwrap();
    let client = mrtr_tests::loopback::connect_declaring(
        &format!("http://{addr}/mcp"),
        json!({"elicitation": {"form": {}}}),
    )
    .await;
    let mut handed_out = Vec::new();
    let run = async {
        // A flow that holds the secret local, gets an answer that does not fit (its serde
        // error would quote the value), then one that does.
        let first = state_of(client.call_tool_once(call(None, None)).await.unwrap());
        handed_out.push(first.clone());
        let wrong = json!({"action": "accept", "content": {"pin": ANSWERS[0], "code": ANSWERS[1]}});
        let again = state_of(
            client
                .call_tool_once(call(Some(&first), Some(wrong)))
                .await
                .unwrap(),
        );
        handed_out.push(again.clone());
        let right = json!({"action": "accept", "content": {"pin": ANSWERS[2], "code": 7}});
        let done = client
            .call_tool_once(call(Some(&again), Some(right)))
            .await
            .unwrap();
        assert!(matches!(done, CallToolResponse::Complete(_)), "{done:?}");

        // A round that panics on its answer fails, and the log says which tool.
        let first = state_of(client.call_tool_once(call(None, None)).await.unwrap());
        let unlucky = json!({"action": "accept", "content": {"pin": ANSWERS[0], "code": 13}});
        let failed = client
            .call_tool_once(call(Some(&first), Some(unlucky)))
            .await
            .unwrap_err();
        assert!(failed.to_string().contains("the tool failed"), "{failed}");

        // A resource URI chosen to forge a log line, with a state that does not open.
        let mut read =
            ReadResourceRequestParams::new("vault://x\n2026-11-30T00:00:00Z  WARN forged");
        read.request_state = Some(first.clone());
        assert!(client.read_resource_once(read).await.is_err());

        // Answers long enough to make each flow's next state too large: the round fails with
        // a generic error, and the log says so once per interval.
        for _ in 0..5 {
            let hoard = CallToolRequestParams::new("hoard");
            let first = state_of(client.call_tool_once(hoard.clone()).await.unwrap());
            let mut retry = hoard;
            retry.request_state = Some(first);
            let long = json!({"action": "accept", "content": {"text": "x".repeat(3000)}});
            retry.input_responses = Some(InputResponses::from([("said".to_owned(), long)]));
            let failed = client.call_tool_once(retry).await.unwrap_err();
            assert!(
                failed
                    .to_string()
                    .contains("progress is too large to hand back"),
                "{failed}"
            );
        }

        // A flood of tampered states.
        for index in 0..50 {
            let mut forged = first.clone().into_bytes();
            forged[10 + index % 20] ^= 1;
            let forged = String::from_utf8(forged).unwrap();
            assert!(
                client
                    .call_tool_once(call(Some(&forged), None))
                    .await
                    .is_err()
            );
        }
    };
    tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("finished in time");
    cancel.cancel();

    let logs = logs();
    assert!(
        logs.contains("asking again"),
        "the re-ask is logged:\n{logs}"
    );
    assert!(
        logs.contains(r#"Round { method: "tools/call", name: "vault", .. }"#),
        "the instrumented tool's span names its round:\n{logs}"
    );
    assert!(
        logs.contains(r#"vault="main""#),
        "the instrumented tool's span has its field:\n{logs}"
    );
    let states: Vec<&str> = handed_out.iter().map(String::as_str).collect();
    for secret in ANSWERS.iter().chain([&LOCAL]).chain(&states) {
        let leaked: Vec<&str> = logs.lines().filter(|line| line.contains(secret)).collect();
        assert!(leaked.is_empty(), "{secret} reached the log: {leaked:#?}");
    }
    assert!(
        logs.contains(r#"return=InputRequired(InputRequiredResult { input_requests: Some(["unlock"]), request_state: Some(<sealed, "#),
        "`ret` logs a round that asks by its keys and its state's length:\n{logs}"
    );
    assert!(
        logs.contains(r#"return=Recorded(Tool(CallToolResult {"#),
        "`ret` logs the last round's result, as recorded for its duplicates:\n{logs}"
    );
    assert!(
        !logs
            .lines()
            .any(|line| line.starts_with("2026-11-30T00:00:00Z  WARN forged")),
        "a client's newline forged a log line:\n{logs}"
    );
    assert!(logs.contains("vault://x\\u{a}2026"), "{logs}");
    assert!(
        logs.lines()
            .any(|line| line.contains("the tool panicked") && line.contains("tool=vault")),
        "the panic is logged with the tool's name:\n{logs}"
    );
    let refusals = logs
        .lines()
        .filter(|line| line.contains("refused requestState"))
        .count();
    assert_eq!(
        refusals, 1,
        "51 refused states, one line per interval:\n{logs}"
    );
    let oversized = logs
        .lines()
        .filter(|line| line.contains("requestState would exceed the size limit"))
        .count();
    assert_eq!(
        oversized, 1,
        "5 states over the limit, one line per interval:\n{logs}"
    );
}
