//! A load generator for the wizard's tools over Streamable HTTP on loopback.
//!
//! Each worker holds one 2026-07-28 rmcp client and drives whole flows of one tool, one timed
//! `tools/call` per round ([`call_tool_once`](rmcp::service::Peer::call_tool_once)), answering
//! each question from the tool's [`Script`]. Every flow is checked: each round must ask exactly
//! the scripted key and hand back a `requestState`, and the final result must be the scripted
//! text and structured content. A flow that does not is counted as failed, with its reason.
//!
//! The run stops at whichever bound comes first: `flows` flows started, or `duration` elapsed
//! (flows still in flight then are cut off and counted apart). It only talks to
//! `127.0.0.1`, `localhost` or `[::1]`: [`check_loopback`] refuses any other host, the HTTP client
//! uses no proxy and follows no redirect, and `localhost` is pinned to the loopback addresses.
//!
//! ```text
//! cargo run --release --example loadgen -- --url http://127.0.0.1:8080/mcp --tool signup \
//!     --flows 1000 --concurrency 8 --seconds 30 [--json]
//! ```

use std::{
    fmt,
    net::{Ipv4Addr, Ipv6Addr, SocketAddr},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use rmcp::{
    ClientLifecycleMode, ClientServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientConfig, InputResponses,
        JsonObject, ProtocolVersion,
    },
    service::{RoleClient, RunningService},
    transport::{
        StreamableHttpClientTransport, streamable_http_client::StreamableHttpClientTransportConfig,
    },
};
use serde::Serialize;
use serde_json::{Value, json};

use crate::demo::{elicitation_client, text_of};

/// `--url` when none is given: the wizard's default address.
pub const DEFAULT_URL: &str = "http://127.0.0.1:8080/mcp";
/// `--flows` when none is given.
pub const DEFAULT_FLOWS: u64 = 200;
/// `--concurrency` when none is given.
pub const DEFAULT_CONCURRENCY: usize = 4;
/// `--seconds` when none is given.
pub const DEFAULT_SECONDS: u64 = 20;
/// The most flows one run may start.
pub const MAX_FLOWS: u64 = 1_000_000;
/// The most workers (clients) one run may use.
pub const MAX_CONCURRENCY: usize = 256;
/// The longest one run may last.
pub const MAX_SECONDS: u64 = 3600;
/// How many failure reasons a report keeps (the flows with the lowest numbers).
pub const MAX_REASONS: usize = 5;

/// The command line, for `--help` and usage errors.
pub const USAGE: &str = "\
usage: loadgen [--url URL] [--tool signup|onboard|wizard5|questions] [--questions N] [--flows N]
               [--concurrency N] [--seconds S] [--json]

  --url URL          the server's Streamable HTTP endpoint, on 127.0.0.1, localhost or [::1]
                     (default http://127.0.0.1:8080/mcp)
  --tool NAME        signup (3 questions), onboard (4 questions: a developer, one repository),
                     wizard5 (q1 to q5) or questions (--questions of them, each answered
                     a<round>, under whatever key the server gives it) (default signup)
  --questions N      how many questions a questions flow asks, 1 to 100 (default 10)
  --flows N          start at most N flows, 1 to 1000000 (default 200)
  --concurrency N    N workers, each with its own client, 1 to 256 (default 4)
  --seconds S        stop after S seconds, more than 0 and at most 3600 (default 20)
  --json             print only the JSON report

Stops at whichever of --flows and --seconds comes first. Exit status: 0 when every flow that
ended completed as scripted (and at least one did), 1 otherwise, 2 on a usage error or a URL
that is not loopback.";

/// The tools the load generator knows a script for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `signup`: profile, plan and confirmation, as in `wizard --demo`.
    Signup,
    /// `onboard`: a developer (no admin confirmation) who watches one repository.
    Onboard,
    /// `wizard5`: five questions, `q1` to `q5`.
    Wizard5,
    /// `questions` with this many questions, one per round. Each round may name its one
    /// question as it likes (servers written with other SDKs do), and is answered `a<round>`.
    Questions(u32),
}

