//! An int16 first layer for a network's search pass (AVX2 `_mm256_madd_epi16`,
//! a scalar loop giving the same integers).
//!
//! The weights of input `i` are rounded to `i16` at a scale of their own,
//! `S_i` (a power of two, the largest that keeps the row's largest weight
//! inside `i16`), and an input's value to an `i16` at `T / S_i`, so every
//! product is the float product at the one scale `T` of the `i32` sums. The
//! rows are stored in pairs (inputs `2k` and `2k + 1` interleaved per hidden
//! unit): one `madd` multiplies both inputs of a pair for eight hidden units
//! and adds them, so a pair with both inputs set costs what one input costs.
//! Integer sums do not depend on their order, so a prefix's sums carried on
//! give the whole pass's integers whatever the split. The hidden sums are
//! then `sum / T + bias` in `f32`, and the sigmoids and the output layer are
//! the float pass's ([`Mlp::evaluate_sparse`]).

use crate::nn::mlp::{Mlp, LANES, OUTPUTS};

/// The largest input value the quantized inputs keep exactly in range
/// (larger ones saturate): the encodings' values stay below 8 (a point's
/// fourth unit is at most 6, the features at most about 3).
const MAX_VALUE: f32 = 8.0;
/// The finest scale of a row of weights (their step 1/2048).
const MAX_ROW_SCALE: f32 = 2048.0;
/// The most active inputs the pass takes on the stack (more go by the scalar loop).
const MAX_PAIRS: usize = 256;

/// A network's first layer in `i16`, for the search's pass (see the module doc).
#[derive(Clone, Debug)]
pub struct QuantizedFirstLayer {
    inputs: usize,
    hidden: usize,
    /// `w[(k * hidden + h) * 2 + j]`: the weight from input `2k + j` to hidden unit `h`, at `S_{2k+j}`.
    w: Vec<i16>,
    /// Per input: `T / S_i`, what its value is multiplied by before rounding.
    input_scale: Vec<f32>,
    /// `1 / T`.
    inverse: f32,
}

/// A value at a fixed-point scale, rounded (half away from zero) and
/// saturated to `i16`: a truncating conversion, no libm call.
#[inline(always)]
fn to_i16(x: f32) -> i16 {
    let half = if x < 0.0 { -0.5 } else { 0.5 };
    ((x + half) as i32).clamp(-32767, 32767) as i16
}

impl QuantizedFirstLayer {
    pub fn new(net: &Mlp) -> QuantizedFirstLayer {
        let (inputs, hidden) = (net.inputs, net.hidden);
        // Each row's scale: the largest power of two keeping its weights in i16, at most
        // MAX_ROW_SCALE: a finer row would leave its values coarser (at T / S_i).
        let row_scale: Vec<f32> = (0..inputs)
            .map(|i| {
                let max = net.w1[i * hidden..(i + 1) * hidden].iter().fold(0f32, |m, w| m.max(w.abs()));
                let mut s = MAX_ROW_SCALE;
                while s > 1.0 / 1024.0 && max * s > 32767.0 {
                    s *= 0.5;
                }
                s
            })
            .collect();
        // The sums' scale: the largest (at most 2^22, which keeps sums up to 512 inside
        // i32) at which the largest value of every input still fits in i16 at T / S_i.
        let smallest = row_scale.iter().copied().fold(MAX_ROW_SCALE, f32::min);
        let total = (smallest * (32767.0 / MAX_VALUE)).min(4_194_304.0);
        let total = 2f32.powi(total.log2().floor() as i32);
        let mut w = vec![0i16; inputs.div_ceil(2) * 2 * hidden];
        for i in 0..inputs {
            for h in 0..hidden {
                w[((i / 2) * hidden + h) * 2 + i % 2] = to_i16(net.w1[i * hidden + h] * row_scale[i]);
            }
        }
        QuantizedFirstLayer { inputs, hidden, w, input_scale: row_scale.iter().map(|s| total / s).collect(), inverse: 1.0 / total }
    }

    /// The active inputs (in input order) as pairs written to `out` (at
    /// least `active.len()` long): (pair index, both quantized values packed
    /// in an `i32`, input `2k` in the low half; an input not given is 0).
    /// Returns how many pairs.
    fn pairs(&self, active: &[(u32, f32)], out: &mut [(u32, i32)]) -> usize {
        let mut n = 0;
        for &(i, v) in active {
            assert!((i as usize) < self.inputs, "input {i} of a network with {} inputs", self.inputs);
            let q = to_i16(v * self.input_scale[i as usize]) as u16 as u32;
            let (k, shift) = (i / 2, 16 * (i % 2));
            if n > 0 && out[n - 1].0 == k {
                out[n - 1].1 |= (q << shift) as i32;
            } else {
                out[n] = (k, (q << shift) as i32);
                n += 1;
            }
        }
        n
    }

