//! Work on many items in parallel, results printed in the items' order as
//! soon as they can be: `sapper analyse` of hundreds of positions.
//!
//! A fixed set of worker threads takes the items one at a time, in order,
//! from a shared counter (so a slow item holds up no other worker), and the
//! calling thread prints each result once every earlier one is printed.
//! Workers run at most `window` items ahead of the printing, so no more
//! than `window` results are held however large each one is. Nothing waits
//! for a whole batch: reading, working and printing overlap throughout.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Runs `work(state, i)` for every `i` in `0..count` on `threads` threads
/// (each with its own `state` from `init`, kept from item to item) and calls
/// `print(i, result)` on the calling thread in order of `i`. The first
/// error `print` returns stops the work (items under way finish, no new
/// one starts) and is returned.
pub fn map_in_order<S, R, E>(
    count: usize,
    threads: usize,
    window: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> R + Sync,
    mut print: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E>
where
    R: Send,
{
    let window = window.max(1);
    let shared = Shared {
        next: AtomicUsize::new(0),
        state: Mutex::new(State {
            slots: (0..window).map(|_| None).collect(),
            printed: 0,
            stopped: false,
            printer_waits: false,
            workers_waiting: 0,
        }),
        arrived: Condvar::new(),
        room: Condvar::new(),
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, count.max(1)) {
            let (shared, init, work) = (&shared, &init, &work);
            scope.spawn(move || {
                // A worker that panics stops the printing, which would
                // otherwise wait for its item forever; the scope then
                // passes the panic on.
                let _stop_on_panic = StopOnPanic(shared);
                let mut state = init();
                loop {
                    let i = shared.next.fetch_add(1, Ordering::Relaxed);
                    if i >= count || !shared.wait_for_room(i, window) {
                        break;
                    }
                    let result = work(&mut state, i);
                    let mut st = shared.lock();
                    st.slots[i % window] = Some(result);
                    // The printer is woken for a run of results, not for
                    // each: on a machine with as many busy workers as
                    // cores, each wake takes a core from a worker.
                    let run = (st.printed..count.min(st.printed + window))
                        .take_while(|&j| st.slots[j % window].is_some())
                        .count();
                    if st.printer_waits && run >= (window / 4).max(1).min(count - st.printed) {
                        shared.arrived.notify_one();
                    }
                }
            });
        }
        let mut outcome = Ok(());
        'printing: for i in 0..count {
            let result = {
                let mut st = shared.lock();
                loop {
                    if let Some(r) = st.slots[i % window].take() {
                        break r;
                    }
                    if st.stopped {
                        break 'printing; // a worker panicked: the scope says so
                    }
                    st.printer_waits = true;
                    st = shared.arrived.wait(st).unwrap_or_else(|e| e.into_inner());
                    st.printer_waits = false;
                }
            };
            if let Err(e) = print(i, result) {
                outcome = Err(e);
                shared.stop();
                break;
            }
            let mut st = shared.lock();
            st.printed = i + 1;
            if st.workers_waiting > 0 {
                shared.room.notify_all();
            }
        }
        outcome
    })
}

/// The number of worker threads: `RAYON_NUM_THREADS` when set to a
/// positive number (as for the commands that use rayon's pool), else one
/// per core.
pub fn threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

struct Shared<R> {
    /// The next item to take.
    next: AtomicUsize,
    state: Mutex<State<R>>,
    /// A result arrived (for the printer).
    arrived: Condvar,
    /// The printing moved on, or the work stopped (for the workers).
    room: Condvar,
}

struct State<R> {
    /// Item `i`'s result, until printed, at `i % window`.
    slots: Vec<Option<R>>,
    /// Items `0..printed` are printed.
    printed: usize,
    stopped: bool,
    /// Who waits on the condition variables: each notification is a
    /// system call, made only when someone waits.
    printer_waits: bool,
    workers_waiting: usize,
}

