//! A teacher for backgammon's race network that does not play whole games:
//! each side's race alone, joined by the exact one-sided bear-off table.
//!
//! Once contact is broken the two sides never meet again: each side's number
//! of rolls to bear off is its own affair (up to how a side might play
//! differently to win a particular race, which gnubg's one-sided bear-off
//! evaluation ignores as well). So a race's five probabilities follow from
//! three distributions per side: the rolls to bear everything off, the rolls
//! to bear off a first checker (gammons), and the rolls until its last
//! checker leaves the other side's home board (backgammons). Once a side is
//! all home the table gives the first two exactly
//! ([`tavla::bearoff::OneSided`]); before that, `trials` simulations of the
//! side alone bring its checkers home (the opponent's checkers stay where
//! they are and never meet them; a trial's first roll is stratified), and
//! each trial adds the table's distribution from the home board it reached,
//! shifted by the rolls it took. A trial's only noise is the bear-in's dice:
//! much less than a game's rollout, whose noise runs to the last checker of
//! both sides (the rollout labels of `python -m tavla_train race`).
//!
//! Each side's bear-in is played by two rules, each for what it decides
//! ([`Rule`]): to race (the rolls to finish), the fewest expected rolls,
//! counted as the table's expected rolls with the outside checkers on the
//! six-point plus the rolls their pips to the six-point take, each such pip
//! counted [`OUTSIDE_PIP_WEIGHT`] times an average roll's share; to save a
//! gammon or a backgammon (the rolls to a first checker off and to leave the
//! other's home board), everything in first. Every play of a bear-in roll
//! moves the same pips (no checker can come off yet), so the rules decide
//! only where they go. A pip left outside costs the race more than its share
//! of a roll, since no checker comes off while one is out, but bringing
//! everything in first, whatever it does to the home board, races worse (the
//! teacher's first rule, for all three: further from gnubg's 2-ply,
//! benches/README.md "The race teacher's two rules").

use tavla::bearoff::{tables, BearoffRule, Home, OneSided, Projection};
use tavla::dice::Dice;
use tavla::movegen::with_generator;
use tavla::nn::OUTPUTS;
use tavla::parallel::par_map;
use tavla::position::{Position, ME};
use tavla::Move;

/// Longest count of rolls the distributions hold: a bear-in's rolls plus the
/// table's bear-off (at most 48 rolls between them in practice).
const LONGEST: usize = 96;
/// Home points and the other side's home board, in the side's own numbering
/// (index 0 is its 1-point).
const HOME: usize = 6;
const THEIR_HOME: std::ops::Range<usize> = 18..24;

/// One side's race: probability distributions over its number of rolls.
#[derive(Clone, Debug, PartialEq)]
pub struct SideRace {
    /// To bear every checker off.
    pub finish: Vec<f64>,
    /// To bear off a first checker (0 rolls when one is off already).
    pub first: Vec<f64>,
    /// Until no checker of it is left in the other side's home board.
    pub leave: Vec<f64>,
}

impl SideRace {
    fn empty() -> SideRace {
        SideRace { finish: vec![0.0; LONGEST], first: vec![0.0; LONGEST], leave: vec![0.0; LONGEST] }
    }

    /// Adds `weight` times the table's distributions from `home`, `rolls` on,
    /// and the leaving roll `left`.
    fn add(&mut self, table: &OneSided, home: &Home, rolls: usize, left: usize, weight: f64) {
        self.add_finish(table, home, rolls, weight);
        self.add_saving(table, home, rolls, left, weight);
    }

    /// Adds `weight` times the table's rolls to finish from `home`, `rolls` on.
    fn add_finish(&mut self, table: &OneSided, home: &Home, rolls: usize, weight: f64) {
        shifted_add(&mut self.finish, table.rolls_to_finish(home), rolls, weight);
    }

    /// Adds `weight` times the table's rolls to a first checker off from
    /// `home`, `rolls` on, and the leaving roll `left`.
    fn add_saving(&mut self, table: &OneSided, home: &Home, rolls: usize, left: usize, weight: f64) {
        shifted_add(&mut self.first, table.rolls_to_first(home), rolls, weight);
        self.leave[left.min(LONGEST - 1)] += weight;
    }
}

