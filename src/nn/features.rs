//! Hand-made backgammon features, each for the player on roll of a view (the
//! encoder calls them for the position and for its flip).
//!
//! The raw point encoding says where the checkers are; these say what that
//! means tactically, which a small network learns slowly on its own: how many
//! rolls hit my blots and what a hit costs, how many rolls free my last
//! checker from the blockade ahead of it, how often a checker on the bar stays
//! out, and how far I am from breaking contact. They follow the ideas of
//! TD-Gammon 2 and GNU Backgammon's inputs; the definitions and code are ours.
//!
//! The dice work on "point masks" with bit `p` for the mover's point `p`
//! (1..24), bit 0 for the opponent's bar (where its checkers enter from) and
//! bit 25 for the mover's bar:
//!
//! ```text
//!   bit:   25 | 24 23 ... 2 1 | 0
//!          my |  my points    | their
//!          bar|               | bar
//! ```
//!
//! Opposing checkers move up this mask (their bar at 0 towards my 24), mine
//! move down it.

use crate::bearoff::Projection;
use crate::dice::ROLLS;
use crate::position::{Position, BOARD_MASK, HOME_MASK, ME, THEM};

/// How many features [`features`] returns.
pub const COUNT: usize = 23;

/// Bits 1..24: the points of the board in a point mask.
const BOARD: u32 = 0x1FF_FFFE;

/// The features of the player on roll in `pos`, scaled to about 0..1.
pub fn features(pos: &Position) -> [f32; COUNT] {
    let mine = pos.occupied(ME);
    let made = pos.stacked(ME);
    let blots = mine & !made;
    let shots = shots_at_my_blots(pos);
    [
        blots.count_ones() as f32 / 5.0,
        blots_within_direct_range(pos) as f32 / 3.0,
        (made & HOME_MASK).count_ones() as f32 / 6.0,
        longest_run(made) as f32 / 6.0,
        (made & 0xFC_0000).count_ones() as f32 / 2.0,
        shots.hit_rolls as f32 / 36.0,
        shots.pip_loss / 10.0,
        back_checker_escapes(pos) as f32 / 36.0,
        bar_dance_chance(pos),
        break_contact_pips(pos) as f32 / 150.0,
        shots.double_hit_rolls as f32 / 36.0,
        containment(pos) as f32 / 36.0,
        rearmost_checker(pos) as f32 / 25.0,
        // Borne-off checkers past 5 and past 10 (with the raw encoding's
        // linear count): saving or winning a gammon turns on the first one off.
        (pos.off(ME).clamp(5, 10) - 5) as f32 / 5.0,
        (pos.off(ME).clamp(10, 15) - 10) as f32 / 5.0,
        pips_to_home(pos) as f32 / 100.0,
        forward_anchor(pos) as f32 / 12.0,
        checkers_on(pos, 0x7C0) as f32 / 5.0,
        (blots & HOME_MASK).count_ones() as f32 / 3.0,
        (checkers_on(pos, 0xFC_0000) + pos.bar(ME) as u32) as f32 / 5.0,
        (15 - pos.off(ME) as u32 - checkers_on(pos, HOME_MASK)) as f32 / 15.0,
        spares(pos) as f32 / 10.0,
        trapped_checkers(pos) / 5.0,
    ]
}

/// Slots of [`features`] that need contact (zero in every race: shots, the
/// pips a hit loses, double shots, the prime behind which checkers wait),
/// which in a backgammon race carry [`race_features`] instead: the race
/// network reads them, the contact network never judges a race in the engine.
pub const RACE_SLOTS: [usize; 4] = [5, 6, 10, 22];

