//! Python classes for whole games and matches (`tavla.Game`, `tavla.Match`)
//! and the position formats (`tavla.formats`). Conversion only: the rules and
//! the state live in `crate::game`, the texts (positions, game and match
//! records) in `crate::formats`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString};

use super::{opt_whole_arg, rules_dict, rules_from_kwargs, value_error, whole_arg, whole_pair, PyMove, PyPosition};
use crate::dice::Dice;
use crate::error::Error;
use crate::formats::{self, record};
use crate::game::matches::Match;
use crate::game::players::{play_out, simulate, Strategy};
use crate::game::{Cube, CubeRules, Event, Game, GameResult, Snapshot, Stakes};
use crate::notation::format_named;
use crate::parallel::par_map;
use crate::variant::Variant;

fn seed_or_random(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        Dice::new(t as u64 ^ std::process::id() as u64).next_u64()
    })
}

fn cube_rules(cube: bool, beaver: bool, jacoby: bool, max_cube: u32) -> PyResult<CubeRules> {
    let most = crate::cube::state::MAX_CUBE;
    if !max_cube.is_power_of_two() || max_cube > most {
        return Err(PyValueError::new_err(format!("max_cube must be a power of two up to {most}, not {max_cube}")));
    }
    Ok(CubeRules { enabled: cube, beaver, jacoby, max_value: max_cube })
}

fn dice_arg(dice: Option<&Bound<'_, PyAny>>) -> PyResult<Option<[u8; 2]>> {
    match dice.filter(|d| !d.is_none()).map(|d| whole_pair::<i64>(d, "dice")).transpose()? {
        None => Ok(None),
        Some((a, b)) => Ok(Some([crate::movegen::check_die(a).map_err(value_error)?, crate::movegen::check_die(b).map_err(value_error)?])),
    }
}

fn result_dict<'py>(py: Python<'py>, r: &GameResult, variant: Variant) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("winner", r.winner)?;
    d.set_item("multiplier", r.multiplier)?;
    d.set_item("kind", r.kind_name(variant))?;
    d.set_item("cube", r.cube)?;
    d.set_item("points", r.points)?;
    d.set_item(
        "ending",
        match r.ending {
            crate::game::Ending::BoreOff => "bore_off",
            crate::game::Ending::CubePassed => "cube_passed",
            crate::game::Ending::Draw => "draw",
        },
    )?;
    Ok(d)
}

fn event_dict<'py>(py: Python<'py>, e: &Event) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match e {
        Event::OpeningRoll { dice } => {
            d.set_item("type", "opening_roll")?;
            d.set_item("dice", (dice[0], dice[1]))?;
        }
        Event::Begin { starter } => {
            d.set_item("type", "begin")?;
            d.set_item("starter", starter)?;
        }
        Event::Roll { player, dice, extra } => {
            d.set_item("type", "roll")?;
            d.set_item("player", player)?;
            d.set_item("dice", (dice[0], dice[1]))?;
            if *extra {
                d.set_item("extra", true)?;
            }
        }
        Event::Move { player, play, step, named, rolls_again } => {
            d.set_item("type", "move")?;
            d.set_item("player", player)?;
            d.set_item("play", format_named(play, *named))?;
            if let Some((die, count)) = step {
                d.set_item("step", (die, count))?;
            }
            if let Some(n) = named {
                d.set_item("named", n)?;
            }
            if *rolls_again {
                d.set_item("rolls_again", true)?;
            }
        }
        Event::Double { player } | Event::Take { player } | Event::Beaver { player } | Event::Pass { player } => {
            let name = match e {
                Event::Double { .. } => "double",
                Event::Take { .. } => "take",
                Event::Beaver { .. } => "beaver",
                _ => "pass",
            };
            d.set_item("type", name)?;
            d.set_item("player", player)?;
        }
    }
    Ok(d)
}

/// Plays a move given as an index, a `Move`, or notation text.
fn play_any(game: &mut Game, mv: &Bound<'_, PyAny>) -> PyResult<()> {
    if mv.is_instance_of::<PyString>() {
        let text: String = mv.extract()?;
        game.play_text(&text).map_err(value_error)
    } else if mv.is_instance_of::<PyInt>() {
        let i: i64 = whole_arg(mv, "move index")?;
        if i < 0 {
            return Err(PyValueError::new_err(format!("move index {i} is negative")));
        }
        game.play(i as usize).map_err(value_error)
    } else if let Ok(m) = mv.downcast::<PyMove>() {
        game.play_move(&m.get().inner).map_err(value_error)
    } else {
        Err(PyValueError::new_err(format!("a move is an index, a tavla.Move or notation text, not {}", mv.get_type().name()?)))
    }
}

