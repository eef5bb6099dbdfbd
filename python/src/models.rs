//! The evaluators engines share. An [`Analyzer`](kotra::analysis::Analyzer)
//! borrows its evaluator, and a Python object cannot hold a borrow, so
//! each model is loaded once and kept for the life of the process: an
//! engine made twice with the same model file costs nothing the second
//! time, and the memory kept is one network per distinct model file
//! (the file's length and time of change tell a retrained one apart).

use crate::error;
use kotra::eval::{Evaluator, model_or_shipped};
use pyo3::PyResult;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

/// Which model: `None` the shipped network, else a file as it was when
/// loaded.
type ModelKey = Option<(PathBuf, u64, Option<SystemTime>)>;

static LOADED: Mutex<Vec<(ModelKey, &'static Evaluator)>> = Mutex::new(Vec::new());

/// The evaluator of `model` (the shipped network when `None`).
pub fn evaluator(model: Option<&Path>) -> PyResult<&'static Evaluator> {
    let key: ModelKey = match model {
        None => None,
        // A file that cannot be read matches nothing loaded, and
        // loading it gives the library's own words for why.
        Some(path) => {
            let meta = std::fs::metadata(path).ok();
            let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            Some((
                path,
                meta.as_ref().map_or(0, |m| m.len()),
                meta.and_then(|m| m.modified().ok()),
            ))
        }
    };
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, eval)) = loaded.iter().find(|(k, _)| *k == key) {
        return Ok(eval);
    }
    let model = model_or_shipped(model).map_err(error)?;
    let eval: &'static Evaluator = Box::leak(Box::new(Evaluator::new(model)));
    loaded.push((key, eval));
    Ok(eval)
}