/// The player on roll's race as the one-sided bear-off table sees it
/// ([`Projection`]: checkers outside the home board counted on the
/// six-point): the expected rolls to bear off, those rolls' pips beyond the
/// pip count (the wastage), the expected rolls to bear off a first checker,
/// and the crossovers still to make. A race turns on these; the raw inputs
/// hold them only spread over 200 units.
pub fn race_features(pos: &Position) -> [f32; 4] {
    let p = Projection::of(pos);
    let rolls = p.finish + p.outside_pips as f64 / PIPS_PER_ROLL;
    let pips = pos.pips()[ME] as f64;
    let first = if pos.off(ME) == 0 { p.first + p.outside_pips as f64 / PIPS_PER_ROLL } else { 0.0 };
    let crossovers: u32 = (6..24).map(|i| pos.count(ME, i) as u32 * (i as u32 / 6)).sum();
    [(rolls / 20.0) as f32, ((rolls * PIPS_PER_ROLL - pips) / 10.0) as f32, (first / 20.0) as f32, crossovers as f32 / 30.0]
}

/// Mean pips of a roll (a double counts four times): 49/6.
const PIPS_PER_ROLL: f64 = 49.0 / 6.0;

/// My checkers on the points of `mask` (bit `p - 1` for my point `p`).
fn checkers_on(pos: &Position, mask: u32) -> u32 {
    let mut m = mask & pos.occupied(ME);
    let mut n = 0;
    while m != 0 {
        n += pos.count(ME, m.trailing_zeros() as usize) as u32;
        m &= m - 1;
    }
    n
}

/// How far up the board my most advanced anchor stands in the opponent's
/// half (my points 13..24): 12 for my 13 point, 1 for my 24, 0 for none. An
/// advanced anchor is a safe landing spot and a base for attacking; a deep one
/// mostly waits.
fn forward_anchor(pos: &Position) -> u32 {
    let anchors = pos.stacked(ME) & 0xFF_F000;
    if anchors == 0 {
        0
    } else {
        25 - (anchors.trailing_zeros() + 1)
    }
}

/// Checkers beyond the second on my made points: stacked checkers that are
/// not doing a point's work (a flexible spare or a wasted stack).
fn spares(pos: &Position) -> u32 {
    pos.counts(ME).iter().map(|&n| n.saturating_sub(2) as u32).sum()
}

/// My checkers (the bar included) behind the opponent's longest run of made
/// points, when that run is three points or longer, weighted by its length
/// over six: checkers a prime holds back.
fn trapped_checkers(pos: &Position) -> f32 {
    let theirs = pos.stacked(THEM);
    let run = longest_run(theirs);
    if run < 3 {
        return 0.0;
    }
    // The lowest point of a run of that length: shift until one bit survives.
    let mut m = theirs;
    for _ in 1..run {
        m &= m >> 1;
    }
    let top = m.trailing_zeros() + run; // the run's highest bit index, 0-based, plus one
    let behind = BOARD_MASK & !((1u32 << top) - 1);
    (checkers_on(pos, behind) + pos.bar(ME) as u32) as f32 * run.min(6) as f32 / 6.0
}

/// The 21 distinct rolls, each with how many of the 36 it stands for.
const WEIGHTED_ROLLS: [(u8, u8, u32); 21] = {
    let mut out = [(0, 0, 0); 21];
    let mut k = 0;
    while k < 21 {
        let (d1, d2, _) = ROLLS[k];
        out[k] = (d1, d2, if d1 == d2 { 1 } else { 2 });
        k += 1;
    }
    out
};

fn weighted_rolls() -> impl Iterator<Item = (u8, u8, u32)> {
    WEIGHTED_ROLLS.iter().copied()
}

/// The longest run of set bits in a mask, without wrapping.
#[inline(always)]
pub fn longest_run(mask: u32) -> u32 {
    let mut m = mask;
    let mut run = 0;
    while m != 0 {
        m &= m << 1;
        run += 1;
    }
    run
}

/// My blots with an opposing checker 1 to 12 pips behind them (the bar
/// counting as point 0), whatever blocks the way.
fn blots_within_direct_range(pos: &Position) -> u32 {
    let blots = pos.occupied(ME) & !pos.stacked(ME);
    let theirs = pos.occupied(THEM);
    let mut exposed = 0;
    let mut b = blots;
    while b != 0 {
        let p = b.trailing_zeros() as i32 + 1;
        b &= b - 1;
        let behind = (1..=12).any(|d| {
            let q = p - d;
            q == 0 && pos.bar(THEM) > 0 || q >= 1 && theirs & (1 << (q - 1)) != 0
        });
        exposed += behind as u32;
    }
    exposed
}

