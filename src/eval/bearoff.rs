//! Exact one-sided bear-off database: for every way of placing up to 15
//! checkers on the six home points (54,264 per side), the distribution of
//! the number of rolls needed to bear them all off, and of the number of
//! rolls needed to bear off the first checker (what decides gammons).
//!
//! Each side is played to minimise its expected number of rolls, which is
//! what the race is about; with the two distributions for both sides the
//! race's win and gammon chances follow exactly (up to that policy). The
//! tables are built by the program at first use (a few seconds) and cached
//! on disk (see [`cache_path`]).

use super::probs::Probs;
use crate::backgammon::{Dice, MoveList, Position, Side, legal_moves};
use crate::framed_file::{FrameKind, frame, unframe};
use std::path::PathBuf;
use std::sync::OnceLock;

/// Home points of one side.
pub(super) const POINTS: usize = 6;
/// Positions of up to 15 checkers on six points: C(21, 6).
pub const POSITIONS: usize = 54_264;
/// Rolls tracked per distribution; the tail beyond is lumped into the last.
pub const MAX_ROLLS: usize = 32;

/// The cache file's frame: its checksum catches a damaged file (a
/// zero-filled one passed the old checks), which is then rebuilt.
const CACHE_KIND: FrameKind = FrameKind {
    name: "one-sided bear-off cache",
    magic: b"KOTRABO1",
    version: 2,
};

/// ways[k][m]: placements of at most m checkers on k points, C(m + k, k).
const fn ways_table() -> [[u32; 16]; POINTS + 1] {
    let mut t = [[0u32; 16]; POINTS + 1];
    let mut k = 0;
    while k <= POINTS {
        let mut m = 0;
        while m < 16 {
            t[k][m] = if k == 0 || m == 0 {
                1
            } else {
                t[k - 1][m] + t[k][m - 1]
            };
            m += 1;
        }
        k += 1;
    }
    t
}
const WAYS: [[u32; 16]; POINTS + 1] = ways_table();

/// Index of a home board (checkers on points 1..=6) in the tables.
pub fn rank(board: &[u8; POINTS]) -> usize {
    let mut left = 15usize;
    let mut index = 0u32;
    for (i, &c) in board.iter().enumerate() {
        let rest = POINTS - 1 - i;
        for v in 0..c as usize {
            index += WAYS[rest][left - v];
        }
        left -= c as usize;
    }
    index as usize
}

/// The home board of the side on roll of `pos`, if all its checkers are home.
pub fn home_board(pos: &Position) -> Option<[u8; POINTS]> {
    if pos.raw()[7..=25].iter().any(|&v| v > 0) {
        return None;
    }
    Some(home_points(pos))
}

/// The side on roll's checkers on its six home points, for a caller that
/// already knows none stand elsewhere.
pub(super) fn home_points(pos: &Position) -> [u8; POINTS] {
    let p = pos.raw();
    let mut b = [0u8; POINTS];
    for (i, slot) in b.iter_mut().enumerate() {
        *slot = p[i + 1].max(0) as u8;
    }
    b
}

/// The two tables, `POSITIONS × MAX_ROLLS` each, row-major by rank.
pub struct BearoffDb {
    /// P(all checkers off in exactly n rolls).
    off: Vec<f32>,
    /// P(first checker off in exactly n rolls); n = 0 once one is off.
    first_off: Vec<f32>,
}

type Dist = [f32; MAX_ROLLS];

