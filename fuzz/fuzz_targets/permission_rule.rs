#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| hookrt::fuzzing::permission_rule(data));