/// `--questions` when none is given.
pub const DEFAULT_QUESTIONS: u32 = 10;
/// The most questions a `questions` flow may ask, as the tool allows.
pub const MAX_QUESTIONS: u32 = crate::questions::MAX_QUESTIONS;

impl Tool {
    /// The tool's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Signup => "signup",
            Tool::Onboard => "onboard",
            Tool::Wizard5 => "wizard5",
            Tool::Questions(_) => "questions",
        }
    }

    /// The tool named `name`, if the load generator has a script for it.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "signup" => Some(Tool::Signup),
            "onboard" => Some(Tool::Onboard),
            "wizard5" => Some(Tool::Wizard5),
            "questions" => Some(Tool::Questions(DEFAULT_QUESTIONS)),
            _ => None,
        }
    }

    /// What one flow of this tool sends and must get back, from the tool bodies in
    /// [`crate::wizard`].
    pub fn script(self) -> Script {
        let accept = |content: Value| json!({"action": "accept", "content": content});
        let named = |rounds: Vec<(&str, Value)>| {
            rounds
                .into_iter()
                .map(|(key, answer)| (Some(key.to_owned()), answer))
                .collect()
        };
        let answers = |count: u32| (1..=count).map(|round| format!("a{round}"));
        match self {
            Tool::Signup => Script {
                tool: "signup",
                arguments: json!({"team": "Analytical Engines"}),
                rounds: named(vec![
                    (
                        "profile",
                        accept(json!({"name": "Ada", "email": "ada@example.com"})),
                    ),
                    ("plan", accept(json!({"plan": "pro"}))),
                    ("confirm", accept(json!({"confirm": true}))),
                ]),
                text: "Signed up Ada to Analytical Engines on the pro plan".to_owned(),
                structured: Some(
                    json!({"name": "Ada", "plan": "pro", "team": "Analytical Engines"}),
                ),
            },
            Tool::Onboard => Script {
                tool: "onboard",
                arguments: json!({"team": "Navy"}),
                rounds: named(vec![
                    ("profile", accept(json!({"name": "Grace"}))),
                    ("role", accept(json!({"role": "developer"}))),
                    ("repo", accept(json!({"repo": "cobol", "more": false}))),
                    ("notify", accept(json!({"level": "mentions"}))),
                ]),
                text: "Onboarded Grace as developer to Navy: cobol=mentions".to_owned(),
                structured: Some(json!({
                    "name": "Grace",
                    "role": "developer",
                    "team": "Navy",
                    "repos": [{"repo": "cobol", "level": "mentions"}],
                })),
            },
            Tool::Wizard5 => Script {
                tool: "wizard5",
                arguments: json!({}),
                rounds: answers(5)
                    .enumerate()
                    .map(|(index, answer)| {
                        (
                            Some(format!("q{}", index + 1)),
                            accept(json!({ "answer": answer })),
                        )
                    })
                    .collect(),
                text: answers(5).collect::<Vec<_>>().join(", "),
                structured: None,
            },
            Tool::Questions(count) => Script {
                tool: "questions",
                arguments: json!({ "questions": count }),
                rounds: answers(count)
                    .map(|answer| (None, accept(json!({ "answer": answer }))))
                    .collect(),
                text: answers(count).collect::<Vec<_>>().join(", "),
                structured: None,
            },
        }
    }
}

impl fmt::Display for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tool::Questions(count) => write!(f, "questions --questions {count}"),
            _ => f.write_str(self.name()),
        }
    }
}

/// One flow of a tool: the call's arguments, each round's key and answer, and the result.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    pub tool: &'static str,
    pub arguments: Value,
    /// Round `i` (an `InputRequiredResult`) must ask one question: exactly the key
    /// `rounds[i].0` when that is given, any one key when it is `None`. The next request
    /// answers it with `rounds[i].1`. The request after the last round must complete.
    pub rounds: Vec<(Option<String>, Value)>,
    /// The text of the result's first content block.
    pub text: String,
    /// The result's `structuredContent`, when the tool gives one.
    pub structured: Option<Value>,
}

