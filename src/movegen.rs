//! Legal move generation for every variant, as `shared/RULES.md` states it.
//!
//! A turn is searched depth-first, one checker step per die. Results are
//! recorded only at a fixed target depth: the search first asks for turns that
//! use every die, and only when none of those is legal does it ask for one die
//! fewer, and so on; that is the maximal-usage rule, applied after every other
//! rule (the head limit during the search, the six-fence rule at the end of the
//! turn), as RULES.md asks. With one die only, the larger die is tried first.
//!
//! Doubles play four steps of one number; the order of such steps never
//! changes the result, so the search only tries them from the highest point
//! down (a step may start no higher than the one before), which visits each
//! result far fewer times. Equal results are de-duplicated by an exact key.

use crate::error::{Error, Result};
use crate::position::{Position, BAR_POINT, CHECKERS, HEAD, HOME_MASK, ME, OFF_POINT, RESERVE_POINT, THEM};
use crate::variant::{FenceRule, HeadException, Rules, Variant};

/// One checker moving by one die. `from` 25 is the bar, 26 the reserve, `to` 0 is off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: u8,
    pub to: u8,
    /// The step landed on a lone opposing checker and sent it to the bar.
    pub hit: bool,
}

/// The steps of a turn in the order they were played (at most four; six for
/// acey-deucey's 1-2 roll: the 1, the 2 and four of the named number).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Play {
    steps: [Step; 6],
    len: u8,
}

impl Play {
    /// This play with one more step.
    #[inline]
    pub fn with(mut self, step: Step) -> Play {
        self.steps[self.len as usize] = step;
        self.len += 1;
        self
    }
    #[inline]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One legal turn (or one cascade step): the position it leads to, still seen
/// from the mover, and one way of playing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub position: Position,
    pub play: Play,
    /// Head checkers used so far: in this turn, or in the whole cascade for
    /// [`MoveGen::cascade_step`] (the count handed in plus this step's).
    pub head_used: u8,
    /// Acey-deucey's 1-2 roll: the number named after the 1 and the 2 (None
    /// when the turn ended before naming, and for every other roll).
    pub named: Option<u8>,
    /// Acey-deucey's 1-2 roll: the named number was played in full, so the
    /// player rolls again (a new turn of the same player).
    pub rolls_again: bool,
}

impl Move {
    /// The position after the move from the side of the player who rolls
    /// next: the opponent, or the mover itself after an acey-deucey 1-2
    /// played in full (RULES.md 5.2: that player rolls again).
    #[inline]
    pub fn next_roller_view(&self) -> Position {
        if self.rolls_again {
            self.position
        } else {
            self.position.flip()
        }
    }

    /// A move with no 1-2 naming (every roll but acey-deucey's 1-2).
    #[inline]
    pub fn new(position: Position, play: Play, head_used: u8) -> Move {
        Move { position, play, head_used, named: None, rolls_again: false }
    }

    /// Number of checker steps (dice, or moves of a cascade number) played.
    pub fn moves_played(&self) -> usize {
        self.play.len()
    }
}

pub fn check_die(d: i64) -> Result<u8> {
    if (1..=6).contains(&d) {
        Ok(d as u8)
    } else {
        Err(Error::new(format!("die {d} is impossible: dice show 1 to 6")))
    }
}

/// An open-addressing set of result keys, cleared in O(1) by a stamp.
struct SeenSet {
    slots: Vec<([u64; 4], u32)>,
    stamp: u32,
    len: usize,
}

impl SeenSet {
    fn new() -> SeenSet {
        SeenSet { slots: vec![([0; 4], 0); 256], stamp: 1, len: 0 }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.iter_mut().for_each(|s| s.1 = 0);
            self.stamp = 1;
        }
    }

    #[inline]
    fn slot_of(key: &[u64; 4], mask: usize) -> usize {
        let h = key[0] ^ key[1].rotate_left(17) ^ key[2].rotate_left(35) ^ key[3].rotate_left(51);
        (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask
    }

    /// Adds the key; false when it was already there.
    #[inline]
    fn insert(&mut self, key: [u64; 4]) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = Self::slot_of(&key, mask);
        loop {
            let slot = &mut self.slots[i];
            if slot.1 != self.stamp {
                *slot = (key, self.stamp);
                self.len += 1;
                return true;
            }
            if slot.0 == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let live: Vec<[u64; 4]> = self.slots.iter().filter(|s| s.1 == self.stamp).map(|s| s.0).collect();
        self.slots = vec![([0; 4], 0); self.slots.len() * 2];
        self.stamp = 1;
        self.len = 0;
        for key in live {
            self.insert(key);
        }
    }
}

