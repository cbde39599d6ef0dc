//! The wizard driven by the official MCP Inspector (`@modelcontextprotocol/inspector` 2.12.0,
//! pinned in `tests/peers/`), over loopback Streamable HTTP with the wizard served in this
//! process by `serve_http` (clients of every era, so 2025-11-25 sessions run through
//! [`mrtr::Bridged`]). Two of its clients:
//!
//! - the CLI (`inspector --cli`), one request per run. It declares no elicitation, so `signup`
//!   cannot ask its questions: on 2026-07-28 (`--protocol-era modern`) the call fails with
//!   `-32021`, on a 2025-11-25 session (`--protocol-era legacy`) the tool ends with a tool error.
//! - `mcpdo`, whose daemon holds a named connection across runs and which answers a pending
//!   elicitation with `elicitation/respond`: each run of ours is one answer, so `signup` goes
//!   round by round, in either era.
//!
//! Each test gets its own `HOME` (the Inspector keeps its catalog and secrets in
//! `~/.mcp-inspector`) and `TMPDIR` (where `mcpdo private` puts its daemon's socket), both in a
//! temporary folder under Cargo's target directory, and its own token-gated `mcpdo` daemon,
//! stopped when the test ends, passed or not.

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use mrtr_examples::wizard::Wizard;
use mrtr_tests::{clock::TestClock, loopback::Served, peers};
use mrtr_tests::{driver_output::*, wizard_text::*};
use serde_json::{Value, json};
use tempfile::TempDir;

/// Every test body runs under this bound; each Inspector run under [`peers::DRIVER_TIMEOUT`].
const TEST_TIMEOUT: Duration = Duration::from_secs(120);

/// What the server says, as the CLI prints it, when a 2026-07-28 call needs elicitation from
/// a client that declared none (`-32021`; its `data.requiredCapabilities` is `elicitation`,
/// which the CLI does not print).
const MISSING_CAPABILITY: &str = "Missing required client capability";

/// The tool error of a 2025-11-25 session whose client declared no elicitation.
const NO_ELICITATION: &str =
    "Client does not support elicitation (required for elicitation/create)";

/// The exit code of the CLI and of `mcpdo` when a request failed (the error on stderr).
const EXIT_ERROR: i32 = 1;
/// Their exit code when the tool ended with `isError` (the result on stdout).
const EXIT_TOOL_ERROR: i32 = 5;

/// The Inspector's package in `tests/peers/node_modules`.
fn inspector_dir() -> PathBuf {
    peers::dir().join("node_modules/@modelcontextprotocol/inspector")
}

/// The CLI's entry point (the launcher, which runs the CLI in process with `--cli`).
fn cli_script() -> PathBuf {
    inspector_dir().join("clients/launcher/build/index.js")
}

/// `mcpdo`'s entry point.
fn mcpdo_script() -> PathBuf {
    inspector_dir().join("clients/mcpdo/build/mcp-bin.js")
}

/// A test's own `HOME` and `TMPDIR`, removed when dropped.
struct Home {
    dir: TempDir,
}

impl Home {
    fn new() -> anyhow::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("inspector")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))?;
        std::fs::create_dir(dir.path().join("tmp"))?;
        Ok(Self { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The environment of an Inspector run: this `HOME` and `TMPDIR`, the secret store in a
    /// file there (no keychain), no daemon but the one given, no proxy (loopback only).
    fn configure(&self, command: &mut tokio::process::Command) {
        for inherited in [
            "MCP_INSPECTOR_DAEMON_DIR",
            "MCP_INSPECTOR_DAEMON_TOKEN",
            "MCP_STORAGE_DIR",
            "MCP_CATALOG_PATH",
        ]
        .into_iter()
        .chain(peers::PROXY_VARIABLES)
        {
            command.env_remove(inherited);
        }
        command
            .env("HOME", self.path())
            .env("TMPDIR", self.path().join("tmp"))
            .env("MCP_INSPECTOR_SECRET_STORE", "file")
            .env("MCP_ALLOW_DEFAULT_CONNECTION", "0")
            .env("NO_COLOR", "1")
            .env("NO_PROXY", "127.0.0.1")
            .env("no_proxy", "127.0.0.1")
            .current_dir(self.path());
    }
}

/// How one Inspector run ended.
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Ran {
    /// Its standard output, which `--format json` makes one JSON document.
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}):\nstdout: {}\nstderr: {}",
                self.stdout, self.stderr
            )
        })
    }

    /// The error the run reported on stderr: `{"error": {"code", "message"}}`, one line.
    fn error(&self) -> Value {
        self.stderr
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line.trim()).ok())
            .find_map(|line| line.get("error").cloned())
            .unwrap_or_else(|| panic!("no error on stderr: {}", self.stderr))
    }

    fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code,
            Some(code),
            "exit code\nstdout: {}\nstderr: {}",
            self.stdout,
            self.stderr
        );
        self
    }
}

