//! The layer order of `docs/architecture.md`, kept true: every path into
//! the crate (`crate::module`) in non-test code points to a lower layer,
//! no two sibling files import each other, and no loop of imports runs
//! between files in different folders.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules by layer, lowest first; a module may use modules of
/// lower layers only (`docs/architecture.md` says why each sits where).
const LAYERS: &[&[&str]] = &[
    &["atomic_file", "progress", "quoted", "seed"],
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
    paths_after(code, prefix)
        .into_iter()
        .filter_map(|p| p.into_iter().next())
        .filter(|n| !n.is_empty())
        .collect()
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

/// Every path that follows `prefix` in `code` (comments left out), as its
/// segments, groups expanded: `super::{a, b::{c, d}}` gives `[a]`,
/// `[b, c]` and `[b, d]`; `super::*` gives `[*]`. An occurrence that
/// continues a longer path (`x::super::`) is not one.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let code: String = code
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        expand(rest, Vec::new(), &mut out);
    }
    out
}

/// The paths written at the start of `text` after the segments `head`.
fn expand(text: &str, head: Vec<String>, out: &mut Vec<Vec<String>>) {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' | ',' if depth == 0 => {
                    let item = &group[start..i];
                    if !item.trim().is_empty() {
                        expand(item, head.clone(), out);
                    }
                    if c == '}' {
                        return;
                    }
                    start = i + 1;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        return;
    }
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '*'))
        .unwrap_or(text.len());
    let mut path = head;
    path.push(text[..end].to_string());
    match text[end..].strip_prefix("::") {
        Some(more) => expand(more, path, out),
        None => out.push(path),
    }
}

/// The file of module `module` (segments below `src`), if it exists.
fn module_file(src: &Path, module: &[String]) -> Option<PathBuf> {
    if module.is_empty() {
        return Some(src.join("lib.rs"));
    }
    let dir = module.iter().fold(src.to_path_buf(), |d, m| d.join(m));
    let file = dir.with_extension("rs");
    if file.exists() {
        Some(file)
    } else if dir.join("mod.rs").exists() {
        Some(dir.join("mod.rs"))
    } else {
        None
    }
}

