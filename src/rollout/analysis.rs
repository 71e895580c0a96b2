//! Rollouts as an analysis tool: a position (or each candidate play of a
//! roll) played out many times by an engine's evaluator, with the settings
//! of GNU Backgammon's rollouts.
//!
//! - **Players**: both sides choose with the search ([`SearchChooser`]) at
//!   `checker_ply`, through the one turn driver ([`crate::turn::play_roll`]):
//!   gul bara doubles cascade (past the game's first rolls) and are played as
//!   whole parts and shares (each number's states pruned to the best
//!   [`CASCADE_WIDTH`] by 0-ply).
//! - **Cubeless and cubeful**: every trial gives the cubeless result; with a
//!   cube state each player's cube decisions before its rolls are the 0-ply
//!   cube model's ([`super::cubeful::walk_cube`], the [`CubePolicy`] of the
//!   variant or the caller), and the trial is scored in points per starting
//!   cube.
//! - **Variance reduction** (luck subtracted, as gnubg does): before each
//!   roll the value of the best 0-ply play of every one of the 21 rolls is
//!   found; the roll that came is lucky by its value less their mean, and a
//!   trial's result is corrected by the sum of its rolls' luck (cubeful: each
//!   weighted by the cube of that roll). Each correction has mean zero
//!   whatever came before it, so the expectation is unchanged and most of the
//!   dice's noise goes.
//! - **Quasi-random dice**: trial `t` opens with the `t mod 36`-th of the 36
//!   rolls; with `stratify_second` its second roll is the
//!   `(t + offset[t / 36]) mod 36`-th, the offsets a permutation drawn from
//!   the seed, so every 1296 trials see every pair of opening rolls once.
//!   Later rolls come from trial `t`'s own generator, seeded by `(seed, t)`.
//! - **Truncation**: after `truncate` rolls (half-moves) a trial is scored by
//!   the evaluator's probabilities of the position reached; with
//!   `stop_at_bearoff` as soon as the bear-off tables cover it, by their
//!   exact ones (cubeful: the 0-ply cube model's value of those).
//! - **Stopping rule**: trials run in batches of [`BATCH`]; after each batch,
//!   once `min_trials` are done, the rollout stops if the equity's standard
//!   error is at most `target_error`. Candidate plays stop together, when
//!   every one is that precise.
//! - **Candidate plays** ([`rollout_plays`]) are rolled out on common dice:
//!   each candidate's trial `t` has the same dice.
//!
//! Trial `t`'s result depends only on the settings, the seed and `t`, and the
//! batches are summed in trial order, so a rollout gives the same answer on
//! any number of threads.
//!
//! Standard errors are those of independent trials: the stratified rolls
//! make the true error somewhat smaller, so the intervals are conservative.

use super::cubeful::{walk_cube, CubeEnd, CubePolicy, FirstDecision, Turn};
use crate::bearoff::bearoff_probabilities;
use crate::cube::state::CubeState;
use crate::dice::{rolls as all_rolls, Dice};
use crate::error::{Error, Result};
use crate::eval::{static_evaluation, Evaluation, Evaluator};
use crate::outcome::{final_evaluation, game_result};
use crate::parallel::par_map;
use crate::position::Position;
use crate::search::cubeful::zero_ply_decision_at;
use crate::search::{analyze_at, Candidate, SearchChooser, SearchConfig};
use crate::turn::{play_rolled, Finish, Progress, SelfPlay, TurnDriver, MAX_ROLLS};

/// The most trials a rollout plays (each candidate, for plays).
pub const MAX_TRIALS: usize = 1_000_000;
/// The most candidate plays [`rollout_plays`] rolls out.
pub const MAX_PLAYS: usize = 32;
/// The deepest checker play of the rollout players.
pub const MAX_CHECKER_PLY: u8 = 2;
/// Trials between two checks of the stopping rule (and progress reports).
pub const BATCH: usize = 144;
/// Gul bara: the states the rollout players keep after each number of a
/// cascade (by 0-ply), where a hint lists them all.
pub const CASCADE_WIDTH: usize = 4;

/// How a rollout is played and when it stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutSettings {
    /// The trials to play (with a stopping rule, the most).
    pub trials: usize,
    pub seed: u64,
    /// Threads to share the trials over (at least 1; the answer does not depend on it).
    pub threads: usize,
    /// The players' checker ply (0: the evaluator's best play).
    pub checker_ply: u8,
    /// The ply of the probabilities each cubeful trial's cube decisions are
    /// taken from (0: the evaluator's; gnubg too lets the cube decisions of a
    /// rollout use another ply than its checker plays): the cube model is the
    /// 0-ply one, fed that ply's cubeless evaluation of the position.
    pub cube_ply: u8,
    /// Subtract each roll's luck, judged at 0-ply.
    pub variance_reduction: bool,
    /// Stratify the second roll too (36 x 36 rotation).
    pub stratify_second: bool,
    /// Score a trial by the evaluator after this many rolls.
    pub truncate: Option<u32>,
    /// Score a trial by the bear-off tables once they cover the position.
    pub stop_at_bearoff: bool,
    /// Cubeful, with this cube (from the player on roll's side; for plays, the mover's).
    pub cube: Option<CubeState>,
    /// The stopping rule: at least this many trials...
    pub min_trials: usize,
    /// ...then stop once the equity's standard error is at most this.
    pub target_error: Option<f64>,
    /// Rolls the game has had (gul bara: whether doubles cascade); by
    /// default past the first rolls.
    pub rolls_before: u32,
}

