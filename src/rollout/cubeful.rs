//! Cubeful rollouts and self-play matches: games played out with the
//! networks at 0-ply, as the cubeless rollout plays them, with both players
//! making 0-ply cube decisions before each roll.
//!
//! Checker play at 0-ply is cubeless (the network's best play does not look
//! at the cube), so the cube never changes how a game is played, only what
//! it is worth. A trial is therefore played once, as a [`Trajectory`] (the
//! evaluation before each roll and the result), and then scored under any
//! number of cube states and first decisions on the same dice
//! ([`cube_points`]): ND and DT of one position come from the same games,
//! and the cubeless result is the same trial's too.
//!
//! Before each roll the player on roll, if it may double, asks
//! [`zero_ply_decision_at`] on the network's evaluation of the position
//! (exact in bear-offs covered by the tables) with the policy's cube
//! efficiency; the opponent takes or passes by the same decision's
//! `should_take`. A take doubles the cube and hands it to the taker; a pass
//! ends the game with the doubler winning the cube's value.
//!
//! Dice and the stratified first roll are those of [`super::rollout`], so a
//! result depends on the seed and the trial count, not on the threads.

use super::{summarize, RolloutResult};
use crate::cube::efficiency::{classify, Efficiencies, PositionClass};
use crate::cube::met::MatchEquityTable;
use crate::cube::state::{CubeState, Owner};
use crate::dice::Dice;
use crate::error::{Error, Result};
use crate::nn::player::{play_roll, NetPlayer, Nets};
use crate::nn::OUTPUTS;
use crate::outcome::{final_evaluation, game_result, Evaluation};
use crate::parallel::par_map;
use crate::position::{Position, ME};
use crate::search::cubeful::zero_ply_decision_at;
use crate::turn::TurnDriver;
use crate::variant::{Rules, Variant};

/// A game this long is abandoned (never seen in practice) and scores 0.
const MAX_TURNS: u32 = 5000;

/// `rolls_before` for a position taken from the middle of a game: every gul
/// bara double cascades, as in the cubeless rollout.
pub const MID_GAME: u32 = u32::MAX;

/// What a cube decision needs of a position where a player is about to roll,
/// seen from that player.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    pub class: PositionClass,
    /// The player on roll's pip count.
    pub pips: u32,
    /// Cubeless probabilities before the roll (network, or exact tables).
    pub evaluation: Evaluation,
    /// The roll is the extra roll of an acey-deucey 1-2: the player of the
    /// turn before rolls again, with no cube action before it.
    pub extra_roll: bool,
}

impl Turn {
    pub fn new(pos: &Position, probabilities: [f32; OUTPUTS]) -> Turn {
        let evaluation = Evaluation::new(probabilities).possible_in(pos);
        Turn { class: classify(pos), pips: pos.pips()[ME], evaluation, extra_roll: false }
    }

    /// The turn of the board's next roll (an extra roll where the driver says so).
    pub fn on(board: &TurnDriver, probabilities: [f32; OUTPUTS]) -> Turn {
        Turn { extra_roll: board.is_extra_roll(), ..Turn::new(board.position(), probabilities) }
    }
}

/// One game played out: the turns in order (the players alternate, except
/// that an extra roll is the same player's as the turn before) and the
/// cubeless result for the starting player.
#[derive(Clone, Debug)]
pub struct Trajectory {
    pub turns: Vec<Turn>,
    /// Points the starting player won (negative: lost) with the cube at 1.
    pub starter_points: i32,
}

