//! `mafia_lab.run/compare/experiment/odds`: the commands' tables as Polars
//! DataFrames (issue 36). One implementation: [`mafia_sim::tables`] parses
//! the command line with the CLI's own parser and runs the command's own
//! code, its report captured instead of printed. The games play with the
//! GIL released, on rayon's threads as on the command line.
//!
//! The tables cross into Python as Parquet: each DataFrame is written by
//! the workspace's Polars into an in-memory buffer (uncompressed) and read
//! by Python's `polars.read_parquet`. Handing the Rust DataFrame over
//! directly (pyo3-polars) would need Polars features the workspace does not
//! build, so a second, different build of Polars; a buffer needs none, and
//! costs a copy of tables of a few rows.
//!
//! A Python agent plays a seat through [`PyAgent`], a
//! [`mafia_agents::DataAgent`] that takes the GIL per decision and calls
//! the agent's adapter (`mafia_lab.tables._Seat`, which keeps the
//! `Agent.decide(view, request)` contract of the external agents). The
//! first exception it raises stops calling Python (the seat answers a
//! random legal answer until the games end) and is raised by the call.

use crate::errors;
use mafia_agents::{DataAgent, Lineup, Stream, legal_random};
use mafia_engine::{Answer, Ending, View};
use polars::prelude::{DataFrame, ParquetCompression, ParquetWriter};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rand::Rng as _;
use std::sync::{Arc, Mutex};

/// What the agents of one call share: the first failure of any.
#[derive(Default)]
struct Failure(Mutex<Option<PyErr>>);

impl Failure {
    fn failed(&self) -> bool {
        self.0.lock().map(|f| f.is_some()).unwrap_or(true)
    }
    fn set(&self, e: PyErr) {
        if let Ok(mut f) = self.0.lock() {
            f.get_or_insert(e);
        }
    }
    fn take(&self) -> Option<PyErr> {
        self.0.lock().ok().and_then(|mut f| f.take())
    }
}

/// What a Python agent's adapter asks for (read once per call).
#[derive(Clone)]
struct Wants {
    view: bool,
    text: bool,
    quiet: bool,
    start: bool,
    end: bool,
}

/// One seat of a Python agent.
struct PyAgent {
    /// The adapter (`mafia_lab.tables._Seat`) of the agent object.
    seat: Arc<Py<PyAny>>,
    wants: Wants,
    failure: Arc<Failure>,
    game: u64,
    number: Option<u8>,
    illegal: u32,
    replaced: u32,
}

impl PyAgent {
    /// The adapter's answer as JSON text, or the exception it raised.
    fn ask(&self, view: &View, seed: u64) -> PyResult<String> {
        let request = serde_json::to_string(&view.request).map_err(|e| errors::invalid(e.to_string()))?;
        let view_json = if self.wants.view {
            Some(serde_json::to_string(view).map_err(|e| errors::invalid(e.to_string()))?)
        } else {
            None
        };
        let text = self.wants.text.then(|| mafia_protocol::text::view_text(view));
        Python::attach(|py| {
            self.seat
                .bind(py)
                .call_method1("decide", (self.game, view.seat.number(), seed, text, view_json, request))?
                .extract()
        })
    }
}

impl DataAgent for PyAgent {
    fn game(&mut self, index: u64) {
        self.game = index;
        self.illegal = 0;
        self.replaced = 0;
    }

    fn start(&mut self, view: &View) {
        self.number = Some(view.seat.number());
        if !self.wants.start || self.failure.failed() {
            return;
        }
        let json = if self.wants.view { serde_json::to_string(view).ok() } else { None };
        let r = Python::attach(|py| {
            self.seat.bind(py).call_method1("start", (self.game, view.seat.number(), json)).map(|_| ())
        });
        if let Err(e) = r {
            self.failure.set(e);
        }
    }

    fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer {
        // Drawn for every decision (as for an external agent), so the
        // seat's stream moves the same way whatever the agent answers.
        let seed = rng.next_u64() >> 11;
        if self.failure.failed() {
            self.replaced += 1;
            return legal_random(&view.request, rng);
        }
        let answer = self.ask(view, seed).and_then(|text| {
            serde_json::from_str::<Answer>(&text).map_err(|e| {
                errors::invalid(format!(
                    "the Python agent in seat {} (game {}) answered {text}: not an answer ({e}); request: {}",
                    view.seat.number(),
                    self.game,
                    serde_json::to_string(&view.request).unwrap_or_default()
                ))
            })
        });
        match answer {
            Ok(a) if view.request.admits(&a) => a,
            Ok(_) => {
                // Illegal: counted (the tables' `illegal`) and replaced, as
                // an external agent's illegal answer is.
                self.illegal += 1;
                self.replaced += 1;
                legal_random(&view.request, rng)
            }
            Err(e) => {
                self.failure.set(e);
                self.replaced += 1;
                legal_random(&view.request, rng)
            }
        }
    }

