//! What a gul bara double does once the game's first rolls are past: the
//! cascade of RULES.md section 4, as whole turns.
//!
//! A double `d-d` plays four moves of `d`, then four of `d+1`, and so on up
//! to 6, each number a step of its own with maximal usage inside the step.
//! The first number the mover cannot play in full ends its part: the moves it
//! could not play and all higher numbers pass to the opponent (the
//! *handover*), who plays them number by number, forfeiting what it cannot
//! play, and then rolls its own turn.
//!
//! For the search a cascade is one decision of the mover (every distinct
//! result of its part, [`mover_parts`]) followed by one decision of the
//! opponent (every distinct result of its share, [`share_results`]). Both
//! enumerate step by step and merge equal intermediate states, so shared
//! prefixes are generated once.

use std::collections::HashMap;

use crate::movegen::{Move, MoveGen};
use crate::position::{Position, CHECKERS, ME};
use crate::variant::{Rules, Variant};

/// Moves a cascade number asks for.
const FULL: u8 = 4;

/// Whether a roll of `d1-d2` cascades, with `rolls_made` rolls of the game
/// (both players, this one not counted) already made.
pub fn cascades(rules: &Rules, rolls_made: u32, d1: u8, d2: u8) -> bool {
    rules.variant == Variant::GulBara && d1 == d2 && rolls_made >= rules.cascade_after_rolls as u32
}

/// "Past the first rolls": a roll count at which every double cascades.
pub const LATE: u32 = 1 << 20;

/// One distinct result of the mover's part of a cascade.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CascadePart {
    /// After the mover's last step, still seen from the mover.
    pub position: Position,
    /// Each step played, in order (one per number, its die in `numbers`).
    pub steps: Vec<Move>,
    pub numbers: Vec<u8>,
    /// `(die, moves)` passed to the opponent, in the order it plays them;
    /// empty when the mover played every number in full or bore off.
    pub handover: Vec<(u8, u8)>,
}

impl CascadePart {
    /// The mover bore off its last checker during its part.
    pub fn finished(&self) -> bool {
        self.position.off(ME) == CHECKERS
    }

    /// Every checker step of the part, in play order.
    pub fn all_steps(&self) -> Vec<crate::movegen::Step> {
        self.steps.iter().flat_map(|m| m.play.steps().iter().copied()).collect()
    }

    /// "4-4: 24/20(4), 5-5: 20/15(2) 13/8(2), 6-6: 15/9 (passes 6x3)": each
    /// number's step in the usual notation, then what passes to the opponent.
    pub fn notation(&self) -> String {
        let steps: Vec<String> =
            self.numbers.iter().zip(&self.steps).map(|(n, m)| format!("{n}-{n}: {}", crate::notation::format_play(&m.play))).collect();
        let mut text = steps.join(", ");
        if !self.handover.is_empty() {
            let passed: Vec<String> = self.handover.iter().map(|(d, k)| format!("{d}x{k}")).collect();
            text.push_str(&format!(" (passes {})", passed.join(" ")));
        }
        text
    }
}

/// Checks a handover named by a user: dice 1..6 in increasing order, each
/// with 1 to 4 moves, every number after the first asking for all four.
pub fn check_handover(handover: &[(i64, i64)]) -> crate::error::Result<Vec<(u8, u8)>> {
    use crate::error::Error;
    let mut out = Vec::with_capacity(handover.len());
    for (k, &(die, count)) in handover.iter().enumerate() {
        if !(1..=6).contains(&die) {
            return Err(Error::new(format!("handover die {die} is not 1 to 6")));
        }
        if !(1..=4).contains(&count) {
            return Err(Error::new(format!("handover count {count} for {die}s is not 1 to 4")));
        }
        if k > 0 {
            let (previous, _) = handover[k - 1];
            if die != previous + 1 {
                return Err(Error::new(format!("a handover passes consecutive numbers in increasing order: {die} after {previous}")));
            }
            if count != 4 {
                return Err(Error::new(format!("only the first number of a handover can pass fewer than 4 moves, not {die}x{count}")));
            }
        }
        out.push((die as u8, count as u8));
    }
    if let Some(&(last, _)) = out.last() {
        if last != 6 {
            return Err(Error::new(format!("a handover runs up to the sixes, not only to {last}")));
        }
    }
    Ok(out)
}

/// A state between steps: the position and the head checkers the cascade
/// has moved so far (they count against the head rule).
type State = (Position, u8);

