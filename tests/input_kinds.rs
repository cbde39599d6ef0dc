//! Every input kind and round shape through real rounds: URL elicitation, sampling, roots,
//! several questions in one round, state-only rounds, capability gating, and the same machine
//! behind `prompts/get` and `resources/read`.

use std::{collections::BTreeMap, time::Duration};

use mrtr::{
    Capabilities, Engine, Form, ask, checkpoint, elicit, elicit_url, mrtr_prompt, mrtr_resource,
    mrtr_tool, roots, sample,
};
use mrtr_tests::clock::TestClock;
use rmcp::{
    ClientLifecycleMode, ClientServiceExt, ErrorData, RoleServer, ServerHandler, ServiceError,
    handler::server::router::{prompt::PromptRouter, tool::ToolRouter},
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
        ErrorCode, GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation,
        InputRequiredResult, InputResponses, ListPromptsResult, PaginatedRequestParams,
        PromptMessage, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
        ReadResourceResult, ResourceContents, Role, ServerCapabilities, ServerConfig,
    },
    prompt, prompt_router,
    service::{RequestContext, RoleClient, RunningService},
    tool, tool_handler, tool_router,
    transport::{
        StreamableHttpClientTransport, streamable_http_client::StreamableHttpClientTransportConfig,
    },
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Name {
    name: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Topic {
    topic: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Summary {
    name: String,
}

#[derive(Clone)]
struct Kinds {
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
    engine: Engine,
}

#[tool_router]
impl Kinds {
    #[mrtr_tool]
    #[tool(description = "Asks for a name, a sample and the roots in one round")]
    async fn all_at_once(&self) -> Result<String, String> {
        let (name, capital, places) = ask!(
            user_name = elicit::<Name>("What is your name?"),
            capital = sample("What is the capital of France?")
                .max_tokens(100)
                .system("Be brief."),
            client_roots = roots(),
        );
        let name = name.accepted().map_err(|r| r.to_string())?.name;
        let uris: Vec<String> = places.into_iter().map(|root| root.uri).collect();
        Ok(format!(
            "{name}|{}|{}|{}|{}",
            capital.text,
            capital.model,
            capital.stop_reason.unwrap_or_default(),
            uris.join(",")
        ))
    }

    #[mrtr_tool]
    #[tool(description = "Yields twice with state only, then finishes")]
    async fn long_work(&self) -> String {
        let mut done = vec!["part 1".to_owned()];
        ask!(first_break = checkpoint());
        done.push("part 2".to_owned());
        ask!(second_break = checkpoint());
        done.push("part 3".to_owned());
        done.join(", ")
    }

    #[mrtr_tool]
    #[tool(description = "Sends the user to a page")]
    async fn login(&self) -> Result<String, String> {
        ask!(login = elicit_url("Sign in to continue", "https://example.com/login?flow=42"))
            .accepted()
            .map_err(|r| r.to_string())?;
        Ok("signed in".to_owned())
    }

    #[mrtr_tool]
    #[tool(description = "Asks the user if it may, else the model")]
    async fn adaptive(&self, caps: Capabilities) -> String {
        if caps.elicitation_form() {
            let name = ask!(user_name = elicit::<Name>("Your name?"))
                .ok()
                .map(|n| n.name);
            format!("asked the user: {}", name.unwrap_or_default())
        } else if caps.sampling() {
            let guess = ask!(guess = sample("Guess a name").max_tokens(10));
            format!("asked the model: {}", guess.text)
        } else {
            "asked nobody".to_owned()
        }
    }

    #[mrtr_tool]
    #[tool(description = "Answers a typed summary")]
    async fn summary(&self) -> Result<rmcp::Json<Summary>, String> {
        let name = ask!(user_name = elicit::<Name>("Your name?"))
            .accepted()
            .map_err(|r| r.to_string())?
            .name;
        Ok(rmcp::Json(Summary { name }))
    }

    #[mrtr_tool]
    #[tool(description = "Needs sampling whatever the client says")]
    async fn needs_sampling(&self) -> String {
        ask!(summary = sample("Summarize").max_tokens(50)).text
    }
}

/// Reads back from neither postcard (the skipped `note`) nor JSON (tuple keys).
#[derive(Serialize, Deserialize)]
struct Grid {
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    cells: std::collections::BTreeMap<(u8, u8), u8>,
}

#[prompt_router]
impl Kinds {
    #[mrtr_prompt]
    #[prompt(description = "Holds what cannot be saved across its question")]
    async fn unsaveable(&self) -> Result<GetPromptResult, ErrorData> {
        let grid = Grid {
            note: None,
            cells: [((1, 2), 3)].into(),
        };
        ask!(topic = elicit::<Topic>("Topic?"));
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("{} cells", grid.cells.len()),
        )]))
    }

    #[mrtr_prompt]
    #[prompt(description = "A prompt that first asks what about")]
    async fn brief(&self) -> Result<GetPromptResult, ErrorData> {
        let topic = ask!(topic = elicit::<Topic>("What should the brief be about?"))
            .accepted()
            .map_err(|r| ErrorData::invalid_params(r.to_string(), None))?
            .topic;
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Write a brief about {topic}."),
        )]))
    }
}

