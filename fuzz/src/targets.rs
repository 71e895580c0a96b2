//! The fuzz targets: one function per kind of outside input tavla takes.
//!
//! Each target reads arbitrary bytes, hands them to tavla's public API and
//! panics only where an invariant breaks: a parser may refuse anything, but
//! it must never panic, and what it accepts must write back and read again
//! as the same thing. AFL runs them from `src/bin/<target>.rs`; the main
//! crate's `tests/fuzz_corpus.rs` compiles this same file (it uses only
//! tavla's public API and serde_json) to replay `fuzz/corpus/` in
//! `cargo test`, without AFL.
//!
//! Binary targets read their bytes with [`Bytes`], which gives zeros past
//! the end, so every input, even an empty one, is a valid call.

use std::borrow::Cow;

use tavla::batch;
use tavla::cascade;
use tavla::cube::janowski::{self, Chances};
use tavla::cube::{CubeDecision, CubeState, MatchEquityTable, Owner};
use tavla::dice::Dice;
use tavla::formats::{self, fibs, gnubg, json, matchtext, record, sgf, xgid};
use tavla::game::entry;
use tavla::game::matches::Match;
use tavla::game::{Game, Snapshot};
use tavla::movegen::{self, Move};
use tavla::notation::format_play;
use tavla::position::{Position, CHECKERS, ME, THEM};
use tavla::variant::{OptionValue, Rules, Variant};

/// A target: bytes in, a panic out when something is wrong.
pub type Target = fn(&[u8]);

/// Every target by name; `fuzz/corpus/<name>/` holds its seeds.
pub const TARGETS: &[(&str, Target)] = &[
    ("xgid", xgid_text),
    ("gnubg", gnubg_text),
    ("fibs", fibs_text),
    ("json_position", json_position),
    ("game_record", game_record),
    ("match_record", match_record),
    ("position_arrays", position_arrays),
    ("batch", batch_arrays),
    ("move_entry", move_entry),
    ("notation", notation),
    ("rules", rules_options),
    ("cube_state", cube_state),
    ("met_xml", met_xml),
    ("handover", handover),
    ("sgf", sgf_file),
    ("match_text", match_text),
];

/// Builds what tavla builds once per process (the shipped match equity
/// table, this thread's move generator) before AFL forks its children, so a
/// child's first input does not show different coverage from its later ones.
pub fn warm_up() {
    let _ = MatchEquityTable::kazaross_xg2();
    for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
        let _ = movegen::legal_moves(&Position::start(rules), 6, 6);
    }
}

/// The target of a name.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|&(_, t)| t)
}

fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Reads fixed-size fields from the front of an input, zeros past its end.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, at: 0 }
    }

    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    pub fn i8(&mut self) -> i8 {
        self.u8() as i8
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// What is left after the fields read so far.
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.at..).unwrap_or(&[])
    }
}

/// A variant (first byte) and its rule options (bits of the second): each
/// option a variant lacks is refused by `Rules::set` and ignored.
fn rules_from(variant: u8, bits: u8) -> Rules {
    let mut r = Rules::new(Variant::ALL[variant as usize % Variant::ALL.len()]);
    let flag = |k: u8| OptionValue::Bool(bits >> k & 1 == 1);
    let name = |s: &str| OptionValue::Str(s.to_string());
    let _ = r.set("head_rule", &flag(0));
    // Bit 1, and a fence index of 3 (which reads as "ahead"), pick the head exception.
    let exception = (bits >> 1 & 1) as usize | usize::from(bits >> 2 & 3 == 3) << 1;
    let _ = r.set("first_turn_head_exception", &name(["listed", "blocked", "head_blocked", "head_blocked"][exception]));
    let _ = r.set("fence_rule", &name(["ahead", "home", "none"][(bits >> 2 & 3) as usize % 3]));
    let _ = r.set("exact_bearoff", &flag(4));
    let _ = r.set("koks", &flag(5));
    let _ = r.set("last_roll_draw", &flag(6));
    let _ = r.set("cascade_after_rolls", &OptionValue::Int(if bits >> 7 == 1 { 0 } else { 3 }));
    // Bit 7 again: opening_roll is nardy's, cascade_after_rolls gul bara's.
    let _ = r.set("opening_roll", &name(if bits >> 7 == 1 { "single_dice" } else { "reroll" }));
    r
}

