//! A small multilayer perceptron: one hidden layer of sigmoids and five
//! sigmoid outputs (win, win gammon, win backgammon, lose gammon, lose
//! backgammon, each for the player on roll).
//!
//! The first layer is stored input-major (`w1[i * hidden .. (i + 1) * hidden]`
//! holds the weights from input `i`): board encodings are mostly zeros, so the
//! forward pass adds only the columns of the non-zero inputs, which is what
//! makes 0-ply evaluation cheap.

use crate::error::{Error, Result};

pub const OUTPUTS: usize = 5;
/// Hidden units summed together in registers by the first layer.
const BLOCK: usize = 32;
/// Inputs the blocked first layer takes (its list of active inputs lives on the stack).
const MAX_SPARSE_INPUTS: usize = 256;
const MAGIC: &[u8; 4] = b"TVNN";

#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    pub inputs: usize,
    pub hidden: usize,
    /// Input-major first layer, `inputs * hidden`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// Output-major second layer, `OUTPUTS * hidden`.
    pub w2: Vec<f32>,
    pub b2: [f32; OUTPUTS],
}

#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Lanes of the output sums in [`Mlp::evaluate_sparse`].
pub(crate) const LANES: usize = 8;

/// The logistic function with `exp` by Cephes' single-precision polynomial:
/// plain multiplies and adds (no fused ones) and a round to even, so a loop
/// of them vectorizes and every lane gives the scalar bits. Within 2e-7 of
/// [`sigmoid`] (absolute).
#[inline(always)]
pub fn fast_sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + fast_exp(-x))
}

/// [`fast_sigmoid`] on eight lanes, operation for operation.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn sigmoid_avx2(x: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    let one = _mm256_set1_ps(1.0);
    let x = _mm256_xor_ps(x, _mm256_set1_ps(-0.0));
    let x = _mm256_max_ps(_mm256_min_ps(x, _mm256_set1_ps(87.0)), _mm256_set1_ps(-87.0));
    let n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(std::f32::consts::LOG2_E)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    let r =
        _mm256_sub_ps(_mm256_sub_ps(x, _mm256_mul_ps(n, _mm256_set1_ps(0.693_359_4))), _mm256_mul_ps(n, _mm256_set1_ps(-2.121_944_4e-4)));
    let mut p = _mm256_set1_ps(1.987_569_1e-4);
    for c in [1.398_2e-3, 8.333_452e-3, 4.166_579_6e-2, 0.166_666_65, 0.5] {
        p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(c));
    }
    p = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(p, _mm256_mul_ps(r, r)), r), one);
    let scale = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23));
    _mm256_div_ps(one, _mm256_add_ps(one, _mm256_mul_ps(p, scale)))
}

#[inline(always)]
fn fast_exp(x: f32) -> f32 {
    let x = x.clamp(-87.0, 87.0);
    let n = (x * std::f32::consts::LOG2_E).round_ties_even();
    let r = x - n * 0.693_359_4 - n * -2.121_944_4e-4;
    let mut p = 1.987_569_1e-4;
    p = p * r + 1.398_2e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 0.166_666_65;
    p = p * r + 0.5;
    p = p * (r * r) + r + 1.0;
    p * f32::from_bits(((n as i32 + 127) as u32) << 23)
}

/// The hidden activations kept from a forward pass, for training.
pub struct Activations {
    pub hidden: Vec<f32>,
    pub out: [f32; OUTPUTS],
}

impl Mlp {
    /// Small random weights from a fixed seed.
    pub fn new(inputs: usize, hidden: usize, seed: u64) -> Mlp {
        let mut rng = crate::dice::Dice::training(seed);
        let scale1 = 1.0 / (inputs as f32).sqrt();
        let scale2 = 1.0 / (hidden as f32).sqrt();
        Mlp {
            inputs,
            hidden,
            w1: (0..inputs * hidden).map(|_| rng.symmetric() * scale1).collect(),
            b1: vec![0.0; hidden],
            w2: (0..OUTPUTS * hidden).map(|_| rng.symmetric() * scale2).collect(),
            b2: [0.0; OUTPUTS],
        }
    }

