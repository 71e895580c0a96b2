//! Text formats: the position forms of RULES.md section 6, and game and
//! match records. Reading and writing texts, nothing more: the state they
//! describe belongs to the game layer, so this module depends on
//! [`crate::game`] and never the other way round.
//!
//! The position forms all describe a [`Snapshot`] (`crate::game::Snapshot`,
//! re-exported here): a position together with whose turn it is, the dice,
//! the cube and the score. Players are numbered 0 and 1: in XGID player 0 is
//! the bottom player (upper-case letters), in GNU Backgammon IDs player 0 is
//! gnubg's player 0, in FIBS boards player 0 is "you" (the first name).
//!
//! - [`xgid`]: eXtreme Gammon's XGID (backgammon);
//! - [`gnubg`]: GNU Backgammon's Position ID and Match ID (backgammon);
//! - [`fibs`]: FIBS `board:` strings (backgammon);
//! - [`json`]: the project's own JSON, for every variant;
//! - [`record`]: game and match records as JSON, and replaying them;
//! - [`mat`]: Jellyfish `.mat` match files; [`sgf`]: GNU Backgammon's `.sgf` match files.

pub mod fibs;
pub mod gnubg;
pub mod json;
pub mod mat;
pub mod matchtext;
pub mod record;
pub mod sgf;
pub mod xgid;

use crate::error::{Error, Result};
use crate::game::Snapshot;
use crate::variant::{Rules, Variant};

pub(crate) fn require_backgammon(rules: &Rules, format: &str) -> Result<()> {
    if rules.variant != Variant::Backgammon {
        // The reserve games share backgammon's board, but these forms have no
        // place for checkers in reserve: say so rather than drop them.
        let why = if rules.variant.has_reserve() { " (it has no place for the checkers in reserve)" } else { "" };
        return Err(Error::new(format!("{format} describes short backgammon only, not {}{why}; use the JSON form", rules.variant.name())));
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
    } else if t.starts_with("board:") {
        // Before the XGID's count of colons: a FIBS board cut short to ten
        // fields is still a FIBS board, and its message should say so.
        fibs::parse(t).map(|b| b.snapshot)
    } else if t.starts_with("XGID=") || t.matches(':').count() == 9 {
        xgid::parse(t)
    } else if t.len() >= 14 {
        gnubg::parse_gnubg_id(t)
    } else {
        Err(Error::new(format!(
            "cannot tell what {t:?} is: expected an XGID (XGID=...), a GNU Backgammon position ID \
             (14 characters, optionally :match ID), a FIBS board (board:...) or JSON ({{...}})"
        )))
    }
}