/// Two 25-entry arrays of raw counts (mover's, then opponent's).
fn arrays(b: &mut Bytes) -> ([i64; 25], [i64; 25]) {
    let mut mine = [0i64; 25];
    let mut theirs = [0i64; 25];
    for n in mine.iter_mut().chain(theirs.iter_mut()) {
        *n = b.i8() as i64;
    }
    (mine, theirs)
}

/// A position some random turns from the start (plies made with `seed`).
fn walk(rules: Rules, plies: u8, seed: u8) -> Position {
    let mut dice = Dice::new(seed as u64);
    let mut pos = Position::start(rules);
    for _ in 0..plies {
        let [d1, d2] = dice.roll();
        let moves = movegen::legal_moves(&pos, d1 as i64, d2 as i64).expect("rolled dice are dice");
        if moves.is_empty() {
            break;
        }
        let next = moves[dice.below(moves.len())].position;
        if next.is_game_over() {
            break;
        }
        pos = next.flip();
    }
    pos
}

/// The roll a byte names: one of the 36.
fn roll(b: u8) -> (i64, i64) {
    ((b % 6 + 1) as i64, (b / 6 % 6 + 1) as i64)
}

fn arrays_of(pos: &Position) -> ([i64; 25], [i64; 25]) {
    let (mine, theirs) = pos.to_arrays();
    (mine.map(i64::from), theirs.map(i64::from))
}

/// A position that a move produced is a valid position of the same rules.
fn check_result(before: &Position, m: &Move, most: usize) {
    let after = m.position;
    let (mine, theirs) = arrays_of(&after);
    let back = Position::from_arrays(*after.rules(), &mine, &theirs)
        .unwrap_or_else(|e| panic!("a move's result is not a valid position ({e}): {}", after.describe()));
    assert_eq!(back, after, "a move's result is inconsistent");
    assert!(after.off(ME) >= before.off(ME), "a move un-bore checkers off");
    assert!(m.moves_played() <= most, "a move plays {} steps, at most {most} allowed", m.moves_played());
}

// ---------------------------------------------------------------------------
// Position texts.

/// What a snapshot keeps in every form: JSON keeps it all; XGID, GNU
/// Backgammon IDs and FIBS boards (backgammon only) keep the position, the
/// turn, the dice, the cube and the score, and what they write reads back.
fn snapshot_forms(s: &Snapshot) {
    let text = json::snapshot_to_json(s);
    let back = json::snapshot_from_json(&text).unwrap_or_else(|e| panic!("{text} does not read back: {e}"));
    assert_eq!(&back, s, "JSON changed the snapshot: {text}");
    assert_eq!(formats::parse_any(&text).ok(), Some(back), "parse_any reads JSON differently: {text}");
    if s.rules().variant != Variant::Backgammon {
        assert!(xgid::write(s).is_err() && gnubg::gnubg_id(s).is_err() && fibs::write(s, ["a", "b"]).is_err());
        return;
    }
    let key = |s: &Snapshot| (s.position, s.turn, s.dice, s.cube, s.stakes, s.double_offered);
    if let Ok(x) = xgid::write(s) {
        let b = xgid::parse(&x).unwrap_or_else(|e| panic!("the XGID {x} written for {text} does not read back: {e}"));
        assert_eq!(key(&b), key(s), "the XGID {x} changed {text}");
    }
    if let Ok(g) = gnubg::gnubg_id(s) {
        let b = gnubg::parse_gnubg_id(&g).unwrap_or_else(|e| panic!("the gnubg ID {g} of {text} does not read back: {e}"));
        assert_eq!(key(&b), key(s), "the gnubg ID {g} changed {text}");
    }
    // FIBS says who may double, not who owns the cube, and "was doubled"
    // only for player 0: its owner and Crawford flag follow the cube rules.
    if s.double_offered && s.turn == 0 {
        return;
    }
    if let Ok(f) = fibs::write(s, ["you", "opponent"]) {
        let b = fibs::parse(&f).unwrap_or_else(|e| panic!("the FIBS board {f} of {text} does not read back: {e}"));
        let b = b.snapshot;
        let loose = |s: &Snapshot| (s.position, s.turn, s.dice, s.cube.value, s.stakes.match_length, s.stakes.score);
        assert_eq!(loose(&b), loose(s), "the FIBS board {f} changed {text}");
    }
}

