//! A zlib stream of a board's scanlines (palette indices, each row after its filter byte),
//! made for what boards are: wide runs of one colour, rows that repeat the row above, and small
//! shapes that repeat (the glyphs of labels and captions, the men).
//!
//! Each position is matched three ways — against the byte before (a run), against the row above
//! (distance = the row's length), and against the last place the same four bytes were seen (a
//! hash table of one entry a bucket) — and the longest match is taken, greedily; a literal
//! otherwise. The tokens are then coded in one dynamic-Huffman block whose code lengths come
//! from their own counts (limited to 15 bits as deflate requires). That takes about a third of
//! the time of zlib's fastest level and makes files about a quarter smaller than it, close to
//! its default level (docs/performance.md, "Board images").

/// Deflate's length codes: for each code 257 + i, its base length and extra bits.
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// Deflate's distance codes: base distance and extra bits.
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
/// The order in which the code-length code's lengths are written.
const CLEN_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

const MIN_MATCH: usize = 4;
const MAX_MATCH: usize = 258;
const WINDOW: usize = 32768;
const HASH_BITS: u32 = 13;

/// One token, with its symbols worked out: a literal byte, or a match's length symbol
/// (257–285) and distance symbol with their extra bits' values.
#[derive(Clone, Copy)]
struct Token {
    /// The literal, or the length's symbol.
    sym: u16,
    /// The length's extra bits' value.
    extra: u16,
    /// The distance's symbol (for a match).
    dsym: u16,
    /// The distance's extra bits' value.
    dextra: u16,
}

/// How many of the bytes at `a` and `b` (`a` < `b`) agree, up to `max`.
#[inline]
fn agreeing(data: &[u8], a: usize, b: usize, max: usize) -> usize {
    let (x, y) = (&data[a..a + max], &data[b..b + max]);
    let mut n = 0;
    for (p, q) in x.chunks_exact(16).zip(y.chunks_exact(16)) {
        let p = u128::from_le_bytes(p.try_into().unwrap_or([0; 16]));
        let q = u128::from_le_bytes(q.try_into().unwrap_or([0; 16]));
        let diff = p ^ q;
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 16;
    }
    while n < max && x[n] == y[n] {
        n += 1;
    }
    n
}

/// Whether the match at `from` could beat one of `len` bytes at `i`: the byte just past it
/// agrees (checked before comparing the rest).
#[inline]
fn could_beat(data: &[u8], from: usize, i: usize, len: usize, max: usize) -> bool {
    len < max && data[from + len] == data[i + len]
}

#[inline]
fn hash4(data: &[u8], i: usize) -> usize {
    let v = u32::from_le_bytes([data[i], data[i + 1], data[i + 2], data[i + 3]]);
    (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// The tokens of `data`, rows of `stride` bytes, and how often each literal/length and
/// distance symbol occurs.
fn tokens(data: &[u8], stride: usize) -> (Vec<Token>, [u32; 286], [u32; 30]) {
    let (mut lit, mut dists) = ([0u32; 286], [0u32; 30]);
    let n = data.len();
    let mut out = Vec::with_capacity(n / 16);
    let mut table = vec![u32::MAX; 1 << HASH_BITS];
    let mut i = 0;
    while i < n {
        let max = (n - i).min(MAX_MATCH);
        let (mut len, mut dist) = (0, 0);
        if max >= MIN_MATCH {
            if i >= 1 && data[i] == data[i - 1] {
                (len, dist) = (agreeing(data, i - 1, i, max), 1);
            }
            if i >= stride && stride <= WINDOW && could_beat(data, i - stride, i, len, max) {
                let l = agreeing(data, i - stride, i, max);
                if l > len {
                    (len, dist) = (l, stride);
                }
            }
            // Past a long match, another candidate is seldom longer: the table learns the
            // place all the same.
            if len >= 64 && i + 4 <= n {
                table[hash4(data, i)] = i as u32;
            } else if len < max && i + 4 <= n {
                let h = hash4(data, i);
                let seen = table[h];
                table[h] = i as u32;
                if seen != u32::MAX {
                    let (from, d) = (seen as usize, i - seen as usize);
                    if d <= WINDOW && d != 1 && d != stride && could_beat(data, from, i, len, max) {
                        let l = agreeing(data, from, i, max);
                        if l > len {
                            (len, dist) = (l, d);
                        }
                    }
                }
            }
        }
        if len >= MIN_MATCH {
            let (l, d) = (length_code(len), dist_code(dist));
            lit[257 + l] += 1;
            dists[d] += 1;
            out.push(Token {
                sym: 257 + l as u16,
                extra: (len - LENGTH_BASE[l] as usize) as u16,
                dsym: d as u16,
                dextra: (dist - DIST_BASE[d] as usize) as u16,
            });
            i += len;
        } else {
            lit[data[i] as usize] += 1;
            out.push(Token {
                sym: data[i] as u16,
                extra: 0,
                dsym: 0,
                dextra: 0,
            });
            i += 1;
        }
    }
    (out, lit, dists)
}

/// The length code (0–28, to add to 257) of every match length, 0 to 258.
static LENGTH_CODE: [u8; 259] = {
    let mut t = [0u8; 259];
    let mut code = 0;
    let mut len = 3;
    while len <= 258 {
        while code + 1 < 29 && LENGTH_BASE[code + 1] as usize <= len {
            code += 1;
        }
        t[len] = code as u8;
        len += 1;
    }
    t
};

/// The distance code of distances 1–256 (by distance − 1), and of longer ones by
/// (distance − 1) / 128 (as zlib's tables go).
static DIST_CODE: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        let d = if i < 256 { i + 1 } else { ((i - 256) << 7) + 1 };
        let mut code = 0;
        while code + 1 < 30 && DIST_BASE[code + 1] as usize <= d {
            code += 1;
        }
        t[i] = code as u8;
        i += 1;
    }
    t
};

