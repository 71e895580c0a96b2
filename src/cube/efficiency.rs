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
//! Long nardy and gul bara have no published values: theirs are fitted
//! against cubeful money rollouts of self-play positions
//! (`examples/fit_cube_efficiency.rs`; the values, errors and commands are
//! at [`Efficiencies::NARDY`] and [`Efficiencies::GUL_BARA`]): per class,
//! the `x` that brings Janowski's value `(1 - x) dead + x live` on the
//! rollout's own cubeless probabilities closest (least squares) to the
//! rollout's cubeful "no double" value, with the cube centered, mine and the
//! opponent's. The fit started from [`Efficiencies::PROVISIONAL_NARDY`]
//! (backgammon's classes, a race's pips scaled by 167/360, the starting pip
//! counts) and was redone with its own values until they settled. Nardy's
//! cube is more efficient than backgammon's (0.86 with contact): without
//! hitting, a game turns slowly and the cube can be turned close to the
//! point. Gul bara's cascades make big swings, and its values are near
//! backgammon's. One `x` per class is the model; within a class the fit
//! varies with the cube (an owned cube fits lower, 0.73 in a nardy race and
//! 0.55 in a gul bara one, a centered cube higher), which a single
//! efficiency cannot follow.

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionClass {
    /// The game is over: the cube is dead.
    Over,
    /// Both sides have every checker home (or off).
    BearOff,
    /// No contact can happen again.
    Race,
    Contact,
}

impl PositionClass {
    /// The class's name as the Python API and the benchmark scripts spell it.
    pub fn name(self) -> &'static str {
        match self {
            PositionClass::Over => "over",
            PositionClass::BearOff => "bear-off",
            PositionClass::Race => "race",
            PositionClass::Contact => "contact",
        }
    }
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

/// A variant's cube efficiencies: one value with contact, one in a bear-off,
/// and in a race a straight line in the player on roll's pips (its own pip
/// count, in the variant's numbering) kept within `race_min..=race_max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Efficiencies {
    pub contact: f64,
    pub bear_off: f64,
    pub race_base: f64,
    pub race_per_pip: f64,
    pub race_min: f64,
    pub race_max: f64,
}

impl Efficiencies {
    /// GNU Backgammon's values.
    pub const BACKGAMMON: Efficiencies = Efficiencies {
        contact: CONTACT,
        bear_off: BEAR_OFF,
        race_base: RACE_BASE,
        race_per_pip: RACE_PER_PIP,
        race_min: RACE_MIN,
        race_max: RACE_MAX,
    };

    /// The nardy games before the fit: backgammon's, a race's pips scaled
    /// by 167/360 (what tavla used until the fitted values shipped; the fit
    /// starts from it).
    pub const PROVISIONAL_NARDY: Efficiencies = Efficiencies { race_per_pip: RACE_PER_PIP * 167.0 / 360.0, ..Efficiencies::BACKGAMMON };

    /// Long nardy, fitted by `cargo run --release --example
    /// fit_cube_efficiency -- nardy 100 432 2024 2` (300 self-play
    /// positions, 100 a class, 432 trials each; third iteration): contact
    /// 0.860 +- 0.020, race 0.812 +- 0.018, bear-off 0.662 +- 0.026
    /// (cluster-robust standard errors). A race line in the pips had a slope
    /// within 1.3 standard errors of zero, so races get one value.
    pub const NARDY: Efficiencies = Efficiencies::flat(0.86, 0.81, 0.66);

    /// Gul bara, fitted by `cargo run --release --example
    /// fit_cube_efficiency -- gulbara 100 432 2024 2` (the same design):
    /// contact 0.690 +- 0.020, race 0.688 +- 0.026, bear-off 0.597 +- 0.034;
    /// the race slope was within 0.6 standard errors of zero.
    pub const GUL_BARA: Efficiencies = Efficiencies::flat(0.69, 0.69, 0.60);

    /// One value per class, the race's the same at every pip count.
    pub const fn flat(contact: f64, race: f64, bear_off: f64) -> Efficiencies {
        Efficiencies { contact, bear_off, race_base: race, race_per_pip: 0.0, race_min: race, race_max: race }
    }

    /// The values a variant's 0-ply cube decisions use.
    pub fn of(variant: Variant) -> Efficiencies {
        match variant {
            // The reserve games play on the backgammon board; not yet fitted of their own.
            Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => Efficiencies::BACKGAMMON,
            Variant::Nardy => Efficiencies::NARDY,
            Variant::GulBara => Efficiencies::GUL_BARA,
        }
    }

    /// The efficiency of a position of `class` whose player on roll has `pips`.
    pub fn value(&self, class: PositionClass, pips: u32) -> f64 {
        match class {
            PositionClass::Over => 0.0,
            PositionClass::BearOff => self.bear_off,
            PositionClass::Contact => self.contact,
            PositionClass::Race => (self.race_base + self.race_per_pip * pips as f64).clamp(self.race_min, self.race_max),
        }
    }

    /// The efficiency of `pos` for the player on roll.
    pub fn at(&self, pos: &Position) -> f64 {
        self.value(classify(pos), pos.pips()[ME])
    }
}

/// The cube efficiency of `pos` for the player on roll, with its variant's values.
pub fn efficiency(pos: &Position) -> f64 {
    Efficiencies::of(pos.variant()).at(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

    fn race(mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Position {
        Position::from_points(Rules::backgammon(), mine, theirs)
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

    #[test]
    fn the_provisional_nardy_line_is_backgammons_in_scaled_pips() {
        let e = Efficiencies::PROVISIONAL_NARDY;
        // 194 nardy pips are 90 backgammon pips: 0.6625 as above.
        assert!((e.value(PositionClass::Race, 194) - (RACE_BASE + RACE_PER_PIP * 194.0 * 167.0 / 360.0)).abs() < 1e-12);
        for variant in [Variant::Nardy, Variant::GulBara] {
            let e = Efficiencies::of(variant);
            for x in [e.contact, e.bear_off, e.race_min, e.race_max] {
                assert!((0.0..=1.0).contains(&x), "{variant:?}: {e:?}");
            }
            assert_eq!(efficiency(&Position::start(Rules::new(variant))), e.contact);
        }
    }
}
