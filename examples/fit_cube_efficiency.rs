//! Fits the cube efficiencies of long nardy or gul bara against cubeful
//! rollouts (money play).
//!
//! ```text
//! cargo run --release --example fit_cube_efficiency -- nardy [per_class] [trials] [seed] [threads]
//! ```
//!
//! Positions: self-play positions of the shipped network
//! (`selfplay_positions`), up to `per_class` of each class (contact, race,
//! bear-off). Each is rolled out `trials` times with the networks at 0-ply
//! (the same games scored under every cube state, see
//! `tavla::rollout::cubeful`), and the rollout's "no double" value under three
//! money cubes (centered; 2, mine; 2, the opponent's) is compared with
//! Janowski's 0-ply value `(1 - x) dead + x live` on the same trials'
//! cubeless probabilities, so the comparison isolates the efficiency `x`.
//! Since the value is linear in `x`, the least-squares `x` of a class is
//! closed-form; races also get a line in the player on roll's pips. Standard
//! errors are cluster-robust (the three cubes of a position share games).
//!
//! The rollouts' own cube decisions use an efficiency too: the fit starts
//! from the provisional values and is redone with the fitted ones (the games
//! are the same, only their scoring changes), `ITERATIONS` times.

use std::time::Instant;
use tavla::cube::efficiency::{classify, Efficiencies, PositionClass};
use tavla::cube::janowski::{self, Chances};
use tavla::cube::state::{CubeState, Owner};
use tavla::cube::MatchEquityTable;
use tavla::eval::Evaluation;
use tavla::nn::player::{selfplay_positions, NetPlayer, Nets};
use tavla::position::ME;
use tavla::rollout::cubeful::{cubeful_value, cubeless_result, trajectories, CubePolicy, FirstDecision, Trajectory, MID_GAME};
use tavla::{Position, Rules, Variant};

const ITERATIONS: usize = 3;
const CLASSES: [PositionClass; 3] = [PositionClass::Contact, PositionClass::Race, PositionClass::BearOff];

fn states() -> [CubeState; 3] {
    let money = CubeState::money();
    [money, CubeState { value: 2, owner: Owner::Me, ..money }, CubeState { value: 2, owner: Owner::Opponent, ..money }]
}

/// A rolled-out position: its class, pips, and the games.
struct Sample {
    class: PositionClass,
    pips: u32,
    chances: Chances,
    games: Vec<Trajectory>,
}

/// One (position, cube) comparison: `y = rollout - dead`, `d = live - dead`,
/// so that `y ~ x d`.
#[derive(Clone, Copy)]
struct Point {
    cluster: usize,
    /// Which of [`states`].
    cube: usize,
    pips: f64,
    y: f64,
    d: f64,
    error: f64,
}

fn arg<T: std::str::FromStr>(args: &[String], k: usize, default: T) -> T {
    args.get(k).and_then(|a| a.parse().ok()).unwrap_or(default)
}

/// Up to `per_class` positions of each class from a self-play pool.
fn pick_positions(variant: Variant, per_class: usize, seed: u64) -> Vec<Position> {
    let net = tavla::nn::shipped::network(variant);
    let mut picked: Vec<Position> = Vec::new();
    // Races and bear-offs are rarer: draw pools until each class is full
    // (or the pools stop giving more).
    for pool_seed in seed..seed + 20 {
        let pool = selfplay_positions(net, Rules::new(variant), 4000, pool_seed);
        for pos in pool {
            let class = classify(&pos);
            // A position all but decided says nothing about the cube (its
            // live and dead values agree): leave it out.
            let win = NetPlayer::with_nets(Nets::shipped(variant)).value(&pos)[0];
            if !(0.05..=0.95).contains(&win) {
                continue;
            }
            let have = picked.iter().filter(|p| classify(p) == class).count();
            if CLASSES.contains(&class) && have < per_class {
                picked.push(pos);
            }
        }
        if CLASSES.iter().all(|c| picked.iter().filter(|p| classify(p) == *c).count() >= per_class) {
            break;
        }
    }
    picked
}

