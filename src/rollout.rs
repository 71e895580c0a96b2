//! Cubeless rollouts: play a position out to the end many times with the
//! networks choosing every play at 0-ply (in backgammon the race network once
//! contact is broken, as the engine), and average the results.
//!
//! Gul bara doubles cascade (the position is taken to be past the game's
//! first `cascade_after_rolls` rolls), played as in self-play training.
//!
//! Trial `t` uses dice from its own generator seeded by `(seed, t)` and its
//! first roll is the `t mod 36`-th of the 36 (a stratified first roll, the
//! usual variance reduction), so a rollout gives the same answer on any number
//! of threads.

pub mod analysis;
pub mod cubeful;

use crate::bearoff::bearoff_probabilities;
use crate::cascade::LATE;
use crate::dice::Dice;
use crate::nn::player::{play_roll, Nets};
use crate::nn::OUTPUTS;
use crate::outcome::{final_evaluation, game_result, Evaluation};
use crate::parallel::par_map;
use crate::position::Position;
use crate::turn::{TurnDriver, MAX_ROLLS};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutResult {
    /// Mean outcome indicators for the player on roll at the start.
    pub probabilities: [f32; OUTPUTS],
    pub equity: f32,
    /// Standard error of the equity.
    pub equity_error: f32,
    pub trials: usize,
}

/// The outcome of one trial for the player on roll in `start`. With
/// `exact_bearoff` a trial stops as soon as the bear-off tables cover the
/// position and scores their exact probabilities: the same expectation with
/// the dice of the bear-off left out of the noise. With a `horizon` the trial
/// stops after that many rolls (each [`play_roll`]: in gul bara a share of a
/// cascade counts as one) and scores the networks' 0-ply value of the
/// position reached (a truncated rollout: less noise, the networks' error at
/// the horizon as its bias).
fn trial(nets: Nets, start: &Position, first_roll: usize, rng: &mut Dice, exact_bearoff: bool, horizon: Option<usize>) -> [f32; OUTPUTS] {
    if let Some((mover_won, points)) = game_result(start) {
        return final_evaluation(mover_won, points).to_array();
    }
    if let Some(exact) = exact_bearoff.then(|| bearoff_probabilities(start)).flatten() {
        return exact;
    }
    // Past the game's first rolls: every gul bara double cascades.
    let mut board = TurnDriver::new(*start.rules(), *start, 0, LATE, None);
    let mut starter_on_roll = true;
    for turn in 0..MAX_ROLLS {
        let (d1, d2) = if turn == 0 { ((first_roll / 6) as u8 + 1, (first_roll % 6) as u8 + 1) } else { (rng.die(), rng.die()) };
        let outcome = play_roll(nets, &mut board, [d1, d2]);
        // `target` is the outcome of a finished game, else the 0-ply value
        // of the position reached, for the player who rolled.
        if outcome.finished.is_some() || horizon == Some(turn as usize + 1) {
            return if starter_on_roll { outcome.target } else { Evaluation::new(outcome.target).invert().to_array() };
        }
        if !outcome.rolls_again {
            starter_on_roll = !starter_on_roll;
        }
        if let Some(exact) = exact_bearoff.then(|| bearoff_probabilities(&outcome.next)).flatten() {
            return if starter_on_roll { exact } else { Evaluation::new(exact).invert().to_array() };
        }
    }
    // Unreachable in practice (games end); count it as even.
    [0.5, 0.0, 0.0, 0.0, 0.0]
}

/// Rolls `start` out `trials` times on `threads` threads.
pub fn rollout(nets: Nets, start: &Position, trials: usize, seed: u64, threads: usize) -> RolloutResult {
    let outcomes = par_map(
        trials,
        threads,
        || (),
        |_, t| {
            let mut rng = Dice::training(seed ^ (t as u64).wrapping_mul(0xA24B_AED4_963E_E407));
            trial(nets, start, t % 36, &mut rng, false, None)
        },
    );
    summarize(&outcomes)
}

