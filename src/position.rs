//! A position, always seen from the player on roll.
//!
//! Both players' checkers are stored on the mover's numbering of the board, so
//! that one bit index means one physical point for both sides:
//!
//! ```text
//!   bit:     23 22 21 ... 12 11 ...  6  5  4  3  2  1  0
//!   point:   24 23 22 ... 13 12 ...  7  6  5  4  3  2  1   (the mover's numbering)
//!                                     \_____ home ______/
//! ```
//!
//! `occupied[s]` has a bit for every point where side `s` has a checker and
//! `stacked[s]` for every point where it has two or more (in backgammon a
//! point is closed to the mover exactly where `stacked[THEM]` is set; in the
//! nardy games wherever `occupied[THEM]` is set). The counts stay beside the
//! masks, which are kept in step by [`Position::add`] and [`Position::remove`].
//!
//! The opponent numbers the same points from its own side: in backgammon my
//! point `p` is its point `25 - p`; in the nardy games (both players run the
//! same way round) my point `p` is its point `p + 12` or `p - 12`.
//!
//! Dutch backgammon and acey-deucey (RULES.md section 5) play on the
//! backgammon geometry and add a **reserve**: checkers not yet on the board,
//! neither on the bar nor borne off. Always `15 = board + bar + reserve + off`.

use crate::error::{Error, Result};
use crate::variant::{Rules, Variant};

pub const POINTS: usize = 24;
pub const CHECKERS: u8 = 15;
/// Index of the mover in the side arrays.
pub const ME: usize = 0;
/// Index of the opponent in the side arrays.
pub const THEM: usize = 1;
/// Points 1..6, the mover's home.
pub const HOME_MASK: u32 = 0x3F;
pub const BOARD_MASK: u32 = 0xFF_FFFF;
/// The head in the nardy games: the mover's point 24.
pub const HEAD: usize = 23;
/// Point numbers used for steps: 25 is the bar, 26 the reserve, 0 is off.
pub const BAR_POINT: u8 = 25;
pub const RESERVE_POINT: u8 = 26;
pub const OFF_POINT: u8 = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// `counts[side][i]`: checkers of `side` on the mover's point `i + 1`.
    counts: [[u8; POINTS]; 2],
    bar: [u8; 2],
    /// Checkers not yet entered (Dutch backgammon and acey-deucey only).
    reserve: [u8; 2],
    off: [u8; 2],
    occupied: [u32; 2],
    stacked: [u32; 2],
    rules: Rules,
}

/// Where the opponent numbers the mover's point index `i` (0-based both ways).
/// The map is its own inverse, which is what makes [`Position::flip`] simple.
#[inline]
pub fn opponent_index(variant: Variant, i: usize) -> usize {
    match variant {
        Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => 23 - i,
        Variant::Nardy | Variant::GulBara => (i + 12) % 24,
    }
}

/// The same map as [`opponent_index`] applied to a whole point mask.
#[inline]
pub fn opponent_mask(variant: Variant, mask: u32) -> u32 {
    match variant {
        Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => mask.reverse_bits() >> 8,
        Variant::Nardy | Variant::GulBara => ((mask << 12) | (mask >> 12)) & BOARD_MASK,
    }
}

/// A side's 25 entries of [`Position::from_arrays`] from (point, count)
/// pairs in its own numbering (points 1..=24, 25 the bar), for tests.
#[cfg(test)]
pub(crate) fn points_array(points: &[(usize, i64)]) -> [i64; 25] {
    let mut a = [0i64; 25];
    for &(p, n) in points {
        a[p - 1] = n;
    }
    a
}

impl Position {
    /// An empty board with every checker borne off, for building positions.
    fn empty(rules: Rules) -> Position {
        Position { counts: [[0; POINTS]; 2], bar: [0; 2], reserve: [0; 2], off: [CHECKERS; 2], occupied: [0; 2], stacked: [0; 2], rules }
    }

    /// The starting position of the variant, mover's view (both sides alike).
    pub fn start(rules: Rules) -> Position {
        let layout: &[(usize, u8)] = match rules.variant {
            Variant::Backgammon => &[(24, 2), (13, 5), (8, 3), (6, 5)],
            Variant::Nardy | Variant::GulBara => &[(24, 15)],
            // Every checker in reserve (RULES.md 5.1, 5.2).
            Variant::Dutch | Variant::AceyDeucey => &[],
        };
        let mut arr = [0i64; 25];
        for &(point, n) in layout {
            arr[point - 1] = n as i64;
        }
        let reserve = if rules.variant.has_reserve() { CHECKERS as i64 } else { 0 };
        Position::from_arrays_with_reserve(rules, &arr, &arr, [reserve; 2]).expect("the start position is valid")
    }

