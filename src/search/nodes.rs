//! Searched nodes' values, kept so that a node met again is not walked
//! again.
//!
//! A review meets its nodes twice: ranking a move at 2 or 3-ply walks the
//! tree of the position after it, the opponent to roll, with that
//! opponent's cube states (as it is, and doubled); the opponent's next cube
//! decision at the same depth is that very node. Only nodes of 2-ply and
//! deeper are kept: there are few of them and each is thousands of
//! evaluations, while a 1-ply node is cheaper to walk than to look up.
//! A node's values depend only on its position, depth and cube states
//! (and the searcher's fixed settings), so a kept value is exactly what
//! walking it again would give.
//!
//! 1-ply nodes are many and cheap, but a searching rollout meets them
//! again and again: a 2-ply move choice walks, below each candidate, the
//! positions the next choices start from, and a cubeful rollout's cube
//! decision at 1-ply is the node the previous move's ranking walked. They
//! go to a direct-mapped table instead ([`LeafStore`]), which costs one
//! lookup where a map with a lock would cost more than the walk.

use super::table::PositionTable;
use crate::backgammon::Position;
use crate::cube::CubeState;
use crate::eval::Probs;
use std::collections::HashMap;
use std::sync::Mutex;

/// Nodes shallower than this are walked, never kept.
pub(super) const MIN_KEPT_PLY: u8 = 2;

/// Past this many kept nodes the store starts afresh: a review's nodes are
/// wanted by the next decision or two, not by the rest of the match.
const MAX_NODES: usize = 1 << 14;

struct Node {
    states: Vec<CubeState>,
    probs: Probs,
    values: Vec<f32>,
}

#[derive(Default)]
pub(super) struct NodeStore {
    nodes: Mutex<HashMap<(Position, u8), Vec<Node>>>,
}

impl NodeStore {
    /// The kept probabilities of the node, its values copied into `out`.
    pub(super) fn get(
        &self,
        pos: &Position,
        ply: u8,
        states: &[CubeState],
        out: &mut [f32],
    ) -> Option<Probs> {
        let nodes = self.nodes.lock().ok()?;
        let node = nodes
            .get(&(*pos, ply))?
            .iter()
            .find(|n| n.states == states)?;
        out.copy_from_slice(&node.values);
        Some(node.probs)
    }

    pub(super) fn put(
        &self,
        pos: &Position,
        ply: u8,
        states: &[CubeState],
        probs: Probs,
        values: &[f32],
    ) {
        let Ok(mut nodes) = self.nodes.lock() else {
            return;
        };
        if nodes.len() >= MAX_NODES {
            nodes.clear();
        }
        let kept = nodes.entry((*pos, ply)).or_default();
        if !kept.iter().any(|n| n.states == states) {
            kept.push(Node {
                states: states.to_vec(),
                probs,
                values: values.to_vec(),
            });
        }
    }

    /// Forgets every node (the searcher's settings changed).
    pub(super) fn clear(&self) {
        if let Ok(mut nodes) = self.nodes.lock() {
            nodes.clear();
        }
    }
}

/// The most cube states a kept 1-ply node carries: a 2-ply cubeful
/// search's deepest nodes carry four.
const LEAF_STATES: usize = 4;

#[derive(Clone, Copy)]
struct LeafNode {
    n: u8,
    states: [CubeState; LEAF_STATES],
    probs: Probs,
    values: [f32; LEAF_STATES],
}

/// Kept 1-ply nodes, one a slot of a [`PositionTable`]: a newer node
/// replaces an older one, and a busy slot is a miss.
pub(super) struct LeafStore {
    table: PositionTable<LeafNode>,
}

impl LeafStore {
    /// A store of `2^bits` slots.
    pub(super) fn new(bits: u32) -> LeafStore {
        LeafStore {
            table: PositionTable::new(bits),
        }
    }

    /// The kept probabilities of the 1-ply node, its values copied into
    /// `out`.
    pub(super) fn get(
        &self,
        pos: &Position,
        states: &[CubeState],
        out: &mut [f32],
    ) -> Option<Probs> {
        if states.len() > LEAF_STATES {
            return None;
        }
        self.table
            .read(pos, |node| {
                (node.states[..usize::from(node.n)] == *states).then(|| {
                    out.copy_from_slice(&node.values[..states.len()]);
                    node.probs
                })
            })
            .flatten()
    }

    pub(super) fn put(&self, pos: &Position, states: &[CubeState], probs: Probs, values: &[f32]) {
        if states.len() > LEAF_STATES {
            return;
        }
        let mut node = LeafNode {
            n: states.len() as u8,
            states: [CubeState::money(); LEAF_STATES],
            probs,
            values: [0.0; LEAF_STATES],
        };
        node.states[..states.len()].copy_from_slice(states);
        node.values[..states.len()].copy_from_slice(values);
        self.table.put(pos, node);
    }

    /// Forgets every node (the searcher's settings changed).
    pub(super) fn clear(&self) {
        self.table.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_found_only_with_its_depth_and_cube_states() {
        let store = NodeStore::default();
        let pos = Position::starting();
        let states = [CubeState::money(), CubeState::money().doubled()];
        let probs = Probs([0.5, 0.1, 0.0, 0.1, 0.0]);
        store.put(&pos, 2, &states, probs, &[0.25, 0.5]);
        let mut out = [0.0; 2];
        assert_eq!(store.get(&pos, 2, &states, &mut out), Some(probs));
        assert_eq!(out, [0.25, 0.5]);
        assert_eq!(store.get(&pos, 3, &states, &mut out), None);
        assert_eq!(store.get(&pos, 2, &states[..1], &mut out[..1]), None);
        store.clear();
        assert_eq!(store.get(&pos, 2, &states, &mut out), None);
    }

    #[test]
    fn a_leaf_is_found_only_with_its_position_and_cube_states() {
        let store = LeafStore::new(4);
        let pos = Position::starting();
        let states = [CubeState::money(), CubeState::money().doubled()];
        let probs = Probs([0.5, 0.1, 0.0, 0.1, 0.0]);
        store.put(&pos, &states, probs, &[0.25, 0.5]);
        let mut out = [0.0; 2];
        assert_eq!(store.get(&pos, &states, &mut out), Some(probs));
        assert_eq!(out, [0.25, 0.5]);
        assert_eq!(store.get(&pos, &states[..1], &mut out[..1]), None);
        let other = crate::backgammon::with_legal_moves(
            &pos,
            crate::backgammon::Dice::new(3, 1).unwrap(),
            |l| l.as_slice()[0].position,
        );
        assert_eq!(store.get(&other, &states, &mut out), None);
        // More states than a slot holds are never kept.
        let many = [CubeState::money(); LEAF_STATES + 1];
        store.put(&pos, &many, probs, &[0.0; LEAF_STATES + 1]);
        assert_eq!(store.get(&pos, &states, &mut out), Some(probs));
        store.clear();
        assert_eq!(store.get(&pos, &states, &mut out), None);
    }
}
