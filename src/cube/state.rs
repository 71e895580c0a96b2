//! The cube as an evaluation sees it: value, owner and the stakes of the
//! game, always from the side of the player on roll ("me").
//!
//! [`CubeState`] is what a cube decision or a cubeful hint is asked for. It
//! is checked once ([`CubeState::new`]) so the formulas behind it never see a
//! cube that cannot happen: a value that is not a power of two, an owner of a
//! cube still at 1, a score at or past the match length, Crawford in money
//! play, Jacoby or beaver in a match.

use crate::error::{Error, Result};

/// Who may turn the cube next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Centered,
    /// The player on roll.
    Me,
    Opponent,
}

impl Owner {
    /// The same owner seen from the other player.
    pub fn flip(self) -> Owner {
        match self {
            Owner::Centered => Owner::Centered,
            Owner::Me => Owner::Opponent,
            Owner::Opponent => Owner::Me,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Owner::Centered => "centered",
            Owner::Me => "me",
            Owner::Opponent => "opponent",
        }
    }
}

/// The highest cube value tavla accepts (gnubg's limit as well).
pub const MAX_CUBE: u32 = 1 << 15;

/// The longest match tavla's match equity tables cover.
pub const MAX_MATCH_LENGTH: u32 = 64;

/// A cube and the stakes around it, from the player on roll's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CubeState {
    pub value: u32,
    pub owner: Owner,
    /// 0 for money play.
    pub match_length: u32,
    /// Points already won: `[me, opponent]`.
    pub score: [u32; 2],
    /// This game is the Crawford game (nobody may double).
    pub crawford: bool,
    /// Money play: gammons count single until the cube is turned.
    pub jacoby: bool,
    /// Money play: the taker may beaver.
    pub beaver: bool,
    /// The cube may not be turned past this value.
    pub max_value: u32,
}

impl Default for CubeState {
    /// A centered cube in a money game without Jacoby or beavers.
    fn default() -> Self {
        CubeState::money()
    }
}

impl CubeState {
    /// A centered cube in a money game without Jacoby or beavers.
    pub const fn money() -> CubeState {
        CubeState {
            value: 1,
            owner: Owner::Centered,
            match_length: 0,
            score: [0, 0],
            crawford: false,
            jacoby: false,
            beaver: false,
            max_value: 64,
        }
    }

    /// A checked cube state; the error names what is impossible.
    #[allow(clippy::too_many_arguments)] // a cube state's fields, each checked here and named in the error
    pub fn new(
        value: u32,
        owner: Owner,
        match_length: u32,
        score: [u32; 2],
        crawford: bool,
        jacoby: bool,
        beaver: bool,
        max_value: u32,
    ) -> Result<CubeState> {
        let state = CubeState { value, owner, match_length, score, crawford, jacoby, beaver, max_value };
        state.check()?;
        Ok(state)
    }

    /// Why this state cannot happen, or `Ok`.
    pub fn check(&self) -> Result<()> {
        if !self.max_value.is_power_of_two() || self.max_value > MAX_CUBE {
            return Err(Error::new(format!("the maximum cube must be a power of two up to {MAX_CUBE}, not {}", self.max_value)));
        }
        if !self.value.is_power_of_two() {
            return Err(Error::new(format!("the cube value must be a power of two (1, 2, 4, ...), not {}", self.value)));
        }
        if self.value > self.max_value {
            return Err(Error::new(format!("the cube value {} is above the maximum cube {}", self.value, self.max_value)));
        }
        match (self.owner, self.value) {
            (Owner::Centered, v) if v > 1 => {
                return Err(Error::new(format!("a cube at {v} has an owner: say who owns it (me or opponent)")))
            }
            (Owner::Me | Owner::Opponent, 1) => return Err(Error::new("a cube still at 1 is centered: it has no owner")),
            _ => {}
        }
        if self.match_length == 0 {
            if self.crawford {
                return Err(Error::new("there is no Crawford game in money play"));
            }
            if self.score != [0, 0] {
                return Err(Error::new(format!("money play has no score, not {:?}", self.score)));
            }
            return Ok(());
        }
        if self.match_length > MAX_MATCH_LENGTH {
            return Err(Error::new(format!("match length must be 1 to {MAX_MATCH_LENGTH} (0 for money), not {}", self.match_length)));
        }
        if self.jacoby {
            return Err(Error::new("the Jacoby rule is for money play, not for a match"));
        }
        if self.beaver {
            return Err(Error::new("beavers are for money play, not for a match"));
        }
        for (who, points) in ["my", "the opponent's"].iter().zip(self.score) {
            if points >= self.match_length {
                return Err(Error::new(format!(
                    "{who} score {points} is not below the match length {}: the match is over",
                    self.match_length
                )));
            }
        }
        if self.crawford {
            check_crawford_score(self.match_length, self.score)?;
        }
        Ok(())
    }

    pub fn is_money(&self) -> bool {
        self.match_length == 0
    }

    /// Points each player still needs: `[me, opponent]` (match play).
    pub fn away(&self) -> [u32; 2] {
        [self.match_length - self.score[0], self.match_length - self.score[1]]
    }

    /// A match game after the Crawford game: someone is one point away.
    pub fn is_post_crawford(&self) -> bool {
        !self.is_money() && !self.crawford && self.away().contains(&1)
    }