/// Where the checkers of a point mask land with the dice on the points not
/// `closed`, moving up the point mask (`UP`, the opponent's checkers) or down
/// it (mine; landing at or below bit 0 is not counted: the checker left the
/// board's points). Each die's single steps are worked out once for the 21
/// rolls.
struct Reach<const UP: bool> {
    /// `single[d]`: the landings of one step of `d` (1..6).
    single: [u32; 7],
    open: u32,
}

impl<const UP: bool> Reach<UP> {
    fn new(from: u32, closed: u32) -> Reach<UP> {
        let open = BOARD & !closed;
        let mut single = [0; 7];
        for (d, s) in single.iter_mut().enumerate().skip(1) {
            *s = Reach::<UP>::step(from, d as u8, open);
        }
        Reach { single, open }
    }

    #[inline(always)]
    fn step(x: u32, d: u8, open: u32) -> u32 {
        if UP {
            (x << d) & open
        } else {
            (x >> d) & open
        }
    }

    /// The landing points of one roll; `max_steps` limits how many dice one
    /// checker may use (checkers entering from the bar may have to stop).
    #[inline(always)]
    fn roll(&self, (d1, d2): (u8, u8), max_steps: u32) -> u32 {
        let (a, b) = (self.single[d1 as usize], self.single[d2 as usize]);
        if d1 == d2 {
            let (mut x, mut reached) = (a, a);
            for _ in 1..max_steps {
                x = Reach::<UP>::step(x, d1, self.open);
                reached |= x;
            }
            return reached;
        }
        if max_steps < 2 {
            return a | b;
        }
        a | b | Reach::<UP>::step(a, d2, self.open) | Reach::<UP>::step(b, d1, self.open)
    }
}

/// What the opponent's next roll threatens against my blots.
struct Shots {
    /// Rolls (of 36) that hit at least one of my blots.
    hit_rolls: u32,
    /// Rolls that can hit two of them (one checker after the other, or two checkers).
    double_hit_rolls: u32,
    /// Pips I lose on average over the 36 rolls to the costliest hit.
    pip_loss: f32,
}

/// The opponent's shots at my blots (see [`Shots`]).
///
/// An opposing checker on the bar must enter first, so then only the bar
/// checkers attack, and with two or more on the bar they run out of dice
/// sooner; hits by other checkers with a die left over are not counted.
fn shots_at_my_blots(pos: &Position) -> Shots {
    let blots = (pos.occupied(ME) & !pos.stacked(ME)) << 1;
    if blots == 0 {
        return Shots { hit_rolls: 0, double_hit_rolls: 0, pip_loss: 0.0 };
    }
    let closed = pos.stacked(ME) << 1;
    let on_bar = pos.bar(THEM) as u32;
    let attackers = if on_bar > 0 { 1 } else { pos.occupied(THEM) << 1 };
    let max_steps = if on_bar == 0 { 4 } else { 5 - on_bar.min(4) };
    let mut shots = Shots { hit_rolls: 0, double_hit_rolls: 0, pip_loss: 0.0 };
    let mut pips_lost = 0;
    let reach = Reach::<true>::new(attackers, closed);
    for (d1, d2, weight) in weighted_rolls() {
        let hits = reach.roll((d1, d2), max_steps) & blots;
        if hits != 0 {
            shots.hit_rolls += weight;
            // The blot nearest my home loses the most ground: it restarts from 25.
            pips_lost += weight * (25 - hits.trailing_zeros());
        }
        if hits.count_ones() >= 2 {
            shots.double_hit_rolls += weight;
        }
    }
    shots.pip_loss = pips_lost as f32 / 36.0;
    shots
}

