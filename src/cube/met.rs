//! Match equity tables: the chance of winning a match from each score.
//!
//! A table is indexed by how many points each player still needs ("away").
//! It has two parts, with the semantics of GNU Backgammon's tables:
//!
//! - the pre-Crawford table `pre[i][j]`: the match winning chance (MWC) of a
//!   player who needs `i + 1` points against one who needs `j + 1`, before the
//!   Crawford game is over. Its 1-away row and column are the Crawford game
//!   itself (no cube);
//! - the post-Crawford row `post[j]`: the MWC of the *trailer*, who needs
//!   `j + 1` points, against a leader at 1-away once the Crawford game has
//!   been played. `post[0]` (both at 1-away) is 0.5, and `post[1]` is just
//!   under 0.5 (Kazaross-XG2: 0.48803) because the leader has a free drop at
//!   2-away. In gnubg's `matchequity.c` this is `aafMETPostCrawford[p][n]`,
//!   the chance of player `p` when `p` needs `n + 1` and the opponent is
//!   leading at 1-away: its lookups read `1 - post[n]` for the leader, and
//!   its Zadeh model builds the Crawford row from it as
//!   `pre[i][0] = g/2 post[i-2] + (1-g)/2 post[i-1]` (the trailer wins the
//!   Crawford game half the time, a gammon with rate `g`). An XML
//!   post-Crawford table with `player="both"` fills the row of both players.
//!
//! Tables are kept filled to [`MAX_SCORE`] = 64 points (gnubg's `MAXSCORE`).
//! A table shorter than that is extended as gnubg extends it (see
//! [`MatchEquityTable::from_xml`]), so tavla and gnubg agree on every cell
//! up to gnubg's float rounding; the tests compare with gnubg's own
//! extended tables.
//!
//! Tables come from gnubg's XML format (`met.dtd`), from Zadeh's model
//! ([`MatchEquityTable::zadeh`], [`MatchEquityTable::from_gammon_rate`]) for
//! games with their own gammon (mars) rates, or, for backgammon, the shipped
//! Kazaross-XG2 table ([`MatchEquityTable::kazaross_xg2`]).

mod xml;

use std::path::Path;
use std::sync::OnceLock;

use crate::error::{Error, Result};
use xml::Element;

/// The longest match (in points) a table covers: gnubg's `MAXSCORE`.
pub const MAX_SCORE: usize = 64;

/// A pre-Crawford table: `[i][j]` for `i + 1` away against `j + 1` away.
type PreTable = [[f64; MAX_SCORE]; MAX_SCORE];
/// A post-Crawford row: `[j]` for the trailer at `j + 1` away.
type PostRow = [f64; MAX_SCORE];

/// The Kazaross-XG2 table as gnubg distributes it, notice included.
const KAZAROSS_XG2_XML: &str = include_str!("met/Kazaross-XG2.xml");

/// A match equity table filled to [`MAX_SCORE`] points.
///
/// `pre` and `post` are as the [module documentation](self) describes. There
/// are two post-Crawford rows because a gnubg file may give one per player:
/// row 0 when "me" (the pre-Crawford table's row player) trails, row 1 when
/// the opponent trails. They are equal in every table but gnubg's jac050 and
/// jac100, whose player 0 is an Elo favourite.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchEquityTable {
    name: String,
    description: String,
    native_length: usize,
    pre: Box<PreTable>,
    post: [PostRow; 2],
}

/// The parameters of the post-Crawford part of Zadeh's model, with gnubg's
/// names in its XML files in brackets. `Default` gives gnubg's values, which
/// gnubg also uses to extend explicit post-Crawford rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PostCrawfordModel {
    /// The fraction of the trailer's post-Crawford wins that are gammons
    /// (`gammon-rate-trailer`). The trailer always doubles at once, so each
    /// post-Crawford game is worth 2 (or, with a gammon, 4) points to him.
    pub gammon_rate_trailer: f64,
    /// What the leader's free drop is worth to him at 1-away/2-away
    /// (`free-drop-2-away`): subtracted from the trailer's chance there.
    pub free_drop_2_away: f64,
    /// The same at 1-away/4-away (`free-drop-4-away`).
    pub free_drop_4_away: f64,
}

impl Default for PostCrawfordModel {
    fn default() -> PostCrawfordModel {
        PostCrawfordModel { gammon_rate_trailer: 0.25, free_drop_2_away: 0.015, free_drop_4_away: 0.004 }
    }
}

/// The parameters of Zadeh's model of match play (N. Zadeh, "On Doubling in
/// Tournament Backgammon", Management Science 23, 986 (1977)), as gnubg
/// computes it, with gnubg's names in its XML files in brackets. `Default`
/// gives the values of gnubg's zadeh.xml.
///
/// The model plays each game with a cube whose take and drop points follow
/// from the table itself (the drop point with a dead cube, then improved for
/// recube vig level by level), the gammon rates fixing what a win is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ZadehModel {
    /// `gammon-rate-leader`, whatever the name says: in gnubg's recursion
    /// the gammon fraction of the doubler's wins in every drop point the
    /// model computes, and of the trailer's wins in the Crawford game.
    pub gammon_rate_leader: f64,
    /// `gammon-rate-trailer`: the gammon fraction of the taker's wins.
    pub gammon_rate_trailer: f64,
    /// `delta`: how much a live cube (a redouble still to come) moves the
    /// drop point up from its dead-cube value, level by level.
    pub delta: f64,
    /// `delta-bar`: how much the cube's efficiency adds at the initial cube
    /// level, where the two drop points combine into the match equity.
    pub delta_bar: f64,
    /// The post-Crawford row's model, which also feeds the Crawford game.
    pub post_crawford: PostCrawfordModel,
}

impl Default for ZadehModel {
    fn default() -> ZadehModel {
        ZadehModel {
            gammon_rate_leader: 0.25,
            gammon_rate_trailer: 0.15,
            delta: 0.08,
            delta_bar: 0.06,
            post_crawford: PostCrawfordModel::default(),
        }
    }
}