/// "complete" when `text` names one legal move, "partial" when it could be
/// the start of one; otherwise a ValueError saying what is wrong.
fn entry_status(game: &Game, text: &str) -> PyResult<&'static str> {
    use crate::game::entry;
    if game.phase() != crate::game::Phase::Move {
        return Err(PyValueError::new_err(format!("there is no move to enter: the game is in its {} phase", game.phase().name())));
    }
    match entry::find_move(game.position(), game.legal_moves(), text) {
        Ok(_) => Ok("complete"),
        Err(e) => {
            if !text.trim().is_empty() && entry::is_partial(game.legal_moves(), text).unwrap_or(false) {
                Ok("partial")
            } else {
                Err(value_error(e))
            }
        }
    }
}

fn strategies(players: (String, String)) -> PyResult<[Strategy; 2]> {
    Ok([Strategy::parse(&players.0).map_err(value_error)?, Strategy::parse(&players.1).map_err(value_error)?])
}

/// One game of any variant (backgammon, long nardy, gul bara, Dutch
/// backgammon, acey-deucey), with its dice, cube and result.
#[pyclass(name = "Game", module = "tavla")]
#[derive(Clone)]
pub struct PyGame {
    inner: Game,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (variant = "backgammon", *, seed = None, cube = true, beaver = false, jacoby = false,
                        max_cube = None, match_length = None, score = None, crawford = false, **rules),
           text_signature = "(variant='backgammon', *, seed=None, cube=True, beaver=False, jacoby=False, max_cube=64, match_length=0, score=(0, 0), crawford=False, **rules)")]
    #[allow(clippy::too_many_arguments)] // one parameter per Python argument of Game()
    fn new(
        variant: &str,
        seed: Option<&Bound<'_, PyAny>>,
        cube: bool,
        beaver: bool,
        jacoby: bool,
        max_cube: Option<&Bound<'_, PyAny>>,
        match_length: Option<&Bound<'_, PyAny>>,
        score: Option<&Bound<'_, PyAny>>,
        crawford: bool,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let seed: Option<u64> = opt_whole_arg(seed, "seed")?;
        let max_cube: u32 = opt_whole_arg(max_cube, "max_cube")?.unwrap_or(64);
        let match_length: u32 = opt_whole_arg(match_length, "match_length")?.unwrap_or(0);
        let score: (u32, u32) = score.filter(|s| !s.is_none()).map(|s| whole_pair(s, "score")).transpose()?.unwrap_or((0, 0));
        let rules = rules_from_kwargs(variant, rules)?;
        let stakes = Stakes { match_length, score: [score.0, score.1], crawford_game: crawford };
        let game = Game::new(rules, cube_rules(cube, beaver, jacoby, max_cube)?, stakes, seed_or_random(seed)).map_err(value_error)?;
        Ok(PyGame { inner: game })
    }

    /// A game continuing from a position in any supported text form (XGID,
    /// GNU Backgammon ID, FIBS board, JSON). `rolls` is how many rolls the game
    /// has had (gul bara cascades only after the first three); `starter` is
    /// who started (needed only for `last_roll_draw`).
    #[staticmethod]
    #[pyo3(signature = (text, *, rolls = None, starter = None, seed = None),
           text_signature = "(text, *, rolls=10, starter=None, seed=None)")]
    fn from_position(
        text: &str,
        rolls: Option<&Bound<'_, PyAny>>,
        starter: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let rolls: u32 = opt_whole_arg(rolls, "rolls")?.unwrap_or(10);
        let starter: Option<usize> = opt_whole_arg(starter, "starter")?;
        let seed: Option<u64> = opt_whole_arg(seed, "seed")?;
        let s = formats::parse_any(text).map_err(value_error)?;
        Game::from_snapshot(&s, rolls, starter, seed_or_random(seed)).map(|inner| PyGame { inner }).map_err(value_error)
    }

    /// Replays a game record (JSON from `to_json`) to its end.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        record::game_from_json(text).map(|inner| PyGame { inner }).map_err(value_error)
    }

    /// Every state of a recorded game: the fresh game, then one after each event.
    #[staticmethod]
    fn replay(text: &str) -> PyResult<Vec<PyGame>> {
        Ok(record::replay_game(text).map_err(value_error)?.into_iter().map(|inner| PyGame { inner }).collect())
    }

    /// The game record as JSON (settings, every event, the result).
    fn to_json(&self) -> String {
        record::game_to_json(&self.inner)
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.rules().variant.name()
    }
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rules_dict(py, self.inner.rules())
    }
    /// "opening_roll", "roll", "move", "double_offered" or "over".
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.phase().name()
    }
    /// The player to act: 0 or 1 (while a double is offered: the doubler).
    #[getter]
    fn turn(&self) -> usize {
        self.inner.turn()
    }
    /// The player who must answer an offered double, else None.
    #[getter]
    fn decider(&self) -> Option<usize> {
        self.inner.decider()
    }
    #[getter]
    fn starter(&self) -> Option<usize> {
        self.inner.starter()
    }
    /// The position seen from the player whose turn it is.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition { inner: *self.inner.position() }
    }
    /// The position seen from `player`.
    fn position_for(&self, player: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let player: i64 = whole_arg(player, "player")?;
        if !(0..=1).contains(&player) {
            return Err(PyValueError::new_err(format!("player {player} does not exist: players are 0 and 1")));
        }
        Ok(PyPosition { inner: self.inner.position_for(player as usize) })
    }
    /// The dice being played, or None before the roll.
    #[getter]
    fn dice(&self) -> Option<(u8, u8)> {
        self.inner.dice().map(|d| (d[0], d[1]))
    }
    /// Gul bara: the cascade step being played, (number, moves asked), else None.
    #[getter]
    fn cascade_step(&self) -> Option<(u8, u8)> {
        self.inner.cascade_step()
    }
    /// Whether the player to move is playing the opponent's unplayed cascade moves.
    #[getter]
    fn is_cascade_handover(&self) -> bool {
        self.inner.is_cascade_handover()
    }
    /// Gul bara: the (number, moves) of the cascade still to be played by the
    /// player to move, the current step first ([] outside a cascade): a
    /// handover's remainder is what `Engine.handover` takes.
    #[getter]
    fn cascade_left(&self) -> Vec<(u8, u8)> {
        self.inner.cascade_left().to_vec()
    }
    /// Rolls made before the one being played (before the next, between
    /// rolls): the `rolls` that `Engine.hint` and `best_move` take.
    #[getter]
    fn rolls_before(&self) -> u32 {
        self.inner.rolls_before()
    }
    /// `last_roll_draw`: the starter has finished and the other player has its last turn.
    #[getter]
    fn is_last_turn(&self) -> bool {
        self.inner.is_last_turn()
    }
    /// Acey-deucey: the player on roll rolls again after playing a 1-2 in
    /// full (its turn goes on: no double before this roll).
    #[getter]
    fn is_extra_roll(&self) -> bool {
        self.inner.is_extra_roll()
    }
    #[getter]
    fn rolls(&self) -> u32 {
        self.inner.rolls()
    }
    #[getter]
    fn cube_value(&self) -> u32 {
        self.inner.cube().value
    }
    /// 0, 1, or None while the cube is centered.
    #[getter]
    fn cube_owner(&self) -> Option<usize> {
        self.inner.cube().owner
    }
    #[getter]
    fn match_length(&self) -> u32 {
        self.inner.stakes().match_length
    }
    /// The score before this game (match play).
    #[getter]
    fn score(&self) -> (u32, u32) {
        let s = self.inner.stakes().score;
        (s[0], s[1])
    }
    #[getter]
    fn is_crawford(&self) -> bool {
        self.inner.stakes().crawford_game
    }
    /// Whether the player on roll may double now.
    #[getter]
    fn may_double(&self) -> bool {
        self.inner.may_double()
    }
    /// Why the player on roll may not double now, or None if it may.
    fn why_no_double(&self) -> Option<String> {
        self.inner.check_double().err().map(|e| e.to_string())
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    /// {"winner", "multiplier", "kind", "cube", "points", "ending"} once over, else None.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.inner.result().map(|r| result_dict(py, &r, self.inner.rules().variant)).transpose()
    }
    /// Every event so far, as dicts.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Bound<'py, PyDict>> = self.inner.history().iter().map(|e| event_dict(py, e)).collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    /// One roll-off attempt (dice[p] is player p's die); returns the starter,
    /// or None when the dice were equal.
    #[pyo3(signature = (dice = None))]
    fn roll_off(&mut self, dice: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
        self.inner.roll_off(dice_arg(dice)?).map_err(value_error)
    }
    /// Rolls off until someone starts; returns the starter.
    fn decide_starter(&mut self) -> PyResult<usize> {
        self.inner.decide_starter().map_err(value_error)
    }
    /// Starts without a roll-off, `starter` to roll first.
    fn begin(&mut self, starter: &Bound<'_, PyAny>) -> PyResult<()> {
        let starter: usize = whole_arg(starter, "starter")?;
        self.inner.begin_with(starter).map_err(value_error)
    }
    /// Rolls for the player on turn (seeded dice unless given); returns the dice.
    #[pyo3(signature = (dice = None))]
    fn roll(&mut self, dice: Option<&Bound<'_, PyAny>>) -> PyResult<(u8, u8)> {
        let d = self.inner.roll(dice_arg(dice)?).map_err(value_error)?;
        Ok((d[0], d[1]))
    }
    /// The legal moves now (a pass is one move with no steps).
    fn legal_moves(&self) -> Vec<PyMove> {
        self.inner.legal_moves().iter().map(|&m| PyMove::from(m)).collect()
    }
    /// Plays a move: an index into `legal_moves()`, a `Move`, or notation ("24/18 13/11").
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        play_any(&mut self.inner, mv)
    }
    fn double(&mut self) -> PyResult<()> {
        self.inner.double().map_err(value_error)
    }
    /// "complete" if `text` names one legal move, "partial" if it could start
    /// one (a move entered a part at a time); else ValueError with the reason.
    fn entry_status(&self, text: &str) -> PyResult<&'static str> {
        entry_status(&self.inner, text)
    }
    fn take(&mut self) -> PyResult<()> {
        self.inner.take().map_err(value_error)
    }
    fn beaver(&mut self) -> PyResult<()> {
        self.inner.beaver().map_err(value_error)
    }
    /// Why the player answering a double may not beaver now, or None if it may.
    fn why_no_beaver(&self) -> Option<String> {
        self.inner.check_beaver().err().map(|e| e.to_string())
    }
    /// Passes (drops) the offered double: the doubler wins at the current cube value.
    fn drop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = self.inner.pass().map_err(value_error)?;
        result_dict(py, &r, self.inner.rules().variant)
    }
    /// Plays the rest of the game between trivial players ("random" or "greedy").
    #[pyo3(signature = (players = ("random".to_string(), "random".to_string()), seed = None))]
    fn play_out<'py>(
        &mut self,
        py: Python<'py>,
        players: (String, String),
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seed: Option<u64> = opt_whole_arg(seed, "seed")?;
        let strategies = strategies(players)?;
        let mut picks = Dice::new(seed_or_random(seed));
        let r = play_out(&mut self.inner, strategies, &mut picks).map_err(value_error)?;
        result_dict(py, &r, self.inner.rules().variant)
    }
    /// The index of the move a trivial player ("random" or "greedy") would pick.
    #[pyo3(signature = (player = "greedy", seed = None))]
    fn suggest(&self, player: &str, seed: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
        let seed: Option<u64> = opt_whole_arg(seed, "seed")?;
        if self.inner.legal_moves().is_empty() {
            return Err(PyValueError::new_err("there is no move to choose now"));
        }
        let s = Strategy::parse(player).map_err(value_error)?;
        Ok(s.choose(self.inner.legal_moves(), &mut Dice::new(seed_or_random(seed))))
    }

    fn to_xgid(&self) -> PyResult<String> {
        formats::xgid::write(&Snapshot::of_game(&self.inner)).map_err(value_error)
    }
    /// "PositionID:MatchID".
    fn to_gnubg_id(&self) -> PyResult<String> {
        formats::gnubg::gnubg_id(&Snapshot::of_game(&self.inner)).map_err(value_error)
    }
    #[pyo3(signature = (names = ("player0".to_string(), "player1".to_string())))]
    fn to_fibs(&self, names: (String, String)) -> PyResult<String> {
        formats::fibs::write(&Snapshot::of_game(&self.inner), [&names.0, &names.1]).map_err(value_error)
    }
    /// The position with its context in the project's JSON form.
    fn to_position_json(&self) -> String {
        formats::json::snapshot_to_json(&Snapshot::of_game(&self.inner))
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }
    fn copy(&self) -> Self {
        self.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "<Game {} phase={} turn={} cube={}{}>",
            self.inner.rules().variant.name(),
            self.inner.phase().name(),
            self.inner.turn(),
            self.inner.cube().value,
            self.inner.result().map(|r| format!(" result={:?}/{}", r.winner, r.points)).unwrap_or_default()
        )
    }
}

