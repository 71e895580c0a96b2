//! A position with its game context: whose turn it is, the dice, the cube
//! and the score. It is the state every position text (XGID, GNU Backgammon
//! IDs, FIBS boards, JSON) describes, and the state a [`Game`] may continue
//! from ([`Game::from_snapshot`]). The format layer reads and writes it; it
//! knows nothing of texts.

use super::{Cube, CubeRules, Game, Phase, Stakes};
use crate::cube::state::MAX_CUBE;
use crate::error::{Error, Result};
use crate::position::Position;
use crate::variant::Rules;

/// A position with its game context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Seen from `turn`.
    pub position: Position,
    /// The player on roll (while a double is offered: the doubler).
    pub turn: usize,
    /// The dice rolled by `turn`, if it has rolled.
    pub dice: Option<[u8; 2]>,
    pub cube: Cube,
    pub cube_rules: CubeRules,
    pub stakes: Stakes,
    /// `turn` has doubled and the opponent must answer.
    pub double_offered: bool,
    /// Acey-deucey: `turn` rolls again after a 1-2 played in full (its turn
    /// goes on, so it may not double before this roll).
    pub extra_roll: bool,
}

impl Snapshot {
    /// A money position with a centered cube, player 0 on roll, no dice.
    pub fn new(position: Position) -> Snapshot {
        Snapshot {
            position,
            turn: 0,
            dice: None,
            cube: Cube::default(),
            cube_rules: CubeRules::default(),
            stakes: Stakes::money(),
            double_offered: false,
            extra_roll: false,
        }
    }

    /// The state of a game now.
    pub fn of_game(game: &Game) -> Snapshot {
        Snapshot {
            position: *game.position(),
            turn: game.turn(),
            dice: if game.phase() == Phase::Move { game.dice() } else { None },
            cube: game.cube(),
            cube_rules: *game.cube_rules(),
            stakes: *game.stakes(),
            double_offered: game.phase() == Phase::DoubleOffered,
            extra_roll: game.phase() == Phase::Roll && game.is_extra_roll(),
        }
    }

    pub fn rules(&self) -> &Rules {
        self.position.rules()
    }

    /// Player `player`'s 25 counts in its own numbering (index 24 the bar).
    pub fn checkers(&self, player: usize) -> [u8; 25] {
        let (mine, theirs) = self.position.to_arrays();
        if player == self.turn {
            mine
        } else {
            theirs
        }
    }

    /// Checkers of `player` in reserve (Dutch backgammon and acey-deucey).
    pub fn reserve(&self, player: usize) -> u8 {
        self.position.reserve(if player == self.turn { crate::position::ME } else { crate::position::THEM })
    }

    /// Builds the position from both players' arrays (own numbering each),
    /// `turn` (0 or 1: anything else is an error) on roll.
    pub fn position_from_players(rules: Rules, players: [&[i64]; 2], turn: usize) -> Result<Position> {
        Snapshot::position_from_players_with_reserve(rules, players, [0, 0], turn)
    }

    /// [`Snapshot::position_from_players`] with each player's reserve.
    pub fn position_from_players_with_reserve(rules: Rules, players: [&[i64]; 2], reserve: [i64; 2], turn: usize) -> Result<Position> {
        if turn > 1 {
            return Err(Error::new(format!("player {turn} does not exist: players are 0 and 1")));
        }
        Position::from_arrays_with_reserve(rules, players[turn], players[1 - turn], [reserve[turn], reserve[1 - turn]])
    }

    /// Checks the parts that do not live in [`Position`].
    pub fn validate(&self) -> Result<()> {
        if self.turn > 1 {
            return Err(Error::new(format!("player {} does not exist: players are 0 and 1", self.turn)));
        }
        if let Some(d) = self.dice {
            for x in d {
                crate::movegen::check_die(x as i64)?;
            }
            if self.double_offered {
                // A double comes before the roll; the forms that can say
                // both (a Match ID, a FIBS board, JSON) must not.
                return Err(Error::new("a double is offered before rolling, so there cannot be dice as well"));
            }
        }
        if self.extra_roll {
            if self.rules().variant != crate::variant::Variant::AceyDeucey {
                return Err(Error::new(format!(
                    "an extra roll follows acey-deucey's 1-2 only, not a roll of {}",
                    self.rules().variant.name()
                )));
            }
            if self.dice.is_some() || self.double_offered {
                return Err(Error::new("an extra roll is still to be rolled: there cannot be dice or a double offered as well"));
            }
        }
        let limit = self.cube_rules.max_value;
        if !limit.is_power_of_two() || limit > MAX_CUBE {
            // An XGID writes the limit as its log2 and reads 15 at most, a
            // Match ID's cube field has 4 bits, and a cube doubled past 2^31
            // overflows.
            return Err(Error::new(format!("the cube limit must be a power of two up to {MAX_CUBE}, not {limit}")));
        }
        if !self.cube.value.is_power_of_two() || self.cube.value > MAX_CUBE {
            return Err(Error::new(format!("a cube of {} does not exist", self.cube.value)));
        }
        if self.cube.owner.is_some_and(|o| o > 1) {
            return Err(Error::new("the cube owner must be player 0, player 1 or nobody"));
        }
        super::check_match_length(self.stakes.match_length)?;
        if self.stakes.match_length > 0 {
            for (p, s) in self.stakes.score.iter().enumerate() {
                if *s >= self.stakes.match_length {
                    return Err(Error::new(format!(
                        "player {p}'s score {s} is past the match length {}: the match would be over",
                        self.stakes.match_length
                    )));
                }
            }
            if self.stakes.crawford_game {
                crate::cube::state::check_crawford_score(self.stakes.match_length, self.stakes.score)?;
            }
        } else if self.stakes.score != [0, 0] || self.stakes.crawford_game {
            return Err(Error::new("a score or a Crawford game needs a match length"));
        }
        Ok(())
    }
}
