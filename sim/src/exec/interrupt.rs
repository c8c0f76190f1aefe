//! Ctrl-C and SIGTERM (and SIGHUP). A command that claimed outputs
//! ([`crate::output::claim`]) has the handler in *quit* mode: a signal
//! removes every temporary file and output lock of the process, says so,
//! and exits with code 130 — nothing half-written is left, whatever the
//! command was doing. A command whose play stops cleanly between blocks
//! (the executor, the streaming runner) switches it to *graceful* mode
//! ([`install_interrupt_handler`]): the first signal asks every running
//! execution to stop after its current block (and the command to print
//! what it finished and kept); a second one quits as above.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Whether the first signal asks the play to stop (else it quits).
static GRACEFUL: AtomicBool = AtomicBool::new(false);

/// Asks every running execution to stop after its current block (what the
/// Ctrl-C handler calls).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Whether an interrupt was asked for.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Installs the handler in graceful mode: the first Ctrl-C (or SIGTERM)
/// asks the run to stop and print what it finished; a second one quits,
/// removing what is unfinished.
pub fn install_interrupt_handler() {
    // A library call (Python's) leaves the caller's signals alone.
    if crate::output::capturing() {
        return;
    }
    GRACEFUL.store(true, Ordering::SeqCst);
    install_quit_handler();
}

/// Installs the handler once, in quit mode unless
/// `install_interrupt_handler` asked for graceful.
pub fn install_quit_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if GRACEFUL.load(Ordering::SeqCst) && !interrupted() {
                eprintln!(
                    "\ninterrupted: finishing the current block, then printing what is done (Ctrl-C again to quit)"
                );
                interrupt();
                return;
            }
            quit();
        });
    });
}

/// Removes every unfinished file, says what, and exits with code 130.
fn quit() -> ! {
    let removed = crate::output::remove_unfinished();
    if removed.is_empty() {
        eprintln!("\nstopped: nothing was being written; files written before this are complete");
    } else {
        let names: Vec<String> = removed.iter().map(|p| p.display().to_string()).collect();
        eprintln!(
            "\nstopped: removed the unfinished {} (the targets keep their previous contents, if any); \
             files written before this are complete",
            names.join(", ")
        );
    }
    std::process::exit(130);
}
