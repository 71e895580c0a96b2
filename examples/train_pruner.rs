//! Trains a variant's pruning network (`weights/<variant>-prune.tnn`): a
//! small network on the raw inputs (no hand-made features) that ranks the
//! plays of a roll at the leaves of the search, so that the full network
//! judges only the best few (see `SearchConfig::prune`).
//!
//! Data: seeded self-play of the shipped network at 0-ply (one play in ten
//! chosen at random, for variety); at every contact turn, every distinct play
//! of the roll, labelled by the full network's 0-ply probabilities of the
//! position after it (the opponent on roll), which are what the pruner
//! stands in for. Training: plain SGD (`tavla::nn::supervised::train`),
//! seeded; the last game in ten is held out.
//!
//!     cargo run --release --example train_pruner -- [variant] [games 600] [hidden 32] [epochs 6] [out weights/<variant>-prune.tnn]
//!
//! The variant (backgammon when left out) may be given first; the inputs
//! are the variant's raw ones ([`raw_input_count`]).

use tavla::dice::Dice;
use tavla::eval::neural::Network;
use tavla::eval::{game_result, Evaluator};
use tavla::movegen::MoveGen;
use tavla::nn::encoding::raw_input_count;
use tavla::nn::supervised::{error, train};
use tavla::nn::Mlp;
use tavla::position::Position;
use tavla::variant::{Rules, Variant};

fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    let variant = match args.get(1).map(|a| Variant::parse(a)) {
        Some(Ok(v)) => {
            args.remove(1);
            v
        }
        _ => Variant::Backgammon,
    };
    let arg = |k: usize, default: &str| args.get(k).cloned().unwrap_or_else(|| default.to_string());
    let games: usize = arg(1, "600").parse().expect("games");
    let hidden: usize = arg(2, "32").parse().expect("hidden");
    let epochs: usize = arg(3, "6").parse().expect("epochs");
    let out = arg(4, &format!("weights/{}-prune.tnn", variant.name()));
    let rules = Rules::new(variant);
    let full = Network::shipped(variant);
    let mut rng = Dice::duel(4242);
    let mut movegen = MoveGen::new();
    let mut plays = Vec::new();
    let (mut train_set, mut held_out) = (Vec::new(), Vec::new());
    let mut evaluations = Vec::new();
    for game in 0..games {
        let mut pos = Position::start(rules);
        let set = if game % 10 == 9 { &mut held_out } else { &mut train_set };
        for _ in 0..400 {
            let (d1, d2) = (rng.die(), rng.die());
            movegen.legal_moves(&pos, d1, d2, &mut plays);
            let children: Vec<Position> = plays.iter().map(|m| m.position.flip()).collect();
            if children.iter().any(|c| c.is_race() || game_result(c).is_some()) {
                // Past contact the pruner is not used: play on by the first play.
                full.evaluate_batch(&children[..1], &mut evaluations);
            } else {
                full.evaluate_batch(&children, &mut evaluations);
                for (c, e) in children.iter().zip(&evaluations) {
                    set.push((*c, e.to_array()));
                }
            }
            let best = (0..evaluations.len()).max_by(|&a, &b| evaluations[b].equity().total_cmp(&evaluations[a].equity())).expect("a play");
            let pick = if rng.below(10) == 0 { rng.below(plays.len()) } else { best };
            let next = plays[pick].position;
            if game_result(&next).is_some() {
                break;
            }
            pos = next.flip();
        }
    }
    let (positions, targets): (Vec<Position>, Vec<[f32; 5]>) = train_set.into_iter().unzip();
    let (held_positions, held_targets): (Vec<Position>, Vec<[f32; 5]>) = held_out.iter().copied().unzip();
    println!("{} training positions, {} held out", positions.len(), held_positions.len());
    let mut net = Mlp::new(raw_input_count(variant), hidden, 17);
    let losses = train(&mut net, &positions, &targets, epochs, (0.1, 0.01), 23);
    println!("training error by epoch: {losses:?}");
    println!("held-out error: {:.6}", error(&net, &held_positions, &held_targets));
    std::fs::write(&out, net.to_bytes()).expect("write the network");
    println!("wrote {out}");
}
