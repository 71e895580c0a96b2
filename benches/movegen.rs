//! Criterion benchmark of the move generator: a fixed set of positions from
//! seeded random play, times all 21 rolls, per variant. The total number of
//! resulting positions is asserted before timing, so a behaviour change cannot
//! pass as a speed change.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tavla::{Move, MoveGen, Position, Rules};

/// A tiny fixed-seed generator (splitmix64), so the bench needs no crates.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn sample_positions(rules: Rules, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut gen = MoveGen::new();
    let mut moves = Vec::new();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::start(rules);
        for _ in 0..300 {
            if pos.is_game_over() || out.len() == count {
                break;
            }
            if rng.below(4) == 0 {
                out.push(pos);
            }
            let (d1, d2) = (rng.below(6) as u8 + 1, rng.below(6) as u8 + 1);
            gen.legal_moves(&pos, d1, d2, &mut moves);
            pos = moves[rng.below(moves.len())].position.flip();
        }
    }
    out
}

const ROLLS: [(u8, u8); 21] = {
    let mut rolls = [(0u8, 0u8); 21];
    let mut k = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            rolls[k] = (a, b);
            k += 1;
            b += 1;
        }
        a += 1;
    }
    rolls
};

fn count_all(gen: &mut MoveGen, positions: &[Position], out: &mut Vec<Move>) -> usize {
    let mut total = 0;
    for pos in positions {
        for &(d1, d2) in &ROLLS {
            gen.legal_moves(pos, d1, d2, out);
            total += out.len();
        }
    }
    total
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for (rules, expected) in [(Rules::backgammon(), 422_361), (Rules::nardy(), 227_510), (Rules::gulbara(), 354_780)] {
        let positions = sample_positions(rules, 1000, 2024);
        let mut gen = MoveGen::new();
        let mut out = Vec::with_capacity(64);
        let total = count_all(&mut gen, &positions, &mut out);
        assert_eq!(total, expected, "move count changed for {:?}", rules.variant);
        println!("{}: 1000 positions x 21 rolls -> {total} resulting positions", rules.variant.name());
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(rules.variant.name(), |b| b.iter(|| count_all(&mut gen, &positions, &mut out)));
    }
    group.finish();
}

criterion_group!(benches, bench_movegen);
criterion_main!(benches);
