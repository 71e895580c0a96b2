//! Trains a variant's pruning network (`weights/<variant>-prune.tnn`): a
//! small network on the raw inputs (no hand-made features) that ranks the
//! plays of a roll at the leaves of the search, so that the full network
//! judges only the best few (see `SearchConfig::prune`).
//!
//! Data: seeded self-play of the full network at 0-ply (one play in ten
//! chosen at random, for variety); at every contact turn, every distinct play
//! of the roll, labelled by the full network's 0-ply probabilities of the
//! position after it (the opponent on roll), which are what the pruner
//! stands in for. Training: plain SGD ([`crate::supervised::train`]),
//! seeded; the last game in ten is held out.
//!
//! ```text
//! cargo run --release -p tavla-coach --bin train_pruner -- [variant] [games 600] [hidden 32] [epochs 6] [out weights/<variant>-prune.tnn]
//! ```
//!
//! (or `python -m tavla_train prune`). The inputs are the variant's raw ones
//! ([`raw_input_count`]).

use tavla::dice::Dice;
use tavla::eval::neural::Network;
use tavla::eval::{game_result, Evaluator};
use tavla::movegen::MoveGen;
use tavla::nn::encoding::raw_input_count;
use tavla::nn::Mlp;
use tavla::position::Position;
use tavla::variant::{Rules, Variant};

use crate::supervised::{error, train};

/// A trained pruner and how it fits.
pub struct Pruner {
    pub net: Mlp,
    /// The training error of each epoch.
    pub losses: Vec<f64>,
    /// The error on the held-out games' positions.
    pub held_out_error: f64,
    pub train_positions: usize,
    pub held_out_positions: usize,
}

/// Positions, each with its target probabilities.
type Labelled = Vec<(Position, [f32; 5])>;

/// Positions after every play of each contact roll in `games` self-play
/// games of `full`, each with `full`'s 0-ply probabilities: (training set,
/// held-out set, the last game in ten).
fn pruner_data(full: &Network, variant: Variant, games: usize) -> (Labelled, Labelled) {
    let rules = Rules::new(variant);
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
    (train_set, held_out)
}

/// Trains a pruner of `hidden` units for `variant` on `games` self-play games
/// of `full`, `epochs` passes (every choice seeded: the same arguments give
/// the same network).
pub fn train_pruner(full: &Network, variant: Variant, games: usize, hidden: usize, epochs: usize) -> Pruner {
    let (train_set, held_out) = pruner_data(full, variant, games);
    let (positions, targets): (Vec<Position>, Vec<[f32; 5]>) = train_set.into_iter().unzip();
    let (held_positions, held_targets): (Vec<Position>, Vec<[f32; 5]>) = held_out.into_iter().unzip();
    let mut net = Mlp::new(raw_input_count(variant), hidden, 17);
    let losses = train(&mut net, &positions, &targets, epochs, (0.1, 0.01), 23);
    let held_out_error = error(&net, &held_positions, &held_targets);
    Pruner { net, losses, held_out_error, train_positions: positions.len(), held_out_positions: held_positions.len() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pruner_is_reproducible_and_learns_the_full_networks_values() {
        let full = Network::shipped(Variant::Nardy);
        let a = train_pruner(&full, Variant::Nardy, 10, 4, 3);
        let b = train_pruner(&full, Variant::Nardy, 10, 4, 3);
        assert_eq!(a.net, b.net);
        assert!(a.train_positions > 100 && a.held_out_positions > 10, "{} {}", a.train_positions, a.held_out_positions);
        assert!(a.losses.last() < a.losses.first(), "{:?}", a.losses);
    }
}
