//! The bounds on every count a caller can ask for, in one place.
//!
//! A call that asks for more (games, positions, epochs, trials, threads,
//! plies, seconds, bytes of a file) is refused before any work starts, with
//! an [`Error`] naming the argument and the bound: never hours of work, an
//! allocation that kills the process, or a thread spawn that fails. The
//! Python bindings check their arguments here and export the table as
//! `tavla._core.LIMITS` (the Python package and the HTTP service read their
//! bounds from it); [`crate::parallel::par_map`] never starts more than
//! [`MAX_THREADS`] threads whatever it is asked.
//!
//! Each bound is far above any real use (a training run, a long duel, the
//! biggest machine's cores) and far below what would exhaust memory or time.

use crate::error::{Error, Result};

/// Threads a call may ask for (0 means one per core, see
/// [`crate::threads_or_all_cores`]).
pub const MAX_THREADS: usize = 1024;
/// Games one call plays: `simulate_games`, a duel (two games a pair), TD
/// training and its score against random play (100 million games of random
/// play take about a minute a core; of network play, days).
pub const MAX_GAMES: u64 = 100_000_000;
/// Positions one call makes from self-play (50 bytes each as a flat board: 500 MB).
pub const MAX_POSITIONS: u64 = 10_000_000;
/// Epochs of supervised training.
pub const MAX_EPOCHS: u64 = 100_000;
/// Trials of one rollout.
pub const MAX_ROLLOUT_TRIALS: u64 = 10_000_000;
/// Trials per position of rollout labels.
pub const MAX_LABEL_TRIALS: u64 = 1_000_000;
/// The deepest search an engine runs.
pub const MAX_PLY: u64 = 4;
/// The deepest search that labels training positions.
pub const MAX_LABEL_PLY: u64 = 3;
/// The deepest perft of nardy and gul bara (backgammon's is 3: see
/// [`crate::perft::max_depth`]); one level more is hours and gigabytes.
pub const MAX_PERFT_DEPTH: u64 = 4;
/// Seconds the evaluation-rate benchmark may run.
pub const MAX_BENCH_SECONDS: f64 = 60.0;
/// Bytes of a match equity table file (gnubg's XML tables are a few tens of KB).
pub const MAX_MET_BYTES: u64 = 1 << 20;

/// Every bound by name, for the bindings to export (`tavla._core.LIMITS`).
pub const ALL: &[(&str, f64)] = &[
    ("threads", MAX_THREADS as f64),
    ("games", MAX_GAMES as f64),
    ("positions", MAX_POSITIONS as f64),
    ("epochs", MAX_EPOCHS as f64),
    ("rollout_trials", MAX_ROLLOUT_TRIALS as f64),
    ("label_trials", MAX_LABEL_TRIALS as f64),
    ("ply", MAX_PLY as f64),
    ("label_ply", MAX_LABEL_PLY as f64),
    ("perft_depth", MAX_PERFT_DEPTH as f64),
    ("bench_seconds", MAX_BENCH_SECONDS),
    ("met_bytes", MAX_MET_BYTES as f64),
    ("match_length", crate::cube::state::MAX_MATCH_LENGTH as f64),
    ("rollout_ply", crate::rollout::analysis::MAX_CHECKER_PLY as f64),
];

/// `value` when it lies in `low..=high`; else an error naming `what` and the
/// range, as "games must be 1 to 100,000,000, not 1,000,000,000,000".
pub fn check(what: &str, value: i128, low: u64, high: u64) -> Result<u64> {
    match u64::try_from(value) {
        Ok(v) if (low..=high).contains(&v) => Ok(v),
        _ => Err(Error::new(format!("{what} must be {} to {}, not {}", grouped(low.into()), grouped(high.into()), grouped(value)))),
    }
}

/// A thread count, 0 (one per core) to [`MAX_THREADS`].
pub fn check_threads(threads: i128) -> Result<usize> {
    check("threads", threads, 0, MAX_THREADS as u64).map(|t| t as usize)
}

/// `n` with a comma between each group of three digits (from 10,000 on).
pub fn grouped(n: i128) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    if n.unsigned_abs() < 10_000 {
        out.push_str(&digits);
        return out;
    }
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouped_digits() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1024), "1024");
        assert_eq!(grouped(10_000), "10,000");
        assert_eq!(grouped(100_000_000), "100,000,000");
        assert_eq!(grouped(u64::MAX.into()), "18,446,744,073,709,551,615");
        assert_eq!(grouped(-12_345), "-12,345");
        assert_eq!(grouped(-7), "-7");
        assert_eq!(grouped(i128::MIN), "-170,141,183,460,469,231,731,687,303,715,884,105,728");
    }

    #[test]
    fn a_count_out_of_range_names_itself_and_the_range() {
        assert_eq!(check("games", 5, 1, 10), Ok(5));
        assert_eq!(check("games", 0, 1, MAX_GAMES).unwrap_err().to_string(), "games must be 1 to 100,000,000, not 0");
        assert_eq!(check_threads(1025).unwrap_err().to_string(), "threads must be 0 to 1024, not 1025");
        assert_eq!(check_threads(0), Ok(0));
        assert_eq!(check("epochs", -3, 0, 10).unwrap_err().to_string(), "epochs must be 0 to 10, not -3");
    }
}
