//! Exact bear-off tables: how many rolls a side needs to bear off its
//! checkers from its six home points, with no opposing checker in the way.
//!
//! **One-sided table.** For every set of up to 15 checkers on the points 1..6
//! (C(21,6) = 54,264 of them) the probability distribution of the number of
//! rolls to bear them all off, when the side plays each roll to minimise its
//! expected number of rolls; and, for the sets of all 15 checkers, the
//! distribution of the rolls to bear off the *first* checker (playing to do
//! that soonest), which decides gammons. Built by dynamic programming in order
//! of pip count, in about a second, once per process (`OnceLock`).
//!
//! **Two-sided table.** For up to [`TWO_SIDED_CHECKERS`] checkers a side the
//! exact probability that the side on roll wins, found by full
//! expectimax over both sides' choices (not derived from the one-sided
//! distributions). Bigger bear-offs combine the two one-sided distributions
//! as independent races, which is exact for each side's roll count under
//! its own best play for speed but ignores that a side might play
//! differently to win a particular race; gnubg does the same for its
//! one-sided database.
//!
//! **Which games.** Bearing off follows the same rules in backgammon and long
//! nardy, and once both sides have all their checkers home neither can ever
//! block or hit the other, so both use the [`BearoffRule::Standard`] tables.
//! In nardy that condition is checked for *both* sides: while an opposing
//! checker still stands on my home points (its points 13..18) it blocks them,
//! so a nardy position is a bear-off only when both sides are all home. Gul
//! bara doubles cascade (after the game's first rolls, always the case by the
//! bear-off): `d-d` plays four of `d`, then four of each higher number up to 6,
//! for as long as each number can be played in full. In a bear-off every die
//! can be played while a checker is left, so the cascade ends only when the
//! mover has borne everything off and nothing passes to the opponent: the
//! [`BearoffRule::Cascade`] tables are exact for gul bara. The gul bara
//! `exact_bearoff` option changes which dice can be played and has no table.

use std::sync::OnceLock;

use crate::dice::rolls;
use crate::position::{Position, ME, THEM};
use crate::variant::{Rules, Variant};

/// Home points.
const POINTS: usize = 6;
/// Longest bear-off in rolls that the tables hold (15 checkers on the 6 point
/// rolling 2-1 every time need fewer).
pub const MAX_ROLLS: usize = 48;
/// Checkers per side covered by the exact two-sided table.
pub const TWO_SIDED_CHECKERS: u8 = 6;

/// How a roll is played in a bear-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BearoffRule {
    /// Backgammon and long nardy: a double plays four moves.
    Standard,
    /// Gul bara: a double `d-d` plays four moves of each number `d..=6`.
    Cascade,
}

impl BearoffRule {
    /// The table rule for a variant's rules, if it has one.
    pub fn for_rules(rules: &Rules) -> Option<BearoffRule> {
        match rules.variant {
            Variant::Backgammon | Variant::Nardy => Some(BearoffRule::Standard),
            Variant::GulBara if !rules.exact_bearoff => Some(BearoffRule::Cascade),
            Variant::GulBara => None,
            // A Dutch bear-off is backgammon's; acey-deucey's 1-2 roll is not.
            Variant::Dutch => Some(BearoffRule::Standard),
            Variant::AceyDeucey => None,
        }
    }

    /// The dice played for the roll d1-d2, in order (non-doubles: one order;
    /// the caller tries both).
    fn dice(self, d1: u8, d2: u8) -> Vec<u8> {
        if d1 != d2 {
            return vec![d1, d2];
        }
        match self {
            BearoffRule::Standard => vec![d1; 4],
            BearoffRule::Cascade => (d1..=6).flat_map(|d| [d; 4]).collect(),
        }
    }
}

/// Checkers on the points 1..6 (index 0 = point 1).
pub type Home = [u8; POINTS];

fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1usize, |acc, i| acc * (n - i) / (i + 1))
}

/// The rank of a set of at most `max` checkers among all such sets: the
/// combinatorial number of the separators in a stars-and-bars string where a
/// seventh bin holds the checkers not on the board.
pub fn home_index(home: &Home, max: u8) -> usize {
    let mut rank = 0;
    let mut sum = 0usize;
    for (k, &n) in home.iter().enumerate() {
        sum += n as usize;
        rank += binomial(sum + k, k + 1);
    }
    debug_assert!(sum <= max as usize);
    rank
}

