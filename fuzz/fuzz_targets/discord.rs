#![no_main]
//! The `discord` target: see `muster_fuzz::discord`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| muster_fuzz::discord(data));
