//! URL-mode elicitation: send the user to a page, out of band, for what a form must not carry.

use rmcp::{
    ErrorData,
    model::{
        ClientCapabilities, ElicitRequest, ElicitRequestParams, ElicitationAction,
        ElicitationCapability, InputRequest,
    },
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Question, Refusal, Refused};

/// `ask!(login = elicit_url("Sign in to continue", url))` asks the client to open `url`.
///
/// `url` must be an absolute URL (the spec: "MUST contain a valid URL"); one that does not
/// parse fails the round with `-32603`, and the server log says why.
///
/// `Accept` means only that the user agreed to open the page, not that they finished there:
/// check your own records on the retry, and ask again (or `checkpoint()`) until they have.
pub fn elicit_url(message: impl Into<String>, url: impl Into<String>) -> ElicitUrl {
    ElicitUrl {
        message: message.into(),
        url: url.into(),
    }
}

/// A URL-mode elicitation; see [`elicit_url`].
#[must_use = "a question does nothing until it is asked: `ask!(key = ..)`"]
#[derive(Debug, Clone)]
pub struct ElicitUrl {
    message: String,
    url: String,
}

/// The user's reply to a URL elicitation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum UrlElicited {
    /// The user agreed to open the URL.
    Accept,
    /// The user explicitly said no.
    Decline(Refused),
    /// The user dismissed the question.
    Cancel(Refused),
}

impl UrlElicited {
    /// `Ok(())` if accepted, else the refusal, ready for `?`.
    pub fn accepted(self) -> Result<(), Refused> {
        match self {
            Self::Accept => Ok(()),
            Self::Decline(refused) | Self::Cancel(refused) => Err(refused),
        }
    }
}

/// A fresh id for one URL elicitation: 128 random bits in hex.
fn elicitation_id() -> Result<String, ErrorData> {
    let mut id = [0u8; 16];
    getrandom::getrandom(&mut id).map_err(|error| {
        tracing::error!(%error, "mrtr: the system random source failed");
        ErrorData::internal_error("the server could not run this request", None)
    })?;
    Ok(id.iter().map(|byte| format!("{byte:02x}")).collect())
}

impl Question for ElicitUrl {
    type Answer = UrlElicited;

    fn missing_capability(&self, declared: &ClientCapabilities) -> Option<ClientCapabilities> {
        let url_allowed = declared
            .elicitation
            .as_ref()
            .is_some_and(|elicitation| elicitation.url.is_some());
        (!url_allowed).then(|| {
            let mut needed = ClientCapabilities::default();
            needed.elicitation = Some(
                serde_json::from_value::<ElicitationCapability>(serde_json::json!({"url": {}}))
                    .unwrap_or_default(),
            );
            needed
        })
    }

    fn into_input_request(self) -> Result<Option<InputRequest>, ErrorData> {
        // The URL is the author's and may carry a token: the log names only what is wrong.
        if let Err(error) = url::Url::parse(&self.url) {
            tracing::error!(
                %error,
                url_bytes = self.url.len(),
                "mrtr: elicit_url was given a URL that is not an absolute URL; the round fails"
            );
            return Err(ErrorData::internal_error(
                "the server could not run this request",
                None,
            ));
        }
        Ok(Some(InputRequest::Elicitation(ElicitRequest::new(
            ElicitRequestParams::UrlElicitationParams {
                meta: None,
                message: self.message,
                url: self.url,
                elicitation_id: elicitation_id()?,
            },
        ))))
    }

    fn read_answer(key: &str, response: &Value) -> Result<UrlElicited, String> {
        #[derive(Deserialize)]
        struct Reply {
            action: ElicitationAction,
        }
        let reply = Reply::deserialize(response)
            .map_err(|e| format!("{}{e}", crate::log::NOT_AN_ELICIT_RESULT))?;
        let refused = |action| Refused {
            key: key.to_owned(),
            action,
        };
        match reply.action {
            ElicitationAction::Accept => Ok(UrlElicited::Accept),
            ElicitationAction::Decline => Ok(UrlElicited::Decline(refused(Refusal::Decline))),
            ElicitationAction::Cancel => Ok(UrlElicited::Cancel(refused(Refusal::Cancel))),
            #[allow(unreachable_patterns)]
            _ => Err("unknown elicitation action".to_owned()),
        }
    }

    // Not kept: each request carries a fresh elicitation id, so the replay store copies it.
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absolute_url_is_asked() {
        let request = elicit_url("Sign in", "https://example.com/login?flow=42")
            .into_input_request()
            .unwrap();
        assert!(matches!(request, Some(InputRequest::Elicitation(_))));
    }

    #[test]
    fn a_url_that_does_not_parse_fails_the_round_and_the_log_says_why() {
        for url in [
            "",
            "/login",
            "example.com/login",
            "https://exa mple.com",
            "http://[::1",
        ] {
            let mut error = None;
            let logs = crate::log::captured(|| {
                error = elicit_url("Sign in", format!("{url}?token=s3cret"))
                    .into_input_request()
                    .err();
            });
            let error = error.unwrap_or_else(|| panic!("{url:?} was asked"));
            assert_eq!(
                error.code,
                rmcp::model::ErrorCode::INTERNAL_ERROR,
                "{url:?}"
            );
            assert!(
                !error.message.contains("s3cret"),
                "{url:?}: {}",
                error.message
            );
            assert!(logs.contains("not an absolute URL"), "{url:?}: {logs}");
            assert!(!logs.contains("s3cret"), "{url:?}: {logs}");
        }
    }
}