/// A match to N points: the score, the Crawford game, and the current game.
#[pyclass(name = "Match", module = "tavla")]
pub struct PyMatch {
    inner: Match,
}

#[pymethods]
impl PyMatch {
    #[new]
    #[pyo3(signature = (variant = "backgammon", length = None, *, crawford = true, seed = None, cube = true,
                        max_cube = None, score = None, crawford_game = false, **rules),
           text_signature = "(variant='backgammon', length=5, *, crawford=True, seed=None, cube=True, max_cube=64, score=(0, 0), crawford_game=False, **rules)")]
    #[allow(clippy::too_many_arguments)] // one parameter per Python argument of Match()
    fn new(
        variant: &str,
        length: Option<&Bound<'_, PyAny>>,
        crawford: bool,
        seed: Option<&Bound<'_, PyAny>>,
        cube: bool,
        max_cube: Option<&Bound<'_, PyAny>>,
        score: Option<&Bound<'_, PyAny>>,
        crawford_game: bool,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let length: u32 = opt_whole_arg(length, "length")?.unwrap_or(5);
        let seed: Option<u64> = opt_whole_arg(seed, "seed")?;
        let max_cube: u32 = opt_whole_arg(max_cube, "max_cube")?.unwrap_or(64);
        let score: (u32, u32) = score.filter(|s| !s.is_none()).map(|s| whole_pair(s, "score")).transpose()?.unwrap_or((0, 0));
        let rules = rules_from_kwargs(variant, rules)?;
        let m = Match::with_score(
            rules,
            length,
            crawford,
            cube_rules(cube, false, false, max_cube)?,
            [score.0, score.1],
            crawford_game,
            seed_or_random(seed),
        )
        .map_err(value_error)?;
        Ok(PyMatch { inner: m })
    }

    /// A money session: games one after another with the cube (Jacoby and
    /// beaver allowed), the score the running total of points, never over.
    #[staticmethod]
    #[pyo3(signature = (variant = "backgammon", *, seed = None, cube = true, beaver = false, jacoby = false,
                        max_cube = None, score = None, **rules),
           text_signature = "(variant='backgammon', *, seed=None, cube=True, beaver=False, jacoby=False, max_cube=64, score=(0, 0), **rules)")]
    #[allow(clippy::too_many_arguments)] // one parameter per Python argument of Match.money()
    fn money(
        variant: &str,
        seed: Option<&Bound<'_, PyAny>>,
        cube: bool,
        beaver: bool,
        jacoby: bool,
        max_cube: Option<&Bound<'_, PyAny>>,
        score: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let seed: Option<u64> = opt_whole_arg(seed, "seed")?;
        let max_cube: u32 = opt_whole_arg(max_cube, "max_cube")?.unwrap_or(64);
        let score: (u32, u32) = score.filter(|s| !s.is_none()).map(|s| whole_pair(s, "score")).transpose()?.unwrap_or((0, 0));
        let rules = rules_from_kwargs(variant, rules)?;
        let m = Match::money(rules, cube_rules(cube, beaver, jacoby, max_cube)?, [score.0, score.1], seed_or_random(seed))
            .map_err(value_error)?;
        Ok(PyMatch { inner: m })
    }

    /// A match whose first game continues from a position text (XGID, GNU
    /// Backgammon ID, FIBS board, JSON): its match length (0: a money
    /// session), score, Crawford game, cube and cube rules are the text's.
    /// `crawford` is the Crawford rule; `rolls` and `starter` as in
    /// `Game.from_position`.
    #[staticmethod]
    #[pyo3(signature = (text, *, crawford = true, rolls = None, starter = None, seed = None),
           text_signature = "(text, *, crawford=True, rolls=10, starter=None, seed=None)")]
    fn from_position(
        text: &str,
        crawford: bool,
        rolls: Option<&Bound<'_, PyAny>>,
        starter: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let rolls: u32 = opt_whole_arg(rolls, "rolls")?.unwrap_or(10);
        let starter: Option<usize> = opt_whole_arg(starter, "starter")?;
        let seed: Option<u64> = opt_whole_arg(seed, "seed")?;
        let s = formats::parse_any(text).map_err(value_error)?;
        Match::from_snapshot(&s, rolls, starter, crawford, seed_or_random(seed)).map(|inner| PyMatch { inner }).map_err(value_error)
    }

    /// Replays a match record (JSON from `to_json`).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        record::match_from_json(text).map(|inner| PyMatch { inner }).map_err(value_error)
    }
    fn to_json(&self) -> String {
        record::match_to_json(&self.inner)
    }
    #[getter]
    fn length(&self) -> u32 {
        self.inner.length()
    }
    /// The score, counting the current game once it is over.
    #[getter]
    fn score(&self) -> (u32, u32) {
        let s = self.inner.score();
        (s[0], s[1])
    }
    /// The score the match was joined at, before its first game.
    #[getter]
    fn initial_score(&self) -> (u32, u32) {
        let s = self.inner.initial_score();
        (s[0], s[1])
    }
    /// The match's winner once over; a money session has none.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.inner.winner()
    }
    /// A money session (length 0) rather than a match.
    #[getter]
    fn is_money(&self) -> bool {
        self.inner.is_money()
    }
    /// Whether the Crawford rule is played.
    #[getter]
    fn crawford_rule(&self) -> bool {
        self.inner.crawford_rule()
    }
    /// The current game is the Crawford game.
    #[getter]
    fn is_crawford(&self) -> bool {
        self.inner.is_crawford()
    }
    /// The current game comes after the Crawford game.
    #[getter]
    fn is_post_crawford(&self) -> bool {
        self.inner.is_post_crawford()
    }
    /// The current game is over and the next one is the Crawford game.
    #[getter]
    fn next_is_crawford(&self) -> bool {
        self.inner.next_is_crawford()
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    #[getter]
    fn game_number(&self) -> usize {
        self.inner.game_number()
    }
    /// A copy of the current game, to inspect (act through the match's methods).
    #[getter]
    fn game(&self) -> PyGame {
        PyGame { inner: self.inner.game().clone() }
    }
    /// Copies of the finished games.
    #[getter]
    fn finished_games(&self) -> Vec<PyGame> {
        self.inner.finished_games().iter().map(|g| PyGame { inner: g.clone() }).collect()
    }
    /// Starts the next game (the current one must be over).
    fn next_game(&mut self) -> PyResult<()> {
        self.inner.next_game().map_err(value_error)
    }
    #[pyo3(signature = (dice = None))]
    fn roll_off(&mut self, dice: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
        self.inner.game_mut().roll_off(dice_arg(dice)?).map_err(value_error)
    }
    fn decide_starter(&mut self) -> PyResult<usize> {
        self.inner.game_mut().decide_starter().map_err(value_error)
    }
    /// Starts the current game without a roll-off, `starter` to roll first.
    fn begin(&mut self, starter: &Bound<'_, PyAny>) -> PyResult<()> {
        let starter: usize = whole_arg(starter, "starter")?;
        self.inner.game_mut().begin_with(starter).map_err(value_error)
    }
    #[pyo3(signature = (dice = None))]
    fn roll(&mut self, dice: Option<&Bound<'_, PyAny>>) -> PyResult<(u8, u8)> {
        let d = self.inner.game_mut().roll(dice_arg(dice)?).map_err(value_error)?;
        Ok((d[0], d[1]))
    }
    fn legal_moves(&self) -> Vec<PyMove> {
        self.inner.game().legal_moves().iter().map(|&m| PyMove::from(m)).collect()
    }
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        play_any(self.inner.game_mut(), mv)
    }
    fn double(&mut self) -> PyResult<()> {
        self.inner.game_mut().double().map_err(value_error)
    }
    fn entry_status(&self, text: &str) -> PyResult<&'static str> {
        entry_status(self.inner.game(), text)
    }
    fn suggest(&self, player: &str) -> PyResult<usize> {
        let moves = self.inner.game().legal_moves();
        if moves.is_empty() {
            return Err(PyValueError::new_err("there is no move to choose now"));
        }
        let s = Strategy::parse(player).map_err(value_error)?;
        Ok(s.choose(moves, &mut Dice::new(0)))
    }
    fn take(&mut self) -> PyResult<()> {
        self.inner.game_mut().take().map_err(value_error)
    }
    fn beaver(&mut self) -> PyResult<()> {
        self.inner.game_mut().beaver().map_err(value_error)
    }
    fn drop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let variant = self.inner.rules().variant;
        let r = self.inner.game_mut().pass().map_err(value_error)?;
        result_dict(py, &r, variant)
    }
    /// Plays the rest of the current game between trivial players.
    #[pyo3(signature = (players = ("random".to_string(), "random".to_string()), seed = None))]
    fn play_out<'py>(
        &mut self,
        py: Python<'py>,
        players: (String, String),
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seed: Option<u64> = opt_whole_arg(seed, "seed")?;
        let strategies = strategies(players)?;
        let variant = self.inner.rules().variant;
        let mut picks = Dice::new(seed_or_random(seed));
        let r = play_out(self.inner.game_mut(), strategies, &mut picks).map_err(value_error)?;
        result_dict(py, &r, variant)
    }
    fn __repr__(&self) -> String {
        let s = self.inner.score();
        format!(
            "<Match {} to {} score {}-{} game {}>",
            self.inner.rules().variant.name(),
            self.inner.length(),
            s[0],
            s[1],
            self.inner.game_number()
        )
    }
}

