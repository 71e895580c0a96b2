//! Cube errors of the engine at each ply against tavla's own cubeful
//! rollouts, for long nardy and gul bara (or backgammon), money play.
//!
//! ```text
//! cargo run --release --example variant_cube_errors -- nardy [positions] [trials] [seed] [threads] [plies]
//! ```
//!
//! No other engine plays these games, so the reference is tavla's cubeful
//! rollout (`tavla::rollout::cubeful`: the networks at 0-ply, both players
//! deciding the cube by the shipped 0-ply policy after the first roll), of
//! the position's no double (ND) and double/take (DT), with double/pass
//! DP = 1. Positions: self-play positions of the shipped network with the
//! player on roll's cubeless winning chance between 0.5 and 0.95, each under
//! two money cubes where it may double (centred; 2 and its own).
//!
//! Errors in thousandths of a point normalized to the cube, scored as
//! `scripts/cube_errors.py` scores them against gnubg: the doubler's error
//! `max(ND, min(DT, DP)) - (min(DT, DP) if it doubles else ND)` and the
//! taker's `(DT if it takes else DP) - min(DT, DP)`, summed per case.
//!
//! The rollout's own noise sets a floor: the "split halves" row scores the
//! decisions of the first half of the trials against the second half's
//! values (so at half the trials, a floor for a perfect engine measured
//! with half the trials).
//!
//! Four diagnostic rows follow (not the engine's decisions): Janowski's 0-ply
//! money formulas on the network's probabilities and on the rollouts' own
//! cubeless probabilities (so what is left is the cube model's error), each
//! with the shipped efficiency of the position's class and with an
//! efficiency per class and per cube owner, the optional seventh argument:
//! nine numbers, `contact,race,bear-off` each as `centred,roller's,opponent's`
//! (as `fit_cube_efficiency` prints them by cube). Before them it prints the
//! network's mean bias against the rollouts' cubeless probabilities on these
//! positions and the six cases where the network's probabilities cost most.

use std::time::Instant;

use tavla::cube::efficiency::{classify, efficiency, PositionClass};
use tavla::cube::state::{CubeState, Owner};
use tavla::eval::neural::Network;
use tavla::eval::{static_evaluation, Evaluation};
use tavla::nn::player::{selfplay_positions, NetPlayer, Nets};
use tavla::rollout::cubeful::{cubeful_value, cubeless_result, trajectories, CubePolicy, FirstDecision, Trajectory, MID_GAME};
use tavla::search::cubeful::{cube_decision, zero_ply_decision_by};
use tavla::search::SearchConfig;
use tavla::{Position, Rules, Variant};

fn arg<T: std::str::FromStr>(args: &[String], k: usize, default: T) -> T {
    args.get(k).and_then(|a| a.parse().ok()).unwrap_or(default)
}

fn states() -> [CubeState; 2] {
    let money = CubeState::money();
    [money, CubeState { value: 2, owner: Owner::Me, ..money }]
}

/// The reference equities of one case: ND, DT, DP.
#[derive(Clone, Copy)]
struct Reference {
    nd: f64,
    dt: f64,
    dp: f64,
}

/// (doubler error, taker error) in points of `doubles`/`takes` against `r`.
fn errors(r: &Reference, doubles: bool, takes: bool) -> (f64, f64) {
    let double = r.dt.min(r.dp);
    let best = r.nd.max(double);
    (best - if doubles { double } else { r.nd }, if takes { r.dt } else { r.dp } - double)
}

fn reference(games: &[Trajectory], state: &CubeState, policy: &CubePolicy) -> Reference {
    let nd = cubeful_value(games, state, FirstDecision::NoDouble, policy).expect("a cube the player may turn").equity;
    let dt = cubeful_value(games, state, FirstDecision::DoubleTake, policy).expect("a cube the player may turn").equity;
    Reference { nd, dt, dp: 1.0 }
}

/// The first `count` self-play positions in the doubling window.
fn pick_positions(variant: Variant, count: usize, seed: u64) -> Vec<Position> {
    let net = tavla::nn::shipped::network(variant);
    let mut player = NetPlayer::with_nets(Nets::shipped(variant));
    let mut picked = Vec::new();
    let mut seen = 0usize;
    for pool_seed in seed..seed + 50 {
        for pos in selfplay_positions(net, Rules::new(variant), 2000, pool_seed) {
            let win = player.value(&pos)[0];
            if !(0.5..=0.95).contains(&win) || picked.len() >= count {
                continue;
            }
            // One position in five: neighbours in one game are much alike.
            seen += 1;
            if seen.is_multiple_of(5) {
                picked.push(pos);
            }
        }
        if picked.len() >= count {
            break;
        }
    }
    picked
}

