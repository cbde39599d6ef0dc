//! The sealed `requestState`:
//! `base64url( version | key id | nonce | XChaCha20-Poly1305(postcard(header) | locals) )`,
//! or, in sign-only mode, `base64url( version | key id | postcard(header) | locals | tag )`
//! with an HMAC-SHA256 tag, for those who want states they can read.
//!
//! The tool name, the argument digest, the layout fingerprint and the principal are bound as
//! associated data, so they cost no bytes and a state opens only for the same call.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use chacha20poly1305::{
    Key, KeyInit, XChaCha20Poly1305, XNonce,
    aead::{Aead, Payload},
};
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use crate::replay::{FlowId, RoundKey};

/// Encrypted and authenticated. (1 was the header without flow id, deadline and round cap.)
const VERSION: u8 = 3;
/// Readable, authenticated with HMAC-SHA256. (2 was the header without flow id and deadline.)
const VERSION_SIGNED: u8 = 4;
/// A recorded response in the replay store: always encrypted.
const VERSION_RECORD: u8 = 5;
const MAC_LEN: usize = 32;
const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;
const PREFIX_LEN: usize = 2 + NONCE_LEN;

/// Keys by id; the first one seals.
pub(crate) struct KeyRing {
    keys: Vec<RingKey>,
    sign_only: bool,
}

struct RingKey {
    id: u8,
    cipher: XChaCha20Poly1305,
    mac_key: Zeroizing<[u8; 32]>,
}

impl KeyRing {
    pub(crate) fn new(keys: Vec<(u8, Zeroizing<[u8; 32]>)>) -> Self {
        let keys = keys
            .into_iter()
            .map(|(id, key)| RingKey {
                id,
                cipher: XChaCha20Poly1305::new(Key::from_slice(key.as_ref())),
                mac_key: key,
            })
            .collect();
        Self {
            keys,
            sign_only: false,
        }
    }

    /// Seal readable, signed states instead of encrypted ones; open only those.
    pub(crate) fn sign_only(mut self) -> Self {
        self.sign_only = true;
        self
    }

    fn get(&self, id: u8) -> Result<&RingKey, OpenError> {
        self.keys
            .iter()
            .find(|key| key.id == id)
            .ok_or(OpenError::UnknownKey(id))
    }

    pub(crate) fn ids(&self) -> Vec<u8> {
        self.keys.iter().map(|key| key.id).collect()
    }
}

/// What the client must not be able to change, and which the state does not need to carry.
pub(crate) struct Binding<'a> {
    pub(crate) method: &'a str,
    pub(crate) name: &'a str,
    pub(crate) args_digest: [u8; 32],
    pub(crate) fingerprint: u64,
    pub(crate) principal: Option<&'a str>,
}

impl Binding<'_> {
    fn associated_data(&self, version: u8, key_id: u8) -> Vec<u8> {
        self.labelled(b"mrtr/state", version, key_id)
    }

    /// A recorded response is bound to the call like its state, and to its flow and round.
    fn record_data(&self, round: &RoundKey, key_id: u8) -> Vec<u8> {
        let mut data = self.labelled(b"mrtr/record", VERSION_RECORD, key_id);
        data.extend_from_slice(&round.flow);
        data.extend_from_slice(&round.round.to_le_bytes());
        data
    }

    fn labelled(&self, label: &[u8], version: u8, key_id: u8) -> Vec<u8> {
        let mut data = Vec::with_capacity(128 + self.name.len());
        data.extend_from_slice(label);
        data.extend_from_slice(&[version, key_id]);
        for part in [self.method.as_bytes(), self.name.as_bytes()] {
            data.extend_from_slice(&(part.len() as u32).to_le_bytes());
            data.extend_from_slice(part);
        }
        data.extend_from_slice(&self.args_digest);
        data.extend_from_slice(&self.fingerprint.to_le_bytes());
        match self.principal {
            Some(principal) => {
                data.push(1);
                data.extend_from_slice(principal.as_bytes());
            }
            None => data.push(0),
        }
        data
    }
}

