//! The words a trained model carries (`model.meta.description`): how
//! its run made it, from the config alone.

use super::{RolloutPick, TrainConfig};

/// What comes before each database entry's `PATH (weight W)`: `kotra-ai
/// model` finds the entries by it to fold a long list.
pub const DATABASE_ENTRY: &str = ", the position database ";

/// How a run with `cfg` makes its model, in one line.
pub(super) fn describe(cfg: &TrainConfig) -> String {
    if let Some(teacher) = &cfg.distill_teacher {
        let from = cfg
            .init_model
            .as_ref()
            .map_or(String::new(), |init| format!(" into {}", init.display()));
        let mut rolled = String::new();
        if cfg.contact_rollout_trials > 0 {
            rolled += &format!(
                ", {} contact positions a chunk rolled out ({} trials, weight {})",
                cfg.contact_rollouts_per_chunk, cfg.contact_rollout_trials, cfg.rollout_weight
            );
            if let Some([lo, hi]) = cfg.contact_rollout_window {
                rolled += &format!(", drawn where the win chance is {lo} to {hi}");
            }
            if cfg.contact_rollout_pick == RolloutPick::Disagreement {
                rolled += ", those whose static and search values differ most";
            }
        }
        if cfg.sibling_moves > 0 {
            rolled += &format!(
                ", siblings of {} positions a chunk (best {} plays)",
                cfg.siblings_per_chunk, cfg.sibling_moves
            );
        }
        if cfg.race_rollout_trials > 0 {
            rolled += &format!(
                ", race positions rolled out ({} trials)",
                cfg.race_rollout_trials
            );
        }
        for set in &cfg.extra_sets {
            let pruned = match set.target_prune {
                0 => String::new(),
                k => format!(" ({k} replies a roll)"),
            };
            let by = set
                .teacher
                .as_ref()
                .map_or(String::new(), |t| format!(" by {}", t.display()));
            let only = if set.race_only {
                " (race positions only)"
            } else {
                ""
            };
            let valued = if set.rollout_trials > 0 {
                let plan = set.plan.map_or(String::new(), |p| format!(" {}", p.name()));
                let window = set.rollout_window.map_or(String::new(), |[lo, hi]| {
                    format!(" with a win chance from {lo} to {hi}")
                });
                format!(
                    ": {}{plan} positions a game{window} rolled out ({} trials)",
                    set.rollouts_per_game, set.rollout_trials
                )
            } else {
                format!(" at {}-ply{pruned}{only}", set.target_ply)
            };
            rolled += &format!(
                ", and {} games of seed {}{by}{valued}, weight {}",
                set.games, set.seed, set.weight
            );
        }
        for dir in &cfg.banked_rollouts {
            rolled += &format!(", the rollouts banked in {}", dir.display());
        }
        for entry in &cfg.database {
            rolled += &format!(
                "{DATABASE_ENTRY}{} (weight {})",
                entry.path().display(),
                entry.weight(cfg.database_weight)
            );
        }
        if !cfg.database.is_empty() && cfg.database_rollout_weight > 1 {
            rolled += &format!(
                ", its rolled-out positions {} times more",
                cfg.database_rollout_weight
            );
        }
        if !cfg.database.is_empty() {
            match cfg.database_cube_weight {
                1 => {}
                0 => rolled += ", its cube-decision positions left out",
                w => rolled += &format!(", its cube-decision positions {w} times more"),
            }
        }
        format!(
            "kotra-ai distillation of {}'s {}-ply search over {} of its games{from}{rolled}, config seed {}",
            teacher.display(),
            cfg.target_ply,
            cfg.games,
            cfg.seed
        )
    } else {
        // Every self-play method can overlap its steps.
        let overlap = if cfg.overlap_play {
            ", each step's games played during the step before's learning"
        } else {
            ""
        };
        let method = if cfg.rollout_trials > 0 {
            format!(
                "kotra-ai self-play with {}-trial rollout targets",
                cfg.rollout_trials
            )
        } else if cfg.target_ply > 0 {
            format!(
                "kotra-ai self-play with {}-ply search targets",
                cfg.target_ply
            )
        } else {
            "kotra-ai TD(λ) self-play".to_string()
        };
        format!("{method}{overlap}, config seed {}", cfg.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_run_names_how_its_origins_are_weighted() {
        let mut cfg = TrainConfig {
            distill_teacher: Some("teacher.net".into()),
            database: vec![crate::train::DatabaseEntry::Path("training/data".into())],
            ..Default::default()
        };
        let plain = describe(&cfg);
        assert!(plain.contains(DATABASE_ENTRY), "{plain}");
        assert!(
            !plain.contains("cube-decision") && !plain.contains("rolled-out"),
            "{plain}"
        );
        cfg.database_rollout_weight = 4;
        cfg.database_cube_weight = 0;
        let left_out = describe(&cfg);
        assert!(
            left_out.contains("its rolled-out positions 4 times more"),
            "{left_out}"
        );
        assert!(
            left_out.contains("its cube-decision positions left out"),
            "{left_out}"
        );
        cfg.database_cube_weight = 3;
        assert!(describe(&cfg).contains("its cube-decision positions 3 times more"));
    }
}
