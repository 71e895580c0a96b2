//! Times the loops that play games (TD training, rollouts, duels), to compare two builds:
//! `cargo run --release -p tavla-coach --example loops_speed` on each, alternating (here, beside
//! the trainer it times).
use coach::td::TdTrainer;
use std::sync::Arc;
use std::time::Instant;
use tavla::duel::{duel, EnginePlayer};
use tavla::eval::heuristic::Heuristic;
use tavla::nn::player::Nets;
use tavla::search::SearchConfig;
use tavla::variant::Rules;
use tavla::Position;

fn best_of<F: FnMut()>(mut f: F) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
        let v = rules.variant;
        let td = best_of(|| {
            let mut t = TdTrainer::new(rules, 64, 3, 0.1);
            t.train(200);
        });
        let ro = best_of(|| {
            tavla::rollout::rollout(Nets::shipped(v), &Position::start(rules), 360, 7, 1);
        });
        let h =
            EnginePlayer { evaluator: Arc::new(Heuristic::new(v)), config: SearchConfig { ply: 0, threads: 1, ..SearchConfig::default() } };
        let pairs = if v == tavla::variant::Variant::GulBara { 4 } else { 40 };
        let du = best_of(|| {
            duel(rules, [&h, &h], 0, pairs, 3, 1);
        });
        println!("{v:?}: td 200 games {td:.3} s, rollout 360 trials {ro:.3} s, duel {} games 0-ply {du:.3} s", 2 * pairs);
    }
}
