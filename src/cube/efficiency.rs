//! Cube efficiency: how much of a perfectly live cube's value a real cube
//! keeps in a position, by position class.
//!
//! Backgammon uses the values GNU Backgammon's 0-ply uses (published in its
//! documentation and settings): 0.68 with contact, 0.6 in a bear-off, and in
//! a race a straight line in the player on roll's pip count from 0.6 at 40
//! pips to 0.7 at 120 (longer races are more like contact, shorter ones
//! leave less time to use the cube). Keeping these identical is what makes
//! tavla's 0-ply cube decisions comparable with gnubg's on equal
//! probabilities.
//!
//! Long nardy and gul bara have no published values. Until they are fitted
//! against cubeful rollouts they use the same classes, with a race's pip
//! count scaled by the starting pip counts (167 in backgammon, 360 in the
//! nardy games) so that a race of the same length in rolls gets the same
//! efficiency.

use crate::position::{Position, CHECKERS, ME, THEM};
use crate::variant::Variant;

/// Contact positions (gnubg's contact and crashed classes).
pub const CONTACT: f64 = 0.68;
/// Both sides bearing off.
pub const BEAR_OFF: f64 = 0.6;
/// Races: `RACE_BASE + RACE_PER_PIP * pips`, within `RACE_MIN..=RACE_MAX`.
pub const RACE_BASE: f64 = 0.55;
pub const RACE_PER_PIP: f64 = 0.00125;
pub const RACE_MIN: f64 = 0.6;
pub const RACE_MAX: f64 = 0.7;

/// The position classes that decide the efficiency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionClass {
    /// The game is over: the cube is dead.
    Over,
    /// Both sides have every checker home (or off).
    BearOff,
    /// No contact can happen again.
    Race,
    Contact,
}

pub fn classify(pos: &Position) -> PositionClass {
    if pos.off(ME) == CHECKERS || pos.off(THEM) == CHECKERS {
        PositionClass::Over
    } else if pos.all_home(ME) && pos.all_home(THEM) {
        PositionClass::BearOff
    } else if pos.is_race() {
        PositionClass::Race
    } else {
        PositionClass::Contact
    }
}

/// The cube efficiency of `pos` for the player on roll.
pub fn efficiency(pos: &Position) -> f64 {
    match classify(pos) {
        PositionClass::Over => 0.0,
        PositionClass::BearOff => BEAR_OFF,
        PositionClass::Contact => CONTACT,
        PositionClass::Race => {
            let pips = pos.pips()[ME] as f64;
            let pips = match pos.variant() {
                Variant::Backgammon => pips,
                // Scaled to backgammon's race lengths: 360 pips at the start against 167.
                Variant::Nardy | Variant::GulBara => pips * 167.0 / 360.0,
            };
            (RACE_BASE + RACE_PER_PIP * pips).clamp(RACE_MIN, RACE_MAX)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

    fn race(mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Position {
        let (mut m, mut t) = ([0i64; 25], [0i64; 25]);
        for &(p, n) in mine {
            m[p - 1] = n;
        }
        for &(p, n) in theirs {
            t[p - 1] = n;
        }
        Position::from_arrays(Rules::backgammon(), &m, &t).unwrap()
    }

    #[test]
    fn classes_and_values() {
        assert_eq!(efficiency(&Position::start(Rules::backgammon())), CONTACT);
        // A 90-pip race for the player on roll: 0.55 + 0.1125.
        let long = race(&[(6, 10), (10, 3)], &[(6, 15)]);
        assert_eq!(classify(&long), PositionClass::Race);
        assert_eq!(long.pips()[ME], 90);
        assert!((efficiency(&long) - 0.6625).abs() < 1e-12);
        let home = race(&[(6, 15)], &[(5, 15)]);
        assert_eq!(classify(&home), PositionClass::BearOff);
        assert_eq!(efficiency(&home), BEAR_OFF);
        let over = race(&[], &[(5, 15)]);
        assert_eq!(efficiency(&over), 0.0);
    }
}
