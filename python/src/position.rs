//! `kotra.Position`: a position with its cube, score and dice, read from
//! and written to the notations players use, or to a numpy array.

use crate::error;
use kotra::backgammon::{MatchInfo, Position, Setup};
use kotra::notation::{self, ascii, gnubg_id, position_id, xgid};
use numpy::{
    PyArray1, PyArrayDescrMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use std::hash::{DefaultHasher, Hash, Hasher};

/// The slots of a board array (wildbg's layout, the library's own).
const SLOTS: usize = 26;

/// A position: the board from the side on roll's view, the cube, the
/// score and the dice. A finished game (the position after a winning
/// move, which `legal_moves` links to) is a position too, to show and to
/// evaluate (its result); the analyses refuse it, as the command line's
/// do.
#[pyclass(frozen, module = "kotra", name = "Position")]
pub struct PyPosition {
    pub setup: Setup,
}

#[pymethods]
impl PyPosition {
    /// Reads gnubg's `PositionID:MatchID`, a bare Position ID (money, cube
    /// centred, player 0 on roll) or an `XGID=...`.
    #[new]
    fn new(text: &str) -> PyResult<PyPosition> {
        notation::parse_setup_to_show(text)
            .map(|setup| PyPosition { setup })
            .map_err(|e| bad_position(text, e))
    }

    /// A board as a 26-slot integer array from the side on roll's view:
    /// slots 1 to 24 are its points in its own numbering (checkers of the
    /// side on roll positive, the opponent's negative), slot 25 its bar
    /// (0 or more), slot 0 the opponent's bar (0 or less). Borne-off
    /// checkers are 15 minus those on the board. Money play, cube
    /// centred, no dice.
    #[staticmethod]
    fn from_array(board: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let raw = board_arg(board)?;
        let position = Position::from_raw(&raw).map_err(|e| error(format!("bad board: {e}")))?;
        let setup = Setup {
            position,
            info: MatchInfo::default(),
        };
        setup
            .check_showable()
            .map_err(|e| error(format!("bad board: {e}")))?;
        Ok(PyPosition { setup })
    }

    /// The board as `from_array` reads it (int8).
    fn to_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_slice(py, self.setup.position.raw())
    }

    /// gnubg's `PositionID:MatchID`.
    #[getter]
    fn gnubg_id(&self) -> String {
        gnubg_id::encode(&self.setup)
    }

    /// gnubg's Position ID (the board alone).
    #[getter]
    fn position_id(&self) -> String {
        position_id::encode(&self.setup.position)
    }

    /// gnubg's Match ID (cube, score, dice, who is on roll).
    #[getter]
    fn match_id(&self) -> String {
        self.setup.info.encode()
    }

    /// eXtreme Gammon's `XGID=...`.
    #[getter]
    fn xgid(&self) -> String {
        xgid::encode(&self.setup)
    }

    /// The dice rolled, high die first, or `None` before the roll.
    #[getter]
    fn dice(&self) -> Option<(u8, u8)> {
        self.setup.info.rolled().map(|d| (d.high(), d.low()))
    }

    /// The match length in points (0 for money play).
    #[getter]
    fn match_length(&self) -> u32 {
        self.setup.info.match_length
    }

    /// Points won by gnubg's players 0 and 1.
    #[getter]
    fn score(&self) -> (u32, u32) {
        let [a, b] = self.setup.info.score;
        (a, b)
    }

    #[getter]
    fn cube_value(&self) -> u32 {
        self.setup.info.cube_value
    }

    /// Whether a side has borne off all its checkers.
    #[getter]
    fn is_game_over(&self) -> bool {
        self.setup.position.is_game_over()
    }

    /// Pips to bear off: the side on roll's, then the opponent's.
    #[getter]
    fn pip_counts(&self) -> (u32, u32) {
        self.setup.position.pip_counts()
    }

    /// The board drawn as `kotra-ai show` draws it.
    fn __str__(&self) -> String {
        ascii::render(&self.setup)
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.gnubg_id())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPosition>()
            .is_ok_and(|o| o.get().setup == self.setup)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.gnubg_id().hash(&mut h);
        h.finish()
    }
}

/// A position argument to show or evaluate: a `Position`, or any text
/// `Position()` reads.
pub fn shown_arg(arg: &Bound<'_, PyAny>) -> PyResult<Setup> {
    if let Ok(p) = arg.cast::<PyPosition>() {
        return Ok(p.get().setup);
    }
    let text: String = arg
        .extract()
        .map_err(|_| error("position: give a kotra.Position or an ID string"))?;
    PyPosition::new(&text).map(|p| p.setup)
}