/// What a run does; [`Options::from_args`] reads it from a command line.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub url: String,
    pub tool: Tool,
    /// Start at most this many flows.
    pub flows: u64,
    /// This many workers, each with its own client, each running one flow at a time.
    pub concurrency: usize,
    /// Stop after this long (`--seconds`), cutting off the flows in flight.
    pub duration: Duration,
    /// Print only the JSON report.
    pub json: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            url: DEFAULT_URL.to_owned(),
            tool: Tool::Signup,
            flows: DEFAULT_FLOWS,
            concurrency: DEFAULT_CONCURRENCY,
            duration: Duration::from_secs(DEFAULT_SECONDS),
            json: false,
        }
    }
}

impl Options {
    /// Reads `--url`, `--tool`, `--flows`, `--concurrency`, `--seconds` (each as `--flag value`
    /// or `--flag=value`) and `--json`, the program name not included, and checks the result
    /// with [`Options::validate`]. `--help` gives [`Error::Help`].
    pub fn from_args<I, S>(args: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut options = Options::default();
        let mut questions = None;
        let mut args = args.into_iter().map(Into::into);
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) if flag.starts_with("--") => {
                    (flag.to_owned(), Some(value.to_owned()))
                }
                _ => (arg, None),
            };
            if flag == "--help" || flag == "-h" {
                return Err(Error::Help);
            }
            if flag == "--json" {
                if inline.is_some() {
                    return Err(Error::Usage("--json takes no value".to_owned()));
                }
                options.json = true;
                continue;
            }
            if !matches!(
                flag.as_str(),
                "--url" | "--tool" | "--questions" | "--flows" | "--concurrency" | "--seconds"
            ) {
                return Err(Error::Usage(format!("unknown argument `{flag}`")));
            }
            let value = inline
                .or_else(|| args.next())
                .ok_or_else(|| Error::Usage(format!("{flag} needs a value")))?;
            let bad = |what: &str| Error::Usage(format!("{flag} {value}: {what}"));
            match flag.as_str() {
                "--url" => options.url = value.clone(),
                "--tool" => {
                    options.tool = Tool::from_name(&value)
                        .ok_or_else(|| bad("give signup, onboard, wizard5 or questions"))?
                }
                "--questions" => questions = Some(value.parse().map_err(|_| bad("not a count"))?),
                "--flows" => options.flows = value.parse().map_err(|_| bad("not a count"))?,
                "--concurrency" => {
                    options.concurrency = value.parse().map_err(|_| bad("not a count"))?
                }
                _ => {
                    let seconds: f64 = value.parse().map_err(|_| bad("not a number"))?;
                    options.duration =
                        Duration::try_from_secs_f64(seconds).map_err(|_| bad("not a duration"))?;
                }
            }
        }
        match (questions, options.tool) {
            (Some(count), Tool::Questions(_)) => options.tool = Tool::Questions(count),
            (Some(_), tool) => {
                return Err(Error::Usage(format!(
                    "--questions goes with --tool questions, not --tool {tool}"
                )));
            }
            (None, _) => {}
        }
        options.validate()?;
        Ok(options)
    }

    /// Checks the bounds and that the URL is loopback ([`check_loopback`]).
    pub fn validate(&self) -> Result<(), Error> {
        if let Tool::Questions(count) = self.tool
            && !(1..=MAX_QUESTIONS).contains(&count)
        {
            return Err(Error::Usage(format!(
                "--questions {count}: give 1 to {MAX_QUESTIONS}"
            )));
        }
        if !(1..=MAX_FLOWS).contains(&self.flows) {
            return Err(Error::Usage(format!(
                "--flows {}: give 1 to {MAX_FLOWS}",
                self.flows
            )));
        }
        if !(1..=MAX_CONCURRENCY).contains(&self.concurrency) {
            return Err(Error::Usage(format!(
                "--concurrency {}: give 1 to {MAX_CONCURRENCY}",
                self.concurrency
            )));
        }
        if self.duration.is_zero() || self.duration > Duration::from_secs(MAX_SECONDS) {
            return Err(Error::Usage(format!(
                "--seconds {}: give more than 0 and at most {MAX_SECONDS}",
                self.duration.as_secs_f64()
            )));
        }
        check_loopback(&self.url).map(drop)
    }

    /// The arguments that repeat this run exactly, defaults spelled out.
    pub fn command_line(&self) -> String {
        let mut line = format!(
            "--url {} --tool {} --flows {} --concurrency {} --seconds {}",
            self.url,
            self.tool,
            self.flows,
            self.concurrency,
            self.duration.as_secs_f64()
        );
        if self.json {
            line.push_str(" --json");
        }
        line
    }
}