/// XGID: `xgid::parse`, and what it accepts writes back to the same text form.
pub fn xgid_text(data: &[u8]) {
    let t = text(data);
    let _ = formats::parse_any(&t);
    let Ok(s) = xgid::parse(&t) else { return };
    let w = xgid::write(&s).expect("a parsed XGID writes back");
    let back = xgid::parse(&w).unwrap_or_else(|e| panic!("{w} (written for {t:?}) does not read back: {e}"));
    assert_eq!(back, s, "{t:?} and its rewrite {w} differ");
    assert_eq!(xgid::write(&back).unwrap(), w);
    snapshot_forms(&s);
}

/// GNU Backgammon Position ID and Match ID.
pub fn gnubg_text(data: &[u8]) {
    let t = text(data);
    let _ = formats::parse_any(&t);
    // A Position ID is canonical: the one text of its position.
    if let Ok(p) = gnubg::position_from_id(Rules::backgammon(), &t) {
        assert_eq!(gnubg::position_id(&p).unwrap(), t.trim(), "the position ID does not write back as itself");
    }
    if let Ok(m) = gnubg::decode_match_key(&t) {
        let again = gnubg::encode_match_key(&m);
        assert_eq!(gnubg::decode_match_key(&again).unwrap(), m, "{t:?} and its rewrite {again} differ");
    }
    let Ok(s) = gnubg::parse_gnubg_id(&t) else { return };
    let id = gnubg::gnubg_id(&s).expect("a parsed gnubg ID writes back");
    let back = gnubg::parse_gnubg_id(&id).unwrap_or_else(|e| panic!("{id} (written for {t:?}) does not read back: {e}"));
    assert_eq!(back, s, "{t:?} and its rewrite {id} differ");
    snapshot_forms(&s);
}

/// FIBS `board:` strings.
pub fn fibs_text(data: &[u8]) {
    let t = text(data);
    let _ = formats::parse_any(&t);
    let Ok(b) = fibs::parse(&t) else { return };
    let names = [b.names[0].as_str(), b.names[1].as_str()];
    match fibs::write(&b.snapshot, names) {
        Ok(w) => {
            let back = fibs::parse(&w).unwrap_or_else(|e| panic!("{w} (written for {t:?}) does not read back: {e}"));
            assert_eq!(back, b, "{t:?} and its rewrite {w} differ");
        }
        Err(e) => assert!(
            names.iter().any(|n| n.is_empty() || n.contains(char::is_whitespace)),
            "a parsed FIBS board with names {names:?} does not write back: {e}"
        ),
    }
    snapshot_forms(&b.snapshot);
}

/// The project's JSON position form (every variant).
pub fn json_position(data: &[u8]) {
    let t = text(data);
    let _ = formats::parse_any(&t);
    if let Ok(s) = json::snapshot_from_json(&t) {
        snapshot_forms(&s);
        // A game may go on from any position that is not over.
        if let Ok(g) = Game::from_snapshot(&s, 0, None, 0) {
            assert_eq!(*g.position(), s.position);
        }
    }
}

// ---------------------------------------------------------------------------
// Records.

