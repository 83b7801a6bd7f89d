//! Lazy SMP's helper threads, kept from one search to the next. A thread started for a
//! search runs only once the scheduler gets to it: on the 2-core virtual machine the
//! bench runs on, 0.05 to 4.6 ms after it was spawned, as long as a whole bench search
//! of chess (so two threads often searched as one). A parked thread wakes in about
//! 50 µs.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;

/// Work for one helper thread.
pub(crate) type Job = Box<dyn FnOnce() + Send + 'static>;

/// The helper threads, each waiting on its own queue of jobs.
#[derive(Default)]
pub(crate) struct Pool {
    queues: Mutex<Vec<Sender<Job>>>,
}

impl Pool {
    /// Runs `job` on helper `i` (from 0), starting helpers up to it first; false if a
    /// thread cannot be started (the search then runs with fewer helpers).
    pub fn run(&self, i: usize, stack_bytes: usize, job: Job) -> bool {
        let mut queues = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        while queues.len() <= i {
            match spawn(queues.len(), stack_bytes) {
                Some(q) => queues.push(q),
                None => return false,
            }
        }
        // A helper whose thread has gone (it cannot, as a job's panic is caught) is
        // started again.
        match queues[i].send(job) {
            Ok(()) => true,
            Err(back) => match spawn(i, stack_bytes) {
                Some(q) => {
                    let ok = q.send(back.0).is_ok();
                    queues[i] = q;
                    ok
                }
                None => false,
            },
        }
    }

    /// How many helper threads have been started.
    #[cfg(test)]
    pub fn started(&self) -> usize {
        self.queues.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// Starts helper `i`'s thread; it runs the jobs sent to it in turn until the pool goes.
fn spawn(i: usize, stack_bytes: usize) -> Option<Sender<Job>> {
    let (tx, rx) = channel::<Job>();
    std::thread::Builder::new()
        .name(format!("search-{}", i + 1))
        .stack_size(stack_bytes)
        .spawn(move || {
            while let Ok(job) = rx.recv() {
                // A job reports its own panic; the thread stays for the next one.
                let _ = catch_unwind(AssertUnwindSafe(job));
            }
        })
        .ok()
        .map(|_| tx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn a_helper_runs_every_job_sent_to_it_and_outlives_a_panicking_one() {
        let pool = Pool::default();
        let (tx, rx) = channel();
        for k in 0..3 {
            let tx = tx.clone();
            assert!(pool.run(1, 1 << 20, Box::new(move || tx.send((k, 1)).unwrap())));
        }
        assert!(pool.run(1, 1 << 20, Box::new(|| panic!("a job's panic"))));
        let tx2 = tx.clone();
        assert!(pool.run(1, 1 << 20, Box::new(move || tx2.send((9, 1)).unwrap())));
        assert!(pool.run(0, 1 << 20, Box::new(move || tx.send((5, 0)).unwrap())));
        let mut got: Vec<_> = rx.iter().take(5).collect();
        got.sort();
        assert_eq!(got, vec![(0, 1), (1, 1), (2, 1), (5, 0), (9, 1)]);
        assert_eq!(
            pool.queues.lock().unwrap().len(),
            2,
            "one thread per helper"
        );
    }
}
