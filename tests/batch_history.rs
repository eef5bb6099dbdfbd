//! `scripts/batch_history.py` keeps the batches relabels replaced in git
//! history rather than in the tree and brings them back for the recipes
//! that name them. It deletes files from the repository, so these tests
//! run it in a throwaway git repository: it must remove only what history
//! can give back, give back exactly those bytes, and refuse what it
//! cannot vouch for.

use kotra::train::database::batch::{self, hex_sha256};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Repo {
    root: PathBuf,
}

impl Repo {
    /// An empty git repository holding a copy of the script.
    fn new(name: &str) -> Repo {
        let root = std::env::temp_dir().join(format!("kotra-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("scripts")).unwrap();
        std::fs::create_dir_all(root.join("training/data")).unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/batch_history.py");
        std::fs::copy(script, root.join("scripts/batch_history.py")).unwrap();
        let repo = Repo { root };
        repo.git(&["init", "-q"]);
        repo.git(&["config", "user.email", "test@kotra.invalid"]);
        repo.git(&["config", "user.name", "test"]);
        repo
    }

    fn git(&self, args: &[&str]) {
        let out = Command::new("git")
            .args(args)
            .current_dir(&self.root)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }

    fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    fn script(&self, args: &[&str]) -> Output {
        Command::new("python3")
            .arg(self.root.join("scripts/batch_history.py"))
            .args(args)
            .current_dir(&self.root)
            .output()
            .unwrap()
    }

    /// Writes `bytes` as batch `seed` under its content name; returns the
    /// name.
    fn batch(&self, seed: u64, teacher: &str, bytes: &[u8]) -> String {
        let name = batch::name(seed, teacher, "5e771265", bytes);
        std::fs::write(self.data(&name), bytes).unwrap();
        name
    }

    fn data(&self, name: &str) -> PathBuf {
        self.root.join("training/data").join(name)
    }

    fn manifest(&self, files: &[&str]) {
        let batches: Vec<String> = files
            .iter()
            .map(|f| format!(r#"{{"file": "{f}"}}"#))
            .collect();
        std::fs::write(
            self.data("manifest.json"),
            format!(r#"{{"batches": [{}]}}"#, batches.join(", ")),
        )
        .unwrap();
    }

    fn recipe(&self, name: &str, files: &[&str]) {
        let entries: Vec<String> = files
            .iter()
            .map(|f| format!(r#"{{"path": "training/data/{f}", "weight": 12}}"#))
            .collect();
        std::fs::write(
            self.root.join(name),
            format!(
                r#"{{"database": ["training/data", {}]}}"#,
                entries.join(", ")
            ),
        )
        .unwrap();
    }
}

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_replaced_batch_leaves_the_tree_and_comes_back_byte_for_byte() {
    let repo = Repo::new("batch-history");
    let old_bytes = b"the 2-ply labels".to_vec();
    let old = repo.batch(1, "2e17a34b", &old_bytes);
    repo.manifest(&[&old]);
    repo.recipe("old-recipe.json", &[&old]);
    repo.commit("batch 1");

    // A relabel: a new file, the manifest naming it instead.
    let new = repo.batch(1, "e19f75ee", b"the 3-ply labels");
    repo.manifest(&[&new]);
    // A file history does not hold is never removed.
    let stray = repo.batch(2, "e19f75ee", b"not committed");
    let out = repo.script(&["prune"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!repo.data(&old).exists(), "{}", text(&out));
    assert!(repo.data(&new).exists() && repo.data(&stray).exists());
    assert!(
        text(&out).contains("1 replaced batch file(s) removed"),
        "{}",
        text(&out)
    );
    std::fs::remove_file(repo.data(&stray)).unwrap();
    repo.commit("batch 1 relabelled");

    let check = repo.script(&["check", "old-recipe.json"]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    assert!(text(&check).contains(&old), "{}", text(&check));
    let out = repo.script(&["restore", "old-recipe.json"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read(repo.data(&old)).unwrap(), old_bytes);
    let check = repo.script(&["check", "old-recipe.json"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));

    // A restored file is in history as it is, so it may go again.
    let out = repo.script(&["prune"]);
    assert!(!repo.data(&old).exists(), "{}", text(&out));
}

#[test]
fn restore_refuses_a_file_history_lacks_or_whose_bytes_miss_its_name() {
    let repo = Repo::new("batch-history-refusals");
    let kept = repo.batch(1, "e19f75ee", b"kept");
    repo.manifest(&[&kept]);
    // Committed under a name its bytes do not hash to, then removed.
    let misnamed = format!(
        "b00002-e19f75ee-5e771265-{}.kpd",
        &hex_sha256(b"other")[..16]
    );
    std::fs::write(repo.data(&misnamed), b"tampered").unwrap();
    repo.commit("batches");
    std::fs::remove_file(repo.data(&misnamed)).unwrap();
    repo.commit("removed");

    repo.recipe("misnamed.json", &[&misnamed]);
    let out = repo.script(&["restore", "misnamed.json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("does not match"), "{}", text(&out));
    assert!(!repo.data(&misnamed).exists());

    let never = "b00003-e19f75ee-5e771265-0123456789abcdef.kpd";
    repo.recipe("never.json", &[never]);
    let out = repo.script(&["restore", "never.json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("neither the tree nor git history"),
        "{}",
        text(&out)
    );

    let out = repo.script(&["restore", "no-such-recipe.json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("cannot read recipe"), "{}", text(&out));
}
