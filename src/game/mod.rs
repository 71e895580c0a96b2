//! Whole games of every variant: the opening roll-off, dice, the doubling
//! cube, the record of what happened, and the result, as `shared/RULES.md`
//! states them. What a roll does (turns, gul bara's cascades, the last-roll
//! draw, entering from the reserve, acey-deucey's 1-2 and its extra roll) is
//! the one turn driver's, [`crate::turn`]; a game drives it and records each
//! roll and play (a 1-2's named number, and the extra roll after it, with them).
//!
//! A [`Game`] knows whose turn it is and what may happen next (its
//! [`Phase`]); every action is checked and refused with a message naming the
//! problem, leaving the game as it was. Players are numbered 0 and 1 for the
//! whole game; the current [`Position`] is always seen from the player whose
//! turn it is (the player on roll, or the doubler while a double is offered).
//!
//! The game layer owns the state: games, matches, their events and results,
//! and the [`Snapshot`] (a position with its turn, dice, cube and score) a
//! game may continue from. It knows nothing of texts: the position texts
//! (XGID, GNU Backgammon IDs, FIBS boards, JSON) and the game and match
//! records' JSON belong to the format layer above it, which reads and writes
//! this state.

pub mod cube;
pub mod entry;
pub mod matches;
pub mod players;
pub mod result;
pub mod snapshot;

use crate::cube::state::{MAX_CUBE, MAX_MATCH_LENGTH};
use crate::dice::Dice;
use crate::error::{Error, Result};
use crate::movegen::{check_die, Move, Play};
use crate::position::Position;
use crate::turn::{Finish, Progress, Seats, Table, TurnDriver};
use crate::variant::Rules;

pub use cube::{Cube, CubeRules};
pub use result::{Ending, GameResult};
pub use snapshot::Snapshot;

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Each player rolls one die to decide who starts.
    OpeningRoll,
    /// The player on turn may double, then rolls.
    Roll,
    /// The player on turn picks one of [`Game::legal_moves`].
    Move,
    /// The player on turn has doubled; the opponent takes, beavers or passes.
    DoubleOffered,
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::OpeningRoll => "opening_roll",
            Phase::Roll => "roll",
            Phase::Move => "move",
            Phase::DoubleOffered => "double_offered",
            Phase::Over => "over",
        }
    }
}

/// A game's place in a match (all zero for money play).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stakes {
    /// 0 for money play.
    pub match_length: u32,
    /// Points each player had before this game.
    pub score: [u32; 2],
    /// Nobody may double in this game.
    pub crawford_game: bool,
}

impl Stakes {
    pub fn money() -> Stakes {
        Stakes::default()
    }
    pub fn is_money(&self) -> bool {
        self.match_length == 0
    }
}

/// Everything that happened in a game, in order: enough to replay it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// One roll-off attempt: `dice[p]` is player p's die (equal dice roll again).
    OpeningRoll {
        dice: [u8; 2],
    },
    /// The game began without a roll-off (a match's later games).
    Begin {
        starter: usize,
    },
    Roll {
        player: usize,
        dice: [u8; 2],
        /// Acey-deucey: the extra roll after a 1-2 played in full (the same
        /// player rolls again, with no cube action before it).
        extra: bool,
    },
    /// A turn, or one step of a cascade (`step` = (number, moves asked)).
    Move {
        player: usize,
        play: Play,
        step: Option<(u8, u8)>,
        /// Acey-deucey's 1-2: the number named after the 1 and the 2.
        named: Option<u8>,
        /// Acey-deucey's 1-2 played in full: the same player rolls again.
        rolls_again: bool,
    },
    Double {
        player: usize,
    },
    Take {
        player: usize,
    },
    Beaver {
        player: usize,
    },
    Pass {
        player: usize,
    },
}

#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    cube_rules: CubeRules,
    stakes: Stakes,
    dice_source: Dice,
    /// The board, whose turn it is and what a roll does: the one turn driver.
    board: TurnDriver,
    phase: Phase,
    cube: Cube,
    history: Vec<Event>,
    result: Option<GameResult>,
    /// Where the game began when not from the start: (snapshot, rolls, starter).
    origin: Option<(Snapshot, u32, Option<usize>)>,
}

