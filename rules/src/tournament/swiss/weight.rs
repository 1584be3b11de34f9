//! The numbers the Dutch pairing optimises. Every criterion has its own field of bits in an
//! edge's weight, the more important ones higher, each wide enough that the sum over a round's
//! games cannot carry into the next; a maximum-weight matching then meets the criteria in
//! their order. A 64-player round needs several hundred bits, so the weight is a wide integer.

use bnum::BInt;
use integer_blossom::{Weight, max_weight_matching};

/// A weight the matching can add and compare, built from small numbers by shifting.
pub(super) trait Wide: Weight {
    /// The number `v`.
    fn small(v: u64) -> Self;
    /// `self · 2^k`.
    fn shl(self, k: u32) -> Self;
}

impl Wide for i128 {
    fn small(v: u64) -> Self {
        i128::from(v)
    }
    fn shl(self, k: u32) -> Self {
        self << k
    }
}

/// A signed integer of `64·N` bits.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) struct Big<const N: usize>(BInt<N>);

impl<const N: usize> std::ops::Add for Big<N> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Big(self.0 + o.0)
    }
}

impl<const N: usize> std::ops::Sub for Big<N> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Big(self.0 - o.0)
    }
}

impl<const N: usize> std::ops::AddAssign for Big<N> {
    fn add_assign(&mut self, o: Self) {
        self.0 += o.0;
    }
}

impl<const N: usize> std::ops::SubAssign for Big<N> {
    fn sub_assign(&mut self, o: Self) {
        self.0 -= o.0;
    }
}

impl<const N: usize> Weight for Big<N> {
    const ZERO: Self = Big(BInt::ZERO);
    const ONE: Self = Big(BInt::ONE);
    fn inf() -> Self {
        Big(BInt::MAX >> 2)
    }
    fn double(self) -> Self {
        Big(self.0 << 1)
    }
    fn half(self) -> Self {
        // As integers divide: toward zero.
        let h = self.0 >> 1;
        if self.0.is_negative() && (self.0 & BInt::ONE) == BInt::ONE {
            Big(h + BInt::ONE)
        } else {
            Big(h)
        }
    }
}

impl<const N: usize> Wide for Big<N> {
    fn small(v: u64) -> Self {
        Big(BInt::from(v))
    }
    fn shl(self, k: u32) -> Self {
        Big(self.0 << k)
    }
}

/// `2^k`.
pub(super) fn bit<W: Wide>(k: u32) -> W {
    W::ONE.shl(k)
}

/// The number of bits that hold `v` (0 for 0).
pub(super) fn bits(v: usize) -> u32 {
    usize::BITS - v.leading_zeros()
}

/// The weights between the players of a round, and the pairs already decided. A decided pair
/// is out of the problem: its two players can only be matched with each other.
pub(super) struct Graph<W> {
    n: usize,
    weights: Vec<W>,
    fixed: Vec<Option<usize>>,
}

impl<W: Wide> Graph<W> {
    /// `n` players, no edges.
    pub fn new(n: usize) -> Self {
        Graph {
            n,
            weights: vec![W::ZERO; n * n],
            fixed: vec![None; n],
        }
    }

    /// Sets the weight between `a` and `b` (zero or less: they may not meet).
    pub fn set(&mut self, a: usize, b: usize, w: W) {
        self.weights[a * self.n + b] = w;
        self.weights[b * self.n + a] = w;
    }

    /// Decides that `a` and `b` meet.
    pub fn fix(&mut self, a: usize, b: usize) {
        self.fixed[a] = Some(b);
        self.fixed[b] = Some(a);
    }

    /// A matching of greatest weight: each player's opponent, if any.
    pub fn solve(&self) -> Vec<Option<usize>> {
        let open: Vec<usize> = (0..self.n).filter(|v| self.fixed[*v].is_none()).collect();
        let k = open.len();
        let mut w = vec![W::ZERO; k * k];
        for (i, &a) in open.iter().enumerate() {
            for (j, &b) in open.iter().enumerate().skip(i + 1) {
                w[i * k + j] = self.weights[a * self.n + b];
            }
        }
        let mut mate = self.fixed.clone();
        for (i, m) in max_weight_matching(&w, k).into_iter().enumerate() {
            mate[open[i]] = m.map(|j| open[j]);
        }
        mate
    }
}
