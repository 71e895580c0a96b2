//! Hand-written evaluators, the baseline every learned evaluator must beat.
//!
//! Each computes a score in logit units for the player on roll: the race
//! (pip counts scaled by the square root of their sum, with the half roll the
//! player on roll is ahead) plus board features of both sides, mine minus
//! theirs. The win chance is the logistic of the score; the gammon share of a
//! win grows with the winner's lead and vanishes once the loser has borne a
//! checker off. The weights are set by judgement, not fitted.

use super::{sigmoid, Evaluation, Evaluator};
use crate::position::{opponent_mask, Position, HEAD, ME, THEM};
use crate::variant::Variant;

pub struct Heuristic {
    variant: Variant,
    pub weights: BackgammonWeights,
}

/// The backgammon weights, in logit units (public so they can be tuned).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BackgammonWeights {
    /// Race term weight in a pure race and in a contact position.
    pub race: f32,
    pub contact_race: f32,
    pub home_point: f32,
    pub outfield_point: f32,
    pub anchor: f32,
    pub prime: f32,
    pub bar: f32,
    pub bar_per_home_point: f32,
    pub direct_shot: f32,
    pub indirect_shot: f32,
    /// The on-roll player's own blots count this much of the opponent's.
    pub own_blot: f32,
    /// Gammon share of a win: `0.8 * sigmoid(slope * lead - offset)`.
    pub gammon_slope: f32,
    pub gammon_offset: f32,
}

impl Default for BackgammonWeights {
    fn default() -> Self {
        // Judgement first, then a few coordinate-search steps against pubeval
        // (examples/tune_heuristic.rs, 1,000 duplicate games per trial).
        BackgammonWeights {
            race: 1.1,
            contact_race: 0.9,
            home_point: 0.27,
            outfield_point: 0.08,
            anchor: 0.09,
            prime: 1.0,
            bar: 0.23,
            bar_per_home_point: 0.12,
            direct_shot: 0.22,
            indirect_shot: 0.08,
            own_blot: 0.5,
            gammon_slope: 1.5,
            gammon_offset: 3.0,
        }
    }
}

impl Heuristic {
    pub fn new(variant: Variant) -> Heuristic {
        Heuristic { variant, weights: BackgammonWeights::default() }
    }
}

impl Evaluator for Heuristic {
    fn name(&self) -> String {
        "heuristic".into()
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        let score = match self.variant {
            // The reserve games are backgammon on the board, with the reserve in the pips.
            Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => backgammon_score(pos, &self.weights),
            Variant::Nardy | Variant::GulBara => nardy_score(pos),
        };
        with_gammons(pos, score, self.weights.gammon_slope, self.weights.gammon_offset)
    }
}

/// The race term: pip lead with the roller's bonus, over the race's length.
fn race_term(pos: &Position, on_roll_pips: f32, weight: f32) -> f32 {
    let p = pos.pips();
    let (mine, theirs) = (p[ME] as f32, p[THEM] as f32);
    weight * (theirs - mine + on_roll_pips) / (mine + theirs).max(1.0).sqrt()
}

/// Longest run of set bits.
fn longest_run(mut mask: u32) -> u32 {
    let mut n = 0;
    while mask != 0 {
        mask &= mask << 1;
        n += 1;
    }
    n
}

/// Bonus for a prime (blockade) of a given length.
fn prime_bonus(len: u32) -> f32 {
    [0.0, 0.0, 0.05, 0.2, 0.45, 0.8, 1.3][len.min(6) as usize]
}

fn backgammon_score(pos: &Position, w: &BackgammonWeights) -> f32 {
    if pos.is_race() {
        return race_term(pos, 4.0, w.race);
    }
    let flipped = pos.flip();
    // Blots of the player on roll are less exposed: it moves first.
    race_term(pos, 4.0, w.contact_race) + backgammon_board(pos, w.own_blot, w) - backgammon_board(&flipped, 1.0, w)
}

