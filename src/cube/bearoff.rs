//! Exact cubeful money equities of small bear-offs.
//!
//! When both sides have at most [`TWO_SIDED_CHECKERS`] checkers left (all
//! home, nine or more off each, so no gammons), the whole game tree is small
//! enough to solve with the cube in it: expectimax over both sides' plays and
//! both sides' doubles, takes and passes, for money with an unlimited cube.
//! No formula or cube efficiency is involved, and this is where the cube
//! matters most (last rolls, the 2-roll and 3-roll positions).
//!
//! For each (mover, opponent) pair three values are kept, all of the player
//! on roll before its roll and all *without* its option to double now
//! (normalized to the current cube): the cube centered, the cube its own,
//! and the cube the opponent's. The option itself is the search's usual
//! choice, max(no double, min(2 x the value with the opponent owning the
//! cube, 1)), so these tables slot in where Janowski's formulas would give
//! the same three values.

use std::sync::OnceLock;

use super::state::Owner;
use crate::bearoff::{bearoff_homes, BearoffRule, TwoSidedLayout, TWO_SIDED_CHECKERS};
use crate::dice::rolls;
use crate::position::Position;

/// The three no-double values of every small bear-off pair.
pub struct CubefulBearoff {
    centered: Vec<f32>,
    owned: Vec<f32>,
    theirs: Vec<f32>,
}

/// A value with the option to double now: no double, or double and let the
/// taker choose the smaller of taking (the opponent then owns the cube at
/// twice the value) and passing (+1).
fn with_option(no_double: f32, theirs: f32) -> f32 {
    no_double.max((2.0 * theirs).min(1.0))
}

impl CubefulBearoff {
    pub fn build(rule: BearoffRule) -> CubefulBearoff {
        let TwoSidedLayout { n, children, order, empty } = TwoSidedLayout::new(rule);
        let mut t = CubefulBearoff { centered: vec![0.0; n * n], owned: vec![0.0; n * n], theirs: vec![0.0; n * n] };
        for (me, them) in order {
            let k = me * n + them;
            if them == empty {
                // The opponent is off: the player "on roll" has lost one cube.
                (t.centered[k], t.owned[k], t.theirs[k]) = (-1.0, -1.0, -1.0);
                continue;
            }
            if me == empty {
                (t.centered[k], t.owned[k], t.theirs[k]) = (1.0, 1.0, 1.0);
                continue;
            }
            // After my play the opponent is on roll at (them, mine): with the
            // cube centered it may double; with my cube it may not; with its
            // own cube it may redouble.
            let (mut centered, mut owned, mut theirs) = (0.0f32, 0.0f32, 0.0f32);
            for (&(_, _, p), results) in rolls().iter().zip(&children[me]) {
                let p = p as f32;
                let best = |value: &dyn Fn(usize) -> f32| results.iter().map(|&c| -value(them * n + c)).fold(f32::MIN, f32::max);
                centered += p * best(&|j| with_option(t.centered[j], t.theirs[j]));
                owned += p * best(&|j| t.theirs[j]);
                theirs += p * best(&|j| with_option(t.owned[j], t.theirs[j]));
            }
            (t.centered[k], t.owned[k], t.theirs[k]) = (centered, owned, theirs);
        }
        t
    }

    /// The player on roll's no-double value of `pos` with the cube's `owner`,
    /// when both sides are in the table.
    pub fn no_double(&self, pos: &Position, owner: Owner) -> Option<f32> {
        let (me, them) = bearoff_homes(pos)?;
        let k = TwoSidedLayout::index(&me, &them)?;
        Some(match owner {
            Owner::Centered => self.centered[k],
            Owner::Me => self.owned[k],
            Owner::Opponent => self.theirs[k],
        })
    }
}

static STANDARD: OnceLock<CubefulBearoff> = OnceLock::new();
static CASCADE: OnceLock<CubefulBearoff> = OnceLock::new();

/// The table of `pos`'s rules (built at first use, about a second), if it
/// has one; `None` also for gul bara's `exact_bearoff` option.
pub fn table_for(pos: &Position) -> Option<&'static CubefulBearoff> {
    let rule = BearoffRule::for_rules(pos.rules())?;
    let cell = match rule {
        BearoffRule::Standard => &STANDARD,
        BearoffRule::Cascade => &CASCADE,
    };
    Some(cell.get_or_init(|| CubefulBearoff::build(rule)))
}

/// Whether `pos` is one of the small bear-offs the table holds.
pub fn covers(pos: &Position) -> bool {
    bearoff_homes(pos)
        .is_some_and(|(me, them)| me.iter().sum::<u8>() <= TWO_SIDED_CHECKERS && them.iter().sum::<u8>() <= TWO_SIDED_CHECKERS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

    fn pos(mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Position {
        Position::from_points(Rules::backgammon(), mine, theirs)
    }

    #[test]
    fn last_roll_and_two_roll_positions() {
        let t = table_for(&Position::start(Rules::backgammon())).unwrap();
        // One checker each on the 1-point: I bear off now and win one cube.
        let sure = pos(&[(1, 1)], &[(1, 1)]);
        assert!((t.no_double(&sure, Owner::Centered).unwrap() - 1.0).abs() < 1e-6);
        // Last roll: my one checker on the 6-point, the opponent off next
        // roll: I win exactly with the rolls that bear it off (a 6, or two
        // dice that reach it: 5-1, 4-2, 2-2 and more), so the equity is
        // 2p - 1 whoever owns the cube (after a miss the opponent wins anyway).
        let last = pos(&[(6, 1)], &[(1, 1)]);
        let p = crate::bearoff::tables(BearoffRule::Standard).two_sided.win(&[0, 0, 0, 0, 0, 1], &[1, 0, 0, 0, 0, 0]);
        assert!(p > 0.6 && p < 0.8, "{p}");
        for owner in [Owner::Centered, Owner::Me, Owner::Opponent] {
            let v = t.no_double(&last, owner).unwrap();
            assert!((v - (2.0 * p - 1.0)).abs() < 1e-6, "{owner:?}: {v}");
        }
        assert!(!covers(&Position::start(Rules::backgammon())));
        assert!(covers(&last));
    }

    #[test]
    fn owning_the_cube_is_worth_something_in_a_long_bear_off() {
        let t = table_for(&Position::start(Rules::backgammon())).unwrap();
        let p = pos(&[(6, 2), (5, 2), (4, 2)], &[(6, 2), (5, 2), (3, 2)]);
        let (c, o, u) =
            (t.no_double(&p, Owner::Centered).unwrap(), t.no_double(&p, Owner::Me).unwrap(), t.no_double(&p, Owner::Opponent).unwrap());
        assert!(o > c && c > u, "{o} {c} {u}");
    }
}