/// Why a run did not start, or stopped before any flow.
#[derive(Debug)]
pub enum Error {
    /// `--help` was asked for.
    Help,
    /// A command line or option out of bounds.
    Usage(String),
    /// A URL whose host is not `127.0.0.1`, `localhost` or `[::1]`, or that does not parse.
    NotLoopback(String),
    /// A client could not connect (within the time bound).
    Connect(String),
}

impl Error {
    /// The process exit status for this error: 0 for `--help`, 2 for a usage error or a URL
    /// that is not loopback, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Help => 0,
            Error::Usage(_) | Error::NotLoopback(_) => 2,
            Error::Connect(_) => 1,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Help => f.write_str(USAGE),
            Error::Usage(message) => write!(f, "{message}"),
            Error::NotLoopback(message) => {
                write!(f, "refusing to load a non-loopback server: {message}")
            }
            Error::Connect(message) => write!(f, "cannot connect: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// Parses `url` as the HTTP client will, and accepts it only if it is `http` or `https` on
/// `127.0.0.1`, `localhost` or `[::1]`, without credentials.
pub fn check_loopback(url: &str) -> Result<reqwest::Url, Error> {
    let parsed = reqwest::Url::parse(url)
        .map_err(|e| Error::NotLoopback(format!("`{url}` is not a URL ({e})")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(Error::NotLoopback(format!(
            "`{url}`: the scheme must be http or https"
        )));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(Error::NotLoopback(format!(
            "`{url}`: no user or password in the URL"
        )));
    }
    // The URL parser writes hosts canonically: lowercase, IPv4 in dotted decimal (so `127.1`
    // is 127.0.0.1), IPv6 compressed and bracketed.
    let loopback = matches!(parsed.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
    if !loopback {
        return Err(Error::NotLoopback(format!(
            "`{url}`: the host must be 127.0.0.1, localhost or [::1], not {}",
            parsed.host_str().unwrap_or("(none)")
        )));
    }
    Ok(parsed)
}

/// Percentiles of latency samples, in microseconds (nearest rank on the sorted samples).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Percentiles {
    pub count: usize,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub max: u64,
}

impl Percentiles {
    /// The percentiles of `samples`: all zero if there are none.
    pub fn of(mut samples: Vec<u64>) -> Self {
        samples.sort_unstable();
        let count = samples.len();
        let at = |p: f64| match count {
            0 => 0,
            n => samples[((p * n as f64).ceil() as usize).clamp(1, n) - 1],
        };
        Self {
            count,
            p50: at(0.50),
            p90: at(0.90),
            p99: at(0.99),
            max: samples.last().copied().unwrap_or(0),
        }
    }
}

/// The smallest and largest `requestState` a round handed back, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Sizes {
    pub min: usize,
    pub max: usize,
}

/// One request index of a flow (the first call is request 1), over the completed flows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestStats {
    pub request: usize,
    /// The key this request answers (none for the first call).
    pub answers: Option<String>,
    /// The key the response asks (none for the final request, which must complete).
    pub asks: Option<String>,
    pub latency_us: Percentiles,
    /// The `requestState` the response carried (none for the final request).
    pub state_bytes: Option<Sizes>,
}

/// The parameters a run used, defaults included.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parameters {
    pub url: String,
    pub tool: &'static str,
    pub flows: u64,
    pub concurrency: usize,
    pub seconds: f64,
    pub json: bool,
}

