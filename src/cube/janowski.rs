//! Cubeless probabilities to cubeful equity at 0-ply: Rick Janowski's
//! interpolation for money play and its generalisation to match play by
//! live-cube cash points on the match equity table (the method GNU
//! Backgammon uses, so that tavla's 0-ply cube decisions agree with gnubg's
//! on the same probabilities; `tests/test_cube_parity.py` checks it).
//!
//! The idea: a dead cube is worth the cubeless equity; a perfectly live cube
//! (one the owner can turn at exactly the right moment) is worth a piecewise
//! linear function of the winning chance, through the points where the
//! opponent would pass a double and where the player would cash. A real cube
//! lies between, `x` of the way to the live one: `x` is the cube efficiency
//! of the position class ([`super::efficiency`]).
//!
//! Values are normalized to the state's cube in money play (a double-pass is
//! +1 whatever the cube) and are match winning chances (MWC) of the player
//! on roll in match play. Player 0 below is always the player on roll.

use super::met::MatchEquityTable;
use super::state::{CubeState, Owner};
use crate::eval::Evaluation;

const ME: usize = 0;
const THEM: usize = 1;

/// The five cubeless probabilities as f64, for the cube formulas.
#[derive(Clone, Copy, Debug)]
pub struct Chances {
    pub win: f64,
    pub win_gammon: f64,
    pub win_backgammon: f64,
    pub lose_gammon: f64,
    pub lose_backgammon: f64,
}

impl From<&Evaluation> for Chances {
    fn from(e: &Evaluation) -> Chances {
        Chances {
            win: e.win as f64,
            win_gammon: e.win_gammon as f64,
            win_backgammon: e.win_backgammon as f64,
            lose_gammon: e.lose_gammon as f64,
            lose_backgammon: e.lose_backgammon as f64,
        }
    }
}

impl Chances {
    /// `[me, opponent]`: of the games each side wins, the share won as a
    /// plain gammon and as a backgammon.
    fn result_ratios(&self) -> ([f64; 2], [f64; 2]) {
        let (mut gammon, mut backgammon) = ([0.0; 2], [0.0; 2]);
        if self.win > 0.0 {
            gammon[ME] = (self.win_gammon - self.win_backgammon) / self.win;
            backgammon[ME] = self.win_backgammon / self.win;
        }
        if self.win < 1.0 {
            let lose = 1.0 - self.win;
            gammon[THEM] = (self.lose_gammon - self.lose_backgammon) / lose;
            backgammon[THEM] = self.lose_backgammon / lose;
        }
        (gammon, backgammon)
    }
}

/// The match winning chance of `player` once `winner` has won `points`
/// more: the table lookup every match formula goes through.
pub fn mwc_after(state: &CubeState, met: &MatchEquityTable, player: usize, winner: usize, points: u32) -> f64 {
    let [mut away_me, mut away_them] = state.away().map(|a| a as i64);
    if winner == ME {
        away_me -= points as i64;
    } else {
        away_them -= points as i64;
    }
    // Once someone is one point away, every later game is post-Crawford.
    let post_crawford = state.crawford || state.away().contains(&1);
    let mine = met.mwc(away_me.max(-1) as i32, away_them.max(-1) as i32, post_crawford);
    if player == ME {
        mine
    } else {
        1.0 - mine
    }
}

/// The value of winning or losing each kind of game at this score, as
/// multiples of a single game: `[my gammon, their gammon, my backgammon
/// extra, their backgammon extra]` (all 1 in money play, 0 with Jacoby and
/// a centered cube).
pub fn gammon_prices(state: &CubeState, met: &MatchEquityTable) -> [f64; 4] {
    if state.is_money() {
        return [money_gammon_price(state); 4];
    }
    let v = state.value;
    let me_wins = |k: u32| mwc_after(state, met, ME, ME, k * v);
    let they_win = |k: u32| mwc_after(state, met, ME, THEM, k * v);
    let (win, win_gammon, win_backgammon) = (me_wins(1), me_wins(2), me_wins(3));
    let (lose, lose_gammon, lose_backgammon) = (they_win(1), they_win(2), they_win(3));
    let center = (win + lose) / 2.0;
    let half = win - center;
    if half.abs() <= 1e-7 {
        return [0.0; 4];
    }
    let gammon = (win_gammon - center) / half - 1.0;
    let their_gammon = (center - lose_gammon) / half - 1.0;
    let backgammon = (win_backgammon - center) / half - (gammon + 1.0);
    let their_backgammon = (center - lose_backgammon) / half - (their_gammon + 1.0);
    // A dead gammon can come out as a tiny negative number.
    [gammon, their_gammon, backgammon, their_backgammon].map(|p| p.max(0.0))
}

