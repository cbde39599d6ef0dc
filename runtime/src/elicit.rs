//! Form elicitation: ask the user to fill a flat, typed form.

use std::{borrow::Cow, fmt, marker::PhantomData};

use rmcp::{
    ErrorData,
    model::{
        CallToolResult, ClientCapabilities, ContentBlock, ElicitRequest, ElicitRequestParams,
        ElicitationAction, ElicitationCapability, ElicitationSchema, InputRequest,
    },
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Form, FormParts, Question};

/// Asks the user to fill the form `T`: `ask!(profile = elicit::<Profile>("Who are you?"))`.
///
/// The `requestedSchema` is derived from `T`. The answer is an [`Elicited<T>`].
pub fn elicit<T: Form + 'static>(message: impl Into<String>) -> Elicit<T> {
    Elicit {
        message: message.into(),
        schema: crate::form_schema::cached::<T>,
        form: PhantomData,
    }
}

/// A form elicitation question; see [`elicit`].
#[must_use = "a question does nothing until it is asked: `ask!(key = ..)`"]
#[derive(Debug)]
pub struct Elicit<T> {
    message: String,
    /// Taken while `T: Form` is known, so that a type that is not a form is reported once, at
    /// `elicit::<T>`.
    schema: fn() -> Result<ElicitationSchema, serde_json::Error>,
    form: PhantomData<fn() -> T>,
}

// Not derived: the form type itself need not be `Clone`.
impl<T> Clone for Elicit<T> {
    fn clone(&self) -> Self {
        Self {
            message: self.message.clone(),
            schema: self.schema,
            form: PhantomData,
        }
    }
}

/// The user's reply to a form: the filled form, or a refusal that names the question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Elicited<T> {
    /// The user submitted the form.
    Accept(T),
    /// The user explicitly said no.
    Decline(Refused),
    /// The user dismissed the question without choosing.
    Cancel(Refused),
}

/// Which way the user refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// `action: "decline"`.
    Decline,
    /// `action: "cancel"`.
    Cancel,
}

/// A declined or cancelled question. `key` is the `ask!` key it answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refused {
    /// The key of the question, as in `ask!(key = ...)`.
    pub key: String,
    /// Declined or cancelled.
    pub action: Refusal,
}

impl<T> Elicited<T> {
    /// The form if accepted, else the refusal, ready for `?`:
    ///
    /// ```
    /// # use mrtr::{Form, ask, elicit, mrtr_tool};
    /// # use rmcp::{handler::server::router::tool::ToolRouter, tool, tool_router};
    /// # #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Form)]
    /// # struct Profile { name: String }
    /// # #[derive(Clone)]
    /// # struct MyServer { tool_router: ToolRouter<Self> }
    /// # impl mrtr::MrtrServer for MyServer {}
    /// # #[tool_router]
    /// # impl MyServer {
    /// # #[mrtr_tool]
    /// # #[tool(description = "Asks a name")]
    /// # async fn name(&self) -> Result<String, String> {
    /// let profile = ask!(profile = elicit::<Profile>("Name?"))
    ///     .accepted()
    ///     .map_err(|refused| format!("cancelled at {}", refused.key))?;
    /// # Ok(profile.name)
    /// # }
    /// # }
    /// ```
    pub fn accepted(self) -> Result<T, Refused> {
        match self {
            Self::Accept(form) => Ok(form),
            Self::Decline(refused) | Self::Cancel(refused) => Err(refused),
        }
    }

    /// The form if accepted.
    pub fn ok(self) -> Option<T> {
        self.accepted().ok()
    }
}

/// So that `.accepted()?` works in a tool that returns `Result<_, String>`: the refusal's
/// message, as `Display` writes it.
impl From<Refused> for String {
    fn from(refused: Refused) -> String {
        refused.to_string()
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = match self.action {
            Refusal::Decline => "declined",
            Refusal::Cancel => "cancelled",
        };
        write!(f, "the user {verb} `{}`", self.key)
    }
}

impl std::error::Error for Refused {}

/// A refusal as a tool result with `isError: true`, for `Result<_, CallToolResult>` tools.
impl From<Refused> for CallToolResult {
    fn from(refused: Refused) -> Self {
        CallToolResult::error(vec![ContentBlock::text(refused.to_string())])
    }
}

