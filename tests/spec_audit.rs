//! Facts of MCP 2026-07-28 (`/work/shared/spec/mcp-2026-07-28.md` in the project's notes) that
//! a server must honour in the MRTR flow and that no other test pinned, checked on the wire:
//! raw JSON-RPC over stateless HTTP to a real server on loopback, because a well-behaved SDK
//! client cannot send most of these requests (other capabilities on a retry than on the first
//! round, MRTR fields on methods that take none, a state carried to another method).

use std::time::Duration;

use mrtr::{
    Engine, Form, ask, elicit, elicit_url, mrtr_prompt, mrtr_resource, mrtr_tool, roots, sample,
};
use mrtr_tests::{clock::TestClock, loopback::Served};
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::router::{prompt::PromptRouter, tool::ToolRouter},
    model::{
        GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
        ListResourcesResult, PaginatedRequestParams, PromptMessage, ReadResourceRequestParams,
        ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role,
        ServerCapabilities, ServerConfig, Tool,
    },
    prompt, prompt_router,
    service::RequestContext,
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
struct Name {
    name: String,
}

#[derive(Clone)]
struct Audit {
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
    engine: Engine,
}

#[tool_router]
impl Audit {
    /// A tool and a prompt share this name, so a state carried from one to the other differs
    /// only in its method.
    #[mrtr_tool]
    #[tool(description = "Asks a name")]
    async fn topic(&self) -> Result<String, String> {
        let name = ask!(who = elicit::<Name>("Who?")).accepted()?.name;
        Ok(format!("tool for {name}"))
    }

    #[mrtr_tool]
    #[tool(description = "Asks the user, then the model")]
    async fn user_then_model(&self) -> Result<String, String> {
        let name = ask!(who = elicit::<Name>("Who?")).accepted()?.name;
        let guess = ask!(guess = sample(format!("Guess {name}'s favourite colour")).max_tokens(5));
        Ok(format!("{name}: {}", guess.text))
    }

    #[mrtr_tool]
    #[tool(description = "Samples with a tool the model may call")]
    async fn with_tools(&self) -> String {
        let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
        let Value::Object(schema) = schema else {
            unreachable!()
        };
        let weather = Tool::new("weather", "Looks up the weather", schema);
        ask!(plan = sample("Plan a trip").max_tokens(50).tools(vec![weather])).text
    }

    #[mrtr_tool]
    #[tool(description = "Asks the model")]
    async fn model(&self) -> String {
        let reply = ask!(reply = sample("Say hi").max_tokens(5));
        format!("{}|{}", reply.text, reply.model)
    }

    /// Every kind in one round, then a URL elicitation in a second.
    #[mrtr_tool]
    #[tool(description = "Asks a form, the model and the roots, then sends the user to a page")]
    async fn all_kinds(&self) -> Result<String, String> {
        let (name, capital, places) = ask!(
            who = elicit::<Name>("Who?"),
            capital = sample("What is the capital of France?")
                .max_tokens(100)
                .system("Be brief."),
            found = roots(),
        );
        let name = name.accepted()?.name;
        ask!(login = elicit_url("Sign in to continue", "https://example.com/login?flow=42"))
            .accepted()?;
        let uris: Vec<String> = places.into_iter().map(|root| root.uri).collect();
        Ok(format!(
            "{name}|{}|{}|{}|{}|signed in",
            capital.text,
            capital.model,
            capital.stop_reason.unwrap_or_default(),
            uris.join(",")
        ))
    }

    #[mrtr_tool]
    #[tool(description = "Asks for the roots")]
    async fn places(&self) -> String {
        let found = ask!(found = roots());
        found
            .into_iter()
            .map(|root| root.uri)
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[prompt_router]
impl Audit {
    #[mrtr_prompt]
    #[prompt(name = "topic", description = "Asks a name")]
    async fn topic_prompt(&self) -> Result<GetPromptResult, ErrorData> {
        let name = ask!(who = elicit::<Name>("Who?"))
            .accepted()
            .map_err(|r| ErrorData::invalid_params(r.to_string(), None))?
            .name;
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("prompt for {name}"),
        )]))
    }
}

