//! The contract between `ask!` and the kinds of input it can ask for.

use rmcp::{
    ErrorData,
    model::{ClientCapabilities, ElicitationSchema, InputRequest, InputRequests, InputResponses},
};
use serde_json::Value;
use std::sync::Arc;

/// A form's schema, as [`elicit`](crate::elicit) takes it while the form type is known.
pub(crate) type FormSchema = fn() -> Result<ElicitationSchema, serde_json::Error>;

/// Builds a kept question's request from its bytes and, for a form, its schema.
pub(crate) type BuildKept =
    fn(&[u8], Option<FormSchema>) -> Result<Option<InputRequest>, ErrorData>;

/// How a question builds its request again, as it was first sent: from the bytes it wrote
/// when it was asked (see [`Question::keep`]) and, for a form, the form's schema.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Kept {
    pub(crate) build: BuildKept,
    pub(crate) schema: Option<FormSchema>,
}

/// One kept question: its key, what builds it, and how many of the round's bytes are its.
#[derive(Clone, Copy)]
pub(crate) struct KeptQuestion {
    key: &'static str,
    kept: Kept,
    len: u32,
}

/// A round's kept questions, without their bytes.
#[derive(Clone)]
pub(crate) enum KeptQuestions {
    One(KeptQuestion),
    Many(Arc<[KeptQuestion]>),
}

/// Builds a round's requests again, as they were first sent: what the replay store keeps for a
/// duplicate of the round, far smaller than the requests themselves. The questions' bytes sit
/// one after another, so that a store can keep them with others in one buffer.
#[doc(hidden)]
#[derive(Clone)]
pub struct Rebuild {
    questions: KeptQuestions,
    bytes: Vec<u8>,
}

impl Rebuild {
    /// The requests, built again, as `inputRequests`.
    pub fn requests(&self) -> Result<Option<InputRequests>, ErrorData> {
        let questions = match &self.questions {
            KeptQuestions::One(one) => std::slice::from_ref(one),
            KeptQuestions::Many(many) => &many[..],
        };
        let mut requests = Vec::with_capacity(questions.len());
        let mut rest = &self.bytes[..];
        for question in questions {
            let (bytes, after) = rest.split_at(rest.len().min(question.len as usize));
            rest = after;
            if let Some(request) = (question.kept.build)(bytes, question.kept.schema)? {
                requests.push((question.key, request));
            }
        }
        Ok(keyed(requests))
    }

    /// The questions and their bytes, for a store that keeps the bytes elsewhere.
    pub(crate) fn into_parts(self) -> (KeptQuestions, Vec<u8>) {
        (self.questions, self.bytes)
    }

    pub(crate) fn from_parts(questions: KeptQuestions, bytes: Vec<u8>) -> Self {
        Self { questions, bytes }
    }
}

impl KeptQuestion {
    /// Keeps `question` under `key`, its bytes appended to `bytes`; `None` if it does not keep.
    fn write<Q: Question>(key: &'static str, question: &Q, bytes: &mut Vec<u8>) -> Option<Self> {
        let before = bytes.len();
        let kept = question.keep(bytes)?;
        Some(Self {
            key,
            kept,
            len: u32::try_from(bytes.len() - before).ok()?,
        })
    }
}

/// A round's requests as `inputRequests`: `None` when there are none (a checkpoint).
pub(crate) fn keyed(requests: Vec<(&'static str, InputRequest)>) -> Option<InputRequests> {
    // Inserted one by one: collecting sorts through a buffer, and a round asks one or a few.
    let mut keyed = InputRequests::new();
    for (key, request) in requests {
        keyed.insert(key.to_owned(), request);
    }
    (!keyed.is_empty()).then_some(keyed)
}

/// [`Question::keep`] for a question that writes no bytes: it is built again by `build`.
pub(crate) fn kept_as(build: BuildKept) -> Option<Kept> {
    Some(Kept {
        build,
        schema: None,
    })
}

/// Something `ask!` can send to the client, and the typed answer that comes back.
///
/// [`elicit`](crate::elicit), [`elicit_url`](crate::elicit_url), [`sample`](crate::sample),
/// [`roots`](crate::roots) and [`checkpoint`](crate::checkpoint) build one. The machine checks
/// the client's capabilities, sends [`Question::into_input_request`], and on the retry reads the
/// answer with [`Question::read_answer`]. An answer that does not read asks the same question
/// again.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a question `ask!` can send",
    label = "`ask!(key = ..)` takes a question here",
    note = "build one with `elicit::<Form>(message)`, `elicit_url(..)`, `sample(..)`, `roots()`, \
            `checkpoint()` or `start_task()`; a message alone is `elicit::<YourForm>(\"..\")`",
    note = "the question is built when it is sent and may not `.await` or use `?`: compute the \
            fallible or async parts (the message, the choices) into locals before the `ask!`, \
            and build the question from them inside it"
)]
pub trait Question {
    /// What the tool gets back.
    type Answer;

    /// Whether the client must answer. A [`checkpoint`](crate::checkpoint) needs no answer:
    /// the retry itself is the answer.
    const NEEDS_RESPONSE: bool = true;

    /// The capabilities this question needs that `declared` lacks, or `None` if it may be asked.
    fn missing_capability(&self, declared: &ClientCapabilities) -> Option<ClientCapabilities>;

    /// The request that goes into `inputRequests`, or `None` for a round that only carries
    /// `requestState`. An error here is a server bug, such as a form type whose schema is not
    /// flat.
    fn into_input_request(self) -> Result<Option<InputRequest>, ErrorData>;

    /// Reads the client's answer (`Value::Null` when none is needed). `Err` says why it does not
    /// fit; the question is asked again.
    fn read_answer(key: &str, response: &Value) -> Result<Self::Answer, String>;

