//! Matches to N points: the score, the Crawford game, who starts each game.
//! A money session is a match of length 0: games one after another with the
//! cube (Jacoby and beaver allowed), the score the running total of points,
//! never over.

use super::{CubeRules, Game, GameResult, Snapshot, Stakes};
use crate::dice::Dice;
use crate::error::{Error, Result};
use crate::variant::{NextGameStarter, Rules};

#[derive(Clone, Debug)]
pub struct Match {
    rules: Rules,
    length: u32,
    /// Whether the Crawford rule is played.
    crawford_rule: bool,
    cube_rules: CubeRules,
    /// The score before the current game.
    score: [u32; 2],
    /// The score before the first game.
    initial_score: [u32; 2],
    crawford_done: bool,
    seeds: Dice,
    finished: Vec<Game>,
    game: Game,
}

/// A match without the Crawford rule has no Crawford game; the score a
/// Crawford game needs is the game's own check ([`Game::new`], [`Game::from_snapshot`]).
fn check_crawford_rule(crawford_rule: bool, crawford_game: bool) -> Result<()> {
    if crawford_game && !crawford_rule {
        return Err(Error::new("a match without the Crawford rule has no Crawford game"));
    }
    Ok(())
}

/// Who starts the game after `previous` (which ended with `result`): its
/// winner, or the other of its starter by the `next_game_starter` option;
/// None after a draw (the players roll off).
pub fn next_starter(rules: &Rules, previous: &Game, result: GameResult) -> Option<usize> {
    match rules.next_game_starter {
        NextGameStarter::Winner => result.winner,
        NextGameStarter::Alternate => previous.starter().map(|s| 1 - s),
    }
}

impl Match {
    /// A match to `length` points from 0-0; the first game starts with a roll-off.
    pub fn new(rules: Rules, length: u32, crawford_rule: bool, cube_rules: CubeRules, seed: u64) -> Result<Match> {
        Match::with_score(rules, length, crawford_rule, cube_rules, [0, 0], false, seed)
    }

    /// A match joined at a given score; `crawford_game` says whether the
    /// first game is the Crawford game (with a player at match point and this
    /// false, the Crawford game is taken to be over).
    pub fn with_score(
        rules: Rules,
        length: u32,
        crawford_rule: bool,
        cube_rules: CubeRules,
        score: [u32; 2],
        crawford_game: bool,
        seed: u64,
    ) -> Result<Match> {
        if length == 0 {
            return Err(Error::new("a match is played to 1 point or more"));
        }
        check_crawford_rule(crawford_rule, crawford_game)?;
        let mut seeds = Dice::new(seed);
        let stakes = Stakes { match_length: length, score, crawford_game };
        let game = Game::new(rules, cube_rules, stakes, seeds.next_u64())?;
        Ok(Match::around(game, crawford_rule, score, seeds))
    }

    /// A money session: games one after another with the cube rules (Jacoby
    /// and beaver allowed), `score` the points each player has won so far.
    pub fn money(rules: Rules, cube_rules: CubeRules, score: [u32; 2], seed: u64) -> Result<Match> {
        let mut seeds = Dice::new(seed);
        let game = Game::new(rules, cube_rules, Stakes::money(), seeds.next_u64())?;
        Ok(Match::around(game, false, score, seeds))
    }

    /// A match (or, with a money position, a money session) whose first game
    /// continues from a snapshot: the length, score, Crawford game and cube
    /// rules are the snapshot's (see [`Game::from_snapshot`] for `rolls` and
    /// `starter`).
    pub fn from_snapshot(s: &Snapshot, rolls: u32, starter: Option<usize>, crawford_rule: bool, seed: u64) -> Result<Match> {
        let stakes = s.stakes;
        let crawford_rule = crawford_rule && !stakes.is_money();
        check_crawford_rule(crawford_rule, stakes.crawford_game)?;
        let mut seeds = Dice::new(seed);
        let game = Game::from_snapshot(s, rolls, starter, seeds.next_u64())?;
        let score = if stakes.is_money() { [0, 0] } else { stakes.score };
        Ok(Match::around(game, crawford_rule, score, seeds))
    }

