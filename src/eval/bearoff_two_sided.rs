//! Exact two-sided bear-off database for small endings: every pair of home
//! boards with up to six checkers each (924 × 924 positions), with the
//! roller's cubeless winning chance and its cubeful money equity (per unit
//! of the cube) for the cube centred, owned by the roller, and owned by the
//! opponent, under optimal checker and cube play by both sides.
//!
//! Gammons cannot happen here (each side has borne off at least nine), so
//! the winning chance is the whole cubeless story. Built by the program by
//! dynamic programming over total pip count (about a second) and cached on
//! disk beside the one-sided tables.

use super::bearoff::{POINTS, cache_file, cached, enumerate, home_board, one_sided, pips, rank};
use crate::backgammon::{Dice, MoveList, Owner, Position, legal_moves};
use crate::framed_file::FrameKind;
use std::sync::OnceLock;

/// The most checkers per side the database covers.
pub const MAX_CHECKERS: u8 = 6;
/// Boards of up to six checkers on six points: C(12, 6).
pub const BOARDS: usize = 924;

/// The cache file's frame (see the one-sided table's).
const CACHE_KIND: FrameKind = FrameKind {
    name: "two-sided bear-off cache",
    magic: b"KOTRA2S2",
    version: 3,
};
/// How far a cached value may lie outside its range (float rounding).
const SLACK: f32 = 1e-4;

#[derive(Clone)]
pub struct TwoSidedDb {
    /// One-sided rank → board id here (`u16::MAX` when over six checkers).
    ids: Vec<u16>,
    /// Roller's winning chance, `[roller * BOARDS + opponent]`.
    win: Vec<f32>,
    /// Cubeful money equities per unit of the cube: no double with the
    /// cube centred, no double with the roller's cube, the opponent's
    /// cube, and double/take.
    equity: Vec<[f32; 4]>,
}

const SLOTS: [Owner; 3] = [Owner::Centered, Owner::Roller, Owner::Opponent];

