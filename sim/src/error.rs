//! Every way a command fails, as one type. `mafia` prints an error as
//! `error: <message>` on standard error and exits with its
//! [`Error::exit_code`]: 2 for bad input and for everything that stops a
//! command before it is done, 1 when a check the command was asked to run
//! failed, when a run finished but its external agents faulted past
//! `--ext-max-faults` / `--ext-max-forfeits` (its outputs are written, but
//! are not the agent's results), or when it missed the precision it was
//! asked for within its cap of games (its outputs are written).
//!
//! The messages are the command line's: each names the flag, the file (with
//! line and column) or the path it is about. The variants say what kind of
//! failure it is, for callers other than the command line.

use std::fmt;

/// Why a command failed.
#[derive(Debug)]
pub enum Error {
    /// A value given on the command line (or a combination of them), or a
    /// value of a file found wrong outside its reader, is refused; the
    /// message names it.
    Invalid(String),
    /// An input file (a setup, scenario, state, experiment or study file)
    /// has problems, each at its line and column.
    File(FileError),
    /// A setup, with its rule settings, its agents or a point of a grid,
    /// makes no game: the engine's problems.
    Setup(String),
    /// Reading or writing a file failed; the message names the path.
    Io(String),
    /// A counts file is not of this run, is damaged or unfinished, fails
    /// its checksum or contradicts itself, or the shards of a run are
    /// incomplete.
    Counts(String),
    /// External agents (`ext:COMMAND`) cannot play here or could not be
    /// started, or the agent protocol's host failed.
    Agents(String),
    /// A table could not be built: what (`the table`, `tables`, …) and why.
    Table(&'static str, polars::prelude::PolarsError),
    /// Writing to standard output failed (a closed pipe, a full disk).
    Stdout(std::io::Error),
    /// The worker threads could not start.
    Threads(String),
    /// A plot of a study could not be drawn.
    Plot(String),
    /// Ctrl-C or SIGTERM stopped the command: what was kept, and how to go
    /// on.
    Interrupted(String),
    /// A check the command ran (`--check`) failed (exit code 1).
    CheckFailed(String),
    /// `run --check`: the invariant checkers refused games (exit code 1).
    /// The message is the whole report, printed as it is (no `error: `).
    Violations(String),
    /// External agents faulted past `--ext-max-faults` or
    /// `--ext-max-forfeits` (exit code 1): the run finished and wrote its
    /// outputs, but they are mostly fallbacks'. The message is the banner:
    /// the agent, its faults by kind, where its standard error was logged.
    ExtFaults(String),
    /// The run played and wrote its outputs, but did not reach the
    /// precision it was asked for (`--precision`, a file's `precision`)
    /// within its cap of games (exit code 1): the message says which.
    Missed(String),
    /// An error in the context of a flag, a file or an experiment: shown as
    /// `context: error`.
    Context(String, Box<Error>),
    /// Several things failed at the end of a command, each tried whatever
    /// the others did (an output that could not be written does not stop
    /// the others): shown one per line; the exit code is the highest.
    Many(Vec<Error>),
}

impl Error {
    /// The process exit code: 1 for a failed check, 2 for the rest.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::CheckFailed(_) | Error::Violations(_) | Error::ExtFaults(_) | Error::Missed(_) => 1,
            Error::Context(_, e) => e.exit_code(),
            Error::Many(all) => all.iter().map(Error::exit_code).max().unwrap_or(2),
            _ => 2,
        }
    }

    /// The end of a command whose steps were each tried whatever the others
    /// did (writing each output, then the checks): `Ok` if every one
    /// succeeded, else what failed, in order.
    pub fn all(results: impl IntoIterator<Item = Result<(), Error>>) -> Result<(), Error> {
        let mut failed: Vec<Error> = results.into_iter().filter_map(Result::err).collect();
        match failed.len() {
            0 => Ok(()),
            1 => Err(failed.remove(0)),
            _ => Err(Error::Many(failed)),
        }
    }

    /// This error in the context of `what` (a flag, a file, an experiment).
    pub fn context(self, what: impl Into<String>) -> Error {
        Error::Context(what.into(), Box::new(self))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(m)
            | Error::Setup(m)
            | Error::Io(m)
            | Error::Counts(m)
            | Error::Agents(m)
            | Error::Threads(m)
            | Error::Plot(m)
            | Error::Interrupted(m)
            | Error::CheckFailed(m)
            | Error::Violations(m)
            | Error::ExtFaults(m)
            | Error::Missed(m) => f.write_str(m),
            Error::File(e) => e.fmt(f),
            Error::Table(what, e) => write!(f, "building {what}: {e}"),
            Error::Stdout(e) => e.fmt(f),
            Error::Context(what, e) => write!(f, "{what}: {e}"),
            Error::Many(all) => {
                for (i, e) in all.iter().enumerate() {
                    if i > 0 {
                        f.write_str("\nerror: ")?;
                    }
                    e.fmt(f)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<FileError> for Error {
    fn from(e: FileError) -> Error {
        Error::File(e)
    }
}

/// A table of a command's output could not be built.
impl From<polars::prelude::PolarsError> for Error {
    fn from(e: polars::prelude::PolarsError) -> Error {
        Error::Table("the table", e)
    }
}

/// The commands write their output to standard output with `?`.
impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Stdout(e)
    }
}

/// One problem of an input file, at a place in it (line and column are
/// 1-based; the column counts characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// Every problem found in an input file (the readers of `input/` find them
/// all at once), shown one per line as `FILE:LINE:COL: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// The file, as given to its reader.
    pub file: String,
    /// The problems, in the order the reader reports them.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}:{}:{}: {}", self.file, d.line, d.col, d.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for FileError {}
