//! Cubeful search: the checker search of [`super`] with the cube state
//! carried down the tree.
//!
//! A node is a position with the player on roll before its roll and a list
//! of cube states to value it under (money: equity normalized to each
//! state's cube; match: the player on roll's match winning chance).
//! - **Leaf** (0 plies left, or the game over): the static evaluation turned
//!   cubeful by [`janowski`] with the position's cube efficiency.
//! - **Inner node**: for each of the 21 rolls the mover picks its play (the
//!   best at 0-ply cubeful under the node's first state, then the inner
//!   filter's survivors searched deeper, as the cubeless search does), and
//!   the position after it is valued one ply shallower from the opponent's
//!   side; the roll-weighted average, turned back to the mover, is the value.
//! - Below the root, the player on roll may double before rolling: each
//!   state brings its doubled twin (cube x2, owned by the opponent) down the
//!   tree, and the node's value is max(no double, min(double/take,
//!   double/pass)) whenever that player may double. This is the recursion of
//!   GNU Backgammon's cubeful evaluation, so 0-ply values agree with gnubg's
//!   on equal probabilities.
//!
//! The root of a cube decision asks for two states, "no double" and
//! "double, take", without the extra doubling (that choice is the decision
//! itself). Bear-offs are searched on (the cube matters there) instead of
//! stopping at the exact cubeless tables; the static evaluations still come
//! from the tables and the cache.

use super::{filtered, parallel, sort_by_equity, SearchConfig, Worker};
use crate::cascade::LATE;
use crate::cube::bearoff;
use crate::cube::decision::CubeDecision;
use crate::cube::efficiency::efficiency;
use crate::cube::janowski::{self, mwc_after, Chances};
use crate::cube::met::MatchEquityTable;
use crate::cube::state::CubeState;
use crate::dice::rolls as all_rolls;
use crate::eval::{Evaluation, Evaluator};
use crate::movegen::Move;
use crate::position::Position;

/// A root play judged with the cube.
#[derive(Clone, Debug)]
pub struct CubefulCandidate {
    pub play: Move,
    /// A gul bara cascade: the mover's whole part (see [`super::Candidate`]).
    pub cascade: Option<std::sync::Arc<crate::cascade::CascadePart>>,
    /// Cubeless probabilities after the play (the mover's view).
    pub evaluation: Evaluation,
    /// Cubeful equity normalized to the cube (match: from the MWC).
    pub equity: f64,
    /// Match play: the mover's match winning chance.
    pub mwc: Option<f64>,
    pub ply: u8,
}

/// The root's plays, best first, and the nodes searched.
#[derive(Clone, Debug)]
pub struct CubefulResult {
    pub candidates: Vec<CubefulCandidate>,
    pub nodes: u64,
}

/// A cube decision with the cubeless evaluation behind it.
#[derive(Clone, Copy, Debug)]
pub struct CubeAnalysis {
    pub decision: CubeDecision,
    pub evaluation: Evaluation,
    pub nodes: u64,
}

/// A value seen from the other player: money negates, match complements.
fn other_side(value: f64, money: bool) -> f64 {
    if money {
        -value
    } else {
        1.0 - value
    }
}

/// What the doubler gets from a double and a pass: one cube's worth.
fn double_pass_value(state: &CubeState, met: &MatchEquityTable) -> f64 {
    if state.is_money() {
        1.0
    } else {
        mwc_after(state, met, 0, 0, state.value)
    }
}

/// The branches a node is valued on, from the player on roll's side: for
/// each state, playing on ("no double") and, below the root when that
/// player may double, the doubled cube it would hand over; `None` where
/// there is no such branch.
fn branches(states: &[Option<CubeState>], top: bool) -> Vec<Option<CubeState>> {
    let mut out = Vec::with_capacity(2 * states.len());
    for s in states {
        out.push(*s);
        out.push(s.filter(|s| !top && s.may_double()).map(|s| s.doubled()));
    }
    out
}

fn flipped(states: &[Option<CubeState>]) -> Vec<Option<CubeState>> {
    states.iter().map(|s| s.map(|s| s.flip())).collect()
}