impl BearoffDb {
    /// The process-wide database: from the disk cache, else built and cached.
    pub fn get() -> &'static BearoffDb {
        static DB: OnceLock<BearoffDb> = OnceLock::new();
        DB.get_or_init(|| {
            cached(
                cache_path(),
                &CACHE_KIND,
                BearoffDb::read,
                BearoffDb::build,
                BearoffDb::to_bytes,
            )
        })
    }

    /// Builds both tables by dynamic programming over positions in order of
    /// pip count (every move lowers it).
    pub fn build() -> BearoffDb {
        let mut boards: Vec<[u8; POINTS]> = Vec::with_capacity(POSITIONS);
        enumerate(&mut [0; POINTS], 0, 15, &mut boards);
        boards.sort_by_key(pips);
        let mut off = vec![0f32; POSITIONS * MAX_ROLLS];
        let mut first_off = vec![0f32; POSITIONS * MAX_ROLLS];
        let mut mean_off = vec![0f32; POSITIONS];
        let mut mean_first = vec![0f32; POSITIONS];
        let mut list = MoveList::new();
        let rolls: Vec<(Dice, u8)> = Dice::all_rolls().collect();
        for board in &boards {
            let r = rank(board);
            let count: u8 = board.iter().sum();
            if count == 0 {
                off[r * MAX_ROLLS] = 1.0;
            }
            if count < 15 {
                first_off[r * MAX_ROLLS] = 1.0;
            }
            if count == 0 {
                continue;
            }
            let pos = one_sided(board);
            let mut dist_off: Dist = [0.0; MAX_ROLLS];
            let mut dist_first: Dist = [0.0; MAX_ROLLS];
            for &(dice, weight) in &rolls {
                legal_moves(&pos, dice, &mut list);
                let (mut best_off, mut best_first) = (usize::MAX, usize::MAX);
                for c in list.iter() {
                    let s = rank(&home_board(&c.position).expect("bearing off stays home"));
                    if best_off == usize::MAX || mean_off[s] < mean_off[best_off] {
                        best_off = s;
                    }
                    if best_first == usize::MAX || mean_first[s] < mean_first[best_first] {
                        best_first = s;
                    }
                }
                let w = weight as f32 / 36.0;
                shift_add(&mut dist_off, &off[best_off * MAX_ROLLS..][..MAX_ROLLS], w);
                shift_add(
                    &mut dist_first,
                    &first_off[best_first * MAX_ROLLS..][..MAX_ROLLS],
                    w,
                );
            }
            off[r * MAX_ROLLS..][..MAX_ROLLS].copy_from_slice(&dist_off);
            mean_off[r] = mean(&dist_off);
            if count == 15 {
                first_off[r * MAX_ROLLS..][..MAX_ROLLS].copy_from_slice(&dist_first);
                mean_first[r] = mean(&dist_first);
            }
        }
        BearoffDb { off, first_off }
    }

    /// Distribution of rolls to bear off all checkers of `board`.
    pub fn off(&self, board: &[u8; POINTS]) -> &[f32] {
        &self.off[rank(board) * MAX_ROLLS..][..MAX_ROLLS]
    }

    /// Distribution of rolls to bear off the first checker of `board`.
    pub fn first_off(&self, board: &[u8; POINTS]) -> &[f32] {
        &self.first_off[rank(board) * MAX_ROLLS..][..MAX_ROLLS]
    }

    /// Expected rolls to bear off `board`.
    pub fn expected_rolls(&self, board: &[u8; POINTS]) -> f32 {
        mean(self.off(board))
    }

    /// Cubeless probabilities for the side on roll when both sides have all
    /// their checkers home, or `None` if `pos` is not such a position. The
    /// side on roll wins when it needs no more rolls than the other side.
    pub fn probs(&self, pos: &Position) -> Option<Probs> {
        let me = home_board(pos)?;
        let them = home_board(&pos.swap())?;
        let (my_off, their_off) = (self.off(&me), self.off(&them));
        let (my_first, their_first) = (self.first_off(&me), self.first_off(&them));
        // P(X ≥ n) tails.
        let tail = |d: &[f32]| {
            let mut t = [0f32; MAX_ROLLS + 1];
            for n in (0..MAX_ROLLS).rev() {
                t[n] = t[n + 1] + d[n];
            }
            t
        };
        let (their_off_tail, their_first_tail, my_first_tail) =
            (tail(their_off), tail(their_first), tail(my_first));
        let mut win = 0f32;
        let mut win_gammon = 0f32;
        let mut lose_gammon = 0f32;
        for n in 1..MAX_ROLLS {
            // I finish on my n-th roll; they have had n − 1 rolls.
            win += my_off[n] * their_off_tail[n];
            win_gammon += my_off[n] * their_first_tail[n];
            // They finish on their n-th roll; I have had n rolls.
            lose_gammon += their_off[n] * my_first_tail[n + 1];
        }
        let gammon_possible = |side: Side| pos.borne_off(side) == 0;
        Some(
            Probs([
                win,
                if gammon_possible(Side::Opponent) {
                    win_gammon
                } else {
                    0.0
                },
                0.0,
                if gammon_possible(Side::Mover) {
                    lose_gammon
                } else {
                    0.0
                },
                0.0,
            ])
            .consistent(),
        )
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 * POSITIONS * MAX_ROLLS);
        for v in self.off.iter().chain(&self.first_off) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The tables from a whole cache file (frame and payload), if sound.
    pub fn from_cache_file(bytes: &[u8]) -> Option<BearoffDb> {
        unframe(&CACHE_KIND, bytes).ok().and_then(BearoffDb::read)
    }

    /// The tables from a cache file's payload.
    fn read(bytes: &[u8]) -> Option<BearoffDb> {
        let n = POSITIONS * MAX_ROLLS;
        if bytes.len() != 8 * n {
            return None;
        }
        let mut values = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let off: Vec<f32> = values.by_ref().take(n).collect();
        let first_off: Vec<f32> = values.collect();
        // Each distribution sums to one; anything else is a damaged cache.
        let sane = |t: &[f32]| {
            t.chunks_exact(MAX_ROLLS)
                .all(|d| (d.iter().sum::<f32>() - 1.0).abs() < 1e-3)
        };
        (sane(&off) && sane(&first_off)).then_some(BearoffDb { off, first_off })
    }
}

/// Where the tables are cached: `$KOTRA_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/kotra-ai`, else `~/.cache/kotra-ai`.
pub fn cache_path() -> Option<PathBuf> {
    cache_file("bearoff-one-sided-v2.bin")
}

