//! `Engine.rollout` and `Engine.rollout_plays`: the settings read from
//! Python's keywords (each bad one a ValueError naming it), the rollout run
//! with the GIL released (taken back only to call a progress callback), and
//! the results as `RolloutResult` and `PlayRollout`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::cube::PyCubeState;
use super::PyMove;
use crate::rollout::analysis::{self, Estimate, Rollout, RolloutProgress, RolloutSettings, MAX_TRIALS};

/// The most threads a call may ask for (tavla.MAX_THREADS).
const MAX_THREADS: u32 = 1024;

/// What a rollout came to, for the player on roll (for a play: the mover, after it).
#[pyclass(name = "RolloutResult", module = "tavla", frozen)]
#[derive(Clone)]
pub struct PyRolloutResult {
    inner: Rollout,
}

fn interval(e: &Estimate) -> (f64, f64) {
    e.interval()
}

#[pymethods]
impl PyRolloutResult {
    #[getter]
    fn win(&self) -> f64 {
        self.inner.probabilities[0]
    }
    #[getter]
    fn win_gammon(&self) -> f64 {
        self.inner.probabilities[1]
    }
    #[getter]
    fn win_backgammon(&self) -> f64 {
        self.inner.probabilities[2]
    }
    #[getter]
    fn lose_gammon(&self) -> f64 {
        self.inner.probabilities[3]
    }
    #[getter]
    fn lose_backgammon(&self) -> f64 {
        self.inner.probabilities[4]
    }
    /// (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon).
    fn probabilities(&self) -> (f64, f64, f64, f64, f64) {
        let p = self.inner.probabilities;
        (p[0], p[1], p[2], p[3], p[4])
    }
    /// The standard errors of the five probabilities.
    fn probability_errors(&self) -> (f64, f64, f64, f64, f64) {
        let p = self.inner.probability_errors;
        (p[0], p[1], p[2], p[3], p[4])
    }
    /// Cubeless equity: mean points per game.
    #[getter]
    fn equity(&self) -> f64 {
        self.inner.cubeless.mean
    }
    /// The cubeless equity's standard error.
    #[getter]
    fn equity_error(&self) -> f64 {
        self.inner.cubeless.error
    }
    /// The cubeless equity's 95% interval (equity +- 1.96 standard errors).
    #[getter]
    fn interval(&self) -> (f64, f64) {
        interval(&self.inner.cubeless)
    }
    /// Cubeful equity per starting cube (a rollout given a cube), else None.
    #[getter]
    fn cubeful_equity(&self) -> Option<f64> {
        self.inner.cubeful.map(|e| e.mean)
    }
    #[getter]
    fn cubeful_error(&self) -> Option<f64> {
        self.inner.cubeful.map(|e| e.error)
    }
    #[getter]
    fn cubeful_interval(&self) -> Option<(f64, f64)> {
        self.inner.cubeful.as_ref().map(interval)
    }
    /// Trials played (fewer than asked when the stopping rule or the progress callback stopped it).
    #[getter]
    fn trials(&self) -> usize {
        self.inner.trials
    }
    /// The progress callback stopped the rollout.
    #[getter]
    fn cancelled(&self) -> bool {
        self.inner.cancelled
    }
    /// Everything as a dict of plain numbers (for JSON).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let names = ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"];
        let probabilities = PyDict::new(py);
        let errors = PyDict::new(py);
        for (k, name) in names.iter().enumerate() {
            probabilities.set_item(*name, self.inner.probabilities[k])?;
            errors.set_item(*name, self.inner.probability_errors[k])?;
        }
        d.set_item("probabilities", probabilities)?;
        d.set_item("probability_errors", errors)?;
        d.set_item("equity", self.inner.cubeless.mean)?;
        d.set_item("equity_error", self.inner.cubeless.error)?;
        d.set_item("interval", interval(&self.inner.cubeless))?;
        d.set_item("cubeful_equity", self.cubeful_equity())?;
        d.set_item("cubeful_error", self.cubeful_error())?;
        d.set_item("cubeful_interval", self.cubeful_interval())?;
        d.set_item("trials", self.inner.trials)?;
        d.set_item("cancelled", self.inner.cancelled)?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        let e = &self.inner.cubeless;
        let cubeful = self.inner.cubeful.map_or(String::new(), |c| format!(", cubeful_equity={:+.4} +- {:.4}", c.mean, c.error));
        format!("<RolloutResult equity={:+.4} +- {:.4}{cubeful}, trials={}>", e.mean, e.error, self.inner.trials)
    }
}

/// A candidate play and its rollout.
#[pyclass(name = "PlayRollout", module = "tavla", frozen)]
pub struct PyPlayRollout {
    #[pyo3(get)]
    r#move: Py<PyMove>,
    #[pyo3(get)]
    rollout: Py<PyRolloutResult>,
    /// The rollout equity the plays are ranked by: cubeful given a cube, else cubeless.
    #[pyo3(get)]
    equity: f64,
    /// Behind the best play (0 for the best, negative otherwise).
    #[pyo3(get)]
    diff: f64,
}

#[pymethods]
impl PyPlayRollout {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!("<PlayRollout {} equity={:+.4} diff={:+.4}>", self.r#move.borrow(py).__str__(), self.equity, self.diff)
    }
}

