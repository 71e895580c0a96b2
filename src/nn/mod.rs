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
