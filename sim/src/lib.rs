//! The simulation layer of Mafia Lab: setup files, the parallel runner,
//! Polars tables and the `mafia` command line. The only layer that does I/O.
//!
//! The modules are private; what other crates use is re-exported here: the
//! command line (`main.rs`), and the library calls the integration tests
//! use and a Python module or a web front end would make — read a setup,
//! make the games of a setup, rules and agents, play them, tabulate and
//! plot them. `ARCHITECTURE.md` describes the folders and what each may
//! import.

#![warn(missing_docs)]

mod args;
mod cli;
mod commands;
mod error;
mod exec;
mod grid;
mod input;
mod library;
mod output;
mod shard;
mod stats;
mod studio;

// The command line.
pub use cli::{Cli, dispatch};
pub use error::{Diagnostic, Error, FileError};
/// Signals: what `main` installs before a command (see `exec/interrupt.rs`).
pub use exec::install_quit_handler;
pub use library::{COMMANDS, Call, Plugin, Report, tables, tables_with};

// What to play: a setup (a preset or a setup file), rules and agents, made
// into checked games (`Job`s); the grid that varies a setup.
pub use args::{ExtArgs, GameArgs, jobs, one_job};
pub use exec::{Job, Point, Points};
pub use grid::{Axis, AxisKind};
pub use input::{
    PositionFile, Resolved, ScenarioFile, SetupFile, load_position, load_scenario, load_setup, parse_position,
    parse_scenario, parse_setup,
};

// Playing: the runner, the executor's comparison of two variants, odds from
// a mid-game state, one game told, one night resolved.
pub use commands::compare::{compare_points, play_compare};
pub use commands::odds::{Odds, play_range};
pub use commands::replay::replay;
pub use commands::resolve::{resolve_file, to_json, to_text};
pub use commands::schema::schema_text;
pub use exec::{Budget, Counts, Finish, OnBlock, Progress, RunOutput, RunSpec, Watch, run};

// The studio (`mafia studio`): the web page over this library.
pub use studio::{BODY_LIMIT, Studio, StudioOptions, start_studio};

// The statistics.
pub use stats::{Diff, Schedule, Sprt, Tally, Verdict, paired_diff, wilson};

// Tables and plots.
pub use output::plot;
pub use output::{Captured, Tables, Variant, build_tables, capture, print_tables, write_tables};