    /// Builds a position from two 25-entry arrays, each in its owner's numbering
    /// (index i is point i+1, index 24 the bar); borne-off is 15 minus the sum.
    pub fn from_arrays(rules: Rules, mine: &[i64], theirs: &[i64]) -> Result<Position> {
        Position::from_arrays_with_reserve(rules, mine, theirs, [0; 2])
    }

    /// A valid position from (point, count) lists, each in its owner's
    /// numbering (points 1..=24, 25 the bar): the tests' way to write one.
    #[cfg(test)]
    pub(crate) fn from_points(rules: Rules, mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Position {
        Position::from_arrays(rules, &points_array(mine), &points_array(theirs)).unwrap()
    }

    /// [`Position::from_arrays`] with each side's reserve (mover's, opponent's):
    /// borne-off is then 15 minus the board, the bar and the reserve.
    pub fn from_arrays_with_reserve(rules: Rules, mine: &[i64], theirs: &[i64], reserve: [i64; 2]) -> Result<Position> {
        let mut pos = Position::empty(rules);
        for (side, arr, who) in [(ME, mine, "mine"), (THEM, theirs, "theirs")] {
            if arr.len() != 25 {
                return Err(Error::new(format!("{who} must have 25 entries (points 1..24 and the bar), not {}", arr.len())));
            }
            let r = reserve[side];
            if r != 0 && !rules.variant.has_reserve() {
                return Err(Error::new(format!(
                    "{who} has {r} checkers in reserve: {} has no reserve (only dutch and acey_deucey do)",
                    rules.variant.name()
                )));
            }
            if !(0..=CHECKERS as i64).contains(&r) {
                return Err(Error::new(format!("{who}'s reserve is {r}: it holds 0 to 15 checkers")));
            }
            let mut total: i64 = r;
            for (i, &n) in arr.iter().enumerate() {
                if n < 0 {
                    return Err(Error::new(format!("{who}[{i}] is {n}: checker counts cannot be negative")));
                }
                if n > CHECKERS as i64 {
                    return Err(Error::new(format!("{who}[{i}] is {n}: a player has only 15 checkers")));
                }
                total += n;
            }
            if total > CHECKERS as i64 {
                return Err(Error::new(format!("{who} holds {total} checkers (board, bar and reserve): a player has only 15")));
            }
            if arr[24] != 0 && !rules.variant.has_contact_hits() {
                return Err(Error::new(format!("{who}[24] is {}: {} has no bar, so index 24 must be 0", arr[24], rules.variant.name())));
            }
            pos.bar[side] = arr[24] as u8;
            pos.reserve[side] = r as u8;
            pos.off[side] -= arr[24] as u8 + r as u8;
            for (own, &n) in arr[..24].iter().enumerate() {
                // The opponent's array is in its own numbering: move it onto mine.
                let i = if side == ME { own } else { opponent_index(rules.variant, own) };
                for _ in 0..n {
                    pos.add(side, i);
                }
            }
        }
        let shared = pos.occupied[ME] & pos.occupied[THEM];
        if shared != 0 {
            let p = shared.trailing_zeros() + 1;
            return Err(Error::new(format!(
                "both players have checkers on the mover's point {p}: a point holds one player's checkers only"
            )));
        }
        Ok(pos)
    }

    /// The two 25-entry arrays of [`Position::from_arrays`]: (mover's, opponent's),
    /// each in its owner's numbering.
    pub fn to_arrays(&self) -> ([u8; 25], [u8; 25]) {
        let mut mine = [0u8; 25];
        let mut theirs = [0u8; 25];
        for i in 0..POINTS {
            mine[i] = self.counts[ME][i];
            theirs[opponent_index(self.rules.variant, i)] = self.counts[THEM][i];
        }
        mine[24] = self.bar[ME];
        theirs[24] = self.bar[THEM];
        (mine, theirs)
    }

    /// The same position seen by the other player (who is then on roll).
    pub fn flip(&self) -> Position {
        let v = self.rules.variant;
        let mut out = Position::empty(self.rules);
        for i in 0..POINTS {
            let j = opponent_index(v, i);
            out.counts[ME][j] = self.counts[THEM][i];
            out.counts[THEM][j] = self.counts[ME][i];
        }
        out.bar = [self.bar[THEM], self.bar[ME]];
        out.reserve = [self.reserve[THEM], self.reserve[ME]];
        out.off = [self.off[THEM], self.off[ME]];
        out.occupied = [opponent_mask(v, self.occupied[THEM]), opponent_mask(v, self.occupied[ME])];
        out.stacked = [opponent_mask(v, self.stacked[THEM]), opponent_mask(v, self.stacked[ME])];
        out
    }

    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    #[inline]
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }
    /// Checkers of `side` on the mover's point index `i` (0..24).
    #[inline]
    pub fn count(&self, side: usize, i: usize) -> u8 {
        self.counts[side][i]
    }
    #[inline]
    pub fn counts(&self, side: usize) -> &[u8; POINTS] {
        &self.counts[side]
    }
    #[inline]
    pub fn bar(&self, side: usize) -> u8 {
        self.bar[side]
    }
    /// Checkers of `side` not yet entered (0 outside Dutch backgammon and acey-deucey).
    #[inline]
    pub fn reserve(&self, side: usize) -> u8 {
        self.reserve[side]
    }
    #[inline]
    pub fn off(&self, side: usize) -> u8 {
        self.off[side]
    }
    #[inline]
    pub fn occupied(&self, side: usize) -> u32 {
        self.occupied[side]
    }
    #[inline]
    pub fn stacked(&self, side: usize) -> u32 {
        self.stacked[side]
    }

