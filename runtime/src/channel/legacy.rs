//! The legacy channel: clients of 2025-06-18 and 2025-11-25 keep a session, on which the server
//! sends each question as a request of its own (`elicitation/create`, `sampling/createMessage`,
//! `roots/list`) and reads the answer from the reply.

use std::{
    sync::Mutex,
    time::{Duration, SystemTime},
};

use rmcp::{
    ErrorData, Peer, RoleServer, ServiceError,
    model::{
        CancelledNotification, CancelledNotificationParam, InputRequest, InputRequests,
        InputResponses, RequestId, ServerRequest,
    },
    service::PeerRequestOptions,
};

use super::Channel;
use crate::{Engine, log::Escaped, machine::again};

/// Questions sent as server-initiated requests on a legacy session.
pub(crate) struct Session {
    peer: Peer<RoleServer>,
    engine: Engine,
    /// No state of the call opens after this, by the engine's clock: its first round fixed the
    /// flow's deadline no sooner (`flow_lifetime`). `None` past what the clock can count.
    flow_ends: Option<SystemTime>,
    /// When the current round began: the state it seals lives no shorter than the TTL from
    /// then.
    round_began: Mutex<SystemTime>,
    /// What the client does to start over: "call the tool again".
    again: &'static str,
}

/// What ends the wait for an answer first.
#[derive(Clone, Copy)]
enum Bound {
    /// The state the question was asked under expires (the TTL).
    Ttl,
    /// The call's flow reaches its deadline (`flow_lifetime`).
    Flow,
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
    /// A session call's channel, before its first round.
    pub(crate) fn new(peer: Peer<RoleServer>, engine: &Engine, method: &str) -> Self {
        let now = engine.now();
        Self {
            peer,
            engine: engine.clone(),
            flow_ends: now.checked_add(engine.inner.flow_lifetime),
            round_began: Mutex::new(now),
            again: again(method),
        }
    }

    /// A round begins: its questions may wait a TTL from now.
    pub(crate) fn round_begins(&self) {
        *self.round_began.lock().unwrap_or_else(|e| e.into_inner()) = self.engine.now();
    }

    /// How long the client may still take over a question of this round: until the state it was
    /// asked under expires, or the flow's deadline passes, whichever comes first. An answer
    /// that came later would find the state expired, and the user's work would be lost to an
    /// error about a `requestState` that a session client never sees.
    fn wait(&self) -> (Duration, Bound) {
        let began = *self.round_began.lock().unwrap_or_else(|e| e.into_inner());
        let ttl = self.engine.inner.ttl;
        let (ends, bound) = match (began.checked_add(ttl), self.flow_ends) {
            (Some(state_ends), Some(flow_ends)) if flow_ends < state_ends => {
                (flow_ends, Bound::Flow)
            }
            (Some(state_ends), _) => (state_ends, Bound::Ttl),
            // A clock too near its end to add the TTL to: wait the TTL.
            (None, _) => return (ttl, Bound::Ttl),
        };
        let left = ends
            .duration_since(self.engine.now())
            .unwrap_or(Duration::ZERO);
        (left, bound)
    }

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
        let (wait, bound) = self.wait();
        let answer = async {
            let handle = self
                .peer
                .send_request_with_option(request, PeerRequestOptions::with_timeout(wait))
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
                let message = match bound {
                    Bound::Ttl => format!(
                        "the client did not answer within {:?}",
                        self.engine.inner.ttl
                    ),
                    Bound::Flow => format!(
                        "the client did not answer `{key}` before the call reached its time \
                         limit ({:?}); {}",
                        self.engine.inner.flow_lifetime, self.again
                    ),
                };
                Err(ErrorData::internal_error(message, None))
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
