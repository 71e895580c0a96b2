//! A small cubeless game loop for the strength harness: two players play
//! games to the end (1, 2 or 3 points by RULES.md), with duplicate dice.
//!
//! This is deliberately not the project's game layer (no cube, no match, no
//! records): only what measuring one player against another needs. Each
//! dice sequence is played twice with the seats swapped, so that luck of the
//! dice cancels out in the pair. Gul bara cascades are played in full
//! (RULES.md section 4); `last_roll_draw` is not (duels use the default rules).

use std::sync::Arc;
use std::time::Instant;

use crate::eval::{game_result, static_evaluation, Evaluator};
use crate::movegen::{Move, MoveGen};
use crate::position::Position;
use crate::search::{self, SearchConfig};
use crate::variant::{Rules, Variant};

/// A small deterministic random generator (SplitMix64) for dice and the random player.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
    }
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
}

/// Something that chooses plays.
pub trait Player: Send + Sync {
    fn name(&self) -> String;
    /// One of `plays` (all legal plays of the roll, never empty).
    fn choose(&self, pos: &Position, d1: u8, d2: u8, plays: &[Move], rng: &mut Rng) -> Move;
    /// One gul bara cascade step among `steps`.
    fn choose_step(&self, steps: &[Move], rng: &mut Rng) -> Move;
    /// A whole gul bara cascade from `d` at once (`rolls` made before it),
    /// for players that decide cascades as whole turns; `None` plays it step
    /// by step with [`Player::choose_step`].
    fn choose_cascade(&self, _pos: &Position, _d: u8, _rolls: u32) -> Option<crate::cascade::CascadePart> {
        None
    }
    /// A whole share of a cascade handed over (`pos` from the player who
    /// plays it): its steps, or `None` for step by step.
    fn choose_share(&self, _pos: &Position, _handover: &[(u8, u8)]) -> Option<Vec<Move>> {
        None
    }
}

/// Uniformly random legal plays.
pub struct RandomPlayer;

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&self, _: &Position, _: u8, _: u8, plays: &[Move], rng: &mut Rng) -> Move {
        plays[rng.below(plays.len())]
    }
    fn choose_step(&self, steps: &[Move], rng: &mut Rng) -> Move {
        steps[rng.below(steps.len())]
    }
}

/// An evaluator searched at some ply.
pub struct EnginePlayer {
    pub evaluator: Arc<dyn Evaluator>,
    pub config: SearchConfig,
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        format!("{} {}-ply", self.evaluator.name(), self.config.ply)
    }
    fn choose(&self, pos: &Position, d1: u8, d2: u8, plays: &[Move], _: &mut Rng) -> Move {
        if plays.len() == 1 {
            return plays[0];
        }
        search::best_move(self.evaluator.as_ref(), &self.config, pos, d1, d2)
    }
    fn choose_cascade(&self, pos: &Position, d: u8, rolls: u32) -> Option<crate::cascade::CascadePart> {
        if !self.config.whole_cascades {
            return None;
        }
        let r = search::analyze_at(self.evaluator.as_ref(), &self.config, pos, d, d, rolls);
        r.candidates.into_iter().next().and_then(|c| c.cascade).map(|part| (*part).clone())
    }
    fn choose_share(&self, pos: &Position, handover: &[(u8, u8)]) -> Option<Vec<Move>> {
        self.config
            .whole_cascades
            .then(|| search::best_share(self.evaluator.as_ref(), &self.config, pos, handover).0.steps)
    }
    fn choose_step(&self, steps: &[Move], _: &mut Rng) -> Move {
        // Mid-cascade the position is not a turn boundary: judge each step by
        // the static value of its result with the opponent to move.
        *steps
            .iter()
            .max_by(|a, b| {
                let ea = static_evaluation(self.evaluator.as_ref(), &a.position.flip(), self.config.use_bearoff).0.invert().equity();
                let eb = static_evaluation(self.evaluator.as_ref(), &b.position.flip(), self.config.use_bearoff).0.invert().equity();
                ea.total_cmp(&eb)
            })
            .expect("a step list is never empty")
    }
}

/// One finished game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameRecord {
    /// Points won by seat 0 (negative when seat 1 won): +-1, 2 or 3.
    pub points: i8,
    /// The seat that moved first.
    pub starter: u8,
    /// Decisions made and the seconds they took, per seat.
    pub decisions: [u32; 2],
    pub seconds: [f64; 2],
}

