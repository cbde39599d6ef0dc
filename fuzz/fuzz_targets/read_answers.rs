//! Arbitrary JSON as a retry's `inputResponses`, read into every answer type.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mrtr::internals::read_answers(data));