#[inline]
fn length_code(len: usize) -> usize {
    LENGTH_CODE[len] as usize
}

#[inline]
fn dist_code(dist: usize) -> usize {
    let d = dist - 1;
    if d < 256 {
        DIST_CODE[d] as usize
    } else {
        DIST_CODE[256 + (d >> 7)] as usize
    }
}

/// Code lengths (at most `limit` bits) for symbols of these `counts`: Huffman's, then the
/// longest codes shortened until the lengths fit (as miniz does), the commonest symbols given
/// the shortest codes.
fn code_lengths(counts: &[u32], limit: usize) -> Vec<u8> {
    let mut lengths = vec![0u8; counts.len()];
    let mut used: Vec<(u32, usize)> = counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(s, c)| (*c, s))
        .collect();
    match used.len() {
        0 => return lengths,
        1 => {
            // A code of one symbol is incomplete, which some inflaters refuse: a second,
            // unused symbol makes it whole.
            let only = used[0].1;
            lengths[only] = 1;
            lengths[if only == 0 { 1 } else { 0 }] = 1;
            return lengths;
        }
        _ => {}
    }
    used.sort_unstable();
    // Huffman's tree by the two-queue method over the sorted leaves.
    let leaves = used.len();
    let mut weight: Vec<u64> = used.iter().map(|(c, _)| *c as u64).collect();
    let mut parent = vec![0usize; 2 * leaves - 1];
    let (mut next_leaf, mut next_node) = (0, leaves);
    weight.resize(2 * leaves - 1, 0);
    for node in leaves..2 * leaves - 1 {
        let mut take = || {
            if next_leaf < leaves && (next_node >= node || weight[next_leaf] <= weight[next_node]) {
                next_leaf += 1;
                next_leaf - 1
            } else {
                next_node += 1;
                next_node - 1
            }
        };
        let (a, b) = (take(), take());
        weight[node] = weight[a] + weight[b];
        parent[a] = node;
        parent[b] = node;
    }
    let root = 2 * leaves - 2;
    let mut depth = vec![0usize; 2 * leaves - 1];
    for node in (0..root).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    // How many codes of each length, the longest folded into `limit` and the tree mended.
    let mut per_length = vec![0usize; limit.max(depth[0]) + 1];
    for d in &depth[..leaves] {
        per_length[(*d).min(limit)] += 1;
    }
    let mut total: usize = (1..=limit).map(|l| per_length[l] << (limit - l)).sum();
    while total > 1 << limit {
        per_length[limit] -= 1;
        if let Some(l) = (1..limit).rev().find(|l| per_length[*l] != 0) {
            per_length[l] -= 1;
            per_length[l + 1] += 2;
        }
        total -= 1;
    }
    // The rarest symbols (first in `used`) get the longest codes.
    let mut at = 0;
    for l in (1..=limit).rev() {
        for _ in 0..per_length[l] {
            lengths[used[at].1] = l as u8;
            at += 1;
        }
    }
    lengths
}

