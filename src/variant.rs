//! The five games and their rule options, as `shared/RULES.md` names them.
//!
//! A [`Rules`] value travels inside every position: move generation, results
//! and formats all read their behaviour from it, so two positions with the same
//! checkers but different options are different positions.

use crate::error::{Error, Result};

/// The game being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Short (standard) backgammon: hitting, a bar, opposite directions.
    Backgammon,
    /// Long nardy: no hitting, both players move the same way, head and six-fence rules.
    Nardy,
    /// Gul bara: the long-nardy board with cascading doubles.
    GulBara,
    /// Dutch backgammon (RULES.md 5.1): the backgammon board, every checker
    /// starts in reserve, no hitting before a checker is home.
    Dutch,
    /// Acey-deucey (RULES.md 5.2): the backgammon board, every checker starts
    /// in reserve, the 1-2 roll names a double and rolls again.
    AceyDeucey,
}

impl Variant {
    pub const ALL: [Variant; 5] = [Variant::Backgammon, Variant::Nardy, Variant::GulBara, Variant::Dutch, Variant::AceyDeucey];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Backgammon => "backgammon",
            Variant::Nardy => "nardy",
            Variant::GulBara => "gulbara",
            Variant::Dutch => "dutch",
            Variant::AceyDeucey => "acey_deucey",
        }
    }

    pub fn parse(name: &str) -> Result<Variant> {
        match name.to_ascii_lowercase().replace(['-', '_', ' '], "").as_str() {
            "backgammon" | "bg" | "short" | "shortbackgammon" => Ok(Variant::Backgammon),
            "nardy" | "longnardy" | "nard" | "narde" | "long" => Ok(Variant::Nardy),
            "gulbara" | "gul" | "crazy" | "crazynarde" | "rosespring" => Ok(Variant::GulBara),
            "dutch" | "dutchbackgammon" | "hollanda" => Ok(Variant::Dutch),
            "aceydeucey" | "acey" | "onetwo" | "biriki" => Ok(Variant::AceyDeucey),
            _ => Err(Error::new(format!(
                "unknown variant {name:?}: expected \"backgammon\", \"nardy\", \"gulbara\", \"dutch\" or \"acey_deucey\""
            ))),
        }
    }

    /// The backgammon-board games have hitting and a bar; the two nardy games
    /// share a board where both players run the same way round.
    #[inline]
    pub fn has_contact_hits(self) -> bool {
        matches!(self, Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey)
    }

    /// The games that start with every checker in reserve (RULES.md section 5).
    #[inline]
    pub fn has_reserve(self) -> bool {
        matches!(self, Variant::Dutch | Variant::AceyDeucey)
    }
}

/// A rule option that takes one of a few named values: the one table of its
/// names, read both ways (an option's value from its name, its name back).
pub trait Choice: Copy + PartialEq + 'static {
    const CHOICES: &'static [(Self, &'static str)];

    fn name(self) -> &'static str {
        Self::CHOICES.iter().find(|(choice, _)| *choice == self).map(|(_, name)| *name).expect("every choice is named")
    }

    /// The choice called `value`, or an error listing the names `option` takes.
    fn parse(option: &str, value: &str) -> Result<Self> {
        if let Some((choice, _)) = Self::CHOICES.iter().find(|(_, name)| *name == value) {
            return Ok(*choice);
        }
        let names: Vec<String> = Self::CHOICES.iter().map(|(_, name)| format!("{name:?}")).collect();
        let listed = match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        Err(Error::new(format!("{option} must be {listed}, not {value:?}")))
    }
}

/// Long nardy's first-turn head exception (RULES.md section 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeadException {
    /// Two head checkers may leave on the first turn with 6-6, 4-4 or 3-3.
    Listed,
    /// A second head checker may leave on the first turn exactly when one alone
    /// cannot play the roll in full.
    Blocked,
    /// Two head checkers with 6-6, 4-4 or 3-3 on the first turn, and only when
    /// the first closed point on a lone head checker's path is the opponent's head.
    HeadBlocked,
}

impl Choice for HeadException {
    const CHOICES: &'static [(Self, &'static str)] =
        &[(HeadException::Listed, "listed"), (HeadException::Blocked, "blocked"), (HeadException::HeadBlocked, "head_blocked")];
}

/// Long nardy's first roll of the game (RULES.md section 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpeningRoll {
    /// The starter rolls both dice again for its first turn.
    Reroll,
    /// The starter plays the two roll-off dice (so it never opens with a double).
    SingleDice,
}

impl Choice for OpeningRoll {
    const CHOICES: &'static [(Self, &'static str)] = &[(OpeningRoll::Reroll, "reroll"), (OpeningRoll::SingleDice, "single_dice")];
}

/// Which six-point fences (primes) a player may hold at the end of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenceRule {
    /// Allowed only with an opponent checker ahead of the fence (or borne off).
    Ahead,
    /// Allowed only once an opponent checker has entered its home (or borne off).
    Home,
    /// Any fence is allowed.
    None,
}

