//! The files people write: setup files, night scenarios, mid-game states,
//! experiments and studies; each reader reports every problem at once, at
//! its line and column (`diagnostics.rs`).

mod diagnostics;
mod experiment_file;
mod position_file;
mod scenario_file;
mod setup_file;
mod study_file;
mod toml_text;

pub use experiment_file::{ExperimentFile, load_experiment};
pub use position_file::{PositionFile, load_position, parse_position};
pub use scenario_file::{Resolved, ScenarioFile, load_scenario, parse_scenario};
pub use setup_file::{SetupFile, load_setup, parse_setup};
pub use study_file::{Figure, Piece, PlotSpec, load_study};
