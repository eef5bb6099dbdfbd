//! Network inputs: a Tesauro-style per-point encoding of both sides plus
//! hand-crafted backgammon features, written into a caller's buffer so the
//! evaluation loop never allocates.
//!
//! Layout (the side on roll first, then the other side, each from its own
//! view):
//! - `RAW_PER_SIDE` = 98 per side: for points 1..=24 four units
//!   (≥1, ≥2, ≥3 checkers, (n−3)/2 for the rest), the bar n/2, borne off n/15;
//! - contact nets add `FEATURES_PER_SIDE` per side (see [`side_features`]);
//! - race nets add `RACE_FEATURES_PER_SIDE` per side (see `race_features`):
//!   the pip count, and what decides gammons and backgammons in a race.
//!
//! `ENCODING_VERSION` is written into model files: a network trained on
//! one layout must never be fed another. Version 2 appended seven features
//! per side to version 1's ten (escapes, contact, timing, gammon danger,
//! pips at risk, best anchor); a version-1 file is upgraded on load with
//! zero weights for them (`Model::from_bytes`). Same recipe, 300,000 games
//! from random weights (training/ablation/full.json): dev error 14.71 mp
//! with the ten, 13.31 mp with the seventeen. Version 3 appended six race
//! features per side to the pip count (a version-2 race network is
//! upgraded the same way). Version 4 appended five race features per side
//! from the one-sided bear-off database (a side with every checker home:
//! its chances of being off within one to four rolls, its expected
//! rolls), and a version-3 race network is upgraded the same way again.

use crate::backgammon::{BAR, OPP_BAR, Position};

#[cfg(target_arch = "x86_64")]
mod board_lanes;
mod rolls;

use rolls::{escape_rolls, hit_rolls};

/// Bumped whenever the meaning of any input changes.
pub const ENCODING_VERSION: u32 = 4;

pub(crate) const RAW_PER_SIDE: usize = 24 * 4 + 2;
/// Hand-crafted features per side in the contact encoding.
pub const FEATURES_PER_SIDE: usize = 17;
/// Features per side of encoding version 1: the first ten of today's, so a
/// version-1 network is today's with zero weights on the rest.
pub const FEATURES_PER_SIDE_V1: usize = 10;
/// Inputs of the contact (and crashed/back game) network.
pub const CONTACT_INPUTS: usize = 2 * (RAW_PER_SIDE + FEATURES_PER_SIDE);
/// Hand-crafted features per side in the race encoding.
pub const RACE_FEATURES_PER_SIDE: usize = 12;
/// Race features per side of encoding versions 1 and 2: the pip count.
pub const RACE_FEATURES_PER_SIDE_V2: usize = 1;
/// Race features per side of encoding version 3: the pip count and six
/// more, before the bear-off database's five.
pub const RACE_FEATURES_PER_SIDE_V3: usize = 7;
/// Inputs of the race network.
pub const RACE_INPUTS: usize = 2 * (RAW_PER_SIDE + RACE_FEATURES_PER_SIDE);

/// The contact-network inputs of feature `k` (0..FEATURES_PER_SIDE), one
/// per side: what an ablation zeroes to measure what a feature is worth.
pub fn contact_feature_inputs(k: usize) -> [usize; 2] {
    let per_side = CONTACT_INPUTS / 2;
    [RAW_PER_SIDE + k, per_side + RAW_PER_SIDE + k]
}

/// Which network a position belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetKind {
    Contact,
    Race,
    /// Back games and crashed boards, in a model that has a network for
    /// them: the contact inputs, weights of their own.
    Crashed,
}

impl NetKind {
    pub fn inputs(self) -> usize {
        match self {
            NetKind::Contact | NetKind::Crashed => CONTACT_INPUTS,
            NetKind::Race => RACE_INPUTS,
        }
    }
}

/// The network inputs of a batch of positions, one row each: the shape a
/// training sample matrix or an array-minded caller wants. The network's
/// own hot path encodes into a reused slice ([`encode`]) instead.
pub fn encode_batch(positions: &[Position], kind: NetKind) -> ndarray::Array2<f32> {
    let mut out = ndarray::Array2::zeros((positions.len(), kind.inputs()));
    for (mut row, pos) in out.rows_mut().into_iter().zip(positions) {
        let row = row
            .as_slice_mut()
            .expect("the rows of a fresh standard-layout array are contiguous");
        encode(pos, kind, row);
    }
    out
}

/// Writes the inputs of `pos` (side on roll first) for `kind` into `out`,
/// which must hold exactly `kind.inputs()` values.
pub fn encode(pos: &Position, kind: NetKind, out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2_counts() {
        // SAFETY: the CPU has the features `encode_avx2` is compiled for.
        return unsafe { encode_avx2(pos, kind, out) };
    }
    encode_with::<false>(pos, kind, out, None)
}

/// Each side's checker count on its points 1..=24, capped at 15, the
/// side on roll's first: all that a point's four units say.
pub type PointCounts = [u8; 48];

/// [`encode`] for a network that reads its point units as checker counts
/// ([`FastNet::takes_counts`](super::fast_net::FastNet::takes_counts)):
/// `counts` gets them, and where the AVX2 encoding runs the point units
/// of `out` are left as they were. Writing 192 floats only for the
/// network to read the counts back out of them is a sizeable share of
/// a contact evaluation.
pub fn encode_counted(pos: &Position, kind: NetKind, out: &mut [f32], counts: &mut PointCounts) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2_counts() {
        // SAFETY: the CPU has the features `encode_counted_avx2` is compiled for.
        return unsafe { encode_counted_avx2(pos, kind, out, counts) };
    }
    encode_with::<false>(pos, kind, out, Some(counts))
}

