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

pub use crate::outcome::{final_evaluation, game_result, Evaluation};

use crate::bearoff;
use crate::error::{Error, Result};
use crate::position::Position;
use crate::variant::Variant;

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
    /// Cheap equities for the player on roll of each position (a small
    /// pruning network's), for the search to choose which plays of a roll
    /// the full evaluation judges; `false` (and `out` untouched) when the
    /// evaluator has none for these positions, and then nothing is pruned.
    fn prune_scores(&self, _positions: &[Position], _out: &mut Vec<f32>) -> bool {
        false
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
        "network-int16" => Ok(Box::new(neural::Network::shipped(variant).with_int16())),
        other if other.starts_with("network=") => Ok(Box::new(neural::Network::from_file(&other[8..], variant)?)),
        "pubeval" if variant == Variant::Backgammon => Ok(Box::new(pubeval::PubEval)),
        "pubeval" => Err(Error::new(format!("pubeval evaluates backgammon only, not {}", variant.name()))),
        "pips" | "fake" => Ok(Box::new(fake::PipCount)),
        other => Err(Error::new(format!("unknown evaluator {other:?}: use network, network-int16, heuristic, pubeval or pips"))),
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
        Position::from_points(rules, mine, theirs)
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