/// Board features of the mover of `pos` (its blots weighted by `blot_weight`).
fn backgammon_board(pos: &Position, blot_weight: f32, w: &BackgammonWeights) -> f32 {
    let made = pos.stacked(ME);
    let home_points = (made & 0x3F).count_ones() as f32;
    let outfield_points = (made & 0x7C0).count_ones() as f32; // points 7..11
    let anchors = (made & 0xFC_0000).count_ones().min(2) as f32; // points 19..24
    let mut score =
        w.home_point * home_points + w.outfield_point * outfield_points + w.anchor * anchors + w.prime * prime_bonus(longest_run(made));
    // The bar costs more against a strong home board of the opponent.
    let their_home = (pos.stacked(THEM) & 0xFC_0000).count_ones() as f32;
    score -= pos.bar(ME) as f32 * (w.bar + w.bar_per_home_point * their_home);
    // Blots the opponent can reach: it moves up the mover's numbering, from
    // its checkers below the blot (or from its bar, below point 1).
    let their_lowest = if pos.bar(THEM) > 0 { -1 } else { pos.occupied(THEM).trailing_zeros() as i32 };
    let mut blots = pos.occupied(ME) & !made;
    while blots != 0 {
        let i = blots.trailing_zeros() as i32;
        blots &= blots - 1;
        if i <= their_lowest {
            continue;
        }
        let below = pos.occupied(THEM) & ((1u32 << i) - 1);
        let from_board = if below != 0 { i - (31 - below.leading_zeros() as i32) } else { i32::MAX };
        let from_bar = if pos.bar(THEM) > 0 { i + 1 } else { i32::MAX };
        let d = from_board.min(from_bar);
        let exposure = if d <= 6 {
            w.direct_shot
        } else if d <= 12 {
            w.indirect_shot
        } else {
            0.0
        };
        // A blot deep in the opponent's path costs more pips when hit.
        score -= blot_weight * exposure * (0.5 + i as f32 / 24.0);
    }
    score
}

fn nardy_score(pos: &Position) -> f32 {
    let flipped = pos.flip();
    race_term(pos, 6.0, 1.0) + nardy_board(pos) - nardy_board(&flipped)
}

/// Board features of the mover of `pos` in the nardy games.
fn nardy_board(pos: &Position) -> f32 {
    let v = pos.variant();
    // Both sides' occupancy in the opponent's numbering, where its path runs
    // from bit 23 down to bit 0.
    let mine = opponent_mask(v, pos.occupied(ME));
    let theirs = opponent_mask(v, pos.occupied(THEM));
    let mut score = 0.0;
    if theirs != 0 {
        // My points still in front of the opponent's rearmost checker block it.
        let rear = 31 - theirs.leading_zeros();
        let in_front = mine & ((1u32 << rear) - 1);
        score += 0.04 * in_front.count_ones() as f32 + prime_bonus(longest_run(in_front));
    }
    // Checkers stuck on the head slow the development of the game.
    let head = pos.count(ME, HEAD) as f32;
    score -= 0.03 * (head - 1.0).max(0.0);
    // Stragglers: checkers still in the first half while the opponent is home.
    if pos.all_home(THEM) {
        let back = (pos.occupied(ME) & 0xFFF000).count_ones() as f32;
        score -= 0.1 * back;
    }
    score
}

/// Win chance from the score, with gammon shares for the side ahead.
fn with_gammons(pos: &Position, score: f32, slope: f32, offset: f32) -> Evaluation {
    let win = sigmoid(score);
    // The winner's gammon share rises with its lead; none once the loser is off.
    let share = |lead: f32| sigmoid(slope * lead - offset) * 0.8;
    let win_gammon = if pos.off(THEM) == 0 { win * share(score) } else { 0.0 };
    let lose_gammon = if pos.off(ME) == 0 { (1.0 - win) * share(-score) } else { 0.0 };
    let backgammon_share = if pos.variant() == Variant::Backgammon { 0.1 } else { 0.0 };
    Evaluation {
        win,
        win_gammon,
        win_backgammon: win_gammon * backgammon_share,
        lose_gammon,
        lose_backgammon: lose_gammon * backgammon_share,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

    #[test]
    fn start_is_even_and_prime_helps() {
        let h = Heuristic::new(Variant::Backgammon);
        let e = h.evaluate(&Position::start(Rules::backgammon()));
        assert!((e.win - 0.5).abs() < 0.1, "{e:?}");
        let mut mine = [0i64; 25];
        let mut theirs = [0i64; 25];
        // A six-prime 3..8 against a lone opponent checker behind it.
        for p in 3..=8 {
            mine[p - 1] = 2;
        }
        mine[12] = 3;
        theirs[23] = 1; // my point 1
        theirs[5] = 14;
        let primed = Position::from_arrays(Rules::backgammon(), &mine, &theirs).unwrap();
        assert!(h.evaluate(&primed).win > 0.8);
        assert_eq!(longest_run(0b1110111), 3);
    }

    #[test]
    fn nardy_start_is_even_and_pips_matter() {
        let h = Heuristic::new(Variant::Nardy);
        let e = h.evaluate(&Position::start(Rules::nardy()));
        assert!((e.win - 0.5).abs() < 0.1);
        let mut mine = [0i64; 25];
        let mut theirs = [0i64; 25];
        mine[23] = 14;
        mine[9] = 1;
        theirs[23] = 15;
        let ahead = Position::from_arrays(Rules::nardy(), &mine, &theirs).unwrap();
        assert!(h.evaluate(&ahead).win > e.win);
    }
}