    /// Points the mover may not land on.
    #[inline]
    pub fn blocked(&self) -> u32 {
        match self.rules.variant {
            Variant::Backgammon | Variant::AceyDeucey => self.stacked[THEM],
            Variant::Nardy | Variant::GulBara => self.occupied[THEM],
            // No early hitting (RULES.md 5.1): until the mover has a checker
            // home, judged before each single move, a lone opposing checker
            // closes its point too.
            Variant::Dutch if self.occupied[ME] & HOME_MASK == 0 => self.occupied[THEM],
            Variant::Dutch => self.stacked[THEM],
        }
    }

    /// Each side's pip count in its own numbering (bar and reserve count 25).
    #[inline(always)]
    pub fn pips(&self) -> [u32; 2] {
        let mine = self.side_pips(ME, |i| i as u32 + 1);
        let mut pips = match self.rules.variant {
            Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => [mine, self.side_pips(THEM, |i| 24 - i as u32)],
            Variant::Nardy | Variant::GulBara => [mine, self.side_pips(THEM, |i| ((i + 12) % POINTS) as u32 + 1)],
        };
        pips[ME] += 25 * (self.bar[ME] + self.reserve[ME]) as u32;
        pips[THEM] += 25 * (self.bar[THEM] + self.reserve[THEM]) as u32;
        pips
    }

    /// [`Position::pips`] of `side`'s checkers on the points, `distance(i)`
    /// pips from point index `i`: over every point, a fixed loop of
    /// multiply-adds the compiler unrolls and vectorizes, where a loop over
    /// the occupied points only branched on each position's own layout (the
    /// encoder of every network evaluation counts pips).
    #[inline(always)]
    fn side_pips(&self, side: usize, distance: impl Fn(usize) -> u32) -> u32 {
        let counts = &self.counts[side];
        (0..POINTS).map(|i| distance(i) * counts[i] as u32).sum()
    }

    /// Whether `side` has all its checkers home or off, so it may bear off
    /// (the reserve counts as on the bar).
    #[inline]
    pub fn all_home(&self, side: usize) -> bool {
        let home = if side == ME { HOME_MASK } else { opponent_mask(self.rules.variant, HOME_MASK) };
        self.bar[side] == 0 && self.reserve[side] == 0 && self.occupied[side] & !home == 0
    }

    /// True once either side has borne off all 15 checkers.
    pub fn is_game_over(&self) -> bool {
        self.off[ME] == CHECKERS || self.off[THEM] == CHECKERS
    }

    /// True when no checker can ever meet an opposing one again (a pure race).
    pub fn is_race(&self) -> bool {
        match self.rules.variant {
            Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => {
                // A checker in reserve still has the whole board to cross.
                if self.bar[ME] + self.bar[THEM] + self.reserve[ME] + self.reserve[THEM] > 0 {
                    return false;
                }
                // The mover runs down towards bit 0; the opponent up towards bit 23.
                let my_back = 32 - self.occupied[ME].leading_zeros();
                let their_back = self.occupied[THEM].trailing_zeros();
                self.occupied[ME] == 0 || self.occupied[THEM] == 0 || my_back <= their_back
            }
            // Without hitting, the sides interact only by blocking. In my numbering my
            // checkers run 24..1 and the opponent's run 12..1 and then 24..13, so once
            // all of mine are in my half (1..12) and all of theirs in their half (my
            // 13..24) neither can ever stand in the other's way again.
            Variant::Nardy | Variant::GulBara => self.occupied[ME] & 0xFFF000 == 0 && self.occupied[THEM] & 0x000FFF == 0,
        }
    }

