//! Cubeless rollouts: play a position out to the end many times with a
//! network choosing every play at 0-ply, and average the results.
//!
//! Gul bara doubles cascade (the position is taken to be past the game's
//! first `cascade_after_rolls` rolls), played as in self-play training.
//!
//! Trial `t` uses dice from its own generator seeded by `(seed, t)` and its
//! first roll is the `t mod 36`-th of the 36 (a stratified first roll, the
//! usual variance reduction), so a rollout gives the same answer on any number
//! of threads.

use crate::movegen::MoveGen;
use crate::eval::{final_evaluation, game_result};
use crate::nn::td::play_roll;
use crate::nn::{equity, invert, Mlp, SplitMix, OUTPUTS};
use crate::position::Position;
use crate::variant::Variant;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutResult {
    /// Mean outcome indicators for the player on roll at the start.
    pub probabilities: [f32; OUTPUTS],
    pub equity: f32,
    /// Standard error of the equity.
    pub equity_error: f32,
    pub trials: usize,
}

/// The outcome of one trial for the player on roll in `start`.
fn trial(net: &Mlp, start: &Position, first_roll: usize, rng: &mut SplitMix, gen: &mut MoveGen) -> [f32; OUTPUTS] {
    if let Some((mover_won, points)) = game_result(start) {
        return final_evaluation(mover_won, points).to_array();
    }
    let mut moves = Vec::with_capacity(64);
    let mut pos = *start;
    let mut starter_on_roll = true;
    let gul_bara = start.variant() == Variant::GulBara;
    for turn in 0..5000 {
        let (d1, d2) = if turn == 0 {
            ((first_roll / 6) as u8 + 1, (first_roll % 6) as u8 + 1)
        } else {
            (rng.die(), rng.die())
        };
        let outcome = play_roll(net, gen, &mut moves, &pos, (d1, d2), gul_bara && d1 == d2);
        if outcome.finished.is_some() {
            // `target` is then the outcome for the player who rolled.
            return if starter_on_roll { outcome.target } else { invert(&outcome.target) };
        }
        pos = outcome.next;
        starter_on_roll = !starter_on_roll;
    }
    // Unreachable in practice (games end); count it as even.
    [0.5, 0.0, 0.0, 0.0, 0.0]
}

/// Rolls `start` out `trials` times on `threads` threads.
pub fn rollout(net: &Mlp, start: &Position, trials: usize, seed: u64, threads: usize) -> RolloutResult {
    let threads = threads.max(1).min(trials.max(1));
    let outcomes: Vec<[f32; OUTPUTS]> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                scope.spawn(move || {
                    let mut gen = MoveGen::new();
                    (k..trials)
                        .step_by(threads)
                        .map(|t| {
                            let mut rng = SplitMix::new(seed ^ (t as u64).wrapping_mul(0xA24B_AED4_963E_E407));
                            (t, trial(net, start, t % 36, &mut rng, &mut gen))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<(usize, [f32; OUTPUTS])> =
            handles.into_iter().flat_map(|h| h.join().expect("a rollout trial does not panic")).collect();
        all.sort_by_key(|(t, _)| *t);
        all.into_iter().map(|(_, o)| o).collect()
    });
    summarize(&outcomes)
}

fn summarize(outcomes: &[[f32; OUTPUTS]]) -> RolloutResult {
    let n = outcomes.len().max(1) as f64;
    let mut mean = [0f64; OUTPUTS];
    for o in outcomes {
        for k in 0..OUTPUTS {
            mean[k] += o[k] as f64 / n;
        }
    }
    let equities: Vec<f64> = outcomes.iter().map(|o| equity(o) as f64).collect();
    let eq_mean = equities.iter().sum::<f64>() / n;
    let var = equities.iter().map(|e| (e - eq_mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let probabilities = mean.map(|m| m as f32);
    RolloutResult { probabilities, equity: eq_mean as f32, equity_error: (var / n).sqrt() as f32, trials: outcomes.len() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

    #[test]
    fn same_answer_on_any_number_of_threads() {
        let net = Mlp::new(crate::nn::encoding::input_count(crate::Variant::Nardy), 8, 1);
        let start = Position::start(Rules::nardy());
        let one = rollout(&net, &start, 72, 5, 1);
        let three = rollout(&net, &start, 72, 5, 3);
        assert_eq!(one, three);
        assert_eq!(one.trials, 72);
        let p = one.probabilities;
        assert!(p[1] <= p[0] && p[2] <= p[1] && p[4] <= p[3] && p[3] <= 1.0 - p[0] + 1e-6);
    }

    #[test]
    fn certain_positions_roll_out_exactly() {
        // One checker each on the 1-point, me on roll: I always win a single game.
        let mut mine = [0i64; 25];
        mine[0] = 1;
        let mut theirs = [0i64; 25];
        theirs[0] = 1;
        let pos = Position::from_arrays(Rules::backgammon(), &mine, &theirs).unwrap();
        let net = Mlp::new(crate::nn::encoding::input_count(crate::Variant::Backgammon), 4, 2);
        let r = rollout(&net, &pos, 36, 1, 2);
        assert_eq!(r.probabilities, [1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(r.equity, 1.0);
        assert_eq!(r.equity_error, 0.0);
    }
}
