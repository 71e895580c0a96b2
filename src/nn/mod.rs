//! Neural-network evaluation: a small MLP per variant, its input encodings,
//! and self-play TD training.
//!
//! - [`mlp`]: the network, its forward pass (sparse over the inputs) and file format;
//! - [`encoding`]: the inputs per variant;
//! - [`td`]: self-play TD(0) training and a quick strength check against random play;
//! - [`shipped`]: the trained weights compiled into the library.

pub mod encoding;
pub mod mlp;
pub mod shipped;
pub mod td;

pub use mlp::{Mlp, OUTPUTS};

/// A tiny seeded generator (splitmix64): reproducible training without extra crates.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
    /// Uniform in [-1, 1).
    pub fn symmetric(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

/// The five probabilities seen from the other player.
pub fn invert(p: &[f32; OUTPUTS]) -> [f32; OUTPUTS] {
    [1.0 - p[0], p[3], p[4], p[1], p[2]]
}

/// Cubeless equity of the five probabilities (points per game for the player on roll).
pub fn equity(p: &[f32; OUTPUTS]) -> f32 {
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}