impl Default for RolloutSettings {
    fn default() -> Self {
        RolloutSettings {
            trials: 1296,
            seed: 0,
            threads: 1,
            checker_ply: 0,
            cube_ply: 0,
            variance_reduction: false,
            stratify_second: false,
            truncate: None,
            stop_at_bearoff: false,
            cube: None,
            min_trials: 0,
            target_error: None,
            rolls_before: crate::cascade::LATE,
        }
    }
}

impl RolloutSettings {
    /// Why these settings cannot be rolled out, naming the setting.
    pub fn check(&self) -> Result<()> {
        if !(1..=MAX_TRIALS).contains(&self.trials) {
            return Err(Error::new(format!("trials must be 1 to {MAX_TRIALS}, not {}", self.trials)));
        }
        if self.threads == 0 {
            return Err(Error::new("threads must be at least 1"));
        }
        let plies = [("ply", "checker", self.checker_ply), ("cube_ply", "cube decisions'", self.cube_ply)];
        if let Some((name, what, ply)) = plies.into_iter().find(|&(_, _, ply)| ply > MAX_CHECKER_PLY) {
            return Err(Error::new(format!("{name} (the rollout players' {what} ply) must be 0 to {MAX_CHECKER_PLY}, not {ply}")));
        }
        if self.truncate == Some(0) {
            return Err(Error::new("truncate must be at least 1 (the rolls played before a trial is scored by the evaluator)"));
        }
        if self.min_trials > self.trials {
            return Err(Error::new(format!("min_trials ({}) must not exceed trials ({})", self.min_trials, self.trials)));
        }
        if let Some(e) = self.target_error {
            if !(e.is_finite() && e > 0.0) {
                return Err(Error::new(format!("target_error must be a number above 0, not {e}")));
            }
        }
        if let Some(cube) = &self.cube {
            cube.check()?;
        }
        Ok(())
    }
}

/// A mean and its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub error: f64,
}

impl Estimate {
    /// The 95% interval, mean +- 1.96 standard errors.
    pub fn interval(&self) -> (f64, f64) {
        (self.mean - 1.96 * self.error, self.mean + 1.96 * self.error)
    }
}

/// What a rollout came to, for the player on roll (for plays: the mover,
/// after the play).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rollout {
    /// Mean outcome indicators (win, win gammon, win backgammon, lose gammon,
    /// lose backgammon); with variance reduction they may stray a little past
    /// 0 or 1.
    pub probabilities: [f64; 5],
    pub probability_errors: [f64; 5],
    /// Cubeless equity, points per game.
    pub cubeless: Estimate,
    /// Cubeful equity, points per starting cube (with a cube state).
    pub cubeful: Option<Estimate>,
    pub trials: usize,
    /// The progress callback, or the engine's cancel token, stopped the rollout.
    pub cancelled: bool,
}

impl Rollout {
    /// The equity the stopping rule and rankings use: cubeful when asked, else cubeless.
    pub fn equity(&self) -> Estimate {
        self.cubeful.unwrap_or(self.cubeless)
    }
}

/// A candidate play and its rollout.
#[derive(Clone, Debug)]
pub struct PlayRollout {
    pub candidate: Candidate,
    pub rollout: Rollout,
}

/// Where a rollout stands, after a batch.
#[derive(Clone, Copy, Debug)]
pub struct RolloutProgress {
    pub trials_done: usize,
    pub trials: usize,
    /// The first (or only) position's equity so far.
    pub equity: Estimate,
}

/// Told of every batch; `false` stops the rollout (the result so far comes back, marked cancelled).
pub type ProgressFn<'a> = &'a mut dyn FnMut(&RolloutProgress) -> bool;

/// One trial's results, for the root player.
#[derive(Clone, Copy, Debug)]
struct TrialResult {
    outcome: [f64; 5],
    cubeful: f64,
}

/// Running sums over trials, added in trial order.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    n: usize,
    p: [f64; 5],
    p2: [f64; 5],
    eq: f64,
    eq2: f64,
    cf: f64,
    cf2: f64,
}

fn estimate(n: usize, sum: f64, sum2: f64) -> Estimate {
    let nf = n.max(1) as f64;
    let mean = sum / nf;
    let var = if n > 1 { ((sum2 - nf * mean * mean) / (nf - 1.0)).max(0.0) } else { 0.0 };
    Estimate { mean, error: (var / nf).sqrt() }
}

impl Sums {
    fn add(&mut self, r: &TrialResult) {
        self.n += 1;
        for k in 0..5 {
            self.p[k] += r.outcome[k];
            self.p2[k] += r.outcome[k] * r.outcome[k];
        }
        let eq = equity_of(&r.outcome);
        self.eq += eq;
        self.eq2 += eq * eq;
        self.cf += r.cubeful;
        self.cf2 += r.cubeful * r.cubeful;
    }

    fn rollout(&self, cubeful: bool, cancelled: bool) -> Rollout {
        let p: Vec<Estimate> = (0..5).map(|k| estimate(self.n, self.p[k], self.p2[k])).collect();
        Rollout {
            probabilities: std::array::from_fn(|k| p[k].mean),
            probability_errors: std::array::from_fn(|k| p[k].error),
            cubeless: estimate(self.n, self.eq, self.eq2),
            cubeful: cubeful.then(|| estimate(self.n, self.cf, self.cf2)),
            trials: self.n,
            cancelled,
        }
    }
}

