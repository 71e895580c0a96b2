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
use std::sync::OnceLock;

/// The share of won games that are mars (koks included) when the shipped
/// networks play long nardy against themselves at 0-ply, cubeless, under the
/// default rules: the gammon rate of its generated match equity table.
/// Measured with the networks shipped since their ranking rounds by `cargo
/// run --release --example nardy_match_equity -- rates 20000 7 2`: 0.1918 +-
/// 0.0028 of 20,000 games (with `koks` on, 0.150 of the wins are koks; the
/// table still counts them as mars). The first generation's was 0.2139.
pub const NARDY_MARS_RATE: f64 = 0.1918;

/// The same for gul bara (cascades from the fourth roll): 0.3975 +- 0.0035
/// of 20,000 games (koks on: 0.185 koks; the first generation's 0.3856).
pub const GUL_BARA_MARS_RATE: f64 = 0.3975;

/// The match equity table a variant's match play uses by default:
/// Kazaross-XG2 for backgammon; for long nardy and gul bara a table from
/// Zadeh's model (gnubg's method of generating tables) with the variant's
/// own mars rate, filled to 64 points, so that a match's gammon (mars)
/// prices are the game's and not backgammon's.
pub fn default_met(variant: Variant) -> &'static MatchEquityTable {
    static NARDY: OnceLock<MatchEquityTable> = OnceLock::new();
    static GUL_BARA: OnceLock<MatchEquityTable> = OnceLock::new();
    match variant {
        // The reserve games keep backgammon's results (single, gammon, backgammon).
        Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => MatchEquityTable::kazaross_xg2(),
        Variant::Nardy => NARDY.get_or_init(|| generated("tavla-nardy", NARDY_MARS_RATE)),
        Variant::GulBara => GUL_BARA.get_or_init(|| generated("tavla-gulbara", GUL_BARA_MARS_RATE)),
    }
}

fn generated(name: &str, mars_rate: f64) -> MatchEquityTable {
    MatchEquityTable::from_gammon_rate(name, mars_rate, met::MAX_SCORE).expect("the shipped mars rates are in [0, 1)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nardy_games_have_their_own_tables() {
        for (variant, name) in [(Variant::Nardy, "tavla-nardy"), (Variant::GulBara, "tavla-gulbara")] {
            let table = default_met(variant);
            assert_eq!(table.name(), name);
            assert!((table.mwc(5, 5, false) - 0.5).abs() < 1e-12);
            // The trailer's chance falls with the distance.
            assert!(table.mwc(3, 2, false) < 0.5 && table.mwc(4, 2, false) < table.mwc(3, 2, false));
        }
        assert_eq!(default_met(Variant::Backgammon).name(), MatchEquityTable::kazaross_xg2().name());
    }
}
