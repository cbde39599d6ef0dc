//! The resume cursor that `#[mrtr_tool]` code talks to.
//!
//! The generated body walks the user's code in order. On a retry, statements before the ask
//! point `r` where the last round stopped are skipped (`passed`), and each `let` among them
//! gets its bindings back from the state (`restore`), in the order they were saved. At `r`
//! the answer is read and everything after runs as plain code. An `ask` that has no answer
//! seals the bindings in scope (`Saver`) and halts the body: its future never completes, and
//! [`Machine::drive`] returns the `InputRequiredResult` instead.

use std::{
    convert::Infallible,
    future::{Future, poll_fn},
    pin::pin,
    sync::{Mutex, MutexGuard},
    task::Poll,
};

use rmcp::{
    ErrorData,
    model::{InputRequests, InputRequiredResult, InputResponses},
};
use serde::{Serialize, de::DeserializeOwned};
use zeroize::Zeroizing;

use crate::{
    Engine, Outcome,
    envelope::{self, Binding, Header, SealError, unix_seconds},
    question::QuestionSet,
    replay::{
        RoundKey,
        guard::{self, Entered},
        response::{RecordedResponse, Wire},
    },
    round::Round,
};

/// What `#[mrtr_tool]` knows about a tool at compile time.
#[derive(Debug)]
pub struct Layout {
    /// A hash of the tool's tokens (or of its explicit `version`): states sealed by another
    /// layout never open.
    pub fingerprint: u64,
    /// How many ask points the tool has.
    pub asks: u32,
    /// Whether each state opens once (the default), or may be replayed:
    /// `#[mrtr_tool(replay = "allow")]`.
    pub single_use: bool,
}

/// A value that may be held across an `ask!`: it is saved into the sealed state.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be held across an `ask!`",
    label = "this binding is alive at an `ask!`, so it is saved into `requestState`",
    note = "a value held across an ask must be `Serialize + DeserializeOwned`: derive them for \
            your type, or hold an owned copy (`.to_owned()`, `.clone()`, `.to_string()`); \
            references and handles cannot be saved"
)]
pub trait Persist: Serialize + DeserializeOwned {}

#[diagnostic::do_not_recommend]
impl<T: Serialize + DeserializeOwned> Persist for T {}

/// The items of a `for` loop whose body asks: they are saved with the loop.
#[diagnostic::on_unimplemented(
    message = "the items of this `for` loop cannot be saved across its `ask!`",
    label = "the loop's body asks, so the items it has yet to visit are saved into `requestState`",
    note = "iterate owned items that are `Serialize + DeserializeOwned`: `items.clone()`, \
            `items.into_iter()` or `items.iter().cloned()` rather than `&items` or `items.iter()`"
)]
pub trait SavedItem: Persist {}

#[diagnostic::do_not_recommend]
impl<T: Persist> SavedItem for T {}

/// A binding serialized before the statement that consumes it, for the asks at which it is
/// dead. See the `liveness` stage of the macros.
pub struct Snapshot(Result<Vec<u8>, String>);

/// Collects the bindings alive at an ask point, in declaration order.
pub struct Saver {
    bytes: Vec<u8>,
    error: Option<String>,
}

impl Saver {
    /// Appends a binding's snapshot.
    pub fn save_snapshot(&mut self, snapshot: &Snapshot) {
        if self.error.is_some() {
            return;
        }
        match &snapshot.0 {
            Ok(bytes) => self.bytes.extend_from_slice(bytes),
            Err(error) => self.error = Some(error.clone()),
        }
    }

    /// Appends one binding.
    pub fn save<T: Persist>(&mut self, value: &T) {
        if self.error.is_some() {
            return;
        }
        let start = self.bytes.len();
        match postcard::to_extend(value, std::mem::take(&mut self.bytes)) {
            Ok(bytes) => self.bytes = bytes,
            Err(error) => {
                self.error = Some(format!("`{}`: {error}", std::any::type_name::<T>()));
                return;
            }
        }
        // Postcard is not self-describing: some serde shapes write what they cannot read back.
        // Find out now, with a message that says what to do, rather than on the retry.
        // Reading back, not comparing bytes: a `HashMap` may write its entries in another order.
        if let Err(error) = postcard::from_bytes::<T>(&self.bytes[start..]) {
            self.error = Some(format!(
                "`{}` does not read back from its saved form ({error}). The state is encoded \
                 with postcard, which is not self-describing: `serde_json::Value`, \
                 `#[serde(untagged)]`, `#[serde(flatten)]` and `skip_serializing_if` do not \
                 survive. Hold another type across the ask (for a `Value`, its `to_string()`), \
                 or drop the attribute",
                std::any::type_name::<T>()
            ));
        }
    }
}

/// One round of one tool call.
pub struct Machine {
    round: Round,
    engine: Engine,
    principal: Option<String>,
    layout: &'static Layout,
    cursor: Mutex<Cursor>,
}

