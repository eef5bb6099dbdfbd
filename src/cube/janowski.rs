//! Cubeful values from cubeless probabilities: Janowski's interpolation
//! between a dead cube and a fully live one, with cube efficiency `x`.
//!
//! The live-cube value is piecewise linear in the roller's winning chance
//! `p`: from the average loss at `p = 0`, through the opponent's cash
//! point (where the roller would have to pass), the roller's own cash point,
//! to the average win at `p = 1`. Cash points come from the same model one
//! cube level up (the taker owns the doubled cube and can redouble), so
//! they are found by a short recursion over cube levels. Values are in the
//! stakes' own currency (points or match winning chances), so the same
//! code gives Janowski's money formulas (a live-cube take point of 20%
//! without gammons, `(L − ½)/(W + L + ½)` with them) and match-play cube
//! points from the match equity table.

use super::state::{CubeState, Owner, Stakes};
use crate::backgammon::{GameResult, Position};
use crate::eval::Probs;

/// How many cube levels above the present one the recursion looks at. For
/// money each level moves the cash point by a factor of about 1/5, so eight
/// levels leave it exact to float precision.
const MAX_LEVELS: u32 = 8;

/// Cube efficiency: how much of the live-cube gain a real game keeps.
/// Contact and long races are near the 2/3 that Janowski measured; short
/// races and bear-offs move in jumps, so the cube is less efficient there.
pub fn efficiency(pos: &Position) -> f32 {
    if pos.has_contact() {
        return 0.68;
    }
    let (me, opp) = pos.pip_counts();
    let mean = (me + opp) as f32 / 2.0;
    (0.55 + 0.002 * mean).clamp(0.6, 0.7)
}

/// The roller's cubeful value with cubeless probabilities `p` (its view).
pub fn cubeful(p: &Probs, state: &CubeState, x: f32) -> f32 {
    cubeful_with(p, state, x, &mut CashPoints::default())
}

/// Money cash points below this cube value do not depend on it: their
/// recursion (`MAX_LEVELS` deep) stops at its depth before the cube's cap.
const VALUE_FREE_CASH: u32 = 1 << (12 - MAX_LEVELS + 1);

/// The two money cash points of one set of probabilities (the roller's and
/// the opponent's), found at the first state that asks and kept for the
/// others: a search leaf values every cube state its line can reach, each
/// twice where the roller may double, from the same probabilities, and
/// the recursion behind a cash point was a large share of a deep search.
/// Valid for one `p` only; a cube of [`VALUE_FREE_CASH`] or more is
/// worked out each time.
#[derive(Default)]
pub struct CashPoints {
    ends: Option<((f32, f32), (f32, f32))>,
    mine: Option<f32>,
    theirs: Option<f32>,
}

impl CashPoints {
    /// Each side's [`unit_ends`], found once.
    fn ends(&mut self, p: &Probs) -> ((f32, f32), (f32, f32)) {
        *self
            .ends
            .get_or_insert_with(|| (unit_ends(p), unit_ends(&p.flip())))
    }

    /// The roller's money cash point with a cube of `value` (`roller`),
    /// or the opponent's.
    fn point(&mut self, p: &Probs, value: u32, roller: bool) -> f32 {
        let (me, them) = self.ends(p);
        let (doubler, taker, kept) = if roller {
            (me, them, &mut self.mine)
        } else {
            (them, me, &mut self.theirs)
        };
        if value >= VALUE_FREE_CASH {
            return money_cash_point(doubler, taker, value);
        }
        *kept.get_or_insert_with(|| money_cash_point(doubler, taker, value))
    }
}

