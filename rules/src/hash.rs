//! A small, fixed, fast hash for the searches' 64-bit keys (search states, positions). Keys are
//! produced by the engine, not by users, so flooding is not a concern; determinism is.

use std::hash::{BuildHasherDefault, Hasher};

/// Folds written words with a rotate and a multiply, and mixes the result down on finish.
#[derive(Default)]
pub struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        // A multiplication only carries bits upwards; fold the high bits down so that keys whose
        // low bits are all zero (bitboards of men on high squares) still spread over the table.
        let h = self.0;
        (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (h >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(*b as u64);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Build hasher for maps and sets keyed by engine-made integers.
pub type Fast = BuildHasherDefault<FoldHasher>;
