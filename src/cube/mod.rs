//! The doubling cube in evaluation: what a cube is worth, when to double
//! and when to take, for money play and matches.
//!
//! - [`state`]: the cube and the stakes (money or a match score), checked;
//! - [`met`]: match equity tables (gnubg's XML format; Kazaross-XG2 shipped);
//! - [`janowski`]: cubeless probabilities to cubeful equity at 0-ply, match
//!   winning chances and equity, gammon prices;
//! - [`efficiency`]: the cube efficiency of a position class;
//! - [`decision`]: no double / double-take / double-pass and what they say;
//! - [`bearoff`]: exact cubeful money equities of small bear-offs.
//!
//! The cubeful search itself lives with the checker search, in
//! [`crate::search::cubeful`], and shares its filters and cache.

pub mod bearoff;
pub mod decision;
pub mod efficiency;
pub mod janowski;
pub mod met;
pub mod state;

pub use decision::{CubeAction, CubeDecision};
pub use met::MatchEquityTable;
pub use state::{CubeState, Owner};

use crate::variant::Variant;

/// The match equity table a variant's match play uses by default.
pub fn default_met(variant: Variant) -> &'static MatchEquityTable {
    match variant {
        Variant::Backgammon => MatchEquityTable::kazaross_xg2(),
        // Until tables generated from the nardy games' own win and mars rates
        // ship, they use the backgammon table.
        Variant::Nardy | Variant::GulBara => MatchEquityTable::kazaross_xg2(),
    }
}
