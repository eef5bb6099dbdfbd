//! PubEval (Tesauro): score = w · x over 122 inputs of the position after a
//! move, with separate race and contact weights (chosen by the position
//! before the move). Higher is better for the mover. Weights and encoding
//! are from the public description in pubeval.json, kept verbatim.

use super::encoding::SlotBits;
use crate::backgammon::{CHECKERS, OPP_BAR, Position, Side};
use std::sync::LazyLock;

const INPUTS: usize = 122;

struct Weights {
    race: [f32; INPUTS],
    contact: [f32; INPUTS],
}

static WEIGHTS: LazyLock<Weights> = LazyLock::new(|| {
    let v: serde_json::Value =
        serde_json::from_str(include_str!("pubeval.json")).expect("pubeval.json is valid JSON");
    let read = |key: &str| {
        let mut w = [0f32; INPUTS];
        let arr = v[key]
            .as_array()
            .expect("pubeval.json has race and contact weights");
        assert_eq!(arr.len(), INPUTS);
        for (slot, x) in w.iter_mut().zip(arr) {
            *slot = x.as_f64().expect("weights are numbers") as f32;
        }
        w
    };
    Weights {
        race: read("race"),
        contact: read("contact"),
    }
});

/// Each point's terms by the count on it (index count + 15): the first
/// and second term the score adds for it, in the order PubEval's formula
/// adds them, the second +0.0 where there is none.
struct PointTerms {
    terms: [[[f32; 2]; 31]; 24],
    bar: f32,
    off: f32,
}

impl PointTerms {
    fn of(w: &[f32; INPUTS]) -> PointTerms {
        let mut terms = [[[0f32; 2]; 31]; 24];
        for (j, by_count) in terms.iter_mut().enumerate() {
            let k = 5 * j;
            for (slot, n) in by_count.iter_mut().zip(-15i8..=15) {
                *slot = match n {
                    -1 => [w[k], 0.0],
                    1 => [w[k + 1], 0.0],
                    2 => [w[k + 2], 0.0],
                    3 => [w[k + 2], w[k + 3]],
                    n if n >= 4 => [w[k + 2], w[k + 4] * (n as f32 - 3.0) / 2.0],
                    _ => [0.0, 0.0],
                };
            }
        }
        PointTerms {
            terms,
            bar: w[120],
            off: w[121],
        }
    }
}

static TERMS: LazyLock<[PointTerms; 2]> = LazyLock::new(|| {
    [
        PointTerms::of(&WEIGHTS.race),
        PointTerms::of(&WEIGHTS.contact),
    ]
});

/// PubEval's score of `after` (the mover's view after his move); `race`
/// when the position before the move had no contact.
///
/// The search ranks every reply by this score to pick the few it searches,
/// so it runs once per candidate inside the tree. It adds the same terms
/// in the same order as the formula, so the score is the same float; the
/// terms come from a table by count, and only points that add something
/// (the mover's, and the opponent's blots) are visited, without a branch
/// per point.
pub fn score(after: &Position, race: bool) -> f32 {
    let mine = after.on_board(Side::Mover);
    if mine == 0 {
        return f32::INFINITY;
    }
    let pos = after.raw();
    let bits = SlotBits::of(pos);
    let scoring = bits.mine | (bits.opp & !bits.opp_two);
    let t = &TERMS[usize::from(!race)];
    // Point j of the formula is slot 25 − j: visit slots 24 down to 1.
    let mut points = scoring & ((1 << 25) - 2);
    let mut s = 0f32;
    while points != 0 {
        let slot = 31 - points.leading_zeros() as usize;
        points &= !(1 << slot);
        let [first, second] = t.terms[24 - slot][(pos[slot] + 15) as usize];
        s += first;
        s += second;
    }
    s += t.bar * (-pos[OPP_BAR] as f32) / 2.0;
    s += t.off * (CHECKERS - mine) as f32 / 15.0;
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::{Dice, MoveList, legal_moves};
    use crate::notation::move_text;

    /// The formula as first written, point by point.
    fn score_by_the_formula(after: &Position, race: bool) -> f32 {
        if after.on_board(Side::Mover) == 0 {
            return f32::INFINITY;
        }
        let w = if race {
            &WEIGHTS.race
        } else {
            &WEIGHTS.contact
        };
        let pos = after.raw();
        let mut s = 0f32;
        for j in 1..=24 {
            let n = pos[25 - j];
            let k = 5 * (j - 1);
            match n {
                -1 => s += w[k],
                1 => s += w[k + 1],
                n if n >= 2 => {
                    s += w[k + 2];
                    if n == 3 {
                        s += w[k + 3];
                    } else if n >= 4 {
                        s += w[k + 4] * (n as f32 - 3.0) / 2.0;
                    }
                }
                _ => {}
            }
        }
        s += w[120] * (-pos[OPP_BAR] as f32) / 2.0;
        s += w[121] * after.borne_off(Side::Mover) as f32 / 15.0;
        s
    }

    #[test]
    fn the_table_gives_the_formulas_float() {
        // Every position reached by a few hundred random games, both
        // weight sets, compared bit for bit.
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(11);
        let mut list = MoveList::new();
        let mut compared = 0;
        for _ in 0..300 {
            let mut pos = Position::starting();
            while !pos.is_game_over() {
                let dice = Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).unwrap();
                legal_moves(&pos, dice, &mut list);
                for c in list.iter() {
                    for race in [false, true] {
                        let (fast, formula) = (
                            score(&c.position, race),
                            score_by_the_formula(&c.position, race),
                        );
                        assert_eq!(fast.to_bits(), formula.to_bits(), "{:?}", c.position);
                        compared += 1;
                    }
                }
                let pick = rng.random_range(0..list.len());
                pos = list.as_slice()[pick].position.swap();
            }
        }
        assert!(compared > 100_000, "{compared}");
    }

    #[test]
    fn prefers_making_the_five_point_with_31() {
        let p = Position::starting();
        let mut list = MoveList::new();
        legal_moves(&p, Dice::new(3, 1).unwrap(), &mut list);
        let best = list
            .iter()
            .max_by(|a, b| score(&a.position, false).total_cmp(&score(&b.position, false)))
            .unwrap();
        assert_eq!(move_text::format(&p, &best.play), "8/5 6/5");
    }
}
