//! The training crate's Python module, `tavla_train._coach` (the training
//! package `coach/python/tavla_train` drives it): self-play TD training,
//! labelling by search and rollouts, supervised training, the pruner, and
//! the network inputs for trainers outside Rust. The engine's wheel does not
//! carry any of it. Arguments are checked as in `tavla._core` (the same
//! helpers), so bad input is a ValueError naming what is wrong.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use tavla::batch;
use tavla::limits;
use tavla::nn::encoding::check_inputs;
use tavla::nn::player::Nets;
use tavla::nn::{Mlp, OUTPUTS};
use tavla::position::Position;
use tavla::python::{count_arg, flat_board_rules, rules_from_kwargs, threads_arg, value_error, whole_arg};
use tavla::variant::{Rules, Variant};

use crate::supervised;
use crate::td::{score_against_random, TdTrainer};

/// A new untrained network for a variant, as bytes.
#[pyfunction]
#[pyo3(signature = (variant, hidden, seed, **rules))]
fn td_new_network<'py>(
    py: Python<'py>,
    variant: &str,
    hidden: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let hidden: usize = whole_arg(hidden, "hidden")?;
    let seed: u64 = whole_arg(seed, "seed")?;
    let rules = rules_from_kwargs(variant, rules)?;
    let trainer = TdTrainer::new(rules, hidden.clamp(1, 1024), seed, 0.1);
    Ok(PyBytes::new(py, &trainer.net.to_bytes()))
}

/// Trains a network by `games` self-play games; returns the new bytes and stats.
#[pyfunction]
#[pyo3(signature = (network, variant, games, seed, rate, trace_decay = 0.0, **rules))]
#[allow(clippy::too_many_arguments)] // one parameter per Python argument
fn td_train<'py>(
    py: Python<'py>,
    network: &[u8],
    variant: &str,
    games: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    rate: f32,
    trace_decay: f32,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Bound<'py, PyBytes>, usize, usize, usize)> {
    let games = count_arg(games, "games", 0, limits::MAX_GAMES)? as usize;
    let seed: u64 = whole_arg(seed, "seed")?;
    let rules = rules_from_kwargs(variant, rules)?;
    let net = network_for(network, rules.variant)?;
    if !(0.0..1.0).contains(&trace_decay) {
        return Err(PyValueError::new_err(format!("trace_decay (TD lambda) must be in [0, 1), not {trace_decay}")));
    }
    let (net, stats) = py.allow_threads(move || {
        let mut trainer = TdTrainer::from_net(net, rules, seed, rate);
        trainer.trace_decay = trace_decay;
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
    games: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<f64> {
    let games = count_arg(games, "games", 1, limits::MAX_GAMES)? as usize;
    let seed: u64 = whole_arg(seed, "seed")?;
    let rules = rules_from_kwargs(variant, rules)?;
    let net = network_for(network, rules.variant)?;
    Ok(py.allow_threads(move || score_against_random(&net, rules, games, seed)))
}

/// Positions of flat int8 bytes (n x 50, the `to_arrays` layout), checked.
fn positions_from_flat(rules: Rules, boards: &[u8]) -> PyResult<Vec<Position>> {
    if !boards.len().is_multiple_of(batch::ROW) {
        return Err(PyValueError::new_err(format!(
            "positions must have shape (n, 2, 25): got {} values, not a multiple of 50",
            boards.len()
        )));
    }
    boards
        .chunks_exact(batch::ROW)
        .enumerate()
        .map(|(k, row)| {
            let row: Vec<i8> = row.iter().map(|&b| b as i8).collect();
            batch::read_flat(rules, &row, k).map_err(value_error)
        })
        .collect()
}

/// Labels (n x 5) as little-endian f32 bytes, the layout every labelling function returns.
fn labels_bytes<'py>(py: Python<'py>, labels: &[[f32; OUTPUTS]]) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = labels.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
    PyBytes::new(py, &bytes)
}

/// Targets of little-endian f32 bytes (n x 5), each a probability.
fn targets_from_bytes(targets: &[u8], n: usize) -> PyResult<Vec<[f32; OUTPUTS]>> {
    if targets.len() != n * OUTPUTS * 4 {
        return Err(PyValueError::new_err(format!(
            "targets must be float32 of shape ({n}, 5): got {} bytes, expected {}",
            targets.len(),
            n * OUTPUTS * 4
        )));
    }
    let floats: Vec<f32> = targets.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    if let Some(k) = floats.iter().position(|v| !(0.0..=1.0).contains(v)) {
        return Err(PyValueError::new_err(format!("target {} of position {} is {}, not a probability", k % 5, k / 5, floats[k])));
    }
    // chunks_exact yields slices of exactly OUTPUTS values: the conversion to an array cannot fail.
    Ok(floats.chunks_exact(OUTPUTS).map(|c| c.try_into().expect("five")).collect())
}