impl Choice for FenceRule {
    const CHOICES: &'static [(Self, &'static str)] = &[(FenceRule::Ahead, "ahead"), (FenceRule::Home, "home"), (FenceRule::None, "none")];
}

/// Who starts the next game of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NextGameStarter {
    Winner,
    Alternate,
}

impl Choice for NextGameStarter {
    const CHOICES: &'static [(Self, &'static str)] = &[(NextGameStarter::Winner, "winner"), (NextGameStarter::Alternate, "alternate")];
}

/// A variant together with every rule option RULES.md names for it.
///
/// Options that do not belong to a variant keep their neutral value there
/// (for example backgammon never has a head rule); [`Rules::set`] refuses to
/// set them, so a typo or a misplaced option is an error, not a silent no-op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub variant: Variant,
    /// At most one checker leaves the head per turn (always on in nardy, an option in gul bara).
    pub head_rule: bool,
    pub first_turn_head_exception: HeadException,
    pub fence_rule: FenceRule,
    /// Nardy: whether the starter rolls again or plays the roll-off dice.
    pub opening_roll: OpeningRoll,
    /// Gul bara: bear off only with the exact number.
    pub exact_bearoff: bool,
    /// Nardy and gul bara: a triple result when the loser is caught far back.
    pub koks: bool,
    /// Nardy and gul bara: the non-starter gets a last roll to draw.
    pub last_roll_draw: bool,
    /// Gul bara: doubles cascade only after this many rolls of the game.
    pub cascade_after_rolls: u8,
    pub next_game_starter: NextGameStarter,
    /// Dutch: no checker on the board moves while any is in reserve.
    pub enter_all_first: bool,
}

/// The names accepted by [`Rules::set`], per variant, for error messages.
const COMMON_OPTIONS: &[&str] = &["next_game_starter"];
const NARDY_OPTIONS: &[&str] = &["first_turn_head_exception", "opening_roll", "fence_rule", "koks", "last_roll_draw"];
const DUTCH_OPTIONS: &[&str] = &["enter_all_first"];
const GULBARA_OPTIONS: &[&str] =
    &["head_rule", "first_turn_head_exception", "fence_rule", "exact_bearoff", "koks", "last_roll_draw", "cascade_after_rolls"];

/// A rule option's value as it arrives from Python, JSON or the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl OptionValue {
    fn as_bool(&self, name: &str) -> Result<bool> {
        match self {
            OptionValue::Bool(b) => Ok(*b),
            OptionValue::Int(0) => Ok(false),
            OptionValue::Int(1) => Ok(true),
            OptionValue::Str(s) if s == "true" || s == "on" => Ok(true),
            OptionValue::Str(s) if s == "false" || s == "off" => Ok(false),
            other => Err(Error::new(format!("rule option {name} takes true or false, not {other:?}"))),
        }
    }

    fn as_str(&self, name: &str) -> Result<&str> {
        match self {
            OptionValue::Str(s) => Ok(s),
            other => Err(Error::new(format!("rule option {name} takes a name, not {other:?}"))),
        }
    }
}

impl Rules {
    /// The defaults of RULES.md for a variant.
    pub fn new(variant: Variant) -> Rules {
        Rules {
            variant,
            head_rule: variant == Variant::Nardy,
            first_turn_head_exception: HeadException::Listed,
            opening_roll: OpeningRoll::Reroll,
            fence_rule: if variant == Variant::Nardy { FenceRule::Ahead } else { FenceRule::None },
            exact_bearoff: false,
            koks: false,
            last_roll_draw: false,
            cascade_after_rolls: if variant == Variant::GulBara { 3 } else { 0 },
            next_game_starter: NextGameStarter::Winner,
            enter_all_first: variant == Variant::Dutch,
        }
    }

    pub fn backgammon() -> Rules {
        Rules::new(Variant::Backgammon)
    }
    pub fn nardy() -> Rules {
        Rules::new(Variant::Nardy)
    }
    pub fn gulbara() -> Rules {
        Rules::new(Variant::GulBara)
    }
    pub fn dutch() -> Rules {
        Rules::new(Variant::Dutch)
    }
    pub fn acey_deucey() -> Rules {
        Rules::new(Variant::AceyDeucey)
    }

    /// Whether the starter plays the two roll-off dice as its first roll
    /// (short backgammon, and long nardy with `opening_roll = single_dice`)
    /// rather than rolling both dice again.
    pub fn starter_plays_opening_dice(&self) -> bool {
        self.variant.has_contact_hits() || self.opening_roll == OpeningRoll::SingleDice
    }