/// The comparison points of every sample under the rollouts' policy `e`.
fn points(samples: &[Sample], e: Efficiencies, met: &MatchEquityTable, class: PositionClass) -> Vec<Point> {
    let policy = CubePolicy { met, efficiencies: e };
    let mut out = Vec::new();
    for (k, s) in samples.iter().enumerate().filter(|(_, s)| s.class == class) {
        for (cube, state) in states().into_iter().enumerate() {
            let r = cubeful_value(&s.games, &state, FirstDecision::NoDouble, &policy).expect("valid cube states");
            let dead = janowski::cubeful(&s.chances, &state, met, 0.0);
            let live = janowski::cubeful(&s.chances, &state, met, 1.0);
            if (live - dead).abs() < 1e-9 {
                continue; // no information on x
            }
            out.push(Point { cluster: k, cube, pips: s.pips as f64, y: r.equity - dead, d: live - dead, error: r.error });
        }
    }
    out
}

/// Least squares of `y` on the regressors `f(point)` (1 or 2 of them), with
/// cluster-robust standard errors: (coefficients, errors, rms residual).
fn least_squares(points: &[Point], f: &dyn Fn(&Point) -> Vec<f64>) -> (Vec<f64>, Vec<f64>, f64) {
    let m = f(&points[0]).len();
    let mut xtx = vec![vec![0.0; m]; m];
    let mut xty = vec![0.0; m];
    for p in points {
        let x = f(p);
        for i in 0..m {
            xty[i] += x[i] * p.y;
            for j in 0..m {
                xtx[i][j] += x[i] * x[j];
            }
        }
    }
    let inv = invert(&xtx);
    let beta: Vec<f64> = (0..m).map(|i| (0..m).map(|j| inv[i][j] * xty[j]).sum()).collect();
    let residual = |p: &Point| p.y - f(p).iter().zip(&beta).map(|(x, b)| x * b).sum::<f64>();
    // Cluster scores: sum over a position's cubes of x * residual.
    let mut meat = vec![vec![0.0; m]; m];
    let clusters: std::collections::BTreeSet<usize> = points.iter().map(|p| p.cluster).collect();
    for c in clusters {
        let mut g = vec![0.0; m];
        for p in points.iter().filter(|p| p.cluster == c) {
            let r = residual(p);
            for (gi, xi) in g.iter_mut().zip(f(p)) {
                *gi += xi * r;
            }
        }
        for i in 0..m {
            for j in 0..m {
                meat[i][j] += g[i] * g[j];
            }
        }
    }
    let errors =
        (0..m).map(|i| (0..m).map(|a| (0..m).map(|b| inv[i][a] * meat[a][b] * inv[i][b]).sum::<f64>()).sum::<f64>().sqrt()).collect();
    let rms = (points.iter().map(|p| residual(p).powi(2)).sum::<f64>() / points.len() as f64).sqrt();
    (beta, errors, rms)
}

fn invert(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    match a.len() {
        1 => vec![vec![1.0 / a[0][0]]],
        _ => {
            let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
            vec![vec![a[1][1] / det, -a[0][1] / det], vec![-a[1][0] / det, a[0][0] / det]]
        }
    }
}