/// The fixed parameters of one depth-first search.
struct Search {
    dice: [u8; 4],
    /// Depth at which a turn is complete and recorded.
    target: usize,
    /// All steps use one number: only try them from the highest point down.
    one_number: bool,
    /// How many checkers may still leave the head.
    head_limit: u8,
    /// Checked at the end of the turn.
    fence: FenceRule,
    /// Only the exact number bears off (gul bara option).
    exact_bearoff: bool,
    /// The second step must move the checker the first step moved (see
    /// [`MoveGen::play_two_numbers`]).
    same_checker: bool,
}

/// A reusable move generator: keep one per thread to avoid allocations.
pub struct MoveGen {
    seen: SeenSet,
}

impl Default for MoveGen {
    fn default() -> Self {
        MoveGen::new()
    }
}

impl MoveGen {
    pub fn new() -> MoveGen {
        MoveGen { seen: SeenSet::new() }
    }

    /// Every distinct legal turn for the roll `d1`-`d2` (dice must be 1..6).
    /// When nothing can be played the list holds one empty move.
    pub fn legal_moves(&mut self, pos: &Position, d1: u8, d2: u8, out: &mut Vec<Move>) {
        out.clear();
        let rules = *pos.rules();
        if rules.variant == Variant::AceyDeucey && d1.min(d2) == 1 && d1.max(d2) == 2 {
            self.acey_deucey_one_two(pos, out);
        } else if d1 == d2 {
            let limit = self.head_limit(pos, d1, 4, 0, &rules);
            self.play_one_number(pos, d1, 4, limit, 0, out);
        } else {
            let (hi, lo) = if d1 > d2 { (d1, d2) } else { (d2, d1) };
            let limit = if !rules.head_rule {
                15
            } else if rules.first_turn_head_exception == HeadException::Blocked
                && pos.count(ME, HEAD) == 15
                && !self.can_play_full_non_double(pos, hi, lo, 1)
            {
                // The 'blocked' reading: a second head checker only when one
                // alone cannot play both dice.
                2
            } else {
                1
            };
            self.play_two_numbers(pos, hi, lo, limit, out);
        }
    }

    /// One step of a gul bara cascade: up to `count` moves of `die`, with
    /// maximal usage inside the step; `head_used` head checkers already left
    /// earlier in the same cascade (they count against the head rule).
    pub fn cascade_step(&mut self, pos: &Position, die: u8, count: u8, head_used: u8, out: &mut Vec<Move>) {
        out.clear();
        let rules = *pos.rules();
        let limit = self.head_limit(pos, die, count, head_used, &rules);
        self.play_one_number(pos, die, count, limit, head_used, out);
    }

    /// How many checkers may leave the head in this turn (or what remains of
    /// the cascade's allowance), before the 'blocked' option's trial.
    fn head_limit(&mut self, pos: &Position, die: u8, count: u8, head_used: u8, rules: &Rules) -> u8 {
        if !rules.head_rule {
            return 15;
        }
        // The first turn: all 15 were on the head when the turn (or the
        // cascade, whose earlier steps moved `head_used` of them) began.
        let first_turn = pos.count(ME, HEAD) + head_used == 15;
        let base: u8 = match rules.first_turn_head_exception {
            HeadException::Listed if first_turn && matches!(die, 3 | 4 | 6) => 2,
            HeadException::HeadBlocked if first_turn && matches!(die, 3 | 4 | 6) && head_path_stops_at_their_head(pos, die) => 2,
            HeadException::Blocked if first_turn => {
                // "One head checker" counts the whole cascade, earlier steps included.
                if self.can_play_full_one_number(pos, die, count, 1u8.saturating_sub(head_used)) {
                    1
                } else {
                    2
                }
            }
            _ => 1,
        };
        base.saturating_sub(head_used)
    }

