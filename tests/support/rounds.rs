//! A wizard tool called by hand, one `tools/call` request per round: the question each round
//! asks, the answers to send back, and scripted runs of a whole call.

use std::collections::BTreeSet;

use rmcp::{
    ErrorData, ServiceError,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ErrorCode, InputResponses,
        JsonObject,
    },
};
use serde_json::{Value, json};

use crate::transports::Client;

/// One question the server sent back.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    pub keys: Vec<String>,
    pub key: String,
    pub message: String,
    pub schema: Value,
    pub state: String,
}

#[derive(Debug)]
pub enum Reply {
    Asked(Asked),
    Done(CallToolResult),
}

/// A tool of the wizard, which takes a `team` argument.
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    pub name: &'static str,
    /// `Some(bytes)`: every question must carry a `requestState` shorter than `bytes`, and the
    /// questions of one scripted run must each carry a new one.
    pub small_states: Option<usize>,
}

impl Tool {
    /// A first call: no `requestState`, no answers.
    pub fn first_call(self, team: &str) -> CallToolRequestParams {
        let mut arguments = JsonObject::new();
        arguments.insert("team".to_owned(), json!(team));
        CallToolRequestParams::new(self.name).with_arguments(arguments)
    }

    /// `client`'s calls of this tool for `team`.
    pub fn rounds<'a>(self, client: &'a Client, team: &'a str) -> Rounds<'a> {
        Rounds {
            client,
            tool: self,
            team,
        }
    }

    /// With [`Tool::small_states`], each round hands back a state no earlier round had, and
    /// none grows past the bound.
    pub fn assert_states(self, asked: &[Asked]) {
        let Some(small) = self.small_states else {
            return;
        };
        let distinct: BTreeSet<&str> = asked.iter().map(|a| a.state.as_str()).collect();
        assert_eq!(
            distinct.len(),
            asked.len(),
            "a state was handed out twice: {:?}",
            keys_of(asked)
        );
        for (round, question) in asked.iter().enumerate() {
            assert!(
                question.state.len() < small,
                "round {} ({}) sealed {} bytes",
                round + 1,
                question.key,
                question.state.len()
            );
        }
    }
}

/// One client's calls of one tool for one team.
#[derive(Clone, Copy)]
pub struct Rounds<'a> {
    pub client: &'a Client,
    pub tool: Tool,
    pub team: &'a str,
}

impl Rounds<'_> {
    /// A call carrying `responses` (a JSON object) and, if any, `state`.
    pub fn call(&self, state: Option<&str>, responses: Value) -> CallToolRequestParams {
        let mut params = self.tool.first_call(self.team);
        let responses: InputResponses =
            serde_json::from_value(responses).expect("responses are a JSON object");
        params.input_responses = Some(responses);
        params.request_state = state.map(str::to_owned);
        params
    }

    /// A first call (no `requestState`, no answers) that must come back as a question.
    pub async fn first(&self) -> anyhow::Result<Asked> {
        self.ask_with(self.tool.first_call(self.team)).await
    }

    /// Sends `responses` and, if any, `state`: the round must come back as a question.
    pub async fn ask(&self, state: Option<&str>, responses: Value) -> anyhow::Result<Asked> {
        self.ask_with(self.call(state, responses)).await
    }

    /// Sends `responses` and, if any, `state`: the round must come back as a result.
    pub async fn finish(
        &self,
        state: Option<&str>,
        responses: Value,
    ) -> anyhow::Result<CallToolResult> {
        finish(self.client, self.call(state, responses)).await
    }

    /// Sends `responses` and, if any, `state`: the round must be refused with `-32602`.
    pub async fn refused(
        &self,
        state: Option<&str>,
        responses: Value,
    ) -> anyhow::Result<ErrorData> {
        refused(self.client, self.call(state, responses)).await
    }

    /// Sends one round that must come back as a single question.
    pub async fn ask_with(&self, params: CallToolRequestParams) -> anyhow::Result<Asked> {
        match send(self.client, params).await? {
            Reply::Asked(asked) => {
                assert_eq!(
                    asked.keys.len(),
                    1,
                    "one question per round: {:?}",
                    asked.keys
                );
                assert!(!asked.state.is_empty());
                if let Some(small) = self.tool.small_states {
                    assert!(
                        asked.state.len() < small,
                        "requestState of `{}` is {} bytes",
                        asked.key,
                        asked.state.len()
                    );
                }
                Ok(asked)
            }
            Reply::Done(result) => anyhow::bail!("expected a question, got a result: {result:?}"),
        }
    }

    /// Calls the tool and answers each round with the next scripted `(key, answer)`, checking
    /// that the key asked is the scripted one. Returns the questions and the result.
    pub async fn run_script(
        &self,
        script: &[(&str, Value)],
    ) -> anyhow::Result<(Vec<Asked>, CallToolResult)> {
        let mut asked: Vec<Asked> = Vec::new();
        let mut params = self.tool.first_call(self.team);
        let mut script = script.iter();
        loop {
            match send(self.client, params).await? {
                Reply::Done(result) => {
                    anyhow::ensure!(
                        script.next().is_none(),
                        "the call completed before the script ended: {result:?}"
                    );
                    self.tool.assert_states(&asked);
                    return Ok((asked, result));
                }
                Reply::Asked(question) => {
                    let Some((key, answer)) = script.next() else {
                        anyhow::bail!(
                            "no scripted answer for {question:?} after {:?}",
                            keys_of(&asked)
                        );
                    };
                    assert_eq!(
                        question.keys,
                        [*key],
                        "round {} ({})",
                        asked.len() + 1,
                        question.message
                    );
                    params = self.call(
                        Some(&question.state),
                        json!({ key.to_owned(): answer.clone() }),
                    );
                    asked.push(question);
                }
            }
        }
    }

    /// For each round of the `happy` script, a run that answers the rounds before it as
    /// scripted and that one with `refusal()`: the key refused, the questions asked and the
    /// result of each run, in order.
    pub async fn refuse_each_round<'k>(
        &self,
        happy: &[(&'k str, Value)],
        refusal: fn() -> Value,
    ) -> anyhow::Result<Vec<(&'k str, Vec<Asked>, CallToolResult)>> {
        let mut runs = Vec::new();
        for round in 0..happy.len() {
            let key = happy[round].0;
            let mut script = happy[..round].to_vec();
            script.push((key, refusal()));
            let (asked, result) = self.run_script(&script).await?;
            runs.push((key, asked, result));
        }
        Ok(runs)
    }

    /// Answers `script` in order, every round a question, and returns every question asked,
    /// the last one unanswered.
    pub async fn run_script_until(&self, script: &[(&str, Value)]) -> anyhow::Result<Vec<Asked>> {
        let mut asked: Vec<Asked> = Vec::new();
        let mut params = self.tool.first_call(self.team);
        for (key, answer) in script {
            let question = self.ask_with(params).await?;
            assert_eq!(question.key, *key, "round {}", asked.len() + 1);
            params = self.call(
                Some(&question.state),
                json!({ key.to_owned(): answer.clone() }),
            );
            asked.push(question);
        }
        asked.push(self.ask_with(params).await?);
        self.tool.assert_states(&asked);
        Ok(asked)
    }
}