/// Gammons count double in money play, except under the Jacoby rule while
/// the cube is centered.
fn money_gammon_price(state: &CubeState) -> f64 {
    if state.jacoby && state.owner == Owner::Centered {
        0.0
    } else {
        1.0
    }
}

/// Cubeless equity with the gammon prices of this score (money: the usual
/// points per game, unless Jacoby zeroes the gammons).
pub fn utility(p: &Chances, state: &CubeState, met: &MatchEquityTable) -> f64 {
    weighted_utility(p, gammon_prices(state, met))
}

fn weighted_utility(p: &Chances, [g, their_g, bg, their_bg]: [f64; 4]) -> f64 {
    2.0 * p.win - 1.0 + p.win_gammon * g - p.lose_gammon * their_g + p.win_backgammon * bg - p.lose_backgammon * their_bg
}

/// Match winning chance to equity normalized to the cube: -1 is losing the
/// cube's value, +1 winning it (a linear map through those two MWCs).
pub fn mwc_to_equity(mwc: f64, state: &CubeState, met: &MatchEquityTable) -> f64 {
    let win = mwc_after(state, met, ME, ME, state.value);
    let lose = mwc_after(state, met, ME, THEM, state.value);
    (2.0 * mwc - (win + lose)) / (win - lose)
}

/// The inverse of [`mwc_to_equity`].
pub fn equity_to_mwc(equity: f64, state: &CubeState, met: &MatchEquityTable) -> f64 {
    let win = mwc_after(state, met, ME, ME, state.value);
    let lose = mwc_after(state, met, ME, THEM, state.value);
    0.5 * (equity * (win - lose) + (win + lose))
}

/// Cubeful equity (money, normalized to the cube) or MWC (match) at 0-ply.
pub fn cubeful(p: &Chances, state: &CubeState, met: &MatchEquityTable, efficiency: f64) -> f64 {
    // A cube at its maximum can never be turned again: it is dead.
    let efficiency = if state.value * 2 > state.max_value { 0.0 } else { efficiency };
    if state.is_money() {
        money(p, state, efficiency)
    } else {
        match_play(p, state, met, efficiency)
    }
}

/// Money play: `(1 - x) * dead + x * live`.
pub fn money(p: &Chances, state: &CubeState, x: f64) -> f64 {
    let dead = weighted_utility(p, [money_gammon_price(state); 4]);
    // A game (all but) decided: there is nothing for the cube to do.
    if p.win <= 1e-7 || p.win >= 0.9999999 {
        return dead;
    }
    // Average points of a won and of a lost game.
    let w = 1.0 + (p.win_gammon + p.win_backgammon) / p.win;
    let l = 1.0 + (p.lose_gammon + p.lose_backgammon) / (1.0 - p.win);
    dead * (1.0 - x) + money_live(w, l, p.win, state) * x
}

