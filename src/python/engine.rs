//! Python bindings of the evaluation and search layer: `Engine`,
//! `Evaluation`, `Candidate`, and the private helpers of the strength
//! harness and the benchmark. Heavy calls release the GIL.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::cube::{PyCubeDecision, PyCubeState};
use super::{count_arg, rules_from_kwargs, threads_arg, whole_arg, whole_list, whole_pair, PyMove, PyPosition};
use crate::bench;
use crate::cube::{default_met, MatchEquityTable};
use crate::duel::{self, EnginePlayer, Player, RandomPlayer};
use crate::error::Error;
use crate::eval::{evaluator_by_name, game_result, Evaluation, Evaluator};
use crate::limits;
use crate::movegen::check_die;
use crate::search::{self, cubeful, Cancel, SearchConfig};
use crate::variant::{Rules, Variant};

fn value_error(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

pyo3::create_exception!(
    tavla,
    Cancelled,
    pyo3::exceptions::PyException,
    "A search stopped by its CancelToken (cancelled, or past its deadline) before it finished."
);

/// A way to stop an engine's searches early: `Engine.with_cancel(token)`
/// gives an engine whose searches stop at once (raising `Cancelled`) when
/// `token.cancel()` is called from any thread, or when `seconds` (where
/// given) have passed since the token was made.
#[pyclass(name = "CancelToken", module = "tavla", frozen)]
pub struct PyCancelToken {
    inner: Cancel,
}

#[pymethods]
impl PyCancelToken {
    #[new]
    #[pyo3(signature = (seconds = None))]
    fn new(seconds: Option<f64>) -> PyResult<Self> {
        let after = match seconds {
            None => None,
            Some(s) => Some(
                std::time::Duration::try_from_secs_f64(s)
                    .map_err(|_| PyValueError::new_err(format!("seconds must be a number of seconds >= 0, not {s}")))?,
            ),
        };
        Ok(PyCancelToken { inner: Cancel::new(after) })
    }

    /// Stops the searches of every engine made with this token (now, and
    /// any started later).
    fn cancel(&self) {
        self.inner.cancel();
    }

    /// Whether `cancel` was called or the deadline has passed.
    #[getter]
    fn cancelled(&self) -> bool {
        self.inner.is_cancelled()
    }

    fn __repr__(&self) -> String {
        format!("<CancelToken cancelled={}>", if self.inner.is_cancelled() { "True" } else { "False" })
    }
}

/// Cubeless probabilities for the player on roll (gammons include backgammons).
#[pyclass(name = "Evaluation", module = "tavla", frozen)]
#[derive(Clone)]
pub struct PyEvaluation {
    inner: Evaluation,
}

impl From<Evaluation> for PyEvaluation {
    fn from(inner: Evaluation) -> Self {
        PyEvaluation { inner }
    }
}

#[pymethods]
impl PyEvaluation {
    /// From the five probabilities (win, win_gammon, win_backgammon,
    /// lose_gammon, lose_backgammon), each in 0..1, for a script that has
    /// them from elsewhere (an oracle, a file) and wants the one equity.
    #[new]
    fn new(probabilities: &Bound<'_, PyAny>) -> PyResult<Self> {
        let p: Vec<f64> = probabilities.extract().map_err(|_| {
            PyValueError::new_err("an Evaluation takes five probabilities (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)")
        })?;
        if p.len() != 5 {
            return Err(PyValueError::new_err(format!("an Evaluation takes five probabilities, not {}", p.len())));
        }
        if let Some((k, v)) = p.iter().enumerate().find(|(_, v)| !(0.0..=1.0).contains(*v)) {
            return Err(PyValueError::new_err(format!("probability {k} is {v}, not between 0 and 1")));
        }
        Ok(PyEvaluation { inner: Evaluation::new(std::array::from_fn(|k| p[k] as f32)) })
    }
    /// The same evaluation from the other player's side.
    fn invert(&self) -> PyEvaluation {
        self.inner.invert().into()
    }
    #[getter]
    fn win(&self) -> f32 {
        self.inner.win
    }
    #[getter]
    fn win_gammon(&self) -> f32 {
        self.inner.win_gammon
    }
    #[getter]
    fn win_backgammon(&self) -> f32 {
        self.inner.win_backgammon
    }
    #[getter]
    fn lose_gammon(&self) -> f32 {
        self.inner.lose_gammon
    }
    #[getter]
    fn lose_backgammon(&self) -> f32 {
        self.inner.lose_backgammon
    }
    /// Cubeless equity: expected points per game for the player on roll.
    #[getter]
    fn equity(&self) -> f32 {
        self.inner.equity()
    }
    /// (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon).
    fn probabilities(&self) -> (f32, f32, f32, f32, f32) {
        let p = self.inner.to_array();
        (p[0], p[1], p[2], p[3], p[4])
    }
    fn __repr__(&self) -> String {
        let e = &self.inner;
        format!(
            "Evaluation(win={:.4}, win_gammon={:.4}, win_backgammon={:.4}, lose_gammon={:.4}, lose_backgammon={:.4}, equity={:+.4})",
            e.win,
            e.win_gammon,
            e.win_backgammon,
            e.lose_gammon,
            e.lose_backgammon,
            e.equity()
        )
    }
}

/// One play with its evaluation (from the mover's side, after the play).
#[pyclass(name = "Candidate", module = "tavla", frozen)]
pub struct PyCandidate {
    #[pyo3(get)]
    r#move: Py<PyMove>,
    #[pyo3(get)]
    evaluation: Py<PyEvaluation>,
    #[pyo3(get)]
    equity: f32,
    /// Equity behind the best play (0 for the best, negative otherwise).
    #[pyo3(get)]
    diff: f32,
    /// The ply this play was judged at (plays cut by the move filter: 0).
    #[pyo3(get)]
    ply: u8,
    /// Cubeful hints in match play: the mover's match winning chance after the play.
    #[pyo3(get)]
    mwc: Option<f64>,
    /// Whether `equity` is cubeful (a hint given a cube state).
    #[pyo3(get)]
    cubeful: bool,
}

#[pymethods]
impl PyCandidate {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!("<Candidate {} equity={:+.4} diff={:+.4} ply={}>", self.r#move.borrow(py).__str__(), self.equity, self.diff, self.ply)
    }
}

/// An evaluator with a search depth: the engine's analysis entry point.
#[pyclass(name = "Engine", module = "tavla", frozen)]
#[derive(Clone)]
pub struct PyEngine {
    evaluator: Arc<dyn Evaluator>,
    config: SearchConfig,
    rules: Rules,
    /// A match equity table loaded with `met=PATH`; else the variant's default.
    met: Option<Arc<MatchEquityTable>>,
}

/// Engine options (everything else passed to `Engine` is a rule option).
const ENGINE_OPTIONS: &[&str] = &[
    "evaluator",
    "met",
    "cascade_width",
    "threads",
    "bearoff",
    "filter_min",
    "filter_keep",
    "filter_margin",
    "inner_min",
    "inner_keep",
    "inner_margin",
    "prune",
    "prune_filter",
];

impl PyEngine {
    fn check_position(&self, pos: &PyPosition) -> PyResult<()> {
        if pos.inner.variant() != self.rules.variant {
            return Err(PyValueError::new_err(format!(
                "this engine plays {}, the position is {}",
                self.rules.variant.name(),
                pos.inner.variant().name()
            )));
        }
        Ok(())
    }

    /// Raises `Cancelled` when this engine's cancel token has stopped the
    /// search just run (or is set before one starts): its result means nothing.
    fn check_cancelled(&self) -> PyResult<()> {
        if self.config.cancel.is_cancelled() {
            return Err(Cancelled::new_err("the search was cancelled (its CancelToken was cancelled or ran past its deadline)"));
        }
        Ok(())
    }

    fn met(&self) -> &MatchEquityTable {
        self.met.as_deref().unwrap_or_else(|| default_met(self.rules.variant))
    }

    fn check_cube(&self, cube: &PyCubeState) -> PyResult<crate::cube::CubeState> {
        let state = cube.inner;
        if !state.is_money() && state.match_length as usize > crate::cube::met::MAX_SCORE {
            return Err(PyValueError::new_err("the match is longer than the match equity table"));
        }
        Ok(state)
    }

    /// Every play of d1-d2, best first: (move, evaluation, equity, ply, mwc).
    #[allow(clippy::type_complexity)] // the tuples Python receives, spelled out
    fn ranked(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
        cube: Option<&PyCubeState>,
        rolls: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<(PyMove, Evaluation, f64, u8, Option<f64>)>> {
        self.check_position(position)?;
        let (d1, d2) = dice(d1, d2)?;
        let rolls = rolls_made(rolls)?;
        let pos = position.inner;
        self.check_cancelled()?;
        let rows = match cube {
            None => py
                .allow_threads(|| search::analyze_at(self.evaluator.as_ref(), &self.config, &pos, d1, d2, rolls))
                .candidates
                .into_iter()
                .map(|c| (PyMove::with_cascade(c.play, c.cascade), c.evaluation, c.equity as f64, c.ply, None))
                .collect(),
            Some(cube) => {
                let state = self.check_cube(cube)?;
                let met = self.met();
                py.allow_threads(|| cubeful::analyze_cubeful_at(self.evaluator.as_ref(), &self.config, met, &pos, d1, d2, &state, rolls))
                    .candidates
                    .into_iter()
                    .map(|c| (PyMove::with_cascade(c.play, c.cascade), c.evaluation, c.equity, c.ply, c.mwc))
                    .collect()
            }
        };
        self.check_cancelled()?;
        Ok(rows)
    }

    /// The rollouts' cube decisions: the engine's table, the variant's efficiencies.
    fn policy(&self) -> crate::rollout::cubeful::CubePolicy<'_> {
        crate::rollout::cubeful::CubePolicy { met: self.met(), efficiencies: crate::cube::efficiency::Efficiencies::of(self.rules.variant) }
    }

    pub(crate) fn player(&self) -> EnginePlayer {
        EnginePlayer { evaluator: self.evaluator.clone(), config: SearchConfig { threads: 1, ..self.config.clone() } }
    }
}

/// A handover: a sequence of `(die, moves)` pairs, each number a whole number
/// (a ValueError naming `handover[k][j]` otherwise); the list's length and
/// values are checked by [`crate::cascade::check_handover`].
fn handover_pairs(handover: &Bound<'_, PyAny>) -> PyResult<Vec<(i64, i64)>> {
    let bad = || PyValueError::new_err(format!("handover must be a list of (die, moves) pairs, not {}", super::repr_of(handover)));
    if handover.is_instance_of::<pyo3::types::PyString>() {
        return Err(bad());
    }
    let mut pairs = Vec::new();
    for (k, item) in handover.try_iter().map_err(|_| bad())?.enumerate() {
        // A handover passes at most the six numbers (a 1-1 cascade stopped in its ones hands over
        // the rest of them and 2 to 6): one more is enough for the check to refuse.
        if pairs.len() > 6 {
            break;
        }
        pairs.push(whole_pair::<i64>(&item?, &format!("handover[{k}]"))?);
    }
    Ok(pairs)
}

/// The `rolls` argument: a whole number >= 0, or None for "past the first rolls".
fn rolls_made(rolls: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
    let rolls: Option<u64> = super::opt_whole_arg(rolls, "rolls (the rolls of the game already made)")?;
    Ok(rolls.map_or(crate::cascade::LATE, |n| n.min(crate::cascade::LATE as u64) as u32))
}

fn dice(d1: &Bound<'_, PyAny>, d2: &Bound<'_, PyAny>) -> PyResult<(u8, u8)> {
    let d1: i64 = super::whole_arg(d1, "d1")?;
    let d2: i64 = super::whole_arg(d2, "d2")?;
    Ok((check_die(d1).map_err(value_error)?, check_die(d2).map_err(value_error)?))
}

/// `top`: how many candidates a hint lists, at least 1 (default 5).
fn top_count(top: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let top: usize = super::opt_whole_arg(top, "top")?.unwrap_or(5);
    if top == 0 {
        return Err(PyValueError::new_err("top must be at least 1 (the number of candidates to list)"));
    }
    Ok(top)
}

#[pymethods]
impl PyEngine {
    /// `Engine(variant, ply=1, evaluator="network", threads=0, bearoff=True,
    /// filter_min=3, filter_keep=8, filter_margin=0.16, inner_min=1,
    /// inner_keep=2, inner_margin=0.04, prune=6, prune_filter=8, **rules)`.
    #[new]
    #[pyo3(signature = (variant = "backgammon", ply = None, **options), text_signature = "(variant='backgammon', ply=1, **options)")]
    fn new(py: Python<'_>, variant: &str, ply: Option<&Bound<'_, PyAny>>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let ply: i64 = super::opt_whole_arg(ply, "ply")?.unwrap_or(1);
        if !(0..=limits::MAX_PLY as i64).contains(&ply) {
            return Err(PyValueError::new_err(format!("ply must be 0 to {}, not {ply}", limits::MAX_PLY)));
        }
        let py_rules = PyDict::new(py);
        let mut config = SearchConfig { ply: ply as u8, ..SearchConfig::default() };
        let mut evaluator_name = "network".to_string();
        let mut met = None;
        if let Some(options) = options {
            for (key, value) in options.iter() {
                let name: String = key.extract()?;
                let bad = |what: &str| PyValueError::new_err(format!("engine option {name} must be {what}"));
                match name.as_str() {
                    "evaluator" => evaluator_name = value.extract().map_err(|_| bad("a name"))?,
                    "met" => {
                        let path: String = value.extract().map_err(|_| bad("the path of a match equity table (gnubg's XML format)"))?;
                        met = Some(Arc::new(MatchEquityTable::from_file(&path).map_err(value_error)?));
                    }
                    "threads" => config.threads = count_arg(&value, "engine option threads", 0, limits::MAX_THREADS as u64)? as usize,
                    "bearoff" => config.use_bearoff = value.extract().map_err(|_| bad("True or False"))?,
                    "filter_min" => config.root_filter.min = value.extract().map_err(|_| bad("a whole number >= 0"))?,
                    "inner_min" => config.inner_filter.min = value.extract().map_err(|_| bad("a whole number >= 0"))?,
                    "filter_keep" => config.root_filter.keep = value.extract().map_err(|_| bad("a whole number >= 1"))?,
                    "filter_margin" => config.root_filter.margin = value.extract().map_err(|_| bad("a number"))?,
                    "inner_keep" => config.inner_filter.keep = value.extract().map_err(|_| bad("a whole number >= 1"))?,
                    "inner_margin" => config.inner_filter.margin = value.extract().map_err(|_| bad("a number"))?,
                    "cascade_width" => config.cascade_width = value.extract().map_err(|_| bad("a whole number >= 1"))?,
                    "prune" => config.prune = value.extract().map_err(|_| bad("a whole number >= 0"))?,
                    "prune_filter" => config.prune_filter = value.extract().map_err(|_| bad("a whole number >= 0"))?,
                    _ => py_rules.set_item(key, value)?,
                }
            }
        }
        for f in [config.root_filter, config.inner_filter] {
            if f.keep == 0 || f.margin.is_nan() || f.margin < 0.0 {
                return Err(PyValueError::new_err(format!(
                    "a move filter keeps at least 1 play within a margin >= 0, not {} within {}",
                    f.keep, f.margin
                )));
            }
        }
        if config.cascade_width == 0 {
            // The search would widen it to 1 without a word: as refused as -1 is.
            return Err(PyValueError::new_err("engine option cascade_width must be a whole number >= 1, not 0"));
        }
        let rules = rules_from_kwargs(variant, Some(&py_rules)).map_err(|e| {
            // The rule error's own message, without its type name in front.
            PyValueError::new_err(format!("{} (engine options are {})", e.value(py), ENGINE_OPTIONS.join(", ")))
        })?;
        let evaluator: Arc<dyn Evaluator> = Arc::from(evaluator_by_name(&evaluator_name, rules.variant).map_err(value_error)?);
        Ok(PyEngine { evaluator, config, rules, met })
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.rules.variant.name()
    }
    #[getter]
    fn ply(&self) -> u8 {
        self.config.ply
    }
    #[getter]
    fn evaluator(&self) -> String {
        self.evaluator.name()
    }

    /// The position's cubeless probabilities for the player on roll, at the engine's ply.
    fn evaluate(&self, py: Python<'_>, position: &PyPosition) -> PyResult<PyEvaluation> {
        self.check_position(position)?;
        let pos = position.inner;
        self.check_cancelled()?;
        let (e, _) = py.allow_threads(|| search::evaluate(self.evaluator.as_ref(), &self.config, &pos));
        self.check_cancelled()?;
        Ok(PyEvaluation { inner: e })
    }

    /// The best `top` plays of d1-d2, best first; with `cube` (a
    /// `CubeState`) ranked by cubeful equity (money: normalized to the cube;
    /// match: from the match winning chance, also given as `mwc`). `rolls`:
    /// the rolls of the game already made (gul bara: a double after the
    /// first `cascade_after_rolls` rolls cascades, and each candidate is then
    /// a whole part of the cascade, with its `handover`); by default past
    /// them.
    #[pyo3(signature = (position, d1, d2, top = None, cube = None, rolls = None),
           text_signature = "($self, position, d1, d2, top=5, cube=None, rolls=None)")]
    #[allow(clippy::too_many_arguments)] // one parameter per Python argument of Engine.hint
    fn hint(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
        top: Option<&Bound<'_, PyAny>>,
        cube: Option<&PyCubeState>,
        rolls: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyCandidate>> {
        let top = top_count(top)?;
        let rows = self.ranked(py, position, d1, d2, cube, rolls)?;
        // Never empty: every roll has a play (an empty one when nothing can be played, movegen's
        // legal_moves), and the search ranks every play of the roll.
        let best = rows[0].2;
        rows.into_iter()
            .take(top.max(1))
            .map(|(play, evaluation, equity, ply, mwc)| {
                Ok(PyCandidate {
                    r#move: Py::new(py, play)?,
                    evaluation: Py::new(py, PyEvaluation { inner: evaluation })?,
                    equity: equity as f32,
                    diff: (equity - best) as f32,
                    ply,
                    mwc,
                    cubeful: cube.is_some(),
                })
            })
            .collect()
    }

    /// The best play of d1-d2 (cubeful with `cube`; `rolls` as for `hint`).
    #[pyo3(signature = (position, d1, d2, cube = None, rolls = None))]
    fn best_move(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
        cube: Option<&PyCubeState>,
        rolls: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMove> {
        // Never empty: as in hint.
        Ok(self.ranked(py, position, d1, d2, cube, rolls)?.swap_remove(0).0)
    }

    /// The opponent's best play of a cascade's handover: `position` is seen
    /// from the player who plays the share (the opponent of the cascade's
    /// mover, who rolls its own turn after it), `handover` the `(die,
    /// moves)` list a hint's `move.handover` gives. The share is chosen by
    /// the engine's evaluation (at its ply) of the position after it, where
    /// that player rolls next: cubeless, or with `cube` (that player's
    /// `CubeState`) by its cubeful value there, its option to double
    /// included (what `cube_decision(after, cube).equity` gives).
    #[pyo3(signature = (position, handover, cube = None))]
    fn handover(&self, py: Python<'_>, position: &PyPosition, handover: &Bound<'_, PyAny>, cube: Option<&PyCubeState>) -> PyResult<PyMove> {
        self.check_position(position)?;
        if position.inner.variant() != Variant::GulBara {
            return Err(PyValueError::new_err("a handover belongs to a gul bara cascade"));
        }
        let handover = handover_pairs(handover)?;
        let handover = crate::cascade::check_handover(&handover).map_err(value_error)?;
        let state = cube.map(|c| self.check_cube(c)).transpose()?;
        let pos = position.inner;
        let met = self.met();
        self.check_cancelled()?;
        let share = py.allow_threads(|| match state {
            None => search::best_share(self.evaluator.as_ref(), &self.config, &pos, &handover).0,
            Some(state) => cubeful::best_share(self.evaluator.as_ref(), &self.config, met, &pos, &handover, &state).0,
        });
        self.check_cancelled()?;
        let steps = share.steps.clone();
        let last = steps.last().copied().unwrap_or(crate::movegen::Move::new(pos, Default::default(), 0));
        let numbers: Vec<u8> = handover.iter().take(steps.len()).map(|&(d, _)| d).collect();
        let part = crate::cascade::CascadePart { position: share.position, steps, numbers, handover: Vec::new() };
        Ok(PyMove::with_cascade(crate::movegen::Move { position: share.position, ..last }, Some(Arc::new(part))))
    }

    /// The cube decision of the player on roll of `position`, before its
    /// roll, under `cube` (a `CubeState`), at the engine's ply. `rolls`: the
    /// rolls of the game already made, as for `hint` (gul bara: above 0-ply
    /// the searched rolls' doubles are ordinary doubles in the game's first
    /// `cascade_after_rolls` rolls, cascades after them); by default past
    /// them.
    #[pyo3(signature = (position, cube, rolls = None))]
    fn cube_decision(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        cube: &PyCubeState,
        rolls: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyCubeDecision> {
        self.check_position(position)?;
        if position.inner.is_game_over() {
            return Err(PyValueError::new_err("the game is over: there is no cube decision"));
        }
        let state = self.check_cube(cube)?;
        let rolls = rolls_made(rolls)?;
        let pos = position.inner;
        let met = self.met();
        self.check_cancelled()?;
        let analysis = py.allow_threads(|| cubeful::cube_decision_at(self.evaluator.as_ref(), &self.config, met, &pos, &state, rolls));
        self.check_cancelled()?;
        let take_point = cubeful::take_point(&pos, &analysis.evaluation, &state, met);
        Ok(PyCubeDecision { inner: analysis.decision, state, evaluation: analysis.evaluation, ply: self.config.ply, take_point })
    }

    /// The match equity table's name (used in match play).
    #[getter]
    fn met_name(&self) -> String {
        self.met().name().to_string()
    }

    /// The table's match winning chance for the player needing `away`
    /// points against one needing `opponent_away` (`post_crawford`: after
    /// the Crawford game).
    #[pyo3(signature = (away, opponent_away, post_crawford = false))]
    fn match_equity(&self, away: &Bound<'_, PyAny>, opponent_away: &Bound<'_, PyAny>, post_crawford: bool) -> PyResult<f64> {
        let away: i64 = super::whole_arg(away, "away")?;
        let opponent_away: i64 = super::whole_arg(opponent_away, "opponent_away")?;
        for (what, a) in [("away", away), ("opponent_away", opponent_away)] {
            if !(1..=64).contains(&a) {
                return Err(PyValueError::new_err(format!("{what} must be 1 to 64, not {a}")));
            }
        }
        Ok(self.met().mwc(away as i32, opponent_away as i32, post_crawford))
    }

    /// Rolls `position` out (the player on roll, before its roll): `trials`
    /// games (at most 1,000,000) played to the end by the engine's evaluator
    /// at checker `ply` (0 to 2), dice from `seed`, the first roll stratified
    /// over the 36 (`stratify_second`: the second too). `cube` (a
    /// `CubeState`): cubeful too, each side's cube decisions by the 0-ply
    /// cube model fed the evaluator's probabilities at `cube_ply` (0 to 2,
    /// apart from the checker `ply`). `variance_reduction`: each roll's luck subtracted.
    /// `truncate`: score a trial by the evaluator after that many rolls;
    /// `stop_at_bearoff`: by the bear-off tables once they cover it.
    /// `target_error`: stop once the equity's standard error is at most this
    /// (checked every 144 trials, after `min_trials`). `progress(done,
    /// trials, equity)` is called after each batch (False stops). The same
    /// answer on any number of `threads` (default: the engine's). An engine
    /// made `with_cancel` stops within the trial it plays once its token is
    /// cancelled, raising `Cancelled`.
    #[pyo3(signature = (position, trials = None, seed = None, *, threads = None, cube = None, variance_reduction = None,
                        stratify_second = None, truncate = None, stop_at_bearoff = None, ply = None, min_trials = None,
                        target_error = None, rolls = None, progress = None, cube_ply = None),
           text_signature = "($self, position, trials=1296, seed=0, *, threads=None, cube=None, variance_reduction=False, stratify_second=False, truncate=None, stop_at_bearoff=False, ply=0, min_trials=0, target_error=None, rolls=None, progress=None, cube_ply=0)")]
    #[allow(clippy::too_many_arguments)] // one parameter per Python argument
    fn rollout(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        trials: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        cube: Option<&PyCubeState>,
        variance_reduction: Option<&Bound<'_, PyAny>>,
        stratify_second: Option<&Bound<'_, PyAny>>,
        truncate: Option<&Bound<'_, PyAny>>,
        stop_at_bearoff: Option<&Bound<'_, PyAny>>,
        ply: Option<&Bound<'_, PyAny>>,
        min_trials: Option<&Bound<'_, PyAny>>,
        target_error: Option<&Bound<'_, PyAny>>,
        rolls: Option<&Bound<'_, PyAny>>,
        progress: Option<&Bound<'_, PyAny>>,
        cube_ply: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<super::rollout::PyRolloutResult> {
        self.check_position(position)?;
        if let Some(c) = cube {
            self.check_cube(c)?;
        }
        let keywords = super::rollout::Keywords {
            trials,
            seed,
            threads,
            cube,
            variance_reduction,
            stratify_second,
            truncate,
            stop_at_bearoff,
            ply,
            cube_ply,
            min_trials,
            target_error,
            rolls,
        };
        let settings = keywords.settings(self.config.threads)?;
        let pos = position.inner;
        let policy = self.policy();
        let r = super::rollout::with_progress(py, progress, |report| {
            crate::rollout::analysis::rollout_position(self.evaluator.as_ref(), &self.config, &policy, &pos, &settings, report)
        })?;
        let r = r.map_err(value_error)?;
        self.check_cancelled()?; // the engine's cancel token stopped it: what was played comes back as an error
        Ok(super::rollout::result(r))
    }

    /// The best `top` plays (1 to 32) of `dice` (a pair), by the engine's
    /// search, each rolled out from the position after it on common dice
    /// (every candidate's trial t has the same dice); best first by rollout
    /// equity (cubeful given a cube), from the mover's side. The settings
    /// are `rollout`'s; with `target_error` all candidates stop together.
    #[pyo3(signature = (position, dice, top = None, trials = None, seed = None, *, threads = None, cube = None,
                        variance_reduction = None, stratify_second = None, truncate = None, stop_at_bearoff = None, ply = None,
                        min_trials = None, target_error = None, rolls = None, progress = None, cube_ply = None),
           text_signature = "($self, position, dice, top=5, trials=1296, seed=0, *, threads=None, cube=None, variance_reduction=False, stratify_second=False, truncate=None, stop_at_bearoff=False, ply=0, min_trials=0, target_error=None, rolls=None, progress=None, cube_ply=0)")]
    #[allow(clippy::too_many_arguments)] // one parameter per Python argument
    fn rollout_plays(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        dice: &Bound<'_, PyAny>,
        top: Option<&Bound<'_, PyAny>>,
        trials: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        cube: Option<&PyCubeState>,
        variance_reduction: Option<&Bound<'_, PyAny>>,
        stratify_second: Option<&Bound<'_, PyAny>>,
        truncate: Option<&Bound<'_, PyAny>>,
        stop_at_bearoff: Option<&Bound<'_, PyAny>>,
        ply: Option<&Bound<'_, PyAny>>,
        min_trials: Option<&Bound<'_, PyAny>>,
        target_error: Option<&Bound<'_, PyAny>>,
        rolls: Option<&Bound<'_, PyAny>>,
        progress: Option<&Bound<'_, PyAny>>,
        cube_ply: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<super::rollout::PyPlayRollout>> {
        self.check_position(position)?;
        if let Some(c) = cube {
            self.check_cube(c)?;
        }
        let (d1, d2): (i64, i64) = super::whole_pair(dice, "dice")?;
        let dice = [check_die(d1).map_err(value_error)?, check_die(d2).map_err(value_error)?];
        let top: u64 = super::opt_whole_arg(top, "top")?.unwrap_or(5);
        let max = crate::rollout::analysis::MAX_PLAYS;
        if top == 0 || top > max as u64 {
            return Err(PyValueError::new_err(format!("top must be 1 to {max}, not {top}")));
        }
        let keywords = super::rollout::Keywords {
            trials,
            seed,
            threads,
            cube,
            variance_reduction,
            stratify_second,
            truncate,
            stop_at_bearoff,
            ply,
            cube_ply,
            min_trials,
            target_error,
            rolls,
        };
        let settings = keywords.settings(self.config.threads)?;
        let pos = position.inner;
        let policy = self.policy();
        let plays = super::rollout::with_progress(py, progress, |report| {
            crate::rollout::analysis::rollout_plays(
                self.evaluator.as_ref(),
                &self.config,
                &policy,
                &pos,
                dice,
                top as usize,
                &settings,
                report,
            )
        })?;
        let plays = plays.map_err(value_error)?;
        self.check_cancelled()?;
        super::rollout::play_rollouts(py, plays)
    }

    /// (best play, nodes searched): for benchmarks.
    fn _best_move_nodes(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
    ) -> PyResult<(PyMove, u64)> {
        self.check_position(position)?;
        let (d1, d2) = dice(d1, d2)?;
        let pos = position.inner;
        self.check_cancelled()?;
        let r = py.allow_threads(|| search::analyze(self.evaluator.as_ref(), &self.config, &pos, d1, d2));
        self.check_cancelled()?;
        // Never empty: as in hint.
        Ok((PyMove::from(r.candidates[0].play), r.nodes))
    }

    /// This engine with `token` (a `CancelToken`): the same evaluator,
    /// depth, options and table, and searches that stop at once, raising
    /// `Cancelled`, when the token is cancelled or past its deadline. Cheap
    /// (nothing is copied but settings): one a call is fine.
    fn with_cancel(&self, token: &PyCancelToken) -> PyEngine {
        let mut engine = self.clone();
        engine.config.cancel = token.inner.clone();
        engine
    }

    fn __repr__(&self) -> String {
        format!("Engine({:?}, ply={}, evaluator={:?})", self.rules.variant.name(), self.config.ply, self.evaluator.name())
    }
}