/// A network passed in as bytes, checked against the variant's inputs (a
/// mismatch would otherwise fail deep inside the encoder).
fn network_for(network: &[u8], variant: Variant) -> PyResult<Mlp> {
    named_network_for(network, variant, "the network")
}

/// [`network_for`] with its name in the error (`what`: "the race network").
fn named_network_for(network: &[u8], variant: Variant, what: &str) -> PyResult<Mlp> {
    let net = Mlp::from_bytes(network).map_err(value_error)?;
    check_inputs(&net, variant, what).map_err(value_error)?;
    Ok(net)
}

/// Positions from self-play of a network (bytes), flat int8 (n x 50).
#[pyfunction]
#[pyo3(signature = (network, variant, count, seed, **rules))]
fn nn_selfplay_flat<'py>(
    py: Python<'py>,
    network: &[u8],
    variant: &str,
    count: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let count = count_arg(count, "count", 0, limits::MAX_POSITIONS)? as usize;
    let seed: u64 = whole_arg(seed, "seed")?;
    let rules = flat_board_rules(variant, rules)?;
    let net = network_for(network, rules.variant)?;
    let flat = py.allow_threads(|| {
        let mut flat = Vec::with_capacity(count * batch::ROW);
        for pos in tavla::nn::player::selfplay_positions(&net, rules, count, seed) {
            batch::push_flat(&pos, &mut flat);
        }
        flat
    });
    Ok(PyBytes::new(py, &flat.iter().map(|&b| b as u8).collect::<Vec<u8>>()))
}

/// Labels positions (flat int8 bytes) by a `ply`-deep search with a network
/// (and `race`, a race network judging every pure race, where given):
/// float32 bytes, five probabilities per position.
#[pyfunction]
#[pyo3(signature = (network, variant, boards, ply, threads = None, race = None, **rules),
       text_signature = "(network, variant, boards, ply, threads=0, race=None, **rules)")]
#[allow(clippy::too_many_arguments)] // one parameter per Python argument
fn nn_label<'py>(
    py: Python<'py>,
    network: &[u8],
    variant: &str,
    boards: &[u8],
    ply: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
    race: Option<&[u8]>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let ply: u8 = whole_arg(ply, "ply")?;
    let threads = threads_arg(threads, 0)?;
    if u64::from(ply) > limits::MAX_LABEL_PLY {
        return Err(PyValueError::new_err(format!("labels search at most {} plies, not {ply}", limits::MAX_LABEL_PLY)));
    }
    let rules = flat_board_rules(variant, rules)?;
    let net = network_for(network, rules.variant)?;
    let race = race.map(|race| network_for(race, rules.variant)).transpose()?;
    let positions = positions_from_flat(rules, boards)?;
    let labels = py.allow_threads(|| supervised::label(&net, race.as_ref(), &positions, ply, threads));
    Ok(labels_bytes(py, &labels))
}

/// Rollout labels of flat boards: float32 bytes, the five mean outcomes per
/// position over `trials` rollouts by the network at 0-ply (with the race and
/// crashed networks where given, as the engine judges), each trial stopped at
/// the exact bear-off tables, or after `horizon` rolls where given and scored
/// by the networks' 0-ply value there.
#[pyfunction]
#[pyo3(signature = (network, variant, boards, trials, seed, threads = None, race = None, crashed = None, horizon = None, **rules),
       text_signature = "(network, variant, boards, trials, seed, threads=0, race=None, crashed=None, horizon=None, **rules)")]
