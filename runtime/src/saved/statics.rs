//! Reading saved values back as `Deserialize<'static>`, so that a `&'static str` held across
//! an ask (a string literal, a `const` item's text) comes back as one.
//!
//! Serde's `&str` can only borrow from the bytes it reads, and those bytes live for one round.
//! So the deserializer here hands out `'static` borrows: a string that serde's own `&str`
//! asks for is interned, leaked once per distinct text for the life of the process. Every
//! other string (a `String`, a `Url`, a field name) is read as a passing `&str`, as before.
//!
//! The interned texts are bounded by the program: a state opens only after its seal is
//! checked, so each text was a `&'static str` of the program when it was saved, and
//! `Persist: 'static` keeps a `&str` borrowed from a local out. [`MOST_INTERNED_BYTES`] bounds
//! them in any case (a program that leaks a string per request and holds it across an ask).

use std::{
    collections::HashSet,
    fmt,
    marker::PhantomData,
    sync::{Mutex, OnceLock},
};

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

/// The most bytes interned texts may take, [`ENTRY_BYTES`] each besides their text, before a
/// state that would add more is refused.
pub(crate) const MOST_INTERNED_BYTES: usize = 16 << 20;

/// What an interned text takes besides its bytes: its allocation's least size and its slot in
/// the set, about.
const ENTRY_BYTES: usize = 48;

/// Postcard bytes read back as `T`, with what follows them.
pub(crate) fn from_postcard<T: Deserialize<'static>>(bytes: &[u8]) -> postcard::Result<(T, &[u8])> {
    let mut deserializer = postcard::Deserializer::from_bytes(bytes);
    let value = T::deserialize(Statics::new(&mut deserializer))?;
    Ok((value, deserializer.finalize()?))
}

/// JSON text read back as `T`: all of it, as `serde_json::from_slice` reads.
pub(crate) fn from_json<T: Deserialize<'static>>(json: &[u8]) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let value = T::deserialize(Statics::new(&mut deserializer))?;
    deserializer.end()?;
    Ok(value)
}

/// The texts interned so far, and the bytes they take.
struct Interned {
    texts: HashSet<&'static str>,
    bytes: usize,
    most: usize,
}

impl Interned {
    fn new(most: usize) -> Self {
        Self {
            texts: HashSet::new(),
            bytes: 0,
            most,
        }
    }

    /// `text` for the life of the process, the same `&'static str` each time; `None` when a
    /// new text would take the interned past `most` bytes.
    fn intern(&mut self, text: &str) -> Option<&'static str> {
        if let Some(&known) = self.texts.get(text) {
            return Some(known);
        }
        let size = text.len() + ENTRY_BYTES;
        if self.bytes + size > self.most {
            return None;
        }
        let leaked: &'static str = Box::leak(text.to_owned().into_boxed_str());
        self.bytes += size;
        self.texts.insert(leaked);
        Some(leaked)
    }
}

fn interned() -> &'static Mutex<Interned> {
    static INTERNED: OnceLock<Mutex<Interned>> = OnceLock::new();
    INTERNED.get_or_init(|| Mutex::new(Interned::new(MOST_INTERNED_BYTES)))
}

/// `text` interned in the process's set.
fn intern<E: de::Error>(text: &str) -> Result<&'static str, E> {
    let mut interned = interned()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    interned.intern(text).ok_or_else(|| {
        E::custom(format_args!(
            "distinct `&'static str` texts read back from states would take more than \
             {MOST_INTERNED_BYTES} bytes; hold a `String` across the ask rather than a leaked one"
        ))
    })
}

/// What serde's `&str` says it expects, found once by asking it.
fn borrowed_str_expects() -> &'static str {
    static EXPECTS: OnceLock<String> = OnceLock::new();
    EXPECTS.get_or_init(|| {
        <&str as Deserialize<'static>>::deserialize(Expects)
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default()
    })
}

/// A deserializer that fails with what its visitor expects.
struct Expects;

impl<'de> Deserializer<'de> for Expects {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom(Expecting(&visitor)))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A visitor's `expecting`, as `Display`.
struct Expecting<'v, V>(&'v V);

impl<'de, V: Visitor<'de>> fmt::Display for Expecting<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
}

/// Whether `visitor` is serde's `&str`'s, which takes only a borrowed string.
fn wants_borrowed_str<'de, V: Visitor<'de>>(visitor: &V) -> bool {
    /// Compares what is written with `expected`, without keeping it.
    struct Same<'a> {
        rest: &'a str,
        same: bool,
    }
    impl fmt::Write for Same<'_> {
        fn write_str(&mut self, piece: &str) -> fmt::Result {
            match self.rest.strip_prefix(piece) {
                Some(rest) if self.same => self.rest = rest,
                _ => self.same = false,
            }
            Ok(())
        }
    }
    let expected = borrowed_str_expects();
    let mut same = Same {
        rest: expected,
        same: !expected.is_empty(),
    };
    let _ = fmt::write(&mut same, format_args!("{}", Expecting(visitor)));
    same.same && same.rest.is_empty()
}

