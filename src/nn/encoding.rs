//! Network inputs, always from the player on roll.
//!
//! Backgammon follows TD-Gammon's raw encoding: per point and side four units
//! (one, two, three checkers, then half a unit per further checker), the bar,
//! the borne-off count, plus both pip counts, and for each side the hand-made
//! features of [`features`] (shots, escapes, primes, contact).
//!
//! The nardy games use the same four units per point (a quarter unit per
//! checker past three, since the head holds up to 15), borne-off counts, pip
//! counts, whether each side may bear off, and for each side its longest run
//! of consecutive points along the other's path (the six-fence threat); then
//! for each side the hand-made features of [`nardy_features`] (blocks ahead
//! of the other's checkers, numbers taken away, distance home, race lead) and
//! whether the game is a pure race. Gul bara adds, for each side, what each
//! number of a cascade can play ([`cascade_features`]).

use crate::error::{Error, Result};
use crate::nn::features::{self, longest_run};
use crate::nn::Mlp;
use crate::nn::{cascade_features, nardy_features};
use crate::position::{opponent_mask, Position, ME, THEM};
use crate::variant::Variant;

pub const BACKGAMMON_INPUTS: usize = 24 * 4 * 2 + 2 + 2 + 2 + 2 * CONTACT_FEATURES + 1;
/// Hand-made backgammon features per side (see [`features`]).
const CONTACT_FEATURES: usize = features::COUNT;
/// The nardy games' inputs: the raw ones, each side's bear-off readiness and
/// longest run (the first generation's 200 inputs), then each side's
/// [`nardy_features`] and the race flag.
pub const NARDY_INPUTS: usize = 24 * 4 * 2 + 2 + 2 + 2 + 2 + 2 * nardy_features::COUNT + 1;
/// Gul bara's inputs: long nardy's, then each side's [`cascade_features`]
/// (appended, so that a nardy-shaped network widened by zero weights judges
/// as before).
pub const GULBARA_INPUTS: usize = NARDY_INPUTS + 2 * cascade_features::COUNT;
/// Dutch backgammon's and acey-deucey's inputs: backgammon's, then for each
/// side whether it has checkers in reserve and how many (a fifteenth each).
/// Without them the network would have to work the reserve out from the
/// other counts, and the hand-made features see only the board and the bar.
pub const RESERVE_GAME_INPUTS: usize = BACKGAMMON_INPUTS + RESERVE_INPUTS;
const RESERVE_INPUTS: usize = 4;
/// Backgammon's raw inputs (points, borne-off and pip counts, bars): the
/// prefix of the encoding a pruning network takes, without the features.
pub const BACKGAMMON_RAW_INPUTS: usize = 24 * 4 * 2 + 2 + 2 + 2;
/// The nardy games' raw inputs (points, borne-off and pip counts): the
/// prefix a pruning network of theirs takes.
pub const NARDY_RAW_INPUTS: usize = 24 * 4 * 2 + 2 + 2;

/// Inputs of one side's points (four per point). The player on roll's come
/// first in every encoding, `0..SIDE_POINT_INPUTS`: under a node of the
/// search they are the same for every play of the opponent, so a network's
/// first layer adds them once for all of those plays ([`crate::eval::neural`]).
pub const SIDE_POINT_INPUTS: usize = 24 * 4;

/// The raw inputs of `variant` (no hand-made features or flags), what a
/// pruning network takes, so that siblings differ in a few of them.
pub fn raw_input_count(variant: Variant) -> usize {
    match variant {
        // The reserve games' reserve inputs come last, after the features: no
        // pruning network of theirs is shipped, and a raw prefix without the
        // reserve would not tell their siblings apart by it anyway.
        Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => BACKGAMMON_RAW_INPUTS,
        Variant::Nardy | Variant::GulBara => NARDY_RAW_INPUTS,
    }
}

pub fn input_count(variant: Variant) -> usize {
    match variant {
        Variant::Backgammon => BACKGAMMON_INPUTS,
        Variant::Dutch | Variant::AceyDeucey => RESERVE_GAME_INPUTS,
        Variant::Nardy => NARDY_INPUTS,
        Variant::GulBara => GULBARA_INPUTS,
    }
}

