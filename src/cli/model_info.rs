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
    println!(
        "  description: {}",
        without_machine_paths(&model.meta.description)
    );
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

/// `text` with every absolute path cut to its file name: a description
/// names the files its run read, and the training machine's folders
/// (`/work/tmp/s34/r4.net`) mean nothing to a reader elsewhere.
fn without_machine_paths(text: &str) -> String {
    text.split(' ')
        .map(|word| match word.strip_prefix('/') {
            Some(rest) if rest.contains('/') => word.rsplit('/').next().unwrap_or(word).to_string(),
            _ => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
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

#[cfg(test)]
mod tests {
    #[test]
    fn machine_paths_are_cut_to_file_names() {
        assert_eq!(
            super::without_machine_paths(
                "distillation of models/kotra-v27.net into /work/tmp/s34/r4.net, and games by /tmp/x/r5.net"
            ),
            "distillation of models/kotra-v27.net into r4.net, and games by r5.net"
        );
        assert_eq!(super::without_machine_paths("TD(λ) 1/2 /"), "TD(λ) 1/2 /");
    }
}
