//! The commands: one module each.

pub mod balance;
pub mod best_response;
pub mod compare;
pub mod experiment;
pub mod merge;
pub mod moves;
pub mod odds;
pub mod replay;
pub mod report;
pub mod resolve;
pub mod schema;
pub mod strategies;