fn match_file_dict<'py>(py: Python<'py>, m: formats::mat::MatFile) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("length", m.length)?;
    d.set_item("players", (m.players[0].clone(), m.players[1].clone()))?;
    d.set_item("score", (m.score[0], m.score[1]))?;
    let games = pyo3::types::PyList::empty(py);
    for g in m.games {
        let item = PyDict::new(py);
        item.set_item("winner", g.winner)?;
        item.set_item("points", g.points)?;
        item.set_item("resigned", g.resigned)?;
        item.set_item("game", Py::new(py, PyGame { inner: g.game })?)?;
        games.append(item)?;
    }
    d.set_item("games", games)?;
    Ok(d)
}

/// Games as a match file holds them: a finished game, or a game with the
/// (winner, points) a resignation gave (checked as a file's would be).
type PlayedArg<'py> = (PyRef<'py, PyGame>, Option<(usize, u32)>);

fn played_games(games: &[PlayedArg<'_>]) -> PyResult<Vec<formats::mat::MatGame>> {
    let mut out = Vec::new();
    for (k, (g, ending)) in games.iter().enumerate() {
        let at = |e: Error| PyValueError::new_err(format!("game {}: {e}", k + 1));
        let game = g.inner.clone();
        out.push(match *ending {
            None => formats::mat::MatGame::of(game).map_err(at)?,
            Some((winner, points)) => {
                if winner > 1 {
                    return Err(at(Error::new(format!("the winner is player 0 or 1, not {winner}"))));
                }
                let resigned = formats::mat::game_ending(&game, winner, points).map_err(at)?;
                formats::mat::MatGame { game, winner, points, resigned }
            }
        });
    }
    Ok(out)
}

/// Reads a Jellyfish `.mat` match file: {"length", "players", "score",
/// "games": [{"game", "winner", "points", "resigned"}]}, every game replayed
/// through the rules (ValueError naming the line otherwise).
#[pyfunction]
fn _read_mat<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyDict>> {
    let m = formats::mat::read_mat(text).map_err(value_error)?;
    match_file_dict(py, m)
}

/// Writes finished backgammon games of one match (`length` 0: money) as a
/// `.mat` file, player 0 on the left.
#[pyfunction]
fn _write_mat(length: &Bound<'_, PyAny>, names: (String, String), games: Vec<PlayedArg<'_>>) -> PyResult<String> {
    let length: u32 = whole_arg(length, "length")?;
    formats::mat::write_mat(length, [&names.0, &names.1], &played_games(&games)?).map_err(value_error)
}

/// Reads a GNU Backgammon `.sgf` match file (text, or bytes decoded as its
/// CA property says) into the dict `_read_mat` returns.
#[pyfunction]
fn _read_sgf<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let m = if let Ok(text) = data.downcast::<PyString>() {
        formats::sgf::read_sgf(&text.to_cow()?)
    } else if let Ok(bytes) = data.downcast::<pyo3::types::PyBytes>() {
        formats::sgf::read_sgf_bytes(bytes.as_bytes())
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "an .sgf file must be text (a str) or bytes, not {}",
            data.get_type().name()?
        )));
    }
    .map_err(value_error)?;
    match_file_dict(py, m)
}

