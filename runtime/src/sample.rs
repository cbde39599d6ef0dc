//! `sampling/createMessage`: ask the client's model for a completion.
//!
//! Sampling is deprecated by SEP-2577 but still part of MCP 2026-07-28; rmcp marks its types
//! deprecated, so the answer is mrtr's own [`Sampled`].
#![allow(deprecated)]

use rmcp::{
    ErrorData,
    model::{
        ClientCapabilities, CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult,
        InputRequest, ModelHint, ModelPreferences, SamplingCapability, SamplingMessage,
        SamplingMessageContentBlock, Tool,
    },
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Question;

/// `ask!(capital = sample("What is the capital of France?").max_tokens(100))` asks the client's
/// model and answers a [`Sampled`].
pub fn sample(prompt: impl Into<String>) -> Sample {
    Sample::messages(vec![SamplingMessage::user_text(prompt)])
}

/// A sampling question; see [`sample`]. Build it with the methods below.
#[must_use = "a question does nothing until it is asked: `ask!(key = ..)`"]
#[derive(Debug, Clone)]
pub struct Sample {
    params: CreateMessageRequestParams,
}

impl Sample {
    /// The default `maxTokens` when none is set.
    pub const DEFAULT_MAX_TOKENS: u32 = 1024;

    /// A conversation to continue, rather than one prompt.
    pub fn messages(messages: Vec<SamplingMessage>) -> Self {
        Self {
            params: CreateMessageRequestParams::new(messages, Self::DEFAULT_MAX_TOKENS),
        }
    }

    /// The most tokens the model may produce (`maxTokens`).
    pub fn max_tokens(mut self, max_tokens: u32) -> Self {
        self.params.max_tokens = max_tokens;
        self
    }

    /// The system prompt.
    pub fn system(mut self, prompt: impl Into<String>) -> Self {
        self.params.system_prompt = Some(prompt.into());
        self
    }

    /// The sampling temperature.
    pub fn temperature(mut self, temperature: f32) -> Self {
        self.params.temperature = Some(temperature);
        self
    }

    /// Sequences that stop generation.
    pub fn stop_sequences(mut self, stops: Vec<String>) -> Self {
        self.params.stop_sequences = Some(stops);
        self
    }

    /// Which model the client should prefer, in full.
    pub fn model_preferences(mut self, preferences: ModelPreferences) -> Self {
        self.params.model_preferences = Some(preferences);
        self
    }

    /// Hints a model by name, such as `"claude"`, keeping other preferences.
    pub fn prefer_model(mut self, name: impl Into<String>) -> Self {
        let preferences = self.params.model_preferences.take().unwrap_or_default();
        let mut hints = preferences.hints.clone().unwrap_or_default();
        let mut hint = ModelHint::default();
        hint.name = Some(name.into());
        hints.push(hint);
        self.params.model_preferences = Some(preferences.with_hints(hints));
        self
    }

    /// Tools the model may call. The client must declare `sampling.tools`.
    pub fn tools(mut self, tools: Vec<Tool>) -> Self {
        self.params.tools = Some(tools);
        self
    }
}

/// The model's reply. It can be held across a later `ask!` like any answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sampled {
    /// The text of the reply: its text blocks, joined.
    pub text: String,
    /// The model that answered.
    pub model: String,
    /// Why the model stopped: `endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or another.
    pub stop_reason: Option<String>,
    /// The whole `CreateMessageResult` as JSON text, which postcard saves as it is (a `Value`
    /// would be saved as JSON anyway, at a cost: see `saved`).
    result_json: String,
}

impl Sampled {
    /// The whole `CreateMessageResult`, for images, tool use and the rest.
    pub fn result(&self) -> Value {
        serde_json::from_str(&self.result_json).unwrap_or(Value::Null)
    }

    /// [`result`](Self::result) as the JSON text the client sent, re-encoded.
    pub fn result_json(&self) -> &str {
        &self.result_json
    }

    fn from_result(result: CreateMessageResult, raw: &Value) -> Self {
        let text = result
            .message
            .content
            .into_vec()
            .into_iter()
            .filter_map(|block| match block {
                SamplingMessageContentBlock::Text(text) => Some(text.text),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("");
        Self {
            text,
            model: result.model,
            stop_reason: result.stop_reason,
            result_json: raw.to_string(),
        }
    }
}

impl Question for Sample {
    type Answer = Sampled;

    fn missing_capability(&self, declared: &ClientCapabilities) -> Option<ClientCapabilities> {
        let needs_tools = self.params.tools.is_some() || self.params.tool_choice.is_some();
        let ok = match &declared.sampling {
            None => false,
            Some(sampling) => !needs_tools || sampling.tools.is_some(),
        };
        (!ok).then(|| {
            let sampling = if needs_tools {
                serde_json::from_value(serde_json::json!({"tools": {}})).unwrap_or_default()
            } else {
                SamplingCapability::default()
            };
            let mut needed = ClientCapabilities::default();
            needed.sampling = Some(sampling);
            needed
        })
    }

    fn into_input_request(self) -> Result<Option<InputRequest>, ErrorData> {
        Ok(Some(InputRequest::CreateMessage(
            CreateMessageRequest::new(self.params),
        )))
    }

    fn read_answer(_: &str, response: &Value) -> Result<Sampled, String> {
        CreateMessageResult::deserialize(response)
            .map(|result| Sampled::from_result(result, response))
            .map_err(|e| format!("{}{e}", crate::log::NOT_A_CREATE_MESSAGE_RESULT))
    }

    fn keep(&self, bytes: &mut Vec<u8>) -> Option<crate::question::Kept> {
        serde_json::to_writer(&mut *bytes, &self.params).ok()?;
        crate::question::kept_as(|params, _| {
            let params = serde_json::from_slice(params).map_err(|error| {
                ErrorData::internal_error(
                    format!("a kept sampling request does not read: {error}"),
                    None,
                )
            })?;
            Sample { params }.into_input_request()
        })
    }
}
