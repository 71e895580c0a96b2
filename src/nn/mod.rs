//! Neural-network evaluation: a small MLP per variant, its input encodings,
//! and the network as a player. Training lives in the `coach` crate (`coach/`),
//! outside the engine and its wheels.
//!
//! - [`mlp`]: the network, its forward pass (sparse over the inputs) and file format;
//! - [`encoding`]: the inputs per variant;
//! - [`features`]: hand-made backgammon inputs (shots, escapes, contact);
//! - [`nardy_features`]: hand-made inputs of the nardy games (blocks, numbers taken away, race);
//! - [`cascade_features`]: gul bara's inputs on what each number of a cascade can play;
//! - [`quantized`]: an int16 first layer for the search's pass (an option);
//! - [`player`]: the networks a 0-ply player judges with, one roll of self-play, self-play positions;
//! - [`shipped`]: the trained weights compiled into the library.

pub mod cascade_features;
pub mod encoding;
pub mod features;
pub mod mlp;
pub mod nardy_features;
pub mod player;
pub mod quantized;
pub mod shipped;

pub use mlp::{Mlp, OUTPUTS};