struct Cursor {
    /// The ask point to resume at; cleared once its answer is read.
    resume: Option<u32>,
    /// A first call (no state) may answer the first ask it reaches.
    fresh_answers: bool,
    answers: Option<InputResponses>,
    locals: Zeroizing<Vec<u8>>,
    read: usize,
    /// The header of the state this round opened; `None` on a first call.
    opened: Option<Header>,
    halt: Option<Halt>,
}

enum Halt {
    Ask(InputRequiredResult),
    Fail(ErrorData),
}

/// The client is told only this; the reason goes to the log.
fn invalid_state() -> ErrorData {
    ErrorData::invalid_params(
        "requestState is invalid or expired; call the tool again without requestState",
        None,
    )
}

impl Machine {
    /// Opens the round's state, if any. A state that does not verify is `-32602`.
    pub fn start(
        layout: &'static Layout,
        round: Round,
        engine: &Engine,
    ) -> Result<Self, ErrorData> {
        let engine = engine.clone();
        let principal = engine.principal(&round.context);
        let mut cursor = Cursor {
            resume: None,
            fresh_answers: round.request_state.is_none(),
            answers: None,
            locals: Zeroizing::new(Vec::new()),
            read: 0,
            opened: None,
            halt: None,
        };
        let mut round = round;
        cursor.answers = round.input_responses.take();
        if let Some(state) = round.request_state.as_deref() {
            let opened = envelope::open(
                &engine.inner.keys,
                &binding(&round, layout, principal.as_deref()),
                state,
                engine.now(),
            );
            match opened {
                Ok((header, _)) if header.resume == 0 || header.resume > layout.asks => {
                    tracing::warn!(tool = %round.name, resume = header.resume, "mrtr: refused requestState: resume point out of range");
                    return Err(invalid_state());
                }
                Ok((header, _)) if header.round == 0 || header.round > header.max_rounds => {
                    tracing::warn!(tool = %round.name, round = header.round, "mrtr: refused requestState: round out of range");
                    return Err(invalid_state());
                }
                Ok((header, locals)) => {
                    cursor.resume = Some(header.resume);
                    cursor.opened = Some(header);
                    cursor.locals = locals;
                }
                Err(reason) => {
                    tracing::warn!(tool = %round.name, %reason, "mrtr: refused requestState");
                    return Err(invalid_state());
                }
            }
        }
        Ok(Self {
            round,
            engine,
            principal,
            layout,
            cursor: Mutex::new(cursor),
        })
    }

    fn cursor(&self) -> MutexGuard<'_, Cursor> {
        // Nothing panics while holding the lock, so a poisoned lock is still consistent.
        self.cursor
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether this round resumes past the code that ends after ask point `end`, so that code
    /// already ran in an earlier round.
    pub fn passed(&self, end: u32) -> bool {
        self.cursor().resume.is_some_and(|resume| end < resume)
    }

    /// Serializes a binding before a statement that may consume it.
    pub fn snapshot<T: Persist>(&self, value: &T) -> Snapshot {
        let mut saver = Saver {
            bytes: Vec::new(),
            error: None,
        };
        saver.save(value);
        Snapshot(match saver.error {
            None => Ok(saver.bytes),
            Some(error) => Err(error),
        })
    }

    /// Whether this round resumes at an ask point in `first..=last`: the branch or loop body
    /// holding those points is entered without evaluating its condition again.
    pub fn resuming_within(&self, first: u32, last: u32) -> bool {
        self.cursor()
            .resume
            .is_some_and(|resume| (first..=last).contains(&resume))
    }

    /// Ends the round with `-32602`. Generated code calls it where a branch was entered on
    /// resume but its bindings are missing, which a well-formed state never causes.
    pub async fn lost<T>(&self) -> T {
        tracing::warn!(tool = %self.round.name, "mrtr: refused requestState: it resumes into a branch it did not save");
        self.cursor().halt = Some(Halt::Fail(invalid_state()));
        halt().await
    }

    /// The next saved binding. A state that does not decode ends the round with `-32602`.
    pub async fn restore<T: Persist>(&self) -> T {
        let restored = {
            let mut cursor = self.cursor();
            let read = cursor.read;
            match postcard::take_from_bytes::<T>(&cursor.locals[read..]) {
                Ok((value, rest)) => {
                    cursor.read = cursor.locals.len() - rest.len();
                    Ok(value)
                }
                Err(error) => {
                    tracing::warn!(
                        tool = %self.round.name,
                        local = std::any::type_name::<T>(),
                        %error,
                        "mrtr: refused requestState: a saved local does not decode; did a type \
                         held across an ask change? Bump `#[mrtr_tool(version = ..)]` when it does"
                    );
                    cursor.halt = Some(Halt::Fail(invalid_state()));
                    Err(())
                }
            }
        };
        match restored {
            Ok(value) => value,
            Err(()) => halt().await,
        }
    }

