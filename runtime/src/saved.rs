//! The bindings held across an ask: how they are written into a state and read back.
//!
//! They are postcard, one after another in declaration order, followed by a 4-byte check of
//! their type names when any were saved. A resume reads them back in the same order and must
//! end exactly at that check, with the same type names: a state written by another layout of
//! the tool is refused, never misread. Every buffer that holds them is zeroized when dropped,
//! including those left behind when a buffer grows.
//!
//! A value whose postcard form does not read back (postcard is not self-describing, and
//! `skip_serializing_if`, `untagged` or `flatten` need a format that is, as rmcp's own model
//! types do) is saved as JSON instead, as postcard bytes. The state's header then says so, and
//! the locals start with a bitmap of which values are JSON. Whether a value reads back is
//! found by reading it back, but for the types that do by construction (`reads_back`).

mod reads_back;
mod statics;

use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

/// A value that may be held across an `ask!`: it is saved into the sealed state, and read back
/// through `'static` borrows, so that a `&'static str` in it comes back (`statics`). `Send`, as
/// anything alive across an `.await` of an rmcp handler must be, so that a non-`Send` local (an
/// `Rc`) is reported at its `let` rather than as a future that is not `Send` at `#[tool]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be held across an `ask!`",
    label = "this binding is alive at an `ask!`, so it is saved into `requestState`",
    note = "a value held across an ask must be `Serialize + DeserializeOwned + Send` (a \
            `&'static str` in it is fine too): derive serde for your type, or hold an owned copy \
            (`.to_owned()`, `.clone()`, `.to_string()`); other references and handles cannot be \
            saved, and an `Rc` (or an `Arc` of a `RefCell`) is not `Send`: hold the value itself",
    note = "for a handle shared with the server, read it from `self` again after the ask; end a \
            guard's block (or `drop` it) before the ask; collect an iterator into a `Vec`; \
            `.await` a task's `JoinHandle` before the ask; an argument that its statement \
            computes before the ask (`f(make(), ask!(..))`) is saved too: ask first, in a \
            statement of its own"
)]
pub trait Persist: Serialize + Deserialize<'static> + Send + 'static {}

#[diagnostic::do_not_recommend]
impl<T: Serialize + Deserialize<'static> + Send + 'static> Persist for T {}

/// The items of a `for` loop whose body asks: they are saved with the loop.
#[diagnostic::on_unimplemented(
    message = "the items of this `for` loop cannot be saved across its `ask!`",
    label = "the loop's body asks, so the items it has yet to visit are saved into `requestState`",
    note = "iterate owned items that are `Serialize + DeserializeOwned`: `items.clone()`, \
            `items.into_iter()` or `items.iter().cloned()`; a loop borrows its items only from \
            a local or a parameter held across the ask (`&items`, `items.iter()`, \
            `text.lines()`; `items.iter()` also where `items` is a reference, such as an outer \
            loop's item), with no adapter after but `enumerate`, `rev`, `skip`, `take`, \
            `step_by`, `zip` or `chain` with a range or such items (`zip(&other)`), `filter` \
            with a closure that only reads its item (`|s| s.len() > 2`) and \
            `map` with one that only picks from it (`|s| s.trim()`), not `move`, reading no local \
            that the body changes"
)]
pub trait SavedItem: Persist {}

#[diagnostic::do_not_recommend]
impl<T: Persist> SavedItem for T {}

const CHECK_LEN: usize = 4;

/// An order-sensitive hash of the type names of the saved bindings (FNV-1a, whitespace
/// ignored so that how a compiler spaces a name does not matter).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct TypeTrail(u64);

impl TypeTrail {
    const EMPTY: Self = Self(0xcbf2_9ce4_8422_2325);

    fn push(self, type_name: &str) -> Self {
        let hash = type_name
            .bytes()
            .filter(|byte| !byte.is_ascii_whitespace())
            .chain([0xff])
            .fold(self.0, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
            });
        Self(hash)
    }

    fn check(self) -> [u8; CHECK_LEN] {
        ((self.0 as u32) ^ ((self.0 >> 32) as u32)).to_le_bytes()
    }
}

