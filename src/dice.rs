//! Seeded dice: a small deterministic generator, so that a game replays
//! exactly from its seed on every platform.
//!
//! The generator is splitmix64 (Steele, Lea and Flood, 2014): one 64-bit
//! state, an add and a few multiply-xorshifts per draw. It passes BigCrush,
//! which is far more than dice need, and it is fast enough that rolling never
//! shows up next to move generation.

/// A seeded source of dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dice {
    state: u64,
}

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A whole number in `0..n`, by Lemire's multiply-shift; the bias (below
    /// n / 2^32) is far under anything a game could notice.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// One die, 1 to 6.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// Two dice.
    #[inline]
    pub fn roll(&mut self) -> [u8; 2] {
        [self.die(), self.die()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_dice() {
        let mut a = Dice::new(7);
        let mut b = Dice::new(7);
        let ra: Vec<[u8; 2]> = (0..100).map(|_| a.roll()).collect();
        let rb: Vec<[u8; 2]> = (0..100).map(|_| b.roll()).collect();
        assert_eq!(ra, rb);
        let mut c = Dice::new(8);
        let rc: Vec<[u8; 2]> = (0..100).map(|_| c.roll()).collect();
        assert_ne!(ra, rc);
    }

    #[test]
    fn dice_are_fair() {
        let mut d = Dice::new(1);
        let mut counts = [0u32; 6];
        let n = 600_000;
        for _ in 0..n {
            counts[d.die() as usize - 1] += 1;
        }
        // Each face expects 100,000 with a standard deviation near 290.
        for c in counts {
            assert!((98_500..101_500).contains(&c), "{counts:?}");
        }
    }
}
