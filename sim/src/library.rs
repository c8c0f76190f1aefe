//! The commands as library calls (issue 36): [`tables`] parses a command
//! line of `run`, `compare`, `experiment` or `odds` with the command
//! line's own parser and runs the command's own code, with its report
//! captured ([`crate::output::capture`]) instead of printed: the caller
//! gets the tables the command prints and writes, row for row and column
//! for column, and the text it would have printed. Python's
//! `mafia_lab.run(...)` and friends are this call.
//!
//! Strategies of the caller's (a Python agent class) join every lineup the
//! command makes through [`Plugin`]s: each registers its strategy names on
//! a lineup before the `--agents` spec (or a setup file's `[agents]`) is
//! read, so a spec names them like built-in strategies.

use crate::cli::{Cli, Command};
use crate::error::Error;
use crate::output::Captured;
use clap::Parser;
use mafia_agents::Lineup;
use std::cell::RefCell;
use std::sync::Arc;

/// Registers strategies of the caller's on a lineup
/// ([`Lineup::register_data`], [`Lineup::register`]).
pub type Plugin = Arc<dyn Fn(&mut Lineup) + Send + Sync>;

thread_local! {
    static PLUGINS: RefCell<Vec<Plugin>> = const { RefCell::new(Vec::new()) };
    static FILES: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// The text of the library call's in-memory input file `name` (a setup
/// file, or `odds`'s state file), if it has one.
pub(crate) fn file_text(name: &str) -> Option<String> {
    FILES.with(|s| s.borrow().iter().find(|(n, _)| n == name).map(|(_, t)| t.clone()))
}

/// What a library call brings besides its command line ([`tables_with`]).
#[derive(Default, Clone)]
pub struct Call {
    /// Strategies of the caller's, registered on every lineup.
    pub plugins: Vec<Plugin>,
    /// Input files held in memory, `(name, text)`: `--setup NAME` (and a
    /// variant's `setup=NAME`), and `odds NAME`, read `text` as the file
    /// `NAME` would be read — the same reader, the same messages — before
    /// any file of that name. Nothing is read from disk for them.
    pub files: Vec<(String, String)>,
    /// A progress callback and a cancel flag for the executor
    /// ([`crate::exec::Watch`]).
    pub watch: Option<Arc<crate::exec::Watch>>,
}

/// `lineup` with the plugins of the library call in progress registered
/// (as it is on the command line).
pub(crate) fn plug(lineup: &mut Lineup) {
    PLUGINS.with(|p| p.borrow().iter().for_each(|f| f(lineup)));
}

/// The default lineup with the library call's plugins (what a value of a
/// grid's `agents` axis is checked against).
pub(crate) fn lineup() -> Lineup {
    let mut l = Lineup::default();
    plug(&mut l);
    l
}

/// What a library call made: the tables (by name, in the command's
/// order), the printed report, and how the command ended.
pub struct Report {
    /// The tables and the text (see [`Captured`]). Names: `run`: `summary`,
    /// `roles`, `days` (and `faults` when external agents played);
    /// `compare`: `compare`; `experiment`: `experiment`, `roles`; `odds`:
    /// `odds`.
    pub captured: Captured,
    /// `Err` as the command line would have failed. A missed precision
    /// ([`Error::Missed`], exit code 1) or external agents' faults past
    /// their limits come after the tables: `captured` holds them then.
    pub result: Result<(), Error>,
}

/// The commands a library call may run.
pub const COMMANDS: &[&str] = &["run", "compare", "experiment", "odds"];

/// Runs `argv` — a command of [`COMMANDS`] and its flags, as after `mafia`
/// on the command line (`["run", "--setup", "classic", "--games", "1000"]`)
/// — quietly (no progress bar, nothing printed, no signal handler), with
/// `plugins` registered on every lineup. A command line the parser refuses
/// is an [`Error::Invalid`] with the parser's message (exit code 2).
pub fn tables(argv: &[String], plugins: &[Plugin]) -> Report {
    tables_with(argv, &Call { plugins: plugins.to_vec(), ..Call::default() })
}

/// [`tables`], with in-memory setup files and a watch on the run
/// (see [`Call`]): what the studio's page runs.
pub fn tables_with(argv: &[String], call: &Call) -> Report {
    let refused = |m: String| Report { captured: Captured::default(), result: Err(Error::Invalid(m)) };
    let Some(command) = argv.first().filter(|c| COMMANDS.contains(&c.as_str())) else {
        return refused(format!(
            "the library runs {}; got {}",
            COMMANDS.join(", "),
            argv.first().map_or("nothing".to_string(), |c| format!("`{c}`"))
        ));
    };
    let cli = match Cli::try_parse_from(std::iter::once("mafia").chain(argv.iter().map(String::as_str))) {
        Ok(cli) => cli,
        Err(e) => {
            // The parser's message as the command line prints it, less its `error: `.
            let text = e.render().to_string();
            let text = text.trim_end();
            return refused(text.strip_prefix("error: ").unwrap_or(text).to_string());
        }
    };
    let command = command.clone();
    let run: Box<dyn FnOnce() -> Result<(), Error>> = match cli.command {
        Some(Command::Run(mut a)) => {
            a.quiet = true;
            Box::new(move || crate::commands::run::cmd_run(a))
        }
        Some(Command::Compare(mut a)) => {
            a.pair.quiet = true;
            Box::new(move || crate::commands::compare::cmd_compare(a))
        }
        Some(Command::Experiment(mut a)) => {
            a.quiet = true;
            Box::new(move || crate::commands::experiment::cmd_experiment(a))
        }
        Some(Command::Odds(mut a)) => {
            a.quiet = true;
            Box::new(move || crate::commands::odds::cmd_odds(a))
        }
        _ => return refused(format!("`{command}`: not a command the library runs")),
    };
    let old = PLUGINS.with(|p| std::mem::replace(&mut *p.borrow_mut(), call.plugins.clone()));
    let old_files = FILES.with(|s| std::mem::replace(&mut *s.borrow_mut(), call.files.clone()));
    let (result, captured) = crate::exec::watched(call.watch.clone(), || crate::output::capture(run));
    PLUGINS.with(|p| *p.borrow_mut() = old);
    FILES.with(|s| *s.borrow_mut() = old_files);
    Report { captured, result }
}