impl Kinds {
    #[mrtr_resource]
    async fn secret(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        let _ = &context;
        let who = ask!(reader = elicit::<Name>(format!("Who reads {}?", request.uri)))
            .accepted()
            .map_err(|r| ErrorData::invalid_params(r.to_string(), None))?
            .name;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(
            format!("for {who} only"),
            request.uri.clone(),
        )]))
    }
}

impl mrtr::MrtrServer for Kinds {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Kinds {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        mrtr::get_prompt(&self.prompt_router, self, request, context).await
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(
            self.prompt_router.list_all(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match request.uri.as_str() {
            "secret://plans" => self.secret(request, context).await,
            _ => Err(ErrorData::invalid_params("no such resource", None)),
        }
    }
}

fn kinds() -> Kinds {
    Kinds {
        tool_router: Kinds::tool_router(),
        prompt_router: Kinds::prompt_router(),
        engine: TestClock::default().engine(),
    }
}

type Client = RunningService<RoleClient, ClientConfig>;

struct Server {
    url: String,
    cancel: CancellationToken,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

async fn server() -> Server {
    let cancel = CancellationToken::new();
    let (addr, _) =
        mrtr_examples::serve::serve_http(kinds(), ([127, 0, 0, 1], 0).into(), cancel.clone())
            .await
            .expect("server starts");
    Server {
        url: format!("http://{addr}/mcp"),
        cancel,
    }
}

/// A 2026-07-28 client that declares exactly `capabilities`.
async fn connect(server: &Server, capabilities: Value) -> Client {
    mrtr_tests::loopback::connect_declaring(&server.url, capabilities).await
}

fn everything() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}})
}

async fn timed<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), f)
        .await
        .expect("finished in time")
}

fn input(response: CallToolResponse) -> InputRequiredResult {
    match response {
        CallToolResponse::InputRequired(input) => input,
        other => panic!("expected input_required, got {other:?}"),
    }
}

fn complete(response: CallToolResponse) -> CallToolResult {
    match response {
        CallToolResponse::Complete(result) => result,
        other => panic!("expected a result, got {other:?}"),
    }
}

fn text(result: &CallToolResult) -> String {
    mrtr_examples::demo::text_of(result)
}

fn retry(
    name: &str,
    input: &InputRequiredResult,
    answers: BTreeMap<&str, Value>,
) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(name.to_owned());
    params.request_state = input.request_state.clone();
    params.input_responses = Some(
        answers
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect::<InputResponses>(),
    );
    params
}