impl MatchEquityTable {
    /// The Kazaross-XG2 table (XG rollouts to 9 points, gnubg rollouts to 15,
    /// projected to 25), extended to 64 points as gnubg does: tavla's default
    /// for backgammon. Parsed once, on first use.
    pub fn kazaross_xg2() -> &'static MatchEquityTable {
        static TABLE: OnceLock<MatchEquityTable> = OnceLock::new();
        // The table is compiled in, no input reaches it, and the tests read it (kazaross_* below).
        TABLE.get_or_init(|| MatchEquityTable::from_xml(KAZAROSS_XG2_XML).expect("the shipped Kazaross-XG2 table is valid"))
    }

    /// Reads a table in gnubg's XML format from a file.
    pub fn from_file(path: impl AsRef<Path>) -> Result<MatchEquityTable> {
        let path = path.as_ref();
        let text = read_bounded(path, crate::limits::MAX_MET_BYTES)
            .map_err(|err| Error::new(format!("cannot read match equity table {}: {err}", path.display())))?;
        MatchEquityTable::from_xml(&text).map_err(|err| Error::new(format!("{}: {err}", path.display())))
    }

    /// Reads a table in gnubg's XML format (`met.dtd`): an `<info>` with
    /// `<name>`, `<description>` and `<length>`, one `<pre-crawford-table>`,
    /// and `<post-crawford-table>`s for `player="both"` or for `"0"` and `"1"`.
    ///
    /// Tables of `type="explicit"` give rows of `<me>` values: the
    /// pre-Crawford table `length` rows of `length`, the post-Crawford row at
    /// least `length - 1` values. Tables of `type="zadeh"` give
    /// `<parameter name="...">`s of [`ZadehModel`] (missing ones take gnubg's
    /// defaults); gnubg's third type, `mec`, is not supported.
    ///
    /// Filling to 64 points follows gnubg's `InitMatchEquity`:
    /// - an explicit post-Crawford row keeps its first `length - 1` values
    ///   (the first post-Crawford score of a `length`-point match is
    ///   `length - 1` away) and continues with the recursion of
    ///   [`PostCrawfordModel::default`];
    /// - an explicit pre-Crawford table is extended with David Montgomery's
    ///   normal approximation (the points won over the rest of the match
    ///   taken as normal, with his measured per-game deviations);
    /// - a Zadeh table is computed to 64 points and not extended. (gnubg 1.07
    ///   reads zadeh.xml's `<length>-1</length>` and hands the -1 to its
    ///   extension, which then overwrites the whole Zadeh table with
    ///   Montgomery's approximation; tavla keeps the Zadeh table, which is
    ///   what gnubg computes when the file says 64.)
    pub fn from_xml(text: &str) -> Result<MatchEquityTable> {
        let root = xml::parse(text).map_err(|err| Error::new(format!("match equity table: {err}")))?;
        parse_met(&root).map_err(|err| Error::new(format!("match equity table: {err}")))
    }

    /// A table from Zadeh's model with every parameter given, computed to 64
    /// points. `length` is recorded as the native length: the longest match
    /// the table is meant for (1 to 64); the model itself has no horizon.
    pub fn zadeh(name: &str, description: &str, model: &ZadehModel, length: usize) -> Result<MatchEquityTable> {
        check_length(length)?;
        check_model(model)?;
        let post = post_crawford_row(&model.post_crawford)?;
        let pre = zadeh_pre(model, &post);
        let table = MatchEquityTable {
            name: name.to_string(),
            description: description.to_string(),
            native_length: length,
            pre,
            post: [post, post],
        };
        table.validate()?;
        Ok(table)
    }

    /// A table for a game with its own gammon rate (for long nardy and gul
    /// bara: the share of a game's wins that are mars), by Zadeh's model.
    ///
    /// `gammon_rate` (in `[0, 1)`) is used for both players, before and after
    /// the Crawford game; the cube-efficiency parameters `delta` and
    /// `delta-bar` and the free drops keep gnubg's backgammon values (use
    /// [`MatchEquityTable::zadeh`] to set them). `length` as in `zadeh`.
    pub fn from_gammon_rate(name: &str, gammon_rate: f64, length: usize) -> Result<MatchEquityTable> {
        if !(0.0..1.0).contains(&gammon_rate) {
            return Err(Error::new(format!("gammon rate {gammon_rate} is not in [0, 1)")));
        }
        let defaults = ZadehModel::default();
        let model = ZadehModel {
            gammon_rate_leader: gammon_rate,
            gammon_rate_trailer: gammon_rate,
            post_crawford: PostCrawfordModel { gammon_rate_trailer: gammon_rate, ..defaults.post_crawford },
            ..defaults
        };
        let description = format!("Zadeh's model with gammon rate {gammon_rate}");
        MatchEquityTable::zadeh(name, &description, &model, length)
    }

    /// The table's name (gnubg's `<name>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The table's description (gnubg's `<description>`).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The match length the table was made for; beyond it the values are an
    /// extension (always [`MAX_SCORE`] or less).
    pub fn native_length(&self) -> usize {
        self.native_length
    }

    /// The chance that "me" wins the match when I need `away_me` points and
    /// the opponent `away_opp`.
    ///
    /// A player at 0 or less away has won (me first: 1.0, else 0.0 for the
    /// opponent). `post_crawford` says that the Crawford game has been played
    /// (or is being played, when this score is one it can end at); then a
    /// score with a player at 1-away reads the post-Crawford row. Otherwise
    /// 1-away means the Crawford game is next, which the pre-Crawford table
    /// holds. Aways above 64 are a caller's error (matches are validated to
    /// 64 points): a debug build asserts, a release build clamps them to 64.
    pub fn mwc(&self, away_me: i32, away_opp: i32, post_crawford: bool) -> f64 {
        if away_me <= 0 {
            return 1.0;
        }
        if away_opp <= 0 {
            return 0.0;
        }
        let (me, opp) = (index(away_me as usize), index(away_opp as usize));
        if post_crawford && (me == 0 || opp == 0) {
            if me == 0 {
                1.0 - self.post[1][opp]
            } else {
                self.post[0][me]
            }
        } else {
            self.pre[me][opp]
        }
    }

    /// The pre-Crawford chance at `away_me` against `away_opp` (1-based:
    /// 1-away is the Crawford game). Aways outside 1..=64 assert in debug
    /// builds and are clamped in release builds.
    pub fn pre(&self, away_me: usize, away_opp: usize) -> f64 {
        self.pre[index(away_me)][index(away_opp)]
    }

    /// The post-Crawford chance of the trailer at `away_trailer` (1-based)
    /// against a leader at 1-away: row 0, "me" trailing. Clamped like `pre`.
    pub fn post(&self, away_trailer: usize) -> f64 {
        self.post[0][index(away_trailer)]
    }

    /// The post-Crawford chance of the opponent trailing at `away_trailer`
    /// against "me" at 1-away. Equal to [`post`](Self::post) except in
    /// tables that give the players different rows.
    pub fn post_opponent(&self, away_trailer: usize) -> f64 {
        self.post[1][index(away_trailer)]
    }

    /// The whole pre-Crawford table, 0-based: `[i][j]` is `pre(i + 1, j + 1)`.
    pub fn pre_table(&self) -> &[[f64; MAX_SCORE]; MAX_SCORE] {
        &self.pre
    }

    /// Every value must be a probability.
    fn validate(&self) -> Result<()> {
        let cells = self.pre.iter().flatten().chain(self.post.iter().flatten());
        match cells.copied().find(|v| !is_probability(*v)) {
            Some(bad) => Err(Error::new(format!("the table `{}` computes a match winning chance of {bad}, outside [0, 1]", self.name))),
            None => Ok(()),
        }
    }
}

