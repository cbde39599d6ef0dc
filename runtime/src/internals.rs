//! Entry points into mrtr's internals for its own fuzz targets (`fuzz/`) and benchmarks,
//! behind the `internals` feature. Not a public API. The fuzzing entry points take the
//! fuzzer's bytes and must never panic on them.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Deserialize;
use zeroize::Zeroizing;

use crate::{
    Question,
    envelope::{self, Binding, Header, KeyRing},
    saved::SavedLocals,
};

const LIMIT: usize = 16 * 1024;

fn ring(sign_only: bool) -> KeyRing {
    let keys = vec![(1, Zeroizing::new(*b"fuzzing key, never used to serve"))];
    match sign_only {
        true => KeyRing::new(keys).sign_only(),
        false => KeyRing::new(keys),
    }
}

fn binding() -> Binding<'static> {
    Binding {
        audience: "fuzz",
        method: "tools/call",
        name: "fuzz",
        args_digest: [7; 32],
        fingerprint: 42,
        principal: None,
    }
}

fn now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_900_000_000)
}

const HEADER: Header = Header {
    resume: 2,
    expires_at: 2_000_000_000,
    round: 1,
    flow: [9; 12],
    deadline: 2_000_000_100,
    max_rounds: 100,
    json_locals: false,
    place: None,
};

/// Opens arbitrary bytes as a `requestState`, in both modes.
pub fn open_state(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for sign_only in [false, true] {
        let _ = envelope::open(&ring(sign_only), &binding(), text, now(), LIMIT);
    }
}

/// Genuine states of several shapes, sealed with the fuzzing key, as seeds for [`open_state`].
pub fn genuine_states() -> Vec<Vec<u8>> {
    let locals: [&[u8]; 4] = [b"", b"\x05hello", &[0xff; 40], &[1; 300]];
    let mut seeds = Vec::new();
    for sign_only in [false, true] {
        for locals in locals {
            if let Ok(state) = envelope::seal(&ring(sign_only), &binding(), &HEADER, locals, LIMIT)
            {
                seeds.push(state.into_bytes());
            }
        }
    }
    seeds
}

/// Seals arbitrary bytes as the inside of a state (header and locals), opens it as a retry
/// would, and reads locals of the kinds tools hold, as a resume would.
pub fn resume_plaintext(plaintext: &[u8]) {
    let keys = ring(true);
    let (header, locals) = match postcard::take_from_bytes::<Header>(plaintext) {
        Ok((header, locals)) => (header, locals),
        Err(_) => (HEADER, plaintext),
    };
    let Ok(state) = envelope::seal(&keys, &binding(), &header, locals, LIMIT) else {
        return;
    };
    let Ok((header, locals)) = envelope::open(&keys, &binding(), &state, now(), LIMIT) else {
        return;
    };
    // As a resume reads them: binding by binding, then the check that all were read.
    let Ok(mut saved) = SavedLocals::new(locals, header.json_locals) else {
        return;
    };
    macro_rules! take {
        ($($ty:ty),*) => {$(
            if saved.take::<$ty>().is_err() {
                return;
            }
        )*};
    }
    take!(
        String,
        &'static str,
        Vec<u32>,
        Option<i64>,
        (bool, char),
        std::collections::VecDeque<String>,
        std::collections::BTreeMap<String, u8>,
        crate::Elicited<Profile>,
        crate::UrlElicited,
        Option<(&'static str, u8)>,
        f64
    );
    // A loop over borrowed items, resumed at the count it read.
    let Ok(mut visited) = saved.take::<crate::for_borrowed::Visited>() else {
        return;
    };
    if let Some(mut walk) = visited.resume(["a", "b", "c"].iter()) {
        while visited.next(&mut walk).is_some() {}
    }
    let _ = saved.finish();
}

/// A form as a tool would declare it, with constraints its answers are checked against.
#[derive(Debug, serde::Serialize, Deserialize, schemars::JsonSchema)]
pub struct Profile {
    /// Free text.
    #[schemars(length(min = 1, max = 40))]
    pub name: String,
    /// A number.
    #[schemars(range(min = 18, max = 130))]
    pub age: u32,
    /// A choice.
    pub plan: Plan,
    /// Optional.
    #[schemars(email)]
    pub note: Option<String>,
}

/// A choice in a form.
#[derive(Debug, serde::Serialize, Deserialize, schemars::JsonSchema)]
pub enum Plan {
    /// One.
    Free,
    /// Two.
    Team,
}

/// Reads arbitrary JSON as `inputResponses` into each answer type.
pub fn read_answers(data: &[u8]) {
    let Ok(responses) = serde_json::from_slice::<rmcp::model::InputResponses>(data) else {
        if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
            read_each("key", &value);
        }
        return;
    };
    for (key, value) in &responses {
        read_each(key, value);
    }
}

fn read_each(key: &str, value: &serde_json::Value) {
    let _ = crate::Elicit::<Profile>::read_answer(key, value);
    let _ = crate::ElicitUrl::read_answer(key, value);
    let _ = crate::Sample::read_answer(key, value);
    let _ = crate::ClientRoots::read_answer(key, value);
    let _ = crate::Checkpoint::read_answer(key, value);
}

/// Digests arbitrary JSON as a call's arguments, and checks that key order does not matter.
pub fn args_digest(data: &[u8]) {
    let Ok(serde_json::Value::Object(map)) = serde_json::from_slice::<serde_json::Value>(data)
    else {
        return;
    };
    let digest = crate::args_digest::args_digest(Some(&map));
    let mut reversed = serde_json::Map::new();
    for (key, value) in map.iter().rev() {
        reversed.insert(key.clone(), value.clone());
    }
    assert_eq!(digest, crate::args_digest::args_digest(Some(&reversed)));
}

/// Seals states and opens them again with one key ring, for the benchmarks.
pub struct Sealer {
    keys: KeyRing,
}

impl Sealer {
    /// A key ring like an engine's, encrypting or sign-only.
    pub fn new(sign_only: bool) -> Self {
        Self {
            keys: ring(sign_only),
        }
    }

    /// One round trip of a state: seals `locals` behind a typical header, then opens the
    /// result as a retry does. Returns the state's length in bytes, or 0 if it did not open.
    pub fn round_trip(&self, locals: &[u8]) -> usize {
        let Ok(state) = envelope::seal(&self.keys, &binding(), &HEADER, locals, LIMIT) else {
            return 0;
        };
        match envelope::open(&self.keys, &binding(), &state, now(), LIMIT) {
            Ok((_, opened)) if opened.as_slice() == locals => state.len(),
            _ => 0,
        }
    }
}
