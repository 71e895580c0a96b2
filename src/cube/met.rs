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
//!   leading at 1-away: its Crawford row is built as
//!   `pre[i][0] = g/2 post[i-2] + (1-g)/2 post[i-1]` (the trailer wins the
//!   Crawford game half the time, a gammon with rate `g`), and its lookups
//!   read `1 - post[n]` for the leader. An XML post-Crawford table with
//!   `player="both"` fills the row of both players.
//!
//! Tables are kept filled to [`MAX_SCORE`] = 64 points (gnubg's `MAXSCORE`).
//! A table shorter than that is extended exactly as gnubg extends it (see
//! [`MatchEquityTable::from_xml`]), so tavla and gnubg agree on every cell;
//! the tests compare with gnubg's own extended tables.
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
        TABLE.get_or_init(|| {
            MatchEquityTable::from_xml(KAZAROSS_XG2_XML).expect("the shipped Kazaross-XG2 table is valid")
        })
    }

    /// Reads a table in gnubg's XML format from a file.
    pub fn from_file(path: impl AsRef<Path>) -> Result<MatchEquityTable> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
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
    ///   normal approximation (see [`extend_pre`]);
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
            Some(bad) => Err(Error::new(format!(
                "the table `{}` computes a match winning chance of {bad}, outside [0, 1]",
                self.name
            ))),
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
    for i in native..MAX_SCORE {
        for j in 0..=i {
            met[i][j] = montgomery(i + 1, j + 1);
        }
    }
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
    let length: i64 = length_text
        .parse()
        .map_err(|_| Error::new(format!("<length> `{length_text}` is not a whole number")))?;

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
        return Err(Error::new(format!(
            "pre-crawford-table has {} rows; <length> says {length}",
            rows.len()
        )));
    }
    let mut met = Box::new([[0.0; MAX_SCORE]; MAX_SCORE]);
    for (i, row) in rows.iter().enumerate() {
        if row.len() != length {
            return Err(Error::new(format!(
                "row {} of the pre-crawford-table has {} values, not {length}",
                i + 1,
                row.len()
            )));
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
            let name = parameter
                .attribute("name")
                .ok_or_else(|| Error::new(format!("a <parameter> of the {what} has no name")))?;
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
