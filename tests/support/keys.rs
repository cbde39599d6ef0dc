//! Sealing keys for tests: fixed, so runs repeat, and random-looking, so the engine's startup
//! checks (which refuse repeated bytes, counting sequences and text) accept them.

/// A key per `seed`: SplitMix64 output, different for each seed.
pub fn test_key(seed: u8) -> [u8; 32] {
    let mut state = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(u64::from(seed) + 1);
    let mut key = [0u8; 32];
    for chunk in key.chunks_mut(8) {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    key
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_seed_makes_a_key_the_engine_accepts() {
        for seed in 0..=u8::MAX {
            mrtr::Engine::builder()
                .key(1, super::test_key(seed))
                .without_principal()
                .build()
                .unwrap();
        }
    }
}