/// A growable buffer for postcard that zeroizes every allocation it lets go of.
struct ZeroizingBuffer(Zeroizing<Vec<u8>>);

impl ZeroizingBuffer {
    fn new() -> Self {
        Self(Zeroizing::new(Vec::new()))
    }

    fn reserve(&mut self, more: usize) {
        let needed = self.0.len() + more;
        if needed <= self.0.capacity() {
            return;
        }
        let mut grown = Vec::with_capacity(needed.max(self.0.capacity() * 2).max(64));
        grown.extend_from_slice(&self.0);
        // The old allocation is zeroized as it drops.
        self.0 = Zeroizing::new(grown);
    }

    fn extend(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        self.0.extend_from_slice(bytes);
    }
}

/// Postcard appending to a buffer it borrows, so that a value that fails to serialize leaves
/// what was saved before it in place.
struct Appending<'a>(&'a mut ZeroizingBuffer);

impl postcard::ser_flavors::Flavor for Appending<'_> {
    type Output = ();

    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        self.0.extend(data);
        Ok(())
    }

    fn try_push(&mut self, data: u8) -> postcard::Result<()> {
        self.0.extend(&[data]);
        Ok(())
    }

    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}

/// For `serde_json::to_writer`: JSON text grows in the buffer with every old block zeroized.
impl std::io::Write for ZeroizingBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.extend(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A binding serialized before the statement that consumes it, for the asks at which it is
/// dead. See the `liveness` stage of the macros.
pub struct Snapshot {
    bytes: Result<Zeroizing<Vec<u8>>, String>,
    type_name: &'static str,
    json: bool,
}

impl Snapshot {
    pub(crate) fn of<T: Persist>(value: &T) -> Self {
        let mut saver = Saver::new();
        saver.save(value);
        Snapshot {
            json: saver.json.first().is_some_and(|bits| bits & 1 == 1),
            bytes: match saver.error {
                None => Ok(saver.bytes.0),
                Some(error) => Err(error),
            },
            type_name: std::any::type_name::<T>(),
        }
    }
}

/// A round's saved locals, ready to seal.
pub(crate) struct Locals {
    pub(crate) bytes: Zeroizing<Vec<u8>>,
    /// Whether some are JSON (the bytes then start with which): the header's flag.
    pub(crate) json: bool,
}

/// Collects the bindings alive at an ask point, in declaration order.
pub struct Saver {
    bytes: ZeroizingBuffer,
    trail: TypeTrail,
    saved: usize,
    error: Option<String>,
    /// Which saved values are JSON, a bit each from the first; empty while none is.
    json: Vec<u8>,
}

impl Saver {
    pub(crate) fn new() -> Self {
        Self {
            bytes: ZeroizingBuffer::new(),
            trail: TypeTrail::EMPTY,
            saved: 0,
            error: None,
            json: Vec::new(),
        }
    }

    /// Marks the value about to be noted as saved in JSON.
    fn mark_json(&mut self) {
        let (byte, bit) = (self.saved / 8, self.saved % 8);
        if self.json.len() <= byte {
            self.json.resize(byte + 1, 0);
        }
        self.json[byte] |= 1 << bit;
    }

    /// Appends a binding's snapshot.
    pub fn save_snapshot(&mut self, snapshot: &Snapshot) {
        if self.error.is_some() {
            return;
        }
        match &snapshot.bytes {
            Ok(bytes) => {
                self.bytes.extend(bytes);
                if snapshot.json {
                    self.mark_json();
                }
                self.noted(snapshot.type_name);
            }
            Err(error) => self.error = Some(error.clone()),
        }
    }

    /// Appends one binding.
    pub fn save<T: Persist>(&mut self, value: &T) {
        if self.error.is_some() {
            return;
        }
        if let Some(error) = shared_handle(std::any::type_name::<T>()) {
            self.error = Some(error);
            return;
        }
        let start = self.bytes.0.len();
        // Postcard is not self-describing: some serde shapes write what they cannot read back
        // (`skip_serializing_if`, `untagged`), or cannot write at all (`flatten`, a map of
        // unknown length). Find out now, and save those as JSON, which is self-describing.
        // Reading back, not comparing bytes: a `HashMap` may write its entries in another order.
        // A type whose values all read back (a `Vec<String>`, say) is not read back each time.
        let postcard = postcard::serialize_with_flavor(value, Appending(&mut self.bytes))
            .map_err(|error| error.to_string())
            .and_then(|()| match reads_back::by_construction::<T>() {
                true => Ok(()),
                false => statics::from_postcard::<T>(&self.bytes.0[start..])
                    .map(drop)
                    .map_err(|error| error.to_string()),
            });
        if let Err(error) = postcard {
            self.bytes.0.truncate(start);
            if let Err(json_error) = self.save_json(value) {
                self.error = Some(format!(
                    "`{}` does not read back from its saved form, neither postcard ({error}) nor \
                     JSON ({}). Hold another type across the ask (for a `serde_json::Value`, \
                     its `to_string()`), or build the value after the ask",
                    std::any::type_name::<T>(),
                    json_error,
                ));
                return;
            }
            self.mark_json();
        }
        self.noted(std::any::type_name::<T>());
    }

    /// Appends `value` as JSON (postcard bytes of its JSON text), checked to read back. Floats
    /// read back exactly (serde_json's `float_roundtrip`); what JSON itself cannot tell apart
    /// (an untagged enum's variants of one shape, `Some(None)` and `None`) comes back as JSON
    /// reads it. `Err` says why not, with no value in it.
    fn save_json<T: Persist>(&mut self, value: &T) -> Result<(), String> {
        let redacted = |error: serde_json::Error| crate::log::redacted(&error);
        let mut json = ZeroizingBuffer::new();
        serde_json::to_writer(&mut json, value).map_err(redacted)?;
        statics::from_json::<T>(&json.0).map_err(redacted)?;
        postcard::serialize_with_flavor(json.0.as_slice(), Appending(&mut self.bytes))
            .map_err(|error| error.to_string())
    }

    fn noted(&mut self, type_name: &str) {
        self.trail = self.trail.push(type_name);
        self.saved += 1;
    }

    /// The saved bytes, with their type check if anything was saved, or why saving failed.
    pub(crate) fn finish(mut self) -> Result<Locals, String> {
        if let Some(error) = self.error {
            return Err(error);
        }
        if self.saved > 0 {
            self.bytes.extend(&self.trail.check());
        }
        if self.json.is_empty() {
            return Ok(Locals {
                bytes: self.bytes.0,
                json: false,
            });
        }
        let mut bytes = ZeroizingBuffer::new();
        bytes.reserve(1 + self.json.len() + self.bytes.0.len());
        postcard::serialize_with_flavor(self.json.as_slice(), Appending(&mut bytes))
            .map_err(|error| error.to_string())?;
        bytes.extend(&self.bytes.0);
        Ok(Locals {
            bytes: bytes.0,
            json: true,
        })
    }
}

/// Why a value of this type must not be saved: an `Arc` around something that can change in
/// place (serde's `rc` feature, which rmcp enables, serializes one by value) would come back as
/// a copy, and what the tool changes after the ask would never reach the state it shares with
/// the server. (An `Rc` is not `Send`, so `Persist` refuses it when the tool compiles.)
fn shared_handle(type_name: &str) -> Option<String> {
    const SHARED: &[&str] = &["::Arc<"];
    const MUTABLE: &[&str] = &[
        "Mutex<",
        "RwLock<",
        "Cell<",
        "Atomic",
        "OnceLock<",
        "OnceCell<",
    ];
    // Most saved types are neither: the second scan runs only for a shared one.
    let shared = SHARED.iter().any(|handle| type_name.contains(handle))
        && MUTABLE.iter().any(|inner| type_name.contains(inner));
    shared.then(|| {
        format!(
            "`{type_name}` is shared with the rest of the server, and a state can only hold a \
             copy of it: what the tool changed after the ask would be lost. Do not hold it \
             across the ask: read it from `self` (or wherever it lives) again after the ask"
        )
    })
}

/// The bindings of an opened state, read back in the order they were saved.
pub(crate) struct SavedLocals {
    bytes: Zeroizing<Vec<u8>>,
    read: usize,
    trail: TypeTrail,
    restored: usize,
    /// Which values are JSON, as the saver marked them.
    json: Vec<u8>,
}

impl SavedLocals {
    /// The locals of a state; `json` is its header's flag, when they start with the bitmap of
    /// which values are JSON. `Err` if that bitmap does not read.
    pub(crate) fn new(bytes: Zeroizing<Vec<u8>>, json: bool) -> Result<Self, String> {
        let mut saved = Self {
            bytes,
            ..Self::none()
        };
        if json {
            let (bitmap, rest) = postcard::take_from_bytes::<&[u8]>(&saved.bytes)
                .map_err(|error| format!("the map of JSON locals does not decode: {error}"))?;
            if bitmap.is_empty() {
                return Err("the map of JSON locals is empty".to_owned());
            }
            saved.json = bitmap.to_vec();
            saved.read = saved.bytes.len() - rest.len();
        }
        Ok(saved)
    }

    /// No locals: a call with no state yet.
    pub(crate) fn none() -> Self {
        Self {
            bytes: Zeroizing::new(Vec::new()),
            read: 0,
            trail: TypeTrail::EMPTY,
            restored: 0,
            json: Vec::new(),
        }
    }

    fn is_json(&self, index: usize) -> bool {
        self.json
            .get(index / 8)
            .is_some_and(|bits| bits & (1 << (index % 8)) != 0)
    }

    /// The next binding. `Err` says why it does not read, for the log.
    pub(crate) fn take<T: Persist>(&mut self) -> Result<T, String> {
        let end = self
            .bytes
            .len()
            .checked_sub(CHECK_LEN)
            .filter(|end| self.read <= *end)
            .ok_or_else(|| "fewer bytes were saved than this build reads".to_owned())?;
        let does_not_decode = |error: &dyn std::fmt::Display| {
            format!("`{}` does not decode: {error}", std::any::type_name::<T>())
        };
        let saved = &self.bytes[self.read..end];
        let (value, rest) = match self.is_json(self.restored) {
            false => statics::from_postcard::<T>(saved).map_err(|e| does_not_decode(&e))?,
            true => {
                let (json, rest) =
                    postcard::take_from_bytes::<&[u8]>(saved).map_err(|e| does_not_decode(&e))?;
                let value = statics::from_json::<T>(json)
                    .map_err(|e| does_not_decode(&crate::log::redacted(&e)))?;
                (value, rest)
            }
        };
        self.read = end - rest.len();
        self.trail = self.trail.push(std::any::type_name::<T>());
        self.restored += 1;
        Ok(value)
    }

    /// Checks, once every binding has been read back, that they were exactly those saved:
    /// every byte read, and the same types in the same order.
    pub(crate) fn finish(&self) -> Result<(), String> {
        if self.restored == 0 {
            return match self.bytes.len() {
                0 => Ok(()),
                saved => Err(format!(
                    "{saved} saved bytes, but this build reads none at this ask"
                )),
            };
        }
        let marked_unread = (self.restored..self.json.len() * 8).any(|index| self.is_json(index));
        if marked_unread || self.json.last() == Some(&0) {
            return Err("the map of JSON locals does not match the locals read".to_owned());
        }
        let end = self.bytes.len() - CHECK_LEN;
        if self.read != end {
            return Err(format!(
                "{} saved bytes were left unread",
                end.saturating_sub(self.read)
            ));
        }
        if self.bytes[end..] != self.trail.check() {
            return Err("the saved bindings have other types than this build reads".to_owned());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    fn saved(save: impl FnOnce(&mut Saver)) -> SavedLocals {
        let mut saver = Saver::new();
        save(&mut saver);
        let locals = saver.finish().unwrap();
        SavedLocals::new(locals.bytes, locals.json).unwrap()
    }

    #[derive(Serialize, Deserialize)]
    struct Memo {
        title: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        tag: String,
    }

    #[test]
    fn plain_values_save_and_read_back() {
        let mut locals = saved(|saver| {
            saver.save(&("a".to_owned(), vec![1u32, 2], Some(3i64)));
            saver.save(&7u8);
        });
        let first: (String, Vec<u32>, Option<i64>) = locals.take().unwrap();
        assert_eq!(first, ("a".to_owned(), vec![1, 2], Some(3)));
        assert_eq!(locals.take::<u8>().unwrap(), 7);
        locals.finish().unwrap();
    }

    #[test]
    fn nothing_saved_is_nothing_to_read() {
        let locals = saved(|_| {});
        assert!(locals.bytes.is_empty());
        locals.finish().unwrap();
    }

    #[test]
    fn a_resume_must_read_every_saved_byte() {
        let mut locals = saved(|saver| {
            saver.save(&1u32);
            saver.save(&"left behind".to_owned());
        });
        assert_eq!(locals.take::<u32>().unwrap(), 1);
        let error = locals.finish().unwrap_err();
        assert!(error.contains("left unread"), "{error}");
        // Reading nothing at all where something was saved is refused as well.
        let unread = saved(|saver| saver.save(&1u32));
        assert!(unread.finish().is_err());
    }

    #[test]
    fn the_same_bytes_read_as_another_type_are_refused() {
        // `u32` and `u64` share postcard's varint encoding, so only the type check tells.
        let mut locals = saved(|saver| saver.save(&5u32));
        assert_eq!(locals.take::<u64>().unwrap(), 5);
        let error = locals.finish().unwrap_err();
        assert!(error.contains("other types"), "{error}");
        // `String` and `Vec<u8>` as well.
        let mut locals = saved(|saver| saver.save(&"ab".to_owned()));
        assert_eq!(locals.take::<Vec<u8>>().unwrap(), b"ab");
        assert!(locals.finish().is_err());
    }

    #[test]
    fn reading_past_the_saved_bindings_is_refused() {
        let mut locals = saved(|saver| saver.save(&1u8));
        assert_eq!(locals.take::<u8>().unwrap(), 1);
        assert!(locals.take::<u8>().is_err());
        let mut empty = SavedLocals::none();
        assert!(empty.take::<u8>().is_err());
    }

    #[test]
    fn snapshots_count_as_their_type() {
        let snapshot = Snapshot::of(&vec![1u16, 2]);
        let mut locals = saved(|saver| {
            saver.save(&true);
            saver.save_snapshot(&snapshot);
        });
        assert!(locals.take::<bool>().unwrap());
        assert_eq!(locals.take::<Vec<u16>>().unwrap(), vec![1, 2]);
        locals.finish().unwrap();
    }

    #[test]
    fn type_names_are_compared_without_whitespace() {
        assert_eq!(
            TypeTrail::EMPTY.push("(u8, alloc::string::String)"),
            TypeTrail::EMPTY.push("(u8,alloc::string::String)")
        );
        assert_ne!(
            TypeTrail::EMPTY.push("u8").push("u16"),
            TypeTrail::EMPTY.push("u16").push("u8")
        );
    }

    /// Every answer mrtr hands a tool can be held across a later ask.
    #[test]
    fn every_answer_type_is_holdable() {
        use crate::{Question, checkpoint::Checkpoint};
        use serde_json::json;

        fn round_trip<T: Persist + PartialEq + std::fmt::Debug>(answer: T) {
            let mut locals = saved(|saver| saver.save(&answer));
            assert_eq!(locals.take::<T>().unwrap(), answer);
            locals.finish().unwrap();
        }
        #[derive(Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
        struct Name {
            name: String,
        }
        let form = json!({"action": "accept", "content": {"name": "Ada"}});
        round_trip(crate::Elicit::<Name>::read_answer("k", &form).unwrap());
        let declined = json!({"action": "decline"});
        round_trip(crate::Elicit::<Name>::read_answer("k", &declined).unwrap());
        round_trip(crate::ElicitUrl::read_answer("k", &json!({"action": "accept"})).unwrap());
        let sampled = json!({
            "role": "assistant",
            "content": {"type": "text", "text": "Paris"},
            "model": "m",
            "stopReason": "endTurn",
        });
        let answer = crate::Sample::read_answer("k", &sampled).unwrap();
        assert_eq!(answer.result()["model"], "m");
        round_trip(answer);
        let roots = json!({"roots": [{"uri": "file:///a"}, {"uri": "file:///b", "name": "b"}]});
        round_trip(crate::ClientRoots::read_answer("k", &roots).unwrap());
        Checkpoint::read_answer("k", &serde_json::Value::Null).unwrap();
        round_trip(());
    }

    #[test]
    fn shared_mutable_handles_are_refused_when_saved() {
        // An `Rc` is not `Send`, so `Persist` refuses it when the tool compiles.
        use std::sync::{Arc, Mutex, atomic::AtomicU64};
        let mut saver = Saver::new();
        saver.save(&Arc::new(Mutex::new(1i64)));
        let error = saver.finish().err().expect("refused");
        assert!(
            error.contains("shared with the rest of the server"),
            "{error}"
        );
        let mut saver = Saver::new();
        saver.save(&Arc::new(AtomicU64::new(1)));
        assert!(saver.finish().is_err());
        // Shared but unchanging data, and a lock of the tool's own, are plain values.
        let mut saver = Saver::new();
        saver.save(&Arc::<str>::from("fixed"));
        saver.save(&Mutex::new(5u8));
        saver.finish().unwrap();
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Grid {
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        /// JSON has no tuple keys.
        cells: std::collections::BTreeMap<(u8, u8), u8>,
    }

    #[test]
    fn shapes_postcard_cannot_read_back_are_saved_as_json() {
        let value = serde_json::json!({"tags": ["a"], "n": 1});
        let memo = Memo {
            title: "t".into(),
            note: None,
            tag: "x".into(),
        };
        let flat = Flat {
            id: 3,
            rest: [("k".to_owned(), 9)].into(),
        };
        let mut saver = Saver::new();
        saver.save(&7u8);
        saver.save(&value);
        saver.save_snapshot(&Snapshot::of(&memo));
        saver.save(&flat);
        saver.save(&"after".to_owned());
        let locals = saver.finish().unwrap();
        assert!(locals.json, "the header must say so");
        let mut locals = SavedLocals::new(locals.bytes, true).unwrap();
        assert_eq!(locals.take::<u8>().unwrap(), 7);
        assert_eq!(locals.take::<serde_json::Value>().unwrap(), value);
        assert_eq!(locals.take::<Memo>().unwrap().note, None);
        assert_eq!(locals.take::<Flat>().unwrap(), flat);
        assert_eq!(locals.take::<String>().unwrap(), "after");
        locals.finish().unwrap();
    }

    /// Floats in a value saved as JSON come back bit for bit (serde_json's `float_roundtrip`).
    #[test]
    fn floats_saved_as_json_read_back_exactly() {
        let floats: Vec<f64> = (1..2000)
            .flat_map(|i| {
                let i = f64::from(i);
                [i / 3.0, i.sqrt(), i * 0.01, i.ln(), 1.0 / i]
            })
            .collect();
        let value = serde_json::json!({ "floats": floats });
        let mut saver = Saver::new();
        saver.save(&value);
        let locals = saver.finish().unwrap();
        assert!(locals.json);
        let mut read = SavedLocals::new(locals.bytes, true).unwrap();
        let back = read.take::<serde_json::Value>().unwrap();
        let back: Vec<f64> = serde_json::from_value(back["floats"].clone()).unwrap();
        let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back), bits(&floats));
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Flat {
        id: u8,
        /// postcard cannot even write this: a map of unknown length.
        #[serde(flatten)]
        rest: std::collections::BTreeMap<String, u8>,
    }

    /// Locals whose bitmap is read as a local (no header flag), or marks one that is never
    /// read, are refused.
    #[test]
    fn a_map_of_json_locals_that_does_not_match_is_refused() {
        let mut saver = Saver::new();
        saver.save(&7u8);
        let plain = saver.finish().unwrap();
        assert!(!plain.json);
        let flagged = |bitmap: &[u8]| {
            let mut bytes = vec![bitmap.len() as u8];
            bytes.extend_from_slice(bitmap);
            bytes.extend_from_slice(&plain.bytes);
            Zeroizing::new(bytes)
        };
        // Every byte read, the types right, but the map marks a second local.
        let mut marked_past = SavedLocals::new(flagged(&[0b10]), true).unwrap();
        assert_eq!(marked_past.take::<u8>().unwrap(), 7);
        assert!(marked_past.finish().is_err());
        // A map whose last byte marks nothing is not one the saver writes.
        let mut empty_tail = SavedLocals::new(flagged(&[0b0]), true).unwrap();
        assert_eq!(empty_tail.take::<u8>().unwrap(), 7);
        assert!(empty_tail.finish().is_err());
        // Read without the flag, the map's length is taken for the local.
        let mut unflagged = SavedLocals::new(flagged(&[0b1]), false).unwrap();
        assert_eq!(unflagged.take::<u8>().unwrap(), 1);
        assert!(unflagged.finish().is_err(), "bytes left unread");
    }

    #[test]
    fn json_locals_read_back_in_order_and_are_checked() {
        let memo = Memo {
            title: "t".into(),
            note: None,
            tag: "x".into(),
        };
        let mut saver = Saver::new();
        saver.save(&1u32);
        saver.save_snapshot(&Snapshot::of(&memo));
        for n in 0..9u8 {
            saver.save(&n);
        }
        saver.save(&serde_json::json!([1, "two"]));
        let locals = saver.finish().unwrap();
        let open = || SavedLocals::new(locals.bytes.clone(), true).unwrap();
        let mut read = open();
        assert_eq!(read.take::<u32>().unwrap(), 1);
        let back = read.take::<Memo>().unwrap();
        assert_eq!(
            (back.title, back.note, back.tag),
            ("t".into(), None, "x".into())
        );
        for n in 0..9u8 {
            assert_eq!(read.take::<u8>().unwrap(), n);
        }
        assert_eq!(
            read.take::<serde_json::Value>().unwrap(),
            serde_json::json!([1, "two"])
        );
        read.finish().unwrap();
        // Stopping short of a JSON local leaves it marked and unread: refused.
        let mut short = open();
        short.take::<u32>().unwrap();
        assert!(short.finish().is_err());
    }

    #[test]
    fn a_shape_neither_format_reads_back_is_refused_when_saved() {
        let grid = Grid {
            note: None,
            cells: [((1, 2), 3)].into(),
        };
        let mut saver = Saver::new();
        saver.save(&grid);
        let error = saver.finish().err().expect("refused");
        assert!(error.contains("neither postcard"), "{error}");
        assert!(error.contains("to_string()"), "{error}");
        // With the note, postcard reads it back: no JSON needed.
        let mut saver = Saver::new();
        saver.save(&Grid {
            note: Some("n".into()),
            ..grid
        });
        assert!(!saver.finish().unwrap().json);
    }
}