impl Audit {
    #[mrtr_resource]
    async fn topic_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        let _ = &context;
        let name = ask!(who = elicit::<Name>("Who?"))
            .accepted()
            .map_err(|r| ErrorData::invalid_params(r.to_string(), None))?
            .name;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(
            format!("resource for {name}"),
            request.uri.clone(),
        )]))
    }
}

impl mrtr::MrtrServer for Audit {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

const TOPIC_URI: &str = "audit://topic";

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Audit {
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

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            TOPIC_URI, "topic",
        )]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match request.uri.as_str() {
            TOPIC_URI => self.topic_resource(request, context).await,
            _ => Err(ErrorData::invalid_params("no such resource", None)),
        }
    }
}

async fn serve() -> Served {
    Served::start(Audit {
        tool_router: Audit::tool_router(),
        prompt_router: Audit::prompt_router(),
        engine: TestClock::default().engine(),
    })
    .await
    .expect("the server starts")
}

async fn timed<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), f)
        .await
        .expect("finished in time")
}

/// One 2026-07-28 request as a conforming client frames it (the `_meta` keys and the
/// `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers), declaring `capabilities`: the
/// HTTP status and the JSON-RPC response.
async fn rpc(url: &str, method: &str, mut params: Value, capabilities: Value) -> (u16, Value) {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "spec-audit", "version": "1"},
    });
    let name = params
        .get("name")
        .or_else(|| params.get("uri"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method)
        .body(body.to_string());
    if let Some(name) = name {
        request = request.header("mcp-name", name);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    let text = response.text().await.expect("a body");
    // A JSON body, or the last `data:` line of an SSE stream.
    let json = text
        .lines()
        .rev()
        .filter_map(|line| line.strip_prefix("data:"))
        .find(|data| !data.trim().is_empty())
        .unwrap_or(&text)
        .trim()
        .to_owned();
    let value = serde_json::from_str(&json).unwrap_or_else(|_| panic!("not JSON: {text}"));
    (status, value)
}

fn elicitation() -> Value {
    json!({"elicitation": {}})
}

fn ada() -> Value {
    json!({"action": "accept", "content": {"name": "Ada"}})
}

/// The params of a first request of `method` for the name `topic`.
fn first_params(method: &str) -> Value {
    match method {
        "tools/call" | "prompts/get" => json!({"name": "topic"}),
        "resources/read" => json!({"uri": TOPIC_URI}),
        other => panic!("no MRTR params for {other}"),
    }
}

/// The same params carrying `state` and `answers`.
fn retry_params(method: &str, state: &Value, answers: Value) -> Value {
    let mut params = first_params(method);
    params["requestState"] = state.clone();
    params["inputResponses"] = answers;
    params
}

const MRTR_METHODS: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];

