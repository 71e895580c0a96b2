//! Bindings for network training (`scripts/train_td.py` drives them).

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use super::{rules_from_kwargs, value_error};
use crate::nn::td::{score_against_random, TdTrainer};
use crate::nn::Mlp;

/// A new untrained network for a variant, as bytes.
#[pyfunction]
#[pyo3(signature = (variant, hidden, seed, **rules))]
fn td_new_network<'py>(
    py: Python<'py>,
    variant: &str,
    hidden: usize,
    seed: u64,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let rules = rules_from_kwargs(variant, rules)?;
    let trainer = TdTrainer::new(rules, hidden.clamp(1, 1024), seed, 0.1);
    Ok(PyBytes::new(py, &trainer.net.to_bytes()))
}

/// Trains a network by `games` self-play games; returns the new bytes and stats.
#[pyfunction]
#[pyo3(signature = (network, variant, games, seed, rate, **rules))]
fn td_train<'py>(
    py: Python<'py>,
    network: &[u8],
    variant: &str,
    games: usize,
    seed: u64,
    rate: f32,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Bound<'py, PyBytes>, usize, usize, usize)> {
    let rules = rules_from_kwargs(variant, rules)?;
    let net = Mlp::from_bytes(network).map_err(value_error)?;
    let (net, stats) = py.allow_threads(move || {
        let mut trainer = TdTrainer::from_net(net, rules, seed, rate);
        let stats = trainer.train(games);
        (trainer.net, stats)
    });
    Ok((PyBytes::new(py, &net.to_bytes()), stats.games, stats.turns, stats.gammons))
}

/// Points per game of a network (0-ply) against random play.
#[pyfunction]
#[pyo3(signature = (network, variant, games, seed, **rules))]
fn td_score_vs_random(
    py: Python<'_>,
    network: &[u8],
    variant: &str,
    games: usize,
    seed: u64,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<f64> {
    let rules = rules_from_kwargs(variant, rules)?;
    let net = Mlp::from_bytes(network).map_err(value_error)?;
    Ok(py.allow_threads(move || score_against_random(&net, rules, games, seed)))
}

/// Rolls a position out with the shipped network of its variant playing both
/// sides at 0-ply; a dict of the mean probabilities, equity and its standard error.
#[pyfunction]
#[pyo3(signature = (position, trials = 1296, seed = 0, threads = 0))]
fn rollout<'py>(
    py: Python<'py>,
    position: &super::PyPosition,
    trials: usize,
    seed: u64,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    if trials == 0 || trials > 10_000_000 {
        return Err(pyo3::exceptions::PyValueError::new_err(format!("trials must be 1 to 10,000,000, not {trials}")));
    }
    let pos = position.inner;
    let threads = if threads == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { threads };
    let net = crate::nn::shipped::network(pos.variant());
    let r = py.allow_threads(|| crate::rollout::rollout(net, &pos, trials, seed, threads));
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
#[pyo3(signature = (variant, count, seed = 0, **rules))]
fn selfplay_positions(
    py: Python<'_>,
    variant: &str,
    count: usize,
    seed: u64,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<super::PyPosition>> {
    let rules = rules_from_kwargs(variant, rules)?;
    let net = crate::nn::shipped::network(rules.variant);
    let positions = py.allow_threads(|| crate::nn::td::selfplay_positions(net, rules, count, seed));
    Ok(positions.into_iter().map(|inner| super::PyPosition { inner }).collect())
}

/// The shipped network's five probabilities for the player on roll (0-ply).
#[pyfunction]
fn network_probabilities(position: &super::PyPosition) -> [f32; 5] {
    let net = crate::nn::shipped::network(position.inner.variant());
    crate::nn::td::NetPlayer::new(net).probabilities(&position.inner)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(td_new_network, m)?)?;
    m.add_function(wrap_pyfunction!(td_train, m)?)?;
    m.add_function(wrap_pyfunction!(td_score_vs_random, m)?)?;
    m.add_function(wrap_pyfunction!(rollout, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay_positions, m)?)?;
    m.add_function(wrap_pyfunction!(network_probabilities, m)?)?;
    Ok(())
}