/// Plays `start` out to the end with the networks at 0-ply. `first_roll`
/// fixes the first roll (else it is drawn); `rolls_before` is how many rolls
/// the game has had (gul bara cascades begin after `cascade_after_rolls`).
pub fn play_out(nets: Nets, start: &Position, first_roll: Option<(u8, u8)>, rolls_before: u32, rng: &mut Dice) -> Trajectory {
    let mut turns = Vec::with_capacity(128);
    if let Some((mover_won, points)) = game_result(start) {
        let points = points as i32;
        return Trajectory { turns, starter_points: if mover_won { points } else { -points } };
    }
    let mut board = TurnDriver::new(*start.rules(), *start, 0, rolls_before, None);
    let mut probabilities = NetPlayer::with_nets(nets).value(start);
    let mut starter_on_roll = true;
    for turn in 0..MAX_TURNS {
        turns.push(Turn::on(&board, probabilities));
        let (d1, d2) = match first_roll {
            Some(roll) if turn == 0 => roll,
            _ => (rng.die(), rng.die()),
        };
        let outcome = play_roll(nets, &mut board, [d1, d2]);
        if outcome.finished.is_some() {
            // `target` is then the exact outcome for the player who rolled.
            let points = Evaluation::new(outcome.target).equity().round() as i32;
            return Trajectory { turns, starter_points: if starter_on_roll { points } else { -points } };
        }
        if outcome.rolls_again {
            // The roller's value of the position it rolls again from.
            probabilities = outcome.target;
            continue;
        }
        // The roller's value of the next position is its opponent's
        // evaluation of it, turned round: no second network call.
        probabilities = Evaluation::new(outcome.target).invert().to_array();
        starter_on_roll = !starter_on_roll;
    }
    Trajectory { turns, starter_points: 0 }
}

/// The first cube decision of a trial, to measure one branch of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstDecision {
    /// Both players decide by the policy from the start.
    Free,
    /// The starting player does not double before its first roll (ND).
    NoDouble,
    /// The starting player doubles and the opponent takes (DT).
    DoubleTake,
}

/// How the players decide on the cube: 0-ply formulas with these tables.
#[derive(Clone, Copy, Debug)]
pub struct CubePolicy<'a> {
    pub met: &'a MatchEquityTable,
    pub efficiencies: Efficiencies,
}

impl CubePolicy<'static> {
    /// The variant's shipped table and efficiencies (the engine's 0-ply).
    pub fn of(variant: Variant) -> CubePolicy<'static> {
        CubePolicy { met: crate::cube::default_met(variant), efficiencies: Efficiencies::of(variant) }
    }
}

/// Whether the player on roll doubles, and if so whether the opponent takes.
pub(crate) fn cube_action(turn: &Turn, cube: &CubeState, policy: &CubePolicy) -> Option<bool> {
    let x = policy.efficiencies.value(turn.class, turn.pips);
    let decision = zero_ply_decision_at(&turn.evaluation, cube, policy.met, x);
    decision.should_double().then(|| decision.should_take())
}

/// Where the cube's walk through a game's turns ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CubeEnd {
    /// A double was passed before turn `turn`'s roll: the starting player
    /// won `points` (negative: lost).
    Passed { turn: usize, points: i64 },
    /// Every turn was played: the cube after them, seen from the player who
    /// would roll next.
    Played(CubeState),
}

/// Walks the cube through `turns` (the first the starting player's, the
/// players alternating except at an extra roll) from `state` (the starting
/// player's side), each player deciding by the policy before its turn's
/// first roll (the first decision as `first` says).
/// `on_roll(k, cube)` is told the cube of every roll played, after that
/// turn's decision.
pub fn walk_cube(
    turns: &[Turn],
    state: &CubeState,
    first: FirstDecision,
    policy: &CubePolicy,
    on_roll: &mut dyn FnMut(usize, &CubeState),
) -> Result<CubeEnd> {
    state.check()?;
    if first == FirstDecision::DoubleTake && !state.may_double() {
        return Err(Error::new(format!("the player on roll may not double with {}", state.describe())));
    }
    let mut cube = *state;
    let mut sign = 1;
    for (k, turn) in turns.iter().enumerate() {
        if turn.extra_roll {
            // The same player rolls again: the cube stays on its side.
            if k > 0 {
                cube = cube.flip();
                sign = -sign;
            }
        } else if cube.may_double() {
            let action = match (k, first) {
                (0, FirstDecision::NoDouble) => None,
                (0, FirstDecision::DoubleTake) => Some(true),
                _ => cube_action(turn, &cube, policy),
            };
            match action {
                Some(true) => cube = cube.doubled(),
                Some(false) => return Ok(CubeEnd::Passed { turn: k, points: sign * cube.value as i64 }),
                None => {}
            }
        }
        on_roll(k, &cube);
        cube = cube.flip();
        sign = -sign;
    }
    Ok(CubeEnd::Played(cube))
}

