//! `scripts/campaign_stale.py` orders a full database's relabelling: the
//! batches whose labels came from the oldest network first, never the
//! teacher's own. Run on a made-up models folder and manifest, so that the
//! order is the script's and not the shipped networks'.

use kotra::train::database::batch::hex_sha256;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A throwaway folder with `models/` and `data/`.
fn folder(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("kotra-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("models")).unwrap();
    std::fs::create_dir_all(root.join("data")).unwrap();
    root
}

fn stale(root: &Path, teacher: &str) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/campaign_stale.py");
    Command::new("python3")
        .arg(script)
        .args(["--teacher", teacher, "--data", "data", "--models", "models"])
        .current_dir(root)
        .output()
        .unwrap()
}

#[test]
fn the_oldest_network_first_by_number_and_never_the_teacher() {
    let root = folder("stale-order");
    // Numbered so that a lexical order (v10 before v2) would be wrong.
    let networks = [
        ("kotra-v2", "two"),
        ("kotra-v3", "three"),
        ("kotra-v10", "ten"),
        ("kotra-v11", "eleven"),
    ];
    for (name, bytes) in networks {
        std::fs::write(root.join(format!("models/{name}.net")), bytes).unwrap();
    }
    let sha = |bytes: &str| hex_sha256(bytes.as_bytes());
    // Seed and its labels' network; seed 3's network is in no models/ file.
    let labels = [
        (1, sha("ten")),
        (2, sha("three")),
        (3, "f".repeat(64)),
        (4, sha("two")),
        (5, sha("eleven")),
        (6, sha("three")),
    ];
    let batches: Vec<String> = labels
        .iter()
        .map(|(seed, teacher)| format!(r#"{{"seed": {seed}, "teacher_sha256": "{teacher}"}}"#))
        .collect();
    std::fs::write(
        root.join("data/manifest.json"),
        format!(r#"{{"batches": [{}]}}"#, batches.join(", ")),
    )
    .unwrap();

    let out = stale(&root, "models/kotra-v11.net");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "3,4,2,6,1");
    // With the oldest network as the teacher, its own batch drops out.
    let out = stale(&root, "models/kotra-v2.net");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "3,2,6,1,5");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_missing_manifest_or_teacher_is_one_line_and_exit_one() {
    let root = folder("stale-missing");
    std::fs::write(root.join("models/kotra-v1.net"), "one").unwrap();
    for teacher in ["models/kotra-v1.net", "models/absent.net"] {
        let out = stale(&root, teacher);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("campaign_stale: cannot read"), "{err}");
    }
    std::fs::write(root.join("data/manifest.json"), "[1, 2]").unwrap();
    let out = stale(&root, "models/kotra-v1.net");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a campaign manifest"));
    std::fs::remove_dir_all(&root).unwrap();
}