    fn can_play_full_one_number(&mut self, pos: &Position, die: u8, count: u8, limit: u8) -> bool {
        let mut probe = Vec::new();
        let search = self.search([die; 4], count as usize, true, limit, pos);
        self.seen.clear();
        self.dfs(&search, pos, 0, Play::default(), 0, 0, RESERVE_POINT, &mut probe);
        !probe.is_empty()
    }

    fn can_play_full_non_double(&mut self, pos: &Position, hi: u8, lo: u8, limit: u8) -> bool {
        let mut probe = Vec::new();
        self.seen.clear();
        for dice in [[hi, lo, 0, 0], [lo, hi, 0, 0]] {
            let search = self.search(dice, 2, false, limit, pos);
            self.dfs(&search, pos, 0, Play::default(), 0, 0, RESERVE_POINT, &mut probe);
        }
        !probe.is_empty()
    }

    fn search(&self, dice: [u8; 4], target: usize, one_number: bool, head_limit: u8, pos: &Position) -> Search {
        let rules = pos.rules();
        Search {
            dice,
            target,
            // Trying one number's steps from the highest point down finds every
            // result only while the order of the steps cannot open or close a
            // point: not so under Dutch no early hitting before a checker is home.
            one_number: one_number && !hits_wait_for_home(pos),
            head_limit,
            fence: if rules.variant.has_contact_hits() { FenceRule::None } else { rules.fence_rule },
            exact_bearoff: rules.exact_bearoff,
            same_checker: false,
        }
    }

    /// Up to `count` steps of one number, as many as any legal turn allows.
    fn play_one_number(&mut self, pos: &Position, die: u8, count: u8, limit: u8, head_used: u8, out: &mut Vec<Move>) {
        for target in (1..=count as usize).rev() {
            let search = self.search([die; 4], target, true, limit, pos);
            self.seen.clear();
            self.dfs(&search, pos, 0, Play::default(), head_used, 0, RESERVE_POINT, out);
            if !out.is_empty() {
                return;
            }
        }
        out.push(Move::new(*pos, Play::default(), head_used));
    }

    /// Both dice if any legal turn plays both; else the larger if it can be
    /// played alone; else the smaller; else nothing.
    ///
    /// Two steps by different checkers give the same result in either order
    /// whenever both orders are legal. Playing the smaller die first can only
    /// make the other checker's step legal by entering from the bar or by
    /// bringing the last outside checker home for a bear-off; without a checker
    /// on the bar and with two or more outside home neither can happen, so the
    /// smaller-first order then only needs the one checker moving twice.
    fn play_two_numbers(&mut self, pos: &Position, hi: u8, lo: u8, limit: u8, out: &mut Vec<Move>) {
        self.seen.clear();
        let outside = pos.occupied(ME) & !HOME_MASK;
        // A reserve entry, like a bar entry, can make the other step legal, and
        // so can bringing a checker home under Dutch no early hitting.
        let orders_commute = pos.bar(ME) == 0
            && pos.reserve(ME) == 0
            && !hits_wait_for_home(pos)
            && (outside.count_ones() >= 2 || pos.stacked(ME) & outside != 0);
        for (dice, second) in [([hi, lo, 0, 0], false), ([lo, hi, 0, 0], true)] {
            let mut search = self.search(dice, 2, false, limit, pos);
            search.same_checker = second && orders_commute;
            self.dfs(&search, pos, 0, Play::default(), 0, 0, RESERVE_POINT, out);
        }
        if !out.is_empty() {
            return;
        }
        for die in [hi, lo] {
            let search = self.search([die, 0, 0, 0], 1, false, limit, pos);
            self.seen.clear();
            self.dfs(&search, pos, 0, Play::default(), 0, 0, RESERVE_POINT, out);
            if !out.is_empty() {
                return;
            }
        }
        out.push(Move::new(*pos, Play::default(), 0));
    }

