//! Test your tools, prompts and resources: drive one call through its rounds in process,
//! answering each question from a script, then assert on the questions, the rounds and the
//! result. [`Harness::prompt`] and [`Harness::resource`] script the other two methods.
//!
//! Enable with `mrtr = { path = "..", features = ["testing"] }` under `[dev-dependencies]`.
//!
//! [`Harness::start`] serves your server on an in-memory pipe to a 2026-07-28 rmcp client that
//! declares every capability a question can need. [`Harness::call`] scripts one call: its
//! arguments and an [`Answer`] for each key it will ask; [`Call::run`] sends the rounds and
//! returns a [`Run`] to assert on, or a [`HarnessError`] that says what went wrong.
//!
//! ```
//! use mrtr::testing::{Answer, Harness};
//! use mrtr::{Form, ask, elicit, mrtr_tool};
//! use rmcp::{
//!     ServerHandler,
//!     handler::server::{router::tool::ToolRouter, wrapper::Parameters},
//!     model::{CallToolResult, ContentBlock},
//!     tool, tool_handler, tool_router,
//! };
//! use serde_json::json;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct GreetArgs {
//!     team: String,
//! }
//!
//! #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Form)]
//! struct Profile {
//!     name: String,
//! }
//!
//! #[derive(Clone)]
//! struct Greeter {
//!     tool_router: ToolRouter<Self>,
//! }
//!
//! #[tool_router]
//! impl Greeter {
//!     #[mrtr_tool]
//!     #[tool(description = "Greets a new member")]
//!     async fn greet(&self, Parameters(args): Parameters<GreetArgs>) -> Result<CallToolResult, String> {
//!         let profile = ask!(profile = elicit::<Profile>(format!("Welcome to {}!", args.team)))
//!             .accepted()
//!             .map_err(|refused| format!("Cancelled at {}", refused.key))?;
//!         Ok(CallToolResult::success(vec![ContentBlock::text(format!("Hello {}", profile.name))]))
//!     }
//! }
//!
//! impl mrtr::MrtrServer for Greeter {}
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for Greeter {}
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let harness = Harness::start(Greeter { tool_router: Greeter::tool_router() }).await;
//!
//! let run = harness
//!     .call("greet")
//!     .arguments(json!({"team": "Engines"}))
//!     .answer("profile", Answer::accept(json!({"name": "Ada"})))
//!     .run()
//!     .await
//!     .unwrap();
//! assert_eq!(run.keys(), ["profile"]);
//! assert_eq!(run.asked("profile").message, "Welcome to Engines!");
//! assert_eq!(run.asked("profile").schema["properties"]["name"]["type"], "string");
//! assert_eq!(run.round_count(), 1);
//! assert!(run.max_state_bytes() < 200);
//! assert_eq!(run.text(), "Hello Ada");
//!
//! let declined = harness
//!     .call("greet")
//!     .arguments(json!({"team": "Engines"}))
//!     .answer("profile", Answer::decline())
//!     .run()
//!     .await
//!     .unwrap();
//! assert!(declined.is_error());
//! assert_eq!(declined.text(), "Cancelled at profile");
//! # }
//! ```

use std::{
    collections::{BTreeMap, VecDeque},
    fmt,
};

use rmcp::{
    ClientLifecycleMode, ClientServiceExt, ErrorData, ServerHandler, ServiceError, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
        GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation,
        InputRequiredResult, InputResponses, JsonObject, ProtocolVersion,
        ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents,
    },
    service::{RoleClient, RunningService},
};
use serde::Serialize;
use serde_json::{Value, json};

#[cfg(test)]
mod tests;

/// How many rounds a [`Call`] allows unless told otherwise.
pub const DEFAULT_MAX_ROUNDS: usize = 100;

/// The rmcp client a [`Harness`] talks through.
pub type Client = RunningService<RoleClient, ClientConfig>;

