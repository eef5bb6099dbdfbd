//! One stored training position in 24 bytes.
//!
//! The campaign's database lives in the repository and grows every
//! session, so its size is what limits how many positions it can hold:
//! the position as gnubg's 80-bit Position ID key (10 bytes), where the
//! position came from, which network learns it, the five target
//! probabilities as 16-bit fractions (a quantum of 1.5e-5, far below any
//! target's own noise), and how large the disagreement that selected it
//! was.

use crate::backgammon::Position;
use crate::eval::{NetKind, Probs, contact_net};
use crate::notation::position_id;

/// Bytes per record.
pub const RECORD_BYTES: usize = 24;

/// Why a position is in the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// The position after the move the 2-ply search chose, where the
    /// 0-ply choice differed.
    SearchChoice,
    /// The position after the 0-ply choice the search disagreed with.
    StaticChoice,
    /// The position after another candidate the search ranked at 2-ply.
    Sibling,
    /// A position before the roll whose 0-ply cube action the 2-ply
    /// search disagreed with.
    CubeAction,
    /// A position valued by a rollout (back games, the doubling window).
    Rollout,
    /// A timing battle's position valued by a rollout (primes on both
    /// sides, or a side priming a checker while on the bar itself).
    TimingRollout,
}

impl Origin {
    pub const ALL: [Origin; 6] = [
        Origin::SearchChoice,
        Origin::StaticChoice,
        Origin::Sibling,
        Origin::CubeAction,
        Origin::Rollout,
        Origin::TimingRollout,
    ];

    /// Whether the target came from a rollout, which a relabelling
    /// search keeps: it already looks to the game's end.
    pub fn is_rollout(self) -> bool {
        matches!(self, Origin::Rollout | Origin::TimingRollout)
    }

    fn code(self) -> u8 {
        self as u8
    }

    fn from_code(code: u8) -> Option<Origin> {
        Origin::ALL.get(code as usize).copied()
    }

    /// The name the manifest counts it under.
    pub fn name(self) -> &'static str {
        match self {
            Origin::SearchChoice => "search_choice",
            Origin::StaticChoice => "static_choice",
            Origin::Sibling => "sibling",
            Origin::CubeAction => "cube_action",
            Origin::Rollout => "rollout",
            Origin::TimingRollout => "timing_rollout",
        }
    }
}

/// The kind of position for the networks: a contact position that is a
/// back game or crashed board is `Crashed` whether or not the model that
/// reads it has a crashed network, so that the database does not depend
/// on the teacher's shape.
pub fn position_kind(position: &Position) -> NetKind {
    if position.has_contact() {
        contact_net(position, true)
    } else {
        NetKind::Race
    }
}

fn kind_code(kind: NetKind) -> u8 {
    match kind {
        NetKind::Contact => 0,
        NetKind::Race => 1,
        NetKind::Crashed => 2,
    }
}

fn kind_from_code(code: u8) -> Option<NetKind> {
    [NetKind::Contact, NetKind::Race, NetKind::Crashed]
        .get(code as usize)
        .copied()
}

/// A training position with its target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record {
    /// From the view of the side on roll (before its roll).
    pub position: Position,
    pub origin: Origin,
    pub kind: NetKind,
    /// For the side on roll: win, win gammon, win backgammon, lose gammon,
    /// lose backgammon (cumulative, as the networks output them).
    pub target: Probs,
    /// How much equity the 0-ply choice lost by the search's values, in
    /// the decision that selected the position (0 where none did).
    pub gap: f32,
}

/// The quantum of a stored probability.
const PROB_SCALE: f32 = 65_535.0;
/// The quantum of a stored gap: 1e-4 of a point, up to 6.5 points.
const GAP_SCALE: f32 = 10_000.0;

impl Record {
    pub fn new(position: Position, origin: Origin, target: Probs, gap: f32) -> Record {
        Record {
            position,
            origin,
            kind: position_kind(&position),
            target,
            gap,
        }
    }

