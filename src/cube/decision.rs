//! A cube decision: the three equities of the player on roll before its
//! roll (no double, double/take, double/pass) and what they say to do.
//!
//! The classes follow the usual analysis vocabulary (GNU Backgammon's, XG's):
//! with ND, DT and DP the doubler's equities,
//! - DT and DP both at least ND: a double; the taker takes if DT < DP
//!   (else passes), and in money play with beavers beavers when DT < 0;
//! - otherwise no double: "too good" when ND beats DP (playing on for a
//!   gammon is worth more than cashing), else the taker's answer to a double
//!   it will not get ("no double, take").
//!
//! A double is "optional" when it costs nothing (ND and the double's value
//! agree within 1e-5).

use super::state::{CubeState, Owner};

/// Equal within this much (normalized equity) counts as a tie.
const TIE: f64 = 1e-5;

/// What the doubler should do (and what the taker would answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeAction {
    NoDoubleTake,
    NoDoubleBeaver,
    DoubleTake,
    DoublePass,
    DoubleBeaver,
    TooGoodTake,
    TooGoodPass,
    OptionalDoubleTake,
    OptionalDoublePass,
    OptionalDoubleBeaver,
    /// Match play: the cube cannot help me at this score.
    DeadCube,
    /// I may not double: the opponent owns the cube, the Crawford game, the
    /// cube at its maximum.
    NotAvailable,
}

impl CubeAction {
    /// Whether the action turns the cube.
    pub fn doubles(self) -> bool {
        use CubeAction::*;
        matches!(self, DoubleTake | DoublePass | DoubleBeaver | OptionalDoubleTake | OptionalDoublePass | OptionalDoubleBeaver)
    }

    /// The usual words: "double, take", "no redouble, take", "too good, pass".
    pub fn text(self, redouble: bool) -> String {
        use CubeAction::*;
        let verb = if redouble { "redouble" } else { "double" };
        match self {
            NoDoubleTake => format!("no {verb}, take"),
            NoDoubleBeaver => format!("no {verb}, beaver"),
            DoubleTake => format!("{verb}, take"),
            DoublePass => format!("{verb}, pass"),
            DoubleBeaver => format!("{verb}, beaver"),
            TooGoodTake => "too good, take".to_string(),
            TooGoodPass => "too good, pass".to_string(),
            OptionalDoubleTake => format!("optional {verb}, take"),
            OptionalDoublePass => format!("optional {verb}, pass"),
            OptionalDoubleBeaver => format!("optional {verb}, beaver"),
            DeadCube => format!("no {verb}, take (dead cube)"),
            NotAvailable => "no double available".to_string(),
        }
    }
}

/// The three equities of a cube decision and what follows from them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeDecision {
    /// Normalized to the current cube (money: per cube; match: the
    /// normalized equity of [`super::janowski::mwc_to_equity`]).
    pub no_double: f64,
    pub double_take: f64,
    pub double_pass: f64,
    /// Match play: the same three as match winning chances (money: `None`).
    pub mwc: Option<[f64; 3]>,
    pub action: CubeAction,
    /// The cube was already turned (the decision is a redouble).
    pub redouble: bool,
}

impl CubeDecision {
    /// Classifies the three equities for `state`; `can_win_gammon` says
    /// whether the doubler can still win more than a single game (without
    /// gammons nobody is "too good").
    pub fn classify(
        state: &CubeState,
        no_double: f64,
        double_take: f64,
        double_pass: f64,
        mwc: Option<[f64; 3]>,
        can_win_gammon: bool,
    ) -> CubeDecision {
        let action = if state.may_double() {
            classify(state, no_double, double_take, double_pass, can_win_gammon)
        } else if !state.is_money() && state.owner != Owner::Opponent && !state.crawford {
            CubeAction::DeadCube
        } else {
            CubeAction::NotAvailable
        };
        CubeDecision { no_double, double_take, double_pass, mwc, action, redouble: state.owner == Owner::Me }
    }

    /// The player on roll should turn the cube now.
    pub fn should_double(&self) -> bool {
        self.action.doubles()
    }

    /// If doubled now, the opponent should take (or beaver).
    pub fn should_take(&self) -> bool {
        self.double_take <= self.double_pass
    }

