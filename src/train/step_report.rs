//! What a run reports after its steps: the strength measurement (duels
//! and the dev set) and the progress bars; shared by self-play training
//! and distillation, which both report the same way.

use super::checkpoint::Checkpoint;
use super::curve::CurvePoint;
use super::dev_set::DevSet;
use super::learner;
use crate::eval::Evaluator;
use crate::players::{DuelResult, NetPlayer, PubEvalPlayer, duel};
use crate::seed::splitmix;
use std::sync::Arc;

/// Strength of the current model: mirrored duels against PubEval and the
/// previous measurement's model, and the dev-set error.
pub(super) fn measure(
    state: &Checkpoint,
    dev: Option<&DevSet>,
    loss: learner::StepLoss,
) -> CurvePoint {
    let cfg = &state.config;
    let eval = Arc::new(Evaluator::new(state.published().clone()));
    let me = NetPlayer {
        eval: eval.clone(),
        ply: 0,
    };
    let seed = splitmix(cfg.seed ^ state.games_played);
    let vs_pubeval = duel(&me, &PubEvalPlayer, cfg.measure_games, seed);
    let vs_previous = match &state.previous {
        Some(prev) => {
            let prev = NetPlayer {
                eval: Arc::new(Evaluator::new(prev.clone())),
                ply: 0,
            };
            duel(&me, &prev, cfg.measure_games, seed ^ 7)
        }
        None => DuelResult::not_played(),
    };
    CurvePoint {
        games: state.games_played,
        seconds: state.seconds,
        loss_contact: loss.contact.unwrap_or(f64::NAN),
        loss_race: loss.race.unwrap_or(f64::NAN),
        loss_crashed: loss.crashed.unwrap_or(f64::NAN),
        ppg_pubeval: vs_pubeval.ppg,
        se_pubeval: vs_pubeval.se,
        ppg_previous: vs_previous.ppg,
        se_previous: vs_previous.se,
        dev_mp: dev.map_or(f64::NAN, |d| d.mean_error_mp(&eval)),
    }
}

/// What a training bar counts.
#[derive(Clone, Copy)]
pub(super) enum Steps {
    /// Self-play games: many a second, so their rate and eta mean something.
    Games,
    /// A distillation's teacher games still to play (chunks already on
    /// disk are not counted): quick too.
    TeacherGames,
    /// A distillation's passes: minutes each, and indicatif's rate over a
    /// handful of slow steps reads "0/s, eta 16w", so the bar shows only
    /// the time spent.
    Epochs,
}

/// A bar over `total` steps, `done` of them done before this session.
pub(super) fn progress_bar(
    visible: bool,
    total: u64,
    done: u64,
    steps: Steps,
) -> indicatif::ProgressBar {
    let bar = crate::progress::bar(visible, total, &bar_template(steps));
    bar.set_position(done);
    bar
}

fn bar_template(steps: Steps) -> String {
    const RATE: &str = " ({rate}, eta {eta})";
    let (unit, rate) = match steps {
        Steps::Games => ("games", RATE),
        Steps::TeacherGames => ("teacher games to play", RATE),
        Steps::Epochs => ("epochs", ""),
    };
    format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}{rate} {{prefix}} {{msg}}")
}

#[cfg(test)]
mod tests {
    use super::{Steps, bar_template};

    #[test]
    fn only_a_games_bar_shows_rate_and_eta() {
        assert!(bar_template(Steps::Games).contains("{rate}, eta {eta}"));
        let epochs = bar_template(Steps::Epochs);
        assert!(!epochs.contains("rate") && !epochs.contains("eta"));
        assert!(epochs.contains("{pos}/{len} epochs"));
        assert!(
            bar_template(Steps::TeacherGames)
                .contains("{pos}/{len} teacher games to play ({rate}, eta {eta})")
        );
    }
}
