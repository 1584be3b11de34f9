#![no_main]
//! The `command` target: see `muster_fuzz::command`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| muster_fuzz::command(data));
