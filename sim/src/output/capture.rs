//! Where a command's report goes: standard output for the command line, or
//! a capture for the library ([`crate::tables`]). A command prints its
//! report through [`stdout`] and hands each table it prints or writes to
//! [`keep`]; on the command line `keep` does nothing and `stdout` is the
//! process's, so the output is the command line's byte for byte. Inside
//! [`capture`] (on the calling thread: the commands render on the thread
//! that runs them, never on a worker), the report's text and the tables go
//! to the capture instead, and nothing is printed.

use polars::prelude::DataFrame;
use std::cell::RefCell;
use std::io::{self, Write};

/// What [`capture`] collected: the tables by name, in the order the
/// command made them, and the text it would have printed.
#[derive(Default)]
pub struct Captured {
    /// `(name, table)`: `summary`, `roles`, `days`, `faults` (a run), …
    pub frames: Vec<(String, DataFrame)>,
    /// The report the command line prints (its tables drawn as text, and
    /// the lines around them: games played, the test's verdict, …).
    pub text: String,
    /// The notes the command line prints to standard error (`note: …`, the
    /// prefix left out): what a setup's `auto` rules chose, points left
    /// out of a grid. The Python module raises them as warnings.
    pub notes: Vec<String>,
}

/// A capture in progress: the tables, the text as bytes, the notes.
type Open = (Vec<(String, DataFrame)>, Vec<u8>, Vec<String>);

thread_local! {
    static CAPTURE: RefCell<Option<Open>> = const { RefCell::new(None) };
}

/// Runs `f` with the report captured (see the module docs); returns what
/// `f` returned and what was captured, also when `f` failed.
pub fn capture<T>(f: impl FnOnce() -> T) -> (T, Captured) {
    // A capture inside a capture (a library call from an agent) keeps the outer one's.
    let outer = CAPTURE.with(|c| c.borrow_mut().replace(Default::default()));
    let out = f();
    let (frames, text, notes) = CAPTURE.with(|c| std::mem::replace(&mut *c.borrow_mut(), outer)).unwrap_or_default();
    (out, Captured { frames, text: String::from_utf8_lossy(&text).into_owned(), notes })
}

/// Whether this thread's report is being captured (no terminal: no
/// progress bar, no signal handler of the command line's).
pub fn capturing() -> bool {
    CAPTURE.with(|c| c.borrow().is_some())
}

/// Hands a table the command prints or writes to the capture, under
/// `name` (nothing on the command line).
pub fn keep(name: &str, frame: &DataFrame) {
    CAPTURE.with(|c| {
        if let Some((frames, _, _)) = c.borrow_mut().as_mut() {
            frames.push((name.to_string(), frame.clone()));
        }
    });
}

/// A note for the user: `note: {message}` on standard error on the command
/// line; kept in the capture (without the prefix) inside one.
pub fn note(message: &str) {
    let kept = CAPTURE.with(|c| match c.borrow_mut().as_mut() {
        Some((_, _, notes)) => {
            notes.push(message.to_string());
            true
        }
        None => false,
    });
    if !kept {
        eprintln!("note: {message}");
    }
}

/// The report's writer: the process's standard output, or the capture.
pub enum Stdout {
    /// The command line's.
    Std(io::StdoutLock<'static>),
    /// Appends to this thread's capture.
    Captured,
}

/// The writer of a command's report (see the module docs).
pub fn stdout() -> Stdout {
    if capturing() { Stdout::Captured } else { Stdout::Std(io::stdout().lock()) }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stdout::Std(s) => s.write(buf),
            Stdout::Captured => {
                CAPTURE.with(|c| {
                    if let Some((_, text, _)) = c.borrow_mut().as_mut() {
                        text.extend_from_slice(buf);
                    }
                });
                Ok(buf.len())
            }
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Stdout::Std(s) => s.write_all(buf),
            Stdout::Captured => self.write(buf).map(|_| ()),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stdout::Std(s) => s.flush(),
            Stdout::Captured => Ok(()),
        }
    }
}
