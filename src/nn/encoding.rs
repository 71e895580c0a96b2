//! Network inputs, always from the player on roll.
//!
//! Backgammon follows TD-Gammon's raw encoding: per point and side four units
//! (one, two, three checkers, then half a unit per further checker), the bar,
//! the borne-off count, plus both pip counts.
//!
//! The nardy games use the same four units per point (a quarter unit per
//! checker past three, since the head holds up to 15), borne-off counts, pip
//! counts, whether each side may bear off, and for each side its longest run
//! of consecutive points along the other's path (the six-fence threat).

use crate::position::{opponent_mask, Position, HOME_MASK, ME, THEM};
use crate::variant::Variant;

pub const BACKGAMMON_INPUTS: usize = 24 * 4 * 2 + 2 + 2 + 2 + 2 * CONTACT_FEATURES + 1;
/// Hand-made backgammon features per side (see [`contact_features`]).
const CONTACT_FEATURES: usize = 5;
pub const NARDY_INPUTS: usize = 24 * 4 * 2 + 2 + 2 + 2 + 2;

pub fn input_count(variant: Variant) -> usize {
    match variant {
        Variant::Backgammon => BACKGAMMON_INPUTS,
        Variant::Nardy | Variant::GulBara => NARDY_INPUTS,
    }
}

#[inline]
fn point_units(n: u8, tail: f32, out: &mut [f32]) {
    if n >= 1 {
        out[0] = 1.0;
    }
    if n >= 2 {
        out[1] = 1.0;
    }
    if n >= 3 {
        out[2] = 1.0;
    }
    if n > 3 {
        out[3] = (n - 3) as f32 * tail;
    }
}

/// The longest run of set bits in a 24-bit mask, without wrapping.
fn longest_run(mask: u32) -> u32 {
    let mut m = mask;
    let mut run = 0;
    while m != 0 {
        m &= m << 1;
        run += 1;
    }
    run
}

/// Backgammon features of the player on roll in `pos`, in the spirit of
/// TD-Gammon 2 and GNU Backgammon's inputs, kept cheap: blots, blots an
/// opposing checker can reach with one or two dice (12 pips or less, the bar
/// counting as point 0), made points in the home board, the longest prime,
/// and anchors in the opponent's home.
fn contact_features(pos: &Position) -> [f32; CONTACT_FEATURES] {
    let mine = pos.occupied(ME);
    let made = pos.stacked(ME);
    let blots = mine & !made;
    // Opposing checkers move up through my numbering (from my 1 towards my 24).
    let theirs = pos.occupied(THEM);
    let mut exposed = 0;
    let mut b = blots;
    while b != 0 {
        let p = b.trailing_zeros() as i32 + 1;
        b &= b - 1;
        let behind = (1..=12).any(|d| {
            let q = p - d;
            q == 0 && pos.bar(THEM) > 0 || q >= 1 && theirs & (1 << (q - 1)) != 0
        });
        exposed += behind as u32;
    }
    [
        blots.count_ones() as f32 / 5.0,
        exposed as f32 / 3.0,
        (made & HOME_MASK).count_ones() as f32 / 6.0,
        longest_run(made) as f32 / 6.0,
        (made & 0xFC_0000).count_ones() as f32 / 2.0,
    ]
}

/// Fills `out` (zeroed by the caller, `input_count` long) with the inputs of `pos`.
pub fn encode(pos: &Position, out: &mut [f32]) {
    let variant = pos.variant();
    let tail = if variant == Variant::Backgammon { 0.5 } else { 0.25 };
    for side in [ME, THEM] {
        let base = side * 96;
        for i in 0..24 {
            point_units(pos.count(side, i), tail, &mut out[base + 4 * i..base + 4 * i + 4]);
        }
    }
    let pips = pos.pips();
    let mut k = 192;
    for side in [ME, THEM] {
        out[k] = pos.off(side) as f32 / 15.0;
        out[k + 1] = pips[side] as f32 / 200.0;
        k += 2;
    }
    match variant {
        Variant::Backgammon => {
            out[k] = pos.bar(ME) as f32 / 2.0;
            out[k + 1] = pos.bar(THEM) as f32 / 2.0;
            k += 2;
            let flipped = pos.flip();
            for view in [pos, &flipped] {
                out[k..k + CONTACT_FEATURES].copy_from_slice(&contact_features(view));
                k += CONTACT_FEATURES;
            }
            out[k] = pos.is_race() as u8 as f32;
        }
        Variant::Nardy | Variant::GulBara => {
            out[k] = pos.all_home(ME) as u8 as f32;
            out[k + 1] = pos.all_home(THEM) as u8 as f32;
            // Runs along the other side's path: in its own numbering.
            out[k + 2] = longest_run(opponent_mask(variant, pos.occupied(ME))) as f32 / 6.0;
            out[k + 3] = longest_run(pos.occupied(THEM)) as f32 / 6.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

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
}
