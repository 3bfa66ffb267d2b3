//! Jobs run on a rayon pool, their results handed back in the order the jobs were started:
//! the window under [`Extractor::extract_all`](crate::Extractor::extract_all) and under the
//! Python bindings' `extract_many`, which reads its pages from Python and so cannot hand
//! rayon an iterator.
//!
//! The caller starts jobs (or enters results it already has, such as an input it could not
//! read) and takes results from the front; how many it keeps started and not yet taken is
//! its window. Each entry carries a context of the caller's (what names the page), handed
//! back with the result, so that a job lost unrun can still be reported by name.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;

/// Results of jobs on a pool, in the order the jobs were started. See the module docs.
pub struct InOrder<C, T> {
    queue: VecDeque<(C, Pending<T>)>,
}

/// An entry: a result in hand, where it will arrive, or what arrived there before the
/// entry's turn ([`InOrder::front_is_done`]).
enum Pending<T> {
    Ready(T),
    Running(mpsc::Receiver<std::thread::Result<T>>),
    Finished(Result<std::thread::Result<T>, mpsc::RecvError>),
}

/// A job that never ran: its pool was torn down under it (rayon drops queued jobs only
/// then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobLost;

impl std::fmt::Display for JobLost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the thread pool stopped before the job ran")
    }
}

impl std::error::Error for JobLost {}

impl<C, T: Send + 'static> InOrder<C, T> {
    /// Nothing started.
    pub fn new() -> Self {
        InOrder {
            queue: VecDeque::new(),
        }
    }

    /// Entries started or entered and not yet taken.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether there is nothing to take.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Starts `job` on the current pool (the pool whose `install` the caller is in, else
    /// rayon's global pool), first come first served.
    pub fn spawn(&mut self, context: C, job: impl FnOnce() -> T + Send + 'static) {
        let (send, outcome) = mpsc::sync_channel(1);
        rayon::spawn_fifo(move || run(job, send));
        self.queue.push_back((context, Pending::Running(outcome)));
    }

    /// Starts `job` on `pool`, first come first served.
    pub fn spawn_in(
        &mut self,
        pool: &rayon::ThreadPool,
        context: C,
        job: impl FnOnce() -> T + Send + 'static,
    ) {
        let (send, outcome) = mpsc::sync_channel(1);
        pool.spawn_fifo(move || run(job, send));
        self.queue.push_back((context, Pending::Running(outcome)));
    }

    /// Enters a result the caller already has, in its place among the jobs.
    pub fn push_ready(&mut self, context: C, value: T) {
        self.queue.push_back((context, Pending::Ready(value)));
    }

    /// The oldest entry's context and result, waiting for its job to finish; `None` when
    /// nothing is pending. A job that panicked resumes its panic here, on the caller's
    /// thread, as a parallel iterator would.
    pub fn next_result(&mut self) -> Option<(C, Result<T, JobLost>)> {
        let (context, pending) = self.queue.pop_front()?;
        let outcome = match pending {
            Pending::Ready(value) => return Some((context, Ok(value))),
            Pending::Running(outcome) => wait(&outcome),
            Pending::Finished(outcome) => outcome,
        };
        let result = match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(mpsc::RecvError) => Err(JobLost),
        };
        Some((context, result))
    }

    /// Whether a caller that keeps at most `window` entries, and has already read
    /// `read_already` inputs in this turn, should read another before it takes a result:
    /// while there is room, except that once it has read one it stops as soon as the oldest
    /// result is in.
    ///
    /// Reading may block (a pipe fed by a crawler, a generator that fetches pages), and a
    /// result in hand should not wait for the next input to arrive: filling the window first
    /// held a finished result back by up to a window's inputs. Reading at least one per turn
    /// keeps the pool fed when results come faster than the caller takes them; a result then
    /// waits for at most one input to arrive.
    pub fn should_read(&mut self, window: usize, read_already: bool) -> bool {
        self.len() < window && !(read_already && self.front_is_done())
    }

    /// Whether [`InOrder::next_result`] would answer without waiting: the oldest entry's
    /// result is in hand, or its job is over (done, panicked or lost). Never blocks; false
    /// when nothing is pending. A caller that reads its jobs' inputs from a slow source asks
    /// this between reads, so that a finished result is not held back while it waits for
    /// the next input.
    pub fn front_is_done(&mut self) -> bool {
        let Some((_, pending)) = self.queue.front_mut() else {
            return false;
        };
        let Pending::Running(outcome) = pending else {
            return true;
        };
        match outcome.try_recv() {
            Ok(done) => *pending = Pending::Finished(Ok(done)),
            Err(mpsc::TryRecvError::Disconnected) => {
                *pending = Pending::Finished(Err(mpsc::RecvError));
            }
            Err(mpsc::TryRecvError::Empty) => return false,
        }
        true
    }
}

impl<C, T: Send + 'static> Default for InOrder<C, T> {
    fn default() -> Self {
        InOrder::new()
    }
}

/// Runs a job on a pool thread and sends its outcome back. A panic is caught and sent, to
/// be resumed on the caller's thread, rather than ending the process in rayon's handler.
fn run<T>(job: impl FnOnce() -> T, send: mpsc::SyncSender<std::thread::Result<T>>) {
    let done = std::panic::catch_unwind(AssertUnwindSafe(job));
    // The receiver is gone only when the caller stopped early: nothing to tell.
    let _ = send.send(done);
}