/// The module a file under `src` is (`src/a/mod.rs` → `[a]`,
/// `src/a/b.rs` → `[a, b]`, `src/lib.rs` → `[]`).
fn module_of(src: &Path, path: &Path) -> Vec<String> {
    let mut parts: Vec<String> = path
        .strip_prefix(src)
        .unwrap()
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// A folder root's re-exports (`pub use child::Item;`): each item's name
/// and the path, from the root's module, it stands for.
fn re_exports(code: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for prefix in ["pub use ", "pub(crate) use "] {
        for p in paths_after(code, prefix) {
            if let Some(last) = p.last().filter(|l| *l != "*") {
                out.insert(last.clone(), p);
            }
        }
    }
    out
}

/// The lines of `code` that are not re-exports.
fn without_re_exports(code: &str) -> String {
    let mut out = String::new();
    let mut in_re_export = false;
    for line in code.lines() {
        let t = line.trim_start();
        if t.starts_with("pub use ") || t.starts_with("pub(crate) use ") {
            in_re_export = true;
        }
        if !in_re_export {
            out.push_str(line);
            out.push('\n');
        }
        if in_re_export && line.trim_end().ends_with(';') {
            in_re_export = false;
        }
    }
    out
}

/// The file a path names, from module `base`: the deepest module file
/// it walks through, and through a folder root's re-export to the file
/// that defines the item.
fn resolve(src: &Path, mut base: Vec<String>, path: &[String]) -> Option<PathBuf> {
    for (i, segment) in path.iter().enumerate() {
        base.push(segment.clone());
        if module_file(src, &base).is_some() {
            continue;
        }
        base.pop();
        let root = module_file(src, &base)?;
        let exported = re_exports(&code_of(&root)).remove(segment);
        if let Some(via) = exported.filter(|v| v.len() > 1) {
            let mut rest: Vec<String> = via[..via.len() - 1].to_vec();
            rest.extend(path[i..].iter().cloned());
            return resolve(src, base, &rest);
        }
        break;
    }
    module_file(src, &base)
}

/// The files each file of the tree under `src` imports or calls into
/// (its test module left out): `crate::` and `super::` paths resolved
/// to the file that defines what they name (through re-exports), and a
/// folder's own `mod.rs` reaching into its child modules by name
/// (`child::item`; its re-exports of them are its face, not a use).
fn file_graph(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph = BTreeMap::new();
    for path in &files {
        let code = without_re_exports(&code_of(path));
        let own = module_of(src, path);
        let is_folder_root = matches!(
            path.file_stem().and_then(|s| s.to_str()),
            Some("mod" | "lib")
        );
        let mut starts: Vec<(Vec<String>, Vec<String>)> = Vec::new();
        for p in paths_after(&code, "crate::") {
            starts.push((Vec::new(), p));
        }
        for mut p in paths_after(&code, "super::") {
            let mut base = own.clone();
            base.pop();
            while p.first().is_some_and(|s| s == "super") {
                p.remove(0);
                base.pop();
            }
            starts.push((base, p));
        }
        if is_folder_root {
            for child in names_after(&code, "mod ") {
                if module_file(src, &[own.clone(), vec![child.clone()]].concat()).is_some() {
                    for p in paths_after(&code, &format!("{child}::")) {
                        starts.push((own.clone(), [vec![child.clone()], p].concat()));
                    }
                }
            }
        }
        let mut targets = BTreeSet::new();
        for (base, p) in starts {
            if let Some(target) = resolve(src, base, &p)
                && target != *path
            {
                targets.insert(target);
            }
        }
        graph.insert(path.clone(), targets);
    }
    graph
}

/// The loops of imports that run between files in different folders: for
/// each import from one folder into another, the way back, if any.
fn loops_across_folders(src: &Path) -> Vec<String> {
    let graph = file_graph(src);
    let reaches = |from: &PathBuf, to: &PathBuf| -> Option<Vec<PathBuf>> {
        // Breadth first, remembering the way.
        let mut came_from: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([from.clone()]);
        let mut seen = BTreeSet::from([from.clone()]);
        while let Some(at) = queue.pop_front() {
            if at == *to {
                let mut way = vec![at.clone()];
                let mut cur = at;
                while let Some(prev) = came_from.get(&cur) {
                    way.push(prev.clone());
                    cur = prev.clone();
                }
                way.reverse();
                return Some(way);
            }
            for next in graph.get(&at).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    came_from.insert(next.clone(), at.clone());
                    queue.push_back(next.clone());
                }
            }
        }
        None
    };
    let name = |p: &PathBuf| p.strip_prefix(src).unwrap().display().to_string();
    let mut loops = BTreeSet::new();
    for (a, targets) in &graph {
        for b in targets {
            if a.parent() == b.parent() {
                continue;
            }
            if let Some(way) = reaches(b, a) {
                let mut names: Vec<String> = std::iter::once(a).chain(&way).map(name).collect();
                // One entry per loop, whichever edge found it.
                let start = (0..names.len() - 1)
                    .min_by_key(|&i| names[i].clone())
                    .unwrap();
                names.pop();
                names.rotate_left(start);
                names.push(names[0].clone());
                loops.insert(names.join(" -> "));
            }
        }
    }
    loops.into_iter().collect()
}

#[test]
fn no_loop_of_imports_runs_between_folders() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let loops = loops_across_folders(&src);
    assert!(
        loops.is_empty(),
        "files in different folders that import each other, round a loop:\n{}",
        loops.join("\n")
    );
}

#[test]
fn a_deliberate_loop_across_folders_is_found() {
    // The fixture: `engine/mod.rs` calls into its child `engine/plan/mod.rs`,
    // which imports a helper back from `engine/mod.rs`; `engine/rules.rs`
    // is imported by both and imports nothing, so it is in no loop.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/architecture/loop/src");
    let loops = loops_across_folders(&src);
    assert_eq!(
        loops,
        ["engine/mod.rs -> engine/plan/mod.rs -> engine/mod.rs"],
        "{loops:?}"
    );
    let graph = file_graph(&src);
    let rules = src.join("engine/rules.rs");
    assert!(graph[&src.join("engine/plan/mod.rs")].contains(&rules));
    assert!(graph[&rules].is_empty());
}

/// README's layout names every module under `src/` and every folder of
/// the repository that is kept (not `target/` or `runs/`, which hold
/// builds and runs), so that the drawing a new reader trusts is the tree.
#[test]
fn the_readme_layout_names_every_module_and_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let layout = readme
        .split("## Layout")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("README has a Layout section");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("src")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name == "lib.rs" || name == "main.rs" {
            continue;
        }
        let named = if path.is_dir() {
            layout.contains(&format!("src/{name}/"))
        } else {
            layout.contains(&format!("src/{name}")) || layout.contains(&format!(" {name}"))
        };
        if !named {
            missing.push(format!("src/{name}"));
        }
    }
    for entry in std::fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir()
            && !name.starts_with('.')
            && !["target", "runs"].contains(&name.as_str())
            && !layout.contains(&format!("\n    {name}/"))
        {
            missing.push(format!("{name}/"));
        }
    }
    assert!(
        missing.is_empty(),
        "README's layout does not name: {}",
        missing.join(", ")
    );
}
