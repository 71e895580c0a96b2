//! The crate's one way to share work out over threads: [`par_map`].
//!
//! Jobs are numbered `0..n`; `work(state, k)` computes job `k` and the results
//! come back in job order, so a caller whose job `k` depends only on `k` (its
//! own dice stream, its own position) gets the same answer on any number of
//! threads. The threads take the next job from one atomic counter, so uneven
//! jobs (a long rollout trial, a deep search of one roll) balance out.
//!
//! Each thread builds one scratch state with `init` and hands it to every job
//! it runs: a `MoveGen`, move buffers, a search worker and its cache. Which
//! jobs share a state depends on the timing of the run, so a state must not
//! change a job's result (a cache of exact values, buffers, node counters).
//! [`par_map_states`] also returns the states, for totals such as node counts.
//!
//! A job should be worth more than a few microseconds; where results are
//! large buffers, make a job a block of the work rather than one item (see
//! [`crate::batch::results_many`]: one block a thread).
//!
//! `threads` is a count of threads: it is clamped to `1..=n` and to
//! [`MAX_THREADS`] (0 counts as 1; callers that take 0 to mean every core
//! resolve it first with [`crate::threads_or_all_cores`]), so no call starts
//! more threads than it has jobs, nor more than the fixed maximum however
//! many it is asked for (the bindings refuse a larger count with an error). One thread runs the jobs on the calling
//! thread with no spawn at all (search calls this for every labelled
//! position); more spawn `threads - 1` scoped threads and the calling thread
//! works as the last one. A panic in a job stops the others taking new jobs
//! and is raised again in the caller with its own message.
//!
//! Why not rayon: a dependency and a global pool, where every caller here
//! wants an exact per-call thread count (a rayon pool built per call, or a
//! pool installed around it), one scratch state per thread (rayon's
//! `map_init` calls `init` once per split of the work, not per thread), and
//! no threads at all for the single-threaded calls inside search. The
//! `std::thread::scope` loop below does all of that in a few lines.

use std::sync::atomic::{AtomicUsize, Ordering};

pub use crate::limits::MAX_THREADS;

/// `work(state, k)` for every job `k` in `0..n` on `threads` threads (at
/// least 1, at most `n` and [`MAX_THREADS`]), each thread with one state from `init`; the results
/// in job order.
pub fn par_map<S: Send, R: Send>(
    n: usize,
    threads: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> R + Sync,
) -> Vec<R> {
    par_map_states(n, threads, init, work).0
}

/// [`par_map`], returning also the state of every thread that ran (one per
/// thread, in no particular order; none when `n` is 0).
pub fn par_map_states<S: Send, R: Send>(
    n: usize,
    threads: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> R + Sync,
) -> (Vec<R>, Vec<S>) {
    if n == 0 {
        return (Vec::new(), Vec::new());
    }
    let threads = threads.clamp(1, n.min(MAX_THREADS));
    let next = AtomicUsize::new(0);
    // One thread's share: the jobs it ran, with their numbers, and its state.
    let run = || {
        let _stop = StopOnPanic { next: &next, n };
        let mut state = init();
        let mut done = Vec::new();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= n {
                break;
            }
            done.push((k, work(&mut state, k)));
        }
        (done, state)
    };
    let shares: Vec<(Vec<(usize, R)>, S)> = if threads == 1 {
        vec![run()]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (1..threads).map(|_| scope.spawn(run)).collect();
            let mut shares = vec![run()];
            for h in handles {
                shares.push(h.join().unwrap_or_else(|payload| std::panic::resume_unwind(payload)));
            }
            shares
        })
    };
    let mut slots: Vec<Option<R>> = (0..n).map(|_| None).collect();
    let mut states = Vec::with_capacity(shares.len());
    for (done, state) in shares {
        for (k, r) in done {
            slots[k] = Some(r);
        }
        states.push(state);
    }
    (slots.into_iter().map(|r| r.expect("every job ran")).collect(), states)
}

