//! The PyO3 edge: the `tavla._core` extension module.
//!
//! Its argument helpers (`whole_arg`, `count_arg`, `rules_from_kwargs`, ...)
//! are public so that the training crate's module (`coach/src/python.rs`)
//! checks its arguments by the same rules.
//!
//! Everything here converts between Python objects and the pure-Rust core and
//! nothing else; the rules live in the core. Every user error becomes a
//! `ValueError` naming the problem, and no Rust panic can cross into Python
//! (PyO3 turns one into `PanicException`, and the core has none reachable
//! from valid or invalid input; the Python tests throw bad input at it).

mod game;
mod nn;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyDict, PyInt, PyString};

use crate::batch;
use crate::error::Error;
use crate::movegen::{self, Move};
use crate::notation::format_move;
use crate::position::{Position, ME, THEM};
use crate::variant::{OptionValue, Rules, Variant};

mod cube;
mod engine;
mod rollout;

pub fn value_error(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Rules of `variant` with the keyword options applied.
pub fn rules_from_kwargs(variant: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    let mut rules = Rules::new(Variant::parse(variant).map_err(value_error)?);
    if let Some(kwargs) = kwargs {
        for (key, value) in kwargs.iter() {
            let name: String = key.extract()?;
            let option = option_value(&name, &value)?;
            rules.set(&name, &option).map_err(|e| {
                // The core names a wrong value in its Debug form (`Str("yes")`): show it as Python writes it.
                PyValueError::new_err(e.to_string().replace(&format!("{option:?}"), &repr_of(&value)))
            })?;
        }
    }
    Ok(rules)
}

/// Rules for a training function on flat boards (n x 2 x 25 counts, the
/// player on roll first): those boards hold no reserve, so the reserve
/// games are refused.
pub fn flat_board_rules(variant: &str, rules: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    let rules = rules_from_kwargs(variant, rules)?;
    if rules.variant.has_reserve() {
        return Err(PyValueError::new_err(format!(
            "flat boards (n x 2 x 25 counts) hold no reserve: {} networks are trained by self-play (td) only",
            rules.variant.name()
        )));
    }
    Ok(rules)
}

fn option_value(name: &str, value: &Bound<'_, PyAny>) -> PyResult<OptionValue> {
    // bool before int: Python's True is also an int.
    if value.is_instance_of::<PyBool>() {
        Ok(OptionValue::Bool(value.extract()?))
    } else if value.is_instance_of::<PyInt>() {
        // A huge int would raise OverflowError: name the option instead.
        let n: i64 = value.extract().map_err(|_| PyValueError::new_err(format!("rule option {name}: {value} is out of range")))?;
        Ok(OptionValue::Int(n))
    } else if value.is_instance_of::<PyString>() {
        Ok(OptionValue::Str(value.extract()?))
    } else {
        Err(PyValueError::new_err(format!("rule option {name} must be a bool, an int or a string, not {}", value.get_type().name()?)))
    }
}

fn rules_dict<'py>(py: Python<'py>, rules: &Rules) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, value) in rules.options() {
        match value {
            OptionValue::Bool(b) => dict.set_item(name, b)?,
            OptionValue::Int(i) => dict.set_item(name, i)?,
            OptionValue::Str(s) => dict.set_item(name, s)?,
        }
    }
    Ok(dict)
}

/// A sequence of 25 whole numbers, with errors that say which entry is wrong
/// (at most 26 are read: the position's check refuses any other length).
fn extract_counts(obj: &Bound<'_, PyAny>, who: &str) -> PyResult<Vec<i64>> {
    whole_list(obj, who, 25)
}

/// A whole number from Python; anything else (a float, a string, an int too
/// large for 64 bits) is a ValueError naming the argument.
fn whole_number(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() || !obj.hasattr("__index__")? {
        return Err(PyValueError::new_err(format!(
            "{what} must be a whole number, not {}",
            obj.repr().map(|r| r.to_string()).unwrap_or_default()
        )));
    }
    obj.extract::<i64>()
        .map_err(|_| PyValueError::new_err(format!("{what} is {}: out of range", obj.repr().map(|r| r.to_string()).unwrap_or_default())))
}