    fn allowed_options(&self) -> Vec<&'static str> {
        let specific: &[&str] = match self.variant {
            Variant::Backgammon | Variant::AceyDeucey => &[],
            Variant::Dutch => DUTCH_OPTIONS,
            Variant::Nardy => NARDY_OPTIONS,
            Variant::GulBara => GULBARA_OPTIONS,
        };
        COMMON_OPTIONS.iter().chain(specific).copied().collect()
    }

    /// Sets one option by name, checking that it belongs to this variant.
    pub fn set(&mut self, name: &str, value: &OptionValue) -> Result<()> {
        let allowed = self.allowed_options();
        if !allowed.contains(&name) {
            return Err(Error::new(format!(
                "unknown rule option {name:?} for {}: the options are {}",
                self.variant.name(),
                if allowed.is_empty() { "none".to_string() } else { allowed.join(", ") }
            )));
        }
        match name {
            "head_rule" => self.head_rule = value.as_bool(name)?,
            "exact_bearoff" => self.exact_bearoff = value.as_bool(name)?,
            "koks" => self.koks = value.as_bool(name)?,
            "last_roll_draw" => self.last_roll_draw = value.as_bool(name)?,
            "enter_all_first" => self.enter_all_first = value.as_bool(name)?,
            "first_turn_head_exception" => self.first_turn_head_exception = Choice::parse(name, value.as_str(name)?)?,
            "opening_roll" => self.opening_roll = Choice::parse(name, value.as_str(name)?)?,
            "fence_rule" => self.fence_rule = Choice::parse(name, value.as_str(name)?)?,
            "cascade_after_rolls" => match value {
                OptionValue::Int(n) if (0..=255).contains(n) => self.cascade_after_rolls = *n as u8,
                other => return Err(Error::new(format!("cascade_after_rolls takes a whole number of rolls from 0 to 255, not {other:?}"))),
            },
            "next_game_starter" => self.next_game_starter = Choice::parse(name, value.as_str(name)?)?,
            _ => unreachable!("every allowed option is handled above"),
        }
        Ok(())
    }

    /// Every option of this variant with its current value, in a stable order.
    pub fn options(&self) -> Vec<(&'static str, OptionValue)> {
        self.allowed_options()
            .into_iter()
            .map(|name| {
                let value = match name {
                    "head_rule" => OptionValue::Bool(self.head_rule),
                    "exact_bearoff" => OptionValue::Bool(self.exact_bearoff),
                    "koks" => OptionValue::Bool(self.koks),
                    "last_roll_draw" => OptionValue::Bool(self.last_roll_draw),
                    "enter_all_first" => OptionValue::Bool(self.enter_all_first),
                    "cascade_after_rolls" => OptionValue::Int(self.cascade_after_rolls as i64),
                    "first_turn_head_exception" => OptionValue::Str(self.first_turn_head_exception.name().into()),
                    "opening_roll" => OptionValue::Str(self.opening_roll.name().into()),
                    "fence_rule" => OptionValue::Str(self.fence_rule.name().into()),
                    "next_game_starter" => OptionValue::Str(self.next_game_starter.name().into()),
                    _ => unreachable!("allowed_options lists only handled names"),
                };
                (name, value)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_rules_md() {
        let n = Rules::nardy();
        assert!(n.head_rule);
        assert_eq!(n.fence_rule, FenceRule::Ahead);
        let g = Rules::gulbara();
        assert!(!g.head_rule);
        assert_eq!(g.fence_rule, FenceRule::None);
        assert_eq!(g.cascade_after_rolls, 3);
    }

    #[test]
    fn options_are_checked_per_variant() {
        let mut b = Rules::backgammon();
        assert!(b.set("head_rule", &OptionValue::Bool(true)).is_err());
        let mut n = Rules::nardy();
        assert!(n.set("head_rule", &OptionValue::Bool(false)).is_err());
        n.set("fence_rule", &OptionValue::Str("home".into())).unwrap();
        assert_eq!(n.fence_rule, FenceRule::Home);
        let err = n.set("fence_rule", &OptionValue::Str("wall".into())).unwrap_err();
        assert!(err.to_string().contains("fence_rule"));
        let mut g = Rules::gulbara();
        g.set("head_rule", &OptionValue::Bool(true)).unwrap();
        assert!(g.head_rule);
    }

    #[test]
    fn choices_round_trip_and_name_what_they_take() {
        fn round_trip<T: Choice + std::fmt::Debug>() {
            for &(choice, name) in T::CHOICES {
                assert_eq!(choice.name(), name);
                assert_eq!(T::parse("x", name).unwrap(), choice);
            }
        }
        round_trip::<HeadException>();
        round_trip::<OpeningRoll>();
        round_trip::<FenceRule>();
        round_trip::<NextGameStarter>();
        let err = HeadException::parse("first_turn_head_exception", "never").unwrap_err();
        assert_eq!(err.to_string(), "first_turn_head_exception must be \"listed\", \"blocked\" or \"head_blocked\", not \"never\"");
        let err = OpeningRoll::parse("opening_roll", "").unwrap_err();
        assert_eq!(err.to_string(), "opening_roll must be \"reroll\" or \"single_dice\", not \"\"");
    }

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(Variant::parse(v.name()).unwrap(), v);
        }
        assert!(Variant::parse("chess").is_err());
    }
}
