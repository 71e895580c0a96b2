//! The doubling cube (RULES.md section 1), the same in every variant.

use crate::error::{Error, Result};

/// Which cube options a game is played with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CubeRules {
    /// Whether the cube is used at all.
    pub enabled: bool,
    /// Money play: the taker may at once redouble and keep the cube.
    pub beaver: bool,
    /// Money play: gammons and backgammons count single unless the cube was turned.
    pub jacoby: bool,
    /// The highest value the cube may reach.
    pub max_value: u32,
}

impl Default for CubeRules {
    fn default() -> Self {
        CubeRules { enabled: true, beaver: false, jacoby: false, max_value: 64 }
    }
}

/// The cube during a game: its value and who owns it (`None`: centered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cube {
    pub value: u32,
    pub owner: Option<usize>,
}

impl Default for Cube {
    fn default() -> Self {
        Cube { value: 1, owner: None }
    }
}

impl Cube {
    /// Why `player` may not double now, or `Ok` if it may (before its roll).
    pub fn check_double(&self, player: usize, rules: &CubeRules, crawford_game: bool) -> Result<()> {
        if !rules.enabled {
            return Err(Error::new("this game is played without the doubling cube"));
        }
        if crawford_game {
            return Err(Error::new("nobody may double in the Crawford game"));
        }
        if let Some(owner) = self.owner {
            if owner != player {
                return Err(Error::new(format!("the cube is not yours to turn: player {owner} owns it at {}", self.value)));
            }
        }
        if self.value * 2 > rules.max_value {
            return Err(Error::new(format!("the cube is already at its limit of {}", rules.max_value)));
        }
        Ok(())
    }

    /// The taker owns the cube at twice the value.
    pub fn take(&mut self, taker: usize) {
        self.value *= 2;
        self.owner = Some(taker);
    }

    /// A beaver: the taker redoubles at once and keeps the cube (value x4).
    pub fn beaver(&mut self, taker: usize) {
        self.value *= 4;
        self.owner = Some(taker);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ownership_decides_who_may_double() {
        let rules = CubeRules::default();
        let mut cube = Cube::default();
        assert!(cube.check_double(0, &rules, false).is_ok());
        assert!(cube.check_double(1, &rules, false).is_ok());
        assert!(cube.check_double(0, &rules, true).unwrap_err().to_string().contains("Crawford"));
        cube.take(1);
        assert_eq!(cube, Cube { value: 2, owner: Some(1) });
        assert!(cube.check_double(0, &rules, false).unwrap_err().to_string().contains("not yours"));
        assert!(cube.check_double(1, &rules, false).is_ok());
        cube.beaver(0);
        assert_eq!(cube, Cube { value: 8, owner: Some(0) });
        cube.take(1);
        cube.take(0);
        cube.take(1);
        assert_eq!(cube.value, 64);
        assert!(cube.check_double(1, &rules, false).unwrap_err().to_string().contains("limit"));
        let off = CubeRules { enabled: false, ..rules };
        assert!(Cube::default().check_double(0, &off, false).is_err());
    }
}