/// Whether this CPU has what the AVX2 encoding is compiled for: the
/// roll-counting lanes, and single instructions for the bit counts the
/// features take (x86-64's baseline has no `popcnt`, so `count_ones`
/// otherwise becomes a dozen shifts and masks).
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx2_counts() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("lzcnt")
}

/// [`encode`] compiled for AVX2: everything below it is inlined, so its
/// sums, masks and counts use the wider instructions too. The inputs are
/// the same as the portable pass's (integer counts, the same divisions).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,lzcnt")]
unsafe fn encode_avx2(pos: &Position, kind: NetKind, out: &mut [f32]) {
    encode_with::<true>(pos, kind, out, None)
}

/// [`encode_counted`] compiled for AVX2, as [`encode_avx2`] is.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,lzcnt")]
unsafe fn encode_counted_avx2(
    pos: &Position,
    kind: NetKind,
    out: &mut [f32],
    counts: &mut PointCounts,
) {
    encode_with::<true>(pos, kind, out, Some(counts))
}

/// The encoding, and where `counts` is given the point counts too (the
/// AVX2 pass then writes them instead of the point units).
#[inline(always)]
fn encode_with<const AVX2: bool>(
    pos: &Position,
    kind: NetKind,
    out: &mut [f32],
    mut counts: Option<&mut PointCounts>,
) {
    debug_assert_eq!(out.len(), kind.inputs());
    let other = pos.swap();
    let sides = [pos, &other];
    let per_side = out.len() / 2;
    for (side, view) in sides.into_iter().enumerate() {
        let block = &mut out[side * per_side..(side + 1) * per_side];
        let side_counts = counts.as_deref_mut().map(|c| {
            <&mut [u8; 24]>::try_from(&mut c[side * 24..][..24]).expect("24 points a side")
        });
        #[cfg(target_arch = "x86_64")]
        if AVX2 {
            // SAFETY: only `encode_avx2` and `encode_counted_avx2` ask for
            // AVX2, on a CPU with the features they are compiled for.
            unsafe { side_avx2(view, kind, block, side_counts) };
            continue;
        }
        if let Some(side_counts) = side_counts {
            for (c, &v) in side_counts.iter_mut().zip(&view.raw()[1..=24]) {
                *c = v.clamp(0, 15) as u8;
            }
        }
        raw_units(view, &mut block[..RAW_PER_SIDE]);
        match kind {
            NetKind::Contact | NetKind::Crashed => {
                side_features_with::<AVX2>(view, &mut block[RAW_PER_SIDE..])
            }
            NetKind::Race => race_features(view, &mut block[RAW_PER_SIDE..]),
        }
    }
}

/// One side's block of [`encode_with`] with the board arithmetic in AVX2
/// lanes ([`board_lanes`]): the same inputs as the portable pass.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,lzcnt")]
#[inline]
fn side_avx2(view: &Position, kind: NetKind, block: &mut [f32], counts: Option<&mut [u8; 24]>) {
    let n = board_lanes::mover_counts(view.raw());
    let (units, rest) = block.split_at_mut(96);
    match counts {
        Some(counts) => board_lanes::point_counts(n, counts),
        None => board_lanes::point_units(
            n,
            units
                .try_into()
                .expect("a side's block starts with 96 units"),
        ),
    }
    rest[0] = view.raw()[BAR] as f32 / 2.0;
    rest[1] = (u32::from(crate::backgammon::CHECKERS) - board_lanes::on_board(n)) as f32 / 15.0;
    match kind {
        NetKind::Contact | NetKind::Crashed => side_features_with::<true>(view, &mut rest[2..]),
        NetKind::Race => race_features(view, &mut rest[2..]),
    }
}

/// The four units of a point holding n checkers: ≥1, ≥2, ≥3, (n−3)/2.
static POINT_UNITS: [[f32; 4]; 16] = {
    let mut t = [[0f32; 4]; 16];
    let mut n = 1;
    while n < 16 {
        let x = n as f32;
        t[n] = [
            1.0,
            (n >= 2) as u8 as f32,
            (n >= 3) as u8 as f32,
            if n > 3 { (x - 3.0) / 2.0 } else { 0.0 },
        ];
        n += 1;
    }
    t
};

#[inline(always)]
fn raw_units(view: &Position, out: &mut [f32]) {
    let p = view.raw();
    for (u, &v) in out[..96].chunks_exact_mut(4).zip(&p[1..=24]) {
        u.copy_from_slice(&POINT_UNITS[v.clamp(0, 15) as usize]);
    }
    out[96] = p[BAR] as f32 / 2.0;
    out[97] = view.borne_off(crate::backgammon::Side::Mover) as f32 / 15.0;
}