impl<R> Shared<R> {
    fn lock(&self) -> MutexGuard<'_, State<R>> {
        // A worker that panics holds no lock while it works, and the
        // state stays consistent under every lock taken here.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until item `i` is within `window` of the printing; false if
    /// the work stopped.
    fn wait_for_room(&self, i: usize, window: usize) -> bool {
        let mut st = self.lock();
        while !st.stopped && i >= st.printed + window {
            st.workers_waiting += 1;
            st = self.room.wait(st).unwrap_or_else(|e| e.into_inner());
            st.workers_waiting -= 1;
        }
        !st.stopped
    }

    fn stop(&self) {
        self.lock().stopped = true;
        self.room.notify_all();
        self.arrived.notify_all();
    }
}

struct StopOnPanic<'a, R>(&'a Shared<R>);

impl<R> Drop for StopOnPanic<'_, R> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `f()`, or a failure if it takes over a minute: a bug here is as
    /// likely a hang (a result never printed) as a wrong order.
    fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (done, result) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(f());
        });
        result
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("finished within a minute (not hung)")
    }

    #[test]
    fn results_are_printed_in_order_whatever_the_threads_and_window() {
        within_a_minute(in_order_whatever_the_threads_and_window);
    }

    fn in_order_whatever_the_threads_and_window() {
        for threads in [1, 2, 3, 8] {
            for window in [1, 2, 5, 64] {
                let mut printed = Vec::new();
                map_in_order(
                    100,
                    threads,
                    window,
                    || 0usize,
                    |done, i| {
                        // Uneven work, so that items finish out of order.
                        std::thread::sleep(std::time::Duration::from_micros((i % 7) as u64 * 50));
                        *done += 1;
                        i * i
                    },
                    |i, r| {
                        assert_eq!(r, i * i);
                        printed.push(i);
                        Ok::<(), ()>(())
                    },
                )
                .unwrap();
                assert_eq!(printed, (0..100).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn no_item_runs_more_than_the_window_ahead_of_the_printing() {
        within_a_minute(never_more_than_the_window_ahead);
    }

    fn never_more_than_the_window_ahead() {
        let printed = AtomicUsize::new(0);
        let furthest_ahead = AtomicUsize::new(0);
        map_in_order(
            200,
            4,
            3,
            || (),
            |_, i| {
                let ahead = i - printed.load(Ordering::SeqCst);
                furthest_ahead.fetch_max(ahead, Ordering::SeqCst);
            },
            |i, ()| {
                printed.store(i + 1, Ordering::SeqCst);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        let ahead = furthest_ahead.load(Ordering::SeqCst);
        assert!(ahead < 3, "an item started {ahead} ahead of the printing");
    }

    #[test]
    fn a_print_error_stops_the_work_and_is_returned() {
        within_a_minute(print_error_stops_the_work);
    }

    fn print_error_stops_the_work() {
        let started = AtomicUsize::new(0);
        let result = map_in_order(
            10_000,
            2,
            4,
            || (),
            |_, _| {
                started.fetch_add(1, Ordering::SeqCst);
            },
            |i, ()| if i == 10 { Err(i) } else { Ok(()) },
        );
        assert_eq!(result, Err(10));
        // Items 0..=10 were printed; at most a window more were started.
        assert!(started.load(Ordering::SeqCst) <= 11 + 4);
    }

    #[test]
    fn no_items_print_nothing() {
        let r = map_in_order(0, 2, 4, || (), |_, _| (), |_, ()| Err::<(), _>("printed"));
        assert_eq!(r, Ok(()));
    }

    #[test]
    fn a_panicking_worker_is_reported_not_waited_for() {
        let panicked = within_a_minute(|| {
            std::panic::catch_unwind(|| {
                map_in_order(
                    20,
                    2,
                    4,
                    || (),
                    |_, i| {
                        if i == 5 {
                            panic!("item 5");
                        }
                    },
                    |_, ()| Ok::<(), ()>(()),
                )
            })
            .is_err()
        });
        assert!(panicked, "the worker's panic reaches the caller");
    }
}
