//! Arbitrary JSON as a call's arguments: digested, and the digest must not depend on key order.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mrtr::internals::args_digest(data));
