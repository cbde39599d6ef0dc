//! The baseline of the benchmarks: `signup` written by hand on rmcp alone, as a careful author
//! would without mrtr. Its `requestState` is a step enum sealed with rmcp's HMAC codec and bound
//! to the arguments; answers are parsed and re-asked when they do not fit.

use rmcp::{
    ErrorData, ServerHandler,
    handler::server::{
        router::tool::ToolRouter,
        tool::{InputResponses as Responses, RequestState},
        wrapper::Parameters,
    },
    model::{
        CallToolResponse, CallToolResult, ContentBlock, ElicitRequest, ElicitRequestParams,
        ElicitationSchema, InputRequest, InputRequests, InputRequiredResult, RequestStateCodec,
        SealOptions, ServerCapabilities, ServerConfig,
    },
    tool, tool_handler, tool_router,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Deserialize, schemars::JsonSchema)]
pub struct SignupArgs {
    pub team: String,
}

#[derive(Serialize, Deserialize)]
enum Step {
    Profile,
    Plan { name: String },
    Confirm { name: String, plan: String },
}

#[derive(Clone)]
pub struct HandWritten {
    tool_router: ToolRouter<Self>,
    codec: RequestStateCodec,
}

impl Default for HandWritten {
    fn default() -> Self {
        Self::new()
    }
}

impl HandWritten {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
            codec: RequestStateCodec::try_new([7u8; 32].to_vec())
                .expect("a 32-byte key is long enough"),
        }
    }

    fn ask(
        &self,
        team: &str,
        key: &str,
        message: String,
        schema: Value,
        step: &Step,
    ) -> Result<CallToolResponse, ErrorData> {
        let schema: ElicitationSchema = serde_json::from_value(schema)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let request = InputRequest::Elicitation(ElicitRequest::new(
            ElicitRequestParams::FormElicitationParams {
                meta: None,
                message,
                requested_schema: schema,
            },
        ));
        let state = self
            .codec
            .seal_json_with(
                step,
                &SealOptions::new()
                    .associated_data(team.as_bytes())
                    .ttl(std::time::Duration::from_secs(600)),
            )
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let requests = InputRequests::from([(key.to_owned(), request)]);
        Ok(InputRequiredResult::new(Some(requests), Some(state)).into())
    }
}

fn accepted(
    responses: &Option<rmcp::model::InputResponses>,
    key: &str,
) -> Option<Result<Value, String>> {
    let reply = responses.as_ref()?.get(key)?;
    match reply["action"].as_str()? {
        "accept" => Some(Ok(reply["content"].clone())),
        _ => Some(Err(format!("Signup cancelled at {key}"))),
    }
}

#[tool_router]
impl HandWritten {
    #[tool(description = "Sign up, written by hand")]
    async fn signup(
        &self,
        Parameters(args): Parameters<SignupArgs>,
        RequestState(state): RequestState,
        Responses(responses): Responses,
    ) -> Result<CallToolResponse, ErrorData> {
        let step = match state {
            None => Step::Profile,
            Some(sealed) => self
                .codec
                .open_json_with(&sealed, args.team.as_bytes())
                .map_err(|_| {
                    ErrorData::invalid_params("requestState is invalid or expired", None)
                })?,
        };
        let profile_schema = json!({"type": "object", "properties": {"name": {"type": "string"}, "email": {"type": "string", "format": "email"}}, "required": ["name"]});
        let plan_schema = json!({"type": "object", "properties": {"plan": {"type": "string", "enum": ["free", "pro", "enterprise"]}}, "required": ["plan"]});
        let confirm_schema = json!({"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]});
        let cancelled =
            |text: String| Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into());
        match step {
            Step::Profile => match accepted(&responses, "profile") {
                Some(Ok(content)) => match content["name"].as_str() {
                    Some(name) => self.ask(
                        &args.team,
                        "plan",
                        "Which plan would you like?".into(),
                        plan_schema,
                        &Step::Plan {
                            name: name.to_owned(),
                        },
                    ),
                    None => self.ask(
                        &args.team,
                        "profile",
                        format!("Welcome to {}! What should we call you?", args.team),
                        profile_schema,
                        &Step::Profile,
                    ),
                },
                Some(Err(text)) => cancelled(text),
                None => self.ask(
                    &args.team,
                    "profile",
                    format!("Welcome to {}! What should we call you?", args.team),
                    profile_schema,
                    &Step::Profile,
                ),
            },
            Step::Plan { name } => match accepted(&responses, "plan") {
                Some(Ok(content)) => match content["plan"]
                    .as_str()
                    .filter(|p| ["free", "pro", "enterprise"].contains(p))
                {
                    Some(plan) => {
                        let message = format!("Sign {name} up for {plan}?");
                        self.ask(
                            &args.team,
                            "confirm",
                            message,
                            confirm_schema,
                            &Step::Confirm {
                                name,
                                plan: plan.to_owned(),
                            },
                        )
                    }
                    None => self.ask(
                        &args.team,
                        "plan",
                        "Which plan would you like?".into(),
                        plan_schema,
                        &Step::Plan { name },
                    ),
                },
                Some(Err(text)) => cancelled(text),
                None => self.ask(
                    &args.team,
                    "plan",
                    "Which plan would you like?".into(),
                    plan_schema,
                    &Step::Plan { name },
                ),
            },
            Step::Confirm { name, plan } => match accepted(&responses, "confirm") {
                Some(Ok(content)) => match content["confirm"].as_bool() {
                    Some(true) => {
                        let mut result = CallToolResult::success(vec![ContentBlock::text(
                            format!("Signed up {name} to {} on the {plan} plan", args.team),
                        )]);
                        result.structured_content =
                            Some(json!({"name": name, "team": args.team, "plan": plan}));
                        Ok(result.into())
                    }
                    Some(false) => Ok(CallToolResult::success(vec![ContentBlock::text(
                        "Signup aborted",
                    )])
                    .into()),
                    None => {
                        let message = format!("Sign {name} up for {plan}?");
                        self.ask(
                            &args.team,
                            "confirm",
                            message,
                            confirm_schema,
                            &Step::Confirm { name, plan },
                        )
                    }
                },
                Some(Err(text)) => cancelled(text),
                None => {
                    let message = format!("Sign {name} up for {plan}?");
                    self.ask(
                        &args.team,
                        "confirm",
                        message,
                        confirm_schema,
                        &Step::Confirm { name, plan },
                    )
                }
            },
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for HandWritten {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}
