//! The cube's values at a search leaf or a rollout's last position, and
//! the decision from them: what a position is worth to its roller with
//! the cube as it is, doubled, or beavered (Janowski's formulas over the
//! network's probabilities, or the exact cubeful equities of small money
//! bear-offs, `exact_bearoff`), and which action that calls
//! for. The search and the rollouts ask here; the evaluator knows nothing
//! of the cube.

use super::exact_bearoff::CubefulBearoff;
use super::janowski::{CashPoints, cubeful_with};
use super::{CubeDecision, CubeState, Owner, efficiency};
use crate::backgammon::Position;
use crate::eval::{PositionClass, Probs};

/// The 0-ply cube decision of `pos` from its cubeless probabilities `p`:
/// each cube state's own static value (the cube action is what is being
/// decided), or the exact cubeful equities of small bear-offs where they
/// answer. Public so that the cube model can be checked on its own,
/// given someone else's probabilities.
pub fn static_cube_decision(pos: &Position, p: &Probs, state: &CubeState) -> CubeDecision {
    LeafCube::new(pos, p).decision(state)
}

/// The cube states a decision weighs (as it is, doubled and taken, and
/// beavered) and how many of them apply.
pub(crate) fn cube_states(state: &CubeState) -> ([CubeState; 3], usize) {
    let n = if state.beavers_allowed() { 3 } else { 2 };
    ([*state, state.doubled(), state.beavered()], n)
}

/// The decision from the roller's values with the cube as it is, doubled
/// and taken, and (where beavers are allowed) beavered.
pub(crate) fn decide(state: &CubeState, v: &[f32]) -> CubeDecision {
    let beaver = v.len() == 3 && v[2] < v[1];
    let double_take = if beaver { v[2] } else { v[1] };
    CubeDecision::new(
        state.normalise(v[0]),
        state.normalise(double_take),
        state.normalise(state.cash()),
        state.roller_may_double(),
        beaver,
    )
}

/// The roller's value with its best cube action: double where the doubled
/// game (double/take, capped by the cash) is worth more than not doubling.
#[inline]
pub(crate) fn roller_cube_choice(
    state: &CubeState,
    no_double: f32,
    double_take: Option<f32>,
) -> f32 {
    match double_take.map(|dt| dt.min(state.cash())) {
        Some(doubled) if doubled > no_double => doubled,
        _ => no_double,
    }
}

/// The static cubeful value of `pos` for its roller after its best cube
/// action: what a search leaf and a truncated rollout are worth.
/// Janowski's no-double value of a roller past his cash point stays below
/// the cash he can take now; without the cube action a move that leaves
/// the opponent a plain double/pass could rank above one that does not,
/// at 0-ply and in every filter stage.
pub fn static_value(pos: &Position, p: &Probs, state: &CubeState) -> f32 {
    LeafCube::new(pos, p).static_value(state)
}

/// The static cubeful value of `pos` for its roller before any cube
/// action (the cube decision compares these): exact in small money
/// bear-offs, else Janowski's
/// formulas over the probabilities `p`.
pub fn leaf_value(pos: &Position, p: &Probs, state: &CubeState) -> f32 {
    LeafCube::new(pos, p).value(state)
}

/// Changes to the cube model in contact positions, each `None` for the
/// model's own, so that the model can be tuned by play, one side of a
/// duel against the other (`duel --efficiency-a`, `--stretch-a`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CubeTuning {
    /// Another cube efficiency than [`efficiency`]'s.
    pub contact_efficiency: Option<f32>,
    /// The network's winning chance stretched away from one half before
    /// the cube values it: its log-odds times `1 + k`, the gammon shares
    /// of wins and of losses kept. Rollouts of the doubling window find
    /// the network's chances drawn toward one half, the leader's too low
    /// and the trailer's too high, and the cube's thresholds are where
    /// that matters.
    pub contact_stretch: Option<f32>,
}

/// `p` with its winning chance stretched by `k` ([`CubeTuning`]): the
/// gammons and backgammons of each side scaled with that side's chance.
fn stretched(p: &Probs, k: f32) -> Probs {
    let [win, wg, wbg, lg, lbg] = p.0;
    let w = win.clamp(1e-6, 1.0 - 1e-6);
    let s = 1.0 / (1.0 + ((1.0 - w) / w).powf(1.0 + k));
    let (up, down) = (s / w, (1.0 - s) / (1.0 - w));
    Probs([s, wg * up, wbg * up, lg * down, lbg * down])
}