/// Writes finished backgammon games of one match (`length` 0: money) as
/// gnubg's `.sgf`, player 0 white.
#[pyfunction]
fn _write_sgf(length: &Bound<'_, PyAny>, names: (String, String), crawford_rule: bool, games: Vec<PlayedArg<'_>>) -> PyResult<String> {
    let length: u32 = whole_arg(length, "length")?;
    formats::sgf::write_sgf(length, [&names.0, &names.1], crawford_rule, &played_games(&games)?).map_err(value_error)
}

/// Reads a match text of any variant but backgammon: the dict `_read_mat` returns
/// with "variant" and "rules" too ("winner" None for a drawn game).
#[pyfunction]
fn _read_match_text<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyDict>> {
    let m = formats::matchtext::read_match_text(text).map_err(value_error)?;
    let d = PyDict::new(py);
    d.set_item("variant", m.rules.variant.name())?;
    d.set_item("rules", rules_dict(py, &m.rules)?)?;
    d.set_item("length", m.length)?;
    d.set_item("players", (m.players[0].clone(), m.players[1].clone()))?;
    d.set_item("score", (m.score[0], m.score[1]))?;
    let games = PyList::empty(py);
    for g in m.games {
        let item = PyDict::new(py);
        item.set_item("winner", g.winner)?;
        item.set_item("points", g.points)?;
        item.set_item("resigned", g.resigned)?;
        item.set_item("game", Py::new(py, PyGame { inner: g.game })?)?;
        games.append(item)?;
    }
    d.set_item("games", games)?;
    Ok(d)
}