/// Your server on one end of an in-memory pipe, an rmcp client on the other.
///
/// Dropping it stops both.
pub struct Harness {
    client: Client,
    server: tokio::task::JoinHandle<()>,
}

impl fmt::Debug for Harness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Harness")
            .field("server_running", &!self.server.is_finished())
            .finish_non_exhaustive()
    }
}

impl Harness {
    /// Serves `server` to a 2026-07-28 client that declares form and URL elicitation,
    /// sampling (with tools) and roots.
    ///
    /// # Panics
    /// If the client cannot connect, e.g. the server does not support 2026-07-28.
    pub async fn start<S: ServerHandler>(server: S) -> Self {
        Self::with_capabilities(server, every_capability()).await
    }

    /// Serves `server` to a 2026-07-28 client that declares exactly `capabilities`: a
    /// `ClientCapabilities`, or JSON such as `json!({"elicitation": {"form": {}}})`.
    ///
    /// # Panics
    /// If `capabilities` are not client capabilities, or the client cannot connect.
    pub async fn with_capabilities<S: ServerHandler>(
        server: S,
        capabilities: impl Serialize,
    ) -> Self {
        let capabilities: ClientCapabilities = serde_json::to_value(capabilities)
            .and_then(serde_json::from_value)
            .unwrap_or_else(|error| panic!("mrtr::testing: not client capabilities: {error}"));
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            // It answers `server/discover` itself, and ends when the client hangs up.
            if let Ok(running) = server.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let client = ClientConfig::new(
            capabilities,
            Implementation::new("mrtr-testing", env!("CARGO_PKG_VERSION")),
        )
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .unwrap_or_else(|error| {
            panic!("mrtr::testing: the client could not connect over 2026-07-28: {error}")
        });
        Self { client, server }
    }

    /// Starts scripting a call of the tool `name`.
    pub fn call(&self, name: impl Into<String>) -> Call<'_> {
        self.script(CallToolRequestParams::new(name.into()))
    }

    /// Starts scripting a `prompts/get` of the prompt `name` (a `#[mrtr_prompt]`).
    pub fn prompt(&self, name: impl Into<String>) -> Call<'_, GetPromptResult> {
        self.script(GetPromptRequestParams::new(name.into()))
    }

    /// Starts scripting a `resources/read` of `uri` (a `#[mrtr_resource]`).
    pub fn resource(&self, uri: impl Into<String>) -> Call<'_, ReadResourceResult> {
        self.script(ReadResourceRequestParams::new(uri.into()))
    }

    fn script<R: Finished>(&self, params: R::Params) -> Call<'_, R> {
        Call {
            client: &self.client,
            params,
            answers: BTreeMap::new(),
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }

    /// The connected client, for anything a [`Call`] does not cover (`list_tools`, ...).
    pub fn client(&self) -> &Client {
        &self.client
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        self.server.abort();
    }
}

fn every_capability() -> Value {
    json!({
        "elicitation": {"form": {}, "url": {}},
        "sampling": {"tools": {}},
        "roots": {},
    })
}

/// The client's answer to one question, as it goes into `inputResponses`.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer(pub Value);

impl Answer {
    /// Accepts a form with this content (JSON, or any `Serialize` such as the form type).
    ///
    /// # Panics
    /// If `content` does not serialize to JSON.
    pub fn accept(content: impl Serialize) -> Self {
        let content = serde_json::to_value(content)
            .unwrap_or_else(|error| panic!("mrtr::testing: the content is not JSON: {error}"));
        Self(json!({"action": "accept", "content": content}))
    }

    /// Accepts a URL elicitation: the user agreed to open the page.
    pub fn accept_url() -> Self {
        Self(json!({"action": "accept"}))
    }

    /// The user declined.
    pub fn decline() -> Self {
        Self(json!({"action": "decline"}))
    }

    /// The user dismissed the question.
    pub fn cancel() -> Self {
        Self(json!({"action": "cancel"}))
    }