/// The units of a point with `n` checkers, each non-zero one given to
/// `put` with its offset (0..4), in order.
#[inline]
fn point_units(n: u8, tail: f32, mut put: impl FnMut(usize, f32)) {
    for k in 0..3 {
        if n > k {
            put(k as usize, 1.0);
        }
    }
    if n > 3 {
        put(3, (n - 3) as f32 * tail);
    }
}

/// The raw inputs after the points, (input, value) in order: borne-off and
/// pip counts, and in backgammon the bars; and how many there are.
#[inline(always)]
fn raw_scalars(pos: &Position, pips: [u32; 2]) -> ([(usize, f32); 6], usize) {
    let mut out = [(0, 0.0); 6];
    for (k, side) in [ME, THEM].into_iter().enumerate() {
        out[2 * k] = (192 + 2 * k, pos.off(side) as f32 / 15.0);
        out[2 * k + 1] = (193 + 2 * k, pips[side] as f32 / 200.0);
    }
    if pos.variant().has_contact_hits() {
        out[4] = (196, pos.bar(ME) as f32 / 2.0);
        out[5] = (197, pos.bar(THEM) as f32 / 2.0);
        return (out, 6);
    }
    (out, 4)
}

/// A position whose siblings' raw inputs are taken as differences to its
/// own ([`raw_difference`]).
pub struct RawBase {
    pos: Position,
    scalars: [(usize, f32); 6],
    n: usize,
}

impl RawBase {
    pub fn new(pos: &Position) -> RawBase {
        let (scalars, n) = raw_scalars(pos, pos.pips());
        RawBase { pos: *pos, scalars, n }
    }
}

/// The raw inputs (the points and [`raw_scalars`], no features) that differ
/// between `base` and `pos`, each as (input, value in `pos` less value in
/// `base`), in no particular order: what a network on the raw inputs adds
/// to `base`'s hidden sums to get those of `pos` (a sibling play).
pub fn raw_difference(base: &RawBase, pos: &Position, out: &mut Vec<(u32, f32)>) {
    out.clear();
    let tail = if pos.variant().has_contact_hits() { 0.5 } else { 0.25 };
    for side in [ME, THEM] {
        let (a, b) = (base.pos.counts(side), pos.counts(side));
        let mut changed = changed_points(a, b);
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let (mut old, mut new) = ([0f32; 4], [0f32; 4]);
            point_units(a[i], tail, |k, v| old[k] = v);
            point_units(b[i], tail, |k, v| new[k] = v);
            for k in 0..4 {
                if old[k] != new[k] {
                    out.push(((side * SIDE_POINT_INPUTS + 4 * i + k) as u32, new[k] - old[k]));
                }
            }
        }
    }
    let (new, _) = raw_scalars(pos, pos.pips());
    for (old, new) in base.scalars[..base.n].iter().zip(new) {
        if old.1 != new.1 {
            out.push((old.0 as u32, new.1 - old.1));
        }
    }
}

/// The points (bit `i` for index `i`) whose counts differ between `a` and
/// `b`: eight points a word, each differing byte found by its lowest bit.
#[inline]
fn changed_points(a: &[u8; 24], b: &[u8; 24]) -> u32 {
    let mut changed = 0u32;
    for w in 0..3 {
        let word = |c: &[u8; 24]| u64::from_le_bytes(c[8 * w..8 * w + 8].try_into().expect("8 bytes"));
        let mut x = word(a) ^ word(b);
        while x != 0 {
            let byte = x.trailing_zeros() / 8;
            changed |= 1 << (8 * w as u32 + byte);
            x &= !(0xFFu64 << (8 * byte));
        }
    }
    changed
}

/// Backgammon's inputs that carry [`features::race_features`] in a race (the
/// [`features::RACE_SLOTS`] of both sides' features). A network trained on
/// races from a copy of the contact network starts with these weights at
/// zero: the contact network learned them for shots and primes.
pub fn race_slot_inputs() -> Vec<usize> {
    [ME, THEM]
        .into_iter()
        .flat_map(|side| features::RACE_SLOTS.map(|slot| BACKGAMMON_RAW_INPUTS + side * CONTACT_FEATURES + slot))
        .collect()
}

