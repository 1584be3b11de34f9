#![no_main]
//! The `position` target: see `muster_fuzz::position`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| muster_fuzz::position(data));
