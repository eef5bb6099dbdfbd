//! Board networks: the first layer in integers, a row per checker count
//! for the points and dense pairs for the rest.

use super::*;
use crate::backgammon::{Dice, MoveList, Position, legal_moves};
use crate::eval::encoding::{NetKind, encode};
use crate::eval::shipped_model;

/// The encoded inputs of every candidate along a seeded random game
/// walk (each from the side to roll next), with the network kind
/// each belongs to, one list per roll.
fn walk(seed: u64, turns: usize) -> Vec<Vec<(NetKind, Vec<f32>)>> {
    let mut s = seed;
    let mut word = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let (mut pos, mut list, mut rolls) = (Position::starting(), MoveList::new(), Vec::new());
    for _ in 0..turns {
        let rolls_now: Vec<Dice> = Dice::all_rolls().map(|(d, _)| d).collect();
        let dice = rolls_now[(word() % rolls_now.len() as u64) as usize];
        legal_moves(&pos, dice, &mut list);
        let encoded = list
            .iter()
            .map(|c| c.position.swap())
            .filter(|p| !p.is_game_over())
            .map(|p| {
                let kind = if p.has_contact() {
                    NetKind::Contact
                } else {
                    NetKind::Race
                };
                let mut input = vec![0f32; kind.inputs()];
                encode(&p, kind, &mut input);
                (kind, input)
            })
            .collect();
        rolls.push(encoded);
        let next = list
            .iter()
            .nth((word() % list.len() as u64) as usize)
            .unwrap();
        pos = next.position.swap();
        if pos.is_game_over() {
            pos = Position::starting();
        }
    }
    rolls
}

/// How far the portable pass may differ from a vector one: the
/// upper layers' fused and unfused float sums part by a few ulps of
/// sums that reach about ±30 on the shipped networks.
const PASSES_AGREE: f32 = 2e-4;

fn close(a: [f32; OUTPUTS], b: [f32; OUTPUTS], tolerance: f32) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() < tolerance)
}

#[test]
fn a_row_per_count_gives_the_separate_rows_answer_on_every_pass() {
    let model = shipped_model().unwrap();
    let nets = [
        (
            FastNet::for_board(&model.contact),
            FastNet::from(&model.contact),
        ),
        (FastNet::for_board(&model.race), FastNet::from(&model.race)),
    ];
    assert!(nets.iter().all(|(board, _)| board.board.is_some()));
    // The largest change, in units of that network's rounding step.
    let mut largest = 0f32;
    for (kind, input) in walk(0x2545_f491_4f6c_dd1d, 300).into_iter().flatten() {
        let (board, separate) = &nets[(kind == NetKind::Race) as usize];
        let points = &board.board.as_ref().unwrap().points;
        let unit = points.unit;
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            assert_eq!(unsafe { points.counts_avx2(&input) }, points.counts(&input));
        }
        let (fast, portable) = (board.forward(&input), board.forward_portable(&input));
        assert!(
            close(fast, portable, PASSES_AGREE),
            "{fast:?} vs {portable:?}"
        );
        let rows = separate.forward(&input);
        for (a, b) in fast.iter().zip(&rows) {
            largest = largest.max((a - b).abs() / unit);
        }
    }
    // The combined rows round once, to a multiple of 2^-s (a unit), where
    // the separate ones rounded each weight to binary16: each occupied
    // point's row moves a hidden sum by at most half a unit, a board's
    // rows by about a unit, and the upper layers carry that to the
    // outputs at a gain of order one. A wrong row or count moves them by
    // tenths: tens or hundreds of units.
    assert!(largest < 4.0, "largest change {largest} units");
    assert!(
        largest > 0.0,
        "the combined rows changed nothing: not in use?"
    );
}

/// The shipped model's contact and race networks as board networks.
fn shipped_board_nets() -> [FastNet; 2] {
    let model = shipped_model().unwrap();
    [
        FastNet::for_board(&model.contact),
        FastNet::for_board(&model.race),
    ]
}

/// The point and feature sums are exact integers whatever order the
/// memo changed them in: the same bits as a pass without the memo.
#[test]
fn a_memo_walks_board_candidates_to_the_full_pass_answer() {
    let nets = shipped_board_nets();
    let mut checked = [0; 2];
    for (turn, roll) in walk(0x9e37_79b9_7f4a_7c15, 400).into_iter().enumerate() {
        // One memo a roll, as the search keeps, and now and then one
        // carried across rolls and networks: every path of the memo.
        let mut memo = FirstLayerMemo::new();
        let mut carried = FirstLayerMemo::new();
        for (kind, input) in roll {
            let net = &nets[(kind == NetKind::Race) as usize];
            let full = net.forward(&input);
            let walked = net.forward_with_memo(&input, &mut memo);
            assert_eq!(full, walked, "turn {turn}");
            if turn % 3 == 0 {
                let walked = net.forward_with_memo(&input, &mut carried);
                assert_eq!(full, walked, "turn {turn}");
            }
            checked[(kind == NetKind::Race) as usize] += 1;
        }
    }
    assert!(checked.iter().all(|&n| n > 100), "{checked:?}");
}