    /// Whether the player on roll may (re)double now, before rolling: the
    /// cube is centered or its own, below the maximum, and in a match it is
    /// not the Crawford game, the cube is not already enough to win the
    /// match, and post-Crawford the leader does not double.
    pub fn may_double(&self) -> bool {
        let access = matches!(self.owner, Owner::Centered | Owner::Me);
        if !access || self.value * 2 > self.max_value {
            return false;
        }
        if self.is_money() {
            return true;
        }
        // A cube worth at least what I still need is dead for me; this also
        // keeps the post-Crawford leader (one point away) from doubling.
        !self.crawford && self.value < self.away()[0]
    }

    /// The state seen from the opponent (who is on roll after my play).
    pub fn flip(&self) -> CubeState {
        CubeState { owner: self.owner.flip(), score: [self.score[1], self.score[0]], ..*self }
    }

    /// After I double and the opponent takes: twice the value, theirs.
    pub fn doubled(&self) -> CubeState {
        CubeState { value: self.value * 2, owner: Owner::Opponent, ..*self }
    }

    /// A short description: "money, cube 2 (opponent)", "7-point match at 2-4 (Crawford), cube 1".
    pub fn describe(&self) -> String {
        let cube = match self.owner {
            Owner::Centered => format!("cube {} centered", self.value),
            owner => format!("cube {} ({})", self.value, owner.name()),
        };
        if self.is_money() {
            let mut rules = String::new();
            if self.jacoby {
                rules.push_str(", Jacoby");
            }
            if self.beaver {
                rules.push_str(", beavers");
            }
            format!("money{rules}, {cube}")
        } else {
            let phase = if self.crawford {
                " (Crawford)"
            } else if self.is_post_crawford() {
                " (post-Crawford)"
            } else {
                ""
            };
            format!("{}-point match at {}-{}{phase}, {cube}", self.match_length, self.score[0], self.score[1])
        }
    }
}

/// The Crawford game is played at a score where exactly one player is one
/// point from winning the match (the rule of every game, match and cube
/// state that says it is the Crawford game).
pub fn check_crawford_score(match_length: u32, score: [u32; 2]) -> Result<()> {
    let at_match_point = score.iter().filter(|&&s| s + 1 == match_length).count();
    if match_length == 0 || at_match_point != 1 {
        return Err(Error::new(format!(
            "the Crawford game needs exactly one player one point from winning the {match_length}-point match, not the score {}-{}",
            score[0], score[1]
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(value: u32, owner: Owner, length: u32, score: [u32; 2], crawford: bool) -> Result<CubeState> {
        CubeState::new(value, owner, length, score, crawford, false, false, 64)
    }

    #[test]
    fn impossible_states_are_refused_with_their_reason() {
        let bad = |r: Result<CubeState>, word: &str| {
            let message = r.unwrap_err().to_string();
            assert!(message.contains(word), "{message:?} should mention {word:?}");
        };
        bad(state(3, Owner::Me, 0, [0, 0], false), "power of two");
        bad(state(128, Owner::Me, 0, [0, 0], false), "maximum");
        bad(state(1, Owner::Me, 0, [0, 0], false), "centered");
        bad(state(2, Owner::Centered, 0, [0, 0], false), "owner");
        bad(state(1, Owner::Centered, 0, [0, 0], true), "Crawford");
        bad(state(1, Owner::Centered, 7, [7, 0], false), "match is over");
        bad(state(1, Owner::Centered, 7, [2, 3], true), "Crawford");
        bad(state(1, Owner::Centered, 7, [6, 6], true), "Crawford");
        bad(state(1, Owner::Centered, 65, [0, 0], false), "match length");
        bad(CubeState::new(1, Owner::Centered, 5, [0, 0], false, true, false, 64), "Jacoby");
        bad(CubeState::new(1, Owner::Centered, 5, [0, 0], false, false, true, 64), "beaver");
        assert!(state(1, Owner::Centered, 7, [6, 3], true).is_ok());
        assert!(state(4, Owner::Opponent, 7, [2, 3], false).is_ok());
    }

    #[test]
    fn who_may_double() {
        let money = CubeState::money();
        assert!(money.may_double());
        assert!(!money.doubled().may_double(), "the taker owns the cube");
        assert!(money.doubled().flip().may_double(), "... and may redouble");
        let at_max = CubeState { value: 64, owner: Owner::Me, ..money };
        assert!(!at_max.may_double());
        // Crawford game: nobody; post-Crawford: the trailer only.
        let crawford = state(1, Owner::Centered, 7, [6, 3], true).unwrap();
        assert!(!crawford.may_double() && !crawford.flip().may_double());
        let post = state(1, Owner::Centered, 7, [6, 3], false).unwrap();
        assert!(post.is_post_crawford());
        assert!(!post.may_double(), "the leader gains nothing by doubling");
        assert!(post.flip().may_double());
        // A cube that already wins me the match is dead for me.
        let dead = state(4, Owner::Me, 7, [3, 0], false).unwrap();
        assert!(!dead.may_double());
        assert_eq!(post.flip().score, [3, 6]);
        assert_eq!(post.describe(), "7-point match at 6-3 (post-Crawford), cube 1 centered");
    }
}
