//! Gul bara: the engine that searches cascades as whole turns against the
//! same engine playing them step by step (the engine before whole-cascade
//! search: each step the best by 0-ply as if the turn ended there, doubles
//! searched as ordinary doubles), duplicate dice, with a 95% interval.
//!
//! ```sh
//! cargo run --release --example cascade_duel -- PLY PAIRS SEED THREADS
//! cargo run --release --example cascade_duel -- 0 5000 1 2
//! ```

use std::sync::Arc;

use tavla::duel::{duel, EnginePlayer};
use tavla::eval::neural::Network;
use tavla::search::SearchConfig;
use tavla::variant::{Rules, Variant};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("numbers: PLY PAIRS SEED THREADS")).collect();
    let (ply, pairs, seed, threads) = match args[..] {
        [p, n, s, t] => (p as u8, n as usize, s, t as usize),
        _ => panic!("usage: cascade_duel PLY PAIRS SEED THREADS"),
    };
    let net: Arc<dyn tavla::eval::Evaluator> = Arc::new(Network::shipped(Variant::GulBara));
    let config = SearchConfig { ply, threads: 1, ..SearchConfig::default() };
    let whole = EnginePlayer { evaluator: net.clone(), config: config.clone() };
    let steps = EnginePlayer { evaluator: net, config: SearchConfig { whole_cascades: false, ..config } };
    let t = std::time::Instant::now();
    let records = duel(Rules::gulbara(), [&whole, &steps], 0, pairs, seed, threads);
    // Pair k is games 2k and 2k+1 (same dice, seats swapped).
    let per_pair: Vec<f64> = records.chunks(2).map(|g| g.iter().map(|r| r.points as f64).sum::<f64>() / 2.0).collect();
    let n = per_pair.len() as f64;
    let mean = per_pair.iter().sum::<f64>() / n;
    let var = per_pair.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let seconds: [f64; 2] = records.iter().fold([0.0, 0.0], |s, r| [s[0] + r.seconds[0], s[1] + r.seconds[1]]);
    let decisions: [u32; 2] = records.iter().fold([0, 0], |s, r| [s[0] + r.decisions[0], s[1] + r.decisions[1]]);
    println!(
        "gulbara {ply}-ply, {} games: whole cascades {:+.3} +- {:.3} points a game against step by step",
        records.len(),
        mean,
        1.96 * (var / n).sqrt()
    );
    println!(
        "time per decision: whole {:.3} ms, steps {:.3} ms; wall {:.1} s",
        1000.0 * seconds[0] / decisions[0].max(1) as f64,
        1000.0 * seconds[1] / decisions[1].max(1) as f64,
        t.elapsed().as_secs_f64()
    );
}
