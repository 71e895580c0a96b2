//! tavla: an engine for the backgammon family (short backgammon, long nardy, gul bara).
//!
//! The crate is pure Rust; the Python extension module lives in [`python`]
//! and is compiled only with the `python` feature.
//!
//! - [`variant`]: the games and their rule options;
//! - [`position`]: the bitboard position, seen from the player on roll;
//! - [`movegen`]: legal turns and gul bara cascade steps;
//! - [`notation`]: the usual move notation ("24/18 13/11", "bar/22*");
//! - [`batch`]: many positions at once, on all cores;
//! - [`parallel`]: the one helper that shares numbered jobs out over threads, results in job order;
//! - [`dice`]: the one seeded generator (dice, named draws) and the 21 rolls;
//! - [`outcome`]: what a game's end is worth (the five probabilities, equity, results);
//! - [`turn`]: the one turn driver (what a roll does in every variant) and the chooser trait;
//! - [`cascade`]: gul bara's cascading doubles as whole turns (the mover's part, the opponent's share);
//! - [`game`]: whole games and matches, the cube, trivial players, the snapshot (a position with
//!   its turn, dice, cube and score);
//! - [`cube`]: cube decisions and cubeful equity, match equity tables;
//! - [`formats`]: the texts of [`game`]'s state: XGID, GNU Backgammon IDs, FIBS boards, the
//!   project's JSON, and game and match records (it depends on [`game`], not the other way);
//! - [`eval`], [`bearoff`], [`search`]: evaluation, exact race tables, expectiminimax
//!   (cubeless, and cubeful in [`search::cubeful`]);
//! - [`nn`], [`rollout`]: neural networks (training lives in the `coach` crate) and rollouts;
//! - [`duel`], [`bench`], [`perft`]: strength harness, search bench, move-generator counts.

pub mod batch;
pub mod bearoff;
pub mod bench;
pub mod cascade;
pub mod cube;
pub mod dice;
pub mod duel;
pub mod error;
pub mod eval;
pub mod formats;
pub mod game;
pub mod limits;
pub mod movegen;
pub mod nn;
pub mod notation;
pub mod outcome;
pub mod parallel;
pub mod perft;
pub mod position;
pub mod rollout;
pub mod search;
pub mod turn;
pub mod variant;

#[cfg(feature = "python")]
pub mod python;

#[cfg(test)]
mod loops_agree;

pub use error::{Error, Result};
pub use game::{Game, Phase};
pub use movegen::{legal_moves, Move, MoveGen, Play, Step};
pub use position::Position;
pub use variant::{FenceRule, HeadException, OpeningRoll, OptionValue, Rules, Variant};

/// A thread count where 0 asks for one thread per core (the convention of
/// every `threads` setting, in Rust and in Python).
pub fn threads_or_all_cores(requested: usize) -> usize {
    if requested > 0 {
        requested
    } else {
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
    }
}

#[cfg(test)]
mod perft_pins {
    //! The perft counts, pinned: a change in move generation changes them.
    //! Backgammon's 406 and 163,706 agree with GNU Backgammon's generator
    //! (tests/test_perft.py); its third level, 29,420,722, takes minutes and
    //! lives in `scripts/perft.py`.
    use crate::perft::perft;
    use crate::Rules;

    #[test]
    fn backgammon() {
        assert_eq!(perft(Rules::backgammon(), 2), vec![406, 163_706]);
    }

    #[test]
    fn nardy() {
        assert_eq!(perft(Rules::nardy(), 3), vec![13, 166, 4_201]);
    }

    #[test]
    fn nardy_head_exception_readings() {
        // The reference generator (tests/reference/rules_ref.py) gives the same counts.
        for (reading, counts) in [("blocked", vec![13, 172, 4_509]), ("head_blocked", vec![13, 165, 4_173])] {
            let mut rules = Rules::nardy();
            rules.set("first_turn_head_exception", &crate::OptionValue::Str(reading.into())).unwrap();
            assert_eq!(perft(rules, 3), counts, "{reading}");
        }
    }

    #[test]
    fn gulbara() {
        assert_eq!(perft(Rules::gulbara(), 3), vec![43, 1_816, 82_323]);
    }

    #[test]
    fn dutch() {
        // The reserve games' reference (tests/reference/reserve_ref.py) gives
        // the same counts, scripts/diff_reference.py --perft checks them.
        assert_eq!(perft(Rules::dutch(), 3), vec![21, 441, 4_221]);
        let mut free = Rules::dutch();
        free.set("enter_all_first", &crate::OptionValue::Bool(false)).unwrap();
        assert_eq!(perft(free, 3), vec![50, 2_450, 125_382]);
    }

    #[test]
    fn acey_deucey() {
        // The 1-2 roll counts each whole sequence's result (the reference agrees);
        // the third level is larger than a unit test should wait for.
        assert_eq!(perft(Rules::acey_deucey(), 2), vec![219, 46_867]);
    }
}