/// The value with the best cube action first: double where double/take or
/// double/pass is worth at least no double (a dead-certain cash included).
fn optimal(e: &[f32; 4], cube: Owner) -> f32 {
    let no_double = e[cube as usize];
    if cube == Owner::Opponent {
        return no_double;
    }
    let doubled = e[3].min(1.0);
    if doubled >= no_double - 1e-6 {
        doubled
    } else {
        no_double
    }
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

impl TwoSidedDb {
    /// The process-wide database: from the disk cache, else built and cached.
    pub fn get() -> &'static TwoSidedDb {
        static DB: OnceLock<TwoSidedDb> = OnceLock::new();
        DB.get_or_init(|| {
            cached(
                cache_file("bearoff-two-sided-6-v3.bin"),
                &CACHE_KIND,
                TwoSidedDb::read,
                TwoSidedDb::build,
                TwoSidedDb::to_bytes,
            )
        })
    }

    /// The pair of board ids for `pos` (roller, opponent), if covered.
    fn pair(&self, pos: &Position) -> Option<usize> {
        let id = |b: [u8; POINTS]| -> Option<usize> {
            let id = self.ids[rank(&b)];
            (id != u16::MAX).then_some(id as usize)
        };
        let me = id(home_board(pos)?)?;
        let them = id(home_board(&pos.swap())?)?;
        Some(me * BOARDS + them)
    }

    /// The roller's exact winning chance, if `pos` is covered.
    pub fn win(&self, pos: &Position) -> Option<f32> {
        self.pair(pos).map(|i| self.win[i])
    }

    /// The roller's exact cubeful money equity per unit of the cube, with
    /// its best cube action first.
    pub fn equity(&self, pos: &Position, cube: Owner) -> Option<f32> {
        self.pair(pos).map(|i| optimal(&self.equity[i], cube))
    }

    /// The exact cube decision's equities per unit of the cube: no double
    /// and double/take (double/pass is 1).
    pub fn cube_equities(&self, pos: &Position, cube: Owner) -> Option<(f32, f32)> {
        self.pair(pos).map(|i| {
            let e = &self.equity[i];
            (e[cube as usize], e[3])
        })
    }

    pub fn build() -> TwoSidedDb {
        let (boards, ids) = boards_and_ids();
        // Distinct successors of each board for each roll.
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
        let mut win = vec![0f32; BOARDS * BOARDS];
        let mut equity = vec![[0f32; 4]; BOARDS * BOARDS];
        // Every move lowers the mover's pips, so a pair depends only on
        // pairs of smaller total: visit pairs by total pip count.
        let mut order: Vec<(u32, u16, u16)> = Vec::with_capacity(BOARDS * BOARDS);
        for a in 1..BOARDS {
            for b in 1..BOARDS {
                order.push((board_pips[a] + board_pips[b], a as u16, b as u16));
            }
        }
        order.sort_unstable();
        for &(_, a, b) in &order {
            let (a, b) = (a as usize, b as usize);
            // Averages over rolls of the best value for: cubeless win,
            // no double with each cube slot, and after a taken double.
            let mut totals = [0f32; 5];
            for (r, &(_, weight)) in rolls.iter().enumerate() {
                let mut best = [f32::NEG_INFINITY; 5];
                for &next in &successors[a][r] {
                    let next = next as usize;
                    let values = if next == 0 {
                        [1.0; 5]
                    } else {
                        let i = b * BOARDS + next;
                        let e: [f32; 3] = std::array::from_fn(|k| optimal(&equity[i], SLOTS[k]));
                        // The opponent's view: its slots mirror ours.
                        [
                            1.0 - win[i],
                            -e[Owner::Centered as usize],
                            -e[Owner::Opponent as usize],
                            -e[Owner::Roller as usize],
                            -e[Owner::Roller as usize],
                        ]
                    };
                    for k in 0..5 {
                        best[k] = best[k].max(values[k]);
                    }
                }
                for k in 0..5 {
                    totals[k] += weight * best[k];
                }
            }
            let i = a * BOARDS + b;
            win[i] = totals[0];
            equity[i] = [totals[1], totals[2], totals[3], 2.0 * totals[4]];
        }
        TwoSidedDb { ids, win, equity }
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(20 * BOARDS * BOARDS);
        for (w, e) in self.win.iter().zip(&self.equity) {
            for v in [*w, e[0], e[1], e[2], e[3]] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    /// The table from a whole cache file (frame and payload), if sound.
    pub fn from_cache_file(bytes: &[u8]) -> Option<TwoSidedDb> {
        crate::framed_file::unframe(&CACHE_KIND, bytes)
            .ok()
            .and_then(TwoSidedDb::read)
    }

    /// The table from a cache file's payload.
    fn read(bytes: &[u8]) -> Option<TwoSidedDb> {
        if bytes.len() != 20 * BOARDS * BOARDS {
            return None;
        }
        let values: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let mut win = Vec::with_capacity(BOARDS * BOARDS);
        let mut equity = Vec::with_capacity(BOARDS * BOARDS);
        // The build's sums stray past their bounds by float rounding
        // (an equity of 1.0000004): a bound without slack rejected every
        // cache written, and each process rebuilt the table (half a
        // second) when it met its first bear-off.
        let within = |x: f32, bound: f32| (-bound - SLACK..=bound + SLACK).contains(&x);
        for v in values.chunks_exact(5) {
            // A damaged cache is rebuilt.
            if !(-SLACK..=1.0 + SLACK).contains(&v[0])
                || v[1..4].iter().any(|&e| !within(e, 1.0))
                || !within(v[4], 2.0)
            {
                return None;
            }
            win.push(v[0]);
            equity.push([v[1], v[2], v[3], v[4]]);
        }
        let (_, ids) = boards_and_ids();
        Some(TwoSidedDb { ids, win, equity })
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
        // Double/pass: the cubeful equity is the cash; no double would
        // be 2p − 1 (the last roll), double/take twice that.
        assert_eq!(db.equity(&p, Owner::Centered), Some(1.0));
        let (nd, dt) = db.cube_equities(&p, Owner::Centered).unwrap();
        assert!((nd - (2.0 * 34.0 / 36.0 - 1.0)).abs() < 1e-6);
        assert!((dt - 2.0 * nd).abs() < 1e-6);
        // Without the cube (the opponent owns it) it is 2p − 1.
        let e = db.equity(&p, Owner::Opponent).unwrap();
        assert!((e - (2.0 * 34.0 / 36.0 - 1.0)).abs() < 1e-6);
        // On the 6-point: 27/36, a double and an exactly borderline take.
        let p = Position::from_points(&[(6, 1)], &[(1, 1)]);
        assert!((db.win(&p).unwrap() - 27.0 / 36.0).abs() < 1e-6);
        assert!((db.equity(&p, Owner::Centered).unwrap() - 1.0).abs() < 1e-6);
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
        assert!(back.win == db.win && back.equity == db.equity && written.win == db.win);
        // Damage of any kind (here zeros after an intact header, which the
        // range checks alone accept) is caught and the table rebuilt.
        let mut bytes = std::fs::read(&path).unwrap();
        let header = bytes.len() - 20 * BOARDS * BOARDS;
        bytes[header..].fill(0);
        std::fs::write(&path, &bytes).unwrap();
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
        assert!(
            reread.equity == db.equity,
            "the rebuilt table was written back"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn agrees_with_the_one_sided_race_where_cube_free() {
        // Cubeless win chances against the one-sided approximation, which
        // is exact when both sides simply race to finish.
        let db = TwoSidedDb::get();
        let one = super::super::bearoff::BearoffDb::get();
        let p = Position::from_points(&[(6, 2), (3, 2), (1, 1)], &[(5, 3), (2, 2)]);
        let exact = db.win(&p).unwrap();
        let approx = one.probs(&p).unwrap().win();
        assert!((exact - approx).abs() < 0.02, "{exact} {approx}");
        // Owning the cube is worth something; the opponent owning it costs.
        let c = db.equity(&p, Owner::Centered).unwrap();
        let mine = db.equity(&p, Owner::Roller).unwrap();
        let theirs = db.equity(&p, Owner::Opponent).unwrap();
        assert!(mine >= c && c >= theirs, "{mine} {c} {theirs}");
        assert!(theirs <= 2.0 * exact - 1.0 + 1e-6 && mine >= 2.0 * exact - 1.0 - 1e-6);
    }
}
