//! Many positions at once: the batch form of move generation, on all cores.
//!
//! Positions travel as the flat `int8` layout of `Position::to_arrays` (two
//! rows of 25 per position, mover first), the form numpy users hand over.

use crate::error::{Error, Result};
use crate::movegen::{check_die, with_generator};
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
    if boards.len() % ROW != 0 {
        return Err(Error::new(format!(
            "positions must have shape (n, 2, 25): got {} values, not a multiple of 50",
            boards.len()
        )));
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
    let threads = threads.max(1).min(n.max(1));
    let chunk = n.div_ceil(threads).max(1);
    let parts: Vec<(Vec<i8>, Vec<usize>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|slice| {
                scope.spawn(move || {
                    let mut flat = Vec::with_capacity(slice.len() * 20 * ROW);
                    let mut counts = Vec::with_capacity(slice.len());
                    for (pos, d1, d2) in slice {
                        counts.push(results_flat(pos, *d1, *d2, &mut flat));
                    }
                    (flat, counts)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("move generation does not panic")).collect()
    });
    let mut flat = Vec::new();
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