    /// Acey-deucey's 1-2 roll (RULES.md 5.2): the 1 and the 2 with maximal
    /// usage, then for each named number four moves of it with maximal usage
    /// within that part. Each distinct (result, named, rolls_again) is one move.
    /// Bearing off the last checker wins at once, so a winning prefix of either
    /// part is a result even where another order would play more dice.
    fn acey_deucey_one_two(&mut self, pos: &Position, out: &mut Vec<Move>) {
        let mut first = Vec::new();
        self.play_two_numbers(pos, 2, 1, 15, &mut first);
        self.add_winning_prefixes(pos, &[[1, 2, 0, 0], [2, 1, 0, 0]], 1, &mut first);
        let mut seen = std::collections::HashSet::new();
        let mut second = Vec::new();
        for m1 in &first {
            if m1.play.len() < 2 || m1.position.off(ME) == CHECKERS {
                if seen.insert((m1.position, None, false)) {
                    out.push(*m1);
                }
                continue;
            }
            for n in 1..=6u8 {
                self.play_one_number(&m1.position, n, 4, 15, 0, &mut second);
                self.add_winning_prefixes(&m1.position, &[[n; 4]], 3, &mut second);
                for m2 in &second {
                    let won = m2.position.off(ME) == CHECKERS;
                    let rolls_again = !won && m2.play.len() == 4;
                    if seen.insert((m2.position, Some(n), rolls_again)) {
                        let play = m2.play.steps().iter().fold(m1.play, |p, &step| p.with(step));
                        out.push(Move { position: m2.position, play, head_used: 0, named: Some(n), rolls_again });
                    }
                }
                second.clear();
            }
        }
    }

    /// Adds to `found` the turns that bear off the last checker within the
    /// first `most` steps of one of `orders` (they end the game early).
    fn add_winning_prefixes(&mut self, pos: &Position, orders: &[[u8; 4]], most: usize, found: &mut Vec<Move>) {
        if (pos.off(ME) as usize) + most < CHECKERS as usize {
            return; // one step bears off at most one checker
        }
        let mut probe = Vec::new();
        for target in 1..=most {
            for &dice in orders {
                let search = self.search(dice, target, false, 15, pos);
                self.seen.clear();
                self.dfs(&search, pos, 0, Play::default(), 0, 0, RESERVE_POINT, &mut probe);
            }
        }
        for m in probe {
            if m.position.off(ME) == CHECKERS && !found.iter().any(|f| f.position == m.position) {
                found.push(m);
            }
        }
    }

    /// `head_left`: head checkers moved so far (the cascade's earlier ones
    /// included); `max_from`: the highest point the next step may start from.
    #[allow(clippy::too_many_arguments)] // the depth-first search's state, passed down per step on the hot path
    fn dfs(
        &mut self,
        s: &Search,
        pos: &Position,
        depth: usize,
        play: Play,
        head_used: u8,
        head_this_turn: u8,
        max_from: u8,
        out: &mut Vec<Move>,
    ) {
        if depth == s.target {
            if fence_allows(pos, s.fence) && self.seen.insert(pos.result_key()) {
                out.push(Move::new(*pos, play, head_used));
            }
            return;
        }
        let die = s.dice[depth];
        let blocked = pos.blocked();

        if pos.bar(ME) > 0 {
            // Everything waits until the bar is empty (backgammon only).
            if let Some((next, step)) = entered(pos, blocked, die, BAR_POINT) {
                // The bar comes first whatever the order, so reserve entries may follow.
                self.dfs(s, &next, depth + 1, play.with(step), head_used, head_this_turn, RESERVE_POINT, out);
            }
            return;
        }

        if pos.reserve(ME) > 0 {
            // Entering from reserve as from the bar (RULES.md section 5); in
            // one-number order it comes before any board step.
            if max_from >= RESERVE_POINT {
                if let Some((next, step)) = entered(pos, blocked, die, RESERVE_POINT) {
                    self.dfs(s, &next, depth + 1, play.with(step), head_used, head_this_turn, RESERVE_POINT, out);
                }
            }
            if pos.rules().enter_all_first {
                return; // Dutch: nothing on the board moves while any checker is in reserve
            }
        }

        let may_bear_off = pos.all_home(ME);
        let limit_mask = if max_from >= 24 { u32::MAX } else { (1u32 << max_from) - 1 };
        let mut froms = pos.occupied(ME) & limit_mask;
        if s.same_checker && depth == 1 {
            // Only the checker that just moved, and only when the larger-first
            // order could not have played it: that order's middle point
            // (from - larger die) holds an opposing checker, or this order hit.
            let first = play.steps[0];
            let larger_first_open = first.from > die && !first.hit && pos.occupied(THEM) & (1 << (first.from - die - 1)) == 0;
            froms &= if first.to == OFF_POINT || larger_first_open { 0 } else { 1 << (first.to - 1) };
        }
        if head_this_turn >= s.head_limit {
            froms &= !(1 << HEAD);
        }
        while froms != 0 {
            let i = 31 - froms.leading_zeros() as usize;
            froms &= !(1 << i);
            let from = i as u8 + 1;
            let mut next = *pos;
            let step = if from > die {
                let j = (from - die) as usize - 1;
                if blocked & (1 << j) != 0 {
                    continue;
                }
                let hit = next.count(THEM, j) == 1 && pos.variant().has_contact_hits();
                next.remove(ME, i);
                if hit {
                    next.hit(j);
                }
                next.add(ME, j);
                Step { from, to: from - die, hit }
            } else {
                // Bearing off: the exact number, or a larger one from the
                // highest point when no checker stands higher.
                let exact = from == die;
                let from_highest = !s.exact_bearoff && pos.occupied(ME) >> from == 0;
                if !may_bear_off || !(exact || from_highest) {
                    continue;
                }
                next.remove(ME, i);
                Step { from, to: OFF_POINT, hit: false }
            };
            let from_head = (i == HEAD) as u8;
            let next_max = if s.one_number { from } else { RESERVE_POINT };
            self.dfs(s, &next, depth + 1, play.with(step), head_used + from_head, head_this_turn + from_head, next_max, out);
        }
    }
}

