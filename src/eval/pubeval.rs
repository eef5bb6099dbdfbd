//! PubEval (Tesauro): score = w · x over 122 inputs of the position after a
//! move, with separate race and contact weights (chosen by the position
//! before the move). Higher is better for the mover. Weights and encoding
//! are from the public description in pubeval.json, kept verbatim.

use crate::backgammon::{OPP_BAR, Position, Side};
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

/// PubEval's score of `after` (the mover's view after his move); `race`
/// when the position before the move had no contact.
pub fn score(after: &Position, race: bool) -> f32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::{Dice, MoveList, legal_moves};
    use crate::notation::move_text;

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
