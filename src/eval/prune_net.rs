//! A small network that pre-selects a roll's replies inside the search,
//! in PubEval's place.
//!
//! Inside a search tree each roll's reply is the 0-ply best of the few
//! moves a cheap scorer ranks highest; the network then evaluates only
//! those. The fewer it must evaluate for the same chance of keeping the
//! true best, the faster every searching path (1 and 2-ply rollouts, 3-ply
//! decisions, reviews, the campaign's labels). PubEval was never meant to
//! rank moves like our network does; this one is distilled from it
//! (`kotra-ai train-pruner`, the network's 0-ply equity of every legal
//! move of sampled rolls, centred per roll, since only the order within a
//! roll counts), as gnubg distils its pruning nets from its own.
//!
//! Its inputs are the raw board, one-hot: each point's count for each side
//! (1 to 6 or more), each bar (1 to 4 or more) and each side's checkers
//! off (0 to 15); one hidden layer of rectified units; one output. A roll's
//! candidates differ from the position they were played from in a few
//! slots, so the hidden sums of the parent are found once and each
//! candidate adds and removes only the rows of the slots its move changed.
//! The sums are 16-bit integers (saturating), so a row is a handful of
//! vector adds.

use crate::backgammon::{Candidate, Position};
use crate::framed_file::{self, FileError, FrameKind};
use serde::{Deserialize, Serialize};

/// Hidden units: the width the probe (BENCHMARKS.md) found to keep the
/// true best among the top few as often as PubEval does among twice as
/// many.
pub const HIDDEN: usize = 64;

/// Count bins of a point, per side.
const POINT_BINS: usize = 6;
/// Count bins of a bar, per side.
const BAR_BINS: usize = 4;
/// Off counts 0 to 15, per side.
const OFF_BINS: usize = 16;
const POINTS_END: usize = 24 * 2 * POINT_BINS;
const BARS_END: usize = POINTS_END + 2 * BAR_BINS;
/// Inputs of the network.
pub const FEATURES: usize = BARS_END + 2 * OFF_BINS;

const KIND: FrameKind = FrameKind {
    name: "pre-selection network",
    magic: b"KOTRAPRN",
    version: 1,
};

/// The input a board slot's value turns on, if any: slots 1–24 are
/// points (the mover's checkers positive, the opponent's negative), 25
/// the mover's bar, 0 the opponent's.
#[inline(always)]
fn slot_feature(slot: usize, value: i8) -> Option<usize> {
    if value == 0 {
        return None;
    }
    let n = usize::from(value.unsigned_abs());
    Some(match slot {
        25 => POINTS_END + n.min(BAR_BINS) - 1,
        0 => POINTS_END + BAR_BINS + n.min(BAR_BINS) - 1,
        _ => {
            let side = if value > 0 { 0 } else { POINT_BINS };
            (slot - 1) * 2 * POINT_BINS + side + n.min(POINT_BINS) - 1
        }
    })
}

/// The input of `off` checkers borne off by the mover (`opponent` false)
/// or the opponent.
#[inline(always)]
fn off_feature(off: u8, opponent: bool) -> usize {
    BARS_END + usize::from(opponent) * OFF_BINS + usize::from(off).min(OFF_BINS - 1)
}

/// The inputs that are on for `pos` (the mover's view), in slot order.
pub fn features(pos: &Position, out: &mut Vec<usize>) {
    out.clear();
    for (slot, &v) in pos.raw().iter().enumerate() {
        out.extend(slot_feature(slot, v));
    }
    let (mine, theirs) = pos.borne_off_both();
    out.push(off_feature(mine, false));
    out.push(off_feature(theirs, true));
}

/// The weights as trained and stored, in floats.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PruneWeights {
    /// Which network it was distilled from, for the record.
    pub teacher: String,
    /// `FEATURES` rows of `HIDDEN`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
}

/// Why a pre-selection network could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PruneNetError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("pre-selection network: {0}")]
    Frame(#[from] framed_file::FrameError),
    #[error("pre-selection network has {found} weights where {expected} were expected")]
    Shape { found: usize, expected: usize },
    #[error("pre-selection network has a weight that is not a finite number")]
    NotFinite,
}

impl PruneWeights {
    /// The float score of `pos`: the reference the integer pass follows.
    pub fn score(&self, pos: &Position) -> f32 {
        let mut on = Vec::new();
        features(pos, &mut on);
        self.score_inputs(&on)
    }