/// Each state's value from the values of its two branches: the better of
/// no double and the taker's choice of take or pass (at the root, where the
/// choice is the question, the no-double branch as it is).
fn with_cube_choice(states: &[Option<CubeState>], values: &[f64], top: bool, met: &MatchEquityTable) -> Vec<f64> {
    states
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let (no_double, doubled) = (values[2 * k], values[2 * k + 1]);
            let Some(state) = s else { return f64::NAN };
            if top || !state.may_double() {
                return no_double;
            }
            let take = if state.is_money() { 2.0 * doubled } else { doubled };
            let pass = double_pass_value(state, met);
            if take >= no_double && pass >= no_double {
                take.min(pass)
            } else {
                no_double
            }
        })
        .collect()
}

/// The 0-ply value of `pos` (cubeless probabilities `e`) under a cube
/// state, without the option to double now: the exact table for small
/// bear-offs (with `use_bearoff`), else Janowski's formulas.
fn static_cubeful<'a>(pos: &'a Position, e: &Evaluation, use_bearoff: bool, met: &'a MatchEquityTable) -> impl Fn(&CubeState) -> f64 + 'a {
    let x = efficiency(pos);
    let p = Chances::from(e);
    let exact = if use_bearoff && bearoff::covers(pos) { bearoff::table_for(pos) } else { None };
    move |state| match exact {
        Some(table) => exact_bearoff_value(table, pos, &p, state, met, x),
        None => janowski::cubeful(&p, state, met, x),
    }
}

/// A small bear-off's value under `state` from the exact cubeful money
/// table. Money play reads it directly (an unlimited cube without beavers:
/// otherwise the formulas); match play, as GNU Backgammon does, turns the
/// exact money values into the cube efficiency they imply (between 0 and the
/// class's) and uses that in the match formulas.
fn exact_bearoff_value(
    table: &bearoff::CubefulBearoff,
    pos: &Position,
    p: &Chances,
    state: &CubeState,
    met: &MatchEquityTable,
    x: f64,
) -> f64 {
    let Some(exact) = table.no_double(pos, state.owner).map(f64::from) else {
        return janowski::cubeful(p, state, met, x);
    };
    if state.is_money() {
        let unlimited = state.value.saturating_mul(8) <= state.max_value;
        return if unlimited && !state.beaver { exact } else { janowski::cubeful(p, state, met, x) };
    }
    let money = CubeState { value: 1, owner: state.owner, ..CubeState::money() };
    let cubeless = 2.0 * p.win - 1.0;
    let live = janowski::money(p, &money, 1.0);
    let implied = if (cubeless - live).abs() > 1e-4 { ((exact - cubeless) / (live - cubeless)).clamp(0.0, x) } else { x };
    janowski::cubeful(p, state, met, implied)
}

