//! The statistics: tallies, intervals, stopping rules.

pub mod precision;
pub mod tally;
