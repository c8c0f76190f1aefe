//! Errors as Python exceptions: `mafia_lab.MafiaError` (a `ValueError`)
//! carries the CLI's message — the file, line:column and why for a setup
//! file, the flag and the value refused for an argument — and the exit code
//! the CLI would have given (`exit_code`: 2 for bad input, 1 for a check
//! or a missed precision).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    _native,
    MafiaError,
    PyValueError,
    "Mafia Lab refused the input, or the run did not do what was asked: the message is the CLI's; `exit_code` is the CLI's exit code."
);

/// The exception for `message`, with its exit code.
pub fn error(code: i32, message: impl Into<String>) -> PyErr {
    let e = MafiaError::new_err(message.into());
    Python::attach(|py| {
        // An attribute on a fresh exception object: cannot fail in practice;
        // if it did, the message still goes through.
        let _ = e.value(py).setattr("exit_code", code);
    });
    e
}

/// A library error of the CLI's, as the CLI would have said it.
pub fn from_sim(e: mafia_sim::Error) -> PyErr {
    error(e.exit_code(), e.to_string())
}

/// Bad input to a call (an action outside the mask, a wrong-sized batch):
/// exit code 2, as the CLI's bad input.
pub fn invalid(message: impl Into<String>) -> PyErr {
    error(2, message)
}

/// The CLI's notes (`note: …` on its standard error) as Python
/// `UserWarning`s, so a library call prints nothing of its own.
pub fn warn(py: Python<'_>, notes: &[String]) -> PyResult<()> {
    let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
    for n in notes {
        let message = std::ffi::CString::new(n.replace('\0', " ")).expect("no NUL left");
        PyErr::warn(py, &category, &message, 2)?;
    }
    Ok(())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MafiaError", m.py().get_type::<MafiaError>())
}
