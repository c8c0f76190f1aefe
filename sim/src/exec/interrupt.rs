//! Ctrl-C and SIGTERM: the first asks every running execution to stop
//! after its current block (and the command to print what it finished);
//! a second one exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks every running execution to stop after its current block (what the
/// Ctrl-C handler calls).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Whether an interrupt was asked for.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Installs the Ctrl-C handler once: the first Ctrl-C (or SIGTERM) asks the
/// run to stop and print what it finished; a second one exits at once.
pub fn install_interrupt_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if interrupted() {
                std::process::exit(130);
            }
            eprintln!("\ninterrupted: finishing the current block, then printing what is done (Ctrl-C again to quit)");
            interrupt();
        });
    });
}
