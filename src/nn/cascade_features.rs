//! Gul bara's cascade inputs: for each side and each number, how much of a
//! cascade step of that number the side could not play from here.
//!
//! A double `d-d` in gul bara plays four moves of `d`, then four of `d + 1`,
//! and so on to four of 6; the first number a player cannot play in full
//! ends its part and passes the rest of the cascade to the opponent (RULES.md
//! §4). Whether a double is worth 84 pips or hands the opponent its sixes
//! turns on which numbers each side can still play four times, and the
//! opponent's points decide that. Every cascade ends with the sixes, so the
//! high numbers matter in every one. The point units say it only slowly: a
//! small network has to find, for each number, the chains of open landings
//! four steps long.

use crate::position::{opponent_index, opponent_mask, Position, ME, THEM};

/// Inputs per side: one per number, 1 to 6.
pub const COUNT: usize = 6;

/// The moves of one cascade step (one number played four times).
const STEP_MOVES: u32 = 4;

/// Each side's inputs (`[ME]`, `[THEM]`), each in that side's own view: for
/// the number `n` (index `n - 1`), the moves of a step of `n` (four) that it
/// could not play now, as a share of four. Mostly every number plays in full
/// and the inputs are zero, which the network's sparse first layer skips. A
/// side with every checker home can always play (bear off or move), so none
/// of its numbers falls short, as in the nardy features' blocked numbers.
#[inline(always)]
pub fn both_sides(pos: &Position) -> [[f32; COUNT]; 2] {
    // Inlined into the encoder, which has the CPU's bit-count instruction
    // where there is one: these count bits for every number of both sides.
    [side_shortfalls(pos, ME), side_shortfalls(pos, THEM)]
}

#[inline(always)]
fn side_shortfalls(pos: &Position, side: usize) -> [f32; COUNT] {
    let mut out = [0.0; COUNT];
    if pos.all_home(side) {
        return out;
    }
    let variant = pos.variant();
    // The position keeps both sides in the mover's numbering; the opponent's
    // own numbering is the mapped one. In its own numbering a side moves
    // from bit 23 down to bit 0.
    let own = |mask: u32| if side == ME { mask } else { opponent_mask(variant, mask) };
    let mine = own(pos.occupied(side));
    let stacked = own(pos.stacked(side));
    let open = !own(pos.occupied(1 - side));
    for (slot, d) in out.iter_mut().zip(1u32..) {
        // Checkers still stepping after k steps of d: each landing open and
        // on the board (bearing off waits until all are home).
        let mut stepping = mine;
        let mut moves = 0;
        for k in 1..=STEP_MOVES {
            stepping &= open << (k * d);
            if stepping == 0 {
                break;
            }
            moves += checkers_on(pos, side, stepping, stacked, STEP_MOVES - moves);
            if moves == STEP_MOVES {
                break;
            }
        }
        *slot = (STEP_MOVES - moves) as f32 / STEP_MOVES as f32;
    }
    out
}

/// `side`'s checkers on the points of `bits` (in its own numbering; `stacked`
/// its points of two or more there), counted up to the `needed` a step
/// still lacks: a point holds one, a stacked point two or more, and only
/// where that does not settle it are the counts read.
#[inline(always)]
fn checkers_on(pos: &Position, side: usize, bits: u32, stacked: u32, needed: u32) -> u32 {
    let least = bits.count_ones() + (bits & stacked).count_ones();
    if least >= needed {
        return needed;
    }
    let variant = pos.variant();
    let mut n = 0;
    let mut rest = bits & stacked;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        n += pos.count(side, if side == ME { i } else { opponent_index(variant, i) }) as u32;
    }
    (n + (bits & !stacked).count_ones()).min(needed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

    fn position(mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Position {
        Position::from_points(Rules::gulbara(), mine, theirs)
    }

    #[test]
    fn from_the_start_every_number_plays_in_full() {
        let start = Position::start(Rules::gulbara());
        assert_eq!(both_sides(&start), [[0.0; COUNT]; 2]);
    }

    #[test]
    fn the_opponents_points_cut_the_chains_of_a_number() {
        // My one checker on 13 (bit 12) and 14 on my 1; the opponent holds my 10 and my 7.
        // Its head on its 24 is my 12: every number but 1 that crosses it is cut there too.
        let me = position(&[(13, 1), (1, 14)], &[(22, 1), (19, 1), (24, 13)]);
        let [mine, _] = both_sides(&me);
        // 1: 13 -> 12 is its head: none. 2: 11, 9, 7 (held): two moves.
        // 3: 10 is held: none. 4: 9, 5, 1: three moves. 5: 8, 3: two, then off the board.
        // 6: 7 is held: none. The checkers on my 1 cannot move on the board.
        assert_eq!(mine, [1.0, 0.5, 1.0, 0.25, 0.5, 1.0]);
    }

    #[test]
    fn each_checker_of_a_point_counts_and_four_moves_are_a_full_step() {
        // Two checkers on 20; the opponent holds my 8 (its 20) and my 22 (its 10).
        let me = position(&[(20, 2), (1, 13)], &[(20, 1), (10, 14)]);
        let [mine, _] = both_sides(&me);
        // A 6 plays 20 -> 14, then 8 is held: one move for each checker, two short.
        assert_eq!(mine[5], 0.5);
        // A 3 plays 20 -> 17 -> 14 -> 11 for each: six moves, a full step.
        assert_eq!(mine[2], 0.0);
        // A 4 plays 20 -> 16 -> 12 -> 8 (held): two each, four in all.
        assert_eq!(mine[3], 0.0);
    }

    #[test]
    fn all_home_plays_every_number() {
        let me = position(&[(1, 5), (6, 10)], &[(24, 15)]);
        assert_eq!(both_sides(&me)[0], [0.0; COUNT]);
    }

    #[test]
    fn the_opponents_inputs_are_mine_in_the_flipped_position() {
        let net = crate::nn::shipped::network(crate::Variant::GulBara);
        for pos in crate::nn::player::selfplay_positions(net, Rules::gulbara(), 300, 5) {
            let [mine, theirs] = both_sides(&pos);
            let [flipped_mine, flipped_theirs] = both_sides(&pos.flip());
            assert_eq!(theirs, flipped_mine, "{pos:?}");
            assert_eq!(mine, flipped_theirs, "{pos:?}");
        }
    }
}