/// Plays one game; `dice_seed` fixes the dice sequence, `starter` the seat that
/// moves first. Ends after 5,000 turns at the latest (never seen) as a 0.
pub fn play_game(rules: Rules, players: [&dyn Player; 2], starter: usize, dice_seed: u64) -> GameRecord {
    let mut dice = Rng::new(dice_seed);
    let mut choice_rng = Rng::new(dice_seed.wrapping_mul(31).wrapping_add(starter as u64 + 7));
    let mut record = GameRecord { starter: starter as u8, ..GameRecord::default() };
    let mut pos = Position::start(rules);
    let mut seat = starter;
    let mut movegen = MoveGen::new();
    let mut plays = Vec::with_capacity(64);
    for roll_number in 0..5000u32 {
        let (mut d1, mut d2) = (dice.die(), dice.die());
        // Short backgammon opens with the two different dice of the opening roll.
        while rules.variant == Variant::Backgammon && roll_number == 0 && d1 == d2 {
            (d1, d2) = (dice.die(), dice.die());
        }
        let cascade = crate::cascade::cascades(&rules, roll_number, d1, d2);
        let (next, next_seat, passed) = if cascade {
            play_whole_cascade(pos, seat, d1, roll_number, players, &mut record)
                .unwrap_or_else(|| play_cascade(pos, seat, d1, players, &mut record, &mut choice_rng, &mut movegen, &mut plays))
        } else {
            movegen.legal_moves(&pos, d1, d2, &mut plays);
            let t = Instant::now();
            let m = players[seat].choose(&pos, d1, d2, &plays, &mut choice_rng);
            record.seconds[seat] += t.elapsed().as_secs_f64();
            record.decisions[seat] += 1;
            (m.position, seat, false)
        };
        if let Some((mover_won, points)) = game_result(&next) {
            let winner = if mover_won { next_seat } else { 1 - next_seat };
            record.points = if winner == 0 { points as i8 } else { -(points as i8) };
            return record;
        }
        if passed {
            // The opponent played the rest of the cascade and now rolls for
            // its own turn, from where it stands.
            pos = next;
            seat = next_seat;
        } else {
            pos = next.flip();
            seat = 1 - next_seat;
        }
    }
    record
}

/// A gul bara cascade from `d` decided as a whole turn by players that do
/// ([`Player::choose_cascade`], [`Player::choose_share`]); `None` when the
/// mover plays step by step. Returns as [`play_cascade`].
fn play_whole_cascade(
    pos: Position,
    seat: usize,
    d: u8,
    rolls: u32,
    players: [&dyn Player; 2],
    record: &mut GameRecord,
) -> Option<(Position, usize, bool)> {
    let t = Instant::now();
    let part = players[seat].choose_cascade(&pos, d, rolls)?;
    record.seconds[seat] += t.elapsed().as_secs_f64();
    record.decisions[seat] += part.steps.len() as u32;
    if game_result(&part.position).is_some() || part.handover.is_empty() {
        return Some((part.position, seat, false));
    }
    let theirs = part.position.flip();
    let other = 1 - seat;
    let t = Instant::now();
    let share = players[other].choose_share(&theirs, &part.handover);
    record.seconds[other] += t.elapsed().as_secs_f64();
    let end = match share {
        Some(steps) => {
            record.decisions[other] += steps.len() as u32;
            steps.last().map_or(theirs, |m| m.position)
        }
        None => {
            // A step-by-step opponent plays its share as the step rule says.
            let mut movegen = MoveGen::new();
            let mut steps = Vec::new();
            let mut rng = Rng::new(rolls as u64);
            let mut here = theirs;
            let mut head_used = 0;
            for &(number, count) in &part.handover {
                movegen.cascade_step(&here, number, count, head_used, &mut steps);
                let m = players[other].choose_step(&steps, &mut rng);
                record.decisions[other] += 1;
                here = m.position;
                head_used = m.head_used;
                if game_result(&here).is_some() {
                    break;
                }
            }
            here
        }
    };
    Some((end, other, true))
}

/// A gul bara cascade from `d`: the mover plays four of each number from `d`
/// up while it can play them in full; what it cannot play passes to the
/// opponent, number by number, who then rolls for its own turn. Returns the
/// position after the last step, seen from the seat that played it, that
/// seat, and whether the cascade passed to the opponent.
#[allow(clippy::too_many_arguments)]
fn play_cascade(
    mut pos: Position,
    mut seat: usize,
    d: u8,
    players: [&dyn Player; 2],
    record: &mut GameRecord,
    rng: &mut Rng,
    movegen: &mut MoveGen,
    steps: &mut Vec<Move>,
) -> (Position, usize, bool) {
    let mut head_used = 0u8;
    let mut passed = false;
    let mut number = d;
    let mut count = 4u8;
    while number <= 6 {
        movegen.cascade_step(&pos, number, count, head_used, steps);
        let t = Instant::now();
        let m = players[seat].choose_step(steps, rng);
        record.seconds[seat] += t.elapsed().as_secs_f64();
        record.decisions[seat] += 1;
        pos = m.position;
        head_used = m.head_used;
        if game_result(&pos).is_some() {
            return (pos, seat, passed);
        }
        let played = m.moves_played() as u8;
        if played < count && !passed {
            // The rest of this number and the higher ones go to the opponent.
            passed = true;
            count -= played;
            pos = pos.flip();
            seat = 1 - seat;
            head_used = 0;
            continue;
        }
        number += 1;
        count = 4;
    }
    (pos, seat, passed)
}

