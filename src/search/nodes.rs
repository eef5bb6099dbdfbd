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
}
