//! Writes the seed corpus, `fuzz/corpus/<target>/seed-*`, from real inputs:
//! the texts of the README and the unit tests, the benchmark positions
//! (`benches/positions/*.json`, positions and gnubg cube states), the
//! shipped and the tests' match equity tables, and games played with the
//! engine's trivial players and written by its own writers.
//!
//! `scripts/fuzz.sh` builds it with the targets; run it as
//! `fuzz/target/release/make_corpus` (it calls no AFL code). It replaces the
//! `seed-*` files and leaves the others (inputs that once crashed a target,
//! kept as regressions) alone.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tavla::batch::push_flat;
use tavla::dice::Dice;
use tavla::formats::{fibs, gnubg, json, mat, matchtext, record, sgf, xgid};
use tavla::game::matches::Match;
use tavla::game::players::{play_match_out, play_out, Strategy};
use tavla::game::{Cube, CubeRules, Game, Snapshot, Stakes};
use tavla::position::Position;
use tavla::variant::{Rules, Variant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

struct Corpus {
    dir: PathBuf,
    count: usize,
}

impl Corpus {
    fn new(target: &str) -> Corpus {
        let dir = root().join("fuzz/corpus").join(target);
        fs::create_dir_all(&dir).unwrap();
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().unwrap().to_string_lossy().starts_with("seed-") {
                fs::remove_file(path).unwrap();
            }
        }
        Corpus { dir, count: 0 }
    }

    fn add(&mut self, data: impl AsRef<[u8]>) {
        self.count += 1;
        fs::write(self.dir.join(format!("seed-{:02}", self.count)), data).unwrap();
    }
}

/// Games played to the end by the trivial players, one per variant and seed.
fn played(rules: Rules, seed: u64) -> Game {
    let mut g = Game::money(rules, seed);
    play_out(&mut g, [Strategy::Greedy, Strategy::Random], &mut Dice::new(seed)).unwrap();
    g
}

/// States along a played game, as snapshots (every `step`-th event).
fn snapshots(rules: Rules, seed: u64, step: usize) -> Vec<Snapshot> {
    let text = record::game_to_json(&played(rules, seed));
    record::replay_game(&text).unwrap().iter().step_by(step).map(Snapshot::of_game).collect()
}

/// The benchmark positions of a variant: (mine, theirs).
fn bench_positions(variant: &str) -> Vec<([i64; 25], [i64; 25])> {
    let text = fs::read_to_string(root().join(format!("benches/positions/{variant}.json"))).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let row = |a: &Value| -> [i64; 25] {
        let mut out = [0i64; 25];
        for (o, n) in out.iter_mut().zip(a.as_array().unwrap()) {
            *o = n.as_i64().unwrap();
        }
        out
    };
    v["positions"].as_array().unwrap().iter().map(|p| (row(&p["mine"]), row(&p["theirs"]))).collect()
}

fn rules_bytes(variant: Variant) -> [u8; 2] {
    // Variant index, then the option bits of the targets' `rules_from`
    // chosen to give each variant its default rules.
    match variant {
        Variant::Backgammon => [0, 0],
        Variant::Nardy => [1, 0b0000_0001],
        Variant::GulBara => [2, 0b0000_1000],
        // The reserve games have none of those options: each bit is refused and ignored.
        Variant::Dutch => [3, 0],
        Variant::AceyDeucey => [4, 0],
    }
}

fn array_bytes(mine: &[i64; 25], theirs: &[i64; 25]) -> Vec<u8> {
    mine.iter().chain(theirs).map(|&n| n as i8 as u8).collect()
}

const README_XGIDS: &[&str] = &[
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:4:0:7:6",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:4:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:64:2:4:0:7:10",
    "XGID=aa----E-C---eE---c-e----AA:0:0:1:00:0:0:3:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:64:0:0:0:7:3",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:31",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10",
    "XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10",
];

const FIBS_EXAMPLE: &str = "board:mpgnu:buster:17:0:2:0:0:0:2:1:4:3:0:1:0:1:0:0:2:0:0:0:0:0:1:-2:-2:-1:-4:-4:0:-1:3:6:0:0:1:1:1:0:-1:1:25:0:2:0:0:0:2:2:0:0";

/// gnubg's zadeh.xml as the met.rs tests hold it (its notice kept), read
/// from that file rather than copied.
fn zadeh_xml() -> String {
    let source = fs::read_to_string(root().join("src/cube/met.rs")).unwrap();
    let start = source.find("const ZADEH_XML: &str = r#\"").unwrap() + "const ZADEH_XML: &str = r#\"".len();
    let end = start + source[start..].find("\"#;").unwrap();
    source[start..end].to_string()
}