impl<T: FormParts + 'static> Question for Elicit<T> {
    type Answer = Elicited<T>;

    fn missing_capability(&self, declared: &ClientCapabilities) -> Option<ClientCapabilities> {
        let form_allowed = match &declared.elicitation {
            None => false,
            // `elicitation: {}` means form mode only.
            Some(ElicitationCapability { form, url, .. }) => form.is_some() || url.is_none(),
        };
        (!form_allowed).then(|| {
            let mut needed = ClientCapabilities::default();
            let mut elicitation = ElicitationCapability::default();
            // A client with URL mode alone lacks form mode, which `{}` would not say.
            if declared.elicitation.is_some() {
                elicitation.form = Some(Default::default());
            }
            needed.elicitation = Some(elicitation);
            needed
        })
    }

    fn into_input_request(self) -> Result<Option<InputRequest>, ErrorData> {
        let schema = (self.schema)().map_err(|error| {
            tracing::error!(
                form = std::any::type_name::<T>(),
                %error,
                "mrtr: the form's JSON schema is not a flat elicitation schema"
            );
            ErrorData::internal_error("the question's form schema is invalid", None)
        })?;
        Ok(Some(InputRequest::Elicitation(ElicitRequest::new(
            ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: self.message,
                requested_schema: schema,
            },
        ))))
    }

    fn read_answer(key: &str, response: &Value) -> Result<Self::Answer, String> {
        // The content is read where it is, not copied out: `Option<IgnoredAny>` only notes
        // whether the field is there and not null.
        #[derive(Deserialize)]
        struct Reply {
            action: ElicitationAction,
            #[serde(default)]
            content: Option<serde::de::IgnoredAny>,
        }
        let reply = Reply::deserialize(response)
            .map_err(|e| format!("{}{e}", crate::log::NOT_AN_ELICIT_RESULT))?;
        let refused = |action| Refused {
            key: key.to_owned(),
            action,
        };
        match reply.action {
            ElicitationAction::Accept => {
                // Where the reply put its content: by name, or second in a sequence.
                let content = match response {
                    Value::Object(reply) => reply.get("content"),
                    Value::Array(reply) => reply.get(1),
                    _ => None,
                };
                let content = match content.filter(|_| reply.content.is_some()) {
                    Some(content) => Cow::Borrowed(content),
                    None => Cow::Owned(Value::Object(Default::default())),
                };
                crate::form_schema::read::<T, _>(|schema| {
                    let content = crate::answer_fits::tidied(schema, &content);
                    let answer = T::deserialize(&*content).map_err(|_| {
                        let why = crate::answer_fits::why_unread::<T>(schema, &content);
                        format!("{}{why}", crate::log::FORM_DOES_NOT_FIT)
                    })?;
                    crate::answer_fits::fits(schema, &content)?;
                    Ok(Elicited::Accept(answer))
                })
                .map_err(|e| e.to_string())?
            }
            ElicitationAction::Decline => Ok(Elicited::Decline(refused(Refusal::Decline))),
            ElicitationAction::Cancel => Ok(Elicited::Cancel(refused(Refusal::Cancel))),
            #[allow(unreachable_patterns)]
            _ => Err("unknown elicitation action".to_owned()),
        }
    }

    fn keep(&self, bytes: &mut Vec<u8>) -> Option<crate::question::Kept> {
        bytes.extend_from_slice(self.message.as_bytes());
        Some(crate::question::Kept {
            build: |message, schema| {
                let message = String::from_utf8(message.to_vec()).map_err(|_| {
                    ErrorData::internal_error("a kept question does not read", None)
                })?;
                let schema = schema.ok_or_else(|| {
                    ErrorData::internal_error("a kept form lost its schema", None)
                })?;
                Elicit::<T> {
                    message,
                    schema,
                    form: PhantomData,
                }
                .into_input_request()
            },
            schema: Some(self.schema),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_refusal_converts_to_its_message_for_question_mark() {
        fn tool(answer: Elicited<u8>) -> Result<u8, String> {
            Ok(answer.accepted()?)
        }
        let declined = Refused {
            key: "plan".into(),
            action: Refusal::Decline,
        };
        assert_eq!(
            tool(Elicited::Decline(declined)),
            Err("the user declined `plan`".into())
        );
        assert_eq!(tool(Elicited::Accept(3)), Ok(3));
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema, crate::Form)]
    struct Profile {
        /// What to call you.
        name: String,
        #[schemars(email)]
        email: Option<String>,
        age: Option<u8>,
        plan: Plan,
        /// Not a form field (a map could not be one): serde leaves it out of the answer.
        #[serde(skip)]
        notes: std::collections::BTreeMap<String, u32>,
        /// Written out with the profile but never read from an answer.
        #[serde(skip_deserializing)]
        seen: Vec<String>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema, crate::Form)]
    #[serde(rename_all = "lowercase")]
    enum Plan {
        Free,
        Pro,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema, crate::Form)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        name: String,
        tone: Tone,
    }

    /// Only the first variant has a doc.
    #[derive(Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema, crate::Form)]
    #[serde(rename_all = "lowercase")]
    enum Tone {
        /// Plain words.
        Plain,
        Pirate,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema, crate::Form)]
    struct Confirm {}

    #[test]
    fn strict_partly_documented_and_empty_forms_are_asked_and_read() {
        for request in [
            elicit::<Strict>("Name and tone?").into_input_request(),
            elicit::<Confirm>("Go ahead?").into_input_request(),
        ] {
            assert!(matches!(request, Ok(Some(_))), "{request:?}");
        }
        let strict = <Elicit<Strict> as Question>::read_answer(
            "strict",
            &json!({"action": "accept", "content": {"name": "Ada", "tone": "pirate", "extra": 1}}),
        );
        assert_eq!(
            strict,
            Ok(Elicited::Accept(Strict {
                name: "Ada".into(),
                tone: Tone::Pirate
            }))
        );
        let confirm = |content: Value| {
            <Elicit<Confirm> as Question>::read_answer(
                "confirm",
                &json!({"action": "accept", "content": content}),
            )
        };
        assert_eq!(confirm(json!({})), Ok(Elicited::Accept(Confirm {})));
        assert_eq!(
            confirm(json!({"ok": true})),
            Ok(Elicited::Accept(Confirm {}))
        );
    }

    /// An accepted reply's content is read where the reply has it: by name, or second in the
    /// sequence form serde also reads; absent or null, it is an empty form.
    #[test]
    fn an_accepted_replys_content_is_read_where_it_stands() {
        let read = |reply: Value| <Elicit<Strict> as Question>::read_answer("strict", &reply);
        let ada = Ok(Elicited::Accept(Strict {
            name: "Ada".into(),
            tone: Tone::Plain,
        }));
        let content = json!({"name": "Ada", "tone": "plain"});
        assert_eq!(read(json!({"action": "accept", "content": content})), ada);
        assert_eq!(read(json!(["accept", content])), ada);
        let empty = <Elicit<Confirm> as Question>::read_answer;
        for reply in [
            json!({"action": "accept"}),
            json!({"action": "accept", "content": null}),
            json!(["accept"]),
            json!(["accept", null]),
        ] {
            assert_eq!(
                empty("confirm", &reply),
                Ok(Elicited::Accept(Confirm {})),
                "{reply}"
            );
            assert!(read(reply.clone()).is_err(), "{reply}: Strict needs a name");
        }
    }

    /// Duplicates of a single-use round get its questions built again from what the replay
    /// store kept; they must be the very requests first sent.
    #[test]
    fn a_rounds_questions_are_built_again_as_first_sent() {
        use crate::question::{All, QuestionSet};
        const KEYS: &[&str] = &["profile", "model", "roots", "go"];
        let questions = || {
            All((
                elicit::<Profile>("Wer bist du? ✓"),
                crate::sample("Hello ✓")
                    .max_tokens(5)
                    .system("Be brief")
                    .temperature(0.5)
                    .stop_sequences(vec!["END".to_owned()])
                    .prefer_model("claude"),
                crate::roots(),
                crate::checkpoint(),
            ))
        };
        let json = |requests| serde_json::to_value(requests).unwrap();
        let first = json(crate::question::keyed(
            questions().into_input_requests(KEYS).unwrap(),
        ));
        assert_eq!(first.as_object().unwrap().len(), 3, "{first}");
        let rebuild = questions().rebuild(KEYS).expect("built-in questions keep");
        assert_eq!(json(rebuild.requests().unwrap()), first);
        assert_eq!(json(rebuild.requests().unwrap()), first);
    }

    /// A question of the user's own that does not keep makes the store copy the requests.
    #[test]
    fn a_question_that_does_not_keep_is_not_rebuilt() {
        use crate::question::{All, QuestionSet};
        struct Custom;
        impl Question for Custom {
            type Answer = ();
            fn missing_capability(&self, _: &ClientCapabilities) -> Option<ClientCapabilities> {
                None
            }
            fn into_input_request(self) -> Result<Option<InputRequest>, ErrorData> {
                Ok(None)
            }
            fn read_answer(_: &str, _: &Value) -> Result<(), String> {
                Ok(())
            }
        }
        assert!(Custom.rebuild(&["a"]).is_none());
        // A URL elicitation's id is fresh each time it is built, so it is copied too.
        let url = crate::elicit_url("Sign in", "https://example.com/login");
        assert!(url.rebuild(&["a"]).is_none());
        assert!(
            All((elicit::<Profile>("Who?"), Custom))
                .rebuild(&["a", "b"])
                .is_none()
        );
    }

    fn request_json() -> Value {
        let request = elicit::<Profile>("Who?")
            .into_input_request()
            .unwrap()
            .unwrap();
        serde_json::to_value(request).unwrap()
    }

    #[test]
    fn the_requested_schema_is_flat_and_typed() {
        let request = request_json();
        assert_eq!(request["method"], "elicitation/create");
        assert_eq!(request["params"]["message"], "Who?");
        let schema = &request["params"]["requestedSchema"];
        assert_eq!(schema["type"], "object");
        assert!(
            schema.get("title").is_none(),
            "the Rust type name is not shown to the user"
        );
        assert_eq!(schema["properties"]["name"]["type"], "string");
        assert_eq!(
            schema["properties"]["name"]["description"],
            "What to call you."
        );
        assert_eq!(schema["properties"]["email"]["format"], "email");
        assert_eq!(schema["properties"]["age"]["type"], "integer");
        assert_eq!(schema["properties"]["plan"]["enum"], json!(["free", "pro"]));
        assert!(
            schema["properties"].get("notes").is_none(),
            "skipped by serde"
        );
        assert!(
            schema["properties"].get("seen").is_none(),
            "never deserialized, so not asked"
        );
        assert_eq!(crate::form_schema::required(schema), ["name", "plan"]);
    }

    #[test]
    fn answers_read_as_accept_decline_cancel_or_ask_again() {
        let read = |value: Value| <Elicit<Profile> as Question>::read_answer("profile", &value);
        assert_eq!(
            read(
                json!({"action": "accept", "content": {"name": "Ada", "plan": "pro", "extra": 1}})
            )
            .unwrap(),
            Elicited::Accept(Profile {
                name: "Ada".into(),
                email: None,
                age: None,
                plan: Plan::Pro,
                notes: Default::default(),
                seen: Vec::new(),
            })
        );
        let declined = read(json!({"action": "decline"})).unwrap();
        assert_eq!(
            declined,
            Elicited::Decline(Refused {
                key: "profile".into(),
                action: Refusal::Decline
            })
        );
        assert!(matches!(
            read(json!({"action": "cancel"})).unwrap(),
            Elicited::Cancel(_)
        ));
        for wrong in [
            json!({"action": "accept", "content": {"plan": "pro"}}),
            json!({"action": "accept", "content": {"name": "Ada", "plan": "gold"}}),
            json!({"action": "accept", "content": {"name": 5, "plan": "pro"}}),
            json!({"action": "maybe"}),
            json!("accept"),
        ] {
            assert!(read(wrong.clone()).is_err(), "{wrong}");
        }
        // Deserializes, but breaks `format: email`: asked again.
        let not_an_email =
            json!({"action": "accept", "content": {"name": "Ada", "plan": "pro", "email": "ada"}});
        assert_eq!(
            read(not_an_email),
            Err(format!(
                "{}`email` is not an email address",
                crate::answer_fits::BROKEN
            ))
        );
    }

    #[test]
    fn form_capability_follows_the_spec() {
        let question = elicit::<Profile>("Who?");
        let caps = |value: Value| serde_json::from_value::<ClientCapabilities>(value).unwrap();
        assert!(
            question
                .missing_capability(&caps(json!({"elicitation": {}})))
                .is_none()
        );
        assert!(
            question
                .missing_capability(&caps(json!({"elicitation": {"form": {}}})))
                .is_none()
        );
        let missing = question
            .missing_capability(&caps(json!({"sampling": {}})))
            .unwrap();
        assert_eq!(
            serde_json::to_value(missing).unwrap(),
            json!({"elicitation": {}})
        );
        let missing = question
            .missing_capability(&caps(json!({"elicitation": {"url": {}}})))
            .unwrap();
        assert_eq!(
            serde_json::to_value(missing).unwrap(),
            json!({"elicitation": {"form": {}}})
        );
    }
}
