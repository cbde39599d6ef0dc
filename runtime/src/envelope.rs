//! The sealed `requestState`:
//! `base64url( version | key id | flow id | AES-256-GCM-SIV(postcard(header) | locals) )`,
//! or, in sign-only mode, `base64url( version | key id | flow id | postcard(header) | locals | tag )`
//! with an HMAC-SHA256 tag, for those who want states they can read.
//!
//! The flow's random 96-bit id is the nonce of every state of the flow. AES-GCM-SIV resists
//! nonce reuse: a repeated nonce reveals only that two plaintexts are equal, and no two states
//! of a flow are, since each carries its round number. So the id the replay store needs and the
//! nonce the cipher needs are the same 12 bytes.
//!
//! The audience, the tool name, the argument digest, the layout fingerprint and the principal
//! are bound as associated data, so they cost no bytes and a state opens only for the same call.
//! Each configured key is a master key: the AEAD key, the MAC key and the record key are
//! derived from it with HKDF-SHA256, so no two uses share a key.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aes_gcm_siv::{Aes256GcmSiv, Key, KeyInit, Nonce, Tag, aead::AeadInPlace};
use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use crate::replay::{FlowId, RoundKey};

/// Encrypted and authenticated with AES-256-GCM-SIV, under a derived key. (1, 3, 6, 9 and 12
/// were earlier headers, keys or ciphers.)
const VERSION: u8 = 14;
/// Readable, authenticated with HMAC-SHA256 under a derived key. (2, 4, 7, 10 and 13 were
/// earlier ones.)
const VERSION_SIGNED: u8 = 15;
/// A recorded response in the replay store: always encrypted. (5 and 8 were earlier ones.)
const VERSION_RECORD: u8 = 11;
const MAC_LEN: usize = 32;
/// The flow id, which is also the AEAD's nonce.
const NONCE_LEN: usize = 12;
const TAG_LEN: usize = 16;
const PREFIX_LEN: usize = 2 + NONCE_LEN;
/// 2026-01-01T00:00:00Z: deadlines are counted from here, so they take 4 bytes, not 5.
const EPOCH: u64 = 1_767_225_600;

type HmacSha256 = Hmac<sha2::Sha256>;

/// Keys by id; the first one seals.
pub(crate) struct KeyRing {
    keys: Vec<RingKey>,
    sign_only: bool,
}

/// The keys derived from one master key, one per use.
struct RingKey {
    id: u8,
    state_cipher: Aes256GcmSiv,
    state_mac: HmacSha256,
    record_cipher: Aes256GcmSiv,
}

const STATE_CIPHER_INFO: &[u8] = b"mrtr/state/aes-256-gcm-siv";
const RECORD_CIPHER_INFO: &[u8] = b"mrtr/record/aes-256-gcm-siv";

/// `HKDF-SHA256(master, info)`: the key for one use of a master key.
fn derive(master: &[u8; 32], info: &[u8]) -> Zeroizing<[u8; 32]> {
    let mut key = Zeroizing::new([0u8; 32]);
    // 32 bytes is far below HKDF-SHA256's limit of 8160, so expand cannot fail.
    let _ = hkdf::Hkdf::<sha2::Sha256>::new(Some(b"mrtr"), master).expand(info, key.as_mut());
    key
}