/// A 2-point explicit table (Kazaross-XG2's values, rounded).
const TWO_POINT_XML: &str = "<met><info><name>two</name><description>2 points</description><length>2</length></info>\
<pre-crawford-table type=\"explicit\"><row><me>0.5</me><me>0.68</me></row><row><me>0.32</me><me>0.5</me></row>\
</pre-crawford-table><post-crawford-table type=\"explicit\" player=\"both\"><row><me>0.5</me><me>0.49</me></row>\
</post-crawford-table></met>";

fn main() {
    let bg = Rules::backgammon();
    let variants = [Rules::backgammon(), Rules::nardy(), Rules::gulbara()];
    // Backgammon snapshots with a roll, a cube and a match score.
    let mut bg_snapshots = snapshots(bg, 7, 23);
    let mut s = Snapshot::new(Position::start(bg));
    s.dice = Some([6, 4]);
    s.turn = 1;
    s.cube = Cube { value: 4, owner: Some(0) };
    s.stakes = Stakes { match_length: 9, score: [3, 8], crawford_game: true };
    bg_snapshots.push(s);
    let mut doubled = Snapshot::new(Position::start(bg));
    doubled.turn = 1;
    doubled.double_offered = true;
    doubled.cube_rules = CubeRules { jacoby: true, beaver: true, ..CubeRules::default() };
    bg_snapshots.push(doubled);

    let mut c = Corpus::new("xgid");
    for x in README_XGIDS {
        c.add(x);
    }
    for s in &bg_snapshots {
        c.add(xgid::write(s).unwrap());
    }

    let mut c = Corpus::new("gnubg");
    for id in ["4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAgAAAAAAAAA", "4HPwATDgc/ABMA:MIEFAAAAAAAA", "4HPwATDgc/ABMA:cAkAAAAAAAAA"] {
        c.add(id);
    }
    for s in &bg_snapshots {
        c.add(gnubg::gnubg_id(s).unwrap());
    }
    let cube_set: Value =
        serde_json::from_str(&fs::read_to_string(root().join("benches/positions/cube-backgammon.json")).unwrap()).unwrap();
    let cube_positions = cube_set["positions"].as_array().unwrap();
    for p in cube_positions.iter().step_by(97).take(6) {
        c.add(p["position_id"].as_str().unwrap());
    }

    let mut c = Corpus::new("fibs");
    c.add(FIBS_EXAMPLE);
    for s in &bg_snapshots {
        if !(s.double_offered && s.turn == 0) {
            c.add(fibs::write(s, ["alice", "bob"]).unwrap());
        }
    }

    let mut c = Corpus::new("json_position");
    c.add(r#"{"variant": "gulbara", "checkers": [[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,15], [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,15]], "dice": [4, 4]}"#);
    for rules in variants {
        for s in snapshots(rules, 3, 41) {
            c.add(json::snapshot_to_json(&s));
        }
    }
    for s in &bg_snapshots[bg_snapshots.len() - 2..] {
        c.add(json::snapshot_to_json(s));
    }

    let mut c = Corpus::new("game_record");
    for (k, rules) in variants.into_iter().enumerate() {
        let g = played(rules, 11 + k as u64);
        let full = record::game_to_value(&g);
        // The first events only: small seeds the fuzzer works through quickly.
        let mut short = full.clone();
        short["events"] = Value::Array(full["events"].as_array().unwrap()[..12].to_vec());
        short["result"] = Value::Null;
        c.add(serde_json::to_string(&short).unwrap());
        c.add(serde_json::to_string(&full).unwrap());
    }
    // The cube in a record: a double taken, a redouble passed.
    let mut g = Game::money(bg, 5);
    g.roll_off(Some([5, 2])).unwrap();
    g.play_text("13/8 13/11").unwrap();
    g.double().unwrap();
    g.take().unwrap();
    g.roll(Some([6, 6])).unwrap();
    g.play_text("24/18(2) 13/7(2)").unwrap();
    g.double().unwrap();
    g.pass().unwrap();
    c.add(record::game_to_json(&g));
    // A game that went on from a position.
    let s = snapshots(Rules::gulbara(), 4, 30)[1];
    let mut g = Game::from_snapshot(&s, 10, Some(0), 1).unwrap();
    for _ in 0..6 {
        match g.phase() {
            tavla::Phase::Roll => {
                g.roll(None).unwrap();
            }
            tavla::Phase::Move => g.play(0).unwrap(),
            _ => break,
        }
    }
    c.add(record::game_to_json(&g));

    let mut c = Corpus::new("match_record");
    for (rules, length) in [(bg, 1), (Rules::nardy(), 1), (bg, 2)] {
        let mut m = Match::new(rules, length, true, CubeRules::default(), 5).unwrap();
        play_match_out(&mut m, [Strategy::Greedy, Strategy::Random], &mut Dice::new(2)).unwrap();
        c.add(record::match_to_json(&m));
    }
    let m = Match::with_score(bg, 5, true, CubeRules::default(), [4, 2], true, 1).unwrap();
    c.add(record::match_to_json(&m));

    let mut arrays_c = Corpus::new("position_arrays");
    let mut notation_c = Corpus::new("notation");
    let mut batch_c = Corpus::new("batch");
    // The variants with a benchmark position set (the reserve games have none).
    for (v, variant) in [Variant::Backgammon, Variant::Nardy, Variant::GulBara].into_iter().enumerate() {
        let positions = bench_positions(variant.name());
        for (k, (mine, theirs)) in positions.iter().step_by(19).enumerate() {
            let rules = rules_bytes(variant);
            let mut data = rules.to_vec();
            data.extend(array_bytes(mine, theirs));
            let mut with_dice = data.clone();
            // Dice (a double every other seed), then a cascade step.
            let d = (k % 6 + 1) as u8;
            with_dice.extend([d, if k % 2 == 0 { d } else { 7 - d }, d, 4, 0]);
            arrays_c.add(&with_dice);
            let mut with_roll = data;
            with_roll.push((k * 7 % 36) as u8);
            notation_c.add(&with_roll);
        }
        // A batch: three positions of the variant and their rolls.
        let mut data = vec![rules_bytes(variant)[0], rules_bytes(variant)[1], v as u8, 6];
        data.extend([6, 5, 3, 3, 2, 1]);
        for (mine, theirs) in positions.iter().take(3) {
            data.extend(array_bytes(mine, theirs));
        }
        batch_c.add(&data);
    }
    // The unit tests' hand-made positions: a bar entry and a bear-off.
    let mut mine = [0i64; 25];
    let mut theirs = [0i64; 25];
    mine[24] = 1;
    mine[5] = 14;
    theirs[2] = 1;
    let mut data = vec![0, 0];
    data.extend(array_bytes(&mine, &theirs));
    data.push(3 - 1 + 6 * (6 - 1));
    notation_c.add(&data);
    let mut home = [0i64; 25];
    home[5] = 2;
    let mut data = vec![0, 0];
    data.extend(array_bytes(&home, &[0; 25]));
    data.extend([6, 6]);
    arrays_c.add(&data);
    let mut flat = Vec::new();
    push_flat(&Position::start(bg), &mut flat);
    let mut data = vec![0, 0, 0, 2, 3, 1];
    data.extend(flat.iter().map(|&x| x as u8));
    batch_c.add(&data);

    let mut c = Corpus::new("move_entry");
    // Header: rules (2 bytes), roll (d1 - 1 + 6 (d2 - 1)), plies, seed.
    let header = |variant: Variant, d1: u8, d2: u8, plies: u8, seed: u8| {
        let r = rules_bytes(variant);
        vec![r[0], r[1], d1 - 1 + 6 * (d2 - 1), plies, seed]
    };
    for (variant, d1, d2, plies, seed, typed) in [
        (Variant::Backgammon, 6, 5, 0, 0, "24/13"),
        (Variant::Backgammon, 6, 5, 0, 0, "24/18/13"),
        (Variant::Backgammon, 6, 5, 0, 0, " 18/13, 24/18 "),
        (Variant::Backgammon, 3, 3, 0, 0, "8/5(2) 6/3(2)"),
        (Variant::Backgammon, 6, 5, 0, 0, "24-18"),
        (Variant::Backgammon, 4, 2, 6, 3, "bar/21* 13/11"),
        (Variant::Backgammon, 6, 6, 20, 9, "6/off(2) b/o"),
        (Variant::Backgammon, 3, 1, 0, 0, "no move"),
        (Variant::Nardy, 6, 6, 0, 0, "24/18(2)"),
        (Variant::Nardy, 5, 3, 4, 1, "24/19 19/16"),
        (Variant::GulBara, 4, 4, 2, 2, "24/20(4)"),
        (Variant::GulBara, 2, 1, 30, 5, "13/11*/10 pass"),
    ] {
        let mut data = header(variant, d1, d2, plies, seed);
        data.extend(typed.as_bytes());
        c.add(&data);
    }

    let mut c = Corpus::new("rules");
    c.add("backgammon\nnext_game_starter=s:alternate\n");
    c.add("nardy\nfence_rule=s:home\nfirst_turn_head_exception=s:blocked\nkoks=b:true\nlast_roll_draw=i:1\n");
    c.add("long-nardy\nhead_rule=b:false\n");
    c.add("gulbara\nhead_rule=b:true\nexact_bearoff=on\ncascade_after_rolls=i:0\nfence_rule=ahead\n");
    c.add("Gul Bara\ncascade_after_rolls=i:300\nkoks=maybe\n");
    c.add("nardy\nfirst_turn_head_exception=s:head_blocked\nopening_roll=s:single_dice\n");

    let mut c = Corpus::new("cube_state");
    for p in cube_positions.iter().step_by(53).take(12) {
        let cube = &p["cube"];
        let value = cube["value"].as_u64().unwrap() as u32;
        let flags = (cube["crawford"].as_bool().unwrap() as u8) << 1
            | (cube["jacoby"].as_bool().unwrap() as u8) << 2
            | (cube["beaver"].as_bool().unwrap() as u8) << 3;
        let owner = match cube["owner"].as_str() {
            None => 0,
            Some("me") => 1,
            _ => 2,
        };
        let score = cube["score"].as_array().unwrap();
        let mut data = vec![flags, value.trailing_zeros() as u8, 6, owner, cube["match_length"].as_u64().unwrap() as u8];
        data.extend(score.iter().map(|s| s.as_u64().unwrap() as u8));
        let probs = &p["gnubg"]["0"]["probs"];
        let f = |k: &str| probs[k].as_f64().unwrap();
        let part = |a: f64, b: f64| if b > 0.0 { (a / b * 255.0).round().min(255.0) as u8 } else { 0 };
        let win = f("win");
        data.extend([
            part(win, 1.0),
            part(f("win_gammon"), win),
            part(f("win_backgammon"), f("win_gammon")),
            part(f("lose_gammon"), 1.0 - win),
            part(f("lose_backgammon"), f("lose_gammon")),
            (p["cube_efficiency"].as_f64().unwrap() * 255.0) as u8,
        ]);
        c.add(&data);
    }
    // Raw 32-bit fields: a 7-point match at 2-4 with the opponent's 2-cube.
    let raw = |numbers: &[u32]| numbers.iter().flat_map(|n| n.to_le_bytes()).collect::<Vec<u8>>();
    let mut data = vec![1u8];
    data.extend(raw(&[2, 64]));
    data.push(2);
    data.extend(raw(&[7, 2, 4]));
    data.extend([160, 80, 10, 60, 5, 170]);
    c.add(&data);

    let mut c = Corpus::new("met_xml");
    c.add(fs::read_to_string(root().join("src/cube/met/Kazaross-XG2.xml")).unwrap());
    c.add(zadeh_xml());
    c.add(TWO_POINT_XML);

    let mut c = Corpus::new("handover");
    for (plies, seed, pairs) in [
        (0u8, 0u8, vec![(4i8, 2i8), (5, 4), (6, 4)]),
        (6, 1, vec![(6, 3)]),
        (12, 2, vec![(1, 1), (2, 4), (3, 4), (4, 4), (5, 4), (6, 4)]),
        (3, 3, vec![]),
        (5, 4, vec![(5, 4), (6, 3)]),
    ] {
        let mut data = vec![plies, seed];
        data.extend(pairs.iter().flat_map(|&(d, n)| [d as u8, n as u8]));
        c.add(&data);
    }

    // Match files: gnubg's own .sgf files, and matches the engine played, written by tavla.
    let mut c = Corpus::new("sgf");
    let gnubg_dir = root().join("tests/data/gnubg");
    for name in ["match3_1", "match5_1", "money_1"] {
        c.add(fs::read(gnubg_dir.join(format!("{name}.sgf"))).unwrap());
    }
    let mut c2 = Corpus::new("match_text");
    for (k, rules) in [Rules::nardy(), Rules::gulbara(), Rules::backgammon()].into_iter().enumerate() {
        let mut m = Match::new(rules, 3, true, CubeRules::default(), 20 + k as u64).unwrap();
        let mut picks = Dice::new(k as u64);
        let mut games = Vec::new();
        loop {
            play_out(m.game_mut(), [Strategy::Greedy, Strategy::Random], &mut picks).unwrap();
            games.push(m.game().clone());
            if m.is_over() {
                break;
            }
            m.next_game().unwrap();
        }
        if rules.variant == Variant::Backgammon {
            let played: Vec<_> = games.into_iter().map(|g| mat::MatGame::of(g).unwrap()).collect();
            c.add(sgf::write_sgf(3, ["white", "black"], true, &played).unwrap());
        } else {
            let played: Vec<_> = games.into_iter().map(|g| matchtext::TextGame::of(g).unwrap()).collect();
            c2.add(matchtext::write_match_text(3, ["alice", "bob"], true, &played).unwrap());
        }
    }
    println!("wrote the seed corpus under {}", root().join("fuzz/corpus").display());
}
