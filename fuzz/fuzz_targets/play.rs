#![no_main]
//! The `play` target: see `muster_fuzz::play`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| muster_fuzz::play(data));