/// The integer types of arguments, with their ranges (for the messages).
pub trait WholeArg: Sized + TryFrom<i128> {
    const LOW: i128;
    const HIGH: i128;
}

macro_rules! whole_arg_types {
    ($($t:ty),*) => {
        $(impl WholeArg for $t {
            const LOW: i128 = <$t>::MIN as i128;
            const HIGH: i128 = <$t>::MAX as i128;
        })*
    };
}
whole_arg_types!(u8, u32, u64, usize, i64);

pub fn repr_of(obj: &Bound<'_, PyAny>) -> String {
    obj.repr().map(|r| r.to_string()).unwrap_or_default()
}

/// A True/False argument (a numpy bool too, as numpy integers pass for whole
/// numbers), or a ValueError naming it: 1, "yes" and None are not flags.
pub fn flag_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    obj.extract::<bool>().map_err(|_| PyValueError::new_err(format!("{what} must be True or False, not {}", repr_of(obj))))
}

/// An integer argument: anything but a whole number in `T`'s range (a bool, a float, a string, a
/// negative number for an unsigned one, one too large) is a ValueError naming the argument, where
/// PyO3 alone would raise OverflowError or TypeError without saying which argument.
pub fn whole_arg<T: WholeArg>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    if obj.is_instance_of::<PyBool>() || !obj.hasattr("__index__")? {
        return Err(PyValueError::new_err(format!("{what} must be a whole number, not {}", repr_of(obj))));
    }
    obj.extract::<i128>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| PyValueError::new_err(format!("{what} must be a whole number from {} to {}, not {}", T::LOW, T::HIGH, repr_of(obj))))
}

/// A count argument (games, positions, epochs, trials, plies), `low` to
/// `high` (the bounds of [`crate::limits`]): anything else, a huge or a
/// negative int included, is a ValueError naming the argument and the range,
/// raised before any work starts.
pub fn count_arg(obj: &Bound<'_, PyAny>, what: &str, low: u64, high: u64) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() || !obj.hasattr("__index__")? {
        return Err(PyValueError::new_err(format!("{what} must be a whole number, not {}", repr_of(obj))));
    }
    match obj.extract::<i128>() {
        Ok(n) => crate::limits::check(what, n, low, high).map_err(value_error),
        Err(_) => Err(PyValueError::new_err(format!(
            "{what} must be {} to {}, not {}",
            crate::limits::grouped(low.into()),
            crate::limits::grouped(high.into()),
            repr_of(obj)
        ))),
    }
}

/// `count_arg` of an optional argument, `default` when None.
pub fn opt_count_arg(obj: Option<&Bound<'_, PyAny>>, what: &str, low: u64, high: u64, default: u64) -> PyResult<u64> {
    match obj {
        Some(o) if !o.is_none() => count_arg(o, what, low, high),
        _ => Ok(default),
    }
}

/// A `threads` argument, 0 (one per core: resolved here) to
/// [`crate::limits::MAX_THREADS`], `default` when None.
pub fn threads_arg(obj: Option<&Bound<'_, PyAny>>, default: usize) -> PyResult<usize> {
    let threads = opt_count_arg(obj, "threads", 0, crate::limits::MAX_THREADS as u64, default as u64)?;
    Ok(crate::threads_or_all_cores(threads as usize))
}

/// A sequence of at most `most` whole numbers (each a ValueError naming
/// `what[k]` when it is not one, or beyond 64 bits); more than `most` are
/// not read (the caller's length check refuses them).
pub(crate) fn whole_list(obj: &Bound<'_, PyAny>, what: &str, most: usize) -> PyResult<Vec<i64>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyValueError::new_err(format!("{what} must be a sequence of whole numbers, not a string")));
    }
    let iter =
        obj.try_iter().map_err(|_| PyValueError::new_err(format!("{what} must be a sequence of whole numbers, not {}", repr_of(obj))))?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        if out.len() > most {
            break;
        }
        out.push(whole_number(&item?, &format!("{what}[{i}]"))?);
    }
    Ok(out)
}

