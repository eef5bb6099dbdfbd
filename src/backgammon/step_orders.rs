//! Every order in which a legal move's single checker steps can be played,
//! one die at a time: what a board needs to let a player move checker by
//! checker (and light up where a checker may go) while the rules stay
//! here. The move generator keeps one play per resulting position; a
//! player may reach that position by other orders (6-1 as 13/7/6 or
//! 13/12/6, a hit on the way or not), and each order is a different path
//! on the board.

use super::movegen::{MoveList, legal_moves};
use super::{Dice, Play, Position, Step};

/// The step orders of `dice` in `position`: each a sequence of single
/// steps, every step legal when it is played, ending on one of the legal
/// moves' positions with as many steps as they have. Empty when the roll
/// cannot be played. Not for hot paths: it allocates.
pub fn step_orders(position: &Position, dice: Dice) -> Vec<(Play, Position)> {
    let mut list = MoveList::new();
    legal_moves(position, dice, &mut list);
    if list.is_forfeit() {
        return Vec::new();
    }
    let length = list.as_slice()[0].play.len();
    let mut finals: Vec<Position> = list.iter().map(|c| c.position).collect();
    finals.sort_unstable_by_key(|p| *p.raw());
    let dice: Vec<usize> = if dice.is_double() {
        vec![dice.high() as usize; 4]
    } else {
        vec![dice.high() as usize, dice.low() as usize]
    };
    let mut out = Vec::new();
    walk(
        position,
        &dice,
        length,
        &mut Play::default(),
        &finals,
        &mut out,
    );
    out
}

fn walk(
    at: &Position,
    dice: &[usize],
    length: usize,
    play: &mut Play,
    finals: &[Position],
    out: &mut Vec<(Play, Position)>,
) {
    if play.len() == length {
        if finals.binary_search_by_key(at.raw(), |p| *p.raw()).is_ok() {
            out.push((*play, *at));
        }
        return;
    }
    let mut buf = [Step::default(); 16];
    for (k, &die) in dice.iter().enumerate() {
        // The same die value twice (doubles) gives the same steps.
        if dice[..k].contains(&die) {
            continue;
        }
        let rest: Vec<usize> = dice
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .map(|(_, &d)| d)
            .collect();
        let n = at.single_moves(die, &mut buf);
        for step in &buf[..n] {
            let mut next = *at;
            next.apply_step(step.from as usize, step.to as usize);
            play.push(*step);
            walk(&next, &rest, length, play, finals, out);
            play.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::position_id;
    use std::collections::BTreeSet;

    fn orders(id: &str, dice: &str) -> (Vec<(Play, Position)>, MoveList) {
        let pos = position_id::decode(id).unwrap();
        let dice: Dice = dice.parse().unwrap();
        let mut list = MoveList::new();
        legal_moves(&pos, dice, &mut list);
        (step_orders(&pos, dice), list)
    }

    /// Every order ends on a legal move, every legal move has an order,
    /// and each order replays step by step to its position.
    fn check(id: &str, dice: &str) -> usize {
        let (orders, list) = orders(id, dice);
        let pos = position_id::decode(id).unwrap();
        let reached: BTreeSet<_> = orders.iter().map(|(_, p)| *p.raw()).collect();
        let legal: BTreeSet<_> = if list.is_forfeit() {
            BTreeSet::new()
        } else {
            list.iter().map(|c| *c.position.raw()).collect()
        };
        assert_eq!(reached, legal, "{id} {dice}");
        for (play, end) in &orders {
            assert_eq!(pos.apply_play(play), *end);
        }
        orders.len()
    }

    #[test]
    fn six_two_from_the_start_has_both_orders_of_each_run() {
        let (orders, _) = orders("4HPwATDgc/ABMA", "62");
        let steps: Vec<Vec<(u8, u8)>> = orders
            .iter()
            .map(|(p, _)| p.steps().map(|s| (s.from, s.to)).collect())
            .collect();
        assert!(steps.contains(&vec![(13, 7), (7, 5)]));
        assert!(steps.contains(&vec![(13, 11), (11, 5)]));
        assert!(steps.contains(&vec![(24, 18), (18, 16)]));
        assert!(steps.contains(&vec![(24, 22), (22, 16)]));
        // 18/12 would land on the opponent's five checkers.
        assert!(!steps.iter().any(|s| s.contains(&(18, 12))));
        check("4HPwATDgc/ABMA", "62");
    }

    #[test]
    fn orders_cover_exactly_the_legal_moves_along_random_games() {
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..40 {
            let mut pos = Position::starting();
            while !pos.is_game_over() {
                let dice = Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).unwrap();
                let id = position_id::encode(&pos);
                check(&id, &dice.to_string());
                checked += 1;
                let mut list = MoveList::new();
                legal_moves(&pos, dice, &mut list);
                let pick = rng.random_range(0..list.len());
                pos = list.as_slice()[pick].position.swap();
            }
        }
        assert!(checked > 1000, "{checked} positions");
    }

    #[test]
    fn a_roll_that_cannot_be_played_has_no_order() {
        // Closed board against a checker on the bar.
        let pos = Position::from_points(
            &[(25, 1), (13, 14)],
            &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2)],
        );
        assert!(step_orders(&pos, "66".parse().unwrap()).is_empty());
    }
}