/// Writes games of any variant but backgammon, of one match (`length` 0: money), as a
/// match text, player 0 first.
#[pyfunction]
fn _write_match_text(
    length: &Bound<'_, PyAny>,
    names: (String, String),
    crawford_rule: bool,
    games: Vec<PlayedArg<'_>>,
) -> PyResult<String> {
    let length: u32 = whole_arg(length, "length")?;
    let mut played = Vec::new();
    for (k, (g, ending)) in games.iter().enumerate() {
        let at = |e: Error| PyValueError::new_err(format!("game {}: {e}", k + 1));
        let game = g.inner.clone();
        played.push(match *ending {
            None => formats::matchtext::TextGame::of(game).map_err(at)?,
            Some((winner, points)) => {
                if winner > 1 {
                    return Err(at(Error::new(format!("the winner is player 0 or 1, not {winner}"))));
                }
                let resigned = formats::mat::game_ending(&game, winner, points).map_err(at)?;
                formats::matchtext::TextGame { game, winner: Some(winner), points, resigned }
            }
        });
    }
    formats::matchtext::write_match_text(length, [&names.0, &names.1], crawford_rule, &played).map_err(value_error)
}

/// Reads any position form into a dict: position (seen from `turn`), turn,
/// dice, cube_value, cube_owner, match_length, score, crawford,
/// double_offered, extra_roll, jacoby, beaver, max_cube.
#[pyfunction]
fn _parse_position<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyDict>> {
    let s = formats::parse_any(text).map_err(value_error)?;
    let d = PyDict::new(py);
    d.set_item("position", PyPosition { inner: s.position })?;
    d.set_item("turn", s.turn)?;
    d.set_item("dice", s.dice.map(|x| (x[0], x[1])))?;
    d.set_item("cube_value", s.cube.value)?;
    d.set_item("cube_owner", s.cube.owner)?;
    d.set_item("match_length", s.stakes.match_length)?;
    d.set_item("score", (s.stakes.score[0], s.stakes.score[1]))?;
    d.set_item("crawford", s.stakes.crawford_game)?;
    d.set_item("double_offered", s.double_offered)?;
    d.set_item("extra_roll", s.extra_roll)?;
    d.set_item("jacoby", s.cube_rules.jacoby)?;
    d.set_item("beaver", s.cube_rules.beaver)?;
    d.set_item("max_cube", s.cube_rules.max_value)?;
    Ok(d)
}

