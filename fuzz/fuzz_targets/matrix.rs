#![no_main]
//! The `matrix` target: see `muster_fuzz::matrix`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| muster_fuzz::matrix(data));