/// Game records: replaying them, and what replays writes back as itself.
pub fn game_record(data: &[u8]) {
    let t = text(data);
    let Ok(game) = record::game_from_json(&t) else {
        let _ = record::replay_game(&t);
        return;
    };
    let states = record::replay_game(&t).expect("a record that replays also replays state by state");
    assert_eq!(states.len(), game.history().len() + 1);
    assert_eq!(states.last().unwrap().position(), game.position());
    let written = record::game_to_json(&game);
    let back = record::game_from_json(&written).unwrap_or_else(|e| panic!("a rewritten record does not replay: {e}\n{written}"));
    assert_eq!(back.history(), game.history());
    assert_eq!(back.result(), game.result());
    assert_eq!((back.position(), back.phase(), back.turn(), back.cube()), (game.position(), game.phase(), game.turn(), game.cube()));
    snapshot_forms(&Snapshot::of_game(&game));
}

/// Match records.
pub fn match_record(data: &[u8]) {
    let t = text(data);
    let Ok(m) = record::match_from_json(&t) else { return };
    let written = record::match_to_json(&m);
    let back = record::match_from_json(&written).unwrap_or_else(|e| panic!("a rewritten match does not replay: {e}\n{written}"));
    assert_eq!(back.score(), m.score());
    assert_eq!(back.finished_games().len(), m.finished_games().len());
    assert_eq!(back.game().history(), m.game().history());
    let _: &Match = &back;
}

/// gnubg's `.sgf` match files: what reads must write back and read again
/// as the same games.
pub fn sgf_file(data: &[u8]) {
    let Ok(m) = sgf::read_sgf_bytes(data) else { return };
    let written = sgf::write_sgf(m.length, [&m.players[0], &m.players[1]], m.crawford_rule, &m.games)
        .unwrap_or_else(|e| panic!("a read .sgf does not write: {e}"));
    let back = sgf::read_sgf(&written).unwrap_or_else(|e| panic!("a rewritten .sgf does not read: {e}\n{written}"));
    assert_eq!(back.players, m.players);
    assert_eq!(back.games.len(), m.games.len());
    for (a, b) in m.games.iter().zip(&back.games) {
        assert_eq!(a.game.history(), b.game.history());
        assert_eq!((a.winner, a.points, a.resigned), (b.winner, b.points, b.resigned));
    }
}

/// The long nardy and gul bara match text: read, written, read again.
pub fn match_text(data: &[u8]) {
    let t = text(data);
    let Ok(m) = matchtext::read_match_text(&t) else { return };
    let crawford = t.contains("[Crawford \"On\"]") || !t.contains("[Crawford ");
    let written = matchtext::write_match_text(m.length, [&m.players[0], &m.players[1]], crawford, &m.games)
        .unwrap_or_else(|e| panic!("a read match text does not write: {e}"));
    let back = matchtext::read_match_text(&written).unwrap_or_else(|e| panic!("a rewritten match text does not read: {e}\n{written}"));
    assert_eq!(back.rules, m.rules);
    assert_eq!(back.score, m.score);
    for (a, b) in m.games.iter().zip(&back.games) {
        assert_eq!(a.game.history(), b.game.history());
        assert_eq!((a.winner, a.points, a.resigned), (b.winner, b.points, b.resigned));
    }
}

// ---------------------------------------------------------------------------
// Arrays.

/// `Position::from_arrays` (two bytes of rules, 50 counts) and move
/// generation on whatever it accepts (two raw dice, then a raw cascade step).
pub fn position_arrays(data: &[u8]) {
    let mut b = Bytes::new(data);
    let rules = rules_from(b.u8(), b.u8());
    let (mine, theirs) = arrays(&mut b);
    let Ok(pos) = Position::from_arrays(rules, &mine, &theirs) else { return };
    assert_eq!(arrays_of(&pos), (mine, theirs), "to_arrays does not give back from_arrays");
    assert_eq!(pos.flip().flip(), pos);
    assert_eq!(arrays_of(&pos.flip()), (theirs, mine));
    assert_eq!(pos.off(ME) as i64, CHECKERS as i64 - mine.iter().sum::<i64>());
    assert_eq!(pos.off(THEM) as i64, CHECKERS as i64 - theirs.iter().sum::<i64>());
    let mut flat = Vec::new();
    batch::push_flat(&pos, &mut flat);
    assert_eq!(batch::read_flat(rules, &flat, 0).unwrap(), pos);
    let _ = (pos.describe(), pos.pips(), pos.is_race(), pos.is_game_over());
    let (d1, d2) = (b.i8() as i64, b.i8() as i64);
    match movegen::legal_moves(&pos, d1, d2) {
        Err(_) => assert!(!(1..=6).contains(&d1) || !(1..=6).contains(&d2), "dice {d1}-{d2} refused"),
        Ok(moves) => {
            for m in &moves {
                check_result(&pos, m, if d1 == d2 { 4 } else { 2 });
            }
        }
    }
    let (die, count, head) = (b.i8() as i64, b.i8() as i64, b.i8() as i64);
    if let Ok(steps) = movegen::cascade_step(&pos, die, count, head) {
        for m in &steps {
            check_result(&pos, m, count as usize);
        }
    }
}

