//! Bindings for the network as the engine plays it: rollouts of the shipped
//! networks, their self-play positions and 0-ply probabilities. The training
//! bindings live in the training crate (`coach/src/python.rs`).

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{count_arg, opt_count_arg, opt_whole_arg, rules_from_kwargs, threads_arg};
use crate::limits;

/// Rolls a position out with the shipped networks of its variant playing both
/// sides at 0-ply; a dict of the mean probabilities, equity and its standard error.
#[pyfunction]
#[pyo3(signature = (position, trials = None, seed = None, threads = None),
       text_signature = "(position, trials=1296, seed=0, threads=0)")]
fn rollout<'py>(
    py: Python<'py>,
    position: &super::PyPosition,
    trials: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let trials = opt_count_arg(trials, "trials", 1, limits::MAX_ROLLOUT_TRIALS, 1296)? as usize;
    let seed: u64 = opt_whole_arg(seed, "seed")?.unwrap_or(0);
    let threads = threads_arg(threads, 0)?;
    let pos = position.inner;
    let nets = crate::nn::player::Nets::shipped(pos.variant());
    let r = py.allow_threads(|| crate::rollout::rollout(nets, &pos, trials, seed, threads));
    let d = PyDict::new(py);
    let names = ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"];
    for (name, p) in names.iter().zip(r.probabilities) {
        d.set_item(*name, p)?;
    }
    d.set_item("equity", r.equity)?;
    d.set_item("equity_error", r.equity_error)?;
    d.set_item("trials", r.trials)?;
    Ok(d)
}

/// Positions from self-play of the shipped network of a variant.
#[pyfunction]
#[pyo3(signature = (variant, count, seed = None, **rules), text_signature = "(variant, count, seed=0, **rules)")]
fn selfplay_positions(
    py: Python<'_>,
    variant: &str,
    count: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<super::PyPosition>> {
    let count = count_arg(count, "count", 0, limits::MAX_POSITIONS)? as usize;
    let seed: u64 = opt_whole_arg(seed, "seed")?.unwrap_or(0);
    let rules = rules_from_kwargs(variant, rules)?;
    let net = crate::nn::shipped::network(rules.variant);
    let positions = py.allow_threads(|| crate::nn::player::selfplay_positions(net, rules, count, seed));
    Ok(positions.into_iter().map(|inner| super::PyPosition { inner }).collect())
}

/// The shipped networks' five probabilities for the player on roll (0-ply,
/// without the bear-off tables): the race network's in a pure race.
#[pyfunction]
fn network_probabilities(position: &super::PyPosition) -> PyResult<[f32; 5]> {
    let nets = crate::nn::player::Nets::shipped(position.inner.variant());
    Ok(crate::nn::player::NetPlayer::with_nets(nets).probabilities(&position.inner))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rollout, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay_positions, m)?)?;
    m.add_function(wrap_pyfunction!(network_probabilities, m)?)?;
    Ok(())
}
