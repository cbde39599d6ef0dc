//! Channels: how one round's questions reach the client and its answers come back.
//!
//! The machine only produces questions (an `InputRequiredResult` and its sealed state) and
//! consumes answers (the retry's `inputResponses`). Native 2026-07-28 clients carry both
//! themselves: they retry. Any other channel is an in-process loop over the very same rounds:
//! ask the questions its own way, then run the next round with the answers and the state, which
//! never leaves the server. So every channel goes through the native code path, and what the
//! differential tests prove of it holds on each.

use std::future::Future;

use rmcp::{
    ErrorData,
    model::{InputRequests, InputRequiredResult, InputResponses},
};

pub(crate) mod legacy;
pub(crate) mod task;

/// A way to put one round's questions to the client and bring back its answers.
pub(crate) trait Channel {
    /// Asks every question of a round; the answers by key, in the shape of `inputResponses`.
    fn exchange(
        &self,
        questions: InputRequests,
    ) -> impl Future<Output = Result<InputResponses, ErrorData>> + Send;
}

/// What one round of a request answered.
pub(crate) enum Answered<T> {
    /// The request is complete (or failed): send this.
    Final(T),
    /// The round asked: its questions and state.
    Asked(InputRequiredResult),
}

/// Runs rounds until one is final: each round that asks is answered through `channel`, and the
/// next round carries the answers and the state, exactly as a native client's retry does.
pub(crate) async fn run_rounds<C, T, F, Fut>(channel: &C, mut round: F) -> Result<T, ErrorData>
where
    C: Channel,
    F: FnMut(Option<InputResponses>, Option<String>) -> Fut,
    Fut: Future<Output = Result<Answered<T>, ErrorData>>,
{
    let (mut answers, mut state) = (None, None);
    loop {
        match round(answers.take(), state.take()).await? {
            Answered::Final(response) => return Ok(response),
            Answered::Asked(input) => {
                let questions = input.input_requests.unwrap_or_default();
                state = input.request_state;
                answers = Some(match questions.is_empty() {
                    // A checkpoint: nothing to ask, go straight on.
                    true => InputResponses::new(),
                    false => channel.exchange(questions).await?,
                });
            }
        }
    }
}