/// The race features of the side on roll of `view`, in its own numbering.
/// Beside the pip count they spell out what a single layer otherwise has
/// to piece together from the point units, and what most of the race
/// network's dev error was about (gammon- and backgammon-saving endings):
/// whether a checker is off (no gammon then), how far the side is from
/// having every checker home (when it can start bearing off), and how deep
/// it still stands in the other side's home board (a backgammon).
fn race_features(view: &Position, out: &mut [f32]) {
    let p = view.raw();
    let (mut pips, mut outside, mut to_home, mut crossings) = (0u32, 0u32, 0u32, 0u32);
    let (mut trapped, mut to_escape) = (0u32, 0u32);
    for (point, &v) in p.iter().enumerate().take(BAR + 1).skip(1) {
        let n = v.max(0) as u32;
        let point = point as u32;
        pips += n * point;
        if point > 6 {
            outside += n;
            to_home += n * (point - 6);
            // About the quadrant crossings still to make: the point's
            // checkers' distance to the 1-point in sixes, rounded down per
            // point rather than per checker (the shipped race networks,
            // kotra-v16 on, learnt this form).
            crossings += n * (point - 1) / 6;
        }
        if point > 18 {
            trapped += n;
            to_escape += n * (point - 18);
        }
    }
    let finish = if outside == 0 {
        bearoff_finish(&super::bearoff::home_points(view))
    } else {
        [0.0; BEAROFF_FEATURES]
    };
    let all = [
        pips as f32 / 100.0,
        (view.borne_off(crate::backgammon::Side::Mover) > 0) as u8 as f32,
        outside as f32 / 15.0,
        to_home as f32 / 100.0,
        crossings as f32 / 15.0,
        trapped as f32 / 15.0,
        to_escape as f32 / 30.0,
        finish[0],
        finish[1],
        finish[2],
        finish[3],
        finish[4],
    ];
    out.copy_from_slice(&all[..out.len()]);
}

/// Race features read from the one-sided bear-off database.
const BEAROFF_FEATURES: usize = 5;

/// For a side with every checker home (`board`, its home points): the
/// chances that it has borne off within one, two, three and four rolls,
/// and its expected rolls / 10, exact from the one-sided database; a side
/// not home gets zeros. In a lopsided race these decide the gammons: the trailer must bring its checkers home and bear one off
/// before the leader's last roll, and the race network, left to piece the
/// leader's bear-off together from its point units, misjudged it by tens
/// of percent (dev-m-1133: 48% gammons at 0-ply against 13% exact).
fn bearoff_finish(board: &[u8; super::bearoff::POINTS]) -> [f32; BEAROFF_FEATURES] {
    let off = super::bearoff::BearoffDb::get().off(board);
    let mut within = 0f32;
    let mut out = [0f32; BEAROFF_FEATURES];
    for (k, slot) in out[..4].iter_mut().enumerate() {
        within += off[k + 1];
        *slot = within;
    }
    out[4] = super::bearoff::mean(off) / 10.0;
    out
}

/// Bit masks of one side's situation in its own numbering (bit i = point i,
/// bit 25 = its bar; the opponent's bar is bit 0, where it enters from).
struct Masks {
    made: u32,
    blots: u32,
    /// Points the opponent holds with two or more checkers.
    opp_made: u32,
    /// Points the opponent's checkers stand on, bit 0 for its bar.
    opp_from: u32,
    opp_on_bar: u8,
    /// Slots holding the mover's checkers, its bar (bit 25) included.
    mine: u32,
}

/// Bits 1..=24 of a slot mask: the points, without either bar.
const POINTS: u32 = (1 << 25) - 2;

/// The slots `from` − 12 ..= `from` − 1 (down to the opponent's bar, slot
/// 0): the twelve pips in front of a mover's checker on `from`, where
/// opposing points block it and opposing checkers can hit it.
#[inline]
fn in_front(from: u32) -> u32 {
    ((1u32 << from) - 1) & !((1u32 << from.saturating_sub(12)) - 1)
}

#[inline(always)]
fn masks(view: &Position) -> Masks {
    let p = view.raw();
    let bits = SlotBits::of(p);
    Masks {
        made: bits.at_least_two & POINTS,
        blots: bits.one & POINTS,
        opp_made: bits.opp_two & POINTS,
        // Bit 0 is the opponent's bar, where it enters from.
        opp_from: bits.opp & !(1 << 25),
        opp_on_bar: (-p[OPP_BAR]) as u8,
        mine: bits.mine,
    }
}

/// Per-slot tests of a board as bit masks (bit i = slot i, 0..=25); PubEval
/// finds the points it scores with them too.
pub(in crate::eval) struct SlotBits {
    pub(in crate::eval) mine: u32,
    pub(in crate::eval) one: u32,
    pub(in crate::eval) at_least_two: u32,
    pub(in crate::eval) opp: u32,
    pub(in crate::eval) opp_two: u32,
}

