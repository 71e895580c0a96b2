//! FIBS `board:` strings (the CLIP raw board, FIBS Client Protocol spec):
//! `board:you:opponent:match_length:your_score:opponent_score:` then 26
//! board numbers (0 and 25 the bars, O's checkers positive, X's negative),
//! turn (-1 X, 1 O, 0 over), your dice (2), the opponent's dice (2), cube,
//! you may double, opponent may double, was doubled, your colour (-1 X,
//! 1 O), direction (-1: you move from 24 to 1; 1: from 1 to 24), home, bar,
//! your borne-off, opponent's borne-off, your bar, opponent's bar, can move,
//! forced move, did Crawford, redoubles: 53 fields.
//!
//! Player 0 is "you". Money play is match length 9999 (unlimited).

use super::require_backgammon;
use crate::error::{Error, Result};
use crate::game::{Cube, CubeRules, Snapshot, Stakes};
use crate::variant::Rules;

const FIELDS: usize = 53;
const UNLIMITED: u32 = 9999;

/// A FIBS board: the snapshot and the two names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FibsBoard {
    pub snapshot: Snapshot,
    pub names: [String; 2],
}

/// The board string, with player 0 as "you" playing X from 24 down to 1.
pub fn write(s: &Snapshot, names: [&str; 2]) -> Result<String> {
    require_backgammon(s.rules(), "a FIBS board")?;
    for n in names {
        if n.is_empty() || n.contains(':') || n.contains(char::is_whitespace) {
            return Err(Error::new(format!("a FIBS name must be non-empty without ':' or spaces, not {n:?}")));
        }
    }
    if s.stakes.match_length == UNLIMITED {
        return Err(Error::new(format!(
            "a FIBS board's match length {UNLIMITED} means unlimited (money) play: a {UNLIMITED}-point match cannot be written"
        )));
    }
    let me = s.checkers(0);
    let opp = s.checkers(1);
    // You are X (negative) moving 24 -> 1: your point p is index p, your bar 25,
    // your home 0; the opponent's point q is index 25 - q, its bar index 0.
    let mut board = [0i64; 26];
    for p in 1..=24 {
        board[p] -= me[p - 1] as i64;
        board[25 - p] += opp[p - 1] as i64;
    }
    board[25] = -(me[24] as i64);
    board[0] = opp[24] as i64;
    let turn: i64 = if s.turn == 0 { -1 } else { 1 };
    let dice = s.dice.unwrap_or([0, 0]);
    let (my_dice, opp_dice) = if s.turn == 0 { (dice, [0, 0]) } else { ([0, 0], dice) };
    let may = |p: usize| !s.stakes.crawford_game && s.cube_rules.enabled && s.cube.owner.is_none_or(|o| o == p);
    let was_doubled = s.double_offered && s.turn == 1;
    let length = if s.stakes.is_money() { UNLIMITED } else { s.stakes.match_length };
    let mut f: Vec<String> = vec![
        "board".into(),
        names[0].into(),
        names[1].into(),
        length.to_string(),
        s.stakes.score[0].to_string(),
        s.stakes.score[1].to_string(),
    ];
    f.extend(board.iter().map(|n| n.to_string()));
    let nums: [i64; 21] = [
        turn,
        my_dice[0] as i64,
        my_dice[1] as i64,
        opp_dice[0] as i64,
        opp_dice[1] as i64,
        s.cube.value as i64,
        may(0) as i64,
        may(1) as i64,
        was_doubled as i64,
        -1,
        -1,
        0,
        25,
        (15 - me.iter().map(|&n| n as i64).sum::<i64>()),
        (15 - opp.iter().map(|&n| n as i64).sum::<i64>()),
        me[24] as i64,
        opp[24] as i64,
        0,
        0,
        0,
        0,
    ];
    f.extend(nums.iter().map(|n| n.to_string()));
    Ok(f.join(":"))
}

fn num(f: &[&str], i: usize, name: &str) -> Result<i64> {
    f[i].trim().parse().map_err(|_| Error::new(format!("the FIBS board's {name} (field {i}) {:?} is not a number", f[i])))
}