/// Training labels: each position's mean outcome over `trials` rollouts by
/// `nets` at 0-ply (stratified first roll), every trial stopped at the exact
/// bear-off tables, or after `horizon` rolls where one is given (and scored
/// by the networks' 0-ply value there). The positions are shared out over
/// `threads`; trial `t` of position `k` has its own dice, so the labels do
/// not depend on the thread count.
pub fn rollout_labels(
    nets: Nets,
    positions: &[Position],
    trials: usize,
    horizon: Option<usize>,
    seed: u64,
    threads: usize,
) -> Vec<[f32; OUTPUTS]> {
    // Each trial's dice stream packs (position, trial) with 24 bits for the trial.
    assert!(trials < 1 << 24, "at most 2^24 - 1 trials a position, not {trials}");
    let label = |k: usize| {
        let mut sum = [0f64; OUTPUTS];
        for t in 0..trials {
            let stream = ((k as u64) << 24 | t as u64).wrapping_mul(0xA24B_AED4_963E_E407);
            let mut rng = Dice::training(seed ^ stream);
            let o = trial(nets, &positions[k], t % 36, &mut rng, true, horizon);
            for (s, v) in sum.iter_mut().zip(o) {
                *s += v as f64;
            }
        }
        // Exact bear-off values can stray past 0 or 1 by a rounding error.
        sum.map(|s| ((s / trials.max(1) as f64) as f32).clamp(0.0, 1.0))
    };
    par_map(positions.len(), threads, || (), |_, k| label(k))
}