    /// True in a contact position where a side has crashed: backgammon's
    /// third class of position (GNU Backgammon's "crashed"), which the
    /// engine judges with a network of its own. A side has crashed when it
    /// has at most six checkers in play (on the board or the bar), not
    /// counting a pile of two or more on its own 1-point, nor (with such a
    /// pile) all but one of a pile of two or more on its 2-point; without a
    /// pile on the 1-point, all but one on the 2-point. Such a side has
    /// borne off most of its checkers, or buried them deep, while contact
    /// lasts: a game a network trained on whole games sees little of. Only
    /// the backgammon family has the class (a nardy side cannot be hit).
    pub fn is_crashed(&self) -> bool {
        match self.rules.variant {
            Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => {
                !self.is_race() && (self.has_crashed(ME) || self.has_crashed(THEM))
            }
            Variant::Nardy | Variant::GulBara => false,
        }
    }

    /// [`Position::is_crashed`] for one side.
    fn has_crashed(&self, side: usize) -> bool {
        const IN_PLAY: u32 = 6;
        let own = |n: usize| if side == ME { self.counts[ME][n - 1] } else { self.counts[THEM][opponent_index(self.rules.variant, n - 1)] } as u32;
        let in_play = (CHECKERS - self.off[side]) as u32;
        let (one, two) = (own(1), own(2));
        if in_play <= IN_PLAY {
            true
        } else if one > 1 {
            in_play - one <= IN_PLAY || (two > 1 && in_play - one - two < IN_PLAY)
        } else {
            in_play < IN_PLAY + two
        }
    }

    /// Puts one checker of `side` on point index `i`.
    #[inline]
    pub(crate) fn add(&mut self, side: usize, i: usize) {
        let n = self.counts[side][i] + 1;
        self.counts[side][i] = n;
        self.occupied[side] |= 1 << i;
        if n >= 2 {
            self.stacked[side] |= 1 << i;
        }
        self.off[side] -= 1;
    }

    /// Takes one checker of `side` off point index `i` (the caller knows one is there).
    #[inline]
    pub(crate) fn remove(&mut self, side: usize, i: usize) {
        let n = self.counts[side][i] - 1;
        self.counts[side][i] = n;
        if n == 0 {
            self.occupied[side] &= !(1 << i);
        }
        if n < 2 {
            self.stacked[side] &= !(1 << i);
        }
        self.off[side] += 1;
    }

    /// Moves a mover's checker from the bar to the board (counted as neither off nor on).
    #[inline]
    pub(crate) fn enter_from_bar(&mut self, i: usize) {
        self.bar[ME] -= 1;
        self.off[ME] += 1; // `add` takes it back from `off`
        self.add(ME, i);
    }

    /// Moves a mover's checker from the reserve onto the board.
    #[inline]
    pub(crate) fn enter_from_reserve(&mut self, i: usize) {
        self.reserve[ME] -= 1;
        self.off[ME] += 1; // `add` takes it back from `off`
        self.add(ME, i);
    }

    /// Sends the opponent's lone checker on `i` to its bar.
    #[inline]
    pub(crate) fn hit(&mut self, i: usize) {
        self.remove(THEM, i);
        self.off[THEM] -= 1;
        self.bar[THEM] += 1;
    }

    /// A compact exact key of everything a move can change, for de-duplicating
    /// the results of one position and roll: the mover's 24 point counts as
    /// three words of bytes, then its reserve, its bar and the opponent's
    /// occupancy (which a move changes only by hitting).
    #[inline]
    pub(crate) fn result_key(&self) -> [u64; 4] {
        let c = &self.counts[ME];
        let word = |k: usize| u64::from_le_bytes(c[8 * k..8 * k + 8].try_into().expect("8 bytes"));
        [word(0), word(1), word(2), (self.reserve[ME] as u64) << 40 | (self.bar[ME] as u64) << 32 | self.occupied[THEM] as u64]
    }