/// How well my points hold back opposing checkers still in my home board or
/// just outside it: 36 less the fewest escaping rolls over a checker placed on
/// each of my points 1 to 9 (escaping meaning to land past my furthest made
/// point among the 12 points ahead of it). 0 when nothing blocks.
fn containment(pos: &Position) -> u32 {
    let mine = (pos.stacked(ME) << 1) & BOARD;
    let mut fewest = 36;
    for s in 1..=9u32 {
        // My points on the 12 ahead of s (all on the board, s + 12 <= 21).
        let window = (mine >> (s + 1)) & 0xFFF;
        if window == 0 {
            continue;
        }
        let top = s + 1 + (31 - window.leading_zeros());
        let mut escaping = NON_DOUBLE_ESCAPES[window as usize] as u32;
        for d in 1..=6 {
            let mut x = s;
            for _ in 0..4 {
                x += d;
                if x > 24 || mine & (1 << x) != 0 {
                    break;
                }
                if x > top {
                    escaping += 1;
                    break;
                }
            }
        }
        fewest = fewest.min(escaping);
        if fewest == 0 {
            break;
        }
    }
    36 - fewest
}

/// For [`containment`]: how many of the 36 rolls that are not doubles carry a
/// checker past the furthest closed point of the 12 ahead of it (bit `j` of
/// the index: the point `j + 1` pips ahead is closed; not 0).
const NON_DOUBLE_ESCAPES: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut w = 1usize;
    while w < 4096 {
        let top = 31 - (w as u32).leading_zeros() as usize;
        let mut a = 1;
        while a <= 6 {
            let mut b = a + 1;
            while b <= 6 {
                let (ja, jb, jab) = (a - 1, b - 1, a + b - 1);
                let (open_a, open_b, open_ab) = (w & (1 << ja) == 0, w & (1 << jb) == 0, w & (1 << jab) == 0);
                let single = (ja > top && open_a) || (jb > top && open_b);
                let both = jab > top && open_ab && (open_a || open_b);
                if single || both {
                    table[w] += 2;
                }
                b += 1;
            }
            a += 1;
        }
        w += 1;
    }
    table
};

/// The pips my checkers outside my home board need to get home (the bar
/// counting as 25): how far I am from bearing off, which decides gammons.
fn pips_to_home(pos: &Position) -> u32 {
    let outside: u32 = (7..=24).map(|p| (p - 6) * pos.count(ME, p as usize - 1) as u32).sum();
    outside + 19 * pos.bar(ME) as u32
}

/// My rearmost checker's point (25 on the bar, 0 when all are off).
fn rearmost_checker(pos: &Position) -> u32 {
    if pos.bar(ME) > 0 {
        25
    } else {
        32 - pos.occupied(ME).leading_zeros()
    }
}

/// Of the 36 rolls, how many carry my rearmost checker past the opponent's
/// furthest-forward made point among the 12 points ahead of it (36 when no
/// such point blocks it, or when I have no checker left).
fn back_checker_escapes(pos: &Position) -> u32 {
    let rear = rearmost_checker(pos);
    if rear == 0 {
        return 36;
    }
    let their_points = (pos.stacked(THEM) << 1) & BOARD;
    let window = ((1u32 << rear) - 1) & !((1u32 << rear.saturating_sub(12)) - 1);
    let blockers = their_points & window;
    if blockers == 0 {
        return 36;
    }
    let beyond = (1u32 << blockers.trailing_zeros()) - 1;
    let reach = Reach::<false>::new(1 << rear, their_points);
    weighted_rolls().filter(|&(d1, d2, _)| reach.roll((d1, d2), 4) & beyond != 0).map(|(_, _, weight)| weight).sum()
}

/// The chance that I fail to enter a checker from the bar this roll (0 when
/// none is there).
fn bar_dance_chance(pos: &Position) -> f32 {
    if pos.bar(ME) == 0 {
        return 0.0;
    }
    let closed = (pos.stacked(THEM) & 0xFC_0000).count_ones() as f32 / 6.0;
    closed * closed
}