/// Canonical codes for `lengths`, bit-reversed for deflate's least-significant-first order.
fn codes(lengths: &[u8]) -> Vec<u16> {
    let mut count = [0u16; 16];
    for l in lengths {
        count[*l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|l| {
            if *l == 0 {
                return 0;
            }
            let c = next[*l as usize];
            next[*l as usize] += 1;
            c.reverse_bits() >> (16 - *l as u32)
        })
        .collect()
}

/// Bits written least significant first.
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    #[inline]
    fn put(&mut self, value: u32, bits: u32) {
        self.acc |= (value as u64) << self.n;
        self.n += bits;
        if self.n >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        while self.n > 0 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n = self.n.saturating_sub(8);
        }
        self.out
    }
}

/// The code-length sequence of `lengths` as deflate writes it: (symbol, extra bits, extra
/// value), runs of zeros and repeats folded into symbols 16, 17 and 18.
fn folded(lengths: &[u8]) -> Vec<(u8, u32, u32)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lengths.len() {
        let l = lengths[i];
        let run = lengths[i..].iter().take_while(|x| **x == l).count();
        if l == 0 && run >= 3 {
            let r = run.min(138);
            if r >= 11 {
                out.push((18, 7, (r - 11) as u32));
            } else {
                out.push((17, 3, (r - 3) as u32));
            }
            i += r;
        } else if l != 0 && run >= 4 {
            out.push((l, 0, 0));
            let r = (run - 1).min(6);
            out.push((16, 2, (r - 3) as u32));
            i += 1 + r;
        } else {
            out.push((l, 0, 0));
            i += 1;
        }
    }
    out
}

/// Adler-32 of `data` (simd-adler32, which the png crate's inflater uses too: vector code
/// chosen at run time for the processor).
fn adler32(data: &[u8]) -> u32 {
    let mut hash = simd_adler32::Adler32::new();
    hash.write(data);
    hash.finish()
}