pub fn accept(content: Value) -> Value {
    json!({ "action": "accept", "content": content })
}

pub fn decline() -> Value {
    json!({ "action": "decline" })
}

pub fn cancel() -> Value {
    json!({ "action": "cancel" })
}

/// Sends one round.
pub async fn send(client: &Client, params: CallToolRequestParams) -> Result<Reply, ServiceError> {
    Ok(match client.call_tool_once(params).await? {
        CallToolResponse::Complete(result) => Reply::Done(result),
        CallToolResponse::InputRequired(input) => {
            let requests = input.input_requests.unwrap_or_default();
            let keys: Vec<String> = requests.keys().cloned().collect();
            let (key, request) = requests
                .into_iter()
                .next()
                .expect("an input_required result carries at least one request");
            let request = serde_json::to_value(request).expect("a request serializes");
            assert_eq!(request["method"], "elicitation/create", "{request}");
            Reply::Asked(Asked {
                keys,
                key,
                message: request["params"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                schema: request["params"]["requestedSchema"].clone(),
                state: input
                    .request_state
                    .expect("a question from mrtr always carries requestState"),
            })
        }
        other => panic!("unexpected response: {other:?}"),
    })
}

/// Sends one round that must come back as a result.
pub async fn finish(
    client: &Client,
    params: CallToolRequestParams,
) -> anyhow::Result<CallToolResult> {
    match send(client, params).await? {
        Reply::Done(result) => Ok(result),
        Reply::Asked(asked) => anyhow::bail!("expected a result, got a question: {asked:?}"),
    }
}

/// Sends one round that must be refused with `-32602`: not a result, not a question.
pub async fn refused(client: &Client, params: CallToolRequestParams) -> anyhow::Result<ErrorData> {
    match send(client, params).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{error:?}");
            assert!(error.message.contains("requestState"), "{error:?}");
            Ok(error)
        }
        Err(other) => anyhow::bail!("expected a JSON-RPC -32602 error, got {other:?}"),
        Ok(reply) => anyhow::bail!("expected a JSON-RPC -32602 error, got {reply:?}"),
    }
}

/// The key of each question.
pub fn keys_of(asked: &[Asked]) -> Vec<&str> {
    asked.iter().map(|a| a.key.as_str()).collect()
}

/// The message of each question.
pub fn messages_of(asked: &[Asked]) -> Vec<&str> {
    asked.iter().map(|a| a.message.as_str()).collect()
}

/// `asked` is the question `key` with the text `message`.
#[track_caller]
pub fn assert_asked(asked: &Asked, key: &str, message: &str) {
    assert_eq!((asked.key.as_str(), asked.message.as_str()), (key, message));
}

/// The call ended as a tool error with the text `text` and no structured content.
#[track_caller]
pub fn assert_tool_error(result: &CallToolResult, text: &str) {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    assert_eq!(mrtr_examples::demo::text_of(result), text);
    assert_eq!(result.structured_content, None);
}
