//! Times (thread CPU time) best-move decisions of the shipped network at 0..=3 ply on one
//! thread over positions from seeded random games, and prints the node
//! counts and chosen plays (a fingerprint for before/after comparisons).
//!
//!     cargo run --release --example search_speed -- [variant] [positions] [max_ply] [prune] [filter=F] [base=P,F] [int16] [nocompare]
//!
//! With `prune` given (the leaves' pruning width, 0 = off) the decisions are
//! searched with it, and then again without pruning: how often the chosen
//! play differs, and what the pruned choices lose by the unpruned search's
//! own equities (skipped when `nocompare` is given, to time the pruned
//! search alone). `filter=F` sets the inner filter's pruning width
//! (`SearchConfig::prune_filter`, 0 = off), and then the comparison is
//! against the same search with `prune_filter` 0 (the leaves still pruned).
//! `base=P,F` compares against `prune` P and `prune_filter` F instead.
//! `int16` searches with the contact network's int16 first layer
//! (`network-int16`) and compares against the float network with the same
//! settings, at 0-ply too.

use std::time::Instant;

use tavla::dice::Dice;
use tavla::eval::game_result;
use tavla::eval::neural::Network;
use tavla::movegen::MoveGen;
use tavla::position::Position;
use tavla::search::{analyze, SearchConfig};
use tavla::variant::{Rules, Variant};

fn cases(variant: Variant, n: usize, seed: u64) -> Vec<(Position, u8, u8)> {
    let rules = Rules::new(variant);
    let mut rng = Dice::duel(seed);
    let mut movegen = MoveGen::new();
    let mut plays = Vec::new();
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::start(rules);
        for _ in 0..200 {
            let (d1, d2) = (rng.die(), rng.die());
            movegen.legal_moves(&pos, d1, d2, &mut plays);
            if plays.len() > 1 && rng.below(10) < 3 && !pos.is_race() {
                out.push((pos, d1, d2));
            }
            let next = plays[rng.below(plays.len())].position;
            if game_result(&next).is_some() {
                break;
            }
            pos = next.flip();
        }
    }
    out.truncate(n);
    out
}

/// This thread's CPU time in seconds (from the scheduler's statistics, so a
/// loaded machine does not count its waits), or the wall clock where that is
/// not readable.
fn cpu_seconds(start: Instant) -> f64 {
    match std::fs::read_to_string("/proc/thread-self/schedstat") {
        Ok(s) => s.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()).unwrap_or(0.0) * 1e-9,
        Err(_) => start.elapsed().as_secs_f64(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = args.get(1).map(|s| Variant::parse(s).expect("variant")).unwrap_or(Variant::Backgammon);
    let n: usize = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(40);
    let max_ply: u8 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(2);
    let prune: Option<usize> = args.get(4).map(|s| s.parse().unwrap());
    let filter = args.iter().skip(5).find_map(|a| a.strip_prefix("filter=")).map(|v| v.parse::<usize>().expect("a width"));
    let base = args.iter().skip(5).find_map(|a| a.strip_prefix("base=")).map(|v| {
        let (p, f) = v.split_once(',').expect("base=P,F");
        (p.parse::<usize>().expect("a width"), f.parse::<usize>().expect("a width"))
    });
    let int16 = args.iter().skip(5).any(|a| a == "int16");
    let compare = (prune.is_some() || int16) && !args.iter().any(|a| a == "nocompare");
    let base_ev = Network::shipped(variant);
    let ev = if int16 { Network::shipped(variant).with_int16() } else { Network::shipped(variant) };
    let all = cases(variant, n, 7);
    let origin = Instant::now();
    for ply in 0..=max_ply {
        let mut config = SearchConfig { ply, threads: 1, ..SearchConfig::default() };
        if let Some(k) = prune {
            config.prune = k;
        }
        if let Some(f) = filter {
            config.prune_filter = f;
        }
        // The baseline: `base=P,F` (leaves, filter), else no pruning in the
        // filter when `filter=` is given, none at all otherwise.
        let baseline = match (base, filter) {
            _ if int16 => config.clone(),
            (Some((p, f)), _) => SearchConfig { prune: p, prune_filter: f, ..config.clone() },
            (None, Some(_)) => SearchConfig { prune_filter: 0, ..config.clone() },
            (None, None) => SearchConfig { prune: 0, prune_filter: 0, ..config.clone() },
        };
        let compare_here = compare && (ply > 0 || int16);
        let (mut times, mut base_times) = (Vec::new(), Vec::new());
        let (mut nodes, mut base_nodes) = (0u64, 0u64);
        let mut sig = 0u64;
        let (mut differ, mut loss, mut cut) = (0, 0.0f64, 0);
        for (pos, d1, d2) in &all {
            let t = cpu_seconds(origin);
            let r = analyze(&ev, &config, pos, *d1, *d2);
            times.push(cpu_seconds(origin) - t);
            if compare_here {
                let t = cpu_seconds(origin);
                let full = analyze(&base_ev, &baseline, pos, *d1, *d2);
                base_times.push(cpu_seconds(origin) - t);
                base_nodes += full.nodes;
                let chosen = r.candidates[0].play.position;
                if full.candidates[0].play.position != chosen {
                    differ += 1;
                    match full.candidates.iter().find(|c| c.play.position == chosen && c.ply == ply) {
                        Some(c) => loss += (full.candidates[0].equity - c.equity) as f64,
                        None => cut += 1,
                    }
                }
            }
            nodes += r.nodes;
            let s = tavla::notation::format_play(&r.candidates[0].play.play);
            for b in s.bytes() {
                sig = sig.wrapping_mul(31).wrapping_add(b as u64);
            }
        }
        let total: f64 = times.iter().sum();
        times.sort_by(f64::total_cmp);
        println!(
            "{} ply {ply}: median {:.3} ms, total {:.3} s, nodes {nodes}, {:.0} nodes/s, plays signature {sig:016x}",
            variant.name(),
            times[times.len() / 2] * 1e3,
            total,
            nodes as f64 / total
        );
        if compare_here {
            base_times.sort_by(f64::total_cmp);
            println!(
                "  against the baseline: {differ} of {} choices differ, mean loss {:.5} a decision by the baseline's equities ({cut} outside its deep candidates); baseline median {:.3} ms, total {:.3} s, nodes {base_nodes}",
                all.len(),
                loss / all.len() as f64,
                base_times[base_times.len() / 2] * 1e3,
                base_times.iter().sum::<f64>()
            );
        }
    }
}