    /// The model replied `text` to a sampling request (model `mrtr-testing`, `endTurn`).
    pub fn sampled(text: impl Into<String>) -> Self {
        Self(json!({
            "role": "assistant",
            "content": {"type": "text", "text": text.into()},
            "model": "mrtr-testing",
            "stopReason": "endTurn",
        }))
    }

    /// The client's roots are these URIs.
    pub fn roots<U: Into<String>>(uris: impl IntoIterator<Item = U>) -> Self {
        let roots: Vec<Value> = uris
            .into_iter()
            .map(|uri| json!({"uri": uri.into()}))
            .collect();
        Self(json!({ "roots": roots }))
    }

    /// Exactly this JSON, e.g. an answer that does not fit.
    pub fn raw(value: Value) -> Self {
        Self(value)
    }
}

/// One scripted call of a tool (or `prompts/get` of a prompt, or `resources/read` of a
/// resource): arguments, answers per key, and a bound on its rounds. `R` is what it returns.
#[must_use = "a call is sent by `.run().await`"]
pub struct Call<'a, R: Finished = CallToolResult> {
    client: &'a Client,
    params: R::Params,
    answers: BTreeMap<String, VecDeque<Answer>>,
    max_rounds: usize,
}

impl<R: Finished> fmt::Debug for Call<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Call")
            .field("params", &self.params)
            .field("answers", &self.answers)
            .field("max_rounds", &self.max_rounds)
            .finish_non_exhaustive()
    }
}

/// What a [`Call`] ends with: `CallToolResult`, `GetPromptResult` or `ReadResourceResult`.
pub trait Finished: private::Method {}

impl<R: private::Method> Finished for R {}

mod private {
    use rmcp::{ServiceError, model::InputRequiredResult};

    use super::Client;

    /// One response to a request of the method.
    pub enum Reply<R> {
        Done(R),
        Input(InputRequiredResult),
        Other(String),
    }

    /// A method a [`super::Call`] drives: its request, one round of it, and its result's text.
    pub trait Method: Sized {
        type Params: crate::bridge::Retry + Send + std::fmt::Debug;

        fn once(
            client: &Client,
            params: Self::Params,
        ) -> impl Future<Output = Result<Reply<Self>, ServiceError>> + Send;

        /// A tool's text blocks, a prompt's text messages, a resource's text contents.
        fn texts(&self) -> Vec<&str>;
    }
}

use private::{Method, Reply};

impl Method for CallToolResult {
    type Params = CallToolRequestParams;

    async fn once(client: &Client, params: Self::Params) -> Result<Reply<Self>, ServiceError> {
        Ok(match client.call_tool_once(params).await? {
            CallToolResponse::Complete(result) => Reply::Done(result),
            CallToolResponse::InputRequired(input) => Reply::Input(input),
            other => Reply::Other(format!("{other:?}")),
        })
    }

    fn texts(&self) -> Vec<&str> {
        self.content
            .iter()
            .filter_map(|content| content.as_text())
            .map(|text| text.text.as_str())
            .collect()
    }
}

impl Method for GetPromptResult {
    type Params = GetPromptRequestParams;

    async fn once(client: &Client, params: Self::Params) -> Result<Reply<Self>, ServiceError> {
        Ok(match client.get_prompt_once(params).await? {
            GetPromptResponse::Complete(result) => Reply::Done(result),
            GetPromptResponse::InputRequired(input) => Reply::Input(input),
            other => Reply::Other(format!("{other:?}")),
        })
    }

    fn texts(&self) -> Vec<&str> {
        self.messages
            .iter()
            .filter_map(|message| message.content.as_text())
            .map(|text| text.text.as_str())
            .collect()
    }
}

impl Method for ReadResourceResult {
    type Params = ReadResourceRequestParams;

