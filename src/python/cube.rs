//! Python bindings of the cube layer: `CubeState` and `CubeDecision`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::cube::decision::CubeDecision;
use crate::cube::state::{CubeState, Owner};
use crate::eval::Evaluation;

use super::engine::PyEvaluation;
use super::PyPosition;

fn owner_name(owner: Owner) -> Option<&'static str> {
    match owner {
        Owner::Centered => None,
        o => Some(o.name()),
    }
}

/// A whole number from 0 to `max`, or a ValueError naming `what` (the
/// package's one check of whole-number arguments, with this field's bound).
fn count(obj: &Bound<'_, PyAny>, what: &str, max: u64) -> PyResult<u32> {
    let n: u32 = super::whole_arg(obj, what)?;
    if n as u64 > max {
        return Err(PyValueError::new_err(format!("{what} must be a whole number from 0 to {max}, not {n}")));
    }
    Ok(n)
}

/// The cube and the stakes, from the side of the player on roll.
#[pyclass(name = "CubeState", module = "tavla", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyCubeState {
    pub(crate) inner: CubeState,
}

#[pymethods]
impl PyCubeState {
    /// `CubeState(value=1, owner=None, match_length=0, score=(0, 0),
    /// crawford=False, jacoby=False, beaver=False, max_cube=64)`;
    /// owner is None (centered), "me" (the player on roll) or "opponent";
    /// score is (player on roll, opponent); match_length 0 is money.
    #[new]
    #[pyo3(signature = (value = None, owner = None, match_length = None, score = None, crawford = None, jacoby = None, beaver = None, max_cube = None),
           text_signature = "(value=1, owner=None, match_length=0, score=(0, 0), crawford=False, jacoby=False, beaver=False, max_cube=64)")]
    #[allow(clippy::too_many_arguments)] // one parameter per Python argument of CubeState()
    fn new(
        value: Option<&Bound<'_, PyAny>>,
        owner: Option<&Bound<'_, PyAny>>,
        match_length: Option<&Bound<'_, PyAny>>,
        score: Option<&Bound<'_, PyAny>>,
        crawford: Option<&Bound<'_, PyAny>>,
        jacoby: Option<&Bound<'_, PyAny>>,
        beaver: Option<&Bound<'_, PyAny>>,
        max_cube: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let big = crate::cube::state::MAX_CUBE as u64;
        let value = value.map(|v| count(v, "value", big)).transpose()?.unwrap_or(1);
        let max_value = max_cube.map(|v| count(v, "max_cube", big)).transpose()?.unwrap_or(64);
        let match_length = match_length.map(|v| count(v, "match_length", 64)).transpose()?.unwrap_or(0);
        let owner = match owner {
            None => Owner::Centered,
            Some(o) if o.is_none() => Owner::Centered,
            Some(o) => match o.extract::<String>().ok().as_deref() {
                Some("me") => Owner::Me,
                Some("opponent") => Owner::Opponent,
                Some("centered") => Owner::Centered,
                _ => return Err(PyValueError::new_err(format!("owner must be None, \"me\" or \"opponent\", not {}", o.repr()?))),
            },
        };
        let score = match score {
            None => [0, 0],
            Some(s) => {
                let bad = || PyValueError::new_err("score must be a pair (player on roll, opponent) of whole numbers >= 0");
                let items: Vec<Bound<'_, PyAny>> = if let Ok(t) = s.downcast::<PyTuple>() {
                    t.iter().collect()
                } else if let Ok(l) = s.downcast::<pyo3::types::PyList>() {
                    l.iter().collect()
                } else {
                    return Err(bad());
                };
                if items.len() != 2 {
                    return Err(bad());
                }
                [count(&items[0], "score[0] (player on roll)", 64)?, count(&items[1], "score[1] (opponent)", 64)?]
            }
        };
        let flag_or =
            |o: Option<&Bound<'_, PyAny>>, what: &str| o.map(|v| super::flag_arg(v, what)).transpose().map(|v| v.unwrap_or(false));
        let inner = CubeState::new(
            value,
            owner,
            match_length,
            score,
            flag_or(crawford, "crawford")?,
            flag_or(jacoby, "jacoby")?,
            flag_or(beaver, "beaver")?,
            max_value,
        )
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyCubeState { inner })
    }

    #[getter]
    fn value(&self) -> u32 {
        self.inner.value
    }
    /// None (centered), "me" or "opponent".
    #[getter]
    fn owner(&self) -> Option<&'static str> {
        owner_name(self.inner.owner)
    }
    #[getter]
    fn match_length(&self) -> u32 {
        self.inner.match_length
    }
    #[getter]
    fn score(&self) -> (u32, u32) {
        (self.inner.score[0], self.inner.score[1])
    }
    #[getter]
    fn crawford(&self) -> bool {
        self.inner.crawford
    }
    #[getter]
    fn jacoby(&self) -> bool {
        self.inner.jacoby
    }
    #[getter]
    fn beaver(&self) -> bool {
        self.inner.beaver
    }
    #[getter]
    fn max_cube(&self) -> u32 {
        self.inner.max_value
    }
    #[getter]
    fn is_money(&self) -> bool {
        self.inner.is_money()
    }
    #[getter]
    fn is_post_crawford(&self) -> bool {
        self.inner.is_post_crawford()
    }
    /// Whether the player on roll may (re)double now.
    #[getter]
    fn may_double(&self) -> bool {
        self.inner.may_double()
    }
    /// The same state seen from the opponent.
    fn flip(&self) -> PyCubeState {
        PyCubeState { inner: self.inner.flip() }
    }
    /// The state after the player on roll doubles and the opponent takes.
    fn doubled(&self) -> PyCubeState {
        PyCubeState { inner: self.inner.doubled() }
    }
    fn __repr__(&self) -> String {
        let s = &self.inner;
        let owner = owner_name(s.owner).map_or("None".to_string(), |o| format!("{o:?}"));
        format!(
            "CubeState(value={}, owner={owner}, match_length={}, score=({}, {}), crawford={}, jacoby={}, beaver={}, max_cube={})",
            s.value,
            s.match_length,
            s.score[0],
            s.score[1],
            py_bool(s.crawford),
            py_bool(s.jacoby),
            py_bool(s.beaver),
            s.max_value
        )
    }
    fn __str__(&self) -> String {
        self.inner.describe()
    }
    #[allow(clippy::type_complexity)] // the pickle tuple, spelled out
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (u32, Option<&'static str>, u32, (u32, u32), bool, bool, bool, u32))> {
        let s = &self.inner;
        let cls = py.get_type::<PyCubeState>().into_any();
        Ok((cls, (s.value, owner_name(s.owner), s.match_length, (s.score[0], s.score[1]), s.crawford, s.jacoby, s.beaver, s.max_value)))
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// The cube decision of the player on roll (before its roll).
#[pyclass(name = "CubeDecision", module = "tavla", frozen)]
pub struct PyCubeDecision {
    pub(crate) inner: CubeDecision,
    pub(crate) state: CubeState,
    pub(crate) evaluation: Evaluation,
    pub(crate) ply: u8,
    pub(crate) take_point: f64,
}

#[pymethods]
impl PyCubeDecision {
    /// The player on roll should (re)double now.
    #[getter]
    fn should_double(&self) -> bool {
        self.inner.should_double()
    }
    /// If doubled now, the opponent should take (or beaver).
    #[getter]
    fn should_take(&self) -> bool {
        self.inner.should_take()
    }
    /// Money play with beavers: the opponent's take should be a beaver.
    #[getter]
    fn should_beaver(&self) -> bool {
        self.inner.should_beaver(&self.state)
    }
    /// Equity of not doubling, normalized to the current cube.
    #[getter]
    fn no_double(&self) -> f64 {
        self.inner.no_double
    }
    #[getter]
    fn double_take(&self) -> f64 {
        self.inner.double_take
    }
    #[getter]
    fn double_pass(&self) -> f64 {
        self.inner.double_pass
    }
    /// The equity after the best cube action.
    #[getter]
    fn equity(&self) -> f64 {
        self.inner.best()
    }
    /// Match play: (no double, double/take, double/pass) as match winning chances; None in money play.
    #[getter]
    fn mwc(&self) -> Option<(f64, f64, f64)> {
        self.inner.mwc.map(|m| (m[0], m[1], m[2]))
    }
    /// "double, take", "no redouble, take", "too good, pass", ...
    #[getter]
    fn action(&self) -> String {
        self.inner.text()
    }
    /// The cubeless probabilities behind the decision.
    #[getter]
    fn evaluation(&self) -> PyEvaluation {
        PyEvaluation::from(self.evaluation)
    }
    #[getter]
    fn cube(&self) -> PyCubeState {
        PyCubeState { inner: self.state }
    }
    #[getter]
    fn ply(&self) -> u8 {
        self.ply
    }
    /// The opponent's take point: the least cubeless winning chance at
    /// which it should take now (0-ply model with this position's gammon
    /// rates and cube efficiency; compare with 1 - evaluation.win).
    #[getter]
    fn take_point(&self) -> f64 {
        self.take_point
    }
    fn __repr__(&self) -> String {
        let d = &self.inner;
        format!(
            "<CubeDecision {:?} no_double={:+.4} double_take={:+.4} double_pass={:+.4} ply={}>",
            d.text(),
            d.no_double,
            d.double_take,
            d.double_pass,
            self.ply
        )
    }
}

/// The 0-ply cube decision for given cubeless probabilities (win,
/// win_gammon, win_backgammon, lose_gammon, lose_backgammon) of `position`:
/// the formulas alone, with the position's cube efficiency and the variant's
/// match equity table. For comparisons with other engines.
#[pyfunction]
fn _cube_decision_from(position: &PyPosition, probabilities: (f32, f32, f32, f32, f32), cube: &PyCubeState) -> PyResult<PyCubeDecision> {
    let (a, b, c, d, e) = probabilities;
    let p = [a, b, c, d, e];
    if p.iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(PyValueError::new_err(format!("probabilities must lie in [0, 1], not {p:?}")));
    }
    let evaluation = Evaluation::new(p);
    let met = crate::cube::default_met(position.inner.variant());
    let decision = crate::search::cubeful::zero_ply_decision(&position.inner, &evaluation, &cube.inner, met);
    let take_point = crate::search::cubeful::take_point(&position.inner, &evaluation, &cube.inner, met);
    Ok(PyCubeDecision { inner: decision, state: cube.inner, evaluation, ply: 0, take_point })
}

/// The cube efficiency tavla's 0-ply formulas use for `position`.
#[pyfunction]
fn _cube_efficiency(position: &PyPosition) -> f64 {
    crate::cube::efficiency::efficiency(&position.inner)
}

/// Registers this file's classes in `tavla._core`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCubeState>()?;
    m.add_class::<PyCubeDecision>()?;
    m.add_function(wrap_pyfunction!(_cube_decision_from, m)?)?;
    m.add_function(wrap_pyfunction!(_cube_efficiency, m)?)?;
    Ok(())
}