#[tokio::test]
async fn several_kinds_in_one_round_are_one_input_required_result() {
    timed(async {
        let server = server().await;
        let client = connect(&server, everything()).await;
        let first = input(client.call_tool_once(CallToolRequestParams::new("all_at_once")).await.unwrap());
        let requests = serde_json::to_value(first.input_requests.as_ref().unwrap()).unwrap();
        assert_eq!(requests["user_name"]["method"], "elicitation/create");
        assert_eq!(requests["capital"]["method"], "sampling/createMessage");
        assert_eq!(requests["capital"]["params"]["maxTokens"], 100);
        assert_eq!(requests["capital"]["params"]["systemPrompt"], "Be brief.");
        assert_eq!(
            requests["capital"]["params"]["messages"][0]["content"]["text"],
            "What is the capital of France?"
        );
        assert_eq!(requests["client_roots"]["method"], "roots/list");
        assert!(first.request_state.is_some());

        let answers = BTreeMap::from([
            ("user_name", json!({"action": "accept", "content": {"name": "Ada"}})),
            (
                "capital",
                json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m-1", "stopReason": "endTurn"}),
            ),
            ("client_roots", json!({"roots": [{"uri": "file:///home/ada", "name": "home"}, {"uri": "file:///srv"}]})),
        ]);
        // Missing one of the three answers asks all three again.
        let mut partial = answers.clone();
        partial.remove("client_roots");
        let again = input(client.call_tool_once(retry("all_at_once", &first, partial)).await.unwrap());
        assert_eq!(again.input_requests.as_ref().unwrap().len(), 3);

        let done = complete(client.call_tool_once(retry("all_at_once", &again, answers)).await.unwrap());
        assert_eq!(text(&done), "Ada|Paris|m-1|endTurn|file:///home/ada,file:///srv");
    })
    .await;
}

#[tokio::test]
async fn checkpoints_are_state_only_rounds() {
    timed(async {
        let server = server().await;
        let client = connect(&server, json!({})).await;
        let first = input(
            client
                .call_tool_once(CallToolRequestParams::new("long_work"))
                .await
                .unwrap(),
        );
        assert!(first.input_requests.is_none(), "a checkpoint asks nothing");
        let second = input(
            client
                .call_tool_once(retry("long_work", &first, BTreeMap::new()))
                .await
                .unwrap(),
        );
        assert!(second.input_requests.is_none());
        assert_ne!(first.request_state, second.request_state);
        let done = complete(
            client
                .call_tool_once(retry("long_work", &second, BTreeMap::new()))
                .await
                .unwrap(),
        );
        assert_eq!(text(&done), "part 1, part 2, part 3");
        // rmcp's own loop retries state-only rounds by itself.
        let auto = client
            .call_tool(CallToolRequestParams::new("long_work"))
            .await
            .unwrap();
        assert_eq!(text(&auto), "part 1, part 2, part 3");
    })
    .await;
}

#[tokio::test]
async fn url_elicitation_needs_the_url_capability() {
    timed(async {
        let server = server().await;
        let client = connect(&server, everything()).await;
        let first = input(
            client
                .call_tool_once(CallToolRequestParams::new("login"))
                .await
                .unwrap(),
        );
        let request =
            serde_json::to_value(&first.input_requests.as_ref().unwrap()["login"]).unwrap();
        assert_eq!(request["params"]["mode"], "url");
        assert_eq!(
            request["params"]["url"],
            "https://example.com/login?flow=42"
        );
        let done = complete(
            client
                .call_tool_once(retry(
                    "login",
                    &first,
                    BTreeMap::from([("login", json!({"action": "accept"}))]),
                ))
                .await
                .unwrap(),
        );
        assert_eq!(text(&done), "signed in");

        let form_only = connect(&server, json!({"elicitation": {}})).await;
        let error = form_only
            .call_tool_once(CallToolRequestParams::new("login"))
            .await
            .unwrap_err();
        assert_missing(error, json!({"elicitation": {"url": {}}}));
    })
    .await;
}

fn assert_missing(error: ServiceError, required: Value) {
    let ServiceError::McpError(error) = error else {
        panic!("expected a JSON-RPC error, got {error:?}")
    };
    assert_eq!(error.code, ErrorCode(-32021));
    assert_eq!(error.data.unwrap()["requiredCapabilities"], required);
}

#[tokio::test]
async fn an_ask_the_client_cannot_answer_fails_with_32021_and_is_never_sent() {
    timed(async {
        let server = server().await;
        let client = connect(&server, json!({"elicitation": {}})).await;
        let error = client
            .call_tool_once(CallToolRequestParams::new("needs_sampling"))
            .await
            .unwrap_err();
        assert_missing(error, json!({"sampling": {}}));
        let error = client
            .call_tool_once(CallToolRequestParams::new("all_at_once"))
            .await
            .unwrap_err();
        assert_missing(error, json!({"sampling": {}, "roots": {}}));
    })
    .await;
}