/// The part of the state the machine reads before the locals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Header {
    /// The ask point the function stopped at (1-based, in source order).
    pub(crate) resume: u32,
    /// Seconds since the Unix epoch after which the state is refused.
    pub(crate) expires_at: u64,
    /// How many rounds this call has taken so far: the state of round `n` opens round `n`.
    pub(crate) round: u32,
    /// The flow's random id, drawn at its first round; with `round`, the replay store's key.
    pub(crate) flow: FlowId,
    /// Seconds since the Unix epoch: fixed at the first round, no state of the flow outlives it.
    pub(crate) deadline: u64,
    /// The most rounds the flow may take, fixed at its first round.
    pub(crate) max_rounds: u32,
}

/// Why a state was refused. Goes to the server log only; the client sees a generic error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OpenError {
    NotBase64,
    TooShort,
    UnknownVersion(u8),
    UnknownKey(u8),
    /// Tampered, or sealed for another tool, other arguments, another layout or principal.
    Forged,
    BadHeader,
    Expired {
        seconds_ago: u64,
    },
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotBase64 => f.write_str("not base64url"),
            Self::TooShort => f.write_str("too short to be a sealed state"),
            Self::UnknownVersion(v) => write!(f, "unknown envelope version {v}"),
            Self::UnknownKey(id) => write!(
                f,
                "sealed with key id {id}, which this server does not hold"
            ),
            Self::Forged => f.write_str(
                "authentication failed: tampered, or sealed for another tool, other arguments, \
                 another tool layout or another principal",
            ),
            Self::BadHeader => f.write_str("the header inside does not decode"),
            Self::Expired { seconds_ago } => write!(f, "expired {seconds_ago}s ago"),
        }
    }
}

/// Why sealing failed. These are server bugs or limits, never the client's doing.
#[derive(Debug)]
pub(crate) enum SealError {
    Random,
    TooLarge { bytes: usize, limit: usize },
}

pub(crate) fn unix_seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_secs()
}

pub(crate) fn seal(
    keys: &KeyRing,
    binding: &Binding<'_>,
    header: &Header,
    locals: &[u8],
    limit: usize,
) -> Result<String, SealError> {
    let key = &keys.keys[0];
    // A derived `Serialize` of plain integers into a Vec cannot fail.
    let mut plaintext =
        Zeroizing::new(postcard::to_allocvec(header).map_err(|_| SealError::Random)?);
    plaintext.extend_from_slice(locals);

    let sealed_len = if keys.sign_only {
        2 + plaintext.len() + MAC_LEN
    } else {
        PREFIX_LEN + plaintext.len() + TAG_LEN
    };
    let encoded_len = sealed_len.div_ceil(3) * 4;
    if encoded_len > limit {
        return Err(SealError::TooLarge {
            bytes: encoded_len,
            limit,
        });
    }

    let mut out = Vec::with_capacity(sealed_len);
    if keys.sign_only {
        out.extend_from_slice(&[VERSION_SIGNED, key.id]);
        out.extend_from_slice(&plaintext);
        let tag = mac(
            &key.mac_key,
            &binding.associated_data(VERSION_SIGNED, key.id),
            &plaintext,
        )
        .ok_or(SealError::Random)?;
        out.extend_from_slice(&tag);
        return Ok(URL_SAFE_NO_PAD.encode(out));
    }
    let mut nonce = [0u8; NONCE_LEN];
    getrandom::getrandom(&mut nonce).map_err(|_| SealError::Random)?;
    let aad = binding.associated_data(VERSION, key.id);
    let ciphertext = key
        .cipher
        .encrypt(
            XNonce::from_slice(&nonce),
            Payload {
                msg: &plaintext,
                aad: &aad,
            },
        )
        .map_err(|_| SealError::Random)?;
    out.extend_from_slice(&[VERSION, key.id]);
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&ciphertext);
    Ok(URL_SAFE_NO_PAD.encode(out))
}