/// A.2, A.3, A.5 item 6, A.10 and B.1: on each of the three methods an interim result says
/// `resultType: "input_required"` (the literal the prose requires), holds its questions in
/// `inputRequests` and a string `requestState`, and carries no caching hints; the retry's
/// result says `"complete"`. Inside `inputRequests` a request is `method` and `params` only:
/// no JSON-RPC `jsonrpc` or `id`, and no `_meta` or `task` in its params.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_method_answers_input_required_then_complete_on_the_wire() {
    timed(async {
        let server = serve().await;
        for method in MRTR_METHODS {
            let (status, first) =
                rpc(&server.url, method, first_params(method), elicitation()).await;
            assert_eq!(status, 200, "{method}: {first}");
            let result = &first["result"];
            assert_eq!(result["resultType"], "input_required", "{method}: {first}");
            assert!(result["requestState"].is_string(), "{method}: {first}");
            for hint in ["ttlMs", "cacheScope"] {
                assert!(
                    result.get(hint).is_none(),
                    "{method}: an interim result has no {hint}: {first}"
                );
            }
            let who = &result["inputRequests"]["who"];
            assert_eq!(who["method"], "elicitation/create", "{method}: {first}");
            assert_eq!(who["params"]["message"], "Who?", "{method}: {first}");
            for field in ["jsonrpc", "id"] {
                assert!(
                    who.get(field).is_none(),
                    "{method}: no {field} in an input request: {who}"
                );
            }
            for field in ["_meta", "task"] {
                assert!(
                    who["params"].get(field).is_none(),
                    "{method}: no {field} in its params: {who}"
                );
            }

            let answers = json!({"who": ada()});
            let (status, done) = rpc(
                &server.url,
                method,
                retry_params(method, &result["requestState"], answers),
                elicitation(),
            )
            .await;
            assert_eq!(status, 200, "{method}: {done}");
            assert_eq!(done["result"]["resultType"], "complete", "{method}: {done}");
            assert!(
                done["result"].get("requestState").is_none(),
                "{method}: {done}"
            );
            assert!(
                done["result"].get("inputRequests").is_none(),
                "{method}: {done}"
            );
            assert!(done.to_string().contains("for Ada"), "{method}: {done}");
        }
    })
    .await;
}

/// A.4 and H.7: only `tools/call`, `prompts/get` and `resources/read` may answer
/// `input_required`. `requestState` and `inputResponses` sent on any other request (the
/// `InputResponseRequestParams` comment allows them on any) are ignored: a garbage state there
/// is neither opened nor refused, and the list or discovery answers as it would without them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mrtr_fields_on_other_methods_are_ignored() {
    timed(async {
        let server = serve().await;
        let hostile = json!({
            "requestState": "not a state at all",
            "inputResponses": {"who": ada()},
        });
        for method in [
            "tools/list",
            "prompts/list",
            "resources/list",
            "server/discover",
        ] {
            let (_, plain) = rpc(&server.url, method, json!({}), elicitation()).await;
            let (status, with_fields) =
                rpc(&server.url, method, hostile.clone(), elicitation()).await;
            assert_eq!(status, 200, "{method}: {with_fields}");
            assert!(
                with_fields.get("error").is_none(),
                "{method}: {with_fields}"
            );
            assert_eq!(
                with_fields["result"]["resultType"], "complete",
                "{method}: {with_fields}"
            );
            assert_eq!(
                with_fields["result"], plain["result"],
                "{method}: the fields change nothing"
            );
        }
    })
    .await;
}

/// A.5 items 4-5 and A.11: a state is bound to the method it was sealed for. The tool, the
/// prompt and the resource here share the name `topic` and ask the same question; a state of
/// one presented on another (with the answer) gets the generic `-32602`, never a result or a
/// new question, and leaves the state usable where it belongs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_carried_to_another_method_is_refused() {
    timed(async {
        let server = serve().await;
        for sealed_on in MRTR_METHODS {
            let (_, first) = rpc(
                &server.url,
                sealed_on,
                first_params(sealed_on),
                elicitation(),
            )
            .await;
            let state = first["result"]["requestState"].clone();
            assert!(state.is_string(), "{sealed_on}: {first}");
            for presented_on in MRTR_METHODS.into_iter().filter(|m| *m != sealed_on) {
                let params = retry_params(presented_on, &state, json!({"who": ada()}));
                let (_, refused) = rpc(&server.url, presented_on, params, elicitation()).await;
                assert_eq!(
                    refused["error"]["code"], -32602,
                    "{sealed_on} state on {presented_on}: {refused}"
                );
                let message = refused["error"]["message"].as_str().unwrap_or_default();
                assert!(
                    message.starts_with("requestState is invalid or expired"),
                    "{refused}"
                );
                assert!(
                    refused["error"].get("data").is_none(),
                    "the reason stays in the log: {refused}"
                );
            }
            let params = retry_params(sealed_on, &state, json!({"who": ada()}));
            let (_, done) = rpc(&server.url, sealed_on, params, elicitation()).await;
            assert_eq!(
                done["result"]["resultType"], "complete",
                "{sealed_on}: {done}"
            );
        }
    })
    .await;
}

