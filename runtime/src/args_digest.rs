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
    feed_entries(hasher, map.len(), map.iter());
}

/// An object's `len` entries, fed in key order.
fn feed_entries<'a>(
    hasher: &mut Sha256,
    len: usize,
    entries: impl Iterator<Item = (&'a String, &'a Value)> + Clone,
) {
    hasher.update(b"o");
    hasher.update((len as u64).to_le_bytes());
    // A map kept in key order (serde_json's without `preserve_order`) needs no sorting.
    if entries.clone().map(|(key, _)| key).is_sorted() {
        entries.for_each(|(key, value)| feed_entry(hasher, key, value));
    } else {
        let mut sorted: Vec<_> = entries.collect();
        sorted.sort_unstable_by_key(|(key, _)| *key);
        sorted
            .into_iter()
            .for_each(|(key, value)| feed_entry(hasher, key, value));
    }
}

fn feed_entry(hasher: &mut Sha256, key: &str, value: &Value) {
    feed_str(hasher, key);
    feed(hasher, value);
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

    /// With `preserve_order`, a map keeps the order its keys came in: fed in any order, the
    /// same entries digest the same.
    #[test]
    fn entries_in_any_order_digest_the_same() {
        let (a, b, c) = ("a".to_owned(), "b".to_owned(), "c".to_owned());
        let (one, two, three) = (json!(1), json!("two"), json!({"x": 3}));
        let sorted = [(&a, &one), (&b, &two), (&c, &three)];
        let digest_of = |entries: &[(&String, &Value)]| {
            let mut hasher = Sha256::new();
            feed_entries(&mut hasher, entries.len(), entries.iter().copied());
            hasher.finalize()
        };
        let expected = digest_of(&sorted);
        assert_eq!(digest_of(&[sorted[2], sorted[0], sorted[1]]), expected);
        assert_eq!(digest_of(&[sorted[1], sorted[2], sorted[0]]), expected);
        assert_ne!(digest_of(&[(&a, &two), (&b, &one), (&c, &three)]), expected);
        // The map as serde_json keeps it digests the same too.
        let map = json!({"c": {"x": 3}, "a": 1, "b": "two"});
        let mut hasher = Sha256::new();
        feed_object(&mut hasher, map.as_object().unwrap());
        assert_eq!(hasher.finalize(), expected);
    }

    #[test]
    fn absent_and_empty_arguments_are_the_same_call() {
        assert_eq!(args_digest(None), digest(json!({})));
    }
}