#[tokio::test]
async fn a_first_call_that_brings_answers_along_is_held_to_the_same_capabilities() {
    timed(async {
        let server = server().await;
        let answered = |name: &str, key: &str, answer: Value| {
            let mut params = CallToolRequestParams::new(name.to_owned());
            params.input_responses = Some(InputResponses::from([(key.to_owned(), answer)]));
            params
        };
        let sampled = json!({
            "role": "assistant",
            "content": {"type": "text", "text": "Paris"},
            "model": "m",
        });
        // A client that declared sampling may answer the first question up front...
        let capable = connect(&server, json!({"sampling": {}})).await;
        let done = complete(
            capable
                .call_tool_once(answered("needs_sampling", "summary", sampled.clone()))
                .await
                .unwrap(),
        );
        assert_eq!(text(&done), "Paris");
        // ...one that did not is refused as if the question had been asked.
        let form_only = connect(&server, json!({"elicitation": {}})).await;
        let error = form_only
            .call_tool_once(answered("needs_sampling", "summary", sampled))
            .await
            .unwrap_err();
        assert_missing(error, json!({"sampling": {}}));
        let error = form_only
            .call_tool_once(answered("login", "login", json!({"action": "accept"})))
            .await
            .unwrap_err();
        assert_missing(error, json!({"elicitation": {"url": {}}}));
    })
    .await;
}

#[tokio::test]
async fn each_url_elicitation_carries_a_unique_id() {
    timed(async {
        let server = server().await;
        let client = connect(&server, everything()).await;
        let mut ids = std::collections::BTreeSet::new();
        for _ in 0..20 {
            let asked = input(
                client
                    .call_tool_once(CallToolRequestParams::new("login"))
                    .await
                    .unwrap(),
            );
            let request =
                serde_json::to_value(&asked.input_requests.as_ref().unwrap()["login"]).unwrap();
            let id = request["params"]["elicitationId"]
                .as_str()
                .unwrap()
                .to_owned();
            assert!(id.len() >= 32, "{id}");
            assert!(id.bytes().all(|byte| byte.is_ascii_hexdigit()), "{id}");
            ids.insert(id);
        }
        assert_eq!(ids.len(), 20);
    })
    .await;
}

#[tokio::test]
async fn a_tool_can_branch_on_capabilities_before_asking() {
    timed(async {
        let server = server().await;
        let user = connect(&server, json!({"elicitation": {}})).await;
        let asked = input(user.call_tool_once(CallToolRequestParams::new("adaptive")).await.unwrap());
        assert!(asked.input_requests.as_ref().unwrap().contains_key("user_name"));

        let model = connect(&server, json!({"sampling": {}})).await;
        let asked = input(model.call_tool_once(CallToolRequestParams::new("adaptive")).await.unwrap());
        let requests = asked.input_requests.as_ref().unwrap();
        assert!(requests.contains_key("guess") && !requests.contains_key("user_name"));
        let answer = json!({"role": "assistant", "content": {"type": "text", "text": "Grace"}, "model": "m"});
        let done = complete(
            model.call_tool_once(retry("adaptive", &asked, BTreeMap::from([("guess", answer)]))).await.unwrap(),
        );
        assert_eq!(text(&done), "asked the model: Grace");

        let nobody = connect(&server, json!({})).await;
        let done = complete(nobody.call_tool_once(CallToolRequestParams::new("adaptive")).await.unwrap());
        assert_eq!(text(&done), "asked nobody");
    })
    .await;
}

/// `state` with its eleventh byte changed.
fn one_byte_changed(state: String) -> String {
    let mut bytes = state.into_bytes();
    bytes[10] = if bytes[10] == b'A' { b'B' } else { b'A' };
    String::from_utf8(bytes).unwrap()
}

/// A refused state's `-32602`, whose message says what to do `again`.
fn assert_refused(error: ServiceError, again: &str) {
    let ServiceError::McpError(error) = error else {
        panic!("expected a JSON-RPC error, got {error:?}")
    };
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(
        error.message,
        format!("requestState is invalid or expired; {again} without requestState")
    );
}