    /// A match whose first game is `game`; its stakes say the length, the
    /// score before it and whether it is the Crawford game.
    fn around(game: Game, crawford_rule: bool, score: [u32; 2], seeds: Dice) -> Match {
        let stakes = *game.stakes();
        let length = stakes.match_length;
        Match {
            rules: *game.rules(),
            length,
            crawford_rule,
            cube_rules: *game.cube_rules(),
            score,
            initial_score: score,
            crawford_done: length > 0 && (stakes.crawford_game || score.contains(&(length - 1))),
            seeds,
            finished: vec![],
            game,
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn length(&self) -> u32 {
        self.length
    }
    pub fn crawford_rule(&self) -> bool {
        self.crawford_rule
    }
    pub fn cube_rules(&self) -> &CubeRules {
        &self.cube_rules
    }
    pub fn game(&self) -> &Game {
        &self.game
    }
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }
    /// The score the match (or money session) was joined at, before its first game.
    pub fn initial_score(&self) -> [u32; 2] {
        self.initial_score
    }
    /// The games already finished, in order.
    pub fn finished_games(&self) -> &[Game] {
        &self.finished
    }
    /// The number of the current game, from 1.
    pub fn game_number(&self) -> usize {
        self.finished.len() + 1
    }

    /// The score, counting the current game once it is over.
    pub fn score(&self) -> [u32; 2] {
        let mut s = self.score;
        if let Some(GameResult { winner: Some(w), points, .. }) = self.game.result() {
            s[w] += points;
        }
        s
    }

    /// Whether this is a money session (length 0) rather than a match.
    pub fn is_money(&self) -> bool {
        self.length == 0
    }

    /// The match's winner; a money session has none.
    pub fn winner(&self) -> Option<usize> {
        if self.is_money() {
            return None;
        }
        let s = self.score();
        (0..2).find(|&p| s[p] >= self.length)
    }

    /// The current game is the Crawford game.
    pub fn is_crawford(&self) -> bool {
        self.game.stakes().crawford_game
    }

    /// The current game comes after the Crawford game (a player one point
    /// from winning, the Crawford game played or passed over by joining the
    /// match at that score).
    pub fn is_post_crawford(&self) -> bool {
        self.crawford_rule && self.crawford_done && !self.is_crawford()
    }

    /// Whether the game after the current one (once it is over) is the
    /// Crawford game.
    pub fn next_is_crawford(&self) -> bool {
        self.game.is_over() && !self.is_over() && self.crawford_next(self.score())
    }

    fn crawford_next(&self, score: [u32; 2]) -> bool {
        !self.is_money() && self.crawford_rule && !self.crawford_done && score.contains(&(self.length - 1))
    }

    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    /// Starts the next game once the current one is over. In a match the
    /// winner of a game starts the next (or the players alternate, by the
    /// `next_game_starter` option); after a draw the players roll off.
    pub fn next_game(&mut self) -> Result<()> {
        let Some(result) = self.game.result() else {
            return Err(Error::new("the current game is not over yet"));
        };
        if self.is_over() {
            return Err(Error::new("the match is over"));
        }
        self.score = self.score();
        let crawford_game = self.crawford_next(self.score);
        if crawford_game {
            self.crawford_done = true;
        }
        let stakes = if self.is_money() { Stakes::money() } else { Stakes { match_length: self.length, score: self.score, crawford_game } };
        let starter = next_starter(&self.rules, &self.game, result);
        let mut game = Game::new(self.rules, self.cube_rules, stakes, self.seeds.next_u64())?;
        if let Some(s) = starter {
            game.begin_with(s)?;
        }
        self.finished.push(std::mem::replace(&mut self.game, game));
        Ok(())
    }
}
