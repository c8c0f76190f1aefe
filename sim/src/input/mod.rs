//! The files people write: setup and scenario files.

pub mod scenario_file;
pub mod setup_file;
pub(crate) mod toml_text;