impl Worker<'_> {
    /// 0-ply: the cubeful values of `pos` (static evaluation `e`) under
    /// each state, for the player on roll.
    fn leaf_values(&self, pos: &Position, e: &Evaluation, states: &[Option<CubeState>], top: bool, met: &MatchEquityTable) -> Vec<f64> {
        let value = static_cubeful(pos, e, self.config.use_bearoff, met);
        let values: Vec<f64> = branches(states, top).iter().map(|b| b.map_or(f64::NAN, |b| value(&b))).collect();
        with_cube_choice(states, &values, top, met)
    }

    /// The cubeful value of `pos` for the player on roll under each state,
    /// searched `plies` deep, and the cubeless evaluation found on the way.
    /// Below the root (`top` false) each state includes that player's
    /// option to double now.
    #[allow(clippy::too_many_arguments)] // the recursion's state, passed down per ply
    pub(super) fn cubeful_values(
        &mut self,
        pos: &Position,
        states: &[Option<CubeState>],
        plies: u8,
        top: bool,
        rolls: u32,
        met: &MatchEquityTable,
    ) -> (Evaluation, Vec<f64>) {
        let (e, _) = self.static_eval(pos);
        // A small money bear-off is exact at any depth.
        let exact_money = self.config.use_bearoff && states.iter().flatten().all(|s| s.is_money()) && bearoff::covers(pos);
        // A cancelled search expands no more nodes (its result is thrown away).
        if plies == 0 || pos.is_game_over() || exact_money || self.config.cancel.is_cancelled() {
            return (e, self.leaf_values(pos, &e, states, top, met));
        }
        let moves = branches(states, top);
        let mut sum = vec![0.0; moves.len()];
        let mut cubeless = Evaluation::default();
        for (d1, d2, p) in all_rolls() {
            let (ev, values) = self.best_cubeful_play(pos, d1, d2, &moves, plies - 1, rolls, met);
            cubeless.add_scaled(&ev, p as f32);
            for (s, v) in sum.iter_mut().zip(values) {
                *s += p * v;
            }
        }
        (cubeless, with_cube_choice(states, &sum, top, met))
    }

    /// The mover's play of d1-d2 (or part of a gul bara cascade), chosen
    /// under the first of `mine` (the mover's cube states, its no-double
    /// branch first), and the mover's values after it under each of them;
    /// `plies` is the depth left below. After a cascade's handover the
    /// opponent picks its share by its own value under its first state.
    #[allow(clippy::too_many_arguments)] // the recursion's state, passed down per ply
    fn best_cubeful_play(
        &mut self,
        pos: &Position,
        d1: u8,
        d2: u8,
        mine: &[Option<CubeState>],
        plies: u8,
        rolls: u32,
        met: &MatchEquityTable,
    ) -> (Evaluation, Vec<f64>) {
        // The pruning network cuts a roll's plays as in the cubeless search:
        // to the `prune` best at the leaves, to `prune_filter` before the
        // inner filter's 0-ply pass.
        let keep = if plies == 0 { self.config.prune } else { self.config.prune_filter };
        let choices = self.roll_choices(pos, d1, d2, rolls, false);
        let choices = self.pruned_choices(choices, keep);
        let all: Vec<Position> = choices.iter().flat_map(|c| c.replies.iter().copied()).collect();
        let statics = self.static_evals(&all);
        // 0-ply: every reply under all the next roller's states; the
        // opponent takes its best reply, the mover its best choice.
        let mut scored: Vec<(Evaluation, Vec<f64>, usize)> = self
            .best_replies_at_zero(&choices, &statics, mine, met)
            .into_iter()
            .enumerate()
            .map(|(k, (e, values))| (e, values, k))
            .collect();
        sort_by_equity(&mut scored, |s| s.1[0] as f32);
        if plies == 0 {
            let (e, values, _) = scored.swap_remove(0);
            return (e, values);
        }
        let kept = filtered(&scored, self.config.inner_filter, |s| s.1[0] as f32);
        let mut best: Option<(Evaluation, Vec<f64>)> = None;
        for &(_, _, k) in &scored[..kept] {
            // The opponent's choice among its share's results, searched.
            let (e, values) = self.best_reply_searched(&choices[k], mine, plies, rolls, met);
            if best.as_ref().is_none_or(|b| values[0] > b.1[0]) {
                best = Some((e, values));
            }
        }
        best.expect("the filter keeps at least one play")
    }

    /// For each choice, the mover's cubeless evaluation and values under
    /// `mine` after the opponent's best reply at 0-ply (its first state
    /// decides); after a 1-2 that rolls again, the mover's own next roll,
    /// with no double before it. `statics` are the replies' static
    /// evaluations, choice after choice.
    fn best_replies_at_zero(
        &self,
        choices: &[super::RollChoice],
        statics: &[(Evaluation, bool)],
        mine: &[Option<CubeState>],
        met: &MatchEquityTable,
    ) -> Vec<(Evaluation, Vec<f64>)> {
        let theirs = flipped(mine);
        let mut at = 0;
        choices
            .iter()
            .map(|choice| {
                if choice.rolls_again {
                    let (reply, e) = (&choice.replies[0], statics[at].0);
                    at += 1;
                    return (e, self.leaf_values(reply, &e, mine, true, met));
                }
                let mut best: Option<(Evaluation, Vec<f64>)> = None;
                for reply in &choice.replies {
                    let e = statics[at].0;
                    at += 1;
                    let values = self.leaf_values(reply, &e, &theirs, false, met);
                    if best.as_ref().is_none_or(|b| values[0] > b.1[0]) {
                        best = Some((e, values));
                    }
                }
                let (e, values) = best.expect("a choice has a reply");
                (e.invert(), to_mover(values, mine))
            })
            .collect()
    }

    /// The mover's cubeless evaluation and values under `mine` after a
    /// choice whose replies are searched `plies` deep: the opponent's best
    /// reply under the flipped states (its first state decides), or after
    /// a 1-2 that rolls again the mover's own next roll, with no double
    /// before it; the roll after `rolls`.
    fn best_reply_searched(
        &mut self,
        choice: &super::RollChoice,
        mine: &[Option<CubeState>],
        plies: u8,
        rolls: u32,
        met: &MatchEquityTable,
    ) -> (Evaluation, Vec<f64>) {
        if choice.rolls_again {
            return self.cubeful_values(&choice.replies[0], mine, plies, true, rolls + 1, met);
        }
        let theirs = flipped(mine);
        let mut best: Option<(Evaluation, Vec<f64>)> = None;
        for reply in &choice.replies {
            let (e, values) = self.cubeful_values(reply, &theirs, plies, false, rolls + 1, met);
            if best.as_ref().is_none_or(|b| values[0] > b.1[0]) {
                best = Some((e, values));
            }
        }
        let (e, values) = best.expect("a choice has a reply");
        (e.invert(), to_mover(values, mine))
    }
}

