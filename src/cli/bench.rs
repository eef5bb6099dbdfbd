use crate::bench::movegen::{Class, PositionSet, RollKind, measure};
use anyhow::Context;

/// Network evaluation and 0-ply move-choice speed with the shipped model.
pub fn eval(seconds: f64) -> anyhow::Result<()> {
    let set = PositionSet::builtin();
    let eval = crate::eval::Evaluator::new(crate::eval::shipped_model()?);
    println!(
        "evaluation speed, shipped network, 1 thread ({} contact, {} race positions)",
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
