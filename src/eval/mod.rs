//! Position evaluation: the five cubeless probabilities of a position for the
//! player on roll, and the evaluators that estimate them.
//!
//! An [`Evaluator`] sees only positions that are still being played. The
//! [`static_evaluation`] function in front of it answers exactly where it
//! can: a finished game by its result, a bear-off from the tables of
//! [`crate::bearoff`]; the search always goes through it.
//!
//! - [`fake`]: a deterministic pip-count evaluator for tests;
//! - [`heuristic`]: hand-written evaluators per variant, the baseline;
//! - [`pubeval`]: Tesauro's public linear evaluator (backgammon only).

pub mod fake;
pub mod heuristic;
pub mod neural;
pub mod pubeval;

use crate::bearoff;
use crate::game::result::bear_off_multiplier;
use crate::error::{Error, Result};
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
        Variant::Backgammon => {
            let zone = if side == ME { 0x3F << 18 } else { 0x3F };
            !pos.is_race() || pos.bar(side) > 0 || pos.occupied(side) & zone != 0
        }
        Variant::Nardy | Variant::GulBara => {
            let zone = if side == ME { 0xFFF << 12 } else { 0xFFF };
            pos.rules().koks && pos.occupied(side) & zone != 0
        }
    }
}

/// Anything that estimates the cubeless probabilities of a position that is
/// still being played, for the player on roll.
pub trait Evaluator: Send + Sync {
    fn name(&self) -> String;
    fn evaluate(&self, pos: &Position) -> Evaluation;
    /// Many positions at once, in order (a network reuses its buffers over
    /// the batch; the default loops over [`Evaluator::evaluate`]).
    fn evaluate_batch(&self, positions: &[Position], out: &mut Vec<Evaluation>) {
        out.clear();
        out.extend(positions.iter().map(|p| self.evaluate(p)));
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

/// How a position was evaluated by [`static_evaluation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    GameOver,
    Bearoff,
    Evaluator,
}

/// The evaluation the search uses: exact where possible, else the evaluator.
pub fn static_evaluation(evaluator: &dyn Evaluator, pos: &Position, use_bearoff: bool) -> (Evaluation, Source) {
    exact_evaluation(pos, use_bearoff).unwrap_or_else(|| (evaluator.evaluate(pos).possible_in(pos), Source::Evaluator))
}

/// The exact part of [`static_evaluation`]: a finished game's result, or a
/// bear-off from the tables; `None` where only the evaluator can answer.
pub fn exact_evaluation(pos: &Position, use_bearoff: bool) -> Option<(Evaluation, Source)> {
    if let Some((won, points)) = game_result(pos) {
        return Some((final_evaluation(won, points), Source::GameOver));
    }
    if use_bearoff {
        if let Some(p) = bearoff::bearoff_probabilities(pos) {
            return Some((Evaluation::new(p), Source::Bearoff));
        }
    }
    None
}

/// The evaluators by name, for the Python layer and the command line.
pub fn evaluator_by_name(name: &str, variant: Variant) -> Result<Box<dyn Evaluator>> {
    match name {
        "heuristic" => Ok(Box::new(heuristic::Heuristic::new(variant))),
        "network" | "net" | "nn" => Ok(Box::new(neural::Network::shipped(variant))),
        other if other.starts_with("network=") => Ok(Box::new(neural::Network::from_file(&other[8..], variant)?)),
        "pubeval" if variant == Variant::Backgammon => Ok(Box::new(pubeval::PubEval)),
        "pubeval" => Err(Error::new(format!("pubeval evaluates backgammon only, not {}", variant.name()))),
        "pips" | "fake" => Ok(Box::new(fake::PipCount)),
        other => Err(Error::new(format!("unknown evaluator {other:?}: use network, heuristic, pubeval or pips"))),
    }
}

/// The logistic function, shared by the evaluators that map a score to odds.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