/// The opponent's values under the flipped states of `mine`, as the mover's.
fn to_mover(values: Vec<f64>, mine: &[Option<CubeState>]) -> Vec<f64> {
    let money = mine.iter().flatten().next().is_none_or(|s| s.is_money());
    values.into_iter().map(|v| other_side(v, money)).collect()
}

/// The cube decision of the player on roll of `pos` (before its roll) at
/// `config.ply`, with the equities normalized to the cube.
pub fn cube_decision(
    evaluator: &dyn Evaluator,
    config: &SearchConfig,
    met: &MatchEquityTable,
    pos: &Position,
    state: &CubeState,
) -> CubeAnalysis {
    cube_decision_at(evaluator, config, met, pos, state, LATE)
}

/// [`cube_decision`] with `rolls` rolls of the game already made (gul bara:
/// whether doubles cascade).
pub fn cube_decision_at(
    evaluator: &dyn Evaluator,
    config: &SearchConfig,
    met: &MatchEquityTable,
    pos: &Position,
    state: &CubeState,
    rolls: u32,
) -> CubeAnalysis {
    let states = [Some(*state), Some(state.doubled())];
    let (evaluation, values, nodes) = root_values(evaluator, config, met, pos, &states, rolls);
    let decision = decision_from_values(state, met, values[0], values[1], evaluation.win_gammon > 0.0);
    CubeAnalysis { decision, evaluation, nodes }
}

/// The 0-ply cube decision for given cubeless probabilities `e` of `pos`
/// (the formulas alone: for comparisons with other engines on equal
/// probabilities).
pub fn zero_ply_decision(pos: &Position, e: &Evaluation, state: &CubeState, met: &MatchEquityTable) -> CubeDecision {
    let value = static_cubeful(pos, e, true, met);
    decision_from_values(state, met, value(state), value(&state.doubled()), e.win_gammon > 0.0)
}

/// The 0-ply decision by Janowski's formulas with the cube efficiency `x`
/// given (cubeful rollouts try other efficiencies than the shipped ones).
pub fn zero_ply_decision_at(e: &Evaluation, state: &CubeState, met: &MatchEquityTable, x: f64) -> CubeDecision {
    zero_ply_decision_by(e, state, met, |_| x)
}

/// The same with the efficiency `x` gives each cube state (the no double's and
/// the double/take's), for measuring models where it depends on who owns the
/// cube (`examples/variant_cube_errors.rs`).
pub fn zero_ply_decision_by(e: &Evaluation, state: &CubeState, met: &MatchEquityTable, x: impl Fn(&CubeState) -> f64) -> CubeDecision {
    let p = Chances::from(e);
    let doubled = state.doubled();
    let no_double = janowski::cubeful(&p, state, met, x(state));
    let take = janowski::cubeful(&p, &doubled, met, x(&doubled));
    decision_from_values(state, met, no_double, take, e.win_gammon > 0.0)
}

/// The opponent's take point: the least cubeless winning chance at which
/// it should take a double now, by the 0-ply model with this position's
/// gammon and backgammon rates (of the games each side wins) and cube
/// efficiency. Where the position stands against it says how close the take
/// is; 0 when every double is a take, 1 when none is.
pub fn take_point(pos: &Position, e: &Evaluation, state: &CubeState, met: &MatchEquityTable) -> f64 {
    let x = efficiency(pos);
    let p = Chances::from(e);
    let (won, lost) = (p.win.max(1e-9), (1.0 - p.win).max(1e-9));
    let (wg, wb, lg, lb) = (p.win_gammon / won, p.win_backgammon / won, p.lose_gammon / lost, p.lose_backgammon / lost);
    let doubled = state.doubled();
    let pass = double_pass_value(state, met);
    // The doubler's double/take value when it wins `w` of the games.
    let take = |w: f64| {
        let at =
            Chances { win: w, win_gammon: w * wg, win_backgammon: w * wb, lose_gammon: (1.0 - w) * lg, lose_backgammon: (1.0 - w) * lb };
        let v = janowski::cubeful(&at, &doubled, met, x);
        if state.is_money() {
            2.0 * v
        } else {
            v
        }
    };
    // The take is worth more to the doubler the more it wins: bisect for
    // the winning chance where taking and passing are equal.
    let (mut low, mut high) = (0.0f64, 1.0f64);
    if take(high) <= pass {
        return 0.0;
    }
    if take(low) >= pass {
        return 1.0;
    }
    for _ in 0..60 {
        let mid = 0.5 * (low + high);
        if take(mid) < pass {
            low = mid;
        } else {
            high = mid;
        }
    }
    1.0 - 0.5 * (low + high)
}

