//! Exact two-sided bear-off database for small endings: every pair of home
//! boards with up to six checkers each (924 × 924 positions), with the
//! roller's cubeless winning chance under optimal checker play by both
//! sides.
//!
//! Gammons cannot happen here (each side has borne off at least nine), so
//! the winning chance is the whole cubeless story. Built by the program by
//! dynamic programming over total pip count (about a second) and cached on
//! disk beside the one-sided tables. The same walk over the same pairs
//! ([`TwoSidedGraph::solve`]) gives the cube's exact money equities, which
//! live with the rest of the cube (`cube::exact_bearoff`): the evaluator
//! knows nothing of the cube.

use super::bearoff::{POINTS, cache_file, cached, enumerate, home_board, one_sided, pips, rank};
use crate::backgammon::{Dice, MoveList, Position, legal_moves};
use crate::framed_file::FrameKind;
use std::sync::OnceLock;

/// The most checkers per side the database covers.
pub const MAX_CHECKERS: u8 = 6;
/// Boards of up to six checkers on six points: C(12, 6).
pub const BOARDS: usize = 924;
/// Pairs of boards (roller, opponent), the tables' length.
pub const PAIRS: usize = BOARDS * BOARDS;

/// The cache file's frame (see the one-sided table's).
const CACHE_KIND: FrameKind = FrameKind {
    name: "two-sided bear-off cache",
    magic: b"KOTRA2S2",
    // 4: the winning chances alone (the cube's equities have their own).
    version: 4,
};
/// How far a cached value may lie outside its range (float rounding).
pub(crate) const SLACK: f32 = 1e-4;

#[derive(Clone)]
pub struct TwoSidedDb {
    /// Roller's winning chance, `[roller * BOARDS + opponent]`.
    win: Vec<f32>,
}

/// The covered boards by pip count (id = index), and the one-sided rank →
/// id map.
fn boards_and_ids() -> (Vec<[u8; POINTS]>, Vec<u16>) {
    let mut boards = Vec::with_capacity(BOARDS);
    enumerate(&mut [0; POINTS], 0, MAX_CHECKERS, &mut boards);
    boards.sort_by_key(pips);
    debug_assert_eq!(boards.len(), BOARDS);
    let mut ids = vec![u16::MAX; super::bearoff::POSITIONS];
    for (id, b) in boards.iter().enumerate() {
        ids[rank(b)] = id as u16;
    }
    (boards, ids)
}

/// Who can move where from every covered board, and the order in which a
/// table over pairs is filled: what any exact value of these endings is
/// solved over.
pub struct TwoSidedGraph {
    /// Each roll with its chance.
    rolls: Vec<f32>,
    /// Distinct successor board ids of each board for each roll.
    successors: Vec<Vec<Vec<u16>>>,
    /// Pairs (roller, opponent) of non-empty boards by total pip count.
    order: Vec<(u16, u16)>,
}