    /// A short human-readable board (used by `Debug` output and the CLI).
    pub fn describe(&self) -> String {
        let (mine, theirs) = self.to_arrays();
        let fmt = |arr: &[u8; 25]| {
            let mut parts = vec![];
            for (i, &n) in arr[..24].iter().enumerate().rev() {
                if n > 0 {
                    parts.push(format!("{}:{}", i + 1, n));
                }
            }
            if arr[24] > 0 {
                parts.insert(0, format!("bar:{}", arr[24]));
            }
            parts.join(" ")
        };
        let reserve = |side: usize| if self.reserve[side] > 0 { format!(" (reserve {})", self.reserve[side]) } else { String::new() };
        format!(
            "{} | on roll: {}{} (off {}) | opponent: {}{} (off {})",
            self.rules.variant.name(),
            fmt(&mine),
            reserve(ME),
            self.off[ME],
            fmt(&theirs),
            reserve(THEM),
            self.off[THEM]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_round_trip() {
        for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
            let p = Position::start(rules);
            let (m, t) = p.to_arrays();
            assert_eq!(m, t);
            assert_eq!(p.flip(), p, "{rules:?}");
            assert_eq!(p.off(ME), 0);
        }
        let p = Position::start(Rules::backgammon());
        assert_eq!(p.pips(), [167, 167]);
        // Opponent's 24-point is my 1-point.
        assert_eq!(p.count(THEM, 0), 2);
        let n = Position::start(Rules::nardy());
        // Opponent's head is my point 12.
        assert_eq!(n.count(THEM, 11), 15);
    }

    #[test]
    fn pips_are_each_side_s_own_count_in_its_own_numbering() {
        // Positions of random games of every variant: each side's pips read from
        // its own arrays (point i + 1 for index i, 25 for the bar and the reserve).
        let mut rng = crate::dice::Dice::training(21);
        let mut movegen = crate::movegen::MoveGen::new();
        let mut plays = Vec::new();
        let mut seen = 0;
        for variant in [Variant::Backgammon, Variant::Nardy, Variant::GulBara, Variant::Dutch, Variant::AceyDeucey] {
            for _ in 0..20 {
                let mut pos = Position::start(Rules::new(variant));
                for _ in 0..60 {
                    let (mine, theirs) = pos.to_arrays();
                    let own = |a: &[u8; 25], side: usize| {
                        (0..24).map(|i| (i as u32 + 1) * a[i] as u32).sum::<u32>() + 25 * (a[24] + pos.reserve(side)) as u32
                    };
                    assert_eq!(pos.pips(), [own(&mine, ME), own(&theirs, THEM)], "{variant:?}");
                    seen += 1;
                    movegen.legal_moves(&pos, rng.die(), rng.die(), &mut plays);
                    let next = plays[rng.below(plays.len())].position;
                    if next.is_game_over() {
                        break;
                    }
                    pos = next.flip();
                }
            }
        }
        assert!(seen > 3000, "{seen}");
    }

    #[test]
    fn flip_is_an_involution_and_keeps_masks() {
        let mut mine = [0i64; 25];
        let mut theirs = [0i64; 25];
        mine[5] = 3;
        mine[24] = 1;
        mine[10] = 1;
        theirs[0] = 2;
        theirs[20] = 4;
        let p = Position::from_arrays(Rules::backgammon(), &mine, &theirs).unwrap();
        let f = p.flip();
        assert_eq!(f.flip(), p);
        let (m2, t2) = f.to_arrays();
        assert_eq!(m2.map(|x| x as i64), theirs);
        assert_eq!(t2.map(|x| x as i64), mine);
        let rebuilt = Position::from_arrays(Rules::backgammon(), &theirs, &mine).unwrap();
        assert_eq!(rebuilt, f);
        // Checkers on the bar are neither on the board nor off.
        assert_eq!(p.off(ME), 15 - 3 - 1 - 1);
        assert_eq!(p.off(THEM), 15 - 6);
    }

    #[test]
    fn bad_arrays_are_named() {
        let z = [0i64; 25];
        let e = Position::from_arrays(Rules::backgammon(), &z[..24], &z).unwrap_err();
        assert!(e.to_string().contains("25 entries"));
        let mut m = [0i64; 25];
        m[3] = -1;
        assert!(Position::from_arrays(Rules::backgammon(), &m, &z).unwrap_err().to_string().contains("negative"));
        let mut m = [0i64; 25];
        m[3] = 10;
        m[4] = 6;
        assert!(Position::from_arrays(Rules::backgammon(), &m, &z).unwrap_err().to_string().contains("16"));
        let mut m = [0i64; 25];
        m[24] = 1;
        assert!(Position::from_arrays(Rules::nardy(), &m, &z).unwrap_err().to_string().contains("no bar"));
        let mut m = [0i64; 25];
        let mut t = [0i64; 25];
        m[0] = 1;
        t[23] = 1; // their 24 = my 1 in backgammon
        assert!(Position::from_arrays(Rules::backgammon(), &m, &t).unwrap_err().to_string().contains("point 1"));
    }
}
