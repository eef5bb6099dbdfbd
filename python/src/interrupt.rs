//! Long calls run without the GIL and stop on Ctrl-C: the work goes to a
//! worker thread while the calling thread waits for it, looking at
//! Python's signals between short waits. A signal sets the facade's
//! cancellation flag (the work stops at its next trial, decision or
//! chunk) and the call raises what the signal handler raised
//! (`KeyboardInterrupt` for Ctrl-C).

use kotra::analysis::TrialProgress;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How long the waiting thread sleeps between looks at the signals:
/// short beside the second a user waits after Ctrl-C, long beside the
/// cost of a look.
const LOOK_EVERY: Duration = Duration::from_millis(20);

/// The cancellation flag a job's facade call listens to.
#[derive(Default)]
pub struct Stop(AtomicBool);

impl TrialProgress for Stop {
    fn done(&self, _: u64) {}
    fn cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Runs `work` with the GIL released; a signal's exception (raised by its
/// Python handler) cancels it, and a panic becomes a `PanicException`.
pub fn interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Stop) -> T + Send,
{
    let stop = Stop::default();
    let (out, signal) = py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel();
            let stop = &stop;
            let worker = scope.spawn(move || {
                // The receiver outlives the worker: this send cannot fail.
                let _ = tx.send(work(stop));
            });
            let mut signal: Option<PyErr> = None;
            loop {
                match rx.recv_timeout(LOOK_EVERY) {
                    Ok(out) => return (Ok(out), signal),
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        let why = worker.join().err().map_or_else(
                            || "the worker ended without an answer".to_string(),
                            |p| panic_message(p.as_ref()),
                        );
                        return (Err(PanicException::new_err(why)), signal);
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) if signal.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            signal = Some(e);
                            stop.0.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                }
            }
        })
    });
    match signal {
        Some(e) => Err(e),
        None => out,
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}