/// A table read from the cache file `path`, else built and cached there (a
/// damaged or missing cache is rebuilt; one that cannot be written only
/// costs the rebuild next time). The file is framed with a checksum, and
/// `read` parses the frame's payload.
pub(crate) fn cached<T>(
    path: Option<PathBuf>,
    kind: &FrameKind,
    read: impl FnOnce(&[u8]) -> Option<T>,
    build: impl FnOnce() -> T,
    to_bytes: impl FnOnce(&T) -> Vec<u8>,
) -> T {
    let from_disk = path
        .as_deref()
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|bytes| unframe(kind, &bytes).ok().and_then(read));
    if let Some(table) = from_disk {
        return table;
    }
    let table = build();
    if let Some(p) = path {
        let _ = crate::atomic_file::write(&p, &frame(kind, &to_bytes(&table)));
    }
    table
}

/// `name` in the cache folder of [`cache_path`].
pub fn cache_file(name: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("KOTRA_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("kotra-ai")))
        .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/kotra-ai")))?;
    Some(dir.join(name))
}

pub(super) fn enumerate(board: &mut [u8; POINTS], i: usize, left: u8, out: &mut Vec<[u8; POINTS]>) {
    if i == POINTS {
        out.push(*board);
        return;
    }
    for c in 0..=left {
        board[i] = c;
        enumerate(board, i + 1, left - c, out);
    }
    board[i] = 0;
}

pub(super) fn pips(board: &[u8; POINTS]) -> u32 {
    board
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as u32 + 1) * c as u32)
        .sum()
}

/// A position with only the mover's home board (the other side is gone;
/// the move generator does not care).
pub(super) fn one_sided(board: &[u8; POINTS]) -> Position {
    let mut me = [0u8; 25];
    me[..POINTS].copy_from_slice(board);
    let mut opp = [0u8; 25];
    opp[0] = 1; // one opponent checker far away keeps the position legal
    Position::from_sides(&me, &opp).expect("a home board is a legal position")
}

fn shift_add(dist: &mut Dist, next: &[f32], weight: f32) {
    for n in 0..MAX_ROLLS {
        dist[(n + 1).min(MAX_ROLLS - 1)] += next[n] * weight;
    }
}

pub(super) fn mean(d: &[f32]) -> f32 {
    d.iter().enumerate().map(|(n, &p)| n as f32 * p).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection() {
        let mut boards = Vec::new();
        enumerate(&mut [0; POINTS], 0, 15, &mut boards);
        assert_eq!(boards.len(), POSITIONS);
        let mut seen = vec![false; POSITIONS];
        for b in &boards {
            let r = rank(b);
            assert!(!seen[r]);
            seen[r] = true;
        }
    }

    #[test]
    fn known_small_endings() {
        let db = BearoffDb::get();
        // One checker on the six point: off in one roll unless the roll
        // moves fewer than six pips (1-1, 2-1, 3-1, 4-1, 3-2: 9 of 36).
        let d = db.off(&[0, 0, 0, 0, 0, 1]);
        assert!((d[1] - 27.0 / 36.0).abs() < 1e-6 && (d[2] - 9.0 / 36.0).abs() < 1e-6);
        // Two checkers on the one point: one roll, always.
        assert!((db.off(&[2, 0, 0, 0, 0, 0])[1] - 1.0).abs() < 1e-6);
        // Fifteen on the six point: a checker comes off only with a 6 or by
        // exact steps landing on "off" (5-1, 4-2, 3-3, 2-2): the others stay
        // behind on the six point, so a higher die cannot bear off. 17/36.
        let full = [0, 0, 0, 0, 0, 15];
        assert!(db.expected_rolls(&full) > 7.0);
        assert!((db.first_off(&full)[1] - 17.0 / 36.0).abs() < 1e-6);
        for b in [[1, 2, 3, 0, 1, 0], [3, 3, 3, 3, 3, 0], full] {
            assert!((db.off(&b).iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn race_probabilities_from_both_distributions() {
        let db = BearoffDb::get();
        // Each side has one checker on its one point: the side on roll wins.
        let mut me = [0u8; 25];
        let mut opp = [0u8; 25];
        me[0] = 1;
        opp[0] = 1;
        let p = db.probs(&Position::from_sides(&me, &opp).unwrap()).unwrap();
        assert_eq!(p.0, [1.0, 0.0, 0.0, 0.0, 0.0]);
        // I have one checker on my six point; they have one on their one
        // point: I win only by bearing off at once (27/36).
        me = [0; 25];
        me[5] = 1;
        let p = db.probs(&Position::from_sides(&me, &opp).unwrap()).unwrap();
        assert!((p.win() - 0.75).abs() < 1e-6);
        // They still have all 15 home and I need one roll: a gammon.
        me = [0; 25];
        me[0] = 1;
        opp = [0; 25];
        opp[5] = 15;
        let p = db.probs(&Position::from_sides(&me, &opp).unwrap()).unwrap();
        assert_eq!(p.0, [1.0, 1.0, 0.0, 0.0, 0.0]);
        assert!(db.probs(&Position::starting()).is_none());
    }
}
