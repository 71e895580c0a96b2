//! Matches to N points: the score, the Crawford game, who starts each game.

use super::{CubeRules, Game, GameResult, Stakes};
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
    crawford_done: bool,
    seeds: Dice,
    finished: Vec<Game>,
    game: Game,
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
        if crawford_game && !(crawford_rule && score.contains(&(length - 1))) {
            return Err(Error::new(
                "only a game with a player one point from winning can be the Crawford game (and only with the Crawford rule)",
            ));
        }
        let mut seeds = Dice::new(seed);
        let stakes = Stakes { match_length: length, score, crawford_game };
        let game = Game::new(rules, cube_rules, stakes, seeds.next_u64())?;
        Ok(Match {
            rules,
            length,
            crawford_rule,
            cube_rules,
            score,
            crawford_done: crawford_game || score.contains(&(length - 1)),
            seeds,
            finished: vec![],
            game,
        })
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

    pub fn winner(&self) -> Option<usize> {
        let s = self.score();
        (0..2).find(|&p| s[p] >= self.length)
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
        let crawford_game = self.crawford_rule && !self.crawford_done && self.score.contains(&(self.length - 1));
        if crawford_game {
            self.crawford_done = true;
        }
        let stakes = Stakes { match_length: self.length, score: self.score, crawford_game };
        let starter = next_starter(&self.rules, &self.game, result);
        let mut game = Game::new(self.rules, self.cube_rules, stakes, self.seeds.next_u64())?;
        if let Some(s) = starter {
            game.begin_with(s)?;
        }
        self.finished.push(std::mem::replace(&mut self.game, game));
        Ok(())
    }
}