/// `pos` after a checker enters with `die` from the bar (`from` is
/// `BAR_POINT`) or from the reserve (`RESERVE_POINT`): onto the mover's point
/// `25 - die`, hitting a lone opposing checker there; None where `blocked`
/// closes that point.
#[inline]
fn entered(pos: &Position, blocked: u32, die: u8, from: u8) -> Option<(Position, Step)> {
    let to = BAR_POINT - die;
    let i = to as usize - 1;
    if blocked & (1 << i) != 0 {
        return None;
    }
    let mut next = *pos;
    let hit = next.count(THEM, i) == 1;
    if hit {
        next.hit(i);
    }
    if from == BAR_POINT {
        next.enter_from_bar(i);
    } else {
        next.enter_from_reserve(i);
    }
    Some((next, Step { from, to, hit }))
}

/// Dutch backgammon before the mover has a checker home: a lone opposing
/// checker closes its point, and a step that comes home opens it.
#[inline]
fn hits_wait_for_home(pos: &Position) -> bool {
    pos.variant() == Variant::Dutch && pos.occupied(ME) & HOME_MASK == 0
}

/// The `head_blocked` reading's test: the first closed point on a lone head
/// checker's path (24 - d, 24 - 2d, ...) is the opponent's head, my point 12.
/// A checker the opponent has already moved can stop the path earlier, and
/// then only one checker may leave the head.
fn head_path_stops_at_their_head(pos: &Position, die: u8) -> bool {
    let blocked = pos.blocked();
    let mut point = HEAD as i32 + 1 - die as i32;
    while point >= 1 {
        if blocked & (1 << (point - 1)) != 0 {
            return point == THEIR_HEAD_POINT;
        }
        point -= die as i32;
    }
    false
}

/// The opponent's head in the nardy games, in the mover's numbering.
const THEIR_HEAD_POINT: i32 = 12;

/// Whether the mover may end its turn in `pos` under the six-fence rule.
///
/// A fence is six consecutive points along the opponent's path, so the check
/// works in the opponent's numbering, where its path runs from bit 23 down to
/// bit 0 without wrapping.
pub fn fence_allows(pos: &Position, rule: FenceRule) -> bool {
    if rule == FenceRule::None {
        return true;
    }
    let v = pos.variant();
    let mine = crate::position::opponent_mask(v, pos.occupied(ME));
    let mut runs = mine;
    for k in 1..6 {
        runs &= mine >> k;
    }
    if runs == 0 || pos.off(THEM) > 0 {
        return true;
    }
    let theirs = crate::position::opponent_mask(v, pos.occupied(THEM));
    match rule {
        // The lowest fence is the hardest to have a checker ahead of.
        FenceRule::Ahead => theirs & ((1u32 << runs.trailing_zeros()) - 1) != 0,
        FenceRule::Home => theirs & crate::position::HOME_MASK != 0,
        FenceRule::None => true,
    }
}

