#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| hookrt::fuzzing::worker_answer(data));
