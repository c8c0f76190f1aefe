//! A watch on the executor, for a caller that is not a terminal (the
//! studio's page): a typed progress callback after every finished block,
//! and a cancel flag of its own, read where the executor reads Ctrl-C's.
//!
//! The command line never sets one: its progress is the indicatif bars and
//! its stop is the signal handler ([`crate::exec::interrupt`]). A library
//! call ([`crate::tables_watched`]) sets one for the command it runs, on
//! its own thread, so two calls on two threads watch their own runs and a
//! cancel stops only its own. A cancelled run ends like an interrupted one:
//! the block in progress is dropped, the counts are of whole blocks, and
//! the command renders what it finished.

use crate::exec::Counts;
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a [`Watch`] is told after every finished block.
pub struct Progress<'a> {
    /// Games done per point so far (counted from the run's first game).
    pub done: u64,
    /// The most games per point the run plays.
    pub games: u64,
    /// The counts so far: per point, tallies and games played.
    pub counts: &'a Counts,
}

/// The progress callback.
pub type OnBlock = Box<dyn Fn(&Progress<'_>) + Send + Sync>;

/// A run's watch: its cancel flag and its progress callback.
pub struct Watch {
    cancel: AtomicBool,
    on_block: OnBlock,
}

impl Watch {
    /// A watch that calls `on_block` after every finished block.
    pub fn new(on_block: OnBlock) -> Watch {
        Watch { cancel: AtomicBool::new(false), on_block }
    }

    /// Asks the watched run to stop after its current block (the block is
    /// dropped whole, as on Ctrl-C).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// Whether [`Watch::cancel`] was called.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    pub(crate) fn block(&self, p: &Progress<'_>) {
        (self.on_block)(p);
    }
}

thread_local! {
    static WATCH: RefCell<Option<Arc<Watch>>> = const { RefCell::new(None) };
}

/// Runs `f` with `watch` on this thread's executions.
pub fn watched<T>(watch: Option<Arc<Watch>>, f: impl FnOnce() -> T) -> T {
    let old = WATCH.with(|w| std::mem::replace(&mut *w.borrow_mut(), watch));
    let out = f();
    WATCH.with(|w| *w.borrow_mut() = old);
    out
}

/// The watch of this thread's execution, if any (read once, on the thread
/// that runs the executor; its workers share the `Arc`).
pub(crate) fn current() -> Option<Arc<Watch>> {
    WATCH.with(|w| w.borrow().clone())
}