/// `batch::results_many`: two bytes of rules, a thread count, a dice count
/// and that many raw dice, then raw position rows (at most 16 used).
pub fn batch_arrays(data: &[u8]) {
    let mut b = Bytes::new(data);
    let rules = rules_from(b.u8(), b.u8());
    let threads = (b.u8() % 3 + 1) as usize;
    let n_dice = b.u8() as usize;
    let dice: Vec<i64> = (0..n_dice.min(b.rest().len())).map(|_| b.i8() as i64).collect();
    let boards: Vec<i8> = b.rest().iter().take(16 * batch::ROW).map(|&x| x as i8).collect();
    let Ok((flat, offsets)) = batch::results_many(rules, &boards, &dice, threads) else { return };
    let n = boards.len() / batch::ROW;
    assert_eq!(offsets.len(), n + 1);
    assert!(offsets.windows(2).all(|w| w[0] <= w[1]), "offsets go backwards: {offsets:?}");
    assert_eq!(flat.len(), offsets[n] * batch::ROW);
    for (k, row) in flat.chunks(batch::ROW).enumerate() {
        batch::read_flat(rules, row, k).expect("every result row is a position");
    }
    if threads > 1 {
        let one = batch::results_many(rules, &boards, &dice, 1).unwrap();
        assert_eq!(one, (flat, offsets), "the results depend on the thread count");
    }
}

// ---------------------------------------------------------------------------
// Moves typed by a person.

/// Move entry: two bytes of rules, the roll, plies and a seed for a position
/// some turns into a game, then the typed move (`find_move`, `is_partial`).
pub fn move_entry(data: &[u8]) {
    let mut b = Bytes::new(data);
    let rules = rules_from(b.u8(), b.u8());
    let (d1, d2) = roll(b.u8());
    let (plies, seed) = (b.u8() % 40, b.u8());
    let pos = walk(rules, plies, seed);
    let typed = text(b.rest());
    let moves = movegen::legal_moves(&pos, d1, d2).unwrap();
    let _ = entry::parse_parts(&typed);
    let _ = entry::is_partial(&moves, &typed);
    if let Ok(i) = entry::find_move(&pos, &moves, &typed) {
        let again = format_play(&moves[i].play);
        let j = entry::find_move(&pos, &moves, &again).unwrap_or_else(|e| panic!("{typed:?} found {again:?}, which is then refused: {e}"));
        assert_eq!(moves[j].position, moves[i].position, "{typed:?} and {again:?} are different moves");
        assert!(entry::is_partial(&moves, &again).unwrap());
    }
}

/// Notation: a position from arrays (as `position_arrays`) and a roll; every
/// legal move's notation (up to 24 of them) reads back as that move.
pub fn notation(data: &[u8]) {
    let mut b = Bytes::new(data);
    let rules = rules_from(b.u8(), b.u8());
    let (mine, theirs) = arrays(&mut b);
    let Ok(pos) = Position::from_arrays(rules, &mine, &theirs) else { return };
    let (d1, d2) = roll(b.u8());
    let moves = movegen::legal_moves(&pos, d1, d2).unwrap();
    let stride = moves.len().div_ceil(24).max(1);
    for m in moves.iter().step_by(stride) {
        let written = format_play(&m.play);
        let j = entry::find_move(&pos, &moves, &written)
            .unwrap_or_else(|e| panic!("{written:?} ({d1}-{d2} in {}) does not read back: {e}", pos.describe()));
        assert_eq!(moves[j].position, m.position, "{written:?} reads back as another move ({d1}-{d2} in {})", pos.describe());
        assert!(entry::is_partial(&moves, &written).unwrap(), "{written:?} is not even a start of itself");
    }
}

