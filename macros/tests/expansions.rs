//! Expansion snapshots, as `cargo expand` shows them: each file in `tests/expand/` against its
//! `.expanded.rs`. `MACROTEST=overwrite cargo test -p mrtr-macros --test expansions` rewrites
//! them. Needs `cargo expand`; this test installs a pinned copy under the target folder when
//! none is on `PATH`.

use std::{path::PathBuf, process::Command};

/// The `cargo-expand` the snapshots were written with: its output changes between versions.
const CARGO_EXPAND_VERSION: &str = "1.0.127";

#[test]
fn expansions_match_their_snapshots() {
    let tools = cargo_expand_dir();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(tools).chain(std::env::split_paths(&path)))
        .expect("PATH entries join");
    // SAFETY: this test binary has one test, and nothing else reads the environment meanwhile.
    unsafe { std::env::set_var("PATH", path) };
    // One file at a time, so that each expands as a crate named after its file: a glob would
    // name them by position, and a derive that writes `module_path!()` would change with that.
    let mut files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/expand"))
        .expect("tests/expand is readable")
        .map(|entry| entry.expect("tests/expand is readable").path())
        .filter(|path| {
            path.extension().is_some_and(|e| e == "rs")
                && !path.to_string_lossy().ends_with(".expanded.rs")
        })
        .collect::<Vec<_>>();
    files.sort();
    assert!(!files.is_empty(), "tests/expand has no cases");
    for file in files {
        if std::env::var_os("MACROTEST").is_some() {
            macrotest::expand(&file);
        } else {
            macrotest::expand_without_refresh(&file);
        }
    }
}

/// A folder holding `cargo-expand` at the pinned version, installed there on first use.
fn cargo_expand_dir() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cargo-expand");
    let bin = root.join("bin");
    let version = Command::new(bin.join("cargo-expand"))
        .arg("--version")
        .output();
    if version.is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains(CARGO_EXPAND_VERSION))
    {
        return bin;
    }
    // One install at a time, should two test runs start together.
    std::fs::create_dir_all(&root).expect("the target folder is writable");
    let lock = std::fs::File::create(root.join(".install.lock")).expect("create the install lock");
    lock.lock().expect("lock the cargo-expand install");
    let version = Command::new(bin.join("cargo-expand"))
        .arg("--version")
        .output();
    if version.is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains(CARGO_EXPAND_VERSION))
    {
        return bin;
    }
    let status = Command::new(env!("CARGO"))
        .args([
            "install",
            "--locked",
            "--quiet",
            "--version",
            CARGO_EXPAND_VERSION,
        ])
        .arg("--root")
        .arg(&root)
        .arg("cargo-expand")
        .status()
        .expect("cargo runs");
    assert!(
        status.success(),
        "installing cargo-expand {CARGO_EXPAND_VERSION} failed"
    );
    bin
}