/// How long a caller on a pool thread with nothing of the pool's to run blocks on a job's
/// outcome before it looks for the pool's work again.
const IDLE_WAIT: std::time::Duration = std::time::Duration::from_millis(1);

/// Waits for a job's outcome. On a thread of a pool (a caller inside `install`), blocking
/// could leave the job waiting for the very thread that waits for it, so that thread runs
/// the pool's other jobs meanwhile; when there are none, the job is running elsewhere and
/// the thread blocks for [`IDLE_WAIT`] at a time instead of spinning (which burnt a core
/// for as long as the job ran).
fn wait<T>(outcome: &mpsc::Receiver<T>) -> Result<T, mpsc::RecvError> {
    if rayon::current_thread_index().is_none() {
        return outcome.recv();
    }
    loop {
        match outcome.try_recv() {
            Ok(done) => return Ok(done),
            Err(mpsc::TryRecvError::Disconnected) => return Err(mpsc::RecvError),
            Err(mpsc::TryRecvError::Empty) => {}
        }
        if rayon::yield_now() == Some(rayon::Yield::Executed) {
            continue;
        }
        match outcome.recv_timeout(IDLE_WAIT) {
            Ok(done) => return Ok(done),
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(mpsc::RecvError),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_the_order_started_whatever_order_they_finish_in() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut jobs = InOrder::new();
        // The earlier jobs sleep longer, so they finish last.
        for i in 0..6u64 {
            if i == 3 {
                jobs.push_ready(i, 300);
                continue;
            }
            jobs.spawn_in(&pool, i, move || {
                std::thread::sleep(std::time::Duration::from_millis(30 * (6 - i)));
                i * 100
            });
        }
        assert_eq!(jobs.len(), 6);
        let mut got = Vec::new();
        while let Some((i, r)) = jobs.next_result() {
            got.push((i, r.unwrap()));
        }
        let want: Vec<(u64, u64)> = (0..6).map(|i| (i, i * 100)).collect();
        assert_eq!(got, want);
        assert!(jobs.is_empty());
    }

    #[test]
    fn a_panic_in_a_job_is_resumed_on_the_callers_thread() {
        let mut jobs: InOrder<(), u32> = InOrder::new();
        jobs.spawn((), || panic!("job failed"));
        let caught = std::panic::catch_unwind(AssertUnwindSafe(|| jobs.next_result()));
        let payload = caught.expect_err("the panic was not resumed");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"job failed"));
    }

    /// Polls `front_is_done` until it says yes (a minute at most).
    fn until_done<C, T: Send + 'static>(jobs: &mut InOrder<C, T>) -> bool {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while std::time::Instant::now() < deadline {
            if jobs.front_is_done() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        false
    }

    #[test]
    fn the_front_is_done_only_once_its_job_has_finished_and_its_result_is_kept() {
        let mut jobs: InOrder<u8, u32> = InOrder::new();
        assert!(!jobs.front_is_done(), "nothing pending");
        let (go, gate) = mpsc::channel::<()>();
        jobs.spawn(1, move || {
            let _ = gate.recv();
            7
        });
        jobs.spawn(2, || 8);
        // The first job waits for the gate: the front is not done, whatever the second did.
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!jobs.front_is_done());
        go.send(()).unwrap();
        assert!(until_done(&mut jobs), "the first job never finished");
        // Asking again keeps the result taken off the channel.
        assert!(jobs.front_is_done());
        assert_eq!(jobs.next_result(), Some((1, Ok(7))));
        assert!(until_done(&mut jobs));
        assert_eq!(jobs.next_result(), Some((2, Ok(8))));
        jobs.push_ready(3, 9);
        assert!(
            jobs.front_is_done(),
            "a result entered by the caller is in hand"
        );
    }

    #[test]
    fn should_read_while_there_is_room_and_after_one_read_only_while_the_front_runs() {
        let mut jobs: InOrder<u8, u32> = InOrder::new();
        assert!(jobs.should_read(2, false) && jobs.should_read(2, true));
        let (go, gate) = mpsc::channel::<()>();
        jobs.spawn(1, move || {
            let _ = gate.recv();
            7
        });
        // The front runs: room means read, whether or not one was read this turn.
        assert!(jobs.should_read(2, false) && jobs.should_read(2, true));
        assert!(!jobs.should_read(1, false), "a full window reads no more");
        go.send(()).unwrap();
        assert!(until_done(&mut jobs));
        // The front is done: a turn that has read one stops; a turn that has not reads one.
        assert!(!jobs.should_read(2, true));
        assert!(jobs.should_read(2, false));
    }

    #[test]
    fn a_panic_seen_early_is_still_resumed_in_its_turn() {
        let mut jobs: InOrder<(), u32> = InOrder::new();
        jobs.spawn((), || panic!("job failed early"));
        assert!(until_done(&mut jobs));
        let caught = std::panic::catch_unwind(AssertUnwindSafe(|| jobs.next_result()));
        let payload = caught.expect_err("the panic was not resumed");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"job failed early"));
    }
}