/// The steps played so far, as a tree: each node one step and its parent.
struct Paths {
    nodes: Vec<(Move, u32)>,
}

const ROOT: u32 = u32::MAX;

impl Paths {
    fn push(&mut self, step: Move, parent: u32) -> u32 {
        self.nodes.push((step, parent));
        (self.nodes.len() - 1) as u32
    }

    /// The steps from the first to `node`.
    fn steps(&self, mut node: u32) -> Vec<Move> {
        let mut out = Vec::new();
        while node != ROOT {
            let (m, parent) = self.nodes[node as usize];
            out.push(m);
            node = parent;
        }
        out.reverse();
        out
    }
}

/// How wide a pruned enumeration keeps each step: `keep` states, chosen by
/// `score` (higher is better for the mover), or all of them with `None`.
pub type StepScore<'a> = &'a mut dyn FnMut(&[Position]) -> Vec<f32>;

/// The states that go on to the next number: all of them, or with
/// `prune` the best `keep` by its score, in their first-found order.
fn keep_best(order: Vec<(State, u32)>, prune: &mut Option<(usize, StepScore)>) -> Vec<(State, u32)> {
    let Some((keep, score)) = prune.as_mut() else { return order };
    if order.len() <= *keep {
        return order;
    }
    let scores = score(&order.iter().map(|((p, _), _)| *p).collect::<Vec<_>>());
    let mut ranked: Vec<usize> = (0..order.len()).collect();
    ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    ranked.truncate(*keep);
    ranked.sort_unstable();
    ranked.into_iter().map(|k| order[k]).collect()
}

/// Every distinct result of the mover's part of a cascade from `d`,
/// merged by (position, handover).
pub fn mover_parts(movegen: &mut MoveGen, pos: &Position, d: u8) -> Vec<CascadePart> {
    parts(movegen, pos, d, None)
}

/// [`mover_parts`] keeping at each number only the `keep` best states
/// by `score` (each state scored as the mover's position after that step),
/// for the search's inner nodes.
pub fn pruned_parts(movegen: &mut MoveGen, pos: &Position, d: u8, keep: usize, score: StepScore) -> Vec<CascadePart> {
    parts(movegen, pos, d, Some((keep.max(1), score)))
}

fn parts(movegen: &mut MoveGen, pos: &Position, d: u8, mut prune: Option<(usize, StepScore)>) -> Vec<CascadePart> {
    let mut paths = Paths { nodes: Vec::new() };
    let mut out: Vec<CascadePart> = Vec::new();
    let mut seen: std::collections::HashSet<(Position, u8, u8)> = std::collections::HashSet::new();
    let mut frontier: Vec<(State, u32)> = vec![((*pos, 0), ROOT)];
    let mut steps = Vec::with_capacity(64);
    for number in d..=6 {
        let mut next: HashMap<State, u32> = HashMap::new();
        let mut order: Vec<(State, u32)> = Vec::new();
        for &((position, head_used), parent) in &frontier {
            movegen.cascade_step(&position, number, FULL, head_used, &mut steps);
            for m in steps.iter() {
                let played = m.moves_played() as u8;
                let over = m.position.off(ME) == CHECKERS;
                if over || played < FULL || number == 6 {
                    // The part ends here; parts are told apart by where they end
                    // and what they hand over (the number and the moves left).
                    let passes = if over || played == FULL { 0 } else { FULL - played };
                    if seen.insert((m.position, if passes > 0 { number } else { 0 }, passes)) {
                        let node = paths.push(*m, parent);
                        let mut handover = Vec::new();
                        if passes > 0 {
                            handover.push((number, passes));
                            handover.extend((number + 1..=6).map(|n| (n, FULL)));
                        }
                        out.push(CascadePart { position: m.position, steps: paths.steps(node), numbers: (d..=number).collect(), handover });
                    }
                } else if let std::collections::hash_map::Entry::Vacant(slot) = next.entry((m.position, m.head_used)) {
                    let node = paths.push(*m, parent);
                    slot.insert(node);
                    order.push(((m.position, m.head_used), node));
                }
            }
        }
        let order = keep_best(order, &mut prune);
        frontier = order;
        if frontier.is_empty() {
            break;
        }
    }
    out
}

/// One distinct result of the opponent's share: its position (seen from the
/// opponent, who rolls next) and the steps of one way to reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Share {
    pub position: Position,
    pub steps: Vec<Move>,
}