/// Number of sets of at most `max` checkers on six points.
pub fn home_count(max: u8) -> usize {
    binomial(max as usize + POINTS, POINTS)
}

fn pips(home: &Home) -> u32 {
    home.iter().enumerate().map(|(i, &n)| (i as u32 + 1) * n as u32).sum()
}

fn checkers(home: &Home) -> u8 {
    home.iter().sum()
}

/// Every set of at most `max` checkers, in order of increasing pip count.
fn all_homes(max: u8) -> Vec<Home> {
    let mut out = Vec::with_capacity(home_count(max));
    fn fill(out: &mut Vec<Home>, home: &mut Home, point: usize, left: u8) {
        if point == POINTS {
            out.push(*home);
            return;
        }
        for n in 0..=left {
            home[point] = n;
            fill(out, home, point + 1, left - n);
        }
        home[point] = 0;
    }
    fill(&mut out, &mut [0; POINTS], 0, max);
    out.sort_by_key(pips);
    out
}

/// The sets one die can lead to (every die is playable while a checker is
/// left: from its own point, from a higher point inside home, or from the
/// highest point when none stands higher).
fn play_die(home: &Home, die: u8, out: &mut Vec<Home>) {
    let d = die as usize;
    if checkers(home) == 0 {
        out.push(*home);
        return;
    }
    if home[d - 1] > 0 {
        let mut next = *home;
        next[d - 1] -= 1;
        out.push(next);
    }
    let mut higher = false;
    for p in d..POINTS {
        if home[p] > 0 {
            higher = true;
            let mut next = *home;
            next[p] -= 1;
            next[p - d] += 1;
            out.push(next);
        }
    }
    if !higher && home[d - 1] == 0 {
        let top = (0..d).rev().find(|&p| home[p] > 0).expect("a checker is left");
        let mut next = *home;
        next[top] -= 1;
        out.push(next);
    }
}

/// The distinct sets a roll can lead to.
pub fn roll_results(home: &Home, d1: u8, d2: u8, rule: BearoffRule) -> Vec<Home> {
    let orders: Vec<Vec<u8>> = if d1 == d2 { vec![rule.dice(d1, d2)] } else { vec![vec![d1, d2], vec![d2, d1]] };
    let mut results = Vec::new();
    for dice in orders {
        let mut frontier = vec![*home];
        for &die in &dice {
            let mut next = Vec::with_capacity(frontier.len() * 4);
            for h in &frontier {
                play_die(h, die, &mut next);
            }
            next.sort_unstable();
            next.dedup();
            frontier = next;
        }
        results.extend(frontier);
    }
    results.sort_unstable();
    results.dedup();
    results
}

/// A distribution of a number of rolls: `p[n]` = probability of exactly n.
pub type Distribution = [f32; MAX_ROLLS];

/// Best final sets of the cascade's later numbers, per (set, first number):
/// a cascade of 1-1 plays 24 moves, too many to enumerate whole.
struct CascadeMemo {
    best: Vec<u32>,
}

impl CascadeMemo {
    fn new(n: usize) -> CascadeMemo {
        CascadeMemo { best: vec![u32::MAX; n * 7] }
    }
}

/// The index of the result of d1-d2 from `home` with the least `cost`
/// (every result has fewer pips than `home`, so its cost is known).
fn best_result(home: &Home, d1: u8, d2: u8, rule: BearoffRule, cost: &[f64], memo: &mut CascadeMemo) -> usize {
    if rule == BearoffRule::Cascade && d1 == d2 {
        return best_cascade(home, d1, cost, memo);
    }
    argmin(roll_results(home, d1, d2, rule).iter().map(|h| home_index(h, 15)), cost)
}

fn argmin(indices: impl Iterator<Item = usize>, cost: &[f64]) -> usize {
    indices.min_by(|&a, &b| cost[a].total_cmp(&cost[b])).expect("a roll has a result")
}

/// The best end of a cascade that plays four of `die`, then four of each
/// higher number, from `home`: each number's results, then recursively.
fn best_cascade(home: &Home, die: u8, cost: &[f64], memo: &mut CascadeMemo) -> usize {
    let i = home_index(home, 15);
    if die > 6 {
        return i;
    }
    let slot = i * 7 + die as usize;
    if memo.best[slot] != u32::MAX {
        return memo.best[slot] as usize;
    }
    let step = roll_results(home, die, die, BearoffRule::Standard);
    let ends: Vec<usize> = step.iter().map(|h| best_cascade(h, die + 1, cost, memo)).collect();
    let best = argmin(ends.into_iter(), cost);
    memo.best[slot] = best as u32;
    best
}