/// A position argument to analyse: a moment of a game in play, refused
/// otherwise in the command line's words.
pub fn setup_arg(arg: &Bound<'_, PyAny>) -> PyResult<Setup> {
    let setup = shown_arg(arg)?;
    setup
        .check_in_play()
        .map_err(|e| bad_position(&gnubg_id::encode(&setup), e))?;
    Ok(setup)
}

/// The same words as the command line's for a bad position.
fn bad_position(text: &str, e: impl std::fmt::Display) -> PyErr {
    error(format!("bad position {text:?}: {e}"))
}

/// A board array of any integer type, each value checked to fit.
fn board_arg(board: &Bound<'_, PyAny>) -> PyResult<[i8; SLOTS]> {
    let values: Vec<i64> = match board.extract::<PyReadonlyArray1<'_, i8>>() {
        Ok(a) => a.as_array().iter().map(|&v| i64::from(v)).collect(),
        Err(_) => integers(board)?
            .extract::<Vec<i64>>()
            .map_err(|_| error("bad board: give 26 integers"))?,
    };
    let raw: Vec<i8> = values
        .iter()
        .map(|&v| i8::try_from(v).map_err(|_| error(format!("bad board: {v} checkers on a slot"))))
        .collect::<PyResult<_>>()?;
    <[i8; SLOTS]>::try_from(raw.as_slice())
        .map_err(|_| error(format!("bad board: {} slots, not {SLOTS}", raw.len())))
}

/// A numpy array of another integer type as int64 (always safe); any
/// other object as it is.
fn integers<'py>(arg: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    match arg.cast::<PyUntypedArray>() {
        Ok(a) if matches!(a.dtype().kind(), b'i' | b'u') => {
            Ok(arg.call_method1("astype", ("int64",))?)
        }
        Ok(a) => Err(error(format!(
            "bad board: an integer array, not dtype {}",
            a.dtype()
        ))),
        Err(_) => Ok(arg.clone()),
    }
}

/// How many rows of a batch are read between looks at Python's signals.
const SIGNAL_ROWS: usize = 1 << 16;

/// A batch's shape, refused unless its rows are boards.
fn check_width((rows, cols): (usize, usize)) -> PyResult<()> {
    if cols == SLOTS {
        Ok(())
    } else {
        Err(error(format!(
            "bad batch: shape ({rows}, {cols}), not (n, {SLOTS})"
        )))
    }
}

/// A batch argument: an `(n, 26)` integer array, or a sequence of
/// positions or IDs. Boards are checked as `Position.from_array` checks
/// one, and the error names the row.
pub fn positions_arg(arg: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    let py = arg.py();
    let row = |i: usize, raw: &[i8]| -> PyResult<Position> {
        // Reading millions of rows takes long enough for a Ctrl-C.
        if i % SIGNAL_ROWS == SIGNAL_ROWS - 1 {
            py.check_signals()?;
        }
        let raw: &[i8; SLOTS] = raw
            .try_into()
            .map_err(|_| error(format!("bad batch: rows of {SLOTS} slots")))?;
        Position::from_raw(raw).map_err(|e| error(format!("bad board in row {i}: {e}")))
    };
    if let Ok(a) = arg.extract::<PyReadonlyArray2<'_, i8>>() {
        let view = a.as_array();
        check_width(view.dim())?;
        return match view.as_slice() {
            Some(flat) => flat
                .chunks_exact(SLOTS)
                .enumerate()
                .map(|(i, r)| row(i, r))
                .collect(),
            None => view
                .rows()
                .into_iter()
                .enumerate()
                .map(|(i, r)| row(i, &r.to_vec()))
                .collect(),
        };
    }
    if arg.cast::<PyUntypedArray>().is_ok() {
        let ints = integers(arg)?;
        let wide = ints
            .extract::<PyReadonlyArray2<'_, i64>>()
            .map_err(|_| error(format!("bad batch: give an (n, {SLOTS}) integer array")))?;
        let view = wide.as_array();
        check_width(view.dim())?;
        return view
            .rows()
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let narrow: Vec<i8> = r
                    .iter()
                    .map(|&v| {
                        i8::try_from(v).map_err(|_| {
                            error(format!("bad board in row {i}: {v} checkers on a slot"))
                        })
                    })
                    .collect::<PyResult<_>>()?;
                row(i, &narrow)
            })
            .collect();
    }
    arg.try_iter()
        .map_err(|_| error("bad batch: give an (n, 26) array or a sequence of positions"))?
        .map(|item| shown_arg(&item?).map(|s| s.position))
        .collect()
}