impl KeyRing {
    pub(crate) fn new(keys: Vec<(u8, Zeroizing<[u8; 32]>)>) -> Self {
        let keys = keys
            .into_iter()
            .map(|(id, master)| RingKey {
                id,
                state_cipher: Aes256GcmSiv::new(Key::<Aes256GcmSiv>::from_slice(
                    derive(&master, STATE_CIPHER_INFO).as_ref(),
                )),
                state_mac: <HmacSha256 as Mac>::new_from_slice(
                    derive(&master, b"mrtr/state/hmac-sha256").as_ref(),
                )
                .expect("HMAC takes keys of any length"),
                record_cipher: Aes256GcmSiv::new(Key::<Aes256GcmSiv>::from_slice(
                    derive(&master, RECORD_CIPHER_INFO).as_ref(),
                )),
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

    /// Whether states are sealed readable and signed, not encrypted.
    pub(crate) fn is_sign_only(&self) -> bool {
        self.sign_only
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
    /// The deployment the state was sealed for; empty when none is configured.
    pub(crate) audience: &'a str,
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
        let mut data = Vec::with_capacity(128 + self.name.len() + self.audience.len());
        data.extend_from_slice(label);
        data.extend_from_slice(&[version, key_id]);
        for part in [
            self.audience.as_bytes(),
            self.method.as_bytes(),
            self.name.as_bytes(),
        ] {
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
    /// Whether some locals are saved as JSON, as the saver does for a value postcard cannot
    /// read back; the locals then start with which ones.
    pub(crate) json_locals: bool,
    /// Where the in-memory replay store keeps the record of the round this state opens, if
    /// it made one as the state was sealed: the low bits of its number.
    pub(crate) place: Option<u16>,
}

/// How a [`Header`] travels: the flow id is the nonce, the deadline counts from [`EPOCH`],
/// the expiry is how long before the deadline it falls (0 when the state lives until then),
/// and the JSON flag and whether a place follows are the low bits of the resume point (one
/// byte for either below 32). The place, if any, is two bytes after it.
#[derive(Serialize, Deserialize)]
struct WireHeader {
    resume_and_flags: u64,
    round: u32,
    max_rounds: u32,
    deadline: u64,
    before_deadline: u64,
}

impl WireHeader {
    fn new(header: &Header) -> Self {
        Self {
            resume_and_flags: u64::from(header.resume) << 2
                | u64::from(header.place.is_some()) << 1
                | u64::from(header.json_locals),
            round: header.round,
            max_rounds: header.max_rounds,
            deadline: header.deadline.wrapping_sub(EPOCH),
            before_deadline: header.deadline.saturating_sub(header.expires_at),
        }
    }

    /// Whether a place follows.
    fn has_place(&self) -> bool {
        self.resume_and_flags & 2 == 2
    }

    fn header(&self, flow: FlowId, place: Option<u16>) -> Option<Header> {
        let deadline = self.deadline.wrapping_add(EPOCH);
        Some(Header {
            resume: u32::try_from(self.resume_and_flags >> 2).ok()?,
            expires_at: deadline.saturating_sub(self.before_deadline),
            round: self.round,
            flow,
            deadline,
            max_rounds: self.max_rounds,
            json_locals: self.resume_and_flags & 1 == 1,
            place,
        })
    }
}

/// Why a state was refused. Goes to the server log only; the client sees a generic error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OpenError {
    /// Longer than any state this server seals; refused before decoding.
    TooLarge {
        bytes: usize,
        limit: usize,
    },
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
            Self::TooLarge { bytes, limit } => write!(
                f,
                "{bytes} bytes, longer than the {limit} bytes this server seals at most"
            ),
            Self::NotBase64 => f.write_str("not base64url"),
            Self::TooShort => f.write_str("too short to be a sealed state"),
            Self::UnknownVersion(v) => write!(f, "unknown envelope version {v}"),
            Self::UnknownKey(id) => write!(
                f,
                "sealed with key id {id}, which this server does not hold"
            ),
            Self::Forged => f.write_str(
                "authentication failed: tampered, or sealed for another deployment, tool, \
                 arguments, tool layout or principal, or with another key under the same id",
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

/// `time` in whole seconds since the epoch, rounded up: a state sealed at `x.95` with a TTL of
/// one second expires at `x + 2`, not `x + 1`, so that it lives at least its TTL.
pub(crate) fn unix_seconds_up(time: SystemTime) -> u64 {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    since
        .as_secs()
        .saturating_add(u64::from(since.subsec_nanos() > 0))
}

/// The longest wire header: `round` and `max_rounds` (varints of up to 5 bytes), the resume
/// point with its flags and the two times (up to 10 bytes), and the place.
const HEADER_MAX: usize = 2 * 5 + 3 * 10 + 2;

pub(crate) fn seal(
    keys: &KeyRing,
    binding: &Binding<'_>,
    header: &Header,
    locals: &[u8],
    limit: usize,
) -> Result<String, SealError> {
    let key = &keys.keys[0];
    let mut header_buffer = [0u8; HEADER_MAX];
    let flow = header.flow;
    let place = header.place.map(u16::to_le_bytes);
    let wire = postcard::to_slice(
        &WireHeader::new(header),
        &mut header_buffer[..HEADER_MAX - 2],
    )
    .map_err(|_| SealError::Random)?
    .len();
    let header_len = wire + place.map_or(0, |place| place.len());
    if let Some(place) = place {
        header_buffer[wire..header_len].copy_from_slice(&place);
    }
    let header = &header_buffer[..header_len];
    let plaintext_len = header.len() + locals.len();
    let sealed_len = if keys.sign_only {
        PREFIX_LEN + plaintext_len + MAC_LEN
    } else {
        PREFIX_LEN + plaintext_len + TAG_LEN
    };
    let encoded_len = encoded_len(sealed_len);
    if encoded_len > limit {
        return Err(SealError::TooLarge {
            bytes: encoded_len,
            limit,
        });
    }

    // Holds the locals in the clear (always so in sign-only mode, and before encryption).
    let mut out = Zeroizing::new(Vec::with_capacity(sealed_len));
    if keys.sign_only {
        out.extend_from_slice(&[VERSION_SIGNED, key.id]);
        out.extend_from_slice(&flow);
        out.extend_from_slice(header);
        out.extend_from_slice(locals);
        let tag = signed_mac(
            &key.state_mac,
            &binding.associated_data(VERSION_SIGNED, key.id),
            &out[2..],
        )
        .finalize()
        .into_bytes();
        out.extend_from_slice(&tag);
        return Ok(URL_SAFE_NO_PAD.encode(out.as_slice()));
    }
    out.extend_from_slice(&[VERSION, key.id]);
    out.extend_from_slice(&flow);
    out.extend_from_slice(header);
    out.extend_from_slice(locals);
    let aad = binding.associated_data(VERSION, key.id);
    let tag = key
        .state_cipher
        .encrypt_in_place_detached(Nonce::from_slice(&flow), &aad, &mut out[PREFIX_LEN..])
        .map_err(|_| SealError::Random)?;
    out.extend_from_slice(&tag);
    Ok(URL_SAFE_NO_PAD.encode(out.as_slice()))
}

/// The length of `bytes` bytes in unpadded base64.
fn encoded_len(bytes: usize) -> usize {
    (bytes * 4).div_ceil(3)
}

/// HMAC-SHA256 over the associated data and the payload, ready to finalize or verify.
fn signed_mac(key: &HmacSha256, aad: &[u8], payload: &[u8]) -> HmacSha256 {
    let mut mac = key.clone();
    mac.update(&(aad.len() as u64).to_le_bytes());
    mac.update(aad);
    mac.update(payload);
    mac
}

/// Opens a state. Returns the header and the serialized locals that follow it.
///
/// `limit` is the longest state this server seals: anything longer is refused before it is
/// decoded.
pub(crate) fn open(
    keys: &KeyRing,
    binding: &Binding<'_>,
    state: &str,
    now: SystemTime,
    limit: usize,
) -> Result<(Header, Zeroizing<Vec<u8>>), OpenError> {
    if state.len() > limit {
        return Err(OpenError::TooLarge {
            bytes: state.len(),
            limit,
        });
    }
    // Holds the locals in the clear once authenticated; zeroized when dropped.
    let mut bytes = Zeroizing::new(Vec::with_capacity(state.len() / 4 * 3 + 3));
    URL_SAFE_NO_PAD
        .decode_vec(state.as_bytes(), &mut bytes)
        .map_err(|_| OpenError::NotBase64)?;
    let (version, minimum) = match keys.sign_only {
        false => (VERSION, PREFIX_LEN + TAG_LEN),
        true => (VERSION_SIGNED, PREFIX_LEN + MAC_LEN),
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
        let tag_at = bytes.len() - MAC_LEN;
        signed_mac(&key.state_mac, &aad, &bytes[2..tag_at])
            .verify_slice(&bytes[tag_at..])
            .map_err(|_| OpenError::Forged)?;
        PREFIX_LEN..tag_at
    } else {
        let tag_at = bytes.len() - TAG_LEN;
        let tag = *Tag::from_slice(&bytes[tag_at..]);
        let nonce = *Nonce::from_slice(&bytes[2..PREFIX_LEN]);
        key.state_cipher
            .decrypt_in_place_detached(&nonce, &aad, &mut bytes[PREFIX_LEN..tag_at], &tag)
            .map_err(|_| OpenError::Forged)?;
        PREFIX_LEN..tag_at
    };
    let mut flow = FlowId::default();
    flow.copy_from_slice(&bytes[2..PREFIX_LEN]);
    let (header, rest) = postcard::take_from_bytes::<WireHeader>(&bytes[plaintext.clone()])
        .map_err(|_| OpenError::BadHeader)?;
    let (place, rest) = match header.has_place() {
        true => match rest {
            [low, high, rest @ ..] => (Some(u16::from_le_bytes([*low, *high])), rest),
            _ => return Err(OpenError::BadHeader),
        },
        false => (None, rest),
    };
    let header = header.header(flow, place).ok_or(OpenError::BadHeader)?;
    let locals = plaintext.end - rest.len()..plaintext.end;
    let now = unix_seconds(now);
    let expires_at = header.expires_at.min(header.deadline);
    if now >= expires_at {
        return Err(OpenError::Expired {
            seconds_ago: now - expires_at,
        });
    }
    // Move the locals to the front, in place, so that no copy of them is left behind.
    let len = locals.len();
    bytes.copy_within(locals, 0);
    bytes.truncate(len);
    Ok((header, bytes))
}

/// Seals a round's response for the replay store: `version | key id | nonce | ciphertext`,
/// under a random nonce, encrypted whatever the mode of states, bound to the call, the flow
/// and the round.
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
    let mut out = Vec::with_capacity(PREFIX_LEN + response.len() + TAG_LEN);
    out.extend_from_slice(&[VERSION_RECORD, key.id]);
    out.extend_from_slice(&nonce);
    out.extend_from_slice(response);
    let tag = key
        .record_cipher
        .encrypt_in_place_detached(Nonce::from_slice(&nonce), &aad, &mut out[PREFIX_LEN..])
        .map_err(|_| SealError::Random)?;
    out.extend_from_slice(&tag);
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
    let tag_at = sealed.len() - TAG_LEN;
    let mut response = Zeroizing::new(sealed[PREFIX_LEN..tag_at].to_vec());
    key.record_cipher
        .decrypt_in_place_detached(
            Nonce::from_slice(&sealed[2..PREFIX_LEN]),
            &aad,
            &mut response,
            Tag::from_slice(&sealed[tag_at..]),
        )
        .map_err(|_| OpenError::Forged)?;
    Ok(response)
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
            audience: "",
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
        flow: [9; 12],
        deadline: 2_000_000_100,
        max_rounds: 100,
        json_locals: false,
        place: None,
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
        let (header, locals) = open(&keys, &binding("t"), &state, now(), 4096).unwrap();
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
                open(&keys, &binding("t"), &changed, now(), 4096).is_err(),
                "byte {index}"
            );
        }
    }

    #[test]
    fn a_state_opens_only_for_its_binding() {
        let keys = ring(&[1]);
        let state = seal(&keys, &binding("t"), &HEADER, b"", 4096).unwrap();
        assert_eq!(
            open(&keys, &binding("other"), &state, now(), 4096).unwrap_err(),
            OpenError::Forged
        );
        let mut moved = binding("t");
        moved.args_digest = [8; 32];
        assert_eq!(
            open(&keys, &moved, &state, now(), 4096).unwrap_err(),
            OpenError::Forged
        );
        let mut relaid = binding("t");
        relaid.fingerprint = 43;
        assert_eq!(
            open(&keys, &relaid, &state, now(), 4096).unwrap_err(),
            OpenError::Forged
        );
        let mut someone = binding("t");
        someone.principal = Some("mallory");
        assert_eq!(
            open(&keys, &someone, &state, now(), 4096).unwrap_err(),
            OpenError::Forged
        );
    }

    #[test]
    fn expiry_and_unknown_keys_are_refused() {
        let state = seal(&ring(&[1]), &binding("t"), &HEADER, b"", 4096).unwrap();
        let late = UNIX_EPOCH + Duration::from_secs(2_000_000_005);
        assert_eq!(
            open(&ring(&[1]), &binding("t"), &state, late, 4096).unwrap_err(),
            OpenError::Expired { seconds_ago: 5 }
        );
        assert_eq!(
            open(&ring(&[2]), &binding("t"), &state, now(), 4096).unwrap_err(),
            OpenError::UnknownKey(1)
        );
        // An older key still opens what it sealed.
        assert!(open(&ring(&[2, 1]), &binding("t"), &state, now(), 4096).is_ok());
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
            open(&keys, &binding("t"), &state, after, 4096).unwrap_err(),
            OpenError::Expired { seconds_ago: 2 }
        );
    }

    #[test]
    fn records_open_only_for_their_call_flow_and_round() {
        let keys = ring(&[1]);
        let round = RoundKey {
            flow: [5; 12],
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
            assert!(
                open(&keys, &binding("t"), input, now(), 4096).is_err(),
                "{input}"
            );
        }
    }

    #[test]
    fn a_state_longer_than_the_limit_is_refused_before_decoding() {
        let keys = ring(&[1]);
        let state = seal(&keys, &binding("t"), &HEADER, &[0; 600], 4096).unwrap();
        assert!(open(&keys, &binding("t"), &state, now(), 4096).is_ok());
        assert_eq!(
            open(&keys, &binding("t"), &state, now(), state.len() - 1).unwrap_err(),
            OpenError::TooLarge {
                bytes: state.len(),
                limit: state.len() - 1
            }
        );
        // Not base64 at all, but too long is what is found first.
        let junk = "%".repeat(5000);
        assert!(matches!(
            open(&keys, &binding("t"), &junk, now(), 4096).unwrap_err(),
            OpenError::TooLarge { bytes: 5000, .. }
        ));
    }

    #[test]
    fn the_sealing_key_is_derived_not_the_master_key() {
        let master = [1u8; 32];
        let state = seal(&ring(&[1]), &binding("t"), &HEADER, b"locals", 4096).unwrap();
        let raw = URL_SAFE_NO_PAD.decode(&state).unwrap();
        let tag_at = raw.len() - TAG_LEN;
        let mut body = raw[PREFIX_LEN..tag_at].to_vec();
        let with_master = Aes256GcmSiv::new(Key::<Aes256GcmSiv>::from_slice(&master));
        assert!(
            with_master
                .decrypt_in_place_detached(
                    Nonce::from_slice(&raw[2..PREFIX_LEN]),
                    &binding("t").associated_data(VERSION, 1),
                    &mut body,
                    Tag::from_slice(&raw[tag_at..]),
                )
                .is_err()
        );
        // The three derived keys differ from each other and from the master key.
        let derived = [
            derive(&master, STATE_CIPHER_INFO),
            derive(&master, b"mrtr/state/hmac-sha256"),
            derive(&master, RECORD_CIPHER_INFO),
        ];
        for (index, key) in derived.iter().enumerate() {
            assert_ne!(**key, master);
            for other in &derived[index + 1..] {
                assert_ne!(**key, **other);
            }
        }
    }

    #[test]
    fn deployments_with_other_audiences_do_not_open_each_others_states() {
        let keys = ring(&[1]);
        let mut staging = binding("t");
        staging.audience = "staging";
        let mut production = binding("t");
        production.audience = "production";
        let state = seal(&keys, &staging, &HEADER, b"", 4096).unwrap();
        assert!(open(&keys, &staging, &state, now(), 4096).is_ok());
        assert_eq!(
            open(&keys, &production, &state, now(), 4096).unwrap_err(),
            OpenError::Forged
        );
        assert_eq!(
            open(&keys, &binding("t"), &state, now(), 4096).unwrap_err(),
            OpenError::Forged
        );
        let round = RoundKey {
            flow: [5; 12],
            round: 2,
        };
        let record = seal_record(&keys, &staging, &round, b"response").unwrap();
        assert!(open_record(&keys, &production, &round, &record).is_err());
    }

    #[test]
    fn a_state_with_nothing_held_is_52_characters() {
        // A flow that started in December 2026 with the default one-hour lifetime.
        let deadline = EPOCH + 30_000_000;
        let header = Header {
            resume: 1,
            expires_at: deadline - 3000,
            round: 1,
            flow: [1; 12],
            deadline,
            max_rounds: 100,
            json_locals: false,
            place: None,
        };
        let state = seal(&ring(&[1]), &binding("t"), &header, b"", 4096).unwrap();
        assert_eq!(state.len(), 52);
        let sealed_at = UNIX_EPOCH + Duration::from_secs(deadline - 3600);
        let (opened, _) = open(&ring(&[1]), &binding("t"), &state, sealed_at, 4096).unwrap();
        assert_eq!(opened, header);
    }

    #[test]
    fn the_states_of_one_flow_share_a_nonce_but_no_ciphertext() {
        let keys = ring(&[1]);
        let first = seal(&keys, &binding("t"), &HEADER, b"same locals", 4096).unwrap();
        let next = Header { round: 2, ..HEADER };
        let second = seal(&keys, &binding("t"), &next, b"same locals", 4096).unwrap();
        let (first, second) = (
            URL_SAFE_NO_PAD.decode(first).unwrap(),
            URL_SAFE_NO_PAD.decode(second).unwrap(),
        );
        assert_eq!(first[2..PREFIX_LEN], second[2..PREFIX_LEN]);
        assert_eq!(&first[2..PREFIX_LEN], &HEADER.flow);
        assert_ne!(first[PREFIX_LEN..], second[PREFIX_LEN..]);
    }

    #[test]
    fn times_before_the_epoch_still_round_trip() {
        let header = Header {
            expires_at: 1_000,
            deadline: 2_000,
            ..HEADER
        };
        let state = seal(&ring(&[1]), &binding("t"), &header, b"", 4096).unwrap();
        let early = UNIX_EPOCH + Duration::from_secs(500);
        let (opened, _) = open(&ring(&[1]), &binding("t"), &state, early, 4096).unwrap();
        assert_eq!(opened, header);
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
            audience: "",
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
        flow: [3; 12],
        deadline: 2_000_000_000,
        max_rounds: 100,
        json_locals: false,
        place: None,
    };

    fn now() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_900_000_000)
    }

    #[test]
    fn signed_states_are_readable_and_round_trip() {
        let state = seal(&ring(), &binding(), &HEADER, b"visible-locals", 4096).unwrap();
        let raw = URL_SAFE_NO_PAD.decode(&state).unwrap();
        assert!(raw.windows(14).any(|w| w == b"visible-locals"));
        let (header, locals) = open(&ring(), &binding(), &state, now(), 4096).unwrap();
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
                open(&ring(), &binding(), &changed, now(), 4096).is_err(),
                "byte {index}"
            );
        }
        let mut other = binding();
        other.principal = Some("mallory");
        assert_eq!(
            open(&ring(), &other, &state, now(), 4096).unwrap_err(),
            OpenError::Forged
        );
    }

    #[test]
    fn the_signing_key_is_derived_not_the_master_key() {
        let state = seal(&ring(), &binding(), &HEADER, b"locals", 4096).unwrap();
        let raw = URL_SAFE_NO_PAD.decode(&state).unwrap();
        let tag_at = raw.len() - MAC_LEN;
        let with_master = <HmacSha256 as Mac>::new_from_slice(&[3; 32]).unwrap();
        let aad = binding().associated_data(VERSION_SIGNED, 3);
        assert!(
            signed_mac(&with_master, &aad, &raw[2..tag_at])
                .verify_slice(&raw[tag_at..])
                .is_err()
        );
    }

    #[test]
    fn the_modes_do_not_open_each_other() {
        let plain = KeyRing::new(vec![(3, Zeroizing::new([3; 32]))]);
        let signed = seal(&ring(), &binding(), &HEADER, b"", 4096).unwrap();
        let sealed = seal(&plain, &binding(), &HEADER, b"", 4096).unwrap();
        assert!(open(&plain, &binding(), &signed, now(), 4096).is_err());
        assert!(open(&ring(), &binding(), &sealed, now(), 4096).is_err());
    }
}