/// The decision from the no-double and double/take values of the search
/// (money: normalized to each state's cube; match: MWC).
fn decision_from_values(state: &CubeState, met: &MatchEquityTable, no_double: f64, take: f64, can_win_gammon: bool) -> CubeDecision {
    let take = if state.is_money() { 2.0 * take } else { take };
    let pass = double_pass_value(state, met);
    if state.is_money() {
        CubeDecision::classify(state, no_double, take, pass, None, can_win_gammon)
    } else {
        let eq = |mwc: f64| janowski::mwc_to_equity(mwc, state, met);
        CubeDecision::classify(state, eq(no_double), eq(take), eq(pass), Some([no_double, take, pass]), can_win_gammon)
    }
}

/// The cubeful value of `pos` for the player on roll under `state`,
/// including its option to double now.
pub fn evaluate_cubeful(
    evaluator: &dyn Evaluator,
    config: &SearchConfig,
    met: &MatchEquityTable,
    pos: &Position,
    state: &CubeState,
) -> (Evaluation, f64, u64) {
    let analysis = cube_decision(evaluator, config, met, pos, state);
    let best = analysis.decision.best();
    let value = match analysis.decision.mwc {
        Some(_) => janowski::equity_to_mwc(best, state, met),
        None => best,
    };
    (analysis.evaluation, value, analysis.nodes)
}

/// The best way to play a cascade's handover under a cube state, as
/// [`super::best_share`] but by cubeful value: the player who plays the
/// share (`pos` from its side, `state` its cube) rolls next, so each result
/// is valued for it with its option to double first (money: normalized to
/// the cube; match: its match winning chance), at 0-ply, the root filter's
/// best at `config.ply`. Also the chosen result's value, normalized as
/// [`CubeDecision::best`] is (the cube decision of that position).
pub fn best_share(
    evaluator: &dyn Evaluator,
    config: &SearchConfig,
    met: &MatchEquityTable,
    pos: &Position,
    handover: &[(u8, u8)],
    state: &CubeState,
) -> (crate::cascade::Share, f64, u64) {
    let mut root = Worker::root(evaluator, config);
    let shares = root.handover_shares(pos, handover);
    let positions: Vec<Position> = shares.iter().map(|s| s.position).collect();
    let states = [Some(*state)];
    let statics = root.static_evals(&positions);
    let mut scored: Vec<(f64, usize)> =
        positions.iter().zip(&statics).enumerate().map(|(k, (p, (e, _)))| (root.leaf_values(p, e, &states, false, met)[0], k)).collect();
    sort_by_equity(&mut scored, |s| s.0 as f32);
    let mut nodes = root.nodes;
    if config.ply > 0 && scored.len() > 1 {
        let kept = filtered(&scored, config.root_filter, |s| s.0 as f32);
        let (deep, n) =
            parallel(evaluator, config, kept, |w, j| w.cubeful_values(&positions[scored[j].1], &states, config.ply, false, LATE, met).1[0]);
        nodes += n;
        for (s, v) in scored.iter_mut().zip(deep) {
            s.0 = v;
        }
        scored[..kept].sort_by(|a, b| b.0.total_cmp(&a.0));
    }
    let value = if state.is_money() { scored[0].0 } else { janowski::mwc_to_equity(scored[0].0, state, met) };
    (shares[scored[0].1].clone(), value, nodes)
}