/// A perfectly live cube in money play: straight lines between the take
/// point and the cash point (and the ends at 0 and 1).
fn money_live(w: f64, l: f64, p: f64, state: &CubeState) -> f64 {
    let take_point = (l - 0.5) / (w + l + 0.5);
    let cash_point = (l + 1.0) / (w + l + 0.5);
    match state.owner {
        Owner::Centered => {
            if p < take_point {
                if state.jacoby {
                    -1.0
                } else {
                    -l + (l - 1.0) * p / take_point
                }
            } else if p < cash_point {
                -1.0 + 2.0 * (p - take_point) / (cash_point - take_point)
            } else if state.jacoby {
                1.0
            } else {
                1.0 + (w - 1.0) * (p - cash_point) / (1.0 - cash_point)
            }
        }
        Owner::Me => {
            if p < cash_point {
                -l + (1.0 + l) * p / cash_point
            } else {
                1.0 + (w - 1.0) * (p - cash_point) / (1.0 - cash_point)
            }
        }
        Owner::Opponent => {
            if p < take_point {
                -l + (l - 1.0) * p / take_point
            } else {
                -1.0 + (w + 1.0) * (p - take_point) / (1.0 - take_point)
            }
        }
    }
}

/// Whether a match cube can still matter: not the Crawford game, not a
/// cube that already wins the match for both sides, not 2-away 2-away at
/// a 1-cube (where the first double is always right and the cube is
/// treated as dead, as gnubg does).
fn cube_matters(state: &CubeState) -> bool {
    let [mine, theirs] = state.away();
    !(state.crawford || (state.value >= mine && state.value >= theirs) || (mine == 2 && theirs == 2))
}

/// Match play: the live cube interpolates match winning chances between
/// cash points found on the match equity table.
pub fn match_play(p: &Chances, state: &CubeState, met: &MatchEquityTable, x: f64) -> f64 {
    let dead = equity_to_mwc(utility(p, state, met), state, met);
    if !cube_matters(state) {
        return dead;
    }
    let (gammon, backgammon) = p.result_ratios();
    let cash = cash_points(&gammon, &backgammon, state, met);
    let v = state.value;
    let mwc = |winner: usize, k: u32| mwc_after(state, met, ME, winner, k * v);
    let i_cash = mwc(ME, 1);
    let they_cash = mwc(THEM, 1);
    let i_win = (1.0 - gammon[ME] - backgammon[ME]) * i_cash + gammon[ME] * mwc(ME, 2) + backgammon[ME] * mwc(ME, 3);
    let i_lose = (1.0 - gammon[THEM] - backgammon[THEM]) * they_cash + gammon[THEM] * mwc(THEM, 2) + backgammon[THEM] * mwc(THEM, 3);
    // Where the opponent would cash (below it, they are too good to double)
    // and where I would.
    let their_point = 1.0 - cash[THEM];
    let my_point = cash[ME];
    let w = p.win;
    let towards_losing = |top: f64| if their_point > 0.0 { i_lose + (top - i_lose) * w / their_point } else { i_lose };
    let towards_winning = |bottom: f64, from: f64| {
        if from < 1.0 {
            bottom + (i_win - bottom) * (w - from) / (1.0 - from)
        } else {
            i_win
        }
    };
    let live = match state.owner {
        Owner::Centered => {
            if w <= their_point {
                towards_losing(they_cash)
            } else if w < my_point {
                they_cash + (i_cash - they_cash) * (w - their_point) / (my_point - their_point)
            } else {
                towards_winning(i_cash, my_point)
            }
        }
        Owner::Me => {
            if w <= my_point {
                if my_point > 0.0 {
                    i_lose + (i_cash - i_lose) * w / my_point
                } else {
                    i_lose
                }
            } else {
                towards_winning(i_cash, my_point)
            }
        }
        Owner::Opponent => {
            if w <= their_point {
                towards_losing(they_cash)
            } else {
                they_cash + (i_win - they_cash) * (w - their_point) / (1.0 - their_point)
            }
        }
    };
    dead * (1.0 - x) + live * x
}