#[tokio::test]
async fn prompts_get_resumes_like_a_tool() {
    timed(async {
        let server = server().await;
        let client = connect(&server, everything()).await;
        let GetPromptResponse::InputRequired(first) = client
            .get_prompt_once(GetPromptRequestParams::new("brief"))
            .await
            .unwrap()
        else {
            panic!("expected input_required")
        };
        assert!(first.input_requests.as_ref().unwrap().contains_key("topic"));
        let mut params = GetPromptRequestParams::new("brief");
        params.request_state = first.request_state.clone();
        params.input_responses = Some(InputResponses::from([(
            "topic".to_owned(),
            json!({"action": "accept", "content": {"topic": "otters"}}),
        )]));
        let GetPromptResponse::Complete(result) =
            client.get_prompt_once(params.clone()).await.unwrap()
        else {
            panic!("expected the prompt")
        };
        let message = serde_json::to_value(&result.messages[0]).unwrap();
        assert_eq!(message["content"]["text"], "Write a brief about otters.");

        // Single use: the same state with another answer gets the first response again.
        let mut other = params.clone();
        other.input_responses = Some(InputResponses::from([(
            "topic".to_owned(),
            json!({"action": "accept", "content": {"topic": "badgers"}}),
        )]));
        let GetPromptResponse::Complete(again) = client.get_prompt_once(other).await.unwrap()
        else {
            panic!("expected the prompt")
        };
        assert_eq!(again, result);

        // A prompt's state does not open for a tool of the same name, nor with a changed byte.
        let mut tampered = params.clone();
        tampered.request_state = tampered.request_state.map(one_byte_changed);
        let refused = client.get_prompt_once(tampered).await.unwrap_err();
        assert_refused(refused, "get the prompt again");
    })
    .await;
}

/// `mrtr::testing` scripts prompts and resources as it does tools.
#[tokio::test]
async fn the_test_harness_drives_prompts_and_resources() {
    use mrtr::testing::{Answer, Harness};
    timed(async {
        let harness = Harness::start(kinds()).await;
        let brief = harness
            .prompt("brief")
            .answer("topic", Answer::accept(json!({"topic": "otters"})))
            .run()
            .await
            .unwrap();
        assert_eq!(brief.keys(), ["topic"]);
        assert_eq!(brief.text(), "Write a brief about otters.");
        assert_eq!(brief.result().messages.len(), 1);

        let secret = harness
            .resource("secret://plans")
            .answer("reader", Answer::accept(json!({"name": "Ada"})))
            .run()
            .await
            .unwrap();
        assert_eq!(secret.asked("reader").message, "Who reads secret://plans?");
        assert_eq!(secret.text(), "for Ada only");

        let declined = harness
            .prompt("brief")
            .answer("topic", Answer::decline())
            .run()
            .await
            .unwrap_err();
        let error = declined.protocol_error().expect("a JSON-RPC error");
        assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert_eq!(error.message, "the user declined `topic`");

        // Errors name what failed: the prompt, not a tool.
        let failed = harness.prompt("unsaveable").run().await.unwrap_err();
        let error = failed.protocol_error().expect("a JSON-RPC error");
        assert_eq!(error.message, "the prompt could not save its progress");
    })
    .await;
}

#[tokio::test]
async fn resources_read_resumes_and_is_bound_to_its_uri() {
    timed(async {
        let server = server().await;
        let client = connect(&server, everything()).await;
        let mut params = ReadResourceRequestParams::new("secret://plans");
        let ReadResourceResponse::InputRequired(first) =
            client.read_resource_once(params.clone()).await.unwrap()
        else {
            panic!("expected input_required")
        };
        let request =
            serde_json::to_value(&first.input_requests.as_ref().unwrap()["reader"]).unwrap();
        assert_eq!(request["params"]["message"], "Who reads secret://plans?");
        params.request_state = first.request_state.clone();
        params.input_responses = Some(InputResponses::from([(
            "reader".to_owned(),
            json!({"action": "accept", "content": {"name": "Ada"}}),
        )]));
        let ReadResourceResponse::Complete(result) =
            client.read_resource_once(params.clone()).await.unwrap()
        else {
            panic!("expected the resource")
        };
        let contents = serde_json::to_value(&result.contents[0]).unwrap();
        assert_eq!(contents["text"], "for Ada only");

        // Single use: the same state with another answer gets the first response again.
        params.input_responses = Some(InputResponses::from([(
            "reader".to_owned(),
            json!({"action": "accept", "content": {"name": "Eve"}}),
        )]));
        let ReadResourceResponse::Complete(again) =
            client.read_resource_once(params.clone()).await.unwrap()
        else {
            panic!("expected the resource")
        };
        assert_eq!(again, result);

        // A changed byte does not open.
        let mut tampered = params.clone();
        tampered.request_state = tampered.request_state.map(one_byte_changed);
        let refused = client.read_resource_once(tampered).await.unwrap_err();
        assert_refused(refused, "read the resource again");
    })
    .await;
}

