//! The Python package's native module, `kotra._kotra`: a front end like
//! the command line and the server, so it parses its arguments into the
//! library's types and asks the analysis facade; it never assembles the
//! engine itself. Reports cross the boundary through their `Serialize`
//! impls (pythonize), so a Python caller gets exactly what
//! `kotra-ai ... --json` prints.

mod interrupt;
mod models;
mod position;

use interrupt::interruptible;
use kotra::analysis::{
    Analyzer, DEFAULT_PLY, EXPLAINED, Equity, ReviewSettings, RolloutRequest, explain_top,
    search_ply,
};
use kotra::backgammon::{Dice, Setup};
use kotra::notation;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use position::{PyPosition, positions_arg, setup_arg, shown_arg};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pythonize::pythonize;
use std::path::PathBuf;

create_exception!(
    kotra,
    Error,
    PyValueError,
    "Bad input: a malformed ID or match file, an illegal setting, a missing or corrupt model."
);

/// The smallest batch worth watching for Ctrl-C (some milliseconds).
const WATCHED_BATCH: usize = 10_000;

/// A `kotra.Error` carrying the library's one-line message.
pub(crate) fn error(message: impl std::fmt::Display) -> PyErr {
    Error::new_err(message.to_string())
}

/// The dice of a call: `"31"`, `(3, 1)`, or (when left out) the dice the
/// position carries.
fn dice_arg(dice: Option<&Bound<'_, PyAny>>, setup: &Setup) -> PyResult<Option<Dice>> {
    let Some(d) = dice.filter(|d| !d.is_none()) else {
        return Ok(setup.info.rolled());
    };
    let text = match d.extract::<String>() {
        Ok(s) => s,
        Err(_) => {
            let (a, b): (u8, u8) = d
                .extract()
                .map_err(|_| error("dice: give \"31\" or (3, 1)"))?;
            format!("{a}{b}")
        }
    };
    text.parse::<Dice>()
        .map(Some)
        .map_err(|e| error(format!("bad dice {text:?}: {e}")))
}

/// A report as Python objects: the JSON `kotra-ai ... --json` prints,
/// read back as `json.loads` reads it (lists and dicts; each float as
/// its text there reads, an `f32` by its shortest digits, not widened).
fn to_python<'py>(py: Python<'py>, report: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(report).map_err(error)?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(error)?;
    Ok(pythonize(py, &value)?)
}

fn ply_arg(ply: i64) -> PyResult<u8> {
    search_ply(ply).map_err(error)
}

/// Every legal move of `dice` (the position's own dice when left out), in
/// the move generator's order: a list of `{"move", "position_id"}`.
#[pyfunction]
#[pyo3(signature = (position, dice = None))]
fn legal_moves<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    dice: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let setup = setup_arg(position)?;
    let dice = dice_arg(dice, &setup)?.ok_or_else(|| error("no dice: give dice=\"31\""))?;
    to_python(py, &kotra::analysis::legal_moves(&setup, dice).moves)
}