/// Runs `node script args..` in `home` with `env` added, killed after
/// [`peers::DRIVER_TIMEOUT`].
async fn run(
    node: &Path,
    script: &Path,
    args: &[&str],
    home: &Home,
    env: &[(String, String)],
) -> anyhow::Result<Ran> {
    let mut command = tokio::process::Command::new(node);
    command.arg(script).args(args);
    home.configure(&mut command);
    command
        .envs(env.iter().map(|(key, value)| (key, value)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let child = command
        .spawn()
        .map_err(|e| anyhow::anyhow!("could not start {}: {e}", node.display()))?;
    let output = tokio::time::timeout(peers::DRIVER_TIMEOUT, child.wait_with_output())
        .await
        .map_err(|_| {
            anyhow::anyhow!(
                "{} {args:?} did not finish within {:?} and was killed",
                script.display(),
                peers::DRIVER_TIMEOUT
            )
        })??;
    Ok(Ran {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    })
}

/// A fresh wizard on loopback and Node, with a home for the Inspector.
struct Setup {
    /// Stopped when dropped.
    served: Served,
    node: PathBuf,
    home: Home,
}

impl Setup {
    async fn start() -> anyhow::Result<Self> {
        let node = tokio::task::spawn_blocking(peers::node).await?;
        Ok(Self {
            served: Served::start(Wizard::new(TestClock::default().engine())).await?,
            node,
            home: Home::new()?,
        })
    }

    /// One run of the CLI against the wizard in `era` (`modern` or `legacy`).
    async fn cli(&self, era: &str, args: &[&str]) -> anyhow::Result<Ran> {
        let target = [
            "--cli",
            &self.served.url,
            "--protocol-era",
            era,
            "--format",
            "json",
        ];
        let args: Vec<&str> = target.iter().chain(args).copied().collect();
        run(&self.node, &cli_script(), &args, &self.home, &[]).await
    }
}

/// Runs `body` under [`TEST_TIMEOUT`].
async fn bounded(body: impl Future<Output = anyhow::Result<()>>) -> anyhow::Result<()> {
    tokio::time::timeout(TEST_TIMEOUT, body)
        .await
        .map_err(|_| anyhow::anyhow!("the test did not finish within {TEST_TIMEOUT:?}"))?
}

/// `tools/call signup` with team Rust.
const CALL_SIGNUP: [&str; 6] = [
    "--method",
    "tools/call",
    "--tool-name",
    "signup",
    "--tool-arg",
    "team=Rust",
];

/// The CLI on 2026-07-28 lists the wizard's tools, but cannot call `signup`: it declares no
/// elicitation, so the server refuses the call with `-32021` rather than ask.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_modern_lists_signup_but_cannot_answer_it() -> anyhow::Result<()> {
    bounded(async {
        let setup = Setup::start().await?;

        let listed = setup.cli("modern", &["--method", "tools/list"]).await?;
        let tools = listed.expect_code(0).json();
        let names: Vec<&str> = tools["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("no tools: {tools}"))
            .iter()
            .filter_map(|tool| tool["name"].as_str())
            .collect();
        assert!(names.contains(&"signup"), "{names:?}");
        assert!(names.contains(&"onboard"), "{names:?}");

        let called = setup.cli("modern", &CALL_SIGNUP).await?;
        called.expect_code(EXIT_ERROR);
        assert_eq!(called.stdout.trim(), "", "no result: {}", called.stderr);
        assert_eq!(called.error()["message"], MISSING_CAPABILITY);
        Ok(())
    })
    .await
}

/// The CLI on a 2025-11-25 session, with no elicitation declared: [`mrtr::Bridged`] cannot
/// ask the first question on the session, and `signup` ends with a tool error saying why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_legacy_signup_ends_without_elicitation() -> anyhow::Result<()> {
    bounded(async {
        let setup = Setup::start().await?;

        let listed = setup.cli("legacy", &["--method", "tools/list"]).await?;
        let tools = listed.expect_code(0).json();
        assert!(
            tools["result"]["tools"]
                .as_array()
                .is_some_and(|tools| tools.iter().any(|tool| tool["name"] == "signup")),
            "{tools}"
        );

        let called = setup.cli("legacy", &CALL_SIGNUP).await?;
        let output = called.expect_code(EXIT_TOOL_ERROR).json();
        assert_tool_error(&output["result"], NO_ELICITATION);
        assert_eq!(called.error()["code"], "tool_is_error");
        Ok(())
    })
    .await
}

/// A private `mcpdo` daemon in a test's home, with one connection to the wizard, named
/// [`Mcpdo::CONNECTION`]. Dropping it stops the daemon: `mcpdo daemon stop`, then, if the
/// daemon is still there after a while, a kill of its pid.
struct Mcpdo {
    node: PathBuf,
    /// `MCP_INSPECTOR_DAEMON_DIR` and `MCP_INSPECTOR_DAEMON_TOKEN`, from `mcpdo private`.
    daemon: Vec<(String, String)>,
    /// Where the daemon writes its pid (`mcpdod.lock`), read when stopping it.
    daemon_dir: PathBuf,
    home_dir: PathBuf,
}

impl Mcpdo {
    const CONNECTION: &str = "wizard";

    /// Starts a private daemon (on the first command after `mcpdo private`) and connects it
    /// to the wizard in `era`; checks the protocol version the connection negotiated.
    async fn connect(setup: &Setup, era: &str) -> anyhow::Result<Self> {
        let private = run(&setup.node, &mcpdo_script(), &["private"], &setup.home, &[]).await?;
        private.expect_code(0);
        // `export NAME='value'` lines, for a shell to eval.
        let daemon: Vec<(String, String)> = private
            .stdout
            .lines()
            .filter_map(|line| line.strip_prefix("export ")?.split_once('='))
            .map(|(name, value)| (name.to_owned(), value.trim_matches('\'').to_owned()))
            .collect();
        let daemon_dir = daemon
            .iter()
            .find(|(name, _)| name == "MCP_INSPECTOR_DAEMON_DIR")
            .map(|(_, dir)| PathBuf::from(dir))
            .ok_or_else(|| {
                anyhow::anyhow!("no daemon dir from mcpdo private: {}", private.stdout)
            })?;
        anyhow::ensure!(
            daemon_dir.starts_with(setup.home.path()),
            "the daemon is not in the test's TMPDIR: {}",
            daemon_dir.display()
        );
        anyhow::ensure!(
            daemon
                .iter()
                .any(|(name, _)| name == "MCP_INSPECTOR_DAEMON_TOKEN"),
            "no daemon token from mcpdo private: {}",
            private.stdout
        );
        let mcpdo = Self {
            node: setup.node.clone(),
            daemon,
            daemon_dir,
            home_dir: setup.home.path().to_owned(),
        };

        let config = setup.home.path().join("mcp.json");
        let entry =
            json!({ "type": "streamable-http", "url": setup.served.url, "protocolEra": era });
        std::fs::write(
            &config,
            json!({ "mcpServers": { Self::CONNECTION: entry } }).to_string(),
        )?;
        let config = config.to_str().expect("a UTF-8 path");
        let connected = mcpdo
            .run(
                &setup.home,
                &["connect", Self::CONNECTION, "--config", config],
            )
            .await?;
        assert_eq!(connected.expect_code(0).json()["protocolEra"], era);

        let shown = mcpdo
            .run(&setup.home, &["connections/show", Self::CONNECTION])
            .await?;
        let shown = shown.expect_code(0).json();
        let version = match era {
            "modern" => "2026-07-28",
            _ => "2025-11-25",
        };
        assert_eq!(shown["protocolVersion"], version, "{shown}");
        assert_eq!(shown["serverInfo"]["name"], "mrtr-wizard", "{shown}");
        Ok(mcpdo)
    }

    /// One `mcpdo` run against the daemon, with JSON output.
    async fn run(&self, home: &Home, args: &[&str]) -> anyhow::Result<Ran> {
        let args: Vec<&str> = args.iter().copied().chain(["--format", "json"]).collect();
        run(&self.node, &mcpdo_script(), &args, home, &self.daemon).await
    }

    /// A command on the connection: `tools/call` or `elicitation/respond`.
    async fn on_connection(&self, home: &Home, args: &[&str]) -> anyhow::Result<Ran> {
        let args: Vec<&str> = ["--connection", Self::CONNECTION]
            .into_iter()
            .chain(args.iter().copied())
            .collect();
        self.run(home, &args).await
    }

    /// Starts `signup` for team Rust; it must ask its first question.
    async fn call_signup(&self, home: &Home) -> anyhow::Result<Pending> {
        let ran = self
            .on_connection(home, &["tools/call", "signup", "team:=Rust"])
            .await?;
        Ok(Pending::from(&ran))
    }

    /// Answers `pending` with `reply` (`name:=value` fields, `--decline` or `--cancel`).
    async fn respond(&self, home: &Home, pending: &Pending, reply: &[&str]) -> anyhow::Result<Ran> {
        let args: Vec<&str> = ["elicitation/respond", pending.id.as_str()]
            .into_iter()
            .chain(reply.iter().copied())
            .collect();
        self.on_connection(home, &args).await
    }

    /// The pid in the daemon's lock file, if it is still a live `mcpdod` process.
    fn live_daemon(&self) -> Option<u32> {
        let pid: u32 = std::fs::read_to_string(self.daemon_dir.join("mcpdod.lock"))
            .ok()?
            .trim()
            .parse()
            .ok()?;
        // Empty for a zombie; another program's if the pid was reused.
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
        String::from_utf8_lossy(&cmdline)
            .contains("mcpdo")
            .then_some(pid)
    }
}

impl Drop for Mcpdo {
    fn drop(&mut self) {
        // Blocking, on a worker thread of the multi-threaded runtime; the wizard serves on.
        let mut stop = Command::new(&self.node);
        stop.arg(mcpdo_script())
            .args(["daemon", "stop"])
            .envs(self.daemon.iter().map(|(key, value)| (key, value)))
            .env("HOME", &self.home_dir)
            .env("TMPDIR", self.home_dir.join("tmp"))
            .env("MCP_INSPECTOR_SECRET_STORE", "file")
            .current_dir(&self.home_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Ok(mut stop) = stop.spawn() {
            let deadline = Instant::now() + Duration::from_secs(15);
            while matches!(stop.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = stop.kill();
            let _ = stop.wait();
        }
        // The daemon exits shortly after it answers `stop`.
        let deadline = Instant::now() + Duration::from_secs(5);
        while self.live_daemon().is_some() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        if let Some(pid) = self.live_daemon() {
            eprintln!("the mcpdo daemon {pid} outlived `daemon stop`; killing it");
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
    }
}

/// A question `mcpdo` is holding for an answer (`elicitationPending`).
struct Pending {
    id: String,
    message: String,
    /// The form's property names, sorted.
    properties: Vec<String>,
}

impl From<&Ran> for Pending {
    fn from(ran: &Ran) -> Self {
        let output = ran.expect_code(0).json();
        let pending = &output["elicitationPending"];
        let properties = pending["requestedSchema"]["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("no pending form: {output}"));
        let mut properties: Vec<String> = properties.keys().cloned().collect();
        properties.sort();
        Self {
            id: pending["elicitationId"]
                .as_str()
                .unwrap_or_else(|| panic!("no elicitationId: {output}"))
                .to_owned(),
            message: pending["message"].as_str().unwrap_or_default().to_owned(),
            properties,
        }
    }
}

impl Pending {
    fn expect(&self, message: &str, properties: &[&str]) {
        assert_eq!(self.message, message);
        assert_eq!(self.properties, properties, "the form of {message:?}");
    }
}

/// `signup` for team Rust, one `mcpdo` run per round: Ada (with an email), pro, confirmed.
async fn signup_round_by_round(era: &str) -> anyhow::Result<()> {
    let setup = Setup::start().await?;
    let mcpdo = Mcpdo::connect(&setup, era).await?;
    let home = &setup.home;

    let profile = mcpdo.call_signup(home).await?;
    profile.expect(WELCOME, &["email", "name"]);
    let answered = mcpdo
        .respond(home, &profile, &["name:=Ada", "email:=ada@example.com"])
        .await?;
    let plan = Pending::from(&answered);
    plan.expect(WHICH_PLAN, &["plan"]);
    assert_ne!(plan.id, profile.id, "each question has its own id");
    let confirm = Pending::from(&mcpdo.respond(home, &plan, &["plan:=pro"]).await?);
    confirm.expect(CONFIRM, &["confirm"]);
    let done = mcpdo.respond(home, &confirm, &["confirm:=true"]).await?;
    assert_completed(&done.expect_code(0).json(), SIGNED_UP, signed_up());

    // The question is answered: `mcpdo` no longer holds it (its own bookkeeping; nothing
    // reaches the wizard).
    let again = mcpdo.respond(home, &confirm, &["confirm:=true"]).await?;
    assert_eq!(
        again.expect_code(EXIT_ERROR).error()["code"],
        "elicitation_not_found"
    );
    Ok(())
}

/// `signup` for team Rust, the plan question declined: the tool refuses with a tool error.
async fn declining_the_plan_cancels_signup(era: &str) -> anyhow::Result<()> {
    let setup = Setup::start().await?;
    let mcpdo = Mcpdo::connect(&setup, era).await?;
    let home = &setup.home;

    let profile = mcpdo.call_signup(home).await?;
    profile.expect(WELCOME, &["email", "name"]);
    let plan = Pending::from(&mcpdo.respond(home, &profile, &["name:=Ada"]).await?);
    plan.expect(WHICH_PLAN, &["plan"]);
    let declined = mcpdo.respond(home, &plan, &["--decline"]).await?;
    let result = declined.expect_code(EXIT_TOOL_ERROR).json();
    assert_tool_error(&result, "Signup cancelled at plan");
    Ok(())
}

/// One module per protocol era `mcpdo` is told to use, one test per scenario.
macro_rules! mcpdo_tests {
    ($($(#[$doc:meta])* $module:ident: $era:literal;)*) => {
        $(
            $(#[$doc])*
            mod $module {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn signup_round_by_round() -> anyhow::Result<()> {
                    super::bounded(super::signup_round_by_round($era)).await
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn declining_the_plan_cancels_signup() -> anyhow::Result<()> {
                    super::bounded(super::declining_the_plan_cancels_signup($era)).await
                }
            }
        )*
    };
}

mcpdo_tests! {
    /// `mcpdo` on 2026-07-28: each answer is the next round of the multi round-trip request.
    mcpdo_modern: "modern";
    /// `mcpdo` on a 2025-11-25 session: each answer is the reply to the server's
    /// `elicitation/create`, which [`mrtr::Bridged`] turns into the tool's next round.
    mcpdo_legacy: "legacy";
}
