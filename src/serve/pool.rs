//! The bounded solving pool: a fixed number of worker threads, each with its own solvers and
//! bounded tables, fed by a bounded queue, so that no number of clients can make the server
//! search more at once or hold more memory than its configuration allows.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use crate::quarto;
use crate::solver::{Book, Mib, Solver};

/// What a worker keeps from job to job: its Connect-k solver, and its Quarto solver, made (with
/// a table of the same size) at its first Quarto job.
struct Bench {
    solver: Solver,
    quarto: Option<quarto::Solver>,
}

/// What a job does with a worker's solvers, told the job's cancel signal.
type Work = Box<dyn FnOnce(&mut Bench, &Arc<AtomicBool>) + Send>;

/// One piece of work for a worker's solvers, with the signal raised when its asker has gone.
struct Job {
    work: Work,
    cancel: Arc<AtomicBool>,
}

/// Raises the signal of a job when dropped before [`CancelOnDrop::disarm`]: the request
/// handler holding it is dropped when its client hangs up, and the job's search then stops
/// (or, still queued, never starts).
struct CancelOnDrop(Option<Arc<AtomicBool>>);

impl CancelOnDrop {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(cancel) = &self.0 {
            cancel.store(true, Ordering::Relaxed);
        }
    }
}

/// Why the pool did not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PoolError {
    /// Every worker is busy and the queue is full.
    #[error(
        "the server is busy: {workers} searches are running and {queue} are waiting; try again in a few seconds"
    )]
    Busy {
        /// Workers.
        workers: usize,
        /// Places in the queue.
        queue: usize,
    },
    /// The work panicked (a bug); the worker carries on with a fresh solver.
    #[error("the search failed unexpectedly; the server carries on")]
    Failed,
}

/// Worker threads with one solver each, and the queue in front of them.
pub(crate) struct Pool {
    sender: SyncSender<Job>,
    workers: usize,
    queue: usize,
    /// Each worker's table size, for the Quarto solvers made on demand.
    table: Mib,
}

impl Pool {
    /// Starts `workers` threads (at least 1), each with a solver of `table` (for the search's
    /// table and the one-row solver alike) searching with `search_threads` threads and
    /// consulting `books`, behind a queue of `queue` waiting jobs.
    pub(crate) fn new(
        workers: usize,
        search_threads: usize,
        queue: usize,
        table: Mib,
        books: &[Arc<Book>],
    ) -> Pool {
        let workers = workers.max(1);
        let (sender, receiver) = sync_channel::<Job>(queue);
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..workers {
            let receiver = Arc::clone(&receiver);
            let books = books.to_vec();
            std::thread::Builder::new()
                .name(format!("connectk-solver-{n}"))
                .spawn(move || work(&receiver, search_threads, table, &books))
                .expect("the system can start a thread");
        }
        Pool {
            sender,
            workers,
            queue,
            table,
        }
    }

    /// Runs `job` on a worker's solver and waits for its answer without blocking the caller's
    /// thread. If the returned future is dropped before the answer (the client hung up), the
    /// job is cancelled: skipped if still queued, else its budgeted searches stop at once (see
    /// [`Solver::set_cancel`]).
    ///
    /// # Errors
    /// [`PoolError::Busy`] at once when the queue is full; [`PoolError::Failed`] if the job
    /// panicked.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut Solver) -> T + Send + 'static,
    ) -> Result<T, PoolError> {
        self.submit(move |bench, _| job(&mut bench.solver)).await
    }

    /// Runs `job` on a worker's Quarto solver, made for `rules` at the worker's first Quarto
    /// job (it adapts to other rules itself), as [`Pool::run`] does: the job's searches stop
    /// when the asker goes away.
    ///
    /// # Errors
    /// As [`Pool::run`].
    pub(crate) async fn run_quarto<T: Send + 'static>(
        &self,
        rules: quarto::Rules,
        job: impl FnOnce(&mut quarto::Solver) -> T + Send + 'static,
    ) -> Result<T, PoolError> {
        let table = self.table;
        self.submit(move |bench, cancel| {
            let solver = bench
                .quarto
                .get_or_insert_with(|| quarto::Solver::new(rules, table.bytes()));
            solver.set_cancel(Some(Arc::clone(cancel)));
            let answer = job(solver);
            // The next job starts with no limits of this one's.
            solver.set_cancel(None);
            solver.set_deadline(None);
            solver.set_node_limit(u64::MAX);
            answer
        })
        .await
    }

    /// Queues `work` and waits for its answer; see [`Pool::run`].
    async fn submit<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Bench, &Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Result<T, PoolError> {
        let (tell, answer) = oneshot::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let job = Job {
            work: Box::new(move |bench, cancel| {
                // The asker may have gone (a closed page); the answer is then simply dropped.
                let _ = tell.send(work(bench, cancel));
            }),
            cancel: Arc::clone(&cancel),
        };
        match self.sender.try_send(job) {
            Ok(()) => {
                let guard = CancelOnDrop(Some(cancel));
                let answer = answer.await.map_err(|_| PoolError::Failed);
                guard.disarm();
                answer
            }
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
                Err(PoolError::Busy {
                    workers: self.workers,
                    queue: self.queue,
                })
            }
        }
    }
}

/// A worker's loop: take the next job, run it on this worker's solver, until the pool is gone.
fn work(receiver: &Mutex<Receiver<Job>>, threads: usize, table: Mib, books: &[Arc<Book>]) {
    let fresh = || {
        let solver = Solver::new(table)
            .with_one_row_memory(table)
            .with_threads(threads);
        let solver = books
            .iter()
            .fold(solver, |solver, book| solver.with_book(Arc::clone(book)));
        Bench {
            solver,
            quarto: None,
        }
    };
    let mut bench = fresh();
    loop {
        // The lock is held only while waiting for the next job, never while running it.
        let next = receiver.lock().map(|r| r.recv());
        let Ok(Ok(job)) = next else { return };
        if job.cancel.load(Ordering::Relaxed) {
            continue;
        }
        bench.solver.set_cancel(Some(Arc::clone(&job.cancel)));
        let (work, cancel) = (job.work, job.cancel);
        if catch_unwind(AssertUnwindSafe(|| work(&mut bench, &cancel))).is_err() {
            // A solver may be half-way through an update; start over with clean ones.
            bench = fresh();
        }
        bench.solver.set_cancel(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_full_queue_says_busy_at_once() {
        let pool = Arc::new(Pool::new(1, 1, 1, Mib(1), &[]));
        let (release, hold) = std::sync::mpsc::channel::<()>();
        let hold = Mutex::new(hold);
        // The worker waits on the first job; the second fills the queue.
        let first = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move {
                pool.run(move |_| {
                    let _ = hold.lock().unwrap().recv_timeout(Duration::from_secs(10));
                    1
                })
                .await
            })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        let second = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move { pool.run(|_| 2).await })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        let third = pool.run(|_| 3).await;
        assert_eq!(
            third,
            Err(PoolError::Busy {
                workers: 1,
                queue: 1
            })
        );
        release.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Ok(1));
        assert_eq!(second.await.unwrap(), Ok(2));
    }

    #[tokio::test]
    async fn a_panicking_job_fails_alone() {
        let pool = Pool::new(1, 1, 4, Mib(1), &[]);
        let failed: Result<(), _> = pool.run(|_| panic!("a bug")).await;
        assert_eq!(failed, Err(PoolError::Failed));
        assert_eq!(pool.run(|_| 7).await, Ok(7));
    }
}