/// [`cubeful`] with the money cash points of `p` kept in `cash` from one
/// state to the next (the same bits as finding them each time).
pub fn cubeful_with(p: &Probs, state: &CubeState, x: f32, cash: &mut CashPoints) -> f32 {
    let (lose, win) = match money_scale(state) {
        // The unit ends the cash points use, scaled: the same bits.
        Some(v) => {
            let (unit_lose, unit_win) = cash.ends(p).0;
            (unit_lose * v, unit_win * v)
        }
        None => ends(p, state),
    };
    let w = p.win().clamp(0.0, 1.0);
    let dead = w * win + (1.0 - w) * lose;
    let roller_live = state.roller_may_double();
    let opp_live = state.swapped().roller_may_double();
    if !roller_live && !opp_live {
        return dead;
    }
    // Money cash points need only each side's average loss and win per
    // unit of the cube (see `money_cash_point`).
    let money = state.is_money();
    let mut knees = [(0.0f32, lose), (0.0, 0.0), (0.0, 0.0), (1.0, win)];
    let mut n = 1;
    let mut take_point = 0.0;
    if opp_live {
        let opp_cash = if money {
            cash.point(p, state.value, false)
        } else {
            cash_point(&p.flip(), &state.swapped(), 0)
        };
        take_point = 1.0 - opp_cash;
        knees[n] = (take_point, state.flip(state.swapped().cash()));
        n += 1;
    }
    if roller_live {
        let cash = if money {
            cash.point(p, state.value, true)
        } else {
            cash_point(p, state, 0)
        }
        .max(take_point);
        knees[n] = (cash, state.cash());
        n += 1;
    }
    knees[n] = (1.0, win);
    let live = interpolate(&knees[..=n], w);
    x * live + (1.0 - x) * dead
}

/// The cube's value where its [`ends`] are the roller's [`unit_ends`]
/// times it: money play, gammons counting (no Jacoby rule on a centred
/// cube). A cube's value is a power of two, and scaling by one commutes
/// with every rounding in `ends`, so the product has `ends`' own bits; a
/// search leaf values a dozen cube states from one set of probabilities,
/// and working the averages out for each was a share of a deep search.
fn money_scale(state: &CubeState) -> Option<f32> {
    let jacoby = matches!(state.stakes, Stakes::Money { jacoby: true, .. })
        && state.owner == Owner::Centered;
    (state.is_money() && !jacoby && state.value.is_power_of_two()).then_some(state.value as f32)
}

/// Values at `p = 0` and `p = 1` with this cube: the average loss and the
/// average win, weighted by the gammon and backgammon shares of each.
fn ends(p: &Probs, state: &CubeState) -> (f32, f32) {
    let [w, wg, wbg, lg, lbg] = p.0;
    let l = 1.0 - w;
    let [losses, wins] = result_values(state);
    let average = |total: f32, g: f32, bg: f32, [single, gammon, backgammon]: [f32; 3]| {
        if total < 1e-6 {
            return single;
        }
        ((total - g) * single + (g - bg) * gammon + bg * backgammon) / total
    };
    (average(l, lg, lbg, losses), average(w, wg, wbg, wins))
}

/// What a finished game is worth to the roller with `state`'s cube: a
/// single game, a gammon and a backgammon lost, then won.
fn state_results(state: &CubeState) -> [[f32; 3]; 2] {
    [false, true].map(|wins| {
        [
            GameResult::Single,
            GameResult::Gammon,
            GameResult::Backgammon,
        ]
        .map(|r| state.result_value(r, wins))
    })
}

/// Slots of [`result_values`]' memo: a match search's leaves carry a few
/// dozen cube states at most.
const RESULT_SLOTS: usize = 64;

/// [`state_results`], kept per thread for match stakes: each is six
/// lookups in the match equity table, a search leaf asks for them for
/// every cube state it carries and for each level of a cash point's
/// recursion, and a search meets the same few states millions of times.
fn result_values(state: &CubeState) -> [[f32; 3]; 2] {
    let Stakes::Match {
        me_away,
        opp_away,
        crawford,
        post_crawford,
    } = state.stakes
    else {
        return state_results(state);
    };
    type Slot = Option<(CubeState, [[f32; 3]; 2])>;
    thread_local! {
        static KEPT: std::cell::RefCell<[Slot; RESULT_SLOTS]> =
            const { std::cell::RefCell::new([None; RESULT_SLOTS]) };
    }
    let slot = (state.value.trailing_zeros() as usize * 3 + state.owner as usize)
        .wrapping_add((me_away as usize).wrapping_mul(7))
        .wrapping_add((opp_away as usize).wrapping_mul(13))
        .wrapping_add(usize::from(crawford) * 5 + usize::from(post_crawford) * 11)
        % RESULT_SLOTS;
    KEPT.with_borrow_mut(|kept| match kept[slot] {
        Some((s, values)) if s == *state => values,
        _ => {
            let values = state_results(state);
            kept[slot] = Some((*state, values));
            values
        }
    })
}

