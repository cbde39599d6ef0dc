//! Differential tests: every tool body of the corpus runs twice with the same answers. Once
//! straight through, each `ask!` answered on the spot; once as a resumable tool, on each
//! channel: split into rounds through the sealed `requestState` over a real rmcp client, on a
//! pre-2026 session whose client answers each question as a request of its own, and as a task.
//! The results, the questions asked and the journal of side effects must be equal: resuming
//! repeats and skips nothing.
//!
//! A corpus body is written once, in `corpus!`, and compiled both ways. Bodies use explicit
//! ask keys, `note!(args, ..)` for side effects, and `Args { run, n }` as their arguments.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque},
    time::Duration,
};

use mrtr::{Elicited, Engine, Form, ask, elicit, mrtr_tool, start_task};
pub use mrtr_tests::differential::{Args, Num};
use mrtr_tests::{
    clock::TestClock,
    differential::{
        Run, accept, answers_left, as_a_task, compare, in_rounds, on_a_session, on_session,
    },
    loopback::{Served, connect_declaring},
    note,
    task_client::TaskClient,
};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Form)]
pub struct Text {
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Form)]
pub struct Yes {
    pub yes: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema, Form)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Warm. (Documented variants make schemars write a titled choice.)
    Red,
    /// Calm.
    Green,
    /// Cool.
    Blue,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Form)]
pub struct Pick {
    pub color: Color,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub x: i64,
    pub y: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Person {
    pub name: String,
    pub age: u32,
}

/// Serializes optional fields only when set, as JSON-facing types often do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Memo {
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Questions of a `const` outside the tools, iterated by a loop whose body asks.
pub const QUESTIONS: [&str; 3] = ["Age?", "Height?", "Shoe size?"];

/// A word for `n`: a `&'static str` from a call.
pub fn word_for(n: u32) -> &'static str {
    if n.is_multiple_of(2) { "even" } else { "odd" }
}

/// A user's struct with a `&'static str` field, held across asks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Labelled {
    pub label: &'static str,
    pub weight: u32,
}

/// A local enum without serde: matching on it may still ask in its arms.
#[derive(Debug)]
pub enum Step {
    Ask(String),
    Note,
    Skip,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    Circle { r: i64 },
    Rect(i64, i64),
    Empty,
}

/// A user's generic struct, held across asks (sweep 31).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tagged<T> {
    pub tag: String,
    pub value: T,
}

/// A user's generic enum, held across asks (sweep 31).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Verdict<T, E> {
    Done(T),
    Failed(E),
    Pending,
}

/// The phases of a small state machine driven by answers (sweep 31).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Phase {
    Start,
    Named(String),
    Done(u32),
}

/// A recursive enum of boxes, held across asks (sweep 34).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Tree {
    Leaf(i64),
    Node(Box<Tree>, Box<Tree>),
}

impl Tree {
    pub fn sum(&self) -> i64 {
        match self {
            Tree::Leaf(v) => *v,
            Tree::Node(l, r) => l.sum() + r.sum(),
        }
    }
}

/// A singly linked list through `Option<Box<_>>`, held across asks (sweep 34).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub value: i64,
    pub next: Option<Box<Entry>>,
}

/// A user's error type, turned into the tool's `String` error by `?` through `From` (sweep 34).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FormError {
    Empty,
    TooLong(usize),
    Bad(String),
}

impl std::fmt::Display for FormError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormError::Empty => write!(f, "empty"),
            FormError::TooLong(n) => write!(f, "too long ({n})"),
            FormError::Bad(why) => write!(f, "bad: {why}"),
        }
    }
}

impl From<FormError> for String {
    fn from(e: FormError) -> String {
        format!("form error: {e}")
    }
}

impl From<mrtr::Refused> for FormError {
    fn from(refused: mrtr::Refused) -> FormError {
        FormError::Bad(format!("refused {}", refused.key))
    }
}

impl From<std::num::ParseIntError> for FormError {
    fn from(e: std::num::ParseIntError) -> FormError {
        FormError::Bad(e.to_string())
    }
}

/// Trims and checks a piece of text: empty or longer than 8 characters is an error.
pub fn validate(s: &str) -> Result<String, FormError> {
    let t = s.trim();
    match t.chars().count() {
        0 => Err(FormError::Empty),
        n if n > 8 => Err(FormError::TooLong(n)),
        _ => Ok(t.to_owned()),
    }
}

/// Parses a limit, converting the parse error with `?` and `From`.
pub fn parse_limit(s: &str) -> Result<i64, FormError> {
    let n: i64 = s.trim().parse()?;
    if n < 0 {
        Err(FormError::Bad(format!("negative {n}")))
    } else {
        Ok(n)
    }
}

/// An async helper that borrows a slice: how many words are longer than `min`.
pub async fn count_long(words: &[String], min: usize) -> usize {
    tokio::task::yield_now().await;
    words.iter().filter(|w| w.chars().count() > min).count()
}

/// An async helper that changes a vector it borrows mutably.
pub async fn push_doubled(into: &mut Vec<i64>, n: i64) {
    tokio::task::yield_now().await;
    into.push(n * 2);
}

/// An async helper that borrows a `&str`.
pub async fn shout(s: &str) -> String {
    tokio::task::yield_now().await;
    s.to_uppercase()
}

/// An async helper that borrows two strings.
pub async fn join_async(a: &str, b: &str) -> String {
    tokio::task::yield_now().await;
    format!("{a}+{b}")
}

/// Compiles each body as a resumable tool (`Corpus::NAME`) and as a straight async fn
/// (`straight::NAME`) whose `ask!` reads the next answer of a script.
macro_rules! corpus {
    ($( $name:ident($args:pat) => $body:block )*) => {
        #[derive(Clone)]
        pub struct Corpus {
            tool_router: ToolRouter<Self>,
            engine: Engine,
        }

        #[tool_router]
        impl Corpus {
            $(
                #[mrtr_tool(task = "optional")]
                #[tool]
                async fn $name(&self, Parameters($args): Parameters<Args>) -> Result<String, String> $body
            )*
        }

        mod straight {
            #![allow(unused_mut, unused_variables, unreachable_code, clippy::all)]
            use super::prelude::*;
            use mrtr_tests::straight_ask as ask;
            $(
                pub async fn $name($args: Args) -> Result<String, String> $body
            )*
        }

        /// Every body, by name, for the table of cases.
        const NAMES: &[&str] = &[$(stringify!($name)),*];

        async fn run_straight(name: &str, args: Args) -> Result<String, String> {
            match name {
                $(stringify!($name) => straight::$name(args).await,)*
                other => panic!("no corpus body named {other}"),
            }
        }
    };
}

/// What corpus bodies may use, besides `ask!`.
pub mod prelude {
    pub use super::{
        Args, Color, Entry, FormError, Handle, Labelled, Memo, Num, Person, Phase, Pick, Point,
        QUESTIONS, Shape, Step, Tagged, Text, Tree, Verdict, Yes, add, consume, count_long,
        describe, double, join_async, len_with, noted_prompt, parse_limit, parse_num, push_doubled,
        record, refuse, shout, sum_with, validate, word_for,
    };
    pub use mrtr::{Elicited, elicit, start_task};
    pub use mrtr_tests::note;
    #[allow(unused_imports)]
    pub use serde_json::{Value, json};
    #[allow(unused_imports)]
    pub use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
}

pub fn refuse(refused: mrtr::Refused) -> String {
    format!("refused at {}", refused.key)
}

pub async fn double(n: i64) -> i64 {
    tokio::task::yield_now().await;
    n * 2
}

/// Takes ownership of a vector: `[..]+k=sum`.
pub fn sum_with(v: Vec<u32>, k: i64) -> String {
    let sum = v.iter().map(|n| i64::from(*n)).sum::<i64>() + k;
    format!("{v:?}+{k}={sum}")
}

/// Borrows a vector: its length plus `k`.
pub fn len_with(v: &[u32], k: i64) -> i64 {
    v.len() as i64 + k
}

/// Reads two numbers: `add(x, ask!(..)..)`.
pub fn add(a: i64, b: i64) -> i64 {
    a * 1000 + b
}

/// Takes ownership, so a body can move a local before an ask.
pub fn consume(s: String) -> usize {
    s.len()
}

/// A handle that cannot be saved: neither `Serialize` nor `Send`.
pub struct Handle {
    base: std::rc::Rc<i64>,
}

impl Handle {
    pub fn open(base: i64) -> Self {
        Handle {
            base: std::rc::Rc::new(base),
        }
    }

    pub fn find(&self, n: i64) -> Option<&i64> {
        (n % 2 == 0).then_some(&*self.base)
    }
}

pub fn parse_num(s: &str) -> Result<i64, String> {
    s.trim().parse().map_err(|_| format!("not a number: {s}"))
}

/// Takes an answer as an argument: `describe(ask!(..))`.
pub fn describe(answer: Elicited<Pick>) -> String {
    match answer {
        Elicited::Accept(pick) => format!("picked {:?}", pick.color),
        Elicited::Decline(refused) | Elicited::Cancel(refused) => refuse(refused),
    }
}

/// A question's message that notes in the journal when it is built: a question is built once
/// per time it is sent, so the journals match.
pub fn noted_prompt(run: &str, text: String) -> String {
    mrtr_tests::straight::note(run, format!("prompt {text}"));
    text
}

/// Notes an optional answer in the journal: `record(&args.run, ask!(..).ok())`.
pub fn record(run: &str, text: Option<Text>) {
    mrtr_tests::straight::note(run, format!("record {:?}", text.map(|t| t.text)));
}

corpus! {
    holds_rmcp_model_types_and_json_values(args) => {
        use rmcp::model::{CallToolResult, ContentBlock, PromptMessage, Role};
        let mut messages = vec![PromptMessage::new_text(Role::User, format!("n is {}", args.n))];
        let mut blocks = vec![ContentBlock::text("first")];
        let result = CallToolResult::success(vec![ContentBlock::text("kept")]);
        let mut value = serde_json::json!({"n": args.n, "tags": []});
        let more = ask!(more = elicit::<Num>("More?")).accepted().map_err(refuse)?.num;
        messages.push(PromptMessage::new_text(Role::Assistant, format!("more {more}")));
        blocks.push(ContentBlock::text(format!("more {more}")));
        value["tags"] = serde_json::json!([more]);
        note!(args, "got {more}");
        let go = ask!(go = elicit::<Yes>("Go?")).ok().is_some_and(|y| y.yes);
        Ok(format!(
            "{} {} {} {value} {go}",
            serde_json::to_string(&messages).unwrap_or_default(),
            serde_json::to_string(&blocks).unwrap_or_default(),
            serde_json::to_string(&result).unwrap_or_default(),
        ))
    }

    ref_mut_bindings_in_arms_that_ask(args) => {
        let mut opt = (args.n > 0).then(|| vec![args.n]);
        if let Some(ref mut v) = opt {
            v.push(9);
            let more = ask!(more = elicit::<Num>("More?")).accepted().map_err(refuse)?.num;
            note!(args, "more {more}");
        }
        match opt {
            Some(ref mut v) if v.len() > 1 => {
                v.push(7);
                let go = ask!(go = elicit::<Yes>("Go?")).ok().is_some_and(|y| y.yes);
                note!(args, "go {go}");
            }
            _ => note!(args, "none"),
        }
        let mut slot = opt.clone();
        while let Some(ref mut v) = slot {
            v.push(1);
            let len = v.len() as i64;
            let more = ask!(grow = elicit::<Num>(format!("Grow {len}?"))).accepted().map_err(refuse)?.num;
            if len + more > 4 {
                slot = None;
            }
        }
        Ok(format!("{opt:?} {slot:?}"))
    }

    a_value_that_starts_with_a_block(args) => {
        let n = { args.n + 1 } as i64 * 2;
        let m = match args.n { 0 => 10, _ => 20 }.max(n);
        let later;
        if args.n > 5 {
            later = { args.n * 3 } as i64;
        } else {
            later = match args.n { 0 => 1, _ => 2 }.max(m);
        }
        let picked;
        match args.n {
            0 => picked = { m + 1 } as u8,
            _ => picked = 9,
        }
        let text = ask!(text = elicit::<Text>(format!("{n} {m} {later} {picked}?"))).accepted().map_err(refuse)?.text;
        Ok(format!("{n} {m} {later} {picked} {text}"))
    }

    a_let_without_a_value_scoped_to_its_branches(args) => {
        let label;
        if args.n > 1 {
            label = ask!(label = elicit::<Text>("Label?")).accepted().map_err(refuse)?.text;
            note!(args, "len {}", consume(label));
        } else if args.n == 1 {
            label = "one".to_owned();
            note!(args, "{label}");
        }
        let x;
        if args.n > 2 {
            x = ask!(x = elicit::<Num>("X?")).accepted().map_err(refuse)?.num;
            let x = x * 100;
            note!(args, "inner {x}");
        } else {
            if args.n == 1 {
                x = 7;
            } else {
                x = 8;
            }
            note!(args, "small");
        }
        let go = ask!(go = elicit::<Yes>(format!("x={x}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{x} {go}"))
    }

    a_compound_assignment_to_a_string_element(args) => {
        let mut names = vec!["x".to_owned(), format!("n{}", args.n)];
        names[0] += &ask!(first = elicit::<Text>("First?")).accepted().map_err(refuse)?.text;
        note!(args, "names {names:?}");
        let mut totals = vec![1i64, 2];
        totals[1] += ask!(more = elicit::<Num>(format!("More for {names:?}?"))).accepted().map_err(refuse)?.num;
        let mut label = String::from("l");
        label += &ask!(tail = elicit::<Text>("Tail?")).ok().map_or("-".to_owned(), |t| t.text);
        names[1] += ask!(trimmed = elicit::<Text>("Trimmed?")).accepted().map_err(refuse)?.text.trim();
        Ok(format!("{names:?} {totals:?} {label}"))
    }

    an_endless_iterator_that_only_starts_the_task(args) => {
        let limit = ask!(limit = elicit::<Num>("Limit?")).accepted().map_err(refuse)?.num;
        let mut found = 0i64;
        for i in (1..).map(|x: i64| x * 2) {
            if i > limit {
                ask!(begin = start_task());
                note!(args, "found {i}");
                found = i;
                break;
            }
        }
        let more = ask!(more = elicit::<Yes>(format!("More than {found}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{found} {more}"))
    }

    what_cannot_be_saved_lives_across_the_start_of_the_task(args) => {
        let word = ask!(word = elicit::<Text>("Word?")).accepted().map_err(refuse)?.text;
        let started = std::time::Instant::now();
        let first = word.as_str();
        let counter = std::cell::Cell::new(args.n);
        if args.n > 1 {
            ask!(begin = start_task());
        }
        counter.set(counter.get() + 1);
        note!(args, "{first} {}", counter.get());
        let fast = started.elapsed() < std::time::Duration::from_secs(3600);
        let last = ask!(last = elicit::<Text>(format!("After {word}?"))).ok().map(|t| t.text);
        Ok(format!("{word} {fast} {last:?}"))
    }

    a_let_without_a_value_given_one_in_branches(args) => {
        let label;
        let count: i64;
        let mut extra;
        if args.n > 1 {
            let text = ask!(label = elicit::<Text>("Label?")).accepted().map_err(refuse)?.text;
            note!(args, "label {text}");
            label = text.to_uppercase();
        } else if args.n == 1 {
            label = "one".to_owned();
        } else {
            return Ok("none".to_owned());
        }
        match args.n % 3 {
            0 => count = ask!(count = elicit::<Num>(format!("Count for {label}?"))).accepted().map_err(refuse)?.num,
            1 => {
                note!(args, "no count");
                count = -1;
            }
            2 => {
                count = 7;
                note!(args, "count seven");
            }
            _ => {
                unreachable!("a remainder of 3")
            }
        }
        extra = String::new();
        let more = ask!(more = elicit::<Yes>(format!("More after {count}?"))).ok().is_some_and(|y| y.yes);
        if more {
            extra.push('+');
        }
        let mut tags;
        if count > 0 {
            tags = vec![label.clone()];
            tags.push(ask!(tag = elicit::<Text>(format!("Tag after {tags:?}?"))).ok().map_or("-".to_owned(), |t| t.text));
            note!(args, "tags {tags:?}");
        } else {
            tags = Vec::new();
        }
        tags.push(extra);
        Ok(format!("{label}:{count}{tags:?}"))
    }

    match_on_a_local_enum_without_serde(args) => {
        let step = if args.n > 1 { Step::Ask(format!("n={}", args.n)) } else if args.n == 1 { Step::Note } else { Step::Skip };
        match step {
            Step::Ask(label) => {
                let text = ask!(text = elicit::<Text>(format!("{label}?"))).accepted().map_err(refuse)?.text;
                note!(args, "{label} {text}");
            }
            Step::Note => note!(args, "noted"),
            Step::Skip => {}
        }
        let choice = if args.n % 2 == 0 { Step::Skip } else { Step::Ask("odd".to_owned()) };
        note!(args, "chose {choice:?}");
        let shown = format!("{choice:?}").len();
        note!(args, "shown in {shown}");
        let tail = if let Step::Ask(label) = choice {
            ask!(tail = elicit::<Yes>(format!("{label}?"))).ok().map(|y| y.yes)
        } else {
            None
        };
        Ok(format!("{tail:?}"))
    }

    closure_helper_across_asks(args) => {
        let label = format!("run {}", args.n);
        let fail = |refused: mrtr::Refused| format!("{label}: {}", refuse(refused));
        let first = ask!(first = elicit::<Text>("First?")).accepted().map_err(fail)?.text;
        note!(args, "first {first}");
        let second = ask!(second = elicit::<Text>(format!("After {first}?"))).accepted().map_err(fail)?.text;
        let never = mrtr::Refused { key: "none".to_owned(), action: mrtr::Refusal::Cancel };
        Ok(format!("{first} {second} {}", fail(never)))
    }

    holds_every_answer_type(args) => {
        let form = ask!(form = elicit::<Text>("Text?"));
        let page = ask!(page = mrtr::elicit_url("Open the page", "https://example.com/p"));
        let model = ask!(model = mrtr::sample("Say hi").max_tokens(10));
        let places = ask!(places = mrtr::roots());
        let last = ask!(last = elicit::<Yes>("Done?")).ok().map(|y| y.yes);
        note!(args, "held {form:?} {page:?} {} {places:?} {last:?}", model.text);
        Ok(format!(
            "{:?}|{:?}|{}|{}|{:?}",
            form.ok().map(|t| t.text),
            page,
            model.text,
            model.result()["model"],
            places.iter().map(|root| (root.uri.clone(), root.name.clone())).collect::<Vec<_>>()
        ))
    }

    straight_line(args) => {
        note!(args, "start {}", args.n);
        let first = ask!(first = elicit::<Text>("First?")).accepted().map_err(refuse)?.text;
        note!(args, "got {first}");
        let number = ask!(number = elicit::<Num>(format!("A number after {first}?"))).accepted().map_err(refuse)?.num;
        let doubled = double(number).await;
        note!(args, "doubled {doubled}");
        Ok(format!("{first}:{doubled}"))
    }

    if_else_in_a_loop(args) => {
        let mut total = 0i64;
        let mut seen = Vec::new();
        for i in 0..args.n {
            note!(args, "iteration {i}");
            if i % 2 == 0 {
                let even = ask!(even = elicit::<Num>(format!("Even {i}?"))).accepted().map_err(refuse)?.num;
                total += even;
                seen.push(format!("e{even}"));
            } else {
                let odd = ask!(odd = elicit::<Text>(format!("Odd {i}?"))).ok().map(|t| t.text).unwrap_or_default();
                seen.push(odd);
            }
            note!(args, "after {i}: {total}");
        }
        Ok(format!("{total} {seen:?}"))
    }

    match_on_an_answer(args) => {
        let point = Point { x: 1, y: 2 };
        let reply = match ask!(pick = elicit::<Pick>("Color?")) {
            Elicited::Accept(Pick { color: Color::Red }) => {
                note!(args, "red");
                let yes = ask!(sure = elicit::<Yes>("Sure about red?")).ok().is_some_and(|y| y.yes);
                format!("red {yes} {}", point.x)
            }
            Elicited::Accept(Pick { color }) => {
                note!(args, "other {color:?}");
                format!("{color:?} {}", point.y)
            }
            Elicited::Decline(refused) | Elicited::Cancel(refused) => return Err(refuse(refused)),
        };
        note!(args, "reply {reply}");
        Ok(reply)
    }

    early_returns(args) => {
        note!(args, "enter");
        if args.n == 0 {
            return Ok("nothing to do".to_string());
        }
        let a = ask!(a = elicit::<Num>("First number?")).accepted().map_err(refuse)?.num;
        note!(args, "a={a}");
        if a < 0 {
            return Err(format!("negative {a}"));
        }
        let b = ask!(b = elicit::<Num>(format!("Second number after {a}?"))).accepted().map_err(refuse)?.num;
        let sum = a + b;
        if sum > 100 {
            note!(args, "too big");
            return Ok(format!("big {sum}"));
        }
        note!(args, "sum={sum}");
        Ok(format!("sum {sum}"))
    }

    await_and_try_between(args) => {
        let raw = ask!(raw = elicit::<Text>("A number as text?")).accepted().map_err(refuse)?.text;
        let parsed = parse_num(&raw)?;
        note!(args, "parsed {parsed}");
        let doubled = double(parsed).await;
        let again = double(doubled).await;
        note!(args, "doubled twice {again}");
        let label = ask!(label = elicit::<Text>(format!("Label for {again}?"))).accepted().map_err(refuse)?.text;
        let checked = parse_num(&label).map_err(|e| format!("label: {e}"));
        note!(args, "checked {checked:?}");
        Ok(format!("{label}={again} {checked:?}"))
    }

    else_if_chain(args) => {
        let n = args.n;
        let word = if n == 0 {
            note!(args, "zero");
            ask!(zero = elicit::<Text>("Zero?")).accepted().map_err(refuse)?.text
        } else if n < 3 {
            let small = ask!(small = elicit::<Num>(format!("Small {n}?"))).accepted().map_err(refuse)?.num;
            note!(args, "small {small}");
            format!("s{small}")
        } else if ask!(big = elicit::<Yes>(format!("Is {n} big?"))).ok().is_some_and(|y| y.yes) {
            note!(args, "big");
            "big".to_string()
        } else {
            let other = ask!(other = elicit::<Text>("What then?")).ok().map(|t| t.text).unwrap_or_default();
            note!(args, "other {other}");
            other
        };
        note!(args, "word {word}");
        let tail = ask!(tail = elicit::<Text>(format!("Tail for {word}?"))).ok().map(|t| t.text).unwrap_or_default();
        Ok(format!("{word}-{tail}"))
    }

    ask_in_if_condition(args) => {
        let mut picked = Vec::new();
        if ask!(want = elicit::<Yes>("Want a color?")).ok().is_some_and(|y| y.yes) {
            let color = ask!(color = elicit::<Pick>("Which color?")).accepted().map_err(refuse)?.color;
            picked.push(format!("{color:?}"));
            note!(args, "picked {color:?}");
        } else {
            note!(args, "no color");
        }
        let again = if ask!(again = elicit::<Yes>(format!("Again after {picked:?}?"))).ok().is_some_and(|y| y.yes) {
            note!(args, "again");
            "again"
        } else {
            "done"
        };
        Ok(format!("{picked:?} {again}"))
    }

    if_let_bindings(args) => {
        let maybe = if args.n > 0 { Some(format!("item{}", args.n)) } else { None };
        let out = if let Some(name) = maybe.clone() {
            note!(args, "have {name}");
            let count = ask!(count = elicit::<Num>(format!("How many {name}?"))).accepted().map_err(refuse)?.num;
            note!(args, "{count} of {name}");
            format!("{count}x{name}")
        } else {
            let fallback = ask!(fallback = elicit::<Text>("Nothing given; a name?")).accepted().map_err(refuse)?.text;
            note!(args, "fallback {fallback}");
            fallback
        };
        let sure = ask!(sure = elicit::<Yes>(format!("Sure about {out}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{out} {sure} {maybe:?}"))
    }

    if_let_else_if_let(args) => {
        let primary = if args.n % 2 == 0 { Some(args.n) } else { None };
        let label = if let Some(p) = primary {
            let t = ask!(primary = elicit::<Text>(format!("Label for primary {p}?"))).accepted().map_err(refuse)?.text;
            format!("{t}{p}")
        } else if let Some(s) = (args.n > 2).then(|| format!("s{}", args.n)) {
            note!(args, "secondary {s}");
            let ok = ask!(secondary = elicit::<Yes>(format!("Use {s}?"))).ok().is_some_and(|y| y.yes);
            if ok { s } else { "none".to_string() }
        } else {
            "plain".to_string()
        };
        note!(args, "label {label}");
        Ok(label)
    }

    match_tuple_guard(args) => {
        let value = match (args.n % 3, format!("p{}", args.n)) {
            (0, label) => {
                note!(args, "zero {label}");
                label
            }
            (1 | 2, label) if args.n > 3 => {
                let extra = ask!(extra = elicit::<Text>(format!("Extra for {label}?"))).accepted().map_err(refuse)?.text;
                note!(args, "guarded {label} {extra}");
                format!("{label}+{extra}")
            }
            (k, label) => {
                note!(args, "fallback arm {k}");
                let num = ask!(num = elicit::<Num>(format!("Number for {label} ({k})?"))).accepted().map_err(refuse)?.num;
                format!("{label}#{}", num + k as i64)
            }
        };
        let confirm = ask!(confirm = elicit::<Yes>(format!("Keep {value}?"))).ok().is_some_and(|y| y.yes);
        note!(args, "kept {confirm}");
        Ok(format!("{value} {confirm}"))
    }

    match_struct_and_enum(args) => {
        let shape = match args.n { 0 => Shape::Empty, 1 => Shape::Circle { r: 2 }, n => Shape::Rect(n as i64, 3) };
        let area = match shape {
            Shape::Circle { r } => {
                let scale = ask!(scale = elicit::<Num>(format!("Scale circle r={r}?"))).accepted().map_err(refuse)?.num;
                3 * r * r * scale
            }
            Shape::Rect(w, h) if w == h => w * w,
            Shape::Rect(w, h) => {
                note!(args, "rect {w}x{h}");
                let ok = ask!(rect = elicit::<Yes>(format!("Rectangle {w}x{h}?"))).ok().is_some_and(|y| y.yes);
                if ok { w * h } else { 0 }
            }
            Shape::Empty => return Ok("empty".to_string()),
        };
        note!(args, "area {area}");
        let unit = ask!(unit = elicit::<Text>(format!("Unit for {area}?"))).accepted().map_err(refuse)?.text;
        Ok(format!("{area}{unit}"))
    }

    match_slice_patterns(args) => {
        let nums = (1..=args.n).map(|i| i as i64 * 10).collect::<Vec<_>>();
        let described = match nums.as_slice() {
            [] => "none".to_string(),
            &[only] => {
                let k = ask!(only = elicit::<Num>(format!("Only {only}; multiply by?"))).accepted().map_err(refuse)?.num;
                format!("{}", only * k)
            }
            &[first, .., last] if last - first > 20 => {
                note!(args, "wide {first}..{last}");
                let ok = ask!(wide = elicit::<Yes>(format!("Span {first}..{last}?"))).ok().is_some_and(|y| y.yes);
                format!("{first}-{last}:{ok}")
            }
            &[first, second, ..] => {
                let t = ask!(pair = elicit::<Text>(format!("Pair {first},{second}?"))).accepted().map_err(refuse)?.text;
                format!("{t}{}", first + second)
            }
        };
        note!(args, "nums {nums:?}");
        let end = ask!(end = elicit::<Text>(format!("End after {described}?"))).ok().map(|t| t.text);
        Ok(format!("{described} {end:?}"))
    }

    loop_break_value(args) => {
        let mut tries = 0;
        let found = loop {
            tries += 1;
            note!(args, "try {tries}");
            let guess = ask!(guess = elicit::<Num>(format!("Guess #{tries}?"))).accepted().map_err(refuse)?.num;
            if guess == args.n as i64 {
                break guess * 10;
            }
            if tries >= 3 {
                break -1;
            }
            note!(args, "wrong {guess}");
        };
        let sure = ask!(sure = elicit::<Yes>(format!("Found {found} after {tries}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{found} {tries} {sure}"))
    }

    labeled_loops(args) => {
        let mut log = Vec::new();
        let mut row = 0;
        'outer: loop {
            row += 1;
            if row > args.n {
                break;
            }
            for col in 0..3 {
                let cell = ask!(cell = elicit::<Num>(format!("Cell {row},{col}?"))).accepted().map_err(refuse)?.num;
                note!(args, "cell {row} {col} {cell}");
                match cell {
                    ..0 => break 'outer,
                    0 => continue 'outer,
                    _ => log.push(cell),
                }
            }
            note!(args, "row {row} done");
        }
        Ok(format!("{log:?} {row}"))
    }

    labeled_break_value_from_while(args) => {
        let mut grid = BTreeMap::new();
        let mut r = 0;
        let hit = 'search: loop {
            if r >= args.n {
                break None;
            }
            let mut c = 0;
            while c < 2 {
                let v = ask!(v = elicit::<Num>(format!("Value at {r}/{c}?"))).accepted().map_err(refuse)?.num;
                grid.insert(format!("{r}/{c}"), v);
                if v == 7 {
                    break 'search Some((r, c));
                }
                c += 1;
            }
            r += 1;
        };
        note!(args, "grid {grid:?}");
        Ok(format!("{hit:?} {}", grid.len()))
    }

    while_with_asks(args) => {
        let mut total = args.n as i64;
        let mut rounds = 0;
        while ask!(more = elicit::<Yes>(format!("Continue after {total}?"))).ok().is_some_and(|y| y.yes) {
            rounds += 1;
            let add = ask!(add = elicit::<Num>(format!("Add #{rounds}?"))).accepted().map_err(refuse)?.num;
            total += add;
            note!(args, "total {total}");
        }
        Ok(format!("{rounds}:{total}"))
    }

    while_let_pop(args) => {
        let mut stack = Vec::new();
        for i in 0..args.n {
            stack.push(format!("job{i}"));
        }
        let mut done = Vec::new();
        while let Some(job) = stack.pop() {
            note!(args, "popped {job}");
            let ok = ask!(run = elicit::<Yes>(format!("Run {job}? {} left", stack.len()))).ok().is_some_and(|y| y.yes);
            if ok {
                done.push(job);
            } else {
                note!(args, "skip {job}");
            }
        }
        Ok(format!("{done:?}"))
    }

    while_let_ask_in_condition(args) => {
        let mut items = BTreeMap::new();
        while let Some(qty) = ask!(qty = elicit::<Num>(format!("Quantity ({} so far)?", items.len()))).ok().map(|q| q.num).filter(|q| *q > 0) {
            let name = ask!(name = elicit::<Text>(format!("Name for {qty}?"))).accepted().map_err(refuse)?.text;
            let name = name.trim().to_string();
            note!(args, "item {name} {qty}");
            *items.entry(name).or_insert(0) += qty;
        }
        Ok(format!("{items:?} {}", args.n))
    }

    for_over_vec(args) => {
        let names = vec!["ann".to_string(), "bob".to_string(), "cy".to_string()];
        let mut greeted = Vec::new();
        for name in names {
            if greeted.len() as u32 >= args.n {
                break;
            }
            let hello = ask!(hello = elicit::<Text>(format!("Greeting for {name}?"))).accepted().map_err(refuse)?.text;
            note!(args, "{hello} {name}");
            greeted.push(format!("{hello} {name}"));
        }
        Ok(greeted.join(", "))
    }

    for_range_mutation(args) => {
        let mut counts = HashMap::new();
        let mut sum = 0;
        for i in 1..=args.n {
            let c = ask!(color = elicit::<Pick>(format!("Color #{i} (sum {sum})?"))).accepted().map_err(refuse)?.color;
            *counts.entry(format!("{c:?}")).or_insert(0) += 1;
            sum += i;
            note!(args, "i={i} sum={sum}");
        }
        let mut keys = counts.into_iter().collect::<Vec<_>>();
        keys.sort();
        Ok(format!("{sum} {keys:?}"))
    }

    for_iter_cloned_enumerate(args) => {
        let tags = vec!["x".to_string(), "y".to_string(), "z".to_string()];
        let mut answers = BTreeMap::new();
        for (i, tag) in tags.iter().cloned().enumerate() {
            if i as u32 == args.n {
                continue;
            }
            let v = ask!(tag = elicit::<Num>(format!("Value of {tag} ({i} of {})?", tags.len()))).accepted().map_err(refuse)?.num;
            answers.insert(tag, v + i as i64);
        }
        note!(args, "tags still {tags:?}");
        Ok(format!("{answers:?}"))
    }

    for_filtered_tuples(args) => {
        let prices = vec![("tea".to_string(), 3), ("cake".to_string(), 5), ("pie".to_string(), 8)];
        let mut bill = 0;
        for (item, price) in prices.iter().filter(|(_, p)| *p as u32 > args.n).cloned() {
            let qty = ask!(qty = elicit::<Num>(format!("How many {item} at {price}?"))).accepted().map_err(refuse)?.num;
            bill += qty * price;
            note!(args, "{item} x{qty}");
        }
        Ok(format!("bill {bill} of {}", prices.len()))
    }

    ask_in_match_in_for_in_if(args) => {
        let mut out = Vec::new();
        if args.n > 0 {
            note!(args, "nested start");
            for i in 0..args.n {
                match i % 3 {
                    0 => out.push(ask!(zero = elicit::<Text>(format!("Zero-class {i}?"))).accepted().map_err(refuse)?.text),
                    1 => out.push(format!("one{i}")),
                    r => {
                        let y = ask!(rest = elicit::<Yes>(format!("Rest {r} at {i}?"))).ok().is_some_and(|y| y.yes);
                        out.push(format!("{r}{y}"));
                    }
                }
                note!(args, "after {i}");
            }
        } else {
            let why = ask!(why = elicit::<Text>("Why zero?")).ok().map(|t| t.text).unwrap_or_default();
            out.push(why);
        }
        Ok(out.join("|"))
    }

    let_else(args) => {
        let raw = ask!(raw = elicit::<Text>("Give 'name:age'?")).accepted().map_err(refuse)?.text;
        let Some((name, age)) = raw.split_once(':').map(|(n, a)| (n.to_string(), a.to_string())) else {
            note!(args, "no colon");
            return Err(format!("bad input {raw}"));
        };
        let Ok(age) = age.trim().parse::<u32>() else {
            return Err(format!("bad age {age}"));
        };
        note!(args, "{name} is {age}");
        let person = Person { name, age };
        let ok = ask!(ok = elicit::<Yes>(format!("Is this right: {person:?}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{person:?} {ok}"))
    }

    let_else_in_loop(args) => {
        let mut good = Vec::new();
        for i in 0..args.n {
            let Some(n) = ask!(entry = elicit::<Num>(format!("Entry {i} after {good:?}?"))).ok().map(|n| n.num) else {
                note!(args, "skipped {i}");
                continue;
            };
            let Ok(small) = u8::try_from(n) else {
                note!(args, "too big {n}");
                break;
            };
            good.push(small);
        }
        Ok(format!("{good:?}"))
    }

    destructuring_lets(args) => {
        let (left, right) = (format!("L{}", args.n), args.n * 2);
        let Point { x, y } = Point { x: 3, y: args.n as i64 };
        let [first, second, third] = [x, y, 7];
        let a = ask!(a = elicit::<Num>(format!("{left} {right} {x} {y}?"))).accepted().map_err(refuse)?.num;
        note!(args, "after a {first} {second}");
        let (mut acc, tag) = (a + x, left.clone());
        acc += y;
        let b = ask!(b = elicit::<Num>(format!("acc {acc} tag {tag}?"))).accepted().map_err(refuse)?.num;
        acc += b + third;
        Ok(format!("{left} {right} {acc} {tag}"))
    }

    shadowing_across_asks(args) => {
        let name = ask!(name = elicit::<Text>("Name?")).accepted().map_err(refuse)?.text;
        let name = name.trim().to_string();
        note!(args, "trimmed {name}");
        let name = ask!(again = elicit::<Text>(format!("Really '{name}'?"))).ok().map(|t| t.text).unwrap_or(name);
        let name = name.to_uppercase();
        let count = ask!(count = elicit::<Num>(format!("Count for {name}?"))).accepted().map_err(refuse)?.num;
        Ok(format!("{name}{count}"))
    }

    shadowing_in_loop(args) => {
        let mut seen = Vec::new();
        let mut i = 0;
        loop {
            i += 1;
            let word = ask!(word = elicit::<Text>(format!("Word {i}?"))).accepted().map_err(refuse)?.text;
            let word = word.trim().to_lowercase();
            if word == "stop" {
                note!(args, "stop at {i}");
                break;
            }
            let word = format!("{word}{i}");
            if ask!(keep = elicit::<Yes>(format!("Keep {word}?"))).ok().is_some_and(|y| y.yes) {
                seen.push(word);
            }
            note!(args, "end of {i}");
            if i >= args.n {
                break;
            }
        }
        Ok(format!("{seen:?}"))
    }

    collections_inferred(args) => {
        let mut names = Vec::new();
        let mut person = Person { name: String::new(), age: args.n };
        let (mut index, mut ordered) = (HashMap::new(), BTreeMap::new());
        let mut pair = (0, String::new());
        let mut best = None;
        let first = ask!(first = elicit::<Text>("First name?")).accepted().map_err(refuse)?.text;
        names.push(first.clone());
        index.insert(first.clone(), 1);
        ordered.insert(1, first.clone());
        (pair.0, pair.1, person.name) = (1, first.clone(), first);
        note!(args, "{names:?} {index:?} {ordered:?}");
        let age = ask!(age = elicit::<Num>(format!("Age of {} ({pair:?})?", person.name))).accepted().map_err(refuse)?.num;
        person.age = age as u32;
        if age > 18 {
            note!(args, "adult");
            best = Some(person.clone());
        }
        let last = ask!(last = elicit::<Text>(format!("Last name of {}?", person.name))).ok().map(|t| t.text);
        ordered.extend(last.clone().map(|last| (2, last)));
        Ok(format!("{names:?} {person:?} {:?} {ordered:?} {pair:?} {best:?} {last:?}", index.get(&person.name)))
    }

    moved_before_ask(args) => {
        let s = format!("run{}", args.n);
        let len = consume(s);
        let a = ask!(a = elicit::<Num>(format!("len {len}?"))).accepted().map_err(refuse)?.num;
        let p = Person { name: format!("p{a}"), age: args.n };
        let n = p.name;
        note!(args, "moved name {n}");
        let b = ask!(b = elicit::<Text>(format!("About {n}?"))).accepted().map_err(refuse)?.text;
        Ok(format!("{len} {n} {b}"))
    }

    assignment_and_argument_asks(args) => {
        let mut current = args.n as i64;
        note!(args, "start {current}");
        current = ask!(set = elicit::<Num>(format!("Replace {current}?"))).accepted().map_err(refuse)?.num;
        let shown = describe(ask!(describe = elicit::<Pick>(format!("Color for {current}?"))));
        note!(args, "{shown}");
        record(&args.run, ask!(record = elicit::<Text>("Record what?")).ok());
        current += ask!(add = elicit::<Num>("Add?")).ok().map(|n| n.num).unwrap_or(0);
        Ok(format!("{current} {shown}"))
    }

    decline_and_cancel(args) => {
        let first = ask!(first = elicit::<Text>("First?")).accepted().map_err(|r| format!("{:?} at {}", r.action, r.key))?.text;
        note!(args, "first {first}");
        let second = match ask!(second = elicit::<Num>("Second?")) {
            Elicited::Accept(Num { num }) => num,
            Elicited::Decline(_) => {
                note!(args, "declined second");
                0
            }
            Elicited::Cancel(r) => return Err(format!("cancelled {}", r.key)),
        };
        let third = ask!(third = elicit::<Yes>(format!("{first} {second}?"))).accepted().map_err(refuse)?;
        Ok(format!("{first} {second} {} {}", third.yes, args.n))
    }

    for_over_btreemap(args) => {
        let mut scores = BTreeMap::new();
        scores.insert("amy".to_string(), 1);
        scores.insert("ben".to_string(), args.n as i64);
        for (who, score) in scores.clone() {
            let bonus = ask!(bonus = elicit::<Num>(format!("Bonus for {who} (has {score}, total {})?", scores.values().sum::<i64>()))).accepted().map_err(refuse)?.num;
            scores.insert(who.clone(), score + bonus);
            note!(args, "{who} -> {}", score + bonus);
        }
        Ok(format!("{scores:?}"))
    }

    loop_in_match_in_while(args) => {
        let (mut budget, mut bought) = (args.n as i64, Vec::new());
        while budget > 0 {
            match ask!(what = elicit::<Pick>(format!("Buy what with {budget}?"))) {
                Elicited::Accept(Pick { color: Color::Red }) => {
                    let mut tries = 0;
                    let price = loop {
                        tries += 1;
                        let p = ask!(price = elicit::<Num>(format!("Price of red (try {tries})?"))).accepted().map_err(refuse)?.num;
                        if p > 0 || tries == 2 { break p.max(1); }
                    };
                    budget -= price;
                    bought.push(format!("red@{price}"));
                }
                Elicited::Accept(Pick { color }) => bought.push(format!("{color:?}@{}", budget.min(1))),
                Elicited::Decline(_) | Elicited::Cancel(_) => break,
            }
            budget -= 1;
            note!(args, "budget {budget}");
        }
        Ok(format!("{bought:?} {budget}"))
    }

    return_inside_for(args) => {
        let mut acc = Vec::new();
        for i in 0..4 {
            let v = ask!(v = elicit::<Num>(format!("v{i} (acc {acc:?})?"))).accepted().map_err(refuse)?.num;
            if v == args.n as i64 {
                note!(args, "hit at {i}");
                return Ok(format!("hit {i} {acc:?}"));
            }
            acc.push(v);
        }
        note!(args, "no hit");
        Ok(format!("miss {acc:?}"))
    }

    for_binding_moved(args) => {
        let names = vec![format!("a{}", args.n), "bb".to_string()];
        let mut lens = Vec::new();
        for s in names {
            let n = consume(s);
            let k = ask!(k = elicit::<Num>(format!("len {n}?"))).accepted().map_err(refuse)?.num;
            lens.push(n as i64 + k);
        }
        let mut stack = vec!["x".to_string(), "yy".to_string()];
        while let Some(job) = stack.pop() {
            let n = consume(job);
            let ok = ask!(ok = elicit::<Yes>(format!("job of {n}, {} left?", stack.len()))).ok().is_some_and(|y| y.yes);
            note!(args, "{n} {ok}");
        }
        Ok(format!("{lens:?}"))
    }

    statement_asks_and_tails(args) => {
        ask!(ack = elicit::<Yes>("Acknowledge?"));
        note!(args, "acked");
        let _ = ask!(ignored = elicit::<Text>("Ignored?"));
        {
            let inner = ask!(inner = elicit::<Num>("Inner?")).accepted().map_err(refuse)?.num;
            note!(args, "inner {inner}");
        }
        if args.n == 1 {
            return Ok(ask!(early = elicit::<Text>("Early?")).accepted().map_err(refuse)?.text);
        }
        Ok(ask!(last = elicit::<Text>("Last?")).accepted().map_err(refuse)?.text)
    }

    nested_match_same_names(args) => {
        let outer = (args.n > 0).then(|| format!("o{}", args.n));
        let res = match outer.clone() {
            Some(x) => {
                let a = ask!(a = elicit::<Num>(format!("outer {x}?"))).accepted().map_err(refuse)?.num;
                match (a > 0).then(|| a * 2) {
                    Some(x) => {
                        note!(args, "inner {x}");
                        let b = ask!(b = elicit::<Text>(format!("inner {x}?"))).accepted().map_err(refuse)?.text;
                        format!("{x}{b}")
                    }
                    None => format!("none {x}"),
                }
            }
            None => "nothing".to_string(),
        };
        Ok(format!("{res} {outer:?}"))
    }

    arm_mut_at_or(args) => {
        let shape = match args.n { 0 => Shape::Circle { r: 4 }, 1 => Shape::Empty, n => Shape::Rect(n as i64, 2) };
        let side = match shape.clone() {
            Shape::Rect(w, _) | Shape::Circle { r: w } if w > 3 => {
                let k = ask!(big = elicit::<Num>(format!("Big side {w}?"))).accepted().map_err(refuse)?.num;
                w + k
            }
            Shape::Rect(mut w, h) => {
                w += h;
                let k = ask!(rect = elicit::<Num>(format!("Rect {w}?"))).accepted().map_err(refuse)?.num;
                w += k;
                w
            }
            other @ (Shape::Circle { .. } | Shape::Empty) => {
                let t = ask!(other = elicit::<Text>(format!("Other {other:?}?"))).accepted().map_err(refuse)?.text;
                t.len() as i64
            }
        };
        note!(args, "side {side} of {shape:?}");
        Ok(format!("{side}"))
    }

    for_over_asked_words(args) => {
        let mut out = Vec::new();
        for _ in 0..args.n {
            out.push("x".to_string());
        }
        for w in ask!(words = elicit::<Text>("Words?")).accepted().map_err(refuse)?.text.split_whitespace().map(str::to_string) {
            let n = ask!(times = elicit::<Num>(format!("Times for {w}?"))).accepted().map_err(refuse)?.num;
            note!(args, "{w} x{n}");
            for _ in 0..n {
                out.push(w.clone());
            }
        }
        for _ in 0..args.n {
            let t = ask!(extra = elicit::<Text>("Extra?")).accepted().map_err(refuse)?.text;
            out.push(t);
        }
        Ok(out.join(" "))
    }

    let_else_asks_in_else(args) => {
        let opt = (args.n > 0).then_some(args.n);
        let Some(v) = opt else {
            let why = ask!(why = elicit::<Text>("Why none?")).accepted().map_err(refuse)?.text;
            note!(args, "none because {why}");
            return Ok(why);
        };
        let k = ask!(k = elicit::<Num>(format!("v={v}?"))).accepted().map_err(refuse)?.num;
        Ok(format!("{v} {k}"))
    }

    elicited_held(args) => {
        let first = ask!(first = elicit::<Pick>("First color?"));
        let second = ask!(second = elicit::<Pick>(format!("Second after {first:?}?")));
        let both = match (first, second) {
            (Elicited::Accept(a), Elicited::Accept(b)) => format!("{:?}+{:?}", a.color, b.color),
            (Elicited::Accept(a), _) | (_, Elicited::Accept(a)) => format!("{:?}", a.color),
            _ => "none".to_string(),
        };
        note!(args, "{both}");
        Ok(both)
    }

    continue_to_while_cond(args) => {
        let mut seen = Vec::new();
        'w: while ask!(go = elicit::<Yes>(format!("Go on after {seen:?}?"))).ok().is_some_and(|y| y.yes) {
            for i in 0..2 {
                let v = ask!(v = elicit::<Num>(format!("v{i}?"))).accepted().map_err(refuse)?.num;
                if v == 0 {
                    note!(args, "restart at {i}");
                    continue 'w;
                }
                seen.push(v);
            }
            note!(args, "row done {}", args.n);
        }
        Ok(format!("{seen:?}"))
    }

    labeled_block(args) => {
        let v = 'blk: {
            let a = ask!(a = elicit::<Num>("A?")).accepted().map_err(refuse)?.num;
            if a > 0 {
                break 'blk a;
            }
            let b = ask!(b = elicit::<Num>("B?")).accepted().map_err(refuse)?.num;
            a + b
        };
        note!(args, "v {v}");
        Ok(format!("{v}"))
    }

    shadow_outer_in_loop(args) => {
        let word = format!("w{}", args.n);
        let mut count = 0;
        for i in 0..2 {
            let word = ask!(word = elicit::<Text>(format!("Word {i} (outer {word})?"))).accepted().map_err(refuse)?.text;
            let word = format!("{word}{i}");
            let ok = ask!(ok = elicit::<Yes>(format!("Keep {word}?"))).ok().is_some_and(|y| y.yes);
            if ok {
                count += 1;
            }
            note!(args, "{word} {ok}");
        }
        Ok(format!("{word} {count}"))
    }

    deep_nesting(args) => {
        let mut log = Vec::new();
        for round in 0..args.n {
            let mut queue = vec![round, round + 10];
            while let Some(item) = queue.pop() {
                match item % 2 {
                    0 if item > 5 => {
                        let y = ask!(big = elicit::<Yes>(format!("Big even {item} in {round}?"))).ok().is_some_and(|y| y.yes);
                        log.push(format!("{item}:{y}"));
                    }
                    0 => log.push(format!("small {item}")),
                    _ => loop {
                        let n = ask!(odd = elicit::<Num>(format!("Odd {item}?"))).accepted().map_err(refuse)?.num;
                        if n >= 0 { break log.push(format!("{item}#{n}")); }
                    },
                }
                note!(args, "item {item} done");
            }
        }
        Ok(log.join(","))
    }

    ask_positions(args) => {
        let mut names = Vec::new();
        names.push(ask!(first = elicit::<Text>("First?")).accepted().map_err(refuse)?.text);
        let base = args.n as i64;
        let sum = base + ask!(add = elicit::<Num>(format!("Add to {base}?"))).ok().map(|n| n.num).unwrap_or(0);
        let p = Point { x: ask!(px = elicit::<Num>(format!("x for {names:?}?"))).accepted().map_err(refuse)?.num, y: sum };
        let pair = (-ask!(neg = elicit::<Num>("Negate?")).accepted().map_err(refuse)?.num, p.y);
        let doubled = double(ask!(dbl = elicit::<Num>(format!("Double with {pair:?}?"))).accepted().map_err(refuse)?.num).await;
        let maybe = Some(ask!(opt = elicit::<Yes>("Opt?")).ok().is_some_and(|y| y.yes));
        note!(args, "{names:?} {sum} {p:?} {pair:?} {doubled} {maybe:?}");
        Ok(format!("{} {}", names.len(), p.x))
    }

    returns_inside_ask_arms(args) => {
        let v = match (args.n > 0).then_some(args.n) {
            Some(n) => {
                let t = ask!(t = elicit::<Text>(format!("{n}?"))).accepted().map_err(refuse)?.text;
                if t.is_empty() {
                    return Ok(t);
                }
                t.len() as u32
            }
            None => 0,
        };
        if v > 5 {
            let u = ask!(u = elicit::<Text>("U?")).accepted().map_err(refuse)?.text;
            note!(args, "long {v}");
            return Ok(u);
        }
        let msg = format!("Second {v}?");
        let a = ask!(a = elicit::<Num>(msg)).ok().map(|n| n.num);
        Ok(format!("{v} {a:?}"))
    }

    discarded_answers(args) => {
        let mut count = 0;
        let _ = ask!(ignored = elicit::<Yes>("Ignored?"));
        count += 1;
        let mut stack = vec![1, 2];
        while let Some(_) = stack.pop() {
            ask!(w = elicit::<Yes>(format!("W with {} left?", stack.len())));
            count += 1;
        }
        match args.n {
            1 => {
                ask!(m = elicit::<Yes>("M?"));
            }
            _ => note!(args, "other"),
        }
        for (i, _) in vec![("a".to_string(), 1)].into_iter().enumerate() {
            ask!(f = elicit::<Yes>(format!("F{i} after {count}?")));
        }
        Ok(format!("{count}"))
    }

    patterns_shadow_outer(args) => {
        let item = format!("outer{}", args.n);
        let mut got = Vec::new();
        for item in vec!["a".to_string(), "b".to_string()] {
            let t = ask!(each = elicit::<Text>(format!("{item}?"))).accepted().map_err(refuse)?.text;
            got.push(format!("{item}{t}"));
        }
        match (args.n > 0).then(|| args.n * 3) {
            Some(item) => {
                let k = ask!(arm = elicit::<Num>(format!("arm {item}?"))).accepted().map_err(refuse)?.num;
                got.push(format!("{item}/{k}"));
            }
            None => got.push("none".to_string()),
        }
        let mut queue = vec![7];
        while let Some(item) = queue.pop() {
            let ok = ask!(pop = elicit::<Yes>(format!("pop {item}?"))).ok().is_some_and(|y| y.yes);
            got.push(format!("{item}:{ok}"));
        }
        note!(args, "{got:?}");
        Ok(format!("{item} {got:?}"))
    }

    while_condition_effects(args) => {
        let mut i = 0;
        let mut sum = 0;
        while {
            note!(args, "test {i}");
            i < args.n
        } {
            let v = ask!(v = elicit::<Num>(format!("v{i} (sum {sum})?"))).accepted().map_err(refuse)?.num;
            sum += v;
            i += 1;
        }
        Ok(format!("{i} {sum}"))
    }

    tail_match_and_nested_for(args) => {
        let rows = vec![vec!["a".to_string(), "b".to_string()], vec!["c".to_string()]];
        let mut seen = Vec::new();
        'rows: for row in rows {
            for cell in row {
                let Some(ok) = ask!(cell = elicit::<Yes>(format!("Cell {cell} after {seen:?}?"))).ok() else {
                    continue 'rows;
                };
                seen.push(format!("{cell}{}", ok.yes));
            }
            note!(args, "row done");
        }
        match args.n {
            0 => Ok(ask!(zero = elicit::<Text>(format!("Zero after {seen:?}?"))).accepted().map_err(refuse)?.text),
            n if n > 5 => Err(format!("too big {n}")),
            n => {
                let t = ask!(other = elicit::<Text>(format!("Other {n}?"))).accepted().map_err(refuse)?.text;
                Ok(format!("{t} {seen:?}"))
            }
        }
    }

    // Bodies that once failed: a binding consumed inside the statement that asks, by a
    // scrutinee, a nested block or a `for`, is saved from a snapshot taken before it; names
    // are resolved past closure parameters, field names and format-width captures.
    scrutinee_moved_by_if_let(args) => {
        let maybe = (args.n > 0).then(|| format!("x{}", args.n));
        if let Some(name) = maybe {
            ask!(k = elicit::<Yes>(format!("{name}?")));
        }
        Ok(String::new())
    }

    moved_in_nested_block(args) => {
        let s = format!("x{}", args.n);
        if args.n > 0 {
            let len = consume(s);
            ask!(k = elicit::<Yes>(format!("{len}?")));
        }
        Ok(String::new())
    }

    vec_moved_into_for_in_branch(args) => {
        let names = vec!["a".to_string(), "b".to_string()];
        if args.n > 0 {
            for name in names {
                ask!(k = elicit::<Yes>(format!("{name}?")));
            }
        }
        Ok(String::new())
    }

    arm_binding_moved(args) => {
        match (args.n > 0).then(|| format!("x{}", args.n)) {
            Some(s) => {
                let n = consume(s);
                ask!(k = elicit::<Yes>(format!("{n}?")));
            }
            None => {}
        }
        Ok(String::new())
    }

    dead_reference_arm_binding(args) => {
        let names = vec![format!("n{}", args.n)];
        if let Some(first) = names.first() {
            let first = first.clone();
            ask!(k = elicit::<Yes>(format!("{first}?")));
        }
        Ok(format!("{names:?}"))
    }

    same_name_closure_param(args) => {
        let item = format!("x{}", args.n);
        let len = consume(item);
        ask!(k = elicit::<Yes>(format!("{len}?")));
        Ok(["ab"].iter().map(|item| item.len()).sum::<usize>().to_string())
    }

    field_name_in_macro(args) => {
        let name = format!("p{}", args.n);
        let p = Person { name, age: args.n };
        ask!(k = elicit::<Yes>(format!("{}?", p.name)));
        Ok(String::new())
    }

    format_width(args) => {
        let width = 6;
        let name = ask!(name = elicit::<Text>("Name?")).accepted().map_err(refuse)?.text;
        Ok(format!("[{name:>width$}] {}", args.n))
    }

    // A re-created closure made after a change, in the statement that asks, reads the local as
    // it is at the ask: the local is saved there, not snapshotted before the statement.
    closure_made_after_a_change_in_the_asking_statement(args) => {
        let mut attempts = 0;
        if args.n > 0 {
            attempts += 1;
            let fail = |r: mrtr::Refused| format!("cancelled after {attempts} at {}", r.key);
            let name = ask!(name = elicit::<Text>("Name?")).accepted().map_err(fail)?.text;
            return Ok(name);
        }
        Ok(String::new())
    }

    closure_through_a_closure(args) => {
        let mut total = args.n;
        if args.n > 0 {
            total += 10;
            let show = || format!("total {total}");
            let line = |tag: &str| format!("{tag}: {}", show());
            let more = ask!(more = elicit::<Yes>("More?")).accepted().map_err(refuse)?.yes;
            note!(args, "{}", line("after"));
            return Ok(line(if more { "yes" } else { "no" }));
        }
        Ok(String::new())
    }

    // An open range keeps where it has got to, as a bounded one keeps its bounds.
    open_range_until_an_answer_fits(args) => {
        let mut tries = Vec::new();
        for attempt in args.n.. {
            let num = ask!(num = elicit::<Num>(format!("Try {attempt}?"))).accepted().map_err(refuse)?.num;
            tries.push(num);
            if num > 10 {
                note!(args, "done at {attempt}");
                break;
            }
        }
        Ok(format!("{tries:?}"))
    }

    // A moved local's name inside a macro after the ask, as a named argument, a field or a
    // pattern's binding, is not a read of the local.
    moved_name_in_macros_after_the_ask(args) => {
        let name = format!("p{}", args.n);
        let p = Person { name, age: args.n };
        let yes = ask!(k = elicit::<Yes>(format!("Keep {}?", p.name))).accepted().map_err(refuse)?.yes;
        tracing::info!(name = %p.name, age = p.age, "kept {yes}");
        let long = matches!(&p, Person { name, .. } if name.len() > 1);
        note!(args, "{}", format!("{name}", name = p.age));
        Ok(format!("{} {long} {yes}", p.name))
    }

    // A `macro_rules!` of the body reads what it names, wherever it is used: those bindings
    // are saved at the asks before its uses, and the macro is seen after them. An item among
    // bindings that die before an ask is still seen after it.
    items_in_the_body(args) => {
        let secret = args.n * 2;
        let scratch = format!("s{}", args.n);
        fn helper(n: i64) -> i64 {
            n + 1
        }
        macro_rules! show {
            () => {
                format!("secret {}", secret)
            };
            ($extra:expr) => {
                format!("secret {} and {}", secret, $extra)
            };
        }
        note!(args, "{} {scratch}", show!());
        let a = ask!(a = elicit::<Num>(show!("a?"))).accepted().map_err(refuse)?.num;
        fn double(n: i64) -> i64 {
            n * 2
        }
        let b = ask!(b = elicit::<Num>(show!(a))).accepted().map_err(refuse)?.num;
        Ok(format!("{} {} {}", show!(double(a + b)), double(b), helper(a)))
    }

    // A `Cell` or `RefCell` is a plain value to save; holding one needs no `Sync`.
    cells_held_across_asks(args) => {
        let counter = std::cell::RefCell::new(vec![args.n]);
        let total = std::cell::Cell::new(0i64);
        for round in 0..args.n {
            let num = ask!(num = elicit::<Num>(format!("Number {round}?"))).accepted().map_err(refuse)?.num;
            counter.borrow_mut().push(round);
            total.set(total.get() + num);
        }
        Ok(format!("{:?} {}", counter.borrow(), total.get()))
    }

    // A local changed in a block, then passed to the statement that asks, before the ask: on
    // resume that statement reads it again, as it was at the ask, not before the block.
    changed_in_a_block_then_consumed_by_the_asking_statement(args) => {
        let mut x = vec![args.n];
        if args.n > 0 {
            x.push(1);
            let total = sum_with(x, ask!(a = elicit::<Num>("a?")).accepted().map_err(refuse)?.num);
            return Ok(total);
        }
        Ok("none".into())
    }

    changed_in_a_block_then_borrowed_by_the_asking_statement(args) => {
        let mut draft = vec![args.n];
        let mut count = i64::from(args.n);
        let out = if args.n > 0 {
            draft.push(7);
            count += 5;
            let a = len_with(&draft, ask!(a = elicit::<Num>("a?")).accepted().map_err(refuse)?.num);
            let b = count + ask!(b = elicit::<Num>("b?")).accepted().map_err(refuse)?.num;
            format!("{a} {b}")
        } else {
            String::new()
        };
        Ok(out)
    }

    changed_by_the_scrutinee_then_consumed_in_an_arm(args) => {
        let mut x = vec![args.n, args.n + 1];
        let out = match x.pop() {
            Some(last) => sum_with(x, ask!(a = elicit::<Num>("a?")).accepted().map_err(refuse)?.num + i64::from(last)),
            None => "empty".into(),
        };
        Ok(out)
    }

    // An arm that asks and one that moves what the first asks about: only one runs.
    an_arm_moves_what_another_asks_about(args) => {
        let s = format!("t{}", args.n);
        let out = match args.n {
            0 => format!("moved {}", consume(s)),
            _ => {
                let a = ask!(a = elicit::<Num>(format!("About {s}?"))).accepted().map_err(refuse)?.num;
                format!("{s} {a}")
            }
        };
        let first = args.n.checked_sub(1);
        let t = format!("u{}", args.n);
        let out = if let Some(first) = first {
            let b = ask!(b = elicit::<Num>(format!("About {t} after {first}?"))).accepted().map_err(refuse)?.num;
            format!("{out} {t} {b}")
        } else {
            format!("{out} {}", consume(t))
        };
        // An arm that binds and moves.
        let u = format!("v{}", args.n);
        let label = format!("{}", args.n % 2);
        let last = match label.as_str() {
            "0" => {
                let c = ask!(c = elicit::<Num>(format!("About {u}?"))).accepted().map_err(refuse)?.num;
                format!("{u} {c}")
            }
            other => format!("{other} {}", consume(u)),
        };
        Ok(format!("{out} {last}"))
    }

    // The `else` of a `let .. else` asks, and the value is a call: on resume the `else` is
    // entered without calling again.
    let_else_asks_after_a_call(args) => {
        let mut total = 0;
        for word in [format!("{}", args.n), "x".to_owned(), format!("{}", args.n + 1)] {
            let (Ok(mut n), true) = (word.trim().parse::<i64>(), !word.is_empty()) else {
                let why = ask!(why = elicit::<Text>(format!("Why {word:?}?"))).accepted().map_err(refuse)?.text;
                note!(args, "skipped {word}: {why}");
                continue;
            };
            n += 1;
            total += n;
        }
        Ok(format!("{total}"))
    }

    // A compound assignment to an element or an entry: the answer comes first.
    compound_assignment_to_a_place(args) => {
        let mut counts = vec![0i64; 3];
        let mut by_name: BTreeMap<String, i64> = BTreeMap::new();
        for round in 0..args.n {
            counts[(round % 3) as usize] += ask!(n = elicit::<Num>(format!("Count {round}?"))).accepted().map_err(refuse)?.num;
            *by_name.entry(format!("r{}", round % 2)).or_insert(0) += ask!(m = elicit::<Num>(format!("More {round}?"))).accepted().map_err(refuse)?.num;
        }
        Ok(format!("{counts:?} {by_name:?}"))
    }

    // `break` carries an answer out of a labeled loop.
    break_with_an_answer(args) => {
        let mut tries = 0;
        let picked = 'outer: loop {
            tries += 1;
            for i in 0..2 {
                if tries > args.n {
                    break 'outer ask!(last = elicit::<Num>(format!("Last, after {tries}?"))).accepted().map_err(refuse)?.num;
                }
                note!(args, "try {tries} {i}");
            }
        };
        Ok(format!("{picked} after {tries}"))
    }

    // A closure declared among the statements of a `let` that dies before the ask is made
    // again after them: `tmp` is moved, `f` is used after the ask.
    closure_declared_beside_a_moved_local(args) => {
        let tmp = format!("t{}", args.n);
        let scale = i64::from(args.n);
        let f = |x: i64| x * scale;
        let len = consume(tmp);
        let a = ask!(a = elicit::<Num>(format!("Length {len}?"))).accepted().map_err(refuse)?.num;
        Ok(format!("{}", f(a)))
    }

    // The same, with the closure also called before the move.
    closure_called_beside_a_moved_local(args) => {
        let tmp = format!("t{}", args.n);
        let scale = i64::from(args.n);
        let f = |x: i64| x * scale;
        let first = f(1);
        let len = consume(tmp);
        let a = ask!(a = elicit::<Num>(format!("Length {len}, first {first}?"))).accepted().map_err(refuse)?.num;
        Ok(format!("{} {first}", f(a)))
    }

    // Patterns that take the name of what they unwrap: `if let Some(name) = name`,
    // `Ok(value) => ..` over `value`, `for item in vec![item, ..]`, and a `while let` whose
    // condition reads an outer binding its pattern's name hides in the body.
    a_pattern_takes_the_name_of_what_it_unwraps(args) => {
        let name = if args.n > 0 { Some(format!("t{}", args.n)) } else { None };
        let out = if let Some(name) = name {
            let a = ask!(a = elicit::<Num>(format!("a for {name}?"))).accepted().map_err(refuse)?.num;
            format!("{name}{a}")
        } else {
            "anon".to_owned()
        };
        let value: Result<u32, String> = if args.n % 2 == 0 { Ok(args.n) } else { Err(format!("odd {}", args.n)) };
        let out = match value {
            Ok(value) => {
                let k = ask!(k = elicit::<Num>(format!("k after {value}?"))).accepted().map_err(refuse)?.num;
                format!("{out} {value} {k}")
            }
            Err(value) => format!("{out} {value}"),
        };
        let item = format!("i{}", args.n);
        let mut items = Vec::new();
        for item in vec![item, "j".to_owned()] {
            let b = ask!(b = elicit::<Num>(format!("b {item}?"))).accepted().map(|b| b.num).unwrap_or(0);
            items.push(format!("{item}{b}"));
        }
        let top = format!("top{}", args.n);
        let mut stack = vec![1, 2];
        while let Some(top) = stack.pop().map(|n| format!("{top}/{n}")) {
            let c = ask!(c = elicit::<Num>(format!("c {top}?"))).accepted().map(|c| c.num).unwrap_or(0);
            note!(args, "{top} {c}");
        }
        Ok(format!("{out} {items:?} {top}"))
    }

    // A local that dies before the ask, not `Serialize` (an iterator), whose name a later
    // pattern takes again: it is not held.
    a_later_pattern_reuses_a_dead_name(args) => {
        let numbers: Vec<u32> = (0..args.n).collect();
        let it = numbers.iter();
        let count = it.count();
        let a = ask!(a = elicit::<Num>(format!("{count} numbers?"))).accepted().map_err(refuse)?.num;
        let mut sum = a;
        if let Some(it) = numbers.first() {
            sum += i64::from(*it);
        }
        for it in [1i64, 2] {
            sum += it;
        }
        match numbers.last() {
            Some(it) => note!(args, "last {it}"),
            None => note!(args, "none"),
        }
        Ok(format!("{count} {sum}"))
    }

    // The same with a `let` between the local and the `match` that is read afterwards, so the
    // local stays a local of the block; an `else` that reads the local it unwraps; a `ref`
    // binding in an arm that asks, over a local matched right after it is made.
    a_pattern_takes_the_name_of_a_local_that_stays(args) => {
        let mut out = Vec::new();
        for item in [args.n, args.n + 10] {
            let parsed: Result<u8, String> = u8::try_from(item * 20).map_err(|e| e.to_string());
            let label = format!("#{item}");
            let line = match parsed {
                Ok(parsed) => {
                    let a = ask!(a = elicit::<Num>(format!("a {label}?"))).accepted().map_err(refuse)?.num;
                    format!("{label} {parsed} {a}")
                }
                Err(parsed) => format!("{label} {parsed}"),
            };
            out.push(line);
        }
        let name = if args.n > 1 { Some(format!("t{}", args.n)) } else { None };
        let kept = name.clone();
        let greeting = if let Some(name) = name {
            let b = ask!(b = elicit::<Num>(format!("b {name}?"))).accepted().map_err(refuse)?.num;
            format!("{name} {b}")
        } else {
            format!("none {name:?}")
        };
        let pair = (args.n, format!("p{}", args.n));
        let sum = match pair {
            (n, ref label) if n > 0 => {
                let width = label.len() as i64;
                let c = ask!(c = elicit::<Num>("c?")).accepted().map_err(refuse)?.num;
                i64::from(n) * 100 + width * 10 + c
            }
            _ => -1,
        };
        Ok(format!("{out:?} {kept:?} {greeting} {sum}"))
    }

    // An `else` that moves what the asking branch reads, over a scrutinee that is a new value.
    an_else_moves_what_the_asking_branch_reads(args) => {
        let mut w = vec![args.n];
        if let Some(last) = w.last().copied().filter(|_| args.n > 0) {
            let a = ask!(a = elicit::<Num>(format!("a {w:?}?"))).accepted().map_err(refuse)?.num;
            w.push(last + a as u32);
            note!(args, "{w:?}");
        } else {
            note!(args, "moved {}", sum_with(w, 1));
        }
        Ok("done".into())
    }

    // A local changed in a block, then read by a statement whose ask sits in a branch of an
    // argument: resuming evaluates the argument again, so it must see the change.
    changed_then_read_before_an_ask_in_a_branch(args) => {
        let mut out = Vec::new();
        for v in [args.n, args.n + 1] {
            let mut parts = vec![v];
            if v > 0 {
                parts.push(v * 10);
                out.push(sum_with(parts, if v > 1 { ask!(extra = elicit::<Num>(format!("Extra for {v}?"))).accepted().map(|n| n.num).unwrap_or(0) } else { 0 }));
            }
        }
        let mut x = i64::from(args.n);
        let r = {
            x += 10;
            add(x, if args.n > 1 { ask!(last = elicit::<Num>("Last?")).accepted().map(|n| n.num).unwrap_or(0) } else { 0 })
        };
        Ok(format!("{out:?} {r}"))
    }

    // An arm that does not ask, over an answer, moving what an asking arm asks about.
    an_arm_over_an_answer_moves_what_another_asks_about(args) => {
        let s = format!("t{}", args.n);
        let out = match ask!(a = elicit::<Num>("a?")) {
            Elicited::Accept(Num { num }) if num > 5 => {
                let b = ask!(b = elicit::<Num>(format!("b about {s}?"))).accepted().map_err(refuse)?.num;
                format!("{s} {num} {b}")
            }
            Elicited::Accept(Num { num }) => format!("{} {num}", consume(s)),
            Elicited::Decline(refused) | Elicited::Cancel(refused) => refuse(refused),
        };
        Ok(out)
    }

    // A `let` that asks while binding again the name of the local it unwraps: the old binding,
    // partly moved by the pattern, is not the one read after (sweep 25).
    rebinds_the_local_it_unwraps_while_asking(args) => {
        let city = (args.n % 2 == 1).then(|| format!("c{}", args.n));
        let city = match city {
            Some(city) => city,
            None => ask!(city = elicit::<Text>("City?")).accepted().map_err(refuse)?.text,
        };
        let zone = (args.n > 2).then(|| format!("z{}", args.n));
        let zone = if let Some(zone) = zone { zone } else {
            ask!(zone = elicit::<Text>(format!("Zone in {city}?"))).accepted().map_err(refuse)?.text
        };
        let street = (args.n > 4).then(|| format!("s{}", args.n));
        let Some(street) = street else {
            let fallback = ask!(street = elicit::<Text>("Street?")).accepted().map_err(refuse)?.text;
            return Ok(format!("{city} {zone} {fallback}"));
        };
        let later = Some(street.clone());
        let again = match later {
            Some(later) if later.len() > 9 => later,
            other => {
                let extra = ask!(extra = elicit::<Num>("Extra?")).accepted().map(|n| n.num).unwrap_or(0);
                format!("{other:?}+{extra}")
            }
        };
        let again = again.trim().to_owned();
        // A closure made after the rebinding reads the new binding (review).
        let shout = || city.to_uppercase();
        Ok(format!("{} {zone} {street} {again}", shout()))
    }

    // `#[cfg]` on statements around an ask: a value chosen with `cfg!`, a `let` used up before
    // the ask, and an ask compiled out (sweep 25; a `#[cfg]` `let` held across an ask is an
    // error, tests/ui/cfg_let_held_across_an_ask.rs).
    cfg_on_statements_around_an_ask(args) => {
        let mode = if cfg!(debug_assertions) { format!("debug{}", args.n) } else { format!("release{}", args.n) };
        #[cfg(debug_assertions)]
        let checked = args.n + 1;
        #[cfg(debug_assertions)]
        note!(args, "checked {checked}");
        #[cfg(any())]
        ask!(never = elicit::<Text>("Never asked?"));
        #[cfg(any())]
        ask!(never_either = elicit::<Text>("Never asked either?")).ok();
        #[cfg(any())]
        {
            ask!(nor = elicit::<Text>("Nor this?"));
        }
        #[cfg(debug_assertions)]
        ask!(asked = elicit::<Yes>("Asked in a debug build?"));
        // An attribute on a tail `ask!{..}` keeps its value (review).
        let kept = {
            #[cfg(all())]
            ask!{ kept = elicit::<Yes>("Kept?") }
        };
        let kept = kept.accepted().map(|yes| yes.yes).unwrap_or(false);
        let n = ask!(n = elicit::<Num>(format!("n for {mode}?"))).accepted().map_err(refuse)?.num;
        Ok(format!("{mode} {n} {kept}"))
    }

    // -----------------------------------------------------------------------------------------
    // Sweep 31: bodies a user would write, each different from those above.
    // -----------------------------------------------------------------------------------------

    owned_strings_loop_returns_midway(args) => {
        let words: Vec<String> = (0..args.n).map(|i| format!("w{i}")).collect();
        let mut kept = String::new();
        for word in words {
            let reply = ask!(reply = elicit::<Text>(format!("About {word} ({kept})?"))).accepted().map_err(refuse)?.text;
            if reply == "stop" {
                note!(args, "stopped at {word}");
                return Ok(format!("stopped {kept}"));
            }
            kept.push_str(&word);
            kept.push(':');
            kept += &reply;
            kept.push(' ');
        }
        Ok(kept)
    }

    parse_errors_between_asks(args) => {
        let raw = ask!(raw = elicit::<Text>("Count?")).accepted().map_err(refuse)?.text;
        let count: u8 = raw.trim().parse().map_err(|e: std::num::ParseIntError| format!("bad count {raw}: {e}"))?;
        note!(args, "count {count}");
        let mut total = u64::from(args.n);
        for k in 0..count {
            let part = ask!(part = elicit::<Text>(format!("Part {k} of {count} ({total})?"))).accepted().map_err(refuse)?.text;
            let v: u64 = part.parse().map_err(|_| format!("part {k} is not a number: {part}"))?;
            total = total.saturating_add(v);
            note!(args, "total {total}");
        }
        Ok(format!("{count} {total}"))
    }

    shadowing_that_changes_type(args) => {
        let x = args.n;
        let x = ask!(x = elicit::<Num>(format!("Base {x}?"))).accepted().map_err(refuse)?.num + i64::from(x);
        let x = x.to_string();
        let x = ask!(y = elicit::<Text>(format!("Suffix for {x}?"))).ok().map(|t| format!("{x}{}", t.text)).unwrap_or(x);
        note!(args, "x {x}");
        let x = x.len();
        let x = ask!(z = elicit::<Yes>(format!("Length {x}?"))).ok().map_or(x, |y| if y.yes { x * 2 } else { x });
        Ok(format!("{x}"))
    }

    answer_enum_arms_continue_or_break_with_value(args) => {
        let mut picks = Vec::new();
        let mut i = 0u32;
        let last = 'asking: loop {
            i += 1;
            if i > args.n + 1 {
                break 'asking None;
            }
            match ask!(pick = elicit::<Pick>(format!("Pick {i} after {picks:?}?"))).accepted().map(|p| p.color) {
                Ok(Color::Red) => {
                    let why = ask!(why = elicit::<Text>("Why red?")).accepted().map_err(refuse)?.text;
                    picks.push(format!("red:{why}"));
                }
                Ok(Color::Green) => continue 'asking,
                Ok(Color::Blue) => break 'asking Some(i),
                Err(refused) => {
                    note!(args, "refused {}", refused.key);
                    continue;
                }
            }
            note!(args, "end {i}");
        };
        Ok(format!("{picks:?} {last:?} {i}"))
    }

    nested_for_with_labeled_continue(args) => {
        let mut grid: Vec<Vec<i64>> = Vec::new();
        'rows: for r in 0..args.n {
            let mut row = Vec::new();
            for c in 0..3u32 {
                let v = ask!(cell = elicit::<Num>(format!("Cell {r},{c}?"))).accepted().map_err(refuse)?.num;
                if v < 0 {
                    note!(args, "short row {r}");
                    grid.push(row);
                    continue 'rows;
                }
                row.push(v);
            }
            grid.push(row);
        }
        Ok(format!("{grid:?}"))
    }

    while_let_stack_that_grows(args) => {
        let mut stack = vec![(0u32, format!("root{}", args.n))];
        let mut seen = Vec::new();
        while let Some((depth, name)) = stack.pop() {
            let kids = ask!(kids = elicit::<Num>(format!("Children of {name} at {depth}?"))).accepted().map_err(refuse)?.num;
            seen.push(format!("{name}/{kids}"));
            if depth < 2 {
                for k in 0..kids.clamp(0, 2) {
                    stack.push((depth + 1, format!("{name}.{k}")));
                }
            }
            note!(args, "stack {}", stack.len());
        }
        Ok(seen.join(" "))
    }

    accumulates_into_map_string_tuple_and_struct(args) => {
        let mut by_len: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        let mut log = String::new();
        let mut stats = (0usize, 0i64, false);
        let mut person = Person { name: String::new(), age: 0 };
        for i in 0..args.n.min(3) {
            let w = ask!(word = elicit::<Text>(format!("Word {i} ({log})?"))).accepted().map_err(refuse)?.text;
            by_len.entry(w.len()).or_default().push(w.clone());
            log.push_str(&w);
            log.push(',');
            stats.0 += 1;
            stats.1 += w.len() as i64;
            stats.2 |= w.is_empty();
            person.name = w;
            person.age += 1;
        }
        let last = ask!(last = elicit::<Num>(format!("Age for {}?", person.name))).accepted().map_err(refuse)?.num;
        person.age += u32::try_from(last).unwrap_or(0);
        Ok(format!("{by_len:?} {log} {stats:?} {person:?}"))
    }

    option_and_result_combinators_around_asks(args) => {
        let hint = (args.n > 1).then(|| args.n * 3).filter(|h| h % 2 == 0).map(|h| h.to_string());
        let got = ask!(got = elicit::<Text>(format!("Hint {hint:?}?"))).ok().map(|t| t.text).filter(|t| !t.is_empty()).or_else(|| hint.clone());
        let parsed = got.as_deref().map(parse_num).transpose();
        note!(args, "parsed {parsed:?}");
        let value = parsed.unwrap_or_default().unwrap_or(-1);
        let doubled = ask!(twice = elicit::<Yes>(format!("Double {value}?"))).ok().and_then(|y| y.yes.then_some(value * 2)).unwrap_or(value);
        Ok(format!("{hint:?} {got:?} {doubled}"))
    }

    if_let_on_a_reference_asks_in_both_branches(args) => {
        let saved = (args.n % 2 == 0).then(|| format!("saved{}", args.n));
        let result = if let Some(s) = saved.clone() {
            let ok = ask!(use_saved = elicit::<Yes>(format!("Use {s}?"))).ok().is_some_and(|y| y.yes);
            if ok { s } else { String::from("dropped") }
        } else {
            ask!(fresh = elicit::<Text>("Fresh value?")).accepted().map_err(refuse)?.text
        };
        note!(args, "result {result}");
        Ok(format!("{saved:?} {result}"))
    }

    lets_without_values_set_in_branches_one_asking(args) => {
        let greeting: String;
        if args.n > 2 {
            greeting = format!("hi{}", args.n);
        } else {
            greeting = ask!(greeting = elicit::<Text>("Greeting?")).accepted().map_err(refuse)?.text;
        }
        let times = if args.n > 2 { 2 } else { 1 };
        let name = ask!(name = elicit::<Text>(format!("Name for {greeting}?"))).accepted().map_err(refuse)?.text;
        Ok(greeting.repeat(times) + &name)
    }

    references_taken_after_an_ask(args) => {
        let names = vec![format!("a{}", args.n), "bee".to_owned(), "c".to_owned()];
        let limit = ask!(limit = elicit::<Num>("How many?")).accepted().map_err(refuse)?.num;
        let first = &names[0];
        let shown: Vec<&str> = names.iter().take(limit.clamp(0, 3) as usize).map(String::as_str).collect();
        let longest = names.iter().max_by_key(|s| s.len()).map(String::as_str).unwrap_or("");
        note!(args, "{first} {shown:?} {longest}");
        let head = names[0].clone();
        let tail = ask!(tail = elicit::<Text>(format!("After {head}?"))).accepted().map_err(refuse)?.text;
        let last = names.last().map(|s| s.as_str()).unwrap_or_default();
        Ok(format!("{} {tail} {last} {}", names.join("+"), names.len()))
    }

    small_and_wide_number_types(args) => {
        let mut acc: u8 = 250u8.saturating_add(args.n as u8);
        let mut big: u128 = u128::from(args.n) << 100;
        let mut small: i8 = -(args.n.min(100) as i8);
        let mut ch = 'a';
        let mut ratio = 1.5f64 * f64::from(args.n);
        for i in 0..2 {
            let step = ask!(step = elicit::<Num>(format!("Step {i}: {acc} {big} {small} {ch} {ratio}?"))).accepted().map_err(refuse)?.num;
            acc = acc.wrapping_add(step as u8);
            big = big.saturating_mul(u128::from(step.unsigned_abs()) + 1);
            small = small.checked_sub(step as i8).unwrap_or(i8::MIN);
            ch = char::from_u32(ch as u32 + step.rem_euclid(26) as u32).unwrap_or('?');
            ratio /= (step as f64) + 0.25;
        }
        Ok(format!("{acc} {big} {small} {ch} {ratio:.6} {}", ratio.to_bits()))
    }

    unit_values_held(args) => {
        let units = vec![(); args.n as usize];
        let marker: Option<()> = (args.n > 1).then_some(());
        let checked: Result<(), String> = if args.n > 2 { Err("big".into()) } else { Ok(()) };
        let answer = ask!(u = elicit::<Yes>(format!("{} units?", units.len()))).ok().map(|_| ());
        note!(args, "{marker:?} {checked:?}");
        let again = ask!(again = elicit::<Yes>("Again?")).ok().map(|_| ());
        Ok(format!("{} {marker:?} {checked:?} {answer:?} {again:?}", units.len()))
    }

    nested_vec_compound_assignment(args) => {
        let rows = args.n.clamp(1, 3) as usize;
        let mut grid = vec![vec![0i64; 2]; rows];
        let mut i = 0;
        while i < rows {
            for j in 0..2 {
                grid[i][j] += ask!(cell = elicit::<Num>(format!("Cell {i},{j} of {grid:?}?"))).accepted().map_err(refuse)?.num;
                if grid[i][j] < 0 {
                    break;
                }
            }
            i += 1;
        }
        Ok(format!("{grid:?}"))
    }

    closures_made_after_an_ask(args) => {
        let base = ask!(base = elicit::<Num>("Base?")).accepted().map_err(refuse)?.num;
        let scale = |v: i64| v * base + i64::from(args.n);
        let label = format!("b{base}");
        let show = |v: i64| format!("{label}:{v}");
        note!(args, "{}", show(scale(2)));
        let more = ask!(more = elicit::<Num>(format!("More than {}?", show(1)))).accepted().map_err(refuse)?.num;
        Ok(format!("{} {}", show(scale(more)), label))
    }

    format_specs_with_captured_locals(args) => {
        let name = format!("n{}", args.n);
        let width = 8usize;
        let count = args.n as i64;
        let first = ask!(first = elicit::<Text>(format!("{name:>width$}|{count:+}|{name:?}?"))).accepted().map_err(refuse)?.text;
        let line = format!("{first:-^width$}{count:03}{name}");
        note!(args, "{line}");
        let n2 = ask!(n2 = elicit::<Num>(format!("{line:.3}?"))).accepted().map_err(refuse)?.num;
        Ok(format!("{line} {n2:#x} {n2:>width$} {:e}", n2 as f64))
    }

    let_else_asks_then_continues_in_a_loop(args) => {
        let mut got = Vec::new();
        for i in 0..args.n {
            let Some(v) = (i % 2 == 0).then_some(i) else {
                let filler = ask!(filler = elicit::<Text>(format!("Filler for {i}?"))).ok().map(|t| t.text).unwrap_or_default();
                got.push(filler);
                continue;
            };
            got.push(format!("v{v}"));
        }
        let code = (args.n > 1).then(|| format!("c{}", args.n));
        let Some(code) = code else {
            let why = ask!(why = elicit::<Text>("No code; why?")).accepted().map_err(refuse)?.text;
            return Ok(format!("none: {why} {got:?}"));
        };
        let more = ask!(more = elicit::<Num>(format!("More for {code}?"))).accepted().map_err(refuse)?.num;
        Ok(format!("{code} {more} {got:?}"))
    }

    early_return_from_nested_loops(args) => {
        let targets = vec![3i64, 5, 8];
        for round in 0..args.n {
            for t in targets.iter().copied() {
                let guess = ask!(guess = elicit::<Num>(format!("Round {round}, target {t}?"))).accepted().map_err(refuse)?.num;
                if guess == t {
                    note!(args, "hit {t} in {round}");
                    return Ok(format!("hit {t} at {round}"));
                }
                if guess > 100 {
                    break;
                }
            }
            note!(args, "round {round} over");
        }
        Ok(format!("no hit in {targets:?}"))
    }

    generic_struct_and_enum_locals(args) => {
        let mut tagged = Tagged { tag: format!("t{}", args.n), value: vec![args.n] };
        let mut verdict: Verdict<Tagged<Vec<u32>>, String> = Verdict::Pending;
        let n = ask!(n = elicit::<Num>(format!("Value for {}?", tagged.tag))).accepted().map_err(refuse)?.num;
        tagged.value.push(n as u32);
        if n > 10 {
            verdict = Verdict::Failed(format!("too big {n}"));
        } else if n > 0 {
            verdict = Verdict::Done(tagged.clone());
        }
        note!(args, "{verdict:?}");
        let ok = ask!(ok = elicit::<Yes>(format!("Keep {verdict:?}?"))).ok().is_some_and(|y| y.yes);
        let out = match verdict {
            Verdict::Done(Tagged { tag, value }) if ok => format!("{tag}{value:?}"),
            Verdict::Done(_) => "unkept".to_owned(),
            Verdict::Failed(e) => e,
            Verdict::Pending => format!("pending {tagged:?}"),
        };
        Ok(out)
    }

    compound_assignment_to_a_plain_local(args) => {
        let mut total: i64 = 0;
        let mut history: Vec<(u32, i64)> = Vec::new();
        let mut i = 0;
        while i < args.n {
            i += 1;
            if i % 2 == 1 {
                total += ask!(odd = elicit::<Num>(format!("Odd {i} (total {total})?"))).accepted().map_err(refuse)?.num;
            } else {
                total *= 2;
            }
            history.push((i, total));
        }
        let mut text = String::from(">");
        text += &ask!(suffix = elicit::<Text>(format!("Suffix after {total}?"))).ok().map_or_else(String::new, |t| t.text);
        Ok(format!("{total} {history:?} {text}"))
    }

    ask_as_a_method_argument(args) => {
        let mut answers = BTreeMap::new();
        for key in ["alpha", "beta", "gamma"].map(String::from) {
            if answers.len() as u32 >= args.n {
                break;
            }
            let v = ask!(v = elicit::<Num>(format!("Value for {key}?"))).accepted().map_or(0, |n| n.num);
            answers.insert(key, v);
        }
        let mut order = std::collections::VecDeque::new();
        order.push_front(ask!(first = elicit::<Text>(format!("First of {answers:?}?"))).ok().map(|t| t.text));
        Ok(format!("{answers:?} {order:?}"))
    }

    budget_loop_with_continue_and_break(args) => {
        let mut budget = i64::from(args.n) * 10;
        let mut spent = Vec::new();
        while budget > 0 {
            let cost = ask!(cost = elicit::<Num>(format!("Cost (budget {budget})?"))).accepted().map_err(refuse)?.num;
            if cost <= 0 {
                note!(args, "free");
                continue;
            }
            if cost > budget {
                break;
            }
            budget -= cost;
            spent.push(cost);
        }
        Ok(format!("{budget} {spent:?}"))
    }

    chars_of_an_answer_counted(args) => {
        let mut counts: BTreeMap<char, u32> = BTreeMap::new();
        let word = ask!(word = elicit::<Text>("Word?")).accepted().map_err(refuse)?.text;
        for c in word.chars() {
            *counts.entry(c).or_insert(0) += 1;
            if c == '!' {
                let keep = ask!(bang = elicit::<Yes>(format!("Keep bang in {word}?"))).ok().is_some_and(|y| y.yes);
                if !keep {
                    counts.remove(&'!');
                    break;
                }
            }
        }
        Ok(format!("{counts:?} {} {}", word.len(), args.n))
    }

    match_on_a_trimmed_answer(args) => {
        let cmd = ask!(cmd = elicit::<Text>("Command?")).accepted().map_err(refuse)?.text;
        let reply = match cmd.trim() {
            "add" => {
                let n = ask!(add = elicit::<Num>("Add?")).accepted().map_err(refuse)?.num;
                format!("added {n}")
            }
            "quit" | "exit" => return Ok("bye".into()),
            other if other.starts_with('#') => format!("comment {other}"),
            other => {
                let other = other.to_owned();
                let sure = ask!(sure = elicit::<Yes>(format!("Unknown {other}; sure?"))).ok().is_some_and(|y| y.yes);
                format!("{other} {sure}")
            }
        };
        note!(args, "{reply}");
        Ok(format!("{reply} {}", cmd.len()))
    }

    question_mark_on_pieces_of_an_answer(args) => {
        let raw = ask!(raw = elicit::<Text>("Pair a,b?")).accepted().map_err(refuse)?.text;
        let (a, b) = raw.split_once(',').ok_or_else(|| format!("no comma in {raw}"))?;
        let a: i64 = a.trim().parse().map_err(|_| format!("a is not a number: {a}"))?;
        let b = parse_num(b)?;
        note!(args, "{a} {b}");
        let c = ask!(c = elicit::<Num>(format!("c for {a},{b}?"))).accepted().map_err(refuse)?.num;
        let product = a.checked_mul(b).and_then(|p| p.checked_add(c)).ok_or("overflow")?;
        Ok(format!("{product} {}", args.n))
    }

    state_machine_enum_in_a_loop(args) => {
        let mut phase = Phase::Start;
        let mut steps = 0u32;
        loop {
            steps += 1;
            let next = match phase.clone() {
                Phase::Start => Phase::Named(ask!(name = elicit::<Text>("Name?")).accepted().map_err(refuse)?.text),
                Phase::Named(name) if name.is_empty() => Phase::Start,
                Phase::Named(name) => {
                    let age = ask!(age = elicit::<Num>(format!("Age of {name}?"))).accepted().map_err(refuse)?.num;
                    Phase::Done(u32::try_from(age).unwrap_or(0))
                }
                Phase::Done(age) => break Ok(format!("{age} after {steps}")),
            };
            note!(args, "{next:?}");
            phase = next;
            if steps > args.n + 3 {
                break Err("too many steps".to_owned());
            }
        }
    }

    several_questions_in_one_round_in_a_loop(args) => {
        let mut people = Vec::new();
        for i in 0..args.n.min(2) {
            let (name, age) = ask!(name = elicit::<Text>(format!("Name {i}?")), age = elicit::<Num>(format!("Age {i} after {people:?}?")));
            let name = name.accepted().map_err(refuse)?.text;
            let age = age.accepted().map(|a| a.num).unwrap_or(-1);
            note!(args, "{name} {age}");
            people.push(Person { name, age: u32::try_from(age).unwrap_or(0) });
        }
        let sure = ask!(sure = elicit::<Yes>(format!("{} people?", people.len()))).ok().is_some_and(|y| y.yes);
        Ok(format!("{people:?} {sure}"))
    }

    a_block_value_that_asks(args) => {
        let offset = i64::from(args.n);
        let total = {
            let a = ask!(a = elicit::<Num>("a?")).accepted().map_err(refuse)?.num;
            note!(args, "a {a}");
            a * 2 + offset
        };
        let label = {
            let t = ask!(t = elicit::<Text>(format!("Label for {total}?"))).ok().map(|t| t.text).unwrap_or_default();
            t.to_uppercase()
        };
        Ok(format!("{total} {label}"))
    }

    range_adapters_in_for(args) => {
        let mut seen = Vec::new();
        for i in (0..args.n).rev() {
            let v = ask!(down = elicit::<Num>(format!("Down {i}?"))).accepted().map_err(refuse)?.num;
            seen.push(v + i64::from(i));
        }
        for i in (0..args.n * 2).step_by(3) {
            let v = ask!(step = elicit::<Num>(format!("Step {i}?"))).accepted().map_err(refuse)?.num;
            seen.push(v * 100);
        }
        let names = vec!["x".to_owned(), "y".to_owned()];
        let weights = vec![2i64, 3];
        for (name, weight) in names.into_iter().zip(weights) {
            if seen.len() > 4 {
                break;
            }
            let v = ask!(zip = elicit::<Num>(format!("{name} x{weight}?"))).accepted().map_err(refuse)?.num;
            seen.push(v * weight);
        }
        Ok(format!("{seen:?}"))
    }

    queue_with_pop_front_and_early_error(args) => {
        let mut queue: std::collections::VecDeque<(String, u32)> = (0..args.n).map(|i| (format!("job{i}"), 0)).collect();
        let mut done = Vec::new();
        while let Some((job, tries)) = queue.pop_front() {
            let ok = ask!(ok = elicit::<Yes>(format!("Did {job} work (try {tries})?"))).accepted().map_err(|r| format!("{job}: {}", refuse(r)))?.yes;
            if ok {
                done.push(job);
            } else if tries < 1 {
                queue.push_back((job, tries + 1));
            } else {
                return Err(format!("{job} failed twice; done {done:?}"));
            }
        }
        Ok(format!("{done:?}"))
    }

    else_if_let_asks(args) => {
        let first = (args.n == 1).then(|| "one".to_owned());
        let second: Result<u32, String> = if args.n > 3 { Ok(args.n) } else { Err(format!("small {}", args.n)) };
        let out = if let Some(f) = first {
            f
        } else if let Ok(big) = second.clone() {
            let extra = ask!(extra = elicit::<Num>(format!("Extra for {big}?"))).accepted().map_err(refuse)?.num;
            format!("{big}+{extra}")
        } else if args.n == 0 {
            return Ok("zero".to_owned());
        } else {
            let why = ask!(why = elicit::<Text>(format!("Why {second:?}?"))).ok().map(|t| t.text);
            format!("{why:?}")
        };
        Ok(format!("{out} {second:?}"))
    }

    option_take_and_replace_around_asks(args) => {
        let mut pending = (args.n > 0).then(|| format!("p{}", args.n));
        let mut log = Vec::new();
        if let Some(p) = pending.take() {
            let ok = ask!(keep = elicit::<Yes>(format!("Keep {p}?"))).ok().is_some_and(|y| y.yes);
            if ok {
                pending = Some(p.repeat(2));
            }
            log.push(format!("{ok}"));
        }
        let old = std::mem::replace(&mut log, vec!["fresh".to_owned()]);
        let n = ask!(n = elicit::<Num>(format!("After {pending:?} {old:?}?"))).accepted().map_err(refuse)?.num;
        let swapped = std::mem::take(&mut pending).unwrap_or_default();
        Ok(format!("{swapped} {pending:?} {old:?} {log:?} {n}"))
    }

    shadowed_loop_variable(args) => {
        let mut out = Vec::new();
        for i in 0..args.n {
            let i = i * 10;
            let i = ask!(i = elicit::<Num>(format!("Scale {i}?"))).accepted().map_or(i64::from(i), |n| n.num + i64::from(i));
            out.push(i);
        }
        Ok(format!("{out:?}"))
    }

    answer_cast_then_indexed(args) => {
        let options = vec!["tea".to_owned(), "coffee".to_owned(), "water".to_owned()];
        let idx = ask!(idx = elicit::<Num>(format!("Pick from {options:?}?"))).accepted().map_err(refuse)?.num as usize % options.len();
        let choice = &options[idx];
        note!(args, "chose {choice}");
        let chosen = choice.clone();
        let size = ask!(size = elicit::<Pick>(format!("Size for {chosen}?"))).accepted().map(|p| p.color);
        Ok(format!("{chosen} {size:?} {}", args.n))
    }

    struct_literal_fields_from_an_ask(args) => {
        let name = format!("p{}", args.n);
        let person = Person { age: ask!(age = elicit::<Num>(format!("Age of {name}?"))).accepted().map_or(0, |n| n.num as u32), name };
        let point = Point { x: ask!(x = elicit::<Num>("x?")).accepted().map_err(refuse)?.num, y: i64::from(person.age) };
        Ok(format!("{person:?} {point:?}"))
    }

    return_in_a_match_in_a_loop_in_if_let(args) => {
        let start = (args.n > 0).then_some(args.n);
        if let Some(mut left) = start {
            let mut acc = Vec::new();
            loop {
                match ask!(pick = elicit::<Pick>(format!("{left} left, {acc:?}?"))) {
                    Elicited::Accept(Pick { color: Color::Red }) => return Ok(format!("red early {acc:?}")),
                    Elicited::Accept(Pick { color }) => acc.push(format!("{color:?}")),
                    Elicited::Decline(_) => {
                        let why = ask!(why = elicit::<Text>("Why not?")).ok().map(|t| t.text).unwrap_or_default();
                        acc.push(why);
                    }
                    Elicited::Cancel(refused) => return Err(refuse(refused)),
                }
                left -= 1;
                if left == 0 {
                    break;
                }
            }
            Ok(acc.join(","))
        } else {
            Ok("none".to_owned())
        }
    }

    two_bindings_of_one_name_alive_at_an_ask(args) => {
        let x = i64::from(args.n);
        let total = {
            let x = format!("inner{x}");
            let k = ask!(k = elicit::<Num>(format!("{x}?"))).accepted().map_err(refuse)?.num;
            x.len() as i64 + k
        };
        let label = format!("l{}", args.n);
        if args.n > 1 {
            let label = format!("{label}!");
            let ok = ask!(ok = elicit::<Yes>(format!("{label}?"))).ok().is_some_and(|y| y.yes);
            note!(args, "{label} {ok}");
        }
        Ok(format!("{x} {total} {label}"))
    }

    arm_binding_read_after_the_ask_in_its_statement(args) => {
        let found = (args.n > 0).then(|| format!("f{}", args.n));
        let out = match found {
            Some(x) => ask!(suffix = elicit::<Text>(format!("Suffix for {x}?"))).ok().map(|t| format!("{x}{}", t.text)).unwrap_or(x),
            None => String::from("none"),
        };
        Ok(out)
    }

    destructuring_assignments_between_asks(args) => {
        let (mut a, mut b) = (i64::from(args.n), 0i64);
        b += ask!(b = elicit::<Num>(format!("b for {a}?"))).accepted().map_err(refuse)?.num;
        (a, b) = (b, a);
        let [mut lo, mut hi] = [a.min(b), a.max(b)];
        note!(args, "{a} {b} {lo} {hi}");
        let c = ask!(c = elicit::<Num>(format!("c between {lo} and {hi}?"))).accepted().map_err(refuse)?.num;
        [lo, hi] = [lo.min(c), hi.max(c)];
        Ok(format!("{a} {b} {lo} {hi}"))
    }

    shadowing_a_loop_carried_string_without_changing_it(args) => {
        let mut acc = String::new();
        for i in 0..args.n {
            let acc_len = acc.len();
            let acc2 = format!("{acc}{i}");
            let t = ask!(t = elicit::<Text>(format!("After {acc2} ({acc_len})?"))).accepted().map_err(refuse)?.text;
            acc.push_str(&t);
            note!(args, "{acc2} {t}");
        }
        Ok(acc)
    }

    compound_assignment_to_fields_and_entries(args) => {
        let mut stats = (0i64, String::new());
        let mut point = Point { x: 1, y: i64::from(args.n) };
        let mut counts: BTreeMap<String, i64> = BTreeMap::new();
        stats.0 += ask!(first = elicit::<Num>("First?")).accepted().map_err(refuse)?.num;
        point.y *= ask!(scale = elicit::<Num>(format!("Scale {point:?}?"))).accepted().map_or(1, |n| n.num);
        let word = format!("w{}", args.n % 2);
        *counts.entry(word.clone()).or_insert(0) += ask!(count = elicit::<Num>(format!("Count {word}?"))).accepted().map_or(0, |n| n.num);
        stats.1 += &ask!(tail = elicit::<Text>("Tail?")).ok().map_or_else(String::new, |t| t.text);
        Ok(format!("{stats:?} {point:?} {counts:?}"))
    }

    match_on_a_tuple_with_an_answer(args) => {
        let out = match (ask!(which = elicit::<Pick>("Which?")).accepted().map(|p| p.color), args.n) {
            (Ok(Color::Red), 0) => "red zero".to_owned(),
            (Ok(color), n) if n > 2 => {
                let why = ask!(why = elicit::<Text>(format!("Why {color:?} with {n}?"))).ok().map(|t| t.text);
                format!("{color:?} {why:?}")
            }
            (Ok(color), n) => format!("{color:?} {n}"),
            (Err(refused), _) => return Err(refuse(refused)),
        };
        Ok(out)
    }

    for_over_a_map_clone_that_it_grows(args) => {
        let mut map: BTreeMap<String, i64> = (0..args.n).map(|i| (format!("k{i}"), i64::from(i))).collect();
        for (k, v) in map.clone() {
            let extra = ask!(extra = elicit::<Num>(format!("Extra for {k}={v} of {}?", map.len()))).accepted().map_err(refuse)?.num;
            if extra == 0 {
                continue;
            }
            map.insert(format!("{k}+"), v + extra);
        }
        Ok(format!("{map:?}"))
    }

    slices_of_an_answer_between_asks(args) => {
        let s = ask!(s = elicit::<Text>("Word?")).accepted().map_err(refuse)?.text;
        let first = s.chars().next().map(String::from).unwrap_or_default();
        let rest = s.get(1..).unwrap_or("");
        let shout = rest.to_uppercase();
        note!(args, "{first} {rest}");
        let again = ask!(again = elicit::<Text>(format!("{first}{shout}?"))).ok().map(|t| t.text);
        let s_len = s.len();
        let first_of_again = again.as_deref().and_then(|a| a.split_whitespace().next()).map(str::to_owned);
        Ok(format!("{first} {shout} {s_len} {first_of_again:?} {}", args.n))
    }

    question_mark_in_a_while_condition(args) => {
        let mut raw = format!("{}", args.n);
        let mut seen = Vec::new();
        while parse_num(&raw)? > 0 {
            raw = ask!(raw = elicit::<Text>(format!("Below {raw}?"))).accepted().map_err(refuse)?.text;
            seen.push(raw.clone());
        }
        Ok(format!("{seen:?}"))
    }

    // `let`s without a value that one `if` or `match` gives their values together, a branch
    // asking (sweep 31: the first of them was reported as declared without a value before an
    // `ask!`, though each branch assigns it).
    lets_without_values_given_together(args) => {
        let greeting: String;
        let times;
        if args.n > 2 {
            greeting = format!("hi{}", args.n);
            times = 2;
        } else {
            greeting = ask!(greeting = elicit::<Text>("Greeting?")).accepted().map_err(refuse)?.text;
            times = 1;
        }
        let mut unit;
        let count: i64;
        let scratch;
        match args.n % 4 {
            0 => return Ok(format!("{greeting} early")),
            1 => {
                unit = "one".to_owned();
                count = ask!(count = elicit::<Num>(format!("Count for {greeting}?"))).accepted().map_err(refuse)?.num;
                scratch = count * 2;
                note!(args, "scratch {scratch}");
            }
            2 => {
                count = 2;
                unit = ask!(unit = elicit::<Text>("Unit?")).ok().map_or_else(|| "none".to_owned(), |t| t.text);
            }
            _ => {
                unit = String::from("many");
                count = i64::from(args.n);
            }
        }
        unit.push('!');
        let name = ask!(name = elicit::<Text>(format!("Name for {greeting} x{times} ({count} {unit})?"))).accepted().map_err(refuse)?.text;
        Ok(format!("{}{name} {count} {unit}", greeting.repeat(times)))
    }

    // The same through an `else if` chain that returns, the ask after it (sweep 31).
    lets_without_values_given_together_before_a_later_ask(args) => {
        let kind;
        let size: u32;
        if args.n == 0 {
            kind = "none".to_owned();
            size = 0;
        } else if args.n < 3 {
            size = args.n * 10;
            kind = format!("small{size}");
        } else {
            return Ok("big".to_owned());
        }
        let ok = ask!(ok = elicit::<Yes>(format!("{kind} {size}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{kind} {size} {ok}"))
    }

    one_key_at_two_sites(args) => {
        let first = ask!(confirm = elicit::<Yes>("Sure?")).ok().is_some_and(|y| y.yes);
        note!(args, "first {first}");
        let second = if args.n > 1 {
            ask!(confirm = elicit::<Yes>("Really sure?")).ok().is_some_and(|y| y.yes)
        } else {
            false
        };
        let third = ask!(confirm = elicit::<Yes>(format!("Last time ({first} {second})?"))).ok().map(|y| y.yes);
        Ok(format!("{first} {second} {third:?}"))
    }

    values_at_their_edges(args) => {
        let floats = [f64::NAN, f64::INFINITY, -0.0, f64::MIN_POSITIVE, 1e300 * f64::from(args.n)];
        let wide = (u128::MAX, i128::MIN, i64::MIN, u64::MAX);
        let nested: Option<Option<u8>> = if args.n > 1 { Some(None) } else { Some(Some(7)) };
        let text = format!("é🦀\u{0}\n\"{}", args.n);
        let chars = ['\u{0}', 'é', '🦀', char::MAX];
        let boxed: Box<str> = "boxed".into();
        let cow: std::borrow::Cow<'static, str> = if args.n > 0 { "borrowed".into() } else { String::from("owned").into() };
        let span = std::time::Duration::from_nanos(u64::from(args.n) * 1_000_000_007);
        let range = 3..args.n + 5;
        let path = std::path::PathBuf::from(format!("/tmp/{}", args.n));
        let bytes: Vec<u8> = (0..=255u8).step_by(51).collect();
        let ok = ask!(ok = elicit::<Yes>(format!("{} {:?}?", floats.len(), wide.0))).ok().is_some_and(|y| y.yes);
        Ok(format!(
            "{:?} {wide:?} {nested:?} {text:?} {chars:?} {boxed} {cow} {span:?} {range:?} {path:?} {bytes:?} {ok} {}",
            floats.map(f64::to_bits),
            floats[0].is_nan()
        ))
    }

    an_answer_passed_to_an_async_fn_and_into_err(args) => {
        let d = double(ask!(n = elicit::<Num>("n?")).accepted().map_err(refuse)?.num).await;
        note!(args, "doubled {d}");
        if d > 10 {
            return Err(ask!(why = elicit::<Text>(format!("Why {d}?"))).accepted().map(|t| t.text).unwrap_or_else(refuse));
        }
        let label = if let Some(t) = ask!(label = elicit::<Text>("Label?")).ok() {
            t.text
        } else {
            let again = ask!(again = elicit::<Text>("Label, again?")).ok().map(|t| t.text);
            again.unwrap_or_default()
        };
        Ok(format!("{d} {label} {}", args.n))
    }

    loop_over_answers_break_continue_or_value(args) => {
        let mut got = Vec::new();
        let mut skipped = 0;
        loop {
            let v = match ask!(next = elicit::<Num>(format!("Next after {got:?}?"))) {
                Elicited::Accept(Num { num }) if num < 0 => break,
                Elicited::Accept(Num { num: 0 }) => {
                    skipped += 1;
                    continue;
                }
                Elicited::Accept(Num { num }) => num,
                Elicited::Decline(_) => {
                    let fallback = ask!(fallback = elicit::<Num>("Fallback?")).accepted().map_or(-1, |n| n.num);
                    if fallback < 0 {
                        break;
                    }
                    fallback
                }
                Elicited::Cancel(refused) => return Err(refuse(refused)),
            };
            got.push(v);
            if got.len() as u32 > args.n {
                break;
            }
        }
        Ok(format!("{got:?} {skipped}"))
    }

    a_labeled_block_that_asks_and_breaks(args) => {
        let picked = 'pick: {
            if args.n == 0 {
                break 'pick "zero".to_owned();
            }
            let t = ask!(t = elicit::<Text>("t?")).accepted().map_err(refuse)?.text;
            if t.is_empty() {
                break 'pick "empty".to_owned();
            }
            let u = ask!(u = elicit::<Text>(format!("u after {t}?"))).ok().map(|u| u.text).unwrap_or_default();
            format!("{t}{u}")
        };
        Ok(picked)
    }

    for_with_struct_patterns(args) => {
        let points = vec![Point { x: 1, y: 2 }, Point { x: 3, y: i64::from(args.n) }];
        let mut out = Vec::new();
        for (i, Point { x, y: height }) in points.clone().into_iter().enumerate() {
            let dx = ask!(dx = elicit::<Num>(format!("dx for {i} at {x},{height}?"))).accepted().map_err(refuse)?.num;
            out.push((x + dx, height));
        }
        let people = vec![Person { name: "ann".into(), age: 3 }];
        for Person { name, age } in people {
            let ok = ask!(ok = elicit::<Yes>(format!("{name} {age}?"))).ok().is_some_and(|y| y.yes);
            out.push((i64::from(age), i64::from(ok)));
            note!(args, "{name}");
        }
        Ok(format!("{out:?} {}", points.len()))
    }

    // What the README says to write for a loop-carried local rebuilt after an ask: take it,
    // rather than move it (`let old = current;` is a borrow of a moved value at the ask).
    accumulator_taken_then_rebuilt_across_an_ask(args) => {
        let mut current = format!("c{}", args.n);
        for _ in 0..2 {
            let old = std::mem::take(&mut current);
            let t = ask!(t = elicit::<Text>(format!("After {old}?"))).accepted().map_err(refuse)?.text;
            current = format!("{old}{t}");
        }
        let mut phase = Phase::Start;
        while phase != Phase::Done(0) {
            phase = match std::mem::replace(&mut phase, Phase::Start) {
                Phase::Start => Phase::Named(ask!(name = elicit::<Text>(format!("Name after {current}?"))).accepted().map_err(refuse)?.text),
                Phase::Named(name) => {
                    note!(args, "named {name}");
                    Phase::Done(0)
                }
                done @ Phase::Done(_) => done,
            };
        }
        Ok(format!("{current} {phase:?}"))
    }

    // A local moved, then given a new value by an ask (`consume(s); s = ask!(..)`): dead at the
    // ask, so saved there from a snapshot taken just after its `let`.
    moved_then_assigned_by_ask(args) => {
        let mut s = format!("x{}", args.n);
        let n = consume(s);
        s = ask!(s = elicit::<Text>(format!("Replace (old len {n})?"))).accepted().map_err(refuse)?.text;
        Ok(s)
    }

    moved_each_pass_then_assigned_by_ask(args) => {
        let mut name = format!("n{}", args.n);
        let mut total = 0;
        loop {
            note!(args, "register {name}");
            total += consume(name);
            if total > 6 {
                break;
            }
            name = match ask!(next = elicit::<Text>(format!("Next after {total}?"))) {
                Elicited::Accept(t) => t.text,
                Elicited::Decline(_) => "declined".to_owned(),
                Elicited::Cancel(refused) => return Err(refuse(refused)),
            };
        }
        Ok(format!("{total}"))
    }

    moved_then_rebuilt_by_the_statement_after_the_ask(args) => {
        let mut current = format!("c{}", args.n);
        for i in 0..2 {
            let old = current;
            let t = ask!(t = elicit::<Text>(format!("After {old} ({i})?"))).accepted().map_err(refuse)?.text;
            note!(args, "got {t}");
            current = format!("{old}{t}");
        }
        Ok(current)
    }

    // Moved, then given a new value before an ask of the same pass: restored where it is
    // given its value, not where it was declared.
    moved_and_rebuilt_each_pass_before_an_ask(args) => {
        let mut label = format!("l{}", args.n);
        let mut seen = Vec::new();
        for i in 0..3 {
            seen.push(consume(label));
            label = format!("l{i}");
            let t = ask!(t = elicit::<Text>(format!("About {label}?"))).accepted().map_err(refuse)?.text;
            note!(args, "{label} {t}");
            if t == "stop" {
                break;
            }
        }
        let mut items = vec![args.n];
        let total = sum_with(items, 1);
        items = std::iter::once(ask!(n = elicit::<Num>(format!("After {total}?"))).accepted().map_err(refuse)?.num as u32).collect();
        let more = ask!(more = elicit::<Num>(format!("More than {items:?}?"))).accepted().map_err(refuse)?.num;
        Ok(format!("{label} {seen:?} {items:?} {more}"))
    }

    // Given anew in a branch after which nothing reads it: a new binding of the branch, which
    // may then be moved before a later ask there.
    moved_then_given_anew_in_a_branch(args) => {
        let mut s = format!("s{}", args.n);
        note!(args, "{s}");
        let out = if args.n > 1 {
            let n = consume(s);
            s = ask!(s = elicit::<Text>(format!("New after {n}?"))).accepted().map_err(refuse)?.text;
            let moved = s;
            let t = ask!(t = elicit::<Text>(format!("With {moved}?"))).accepted().map_err(refuse)?.text;
            format!("{moved}{t}")
        } else {
            s
        };
        Ok(out)
    }

    // Given anew in a branch by a statement after an ask, then moved again before a later
    // ask of that branch; another branch reads it across an ask.
    given_anew_in_a_branch_then_moved_before_an_ask(args) => {
        let s = if args.n > 0 { Some(format!("s{}", args.n)) } else { None };
        let mut s = s.unwrap_or_default();
        let out;
        match ask!(first = elicit::<Num>(format!("Pick ({s})?"))).accepted().map_err(refuse)?.num % 2 {
            0 => {
                let t = ask!(keep = elicit::<Text>(format!("Keep {s}?"))).accepted().map_err(refuse)?.text;
                out = format!("{s}{t}");
            }
            _ => {
                let n = consume(s);
                let t = ask!(replace = elicit::<Text>(format!("Replace (old len {n})?"))).accepted().map_err(refuse)?.text;
                note!(args, "{n}");
                s = t;
                let mut kept = s;
                kept.push('+');
                let m = ask!(more = elicit::<Num>("More?")).accepted().map_err(refuse)?.num;
                out = format!("{kept}{m}");
            }
        }
        Ok(out)
    }

    given_anew_in_a_loop_then_moved_before_an_ask(args) => {
        let mut name = format!("n{}", args.n);
        let mut seen = Vec::new();
        for i in 0..3 {
            let t = ask!(t = elicit::<Text>(format!("After {name} ({i})?"))).accepted().map_err(refuse)?.text;
            seen.push(consume(name));
            name = t;
            let kept = name;
            let m = ask!(m = elicit::<Num>(format!("With {kept}?"))).accepted().map_err(refuse)?.num;
            note!(args, "{kept} {m}");
            name = format!("{kept}{m}");
        }
        Ok(format!("{name} {seen:?}"))
    }

    given_anew_in_a_loop_then_moved_in_a_branch(args) => {
        let mut name = format!("n{}", args.n);
        let mut seen = Vec::new();
        let mut i = 0;
        while i < 3 {
            i += 1;
            let t = ask!(t = elicit::<Text>(format!("After {name} ({i})?"))).accepted().map_err(refuse)?.text;
            if t.len() > 1 {
                seen.push(consume(name));
                name = t;
                let kept = name;
                let m = ask!(m = elicit::<Num>(format!("With {kept}?"))).accepted().map_err(refuse)?.num;
                name = format!("{kept}{m}");
            } else {
                name.push_str(&t);
            }
        }
        Ok(format!("{name} {seen:?}"))
    }

    given_anew_in_a_loop_then_moved_before_leaving_it(args) => {
        let mut name = format!("n{}", args.n);
        let out = loop {
            let t = ask!(t = elicit::<Text>(format!("After {name}?"))).accepted().map_err(refuse)?.text;
            if t == "again" {
                name.push('+');
                continue;
            }
            note!(args, "{}", consume(name));
            name = t;
            let kept = name;
            let m = ask!(m = elicit::<Num>(format!("With {kept}?"))).accepted().map_err(refuse)?.num;
            break format!("{kept}{m}");
        };
        Ok(out)
    }

    moved_in_a_loop_before_an_ask_then_leaving_it(args) => {
        let mut name = format!("n{}", args.n);
        let mut out = Vec::new();
        loop {
            let t = ask!(t = elicit::<Text>(format!("After {name}?"))).accepted().map_err(refuse)?.text;
            if t == "again" {
                name.push('+');
                continue;
            }
            note!(args, "{}", consume(name));
            let m = ask!(m = elicit::<Num>(format!("With {t}?"))).accepted().map_err(refuse)?.num;
            out.push(format!("{t}{m}"));
            break;
        }
        Ok(format!("{out:?}"))
    }

    // Live at each ask by one path only: round an outer loop, out of a labeled block, or
    // into a `while` condition. A snapshot saved there would resume with a stale value.
    live_at_asks_by_one_path(args) => {
        let mut s = format!("s{}", args.n);
        let mut log = Vec::new();
        'outer: for i in 0..2 {
            s.push('a');
            loop {
                let m = ask!(m = elicit::<Num>(format!("Pass {i}?"))).accepted().map_err(refuse)?.num;
                if m == 1 {
                    continue 'outer;
                }
                if m == 2 {
                    break;
                }
                s.push('b');
                if s.len() > 12 {
                    break 'outer;
                }
            }
            log.push(s.clone());
        }
        let label = 'found: {
            s.push('c');
            let m = ask!(label = elicit::<Num>("Label?")).accepted().map_err(refuse)?.num;
            if m > 3 {
                break 'found m;
            }
            0
        };
        let mut tries = 0;
        while s.len() < 8 {
            s.push('d');
            tries += ask!(more = elicit::<Num>("More?")).accepted().map_err(refuse)?.num;
        }
        Ok(format!("{s} {log:?} {label} {tries}"))
    }

    // Dead after the ask, yet the statement around it reads it again on resume.
    read_again_on_resume_though_dead_after_the_ask(args) => {
        let mut s = format!("s{}", args.n);
        s.push('!');
        let pair = (s, loop {
            let m = ask!(m = elicit::<Num>("M?")).accepted().map_err(refuse)?.num;
            if m > 0 {
                break m;
            }
        });
        Ok(format!("{pair:?}"))
    }

    // Moved before an ask, then given its new value by each branch of a later statement, or
    // by a value that may `break` out of a loop after which nothing reads it.
    moved_then_given_anew_by_each_branch(args) => {
        let mut s = format!("s{}", args.n);
        let n = consume(s);
        let t = ask!(t = elicit::<Text>(format!("After {n}?"))).accepted().map_err(refuse)?.text;
        note!(args, "got {t}");
        if t.len() > 1 {
            s = t;
        } else {
            s = format!("short {t}");
        }
        let mut seen = Vec::new();
        let mut last = format!("l{}", args.n);
        loop {
            seen.push(consume(last));
            last = match ask!(last = elicit::<Text>(format!("After {seen:?}?"))) {
                Elicited::Accept(t) => t.text,
                _ => break,
            };
            note!(args, "{last}");
        }
        Ok(format!("{s} {seen:?}"))
    }

    // Moved, then given its new value by each branch of an `if` or `match`, and read across
    // later asks: in its own block, and in an arm of an outer one.
    moved_then_given_anew_by_each_branch_and_read_later(args) => {
        let mut s = format!("s{}", args.n);
        let n = consume(s);
        let t = ask!(t = elicit::<Text>(format!("After {n}?"))).accepted().map_err(refuse)?.text;
        if t.len() > 1 {
            s = t;
        } else {
            note!(args, "short");
            s = format!("short {t}");
        }
        let u = ask!(u = elicit::<Text>(format!("With {s}?"))).accepted().map_err(refuse)?.text;
        let mut o = format!("o{}", args.n);
        match u.len() {
            0 => note!(args, "{o}"),
            _ => {
                let m = consume(o);
                let w = ask!(w = elicit::<Text>(format!("After {m}?"))).accepted().map_err(refuse)?.text;
                match w.as_str() {
                    "a" => o = w,
                    _ => o = format!("{w}{m}"),
                }
                o.push_str(&ask!(x = elicit::<Text>(format!("More for {o}?"))).accepted().map_err(refuse)?.text);
                note!(args, "{m}");
            }
        }
        Ok(format!("{s} {u} {o}"))
    }

    // Moved in a branch of a loop under an `if` whose condition asks and reads it: resuming
    // into the branch does not test that condition again.
    moved_in_a_branch_under_a_condition_that_asks(args) => {
        let mut s = format!("s{}", args.n);
        let mut seen = Vec::new();
        if ask!(first = elicit::<Num>(format!("First for {s}?"))).accepted().map_err(refuse)?.num > 0 {
            let mut i = 0;
            while i < 3 {
                i += 1;
                if s.len() > 2 {
                    let n = consume(s);
                    let m = ask!(m = elicit::<Num>("M?")).accepted().map_err(refuse)?.num;
                    seen.push(format!("{n} {m}"));
                    break;
                }
                s.push('+');
            }
        }
        Ok(format!("{seen:?}"))
    }

    // Moved, then given its new value by each branch of an `if` after the last ask.
    given_anew_by_each_branch_after_the_last_ask(args) => {
        let f = |x: i64| x.wrapping_sub(1);
        let mut s = ask!(s = elicit::<Text>("S?")).accepted().map_err(refuse)?.text;
        let maybe = if args.n > 1 { Some(format!("o{}", args.n)) } else { None };
        let o = if let Some(o) = maybe { o } else { ask!(o = elicit::<Text>(format!("O for {s}?"))).accepted().map_err(refuse)?.text };
        note!(args, "{o}");
        let zero = 0i64;
        let n = consume(s) as i64 + f(args.n as i64);
        let t = ask!(t = elicit::<Text>(format!("T for {o}?"))).accepted().map_err(refuse)?.text;
        note!(args, "{n} {zero}");
        if t.len() > 1 {
            s = t;
        } else {
            s = format!("short {n}");
        }
        Ok(format!("{s} {o} {zero}"))
    }

    // Not dead at the ask, so saved as it is: the value may `break` out before the assignment,
    // the binding assigned is an inner one, or a statement between may leave the loop.
    assigned_by_asks_that_may_not_overwrite(args) => {
        let mut s = format!("s{}", args.n);
        note!(args, "{s}");
        s.push('!');
        loop {
            s = match ask!(more = elicit::<Text>(format!("More than {s}?"))) {
                Elicited::Accept(t) => t.text,
                _ => break,
            };
            s.push('.');
        }
        let mut kept = format!("k{}", args.n);
        note!(args, "{kept}");
        kept.push('!');
        {
            let mut kept = String::new();
            note!(args, "inner {kept}");
            kept = ask!(inner = elicit::<Text>("Inner?")).accepted().map_err(refuse)?.text;
            note!(args, "inner {kept}");
        }
        let mut last = format!("l{}", args.n);
        note!(args, "{last}");
        last.push('!');
        for i in 0..3 {
            let t = ask!(last = elicit::<Text>(format!("Last {i}?"))).accepted().map_err(refuse)?.text;
            if t == "stop" {
                break;
            }
            last = t;
        }
        Ok(format!("{s} {kept} {last}"))
    }

    checkpoints_between_effects_in_a_loop(args) => {
        let mut done = Vec::new();
        for i in 0..args.n {
            note!(args, "work {i}");
            done.push(i * 3);
            ask!(saved = mrtr::checkpoint());
            if i == 1 {
                let ok = ask!(ok = elicit::<Yes>(format!("Go on after {done:?}?"))).ok().is_some_and(|y| y.yes);
                if !ok {
                    break;
                }
            }
        }
        ask!(last = mrtr::checkpoint());
        Ok(format!("{done:?}"))
    }

    a_checkpoint_and_a_question_in_one_round(args) => {
        let mut total = i64::from(args.n);
        for i in 0..2 {
            let ((), n) = ask!(cp = mrtr::checkpoint(), n = elicit::<Num>(format!("n {i} ({total})?")));
            total += n.accepted().map_or(0, |n| n.num);
            note!(args, "total {total}");
        }
        Ok(format!("{total}"))
    }

    questions_built_by_functions_with_effects(args) => {
        let mut count = i64::from(args.n);
        let label = |k: i64| format!("label {k} of {}", args.n);
        let first = ask!(first = elicit::<Text>(noted_prompt(&args.run, label(count)))).accepted().map_err(refuse)?.text;
        count += 1;
        let mut seen = vec![first];
        for i in 0..args.n {
            let t = ask!(each = elicit::<Text>(noted_prompt(&args.run, format!("{} {i} {seen:?}", label(count))))).ok().map(|t| t.text);
            seen.push(t.unwrap_or_default());
        }
        Ok(format!("{seen:?} {count}"))
    }

    lets_without_values_given_together_in_a_loop_and_a_block(args) => {
        let mut log = Vec::new();
        for i in 0..args.n {
            let mut word;
            let score: i64;
            let tag;
            match i % 3 {
                0 => {
                    word = ask!(word = elicit::<Text>(format!("Word {i}?"))).accepted().map_err(refuse)?.text;
                    score = word.len() as i64;
                    tag = 'a';
                }
                1 if args.n > 2 => continue,
                1 => {
                    tag = 'b';
                    score = -1;
                    word = String::from("one");
                }
                _ => {
                    score = ask!(score = elicit::<Num>(format!("Score {i}?"))).accepted().map_or(0, |n| n.num);
                    word = format!("s{score}");
                    tag = 'c';
                }
            }
            word.push(tag);
            log.push(format!("{word}:{score}"));
        }
        let first;
        let second: Vec<i64>;
        {
            first = ask!(first = elicit::<Num>(format!("First after {log:?}?"))).accepted().map_or(0, |n| n.num);
            second = vec![first, first * 2];
        }
        Ok(format!("{log:?} {first} {second:?}"))
    }

    while_let_asking_with_continue_and_labeled_break(args) => {
        let mut kept = Vec::new();
        let mut rounds = 0u32;
        'outer: while let Some(word) = ask!(word = elicit::<Text>(format!("Word after {kept:?}?"))).ok().map(|t| t.text) {
            rounds += 1;
            if word.is_empty() {
                continue;
            }
            for (i, c) in word.chars().enumerate() {
                if c == '!' {
                    note!(args, "bang at {i}");
                    break 'outer;
                }
                if c == '?' {
                    let ok = ask!(sure = elicit::<Yes>(format!("Keep {word} at {i}?"))).ok().is_some_and(|y| y.yes);
                    if !ok {
                        continue 'outer;
                    }
                }
            }
            kept.push(word);
            if rounds > args.n {
                break;
            }
        }
        Ok(format!("{kept:?} {rounds}"))
    }

    // Sweep 32: shapes users write that the corpus above did not yet hold.

    a_map_insert_whose_key_moves_before_the_ask(args) => {
        let mut scores = BTreeMap::new();
        for i in 0..args.n {
            let key = format!("k{i}");
            scores.insert(key, ask!(score = elicit::<Num>(format!("Score {i}?"))).accepted().map_or(-1, |n| n.num));
        }
        Ok(format!("{scores:?}"))
    }

    a_tuple_and_a_struct_whose_first_part_moves_before_the_ask(args) => {
        let label = format!("l{}", args.n);
        let pair = (label, ask!(num = elicit::<Num>("Number?")).accepted().map_err(refuse)?.num);
        let name = format!("p{}", pair.1);
        let person = Person { name, age: ask!(age = elicit::<Num>(format!("Age for {pair:?}?"))).accepted().map_or(0, |n| n.num as u32) };
        Ok(format!("{pair:?} {person:?}"))
    }

    a_counter_from_args_counted_down(args) => {
        let mut left = args.n;
        let mut got = Vec::new();
        while left > 0 {
            let v = ask!(v = elicit::<Num>(format!("Value {left}?"))).accepted().map_or(-1, |n| n.num);
            got.push(v);
            left -= 1;
            note!(args, "left {left}");
        }
        Ok(format!("{got:?} {left}"))
    }

    a_method_chain_on_an_answer(args) => {
        let slug = ask!(slug = elicit::<Text>("Title?")).accepted().map_err(refuse)?.text.trim().to_lowercase().replace(' ', "-");
        let words = ask!(words = elicit::<Text>(format!("Words for {slug}?"))).ok().map(|t| t.text).unwrap_or_default().split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        let first_len = ask!(first = elicit::<Text>("First?")).ok().and_then(|t| t.text.chars().next()).map_or(0, |c| c.len_utf8());
        Ok(format!("{slug} {words:?} {first_len} {}", args.n))
    }

    an_answer_indexes_a_vec_and_an_array(args) => {
        let options = vec!["tea".to_owned(), "coffee".to_owned(), "water".to_owned()];
        let pick = options[ask!(pick = elicit::<Num>(format!("Pick of {options:?}?"))).accepted().map_or(0, |n| n.num.unsigned_abs() as usize) % 3].clone();
        note!(args, "picked {pick}");
        let mut grid = [[0i64; 3]; 2];
        let row = (args.n % 2) as usize;
        grid[row][1] = ask!(cell = elicit::<Num>(format!("Cell for {pick}?"))).accepted().map_err(refuse)?.num;
        grid[1 - row][2] += ask!(bump = elicit::<Num>("Bump?")).ok().map_or(5, |n| n.num);
        Ok(format!("{pick} {grid:?}"))
    }

    return_and_labeled_break_values_from_nested_loops(args) => {
        let mut seen = Vec::new();
        let found = 'search: loop {
            for i in 0..3u32 {
                match (i + args.n) % 3 {
                    0 => {
                        seen.push(i);
                        continue;
                    }
                    1 if seen.len() > 2 => {
                        return Ok(ask!(late = elicit::<Text>(format!("Late at {i}?"))).ok().map_or("none".to_owned(), |t| t.text));
                    }
                    1 => {
                        seen.push(i * 10);
                    }
                    _ if seen.len() >= 2 => break 'search ask!(found = elicit::<Num>(format!("Found at {i} after {seen:?}?"))).accepted().map_err(refuse)?.num,
                    _ => seen.push(i * 100),
                }
            }
            note!(args, "pass {seen:?}");
        };
        Ok(format!("{found} {seen:?}"))
    }

    let_else_whose_value_asks_and_whose_else_returns(args) => {
        let Some(n) = ask!(n = elicit::<Text>("A number?")).ok().and_then(|t| t.text.trim().parse::<i64>().ok()) else {
            note!(args, "no number");
            return Err("no number".to_owned());
        };
        let Ok(small) = u8::try_from(n + i64::from(args.n)) else {
            let why = ask!(why = elicit::<Text>(format!("Why {n}?"))).ok().map(|t| t.text);
            return Err(format!("too big {why:?}"));
        };
        let (Some(first), Some(rest)) = ({ let w = ask!(word = elicit::<Text>(format!("Word for {small}?"))).ok().map(|t| t.text).unwrap_or_default(); let mut c = w.chars(); (c.next(), Some(c.as_str().to_owned())) }) else {
            return Ok(format!("{small} empty"));
        };
        Ok(format!("{small} {first} {rest:?}"))
    }

    match_in_for_in_loop_with_labeled_continue(args) => {
        let mut round = 0;
        let mut kept = Vec::new();
        'outer: loop {
            round += 1;
            if round > 2 {
                break;
            }
            for step in ["a", "skip", "b"].map(str::to_owned) {
                match step.as_str() {
                    "skip" if args.n > 1 => continue 'outer,
                    "skip" => note!(args, "not skipped"),
                    name => {
                        let name = name.to_owned();
                        let ok = ask!(ok = elicit::<Yes>(format!("Keep {name} in round {round}?"))).ok().is_some_and(|y| y.yes);
                        if !ok {
                            continue 'outer;
                        }
                        kept.push(format!("{round}{name}"));
                    }
                }
            }
        }
        Ok(format!("{kept:?} {round}"))
    }

    question_mark_on_a_helper_in_nested_blocks(args) => {
        let mut total = 0i64;
        {
            let base = i64::from(args.n);
            {
                if base >= 0 {
                    let raw = ask!(raw = elicit::<Text>(format!("Number after {base}?"))).accepted().map_err(refuse)?.text;
                    total += parse_num(&raw)? + base;
                    note!(args, "total {total}");
                }
            }
            total += parse_num(&ask!(again = elicit::<Text>("Again?")).accepted().map_err(refuse)?.text)?;
        }
        Ok(format!("{total}"))
    }

    early_err_from_a_loop_inside_a_match(args) => {
        let mut sum = 0i64;
        match args.n {
            0 => note!(args, "nothing"),
            n => {
                for i in 0..n {
                    let v = ask!(v = elicit::<Num>(format!("Value {i} (sum {sum})?"))).accepted().map_err(refuse)?.num;
                    if v < 0 {
                        return Err(format!("negative at {i}: {v}"));
                    }
                    sum += v;
                }
            }
        }
        Ok(format!("{sum}"))
    }

    maps_and_a_queue_of_structs_changed_across_asks(args) => {
        let mut people: BTreeMap<String, Person> = BTreeMap::new();
        let mut points: HashMap<u32, Point> = HashMap::new();
        let mut queue: VecDeque<Person> = (0..args.n).map(|i| Person { name: format!("q{i}"), age: i }).collect();
        while let Some(mut next) = queue.pop_front() {
            let age = ask!(age = elicit::<Num>(format!("Age of {}?", next.name))).accepted().map_or(0, |n| n.num as u32);
            next.age += age;
            points.entry(next.age).or_insert(Point { x: 0, y: 0 }).x += 1;
            if age > 10 {
                queue.push_back(Person { name: format!("{}+", next.name), age: 0 });
            }
            people.insert(next.name.clone(), next);
        }
        if let Some(p) = people.values_mut().next() {
            p.age += 100;
        }
        let mut points: Vec<_> = points.into_iter().collect();
        points.sort_by_key(|(k, _)| *k);
        let extra = ask!(extra = elicit::<Text>(format!("Extra for {}?", people.len()))).ok().map(|t| t.text);
        Ok(format!("{people:?} {points:?} {extra:?}"))
    }

    combinators_that_read_locals_after_an_ask(args) => {
        let min = args.n as usize;
        let fallback = format!("fb{}", args.n);
        let word = ask!(word = elicit::<Text>(format!("Word longer than {min}?"))).ok().map(|t| t.text).filter(|w| w.len() > min).unwrap_or_else(|| fallback.clone());
        let scaled = ask!(scale = elicit::<Num>(format!("Scale {word}?"))).accepted().ok().map(|n| n.num * min as i64).ok_or_else(|| format!("no scale for {fallback}"))?;
        let chosen = Some(word.clone()).and_then(|w| (w != fallback).then_some(w)).map_or(0, |w| w.len());
        Ok(format!("{word} {scaled} {chosen}"))
    }

    shadowing_inside_a_loop_across_asks(args) => {
        let mut total = 0usize;
        let mut last = String::new();
        for i in 0..args.n {
            let v = ask!(v = elicit::<Text>(format!("Text {i}?"))).ok().map(|t| t.text).unwrap_or_default();
            let v = v.trim().to_owned();
            last = v.clone();
            let v: usize = v.len();
            let ok = ask!(ok = elicit::<Yes>(format!("Count {v}?"))).ok().is_some_and(|y| y.yes);
            let v = if ok { v * 2 } else { v };
            total += v;
        }
        Ok(format!("{total} {last}"))
    }

    if_let_some_on_an_answer_that_asks_in_both_branches(args) => {
        let mut log = Vec::new();
        if let Some(t) = ask!(name = elicit::<Text>("Name?")).ok() {
            let name = t.text;
            let age = ask!(age = elicit::<Num>(format!("Age of {name}?"))).accepted().map_or(0, |n| n.num);
            log.push(format!("{name}:{age}"));
        } else if let Ok(Pick { color }) = ask!(color = elicit::<Pick>("Color instead?")).accepted() {
            log.push(format!("{color:?}"));
        } else {
            log.push(format!("nothing {}", args.n));
        }
        Ok(format!("{log:?}"))
    }

    matches_on_a_held_answer(args) => {
        let answer = ask!(first = elicit::<Pick>("Color?"));
        let warm = matches!(answer, Elicited::Accept(Pick { color: Color::Red }));
        let refused = matches!(&answer, Elicited::Decline(_) | Elicited::Cancel(_));
        note!(args, "warm {warm} refused {refused}");
        let again = if refused { ask!(again = elicit::<Yes>("Sure?")).ok().is_some_and(|y| y.yes) } else { false };
        let kept = matches!(answer, Elicited::Accept(ref p) if p.color != Color::Blue);
        Ok(format!("{warm} {refused} {again} {kept} {}", describe(answer)))
    }

    checked_arithmetic_on_answers(args) => {
        let mut total: u8 = args.n as u8;
        for i in 0..3 {
            total = total.checked_add(ask!(add = elicit::<Num>(format!("Add {i} to {total}?"))).accepted().map_err(refuse)?.num as u8).ok_or_else(|| format!("overflow at {i}"))?;
        }
        let product = ask!(mul = elicit::<Num>("Times?")).accepted().map_or(1, |n| n.num).checked_mul(i64::from(total)).map_or("too big".to_owned(), |p| p.to_string());
        let saturated = total.saturating_sub(ask!(sub = elicit::<Num>("Minus?")).ok().map_or(0, |n| n.num.clamp(0, 255) as u8));
        Ok(format!("{total} {product} {saturated}"))
    }

    locals_whose_type_comes_after_the_ask(args) => {
        let mut words = Vec::new();
        let mut lengths = BTreeMap::new();
        let mut longest = None;
        let mut pending = VecDeque::new();
        for i in 0..args.n {
            let w = ask!(w = elicit::<Text>(format!("Word {i}?"))).ok().map(|t| t.text).unwrap_or_default();
            lengths.insert(w.clone(), w.len());
            if longest.as_ref().is_none_or(|l: &String| l.len() < w.len()) {
                longest = Some(w.clone());
            }
            pending.push_back(i);
            words.push(w);
        }
        let mut seen = Default::default();
        let extra = ask!(extra = elicit::<Num>(format!("Extra for {words:?}?"))).ok().map(|n| n.num);
        if extra.is_some() {
            seen = (extra, pending.len());
        }
        Ok(format!("{words:?} {lengths:?} {longest:?} {seen:?}"))
    }

    a_report_written_with_write_across_asks(args) => {
        use std::fmt::Write as _;
        let mut out = String::new();
        writeln!(out, "report {}", args.n).map_err(|e| e.to_string())?;
        for i in 0..args.n {
            let item = ask!(item = elicit::<Text>(format!("Item {i} for {} lines?", out.lines().count()))).ok().map(|t| t.text);
            match item {
                Some(item) => write!(out, "[{i}:{item}]").map_err(|e| e.to_string())?,
                None => out.push_str("[-]"),
            }
        }
        let footer = ask!(footer = elicit::<Text>("Footer?")).ok().map(|t| t.text).unwrap_or_default();
        let _ = write!(&mut out, "\n{footer:>6}");
        Ok(out)
    }

    a_held_vec_sorted_and_deduplicated(args) => {
        let mut nums: Vec<i64> = (0..i64::from(args.n)).rev().collect();
        loop {
            let n = ask!(n = elicit::<Num>(format!("Add to {nums:?}?"))).ok().map(|n| n.num);
            let Some(n) = n else { break };
            nums.push(n);
            nums.sort_unstable();
            nums.dedup();
            if nums.len() > 4 {
                break;
            }
        }
        nums.retain(|n| n % 2 == 0);
        nums.reverse();
        let top = ask!(top = elicit::<Num>(format!("How many of {nums:?}?"))).accepted().map_or(1, |n| n.num.max(0) as usize);
        nums.truncate(top);
        Ok(format!("{nums:?}"))
    }

    tuples_and_options_of_mixed_types_held(args) => {
        let mut state: (u8, String, Option<(i64, bool)>, [u16; 2]) = (args.n as u8, "s".to_owned(), None, [1, 2]);
        let a = ask!(a = elicit::<Num>(format!("A for {state:?}?"))).accepted().map_err(refuse)?.num;
        state.2 = Some((a, a > 0));
        state.3[1] += a as u16;
        let nested: Vec<(String, Option<Color>)> = vec![(state.1.clone(), None)];
        let color = ask!(color = elicit::<Pick>("Color?")).ok().map(|p| p.color);
        state.1.push_str(&format!("{color:?}"));
        let mut nested = nested;
        nested.push(("c".to_owned(), color));
        Ok(format!("{state:?} {nested:?}"))
    }

    enums_with_data_held_and_matched_after_asks(args) => {
        let mut shapes = vec![Shape::Empty, Shape::Rect(1, args.n as i64)];
        let mut verdicts: Vec<Verdict<i64, String>> = Vec::new();
        for i in 0..2 {
            match ask!(shape = elicit::<Num>(format!("Radius {i} for {} shapes?", shapes.len()))) {
                Elicited::Accept(Num { num }) if num > 0 => {
                    shapes.push(Shape::Circle { r: num });
                    verdicts.push(Verdict::Done(num));
                }
                Elicited::Accept(Num { num }) => verdicts.push(Verdict::Failed(format!("bad {num}"))),
                Elicited::Decline(_) | Elicited::Cancel(_) => verdicts.push(Verdict::Pending),
            }
        }
        let area: i64 = shapes.iter().map(|s| match s { Shape::Circle { r } => 3 * r * r, Shape::Rect(w, h) => w * h, Shape::Empty => 0 }).sum();
        let confirm = ask!(confirm = elicit::<Yes>(format!("Area {area}?"))).ok().is_some_and(|y| y.yes);
        if let Some(Shape::Circle { r }) = shapes.last_mut() {
            *r += i64::from(confirm);
        }
        Ok(format!("{shapes:?} {verdicts:?} {area}"))
    }

    a_question_built_from_the_previous_round(args) => {
        let mut history: Vec<String> = Vec::new();
        let mut summary = format!("start {}", args.n);
        for i in 0..3 {
            let question = format!("Round {i}, so far: {summary}. Next?");
            let next = ask!(next = elicit::<Text>(question)).ok().map(|t| t.text);
            let Some(next) = next else { break };
            history.push(next.clone());
            summary = history.iter().map(|h| h.to_uppercase()).collect::<Vec<_>>().join("+");
        }
        Ok(summary)
    }

    a_for_over_a_range_whose_end_is_an_answer(args) => {
        let mut got = Vec::new();
        for i in 0..ask!(count = elicit::<Num>("How many?")).accepted().map_or(0, |n| n.num.clamp(0, 4)) {
            let v = ask!(v = elicit::<Text>(format!("Item {i} of {}?", args.n))).ok().map_or("-".to_owned(), |t| t.text);
            got.push(v);
        }
        for j in 0..args.n.min(ask!(take = elicit::<Num>(format!("Take of {got:?}?"))).accepted().map_or(0, |n| n.num.max(0) as u32)) {
            note!(args, "took {j}");
        }
        Ok(format!("{got:?}"))
    }

    while_let_scrutinee_destructures_an_answer(args) => {
        let mut pairs = BTreeMap::new();
        while let Some((key, value)) = ask!(pair = elicit::<Text>(format!("key=value ({})?", pairs.len()))).ok().and_then(|t| t.text.split_once('=').map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))) {
            if key.is_empty() {
                continue;
            }
            let weight = if value.is_empty() { ask!(weight = elicit::<Num>(format!("Weight for {key}?"))).accepted().map_or(0, |n| n.num) } else { value.len() as i64 };
            pairs.insert(key, weight);
            if pairs.len() as u32 > args.n {
                break;
            }
        }
        Ok(format!("{pairs:?}"))
    }

    struct_update_and_field_assignments_from_answers(args) => {
        let base = Point { x: 1, y: args.n as i64 };
        let moved = Point { x: ask!(x = elicit::<Num>("X?")).accepted().map_or(0, |n| n.num), ..base };
        let mut memo = Memo { title: format!("t{}", moved.x), note: None };
        memo.note = Some(ask!(note = elicit::<Text>(format!("Note for {}?", memo.title))).ok().map_or("none".to_owned(), |t| t.text));
        let mut person = Person { name: "p".into(), age: 1 };
        person.age = ask!(age = elicit::<Num>("Age?")).accepted().map_or(0, |n| n.num.clamp(0, 200) as u32);
        person.name.push_str(memo.note.as_deref().unwrap_or(""));
        Ok(format!("{moved:?} {memo:?} {person:?}"))
    }

    a_loop_breaks_with_a_tuple_chosen_by_an_answer(args) => {
        let mut tries = 0u32;
        let (value, accepted) = loop {
            tries += 1;
            match ask!(value = elicit::<Num>(format!("Try {tries}?"))) {
                Elicited::Accept(n) if n.num > i64::from(args.n) => break (n.num, true),
                Elicited::Accept(n) => {
                    note!(args, "too small {}", n.num);
                    continue;
                }
                Elicited::Decline(_) if tries < 2 => continue,
                Elicited::Decline(r) | Elicited::Cancel(r) => break (-1, r.key == "value"),
            }
        };
        Ok(format!("{value} {accepted} {tries}"))
    }

    match_on_ranges_and_at_bindings_of_an_answer(args) => {
        let n = ask!(n = elicit::<Num>("N?")).accepted().map_or(-1, |n| n.num);
        let label = match n {
            small @ 0..=9 => {
                let unit = ask!(unit = elicit::<Text>(format!("Unit for {small}?"))).ok().map(|t| t.text).unwrap_or_default();
                format!("{small}{unit}")
            }
            big @ 10.. if big % 2 == 0 => format!("even {big}"),
            big @ 10.. => {
                let ok = ask!(odd = elicit::<Yes>(format!("Odd {big} ok?"))).ok().is_some_and(|y| y.yes);
                format!("odd {big} {ok}")
            }
            _ => format!("negative {}", args.n),
        };
        Ok(label)
    }

    typed_lets_from_answers(args) => {
        let bytes: Vec<u8> = ask!(bytes = elicit::<Text>("Bytes?")).accepted().map_err(refuse)?.text.into_bytes();
        let count: u64 = ask!(count = elicit::<Num>(format!("Count for {} bytes?", bytes.len()))).accepted().map_err(refuse)?.num.try_into().map_err(|_| "negative count".to_owned())?;
        let (first, rest): (Option<u8>, Vec<u8>) = (bytes.first().copied(), bytes.iter().skip(1).copied().collect());
        let last: char = ask!(last = elicit::<Text>("Last?")).ok().and_then(|t| t.text.chars().last()).unwrap_or('.');
        Ok(format!("{first:?} {rest:?} {count} {last} {}", args.n))
    }

    an_answer_compared_in_an_if_condition_then_asked_in_else_if(args) => {
        let limit = args.n as i64;
        let verdict = if ask!(first = elicit::<Num>(format!("Above {limit}?"))).accepted().map_or(0, |n| n.num) as i64 > limit {
            "above".to_owned()
        } else if ask!(second = elicit::<Yes>("Equal then?")).ok().is_some_and(|y| y.yes) {
            let why = ask!(why = elicit::<Text>("Why?")).ok().map(|t| t.text).unwrap_or_default();
            format!("equal {why}")
        } else {
            "below".to_owned()
        };
        Ok(verdict)
    }

    a_while_condition_that_asks_then_reads_a_counter(args) => {
        let mut left = args.n;
        let mut names = Vec::new();
        while ask!(more = elicit::<Yes>(format!("More ({left} left)?"))).ok().is_some_and(|y| y.yes) && left > 0 {
            let name = ask!(name = elicit::<Text>("Name?")).ok().map(|t| t.text);
            names.extend(name);
            left -= 1;
        }
        Ok(format!("{names:?} {left}"))
    }

    raw_identifier_locals_held_across_asks(args) => {
        let r#type = format!("t{}", args.n);
        let r#match = i64::from(args.n);
        let r#kind = ask!(kind = elicit::<Text>(format!("Kind of {}?", r#type))).ok().map_or("none".to_owned(), |t| t.text);
        let total = r#match + ask!(more = elicit::<Num>(format!("More for {kind}?"))).accepted().map_or(0, |n| n.num);
        Ok(format!("{} {kind} {} {total}", r#type, r#match))
    }

    a_local_shadows_the_parameter_before_an_ask(args) => {
        let run = args.run.clone();
        let n = args.n;
        let args = format!("shadow{n}");
        let answer = ask!(answer = elicit::<Text>(format!("For {args}?"))).ok().map_or("-".to_owned(), |t| t.text);
        mrtr_tests::straight::note(&run, format!("{args} {answer}"));
        let args = args.len() + answer.len();
        let more = ask!(more = elicit::<Num>(format!("Len {args}?"))).accepted().map_or(0, |n| n.num);
        Ok(format!("{args} {more} {n}"))
    }

    pushes_into_fields_of_a_held_tuple(args) => {
        let mut groups: (Vec<String>, Vec<i64>) = (Vec::new(), vec![i64::from(args.n)]);
        groups.0.push(ask!(name = elicit::<Text>("Name?")).ok().map_or("anon".to_owned(), |t| t.text));
        groups.1.push(ask!(num = elicit::<Num>(format!("Number for {:?}?", groups.0))).accepted().map_or(-1, |n| n.num));
        groups.1.extend(ask!(extra = elicit::<Num>("Extra?")).accepted().ok().map(|n| n.num));
        Ok(format!("{groups:?}"))
    }

    a_work_queue_taken_and_drained_by_for_loops(args) => {
        let mut pending: Vec<String> = (0..args.n).map(|i| format!("job{i}")).collect();
        let mut done = Vec::new();
        let mut rounds = 0;
        while !pending.is_empty() && rounds < 3 {
            rounds += 1;
            for job in std::mem::take(&mut pending) {
                let split = ask!(split = elicit::<Yes>(format!("Split {job} ({} waiting)?", pending.len()))).ok().is_some_and(|y| y.yes);
                if split {
                    pending.push(format!("{job}a"));
                } else {
                    done.push(job);
                }
            }
            note!(args, "round {rounds}: {pending:?}");
        }
        let mut leftovers = vec![format!("l{}", args.n), "m".to_owned()];
        for item in leftovers.drain(..) {
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {item}?"))).ok().is_some_and(|y| y.yes);
            if keep {
                done.push(item);
            }
        }
        Ok(format!("{done:?} {pending:?} {leftovers:?}"))
    }

    a_tail_loop_that_breaks_with_the_result(args) => {
        let mut tries = 0;
        loop {
            tries += 1;
            let raw = ask!(raw = elicit::<Text>(format!("Number (try {tries})?"))).accepted().map_err(refuse)?.text;
            match parse_num(&raw) {
                Ok(n) if n > i64::from(args.n) => break Ok(format!("{n} after {tries}")),
                Ok(n) => note!(args, "small {n}"),
                Err(e) if tries >= 3 => break Err(e),
                Err(e) => note!(args, "{e}"),
            }
        }
    }

    a_tail_if_whose_condition_asks(args) => {
        let name = format!("n{}", args.n);
        note!(args, "start");
        if ask!(ok = elicit::<Yes>(format!("Proceed with {name}?"))).ok().is_some_and(|y| y.yes) {
            let extra = ask!(extra = elicit::<Text>("Extra?")).ok().map(|t| t.text);
            Ok(format!("{name} {extra:?}"))
        } else {
            Err(format!("stopped {name}"))
        }
    }

    lets_without_values_given_by_match_arm_expressions(args) => {
        let label: String;
        let weight;
        match args.n {
            0 => label = ask!(label = elicit::<Text>("Label?")).ok().map_or("none".to_owned(), |t| t.text),
            1 => label = "one".to_owned(),
            _ => return Err(format!("too many: {}", args.n)),
        }
        if label.len() > 3 {
            weight = ask!(weight = elicit::<Num>(format!("Weight of {label}?"))).accepted().map_or(0, |n| n.num);
        } else {
            weight = label.len() as i64;
        }
        let check = ask!(check = elicit::<Yes>(format!("{label}={weight}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{label} {weight} {check}"))
    }

    an_or_pattern_binding_used_after_an_ask(args) => {
        let shape = if args.n % 2 == 0 { Shape::Rect(i64::from(args.n), 2) } else { Shape::Circle { r: i64::from(args.n) } };
        let area = match shape {
            Shape::Rect(w, _) | Shape::Circle { r: w } if w > 0 => {
                let k = ask!(k = elicit::<Num>(format!("Scale {w}?"))).accepted().map_or(1, |n| n.num);
                w * k
            }
            Shape::Rect(..) | Shape::Circle { .. } | Shape::Empty => ask!(fallback = elicit::<Num>("Fallback?")).accepted().map_or(0, |n| n.num),
        };
        Ok(format!("{area}"))
    }

    a_string_shadowed_by_adding_an_answer(args) => {
        let line = format!("n{}", args.n);
        let line = line + &ask!(first = elicit::<Text>("First?")).ok().map_or("-".to_owned(), |t| t.text);
        note!(args, "{line}");
        let line = line + &ask!(second = elicit::<Text>(format!("After n{}?", args.n))).accepted().map_err(refuse)?.text;
        let [a, b] = [ask!(a = elicit::<Num>("A?")).accepted().map_or(0, |n| n.num), i64::from(args.n)];
        Ok(format!("{line} {a} {b}"))
    }

    closures_over_the_parameter_and_a_local_across_asks(args) => {
        let prefix = format!("p{}", args.n);
        let tag = |s: &str| format!("{prefix}/{}/{s}", args.n);
        let first = ask!(first = elicit::<Text>(tag("first"))).ok().map_or("-".to_owned(), |t| t.text);
        let tagged = tag(&first);
        let valid = |n: i64| (0..=i64::from(args.n) * 10).contains(&n);
        let n = ask!(n = elicit::<Num>(format!("N for {tagged}?"))).accepted().map_or(-1, |n| n.num);
        Ok(format!("{tagged} {} {}", valid(n), tag("end")))
    }


    // A local given a new value made from itself and an answer (`s = s + &ask!(..)..`), and a
    // local consumed by the value of a `break` or `return` that asks: each was saved at the ask
    // after the statement had moved it (sweep 32).
    a_string_rebuilt_from_itself_and_answers(args) => {
        let mut line = format!("n{}", args.n);
        line = line + &ask!(first = elicit::<Text>("First?")).ok().map_or("-".to_owned(), |t| t.text);
        note!(args, "{line}");
        for i in 0..args.n {
            line = line + &ask!(part = elicit::<Text>(format!("Part {i}?"))).ok().map_or("-".to_owned(), |t| t.text);
        }
        line = if ask!(more = elicit::<Yes>(format!("More after {line}?"))).ok().is_some_and(|y| y.yes) {
            line + &ask!(tail = elicit::<Text>("Tail?")).accepted().map_err(refuse)?.text
        } else {
            line
        };
        let mut acc = String::new();
        {
            while acc.len() < 3 {
                acc = acc + &ask!(piece = elicit::<Text>("Piece?")).ok().map_or("xx".to_owned(), |t| t.text);
            }
        }
        Ok(format!("{line} {acc}"))
    }

    a_vec_consumed_by_a_break_or_return_that_asks(args) => {
        let mut nums = Vec::new();
        let total = loop {
            nums.push(args.n);
            if nums.len() > 1 {
                break sum_with(nums, ask!(k = elicit::<Num>("K?")).accepted().map_or(0, |n| n.num));
            }
        };
        note!(args, "{total}");
        let mut seen = Vec::new();
        let joined = 'outer: loop {
            for i in 0..2u32 {
                seen.push(i + args.n);
                if seen.len() > 2 {
                    break 'outer sum_with(seen, ask!(j = elicit::<Num>(format!("J after {total}?"))).accepted().map_or(0, |n| n.num));
                }
            }
        };
        let mut more: Vec<u32> = Vec::new();
        for i in 0..3 {
            more.push(i);
            if i >= args.n {
                return Ok(sum_with(more, ask!(last = elicit::<Num>(format!("Last after {joined}?"))).accepted().map_err(refuse)?.num));
            }
        }
        Ok(format!("{total} {joined} {more:?}"))
    }


    // A field given a new value made from itself and an answer (`memo.title = memo.title +
    // ..`), also as a `match` arm's expression: the struct was saved partly moved (sweep 32).
    a_field_rebuilt_from_itself_and_an_answer(args) => {
        let mut memo = Memo { title: format!("t{}", args.n), note: None };
        memo.title = memo.title + &ask!(more = elicit::<Text>("More?")).ok().map_or("-".to_owned(), |t| t.text);
        let mut pair = (format!("p{}", args.n), 0i64);
        for i in 0..args.n {
            match i % 2 {
                0 => pair.0 = pair.0 + &ask!(even = elicit::<Text>(format!("Even {i}?"))).ok().map_or("-".to_owned(), |t| t.text),
                _ => pair.1 += ask!(odd = elicit::<Num>(format!("Odd {i}?"))).ok().map_or(0, |n| n.num),
            }
        }
        Ok(format!("{memo:?} {pair:?}"))
    }


    // A local moved into the value of a `return` from a `while`, and of a `break` out of a
    // labeled block from a `while let` inside it: the block's tail after the loop read the
    // local, which kept it alive at the ask (sweep 32).
    moved_into_values_that_leave_a_while_and_a_labeled_block(args) => {
        let mut words: Vec<String> = Vec::new();
        let mut budget = args.n;
        while budget > 0 {
            budget -= 1;
            words.push(format!("w{budget}"));
            if words.len() > 1 {
                return Ok(Tagged { value: (words, ask!(age = elicit::<Num>("Age?")).accepted().map_or(0, |n| n.num)), tag: "t".to_owned() }.value.0.join(","));
            }
        }
        let mut queue: VecDeque<u32> = (0..args.n).collect();
        let mut taken = Vec::new();
        let last = 'drain: {
            while let Some(item) = queue.pop_front() {
                taken.push(item);
                if item == 1 {
                    break 'drain sum_with(taken, ask!(extra = elicit::<Num>("Extra?")).accepted().map_or(0, |n| n.num));
                }
            }
            format!("none {taken:?}")
        };
        Ok(format!("{last} {queue:?} {words:?}"))
    }

    // `text = text + ..` in the `else` of an `if let` in a labeled `for`, and a `Vec` rebuilt
    // from itself and an answer (sweep 32).
    rebuilt_in_an_else_of_if_let_then_concatenated(args) => {
        let mut text = format!("s{}", args.n);
        let mut seen: Vec<u32> = Vec::new();
        'outer: for i in 0..3u32 {
            if let Some(j) = (i % 2 == 1).then_some(i) {
                seen.push(j);
                continue 'outer;
            } else {
                text = text + &ask!(part = elicit::<Text>(format!("Part {i}?"))).ok().map_or("-".to_owned(), |t| t.text);
            }
            seen.push(i * 10);
            if seen.len() as u32 > args.n {
                break 'outer;
            }
        }
        seen = [seen, Vec::from([ask!(more = elicit::<Num>("More?")).accepted().map_or(0, |n| n.num as u32)])].concat();
        Ok(format!("{text} {seen:?}"))
    }

    // -----------------------------------------------------------------------------------------
    // Sweep 34: bodies a user would write that the corpus above did not yet hold.
    // -----------------------------------------------------------------------------------------

    async_helpers_that_borrow_held_locals(args) => {
        let mut words: Vec<String> = (0..args.n).map(|i| format!("w{i}")).collect();
        let mut doubled: Vec<i64> = Vec::new();
        let first = ask!(first = elicit::<Text>("First word?")).accepted().map_err(refuse)?.text;
        words.push(first.clone());
        let long = count_long(&words, 2).await;
        push_doubled(&mut doubled, long as i64).await;
        let loud = shout(&first).await;
        note!(args, "long {long} loud {loud}");
        let more = ask!(more = elicit::<Num>(format!("More than {long}?"))).accepted().map_or(0, |n| n.num);
        push_doubled(&mut doubled, more).await;
        let again = shout(words.last().map(String::as_str).unwrap_or("")).await;
        Ok(format!("{words:?} {doubled:?} {loud} {again}"))
    }

    // An async helper given `&mut` of a held local and an answer: the ask saves the local
    // while the call held it mutably borrowed (sweep 34: rustc's E0502 at the `ask!`).
    async_helpers_awaited_on_an_answer_beside_a_borrow(args) => {
        let mut log: Vec<i64> = vec![i64::from(args.n)];
        push_doubled(&mut log, ask!(a = elicit::<Num>("A?")).accepted().map_or(-1, |n| n.num)).await;
        note!(args, "log {log:?}");
        let label = format!("l{}", args.n);
        let joined = join_async(&label, &ask!(b = elicit::<Text>(format!("B after {log:?}?"))).ok().map_or("-".to_owned(), |t| t.text)).await;
        let both = [joined.clone(), label.clone()];
        let n = count_long(&both, ask!(min = elicit::<Num>("Min?")).accepted().map_or(0, |n| n.num.max(0) as usize)).await;
        let loud = shout(&ask!(loud = elicit::<Text>(format!("Loud after {n}?"))).ok().map_or(label.clone(), |t| t.text)).await.len();
        Ok(format!("{log:?} {joined} {n} {loud}"))
    }

    join_and_sleep_between_asks(args) => {
        let a = ask!(a = elicit::<Num>("A?")).accepted().map_err(refuse)?.num;
        let (x, y) = tokio::join!(double(a), double(a + 1));
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        note!(args, "joined {x} {y}");
        let b = ask!(b = elicit::<Num>(format!("B after {x},{y}?"))).accepted().map_or(0, |n| n.num);
        let results = futures::future::join_all((0..args.n).map(|i| double(b + i64::from(i)))).await;
        let (p, q) = futures::join!(async { x + b }, async { y * b });
        let timed = tokio::time::timeout(std::time::Duration::from_secs(60), double(p)).await.map_err(|e| e.to_string())?;
        note!(args, "results {results:?}");
        let c = ask!(c = elicit::<Yes>(format!("Keep {p} {q} {timed}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{x} {y} {results:?} {p} {q} {timed} {c}"))
    }

    iterator_chains_with_closures_between_asks(args) => {
        let min = args.n as usize;
        let words: Vec<String> = ask!(words = elicit::<Text>("Words?")).accepted().map_err(refuse)?.text.split(',').map(|w| w.trim().to_owned()).filter(|w| !w.is_empty()).collect();
        let long: Vec<&String> = words.iter().filter(|w| w.len() > min).collect();
        let count = long.len();
        let tag = format!("#{count}");
        let tagged: Vec<String> = words.iter().map(move |w| format!("{w}{tag}")).collect();
        let total: usize = words.iter().map(String::len).sum();
        let longest = words.iter().max_by_key(|w| w.len()).cloned();
        let initials: Vec<(usize, char)> = words.iter().enumerate().filter_map(|(i, w)| w.chars().next().map(|c| (i, c))).collect();
        note!(args, "{count} {total} {longest:?} {initials:?}");
        let keep = ask!(keep = elicit::<Num>(format!("Keep how many of {tagged:?}?"))).accepted().map_or(1, |n| n.num.clamp(0, 10) as usize);
        let kept: Vec<String> = tagged.into_iter().take(keep).rev().collect();
        let lens: Vec<usize> = words.iter().map(|w| w.len()).collect();
        let steps: Vec<i64> = lens.windows(2).map(|w| w[1] as i64 - w[0] as i64).collect();
        let by_first = initials.iter().fold(BTreeMap::new(), |mut m: BTreeMap<char, usize>, (_, c)| {
            *m.entry(*c).or_default() += 1;
            m
        });
        Ok(format!("{kept:?} {steps:?} {by_first:?} {longest:?} {}", words.iter().zip(lens.iter()).filter(|(w, l)| **l > min && w.is_ascii()).count()))
    }

    custom_error_types_through_from_and_question_mark(args) => {
        let raw = ask!(raw = elicit::<Text>("Value?")).accepted().map_err(refuse)?.text;
        let checked = validate(&raw)?;
        let n: i64 = checked.parse().map_err(FormError::from)?;
        note!(args, "n {n}");
        let first: Result<i64, FormError> = if n > i64::from(args.n) { Ok(n) } else { Err(FormError::Bad(format!("{n} too small"))) };
        let limit = ask!(limit = elicit::<Text>(format!("Limit for {n}?"))).accepted().map_err(refuse)?.text;
        let limit = parse_limit(&limit).map_err(|e| format!("limit: {e}"))?;
        if n > limit {
            return Err(FormError::TooLong(n as usize).into());
        }
        fn inner(s: &str) -> Result<i64, FormError> {
            Ok(s.trim().parse::<i64>()? + 1)
        }
        let again = inner(&ask!(again = elicit::<Text>("Again?")).ok().map_or("0".to_owned(), |t| t.text))?;
        Ok(format!("{n} <= {limit} {first:?} {again}"))
    }

    match_guards_that_read_held_locals(args) => {
        let limit = i64::from(args.n) * 10;
        let banned: Vec<String> = vec!["x".to_owned(), format!("b{}", args.n)];
        let mut seen = BTreeSet::new();
        for i in 0..3 {
            let verdict = match ask!(value = elicit::<Num>(format!("Value {i} (limit {limit})?"))) {
                Elicited::Accept(Num { num }) if num > limit => format!("over {num}"),
                Elicited::Accept(Num { num }) if seen.contains(&num) => format!("again {num}"),
                Elicited::Accept(Num { num }) => {
                    seen.insert(num);
                    format!("ok {num}")
                }
                Elicited::Decline(_) if seen.is_empty() => "declined first".to_owned(),
                Elicited::Decline(_) | Elicited::Cancel(_) => break,
            };
            note!(args, "{verdict}");
        }
        let word = ask!(word = elicit::<Text>(format!("Word after {seen:?}?"))).ok().map(|t| t.text).unwrap_or_default();
        let kind = match word.as_str() {
            w if banned.iter().any(|b| b == w) => "banned",
            w if w.len() as i64 > limit => "long",
            "" => "empty",
            _ => "fine",
        };
        Ok(format!("{seen:?} {kind}"))
    }

    nested_option_result_answers(args) => {
        let parsed: Option<Result<i64, String>> = ask!(maybe = elicit::<Text>("A number, maybe?")).ok().map(|t| parse_num(&t.text));
        let mut notes = Vec::new();
        match &parsed {
            Some(Ok(n)) if *n > 0 => notes.push(format!("positive {n}")),
            Some(Ok(n)) => notes.push(format!("other {n}")),
            Some(Err(e)) => notes.push(format!("err {e}")),
            None => notes.push("none".to_owned()),
        }
        let flipped: Result<Option<i64>, String> = parsed.clone().transpose();
        let second: Option<Option<i64>> = match flipped {
            Ok(Some(n)) => Some(ask!(scale = elicit::<Num>(format!("Scale {n}?"))).ok().map(|s| s.num * n)),
            Ok(None) => None,
            Err(e) => {
                note!(args, "bad {e}");
                Some(None)
            }
        };
        let deep: Result<Option<Result<u8, String>>, String> = Ok(second.flatten().map(|v| u8::try_from(v).map_err(|e| e.to_string())));
        let last = ask!(last = elicit::<Yes>(format!("Done with {deep:?}?"))).ok().map(|y| y.yes);
        Ok(format!("{parsed:?} {notes:?} {second:?} {deep:?} {last:?} {}", args.n))
    }

    sets_and_queues_held_across_asks(args) => {
        let mut tags: HashSet<String> = (0..args.n).map(|i| format!("t{i}")).collect();
        let mut ordered: BTreeSet<(i64, String)> = BTreeSet::new();
        let mut recent: VecDeque<i64> = VecDeque::with_capacity(3);
        for i in 0..3i64 {
            let v = ask!(v = elicit::<Num>(format!("Value {i}?"))).accepted().map_or(i, |n| n.num);
            if recent.len() == 3 {
                recent.pop_front();
            }
            recent.push_back(v);
            ordered.insert((v, format!("v{i}")));
            if !tags.insert(format!("t{v}")) {
                note!(args, "dup t{v}");
            }
        }
        let mut sorted_tags: Vec<_> = tags.iter().cloned().collect();
        sorted_tags.sort();
        let cut = ask!(cut = elicit::<Num>(format!("Cut {sorted_tags:?}?"))).accepted().map_or(0, |n| n.num);
        let above: Vec<_> = ordered.range((cut, String::new())..).map(|(v, _)| *v).collect();
        tags.retain(|t| t.len() > 2);
        let mut left: Vec<_> = tags.into_iter().collect();
        left.sort();
        Ok(format!("{above:?} {recent:?} {left:?} {:?}", ordered.first()))
    }

    boxes_and_recursive_enums_held(args) => {
        let mut tree = Tree::Node(Box::new(Tree::Leaf(i64::from(args.n))), Box::new(Tree::Leaf(1)));
        let mut list: Option<Box<Entry>> = None;
        let boxed: Box<Person> = Box::new(Person { name: format!("b{}", args.n), age: args.n });
        for i in 0..2 {
            let v = ask!(leaf = elicit::<Num>(format!("Leaf {i} for a tree of {}?", tree.sum()))).accepted().map_or(0, |n| n.num);
            tree = Tree::Node(Box::new(tree), Box::new(Tree::Leaf(v)));
            list = Some(Box::new(Entry { value: v, next: list.take() }));
        }
        let mut values = Vec::new();
        let mut cursor = list.as_deref();
        while let Some(entry) = cursor {
            values.push(entry.value);
            cursor = entry.next.as_deref();
        }
        let older = ask!(older = elicit::<Num>(format!("Older than {}?", boxed.age))).accepted().map_or(0, |n| n.num as u32);
        let boxed = Box::new(Person { age: boxed.age + older, ..*boxed });
        Ok(format!("{} {values:?} {boxed:?} {tree:?}", tree.sum()))
    }

    shadowed_with_a_new_type_after_each_ask(args) => {
        let value = format!("{}", args.n * 7);
        let value: i64 = value.parse().map_err(|e: std::num::ParseIntError| e.to_string())?;
        let extra = ask!(extra = elicit::<Num>(format!("Extra for {value}?"))).accepted().map_or(0, |n| n.num);
        let value = (value, extra);
        let value = vec![value.0, value.1];
        let label = ask!(label = elicit::<Text>(format!("Label for {value:?}?"))).ok().map(|t| t.text);
        let value: Option<(String, Vec<i64>)> = label.map(|l| (l, value));
        let value = match value {
            Some((l, v)) => {
                let more = ask!(more = elicit::<Yes>(format!("More on {l}?"))).ok().is_some_and(|y| y.yes);
                format!("{l}:{v:?}:{more}")
            }
            None => "none".to_owned(),
        };
        let value = value.len();
        Ok(format!("{value}"))
    }

    // `let`s without a value given theirs by `x = value;` after an ask, past other `let`s
    // (sweep 34: an error that said to give the value before any other `let`).
    a_value_assigned_only_after_the_ask(args) => {
        let total: i64;
        #[allow(clippy::needless_late_init)]
        let label: String;
        let first = ask!(first = elicit::<Num>("First?")).accepted().map_or(0, |n| n.num);
        total = first + i64::from(args.n);
        note!(args, "total {total}");
        let second = ask!(second = elicit::<Text>(format!("Second after {total}?"))).ok().map(|t| t.text);
        let mut count;
        let third = ask!(third = elicit::<Num>(format!("Third after {second:?}?"))).accepted().map_or(0, |n| n.num);
        count = third;
        count += ask!(fourth = elicit::<Num>(format!("Fourth after {count}?"))).accepted().map_or(0, |n| n.num);
        if let Some(text) = second {
            label = text;
        } else {
            label = "none".to_owned();
        }
        Ok(format!("{total} {label} {count}"))
    }

    counted_loop_with_early_break_values(args) => {
        let mut attempts = 0u32;
        let mut wrong: Vec<String> = Vec::new();
        let secret = format!("s{}", args.n);
        let outcome: Result<u32, String> = loop {
            attempts += 1;
            if attempts > 3 {
                break Err(format!("gave up after {wrong:?}"));
            }
            let guess = match ask!(guess = elicit::<Text>(format!("Guess {attempts}?"))) {
                Elicited::Accept(t) => t.text,
                Elicited::Decline(_) => continue,
                Elicited::Cancel(r) => break Err(refuse(r)),
            };
            if guess == secret {
                break Ok(attempts);
            }
            wrong.push(guess);
        };
        note!(args, "outcome {outcome:?}");
        let tries = outcome?;
        let rate = ask!(rate = elicit::<Num>(format!("Rate after {tries}?"))).accepted().map_or(0, |n| n.num);
        Ok(format!("{tries} {rate} {wrong:?}"))
    }

    labeled_loops_three_deep(args) => {
        let mut path = Vec::new();
        let mut asked = 0;
        'outer: for a in 0..2u32 {
            'middle: for b in 0..2u32 {
                let mut c = 0u32;
                'inner: loop {
                    c += 1;
                    if c > 2 {
                        break 'inner;
                    }
                    if (a + b + c + args.n) % 4 == 0 {
                        continue 'middle;
                    }
                    asked += 1;
                    let v = ask!(step = elicit::<Num>(format!("Step {a}{b}{c}?"))).accepted().map_or(-1, |n| n.num);
                    path.push(format!("{a}{b}{c}={v}"));
                    match v {
                        0 => continue 'inner,
                        1 => continue 'middle,
                        2 => continue 'outer,
                        3 => break 'outer,
                        4 => break 'middle,
                        _ if asked > 5 => break 'outer,
                        _ => {}
                    }
                    note!(args, "after {a}{b}{c}");
                }
                note!(args, "middle {a}{b}");
            }
            note!(args, "outer {a}");
        }
        Ok(format!("{path:?} {asked}"))
    }

    unicode_text_across_asks(args) => {
        let greeting = format!("héllo wörld 🦀 {}", args.n);
        let name = ask!(name = elicit::<Text>(format!("{greeting}: name?"))).accepted().map_err(refuse)?.text;
        let reversed: String = name.chars().rev().collect();
        let upper = name.to_uppercase();
        let initial = name.chars().next().unwrap_or('∅');
        let byte_len = name.len();
        let char_len = name.chars().count();
        let positions: Vec<(usize, char)> = name.char_indices().filter(|(_, c)| !c.is_ascii()).collect();
        note!(args, "{reversed} {upper} {initial} {byte_len} {char_len} {positions:?}");
        let suffix = ask!(suffix = elicit::<Text>(format!("Suffix for {initial}…?"))).ok().map_or("—".to_owned(), |t| t.text);
        let mut out = greeting.replace("ö", "oe");
        out.push(initial);
        out.push_str(&suffix);
        let cut: String = out.chars().take(12).collect();
        Ok(format!("{out} {cut} {reversed} {}", suffix.escape_unicode().count()))
    }

    wide_integers_floats_and_byte_arrays(args) => {
        let mut big: u128 = u128::from(args.n) * 1_000_000_000_000_000_000_000;
        let mut signed: i128 = -(i128::from(args.n) << 90);
        let mut ratio: f32 = 0.1 * args.n as f32;
        let mut key = [0u8; 32];
        let mut nibbles = [0u8; 4];
        for (i, b) in key.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(7).wrapping_add(args.n as u8);
        }
        let mut letter = 'a';
        for i in 0..2 {
            let step = ask!(step = elicit::<Num>(format!("Step {i}: {big} {signed} {ratio} {}?", key[31]))).accepted().map_or(1, |n| n.num);
            big = big.wrapping_mul(step.unsigned_abs() as u128 + 3);
            signed = signed.saturating_sub(i128::from(step) << 100);
            ratio = ratio * 1.5 + step as f32;
            key.rotate_left(step.rem_euclid(32) as usize);
            nibbles[i] = (step & 0x0f) as u8;
            letter = char::from(b'a' + step.rem_euclid(26) as u8);
        }
        let sum: u32 = key.iter().map(|b| u32::from(*b)).sum();
        let hex: String = key[..4].iter().map(|b| format!("{b:02x}")).collect();
        Ok(format!("{big} {signed} {ratio:?} {} {sum} {hex} {nibbles:?} {letter}", ratio.to_bits()))
    }

    asks_in_the_else_of_let_else_in_a_for(args) => {
        let inputs: Vec<String> = vec![format!("{}", args.n), "x".to_owned(), "7".to_owned()];
        let mut sum = 0i64;
        for raw in inputs.clone() {
            let Ok(v) = raw.parse::<i64>() else {
                let fixed = ask!(fix = elicit::<Num>(format!("Fix {raw}?"))).ok().map(|n| n.num);
                match fixed {
                    Some(f) => sum += f,
                    None => note!(args, "skipped {raw}"),
                }
                continue;
            };
            sum += v;
            let Some(half) = (v % 2 == 0).then_some(v / 2) else {
                let keep = ask!(odd = elicit::<Yes>(format!("Keep odd {v}?"))).ok().is_some_and(|y| y.yes);
                if !keep {
                    sum -= v;
                }
                continue;
            };
            note!(args, "half {half}");
        }
        Ok(format!("{sum} {inputs:?}"))
    }

    an_async_block_awaited_in_place_between_asks(args) => {
        let base = ask!(base = elicit::<Num>("Base?")).accepted().map_or(1, |n| n.num);
        let label = format!("l{}", args.n);
        let computed = async {
            let d = double(base).await;
            d + label.len() as i64
        }
        .await;
        let moved = async move { format!("{label}:{computed}") }.await;
        note!(args, "{computed} {moved}");
        let more = ask!(more = elicit::<Num>(format!("More after {moved}?"))).accepted().map_or(0, |n| n.num);
        let closure = |x: i64| async move { double(x).await + 1 };
        let last = closure(more).await;
        Ok(format!("{computed} {moved} {last}"))
    }

    closures_capturing_held_locals_by_ref_and_by_move(args) => {
        let prefix = format!("p{}", args.n);
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        let name_of = |i: usize| format!("{prefix}-{i}");
        let first = ask!(first = elicit::<Num>(format!("First for {}?", name_of(0)))).accepted().map_or(0, |n| n.num.clamp(0, 5) as usize);
        for i in 0..first {
            *counts.entry(name_of(i)).or_default() += i;
        }
        let owned_prefix = prefix.clone();
        let make = move |s: &str| format!("{owned_prefix}/{s}");
        let made: Vec<String> = counts.keys().map(|k| make(k)).collect();
        note!(args, "made {made:?}");
        let second = ask!(second = elicit::<Text>(format!("Second after {}?", made.len()))).ok().map(|t| t.text).unwrap_or_default();
        let mut bump = |k: &str| *counts.entry(k.to_owned()).or_default() += 100;
        bump(&second);
        bump(&name_of(9));
        let total: usize = counts.values().sum();
        Ok(format!("{} {total} {counts:?}", name_of(second.len())))
    }

    tuples_of_structs_and_enums_with_data_held(args) => {
        let mut roster: Vec<(Person, Option<Shape>, Verdict<u32, String>)> = vec![(Person { name: "a".to_owned(), age: args.n }, None, Verdict::Pending)];
        let mut pair: (Point, Point) = (Point { x: 0, y: 0 }, Point { x: i64::from(args.n), y: 1 });
        for i in 0..2 {
            match ask!(shape = elicit::<Num>(format!("Shape {i} of {}?", roster.len()))) {
                Elicited::Accept(Num { num }) if num > 0 => {
                    roster.push((Person { name: format!("r{num}"), age: num as u32 }, Some(Shape::Circle { r: num }), Verdict::Done(num as u32)));
                    pair.0.x += num;
                }
                Elicited::Accept(Num { num }) => roster.push((Person { name: "z".to_owned(), age: 0 }, Some(Shape::Rect(num, -num)), Verdict::Failed(format!("{num}")))),
                _ => {
                    pair = (pair.1.clone(), pair.0.clone());
                }
            }
        }
        let (people, shapes): (Vec<_>, Vec<_>) = roster.iter().map(|(p, s, _)| (p.name.clone(), s.clone())).unzip();
        let ok = ask!(ok = elicit::<Yes>(format!("{people:?} {shapes:?}?"))).ok().is_some_and(|y| y.yes);
        if let Some((person, Some(Shape::Circle { r }), Verdict::Done(d))) = roster.last_mut() {
            person.age += *d;
            *r *= if ok { 2 } else { 3 };
        }
        Ok(format!("{roster:?} {pair:?}"))
    }

    mem_swap_take_and_replace_between_asks(args) => {
        let mut current = vec![format!("c{}", args.n)];
        let mut previous: Vec<String> = Vec::new();
        for i in 0..2 {
            let item = ask!(item = elicit::<Text>(format!("Item {i} after {current:?}?"))).ok().map_or(format!("d{i}"), |t| t.text);
            std::mem::swap(&mut current, &mut previous);
            current.push(item);
            current.extend(previous.iter().cloned());
        }
        let taken = std::mem::take(&mut previous);
        let old = std::mem::replace(&mut current, vec!["fresh".to_owned()]);
        let last = ask!(last = elicit::<Text>(format!("Last for {taken:?}?"))).ok().map(|t| t.text);
        current.extend(last);
        Ok(format!("{current:?} {previous:?} {taken:?} {old:?}"))
    }

    collect_into_result_with_question_mark(args) => {
        let raw = ask!(list = elicit::<Text>("Comma separated numbers?")).accepted().map_err(refuse)?.text;
        let nums: Vec<i64> = raw.split(',').map(|s| s.trim().parse::<i64>()).collect::<Result<_, _>>().map_err(|e| format!("bad list: {e}"))?;
        let positives: Option<Vec<u32>> = nums.iter().map(|n| u32::try_from(*n).ok()).collect();
        note!(args, "nums {nums:?} positives {positives:?}");
        let pick = ask!(pick = elicit::<Num>(format!("Index into {nums:?}?"))).accepted().map_or(0, |n| n.num);
        let chosen = nums.get(usize::try_from(pick).map_err(|e| e.to_string())?).copied().ok_or_else(|| format!("no index {pick}"))?;
        let (even, odd): (Vec<i64>, Vec<i64>) = nums.iter().partition(|n| *n % 2 == 0);
        Ok(format!("{chosen} {even:?} {odd:?} {positives:?} {}", args.n))
    }

    sort_by_key_and_binary_search_between_asks(args) => {
        let mut people: Vec<Person> = (0..args.n).map(|i| Person { name: format!("p{}", args.n - i), age: i * 3 }).collect();
        let age = ask!(age = elicit::<Num>("Age to add?")).accepted().map_or(0, |n| n.num as u32);
        people.push(Person { name: "new".to_owned(), age });
        people.sort_by(|a, b| b.age.cmp(&a.age).then_with(|| a.name.cmp(&b.name)));
        let ages: Vec<u32> = people.iter().map(|p| p.age).rev().collect();
        let found = ages.binary_search(&age);
        note!(args, "found {found:?}");
        let name = ask!(name = elicit::<Text>(format!("Find by name among {}?", people.len()))).ok().map(|t| t.text).unwrap_or_default();
        let position = people.iter().position(|p| p.name == name);
        people.sort_unstable_by_key(|p| p.name.clone());
        people.dedup_by_key(|p| p.age);
        Ok(format!("{found:?} {position:?} {:?}", people.iter().map(|p| &p.name).collect::<Vec<_>>()))
    }

    while_loop_with_a_countdown_and_deadline_answer(args) => {
        let mut remaining = i64::from(args.n) + 1;
        let mut log: Vec<String> = Vec::new();
        let mut total = 0i64;
        while remaining > 0 && total < 100 {
            remaining -= 1;
            let step = ask!(step = elicit::<Num>(format!("Step with {remaining} left, total {total}?"))).ok().map(|n| n.num);
            let Some(step) = step else {
                log.push("skip".to_owned());
                continue;
            };
            total += step;
            if step < 0 {
                log.push(format!("neg {step}"));
                break;
            }
            log.push(format!("+{step}"));
        }
        Ok(format!("{remaining} {total} {log:?}"))
    }

    string_building_with_push_and_insert(args) => {
        let mut s = String::with_capacity(16);
        s.push_str("start");
        for i in 0..args.n {
            let t = ask!(part = elicit::<Text>(format!("Part {i} of {s}?"))).ok().map(|t| t.text);
            match t {
                Some(t) if t.starts_with('-') => s.insert_str(0, &t),
                Some(t) => {
                    s.push('/');
                    s += &t;
                }
                None => s.truncate(s.len().saturating_sub(1)),
            }
        }
        s.make_ascii_uppercase();
        let sep = ask!(sep = elicit::<Text>("Separator?")).ok().map_or(",".to_owned(), |t| t.text);
        let parts: Vec<&str> = s.split('/').collect();
        Ok(parts.join(&sep))
    }

    // The last `match` has an asking arm whose bindings only its guard reads (sweep 34: rustc
    // warned that they were unused, at the user's pattern).
    matches_with_bindings_at_and_nested_enums(args) => {
        let answer = ask!(pick = elicit::<Pick>("Color?"));
        let code = match &answer {
            Elicited::Accept(Pick { color: c @ (Color::Red | Color::Green) }) => format!("warm-ish {c:?}"),
            Elicited::Accept(Pick { color }) => format!("cool {color:?}"),
            Elicited::Decline(r) | Elicited::Cancel(r) => format!("no {}", r.key),
        };
        let number = match ask!(num = elicit::<Num>(format!("Number after {code}?"))) {
            Elicited::Accept(Num { num: n @ 1..=9 }) => Some(Verdict::Done(n)),
            Elicited::Accept(Num { num: n @ (i64::MIN..=0) }) => Some(Verdict::Failed(format!("low {n}"))),
            Elicited::Accept(Num { num }) => Some(Verdict::Failed(num.to_string())),
            _ => None,
        };
        let last = match (&number, args.n) {
            (Some(Verdict::Done(d)), n) if *d as u32 == n => ask!(exact = elicit::<Yes>("Exact!?")).ok().map(|y| y.yes.to_string()),
            (Some(Verdict::Failed(why)), _) => Some(why.clone()),
            _ => None,
        };
        Ok(format!("{code} {number:?} {last:?} {}", describe(answer)))
    }

    impl_blocks_and_traits_inside_the_body(args) => {
        #[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
        struct Cart {
            items: Vec<(String, u32)>,
        }
        impl Cart {
            fn total(&self) -> u32 {
                self.items.iter().map(|(_, p)| p).sum()
            }
        }
        trait Describe {
            fn describe(&self) -> String;
        }
        impl Describe for Cart {
            fn describe(&self) -> String {
                format!("{} items, {}", self.items.len(), self.total())
            }
        }
        const LIMIT: u32 = 50;
        static PREFIX: &str = "cart";
        let mut cart = Cart { items: vec![(format!("{PREFIX}{}", args.n), args.n)] };
        loop {
            let price = ask!(price = elicit::<Num>(format!("Price? ({})", cart.describe()))).ok().map(|n| n.num as u32);
            match price {
                Some(p) if cart.total() + p <= LIMIT => cart.items.push((format!("i{p}"), p)),
                Some(_) => break,
                None => break,
            }
        }
        let ok = ask!(ok = elicit::<Yes>(format!("Buy {}?", cart.describe()))).ok().is_some_and(|y| y.yes);
        Ok(format!("{ok} {cart:?}"))
    }

    a_for_over_chars_and_bytes_of_an_answer(args) => {
        let word = ask!(word = elicit::<Text>("Word?")).accepted().map_err(refuse)?.text;
        let mut out = String::new();
        for (i, c) in word.chars().enumerate() {
            if c.is_uppercase() {
                let keep = ask!(keep = elicit::<Yes>(format!("Keep {c} at {i}?"))).ok().is_some_and(|y| y.yes);
                if !keep {
                    continue;
                }
            }
            out.push(c);
        }
        let mut sum = 0u32;
        for b in word.bytes().take(args.n as usize) {
            sum += u32::from(b);
            if b == b'!' {
                sum += ask!(bang = elicit::<Num>("Bang?")).accepted().map_or(0, |n| n.num as u32);
            }
        }
        Ok(format!("{out} {sum}"))
    }

    a_held_option_taken_in_a_while_let_with_asks(args) => {
        let mut pending: Option<String> = (args.n > 0).then(|| format!("job{}", args.n));
        let mut done: Vec<String> = Vec::new();
        while let Some(job) = pending.take() {
            let follow = ask!(follow = elicit::<Text>(format!("After {job}?"))).ok().map(|t| t.text).filter(|t| !t.is_empty());
            done.push(job);
            pending = follow;
            if done.len() > 3 {
                break;
            }
        }
        pending.get_or_insert_with(|| "none".to_owned());
        let extra = pending.as_mut().map(|p| {
            p.push('!');
            p.len()
        });
        Ok(format!("{done:?} {pending:?} {extra:?}"))
    }

    early_return_of_an_err_mapped_from_an_answer(args) => {
        let mut totals: HashMap<String, i64> = HashMap::new();
        for name in ["a", "b", "c"].map(str::to_owned).into_iter().take(args.n as usize + 1) {
            let amount = ask!(amount = elicit::<Text>(format!("Amount for {name}?"))).accepted().map_err(|r| format!("{name}: {}", refuse(r)))?.text;
            let amount: i64 = amount.trim().parse().map_err(|e: std::num::ParseIntError| format!("{name}: {e}"))?;
            *totals.entry(name.to_owned()).or_insert(0) += amount;
            if amount == 0 {
                return Ok(format!("zero at {name}"));
            }
        }
        let mut totals: Vec<_> = totals.into_iter().collect();
        totals.sort();
        Ok(format!("{totals:?}"))
    }

    nested_closures_and_a_fold_over_answers(args) => {
        let mut answers: Vec<i64> = Vec::new();
        for i in 0..args.n.min(3) {
            answers.push(ask!(n = elicit::<Num>(format!("N {i}?"))).accepted().map_or(0, |n| n.num));
        }
        let weight = i64::from(args.n) + 1;
        let weigh = |v: &i64| v * weight;
        let score = answers.iter().map(weigh).fold((0i64, 0usize), |(sum, count), v| (sum + v, count + 1));
        let pick_max = |xs: &[i64]| xs.iter().copied().max();
        let best = pick_max(&answers);
        note!(args, "score {score:?} best {best:?}");
        let confirm = ask!(confirm = elicit::<Yes>(format!("Score {score:?}?"))).ok().is_some_and(|y| y.yes);
        let adjust = |s: (i64, usize)| if confirm { s.0 } else { s.0 - s.1 as i64 };
        Ok(format!("{} {best:?} {}", adjust(score), pick_max(&[weight, 3]).unwrap_or(0)))
    }

    a_spawned_task_awaited_between_asks(args) => {
        let n = ask!(n = elicit::<Num>("N?")).accepted().map_or(1, |n| n.num);
        let label = format!("l{}", args.n);
        let moved = label.clone();
        let joined = tokio::spawn(async move { format!("{moved}:{}", n * 3) }).await.map_err(|e| e.to_string())?;
        let blocking = tokio::task::spawn_blocking(move || n.pow(2)).await.map_err(|e| e.to_string())?;
        note!(args, "{joined} {blocking}");
        let more = ask!(more = elicit::<Text>(format!("More for {label} {joined}?"))).ok().map(|t| t.text);
        Ok(format!("{joined} {blocking} {more:?}"))
    }

    let_else_with_a_slice_pattern_and_asks_after(args) => {
        let parts: Vec<String> = ask!(line = elicit::<Text>("Command line?")).accepted().map_err(refuse)?.text.split_whitespace().map(str::to_owned).collect();
        let [command, rest @ ..] = parts.as_slice() else {
            return Err("empty command".to_owned());
        };
        let command = command.clone();
        let rest = rest.to_vec();
        let confirm = ask!(confirm = elicit::<Yes>(format!("Run {command} with {rest:?}?"))).ok().is_some_and(|y| y.yes);
        if !confirm {
            return Ok(format!("not run {}", args.n));
        }
        let out = match (command.as_str(), rest.as_slice()) {
            ("add", [a, b]) => format!("{}", parse_num(a)? + parse_num(b)?),
            ("echo", words) => words.join(" "),
            (other, _) => {
                let other = other.to_owned();
                ask!(unknown = elicit::<Text>(format!("Unknown {other}; meant?"))).ok().map_or("?".to_owned(), |t| t.text)
            }
        };
        Ok(out)
    }

    a_struct_with_methods_changed_between_asks(args) => {
        #[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
        struct Tally {
            yes: u32,
            no: u32,
            voters: Vec<String>,
        }
        impl Tally {
            fn vote(&mut self, who: &str, yes: bool) {
                if yes { self.yes += 1 } else { self.no += 1 }
                self.voters.push(who.to_owned());
            }
            fn passed(&self) -> bool {
                self.yes > self.no
            }
        }
        let mut tally = Tally::default();
        for who in (0..=args.n).map(|i| format!("v{i}")) {
            let vote = ask!(vote = elicit::<Yes>(format!("{who} votes?"))).ok().map(|y| y.yes);
            match vote {
                Some(v) => tally.vote(&who, v),
                None => note!(args, "{who} abstains"),
            }
        }
        let passed = tally.passed();
        Ok(format!("{passed} {tally:?}"))
    }

    ask_in_a_match_on_a_tuple_of_held_locals(args) => {
        let mode = if args.n % 2 == 0 { "even" } else { "odd" }.to_owned();
        let level = args.n / 2;
        let out = match (mode.as_str(), level) {
            ("even", 0) => "zero".to_owned(),
            ("even", l) => {
                let t = ask!(even = elicit::<Text>(format!("Even level {l}?"))).ok().map_or("-".to_owned(), |t| t.text);
                format!("{t}{l}{mode}")
            }
            (m, l) if l > 1 => {
                let m = m.to_owned();
                let n = ask!(high = elicit::<Num>(format!("High {m} {l}?"))).accepted().map_or(0, |n| n.num);
                format!("{m}{}", n + i64::from(l))
            }
            (m, _) => m.to_uppercase(),
        };
        Ok(format!("{out} {mode}"))
    }

    a_vec_of_options_filled_in_by_index(args) => {
        let size = args.n as usize + 1;
        let mut slots: Vec<Option<String>> = vec![None; size];
        let mut order: Vec<usize> = (0..size).rev().collect();
        order.rotate_left(1 % size);
        for idx in order.clone() {
            if idx % 2 == 1 {
                continue;
            }
            slots[idx] = ask!(slot = elicit::<Text>(format!("Slot {idx}?"))).ok().map(|t| t.text);
        }
        let filled = slots.iter().flatten().count();
        let first_empty = slots.iter().position(Option::is_none);
        if let Some(i) = first_empty {
            slots[i] = Some(ask!(fill = elicit::<Text>(format!("Fill {i}?"))).ok().map_or("x".to_owned(), |t| t.text));
        }
        Ok(format!("{slots:?} {filled} {order:?}"))
    }

    a_held_duration_and_ordering_results(args) => {
        let mut waited = std::time::Duration::from_millis(u64::from(args.n) * 250);
        let mut order = 0i8;
        let mut range = 0..=args.n;
        for i in 0..2 {
            let ms = ask!(ms = elicit::<Num>(format!("Wait {i} after {waited:?}?"))).accepted().map_or(0, |n| n.num.max(0) as u64);
            let extra = std::time::Duration::from_millis(ms);
            order = extra.cmp(&waited) as i8;
            waited = waited.saturating_add(extra);
            range = *range.start()..=range.end() + ms as u32;
        }
        Ok(format!("{waited:?} {order:?} {range:?} {}", waited.as_secs_f64()))
    }

    if_let_chains_of_parsed_answers(args) => {
        let raw = ask!(raw = elicit::<Text>("Something?")).ok().map(|t| t.text).unwrap_or_default();
        let out = if let Ok(n) = raw.parse::<i64>() {
            let factor = ask!(factor = elicit::<Num>(format!("Factor for {n}?"))).accepted().map_or(1, |f| f.num);
            format!("int {}", n * factor)
        } else if let Ok(b) = raw.parse::<bool>() {
            note!(args, "bool {b}");
            format!("bool {b}")
        } else if let Some((k, v)) = raw.split_once('=') {
            let (k, v) = (k.to_owned(), v.to_owned());
            let ok = ask!(pair = elicit::<Yes>(format!("Set {k} to {v}?"))).ok().is_some_and(|y| y.yes);
            format!("pair {k}={v} {ok}")
        } else if let Some(c) = raw.chars().next().filter(|c| c.is_alphabetic()) {
            format!("word from {c}")
        } else {
            let again = ask!(again = elicit::<Text>("Again?")).ok().map(|t| t.text);
            format!("again {again:?}")
        };
        Ok(format!("{out} {}", args.n))
    }

    generic_helper_fns_and_turbofish_between_asks(args) => {
        fn largest<T: PartialOrd + Copy>(items: &[T]) -> Option<T> {
            let mut it = items.iter().copied();
            let first = it.next()?;
            Some(it.fold(first, |m, x| if x > m { x } else { m }))
        }
        fn pair_up<A: Clone, B: Clone>(a: &[A], b: &[B]) -> Vec<(A, B)> {
            a.iter().cloned().zip(b.iter().cloned()).collect()
        }
        let mut nums: Vec<i64> = vec![i64::from(args.n)];
        let mut names: Vec<String> = vec![format!("n{}", args.n)];
        for i in 0..2 {
            nums.push(ask!(num = elicit::<Num>(format!("Num {i}?"))).accepted().map_or(0, |n| n.num));
            names.push(ask!(name = elicit::<Text>(format!("Name {i} (max {:?})?", largest(&nums)))).ok().map_or_else(String::new, |t| t.text));
        }
        let pairs = pair_up(&names, &nums);
        let parsed = "42".parse::<u16>().map_err(|e| e.to_string())?;
        let as_f = largest::<f64>(&[1.5, f64::from(parsed)]);
        Ok(format!("{pairs:?} {:?} {as_f:?}", largest(&names.iter().map(String::len).collect::<Vec<_>>())))
    }

    a_retry_loop_that_reasks_until_valid(args) => {
        let mut errors: Vec<String> = Vec::new();
        let email = loop {
            let raw = ask!(email = elicit::<Text>(format!("Email (errors so far {})?", errors.len()))).accepted().map_err(refuse)?.text;
            match validate(&raw) {
                Ok(v) if v.contains('@') => break v,
                Ok(v) => errors.push(format!("no @ in {v}")),
                Err(e) => errors.push(e.to_string()),
            }
            if errors.len() > args.n as usize {
                return Err(format!("too many errors: {errors:?}"));
            }
        };
        let domain = email.split('@').nth(1).unwrap_or_default().to_owned();
        let ok = ask!(ok = elicit::<Yes>(format!("Use {domain}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{email} {domain} {ok} {errors:?}"))
    }

    // `&mut` of a held local before an argument that asks: the ask saves the local, so the
    // answer is read first (sweep 34: rustc's E0502 at the `ask!`).
    mutable_borrows_beside_an_argument_that_asks(args) => {
        let mut name = format!("n{}", args.n);
        let old = std::mem::replace(&mut name, ask!(rename = elicit::<Text>("New name?")).ok().map_or("same".to_owned(), |t| t.text));
        note!(args, "renamed {old} to {name}");
        let mut log: Vec<i64> = Vec::new();
        Vec::push(&mut log, ask!(first = elicit::<Num>(format!("First for {name}?"))).accepted().map_or(0, |n| n.num));
        let mut spare = vec![-1i64];
        std::mem::swap(&mut spare, &mut Vec::from([ask!(second = elicit::<Num>(format!("Second after {log:?}?"))).accepted().map_or(0, |n| n.num)]));
        push_doubled(&mut log, spare[0]).await;
        String::from("m").clone_into(&mut name);
        Ok(format!("{old} {name} {log:?} {spare:?}"))
    }

    a_drain_and_a_binary_heap_across_asks(args) => {
        let mut pending: Vec<String> = (0..args.n).map(|i| format!("p{i}")).collect();
        let mut done = Vec::new();
        for item in pending.drain(..) {
            let ok = ask!(ok = elicit::<Yes>(format!("Do {item}?"))).ok().is_some_and(|y| y.yes);
            if ok {
                done.push(item);
            }
        }
        pending.push("after".to_owned());
        let mut heap: std::collections::BinaryHeap<(i64, String)> = done.iter().enumerate().map(|(i, d)| (i as i64, d.clone())).collect();
        while let Some((priority, name)) = heap.pop() {
            let bump = ask!(bump = elicit::<Num>(format!("Bump {name} at {priority}?"))).ok().map(|n| n.num);
            if let Some(b) = bump.filter(|b| *b > 0 && priority < 5) {
                heap.push((priority + b, format!("{name}+")));
            }
        }
        Ok(format!("{done:?} {pending:?} {}", heap.len()))
    }

    an_index_loop_and_a_queue_matched_in_a_loop(args) => {
        let items: Vec<String> = (0..=args.n).map(|i| format!("i{i}")).collect();
        let mut i = 0;
        let mut kept = Vec::new();
        while i < items.len() {
            if items[i].ends_with('1') {
                i += 1;
                continue;
            }
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {}?", items[i]))).ok().is_some_and(|y| y.yes);
            if keep {
                kept.push(items[i].clone());
            }
            i += 1;
        }
        let mut queue: VecDeque<String> = kept.iter().cloned().collect();
        let mut out = Vec::new();
        loop {
            match queue.pop_front() {
                Some(x) if x.len() > 5 => break,
                Some(x) => {
                    let suffix = ask!(suffix = elicit::<Text>(format!("Suffix for {x}?"))).ok().map(|t| t.text);
                    match suffix {
                        Some(s) if !s.is_empty() => queue.push_back(format!("{x}{s}")),
                        _ => out.push(x),
                    }
                }
                None => break,
            }
        }
        Ok(format!("{kept:?} {out:?} {queue:?} {i}"))
    }

    a_labeled_block_with_attributes_drops_and_asserts(args) => {
        #[allow(unused_mut)]
        let mut seed = args.n * 3;
        let scratch = format!("s{seed}");
        drop(scratch);
        let verdict = 'check: {
            if seed == 0 {
                break 'check "zero".to_owned();
            }
            let _ = ask!(ignored = elicit::<Yes>("Ignored?"));
            let confirm = ask!(confirm = elicit::<Yes>(format!("Seed {seed}?"))).ok().is_some_and(|y| y.yes);
            if !confirm {
                break 'check "declined".to_owned();
            }
            assert!(seed > 0, "seed is positive");
            debug_assert_eq!(seed % 3, 0);
            #[allow(clippy::let_and_return)]
            let doubled = format!("doubled {}", seed * 2);
            doubled
        };
        let _unused_answer = ask!(last = elicit::<Text>(format!("Last after {verdict}?"))).ok();
        Ok(format!("{verdict} {seed}"))
    }

    newtypes_and_mut_tuple_destructuring_across_asks(args) => {
        #[derive(Debug, Clone, Copy, PartialEq, PartialOrd, serde::Serialize, serde::Deserialize)]
        struct Meters(f64);
        #[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
        struct Settings {
            width: u32,
            height: u32,
            title: String,
            dark: bool,
        }
        type Res<T> = Result<T, String>;
        let (mut low, mut high) = (Meters(0.5), Meters(f64::from(args.n) + 1.0));
        let mut check: Res<u32> = Ok(args.n);
        let width = ask!(width = elicit::<Num>(format!("Width between {low:?} and {high:?}?"))).accepted().map_or(1, |n| n.num);
        low.0 += width as f64;
        if low > high {
            std::mem::swap(&mut low, &mut high);
            check = Err(format!("swapped at {width}"));
        }
        let settings = Settings { width: width as u32, title: ask!(title = elicit::<Text>(format!("Title ({check:?})?"))).ok().map_or_else(String::new, |t| t.text), ..Default::default() };
        let dark = ask!(dark = elicit::<Yes>("Dark?")).ok().is_some_and(|y| y.yes);
        let settings = Settings { dark, height: settings.width * 2, ..settings };
        Ok(format!("{low:?} {high:?} {check:?} {settings:?}"))
    }

    early_err_with_an_answer_and_conditions_after_an_ask(args) => {
        let limit = args.n as usize + 2;
        let mut accepted = Vec::new();
        for round in 0..3 {
            if ask!(go = elicit::<Yes>(format!("Go on at {round}?"))).ok().is_some_and(|y| y.yes) && accepted.len() < limit {
                let word = ask!(word = elicit::<Text>(format!("Word {round}?"))).accepted().map_err(refuse)?.text;
                if word.len() > limit {
                    return Err(FormError::Bad(ask!(why = elicit::<Text>(format!("Why {word}?"))).ok().map_or("no reason".to_owned(), |t| t.text)).into());
                }
                accepted.push(word);
            } else {
                break;
            }
        }
        Ok(format!("{accepted:?}"))
    }

    owned_items_of_maps_and_char_digits_in_for_loops(args) => {
        let mut stock: BTreeMap<String, u32> = BTreeMap::new();
        stock.insert("apple".to_owned(), args.n);
        stock.insert("pear".to_owned(), 2);
        for (fruit, count) in stock.clone() {
            let add = ask!(add = elicit::<Num>(format!("Add to {fruit} ({count})?"))).accepted().map_or(0, |n| n.num as u32);
            *stock.entry(fruit).or_default() += add;
        }
        let code = ask!(code = elicit::<Text>("Code?")).ok().map(|t| t.text).unwrap_or_default();
        let mut digits = 0u32;
        for c in code.chars().collect::<Vec<char>>() {
            match c.to_digit(10) {
                Some(d) => digits += d,
                None if c.is_alphabetic() => {
                    let value = ask!(letter = elicit::<Num>(format!("Value of {c}?"))).accepted().map_or(0, |n| n.num as u32);
                    digits += value;
                }
                None => {}
            }
        }
        for key in stock.keys().cloned().collect::<Vec<_>>() {
            if key.starts_with('p') {
                stock.remove(&key);
            }
        }
        Ok(format!("{stock:?} {digits}"))
    }

    // A closure made before an argument that asks, in the same call: making a closure runs
    // nothing, and the answer is read before it borrows what the ask saves (sweep 34: "runs
    // after other code in the same statement").
    closures_passed_beside_an_argument_that_asks(args) => {
        fn apply<F: Fn(i64) -> i64>(f: F, x: i64) -> i64 {
            f(x)
        }
        fn apply_mut<F: FnMut(i64)>(mut f: F, x: i64) {
            f(x);
            f(1);
        }
        let base = i64::from(args.n);
        let a = apply(|x| x + base, ask!(a = elicit::<Num>("A?")).accepted().map_or(0, |n| n.num));
        let mut count = 0i64;
        apply_mut(|x| count += x, ask!(b = elicit::<Num>(format!("B after {a}?"))).accepted().map_or(0, |n| n.num));
        let Point { x, y } = ask!(p = elicit::<Num>(format!("P after {count}?"))).accepted().map_or(Point { x: 0, y: 0 }, |n| Point { x: n.num, y: -n.num });
        let labels: Vec<String> = (0..args.n).map(|i| format!("l{i}")).collect();
        let picked = labels.iter().position(|l| l.ends_with('1')).map_or(-1, |p| p as i64);
        Ok(format!("{a} {count} {x} {y} {picked}"))
    }

    an_async_closure_called_with_an_answer(args) => {
        let base = i64::from(args.n);
        let add = async |x: i64| double(x).await + base;
        let a = add(ask!(a = elicit::<Num>("A?")).accepted().map_or(0, |n| n.num)).await;
        let b = ask!(b = elicit::<Num>(format!("B after {a}?"))).accepted().map_or(0, |n| n.num);
        let c = add(b).await;
        let shout_all = async |words: Vec<String>| {
            let mut out = Vec::new();
            for w in words {
                out.push(shout(&w).await);
            }
            out
        };
        let word = ask!(w = elicit::<Text>("Word?")).ok().map_or_else(String::new, |t| t.text);
        let loud = shout_all(vec![format!("{a}x"), word]).await;
        Ok(format!("{a} {b} {c} {loud:?}"))
    }

    a_for_over_an_iterator_a_helper_returns(args) => {
        fn evens(v: &[i64]) -> impl Iterator<Item = i64> + '_ {
            v.iter().copied().filter(|x| x % 2 == 0)
        }
        fn countdown(from: u32) -> impl Iterator<Item = u32> {
            std::iter::successors(Some(from), |n| n.checked_sub(1))
        }
        let nums: Vec<i64> = (0..=i64::from(args.n) + 2).collect();
        let mut seen = Vec::new();
        for x in evens(&nums) {
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {x} of {}?", nums.len()))).ok().is_some_and(|y| y.yes);
            if keep {
                seen.push(x);
            }
        }
        let mut fired = Vec::new();
        for left in countdown(args.n.min(2)) {
            if left == 1 {
                fired.push(ask!(fire = elicit::<Text>(format!("Fire at {left}?"))).ok().map_or_else(String::new, |t| t.text));
            }
        }
        let mut n = 0u32;
        let counted: Vec<u32> = std::iter::from_fn(|| {
            n += 1;
            (n < 4).then_some(n * 10)
        })
        .collect();
        Ok(format!("{seen:?} {fired:?} {counted:?}"))
    }

    flags_arrays_and_reassigned_maxima_across_asks(args) => {
        let mut flags = false;
        let mut mask = 0u8;
        let magic: [u8; 4] = *b"MRTR";
        let [first, second, third] = [args.n, args.n + 1, args.n + 2];
        let mut best = i64::MIN;
        for i in 0..3u8 {
            flags |= ask!(flag = elicit::<Yes>(format!("Flag {i}?"))).ok().is_some_and(|y| y.yes);
            mask ^= 1 << i;
            best = best.max(ask!(score = elicit::<Num>(format!("Score {i} (best {best})?"))).accepted().map_or(i64::from(i), |n| n.num));
        }
        flags &= first <= third;
        let text = String::from_utf8_lossy(&magic).into_owned();
        Ok(format!("{flags} {mask:08b} {magic:?} {text} {first} {second} {third} {best}"))
    }

    a_loop_that_pops_with_let_else_and_transposes(args) => {
        let mut queue: VecDeque<String> = (0..args.n).map(|i| format!("q{i}")).collect();
        let mut results: Vec<Result<Option<i64>, String>> = Vec::new();
        loop {
            let Some(item) = queue.pop_front() else { break };
            let raw = ask!(raw = elicit::<Text>(format!("Number for {item}?"))).ok().map(|t| t.text);
            let parsed: Option<Result<i64, String>> = raw.filter(|r| !r.is_empty()).map(|r| parse_num(&r));
            let flipped = parsed.transpose();
            if let Ok(Some(v)) = &flipped
                && *v > 100
            {
                queue.push_back(format!("{item}-again"));
            }
            results.push(flipped);
            if results.len() > 3 {
                break;
            }
        }
        let ok: Result<Vec<Option<i64>>, String> = results.iter().cloned().collect();
        Ok(format!("{results:?} {ok:?} {queue:?}"))
    }

    slices_chunks_and_cached_sorts_between_asks(args) => {
        let mut words: Vec<String> = ask!(words = elicit::<Text>("Words?")).accepted().map_err(refuse)?.text.split_whitespace().map(str::to_owned).collect();
        words.sort_by_cached_key(|w| (w.len(), w.to_lowercase()));
        let cut = (args.n as usize).min(words.len());
        let (head, tail) = words.split_at(cut);
        let head = head.to_vec();
        let tail = tail.join("+");
        let pairs: Vec<String> = words.chunks(2).map(|c| c.join("&")).collect();
        let last_two: Vec<(usize, String)> = words.iter().rev().take(2).enumerate().map(|(i, w)| (i, w.clone())).collect();
        note!(args, "{head:?} {tail} {pairs:?}");
        let pick = ask!(pick = elicit::<Num>(format!("Pick of {pairs:?}?"))).accepted().map_or(0, |n| n.num.max(0) as usize);
        let chosen = pairs.get(pick).cloned().unwrap_or_default();
        let (left, right) = chosen.split_once('&').map_or((chosen.clone(), String::new()), |(l, r)| (l.to_owned(), r.to_owned()));
        Ok(format!("{head:?} {tail} {last_two:?} {left}|{right}"))
    }

    // A `let` without a value given it by `x = value;` that reads a local dying there, with a
    // `let` after it that is read after the next ask (sweep 34: the error at the `let`).
    a_value_given_beside_a_let_read_after_the_next_ask(args) => {
        let total: i64;
        let mut tags: Vec<String>;
        let first = ask!(first = elicit::<Num>("First?")).accepted().map_or(0, |n| n.num);
        total = first + i64::from(args.n);
        let doubled = first * 2;
        note!(args, "total {total} doubled {doubled}");
        let label = ask!(label = elicit::<Text>(format!("Label after {total}?"))).ok().map_or_else(String::new, |t| t.text);
        tags = vec![label.clone()];
        let extra = label.len();
        tags.push(ask!(tag = elicit::<Text>(format!("Tag after {tags:?} ({extra})?"))).ok().map_or_else(|| "-".to_owned(), |t| t.text));
        Ok(format!("{total} {doubled} {tags:?} {extra}"))
    }

    a_refusal_through_a_user_error_type_and_async_lookups(args) => {
        async fn lookup(name: &str) -> Result<u32, FormError> {
            tokio::task::yield_now().await;
            match name {
                "" => Err(FormError::Empty),
                n if n.starts_with('x') => Err(FormError::Bad(format!("unknown {n}"))),
                n => Ok(n.len() as u32),
            }
        }
        let name = ask!(name = elicit::<Text>("Who?")).accepted().map_err(FormError::from)?.text;
        let id = lookup(&name).await?;
        note!(args, "id {id}");
        let maybe = if id > args.n { Some(ask!(extra = elicit::<Num>(format!("Extra for {id}?")))) } else { None };
        let extra = match maybe {
            Some(answer) => answer.accepted().map_err(FormError::from)?.num,
            None => 0,
        };
        let checked = lookup(&ask!(other = elicit::<Text>("Other?")).ok().map_or_else(String::new, |t| t.text)).await.map_err(|e| format!("other: {e}"))?;
        Ok(format!("{name} {id} {extra} {checked}"))
    }

    an_inner_value_loop_that_breaks_the_outer_loop(args) => {
        let mut log = Vec::new();
        let mut stack: Vec<(String, Vec<u32>)> = vec![("root".to_owned(), (0..args.n).collect())];
        'outer: while let Some((name, mut children)) = stack.pop() {
            let picked = loop {
                let Some(child) = children.pop() else { break None };
                match ask!(child = elicit::<Num>(format!("Child {child} of {name}?"))).ok().map(|n| n.num) {
                    Some(0) => continue,
                    Some(n) if n < 0 => break 'outer,
                    Some(n) => break Some((child, n)),
                    None => break None,
                }
            };
            log.push(format!("{name}:{picked:?}"));
            if let Some((child, n)) = picked
                && n > 1
            {
                stack.push((format!("{name}/{child}"), children));
            }
        }
        Ok(format!("{log:?} {}", stack.len()))
    }

    entries_filled_by_closures_that_read_held_locals(args) => {
        let mut index: HashMap<String, Vec<u32>> = HashMap::new();
        let default_tag = format!("t{}", args.n);
        for i in 0..=args.n {
            let key = ask!(key = elicit::<Text>(format!("Key {i}?"))).ok().map_or_else(|| default_tag.clone(), |t| t.text);
            index.entry(key).or_insert_with(|| vec![args.n]).push(i);
        }
        let (tuple_answer, n) = match (ask!(pair = elicit::<Num>("Pair?")), args.n) {
            (Elicited::Accept(Num { num }), n) if num > i64::from(n) => (num, n),
            (_, n) => (-1, n),
        };
        let mut keys: Vec<_> = index.keys().cloned().collect();
        keys.sort();
        let sizes: Vec<usize> = keys.iter().map(|k| index[k].len()).collect();
        Ok(format!("{keys:?} {sizes:?} {tuple_answer} {n}"))
    }

    a_labeled_block_that_continues_its_loop(args) => {
        let mut kept = Vec::new();
        'items: for i in 0..args.n + 1 {
            'check: {
                if i % 2 == 1 {
                    break 'check;
                }
                let ok = ask!(ok = elicit::<Yes>(format!("Keep {i}?"))).ok();
                match ok {
                    Some(Yes { yes: true }) => kept.push(i),
                    Some(_) => continue 'items,
                    None => break 'check,
                }
            }
            note!(args, "after {i}");
        }
        let ratio = if kept.is_empty() { f64::NAN } else { kept.iter().sum::<u32>() as f64 / kept.len() as f64 };
        let last = ask!(last = elicit::<Yes>(format!("Done with {ratio:.3}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{kept:?} {} {last}", if ratio.is_nan() { "nan".to_owned() } else { format!("{ratio:.3}") }))
    }

    mutable_borrows_beside_asks_in_conditions_and_returns(args) => {
        fn push_ok(into: &mut Vec<i64>, n: i64) -> bool {
            into.push(n);
            n > 0
        }
        let mut log: Vec<i64> = Vec::new();
        if push_ok(&mut log, ask!(first = elicit::<Num>("First?")).accepted().map_or(0, |n| n.num)) {
            note!(args, "positive {log:?}");
        }
        let mut rounds = 0;
        while push_ok(&mut log, ask!(again = elicit::<Num>(format!("Again after {rounds}?"))).accepted().map_or(0, |n| n.num)) && rounds < 3 {
            rounds += 1;
        }
        let mut words: Vec<String> = vec![format!("w{}", args.n)];
        if args.n > 1 {
            let mut scratch = Vec::new();
            let positive = push_ok(&mut scratch, ask!(last = elicit::<Num>(format!("Last for {words:?}?"))).accepted().map_or(0, |n| n.num));
            return Ok(format!("{positive} {log:?} {scratch:?}"));
        }
        let mut first_word = words.remove(0);
        std::mem::swap(&mut first_word, &mut ask!(word = elicit::<Text>("Word?")).ok().map_or_else(String::new, |t| t.text));
        words.push(first_word);
        Ok(format!("{log:?} {rounds} {words:?}"))
    }

    lets_without_values_and_mutable_arguments_inside_loops(args) => {
        fn apply_opt<F: Fn(i64) -> i64>(f: F, x: Option<i64>) -> Option<i64> {
            x.map(f)
        }
        let mut log: Vec<i64> = Vec::new();
        let mut labels = Vec::new();
        'outer: for i in 0..args.n + 1 {
            #[allow(clippy::needless_late_init)]
            let label: String;
            let scale: i64;
            let Some(v) = apply_opt(|x| x * 2, ask!(v = elicit::<Num>(format!("V {i}?"))).ok().map(|n| n.num)) else {
                continue 'outer;
            };
            scale = v + i64::from(i);
            push_doubled(&mut log, ask!(w = elicit::<Num>(format!("W {i} at {scale}?"))).accepted().map_or(0, |n| n.num)).await;
            label = ask!(label = elicit::<Text>(format!("Label {i}?"))).ok().map_or_else(|| format!("l{i}"), |t| t.text);
            let kept = ask!(keep = elicit::<Yes>(format!("Keep {label}?"))).ok().is_some_and(|y| y.yes);
            if !kept {
                break 'outer;
            }
            labels.push(format!("{label}{scale}"));
        }
        let mut round = 0;
        let total: i64 = loop {
            round += 1;
            let extra = ask!(extra = elicit::<Num>(format!("Extra {round}?"))).ok().map(|n| n.num);
            if extra.is_none() || round > 2 {
                break log.iter().sum::<i64>() + extra.unwrap_or(0);
            }
        };
        Ok(format!("{log:?} {labels:?} {total}"))
    }

    // A `let` given its value after an ask and shadowed before the next, and an arm whose
    // `last_mut()` borrow ends before its ask (not the mutable-borrow error).
    lets_without_values_shadowed_and_grown_across_asks(args) => {
        let x: i64;
        let first = ask!(first = elicit::<Num>("First?")).accepted().map_or(0, |n| n.num);
        x = first + 1;
        let x = x * i64::from(args.n + 1);
        let mut acc: Vec<String>;
        let seed = ask!(seed = elicit::<Text>(format!("Seed after {x}?"))).ok().map_or_else(String::new, |t| t.text);
        acc = vec![seed];
        for i in 0..args.n {
            acc.push(ask!(more = elicit::<Text>(format!("More {i} after {acc:?}?"))).ok().map_or_else(|| "-".to_owned(), |t| t.text));
        }
        if let Some(last) = acc.last_mut() {
            last.push('!');
            let again = ask!(again = elicit::<Yes>("Again?")).ok().is_some_and(|y| y.yes);
            acc.push(again.to_string());
        }
        let x = format!("{x}:{}", acc.len());
        let done = ask!(done = elicit::<Yes>(format!("Done {x}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{x} {acc:?} {done}"))
    }

    // -----------------------------------------------------------------------------------------
    // Sweep 37: `if` and `while` whose conditions chain `let`s (Rust 2024), with asks in their
    // branches or bodies.
    // -----------------------------------------------------------------------------------------

    // A later condition reads an earlier binding; the `else` asks too.
    // An ask in the chain itself, after a `let` that only matches: not asked when it fails.
    an_ask_in_a_let_chain_after_a_plain_match(args) => {
        let first = (args.n != 3).then(|| format!("w{}", args.n));
        let mut out = String::new();
        if let Some(w) = first
            && let Some(t) = ask!(text = elicit::<Text>(format!("Text for {w}?"))).ok()
        {
            note!(args, "got {w} {}", t.text);
            out = t.text;
        }
        Ok(format!("out {out}"))
    }

    a_let_chain_with_an_else_that_asks(args) => {
        let first = (args.n != 3).then(|| format!("w{}", args.n));
        if let Some(w) = first
            && w.len() < 3
            && let Ok(k) = w[1..].parse::<u32>()
        {
            note!(args, "chain {w} {k}");
            let more = ask!(more = elicit::<Num>(format!("More after {w}?"))).accepted().map_err(refuse)?.num;
            note!(args, "more {more} {k}");
        } else {
            let t = ask!(other = elicit::<Text>("Other?")).ok().map_or_else(String::new, |t| t.text);
            note!(args, "else {t}");
        }
        Ok(format!("n {}", args.n))
    }

    // No `else`; `k` and `label` are read only by the conditions, so only `c` is carried.
    a_let_chain_without_an_else_whose_bindings_the_conditions_read(args) => {
        let limit = i64::from(args.n);
        let pair = (args.n > 0).then(|| (args.n, format!("p{}", args.n)));
        let mut total = 0;
        if let Some((k, label)) = pair
            && k > 1
            && let Some(c) = label.chars().last()
        {
            let got = ask!(got = elicit::<Num>(format!("Got {c}?"))).accepted().map_err(refuse)?.num;
            total += got + limit;
        }
        note!(args, "total {total}");
        Ok(format!("{total}"))
    }

    // `else if let .. &&`: each chain its own `match`, as the value of a `let`.
    else_if_let_chains_that_ask(args) => {
        let a = (args.n % 2 == 0).then_some(args.n);
        let b: Result<String, String> = if args.n > 2 { Ok(format!("b{}", args.n)) } else { Err("small".to_owned()) };
        let out = if let Some(x) = a
            && x > 0
        {
            let y = ask!(even = elicit::<Num>(format!("Even {x}?"))).accepted().map_err(refuse)?.num;
            format!("even {x} {y}")
        } else if let Ok(s) = &b
            && let Some(ch) = s.chars().nth(1)
        {
            let t = ask!(odd = elicit::<Text>(format!("Odd {ch}?"))).ok().map_or_else(|| "-".to_owned(), |t| t.text);
            format!("odd {ch} {t}")
        } else {
            note!(args, "neither {b:?}");
            "none".to_owned()
        };
        Ok(out)
    }

    // `mut` bindings of a chain, changed after the ask.
    mut_bindings_of_a_let_chain_changed_after_the_ask(args) => {
        let items = vec![args.n, args.n + 1];
        let text = format!("t{}", args.n);
        if let Some(mut first) = items.first().copied()
            && let Some(mut tail) = text.strip_prefix('t').map(str::to_owned)
            && first < 5
        {
            let add = ask!(add = elicit::<Num>(format!("Add to {first}?"))).accepted().map_err(refuse)?.num;
            first += u32::try_from(add.clamp(0, 100)).unwrap_or(0);
            tail.push('!');
            note!(args, "{first} {tail}");
        } else {
            note!(args, "skipped");
        }
        Ok(format!("{items:?} {text}"))
    }

    // `ref` and `ref mut` bindings of a chain, used before the ask.
    ref_bindings_of_a_let_chain(args) => {
        let mut opt = (args.n > 0).then(|| vec![args.n]);
        let name = Some(format!("n{}", args.n));
        if let Some(ref mut v) = opt
            && let Some(ref s) = name
            && s.len() < 4
        {
            v.push(7);
            let label = format!("{s}:{}", v.len());
            let more = ask!(more = elicit::<Num>(format!("More {label}?"))).accepted().map_err(refuse)?.num;
            note!(args, "more {more} {label}");
        }
        Ok(format!("{opt:?} {name:?}"))
    }

    // A chain through a map lookup whose later conditions read the earlier bindings; only the
    // `else` asks, and the branch that does not changes a `mut` binding.
    a_let_chain_through_a_map_lookup_whose_else_asks(args) => {
        let map: BTreeMap<String, i64> = [("a".to_owned(), 1), ("b".to_owned(), i64::from(args.n))].into_iter().collect();
        let key = if args.n > 0 { "b" } else { "c" }.to_owned();
        if let Some(v) = map.get(&key).copied()
            && let Some(mut w) = v.checked_mul(10)
            && w > 15
        {
            w += 1;
            note!(args, "{v} {w}");
        } else {
            let got = ask!(got = elicit::<Num>(format!("Got for {key}?"))).accepted().map_err(refuse)?.num;
            note!(args, "no {key} {got}");
        }
        Ok(format!("{map:?}"))
    }

    // `while let .. &&` with `continue` and `break` in its body.
    a_while_let_chain_with_continue_and_break(args) => {
        let mut queue: VecDeque<i64> = (0..i64::from(args.n) + 2).collect();
        let mut seen = Vec::new();
        while let Some(front) = queue.pop_front()
            && front < 6
        {
            if front % 2 == 1 {
                seen.push(-front);
                continue;
            }
            let got = ask!(got = elicit::<Num>(format!("Got {front}?"))).accepted().map_or(0, |n| n.num);
            if got < 0 {
                note!(args, "stop at {front}");
                break;
            }
            seen.push(front * 10 + got);
        }
        Ok(format!("{seen:?} {queue:?}"))
    }

    // A labeled `while let` chain left with `break 'outer` from an inner loop.
    a_labeled_while_let_chain_broken_from_an_inner_loop(args) => {
        let mut stack = vec!["z".to_owned(), format!("a{}", args.n), "bb".to_owned(), "c".to_owned()];
        let mut out = Vec::new();
        'outer: while let Some(top) = stack.pop()
            && let Some(first) = top.chars().next()
            && first != 'z'
        {
            let mut tries = 0;
            loop {
                tries += 1;
                let ok = ask!(ok = elicit::<Yes>(format!("Keep {top} ({tries})?"))).ok().map(|y| y.yes);
                match ok {
                    Some(true) => break,
                    Some(false) if tries < 2 => continue,
                    Some(false) => break 'outer,
                    None => {
                        note!(args, "declined {first}");
                        break 'outer;
                    }
                }
            }
            out.push(format!("{first}{tries}"));
        }
        Ok(format!("{out:?} {stack:?}"))
    }

    // A chain in a `for` loop, one round per item.
    a_let_chain_inside_a_for_loop(args) => {
        let mut acc = Vec::new();
        let raws = vec!["1".to_owned(), "x".to_owned(), "3".to_owned(), String::new()];
        for (i, raw) in raws.into_iter().enumerate() {
            if let Ok(n) = raw.parse::<i64>()
                && let Some(d) = n.checked_sub(i64::try_from(i).unwrap_or(0))
                && u32::try_from(i).unwrap_or(0) <= args.n
            {
                let got = ask!(got = elicit::<Num>(format!("Got {n} at {i}?"))).accepted().map_or(-1, |x| x.num);
                acc.push(d + got);
            } else {
                acc.push(-100);
            }
        }
        Ok(format!("{acc:?}"))
    }

    // Bindings of a chain read both before and after the ask; the strs they come from only by
    // the conditions.
    let_chain_bindings_read_before_and_after_the_ask(args) => {
        let parts = if args.n == 0 { "x".to_owned() } else { format!("{}-{}", args.n, args.n * 2) };
        if let Some((left, right)) = parts.split_once('-')
            && let Ok(l) = left.parse::<i64>()
            && let Ok(r) = right.parse::<i64>()
        {
            note!(args, "before {l} {r}");
            let k = ask!(k = elicit::<Num>(format!("K for {l}?"))).accepted().map_err(refuse)?.num;
            note!(args, "after {l} {r} {k}");
        }
        Ok(parts)
    }

    // -----------------------------------------------------------------------------------------
    negated_and_parenthesized_asks(args) => {
        if !ask!(go = elicit::<Yes>("Go?")).ok().is_some_and(|y| y.yes) {
            note!(args, "stopped");
            return Ok("stopped".to_owned());
        }
        let neg = -ask!(num = elicit::<Num>("Num?")).accepted().map_err(refuse)?.num;
        note!(args, "neg {neg}");
        let scaled = (ask!(scale = elicit::<Num>(format!("Scale {neg}?"))).accepted().map_err(refuse)?.num + i64::from(args.n)) * 2;
        let flipped = !ask!(flip = elicit::<Yes>(format!("Flip {scaled}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{neg} {scaled} {flipped}"))
    }

    entry_chains_fed_by_answers_between_asks(args) => {
        let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let key = format!("k{}", args.n % 2);
        let first = ask!(first = elicit::<Text>("First?")).accepted().map_err(refuse)?.text;
        groups.entry(key.clone()).or_default().push(first.clone());
        let mut counts: BTreeMap<char, u32> = BTreeMap::new();
        for c in first.chars() {
            counts.entry(c).and_modify(|n| *n += 1).or_insert(1);
        }
        note!(args, "counts {counts:?}");
        let more = ask!(more = elicit::<Text>(format!("More for {groups:?}?"))).accepted().map_err(refuse)?.text;
        for word in more.split(',').filter(|w| !w.is_empty()) {
            groups.entry(word.chars().take(1).collect()).or_default().push(word.to_owned());
            *counts.entry(word.chars().next().unwrap_or('?')).or_default() += 10;
        }
        if let Some(list) = groups.get_mut(&key) {
            list.retain(|w| w.len() > 1);
        }
        let top = counts.iter().max_by_key(|(c, n)| (**n, std::cmp::Reverse(**c))).map(|(c, _)| *c);
        let sep = ask!(sep = elicit::<Text>(format!("Sep for {top:?}?"))).ok().map_or("-".to_owned(), |t| t.text);
        let joined = groups.values().flatten().cloned().collect::<Vec<_>>().join(&sep);
        Ok(format!("{key} {groups:?} {counts:?} {joined}"))
    }

    closures_with_returns_and_question_marks_across_asks(args) => {
        let tag_of = |s: &str| -> Option<i64> {
            let rest = s.strip_prefix('#')?;
            rest.trim().parse().ok()
        };
        let classify = |n: i64| {
            if n < 0 {
                return "negative";
            }
            if n == 0 {
                return "zero";
            }
            "positive"
        };
        let checked = |n: i64| -> Result<i64, String> {
            let half = if n % 2 == 0 { n / 2 } else { Err::<i64, String>(format!("odd {n}"))? };
            Ok(half)
        };
        let first = ask!(first = elicit::<Text>("First?")).accepted().map_err(refuse)?.text;
        let a = tag_of(&first).unwrap_or_else(|| i64::from(args.n));
        note!(args, "a {a} {}", classify(a));
        let second = ask!(second = elicit::<Text>(format!("Second after {a}?"))).accepted().map_err(refuse)?.text;
        let b = tag_of(&second).ok_or(format!("no tag in {second}"))?;
        let half = checked(b)?;
        Ok(format!("{a} {b} {half} {}", classify(b - a)))
    }

    nested_fns_with_loops_labels_and_returns(args) => {
        fn first_over(items: &[i64], limit: i64) -> Option<i64> {
            'outer: for round in 0..2 {
                for &item in items {
                    if item + round > limit {
                        break 'outer;
                    }
                    if item == limit {
                        return Some(item);
                    }
                }
            }
            let mut at = 0;
            loop {
                match items.get(at) {
                    Some(&item) if item > limit => break Some(item),
                    Some(_) => at += 1,
                    None => break None,
                }
            }
        }
        fn parse_all(words: &str) -> Result<Vec<i64>, String> {
            words.split(',').map(|w| w.trim().parse::<i64>().map_err(|e| format!("{w}: {e}"))).collect()
        }
        let mut seen = Vec::new();
        'outer: loop {
            let words = ask!(words = elicit::<Text>(format!("Numbers after {seen:?}?"))).accepted().map_err(refuse)?.text;
            let nums = parse_all(&words)?;
            seen.extend(nums.iter().copied());
            let limit = ask!(limit = elicit::<Num>("Limit?")).accepted().map_err(refuse)?.num;
            match first_over(&seen, limit) {
                Some(v) if v > 100 => return Ok(format!("big {v}")),
                Some(v) => {
                    note!(args, "found {v}");
                    break 'outer;
                }
                None => continue 'outer,
            }
        }
        Ok(format!("{seen:?}"))
    }

    if_values_that_ask_in_condition_branch_and_receiver(args) => {
        let base = i64::from(args.n);
        let v = if ask!(c = elicit::<Yes>("Choose?")).ok().is_some_and(|y| y.yes) {
            ask!(v = elicit::<Num>("Value?")).accepted().map_err(refuse)?.num
        } else {
            -1
        };
        note!(args, "v {v}");
        let w = if base > 1 { ask!(w = elicit::<Num>(format!("W after {v}?"))).accepted().map_err(refuse)?.num } else { base }.max(3);
        let label = match ask!(pick = elicit::<Pick>("Pick?")).ok().map(|p| p.color) {
            Some(c) => format!("{c:?}"),
            None => "none".to_owned(),
        }
        .to_lowercase();
        Ok(format!("{v} {w} {label}"))
    }

    an_ask_several_calls_deep(args) => {
        let a = add(i64::from(u8::try_from(ask!(a = elicit::<Num>("a?")).accepted().map_err(refuse)?.num).unwrap_or(u8::MAX)), i64::from(args.n));
        note!(args, "a {a}");
        let d = add(double(ask!(d = elicit::<Num>(format!("d after {a}?"))).accepted().map_err(refuse)?.num).await, 1);
        let s = consume(shout(&ask!(s = elicit::<Text>("s?")).ok().map_or("none".to_owned(), |t| t.text)).await);
        let p = Some(Point { x: a, y: ask!(y = elicit::<Num>("y?")).accepted().map_err(refuse)?.num.abs() });
        Ok(format!("{a} {d} {s} {p:?}"))
    }

    impl_trait_values_used_between_asks(args) => {
        fn evens(limit: i64) -> impl Iterator<Item = i64> {
            (0..limit).filter(|x| x % 2 == 0)
        }
        fn scaler(k: i64) -> impl Fn(i64) -> i64 {
            move |x| x * k
        }
        fn total(items: impl IntoIterator<Item = i64>) -> i64 {
            items.into_iter().sum()
        }
        let limit = ask!(limit = elicit::<Num>("Limit?")).accepted().map_err(refuse)?.num.clamp(0, 50);
        let scale = scaler(limit);
        let sum = total(evens(limit).map(&scale));
        let mut peek = evens(limit).peekable();
        let mut runs = Vec::new();
        while let Some(x) = peek.next() {
            if peek.peek().is_some_and(|&n| n > 4) {
                runs.push(x);
            }
        }
        note!(args, "sum {sum} {runs:?}");
        let k = ask!(k = elicit::<Num>(format!("K after {sum}?"))).accepted().map_err(refuse)?.num;
        let scale = scaler(k);
        Ok(format!("{sum} {runs:?} {}", scale(i64::from(args.n))))
    }

    pairs_sorted_by_two_keys_deduped_and_unzipped(args) => {
        let mut scores: Vec<(String, u32)> = vec![("base".to_owned(), args.n)];
        for i in 0..3u32 {
            let name = ask!(name = elicit::<Text>(format!("Name {i}?"))).accepted().map_err(refuse)?.text;
            if name.is_empty() {
                break;
            }
            let score = ask!(score = elicit::<Num>(format!("Score for {name}?"))).accepted().map_err(refuse)?.num;
            scores.push((name, u32::try_from(score).map_err(|e| e.to_string())?));
            scores.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            scores.dedup_by(|a, b| a.0 == b.0);
            scores.truncate(3);
            note!(args, "scores {scores:?}");
        }
        let best = scores.iter().max_by_key(|p| p.1).map(|p| p.0.clone());
        let (names, totals): (Vec<String>, Vec<u32>) = scores.iter().cloned().unzip();
        let top = ask!(top = elicit::<Yes>(format!("Top {best:?}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{names:?} {totals:?} {best:?} {top}"))
    }

    a_labeled_block_broken_from_a_for_that_asks(args) => {
        let found = 'search: {
            for i in 0..3i64 {
                let t = ask!(t = elicit::<Text>(format!("Item {i}?"))).accepted().map_err(refuse)?.text;
                if t == "stop" {
                    break 'search None;
                }
                if t.starts_with('#') {
                    break 'search Some((i, t));
                }
                note!(args, "skip {t}");
            }
            None
        };
        let tail = ask!(tail = elicit::<Text>(format!("Tail after {found:?}?"))).ok().map(|t| t.text);
        Ok(format!("{found:?} {tail:?}"))
    }

    closures_made_in_a_loop_body_around_its_ask(args) => {
        let prefix = format!("p{}", args.n);
        let mut out = Vec::new();
        for i in 0..3u32 {
            let tag = |s: &str| format!("{prefix}{i}:{s}");
            let t = ask!(t = elicit::<Text>(tag("item?"))).accepted().map_err(refuse)?.text;
            if t.is_empty() {
                continue;
            }
            out.push(tag(&t));
            let fmt = |x: usize| format!("{x}/{}", out.len());
            note!(args, "{}", fmt(t.len()));
        }
        let fmt = |x: usize| format!("[{x}]");
        let last = ask!(last = elicit::<Num>(format!("Last of {}?", out.len()))).ok().map(|n| n.num);
        Ok(format!("{out:?} {} {last:?}", fmt(out.len())))
    }

    trait_objects_made_and_used_between_asks(args) => {
        let a = ask!(a = elicit::<Num>("a?")).accepted().map_err(refuse)?.num;
        let ops: Vec<Box<dyn Fn(i64) -> i64>> = vec![Box::new(move |x| x + a), Box::new(|x| x * 2), Box::new(move |x| x - i64::from(args.n))];
        let applied = ops.iter().fold(a, |acc, op| op(acc));
        let shown: Vec<Box<dyn std::fmt::Display>> = vec![Box::new(applied), Box::new(format!("n{}", args.n)), Box::new('c')];
        let line = shown.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("|");
        note!(args, "{line}");
        let b = ask!(b = elicit::<Num>(format!("b after {line}?"))).accepted().map_err(refuse)?.num;
        let last: Box<dyn Fn(i64) -> String> = Box::new(move |x| format!("{}", x + b));
        Ok(format!("{applied} {}", last(a)))
    }

    a_while_condition_reads_the_last_answer(args) => {
        let mut last = String::new();
        let mut words = Vec::new();
        let mut tries = 0u32;
        while last != "done" && words.len() < 3 {
            tries += 1;
            if tries > 4 + args.n {
                return Ok(format!("gave up {words:?}"));
            }
            last = ask!(word = elicit::<Text>(format!("Word {}?", words.len()))).accepted().map_err(refuse)?.text;
            if last.is_empty() {
                continue;
            }
            if last != "done" {
                words.push(last.clone());
            }
        }
        let sure = ask!(sure = elicit::<Yes>(format!("Keep {words:?}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{words:?} {last} {tries} {sure}"))
    }

    a_map_popped_in_order_by_a_while_let_that_asks(args) => {
        let mut todo: BTreeMap<u32, String> = (0..3u32).map(|i| (i * 10 + args.n, format!("t{i}"))).collect();
        let mut done = BTreeSet::new();
        while let Some((prio, task)) = todo.pop_first() {
            let ok = ask!(ok = elicit::<Yes>(format!("Do {task} ({prio})?"))).ok().is_some_and(|y| y.yes);
            if ok {
                done.insert(task);
            } else if prio < 20 {
                todo.insert(prio + 20, format!("{task}!"));
            }
            if let Some((&last, _)) = todo.last_key_value() {
                note!(args, "last {last}");
            }
        }
        let again = ask!(again = elicit::<Yes>(format!("Again after {done:?}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{done:?} {again}"))
    }

    asking_arguments_wrapped_in_options_and_structs(args) => {
        let mut items: Vec<Option<Point>> = Vec::new();
        for i in 0..3i64 {
            items.push(Some(Point { x: i, y: ask!(y = elicit::<Num>(if i == 0 { "First y?" } else { "Next y?" })).accepted().map_err(refuse)?.num }));
            if items.iter().flatten().map(|p| p.y).sum::<i64>() > 10 {
                break;
            }
        }
        let tagged = Tagged { value: Some(ask!(tag = elicit::<Text>(concat!("Tag", "?"))).ok().map_or_else(String::new, |t| t.text)), tag: format!("t{}", args.n) };
        let ys: Vec<i64> = items.iter().flatten().map(|p| p.y).collect();
        Ok(format!("{ys:?} {tagged:?}"))
    }

    let_else_whose_value_is_a_match_or_if_with_an_asking_branch(args) => {
        let Some(n) = (match args.n {
            0 => None,
            1 => Some(1),
            _ => ask!(n = elicit::<Num>("N?")).ok().map(|n| n.num),
        }) else {
            note!(args, "nothing");
            return Ok("nothing".to_owned());
        };
        let Ok(half) = (if n % 2 == 0 { Ok(n / 2) } else { ask!(half = elicit::<Num>(format!("Half of odd {n}?"))).accepted().map(|h| h.num).map_err(refuse) }) else {
            return Err(format!("no half of {n}"));
        };
        Ok(format!("{n} {half}"))
    }

    a_loop_that_asks_as_a_match_arm_value_and_a_block_that_sums(args) => {
        let v = match args.n {
            0 => loop {
                let a = ask!(a = elicit::<Num>("Positive?")).accepted().map_err(refuse)?.num;
                if a > 0 {
                    break a;
                }
                note!(args, "not positive {a}");
            },
            n if n > 5 => return Ok("big".to_owned()),
            n => i64::from(n),
        };
        let total: i64 = {
            let mut t = 0;
            for i in 0..v.min(3) {
                t += ask!(part = elicit::<Num>(format!("Part {i} of {v}?"))).ok().map_or(0, |n| n.num);
            }
            t
        };
        Ok(format!("{v} {total}"))
    }

    const_sized_arrays_filled_by_asks(args) => {
        const N: usize = 3;
        type Slots = [Option<i64>; N];
        let mut slots: Slots = [None; N];
        let mut grid = [[0u8; N]; 2];
        for i in 0..N {
            slots[i] = ask!(slot = elicit::<Num>(format!("Slot {i} of {N}?"))).ok().map(|n| n.num);
            grid[i % 2][i] = u8::try_from(slots[i].unwrap_or(0).rem_euclid(256)).unwrap_or(0);
            if slots[..=i].iter().flatten().count() == 2 && args.n > 1 {
                break;
            }
        }
        let filled = slots.iter().filter(|s| s.is_some()).count();
        let last = ask!(last = elicit::<Yes>(format!("Done with {filled}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{slots:?} {grid:?} {last}"))
    }

    awaits_in_the_heads_of_blocks_that_ask(args) => {
        let mut words = vec![format!("w{}", args.n)];
        while count_long(&words, 1).await < 2 {
            let w = ask!(word = elicit::<Text>(format!("Word after {words:?}?"))).accepted().map_err(refuse)?.text;
            if w.is_empty() {
                break;
            }
            words.push(w);
        }
        let level = match double(i64::try_from(words.len()).unwrap_or(0)).await {
            v if v > 4 => {
                let ok = ask!(ok = elicit::<Yes>(format!("Level {v}?"))).ok().is_some_and(|y| y.yes);
                if ok { v } else { -v }
            }
            v => v,
        };
        let mut loud = Vec::new();
        for part in shout(&words.join(" ")).await.split(' ').map(str::to_owned).collect::<Vec<_>>() {
            if part.len() > 2 {
                let keep = ask!(keep = elicit::<Yes>(format!("Keep {part}?"))).ok().is_some_and(|y| y.yes);
                if !keep {
                    continue;
                }
            }
            loud.push(part);
        }
        Ok(format!("{words:?} {level} {loud:?}"))
    }

    tuples_in_match_arm_values_that_ask(args) => {
        let (a, b) = match args.n {
            0 => (ask!(a = elicit::<Num>("a?")).accepted().map_err(refuse)?.num, 1),
            n => (i64::from(n), 2),
        };
        let b2 = ask!(b = elicit::<Num>(format!("b after {a} {b}?"))).ok().map_or(b, |n| n.num);
        Ok(format!("{a} {b} {b2}"))
    }

    a_body_local_error_type_through_try_from_and_question_mark(args) => {
        #[derive(Debug)]
        enum PercentError {
            Over(i64),
            Under(i64),
        }
        impl From<PercentError> for String {
            fn from(e: PercentError) -> String {
                match e {
                    PercentError::Over(n) => format!("over by {}", n - 100),
                    PercentError::Under(n) => format!("under: {n}"),
                }
            }
        }
        #[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
        struct Percent(u8);
        impl TryFrom<i64> for Percent {
            type Error = PercentError;
            fn try_from(n: i64) -> Result<Self, PercentError> {
                match n {
                    n if n > 100 => Err(PercentError::Over(n)),
                    n if n < 0 => Err(PercentError::Under(n)),
                    n => Ok(Percent(n as u8)),
                }
            }
        }
        let first = Percent::try_from(ask!(first = elicit::<Num>("First?")).accepted().map_err(refuse)?.num)?;
        note!(args, "first {first:?}");
        let second: Percent = ask!(second = elicit::<Num>(format!("Second after {first:?}?"))).accepted().map_err(refuse)?.num.try_into()?;
        Ok(format!("{first:?} {second:?} {}", args.n))
    }

    a_match_on_a_tuple_holding_a_str_slice_with_asking_arms(args) => {
        let cmd = ask!(cmd = elicit::<Text>("Cmd?")).accepted().map_err(refuse)?.text;
        let out = match (cmd.as_str(), args.n) {
            ("add", n) if n > 0 => {
                let v = ask!(v = elicit::<Num>("V?")).accepted().map_err(refuse)?.num;
                format!("add {}", v + i64::from(n))
            }
            (other, n) => {
                let other = other.to_owned();
                let ok = ask!(ok = elicit::<Yes>(format!("{other} {n}?"))).ok().is_some_and(|y| y.yes);
                format!("{other} {ok}")
            }
        };
        Ok(format!("{out} {cmd}"))
    }

    a_range_iterated_by_hand_across_asks(args) => {
        let mut it = 0..i64::from(args.n) + 2;
        let mut got = Vec::new();
        while let Some(i) = it.next() {
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {i}?"))).ok().is_some_and(|y| y.yes);
            if keep {
                got.push(i);
            } else {
                it.next();
            }
        }
        Ok(format!("{got:?}"))
    }

    a_do_while_block_condition_that_asks(args) => {
        let mut seen = Vec::new();
        while {
            let t = ask!(t = elicit::<Text>(format!("More after {seen:?}?"))).accepted().map_err(refuse)?.text;
            seen.push(t.clone());
            !t.is_empty() && seen.len() < 4
        } {}
        Ok(format!("{seen:?} {}", args.n))
    }

    a_do_while_whose_condition_and_body_both_ask(args) => {
        let mut total = 0i64;
        let mut rounds = 0u32;
        while {
            rounds += 1;
            let more = ask!(more = elicit::<Yes>(format!("More after {total}?"))).ok().is_some_and(|y| y.yes);
            more && rounds <= 3
        } {
            let n = ask!(n = elicit::<Num>(format!("N {rounds}?"))).accepted().map_err(refuse)?.num;
            if n < 0 {
                Err(format!("negative {n} at {rounds}"))?;
            }
            if n == 0 {
                continue;
            }
            total += n;
            note!(args, "total {total}");
        }
        Ok(format!("{total} {rounds}"))
    }

    an_if_condition_block_and_an_argument_block_that_ask(args) => {
        #[allow(clippy::blocks_in_conditions)]
        let word = if {
            let t = ask!(t = elicit::<Text>("Word?")).ok().map_or_else(String::new, |t| t.text);
            note!(args, "word {t}");
            t.len() > 2
        } {
            "long".to_owned()
        } else {
            "short".to_owned()
        };
        record(&args.run, {
            let t = ask!(rec = elicit::<Text>(format!("Record for {word}?"))).ok();
            note!(args, "rec {}", t.is_some());
            t
        });
        Ok(word)
    }

    a_destructuring_assignment_whose_second_item_asks(args) => {
        let (mut a, mut b) = (1i64, i64::from(args.n));
        for i in 0..3 {
            (a, b) = (b, ask!(next = elicit::<Num>(format!("Next {i} after {a} {b}?"))).accepted().map_err(refuse)?.num + a);
            note!(args, "{a} {b}");
        }
        Ok(format!("{a} {b}"))
    }

    raw_identifier_keys_asked_under_their_plain_names(args) => {
        let r#type = ask!(r#type = elicit::<Text>("Type?")).accepted().map_err(refuse)?.text;
        let r#loop = ask!(r#loop = elicit::<Num>(format!("Loop for {}?", r#type))).ok().map_or(0, |n| n.num);
        Ok(format!("{} {} {}", r#type, r#loop, args.n))
    }

    items_declared_inside_asking_loop_if_and_match_blocks(args) => {
        let mut out = Vec::new();
        for i in 0..2i64 {
            fn square(x: i64) -> i64 {
                x * x
            }
            const STEP: i64 = 10;
            use std::fmt::Write as _;
            macro_rules! tag {
                ($v:expr) => {
                    format!("<{}>", $v)
                };
            }
            let a = ask!(a = elicit::<Num>(format!("A {i} {}?", tag!(i)))).accepted().map_err(refuse)?.num;
            let mut line = String::new();
            let _ = write!(line, "{}+{}", square(a), STEP * i);
            out.push(tag!(line));
        }
        if args.n > 1 {
            #[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
            struct Local {
                v: i64,
                name: String,
            }
            impl Local {
                fn bump(&mut self, by: i64) {
                    self.v += by;
                }
            }
            let mut local = Local { v: i64::from(args.n), name: format!("l{}", out.len()) };
            let by = ask!(by = elicit::<Num>(format!("Bump {local:?}?"))).ok().map_or(0, |n| n.num);
            local.bump(by);
            let again = ask!(again = elicit::<Yes>(format!("Again {}?", local.name))).ok().is_some_and(|y| y.yes);
            if again {
                local.bump(by);
            }
            out.push(format!("{local:?}"));
        }
        match out.len() {
            0 => {}
            n => {
                #[derive(serde::Serialize, serde::Deserialize)]
                enum Mode {
                    Short,
                    Long,
                }
                let mode = if n > 2 { Mode::Long } else { Mode::Short };
                let last = ask!(last = elicit::<Text>("Last?")).ok().map(|t| t.text);
                let shown = match mode {
                    Mode::Short => format!("short {last:?}"),
                    Mode::Long => format!("long {last:?}"),
                };
                out.push(shown);
            }
        }
        Ok(format!("{out:?}"))
    }

    return_break_and_continue_from_a_while_condition_block_that_asks(args) => {
        let mut seen = Vec::new();
        let mut passes = 0u32;
        'outer: loop {
            passes += 1;
            if passes > 3 {
                break;
            }
            while {
                let t = ask!(t = elicit::<Text>(format!("Pass {passes}, after {seen:?}?"))).accepted().map_err(refuse)?.text;
                if t == "quit" {
                    return Ok(format!("quit {seen:?}"));
                }
                if t == "next" {
                    continue 'outer;
                }
                if t == "stop" {
                    break 'outer;
                }
                seen.push(t);
                seen.len() < 2 + args.n as usize
            } {
                note!(args, "again {}", seen.len());
            }
            note!(args, "pass {passes} done");
        }
        Ok(format!("{seen:?} {passes}"))
    }

    blocks_that_ask_as_a_match_scrutinee_a_for_iterable_and_an_if_let_value(args) => {
        #[allow(clippy::blocks_in_conditions)]
        let size = match {
            let t = ask!(t = elicit::<Text>("Text?")).ok().map_or_else(String::new, |t| t.text);
            note!(args, "text {t}");
            t.len()
        } {
            0 => 0,
            n => {
                let k = ask!(k = elicit::<Num>(format!("K for {n}?"))).ok().map_or(1, |k| k.num);
                n as i64 * k
            }
        };
        let mut parts = Vec::new();
        for i in {
            let n = ask!(n = elicit::<Num>(format!("How many after {size}?"))).ok().map_or(0, |n| n.num);
            0..n.clamp(0, 3)
        } {
            parts.push(ask!(part = elicit::<Text>(format!("Part {i}?"))).ok().map_or_else(|| "-".to_owned(), |t| t.text));
        }
        let extra = if let Some(e) = {
            let e = ask!(extra = elicit::<Text>("Extra?")).ok();
            note!(args, "extra {}", e.is_some());
            e
        } {
            e.text
        } else {
            "none".to_owned()
        };
        Ok(format!("{size} {parts:?} {extra} {}", args.n))
    }

    // LIMITATIONS, documented in the README: plain Rust that `#[mrtr_tool]` does not compile.
    // A question that awaits, uses `?` or changes a local, and an ask in a match guard, are
    // compile errors with a fix (tests/ui). A local that postcard cannot read back, such as a
    // `serde_json::Value`, fails its first round with a message saying so (tests/resume_semantics.rs).
    // -----------------------------------------------------------------------------------------

    // A field moved out of a local before an ask that saves the local, which later code reads
    // only through its other fields: the field is cloned where it moves.
    a_field_moved_before_an_ask_and_the_others_read_after(args) => {
        let person = Person { name: format!("p{}", args.n), age: args.n };
        let memo = Memo { title: format!("t{}", args.n), note: (args.n > 1).then(|| "kept".to_owned()) };
        let name = person.name;
        note!(args, "name {name}");
        let note = memo.note.unwrap_or_default();
        let more = ask!(more = elicit::<Num>(format!("More for {name}?"))).accepted().map_err(refuse)?.num;
        note!(args, "more {more} {}", person.age);
        let text = ask!(text = elicit::<Text>(format!("Text for {}?", memo.title))).ok().map(|t| t.text);
        Ok(format!("{name} {} {} {note} {more} {text:?}", person.age, memo.title))
    }

    // A field moved out before a loop that reads the local before its ask: the next pass reads
    // it after the ask (seed 210).
    a_field_moved_before_a_loop_that_reads_the_local_before_asking(args) => {
        let tally = Tagged { tag: format!("t{}", args.n), value: vec![i64::from(args.n)] };
        let tag = tally.tag;
        let mut i = 0;
        while i < args.n {
            note!(args, "pass {i} {:?}", tally.value);
            let more = ask!(more = elicit::<Num>(format!("More for {tag}?"))).ok().map_or(0, |n| n.num);
            note!(args, "more {more}");
            i += 1;
        }
        Ok(format!("{tag} {i}"))
    }

    // A field moved into a `vec!`, as its element or as each of `vec![x; n]`'s, or into a
    // `dbg!`, before an ask that saves the local: cloned there, as in a call's arguments.
    a_field_moved_into_a_vec_before_an_ask(args) => {
        let person = Person { name: format!("p{}", args.n), age: args.n };
        let memo = Memo { title: format!("t{}", args.n), note: Some("n".to_owned()) };
        let names = vec![person.name, memo.title.clone()];
        let notes = vec![memo.note; 2];
        let tally = Tagged { tag: format!("g{}", args.n), value: vec![i64::from(args.n)] };
        let tag = dbg!(tally.tag);
        note!(args, "{names:?} {notes:?} {tag}");
        let more = ask!(more = elicit::<Num>(format!("More for {}?", memo.title))).accepted().map_err(refuse)?.num;
        Ok(format!("{names:?} {notes:?} {} {more} {tag} {:?}", person.age, tally.value))
    }

    // Statements before a local that an `if let` or `match` whose branch asks takes apart, or
    // before a `match` on an owned value or an `if` whose branch asks: what they declare ends
    // with them, before the ask, when nothing after reads it. So a handle that cannot be
    // saved may be read there.
    statements_before_a_matched_local_end_before_its_ask(args) => {
        let n = i64::from(args.n);
        let handle = Handle::open(10);
        let found = handle.find(n).copied();
        let got = if let Some(found) = found { found + n } else { ask!(got = elicit::<Num>("Got?")).accepted().map_err(refuse)?.num };
        note!(args, "got {got}");
        let mut sum = 0;
        let handle = Handle::open(i64::from(args.n));
        for i in 0..i64::from(args.n) {
            sum += handle.find(i).copied().unwrap_or(0);
        }
        let both = handle.find(sum).cloned();
        match both {
            Some(both) => note!(args, "both {both}"),
            None => {
                let last = ask!(last = elicit::<Num>("Last?")).ok().map_or(0, |n| n.num);
                note!(args, "last {last}");
            }
        }
        let probe = Handle::open(i64::from(args.n));
        if probe.find(i64::from(args.n) + 1).is_none() {
            let extra = ask!(extra = elicit::<Num>("Extra?")).ok().map_or(0, |n| n.num);
            note!(args, "extra {extra}");
        }
        let other = Handle::open(i64::from(args.n) + 1);
        let more = match other.find(i64::from(args.n)).copied() {
            Some(more) => more,
            None => ask!(more = elicit::<Num>("More?")).ok().map_or(0, |n| n.num),
        };
        Ok(format!("{got} {sum} {more}"))
    }

    // Statements before an `if` whose branch rebuilds a local from itself with an answer, or
    // consumes it in a `return` that asks: they run in the condition, and the local is saved
    // with what they did.
    statements_before_an_asking_if_that_rebuilds_or_returns_a_local(args) => {
        let mut line = format!("l{}", args.n);
        let mut nums: Vec<u32> = Vec::new();
        let mut passes = 0;
        loop {
            passes += 1;
            line.push('.');
            nums.push(args.n + passes);
            if passes % 2 == 0 {
                line = line + &ask!(part = elicit::<Text>(format!("Part after {passes}?"))).ok().map_or("-".to_owned(), |t| t.text);
            }
            note!(args, "pass {passes} {line}");
            nums.push(passes);
            if passes >= args.n {
                return Ok(sum_with(nums, ask!(k = elicit::<Num>(format!("K for {line}?"))).accepted().map_err(refuse)?.num));
            }
        }
    }

    // Arguments, elements, fields and left operands that compute something before the ask of
    // their statement: computed first, once, in Rust's order, and saved at the ask; a `?`
    // there returns before asking. In a loop, a match arm's body and an `else if` too, and
    // after a receiver that the operand only reads (`answers.len()`).
    operands_that_compute_before_an_ask_run_once(args) => {
        let mut answers = BTreeMap::new();
        let mut calls = 0u32;
        for key in ["a", "b"].map(String::from) {
            answers.insert({ calls += 1; note!(args, "key {key} {calls}"); key.to_uppercase() }, ask!(value = elicit::<Num>(format!("{key}?"))).accepted().map_or(-1, |n| n.num));
        }
        answers.insert(answers.len().to_string(), ask!(count = elicit::<Num>("Count?")).accepted().map_or(0, |n| n.num));
        let person = Person { name: { note!(args, "name"); format!("p{}", args.n) }, age: u32::try_from(ask!(age = elicit::<Num>("Age?")).accepted().map_err(refuse)?.num).map_err(|e| e.to_string())? };
        let pair = (answers.len() + calls as usize, ask!(pair = elicit::<Text>("Pair?")).ok().map_or("-".to_owned(), |t| t.text));
        let tagged = Tagged { tag: validate(&pair.1)?, value: ask!(tag = elicit::<Num>(format!("Value for {}?", pair.1))).accepted().map_or(0, |n| n.num) };
        let same = person.name.to_uppercase() == ask!(same = elicit::<Text>("Same?")).ok().map_or(String::new(), |t| t.text);
        let found = answers.contains_key(&tagged.tag.to_uppercase()) || ask!(found = elicit::<Yes>("Found?")).ok().is_some_and(|y| y.yes);
        let _ = match same {
            true => None,
            false => answers.insert(format!("X{calls}"), ask!(extra = elicit::<Num>("Extra?")).accepted().map_or(0, |n| n.num)),
        };
        if calls > 5 {
            note!(args, "many");
        } else if answers.len() + 1 > calls as usize && ask!(more = elicit::<Yes>("More?")).ok().is_some_and(|y| y.yes) {
            note!(args, "more");
        }
        let mut log: Vec<i64> = Vec::new();
        for i in (calls as i64 * 2)..ask!(upto = elicit::<Num>("Up to?")).accepted().map_or(0, |n| n.num.min(6)) {
            log.push(i);
        }
        let joined = join_async(&person.name.to_uppercase(), &ask!(last = elicit::<Text>("Last?")).ok().map_or("-".to_owned(), |t| t.text)).await;
        note!(args, "{answers:?} {pair:?} {same} {found} {log:?}");
        Ok(format!("{} {} {} {joined}", person.age, tagged.tag, tagged.value))
    }

    // `format!`, `println!` and `write!` whose arguments ask: the arguments are evaluated in
    // order, one that computes only once, and the macro borrows them.
    asks_inside_format_and_print_arguments(args) => {
        use std::fmt::Write as _;
        let mut out = String::new();
        let mut calls = 0;
        let name = format!("p{}", args.n);
        let greeting = format!("{name} {} {}", { calls += 1; note!(args, "first {calls}"); calls }, ask!(a = elicit::<Num>("A?")).accepted().map_or(-1, |n| n.num));
        write!(out, "{greeting}|{x}", x = name.len() as i64 + ask!(b = elicit::<Num>("B?")).accepted().map_err(refuse)?.num).map_err(|e| e.to_string())?;
        println!("{} {}", out, ask!(c = elicit::<Text>("C?")).ok().map_or("-".to_owned(), |t| t.text));
        note!(args, "{out} {calls}");
        Ok(format!("{out} {}", format!("[{}]", ask!(d = elicit::<Text>(format!("D after {calls}?"))).ok().map_or("-".to_owned(), |t| t.text))))
    }

    // `&'static str`s held across asks: string literals chosen by branches (one of which
    // returns), annotated, in arrays, tuples, `vec!`s and `Option`s, from a call, the items of
    // a `const` outside the tool and of one in the body, a struct's field, a map's keys, a
    // `for` loop's items (a literal's `split` too, also put into a `Vec`), and a literal given a
    // new value after the ask.
    static_strs_held_across_asks(args) => {
        const SIZES: [&str; 3] = ["small", "medium", "large"];
        let label = if args.n > 2 { "many" } else if args.n == 0 { return Ok("none".to_owned()) } else { "few" };
        let greeting: &str = "Hello";
        let word: &'static str = word_for(args.n);
        let options = ["red", "green", "blue"];
        let pairs = vec![("one", 1), ("two", 2)];
        let fallback = Some("none");
        let size = SIZES[args.n as usize % 3];
        let step = Labelled { label: "first", weight: args.n };
        let mut seen: BTreeMap<&str, i64> = BTreeMap::new();
        for question in QUESTIONS {
            let n = ask!(q = elicit::<Num>(format!("{question} ({label})"))).accepted().map_or(-1, |n| n.num);
            seen.insert(question, n);
            note!(args, "{question} {n}");
        }
        let mut mood = "calm";
        for place in ["home", "away"] {
            let loud = ask!(loud = elicit::<Yes>(format!("Loud at {place}?"))).ok().is_some_and(|y| y.yes);
            if loud {
                mood = place;
            }
        }
        let mut ways = Vec::new();
        for way in "up down".split(' ') {
            if ask!(way = elicit::<Yes>(format!("Go {way}?"))).ok().is_some_and(|y| y.yes) {
                ways.push(way);
            }
        }
        // Slices of a literal, put into a `Vec` that an ask outlives: `&'static str`s too.
        let choice = "left right";
        let mut sides = Vec::new();
        for side in choice.split(' ') {
            sides.push(side.trim());
        }
        let index = ask!(index = elicit::<Num>(format!("Which, {mood}?"))).accepted().map_or(9, |n| n.num) as usize;
        let shown = mood.len();
        mood = "done";
        let picked = options.get(index).copied().or(fallback).unwrap_or_default();
        Ok(format!("{greeting} {label} {word} {pairs:?} {size} {step:?} {seen:?} {mood} {shown} {picked} {ways:?} {sides:?}"))
    }

    // A local of the body given a new value in a branch of a `let` that `deferred_init` makes
    // of `let total; if .. { total = .. } else { .. total = .. }` inside another block, then
    // moved by the statement of a later ask before it asks (seed 1101).
    given_anew_in_a_deferred_let_then_moved_before_an_ask(args) => {
        let mut list = vec![7u32, args.n];
        if args.n < 5 {
            let total;
            if args.n > 3 {
                total = ask!(a = elicit::<Num>(format!("A {list:?}?"))).accepted().map_err(refuse)?.num;
            } else {
                let first = sum_with(list, 1);
                list = vec![5, args.n * 2];
                let second = sum_with(list, ask!(b = elicit::<Num>(format!("B {first}?"))).accepted().map_err(refuse)?.num);
                note!(args, "{second}");
                total = second.len() as i64 + ask!(c = elicit::<Num>("C?")).accepted().map_err(refuse)?.num;
            }
            let more = ask!(d = elicit::<Num>("D?")).accepted().map_err(refuse)?.num;
            note!(args, "{total} {more}");
        }
        Ok(format!("done {}", args.n))
    }

    // `vec![..]` whose item asks: an earlier item that computes runs once, and the items keep
    // their order, in a loop too.
    a_vec_whose_items_ask(args) => {
        let mut calls = 0;
        let first = vec![{ calls += 1; note!(args, "first {calls}"); format!("p{}", args.n) }, ask!(a = elicit::<Text>("A?")).ok().map_or("-".to_owned(), |t| t.text)];
        let mut rows = Vec::new();
        for i in 0..args.n.min(3) {
            rows.push(vec![i64::from(i), ask!(row = elicit::<Num>(format!("Row {i} after {calls}?"))).accepted().map_or(-1, |n| n.num)]);
        }
        Ok(format!("{first:?} {rows:?} {calls}"))
    }

    // `for` loops whose items borrow from a collection held across their asks: the state keeps
    // a count, and the items are read again from the saved collection on resume.
    items_borrowed_from_held_collections(args) => {
        let names = vec![format!("a{}", args.n), "b".to_owned(), "c".to_owned()];
        let mut out = Vec::new();
        for name in &names {
            if name == "b" { note!(args, "skipped {name}"); continue; }
            let tag = ask!(tag = elicit::<Text>(format!("Tag {name}?"))).accepted().map_err(refuse)?.text;
            out.push(format!("{name}={tag}"));
        }
        let text = ask!(text = elicit::<Text>("Text?")).accepted().map_err(refuse)?.text;
        'lines: for (i, line) in text.lines().enumerate() {
            note!(args, "line {i}");
            for word in line.split(' ') {
                if word.is_empty() { continue; }
                let keep = ask!(keep = elicit::<Yes>(format!("Keep {word} of line {i}?"))).ok().is_some_and(|y| y.yes);
                if !keep { continue 'lines; }
                out.push(format!("{i}:{word}:{}", line.len()));
            }
        }
        let mut sizes = BTreeMap::new();
        sizes.insert("x".to_owned(), args.n);
        sizes.insert("y".to_owned(), 2);
        for (key, size) in &sizes {
            let more = ask!(more = elicit::<Num>(format!("{key}={size}?"))).ok().map_or(0, |n| n.num);
            out.push(format!("{key}{}", i64::from(*size) + more));
        }
        for (i, question) in QUESTIONS.iter().enumerate().skip(1) {
            let num = ask!(num = elicit::<Num>(*question)).ok().map_or(-1, |n| n.num);
            out.push(format!("{i}{question}{num}"));
        }
        let numbers = [3, i64::from(args.n)];
        for &n in &numbers {
            let n = n + 1;
            note!(args, "times {n}");
            let num = ask!(times = elicit::<Num>(format!("{n} times?"))).ok().map_or(0, |m| m.num);
            out.push(format!("{}", n * num));
        }
        for _ in names.iter().skip(1) {
            let _ = ask!(each = elicit::<Yes>("Each?"));
        }
        Ok(out.join(","))
    }

    // Loops over borrowed items inside a loop over owned ones and a branch, shadowing a local
    // read after them, left by labeled breaks, `return` and `?`.
    borrowed_items_in_nested_loops_and_branches(args) => {
        let groups = vec![vec![format!("p{}", args.n), "q".to_owned()], vec![], vec!["r".to_owned()]];
        let name = format!("outer{}", args.n);
        let mut seen = Vec::new();
        'groups: for group in groups {
            if group.is_empty() { note!(args, "empty"); continue; }
            for (i, name) in group.iter().enumerate().rev() {
                let pick = ask!(pick = elicit::<Num>(format!("{i} {name} of {}?", group.len()))).accepted().map_err(refuse)?.num;
                match pick {
                    0 => break 'groups,
                    1 => continue 'groups,
                    2 => return Ok(format!("returned at {name} {seen:?}")),
                    _ => seen.push(format!("{name}{pick}")),
                }
            }
        }
        if args.n > 1 {
            let chars = name.clone();
            for part in chars.split('e') {
                let yes = ask!(part = elicit::<Yes>(format!("Part {part}?"))).accepted().map_err(refuse)?.yes;
                seen.push(format!("{part}{yes}"));
            }
        }
        Ok(format!("{name} {seen:?}"))
    }

    // Borrowed loops over an outer borrowed loop's item by name, inside a `while`, and over a
    // `match` arm's binding.
    borrowed_items_of_borrowed_items_in_a_while_and_an_arm(args) => {
        let mut map = BTreeMap::new();
        map.insert("a".to_owned(), vec![format!("x{}", args.n), "y".to_owned()]);
        map.insert("b".to_owned(), Vec::new());
        map.insert("c".to_owned(), vec!["z".to_owned()]);
        let mut out = Vec::new();
        let mut rounds = 0;
        while rounds < args.n.min(2) {
            rounds += 1;
            for (key, values) in &map {
                for value in values {
                    let n = ask!(n = elicit::<Num>(format!("{rounds} {key} {value}?"))).ok().map_or(0, |n| n.num);
                    out.push(format!("{rounds}{key}{value}{n}"));
                }
            }
        }
        match (args.n > 1).then(|| vec![1, i64::from(args.n)]) {
            Some(list) => {
                for x in &list {
                    let m = ask!(m = elicit::<Num>(format!("m {x}?"))).accepted().map_err(refuse)?.num;
                    out.push(format!("{x}{m}{}", list.len()));
                }
            }
            None => note!(args, "no list"),
        }
        Ok(out.join(","))
    }

    // Loops over borrowed items left by `break` and `return` right after their ask, which read
    // the list again on resume; and a local named like their item, read after a later ask, once
    // the list is moved: the list is not saved there.
    a_later_local_named_like_a_borrowed_loop_item(args) => {
        let words = vec![format!("w{}", args.n), "v".to_owned()];
        let mut total = 0;
        for word in &words {
            total += ask!(size = elicit::<Num>(format!("Size of {word}?"))).ok().map_or(0, |n| n.num);
        }
        for word in &words {
            let first = ask!(first = elicit::<Num>(format!("First of {word}?"))).ok().map_or(0, |n| n.num);
            note!(args, "{word} {first}");
            break;
        }
        for (i, word) in words.iter().enumerate() {
            if i == 1 && args.n > 5 {
                let last = ask!(last = elicit::<Num>(format!("Last of {word}?"))).ok().map_or(0, |n| n.num);
                return Ok(format!("{word} {last} {total}"));
            }
        }
        let taken: usize = words.into_iter().map(consume).sum();
        let word = format!("x{taken}");
        let checked = ask!(check = elicit::<Yes>(format!("Check {word}?"))).ok().is_some_and(|y| y.yes);
        Ok(format!("{word} {total} {checked}"))
    }

    // A local moved by two `let`s in an inner block after which nothing reads it, and given
    // anew after each ask (seed 1217): each assignment is a new binding, so the region of the
    // first `let`, which dies before the last ask, does not hand out the moved one.
    a_local_moved_by_two_lets_and_given_anew_after_each_ask(args) => {
        let mut name = format!("n{}", args.n);
        let mut total = 0;
        {
            let first = consume(name);
            let given = ask!(first = elicit::<Text>("First?")).accepted().map_or_else(|_| "none".to_owned(), |t| t.text);
            name = given;
            let second = consume(name) + first;
            let again = ask!(second = elicit::<Text>("Second?")).accepted().map_or_else(|_| "none".to_owned(), |t| t.text);
            name = again;
            total += second * 100 + name.len();
        }
        let mut list = vec![args.n];
        if args.n > 0 {
            let first = list.len();
            let given = ask!(third = elicit::<Num>("Third?")).ok().map_or(vec![], |n| vec![n.num as u32]);
            list = given;
            let second = sum_with(list, 1);
            let again = ask!(fourth = elicit::<Num>("Fourth?")).ok().map_or(vec![], |n| vec![n.num as u32]);
            list = again;
            note!(args, "{first} {second} {list:?}");
        }
        let last = ask!(last = elicit::<Num>("Last?")).ok().map_or(0, |n| n.num);
        Ok(format!("{total} {last}"))
    }

    // `let`s that only borrow from what the tool holds, held across asks: made again on every
    // round from the restored place rather than saved. A trim, a first item, an index by a
    // local, a pick of a pick into a tuple, a `?`, one inside a region that scope narrowing
    // folds, one in each kind of loop, an index that changes once the item is dead, a place
    // moved once its borrow is dead, and one changed.
    borrowed_lets_made_again_on_resume(args) => {
        let text = format!("  key{}=value{}  ", args.n, args.n + 1);
        let items = vec![args.n * 10, args.n * 20, 7];
        let t = text.trim();
        let first = items.first();
        let i = (args.n % 3) as usize;
        let at = &items[i];
        let (key, value) = t.split_once('=').unwrap_or(("none", ""));
        let asked = ask!(size = elicit::<Num>(format!("Size of {key}?"))).ok().map_or(0, |n| n.num);
        note!(args, "{t} {first:?} {at} {key} {value} {asked}");
        let tail = text.strip_prefix("  ").ok_or("no spaces")?;
        let dropped = consume(format!("d{}", args.n));
        let last = items.last();
        let checked = ask!(check = elicit::<Yes>(format!("Check {t}?"))).ok().is_some_and(|y| y.yes);
        note!(args, "{tail:?} {last:?} {dropped} {checked}");
        let mut words = Vec::new();
        for line in text.split('=') {
            let word = line.trim();
            if word.len() > 3 {
                let more = ask!(more = elicit::<Text>(format!("More on {word}?"))).accepted().map_or_else(|_| "-".to_owned(), |m| m.text);
                words.push(format!("{word}:{more}"));
            }
        }
        for owned in vec![format!(" a{} ", args.n), " b ".to_owned()] {
            let short = owned.trim();
            let n = ask!(n = elicit::<Num>(format!("n of {short}?"))).ok().map_or(0, |n| n.num);
            words.push(format!("{short}={n}"));
        }
        let mut pos = 0;
        while pos < items.len() {
            let item = &items[pos];
            if *item > 10 {
                let scaled = ask!(scale = elicit::<Num>(format!("Scale {item}?"))).ok().map_or(1, |n| n.num);
                words.push(format!("{item}x{scaled}"));
            }
            pos += 1;
        }
        let size = consume(text);
        let mut notes = format!("n{}", args.n);
        let trimmed = notes.trim();
        let end = ask!(end = elicit::<Num>(format!("End of {trimmed}?"))).ok().map_or(0, |n| n.num);
        note!(args, "{trimmed} {end}");
        notes.push_str("-changed");
        let again = ask!(again = elicit::<Num>("Again?")).ok().map_or(0, |n| n.num);
        Ok(format!("{words:?} {size} {end} {notes} {again}"))
    }

    // Arms and `if let`s whose bindings borrow from what the tool holds, used after an ask in
    // them: bound again from the restored place on every round rather than saved. An `if let`
    // on a first item, a guarded arm, a catch-all arm of an `as_str`, a `split_once` into a
    // tuple, an arm beside a guarded one of the same name in a loop, a `while let` that binds
    // that name from the same place, a `let .. else`, items taken from iterators
    // (`split(..).next()`, `iter().max()`, `iter().rev().nth(1)`) and an arm on one, an `@`
    // binding, a struct pattern on an indexed item, an `if let` in one, and a `match` inside a
    // region.
    borrowed_arms_bound_again_on_resume(args) => {
        let repos = vec![format!("r{}", args.n), "s".to_owned()];
        let cmd = if args.n % 2 == 0 { "go".to_owned() } else { "quit".to_owned() };
        let text = format!("  key{}=value  ", args.n);
        let people = vec![Person { name: format!("p{}", args.n), age: args.n }];
        let mut out = Vec::new();
        if let Some(first) = repos.first() {
            let level = ask!(level = elicit::<Num>(format!("Level of {first}?"))).ok().map_or(0, |n| n.num);
            note!(args, "{first} {level}");
            if let Some(rest) = first.strip_prefix('r') {
                let more = ask!(more = elicit::<Text>(format!("More on {rest}?"))).accepted().map_or_else(|_| "-".to_owned(), |m| m.text);
                out.push(format!("{first}/{rest}/{more}"));
            }
        } else {
            out.push("none".to_owned());
        }
        match repos.first() {
            Some(head) if head.starts_with('r') => {
                let again = ask!(again = elicit::<Yes>(format!("Again {head}?"))).ok().is_some_and(|y| y.yes);
                out.push(format!("{head}?{again}"));
            }
            _ => out.push("no head".to_owned()),
        }
        let said = match cmd.as_str() {
            "quit" => "bye".to_owned(),
            other => {
                let sure = ask!(sure = elicit::<Yes>(format!("Run {other}?"))).ok().is_some_and(|y| y.yes);
                format!("{other}:{sure}")
            }
        };
        match text.trim().split_once('=') {
            Some((key, value)) => {
                let size = ask!(size = elicit::<Num>(format!("Size of {key}?"))).ok().map_or(0, |n| n.num);
                out.push(format!("{key}={value}:{size}"));
            }
            None => out.push("no pair".to_owned()),
        }
        let mut i = 0;
        while i < repos.len() {
            match repos.get(i) {
                Some(repo) if repo.len() > 3 => out.push(format!("long {repo}")),
                Some(repo) => {
                    let keep = ask!(keep = elicit::<Yes>(format!("Keep {repo}?"))).ok().is_some_and(|y| y.yes);
                    out.push(format!("{repo}:{keep}"));
                }
                None => break,
            }
            i += 1;
        }
        i = 0;
        while let Some(repo) = repos.get(i) {
            let mark = ask!(mark = elicit::<Num>(format!("Mark {repo}?"))).ok().map_or(0, |n| n.num);
            out.push(format!("{repo}#{mark}"));
            i += 1;
        }
        let Some(last) = repos.last() else {
            return Err("no repos".to_owned());
        };
        let word = text.trim().split('=').next();
        let top = repos.iter().max();
        let back = repos.iter().rev().nth(1).unwrap_or(&cmd);
        let star = ask!(star = elicit::<Yes>(format!("Star {last}?"))).ok().is_some_and(|y| y.yes);
        note!(args, "{word:?} {top:?} {back}");
        match text.split_whitespace().next() {
            Some(w) => {
                let len = ask!(len = elicit::<Num>(format!("Length of {w}?"))).ok().map_or(0, |n| n.num);
                out.push(format!("{w}~{len}"));
            }
            None => out.push("blank".to_owned()),
        }
        if let whole @ Some(_) = repos.get(1) {
            let seen = ask!(seen = elicit::<Yes>("Seen?")).ok().is_some_and(|y| y.yes);
            out.push(format!("{whole:?} {seen}"));
        }
        match &people[0] {
            Person { name, age } => {
                let years = ask!(years = elicit::<Num>(format!("Years of {name}?"))).ok().map_or(0, |n| n.num);
                out.push(format!("{name} {age} {years}"));
            }
        }
        let dropped = consume(format!("d{}", args.n));
        let total = {
            let count = repos.len();
            match repos.first() {
                Some(head) => {
                    let extra = ask!(extra = elicit::<Num>(format!("Extra for {head}?"))).ok().map_or(0, |n| n.num);
                    format!("{head} {count} {extra}")
                }
                None => String::new(),
            }
        };
        // `word` again, in a block that does not ask, once what the first borrowed is moved.
        let size = consume(text);
        {
            let word = size + 1;
            note!(args, "{word}");
        }
        Ok(format!("{out:?} {said} {last} {star} {dropped} {total}"))
    }

    // A loop over items borrowed from a local, and a value made again from another, after a
    // macro read them (which may move a value), while another branch moves them (seed 1270):
    // resuming makes the loop's iterator and the value again from the locals, so they are
    // saved as they are at the asks, not from a snapshot taken at their `let`s.
    made_every_round_after_a_macro_read_of_what_another_branch_moves(args) => {
        let mut list = Vec::new();
        list.push(args.n + 1);
        list.push(7);
        let mut text = String::new();
        text.push_str(" ab ");
        if args.n % 2 == 0 {
            note!(args, "{list:?} {text}");
            for &x in list.iter().rev() {
                let m = ask!(m = elicit::<Num>(format!("m {x}?"))).ok().map_or(0, |n| n.num);
                note!(args, "{x}+{m}");
            }
            let t = text.trim();
            let k = ask!(k = elicit::<Num>(format!("k {t}?"))).ok().map_or(0, |n| n.num);
            note!(args, "{t} {k}");
        } else {
            note!(args, "{}", sum_with(list, 1));
            note!(args, "{}", consume(text));
        }
        Ok("done".to_owned())
    }

    // References collected, mapped by picks and filtered by reads from what the tool holds,
    // held across asks: collected again on resume, with an item copied out of them, a loop
    // over them, and a `match` on one found.
    collected_borrows_made_again_on_resume(args) => {
        let text = format!(" a{}, bb ,, c ,dd{} @x", args.n, args.n);
        let repos = vec![format!("r{}", args.n), "s".to_owned(), String::new()];
        let min = args.n as usize % 3;
        let words: Vec<&str> = text.split(',').map(str::trim).filter(|w| !w.is_empty()).collect();
        let first = words[0];
        let mut out = Vec::new();
        for w in &words {
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {w} after {first}?"))).ok().is_some_and(|y| y.yes);
            if keep {
                out.push(w.to_string());
            }
        }
        let long = text.split(',').map(|w| w.trim()).find(|w| w.len() > min);
        let named = repos.first().map(|r| r.as_str()).unwrap_or("none");
        let set: std::collections::BTreeSet<&str> = repos.iter().map(String::as_str).filter(|r| !r.is_empty()).collect();
        let upper: Vec<String> = words.iter().map(|w| w.to_uppercase()).collect();
        let n = ask!(n = elicit::<Num>(format!("How many of {named}?"))).ok().map_or(0, |n| n.num);
        note!(args, "{long:?} {set:?} {upper:?} {n}");
        let tail = text.trim().trim_start_matches('a').trim_end_matches("@x");
        match text.split(',').map(str::trim).filter(|w| w.len() == 2).max() {
            Some(two) => {
                let sure = ask!(sure = elicit::<Yes>(format!("Sure of {two}?"))).ok().is_some_and(|y| y.yes);
                out.push(format!("{two}:{sure}"));
            }
            None => out.push("no pair".to_owned()),
        }
        let (user, domain) = text.split_once('@').unwrap_or((&text, ""));
        let label = if repos.len() > 5 { "many" } else if args.n > 5 { repos[0].as_str() } else { repos[1].trim() };
        let pair = (repos[0].as_str(), 2);
        let end = &repos[repos.len() - 2];
        let next = repos.get(min + 1);
        let last = ask!(last = elicit::<Text>(format!("Last for {user}{domain} {label}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
        let counts = format!("{} {first} {tail} {} {label} {pair:?} {end} {next:?}", words.len(), set.len());
        let size = consume(text);
        Ok(format!("{out:?} {counts} {last} {size}"))
    }

    // `let name = name.trim();` and the like, which borrow from the name they bind: the old
    // value is moved under a hidden name and saved, or read through its own value where that
    // is made again too, and the new one is made again from it on resume.
    names_bound_again_from_their_old_values(args) => {
        let name = format!("  Ada{}! ", args.n);
        let name = name.trim();
        let keep = ask!(keep = elicit::<Yes>(format!("Keep {name}?"))).ok().is_some_and(|y| y.yes);
        let name = name.strip_suffix('!').unwrap_or(name);
        let text = format!("x one{} \n two \n", args.n);
        let mut out = vec![format!("{name}:{keep}")];
        for line in text.lines() {
            let line = line.trim();
            let take = ask!(take = elicit::<Yes>(format!("Take {line} of {name}?"))).ok().is_some_and(|y| y.yes);
            if take {
                out.push(line.to_owned());
            }
        }
        let items = vec![format!(" p{} ", args.n), "q ".to_owned()];
        for item in &items {
            let item = item.trim();
            let n = ask!(n = elicit::<Num>(format!("How many {item}?"))).ok().map_or(0, |n| n.num);
            out.push(format!("{item}{n}"));
        }
        match items.first() {
            Some(first) => {
                let first = first.trim();
                let sure = ask!(sure = elicit::<Yes>(format!("First {first}?"))).ok().is_some_and(|y| y.yes);
                out.push(format!("{first}{sure}"));
            }
            None => out.push("none".to_owned()),
        }
        let Some(end) = items.last() else {
            return Err("no items".to_owned());
        };
        let end = end.trim_end();
        let fine = ask!(fine = elicit::<Yes>(format!("End {end}?"))).ok().is_some_and(|y| y.yes);
        out.push(format!("{end}{fine}"));
        let mut word = String::from("w");
        word.push_str(&args.n.to_string());
        let word = word.as_str();
        let word = if word.len() > 2 { word } else { "short" };
        let shown = word;
        let lines = text.as_str();
        let lines = lines.trim_end();
        let pair = format!("{} tail", args.n);
        let (pair, tail) = pair.split_once(' ').unwrap_or((&pair, ""));
        let last = ask!(last = elicit::<Text>(format!("Last {pair}/{tail} {word} {lines}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
        let count = lines.len();
        let size = consume(text);
        Ok(format!("{out:?} {name} {word} {shown} {pair} {tail} {last} {size} {count} {}", items.len()))
    }

    // A value made again, copied in an inner block or bound alone by a `match` arm on it,
    // and held across asks there: the copy is made again too.
    copies_of_values_made_again_in_inner_blocks(args) => {
        let text = format!(" n{} ", args.n);
        let name = text.trim();
        let items = vec![format!(" a{} ", args.n), "  ".to_owned(), "bb".to_owned()];
        let mut out = Vec::new();
        let greeting = match name {
            "" => "nobody".to_owned(),
            n if n.len() > 9 => format!("long {n}"),
            n => {
                let title = ask!(title = elicit::<Text>(format!("Title for {n}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
                format!("{title} {n}")
            }
        };
        out.push(greeting);
        for item in &items {
            let t = item.trim();
            match t {
                "" => continue,
                w => {
                    let keep = ask!(keep = elicit::<Yes>(format!("Keep {w}?"))).ok().is_some_and(|y| y.yes);
                    let again = w;
                    let count = ask!(count = elicit::<Num>(format!("How many {again}?"))).ok().map_or(0, |n| n.num);
                    out.push(format!("{again}:{keep}:{count}"));
                }
            }
        }
        if !name.is_empty() {
            let shown = name;
            let sure = ask!(sure = elicit::<Yes>(format!("Show {shown}?"))).ok().is_some_and(|y| y.yes);
            out.push(format!("{shown}{sure}"));
        }
        let owned = format!("o{}", args.n);
        let said = match owned {
            o => {
                let last = ask!(last = elicit::<Text>(format!("Last for {o}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
                format!("{o}{last}")
            }
        };
        Ok(format!("{out:?} {said} {}", text.len()))
    }

    // An `if` or a `match` that chooses among values made again, by name, and literals, and
    // an item taken by a key that reads, held across asks: chosen again on resume.
    choices_among_values_made_again(args) => {
        let text = format!(" Ada{} ", args.n);
        let name = text.trim();
        let items = vec![format!("p{}", args.n), "q".to_owned()];
        let first = items.first().map(|s| s.as_str()).unwrap_or("none");
        let shown = if name.is_empty() { "nobody" } else { name };
        let kind = match name.len() {
            0 => "nobody",
            1..=4 => name,
            _ => name.trim_end_matches('1'),
        };
        let keep = ask!(keep = elicit::<Yes>(format!("Keep {shown} ({kind})?"))).ok().is_some_and(|y| y.yes);
        let pick = if first.len() > 2 { first } else if keep { "kept" } else { name };
        let longest = items.iter().max_by_key(|w| w.len()).map(String::as_str).unwrap_or("");
        let mut out = vec![format!("{shown}:{kind}:{keep}")];
        for item in &items {
            let item = item.trim();
            let label = match item { "q" => "queue", _ => item };
            let n = ask!(n = elicit::<Num>(format!("How many {label} of {pick}?"))).ok().map_or(0, |n| n.num);
            out.push(format!("{label}{n}"));
        }
        let last = ask!(last = elicit::<Text>(format!("Last for {pick} {shown}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
        let said = format!("{out:?} {pick} {kind} {last} {longest}");
        Ok(format!("{said} {}", consume(text)))
    }

    // `let name = name.trim();` in a block inside the one that binds the old `name`: the old
    // one is saved, from a snapshot taken where it can still be named, and the new one is
    // made again from it on resume.
    names_bound_again_in_inner_blocks(args) => {
        let mut name = format!("  Ada{} ", args.n);
        let mut out = Vec::new();
        let mut label = format!(" L{} ", args.n);
        if args.n > 2 {
            label.push_str("+ ");
            let label = label.trim();
            let ok = ask!(ok = elicit::<Yes>(format!("Label {label}?"))).ok().is_some_and(|y| y.yes);
            out.push(format!("{label}{ok}"));
        }
        if args.n > 5 {
            name.push_str("! ");
            let name = name.trim();
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {name}?"))).ok().is_some_and(|y| y.yes);
            out.push(format!("{name}:{keep}"));
        }
        for i in 0..2 {
            let name = name.trim_start();
            let n = ask!(n = elicit::<Num>(format!("How many {name} {i}?"))).ok().map_or(0, |n| n.num);
            let sure = ask!(sure = elicit::<Yes>(format!("Sure of {n} {name}?"))).ok().is_some_and(|y| y.yes);
            out.push(format!("{name}{n}{sure}"));
        }
        let text = format!("t{}  ", args.n);
        let text = text.trim_end();
        if !text.is_empty() {
            let text = text.strip_prefix('t').unwrap_or(text);
            let last = ask!(last = elicit::<Text>(format!("Last {text}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
            out.push(format!("{text}/{last}"));
        }
        match out.first().cloned() {
            Some(first) => {
                let first = first.trim_end_matches("true");
                let fine = ask!(fine = elicit::<Yes>(format!("First {first}?"))).ok().is_some_and(|y| y.yes);
                out.push(format!("{first}{fine}"));
            }
            None => out.push("none".to_owned()),
        }
        // A closure that binds again a name whose old value the block moved first.
        let tag = format!("g{}", args.n);
        if args.n > 2 {
            out.push(consume(tag).to_string());
            let tag = || text.len();
            let tagged = ask!(tagged = elicit::<Yes>(format!("Tag {}?", tag()))).ok().is_some_and(|y| y.yes);
            out.push(format!("{}{tagged}", tag()));
        }
        for word in vec![format!(" w{} ", args.n), "v".to_owned()] {
            if word.len() > 1 {
                let word = word.trim();
                let more = ask!(more = elicit::<Yes>(format!("More {word}?"))).ok().is_some_and(|y| y.yes);
                out.push(format!("{word}{more}"));
            }
            out.push(word);
        }
        let shown = name.clone();
        Ok(format!("{out:?} [{shown}] {text} {}", consume(name)))
    }

    // Loops over borrowed items through `filter` with a closure that only reads and `map`
    // with one that only picks: the adapters run again on resume, over the saved collection.
    borrowed_loops_through_filter_and_map(args) => {
        let text = format!("a{}, bb ,, ccc ,{}", args.n, args.n * 3);
        let items = vec![format!("p{}", args.n), " ".to_owned(), "qq".to_owned(), "r".to_owned(), "sss".to_owned()];
        let min = 2;
        let mut out = Vec::new();
        for part in text.split(',').map(|p| p.trim()).filter(|p| !p.is_empty()) {
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {part}?"))).ok().is_some_and(|y| y.yes);
            if keep {
                out.push(part.to_owned());
            }
        }
        for (i, item) in items.iter().filter(|s| s.trim().len() >= min).enumerate().skip(1) {
            let n = ask!(n = elicit::<Num>(format!("How many {item} ({i})?"))).ok().map_or(0, |n| n.num);
            out.push(format!("{i}{item}{n}{min}"));
            if n > 4 {
                break;
            }
        }
        for word in items.iter().map(String::as_str).rev().take(2) {
            let word = word.trim();
            let sure = ask!(sure = elicit::<Yes>(format!("Sure of {word}?"))).ok().is_some_and(|y| y.yes);
            out.push(format!("{word}{sure}"));
        }
        // Arguments that only read locals the body reads too.
        let limit = args.n as usize / 4;
        for item in items.iter().skip(limit - 1).take(limit) {
            let more = ask!(more = elicit::<Yes>(format!("More of {item} ({limit}, {})?", args.n))).ok().is_some_and(|y| y.yes);
            out.push(format!("{item}{more}{limit}"));
        }
        // Closures whose parameter is a tuple pattern.
        for (i, item) in items.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
            let pick = ask!(pick = elicit::<Yes>(format!("Pick {i}: {item}?"))).ok().is_some_and(|y| y.yes);
            out.push(format!("{i}{item}{pick}"));
        }
        let evens: Vec<&str> = text.split(',').enumerate().filter(|(i, _)| i % 2 == 0).map(|(_, w)| w.trim()).collect();
        let last = ask!(last = elicit::<Text>(format!("Last of {evens:?}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
        out.push(format!("{evens:?}{last}"));
        Ok(format!("{out:?} {min} {}", consume(text)))
    }

    // Arms, `if let`s and `let .. else`s that take apart a local a pick binds: bound again
    // from it on resume, not saved; also where the pattern takes the local's own name.
    arms_on_locals_a_pick_binds(args) => {
        let items = vec![format!("p{}", args.n), "qq".to_owned(), "three".to_owned()];
        let text = format!("k{}=v{}", args.n, args.n + 1);
        let mut out = Vec::new();
        let first = items.first();
        let said = match first {
            Some(f) if f.len() > 2 => {
                let sure = ask!(sure = elicit::<Yes>(format!("Sure of {f}?"))).ok().is_some_and(|y| y.yes);
                format!("{f}{sure}")
            }
            Some(f) => {
                let label = ask!(label = elicit::<Text>(format!("Label for {f}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
                format!("{f}+{label}")
            }
            None => String::new(),
        };
        out.push(format!("{said} {first:?}"));
        let longest = items.iter().max_by_key(|s| s.len());
        if let Some(longest) = longest {
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {longest}?"))).ok().is_some_and(|y| y.yes);
            out.push(format!("{longest}{keep}"));
        }
        let hit = items.iter().enumerate().find(|(_, s)| s.starts_with('q'));
        if let Some((at, word)) = hit {
            let n = ask!(n = elicit::<Num>(format!("How many {word} at {at}?"))).ok().map_or(0, |n| n.num);
            out.push(format!("{at}{word}{n}"));
        } else {
            out.push("none".to_owned());
        }
        let parts = text.split_once('=');
        let Some((key, value)) = parts else {
            return Ok("no =".to_owned());
        };
        for i in 0..args.n % 3 + 1 {
            let entry = items.get(i as usize);
            match entry {
                Some(e) => {
                    let more = ask!(more = elicit::<Yes>(format!("More of {e} ({key})?"))).ok().is_some_and(|y| y.yes);
                    out.push(format!("{e}{more}"));
                    if !more {
                        break;
                    }
                }
                None => break,
            }
        }
        let last = ask!(last = elicit::<Text>(format!("Last after {key}={value}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
        Ok(format!("{out:?} {key} {value} {last}"))
    }

    // A `let .. else` made again whose bindings die apart, one before a loop's ask and one
    // after it: `scopes` folded it over and over, and rustc never finished, before stop 56.
    let_else_made_again_whose_bindings_die_apart(args) => {
        let text = format!("k{}=v{}", args.n, args.n + 1);
        let Some((key, value)) = text.split_once('=') else {
            return Ok("no =".to_owned());
        };
        let shown = value.len();
        let mut out = Vec::new();
        for i in 0..args.n % 3 + 1 {
            let more = ask!(more = elicit::<Yes>(format!("More of {i} ({key})?"))).ok().is_some_and(|y| y.yes);
            out.push(format!("{i}{more}"));
        }
        let last = ask!(last = elicit::<Text>(format!("Last after {key}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
        Ok(format!("{out:?} {key} {shown} {last}"))
    }

    // `for` loops over borrowed items joined with a second iterable by `zip` or `chain`: the
    // loop saves a count, and both are read again on resume.
    zipped_and_chained_borrowed_loops(args) => {
        let labels = vec![format!("l{}", args.n), "m".to_owned(), "nn".to_owned()];
        let values = vec!["a".to_owned(), format!("b{}", args.n)];
        let text = format!("x{}\n\ny\nz", args.n);
        let mut out = Vec::new();
        for (label, value) in labels.iter().zip(&values) {
            let keep = ask!(keep = elicit::<Yes>(format!("Pair {label} with {value}?"))).ok().is_some_and(|y| y.yes);
            out.push(format!("{label}{value}{keep}"));
            if !keep && label.len() > 1 {
                break;
            }
        }
        for (line, n) in text.lines().filter(|l| !l.is_empty()).zip(1..) {
            let take = ask!(take = elicit::<Num>(format!("Take {line} as {n}?"))).ok().map_or(0, |t| t.num);
            out.push(format!("{n}{line}{take}"));
        }
        for word in labels.iter().chain(values.iter()).skip(args.n as usize % 2) {
            let more = ask!(more = elicit::<Yes>(format!("More {word}?"))).ok().is_some_and(|y| y.yes);
            if !more {
                break;
            }
            out.push(word.clone());
        }
        for (i, (a, b)) in labels.iter().zip(values.iter().rev()).enumerate() {
            let note = ask!(note = elicit::<Text>(format!("Note {i} {a} {b}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
            out.push(format!("{i}{a}{b}{note}"));
        }
        let last = ask!(last = elicit::<Text>("Last?")).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
        Ok(format!("{out:?} {} {last}", labels.len() + values.len()))
    }

    // Borrowed loops and a `let` made again through `skip_while`, `take_while`, `filter_map` and
    // `map_while`, whose closures only read or pick: run again on resume.
    while_and_filter_map_adapters(args) => {
        let text = format!("# head {}\n# more\n- a{}\n- bb\nplain\n- c", args.n, args.n);
        let header: Vec<&str> = text.lines().take_while(|l| l.starts_with('#')).collect();
        let mut out = Vec::new();
        for item in text.lines().skip_while(|l| l.starts_with('#')).filter_map(|l| l.strip_prefix("- ")) {
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {item}?"))).ok().is_some_and(|y| y.yes);
            out.push(format!("{item}{keep}"));
            if !keep {
                break;
            }
        }
        for (i, word) in text.lines().map_while(|l| l.strip_prefix("# ")).enumerate() {
            let n = ask!(n = elicit::<Num>(format!("Count {word} at {i}?"))).ok().map_or(0, |n| n.num);
            out.push(format!("{i}{word}{n}"));
        }
        let last = ask!(last = elicit::<Text>(format!("Last after {header:?}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
        Ok(format!("{out:?} {header:?} {last}"))
    }

    // Names of a parameter destructured in the signature, bound again from themselves in
    // blocks inside by a `let`, an `if let` and a loop's `let`: read in place on every round.
    parameters_bound_again_in_blocks_inside(Args { n, run }) => {
        let mut out = Vec::new();
        if n % 2 == 0 {
            let run = run.trim();
            let sure = ask!(sure = elicit::<Yes>(format!("Sure of {n}?"))).ok().is_some_and(|y| y.yes);
            mrtr_tests::straight::note(run, format!("sure {sure}"));
            out.push(format!("{sure}{}", run.is_empty()));
        }
        if let Some(run) = run.get(0..) {
            let count = ask!(count = elicit::<Num>("How many?")).ok().map_or(0, |c| c.num);
            mrtr_tests::straight::note(run, format!("count {count}"));
            out.push(format!("{count}"));
        }
        for i in 0..n % 3 + 1 {
            let run = run.as_str();
            let more = ask!(more = elicit::<Yes>(format!("More {i}?"))).ok().is_some_and(|y| y.yes);
            mrtr_tests::straight::note(run, format!("more {i} {more}"));
            if !more {
                break;
            }
        }
        let last = ask!(last = elicit::<Text>("Last?")).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
        mrtr_tests::straight::note(&run, "done");
        Ok(format!("{out:?} {n} {last}"))
    }

    // A plan sampled from the model, split into steps made again from it and walked by a
    // borrowed loop, with items copied out of the steps (`first().copied()`) held to the end.
    steps_of_a_sampled_plan(args) => {
        let plan = ask!(plan = mrtr::sample(format!("Plan {}", args.n)).max_tokens(50)).text;
        let steps: Vec<&str> = plan.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let first = steps.first().copied().unwrap_or("none");
        let longest = steps.iter().max_by_key(|s| s.len()).copied();
        let mut done = Vec::new();
        for (i, step) in steps.iter().enumerate() {
            let go = ask!(go = elicit::<Yes>(format!("Run {i}: {step}?"))).ok().is_some_and(|y| y.yes);
            if !go {
                break;
            }
            note!(args, "ran {step}");
            done.push(format!("{i}{step}"));
        }
        let last = ask!(last = elicit::<Text>(format!("Last after {first}?"))).accepted().map_or_else(|_| "-".to_owned(), |t| t.text);
        Ok(format!("{done:?} {first} {longest:?} {} {last}", steps.len()))
    }

    // Owned values and copies put into collections an ask outlives, by the ways that put a
    // borrow there too: `extend`, a typed collection, a place inside one, an assignment.
    owned_puts_into_collections_held_across_asks(args) => {
        let text = format!("a{},b, c", args.n);
        let items = vec![format!("p{}", args.n), "qq".to_owned(), "r".to_owned()];
        let lens: Vec<usize> = items.iter().map(|item| item.len()).collect();
        let mut names: Vec<String> = Vec::new();
        let mut labels: Vec<&'static str> = Vec::new();
        let mut all_lens = Vec::new();
        let mut slots = vec![0; 2];
        let mut groups = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {item}?"))).ok().is_some_and(|y| y.yes);
            if keep {
                names.push(item.clone());
                names.extend(text.split(',').map(str::to_owned).filter(|w| w.len() == item.len()));
                labels.push("kept");
                all_lens.extend(&lens);
                slots[i % 2] = item.len();
                groups.entry(item.len()).or_insert_with(Vec::new).push(item.to_uppercase());
            } else {
                labels.push("left");
                slots[i % 2] += 10;
            }
        }
        let n = ask!(n = elicit::<Num>("How many more?")).ok().map_or(0, |n| n.num);
        all_lens.extend(std::iter::repeat_n(n as usize, 2));
        Ok(format!("{names:?} {labels:?} {all_lens:?} {slots:?} {groups:?}"))
    }

    // A local moved in an arm, given anew there, then walked by a loop over borrowed items
    // that asks, and named nowhere after the `match` (seed 1219): the loop reads the arm's new
    // binding, so the moved one is not saved at its asks.
    a_borrowed_loop_over_a_local_given_anew_in_an_arm(args) => {
        let mut list = vec![args.n, 2];
        let mut out = Vec::new();
        match list.first() {
            Some(&head) => {
                let summed = sum_with(list, 1);
                list = vec![head + 1, 3];
                for &x in list.iter().rev() {
                    let m = ask!(m = elicit::<Num>(format!("m {x} {summed}?"))).ok().map_or(0, |n| n.num);
                    out.push(format!("{x}+{m}"));
                }
                list.push(4);
                note!(args, "{list:?}");
            }
            None => out.push("none".to_owned()),
        }
        Ok(out.join(","))
    }

    // A field of a loop's item moved and given back by the statements before a local that an
    // `if let` whose branch asks takes apart, and read by that local's `let` (seed 403).
    a_field_moved_and_given_back_before_a_matched_local(args) => {
        let mut out = Vec::new();
        for mut memo in vec![Memo { title: format!("t{}", args.n), note: None }, Memo { title: "u".to_owned(), note: None }] {
            let kept = ask!(keep = elicit::<Yes>("Keep?")).ok().is_some_and(|y| y.yes);
            let _ = consume(memo.title);
            memo.title = "fresh".to_owned();
            let long = kept.then(|| memo.title.clone());
            let title = if let Some(title) = long { title } else { ask!(title = elicit::<Text>("Title?")).accepted().map_err(refuse)?.text };
            out.push(format!("{title} {kept}"));
        }
        Ok(format!("{out:?}"))
    }

    // A field moved by a method of `Option`, `Result` or an iterator that takes it by value,
    // before an ask that saves the local: cloned there.
    fields_moved_by_methods_that_take_them_by_value(args) => {
        let memo = Memo { title: format!("t{}", args.n), note: (args.n > 1).then(|| format!("n{}", args.n)) };
        let long = memo.note.is_some_and(|n| n.len() > 1);
        let held = (Some(format!("s{}", args.n)), 0..args.n, Ok::<String, String>("r".to_owned()), format!("h{}", args.n));
        let kept = held.0.filter(|s| s.ends_with('2')).map_or(0, |s| s.len());
        let total: u32 = held.1.rev().sum();
        let fine = held.2.is_ok_and(|r| !r.is_empty());
        note!(args, "{long} {kept} {total} {fine}");
        let more = ask!(more = elicit::<Num>(format!("More for {}?", memo.title))).accepted().map_err(refuse)?.num;
        Ok(format!("{} {long} {kept} {total} {fine} {more} {}", memo.title, held.3))
    }

    // A field moved out of a `for` loop's item, a `match` arm's binding or an `if let`'s,
    // before an ask in the body, whose other fields are read after it.
    fields_moved_out_of_loop_items_and_arm_bindings(args) => {
        let people = vec![Person { name: "ann".to_owned(), age: 30 }, Person { name: format!("b{}", args.n), age: args.n }];
        let mut out = Vec::new();
        for person in people.clone() {
            let name = person.name;
            let keep = ask!(keep = elicit::<Yes>(format!("Keep {name}?"))).ok().is_some_and(|y| y.yes);
            if keep {
                out.push(format!("{name}:{}", person.age));
            }
        }
        match people.into_iter().last() {
            Some(last) => {
                let name = last.name;
                let more = ask!(more = elicit::<Num>(format!("More for {name}?"))).ok().map_or(0, |n| n.num);
                out.push(format!("{name}+{more}@{}", last.age));
            }
            None => {}
        }
        let memo = (args.n > 0).then(|| Memo { title: format!("t{}", args.n), note: Some("n".to_owned()) });
        if let Some(memo) = memo {
            let title = memo.title;
            let text = ask!(text = elicit::<Text>(format!("Text for {title}?"))).ok().map(|t| t.text);
            out.push(format!("{title} {text:?} {:?}", memo.note));
        }
        Ok(format!("{out:?}"))
    }

    // A field moved out, then given a new value by a statement of the block, by an answer or
    // after an ask, or by each branch of an `if`: the local is whole again after, and read whole.
    a_field_moved_then_given_a_new_value(args) => {
        let mut memo = Memo { title: format!("t{}", args.n), note: None };
        let old = memo.title;
        note!(args, "old {old}");
        memo.title = ask!(title = elicit::<Text>(format!("Replace {old}?"))).ok().map_or("kept".to_owned(), |t| t.text);
        let mut person = Person { name: format!("p{}", args.n), age: args.n };
        let was = consume(person.name);
        let more = ask!(more = elicit::<Num>(format!("More after {}?", person.age))).accepted().map_err(refuse)?.num;
        person.name = format!("{was}+{more}");
        let mut pair = (format!("x{}", args.n), args.n);
        let gone = consume(pair.0);
        if args.n > 1 {
            pair.0 = ask!(again = elicit::<Text>("Again?")).ok().map_or("-".to_owned(), |t| t.text);
            note!(args, "again {}", pair.0);
        } else {
            pair.0 = format!("g{gone}");
        }
        Ok(format!("{memo:?} {person:?} {old} {pair:?}"))
    }

    // A field moved out, then the local written only by the statement that asks, which goes on
    // after the answer comes: the local is saved there, so the moved field is cloned.
    a_local_written_only_by_the_asking_statement_after_a_field_moved(args) => {
        let mut memo = Memo { title: format!("t{}", args.n), note: Some("n".to_owned()) };
        let old = consume(memo.note.unwrap_or_default());
        memo.title = ask!(title = elicit::<Text>("Title?")).ok().map_or("-".to_owned(), |t| t.text);
        let mut tally = (format!("k{}", args.n), 0i64);
        let first = tally.0;
        tally.1 ^= ask!(more = elicit::<Num>(format!("More after {first}?"))).ok().map_or(0, |n| n.num);
        let mut bag = (format!("b{}", args.n), vec![1i64]);
        let gone = consume(bag.0);
        bag.1.push(ask!(last = elicit::<Num>(format!("Last after {gone}?"))).ok().map_or(0, |n| n.num));
        note!(args, "{old} {first} {gone}");
        Ok(format!("{old} {first} {gone}"))
    }

    // A field taken apart by an `if let`, a `match` or a `let .. else` that binds by value,
    // before an ask that saves the local, whose other fields are read after: a clone is matched.
    fields_taken_apart_by_patterns_before_an_ask(args) => {
        let memo = Memo { title: format!("t{}", args.n), note: (args.n % 2 == 0).then(|| format!("n{}", args.n)) };
        let held = (Phase::Named(format!("p{}", args.n)), args.n, Some(format!("s{}", args.n)));
        if let Some(note) = memo.note {
            note!(args, "note {note}");
        }
        let named = match held.0 {
            Phase::Named(name) => name,
            Phase::Start => "start".to_owned(),
            Phase::Done(n) => n.to_string(),
        };
        let Some(second) = held.2 else { return Err("none".to_owned()) };
        let more = ask!(more = elicit::<Num>(format!("More for {named}?"))).accepted().map_err(refuse)?.num;
        Ok(format!("{} {} {named} {second} {more}", memo.title, held.1))
    }

    // Fields moved in a branch, by a call, by a consuming method and down a nested path, with
    // asks on other paths and in loops; the other fields are read after, in place too.
    fields_moved_in_branches_calls_and_loops_then_the_others_read(args) => {
        let triple = (format!("a{}", args.n), vec![1u32, args.n], Person { name: "in".to_owned(), age: 7 });
        let mut tagged = Tagged { tag: format!("t{}", args.n), value: vec![i64::from(args.n), 2] };
        let mut seen = Vec::new();
        if args.n > 1 {
            seen.push(consume(triple.0) as i64);
        } else {
            let first = ask!(first = elicit::<Num>("First?")).accepted().map_err(refuse)?.num;
            seen.push(first);
        }
        let total = sum_with(triple.1, 3);
        for i in 0..args.n {
            let step = ask!(step = elicit::<Num>(format!("Step {i} of {}?", triple.2.age))).ok().map_or(0, |n| n.num);
            tagged.value.push(step);
        }
        let inner = triple.2.name.into_bytes().len();
        let go = ask!(go = elicit::<Yes>(format!("Go {inner}?"))).ok().is_some_and(|y| y.yes);
        let moved_tag = tagged.tag;
        if go {
            let last = ask!(last = elicit::<Num>("Last?")).accepted().map_err(refuse)?.num;
            tagged.value.push(last);
        }
        Ok(format!("{seen:?} {total} {moved_tag} {:?} {}", tagged.value, triple.2.age))
    }
}

/// The scripts each body is run with.
fn cases(name: &str) -> Vec<Run> {
    let text = |t: &str| accept(json!({"text": t}));
    let num = |n: i64| accept(json!({"num": n}));
    let yes = |y: bool| accept(json!({"yes": y}));
    let pick = |c: &str| accept(json!({"color": c}));
    let decline = json!({"action": "decline"});
    let cancel = json!({"action": "cancel"});
    let run = |n: u32, answers: Vec<Value>| Run { answers, n };
    match name {
        "rebinds_the_local_it_unwraps_while_asking" => vec![
            run(5, vec![num(2)]),
            run(0, vec![text("a"), text("b"), text("c")]),
            run(3, vec![text("x")]),
            run(6, vec![text("y"), num(4)]),
            run(2, vec![decline.clone()]),
        ],
        "cfg_on_statements_around_an_ask" => vec![
            run(1, vec![yes(true), yes(true), num(2)]),
            run(2, vec![yes(false), decline.clone(), decline.clone()]),
        ],
        "holds_rmcp_model_types_and_json_values" => vec![
            run(0, vec![num(3), yes(true)]),
            run(4, vec![num(1), decline.clone()]),
            run(2, vec![decline.clone()]),
        ],
        "ref_mut_bindings_in_arms_that_ask" => vec![
            run(0, vec![]),
            run(1, vec![num(3), yes(true), num(0), num(5)]),
            run(2, vec![num(4), decline.clone(), num(1)]),
            run(2, vec![decline.clone()]),
        ],
        "match_on_a_local_enum_without_serde" => vec![
            run(0, vec![]),
            run(1, vec![yes(true)]),
            run(2, vec![text("x")]),
            run(3, vec![text("y"), yes(false)]),
            run(3, vec![decline.clone()]),
        ],
        "closure_helper_across_asks" => vec![
            run(1, vec![text("a"), text("b")]),
            run(2, vec![decline.clone()]),
            run(3, vec![text("a"), cancel.clone()]),
        ],
        "holds_every_answer_type" => {
            let sampled = json!({
                "role": "assistant",
                "content": {"type": "text", "text": "hi"},
                "model": "m1",
            });
            let roots = json!({"roots": [{"uri": "file:///a"}, {"uri": "file:///b", "name": "b"}]});
            let page = json!({"action": "accept"});
            vec![
                run(
                    1,
                    vec![
                        text("t"),
                        page.clone(),
                        sampled.clone(),
                        roots.clone(),
                        yes(true),
                    ],
                ),
                run(
                    1,
                    vec![
                        decline.clone(),
                        cancel.clone(),
                        sampled,
                        roots,
                        cancel.clone(),
                    ],
                ),
            ]
        }
        "scrutinee_moved_by_if_let" => vec![run(1, vec![yes(true)])],
        "moved_in_nested_block" => vec![run(1, vec![yes(true)])],
        "vec_moved_into_for_in_branch" => vec![run(1, vec![yes(true), yes(true)])],
        "arm_binding_moved" => vec![run(1, vec![yes(true)])],
        "dead_reference_arm_binding" => vec![run(1, vec![yes(true)])],
        "same_name_closure_param" => vec![run(1, vec![yes(true)])],
        "field_name_in_macro" => vec![run(1, vec![yes(true)])],
        "format_width" => vec![run(1, vec![text("ab")])],
        "a_let_without_a_value_given_one_in_branches" => vec![
            run(0, vec![]),
            run(1, vec![yes(true)]),
            run(2, vec![text("b"), yes(false), decline.clone()]),
            run(3, vec![text("c"), num(4), yes(true), text("t")]),
            run(3, vec![text("c"), num(-4), yes(false)]),
            run(5, vec![text("e"), yes(true), text("u")]),
            run(3, vec![text("c"), decline.clone()]),
            run(4, vec![cancel.clone()]),
        ],
        "an_endless_iterator_that_only_starts_the_task" => vec![
            run(1, vec![num(5), yes(true)]),
            run(1, vec![num(-3), yes(false)]),
            run(1, vec![decline.clone()]),
        ],
        "what_cannot_be_saved_lives_across_the_start_of_the_task" => vec![
            run(1, vec![text("a"), text("b")]),
            run(2, vec![text("a"), decline.clone()]),
            run(3, vec![cancel.clone()]),
        ],
        "a_compound_assignment_to_a_string_element" => vec![
            run(1, vec![text("a"), num(5), text("z"), text(" t ")]),
            run(2, vec![text("b"), num(-1), decline.clone(), text("u")]),
            run(2, vec![text("b"), num(-1), text("w"), cancel.clone()]),
            run(3, vec![decline.clone()]),
        ],
        "a_let_without_a_value_scoped_to_its_branches" => vec![
            run(0, vec![yes(true)]),
            run(1, vec![yes(false)]),
            run(2, vec![text("ab"), yes(true)]),
            run(3, vec![text("abc"), num(3), yes(true)]),
            run(3, vec![text("abc"), decline.clone()]),
        ],
        "a_value_that_starts_with_a_block" => {
            vec![run(0, vec![text("a")]), run(30, vec![decline.clone()])]
        }
        "straight_line" => vec![
            run(1, vec![text("a"), num(21)]),
            run(1, vec![decline.clone()]),
        ],
        "if_else_in_a_loop" => vec![
            run(0, vec![]),
            run(3, vec![num(1), text("x"), num(5)]),
            run(4, vec![num(2), decline.clone(), num(3), text("y")]),
            run(2, vec![decline.clone()]),
        ],
        "match_on_an_answer" => vec![
            run(0, vec![pick("red"), yes(true)]),
            run(0, vec![pick("blue")]),
            run(0, vec![decline.clone()]),
        ],
        "early_returns" => vec![
            run(0, vec![]),
            run(1, vec![num(-1)]),
            run(1, vec![num(50), num(60)]),
            run(1, vec![num(1), num(2)]),
        ],
        "await_and_try_between" => vec![
            run(0, vec![text("3"), text("x")]),
            run(0, vec![text("oops")]),
            run(0, vec![text(" 2"), text("8")]),
            run(0, vec![text("2"), cancel.clone()]),
        ],
        "else_if_chain" => vec![
            run(0, vec![text("z"), text("t")]),
            run(1, vec![num(7), text("t")]),
            run(5, vec![yes(true), text("t")]),
            run(5, vec![yes(false), text("o"), decline.clone()]),
        ],
        "ask_in_if_condition" => vec![
            run(0, vec![yes(true), pick("green"), yes(false)]),
            run(0, vec![yes(false), yes(true)]),
            run(0, vec![decline.clone(), decline.clone()]),
            run(0, vec![yes(true), decline.clone()]),
        ],
        "if_let_bindings" => vec![
            run(2, vec![num(3), yes(true)]),
            run(0, vec![text("f"), yes(false)]),
            run(1, vec![decline.clone()]),
        ],
        "if_let_else_if_let" => vec![
            run(2, vec![text("a")]),
            run(3, vec![yes(true)]),
            run(1, vec![]),
            run(5, vec![yes(false)]),
        ],
        "match_tuple_guard" => vec![
            run(3, vec![yes(true)]),
            run(4, vec![text("e"), yes(false)]),
            run(1, vec![num(5), yes(true)]),
            run(5, vec![decline.clone()]),
        ],
        "match_struct_and_enum" => vec![
            run(0, vec![]),
            run(1, vec![num(2), text("m")]),
            run(3, vec![text("cm")]),
            run(4, vec![yes(true), text("m")]),
        ],
        "match_slice_patterns" => vec![
            run(0, vec![text("e")]),
            run(1, vec![num(3), decline.clone()]),
            run(4, vec![yes(true), text("e")]),
            run(2, vec![text("t"), text("e")]),
        ],
        "loop_break_value" => vec![
            run(2, vec![num(2), yes(true)]),
            run(2, vec![num(1), num(3), num(2), yes(false)]),
            run(9, vec![num(1), num(1), num(1), yes(true)]),
            run(1, vec![num(0), decline.clone()]),
        ],
        "labeled_loops" => vec![
            run(1, vec![num(1), num(2), num(3)]),
            run(2, vec![num(0), num(5), num(0)]),
            run(3, vec![num(1), num(-1)]),
            run(2, vec![num(4), decline.clone()]),
        ],
        "labeled_break_value_from_while" => vec![
            run(1, vec![num(1), num(2)]),
            run(2, vec![num(1), num(3), num(7)]),
            run(0, vec![]),
            run(2, vec![num(3), decline.clone()]),
        ],
        "while_with_asks" => vec![
            run(0, vec![yes(false)]),
            run(1, vec![yes(true), num(2), yes(true), num(3), yes(false)]),
            run(0, vec![yes(true), decline.clone()]),
            run(4, vec![yes(true), num(-5), decline.clone()]),
        ],
        "while_let_pop" => vec![
            run(0, vec![]),
            run(2, vec![yes(true), yes(false)]),
            run(3, vec![yes(true), decline.clone(), yes(true)]),
        ],
        "while_let_ask_in_condition" => vec![
            run(0, vec![num(0)]),
            run(
                0,
                vec![num(2), text(" a "), num(3), text("a"), decline.clone()],
            ),
            run(0, vec![num(1), decline.clone()]),
        ],
        "for_over_vec" => vec![
            run(0, vec![]),
            run(2, vec![text("hi"), text("yo")]),
            run(5, vec![text("a"), text("b"), text("c")]),
            run(3, vec![decline.clone()]),
        ],
        "for_range_mutation" => vec![
            run(0, vec![]),
            run(3, vec![pick("red"), pick("blue"), pick("red")]),
            run(2, vec![pick("green"), decline.clone()]),
        ],
        "for_iter_cloned_enumerate" => vec![
            run(1, vec![num(1), num(2)]),
            run(9, vec![num(1), num(2), num(3)]),
            run(0, vec![decline.clone()]),
        ],
        "for_filtered_tuples" => vec![
            run(4, vec![num(1), num(2)]),
            run(10, vec![]),
            run(0, vec![num(1), decline.clone()]),
        ],
        "ask_in_match_in_for_in_if" => vec![
            run(0, vec![text("because")]),
            run(3, vec![text("a"), yes(true)]),
            run(4, vec![text("a"), yes(false), text("b")]),
            run(1, vec![decline.clone()]),
        ],
        "let_else" => vec![
            run(0, vec![text("ann:30"), yes(true)]),
            run(0, vec![text("nocolon")]),
            run(0, vec![text("bob:x")]),
            run(0, vec![text("cy:4"), decline.clone()]),
        ],
        "let_else_in_loop" => vec![
            run(3, vec![num(1), decline.clone(), num(3)]),
            run(3, vec![num(1000)]),
            run(0, vec![]),
        ],
        "destructuring_lets" => vec![
            run(1, vec![num(1), num(2)]),
            run(2, vec![decline.clone()]),
            run(0, vec![num(5), decline.clone()]),
        ],
        "shadowing_across_asks" => vec![
            run(0, vec![text(" ada "), text("Eve"), num(2)]),
            run(0, vec![text("bo"), decline.clone(), num(1)]),
            run(0, vec![text("x"), cancel.clone(), decline.clone()]),
        ],
        "shadowing_in_loop" => vec![
            run(2, vec![text("A"), yes(true), text("b "), yes(false)]),
            run(5, vec![text("Stop")]),
            run(3, vec![text("q"), decline.clone(), text("stop")]),
        ],
        "collections_inferred" => vec![
            run(0, vec![text("ann"), num(30), text("lee")]),
            run(1, vec![text("bo"), num(3), decline.clone()]),
            run(2, vec![decline.clone()]),
        ],
        "moved_before_ask" => vec![
            run(1, vec![num(1), text("b")]),
            run(2, vec![num(2), decline.clone()]),
        ],
        "assignment_and_argument_asks" => vec![
            run(1, vec![num(5), pick("red"), text("r"), num(2)]),
            run(
                2,
                vec![num(1), decline.clone(), decline.clone(), decline.clone()],
            ),
            run(0, vec![decline.clone()]),
        ],
        "decline_and_cancel" => vec![
            run(0, vec![cancel.clone()]),
            run(0, vec![text("a"), decline.clone(), yes(true)]),
            run(0, vec![text("a"), cancel.clone()]),
            run(0, vec![text("a"), num(3), decline.clone()]),
        ],
        "for_over_btreemap" => vec![
            run(2, vec![num(1), num(2)]),
            run(0, vec![num(0), decline.clone()]),
        ],
        "loop_in_match_in_while" => vec![
            run(4, vec![pick("red"), num(0), num(2), pick("blue")]),
            run(2, vec![decline.clone()]),
            run(1, vec![pick("red"), decline.clone()]),
            run(0, vec![]),
        ],
        "return_inside_for" => vec![
            run(2, vec![num(1), num(2)]),
            run(9, vec![num(1), num(2), num(3), num(4)]),
            run(0, vec![decline.clone()]),
        ],
        "for_binding_moved" => vec![
            run(1, vec![num(1), num(2), yes(true), decline.clone()]),
            run(0, vec![num(1), decline.clone()]),
        ],
        "statement_asks_and_tails" => vec![
            run(1, vec![yes(true), text("i"), num(3), text("e")]),
            run(2, vec![decline.clone(), decline.clone(), num(3), text("l")]),
        ],
        "nested_match_same_names" => vec![
            run(1, vec![num(2), text("b")]),
            run(1, vec![num(-1)]),
            run(0, vec![]),
        ],
        "arm_mut_at_or" => vec![
            run(0, vec![num(1)]),
            run(5, vec![num(1)]),
            run(2, vec![num(3)]),
            run(1, vec![text("abc")]),
        ],
        "for_over_asked_words" => vec![
            run(0, vec![text("a b"), num(2), num(1)]),
            run(1, vec![text(""), text("e")]),
            run(0, vec![decline.clone()]),
        ],
        "let_else_asks_in_else" => vec![run(0, vec![text("w")]), run(2, vec![num(1)])],
        "elicited_held" => vec![
            run(0, vec![pick("red"), pick("blue")]),
            run(0, vec![decline.clone(), pick("blue")]),
            run(0, vec![cancel.clone(), decline.clone()]),
        ],
        "continue_to_while_cond" => vec![
            run(
                1,
                vec![yes(true), num(0), yes(true), num(1), num(2), yes(false)],
            ),
            run(0, vec![decline.clone()]),
        ],
        "labeled_block" => vec![run(2, vec![num(2)]), run(2, vec![num(-2), num(5)])],
        "shadow_outer_in_loop" => vec![
            run(1, vec![text("a"), yes(true), text("b"), decline.clone()]),
            run(2, vec![decline.clone()]),
        ],
        "deep_nesting" => vec![
            run(1, vec![yes(true)]),
            run(2, vec![yes(false), num(-1), num(3), num(0)]),
            run(2, vec![yes(true), decline.clone()]),
        ],
        "ask_positions" => vec![
            run(
                1,
                vec![text("a"), num(2), num(3), num(4), num(5), yes(true)],
            ),
            run(0, vec![text("a"), decline.clone(), num(3), decline.clone()]),
        ],
        "returns_inside_ask_arms" => vec![
            run(1, vec![text("")]),
            run(1, vec![text("abcdef"), text("u")]),
            run(1, vec![text("ab"), num(1)]),
            run(0, vec![decline.clone()]),
        ],
        "discarded_answers" => vec![
            run(
                1,
                vec![
                    yes(true),
                    decline.clone(),
                    yes(true),
                    cancel.clone(),
                    yes(true),
                ],
            ),
            run(0, vec![decline.clone(), yes(true), yes(true), yes(false)]),
        ],
        "patterns_shadow_outer" => vec![
            run(1, vec![text("x"), text("y"), num(2), yes(true)]),
            run(0, vec![text("x"), text("y"), decline.clone()]),
            run(0, vec![text("x"), decline.clone()]),
        ],
        "while_condition_effects" => vec![
            run(0, vec![]),
            run(2, vec![num(1), num(2)]),
            run(3, vec![num(1), decline.clone()]),
        ],
        "tail_match_and_nested_for" => vec![
            run(0, vec![yes(true), yes(false), yes(true), text("z")]),
            run(9, vec![yes(true), yes(false), yes(true)]),
            run(2, vec![decline.clone(), yes(false), text("o")]),
        ],
        "closure_made_after_a_change_in_the_asking_statement" => vec![
            run(1, vec![text("ada")]),
            run(1, vec![decline.clone()]),
            run(0, vec![]),
        ],
        "closure_through_a_closure" => vec![
            run(3, vec![yes(true)]),
            run(2, vec![yes(false)]),
            run(1, vec![decline.clone()]),
        ],
        "open_range_until_an_answer_fits" => vec![
            run(1, vec![num(11)]),
            run(3, vec![num(1), num(2), num(30)]),
            run(0, vec![num(1), decline.clone()]),
        ],
        "moved_name_in_macros_after_the_ask" => {
            vec![run(1, vec![yes(true)]), run(2, vec![decline.clone()])]
        }
        "items_in_the_body" => vec![
            run(1, vec![num(2), num(3)]),
            run(4, vec![num(5), decline.clone()]),
        ],
        "cells_held_across_asks" => {
            vec![run(2, vec![num(4), num(5)]), run(1, vec![decline.clone()])]
        }
        "changed_in_a_block_then_consumed_by_the_asking_statement"
        | "changed_by_the_scrutinee_then_consumed_in_an_arm" => {
            vec![run(2, vec![num(10)]), run(1, vec![decline.clone()])]
        }
        "changed_in_a_block_then_borrowed_by_the_asking_statement" => vec![
            run(2, vec![num(10), num(3)]),
            run(0, vec![]),
            run(1, vec![num(1), decline.clone()]),
        ],
        "an_arm_moves_what_another_asks_about" => vec![
            run(0, vec![num(6)]),
            run(2, vec![num(4), num(5), num(6)]),
            run(1, vec![num(4), num(5)]),
            run(3, vec![num(4), decline.clone()]),
        ],
        "let_else_asks_after_a_call" => vec![
            run(2, vec![text("not a number")]),
            run(0, vec![decline.clone()]),
        ],
        "compound_assignment_to_a_place" => vec![
            run(2, vec![num(1), num(2), num(3), num(4)]),
            run(
                4,
                vec![
                    num(1),
                    num(2),
                    num(3),
                    num(4),
                    num(5),
                    num(6),
                    num(7),
                    num(8),
                ],
            ),
            run(2, vec![num(1), decline.clone()]),
        ],
        "break_with_an_answer" => vec![
            run(0, vec![num(7)]),
            run(2, vec![num(3)]),
            run(1, vec![decline.clone()]),
        ],
        "closure_declared_beside_a_moved_local" | "closure_called_beside_a_moved_local" => {
            vec![run(3, vec![num(5)]), run(2, vec![decline.clone()])]
        }
        "a_pattern_takes_the_name_of_what_it_unwraps" => vec![
            run(2, vec![num(1), num(2), num(3), num(4), num(5), num(6)]),
            run(3, vec![num(1), num(3), decline.clone(), num(5), num(6)]),
            run(0, vec![num(3), num(4), num(5), num(6), num(7)]),
            run(4, vec![decline.clone()]),
        ],
        "a_pattern_takes_the_name_of_a_local_that_stays" => vec![
            run(2, vec![num(1), num(2), num(3), num(4)]),
            run(1, vec![num(5), num(6), num(8)]),
            run(0, vec![num(7), decline.clone()]),
            run(3, vec![num(1), num(2), decline.clone()]),
        ],
        "an_else_moves_what_the_asking_branch_reads" => {
            vec![
                run(2, vec![num(3)]),
                run(0, vec![]),
                run(1, vec![decline.clone()]),
            ]
        }
        "changed_then_read_before_an_ask_in_a_branch" => vec![
            run(2, vec![num(5), num(6), num(7)]),
            run(1, vec![num(4)]),
            run(0, vec![]),
            run(3, vec![decline.clone(), num(1), num(2)]),
        ],
        "a_later_pattern_reuses_a_dead_name" => {
            vec![
                run(3, vec![num(4)]),
                run(0, vec![num(1)]),
                run(2, vec![decline.clone()]),
            ]
        }
        "an_arm_over_an_answer_moves_what_another_asks_about" => vec![
            run(1, vec![num(9), num(2)]),
            run(2, vec![num(3)]),
            run(3, vec![decline.clone()]),
            run(4, vec![num(8), decline.clone()]),
        ],
        "owned_strings_loop_returns_midway" => vec![
            run(0, vec![]),
            run(3, vec![text("a"), text("stop")]),
            run(2, vec![text("a"), text("b")]),
            run(2, vec![decline.clone()]),
        ],
        "parse_errors_between_asks" => vec![
            run(1, vec![text(" 2 "), text("5"), text("7")]),
            run(1, vec![text("x")]),
            run(1, vec![text("3"), text("1"), text("y")]),
            run(0, vec![text("0")]),
            run(1, vec![text("2"), cancel.clone()]),
        ],
        "shadowing_that_changes_type" => vec![
            run(2, vec![num(40), text("!"), yes(true)]),
            run(1, vec![num(-1), decline.clone(), cancel.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "answer_enum_arms_continue_or_break_with_value" => vec![
            run(0, vec![pick("blue")]),
            run(
                2,
                vec![
                    pick("red"),
                    text("warm"),
                    pick("green"),
                    pick("red"),
                    text("x"),
                ],
            ),
            run(3, vec![pick("green"), decline.clone(), pick("blue")]),
            run(1, vec![pick("red"), decline.clone()]),
        ],
        "nested_for_with_labeled_continue" => vec![
            run(0, vec![]),
            run(2, vec![num(1), num(-1), num(2), num(3), num(4)]),
            run(1, vec![num(1), decline.clone()]),
        ],
        "while_let_stack_that_grows" => vec![
            run(0, vec![num(0)]),
            run(1, vec![num(2), num(1), num(5), num(0)]),
            run(2, vec![num(1), num(1), decline.clone()]),
        ],
        "accumulates_into_map_string_tuple_and_struct" => vec![
            run(0, vec![num(3)]),
            run(3, vec![text("ab"), text(""), text("xyz"), num(9)]),
            run(2, vec![text("a"), decline.clone()]),
        ],
        "option_and_result_combinators_around_asks" => vec![
            run(2, vec![text(""), yes(true)]),
            run(4, vec![text("5"), yes(false)]),
            run(1, vec![text("x"), decline.clone()]),
            run(1, vec![decline.clone(), yes(true)]),
        ],
        "if_let_on_a_reference_asks_in_both_branches" => vec![
            run(2, vec![yes(true)]),
            run(4, vec![yes(false)]),
            run(1, vec![text("f")]),
            run(3, vec![decline.clone()]),
        ],
        "lets_without_values_set_in_branches_one_asking" => vec![
            run(3, vec![text("ann")]),
            run(1, vec![text("yo"), text("bo")]),
            run(1, vec![decline.clone()]),
        ],
        "references_taken_after_an_ask" => vec![
            run(1, vec![num(2), text("t")]),
            run(12, vec![num(-1), decline.clone()]),
        ],
        "small_and_wide_number_types" => vec![
            run(1, vec![num(3), num(-7)]),
            run(9, vec![num(300), num(0)]),
            run(0, vec![num(1), decline.clone()]),
        ],
        "unit_values_held" => vec![
            run(3, vec![yes(true), decline.clone()]),
            run(0, vec![decline.clone(), yes(false)]),
            run(2, vec![cancel.clone(), cancel.clone()]),
        ],
        "nested_vec_compound_assignment" => vec![
            run(1, vec![num(1), num(2)]),
            run(3, vec![num(-1), num(4), num(5), num(6), num(-7)]),
            run(2, vec![num(1), decline.clone()]),
        ],
        "closures_made_after_an_ask" => vec![
            run(2, vec![num(3), num(4)]),
            run(0, vec![num(1), decline.clone()]),
        ],
        "format_specs_with_captured_locals" => vec![
            run(7, vec![text("ab"), num(255)]),
            run(0, vec![text(""), num(-3)]),
            run(1, vec![decline.clone()]),
        ],
        "let_else_asks_then_continues_in_a_loop" => vec![
            run(0, vec![text("none")]),
            run(1, vec![text("why")]),
            run(4, vec![text("f1"), decline.clone(), num(5)]),
            run(3, vec![text("f1"), decline.clone()]),
        ],
        "early_return_from_nested_loops" => vec![
            run(0, vec![]),
            run(2, vec![num(1), num(5)]),
            run(2, vec![num(101), num(1), num(2), num(3)]),
            run(1, vec![num(0), num(0), num(0)]),
            run(1, vec![decline.clone()]),
        ],
        "generic_struct_and_enum_locals" => vec![
            run(1, vec![num(5), yes(true)]),
            run(2, vec![num(5), yes(false)]),
            run(3, vec![num(50), decline.clone()]),
            run(4, vec![num(0), yes(true)]),
            run(4, vec![cancel.clone()]),
        ],
        "compound_assignment_to_a_plain_local" => vec![
            run(0, vec![text("z")]),
            run(3, vec![num(2), num(5), decline.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "ask_as_a_method_argument" => vec![
            run(0, vec![text("a")]),
            run(2, vec![num(1), decline.clone(), text("b")]),
            run(5, vec![num(1), num(2), num(3), cancel.clone()]),
        ],
        "budget_loop_with_continue_and_break" => vec![
            run(0, vec![]),
            run(2, vec![num(5), num(0), num(30)]),
            run(1, vec![num(4), num(6)]),
            run(1, vec![decline.clone()]),
        ],
        "chars_of_an_answer_counted" => vec![
            run(1, vec![text("ab!c!d"), yes(true), yes(true)]),
            run(1, vec![text("ab!c"), yes(false)]),
            run(0, vec![text("h!i!"), yes(true), yes(false)]),
            run(0, vec![text("h!i!"), yes(true), yes(true)]),
            run(0, vec![decline.clone()]),
        ],
        "match_on_a_trimmed_answer" => vec![
            run(1, vec![text(" add "), num(3)]),
            run(1, vec![text("exit")]),
            run(1, vec![text("#c")]),
            run(1, vec![text(" what "), yes(true)]),
            run(1, vec![text("add"), decline.clone()]),
        ],
        "question_mark_on_pieces_of_an_answer" => vec![
            run(1, vec![text("2, 3"), num(4)]),
            run(1, vec![text("23")]),
            run(1, vec![text("x,3")]),
            run(1, vec![text("2,y")]),
            run(1, vec![text("9223372036854775807,2"), num(0)]),
            run(1, vec![text("1,1"), decline.clone()]),
        ],
        "state_machine_enum_in_a_loop" => vec![
            run(1, vec![text("ann"), num(30)]),
            run(0, vec![text(""), text("bo"), num(-1)]),
            run(0, vec![text(""), text("")]),
            run(2, vec![text("cy"), decline.clone()]),
        ],
        "several_questions_in_one_round_in_a_loop" => vec![
            run(0, vec![yes(true)]),
            // A round's answers come in the order of its keys: `age`, then `name`.
            run(
                2,
                vec![
                    num(30),
                    text("ann"),
                    decline.clone(),
                    text("bo"),
                    yes(false),
                ],
            ),
            run(1, vec![num(3), decline.clone()]),
        ],
        "a_block_value_that_asks" => vec![
            run(2, vec![num(5), text("x")]),
            run(0, vec![num(1), decline.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "range_adapters_in_for" => vec![
            run(0, vec![num(1), num(2)]),
            run(2, vec![num(1), num(2), num(3), num(4), num(5)]),
            run(3, vec![num(1), num(2), num(3), num(4), num(5)]),
            run(1, vec![num(1), decline.clone()]),
        ],
        "queue_with_pop_front_and_early_error" => vec![
            run(0, vec![]),
            run(2, vec![yes(true), yes(false), yes(true)]),
            run(2, vec![yes(false), yes(false), yes(true), yes(false)]),
            run(1, vec![decline.clone()]),
        ],
        "else_if_let_asks" => vec![
            run(1, vec![]),
            run(4, vec![num(2)]),
            run(0, vec![]),
            run(2, vec![text("w")]),
            run(5, vec![decline.clone()]),
        ],
        "option_take_and_replace_around_asks" => vec![
            run(0, vec![num(1)]),
            run(2, vec![yes(true), num(2)]),
            run(3, vec![decline.clone(), num(3)]),
            run(3, vec![yes(true), decline.clone()]),
        ],
        "shadowed_loop_variable" => vec![
            run(0, vec![]),
            run(3, vec![num(1), decline.clone(), num(3)]),
        ],
        "answer_cast_then_indexed" => vec![
            run(1, vec![num(4), pick("red")]),
            run(1, vec![num(2), decline.clone()]),
            run(1, vec![cancel.clone()]),
        ],
        "struct_literal_fields_from_an_ask" => vec![
            run(1, vec![num(30), num(2)]),
            run(2, vec![decline.clone(), decline.clone()]),
        ],
        "return_in_a_match_in_a_loop_in_if_let" => vec![
            run(0, vec![]),
            run(
                3,
                vec![pick("blue"), decline.clone(), text("w"), pick("green")],
            ),
            run(3, vec![pick("blue"), pick("red")]),
            run(2, vec![decline.clone(), decline.clone(), cancel.clone()]),
        ],
        "two_bindings_of_one_name_alive_at_an_ask" => vec![
            run(1, vec![num(5)]),
            run(3, vec![num(2), yes(true)]),
            run(2, vec![num(2), decline.clone()]),
            run(2, vec![decline.clone()]),
        ],
        "arm_binding_read_after_the_ask_in_its_statement" => vec![
            run(0, vec![]),
            run(1, vec![text("s")]),
            run(2, vec![decline.clone()]),
        ],
        "destructuring_assignments_between_asks" => vec![
            run(3, vec![num(7), num(1)]),
            run(0, vec![num(-2), num(9)]),
            run(1, vec![num(1), decline.clone()]),
        ],
        "shadowing_a_loop_carried_string_without_changing_it" => vec![
            run(0, vec![]),
            run(2, vec![text("a"), text("b")]),
            run(2, vec![text("a"), decline.clone()]),
        ],
        "compound_assignment_to_fields_and_entries" => vec![
            run(1, vec![num(2), num(3), num(4), text("t")]),
            run(
                2,
                vec![num(2), decline.clone(), decline.clone(), cancel.clone()],
            ),
            run(2, vec![decline.clone()]),
        ],
        "match_on_a_tuple_with_an_answer" => vec![
            run(0, vec![pick("red")]),
            run(3, vec![pick("blue"), text("w")]),
            run(1, vec![pick("green")]),
            run(4, vec![pick("red"), decline.clone()]),
            run(0, vec![cancel.clone()]),
        ],
        "for_over_a_map_clone_that_it_grows" => vec![
            run(0, vec![]),
            run(3, vec![num(1), num(0), num(5)]),
            run(2, vec![num(1), decline.clone()]),
        ],
        "slices_of_an_answer_between_asks" => vec![
            run(1, vec![text("hello"), text("big world")]),
            run(1, vec![text(""), decline.clone()]),
            run(1, vec![text("éa"), text(" ")]),
        ],
        "question_mark_in_a_while_condition" => vec![
            run(0, vec![]),
            run(3, vec![text("2"), text("0")]),
            run(3, vec![text("x")]),
            run(1, vec![decline.clone()]),
        ],
        "lets_without_values_given_together" => vec![
            run(3, vec![text("bo")]),
            run(1, vec![text("yo"), num(5), text("bo")]),
            run(2, vec![text("g"), text("kg"), text("x")]),
            run(4, vec![]),
            run(2, vec![text("g"), decline.clone(), text("x")]),
            run(1, vec![decline.clone()]),
            run(5, vec![num(3), cancel.clone()]),
        ],
        "lets_without_values_given_together_before_a_later_ask" => vec![
            run(0, vec![yes(true)]),
            run(2, vec![yes(false)]),
            run(5, vec![]),
            run(1, vec![decline.clone()]),
        ],
        "one_key_at_two_sites" => vec![
            run(2, vec![yes(true), yes(false), yes(true)]),
            run(1, vec![yes(false), decline.clone()]),
            run(3, vec![decline.clone(), yes(true), cancel.clone()]),
        ],
        "values_at_their_edges" => vec![run(0, vec![yes(true)]), run(2, vec![decline.clone()])],
        "an_answer_passed_to_an_async_fn_and_into_err" => vec![
            run(1, vec![num(6), text("big")]),
            run(1, vec![num(6), decline.clone()]),
            run(1, vec![num(2), text("l")]),
            run(1, vec![num(2), decline.clone(), text("m")]),
            run(1, vec![num(2), cancel.clone(), cancel.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "loop_over_answers_break_continue_or_value" => vec![
            run(1, vec![num(0), num(3), num(0), num(4)]),
            run(
                5,
                vec![num(1), decline.clone(), num(2), decline.clone(), num(-1)],
            ),
            run(5, vec![num(1), num(-3)]),
            run(5, vec![num(1), cancel.clone()]),
        ],
        "a_labeled_block_that_asks_and_breaks" => vec![
            run(0, vec![]),
            run(1, vec![text("")]),
            run(1, vec![text("a"), text("b")]),
            run(1, vec![text("a"), decline.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "for_with_struct_patterns" => vec![
            run(4, vec![num(1), num(2), yes(true)]),
            run(0, vec![num(1), decline.clone()]),
        ],
        "accumulator_taken_then_rebuilt_across_an_ask" => vec![
            run(1, vec![text("a"), text("b"), text("n")]),
            run(2, vec![text("a"), decline.clone()]),
            run(0, vec![text("a"), text("b"), cancel.clone()]),
        ],
        "moved_then_assigned_by_ask" => {
            vec![run(1, vec![text("new")]), run(2, vec![decline.clone()])]
        }
        "moved_each_pass_then_assigned_by_ask" => vec![
            run(1, vec![text("ab"), text("c"), text("d"), text("efg")]),
            run(2, vec![decline.clone()]),
            run(3, vec![text("a"), cancel.clone()]),
            run(1_000_000, vec![]),
        ],
        "moved_then_rebuilt_by_the_statement_after_the_ask" => vec![
            run(1, vec![text("a"), text("b")]),
            run(2, vec![text("a"), decline.clone()]),
        ],
        "moved_and_rebuilt_each_pass_before_an_ask" => vec![
            run(1, vec![text("a"), text("b"), text("c"), num(4), num(5)]),
            run(2, vec![text("a"), text("stop"), num(7), num(8)]),
            run(3, vec![text("a"), decline.clone()]),
        ],
        "given_anew_in_a_branch_then_moved_before_an_ask" => vec![
            run(1, vec![num(2), text("a")]),
            run(2, vec![num(3), text("b"), num(4)]),
            run(3, vec![num(5), text("c"), decline.clone()]),
        ],
        "given_anew_in_a_loop_then_moved_before_an_ask" => vec![
            run(
                1,
                vec![text("a"), num(1), text("b"), num(2), text("c"), num(3)],
            ),
            run(2, vec![text("a"), num(1), decline.clone()]),
        ],
        "given_anew_in_a_loop_then_moved_in_a_branch" => vec![
            run(1, vec![text("ab"), num(1), text("b"), text("cd"), num(3)]),
            run(2, vec![text("a"), text("bc"), decline.clone()]),
        ],
        "given_anew_in_a_loop_then_moved_before_leaving_it" => vec![
            run(1, vec![text("again"), text("a"), num(1)]),
            run(2, vec![text("b"), decline.clone()]),
        ],
        "moved_in_a_loop_before_an_ask_then_leaving_it" => vec![
            run(1, vec![text("again"), text("a"), num(1)]),
            run(2, vec![text("b"), decline.clone()]),
        ],
        "live_at_asks_by_one_path" => vec![
            run(1, vec![num(1), num(2), num(5), num(1), num(1), num(1)]),
            run(2, vec![num(7), num(2), num(2), num(1), num(4), num(4)]),
            run(3, vec![num(1), decline.clone()]),
        ],
        "read_again_on_resume_though_dead_after_the_ask" => {
            vec![run(1, vec![num(1)]), run(2, vec![num(0), num(3)])]
        }
        "moved_then_given_anew_by_each_branch" => vec![
            run(1, vec![text("ab"), text("c"), text("d"), decline.clone()]),
            run(2, vec![text("a"), decline.clone()]),
        ],
        "moved_then_given_anew_by_each_branch_and_read_later" => vec![
            run(1, vec![text("ab"), text("c"), text("a"), text("x")]),
            run(2, vec![text("a"), text("cd"), text("bb"), text("y")]),
            run(3, vec![text("a"), text("")]),
            run(4, vec![text("a"), text("b"), decline.clone()]),
        ],
        "moved_in_a_branch_under_a_condition_that_asks" => vec![
            run(1, vec![num(1), num(5)]),
            run(2, vec![num(0)]),
            run(3, vec![num(1), decline.clone()]),
        ],
        "given_anew_by_each_branch_after_the_last_ask" => vec![
            run(1, vec![text("a"), text("b"), text("cd")]),
            run(2, vec![text("a"), text("b")]),
            run(3, vec![text("a"), decline.clone()]),
        ],
        "moved_then_given_anew_in_a_branch" => vec![
            run(2, vec![text("a"), text("b")]),
            run(3, vec![text("a"), decline.clone()]),
            run(1, vec![]),
        ],
        "assigned_by_asks_that_may_not_overwrite" => vec![
            run(
                1,
                vec![
                    text("a"),
                    text("b"),
                    decline.clone(),
                    text("i"),
                    text("x"),
                    text("stop"),
                ],
            ),
            run(
                2,
                vec![decline.clone(), text("i"), text("x"), text("y"), text("z")],
            ),
            run(3, vec![cancel.clone(), text("i"), text("stop")]),
        ],
        "checkpoints_between_effects_in_a_loop" => vec![
            run(0, vec![]),
            run(3, vec![yes(true)]),
            run(3, vec![yes(false)]),
            run(2, vec![decline.clone()]),
        ],
        "a_checkpoint_and_a_question_in_one_round" => vec![
            run(1, vec![num(2), num(3)]),
            run(0, vec![decline.clone(), num(1)]),
        ],
        "questions_built_by_functions_with_effects" => vec![
            run(0, vec![text("a")]),
            run(2, vec![text("a"), text("b"), decline.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "lets_without_values_given_together_in_a_loop_and_a_block" => vec![
            run(0, vec![num(1)]),
            run(2, vec![text("ab"), num(2)]),
            run(3, vec![text("x"), num(7), num(3)]),
            run(3, vec![text("x"), decline.clone(), cancel.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "while_let_asking_with_continue_and_labeled_break" => vec![
            run(
                5,
                vec![
                    text("a"),
                    text(""),
                    text("b?c"),
                    yes(true),
                    text("d?"),
                    yes(false),
                    decline.clone(),
                ],
            ),
            run(5, vec![text("a"), text("x!y")]),
            run(0, vec![text("a")]),
        ],
        "a_map_insert_whose_key_moves_before_the_ask" => {
            vec![run(2, vec![num(1), decline.clone()]), run(0, vec![])]
        }
        "a_tuple_and_a_struct_whose_first_part_moves_before_the_ask" => vec![
            run(1, vec![num(3), num(40)]),
            run(2, vec![num(1), decline.clone()]),
            run(0, vec![decline.clone()]),
        ],
        "a_counter_from_args_counted_down" => vec![
            run(0, vec![]),
            run(3, vec![num(1), decline.clone(), num(3)]),
        ],
        "a_method_chain_on_an_answer" => vec![
            run(0, vec![text(" Hello World "), text("a b  c"), text("éx")]),
            run(1, vec![text("x"), decline.clone(), cancel.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "an_answer_indexes_a_vec_and_an_array" => vec![
            run(0, vec![num(4), num(7), decline.clone()]),
            run(1, vec![num(-2), num(3), num(1)]),
            run(1, vec![num(1), decline.clone()]),
        ],
        "return_and_labeled_break_values_from_nested_loops" => vec![
            run(0, vec![num(5)]),
            run(1, vec![text("x")]),
            run(1, vec![decline.clone()]),
            run(2, vec![decline.clone()]),
        ],
        "let_else_whose_value_asks_and_whose_else_returns" => vec![
            run(0, vec![text("12"), text("hey")]),
            run(0, vec![text("x")]),
            run(250, vec![text("10"), text("because")]),
            run(0, vec![text("3"), text("")]),
            run(0, vec![text("3"), decline.clone()]),
        ],
        "match_in_for_in_loop_with_labeled_continue" => vec![
            run(0, vec![yes(true), yes(true), yes(true), yes(true)]),
            run(2, vec![yes(true), decline.clone()]),
            run(0, vec![yes(false), yes(true), yes(true)]),
        ],
        "question_mark_on_a_helper_in_nested_blocks" => vec![
            run(1, vec![text("5"), text("6")]),
            run(0, vec![text("x")]),
            run(2, vec![text("1"), decline.clone()]),
        ],
        "early_err_from_a_loop_inside_a_match" => vec![
            run(0, vec![]),
            run(3, vec![num(1), num(2), num(3)]),
            run(3, vec![num(1), num(-1)]),
            run(2, vec![num(1), decline.clone()]),
        ],
        "maps_and_a_queue_of_structs_changed_across_asks" => vec![
            run(2, vec![num(3), num(11), num(1), text("e")]),
            run(0, vec![decline.clone()]),
            run(1, vec![decline.clone(), cancel.clone()]),
        ],
        "combinators_that_read_locals_after_an_ask" => vec![
            run(2, vec![text("abc"), num(3)]),
            run(5, vec![text("abc"), decline.clone()]),
            run(0, vec![decline.clone(), num(2)]),
        ],
        "shadowing_inside_a_loop_across_asks" => vec![
            run(
                2,
                vec![text(" ab "), yes(true), decline.clone(), yes(false)],
            ),
            run(0, vec![]),
        ],
        "if_let_some_on_an_answer_that_asks_in_both_branches" => vec![
            run(0, vec![text("ann"), num(3)]),
            run(0, vec![decline.clone(), pick("red")]),
            run(1, vec![decline.clone(), decline.clone()]),
            run(0, vec![text("bob"), cancel.clone()]),
        ],
        "matches_on_a_held_answer" => vec![
            run(0, vec![pick("red")]),
            run(0, vec![decline.clone(), yes(true)]),
            run(0, vec![pick("blue")]),
            run(1, vec![cancel.clone(), decline.clone()]),
        ],
        "checked_arithmetic_on_answers" => vec![
            run(1, vec![num(1), num(2), num(3), num(10), num(2)]),
            run(250, vec![num(3), num(3)]),
            run(
                0,
                vec![num(1), num(1), num(1), decline.clone(), decline.clone()],
            ),
        ],
        "locals_whose_type_comes_after_the_ask" => vec![
            run(2, vec![text("ab"), text("abc"), num(4)]),
            run(0, vec![decline.clone()]),
        ],
        "a_report_written_with_write_across_asks" => vec![
            run(2, vec![text("x"), decline.clone(), text("end")]),
            run(0, vec![decline.clone()]),
        ],
        "a_held_vec_sorted_and_deduplicated" => vec![
            run(3, vec![num(1), num(5), num(7), num(1)]),
            run(0, vec![decline.clone(), decline.clone()]),
        ],
        "tuples_and_options_of_mixed_types_held" => vec![
            run(1, vec![num(2), pick("green")]),
            run(0, vec![decline.clone()]),
            run(2, vec![num(3), cancel.clone()]),
        ],
        "enums_with_data_held_and_matched_after_asks" => vec![
            run(1, vec![num(2), num(0), yes(true)]),
            run(2, vec![decline.clone(), num(5), decline.clone()]),
        ],
        "a_question_built_from_the_previous_round" => vec![
            run(0, vec![text("a"), text("b"), text("c")]),
            run(1, vec![text("a"), decline.clone()]),
        ],
        "a_for_over_a_range_whose_end_is_an_answer" => vec![
            run(3, vec![num(2), text("a"), decline.clone(), num(2)]),
            run(0, vec![decline.clone(), num(1)]),
        ],
        "while_let_scrutinee_destructures_an_answer" => vec![
            run(1, vec![text("a=1"), text("=x"), text("b="), num(7)]),
            run(5, vec![text("k=v"), decline.clone()]),
            run(0, vec![text("nope")]),
        ],
        "struct_update_and_field_assignments_from_answers" => vec![
            run(1, vec![num(4), text("hi"), num(30)]),
            run(0, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "a_loop_breaks_with_a_tuple_chosen_by_an_answer" => vec![
            run(2, vec![num(1), num(5)]),
            run(0, vec![decline.clone(), decline.clone()]),
            run(0, vec![cancel.clone()]),
        ],
        "match_on_ranges_and_at_bindings_of_an_answer" => vec![
            run(0, vec![num(3), text("kg")]),
            run(0, vec![num(12)]),
            run(1, vec![num(13), yes(true)]),
            run(2, vec![decline.clone()]),
        ],
        "typed_lets_from_answers" => vec![
            run(0, vec![text("abc"), num(3), text("xyz")]),
            run(0, vec![text(""), num(-1)]),
            run(1, vec![decline.clone()]),
        ],
        "an_answer_compared_in_an_if_condition_then_asked_in_else_if" => vec![
            run(2, vec![num(5)]),
            run(2, vec![num(1), yes(true), text("t")]),
            run(2, vec![num(1), decline.clone()]),
        ],
        "a_while_condition_that_asks_then_reads_a_counter" => vec![
            run(1, vec![yes(true), text("a"), yes(true)]),
            run(2, vec![yes(true), decline.clone(), yes(false)]),
        ],
        "raw_identifier_locals_held_across_asks" => vec![
            run(1, vec![text("k"), num(2)]),
            run(0, vec![decline.clone(), decline.clone()]),
        ],
        "a_local_shadows_the_parameter_before_an_ask" => vec![
            run(1, vec![text("a"), num(2)]),
            run(3, vec![decline.clone(), cancel.clone()]),
        ],
        "pushes_into_fields_of_a_held_tuple" => vec![
            run(1, vec![text("a"), num(2), num(3)]),
            run(0, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "a_work_queue_taken_and_drained_by_for_loops" => vec![
            run(
                2,
                vec![yes(true), yes(false), yes(false), yes(true), yes(true)],
            ),
            run(0, vec![decline.clone(), decline.clone()]),
        ],
        "a_tail_loop_that_breaks_with_the_result" => vec![
            run(2, vec![text("1"), text("x"), text("5")]),
            run(0, vec![text("a"), text("b"), text("c")]),
            run(0, vec![decline.clone()]),
        ],
        "a_tail_if_whose_condition_asks" => vec![
            run(1, vec![yes(true), text("x")]),
            run(2, vec![decline.clone()]),
        ],
        "lets_without_values_given_by_match_arm_expressions" => vec![
            run(0, vec![text("long"), num(4), yes(true)]),
            run(0, vec![decline.clone(), decline.clone(), cancel.clone()]),
            run(1, vec![yes(false)]),
            run(2, vec![]),
        ],
        "an_or_pattern_binding_used_after_an_ask" => vec![
            run(2, vec![num(3)]),
            run(3, vec![decline.clone()]),
            run(0, vec![num(9)]),
        ],
        "a_string_shadowed_by_adding_an_answer" => vec![
            run(1, vec![text("a"), text("b"), num(3)]),
            run(0, vec![decline.clone(), text("c"), decline.clone()]),
            run(0, vec![text("a"), decline.clone()]),
        ],
        "closures_over_the_parameter_and_a_local_across_asks" => vec![
            run(1, vec![text("a"), num(5)]),
            run(0, vec![decline.clone(), num(1)]),
        ],
        "a_string_rebuilt_from_itself_and_answers" => vec![
            run(
                2,
                vec![
                    text("a"),
                    text("b"),
                    decline.clone(),
                    yes(true),
                    text("t"),
                    text("p"),
                    text("qr"),
                ],
            ),
            run(
                0,
                vec![decline.clone(), yes(false), decline.clone(), text("y")],
            ),
            run(1, vec![text("a"), text("b"), yes(true), decline.clone()]),
        ],
        "a_vec_consumed_by_a_break_or_return_that_asks" => vec![
            run(1, vec![num(2), num(3), num(4)]),
            run(5, vec![decline.clone(), num(1)]),
            run(0, vec![num(1), decline.clone(), cancel.clone()]),
        ],
        "a_field_moved_before_an_ask_and_the_others_read_after" => vec![
            run(2, vec![num(4), text("x")]),
            run(0, vec![num(1), decline.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "a_field_moved_before_a_loop_that_reads_the_local_before_asking" => vec![
            run(2, vec![num(1), num(2)]),
            run(1, vec![decline.clone()]),
            run(0, vec![]),
        ],
        "a_field_moved_into_a_vec_before_an_ask" => {
            vec![run(2, vec![num(4)]), run(1, vec![decline.clone()])]
        }
        "statements_before_a_matched_local_end_before_its_ask" => vec![
            run(2, vec![num(9)]),
            run(1, vec![num(7), num(3), num(5)]),
            run(3, vec![decline.clone()]),
        ],
        "statements_before_an_asking_if_that_rebuilds_or_returns_a_local" => vec![
            run(1, vec![num(5)]),
            run(3, vec![text("a"), num(2)]),
            run(4, vec![decline.clone(), text("b"), decline.clone()]),
        ],
        "operands_that_compute_before_an_ask_run_once" => vec![
            run(
                2,
                vec![
                    num(1),
                    num(2),
                    num(8),
                    num(30),
                    text("ab"),
                    num(7),
                    text("P2"),
                    yes(true),
                    yes(true),
                    num(5),
                    text("z"),
                ],
            ),
            run(
                1,
                vec![
                    num(1),
                    num(2),
                    num(8),
                    num(30),
                    text("a"),
                    num(7),
                    text("x"),
                    num(3),
                    yes(false),
                    num(5),
                    text("z"),
                ],
            ),
            run(3, vec![num(1), decline.clone(), num(8), num(4), text("")]),
            run(3, vec![num(1), num(2), num(8), decline.clone()]),
        ],
        "asks_inside_format_and_print_arguments" => vec![
            run(2, vec![num(3), num(4), text("c"), text("d")]),
            run(1, vec![decline.clone(), decline.clone()]),
        ],
        "static_strs_held_across_asks" => vec![
            run(
                2,
                vec![
                    num(30),
                    num(170),
                    num(42),
                    yes(false),
                    yes(true),
                    yes(true),
                    yes(false),
                    num(1),
                ],
            ),
            run(
                3,
                vec![
                    decline.clone(),
                    num(1),
                    num(2),
                    yes(true),
                    yes(false),
                    decline.clone(),
                    yes(true),
                    num(7),
                ],
            ),
            run(0, vec![]),
        ],
        "given_anew_in_a_deferred_let_then_moved_before_an_ask" => vec![
            run(2, vec![num(3), num(4), num(5)]),
            run(4, vec![num(1), num(2)]),
            run(1, vec![num(3), decline.clone()]),
            run(7, vec![]),
        ],
        "a_vec_whose_items_ask" => vec![
            run(2, vec![text("x"), num(1), num(2)]),
            run(0, vec![decline.clone()]),
            run(3, vec![text("y"), num(4), decline.clone(), num(6)]),
        ],
        "items_borrowed_from_held_collections" => vec![
            run(
                1,
                vec![
                    text("A"),
                    text("C"),
                    text("hello big world\n\nbye now"),
                    yes(true),
                    yes(false),
                    yes(true),
                    yes(true),
                    num(1),
                    num(2),
                    num(5),
                    num(2),
                    num(3),
                    num(4),
                    yes(true),
                    yes(false),
                ],
            ),
            run(4, vec![text("A"), decline.clone()]),
            run(
                2,
                vec![
                    text("A"),
                    text("C"),
                    text("one"),
                    decline.clone(),
                    decline.clone(),
                    num(1),
                    decline.clone(),
                    num(0),
                    num(1),
                    cancel.clone(),
                    yes(true),
                    decline.clone(),
                ],
            ),
        ],
        "borrowed_items_in_nested_loops_and_branches" => vec![
            run(2, vec![num(5), num(6), num(7), yes(true), yes(false)]),
            run(1, vec![num(1), num(0)]),
            run(3, vec![num(9), num(2)]),
            run(2, vec![num(5), decline.clone()]),
            run(3, vec![num(0), yes(true), decline.clone()]),
        ],
        "borrowed_items_of_borrowed_items_in_a_while_and_an_arm" => vec![
            run(1, vec![num(1), num(2), num(3)]),
            run(
                2,
                vec![
                    num(1),
                    num(2),
                    num(3),
                    num(4),
                    num(5),
                    num(6),
                    num(7),
                    num(8),
                ],
            ),
            run(
                3,
                vec![
                    num(1),
                    decline.clone(),
                    num(3),
                    num(4),
                    num(5),
                    num(6),
                    num(7),
                    decline.clone(),
                ],
            ),
        ],
        "a_later_local_named_like_a_borrowed_loop_item" => vec![
            run(1, vec![num(1), num(2), num(3), yes(true)]),
            run(
                12,
                vec![decline.clone(), num(3), decline.clone(), decline.clone()],
            ),
        ],
        "a_local_moved_by_two_lets_and_given_anew_after_each_ask" => vec![
            run(3, vec![text("ab"), text("xyz"), num(4), num(5), num(6)]),
            run(0, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "made_every_round_after_a_macro_read_of_what_another_branch_moves" => vec![
            run(2, vec![num(3), num(4), num(5)]),
            run(4, vec![decline.clone(), num(1), decline.clone()]),
            run(1, vec![]),
        ],
        "collected_borrows_made_again_on_resume" => vec![
            run(
                4,
                vec![
                    yes(true),
                    yes(false),
                    decline.clone(),
                    yes(true),
                    num(3),
                    yes(true),
                    text("z"),
                ],
            ),
            run(
                12,
                vec![
                    decline.clone(),
                    yes(true),
                    yes(true),
                    yes(false),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                ],
            ),
        ],
        "copies_of_values_made_again_in_inner_blocks" => vec![
            run(
                4,
                vec![
                    text("Dr"),
                    yes(true),
                    num(2),
                    yes(false),
                    decline.clone(),
                    yes(true),
                    text("z"),
                ],
            ),
            run(
                12,
                vec![
                    decline.clone(),
                    decline.clone(),
                    num(1),
                    yes(true),
                    num(3),
                    decline.clone(),
                    decline.clone(),
                ],
            ),
        ],
        "borrowed_loops_through_filter_and_map" => vec![
            run(
                4,
                vec![
                    yes(true),
                    yes(false),
                    decline.clone(),
                    yes(true),
                    num(3),
                    num(1),
                    yes(true),
                    decline.clone(),
                    yes(true),
                    yes(true),
                    decline.clone(),
                    yes(false),
                    text("e"),
                ],
            ),
            run(
                12,
                vec![
                    decline.clone(),
                    yes(true),
                    yes(true),
                    yes(false),
                    num(7),
                    yes(false),
                    yes(true),
                    yes(true),
                    decline.clone(),
                    yes(false),
                    yes(false),
                    yes(true),
                    yes(true),
                    decline.clone(),
                ],
            ),
        ],
        "arms_on_locals_a_pick_binds" => vec![
            run(
                4,
                vec![
                    text("lab"),
                    yes(true),
                    num(2),
                    yes(true),
                    yes(true),
                    text("z"),
                ],
            ),
            run(
                12,
                vec![
                    decline.clone(),
                    yes(false),
                    decline.clone(),
                    yes(false),
                    text("e"),
                ],
            ),
        ],
        "let_else_made_again_whose_bindings_die_apart" => vec![
            run(4, vec![yes(true), yes(false), text("z")]),
            run(12, vec![decline.clone(), text("e")]),
        ],
        "while_and_filter_map_adapters" => vec![
            run(
                4,
                vec![yes(true), yes(false), num(2), decline.clone(), text("z")],
            ),
            run(
                12,
                vec![
                    yes(true),
                    yes(true),
                    yes(true),
                    num(1),
                    num(3),
                    decline.clone(),
                ],
            ),
        ],
        "parameters_bound_again_in_blocks_inside" => vec![
            run(4, vec![yes(true), num(3), yes(true), yes(false), text("z")]),
            run(
                12,
                vec![decline.clone(), decline.clone(), yes(true), text("e")],
            ),
        ],
        "steps_of_a_sampled_plan" => {
            let plan = |text: &str| {
                json!({
                    "role": "assistant",
                    "content": {"type": "text", "text": text},
                    "model": "m1",
                })
            };
            vec![
                run(
                    4,
                    vec![
                        plan("a\n\n  bb \nc"),
                        yes(true),
                        yes(true),
                        yes(true),
                        text("z"),
                    ],
                ),
                run(12, vec![plan("x\ny"), yes(false), decline.clone()]),
            ]
        }
        "zipped_and_chained_borrowed_loops" => vec![
            run(
                4,
                vec![
                    yes(true),
                    yes(false),
                    num(1),
                    decline.clone(),
                    num(3),
                    yes(true),
                    yes(true),
                    yes(false),
                    text("p"),
                    text("q"),
                    text("z"),
                ],
            ),
            run(
                12,
                vec![
                    decline.clone(),
                    num(2),
                    num(0),
                    num(5),
                    yes(false),
                    text("p"),
                    decline.clone(),
                    text("e"),
                ],
            ),
        ],
        "names_bound_again_in_inner_blocks" => vec![
            run(
                4,
                vec![
                    yes(false),
                    num(2),
                    yes(true),
                    num(3),
                    decline.clone(),
                    text("z"),
                    yes(true),
                    yes(true),
                    yes(false),
                ],
            ),
            run(
                12,
                vec![
                    yes(true),
                    yes(true),
                    num(1),
                    yes(false),
                    decline.clone(),
                    yes(true),
                    decline.clone(),
                    yes(false),
                    decline.clone(),
                    yes(true),
                ],
            ),
        ],
        "choices_among_values_made_again" => vec![
            run(4, vec![yes(true), num(2), num(5), text("z")]),
            run(
                12,
                vec![decline.clone(), decline.clone(), num(1), decline.clone()],
            ),
        ],
        "owned_puts_into_collections_held_across_asks" => vec![
            run(4, vec![yes(true), yes(false), yes(true), num(3)]),
            run(
                12,
                vec![decline.clone(), yes(true), decline.clone(), decline.clone()],
            ),
        ],
        "names_bound_again_from_their_old_values" => vec![
            run(
                4,
                vec![
                    yes(true),
                    yes(false),
                    yes(true),
                    num(3),
                    decline.clone(),
                    yes(true),
                    yes(false),
                    text("z"),
                ],
            ),
            run(
                12,
                vec![
                    decline.clone(),
                    yes(true),
                    decline.clone(),
                    num(1),
                    num(2),
                    decline.clone(),
                    yes(true),
                    decline.clone(),
                ],
            ),
        ],
        "borrowed_arms_bound_again_on_resume" => vec![
            run(
                4,
                vec![
                    num(3),
                    text("x"),
                    yes(false),
                    yes(true),
                    num(5),
                    yes(false),
                    yes(true),
                    num(11),
                    num(12),
                    yes(true),
                    num(21),
                    yes(false),
                    num(7),
                    num(9),
                ],
            ),
            run(
                1,
                vec![
                    decline.clone(),
                    decline.clone(),
                    yes(true),
                    num(2),
                    yes(true),
                    decline.clone(),
                    decline.clone(),
                    num(13),
                    yes(true),
                    decline.clone(),
                    yes(false),
                    num(1),
                    decline.clone(),
                ],
            ),
        ],
        "borrowed_lets_made_again_on_resume" => vec![
            run(
                4,
                vec![
                    num(3),
                    yes(true),
                    text("x"),
                    text("y"),
                    num(1),
                    num(2),
                    num(3),
                    num(4),
                    num(9),
                    num(8),
                ],
            ),
            run(
                2,
                vec![
                    decline.clone(),
                    yes(false),
                    decline.clone(),
                    text("z"),
                    decline.clone(),
                    num(5),
                    num(6),
                    decline.clone(),
                    num(7),
                    decline.clone(),
                ],
            ),
        ],
        "a_borrowed_loop_over_a_local_given_anew_in_an_arm" => vec![
            run(2, vec![num(5), num(6)]),
            run(0, vec![decline.clone(), num(1)]),
        ],
        "a_field_moved_and_given_back_before_a_matched_local" => vec![
            run(2, vec![yes(true), yes(false), text("x")]),
            run(1, vec![yes(false), text("a"), yes(true)]),
            run(1, vec![yes(false), decline.clone()]),
        ],
        "fields_moved_by_methods_that_take_them_by_value" => {
            vec![run(2, vec![num(4)]), run(3, vec![decline.clone()])]
        }
        "fields_moved_out_of_loop_items_and_arm_bindings" => vec![
            run(2, vec![yes(true), yes(false), num(3), text("x")]),
            run(0, vec![decline.clone(), yes(true), decline.clone()]),
        ],
        "a_local_written_only_by_the_asking_statement_after_a_field_moved" => vec![
            run(2, vec![text("new"), num(4), num(5)]),
            run(1, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "a_field_moved_then_given_a_new_value" => vec![
            run(2, vec![text("new"), num(4), text("again")]),
            run(3, vec![text("new"), num(4), decline.clone()]),
            run(1, vec![decline.clone(), decline.clone()]),
        ],
        "fields_taken_apart_by_patterns_before_an_ask" => {
            vec![run(2, vec![num(4)]), run(1, vec![decline.clone()])]
        }
        "fields_moved_in_branches_calls_and_loops_then_the_others_read" => vec![
            run(0, vec![num(5), yes(true), num(9)]),
            run(1, vec![num(2), num(3), yes(false)]),
            run(3, vec![num(1), decline.clone(), num(2), yes(true), num(8)]),
            run(2, vec![num(1), num(2), yes(true), decline.clone()]),
        ],
        "a_field_rebuilt_from_itself_and_an_answer" => vec![
            run(3, vec![text("a"), text("b"), num(2), decline.clone()]),
            run(0, vec![decline.clone()]),
        ],
        "moved_into_values_that_leave_a_while_and_a_labeled_block" => {
            vec![run(3, vec![num(4)]), run(1, vec![]), run(0, vec![])]
        }
        "rebuilt_in_an_else_of_if_let_then_concatenated" => vec![
            run(0, vec![text("a"), num(1)]),
            run(5, vec![text("a"), decline.clone(), num(2)]),
        ],
        "async_helpers_that_borrow_held_locals" => vec![
            run(2, vec![text("abcd"), num(3)]),
            run(0, vec![decline.clone()]),
            run(1, vec![text("é"), decline.clone()]),
        ],
        "async_helpers_awaited_on_an_answer_beside_a_borrow" => vec![
            run(1, vec![num(2), text("x"), num(1), text("hey")]),
            run(
                0,
                vec![
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                ],
            ),
        ],
        "join_and_sleep_between_asks" => vec![
            run(2, vec![num(3), num(4), yes(true)]),
            run(0, vec![num(1), decline.clone(), decline.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "iterator_chains_with_closures_between_asks" => vec![
            run(2, vec![text("apple, fig, banana,,kiwi"), num(2)]),
            run(0, vec![text("a"), decline.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "custom_error_types_through_from_and_question_mark" => vec![
            run(1, vec![text(" 5 "), text("10"), text("3")]),
            run(0, vec![text("")]),
            run(0, vec![text("abc")]),
            run(0, vec![text("toolongvalue")]),
            run(0, vec![text("50"), text("-1")]),
            run(0, vec![text("50"), text("10")]),
            run(2, vec![text("3"), text("9"), text("x")]),
            run(2, vec![text("3"), text("9"), decline.clone()]),
        ],
        "match_guards_that_read_held_locals" => vec![
            run(1, vec![num(5), num(5), num(20), text("b1")]),
            run(0, vec![decline.clone(), num(0), cancel.clone(), text("")]),
            run(0, vec![num(1), decline.clone(), num(2), decline.clone()]),
            run(
                3,
                vec![
                    num(1),
                    num(2),
                    num(3),
                    text("abcdefghijklmnopqrstuvwxyzabcdefghij"),
                ],
            ),
        ],
        "nested_option_result_answers" => vec![
            run(1, vec![text("4"), num(3), yes(true)]),
            run(1, vec![text("x"), yes(false)]),
            run(0, vec![decline.clone(), decline.clone()]),
            run(0, vec![text("300"), num(1), cancel.clone()]),
        ],
        "sets_and_queues_held_across_asks" => vec![
            run(2, vec![num(1), num(0), num(5), num(1)]),
            run(
                0,
                vec![
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                ],
            ),
        ],
        "boxes_and_recursive_enums_held" => vec![
            run(1, vec![num(2), num(3), num(4)]),
            run(0, vec![decline.clone(), cancel.clone(), decline.clone()]),
        ],
        "shadowed_with_a_new_type_after_each_ask" => vec![
            run(2, vec![num(1), text("a"), yes(true)]),
            run(0, vec![decline.clone(), decline.clone()]),
        ],
        "a_value_assigned_only_after_the_ask" => vec![
            run(1, vec![num(2), text("x"), num(3), num(4)]),
            run(
                0,
                vec![
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    cancel.clone(),
                ],
            ),
        ],
        "counted_loop_with_early_break_values" => vec![
            run(1, vec![text("a"), decline.clone(), text("s1"), num(5)]),
            run(0, vec![text("a"), text("b"), text("c")]),
            run(0, vec![cancel.clone()]),
            run(2, vec![text("s2"), decline.clone()]),
        ],
        "labeled_loops_three_deep" => vec![
            run(0, vec![num(0), num(5), num(1), num(4)]),
            run(1, vec![num(2), num(3)]),
            run(
                3,
                vec![
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                ],
            ),
        ],
        "unicode_text_across_asks" => vec![
            run(1, vec![text("Ünïcødé 🦀"), text("✓")]),
            run(2, vec![text("ascii"), decline.clone()]),
            run(0, vec![decline.clone()]),
        ],
        "wide_integers_floats_and_byte_arrays" => vec![
            run(3, vec![num(5), num(-7)]),
            run(0, vec![decline.clone(), decline.clone()]),
        ],
        "asks_in_the_else_of_let_else_in_a_for" => vec![
            run(2, vec![num(5), yes(false)]),
            run(3, vec![yes(true), decline.clone(), decline.clone()]),
        ],
        "an_async_block_awaited_in_place_between_asks" => vec![
            run(2, vec![num(3), num(4)]),
            run(0, vec![decline.clone(), decline.clone()]),
        ],
        "closures_capturing_held_locals_by_ref_and_by_move" => vec![
            run(1, vec![num(2), text("p1-0")]),
            run(0, vec![decline.clone(), decline.clone()]),
        ],
        "tuples_of_structs_and_enums_with_data_held" => vec![
            run(1, vec![num(2), num(-1), yes(true)]),
            run(0, vec![decline.clone(), num(3), yes(false)]),
            run(2, vec![cancel.clone(), cancel.clone(), decline.clone()]),
        ],
        "mem_swap_take_and_replace_between_asks" => vec![
            run(1, vec![text("a"), text("b"), text("c")]),
            run(0, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "collect_into_result_with_question_mark" => vec![
            run(0, vec![text("1, 2,3"), num(1)]),
            run(0, vec![text("1,x")]),
            run(0, vec![text("-1,4"), num(5)]),
            run(1, vec![text("7"), num(-1)]),
            run(0, vec![decline.clone()]),
        ],
        "sort_by_key_and_binary_search_between_asks" => vec![
            run(3, vec![num(3), text("new")]),
            run(0, vec![decline.clone(), decline.clone()]),
        ],
        "while_loop_with_a_countdown_and_deadline_answer" => vec![
            run(2, vec![num(5), decline.clone(), num(1)]),
            run(3, vec![num(150)]),
            run(1, vec![num(-3)]),
            run(0, vec![decline.clone()]),
        ],
        "string_building_with_push_and_insert" => vec![
            run(3, vec![text("a"), text("-b"), decline.clone(), text("+")]),
            run(0, vec![decline.clone()]),
        ],
        "matches_with_bindings_at_and_nested_enums" => vec![
            run(3, vec![pick("red"), num(3), yes(true)]),
            run(0, vec![pick("blue"), num(-5)]),
            run(0, vec![decline.clone(), decline.clone()]),
            run(2, vec![cancel.clone(), num(2), decline.clone()]),
            run(1, vec![pick("green"), num(50)]),
        ],
        "impl_blocks_and_traits_inside_the_body" => vec![
            run(1, vec![num(10), num(20), num(30), yes(true)]),
            run(0, vec![decline.clone(), decline.clone()]),
        ],
        "a_for_over_chars_and_bytes_of_an_answer" => vec![
            run(3, vec![text("aB!C"), yes(false), yes(true), num(5)]),
            run(0, vec![text("XY"), decline.clone(), decline.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "a_held_option_taken_in_a_while_let_with_asks" => vec![
            run(0, vec![]),
            run(1, vec![text("b"), text("c"), text("")]),
            run(2, vec![text("a"), text("a"), text("a"), text("a")]),
        ],
        "early_return_of_an_err_mapped_from_an_answer" => vec![
            run(2, vec![text("1"), text(" 2"), text("3")]),
            run(1, vec![text("5"), text("0")]),
            run(0, vec![text("x")]),
            run(1, vec![text("1"), decline.clone()]),
        ],
        "nested_closures_and_a_fold_over_answers" => vec![
            run(2, vec![num(3), num(-1), yes(true)]),
            run(0, vec![decline.clone()]),
            run(4, vec![num(1), decline.clone(), num(2), yes(false)]),
        ],
        "a_spawned_task_awaited_between_asks" => vec![
            run(1, vec![num(3), text("x")]),
            run(0, vec![decline.clone(), decline.clone()]),
        ],
        "let_else_with_a_slice_pattern_and_asks_after" => vec![
            run(0, vec![text("add 2 3"), yes(true)]),
            run(0, vec![text("echo a b"), yes(true)]),
            run(0, vec![text("go x"), yes(true), text("add")]),
            run(0, vec![text("  ")]),
            run(1, vec![text("add 1"), decline.clone()]),
            run(0, vec![text("add x 3"), yes(true)]),
        ],
        "a_struct_with_methods_changed_between_asks" => vec![
            run(1, vec![yes(true), decline.clone()]),
            run(2, vec![yes(false), yes(true), yes(true)]),
        ],
        "ask_in_a_match_on_a_tuple_of_held_locals" => vec![
            run(0, vec![]),
            run(2, vec![text("t")]),
            run(3, vec![]),
            run(5, vec![num(4)]),
            run(4, vec![decline.clone()]),
        ],
        "a_vec_of_options_filled_in_by_index" => vec![
            run(0, vec![text("a")]),
            run(0, vec![decline.clone(), text("z")]),
            run(3, vec![text("x"), text("y"), decline.clone()]),
        ],
        "a_held_duration_and_ordering_results" => vec![
            run(1, vec![num(100), num(300)]),
            run(0, vec![decline.clone(), num(5)]),
        ],
        "if_let_chains_of_parsed_answers" => vec![
            run(0, vec![text("4"), num(3)]),
            run(0, vec![text("true")]),
            run(0, vec![text("a=b"), yes(true)]),
            run(0, vec![text("zed")]),
            run(0, vec![text("9x"), text("q")]),
            run(1, vec![decline.clone(), text("q")]),
        ],
        "generic_helper_fns_and_turbofish_between_asks" => vec![
            run(1, vec![num(5), text("a"), num(-2), text("bcd")]),
            run(
                0,
                vec![
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                ],
            ),
        ],
        "a_retry_loop_that_reasks_until_valid" => vec![
            run(2, vec![text("nope"), text(""), text("a@b.c"), yes(true)]),
            run(0, vec![text("x")]),
            run(1, vec![decline.clone()]),
            run(0, vec![text("me@x"), decline.clone()]),
        ],
        "mutable_borrows_beside_an_argument_that_asks" => vec![
            run(1, vec![text("ann"), num(3), num(4)]),
            run(0, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "a_drain_and_a_binary_heap_across_asks" => vec![
            run(
                2,
                vec![yes(true), yes(true), num(2), num(0), decline.clone()],
            ),
            run(0, vec![]),
            run(1, vec![decline.clone()]),
        ],
        "an_index_loop_and_a_queue_matched_in_a_loop" => vec![
            run(
                2,
                vec![yes(true), yes(true), text("x"), decline.clone(), text("")],
            ),
            run(1, vec![decline.clone()]),
        ],
        "a_labeled_block_with_attributes_drops_and_asserts" => vec![
            run(0, vec![text("x")]),
            run(1, vec![yes(true), yes(true), text("y")]),
            run(2, vec![decline.clone(), yes(false), decline.clone()]),
        ],
        "newtypes_and_mut_tuple_destructuring_across_asks" => vec![
            run(1, vec![num(1), text("t"), yes(true)]),
            run(5, vec![num(2), decline.clone(), decline.clone()]),
            run(0, vec![decline.clone(), text("u"), yes(false)]),
        ],
        "early_err_with_an_answer_and_conditions_after_an_ask" => vec![
            run(
                0,
                vec![
                    yes(true),
                    text("ab"),
                    yes(true),
                    text("abc"),
                    decline.clone(),
                ],
            ),
            run(0, vec![yes(true), text("toolong"), text("because")]),
            run(0, vec![yes(true), decline.clone()]),
            run(1, vec![decline.clone()]),
            run(
                0,
                vec![yes(true), text("a"), yes(true), text("b"), yes(true)],
            ),
        ],
        "owned_items_of_maps_and_char_digits_in_for_loops" => vec![
            run(
                1,
                vec![num(2), num(3), text("1a2b"), num(10), decline.clone()],
            ),
            run(0, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "closures_passed_beside_an_argument_that_asks" => vec![
            run(2, vec![num(3), num(4), num(5)]),
            run(0, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "an_async_closure_called_with_an_answer" => vec![
            run(1, vec![num(2), num(3), text("hey")]),
            run(0, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "a_for_over_an_iterator_a_helper_returns" => vec![
            run(2, vec![yes(true), decline.clone(), yes(true), text("go")]),
            run(0, vec![yes(false), yes(true)]),
        ],
        "flags_arrays_and_reassigned_maxima_across_asks" => vec![
            run(
                1,
                vec![
                    yes(false),
                    num(3),
                    yes(true),
                    num(-2),
                    decline.clone(),
                    num(9),
                ],
            ),
            run(
                0,
                vec![
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                ],
            ),
        ],
        "a_loop_that_pops_with_let_else_and_transposes" => vec![
            run(2, vec![text("5"), text("500"), text("x")]),
            run(0, vec![]),
            run(1, vec![decline.clone()]),
            run(3, vec![text("101"), text("102"), text("103"), text("104")]),
        ],
        "slices_chunks_and_cached_sorts_between_asks" => vec![
            run(1, vec![text("pear Apple fig banana"), num(1)]),
            run(5, vec![text("one"), decline.clone()]),
            run(0, vec![decline.clone()]),
        ],
        "a_value_given_beside_a_let_read_after_the_next_ask" => vec![
            run(1, vec![num(2), text("ab"), text("c")]),
            run(0, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "a_refusal_through_a_user_error_type_and_async_lookups" => vec![
            run(1, vec![text("ann"), num(4), text("bo")]),
            run(5, vec![text("ann"), text("x1")]),
            run(0, vec![text("xena")]),
            run(0, vec![decline.clone()]),
            run(0, vec![text("ann"), cancel.clone()]),
        ],
        "an_inner_value_loop_that_breaks_the_outer_loop" => vec![
            run(3, vec![num(0), num(2), num(5)]),
            run(3, vec![num(1)]),
            run(3, vec![decline.clone()]),
            run(2, vec![num(-1)]),
            run(0, vec![]),
        ],
        "entries_filled_by_closures_that_read_held_locals" => vec![
            run(2, vec![text("a"), decline.clone(), text("a"), num(9)]),
            run(0, vec![decline.clone(), num(-3)]),
        ],
        "a_labeled_block_that_continues_its_loop" => vec![
            run(4, vec![yes(true), yes(false), decline.clone(), yes(true)]),
            run(0, vec![yes(false), decline.clone()]),
        ],
        "mutable_borrows_beside_asks_in_conditions_and_returns" => vec![
            run(0, vec![num(3), num(1), num(0), text("x")]),
            run(2, vec![num(-1), num(1), num(1), num(1), num(1), num(5)]),
            run(1, vec![decline.clone(), decline.clone(), decline.clone()]),
        ],
        "lets_without_values_and_mutable_arguments_inside_loops" => vec![
            run(
                1,
                vec![
                    num(1),
                    num(2),
                    text("a"),
                    yes(true),
                    decline.clone(),
                    num(3),
                    decline.clone(),
                ],
            ),
            run(
                1,
                vec![
                    num(1),
                    num(2),
                    decline.clone(),
                    yes(true),
                    num(2),
                    cancel.clone(),
                    decline.clone(),
                    yes(false),
                    num(1),
                    num(2),
                    num(3),
                ],
            ),
            run(
                0,
                vec![
                    num(1),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                ],
            ),
        ],
        "lets_without_values_shadowed_and_grown_across_asks" => vec![
            run(
                2,
                vec![
                    num(3),
                    text("s"),
                    text("a"),
                    decline.clone(),
                    yes(false),
                    yes(true),
                ],
            ),
            run(
                0,
                vec![
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                    decline.clone(),
                ],
            ),
        ],
        "an_ask_in_a_let_chain_after_a_plain_match" => vec![
            run(1, vec![text("a")]),
            run(3, vec![]),
            run(2, vec![decline.clone()]),
        ],
        "a_let_chain_with_an_else_that_asks" => vec![
            run(1, vec![num(4)]),
            run(3, vec![text("o")]),
            run(12, vec![decline.clone()]),
            run(1, vec![decline.clone()]),
        ],
        "a_let_chain_without_an_else_whose_bindings_the_conditions_read" => vec![
            run(0, vec![]),
            run(1, vec![]),
            run(2, vec![num(5)]),
            run(3, vec![decline.clone()]),
        ],
        "else_if_let_chains_that_ask" => vec![
            run(0, vec![]),
            run(2, vec![num(1)]),
            run(3, vec![text("t")]),
            run(5, vec![decline.clone()]),
            run(4, vec![decline.clone()]),
        ],
        "mut_bindings_of_a_let_chain_changed_after_the_ask" => vec![
            run(1, vec![num(3)]),
            run(7, vec![]),
            run(2, vec![decline.clone()]),
        ],
        "ref_bindings_of_a_let_chain" => vec![
            run(0, vec![]),
            run(1, vec![num(2)]),
            run(1000, vec![]),
            run(2, vec![decline.clone()]),
        ],
        "a_let_chain_through_a_map_lookup_whose_else_asks" => vec![
            run(0, vec![num(1)]),
            run(1, vec![decline.clone()]),
            run(2, vec![]),
            run(3, vec![]),
        ],
        "a_while_let_chain_with_continue_and_break" => vec![
            run(0, vec![num(2)]),
            run(2, vec![num(1), num(-1)]),
            run(2, vec![num(1), num(3)]),
            run(6, vec![num(0), decline.clone(), num(1)]),
        ],
        "a_labeled_while_let_chain_broken_from_an_inner_loop" => vec![
            run(1, vec![yes(true), yes(false), yes(true), yes(true)]),
            run(2, vec![yes(false), yes(false)]),
            run(3, vec![decline.clone()]),
        ],
        "a_let_chain_inside_a_for_loop" => {
            vec![run(3, vec![num(5), decline.clone()]), run(0, vec![num(1)])]
        }
        "let_chain_bindings_read_before_and_after_the_ask" => vec![
            run(0, vec![]),
            run(1, vec![num(9)]),
            run(2, vec![decline.clone()]),
        ],
        "negated_and_parenthesized_asks" => vec![
            run(1, vec![yes(false)]),
            run(2, vec![yes(true), num(3), num(4), yes(true)]),
            run(3, vec![yes(true), num(-1), decline.clone()]),
            run(0, vec![decline.clone()]),
            run(1, vec![yes(true), num(5), num(0), decline.clone()]),
        ],
        "entry_chains_fed_by_answers_between_asks" => vec![
            run(1, vec![text("x"), text("p,q"), text("+")]),
            run(2, vec![text("y"), decline.clone()]),
            run(0, vec![text("z"), text("r"), decline.clone()]),
            run(3, vec![decline.clone()]),
        ],
        "closures_with_returns_and_question_marks_across_asks" => vec![
            run(1, vec![text("#4"), text("#10")]),
            run(2, vec![text("x"), text("#3")]),
            run(3, vec![text("#-2"), text("none")]),
            run(0, vec![decline.clone()]),
            run(5, vec![text("# 7"), text("#0")]),
        ],
        "nested_fns_with_loops_labels_and_returns" => vec![
            run(1, vec![text("1,2"), num(1)]),
            run(1, vec![text("1,2"), num(5), text("200"), num(50)]),
            run(1, vec![text("1,2"), num(5), text("4"), num(3)]),
            run(2, vec![text("x")]),
            run(0, vec![text("3"), decline.clone()]),
        ],
        "if_values_that_ask_in_condition_branch_and_receiver" => vec![
            run(2, vec![yes(true), num(5), num(1), pick("red")]),
            run(1, vec![yes(false), pick("blue")]),
            run(2, vec![decline.clone(), num(7), decline.clone()]),
            run(2, vec![yes(true), decline.clone()]),
            run(3, vec![yes(true), num(2), num(10), cancel.clone()]),
        ],
        "an_ask_several_calls_deep" => vec![
            run(1, vec![num(7), num(2), text("hi"), num(-4)]),
            run(2, vec![num(1000), decline.clone()]),
            run(0, vec![num(1), num(1), decline.clone(), cancel.clone()]),
        ],
        "impl_trait_values_used_between_asks" => vec![
            run(1, vec![num(10), num(3)]),
            run(2, vec![num(-5), decline.clone()]),
            run(0, vec![decline.clone()]),
        ],
        "pairs_sorted_by_two_keys_deduped_and_unzipped" => vec![
            run(
                5,
                vec![
                    text("a"),
                    num(7),
                    text("b"),
                    num(3),
                    text("a"),
                    num(9),
                    yes(true),
                ],
            ),
            run(1, vec![text(""), yes(false)]),
            run(2, vec![text("x"), num(-1)]),
            run(2, vec![text("x"), num(1), decline.clone()]),
            run(
                0,
                vec![
                    text("a"),
                    num(1),
                    text("b"),
                    num(1),
                    text("c"),
                    num(1),
                    cancel.clone(),
                ],
            ),
        ],
        "a_labeled_block_broken_from_a_for_that_asks" => vec![
            run(1, vec![text("a"), text("#b"), text("t")]),
            run(1, vec![text("stop"), decline.clone()]),
            run(1, vec![text("a"), text("b"), text("c"), text("t")]),
            run(2, vec![decline.clone()]),
        ],
        "closures_made_in_a_loop_body_around_its_ask" => vec![
            run(1, vec![text("a"), text(""), text("bc"), num(4)]),
            run(2, vec![text("x"), decline.clone()]),
            run(0, vec![text("a"), text("b"), text("c"), decline.clone()]),
        ],
        "trait_objects_made_and_used_between_asks" => vec![
            run(1, vec![num(3), num(4)]),
            run(2, vec![decline.clone()]),
            run(0, vec![num(-2), cancel.clone()]),
        ],
        "a_while_condition_reads_the_last_answer" => vec![
            run(1, vec![text("a"), text(""), text("done"), yes(true)]),
            run(0, vec![text("a"), text("b"), text("c"), decline.clone()]),
            run(0, vec![text(""), text(""), text(""), text("")]),
            run(2, vec![text("x"), cancel.clone()]),
        ],
        "a_map_popped_in_order_by_a_while_let_that_asks" => vec![
            run(0, vec![yes(false), yes(true), yes(false), yes(true)]),
            run(0, vec![yes(true), yes(true), yes(true), decline.clone()]),
            run(
                5,
                vec![decline.clone(), yes(true), cancel.clone(), yes(true)],
            ),
        ],
        "asking_arguments_wrapped_in_options_and_structs" => vec![
            run(1, vec![num(1), num(2), num(3), text("a")]),
            run(1, vec![num(20), decline.clone()]),
            run(0, vec![num(1), cancel.clone()]),
        ],
        "let_else_whose_value_is_a_match_or_if_with_an_asking_branch" => vec![
            run(0, vec![]),
            run(1, vec![num(0)]),
            run(2, vec![num(4)]),
            run(3, vec![decline.clone()]),
            run(2, vec![num(3), decline.clone()]),
            run(2, vec![num(5), num(2)]),
        ],
        "a_loop_that_asks_as_a_match_arm_value_and_a_block_that_sums" => vec![
            run(0, vec![num(-1), num(0), num(2), num(5), decline.clone()]),
            run(7, vec![]),
            run(1, vec![num(4)]),
            run(0, vec![cancel.clone()]),
            run(4, vec![num(1), num(2), num(3)]),
        ],
        "const_sized_arrays_filled_by_asks" => vec![
            run(1, vec![num(1), decline.clone(), num(300), yes(true)]),
            run(2, vec![num(1), num(2), decline.clone()]),
            run(
                0,
                vec![
                    cancel.clone(),
                    cancel.clone(),
                    cancel.clone(),
                    cancel.clone(),
                ],
            ),
        ],
        "awaits_in_the_heads_of_blocks_that_ask" => vec![
            run(1, vec![text("a"), text("bc"), yes(true)]),
            run(1, vec![text("")]),
            run(12, vec![text("abc"), decline.clone(), yes(false)]),
            run(1, vec![cancel.clone()]),
        ],
        "tuples_in_match_arm_values_that_ask" => vec![
            run(0, vec![num(5), num(6)]),
            run(3, vec![decline.clone()]),
            run(0, vec![cancel.clone()]),
        ],
        "a_body_local_error_type_through_try_from_and_question_mark" => vec![
            run(1, vec![num(5), num(50)]),
            run(1, vec![num(500)]),
            run(1, vec![num(5), num(-1)]),
            run(1, vec![decline.clone()]),
        ],
        "a_match_on_a_tuple_holding_a_str_slice_with_asking_arms" => vec![
            run(1, vec![text("add"), num(2)]),
            run(0, vec![text("add"), yes(true)]),
            run(1, vec![text("x"), decline.clone()]),
        ],
        "a_range_iterated_by_hand_across_asks" => vec![
            run(1, vec![yes(true), yes(false)]),
            run(2, vec![yes(true), yes(true), yes(true), yes(true)]),
            run(0, vec![decline.clone()]),
        ],
        "a_do_while_block_condition_that_asks" => vec![
            run(1, vec![text("a"), text("")]),
            run(1, vec![text("a"), text("b"), text("c"), text("d")]),
            run(1, vec![text("a"), decline.clone()]),
        ],
        "a_do_while_whose_condition_and_body_both_ask" => vec![
            run(
                1,
                vec![
                    yes(true),
                    num(2),
                    yes(true),
                    num(0),
                    yes(true),
                    num(3),
                    yes(true),
                ],
            ),
            run(1, vec![yes(true), num(-1)]),
            run(1, vec![decline.clone()]),
            run(1, vec![yes(true), num(5), yes(true), cancel.clone()]),
        ],
        "an_if_condition_block_and_an_argument_block_that_ask" => vec![
            run(1, vec![text("abc"), text("r")]),
            run(1, vec![decline.clone(), decline.clone()]),
        ],
        "a_destructuring_assignment_whose_second_item_asks" => vec![
            run(1, vec![num(1), num(2), num(3)]),
            run(2, vec![num(1), decline.clone()]),
        ],
        "raw_identifier_keys_asked_under_their_plain_names" => vec![
            run(1, vec![text("t"), num(3)]),
            run(1, vec![text("t"), decline.clone()]),
        ],
        "items_declared_inside_asking_loop_if_and_match_blocks" => vec![
            run(1, vec![num(2), num(3), text("x")]),
            run(2, vec![num(2), num(3), num(4), yes(true), text("y")]),
            run(
                2,
                vec![num(2), num(3), decline.clone(), yes(false), decline.clone()],
            ),
            run(0, vec![num(1), cancel.clone()]),
        ],
        "return_break_and_continue_from_a_while_condition_block_that_asks" => vec![
            run(0, vec![text("a"), text("b"), text("c"), text("d")]),
            run(0, vec![text("next"), text("a"), text("next"), text("stop")]),
            run(1, vec![text("a"), text("quit")]),
            run(0, vec![text("next"), text("next"), text("next")]),
            run(0, vec![text("a"), decline.clone()]),
        ],
        "blocks_that_ask_as_a_match_scrutinee_a_for_iterable_and_an_if_let_value" => vec![
            run(
                1,
                vec![
                    text("abc"),
                    num(2),
                    num(2),
                    text("p"),
                    decline.clone(),
                    text("e"),
                ],
            ),
            run(1, vec![decline.clone(), num(0), decline.clone()]),
            run(
                1,
                vec![text("x"), cancel.clone(), num(1), text("q"), text("z")],
            ),
        ],
        other => panic!("no cases for {other}"),
    }
}

/// Every body with its scripts.
fn corpus_runs() -> Vec<(&'static str, Vec<Run>)> {
    NAMES.iter().map(|name| (*name, cases(name))).collect()
}

fn corpus() -> Corpus {
    Corpus {
        tool_router: Corpus::tool_router(),
        engine: TestClock::default().engine(),
    }
}

/// What the clients of every channel declare: each kind of question the corpus asks.
fn every_kind() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}})
}

/// Compares every body's runs on `channel` with its straight runs, and fails with each that
/// differs.
async fn check<O, OFut>(channel: &str, keyed: bool, observe: O)
where
    O: Fn(&'static str, Run) -> OFut,
    OFut: std::future::Future<Output = mrtr_tests::differential::Observed>,
{
    let runs = corpus_runs();
    let unscripted: Vec<_> = runs.iter().filter(|(_, runs)| runs.is_empty()).collect();
    assert!(
        unscripted.is_empty(),
        "bodies without a script: {unscripted:?}"
    );
    let within = Duration::from_secs(120);
    let compared = compare(&runs, run_straight, channel, keyed, observe);
    let (mismatches, _) = tokio::time::timeout(within, compared)
        .await
        .expect("the corpus ran in time");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// Each script is answered to its end by its body, so none misses the path it was written for.
#[tokio::test]
async fn every_script_is_spent_by_its_body() {
    let mut unspent = Vec::new();
    for (name, runs) in corpus_runs() {
        for (index, case) in runs.iter().enumerate() {
            let left = answers_left(case, |args| run_straight(name, args)).await;
            if left > 0 {
                unspent.push(format!("{name}, script {index}: answers left over: {left}"));
            }
        }
    }
    assert!(unspent.is_empty(), "{}", unspent.join("\n"));
}

#[tokio::test]
async fn resumed_rounds_equal_the_straight_run() {
    let served = Served::start(corpus()).await.expect("server starts");
    let client = connect_declaring(&served.url, every_kind()).await;
    let client = &client;
    check("rounds", true, |name, case| async move {
        in_rounds(client, name, &case).await
    })
    .await;
}

/// The same bodies on a pre-2026 session: each question goes to the client as a request of
/// its own while the call runs (`mrtr::Bridged`).
#[tokio::test]
async fn a_session_equals_the_straight_run() {
    let (user, client) = on_a_session(corpus()).await.expect("a session");
    let (user, client) = (&user, &client);
    check("session", false, |name, case| async move {
        on_session(user, client, name, &case).await
    })
    .await;
}

/// The same bodies as tasks (the tasks extension): each round that asks waits in
/// `input_required` for `tasks/update`.
#[tokio::test]
async fn a_task_equals_the_straight_run() {
    let served = Served::start(corpus()).await.expect("server starts");
    let mut capabilities = every_kind();
    capabilities["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
    let client = TaskClient::new(&served.url, capabilities);
    let client = &client;
    check("task", true, |name, case| async move {
        as_a_task(client, name, &case).await
    })
    .await;
}

impl mrtr::MrtrServer for Corpus {
    fn mrtr_engine(&self) -> &Engine {
        &self.engine
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Corpus {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}