/// A.5 item 4 ("attacker-controlled"), beyond the forgeries of `signup_rounds.rs`: a state of
/// any length (up to 1 MiB) or alphabet (non-ASCII, control characters, base64 padding), or
/// one carrying 10,000 answers, gets the same generic `-32602` on every method, without data,
/// and the server goes on answering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_states_of_any_size_or_alphabet_get_the_generic_32602() {
    timed(async {
        let server = serve().await;
        let many: serde_json::Map<String, Value> =
            (0..10_000).map(|i| (format!("k{i}"), ada())).collect();
        let (_, first) = rpc(
            &server.url,
            "tools/call",
            first_params("tools/call"),
            elicitation(),
        )
        .await;
        let genuine = first["result"]["requestState"].as_str().unwrap().to_owned();
        let hostile: Vec<(String, Value)> = vec![
            ("A".repeat(1 << 20), json!({"who": ada()})),
            ("DAE".to_owned() + &"_".repeat(4096), json!({"who": ada()})),
            ("état-été-✓".to_owned(), json!({"who": ada()})),
            ("\u{0}\u{1b}[2J\n".to_owned(), json!({"who": ada()})),
            (format!("{genuine}=="), json!({"who": ada()})),
            (standard_alphabet(&genuine), json!({"who": ada()})),
            (genuine[..genuine.len() - 1].to_owned(), Value::Object(many)),
        ];
        for method in MRTR_METHODS {
            for (state, answers) in &hostile {
                let params = retry_params(method, &json!(state), answers.clone());
                let (status, refused) = rpc(&server.url, method, params, elicitation()).await;
                let shown: String = state.chars().take(16).collect();
                assert_eq!(
                    refused["error"]["code"], -32602,
                    "{method} {shown:?}: {status} {refused}"
                );
                let message = refused["error"]["message"].as_str().unwrap_or_default();
                assert!(
                    message.starts_with("requestState is invalid or expired"),
                    "{refused}"
                );
                assert!(refused["error"].get("data").is_none(), "{refused}");
            }
            let (_, fresh) = rpc(&server.url, method, first_params(method), elicitation()).await;
            assert_eq!(
                fresh["result"]["resultType"], "input_required",
                "{method}: {fresh}"
            );
        }
    })
    .await;
}

/// `state` in the standard base64 alphabet (`+`, `/`) rather than base64url, and so never
/// equal to it: it differs in at least one character, if need be its first.
fn standard_alphabet(state: &str) -> String {
    let swapped = state.replace('_', "/").replace('-', "+");
    if swapped != state {
        return swapped;
    }
    format!("+{}", &state[1..])
}

/// A.9 and A.11 on prompts and resources, as `tasks.rs` checks it on tools: params whose MRTR
/// fields have the wrong JSON type are a protocol error, `-32602`, not a crash nor a method the
/// server does not know; and the server goes on answering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mrtr_fields_of_the_wrong_type_are_invalid_params_on_every_method() {
    timed(async {
        let server = serve().await;
        let wrong: [(&str, Value); 5] = [
            ("requestState", json!(12345)),
            ("requestState", json!({"nested": "state"})),
            ("inputResponses", json!([ada()])),
            ("inputResponses", json!("who")),
            ("inputResponses", json!(null)),
        ];
        for method in MRTR_METHODS {
            for (field, value) in &wrong {
                let mut params = first_params(method);
                params[*field] = value.clone();
                let (_, response) = rpc(&server.url, method, params, elicitation()).await;
                if *field == "inputResponses" && value.is_null() {
                    // `null` is an absent optional field: a first call, asked as usual.
                    assert_eq!(
                        response["result"]["resultType"], "input_required",
                        "{method}: {response}"
                    );
                    continue;
                }
                assert_eq!(
                    response["error"]["code"], -32602,
                    "{method} {field}={value}: {response}"
                );
            }
            let (_, fresh) = rpc(&server.url, method, first_params(method), elicitation()).await;
            assert_eq!(
                fresh["result"]["resultType"], "input_required",
                "{method}: {fresh}"
            );
        }
    })
    .await;
}