fn bool_arg(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<bool> {
    match obj {
        None => Ok(false),
        Some(o) if o.is_none() => Ok(false),
        Some(o) => super::flag_arg(o, what),
    }
}

/// The rollout keywords of `Engine.rollout` and `Engine.rollout_plays`.
pub(crate) struct Keywords<'a, 'py> {
    pub trials: Option<&'a Bound<'py, PyAny>>,
    pub seed: Option<&'a Bound<'py, PyAny>>,
    pub threads: Option<&'a Bound<'py, PyAny>>,
    pub cube: Option<&'a PyCubeState>,
    pub variance_reduction: Option<&'a Bound<'py, PyAny>>,
    pub stratify_second: Option<&'a Bound<'py, PyAny>>,
    pub truncate: Option<&'a Bound<'py, PyAny>>,
    pub stop_at_bearoff: Option<&'a Bound<'py, PyAny>>,
    pub ply: Option<&'a Bound<'py, PyAny>>,
    pub cube_ply: Option<&'a Bound<'py, PyAny>>,
    pub min_trials: Option<&'a Bound<'py, PyAny>>,
    pub target_error: Option<&'a Bound<'py, PyAny>>,
    pub rolls: Option<&'a Bound<'py, PyAny>>,
}

impl Keywords<'_, '_> {
    /// The checked settings; `engine_threads` is the engine's own count (0: all cores).
    pub(crate) fn settings(&self, engine_threads: usize) -> PyResult<RolloutSettings> {
        let trials: u64 = super::opt_whole_arg(self.trials, "trials")?.unwrap_or(1296);
        if trials == 0 || trials > MAX_TRIALS as u64 {
            return Err(PyValueError::new_err(format!("trials must be 1 to {MAX_TRIALS}, not {trials}")));
        }
        let threads: Option<u32> = super::opt_whole_arg(self.threads, "threads")?;
        if let Some(t) = threads.filter(|&t| t > MAX_THREADS) {
            return Err(PyValueError::new_err(format!("threads must be 0 (all cores) to {MAX_THREADS}, not {t}")));
        }
        let ply: u8 = super::opt_whole_arg(self.ply, "ply")?.unwrap_or(0);
        let cube_ply: u8 = super::opt_whole_arg(self.cube_ply, "cube_ply")?.unwrap_or(0);
        let truncate: Option<u32> = super::opt_whole_arg(self.truncate, "truncate")?;
        let min_trials: u64 = super::opt_whole_arg(self.min_trials, "min_trials")?.unwrap_or(0);
        let target_error = match self.target_error {
            Some(o) if !o.is_none() => Some(
                o.extract::<f64>()
                    .map_err(|_| PyValueError::new_err(format!("target_error must be a number above 0, not {}", super::repr_of(o))))?,
            ),
            _ => None,
        };
        let rolls_before = match self.rolls {
            Some(o) if !o.is_none() => {
                let n: u64 = super::whole_arg(o, "rolls (the rolls of the game already made)")?;
                n.min(crate::cascade::LATE as u64) as u32
            }
            _ => crate::cascade::LATE,
        };
        let settings = RolloutSettings {
            trials: trials as usize,
            seed: super::opt_whole_arg(self.seed, "seed")?.unwrap_or(0),
            threads: crate::threads_or_all_cores(threads.map_or(engine_threads, |t| t as usize)),
            checker_ply: ply,
            cube_ply,
            variance_reduction: bool_arg(self.variance_reduction, "variance_reduction")?,
            stratify_second: bool_arg(self.stratify_second, "stratify_second")?,
            truncate,
            stop_at_bearoff: bool_arg(self.stop_at_bearoff, "stop_at_bearoff")?,
            cube: self.cube.map(|c| c.inner),
            min_trials: min_trials.min(usize::MAX as u64) as usize,
            target_error,
            rolls_before,
        };
        settings.check().map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(settings)
    }
}

/// Runs `work` with the GIL released, handing it a progress function that
/// calls `callback(trials_done, trials, equity)` with the GIL (a falsy
/// answer other than None stops the rollout; an exception stops it and is raised).
pub(crate) fn with_progress<T: Send>(
    py: Python<'_>,
    callback: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(Option<analysis::ProgressFn>) -> T + Send,
) -> PyResult<T> {
    let callback: Option<Py<PyAny>> = match callback {
        Some(c) if !c.is_none() => {
            if !c.is_callable() {
                return Err(PyValueError::new_err(format!("progress must be a callable or None, not {}", super::repr_of(c))));
            }
            Some(c.clone().unbind())
        }
        _ => None,
    };
    let mut raised: Option<PyErr> = None;
    let out = py.allow_threads(|| match &callback {
        None => work(None),
        Some(cb) => {
            let mut report = |p: &RolloutProgress| -> bool {
                Python::with_gil(|py| match cb.call1(py, (p.trials_done, p.trials, p.equity.mean)) {
                    Ok(answer) => answer.is_none(py) || answer.bind(py).is_truthy().unwrap_or(true),
                    Err(e) => {
                        raised = Some(e);
                        false
                    }
                })
            };
            work(Some(&mut report))
        }
    });
    match raised {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

pub(crate) fn result(inner: Rollout) -> PyRolloutResult {
    PyRolloutResult { inner }
}

pub(crate) fn play_rollouts(py: Python<'_>, plays: Vec<analysis::PlayRollout>) -> PyResult<Vec<PyPlayRollout>> {
    let best = plays.first().map_or(0.0, |p| p.rollout.equity().mean);
    plays
        .into_iter()
        .map(|p| {
            let equity = p.rollout.equity().mean;
            Ok(PyPlayRollout {
                r#move: Py::new(py, PyMove::with_cascade(p.candidate.play, p.candidate.cascade))?,
                rollout: Py::new(py, PyRolloutResult { inner: p.rollout })?,
                equity,
                diff: equity - best,
            })
        })
        .collect()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRolloutResult>()?;
    m.add_class::<PyPlayRollout>()?;
    m.add("MAX_ROLLOUT_TRIALS", MAX_TRIALS)?;
    m.add("MAX_ROLLOUT_PLAYS", analysis::MAX_PLAYS)?;
    Ok(())
}