    async fn once(client: &Client, params: Self::Params) -> Result<Reply<Self>, ServiceError> {
        Ok(match client.read_resource_once(params).await? {
            ReadResourceResponse::Complete(result) => Reply::Done(result),
            ReadResourceResponse::InputRequired(input) => Reply::Input(input),
            other => Reply::Other(format!("{other:?}")),
        })
    }

    fn texts(&self) -> Vec<&str> {
        self.contents
            .iter()
            .filter_map(|contents| match contents {
                ResourceContents::TextResourceContents { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }
}

impl Call<'_, CallToolResult> {
    /// The tool's arguments, sent with every round.
    ///
    /// # Panics
    /// If they do not serialize to a JSON object.
    pub fn arguments(mut self, arguments: impl Serialize) -> Self {
        self.params.arguments = Some(object(arguments));
        self
    }
}

impl Call<'_, GetPromptResult> {
    /// The prompt's arguments, sent with every round.
    ///
    /// # Panics
    /// If they do not serialize to a JSON object.
    pub fn arguments(mut self, arguments: impl Serialize) -> Self {
        self.params.arguments = Some(object(arguments));
        self
    }
}

fn object(arguments: impl Serialize) -> JsonObject {
    serde_json::to_value(arguments)
        .and_then(serde_json::from_value)
        .unwrap_or_else(|error| panic!("mrtr::testing: arguments must be an object: {error}"))
}

impl<R: Finished> Call<'_, R> {
    /// Answers `key` with `answer` the next time it is asked. Called again for the same key,
    /// it queues another answer for the time after.
    pub fn answer(mut self, key: impl Into<String>, answer: Answer) -> Self {
        self.answers
            .entry(key.into())
            .or_default()
            .push_back(answer);
        self
    }

    /// Answers `key` with these, one per time it is asked, in order.
    pub fn answers(
        mut self,
        key: impl Into<String>,
        answers: impl IntoIterator<Item = Answer>,
    ) -> Self {
        self.answers.entry(key.into()).or_default().extend(answers);
        self
    }

    /// Fails the run if the server asks for input more than `rounds` times (default
    /// [`DEFAULT_MAX_ROUNDS`]).
    pub fn max_rounds(mut self, rounds: usize) -> Self {
        self.max_rounds = rounds;
        self
    }
}

impl<R: Finished> Call<'_, R> {
    /// Sends the first request, then one retry per round with the scripted answers and the
    /// round's `requestState`, until the tool (prompt, resource) returns.
    pub async fn run(mut self) -> Result<Run<R>, HarnessError> {
        let mut rounds: Vec<Round> = Vec::new();
        let mut params = self.params.clone();
        loop {
            let reply = match R::once(self.client, params.clone()).await {
                Ok(reply) => reply,
                Err(ServiceError::McpError(error)) => {
                    return Err(HarnessError::Protocol { error, rounds });
                }
                Err(error) => {
                    return Err(HarnessError::Client {
                        error: error.to_string(),
                        rounds,
                    });
                }
            };
            let input = match reply {
                Reply::Done(result) => {
                    let unused = self
                        .answers
                        .into_iter()
                        .filter(|(_, queue)| !queue.is_empty())
                        .map(|(key, _)| key)
                        .collect();
                    return Ok(Run {
                        rounds,
                        result,
                        unused,
                    });
                }
                Reply::Input(input) => input,
                Reply::Other(response) => {
                    return Err(HarnessError::Unexpected { response, rounds });
                }
            };
            rounds.push(Round::from_input(input));
            let round = rounds.last().expect("just pushed");
            if rounds.len() > self.max_rounds {
                return Err(HarnessError::TooManyRounds {
                    limit: self.max_rounds,
                    rounds,
                });
            }
            let mut responses = InputResponses::new();
            for question in &round.questions {
                let Some(answer) = self
                    .answers
                    .get_mut(&question.key)
                    .and_then(VecDeque::pop_front)
                else {
                    return Err(HarnessError::Unscripted {
                        question: question.clone(),
                        rounds,
                    });
                };
                responses.insert(question.key.clone(), answer.0);
            }
            let state = round.state.clone();
            params = crate::bridge::Retry::retry(
                params,
                (!responses.is_empty()).then_some(responses),
                Some(state),
            );
        }
    }
}