/// The 0-based index of a 1-based away, checked in debug builds and
/// clamped to the table in release builds.
fn index(away: usize) -> usize {
    debug_assert!((1..=MAX_SCORE).contains(&away), "away {away} is outside 1..={MAX_SCORE}");
    away.clamp(1, MAX_SCORE) - 1
}

fn is_probability(value: f64) -> bool {
    (0.0..=1.0).contains(&value)
}

fn check_length(length: usize) -> Result<()> {
    if (1..=MAX_SCORE).contains(&length) {
        Ok(())
    } else {
        Err(Error::new(format!("a table's length must be 1 to {MAX_SCORE} points, not {length}")))
    }
}

fn check_model(model: &ZadehModel) -> Result<()> {
    let pc = &model.post_crawford;
    let rates = [
        ("gammon-rate-leader", model.gammon_rate_leader),
        ("gammon-rate-trailer", model.gammon_rate_trailer),
        ("post-Crawford gammon-rate-trailer", pc.gammon_rate_trailer),
        ("free-drop-2-away", pc.free_drop_2_away),
        ("free-drop-4-away", pc.free_drop_4_away),
    ];
    for (name, value) in rates {
        if !is_probability(value) {
            return Err(Error::new(format!("Zadeh parameter {name} = {value} is not in [0, 1]")));
        }
    }
    for (name, value) in [("delta", model.delta), ("delta-bar", model.delta_bar)] {
        if !value.is_finite() {
            return Err(Error::new(format!("Zadeh parameter {name} = {value} is not a number")));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Zadeh's model and gnubg's extensions.

/// The post-Crawford row of the model, from the 1-away/1-away score on.
fn post_crawford_row(model: &PostCrawfordModel) -> Result<PostRow> {
    let mut row = [0.0; MAX_SCORE];
    continue_post_crawford(&mut row, 0, model)?;
    Ok(row)
}

/// Fills `row[start..]` by the post-Crawford recursion: the trailer doubles
/// at once and the leader takes, so the trailer wins 2 points (4 with a
/// gammon) half of the time and loses the match otherwise; the leader's free
/// drop at 2-away and 4-away is then taken off. Entries below `start` are
/// kept: that is how gnubg continues an explicit row.
fn continue_post_crawford(row: &mut PostRow, start: usize, model: &PostCrawfordModel) -> Result<()> {
    let g = model.gammon_rate_trailer;
    for i in start..MAX_SCORE {
        let after = |won: usize| if i >= won { row[i - won] } else { 1.0 };
        let mut value = g * 0.5 * after(4) + (1.0 - g) * 0.5 * after(2);
        match i {
            1 => value -= model.free_drop_2_away,
            3 => value -= model.free_drop_4_away,
            _ => {}
        }
        if !is_probability(value) {
            return Err(Error::new(format!("the post-Crawford chance at {}-away comes out at {value}", i + 1)));
        }
        row[i] = value;
    }
    Ok(())
}

/// The highest cube level the model considers: cubes 1, 2, ..., 64, gnubg's
/// `MAXCUBELEVEL` (7 levels).
const CUBE_LEVELS: u32 = 7;

/// The pre-Crawford table by Zadeh's recursion, built from the post-Crawford
/// row `post` (of the trailer), in gnubg's order: the Crawford row first,
/// then each cell `(i, j)` with `j <= i` from the cells it needs, which are
/// all nearer the end of the match; `(j, i)` is 1 minus it.
fn zadeh_pre(model: &ZadehModel, post: &PostRow) -> Box<PreTable> {
    let mut met = Box::new([[0.0; MAX_SCORE]; MAX_SCORE]);
    let g = model.gammon_rate_leader;
    for i in 0..MAX_SCORE {
        let after = |won: usize| if i >= won { post[i - won] } else { 1.0 };
        met[i][0] = g * 0.5 * after(2) + (1.0 - g) * 0.5 * after(1);
        met[0][i] = 1.0 - met[i][0];
    }
    for i in 1..MAX_SCORE {
        for j in 1..=i {
            met[i][j] = zadeh_cell(&met, model, i, j);
            if i != j {
                met[j][i] = 1.0 - met[i][j];
            }
        }
    }
    met
}

/// One cell of Zadeh's table: the two players' drop points with the cube
/// at 1 (each moved from its dead-cube value by the other's drop point one
/// cube level up, while both can still use the cube there), weighted into
/// the chance of winning.
fn zadeh_cell(met: &PreTable, model: &ZadehModel, i: usize, j: usize) -> f64 {
    let (i, j) = (i as i64, j as i64);
    let dead = |cube| (dead_drop_point(met, model, i, j, cube), dead_drop_point(met, model, j, i, cube));
    // (d1, d2): the drop points with "me" doubling and with the opponent doubling.
    let mut d = dead(1i64 << (CUBE_LEVELS - 1));
    for level in (0..CUBE_LEVELS - 1).rev() {
        let cube = 1i64 << level;
        let (d1_dead, d2_dead) = dead(cube);
        d = if i >= 2 * cube && j >= 2 * cube {
            (1.0 + (d.1 + model.delta) * (d1_dead - 1.0), 1.0 + (d.0 + model.delta) * (d2_dead - 1.0))
        } else {
            (d1_dead, d2_dead)
        };
    }
    let (d1, d2) = d;
    let bar = model.delta_bar;
    ((d2 + bar - 0.5) * met_at(met, i - 1, j) + (d1 + bar - 0.5) * met_at(met, i, j - 1)) / (d1 + bar + d2 + bar - 1.0)
}

/// The drop point, with a dead cube, when `a` (needing `a + 1`) doubles `b`
/// to `2 * cube`: the chance of `a` at which `b` is indifferent between
/// passing (`a` wins `cube`) and taking a game worth `2 * cube'` (or twice
/// that with a gammon). `cube'` is `2 * cube` when `a` is below `2 * cube`
/// away and `b` is not, because `b` then redoubles at once for free.
fn dead_drop_point(met: &PreTable, model: &ZadehModel, a: i64, b: i64, cube: i64) -> f64 {
    let (g1, g2) = (model.gammon_rate_leader, model.gammon_rate_trailer);
    let taken = if a < 2 * cube && b >= 2 * cube { 2 * cube } else { cube };
    let lose_taken = g2 * met_at(met, a, b - 4 * taken) + (1.0 - g2) * met_at(met, a, b - 2 * taken);
    let win_taken = g1 * met_at(met, a - 4 * taken, b) + (1.0 - g1) * met_at(met, a - 2 * taken, b);
    (met_at(met, a - cube, b) - lose_taken) / (win_taken - lose_taken)
}

/// A cell of the table with the match over where an index is below zero.
fn met_at(met: &PreTable, i: i64, j: i64) -> f64 {
    if i < 0 {
        1.0
    } else if j < 0 {
        0.0
    } else {
        met[i as usize][j as usize]
    }
}

/// The standard deviation of the points won per game in matches to 1..=10
/// points, as David Montgomery measured them (index 0 unused); 1.77 beyond.
const POINTS_STDDEV: [f64; 11] = [0.0, 1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72];

fn points_stddev(away: usize) -> f64 {
    POINTS_STDDEV.get(away).copied().unwrap_or(1.77)
}

/// Montgomery's estimate of the chance of the player who needs `behind`
/// points against `ahead <= behind`: the points difference after the
/// `(behind + ahead) / 2` games the match takes is taken as normal, with
/// mean zero and each player's per-game deviation, and the chance is that
/// it makes up the deficit (cut off at six deviations, as gnubg does).
fn montgomery(behind: usize, ahead: usize) -> f64 {
    let games = (behind + ahead) as f64 / 2.0;
    let sigma = (points_stddev(behind).powi(2) + points_stddev(ahead).powi(2)).sqrt() * games.sqrt();
    let deficit = (behind - ahead) as f64;
    if 6.0 * sigma > deficit {
        normal_area(deficit / sigma, 6.0)
    } else {
        0.0
    }
}

/// gnubg's extension of a pre-Crawford table known for `0..native` to
/// 64 points: every cell with a coordinate at or beyond `native` is
/// Montgomery's estimate, the cells where "me" needs more points computed
/// and the others 1 minus them. The known cells are untouched.
fn extend_pre(met: &mut PreTable, native: usize) {
    for (i, row) in met.iter_mut().enumerate().skip(native) {
        for (j, cell) in row.iter_mut().enumerate().take(i + 1) {
            *cell = montgomery(i + 1, j + 1);
        }
    }
    #[allow(clippy::needless_range_loop)] // a transpose reads best with indices
    for i in 0..MAX_SCORE {
        for j in native.max(i + 1)..MAX_SCORE {
            met[i][j] = 1.0 - met[j][i];
        }
    }
}

/// The probability that a standard normal variable lies in `[a, b]`.
fn normal_area(a: f64, b: f64) -> f64 {
    let r = std::f64::consts::FRAC_1_SQRT_2;
    (erf(b * r) - erf(a * r)) / 2.0
}

/// The error function, to about 1e-13 absolute: its Taylor series below 3,
/// `1 - erfc` by the continued fraction above (Rust's `f64::erf` is not
/// stable yet).
fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    let two_over_sqrt_pi = std::f64::consts::FRAC_2_SQRT_PI;
    if x < 3.0 {
        // sum of (-1)^n x^(2n+1) / (n! (2n+1))
        let (mut term, mut sum) = (x, x);
        for n in 1..200 {
            term *= -x * x / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 {
                break;
            }
        }
        two_over_sqrt_pi * sum
    } else {
        // erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
        let mut fraction = x;
        for k in (1..=60).rev() {
            fraction = x + (k as f64 / 2.0) / fraction;
        }
        1.0 - two_over_sqrt_pi / 2.0 * (-x * x).exp() / fraction
    }
}

// ---------------------------------------------------------------------------
// gnubg's XML format.

/// What a `<pre-crawford-table>` or `<post-crawford-table>` holds.
enum Source<'a> {
    /// `<row>`s of `<me>` values.
    Explicit(Vec<Vec<f64>>),
    /// `<parameter>`s of Zadeh's model.
    Zadeh(Vec<(&'a str, f64)>),
}

fn parse_met(root: &Element) -> Result<MatchEquityTable> {
    if root.name != "met" {
        return Err(Error::new(format!("the root element is <{}>, not <met>", root.name)));
    }
    let info = root.only_child("info")?;
    let name = info.only_child("name")?.text.trim().to_string();
    let description = match info.children_named("description").next() {
        Some(element) => element.text.trim().to_string(),
        None => String::new(),
    };
    let length_text = info.only_child("length")?.text.trim();
    let length: i64 = length_text.parse().map_err(|_| Error::new(format!("<length> `{length_text}` is not a whole number")))?;

    let pre_source = table_source(root.only_child("pre-crawford-table")?, "pre-crawford-table")?;
    let native_length = match pre_source {
        Source::Explicit(_) => match usize::try_from(length) {
            Ok(n) if (1..=MAX_SCORE).contains(&n) => n,
            _ => return Err(Error::new(format!("<length> {length} is outside 1..={MAX_SCORE} for an explicit table"))),
        },
        Source::Zadeh(_) => MAX_SCORE,
    };
    let post = parse_post(root, &pre_source, native_length)?;
    let pre = match &pre_source {
        Source::Explicit(rows) => explicit_pre(rows, native_length)?,
        Source::Zadeh(parameters) => zadeh_pre(&zadeh_model(parameters)?, &post[0]),
    };
    let table = MatchEquityTable { name, description, native_length, pre, post };
    table.validate()?;
    Ok(table)
}

/// The two post-Crawford rows from one `player="both"` table or one each
/// for players "0" and "1".
fn parse_post(root: &Element, pre: &Source, native_length: usize) -> Result<[PostRow; 2]> {
    let mut rows: [Option<PostRow>; 2] = [None, None];
    for element in root.children_named("post-crawford-table") {
        let players: &[usize] = match element.attribute("player").unwrap_or("both") {
            "both" => &[0, 1],
            "0" => &[0],
            "1" => &[1],
            other => return Err(Error::new(format!("post-crawford-table for player `{other}`"))),
        };
        let row = post_row(table_source(element, "post-crawford-table")?, pre, native_length)?;
        for &player in players {
            if rows[player].replace(row).is_some() {
                return Err(Error::new(format!("two post-crawford-tables for player {player}")));
            }
        }
    }
    match rows {
        [Some(me), Some(opponent)] => Ok([me, opponent]),
        [None, None] => Err(Error::new("no post-crawford-table")),
        [_, None] => Err(Error::new("no post-crawford-table for player 1")),
        [None, _] => Err(Error::new("no post-crawford-table for player 0")),
    }
}

/// A post-Crawford row filled to 64 points.
fn post_row(source: Source, pre: &Source, native_length: usize) -> Result<PostRow> {
    match source {
        Source::Zadeh(parameters) => post_crawford_row(&post_crawford_model(&parameters)?),
        Source::Explicit(rows) => {
            let [values] = rows.as_slice() else {
                return Err(Error::new(format!("post-crawford-table has {} rows, not 1", rows.len())));
            };
            // An explicit pre-Crawford table's length decides how much of the
            // row counts (gnubg: `length - 1` values); after a Zadeh one, all.
            let known = match pre {
                Source::Explicit(_) => native_length - 1,
                Source::Zadeh(_) => values.len().min(MAX_SCORE),
            };
            if values.len() < known {
                return Err(Error::new(format!(
                    "post-crawford-table has {} values; a {native_length}-point table needs {known}",
                    values.len()
                )));
            }
            let mut row = [0.0; MAX_SCORE];
            row[..known].copy_from_slice(&values[..known]);
            continue_post_crawford(&mut row, known, &PostCrawfordModel::default())?;
            Ok(row)
        }
    }
}

/// The explicit rows as a table, extended to 64 points.
fn explicit_pre(rows: &[Vec<f64>], length: usize) -> Result<Box<PreTable>> {
    if rows.len() != length {
        return Err(Error::new(format!("pre-crawford-table has {} rows; <length> says {length}", rows.len())));
    }
    let mut met = Box::new([[0.0; MAX_SCORE]; MAX_SCORE]);
    for (i, row) in rows.iter().enumerate() {
        if row.len() != length {
            return Err(Error::new(format!("row {} of the pre-crawford-table has {} values, not {length}", i + 1, row.len())));
        }
        met[i][..length].copy_from_slice(row);
    }
    extend_pre(&mut met, length);
    Ok(met)
}

/// The content of a table element, by its `type` (default "explicit").
fn table_source<'a>(element: &'a Element, what: &str) -> Result<Source<'a>> {
    match element.attribute("type").unwrap_or("explicit") {
        "explicit" => explicit_rows(element, what).map(Source::Explicit),
        "zadeh" => parameters(element, what).map(Source::Zadeh),
        other => Err(Error::new(format!("{what} of type `{other}` is not supported (explicit or zadeh)"))),
    }
}

fn explicit_rows(element: &Element, what: &str) -> Result<Vec<Vec<f64>>> {
    let mut rows = Vec::new();
    for (r, row) in element.children_named("row").enumerate() {
        let mut values = Vec::new();
        for (c, me) in row.children_named("me").enumerate() {
            let value = number(&me.text, &format!("{what} row {} value {}", r + 1, c + 1))?;
            if !is_probability(value) {
                return Err(Error::new(format!("{what} row {} value {} is {value}, outside [0, 1]", r + 1, c + 1)));
            }
            values.push(value);
        }
        rows.push(values);
    }
    Ok(rows)
}

fn parameters<'a>(element: &'a Element, what: &str) -> Result<Vec<(&'a str, f64)>> {
    let list = element.only_child("parameters")?;
    list.children_named("parameter")
        .map(|parameter| {
            let name = parameter.attribute("name").ok_or_else(|| Error::new(format!("a <parameter> of the {what} has no name")))?;
            Ok((name, number(&parameter.text, &format!("{what} parameter {name}"))?))
        })
        .collect()
}