/// Given the counts, a board network's passes never read the point
/// units (the counted encoding leaves them unwritten): with them NaN
/// the answers keep the plain pass's bits, memo or not.
#[test]
fn counted_passes_never_read_the_point_units() {
    let nets = shipped_board_nets();
    assert!(nets.iter().all(FastNet::takes_counts));
    assert!(!FastNet::from(&shipped_model().unwrap().contact).takes_counts());
    let mut checked = 0;
    for roll in walk(0x51_7cc1_b727_220a, 300) {
        let mut memo = FirstLayerMemo::new();
        for (kind, input) in roll {
            let net = &nets[(kind == NetKind::Race) as usize];
            let counts = net.board.as_ref().unwrap().points.counts(&input);
            let mut blind = input.clone();
            let half = input.len() / 2;
            for unit in (0..96).chain(half..half + 96) {
                blind[unit] = f32::NAN;
            }
            let full = net.forward(&input);
            assert_eq!(net.forward_counted(&blind, &counts, None), full);
            assert_eq!(net.forward_counted(&blind, &counts, Some(&mut memo)), full);
            let portable = net.portable_pass(&blind, Some(&counts));
            assert!(
                close(portable, full, PASSES_AGREE),
                "{portable:?} vs {full:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn point_weights_too_large_for_integers_keep_the_separate_rows() {
    let model = shipped_model().unwrap();
    let mut m = model.contact.clone();
    // A weight of a point's third input: its rows for three or more
    // checkers, fifteen points of them, overflow sixteen bits at any
    // scale with eight bits of fraction.
    m.w1[2 * m.hidden + 7] = 200.0;
    let (board, separate) = (FastNet::for_board(&m), FastNet::from(&m));
    assert!(board.board.is_none());
    let inputs: Vec<Vec<f32>> = walk(7, 40)
        .into_iter()
        .flatten()
        .filter(|(kind, _)| *kind == NetKind::Contact)
        .map(|(_, input)| input)
        .collect();
    assert!(!inputs.is_empty());
    for input in &inputs {
        assert_eq!(board.forward(input), separate.forward(input));
    }
}

/// A batch's answers are each input's own single pass, bit for bit:
/// the second layer sums in integers whichever inputs share its loads,
/// and a batch shorter than [`MAX_BATCH`] fills the rest with its last.
#[test]
fn a_batch_answers_as_each_input_alone() {
    let nets = shipped_board_nets();
    let mut checked = [0usize; MAX_BATCH + 1];
    for (turn, roll) in walk(0x5851_f42d_4c95_7f2d, 300).into_iter().enumerate() {
        let mut memo = FirstLayerMemo::new();
        let mut memo_avx2 = FirstLayerMemo::new();
        let size = 1 + turn % MAX_BATCH;
        let mut rest = roll.as_slice();
        while !rest.is_empty() {
            let kind = rest[0].0;
            let n = rest
                .iter()
                .take(size)
                .take_while(|(k, _)| *k == kind)
                .count();
            let (batch, tail) = rest.split_at(n);
            rest = tail;
            let net = &nets[(kind == NetKind::Race) as usize];
            let points = &net.board.as_ref().unwrap().points;
            let inputs: Vec<&[f32]> = batch.iter().map(|(_, i)| i.as_slice()).collect();
            let counts: Vec<PointCounts> = inputs.iter().map(|i| points.counts(i)).collect();
            let mut out = vec![[0f32; OUTPUTS]; n];
            net.forward_counted_batch(&inputs, &counts, &mut memo, &mut out);
            for (input, got) in inputs.iter().zip(&out) {
                assert_eq!(*got, net.forward(input), "turn {turn}, batch of {n}");
            }
            // The AVX2 batch too, where the dispatch took AVX-512: the
            // same bits as the AVX2 single pass.
            #[cfg(target_arch = "x86_64")]
            if net.pass == Pass::Avx512 {
                let mut narrow = vec![[0f32; OUTPUTS]; n];
                // SAFETY: an AVX-512 pass's CPU has AVX2, FMA, F16C and POPCNT.
                unsafe { net.counted_batch_avx2(&inputs, &counts, &mut memo_avx2, &mut narrow) };
                for ((input, c), got) in inputs.iter().zip(&counts).zip(&narrow) {
                    let board = net.board.as_ref().unwrap();
                    // SAFETY: as above.
                    let want = unsafe { net.counted_avx2(board, input, c, None) };
                    assert_eq!(*got, want, "avx2, turn {turn}, batch of {n}");
                }
            }
            checked[n] += 1;
        }
    }
    assert!(checked[1..].iter().all(|&c| c > 20), "{checked:?}");
}
