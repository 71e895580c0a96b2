//! Many positions at once: the batch form of move generation, on all cores.
//!
//! Positions travel as the flat `int8` layout of `Position::to_arrays` (two
//! rows of 25 per position, mover first), the form numpy users hand over.

use crate::error::{Error, Result};
use crate::movegen::{check_die, with_generator};
use crate::parallel::par_map;
use crate::position::Position;
use crate::variant::Rules;

/// Values per position in the flat layout: (mine, theirs) x 25.
pub const ROW: usize = 50;

/// Appends the flat layout of `pos` to `out`.
#[inline]
pub fn push_flat(pos: &Position, out: &mut Vec<i8>) {
    let (mine, theirs) = pos.to_arrays();
    let mut row = [0i8; ROW];
    for i in 0..25 {
        row[i] = mine[i] as i8;
        row[25 + i] = theirs[i] as i8;
    }
    out.extend_from_slice(&row);
}

/// The flat (n, 2, 25) layout has no reserve: the reserve games are refused
/// rather than written without it.
pub fn check_layout_fits(variant: crate::variant::Variant) -> Result<()> {
    if variant.has_reserve() {
        return Err(Error::new(format!(
            "the (n, 2, 25) array layout has no reserve, so {} positions cannot use it: use legal_moves",
            variant.name()
        )));
    }
    Ok(())
}

/// Reads one position from the flat layout; `index` names it in errors.
pub fn read_flat(rules: Rules, flat: &[i8], index: usize) -> Result<Position> {
    let mut mine = [0i64; 25];
    let mut theirs = [0i64; 25];
    for i in 0..25 {
        mine[i] = flat[i] as i64;
        theirs[i] = flat[25 + i] as i64;
    }
    Position::from_arrays(rules, &mine, &theirs).map_err(|e| Error::new(format!("position {index}: {e}")))
}

/// All resulting positions of one position and roll, flat.
pub fn results_flat(pos: &Position, d1: u8, d2: u8, out: &mut Vec<i8>) -> usize {
    with_generator(|g| {
        let mut moves = Vec::with_capacity(32);
        g.legal_moves(pos, d1, d2, &mut moves);
        for m in &moves {
            push_flat(&m.position, out);
        }
        moves.len()
    })
}

/// The results of many positions with their rolls: the flat results of all of
/// them one after another, and `offsets` (length n+1) where each one's start.
pub fn results_many(rules: Rules, boards: &[i8], dice: &[i64], threads: usize) -> Result<(Vec<i8>, Vec<usize>)> {
    if !boards.len().is_multiple_of(ROW) {
        return Err(Error::new(format!("positions must have shape (n, 2, 25): got {} values, not a multiple of 50", boards.len())));
    }
    let n = boards.len() / ROW;
    if dice.len() != 2 * n {
        return Err(Error::new(format!("dice must have shape ({n}, 2) to match the positions, got {} values", dice.len())));
    }
    // Validate everything first so a bad row is reported before any work.
    let mut jobs = Vec::with_capacity(n);
    for k in 0..n {
        let pos = read_flat(rules, &boards[k * ROW..(k + 1) * ROW], k)?;
        let d1 = check_die(dice[2 * k]).map_err(|e| Error::new(format!("dice of position {k}: {e}")))?;
        let d2 = check_die(dice[2 * k + 1]).map_err(|e| Error::new(format!("dice of position {k}: {e}")))?;
        jobs.push((pos, d1, d2));
    }
    // One block a thread, each filling one buffer: more, smaller buffers
    // (a position's, or a few hundred positions') measured up to twice as
    // slow, in fresh memory pages rather than in move generation.
    let blocks: Vec<&[(Position, u8, u8)]> = jobs.chunks(n.div_ceil(threads.max(1)).max(1)).collect();
    let parts = par_map(
        blocks.len(),
        threads,
        || (),
        |_, b| {
            let block = blocks[b];
            let mut flat = Vec::with_capacity(block.len() * 20 * ROW);
            let counts: Vec<usize> = block.iter().map(|(pos, d1, d2)| results_flat(pos, *d1, *d2, &mut flat)).collect();
            (flat, counts)
        },
    );
    let mut flat = Vec::with_capacity(parts.iter().map(|(part, _)| part.len()).sum());
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0);
    for (part, counts) in parts {
        flat.extend_from_slice(&part);
        for c in counts {
            offsets.push(offsets.last().unwrap() + c);
        }
    }
    Ok((flat, offsets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_many_is_each_position_in_turn_on_any_number_of_threads() {
        for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
            // Positions a few random turns apart, each with its own roll.
            let (mut boards, mut dice, mut expected, mut offsets) = (Vec::new(), Vec::new(), Vec::new(), vec![0]);
            let mut pos = Position::start(rules);
            for k in 0..40u8 {
                let (d1, d2) = (k % 6 + 1, (k * 5 + 2) % 6 + 1);
                push_flat(&pos, &mut boards);
                dice.extend([d1 as i64, d2 as i64]);
                let before = expected.len();
                offsets.push(offsets.last().unwrap() + results_flat(&pos, d1, d2, &mut expected));
                if expected.len() > before {
                    let next = read_flat(rules, &expected[expected.len() - ROW..], 0).unwrap();
                    pos = if crate::eval::game_result(&next).is_some() { Position::start(rules) } else { next.flip() };
                }
            }
            for threads in [1, 3, 64] {
                let (flat, offs) = results_many(rules, &boards, &dice, threads).unwrap();
                assert_eq!((&flat, &offs), (&expected, &offsets), "{rules:?} on {threads} threads");
            }
        }
        assert_eq!(results_many(Rules::backgammon(), &[], &[], 4).unwrap(), (vec![], vec![0]));
    }
}
