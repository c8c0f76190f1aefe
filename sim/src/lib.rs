//! The simulation layer of Mafia Lab: setup files, the parallel runner,
//! Polars tables and the `mafia` command line. The only layer that does I/O.

pub mod balance;
pub mod best_response;
pub mod cli;
pub mod compare;
pub mod exec;
pub mod experiment;
pub mod files;
pub mod moves;
pub mod odds;
pub mod paired;
pub mod precision;
pub mod replay;
pub mod report;
pub mod runner;
pub mod scenario_file;
pub mod schema;
pub mod setup_file;
pub mod shard;
pub mod strategies;
pub mod tables;
pub mod tally;
mod toml_text;
pub mod trace;
