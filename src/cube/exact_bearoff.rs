//! The cube's exact money equities in small bear-offs: for every pair of
//! home boards of the two-sided database (`eval::bearoff_two_sided`), the
//! roller's cubeful equity per unit of the cube with the cube centred,
//! owned by the roller, owned by the opponent, and after double/take,
//! under optimal checker and cube play by both sides (no beavers).
//!
//! Solved over the database's own graph of endings and cached on disk
//! beside it.

use super::Owner;
use crate::backgammon::Position;
use crate::eval::bearoff::{cache_file, cached};
use crate::eval::bearoff_two_sided::{
    SLACK, TwoSidedGraph, pair_index, table_bytes, table_from_bytes,
};
use crate::framed_file::FrameKind;
use std::sync::OnceLock;

const CACHE_KIND: FrameKind = FrameKind {
    name: "cubeful bear-off cache",
    magic: b"KOTRACB1",
    version: 1,
};

const SLOTS: [Owner; 3] = [Owner::Centered, Owner::Roller, Owner::Opponent];
/// Where a table row keeps the double/take equity, after the three owners.
const DOUBLE_TAKE: usize = 3;

#[derive(Clone)]
pub struct CubefulBearoff {
    /// Per pair: no double with the cube centred, no double with the
    /// roller's cube, the opponent's cube, and double/take.
    equity: Vec<[f32; 4]>,
}

/// The value with the best cube action first: double where double/take or
/// double/pass is worth at least no double (a dead-certain cash included).
fn optimal(e: &[f32; 4], cube: Owner) -> f32 {
    let no_double = e[cube as usize];
    if cube == Owner::Opponent {
        return no_double;
    }
    let doubled = e[DOUBLE_TAKE].min(1.0);
    if doubled >= no_double - 1e-6 {
        doubled
    } else {
        no_double
    }
}

impl CubefulBearoff {
    /// The process-wide table: from the disk cache, else built and cached.
    pub fn get() -> &'static CubefulBearoff {
        static TABLE: OnceLock<CubefulBearoff> = OnceLock::new();
        TABLE.get_or_init(|| {
            cached(
                cache_file("bearoff-cubeful-6-v1.bin"),
                &CACHE_KIND,
                CubefulBearoff::read,
                CubefulBearoff::build,
                CubefulBearoff::to_bytes,
            )
        })
    }

    /// The roller's exact cubeful money equity per unit of the cube, with
    /// its best cube action first.
    pub fn equity(&self, pos: &Position, cube: Owner) -> Option<f32> {
        pair_index(pos).map(|i| optimal(&self.equity[i], cube))
    }

    /// The exact cube decision's equities per unit of the cube: no double
    /// and double/take (double/pass is 1).
    pub fn cube_equities(&self, pos: &Position, cube: Owner) -> Option<(f32, f32)> {
        pair_index(pos).map(|i| {
            let e = &self.equity[i];
            (e[cube as usize], e[DOUBLE_TAKE])
        })
    }

    pub fn build() -> CubefulBearoff {
        let equity = TwoSidedGraph::get().solve(
            [1.0; 4],
            |e| {
                // The opponent's view: its slots mirror ours, and after a
                // taken double the roller owns the cube it then faces.
                let o: [f32; 3] = std::array::from_fn(|k| optimal(e, SLOTS[k]));
                [
                    -o[Owner::Centered as usize],
                    -o[Owner::Opponent as usize],
                    -o[Owner::Roller as usize],
                    -o[Owner::Roller as usize],
                ]
            },
            |[c, r, o, dt]| [c, r, o, 2.0 * dt],
        );
        CubefulBearoff { equity }
    }

    fn to_bytes(&self) -> Vec<u8> {
        table_bytes(self.equity.as_flattened())
    }

    /// The table from a whole cache file (frame and payload), if sound.
    pub fn from_cache_file(bytes: &[u8]) -> Option<CubefulBearoff> {
        crate::framed_file::unframe(&CACHE_KIND, bytes)
            .ok()
            .and_then(CubefulBearoff::read)
    }

    /// The table from a cache file's payload.
    fn read(bytes: &[u8]) -> Option<CubefulBearoff> {
        let within = |x: f32, bound: f32| (-bound - SLACK..=bound + SLACK).contains(&x);
        let equity = table_from_bytes(bytes, |e: &[f32; 4]| {
            e[..DOUBLE_TAKE].iter().all(|&x| within(x, 1.0)) && within(e[DOUBLE_TAKE], 2.0)
        })?;
        Some(CubefulBearoff { equity })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bearoff_two_sided::TwoSidedDb;

    #[test]
    fn hand_checked_cube_actions() {
        let table = CubefulBearoff::get();
        // One checker on the 4-point against one anywhere: 34/36 to win
        // now, else lose. Double/pass: the cubeful equity is the cash; no
        // double would be 2p − 1 (the last roll), double/take twice that.
        let p = Position::from_points(&[(4, 1)], &[(1, 1)]);
        assert_eq!(table.equity(&p, Owner::Centered), Some(1.0));
        let (nd, dt) = table.cube_equities(&p, Owner::Centered).unwrap();
        assert!((nd - (2.0 * 34.0 / 36.0 - 1.0)).abs() < 1e-6);
        assert!((dt - 2.0 * nd).abs() < 1e-6);
        // Without the cube (the opponent owns it) it is 2p − 1.
        let e = table.equity(&p, Owner::Opponent).unwrap();
        assert!((e - (2.0 * 34.0 / 36.0 - 1.0)).abs() < 1e-6);
        // On the 6-point: 27/36, a double and an exactly borderline take.
        let p = Position::from_points(&[(6, 1)], &[(1, 1)]);
        assert!((table.equity(&p, Owner::Centered).unwrap() - 1.0).abs() < 1e-6);
        assert!(
            table
                .equity(
                    &Position::from_points(&[(1, 7)], &[(1, 1)]),
                    Owner::Centered
                )
                .is_none()
        );
    }

    #[test]
    fn owning_the_cube_is_worth_something() {
        let table = CubefulBearoff::get();
        let p = Position::from_points(&[(6, 2), (3, 2), (1, 1)], &[(5, 3), (2, 2)]);
        let win = TwoSidedDb::get().win(&p).unwrap();
        let c = table.equity(&p, Owner::Centered).unwrap();
        let mine = table.equity(&p, Owner::Roller).unwrap();
        let theirs = table.equity(&p, Owner::Opponent).unwrap();
        assert!(mine >= c && c >= theirs, "{mine} {c} {theirs}");
        assert!(theirs <= 2.0 * win - 1.0 + 1e-6 && mine >= 2.0 * win - 1.0 - 1e-6);
    }

    #[test]
    fn the_disk_cache_reads_back_and_refuses_damage() {
        let table = CubefulBearoff::get();
        let bytes = crate::framed_file::frame(&CACHE_KIND, &table.to_bytes());
        let back = CubefulBearoff::from_cache_file(&bytes).unwrap();
        assert!(back.equity == table.equity);
        // A double/take worth more than twice the cube is damage.
        let mut payload = table.to_bytes();
        payload[12..16].copy_from_slice(&2.5f32.to_le_bytes());
        let damaged = crate::framed_file::frame(&CACHE_KIND, &payload);
        assert!(CubefulBearoff::from_cache_file(&damaged).is_none());
        assert!(CubefulBearoff::from_cache_file(&bytes[..bytes.len() - 4]).is_none());
    }
}