/// The points the starting player wins (negative: loses) in `game` with the
/// cube starting at `state` (from the starting player's side), the cube's
/// value included.
pub fn cube_points(game: &Trajectory, state: &CubeState, first: FirstDecision, policy: &CubePolicy) -> Result<i64> {
    Ok(match walk_cube(&game.turns, state, first, policy, &mut |_, _| {})? {
        CubeEnd::Passed { points, .. } => points,
        CubeEnd::Played(cube) => game.starter_points as i64 * cube.value as i64,
    })
}

/// A cubeful rollout value: mean points per trial normalized to the
/// starting cube, and its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubefulValue {
    pub equity: f64,
    pub error: f64,
}

/// A cubeful rollout: one value per asked (state, first decision), and the
/// cubeless rollout of the same trials.
#[derive(Clone, Debug)]
pub struct CubefulRollout {
    pub values: Vec<CubefulValue>,
    pub cubeless: RolloutResult,
}

/// The trials' dice stream, as the cubeless rollout's.
pub(crate) fn trial_rng(seed: u64, t: usize) -> Dice {
    Dice::training(seed ^ (t as u64).wrapping_mul(0xA24B_AED4_963E_E407))
}

/// `trials` games from `start` on `threads` threads, trial `t` opening with
/// the `t mod 36`-th roll; the same games whatever the thread count.
pub fn trajectories(nets: Nets, start: &Position, rolls_before: u32, trials: usize, seed: u64, threads: usize) -> Vec<Trajectory> {
    par_map(
        trials,
        threads,
        || (),
        |_, t| {
            let first = ((t % 36 / 6) as u8 + 1, (t % 6) as u8 + 1);
            play_out(nets, start, Some(first), rolls_before, &mut trial_rng(seed, t))
        },
    )
}

/// The cubeless rollout result of played-out games.
pub fn cubeless_result(games: &[Trajectory]) -> RolloutResult {
    let outcomes: Vec<[f32; OUTPUTS]> = games
        .iter()
        .map(|g| match g.starter_points {
            0 => [0.5, 0.0, 0.0, 0.0, 0.0],
            p => final_evaluation(p > 0, p.unsigned_abs() as u8).to_array(),
        })
        .collect();
    summarize(&outcomes)
}

/// The mean and standard error of `cube_points / state.value` over `games`.
pub fn cubeful_value(games: &[Trajectory], state: &CubeState, first: FirstDecision, policy: &CubePolicy) -> Result<CubefulValue> {
    let points =
        games.iter().map(|g| Ok(cube_points(g, state, first, policy)? as f64 / state.value as f64)).collect::<Result<Vec<f64>>>()?;
    let n = points.len().max(1) as f64;
    let mean = points.iter().sum::<f64>() / n;
    let var = points.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    Ok(CubefulValue { equity: mean, error: (var / n).sqrt() })
}

/// Rolls `start` (a position from the middle of a game, the player on roll
/// before its roll) out `trials` times and scores every trial under each of
/// `cases`: the cube state from the player on roll's side and its first
/// decision.
pub fn rollout_cubeful(
    nets: Nets,
    start: &Position,
    cases: &[(CubeState, FirstDecision)],
    trials: usize,
    seed: u64,
    threads: usize,
    policy: &CubePolicy,
) -> Result<CubefulRollout> {
    for (state, first) in cases {
        // Refuse impossible cases before the games are played.
        cube_points(&Trajectory { turns: Vec::new(), starter_points: 0 }, state, *first, policy)?;
    }
    let games = trajectories(nets, start, MID_GAME, trials, seed, threads);
    let values = cases.iter().map(|(s, f)| cubeful_value(&games, s, *f, policy)).collect::<Result<Vec<_>>>()?;
    Ok(CubefulRollout { values, cubeless: cubeless_result(&games) })
}

/// What a self-play match came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchOutcome {
    /// The player whose score is `score[0]` won.
    pub won: bool,
    pub games: u32,
}

