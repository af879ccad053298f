//! Long solves from Python: the search runs on a worker thread with the GIL released, while
//! the calling thread watches for signals, so that Ctrl-C in a notebook stops it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use pyo3::prelude::*;

/// How often the calling thread looks for a pending signal while the search runs.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// A solver whose searches give up once a flag is raised.
pub trait Cancellable: Send {
    /// Makes the searches give up once `cancel` is raised; `None` removes the flag.
    fn set_cancel(&mut self, cancel: Option<Arc<AtomicBool>>);
}

impl Cancellable for connectk::Solver {
    fn set_cancel(&mut self, cancel: Option<Arc<AtomicBool>>) {
        connectk::Solver::set_cancel(self, cancel);
    }
}

impl Cancellable for connectk::quarto::Solver {
    fn set_cancel(&mut self, cancel: Option<Arc<AtomicBool>>) {
        connectk::quarto::Solver::set_cancel(self, cancel);
    }
}

/// Runs `work` on `solver` on a worker thread, with the GIL released. With a Connect-k
/// solver, `work` must run its searches under [`connectk::Solver::limited`] (with
/// [`connectk::Budget::UNLIMITED`] for none), the only searches that obey its cancel flag. A
/// signal whose Python handler raises (Ctrl-C's
/// KeyboardInterrupt) stops the search through the solver's cancel flag, and its exception
/// is returned once the worker has let go of the solver.
///
/// Python runs signal handlers on the main thread only, and only while it holds the GIL: a
/// search on the calling thread would leave Ctrl-C pending until it finished, so the search
/// moves to a worker and the caller wakes up every [`SIGNAL_POLL`] to let the handlers run.
pub fn run<S: Cancellable, T: Send>(
    py: Python<'_>,
    solver: &mut S,
    work: impl FnOnce(&mut S) -> T + Send,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    solver.set_cancel(Some(cancel.clone()));
    let finished = &Finished::default();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let answer = work(solver);
            finished.set();
            (answer, solver)
        });
        let signal = loop {
            // A worker that panicked never says so: `is_finished` catches that.
            if py.detach(|| finished.wait(SIGNAL_POLL)) || worker.is_finished() {
                break None;
            }
            if let Err(error) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                break Some(error);
            }
        };
        let joined = py.detach(|| worker.join());
        match (signal, joined) {
            (Some(error), Ok((_, solver))) => {
                solver.set_cancel(None);
                Err(error)
            }
            (None, Ok((answer, solver))) => {
                solver.set_cancel(None);
                Ok(answer)
            }
            (_, Err(panic)) => std::panic::resume_unwind(panic),
        }
    })
}

/// The worker's "done", which the watching thread waits for with a timeout.
#[derive(Default)]
struct Finished {
    done: Mutex<bool>,
    changed: Condvar,
}

impl Finished {
    fn set(&self) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.changed.notify_all();
    }

    /// Whether the worker is done, waiting at most `timeout` for it.
    fn wait(&self, timeout: Duration) -> bool {
        let done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        let (done, _) = self
            .changed
            .wait_timeout_while(done, timeout, |done| !*done)
            .unwrap_or_else(|e| e.into_inner());
        *done
    }
}
