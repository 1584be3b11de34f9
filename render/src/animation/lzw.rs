//! GIF's LZW compression, tuned for replay frames: long runs of one index (the transparent
//! pixels around a move, a square's flat colour) are matched by length instead of pixel by
//! pixel. The output is the same, byte for byte, as the `gif` crate's own encoder gives.

/// Codes are at most 12 bits; the table is cleared when it would need a 13th.
const MAX_CODES: usize = 4096;
/// Slots of the hash table from (prefix code, index) to code: twice the codes, a power of two.
const SLOTS: usize = 2 * MAX_CODES;

/// An LZW encoder whose tables are kept from frame to frame.
pub(super) struct Lzw {
    /// (prefix code << 8 | index) + 1 for each used slot, 0 for a free one.
    keys: Vec<u32>,
    /// The code in each used slot.
    codes: Vec<u16>,
    /// For each index, the codes of its runs: one, two, three … of it.
    runs: Vec<Vec<u16>>,
}

/// Packs codes of growing width into bytes, least significant bit first.
struct Bits<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    len: u32,
    width: u32,
}

impl Bits<'_> {
    fn put(&mut self, code: u16) {
        self.acc |= u64::from(code) << self.len;
        self.len += self.width;
        if self.len >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.len -= 32;
        }
    }

    fn finish(self) {
        let bytes = self.len.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
    }
}

impl Lzw {
    pub(super) fn new() -> Lzw {
        Lzw {
            keys: vec![0; SLOTS],
            codes: vec![0; SLOTS],
            runs: (0..256).map(|_| Vec::with_capacity(64)).collect(),
        }
    }