#[allow(clippy::too_many_arguments)] // one parameter per Python argument
fn nn_rollout_labels<'py>(
    py: Python<'py>,
    network: &[u8],
    variant: &str,
    boards: &[u8],
    trials: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
    race: Option<&[u8]>,
    crashed: Option<&[u8]>,
    horizon: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let trials = count_arg(trials, "trials", 1, limits::MAX_LABEL_TRIALS)? as usize;
    let seed: u64 = whole_arg(seed, "seed")?;
    let threads = threads_arg(threads, 0)?;
    let horizon = horizon.map(|h| count_arg(h, "horizon", 1, tavla::turn::MAX_ROLLS as u64)).transpose()?.map(|h| h as usize);
    let rules = flat_board_rules(variant, rules)?;
    let net = network_for(network, rules.variant)?;
    let race = race.map(|race| named_network_for(race, rules.variant, "the race network")).transpose()?;
    let crashed = crashed.map(|crashed| named_network_for(crashed, rules.variant, "the crashed network")).transpose()?;
    let positions = positions_from_flat(rules, boards)?;
    let nets = Nets { contact: &net, race: race.as_ref(), crashed: crashed.as_ref() };
    let labels = py.allow_threads(|| tavla::rollout::rollout_labels(nets, &positions, trials, horizon, seed, threads));
    Ok(labels_bytes(py, &labels))
}

/// Labels of backgammon races by the one-sided race teacher
/// ([`crate::race_teacher`]): each side's bear-in simulated `trials` times
/// alone, joined by the exact one-sided bear-off table. Every board must be a
/// race.
#[pyfunction]
#[pyo3(signature = (boards, trials, seed, threads = None), text_signature = "(boards, trials, seed, threads=0)")]
fn race_teacher_labels<'py>(
    py: Python<'py>,
    boards: &[u8],
    trials: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let trials = count_arg(trials, "trials", 1, limits::MAX_LABEL_TRIALS)? as usize;
    let seed: u64 = whole_arg(seed, "seed")?;
    let threads = threads_arg(threads, 0)?;
    let positions = positions_from_flat(Rules::backgammon(), boards)?;
    if let Some(k) = positions.iter().position(|p| !p.is_race() || p.is_game_over()) {
        return Err(PyValueError::new_err(format!("board {k} is not a race in play (contact is not broken, or the game is over)")));
    }
    let labels = py.allow_threads(|| crate::race_teacher::race_labels(&positions, trials, seed, threads));
    Ok(labels_bytes(py, &labels))
}

/// Trains a network on labelled positions; the new bytes and the mean squared
/// error of each epoch.
#[pyfunction]
#[pyo3(signature = (network, variant, boards, targets, epochs, rate, rate_end, seed, **rules))]
#[allow(clippy::too_many_arguments)] // one parameter per Python argument
fn nn_train_supervised<'py>(
    py: Python<'py>,
    network: &[u8],
    variant: &str,
    boards: &[u8],
    targets: &[u8],
    epochs: &Bound<'py, PyAny>,
    rate: f32,
    rate_end: f32,
    seed: &Bound<'py, PyAny>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Bound<'py, PyBytes>, Vec<f64>)> {
    let epochs = count_arg(epochs, "epochs", 0, limits::MAX_EPOCHS)? as usize;
    let seed: u64 = whole_arg(seed, "seed")?;
    let rules = flat_board_rules(variant, rules)?;
    let mut net = network_for(network, rules.variant)?;
    let positions = positions_from_flat(rules, boards)?;
    let targets = targets_from_bytes(targets, positions.len())?;
    let losses = py.allow_threads(|| supervised::train(&mut net, &positions, &targets, epochs, (rate, rate_end), seed));
    Ok((PyBytes::new(py, &net.to_bytes()), losses))
}