    /// Keeps this question, so that a duplicate of the round can be sent the same request
    /// without the replay store holding the request itself: writes to `bytes` what builds it
    /// again, with the returned [`Kept`]. `None`, the default, makes the store hold a copy of
    /// the request.
    #[doc(hidden)]
    fn keep(&self, bytes: &mut Vec<u8>) -> Option<Kept> {
        let _ = bytes;
        None
    }
}

/// Several questions asked in one round: `ask!(a = q1, b = q2)` answers `(A1, A2)`.
#[doc(hidden)]
pub struct All<T>(pub T);

/// One or more questions asked in one round, as the machine sees them.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a question `ask!` can send",
    label = "`ask!(key = ..)` takes a question here",
    note = "build one with `elicit::<Form>(message)`, `elicit_url(..)`, `sample(..)`, `roots()`, \
            `checkpoint()` or `start_task()`; a message alone is `elicit::<YourForm>(\"..\")`",
    note = "the question is built when it is sent and may not `.await` or use `?`: compute the \
            fallible or async parts (the message, the choices) into locals before the `ask!`, \
            and build the question from them inside it"
)]
pub trait QuestionSet {
    type Answers;
    fn missing_capabilities(&self, declared: &ClientCapabilities) -> Option<ClientCapabilities>;
    fn into_input_requests(
        self,
        keys: &[&'static str],
    ) -> Result<Vec<(&'static str, InputRequest)>, ErrorData>;
    /// `resumed`: this round resumes at these questions, rather than a first call that brought
    /// answers along.
    fn read_answers(
        keys: &[&'static str],
        responses: &InputResponses,
        resumed: bool,
    ) -> Result<Self::Answers, String>;
    /// What builds [`into_input_requests`](QuestionSet::into_input_requests) again, if every
    /// question [keeps](Question::keep).
    fn rebuild(&self, keys: &'static [&'static str]) -> Option<Rebuild>;
}

fn read_one<Q: Question>(
    key: &str,
    responses: &InputResponses,
    resumed: bool,
) -> Result<Q::Answer, String> {
    if !Q::NEEDS_RESPONSE {
        return match resumed {
            true => Q::read_answer(key, &Value::Null),
            false => Err(format!("`{key}` needs a round of its own")),
        };
    }
    match responses.get(key) {
        Some(response) => Q::read_answer(key, response),
        None => Err(format!("{}{key}`", crate::log::NO_ANSWER_FOR)),
    }
}

impl<Q: Question> QuestionSet for Q {
    type Answers = Q::Answer;

    fn missing_capabilities(&self, declared: &ClientCapabilities) -> Option<ClientCapabilities> {
        self.missing_capability(declared)
    }

    fn into_input_requests(
        self,
        keys: &[&'static str],
    ) -> Result<Vec<(&'static str, InputRequest)>, ErrorData> {
        Ok(self
            .into_input_request()?
            .map(|request| (keys[0], request))
            .into_iter()
            .collect())
    }

    fn read_answers(
        keys: &[&'static str],
        responses: &InputResponses,
        resumed: bool,
    ) -> Result<Self::Answers, String> {
        read_one::<Q>(keys[0], responses, resumed)
    }

    fn rebuild(&self, keys: &'static [&'static str]) -> Option<Rebuild> {
        let mut bytes = Vec::new();
        let one = KeptQuestion::write(keys[0], self, &mut bytes)?;
        Some(Rebuild {
            questions: KeptQuestions::One(one),
            bytes,
        })
    }
}

/// Merges what several questions miss into one `requiredCapabilities` object.
fn merge(
    missing: impl IntoIterator<Item = Option<ClientCapabilities>>,
) -> Option<ClientCapabilities> {
    let mut merged = serde_json::Map::new();
    let mut any = false;
    for caps in missing.into_iter().flatten() {
        any = true;
        if let Ok(Value::Object(object)) = serde_json::to_value(caps) {
            for (name, value) in object {
                match (merged.get_mut(&name), value) {
                    (Some(Value::Object(existing)), Value::Object(more)) => existing.extend(more),
                    (_, value) => {
                        merged.insert(name, value);
                    }
                }
            }
        }
    }
    any.then(|| serde_json::from_value(Value::Object(merged)).unwrap_or_default())
}

macro_rules! question_tuples {
    ($(($($q:ident $i:tt),+))+) => {$(
        impl<$($q: Question),+> QuestionSet for All<($($q,)+)> {
            type Answers = ($($q::Answer,)+);

            fn missing_capabilities(&self, declared: &ClientCapabilities) -> Option<ClientCapabilities> {
                merge([$(self.0.$i.missing_capability(declared)),+])
            }

            fn into_input_requests(self, keys: &[&'static str]) -> Result<Vec<(&'static str, InputRequest)>, ErrorData> {
                let mut requests = Vec::new();
                $(
                    if let Some(request) = self.0.$i.into_input_request()? {
                        requests.push((keys[$i], request));
                    }
                )+
                Ok(requests)
            }

            fn read_answers(keys: &[&'static str], responses: &InputResponses, resumed: bool) -> Result<Self::Answers, String> {
                Ok(($(read_one::<$q>(keys[$i], responses, resumed)?,)+))
            }

            fn rebuild(&self, keys: &'static [&'static str]) -> Option<Rebuild> {
                let mut bytes = Vec::new();
                let many = [$(KeptQuestion::write(keys[$i], &self.0.$i, &mut bytes)?),+];
                Some(Rebuild { questions: KeptQuestions::Many(Arc::new(many)), bytes })
            }
        }
    )+};
}

question_tuples! {
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
}