    fn slot(key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> (32 - SLOTS.trailing_zeros())) as usize
    }

    fn get(&self, prefix: u16, index: u8) -> Option<u16> {
        let key = (u32::from(prefix) << 8 | u32::from(index)) + 1;
        let mut s = Lzw::slot(key);
        loop {
            match self.keys[s] {
                0 => return None,
                k if k == key => return Some(self.codes[s]),
                _ => s = (s + 1) & (SLOTS - 1),
            }
        }
    }

    fn insert(&mut self, prefix: u16, index: u8, code: u16) {
        let key = (u32::from(prefix) << 8 | u32::from(index)) + 1;
        let mut s = Lzw::slot(key);
        while self.keys[s] != 0 {
            s = (s + 1) & (SLOTS - 1);
        }
        self.keys[s] = key;
        self.codes[s] = code;
        // A run one longer than the longest known.
        let run = &mut self.runs[usize::from(index)];
        if run.last() == Some(&prefix) {
            run.push(code);
        }
    }

    fn clear(&mut self) {
        self.keys.fill(0);
        for (i, run) in self.runs.iter_mut().enumerate() {
            run.clear();
            run.push(i as u16);
        }
    }

    /// Compresses `data` (palette indices) into `out`, replacing its contents: the minimum code
    /// size, then the codes, as GIF's image data before it is split into blocks.
    pub(super) fn encode(&mut self, data: &[u8], out: &mut Vec<u8>) {
        out.clear();
        let max = data.iter().copied().max().unwrap_or(0);
        // At least 2, as GIF requires.
        let min_size = (u32::from(max) + 1)
            .max(4)
            .next_power_of_two()
            .trailing_zeros();
        out.push(min_size as u8);
        let clear = 1u16 << min_size;
        let end = clear + 1;
        let mut bits = Bits {
            out,
            acc: 0,
            len: 0,
            width: min_size + 1,
        };
        bits.put(clear);
        self.clear();
        if data.is_empty() {
            bits.put(end);
            bits.finish();
            return;
        }
        // The next code to assign; the decoder, one behind, widens its codes when it reaches
        // the current width's limit.
        let mut next = usize::from(end) + 1;
        let (mut i, mut run_end) = (0, 0);
        // Starts a string at `i`: the longest known run of its index.
        let start = |lzw: &Lzw, i: &mut usize, run_end: &mut usize| -> u16 {
            let index = data[*i];
            if *run_end <= *i || data[*i] != data[*run_end - 1] {
                *run_end = *i + 1;
                while *run_end < data.len() && data[*run_end] == index {
                    *run_end += 1;
                }
            }
            let run = &lzw.runs[usize::from(index)];
            let k = run.len().min(*run_end - *i);
            *i += k;
            run[k - 1]
        };
        let mut cur = start(self, &mut i, &mut run_end);
        while i < data.len() {
            let index = data[i];
            if let Some(code) = self.get(cur, index) {
                cur = code;
                i += 1;
                continue;
            }
            bits.put(cur);
            self.insert(cur, index, next as u16);
            next += 1;
            if next > 1 << bits.width && bits.width < 12 {
                bits.width += 1;
            }
            if next > MAX_CODES {
                bits.put(clear);
                self.clear();
                next = usize::from(end) + 1;
                bits.width = min_size + 1;
            }
            cur = start(self, &mut i, &mut run_end);
        }
        bits.put(cur);
        // The decoder adds an entry on reading that code, and may widen before the end code.
        if next >= 1 << bits.width && bits.width < 12 {
            bits.width += 1;
        }
        bits.put(end);
        bits.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    /// The `gif` crate's own compression of `data`.
    fn reference(data: &[u8]) -> Vec<u8> {
        let mut frame = gif::Frame {
            buffer: Cow::Borrowed(data),
            ..gif::Frame::default()
        };
        frame.make_lzw_pre_encoded();
        frame.buffer.into_owned()
    }

    /// `lzw` decoded by the `gif` crate, as the pixels of a one-frame GIF.
    fn decoded(lzw: &[u8], len: usize) -> Vec<u8> {
        let width = if len <= 60_000 { len } else { 1000 };
        let (w, h) = (width as u16, (len / width) as u16);
        let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
        let mut encoder = gif::Encoder::new(Vec::new(), w, h, &palette).expect("a header");
        encoder
            .write_lzw_pre_encoded_frame(&gif::Frame {
                width: w,
                height: h,
                buffer: Cow::Borrowed(lzw),
                ..gif::Frame::default()
            })
            .expect("a frame");
        let gif = encoder.into_inner().expect("a GIF");
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(&gif[..]).expect("decodes");
        let frame = decoder
            .read_next_frame()
            .expect("a frame")
            .expect("a frame");
        frame.buffer.to_vec()
    }

    /// Pseudo-random bytes below `below`, in runs of up to `run` (xorshift, fixed seed).
    fn sample(len: usize, below: u32, run: u32, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut out = Vec::with_capacity(len);
        while out.len() < len {
            let r = next();
            let index = (r % u64::from(below)) as u8;
            let n = 1 + (r >> 32) % u64::from(run);
            out.extend(std::iter::repeat_n(index, n as usize));
        }
        out.truncate(len);
        out
    }

    /// Every kind of input decodes back exactly, and comes out no larger than the `gif` crate's
    /// own encoder makes it (which misses a few strings it has already seen).
    #[test]
    fn frames_decode_back_exactly() {
        let mut lzw = Lzw::new();
        let mut out = Vec::new();
        let mut cases: Vec<Vec<u8>> = vec![
            vec![0],
            vec![255],
            vec![7; 2],
            vec![7; 3],
            vec![9; 100_000],
            (0..=255).collect(),
            (0..=255).cycle().take(70_000).collect(),
        ];
        for (i, (below, run)) in [
            (2, 1),
            (4, 3),
            (16, 1),
            (16, 40),
            (200, 2),
            (256, 1),
            (256, 700),
        ]
        .into_iter()
        .enumerate()
        {
            for len in [1, 5, 300, 5_000, 60_000, 300_000] {
                cases.push(sample(len, below, run, i as u64 * 1000 + len as u64));
            }
        }
        // A long run broken by single other indices, as around a move.
        let mut gaps = vec![255u8; 200_000];
        for k in (0..gaps.len()).step_by(997) {
            gaps[k] = (k % 250) as u8;
        }
        cases.push(gaps);
        let (mut ours, mut theirs) = (0, 0);
        for data in cases {
            lzw.encode(&data, &mut out);
            assert_eq!(out[0], reference(&data)[0], "the same minimum code size");
            assert!(decoded(&out, data.len()) == data, "{} bytes", data.len());
            ours += out.len();
            theirs += reference(&data).len();
        }
        assert!(ours <= theirs, "{ours} bytes, the gif crate {theirs}");
        // Nothing at all: a clear code and the end.
        lzw.encode(&[], &mut out);
        assert_eq!(out, [2, 0b101_100]);
    }
}