thread_local! {
    static GENERATOR: std::cell::RefCell<MoveGen> = std::cell::RefCell::new(MoveGen::new());
}

/// Checked entry point: every distinct legal turn of `pos` for the roll.
pub fn legal_moves(pos: &Position, d1: i64, d2: i64) -> Result<Vec<Move>> {
    let (d1, d2) = (check_die(d1)?, check_die(d2)?);
    let mut out = Vec::with_capacity(32);
    GENERATOR.with(|g| g.borrow_mut().legal_moves(pos, d1, d2, &mut out));
    Ok(out)
}

/// Checked entry point for one gul bara cascade step.
pub fn cascade_step(pos: &Position, die: i64, count: i64, head_used: i64) -> Result<Vec<Move>> {
    let die = check_die(die)?;
    if !(1..=4).contains(&count) {
        return Err(Error::new(format!("a cascade step plays 1 to 4 moves, not {count}")));
    }
    if !(0..=15).contains(&head_used) {
        return Err(Error::new(format!("head_used must be 0 to 15, not {head_used}")));
    }
    if pos.variant() != Variant::GulBara {
        return Err(Error::new(format!("cascades belong to gul bara, not {}", pos.variant().name())));
    }
    let mut out = Vec::with_capacity(32);
    GENERATOR.with(|g| g.borrow_mut().cascade_step(pos, die, count as u8, head_used as u8, &mut out));
    Ok(out)
}

