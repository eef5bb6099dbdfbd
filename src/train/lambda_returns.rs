//! TD(λ) targets of one self-play game, for every game the trainer plays:
//! backgammon's [`Probs`](crate::eval::Probs) and the other games' output
//! vectors go through the same backward pass, so a fix to how returns are
//! formed (such as the cut after an exploratory move) reaches all three.

/// One decision of a self-play game, from the side that made it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step<V> {
    /// What the best move leads to (the exact result when it ends the
    /// game, else the network's view of the position it leaves).
    pub best_value: V,
    /// Whether the move played was another (an exploratory move).
    pub strayed: bool,
}

/// The λ-return of every step, in order. The last step's return is its
/// best move's value; each earlier one blends its own best value with the
/// next step's return seen from the other side,
/// `(1 − λ)·value + λ·flip(next)`. A step that strayed from its best move
/// starts afresh from the best move's value (Watkins' cut): the returns
/// after it followed another move, so they say nothing of the best one.
pub fn lambda_returns<V: Clone>(
    steps: &[Step<V>],
    lambda: f32,
    flip: impl Fn(&V) -> V,
    blend: impl Fn(&V, &V, f32) -> V,
) -> Vec<V> {
    let mut out: Vec<V> = Vec::with_capacity(steps.len());
    for step in steps.iter().rev() {
        let ret = match out.last() {
            Some(next) if !step.strayed => blend(&step.best_value, &flip(next), lambda),
            _ => step.best_value.clone(),
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
            .map(|&(best_value, strayed)| Step {
                best_value,
                strayed,
            })
            .collect();
        lambda_returns(&steps, lambda, |v| -v, |v, g, l| (1.0 - l) * v + l * g)
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
