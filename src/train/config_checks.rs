//! The rules a training config must keep, checked at load: each field in
//! its range and every combination that only some training methods use
//! refused with one line, so a run fails at its start rather than with a
//! panic or a useless network hours later. Apart from [`super::config`]
//! because the flat JSON's cross-field rules are as long as the fields.

use super::config::{ConfigError, DistillNets, MAX_LEARNING_RATE, RolloutPick, TrainConfig};
use super::win_window;

impl TrainConfig {
    /// The first rule the config breaks, in one line.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let hidden_ok =
            |h: usize| h > 0 && h <= crate::eval::network::MAX_HIDDEN && h.is_multiple_of(8);
        if !hidden_ok(self.contact_hidden) || !hidden_ok(self.race_hidden) {
            return Err(ConfigError::Invalid(
                "hidden sizes must be multiples of 8 up to 512".into(),
            ));
        }
        if self
            .drop_features
            .iter()
            .any(|&k| k >= crate::eval::encoding::FEATURES_PER_SIDE)
        {
            return Err(ConfigError::Invalid(format!(
                "drop_features: features are numbered 0 to {}",
                crate::eval::encoding::FEATURES_PER_SIDE - 1
            )));
        }
        if self.games_per_step == 0 || self.batch_size == 0 || self.epochs == 0 {
            return Err(ConfigError::Invalid(
                "games_per_step, batch_size and epochs must be positive".into(),
            ));
        }
        if self.target_ply > 2 {
            return Err(ConfigError::Invalid("target_ply is 0, 1 or 2".into()));
        }
        if self.rollout_trials > 0 && (self.target_ply > 0 || self.rollouts_per_game == 0) {
            return Err(ConfigError::Invalid(
                "rollout targets need target_ply 0 and rollouts_per_game > 0".into(),
            ));
        }
        if self.widen_contact > 0 && (!hidden_ok(self.widen_contact) || self.init_model.is_none()) {
            return Err(ConfigError::Invalid(
                "widen_contact needs an init_model and is a multiple of 8 up to 512".into(),
            ));
        }
        if self.contact_mid > 0 && !hidden_ok(self.contact_mid) {
            return Err(ConfigError::Invalid(
                "contact_mid must be a multiple of 8 up to 512".into(),
            ));
        }
        if self.distill_teacher.is_some()
            && (self.target_ply == 0 || self.rollout_trials > 0 || self.weight_average > 0.0)
        {
            return Err(ConfigError::Invalid(
                "distillation needs target_ply 1 or 2 and no rollout_trials or weight_average"
                    .into(),
            ));
        }
        let trains_race =
            self.distill_teacher.is_some() && self.distill_nets.trains(crate::eval::NetKind::Race);
        if self.race_rollout_trials > 0 && !trains_race {
            return Err(ConfigError::Invalid(
                "race_rollout_trials needs a distillation whose distill_nets trains the race network".into(),
            ));
        }
        if self.extra_sets.iter().any(|set| set.race_only) && !trains_race {
            return Err(ConfigError::Invalid(
                "an extra set with race_only needs a distillation whose distill_nets trains the race network".into(),
            ));
        }
        let trains_contact = self.distill_teacher.is_some()
            && self.distill_nets.trains(crate::eval::NetKind::Contact);
        if (self.contact_rollout_trials > 0) != (self.contact_rollouts_per_chunk > 0)
            || (self.contact_rollout_trials > 0 && !trains_contact)
        {
            return Err(ConfigError::Invalid(
                "contact_rollout_trials and contact_rollouts_per_chunk go together, in a distillation whose distill_nets trains the contact network".into(),
            ));
        }
        if let Some(window) = self.contact_rollout_window
            && !(self.contact_rollout_trials > 0 && win_window::is_valid(window))
        {
            return Err(ConfigError::Invalid(
                "contact_rollout_window is [lo, hi] with 0 <= lo < hi <= 1, for contact rollouts"
                    .into(),
            ));
        }
        if self.contact_rollout_pick != RolloutPick::Random && self.contact_rollout_trials == 0 {
            return Err(ConfigError::Invalid(
                "contact_rollout_pick is for contact rollouts (contact_rollout_trials)".into(),
            ));
        }
        if self.target_prune > 0 && self.target_ply == 0 {
            return Err(ConfigError::Invalid(
                "target_prune prunes a search target's tree: it needs target_ply 1 or more".into(),
            ));
        }
        if (self.sibling_moves > 0) != (self.siblings_per_chunk > 0)
            || (self.sibling_moves > 0 && !(trains_contact && self.target_ply > 0))
        {
            return Err(ConfigError::Invalid(
                "sibling_moves and siblings_per_chunk go together, in a distillation with search targets (target_ply 1 or more) whose distill_nets trains the contact network".into(),
            ));
        }
        if self.overlap_play && self.distill_teacher.is_some() {
            return Err(ConfigError::Invalid(
                "overlap_play is for self-play runs: a distillation's teacher games do not wait on its learning".into(),
            ));
        }
        if !self.extra_sets.is_empty() && self.distill_teacher.is_none() {
            return Err(ConfigError::Invalid(
                "extra_sets are teacher games: they need a distillation (distill_teacher)".into(),
            ));
        }
        for (i, set) in self.extra_sets.iter().enumerate() {
            if set.games == 0 || set.weight == 0 {
                return Err(ConfigError::Invalid(format!(
                    "extra_sets[{i}]: games and weight are 1 or more"
                )));
            }
            if set.rollout_trials > 0 {
                if set.target_ply != 0
                    || set.target_prune > 0
                    || set.race_only
                    || set.rollouts_per_game == 0
                    || set.plan == Some(crate::eval::game_plan::GamePlan::Race)
                    || set.rollout_window.is_some_and(|w| !win_window::is_valid(w))
                    || !trains_contact
                {
                    return Err(ConfigError::Invalid(format!(
                        "extra_sets[{i}]: a rollout set (rollout_trials) has target_ply 0, no target_prune or race_only, rollouts_per_game 1 or more, a contact plan, a rollout_window [lo, hi] with 0 <= lo < hi <= 1, and a distillation that trains the contact network"
                    )));
                }
            } else if !(1..=2).contains(&set.target_ply)
                || set.rollouts_per_game != 1
                || set.plan.is_some()
                || set.rollout_window.is_some()
            {
                return Err(ConfigError::Invalid(format!(
                    "extra_sets[{i}]: target_ply is 1 or 2 (0 only with rollout_trials, which rollouts_per_game, plan and rollout_window need)"
                )));
            }
            if self.extra_sets[..i]
                .iter()
                .any(|other| other.folder() == set.folder())
            {
                return Err(ConfigError::Invalid(format!(
                    "extra_sets[{i}]: another set has the same seed and search, so the same games"
                )));
            }
        }
        if !self.banked_rollouts.is_empty() && !trains_contact {
            return Err(ConfigError::Invalid(
                "banked_rollouts are contact targets: they need a distillation whose distill_nets trains the contact network".into(),
            ));
        }
        if self.rollout_weight == 0 {
            return Err(ConfigError::Invalid(
                "rollout_weight must be 1 or more".into(),
            ));
        }
        if self.race_mid > 0 && !(hidden_ok(self.race_mid) && trains_race) {
            return Err(ConfigError::Invalid(
                "race_mid (a multiple of 8 up to 512) needs a distillation that trains the race network".into(),
            ));
        }
        if self.distill_nets == DistillNets::Race && self.init_model.is_none() {
            return Err(ConfigError::Invalid(
                "distill_nets \"race\" keeps the contact network of init_model: name one".into(),
            ));
        }
        if !(self.hard_plan_weight.is_finite() && self.hard_plan_weight > 0.0) {
            return Err(ConfigError::Invalid(
                "hard_plan_weight must be positive".into(),
            ));
        }
        if self.distill_teacher.is_some()
            && !(self.hard_plan_weight >= 1.0 && self.hard_plan_weight.fract() == 0.0)
        {
            return Err(ConfigError::Invalid(
                "distillation repeats hard positions: hard_plan_weight must be a whole number, 1 or more".into(),
            ));
        }
        // `contains` is false for NaN too.
        let unit = |x: f32| (0.0..=1.0).contains(&x);
        if !(unit(self.lambda) && unit(self.exploration) && unit(self.move_noise)) {
            return Err(ConfigError::Invalid(
                "lambda, exploration and move_noise lie in [0, 1]".into(),
            ));
        }
        if !(0.0..1.0).contains(&self.weight_average) {
            return Err(ConfigError::Invalid(
                "weight_average is a decay in [0, 1)".into(),
            ));
        }
        // Adam's step is about the learning rate itself, so a rate past
        // 1 throws every weight far out at the first step.
        let usable = |lr: f64| lr > 0.0 && lr <= MAX_LEARNING_RATE;
        if !usable(self.learning_rate) || !self.learning_rate_end.is_none_or(usable) {
            return Err(ConfigError::Invalid(format!(
                "learning_rate and learning_rate_end lie in (0, {MAX_LEARNING_RATE}]"
            )));
        }
        // (measure_games may be 0: the measurements then play no games.)
        if self.measure_every == 0 {
            return Err(ConfigError::Invalid(
                "measure_every must be 1 or more".into(),
            ));
        }
        let database_only = self.distill_teacher.is_some() && !self.database.is_empty();
        if self.games == 0 && !database_only {
            return Err(ConfigError::Invalid(
                "games must be 1 or more (0 only for a distillation that trains on a database)"
                    .into(),
            ));
        }
        if !self.database.is_empty() && self.distill_teacher.is_none() {
            return Err(ConfigError::Invalid(
                "database positions are trained by a distillation (distill_teacher)".into(),
            ));
        }
        if self.database_weight == 0
            || self.database_rollout_weight == 0
            || self.database.iter().any(|e| e.weight(1) == 0)
        {
            return Err(ConfigError::Invalid(
                "database weights must be 1 or more".into(),
            ));
        }
        Ok(())
    }
}
