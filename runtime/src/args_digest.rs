//! A digest of a call's arguments that does not depend on the order of object keys.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// SHA-256 over a canonical encoding of `arguments`: object keys sorted, every value tagged by
/// kind and length-prefixed. Absent arguments and `{}` digest the same.
pub(crate) fn args_digest(arguments: Option<&serde_json::Map<String, Value>>) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"mrtr/args");
    match arguments {
        Some(map) => feed_object(&mut hasher, map),
        None => feed_object(&mut hasher, &serde_json::Map::new()),
    }
    hasher.finalize().into()
}

fn feed_str(hasher: &mut Sha256, text: &str) {
    hasher.update((text.len() as u64).to_le_bytes());
    hasher.update(text.as_bytes());
}

fn feed_object(hasher: &mut Sha256, map: &serde_json::Map<String, Value>) {
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort();
    hasher.update(b"o");
    hasher.update((keys.len() as u64).to_le_bytes());
    for key in keys {
        feed_str(hasher, key);
        feed(hasher, &map[key]);
    }
}

fn feed(hasher: &mut Sha256, value: &Value) {
    match value {
        Value::Null => hasher.update(b"z"),
        Value::Bool(b) => hasher.update(if *b { b"t" } else { b"f" }),
        Value::Number(n) => {
            hasher.update(b"n");
            feed_str(hasher, &n.to_string());
        }
        Value::String(s) => {
            hasher.update(b"s");
            feed_str(hasher, s);
        }
        Value::Array(items) => {
            hasher.update(b"a");
            hasher.update((items.len() as u64).to_le_bytes());
            items.iter().for_each(|item| feed(hasher, item));
        }
        Value::Object(map) => feed_object(hasher, map),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn digest(value: Value) -> [u8; 32] {
        args_digest(value.as_object())
    }

    #[test]
    fn key_order_does_not_matter_but_values_do() {
        assert_eq!(
            digest(json!({"a": 1, "b": {"x": [1, 2], "y": null}})),
            digest(json!({"b": {"y": null, "x": [1, 2]}, "a": 1}))
        );
        assert_ne!(digest(json!({"team": "a"})), digest(json!({"team": "b"})));
        assert_ne!(digest(json!({"a": "1"})), digest(json!({"a": 1})));
        assert_ne!(
            digest(json!({"a": ["b", "c"]})),
            digest(json!({"a": ["bc"]}))
        );
    }

    #[test]
    fn absent_and_empty_arguments_are_the_same_call() {
        assert_eq!(args_digest(None), digest(json!({})));
    }
}