    /// The float score of the inputs `on` ([`features`]).
    pub fn score_inputs(&self, on: &[usize]) -> f32 {
        let mut hidden = self.b1.clone();
        for &i in on {
            for (h, w) in hidden
                .iter_mut()
                .zip(&self.w1[i * HIDDEN..(i + 1) * HIDDEN])
            {
                *h += w;
            }
        }
        hidden
            .iter()
            .zip(&self.w2)
            .map(|(h, w)| h.max(0.0) * w)
            .sum()
    }

    fn checked(self) -> Result<PruneWeights, PruneNetError> {
        for (found, expected) in [
            (self.w1.len(), FEATURES * HIDDEN),
            (self.b1.len(), HIDDEN),
            (self.w2.len(), HIDDEN),
        ] {
            if found != expected {
                return Err(PruneNetError::Shape { found, expected });
            }
        }
        let all = self.w1.iter().chain(&self.b1).chain(&self.w2);
        if all.clone().any(|w| !w.is_finite()) {
            return Err(PruneNetError::NotFinite);
        }
        Ok(self)
    }

    /// The file's bytes (framed, checked on reading).
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("plain vectors encode");
        framed_file::frame(&KIND, &payload)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<PruneWeights, PruneNetError> {
        let payload = framed_file::unframe(&KIND, bytes)?;
        framed_file::decode_payload::<PruneWeights>(KIND.name, payload)?.checked()
    }

    /// Writes the file atomically.
    pub fn save(&self, path: &std::path::Path) -> Result<(), PruneNetError> {
        let payload = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("plain vectors encode");
        framed_file::write_file(KIND.name, &KIND, path, &payload)?;
        Ok(())
    }

    pub fn load(path: &std::path::Path) -> Result<PruneWeights, PruneNetError> {
        PruneWeights::from_bytes(&framed_file::read_file(KIND.name, path)?)
    }
}

/// A hidden layer's sums, in the integer pass's units.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Sums([i16; HIDDEN]);

/// The first-layer row of an empty slot: all zeros, so a move's changed
/// slots each take one row off and put one on without a test for empty.
const EMPTY_ROW: u16 = FEATURES as u16;

/// The network in 16-bit integers, for the search.
pub struct PruneNet {
    /// `FEATURES` rows, then `EMPTY_ROW`.
    w1: Vec<Sums>,
    /// The row of each slot (0 to 25) at each value (-16 to 15, offset by
    /// 16): [`slot_feature`] as a table, with `EMPTY_ROW` for none.
    slot_rows: Box<[[u16; 32]; 26]>,
    b1: Sums,
    /// The output weights, small enough that a score's 64 products sum
    /// inside an i32 (`OUTPUT_BITS`).
    w2: Sums,
    /// The widest pass this CPU takes.
    pass: Pass,
}

/// Bits an output weight keeps: with hidden units below 2^15, a pair of
/// products stays below 2^25 and 32 pairs below 2^30.
const OUTPUT_BITS: i32 = 9;

impl PruneNet {
    /// The integer network: first-layer weights scaled by the largest
    /// power of two that keeps any position's sums (its bias and at most
    /// 28 inputs on) inside an i16, the output weights to `OUTPUT_BITS`.
    pub fn new(weights: &PruneWeights) -> PruneNet {
        let worst = (0..HIDDEN)
            .map(|j| {
                let mut column: Vec<f32> = (0..FEATURES)
                    .map(|i| weights.w1[i * HIDDEN + j].abs())
                    .collect();
                column.sort_by(|a, b| b.total_cmp(a));
                weights.b1[j].abs() + column.iter().take(28).sum::<f32>()
            })
            .fold(0f32, f32::max)
            .max(1e-6);
        let scale = 2f32.powi((32_000.0 / worst).log2().floor() as i32);
        let quantise = |w: f32| (w * scale).round().clamp(-32_767.0, 32_767.0) as i16;
        let row = |ws: &[f32]| Sums(std::array::from_fn(|j| quantise(ws[j])));
        let largest = weights
            .w2
            .iter()
            .fold(0f32, |m, w| m.max(w.abs()))
            .max(1e-9);
        let out_scale = 2f32.powi(OUTPUT_BITS) / largest;
        let mut w1: Vec<Sums> = weights.w1.chunks_exact(HIDDEN).map(row).collect();
        w1.push(Sums([0; HIDDEN]));
        let slot_rows = Box::new(std::array::from_fn(|slot| {
            std::array::from_fn(|v| {
                let feature = slot_feature(slot, (v as i8).wrapping_sub(16));
                feature.map_or(EMPTY_ROW, |i| i as u16)
            })
        }));
        PruneNet {
            w1,
            slot_rows,
            b1: row(&weights.b1),
            w2: Sums(std::array::from_fn(|j| {
                (weights.w2[j] * out_scale).round() as i16
            })),
            pass: Pass::detect(),
        }
    }

