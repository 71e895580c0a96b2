//! Neural-network evaluation: a small MLP per variant, its input encodings,
//! and self-play TD training.
//!
//! - [`mlp`]: the network, its forward pass (sparse over the inputs) and file format;
//! - [`encoding`]: the inputs per variant;
//! - [`features`]: hand-made backgammon inputs (shots, escapes, contact);
//! - [`td`]: self-play TD(0) training and a quick strength check against random play;
//! - [`supervised`]: training on searched labels of self-play positions (the next stage);
//! - [`shipped`]: the trained weights compiled into the library.

pub mod encoding;
pub mod features;
pub mod mlp;
pub mod shipped;
pub mod supervised;
pub mod td;

pub use mlp::{Mlp, OUTPUTS};

/// The seeded generator of training and rollouts: the dice generator
/// (splitmix64) with the draws the trainer needs.
#[derive(Clone, Debug)]
pub struct SplitMix(crate::dice::Dice);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(crate::dice::Dice::new(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// `0..n` by modulo (kept as trained: changing it would change every run).
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