    /// The opponent's best answer could be a beaver (money play).
    pub fn should_beaver(&self, state: &CubeState) -> bool {
        state.is_money() && state.beaver && self.double_take < 0.0 && self.should_take()
    }

    /// The doubler's equity after the best cube action.
    pub fn best(&self) -> f64 {
        if self.action == CubeAction::NotAvailable || self.action == CubeAction::DeadCube {
            return self.no_double;
        }
        let double = self.double_take.min(self.double_pass);
        if double >= self.no_double {
            double
        } else {
            self.no_double
        }
    }

    /// "double, take", "no redouble, take", ...
    pub fn text(&self) -> String {
        self.action.text(self.redouble)
    }
}

fn classify(state: &CubeState, nd: f64, dt: f64, dp: f64, can_win_gammon: bool) -> CubeAction {
    use CubeAction::*;
    let beaver = state.is_money() && state.beaver && (-2.0..=0.0).contains(&dt);
    if dt >= nd && dp >= nd {
        if dp > dt {
            let optional = (dt - nd).abs() <= TIE;
            match (beaver, optional) {
                // With beavers a take below zero is better for the taker
                // beavered; if even twice DT is worse than ND, don't double.
                (true, _) if dt * 2.0 < nd => NoDoubleBeaver,
                (true, true) => OptionalDoubleBeaver,
                (true, false) => DoubleBeaver,
                (false, true) => OptionalDoubleTake,
                (false, false) => DoubleTake,
            }
        } else if (nd - dp).abs() <= TIE && can_win_gammon && (!state.is_money() || state.owner != Owner::Centered || !state.jacoby) {
            OptionalDoublePass
        } else {
            DoublePass
        }
    } else if nd > dt {
        if dt > dp {
            if can_win_gammon {
                TooGoodPass
            } else {
                DoublePass
            }
        } else if nd > dp {
            if can_win_gammon {
                TooGoodTake
            } else {
                NoDoubleTake
            }
        } else if beaver {
            NoDoubleBeaver
        } else {
            NoDoubleTake
        }
    } else if can_win_gammon {
        // DT >= ND > DP.
        TooGoodPass
    } else {
        DoublePass
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(nd: f64, dt: f64, dp: f64) -> CubeDecision {
        CubeDecision::classify(&CubeState::money(), nd, dt, dp, None, true)
    }

    #[test]
    fn the_classes() {
        assert_eq!(decide(0.3, 0.5, 1.0).action, CubeAction::DoubleTake);
        assert_eq!(decide(0.7, 1.2, 1.0).action, CubeAction::DoublePass);
        assert_eq!(decide(0.3, 0.2, 1.0).action, CubeAction::NoDoubleTake);
        assert_eq!(decide(1.1, 1.05, 1.0).action, CubeAction::TooGoodPass);
        assert_eq!(decide(1.1, 0.9, 1.0).action, CubeAction::TooGoodTake);
        assert_eq!(decide(0.3, 0.3, 1.0).action, CubeAction::OptionalDoubleTake);
        let d = decide(0.3, 0.5, 1.0);
        assert!(d.should_double() && d.should_take());
        assert_eq!(d.best(), 0.5);
        assert_eq!(d.text(), "double, take");
        let d = decide(1.1, 1.05, 1.0);
        assert!(!d.should_double() && !d.should_take());
        assert_eq!(d.text(), "too good, pass");
        // Redoubles and beavers.
        let owned = CubeState { value: 2, owner: Owner::Me, ..CubeState::money() };
        let d = CubeDecision::classify(&owned, 0.3, 0.2, 1.0, None, true);
        assert_eq!(d.text(), "no redouble, take");
        let beavers = CubeState { beaver: true, ..CubeState::money() };
        assert_eq!(CubeDecision::classify(&beavers, -0.2, -0.05, 1.0, None, true).action, CubeAction::DoubleBeaver);
        assert_eq!(CubeDecision::classify(&beavers, -0.03, -0.02, 1.0, None, true).action, CubeAction::NoDoubleBeaver);
        // Not mine to turn.
        let theirs = CubeState { value: 2, owner: Owner::Opponent, ..CubeState::money() };
        let d = CubeDecision::classify(&theirs, 0.9, 1.2, 1.0, None, true);
        assert_eq!(d.action, CubeAction::NotAvailable);
        assert!(!d.should_double());
        assert_eq!(d.best(), 0.9);
    }
}
