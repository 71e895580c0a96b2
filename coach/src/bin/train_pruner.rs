//! `cargo run --release -p tavla-coach --bin train_pruner -- [variant] [games 600] [hidden 32] [epochs 6] [out weights/<variant>-prune.tnn]`:
//! a pruning network trained on the shipped full network (see `coach::pruner`).

use coach::pruner::train_pruner;
use tavla::eval::neural::Network;
use tavla::variant::Variant;

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
    let pruner = train_pruner(&Network::shipped(variant), variant, games, hidden, epochs);
    println!("{} training positions, {} held out", pruner.train_positions, pruner.held_out_positions);
    println!("training error by epoch: {:?}", pruner.losses);
    println!("held-out error: {:.6}", pruner.held_out_error);
    std::fs::write(&out, pruner.net.to_bytes()).expect("write the network");
    println!("wrote {out}");
}
