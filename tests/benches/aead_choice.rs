//! Why the state is sealed with AES-256-GCM-SIV from `aes-gcm-siv` 0.11: the AEADs a state
//! could use, each sealing and opening the same payload, in the same run.
//!
//! - `aes-gcm-siv` 0.11, what mrtr uses (the baseline);
//! - `aes-gcm-siv` 0.12, the newer release of the same crate;
//! - AES-256-SIV from `aes-siv` (RFC 5297), the other nonce-misuse-resistant AEAD RustCrypto
//!   keeps;
//! - XChaCha20-Poly1305 from `chacha20poly1305`, the design's first choice.
//!
//! Each is timed by criterion on a 32 B payload (a small state's header and locals) and a
//! 256 B one (P3's), with 96 B of associated data (about what a state is bound to). The ratio
//! to the baseline comes from alternating blocks, with a 95% interval, as in `rounds`.
//! Results go to `target/bench-results/aead_choice.json`.
//!
//! `cargo bench -p mrtr-tests --bench aead_choice`

use std::{hint::black_box, time::Duration};

use criterion::Criterion;
use mrtr_tests::{
    bench_results,
    stats::{Paired, Side},
};
use serde_json::{Map, Value, json};

const ASSOCIATED: [u8; 96] = [3; 96];
const PAYLOADS: [usize; 2] = [32, 256];

/// A seal followed by an open of a buffer, in place.
type SealAndOpen = Box<dyn Fn(&mut [u8])>;

/// One AEAD, by name.
struct Candidate {
    name: &'static str,
    seal_and_open: SealAndOpen,
}

fn candidates() -> Vec<Candidate> {
    use aes_gcm_siv_newer::aead::KeyInit as _;
    let gcm_siv_in_use = {
        use aes_gcm_siv::{Aes256GcmSiv, KeyInit, Nonce, aead::AeadInPlace};
        let cipher = Aes256GcmSiv::new_from_slice(&[7; 32]).unwrap();
        move |buffer: &mut [u8]| {
            let nonce = Nonce::from_slice(&[9; 12]);
            let tag = cipher
                .encrypt_in_place_detached(nonce, &ASSOCIATED, buffer)
                .unwrap();
            cipher
                .decrypt_in_place_detached(nonce, &ASSOCIATED, buffer, &tag)
                .unwrap();
        }
    };
    vec![
        Candidate {
            name: IN_USE,
            seal_and_open: Box::new(gcm_siv_in_use),
        },
        Candidate {
            name: "AES-256-GCM-SIV, aes-gcm-siv 0.12",
            seal_and_open: in_out(aes_gcm_siv_newer::Aes256GcmSiv::new_from_slice(&[7; 32])),
        },
        Candidate {
            name: "AES-256-SIV, aes-siv 0.8",
            seal_and_open: in_out(aes_siv::Aes256SivAead::new_from_slice(&[7; 64])),
        },
        Candidate {
            name: "XChaCha20-Poly1305, chacha20poly1305 0.11",
            seal_and_open: in_out(chacha20poly1305::XChaCha20Poly1305::new_from_slice(
                &[7; 32],
            )),
        },
    ]
}

/// Seal and open with an AEAD of the `aead` 0.6 interface, which the newer crates share.
fn in_out<C, E>(cipher: Result<C, E>) -> SealAndOpen
where
    C: aes_gcm_siv_newer::aead::AeadInOut + 'static,
    E: std::fmt::Debug,
{
    let cipher = cipher.expect("a key of the cipher's size");
    Box::new(move |buffer: &mut [u8]| {
        let nonce = aes_gcm_siv_newer::aead::Nonce::<C>::default();
        let tag = cipher
            .encrypt_inout_detached(&nonce, &ASSOCIATED, (&mut *buffer).into())
            .unwrap();
        cipher
            .decrypt_inout_detached(&nonce, &ASSOCIATED, buffer.into(), &tag)
            .unwrap();
    })
}

const IN_USE: &str = "AES-256-GCM-SIV, aes-gcm-siv 0.11 (in use)";

/// `other`'s time over `base`'s in 41 alternating blocks of 20,000 calls.
fn paired(base: &dyn Fn(&mut [u8]), other: &dyn Fn(&mut [u8]), buffer: &mut [u8]) -> Paired {
    const BLOCKS: usize = 41;
    const CALLS: usize = 20_000;
    Paired::alternating(BLOCKS, |side| {
        let run = match side {
            Side::Base => base,
            Side::Other => other,
        };
        let start = std::time::Instant::now();
        for _ in 0..CALLS {
            run(black_box(&mut *buffer));
        }
        start.elapsed().as_secs_f64()
    })
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    let candidates = candidates();
    let mut results = Map::new();
    for size in PAYLOADS {
        let mut buffer = vec![1u8; size];
        let mut group = criterion.benchmark_group(format!("seal and open {size} B"));
        group.measurement_time(Duration::from_secs(2));
        for candidate in &candidates {
            group.bench_function(candidate.name, |b| {
                b.iter(|| (candidate.seal_and_open)(black_box(&mut buffer)))
            });
        }
        group.finish();
        let (base, others) = candidates
            .split_first()
            .expect("the AEAD in use comes first");
        for other in others {
            let ratio = paired(&*base.seal_and_open, &*other.seal_and_open, &mut buffer);
            println!("{size} B: {} / {IN_USE}: {ratio}", other.name);
            results.insert(
                format!("{size}_bytes/{}", other.name),
                json!({"ratio": ratio.ratio, "ratio_95_interval": ratio.interval}),
            );
        }
    }
    criterion.final_summary();
    match bench_results::merge_into("aead_choice.json", Value::Object(results)) {
        Ok(path) => println!("results: {}", path.display()),
        Err(error) => println!("results not written: {error}"),
    }
}
