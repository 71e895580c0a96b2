//! Reading a move typed by a person ("24/18 13/11", "bar/22*", "6/off(2)",
//! "24/13", "8/4 8/4") and finding it among the legal moves.
//!
//! A typed move is matched by what it does, not by how it is spelt: each part
//! "a/b/c" takes a checker from `a` to `c`, and the legal move whose result has
//! the mover's checkers where the typed parts put them is the one meant. So
//! "24/13", "24/18/13" and "24/18 18/13" are the same move, and parts may come
//! in any order. Hit marks ('*') are needed only to tell apart two moves that
//! end with the same checkers but hit differently on the way. A checker
//! entering from the reserve starts at "reserve" ("reserve/20"); an
//! acey-deucey 1-2 names its number between its parts, as
//! [`crate::notation::format_move`] writes it ("24/23 24/22 named 6: 22/10(2)").

use crate::error::{Error, Result};
use crate::movegen::Move;
use crate::notation::{format_move, split_named};
use crate::position::{Position, BAR_POINT, ME, OFF_POINT, RESERVE_POINT};

/// One typed part: the points a checker visits, which of them hit, and how
/// many checkers make the same journey.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub points: Vec<u8>,
    pub hits: Vec<u8>,
    pub repeat: u8,
}

fn parse_point(text: &str, whole: &str) -> Result<u8> {
    let t = text.trim().to_ascii_lowercase();
    match t.as_str() {
        "bar" | "b" => return Ok(BAR_POINT),
        "off" | "o" => return Ok(OFF_POINT),
        "reserve" | "r" => return Ok(RESERVE_POINT),
        _ => {}
    }
    match t.parse::<u8>() {
        Ok(n) if n <= 25 => Ok(n),
        _ => Err(Error::new(format!("{text:?} in {whole:?} is not a point: use 1 to 24, \"bar\", \"reserve\" or \"off\""))),
    }
}

/// Splits a typed move into parts; an empty text or "pass" is no parts.
pub fn parse_parts(text: &str) -> Result<Vec<Part>> {
    let trimmed = text.trim().to_ascii_lowercase();
    if trimmed.is_empty() || trimmed == "pass" || trimmed == "no move" || trimmed == "-" {
        return Ok(vec![]);
    }
    let mut parts = vec![];
    for token in trimmed.replace(',', " ").split_whitespace() {
        let (body, repeat) = match token.find('(') {
            Some(open) => {
                let close = token
                    .rfind(')')
                    .filter(|&c| c == token.len() - 1)
                    .ok_or_else(|| Error::new(format!("{token:?}: a count is written like 8/4(2)")))?;
                let n: u8 = token[open + 1..close]
                    .parse()
                    .ok()
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| Error::new(format!("{token:?}: the count in brackets must be 1 to 4")))?;
                (&token[..open], n)
            }
            None => (token, 1),
        };
        let pieces: Vec<&str> = body.split('/').collect();
        if pieces.len() < 2 {
            return Err(Error::new(format!("{token:?} is not a move: write FROM/TO, for example 24/18 or bar/22 or 6/off")));
        }
        let mut points = vec![];
        let mut hits = vec![];
        for piece in pieces {
            let (p, hit) = match piece.strip_suffix('*') {
                Some(p) => (p, true),
                None => (piece, false),
            };
            let point = parse_point(p, token)?;
            if hit {
                hits.push(point);
            }
            points.push(point);
        }
        parts.push(Part { points, hits, repeat });
    }
    Ok(parts)
}

/// The mover's 25 counts (own numbering, bar at 24), its reserve (at 25) and
/// borne-off count.
fn mover_layout(pos: &Position) -> ([i32; 26], i32) {
    let (mine, _) = pos.to_arrays();
    let mut counts = [0; 26];
    for (c, n) in counts.iter_mut().zip(mine) {
        *c = n as i32;
    }
    counts[25] = pos.reserve(ME) as i32;
    (counts, pos.off(ME) as i32)
}

fn slot(point: u8) -> Option<usize> {
    match point {
        OFF_POINT => None,
        BAR_POINT => Some(24),
        RESERVE_POINT => Some(25),
        p => Some(p as usize - 1),
    }
}