/// Checks that `net` takes `variant`'s inputs; `what` names the network in
/// the error (a file, or a network passed in as bytes).
pub fn check_inputs(net: &Mlp, variant: Variant, what: &str) -> Result<()> {
    let want = input_count(variant);
    if net.inputs != want {
        return Err(Error::new(format!("{what} has {} inputs; {} networks have {want}", net.inputs, variant.name())));
    }
    Ok(())
}

/// Fills `out` (any previous contents) with the first `out.len()` inputs of
/// `pos` (`input_count` of them for a full network, fewer for one that takes
/// a prefix, as a pruning network does).
pub fn encode(pos: &Position, out: &mut [f32]) {
    out.fill(0.0);
    encode_with(pos, out.len(), |i, v| out[i] = v);
}

/// The non-zero inputs of `pos` below `limit` as (input, value) pairs in
/// input order (what [`encode`] writes, without its zeros): the network's
/// first layer adds only these.
pub fn encode_sparse(pos: &Position, limit: usize, out: &mut Vec<(u32, f32)>) {
    out.clear();
    #[cfg(target_arch = "x86_64")]
    if has_bit_instructions() {
        // SAFETY: the CPU has just been checked to have these instructions.
        return unsafe { encode_sparse_bits(pos, limit, out) };
    }
    encode_with(pos, limit, |i, v| out.push((i as u32, v)));
}

/// Whether the CPU counts, finds and clears bits in one instruction each
/// (POPCNT, BMI1, BMI2, LZCNT: every x86-64 processor since 2013). The
/// portable build counts bits with a dozen shifts and masks, and the nardy
/// games' features count them on every evaluation (numbers taken away,
/// cascade steps, runs of points).
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_bit_instructions() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

/// [`encode_sparse`] compiled with the bit instructions (the features'
/// functions are inlined into it, so they use them too).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
unsafe fn encode_sparse_bits(pos: &Position, limit: usize, out: &mut Vec<(u32, f32)>) {
    encode_with(pos, limit, |i, v| out.push((i as u32, v)));
}