/// One position and its probabilities, valued for as many cube states as
/// a search leaf carries: what every state shares (the cube efficiency,
/// whether the exact table applies, the money cash points) is found once.
/// Each value has the bits [`leaf_value`] and [`static_value`] give.
pub struct LeafCube<'a> {
    pos: &'a Position,
    p: Probs,
    efficiency: Option<f32>,
    bear_off: Option<bool>,
    cash: CashPoints,
    contact_efficiency: Option<f32>,
}

impl<'a> LeafCube<'a> {
    pub fn new(pos: &'a Position, p: &Probs) -> LeafCube<'a> {
        LeafCube {
            pos,
            p: *p,
            efficiency: None,
            bear_off: None,
            cash: CashPoints::default(),
            contact_efficiency: None,
        }
    }

    /// The cube model changed by `tuning` where the position has contact.
    pub fn with_tuning(mut self, tuning: CubeTuning) -> LeafCube<'a> {
        self.contact_efficiency = tuning.contact_efficiency;
        if let Some(k) = tuning.contact_stretch
            && self.pos.has_contact()
        {
            self.p = stretched(&self.p, k);
        }
        self
    }

    /// [`static_cube_decision`] from this leaf.
    pub fn decision(&mut self, state: &CubeState) -> CubeDecision {
        if let Some((no_double, double_take)) = self.exact_cube(state) {
            return CubeDecision::new(
                no_double,
                double_take,
                1.0,
                state.roller_may_double(),
                false,
            );
        }
        let (states, n) = cube_states(state);
        let mut v = [0f32; 3];
        for (o, s) in v.iter_mut().zip(&states[..n]) {
            *o = self.value(s);
        }
        decide(state, &v[..n])
    }

    /// [`leaf_value`] with `state`.
    pub fn value(&mut self, state: &CubeState) -> f32 {
        if let Some(slot) = self.exact_slot(state)
            && let Some(e) = CubefulBearoff::get().equity(self.pos, slot)
        {
            return e * state.value as f32;
        }
        let (pos, contact) = (self.pos, self.contact_efficiency);
        let x = *self.efficiency.get_or_insert_with(|| match contact {
            Some(x) if pos.has_contact() => x,
            _ => efficiency(pos),
        });
        cubeful_with(&self.p, state, x, &mut self.cash)
    }

    /// [`static_value`] with `state`.
    pub fn static_value(&mut self, state: &CubeState) -> f32 {
        let no_double = self.value(state);
        let double_take = state
            .roller_may_double()
            .then(|| self.value(&state.doubled()));
        roller_cube_choice(state, no_double, double_take)
    }

    /// The cube's owner for the exact table, where the table can answer
    /// (money play, both sides bearing off).
    fn exact_slot(&mut self, state: &CubeState) -> Option<Owner> {
        if !state.is_money() {
            return None;
        }
        let pos = self.pos;
        self.bear_off
            .get_or_insert_with(|| PositionClass::of(pos) == PositionClass::BearOff)
            .then_some(state.owner)
    }