/// The root of a cube decision: the 21 rolls shared out over the threads.
fn root_values(
    evaluator: &dyn Evaluator,
    config: &SearchConfig,
    met: &MatchEquityTable,
    pos: &Position,
    states: &[Option<CubeState>],
    rolls: u32,
) -> (Evaluation, Vec<f64>, u64) {
    let mut root = Worker::new(evaluator, config);
    if config.ply == 0 || pos.is_game_over() {
        let (e, values) = root.cubeful_values(pos, states, 0, true, rolls, met);
        return (e, values, root.nodes);
    }
    root.static_eval(pos);
    let moves = branches(states, true);
    let all = all_rolls();
    let (per_roll, nodes) =
        parallel(evaluator, config, all.len(), |w, k| w.best_cubeful_play(pos, all[k].0, all[k].1, &moves, config.ply - 1, rolls, met));
    let mut cubeless = Evaluation::default();
    let mut sum = vec![0.0; moves.len()];
    for ((e, values), &(_, _, p)) in per_roll.iter().zip(all.iter()) {
        cubeless.add_scaled(e, p as f32);
        for (s, v) in sum.iter_mut().zip(values) {
            *s += p * v;
        }
    }
    (cubeless, with_cube_choice(states, &sum, true, met), nodes + root.nodes)
}

/// Every play of d1-d2 judged with the cube: all at 0-ply, the root
/// filter's best at `config.ply`; best first by cubeful equity. Past the
/// game's first rolls (gul bara doubles cascade).
pub fn analyze_cubeful(
    evaluator: &dyn Evaluator,
    config: &SearchConfig,
    met: &MatchEquityTable,
    pos: &Position,
    d1: u8,
    d2: u8,
    state: &CubeState,
) -> CubefulResult {
    analyze_cubeful_at(evaluator, config, met, pos, d1, d2, state, LATE)
}