/// `data` (rows of `stride` bytes) as a zlib stream: one dynamic-Huffman deflate block.
pub fn zlib(data: &[u8], stride: usize) -> Vec<u8> {
    let (tokens, mut lit, dist) = tokens(data, stride.max(1));
    lit[256] = 1;
    let lit_len = code_lengths(&lit, 15);
    let mut dist_len = code_lengths(&dist, 15);
    // A block needs distance codes, even unused ones.
    if dist_len.iter().all(|l| *l == 0) {
        (dist_len[0], dist_len[1]) = (1, 1);
    }
    let hlit = 257.max(lit_len.iter().rposition(|l| *l != 0).map_or(0, |p| p + 1));
    let hdist = 1.max(dist_len.iter().rposition(|l| *l != 0).map_or(0, |p| p + 1));
    let mut all = lit_len[..hlit].to_vec();
    all.extend_from_slice(&dist_len[..hdist]);
    let seq = folded(&all);
    let mut clen_counts = [0u32; 19];
    for (s, _, _) in &seq {
        clen_counts[*s as usize] += 1;
    }
    let clen_len = code_lengths(&clen_counts, 7);
    let clen_codes = codes(&clen_len);
    let hclen = 4.max(
        CLEN_ORDER
            .iter()
            .rposition(|s| clen_len[*s] != 0)
            .map_or(0, |p| p + 1),
    );
    let (lit_codes, dist_codes) = (codes(&lit_len), codes(&dist_len));

    let mut bits = Bits {
        out: Vec::with_capacity(data.len() / 12 + 64),
        acc: 0,
        n: 0,
    };
    // zlib: deflate with a 32 KiB window, no dictionary, the check bits.
    bits.out.extend_from_slice(&[0x78, 0x01]);
    bits.put(1, 1); // the final block
    bits.put(2, 2); // dynamic Huffman codes
    bits.put((hlit - 257) as u32, 5);
    bits.put((hdist - 1) as u32, 5);
    bits.put((hclen - 4) as u32, 4);
    for s in &CLEN_ORDER[..hclen] {
        bits.put(clen_len[*s] as u32, 3);
    }
    for (s, extra_bits, extra) in seq {
        bits.put(clen_codes[s as usize] as u32, clen_len[s as usize] as u32);
        if extra_bits > 0 {
            bits.put(extra, extra_bits);
        }
    }
    // Each symbol's code with its extra bits after it, as one value to put.
    for t in &tokens {
        let s = t.sym as usize;
        if s < 256 {
            bits.put(lit_codes[s] as u32, lit_len[s] as u32);
        } else {
            let (l, e) = (lit_len[s] as u32, LENGTH_EXTRA[s - 257] as u32);
            bits.put(lit_codes[s] as u32 | (t.extra as u32) << l, l + e);
            let d = t.dsym as usize;
            let (l, e) = (dist_len[d] as u32, DIST_EXTRA[d] as u32);
            bits.put(dist_codes[d] as u32 | (t.dextra as u32) << l, l + e);
        }
    }
    bits.put(lit_codes[256] as u32, lit_len[256] as u32);
    let mut out = bits.finish();
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inflates a zlib stream with two independent decoders (fdeflate's, which the png crate
    /// decodes with, and miniz_oxide's through flate2), each checking the Adler-32.
    fn inflate(stream: &[u8]) -> Vec<u8> {
        use std::io::Read;
        let one = fdeflate::decompress_to_vec(stream).expect("fdeflate reads the stream");
        let mut two = Vec::new();
        flate2::read::ZlibDecoder::new(stream)
            .read_to_end(&mut two)
            .expect("miniz_oxide reads the stream");
        assert_eq!(one, two);
        one
    }

    #[test]
    fn streams_inflate_to_what_was_deflated() {
        let mut cases: Vec<(Vec<u8>, usize)> = vec![
            (Vec::new(), 1),
            (vec![7], 1),
            (vec![0; 100_000], 1000),
            ((0..=255u8).collect(), 16),
        ];
        // Rows that repeat, runs, and noise, as a board has them.
        let mut seed = 12345u32;
        let mut board = Vec::new();
        for row in 0..300 {
            board.push(0);
            for x in 0..601u32 {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let v = if row % 7 == 0 && x % 50 < 5 {
                    (seed >> 24) as u8
                } else {
                    ((x / 70 + row / 70) % 3) as u8
                };
                board.push(v);
            }
        }
        cases.push((board, 602));
        let noise: Vec<u8> = (0..70_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        cases.push((noise, 700));
        for (data, stride) in cases {
            let z = zlib(&data, stride);
            assert_eq!(inflate(&z), data, "{} bytes, rows of {stride}", data.len());
        }
    }

    #[test]
    fn adler32_is_the_checksum_byte_by_byte() {
        let plain = |data: &[u8]| {
            let (mut a, mut b) = (1u32, 0u32);
            for x in data {
                a = (a + *x as u32) % 65521;
                b = (b + a) % 65521;
            }
            b << 16 | a
        };
        for n in [0, 1, 15, 16, 17, 5551, 5552, 5553, 20_000, 100_003] {
            let data: Vec<u8> = (0..n as u32)
                .map(|i| (i * 7919 % 251) as u8 | 0x80)
                .collect();
            assert_eq!(adler32(&data), plain(&data), "{n} bytes");
            let ones = vec![255u8; n];
            assert_eq!(adler32(&ones), plain(&ones), "{n} bytes of 255");
        }
    }

    #[test]
    fn the_code_tables_give_deflates_codes() {
        let last_at_most = |bases: &[u16], v: usize| bases.iter().rposition(|b| *b as usize <= v);
        for len in 3..=258 {
            assert_eq!(
                Some(length_code(len)),
                last_at_most(&LENGTH_BASE, len),
                "{len}"
            );
        }
        for dist in 1..=32768 {
            assert_eq!(
                Some(dist_code(dist)),
                last_at_most(&DIST_BASE, dist),
                "{dist}"
            );
        }
    }

    #[test]
    fn code_lengths_are_a_complete_prefix_code_within_the_limit() {
        // Fibonacci counts force a deep tree.
        let mut counts = vec![0u32; 40];
        let (mut a, mut b) = (1u32, 1u32);
        for c in counts.iter_mut() {
            *c = a;
            (a, b) = (b, a.saturating_add(b));
        }
        for limit in [7, 15] {
            let lengths = code_lengths(&counts, limit);
            assert!(lengths.iter().all(|l| (1..=limit as u8).contains(l)));
            let kraft: f64 = lengths.iter().map(|l| 0.5f64.powi(*l as i32)).sum();
            assert!((kraft - 1.0).abs() < 1e-9, "{kraft}");
        }
    }
}
