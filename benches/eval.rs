//! Network evaluation (encoding included) and whole 0-ply move choices over
//! the fixed benchmark positions, with the shipped network.
//! `kotra-ai bench eval` prints the same figures.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kotra::backgammon::MoveList;
use kotra::bench::eval::{choice_pass, net_pass};
use kotra::bench::movegen::{Class, PositionSet};
use kotra::eval::encoding::{CONTACT_INPUTS, encode};
use kotra::eval::{Evaluator, NetKind, shipped_model};

fn eval(c: &mut Criterion) {
    let set = PositionSet::builtin();
    let eval = Evaluator::new(shipped_model().expect("shipped model loads"));
    let mut group = c.benchmark_group("eval");
    for (name, kind, class) in [
        ("contact_net", NetKind::Contact, Class::Contact),
        ("race_net", NetKind::Race, Class::Race),
    ] {
        let positions = set.class(class);
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| net_pass(&eval, kind, std::hint::black_box(positions)))
        });
    }
    let contact = set.class(Class::Contact);
    // The encoding alone: what of a contact evaluation is not the network.
    group.bench_function("contact_encode", |b| {
        let mut input = [0f32; CONTACT_INPUTS];
        b.iter(|| {
            for p in std::hint::black_box(contact) {
                encode(p, NetKind::Contact, &mut input);
                std::hint::black_box(&input);
            }
        })
    });
    let mut list = MoveList::new();
    group.throughput(Throughput::Elements((contact.len() * 21) as u64));
    group.sample_size(10);
    group.bench_function("contact_move_choice", |b| {
        b.iter(|| choice_pass(&eval, std::hint::black_box(contact), &mut list))
    });
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
