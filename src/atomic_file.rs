//! Files are replaced atomically: written to a temporary file beside the
//! target, flushed to disk, then renamed over it. A run killed at any moment
//! leaves either the old file or the new one, never half of one.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically, creating parent folders.
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("path has no file name"))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Removes the temporary files that [`write()`] calls killed mid-way left in
/// `dir` and the folders below it (`.NAME.tmp-PID` whose process is gone),
/// so that a resumed run does not pile them up. Returns how many went.
pub fn remove_stale_temporaries(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            removed += remove_stale_temporaries(&path);
        } else if kind.is_file()
            && stale_writer(&entry.file_name().to_string_lossy())
            && std::fs::remove_file(&path).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// Whether `name` is one of [`write`]'s temporaries whose writer is no
/// longer running (where `/proc` cannot tell, any writer but this one).
fn stale_writer(name: &str) -> bool {
    let Some((stem, pid)) = name.rsplit_once(".tmp-") else {
        return false;
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    if !stem.starts_with('.') || pid == std::process::id() {
        return false;
    }
    let proc = Path::new("/proc");
    !proc.is_dir() || !proc.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("kotra-atomic-{}", std::process::id()));
        let path = dir.join("sub").join("f.bin");
        super::write(&path, b"one").unwrap();
        super::write(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.join("sub")).unwrap().collect();
        assert_eq!(names.len(), 1);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn stale_temporaries_are_removed_and_live_ones_kept() {
        let dir = std::env::temp_dir().join(format!("kotra-stale-{}", std::process::id()));
        let sub = dir.join("chunks");
        std::fs::create_dir_all(&sub).unwrap();
        // No process has a pid above the kernel's limit (2^22).
        let dead = 4_194_999u32;
        let own = std::process::id();
        std::fs::write(dir.join(format!(".model.net.tmp-{dead}")), b"x").unwrap();
        std::fs::write(sub.join(format!(".chunk-3.bin.tmp-{dead}")), b"x").unwrap();
        std::fs::write(dir.join(format!(".checkpoint.bin.tmp-{own}")), b"x").unwrap();
        std::fs::write(dir.join("model.net"), b"x").unwrap();
        std::fs::write(dir.join("notes.tmp-x"), b"x").unwrap();
        assert_eq!(super::remove_stale_temporaries(&dir), 2);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                format!(".checkpoint.bin.tmp-{own}"),
                "chunks".into(),
                "model.net".into(),
                "notes.tmp-x".into()
            ]
        );
        assert_eq!(std::fs::read_dir(&sub).unwrap().count(), 0);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
