//! Hand-made inputs of the nardy games (long nardy and gul bara), for each
//! side of a position as if it were on roll (the encoder asks for both).
//!
//! Nothing is ever hit in these games: the sides meet only by blocking. So
//! what the raw point units leave a small network to work out slowly is how
//! my points stand in the way of the opponent's checkers still to pass them,
//! how many of my dice numbers its points take away, how far I am from my
//! home (where bearing off starts) and who leads the race. Both sides run the
//! same way round, the opponent starting at my point 12: my point `p` is its
//! point `p + 12` or `p - 12` ([`opponent_mask`]).

use crate::nn::features::longest_run;
use crate::position::{opponent_index, opponent_mask, Position, HOME_MASK, ME, THEM};

/// How many features [`features`] returns.
pub const COUNT: usize = 7;

/// The shortest run of my points counted as a block behind which the
/// opponent's checkers are trapped: three points already stop most rolls of
/// a checker right behind them, and the fence of six is the limit.
const TRAPPING_RUN: u32 = 3;

/// The features of the player on roll in `pos`, scaled to about 0..1.
pub fn features(pos: &Position) -> [f32; COUNT] {
    side_features(pos, pos.pips(), ME)
}

/// The features of each side of `pos` (`[ME]`, `[THEM]`; `pips` its
/// [`Position::pips`]), each as [`features`] gives them for the player on
/// roll of its own view: the opponent's are those of `pos.flip()`, found
/// without flipping (the encoder asks for both at every evaluation).
#[inline(always)]
pub fn both_sides(pos: &Position, pips: [u32; 2]) -> [[f32; COUNT]; 2] {
    // Not `.map`: that call is not inlined, and the encoder needs these
    // inlined to count bits with the CPU's instructions.
    [side_features(pos, pips, ME), side_features(pos, pips, THEM)]
}

#[inline(always)]
fn side_features(pos: &Position, pips: [u32; 2], side: usize) -> [f32; COUNT] {
    let view = SideView { pos, side };
    let (run_ahead, trapped) = view.blocking();
    let (blocked_numbers, moves) = view.mobility();
    let (not_home, pips_to_home) = view.distance_to_home();
    [
        run_ahead as f32 / 6.0,
        trapped / 15.0,
        blocked_numbers as f32 / 6.0,
        moves as f32 / 30.0,
        not_home as f32 / 15.0,
        pips_to_home as f32 / 270.0,
        race_lead(pips[side], pips[1 - side]),
    ]
}

/// One side of a position in that side's own numbering ("I" below), while
/// the position stores both sides in the mover's: the mover's masks and
/// indices are the opponent's own once mapped by [`opponent_mask`] and
/// [`opponent_index`].
struct SideView<'a> {
    pos: &'a Position,
    side: usize,
}

impl SideView<'_> {
    /// `side`'s occupied points in the numbering of `numbering`.
    #[inline(always)]
    fn occupied_in(&self, side: usize, numbering: usize) -> u32 {
        let mask = self.pos.occupied(side);
        if numbering == ME {
            mask
        } else {
            opponent_mask(self.pos.variant(), mask)
        }
    }

    /// `side`'s checkers on point index `i` of its own numbering.
    #[inline(always)]
    fn count_own(&self, side: usize, i: usize) -> u8 {
        let i = if side == ME { i } else { opponent_index(self.pos.variant(), i) };
        self.pos.count(side, i)
    }

    /// Along the opponent's path: my longest run of points still ahead of
    /// its rearmost checker (the only points that can stop anything), and its
    /// checkers with a run of at least [`TRAPPING_RUN`] of my points ahead of
    /// them, each weighted by that run's length in sixths.
    #[inline(always)]
    fn blocking(&self) -> (u32, f32) {
        let other = 1 - self.side;
        // Both in the opponent's numbering: it moves from bit 23 down to bit 0.
        let my_points = self.occupied_in(self.side, other);
        let mut theirs = self.occupied_in(other, other);
        if theirs == 0 {
            return (0, 0.0);
        }
        let rearmost = 31 - theirs.leading_zeros();
        let run_ahead = longest_run(my_points & ((1 << rearmost) - 1));
        if run_ahead < TRAPPING_RUN {
            return (run_ahead, 0.0);
        }
        let mut trapped = 0.0;
        while theirs != 0 {
            let j = theirs.trailing_zeros();
            theirs &= theirs - 1;
            let run = longest_run(my_points & ((1 << j) - 1));
            if run >= TRAPPING_RUN {
                trapped += self.count_own(other, j as usize) as f32 * run as f32 / 6.0;
            }
        }
        (run_ahead, trapped)
    }

    /// How many of the six numbers no checker of mine can play on the board
    /// (the opponent's points take them away; bearing off is left out), and
    /// how many (point, number) moves are open. Once all my checkers are home
    /// a number can always bear off or move, so none counts as blocked.
    #[inline(always)]
    fn mobility(&self) -> (u32, u32) {
        let mine = self.occupied_in(self.side, self.side);
        let open = !self.occupied_in(1 - self.side, self.side);
        let mut blocked_numbers = 0;
        let mut moves = 0;
        for d in 1..=6 {
            // A checker on bit i lands on bit i - d.
            let landings = (mine >> d) & open;
            moves += landings.count_ones();
            blocked_numbers += (landings == 0) as u32;
        }
        if self.pos.all_home(self.side) {
            blocked_numbers = 0;
        }
        (blocked_numbers, moves)
    }

    /// My checkers outside my home, and the pips they need to reach it (270
    /// at the start).
    #[inline(always)]
    fn distance_to_home(&self) -> (u32, u32) {
        let mut outside = self.occupied_in(self.side, self.side) & !HOME_MASK;
        let (mut checkers, mut pips) = (0, 0);
        while outside != 0 {
            let i = outside.trailing_zeros();
            outside &= outside - 1;
            let n = self.count_own(self.side, i as usize) as u32;
            checkers += n;
            pips += n * (i - 5);
        }
        (checkers, pips)
    }
}