    /// Forward pass over a dense input vector, skipping its zeros.
    pub fn forward(&self, x: &[f32], hidden: &mut Vec<f32>) -> [f32; OUTPUTS] {
        debug_assert_eq!(x.len(), self.inputs);
        hidden.clear();
        hidden.extend_from_slice(&self.b1);
        self.add_first_layer(x, hidden);
        for h in hidden.iter_mut() {
            *h = sigmoid(*h);
        }
        let mut out = self.b2;
        for (k, o) in out.iter_mut().enumerate() {
            let row = &self.w2[k * self.hidden..(k + 1) * self.hidden];
            *o += row.iter().zip(hidden.iter()).map(|(w, h)| w * h).sum::<f32>();
            *o = sigmoid(*o);
        }
        out
    }

    /// Adds the first layer's weighted inputs to `hidden` (which holds the
    /// biases). Each hidden unit sums its terms in input order, whichever path
    /// runs, so every path gives the same bits.
    fn add_first_layer(&self, x: &[f32], hidden: &mut [f32]) {
        if x.len() > MAX_SPARSE_INPUTS || !self.hidden.is_multiple_of(BLOCK) {
            return self.add_first_layer_by_input(x, hidden);
        }
        let mut active = [(0u32, 0f32); MAX_SPARSE_INPUTS];
        let mut n = 0;
        for (i, &v) in x.iter().enumerate() {
            if v != 0.0 {
                active[n] = (i as u32, v);
                n += 1;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been checked to have AVX2.
            return unsafe { self.add_blocks_avx2(&active[..n], hidden) };
        }
        self.add_blocks(&active[..n], hidden)
    }

    /// The plain loop: adds each non-zero input's column to the whole hidden
    /// vector (for shapes the blocked loop does not take).
    fn add_first_layer_by_input(&self, x: &[f32], hidden: &mut [f32]) {
        for (i, &v) in x.iter().enumerate() {
            if v != 0.0 {
                let col = &self.w1[i * self.hidden..(i + 1) * self.hidden];
                for (h, &w) in hidden.iter_mut().zip(col) {
                    *h += v * w;
                }
            }
        }
    }

    /// `BLOCK` hidden units at a time, their sums kept in registers while
    /// every active input adds its weights: the hidden vector is read and
    /// written once instead of once per active input.
    #[inline(always)]
    fn add_blocks(&self, active: &[(u32, f32)], hidden: &mut [f32]) {
        for (b, block) in hidden.chunks_exact_mut(BLOCK).enumerate() {
            let mut acc: [f32; BLOCK] = block.try_into().expect("a whole block");
            for &(i, v) in active {
                let start = i as usize * self.hidden + b * BLOCK;
                let w: &[f32; BLOCK] = self.w1[start..start + BLOCK].try_into().expect("a whole block");
                for k in 0..BLOCK {
                    acc[k] += v * w[k];
                }
            }
            block.copy_from_slice(&acc);
        }
    }

    /// The same loop compiled for AVX2 (eight lanes): still a multiply and
    /// then an add per term (Rust never fuses them), so the same bits.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn add_blocks_avx2(&self, active: &[(u32, f32)], hidden: &mut [f32]) {
        self.add_blocks(active, hidden)
    }

    /// The search's forward pass, from the non-zero inputs in input order
    /// ([`crate::nn::encoding::encode_sparse`]): the first layer as in
    /// [`Mlp::forward`] (the same bits), then the hidden sigmoids by
    /// [`fast_sigmoid`] and the output sums eight lanes at a time, fused per
    /// block of hidden units. It differs from [`Mlp::forward`] (training's
    /// pass, libm's `exp` and sums in unit order) by at most a few units in
    /// the last place of each output (tested to within 1e-6).
    pub fn evaluate_sparse(&self, active: &[(u32, f32)]) -> [f32; OUTPUTS] {
        self.evaluate_sparse_after(&self.b1, active)
    }

