//! The files people write: setup files, night scenarios, mid-game states,
//! experiments and studies; each reader reports every problem at once, at
//! its line and column (`diagnostics.rs`).

pub(crate) mod diagnostics;
pub mod experiment_file;
pub mod position_file;
pub mod scenario_file;
pub mod setup_file;
pub mod study_file;
pub(crate) mod toml_text;
