//! TD(λ) targets of one self-play game, for every game the trainers play:
//! backgammon's [`Probs`](crate::eval::Probs) and the other games' output
//! vectors go through the same backward pass, so a fix to how returns are
//! formed (such as the cut after an exploratory move) reaches all three.

/// One decision of a self-play game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step<V> {
    /// What the move the returns follow leads to: the exact result when
    /// it ends the game, else the network's view of the position it
    /// leaves, in whichever side's view the caller's `own` and `combine`
    /// expect.
    pub value: V,
    /// Whether the move played was not the one `value` is of (an
    /// exploratory move), so the later returns say nothing of it.
    pub strayed: bool,
}

/// The λ-return of every step, in order, from the view of the side that
/// made it. The last step's return is `own(value)`; each earlier one
/// `combine(value, next step's return)`, the blend
/// `(1 − λ)·value + λ·next` with the next return turned to this side's
/// view (each game turns and blends in the order its recipes were trained
/// with, so they reproduce their networks to the bit). A step that strayed
/// starts afresh from `own(value)` (Watkins' cut): the returns after it
/// followed another move, so they say nothing of the best one.
pub fn lambda_returns<V>(
    steps: &[Step<V>],
    own: impl Fn(&V) -> V,
    combine: impl Fn(&V, &V) -> V,
) -> Vec<V> {
    let mut out: Vec<V> = Vec::with_capacity(steps.len());
    for step in steps.iter().rev() {
        let ret = match out.last() {
            Some(next) if !step.strayed => combine(&step.value, next),
            _ => own(&step.value),
        };
        out.push(ret);
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One number a side, zero-sum: the other side's view is its negation.
    fn returns(steps: &[(f32, bool)], lambda: f32) -> Vec<f32> {
        let steps: Vec<Step<f32>> = steps
            .iter()
            .map(|&(value, strayed)| Step { value, strayed })
            .collect();
        lambda_returns(&steps, |v| *v, |v, next| (1.0 - lambda) * v - lambda * next)
    }

    #[test]
    fn returns_blend_backwards_through_alternating_sides() {
        // The last mover won (+1); before it the other side saw −0.2, and
        // the first mover +0.4.
        let r = returns(&[(0.4, false), (-0.2, false), (1.0, false)], 0.5);
        assert_eq!(r[2], 1.0);
        assert!((r[1] - (-0.1 - 0.5)).abs() < 1e-6, "{r:?}");
        assert!((r[0] - (0.5 * 0.4 + 0.5 * 0.6)).abs() < 1e-6, "{r:?}");
    }

    #[test]
    fn lambda_one_is_the_result_and_zero_the_next_value() {
        let steps = [(0.3, false), (-0.1, false), (0.8, false), (1.0, false)];
        assert_eq!(returns(&steps, 1.0), vec![-1.0, 1.0, -1.0, 1.0]);
        assert_eq!(returns(&steps, 0.0), vec![0.3, -0.1, 0.8, 1.0]);
    }

    #[test]
    fn a_stray_move_cuts_the_trace() {
        // The second step explored: its return is its best value alone,
        // and the first step's return carries that value, not the result.
        let r = returns(&[(0.2, false), (0.5, true), (-1.0, false)], 1.0);
        assert_eq!(r, vec![-0.5, 0.5, -1.0]);
    }
}
