//! What the commands write: tables, files, plots.

pub mod files;
pub mod plot;
pub mod tables;
