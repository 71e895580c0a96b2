//! GNU Backgammon's Position ID and Match ID, as the gnubg manual's
//! technical notes define them.
//!
//! Position ID: for the player NOT on roll and then the player on roll, for
//! each of its points 1..24 and then its bar (its own numbering), as many
//! 1-bits as checkers followed by a 0-bit; the bits fill 10 bytes from the
//! least significant bit of the first byte, written as 14 Base64 characters.
//!
//! Match ID: a 66-bit key in 9 bytes (12 Base64 characters), fields from
//! the least significant bit: cube log2 (4 bits), cube owner (2: 0, 1, or 3
//! centered), player on roll (1), Crawford (1), game state (3), player to
//! decide (1), double offered (1), resignation (2), die 1 (3), die 2 (3),
//! match length (15), player 0's score (15), player 1's score (15).

use super::require_backgammon;
use crate::error::{Error, Result};
use crate::game::{Cube, CubeRules, Snapshot, Stakes};
use crate::position::Position;
use crate::variant::Rules;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn encode_base64(bytes: &[u8], chars: usize) -> String {
    let mut out = String::with_capacity(chars);
    for k in 0..chars {
        // Base64 reads the bytes as one big-endian bit string, 6 bits a character.
        let mut v = 0u8;
        for b in 0..6 {
            let bit = k * 6 + b;
            let byte = bytes.get(bit / 8).copied().unwrap_or(0);
            let set = (byte >> (7 - bit % 8)) & 1;
            v = (v << 1) | set;
        }
        out.push(ALPHABET[v as usize] as char);
    }
    out
}

fn decode_base64(text: &str, bytes: usize, what: &str) -> Result<Vec<u8>> {
    let chars = (bytes * 8).div_ceil(6);
    if text.len() != chars {
        return Err(Error::new(format!("a GNU Backgammon {what} has {chars} characters, not {} ({text:?})", text.len())));
    }
    let mut out = vec![0u8; bytes];
    for (k, c) in text.bytes().enumerate() {
        let v = ALPHABET
            .iter()
            .position(|&a| a == c)
            .ok_or_else(|| Error::new(format!("{:?} is not a Base64 character, in the {what} {text:?}", c as char)))? as u8;
        for b in 0..6 {
            let bit = k * 6 + b;
            if (v >> (5 - b)) & 1 == 1 {
                if bit / 8 >= bytes {
                    return Err(Error::new(format!("the {what} {text:?} has stray bits at its end")));
                }
                out[bit / 8] |= 1 << (7 - bit % 8);
            }
        }
    }
    Ok(out)
}

/// The Position ID of a backgammon position (seen from the player on roll).
pub fn position_id(pos: &Position) -> Result<String> {
    require_backgammon(pos.rules(), "a GNU Backgammon position ID")?;
    let (mine, theirs) = pos.to_arrays();
    // A position holds at most 15 checkers a side: 50 zero bits and at most 30 one bits fill the 80
    // bits of the key, so every index below is inside it.
    let mut key = [0u8; 10];
    let mut bit = 0usize;
    for side in [theirs, mine] {
        for &n in side.iter() {
            bit += n as usize; // n one-bits...
            for b in bit - n as usize..bit {
                key[b / 8] |= 1 << (b % 8);
            }
            bit += 1; // ...and a zero-bit
        }
    }
    Ok(encode_base64(&key, 14))
}

/// The backgammon position of a Position ID, seen from the player on roll.
pub fn position_from_id(rules: Rules, id: &str) -> Result<Position> {
    require_backgammon(&rules, "a GNU Backgammon position ID")?;
    let key = decode_base64(id.trim(), 10, "position ID")?;
    let mut sides = [[0i64; 25]; 2];
    let mut side = 0usize;
    let mut point = 0usize;
    for bit in 0..80 {
        if side == 2 {
            if key[bit / 8] >> (bit % 8) & 1 == 1 {
                return Err(Error::new(format!("the position ID {id:?} has checkers past both sides' 25 points")));
            }
            continue;
        }
        if key[bit / 8] >> (bit % 8) & 1 == 1 {
            sides[side][point] += 1;
            if sides[side].iter().sum::<i64>() > 15 {
                return Err(Error::new(format!("the position ID {id:?} gives a player more than 15 checkers")));
            }
        } else {
            point += 1;
            if point == 25 {
                side += 1;
                point = 0;
            }
        }
    }
    if side < 2 {
        return Err(Error::new(format!("the position ID {id:?} is too short to hold both sides")));
    }
    // sides[0] is the player not on roll.
    Position::from_arrays(rules, &sides[1], &sides[0]).map_err(|e| Error::new(format!("the position ID {id:?} is not a position: {e}")))
}

