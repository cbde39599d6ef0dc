//! The legacy channel: clients of 2025-06-18 and 2025-11-25 keep a session, on which the server
//! sends each question as a request of its own (`elicitation/create`, `sampling/createMessage`,
//! `roots/list`) and reads the answer from the reply.

use std::time::Duration;

use rmcp::{
    ErrorData, Peer, RoleServer, ServiceError,
    model::{
        CancelledNotification, CancelledNotificationParam, InputRequest, InputRequests,
        InputResponses, RequestId, ServerRequest,
    },
    service::PeerRequestOptions,
};

use super::Channel;
use crate::log::Escaped;

/// Questions sent as server-initiated requests on a legacy session.
pub(crate) struct Session {
    pub(crate) peer: Peer<RoleServer>,
    /// How long the client may take over one question.
    pub(crate) timeout: Duration,
}

impl Channel for Session {
    async fn exchange(&self, questions: InputRequests) -> Result<InputResponses, ErrorData> {
        // All questions of a round at once, as a native client may answer them. The first
        // that fails ends the round, and the others are withdrawn from the client.
        let asked = questions.into_iter().map(|(key, question)| async move {
            let answer = self.ask(&key, question).await?;
            Ok::<_, ErrorData>((key, answer))
        });
        Ok(futures::future::try_join_all(asked)
            .await?
            .into_iter()
            .collect())
    }
}

impl Session {
    async fn ask(&self, key: &str, question: InputRequest) -> Result<serde_json::Value, ErrorData> {
        let request = match question {
            InputRequest::Elicitation(request) => ServerRequest::ElicitRequest(request),
            InputRequest::CreateMessage(request) => ServerRequest::CreateMessageRequest(request),
            InputRequest::ListRoots(request) => ServerRequest::ListRootsRequest(request),
            other => {
                tracing::error!(
                    ?other,
                    "mrtr: a kind of question the legacy channel cannot send"
                );
                return Err(ErrorData::internal_error(
                    "the server cannot ask this client that question",
                    None,
                ));
            }
        };
        let answer = async {
            let handle = self
                .peer
                .send_request_with_option(request, PeerRequestOptions::with_timeout(self.timeout))
                .await?;
            let withdraw = Withdraw {
                peer: self.peer.clone(),
                id: Some(handle.id.clone()),
            };
            let answer = handle.await_response().await;
            withdraw.disarm();
            answer
        };
        match answer.await {
            Ok(answer) => serde_json::to_value(answer).map_err(|error| {
                tracing::warn!(%error, "mrtr: a legacy client's answer does not serialize");
                ErrorData::internal_error("the client's answer could not be read", None)
            }),
            // The client's error is about its own request, not the call: relaying its code
            // would tell the client that `tools/call` itself was, say, not found.
            Err(ServiceError::McpError(error)) => {
                tracing::info!(
                    key = %Escaped(key),
                    code = error.code.0,
                    "mrtr: a legacy client answered a question with an error"
                );
                Err(ErrorData::internal_error(
                    format!("the client answered `{key}` with an error, so the call cannot go on"),
                    Some(serde_json::json!({
                        "key": key,
                        "clientError": {"code": error.code.0, "message": error.message},
                    })),
                ))
            }
            Err(ServiceError::Timeout { timeout }) => {
                tracing::info!(?timeout, "mrtr: a legacy client did not answer in time");
                Err(ErrorData::internal_error(
                    format!("the client did not answer within {timeout:?}"),
                    None,
                ))
            }
            Err(error) => {
                tracing::info!(%error, "mrtr: a legacy client's session ended mid-question");
                Err(ErrorData::internal_error(
                    "the client's session ended",
                    None,
                ))
            }
        }
    }
}

/// Withdraws a question from the client when the call stops waiting for it (the call was
/// cancelled, its session closed, or another question of its round failed): the client gets
/// `notifications/cancelled` for it, as the spec asks of a sender that no longer wants an
/// answer, and can take its form down.
struct Withdraw {
    peer: Peer<RoleServer>,
    id: Option<RequestId>,
}

impl Withdraw {
    /// The question was answered, or timed out (rmcp then cancels it itself).
    fn disarm(mut self) {
        self.id = None;
    }
}

impl Drop for Withdraw {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        runtime.spawn(async move {
            let cancelled = CancelledNotificationParam::new(
                Some(id),
                Some("the call no longer waits for this answer".to_owned()),
            );
            let notification = CancelledNotification::new(cancelled);
            if let Err(error) = peer.send_notification(notification.into()).await {
                tracing::debug!(%error, "mrtr: could not withdraw a question from its client");
            }
        });
    }
}