/// The one-sided table of one rule.
pub struct OneSided {
    /// Rolls to bear off everything, per `home_index(_, 15)`.
    off: Vec<Distribution>,
    /// Rolls to bear off the first checker (all 15 on the board), else 0 rolls.
    first: Vec<Distribution>,
    /// The means of `off` and `first` (the race inputs read them per evaluation).
    off_mean: Vec<f64>,
    first_mean: Vec<f64>,
}

impl OneSided {
    /// Builds the table by dynamic programming in order of pip count.
    pub fn build(rule: BearoffRule) -> OneSided {
        let homes = all_homes(15);
        let n = homes.len();
        let mut off = vec![[0f32; MAX_ROLLS]; n];
        let mut first = vec![[0f32; MAX_ROLLS]; n];
        let mut off_mean = vec![0f64; n];
        let mut first_mean = vec![0f64; n];
        let mut off_memo = CascadeMemo::new(n);
        let mut first_memo = CascadeMemo::new(n);
        for home in &homes {
            let i = home_index(home, 15);
            let on_board = checkers(home);
            if on_board == 0 {
                off[i][0] = 1.0;
            }
            if on_board < 15 {
                first[i][0] = 1.0;
            }
            if on_board == 0 {
                continue;
            }
            let mut dist = [0f64; MAX_ROLLS];
            let mut dist_first = [0f64; MAX_ROLLS];
            let (mut e, mut e_first) = (1.0, 1.0);
            for (d1, d2, p) in rolls() {
                let best = best_result(home, d1, d2, rule, &off_mean, &mut off_memo);
                e += p * off_mean[best];
                for k in 0..MAX_ROLLS - 1 {
                    dist[k + 1] += p * off[best][k] as f64;
                }
                if on_board == 15 {
                    let best = best_result(home, d1, d2, rule, &first_mean, &mut first_memo);
                    e_first += p * first_mean[best];
                    for k in 0..MAX_ROLLS - 1 {
                        dist_first[k + 1] += p * first[best][k] as f64;
                    }
                }
            }
            off[i] = dist.map(|x| x as f32);
            off_mean[i] = e;
            if on_board == 15 {
                first[i] = dist_first.map(|x| x as f32);
                first_mean[i] = e_first;
            }
        }
        OneSided { off, first, off_mean, first_mean }
    }

    /// Distribution of the rolls to bear off everything.
    pub fn rolls_to_finish(&self, home: &Home) -> &Distribution {
        &self.off[home_index(home, 15)]
    }

    /// Distribution of the rolls to bear off a first checker (0 when one is off).
    pub fn rolls_to_first(&self, home: &Home) -> &Distribution {
        &self.first[home_index(home, 15)]
    }

    /// Expected rolls to bear off everything.
    pub fn expected_rolls(&self, home: &Home) -> f64 {
        self.off_mean[home_index(home, 15)]
    }

    /// Expected rolls to bear off a first checker (0 when one is off).
    pub fn expected_first_rolls(&self, home: &Home) -> f64 {
        self.first_mean[home_index(home, 15)]
    }
}

/// The side on roll's race seen through the one-sided table (backgammon
/// and long nardy bear off alike): its checkers outside the home board
/// counted on the six-point, and the pips they need to get there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// Pips the checkers outside the home board need to reach the six-point.
    pub outside_pips: u32,
    /// The table's expected rolls to bear everything off from the projected home board.
    pub finish: f64,
    /// The same to bear off a first checker (0 when one is off).
    pub first: f64,
}

impl Projection {
    /// The side on roll's projection in `pos` (its points in its own
    /// numbering, the home board on points 1..6; a checker on the bar counts
    /// from the 25-point).
    pub fn of(pos: &Position) -> Projection {
        let t = &tables(BearoffRule::Standard).one_sided;
        // Read in place (no `to_arrays`, which also lays out the opponent): the
        // race inputs ask this of both sides at every evaluation.
        let mine = pos.counts(ME);
        let mut home = [0u8; POINTS];
        home.copy_from_slice(&mine[..POINTS]);
        let bar = pos.bar(ME);
        home[POINTS - 1] += bar;
        let mut outside_pips = bar as u32 * (25 - POINTS) as u32;
        for (i, &n) in mine.iter().enumerate().skip(POINTS) {
            home[POINTS - 1] += n;
            outside_pips += n as u32 * (i + 1 - POINTS) as u32;
        }
        Projection { outside_pips, finish: t.expected_rolls(&home), first: t.expected_first_rolls(&home) }
    }
}