fn check_dice(dice: [u8; 2]) -> Result<[u8; 2]> {
    Ok([check_die(dice[0] as i64)?, check_die(dice[1] as i64)?])
}

fn check_player(player: usize) -> Result<usize> {
    if player > 1 {
        return Err(Error::new(format!("player {player} does not exist: players are 0 and 1")));
    }
    Ok(player)
}

impl Game {
    /// A new game waiting for its opening roll-off; `seed` drives the dice
    /// whenever the caller does not supply them.
    pub fn new(rules: Rules, cube_rules: CubeRules, stakes: Stakes, seed: u64) -> Result<Game> {
        Self::check_settings(&cube_rules, &stakes)?;
        Ok(Game {
            rules,
            cube_rules,
            stakes,
            dice_source: Dice::new(seed),
            board: TurnDriver::new(rules, Position::start(rules), 0, 0, None),
            phase: Phase::OpeningRoll,
            cube: Cube::default(),
            history: Vec::new(),
            result: None,
            origin: None,
        })
    }

    /// A game continuing from a snapshot (a position with turn, dice, cube
    /// and score). A snapshot does not tell how many rolls came before, so
    /// `rolls` says it (gul bara's first rolls do not cascade); `starter` is
    /// needed only for `last_roll_draw`.
    pub fn from_snapshot(s: &Snapshot, rolls: u32, starter: Option<usize>, seed: u64) -> Result<Game> {
        s.validate()?;
        let mut game = Game::new(*s.rules(), s.cube_rules, s.stakes, seed)?;
        if let Some(st) = starter {
            check_player(st)?;
        }
        if s.position.is_game_over() {
            return Err(Error::new("the position is already over: a player has borne off all its checkers"));
        }
        game.board = TurnDriver::new(*s.rules(), s.position, s.turn, rolls, starter);
        game.cube = s.cube;
        game.phase = Phase::Roll;
        game.origin = Some((*s, rolls, starter));
        if s.double_offered {
            game.cube.check_double(s.turn, &s.cube_rules, s.stakes.crawford_game)?;
            game.phase = Phase::DoubleOffered;
        } else if s.extra_roll {
            game.board.set_extra_roll();
        } else if let Some(d) = s.dice {
            game.begin_turn(d)?;
        }
        Ok(game)
    }

    /// A money game with the default cube, in a variant that has games.
    pub fn money(rules: Rules, seed: u64) -> Game {
        Game::new(rules, CubeRules::default(), Stakes::money(), seed).expect("money defaults are valid")
    }

    fn check_settings(cube: &CubeRules, stakes: &Stakes) -> Result<()> {
        check_match_length(stakes.match_length)?;
        if !stakes.is_money() {
            if cube.beaver || cube.jacoby {
                return Err(Error::new("beaver and Jacoby belong to money play, not to a match"));
            }
            for (p, &s) in stakes.score.iter().enumerate() {
                if s >= stakes.match_length {
                    return Err(Error::new(format!(
                        "player {p}'s score {s} already reaches the match length {}: the match is over",
                        stakes.match_length
                    )));
                }
            }
            if stakes.crawford_game {
                crate::cube::state::check_crawford_score(stakes.match_length, stakes.score)?;
            }
        } else if stakes.crawford_game || stakes.score != [0, 0] {
            return Err(Error::new("a score and the Crawford game need a match length above 0"));
        }
        if !cube.max_value.is_power_of_two() || cube.max_value > MAX_CUBE {
            // A limit past 2^15 would let the cube's value overflow as it doubles.
            return Err(Error::new(format!("the cube limit must be a power of two up to {MAX_CUBE}, not {}", cube.max_value)));
        }
        Ok(())
    }