/// Cubeless equity of outcome indicators (or of a difference of them, less
/// the constant), in f64: [`Evaluation::equity`]'s formula.
fn equity_of(p: &[f64; 5]) -> f64 {
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}

/// A difference of outcome indicators seen from the other player.
fn invert_difference(d: &[f64; 5]) -> [f64; 5] {
    [-d[0], d[3], d[4], d[1], d[2]]
}

fn as_f64(p: [f32; 5]) -> [f64; 5] {
    p.map(|v| v as f64)
}

/// A position seen from the root player, from the view of a player who is (`mine`) or is not the root.
fn for_root(p: [f32; 5], mine: bool) -> [f64; 5] {
    as_f64(if mine { p } else { Evaluation::new(p).invert().to_array() })
}

/// How a trial ended.
enum End {
    /// Outcome indicators for the root.
    Finished([f64; 5]),
    /// Scored at this turn: its probabilities from the roller's side, and whether the roller is the root.
    Scored(Turn, bool),
}

/// What every trial of one rollout shares.
struct Roller<'a> {
    evaluator: &'a dyn Evaluator,
    play: SearchConfig,
    zero: SearchConfig,
    /// The cube decisions' evaluation (`settings.cube_ply`).
    cube: SearchConfig,
    settings: &'a RolloutSettings,
    policy: &'a CubePolicy<'a>,
    /// The second roll's offsets, a permutation of 0..36 drawn from the seed.
    offsets: [usize; 36],
}