    /// The hidden sums of `pos` (the mover's view), from scratch.
    pub fn sums(&self, pos: &Position) -> Sums {
        let mut sums = self.b1;
        for (slot, &v) in pos.raw().iter().enumerate() {
            if let Some(i) = slot_feature(slot, v) {
                add(&mut sums, &self.w1[i]);
            }
        }
        let (mine, theirs) = pos.borne_off_both();
        add(&mut sums, &self.w1[off_feature(mine, false)]);
        add(&mut sums, &self.w1[off_feature(theirs, true)]);
        sums
    }

    /// The output of hidden sums: higher is better for the mover.
    pub fn output(&self, sums: &Sums) -> i32 {
        sums.0
            .iter()
            .zip(&self.w2.0)
            .map(|(&h, &w)| i32::from(h.max(0)) * i32::from(w))
            .sum()
    }

    /// The scores of `moves` (played from `parent`, all in the mover's
    /// view) into `out`, each from the parent's sums: a move changes a
    /// few slots, and only their rows are taken out and put in. Each
    /// score is exactly [`Self::output`] of [`Self::sums`] of the move.
    pub fn score_moves(&self, parent: &Position, moves: &[Candidate], out: &mut [i32]) {
        let sums = self.sums(parent);
        #[cfg(target_arch = "x86_64")]
        match self.pass {
            // SAFETY: `Pass::detect` gives each pass only where the CPU
            // has its features.
            Pass::Avx512 => unsafe {
                return self.score_moves_avx512(parent, &sums, moves, out);
            },
            Pass::Avx2 => unsafe {
                return self.score_moves_avx2(parent, &sums, moves, out);
            },
            Pass::Portable => {}
        }
        let step = |s: &mut Sums, row: &Sums, on: bool| {
            if on { add(s, row) } else { sub(s, row) }
        };
        self.score_each(parent, moves, out, sums, step, |s| self.output(s));
    }

    /// Each move's score into `out`, from `base` (the parent's sums, held
    /// as a pass holds them): `step` takes a row off or puts one on, and
    /// `finish` turns the move's sums into its score. Inlined into each
    /// pass, so that the pass's instructions are used throughout.
    #[inline(always)]
    fn score_each<S: Copy>(
        &self,
        parent: &Position,
        moves: &[Candidate],
        out: &mut [i32],
        base: S,
        step: impl Fn(&mut S, &Sums, bool),
        finish: impl Fn(&S) -> i32,
    ) {
        let off = parent.borne_off_both().0;
        for (c, o) in moves.iter().zip(out) {
            let mut s = base;
            self.apply_move(parent, off, &c.position, |row, on| step(&mut s, row, on));
            *o = finish(&s);
        }
    }

    /// Calls `apply(row, true)` for each row `after` turns on and
    /// `apply(row, false)` for each it turns off, against `parent` (whose
    /// mover has `off` checkers off).
    #[inline(always)]
    fn apply_move(
        &self,
        parent: &Position,
        off: u8,
        after: &Position,
        mut apply: impl FnMut(&Sums, bool),
    ) {
        let (from, to) = (parent.raw(), after.raw());
        let mut changed = changed_slots(from, to);
        let mut moved_off = 0i32;
        while changed != 0 {
            let slot = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let (a, b) = (from[slot], to[slot]);
            let rows = &self.slot_rows[slot];
            apply(&self.w1[usize::from(rows[value_index(a)])], false);
            apply(&self.w1[usize::from(rows[value_index(b)])], true);
            moved_off += i32::from(a.max(0)) - i32::from(b.max(0));
        }
        if moved_off != 0 {
            let now = (i32::from(off) + moved_off) as u8;
            apply(&self.w1[off_feature(off, false)], false);
            apply(&self.w1[off_feature(now, false)], true);
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn score_moves_avx2(
        &self,
        parent: &Position,
        sums: &Sums,
        moves: &[Candidate],
        out: &mut [i32],
    ) {
        use std::arch::x86_64::*;
        let load = |row: &Sums| -> [__m256i; 4] {
            // SAFETY: a `Sums` is 128 bytes aligned to 64.
            std::array::from_fn(|k| unsafe { _mm256_load_si256(row.0.as_ptr().add(16 * k).cast()) })
        };
        let w2 = load(&self.w2);
        let step = |s: &mut [__m256i; 4], row: &Sums, on: bool| {
            let r = load(row);
            for k in 0..4 {
                s[k] = if on {
                    _mm256_adds_epi16(s[k], r[k])
                } else {
                    _mm256_subs_epi16(s[k], r[k])
                };
            }
        };
        let finish = |s: &[__m256i; 4]| {
            let zero = _mm256_setzero_si256();
            let mut total = _mm256_setzero_si256();
            for k in 0..4 {
                let h = _mm256_max_epi16(s[k], zero);
                total = _mm256_add_epi32(total, _mm256_madd_epi16(h, w2[k]));
            }
            let half = _mm_add_epi32(
                _mm256_castsi256_si128(total),
                _mm256_extracti128_si256(total, 1),
            );
            let quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
            let one = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b10_11_00_01));
            _mm_cvtsi128_si32(one)
        };
        self.score_each(parent, moves, out, load(sums), step, finish);
    }