fn summarize(outcomes: &[[f32; OUTPUTS]]) -> RolloutResult {
    let n = outcomes.len().max(1) as f64;
    let mut mean = [0f64; OUTPUTS];
    for o in outcomes {
        for k in 0..OUTPUTS {
            mean[k] += o[k] as f64 / n;
        }
    }
    let equities: Vec<f64> = outcomes.iter().map(|o| Evaluation::new(*o).equity() as f64).collect();
    let eq_mean = equities.iter().sum::<f64>() / n;
    let var = equities.iter().map(|e| (e - eq_mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let probabilities = mean.map(|m| m as f32);
    RolloutResult { probabilities, equity: eq_mean as f32, equity_error: (var / n).sqrt() as f32, trials: outcomes.len() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::Mlp;
    use crate::variant::Rules;

    #[test]
    fn same_answer_on_any_number_of_threads() {
        let net = Mlp::new(crate::nn::encoding::input_count(crate::Variant::Nardy), 8, 1);
        let start = Position::start(Rules::nardy());
        let one = rollout(Nets::one(&net), &start, 72, 5, 1);
        let three = rollout(Nets::one(&net), &start, 72, 5, 3);
        assert_eq!(one, three);
        assert_eq!(one.trials, 72);
        let p = one.probabilities;
        assert!(p[1] <= p[0] && p[2] <= p[1] && p[4] <= p[3] && p[3] <= 1.0 - p[0] + 1e-6);
    }

    #[test]
    fn rollout_labels_stop_at_exact_bearoffs_and_ignore_threads() {
        let bg = Rules::backgammon();
        let net = Mlp::new(crate::nn::encoding::input_count(crate::Variant::Backgammon), 8, 3);
        // A bear-off: the label is the table's, whatever the net.
        let mut mine = [0i64; 25];
        mine[2] = 3;
        let mut theirs = [0i64; 25];
        theirs[4] = 2;
        let bearoff = Position::from_arrays(bg, &mine, &theirs).unwrap();
        // A race one roll from the tables: my only checker on my 8 point must
        // move, and every roll brings it home (or off), against their 10 pips.
        let mut lone = [0i64; 25];
        lone[7] = 1;
        let race = Position::from_arrays(bg, &lone, &theirs).unwrap();
        assert!(race.is_race() && bearoff_probabilities(&race).is_none());
        let positions = [bearoff, race, Position::start(bg)];
        let one = rollout_labels(Nets::one(&net), &positions, 36, None, 9, 1);
        assert_eq!(one, rollout_labels(Nets::one(&net), &positions, 36, None, 9, 3));
        assert_eq!(one[0], bearoff_probabilities(&bearoff).unwrap());
        // So each trial stops after its first roll: the label is the mean over
        // the 36 first rolls of the table's value after the play (a full
        // rollout would score whole games, multiples of 1/36).
        let mut by_hand = 0.0f64;
        for roll in 0..36 {
            let mut board = TurnDriver::new(bg, race, 0, 0, None);
            let outcome = play_roll(Nets::one(&net), &mut board, [roll / 6 + 1, roll % 6 + 1]);
            let mine = match outcome.finished {
                Some(_) => outcome.target,
                None => Evaluation::new(bearoff_probabilities(&outcome.next).expect("both sides home after one roll")).invert().to_array(),
            };
            by_hand += mine[0] as f64 / 36.0;
        }
        assert!((one[1][0] as f64 - by_hand).abs() < 1e-5, "{:?} {by_hand}", one[1]);
        let full = rollout(Nets::one(&net), &race, 36, 9, 1).probabilities;
        assert!(((one[1][0] * 36.0) - (one[1][0] * 36.0).round()).abs() > 1e-3 && (one[1][0] - full[0]).abs() < 0.2);
        let p = one[2];
        assert!(p[0] > 0.2 && p[0] < 0.8 && p[1] <= p[0] && p[3] <= 1.0 - p[0] + 1e-6);
    }

    #[test]
    fn races_roll_out_with_the_race_network() {
        let inputs = crate::nn::encoding::input_count(crate::Variant::Backgammon);
        let (contact, race_net) = (Mlp::new(inputs, 8, 4), Mlp::new(inputs, 8, 6));
        let mut mine = [0i64; 25];
        let mut theirs = [0i64; 25];
        mine[9] = 8;
        mine[10] = 7;
        theirs[11] = 15; // their 12 point: my 13, behind all of mine (157 pips against 180)
        let race = Position::from_arrays(Rules::backgammon(), &mine, &theirs).unwrap();
        assert!(race.is_race());
        let both = Nets { contact: &contact, race: Some(&race_net), crashed: None };
        let with_both = rollout(both, &race, 36, 2, 1);
        // A race stays a race: every play is the race network's.
        assert_eq!(with_both, rollout(Nets::one(&race_net), &race, 36, 2, 1));
        assert_ne!(with_both, rollout(Nets::one(&contact), &race, 36, 2, 1));
        // Before contact breaks, the contact network plays.
        let start = Position::start(Rules::backgammon());
        assert_ne!(rollout(both, &start, 36, 2, 1), rollout(Nets::one(&race_net), &start, 36, 2, 1));
    }

    #[test]
    fn a_horizon_of_one_roll_is_the_networks_one_ply_value() {
        // 36 trials stopped after their stratified first roll: each of the 36
        // rolls once, scored by the networks' 0-ply value after the play.
        let bg = Rules::backgammon();
        let inputs = crate::nn::encoding::input_count(crate::Variant::Backgammon);
        let (contact, race_net) = (Mlp::new(inputs, 8, 11), Mlp::new(inputs, 8, 12));
        let nets = Nets { contact: &contact, race: Some(&race_net), crashed: None };
        let start = Position::start(bg);
        let mut by_hand = [0f64; OUTPUTS];
        for roll in 0..36u8 {
            let mut board = TurnDriver::new(bg, start, 0, 0, None);
            let outcome = play_roll(nets, &mut board, [roll / 6 + 1, roll % 6 + 1]);
            for (s, v) in by_hand.iter_mut().zip(outcome.target) {
                *s += v as f64 / 36.0;
            }
        }
        let one = rollout_labels(nets, &[start], 36, Some(1), 3, 2)[0];
        for (a, b) in one.iter().zip(by_hand) {
            assert!((*a as f64 - b).abs() < 1e-5, "{one:?} {by_hand:?}");
        }
        // Deeper horizons and whole games differ from it.
        assert_ne!(rollout_labels(nets, &[start], 36, Some(3), 3, 2)[0], one);
        assert_ne!(rollout_labels(nets, &[start], 36, None, 3, 2)[0], one);
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
        let r = rollout(Nets::one(&net), &pos, 36, 1, 2);
        assert_eq!(r.probabilities, [1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(r.equity, 1.0);
        assert_eq!(r.equity_error, 0.0);
    }
}