/// `whole_arg` of an optional argument (None stays None).
pub fn opt_whole_arg<T: WholeArg>(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<T>> {
    match obj {
        Some(o) if !o.is_none() => whole_arg(o, what).map(Some),
        _ => Ok(None),
    }
}

/// A pair of whole numbers (a tuple or list of two: dice, a score), each checked as `whole_arg`.
pub(crate) fn whole_pair<T: WholeArg>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<(T, T)> {
    let bad = || PyValueError::new_err(format!("{what} must be a pair of whole numbers, not {}", repr_of(obj)));
    if obj.is_instance_of::<PyString>() {
        return Err(bad());
    }
    let items: Vec<Bound<'_, PyAny>> = obj.try_iter().map_err(|_| bad())?.take(3).collect::<PyResult<_>>()?;
    if items.len() != 2 {
        return Err(bad());
    }
    Ok((whole_arg(&items[0], &format!("{what}[0]"))?, whole_arg(&items[1], &format!("{what}[1]"))?))
}

/// A position, seen from the player on roll.
#[pyclass(name = "Position", module = "tavla", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPosition {
    pub(crate) inner: Position,
}

#[pymethods]
impl PyPosition {
    /// The starting position of a variant.
    #[staticmethod]
    #[pyo3(signature = (variant = "backgammon", **rules))]
    fn start(variant: &str, rules: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(PyPosition { inner: Position::start(rules_from_kwargs(variant, rules)?) })
    }

    /// A position from two lists of 25 counts in each owner's numbering, and
    /// for Dutch backgammon and acey-deucey the checkers in reserve (mine, theirs).
    #[staticmethod]
    #[pyo3(signature = (variant, mine, theirs, reserve = None, **rules), text_signature = "(variant, mine, theirs, reserve=(0, 0), **rules)")]
    fn from_arrays(
        variant: &str,
        mine: &Bound<'_, PyAny>,
        theirs: &Bound<'_, PyAny>,
        reserve: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let rules = rules_from_kwargs(variant, rules)?;
        position_from_parts(rules, mine, theirs, reserve)
    }

    /// Checkers not yet entered: (mine, theirs); (0, 0) outside Dutch
    /// backgammon and acey-deucey.
    #[getter]
    fn reserve(&self) -> (u32, u32) {
        (self.inner.reserve(ME) as u32, self.inner.reserve(THEM) as u32)
    }

    /// (mine, theirs): two lists of 25, each in its owner's numbering.
    fn to_arrays(&self) -> (Vec<i64>, Vec<i64>) {
        arrays_i64(&self.inner)
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.variant().name()
    }