/// `None` while the game goes on, else (the player on roll won, points 1..3).
#[pyfunction]
fn _game_result(position: &PyPosition) -> Option<(bool, u8)> {
    game_result(&position.inner)
}

/// Pubeval's score of a position for its mover, as if it had just moved.
#[pyfunction]
#[pyo3(signature = (position, race = None))]
fn _pubeval_score(position: &PyPosition, race: Option<bool>) -> PyResult<f32> {
    if position.inner.variant() != Variant::Backgammon {
        return Err(PyValueError::new_err("pubeval scores backgammon positions only"));
    }
    let race = race.unwrap_or_else(|| position.inner.is_race());
    Ok(crate::eval::pubeval::pubeval_score_with(&position.inner, race))
}

fn player_of(obj: &Bound<'_, PyAny>, variant: Variant) -> PyResult<Box<dyn Player>> {
    if let Ok(engine) = obj.downcast::<PyEngine>() {
        let engine = engine.get();
        if engine.rules.variant != variant {
            return Err(PyValueError::new_err(format!("an engine for {} cannot play {}", engine.rules.variant.name(), variant.name())));
        }
        return Ok(Box::new(engine.player()));
    }
    match obj.extract::<String>().ok().as_deref() {
        Some("random") => Ok(Box::new(RandomPlayer)),
        _ => Err(PyValueError::new_err(format!("a duel player is an Engine or \"random\", not {}", obj.repr()?))),
    }
}