/// A.8 and A.11, "Re-check capabilities on every round" (and H.5, capability drift): a retry
/// declares its own capabilities, and what round 1 declared counts for nothing. A retry that
/// answers the elicitation but no longer declares sampling is never sent the sampling
/// question: `-32021` naming `sampling` (HTTP 400). The round that got there ran, so its state
/// is spent (the README's rule); a new call declaring both completes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_that_declares_less_is_not_asked_what_it_dropped() {
    timed(async {
        let server = serve().await;
        let both = json!({"elicitation": {}, "sampling": {}});
        let call = json!({"name": "user_then_model"});
        let (_, first) = rpc(&server.url, "tools/call", call.clone(), both.clone()).await;
        let state = first["result"]["requestState"].clone();
        assert_eq!(first["result"]["inputRequests"]["who"]["method"], "elicitation/create", "{first}");

        let mut retry = call.clone();
        retry["requestState"] = state;
        retry["inputResponses"] = json!({"who": ada()});
        let (status, refused) = rpc(&server.url, "tools/call", retry.clone(), elicitation()).await;
        assert_eq!(status, 400, "{refused}");
        assert_eq!(refused["error"]["code"], -32021, "{refused}");
        assert_eq!(refused["error"]["data"]["requiredCapabilities"], json!({"sampling": {}}), "{refused}");

        let (_, again) = rpc(&server.url, "tools/call", retry, both.clone()).await;
        assert_eq!(again["error"]["code"], -32021, "the state is spent: {again}");

        let (_, first) = rpc(&server.url, "tools/call", call.clone(), both.clone()).await;
        let mut retry = call.clone();
        retry["requestState"] = first["result"]["requestState"].clone();
        retry["inputResponses"] = json!({"who": ada()});
        let (_, second) = rpc(&server.url, "tools/call", retry, both.clone()).await;
        assert_eq!(second["result"]["inputRequests"]["guess"]["method"], "sampling/createMessage", "{second}");
        let mut last = call;
        last["requestState"] = second["result"]["requestState"].clone();
        last["inputResponses"] = json!({"guess": {"role": "assistant", "content": {"type": "text", "text": "teal"}, "model": "m"}});
        let (_, done) = rpc(&server.url, "tools/call", last, both).await;
        assert_eq!(done["result"]["content"][0]["text"], "Ada: teal", "{done}");
    })
    .await;
}

/// A.7.2 and A.8: tool-enabled sampling is sent only to a client that declares
/// `sampling.tools`; to one that declares plain `sampling` it is `-32021` naming
/// `{"sampling": {"tools": {}}}`. The tools it is sent carry their `inputSchema`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sampling_with_tools_needs_the_sampling_tools_capability() {
    timed(async {
        let server = serve().await;
        let call = json!({"name": "with_tools"});
        let (status, refused) = rpc(
            &server.url,
            "tools/call",
            call.clone(),
            json!({"sampling": {}}),
        )
        .await;
        assert_eq!(status, 400, "{refused}");
        assert_eq!(refused["error"]["code"], -32021, "{refused}");
        assert_eq!(
            refused["error"]["data"]["requiredCapabilities"],
            json!({"sampling": {"tools": {}}}),
            "{refused}"
        );

        let (_, asked) = rpc(
            &server.url,
            "tools/call",
            call,
            json!({"sampling": {"tools": {}}}),
        )
        .await;
        let plan = &asked["result"]["inputRequests"]["plan"];
        assert_eq!(plan["method"], "sampling/createMessage", "{asked}");
        assert_eq!(plan["params"]["tools"][0]["name"], "weather", "{asked}");
        assert_eq!(
            plan["params"]["tools"][0]["inputSchema"]["type"], "object",
            "{asked}"
        );
        assert!(
            plan["params"].get("includeContext").is_none(),
            "never sent without sampling.context: {asked}"
        );
    })
    .await;
}