/// Runs `f` with this thread's reusable generator.
pub fn with_generator<R>(f: impl FnOnce(&mut MoveGen) -> R) -> R {
    GENERATOR.with(|g| f(&mut g.borrow_mut()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::OptionValue;

    use crate::position::points_array as arrays;

    fn results(pos: &Position, d1: i64, d2: i64) -> Vec<[u8; 25]> {
        let mut v: Vec<_> = legal_moves(pos, d1, d2).unwrap().iter().map(|m| m.position.to_arrays().0).collect();
        v.sort();
        v
    }

    #[test]
    fn backgammon_opening_counts() {
        // Well-known counts of distinct plays from the start position.
        let p = Position::start(Rules::backgammon());
        assert_eq!(legal_moves(&p, 3, 1).unwrap().len(), 16);
        assert_eq!(legal_moves(&p, 6, 6).unwrap().len(), 11);
        assert_eq!(legal_moves(&p, 2, 1).unwrap().len(), 15);
        let total: usize = (1..=6).flat_map(|a| (a..=6).map(move |b| (a, b))).map(|(a, b)| legal_moves(&p, a, b).unwrap().len()).sum();
        assert!(total > 300);
    }

    #[test]
    fn larger_die_must_be_played() {
        // One checker on my 8; 8-6=2 is open, then 2-? bears off? no: not all home.
        // Block so that only one die can be played: checker on 13, opponent
        // holds 7 (13-6) no; it holds 9 (13-4) and 3 (13-6-4).
        let mine = arrays(&[(13, 1), (1, 14)]);
        let mut theirs = [0i64; 25];
        theirs[25 - 9 - 1] = 2; // my 9
        theirs[25 - 3 - 1] = 2; // my 3
        let p = Position::from_arrays(Rules::backgammon(), &mine, &theirs).unwrap();
        let r = legal_moves(&p, 6, 4).unwrap();
        // 13/7 then 7/3 blocked, 13/9 blocked: only the 6 can be played.
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].play.steps(), &[Step { from: 13, to: 7, hit: false }]);
    }

    #[test]
    fn nardy_worked_examples() {
        let p = Position::start(Rules::nardy());
        for (a, b) in [(6, 5), (4, 1), (2, 3)] {
            let r = results(&p, a, b);
            assert_eq!(r.len(), 1);
            assert_eq!(r[0][23], 14);
            assert_eq!(r[0][(24 - a - b - 1) as usize], 1);
        }
        for (d, to) in [(1, 20), (2, 16), (5, 4)] {
            let r = results(&p, d, d);
            assert_eq!(r.len(), 1, "{d}-{d}");
            assert_eq!(r[0][to - 1], 1);
        }
        let r = results(&p, 6, 6);
        assert_eq!(r, vec![arrays(&[(24, 13), (18, 2)]).map(|x| x as u8)]);
        let r = results(&p, 4, 4);
        assert_eq!(r, vec![arrays(&[(24, 13), (16, 2)]).map(|x| x as u8)]);
        let r = results(&p, 3, 3);
        let mut want = vec![arrays(&[(24, 13), (18, 2)]).map(|x| x as u8), arrays(&[(24, 13), (15, 1), (21, 1)]).map(|x| x as u8)];
        want.sort();
        assert_eq!(r, want);
    }

    #[test]
    fn blocked_option_matches_listed_from_the_start() {
        let mut rules = Rules::nardy();
        rules.set("first_turn_head_exception", &OptionValue::Str("blocked".into())).unwrap();
        let listed = Position::start(Rules::nardy());
        let blocked = Position::start(rules);
        for a in 1..=6 {
            for b in 1..=6 {
                assert_eq!(results(&listed, a, b), results(&blocked, a, b), "{a}-{b}");
            }
        }
    }

    fn nardy_with(option: &str, value: &str) -> Rules {
        let mut rules = Rules::nardy();
        rules.set(option, &OptionValue::Str(value.into())).unwrap();
        rules
    }

    #[test]
    fn head_blocked_worked_example() {
        // RULES.md section 3: after White's opening 5-5 (24/4 in its numbering, a
        // checker on Black's 16), Black's 4-4 gives 24/20(2) under listed and
        // blocked, and 24/20 alone under head_blocked.
        let black = arrays(&[(24, 15)]);
        let white = arrays(&[(24, 14), (4, 1)]);
        for (exception, want) in [
            ("listed", arrays(&[(24, 13), (20, 2)])),
            ("blocked", arrays(&[(24, 13), (20, 2)])),
            ("head_blocked", arrays(&[(24, 14), (20, 1)])),
        ] {
            let p = Position::from_arrays(nardy_with("first_turn_head_exception", exception), &black, &white).unwrap();
            assert_eq!(results(&p, 4, 4), vec![want.map(|x| x as u8)], "{exception}");
        }
        // From the start position the opponent's head is the first closed point
        // for 6, 4 and 3: head_blocked plays these like listed.
        let start = Position::start(nardy_with("first_turn_head_exception", "head_blocked"));
        let listed = Position::start(Rules::nardy());
        for d in 1..=6 {
            assert_eq!(results(&start, d, d), results(&listed, d, d), "{d}-{d}");
        }
    }

    #[test]
    fn fence_ahead_rule() {
        // My points 24..20 are made; 24/19 with the 5 would close 24..19, which is
        // the opponent's 12..7 with every opponent checker behind it (on its head).
        let mine = arrays(&[(24, 5), (23, 1), (22, 1), (21, 1), (20, 1), (15, 6)]);
        let theirs = arrays(&[(24, 15)]);
        let closes_fence = |m: &Move| (18..24).all(|i| m.position.count(ME, i) > 0);
        let p = Position::from_arrays(Rules::nardy(), &mine, &theirs).unwrap();
        let r = legal_moves(&p, 5, 1).unwrap();
        assert!(!r.is_empty() && r.iter().all(|m| !closes_fence(m)));
        let mut open = Rules::nardy();
        open.set("fence_rule", &OptionValue::Str("none".into())).unwrap();
        let q = Position::from_arrays(open, &mine, &theirs).unwrap();
        assert!(legal_moves(&q, 5, 1).unwrap().iter().any(closes_fence));
        // With an opponent checker ahead (its point 3 = my 15... use its 2 = my 14).
        let mine2 = arrays(&[(24, 5), (23, 1), (22, 1), (21, 1), (20, 1), (16, 6)]);
        let theirs2 = arrays(&[(24, 14), (2, 1)]);
        let p2 = Position::from_arrays(Rules::nardy(), &mine2, &theirs2).unwrap();
        assert!(legal_moves(&p2, 5, 1).unwrap().iter().any(closes_fence));
    }

    #[test]
    fn cascade_step_limits() {
        let p = Position::start(Rules::gulbara());
        let r = cascade_step(&p, 5, 4, 0).unwrap();
        // No head rule by default: many ways.
        assert!(r.len() > 1);
        assert!(cascade_step(&p, 7, 4, 0).is_err());
        let b = Position::start(Rules::backgammon());
        assert!(cascade_step(&b, 3, 4, 0).is_err());
    }

    fn with_reserve(rules: Rules, mine: &[(usize, i64)], theirs: &[(usize, i64)], reserve: [i64; 2]) -> Position {
        Position::from_arrays_with_reserve(rules, &arrays(mine), &arrays(theirs), reserve).unwrap()
    }

    #[test]
    fn dutch_enters_from_reserve_before_moving() {
        // RULES.md 5.1: die d enters on 25 - d; with enter_all_first nothing else moves.
        let p = Position::start(Rules::dutch());
        let r = legal_moves(&p, 6, 5).unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].position.to_arrays().0, arrays(&[(19, 1), (20, 1)]).map(|x| x as u8));
        assert_eq!(r[0].position.reserve(ME), 13);
        assert_eq!(r[0].play.steps()[0].from, crate::position::RESERVE_POINT);
        let mut free = Rules::dutch();
        free.set("enter_all_first", &OptionValue::Bool(false)).unwrap();
        let r = legal_moves(&Position::start(free), 6, 5).unwrap();
        assert_eq!(r.len(), 2, "19 and 20, or one checker to 14");
    }

    #[test]
    fn dutch_no_early_hitting_is_judged_before_each_step() {
        // Their lone checker on my 4: 8/4 may not hit with nothing home, but
        // 2-2's 8/6 brings a checker home first and then 6/4* hits.
        let p = with_reserve(Rules::dutch(), &[(8, 1), (13, 14)], &[(21, 1)], [0, 14]);
        assert!(legal_moves(&p, 4, 1).unwrap().iter().all(|m| m.position.bar(THEM) == 0));
        assert!(legal_moves(&p, 2, 2).unwrap().iter().any(|m| m.position.bar(THEM) == 1));
        // Acey-deucey hits from the first move.
        let q = with_reserve(Rules::acey_deucey(), &[(8, 1), (13, 14)], &[(21, 1)], [0, 14]);
        assert!(legal_moves(&q, 4, 1).unwrap().iter().any(|m| m.position.bar(THEM) == 1));
    }

    #[test]
    fn acey_deucey_one_two_names_a_number_and_rolls_again() {
        let p = Position::start(Rules::acey_deucey());
        let r = legal_moves(&p, 2, 1).unwrap();
        assert!(r.iter().all(|m| m.named.is_some() && m.rolls_again && m.moves_played() == 6));
        assert_eq!((1..=6).filter(|&n| r.iter().any(|m| m.named == Some(n))).count(), 6);
        // A last checker on 2 bears off with the 2 and wins: nothing named.
        let w = with_reserve(Rules::acey_deucey(), &[(2, 1)], &[(6, 15)], [0, 0]);
        let r = legal_moves(&w, 1, 2).unwrap();
        assert!(r.iter().all(|m| m.position.off(ME) == 15 && m.named.is_none() && !m.rolls_again));
        // Other rolls name nothing.
        assert!(legal_moves(&p, 6, 5).unwrap().iter().all(|m| m.named.is_none() && !m.rolls_again));
    }

    #[test]
    fn a_bad_reserve_is_named() {
        let z = [0i64; 25];
        let e = |rules: Rules, reserve: [i64; 2]| Position::from_arrays_with_reserve(rules, &z, &z, reserve).unwrap_err().to_string();
        assert!(e(Rules::backgammon(), [1, 0]).contains("no reserve"));
        assert!(e(Rules::dutch(), [16, 0]).contains("0 to 15"));
        assert!(e(Rules::dutch(), [0, -1]).contains("0 to 15"));
        let mut m = [0i64; 25];
        m[0] = 3;
        let e = Position::from_arrays_with_reserve(Rules::dutch(), &m, &z, [13, 0]).unwrap_err().to_string();
        assert!(e.contains("16 checkers"), "{e}");
    }

    #[test]
    fn impossible_dice_are_named() {
        let p = Position::start(Rules::backgammon());
        assert!(legal_moves(&p, 0, 3).unwrap_err().to_string().contains("die 0"));
        assert!(legal_moves(&p, 3, 7).unwrap_err().to_string().contains("die 7"));
    }
}