/// The engine: a network (the shipped one by default) behind the analysis
/// facade, keeping its evaluation caches from call to call.
#[pyclass(frozen, module = "kotra")]
struct Engine {
    analyzer: Analyzer<'static>,
    model: Option<PathBuf>,
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (model = None))]
    fn new(py: Python<'_>, model: Option<PathBuf>) -> PyResult<Engine> {
        let eval = py.detach(|| models::evaluator(model.as_deref()))?;
        Ok(Engine {
            analyzer: Analyzer::new(eval),
            model,
        })
    }

    fn __repr__(&self) -> String {
        match &self.model {
            Some(p) => format!("Engine(model={:?})", p.display().to_string()),
            None => "Engine()".to_string(),
        }
    }

    /// Every legal move of the roll ranked at `ply` (cubeful equity,
    /// gnubg's world-class filters), best first: `analyze --json`.
    #[pyo3(signature = (position, dice = None, ply = DEFAULT_PLY as i64))]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        dice: Option<&Bound<'py, PyAny>>,
        ply: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let ply = ply_arg(ply)?;
        let mut setup = setup_arg(position)?;
        let dice = dice_arg(dice, &setup)?.ok_or_else(|| {
            error("no dice: give dice=\"31\" (or ask Engine.cube for the decision before the roll)")
        })?;
        setup.info.set_rolled(dice);
        let report = interruptible(py, |_| {
            let mut report = self.analyzer.rank_moves(&setup, dice, ply, Equity::Cubeful);
            explain_top(&mut report, EXPLAINED);
            report
        })?;
        to_python(py, &report)
    }

    /// The cube decision before the roll for the side on roll (the
    /// doubler, if a double is pending): `analyze --json` without dice.
    #[pyo3(signature = (position, ply = DEFAULT_PLY as i64))]
    fn cube<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        ply: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let ply = ply_arg(ply)?;
        let setup = setup_arg(position)?;
        let report = interruptible(py, |_| {
            let mut report = self.analyzer.cube_decision(&setup, ply);
            self.analyzer.explain_cube(&setup, &mut report);
            report
        })?;
        to_python(py, &report)
    }

    /// The network's cubeless probabilities for the side on roll: win, win
    /// gammon, win backgammon, lose gammon, lose backgammon (float32); of
    /// a finished game, its result.
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let setup = shown_arg(position)?;
        Ok(PyArray1::from_slice(py, &self.analyzer.evaluate(&setup).0))
    }

    /// [`Engine::evaluate`] for many positions at once, on all cores: an
    /// `(n, 26)` integer array (see `Position.from_array`) or a sequence
    /// of positions or IDs in, an `(n, 5)` float32 array out.
    fn evaluate_batch<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let positions = positions_arg(positions)?;
        // A small batch ends before anyone could press Ctrl-C: it runs on
        // this thread, without the watcher's thread to start.
        let probs = if positions.len() < WATCHED_BATCH {
            py.detach(|| self.analyzer.evaluate_batch(&positions, &()))
        } else {
            interruptible(py, |stop| self.analyzer.evaluate_batch(&positions, stop))?
        }
        .map_err(error)?;
        Ok(probs.into_pyarray(py))
    }

    /// Rolls out the candidate moves of `dice` (the position's own dice
    /// when left out), or without dice the position and its cube
    /// decision: `rollout --json`. Standard errors beside every mean.
    /// `filter` ("KEEP:WINDOW") overrides a searching play's move filter,
    /// `middle` ("skip" or "KEEP:WINDOW") a 2-ply play's 1-ply pass.
    #[pyo3(signature = (
        position, dice = None, *, trials = 1296, ply = 0, seed = 1, cubeful = false,
        truncate = None, candidates = 8, variance_reduction = true, filter = None,
        middle = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn rollout<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        dice: Option<&Bound<'py, PyAny>>,
        trials: u64,
        ply: i64,
        seed: u64,
        cubeful: bool,
        truncate: Option<u32>,
        candidates: u64,
        variance_reduction: bool,
        filter: Option<&str>,
        middle: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let filter = filter.map(str::parse).transpose().map_err(error)?;
        let middle = middle.map(str::parse).transpose().map_err(error)?;
        let checked = RolloutRequest {
            trials,
            ply,
            filter,
            middle,
            truncate,
            seed,
            candidates,
            variance_reduction,
        }
        .check()
        .map_err(error)?;
        let mut setup = setup_arg(position)?;
        let dice = dice_arg(dice, &setup)?;
        let settings = checked.settings;
        let rolled = interruptible(py, |stop| match dice {
            Some(dice) => {
                setup.info.set_rolled(dice);
                let rolled = self.analyzer.rollout_candidates(
                    &setup,
                    dice,
                    checked.candidates,
                    &settings,
                    cubeful,
                    stop,
                )?;
                Ok(Rolled::Moves(rolled))
            }
            None => self
                .analyzer
                .rollout_position(&setup, &settings, cubeful, stop)
                .map(|r| Rolled::Position(Box::new(r))),
        })?
        .map_err(error)?;
        to_python(py, &rolled)
    }

    /// Reviews a played match, decision by decision, at `ply`: the same
    /// content as `review --json`. `match_file` is a path (`str` or
    /// `os.PathLike`) or the text of a `.mat` or `.sgf` file.
    #[pyo3(signature = (match_file, ply = DEFAULT_PLY as i64))]
    fn review<'py>(
        &self,
        py: Python<'py>,
        match_file: &Bound<'py, PyAny>,
        ply: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let ply = ply_arg(ply)?;
        let (text, name) = match_text(match_file)?;
        let record = notation::parse_match(&text).map_err(|e| error(format!("{name}: {e}")))?;
        let review = interruptible(py, |stop| {
            self.analyzer
                .review(&record, &ReviewSettings::at(ply), stop)
        })?
        .map_err(|e| error(format!("{name}: {e}")))?;
        to_python(py, &review)
    }
}

/// What a rollout rolled out, serialised as its report alone.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum Rolled {
    Moves(kotra::analysis::MovesRollout),
    Position(Box<kotra::analysis::PositionRollout>),
}

/// A match's text and the name its errors go by: a path's file, or the
/// text itself (anything with a line break, or an SGF's opening `(`).
fn match_text(arg: &Bound<'_, PyAny>) -> PyResult<(String, String)> {
    if let Ok(s) = arg.extract::<String>()
        && (s.contains('\n') || s.trim_start().starts_with('('))
    {
        return Ok((s, "the match text".to_string()));
    }
    let path: PathBuf = arg
        .extract()
        .map_err(|_| error("review: give a path or a match file's text"))?;
    let text = notation::read_match_file(&path).map_err(error)?;
    Ok((text, path.display().to_string()))
}

/// Raises a Rust panic, to show that one reaches Python as an exception
/// (`pyo3_runtime.PanicException`) and never aborts the interpreter.
#[pyfunction]
fn _panic_for_tests(message: &str) {
    panic!("{message}");
}

#[pymodule]
fn _kotra(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add_class::<PyPosition>()?;
    m.add_class::<Engine>()?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add("DEFAULT_PLY", DEFAULT_PLY)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