/// A.8: `elicitation: {url: {}}` declares URL mode only, so a form is not sent to it
/// (`-32021` naming `elicitation.form`, HTTP 400), on each of the three methods; while
/// `elicitation: {}` means form.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_is_not_sent_to_a_client_that_declares_url_elicitation_only() {
    timed(async {
        let server = serve().await;
        for method in MRTR_METHODS {
            let url_only = json!({"elicitation": {"url": {}}});
            let (status, refused) = rpc(&server.url, method, first_params(method), url_only).await;
            assert_eq!(status, 400, "{method}: {refused}");
            assert_eq!(refused["error"]["code"], -32021, "{method}: {refused}");
            assert_eq!(
                refused["error"]["data"]["requiredCapabilities"],
                json!({"elicitation": {"form": {}}}),
                "{method}: {refused}"
            );
            for form in [
                json!({"elicitation": {}}),
                json!({"elicitation": {"form": {}, "url": {}}}),
            ] {
                let (_, asked) = rpc(&server.url, method, first_params(method), form.clone()).await;
                assert_eq!(
                    asked["result"]["resultType"], "input_required",
                    "{method} {form}: {asked}"
                );
            }
        }
    })
    .await;
}

/// A.7.2 and A.7.3: the answers a 2026 client may send. A `CreateMessageResult` whose
/// `content` is an array of blocks (allowed since 2025-11-25) is read, its text blocks joined;
/// one without `model` (which J:CreateMessageResult requires) is asked again. A
/// `ListRootsResult` whose roots carry `_meta` and unknown fields is read; a `roots/list`
/// request is sent with no params but those the schema allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sampling_and_roots_answers_in_every_shape_the_schema_allows() {
    timed(async {
        let server = serve().await;
        let caps = json!({"sampling": {}, "roots": {}});
        let call = json!({"name": "model"});
        let (_, first) = rpc(&server.url, "tools/call", call.clone(), caps.clone()).await;
        let state = first["result"]["requestState"].clone();

        let mut no_model = call.clone();
        no_model["requestState"] = state.clone();
        no_model["inputResponses"] =
            json!({"reply": {"role": "assistant", "content": {"type": "text", "text": "hi"}}});
        let (_, again) = rpc(&server.url, "tools/call", no_model, caps.clone()).await;
        assert_eq!(again["result"]["resultType"], "input_required", "{again}");
        assert_eq!(
            again["result"]["inputRequests"]["reply"]["method"], "sampling/createMessage",
            "{again}"
        );

        let mut blocks = call;
        blocks["requestState"] = again["result"]["requestState"].clone();
        blocks["inputResponses"] = json!({"reply": {
            "role": "assistant",
            "content": [{"type": "text", "text": "hel"}, {"type": "text", "text": "lo"}],
            "model": "m-2",
            "stopReason": "endTurn",
            "_meta": {"vendor/x": 1}
        }});
        let (_, done) = rpc(&server.url, "tools/call", blocks, caps.clone()).await;
        assert_eq!(done["result"]["content"][0]["text"], "hello|m-2", "{done}");

        let call = json!({"name": "places"});
        let (_, first) = rpc(&server.url, "tools/call", call.clone(), caps.clone()).await;
        let found = &first["result"]["inputRequests"]["found"];
        assert_eq!(found["method"], "roots/list", "{first}");
        if let Some(params) = found.get("params") {
            let allowed = params
                .as_object()
                .is_some_and(|p| p.keys().all(|k| k == "_meta"));
            assert!(allowed, "roots/list params hold only `_meta`: {found}");
        }
        let mut retry = call;
        retry["requestState"] = first["result"]["requestState"].clone();
        retry["inputResponses"] = json!({"found": {"roots": [
            {"uri": "file:///home/ada", "name": "home", "_meta": {"vendor/y": true}, "extra": 1},
            {"uri": "file:///srv"}
        ]}});
        let (_, done) = rpc(&server.url, "tools/call", retry, caps).await;
        assert_eq!(
            done["result"]["content"][0]["text"], "file:///home/ada,file:///srv",
            "{done}"
        );
    })
    .await;
}