/// Writes a position with its context in one of the forms.
#[pyfunction]
#[pyo3(signature = (form, position, turn, dice, cube_value, cube_owner, match_length, score, crawford,
                    double_offered, jacoby, beaver, max_cube, names, extra_roll = false))]
#[allow(clippy::too_many_arguments)] // one parameter per Python argument
fn _write_position(
    form: &str,
    position: &PyPosition,
    turn: &Bound<'_, PyAny>,
    dice: Option<&Bound<'_, PyAny>>,
    cube_value: &Bound<'_, PyAny>,
    cube_owner: Option<&Bound<'_, PyAny>>,
    match_length: &Bound<'_, PyAny>,
    score: &Bound<'_, PyAny>,
    crawford: bool,
    double_offered: bool,
    jacoby: bool,
    beaver: bool,
    max_cube: &Bound<'_, PyAny>,
    names: (String, String),
    extra_roll: bool,
) -> PyResult<String> {
    let turn: usize = whole_arg(turn, "turn")?;
    let cube_value: u32 = whole_arg(cube_value, "cube_value")?;
    let cube_owner: Option<usize> = opt_whole_arg(cube_owner, "cube_owner")?;
    let match_length: u32 = whole_arg(match_length, "match_length")?;
    let score: (u32, u32) = whole_pair(score, "score")?;
    let max_cube: u32 = whole_arg(max_cube, "max_cube")?;
    let s = Snapshot {
        position: position.inner,
        turn,
        dice: dice_arg(dice)?,
        cube: Cube { value: cube_value, owner: cube_owner },
        cube_rules: cube_rules(true, beaver, jacoby, max_cube)?,
        stakes: Stakes { match_length, score: [score.0, score.1], crawford_game: crawford },
        double_offered,
        extra_roll,
    };
    s.validate().map_err(value_error)?;
    match form {
        "xgid" => formats::xgid::write(&s),
        "gnubg" => formats::gnubg::gnubg_id(&s),
        "position_id" => formats::gnubg::position_id(&s.position),
        "match_id" => formats::gnubg::match_id(&s),
        "fibs" => formats::fibs::write(&s, [&names.0, &names.1]),
        "json" => Ok(formats::json::snapshot_to_json(&s)),
        other => return Err(PyValueError::new_err(format!("unknown form {other:?}"))),
    }
    .map_err(value_error)
}

