//! A run's config as a typed plan, made once when the run starts: the
//! method it asks for, each with only the settings its own code reads.
//!
//! The config file stays flat JSON, so that every recipe in training/
//! reproduces its network; `TrainConfig::validate` refuses the
//! combinations that mean nothing, and [`TrainConfig::plan`] turns a valid
//! config into one of these, so a step of self-play or a chunk's rollouts
//! no longer read fields that belong to another method.

use super::config::{DistillNets, RolloutPick, TrainConfig, decayed_rate};
use super::rollout_targets::RolloutTargets;
use super::run_folders;
use super::selfplay::{MovePolicy, TargetSearch};
use std::path::PathBuf;

/// How a run learns.
#[derive(Clone, Debug)]
pub enum TrainPlan {
    /// The network plays itself and learns step by step.
    SelfPlay(SelfPlayPlan),
    /// A fixed teacher's games, then passes of the student over them.
    Distill(Box<DistillPlan>),
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

/// A distillation: its teacher's games, what each chunk of the main set
/// adds, and the student's passes over the whole.
#[derive(Clone, Debug)]
pub struct DistillPlan {
    pub teacher: PathBuf,
    /// How every set's teacher games are played and cut into chunks.
    pub games: TeacherGames,
    /// The main set first, then the extra sets in the config's order.
    pub sets: Vec<SetPlan>,
    pub race_rollouts: Option<RaceRollouts>,
    pub contact_rollouts: Option<ContactRollouts>,
    pub siblings: Option<Siblings>,
    /// Folders of rollouts banked by other runs, trained as contact targets.
    pub banked_rollouts: Vec<PathBuf>,
    /// Position databases (see `TrainConfig::database`), each with how
    /// many times a pass its positions count.
    pub database: Vec<(PathBuf, usize)>,
    pub weighting: Weighting,
    pub passes: Passes,
}

/// How the teacher plays every set's games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TeacherGames {
    pub per_chunk: u64,
    /// The games' own returns (what a search target replaces).
    pub lambda: f32,
    pub policy: MovePolicy,
}

/// One set of teacher games: its folder in the run's output, its seed and
/// size, its targets, its weight in an epoch and its own teacher if any.
#[derive(Clone, Debug)]
pub struct SetPlan {
    pub folder: String,
    pub seed: u64,
    pub games: u64,
    pub targets: SetTargets,
    pub weight: usize,
    pub teacher: Option<PathBuf>,
}

/// How a set's positions get their targets.
#[derive(Clone, Copy, Debug)]
pub enum SetTargets {
    /// Every position of the games, valued by the teacher's search.
    Search(TargetSearch),
    /// A few positions of each game, rolled out by the teacher.
    Rollouts(RolloutTargets),
}

impl SetTargets {
    /// Whether every sample of the set is a rollout target.
    pub fn rolled_out(&self) -> bool {
        matches!(self, SetTargets::Rollouts(_))
    }
}

/// Which samples the student trains and how often each counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weighting {
    pub nets: DistillNets,
    /// The student has a crashed network, which learns those positions.
    pub crashed_net: bool,
    /// How many times more a rolled-out position counts.
    pub rollout_weight: u32,
    /// How many times more a database position with a rollout target
    /// counts (`TrainConfig::database_rollout_weight`).
    pub database_rollout_weight: u32,
    /// How many times a database position from a cube decision counts
    /// (`TrainConfig::database_cube_weight`; 0 leaves it out).
    pub database_cube_weight: u32,
    /// How many times a hard position (back game, holding game, crashed
    /// board) counts.
    pub hard_plan_weight: f32,
}

/// The student's passes over the set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Passes {
    pub epochs: usize,
    pub batch: usize,
    /// From `learning_rate` at the first pass to `learning_rate_end` (if
    /// any) at the last, geometrically.
    pub learning_rate: f64,
    pub learning_rate_end: Option<f64>,
    /// The run's seed, from which each pass's shuffle is seeded.
    pub seed: u64,
}

impl Passes {
    /// The learning rate of pass `pass` (from 0).
    pub fn learning_rate_of(&self, pass: u64) -> f64 {
        let progress = pass as f64 / (self.epochs.max(2) - 1) as f64;
        decayed_rate(self.learning_rate, self.learning_rate_end, progress)
    }
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
        let main_set = SetPlan {
            folder: run_folders::MAIN_SET.into(),
            seed: self.seed,
            games: self.games,
            targets: SetTargets::Search(self.target_search()),
            weight: 1,
            teacher: None,
        };
        let extra_sets = self.extra_sets.iter().map(|set| SetPlan {
            folder: set.folder(),
            seed: set.seed,
            games: set.games,
            targets: set.rollout_targets().map_or(
                SetTargets::Search(set.target_search()),
                SetTargets::Rollouts,
            ),
            weight: set.weight as usize,
            teacher: set.teacher.clone(),
        });
        TrainPlan::Distill(Box::new(DistillPlan {
            teacher: teacher.clone(),
            games: TeacherGames {
                per_chunk: self.games_per_step,
                lambda: self.lambda,
                policy: self.move_policy(),
            },
            sets: std::iter::once(main_set).chain(extra_sets).collect(),
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
            banked_rollouts: self.banked_rollouts.clone(),
            database: self
                .database
                .iter()
                .map(|e| (e.path().to_owned(), e.weight(self.database_weight) as usize))
                .collect(),
            weighting: Weighting {
                nets: self.distill_nets,
                crashed_net: self.crashed_net,
                rollout_weight: self.rollout_weight,
                database_rollout_weight: self.database_rollout_weight,
                database_cube_weight: self.database_cube_weight,
                hard_plan_weight: self.hard_plan_weight,
            },
            passes: Passes {
                epochs: self.epochs,
                batch: self.batch_size,
                learning_rate: self.learning_rate,
                learning_rate_end: self.learning_rate_end,
                seed: self.seed,
            },
        }))
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
            TrainPlan::Distill(d) if matches!(*d, DistillPlan {
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