impl<'a> Roller<'a> {
    fn new(evaluator: &'a dyn Evaluator, engine: &SearchConfig, settings: &'a RolloutSettings, policy: &'a CubePolicy<'a>) -> Roller<'a> {
        // The players search on the trial's thread with a small cache.
        let play = SearchConfig { ply: settings.checker_ply, threads: 1, cache_bits: 12, cascade_width: CASCADE_WIDTH, ..engine.clone() };
        let zero = SearchConfig { ply: 0, ..play.clone() };
        let cube = SearchConfig { ply: settings.cube_ply, ..play.clone() };
        let mut offsets: [usize; 36] = std::array::from_fn(|k| k);
        let mut rng = Dice::training(settings.seed ^ 0x5EC0_0D5E_C0DD_1CE5);
        for k in (1..36).rev() {
            offsets.swap(k, rng.below(k + 1));
        }
        Roller { evaluator, play, zero, cube, settings, policy, offsets }
    }

    /// The dice of roll `k` of trial `t`.
    fn dice(&self, t: usize, k: u32, rng: &mut Dice) -> [u8; 2] {
        let index = match k {
            0 => Some(t % 36),
            1 if self.settings.stratify_second => Some((t % 36 + self.offsets[t / 36 % 36]) % 36),
            _ => None,
        };
        match index {
            Some(i) => [(i / 6) as u8 + 1, (i % 6) as u8 + 1],
            None => [rng.die(), rng.die()],
        }
    }

    /// The luck of `dice` for the player on roll of `pos`: the value of its
    /// best 0-ply play less the mean of that over the 21 rolls.
    fn luck(&self, pos: &Position, dice: [u8; 2], rolls_before: u32) -> [f64; 5] {
        let rolled = (dice[0].min(dice[1]), dice[0].max(dice[1]));
        let (mut mean, mut actual) = ([0f64; 5], [0f64; 5]);
        for (d1, d2, p) in all_rolls() {
            let r = analyze_at(self.evaluator, &self.zero, pos, d1, d2, rolls_before);
            let e = as_f64(r.candidates[0].evaluation.to_array());
            for k in 0..5 {
                mean[k] += p * e[k];
            }
            if (d1, d2) == rolled {
                actual = e;
            }
        }
        std::array::from_fn(|k| actual[k] - mean[k])
    }

    /// The evaluator's probabilities for the player on roll (exact where the game or the tables know).
    fn probabilities(&self, pos: &Position) -> [f32; 5] {
        static_evaluation(self.evaluator, pos, self.play.use_bearoff).0.to_array()
    }

    /// The probabilities the cube decisions before a roll of `pos` see: the
    /// evaluator's at `settings.cube_ply`.
    fn cube_probabilities(&self, pos: &Position, rolls_before: u32) -> [f32; 5] {
        if self.cube.ply == 0 {
            return self.probabilities(pos);
        }
        crate::search::evaluate_at(self.evaluator, &self.cube, pos, rolls_before).0.to_array()
    }

    /// Trial `t` from `start` (between rolls), for the player in seat `root`.
    fn trial(&self, start: &TurnDriver, root: usize, t: usize) -> TrialResult {
        let s = self.settings;
        let mut board = start.clone();
        let mut rng = super::cubeful::trial_rng(s.seed, t);
        let mut chooser = SearchChooser { evaluator: self.evaluator, config: &self.play };
        let cubeful = s.cube.is_some();
        let mut turns: Vec<Turn> = Vec::new();
        // Each roll's luck for the root, in outcome indicators.
        let mut luck: Vec<[f64; 5]> = Vec::new();
        let mut end = End::Finished([0.5, 0.0, 0.0, 0.0, 0.0]); // a game past MAX_ROLLS counts as even
        match start.finish() {
            Some(Finish::Won { winner, multiplier }) => {
                end = End::Finished(as_f64(final_evaluation(winner == root, multiplier).to_array()))
            }
            Some(Finish::Draw) => {}
            None => {
                for k in 0..MAX_ROLLS {
                    // A cancelled rollout's trials end at once (their results are dropped by `run`).
                    if self.play.cancel.is_cancelled() {
                        break;
                    }
                    let pos = *board.position();
                    let mine = board.seat() == root;
                    if let Some((won, points)) = game_result(&pos) {
                        end = End::Finished(for_root(final_evaluation(won, points).to_array(), mine));
                        break;
                    }
                    let exact = if s.stop_at_bearoff { bearoff_probabilities(&pos) } else { None };
                    if exact.is_some() || s.truncate.is_some_and(|n| k >= n) {
                        let p = exact.unwrap_or_else(|| self.probabilities(&pos));
                        end = End::Scored(Turn::on(&board, p), mine);
                        break;
                    }
                    if cubeful {
                        turns.push(Turn::on(&board, self.cube_probabilities(&pos, board.rolls_before())));
                    }
                    let dice = self.dice(t, k, &mut rng);
                    if s.variance_reduction {
                        let l = self.luck(&pos, dice, board.rolls_before());
                        luck.push(if mine { l } else { invert_difference(&l) });
                    }
                    board.roll(dice).expect("a rollout rolls dice 1 to 6 between rolls");
                    let progress = play_rolled(&mut board, &mut SelfPlay(&mut chooser)).expect("the rollout players play legal moves");
                    match progress {
                        Progress::GameOver(Finish::Won { winner, multiplier }) => {
                            end = End::Finished(as_f64(final_evaluation(winner == root, multiplier).to_array()));
                            break;
                        }
                        Progress::GameOver(Finish::Draw) => {
                            end = End::Finished([0.5, 0.0, 0.0, 0.0, 0.0]);
                            break;
                        }
                        _ => {}
                    }
                }
            }
        }
        let total_luck = luck.iter().fold([0f64; 5], |acc, l| std::array::from_fn(|k| acc[k] + l[k]));
        let raw = match &end {
            End::Finished(o) => *o,
            End::Scored(turn, mine) => for_root(turn.evaluation.to_array(), *mine),
        };
        let outcome = std::array::from_fn(|k| raw[k] - total_luck[k]);
        let cubeful = match &s.cube {
            Some(cube) => self.cubeful_score(cube, start.seat() != root, &turns, &luck, &end),
            None => 0.0,
        };
        TrialResult { outcome, cubeful }
    }

    /// A trial's points for the root per starting cube, the luck of each roll
    /// weighted by its cube subtracted. `flip`: the opponent rolls first (the
    /// cube is the root's).
    fn cubeful_score(&self, cube: &CubeState, flip: bool, turns: &[Turn], luck: &[[f64; 5]], end: &End) -> f64 {
        let first_cube = if flip { cube.flip() } else { *cube };
        let first_sign = if flip { -1.0 } else { 1.0 };
        let mut luck_points = 0.0;
        let walked = walk_cube(turns, &first_cube, FirstDecision::Free, self.policy, &mut |k, c| {
            if let Some(l) = luck.get(k) {
                luck_points += c.value as f64 * (equity_of(l) + 1.0);
            }
        })
        .expect("a checked cube state");
        let points = match (walked, end) {
            (CubeEnd::Passed { points, .. }, _) => first_sign * points as f64,
            (CubeEnd::Played(c), End::Finished(o)) => c.value as f64 * equity_of(o),
            (CubeEnd::Played(c), End::Scored(turn, mine)) => {
                // The walk ends seen from the next roller: after an extra
                // roll's 1-2, the player of the last turn.
                let c = if turn.extra_roll && !turns.is_empty() { c.flip() } else { c };
                let x = self.policy.efficiencies.value(turn.class, turn.pips);
                let value = c.value as f64 * zero_ply_decision_at(&turn.evaluation, &c, self.policy.met, x).best();
                if *mine {
                    value
                } else {
                    -value
                }
            }
        };
        (points - luck_points) / cube.value as f64
    }

    /// Rolls out every start (a board between rolls and the seat the result
    /// is for) on common dice, in batches, to the stopping rule.
    fn run(&self, starts: &[(TurnDriver, usize)], progress: Option<ProgressFn>) -> Vec<Rollout> {
        let s = self.settings;
        let mut sums = vec![Sums::default(); starts.len()];
        let mut progress = progress;
        let mut done = 0;
        let mut cancelled = false;
        while done < s.trials {
            let batch = BATCH.min(s.trials - done);
            let results = par_map(
                batch * starts.len(),
                s.threads,
                || (),
                |_, j| {
                    let (start, root) = &starts[j % starts.len()];
                    self.trial(start, *root, done + j / starts.len())
                },
            );
            // The engine's cancel token stopped this batch's trials part-way: their results are no
            // trials, so the rollout ends with the batches before it, marked cancelled.
            if self.play.cancel.is_cancelled() {
                cancelled = true;
                break;
            }
            for (j, r) in results.iter().enumerate() {
                sums[j % starts.len()].add(r);
            }
            done += batch;
            let main = |sums: &Sums| sums.rollout(s.cube.is_some(), false).equity();
            if let Some(report) = progress.as_mut() {
                if !report(&RolloutProgress { trials_done: done, trials: s.trials, equity: main(&sums[0]) }) {
                    cancelled = done < s.trials;
                    break;
                }
            }
            if let Some(target) = s.target_error {
                if done >= s.min_trials && sums.iter().all(|x| main(x).error <= target) {
                    break;
                }
            }
        }
        sums.iter().map(|x| x.rollout(s.cube.is_some(), cancelled)).collect()
    }
}