/// A deserializer whose borrows live for `'static`, over one whose borrows live for `'de`
/// (and its seq, map and enum accesses likewise).
struct Statics<'de, D> {
    inner: D,
    borrows: PhantomData<fn() -> &'de ()>,
}

impl<D> Statics<'_, D> {
    fn new(inner: D) -> Self {
        Self {
            inner,
            borrows: PhantomData,
        }
    }
}

/// `visitor`, for the inner deserializer; `intern` if it takes only a borrowed string.
struct Visits<V> {
    visitor: V,
    intern: bool,
}

impl<V> Visits<V> {
    fn plain(visitor: V) -> Self {
        Self {
            visitor,
            intern: false,
        }
    }
}

macro_rules! forward_deserialize {
    ($($method:ident $(($($arg:ident: $ty:ty),*))?),* $(,)?) => {$(
        fn $method<V: Visitor<'static>>(
            self,
            $($($arg: $ty,)*)?
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            self.inner.$method($($($arg,)*)? Visits::plain(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'static> for Statics<'de, D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any, deserialize_bool, deserialize_i8, deserialize_i16, deserialize_i32,
        deserialize_i64, deserialize_i128, deserialize_u8, deserialize_u16, deserialize_u32,
        deserialize_u64, deserialize_u128, deserialize_f32, deserialize_f64, deserialize_char,
        deserialize_string, deserialize_bytes, deserialize_byte_buf, deserialize_option,
        deserialize_unit, deserialize_seq, deserialize_map, deserialize_identifier,
        deserialize_ignored_any,
        deserialize_unit_struct(name: &'static str),
        deserialize_newtype_struct(name: &'static str),
        deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize),
        deserialize_struct(name: &'static str, fields: &'static [&'static str]),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
    }

    fn deserialize_str<V: Visitor<'static>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let intern = wants_borrowed_str(&visitor);
        self.inner.deserialize_str(Visits { visitor, intern })
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty)),* $(,)?) => {$(
        fn $method<E: de::Error>(self, value: $ty) -> Result<Self::Value, E> {
            self.visitor.$method(value)
        }
    )*};
}

impl<'de, V: Visitor<'static>> Visitor<'de> for Visits<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visit! {
        visit_bool(bool), visit_i8(i8), visit_i16(i16), visit_i32(i32), visit_i64(i64),
        visit_i128(i128), visit_u8(u8), visit_u16(u16), visit_u32(u32), visit_u64(u64),
        visit_u128(u128), visit_f32(f32), visit_f64(f64), visit_char(char),
        visit_bytes(&[u8]), visit_byte_buf(Vec<u8>),
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        match self.intern {
            true => self.visitor.visit_borrowed_str(intern(text)?),
            false => self.visitor.visit_str(text),
        }
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Self::Value, E> {
        self.visit_str(text)
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Self::Value, E> {
        match self.intern {
            true => self.visit_str(&text),
            false => self.visitor.visit_string(text),
        }
    }

    fn visit_borrowed_bytes<E: de::Error>(self, bytes: &'de [u8]) -> Result<Self::Value, E> {
        self.visitor.visit_bytes(bytes)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, inner: D) -> Result<Self::Value, D::Error> {
        self.visitor.visit_some(Statics::new(inner))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, inner: D) -> Result<Self::Value, D::Error> {
        self.visitor.visit_newtype_struct(Statics::new(inner))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.visitor.visit_seq(Statics::new(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.visitor.visit_map(Statics::new(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.visitor.visit_enum(Statics::new(data))
    }
}

/// A seed for the inner deserializer, which it hands a [`Statics`].
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'static>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, inner: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(Statics::new(inner))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'static> for Statics<'de, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'static>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        self.inner.next_element_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'static> for Statics<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'static>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        self.inner.next_key_seed(Seed(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'static>>(
        &mut self,
        seed: T,
    ) -> Result<T::Value, Self::Error> {
        self.inner.next_value_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'static> for Statics<'de, A> {
    type Error = A::Error;
    type Variant = Statics<'de, A::Variant>;

    fn variant_seed<T: DeserializeSeed<'static>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), Self::Error> {
        let (value, variant) = self.inner.variant_seed(Seed(seed))?;
        Ok((value, Statics::new(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'static> for Statics<'de, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), Self::Error> {
        self.inner.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'static>>(
        self,
        seed: T,
    ) -> Result<T::Value, Self::Error> {
        self.inner.newtype_variant_seed(Seed(seed))
    }

    fn tuple_variant<V: Visitor<'static>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.inner.tuple_variant(len, Visits::plain(visitor))
    }

    fn struct_variant<V: Visitor<'static>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.inner.struct_variant(fields, Visits::plain(visitor))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde::{Deserialize, Serialize};

    use super::*;

    const COLOURS: [&str; 3] = ["red", "green", "blue"];

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Question {
        prompt: &'static str,
        options: Vec<&'static str>,
        answer: Option<String>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Step {
        Ask(&'static str),
        Pair { first: &'static str, second: u8 },
        Done,
    }

    fn through_postcard<T: Serialize + Deserialize<'static>>(value: &T) -> T {
        let bytes = postcard::to_allocvec(value).unwrap();
        let (back, rest) = from_postcard::<T>(&bytes).unwrap();
        assert!(rest.is_empty());
        back
    }

    fn through_json<T: Serialize + Deserialize<'static>>(value: &T) -> T {
        from_json(&serde_json::to_vec(value).unwrap()).unwrap()
    }

    #[test]
    fn static_strs_come_back_in_any_shape() {
        let question = Question {
            prompt: "Pick one",
            options: COLOURS.to_vec(),
            answer: Some("red".to_owned()),
        };
        assert_eq!(through_postcard(&question), question);
        assert_eq!(through_json(&question), question);
        let steps = vec![
            Step::Ask("name"),
            Step::Pair {
                first: "a",
                second: 2,
            },
            Step::Done,
        ];
        assert_eq!(through_postcard(&steps), steps);
        assert_eq!(through_json(&steps), steps);
        let map: BTreeMap<&'static str, (u8, &'static str)> =
            [("x", (1, "one")), ("y", (2, "two"))].into();
        assert_eq!(through_postcard(&map), map);
        assert_eq!(through_json(&map), map);
        assert_eq!(through_postcard(&COLOURS), COLOURS);
    }

    #[test]
    fn the_same_text_is_interned_once() {
        let first: &'static str = through_postcard(&"interned once, test");
        let second: &'static str = through_json(&"interned once, test");
        assert_eq!(first, "interned once, test");
        assert!(std::ptr::eq(first, second));
    }

    #[test]
    fn owned_and_passing_strings_are_not_interned() {
        /// Reads a string that it may be handed in passing, as `Url` or `DateTime` do.
        #[derive(Debug, PartialEq)]
        struct Parsed(usize);
        impl<'de> Deserialize<'de> for Parsed {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Length;
                impl Visitor<'_> for Length {
                    type Value = Parsed;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a string to parse")
                    }
                    fn visit_str<E: de::Error>(self, text: &str) -> Result<Parsed, E> {
                        Ok(Parsed(text.len()))
                    }
                }
                deserializer.deserialize_str(Length)
            }
        }
        let text = "not interned, test";
        let bytes = postcard::to_allocvec(&(text, text.to_owned(), text)).unwrap();
        let before = interned().lock().unwrap().texts.contains(text);
        assert!(!before);
        let ((parsed, owned, _), _) = from_postcard::<(Parsed, String, Parsed)>(&bytes).unwrap();
        assert_eq!((parsed, owned.as_str()), (Parsed(text.len()), text));
        assert!(!interned().lock().unwrap().texts.contains(text));
    }

    #[test]
    fn interning_stops_at_its_bound() {
        let mut interned = Interned::new(2 * ENTRY_BYTES + 6);
        let first = interned.intern("abc").unwrap();
        assert!(std::ptr::eq(interned.intern("abc").unwrap(), first));
        assert!(interned.intern("def").is_some());
        // A known text is still found; a new one would pass the bound.
        assert!(interned.intern("g").is_none());
        assert!(interned.intern("def").is_some());
        assert_eq!(interned.bytes, 2 * ENTRY_BYTES + 6);
    }

    #[test]
    fn serdes_str_is_recognised() {
        assert!(!borrowed_str_expects().is_empty());
        // `String`'s visitor and others expect something else.
        assert!(<String as Deserialize>::deserialize(Expects).is_err());
        let string = <String as Deserialize>::deserialize(Expects)
            .unwrap_err()
            .to_string();
        assert_ne!(string, borrowed_str_expects());
    }

    #[test]
    fn a_bad_state_is_an_error_not_a_panic() {
        assert!(from_postcard::<&'static str>(&[5, b'a']).is_err());
        assert!(from_postcard::<&'static str>(&[2, 0xff, 0xfe]).is_err());
        assert!(from_json::<Question>(b"{\"prompt\": 3}").is_err());
    }

    proptest! {
        /// Any value, read back through `'static` borrows, is the value written.
        #[test]
        fn values_read_back_as_themselves(
            texts in proptest::collection::vec("[a-z]{0,6}", 0..6),
            numbers in any::<(u8, i64, Option<u32>, bool, char)>(),
            owned in proptest::collection::btree_map(".{0,8}", any::<i16>(), 0..6),
        ) {
            let statics: Vec<&'static str> = texts
                .iter()
                .map(|text| intern::<de::value::Error>(text).unwrap())
                .collect();
            let value = (statics, numbers, owned);
            prop_assert_eq!(through_postcard(&value), value.clone());
            prop_assert_eq!(through_json(&value), value);
        }
    }
}
