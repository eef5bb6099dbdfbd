//! Every folder and file name inside a run's folder (and a shards'
//! shared folder), in one place. A name is part of a cache's contract: a
//! run reads the chunks that an earlier run with the same inputs wrote
//! under it, so each name carries exactly the inputs that decide its
//! contents, and changing one orphans every cache made before.

use super::win_window;

/// The main teacher set's chunks.
pub const MAIN_SET: &str = "positions";

/// The shards' chunks, named by content, in a shared folder.
pub const SHARD_CHUNKS: &str = "chunks";

/// An extra set valued by a search: `positions-SEED-PLY-PRUNE`, with
/// `-race` when it keeps race positions alone.
pub fn search_set(seed: u64, ply: u8, prune: u32, race_only: bool) -> String {
    let only = if race_only { "-race" } else { "" };
    format!("positions-{seed}-{ply}-{prune}{only}")
}

/// An extra set valued by rollouts: `rollouts-SEED-TRIALS-PER_GAME`, then
/// the game plan and the win window where they choose the positions.
pub fn rollout_set(
    seed: u64,
    trials: u32,
    per_game: u32,
    plan: Option<&str>,
    window: Option<[f32; 2]>,
) -> String {
    let plan = plan.map_or(String::new(), |p| format!("-{p}"));
    let window = win_window::suffix(window);
    format!("rollouts-{seed}-{trials}-{per_game}{plan}{window}")
}

/// The main set's race positions rolled out: `race-rollouts-TRIALS`.
pub fn race_rollouts(trials: u32) -> String {
    format!("race-rollouts-{trials}")
}

/// The main set's chosen contact positions rolled out:
/// `contact-rollouts-TRIALS-PER_CHUNK`, then the win window and the way
/// of choosing where they differ from a plain random draw (another
/// choice, other positions: another cache).
pub fn contact_rollouts(
    trials: u32,
    per_chunk: u32,
    window: Option<[f32; 2]>,
    by_disagreement: bool,
) -> String {
    let window = win_window::suffix(window);
    let pick = if by_disagreement { "-disagreement" } else { "" };
    format!("contact-rollouts-{trials}-{per_chunk}{window}{pick}")
}

/// The siblings of the main set's chosen positions:
/// `siblings-MOVES-PER_CHUNK`.
pub fn siblings(moves: u32, per_chunk: u32) -> String {
    format!("siblings-{moves}-{per_chunk}")
}

/// Chunk `c`'s file inside any of those folders.
pub fn chunk_file(c: u64) -> String {
    format!("{c:05}.bin")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_what_decides_their_contents() {
        assert_eq!(search_set(7, 2, 8, true), "positions-7-2-8-race");
        assert_eq!(search_set(36, 1, 0, false), "positions-36-1-0");
        assert_eq!(
            rollout_set(35, 144, 1, Some("back_game"), None),
            "rollouts-35-144-1-back_game"
        );
        assert_eq!(
            rollout_set(36, 36, 2, None, Some([0.5, 0.9])),
            "rollouts-36-36-2-w0.5-0.9"
        );
        assert_eq!(race_rollouts(144), "race-rollouts-144");
        assert_eq!(contact_rollouts(4, 5, None, false), "contact-rollouts-4-5");
        assert_eq!(
            contact_rollouts(4, 4, Some([0.2, 0.8]), true),
            "contact-rollouts-4-4-w0.2-0.8-disagreement"
        );
        assert_eq!(siblings(3, 10), "siblings-3-10");
        assert_eq!(chunk_file(12), "00012.bin");
    }
}