/// Ends the work when its thread unwinds: no thread takes another job.
struct StopOnPanic<'a> {
    next: &'a AtomicUsize,
    n: usize,
}

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.next.store(self.n, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// A job whose cost varies a lot with its number.
    fn uneven(k: usize) -> u64 {
        (0..(k % 7) * 2_000).fold(k as u64, |a, i| a.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i as u64))
    }

    #[test]
    fn results_are_in_job_order() {
        let squares = par_map(100, 4, || (), |_, k| k * k);
        assert_eq!(squares, (0..100).map(|k| k * k).collect::<Vec<_>>());
    }

    #[test]
    fn the_thread_count_does_not_change_the_results() {
        let one = par_map(200, 1, || (), |_, k| uneven(k));
        assert_eq!(one, (0..200).map(uneven).collect::<Vec<_>>());
        for threads in [2, 7] {
            assert_eq!(par_map(200, threads, || (), |_, k| uneven(k)), one, "{threads} threads");
        }
    }

    #[test]
    fn no_jobs_no_results_and_no_states() {
        let inits = AtomicUsize::new(0);
        let (results, states) = par_map_states(0, 8, || inits.fetch_add(1, Ordering::Relaxed), |_, k| k);
        assert!(results.is_empty() && states.is_empty());
        assert_eq!(inits.into_inner(), 0);
    }

    #[test]
    fn more_threads_than_jobs() {
        let (results, states) = par_map_states(
            3,
            64,
            || 0usize,
            |count, k| {
                *count += 1;
                k + 10
            },
        );
        assert_eq!(results, vec![10, 11, 12]);
        assert!((1..=3).contains(&states.len()), "at most one thread a job: {}", states.len());
        assert_eq!(states.iter().sum::<usize>(), 3);
        // Zero threads is one.
        assert_eq!(par_map(3, 0, || (), |_, k| k), vec![0, 1, 2]);
    }

    #[test]
    fn never_more_threads_than_the_maximum() {
        // Asked for a million threads with jobs enough for them all: at most
        // MAX_THREADS states (one a thread), where a thread per job asked
        // would fail to spawn.
        let n = 4 * MAX_THREADS;
        let (results, states) = par_map_states(n, 1_000_000, || (), |_, k| k);
        assert_eq!(results, (0..n).collect::<Vec<_>>());
        assert!(states.len() <= MAX_THREADS, "{} threads", states.len());
    }

    #[test]
    fn each_thread_keeps_one_state_for_all_its_jobs() {
        let inits = AtomicUsize::new(0);
        let init = || {
            inits.fetch_add(1, Ordering::Relaxed);
            Vec::<usize>::new()
        };
        let (results, states) = par_map_states(50, 3, init, |seen, k| {
            seen.push(k);
            seen.len()
        });
        assert_eq!(inits.into_inner(), states.len());
        assert!(states.len() <= 3);
        // Every job ran once, in exactly one state, and each state saw its
        // jobs in increasing order (the counter only goes up).
        let mut all: Vec<usize> = states.iter().flatten().copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..50).collect::<Vec<_>>());
        assert!(states.iter().all(|s| s.windows(2).all(|w| w[0] < w[1])));
        // A job's result is how many jobs its state had run by then.
        for s in &states {
            for (i, &k) in s.iter().enumerate() {
                assert_eq!(results[k], i + 1);
            }
        }
        // One thread: one state, all the jobs.
        let (_, states) = par_map_states(50, 1, Vec::new, |seen: &mut Vec<usize>, k| seen.push(k));
        assert_eq!(states, vec![(0..50).collect::<Vec<_>>()]);
    }

    #[test]
    fn a_panic_reaches_the_caller_with_its_message() {
        for threads in [1, 4] {
            let ran = AtomicUsize::new(0);
            let caught = std::panic::catch_unwind(|| {
                par_map(
                    1_000,
                    threads,
                    || (),
                    |_, k| {
                        ran.fetch_add(1, Ordering::Relaxed);
                        if k == 5 {
                            panic!("job five failed");
                        }
                        std::thread::sleep(std::time::Duration::from_micros(200));
                    },
                )
            });
            let payload = caught.expect_err("the panic propagates");
            let message = payload.downcast_ref::<&str>().copied().or(payload.downcast_ref::<String>().map(|s| s.as_str()));
            assert_eq!(message, Some("job five failed"), "{threads} threads");
            // The others stopped taking jobs soon after.
            assert!(ran.into_inner() < 1_000, "{threads} threads");
        }
    }
}
