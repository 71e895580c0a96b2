//! Criterion benchmark of the move generator: a fixed set of positions from
//! seeded random play, times all 21 rolls, per variant. The total number of
//! resulting positions is asserted before timing, so a behaviour change cannot
//! pass as a speed change.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tavla::dice::Dice;
use tavla::perft::ROLLS;
use tavla::{Move, MoveGen, Position, Rules};

/// `0..n` by modulo, as the pinned counts were made.
fn below(rng: &mut Dice, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

fn sample_positions(rules: Rules, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Dice::new(seed);
    let mut gen = MoveGen::new();
    let mut moves = Vec::new();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::start(rules);
        for _ in 0..300 {
            if pos.is_game_over() || out.len() == count {
                break;
            }
            if below(&mut rng, 4) == 0 {
                out.push(pos);
            }
            let (d1, d2) = (below(&mut rng, 6) as u8 + 1, below(&mut rng, 6) as u8 + 1);
            gen.legal_moves(&pos, d1, d2, &mut moves);
            pos = moves[below(&mut rng, moves.len())].position.flip();
        }
    }
    out
}

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
    for (rules, expected) in [
        (Rules::backgammon(), 422_361),
        (Rules::nardy(), 227_510),
        (Rules::gulbara(), 354_780),
        (Rules::dutch(), 604_825),
        // Acey-deucey's 1-2 roll counts every result of its whole sequence
        // (the 1, the 2, four of each named number): most of the total.
        (Rules::acey_deucey(), 12_257_818),
    ] {
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