fn number(text: &str, what: &str) -> Result<f64> {
    let text = text.trim();
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(value),
        _ => Err(Error::new(format!("{what} `{text}` is not a number"))),
    }
}

fn zadeh_model(parameters: &[(&str, f64)]) -> Result<ZadehModel> {
    let mut model = ZadehModel::default();
    for &(name, value) in parameters {
        let field = match name {
            "gammon-rate-leader" => &mut model.gammon_rate_leader,
            "gammon-rate-trailer" => &mut model.gammon_rate_trailer,
            "delta" => &mut model.delta,
            "delta-bar" => &mut model.delta_bar,
            _ => return Err(Error::new(format!("unknown pre-Crawford Zadeh parameter `{name}`"))),
        };
        *field = value;
    }
    check_model(&model)?;
    Ok(model)
}

fn post_crawford_model(parameters: &[(&str, f64)]) -> Result<PostCrawfordModel> {
    let mut model = PostCrawfordModel::default();
    for &(name, value) in parameters {
        let field = match name {
            "gammon-rate-trailer" => &mut model.gammon_rate_trailer,
            "free-drop-2-away" => &mut model.free_drop_2_away,
            "free-drop-4-away" => &mut model.free_drop_4_away,
            _ => return Err(Error::new(format!("unknown post-Crawford Zadeh parameter `{name}`"))),
        };
        *field = value;
    }
    check_model(&ZadehModel { post_crawford: model, ..ZadehModel::default() })?;
    Ok(model)
}