/// What a run measured. `Display` is the human-readable summary; [`Report::to_json`] the JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub parameters: Parameters,
    /// The arguments that repeat this run ([`Options::command_line`]).
    pub command_line: String,
    /// Workers that ran, each with one client: `concurrency`, at most `flows`.
    pub workers: usize,
    pub started: u64,
    /// Flows that ended with the scripted result after the scripted rounds.
    pub completed: u64,
    /// Flows that ended any other way (a wrong key, result or error).
    pub failed: u64,
    /// Flows still in flight when the time bound fired; neither completed nor failed.
    pub cut_off: u64,
    /// `"flows"` or `"seconds"`: the bound that ended the run.
    pub stopped_by: &'static str,
    /// From the first flow to the end of the last, in seconds (connecting not included).
    pub elapsed_s: f64,
    pub flows_per_s: f64,
    pub requests_per_s: f64,
    /// `InputRequiredResult`s per completed flow (the questions asked).
    pub rounds_per_flow: usize,
    /// `tools/call` requests per completed flow: the rounds plus the final call.
    pub requests_per_flow: usize,
    /// Every request of the completed flows.
    pub latency_us: Percentiles,
    /// Whole completed flows, first request to result.
    pub flow_latency_us: Percentiles,
    /// Per request index of a flow.
    pub requests: Vec<RequestStats>,
    /// The reasons of the first failed flows (by flow number), at most [`MAX_REASONS`].
    pub failures: Vec<String>,
}

impl Report {
    /// No flow failed, and at least one completed.
    pub fn passed(&self) -> bool {
        self.failed == 0 && self.completed > 0
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a report serializes")
    }

    /// The report as one line of JSON, its fields in the order of [`Report`].
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a report serializes")
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.parameters;
        writeln!(f, "loadgen {}", self.command_line)?;
        writeln!(
            f,
            "flows: {} completed, {} failed, {} cut off by the time bound, of {} started \
             ({} workers); stopped by --{}",
            self.completed, self.failed, self.cut_off, self.started, self.workers, self.stopped_by
        )?;
        writeln!(
            f,
            "elapsed {:.3} s: {:.1} flows/s, {:.1} requests/s",
            self.elapsed_s, self.flows_per_s, self.requests_per_s
        )?;
        writeln!(
            f,
            "per {} flow: {} input rounds + the final call = {} tools/call requests",
            p.tool, self.rounds_per_flow, self.requests_per_flow
        )?;
        let line = |l: &Percentiles| {
            format!(
                "p50 {} p90 {} p99 {} max {} ({} samples)",
                l.p50, l.p90, l.p99, l.max, l.count
            )
        };
        writeln!(f, "latency per request (us): {}", line(&self.latency_us))?;
        writeln!(
            f,
            "latency per flow (us):    {}",
            line(&self.flow_latency_us)
        )?;
        writeln!(
            f,
            "{:>7}  {:<9} {:<9} {:>8} {:>8} {:>8} {:>8}  requestState bytes",
            "request", "answers", "asks", "p50 us", "p90 us", "p99 us", "max us"
        )?;
        for r in &self.requests {
            writeln!(
                f,
                "{:>7}  {:<9} {:<9} {:>8} {:>8} {:>8} {:>8}  {}",
                r.request,
                r.answers.as_deref().unwrap_or(match r.request {
                    1 => "-",
                    _ => "(a key)",
                }),
                r.asks.as_deref().unwrap_or(match r.state_bytes {
                    Some(_) => "(a key)",
                    None => "(result)",
                }),
                r.latency_us.p50,
                r.latency_us.p90,
                r.latency_us.p99,
                r.latency_us.max,
                r.state_bytes
                    .map_or("-".to_owned(), |s| format!("{}..{}", s.min, s.max))
            )?;
        }
        if !self.failures.is_empty() {
            writeln!(
                f,
                "failures (the first {} of {}):",
                self.failures.len(),
                self.failed
            )?;
            for reason in &self.failures {
                writeln!(f, "  {reason}")?;
            }
        }
        Ok(())
    }
}