/// HMAC-SHA256 over the associated data and the payload, domain-separated from the AEAD.
fn mac(key: &[u8; 32], aad: &[u8], payload: &[u8]) -> Option<[u8; MAC_LEN]> {
    use hmac::{Hmac, Mac};
    // HMAC takes keys of any length; this never fails.
    let mut mac = <Hmac<sha2::Sha256> as Mac>::new_from_slice(key).ok()?;
    mac.update(b"mrtr/state/signed");
    mac.update(&(aad.len() as u64).to_le_bytes());
    mac.update(aad);
    mac.update(payload);
    Some(mac.finalize().into_bytes().into())
}

/// Opens a state. Returns the header and the serialized locals that follow it.
pub(crate) fn open(
    keys: &KeyRing,
    binding: &Binding<'_>,
    state: &str,
    now: SystemTime,
) -> Result<(Header, Zeroizing<Vec<u8>>), OpenError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(state.as_bytes())
        .map_err(|_| OpenError::NotBase64)?;
    let (version, minimum) = match keys.sign_only {
        false => (VERSION, PREFIX_LEN + TAG_LEN),
        true => (VERSION_SIGNED, 2 + MAC_LEN),
    };
    if bytes.len() < minimum {
        return Err(OpenError::TooShort);
    }
    let key_id = bytes[1];
    if bytes[0] != version {
        return Err(OpenError::UnknownVersion(bytes[0]));
    }
    let key = keys.get(key_id)?;
    let aad = binding.associated_data(version, key_id);
    let plaintext = if keys.sign_only {
        let (payload, tag) = bytes[2..].split_at(bytes.len() - 2 - MAC_LEN);
        let expected = mac(&key.mac_key, &aad, payload).ok_or(OpenError::Forged)?;
        if !subtle_eq(&expected, tag) {
            return Err(OpenError::Forged);
        }
        Zeroizing::new(payload.to_vec())
    } else {
        Zeroizing::new(
            key.cipher
                .decrypt(
                    XNonce::from_slice(&bytes[2..PREFIX_LEN]),
                    Payload {
                        msg: &bytes[PREFIX_LEN..],
                        aad: &aad,
                    },
                )
                .map_err(|_| OpenError::Forged)?,
        )
    };
    let (header, rest) =
        postcard::take_from_bytes::<Header>(&plaintext).map_err(|_| OpenError::BadHeader)?;
    let now = unix_seconds(now);
    let expires_at = header.expires_at.min(header.deadline);
    if now >= expires_at {
        return Err(OpenError::Expired {
            seconds_ago: now - expires_at,
        });
    }
    Ok((header, Zeroizing::new(rest.to_vec())))
}

/// Seals a round's response for the replay store: `version | key id | nonce | ciphertext`,
/// encrypted whatever the mode of states, bound to the call, the flow and the round.
pub(crate) fn seal_record(
    keys: &KeyRing,
    binding: &Binding<'_>,
    round: &RoundKey,
    response: &[u8],
) -> Result<Vec<u8>, SealError> {
    let key = &keys.keys[0];
    let mut nonce = [0u8; NONCE_LEN];
    getrandom::getrandom(&mut nonce).map_err(|_| SealError::Random)?;
    let aad = binding.record_data(round, key.id);
    let ciphertext = key
        .cipher
        .encrypt(
            XNonce::from_slice(&nonce),
            Payload {
                msg: response,
                aad: &aad,
            },
        )
        .map_err(|_| SealError::Random)?;
    let mut out = Vec::with_capacity(PREFIX_LEN + ciphertext.len());
    out.extend_from_slice(&[VERSION_RECORD, key.id]);
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&ciphertext);
    Ok(out)
}

/// Opens what [`seal_record`] sealed for the same call, flow and round.
pub(crate) fn open_record(
    keys: &KeyRing,
    binding: &Binding<'_>,
    round: &RoundKey,
    sealed: &[u8],
) -> Result<Zeroizing<Vec<u8>>, OpenError> {
    if sealed.len() < PREFIX_LEN + TAG_LEN {
        return Err(OpenError::TooShort);
    }
    if sealed[0] != VERSION_RECORD {
        return Err(OpenError::UnknownVersion(sealed[0]));
    }
    let key = keys.get(sealed[1])?;
    let aad = binding.record_data(round, key.id);
    key.cipher
        .decrypt(
            XNonce::from_slice(&sealed[2..PREFIX_LEN]),
            Payload {
                msg: &sealed[PREFIX_LEN..],
                aad: &aad,
            },
        )
        .map(Zeroizing::new)
        .map_err(|_| OpenError::Forged)
}

