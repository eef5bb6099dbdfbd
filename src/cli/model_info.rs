//! `kotra-ai model`: what a model file holds (the shipped one by default).

use crate::eval::{Model, shipped_model};
use std::path::Path;

pub fn run(path: Option<&Path>) -> anyhow::Result<()> {
    let (model, name) = match path {
        Some(p) => (Model::load(p)?, p.display().to_string()),
        None => (
            shipped_model()?,
            "shipped network (models/kotra.net)".into(),
        ),
    };
    println!("{name}");
    println!("  description: {}", model.meta.description);
    println!("  self-play games: {}", model.meta.games_trained);
    println!("  input encoding: version {}", model.meta.encoding_version);
    for (label, net) in [("contact", &model.contact), ("race", &model.race)] {
        println!("  {label} network: {}-{}-5", net.inputs, net.hidden);
    }
    Ok(())
}