/// Adds `weight` times the distribution `from`, shifted `rolls` on, to `to`.
fn shifted_add(to: &mut [f64], from: &[f32], rolls: usize, weight: f64) {
    for (n, &p) in from.iter().enumerate() {
        to[(n + rolls).min(LONGEST - 1)] += weight * p as f64;
    }
}

/// The side on roll's home board (its points 1 to 6).
fn home_of(pos: &Position) -> Home {
    let mut home = [0u8; HOME];
    home.copy_from_slice(&pos.counts(ME)[..HOME]);
    home
}

fn in_their_home(pos: &Position) -> bool {
    THEIR_HOME.clone().any(|i| pos.count(ME, i) > 0)
}

/// How much more than an average roll's share (6/49 of a roll) a pip outside
/// the home board costs the race rule: picked from 0.8, 1, 1.25, 1.6 and 2
/// (and "everything in first") by the teacher's distance from gnubg's 2-ply
/// on the races of both cube sets, where 1.25 was nearest on each.
const OUTSIDE_PIP_WEIGHT: f64 = 1.25;

/// How a simulated bear-in picks its plays.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Rule {
    /// To finish soonest: the fewest expected rolls, the table's from the
    /// home board with the outside checkers on the six-point plus their pips
    /// to it at [`OUTSIDE_PIP_WEIGHT`] times a roll's share each.
    Race,
    /// To save a gammon or a backgammon: everything in first (the fewest pips
    /// outside), then the fewest expected rolls to a first checker off.
    Hurry,
}

impl Rule {
    /// The rule's key for the side on roll in `pos` (smaller is better).
    fn key(self, pos: &Position) -> (u32, f64) {
        let p = Projection::of(pos);
        match self {
            Rule::Race => (0, p.finish + p.outside_pips as f64 * OUTSIDE_PIP_WEIGHT * 6.0 / 49.0),
            Rule::Hurry => (p.outside_pips, p.first),
        }
    }
}

