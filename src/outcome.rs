//! What a game's end is worth: the five cubeless probabilities of the
//! player on roll ([`Evaluation`]: equity, the other side's view), the result
//! of a finished position and its multiplier (single, gammon, backgammon; oin,
//! mars, koks), and the results a position can no longer reach.
//!
//! Every layer that speaks of outcomes (evaluators, the bear-off tables, the
//! search, training, rollouts, the cube) uses these; none has its own copy.

use crate::position::{Position, CHECKERS, ME, THEM};
use crate::variant::Variant;

/// Cubeless probabilities for the player on roll; gammons include
/// backgammons, and the losing chances are `1 - win`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Evaluation {
    pub win: f32,
    pub win_gammon: f32,
    pub win_backgammon: f32,
    pub lose_gammon: f32,
    pub lose_backgammon: f32,
}

impl Evaluation {
    pub fn new(p: [f32; 5]) -> Evaluation {
        Evaluation { win: p[0], win_gammon: p[1], win_backgammon: p[2], lose_gammon: p[3], lose_backgammon: p[4] }
    }

    pub fn to_array(&self) -> [f32; 5] {
        [self.win, self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon]
    }

    /// Cubeless equity: expected points per game (1 per single, 2 per gammon, 3 per backgammon).
    pub fn equity(&self) -> f32 {
        2.0 * self.win - 1.0 + self.win_gammon - self.lose_gammon + self.win_backgammon - self.lose_backgammon
    }

    /// The same evaluation from the other player's side.
    pub fn invert(&self) -> Evaluation {
        Evaluation {
            win: 1.0 - self.win,
            win_gammon: self.lose_gammon,
            win_backgammon: self.lose_backgammon,
            lose_gammon: self.win_gammon,
            lose_backgammon: self.win_backgammon,
        }
    }

    /// Probability-weighted sum, for averaging over rolls.
    pub fn add_scaled(&mut self, other: &Evaluation, weight: f32) {
        self.win += weight * other.win;
        self.win_gammon += weight * other.win_gammon;
        self.win_backgammon += weight * other.win_backgammon;
        self.lose_gammon += weight * other.lose_gammon;
        self.lose_backgammon += weight * other.lose_backgammon;
    }

    /// Clamps into a consistent set: 0 <= backgammon <= gammon <= win (or lose) <= 1.
    pub fn consistent(mut self) -> Evaluation {
        self.win = self.win.clamp(0.0, 1.0);
        let lose = 1.0 - self.win;
        self.win_gammon = self.win_gammon.clamp(0.0, self.win);
        self.win_backgammon = self.win_backgammon.clamp(0.0, self.win_gammon);
        self.lose_gammon = self.lose_gammon.clamp(0.0, lose);
        self.lose_backgammon = self.lose_backgammon.clamp(0.0, self.lose_gammon);
        self
    }

    /// [`Evaluation::consistent`], with the results `pos` can no longer reach
    /// set to zero: an evaluator only estimates them, the rules settle them.
    /// A side that has borne off a checker loses at most a single game. A
    /// side is caught for the triple only with a checker in the winner's home
    /// (backgammon) or on the winner's first twelve points (the nardy games'
    /// koks); once none is there and nothing can be hit again (a backgammon
    /// race; the nardy games never hit) none will return.
    pub fn possible_in(self, pos: &Position) -> Evaluation {
        let mut e = self.consistent();
        if pos.off(ME) > 0 {
            e.lose_gammon = 0.0;
            e.lose_backgammon = 0.0;
        }
        if pos.off(THEM) > 0 {
            e.win_gammon = 0.0;
            e.win_backgammon = 0.0;
        }
        if !can_be_caught(pos, ME) {
            e.lose_backgammon = 0.0;
        }
        if !can_be_caught(pos, THEM) {
            e.win_backgammon = 0.0;
        }
        e
    }
}

/// Whether `side` may still lose a backgammon (koks) in `pos`.
fn can_be_caught(pos: &Position, side: usize) -> bool {
    // The winner's caught zone in `side`'s own numbering, as bits of the
    // mover's numbering: backgammon's winner's home is the loser's 19..24,
    // the nardy games' winner's 1..12 is the loser's 13..24.
    match pos.variant() {
        Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => {
            let zone = if side == ME { 0x3F << 18 } else { 0x3F };
            !pos.is_race() || pos.bar(side) + pos.reserve(side) > 0 || pos.occupied(side) & zone != 0
        }
        Variant::Nardy | Variant::GulBara => {
            let zone = if side == ME { 0xFFF << 12 } else { 0xFFF };
            pos.rules().koks && pos.occupied(side) & zone != 0
        }
    }
}

/// The points a finished game is worth and who won it: `Some((mover_won,
/// points))`, or `None` while it goes on.
pub fn game_result(pos: &Position) -> Option<(bool, u8)> {
    if pos.off(THEM) == CHECKERS {
        Some((false, bear_off_multiplier(&pos.flip())))
    } else if pos.off(ME) == CHECKERS {
        Some((true, bear_off_multiplier(pos)))
    } else {
        None
    }
}

