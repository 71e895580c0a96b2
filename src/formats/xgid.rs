//! eXtreme Gammon's XGID:
//! `XGID=position:cube:cube_owner:turn:dice:score_bottom:score_top:crawford_jacoby:match_length:max_cube`.
//!
//! - position, 26 characters: [0] the top player's bar, [1..=24] points 1..24
//!   in the bottom player's numbering, [25] the bottom player's bar; '-' is
//!   empty, 'A'..'O' 1..15 bottom checkers, 'a'..'o' 1..15 top checkers;
//! - cube: log2 of its value; cube_owner: 1 bottom, -1 top, 0 centered;
//! - turn: 1 bottom, -1 top (while a double is offered: the doubler);
//! - dice: "00" to roll, "D" doubled, "B" beavered, "R" raccooned, else two digits;
//! - crawford_jacoby: in a match 1 for the Crawford game; in money play
//!   Jacoby (1) plus beaver (2);
//! - match_length 0 for money; max_cube: log2 of the cube limit.
//!
//! Player 0 is the bottom player, player 1 the top player.

use super::require_backgammon;
use crate::error::{Error, Result};
use crate::game::{Cube, CubeRules, Snapshot, Stakes};
use crate::variant::Rules;

fn point_char(n: u8, upper: bool) -> char {
    if n == 0 {
        '-'
    } else if upper {
        (b'A' + n - 1) as char
    } else {
        (b'a' + n - 1) as char
    }
}

/// The XGID of a backgammon snapshot.
pub fn write(s: &Snapshot) -> Result<String> {
    require_backgammon(s.rules(), "XGID")?;
    let bottom = s.checkers(0);
    let top = s.checkers(1);
    let mut board = String::with_capacity(26);
    board.push(point_char(top[24], false));
    for p in 1..=24usize {
        // The top player's point 25 - p is the bottom player's point p.
        let c = if bottom[p - 1] > 0 { point_char(bottom[p - 1], true) } else { point_char(top[24 - p], false) };
        board.push(c);
    }
    board.push(point_char(bottom[24], true));
    let side = |p: usize| if p == 0 { 1 } else { -1 };
    let owner = s.cube.owner.map_or(0, side);
    let dice = if s.double_offered { "D".to_string() } else { s.dice.map_or("00".to_string(), |d| format!("{}{}", d[0], d[1])) };
    let flags = if s.stakes.is_money() { s.cube_rules.jacoby as u8 + 2 * s.cube_rules.beaver as u8 } else { s.stakes.crawford_game as u8 };
    Ok(format!(
        "XGID={board}:{}:{owner}:{}:{dice}:{}:{}:{flags}:{}:{}",
        s.cube.value.trailing_zeros(),
        side(s.turn),
        s.stakes.score[0],
        s.stakes.score[1],
        s.stakes.match_length,
        s.cube_rules.max_value.trailing_zeros()
    ))
}

fn field<T: std::str::FromStr>(text: &str, name: &str) -> Result<T> {
    text.trim().parse().map_err(|_| Error::new(format!("the XGID's {name} field {text:?} is not a number")))
}