/// Exact winning chances of the side on roll when both have at most
/// [`TWO_SIDED_CHECKERS`] checkers left, per (mover, opponent) index.
pub struct TwoSided {
    win: Vec<f32>,
}

/// The two-sided tables' common frame: every set of at most
/// [`TWO_SIDED_CHECKERS`] checkers, each set's results per roll (as
/// indices), and the (mover, opponent) pairs in an order where every pair
/// comes after the pairs its plays lead to (fewer pips in all).
pub(crate) struct TwoSidedLayout {
    pub n: usize,
    /// `children[set][roll]`: the sets the 21 rolls can lead to.
    pub children: Vec<Vec<Vec<usize>>>,
    pub order: Vec<(usize, usize)>,
    /// The index of the set with no checker left.
    pub empty: usize,
}

impl TwoSidedLayout {
    pub fn new(rule: BearoffRule) -> TwoSidedLayout {
        let max = TWO_SIDED_CHECKERS;
        let homes = all_homes(max);
        let n = homes.len();
        let mut children: Vec<Vec<Vec<usize>>> = vec![Vec::new(); n];
        let mut total_pips = vec![0; n];
        for home in &homes {
            let k = home_index(home, max);
            children[k] =
                rolls().iter().map(|&(d1, d2, _)| roll_results(home, d1, d2, rule).iter().map(|h| home_index(h, max)).collect()).collect();
            total_pips[k] = pips(home);
        }
        let mut order: Vec<(usize, usize)> = (0..n).flat_map(|a| (0..n).map(move |b| (a, b))).collect();
        order.sort_by_key(|&(a, b)| total_pips[a] + total_pips[b]);
        TwoSidedLayout { n, children, order, empty: home_index(&[0; POINTS], max) }
    }

    /// The (mover, opponent) index of a pair of sets, when both are small enough.
    pub fn index(me: &Home, them: &Home) -> Option<usize> {
        let max = TWO_SIDED_CHECKERS;
        (checkers(me) <= max && checkers(them) <= max).then(|| home_index(me, max) * home_count(max) + home_index(them, max))
    }
}

impl TwoSided {
    pub fn build(rule: BearoffRule) -> TwoSided {
        let TwoSidedLayout { n, children, order, empty } = TwoSidedLayout::new(rule);
        let mut win = vec![0f32; n * n];
        for (me, them) in order {
            win[me * n + them] = if me == empty {
                1.0
            } else if them == empty {
                0.0
            } else {
                rolls()
                    .iter()
                    .zip(&children[me])
                    .map(|(&(_, _, p), results)| {
                        let best = results.iter().map(|&c| 1.0 - win[them * n + c]).fold(0f32, f32::max);
                        p as f32 * best
                    })
                    .sum()
            };
        }
        TwoSided { win }
    }

    /// Probability that the side on roll (`me`) wins.
    pub fn win(&self, me: &Home, them: &Home) -> f32 {
        let n = home_count(TWO_SIDED_CHECKERS);
        self.win[home_index(me, TWO_SIDED_CHECKERS) * n + home_index(them, TWO_SIDED_CHECKERS)]
    }
}

/// Both tables of one rule.
pub struct Tables {
    pub one_sided: OneSided,
    pub two_sided: TwoSided,
}

static STANDARD: OnceLock<Tables> = OnceLock::new();
static CASCADE: OnceLock<Tables> = OnceLock::new();

/// The tables of a rule, built at first use and kept for the process.
pub fn tables(rule: BearoffRule) -> &'static Tables {
    let cell = match rule {
        BearoffRule::Standard => &STANDARD,
        BearoffRule::Cascade => &CASCADE,
    };
    cell.get_or_init(|| Tables { one_sided: OneSided::build(rule), two_sided: TwoSided::build(rule) })
}