/// [`analyze_cubeful`] with `rolls` rolls of the game already made: a gul
/// bara cascade gives one candidate per result of the mover's part, judged
/// with the opponent's best play of its share.
#[allow(clippy::too_many_arguments)] // analyze_cubeful's arguments plus the rolls already made
pub fn analyze_cubeful_at(
    evaluator: &dyn Evaluator,
    config: &SearchConfig,
    met: &MatchEquityTable,
    pos: &Position,
    d1: u8,
    d2: u8,
    state: &CubeState,
    rolls: u32,
) -> CubefulResult {
    let money = state.is_money();
    let mine = [Some(*state)];
    let mut root = Worker::new(evaluator, config);
    let mut choices = root.roll_choices(pos, d1, d2, rolls, true);
    root.resolve_shares(&mut choices, super::root_share_keep(config));
    let all: Vec<Position> = choices.iter().flat_map(|c| c.replies.iter().copied()).collect();
    let statics = root.static_evals(&all);
    let candidate = |k: usize, e: Evaluation, value: f64, ply: u8| {
        let (equity, mwc) = if money { (value, None) } else { (janowski::mwc_to_equity(value, state, met), Some(value)) };
        CubefulCandidate { play: choices[k].play, cascade: choices[k].part.clone(), evaluation: e, equity, mwc, ply }
    };
    // The opponent's best reply (share result) for each choice, at 0-ply.
    let mut candidates: Vec<(CubefulCandidate, usize)> = root
        .best_replies_at_zero(&choices, &statics, &mine, met)
        .into_iter()
        .enumerate()
        .map(|(k, (e, values))| (candidate(k, e, values[0], 0), k))
        .collect();
    sort_by_equity(&mut candidates, |c| c.0.equity as f32);
    let mut nodes = root.nodes;
    if config.ply > 0 && candidates.len() > 1 {
        let kept = filtered(&candidates, config.root_filter, |c| c.0.equity as f32);
        let (deep, n) = parallel(evaluator, config, kept, |w, j| {
            let (e, values) = w.best_reply_searched(&choices[candidates[j].1], &mine, config.ply, rolls, met);
            (e, values[0])
        });
        nodes += n;
        for (c, (e, v)) in candidates.iter_mut().zip(deep) {
            c.0 = candidate(c.1, e, v, config.ply);
        }
        candidates[..kept].sort_by(|a, b| b.0.equity.total_cmp(&a.0.equity));
    }
    CubefulResult { candidates: candidates.into_iter().map(|(c, _)| c).collect(), nodes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::state::Owner;
    use crate::eval::heuristic::Heuristic;
    use crate::variant::{Rules, Variant};

    fn config(ply: u8, threads: usize) -> SearchConfig {
        SearchConfig { ply, threads, ..SearchConfig::default() }
    }

    #[test]
    fn zero_ply_decision_is_the_formula_on_the_static_evaluation() {
        let pos = Position::start(Rules::backgammon());
        let ev = Heuristic::new(Variant::Backgammon);
        let met = MatchEquityTable::kazaross_xg2();
        for state in [CubeState::money(), CubeState { match_length: 7, score: [2, 4], ..CubeState::money() }] {
            let a = cube_decision(&ev, &config(0, 1), met, &pos, &state);
            let p = Chances::from(&crate::eval::static_evaluation(&ev, &pos, true).0);
            let nd = janowski::cubeful(&p, &state, met, 0.68);
            let dt = janowski::cubeful(&p, &state.doubled(), met, 0.68);
            let (nd, dt) = if state.is_money() {
                (nd, 2.0 * dt)
            } else {
                (janowski::mwc_to_equity(nd, &state, met), janowski::mwc_to_equity(dt, &state, met))
            };
            assert!((a.decision.no_double - nd).abs() < 1e-12);
            assert!((a.decision.double_take - dt).abs() < 1e-12);
            assert!((a.decision.double_pass - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn a_one_two_that_rolls_again_keeps_the_cube_with_the_mover_and_no_double_before_it() {
        // After an acey-deucey 1-2 played in full the mover rolls again under
        // the same cube, with no double before that roll (RULES.md 5.2).
        let pos = crate::search::tests::acey_deucey_middle();
        let ev = Heuristic::new(Variant::AceyDeucey);
        let met = MatchEquityTable::kazaross_xg2();
        for state in [CubeState::money(), CubeState { value: 2, owner: Owner::Me, ..CubeState::money() }] {
            let r = analyze_cubeful(&ev, &config(0, 1), met, &pos, 1, 2, &state);
            let again: Vec<_> = r.candidates.iter().filter(|c| c.play.rolls_again).collect();
            assert!(!again.is_empty());
            for c in again {
                let after = c.play.position;
                let e = crate::eval::static_evaluation(&ev, &after, true).0;
                let own = janowski::cubeful(&Chances::from(&e), &state, met, efficiency(&after));
                assert!((c.equity - own).abs() < 1e-9, "{} vs {own}", c.equity);
            }
            // 1-ply: the best play's value is the mover's own next roll from
            // there, searched as a cube decision's no-double branch is.
            let best = &analyze_cubeful(&ev, &config(1, 1), met, &pos, 1, 2, &state).candidates[0];
            assert!(best.play.rolls_again && best.ply == 1);
            let deep = cube_decision(&ev, &config(1, 1), met, &best.play.position, &state).decision.no_double;
            assert!((best.equity - deep).abs() < 1e-6, "{} vs {deep}", best.equity);
        }
    }

    #[test]
    fn the_pruning_network_cuts_the_cube_search_as_the_checker_search() {
        // The shipped network has a pruner: with it a 1-ply cube decision
        // and a cubeful hint judge fewer plays in full, and agree closely
        // with the unpruned search; an evaluator without one is unchanged.
        let pos = crate::bench::bench_positions(Variant::Backgammon)[2].0;
        let met = MatchEquityTable::kazaross_xg2();
        let state = CubeState::money();
        let net = crate::eval::neural::Network::shipped(Variant::Backgammon);
        let unpruned = SearchConfig { prune: 0, prune_filter: 0, ..config(1, 1) };
        for ply in [1, 2] {
            let a = cube_decision(&net, &SearchConfig { ply, ..unpruned.clone() }, met, &pos, &state);
            let b = cube_decision(&net, &config(ply, 1), met, &pos, &state);
            assert!(b.nodes < a.nodes, "ply {ply}: {} {}", b.nodes, a.nodes);
            assert!((a.decision.no_double - b.decision.no_double).abs() < 0.02, "{:?} {:?}", a.decision, b.decision);
        }
        let a = analyze_cubeful(&net, &unpruned, met, &pos, 3, 1, &state);
        let b = analyze_cubeful(&net, &config(1, 1), met, &pos, 3, 1, &state);
        assert!(b.nodes < a.nodes && (a.candidates[0].equity - b.candidates[0].equity).abs() < 0.02);
        let ev = Heuristic::new(Variant::Backgammon);
        let a = cube_decision(&ev, &unpruned, met, &pos, &state);
        let b = cube_decision(&ev, &config(1, 1), met, &pos, &state);
        assert_eq!((a.nodes, a.decision.no_double), (b.nodes, b.decision.no_double));
    }

    #[test]
    fn threads_change_neither_values_nor_nodes() {
        let pos = Position::start(Rules::backgammon());
        let ev = Heuristic::new(Variant::Backgammon);
        let met = MatchEquityTable::kazaross_xg2();
        let state = CubeState { value: 2, owner: Owner::Me, ..CubeState::money() };
        let a = cube_decision(&ev, &config(1, 1), met, &pos, &state);
        let b = cube_decision(&ev, &config(1, 3), met, &pos, &state);
        assert_eq!(a.nodes, b.nodes);
        assert!((a.decision.no_double - b.decision.no_double).abs() < 1e-9);
        let h1 = analyze_cubeful(&ev, &config(1, 1), met, &pos, 3, 1, &state);
        let h2 = analyze_cubeful(&ev, &config(1, 2), met, &pos, 3, 1, &state);
        assert_eq!(h1.nodes, h2.nodes);
        assert_eq!(h1.candidates[0].play, h2.candidates[0].play);
    }

    #[test]
    fn an_owned_cube_is_worth_more_than_a_centered_one() {
        // Cube ownership has value at every depth: the option to double later.
        let pos = Position::start(Rules::backgammon());
        let ev = Heuristic::new(Variant::Backgammon);
        let met = MatchEquityTable::kazaross_xg2();
        for ply in [0, 1] {
            let owned = CubeState { value: 2, owner: Owner::Me, ..CubeState::money() };
            let theirs = CubeState { value: 2, owner: Owner::Opponent, ..CubeState::money() };
            let (_, mine, _) = evaluate_cubeful(&ev, &config(ply, 1), met, &pos, &owned);
            let (_, centered, _) = evaluate_cubeful(&ev, &config(ply, 1), met, &pos, &CubeState::money());
            let (_, other, _) = evaluate_cubeful(&ev, &config(ply, 1), met, &pos, &theirs);
            assert!(mine > centered && centered > other, "ply {ply}: {mine} {centered} {other}");
        }
    }

    /// A cascade part that hands moves over, one part after the start of gul
    /// bara (the sharer's position, the handover). Short cascades only: the
    /// unpruned parts of a long one from a spread position are too many.
    fn a_handover() -> (Position, Vec<(u8, u8)>) {
        let mut g = crate::movegen::MoveGen::new();
        let start = Position::start(Rules::gulbara());
        for d in 4..=6 {
            for first in crate::cascade::mover_parts(&mut g, &start, d) {
                let after = first.position.flip();
                for e in 4..=6 {
                    if let Some(p) = crate::cascade::mover_parts(&mut g, &after, e).into_iter().find(|p| !p.handover.is_empty()) {
                        return (p.position.flip(), p.handover);
                    }
                }
            }
        }
        panic!("no handover one part after the start")
    }

    #[test]
    fn a_cubeful_share_is_valued_by_the_sharers_cube_decision() {
        let (pos, handover) = a_handover();
        let ev = Heuristic::new(Variant::GulBara);
        let met = MatchEquityTable::kazaross_xg2();
        let states = [
            CubeState::money(),
            CubeState { value: 2, owner: Owner::Me, ..CubeState::money() },
            CubeState { match_length: 7, score: [6, 2], crawford: true, ..CubeState::money() },
        ];
        // 1-ply only under the first state, and with two shares searched: gul bara's 1-ply
        // cubeful search (every double a cascade) is slow.
        let cases = states.iter().map(|s| (s, 0)).chain([(&states[0], 1)]);
        for (state, ply) in cases {
            let cfg = SearchConfig { root_filter: super::super::Filter { min: 1, keep: 2, margin: 1.0 }, ..config(ply, 1) };
            let (share, value, _) = best_share(&ev, &cfg, met, &pos, &handover, state);
            let decision = cube_decision(&ev, &cfg, met, &share.position, state).decision;
            assert!((value - decision.best()).abs() < 1e-9, "{state:?} ply {ply}: {value} against {}", decision.best());
            if ply == 0 {
                // The cubeless choice is one of the same results: never better by this measure.
                let (plain, _) = super::super::best_share(&ev, &cfg, &pos, &handover);
                let plain_value = cube_decision(&ev, &cfg, met, &plain.position, state).decision.best();
                assert!(value >= plain_value - 1e-9, "{state:?}: {value} < {plain_value}");
            }
        }
    }
}