    /// The rule options of this position's variant, by name.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rules_dict(py, self.inner.rules())
    }

    /// Borne-off checkers: (mine, theirs).
    #[getter]
    fn off(&self) -> (u32, u32) {
        (self.inner.off(ME) as u32, self.inner.off(THEM) as u32)
    }

    /// Checkers on the bar: (mine, theirs).
    #[getter]
    fn bar(&self) -> (u32, u32) {
        (self.inner.bar(ME) as u32, self.inner.bar(THEM) as u32)
    }

    /// Pip counts: (mine, theirs).
    fn pip_count(&self) -> (u32, u32) {
        let p = self.inner.pips();
        (p[ME], p[THEM])
    }

    fn is_race(&self) -> bool {
        self.inner.is_race()
    }

    /// Contact where a side has crashed (GNU Backgammon's "crashed" class,
    /// judged by a network of its own): backgammon's family only.
    fn is_crashed(&self) -> bool {
        self.inner.is_crashed()
    }

    /// The cube's position class: "over", "bear-off" (both sides all home),
    /// "race" (no contact can come again) or "contact".
    fn position_class(&self) -> &'static str {
        crate::cube::efficiency::classify(&self.inner).name()
    }

    fn is_game_over(&self) -> bool {
        self.inner.is_game_over()
    }

    /// The same position from the other player's side.
    fn flip(&self) -> Self {
        PyPosition { inner: self.inner.flip() }
    }

    /// Every distinct legal play of the roll d1-d2.
    fn legal_moves(&self, py: Python<'_>, d1: &Bound<'_, PyAny>, d2: &Bound<'_, PyAny>) -> PyResult<Vec<PyMove>> {
        let (d1, d2) = (whole_number(d1, "d1")?, whole_number(d2, "d2")?);
        let pos = self.inner;
        let moves = py.allow_threads(|| movegen::legal_moves(&pos, d1, d2)).map_err(value_error)?;
        Ok(moves.into_iter().map(PyMove::from).collect())
    }

    /// One gul bara cascade step: up to `count` moves of `die`.
    #[pyo3(signature = (die, count = None, head_used = None), text_signature = "($self, die, count=4, head_used=0)")]
    fn legal_cascade_step(
        &self,
        die: &Bound<'_, PyAny>,
        count: Option<&Bound<'_, PyAny>>,
        head_used: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyMove>> {
        let die = whole_number(die, "die")?;
        let count = count.map(|c| whole_number(c, "count")).transpose()?.unwrap_or(4);
        let head_used = head_used.map(|h| whole_number(h, "head_used")).transpose()?.unwrap_or(0);
        let moves = movegen::cascade_step(&self.inner, die, count, head_used).map_err(value_error)?;
        Ok(moves.into_iter().map(PyMove::from).collect())
    }

    /// Every resulting position of the roll as a numpy int8 array of shape
    /// (n, 2, 25): row 0 the mover's 25 counts, row 1 the opponent's, each in
    /// its owner's numbering (the layout of `to_arrays`).
    fn legal_positions<'py>(&self, py: Python<'py>, d1: &Bound<'py, PyAny>, d2: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (d1, d2) = (whole_number(d1, "d1")?, whole_number(d2, "d2")?);
        let (d1, d2) = (movegen::check_die(d1).map_err(value_error)?, movegen::check_die(d2).map_err(value_error)?);
        batch::check_layout_fits(self.inner.variant()).map_err(value_error)?;
        let mut flat = Vec::with_capacity(32 * batch::ROW);
        let n = batch::results_flat(&self.inner, d1, d2, &mut flat);
        int8_array(py, &flat, n)
    }

    fn __repr__(&self) -> String {
        let (m, t) = self.inner.to_arrays();
        let rules: Vec<String> = self
            .inner
            .rules()
            .options()
            .into_iter()
            .filter(|(name, value)| Rules::new(self.inner.variant()).options().iter().all(|(n, v)| n != name || v != value))
            .map(|(name, value)| match value {
                OptionValue::Bool(b) => format!(", {name}={}", if b { "True" } else { "False" }),
                OptionValue::Int(i) => format!(", {name}={i}"),
                OptionValue::Str(s) => format!(", {name}={s:?}"),
            })
            .collect();
        let reserve = match self.reserve() {
            (0, 0) if !self.inner.variant().has_reserve() => String::new(),
            (r, s) => format!(", reserve=({r}, {s})"),
        };
        format!("Position.from_arrays({:?}, {:?}, {:?}{reserve}{})", self.inner.variant().name(), m.to_vec(), t.to_vec(), rules.concat())
    }

    fn __str__(&self) -> String {
        self.inner.describe()
    }

    #[allow(clippy::type_complexity)] // the pickle tuple, spelled out
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, Vec<i64>, Vec<i64>, Bound<'py, PyDict>, (u32, u32)))> {
        let restore = py.import("tavla._core")?.getattr("_position_from_state")?;
        let (m, t) = arrays_i64(&self.inner);
        Ok((restore, (self.inner.variant().name().to_string(), m, t, rules_dict(py, self.inner.rules())?, self.reserve())))
    }
}

