//! The search benchmark (`tavla bench`): a fixed set of positions per
//! variant, each analysed at fixed plies with the heuristic evaluator (or
//! another, `tavla bench --evaluator network`). The node count of every
//! search is deterministic, so a change in it means a change in search
//! behaviour; the time gives nodes per second. The totals ([`signature`])
//! are pinned in this module's tests, as Stockfish pins its bench.

use std::time::Instant;

use crate::dice::Dice;
use crate::error::Result;
use crate::eval::heuristic::Heuristic;
use crate::eval::{evaluator_by_name, game_result, Evaluator};
use crate::movegen::MoveGen;
use crate::position::Position;
use crate::search::{analyze, SearchConfig};
use crate::variant::{Rules, Variant};

/// One benchmark search.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub variant: Variant,
    pub position: usize,
    pub dice: (u8, u8),
    pub ply: u8,
    pub nodes: u64,
    pub seconds: f64,
    pub best: String,
}

/// The benchmark positions of a variant: the start and the positions after
/// 8, 16 and 24 turns of a seeded random game (fixed, since the dice and the
/// random choices are seeded), each with a roll.
pub fn bench_positions(variant: Variant) -> Vec<(Position, u8, u8)> {
    let rules = Rules::new(variant);
    let mut rng = Dice::duel(2024);
    let mut movegen = MoveGen::new();
    let mut plays = Vec::new();
    let mut pos = Position::start(rules);
    let mut out = vec![(pos, 3, 1)];
    for turn in 1..=24 {
        let (d1, d2) = (rng.die(), rng.die());
        movegen.legal_moves(&pos, d1, d2, &mut plays);
        let next = plays[rng.below(plays.len())].position;
        if game_result(&next).is_some() {
            break;
        }
        pos = next.flip();
        if turn % 8 == 0 {
            let (a, b) = (rng.die(), rng.die());
            out.push((pos, a, b));
        }
    }
    out
}

/// Runs the benchmark for the variants and plies given (heuristic evaluator).
pub fn run_bench(variants: &[Variant], plies: &[u8], threads: usize) -> Vec<BenchRow> {
    run_bench_with(variants, plies, threads, |v| Box::new(Heuristic::new(v)))
}

/// [`run_bench`] with the evaluator named (see [`evaluator_by_name`]).
pub fn run_bench_named(variants: &[Variant], plies: &[u8], threads: usize, evaluator: &str) -> Result<Vec<BenchRow>> {
    for &v in variants {
        evaluator_by_name(evaluator, v)?;
    }
    Ok(run_bench_with(variants, plies, threads, |v| evaluator_by_name(evaluator, v).expect("checked above")))
}

/// The bench's signature: its total node count.
pub fn signature(rows: &[BenchRow]) -> u64 {
    rows.iter().map(|r| r.nodes).sum()
}

fn run_bench_with(variants: &[Variant], plies: &[u8], threads: usize, evaluator: impl Fn(Variant) -> Box<dyn Evaluator>) -> Vec<BenchRow> {
    let mut rows = Vec::new();
    for &variant in variants {
        let evaluator = evaluator(variant);
        let evaluator = evaluator.as_ref();
        for (k, (pos, d1, d2)) in bench_positions(variant).into_iter().enumerate() {
            for &ply in plies {
                let config = SearchConfig { ply, threads, ..SearchConfig::default() };
                let t = Instant::now();
                let r = analyze(evaluator, &config, &pos, d1, d2);
                rows.push(BenchRow {
                    variant,
                    position: k,
                    dice: (d1, d2),
                    ply,
                    nodes: r.nodes,
                    seconds: t.elapsed().as_secs_f64(),
                    best: crate::notation::format_play(&r.candidates[0].play.play),
                });
            }
        }
    }
    rows
}

/// Static evaluations per second of an evaluator (one thread), over the
/// benchmark positions and every position one roll away from them, for at
/// least `min_seconds`. Exact shortcuts (tables, finished games) are not used.
pub fn eval_rate(evaluator: &dyn Evaluator, variant: Variant, min_seconds: f64) -> f64 {
    let mut positions = Vec::new();
    let mut movegen = MoveGen::new();
    let mut plays = Vec::new();
    for (pos, _, _) in bench_positions(variant) {
        for (d1, d2, _) in crate::dice::rolls() {
            movegen.legal_moves(&pos, d1, d2, &mut plays);
            positions.extend(plays.iter().map(|m| m.position.flip()).filter(|p| game_result(p).is_none()));
        }
    }
    let t = Instant::now();
    let mut evaluations = 0usize;
    let mut sink = 0.0f32;
    while t.elapsed().as_secs_f64() < min_seconds {
        for p in &positions {
            sink += evaluator.evaluate(p).win;
        }
        evaluations += positions.len();
    }
    std::hint::black_box(sink);
    evaluations as f64 / t.elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tavla bench --plies 0 1 2` per variant (backgammon, nardy, gul bara).
    const HEURISTIC_SIGNATURES: [u64; 3] = [267_618, 163_498, 5_158_244];
    /// `tavla bench --plies 0 1 2 --evaluator network` per variant.
    const NETWORK_SIGNATURES: [u64; 3] = [69_002, 51_498, 2_869_855];

    #[test]
    fn bench_is_deterministic() {
        let a = run_bench(&[Variant::Backgammon, Variant::Nardy, Variant::GulBara], &[0, 1], 1);
        let b = run_bench(&[Variant::Backgammon, Variant::Nardy, Variant::GulBara], &[0, 1], 2);
        assert_eq!(a.len(), b.len());
        assert!(a.len() >= 6);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((x.nodes, &x.best), (y.nodes, &y.best));
        }
    }

    /// The pinned signatures: a change of search behaviour (filters, pruning,
    /// move generation, evaluation) changes them, so it never passes as a
    /// change of speed. Update them only for a change meant to alter the search.
    #[test]
    fn bench_signatures_are_pinned() {
        let all = [Variant::Backgammon, Variant::Nardy, Variant::GulBara];
        let heuristic: Vec<u64> = all.iter().map(|&v| signature(&run_bench(&[v], &[0, 1, 2], 0))).collect();
        assert_eq!(heuristic, HEURISTIC_SIGNATURES);
        // The shipped networks, with the backgammon pruning network at the leaves.
        let network: Vec<u64> = all.iter().map(|&v| signature(&run_bench_named(&[v], &[0, 1, 2], 0, "network").unwrap())).collect();
        assert_eq!(network, NETWORK_SIGNATURES);
        assert!(run_bench_named(&[Variant::Nardy], &[0], 1, "pubeval").is_err());
    }
}