/// Constant-time equality of two tags.
fn subtle_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(ids: &[u8]) -> KeyRing {
        KeyRing::new(
            ids.iter()
                .map(|id| (*id, Zeroizing::new([*id; 32])))
                .collect(),
        )
    }

    fn binding(name: &str) -> Binding<'_> {
        Binding {
            method: "tools/call",
            name,
            args_digest: [7; 32],
            fingerprint: 42,
            principal: None,
        }
    }

    const HEADER: Header = Header {
        resume: 2,
        expires_at: 2_000_000_000,
        round: 1,
        flow: [9; 16],
        deadline: 2_000_000_100,
        max_rounds: 100,
    };

    fn now() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_900_000_000)
    }

    #[test]
    fn round_trips_and_hides_the_locals() {
        let keys = ring(&[1]);
        let state = seal(&keys, &binding("t"), &HEADER, b"secret-token", 4096).unwrap();
        let raw = URL_SAFE_NO_PAD.decode(&state).unwrap();
        assert!(!raw.windows(12).any(|w| w == b"secret-token"));
        let (header, locals) = open(&keys, &binding("t"), &state, now()).unwrap();
        assert_eq!(header, HEADER);
        assert_eq!(locals.as_slice(), b"secret-token");
    }

    #[test]
    fn every_single_byte_change_is_refused() {
        let keys = ring(&[1]);
        let state = seal(&keys, &binding("t"), &HEADER, b"locals", 4096).unwrap();
        let raw = URL_SAFE_NO_PAD.decode(&state).unwrap();
        for index in 0..raw.len() {
            let mut changed = raw.clone();
            changed[index] ^= 0x01;
            let changed = URL_SAFE_NO_PAD.encode(changed);
            assert!(
                open(&keys, &binding("t"), &changed, now()).is_err(),
                "byte {index}"
            );
        }
    }

    #[test]
    fn a_state_opens_only_for_its_binding() {
        let keys = ring(&[1]);
        let state = seal(&keys, &binding("t"), &HEADER, b"", 4096).unwrap();
        assert_eq!(
            open(&keys, &binding("other"), &state, now()).unwrap_err(),
            OpenError::Forged
        );
        let mut moved = binding("t");
        moved.args_digest = [8; 32];
        assert_eq!(
            open(&keys, &moved, &state, now()).unwrap_err(),
            OpenError::Forged
        );
        let mut relaid = binding("t");
        relaid.fingerprint = 43;
        assert_eq!(
            open(&keys, &relaid, &state, now()).unwrap_err(),
            OpenError::Forged
        );
        let mut someone = binding("t");
        someone.principal = Some("mallory");
        assert_eq!(
            open(&keys, &someone, &state, now()).unwrap_err(),
            OpenError::Forged
        );
    }

    #[test]
    fn expiry_and_unknown_keys_are_refused() {
        let state = seal(&ring(&[1]), &binding("t"), &HEADER, b"", 4096).unwrap();
        let late = UNIX_EPOCH + Duration::from_secs(2_000_000_005);
        assert_eq!(
            open(&ring(&[1]), &binding("t"), &state, late).unwrap_err(),
            OpenError::Expired { seconds_ago: 5 }
        );
        assert_eq!(
            open(&ring(&[2]), &binding("t"), &state, now()).unwrap_err(),
            OpenError::UnknownKey(1)
        );
        // An older key still opens what it sealed.
        assert!(open(&ring(&[2, 1]), &binding("t"), &state, now()).is_ok());
    }

    #[test]
    fn no_state_outlives_its_flow_deadline() {
        let keys = ring(&[1]);
        let header = Header {
            deadline: 1_900_000_010,
            ..HEADER
        };
        let state = seal(&keys, &binding("t"), &header, b"", 4096).unwrap();
        let after = UNIX_EPOCH + Duration::from_secs(1_900_000_012);
        assert_eq!(
            open(&keys, &binding("t"), &state, after).unwrap_err(),
            OpenError::Expired { seconds_ago: 2 }
        );
    }

    #[test]
    fn records_open_only_for_their_call_flow_and_round() {
        let keys = ring(&[1]);
        let round = RoundKey {
            flow: [5; 16],
            round: 2,
        };
        let sealed = seal_record(&keys, &binding("t"), &round, b"response").unwrap();
        assert!(!sealed.windows(8).any(|w| w == b"response"));
        let opened = open_record(&keys, &binding("t"), &round, &sealed).unwrap();
        assert_eq!(opened.as_slice(), b"response");
        let next = RoundKey { round: 3, ..round };
        assert!(open_record(&keys, &binding("t"), &next, &sealed).is_err());
        assert!(open_record(&keys, &binding("other"), &round, &sealed).is_err());
        for index in 0..sealed.len() {
            let mut changed = sealed.clone();
            changed[index] ^= 1;
            assert!(open_record(&keys, &binding("t"), &round, &changed).is_err());
        }
        assert!(open_record(&keys, &binding("t"), &round, &sealed[..10]).is_err());
    }

    #[test]
    fn garbage_is_refused_without_panicking() {
        let keys = ring(&[1]);
        for input in ["", "%%%", "AAAA", &"A".repeat(100), "AQ", &"_".repeat(4000)] {
            assert!(open(&keys, &binding("t"), input, now()).is_err(), "{input}");
        }
    }

    #[test]
    fn the_size_limit_is_checked_before_sealing() {
        let keys = ring(&[1]);
        let error = seal(&keys, &binding("t"), &HEADER, &[0; 4096], 1024).unwrap_err();
        assert!(matches!(error, SealError::TooLarge { limit: 1024, .. }));
    }
}

