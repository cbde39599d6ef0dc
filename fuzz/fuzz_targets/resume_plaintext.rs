//! Arbitrary bytes as the inside of a state (postcard header, then locals): sealed, opened as a
//! retry would, and decoded into locals of the kinds tools hold.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mrtr::internals::resume_plaintext(data));