/// Plays `games` money games between trivial players; returns the tallies
/// (at most `limits::MAX_GAMES` games; `threads` 0 means one per core, and
/// the tallies depend on the thread count: one share of the games a thread).
#[pyfunction]
#[pyo3(signature = (variant, games, *, seed = None, players = ("random".to_string(), "random".to_string()), threads = None, **rules),
       text_signature = "(variant, games, *, seed=0, players=('random', 'random'), threads=1, **rules)")]
fn simulate_games<'py>(
    py: Python<'py>,
    variant: &str,
    games: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    players: (String, String),
    threads: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let games = super::count_arg(games, "games", 0, crate::limits::MAX_GAMES)?;
    let seed: u64 = opt_whole_arg(seed, "seed")?.unwrap_or(0);
    let threads = super::threads_arg(threads, 1)?;
    let rules = rules_from_kwargs(variant, rules)?;
    let strategies = strategies(players)?;
    let tallies = py.allow_threads(|| {
        // Share k of the games, one a thread, from its own seed (so the
        // tallies depend on `threads`, as they always have).
        par_map(
            threads,
            threads,
            || (),
            |_, k| {
                let k = k as u64;
                let n = games / threads as u64 + u64::from(k < games % threads as u64);
                simulate(rules, n, seed.wrapping_add(k.wrapping_mul(0x9E37_79B9)), strategies)
            },
        )
    });
    let mut total = crate::game::players::Tally::default();
    for t in tallies {
        let t = t.map_err(value_error)?;
        total.games += t.games;
        total.draws += t.draws;
        total.rolls += t.rolls;
        total.starter_wins += t.starter_wins;
        for p in 0..2 {
            for k in 0..3 {
                total.wins[p][k] += t.wins[p][k];
            }
        }
    }
    let d = PyDict::new(py);
    d.set_item("games", total.games)?;
    d.set_item("wins", total.wins.iter().map(|w| w.to_vec()).collect::<Vec<_>>())?;
    d.set_item("draws", total.draws)?;
    d.set_item("rolls", total.rolls)?;
    d.set_item("starter_wins", total.starter_wins)?;
    Ok(d)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyMatch>()?;
    m.add_function(wrap_pyfunction!(_parse_position, m)?)?;
    m.add_function(wrap_pyfunction!(_read_mat, m)?)?;
    m.add_function(wrap_pyfunction!(_write_mat, m)?)?;
    m.add_function(wrap_pyfunction!(_read_sgf, m)?)?;
    m.add_function(wrap_pyfunction!(_write_sgf, m)?)?;
    m.add_function(wrap_pyfunction!(_read_match_text, m)?)?;
    m.add_function(wrap_pyfunction!(_write_match_text, m)?)?;
    m.add_function(wrap_pyfunction!(_write_position, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_games, m)?)?;
    Ok(())
}
