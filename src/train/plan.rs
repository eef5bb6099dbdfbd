//! A run's config as a typed plan, made once when the run starts: the
//! method it asks for, each with only the settings its own code reads.
//!
//! The config file stays flat JSON, so that every recipe in training/
//! reproduces its network; `TrainConfig::validate` refuses the
//! combinations that mean nothing, and [`TrainConfig::plan`] turns a valid
//! config into one of these, so a step of self-play or a chunk's rollouts
//! no longer read fields that belong to another method.

use super::config::{RolloutPick, TrainConfig};
use super::rollout_targets::RolloutTargets;
use super::selfplay::{MovePolicy, TargetSearch};
use std::path::PathBuf;

/// How a run learns.
#[derive(Clone, Debug)]
pub enum TrainPlan {
    /// The network plays itself and learns step by step.
    SelfPlay(SelfPlayPlan),
    /// A fixed teacher's games, then passes of the student over them.
    Distill(DistillPlan),
}

/// A self-play run's steps.
#[derive(Clone, Debug)]
pub struct SelfPlayPlan {
    pub targets: SelfPlayTargets,
    /// Each step's games played during the step before's learning.
    pub overlap_play: bool,
}

/// What a self-play position learns towards, each with the games' move
/// policy (rollout targets carry theirs inside).
#[derive(Clone, Debug)]
pub enum SelfPlayTargets {
    /// Its λ-return, replaced by a search's value where `search.ply` > 0.
    Returns {
        lambda: f32,
        search: TargetSearch,
        policy: MovePolicy,
    },
    /// Rollouts of a few positions of each game.
    Rollouts(RolloutTargets),
}

/// What a distillation adds to each chunk of its main set's teacher games.
#[derive(Clone, Debug)]
pub struct DistillPlan {
    pub teacher: PathBuf,
    pub race_rollouts: Option<RaceRollouts>,
    pub contact_rollouts: Option<ContactRollouts>,
    pub siblings: Option<Siblings>,
}

/// Every race position of a chunk rolled out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceRollouts {
    pub trials: u32,
    /// The run's seed, from which each chunk's rollouts are seeded.
    pub seed: u64,
}

/// Some contact positions of each chunk rolled out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactRollouts {
    pub trials: u32,
    pub per_chunk: u32,
    /// Only positions whose teacher value gives a win chance in it.
    pub window: Option<[f32; 2]>,
    pub pick: RolloutPick,
    /// The run's seed, from which each chunk's draw is seeded.
    pub seed: u64,
}

/// The siblings (the best other plays) of some contact positions of each
/// chunk, searched by the teacher.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Siblings {
    pub moves: u32,
    pub per_chunk: u32,
    pub search: TargetSearch,
    /// The run's seed, from which each chunk's draw is seeded.
    pub seed: u64,
}

impl TrainConfig {
    /// The plan of this config, which `validate` has passed.
    pub fn plan(&self) -> TrainPlan {
        let Some(teacher) = &self.distill_teacher else {
            let targets = if self.rollout_trials > 0 {
                SelfPlayTargets::Rollouts(RolloutTargets {
                    trials: self.rollout_trials,
                    per_game: self.rollouts_per_game,
                    hard_weight: self.hard_plan_weight,
                    plan: None,
                    window: None,
                    policy: self.move_policy(),
                })
            } else {
                SelfPlayTargets::Returns {
                    lambda: self.lambda,
                    search: self.target_search(),
                    policy: self.move_policy(),
                }
            };
            return TrainPlan::SelfPlay(SelfPlayPlan {
                targets,
                overlap_play: self.overlap_play,
            });
        };
        TrainPlan::Distill(DistillPlan {
            teacher: teacher.clone(),
            race_rollouts: (self.race_rollout_trials > 0).then_some(RaceRollouts {
                trials: self.race_rollout_trials,
                seed: self.seed,
            }),
            contact_rollouts: (self.contact_rollout_trials > 0).then_some(ContactRollouts {
                trials: self.contact_rollout_trials,
                per_chunk: self.contact_rollouts_per_chunk,
                window: self.contact_rollout_window,
                pick: self.contact_rollout_pick,
                seed: self.seed,
            }),
            siblings: (self.sibling_moves > 0).then_some(Siblings {
                moves: self.sibling_moves,
                per_chunk: self.siblings_per_chunk,
                search: self.target_search(),
                seed: self.seed,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(json: &str) -> TrainConfig {
        let cfg: TrainConfig = serde_json::from_str(json).unwrap();
        cfg.validate().unwrap();
        cfg
    }

    #[test]
    fn each_method_gets_only_its_part() {
        let td = config(r#"{"lambda": 0.5, "exploration": 0.1}"#).plan();
        let TrainPlan::SelfPlay(sp) = td else {
            panic!("{td:?}")
        };
        let SelfPlayTargets::Returns {
            lambda,
            search,
            policy,
        } = sp.targets
        else {
            panic!("{:?}", sp.targets)
        };
        assert_eq!(policy.exploration, 0.1);
        assert!(lambda == 0.5 && search.ply == 0);
        let rolled = config(r#"{"rollout_trials": 36, "rollouts_per_game": 2}"#).plan();
        assert!(matches!(
            rolled,
            TrainPlan::SelfPlay(SelfPlayPlan { targets: SelfPlayTargets::Rollouts(r), .. }) if r.trials == 36 && r.per_game == 2
        ));
        let distill = config(
            r#"{"seed": 4, "distill_teacher": "t.net", "target_ply": 1, "distill_nets": "both",
                "race_rollout_trials": 72, "contact_rollout_trials": 36, "contact_rollouts_per_chunk": 3,
                "sibling_moves": 2, "siblings_per_chunk": 5}"#,
        )
        .plan();
        let TrainPlan::Distill(d) = distill else {
            panic!("{distill:?}")
        };
        assert_eq!(d.teacher, PathBuf::from("t.net"));
        assert_eq!(
            d.race_rollouts,
            Some(RaceRollouts {
                trials: 72,
                seed: 4
            })
        );
        let contact = d.contact_rollouts.unwrap();
        assert_eq!(
            (contact.trials, contact.per_chunk, contact.seed),
            (36, 3, 4)
        );
        let siblings = d.siblings.unwrap();
        assert_eq!(
            (siblings.moves, siblings.per_chunk, siblings.search.ply),
            (2, 5, 1)
        );
        let plain = config(r#"{"distill_teacher": "t.net", "target_ply": 2}"#).plan();
        assert!(matches!(
            plain,
            TrainPlan::Distill(DistillPlan {
                race_rollouts: None,
                contact_rollouts: None,
                siblings: None,
                ..
            })
        ));
    }

    #[test]
    fn overlap_play_is_for_self_play_alone() {
        let overlapped = config(r#"{"overlap_play": true}"#).plan();
        assert!(matches!(
            overlapped,
            TrainPlan::SelfPlay(SelfPlayPlan {
                overlap_play: true,
                ..
            })
        ));
        let cfg: TrainConfig = serde_json::from_str(
            r#"{"overlap_play": true, "distill_teacher": "t.net", "target_ply": 1}"#,
        )
        .unwrap();
        let err = cfg.validate().unwrap_err().to_string();
        assert!(err.contains("overlap_play is for self-play runs"), "{err}");
    }
}