/// The race lead as a share of my own pip count, within -1..1: 10 pips ahead
/// decides a race at 30 pips and not at 200.
#[inline(always)]
fn race_lead(my_pips: u32, their_pips: u32) -> f32 {
    let lead = their_pips as f32 - my_pips as f32;
    (lead / my_pips.max(1) as f32).clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

    fn position(mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Position {
        Position::from_points(Rules::nardy(), mine, theirs)
    }

    #[test]
    fn the_start_has_no_block_and_an_even_race() {
        let start = Position::start(Rules::nardy());
        let f = features(&start);
        // The opponent's head is the one point of mine ahead of its checkers.
        assert_eq!(f[0], 1.0 / 6.0);
        assert_eq!(f[1], 0.0);
        // From the head every number lands on an empty point: nothing blocked, six moves.
        assert_eq!(f[2], 0.0);
        assert_eq!(f[3], 6.0 / 30.0);
        assert_eq!(f[4], 1.0);
        assert_eq!(f[5], 1.0);
        assert_eq!(f[6], 0.0);
        assert_eq!(features(&start.flip()), f);
    }

    #[test]
    fn a_block_in_front_of_the_opponents_checkers_traps_them() {
        // My points 20..23 (its points 8..11) stand ahead of its 14 checkers on its head
        // (its 24, my 12) and ahead of the one on its 13 (my 1), not of the one on its 5.
        let me = position(&[(20, 3), (21, 3), (22, 3), (23, 3), (24, 3)], &[(24, 13), (13, 1), (5, 1)]);
        let f = features(&me);
        // Five points 20..24 are its 8..12: a run of five ahead of its rearmost checker.
        assert_eq!(f[0], 5.0 / 6.0);
        // Its head (13 checkers) sits at its 24 behind all five; its checker on 13 too.
        assert!((f[1] - 14.0 * 5.0 / 6.0 / 15.0).abs() < 1e-6, "{}", f[1]);
        // The opponent's view: its points are single ones ahead of my checkers.
        let them = features(&me.flip());
        assert_eq!(them[0], 1.0 / 6.0);
        assert_eq!(them[1], 0.0);
    }

    #[test]
    fn the_opponents_points_take_my_numbers_away() {
        // My one checker on 10 (bit 9); its checkers on my 9..4 (bits 8..3) close every number.
        let me = position(&[(10, 1), (1, 14)], &[(21, 1), (20, 1), (19, 1), (18, 1), (17, 1), (16, 10)]);
        let f = features(&me);
        // My checkers on point 1 cannot move on the board either.
        assert_eq!(f[2], 1.0);
        assert_eq!(f[3], 0.0);
        assert_eq!(f[4], 1.0 / 15.0);
        assert_eq!(f[5], 4.0 / 270.0);
    }

    #[test]
    fn the_opponents_features_are_those_of_the_flipped_position() {
        let rules = [Rules::nardy(), Rules::gulbara()];
        for rules in rules {
            let net = crate::nn::shipped::network(rules.variant);
            for pos in crate::nn::player::selfplay_positions(net, rules, 300, 5) {
                let [mine, theirs] = both_sides(&pos, pos.pips());
                assert_eq!(mine, features(&pos));
                assert_eq!(theirs, features(&pos.flip()), "{pos:?}");
            }
        }
    }

    #[test]
    fn the_race_lead_is_a_share_of_my_count() {
        let me = position(&[(1, 15)], &[(2, 15)]);
        assert_eq!(features(&me)[6], 1.0);
        assert_eq!(features(&me.flip())[6], -0.5);
    }
}