impl SlotBits {
    /// Byte compares on two overlapping 16-byte halves of the board
    /// (slots 0..16 and 10..26) instead of 26 scalar tests each.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(in crate::eval) fn of(p: &[i8; 26]) -> SlotBits {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86-64; both loads stay inside the
        // 26-byte array (0..16 and 10..26).
        unsafe {
            let lo = _mm_loadu_si128(p.as_ptr().cast());
            let hi = _mm_loadu_si128(p.as_ptr().add(10).cast());
            let mask = |f: &dyn Fn(__m128i) -> __m128i| {
                (_mm_movemask_epi8(f(lo)) as u32) | ((_mm_movemask_epi8(f(hi)) as u32) << 10)
            };
            let splat = |v: i8| _mm_set1_epi8(v);
            SlotBits {
                mine: mask(&|x| _mm_cmpgt_epi8(x, splat(0))),
                one: mask(&|x| _mm_cmpeq_epi8(x, splat(1))),
                at_least_two: mask(&|x| _mm_cmpgt_epi8(x, splat(1))),
                opp: mask(&|x| _mm_cmpgt_epi8(splat(0), x)),
                opp_two: mask(&|x| _mm_cmpgt_epi8(splat(-1), x)),
            }
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(in crate::eval) fn of(p: &[i8; 26]) -> SlotBits {
        let mask = |f: fn(i8) -> bool| {
            p.iter()
                .enumerate()
                .fold(0u32, |m, (i, &v)| m | (u32::from(f(v)) << i))
        };
        SlotBits {
            mine: mask(|v| v > 0),
            one: mask(|v| v == 1),
            at_least_two: mask(|v| v >= 2),
            opp: mask(|v| v < 0),
            opp_two: mask(|v| v <= -2),
        }
    }
}

/// Longest run of consecutive made points. Fifteen checkers make at most
/// seven points, so seven steps of the run-shortening loop always reach
/// zero: unrolled, without a branch on the board (the loop's exit, which
/// depended on the board, was among the encoding's most mispredicted
/// branches).
#[inline(always)]
fn longest_prime(made: u32) -> u32 {
    let mut run = made;
    let mut len = 0;
    for _ in 0..7 {
        len += u32::from(run != 0);
        run &= run >> 1;
    }
    len
}

/// Pips at risk: for each blot within 12 pips in front of an opponent
/// checker (`in_front` of the blot), the 25 − point it would lose if hit.
/// Branch-free: the points threatened are the opponent's checkers spread
/// 1 to 12 pips forward, and the points of the blots among them are
/// summed by their binary digits, a count per digit.
#[inline(always)]
fn pips_at_risk(blots: u32, opp_from: u32) -> i32 {
    let within_2 = opp_from | opp_from << 1;
    let within_4 = within_2 | within_2 << 2;
    let within_8 = within_4 | within_4 << 4;
    let threatened = (within_8 | within_4 << 8) << 1;
    let risky = blots & threatened;
    // Bit k of a point's number, for the points 0..=31.
    const DIGITS: [u32; 5] = [
        0xaaaa_aaaa,
        0xcccc_cccc,
        0xf0f0_f0f0,
        0xff00_ff00,
        0xffff_0000,
    ];
    let points: u32 = DIGITS
        .iter()
        .enumerate()
        .map(|(k, &d)| (risky & d).count_ones() << k)
        .sum();
    (25 * risky.count_ones()) as i32 - points as i32
}

/// Features of the side on roll of `view`, from its own numbering:
/// 0 pips/100, 1 rolls the opponent hits a blot /36, 2 blots /4,
/// 3 home-board points made /6, 4 longest prime /6, 5 anchors in the
/// opponent's home /2, 6 rearmost checker /25, 7 checkers back (opponent's
/// home and bar) /5, 8 the opponent's made points in the 12 points in front of
/// the rearmost checker /6, 9 outfield checkers (points 7..=12) /5 (the ten
/// of encoding version 1); then
/// 10 escape rolls of the rearmost checker /36 (`escape_rolls`);
/// 11 pips to break contact /100 (each checker's distance past the
/// opponent's rearmost checker); 12 timing /100 (pips outside the home
/// board, not counting the two checkers that hold each anchor in the
/// opponent's home: what can be played before the board must break);
/// 13 checkers outside the home board /15 and 14 crossovers they need to
/// get home /20 (gammon danger); 15 pips at risk /50 (for each blot within
/// 12 pips in front of an opponent checker, the 25 − point it would lose
/// if hit); 16 the most advanced anchor on the opponent's side, 18..=24
/// point, as (25 − point)/7.
///
/// This entry is the portable pass; [`encode`] runs the same code compiled
/// for AVX2 where the CPU has it.
pub fn side_features(view: &Position, out: &mut [f32]) {
    side_features_with::<false>(view, out)
}

/// What each of [`side_features`]' counts is divided by, then 1s to fill
/// three vectors of eight.
const FEATURE_DIVISORS: [f32; 24] = [
    100.0, 36.0, 4.0, 6.0, 6.0, 2.0, 25.0, 5.0, 6.0, 5.0, 36.0, 100.0, 100.0, 15.0, 20.0, 50.0,
    7.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
];

/// [`side_features`], with the rolls counted, the sums summed and the
/// counts divided in AVX2 lanes where `AVX2` (only [`encode_avx2`] asks).
#[inline(always)]
fn side_features_with<const AVX2: bool>(view: &Position, out: &mut [f32]) {
    let p = view.raw();
    let m = masks(view);
    let rearmost = 31 - (m.mine | 1).leading_zeros();
    let opp_rear = m.opp_from.trailing_zeros();
    #[cfg(target_arch = "x86_64")]
    let sums = if AVX2 {
        // SAFETY: as for the rolls' lanes.
        unsafe { board_lanes::sums(board_lanes::mover_counts(p), opp_rear) }
    } else {
        Sums::of(p, opp_rear)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let sums = Sums::of(p, opp_rear);
    let blocks = m.opp_made & in_front(rearmost);
    let mut counts = [0i32; 24];
    counts[..FEATURES_PER_SIDE_V1].copy_from_slice(&[
        sums.pips,
        hit_rolls::<AVX2>(&m) as i32,
        m.blots.count_ones() as i32,
        (m.made & 0b111_1110).count_ones() as i32,
        longest_prime(m.made) as i32,
        (m.made >> 19 & 0b11_1111).count_ones() as i32,
        rearmost as i32,
        sums.back,
        blocks.count_ones() as i32,
        sums.outfield,
    ]);
    if out.len() > FEATURES_PER_SIDE_V1 {
        let escapes = escape_rolls::<AVX2>(&m, rearmost, blocks);
        extra_features(
            &m,
            escapes,
            &sums,
            &mut counts[FEATURES_PER_SIDE_V1..FEATURES_PER_SIDE],
        );
    }
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: as above.
        return unsafe { board_lanes::divided(&counts, &FEATURE_DIVISORS, out) };
    }
    for (o, (&c, &d)) in out.iter_mut().zip(counts.iter().zip(&FEATURE_DIVISORS)) {
        *o = c as f32 / d;
    }
}

/// Checker-weighted sums over the mover's slots 1..=25, in one
/// branch-free pass.
#[cfg_attr(test, derive(Debug, PartialEq, Eq))]
struct Sums {
    pips: i32,
    back: i32,
    outfield: i32,
    break_contact: i32,
    timing: i32,
    outside: i32,
    crossovers: i32,
}

impl Sums {
    /// `opp_rear` is the opponent's rearmost slot in the mover's numbering
    /// (0 = its bar, 32 = none left).
    #[inline(always)]
    fn of(p: &[i8; 26], opp_rear: u32) -> Sums {
        // Checkers per slot, widened and padded so that each sum below is
        // a fixed-length dot product with a constant table (vectorised).
        let mut n = [0i32; 32];
        for (slot, &v) in n[1..26].iter_mut().zip(&p[1..26]) {
            *slot = i32::from(v.max(0));
        }
        let t = &SLOT_TABLES;
        let dot = |w: &[i8; 32]| {
            n.iter()
                .zip(w)
                .map(|(&k, &w)| k * i32::from(w))
                .sum::<i32>()
        };
        // The two checkers that hold an anchor in the opponent's home do
        // not count as timing.
        let held_pips: i32 = n
            .iter()
            .zip(&t.held_timing)
            .map(|(&k, &w)| i32::from(k >= 2) * i32::from(w))
            .sum();
        let opp_rear = opp_rear as i32;
        let break_contact = n
            .iter()
            .zip(&t.point)
            .map(|(&k, &w)| k * (i32::from(w) - opp_rear).max(0))
            .sum();
        Sums {
            pips: dot(&t.point),
            back: dot(&t.back),
            outfield: dot(&t.outfield),
            break_contact,
            timing: dot(&t.timing) - held_pips,
            outside: dot(&t.outside),
            crossovers: dot(&t.crossovers),
        }
    }
}

/// Per-slot weights of [`Sums`] (slots 1..=25; the rest zero), as bytes:
/// every weight fits an i8, the operand the AVX2 sums multiply by
/// (`board_lanes`).
struct SlotTables {
    point: [i8; 32],
    back: [i8; 32],
    outfield: [i8; 32],
    outside: [i8; 32],
    crossovers: [i8; 32],
    timing: [i8; 32],
    /// Twice the timing weight on the opponent's home points, where an
    /// anchor's two checkers are held back.
    held_timing: [i8; 32],
}

static SLOT_TABLES: SlotTables = {
    let mut t = SlotTables {
        point: [0; 32],
        back: [0; 32],
        outfield: [0; 32],
        outside: [0; 32],
        crossovers: [0; 32],
        timing: [0; 32],
        held_timing: [0; 32],
    };
    let mut pt = 1;
    while pt <= 25 {
        let w = pt as i8;
        t.point[pt] = w;
        t.back[pt] = (pt >= 19) as i8;
        t.outfield[pt] = (pt >= 7 && pt <= 12) as i8;
        if pt >= 7 {
            t.outside[pt] = 1;
            t.crossovers[pt] = (w - 1) / 6;
            t.timing[pt] = w - 6;
        }
        if pt >= 19 && pt <= 24 {
            t.held_timing[pt] = 2 * (w - 6);
        }
        pt += 1;
    }
    t
};

/// The counts of features 10.. of [`side_features`], before their
/// division.
#[inline(always)]
fn extra_features(m: &Masks, escapes: u32, sums: &Sums, out: &mut [i32]) {
    let at_risk = pips_at_risk(m.blots, m.opp_from);
    // The lowest made point among 18..=24 is the most advanced anchor.
    let near = (m.made >> 18) & 0x7f;
    let anchor = if near == 0 {
        0
    } else {
        7 - near.trailing_zeros() as i32
    };
    out.copy_from_slice(&[
        escapes as i32,
        sums.break_contact,
        sums.timing,
        sums.outside,
        sums.crossovers,
        at_risk,
        anchor,
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_encodes_each_position_in_its_row() {
        let positions = [Position::starting(), Position::starting().swap()];
        for kind in [NetKind::Contact, NetKind::Race] {
            let batch = encode_batch(&positions, kind);
            assert_eq!(batch.dim(), (2, kind.inputs()));
            for (row, pos) in batch.rows().into_iter().zip(&positions) {
                let mut one = vec![0f32; kind.inputs()];
                encode(pos, kind, &mut one);
                assert_eq!(row.to_vec(), one);
            }
        }
    }
    use crate::notation::position_id;

    fn features(id: &str) -> [f32; FEATURES_PER_SIDE] {
        let pos = position_id::decode(id).unwrap();
        let mut f = [0f32; FEATURES_PER_SIDE];
        side_features(&pos, &mut f);
        f
    }

    #[test]
    fn starting_position_features() {
        let f = features("4HPwATDgc/ABMA");
        assert_eq!(f[0], 1.67);
        assert_eq!(f[1], 0.0, "no blots, no shots");
        assert_eq!(
            f[3],
            1.0 / 6.0,
            "only the six point is made in the home board"
        );
        assert_eq!(f[4], 1.0 / 6.0, "the six and eight points are not adjacent");
        assert_eq!(f[5], 0.5, "one anchor, on the 24 point");
        assert_eq!(f[6], 24.0 / 25.0);
        assert_eq!(f[7], 2.0 / 5.0);
        assert_eq!(
            f[8],
            3.0 / 6.0,
            "the opponent's 13, 8 and 6 points lie within 12 pips"
        );
        assert_eq!(f[9], 3.0 / 5.0, "three checkers on the eight point");
        assert_eq!(f[10], 0.0, "the back checkers cannot get past the 12 point");
        assert_eq!(f[11], 1.52, "2×23 + 5×12 + 3×7 + 5×5 pips past the 1 point");
        assert_eq!(
            f[12], 0.41,
            "77 pips outside home less the 24-point anchor's 36"
        );
        assert_eq!(f[13], 10.0 / 15.0);
        assert_eq!(f[14], 19.0 / 20.0, "2×3 + 5×2 + 3×1 crossovers");
        assert_eq!(f[15], 0.0, "no blots");
        assert_eq!(f[16], 1.0 / 7.0, "the anchor on the 24 point");
    }

    #[test]
    fn escape_rolls_count_the_ways_past_a_blockade() {
        // A lone back checker on the 24 point facing one opponent point,
        // the mover's 18 (the opponent's bar point). Escaping means landing
        // on 17 or lower: 6 pips or more (7..12 via an open intermediate,
        // the 18 point itself is closed).
        // The opponent's 7 point is the mover's 18; its 20 point the
        // mover's 5, behind the checker.
        let pos = Position::from_points(&[(24, 1), (1, 14)], &[(7, 2), (20, 13)]);
        let m = masks(&pos);
        // Any 6 cannot land on 18; sums of 7+ land at 17 or lower through
        // 24−a (never 18 unless a = 6). Mixed rolls with a+b ≥ 7: 6-1..6-5
        // (the 6 is blocked, but the other die first then 6), 5-2, 5-3, 5-4,
        // 4-3: 9 rolls × 2 = 18; doubles 4-4 (20, 16), 5-5 (19, 14), 6-6
        // blocked at 18, 3-3 (21, 18 blocked), 2-2 (22, 20, 18 blocked).
        let escapes = |from| escape_rolls::<false>(&m, from, m.opp_made & in_front(from));
        assert_eq!(escapes(24), 18 + 2);
        assert_eq!(escapes(5), 36, "nothing in front");
    }

    /// The first, step-by-step version of [`escape_rolls`].
    fn escape_rolls_reference(m: &Masks, from: u32) -> u32 {
        if from <= 1 {
            return 36;
        }
        let lo = from.saturating_sub(12).max(1);
        let window = ((1u32 << from) - 1) & !((1u32 << lo) - 1);
        let blocks = m.opp_made & window;
        if blocks == 0 {
            return 36;
        }
        let lowest = blocks.trailing_zeros() as i32;
        let from = from as i32;
        let open = |t: i32| t >= 1 && (m.opp_made >> t) & 1 == 0;
        let past = |t: i32| t >= 1 && t < lowest && open(t);
        let mut n = 0;
        for a in 1..=6i32 {
            for b in a..=6i32 {
                let escapes = if a == b {
                    let mut t = from;
                    let mut hit = false;
                    for _ in 0..4 {
                        t -= a;
                        if !open(t) {
                            break;
                        }
                        if t < lowest {
                            hit = true;
                            break;
                        }
                    }
                    hit
                } else {
                    past(from - a)
                        || past(from - b)
                        || ((open(from - a) || open(from - b)) && past(from - a - b))
                };
                if escapes {
                    n += if a == b { 1 } else { 2 };
                }
            }
        }
        n
    }

    /// A fixed stream of random words for the mask tests.
    fn xorshift() -> impl FnMut() -> u64 {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        }
    }

    #[test]
    fn escape_rolls_agree_with_stepping() {
        let mut next = xorshift();
        for _ in 0..20_000 {
            let r = next();
            let m = Masks {
                made: 0,
                blots: 0,
                opp_made: (r as u32) & POINTS,
                opp_from: 0,
                opp_on_bar: 0,
                mine: 0,
            };
            let from = 2 + (r >> 40) as u32 % 24;
            let blocks = m.opp_made & in_front(from);
            assert_eq!(
                escape_rolls::<false>(&m, from, blocks),
                escape_rolls_reference(&m, from)
            );
        }
    }

    /// Positions along random games (every count a point can hold, both
    /// bars, races and bear-offs) and random contact boards.
    fn walked_and_random_boards() -> Vec<Position> {
        use crate::backgammon::{Dice, MoveList, legal_moves};
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(11);
        let mut out = rolls::tests::boards(2_000);
        let mut list = MoveList::new();
        for _ in 0..60 {
            let mut pos = Position::starting();
            while !pos.is_game_over() {
                out.push(pos);
                let dice = Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).unwrap();
                legal_moves(&pos, dice, &mut list);
                let pick = rng.random_range(0..list.len());
                pos = list.as_slice()[pick].position.swap();
            }
        }
        out
    }

    #[test]
    fn the_avx2_encoding_is_the_portable_one_bit_for_bit() {
        #[cfg(target_arch = "x86_64")]
        if !has_avx2_counts() {
            return;
        }
        let boards = walked_and_random_boards();
        let mut tall = 0;
        for pos in &boards {
            tall += usize::from(pos.raw().iter().any(|&v| v > 3));
            for kind in [NetKind::Contact, NetKind::Race] {
                let mut fast = vec![f32::NAN; kind.inputs()];
                let mut portable = vec![f32::NAN; kind.inputs()];
                encode(pos, kind, &mut fast);
                encode_with::<false>(pos, kind, &mut portable, None);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fast), bits(&portable), "{kind:?} {pos:?}");
            }
            let mut v1 = [f32::NAN; FEATURES_PER_SIDE_V1];
            let mut all = [f32::NAN; FEATURES_PER_SIDE];
            side_features(pos, &mut all);
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has the features, checked above.
            unsafe {
                side_avx2_features(pos, &mut v1)
            };
            assert_eq!(v1, all[..FEATURES_PER_SIDE_V1]);
        }
        assert!(tall > 1000, "{tall} positions with a point of four or more");
    }

    /// The counted encoding's counts say what the point units say, on
    /// both passes, and every other input is the plain encoding's.
    #[test]
    fn the_counted_encoding_gives_the_units_counts_and_the_same_other_inputs() {
        let per_side = |kind: NetKind| kind.inputs() / 2;
        let mut checked = 0;
        for pos in &walked_and_random_boards() {
            for kind in [NetKind::Contact, NetKind::Race] {
                let mut plain = vec![f32::NAN; kind.inputs()];
                encode(pos, kind, &mut plain);
                let from_units: Vec<u8> = (0..48)
                    .map(|slot| {
                        let at = (slot / 24) * per_side(kind) + (slot % 24) * 4;
                        let u = &plain[at..at + 4];
                        (u[0] + u[1] + u[2] + 2.0 * u[3]) as u8
                    })
                    .collect();
                let mut portable = vec![f32::NAN; kind.inputs()];
                let mut portable_counts = [99u8; 48];
                encode_with::<false>(pos, kind, &mut portable, Some(&mut portable_counts));
                let mut fast = vec![f32::NAN; kind.inputs()];
                let mut fast_counts = [99u8; 48];
                encode_counted(pos, kind, &mut fast, &mut fast_counts);
                assert_eq!(portable_counts.to_vec(), from_units, "{pos:?}");
                assert_eq!(fast_counts.to_vec(), from_units, "{pos:?}");
                for side in 0..2 {
                    let others = side * per_side(kind) + 96..(side + 1) * per_side(kind);
                    let bits = |v: &[f32]| {
                        v[others.clone()]
                            .iter()
                            .map(|x| x.to_bits())
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(bits(&fast), bits(&plain), "{kind:?} {pos:?}");
                    assert_eq!(bits(&portable), bits(&plain), "{kind:?} {pos:?}");
                }
                checked += usize::from(from_units.iter().any(|&n| n > 3));
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,lzcnt")]
    fn side_avx2_features(pos: &Position, out: &mut [f32]) {
        side_features_with::<true>(pos, out)
    }

    #[test]
    fn the_lane_sums_are_the_scalar_sums() {
        #[cfg(target_arch = "x86_64")]
        if !has_avx2_counts() {
            return;
        }
        for pos in walked_and_random_boards() {
            let p = pos.raw();
            // SAFETY (this and each call below): the CPU has AVX2, checked
            // above.
            let n = unsafe { board_lanes::mover_counts(p) };
            for rear in [0, 1, 7, 18, 24, 25, 32] {
                let lanes = unsafe { board_lanes::sums(n, rear) };
                assert_eq!(lanes, Sums::of(p, rear), "{pos:?} {rear}");
            }
            assert_eq!(
                unsafe { board_lanes::on_board(n) },
                u32::from(pos.on_board(crate::backgammon::Side::Mover))
            );
        }
    }

    #[test]
    fn pips_at_risk_and_primes_are_the_step_by_step_counts() {
        let mut next = xorshift();
        for _ in 0..50_000 {
            let r = next();
            let (blots, opp_from) = ((r as u32) & POINTS, (r >> 32) as u32 & !(1 << 25));
            let mut expected = 0i32;
            for pt in 1..=24 {
                if blots >> pt & 1 == 1 && opp_from & in_front(pt) != 0 {
                    expected += 25 - pt as i32;
                }
            }
            assert_eq!(
                pips_at_risk(blots, opp_from),
                expected,
                "{blots:b} {opp_from:b}"
            );
            // Seven made points at most, as fifteen checkers make.
            let mut made = blots;
            while made.count_ones() > 7 {
                made &= made - 1;
            }
            let longest = (1..=24)
                .map(|from| (from..=24).take_while(|&p| made >> p & 1 == 1).count() as u32)
                .max()
                .unwrap();
            assert_eq!(longest_prime(made), longest, "{made:b}");
        }
    }

    #[test]
    fn version_one_is_a_prefix_of_today() {
        let pos = position_id::decode("mBkMMFtMZy4HAA").unwrap();
        let mut all = [0f32; FEATURES_PER_SIDE];
        side_features(&pos, &mut all);
        let mut v1 = [0f32; FEATURES_PER_SIDE_V1];
        side_features(&pos, &mut v1);
        assert_eq!(all[..FEATURES_PER_SIDE_V1], v1);
    }

    #[test]
    fn hit_rolls_count_direct_and_indirect_shots() {
        // A lone mover blot 6 pips in front of an opponent checker, nothing
        // blocking: hit by any 6 (11 rolls), 5-1, 4-2, 3-3, 2-2 (3-3 and
        // 2-2 once each, 5-1 and 4-2 twice each): 11 + 2 + 2 + 1 + 1 = 17.
        // The blot on the mover's 10 point; the opponent's 21 point is the
        // mover's 4, 6 pips behind it.
        let pos = Position::from_points(&[(10, 1), (1, 14)], &[(21, 15)]);
        assert_eq!(hit_rolls::<false>(&masks(&pos)), 17);
    }

    #[test]
    fn a_made_point_blocks_indirect_shots() {
        // As above but the mover holds its 7 point: 3-3 (via 7) is blocked,
        // 2-2 goes 6, 8, 10 untouched; 5-1 via 9 or 5; 4-2 via 8 or 6.
        let pos = Position::from_points(&[(10, 1), (7, 2), (1, 12)], &[(21, 15)]);
        assert_eq!(hit_rolls::<false>(&masks(&pos)), 16);
    }

    #[test]
    fn encoded_lengths_and_symmetry() {
        let pos = Position::starting();
        let mut c = vec![0f32; CONTACT_INPUTS];
        encode(&pos, NetKind::Contact, &mut c);
        let half = CONTACT_INPUTS / 2;
        assert_eq!(c[..half], c[half..], "the start is symmetric");
        let mut r = vec![0f32; RACE_INPUTS];
        encode(&pos, NetKind::Race, &mut r);
        assert_eq!(
            r[RAW_PER_SIDE], 1.67,
            "the first race feature is the pip count"
        );
        assert_eq!(r[..RACE_INPUTS / 2], r[RACE_INPUTS / 2..]);
    }

    #[test]
    fn race_features_count_what_stands_outside_and_deep() {
        // Two checkers on the 20 point, one on the bar, three on the 9, four
        // on the 6, five off.
        let pos = Position::from_points(&[(20, 2), (25, 1), (9, 3), (6, 4)], &[(24, 15)]);
        let mut f = [0f32; RACE_FEATURES_PER_SIDE];
        race_features(&pos, &mut f);
        assert_eq!(f[0], 1.16, "2×20 + 25 + 3×9 + 4×6 pips");
        assert_eq!(f[1], 1.0, "a checker is off: no gammon to lose");
        assert_eq!(f[2], 6.0 / 15.0, "six checkers outside the home board");
        assert_eq!(f[3], 0.56, "2×14 + 19 + 3×3 pips to bring them home");
        assert_eq!(
            f[4],
            14.0 / 15.0,
            "⌊2×19/6⌋ + ⌊24/6⌋ + ⌊3×8/6⌋: each point's checkers' (point − 1) in sixes"
        );
        assert_eq!(
            f[5],
            3.0 / 15.0,
            "three in the other side's home or on the bar"
        );
        assert_eq!(f[6], 11.0 / 30.0, "2×2 + 7 pips to leave it");
        let mut none_off = [0f32; RACE_FEATURES_PER_SIDE];
        race_features(&Position::starting(), &mut none_off);
        assert_eq!(none_off[1], 0.0);
        assert_eq!(f[7..], [0.0; 5], "not home: no bear-off features");
    }

    #[test]
    fn a_home_side_reads_its_bear_off_from_the_database() {
        // Two checkers on the 6-point come off in one roll only with 3-3,
        // 4-4, 5-5 or 6-6, and surely within four.
        let pos = Position::from_points(&[(6, 2)], &[(24, 15)]);
        let mut f = [0f32; RACE_FEATURES_PER_SIDE];
        race_features(&pos, &mut f);
        assert!((f[7] - 4.0 / 36.0).abs() < 1e-6, "{f:?}");
        assert!(
            f[7] < f[8] && f[8] < f[9] && (f[10] - 1.0).abs() < 1e-6,
            "{f:?}"
        );
        let mean = f[7] + 2.0 * (f[8] - f[7]) + 3.0 * (f[9] - f[8]) + 4.0 * (f[10] - f[9]);
        assert!((f[11] - mean / 10.0).abs() < 1e-5, "{f:?}");
        // The other side, all fifteen on its 24-point, is far from home:
        // zeros in its block.
        let mut x = vec![0f32; RACE_INPUTS];
        encode(&pos, NetKind::Race, &mut x);
        let side = RACE_INPUTS / 2;
        assert_eq!(x[RAW_PER_SIDE + 7], f[7]);
        assert_eq!(x[side + RAW_PER_SIDE + 7..], [0.0; 5]);
    }
}
