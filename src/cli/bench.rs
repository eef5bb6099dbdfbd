use crate::bench::movegen::{Class, PositionSet, RollKind, measure};
use anyhow::Context;

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