    /// The record as stored: what [`Record::decode`] reads back, each
    /// probability and the gap rounded to their quanta.
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[..10].copy_from_slice(&position_id::key(&self.position));
        out[10] = self.origin.code();
        out[11] = kind_code(self.kind);
        for (i, p) in self.target.0.iter().enumerate() {
            let q = (p.clamp(0.0, 1.0) * PROB_SCALE).round() as u16;
            out[12 + 2 * i..14 + 2 * i].copy_from_slice(&q.to_le_bytes());
        }
        let gap = (self.gap.max(0.0) * GAP_SCALE).round().min(u16::MAX as f32) as u16;
        out[22..24].copy_from_slice(&gap.to_le_bytes());
        out
    }

    /// Reads a stored record, or says what is wrong with it.
    pub fn decode(bytes: &[u8; RECORD_BYTES]) -> Result<Record, String> {
        let key: [u8; 10] = bytes[..10].try_into().expect("ten bytes");
        let position =
            position_id::from_key(&key, "stored").map_err(|e| format!("bad position key: {e}"))?;
        let origin =
            Origin::from_code(bytes[10]).ok_or_else(|| format!("unknown origin {}", bytes[10]))?;
        let kind = kind_from_code(bytes[11])
            .ok_or_else(|| format!("unknown network code {}", bytes[11]))?;
        let mut target = Probs::default();
        for (i, p) in target.0.iter_mut().enumerate() {
            let q = u16::from_le_bytes([bytes[12 + 2 * i], bytes[13 + 2 * i]]);
            *p = q as f32 / PROB_SCALE;
        }
        let gap = u16::from_le_bytes([bytes[22], bytes[23]]) as f32 / GAP_SCALE;
        Ok(Record {
            position,
            origin,
            kind,
            target,
            gap,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// A random legal position: each side's fifteen checkers spread over
    /// its bar, points and off, never on a point the other holds.
    fn random_position(rng: &mut SmallRng) -> Position {
        let mut mover = [0u8; 25];
        let mut opponent = [0u8; 25];
        for _ in 0..15 {
            let slot = rng.random_range(0..26);
            if slot < 25 {
                mover[slot] += 1;
            }
        }
        for _ in 0..15 {
            let slot = rng.random_range(0..26);
            // The opponent's point i is the mover's 23 - i.
            if slot < 25 && (slot == 24 || mover[23 - slot] == 0) {
                opponent[slot] += 1;
            }
        }
        Position::from_sides(&mover, &opponent).unwrap_or_else(|_| Position::starting())
    }

    #[test]
    fn records_round_trip_within_their_quanta() {
        let mut rng = SmallRng::seed_from_u64(7);
        for i in 0..2_000 {
            let position = random_position(&mut rng);
            let mut p = [0f32; 5];
            p.iter_mut().for_each(|v| *v = rng.random::<f32>());
            let origin = Origin::ALL[i % Origin::ALL.len()];
            let gap = rng.random::<f32>() * 0.5;
            let r = Record::new(position, origin, Probs(p), gap);
            let back = Record::decode(&r.encode()).unwrap();
            assert_eq!(back.position, position);
            assert_eq!((back.origin, back.kind), (origin, position_kind(&position)));
            for (a, b) in back.target.0.iter().zip(p) {
                assert!((a - b).abs() <= 0.5 / PROB_SCALE + 1e-7, "{a} {b}");
            }
            assert!((back.gap - gap).abs() <= 0.5 / GAP_SCALE + 1e-6);
            // Storing what was read back changes nothing.
            assert_eq!(back.encode(), r.encode());
        }
    }

    #[test]
    fn extremes_and_corrupt_bytes() {
        let r = Record::new(
            Position::starting(),
            Origin::CubeAction,
            Probs([1.2, -0.1, 0.0, 1.0, 0.5]),
            9.0,
        );
        let back = Record::decode(&r.encode()).unwrap();
        assert_eq!(back.target.0[..4], [1.0, 0.0, 0.0, 1.0]);
        assert!((back.gap - 6.5535).abs() < 1e-4, "the gap saturates");
        let mut bad = r.encode();
        bad[10] = 9;
        assert!(Record::decode(&bad).unwrap_err().contains("origin"));
        let mut bad = r.encode();
        bad[11] = 3;
        assert!(Record::decode(&bad).unwrap_err().contains("network"));
        let mut bad = r.encode();
        bad[..10].copy_from_slice(&[0xff; 10]);
        assert!(Record::decode(&bad).unwrap_err().contains("position"));
    }

    #[test]
    fn kinds_follow_the_position_not_the_model() {
        let race = Position::from_points(&[(8, 15)], &[(6, 15)]);
        assert_eq!(position_kind(&race), NetKind::Race);
        assert_eq!(position_kind(&Position::starting()), NetKind::Contact);
        let crashed = Position::from_points(&[(24, 1), (3, 3), (2, 3), (1, 2), (6, 6)], &[(6, 15)]);
        assert_eq!(position_kind(&crashed), NetKind::Crashed);
    }
}