    fn end(&mut self, ending: &Ending) {
        let Some(number) = self.number else { return };
        if !self.wants.end || self.failure.failed() {
            return;
        }
        let json = serde_json::to_string(ending).unwrap_or_default();
        let r = Python::attach(|py| self.seat.bind(py).call_method1("end", (self.game, number, json)).map(|_| ()));
        if let Err(e) = r {
            self.failure.set(e);
        }
    }

    fn wants_view(&self) -> bool {
        self.wants.view || self.wants.text
    }

    fn quiet(&self) -> bool {
        self.wants.quiet
    }

    fn illegal_answers(&self) -> u32 {
        self.illegal
    }

    fn replaced_answers(&self) -> u32 {
        self.replaced
    }
}

/// A table as an uncompressed Parquet buffer.
fn parquet(mut df: DataFrame) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    ParquetWriter::new(&mut buf)
        .with_compression(ParquetCompression::Uncompressed)
        .finish(&mut df)
        .map_err(|e| e.to_string())?;
    Ok(buf)
}

/// What `_native.tables` returns: the tables as `(name, Parquet bytes)`,
/// the printed report, and how the command failed (`(exit_code, message)`).
type Made<'py> = (Vec<(String, Bound<'py, PyBytes>)>, String, Option<(i32, String)>);

/// `_native.tables(argv, agents)`: runs `argv` (`["run", "--setup", …]`)
/// with `agents` (strategy name → adapter) registered; returns
/// `(tables, text, error)`: `[(name, parquet bytes)]`, the printed report,
/// and `None` or `(exit_code, message)` as the CLI would have failed. An
/// exception of a Python agent is raised instead.
#[pyfunction]
#[pyo3(signature = (argv, agents=None))]
fn tables<'py>(py: Python<'py>, argv: Vec<String>, agents: Option<Bound<'py, PyDict>>) -> PyResult<Made<'py>> {
    let failure = Arc::new(Failure::default());
    let mut plugins: Vec<mafia_sim::Plugin> = Vec::new();
    for (name, seat) in agents.iter().flat_map(|d| d.iter()) {
        let name: String = name.extract()?;
        if Lineup::default().strategy(&name).is_ok() {
            return Err(errors::invalid(format!(
                "python_agents: `{name}` is a built-in strategy's name (see `mafia strategies`): name the agent otherwise"
            )));
        }
        let flag = |k: &str| -> PyResult<bool> { seat.getattr(k)?.extract() };
        let wants = Wants {
            view: flag("wants_view")?,
            text: flag("wants_text")?,
            quiet: flag("quiet")?,
            start: flag("call_start")?,
            end: flag("call_end")?,
        };
        let seat = Arc::new(seat.unbind());
        let failure = failure.clone();
        plugins.push(Arc::new(move |lineup: &mut Lineup| {
            let (seat, failure, wants) = (seat.clone(), failure.clone(), wants.clone());
            lineup.register_data(&name, move || PyAgent {
                seat: seat.clone(),
                wants: wants.clone(),
                failure: failure.clone(),
                game: 0,
                number: None,
                illegal: 0,
                replaced: 0,
            });
        }));
    }
    let (frames, text, notes, result) = py.detach(|| {
        let report = mafia_sim::tables(&argv, &plugins);
        let frames: Result<Vec<(String, Vec<u8>)>, String> =
            report.captured.frames.into_iter().map(|(n, df)| parquet(df).map(|b| (n, b))).collect();
        (frames, report.captured.text, report.captured.notes, report.result)
    });
    errors::warn(py, &notes)?;
    // The lineups (and the agents' adapters they hold) are gone; an
    // agent's exception comes first: it is why the games were not theirs.
    drop(plugins);
    if let Some(e) = failure.take() {
        return Err(e);
    }
    let frames = frames.map_err(|e| errors::error(2, format!("the tables to Parquet: {e}")))?;
    let frames = frames.into_iter().map(|(n, b)| (n, PyBytes::new(py, &b))).collect();
    Ok((frames, text, result.err().map(|e| (e.exit_code(), e.to_string()))))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tables, m)?)
}
