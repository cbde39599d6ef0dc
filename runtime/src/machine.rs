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
    panic::{AssertUnwindSafe, catch_unwind},
    pin::pin,
    sync::{Mutex, MutexGuard},
    task::Poll,
};

use rmcp::{
    ErrorData,
    model::{InputRequiredResult, InputResponses},
};

use crate::{
    Engine, Outcome,
    envelope::{self, Binding, Header, SealError, unix_seconds_up},
    log::{Escaped, redacted},
    question::{QuestionSet, Rebuild, keyed},
    replay::{
        FlowId, RoundKey,
        guard::{self, Entered},
        response::RecordedResponse,
    },
    round::Round,
    saved::{Persist, SavedLocals, Saver, Snapshot},
    task::TaskSupport,
};

/// What `#[mrtr_tool]` knows about a tool at compile time.
#[derive(Debug)]
pub struct Layout {
    /// A hash of the tool's tokens (or of its explicit `version`) and its ask keys: states
    /// sealed by another layout never open. The types of the saved bindings are checked
    /// when they are read back (see `saved`).
    pub fingerprint: u64,
    /// How many ask points the tool has.
    pub asks: u32,
    /// Whether each state opens once (the default), or may be replayed:
    /// `#[mrtr_tool(replay = "allow")]`.
    pub single_use: bool,
    /// Whether the tool runs as a task: `#[mrtr_tool(task = "..")]`.
    pub task: TaskSupport,
    /// Whether the body holds `ask!(start_task())`: the task starts there rather than at the
    /// first line.
    pub task_start_marked: bool,
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
    saved: SavedLocals,
    /// The header of the state this round opened; `None` on a first call.
    opened: Option<Header>,
    halt: Option<Halt>,
    /// What builds the last questions asked again, for the replay store's record.
    rebuild: Option<Rebuild>,
    /// Why this round's answers did not fit, when it asks again (redacted: no values).
    asked_again: Option<String>,
    /// This round's record in the in-memory replay store, once claimed.
    held_at: Option<u64>,
}

enum Halt {
    Ask(InputRequiredResult, Option<Rebuild>),
    Fail(ErrorData),
}

/// What an ask point does with this round's answers.
enum Reading {
    /// The round resumes here: these answer the questions asked here last round.
    Resumed(InputResponses),
    /// A first call brought answers along, before any question was asked.
    Fresh(InputResponses),
    /// The questions are asked.
    Ask,
}

/// What `ask!` awaits: the answers at once, or, when the round halts at this ask, never.
#[must_use = "an ask does nothing until it is awaited"]
pub struct Asked<T>(Option<T>);

// The answers are moved out, never pinned in place.
impl<T> Unpin for Asked<T> {}

impl<T> Future for Asked<T> {
    type Output = T;

    fn poll(self: std::pin::Pin<&mut Self>, _: &mut std::task::Context<'_>) -> Poll<T> {
        match self.get_mut().0.take() {
            Some(answers) => Poll::Ready(answers),
            None => Poll::Pending,
        }
    }
}

/// The client is told only this; the reason goes to the log.
pub(crate) fn invalid_state(method: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!(
            "requestState is invalid or expired; {} without requestState",
            again(method)
        ),
        None,
    )
}

/// What a client of `method` does to start over.
pub(crate) fn again(method: &str) -> &'static str {
    match method {
        "prompts/get" => "get the prompt again",
        "resources/read" => "read the resource again",
        _ => "call the tool again",
    }
}

/// What a round of `method` runs, as its errors name it.
fn subject(method: &str) -> &'static str {
    match method {
        "prompts/get" => "prompt",
        "resources/read" => "resource",
        _ => "tool",
    }
}

