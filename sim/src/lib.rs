//! The simulation layer of Mafia Lab: setup files, the parallel runner,
//! Polars tables and the `mafia` command line. The only layer that does I/O.

pub mod args;
pub mod cli;
pub mod commands;
pub mod error;
pub mod exec;
pub mod grid;
pub mod input;
pub mod output;
pub mod shard;
pub mod stats;

pub use cli::{Cli, dispatch};
pub use error::Error;

// The old paths, until the library's API is settled (the tests use them).
pub use commands::resolve as trace;
pub use commands::{compare, replay, schema};
pub mod experiment {
    pub use crate::exec::Budget;
}
pub mod odds {
    pub use crate::commands::odds::*;
    pub use crate::input::position_file::parse_position;
}
pub use exec as runner;
pub use input::scenario_file;
pub use output as tables;
pub use stats as precision;