/// The fields of a Match ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchKey {
    pub cube_log2: u8,
    /// 0, 1, or 3 for centered.
    pub cube_owner: u8,
    /// The player on roll (or who did roll).
    pub dice_owner: u8,
    pub crawford: bool,
    /// 0 no game, 1 playing, 2 over, 3 resigned, 4 ended by a dropped cube.
    pub game_state: u8,
    /// The player to act (the decider while a double is offered).
    pub turn: u8,
    pub double_offered: bool,
    pub resignation: u8,
    pub dice: [u8; 2],
    pub match_length: u16,
    pub score: [u16; 2],
}

fn put(key: &mut [u8; 9], at: &mut usize, width: usize, value: u64) {
    for b in 0..width {
        if value >> b & 1 == 1 {
            key[(*at + b) / 8] |= 1 << ((*at + b) % 8);
        }
    }
    *at += width;
}

fn take(key: &[u8], at: &mut usize, width: usize) -> u64 {
    let mut v = 0u64;
    for b in 0..width {
        let bit = *at + b;
        v |= ((key[bit / 8] >> (bit % 8) & 1) as u64) << b;
    }
    *at += width;
    v
}

pub fn encode_match_key(m: &MatchKey) -> String {
    let mut key = [0u8; 9];
    let mut at = 0;
    put(&mut key, &mut at, 4, m.cube_log2 as u64);
    put(&mut key, &mut at, 2, m.cube_owner as u64);
    put(&mut key, &mut at, 1, m.dice_owner as u64);
    put(&mut key, &mut at, 1, m.crawford as u64);
    put(&mut key, &mut at, 3, m.game_state as u64);
    put(&mut key, &mut at, 1, m.turn as u64);
    put(&mut key, &mut at, 1, m.double_offered as u64);
    put(&mut key, &mut at, 2, m.resignation as u64);
    put(&mut key, &mut at, 3, m.dice[0] as u64);
    put(&mut key, &mut at, 3, m.dice[1] as u64);
    put(&mut key, &mut at, 15, m.match_length as u64);
    put(&mut key, &mut at, 15, m.score[0] as u64);
    put(&mut key, &mut at, 15, m.score[1] as u64);
    encode_base64(&key, 12)
}

pub fn decode_match_key(id: &str) -> Result<MatchKey> {
    let key = decode_base64(id.trim(), 9, "match ID")?;
    let mut at = 0;
    let mut f = |w| take(&key, &mut at, w);
    let m = MatchKey {
        cube_log2: f(4) as u8,
        cube_owner: f(2) as u8,
        dice_owner: f(1) as u8,
        crawford: f(1) == 1,
        game_state: f(3) as u8,
        turn: f(1) as u8,
        double_offered: f(1) == 1,
        resignation: f(2) as u8,
        dice: [f(3) as u8, f(3) as u8],
        match_length: f(15) as u16,
        score: [f(15) as u16, f(15) as u16],
    };
    if m.cube_owner == 2 {
        return Err(Error::new(format!("the match ID {id:?} names cube owner 2, which does not exist")));
    }
    if m.dice.iter().any(|&d| d > 6) || (m.dice[0] == 0) != (m.dice[1] == 0) {
        return Err(Error::new(format!("the match ID {id:?} holds impossible dice {:?}", m.dice)));
    }
    if m.game_state > 4 {
        return Err(Error::new(format!("the match ID {id:?} has an unknown game state {}", m.game_state)));
    }
    Ok(m)
}

/// The largest match length or score a Match ID's 15-bit fields hold.
const MAX_FIELD: u32 = (1 << 15) - 1;

/// The Match ID of a snapshot (game state "playing").
pub fn match_id(s: &Snapshot) -> Result<String> {
    require_backgammon(s.rules(), "a GNU Backgammon match ID")?;
    // The match length and the scores have 15 bits each: refuse what they
    // cannot hold rather than write a different match.
    let stakes = [s.stakes.match_length, s.stakes.score[0], s.stakes.score[1]];
    if let Some(big) = stakes.iter().find(|&&n| n > MAX_FIELD) {
        return Err(Error::new(format!("a GNU Backgammon match ID holds match lengths and scores up to {MAX_FIELD}, not {big}")));
    }
    let dice = s.dice.unwrap_or([0, 0]);
    Ok(encode_match_key(&MatchKey {
        cube_log2: s.cube.value.trailing_zeros() as u8,
        cube_owner: s.cube.owner.map_or(3, |o| o as u8),
        dice_owner: s.turn as u8,
        crawford: s.stakes.crawford_game,
        game_state: 1,
        turn: if s.double_offered { 1 - s.turn as u8 } else { s.turn as u8 },
        double_offered: s.double_offered,
        resignation: 0,
        dice,
        match_length: s.stakes.match_length as u16,
        score: [s.stakes.score[0] as u16, s.stakes.score[1] as u16],
    }))
}

/// "PositionID:MatchID", the form gnubg shows as "GNU Backgammon ID".
pub fn gnubg_id(s: &Snapshot) -> Result<String> {
    Ok(format!("{}:{}", position_id(&s.position)?, match_id(s)?))
}