/// What kind of input a question asks for. MCP may add kinds: match with a `_` arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// `elicitation/create` in form mode.
    Form,
    /// `elicitation/create` in URL mode.
    Url,
    /// `sampling/createMessage`.
    Sampling,
    /// `roots/list`.
    Roots,
}

/// One question of a round, as the client received it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Asked {
    /// Its key in `inputRequests`.
    pub key: String,
    /// Form, URL, sampling or roots.
    pub kind: Kind,
    /// The elicitation's message; for sampling, the text of the last message; for roots, empty.
    pub message: String,
    /// A form's `requestedSchema`, else `Value::Null`.
    pub schema: Value,
    /// The whole request (`method` and `params`), for anything else.
    pub request: Value,
}

impl Asked {
    fn read(key: String, request: Value) -> Self {
        let params = &request["params"];
        let kind = match request["method"].as_str() {
            Some("sampling/createMessage") => Kind::Sampling,
            Some("roots/list") => Kind::Roots,
            _ if params["mode"] == "url" => Kind::Url,
            _ => Kind::Form,
        };
        let message = match kind {
            Kind::Form | Kind::Url => params["message"].as_str().map(str::to_owned),
            Kind::Sampling => params["messages"]
                .as_array()
                .and_then(|messages| messages.last())
                .and_then(|message| text_in(&message["content"])),
            Kind::Roots => None,
        };
        Self {
            key,
            kind,
            message: message.unwrap_or_default(),
            schema: params["requestedSchema"].clone(),
            request,
        }
    }
}

/// The text of a content block, or of the first text block in a list of them.
fn text_in(content: &Value) -> Option<String> {
    match content {
        Value::Array(blocks) => blocks.iter().find_map(text_in),
        block => block["text"].as_str().map(str::to_owned),
    }
}

/// One `InputRequiredResult`: the questions it asked (none for a checkpoint) and its state.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Round {
    /// The questions of `inputRequests`, in key order.
    pub questions: Vec<Asked>,
    /// The sealed `requestState` (empty if the server sent none).
    pub state: String,
}

impl Round {
    fn from_input(input: InputRequiredResult) -> Self {
        let questions = input
            .input_requests
            .unwrap_or_default()
            .into_iter()
            .map(|(key, request)| {
                let request = serde_json::to_value(request).unwrap_or(Value::Null);
                Asked::read(key, request)
            })
            .collect();
        Self {
            questions,
            state: input.request_state.unwrap_or_default(),
        }
    }

    /// The size of its `requestState` in bytes.
    pub fn state_bytes(&self) -> usize {
        self.state.len()
    }

    /// The keys it asked, in key order.
    pub fn keys(&self) -> Vec<&str> {
        self.questions.iter().map(|q| q.key.as_str()).collect()
    }
}

/// A call that returned a result, and the rounds it took.
#[derive(Debug, Clone)]
pub struct Run<R = CallToolResult> {
    rounds: Vec<Round>,
    result: R,
    unused: Vec<String>,
}

impl<R: Finished> Run<R> {
    /// Every round that asked for input, in order.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// How many times the server asked for input; the call took one request more.
    pub fn round_count(&self) -> usize {
        self.rounds.len()
    }

    /// Every question, round after round.
    pub fn questions(&self) -> impl Iterator<Item = &Asked> {
        self.rounds.iter().flat_map(|round| &round.questions)
    }

    /// The key of every question, round after round.
    pub fn keys(&self) -> Vec<&str> {
        self.questions().map(|q| q.key.as_str()).collect()
    }