    /// The AVX2 pass with a row in two 512-bit registers instead of four.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn score_moves_avx512(
        &self,
        parent: &Position,
        sums: &Sums,
        moves: &[Candidate],
        out: &mut [i32],
    ) {
        use std::arch::x86_64::*;
        let load = |row: &Sums| -> [__m512i; 2] {
            // SAFETY: a `Sums` is 128 bytes aligned to 64.
            std::array::from_fn(|k| unsafe { _mm512_load_si512(row.0.as_ptr().add(32 * k).cast()) })
        };
        let w2 = load(&self.w2);
        let step = |s: &mut [__m512i; 2], row: &Sums, on: bool| {
            let r = load(row);
            for k in 0..2 {
                s[k] = if on {
                    _mm512_adds_epi16(s[k], r[k])
                } else {
                    _mm512_subs_epi16(s[k], r[k])
                };
            }
        };
        let finish = |s: &[__m512i; 2]| {
            let zero = _mm512_setzero_si512();
            let h = s.map(|h| _mm512_max_epi16(h, zero));
            _mm512_reduce_add_epi32(_mm512_add_epi32(
                _mm512_madd_epi16(h[0], w2[0]),
                _mm512_madd_epi16(h[1], w2[1]),
            ))
        };
        self.score_each(parent, moves, out, load(sums), step, finish);
    }
}

/// A slot value's column in `PruneNet::slot_rows`.
#[inline(always)]
fn value_index(value: i8) -> usize {
    usize::from((value as u8).wrapping_add(16) & 31)
}

/// A bit for each of the 26 slots whose value differs: two 16-byte
/// compares, of slots 0–15 and 10–25, both inside the arrays (SSE2 is
/// part of x86-64).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn changed_slots(from: &[i8; 26], to: &[i8; 26]) -> u32 {
    use std::arch::x86_64::*;
    let differ = |offset: usize| {
        // SAFETY: `offset + 16 <= 26`, so both loads stay in bounds.
        unsafe {
            let a = _mm_loadu_si128(from.as_ptr().add(offset).cast());
            let b = _mm_loadu_si128(to.as_ptr().add(offset).cast());
            !(_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) as u32) & 0xffff
        }
    };
    differ(0) | differ(10) << 10
}

/// A bit for each of the 26 slots whose value differs.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn changed_slots(from: &[i8; 26], to: &[i8; 26]) -> u32 {
    let mut mask = 0u32;
    for slot in 0..26 {
        mask |= u32::from(from[slot] != to[slot]) << slot;
    }
    mask
}

/// The integer passes, widest first.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pass {
    Avx512,
    Avx2,
    Portable,
}

impl Pass {
    fn detect() -> Pass {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")
            {
                return Pass::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") {
                return Pass::Avx2;
            }
        }
        Pass::Portable
    }
}

#[inline(always)]
fn add(sums: &mut Sums, row: &Sums) {
    for (s, w) in sums.0.iter_mut().zip(&row.0) {
        *s = s.saturating_add(*w);
    }
}

#[inline(always)]
fn sub(sums: &mut Sums, row: &Sums) {
    for (s, w) in sums.0.iter_mut().zip(&row.0) {
        *s = s.saturating_sub(*w);
    }
}