type Client = RunningService<RoleClient, ClientConfig>;

/// What every worker shares.
struct Shared {
    script: Script,
    arguments: JsonObject,
    flows: u64,
    next: AtomicU64,
    deadline: tokio::time::Instant,
}

/// One completed flow.
struct Flow {
    latencies_us: Vec<u64>,
    state_bytes: Vec<usize>,
    total_us: u64,
}

/// One worker's counts and samples.
struct Tally {
    started: u64,
    completed: u64,
    failed: u64,
    cut_off: u64,
    hit_deadline: bool,
    /// Per request index.
    latencies_us: Vec<Vec<u64>>,
    /// Per round index.
    state_bytes: Vec<Option<Sizes>>,
    flow_us: Vec<u64>,
    failures: Vec<(u64, String)>,
    finished: Instant,
}

impl Tally {
    fn new(rounds: usize) -> Self {
        Self {
            started: 0,
            completed: 0,
            failed: 0,
            cut_off: 0,
            hit_deadline: false,
            latencies_us: vec![Vec::new(); rounds + 1],
            state_bytes: vec![None; rounds],
            flow_us: Vec::new(),
            failures: Vec::new(),
            finished: Instant::now(),
        }
    }

    fn complete(&mut self, flow: Flow) {
        self.completed += 1;
        for (samples, latency) in self.latencies_us.iter_mut().zip(flow.latencies_us) {
            samples.push(latency);
        }
        for (sizes, bytes) in self.state_bytes.iter_mut().zip(flow.state_bytes) {
            *sizes = Some(match *sizes {
                None => Sizes {
                    min: bytes,
                    max: bytes,
                },
                Some(s) => Sizes {
                    min: s.min.min(bytes),
                    max: s.max.max(bytes),
                },
            });
        }
        self.flow_us.push(flow.total_us);
    }

    fn fail(&mut self, flow: u64, reason: String) {
        self.failed += 1;
        if self.failures.len() < MAX_REASONS {
            self.failures.push((flow, reason));
        }
    }

    fn merge(&mut self, other: Tally) {
        self.started += other.started;
        self.completed += other.completed;
        self.failed += other.failed;
        self.cut_off += other.cut_off;
        self.hit_deadline |= other.hit_deadline;
        for (mine, theirs) in self.latencies_us.iter_mut().zip(other.latencies_us) {
            mine.extend(theirs);
        }
        for (mine, theirs) in self.state_bytes.iter_mut().zip(other.state_bytes) {
            *mine = match (*mine, theirs) {
                (Some(a), Some(b)) => Some(Sizes {
                    min: a.min.min(b.min),
                    max: a.max.max(b.max),
                }),
                (a, b) => a.or(b),
            };
        }
        self.flow_us.extend(other.flow_us);
        self.failures.extend(other.failures);
        self.finished = self.finished.max(other.finished);
    }
}

/// The HTTP client of every worker: no proxy, no redirects, `localhost` pinned to loopback,
/// and no idle connection pooling, as rmcp's default client.
fn http_client() -> Result<reqwest::Client, Error> {
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .resolve_to_addrs(
            "localhost",
            &[
                SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
                SocketAddr::from((Ipv6Addr::LOCALHOST, 0)),
            ],
        )
        .pool_max_idle_per_host(0)
        .build()
        .map_err(|e| Error::Connect(format!("the HTTP client: {e}")))
}

async fn connect(http: reqwest::Client, url: &str) -> Result<Client, Error> {
    let transport = StreamableHttpClientTransport::with_client(
        http,
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()),
    );
    let config: ClientConfig = elicitation_client();
    config
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .map_err(|e| Error::Connect(format!("{url}: {e}")))
}

