//! The fixtures of the 14 `input-required-result-*` scenarios (SEP-2322), one resumable
//! function each. The keys, messages and form fields are the ones the scenarios spell out.
//!
//! Several scenarios share a fixture: `test_input_required_result_elicitation` also serves
//! `missing-input-response` (a wrong key asks again), `result-type`, `ignore-extra-params`
//! (unknown keys are ignored) and `validate-input` (an answer that is not an `ElicitResult`
//! asks again). `unsupported-methods` needs no fixture: `tools/list` and `prompts/list` never
//! answer `input_required`. `tampered-state` is the engine's: a state that does not open is
//! JSON-RPC `-32602`.

use mrtr::{Capabilities, Form, ask, elicit, mrtr_prompt, mrtr_tool, roots, sample};
use rmcp::{
    ErrorData,
    model::{GetPromptResult, PromptMessage, Role},
    prompt, prompt_router, tool, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Conformance;

// The forms. Their root `title` and doc comment are left out of `requestedSchema`; field doc
// comments would become field descriptions, and the scenarios' schemas have none.

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct Name {
    pub name: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct Confirm {
    pub ok: bool,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct Color {
    pub color: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Form)]
pub struct UserContext {
    pub context: String,
}

/// The roots as one line of the result.
fn listing(roots: &[mrtr::Root]) -> String {
    let uris: Vec<&str> = roots.iter().map(|root| root.uri.as_str()).collect();
    format!("roots: {}", uris.join(", "))
}

#[tool_router(router = input_required_tools, vis = "pub(super)")]
impl Conformance {
    /// `input-required-result-basic-elicitation` and the scenarios that reuse it.
    #[mrtr_tool]
    #[tool(description = "Asks the user's name (key user_name), then greets them")]
    async fn test_input_required_result_elicitation(&self) -> Result<String, String> {
        let name = ask!(user_name = elicit::<Name>("What is your name?"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .name;
        Ok(format!("Hello, {name}!"))
    }

    /// `input-required-result-basic-sampling`.
    #[mrtr_tool]
    #[tool(
        description = "Asks the client's model for the capital of France (key capital_question)"
    )]
    async fn test_input_required_result_sampling(&self) -> String {
        let answer =
            ask!(capital_question = sample("What is the capital of France?").max_tokens(100));
        format!("The model said: {}", answer.text)
    }

    /// `input-required-result-basic-list-roots`.
    #[mrtr_tool]
    #[tool(description = "Asks the client for its roots (key client_roots)")]
    async fn test_input_required_result_list_roots(&self) -> String {
        let roots = ask!(client_roots = roots());
        listing(&roots)
    }

    /// `input-required-result-request-state`: the answer only counts with the sealed state it
    /// was asked under, so reaching the end means the state verified.
    #[mrtr_tool]
    #[tool(
        description = "Asks for a confirmation (key confirm) and checks the echoed requestState"
    )]
    async fn test_input_required_result_request_state(&self) -> Result<String, String> {
        let ok = ask!(confirm = elicit::<Confirm>("Please confirm"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .ok;
        Ok(format!("state-ok: requestState verified, confirmed={ok}"))
    }

    /// `input-required-result-multiple-input-requests`: three kinds of question in one round.
    #[mrtr_tool]
    #[tool(description = "Asks for a name, a greeting from the model and the roots in one round")]
    async fn test_input_required_result_multiple_inputs(&self) -> Result<String, String> {
        let (name, greeting, roots) = ask!(
            user_name = elicit::<Name>("What is your name?"),
            greeting = sample("Generate a greeting").max_tokens(50),
            client_roots = roots(),
        );
        let name = name.accepted().map_err(|refused| refused.to_string())?.name;
        Ok(format!(
            "name: {name}; greeting: {}; {}",
            greeting.text,
            listing(&roots)
        ))
    }

    /// `input-required-result-multi-round`: two rounds, each with its own state.
    #[mrtr_tool]
    #[tool(description = "Asks a name (key step1), then a favorite color (key step2)")]
    async fn test_input_required_result_multi_round(&self) -> Result<String, String> {
        let name = ask!(step1 = elicit::<Name>("Step 1: What is your name?"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .name;
        let color = ask!(step2 = elicit::<Color>("Step 2: What is your favorite color?"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .color;
        Ok(format!("{name} likes {color}"))
    }

    /// `input-required-result-tampered-state`: the state is sealed with AES-256-GCM-SIV, so
    /// an altered one fails to open and the call is JSON-RPC `-32602`.
    #[mrtr_tool]
    #[tool(
        description = "Asks for a confirmation (key confirm) under an integrity-protected requestState"
    )]
    async fn test_input_required_result_tampered_state(&self) -> Result<String, String> {
        let ok = ask!(confirm = elicit::<Confirm>("Please confirm"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .ok;
        Ok(format!("confirmed={ok}"))
    }

    /// `input-required-result-capability-check`: asks only what this request's client declared.
    #[mrtr_tool]
    #[tool(
        description = "Asks the user if the client allows elicitation, else its model, else its roots"
    )]
    async fn test_input_required_result_capabilities(&self, caps: Capabilities) -> String {
        if caps.elicitation_form() {
            match ask!(user_name = elicit::<Name>("What is your name?")).ok() {
                Some(name) => format!("asked the user: {}", name.name),
                None => "the user did not answer".to_owned(),
            }
        } else if caps.sampling() {
            let answer =
                ask!(capital_question = sample("What is the capital of France?").max_tokens(100));
            format!("asked the model: {}", answer.text)
        } else if caps.roots() {
            let roots = ask!(client_roots = roots());
            format!("asked for the roots: {}", listing(&roots))
        } else {
            "the client declared nothing to ask".to_owned()
        }
    }

    /// `server-stateless` (`sep-2575-server-rejects-undeclared-capability`): this tool cannot
    /// work without the client's model, so a client that does not declare `sampling` gets
    /// `-32021` with `requiredCapabilities: {"sampling": {}}`.
    #[mrtr_tool]
    #[tool(description = "Needs sampling: summarizes a text with the client's model")]
    async fn test_missing_capability(&self) -> String {
        let summary =
            ask!(summary = sample("Summarize: MCP servers ask through MRTR.").max_tokens(50));
        format!("summary: {}", summary.text)
    }

    /// `server-stateless` (`sep-2575-http-server-no-independent-requests-on-stream`): the
    /// question travels inside the result, never as a request of its own on the stream.
    #[mrtr_tool]
    #[tool(description = "Asks the user's name through an InputRequiredResult")]
    async fn test_streaming_elicitation(&self) -> Result<String, String> {
        let name = ask!(user_name = elicit::<Name>("What is your name?"))
            .accepted()
            .map_err(|refused| refused.to_string())?
            .name;
        Ok(format!("Hello, {name}!"))
    }
}

#[prompt_router(router = "input_required_prompts", vis = "pub(super)")]
impl Conformance {
    /// `input-required-result-non-tool-request`: the same machine behind `prompts/get`.
    #[mrtr_prompt]
    #[prompt(description = "Asks what context to use (key user_context), then builds the prompt")]
    async fn test_input_required_result_prompt(&self) -> Result<GetPromptResult, ErrorData> {
        let context =
            ask!(user_context = elicit::<UserContext>("What context should the prompt use?"))
                .accepted()
                .map_err(|refused| ErrorData::invalid_params(refused.to_string(), None))?
                .context;
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Use this context: {context}"),
        )])
        .with_description("A prompt built from the user's context"))
    }
}
