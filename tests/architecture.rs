//! The layer order of `docs/architecture.md`, kept true: every path into
//! the crate (`crate::module`) in non-test code points to a lower layer,
//! and no two sibling files import each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules by layer, lowest first; a module may use modules of
/// lower layers only (`docs/architecture.md` says why each sits where).
const LAYERS: &[&[&str]] = &[
    &["atomic_file", "progress", "seed"],
    &["framed_file"],
    &["backgammon", "game"],
    &["notation", "icelandic", "icehouse"],
    &["eval"],
    &["cube"],
    &["search"],
    &["players", "rollout"],
    &["analysis"],
    &["train"],
    &["bench", "ubgi", "review", "serve"],
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's text without its unit-test module (tests may reach
/// anywhere).
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Every module name that follows `prefix` in `code` (comments left
/// out): `crate::a::x` gives `a`, `crate::{a, b::{c}}` gives `a` and `b`.
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let code: String = code
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let ident = |t: &str| -> String {
        let t = t.trim_start();
        let end = t
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(t.len());
        t[..end].to_string()
    };
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // The names at the group's top level.
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.push(ident(&group[start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(ident(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

/// `src/a/b.rs` → ("a", "b"); `src/a.rs` → ("a", "").
fn module_and_file(src: &Path, path: &Path) -> (String, String) {
    let rel = path.strip_prefix(src).unwrap();
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    let file = if parts.len() > 1 {
        parts[1..].join("/")
    } else {
        String::new()
    };
    (parts[0].clone(), file)
}

#[test]
fn every_crate_path_points_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = BTreeSet::new();
    for path in &files {
        let (module, _) = module_and_file(&src, path);
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer_of(&module) else {
            wrong.insert(format!("{module}: not in the layer table"));
            continue;
        };
        for used in names_after(&code_of(path), "crate::") {
            if used == module.as_str() {
                continue;
            }
            match layer_of(&used) {
                Some(l) if l < own => {}
                _ => {
                    wrong.insert(format!("{} uses crate::{used}", path.display()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows that do not point down:\n{}",
        Vec::from_iter(wrong).join("\n")
    );
}

#[test]
fn no_two_sibling_files_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    // (folder, file) → the sibling files it names through `super::`.
    let mut uses: BTreeMap<(PathBuf, String), BTreeSet<String>> = BTreeMap::new();
    for path in &files {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        if stem == "mod" || path.parent() == Some(src.as_path()) {
            continue;
        }
        let dir = path.parent().unwrap().to_path_buf();
        let siblings: BTreeSet<String> = names_after(&code_of(path), "super::")
            .into_iter()
            .filter(|s| *s != stem && dir.join(format!("{s}.rs")).exists())
            .collect();
        uses.insert((dir, stem), siblings);
    }
    let mut cycles = Vec::new();
    for ((dir, a), used) in &uses {
        for b in used {
            let back = uses.get(&(dir.clone(), b.clone()));
            if a < b && back.is_some_and(|s| s.contains(a)) {
                cycles.push(format!("{}: {a} <-> {b}", dir.display()));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "sibling files that import each other:\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_table_is_the_one_the_architecture_page_gives() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .unwrap();
    for layer in LAYERS {
        for module in *layer {
            let present = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src")
                .join(module)
                .exists()
                || Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("src")
                    .join(format!("{module}.rs"))
                    .exists();
            if present {
                assert!(
                    page.contains(&format!("`{module}`")),
                    "docs/architecture.md does not name `{module}`"
                );
            }
        }
    }
}

/// What the Python package (python/, a front end in its own crate) may
/// reach of the library: the facade, and below it only what a front end
/// parses its input into (rules and notation) and the evaluator it hands
/// the facade. Never the search, the cube or the rollouts themselves.
const PYTHON_MAY_USE: &[&str] = &["analysis", "backgammon", "notation", "eval"];

#[test]
fn the_python_package_goes_through_the_facade() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(!files.is_empty(), "no python/src");
    let mut used = BTreeSet::new();
    for path in &files {
        for name in names_after(&code_of(path), "kotra::") {
            assert!(
                PYTHON_MAY_USE.contains(&name.as_str()),
                "{} uses kotra::{name}, below the facade",
                path.display()
            );
            used.insert(name);
        }
    }
    assert!(
        used.contains("analysis"),
        "the package never asks the facade"
    );
}
