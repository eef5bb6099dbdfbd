//! `kotra-ai model`: what a model file holds (the shipped one by default).

use crate::eval::model_or_shipped;
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
        println!("  {label} network: {}-{}-5", net.inputs, net.hidden);
    }
    Ok(())
}