/// The pips my checkers still need to reach the opponent's rearmost checker
/// (how far I am from breaking contact).
fn break_contact_pips(pos: &Position) -> u32 {
    let their_rear = if pos.bar(THEM) > 0 {
        0
    } else if pos.occupied(THEM) == 0 {
        return 0;
    } else {
        pos.occupied(THEM).trailing_zeros() + 1
    };
    let mut pips = 0;
    for p in (their_rear + 1)..=24 {
        pips += (p - their_rear) * pos.count(ME, p as usize - 1) as u32;
    }
    pips + (25 - their_rear) * pos.bar(ME) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

    /// A backgammon position from (point, count) lists in each owner's numbering (25 = bar).
    fn position(mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Position {
        Position::from_points(Rules::backgammon(), mine, theirs)
    }

    #[test]
    fn race_features_are_the_tables_view_of_a_race() {
        use crate::bearoff::{tables, BearoffRule};
        let t = &tables(BearoffRule::Standard).one_sided;
        // All home: the table's own expected rolls, no crossovers.
        let home = position(&[(6, 5), (5, 5), (4, 5)], &[(6, 15)]);
        let [rolls, waste, first, cross] = race_features(&home);
        let e = t.expected_rolls(&[0, 0, 0, 5, 5, 5]);
        assert!((rolls as f64 - e / 20.0).abs() < 1e-6);
        assert!((waste as f64 - (e * 49.0 / 6.0 - 75.0) / 10.0).abs() < 1e-5 && waste > 0.0);
        assert!((first as f64 - t.expected_first_rolls(&[0, 0, 0, 5, 5, 5]) / 20.0).abs() < 1e-6);
        assert_eq!(cross, 0.0);
        // Two checkers on the 13-point: two crossovers each, and 14 pips to the six-point
        // (about 1.7 rolls) beyond the table's rolls with them on the six-point.
        let out = position(&[(13, 2), (6, 3), (5, 5), (4, 5)], &[(6, 15)]);
        let [rolls, _, _, cross] = race_features(&out);
        let e = t.expected_rolls(&[0, 0, 0, 5, 5, 5]);
        assert!((rolls as f64 - (e + 14.0 * 6.0 / 49.0) / 20.0).abs() < 1e-6);
        assert!((cross - 4.0 / 30.0).abs() < 1e-6);
        // A checker off already: no first checker left to bear off.
        let off = position(&[(6, 5), (5, 5), (4, 4)], &[(6, 15)]);
        assert_eq!(race_features(&off)[2], 0.0);
    }

    #[test]
    fn the_race_slots_are_zero_in_a_race() {
        // What the race measures replace must be nothing in a race.
        let race = position(&[(6, 5), (9, 5), (13, 5)], &[(5, 5), (10, 5), (11, 5)]);
        assert!(race.is_race());
        for view in [race, race.flip()] {
            let f = features(&view);
            for slot in RACE_SLOTS {
                assert_eq!(f[slot], 0.0, "slot {slot}");
            }
        }
    }

    #[test]
    fn a_direct_six_shot_hits_on_eleven_rolls_plus_combinations() {
        // My blot on my 7, their checker on their 24 (my 1), six pips behind it.
        let p = position(&[(7, 1), (6, 14)], &[(24, 1), (1, 14)]);
        let shots = shots_at_my_blots(&p);
        // Any 6 (11), 5-1 (2), 4-2 (2), 3-3 (1), 2-2 (1): 17 rolls.
        assert_eq!(shots.hit_rolls, 17);
        assert_eq!(shots.double_hit_rolls, 0);
        assert!((shots.pip_loss - 17.0 * 18.0 / 36.0).abs() < 1e-4);
        // A second blot on my 4, three pips from their checker: 6-3 hits both
        // (two rolls) and so does 3-3 (one); every other roll hits one at most.
        let two = position(&[(7, 1), (4, 1), (6, 13)], &[(24, 1), (1, 14)]);
        let shots = shots_at_my_blots(&two);
        assert_eq!(shots.double_hit_rolls, 3);
    }

    #[test]
    fn blocked_intermediate_points_stop_combination_shots() {
        // As above, but I also hold my 3 and my 5.
        let p = position(&[(7, 1), (3, 2), (5, 2), (6, 10)], &[(24, 1), (1, 14)]);
        // Any 6 (11), 5-1 (2, via my 2), 3-3 (1, via 4). 4-2: via 5 or 3, both closed.
        assert_eq!(shots_at_my_blots(&p).hit_rolls, 14);
    }

    #[test]
    fn escapes_and_dancing() {
        // My last checker on their 1 point (my 24) behind their 5-point prime on
        // my 18..22 (their 3..7): it must reach my 17 or lower, 7+ pips away.
        let p = position(&[(24, 1), (6, 14)], &[(3, 3), (4, 3), (5, 3), (6, 3), (7, 3)]);
        // Every first step but a 1 lands on the prime, and from my 23 only a
        // 6 clears it: 6-1 is the one escaping roll.
        assert_eq!(back_checker_escapes(&p), 2);
        let free = position(&[(6, 15)], &[(3, 15)]);
        assert_eq!(back_checker_escapes(&free), 36);
        // On the bar against a 3-point board: 9/36 dance.
        let bar = position(&[(25, 1), (6, 14)], &[(1, 2), (2, 2), (3, 2), (8, 9)]);
        assert!((bar_dance_chance(&bar) - 0.25).abs() < 1e-6);
        assert_eq!(break_contact_pips(&free), 0);
        // Their rearmost checker is on my 18: my checker on my 24 is 6 pips behind it.
        assert_eq!(break_contact_pips(&p), 6);
        assert_eq!(rearmost_checker(&p), 24);
        assert_eq!(rearmost_checker(&bar), 25);
        assert_eq!(pips_to_home(&p), 18);
        assert_eq!(pips_to_home(&bar), 19);
        assert_eq!(pips_to_home(&free), 0);
    }

    #[test]
    fn anchors_spares_and_trapped_checkers() {
        // Their five-point prime on their 2..6 (my 23..19), my anchor on my 16,
        // one checker of mine behind the prime on my 24.
        let prime = [(2, 3), (3, 3), (4, 3), (5, 3), (6, 3)];
        let p = position(&[(24, 1), (16, 2), (6, 12)], &prime);
        assert_eq!(forward_anchor(&p), 9);
        assert_eq!(spares(&p), 10);
        assert!((trapped_checkers(&p) - 5.0 / 6.0).abs() < 1e-6);
        // Six checkers behind it, one of them on the bar.
        let q = position(&[(25, 1), (24, 5), (6, 9)], &prime);
        assert!((trapped_checkers(&q) - 5.0).abs() < 1e-6);
        assert_eq!(checkers_on(&q, 0xFC_0000), 5);
        assert_eq!(forward_anchor(&q), 1);
        let free = position(&[(6, 15)], &[(3, 15)]);
        assert_eq!(forward_anchor(&free), 0);
        assert_eq!(trapped_checkers(&free), 0.0);
    }

    // The landings as first written, one roll at a time: the reference for [`Reach`].
    /// Landing points of one roll for checkers starting on `from`, moving up the
    /// point mask, never landing on `closed`; `max_steps` limits how many dice one
    /// checker may use (checkers entering from the bar may have to stop).
    fn landings_up(from: u32, (d1, d2): (u8, u8), closed: u32, max_steps: u32) -> u32 {
        let open = BOARD & !closed;
        if d1 == d2 {
            let mut x = from;
            let mut reached = 0;
            for _ in 0..max_steps {
                x = (x << d1) & open;
                reached |= x;
            }
            return reached;
        }
        let a = (from << d1) & open;
        let b = (from << d2) & open;
        if max_steps < 2 {
            return a | b;
        }
        a | b | ((a << d2) & open) | ((b << d1) & open)
    }

    /// The same, moving down the mask (my checkers); landing at or below bit 0
    /// is not counted (the checker left the board's points).
    fn landings_down(from: u32, (d1, d2): (u8, u8), closed: u32) -> u32 {
        let open = BOARD & !closed;
        if d1 == d2 {
            let mut x = from;
            let mut reached = 0;
            for _ in 0..4 {
                x = (x >> d1) & open;
                reached |= x;
            }
            return reached;
        }
        let a = (from >> d1) & open;
        let b = (from >> d2) & open;
        a | b | ((a >> d2) & open) | ((b >> d1) & open)
    }

    #[test]
    fn reach_gives_the_landings_of_every_roll_as_first_written() {
        let mut rng = crate::dice::Dice::training(23);
        let mask = |rng: &mut crate::dice::Dice| (0..26).fold(0u32, |m, b| if rng.below(4) == 0 { m | 1 << b } else { m });
        for _ in 0..20_000 {
            let (from, closed) = (mask(&mut rng), mask(&mut rng));
            let (up, down) = (Reach::<true>::new(from, closed), Reach::<false>::new(from, closed));
            for (d1, d2, _) in weighted_rolls() {
                for steps in 1..=4 {
                    assert_eq!(up.roll((d1, d2), steps), landings_up(from, (d1, d2), closed, steps), "{from:#x} {closed:#x} {d1}-{d2}");
                }
                assert_eq!(down.roll((d1, d2), 4), landings_down(from, (d1, d2), closed), "{from:#x} {closed:#x} {d1}-{d2}");
            }
        }
    }

    /// [`containment`] as first written: every roll walked from every point.
    fn containment_by_walking(pos: &Position) -> u32 {
        let mine = (pos.stacked(ME) << 1) & BOARD;
        let fewest = (1..=9u32)
            .map(|s| {
                let window = BOARD & !((1u32 << (s + 1)) - 1) & ((1u32 << (s + 13)) - 1);
                let blockers = mine & window;
                if blockers == 0 {
                    return 36;
                }
                let beyond = BOARD & !((2u32 << (31 - blockers.leading_zeros())) - 1);
                weighted_rolls().filter(|&(d1, d2, _)| landings_up(1 << s, (d1, d2), mine, 4) & beyond != 0).map(|(_, _, w)| w).sum()
            })
            .min()
            .unwrap_or(36);
        36 - fewest
    }

    #[test]
    fn the_containment_tables_agree_with_walking_every_roll() {
        let mut rng = crate::dice::Dice::training(11);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..20_000 {
            // Random made points for me, a blot or two, the rest on my 24.
            let mut mine = [0i64; 25];
            let mut left = 15;
            for p in 1..=21 {
                if left >= 2 && rng.below(3) == 0 {
                    mine[p - 1] = 2;
                    left -= 2;
                }
            }
            mine[24] += left;
            let p = Position::from_arrays(Rules::backgammon(), &mine, &{
                let mut t = [0i64; 25];
                t[0] = 15;
                t
            })
            .unwrap();
            assert_eq!(containment(&p), containment_by_walking(&p), "{mine:?}");
            seen.insert(containment(&p));
        }
        assert!(seen.len() > 10, "{seen:?}");
    }

    #[test]
    fn containment_counts_the_hardest_point_to_leave() {
        // Nothing of mine made beyond the opposing checkers' reach: no containment.
        let open = position(&[(1, 15)], &[(1, 15)]);
        assert_eq!(containment(&open), 0);
        // My full prime on my 4..9: a checker on my 3 cannot jump it with one roll
        // (at most 6 pips per step, every landing 4..9 closed).
        let prime = position(&[(4, 2), (5, 2), (6, 2), (7, 2), (8, 2), (9, 2), (13, 3)], &[(24, 1), (1, 14)]);
        assert_eq!(containment(&prime), 36);
        // A single point on my 7: from my 1 only a landing beyond 7 escapes.
        let one = position(&[(7, 2), (13, 13)], &[(1, 15)]);
        assert!(containment(&one) > 0 && containment(&one) < 36);
    }
}
