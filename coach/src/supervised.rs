//! Supervised training on searched targets: the stage after TD self-play.
//!
//! TD(0) moves each position towards the value after one sampled roll, so its
//! targets are noisy and only as good as the network's next guess. Here a set
//! of self-play positions is labelled by a search that averages over all 21
//! rolls (n-ply expectiminimax with the exact bear-off tables, see
//! [`tavla::search`]), and the network is trained on those labels for a few
//! epochs. Each round is one step of value iteration; the labels can come
//! from deeper search (or from rollouts) as machine time allows. This is the
//! shape of wildbg's pipeline, with cheap searched labels in place of long
//! rollouts.
//!
//! Every random choice (the shuffles) comes from the seed, and labelling is
//! split over threads by position, so a run is reproducible on any number of
//! threads.

use tavla::dice::Dice;
use tavla::eval::neural::Network;
use tavla::nn::encoding::encode;
use tavla::nn::{Mlp, OUTPUTS};
use tavla::parallel::par_map;
use tavla::position::Position;
use tavla::search::{self, Filter, SearchConfig};

/// The search that labels a position: `ply` deep, one thread (the positions
/// are shared out instead), a cache sized for that depth.
fn label_config(ply: u8) -> SearchConfig {
    SearchConfig {
        ply,
        root_filter: Filter { min: 3, keep: 8, margin: 0.16 },
        inner_filter: Filter { min: 1, keep: 2, margin: 0.04 },
        use_bearoff: true,
        threads: 1,
        // A 1-ply label evaluates each position once: a big cache is wasted work.
        cache_bits: if ply <= 1 { 8 } else { 14 },
        whole_cascades: true,
        cascade_width: 2_000,
        cancel: Default::default(),
        prune: search::DEFAULT_PRUNE,
        prune_filter: search::DEFAULT_PRUNE_FILTER,
    }
}

/// The five probabilities of every position (for its player on roll) by an
/// `ply`-deep search with `net`, on `threads` threads.
pub fn label(net: &Mlp, race: Option<&Mlp>, positions: &[Position], ply: u8, threads: usize) -> Vec<[f32; OUTPUTS]> {
    let evaluator = Network::from_mlp(net.clone(), "training").with_race(race.cloned());
    let config = label_config(ply);
    par_map(positions.len(), threads, || (), |_, k| probabilities(search::evaluate(&evaluator, &config, &positions[k]).0))
}

/// A searched evaluation as five probabilities, clamped to 0..1 (the sums
/// over 21 rolls can stray past 1 by a rounding error).
fn probabilities(e: tavla::eval::Evaluation) -> [f32; OUTPUTS] {
    e.to_array().map(|p| p.clamp(0.0, 1.0))
}

/// Trains `net` on (position, target) pairs by plain SGD for `epochs` passes
/// in a seeded random order, the learning rate falling linearly from `rate` to
/// `rate_end`. Returns the mean squared error over the five outputs measured
/// during each epoch (before each step).
pub fn train(
    net: &mut Mlp,
    positions: &[Position],
    targets: &[[f32; OUTPUTS]],
    epochs: usize,
    (rate, rate_end): (f32, f32),
    seed: u64,
) -> Vec<f64> {
    assert_eq!(positions.len(), targets.len(), "one target per position");
    let n = positions.len();
    let mut rng = Dice::training(seed);
    let mut order: Vec<usize> = (0..n).collect();
    let mut x = vec![0.0; net.inputs];
    let steps = (epochs * n).max(1) as f32;
    let mut step = 0usize;
    let mut losses = Vec::with_capacity(epochs);
    for _ in 0..epochs {
        shuffle(&mut order, &mut rng);
        let mut squared = 0.0f64;
        for &k in &order {
            encode(&positions[k], &mut x);
            let r = rate + (rate_end - rate) * step as f32 / steps;
            squared += net.train_step(&x, &targets[k], r) as f64;
            step += 1;
        }
        losses.push(squared / (n.max(1) * OUTPUTS) as f64);
    }
    losses
}

/// Mean squared error of `net` on (position, target) pairs, without training.
pub fn error(net: &Mlp, positions: &[Position], targets: &[[f32; OUTPUTS]]) -> f64 {
    let mut x = vec![0.0; net.inputs];
    let mut hidden = Vec::with_capacity(net.hidden);
    let mut squared = 0.0f64;
    for (pos, target) in positions.iter().zip(targets) {
        encode(pos, &mut x);
        let out = net.forward(&x, &mut hidden);
        squared += out.iter().zip(target).map(|(o, t)| ((o - t) * (o - t)) as f64).sum::<f64>();
    }
    squared / (positions.len().max(1) * OUTPUTS) as f64
}

/// Fisher-Yates with the training generator.
fn shuffle(order: &mut [usize], rng: &mut Dice) {
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::td::TdTrainer;
    use tavla::nn::player::selfplay_positions;
    use tavla::variant::Rules;

    #[test]
    fn labels_do_not_depend_on_threads_and_training_fits_them() {
        let rules = Rules::backgammon();
        let mut trainer = TdTrainer::new(rules, 16, 4, 0.1);
        trainer.train(200);
        let positions = selfplay_positions(&trainer.net, rules, 300, 8);
        let one = label(&trainer.net, None, &positions, 1, 1);
        let three = label(&trainer.net, None, &positions, 1, 3);
        assert_eq!(one, three);
        // The 1-ply labels differ from the network's own 0-ply values: there is
        // something to learn.
        let mut net = trainer.net.clone();
        let before = error(&net, &positions, &one);
        assert!(before > 1e-4, "{before}");
        let losses = train(&mut net, &positions, &one, 30, (0.5, 0.1), 3);
        let after = error(&net, &positions, &one);
        assert!(after < before * 0.7, "before {before}, after {after}, {losses:?}");
        // Same seed, same network.
        let mut again = trainer.net.clone();
        train(&mut again, &positions, &one, 30, (0.5, 0.1), 3);
        assert_eq!(again, net);
    }
}
