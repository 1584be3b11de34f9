#![no_main]
//! The `record` target: see `muster_fuzz::record`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| muster_fuzz::record(data));