/// Duplicate games between two players (Engine or "random"), on `threads`
/// threads: one tuple per game (points for player 0, starter seat,
/// decisions 0, decisions 1, seconds 0, seconds 1).
#[pyfunction]
#[pyo3(signature = (variant, player0, player1, first_pair, pairs, seed = None, threads = None, **rules),
       text_signature = "(variant, player0, player1, first_pair, pairs, seed=0, threads=0, **rules)")]
#[allow(clippy::too_many_arguments, clippy::type_complexity)] // one parameter per Python argument; the returned tuples are what Python receives
fn _duel(
    py: Python<'_>,
    variant: &str,
    player0: &Bound<'_, PyAny>,
    player1: &Bound<'_, PyAny>,
    first_pair: &Bound<'_, PyAny>,
    pairs: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(i8, u8, u32, u32, f64, f64)>> {
    let first_pair: u64 = whole_arg(first_pair, "first_pair")?;
    // Two games a pair; the records of all of them are returned at once.
    let pairs = count_arg(pairs, "pairs", 0, limits::MAX_GAMES / 2)? as usize;
    let seed: u64 = super::opt_whole_arg(seed, "seed")?.unwrap_or(0);
    let threads = threads_arg(threads, 0)?;
    let rules = rules_from_kwargs(variant, rules)?;
    let a = player_of(player0, rules.variant)?;
    let b = player_of(player1, rules.variant)?;
    let records = py.allow_threads(|| duel::duel(rules, [a.as_ref(), b.as_ref()], first_pair, pairs, seed, threads));
    Ok(records.iter().map(|r| (r.points, r.starter, r.decisions[0], r.decisions[1], r.seconds[0], r.seconds[1])).collect())
}

/// The benchmark: (variant, position, dice, ply, nodes, seconds, best play) per search.
#[pyfunction]
#[pyo3(signature = (variants, plies, threads = None, evaluator = "heuristic"), text_signature = "(variants, plies, threads=0, evaluator='heuristic')")]
#[allow(clippy::type_complexity)] // the tuples Python receives, spelled out
fn _bench(
    py: Python<'_>,
    variants: Vec<String>,
    plies: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    evaluator: &str,
) -> PyResult<Vec<(String, usize, (u8, u8), u8, u64, f64, String)>> {
    let variants: Vec<Variant> = variants.iter().map(|v| Variant::parse(v)).collect::<Result<_, _>>().map_err(value_error)?;
    // Plies: at most one run per ply (0..=MAX_PLY), repeats included.
    let plies: Vec<u8> = whole_list(plies, "plies", 16)?
        .into_iter()
        .map(|p| limits::check("ply", p.into(), 0, limits::MAX_PLY).map(|p| p as u8))
        .collect::<Result<_, _>>()
        .map_err(value_error)?;
    if plies.len() > 16 {
        return Err(PyValueError::new_err("plies lists at most 16 searches"));
    }
    let threads = threads_arg(threads, 0)?;
    for &v in &variants {
        evaluator_by_name(evaluator, v).map_err(value_error)?;
    }
    let rows = py.allow_threads(|| bench::run_bench_named(&variants, &plies, threads, evaluator)).map_err(value_error)?;
    Ok(rows.into_iter().map(|r| (r.variant.name().to_string(), r.position, r.dice, r.ply, r.nodes, r.seconds, r.best)).collect())
}

/// Static evaluations per second of an evaluator on one thread (see `bench::eval_rate`).
#[pyfunction]
#[pyo3(signature = (variant, evaluator = "heuristic", seconds = 1.0))]
fn _eval_rate(py: Python<'_>, variant: &str, evaluator: &str, seconds: f64) -> PyResult<f64> {
    if !(0.0..=limits::MAX_BENCH_SECONDS).contains(&seconds) {
        return Err(PyValueError::new_err(format!("seconds must be 0 to {}, not {seconds}", limits::MAX_BENCH_SECONDS)));
    }
    let variant = Variant::parse(variant).map_err(value_error)?;
    let ev = evaluator_by_name(evaluator, variant).map_err(value_error)?;
    Ok(py.allow_threads(|| bench::eval_rate(ev.as_ref(), variant, seconds)))
}

/// Builds (first call) the bear-off tables of a variant's rules and returns
/// (seconds it took, the rolls-to-finish distribution of `home`, its mean):
/// `home` is 6 counts for the points 1..6, at most 15 checkers.
#[pyfunction]
#[pyo3(signature = (variant, home, **rules))]
fn _bearoff_info(
    py: Python<'_>,
    variant: &str,
    home: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<(f64, Vec<f32>, f64)> {
    let rules = rules_from_kwargs(variant, rules)?;
    let home = whole_list(home, "home", 6)?;
    let rule = crate::bearoff::BearoffRule::for_rules(&rules)
        .ok_or_else(|| PyValueError::new_err("gul bara with exact_bearoff has no bear-off table"))?;
    if home.len() != 6 || home.iter().any(|&n| !(0..=15).contains(&n)) || home.iter().sum::<i64>() > 15 {
        return Err(PyValueError::new_err(format!("home must be 6 counts (points 1..6) of at most 15 checkers in all, not {home:?}")));
    }
    let mut h = [0u8; 6];
    for (k, &n) in home.iter().enumerate() {
        h[k] = n as u8;
    }
    let t = std::time::Instant::now();
    let tables = py.allow_threads(|| crate::bearoff::tables(rule));
    let seconds = t.elapsed().as_secs_f64();
    let d = tables.one_sided.rolls_to_finish(&h);
    // A Distribution is a fixed, non-empty array: last is one of its indices.
    let last = d.iter().rposition(|&p| p > 0.0).unwrap_or(0);
    Ok((seconds, d[..=last].to_vec(), tables.one_sided.expected_rolls(&h)))
}

/// Registers this file's classes and functions in `tavla._core`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEngine>()?;
    m.add_class::<PyEvaluation>()?;
    m.add_class::<PyCandidate>()?;
    m.add_class::<PyCancelToken>()?;
    m.add("Cancelled", m.py().get_type::<Cancelled>())?;
    m.add_function(wrap_pyfunction!(_game_result, m)?)?;
    m.add_function(wrap_pyfunction!(_pubeval_score, m)?)?;
    m.add_function(wrap_pyfunction!(_duel, m)?)?;
    m.add_function(wrap_pyfunction!(_bench, m)?)?;
    m.add_function(wrap_pyfunction!(_eval_rate, m)?)?;
    m.add_function(wrap_pyfunction!(_bearoff_info, m)?)?;
    Ok(())
}