fn check_cube_for(settings: &RolloutSettings, pos: &Position) -> Result<()> {
    settings.check()?;
    if settings.cube.is_some() && pos.is_game_over() {
        return Err(Error::new("the game is over: there is nothing to roll out cubefully"));
    }
    Ok(())
}

/// Rolls out `pos` (the player on roll before its roll) with `evaluator`
/// (its bear-off and cascade settings from `engine`).
pub fn rollout_position(
    evaluator: &dyn Evaluator,
    engine: &SearchConfig,
    policy: &CubePolicy,
    pos: &Position,
    settings: &RolloutSettings,
    progress: Option<ProgressFn>,
) -> Result<Rollout> {
    check_cube_for(settings, pos)?;
    let roller = Roller::new(evaluator, engine, settings, policy);
    let start = TurnDriver::new(*pos.rules(), *pos, 0, settings.rolls_before, None);
    Ok(roller.run(&[(start, 0)], progress).remove(0))
}

/// The best `top` plays of `dice` from `pos` (by the engine's search at
/// `engine.ply`), each rolled out from the position after it (the
/// opponent's share of a gul bara cascade played by the rollout player) on
/// common dice; best first by rollout equity, from the mover's side.
#[allow(clippy::too_many_arguments)] // the engine, the position and roll, how many, the settings, and the progress report
pub fn rollout_plays(
    evaluator: &dyn Evaluator,
    engine: &SearchConfig,
    policy: &CubePolicy,
    pos: &Position,
    dice: [u8; 2],
    top: usize,
    settings: &RolloutSettings,
    progress: Option<ProgressFn>,
) -> Result<Vec<PlayRollout>> {
    check_cube_for(settings, pos)?;
    if pos.is_game_over() {
        return Err(Error::new("the game is over: there is no play to roll out"));
    }
    if !(1..=MAX_PLAYS).contains(&top) {
        return Err(Error::new(format!("top must be 1 to {MAX_PLAYS}, not {top}")));
    }
    for d in dice {
        crate::movegen::check_die(d as i64)?;
    }
    let ranking = SearchConfig { threads: settings.threads, ..engine.clone() };
    let mut candidates = analyze_at(evaluator, &ranking, pos, dice[0], dice[1], settings.rolls_before).candidates;
    candidates.truncate(top);
    let roller = Roller::new(evaluator, engine, settings, policy);
    let mut starts = Vec::with_capacity(candidates.len());
    for c in &candidates {
        let mut board = TurnDriver::new(*pos.rules(), *pos, 0, settings.rolls_before, None);
        board.roll(dice)?;
        let steps = c.cascade.as_ref().map_or_else(|| vec![c.play], |part| part.steps.clone());
        let mut progress = Progress::Step;
        for step in &steps {
            if board.seat() != 0 || progress != Progress::Step {
                break;
            }
            let index = board.find(step).ok_or_else(|| Error::new("a candidate's step is not legal"))?;
            progress = board.play_index(index)?;
        }
        if progress == Progress::Step {
            // The opponent's share of a cascade, as the rollout players play it.
            let mut chooser = SearchChooser { evaluator, config: &roller.play };
            play_rolled(&mut board, &mut SelfPlay(&mut chooser))?;
        }
        starts.push((board, 0));
    }
    let rollouts = roller.run(&starts, progress);
    let mut out: Vec<PlayRollout> =
        candidates.into_iter().zip(rollouts).map(|(candidate, rollout)| PlayRollout { candidate, rollout }).collect();
    out.sort_by(|a, b| b.rollout.equity().mean.total_cmp(&a.rollout.equity().mean));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::state::Owner;
    use crate::eval::neural::Network;
    use crate::nn::player::{selfplay_positions, Nets};
    use crate::rollout::cubeful::rollout_cubeful;
    use crate::search::evaluate_at;
    use crate::variant::{Rules, Variant};

    fn engine() -> SearchConfig {
        SearchConfig { ply: 0, threads: 1, ..SearchConfig::default() }
    }

    fn midgame(variant: Variant, k: usize) -> Position {
        selfplay_positions(crate::nn::shipped::network(variant), Rules::new(variant), k + 1, 17)[k]
    }

    fn roll(ev: &dyn Evaluator, pos: &Position, settings: RolloutSettings) -> Rollout {
        let policy = CubePolicy::of(pos.variant());
        rollout_position(ev, &engine(), &policy, pos, &settings, None).unwrap()
    }

    #[test]
    fn every_setting_gives_the_same_answer_on_any_number_of_threads() {
        for variant in [Variant::Backgammon, Variant::Nardy, Variant::GulBara] {
            let ev = Network::shipped(variant);
            let pos = midgame(variant, 12);
            let trials = if variant == Variant::GulBara { 12 } else { 40 };
            let settings = RolloutSettings {
                trials,
                seed: 3,
                variance_reduction: true,
                stratify_second: true,
                truncate: Some(8),
                cube: Some(CubeState::money()),
                ..RolloutSettings::default()
            };
            let one = roll(&ev, &pos, settings);
            let three = roll(&ev, &pos, RolloutSettings { threads: 3, ..settings });
            assert_eq!(one, three, "{variant:?}");
            assert_eq!(one.trials, trials);
            assert!(one.cubeful.is_some() && one.cubeless.error > 0.0);
        }
    }

    #[test]
    fn gul_bara_cascades_roll_out_whole() {
        // Doubles cascade in the rollout (past the first rolls): the first
        // roll 6-6 (trial 35) plays a whole cascade through the turn driver.
        let ev = Network::shipped(Variant::GulBara);
        let pos = Position::start(Rules::gulbara());
        let late = RolloutSettings { trials: 36, seed: 1, ..RolloutSettings::default() };
        let early = RolloutSettings { rolls_before: 0, ..late };
        let (a, b) = (roll(&ev, &pos, late), roll(&ev, &pos, early));
        assert_ne!(a, b, "a cascading double is not an ordinary one");
        assert_eq!(a, roll(&ev, &pos, RolloutSettings { threads: 2, ..late }));
    }

    #[test]
    fn one_roll_truncated_is_the_one_ply_evaluation() {
        // Truncated after one roll, the 36 stratified first rolls weigh the
        // 21 rolls as 1-ply does; with the luck subtracted every trial is that
        // mean exactly.
        let ev = Network::shipped(Variant::Backgammon);
        let pos = midgame(Variant::Backgammon, 20);
        let one_ply = evaluate_at(&ev, &SearchConfig { ply: 1, threads: 1, ..SearchConfig::default() }, &pos, crate::cascade::LATE).0;
        let plain = roll(&ev, &pos, RolloutSettings { trials: 36, truncate: Some(1), ..RolloutSettings::default() });
        assert!((plain.cubeless.mean - one_ply.equity() as f64).abs() < 1e-4, "{plain:?} {one_ply:?}");
        let reduced =
            roll(&ev, &pos, RolloutSettings { trials: 5, truncate: Some(1), variance_reduction: true, ..RolloutSettings::default() });
        assert!((reduced.cubeless.mean - one_ply.equity() as f64).abs() < 1e-4, "{reduced:?}");
        assert!(reduced.cubeless.error < 1e-5);
        for (p, q) in reduced.probabilities.iter().zip(one_ply.to_array()) {
            assert!((p - q as f64).abs() < 1e-4);
        }
    }

    #[test]
    fn variance_reduction_keeps_the_mean_and_shrinks_the_error() {
        let ev = Network::shipped(Variant::Backgammon);
        for k in [5, 30] {
            let pos = midgame(Variant::Backgammon, k);
            let base = RolloutSettings { trials: 216, seed: 11, truncate: Some(6), ..RolloutSettings::default() };
            let plain = roll(&ev, &pos, base);
            let reduced = roll(&ev, &pos, RolloutSettings { variance_reduction: true, trials: 72, ..base });
            let gap = (plain.cubeless.mean - reduced.cubeless.mean).abs();
            let both = (plain.cubeless.error.powi(2) + reduced.cubeless.error.powi(2)).sqrt();
            assert!(gap < 3.0 * both, "position {k}: {plain:?} {reduced:?}");
            assert!(reduced.cubeless.error < plain.cubeless.error, "position {k}: {plain:?} {reduced:?}");
        }
    }

    #[test]
    fn the_stopping_rule_stops_in_whole_batches() {
        let ev = Network::shipped(Variant::Nardy);
        let pos = midgame(Variant::Nardy, 10);
        let base = RolloutSettings { trials: 3 * BATCH, truncate: Some(4), variance_reduction: true, ..RolloutSettings::default() };
        // Loose: stops at the first batch past min_trials.
        let loose = roll(&ev, &pos, RolloutSettings { min_trials: BATCH + 1, target_error: Some(0.5), ..base });
        assert_eq!(loose.trials, 2 * BATCH);
        // Tight: never met, all the trials.
        let tight = roll(&ev, &pos, RolloutSettings { target_error: Some(1e-9), ..base });
        assert_eq!(tight.trials, 3 * BATCH);
        assert_eq!(tight, roll(&ev, &pos, RolloutSettings { threads: 2, target_error: Some(1e-9), ..base }));
        // Between: the error after each batch decides.
        let all = roll(&ev, &pos, RolloutSettings { trials: BATCH, ..base });
        let mid = roll(&ev, &pos, RolloutSettings { target_error: Some(all.cubeless.error * 1.0001), ..base });
        assert_eq!(mid.trials, BATCH);
        assert_eq!(mid, all);
    }

    #[test]
    fn a_progress_callback_sees_every_batch_and_can_cancel() {
        let ev = Network::shipped(Variant::Backgammon);
        let pos = midgame(Variant::Backgammon, 3);
        let settings = RolloutSettings { trials: 2 * BATCH + 10, truncate: Some(2), ..RolloutSettings::default() };
        let policy = CubePolicy::of(Variant::Backgammon);
        let mut seen = Vec::new();
        let r = rollout_position(
            &ev,
            &engine(),
            &policy,
            &pos,
            &settings,
            Some(&mut |p: &RolloutProgress| {
                seen.push(p.trials_done);
                true
            }),
        )
        .unwrap();
        assert_eq!(seen, [BATCH, 2 * BATCH, 2 * BATCH + 10]);
        assert!(!r.cancelled);
        let stopped = rollout_position(&ev, &engine(), &policy, &pos, &settings, Some(&mut |_: &RolloutProgress| false)).unwrap();
        assert!(stopped.cancelled);
        assert_eq!(stopped.trials, BATCH);
    }

    #[test]
    fn the_engines_cancel_token_stops_a_rollout_within_its_batch() {
        let ev = Network::shipped(Variant::Backgammon);
        let pos = midgame(Variant::Backgammon, 3);
        let settings = RolloutSettings { trials: 100 * BATCH, truncate: Some(2), ..RolloutSettings::default() };
        let policy = CubePolicy::of(Variant::Backgammon);
        let cancel = crate::search::Cancel::new(None);
        let config = SearchConfig { cancel: cancel.clone(), ..engine() };
        // Cancelled during the second batch (from the progress report of the first): that batch's
        // trials are dropped, the first batch's kept.
        let r = rollout_position(
            &ev,
            &config,
            &policy,
            &pos,
            &settings,
            Some(&mut |_: &RolloutProgress| {
                cancel.cancel();
                true
            }),
        )
        .unwrap();
        assert!(r.cancelled);
        assert_eq!(r.trials, BATCH);
        // Cancelled before it starts: no trial at all, at once (untruncated, 14,400 trials are seconds).
        let t = std::time::Instant::now();
        let none = rollout_position(&ev, &config, &policy, &pos, &RolloutSettings { truncate: None, ..settings }, None).unwrap();
        assert!(none.cancelled);
        assert_eq!(none.trials, 0);
        assert!(t.elapsed().as_secs_f64() < 0.5, "{:?}", t.elapsed());
    }

    #[test]
    fn the_cube_ply_changes_the_cube_decisions_only() {
        // Cube decisions from 1-ply probabilities: the same dice and checker
        // plays (the cubeless result is the 0-ply cube's), other cubeful
        // results where a decision turns; any thread count gives the same.
        let ev = Network::shipped(Variant::Backgammon);
        let settings =
            RolloutSettings { trials: 36, seed: 2, truncate: Some(6), cube: Some(CubeState::money()), ..RolloutSettings::default() };
        let mut changed = 0;
        for k in [6, 20, 30, 45] {
            let pos = midgame(Variant::Backgammon, k);
            let zero = roll(&ev, &pos, settings);
            let one = roll(&ev, &pos, RolloutSettings { cube_ply: 1, ..settings });
            assert_eq!(zero.cubeless, one.cubeless, "position {k}");
            assert_eq!(one, roll(&ev, &pos, RolloutSettings { cube_ply: 1, threads: 2, ..settings }));
            changed += usize::from(zero.cubeful != one.cubeful);
        }
        assert!(changed > 0, "1-ply cube decisions changed no cubeful result");
        let err = RolloutSettings { cube_ply: 3, ..settings }.check().unwrap_err().to_string();
        assert!(err.contains("cube_ply"), "{err}");
    }

    #[test]
    fn cubeful_agrees_with_the_cubeful_rollout_of_trajectories() {
        let net = crate::nn::shipped::network(Variant::Nardy);
        let ev = Network::from_mlp(net.clone(), "nardy");
        let policy = CubePolicy::of(Variant::Nardy);
        for k in [8, 40] {
            let pos = midgame(Variant::Nardy, k);
            for cube in [CubeState::money(), CubeState { value: 2, owner: Owner::Opponent, ..CubeState::money() }] {
                let old = rollout_cubeful(Nets::one(net), &pos, &[(cube, FirstDecision::Free)], 144, 4, 2, &policy).unwrap();
                let new =
                    roll(&ev, &pos, RolloutSettings { trials: 144, seed: 4, threads: 2, cube: Some(cube), ..RolloutSettings::default() });
                let cf = new.cubeful.unwrap();
                let (a, b) = (old.values[0], cf);
                assert!((a.equity - b.mean).abs() < 3.0 * (a.error.powi(2) + b.error.powi(2)).sqrt() + 1e-9, "position {k}: {a:?} {b:?}");
                assert!((old.cubeless.equity as f64 - new.cubeless.mean).abs() < 0.2);
            }
        }
    }

    #[test]
    fn certain_positions_roll_out_exactly() {
        // I bear off my last checker with any roll: a single win, a sure
        // double that the opponent passes.
        let mut mine = [0i64; 25];
        mine[0] = 1;
        let mut theirs = [0i64; 25];
        theirs[5] = 3;
        let pos = Position::from_arrays(Rules::backgammon(), &mine, &theirs).unwrap();
        let ev = Network::shipped(Variant::Backgammon);
        for vr in [false, true] {
            let r = roll(
                &ev,
                &pos,
                RolloutSettings { trials: 36, variance_reduction: vr, cube: Some(CubeState::money()), ..RolloutSettings::default() },
            );
            // (The luck of each roll is 0 up to rounding.)
            let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
            assert!(r.probabilities.iter().zip([1.0, 0.0, 0.0, 0.0, 0.0]).all(|(&p, q)| near(p, q)), "{r:?}");
            assert!(near(r.cubeless.mean, 1.0) && r.cubeless.error < 1e-9, "{r:?}");
            let cubeful = r.cubeful.unwrap();
            assert!(near(cubeful.mean, 1.0) && cubeful.error < 1e-9, "{r:?}");
            let exact = roll(&ev, &pos, RolloutSettings { trials: 36, stop_at_bearoff: true, ..RolloutSettings::default() });
            assert!((exact.cubeless.mean - 1.0).abs() < 1e-6 && exact.cubeless.error < 1e-6);
        }
    }

    #[test]
    fn exact_bearoffs_stop_the_trials() {
        // A race one roll from the tables: stopped there, each trial is the
        // table's value after one roll, so the answer is 1-ply with the tables.
        let bg = Rules::backgammon();
        let mut lone = [0i64; 25];
        lone[7] = 1;
        let mut theirs = [0i64; 25];
        theirs[4] = 2;
        let race = Position::from_arrays(bg, &lone, &theirs).unwrap();
        let ev = Network::shipped(Variant::Backgammon);
        let r = roll(&ev, &race, RolloutSettings { trials: 36, stop_at_bearoff: true, ..RolloutSettings::default() });
        let one_ply = evaluate_at(&ev, &SearchConfig { ply: 1, threads: 1, ..SearchConfig::default() }, &race, crate::cascade::LATE).0;
        assert!((r.cubeless.mean - one_ply.equity() as f64).abs() < 1e-4, "{r:?} {one_ply:?}");
        let played = roll(&ev, &race, RolloutSettings { trials: 36, ..RolloutSettings::default() });
        assert_ne!(played.cubeless, r.cubeless);
    }

    #[test]
    fn candidate_plays_roll_out_on_common_dice() {
        let ev = Network::shipped(Variant::Backgammon);
        let pos = midgame(Variant::Backgammon, 14);
        let policy = CubePolicy::of(Variant::Backgammon);
        let settings =
            RolloutSettings { trials: 72, seed: 9, truncate: Some(10), cube: Some(CubeState::money()), ..RolloutSettings::default() };
        let plays = rollout_plays(&ev, &engine(), &policy, &pos, [6, 4], 3, &settings, None).unwrap();
        assert!(!plays.is_empty() && plays.len() <= 3);
        assert!(plays.windows(2).all(|w| w[0].rollout.equity().mean >= w[1].rollout.equity().mean));
        let two = rollout_plays(&ev, &engine(), &policy, &pos, [6, 4], 3, &RolloutSettings { threads: 2, ..settings }, None).unwrap();
        assert!(plays.iter().zip(&two).all(|(a, b)| a.rollout == b.rollout));
        // Each is the rollout of the position after it, from the opponent's
        // side, with the same seed: the same dice.
        for p in &plays {
            let after = p.candidate.play.position.flip();
            let cube = CubeState { owner: Owner::Centered, ..CubeState::money() };
            let theirs = roll(&ev, &after, RolloutSettings { cube: Some(cube), ..settings });
            // The same dice give the mirrored probabilities; the means agree to f32 rounding.
            assert!((theirs.cubeless.mean + p.rollout.cubeless.mean).abs() < 1e-6, "{theirs:?} {:?}", p.rollout);
            assert!((theirs.cubeful.unwrap().mean + p.rollout.cubeful.unwrap().mean).abs() < 1e-6);
        }
        // A gul bara double cascades: each candidate is a whole part.
        let gb = Network::shipped(Variant::GulBara);
        let gpos = midgame(Variant::GulBara, 9);
        let gsettings = RolloutSettings { trials: 12, truncate: Some(6), ..RolloutSettings::default() };
        let gplays = rollout_plays(&gb, &engine(), &CubePolicy::of(Variant::GulBara), &gpos, [3, 3], 2, &gsettings, None).unwrap();
        assert!(gplays.iter().all(|p| p.candidate.cascade.is_some() && p.rollout.trials == 12));
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        let ev = Network::shipped(Variant::Backgammon);
        let pos = Position::start(Rules::backgammon());
        let policy = CubePolicy::of(Variant::Backgammon);
        let bad = |s: RolloutSettings| rollout_position(&ev, &engine(), &policy, &pos, &s, None).unwrap_err().to_string();
        let d = RolloutSettings::default();
        assert!(bad(RolloutSettings { trials: 0, ..d }).contains("trials"));
        assert!(bad(RolloutSettings { trials: MAX_TRIALS + 1, ..d }).contains("trials"));
        assert!(bad(RolloutSettings { checker_ply: 3, ..d }).contains("ply"));
        assert!(bad(RolloutSettings { truncate: Some(0), ..d }).contains("truncate"));
        assert!(bad(RolloutSettings { min_trials: 5000, ..d }).contains("min_trials"));
        assert!(bad(RolloutSettings { target_error: Some(-1.0), ..d }).contains("target_error"));
        assert!(bad(RolloutSettings { threads: 0, ..d }).contains("threads"));
        let plays = |top: usize, dice: [u8; 2]| rollout_plays(&ev, &engine(), &policy, &pos, dice, top, &d, None).unwrap_err().to_string();
        assert!(plays(0, [3, 1]).contains("top"));
        assert!(plays(MAX_PLAYS + 1, [3, 1]).contains("top"));
        assert!(plays(2, [7, 1]).contains('7'));
    }
}
