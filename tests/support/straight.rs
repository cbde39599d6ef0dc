//! The straight run of the differential tests: a tool body run in one go, each `ask!` answered
//! from a script at once, with no rounds and no sealed state.

use std::sync::Mutex;

use mrtr::Question;
use serde_json::Value;

/// Answers in the order the questions come, and the questions as they were asked.
pub struct Script {
    answers: Mutex<std::collections::VecDeque<Value>>,
    asked: Mutex<Vec<(String, String)>>,
}

impl Script {
    pub fn new(answers: Vec<Value>) -> Self {
        Self {
            answers: Mutex::new(answers.into()),
            asked: Mutex::new(Vec::new()),
        }
    }

    /// What a straight-through `ask!(key = question)` evaluates to.
    pub fn answer<Q: Question>(&self, key: &str, question: Q) -> Q::Answer {
        let mut round = Round::default();
        let asked = round.ask(key, question);
        round.answer(self);
        asked.read(&round)
    }

    /// The next answer of the script, for `key`.
    fn next_answer(&self, key: &str) -> Value {
        self.answers
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or_else(|| panic!("the script has no answer left for `{key}`"))
    }

    /// How many answers no question took.
    pub fn left(&self) -> usize {
        self.answers.lock().unwrap().len()
    }

    pub fn asked(&self) -> Vec<(String, String)> {
        self.asked.lock().unwrap().clone()
    }
}

/// The questions of one round: sent, and answered, in the order of their keys, as the other
/// channels list them.
#[derive(Default)]
pub struct Round {
    messages: std::collections::BTreeMap<String, String>,
    answers: std::collections::BTreeMap<String, Value>,
}

/// A question of a [`Round`], waiting for its answer.
pub struct Asked<Q> {
    key: String,
    question: std::marker::PhantomData<Q>,
}

impl Round {
    pub fn ask<Q: Question>(&mut self, key: &str, question: Q) -> Asked<Q> {
        // `checkpoint()` and `start_task()` ask nothing, and take no answer.
        if let Some(request) = question.into_input_request().expect("a valid question") {
            let request = serde_json::to_value(request).expect("requests serialize");
            let message = request["params"]["message"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            self.messages.insert(key.to_owned(), message);
        }
        Asked {
            key: key.to_owned(),
            question: std::marker::PhantomData,
        }
    }

    /// Records the round's questions and takes their answers from `script`, by key.
    pub fn answer(&mut self, script: &Script) {
        for (key, message) in &self.messages {
            script
                .asked
                .lock()
                .unwrap()
                .push((key.clone(), message.clone()));
            self.answers.insert(key.clone(), script.next_answer(key));
        }
    }
}

impl<Q: Question> Asked<Q> {
    pub fn read(self, round: &Round) -> Q::Answer {
        let answer = round.answers.get(&self.key).unwrap_or(&Value::Null);
        Q::read_answer(&self.key, answer)
            .unwrap_or_else(|e| panic!("scripted answer for `{}` does not fit: {e}", self.key))
    }
}

tokio::task_local! {
    /// The script of the straight run in progress.
    pub static SCRIPT: Script;
}

/// `ask!` in a straight run: the next scripted answer, at once.
#[macro_export]
macro_rules! straight_ask {
    ($key:ident = $question:expr) => {
        $crate::straight::SCRIPT.with(|script| script.answer($crate::straight::key(stringify!($key)), $question))
    };
    ($($key:ident = $question:expr),+ $(,)?) => {
        $crate::straight::SCRIPT.with(|script| {
            let mut round = $crate::straight::Round::default();
            $(let $key = round.ask($crate::straight::key(stringify!($key)), $question);)+
            round.answer(script);
            ($($key.read(&round),)+)
        })
    };
}

/// A question's key as `#[mrtr_tool]` sends it: `ask!(r#type = ..)` asks under `type`.
pub fn key(name: &'static str) -> &'static str {
    name.strip_prefix("r#").unwrap_or(name)
}

/// Records a side effect of the run whose arguments are `args`: `note!(args, "..", ..)`.
#[macro_export]
macro_rules! note {
    ($args:expr, $($what:tt)*) => {
        $crate::straight::note(&$args.run, format!($($what)*))
    };
}

/// Side effects of both runs, by run id, so bodies can note them without holding a handle.
static JOURNALS: Mutex<std::collections::BTreeMap<String, Vec<String>>> =
    Mutex::new(std::collections::BTreeMap::new());

pub fn note(run: &str, what: impl Into<String>) {
    JOURNALS
        .lock()
        .unwrap()
        .entry(run.to_owned())
        .or_default()
        .push(what.into());
}

pub fn journal(run: &str) -> Vec<String> {
    JOURNALS
        .lock()
        .unwrap()
        .get(run)
        .cloned()
        .unwrap_or_default()
}
