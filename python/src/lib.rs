//! `mafia_lab._native`: the engine inside Python (issue 36). One
//! implementation: every class and function here calls the workspace's
//! library code (`mafia-sim` for setups, lineups and tables,
//! `mafia-agents` for the steppable game, `mafia-engine` for the
//! encodings); the Python package `mafia_lab` wraps them in PettingZoo,
//! Gymnasium and DataFrame-returning functions.

use pyo3::prelude::*;

mod env;
mod errors;
mod tables;

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    env::register(m)?;
    tables::register(m)?;
    Ok(())
}