#[tokio::test]
async fn over_http_a_missing_capability_is_a_400() {
    timed(async {
        let server = server().await;
        let body = json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {
                "name": "needs_sampling",
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
                }
            }
        });
        let response = reqwest::Client::new()
            .post(&server.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", "needs_sampling")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400);
        let reply: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
        assert_eq!(reply["error"]["code"], -32021);
        assert_eq!(
            reply["error"]["data"]["requiredCapabilities"],
            json!({"sampling": {}})
        );
    })
    .await;
}

#[tokio::test]
async fn a_json_result_keeps_its_output_schema() {
    timed(async {
        let server = server().await;
        let client = connect(&server, everything()).await;
        let tools = client.list_all_tools().await.unwrap();
        let summary = tools.iter().find(|tool| tool.name == "summary").unwrap();
        let schema = summary.output_schema.as_ref().expect("an output schema");
        assert_eq!(schema["properties"]["name"]["type"], "string");

        let first = input(
            client
                .call_tool_once(CallToolRequestParams::new("summary"))
                .await
                .unwrap(),
        );
        let answer = json!({"action": "accept", "content": {"name": "Ada"}});
        let done = complete(
            client
                .call_tool_once(retry(
                    "summary",
                    &first,
                    BTreeMap::from([("user_name", answer)]),
                ))
                .await
                .unwrap(),
        );
        assert_eq!(done.structured_content, Some(json!({"name": "Ada"})));
    })
    .await;
}

/// A server that routes `prompts/get` with rmcp's `#[prompt_handler]` instead of
/// `mrtr::get_prompt`, as the README warns against (the macro builds `Self::prompt_router()`).
#[derive(Clone)]
struct Unrouted;

#[prompt_router]
impl Unrouted {
    #[mrtr_prompt]
    #[prompt(description = "A prompt that first asks what about")]
    async fn brief(&self) -> Result<GetPromptResult, ErrorData> {
        let topic = ask!(topic = elicit::<Topic>("What should the brief be about?"))
            .accepted()
            .map_err(|r| ErrorData::invalid_params(r.to_string(), None))?
            .topic;
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Write a brief about {topic}."),
        )]))
    }
}

impl mrtr::MrtrServer for Unrouted {}

#[rmcp::prompt_handler]
impl ServerHandler for Unrouted {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_prompts().build())
    }
}

async fn unrouted() -> Server {
    let cancel = CancellationToken::new();
    let (addr, _) =
        mrtr_examples::serve::serve_http(Unrouted, ([127, 0, 0, 1], 0).into(), cancel.clone())
            .await
            .expect("server starts");
    Server {
        url: format!("http://{addr}/mcp"),
        cancel,
    }
}

/// What a prompt routed without `mrtr::get_prompt` answers.
fn assert_unrouted(error: ServiceError) {
    let ServiceError::McpError(error) = error else {
        panic!("expected a JSON-RPC error, got {error:?}")
    };
    assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
    assert_eq!(
        error.message,
        "the server routes prompts/get without mrtr::get_prompt"
    );
}

/// The README: a `#[mrtr_prompt]` reached through `#[prompt_handler]` "fails with a message
/// saying so", on its first round.
#[tokio::test]
async fn a_prompt_routed_without_get_prompt_fails_saying_so() {
    timed(async {
        let server = unrouted().await;
        let client = connect(&server, everything()).await;
        let error = client
            .get_prompt_once(GetPromptRequestParams::new("brief"))
            .await
            .unwrap_err();
        assert_unrouted(error);
    })
    .await;
}

