//! The training campaign's position database (`training/data/`): compact
//! batches of positions with targets from our own search, kept in the
//! repository so that the data outlives the session that made it.
//!
//! A folder holds batch files ([`batch`]) and a `manifest.json`
//! ([`manifest`]) that names them; training reads any set of folders or
//! single batch files ([`load`]).

pub mod batch;
pub mod manifest;
pub mod record;

pub use manifest::{BatchEntry, Manifest, Relabelled};
pub use record::{Origin, RECORD_BYTES, Record};

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    #[error("cannot read {path}: {error}")]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("cannot write {path}: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("position batch {path}: {why}")]
    Batch { path: PathBuf, why: String },
    #[error("database manifest {path}: {why}")]
    Manifest { path: PathBuf, why: String },
    #[error("{0}: no position database here (no manifest.json, and not a .kpd batch file)")]
    NotADatabase(PathBuf),
    /// A batch file a recipe names is gone: in this repository, most
    /// likely one a relabel replaced, which leaves the tree but not git
    /// history.
    #[error(
        "{0}: no such batch file (one a relabel replaced leaves training/data/ for git history; \
         `scripts/batch_history.py restore RECIPE` brings back the files a recipe names)"
    )]
    MissingBatch(PathBuf),
}

/// The records of every batch that `paths` name: a folder stands for the
/// batches its manifest lists (in the manifest's order), a `.kpd` file
/// for itself.
pub fn load(paths: &[PathBuf]) -> Result<Vec<Record>, DatabaseError> {
    let mut all = Vec::new();
    for path in paths {
        for file in batch_files(path)? {
            all.extend(batch::read(&file)?);
        }
    }
    Ok(all)
}

/// The batch files `path` stands for (see [`load`]).
pub fn batch_files(path: &Path) -> Result<Vec<PathBuf>, DatabaseError> {
    if path.is_dir() {
        if !path.join(manifest::MANIFEST_FILE).exists() {
            return Err(DatabaseError::NotADatabase(path.to_owned()));
        }
        let m = Manifest::load(path)?;
        Ok(m.batches.iter().map(|b| path.join(&b.file)).collect())
    } else if path
        .extension()
        .is_some_and(|x| x == batch::BATCH_EXTENSION)
    {
        Ok(vec![path.to_owned()])
    } else if !path.exists() {
        Err(DatabaseError::Read {
            path: path.to_owned(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or folder"),
        })
    } else {
        Err(DatabaseError::NotADatabase(path.to_owned()))
    }
}

/// Names the first batch file `path` stands for that is not there, so
/// that a run can stop before the hours it spends ahead of reading them.
pub fn check_present(path: &Path) -> Result<(), DatabaseError> {
    match batch_files(path)?.into_iter().find(|f| !f.is_file()) {
        Some(gone) => Err(DatabaseError::MissingBatch(gone)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_foreign_path_is_named_with_its_reason() {
        let missing = Path::new("/nonexistent/kotra-db");
        let e = load(&[missing.to_owned()]).unwrap_err().to_string();
        assert_eq!(
            e,
            "cannot read /nonexistent/kotra-db: no such file or folder"
        );
        // A named batch file that is gone says where it went.
        let gone = Path::new("/nonexistent/b00001-0-0-0.kpd");
        let e = load(&[gone.to_owned()]).unwrap_err();
        assert!(matches!(e, DatabaseError::MissingBatch(_)), "{e}");
        assert!(e.to_string().contains("batch_history.py restore"), "{e}");
        let e = check_present(gone).unwrap_err();
        assert!(matches!(e, DatabaseError::MissingBatch(_)), "{e}");
        assert!(check_present(Path::new("training/data")).is_ok());
        let e = batch_files(Path::new("src")).unwrap_err();
        assert!(matches!(e, DatabaseError::NotADatabase(_)), "{e}");
        let e = batch_files(Path::new("Cargo.toml")).unwrap_err();
        assert!(matches!(e, DatabaseError::NotADatabase(_)), "{e}");
    }
}
