//! Rollout speed and the variance reduction's gain on fixed positions:
//! `cargo run --release --example rollout_speed -- VARIANT TRIALS THREADS [vr] [ply=N] [truncate=N] [positions=N]`.
//! Prints one line per position: trials, seconds, trials per second, the
//! cubeless equity and its standard error.
use std::time::Instant;
use tavla::eval::neural::Network;
use tavla::nn::player::selfplay_positions;
use tavla::rollout::analysis::{rollout_position, RolloutSettings};
use tavla::rollout::cubeful::CubePolicy;
use tavla::search::SearchConfig;
use tavla::variant::{Rules, Variant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = Variant::parse(args.first().map_or("backgammon", |s| s)).expect("a variant");
    let trials: usize = args.get(1).map_or(360, |s| s.parse().expect("trials"));
    let threads: usize = args.get(2).map_or(1, |s| s.parse().expect("threads"));
    let opt = |name: &str| args.iter().find_map(|a| a.strip_prefix(&format!("{name}=")).map(|v| v.parse::<u32>().expect("a number")));
    let settings = RolloutSettings {
        trials,
        threads,
        seed: 1,
        variance_reduction: args.iter().any(|a| a == "vr"),
        checker_ply: opt("ply").unwrap_or(0) as u8,
        truncate: opt("truncate"),
        ..RolloutSettings::default()
    };
    let count = opt("positions").unwrap_or(4) as usize;
    let rules = Rules::new(variant);
    // Fixed middle-game positions: self-play of the shipped network, seed 17.
    let positions = selfplay_positions(tavla::nn::shipped::network(variant), rules, 40 * count, 17);
    let ev = Network::shipped(variant);
    let engine = SearchConfig { ply: 0, threads: 1, ..SearchConfig::default() };
    let policy = CubePolicy::of(variant);
    let (mut total_trials, mut total_seconds) = (0, 0.0);
    for k in 0..count {
        let pos = positions[40 * k + 20];
        if args.iter().any(|a| a == "old") {
            // The training rollout (tavla::rollout::rollout): 0-ply nets, cascades step by step.
            let t = Instant::now();
            let r = tavla::rollout::rollout(tavla::nn::player::Nets::shipped(variant), &pos, trials, 1, threads);
            let s = t.elapsed().as_secs_f64();
            println!(
                "{variant:?} position {k} (training rollout): {} trials {s:.2} s {:.1} trials/s equity {:+.4} se {:.4}",
                r.trials,
                r.trials as f64 / s,
                r.equity,
                r.equity_error
            );
        }
        let t = Instant::now();
        let r = rollout_position(&ev, &engine, &policy, &pos, &settings, None).expect("a rollout");
        let s = t.elapsed().as_secs_f64();
        total_trials += r.trials;
        total_seconds += s;
        println!(
            "{variant:?} position {k}: {} trials {s:.2} s {:.1} trials/s equity {:+.4} se {:.4}",
            r.trials,
            r.trials as f64 / s,
            r.cubeless.mean,
            r.cubeless.error
        );
    }
    println!("total: {total_trials} trials {total_seconds:.2} s {:.1} trials/s", total_trials as f64 / total_seconds);
}
