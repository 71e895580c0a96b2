//! tavla: an engine for the backgammon family (short backgammon, long nardy, gul bara).
//!
//! The crate is pure Rust; the Python extension module lives in [`python`]
//! and is compiled only with the `python` feature.
//!
//! - [`variant`]: the games and their rule options;
//! - [`position`]: the bitboard position, seen from the player on roll;
//! - [`movegen`]: legal turns and gul bara cascade steps;
//! - [`notation`]: the usual move notation ("24/18 13/11", "bar/22*");
//! - [`batch`]: many positions at once, on all cores.

pub mod batch;
pub mod bench;
pub mod bearoff;
pub mod duel;
pub mod eval;
pub mod error;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod search;
pub mod variant;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, Result};
pub use movegen::{legal_moves, Move, MoveGen, Play, Step};
pub use position::Position;
pub use variant::{FenceRule, HeadException, OptionValue, Rules, Variant};