/// Every kind of question, on a 2025-11-25 session: each arrives as a server-initiated request
/// of its own, through `mrtr::Bridged` (which the examples' `serve_http` puts in front).
/// Sampling and roots are deprecated by SEP-2577, and a 2025 client still answers them.
#[allow(deprecated)]
mod legacy {
    use super::*;
    use rmcp::{
        ClientHandler,
        model::{
            CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
            ElicitationAction, ListRootsResult,
        },
    };

    /// A 2025-11-25 client with the capabilities it is given.
    #[derive(Clone)]
    struct Legacy {
        capabilities: Value,
        /// Answers every form with this (decline or cancel) instead of accepting it.
        refusal: Option<ElicitationAction>,
    }

    impl ClientHandler for Legacy {
        fn get_info(&self) -> ClientConfig {
            let capabilities: ClientCapabilities =
                serde_json::from_value(self.capabilities.clone()).unwrap();
            let mut config =
                ClientConfig::new(capabilities, Implementation::new("legacy-kinds", "1"));
            config.protocol_version = ProtocolVersion::V_2025_11_25;
            config
        }

        async fn create_elicitation(
            &self,
            request: ElicitRequestParams,
            _: RequestContext<RoleClient>,
        ) -> Result<ElicitResult, ErrorData> {
            let message = match request {
                ElicitRequestParams::FormElicitationParams { message, .. } => message,
                // The user opened the page.
                ElicitRequestParams::UrlElicitationParams { url, .. } => {
                    assert_eq!(url, "https://example.com/login?flow=42");
                    return Ok(ElicitResult::new(ElicitationAction::Accept));
                }
                _ => return Ok(ElicitResult::new(ElicitationAction::Decline)),
            };
            if let Some(refusal) = self.refusal.clone() {
                return Ok(ElicitResult::new(refusal));
            }
            let content = match message.as_str() {
                "What should the brief be about?" => json!({"topic": "otters"}),
                _ => json!({"name": "Ada"}),
            };
            Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
        }

        async fn create_message(
            &self,
            _: CreateMessageRequestParams,
            _: RequestContext<RoleClient>,
        ) -> Result<CreateMessageResult, ErrorData> {
            Ok(serde_json::from_value(json!({
                "role": "assistant",
                "content": {"type": "text", "text": "Paris"},
                "model": "m-1",
                "stopReason": "endTurn"
            }))
            .unwrap())
        }

        async fn list_roots(
            &self,
            _: RequestContext<RoleClient>,
        ) -> Result<ListRootsResult, ErrorData> {
            Ok(serde_json::from_value(json!({"roots": [{"uri": "file:///home/ada"}]})).unwrap())
        }
    }

    async fn connect(server: &Server, capabilities: Value) -> RunningService<RoleClient, Legacy> {
        connect_refusing(server, capabilities, None).await
    }