    /// [`Mlp::evaluate_sparse`] of the inputs `head` followed by `rest` (all in
    /// input order), given `sums`, the [`Mlp::hidden_sums`] of `head`: the same
    /// bits, because each hidden sum adds its terms one at a time in input
    /// order from its bias, so after `head` it is `sums` on every path. A
    /// prefix shared by many positions (the player on roll's points, the same
    /// for every play of the opponent under a node) is then added once.
    pub fn evaluate_sparse_after(&self, sums: &[f32], rest: &[(u32, f32)]) -> [f32; OUTPUTS] {
        assert_eq!(sums.len(), self.hidden, "one partial sum per hidden unit");
        if rest.len() > MAX_SPARSE_INPUTS || !self.hidden.is_multiple_of(BLOCK) {
            let active = rest;
            let mut x = vec![0.0; self.inputs];
            for &(i, v) in active {
                x[i as usize] = v;
            }
            let mut hidden = sums.to_vec();
            self.add_first_layer_by_input(&x, &mut hidden);
            let mut acc = [[0f32; LANES]; OUTPUTS];
            for (j, h) in hidden.iter().enumerate() {
                let s = fast_sigmoid(*h);
                for (k, a) in acc.iter_mut().enumerate() {
                    a[j % LANES] += self.w2[k * self.hidden + j] * s;
                }
            }
            return self.outputs(&acc);
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been checked to have AVX2; `hidden` is a
            // multiple of BLOCK (above) and `sums` has `hidden` entries (asserted).
            return unsafe { self.blocks_avx2_widest(sums, rest) };
        }
        self.evaluate_blocks(sums, rest)
    }

    /// [`Mlp::evaluate_sparse`] for the blocked shapes: each block of hidden
    /// sums stays in registers from its bias to its share of the outputs.
    #[inline(always)]
    fn evaluate_blocks(&self, start: &[f32], active: &[(u32, f32)]) -> [f32; OUTPUTS] {
        let mut acc = [[0f32; LANES]; OUTPUTS];
        for b in 0..self.hidden / BLOCK {
            let mut sums: [f32; BLOCK] = start[b * BLOCK..(b + 1) * BLOCK].try_into().expect("a whole block");
            for &(i, v) in active {
                let start = i as usize * self.hidden + b * BLOCK;
                let w: &[f32; BLOCK] = self.w1[start..start + BLOCK].try_into().expect("a whole block");
                for k in 0..BLOCK {
                    sums[k] += v * w[k];
                }
            }
            let mut h = [0f32; BLOCK];
            for k in 0..BLOCK {
                h[k] = fast_sigmoid(sums[k]);
            }
            for (o, a) in acc.iter_mut().enumerate() {
                let row: &[f32; BLOCK] =
                    self.w2[o * self.hidden + b * BLOCK..o * self.hidden + (b + 1) * BLOCK].try_into().expect("a whole block");
                for k in 0..BLOCK {
                    a[k % LANES] += row[k] * h[k];
                }
            }
        }
        self.outputs(&acc)
    }

    /// The hidden sums (biases plus the first layer) of sparse inputs in
    /// input order, as [`Mlp::evaluate_sparse`] computes them (the same bits).
    pub fn hidden_sums(&self, active: &[(u32, f32)], sums: &mut Vec<f32>) {
        sums.clear();
        sums.extend_from_slice(&self.b1);
        self.add_sparse(active, sums);
    }

    /// The hidden sums of an input from those of another (`base`) and the
    /// inputs that differ between them, each with its change: the plays of
    /// a roll change a few inputs, so this is the cheap way to the sums of
    /// siblings. It equals [`Mlp::hidden_sums`] up to the order of the float
    /// additions (tested within 1e-4 on each sum).
    pub fn hidden_sums_plus(&self, base: &[f32], difference: &[(u32, f32)], sums: &mut Vec<f32>) {
        sums.clear();
        sums.extend_from_slice(base);
        self.add_sparse(difference, sums);
    }

