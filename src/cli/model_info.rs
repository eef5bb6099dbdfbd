//! `kotra-ai model`: what a model file holds (the shipped one by default).

use crate::eval::{Model, model_or_shipped};
use crate::train::DATABASE_ENTRY;
use anyhow::Context;
use std::path::Path;

pub fn run(path: Option<&Path>, full: bool) -> anyhow::Result<()> {
    let model = model_or_shipped(path)?;
    let name = path.map_or("shipped network (models/kotra.net)".into(), |p| {
        p.display().to_string()
    });
    println!("{name}");
    let description = without_machine_paths(&model.meta.description);
    let description = if full {
        description
    } else {
        with_database_runs_folded(&description)
    };
    println!("  description: {description}");
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

/// One database entry of a description: `PATH (weight W)` and, after the
/// last of a list, the rest of the description.
struct DescribedEntry<'a> {
    path: &'a str,
    weight: &'a str,
    rest: &'a str,
}

impl<'a> DescribedEntry<'a> {
    fn parse(piece: &'a str) -> Option<DescribedEntry<'a>> {
        let (path, after) = piece.split_once(" (weight ")?;
        let (weight, rest) = after.split_once(')')?;
        Some(DescribedEntry { path, weight, rest })
    }

    /// The folder of a file entry (`None` for a folder named alone).
    fn folder(&self) -> Option<&'a str> {
        self.path.rsplit_once('/').map(|(dir, _)| dir)
    }

    fn file_name(&self) -> &'a str {
        self.path.rsplit('/').next().unwrap_or(self.path)
    }

    /// Whether `next` continues this entry's run: nothing between them,
    /// the same folder and weight.
    fn runs_on_to(&self, next: &DescribedEntry) -> bool {
        self.rest.is_empty()
            && self.folder().is_some()
            && self.folder() == next.folder()
            && self.weight == next.weight
    }
}

/// `text` with each run of three or more database entries that are files
/// of one folder at one weight shown as their count, first and last: a
/// campaign network trains on every batch of the database by name, and
/// its description would otherwise list a hundred file names. The file
/// keeps them all (`--full` prints them).
fn with_database_runs_folded(text: &str) -> String {
    let mut pieces = text.split(DATABASE_ENTRY);
    let mut out = pieces.next().unwrap_or_default().to_string();
    let pieces: Vec<&str> = pieces.collect();
    let entries: Vec<Option<DescribedEntry>> =
        pieces.iter().map(|p| DescribedEntry::parse(p)).collect();
    let mut i = 0;
    while i < pieces.len() {
        let mut end = i;
        while let (Some(Some(this)), Some(Some(next))) = (entries.get(end), entries.get(end + 1))
            && this.runs_on_to(next)
        {
            end += 1;
        }
        match (&entries[i], &entries[end]) {
            (Some(first), Some(last)) if end - i + 1 >= 3 => {
                out += &format!(
                    ", {} files of the position database {} (weight {}), {} to {}{}",
                    end - i + 1,
                    first.folder().unwrap_or_default(),
                    first.weight,
                    first.file_name(),
                    last.file_name(),
                    last.rest,
                );
                i = end + 1;
            }
            _ => {
                out += DATABASE_ENTRY;
                out += pieces[i];
                i += 1;
            }
        }
    }
    out
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

    #[test]
    fn runs_of_one_folders_database_files_are_folded_and_the_rest_kept() {
        let text = "distillation of a.net, the position database d (weight 6), \
                    the position database d/b1.kpd (weight 12), \
                    the position database d/b2.kpd (weight 12), \
                    the position database d/b3.kpd (weight 12), \
                    the position database d/b4.kpd (weight 9), \
                    the position database e/c1.kpd (weight 9), \
                    its rolled-out positions 4 times more, config seed 70";
        assert_eq!(
            super::with_database_runs_folded(text),
            "distillation of a.net, the position database d (weight 6), \
             3 files of the position database d (weight 12), b1.kpd to b3.kpd, \
             the position database d/b4.kpd (weight 9), \
             the position database e/c1.kpd (weight 9), \
             its rolled-out positions 4 times more, config seed 70"
        );
        // A run that ends the list keeps what follows it.
        let tail = "x, the position database d/b1.kpd (weight 1), the position database \
                    d/b2.kpd (weight 1), the position database d/b3.kpd (weight 1), config seed 1";
        assert_eq!(
            super::with_database_runs_folded(tail),
            "x, 3 files of the position database d (weight 1), b1.kpd to b3.kpd, config seed 1"
        );
        // Nothing to fold: the text comes back as it was.
        for same in [
            "TD(λ) self-play, config seed 3",
            "x, the position database d (weight",
        ] {
            assert_eq!(super::with_database_runs_folded(same), same);
        }
    }
}