/// The one encoder: gives `put` every input of `pos` below `limit` that may
/// be non-zero, in increasing input order (zeros skipped); the features are
/// not computed when the limit falls before them.
#[inline(always)]
fn encode_with(pos: &Position, limit: usize, mut put: impl FnMut(usize, f32)) {
    let mut put = |i: usize, v: f32| {
        if v != 0.0 && i < limit {
            put(i, v)
        }
    };
    let variant = pos.variant();
    let tail = if variant.has_contact_hits() { 0.5 } else { 0.25 };
    for side in [ME, THEM] {
        let base = side * SIDE_POINT_INPUTS;
        let mut occupied = pos.occupied(side);
        while occupied != 0 {
            let i = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            point_units(pos.count(side, i), tail, |k, v| put(base + 4 * i + k, v));
        }
    }
    // The nardy features use the pip counts too: counted once.
    let pips = pos.pips();
    let (scalars, n) = raw_scalars(pos, pips);
    for &(i, v) in &scalars[..n] {
        put(i, v);
    }
    let mut k = 192 + n;
    match variant {
        Variant::Backgammon | Variant::Dutch | Variant::AceyDeucey => {
            if k >= limit {
                return;
            }
            let flipped = pos.flip();
            let race = pos.is_race();
            for view in [pos, &flipped] {
                let mut f = features::features(view);
                // Backgammon's race network reads race measures where the
                // contact features are zero (the reserve games' networks were
                // trained without them).
                if race && variant == Variant::Backgammon {
                    for (slot, v) in features::RACE_SLOTS.into_iter().zip(features::race_features(view)) {
                        f[slot] = v;
                    }
                }
                for (j, v) in f.into_iter().enumerate() {
                    put(k + j, v);
                }
                k += CONTACT_FEATURES;
            }
            put(k, race as u8 as f32);
            if variant.has_reserve() {
                for side in [ME, THEM] {
                    let r = pos.reserve(side);
                    put(k + 1 + 2 * side, (r > 0) as u8 as f32);
                    put(k + 2 + 2 * side, r as f32 / 15.0);
                }
            }
        }
        Variant::Nardy | Variant::GulBara => {
            put(k, pos.all_home(ME) as u8 as f32);
            put(k + 1, pos.all_home(THEM) as u8 as f32);
            // Runs along the other side's path: in its own numbering.
            put(k + 2, longest_run(opponent_mask(variant, pos.occupied(ME))) as f32 / 6.0);
            put(k + 3, longest_run(pos.occupied(THEM)) as f32 / 6.0);
            k += 4;
            if k >= limit {
                return;
            }
            for side in nardy_features::both_sides(pos, pips) {
                for (j, v) in side.into_iter().enumerate() {
                    put(k + j, v);
                }
                k += nardy_features::COUNT;
            }
            put(k, pos.is_race() as u8 as f32);
            k += 1;
            if variant == Variant::GulBara {
                for side in cascade_features::both_sides(pos) {
                    for (j, v) in side.into_iter().enumerate() {
                        put(k + j, v);
                    }
                    k += cascade_features::COUNT;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Rules, Variant};

    #[test]
    fn changed_points_are_the_points_whose_counts_differ() {
        let mut rng = crate::dice::Dice::training(17);
        for _ in 0..20_000 {
            let mut a = [0u8; 24];
            let mut b = [0u8; 24];
            for i in 0..24 {
                a[i] = rng.below(16) as u8;
                b[i] = if rng.below(4) == 0 { rng.below(16) as u8 } else { a[i] };
            }
            let expected = (0..24).filter(|&i| a[i] != b[i]).fold(0u32, |m, i| m | 1 << i);
            assert_eq!(changed_points(&a, &b), expected, "{a:?} {b:?}");
        }
    }

    #[test]
    fn start_encodings() {
        let p = Position::start(Rules::backgammon());
        let mut x = vec![0.0; BACKGAMMON_INPUTS];
        encode(&p, &mut x);
        // Five checkers on my 6: 1, 1, 1, (5-3)/2.
        assert_eq!(&x[20..24], &[1.0, 1.0, 1.0, 1.0]);
        assert_eq!(x[192], 0.0);
        let n = Position::start(Rules::nardy());
        let mut y = vec![0.0; NARDY_INPUTS];
        encode(&n, &mut y);
        assert_eq!(&y[92..96], &[1.0, 1.0, 1.0, 3.0]);
        assert_eq!(longest_run(0b0111_0110), 3);
    }

    #[test]
    fn a_backgammon_race_reads_race_measures_in_the_contact_only_slots() {
        use crate::position::points_array as arrays;
        let (a, b) = (arrays(&[(6, 5), (9, 5), (13, 5)]), arrays(&[(5, 5), (10, 5), (11, 5)]));
        let race = Position::from_arrays(Rules::backgammon(), &a, &b).unwrap();
        let mut x = vec![0.0; BACKGAMMON_INPUTS];
        encode(&race, &mut x);
        let first = 192 + 6;
        let measures: Vec<f32> = [race, race.flip()].iter().flat_map(features::race_features).collect();
        let inputs: Vec<f32> = race_slot_inputs().into_iter().map(|i| x[i]).collect();
        assert_eq!(inputs, measures);
        assert!(measures[0] > 0.0 && measures[4] > 0.0);
        // The reserve games keep the slots at zero (their networks never saw the measures).
        let dutch = Position::from_arrays(Rules::dutch(), &a, &b).unwrap();
        let mut y = vec![0.0; RESERVE_GAME_INPUTS];
        encode(&dutch, &mut y);
        assert_eq!(y[first + features::RACE_SLOTS[0]], 0.0);
        assert_eq!(&y[..first], &x[..first]);
    }

    #[test]
    fn gul_bara_ends_with_each_sides_cascade_steps() {
        let start = Position::start(Rules::gulbara());
        let mut x = vec![0.0; GULBARA_INPUTS];
        encode(&start, &mut x);
        let mut nardy = vec![0.0; NARDY_INPUTS];
        encode(&Position::start(Rules::nardy()), &mut nardy);
        // The nardy inputs first, the same for the same board; then every number plays in full.
        assert_eq!(&x[..NARDY_INPUTS], &nardy[..]);
        assert_eq!(&x[NARDY_INPUTS..], &[0.0; 2 * cascade_features::COUNT]);
        assert_eq!(input_count(Variant::GulBara), GULBARA_INPUTS);
    }

    #[test]
    fn the_reserve_games_end_with_each_sides_reserve() {
        for rules in [Rules::new(Variant::Dutch), Rules::new(Variant::AceyDeucey)] {
            let start = Position::start(rules);
            let mut x = vec![0.0; RESERVE_GAME_INPUTS];
            encode(&start, &mut x);
            // Everything in reserve: no point, bar or borne-off input is set.
            assert_eq!(&x[BACKGAMMON_INPUTS..], &[1.0, 1.0, 1.0, 1.0]);
            assert!(x[..192].iter().all(|&v| v == 0.0));
            let mine = [2i64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
            let theirs = [0i64; 25];
            let p = Position::from_arrays_with_reserve(rules, &mine, &theirs, [3, 15]).unwrap();
            encode(&p, &mut x);
            assert_eq!(&x[BACKGAMMON_INPUTS..], &[1.0, 3.0 / 15.0, 1.0, 1.0]);
            let flipped = p.flip();
            encode(&flipped, &mut x);
            assert_eq!(&x[BACKGAMMON_INPUTS..], &[1.0, 1.0, 1.0, 3.0 / 15.0]);
            let none = Position::from_arrays_with_reserve(rules, &mine, &theirs, [0, 15]).unwrap();
            encode(&none, &mut x);
            assert_eq!(&x[BACKGAMMON_INPUTS..], &[0.0, 0.0, 1.0, 1.0]);
        }
    }

    #[test]
    fn the_sparse_encoding_is_the_dense_one_without_its_zeros() {
        let mut rng = crate::dice::Dice::training(3);
        let mut movegen = crate::movegen::MoveGen::new();
        let mut plays = Vec::new();
        for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara(), Rules::new(Variant::Dutch), Rules::new(Variant::AceyDeucey)] {
            let mut pos = Position::start(rules);
            for _ in 0..60 {
                let mut dense = vec![0.0; input_count(rules.variant)];
                encode(&pos, &mut dense);
                let mut sparse = Vec::new();
                encode_sparse(&pos, dense.len(), &mut sparse);
                let nonzero: Vec<(u32, f32)> = dense.iter().enumerate().filter(|(_, v)| **v != 0.0).map(|(i, v)| (i as u32, *v)).collect();
                assert_eq!(sparse, nonzero);
                // A prefix is the prefix.
                let mut raw = vec![0.0; BACKGAMMON_RAW_INPUTS];
                encode(&pos, &mut raw);
                assert_eq!(raw, dense[..BACKGAMMON_RAW_INPUTS]);
                encode_sparse(&pos, BACKGAMMON_RAW_INPUTS, &mut sparse);
                assert_eq!(sparse, nonzero.iter().copied().filter(|&(i, _)| (i as usize) < BACKGAMMON_RAW_INPUTS).collect::<Vec<_>>());
                // The raw difference to every play of a roll is the difference of the encodings.
                let raw_count = raw_input_count(rules.variant);
                movegen.legal_moves(&pos, 6, 3, &mut plays);
                let mut base = vec![0.0; raw_count];
                encode(&plays[0].position, &mut base);
                let raw_base = RawBase::new(&plays[0].position);
                for m in &plays {
                    let mut x = vec![0.0; raw_count];
                    encode(&m.position, &mut x);
                    let mut difference = Vec::new();
                    raw_difference(&raw_base, &m.position, &mut difference);
                    difference.sort_by_key(|&(i, _)| i);
                    let expected: Vec<(u32, f32)> =
                        (0..raw_count).filter(|&i| x[i] != base[i]).map(|i| (i as u32, x[i] - base[i])).collect();
                    assert_eq!(difference, expected);
                }
                movegen.legal_moves(&pos, rng.die(), rng.die(), &mut plays);
                let next = plays[rng.below(plays.len())].position;
                if crate::eval::game_result(&next).is_some() {
                    break;
                }
                pos = next.flip();
            }
        }
    }
}
