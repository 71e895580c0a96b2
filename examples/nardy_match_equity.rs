//! Match equity for long nardy and gul bara from the engine's own games.
//!
//! ```text
//! cargo run --release --example nardy_match_equity -- rates [games] [seed] [threads]
//! cargo run --release --example nardy_match_equity -- matches nardy|gulbara [matches] [seed] [threads]
//! ```
//!
//! `rates`: self-play games from the start with the shipped networks at
//! 0-ply (cubeless; stratified first roll), per variant: the starter's
//! winning share and the share of won games that are mars (and, with the
//! `koks` option on, koks), and the key cells of the table Zadeh's model
//! makes from that mars rate (`MatchEquityTable::from_gammon_rate`).
//!
//! `matches`: self-play 7-point matches from a few scores, both sides the
//! networks at 0-ply with the variant's shipped cube policy (0-ply cube
//! decisions, the shipped efficiencies and table; checker play cubeless),
//! each game's starter drawn at random. The share of matches won by the
//! first player, with its 95% (Wilson) interval, against the shipped table's
//! prediction.

use std::time::Instant;
use tavla::cube::MatchEquityTable;
use tavla::nn::player::Nets;
use tavla::rollout::cubeful::{selfplay_matches, trajectories, CubePolicy};
use tavla::{Position, Rules, Variant};

fn arg<T: std::str::FromStr>(args: &[String], k: usize, default: T) -> T {
    args.get(k).and_then(|a| a.parse().ok()).unwrap_or(default)
}

fn variant(name: &str) -> Variant {
    match name {
        "nardy" => Variant::Nardy,
        "gulbara" | "gul_bara" => Variant::GulBara,
        other => {
            eprintln!("variant must be nardy or gulbara, not {other:?}");
            std::process::exit(2);
        }
    }
}

/// A share and its standard error.
fn share(k: usize, n: usize) -> (f64, f64) {
    let p = k as f64 / n.max(1) as f64;
    (p, (p * (1.0 - p) / n.max(1) as f64).sqrt())
}

fn rates(games: usize, seed: u64, threads: usize) {
    for variant in [Variant::Nardy, Variant::GulBara] {
        for koks in [false, true] {
            let clock = Instant::now();
            let mut rules = Rules::new(variant);
            rules.koks = koks;
            // Koks changes only how a finished game scores: a quarter of the games tell its rate.
            let count = if koks { games / 4 } else { games };
            let played = trajectories(Nets::shipped(variant), &Position::start(rules), 0, count, seed, threads);
            let finished: Vec<i32> = played.iter().map(|g| g.starter_points).filter(|&p| p != 0).collect();
            let n = finished.len();
            let (starter, starter_se) = share(finished.iter().filter(|&&p| p > 0).count(), n);
            let (mars, mars_se) = share(finished.iter().filter(|&&p| p.abs() >= 2).count(), n);
            let (triple, triple_se) = share(finished.iter().filter(|&&p| p.abs() >= 3).count(), n);
            let turns: usize = played.iter().map(|g| g.turns.len()).sum();
            println!(
                "{variant:?} koks={koks}: {n} games ({:.0} turns a game, {:.1} s): starter wins {starter:.4} +- {starter_se:.4}, \
                 mars or more {mars:.4} +- {mars_se:.4}, koks {triple:.4} +- {triple_se:.4}",
                turns as f64 / count as f64,
                clock.elapsed().as_secs_f64()
            );
            if !koks {
                let table = MatchEquityTable::from_gammon_rate("generated", mars, 64).expect("a rate in [0, 1)");
                print_cells(&table);
            }
        }
    }
    print!("Kazaross-XG2 for comparison: ");
    print_cells(MatchEquityTable::kazaross_xg2());
}

fn print_cells(table: &MatchEquityTable) {
    let cells = [(2, 1), (3, 1), (2, 2), (3, 2), (4, 2), (5, 3), (3, 3), (5, 5), (7, 7)];
    let text: Vec<String> = cells.iter().map(|&(a, b)| format!("{a}a-{b}a {:.4}", table.mwc(a, b, false))).collect();
    println!("    {}; post-Crawford 2a {:.4}", text.join(", "), table.mwc(2, 1, true));
}

fn matches(variant: Variant, count: usize, seed: u64, threads: usize) {
    let policy = CubePolicy::of(variant);
    println!("{variant:?}, table {}, efficiencies {:?}", policy.met.name(), policy.efficiencies);
    let length = 7;
    // (score of the first player, of the second, Crawford game next)
    let scores = [([4, 2], false), ([5, 3], false), ([5, 4], false), ([3, 5], false), ([6, 4], true), ([6, 4], false)];
    for (k, &(score, crawford)) in scores.iter().enumerate() {
        let clock = Instant::now();
        let stats = selfplay_matches(
            Nets::shipped(variant),
            Rules::new(variant),
            length,
            score,
            crawford,
            count,
            seed.wrapping_add(k as u64),
            threads,
            &policy,
        )
        .expect("valid match scores");
        let (p, lo, hi) = stats.mwc();
        let away = [length - score[0], length - score[1]].map(|a| a as i32);
        let post = !crawford && away.contains(&1);
        let predicted = policy.met.mwc(away[0], away[1], post);
        let kazaross = MatchEquityTable::kazaross_xg2().mwc(away[0], away[1], post);
        let phase = if crawford {
            " Crawford"
        } else if away.contains(&1) {
            " post-Crawford"
        } else {
            ""
        };
        println!(
            "  {}a-{}a{phase} ({}-{} of {length}): won {} of {} ({:.1} games a match): {p:.4} [{lo:.4}, {hi:.4}], table {predicted:.4}{} (Kazaross-XG2 {kazaross:.4}; {:.0} s)",
            away[0],
            away[1],
            score[0],
            score[1],
            stats.wins,
            stats.matches,
            stats.games as f64 / stats.matches as f64,
            if (lo..=hi).contains(&predicted) { "" } else { " OUTSIDE" },
            clock.elapsed().as_secs_f64()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("rates") => rates(arg(&args, 2, 20_000), arg(&args, 3, 7), arg(&args, 4, 2)),
        Some("matches") => {
            matches(variant(args.get(2).map_or("nardy", String::as_str)), arg(&args, 3, 2000), arg(&args, 4, 11), arg(&args, 5, 2))
        }
        _ => {
            eprintln!("usage: nardy_match_equity rates [games] [seed] [threads] | matches nardy|gulbara [matches] [seed] [threads]");
            std::process::exit(2);
        }
    }
}