/// Every distinct result of playing `handover` from `pos` (seen from the
/// player who plays the share), number by number, forfeiting what cannot
/// be played. An empty handover leaves the position as it is.
///
/// Unpruned, a long handover (1x1 and then 2x4 up to 6x4) can have millions
/// of results: the engine plays shares through [`pruned_shares`], and so
/// should anything handed a handover from outside (a seed of issue 24's
/// fuzz target, 1x1 to 6x4 twelve plies into a game, ran here over 20 s).
pub fn share_results(movegen: &mut MoveGen, pos: &Position, handover: &[(u8, u8)]) -> Vec<Share> {
    shares(movegen, pos, handover, None)
}

/// [`share_results`] keeping the `keep` best states by `score` after each number.
pub fn pruned_shares(movegen: &mut MoveGen, pos: &Position, handover: &[(u8, u8)], keep: usize, score: StepScore) -> Vec<Share> {
    shares(movegen, pos, handover, Some((keep.max(1), score)))
}

fn shares(movegen: &mut MoveGen, pos: &Position, handover: &[(u8, u8)], mut prune: Option<(usize, StepScore)>) -> Vec<Share> {
    let mut paths = Paths { nodes: Vec::new() };
    let mut frontier: Vec<(State, u32)> = vec![((*pos, 0), ROOT)];
    let mut done: Vec<(Position, u32)> = Vec::new();
    let mut steps = Vec::with_capacity(64);
    for &(number, count) in handover {
        let mut next: HashMap<State, u32> = HashMap::new();
        let mut order: Vec<(State, u32)> = Vec::new();
        for &((position, head_used), parent) in &frontier {
            movegen.cascade_step(&position, number, count, head_used, &mut steps);
            for m in steps.iter() {
                if m.position.off(ME) == CHECKERS {
                    let node = paths.push(*m, parent);
                    done.push((m.position, node));
                } else if let std::collections::hash_map::Entry::Vacant(slot) = next.entry((m.position, m.head_used)) {
                    let node = paths.push(*m, parent);
                    slot.insert(node);
                    order.push(((m.position, m.head_used), node));
                }
            }
        }
        let order = keep_best(order, &mut prune);
        frontier = order;
    }
    let mut seen = std::collections::HashSet::new();
    let ends = done.into_iter().chain(frontier.into_iter().map(|((p, _), node)| (p, node)));
    ends.filter(|(p, _)| seen.insert(*p)).map(|(position, node)| Share { position, steps: paths.steps(node) }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gulbara() -> Rules {
        Rules::gulbara()
    }

    #[test]
    fn which_rolls_cascade() {
        let r = gulbara();
        assert!(!cascades(&r, 2, 4, 4), "the third roll is an ordinary double");
        assert!(cascades(&r, 3, 4, 4));
        assert!(!cascades(&r, 10, 4, 3));
        assert!(!cascades(&Rules::nardy(), 10, 4, 4));
    }

    #[test]
    fn a_cascade_from_the_start_position() {
        // With all fifteen on the head and no head rule, 6-6 plays four sixes.
        let pos = Position::start(gulbara());
        let mut g = MoveGen::new();
        let parts = mover_parts(&mut g, &pos, 6);
        assert!(!parts.is_empty());
        for p in &parts {
            assert_eq!(p.numbers, vec![6]);
            assert_eq!(p.steps.len(), 1);
        }
        // Every distinct part is a distinct (position, handover).
        let mut keys: Vec<_> = parts.iter().map(|p| (p.position, p.handover.clone())).collect();
        keys.dedup();
        assert_eq!(keys.len(), parts.len());
        // A 1-1 cascade runs through several numbers and its parts end with
        // either a handover or the sixes played in full.
        let parts = mover_parts(&mut g, &pos, 1);
        assert!(parts
            .iter()
            .all(|p| p.handover.is_empty() == (p.numbers.last() == Some(&6) && p.steps.last().unwrap().moves_played() == 4)));
        assert!(parts.iter().any(|p| p.numbers.len() > 1));
    }

    #[test]
    fn an_empty_handover_is_no_share() {
        let pos = Position::start(gulbara());
        let mut g = MoveGen::new();
        let shares = share_results(&mut g, &pos, &[]);
        assert_eq!(shares.len(), 1);
        assert_eq!(shares[0].position, pos);
    }
}