impl TwoSidedGraph {
    /// The process-wide graph, built when a table is first built.
    pub fn get() -> &'static TwoSidedGraph {
        static GRAPH: OnceLock<TwoSidedGraph> = OnceLock::new();
        GRAPH.get_or_init(TwoSidedGraph::build)
    }

    fn build() -> TwoSidedGraph {
        let (boards, ids) = boards_and_ids();
        let rolls: Vec<(Dice, f32)> = Dice::all_rolls()
            .map(|(d, w)| (d, w as f32 / 36.0))
            .collect();
        let mut successors: Vec<Vec<Vec<u16>>> = Vec::with_capacity(BOARDS);
        let mut list = MoveList::new();
        for b in &boards {
            let pos = one_sided(b);
            let per_roll = rolls
                .iter()
                .map(|&(dice, _)| {
                    legal_moves(&pos, dice, &mut list);
                    let mut next: Vec<u16> = list
                        .iter()
                        .map(|c| {
                            let board = home_board(&c.position).unwrap_or([0; POINTS]);
                            ids[rank(&board)]
                        })
                        .collect();
                    next.sort_unstable();
                    next.dedup();
                    next
                })
                .collect();
            successors.push(per_roll);
        }
        let board_pips: Vec<u32> = boards.iter().map(pips).collect();
        // Every move lowers the mover's pips, so a pair depends only on
        // pairs of smaller total: visit pairs by total pip count.
        let mut order: Vec<(u32, u16, u16)> = Vec::with_capacity(PAIRS);
        for a in 1..BOARDS {
            for b in 1..BOARDS {
                order.push((board_pips[a] + board_pips[b], a as u16, b as u16));
            }
        }
        order.sort_unstable();
        TwoSidedGraph {
            rolls: rolls.iter().map(|&(_, w)| w).collect(),
            successors,
            order: order.into_iter().map(|(_, a, b)| (a, b)).collect(),
        }
    }

    /// A table of K values per pair from the roller's view, by backward
    /// induction: each value is the average over rolls of the best (each
    /// component maximised on its own) over the roll's plays of the value
    /// after it, which is `borne_off` when the roller has finished and
    /// otherwise `mirror` of the opponent's entry (its view turned into
    /// ours); `finish` maps the averages to the entry. The empty boards'
    /// entries stay zero: no pair of the walk reaches them.
    pub fn solve<const K: usize>(
        &self,
        borne_off: [f32; K],
        mirror: impl Fn(&[f32; K]) -> [f32; K],
        finish: impl Fn([f32; K]) -> [f32; K],
    ) -> Vec<[f32; K]> {
        let mut table = vec![[0f32; K]; PAIRS];
        for &(a, b) in &self.order {
            let (a, b) = (a as usize, b as usize);
            let mut totals = [0f32; K];
            for (r, &weight) in self.rolls.iter().enumerate() {
                let mut best = [f32::NEG_INFINITY; K];
                for &next in &self.successors[a][r] {
                    let next = next as usize;
                    let values = if next == 0 {
                        borne_off
                    } else {
                        mirror(&table[b * BOARDS + next])
                    };
                    for k in 0..K {
                        best[k] = best[k].max(values[k]);
                    }
                }
                for k in 0..K {
                    totals[k] += weight * best[k];
                }
            }
            table[a * BOARDS + b] = finish(totals);
        }
        table
    }
}

/// The pair index of `pos` (roller, opponent) in a table over pairs, if
/// both sides' boards are covered.
pub fn pair_index(pos: &Position) -> Option<usize> {
    static IDS: OnceLock<Vec<u16>> = OnceLock::new();
    let ids = IDS.get_or_init(|| boards_and_ids().1);
    let id = |b: [u8; POINTS]| -> Option<usize> {
        let id = ids[rank(&b)];
        (id != u16::MAX).then_some(id as usize)
    };
    let me = id(home_board(pos)?)?;
    let them = id(home_board(&pos.swap())?)?;
    Some(me * BOARDS + them)
}

/// A table's values as a cache payload, f32 by f32 (little-endian); a
/// table of K values a pair passes them flattened, row by row.
pub(crate) fn table_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A table over pairs from a cache payload, if it has the length and
/// every value passes `sound` (a damaged cache is rebuilt).
pub(crate) fn table_from_bytes<const K: usize>(
    bytes: &[u8],
    sound: impl Fn(&[f32; K]) -> bool,
) -> Option<Vec<[f32; K]>> {
    if bytes.len() != 4 * K * PAIRS {
        return None;
    }
    let mut table = Vec::with_capacity(PAIRS);
    for chunk in bytes.chunks_exact(4 * K) {
        let row: [f32; K] = std::array::from_fn(|k| {
            let b = &chunk[4 * k..4 * k + 4];
            f32::from_le_bytes([b[0], b[1], b[2], b[3]])
        });
        if !sound(&row) {
            return None;
        }
        table.push(row);
    }
    Some(table)
}