/// A writable numpy int8 array of shape (n, 2, 25) over a copy of `flat`.
fn int8_array<'py>(py: Python<'py>, flat: &[i8], n: usize) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    let buffer = PyByteArray::new(py, bytemuck_i8(flat));
    numpy.call_method1("frombuffer", (buffer, "int8"))?.call_method1("reshape", ((n, 2, 25),))
}

/// `to_arrays` as Python ints (a `Vec<u8>` would become `bytes`).
fn arrays_i64(pos: &Position) -> (Vec<i64>, Vec<i64>) {
    let (m, t) = pos.to_arrays();
    (m.iter().map(|&n| n as i64).collect(), t.iter().map(|&n| n as i64).collect())
}

fn bytemuck_i8(v: &[i8]) -> &[u8] {
    // i8 and u8 have the same size and alignment; this is a plain reinterpretation.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len()) }
}

/// The checked position of `from_arrays` and of unpickling.
fn position_from_parts(
    rules: Rules,
    mine: &Bound<'_, PyAny>,
    theirs: &Bound<'_, PyAny>,
    reserve: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyPosition> {
    let mine = extract_counts(mine, "mine")?;
    let theirs = extract_counts(theirs, "theirs")?;
    let reserve: (i64, i64) = match reserve {
        Some(r) if !r.is_none() => whole_pair(r, "reserve")?,
        _ => (0, 0),
    };
    Position::from_arrays_with_reserve(rules, &mine, &theirs, [reserve.0, reserve.1]).map(|inner| PyPosition { inner }).map_err(value_error)
}

#[pyfunction]
#[pyo3(signature = (variant, mine, theirs, rules, reserve = None))]
fn _position_from_state(
    variant: &str,
    mine: &Bound<'_, PyAny>,
    theirs: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyDict>,
    reserve: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyPosition> {
    position_from_parts(rules_from_kwargs(variant, Some(rules))?, mine, theirs, reserve)
}

/// One legal play (or one cascade step) and where it leads.
#[pyclass(name = "Move", module = "tavla", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyMove {
    pub(crate) inner: Move,
    /// A whole gul bara cascade part (the engine's hints): every step and
    /// what passes to the opponent; `inner` is then its last step, with the
    /// position after the whole part.
    pub(crate) cascade: Option<std::sync::Arc<crate::cascade::CascadePart>>,
}

impl From<Move> for PyMove {
    fn from(inner: Move) -> Self {
        PyMove { inner, cascade: None }
    }
}

impl PyMove {
    pub(crate) fn with_cascade(inner: Move, cascade: Option<std::sync::Arc<crate::cascade::CascadePart>>) -> Self {
        PyMove { inner, cascade }
    }

    fn all_steps(&self) -> Vec<crate::movegen::Step> {
        match &self.cascade {
            Some(part) => part.all_steps(),
            None => self.inner.play.steps().to_vec(),
        }
    }

    fn text(&self) -> String {
        match &self.cascade {
            Some(part) => part.notation(),
            // An acey-deucey 1-2 with its named number ("... named 6: ..."), as a game records it.
            None => format_move(&self.inner),
        }
    }
}

#[pymethods]
impl PyMove {
    /// The position after the play, still seen from the mover.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition { inner: self.inner.position }
    }

    /// (from, to) per checker step, in play order; 25 is the bar, 26 the reserve, 0 is off.
    /// For a whole cascade part, every step of every number.
    #[getter]
    fn steps(&self) -> Vec<(u8, u8)> {
        self.all_steps().iter().map(|s| (s.from, s.to)).collect()
    }

    /// Whether each step hit a blot.
    #[getter]
    fn hits(&self) -> Vec<bool> {
        self.all_steps().iter().map(|s| s.hit).collect()
    }

    /// Checker steps played (dice used, or moves of a cascade number; all
    /// of them for a whole cascade part).
    #[getter]
    fn moves_played(&self) -> usize {
        self.all_steps().len()
    }

    /// A whole gul bara cascade part: the `(die, moves)` passed to the
    /// opponent, in the order it plays them (`[]` when none, and for any
    /// other move).
    #[getter]
    fn handover(&self) -> Vec<(u8, u8)> {
        self.cascade.as_ref().map_or_else(Vec::new, |p| p.handover.clone())
    }

    /// A whole gul bara cascade part: each number's step as a Move, with
    /// the number (`[]` for any other move).
    #[getter]
    fn cascade_steps(&self) -> Vec<(u8, PyMove)> {
        self.cascade.as_ref().map_or_else(Vec::new, |p| p.numbers.iter().zip(&p.steps).map(|(&n, &m)| (n, PyMove::from(m))).collect())
    }

    /// Acey-deucey's 1-2 roll: the number named after the 1 and the 2, or None
    /// (the turn ended before naming, or any other roll).
    #[getter]
    fn named(&self) -> Option<u8> {
        self.inner.named
    }

    /// Acey-deucey's 1-2 roll: the named number was played in full, so the
    /// same player rolls again (a new `legal_moves` call).
    #[getter]
    fn rolls_again(&self) -> bool {
        self.inner.rolls_again
    }

    /// Head checkers used in this turn (for a cascade step: in the cascade so far).
    #[getter]
    fn head_used(&self) -> u8 {
        self.inner.head_used
    }

    #[getter]
    fn notation(&self) -> String {
        self.text()
    }

    fn is_pass(&self) -> bool {
        self.all_steps().is_empty()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("<Move {}>", self.text())
    }
}