/// Runs the load: connects `concurrency` clients (at most `flows`), drives flows until either
/// bound, and reports. Refuses a URL that is not loopback before sending anything.
pub async fn run(options: &Options) -> Result<Report, Error> {
    options.validate()?;
    let deadline = tokio::time::Instant::now() + options.duration;
    let script = options.tool.script();
    let arguments: JsonObject = serde_json::from_value(script.arguments.clone())
        .expect("a script's arguments are an object");
    let rounds = script.rounds.len();
    let workers = options
        .concurrency
        .min(usize::try_from(options.flows).unwrap_or(usize::MAX));

    let http = http_client()?;
    let mut clients = Vec::with_capacity(workers);
    for _ in 0..workers {
        let client = tokio::time::timeout_at(deadline, connect(http.clone(), &options.url))
            .await
            .map_err(|_| {
                Error::Connect(format!("{}: no connection within --seconds", options.url))
            })??;
        clients.push(client);
    }

    let shared = Arc::new(Shared {
        script,
        arguments,
        flows: options.flows,
        next: AtomicU64::new(0),
        deadline,
    });
    let start = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for client in clients {
        tasks.spawn(work(client, shared.clone()));
    }
    let mut tally = Tally::new(rounds);
    tally.finished = start;
    while let Some(done) = tasks.join_next().await {
        tally.merge(done.expect("a load worker does not panic"));
    }
    Ok(report(options, &shared.script, workers, start, tally))
}

async fn work(client: Client, shared: Arc<Shared>) -> Tally {
    let mut tally = Tally::new(shared.script.rounds.len());
    loop {
        if tokio::time::Instant::now() >= shared.deadline {
            tally.hit_deadline = true;
            break;
        }
        let flow = shared.next.fetch_add(1, Ordering::Relaxed);
        if flow >= shared.flows {
            break;
        }
        tally.started += 1;
        match tokio::time::timeout_at(shared.deadline, one_flow(&client, &shared)).await {
            Ok(Ok(done)) => tally.complete(done),
            Ok(Err(reason)) => tally.fail(flow, format!("flow {}: {reason}", flow + 1)),
            Err(_) => {
                tally.cut_off += 1;
                tally.hit_deadline = true;
                break;
            }
        }
    }
    tally.finished = Instant::now();
    // Closing a stateless client sends nothing; bounded all the same.
    let _ = tokio::time::timeout(Duration::from_secs(1), client.cancel()).await;
    tally
}

/// One flow, each round timed; `Err` says why it is not the scripted flow.
async fn one_flow(client: &Client, shared: &Shared) -> Result<Flow, String> {
    let script = &shared.script;
    let rounds = script.rounds.len();
    let mut flow = Flow {
        latencies_us: Vec::with_capacity(rounds + 1),
        state_bytes: Vec::with_capacity(rounds),
        total_us: 0,
    };
    let flow_start = Instant::now();
    let mut answer: Option<(String, &Value, String)> = None;
    for request in 1..=rounds + 1 {
        let mut params =
            CallToolRequestParams::new(script.tool).with_arguments(shared.arguments.clone());
        if let Some((key, value, state)) = answer.take() {
            let mut responses = InputResponses::new();
            responses.insert(key, value.clone());
            params.input_responses = Some(responses);
            params.request_state = Some(state);
        }
        let sent = Instant::now();
        let response = client
            .call_tool_once(params)
            .await
            .map_err(|e| format!("request {request}: {e}"))?;
        flow.latencies_us.push(micros(sent.elapsed()));
        match response {
            CallToolResponse::Complete(result) => {
                if request <= rounds {
                    return Err(format!(
                        "request {request}: a result where `{}` should be asked: {}",
                        script.rounds[request - 1]
                            .0
                            .as_deref()
                            .unwrap_or("a question"),
                        describe(&result)
                    ));
                }
                check_result(script, &result).map_err(|e| format!("request {request}: {e}"))?;
                flow.total_us = micros(flow_start.elapsed());
                return Ok(flow);
            }
            CallToolResponse::InputRequired(input) => {
                let keys: Vec<String> = input
                    .input_requests
                    .map(|requests| requests.into_keys().collect())
                    .unwrap_or_default();
                let Some((expected, value)) = script.rounds.get(request - 1) else {
                    return Err(format!(
                        "request {request}: asks {keys:?} after the scripted {rounds} rounds"
                    ));
                };
                let key = match (keys.as_slice(), expected) {
                    ([key], Some(expected)) if key == expected => key.clone(),
                    ([key], None) => key.clone(),
                    (_, Some(expected)) => {
                        return Err(format!(
                            "request {request}: asks {keys:?}, the script expects [\"{expected}\"]"
                        ));
                    }
                    (_, None) => {
                        return Err(format!(
                            "request {request}: asks {keys:?}, the script expects one question"
                        ));
                    }
                };
                let state = input
                    .request_state
                    .filter(|state| !state.is_empty())
                    .ok_or_else(|| format!("request {request}: `{key}` without a requestState"))?;
                flow.state_bytes.push(state.len());
                answer = Some((key, value, state));
            }
            CallToolResponse::Task(_) => {
                return Err(format!("request {request}: the server made a task"));
            }
            other => return Err(format!("request {request}: unexpected response {other:?}")),
        }
    }
    unreachable!("the last request either completes or returns an error")
}