    /// Ask point `id`: the answers if this round carries valid ones, else the questions are
    /// sent, one input request per key.
    ///
    /// `questions` runs only when the questions must be sent: it first saves the bindings
    /// alive here into the [`Saver`], then builds the questions.
    pub async fn ask<Qs, F>(
        &self,
        id: u32,
        keys: &'static [&'static str],
        questions: F,
    ) -> Qs::Answers
    where
        Qs: QuestionSet,
        F: FnOnce(&mut Saver) -> Qs,
    {
        if let Some(answers) = self.take_answers::<Qs>(id, keys) {
            return answers;
        }
        let stop = match self.seal_questions(id, keys, questions) {
            Ok(input) => Halt::Ask(input),
            Err(error) => Halt::Fail(error),
        };
        self.cursor().halt = Some(stop);
        halt().await
    }

    fn take_answers<Qs: QuestionSet>(&self, id: u32, keys: &[&'static str]) -> Option<Qs::Answers> {
        let mut cursor = self.cursor();
        let resumed_here = cursor.resume == Some(id);
        let reading = resumed_here || (cursor.resume.is_none() && cursor.fresh_answers);
        if !reading {
            return None;
        }
        cursor.resume = None;
        cursor.fresh_answers = false;
        let answers = cursor.answers.take().unwrap_or_default();
        if !resumed_here && answers.is_empty() {
            return None;
        }
        // A first call may answer the first questions, but never passes a checkpoint.
        match Qs::read_answers(keys, &answers, resumed_here) {
            Ok(read) => Some(read),
            Err(reason) => {
                tracing::debug!(tool = %self.round.name, ?keys, %reason, "mrtr: asking again");
                None
            }
        }
    }

    fn seal_questions<Qs: QuestionSet>(
        &self,
        id: u32,
        keys: &'static [&'static str],
        questions: impl FnOnce(&mut Saver) -> Qs,
    ) -> Result<InputRequiredResult, ErrorData> {
        let mut saver = Saver {
            bytes: Vec::new(),
            error: None,
        };
        let questions = questions(&mut saver);
        let locals = Zeroizing::new(saver.bytes);
        if let Some(error) = saver.error {
            tracing::error!(tool = %self.round.name, ?keys, %error, "mrtr: a local held across an ask failed to serialize");
            return Err(ErrorData::internal_error(
                "the tool could not save its progress",
                None,
            ));
        }
        if let Some(missing) = questions.missing_capabilities(&self.round.capabilities) {
            tracing::info!(tool = %self.round.name, ?keys, "mrtr: the client lacks a capability this ask needs");
            return Err(ErrorData::missing_required_client_capability(missing));
        }
        let requests = questions.into_input_requests(keys)?;
        let header = self.next_header(id)?;
        let engine = &self.engine.inner;
        let binding = binding(&self.round, self.layout, self.principal.as_deref());
        let state = envelope::seal(&engine.keys, &binding, &header, &locals, engine.max_state_bytes)
            .map_err(|error| {
                match error {
                    SealError::TooLarge { bytes, limit } => tracing::error!(
                        tool = %self.round.name, ?keys, bytes, limit,
                        "mrtr: requestState would exceed the size limit; hold less across this ask or raise `max_state_bytes`"
                    ),
                    SealError::Random => tracing::error!(tool = %self.round.name, "mrtr: sealing failed"),
                }
                ErrorData::internal_error("the tool's progress is too large to hand back", None)
            })?;
        let requests: InputRequests = requests
            .into_iter()
            .map(|(key, request)| (key.to_owned(), request))
            .collect();
        let requests = (!requests.is_empty()).then_some(requests);
        Ok(InputRequiredResult::new(requests, Some(state)))
    }

    /// The header of the state this round hands out for ask point `id`: the flow's id,
    /// deadline and round cap carry over from the state it opened, or are fixed now.
    fn next_header(&self, id: u32) -> Result<Header, ErrorData> {
        let engine = &self.engine.inner;
        let now = unix_seconds(self.engine.now());
        let opened = self.cursor().opened;
        let (flow, deadline, max_rounds, round) = match opened {
            Some(opened) => (
                opened.flow,
                opened.deadline,
                opened.max_rounds,
                opened.round.saturating_add(1),
            ),
            None => {
                let mut flow = [0u8; 16];
                getrandom::getrandom(&mut flow).map_err(|error| {
                    tracing::error!(%error, "mrtr: the system random source failed");
                    ErrorData::internal_error("the server could not run this request", None)
                })?;
                let deadline = now.saturating_add(engine.flow_lifetime.as_secs());
                (flow, deadline, engine.max_rounds, 1)
            }
        };
        if round > max_rounds {
            tracing::warn!(tool = %self.round.name, max_rounds, "mrtr: a call reached its round cap");
            return Err(ErrorData::internal_error(
                format!("this call took more than {max_rounds} rounds; call the tool again"),
                None,
            ));
        }
        Ok(Header {
            resume: id,
            expires_at: now.saturating_add(engine.ttl.as_secs()).min(deadline),
            round,
            flow,
            deadline,
            max_rounds,
        })
    }

    /// Runs the round: under single use, claims it first (or answers a duplicate with the
    /// first response), runs the body while keeping the claim alive, and records the response.
    pub async fn run<W: Wire<R>, R>(&self, _wire: W, body: impl Future<Output = R>) -> Outcome<R> {
        if !self.layout.single_use {
            return self.drive(body).await;
        }
        let Some(opened) = self.cursor().opened else {
            // A first call has no state to claim; it starts a flow if the store has room.
            if let Err(error) = guard::admit(&self.engine, &self.round.name) {
                return Outcome::Failed(error);
            }
            return self.drive(body).await;
        };
        let key = RoundKey {
            flow: opened.flow,
            round: opened.round,
        };
        let binding = binding(&self.round, self.layout, self.principal.as_deref());
        let held = match guard::enter(&self.engine, &binding, key, opened.expires_at).await {
            Ok(Entered::Won(held)) => held,
            Ok(Entered::Replayed(response)) => return Outcome::Recorded(response),
            Err(error) => return Outcome::Failed(error),
        };
        let outcome = {
            let body = pin!(self.drive(body));
            let keep_alive = pin!(guard::keep_alive(&self.engine, &held));
            match biased_race(body, keep_alive).await {
                Ok(outcome) => outcome,
                Err(never) => match never {},
            }
        };
        let response = match outcome {
            Outcome::Done(result) => W::record(result),
            Outcome::InputRequired(input) => RecordedResponse::InputRequired(input),
            Outcome::Failed(error) => RecordedResponse::Error(error),
            Outcome::Recorded(response) => response,
        };
        guard::record(&self.engine, &binding, held, &response).await;
        Outcome::Recorded(response)
    }

    /// Runs the body until it returns or halts at an ask.
    pub async fn drive<R>(&self, body: impl Future<Output = R>) -> Outcome<R> {
        let mut body = pin!(body);
        poll_fn(|context| match body.as_mut().poll(context) {
            Poll::Ready(result) => Poll::Ready(Outcome::Done(result)),
            Poll::Pending => match self.cursor().halt.take() {
                Some(Halt::Ask(input)) => Poll::Ready(Outcome::InputRequired(input)),
                Some(Halt::Fail(error)) => Poll::Ready(Outcome::Failed(error)),
                None => Poll::Pending,
            },
        })
        .await
    }
}