/// `trials` bear-ins of the side on roll by `rule` (trial `t` of its own dice
/// stream and first roll `t mod 36`), each given to `reached` as the home
/// board it reached, its rolls, and the roll after which no checker of it was
/// left in the other side's home board.
fn bear_ins(pos: &Position, trials: usize, seed: u64, rule: Rule, mut reached: impl FnMut(&Home, usize, usize)) {
    let mut moves: Vec<Move> = Vec::new();
    for t in 0..trials {
        let mut rng = Dice::training(seed ^ (t as u64).wrapping_mul(0xA24B_AED4_963E_E407));
        let mut now = *pos;
        let mut rolls = 0;
        let mut left = if in_their_home(&now) { None } else { Some(0) };
        while !now.all_home(ME) {
            let (d1, d2) = if rolls == 0 { ((t % 36 / 6) as u8 + 1, (t % 6) as u8 + 1) } else { (rng.die(), rng.die()) };
            with_generator(|g| g.legal_moves(&now, d1, d2, &mut moves));
            // Each play's key once, not once per comparison.
            let best =
                moves.iter().map(|m| (rule.key(&m.position), m.position)).min_by(|(a, _), (b, _)| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
            if let Some((_, position)) = best {
                now = position;
            }
            rolls += 1;
            if left.is_none() && !in_their_home(&now) {
                left = Some(rolls);
            }
        }
        reached(&home_of(&now), rolls, left.unwrap_or(rolls));
    }
}

/// The side on roll's race distributions: exact from the table when it is
/// all home, else from `trials` bear-ins a rule: the rolls to finish from
/// bear-ins that race ([`Rule::Race`]), those to a first checker off and to
/// leave the other's home board from bear-ins that hurry ([`Rule::Hurry`]),
/// as a side plays that races or saves a gammon (the same dice for both).
pub fn side_race(pos: &Position, trials: usize, seed: u64) -> SideRace {
    let table = &tables(BearoffRule::Standard).one_sided;
    let mut race = SideRace::empty();
    if pos.all_home(ME) {
        race.add(table, &home_of(pos), 0, 0, 1.0);
        return race;
    }
    let weight = 1.0 / trials as f64;
    bear_ins(pos, trials, seed, Rule::Race, |home, rolls, _| race.add_finish(table, home, rolls, weight));
    if pos.off(ME) == 0 || in_their_home(pos) {
        bear_ins(pos, trials, seed, Rule::Hurry, |home, rolls, left| race.add_saving(table, home, rolls, left, weight));
    } else {
        // Nothing to save: no checker in the other's home board, none left to leave it.
        race.leave[0] = 1.0;
    }
    if pos.off(ME) > 0 {
        // A checker is off already: no gammon to lose, whatever the bear-in.
        race.first.fill(0.0);
        race.first[0] = 1.0;
    }
    race
}

/// P(x >= n) of a distribution.
fn at_least(d: &[f64], n: usize) -> f64 {
    d[n.min(d.len())..].iter().sum()
}

/// The five probabilities (win, win gammon, win backgammon, lose gammon,
/// lose backgammon) of the side on roll, `mine`, against `theirs`. The side
/// on roll finishing on its n-th roll wins if the other needs n or more of
/// its own, and wins a gammon if the other has borne nothing off by then
/// (its first checker needing n rolls or more); the other finishing on its
/// m-th roll, the side on roll has had m rolls.
pub fn race_probabilities(mine: &SideRace, theirs: &SideRace) -> [f32; OUTPUTS] {
    let against =
        |finish: &[f64], other: &[f64], shift: usize| -> f64 { (1..LONGEST).map(|n| finish[n] * at_least(other, n + shift)).sum() };
    let win = against(&mine.finish, &theirs.finish, 0);
    let out = [
        win,
        against(&mine.finish, &theirs.first, 0),
        against(&mine.finish, &theirs.leave, 0),
        against(&theirs.finish, &mine.first, 1),
        against(&theirs.finish, &mine.leave, 1),
    ];
    out.map(|p| p.clamp(0.0, 1.0) as f32)
}

/// Labels of backgammon races (no checker of either side can meet the
/// other's again), `trials` bear-ins a side, shared out over `threads`.
/// Position `k`'s sides draw their own dice streams from `(seed, k)`.
pub fn race_labels(positions: &[Position], trials: usize, seed: u64, threads: usize) -> Vec<[f32; OUTPUTS]> {
    par_map(
        positions.len(),
        threads,
        || (),
        |_, k| {
            let stream = seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let pos = &positions[k];
            let mine = side_race(pos, trials, stream);
            let theirs = side_race(&pos.flip(), trials, stream.rotate_left(17) ^ 0x5851_F42D_4C95_7F2D);
            race_probabilities(&mine, &theirs)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tavla::bearoff::bearoff_probabilities;
    use tavla::Rules;

    fn position(mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Position {
        let mut a = [0i64; 25];
        let mut b = [0i64; 25];
        for &(p, n) in mine {
            a[p - 1] = n;
        }
        for &(p, n) in theirs {
            b[p - 1] = n;
        }
        Position::from_arrays(Rules::backgammon(), &a, &b).unwrap()
    }

    #[test]
    fn an_all_home_race_is_the_tables_bearoff() {
        // Both all home, 15 checkers each: the table's gammons count too.
        let pos = position(&[(6, 5), (5, 4), (4, 3), (2, 3)], &[(6, 8), (3, 4), (1, 3)]);
        let exact = bearoff_probabilities(&pos).unwrap();
        let mine = race_labels(&[pos], 36, 1, 1)[0];
        for (a, b) in mine.iter().zip(exact) {
            assert!((a - b).abs() < 1e-5, "{mine:?} against the table's {exact:?}");
        }
    }

    #[test]
    fn the_distributions_are_distributions_and_a_long_race_takes_longer() {
        let near = position(&[(6, 10), (8, 5)], &[(6, 15)]);
        let far = position(&[(6, 5), (13, 10)], &[(6, 15)]);
        let (a, b) = (side_race(&near, 72, 3), side_race(&far, 72, 3));
        for d in [&a.finish, &a.first, &a.leave, &b.finish, &b.first, &b.leave] {
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-5);
        }
        let mean = |d: &[f64]| d.iter().enumerate().map(|(n, p)| n as f64 * p).sum::<f64>();
        // 100 pips against 160: about seven rolls more.
        assert!(mean(&b.finish) > mean(&a.finish) + 6.0, "{} against {}", mean(&b.finish), mean(&a.finish));
    }

    #[test]
    fn the_race_rule_finishes_sooner_and_the_hurry_rule_gets_a_checker_off_sooner() {
        // Five checkers still outside, the home board stacked deep: bringing
        // everything in first piles more checkers onto the low points.
        let mean = |d: &[f64]| d.iter().enumerate().map(|(n, p)| n as f64 * p).sum::<f64>();
        let table = &tables(BearoffRule::Standard).one_sided;
        let mut gained = 0.0;
        for pos in [
            position(&[(9, 2), (10, 2), (11, 1), (1, 4), (2, 3), (3, 3)], &[(6, 15)]),
            position(&[(8, 3), (13, 2), (6, 4), (5, 3), (4, 3)], &[(6, 15)]),
            position(&[(7, 4), (14, 1), (1, 2), (2, 2), (3, 2), (6, 4)], &[(6, 15)]),
        ] {
            let [mut race, mut hurry] = [SideRace::empty(), SideRace::empty()];
            bear_ins(&pos, 720, 9, Rule::Race, |home, rolls, left| race.add(table, home, rolls, left, 1.0 / 720.0));
            bear_ins(&pos, 720, 9, Rule::Hurry, |home, rolls, left| hurry.add(table, home, rolls, left, 1.0 / 720.0));
            assert!(mean(&race.finish) <= mean(&hurry.finish), "{} against {}", mean(&race.finish), mean(&hurry.finish));
            // The hurry rule is no rule for a first checker off either (it only brings
            // everything in soonest), but it is not later by more than a hair, and
            // sooner over the three.
            assert!(mean(&hurry.first) <= mean(&race.first) + 0.01, "{} against {}", mean(&hurry.first), mean(&race.first));
            gained += mean(&race.first) - mean(&hurry.first);
            // The teacher takes each distribution from the rule made for it.
            let both = side_race(&pos, 720, 9);
            assert_eq!((both.finish, both.first), (race.finish, hurry.first));
        }
        assert!(gained > 0.1, "{gained}");
    }

    #[test]
    fn a_checker_in_their_home_board_can_lose_a_backgammon() {
        // One checker of mine still on their 2-point (my 23-point), theirs two
        // on their 1-point: they finish on their first roll, when I have had
        // one and borne a checker off only after 6-6 (23/17/11/5, then one
        // off the six-point), and my checker is still in their home board only
        // after 1-1, 2-1 or 3-1 (5 rolls of 36; every first roll is drawn
        // equally often).
        let pos = position(&[(23, 1), (6, 14)], &[(1, 2)]);
        let [win, wg, wb, lg, lb] = race_labels(&[pos], 360, 5, 1)[0];
        assert!(win == 0.0 && wg == 0.0 && wb == 0.0);
        assert!((lg - 35.0 / 36.0).abs() < 1e-5 && (lb - 5.0 / 36.0).abs() < 1e-5, "lose gammon {lg}, backgammon {lb}");
    }

    #[test]
    fn a_side_with_a_checker_off_loses_no_gammon() {
        // Theirs: two checkers left, both outside their home board.
        let pos = position(&[(1, 3), (2, 5), (5, 1)], &[(16, 1), (19, 1)]);
        let [win, wg, wb, ..] = race_labels(&[pos], 72, 3, 1)[0];
        assert!(win > 0.5 && wg == 0.0 && wb == 0.0, "{win} {wg} {wb}");
    }

    #[test]
    fn labels_ignore_the_thread_count() {
        let pos = [position(&[(6, 5), (9, 10)], &[(5, 5), (11, 10)]), position(&[(6, 12), (7, 3)], &[(4, 5), (10, 10)])];
        assert_eq!(race_labels(&pos, 40, 9, 1), race_labels(&pos, 40, 9, 2));
    }
}