static SHIPPED: &[u8] = include_bytes!("../../models/kotra-prune.net");

/// The shipped pre-selection network's weights, for a report that
/// measures it against a newer teacher than the one it was distilled from.
pub fn shipped_prune_weights() -> PruneWeights {
    PruneWeights::from_bytes(SHIPPED).expect("the shipped pre-selection network reads")
}

/// The shipped pre-selection network.
pub static SHIPPED_PRUNE_NET: std::sync::LazyLock<PruneNet> =
    std::sync::LazyLock::new(|| PruneNet::new(&shipped_prune_weights()));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::{Dice, MoveList, legal_moves};

    /// Each slot value turns on at most one input, every input is reached,
    /// and none twice.
    #[test]
    fn the_inputs_cover_the_board_once() {
        let mut seen = vec![false; FEATURES];
        for slot in 0..26usize {
            let values: Vec<i8> = match slot {
                25 => (0..=15).collect(),
                0 => (-15..=0).collect(),
                _ => (-15..=15).collect(),
            };
            for v in values {
                if let Some(i) = slot_feature(slot, v) {
                    assert!(i < BARS_END, "slot {slot} value {v}");
                    seen[i] = true;
                }
            }
        }
        for off in 0..=15 {
            seen[off_feature(off, false)] = true;
            seen[off_feature(off, true)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    /// A candidate's score from its parent's sums is its score from
    /// scratch, bear-offs and hits included, on every pass this CPU has,
    /// and follows the float network's order.
    #[test]
    fn a_candidate_scored_from_its_parent_scores_as_from_scratch() {
        let weights = PruneWeights::from_bytes(SHIPPED).unwrap();
        let widest = Pass::detect();
        let passes: Vec<PruneNet> = [Pass::Avx512, Pass::Avx2, Pass::Portable]
            .into_iter()
            .filter(|&p| p == Pass::Portable || (p as u8) >= (widest as u8))
            .map(|pass| PruneNet {
                pass,
                ..PruneNet::new(&weights)
            })
            .collect();
        let portable = passes.last().unwrap();
        assert_eq!(portable.pass, Pass::Portable);
        let positions = [
            Position::starting(),
            // A bear-off against a checker still back.
            Position::from_points(&[(1, 3), (2, 4), (4, 3), (6, 2)], &[(3, 1), (20, 14)]),
            // On the bar, a blot to hit in the home board.
            Position::from_points(&[(25, 1), (13, 6), (8, 4), (6, 4)], &[(22, 1), (6, 14)]),
            // Both on the bar, the opponent's checkers stacked six and more.
            Position::from_points(
                &[(25, 2), (24, 2), (8, 6), (6, 5)],
                &[(25, 1), (6, 8), (2, 6)],
            ),
        ];
        let mut list = MoveList::new();
        let mut compared = 0;
        for pos in positions {
            for (a, b) in [(6, 5), (3, 1), (4, 4), (2, 1), (6, 6), (1, 1)] {
                legal_moves(&pos, Dice::new(a, b).unwrap(), &mut list);
                let moves = list.as_slice();
                let scratch: Vec<i32> = moves
                    .iter()
                    .map(|c| portable.output(&portable.sums(&c.position)))
                    .collect();
                for net in &passes {
                    let mut scores = vec![0; moves.len()];
                    net.score_moves(&pos, moves, &mut scores);
                    assert_eq!(scores, scratch, "{:?}", net.pass);
                    compared += moves.len();
                }
                let floats: Vec<f32> = moves.iter().map(|c| weights.score(&c.position)).collect();
                let best_int = (0..moves.len())
                    .max_by_key(|&i| (scratch[i], usize::MAX - i))
                    .unwrap();
                let best_float = floats.iter().copied().fold(f32::MIN, f32::max);
                assert!(
                    best_float - floats[best_int] < 0.01,
                    "{best_float} {}",
                    floats[best_int]
                );
            }
        }
        assert!(compared > 100);
    }

    #[test]
    fn a_damaged_file_is_refused_with_a_reason() {
        let mut bytes = SHIPPED.to_vec();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let err = PruneWeights::from_bytes(&bytes).unwrap_err().to_string();
        assert!(err.contains("corrupt"), "{err}");
        let err = PruneWeights::from_bytes(&SHIPPED[..20])
            .unwrap_err()
            .to_string();
        assert!(err.contains("truncated"), "{err}");
    }
}