/// Runs `script` (under `tests/peers/`) with `program` against a fresh server: its output.
async fn drive_kinds(program: fn() -> std::path::PathBuf, script: &str) -> anyhow::Result<Value> {
    let program = tokio::task::spawn_blocking(program).await?;
    let script = mrtr_tests::peers::dir().join(script);
    let server = serve().await;
    mrtr_tests::peers::run_driver(&program, &script, &[&server.url]).await
}

/// What both official SDK clients must have seen and got from `all_kinds`, the prompt and the
/// resource; `model` is the model name the client's sampling handler answers.
fn assert_every_kind_answered(output: &Value, model: &str) {
    assert_eq!(output["protocolVersion"], "2026-07-28", "{output}");
    let asked = output["asked"].as_array().expect("the questions");
    let kinds: Vec<&str> = asked.iter().filter_map(|q| q["kind"].as_str()).collect();
    assert_eq!(kinds.len(), 6, "{output}");
    // `all_kinds` asks three at once (in any order), then the URL; the prompt and the resource
    // a form each.
    let mut first_round = kinds[..3].to_vec();
    first_round.sort_unstable();
    assert_eq!(first_round, ["form", "roots", "sampling"], "{output}");
    assert_eq!(kinds[3..], ["url", "form", "form"], "{output}");
    let sampling = asked.iter().find(|q| q["kind"] == "sampling").unwrap();
    assert_eq!(sampling["key"], "capital", "{output}");
    assert_eq!(
        sampling["texts"],
        json!(["What is the capital of France?"]),
        "{output}"
    );
    assert_eq!(sampling["maxTokens"], 100, "{output}");
    assert_eq!(sampling["systemPrompt"], "Be brief.", "{output}");
    let url = &asked[3];
    assert_eq!(url["key"], "login", "{output}");
    assert_eq!(url["url"], "https://example.com/login?flow=42", "{output}");

    assert_eq!(
        output["tool"]["content"][0]["text"],
        format!("Ada|Paris|{model}|endTurn|file:///home/ada|signed in"),
        "{output}"
    );
    assert_eq!(
        output["prompt"]["messages"][0]["content"]["text"], "prompt for Ada",
        "{output}"
    );
    assert_eq!(
        output["resource"]["contents"][0]["text"], "resource for Ada",
        "{output}"
    );
}

/// The three kinds of question, and URL elicitation, answered by official clients that were
/// not written against mrtr, on 2026-07-28, through `tools/call`, `prompts/get` and
/// `resources/read` (the other peer tests drive form elicitation on `tools/call` only). Their
/// handlers see each question as the spec shapes it (A.7); their answers (a
/// `CreateMessageResult` and a `ListRootsResult` as their own models serialize them, a URL
/// `accept` without content) are read, and every call completes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_answers_every_kind_of_question() -> anyhow::Result<()> {
    let output = drive_kinds(mrtr_tests::peers::python, "python/drive_kinds.py").await?;
    assert_every_kind_answered(&output, "py-model");
    Ok(())
}

/// [`the_python_sdk_answers_every_kind_of_question`] with the TypeScript SDK v2 client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_answers_every_kind_of_question() -> anyhow::Result<()> {
    let output = drive_kinds(mrtr_tests::peers::node, "typescript/drive_kinds.mjs").await?;
    assert_every_kind_answered(&output, "ts-model");
    Ok(())
}