/// Reads a FIBS board string.
pub fn parse(text: &str) -> Result<FibsBoard> {
    let f: Vec<&str> = text.trim().split(':').collect();
    // split yields at least one piece (the whole text when it has no ':'); num reads only after the count check.
    if f[0] != "board" {
        return Err(Error::new("a FIBS board starts with \"board:\""));
    }
    if f.len() != FIELDS {
        return Err(Error::new(format!("a FIBS board has {FIELDS} fields separated by ':', this has {}", f.len())));
    }
    let length = num(&f, 3, "match length")?;
    let score = [num(&f, 4, "your score")?, num(&f, 5, "opponent's score")?];
    let mut board = [0i64; 26];
    for (i, b) in board.iter_mut().enumerate() {
        *b = num(&f, 6 + i, "board")?;
    }
    let turn = num(&f, 32, "turn")?;
    let dice = [num(&f, 33, "dice")?, num(&f, 34, "dice")?, num(&f, 35, "dice")?, num(&f, 36, "dice")?];
    let cube = num(&f, 37, "cube")?;
    let may = [num(&f, 38, "may double")?, num(&f, 39, "may double")?];
    let was_doubled = num(&f, 40, "was doubled")?;
    let colour = num(&f, 41, "colour")?;
    let direction = num(&f, 42, "direction")?;
    let on_bar = [num(&f, 47, "your bar")?, num(&f, 48, "opponent's bar")?];
    if colour != 1 && colour != -1 {
        return Err(Error::new(format!("the FIBS colour must be 1 or -1, not {colour}")));
    }
    if direction != 1 && direction != -1 {
        return Err(Error::new(format!("the FIBS direction must be 1 or -1, not {direction}")));
    }
    if let Some(i) = board.iter().position(|n| !(-15..=15).contains(n)) {
        return Err(Error::new(format!("the FIBS board's place {i} holds {} checkers: a player has only 15", board[i])));
    }
    let mut me = [0i64; 25];
    let mut opp = [0i64; 25];
    for (idx, &n) in (1usize..).zip(&board[1..=24]) {
        // Your point number for this index; the opponent's is 25 minus it.
        let p = if direction == -1 { idx } else { 25 - idx };
        if n * colour > 0 {
            me[p - 1] = n.abs();
        } else if n != 0 {
            opp[24 - p] = n.abs();
        }
    }
    if on_bar.iter().any(|&b| !(0..=15).contains(&b)) {
        return Err(Error::new(format!("the FIBS bar counts {on_bar:?} are impossible")));
    }
    me[24] = on_bar[0];
    opp[24] = on_bar[1];
    // turn -1 is X's turn, 1 O's: mine when it equals my colour (0: game over).
    let player = if turn == colour || turn == 0 { 0 } else { 1 };
    let roller_dice = if player == 0 { [dice[0], dice[1]] } else { [dice[2], dice[3]] };
    let dice = if roller_dice[0] > 0 {
        let d = [crate::movegen::check_die(roller_dice[0])?, crate::movegen::check_die(roller_dice[1])?];
        Some(d)
    } else {
        None
    };
    if !(cube > 0 && (cube as u64).is_power_of_two() && cube <= 1 << 15) {
        return Err(Error::new(format!("the FIBS cube {cube} is not a power of two")));
    }
    // FIBS does not say who owns the cube; it says who may double.
    let owner = if cube == 1 {
        None
    } else {
        match may {
            [1, 0] => Some(0),
            [0, 1] => Some(1),
            _ => None,
        }
    };
    let money = length == UNLIMITED as i64;
    if !money && !(1..=u32::MAX as i64).contains(&length) {
        return Err(Error::new(format!("the FIBS match length {length} is impossible")));
    }
    if score.iter().any(|&s| !(0..=u32::MAX as i64).contains(&s)) {
        return Err(Error::new(format!("the FIBS scores {score:?} are impossible")));
    }
    let position = Snapshot::position_from_players(Rules::backgammon(), [&me, &opp], player)
        .map_err(|e| Error::new(format!("the FIBS board is not a position: {e}")))?;
    let crawford_game = !money && cube == 1 && may == [0, 0] && score.contains(&(length - 1));
    let snapshot = Snapshot {
        position,
        turn: if was_doubled == 1 { 1 } else { player },
        dice,
        cube: Cube { value: cube as u32, owner },
        cube_rules: CubeRules { max_value: (cube as u32).max(64), ..CubeRules::default() },
        stakes: if money {
            Stakes::money()
        } else {
            Stakes { match_length: length as u32, score: [score[0] as u32, score[1] as u32], crawford_game }
        },
        double_offered: was_doubled == 1,
        extra_roll: false,
    };
    let snapshot = if snapshot.turn != player { Snapshot { position: snapshot.position.flip(), ..snapshot } } else { snapshot };
    snapshot.validate()?;
    Ok(FibsBoard { snapshot, names: [f[1].to_string(), f[2].to_string()] })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn published_example_reads() {
        // From a FIBS forum post: mpgnu (X, moving 1 -> 24) to play 3-6.
        let text = "board:mpgnu:buster:17:0:2:0:0:0:2:1:4:3:0:1:0:1:0:0:2:0:0:0:0:0:1:-2:-2:-1:-4:-4:0:-1:3:6:0:0:1:1:1:0:-1:1:25:0:2:0:0:0:2:2:0:0";
        let b = parse(text).unwrap();
        let s = b.snapshot;
        assert_eq!(b.names, ["mpgnu".to_string(), "buster".to_string()]);
        assert_eq!(s.turn, 0);
        assert_eq!(s.dice, Some([3, 6]));
        assert_eq!(s.stakes.match_length, 17);
        assert_eq!(s.stakes.score, [0, 2]);
        // mpgnu's checkers sit on indices 20..24, its points 5..1; two are off.
        let me = s.checkers(0);
        assert_eq!(&me[..5], &[4, 4, 1, 2, 2]);
        assert_eq!(s.position.off(crate::position::ME), 2);
        // buster's checkers at index 3 (2 of them): its point 3 in its own numbering
        // since it moves 24 -> 1 (index = point).
        assert_eq!(s.checkers(1)[2], 2);
    }

    #[test]
    fn round_trip() {
        let mut s = Snapshot::new(Position::start(Rules::backgammon()));
        s.dice = Some([5, 2]);
        s.turn = 1;
        s.stakes = Stakes { match_length: 5, score: [1, 3], crawford_game: false };
        let text = write(&s, ["alice", "bob"]).unwrap();
        assert_eq!(text.split(':').count(), FIELDS);
        let back = parse(&text).unwrap();
        assert_eq!(back.snapshot, s);
        assert!(parse("board:a:b:1").unwrap_err().to_string().contains("53 fields"));
        assert!(write(&s, ["a b", "c"]).is_err());
    }

    /// The published example with some fields (index, new text) replaced.
    fn example_with(changes: &[(usize, &str)]) -> String {
        let text = "board:mpgnu:buster:17:0:2:0:0:0:2:1:4:3:0:1:0:1:0:0:2:0:0:0:0:0:1:-2:-2:-1:-4:-4:0:-1:3:6:0:0:1:1:1:0:-1:1:25:0:2:0:0:0:2:2:0:0";
        let mut f: Vec<&str> = text.split(':').collect();
        for &(i, v) in changes {
            f[i] = v;
        }
        f.join(":")
    }

    #[test]
    fn impossible_boards_are_refused_by_name() {
        let e = |changes: &[(usize, &str)]| parse(&example_with(changes)).unwrap_err().to_string();
        // Found by fuzzing (fuzz/corpus/fibs/crash-doubled-with-dice): "was
        // doubled" with dice on the board read as a double offered after the roll.
        assert!(e(&[(32, "1"), (35, "3"), (36, "6"), (40, "1")]).contains("cannot be dice"));
        // A count of i64::MIN overflowed `n * colour` (a panic with overflow checks).
        assert!(e(&[(7, "-9223372036854775808")]).contains("only 15"));
        assert!(e(&[(6, "16")]).contains("only 15"));
        // Lengths and scores past u32 were truncated into another match.
        assert!(e(&[(3, "4294967313")]).contains("match length"));
        assert!(e(&[(5, "4294967298")]).contains("scores"));
        // 9999 reads as money play, so a 9999-point match is not written as one.
        let mut s = Snapshot::new(Position::start(Rules::backgammon()));
        s.stakes = Stakes { match_length: UNLIMITED, score: [0, 0], crawford_game: false };
        assert!(write(&s, ["a", "b"]).unwrap_err().to_string().contains("9999"));
    }
}
