//! Arbitrary bytes as a sealed `requestState`, opened with the AEAD and the sign-only key ring.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // `fuzz/run` calls this binary once with `MRTR_FUZZ_WRITE_SEEDS=<corpus dir>` to write
        // genuine sealed states there as seeds, then exits, before fuzzing. The seeds come from
        // this same build, so no second (uninstrumented) build of mrtr is needed.
        if let Some(dir) = std::env::var_os("MRTR_FUZZ_WRITE_SEEDS") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).expect("creating the corpus directory");
            let states = mrtr::internals::genuine_states();
            assert!(!states.is_empty(), "genuine_states() sealed nothing");
            for (i, state) in states.iter().enumerate() {
                std::fs::write(dir.join(format!("genuine-{i}")), state).expect("writing a seed");
            }
            eprintln!("open_state: wrote {} genuine states to {}", states.len(), dir.display());
            std::process::exit(0);
        }
    },
    |data: &[u8]| mrtr::internals::open_state(data)
);