/// The roller's winning chance at which its double becomes a pass: where
/// the taker's prospects with the doubled cube (which it may redouble) are
/// worth exactly the roller's cash.
fn cash_point(p: &Probs, state: &CubeState, level: u32) -> f32 {
    let doubled = state.doubled();
    let target = state.cash();
    let (lose, win) = ends(p, &doubled);
    let taker = doubled.swapped();
    let mut knees = [(0.0f32, lose), (0.0, 0.0), (1.0, win)];
    let n = if level + 1 < MAX_LEVELS && taker.roller_may_double() {
        let redouble = 1.0 - cash_point(&p.flip(), &taker, level + 1);
        knees[1] = (redouble, doubled.flip(taker.cash()));
        2
    } else {
        1
    };
    knees[n] = (1.0, win);
    inverse(&knees[..=n], target)
}

/// [`cash_point`] for money play, where values scale with the cube and a
/// turned cube leaves no Jacoby rule, so that the recursion is the same at
/// every level but for whose chances it weighs: `me`, the doubler's
/// [`unit_ends`], and `them`, the taker's. Each level is in units of its
/// own cube (the doubler's cash is 1, a pass of the redouble −2); `value`
/// is the cube before the double, for the cube's upper limit. A search
/// leaf asks this for every cube state it carries, and the general
/// recursion's state arithmetic took about a ninth of a 2-ply analysis.
///
/// Each level is the inverse of its polyline at the cash (1), written out
/// and walked from the deepest level up: a doubler's average loss is at
/// most −2 and its average win at least 2 (per unit of the doubled cube),
/// so the cash always falls on the last segment, and the general
/// [`inverse`] spent most of a leaf's cube time finding that out. The
/// arithmetic is [`interpolate`]'s on that segment, so the bits are
/// [`money_cash_point_by_polylines`]' bits.
fn money_cash_point(me: (f32, f32), them: (f32, f32), value: u32) -> f32 {
    let doublers_ends = |(lose, win): (f32, f32)| 2.0 * lose < -1.0 && 2.0 * win >= 1.0;
    if !(doublers_ends(me) && doublers_ends(them)) {
        // Not a doubler's ends (no network gives these): the general way.
        return money_cash_point_by_polylines(me, them, value, 0);
    }
    // The deepest level the recursion reaches: the last one whose doubled
    // cube is under the cap, at most `MAX_LEVELS`.
    let mut deepest = 0;
    let mut doubled = u64::from(value) * 2;
    while deepest + 1 < MAX_LEVELS && doubled < 1 << 12 {
        deepest += 1;
        doubled *= 2;
    }
    // Level k is the doubler's own when even, the taker's when odd.
    let ends_at = |level: u32| {
        let (lose, win) = if level.is_multiple_of(2) { me } else { them };
        (2.0 * lose, 2.0 * win)
    };
    let (lose, win) = ends_at(deepest);
    let mut cash = (1.0 - lose) / (win - lose);
    for level in (0..deepest).rev() {
        let redouble = 1.0 - cash;
        let (_, win) = ends_at(level);
        cash = redouble + (1.0 - redouble) * (1.0 - -2.0) / (win - -2.0);
    }
    cash
}

/// [`money_cash_point`] as the polyline's inverse at every level, each
/// level `level` deep below the cube `value`: the general way, for ends no
/// doubler has.
fn money_cash_point_by_polylines(me: (f32, f32), them: (f32, f32), value: u32, level: u32) -> f32 {
    let (lose, win) = (2.0 * me.0, 2.0 * me.1);
    let doubled = value * 2;
    if level + 1 < MAX_LEVELS && doubled < 1 << 12 {
        let redouble = 1.0 - money_cash_point_by_polylines(them, me, doubled, level + 1);
        inverse(&[(0.0, lose), (redouble, -2.0), (1.0, win)], 1.0)
    } else {
        inverse(&[(0.0, lose), (1.0, win)], 1.0)
    }
}

/// The average loss and win of a money game per unit of an owned cube
/// (gammons and backgammons counted, no Jacoby rule).
fn unit_ends(p: &Probs) -> (f32, f32) {
    let owned = CubeState {
        owner: Owner::Opponent,
        ..CubeState::money()
    };
    ends(p, &owned)
}

/// Linear interpolation through `knees` (increasing in both coordinates)
/// at `p`, flat beyond the ends.
fn interpolate(knees: &[(f32, f32)], p: f32) -> f32 {
    let first = knees[0];
    if p <= first.0 {
        return first.1;
    }
    for pair in knees.windows(2) {
        let ((p0, v0), (p1, v1)) = (pair[0], pair[1]);
        if p <= p1 {
            if p1 - p0 < 1e-9 {
                return v1;
            }
            return v0 + (v1 - v0) * (p - p0) / (p1 - p0);
        }
    }
    knees[knees.len() - 1].1
}