/// A snapshot from "PositionID:MatchID" or a bare Position ID (then player 0
/// is on roll, money play, centered cube). Accepts gnubg's "GNU Backgammon
/// Position ID: ..." style prefixes too.
pub fn parse_gnubg_id(text: &str) -> Result<Snapshot> {
    let t = text.trim();
    let (pos_text, match_text) = match t.split_once(':') {
        Some((p, m)) => (p.trim(), Some(m.trim())),
        None => (t, None),
    };
    let position = position_from_id(Rules::backgammon(), pos_text)?;
    let Some(match_text) = match_text else {
        return Ok(Snapshot::new(position));
    };
    let m = decode_match_key(match_text)?;
    let turn = m.dice_owner as usize;
    let s = Snapshot {
        position,
        turn,
        dice: (m.dice[0] != 0).then_some(m.dice),
        cube: Cube { value: 1 << m.cube_log2, owner: if m.cube_owner == 3 { None } else { Some(m.cube_owner as usize) } },
        cube_rules: CubeRules { max_value: (1u32 << m.cube_log2).max(64), ..CubeRules::default() },
        stakes: Stakes { match_length: m.match_length as u32, score: [m.score[0] as u32, m.score[1] as u32], crawford_game: m.crawford },
        double_offered: m.double_offered,
        extra_roll: false,
    };
    s.validate().map_err(|e| Error::new(format!("the match ID {match_text:?}: {e}")))?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_the_published_id() {
        let p = Position::start(Rules::backgammon());
        assert_eq!(position_id(&p).unwrap(), "4HPwATDgc/ABMA");
        assert_eq!(position_from_id(Rules::backgammon(), "4HPwATDgc/ABMA").unwrap(), p);
    }

    #[test]
    fn published_match_id_decodes() {
        // The gnubg manual's example at the start of a money game: cube 1
        // centered, player 1 on roll and to act, no game state yet.
        let m = decode_match_key("cAgAAAAAAAAA").unwrap();
        assert_eq!(m.cube_log2, 0);
        assert_eq!(m.cube_owner, 3);
        assert_eq!(m.dice_owner, 1);
        assert_eq!(m.turn, 1);
        assert_eq!(m.match_length, 0);
        assert_eq!(encode_match_key(&m), "cAgAAAAAAAAA");
    }

    #[test]
    fn match_ids_round_trip() {
        let m = MatchKey {
            cube_log2: 2,
            cube_owner: 1,
            dice_owner: 0,
            crawford: true,
            game_state: 1,
            turn: 0,
            double_offered: false,
            resignation: 0,
            dice: [5, 2],
            match_length: 7,
            score: [6, 3],
        };
        assert_eq!(decode_match_key(&encode_match_key(&m)).unwrap(), m);
    }

    #[test]
    fn bad_ids_are_named() {
        let r = Rules::backgammon();
        assert!(position_from_id(r, "4HPwATDgc/AB").unwrap_err().to_string().contains("14 characters"));
        assert!(position_from_id(r, "4HPwATDgc/AB!A").unwrap_err().to_string().contains("Base64"));
        // All ones: far too many checkers.
        assert!(position_from_id(r, "/////////////w").unwrap_err().to_string().contains("15 checkers"));
        assert!(position_from_id(Rules::nardy(), "4HPwATDgc/ABMA").unwrap_err().to_string().contains("short backgammon"));
        assert!(decode_match_key("cAgA").unwrap_err().to_string().contains("12 characters"));
    }

    #[test]
    fn what_a_match_id_cannot_say_is_refused() {
        // Found by fuzzing (fuzz/corpus/gnubg/crash-double-with-dice): a
        // double offered with dice rolled, which no game reaches; it was read
        // and then written to an XGID as a plain double, losing the dice.
        let e = parse_gnubg_id("4HPwATDgc/ABMA:MZAEFAAAAAAA").unwrap_err().to_string();
        assert!(e.contains("cannot be dice"), "{e}");
        // A match longer than the 15-bit field was written as a shorter one.
        let mut s = Snapshot::new(Position::start(Rules::backgammon()));
        s.stakes = Stakes { match_length: 1_777_777_777, score: [0, 2], crawford_game: false };
        assert!(match_id(&s).unwrap_err().to_string().contains("up to 32767"));
        // The field holds up to 32,767 points; a game is at most a 64-point match.
        s.stakes = Stakes { match_length: 32_767, score: [32_766, 2], crawford_game: false };
        let e = parse_gnubg_id(&gnubg_id(&s).unwrap()).unwrap_err().to_string();
        assert!(e.contains("a match is played to at most 64 points, not 32767"), "{e}");
        s.stakes = Stakes { match_length: 64, score: [63, 2], crawford_game: false };
        assert_eq!(parse_gnubg_id(&gnubg_id(&s).unwrap()).unwrap().stakes, s.stakes);
    }
}
