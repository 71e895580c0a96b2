//! The strength harness: two players play cubeless games to the end (1, 2
//! or 3 points by RULES.md) through the one turn driver ([`crate::turn`]),
//! with duplicate dice.
//!
//! Not the project's game layer (no cube, no match, no records): only what
//! measuring one player against another needs. Each dice sequence is played
//! twice with the seats swapped, so that luck of the dice cancels out in the
//! pair. The driver plays gul bara cascades (whole, for players that plan
//! them) and the last-roll draw.

use std::sync::Arc;
use std::time::Instant;

use crate::dice::Dice;
use crate::eval::Evaluator;
use crate::movegen::Move;
use crate::position::Position;
use crate::search::{self, SearchConfig};
use crate::turn::{self, Chooser, Finish, TurnDriver};
use crate::variant::Rules;

/// A seat in a duel: a name, and a fresh chooser for each game (players are
/// shared by the threads; a chooser belongs to one game).
pub trait Player: Sync {
    fn name(&self) -> String;
    /// This player's chooser for one game; `seed` drives its random choices.
    fn chooser(&self, seed: u64) -> Box<dyn Chooser + '_>;
}

/// Uniformly random legal plays and steps.
pub struct RandomPlayer;

/// [`RandomPlayer`]'s chooser in one game.
pub struct RandomChooser(pub Dice);

impl Chooser for RandomChooser {
    fn choose_play(&mut self, _: &Position, _: [u8; 2], _: u32, plays: &[Move]) -> usize {
        self.0.below(plays.len())
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn chooser(&self, seed: u64) -> Box<dyn Chooser + '_> {
        Box::new(RandomChooser(Dice::duel(seed)))
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
    fn chooser(&self, _: u64) -> Box<dyn Chooser + '_> {
        Box::new(search::SearchChooser { evaluator: self.evaluator.as_ref(), config: &self.config })
    }
}

/// One finished game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameRecord {
    /// Points won by seat 0 (negative when seat 1 won): +-1, 2 or 3, 0 for a draw.
    pub points: i8,
    /// The seat that moved first.
    pub starter: u8,
    /// Decisions made and the seconds they took, per seat.
    pub decisions: [u32; 2],
    pub seconds: [f64; 2],
}

/// A chooser that counts its decisions (a planned part counts each step)
/// and the time they took.
struct Timed<'a> {
    inner: Box<dyn Chooser + 'a>,
    decisions: u32,
    seconds: f64,
}

impl<'a> Timed<'a> {
    fn new(inner: Box<dyn Chooser + 'a>) -> Timed<'a> {
        Timed { inner, decisions: 0, seconds: 0.0 }
    }
    fn time<R>(&mut self, decide: impl FnOnce(&mut dyn Chooser) -> R, count: impl FnOnce(&R) -> u32) -> R {
        let t = Instant::now();
        let r = decide(self.inner.as_mut());
        self.seconds += t.elapsed().as_secs_f64();
        self.decisions += count(&r);
        r
    }
}

impl Chooser for Timed<'_> {
    fn choose_play(&mut self, pos: &Position, dice: [u8; 2], rolls_before: u32, plays: &[Move]) -> usize {
        self.time(|c| c.choose_play(pos, dice, rolls_before, plays), |_| 1)
    }
    fn choose_step(&mut self, pos: &Position, step: (u8, u8), steps: &[Move]) -> usize {
        self.time(|c| c.choose_step(pos, step, steps), |_| 1)
    }
    fn plan_cascade(&mut self, pos: &Position, d: u8, rolls_before: u32) -> Option<Vec<Move>> {
        self.time(|c| c.plan_cascade(pos, d, rolls_before), |p| p.as_ref().map_or(0, |s| s.len() as u32))
    }
    fn plan_share(&mut self, pos: &Position, handover: &[(u8, u8)]) -> Option<Vec<Move>> {
        self.time(|c| c.plan_share(pos, handover), |p| p.as_ref().map_or(0, |s| s.len() as u32))
    }
}

/// The dice of a duel game: two dice a roll from `dice`, except that the
/// games whose starter plays the roll-off dice (short backgammon, Dutch
/// backgammon, acey-deucey) open with two different dice.
pub fn duel_roll(dice: &mut Dice, board: &TurnDriver) -> [u8; 2] {
    loop {
        let roll = dice.roll();
        if !(board.rules().starter_plays_opening_dice() && board.rolls() == 0 && roll[0] == roll[1]) {
            return roll;
        }
    }
}

/// Plays one game through the turn driver; `dice_seed` fixes the dice
/// sequence, `starter` the seat that moves first. A game that reaches the
/// driver's roll limit (never seen) scores 0.
pub fn play_game(rules: Rules, players: [&dyn Player; 2], starter: usize, dice_seed: u64) -> GameRecord {
    let mut dice = Dice::duel(dice_seed);
    let choice_seed = dice_seed.wrapping_mul(31).wrapping_add(starter as u64 + 7);
    play_game_with(rules, players, starter, choice_seed, &mut |board| duel_roll(&mut dice, board), &mut |_, _| {})
}

/// [`play_game`] with the dice from `dice` and `on_roll` told of the board
/// after every roll; `choice_seed` seeds the players' random choices.
pub fn play_game_with(
    rules: Rules,
    players: [&dyn Player; 2],
    starter: usize,
    choice_seed: u64,
    dice: &mut dyn FnMut(&TurnDriver) -> [u8; 2],
    on_roll: &mut dyn FnMut(&TurnDriver, turn::Progress),
) -> GameRecord {
    let mut seats = [Timed::new(players[0].chooser(choice_seed)), Timed::new(players[1].chooser(choice_seed ^ 0x5EA7))];
    let mut board = TurnDriver::start(rules, starter);
    let [a, b] = &mut seats;
    let mut both: [&mut dyn Chooser; 2] = [a, b];
    let finish = turn::play_game(&mut board, dice, &mut both, on_roll);
    let points = match finish {
        Some(Finish::Won { winner, multiplier }) => {
            if winner == 0 {
                multiplier as i8
            } else {
                -(multiplier as i8)
            }
        }
        Some(Finish::Draw) | None => 0,
    };
    GameRecord {
        points,
        starter: starter as u8,
        decisions: [seats[0].decisions, seats[1].decisions],
        seconds: [seats[0].seconds, seats[1].seconds],
    }
}

/// Plays `pairs` duplicate pairs: pair k uses the dice of `seed + k` twice,
/// with seat 0 starting and then seat 1. Games run on `threads` threads.
pub fn duel(rules: Rules, players: [&dyn Player; 2], first_pair: u64, pairs: usize, seed: u64, threads: usize) -> Vec<GameRecord> {
    // Build the bear-off tables now, so that no move's time includes them.
    if let Some(rule) = crate::bearoff::BearoffRule::for_rules(&rules) {
        crate::bearoff::tables(rule);
    }
    let jobs: Vec<(u64, usize)> = (0..pairs as u64).flat_map(|k| [(first_pair + k, 0), (first_pair + k, 1)]).collect();
    crate::parallel::par_map(
        jobs.len(),
        threads,
        || (),
        |_, j| {
            let (pair, starter) = jobs[j];
            let game_seed = seed.wrapping_mul(0x100_0000_01B3).wrapping_add(pair);
            play_game(rules, players, starter, game_seed)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::heuristic::Heuristic;
    use crate::variant::Variant;

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