/// Fits every class under the rollouts' policy `e`; returns the new values.
fn fit(samples: &[Sample], e: Efficiencies, met: &MatchEquityTable) -> Efficiencies {
    let mut next = e;
    for class in CLASSES {
        let pts = points(samples, e, met, class);
        if pts.is_empty() {
            println!("  {class:?}: no positions");
            continue;
        }
        let positions = pts.iter().map(|p| p.cluster).collect::<std::collections::BTreeSet<_>>().len();
        let mean_error = pts.iter().map(|p| p.error).sum::<f64>() / pts.len() as f64;
        let (b, se, rms) = least_squares(&pts, &|p| vec![p.d]);
        println!(
            "  {class:?}: {positions} positions, {} cubes: x = {:.3} +- {:.3} (rms residual {rms:.4}, mean rollout s.e. {mean_error:.4})",
            pts.len(),
            b[0],
            se[0]
        );
        for (k, name) in ["centered", "mine", "theirs"].iter().enumerate() {
            let own: Vec<Point> = pts.iter().filter(|p| p.cube == k).copied().collect();
            if own.is_empty() {
                continue;
            }
            let (b, se, _) = least_squares(&own, &|p| vec![p.d]);
            println!("      cube {name}: x = {:.3} +- {:.3}", b[0], se[0]);
        }
        match class {
            PositionClass::Contact => next.contact = b[0],
            PositionClass::BearOff => next.bear_off = b[0],
            PositionClass::Race => {
                let (line, se, rms) = least_squares(&pts, &|p| vec![p.d, p.d * p.pips]);
                let (lo, hi) = pts.iter().fold((f64::MAX, 0.0f64), |(lo, hi), p| (lo.min(p.pips), hi.max(p.pips)));
                println!(
                    "      line: x = {:.3} (+- {:.3}) + {:.6} (+- {:.6}) * pips, rms {rms:.4}, pips {lo}..{hi}",
                    line[0], se[0], line[1], se[1]
                );
                // A constant unless the slope is clear (two standard errors).
                if line[1].abs() > 2.0 * se[1] {
                    let at = |pips: f64| line[0] + line[1] * pips;
                    next.race_base = line[0];
                    next.race_per_pip = line[1];
                    next.race_min = at(lo).min(at(hi));
                    next.race_max = at(lo).max(at(hi));
                } else {
                    next = Efficiencies { race_base: b[0], race_per_pip: 0.0, race_min: b[0], race_max: b[0], ..next };
                }
            }
            PositionClass::Over => {}
        }
    }
    next
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = match args.get(1).map(String::as_str) {
        Some("gulbara") | Some("gul_bara") => Variant::GulBara,
        Some("nardy") | None => Variant::Nardy,
        Some(other) => {
            eprintln!("variant must be nardy or gulbara, not {other:?}");
            std::process::exit(2);
        }
    };
    let per_class: usize = arg(&args, 2, 40);
    let trials: usize = arg(&args, 3, 288);
    let seed: u64 = arg(&args, 4, 2024);
    let threads: usize = arg(&args, 5, 2);
    let met = MatchEquityTable::kazaross_xg2(); // money play: the table is not read
    let clock = Instant::now();
    let positions = pick_positions(variant, per_class, seed);
    println!("{variant:?}: {} positions ({per_class} a class at most), {trials} trials each, seed {seed}", positions.len());
    let nets = Nets::shipped(variant);
    let samples: Vec<Sample> = positions
        .iter()
        .enumerate()
        .map(|(k, pos)| {
            let games = trajectories(nets, pos, MID_GAME, trials, seed.wrapping_add(1 + k as u64), threads);
            let p = cubeless_result(&games).probabilities;
            let chances = Chances::from(&Evaluation::new(p));
            Sample { class: classify(pos), pips: pos.pips()[ME], chances, games }
        })
        .collect();
    let turns: usize = samples.iter().flat_map(|s| &s.games).map(|g| g.turns.len()).sum();
    println!("played {} games, {turns} turns, in {:.1} s", samples.len() * trials, clock.elapsed().as_secs_f64());
    let mut e = Efficiencies::PROVISIONAL_NARDY;
    for iteration in 0..ITERATIONS {
        println!("iteration {iteration}, rollouts deciding with {e:?}");
        let next = fit(&samples, e, met);
        // The rollouts decide with efficiencies in [0, 1] (a small class can fit outside).
        let unit = |x: f64| if x.is_finite() { x.clamp(0.0, 1.0) } else { 0.68 };
        e = Efficiencies {
            contact: unit(next.contact),
            bear_off: unit(next.bear_off),
            race_min: unit(next.race_min),
            race_max: unit(next.race_max),
            ..next
        };
    }
    println!("fitted: {e:?}");
}
