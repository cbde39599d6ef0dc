//! Types whose postcard form reads back by construction, known by their names, so that
//! [`Saver::save`](super::Saver::save) need not read each of their values back to find out.

/// Whether every value of `T` reads back from postcard: `T` is built only of primitives,
/// `String`, `&str` (read back interned, see `statics`), and `Vec`, `VecDeque`, `Option`, `Box`, `BTreeMap`, `BTreeSet`, tuples and arrays
/// of those, whose serde impls write what they read.
///
/// Anything else is `false` and its values are read back as before: every type of the
/// user's (whose impls may skip fields or be untagged), and any of these that a compiler names
/// otherwise than this knows (`type_name` is not stable), which costs time, never a state.
pub(crate) fn by_construction<T: ?Sized>() -> bool {
    known(std::any::type_name::<T>())
}

fn known(name: &str) -> bool {
    after_known(name) == Some("")
}

/// What follows the known type at the start of `name`, or `None` if none is there. Decided
/// by the first byte first: a name of the user's fails there, or at `alloc::` or `core::`.
fn after_known(name: &str) -> Option<&str> {
    const ALLOC_ONE_PARAMETER: [&str; 4] = [
        "vec::Vec<",
        "boxed::Box<",
        "collections::btree::set::BTreeSet<",
        "collections::vec_deque::VecDeque<",
    ];
    const NUMBERS: [&str; 14] = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        "f32", "f64",
    ];
    match name.as_bytes().first()? {
        b'a' => {
            let rest = name.strip_prefix("alloc::")?;
            if let Some(rest) = rest.strip_prefix("string::String") {
                return ends_a_name(rest);
            }
            if let Some(rest) = rest.strip_prefix("collections::btree::map::BTreeMap<") {
                let rest = after_known(rest)?.strip_prefix(", ")?;
                return after_known(rest)?.strip_prefix('>');
            }
            let rest = ALLOC_ONE_PARAMETER
                .iter()
                .find_map(|wrapper| rest.strip_prefix(wrapper))?;
            after_known(rest)?.strip_prefix('>')
        }
        b'c' => match name.strip_prefix("core::option::Option<") {
            Some(rest) => after_known(rest)?.strip_prefix('>'),
            None => ends_a_name(name.strip_prefix("char")?),
        },
        b'b' => ends_a_name(name.strip_prefix("bool")?),
        b'&' => ends_a_name(name.strip_prefix("&str")?),
        b'u' | b'i' | b'f' => NUMBERS
            .iter()
            .find_map(|number| ends_a_name(name.strip_prefix(number)?)),
        b'(' => after_tuple(&name[1..]),
        b'[' => {
            let rest = after_known(&name[1..])?.strip_prefix("; ")?;
            let digits = rest.find(|c: char| !c.is_ascii_digit())?;
            (digits > 0).then(|| rest[digits..].strip_prefix(']'))?
        }
        _ => None,
    }
}

/// `rest` if it is what may follow a whole name: `u8` must not match the start of `u8x4` or of
/// a path `u8::Thing`.
fn ends_a_name(rest: &str) -> Option<&str> {
    (rest.is_empty() || rest.starts_with(['>', ',', ')', ';'])).then_some(rest)
}

