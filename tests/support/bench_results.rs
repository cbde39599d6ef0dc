//! Where the benchmarks leave their results: one JSON object per benchmark under
//! `target/bench-results/`, which `bench-plots` reads.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// Cargo's `target/` folder, or `CARGO_TARGET_DIR` when that is set.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
}

/// `target/bench-results/`.
pub fn dir() -> PathBuf {
    target_dir().join("bench-results")
}

/// Writes `measured`, a JSON object, into `dir()/name`, keeping the keys of an earlier run that
/// this one did not measure: a run of one part of a benchmark does not erase the others.
/// Returns the path.
pub fn merge_into(name: &str, measured: Value) -> std::io::Result<PathBuf> {
    merge(&dir(), name, measured)
}

fn merge(dir: &Path, name: &str, measured: Value) -> std::io::Result<PathBuf> {
    let Value::Object(measured) = measured else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{name}: results must be a JSON object, not {measured}"),
        ));
    };
    std::fs::create_dir_all(dir)?;
    let path = dir.join(name);
    let mut results = match std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
    {
        Some(Value::Object(earlier)) => earlier,
        _ => Map::new(),
    };
    results.extend(measured);
    let text =
        serde_json::to_string_pretty(&Value::Object(results)).map_err(std::io::Error::other)?;
    std::fs::write(&path, text)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(path: &Path) -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn a_partial_run_keeps_what_it_did_not_measure() {
        let dir = tempfile::tempdir().unwrap();
        let path = merge(dir.path(), "r.json", json!({"a": 1, "b": 2})).unwrap();
        merge(dir.path(), "r.json", json!({"b": 3, "c": 4})).unwrap();
        assert_eq!(read(&path), json!({"a": 1, "b": 3, "c": 4}));
    }

    #[test]
    fn results_that_are_not_an_object_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let error = merge(dir.path(), "r.json", json!([1, 2])).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
        assert!(!dir.path().join("r.json").exists());
    }

    #[test]
    fn an_unreadable_earlier_file_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("r.json"), "not json").unwrap();
        let path = merge(dir.path(), "r.json", json!({"a": 1})).unwrap();
        assert_eq!(read(&path), json!({"a": 1}));
    }
}