    async fn connect_refusing(
        server: &Server,
        capabilities: Value,
        refusal: Option<ElicitationAction>,
    ) -> RunningService<RoleClient, Legacy> {
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(server.url.clone()),
        );
        Legacy {
            capabilities,
            refusal,
        }
        .serve_with_lifecycle(transport, ClientLifecycleMode::Initialize)
        .await
        .expect("a 2025-11-25 client connects")
    }

    #[tokio::test]
    async fn a_round_of_three_kinds_is_asked_at_once() {
        timed(async {
            let server = server().await;
            let client = connect(&server, everything()).await;
            let done = client
                .call_tool(CallToolRequestParams::new("all_at_once"))
                .await
                .unwrap();
            assert_eq!(text(&done), "Ada|Paris|m-1|endTurn|file:///home/ada");
        })
        .await;
    }

    #[tokio::test]
    async fn a_url_elicitation_goes_to_the_session() {
        timed(async {
            let server = server().await;
            let client = connect(&server, everything()).await;
            let done = client
                .call_tool(CallToolRequestParams::new("login"))
                .await
                .unwrap();
            assert_eq!(text(&done), "signed in");
        })
        .await;
    }

    #[tokio::test]
    async fn checkpoints_go_straight_on() {
        timed(async {
            let server = server().await;
            let client = connect(&server, everything()).await;
            let done = client
                .call_tool(CallToolRequestParams::new("long_work"))
                .await
                .unwrap();
            assert_eq!(text(&done), "part 1, part 2, part 3");
        })
        .await;
    }

    #[tokio::test]
    async fn capabilities_branch_on_what_the_session_declared() {
        timed(async {
            let server = server().await;
            let model_only = connect(&server, json!({"sampling": {}})).await;
            let done = model_only
                .call_tool(CallToolRequestParams::new("adaptive"))
                .await
                .unwrap();
            assert_eq!(text(&done), "asked the model: Paris");
            let user = connect(&server, everything()).await;
            let done = user
                .call_tool(CallToolRequestParams::new("adaptive"))
                .await
                .unwrap();
            assert_eq!(text(&done), "asked the user: Ada");
        })
        .await;
    }

    #[tokio::test]
    async fn prompts_and_resources_ask_too() {
        timed(async {
            let server = server().await;
            let client = connect(&server, everything()).await;
            let prompt = client
                .get_prompt(GetPromptRequestParams::new("brief"))
                .await
                .unwrap();
            let message = serde_json::to_value(&prompt.messages[0]).unwrap();
            assert_eq!(message["content"]["text"], "Write a brief about otters.");
            let resource = client
                .read_resource(ReadResourceRequestParams::new("secret://plans"))
                .await
                .unwrap();
            let contents = serde_json::to_value(&resource.contents[0]).unwrap();
            assert_eq!(contents["text"], "for Ada only");
        })
        .await;
    }

    /// A prompt or resource that asks what the session did not declare ends with `-32603` and
    /// the official SDKs' message (a tool gets it as an error result).
    #[tokio::test]
    async fn a_prompt_or_resource_the_session_cannot_answer_is_a_32603() {
        timed(async {
            let server = server().await;
            let model_only = connect(&server, json!({"sampling": {}})).await;
            let expected = "Client does not support elicitation (required for elicitation/create)";
            let prompt = model_only
                .get_prompt(GetPromptRequestParams::new("brief"))
                .await
                .unwrap_err();
            let resource = model_only
                .read_resource(ReadResourceRequestParams::new("secret://plans"))
                .await
                .unwrap_err();
            for error in [prompt, resource] {
                let ServiceError::McpError(error) = error else {
                    panic!("expected a JSON-RPC error, got {error:?}")
                };
                assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
                assert_eq!(error.message, expected);
            }
        })
        .await;
    }

    /// A decline or a cancel of a prompt's or a resource's question on a session ends the
    /// request with the `-32602` the prompt and the resource map a refusal to.
    #[tokio::test]
    async fn a_refused_prompt_or_resource_on_a_session_is_the_error_it_maps_to() {
        timed(async {
            let server = server().await;
            for (refusal, verb) in [
                (ElicitationAction::Decline, "declined"),
                (ElicitationAction::Cancel, "cancelled"),
            ] {
                let client = connect_refusing(&server, everything(), Some(refusal)).await;
                let prompt = client
                    .get_prompt(GetPromptRequestParams::new("brief"))
                    .await
                    .unwrap_err();
                let resource = client
                    .read_resource(ReadResourceRequestParams::new("secret://plans"))
                    .await
                    .unwrap_err();
                for (error, key) in [(prompt, "topic"), (resource, "reader")] {
                    let ServiceError::McpError(error) = error else {
                        panic!("expected a JSON-RPC error, got {error:?}")
                    };
                    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
                    assert_eq!(error.message, format!("the user {verb} `{key}`"));
                }
            }
        })
        .await;
    }

    /// [`super::a_prompt_routed_without_get_prompt_fails_saying_so`] on a session.
    #[tokio::test]
    async fn a_prompt_routed_without_get_prompt_fails_saying_so_on_a_session() {
        timed(async {
            let server = unrouted().await;
            let client = connect(&server, everything()).await;
            let error = client
                .get_prompt(GetPromptRequestParams::new("brief"))
                .await
                .unwrap_err();
            assert_unrouted(error);
        })
        .await;
    }
}