fn check_result(script: &Script, result: &CallToolResult) -> Result<(), String> {
    let text = text_of(result);
    if result.is_error == Some(true) {
        return Err(format!("the tool failed: {text:?}"));
    }
    if text != script.text {
        return Err(format!("result {text:?}, expected {:?}", script.text));
    }
    if let Some(structured) = &script.structured
        && result.structured_content.as_ref() != Some(structured)
    {
        return Err(format!(
            "structuredContent {}, expected {}",
            result
                .structured_content
                .as_ref()
                .map_or("none".to_owned(), Value::to_string),
            structured
        ));
    }
    Ok(())
}

fn describe(result: &CallToolResult) -> String {
    format!(
        "{}{:?}",
        if result.is_error == Some(true) {
            "error "
        } else {
            ""
        },
        text_of(result)
    )
}

fn micros(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX)
}

fn report(
    options: &Options,
    script: &Script,
    workers: usize,
    start: Instant,
    mut tally: Tally,
) -> Report {
    let elapsed = tally.finished.saturating_duration_since(start);
    let elapsed_s = elapsed.as_secs_f64();
    let per_s = |count: f64| {
        if elapsed_s > 0.0 {
            count / elapsed_s
        } else {
            0.0
        }
    };
    tally.failures.sort_by_key(|(flow, _)| *flow);
    let requests_per_flow = tally.latencies_us.iter().filter(|s| !s.is_empty()).count();
    let rounds_per_flow = tally.state_bytes.iter().filter(|s| s.is_some()).count();
    let requests_sent: usize = tally.latencies_us.iter().map(Vec::len).sum();
    let all: Vec<u64> = tally.latencies_us.iter().flatten().copied().collect();
    let requests = tally
        .latencies_us
        .into_iter()
        .enumerate()
        .map(|(index, samples)| RequestStats {
            request: index + 1,
            answers: index
                .checked_sub(1)
                .and_then(|i| script.rounds[i].0.clone()),
            asks: script.rounds.get(index).and_then(|(key, _)| key.clone()),
            latency_us: Percentiles::of(samples),
            state_bytes: tally.state_bytes.get(index).copied().flatten(),
        })
        .collect();
    Report {
        parameters: Parameters {
            url: options.url.clone(),
            tool: options.tool.name(),
            flows: options.flows,
            concurrency: options.concurrency,
            seconds: options.duration.as_secs_f64(),
            json: options.json,
        },
        command_line: options.command_line(),
        workers,
        started: tally.started,
        completed: tally.completed,
        failed: tally.failed,
        cut_off: tally.cut_off,
        stopped_by: if tally.hit_deadline {
            "seconds"
        } else {
            "flows"
        },
        elapsed_s,
        flows_per_s: per_s(tally.completed as f64),
        requests_per_s: per_s(requests_sent as f64),
        rounds_per_flow,
        requests_per_flow,
        latency_us: Percentiles::of(all),
        flow_latency_us: Percentiles::of(tally.flow_us),
        requests,
        failures: tally
            .failures
            .into_iter()
            .take(MAX_REASONS)
            .map(|(_, reason)| reason)
            .collect(),
    }
}