// ---------------------------------------------------------------------------
// Options and the cube.

/// An option value as text: `b:true`, `i:3`, `s:home` (or an untagged name).
fn option_value(v: &str) -> OptionValue {
    if let Some(b) = v.strip_prefix("b:") {
        OptionValue::Bool(b == "true")
    } else if let Some(i) = v.strip_prefix("i:") {
        i.trim().parse().map(OptionValue::Int).unwrap_or_else(|_| OptionValue::Str(i.to_string()))
    } else {
        OptionValue::Str(v.strip_prefix("s:").unwrap_or(v).to_string())
    }
}

/// `Variant::parse` (first line) and `Rules::set` (`name=value` lines).
pub fn rules_options(data: &[u8]) {
    let t = text(data);
    let mut lines = t.lines();
    let Some(first) = lines.next() else { return };
    let Ok(variant) = Variant::parse(first) else { return };
    assert_eq!(Variant::parse(variant.name()).unwrap(), variant);
    let mut r = Rules::new(variant);
    for line in lines {
        let (name, value) = line.split_once('=').unwrap_or((line, ""));
        if r.set(name, &option_value(value)).is_ok() {
            let (_, now) = r.options().into_iter().find(|(n, _)| *n == name).expect("a set option is listed");
            let mut again = r;
            again.set(name, &now).expect("an option's listed value can be set");
            assert_eq!(again, r);
        }
    }
    let mut rebuilt = Rules::new(variant);
    for (name, value) in r.options() {
        rebuilt.set(name, &value).expect("every listed option can be set");
    }
    assert_eq!(rebuilt, r, "options() does not describe the rules");
    let back = json::rules_from_json(variant.name(), Some(&json::rules_to_json(&r))).unwrap();
    assert_eq!(back, r, "the rules' JSON does not read back");
}

/// `CubeState::new`: a mode byte (bit 0: raw 32-bit numbers, else small
/// ones; bits 1-3: Crawford, Jacoby, beaver), value, max, owner, length and
/// score; then five bytes of chances and an efficiency for the 0-ply cube
/// formulas on whatever is accepted.
pub fn cube_state(data: &[u8]) {
    let mut b = Bytes::new(data);
    let mode = b.u8();
    let raw = mode & 1 == 1;
    let cube = |b: &mut Bytes| if raw { b.u32() } else { 1u32 << (b.u8() % 17) };
    let number = |b: &mut Bytes| if raw { b.u32() } else { b.u8() as u32 };
    let value = cube(&mut b);
    let max_value = cube(&mut b);
    let owner = [Owner::Centered, Owner::Me, Owner::Opponent][b.u8() as usize % 3];
    let match_length = number(&mut b);
    let score = [number(&mut b), number(&mut b)];
    let flag = |k: u8| mode >> k & 1 == 1;
    let Ok(state) = CubeState::new(value, owner, match_length, score, flag(1), flag(2), flag(3), max_value) else { return };
    state.flip().check().unwrap_or_else(|e| panic!("{state:?} is valid but not seen from the other side: {e}"));
    assert_eq!(state.flip().flip(), state);
    let _ = state.describe();
    if !state.is_money() {
        assert!(state.away().iter().all(|&a| a >= 1));
    }
    if state.may_double() {
        let after = state.doubled();
        after.check().unwrap_or_else(|e| panic!("{state:?} may double, but the doubled cube is invalid: {e}"));
        after.flip().check().unwrap();
    }
    let fraction = |b: &mut Bytes| b.u8() as f64 / 255.0;
    let win = fraction(&mut b);
    let win_gammon = win * fraction(&mut b);
    let win_backgammon = win_gammon * fraction(&mut b);
    let lose_gammon = (1.0 - win) * fraction(&mut b);
    let lose_backgammon = lose_gammon * fraction(&mut b);
    let p = Chances { win, win_gammon, win_backgammon, lose_gammon, lose_backgammon };
    let x = fraction(&mut b);
    let met = MatchEquityTable::kazaross_xg2();
    let prices = janowski::gammon_prices(&state, met);
    assert!(prices.iter().all(|v| v.is_finite() && *v >= 0.0), "gammon prices {prices:?} for {state:?}");
    let cubeless = janowski::utility(&p, &state, met);
    let cubeful = janowski::cubeful(&p, &state, met, x);
    assert!(cubeless.is_finite() && cubeful.is_finite(), "{cubeless} {cubeful} for {p:?} and {state:?}");
    if !state.is_money() {
        let mwc = janowski::equity_to_mwc(cubeless, &state, met);
        assert!(mwc.is_finite());
        let back = janowski::mwc_to_equity(mwc, &state, met);
        assert!((back - cubeless).abs() < 1e-6 * (1.0 + cubeless.abs()), "{cubeless} -> {mwc} -> {back} for {state:?}");
    }
    let d = CubeDecision::classify(&state, cubeful, cubeless, 1.0, None, win_gammon > 0.0);
    let _ = (d.text(), d.best(), d.should_double(), d.should_take(), d.should_beaver(&state));
}