/// The exact evaluation of a finished game.
pub fn final_evaluation(mover_won: bool, points: u8) -> Evaluation {
    let p = [1.0, (points >= 2) as u8 as f32, (points >= 3) as u8 as f32, 0.0, 0.0];
    let e = Evaluation::new(p);
    if mover_won {
        e
    } else {
        e.invert()
    }
}

/// The result multiplier when the mover (ME) of `pos` has borne off all its
/// checkers: RULES.md sections 2 and 3.
pub fn bear_off_multiplier(pos: &Position) -> u8 {
    debug_assert_eq!(pos.off(ME), CHECKERS);
    if pos.off(THEM) > 0 {
        return 1;
    }
    match pos.variant() {
        Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => {
            // The loser's points 19..24 are the winner's home, 1..6; a checker
            // in reserve counts as on the bar (RULES.md section 5).
            let caught = pos.bar(THEM) + pos.reserve(THEM) > 0 || pos.occupied(THEM) & crate::position::HOME_MASK != 0;
            if caught {
                3
            } else {
                2
            }
        }
        Variant::Nardy | Variant::GulBara => {
            // Koks: a checker still on the loser's points 13..24, which are the
            // winner's points 1..12 (its home and the quarter behind it).
            if pos.rules().koks && pos.occupied(THEM) & 0xFFF != 0 {
                3
            } else {
                2
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{OptionValue, Rules};

    use crate::position::points_array as arrays;

    fn pos(rules: Rules, mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Position {
        Position::from_points(rules, mine, theirs)
    }

    #[test]
    fn finished_games_score_exactly() {
        let bg = Rules::backgammon();
        // Opponent is off; I have borne off some: single loss.
        let p = pos(bg, &[(3, 2)], &[]);
        assert_eq!(game_result(&p), Some((false, 1)));
        // I have all 15 on the board: gammon.
        let p = pos(bg, &[(3, 15)], &[]);
        assert_eq!(game_result(&p), Some((false, 2)));
        // ... and one in the opponent's home (my 19..24) or on the bar: backgammon.
        let p = pos(bg, &[(3, 14), (20, 1)], &[]);
        assert_eq!(game_result(&p), Some((false, 3)));
        let p = pos(bg, &[(3, 14), (25, 1)], &[]);
        assert_eq!(game_result(&p), Some((false, 3)));
        let (won, points) = game_result(&p).unwrap();
        let e = final_evaluation(won, points);
        assert_eq!(e.to_array(), [0.0, 0.0, 0.0, 1.0, 1.0]);
        assert_eq!(e.equity(), -3.0);
        // Nardy: mars 2; far back counts only with koks.
        let n = pos(Rules::nardy(), &[(20, 15)], &[]);
        assert_eq!(game_result(&n), Some((false, 2)));
        let mut koks = Rules::nardy();
        koks.koks = true;
        assert_eq!(game_result(&pos(koks, &[(20, 15)], &[])), Some((false, 3)));
        assert_eq!(game_result(&pos(koks, &[(5, 15)], &[])), Some((false, 2)));
        // Not over.
        assert_eq!(game_result(&Position::start(bg)), None);
    }

    #[test]
    fn invert_and_equity_agree() {
        let e = Evaluation::new([0.6, 0.2, 0.05, 0.1, 0.01]);
        assert!((e.equity() + e.invert().equity()).abs() < 1e-6);
        assert_eq!(e.invert().invert(), e);
        assert!((e.equity() - (0.2 + 0.1 + 0.04)).abs() < 1e-6);
    }

    #[test]
    fn backgammon_results() {
        let r = Rules::backgammon();
        let won = [0i64; 25];
        // Loser has one checker off: single.
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 14)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 1);
        // None off, all home: gammon.
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 15)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 2);
        // None off, one on its 19 (the winner's home): backgammon.
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 14), (19, 1)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 3);
        // None off, one on the bar: backgammon.
        let mut loser = arrays(&[(6, 14)]);
        loser[24] = 1;
        let p = Position::from_arrays(r, &won, &loser).unwrap();
        assert_eq!(bear_off_multiplier(&p), 3);
        // None off, one on its 18 (outside the winner's home): gammon.
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 14), (18, 1)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 2);
    }

    #[test]
    fn koks_needs_its_option() {
        let mut r = Rules::nardy();
        let won = [0i64; 25];
        let far_back = arrays(&[(6, 14), (13, 1)]);
        let p = Position::from_arrays(r, &won, &far_back).unwrap();
        assert_eq!(bear_off_multiplier(&p), 2, "mars without koks");
        r.set("koks", &OptionValue::Bool(true)).unwrap();
        let p = Position::from_arrays(r, &won, &far_back).unwrap();
        assert_eq!(bear_off_multiplier(&p), 3, "koks: a checker on its 13");
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 14), (12, 1)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 2, "its 12 is not in or behind the winner's home");
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 13), (13, 1)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 1, "oin: one checker off");
    }
}
