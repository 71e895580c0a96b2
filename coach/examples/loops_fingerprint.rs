//! Prints fingerprints of what the game loops produce (TD training, TD(lambda), the self-play
//! sampler, play against random, rollouts, duels), to compare two builds:
//! `cargo run --release -p tavla-coach --example loops_fingerprint` on each and `diff` the outputs.
use coach::td::{score_against_random, TdTrainer};
use std::sync::Arc;
use tavla::duel::{duel, EnginePlayer, RandomPlayer};
use tavla::eval::heuristic::Heuristic;
use tavla::nn::player::{selfplay_positions, Nets};
use tavla::search::SearchConfig;
use tavla::variant::Rules;
use tavla::Position;

fn hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn main() {
    for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
        let v = rules.variant;
        let mut t = TdTrainer::new(rules, 16, 3, 0.1);
        let stats = t.train(60);
        println!("{v:?} td: {:x} turns {}", hash(&t.net.to_bytes()), stats.turns);
        let mut t = TdTrainer::new(rules, 16, 3, 0.1);
        t.trace_decay = 0.7;
        t.train(30);
        println!("{v:?} td-lambda: {:x}", hash(&t.net.to_bytes()));
        let net = tavla::nn::shipped::network(v);
        let sample = selfplay_positions(net, rules, 300, 5);
        let text: String = sample.iter().map(|p| format!("{p:?}")).collect();
        println!("{v:?} selfplay: {:x}", hash(text.as_bytes()));
        println!("{v:?} vs random: {:.6}", score_against_random(net, rules, 40, 9));
        let r = tavla::rollout::rollout(Nets::shipped(v), &Position::start(rules), 144, 7, 2);
        println!("{v:?} rollout: {:?} {:.6}", r.probabilities, r.equity);
        let h =
            EnginePlayer { evaluator: Arc::new(Heuristic::new(v)), config: SearchConfig { ply: 0, threads: 1, ..SearchConfig::default() } };
        let recs = duel(rules, [&h, &RandomPlayer], 0, 6, 3, 2);
        println!("{v:?} duel h/random: {:?}", recs.iter().map(|r| r.points).collect::<Vec<_>>());
        let n = EnginePlayer {
            evaluator: Arc::new(tavla::eval::neural::Network::shipped(v)),
            config: SearchConfig { ply: 0, threads: 1, ..SearchConfig::default() },
        };
        let recs = duel(rules, [&n, &h], 0, 8, 4, 2);
        println!(
            "{v:?} duel net/h: {:?} decisions {:?}",
            recs.iter().map(|r| r.points).collect::<Vec<_>>(),
            recs.iter().map(|r| r.decisions).collect::<Vec<_>>()
        );
    }
}
