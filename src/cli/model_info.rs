//! `kotra-ai model`: what a model file holds (the shipped one by default).

use crate::eval::{Model, model_or_shipped};
use anyhow::Context;
use std::path::Path;

pub fn run(path: Option<&Path>) -> anyhow::Result<()> {
    let model = model_or_shipped(path)?;
    let name = path.map_or("shipped network (models/kotra.net)".into(), |p| {
        p.display().to_string()
    });
    println!("{name}");
    println!("  description: {}", model.meta.description);
    println!("  self-play games: {}", model.meta.games_trained);
    println!("  input encoding: version {}", model.meta.encoding_version);
    for (label, net) in [("contact", &model.contact), ("race", &model.race)] {
        println!("  {label} network: {}", net.shape());
    }
    match &model.crashed {
        Some(net) => println!("  crashed network: {}", net.shape()),
        None => println!(
            "  crashed network: none (the contact network evaluates back games and crashed boards)"
        ),
    }
    Ok(())
}

/// `kotra-ai model [PATH] --race-from OTHER --out FILE`.
pub fn combine(path: Option<&Path>, race_from: &Path, out: &Path) -> anyhow::Result<()> {
    let model = model_or_shipped(path)?;
    let other = Model::load(race_from)?;
    let combined = model.with_race_from(&other, &race_from.display().to_string());
    combined
        .save(out)
        .with_context(|| format!("writing {}", out.display()))?;
    println!(
        "{}: contact network of {}, race network of {}",
        out.display(),
        path.map_or("the shipped network".into(), |p| p.display().to_string()),
        race_from.display()
    );
    Ok(())
}
