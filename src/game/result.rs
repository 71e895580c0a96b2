//! How a game ended and what it scored (the multiplier of a finished
//! position is [`crate::outcome::bear_off_multiplier`]).

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
            Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => ["single", "gammon", "backgammon"],
            Variant::Nardy | Variant::GulBara => ["oin", "mars", "koks"],
        };
        match self.multiplier {
            0 => "draw",
            m => names[(m as usize - 1).min(2)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_have_their_variant_names() {
        let g = GameResult { winner: Some(0), multiplier: 3, cube: 1, points: 3, ending: Ending::BoreOff };
        assert_eq!(g.kind_name(Variant::Nardy), "koks");
        assert_eq!(g.kind_name(Variant::Backgammon), "backgammon");
        let draw = GameResult { winner: None, multiplier: 0, cube: 1, points: 0, ending: Ending::Draw };
        assert_eq!(draw.kind_name(Variant::GulBara), "draw");
    }
}
