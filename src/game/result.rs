//! How a game ends and what it is worth.

use crate::position::{Position, CHECKERS, ME, THEM};
use crate::variant::Variant;

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The winner bore off all its checkers.
    BoreOff,
    /// The loser passed a double.
    CubePassed,
    /// Long nardy / gul bara `last_roll_draw`: both players finished.
    Draw,
}

/// The end of a game: who won, how much, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// Player 0 or 1; `None` for a draw.
    pub winner: Option<usize>,
    /// 1 single / oin, 2 gammon / mars, 3 backgammon / koks, 0 a draw.
    pub multiplier: u8,
    /// The cube value when the game ended.
    pub cube: u32,
    /// `multiplier * cube`, after the Jacoby rule where it applies.
    pub points: u32,
    pub ending: Ending,
}

impl GameResult {
    /// The usual name of the result in its variant.
    pub fn kind_name(&self, variant: Variant) -> &'static str {
        let names: [&str; 3] = match variant {
            Variant::Backgammon => ["single", "gammon", "backgammon"],
            Variant::Nardy | Variant::GulBara => ["oin", "mars", "koks"],
        };
        match self.multiplier {
            0 => "draw",
            m => names[(m as usize - 1).min(2)],
        }
    }
}

/// The result multiplier when the mover (ME) of `pos` has borne off all its
/// checkers: RULES.md sections 2 and 3.
pub fn bear_off_multiplier(pos: &Position) -> u8 {
    debug_assert_eq!(pos.off(ME), CHECKERS);
    if pos.off(THEM) > 0 {
        return 1;
    }
    match pos.variant() {
        Variant::Backgammon => {
            // The loser's points 19..24 are the winner's home, 1..6.
            let caught = pos.bar(THEM) > 0 || pos.occupied(THEM) & crate::position::HOME_MASK != 0;
            if caught {
                3
            } else {
                2
            }
        }
        Variant::Nardy | Variant::GulBara => {
            // Koks: a checker still on the loser's points 13..24, which are the
            // winner's points 1..12 (its home and the quarter behind it).
            if pos.rules().koks && pos.occupied(THEM) & 0xFFF != 0 {
                3
            } else {
                2
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{OptionValue, Rules};

    fn arrays(points: &[(usize, i64)]) -> [i64; 25] {
        let mut a = [0i64; 25];
        for &(p, n) in points {
            a[p - 1] = n;
        }
        a
    }

    #[test]
    fn backgammon_results() {
        let r = Rules::backgammon();
        let won = [0i64; 25];
        // Loser has one checker off: single.
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 14)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 1);
        // None off, all home: gammon.
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 15)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 2);
        // None off, one on its 19 (the winner's home): backgammon.
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 14), (19, 1)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 3);
        // None off, one on the bar: backgammon.
        let mut loser = arrays(&[(6, 14)]);
        loser[24] = 1;
        let p = Position::from_arrays(r, &won, &loser).unwrap();
        assert_eq!(bear_off_multiplier(&p), 3);
        // None off, one on its 18 (outside the winner's home): gammon.
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 14), (18, 1)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 2);
    }

    #[test]
    fn nardy_results_with_and_without_koks() {
        let mut r = Rules::nardy();
        let won = [0i64; 25];
        let far_back = arrays(&[(6, 14), (13, 1)]);
        let p = Position::from_arrays(r, &won, &far_back).unwrap();
        assert_eq!(bear_off_multiplier(&p), 2, "mars without koks");
        r.set("koks", &OptionValue::Bool(true)).unwrap();
        let p = Position::from_arrays(r, &won, &far_back).unwrap();
        assert_eq!(bear_off_multiplier(&p), 3, "koks: a checker on its 13");
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 14), (12, 1)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 2, "its 12 is not in or behind the winner's home");
        let p = Position::from_arrays(r, &won, &arrays(&[(6, 13), (13, 1)])).unwrap();
        assert_eq!(bear_off_multiplier(&p), 1, "oin: one checker off");
        let g = GameResult { winner: Some(0), multiplier: 3, cube: 1, points: 3, ending: Ending::BoreOff };
        assert_eq!(g.kind_name(Variant::Nardy), "koks");
        assert_eq!(g.kind_name(Variant::Backgammon), "backgammon");
    }
}
