use crate::bench::movegen::{Class, PositionSet, RollKind, measure};
use anyhow::Context;

/// Network evaluation and 0-ply move-choice speed with the shipped model
/// or `model`.
pub fn eval(seconds: f64, model: Option<&std::path::Path>) -> anyhow::Result<()> {
    let set = PositionSet::builtin();
    let eval = crate::eval::Evaluator::new(crate::eval::model_or_shipped(model)?);
    let name = model.map_or("shipped network".to_string(), |p| p.display().to_string());
    println!(
        "evaluation speed, {name}, 1 thread ({} contact, {} race positions)",
        set.contact.len(),
        set.race.len()
    );
    for m in crate::bench::eval::measure(&eval, &set.contact, &set.race, seconds) {
        println!(
            "{:<28} {:>12.0} /s {:>10.1} ns each",
            m.what, m.per_second, m.ns_each
        );
    }
    Ok(())
}

pub fn movegen(positions: Option<&std::path::Path>, seconds: f64) -> anyhow::Result<()> {
    let set = match positions {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            PositionSet::parse(&text)
                .with_context(|| format!("bad positions file {}", path.display()))?
        }
        None => PositionSet::builtin(),
    };
    println!(
        "legal-move generation, {} contact + {} race positions x 21 rolls, {} thread",
        set.contact.len(),
        set.race.len(),
        1
    );
    println!(
        "{:<8} {:<8} {:>9} {:>12} {:>14} {:>16}",
        "class", "rolls", "positions", "ns/(pos,roll)", "ns/result", "results/pass"
    );
    for class in [Class::Contact, Class::Race] {
        for kind in [RollKind::Mixed, RollKind::Doubles] {
            if let Some(m) = measure(&set, class, kind, seconds) {
                println!(
                    "{:<8} {:<8} {:>9} {:>12.1} {:>14.2} {:>16}",
                    format!("{class:?}").to_lowercase(),
                    format!("{kind:?}").to_lowercase(),
                    m.positions,
                    m.ns_per_pair,
                    m.ns_per_result,
                    m.results_per_pass
                );
            }
        }
    }
    Ok(())
}

/// Analysis latency over dev-set decisions.
pub fn analyze(
    set: &std::path::Path,
    positions: usize,
    ply: u8,
    pruning: super::PruningArgs,
) -> anyhow::Result<()> {
    super::search_ply_arg(ply)?;
    let dev = crate::train::dev_set::DevSet::load(set)?;
    let step = (dev.decisions.len() / positions.max(1)).max(1);
    let decisions: Vec<_> = dev
        .decisions
        .iter()
        .step_by(step)
        .take(positions)
        .map(|d| (d.position, d.dice))
        .collect();
    let eval = crate::eval::Evaluator::new(crate::eval::shipped_model()?);
    let (moves, cube) = crate::bench::analysis::analysis(
        &eval,
        &decisions,
        ply,
        pruning.prune(),
        pruning.preselect,
    );
    println!(
        "{ply}-ply analysis of {} dev decisions, shipped network, {} threads (ms per decision)",
        decisions.len(),
        rayon::current_num_threads()
    );
    println!(
        "{:<10} {:>9} {:>9} {:>9} {:>9}",
        "kind", "median", "mean", "p95", "max"
    );
    let [ranked, explained, decided, cube_explained] =
        crate::bench::analysis::explanation_cost(&eval, &decisions, ply);
    for (kind, t) in [
        ("moves", &moves),
        ("cube", &cube),
        ("ranked", &ranked),
        ("explained", &explained),
        ("decided", &decided),
        ("cube why", &cube_explained),
    ] {
        println!(
            "{kind:<10} {:>9.2} {:>9.2} {:>9.2} {:>9.2}",
            t.quantile(0.5),
            t.mean(),
            t.quantile(0.95),
            t.quantile(1.0)
        );
    }
    println!(
        "explaining the top {} moves adds {:.1}% to the facade's ranking, the cube's explanation {:.1}% to its decision (mean against mean)",
        crate::analysis::EXPLAINED,
        100.0 * explained.mean() / ranked.mean().max(1e-9),
        100.0 * cube_explained.mean() / decided.mean().max(1e-9)
    );
    Ok(())
}

/// Rollout games per second, with and without luck adjustment.
pub fn rollout(
    trials: u32,
    ply: i64,
    filter: Option<crate::search::MoveFilter>,
    middle: Option<crate::search::OnePlyPass>,
    cubeful: bool,
    pruning: super::PruningArgs,
) -> anyhow::Result<()> {
    let request = crate::analysis::RolloutRequest {
        trials: u64::from(trials),
        ply,
        filter,
        middle,
        ..Default::default()
    };
    let settings = request.check()?.settings;
    let eval = crate::eval::Evaluator::new(crate::eval::shipped_model()?);
    let threads = rayon::current_num_threads();
    println!(
        "{}-ply {} rollouts of the opening position, {trials} games, {threads} threads, move filter {}{}",
        settings.ply,
        if cubeful { "cubeful" } else { "cubeless" },
        settings.move_filter(),
        super::rollout::one_ply_pass_words(&settings)
    );
    for vr in [false, true] {
        let settings = crate::rollout::RolloutSettings {
            variance_reduction: vr,
            ..settings
        };
        let per_second = crate::bench::analysis::rollout_speed(
            &eval,
            &settings,
            cubeful,
            pruning.prune(),
            pruning.preselect,
        );
        println!(
            "{:<28} {:>9.2} games/s {:>9.2} games/s/thread",
            if vr {
                "with luck adjustment"
            } else {
                "without luck adjustment"
            },
            per_second,
            per_second / threads as f64
        );
    }
    Ok(())
}