    fn pos(rules: Rules, mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Position {
        let mut m = [0i64; 25];
        let mut t = [0i64; 25];
        for &(p, n) in mine {
            m[p - 1] = n;
        }
        for &(p, n) in theirs {
            t[p - 1] = n;
        }
        Position::from_arrays(rules, &m, &t).unwrap()
    }

    /// Every result equally likely, whatever the position.
    struct Anything;
    impl Evaluator for Anything {
        fn name(&self) -> String {
            "anything".into()
        }
        fn evaluate(&self, _: &Position) -> Evaluation {
            Evaluation::new([0.5, 0.2, 0.1, 0.2, 0.1])
        }
    }

    fn estimated(pos: &Position) -> [f32; 5] {
        let (e, source) = static_evaluation(&Anything, pos, true);
        assert_eq!(source, Source::Evaluator);
        e.to_array()
    }

    #[test]
    fn results_the_position_rules_out_are_zero() {
        let bg = Rules::backgammon();
        // Contact, nothing off: everything stays possible.
        assert_eq!(estimated(&Position::start(bg)), [0.5, 0.2, 0.1, 0.2, 0.1]);
        // I have borne off two: I lose at most a single game. Two of theirs
        // still sit on my 1 point (their 24), behind my checkers: contact.
        let p = pos(bg, &[(2, 5), (3, 8)], &[(24, 2), (1, 13)]);
        assert!(!p.is_race());
        assert_eq!(estimated(&p), [0.5, 0.2, 0.1, 0.0, 0.0]);
        // A race, nothing off, no checker in the other's home: no backgammons.
        let p = pos(bg, &[(7, 5), (10, 10)], &[(8, 5), (11, 10)]);
        assert!(p.is_race());
        assert_eq!(estimated(&p), [0.5, 0.2, 0.0, 0.2, 0.0]);
        // A race with one of theirs still in my home (their 20, my 5) beyond my
        // last checker: they may be caught, I may not.
        let p = pos(bg, &[(3, 10), (4, 5)], &[(20, 1), (11, 14)]);
        assert!(p.is_race());
        assert_eq!(estimated(&p), [0.5, 0.2, 0.1, 0.2, 0.0]);
        // They have borne off: I win at most a single game.
        let p = pos(bg, &[(20, 1), (6, 14)], &[(20, 1), (6, 13)]);
        assert_eq!(estimated(&p), [0.5, 0.0, 0.0, 0.2, 0.1]);

        // Nardy never hits: without the koks option no triple at all; with it,
        // only a side with a checker on its own 13..24.
        let mut nardy = Rules::nardy();
        let p = pos(nardy, &[(24, 1), (6, 14)], &[(13, 1), (6, 14)]);
        assert_eq!(estimated(&p), [0.5, 0.2, 0.0, 0.2, 0.0]);
        nardy.set("koks", &crate::variant::OptionValue::Bool(true)).unwrap();
        let p = pos(nardy, &[(24, 1), (6, 14)], &[(13, 1), (6, 14)]);
        assert_eq!(estimated(&p), [0.5, 0.2, 0.1, 0.2, 0.1]);
        let p = pos(nardy, &[(12, 1), (6, 14)], &[(13, 1), (6, 14)]);
        assert_eq!(estimated(&p), [0.5, 0.2, 0.1, 0.2, 0.0]);
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
        let e = static_evaluation(&fake::PipCount, &p, true).0;
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
    fn evaluators_are_consistent_on_start_positions() {
        for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
            for name in ["heuristic", "pips", "pubeval"] {
                let Ok(ev) = evaluator_by_name(name, rules.variant) else { continue };
                let e = static_evaluation(ev.as_ref(), &Position::start(rules), true).0;
                assert!(e.win > 0.3 && e.win < 0.8, "{name} {rules:?} {e:?}");
                assert!(e.win_gammon <= e.win && e.win_backgammon <= e.win_gammon);
                assert!(e.lose_gammon <= 1.0 - e.win && e.lose_backgammon <= e.lose_gammon);
            }
        }
        assert!(evaluator_by_name("pubeval", Variant::Nardy).is_err());
        assert!(evaluator_by_name("nope", Variant::Nardy).err().unwrap().to_string().contains("nope"));
    }
}