    /// [`Mlp::outputs_from_sums`] of the sums [`Mlp::hidden_sums_plus`] makes
    /// from `base` and `difference`, in one pass: eight hidden units at a
    /// time, their sums kept in a register from `base` through the changed
    /// inputs (in the order given) to their sigmoids and share of the outputs,
    /// never stored. Each sum adds the same terms in the same order and the
    /// outputs sum the same lanes in the same order, so the same bits (tested):
    /// the pruning network's pass over the sibling plays of a roll.
    pub fn outputs_from_sums_plus(&self, base: &[f32], difference: &[(u32, f32)]) -> [f32; OUTPUTS] {
        assert_eq!(base.len(), self.hidden, "one partial sum per hidden unit");
        assert!(difference.iter().all(|&(i, _)| (i as usize) < self.inputs), "inputs of the network");
        #[cfg(target_arch = "x86_64")]
        if self.hidden.is_multiple_of(LANES) && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been checked to have AVX2; the shapes are checked above.
            return unsafe { self.outputs_from_sums_plus_avx2(base, difference) };
        }
        let mut sums = Vec::with_capacity(self.hidden);
        self.hidden_sums_plus(base, difference, &mut sums);
        self.outputs_from_sums_plain(&sums)
    }

    /// [`Mlp::outputs_from_sums_plus`] in AVX2 intrinsics (the caller checks
    /// that `hidden` is a multiple of [`LANES`], `base` has `hidden` sums and
    /// every input index is below `inputs`): blocks of four registers where
    /// the shape allows, so each changed input is read once a block.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn outputs_from_sums_plus_avx2(&self, base: &[f32], difference: &[(u32, f32)]) -> [f32; OUTPUTS] {
        if self.hidden.is_multiple_of(4 * LANES) {
            self.blocks_avx2_widest(base, difference)
        } else if self.hidden.is_multiple_of(2 * LANES) {
            self.blocks_avx2::<2>(base, difference)
        } else {
            self.blocks_avx2::<1>(base, difference)
        }
    }

    /// [`Mlp::blocks_avx2`] with the widest block `hidden` allows, of the
    /// shapes whose `hidden` is a multiple of four registers: eight registers
    /// (64 units) where it divides `hidden`. Each input's add waits for the
    /// one before on the same unit (a few cycles), so the more independent
    /// units a block keeps in flight the less the adds wait.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn blocks_avx2_widest(&self, base: &[f32], difference: &[(u32, f32)]) -> [f32; OUTPUTS] {
        if self.hidden.is_multiple_of(8 * LANES) {
            self.blocks_avx2::<8>(base, difference)
        } else {
            self.blocks_avx2::<4>(base, difference)
        }
    }

    /// The outputs of the hidden sums `base` plus the inputs `difference`, in
    /// AVX2 intrinsics with `N` registers (`N * LANES` hidden units, which
    /// divides `hidden`) a block, each block's sums kept in registers from
    /// `base` to its share of the outputs: a whole pass from a prefix's sums
    /// ([`Mlp::evaluate_sparse_after`]) or a sibling's from its parent's
    /// ([`Mlp::outputs_from_sums_plus`]). Per unit: the same adds in the same
    /// order; per output lane: the units in the same order, whatever `N`
    /// (no fused multiply-adds), so the same bits as [`Mlp::evaluate_blocks`]
    /// (tested).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn blocks_avx2<const N: usize>(&self, base: &[f32], difference: &[(u32, f32)]) -> [f32; OUTPUTS] {
        use std::arch::x86_64::*;
        let (w1, w2, hidden) = (self.w1.as_ptr(), self.w2.as_ptr(), self.hidden);
        let mut acc = [_mm256_setzero_ps(); OUTPUTS];
        for b in 0..hidden / (N * LANES) {
            let first = b * N * LANES;
            // In bounds: first + N * LANES <= hidden, i < inputs.
            let mut s = [_mm256_setzero_ps(); N];
            for (k, sk) in s.iter_mut().enumerate() {
                *sk = _mm256_loadu_ps(base.as_ptr().add(first + k * LANES));
            }
            for &(i, v) in difference {
                let (w, v) = (w1.add(i as usize * hidden + first), _mm256_set1_ps(v));
                for (k, sk) in s.iter_mut().enumerate() {
                    *sk = _mm256_add_ps(*sk, _mm256_mul_ps(v, _mm256_loadu_ps(w.add(k * LANES))));
                }
            }
            for (k, sk) in s.iter().enumerate() {
                let h = sigmoid_avx2(*sk);
                for (o, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_add_ps(*a, _mm256_mul_ps(_mm256_loadu_ps(w2.add(o * hidden + first + k * LANES)), h));
                }
            }
        }
        let mut lanes = [[0f32; LANES]; OUTPUTS];
        for (l, a) in lanes.iter_mut().zip(acc) {
            _mm256_storeu_ps(l.as_mut_ptr(), a);
        }
        self.outputs(&lanes)
    }

    /// The outputs from the hidden sums: [`Mlp::evaluate_sparse`]'s second
    /// half (the same bits from the same sums).
    pub fn outputs_from_sums(&self, sums: &[f32]) -> [f32; OUTPUTS] {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been checked to have AVX2.
            return unsafe { self.outputs_from_sums_avx2(sums) };
        }
        self.outputs_from_sums_plain(sums)
    }

    /// [`Mlp::outputs_from_sums_plain`] in AVX2 intrinsics (the same bits).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn outputs_from_sums_avx2(&self, sums: &[f32]) -> [f32; OUTPUTS] {
        use std::arch::x86_64::*;
        if !self.hidden.is_multiple_of(LANES) || sums.len() != self.hidden {
            return self.outputs_from_sums_plain(sums);
        }
        let mut acc = [_mm256_setzero_ps(); OUTPUTS];
        for c in 0..self.hidden / LANES {
            let h = sigmoid_avx2(_mm256_loadu_ps(sums.as_ptr().add(c * LANES)));
            for (o, a) in acc.iter_mut().enumerate() {
                // In bounds: o * hidden + (c + 1) * LANES <= OUTPUTS * hidden.
                *a = _mm256_add_ps(*a, _mm256_mul_ps(_mm256_loadu_ps(self.w2.as_ptr().add(o * self.hidden + c * LANES)), h));
            }
        }
        let mut lanes = [[0f32; LANES]; OUTPUTS];
        for (l, a) in lanes.iter_mut().zip(acc) {
            _mm256_storeu_ps(l.as_mut_ptr(), a);
        }
        self.outputs(&lanes)
    }

    #[inline(always)]
    pub(crate) fn outputs_from_sums_plain(&self, sums: &[f32]) -> [f32; OUTPUTS] {
        let mut acc = [[0f32; LANES]; OUTPUTS];
        for (c, chunk) in sums.chunks(LANES).enumerate() {
            let mut h = [0f32; LANES];
            for (hk, &x) in h.iter_mut().zip(chunk) {
                *hk = fast_sigmoid(x);
            }
            for (o, a) in acc.iter_mut().enumerate() {
                let row = &self.w2[o * self.hidden + c * LANES..o * self.hidden + c * LANES + chunk.len()];
                for (k, &w) in row.iter().enumerate() {
                    a[k] += w * h[k];
                }
            }
        }
        self.outputs(&acc)
    }

    /// Adds sparse inputs' weighted columns to `sums` (blocked where the shape allows).
    fn add_sparse(&self, active: &[(u32, f32)], sums: &mut [f32]) {
        if active.len() > MAX_SPARSE_INPUTS || !self.hidden.is_multiple_of(BLOCK) {
            for &(i, v) in active {
                let col = &self.w1[i as usize * self.hidden..(i as usize + 1) * self.hidden];
                for (h, &w) in sums.iter_mut().zip(col) {
                    *h += v * w;
                }
            }
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been checked to have AVX2.
            return unsafe { self.add_blocks_avx2(active, sums) };
        }
        self.add_blocks(active, sums)
    }

    /// The output sigmoids ([`fast_sigmoid`]) of the lane sums, each summed in one fixed order.
    #[inline(always)]
    pub(crate) fn outputs(&self, acc: &[[f32; LANES]; OUTPUTS]) -> [f32; OUTPUTS] {
        let mut out = self.b2;
        for (o, a) in out.iter_mut().zip(acc) {
            let s = ((a[0] + a[4]) + (a[1] + a[5])) + ((a[2] + a[6]) + (a[3] + a[7]));
            *o = fast_sigmoid(*o + s);
        }
        out
    }

    pub fn evaluate(&self, x: &[f32]) -> [f32; OUTPUTS] {
        let mut hidden = Vec::with_capacity(self.hidden);
        self.forward(x, &mut hidden)
    }

    /// One gradient step of squared error towards `target` for input `x`
    /// (the TD update when the target is the next position's value). Returns
    /// the squared error summed over the outputs, measured before the step.
    pub fn train_step(&mut self, x: &[f32], target: &[f32; OUTPUTS], rate: f32) -> f32 {
        let mut hidden = Vec::with_capacity(self.hidden);
        let out = self.forward(x, &mut hidden);
        let mut delta_out = [0f32; OUTPUTS];
        let mut squared = 0.0;
        for k in 0..OUTPUTS {
            squared += (target[k] - out[k]) * (target[k] - out[k]);
            delta_out[k] = (target[k] - out[k]) * out[k] * (1.0 - out[k]);
        }
        // Back-propagate to the hidden layer before changing w2.
        let mut delta_hidden = vec![0f32; self.hidden];
        for (j, dh) in delta_hidden.iter_mut().enumerate() {
            let mut s = 0.0;
            for (k, d) in delta_out.iter().enumerate() {
                s += d * self.w2[k * self.hidden + j];
            }
            *dh = s * hidden[j] * (1.0 - hidden[j]);
        }
        for (k, &d) in delta_out.iter().enumerate() {
            let row = &mut self.w2[k * self.hidden..(k + 1) * self.hidden];
            for (w, h) in row.iter_mut().zip(hidden.iter()) {
                *w += rate * d * h;
            }
            self.b2[k] += rate * d;
        }
        for (i, &v) in x.iter().enumerate() {
            if v != 0.0 {
                let col = &mut self.w1[i * self.hidden..(i + 1) * self.hidden];
                for (w, dh) in col.iter_mut().zip(delta_hidden.iter()) {
                    *w += rate * v * dh;
                }
            }
        }
        for (b, dh) in self.b1.iter_mut().zip(delta_hidden.iter()) {
            *b += rate * dh;
        }
        squared
    }

    /// Little-endian file: magic, inputs, hidden (u32), then every f32.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(12 + 4 * (self.w1.len() + self.b1.len() + self.w2.len() + OUTPUTS));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2).chain(&self.b2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Mlp> {
        if bytes.len() < 12 || &bytes[..4] != MAGIC {
            return Err(Error::new("not a tavla network file (bad magic)"));
        }
        let word = |k: usize| u32::from_le_bytes(bytes[k..k + 4].try_into().expect("4 bytes")) as usize;
        let (inputs, hidden) = (word(4), word(8));
        let count = inputs * hidden + hidden + OUTPUTS * hidden + OUTPUTS;
        if bytes.len() != 12 + 4 * count {
            return Err(Error::new(format!(
                "network file has {} bytes, expected {} for {inputs} inputs and {hidden} hidden units",
                bytes.len(),
                12 + 4 * count
            )));
        }
        let floats: Vec<f32> = bytes[12..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        let (w1, rest) = floats.split_at(inputs * hidden);
        let (b1, rest) = rest.split_at(hidden);
        let (w2, b2) = rest.split_at(OUTPUTS * hidden);
        Ok(Mlp { inputs, hidden, w1: w1.to_vec(), b1: b1.to_vec(), w2: w2.to_vec(), b2: b2.try_into().expect("five outputs") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_first_layer_gives_the_same_bits_as_the_plain_loop() {
        let net = Mlp::new(245, 128, 3);
        let mut rng = crate::dice::Dice::training(5);
        for _ in 0..20 {
            // Mostly zeros, as board encodings are.
            let x: Vec<f32> = (0..245).map(|_| if rng.symmetric() > 0.5 { rng.symmetric() } else { 0.0 }).collect();
            let (mut blocked, mut plain) = (net.b1.clone(), net.b1.clone());
            net.add_first_layer(&x, &mut blocked);
            net.add_first_layer_by_input(&x, &mut plain);
            assert_eq!(blocked.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), plain.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
        }
        // A shape the blocked loop does not take still evaluates.
        let odd = Mlp::new(7, 5, 1);
        let out = odd.evaluate(&[1.0, 0.0, 0.5, 0.0, 0.0, 2.0, 0.0]);
        assert!(out.iter().all(|p| (0.0..=1.0).contains(p)));
    }

    #[test]
    fn the_search_pass_agrees_with_the_training_pass() {
        let mut rng = crate::dice::Dice::training(9);
        for (inputs, hidden) in [(245, 256), (245, 32), (40, 20)] {
            let net = Mlp::new(inputs, hidden, 4);
            for _ in 0..50 {
                let x: Vec<f32> = (0..inputs).map(|_| if rng.symmetric() > 0.4 { 2.0 * rng.symmetric() } else { 0.0 }).collect();
                let active: Vec<(u32, f32)> = x.iter().enumerate().filter(|(_, v)| **v != 0.0).map(|(i, v)| (i as u32, *v)).collect();
                let (a, b) = (net.evaluate_sparse(&active), net.evaluate(&x));
                for k in 0..OUTPUTS {
                    assert!((a[k] - b[k]).abs() <= 1e-6, "{inputs}x{hidden} output {k}: {} vs {}", a[k], b[k]);
                }
                if hidden % BLOCK == 0 {
                    // The vector and the scalar loops give the same bits.
                    assert_eq!(net.evaluate_blocks(&net.b1, &active).map(f32::to_bits), a.map(f32::to_bits));
                }
                // Any prefix's sums carried on give the same bits as the whole pass, on every shape.
                for split in [0, active.len() / 3, active.len()] {
                    let (head, rest) = active.split_at(split);
                    let mut sums = Vec::new();
                    net.hidden_sums(head, &mut sums);
                    assert_eq!(net.evaluate_sparse_after(&sums, rest).map(f32::to_bits), a.map(f32::to_bits), "{inputs}x{hidden} {split}");
                }
            }
        }
        for k in -2000..=2000 {
            let x = k as f32 * 0.05;
            assert!((fast_sigmoid(x) - sigmoid(x)).abs() <= 2e-7, "{x}");
        }
        assert_eq!(fast_sigmoid(1e9), 1.0);
        assert!(fast_sigmoid(-1e9) < 1e-37);
    }

    #[test]
    fn sums_from_a_sibling_agree_with_sums_from_scratch() {
        let mut rng = crate::dice::Dice::training(13);
        for hidden in [64, 16, 20] {
            let net = Mlp::new(198, hidden, 6);
            let dense = |rng: &mut crate::dice::Dice| -> Vec<f32> {
                (0..198).map(|_| if rng.below(3) == 0 { 1.0 + rng.below(4) as f32 * 0.5 } else { 0.0 }).collect()
            };
            let sparse =
                |x: &[f32]| -> Vec<(u32, f32)> { x.iter().enumerate().filter(|(_, v)| **v != 0.0).map(|(i, v)| (i as u32, *v)).collect() };
            let base_x = dense(&mut rng);
            let (mut base, mut sums, mut direct) = (Vec::new(), Vec::new(), Vec::new());
            net.hidden_sums(&sparse(&base_x), &mut base);
            if hidden % BLOCK == 0 {
                assert_eq!(net.outputs_from_sums(&base), net.evaluate_sparse(&sparse(&base_x)));
                assert_eq!(net.outputs_from_sums(&base), net.outputs_from_sums_plain(&base));
            }
            for _ in 0..30 {
                let x = dense(&mut rng);
                let difference: Vec<(u32, f32)> = (0..198).filter(|&i| x[i] != base_x[i]).map(|i| (i as u32, x[i] - base_x[i])).collect();
                net.hidden_sums_plus(&base, &difference, &mut sums);
                net.hidden_sums(&sparse(&x), &mut direct);
                for (a, b) in sums.iter().zip(&direct) {
                    assert!((a - b).abs() <= 1e-4, "{a} vs {b}");
                }
                // The fused sibling pass gives the two-step pass's bits.
                assert_eq!(
                    net.outputs_from_sums_plus(&base, &difference).map(f32::to_bits),
                    net.outputs_from_sums(&sums).map(f32::to_bits)
                );
                let (p, q) = (net.outputs_from_sums(&sums), net.outputs_from_sums(&direct));
                for k in 0..OUTPUTS {
                    assert!((p[k] - q[k]).abs() <= 1e-5);
                }
            }
        }
    }

    #[test]
    fn bytes_round_trip_and_bad_files() {
        let net = Mlp::new(10, 4, 7);
        assert_eq!(Mlp::from_bytes(&net.to_bytes()).unwrap(), net);
        assert!(Mlp::from_bytes(b"nope").is_err());
        let mut short = net.to_bytes();
        short.pop();
        assert!(Mlp::from_bytes(&short).unwrap_err().to_string().contains("bytes"));
    }

    #[test]
    fn training_moves_outputs_towards_target() {
        let mut net = Mlp::new(6, 8, 1);
        let x = [1.0, 0.0, 0.5, 0.0, 0.0, 1.0];
        let target = [0.9, 0.1, 0.0, 0.2, 0.0];
        let before = net.evaluate(&x);
        for _ in 0..200 {
            net.train_step(&x, &target, 0.5);
        }
        let after = net.evaluate(&x);
        for k in 0..OUTPUTS {
            assert!((after[k] - target[k]).abs() < (before[k] - target[k]).abs() + 1e-6, "{k}");
            assert!((after[k] - target[k]).abs() < 0.05);
        }
    }
}