    /// The `i32` hidden sums of `active` (no bias), added to `sums` (which
    /// holds `hidden` sums: zeros, or a prefix's).
    pub fn add_sums(&self, active: &[(u32, f32)], sums: &mut [i32]) {
        assert_eq!(sums.len(), self.hidden, "one sum per hidden unit");
        let mut pairs = vec![(0, 0); active.len()];
        let n = self.pairs(active, &mut pairs);
        #[cfg(target_arch = "x86_64")]
        if self.hidden.is_multiple_of(LANES) && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been checked to have AVX2, `sums` has `hidden` sums
            // (asserted) and every pair's index is checked by `pairs`.
            return unsafe { self.add_sums_avx2(&pairs[..n], sums) };
        }
        self.add_pairs_plain(&pairs[..n], sums);
    }

    /// [`QuantizedFirstLayer::add_sums`]'s scalar loop (wrapping, as `madd` and its adds are).
    fn add_pairs_plain(&self, pairs: &[(u32, i32)], sums: &mut [i32]) {
        for &(k, packed) in pairs {
            let (lo, hi) = (packed as i16 as i32, (packed >> 16) as i16 as i32);
            let row = &self.w[k as usize * 2 * self.hidden..(k as usize + 1) * 2 * self.hidden];
            for (s, w) in sums.iter_mut().zip(row.chunks_exact(2)) {
                *s = s.wrapping_add((w[0] as i32 * lo).wrapping_add(w[1] as i32 * hi));
            }
        }
    }

    /// [`QuantizedFirstLayer::add_sums`] eight sums at a time: the same integers.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn add_sums_avx2(&self, pairs: &[(u32, i32)], sums: &mut [i32]) {
        use std::arch::x86_64::*;
        for c in 0..self.hidden / LANES {
            // In bounds: (c + 1) * LANES <= hidden = sums.len(); k < inputs / 2 rounded up.
            let at = sums.as_mut_ptr().add(c * LANES) as *mut __m256i;
            let mut s = _mm256_loadu_si256(at);
            for &(k, packed) in pairs {
                let row = self.w.as_ptr().add((k as usize * self.hidden + c * LANES) * 2) as *const __m256i;
                s = _mm256_add_epi32(s, _mm256_madd_epi16(_mm256_loadu_si256(row), _mm256_set1_epi32(packed)));
            }
            _mm256_storeu_si256(at, s);
        }
    }

    /// The hidden sums (with their biases) of `prefix` (the `i32` sums of
    /// some inputs, [`QuantizedFirstLayer::add_sums`]) and the inputs `rest`.
    fn hidden_sums(&self, net: &Mlp, prefix: &[i32], rest: &[(u32, f32)]) -> Vec<f32> {
        let mut sums = prefix.to_vec();
        self.add_sums(rest, &mut sums);
        sums.iter().zip(&net.b1).map(|(&s, &b)| s as f32 * self.inverse + b).collect()
    }

    /// `net`'s outputs (this layer built from it) for the inputs whose `i32`
    /// sums are `prefix` followed by `rest`: the float pass
    /// ([`Mlp::evaluate_sparse_after`]) with this first layer, the same bits
    /// on every path (tested).
    pub fn evaluate_after(&self, net: &Mlp, prefix: &[i32], rest: &[(u32, f32)]) -> [f32; OUTPUTS] {
        assert!(net.inputs == self.inputs && net.hidden == self.hidden, "the network this layer was built from");
        assert_eq!(prefix.len(), self.hidden, "one sum per hidden unit");
        #[cfg(target_arch = "x86_64")]
        if self.hidden.is_multiple_of(LANES) && rest.len() <= MAX_PAIRS && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been checked to have AVX2; the shapes are checked above
            // and every pair's index by `pairs`.
            return unsafe { self.evaluate_after_avx2(net, prefix, rest) };
        }
        self.evaluate_after_plain(net, prefix, rest)
    }

    fn evaluate_after_plain(&self, net: &Mlp, prefix: &[i32], rest: &[(u32, f32)]) -> [f32; OUTPUTS] {
        net.outputs_from_sums_plain(&self.hidden_sums(net, prefix, rest))
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_after_avx2(&self, net: &Mlp, prefix: &[i32], rest: &[(u32, f32)]) -> [f32; OUTPUTS] {
        let mut pairs = [(0u32, 0i32); MAX_PAIRS];
        let n = self.pairs(rest, &mut pairs);
        let pairs = &pairs[..n];
        if self.hidden.is_multiple_of(4 * LANES) {
            self.blocks_avx2::<4>(net, prefix, pairs)
        } else {
            self.blocks_avx2::<1>(net, prefix, pairs)
        }
    }

    /// [`QuantizedFirstLayer::evaluate_after_avx2`] with `N` registers of
    /// hidden units a block (`N * LANES` divides `hidden`): each pair read
    /// once a block.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn blocks_avx2<const N: usize>(&self, net: &Mlp, prefix: &[i32], pairs: &[(u32, i32)]) -> [f32; OUTPUTS] {
        use std::arch::x86_64::*;
        let (w, w2, hidden) = (self.w.as_ptr(), net.w2.as_ptr(), self.hidden);
        let inverse = _mm256_set1_ps(self.inverse);
        let mut acc = [_mm256_setzero_ps(); OUTPUTS];
        for b in 0..hidden / (N * LANES) {
            let first = b * N * LANES;
            // In bounds: first + N * LANES <= hidden; k < inputs / 2 rounded up (checked in `pairs`).
            let mut s = [_mm256_setzero_si256(); N];
            for (j, sj) in s.iter_mut().enumerate() {
                *sj = _mm256_loadu_si256(prefix.as_ptr().add(first + j * LANES) as *const __m256i);
            }
            for &(k, packed) in pairs {
                let (row, v) = (w.add((k as usize * hidden + first) * 2), _mm256_set1_epi32(packed));
                for (j, sj) in s.iter_mut().enumerate() {
                    *sj = _mm256_add_epi32(*sj, _mm256_madd_epi16(_mm256_loadu_si256(row.add(2 * j * LANES) as *const __m256i), v));
                }
            }
            for (j, sj) in s.iter().enumerate() {
                let bias = _mm256_loadu_ps(net.b1.as_ptr().add(first + j * LANES));
                let h = crate::nn::mlp::sigmoid_avx2(_mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(*sj), inverse), bias));
                for (o, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_add_ps(*a, _mm256_mul_ps(_mm256_loadu_ps(w2.add(o * hidden + first + j * LANES)), h));
                }
            }
        }
        let mut lanes = [[0f32; LANES]; OUTPUTS];
        for (l, a) in lanes.iter_mut().zip(acc) {
            _mm256_storeu_ps(l.as_mut_ptr(), a);
        }
        net.outputs(&lanes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::encoding::encode_sparse;
    use crate::position::Position;
    use crate::variant::{Rules, Variant};

    /// Positions of seeded random backgammon games (contact and races).
    fn positions(n: usize, seed: u64) -> Vec<Position> {
        let mut rng = crate::dice::Dice::training(seed);
        let mut movegen = crate::movegen::MoveGen::new();
        let mut plays = Vec::new();
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Position::start(Rules::backgammon());
            for _ in 0..200 {
                movegen.legal_moves(&pos, rng.die(), rng.die(), &mut plays);
                let next = plays[rng.below(plays.len())].position;
                if crate::eval::game_result(&next).is_some() {
                    break;
                }
                pos = next.flip();
                out.push(pos);
            }
        }
        out.truncate(n);
        out
    }

    #[test]
    fn the_int16_pass_is_within_its_tolerance_of_the_float_pass() {
        let net = crate::nn::shipped::network(Variant::Backgammon);
        let q = QuantizedFirstLayer::new(net);
        let (mut x, mut worst, mut equity_worst) = (Vec::new(), 0f32, 0f32);
        for pos in positions(4000, 5) {
            encode_sparse(&pos, net.inputs, &mut x);
            let exact = net.evaluate_sparse(&x);
            let zero = vec![0i32; net.hidden];
            let quantized = q.evaluate_after(net, &zero, &x);
            // Any split into a prefix and the rest gives the same bits, and the scalar loop too.
            for split in [1, x.len() / 2, x.len()] {
                let (head, rest) = x.split_at(split.min(x.len()));
                let mut prefix = vec![0i32; net.hidden];
                q.add_sums(head, &mut prefix);
                assert_eq!(q.evaluate_after(net, &prefix, rest).map(f32::to_bits), quantized.map(f32::to_bits));
            }
            assert_eq!(q.evaluate_after_plain(net, &zero, &x).map(f32::to_bits), quantized.map(f32::to_bits));
            let mut pairs = vec![(0, 0); x.len()];
            let n = q.pairs(&x, &mut pairs);
            let (mut vector, mut plain) = (vec![7i32; net.hidden], vec![7i32; net.hidden]);
            q.add_sums(&x, &mut vector);
            q.add_pairs_plain(&pairs[..n], &mut plain);
            assert_eq!(vector, plain);
            for k in 0..OUTPUTS {
                worst = worst.max((exact[k] - quantized[k]).abs());
            }
            let equity = |p: [f32; OUTPUTS]| crate::eval::Evaluation::new(p).equity();
            equity_worst = equity_worst.max((equity(exact) - equity(quantized)).abs());
        }
        // The stated tolerance (benches/README.md, "Search speed").
        eprintln!("largest output difference {worst}, equity {equity_worst}");
        assert!(worst <= 2e-3, "largest output difference {worst}");
        assert!(equity_worst <= 4e-3, "largest equity difference {equity_worst}");
        assert!(worst > 0.0, "the int16 pass is not the float pass");
    }

    #[test]
    fn a_network_with_large_weights_and_odd_shapes_still_quantizes() {
        let mut net = Mlp::new(7, 12, 3);
        net.w1[5] = 300.0;
        let q = QuantizedFirstLayer::new(&net);
        let active = [(0u32, 1.0f32), (3, 0.5), (6, 7.0)];
        let out = q.evaluate_after(&net, &[0; 12], &active);
        let exact = net.evaluate_sparse(&active);
        for k in 0..OUTPUTS {
            assert!((out[k] - exact[k]).abs() < 0.01, "{k}: {} vs {}", out[k], exact[k]);
        }
    }
}