impl TwoSidedDb {
    /// The process-wide database: from the disk cache, else built and cached.
    pub fn get() -> &'static TwoSidedDb {
        static DB: OnceLock<TwoSidedDb> = OnceLock::new();
        DB.get_or_init(|| {
            cached(
                cache_file("bearoff-two-sided-6-v4.bin"),
                &CACHE_KIND,
                TwoSidedDb::read,
                TwoSidedDb::build,
                TwoSidedDb::to_bytes,
            )
        })
    }

    /// The roller's exact winning chance, if `pos` is covered.
    pub fn win(&self, pos: &Position) -> Option<f32> {
        pair_index(pos).map(|i| self.win[i])
    }

    pub fn build() -> TwoSidedDb {
        let win = TwoSidedGraph::get().solve([1.0], |w| [1.0 - w[0]], |t| t);
        TwoSidedDb {
            win: win.into_iter().map(|[w]| w).collect(),
        }
    }

    fn to_bytes(&self) -> Vec<u8> {
        table_bytes(&self.win)
    }

    /// The table from a whole cache file (frame and payload), if sound.
    pub fn from_cache_file(bytes: &[u8]) -> Option<TwoSidedDb> {
        crate::framed_file::unframe(&CACHE_KIND, bytes)
            .ok()
            .and_then(TwoSidedDb::read)
    }

    /// The table from a cache file's payload.
    fn read(bytes: &[u8]) -> Option<TwoSidedDb> {
        // The build's sums stray past their bounds by float rounding (a
        // chance of 1.0000004): a bound without slack rejected every cache
        // written, and each process rebuilt the table when it met its
        // first bear-off.
        let win = table_from_bytes(bytes, |&[w]: &[f32; 1]| (-SLACK..=1.0 + SLACK).contains(&w))?;
        Some(TwoSidedDb {
            win: win.into_iter().map(|[w]| w).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_checked_endings() {
        let db = TwoSidedDb::get();
        // One checker on the 4-point against one anywhere: 34/36 on this roll.
        let p = Position::from_points(&[(4, 1)], &[(1, 1)]);
        assert!((db.win(&p).unwrap() - 34.0 / 36.0).abs() < 1e-6);
        // On the 6-point: 27/36.
        let p = Position::from_points(&[(6, 1)], &[(1, 1)]);
        assert!((db.win(&p).unwrap() - 27.0 / 36.0).abs() < 1e-6);
        // Two on the 2-point: every roll but the ten with a single 1.
        let p = Position::from_points(&[(2, 2)], &[(1, 2)]);
        assert!((db.win(&p).unwrap() - 26.0 / 36.0).abs() < 1e-6);
        // Too many checkers: not covered.
        assert!(
            db.win(&Position::from_points(&[(1, 7)], &[(1, 1)]))
                .is_none()
        );
    }

    #[test]
    fn the_disk_cache_reads_back_what_was_written() {
        let db = TwoSidedDb::get();
        let dir = std::env::temp_dir().join(format!("kotra-two-sided-{}", std::process::id()));
        let path = dir.join("table.bin");
        let build = || -> TwoSidedDb { panic!("a sound cache is read, not rebuilt") };
        let written = cached(
            Some(path.clone()),
            &CACHE_KIND,
            TwoSidedDb::read,
            || db.clone(),
            TwoSidedDb::to_bytes,
        );
        let back = cached(
            Some(path.clone()),
            &CACHE_KIND,
            TwoSidedDb::read,
            build,
            TwoSidedDb::to_bytes,
        );
        assert!(back.win == db.win && written.win == db.win);
        // A value out of its range is caught and the table rebuilt.
        let mut bytes = std::fs::read(&path).unwrap();
        let header = bytes.len() - 4 * PAIRS;
        bytes[header..header + 4].copy_from_slice(&2f32.to_le_bytes());
        let payload = bytes[header..].to_vec();
        std::fs::write(&path, crate::framed_file::frame(&CACHE_KIND, &payload)).unwrap();
        let mut rebuilt = false;
        let again = cached(
            Some(path.clone()),
            &CACHE_KIND,
            TwoSidedDb::read,
            || {
                rebuilt = true;
                db.clone()
            },
            TwoSidedDb::to_bytes,
        );
        assert!(rebuilt && again.win == db.win);
        let reread = cached(
            Some(path.clone()),
            &CACHE_KIND,
            TwoSidedDb::read,
            build,
            TwoSidedDb::to_bytes,
        );
        assert!(reread.win == db.win, "the rebuilt table was written back");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn agrees_with_the_one_sided_race() {
        // Cubeless win chances against the one-sided approximation, which
        // is exact when both sides simply race to finish.
        let db = TwoSidedDb::get();
        let one = super::super::bearoff::BearoffDb::get();
        let p = Position::from_points(&[(6, 2), (3, 2), (1, 1)], &[(5, 3), (2, 2)]);
        let exact = db.win(&p).unwrap();
        let approx = one.probs(&p).unwrap().win();
        assert!((exact - approx).abs() < 0.02, "{exact} {approx}");
    }
}