/// The `p` where the increasing polyline `knees` (at most four points)
/// reaches `value`: interpolation with the axes swapped.
fn inverse(knees: &[(f32, f32)], value: f32) -> f32 {
    let mut swapped = [(0f32, 0f32); 4];
    for (s, &(p, v)) in swapped.iter_mut().zip(knees) {
        *s = (v, p);
    }
    interpolate(&swapped[..knees.len()], value)
}

/// Probabilities drawn from `seed` (moved on): a winning chance, then
/// each side's gammons as a share of its games and backgammons as up to
/// `backgammons` of them.
#[cfg(test)]
pub(super) fn random_probs(seed: &mut u64, backgammons: f32) -> Probs {
    let mut next = || {
        *seed = crate::seed::splitmix(*seed);
        (*seed >> 40) as f32 / (1u64 << 24) as f32
    };
    let w = next();
    Probs([
        w,
        w * next(),
        w * next() * backgammons,
        (1.0 - w) * next(),
        (1.0 - w) * next() * backgammons,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::state::{Owner, Stakes};

    fn probs(w: f32, w_gammon_share: f32, l_gammon_share: f32) -> Probs {
        Probs([w, w * w_gammon_share, 0.0, (1.0 - w) * l_gammon_share, 0.0])
    }

    /// Doubler's value after a double that is taken, per unit of the old cube.
    fn double_take(p: &Probs, x: f32) -> f32 {
        cubeful(p, &CubeState::money().doubled(), x)
    }

    #[test]
    fn live_cube_take_point_is_twenty_percent() {
        let p = probs(0.8, 0.0, 0.0);
        assert!((double_take(&p, 1.0) - 1.0).abs() < 1e-4);
        // A little worse for the taker and it becomes a pass.
        assert!(double_take(&probs(0.81, 0.0, 0.0), 1.0) > 1.0);
        assert!(double_take(&probs(0.79, 0.0, 0.0), 1.0) < 1.0);
    }

    #[test]
    fn dead_cube_take_point_is_twenty_five_percent() {
        let p = probs(0.75, 0.0, 0.0);
        assert!((double_take(&p, 0.0) - 1.0).abs() < 1e-5);
        // Equity 0.5 per cube when dead: 2 × (2·0.75 − 1) after the double.
        assert!((double_take(&p, 0.0) - 2.0 * p.equity()).abs() < 1e-5);
    }

    #[test]
    fn janowski_take_point_with_gammons() {
        // W = L = 1.5: live take point (L − ½)/(W + L + ½) = 1/3.5.
        let tp = 1.0 / 3.5;
        let p = probs(1.0 - tp, 0.5, 0.5);
        assert!(
            (double_take(&p, 1.0) - 1.0).abs() < 1e-3,
            "{}",
            double_take(&p, 1.0)
        );
    }

    #[test]
    fn centred_cube_is_worth_more_than_none_to_the_leader() {
        let p = probs(0.7, 0.1, 0.1);
        let centred = cubeful(&p, &CubeState::money(), 0.68);
        let owned_by_opp = cubeful(
            &p,
            &CubeState {
                owner: Owner::Opponent,
                ..CubeState::money()
            },
            0.68,
        );
        let owned = cubeful(
            &p,
            &CubeState {
                owner: Owner::Roller,
                ..CubeState::money()
            },
            0.68,
        );
        assert!(
            owned > centred && centred > owned_by_opp,
            "{owned} {centred} {owned_by_opp}"
        );
        assert!(centred > p.equity().min(1.0) - 0.2);
    }

    #[test]
    fn money_cash_points_agree_with_the_general_recursion() {
        use crate::cube::state::Stakes;
        let mut seed = 7u64;
        for _ in 0..2000 {
            let p = random_probs(&mut seed, 0.2);
            for value in [1, 2, 8, 1024, 2048] {
                for jacoby in [false, true] {
                    let state = CubeState {
                        value,
                        owner: Owner::Centered,
                        stakes: Stakes::Money {
                            jacoby,
                            beavers: false,
                        },
                    };
                    let (me, them) = (unit_ends(&p), unit_ends(&p.flip()));
                    let fast = money_cash_point(me, them, value);
                    let general = cash_point(&p, &state, 0);
                    assert!(
                        (fast - general).abs() < 1e-5,
                        "{p:?} {value}: {fast} {general}"
                    );
                    let fast = money_cash_point(them, me, value);
                    let general = cash_point(&p.flip(), &state.swapped(), 0);
                    assert!(
                        (fast - general).abs() < 1e-5,
                        "{p:?} {value}: {fast} {general}"
                    );
                }
            }
        }
    }

    /// The written-out last segment gives the polylines' bits, gammons,
    /// backgammons and cubes near the cap included.
    #[test]
    fn money_cash_points_keep_the_polylines_bits() {
        let mut seed = 3u64;
        for _ in 0..5000 {
            let p = random_probs(&mut seed, 0.3);
            let (me, them) = (unit_ends(&p), unit_ends(&p.flip()));
            for value in [1, 2, 64, 512, 1024, 2048] {
                for (a, b) in [(me, them), (them, me)] {
                    let fast = money_cash_point(a, b, value);
                    let slow = money_cash_point_by_polylines(a, b, value, 0);
                    assert_eq!(fast.to_bits(), slow.to_bits(), "{p:?} {value}");
                }
            }
        }
    }

    /// Every money cube's ends are the unit ends scaled, bit for bit, so
    /// that the scaled shortcut changes no value.
    #[test]
    fn money_ends_are_the_unit_ends_scaled() {
        let mut seed = 5u64;
        let mut scaled = 0;
        for _ in 0..3000 {
            let p = random_probs(&mut seed, 0.3);
            for value in [1, 2, 4, 64, 1024, 4096] {
                for owner in [Owner::Centered, Owner::Roller, Owner::Opponent] {
                    for jacoby in [false, true] {
                        let state = CubeState {
                            value,
                            owner,
                            stakes: Stakes::Money {
                                jacoby,
                                beavers: false,
                            },
                        };
                        let Some(v) = money_scale(&state) else {
                            assert!(jacoby && owner == Owner::Centered);
                            continue;
                        };
                        let (l, w) = unit_ends(&p);
                        let (lose, win) = ends(&p, &state);
                        assert_eq!((l * v).to_bits(), lose.to_bits(), "{p:?} {state:?}");
                        assert_eq!((w * v).to_bits(), win.to_bits(), "{p:?} {state:?}");
                        scaled += 1;
                    }
                }
            }
        }
        assert!(scaled > 40_000, "{scaled}");
    }

    /// The kept match results are each state's own, whatever was asked
    /// before: every state of many scores, asked in two orders, against
    /// its results worked out afresh.
    #[test]
    fn kept_match_results_are_each_states_own() {
        let mut states = Vec::new();
        for me_away in 1..=9 {
            for opp_away in 1..=9 {
                for value in [1, 2, 4, 8, 16] {
                    for owner in [Owner::Centered, Owner::Roller, Owner::Opponent] {
                        for (crawford, post_crawford) in
                            [(false, false), (true, false), (false, true)]
                        {
                            states.push(CubeState {
                                value,
                                owner,
                                stakes: Stakes::Match {
                                    me_away,
                                    opp_away,
                                    crawford,
                                    post_crawford,
                                },
                            });
                        }
                    }
                }
            }
        }
        for _ in 0..2 {
            for s in &states {
                let kept = result_values(s);
                let fresh = state_results(s);
                assert_eq!(
                    kept.map(|r| r.map(f32::to_bits)),
                    fresh.map(|r| r.map(f32::to_bits)),
                    "{s:?}"
                );
            }
            states.reverse();
        }
    }

    #[test]
    fn crawford_cube_is_dead() {
        let s = CubeState {
            value: 1,
            owner: Owner::Centered,
            stakes: Stakes::Match {
                me_away: 1,
                opp_away: 3,
                crawford: true,
                post_crawford: false,
            },
        };
        let p = probs(0.4, 0.2, 0.1);
        let dead =
            0.4 * s.points_value(1) + 0.6 * 0.9 * s.points_value(-1) + 0.06 * s.points_value(-2);
        assert!((cubeful(&p, &s, 0.68) - dead).abs() < 1e-5);
    }

    #[test]
    fn match_cube_matters_at_a_long_match() {
        // At 15-away each, a cube decision behaves like money.
        let s = CubeState {
            value: 1,
            owner: Owner::Centered,
            stakes: Stakes::Match {
                me_away: 15,
                opp_away: 15,
                crawford: false,
                post_crawford: false,
            },
        };
        let p = probs(0.8, 0.0, 0.0);
        let dt = s.normalise(cubeful(&p, &s.doubled(), 1.0));
        assert!((dt - 1.0).abs() < 0.08, "{dt}");
    }
}