/// Plays `pairs` duplicate pairs: pair k uses the dice of `seed + k` twice,
/// with seat 0 starting and then seat 1. Games run on `threads` threads.
pub fn duel(rules: Rules, players: [&dyn Player; 2], first_pair: u64, pairs: usize, seed: u64, threads: usize) -> Vec<GameRecord> {
    // Build the bear-off tables now, so that no move's time includes them.
    if let Some(rule) = crate::bearoff::BearoffRule::for_rules(&rules) {
        crate::bearoff::tables(rule);
    }
    let jobs: Vec<(u64, usize)> = (0..pairs as u64).flat_map(|k| [(first_pair + k, 0), (first_pair + k, 1)]).collect();
    let results = std::sync::Mutex::new(vec![GameRecord::default(); jobs.len()]);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = threads.max(1).min(jobs.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let j = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if j >= jobs.len() {
                    break;
                }
                let (pair, starter) = jobs[j];
                let game_seed = seed.wrapping_mul(0x100_0000_01B3).wrapping_add(pair);
                let r = play_game(rules, players, starter, game_seed);
                results.lock().unwrap()[j] = r;
            });
        }
    });
    results.into_inner().unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::heuristic::Heuristic;

    fn engine(variant: Variant, ply: u8) -> EnginePlayer {
        EnginePlayer { evaluator: Arc::new(Heuristic::new(variant)), config: SearchConfig { ply, threads: 1, ..SearchConfig::default() } }
    }

    #[test]
    fn games_finish_with_legal_scores_in_every_variant() {
        for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
            let records = duel(rules, [&RandomPlayer, &RandomPlayer], 0, 3, 1, 2);
            assert_eq!(records.len(), 6);
            for r in &records {
                assert!(matches!(r.points.abs(), 1..=3), "{rules:?} {r:?}");
                assert!(r.decisions[0] + r.decisions[1] > 10);
            }
        }
    }

    #[test]
    fn duplicate_games_are_reproducible() {
        let a = duel(Rules::gulbara(), [&RandomPlayer, &RandomPlayer], 5, 2, 9, 1);
        let b = duel(Rules::gulbara(), [&RandomPlayer, &RandomPlayer], 5, 2, 9, 2);
        let pts = |v: &[GameRecord]| v.iter().map(|r| (r.points, r.decisions)).collect::<Vec<_>>();
        assert_eq!(pts(&a), pts(&b));
    }

    /// Plays the first legal step and records who was asked.
    struct Recorder(std::sync::Mutex<Vec<u8>>, u8);

    impl Player for Recorder {
        fn name(&self) -> String {
            "recorder".into()
        }
        fn choose(&self, _: &Position, _: u8, _: u8, plays: &[Move], _: &mut Rng) -> Move {
            self.0.lock().unwrap().push(self.1);
            plays[0]
        }
        fn choose_step(&self, steps: &[Move], _: &mut Rng) -> Move {
            self.0.lock().unwrap().push(self.1 + 10);
            steps[0]
        }
    }

    #[test]
    fn a_passed_cascade_gives_the_opponent_its_own_turn_next() {
        // Gul bara, a 6-6 cascade: all mine on the head (24) and an opposing
        // checker on my 18 (its 6 point), so no 6 can be played.
        let mut rules = Rules::gulbara();
        rules.cascade_after_rolls = 0;
        let mut mine = [0i64; 25];
        let mut theirs = [0i64; 25];
        mine[23] = 15;
        theirs[23] = 14; // their head = my 12
        theirs[5] = 1; // their 6 = my 18
        let pos = Position::from_arrays(rules, &mine, &theirs).unwrap();
        let (a, b) = (Recorder(std::sync::Mutex::new(vec![]), 0), Recorder(std::sync::Mutex::new(vec![]), 1));
        let mut record = GameRecord::default();
        let mut movegen = MoveGen::new();
        let mut steps = Vec::new();
        let (_, seat, passed) =
            play_cascade(pos, 0, 6, [&a, &b], &mut record, &mut Rng::new(1), &mut movegen, &mut steps);
        // 6s: 24->18 is blocked, so nothing plays and all four 6s pass on.
        assert!(passed);
        assert_eq!(seat, 1);
        assert_eq!(record.decisions, [1, 1]);
    }

    #[test]
    fn heuristic_beats_random() {
        for variant in [Variant::Backgammon, Variant::Nardy] {
            let h = engine(variant, 0);
            let records = duel(Rules::new(variant), [&h, &RandomPlayer], 0, 10, 3, 2);
            let total: i32 = records.iter().map(|r| r.points as i32).sum();
            assert!(total > 10, "{variant:?}: {total} points in 20 games");
        }
    }
}