    /// The first question asked with `key`.
    ///
    /// # Panics
    /// If no question had that key.
    #[track_caller]
    pub fn asked(&self, key: &str) -> &Asked {
        self.questions()
            .find(|q| q.key == key)
            .unwrap_or_else(|| panic!("`{key}` was never asked; asked: {:?}", self.keys()))
    }

    /// The largest `requestState` of the call, in bytes (0 if it asked nothing).
    pub fn max_state_bytes(&self) -> usize {
        self.rounds
            .iter()
            .map(Round::state_bytes)
            .max()
            .unwrap_or(0)
    }

    /// The tool's (prompt's, resource's) result.
    pub fn result(&self) -> &R {
        &self.result
    }

    /// The result's text: a tool's text blocks, a prompt's text messages or a resource's text
    /// contents, joined with newlines.
    pub fn text(&self) -> String {
        self.result.texts().join("\n")
    }

    /// The keys that still had scripted answers when the call returned.
    pub fn unused_answers(&self) -> &[String] {
        &self.unused
    }
}

impl Run<CallToolResult> {
    /// Whether the result is a tool error (`isError: true`).
    pub fn is_error(&self) -> bool {
        self.result.is_error == Some(true)
    }
}

/// Why a [`Call`] did not return a result. Each variant carries every round received,
/// including the one it failed at. `Debug` prints the same readable message as `Display`.
#[non_exhaustive]
pub enum HarnessError {
    /// The server answered a request with a JSON-RPC error, such as `-32021` for a missing
    /// capability.
    Protocol {
        error: ErrorData,
        rounds: Vec<Round>,
    },
    /// The server asked `question`, and the script had no answer left for its key.
    Unscripted { question: Asked, rounds: Vec<Round> },
    /// The server asked for input more than `limit` times.
    TooManyRounds { limit: usize, rounds: Vec<Round> },
    /// The client failed (the connection closed, ...).
    Client { error: String, rounds: Vec<Round> },
    /// The server answered with neither a result nor a question (such as a task).
    Unexpected {
        response: String,
        rounds: Vec<Round>,
    },
}

impl HarnessError {
    /// The JSON-RPC error the server answered with, if that is what ended the call.
    pub fn protocol_error(&self) -> Option<&ErrorData> {
        match self {
            HarnessError::Protocol { error, .. } => Some(error),
            _ => None,
        }
    }

    /// The rounds received before the call failed, including the one it failed at.
    pub fn rounds(&self) -> &[Round] {
        match self {
            HarnessError::Protocol { rounds, .. }
            | HarnessError::Unscripted { rounds, .. }
            | HarnessError::TooManyRounds { rounds, .. }
            | HarnessError::Client { rounds, .. }
            | HarnessError::Unexpected { rounds, .. } => rounds,
        }
    }

    fn asked_so_far(&self) -> Vec<&str> {
        self.rounds().iter().flat_map(Round::keys).collect()
    }
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let round = self.rounds().len();
        let asked = self.asked_so_far();
        match self {
            HarnessError::Protocol { error, .. } => {
                write!(
                    f,
                    "the server answered request {} with JSON-RPC error {}: {}",
                    round + 1,
                    error.code.0,
                    error.message
                )?;
                if let Some(data) = &error.data {
                    write!(f, " (data: {data})")?;
                }
                write!(f, "; asked before: {asked:?}")
            }
            HarnessError::Unscripted { question, .. } => write!(
                f,
                "no scripted answer left for `{}` ({:?}: {:?}) in round {round}; asked so far: \
                 {asked:?}",
                question.key, question.kind, question.message
            ),
            HarnessError::TooManyRounds { limit, .. } => write!(
                f,
                "the server asked for input more than {limit} times; asked: {asked:?}"
            ),
            HarnessError::Client { error, .. } => {
                write!(f, "the client failed on request {}: {error}", round + 1)
            }
            HarnessError::Unexpected { response, .. } => write!(
                f,
                "the server answered with neither a result nor a question: {response}"
            ),
        }
    }
}

impl fmt::Debug for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for HarnessError {}