/// Where each player would cash a live cube (`[me, opponent]`, as that
/// player's winning chance), worked down from the highest cube level that
/// is still alive: at each level a player cashes where taking a redouble
/// of the other side's next level would be worth as much as passing.
fn cash_points(gammon: &[f64; 2], backgammon: &[f64; 2], state: &CubeState, met: &MatchEquityTable) -> [f64; 2] {
    // 0-based aways, as the recursion's bounds were written for them.
    let [i, j] = state.away().map(|a| a as i64 - 1);
    let base = state.value as i64;
    let mut top = base;
    let mut levels = 0;
    while i >= 2 * top && j >= 2 * top {
        levels += 1;
        top *= 2;
    }
    // cash[level][player]
    let mut cash = vec![[0.0f64; 2]; levels + 2];
    let (mut cube, mut level) = (top, levels);
    loop {
        let mwc = |player: usize, winner: usize, points: i64| mwc_after(state, met, player, winner, points as u32);
        for k in [ME, THEM] {
            let other = 1 - k;
            let wins = |points: &dyn Fn(i64) -> i64| {
                (1.0 - gammon[k] - backgammon[k]) * mwc(k, k, points(1))
                    + gammon[k] * mwc(k, k, points(2))
                    + backgammon[k] * mwc(k, k, points(3))
            };
            let pass = mwc(k, k, cube);
            cash[level][k] = if i < 2 * cube || j < 2 * cube {
                // The doubled cube would be dead; a redouble the other side
                // makes at once (it cannot hurt them) is priced in.
                let prime = if k == ME { cube_after_automatic_redouble(i, j, cube) } else { cube_after_automatic_redouble(j, i, cube) };
                let take_and_win = wins(&|m| 2 * m * prime);
                let take_and_lose = (1.0 - gammon[other] - backgammon[other]) * mwc(k, other, 2 * prime)
                    + gammon[other] * mwc(k, other, 4 * prime)
                    + backgammon[other] * mwc(k, other, 6 * prime);
                (take_and_lose - pass) / (take_and_lose - take_and_win)
            } else {
                let redouble_pass = mwc(k, other, 2 * cube);
                let take_and_win = wins(&|m| 2 * m * cube);
                1.0 - cash[level + 1][other] * (pass - take_and_win) / (redouble_pass - take_and_win)
            };
        }
        if cube == base {
            break;
        }
        cube /= 2;
        level -= 1;
    }
    cash[0]
}

/// The cube a player ends up facing when it takes at `cube` while it is
/// close to the end (`away < 2 * cube`) and the other is not: the other
/// side would redouble at once, so the stake is twice the cube.
fn cube_after_automatic_redouble(away: i64, other_away: i64, cube: i64) -> i64 {
    if away < 2 * cube && other_away >= 2 * cube {
        2 * cube
    } else {
        cube
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chances(p: [f64; 5]) -> Chances {
        Chances { win: p[0], win_gammon: p[1], win_backgammon: p[2], lose_gammon: p[3], lose_backgammon: p[4] }
    }

    #[test]
    fn money_formulas_meet_the_textbook_points() {
        // Without gammons the take point is 0.2 and the cash point 0.8 for a
        // live cube (W = L = 1): a centered live cube is -1 at 20% and +1 at 80%.
        let centered = CubeState::money();
        let live = |p: f64, s: &CubeState| money(&chances([p, 0.0, 0.0, 0.0, 0.0]), s, 1.0);
        assert!((live(0.2, &centered) + 1.0).abs() < 1e-12);
        assert!((live(0.8, &centered) - 1.0).abs() < 1e-12);
        assert!((live(0.5, &centered)).abs() < 1e-12);
        // A dead cube is the cubeless equity.
        let p = chances([0.6, 0.2, 0.05, 0.1, 0.01]);
        let cubeless = 2.0 * 0.6 - 1.0 + 0.2 - 0.1 + 0.05 - 0.01;
        assert!((money(&p, &centered, 0.0) - cubeless).abs() < 1e-12);
        // Owning the cube is worth more than a centered cube, which is worth
        // more than the opponent's cube.
        let mine = centered.doubled().flip();
        let theirs = centered.doubled();
        let x = 0.68;
        assert!(money(&p, &mine, x) > money(&p, &centered, x));
        assert!(money(&p, &centered, x) > money(&p, &theirs, x));
        // Jacoby: gammons do not count with a centered cube.
        let jacoby = CubeState { jacoby: true, ..centered };
        assert!((money(&p, &jacoby, 0.0) - 0.2).abs() < 1e-12);
    }
}