/// Reads an XGID (the "XGID=" prefix is optional; max_cube may be missing).
pub fn parse(text: &str) -> Result<Snapshot> {
    let t = text.trim();
    let t = t.strip_prefix("XGID=").unwrap_or(t);
    let f: Vec<&str> = t.split(':').collect();
    if f.len() != 9 && f.len() != 10 {
        return Err(Error::new(format!(
            "an XGID has 10 fields (9 without the max cube) separated by ':', this has {} ({text:?})",
            f.len()
        )));
    }
    let board = f[0].as_bytes();
    if board.len() != 26 {
        return Err(Error::new(format!("an XGID board has 26 characters, not {} ({:?})", board.len(), f[0])));
    }
    let mut bottom = [0i64; 25];
    let mut top = [0i64; 25];
    for (i, &c) in board.iter().enumerate() {
        let (n, upper) = match c {
            b'-' => continue,
            b'A'..=b'P' => ((c - b'A' + 1) as i64, true),
            b'a'..=b'p' => ((c - b'a' + 1) as i64, false),
            _ => return Err(Error::new(format!("{:?} at place {i} of the XGID board is not '-', A-O or a-o", c as char))),
        };
        match (i, upper) {
            (0, true) | (25, false) => {
                return Err(Error::new(format!(
                    "place {i} of the XGID board is the {} player's bar, but holds the other player's checkers",
                    if i == 0 { "top" } else { "bottom" }
                )))
            }
            (0, false) => top[24] = n,
            (25, true) => bottom[24] = n,
            (p, true) => bottom[p - 1] = n,
            (p, false) => top[24 - p] = n,
        }
    }
    let cube_log2: u32 = field(f[1], "cube")?;
    if cube_log2 > 15 {
        return Err(Error::new(format!("the XGID's cube 2^{cube_log2} is too big")));
    }
    let owner = match f[2].trim() {
        "0" => None,
        "1" => Some(0),
        "-1" => Some(1),
        o => return Err(Error::new(format!("the XGID's cube owner must be 1, 0 or -1, not {o:?}"))),
    };
    let turn = match f[3].trim() {
        "1" => 0,
        "-1" => 1,
        o => return Err(Error::new(format!("the XGID's turn must be 1 or -1, not {o:?}"))),
    };
    let (dice, double_offered) = match f[4].trim() {
        "00" => (None, false),
        "D" | "B" | "R" => (None, true),
        d if d.len() == 2 && d.bytes().all(|b| (b'1'..=b'6').contains(&b)) => {
            let b = d.as_bytes();
            (Some([b[0] - b'0', b[1] - b'0']), false)
        }
        d => return Err(Error::new(format!("the XGID's dice {d:?} are not \"00\", \"D\" or two dice 1-6"))),
    };
    let score = [field::<u32>(f[5], "bottom score")?, field::<u32>(f[6], "top score")?];
    let flags: u8 = field(f[7], "Crawford/Jacoby")?;
    let match_length: u32 = field(f[8], "match length")?;
    let max_log2: u32 = if f.len() == 10 { field(f[9], "max cube")? } else { 10 };
    if max_log2 > 15 {
        return Err(Error::new(format!("the XGID's max cube 2^{max_log2} is too big")));
    }
    let money = match_length == 0;
    let rules = Rules::backgammon();
    let position = Snapshot::position_from_players(rules, [&bottom, &top], turn)
        .map_err(|e| Error::new(format!("the XGID board is not a position: {e}")))?;
    let s = Snapshot {
        position,
        turn,
        dice,
        cube: Cube { value: 1 << cube_log2, owner },
        cube_rules: CubeRules {
            enabled: true,
            jacoby: money && flags & 1 == 1,
            beaver: money && flags & 2 == 2,
            max_value: (1u32 << max_log2).max(1 << cube_log2),
        },
        stakes: Stakes { match_length, score, crawford_game: !money && flags & 1 == 1 },
        double_offered,
        extra_roll: false,
    };
    s.validate().map_err(|e| Error::new(format!("the XGID {text:?}: {e}")))?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    const START: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";

    #[test]
    fn the_start_position() {
        let s = parse(START).unwrap();
        assert_eq!(s.position, Position::start(Rules::backgammon()));
        assert_eq!(s.turn, 0);
        assert_eq!(s.cube, Cube::default());
        assert_eq!(write(&s).unwrap(), START);
    }

    #[test]
    fn a_match_position_round_trips() {
        // Top player on roll with 6-4, 7-point match at 2-4, top owns a 2-cube.
        let x = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:64:2:4:0:7:10";
        let s = parse(x).unwrap();
        assert_eq!(s.turn, 1);
        assert_eq!(s.dice, Some([6, 4]));
        assert_eq!(s.cube, Cube { value: 2, owner: Some(1) });
        assert_eq!(s.stakes.score, [2, 4]);
        assert_eq!(write(&s).unwrap(), x);
        // Bar checkers: a bottom checker on the bar, a top one too.
        let x = "XGID=aa----E-C---eE---c-e----AA:0:0:1:00:0:0:3:0:10";
        let s = parse(x).unwrap();
        assert_eq!(s.checkers(0)[24], 1);
        assert_eq!(s.checkers(1)[24], 1);
        assert!(s.cube_rules.jacoby && s.cube_rules.beaver);
        assert_eq!(write(&s).unwrap(), x);
    }

    #[test]
    fn bad_xgids_are_named() {
        assert!(parse("XGID=-b----E-C").unwrap_err().to_string().contains("10 fields"));
        assert!(parse("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10").unwrap_err().to_string().contains("26"));
        assert!(parse("XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10").unwrap_err().to_string().contains("turn"));
        assert!(parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10").unwrap_err().to_string().contains("dice"));
        assert!(parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10").unwrap_err().to_string().contains("past the match length"));
        assert!(parse("XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10").unwrap_err().to_string().contains("15"));
    }
}