/// Plays a `length`-point match from `score` (`crawford`: the next game is
/// the Crawford game) to the end, both sides the networks at 0-ply with the
/// policy's cube decisions. Each game's starter is drawn at random, so every
/// game is an even one (the table's assumption), whoever won the last.
#[allow(clippy::too_many_arguments)] // a match's settings, taken one by one like selfplay_matches's
pub fn play_match(
    nets: Nets,
    rules: Rules,
    length: u32,
    score: [u32; 2],
    crawford: bool,
    rng: &mut Dice,
    policy: &CubePolicy,
) -> Result<MatchOutcome> {
    let first = CubeState { match_length: length, score, crawford, ..CubeState::money() };
    first.check()?;
    let (mut score, mut crawford) = (score, crawford);
    // Once someone is at match point the Crawford game is (or was) played.
    let mut crawford_seen = score.iter().any(|&s| s + 1 == length);
    for games in 1.. {
        let starter = rng.below(2);
        let game = play_out(nets, &Position::start(rules), None, 0, rng);
        let state = CubeState { owner: Owner::Centered, value: 1, score: [score[starter], score[1 - starter]], crawford, ..first };
        let points = cube_points(&game, &state, FirstDecision::Free, policy)?;
        if points == 0 {
            continue; // an abandoned game
        }
        let winner = if points > 0 { starter } else { 1 - starter };
        score[winner] += points.unsigned_abs() as u32;
        if score[winner] >= length {
            return Ok(MatchOutcome { won: winner == 0, games });
        }
        crawford = !crawford_seen && score[winner] + 1 == length;
        crawford_seen |= crawford;
    }
    unreachable!("a match ends")
}

/// Matches won by the player at `score[0]`, of `matches` played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchStats {
    pub wins: usize,
    pub matches: usize,
    pub games: u64,
}

impl MatchStats {
    /// The share of matches won and its 95% interval (Wilson's).
    pub fn mwc(&self) -> (f64, f64, f64) {
        let (n, z) = (self.matches.max(1) as f64, 1.96);
        let p = self.wins as f64 / n;
        let center = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        (p, center - half, center + half)
    }
}