/// The results of many positions at once: an int8 array (N, 2, 25) of all
/// results one position after another, and offsets (n + 1 of them).
#[pyfunction]
#[pyo3(signature = (variant, boards, dice, threads = None, **rules), text_signature = "(variant, boards, dice, threads=0, **rules)")]
fn _legal_positions_many<'py>(
    py: Python<'py>,
    variant: &str,
    boards: &[u8],
    dice: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, Vec<usize>)> {
    let threads = threads_arg(threads, 0)?;
    let rules = rules_from_kwargs(variant, rules)?;
    batch::check_layout_fits(rules.variant).map_err(value_error)?;
    // The quick way for a list of ints; else each entry checked, so a bad one is named.
    let dice: Vec<i64> = match dice.extract() {
        Ok(dice) => dice,
        Err(_) => whole_list(dice, "dice", usize::MAX - 1)?,
    };
    let boards: Vec<i8> = boards.iter().map(|&b| b as i8).collect();
    let (flat, offsets) = py.allow_threads(|| batch::results_many(rules, &boards, &dice, threads)).map_err(value_error)?;
    let n = *offsets.last().unwrap_or(&0);
    Ok((int8_array(py, &flat, n)?, offsets))
}

/// Distinct positions after 1..=depth turns from the start, over all 21 rolls.
#[pyfunction]
#[pyo3(signature = (variant, depth, **rules))]
fn perft(py: Python<'_>, variant: &str, depth: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<usize>> {
    let depth: i64 = whole_arg(depth, "perft depth")?;
    let rules = rules_from_kwargs(variant, rules)?;
    let depth = crate::perft::check_depth(rules.variant, depth).map_err(value_error)?;
    Ok(py.allow_threads(|| crate::perft::perft(rules, depth)))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_class::<PyMove>()?;
    m.add_function(wrap_pyfunction!(_legal_positions_many, m)?)?;
    m.add_function(wrap_pyfunction!(_position_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    nn::register(m)?;
    game::register(m)?;
    engine::register(m)?;
    rollout::register(m)?;
    cube::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let limits = PyDict::new(m.py());
    for &(name, bound) in crate::limits::ALL {
        // Whole bounds as ints, the one in seconds as a float.
        if bound.fract() == 0.0 {
            limits.set_item(name, bound as u64)?;
        } else {
            limits.set_item(name, bound)?;
        }
    }
    m.add("LIMITS", limits)?;
    Ok(())
}
