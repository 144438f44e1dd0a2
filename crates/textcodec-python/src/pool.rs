//! The threads that `decode_many` runs its lists on: made when a call needs them and parked
//! between calls (until idle for [`IDLE`]), instead of a new thread per call and thread.
//!
//! - A call hands the pool tasks (boxed closures) and runs its own share of the work on the
//!   calling thread; a task that no thread is free to take is left for the pool's next free
//!   thread, so that a call never waits for a task to start (several Python threads may call
//!   at once and share the threads; each call progresses on its own thread whatever the
//!   pool's threads are doing).
//! - [`Scope`]: a call's tasks read memory that the call owns (the rows' bytes); the call
//!   closes its scope before it returns, which waits for the tasks running in it to leave and
//!   keeps the ones not yet started from entering.
//! - After `os.fork()` the child has none of the parent's threads and the pool's lock may
//!   have been held by one of them at the fork: the pool records the process id it was made
//!   in, and a call in another process makes a new pool and never touches the old one (the
//!   registry itself is only used with the GIL held, which the thread that forks holds).

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use pyo3::Python;

/// A task for the pool's threads.
pub(crate) type Task = Box<dyn FnOnce() + Send>;

/// The pool's threads and the tasks waiting for one.
pub(crate) struct Pool {
    pid: u32,
    state: Mutex<State>,
    ready: Condvar,
}

#[derive(Default)]
struct State {
    tasks: VecDeque<Task>,
    /// Threads made.
    threads: usize,
}

/// The process's pool (used with the GIL held only: see the module's comment on fork).
static POOL: Mutex<Option<Arc<Pool>>> = Mutex::new(None);

/// The most threads the pool makes.
const MAX_THREADS: usize = 256;

/// How long a thread of the pool waits for a task before it ends: long enough for the calls
/// of a batch job to find their threads there, short enough that an idle process does not
/// keep them (nor their memory, nor a thread count that `os.fork()` warns about from
/// Python 3.12).
const IDLE: std::time::Duration = std::time::Duration::from_secs(2);

/// Locks `m`, whose data stays consistent even if a thread panicked while holding it (none
/// of the pool's locked sections can panic halfway).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Pool {
    /// The process's pool (made in this process: see the module's comment on fork).
    pub(crate) fn get(_py: Python<'_>) -> Arc<Pool> {
        let pid = std::process::id();
        let mut slot = lock(&POOL);
        if let Some(pool) = slot.as_ref() {
            if pool.pid == pid {
                return pool.clone();
            }
            // The parent's pool, in a forked child: its threads do not exist here and its
            // lock may be held forever. Left as it is (never freed, never locked).
            std::mem::forget(slot.take());
        }
        let pool = Arc::new(Pool {
            pid,
            state: Mutex::new(State::default()),
            ready: Condvar::new(),
        });
        *slot = Some(pool.clone());
        pool
    }

    /// Queues `tasks`, making threads until the pool has at least as many as tasks (a thread
    /// that cannot be made leaves its task to the others, or to no one: see [`Scope`]).
    pub(crate) fn submit(self: &Arc<Pool>, tasks: Vec<Task>) {
        let want = tasks.len().min(MAX_THREADS);
        let mut state = lock(&self.state);
        state.tasks.extend(tasks);
        while state.threads < want {
            let pool = self.clone();
            let made = std::thread::Builder::new()
                .name("textcodec".into())
                .spawn(move || pool.run());
            if made.is_err() {
                break;
            }
            state.threads += 1;
        }
        drop(state);
        self.ready.notify_all();
    }

    /// A thread of the pool: runs the tasks as they come, parked while there are none, and
    /// ends after [`IDLE`] without one.
    fn run(&self) {
        loop {
            let task = {
                let mut state = lock(&self.state);
                loop {
                    if let Some(t) = state.tasks.pop_front() {
                        break t;
                    }
                    let timeout;
                    (state, timeout) = self
                        .ready
                        .wait_timeout(state, IDLE)
                        .unwrap_or_else(|e| e.into_inner());
                    if timeout.timed_out() && state.tasks.is_empty() {
                        state.threads -= 1;
                        return;
                    }
                }
            };
            // A task reports its own panics (see `batch.rs`); one that escapes still must not
            // end the thread.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
        }
    }
}

/// The tasks of one call: they enter the scope before they touch the call's memory and leave
/// it after; [`Scope::close`] (or dropping the scope) waits for those inside to leave and
/// keeps the others out.
pub(crate) struct Scope(Arc<ScopeState>);

struct ScopeState {
    inside: Mutex<Inside>,
    left: Condvar,
}

#[derive(Default)]
struct Inside {
    closed: bool,
    tasks: usize,
}

/// A task's stay in a [`Scope`] (it leaves when this is dropped).
pub(crate) struct Entered(Arc<ScopeState>);

/// What a task keeps to enter its call's scope.
#[derive(Clone)]
pub(crate) struct Door(Arc<ScopeState>);

impl Scope {
    pub(crate) fn new() -> Scope {
        Scope(Arc::new(ScopeState {
            inside: Mutex::new(Inside::default()),
            left: Condvar::new(),
        }))
    }

    /// For a task: the way in.
    pub(crate) fn door(&self) -> Door {
        Door(self.0.clone())
    }

    /// Keeps tasks out from now on and waits for those inside to leave.
    pub(crate) fn close(&self) {
        let mut inside = lock(&self.0.inside);
        inside.closed = true;
        while inside.tasks > 0 {
            inside = self.0.left.wait(inside).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        self.close();
    }
}

impl Door {
    /// Enters the scope, unless it is closed (the call has returned, or is returning).
    pub(crate) fn enter(&self) -> Option<Entered> {
        let mut inside = lock(&self.0.inside);
        if inside.closed {
            return None;
        }
        inside.tasks += 1;
        Some(Entered(self.0.clone()))
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        let mut inside = lock(&self.0.inside);
        inside.tasks -= 1;
        if inside.tasks == 0 {
            self.0.left.notify_all();
        }
    }
}
