//! The recipes in training/ are what reproduce the shipped networks, so
//! each must still load as the trainer reads it (unknown or missing
//! fields, broken values) and name only model files the repository has.

use kotra::train::TrainConfig;
use kotra::train::any_game::GameTrainConfig;
use std::path::{Path, PathBuf};

fn configs(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// Variant recipes are the other games' (`kotra-ai --game G train`).
fn is_variant(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    name.starts_with("icelandic-") || name.starts_with("icehouse-")
}

/// The backgammon recipes of `dirs` (variant recipes left out).
fn backgammon_recipes(dirs: &[&str]) -> Vec<PathBuf> {
    dirs.iter()
        .flat_map(|d| configs(d))
        .filter(|p| !is_variant(p))
        .collect()
}

/// The model files a recipe starts from or learns from.
fn models_named(config: &TrainConfig) -> Vec<&Path> {
    config
        .init_model
        .iter()
        .chain(&config.distill_teacher)
        .chain(config.extra_sets.iter().flat_map(|s| &s.teacher))
        .map(PathBuf::as_path)
        .collect()
}

#[test]
fn every_backgammon_recipe_loads_and_names_models_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let backgammon = backgammon_recipes(&["training", "training/ablation"]);
    assert!(backgammon.len() >= 8, "{} recipes", backgammon.len());
    for path in &backgammon {
        let config = TrainConfig::load(path).unwrap_or_else(|e| panic!("{e}"));
        let models = models_named(&config);
        for model in models {
            assert!(
                root.join(model).is_file(),
                "{}: {} is not in the repository",
                path.display(),
                model.display()
            );
        }
    }
}

/// The earlier recipes (`training/history/`) load too, and every network
/// they name is in models/ or listed as kept in git history.
#[test]
fn every_earlier_recipe_loads_and_names_models_kept_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let history = std::fs::read_to_string(root.join("training/history/README.md")).unwrap();
    let files = configs("training/history");
    assert!(files.len() >= 20, "{} recipes", files.len());
    for path in files {
        let config = TrainConfig::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let models = models_named(&config);
        for model in models {
            let name = model.file_name().unwrap().to_string_lossy();
            assert!(
                root.join(model).is_file() || history.contains(&*name),
                "{}: {} is neither in the repository nor in training/history/README.md",
                path.display(),
                model.display()
            );
        }
    }
}

#[test]
fn every_variant_recipe_loads() {
    let variants: Vec<PathBuf> = configs("training")
        .into_iter()
        .filter(|p| is_variant(p))
        .collect();
    assert_eq!(variants.len(), 2);
    for path in variants {
        let text = std::fs::read_to_string(&path).unwrap();
        let config: GameTrainConfig =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(config.games > 0 && config.hidden > 0, "{}", path.display());
    }
}

/// A database entry is a path (counted `database_weight` times a pass) or
/// a path with its own weight; a misspelt weighted entry is refused, not
/// read as a bare path.
#[test]
fn database_entries_carry_their_own_weight() {
    use kotra::train::DatabaseEntry;
    let config: TrainConfig = serde_json::from_str(
        r#"{"database": ["training/data", {"path": "training/data/b00037.kpd", "weight": 12}],
            "database_weight": 6}"#,
    )
    .unwrap();
    let weights: Vec<(String, u32)> = config
        .database
        .iter()
        .map(|e| {
            (
                e.path().display().to_string(),
                e.weight(config.database_weight),
            )
        })
        .collect();
    assert_eq!(
        weights,
        [
            ("training/data".to_string(), 6),
            ("training/data/b00037.kpd".to_string(), 12)
        ]
    );
    assert!(matches!(config.database[0], DatabaseEntry::Path(_)));
    let misspelt =
        serde_json::from_str::<TrainConfig>(r#"{"database": [{"path": "d", "wieght": 2}]}"#);
    assert!(misspelt.is_err());
}

/// Every batch file a recipe names is in training/data/ or is one a
/// relabel replaced, which the manifest names in its successor's
/// `relabelled` field and `scripts/batch_history.py restore` brings back
/// from git history; so no recipe names a batch nobody can find.
#[test]
fn every_batch_a_recipe_names_is_in_the_tree_or_a_replaced_one() {
    use kotra::train::database::Manifest;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let data = root.join("training/data");
    let manifest = Manifest::load(&data).unwrap();
    let replaced: Vec<&str> = manifest
        .batches
        .iter()
        .filter_map(|b| b.relabelled.as_ref())
        .flat_map(|r| r.files())
        .collect();
    let mut named = 0;
    for path in backgammon_recipes(&["training", "training/ablation", "training/history"]) {
        let config = TrainConfig::load(&path).unwrap_or_else(|e| panic!("{e}"));
        for entry in &config.database {
            let batch = entry.path();
            if batch.extension().is_none_or(|x| x != "kpd") {
                continue;
            }
            named += 1;
            let name = batch.file_name().unwrap().to_string_lossy();
            assert!(
                root.join(batch).is_file() || replaced.contains(&&*name),
                "{}: {} is neither in training/data/ nor a batch the manifest says a relabel replaced",
                path.display(),
                batch.display()
            );
        }
    }
    assert!(named > 100, "{named} batch files named");
}