    /// No double and double/take per unit of the cube, exact, for small
    /// money endings (beavers aside, which the exact table does not model).
    fn exact_cube(&mut self, state: &CubeState) -> Option<(f32, f32)> {
        if state.beavers_allowed() {
            return None;
        }
        let slot = self.exact_slot(state)?;
        CubefulBearoff::get().cube_equities(self.pos, slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Stakes;
    use crate::cube::janowski::random_probs;

    /// One `LeafCube` asked for every state in turn gives each state the
    /// bits a fresh valuation gives it: the money cash points it keeps do
    /// not depend on the cube below their cap, and a cube at or above it,
    /// match stakes and the exact bear-off table are each worked out anew.
    #[test]
    fn a_leaf_valued_for_many_states_equals_each_valued_alone() {
        // Contact, a long race, and a small bear-off the exact table holds.
        let positions = [
            Position::starting(),
            Position::from_points(&[(6, 5), (8, 5), (13, 5)], &[(6, 5), (8, 5), (13, 5)]),
            Position::from_points(&[(1, 2), (2, 1)], &[(1, 1), (3, 2)]),
        ];
        let mut seed = 11u64;
        let mut states = Vec::new();
        for value in [1, 2, 4, 16, 32, 64, 4096] {
            for owner in [Owner::Centered, Owner::Roller, Owner::Opponent] {
                for jacoby in [false, true] {
                    states.push(CubeState {
                        value,
                        owner,
                        stakes: Stakes::Money {
                            jacoby,
                            beavers: false,
                        },
                    });
                }
                states.push(CubeState {
                    value,
                    owner,
                    stakes: Stakes::Match {
                        me_away: 5,
                        opp_away: 3,
                        crawford: false,
                        post_crawford: false,
                    },
                });
            }
        }
        let mut checked = 0;
        for pos in &positions {
            for _ in 0..200 {
                let p = random_probs(&mut seed, 0.1);
                let mut leaf = LeafCube::new(pos, &p);
                for s in &states {
                    assert_eq!(leaf.value(s).to_bits(), leaf_value(pos, &p, s).to_bits());
                    assert_eq!(
                        leaf.static_value(s).to_bits(),
                        static_value(pos, &p, s).to_bits(),
                        "{s:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    fn efficiency_of(x: f32) -> CubeTuning {
        CubeTuning {
            contact_efficiency: Some(x),
            ..CubeTuning::default()
        }
    }

    /// A race, which every tuning of the contact cube leaves alone.
    fn race() -> Position {
        Position::from_points(&[(6, 5), (7, 5), (8, 5)], &[(6, 5), (7, 5), (8, 5)])
    }

    /// `tuning` changes no bit of a race's cubeful value from `p`.
    fn assert_race_untouched(tuning: CubeTuning, p: &Probs) {
        let (race, state) = (race(), CubeState::money());
        let tuned = LeafCube::new(&race, p).with_tuning(tuning).value(&state);
        assert_eq!(tuned.to_bits(), leaf_value(&race, p, &state).to_bits());
    }

    /// A stretch moves a contact position's winning chance away from one
    /// half and keeps each side's gammon share; a race is left as it is.
    #[test]
    fn a_stretch_moves_the_winning_chance_away_from_one_half_in_contact_only() {
        let contact = Position::starting();
        let tuning = |k| CubeTuning {
            contact_stretch: Some(k),
            ..CubeTuning::default()
        };
        let mut seed = 9u64;
        for _ in 0..200 {
            let p = random_probs(&mut seed, 0.1);
            let [w, wg, _, lg, _] = p.0;
            let q = stretched(&p, 0.05).0;
            assert_eq!(q[0] > w, w > 0.5, "{p:?} {q:?}");
            assert!((q[1] / q[0] - wg / w).abs() < 1e-4, "{p:?} {q:?}");
            assert!(
                (q[3] / (1.0 - q[0]) - lg / (1.0 - w)).abs() < 1e-4,
                "{p:?} {q:?}"
            );
            let none = stretched(&p, 0.0).0;
            assert!(none.iter().zip(p.0).all(|(a, b)| (a - b).abs() < 1e-5));
            let state = CubeState::money();
            assert_race_untouched(tuning(0.05), &p);
            let stretched_value = LeafCube::new(&contact, &p)
                .with_tuning(tuning(0.05))
                .value(&state);
            assert_eq!(
                stretched_value.to_bits(),
                leaf_value(&contact, &Probs(q), &state).to_bits()
            );
        }
    }

    /// Another contact efficiency moves a contact position's cubeful
    /// values and nothing else: the model's own efficiency given
    /// explicitly changes no bit, and a race keeps its own efficiency.
    #[test]
    fn a_contact_efficiency_moves_contact_values_only() {
        let contact = Position::starting();
        assert!(contact.has_contact() && !race().has_contact());
        let state = CubeState::money();
        let mut seed = 5u64;
        let mut moved = 0;
        for _ in 0..100 {
            let p = random_probs(&mut seed, 0.1);
            let own = efficiency(&contact);
            let same = LeafCube::new(&contact, &p)
                .with_tuning(efficiency_of(own))
                .value(&state);
            assert_eq!(same.to_bits(), leaf_value(&contact, &p, &state).to_bits());
            let other = LeafCube::new(&contact, &p)
                .with_tuning(efficiency_of(0.9))
                .value(&state);
            moved += usize::from(other != same);
            assert_race_untouched(efficiency_of(0.9), &p);
        }
        assert!(moved > 90, "{moved}");
    }
}
