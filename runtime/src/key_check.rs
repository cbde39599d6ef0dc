//! Refuses, at startup, a sealing key that cannot be a secret: one published in mrtr's docs,
//! or one of visibly low entropy. Random bytes pass every check here with certainty but for a
//! chance below 1 in 10^13.

use base64::{Engine as _, engine::general_purpose::STANDARD_NO_PAD};

/// Keys that appeared in mrtr's documentation and examples. Anyone can read them.
const PUBLISHED: &[&str] = &[
    "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8w",
    "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
];

/// Why `key` cannot seal states, as the end of a sentence that starts with "key N".
pub(crate) fn check(key: &[u8; 32]) -> Result<(), &'static str> {
    if PUBLISHED
        .iter()
        .filter_map(|published| STANDARD_NO_PAD.decode(published).ok())
        .any(|published| published == key)
    {
        return Err("is an example published in mrtr's documentation, so it is no secret");
    }
    let mut seen = [false; 256];
    key.iter().for_each(|byte| seen[usize::from(*byte)] = true);
    // 32 random bytes take fewer than 16 distinct values with a chance below 10^-13.
    if seen.iter().filter(|seen| **seen).count() < 16 {
        return Err("repeats too few byte values to be random (a repeated byte or pattern)");
    }
    let step = key[1].wrapping_sub(key[0]);
    if key
        .windows(2)
        .all(|pair| pair[1].wrapping_sub(pair[0]) == step)
    {
        return Err("is a counting sequence, not random bytes");
    }
    // All 32 bytes printable ASCII: a chance of (95/256)^32, below 10^-13.
    if key.iter().all(|byte| (0x20..0x7f).contains(byte)) {
        return Err("is printable text, not random bytes: a password is not a key");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_and_published_keys_are_refused() {
        let counting: [u8; 32] = std::array::from_fn(|i| i as u8);
        let stepping: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(7).wrapping_add(3));
        let pattern: [u8; 32] = std::array::from_fn(|i| [0xde, 0xad, 0xbe, 0xef][i % 4]);
        let text = *b"The quick brown fox jumps over!!";
        let published = STANDARD_NO_PAD.decode(PUBLISHED[0]).unwrap();
        let cases: [(&[u8; 32], &str); 6] = [
            (&[0; 32], "too few"),
            (&[0x41; 32], "too few"),
            (&pattern, "too few"),
            (&stepping, "counting"),
            (&text, "printable text"),
            (published.as_slice().try_into().unwrap(), "published"),
        ];
        for (key, expected) in cases {
            let problem = check(key).unwrap_err();
            assert!(problem.contains(expected), "{key:?}: {problem}");
        }
        assert!(check(&counting).is_err());
    }

    #[test]
    fn random_keys_pass() {
        for _ in 0..10_000 {
            let mut key = [0u8; 32];
            getrandom::getrandom(&mut key).unwrap();
            assert_eq!(check(&key), Ok(()), "{key:?}");
        }
    }
}