/// Both sides' home sets, each in its own numbering, when the position is a
/// bear-off the tables cover: every checker of both sides home (or off) and
/// the game not over.
pub fn bearoff_homes(pos: &Position) -> Option<(Home, Home)> {
    if crate::outcome::game_result(pos).is_some() || !pos.all_home(ME) || !pos.all_home(THEM) {
        return None;
    }
    BearoffRule::for_rules(pos.rules())?;
    let (mine, theirs) = pos.to_arrays();
    let mut me = [0u8; POINTS];
    let mut them = [0u8; POINTS];
    me.copy_from_slice(&mine[..POINTS]);
    them.copy_from_slice(&theirs[..POINTS]);
    Some((me, them))
}

/// The five cubeless probabilities of a bear-off position for the side on
/// roll: (win, win gammon, win backgammon, lose gammon, lose backgammon).
/// Backgammons cannot happen from here (the loser is all in its own home).
pub fn bearoff_probabilities(pos: &Position) -> Option<[f32; 5]> {
    let (me, them) = bearoff_homes(pos)?;
    let t = tables(BearoffRule::for_rules(pos.rules())?);
    if checkers(&me) <= TWO_SIDED_CHECKERS && checkers(&them) <= TWO_SIDED_CHECKERS {
        // Both have borne off 9 or more: no gammons.
        return Some([t.two_sided.win(&me, &them), 0.0, 0.0, 0.0, 0.0]);
    }
    let mine = t.one_sided.rolls_to_finish(&me);
    let theirs = t.one_sided.rolls_to_finish(&them);
    // I roll first: I win when I need no more rolls than they do.
    let tail = |d: &Distribution, from: usize| -> f64 { d[from.min(MAX_ROLLS)..].iter().map(|&x| x as f64).sum() };
    let win: f64 = (1..MAX_ROLLS).map(|n| mine[n] as f64 * tail(theirs, n)).sum();
    let win_gammon = if checkers(&them) == 15 {
        let first = t.one_sided.rolls_to_first(&them);
        (1..MAX_ROLLS).map(|n| mine[n] as f64 * tail(first, n)).sum()
    } else {
        0.0
    };
    let lose_gammon = if checkers(&me) == 15 {
        let first = t.one_sided.rolls_to_first(&me);
        // They finish on their m-th roll, when I have had m rolls.
        (1..MAX_ROLLS).map(|m| theirs[m] as f64 * tail(first, m + 1)).sum()
    } else {
        0.0
    };
    Some([win as f32, win_gammon as f32, 0.0, lose_gammon as f32, 0.0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn home(points: &[(usize, u8)]) -> Home {
        let mut h = [0; POINTS];
        for &(p, n) in points {
            h[p - 1] = n;
        }
        h
    }

    #[test]
    fn index_is_a_bijection() {
        for max in [6u8, 15] {
            let homes = all_homes(max);
            assert_eq!(homes.len(), home_count(max));
            let mut seen = vec![false; homes.len()];
            for h in &homes {
                let i = home_index(h, max);
                assert!(!seen[i], "{h:?}");
                seen[i] = true;
            }
        }
        assert_eq!(home_count(15), 54264);
    }

    #[test]
    fn hand_computed_one_sided_cases() {
        let t = tables(BearoffRule::Standard);
        // One checker on the 1, 2 or 3 point: always one roll.
        for p in 1..=3 {
            let d = t.one_sided.rolls_to_finish(&home(&[(p, 1)]));
            assert!((d[1] - 1.0).abs() < 1e-6, "point {p}: {d:?}");
        }
        // On the 4 point only 2-1 (2/36) falls short; on the 6 point 1-1,
        // 2-1, 3-1, 4-1 and 3-2 do (9/36), and the second roll always finishes.
        let d = t.one_sided.rolls_to_finish(&home(&[(4, 1)]));
        assert!((d[1] - 34.0 / 36.0).abs() < 1e-6 && (d[2] - 2.0 / 36.0).abs() < 1e-6, "{d:?}");
        let d = t.one_sided.rolls_to_finish(&home(&[(6, 1)]));
        assert!((d[1] - 27.0 / 36.0).abs() < 1e-6 && (d[2] - 9.0 / 36.0).abs() < 1e-6, "{d:?}");
        // Two checkers on the 1 point: one roll.
        assert!((t.one_sided.rolls_to_finish(&home(&[(1, 2)]))[1] - 1.0).abs() < 1e-6);
        // Two on the 6 point: one roll only with 3-3, 4-4, 5-5 or 6-6 (4/36).
        let d = t.one_sided.rolls_to_finish(&home(&[(6, 2)]));
        assert!((d[1] - 4.0 / 36.0).abs() < 1e-6, "{d:?}");
        // Three on the 1 point: a double (6/36) takes them in one roll.
        let d = t.one_sided.rolls_to_finish(&home(&[(1, 3)]));
        assert!((d[1] - 6.0 / 36.0).abs() < 1e-6, "{d:?}");
        // Two checkers on the 2 point: a non-double with a 1 (10/36) must
        // play the 1 inside home (2->1) and leaves a checker; the rest finish.
        let d = t.one_sided.rolls_to_finish(&home(&[(2, 2)]));
        assert!((d[1] - 26.0 / 36.0).abs() < 1e-6, "{d:?}");
        // One checker on the 6 point and one on the 5: count the one-roll
        // finishes with the roll generator and by hand.
        let h = home(&[(6, 1), (5, 1)]);
        let one: f64 = rolls()
            .iter()
            .filter(|&&(a, b, _)| roll_results(&h, a, b, BearoffRule::Standard).iter().any(|r| checkers(r) == 0))
            .map(|&(_, _, p)| p)
            .sum();
        let d = t.one_sided.rolls_to_finish(&h);
        assert!((d[1] as f64 - one).abs() < 1e-6);
        // 6-5 (2/36) + 3-3, 4-4, 5-5, 6-6 (4/36).
        assert!((one - 6.0 / 36.0).abs() < 1e-9, "{one}");
    }

    #[test]
    fn distributions_sum_to_one_and_first_off_is_quick() {
        let t = tables(BearoffRule::Standard);
        let full = home(&[(1, 3), (2, 3), (3, 3), (4, 2), (5, 2), (6, 2)]);
        let s: f32 = t.one_sided.rolls_to_finish(&full).iter().sum();
        assert!((s - 1.0).abs() < 1e-4);
        // With checkers on every point the first checker always comes off at once.
        assert!((t.one_sided.rolls_to_first(&full)[1] - 1.0).abs() < 1e-6);
        // 15 on the 6 point: a checker comes off at once with any 6 (11/36),
        // 5-1 or 4-2 (2/36 each), 3-3 or 2-2 (1/36 each): 17/36.
        let d = t.one_sided.rolls_to_first(&home(&[(6, 15)]));
        assert!((d[1] - 17.0 / 36.0).abs() < 1e-6, "{d:?}");
        assert!(t.one_sided.expected_rolls(&home(&[(6, 15)])) > t.one_sided.expected_rolls(&full));
    }

    #[test]
    fn two_sided_hand_cases() {
        let t = tables(BearoffRule::Standard);
        // One checker on my 1 point: I always win (on roll).
        assert!((t.two_sided.win(&home(&[(1, 1)]), &home(&[(1, 1)])) - 1.0).abs() < 1e-6);
        // One on my 6 point against one on their 1 point: 27/36 (see above).
        let w = t.two_sided.win(&home(&[(6, 1)]), &home(&[(1, 1)]));
        assert!((w - 27.0 / 36.0).abs() < 1e-6, "{w}");
        // Two on my 6 point against one on their 1: only 3-3..6-6 (4/36).
        let w = t.two_sided.win(&home(&[(6, 2)]), &home(&[(1, 1)]));
        assert!((w - 4.0 / 36.0).abs() < 1e-6, "{w}");
        // Symmetric-ish sanity: more checkers left is worse.
        assert!(t.two_sided.win(&home(&[(1, 2)]), &home(&[(1, 3)])) > t.two_sided.win(&home(&[(1, 3)]), &home(&[(1, 2)])));
    }

    #[test]
    fn cascade_rule_is_quicker_with_doubles() {
        let std_ = tables(BearoffRule::Standard);
        let cas = tables(BearoffRule::Cascade);
        let h = home(&[(6, 8)]);
        // 1-1 in a cascade plays four each of 1..6 (84 pips): it can clear
        // eight checkers from the 6 point, which no standard roll can.
        assert!(cas.one_sided.expected_rolls(&h) < std_.one_sided.expected_rolls(&h));
        let r = roll_results(&h, 1, 1, BearoffRule::Cascade);
        assert!(r.iter().any(|x| checkers(x) == 0));
    }
}