/// Where the typed parts leave the mover's checkers, or why they cannot.
fn typed_layout(pos: &Position, parts: &[Part]) -> Result<([i32; 26], i32)> {
    // Parts may come in any order ("18/13 24/18"), so take the net effect
    // and look for a missing checker only at the end.
    let (mut counts, mut off) = mover_layout(pos);
    for part in parts {
        let from = part.points[0];
        let to = *part.points.last().expect("a part has two points or more");
        if from == OFF_POINT {
            return Err(Error::new("a checker cannot move from off the board"));
        }
        if to == BAR_POINT || to == RESERVE_POINT {
            return Err(Error::new(format!("a checker cannot move to the {}", if to == BAR_POINT { "bar" } else { "reserve" })));
        }
        for _ in 0..part.repeat {
            counts[slot(from).expect("from is on the board or the bar")] -= 1;
            match slot(to) {
                Some(t) => counts[t] += 1,
                None => off += 1,
            }
        }
    }
    if let Some(i) = counts.iter().position(|&n| n < 0) {
        let name = match i {
            24 => "the bar".to_string(),
            25 => "the reserve".to_string(),
            _ => format!("point {}", i + 1),
        };
        return Err(Error::new(format!("you have no checker left on {name} to move")));
    }
    Ok((counts, off))
}

fn hit_points(m: &Move) -> Vec<u8> {
    let mut v: Vec<u8> = m.play.steps().iter().filter(|s| s.hit).map(|s| s.to).collect();
    v.sort_unstable();
    v
}

fn listing(moves: &[Move]) -> String {
    moves.iter().map(format_move).collect::<Vec<_>>().join(", ")
}

/// The typed parts of a move and the number it names (acey-deucey's 1-2).
fn parse_move(text: &str) -> Result<(Vec<Part>, Option<u8>)> {
    let Some((first, n, second)) = split_named(text) else { return Ok((parse_parts(text)?, None)) };
    let named = n.parse::<u8>().ok().filter(|n| (1..=6).contains(n)).ok_or_else(|| {
        Error::new(format!("{:?}: the number named after a 1-2 is 1 to 6, written like \"24/23 24/22 named 6: 22/10(2)\"", text.trim()))
    })?;
    let mut parts = parse_parts(first)?;
    parts.extend(parse_parts(second)?);
    Ok((parts, Some(named)))
}

/// The index in `moves` of the move `text` describes, or a message saying
/// why none or several fit.
pub fn find_move(pos: &Position, moves: &[Move], text: &str) -> Result<usize> {
    if moves.is_empty() {
        return Err(Error::new("there is nothing to play now"));
    }
    if let Some(i) = moves.iter().position(|m| format_move(m) == text.trim()) {
        return Ok(i);
    }
    let (parts, named) = parse_move(text)?;
    if parts.is_empty() && named.is_none() {
        if moves.len() == 1 && moves[0].play.is_empty() {
            return Ok(0);
        }
        return Err(Error::new(format!("you must move: the legal moves are {}", listing(moves))));
    }
    let target = typed_layout(pos, &parts)?;
    let same: Vec<usize> =
        (0..moves.len()).filter(|&i| mover_layout(&moves[i].position) == target && (named.is_none() || moves[i].named == named)).collect();
    match same.len() {
        0 => Err(Error::new(format!(
            "{:?} is not a legal move{}: the legal moves are {}",
            text.trim(),
            if moves.len() == 1 && moves[0].play.is_empty() { " (you cannot move)" } else { "" },
            listing(moves)
        ))),
        1 => Ok(same[0]),
        _ => {
            let mut typed_hits: Vec<u8> = parts.iter().flat_map(|p| p.hits.iter().copied()).collect();
            typed_hits.sort_unstable();
            let fits: Vec<usize> = same.iter().copied().filter(|&i| hit_points(&moves[i]) == typed_hits).collect();
            if fits.len() == 1 {
                Ok(fits[0])
            } else {
                let options: Vec<Move> = same.iter().map(|&i| moves[i]).collect();
                let how = if options.iter().any(|m| m.named != options[0].named) {
                    "say the number named (\"... named 6: ...\")"
                } else {
                    "mark the hits ('*')"
                };
                Err(Error::new(format!("{:?} is ambiguous: {how} to choose between {}", text.trim(), listing(&options))))
            }
        }
    }
}