/// Mean squared error of a network on labelled positions.
#[pyfunction]
#[pyo3(signature = (network, variant, boards, targets, **rules))]
fn nn_error(
    py: Python<'_>,
    network: &[u8],
    variant: &str,
    boards: &[u8],
    targets: &[u8],
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<f64> {
    let rules = flat_board_rules(variant, rules)?;
    let net = network_for(network, rules.variant)?;
    let positions = positions_from_flat(rules, boards)?;
    let targets = targets_from_bytes(targets, positions.len())?;
    Ok(py.allow_threads(|| supervised::error(&net, &positions, &targets)))
}

/// The network inputs of flat boards (n x 50 int8): float32 bytes, n x the
/// variant's input count, each from its player on roll. Lets a trainer outside
/// the crate (numpy, PyTorch) see exactly what the networks see.
#[pyfunction]
#[pyo3(signature = (variant, boards, **rules))]
fn nn_encode<'py>(py: Python<'py>, variant: &str, boards: &[u8], rules: Option<&Bound<'_, PyDict>>) -> PyResult<Bound<'py, PyBytes>> {
    let rules = flat_board_rules(variant, rules)?;
    let positions = positions_from_flat(rules, boards)?;
    let width = tavla::nn::encoding::input_count(rules.variant);
    let bytes = py.allow_threads(|| {
        let mut x = vec![0f32; width];
        let mut bytes = Vec::with_capacity(positions.len() * width * 4);
        for pos in &positions {
            tavla::nn::encoding::encode(pos, &mut x);
            bytes.extend(x.iter().flat_map(|v| v.to_le_bytes()));
        }
        bytes
    });
    Ok(PyBytes::new(py, &bytes))
}

/// Which judge the engine's evaluator gives each flat board (n x 50 int8):
/// one byte a board, 0 for the contact network, 1 for a pure race
/// ([`Position::is_race`], the race network where the variant has one),
/// 2 for a bear-off the exact tables answer ([`tavla::bearoff::bearoff_homes`]),
/// 3 for a finished game, 4 for a crashed contact position
/// ([`Position::is_crashed`], the crashed network where the variant has one).
/// Training code asks here instead of restating the rules.
#[pyfunction]
#[pyo3(signature = (variant, boards, **rules))]
fn nn_judges<'py>(py: Python<'py>, variant: &str, boards: &[u8], rules: Option<&Bound<'_, PyDict>>) -> PyResult<Bound<'py, PyBytes>> {
    let rules = flat_board_rules(variant, rules)?;
    let positions = positions_from_flat(rules, boards)?;
    let kinds: Vec<u8> = py.allow_threads(|| positions.iter().map(judge_of).collect());
    Ok(PyBytes::new(py, &kinds))
}

fn judge_of(pos: &Position) -> u8 {
    if tavla::outcome::game_result(pos).is_some() {
        3
    } else if tavla::bearoff::bearoff_homes(pos).is_some() {
        2
    } else if pos.is_race() {
        1
    } else if pos.is_crashed() {
        4
    } else {
        0
    }
}

/// Trains a pruning network for the search on `games` self-play games of a
/// full network (and its race network, where given): the new bytes, the
/// training error of each epoch and the held-out error.
#[pyfunction]
#[pyo3(signature = (network, variant, games, hidden, epochs, race = None),
       text_signature = "(network, variant, games, hidden, epochs, race=None)")]
#[allow(clippy::too_many_arguments)] // one parameter per Python argument
fn train_pruner<'py>(
    py: Python<'py>,
    network: &[u8],
    variant: &str,
    games: &Bound<'py, PyAny>,
    hidden: &Bound<'py, PyAny>,
    epochs: &Bound<'py, PyAny>,
    race: Option<&[u8]>,
) -> PyResult<(Bound<'py, PyBytes>, Vec<f64>, f64)> {
    let games = count_arg(games, "games", 1, limits::MAX_GAMES)? as usize;
    let hidden = count_arg(hidden, "hidden", 1, 1024)? as usize;
    let epochs = count_arg(epochs, "epochs", 0, limits::MAX_EPOCHS)? as usize;
    let rules = flat_board_rules(variant, None)?;
    let net = network_for(network, rules.variant)?;
    let race = race.map(|race| network_for(race, rules.variant)).transpose()?;
    let full = tavla::eval::neural::Network::from_mlp(net, "full").with_race(race);
    let pruner = py.allow_threads(|| crate::pruner::train_pruner(&full, rules.variant, games, hidden, epochs));
    Ok((PyBytes::new(py, &pruner.net.to_bytes()), pruner.losses, pruner.held_out_error))
}

#[pymodule]
fn _coach(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RACE_SLOT_INPUTS", tavla::nn::encoding::race_slot_inputs())?;
    m.add_function(wrap_pyfunction!(td_new_network, m)?)?;
    m.add_function(wrap_pyfunction!(td_train, m)?)?;
    m.add_function(wrap_pyfunction!(td_score_vs_random, m)?)?;
    m.add_function(wrap_pyfunction!(nn_selfplay_flat, m)?)?;
    m.add_function(wrap_pyfunction!(nn_label, m)?)?;
    m.add_function(wrap_pyfunction!(nn_train_supervised, m)?)?;
    m.add_function(wrap_pyfunction!(nn_error, m)?)?;
    m.add_function(wrap_pyfunction!(nn_rollout_labels, m)?)?;
    m.add_function(wrap_pyfunction!(race_teacher_labels, m)?)?;
    m.add_function(wrap_pyfunction!(nn_encode, m)?)?;
    m.add_function(wrap_pyfunction!(nn_judges, m)?)?;
    m.add_function(wrap_pyfunction!(train_pruner, m)?)?;
    Ok(())
}
