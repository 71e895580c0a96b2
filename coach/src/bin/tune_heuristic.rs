//! Hand-tuning aid for the backgammon heuristic: coordinate search over the
//! weights, each judged by a duplicate-dice duel against pubeval at 0-ply
//! (the same dice for every trial).
//! `cargo run --release -p tavla-coach --bin tune_heuristic -- GAMES SWEEPS`
use std::sync::Arc;
use tavla::duel::{duel, EnginePlayer};
use tavla::eval::heuristic::{BackgammonWeights, Heuristic};
use tavla::eval::pubeval::PubEval;
use tavla::search::SearchConfig;
use tavla::{Rules, Variant};

fn score(w: BackgammonWeights, games: usize) -> f64 {
    let config = SearchConfig { ply: 0, threads: 1, ..SearchConfig::default() };
    let pubeval = EnginePlayer { evaluator: Arc::new(PubEval), config: config.clone() };
    let mut h = Heuristic::new(Variant::Backgammon);
    h.weights = w;
    let player = EnginePlayer { evaluator: Arc::new(h), config };
    let r = duel(Rules::backgammon(), [&player, &pubeval], 0, games / 2, 11, 2);
    r.iter().map(|g| g.points as f64).sum::<f64>() / r.len() as f64
}

fn fields(w: &mut BackgammonWeights) -> [(&'static str, &mut f32); 13] {
    [
        ("race", &mut w.race),
        ("contact_race", &mut w.contact_race),
        ("home_point", &mut w.home_point),
        ("outfield_point", &mut w.outfield_point),
        ("anchor", &mut w.anchor),
        ("prime", &mut w.prime),
        ("bar", &mut w.bar),
        ("bar_per_home_point", &mut w.bar_per_home_point),
        ("direct_shot", &mut w.direct_shot),
        ("indirect_shot", &mut w.indirect_shot),
        ("own_blot", &mut w.own_blot),
        ("gammon_slope", &mut w.gammon_slope),
        ("gammon_offset", &mut w.gammon_offset),
    ]
}

fn main() {
    let games: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let sweeps: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let mut best = BackgammonWeights::default();
    let mut best_score = score(best, games);
    println!("start {best_score:+.3}");
    for _ in 0..sweeps {
        for k in 0..13 {
            for factor in [1.5f32, 0.67] {
                let mut trial = best;
                let (name, value) = fields(&mut trial).into_iter().nth(k).unwrap();
                *value *= factor;
                let s = score(trial, games);
                if s > best_score + 0.02 {
                    println!("{name} x{factor}: {s:+.3}");
                    best = trial;
                    best_score = s;
                    break;
                }
            }
        }
    }
    println!("{best:?}\nfinal {best_score:+.3}");
}