/// Whether `text` could be the start of some legal move: each typed part must
/// follow steps of one legal move (in its recorded order of points). Used for
/// moves entered a part at a time.
pub fn is_partial(moves: &[Move], text: &str) -> Result<bool> {
    let (parts, _) = parse_move(text)?;
    let mut journeys: Vec<(u8, u8)> = vec![];
    for p in &parts {
        for _ in 0..p.repeat {
            journeys.push((p.points[0], *p.points.last().unwrap()));
        }
    }
    Ok(moves.iter().any(|m| {
        let steps: Vec<(u8, u8)> = m.play.steps().iter().map(|s| (s.from, s.to)).collect();
        covers(&steps, &mut vec![false; steps.len()], &journeys)
    }))
}

/// Whether each journey can be made of a chain of unused steps.
fn covers(steps: &[(u8, u8)], used: &mut Vec<bool>, journeys: &[(u8, u8)]) -> bool {
    let Some(&(from, to)) = journeys.first() else { return true };
    chain(steps, used, from, to, &journeys[1..])
}

fn chain(steps: &[(u8, u8)], used: &mut Vec<bool>, at: u8, to: u8, rest: &[(u8, u8)]) -> bool {
    for i in 0..steps.len() {
        if used[i] || steps[i].0 != at {
            continue;
        }
        used[i] = true;
        let next = steps[i].1;
        let ok = if next == to { covers(steps, used, rest) } else { next != OFF_POINT && chain(steps, used, next, to, rest) };
        used[i] = false;
        if ok {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{legal_moves, Rules};

    #[test]
    fn spellings_of_one_move_agree() {
        let p = Position::start(Rules::backgammon());
        let moves = legal_moves(&p, 6, 5).unwrap();
        let a = find_move(&p, &moves, "24/13").unwrap();
        assert_eq!(find_move(&p, &moves, "24/18/13").unwrap(), a);
        assert_eq!(find_move(&p, &moves, "24/18 18/13").unwrap(), a);
        assert_eq!(find_move(&p, &moves, " 18/13, 24/18 ").unwrap(), a);
        let b = find_move(&p, &moves, "13/7 13/8").unwrap();
        assert_ne!(a, b);
        let moves = legal_moves(&p, 3, 3).unwrap();
        let c = find_move(&p, &moves, "8/5(2) 6/3(2)").unwrap();
        assert_eq!(find_move(&p, &moves, "6/3 8/5 6/3 8/5").unwrap(), c);
    }

    #[test]
    fn bad_entries_say_what_is_wrong() {
        let p = Position::start(Rules::backgammon());
        let moves = legal_moves(&p, 6, 5).unwrap();
        let e = find_move(&p, &moves, "24/15").unwrap_err().to_string();
        assert!(e.contains("not a legal move") && e.contains("24/13"), "{e}");
        let e = find_move(&p, &moves, "23/12").unwrap_err().to_string();
        assert!(e.contains("no checker left on point 23"), "{e}");
        let e = find_move(&p, &moves, "24-18").unwrap_err().to_string();
        assert!(e.contains("FROM/TO"), "{e}");
        let e = find_move(&p, &moves, "24/x").unwrap_err().to_string();
        assert!(e.contains("not a point"), "{e}");
        let e = find_move(&p, &moves, "").unwrap_err().to_string();
        assert!(e.contains("must move"), "{e}");
    }

    #[test]
    fn partial_entries() {
        let p = Position::start(Rules::backgammon());
        let moves = legal_moves(&p, 6, 5).unwrap();
        assert!(is_partial(&moves, "24/18").unwrap());
        assert!(is_partial(&moves, "13/8").unwrap());
        assert!(!is_partial(&moves, "24/20").unwrap());
    }

    #[test]
    fn hits_tell_apart_equal_layouts() {
        // Mine: one checker on 13; theirs: a blot on my 9 (their 16), my 11 open.
        let mut mine = [0i64; 25];
        mine[12] = 1;
        mine[5] = 14;
        let mut theirs = [0i64; 25];
        theirs[15] = 1;
        theirs[0] = 14;
        let p = Position::from_arrays(Rules::backgammon(), &mine, &theirs).unwrap();
        let moves = legal_moves(&p, 4, 2).unwrap();
        let hit = find_move(&p, &moves, "13/9*/7").unwrap();
        assert!(moves[hit].play.steps().iter().any(|s| s.hit));
        let quiet = find_move(&p, &moves, "13/11/7").unwrap();
        assert!(moves[quiet].play.steps().iter().all(|s| !s.hit));
        // Without a hit mark the quiet move is meant.
        assert_eq!(find_move(&p, &moves, "13/7").unwrap(), quiet);
    }
}