/// A cube efficiency model: the efficiency of a position under a cube state.
type EfficiencyModel<'a> = Box<dyn Fn(&Position, &CubeState) -> f64 + 'a>;

/// An efficiency per position class and cube owner (centred, the player on roll's, the opponent's).
fn by_owner(table: &[f64], pos: &Position, state: &CubeState) -> f64 {
    let class = match classify(pos) {
        PositionClass::Contact | PositionClass::Over => 0,
        PositionClass::Race => 1,
        PositionClass::BearOff => 2,
    };
    let owner = match state.owner {
        Owner::Centered => 0,
        Owner::Me => 1,
        Owner::Opponent => 2,
    };
    table[3 * class + owner]
}

#[derive(Default, Clone, Copy)]
struct Tally {
    cases: usize,
    doubler: f64,
    taker: f64,
    wrong_doubles: usize,
    wrong_takes: usize,
}

impl Tally {
    fn add(&mut self, (d, t): (f64, f64)) {
        self.cases += 1;
        self.doubler += d;
        self.taker += t;
        self.wrong_doubles += (d > 1e-12) as usize;
        self.wrong_takes += (t > 1e-12) as usize;
    }
    fn row(&self, name: &str, seconds: Option<f64>) -> String {
        let n = self.cases.max(1) as f64;
        let time = seconds.map_or(String::new(), |s| format!("{:.1}", 1000.0 * s / n));
        format!(
            "| {name} | {} | {:.2} | {:.2} | **{:.2}** | {} / {} | {time} |",
            self.cases,
            1000.0 * self.doubler / n,
            1000.0 * self.taker / n,
            1000.0 * (self.doubler + self.taker) / n,
            self.wrong_doubles,
            self.wrong_takes
        )
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = Variant::parse(&arg(&args, 1, "nardy".to_string())).expect("a variant: backgammon, nardy or gulbara");
    let count: usize = arg(&args, 2, 150);
    let trials: usize = arg(&args, 3, 1296);
    let seed: u64 = arg(&args, 4, 1);
    let threads: usize = arg(&args, 5, 2);
    let plies: Vec<u8> =
        arg(&args, 6, "0,1,2".to_string()).split(',').filter(|s| !s.is_empty()).map(|s| s.parse().expect("plies as 0,1,2")).collect();

    let started = Instant::now();
    let positions = pick_positions(variant, count, seed);
    let classes = |c: PositionClass| positions.iter().filter(|p| classify(p) == c).count();
    println!(
        "{variant:?}: {} positions (contact {}, race {}, bear-off {}), {trials} trials each, seed {seed}",
        positions.len(),
        classes(PositionClass::Contact),
        classes(PositionClass::Race),
        classes(PositionClass::BearOff)
    );
    let policy = CubePolicy::of(variant);
    let nets = Nets::shipped(variant);
    let owners: Vec<f64> =
        arg(&args, 7, String::new()).split(',').filter(|s| !s.is_empty()).map(|s| s.parse().expect("efficiencies as numbers")).collect();
    assert!(owners.is_empty() || owners.len() == 9, "nine efficiencies: contact, race, bear-off, each centred, roller's, opponent's");
    let mut cases: Vec<(Position, CubeState, Reference, Evaluation)> = Vec::new();
    let mut halves = Tally::default();
    let mut rollout_error = 0.0;
    for (k, pos) in positions.iter().enumerate() {
        let games = trajectories(nets, pos, MID_GAME, trials, seed.wrapping_mul(1_000_003).wrapping_add(k as u64), threads);
        let (first, second) = games.split_at(trials / 2);
        let cubeless = Evaluation::new(cubeless_result(&games).probabilities);
        for state in states() {
            let r = reference(&games, &state, &policy);
            let (a, b) = (reference(first, &state, &policy), reference(second, &state, &policy));
            halves.add(errors(&b, a.dt.min(a.dp) > a.nd, a.dt <= a.dp));
            rollout_error += cubeful_value(&games, &state, FirstDecision::NoDouble, &policy).expect("valid").error;
            cases.push((*pos, state, r, cubeless));
        }
    }
    println!(
        "rollouts: {:.0} s; mean standard error of ND {:.4}",
        started.elapsed().as_secs_f64(),
        rollout_error / cases.len().max(1) as f64
    );

    let evaluator = Network::shipped(variant);
    let met = tavla::cube::default_met(variant);
    println!("| decisions by | cases | doubler | taker | total (mEq per case) | wrong doubles / takes | ms per decision |");
    println!("|---|---|---|---|---|---|---|");
    for &ply in &plies {
        let config = SearchConfig { ply, threads: 1, ..SearchConfig::default() };
        let mut tally = Tally::default();
        let t = Instant::now();
        for (pos, state, r, _) in &cases {
            let d = cube_decision(&evaluator, &config, met, pos, state).decision;
            tally.add(errors(r, d.should_double(), d.should_take()));
        }
        println!("{}", tally.row(&format!("tavla {ply}-ply"), Some(t.elapsed().as_secs_f64())));
    }
    println!("{}", halves.row(&format!("split halves ({} trials against {})", trials / 2, trials - trials / 2), None));
    // The network's 0-ply probabilities of each case, beside the rollouts' cubeless ones.
    let network: Vec<Evaluation> = cases.iter().map(|(pos, ..)| static_evaluation(&evaluator, pos, true).0).collect();
    // The 0-ply formulas' decision on probabilities `e` with the efficiency model `x`.
    let formulas = |e: &Evaluation, pos: &Position, state: &CubeState, x: &dyn Fn(&Position, &CubeState) -> f64| {
        let d = zero_ply_decision_by(e, state, met, |s| x(pos, s));
        (d.should_double(), d.should_take())
    };
    // Where the network's probabilities stray from its own rollouts' on these positions (one
    // case per position: the first cube state).
    let mut bias = [0.0f64; 5];
    let per_position = states().len();
    for (net, (_, _, _, cubeless)) in network.iter().zip(&cases).step_by(per_position) {
        for (b, (n, r)) in bias.iter_mut().zip(net.to_array().iter().zip(cubeless.to_array())) {
            *b += (n - r) as f64;
        }
    }
    // The cases where the network's probabilities cost the 0-ply formulas most, beside the rollouts'.
    let mut worst: Vec<(f64, String)> = cases
        .iter()
        .zip(&network)
        .map(|((pos, state, r, cubeless), e)| {
            let (doubles, takes) = formulas(e, pos, state, &|p, _| efficiency(p));
            let (d, t) = errors(r, doubles, takes);
            let round = |a: [f32; 5]| a.map(|v| (v * 1000.0).round() / 1000.0);
            let line = format!(
                "{:?}, cube {:?}, pips {:?}: reference ND {:.3} DT {:.3}; network {:?}, rollouts {:?}",
                classify(pos),
                state.owner,
                pos.pips(),
                r.nd,
                r.dt,
                round(e.to_array()),
                round(cubeless.to_array())
            );
            (d + t, line)
        })
        .collect();
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (cost, line) in worst.iter().take(6) {
        println!("costliest: {:.0} mEq, {line}", 1000.0 * cost);
    }
    let n = cases.len().div_ceil(per_position).max(1) as f64;
    println!(
        "network minus rollouts, mean over the positions: win {:+.4}, win gammon {:+.4}, win backgammon {:+.4}, lose gammon {:+.4}, lose backgammon {:+.4}",
        bias[0] / n, bias[1] / n, bias[2] / n, bias[3] / n, bias[4] / n
    );
    let mut models: Vec<(&str, EfficiencyModel)> = vec![("the class's efficiency", Box::new(|p, _| efficiency(p)))];
    if !owners.is_empty() {
        models.push(("an efficiency per class and cube owner", Box::new(|p, s| by_owner(&owners, p, s))));
    }
    for (name, x) in &models {
        for (source, rollouts) in [("the network's probabilities", false), ("the rollouts' cubeless probabilities", true)] {
            let mut tally = Tally::default();
            for ((pos, state, r, cubeless), net) in cases.iter().zip(&network) {
                let (doubles, takes) = formulas(if rollouts { cubeless } else { net }, pos, state, x.as_ref());
                tally.add(errors(r, doubles, takes));
            }
            println!("{}", tally.row(&format!("0-ply formulas, {name}, {source}"), None));
        }
    }
    println!("wall {:.0} s", started.elapsed().as_secs_f64());
}
