//! The commands: one module each, with its arguments (clap), its work and
//! its rendering. A command may use another's pieces (`league` uses
//! `duel`'s key checks, `balance` `best_response`'s race, `compare` and
//! `report` `experiment`'s table), never the other way round.

pub mod balance;
pub mod bench;
pub mod best_response;
pub mod compare;
pub mod duel;
pub mod encoding;
pub mod experiment;
pub mod host;
pub mod league;
pub mod list;
pub mod merge;
pub mod moves;
pub mod night_order;
pub mod odds;
pub mod replay;
pub mod report;
pub mod resolve;
pub mod run;
pub mod schema;
pub mod strategies;