/// `matches` self-play matches from the same score on `threads` threads;
/// match `m` has its own dice, so the result does not depend on the threads.
#[allow(clippy::too_many_arguments)] // a match's settings plus how many and on how many threads
pub fn selfplay_matches(
    nets: Nets,
    rules: Rules,
    length: u32,
    score: [u32; 2],
    crawford: bool,
    matches: usize,
    seed: u64,
    threads: usize,
    policy: &CubePolicy,
) -> Result<MatchStats> {
    let outcomes =
        par_map(matches, threads, || (), |_, m| play_match(nets, rules, length, score, crawford, &mut trial_rng(seed, m), policy));
    let mut stats = MatchStats { wins: 0, matches, games: 0 };
    for o in outcomes {
        let o = o?;
        stats.wins += o.won as usize;
        stats.games += o.games as u64;
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::MatchEquityTable;
    use crate::nn::Mlp;
    use crate::rollout::rollout;

    fn net(variant: Variant) -> Mlp {
        Mlp::new(crate::nn::encoding::input_count(variant), 8, 7)
    }

    fn nardy_policy() -> CubePolicy<'static> {
        CubePolicy { met: MatchEquityTable::kazaross_xg2(), efficiencies: Efficiencies::PROVISIONAL_NARDY }
    }

    /// Nardy, me on roll with one checker left on my 1 point, the opponent
    /// with `theirs` checkers on its 1 point (the rest off): I bear off with
    /// any roll, and the bear-off tables know it.
    fn sure_win(theirs: i64) -> Position {
        let mut mine = [0i64; 25];
        mine[0] = 1;
        let mut their_side = [0i64; 25];
        their_side[0] = theirs;
        Position::from_arrays(Rules::nardy(), &mine, &their_side).unwrap()
    }

    #[test]
    fn a_sure_win_doubled_and_passed_is_one_point() {
        let net = net(Variant::Nardy);
        let pos = sure_win(15);
        let policy = nardy_policy();
        let money = CubeState::money();
        let cases = [(money, FirstDecision::Free), (money, FirstDecision::NoDouble), (money, FirstDecision::DoubleTake)];
        let r = rollout_cubeful(Nets::one(&net), &pos, &cases, 36, 3, 2, &policy).unwrap();
        // Mars (2 points) on any roll: too good to double; played on it wins 2,
        // doubled and taken 4 (per cube: 2 and 4).
        assert_eq!(r.values[0], CubefulValue { equity: 2.0, error: 0.0 });
        assert_eq!(r.values[1], CubefulValue { equity: 2.0, error: 0.0 });
        assert_eq!(r.values[2], CubefulValue { equity: 4.0, error: 0.0 });
        // Without the mars (the opponent has borne off one) it is a double
        // that the opponent passes: exactly one cube.
        let single = sure_win(14);
        let r = rollout_cubeful(Nets::one(&net), &single, &cases[..1], 36, 3, 2, &policy).unwrap();
        assert_eq!(r.values[0], CubefulValue { equity: 1.0, error: 0.0 });
        let owned = CubeState { value: 4, owner: Owner::Me, ..money };
        let r = rollout_cubeful(Nets::one(&net), &single, &[(owned, FirstDecision::Free)], 36, 3, 1, &policy).unwrap();
        assert_eq!(r.values[0].equity, 1.0, "a redouble passed is one cube, normalized");
    }

    #[test]
    fn an_extra_roll_keeps_the_cube_with_the_roller() {
        // The starter owns the cube; an even game never doubles. Its 1-2's
        // extra roll is its own again, so the cube stays on its side there.
        let pos = Position::start(Rules::acey_deucey());
        let even = Turn::new(&pos, [0.5, 0.1, 0.0, 0.1, 0.0]);
        let turns = [even, Turn { extra_roll: true, ..even }, even, even];
        let owned = CubeState { value: 2, owner: Owner::Me, ..CubeState::money() };
        let mut owners = Vec::new();
        let end = walk_cube(&turns, &owned, FirstDecision::Free, &nardy_policy(), &mut |_, c| owners.push(c.owner)).unwrap();
        assert_eq!(owners, [Owner::Me, Owner::Me, Owner::Opponent, Owner::Me]);
        assert_eq!(end, CubeEnd::Played(CubeState { owner: Owner::Opponent, ..owned }));
    }

    #[test]
    fn a_dead_cube_is_the_cubeless_rollout_on_the_same_dice() {
        for variant in [Variant::Nardy, Variant::GulBara] {
            let net = net(variant);
            let start = crate::nn::player::selfplay_positions(&net, Rules::new(variant), 3, 11)[2];
            let policy = nardy_policy();
            let dead = CubeState { max_value: 1, ..CubeState::money() };
            let r = rollout_cubeful(Nets::one(&net), &start, &[(dead, FirstDecision::Free)], 72, 5, 2, &policy).unwrap();
            let cubeless = rollout(Nets::one(&net), &start, 72, 5, 1);
            assert!((r.values[0].equity - cubeless.equity as f64).abs() < 1e-5, "{:?} {:?}", r.values[0], cubeless);
            assert_eq!(r.cubeless.probabilities, cubeless.probabilities);
            // A live cube is worth something on the same games.
            let live = rollout_cubeful(Nets::one(&net), &start, &[(CubeState::money(), FirstDecision::Free)], 72, 5, 2, &policy).unwrap();
            assert_ne!(live.values[0], r.values[0]);
        }
    }

    #[test]
    fn same_answer_on_any_number_of_threads() {
        let net = net(Variant::GulBara);
        let start = crate::nn::player::selfplay_positions(&net, Rules::gulbara(), 2, 4)[1];
        let policy = nardy_policy();
        let owned = CubeState { value: 2, owner: Owner::Opponent, ..CubeState::money() };
        let cases =
            [(CubeState::money(), FirstDecision::NoDouble), (CubeState::money(), FirstDecision::DoubleTake), (owned, FirstDecision::Free)];
        let one = rollout_cubeful(Nets::one(&net), &start, &cases, 40, 8, 1, &policy).unwrap();
        let three = rollout_cubeful(Nets::one(&net), &start, &cases, 40, 8, 3, &policy).unwrap();
        assert_eq!(one.values, three.values);
        assert_eq!(one.cubeless, three.cubeless);
        // A cube the opponent owns cannot be doubled by me.
        assert!(rollout_cubeful(Nets::one(&net), &start, &[(owned, FirstDecision::DoubleTake)], 4, 8, 1, &policy).is_err());
        let a = selfplay_matches(Nets::one(&net), Rules::gulbara(), 3, [1, 0], false, 6, 2, 1, &policy).unwrap();
        let b = selfplay_matches(Nets::one(&net), Rules::gulbara(), 3, [1, 0], false, 6, 2, 3, &policy).unwrap();
        assert_eq!(a, b);
        assert!(a.games >= 6);
        assert!(selfplay_matches(Nets::one(&net), Rules::gulbara(), 3, [3, 0], false, 1, 2, 1, &policy).is_err());
    }
}