/// Match equity tables in gnubg's XML format.
pub fn met_xml(data: &[u8]) {
    let t = text(data);
    let Ok(table) = MatchEquityTable::from_xml(&t) else { return };
    assert!((1..=64).contains(&table.native_length()));
    for a in 1..=64 {
        for c in 1..=64 {
            for post in [false, true] {
                let v = table.mwc(a, c, post);
                assert!((0.0..=1.0).contains(&v), "{}: mwc({a}, {c}, {post}) = {v}", table.name());
            }
        }
    }
    let _ = (table.name(), table.description());
}

/// `cascade::check_handover`: plies and a seed for a gul bara position,
/// then (die, count) byte pairs (at most 8); an accepted handover is played.
pub fn handover(data: &[u8]) {
    let mut b = Bytes::new(data);
    let (plies, seed) = (b.u8() % 24, b.u8());
    let pairs: Vec<(i64, i64)> = b.rest().chunks(2).take(8).map(|c| (c[0] as i8 as i64, c.get(1).map_or(0, |&x| x as i8 as i64))).collect();
    let Ok(h) = cascade::check_handover(&pairs) else { return };
    assert_eq!(h.len(), pairs.len());
    for (k, &(die, count)) in h.iter().enumerate() {
        assert_eq!((die as i64, count as i64), pairs[k]);
        assert!((1..=6).contains(&die) && (1..=4).contains(&count), "{h:?}");
        if k > 0 {
            assert!(die == h[k - 1].0 + 1 && count == 4, "{h:?}");
        }
    }
    if let Some(&(last, _)) = h.last() {
        assert_eq!(last, 6, "{h:?}");
    }
    // Played as the engine plays a share (`search::best_share`): the states
    // after each number pruned to the best few, here by pip count. (Unpruned,
    // `share_results` of a 21-move handover enumerates millions of states.)
    let pos = walk(Rules::gulbara(), plies, seed);
    let mut score = |ps: &[Position]| ps.iter().map(|p| -(p.pips()[ME] as f32)).collect::<Vec<f32>>();
    let shares = movegen::with_generator(|g| cascade::pruned_shares(g, &pos, &h, 16, &mut score));
    assert!(!shares.is_empty(), "a share always has a result, if only the position as it was");
    let most: usize = h.iter().map(|&(_, c)| c as usize).sum();
    for s in &shares {
        let played: usize = s.steps.iter().map(|m| m.moves_played()).sum();
        assert!(played <= most, "{played} moves played of a {most}-move handover");
        let (mine, theirs) = arrays_of(&s.position);
        assert_eq!(Position::from_arrays(Rules::gulbara(), &mine, &theirs).unwrap(), s.position);
    }
}
