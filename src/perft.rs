//! Perft: how many distinct positions the move generator reaches from the
//! start after 1, 2, 3... turns, over all 21 rolls at every turn. The counts
//! are pinned in tests, so any change in move generation shows at once.
//!
//! Positions are counted as seen by the next player on roll (each result is
//! flipped), and every roll, doubles included, is allowed at every turn (the
//! opening roll's restrictions belong to the game layer, not to perft).

use std::collections::HashSet;

use crate::error::{Error, Result};
use crate::movegen::MoveGen;
use crate::position::Position;
use crate::variant::{Rules, Variant};

/// The 21 distinct rolls, smaller die first.
pub const ROLLS: [(u8, u8); 21] = {
    let mut rolls = [(0u8, 0u8); 21];
    let mut k = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            rolls[k] = (a, b);
            k += 1;
            b += 1;
        }
        a += 1;
    }
    rolls
};

/// The deepest perft of a variant: one level more is billions of positions
/// (backgammon's fourth level; the other variants' fifth), hours of work and
/// more memory than a machine has. Backgammon's third level, 29,420,722
/// positions, takes minutes and about 2 GB.
pub fn max_depth(variant: Variant) -> usize {
    match variant {
        Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => 3,
        Variant::Nardy | Variant::GulBara => crate::limits::MAX_PERFT_DEPTH as usize,
    }
}

/// `depth` when perft of `variant` may go that deep (0 to [`max_depth`]),
/// else an error saying how deep it may go: checked before any work starts.
pub fn check_depth(variant: Variant, depth: i64) -> Result<usize> {
    let most = max_depth(variant);
    if depth < 0 {
        return Err(Error::new(format!("perft depth {depth} is negative: give 0 to {most} turns")));
    }
    if depth as u64 > most as u64 {
        return Err(Error::new(format!("perft depth {depth} is too deep: {} perft goes at most {most} turns", variant.name())));
    }
    Ok(depth as usize)
}

/// Distinct positions after each of `depth` turns: element k is the count after k+1 turns.
pub fn perft(rules: Rules, depth: usize) -> Vec<usize> {
    let mut gen = MoveGen::new();
    let mut moves = Vec::with_capacity(64);
    let mut level: HashSet<Position> = HashSet::from([Position::start(rules)]);
    let mut counts = Vec::with_capacity(depth);
    for _ in 0..depth {
        let mut next = HashSet::with_capacity(level.len() * 64);
        for pos in &level {
            for &(d1, d2) in &ROLLS {
                gen.legal_moves(pos, d1, d2, &mut moves);
                next.extend(moves.iter().map(|m| m.position.flip()));
            }
        }
        counts.push(next.len());
        level = next;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_perft_is_refused_before_it_starts() {
        assert_eq!(check_depth(Variant::Backgammon, 3), Ok(3));
        assert_eq!(check_depth(Variant::Nardy, 4), Ok(4));
        let e = check_depth(Variant::Backgammon, 4).unwrap_err().to_string();
        assert_eq!(e, "perft depth 4 is too deep: backgammon perft goes at most 3 turns");
        assert!(check_depth(Variant::GulBara, 5).is_err());
        assert!(check_depth(Variant::GulBara, i64::MAX).is_err());
        assert!(check_depth(Variant::Nardy, -1).unwrap_err().to_string().contains("negative"));
    }

    #[test]
    fn rolls_are_the_21_distinct_ones() {
        assert_eq!(ROLLS.iter().filter(|(a, b)| a == b).count(), 6);
        assert_eq!(ROLLS[20], (6, 6));
    }
}
