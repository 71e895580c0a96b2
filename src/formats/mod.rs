//! Position text formats (RULES.md section 6).
//!
//! All of them describe a [`Snapshot`]: a position together with whose turn
//! it is, the dice, the cube and the score. Players are numbered 0 and 1:
//! in XGID player 0 is the bottom player (upper-case letters), in GNU
//! Backgammon IDs player 0 is gnubg's player 0, in FIBS boards player 0 is
//! "you" (the first name).
//!
//! - [`xgid`]: eXtreme Gammon's XGID (backgammon);
//! - [`gnubg`]: GNU Backgammon's Position ID and Match ID (backgammon);
//! - [`fibs`]: FIBS `board:` strings (backgammon);
//! - [`json`]: the project's own JSON, for every variant.

pub mod fibs;
pub mod gnubg;
pub mod json;
pub mod xgid;

use crate::error::{Error, Result};
use crate::game::{Cube, CubeRules, Game, Phase, Stakes};
use crate::position::Position;
use crate::variant::{Rules, Variant};

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

    /// Builds the position from both players' arrays (own numbering each).
    pub fn position_from_players(rules: Rules, players: [&[i64]; 2], turn: usize) -> Result<Position> {
        Position::from_arrays(rules, players[turn], players[1 - turn])
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
        }
        if !self.cube.value.is_power_of_two() || self.cube.value > self.cube_rules.max_value.max(1 << 15) {
            return Err(Error::new(format!("a cube of {} does not exist", self.cube.value)));
        }
        if self.cube.owner.is_some_and(|o| o > 1) {
            return Err(Error::new("the cube owner must be player 0, player 1 or nobody"));
        }
        if self.stakes.match_length > 0 {
            for (p, s) in self.stakes.score.iter().enumerate() {
                if *s >= self.stakes.match_length {
                    return Err(Error::new(format!(
                        "player {p}'s score {s} is past the match length {}: the match would be over",
                        self.stakes.match_length
                    )));
                }
            }
        } else if self.stakes.score != [0, 0] || self.stakes.crawford_game {
            return Err(Error::new("a score or a Crawford game needs a match length"));
        }
        Ok(())
    }
}

pub(crate) fn require_backgammon(rules: &Rules, format: &str) -> Result<()> {
    if rules.variant != Variant::Backgammon {
        return Err(Error::new(format!(
            "{format} describes short backgammon only, not {}; use the JSON form",
            rules.variant.name()
        )));
    }
    Ok(())
}

/// Reads any supported form: an XGID, a GNU Backgammon ID ("position:match"
/// or a bare position ID), a FIBS board, or JSON (backgammon unless the JSON
/// names its variant).
pub fn parse_any(text: &str) -> Result<Snapshot> {
    let t = text.trim();
    if t.starts_with('{') {
        json::snapshot_from_json(t)
    } else if t.starts_with("XGID=") || t.matches(':').count() == 9 {
        xgid::parse(t)
    } else if t.starts_with("board:") {
        fibs::parse(t).map(|b| b.snapshot)
    } else if t.len() >= 14 {
        gnubg::parse_gnubg_id(t)
    } else {
        Err(Error::new(format!(
            "cannot tell what {t:?} is: expected an XGID (XGID=...), a GNU Backgammon position ID \
             (14 characters, optionally :match ID), a FIBS board (board:...) or JSON ({{...}})"
        )))
    }
}