fn binding<'a>(round: &'a Round, layout: &Layout, principal: Option<&'a str>) -> Binding<'a> {
    Binding {
        method: round.method,
        name: &round.name,
        args_digest: round.args_digest,
        fingerprint: layout.fingerprint,
        principal,
    }
}

/// Polls `first`, then `second`, until one finishes: `Ok` if `first` did.
async fn biased_race<A: Future, B: Future>(
    mut first: std::pin::Pin<&mut A>,
    mut second: std::pin::Pin<&mut B>,
) -> Result<A::Output, B::Output> {
    poll_fn(|context| {
        if let Poll::Ready(output) = first.as_mut().poll(context) {
            return Poll::Ready(Ok(output));
        }
        second.as_mut().poll(context).map(Err)
    })
    .await
}

/// Never completes; [`Machine::drive`] notices the halt and drops the body.
async fn halt<T>() -> T {
    match std::future::pending::<Infallible>().await {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    fn saved<T: Persist>(value: &T) -> Result<Vec<u8>, String> {
        let mut saver = Saver {
            bytes: Vec::new(),
            error: None,
        };
        saver.save(value);
        match saver.error {
            None => Ok(saver.bytes),
            Some(error) => Err(error),
        }
    }

    #[derive(Serialize, Deserialize)]
    struct Memo {
        title: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        tag: String,
    }

    #[test]
    fn plain_values_save() {
        assert!(saved(&("a".to_owned(), vec![1u32, 2], Some(3i64))).is_ok());
    }

    #[test]
    fn shapes_postcard_cannot_read_back_are_refused_when_saved() {
        let value = serde_json::json!({"tags": ["a"]});
        let error = saved(&value).unwrap_err();
        assert!(error.contains("serde_json::value::Value"), "{error}");
        assert!(error.contains("to_string()"), "{error}");
        let memo = Memo {
            title: "t".into(),
            note: None,
            tag: "x".into(),
        };
        let error = saved(&memo).unwrap_err();
        assert!(error.contains("skip_serializing_if"), "{error}");
    }
}