    // ----- state -----

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn cube_rules(&self) -> &CubeRules {
        &self.cube_rules
    }
    pub fn stakes(&self) -> &Stakes {
        &self.stakes
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The player to act: on roll, to move, or (while a double is offered) the doubler.
    pub fn turn(&self) -> usize {
        self.board.seat()
    }
    /// The player who must answer an offered double.
    pub fn decider(&self) -> Option<usize> {
        (self.phase == Phase::DoubleOffered).then_some(1 - self.turn())
    }
    pub fn starter(&self) -> Option<usize> {
        self.board.starter()
    }
    /// The position seen from the player whose turn it is.
    pub fn position(&self) -> &Position {
        self.board.position()
    }
    /// The position seen from `player`.
    pub fn position_for(&self, player: usize) -> Position {
        self.board.position_for(player)
    }
    /// The dice of the turn being played (None before the roll).
    pub fn dice(&self) -> Option<[u8; 2]> {
        self.board.dice()
    }
    /// The cascade step being played: (number, moves asked), gul bara only.
    pub fn cascade_step(&self) -> Option<(u8, u8)> {
        self.board.cascade_step()
    }
    /// The cascade's numbers still to play by the player on turn, the
    /// current step first: what a whole-cascade choice is asked for.
    pub fn cascade_left(&self) -> &[(u8, u8)] {
        self.board.cascade_left()
    }
    /// Whether the player on turn is playing the opponent's unplayed cascade moves.
    pub fn is_cascade_handover(&self) -> bool {
        self.board.is_handover()
    }
    /// Rolls of two dice so far, both players (the roll-off not counted; the
    /// roll being played counted).
    pub fn rolls(&self) -> u32 {
        self.board.rolls()
    }
    /// Rolls made before the one being played (before the next one, between
    /// rolls): what decides whether a gul bara double cascades.
    pub fn rolls_before(&self) -> u32 {
        self.board.rolls_before()
    }
    pub fn cube(&self) -> Cube {
        self.cube
    }
    pub fn is_last_turn(&self) -> bool {
        self.board.is_last_turn()
    }
    /// Acey-deucey: the player on roll rolls again after playing a 1-2 in
    /// full (its turn goes on, so it may not double before this roll).
    pub fn is_extra_roll(&self) -> bool {
        self.board.is_extra_roll()
    }
    /// The legal moves now (empty outside the move phase; one empty move for a pass).
    pub fn legal_moves(&self) -> &[Move] {
        if self.phase == Phase::Move {
            self.board.legal_moves()
        } else {
            &[]
        }
    }
    /// The board and its turn driver.
    pub fn board(&self) -> &TurnDriver {
        &self.board
    }
    /// The snapshot the game continued from (with its `rolls` and `starter`),
    /// or None for a game from the start.
    pub fn origin(&self) -> Option<&(Snapshot, u32, Option<usize>)> {
        self.origin.as_ref()
    }
    pub fn history(&self) -> &[Event] {
        &self.history
    }
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Why the player on turn may not double now, or `Ok`.
    pub fn check_double(&self) -> Result<()> {
        if self.phase != Phase::Roll {
            return Err(Error::new(format!("a double is offered before rolling, and the game is now in its {} phase", self.phase.name())));
        }
        if self.is_last_turn() {
            return Err(Error::new("no doubling during the last turn of a finished game"));
        }
        if self.board.is_extra_roll() {
            return Err(Error::new("no doubling before the extra roll of a 1-2: the turn goes on"));
        }
        self.cube.check_double(self.turn(), &self.cube_rules, self.stakes.crawford_game)
    }

    /// Why the player answering a double may not beaver now, or `Ok` if it may.
    pub fn check_beaver(&self) -> Result<()> {
        self.expect_phase(Phase::DoubleOffered, "beaver")?;
        if !self.cube_rules.beaver || !self.stakes.is_money() {
            return Err(Error::new("beavers are not allowed in this game (money play with beaver on only)"));
        }
        if self.cube.value * 4 > self.cube_rules.max_value {
            return Err(Error::new(format!("a beaver would pass the cube limit of {}", self.cube_rules.max_value)));
        }
        Ok(())
    }

    pub fn may_double(&self) -> bool {
        self.check_double().is_ok()
    }

    fn expect_phase(&self, phase: Phase, action: &str) -> Result<()> {
        if self.phase != phase {
            return Err(Error::new(format!("cannot {action} now: the game is in its {} phase, not {}", self.phase.name(), phase.name())));
        }
        Ok(())
    }

    // ----- starting -----

    /// One roll-off attempt: `dice[p]` is player p's die (from the seeded dice
    /// when None). Returns the starter, or None when the dice were equal and
    /// the players roll again. Backgammon's starter (and nardy's, with
    /// `opening_roll = single_dice`) plays the two opening dice; otherwise the
    /// starter then rolls for its first turn.
    pub fn roll_off(&mut self, dice: Option<[u8; 2]>) -> Result<Option<usize>> {
        self.expect_phase(Phase::OpeningRoll, "roll to start")?;
        let dice = match dice {
            Some(d) => check_dice(d)?,
            None => [self.dice_source.die(), self.dice_source.die()],
        };
        self.history.push(Event::OpeningRoll { dice });
        if dice[0] == dice[1] {
            return Ok(None);
        }
        let starter = if dice[0] > dice[1] { 0 } else { 1 };
        self.board = TurnDriver::start(self.rules, starter);
        if self.rules.starter_plays_opening_dice() {
            self.begin_turn([dice[starter], dice[1 - starter]])?;
        } else {
            self.phase = Phase::Roll;
        }
        Ok(Some(starter))
    }

    /// Rolls off until someone starts (seeded dice); returns the starter.
    pub fn decide_starter(&mut self) -> Result<usize> {
        loop {
            if let Some(s) = self.roll_off(None)? {
                return Ok(s);
            }
        }
    }

    /// Starts without a roll-off, `starter` to roll first (a match's later games).
    pub fn begin_with(&mut self, starter: usize) -> Result<()> {
        self.expect_phase(Phase::OpeningRoll, "begin")?;
        let starter = check_player(starter)?;
        self.history.push(Event::Begin { starter });
        self.board.set_starter(starter);
        self.phase = Phase::Roll;
        Ok(())
    }

    // ----- rolling and moving -----

    /// Rolls for the player on turn (seeded dice when None) and returns the dice.
    pub fn roll(&mut self, dice: Option<[u8; 2]>) -> Result<[u8; 2]> {
        self.expect_phase(Phase::Roll, "roll")?;
        let dice = match dice {
            Some(d) => check_dice(d)?,
            None => self.dice_source.roll(),
        };
        self.history.push(Event::Roll { player: self.turn(), dice, extra: self.board.is_extra_roll() });
        self.begin_turn(dice)?;
        Ok(dice)
    }

    fn begin_turn(&mut self, dice: [u8; 2]) -> Result<()> {
        self.board.roll(dice)?;
        self.phase = Phase::Move;
        Ok(())
    }

    /// Plays the legal move with this index.
    pub fn play(&mut self, index: usize) -> Result<()> {
        self.play_at(index).map(|_| ())
    }

    /// [`Game::play`], saying what comes next.
    fn play_index(&mut self, index: usize) -> Result<Progress> {
        self.expect_phase(Phase::Move, "move")?;
        let Some(&m) = self.board.legal_moves().get(index) else {
            return self.board.play_index(index);
        };
        let (player, step) = (self.turn(), self.cascade_step());
        let progress = self.board.play_index(index)?;
        self.history.push(Event::Move { player, play: m.play, step, named: m.named, rolls_again: m.rolls_again });
        match progress {
            Progress::Step => {}
            Progress::TurnOver | Progress::RollsAgain => self.phase = Phase::Roll,
            Progress::GameOver(Finish::Won { winner, multiplier }) => self.finish(Some(winner), multiplier, Ending::BoreOff),
            Progress::GameOver(Finish::Draw) => self.finish(None, 0, Ending::Draw),
        }
        Ok(progress)
    }

    /// Plays the rest of the roll being played (the whole roll, or the rest
    /// of a cascade part or share) with `choosers`, through the one turn
    /// driver's loop ([`crate::turn::play_roll`] without the roll).
    pub fn play_rest_of_roll(&mut self, choosers: &mut dyn Seats) -> Result<()> {
        self.expect_phase(Phase::Move, "move")?;
        crate::turn::play_rolled(self, choosers).map(|_| ())
    }

    /// Plays the legal move leading to the same position as `m`.
    pub fn play_move(&mut self, m: &Move) -> Result<()> {
        self.expect_phase(Phase::Move, "move")?;
        match self.board.find(m) {
            Some(i) => self.play(i),
            None => Err(Error::new(format!("{} is not a legal move here", crate::notation::format_play(&m.play)))),
        }
    }

    /// Plays several steps in a row (a whole cascade part or share), each
    /// checked as [`Game::play_move`]; on a refusal the steps before it stay played.
    pub fn play_moves(&mut self, moves: &[Move]) -> Result<()> {
        for (k, m) in moves.iter().enumerate() {
            self.play_move(m).map_err(|e| Error::new(format!("step {} of {}: {e}", k + 1, moves.len())))?;
        }
        Ok(())
    }

    /// Plays a move written in the usual notation ("24/18 13/11", "bar/22*").
    pub fn play_text(&mut self, text: &str) -> Result<()> {
        self.expect_phase(Phase::Move, "move")?;
        let i = entry::find_move(self.board.position(), self.board.legal_moves(), text)?;
        self.play(i)
    }

    fn finish(&mut self, winner: Option<usize>, multiplier: u8, ending: Ending) {
        let counted = if self.stakes.is_money() && self.cube_rules.jacoby && self.cube.value == 1 { multiplier.min(1) } else { multiplier };
        self.result = Some(GameResult { winner, multiplier, cube: self.cube.value, points: counted as u32 * self.cube.value, ending });
        self.phase = Phase::Over;
    }

    // ----- the cube -----

    /// The player on turn offers a double (before rolling).
    pub fn double(&mut self) -> Result<()> {
        self.check_double()?;
        self.history.push(Event::Double { player: self.turn() });
        self.phase = Phase::DoubleOffered;
        Ok(())
    }

    /// The opponent takes: it owns the cube at twice the value; the doubler rolls.
    pub fn take(&mut self) -> Result<()> {
        self.expect_phase(Phase::DoubleOffered, "take")?;
        self.history.push(Event::Take { player: 1 - self.turn() });
        self.cube.take(1 - self.turn());
        self.phase = Phase::Roll;
        Ok(())
    }

    /// The opponent takes and at once redoubles, keeping the cube (money play, `beaver` on).
    pub fn beaver(&mut self) -> Result<()> {
        self.check_beaver()?;
        self.history.push(Event::Beaver { player: 1 - self.turn() });
        self.cube.beaver(1 - self.turn());
        self.phase = Phase::Roll;
        Ok(())
    }

    /// The opponent passes and loses the game at the current cube value.
    pub fn pass(&mut self) -> Result<GameResult> {
        self.expect_phase(Phase::DoubleOffered, "pass")?;
        self.history.push(Event::Pass { player: 1 - self.turn() });
        self.finish(Some(self.turn()), 1, Ending::CubePassed);
        Ok(self.result.expect("just finished"))
    }

    /// Draws two dice from this game's seeded source (for players that roll for themselves).
    pub fn dice_source(&mut self) -> &mut Dice {
        &mut self.dice_source
    }
}

/// A game is a table the turn loop plays on: each play is recorded, and a
/// roll is refused outside the roll phase (a double offered must be answered).
impl Table for Game {
    fn driver(&self) -> &TurnDriver {
        &self.board
    }
    fn roll_dice(&mut self, dice: [u8; 2]) -> Result<()> {
        self.roll(Some(dice)).map(|_| ())
    }
    fn play_at(&mut self, index: usize) -> Result<Progress> {
        self.play_index(index)
    }
}

/// A match is at most [`MAX_MATCH_LENGTH`] points: the match equity tables
/// (and so every cube decision and match winning chance) stop there, and a
/// longer match would leave the engine unable to advise it.
pub(crate) fn check_match_length(length: u32) -> Result<()> {
    if length > MAX_MATCH_LENGTH {
        return Err(Error::new(format!("a match is played to at most {MAX_MATCH_LENGTH} points, not {length}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
