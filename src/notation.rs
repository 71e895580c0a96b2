//! The usual move notation: "24/18 13/11", "bar/22*", "6/off", "13/11(2)";
//! an entry from the reserve (Dutch backgammon, acey-deucey) is "reserve/20".
//!
//! Steps of one checker are joined ("24/18 18/13" is written "24/13"), keeping
//! an intermediate point only where the checker hit on the way ("24/18*/13").
//! Identical moves are counted ("8/4(2)"). Moves are listed from the highest
//! starting point down, as GNU Backgammon and XG print them.
//!
//! Acey-deucey's 1-2 roll is written part by part, the number named between
//! them ([`format_move`]): "reserve/24 reserve/23 named 6: 24/18(2) 23/17(2)";
//! "named 4: no move" when the named number cannot be played at all.

use crate::movegen::{Move, Play, Step};
use crate::position::{BAR_POINT, OFF_POINT, RESERVE_POINT};

/// What an empty play (a pass) prints as.
pub const PASS: &str = "no move";

fn point_name(p: u8) -> String {
    match p {
        BAR_POINT => "bar".into(),
        RESERVE_POINT => "reserve".into(),
        OFF_POINT => "off".into(),
        p => p.to_string(),
    }
}

/// Joins the steps into per-checker chains of points.
fn chains(play: &Play) -> Vec<Vec<Step>> {
    let mut steps: Vec<Step> = play.steps().to_vec();
    // Highest first, so a checker's later steps follow its earlier ones.
    steps.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)));
    let mut chains: Vec<Vec<Step>> = Vec::new();
    for step in steps {
        // Continue a chain that ended here, unless it hit there: a hit is
        // shown where it happened, so keep it as a separate landing anyway.
        match chains.iter_mut().find(|c| c.last().map(|l| l.to) == Some(step.from) && step.from != OFF_POINT) {
            Some(chain) => chain.push(step),
            None => chains.push(vec![step]),
        }
    }
    chains
}

fn chain_text(chain: &[Step]) -> String {
    let mut text = point_name(chain[0].from);
    for (k, step) in chain.iter().enumerate() {
        let last = k + 1 == chain.len();
        if step.hit || last {
            text.push('/');
            text.push_str(&point_name(step.to));
            if step.hit {
                text.push('*');
            }
        }
    }
    text
}

/// The notation of a play.
pub fn format_play(play: &Play) -> String {
    if play.is_empty() {
        return PASS.to_string();
    }
    let mut parts: Vec<(String, usize)> = Vec::new();
    for chain in chains(play) {
        let text = chain_text(&chain);
        match parts.iter_mut().find(|(t, _)| *t == text) {
            Some((_, n)) => *n += 1,
            None => parts.push((text, 1)),
        }
    }
    parts.into_iter().map(|(t, n)| if n > 1 { format!("{t}({n})") } else { t }).collect::<Vec<_>>().join(" ")
}

/// Where the 1-2 part of a named play ends: the 1 and the 2 come first.
const ONE_TWO_STEPS: usize = 2;

/// The notation of a legal move: [`format_play`], with acey-deucey's 1-2
/// written as its 1-and-2 part, the named number, and its four moves.
pub fn format_move(m: &Move) -> String {
    format_named(&m.play, m.named)
}

/// The notation of `play` with the number a 1-2 named (see [`format_move`]).
pub fn format_named(play: &Play, named: Option<u8>) -> String {
    let Some(n) = named else { return format_play(play) };
    let steps = play.steps();
    let split = ONE_TWO_STEPS.min(steps.len());
    let part = |s: &[Step]| format_play(&s.iter().fold(Play::default(), |p, &step| p.with(step)));
    format!("{} named {n}: {}", part(&steps[..split]), part(&steps[split..]))
}

/// Splits a typed 1-2 move "A named N: B" into (A, N, B); `None` when the
/// text names no number.
pub fn split_named(text: &str) -> Option<(&str, &str, &str)> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find("named")?;
    let rest = &text[at + "named".len()..];
    let colon = rest.find(':').unwrap_or(rest.len());
    let after = rest.get(colon + 1..).unwrap_or("");
    Some((&text[..at], rest[..colon].trim(), after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{legal_moves, Position, Rules};

    fn notations(pos: &Position, d1: i64, d2: i64) -> Vec<String> {
        let mut v: Vec<String> = legal_moves(pos, d1, d2).unwrap().iter().map(|m| format_play(&m.play)).collect();
        v.sort();
        v
    }

    #[test]
    fn opening_moves_read_as_usual() {
        let p = Position::start(Rules::backgammon());
        let n = notations(&p, 3, 1);
        assert!(n.contains(&"8/5 6/5".to_string()), "{n:?}");
        assert!(n.contains(&"24/20".to_string()), "{n:?}");
        let n = notations(&p, 6, 6);
        assert!(n.contains(&"24/18(2) 13/7(2)".to_string()), "{n:?}");
        let n = notations(&p, 4, 4);
        assert!(n.contains(&"24/16(2)".to_string()) || n.contains(&"24/20(2) 13/9(2)".to_string()));
    }

    #[test]
    fn a_one_two_is_written_part_by_part_and_read_back() {
        let p = Position::start(Rules::acey_deucey());
        let moves = legal_moves(&p, 1, 2).unwrap();
        for (i, m) in moves.iter().enumerate() {
            let text = format_move(m);
            assert!(text.contains(&format!("named {}: ", m.named.unwrap())), "{text}");
            assert_eq!(crate::game::entry::find_move(&p, &moves, &text).unwrap(), i, "{text}");
        }
    }

    #[test]
    fn hits_bar_and_off_are_marked() {
        let mut mine = [0i64; 25];
        let mut theirs = [0i64; 25];
        mine[24] = 1; // on the bar
        mine[5] = 14;
        theirs[25 - 22 - 1] = 1; // a blot on my 22
        let p = Position::from_arrays(Rules::backgammon(), &mine, &theirs).unwrap();
        let n = notations(&p, 3, 6);
        assert!(n.contains(&"bar/22*/16".to_string()) || n.contains(&"bar/22* 6/off".to_string()), "{n:?}");
        let mut home = [0i64; 25];
        home[5] = 2;
        let p = Position::from_arrays(Rules::backgammon(), &home, &[0; 25]).unwrap();
        assert_eq!(notations(&p, 6, 6), vec!["6/off(2)".to_string()]);
    }
}