/// The text of the file at `path`, refused when it holds more than `limit`
/// bytes: a bounded read (at most `limit + 1` bytes, whatever the file's
/// size says), so `/dev/zero`, an endless device or a huge file is refused
/// without reading it all.
fn read_bounded(path: &Path, limit: u64) -> std::io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    if file.metadata()?.len() > limit {
        return Err(std::io::Error::other(format!("larger than {} bytes", crate::limits::grouped(limit.into()))));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!("larger than {} bytes", crate::limits::grouped(limit.into()))));
    }
    String::from_utf8(bytes).map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gnubg's zadeh.xml without its DOCTYPE, its notice kept.
    const ZADEH_XML: &str = r#"<?xml version = "1.0"?>
<!--

     Copyright (C) 2002 Joern Thyssen <jthyssen@dk.ibm.com>

     Parameters for a match equity table derived from
     the formulas described in
     Norman Zadeh, _On Doubling in Tournament Backgammon_
     Management Science, Vol. 23, No. 9, May 1977

     This file is distributed as a part of the GNU Backgammon program.

     Copying and distribution of this file, with or without modification,
     are permitted in any medium without royalty provided the copyright
     notice and this notice are preserved.  This file is offered as-is,
     without any warranty.

     $Id: zadeh.xml,v 1.5 2020/12/12 21:37:18 plm Exp $

 -->