impl Machine {
    /// Opens the round's state, if any. A state that does not verify is `-32602`.
    pub fn start(
        layout: &'static Layout,
        mut round: Round,
        engine: &Engine,
    ) -> Result<Self, ErrorData> {
        if let Some(error) = &engine.inner.unusable {
            if engine.inner.refusals.due(engine.now()).is_some() {
                tracing::error!(%error, tool = %Escaped(&round.name), "mrtr: refused a call: the engine's configuration is invalid");
            }
            return Err(ErrorData::internal_error(
                "this server is misconfigured and cannot run tools; its log says why",
                None,
            ));
        }
        let engine = engine.clone();
        let principal = round.principal.take();
        if principal.is_none() && engine.inner.require_principal {
            tracing::info!(tool = %Escaped(&round.name), "mrtr: refused a call whose principal is unknown");
            return Err(ErrorData::invalid_request(
                "this server does not know who is calling; authenticate and call again",
                None,
            ));
        }
        if layout.task != TaskSupport::Never
            && round.task.is_none()
            && round.capabilities.supports_tasks()
        {
            tracing::warn!(tool = %Escaped(&round.name), "mrtr: a client that supports tasks called a task tool, but the server is not served through mrtr::Bridged, which runs tasks; serve it as `mrtr::Bridged::new(server)`");
        }
        if let (TaskSupport::Required, None) = (layout.task, &round.task) {
            tracing::info!(tool = %Escaped(&round.name), "mrtr: a task tool was called by a client without the tasks extension");
            return Err(ErrorData::missing_required_client_capability(
                rmcp::model::ClientCapabilities::builder()
                    .enable_tasks()
                    .build(),
            ));
        }
        let mut cursor = Cursor {
            resume: None,
            fresh_answers: round.request_state.is_none(),
            answers: None,
            saved: SavedLocals::none(),
            opened: None,
            halt: None,
            rebuild: None,
            asked_again: None,
            held_at: None,
        };
        let mut round = round;
        cursor.answers = round.input_responses.take();
        if let Some(state) = round.request_state.as_deref() {
            let opened = envelope::open(
                &engine.inner.keys,
                &binding(&engine, &round, layout, principal.as_deref()),
                state,
                engine.now(),
                engine.inner.max_state_bytes,
            );
            let refused = |reason: &dyn std::fmt::Display| {
                engine
                    .inner
                    .refusals
                    .refused(engine.now(), &round.name, reason);
                invalid_state(round.method)
            };
            match opened {
                Ok((header, _)) if header.resume == 0 || header.resume > layout.asks => {
                    return Err(refused(&format_args!(
                        "resume point {} out of range",
                        header.resume
                    )));
                }
                Ok((header, _)) if header.round == 0 || header.round > header.max_rounds => {
                    return Err(refused(&format_args!(
                        "round {} out of range",
                        header.round
                    )));
                }
                Ok((header, locals)) => match SavedLocals::new(locals, header.json_locals) {
                    Ok(saved) => {
                        cursor.resume = Some(header.resume);
                        cursor.opened = Some(header);
                        cursor.saved = saved;
                    }
                    Err(reason) => return Err(refused(&reason)),
                },
                Err(reason) => return Err(refused(&reason)),
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

    /// The items of a `for` loop whose body asks, collected to be saved with the loop. `None`
    /// for an endless iterator: the round then ends with `-32603` at [`Self::halted`], the
    /// reason in the log. Not `async`, so no future holds the iterator's type.
    pub fn remaining<I>(&self, items: I) -> Option<std::collections::VecDeque<I::Item>>
    where
        I: IntoIterator,
        I::Item: crate::saved::SavedItem,
    {
        match crate::for_items::remaining(items) {
            Ok(items) => Some(items),
            Err(endless) => {
                tracing::error!(tool = %Escaped(&self.round.name), "mrtr: {endless}");
                self.cursor().halt = Some(Halt::Fail(ErrorData::internal_error(
                    format!(
                        "the {}'s loop has no end it could save",
                        subject(self.round.method)
                    ),
                    None,
                )));
                None
            }
        }
    }

    /// Stops the round where generated code found it must end; the halt was set already.
    pub async fn halted<T>(&self) -> T {
        halt().await
    }

    /// Serializes a binding before a statement that may consume it.
    pub fn snapshot<T: Persist>(&self, value: &T) -> Snapshot {
        Snapshot::of(value)
    }

    /// Whether this round resumes at an ask point in `first..=last`: the branch or loop body
    /// holding those points is entered without evaluating its condition again.
    pub fn resuming_within(&self, first: u32, last: u32) -> bool {
        self.cursor()
            .resume
            .is_some_and(|resume| (first..=last).contains(&resume))
    }

    /// Ends the round with `-32602`. Generated code calls it where a branch was entered on
    /// resume but its bindings are missing, or where a loop over borrowed items cannot reach
    /// the item it was at; a well-formed state causes neither.
    pub async fn lost<T>(&self) -> T {
        self.refuse(&"it resumes into a branch it did not save, or at a loop item its collection no longer has");
        halt().await
    }

    /// Ends the round with `-32602`, logging why at a bounded rate.
    fn refuse(&self, reason: &dyn std::fmt::Display) {
        let inner = &self.engine.inner;
        inner
            .refusals
            .refused(self.engine.now(), &self.round.name, reason);
        self.cursor().halt = Some(Halt::Fail(invalid_state(self.round.method)));
    }

    /// The next saved binding. A state that does not decode ends the round with `-32602`.
    pub async fn restore<T: Persist>(&self) -> T {
        let restored = self.cursor().saved.take::<T>();
        match restored {
            Ok(value) => value,
            Err(reason) => {
                self.refuse(&format_args!(
                    "a saved local does not read back ({reason}); did a type held across an \
                     ask change? Bump `#[mrtr_tool(version = ..)]` when it does"
                ));
                halt().await
            }
        }
    }

    /// `ask!(start_task())`: the call becomes a task here, if it can be one, and goes on.
    /// Nothing is saved and the round does not halt.
    pub fn start_task(&self, _: crate::task::StartTask) {
        if let Some(link) = &self.round.task {
            link.start();
        }
    }

    /// Ask point `id`: the answers if this round carries valid ones, else the questions are
    /// sent, one input request per key.
    ///
    /// `questions` runs only when the questions must be sent: it first saves the bindings
    /// alive here into the [`Saver`], then builds the questions.
    ///
    /// Not `async`: the questions are built and the bindings saved before the returned future
    /// exists, so it holds no borrow of them (a held `Cell` needs no `Sync`).
    pub fn ask<Qs, F>(
        &self,
        id: u32,
        keys: &'static [&'static str],
        questions: F,
    ) -> Asked<Qs::Answers>
    where
        Qs: QuestionSet,
        F: FnOnce(&mut Saver) -> Qs,
    {
        Asked(self.ask_now(id, keys, questions))
    }

    /// The answers, or `None` once the round is set to halt here.
    fn ask_now<Qs, F>(
        &self,
        id: u32,
        keys: &'static [&'static str],
        questions: F,
    ) -> Option<Qs::Answers>
    where
        Qs: QuestionSet,
        F: FnOnce(&mut Saver) -> Qs,
    {
        let stop = match self.reading(id) {
            Reading::Resumed(answers) => {
                let checked = self.cursor().saved.finish();
                if let Err(reason) = checked {
                    self.refuse(&format_args!(
                        "its saved locals are not those this build reads ({reason})"
                    ));
                    return None;
                }
                match self.read::<Qs>(keys, &answers, true) {
                    Some(answers) => return Some(answers),
                    None => self.seal_new(id, keys, questions),
                }
            }
            Reading::Fresh(answers) => {
                // A first call may bring answers to the first questions along, but only for
                // questions the client declared it can answer.
                let mut saver = Saver::new();
                let questions = questions(&mut saver);
                match questions.missing_capabilities(&self.round.capabilities) {
                    Some(missing) => {
                        tracing::info!(tool = %Escaped(&self.round.name), ?keys, "mrtr: a first call answered a question its client lacks the capability for");
                        Halt::Fail(ErrorData::missing_required_client_capability(missing))
                    }
                    None => match self.read::<Qs>(keys, &answers, false) {
                        Some(answers) => return Some(answers),
                        None => self.seal(id, keys, saver, questions),
                    },
                }
            }
            Reading::Ask => self.seal_new(id, keys, questions),
        };
        self.cursor().halt = Some(stop);
        None
    }

    /// Whether ask point `id` reads answers this round, and which.
    fn reading(&self, id: u32) -> Reading {
        let mut cursor = self.cursor();
        let resumed_here = cursor.resume == Some(id);
        let fresh = cursor.resume.is_none() && cursor.fresh_answers;
        if !resumed_here && !fresh {
            return Reading::Ask;
        }
        cursor.resume = None;
        cursor.fresh_answers = false;
        let answers = cursor.answers.take().unwrap_or_default();
        match resumed_here {
            true => Reading::Resumed(answers),
            false if answers.is_empty() => Reading::Ask,
            false => Reading::Fresh(answers),
        }
    }

    /// The answers to these questions, or `None` to ask them again. A first call may answer
    /// the first questions, but never passes a checkpoint.
    fn read<Qs: QuestionSet>(
        &self,
        keys: &[&'static str],
        answers: &InputResponses,
        resumed: bool,
    ) -> Option<Qs::Answers> {
        match Qs::read_answers(keys, answers, resumed) {
            Ok(read) => Some(read),
            Err(reason) => {
                let reason = redacted(&reason);
                tracing::debug!(tool = %Escaped(&self.round.name), ?keys, %reason, "mrtr: asking again");
                self.cursor().asked_again = Some(format!("{keys:?}: {reason}"));
                None
            }
        }
    }

    fn seal_new<Qs: QuestionSet>(
        &self,
        id: u32,
        keys: &'static [&'static str],
        questions: impl FnOnce(&mut Saver) -> Qs,
    ) -> Halt {
        let mut saver = Saver::new();
        let questions = questions(&mut saver);
        self.seal(id, keys, saver, questions)
    }

    fn seal<Qs: QuestionSet>(
        &self,
        id: u32,
        keys: &'static [&'static str],
        saver: Saver,
        questions: Qs,
    ) -> Halt {
        // A single-use round's record in this process keeps what builds the questions, not
        // the questions; a store that takes sealed bytes needs neither.
        let in_process = !self.engine.inner.store.keeps_sealed_bytes();
        let rebuild = match self.layout.single_use && in_process {
            true => questions.rebuild(keys),
            false => None,
        };
        match self.seal_questions(id, keys, saver, questions) {
            Ok(input) => Halt::Ask(input, rebuild),
            Err(error) => Halt::Fail(error),
        }
    }

