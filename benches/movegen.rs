//! Legal-move generation over the fixed benchmark set (benches/positions.txt):
//! one iteration is one pass over every position with every roll of a kind.
//! `kotra-ai bench movegen` prints the same figures per (position, roll).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kotra::backgammon::MoveList;
use kotra::bench::movegen::{Class, PositionSet, RollKind, pass, rolls};

fn movegen(c: &mut Criterion) {
    let set = PositionSet::builtin();
    let mut group = c.benchmark_group("movegen");
    for class in [Class::Contact, Class::Race] {
        for kind in [RollKind::Mixed, RollKind::Doubles] {
            let positions = set.class(class);
            let rolls = rolls(kind);
            let mut list = MoveList::new();
            group.throughput(Throughput::Elements((positions.len() * rolls.len()) as u64));
            let name = format!("{class:?}_{kind:?}").to_lowercase();
            group.bench_function(name, |b| {
                b.iter(|| pass(std::hint::black_box(positions), &rolls, &mut list))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
