//! coach: tavla's training code, outside the engine crate so that its wheels
//! and its library carry only what play needs (as wildbg keeps its trainers
//! in its own `coach` crate).
//!
//! - [`td`]: self-play TD(0) or TD(lambda) training, a quick check against random play;
//! - [`supervised`]: labelling positions by a search and training on labels;
//! - [`pruner`]: the search's pruning networks, trained on a full network's values;
//! - `python` (with the `python` feature): the `tavla_train._coach` module that the
//!   training package (`coach/python/tavla_train`) drives.
//!
//! The binaries `train_pruner` and `tune_heuristic` are the command-line forms
//! of the pruner and of the heuristic's weight search.

pub mod pruner;
pub mod race_teacher;
pub mod supervised;
pub mod td;

#[cfg(feature = "python")]
mod python;