#[cfg(test)]
mod sign_only_tests {
    use super::*;

    fn ring() -> KeyRing {
        KeyRing::new(vec![(3, Zeroizing::new([3; 32]))]).sign_only()
    }

    fn binding() -> Binding<'static> {
        Binding {
            method: "tools/call",
            name: "t",
            args_digest: [1; 32],
            fingerprint: 9,
            principal: Some("ada"),
        }
    }

    const HEADER: Header = Header {
        resume: 1,
        expires_at: 2_000_000_000,
        round: 1,
        flow: [3; 16],
        deadline: 2_000_000_000,
        max_rounds: 100,
    };

    fn now() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_900_000_000)
    }

    #[test]
    fn signed_states_are_readable_and_round_trip() {
        let state = seal(&ring(), &binding(), &HEADER, b"visible-locals", 4096).unwrap();
        let raw = URL_SAFE_NO_PAD.decode(&state).unwrap();
        assert!(raw.windows(14).any(|w| w == b"visible-locals"));
        let (header, locals) = open(&ring(), &binding(), &state, now()).unwrap();
        assert_eq!(header, HEADER);
        assert_eq!(locals.as_slice(), b"visible-locals");
    }

    #[test]
    fn every_byte_of_a_signed_state_is_checked() {
        let state = seal(&ring(), &binding(), &HEADER, b"locals", 4096).unwrap();
        let raw = URL_SAFE_NO_PAD.decode(&state).unwrap();
        for index in 0..raw.len() {
            let mut changed = raw.clone();
            changed[index] ^= 0x01;
            let changed = URL_SAFE_NO_PAD.encode(changed);
            assert!(
                open(&ring(), &binding(), &changed, now()).is_err(),
                "byte {index}"
            );
        }
        let mut other = binding();
        other.principal = Some("mallory");
        assert_eq!(
            open(&ring(), &other, &state, now()).unwrap_err(),
            OpenError::Forged
        );
    }

    #[test]
    fn the_modes_do_not_open_each_other() {
        let plain = KeyRing::new(vec![(3, Zeroizing::new([3; 32]))]);
        let signed = seal(&ring(), &binding(), &HEADER, b"", 4096).unwrap();
        let sealed = seal(&plain, &binding(), &HEADER, b"", 4096).unwrap();
        assert!(open(&plain, &binding(), &signed, now()).is_err());
        assert!(open(&ring(), &binding(), &sealed, now()).is_err());
    }
}
