//! Replays the committed corpora of the cargo-fuzz targets (`fuzz/corpus/<target>/`) through the
//! same entry points on stable Rust, so every input the fuzzer kept (and every crash it found,
//! once fixed) stays a test.

use hookrt::fuzzing::TARGETS;
use std::path::Path;

#[test]
fn every_committed_corpus_input_replays_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    for (name, target) in TARGETS {
        let dir = root.join(name);
        let mut n = 0;
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            let result = std::panic::catch_unwind(|| target(&data));
            assert!(result.is_ok(), "{name}: {} panics", path.display());
            n += 1;
        }
        assert!(n > 0, "{name} has no corpus");
    }
}