    fn seal_questions<Qs: QuestionSet>(
        &self,
        id: u32,
        keys: &'static [&'static str],
        saver: Saver,
        questions: Qs,
    ) -> Result<InputRequiredResult, ErrorData> {
        let tool = Escaped(&self.round.name);
        let locals = saver.finish().map_err(|error| {
            tracing::error!(%tool, ?keys, %error, "mrtr: a local held across an ask failed to serialize");
            ErrorData::internal_error(
                format!(
                    "the {} could not save its progress",
                    subject(self.round.method)
                ),
                None,
            )
        })?;
        if let Some(missing) = questions.missing_capabilities(&self.round.capabilities) {
            tracing::info!(%tool, ?keys, "mrtr: the client lacks a capability this ask needs");
            return Err(ErrorData::missing_required_client_capability(missing));
        }
        let requests = questions.into_input_requests(keys)?;
        let mut header = Header {
            json_locals: locals.json,
            ..self.next_header(id)?
        };
        if self.layout.single_use {
            let key = RoundKey {
                flow: header.flow,
                round: header.round,
            };
            let held_at = self.cursor().held_at;
            header.place = guard::reserve(&self.engine, key, header.expires_at, held_at);
        }
        let engine = &self.engine.inner;
        let binding = binding(
            &self.engine,
            &self.round,
            self.layout,
            self.principal.as_deref(),
        );
        let state = envelope::seal(&engine.keys, &binding, &header, &locals.bytes, engine.max_state_bytes)
            .map_err(|error| {
                match error {
                    // Answers a client chose can do this on every call: one line per interval.
                    SealError::TooLarge { bytes, limit } => {
                        if let Some(before) = engine.oversized_states.due(self.engine.now()) {
                            tracing::error!(
                                %tool, ?keys, bytes, limit, oversized_since_last_line = before,
                                "mrtr: requestState would exceed the size limit; hold less across this ask, bound what the client may answer (a form's `maxLength`), or raise `max_state_bytes`"
                            );
                        }
                    }
                    SealError::Random => tracing::error!(%tool, "mrtr: sealing failed"),
                }
                ErrorData::internal_error(
                    format!(
                        "the {}'s progress is too large to hand back",
                        subject(self.round.method)
                    ),
                    None,
                )
            })?;
        Ok(InputRequiredResult::new(keyed(requests), Some(state)))
    }

    /// The header of the state this round hands out for ask point `id`: the flow's id,
    /// deadline and round cap carry over from the state it opened, or are fixed now.
    fn next_header(&self, id: u32) -> Result<Header, ErrorData> {
        let engine = &self.engine.inner;
        // Rounded up, so that a state lives at least its TTL and a flow its lifetime.
        let now = unix_seconds_up(self.engine.now());
        let opened = self.cursor().opened;
        let (flow, deadline, max_rounds, round) = match opened {
            Some(opened) => (
                opened.flow,
                opened.deadline,
                opened.max_rounds,
                opened.round.saturating_add(1),
            ),
            None => {
                let mut flow = FlowId::default();
                getrandom::getrandom(&mut flow).map_err(|error| {
                    tracing::error!(%error, "mrtr: the system random source failed");
                    ErrorData::internal_error("the server could not run this request", None)
                })?;
                let deadline = now.saturating_add(engine.flow_lifetime.as_secs());
                (flow, deadline, engine.max_rounds, 1)
            }
        };
        if round > max_rounds {
            // A client whose answer never fits is asked again until here: say why.
            let asked_again = self.cursor().asked_again.take();
            let why = asked_again
                .as_deref()
                .map(|reason| format!(" (the last answers did not fit: {reason})"))
                .unwrap_or_default();
            tracing::warn!(tool = %Escaped(&self.round.name), max_rounds, asked_again, "mrtr: a call reached its round cap");
            return Err(ErrorData::internal_error(
                format!(
                    "this call took more than {max_rounds} rounds{why}; {}",
                    again(self.round.method)
                ),
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
            json_locals: false,
            place: None,
        })
    }

    /// Runs the round: under single use, claims it first (or answers a duplicate with the
    /// first response), runs the body while keeping the claim alive, and records the response
    /// with `record`, the method's `Wire::record`. Passed as a function rather than bound
    /// here, so a result the method cannot send is one error, where the generated code names it.
    pub async fn run<R>(
        &self,
        record: fn(R) -> RecordedResponse,
        body: impl Future<Output = R>,
    ) -> Outcome<R> {
        if !self.layout.single_use {
            self.start_task_at_the_top();
            return self.drive(body).await;
        }
        let Some(opened) = self.cursor().opened else {
            // A first call has no state to claim; it starts a flow if the store has room.
            if let Err(error) = guard::admit(&self.engine, &self.round.name) {
                return Outcome::Failed(error);
            }
            self.start_task_at_the_top();
            return self.drive(body).await;
        };
        let key = RoundKey {
            flow: opened.flow,
            round: opened.round,
        };
        let binding = binding(
            &self.engine,
            &self.round,
            self.layout,
            self.principal.as_deref(),
        );
        let entered = guard::enter(&self.engine, &binding, key, opened.place, opened.expires_at);
        let held = match entered.await {
            Ok(Entered::Won(held)) => held,
            // The round that started this very task, run again inside it because the instance
            // running it died: the task's lease, not the guard, lets one instance run it.
            Ok(Entered::Replayed(RecordedResponse::Task(created)))
                if self
                    .round
                    .task
                    .as_ref()
                    .is_some_and(|link| link.is_inside(&created)) =>
            {
                return self.drive(body).await;
            }
            Ok(Entered::Replayed(response)) => return Outcome::Recorded(response),
            Err(error) => return Outcome::Failed(error),
        };
        self.cursor().held_at = held.at();
        self.start_task_at_the_top();
        let mut body = pin!(self.drive(body));
        let outcome = {
            let keep_alive = pin!(guard::keep_alive(&self.engine, &held));
            let became_task = pin!(self.became_task());
            let until_created = pin!(async {
                match biased_race(keep_alive, became_task).await {
                    Ok(never) => match never {},
                    Err(created) => created,
                }
            });
            biased_race(body.as_mut(), until_created).await
        };
        // A call that became a task: its duplicates get the task, and what the body does
        // next belongs to the task, whose rounds have states of their own.
        let outcome = match (outcome, &self.round.task) {
            (Err(created), _) => {
                let response = RecordedResponse::Task(created);
                guard::record(&self.engine, &binding, held, &response, None).await;
                return body.await;
            }
            // The body got to its next halt before the task's record was written.
            (Ok(outcome), Some(link)) if link.became_task() => {
                let response = RecordedResponse::Task(link.created().await);
                guard::record(&self.engine, &binding, held, &response, None).await;
                return outcome;
            }
            (Ok(outcome), _) => outcome,
        };
        let response = match outcome {
            Outcome::Done(result) => record(result),
            Outcome::InputRequired(input) => RecordedResponse::InputRequired(input),
            Outcome::Failed(error) => RecordedResponse::Error(error),
            Outcome::Recorded(response) => response,
        };
        let rebuild = self.cursor().rebuild.take();
        guard::record(&self.engine, &binding, held, &response, rebuild).await;
        Outcome::Recorded(response)
    }

    /// A task tool without `ask!(start_task())` becomes a task as its round begins: once its
    /// state opened and was claimed, so that a state that does not open is `-32602` and a
    /// duplicate gets the task the first request made, not a task of its own.
    fn start_task_at_the_top(&self) {
        if self.layout.task != TaskSupport::Never
            && !self.layout.task_start_marked
            && let Some(link) = &self.round.task
        {
            link.start();
        }
    }

    /// The response that told the client this call became a task, once it has: never, for
    /// a call outside the task channel or a round inside a task.
    async fn became_task(&self) -> rmcp::model::CreateTaskResult {
        match &self.round.task {
            Some(link) => link.created().await,
            None => std::future::pending().await,
        }
    }

    /// Runs the body until it returns or halts at an ask. A body that panics ends the round
    /// with `-32603` (recorded like any failure, so a retry of its state gets it again), rather
    /// than leave its client waiting for an answer that never comes.
    pub async fn drive<R>(&self, body: impl Future<Output = R>) -> Outcome<R> {
        let mut body = pin!(body);
        poll_fn(|context| {
            let Ok(polled) = catch_unwind(AssertUnwindSafe(|| body.as_mut().poll(context))) else {
                tracing::error!(
                    tool = %Escaped(&self.round.name),
                    "mrtr: the tool panicked; its round fails with -32603"
                );
                return Poll::Ready(Outcome::Failed(ErrorData::internal_error(
                    format!("the {} failed", subject(self.round.method)),
                    None,
                )));
            };
            self.polled(polled)
        })
        .await
    }

    /// What one poll of the body means for the round.
    fn polled<R>(&self, polled: Poll<R>) -> Poll<Outcome<R>> {
        match polled {
            Poll::Ready(result) => Poll::Ready(match self.cursor().resume {
                None => Outcome::Done(result),
                // A well-formed state always leads back to the ask it stopped at.
                Some(resume) => {
                    self.refuse(&format_args!("the body never reached ask point {resume}"));
                    Outcome::Failed(invalid_state(self.round.method))
                }
            }),
            Poll::Pending => {
                let mut cursor = self.cursor();
                match cursor.halt.take() {
                    Some(Halt::Ask(input, rebuild)) => {
                        cursor.rebuild = rebuild;
                        Poll::Ready(Outcome::InputRequired(input))
                    }
                    Some(Halt::Fail(error)) => Poll::Ready(Outcome::Failed(error)),
                    None => Poll::Pending,
                }
            }
        }
    }
}

fn binding<'a>(
    engine: &'a Engine,
    round: &'a Round,
    layout: &Layout,
    principal: Option<&'a str>,
) -> Binding<'a> {
    Binding {
        audience: &engine.inner.audience,
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
