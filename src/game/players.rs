//! Trivial players and a fast loop that plays whole games between them, for
//! simulations, tests and the terminal game until a real engine plays.

use super::cube::CubeRules;
use super::matches::Match;
use super::{Game, GameResult, Phase, Stakes};
use crate::dice::Dice;
use crate::error::Result;
use crate::movegen::Move;
use crate::position::{Position, ME, THEM};
use crate::turn::{Chooser, Seats};

/// How a trivial player picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Any legal move, uniformly.
    Random,
    /// The move that most improves the pip-count race, avoiding blots in backgammon.
    Greedy,
}

impl Strategy {
    pub fn parse(name: &str) -> Result<Strategy> {
        match name {
            "random" => Ok(Strategy::Random),
            "greedy" => Ok(Strategy::Greedy),
            other => Err(crate::error::Error::new(format!("unknown player {other:?}: expected \"random\" or \"greedy\""))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Greedy => "greedy",
        }
    }

    /// The index of the chosen move (moves is never empty).
    pub fn choose(self, moves: &[Move], dice: &mut Dice) -> usize {
        match self {
            Strategy::Random => dice.below(moves.len()),
            Strategy::Greedy => {
                let mut best = 0;
                let mut best_score = i32::MIN;
                for (i, m) in moves.iter().enumerate() {
                    let s = greedy_score(m);
                    if s > best_score {
                        best = i;
                        best_score = s;
                    }
                }
                best
            }
        }
    }
}

/// Higher is better for the mover: the race lead, checkers off, and in
/// backgammon a penalty for each blot the opponent could hit.
fn greedy_score(m: &Move) -> i32 {
    let pos = &m.position;
    let pips = pos.pips();
    let mut score = pips[THEM] as i32 - pips[ME] as i32 + 2 * pos.off(ME) as i32;
    if pos.variant().has_contact_hits() && !pos.is_race() {
        let blots = pos.occupied(ME) & !pos.stacked(ME);
        score -= 4 * blots.count_ones() as i32;
    }
    if !pos.variant().has_contact_hits() && !pos.is_race() {
        // Without hitting, progress is the same for every full play; what
        // differs is how many points block the opponent and how spread out
        // my checkers are, so reward occupied points.
        score += 3 * pos.occupied(ME).count_ones() as i32;
    }
    score
}

/// Two trivial players as the turn loop's choosers, drawing their random
/// picks from one generator.
pub struct Trivial<'a> {
    pub strategies: [Strategy; 2],
    pub picks: &'a mut Dice,
    seat: usize,
}

impl<'a> Trivial<'a> {
    pub fn new(strategies: [Strategy; 2], picks: &'a mut Dice) -> Trivial<'a> {
        Trivial { strategies, picks, seat: 0 }
    }
}

impl Chooser for Trivial<'_> {
    fn choose_play(&mut self, _: &Position, _: [u8; 2], _: u32, plays: &[Move]) -> usize {
        self.strategies[self.seat].choose(plays, self.picks)
    }
}

impl Seats for Trivial<'_> {
    fn seat(&mut self, seat: usize) -> &mut dyn Chooser {
        self.seat = seat;
        self
    }
}

/// Plays `game` to its end; player p picks with `strategies[p]`, choosing
/// with `picks` (the game's own seeded dice roll the dice). Doubles offered
/// by someone else are taken; trivial players never double.
pub fn play_out(game: &mut Game, strategies: [Strategy; 2], picks: &mut Dice) -> Result<GameResult> {
    let mut players = Trivial::new(strategies, picks);
    loop {
        match game.phase() {
            Phase::OpeningRoll => {
                game.roll_off(None)?;
            }
            Phase::Roll => {
                game.roll(None)?;
            }
            Phase::Move => game.play_rest_of_roll(&mut players)?,
            Phase::DoubleOffered => game.take()?,
            Phase::Over => return Ok(game.result().expect("a finished game has a result")),
        }
    }
}

/// Plays `m` to its end: each game by [`play_out`] with the same players and
/// picks, the next game begun after each one until the match is over.
pub fn play_match_out(m: &mut Match, strategies: [Strategy; 2], picks: &mut Dice) -> Result<()> {
    loop {
        play_out(m.game_mut(), strategies, picks)?;
        if m.is_over() {
            return Ok(());
        }
        m.next_game()?;
    }
}

/// Tallies of many games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    /// `wins[player][multiplier - 1]`.
    pub wins: [[u64; 3]; 2],
    pub draws: u64,
    /// Rolls (turns), summed over the games.
    pub rolls: u64,
    /// Games won by the player who started.
    pub starter_wins: u64,
}

/// Plays `n` money games between two trivial players from `seed`.
pub fn simulate(rules: crate::Rules, n: u64, seed: u64, strategies: [Strategy; 2]) -> Result<Tally> {
    let mut seeds = Dice::new(seed);
    let mut picks = Dice::new(seed ^ 0x5DEE_CE66_D1CE);
    let mut tally = Tally::default();
    for _ in 0..n {
        let mut game = Game::new(rules, CubeRules::default(), Stakes::money(), seeds.next_u64())?;
        let result = play_out(&mut game, strategies, &mut picks)?;
        tally.games += 1;
        tally.rolls += game.rolls() as u64;
        match result.winner {
            Some(w) => {
                tally.wins[w][result.multiplier as usize - 1] += 1;
                if game.starter() == Some(w) {
                    tally.starter_wins += 1;
                }
            }
            None => tally.draws += 1,
        }
    }
    Ok(tally)
}