<met>
   <info>
      <name>N. Zadeh</name>
      <description>N. Zadeh, Management Science 23, 986 (1977)</description>
      <length>-1</length>
   </info>
   <pre-crawford-table type="zadeh">
      <parameters>
         <parameter name="gammon-rate-leader">0.25</parameter>
         <parameter name="gammon-rate-trailer">0.15</parameter>
         <parameter name="delta">0.08</parameter>
         <parameter name="delta-bar">0.06</parameter>
      </parameters>
   </pre-crawford-table>
   <post-crawford-table type="zadeh" player="both">
      <parameters>
         <parameter name="gammon-rate-trailer">0.25</parameter>
         <parameter name="free-drop-2-away">0.015</parameter>
         <parameter name="free-drop-4-away">0.004</parameter>
      </parameters>
   </post-crawford-table>
</met>"#;

    /// A well-formed explicit table of `n` points built from a formula, for
    /// the bad-input tests to break in one place at a time.
    fn small_xml(n: usize, post_values: usize) -> String {
        let mut text = format!("<met><info><name>t</name><description>d</description><length>{n}</length></info>");
        text.push_str("<pre-crawford-table type=\"explicit\">");
        for i in 0..n {
            text.push_str("<row>");
            for j in 0..n {
                let value = 0.5 + 0.04 * (j as f64 - i as f64);
                text.push_str(&format!("<me>{value}</me>"));
            }
            text.push_str("</row>");
        }
        text.push_str("</pre-crawford-table><post-crawford-table type=\"explicit\" player=\"both\"><row>");
        for j in 0..post_values {
            text.push_str(&format!("<me>{}</me>", 0.5 / (1 + j) as f64));
        }
        text.push_str("</row></post-crawford-table></met>");
        text
    }

    fn error_of(text: &str) -> String {
        MatchEquityTable::from_xml(text).expect_err("the table should be refused").to_string()
    }

    /// gnubg's tables from `scripts/gnubg_met_fixture.py`: (pre, post rows).
    fn gnubg_fixture(json: &str) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
        let value: serde_json::Value = serde_json::from_str(json).unwrap();
        let rows = |v: &serde_json::Value| -> Vec<Vec<f64>> {
            v.as_array().unwrap().iter().map(|row| row.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()).collect()
        };
        (rows(&value["pre"]), rows(&value["post"]))
    }

    /// The largest difference between a table and gnubg's, and where.
    fn largest_difference(table: &MatchEquityTable, json: &str) -> (f64, String) {
        let (pre, post) = gnubg_fixture(json);
        assert_eq!((pre.len(), post.len()), (MAX_SCORE, 2));
        let mut worst = (0.0, String::new());
        for (i, gnubg_row) in pre.iter().enumerate() {
            assert_eq!(gnubg_row.len(), MAX_SCORE);
            for (j, gnubg) in gnubg_row.iter().enumerate() {
                let diff = (table.pre(i + 1, j + 1) - gnubg).abs();
                if diff > worst.0 {
                    worst = (diff, format!("pre({}, {})", i + 1, j + 1));
                }
            }
            for (player, row) in post.iter().enumerate() {
                let ours = if player == 0 { table.post(i + 1) } else { table.post_opponent(i + 1) };
                let diff = (ours - row[i]).abs();
                if diff > worst.0 {
                    worst = (diff, format!("post row {player} at {}-away", i + 1));
                }
            }
        }
        worst
    }

    /// gnubg keeps its tables in C floats and tavla in f64: the largest
    /// differences are 7e-8 (Kazaross-XG2) and 1.3e-7 (Zadeh, whose
    /// recursion gnubg runs in floats), so 1e-6 passes float rounding and
    /// catches any real disagreement (a wrong Montgomery deviation moves
    /// cells by 1e-3).
    const GNUBG_TOLERANCE: f64 = 1e-6;

    #[test]
    fn kazaross_cells_are_the_files_values() {
        let met = MatchEquityTable::kazaross_xg2();
        assert_eq!(met.name(), "Kazaross XG2 25 point MET");
        assert_eq!(met.native_length(), 25);
        assert!(met.description().starts_with("Generated using XG rollouts"));
        assert_eq!(met.pre(1, 1), 0.5);
        assert_eq!(met.pre(1, 2), 0.67736);
        assert_eq!(met.pre(2, 1), 0.32264);
        assert_eq!(met.pre(3, 5), 0.64795);
        assert_eq!(met.pre(1, 25), 0.99905);
        assert_eq!(met.pre(10, 1), 0.040725);
        assert_eq!(met.post(1), 0.5);
        assert_eq!(met.post(2), 0.48803);
        assert_eq!(met.post(3), 0.32264);
        assert_eq!(met.post(24), 0.00182);
        assert_eq!(met.post_opponent(2), 0.48803);
    }

    #[test]
    fn post_crawford_row_continues_from_length_minus_one() {
        // The file gives 0.00123 at 25-away; gnubg keeps only 24 values and
        // computes the 25th from 21- and 23-away with gammon rate 0.25.
        let met = MatchEquityTable::kazaross_xg2();
        let expected = 0.25 * 0.5 * 0.00336 + 0.75 * 0.5 * 0.00203;
        assert!((met.post(25) - expected).abs() < 1e-15, "{}", met.post(25));
    }

    #[test]
    fn a_file_past_the_size_limit_is_refused_unread() {
        // /dev/zero says its size is 0 and never ends: refused after MAX_MET_BYTES + 1 bytes.
        if Path::new("/dev/zero").exists() {
            let e = MatchEquityTable::from_file("/dev/zero").unwrap_err().to_string();
            assert!(e.contains("larger than 1,048,576 bytes"), "{e}");
        }
        // A big file on disk is refused from its size alone.
        let path = std::env::temp_dir().join(format!("tavla-met-{}.xml", std::process::id()));
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(crate::limits::MAX_MET_BYTES + 1).unwrap();
        let e = MatchEquityTable::from_file(&path).unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(e.contains("larger than"), "{e}");
        // Not text.
        let path = std::env::temp_dir().join(format!("tavla-met-{}-bin.xml", std::process::id()));
        std::fs::write(&path, [0xffu8, 0xfe, 0x00]).unwrap();
        let e = MatchEquityTable::from_file(&path).unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(e.contains("not UTF-8"), "{e}");
    }

    #[test]
    fn kazaross_is_symmetric_where_the_file_is() {
        // The file's 25 x 25 cells are complementary, and the extension
        // makes the others so, except that Montgomery's diagonal beyond 25
        // is cut at six deviations and falls short of 1/2 by 1e-9.
        let met = MatchEquityTable::kazaross_xg2();
        for i in 1..=MAX_SCORE {
            for j in 1..=MAX_SCORE {
                let sum = met.pre(i, j) + met.pre(j, i);
                let tolerance = if i == j && i > 25 { 1e-8 } else { 1e-12 };
                assert!((sum - 1.0).abs() < tolerance, "pre({i}, {j}) + pre({j}, {i}) = {sum}");
            }
        }
    }

    /// Needing more points never helps, the opponent needing more never
    /// hurts, and every value is a probability.
    fn assert_monotone(met: &MatchEquityTable) {
        for i in 1..=MAX_SCORE {
            for j in 1..=MAX_SCORE {
                let value = met.pre(i, j);
                assert!(is_probability(value), "pre({i}, {j}) = {value}");
                if i < MAX_SCORE {
                    assert!(met.pre(i + 1, j) <= value, "pre({}, {j}) > pre({i}, {j})", i + 1);
                }
                if j < MAX_SCORE {
                    assert!(met.pre(i, j + 1) >= value, "pre({i}, {}) < pre({i}, {j})", j + 1);
                }
            }
            assert!(is_probability(met.post(i)), "post({i}) = {}", met.post(i));
            if i < MAX_SCORE {
                assert!(met.post(i + 1) <= met.post(i), "post({}) > post({i})", i + 1);
            }
        }
    }

    #[test]
    fn extension_to_64_is_monotone_and_in_range() {
        assert_monotone(MatchEquityTable::kazaross_xg2());
        assert_monotone(&MatchEquityTable::from_xml(ZADEH_XML).unwrap());
        // Montgomery's cells beyond 25 points: long matches are nearly even.
        let met = MatchEquityTable::kazaross_xg2();
        assert!((met.pre(64, 64) - 0.5).abs() < 1e-9);
        assert!(met.pre(64, 1) < 1e-6 && met.pre(1, 64) > 1.0 - 1e-6);
    }

    #[test]
    fn kazaross_matches_gnubgs_extended_table() {
        let json = include_str!("../../tests/data/met_kazaross_xg2_gnubg.json");
        let (diff, at) = largest_difference(MatchEquityTable::kazaross_xg2(), json);
        assert!(diff <= GNUBG_TOLERANCE, "differs from gnubg by {diff} at {at}");
    }

    #[test]
    fn zadeh_matches_gnubgs_table() {
        let json = include_str!("../../tests/data/met_zadeh_gnubg.json");
        let met = MatchEquityTable::from_xml(ZADEH_XML).unwrap();
        assert_eq!(met.native_length(), MAX_SCORE);
        let (diff, at) = largest_difference(&met, json);
        assert!(diff <= GNUBG_TOLERANCE, "differs from gnubg by {diff} at {at}");
        // The generator with gnubg's default parameters is the same table.
        let generated = MatchEquityTable::zadeh("N. Zadeh", met.description(), &ZadehModel::default(), 64).unwrap();
        assert_eq!(generated, met);
    }

    #[test]
    fn zadeh_values_by_hand() {
        let met = MatchEquityTable::from_xml(ZADEH_XML).unwrap();
        // Post-Crawford: 1/2 at 1-away, minus the free drop at 2-away, and at
        // 3-away the trailer wins a gammon (1/2 * 0.25) or a single game
        // (1/2 * 0.75) and then needs 1 point (1/2).
        assert_eq!(met.post(1), 0.5);
        assert!((met.post(2) - 0.485).abs() < 1e-15);
        assert!((met.post(3) - (0.125 + 0.375 * 0.5)).abs() < 1e-15);
        // The Crawford game: at 2-away a gammon wins the match, a single
        // game leaves 1-away/1-away; at 3-away they leave 1- or 2-away.
        assert!((met.pre(2, 1) - (0.125 + 0.375 * 0.5)).abs() < 1e-15);
        assert!((met.pre(3, 1) - (0.125 * 0.5 + 0.375 * 0.485)).abs() < 1e-15);
    }

    #[test]
    fn mwc_reads_the_right_table() {
        let met = MatchEquityTable::kazaross_xg2();
        assert_eq!(met.mwc(0, 5, false), 1.0);
        assert_eq!(met.mwc(-2, 5, true), 1.0);
        assert_eq!(met.mwc(5, 0, false), 0.0);
        assert_eq!(met.mwc(5, -1, true), 0.0);
        assert_eq!(met.mwc(3, 5, false), met.pre(3, 5));
        assert_eq!(met.mwc(3, 5, true), met.pre(3, 5));
        // 1-away before the Crawford game: the Crawford game's row.
        assert_eq!(met.mwc(1, 2, false), 0.67736);
        assert_eq!(met.mwc(2, 1, false), 0.32264);
        // After it: the trailer's post-Crawford chance, and 1 minus it.
        assert_eq!(met.mwc(2, 1, true), 0.48803);
        assert_eq!(met.mwc(1, 2, true), 1.0 - 0.48803);
        assert_eq!(met.mwc(1, 1, true), 0.5);
        assert_eq!(met.mwc(64, 64, false), met.pre(64, 64));
    }

    #[test]
    fn per_player_post_crawford_rows() {
        let text = small_xml(3, 3).replace(
            "<post-crawford-table type=\"explicit\" player=\"both\"><row><me>0.5</me><me>0.25</me>",
            "<post-crawford-table player=\"0\"><row><me>0.5</me><me>0.45</me></row></post-crawford-table>\
             <post-crawford-table player=\"1\"><row><me>0.5</me><me>0.40</me>",
        );
        let met = MatchEquityTable::from_xml(&text).unwrap();
        assert_eq!((met.post(2), met.post_opponent(2)), (0.45, 0.40));
        assert_eq!(met.mwc(2, 1, true), 0.45);
        assert_eq!(met.mwc(1, 2, true), 1.0 - 0.40);
    }

    #[test]
    fn a_small_table_extends_like_gnubg() {
        let met = MatchEquityTable::from_xml(&small_xml(3, 2)).unwrap();
        assert_eq!(met.pre(2, 3), 0.54);
        assert_eq!(met.pre(4, 2), montgomery(4, 2));
        assert_eq!(met.pre(2, 4), 1.0 - montgomery(4, 2));
        assert_eq!((met.post(1), met.post(2)), (0.5, 0.25));
        // 3-away onwards by the recursion: the first post-Crawford score of
        // a 3-point match is 2-away.
        assert!((met.post(3) - (0.125 + 0.375 * 0.5)).abs() < 1e-15);
    }

    #[test]
    fn bad_tables_are_refused_with_a_reason() {
        let good = small_xml(3, 3);
        assert!(MatchEquityTable::from_xml(&good).is_ok());
        let missing_row = good.replacen("<row><me>0.5</me><me>0.54</me><me>0.58</me></row>", "", 1);
        let short_row = good.replacen("<me>0.58</me>", "", 1);
        for (text, wanted) in [
            ("this is not xml".to_string(), "not XML"),
            ("<met></met".to_string(), "XML line 1"),
            ("<table/>".to_string(), "not <met>"),
            (missing_row, "has 2 rows; <length> says 3"),
            (short_row, "row 1 of the pre-crawford-table has 2 values"),
            (good.replacen("<me>0.54</me>", "<me>1.5</me>", 1), "row 1 value 2 is 1.5, outside [0, 1]"),
            (good.replacen("<me>0.54</me>", "<me>-0.1</me>", 1), "outside [0, 1]"),
            (good.replacen("<me>0.54</me>", "<me>x</me>", 1), "row 1 value 2 `x` is not a number"),
            (good.replacen("<me>0.54</me>", "<me>NaN</me>", 1), "is not a number"),
            (good.replace("<length>3</length>", "<length>4</length>"), "has 3 rows; <length> says 4"),
            (good.replace("<length>3</length>", "<length>65</length>"), "outside 1..=64"),
            (good.replace("<length>3</length>", "<length>three</length>"), "not a whole number"),
            (good.replace("<length>3</length>", ""), "<info> has no <length>"),
            (good.replace("type=\"explicit\">", "type=\"mec\">"), "type `mec` is not supported"),
            (small_xml(3, 1), "post-crawford-table has 1 values; a 3-point table needs 2"),
            (good.replace("player=\"both\"", "player=\"0\""), "no post-crawford-table for player 1"),
            (good.replace("player=\"both\"", "player=\"2\""), "player `2`"),
        ] {
            let err = error_of(&text);
            assert!(err.starts_with("match equity table: "), "{err}");
            assert!(err.contains(wanted), "wanted {wanted:?} in {err:?}");
        }
        let no_post = {
            let start = good.find("<post-crawford-table").unwrap();
            let end = good.find("</met>").unwrap();
            format!("{}{}", &good[..start], &good[end..])
        };
        assert!(error_of(&no_post).contains("no post-crawford-table"));
        let unknown = ZADEH_XML.replace("delta-bar", "deltabar");
        assert!(error_of(&unknown).contains("unknown pre-Crawford Zadeh parameter `deltabar`"));
        let bad_rate = ZADEH_XML.replace(">0.15<", ">1.15<");
        assert!(error_of(&bad_rate).contains("gammon-rate-trailer = 1.15 is not in [0, 1]"));
    }

    /// Every table gnubg ships reads (catalog.xml is the list of them),
    /// except the one of type `mec`. Where
    /// gnubg is not installed there is nothing to read and nothing to check.
    #[test]
    fn gnubgs_own_tables_read() {
        let Ok(entries) = std::fs::read_dir("/usr/share/gnubg/met") else { return };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|ext| ext == "xml") && !path.ends_with("catalog.xml") {
                let result = MatchEquityTable::from_file(&path);
                if path.ends_with("mec.xml") {
                    assert!(result.unwrap_err().to_string().contains("type `mec` is not supported"));
                } else {
                    let met = result.unwrap_or_else(|err| panic!("{err}"));
                    assert_sane(&met, &path);
                }
            }
        }
    }

    /// Probabilities everywhere, and an even game at 1-away/1-away where
    /// the table favours neither player.
    fn assert_sane(met: &MatchEquityTable, path: &Path) {
        for i in 1..=MAX_SCORE {
            for j in 1..=MAX_SCORE {
                assert!(is_probability(met.pre(i, j)), "{}: pre({i}, {j})", path.display());
            }
        }
        if met.post[0] == met.post[1] {
            assert_eq!((met.pre(1, 1), met.post(1)), (0.5, 0.5), "{}", path.display());
        }
    }

    #[test]
    fn missing_files_are_named() {
        let err = MatchEquityTable::from_file("/nonexistent/met.xml").unwrap_err().to_string();
        assert!(err.contains("/nonexistent/met.xml"), "{err}");
    }

    #[test]
    fn gammon_rate_tables() {
        for rate in [0.0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6] {
            let met = MatchEquityTable::from_gammon_rate("nardy", rate, 25).unwrap();
            assert_eq!((met.name(), met.native_length()), ("nardy", 25));
            assert_monotone(&met);
            for i in 1..=MAX_SCORE {
                for j in 1..=MAX_SCORE {
                    assert!((met.pre(i, j) + met.pre(j, i) - 1.0).abs() < 1e-9, "rate {rate} at {i}, {j}");
                }
            }
        }
        // More gammons make the Crawford game better for the trailer.
        let low = MatchEquityTable::from_gammon_rate("low", 0.1, 25).unwrap();
        let high = MatchEquityTable::from_gammon_rate("high", 0.4, 25).unwrap();
        assert!(high.pre(3, 1) > low.pre(3, 1));
        // The parameters the rate sets and the ones it leaves.
        let model = ZadehModel {
            gammon_rate_leader: 0.3,
            gammon_rate_trailer: 0.3,
            post_crawford: PostCrawfordModel { gammon_rate_trailer: 0.3, ..PostCrawfordModel::default() },
            ..ZadehModel::default()
        };
        let by_rate = MatchEquityTable::from_gammon_rate("g", 0.3, 11).unwrap();
        assert_eq!(by_rate.pre_table(), MatchEquityTable::zadeh("g", "", &model, 11).unwrap().pre_table());
        for (rate, length) in [(1.0, 25), (-0.1, 25), (f64::NAN, 25), (0.2, 0), (0.2, 65)] {
            assert!(MatchEquityTable::from_gammon_rate("bad", rate, length).is_err(), "{rate} {length}");
        }
    }

    #[test]
    fn erf_is_accurate() {
        // Reference values of erf to 15 digits.
        for (x, want) in [
            (0.1, 0.112_462_916_018_285),
            (0.5, 0.520_499_877_813_047),
            (1.0, 0.842_700_792_949_715),
            (2.0, 0.995_322_265_018_953),
            (2.9, 0.999_958_902_121_900),
            (3.5, 0.999_999_256_901_628),
            (4.242_640_687_119_285, 0.999_999_998_026_825),
        ] {
            assert!((erf(x) - want).abs() < 1e-12, "erf({x}) = {} not {want}", erf(x));
            assert!((erf(-x) + want).abs() < 1e-12);
        }
    }
}