/// What follows a tuple whose `(` is already read: `()`, `(u8,)`, `(u8, bool)`.
fn after_tuple(mut rest: &str) -> Option<&str> {
    if let Some(after) = rest.strip_prefix(')') {
        return Some(after);
    }
    loop {
        rest = after_known(rest)?;
        if let Some(after) = rest.strip_prefix(",)").or_else(|| rest.strip_prefix(')')) {
            return Some(after);
        }
        rest = rest.strip_prefix(", ")?;
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

    use proptest::prelude::*;
    use serde::{Deserialize, Serialize};

    use super::*;

    #[derive(Serialize, Deserialize)]
    struct String;

    #[derive(Serialize, Deserialize)]
    struct Skips {
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<std::string::String>,
    }

    /// The names this rustc gives: if one changes, the saver reads those values back again,
    /// which is slower but still right; this test says so.
    #[test]
    fn the_composites_of_known_types_are_known() {
        assert!(by_construction::<std::string::String>());
        assert!(by_construction::<Vec<std::string::String>>());
        assert!(by_construction::<Option<Vec<u8>>>());
        assert!(by_construction::<Box<(u32, Option<std::string::String>)>>());
        assert!(by_construction::<(u8,)>());
        assert!(by_construction::<()>());
        assert!(by_construction::<[Option<i64>; 3]>());
        assert!(by_construction::<
            BTreeMap<std::string::String, Vec<(bool, char)>>,
        >());
        assert!(by_construction::<BTreeSet<u128>>());
        assert!(by_construction::<VecDeque<f64>>());
        assert!(by_construction::<(&str, Vec<&'static str>, Option<&str>)>());
        assert!(by_construction::<(usize, isize, f32, i8, i16, u16)>());
    }

    #[test]
    fn other_types_are_read_back() {
        // The user's own types, a `String` of theirs among them, and what holds one.
        assert!(!by_construction::<String>());
        assert!(!by_construction::<Skips>());
        assert!(!by_construction::<Vec<Skips>>());
        assert!(!by_construction::<(u8, Skips)>());
        assert!(!by_construction::<Option<BTreeMap<u8, Skips>>>());
        // Types postcard may not read back, or not known here.
        assert!(!by_construction::<serde_json::Value>());
        assert!(!by_construction::<HashMap<u8, u8>>());
        assert!(!by_construction::<Box<str>>());
    }

    #[test]
    fn names_are_matched_whole() {
        for name in [
            "u8x4",
            "u8::Thing",
            "alloc::string::Strings",
            "alloc::vec::Vec<u8",
            "alloc::vec::Vec<u8>>",
            "(u8, u16",
            "(u8 u16)",
            "[u8; ]",
            "[u8; 3",
            "alloc::collections::btree::map::BTreeMap<u8>",
            "alloc::string::StringBuilder",
            "alloc::sync::Arc<u8>",
            "core::cell::Cell<u8>",
            "charlie::Thing",
            "boolean",
            "&strs",
            "&str::Thing",
            "&[u8]",
            "f32x4",
            "i",
            "(",
            "[",
            "",
        ] {
            assert!(!known(name), "{name}");
        }
        assert!(known("(u8, (u16,), [bool; 12])"));
    }

    /// Postcard bytes of `value`, read back as `T`.
    fn reread<T: Serialize + serde::de::DeserializeOwned>(value: &T) -> Result<T, postcard::Error> {
        postcard::from_bytes(&postcard::to_allocvec(value)?)
    }

    proptest! {
        /// What the saver no longer reads back does read back, as the same value.
        #[test]
        fn known_types_read_back_as_themselves(
            strings in proptest::collection::vec(".*", 0..8),
            numbers in proptest::collection::btree_map(any::<i64>(), any::<Option<u128>>(), 0..8),
            tuple in any::<(u8, bool, char, f64, Option<std::string::String>)>(),
            array in any::<[i32; 4]>(),
        ) {
            prop_assert!(by_construction::<Vec<std::string::String>>());
            prop_assert_eq!(reread(&strings).unwrap(), strings);
            prop_assert_eq!(reread(&numbers).unwrap(), numbers);
            prop_assert_eq!(reread(&array).unwrap(), array);
            let back = reread(&tuple).unwrap();
            prop_assert_eq!(back.3.to_bits(), tuple.3.to_bits());
            prop_assert_eq!((back.0, back.1, back.2, back.4), (tuple.0, tuple.1, tuple.2, tuple.4));
        }
    }

    #[test]
    fn a_type_that_skips_does_not_read_back() {
        // Why the others are read back: postcard has no field names to miss a skipped one by.
        let error = reread(&Skips { note: None }).err();
        assert!(error.is_some());
    }
}
