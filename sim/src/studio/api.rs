//! The studio's routes: the page and its assets, the catalogue, setups
//! (check, import, export), a run with its progress as server-sent events,
//! its result and downloads, a comparison, a sweep's heatmap, a night.
//! Every answer is JSON written with serde; an error is
//! `{"error": message, "problems": [...]}` with a 4xx status.

use super::StudioOptions;
use super::form::{FieldProblem, Form, field_problems};
use crate::exec::{Progress, Watch};
use crate::library::{Call, Report, tables_with};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use mafia_engine::{Camp, PRESETS, RULE_KEYS, Role};
use polars::prelude::{CsvWriter, DataFrame, DataType, ParquetWriter, SerWriter};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");
/// The night calculator's first example (the repository's own).
const EXAMPLE_NIGHT: &str = include_str!("../../../scenarios/two-blockers.toml");
/// The odds' first example (the repository's own).
const EXAMPLE_STATE: &str = include_str!("../../../scenarios/odds/classic-day-3-commissar.toml");

/// The server's state.
struct App {
    o: StudioOptions,
    /// The run going on, if any: one at a time.
    live: Mutex<Option<Live>>,
    /// The last run's result.
    last: Mutex<Option<Arc<Finished>>>,
    /// The last run's progress, as the page's event stream reads it.
    progress: tokio::sync::watch::Sender<Arc<String>>,
    next_id: AtomicU64,
}

/// The run going on.
struct Live {
    id: u64,
    what: &'static str,
    watch: Arc<Watch>,
}

/// A finished run: its result as JSON, and its tables for downloads.
struct Finished {
    json: String,
    frames: Vec<(String, DataFrame)>,
}

pub fn router(o: StudioOptions) -> Router {
    let (progress, _) = tokio::sync::watch::channel(Arc::new(String::from("{\"state\":\"idle\"}")));
    let app = Arc::new(App { o, live: Mutex::new(None), last: Mutex::new(None), progress, next_id: AtomicU64::new(1) });
    Router::new()
        .route("/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX) }))
        .route("/app.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP_JS) }))
        .route("/app.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS) }))
        .route("/api/catalog", get(catalog))
        .route("/api/setup/check", post(check_setup))
        .route("/api/setup/import", post(import_setup))
        .route("/api/run", post(start_run))
        .route("/api/run/events", get(events))
        .route("/api/run/cancel", post(cancel))
        .route("/api/run/result", get(result))
        .route("/api/run/download", get(download))
        .route("/api/save", post(save))
        .route("/api/compare", post(compare))
        .route("/api/sweep", post(sweep))
        .route("/api/resolve", post(resolve))
        .route("/api/odds", post(odds))
        .layer(DefaultBodyLimit::max(super::BODY_LIMIT))
        .with_state(app)
}

type Shared = State<Arc<App>>;

fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn ok<T: Serialize>(v: &T) -> Response {
    json_response(StatusCode::OK, serde_json::to_string(v).expect("JSON of plain values"))
}

fn refuse(status: StatusCode, message: impl Into<String>) -> Response {
    ok_status(status, &json!({ "error": message.into() }))
}

fn ok_status<T: Serialize>(status: StatusCode, v: &T) -> Response {
    json_response(status, serde_json::to_string(v).expect("JSON of plain values"))
}

/// A request refused: its status and message (`{"error": message}`).
struct Refused(StatusCode, String);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        refuse(self.0, self.1)
    }
}

fn parse<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, Refused> {
    serde_json::from_slice(body)
        .map_err(|e| Refused(StatusCode::BAD_REQUEST, format!("the request is not as expected: {e}")))
}

// ---------------------------------------------------------------------------
// The catalogue: presets, roles, rules, strategies (all from the library).

async fn catalog() -> Response {
    let schema = crate::commands::schema::schema();
    let schema = serde_json::to_value(&schema).unwrap_or(Value::Null);
    let rule_schema = schema.pointer("/$defs/Rules/properties").cloned().unwrap_or(Value::Null);
    let rules: Vec<Value> = RULE_KEYS
        .iter()
        .map(|k| {
            let s = rule_schema.get(k.name).cloned().unwrap_or(Value::Null);
            json!({
                "name": k.name,
                "about": without_clause(k.about.trim()),
                "values": k.values,
                "clause": k.clause,
                "default": mafia_engine::Rules::default().get(k.name),
                "default_text": k.default_text(),
                "type": s.get("type"),
                "minimum": s.get("minimum"),
                "maximum": s.get("maximum"),
                "enum": s.get("enum"),
            })
        })
        .collect();
    let roles: Vec<Value> = Role::ALL
        .iter()
        .map(|r| {
            let i = r.info();
            let about = if i.plain {
                "a plain player: no move of his own".to_string()
            } else {
                let n = i.night.info().about;
                if n.is_empty() { "no night move".to_string() } else { n.to_string() }
            };
            json!({ "name": r.name(), "camp": r.camp().name(), "clause": i.clause, "about": about,
                    "unique": i.unique, "plain": i.plain })
        })
        .collect();
    let presets: Vec<Value> = PRESETS
        .iter()
        .map(|p| {
            json!({ "name": p.name, "about": p.about, "players": p.counts.iter().map(|c| c.1).sum::<u64>(),
                         "form": Form::of_preset(p) })
        })
        .collect();
    let strategies: Vec<Value> =
        mafia_agents::STRATEGIES.iter().map(|s| json!({ "name": s.name, "about": s.about })).collect();
    ok(&json!({
        "camps": Camp::ALL.iter().map(|c| c.name()).collect::<Vec<_>>(),
        "roles": roles, "rules": rules, "presets": presets, "strategies": strategies,
        "example_night": EXAMPLE_NIGHT, "example_state": EXAMPLE_STATE,
    }))
}

/// A rule's description without its leading clause (`C8: …`): the page
/// shows the clause beside it.
fn without_clause(about: &str) -> &str {
    match about.split_once(": ") {
        Some((head, rest)) if head.chars().all(|c| "CE0123456789./, ".contains(c)) => rest,
        _ => about,
    }
}

// ---------------------------------------------------------------------------
// Setups: every change checked by the command line's reader.

/// The strategy names a setup file may use.
fn strategy_names() -> Vec<String> {
    crate::library::lineup().strategy_names()
}

/// A form checked: its setup file text, or its problems at their fields.
fn check_form(f: &Form) -> Result<(String, crate::input::SetupFile), Vec<FieldProblem>> {
    let (text, fields) = f.to_toml();
    let names = strategy_names();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    match crate::input::parse_setup(&file_name(f), &text, &refs) {
        Ok(file) => Ok((text, file)),
        Err(e) => Err(field_problems(&e, &fields)),
    }
}

/// The in-memory setup file's name: the form's name, made a plain file name.
fn file_name(f: &Form) -> String {
    let stem: String =
        f.name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    format!("{}.toml", if stem.is_empty() { "studio".to_string() } else { stem })
}

/// A file the reader refused: its message and each problem's line and column.
fn file_problems(e: &crate::error::FileError) -> Response {
    let p: Vec<Value> =
        e.diagnostics.iter().map(|d| json!({ "line": d.line, "col": d.col, "message": d.message })).collect();
    ok_status(StatusCode::UNPROCESSABLE_ENTITY, &json!({ "error": e.to_string(), "problems": p }))
}

fn problems_response(p: Vec<FieldProblem>) -> Response {
    let first = p.first().map_or(String::new(), |p| format!("{}: {}", p.field, p.message));
    ok_status(StatusCode::UNPROCESSABLE_ENTITY, &json!({ "error": first, "problems": p }))
}

async fn check_setup(body: Bytes) -> Response {
    let f: Form = match parse(&body) {
        Ok(f) => f,
        Err(r) => return r.into_response(),
    };
    match check_form(&f) {
        Ok((text, file)) => {
            let players: u64 = file.setup.counts.iter().sum();
            ok(&json!({ "ok": true, "toml": text, "players": players }))
        }
        Err(p) => problems_response(p),
    }
}

#[derive(Deserialize)]
struct Import {
    toml: String,
}

async fn import_setup(body: Bytes) -> Response {
    let i: Import = match parse(&body) {
        Ok(i) => i,
        Err(r) => return r.into_response(),
    };
    let names = strategy_names();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    match crate::input::parse_setup("imported.toml", &i.toml, &refs) {
        Ok(file) => ok(&json!({ "form": Form::of_file(&file) })),
        Err(e) => file_problems(&e),
    }
}

// ---------------------------------------------------------------------------
// A run: the `run` command with a watch; progress as server-sent events.

#[derive(Deserialize)]
struct RunRequest {
    setup: Form,
    #[serde(default = "default_games")]
    games: u64,
    #[serde(default)]
    precision: Option<f64>,
    #[serde(default = "default_seed")]
    seed: u64,
}

fn default_games() -> u64 {
    100_000
}
fn default_seed() -> u64 {
    1
}

/// One camp's rate so far.
#[derive(Serialize)]
struct CampRate {
    camp: &'static str,
    rate: f64,
    lo: f64,
    hi: f64,
}

/// The camps dealt in a tally's games, with their rates and intervals.
fn camp_rates(t: &crate::stats::Tally) -> Vec<CampRate> {
    Camp::ALL
        .iter()
        .filter(|c| Role::ALL.iter().any(|r| r.camp() == **c && t.role_dealt[*r as usize] > 0))
        .map(|c| {
            let w = t.wins[*c as usize];
            let (lo, hi) = crate::stats::wilson(w, t.games);
            CampRate { camp: c.name(), rate: if t.games == 0 { 0.0 } else { w as f64 / t.games as f64 }, lo, hi }
        })
        .collect()
}

impl App {
    /// Takes the one run slot, or says what holds it.
    fn claim(&self, what: &'static str) -> Result<(u64, Arc<Watch>, Instant), Refused> {
        let mut live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(l) = live.as_ref() {
            return Err(Refused(
                StatusCode::CONFLICT,
                format!(
                    "a {} (number {}) is going on: one run at a time — wait for it to finish or cancel it",
                    l.what, l.id
                ),
            ));
        }
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let started = Instant::now();
        let tx = self.progress.clone();
        let watch = Arc::new(Watch::new(Box::new(move |p: &Progress<'_>| {
            let played: u64 = p.counts.played.iter().sum();
            let secs = started.elapsed().as_secs_f64();
            let camps: Vec<Vec<CampRate>> = p.counts.tallies.iter().map(camp_rates).collect();
            let v = json!({ "state": "running", "id": id, "games": played, "done": p.done, "max": p.games,
                            "per_sec": if secs > 0.0 { played as f64 / secs } else { 0.0 }, "seconds": secs,
                            "camps": camps });
            tx.send_replace(Arc::new(v.to_string()));
        })));
        *live = Some(Live { id, what, watch: watch.clone() });
        self.progress.send_replace(Arc::new(json!({ "state": "running", "id": id, "games": 0 }).to_string()));
        Ok((id, watch, started))
    }

    fn release(&self) {
        *self.live.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    fn bound(&self, games: u64) -> Result<(), Refused> {
        if games == 0 || games > self.o.max_games {
            return Err(Refused(
                StatusCode::BAD_REQUEST,
                format!("games {games}: give 1 to {} (the studio's --max-games)", self.o.max_games),
            ));
        }
        Ok(())
    }
}

/// A DataFrame as `{name, columns, rows}` with every value as text.
fn frame_json(name: &str, df: &DataFrame) -> Value {
    let columns: Vec<String> = df.get_column_names().iter().map(|c| c.to_string()).collect();
    let mut cols: Vec<Vec<Option<String>>> = Vec::new();
    for c in df.columns() {
        let s = c.as_materialized_series().cast(&DataType::String);
        let vals = match s.as_ref().ok().and_then(|s| s.str().ok()) {
            Some(ca) => (0..ca.len()).map(|i| ca.get(i).map(str::to_string)).collect(),
            None => vec![None; df.height()],
        };
        cols.push(vals);
    }
    let rows: Vec<Vec<Option<String>>> =
        (0..df.height()).map(|i| cols.iter().map(|c| c.get(i).cloned().flatten()).collect()).collect();
    json!({ "name": name, "columns": columns, "rows": rows })
}

/// A finished command's result: status, message, text and tables.
fn finish(id: u64, report: Report, seconds: f64) -> Finished {
    let (status, message) = match &report.result {
        Ok(()) => ("complete", String::new()),
        Err(crate::error::Error::Interrupted(_)) => {
            ("cancelled", "cancelled: the tables hold the blocks finished".into())
        }
        Err(e @ crate::error::Error::Missed(_)) => ("missed", e.to_string()),
        Err(e) => ("failed", e.to_string()),
    };
    let tables: Vec<Value> = report.captured.frames.iter().map(|(n, f)| frame_json(n, f)).collect();
    let json = json!({ "id": id, "status": status, "message": message, "text": report.captured.text,
                       "notes": report.captured.notes, "tables": tables, "seconds": seconds })
    .to_string();
    Finished { json, frames: report.captured.frames }
}

async fn start_run(State(app): Shared, body: Bytes) -> Response {
    let r: RunRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = app.bound(r.games) {
        return e.into_response();
    }
    let (text, _) = match check_form(&r.setup) {
        Ok(t) => t,
        Err(p) => return problems_response(p),
    };
    let (id, watch, started) = match app.claim("run") {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    let name = file_name(&r.setup);
    let mut argv: Vec<String> = vec!["run".into(), "--setup".into(), name.clone(), "--seed".into(), r.seed.to_string()];
    argv.extend(["--threads".to_string(), app.o.threads.to_string(), "--games".into(), r.games.to_string()]);
    if let Some(h) = r.precision {
        argv.extend(["--precision".to_string(), h.to_string()]);
    }
    let call = Call { plugins: vec![], files: vec![(name, text)], watch: Some(watch) };
    let worker = app.clone();
    // The games play on a thread of their own (rayon inside), never on the
    // async executor.
    let spawned = std::thread::Builder::new().name(format!("studio-run-{id}")).spawn(move || {
        let report = tables_with(&argv, &call);
        let done = finish(id, report, started.elapsed().as_secs_f64());
        let end = done.json.clone();
        *worker.last.lock().unwrap_or_else(|p| p.into_inner()) = Some(Arc::new(done));
        worker.release();
        worker.progress.send_replace(Arc::new(
            json!({ "state": "done", "id": id, "result": serde_json::from_str::<Value>(&end).unwrap_or(Value::Null) })
                .to_string(),
        ));
    });
    if let Err(e) = spawned {
        app.release();
        return refuse(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot start the run's thread: {e}"));
    }
    ok(&json!({ "id": id }))
}

/// The progress of the current (or last) run: one event per finished block,
/// then `done` with the result.
async fn events(State(app): Shared) -> Sse<impl futures_util::Stream<Item = Result<Event, std::convert::Infallible>>> {
    let rx = app.progress.subscribe();
    let stream = futures_util::stream::unfold((rx, true, false), |(mut rx, first, ended)| async move {
        if ended {
            return None;
        }
        if !first && rx.changed().await.is_err() {
            return None;
        }
        let v = rx.borrow_and_update().clone();
        let done = v.contains("\"state\":\"done\"") || v.contains("\"state\":\"idle\"");
        let ev = Event::default().event(if done { "done" } else { "progress" }).data(v.as_str());
        Some((Ok(ev), (rx, false, done)))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

async fn cancel(State(app): Shared) -> Response {
    let live = app.live.lock().unwrap_or_else(|p| p.into_inner());
    match live.as_ref() {
        Some(l) => {
            l.watch.cancel();
            ok(&json!({ "cancelled": l.id }))
        }
        None => refuse(StatusCode::CONFLICT, "no run is going on"),
    }
}

async fn result(State(app): Shared) -> Response {
    match app.last.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
        Some(f) => json_response(StatusCode::OK, f.json.clone()),
        None => refuse(StatusCode::NOT_FOUND, "no run has finished yet"),
    }
}

/// A table as CSV or Parquet bytes, made in memory.
fn table_bytes(df: &DataFrame, format: &str) -> Result<Vec<u8>, String> {
    let mut df = df.clone();
    let mut buf = Vec::new();
    match format {
        "csv" => CsvWriter::new(&mut buf).include_header(true).finish(&mut df).map_err(|e| e.to_string())?,
        "parquet" => {
            ParquetWriter::new(&mut buf).finish(&mut df).map_err(|e| e.to_string())?;
        }
        _ => return Err(format!("format {format}: give csv or parquet")),
    }
    Ok(buf)
}

async fn download(State(app): Shared, Query(q): Query<HashMap<String, String>>) -> Response {
    let table = q.get("table").map_or("summary", String::as_str);
    let format = q.get("format").map_or("csv", String::as_str);
    let last = app.last.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let Some(last) = last else { return refuse(StatusCode::NOT_FOUND, "no run has finished yet") };
    let Some((_, df)) = last.frames.iter().find(|(n, _)| n == table) else {
        let names: Vec<&str> = last.frames.iter().map(|(n, _)| n.as_str()).collect();
        return refuse(StatusCode::NOT_FOUND, format!("table {table}: the last run made {}", names.join(", ")));
    };
    match table_bytes(df, format) {
        Ok(bytes) => (
            [
                (
                    header::CONTENT_TYPE,
                    if format == "csv" { "text/csv" } else { "application/octet-stream" }.to_string(),
                ),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{table}.{format}\"")),
            ],
            Body::from(bytes),
        )
            .into_response(),
        Err(e) => refuse(StatusCode::BAD_REQUEST, e),
    }
}

// ---------------------------------------------------------------------------
// Saving into --out-dir, by plain file name only.

#[derive(Deserialize)]
struct Save {
    /// A plain file name: `NAME.csv`, `NAME.parquet` (the last run's
    /// tables: NAME.ext, NAME.roles.ext, …) or `NAME.toml` (a setup).
    name: String,
    #[serde(default)]
    setup: Option<Form>,
}

/// `name` if it is a plain file name in the folder (no folder part, no
/// `..`, not hidden), else why not.
pub(crate) fn plain_name(name: &str) -> Result<&str, String> {
    let bad = name.is_empty()
        || name.starts_with('.')
        || name.contains(['/', '\\', '\0'])
        || name.contains("..")
        || std::path::Path::new(name).components().count() != 1;
    if bad {
        return Err(format!(
            "`{name}`: give a plain file name (no folder, no `..`, not hidden): the studio writes only into its --out-dir"
        ));
    }
    Ok(name)
}

async fn save(State(app): Shared, body: Bytes) -> Response {
    let s: Save = match parse(&body) {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    let Some(dir) = app.o.out_dir.clone() else {
        return refuse(
            StatusCode::FORBIDDEN,
            "nothing is written: start the studio with --out-dir DIR to save into DIR",
        );
    };
    let name = match plain_name(&s.name) {
        Ok(n) => n.to_string(),
        Err(e) => return refuse(StatusCode::BAD_REQUEST, e),
    };
    let path = dir.join(&name);
    let mut files: Vec<(std::path::PathBuf, Vec<u8>)> = Vec::new();
    if name.ends_with(".toml") {
        let Some(f) = s.setup else { return refuse(StatusCode::BAD_REQUEST, "no setup to save") };
        match check_form(&f) {
            Ok((text, _)) => files.push((path, text.into_bytes())),
            Err(p) => return problems_response(p),
        }
    } else {
        let Some((stem, format)) = name.rsplit_once('.').filter(|(_, e)| matches!(*e, "csv" | "parquet")) else {
            return refuse(StatusCode::BAD_REQUEST, format!("`{name}`: give a name ending in .csv, .parquet or .toml"));
        };
        let (stem, format) = (stem.to_string(), format.to_string());
        let last = app.last.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let Some(last) = last else { return refuse(StatusCode::NOT_FOUND, "no run has finished yet") };
        for (i, (table, df)) in last.frames.iter().enumerate() {
            let p = if i == 0 { path.clone() } else { dir.join(format!("{stem}.{table}.{format}")) };
            match table_bytes(df, &format) {
                Ok(b) => files.push((p, b)),
                Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, e),
            }
        }
    }
    match crate::output::write_set(&files) {
        Ok(()) => ok(&json!({ "wrote": files.iter().map(|(p, _)| p.display().to_string()).collect::<Vec<_>>() })),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

// ---------------------------------------------------------------------------
// Compare: `mafia compare` on the same games, and a sentence from its numbers.

#[derive(Deserialize)]
struct CompareRequest {
    setup: Form,
    a: Vec<String>,
    b: Vec<String>,
    #[serde(default = "default_games")]
    games: u64,
    #[serde(default)]
    precision: Option<f64>,
    #[serde(default = "default_seed")]
    seed: u64,
}

/// Runs a command to its end on a blocking thread, holding the run slot.
async fn run_blocking(
    app: Arc<App>,
    what: &'static str,
    argv: Vec<String>,
    files: Vec<(String, String)>,
) -> Result<(Report, f64), Refused> {
    let (_, watch, started) = app.claim(what)?;
    let call = Call { plugins: vec![], files, watch: Some(watch) };
    let joined = tokio::task::spawn_blocking(move || tables_with(&argv, &call)).await;
    app.release();
    app.progress.send_replace(Arc::new(json!({ "state": "idle" }).to_string()));
    joined
        .map(|r| (r, started.elapsed().as_secs_f64()))
        .map_err(|e| Refused(StatusCode::INTERNAL_SERVER_ERROR, format!("the {what} failed: {e}")))
}

fn number(row: &[Option<String>], cols: &[String], name: &str) -> Option<f64> {
    let i = cols.iter().position(|c| c == name)?;
    row.get(i)?.as_ref()?.parse().ok()
}

/// The comparison in words, from its table's numbers.
fn compare_sentence(table: &Value, a: &[String], b: &[String], rules: &[(String, String)]) -> Vec<String> {
    let cols: Vec<String> = serde_json::from_value(table["columns"].clone()).unwrap_or_default();
    let rows: Vec<Vec<Option<String>>> = serde_json::from_value(table["rows"].clone()).unwrap_or_default();
    let label = |v: &[String]| if v.is_empty() { "the base".to_string() } else { v.join(" ") };
    let at = if rules.is_empty() {
        String::new()
    } else {
        format!(" at {}", rules.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", "))
    };
    let mut out = Vec::new();
    for row in &rows {
        let camp = row.first().cloned().flatten().unwrap_or_default();
        let (Some(d), Some(lo), Some(hi), Some(n)) = (
            number(row, &cols, "diff"),
            number(row, &cols, "diff_lo"),
            number(row, &cols, "diff_hi"),
            number(row, &cols, "games"),
        ) else {
            continue;
        };
        // Points to one decimal, never "-0.0".
        let pts = |x: f64| format!("{:.1}", if (x * 100.0).abs() < 0.05 { 0.0 } else { x * 100.0 });
        let sign = if d >= 0.0 { "+" } else { "" };
        let verdict = if lo > 0.0 || hi < 0.0 {
            format!(
                "{} gives the {camp} {sign}{} points [{}, {}] against {}{at}",
                label(a),
                pts(d),
                pts(lo),
                pts(hi),
                label(b)
            )
        } else {
            format!(
                "{} and {} are not told apart for the {camp}{at}: {sign}{} points [{}, {}] (the interval holds 0)",
                label(a),
                label(b),
                pts(d),
                pts(lo),
                pts(hi)
            )
        };
        out.push(format!("{verdict}, on the same {} games.", n as u64));
    }
    out
}

async fn compare(State(app): Shared, body: Bytes) -> Response {
    let r: CompareRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = app.bound(r.games) {
        return e.into_response();
    }
    let (text, _) = match check_form(&r.setup) {
        Ok(t) => t,
        Err(p) => return problems_response(p),
    };
    let name = file_name(&r.setup);
    let mut argv: Vec<String> =
        vec!["compare".into(), "--setup".into(), name.clone(), "--seed".into(), r.seed.to_string()];
    argv.extend(["--threads".to_string(), app.o.threads.to_string(), "--games".into(), r.games.to_string()]);
    if let Some(h) = r.precision {
        argv.extend(["--precision".to_string(), h.to_string()]);
    }
    for c in r.a.iter().filter(|c| !c.trim().is_empty()) {
        argv.extend(["--a".to_string(), c.trim().to_string()]);
    }
    for c in r.b.iter().filter(|c| !c.trim().is_empty()) {
        argv.extend(["--b".to_string(), c.trim().to_string()]);
    }
    let (report, secs) = match run_blocking(app.clone(), "comparison", argv, vec![(name, text)]).await {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = &report.result
        && !matches!(e, crate::error::Error::Missed(_))
    {
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string());
    }
    let table = report.captured.frames.iter().find(|(n, _)| n == "compare").map(|(n, f)| frame_json(n, f));
    let Some(table) = table else { return refuse(StatusCode::INTERNAL_SERVER_ERROR, "the comparison made no table") };
    let a: Vec<String> = r.a.iter().filter(|c| !c.trim().is_empty()).cloned().collect();
    let b: Vec<String> = r.b.iter().filter(|c| !c.trim().is_empty()).cloned().collect();
    let sentences = compare_sentence(&table, &a, &b, &r.setup.rules);
    ok(&json!({ "table": table, "sentences": sentences, "text": report.captured.text, "seconds": secs }))
}

// ---------------------------------------------------------------------------
// A sweep over one or two rule settings: `run --sweep`, and plot.rs's heatmap.

#[derive(Deserialize)]
struct SweepRequest {
    setup: Form,
    /// `KEY=V1,V2,…` across.
    x: String,
    /// `KEY=V1,V2,…` down (empty: one row).
    #[serde(default)]
    y: String,
    #[serde(default = "default_camp")]
    camp: String,
    #[serde(default = "default_games")]
    games: u64,
    #[serde(default = "default_seed")]
    seed: u64,
}

fn default_camp() -> String {
    "town".into()
}

async fn sweep(State(app): Shared, body: Bytes) -> Response {
    let r: SweepRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = app.bound(r.games) {
        return e.into_response();
    }
    let (text, _) = match check_form(&r.setup) {
        Ok(t) => t,
        Err(p) => return problems_response(p),
    };
    let axis = |s: &str| -> Option<(String, Vec<String>)> {
        let (k, v) = s.split_once('=')?;
        Some((k.trim().to_string(), v.split(',').map(|x| x.trim().to_string()).collect()))
    };
    let Some(x) = axis(&r.x) else {
        return refuse(StatusCode::BAD_REQUEST, format!("x `{}`: give KEY=V1,V2,…", r.x));
    };
    let y = if r.y.trim().is_empty() { None } else { axis(&r.y) };
    if !r.y.trim().is_empty() && y.is_none() {
        return refuse(StatusCode::BAD_REQUEST, format!("y `{}`: give KEY=V1,V2,…", r.y));
    }
    let name = file_name(&r.setup);
    let mut argv: Vec<String> = vec!["run".into(), "--setup".into(), name.clone(), "--seed".into(), r.seed.to_string()];
    argv.extend(["--threads".to_string(), app.o.threads.to_string(), "--games".into(), r.games.to_string()]);
    // The first sweep varies slowest: rows (y), then columns (x).
    if y.is_some() {
        argv.extend(["--sweep".to_string(), r.y.trim().to_string()]);
    }
    argv.extend(["--sweep".to_string(), r.x.trim().to_string()]);
    let (report, secs) = match run_blocking(app.clone(), "sweep", argv, vec![(name.clone(), text)]).await {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = &report.result {
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string());
    }
    let Some((_, summary)) = report.captured.frames.iter().find(|(n, _)| n == "summary") else {
        return refuse(StatusCode::INTERNAL_SERVER_ERROR, "the sweep made no summary");
    };
    let table = frame_json("summary", summary);
    let cols: Vec<String> = serde_json::from_value(table["columns"].clone()).unwrap_or_default();
    let rows: Vec<Vec<Option<String>>> = serde_json::from_value(table["rows"].clone()).unwrap_or_default();
    let (nx, ys) = (x.1.len(), y.as_ref().map_or(vec![String::new()], |y| y.1.clone()));
    if rows.len() != nx * ys.len() {
        return refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{} rows for a {}×{} grid", rows.len(), ys.len(), nx),
        );
    }
    let (rate, lo, hi) = (format!("{}_rate", r.camp), format!("{}_lo", r.camp), format!("{}_hi", r.camp));
    let cells: Vec<Vec<Option<f64>>> =
        (0..ys.len()).map(|j| (0..nx).map(|i| number(&rows[j * nx + i], &cols, &rate)).collect()).collect();
    let half: Vec<Vec<Option<f64>>> = (0..ys.len())
        .map(|j| {
            (0..nx)
                .map(|i| Some((number(&rows[j * nx + i], &cols, &hi)? - number(&rows[j * nx + i], &cols, &lo)?) / 2.0))
                .collect()
        })
        .collect();
    let bounds: Vec<Vec<Option<(f64, f64)>>> = (0..ys.len())
        .map(|j| {
            (0..nx)
                .map(|i| Some((number(&rows[j * nx + i], &cols, &lo)?, number(&rows[j * nx + i], &cols, &hi)?)))
                .collect()
        })
        .collect();
    let camp = mafia_engine::Camp::ALL.into_iter().find(|c| c.name() == r.camp);
    let h = crate::output::plot::Heatmap {
        title: format!("{} win rate (%)", r.camp),
        subtitle: format!("setup {name} · {} games per cell · seed {}", r.games, r.seed),
        x_label: x.0.clone(),
        y_label: y.as_ref().map_or(String::new(), |y| y.0.clone()),
        xs: x.1.clone(),
        ys,
        cells,
        centre: 0.5,
        annotate: true,
        half,
        bounds,
        camp,
    };
    match crate::output::plot::heatmap(&h) {
        Ok(svg) => ok(&json!({ "svg": svg, "table": table, "seconds": secs })),
        Err(e) => refuse(StatusCode::UNPROCESSABLE_ENTITY, e),
    }
}

// ---------------------------------------------------------------------------
// The night calculator: `mafia resolve`'s reader and trace.

#[derive(Deserialize)]
struct ResolveRequest {
    toml: String,
}

/// The next night's scenario file: the same seats and rules, the carry-over
/// the trace computed, no moves yet.
fn next_night_toml(r: &crate::input::Resolved, next: &crate::commands::resolve::NextNight) -> String {
    let sc = &r.scenario;
    let seats: Vec<String> = sc.roles.iter().map(|r| format!("\"{}\"", r.name())).collect();
    let mut t = format!(
        "# Night {} of {}: the carry-over from `mafia resolve` of night {}; add the day's lynch to `dead`, then the moves.\n",
        next.night, sc.name, sc.night
    );
    t.push_str(&format!("name = \"{}\"\nnight = {}\nseats = [{}]\n", sc.name, next.night, seats.join(", ")));
    if let Some(order) = &sc.night_order {
        let steps: Vec<String> = order.iter().map(|s| format!("\"{}\"", s.key())).collect();
        t.push_str(&format!("night_order = [{}]\n", steps.join(", ")));
    }
    let rules = sc.rules.diff_from_default();
    if !rules.is_empty() {
        t.push_str("\n[rules]\n");
        for kv in rules {
            if let Some((k, v)) = kv.split_once('=') {
                let lit = if v.parse::<f64>().is_ok() || v == "true" || v == "false" {
                    v.to_string()
                } else {
                    format!("\"{v}\"")
                };
                t.push_str(&format!("{k} = {lit}\n"));
            }
        }
    }
    match toml::to_string(&next.carry) {
        Ok(carry) => {
            t.push_str("\n[carry]\n");
            t.push_str(&carry);
        }
        Err(e) => t.push_str(&format!("\n# the carry-over could not be written as TOML: {e}\n")),
    }
    t
}

async fn resolve(body: Bytes) -> Response {
    let r: ResolveRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let resolved = crate::input::parse_scenario("night.toml", &r.toml).and_then(|f| f.resolve());
    match resolved {
        Ok(res) => {
            let trace = crate::commands::resolve::trace(&res);
            let next = next_night_toml(&res, &trace.next_night);
            ok(&json!({ "text": crate::commands::resolve::to_text(&res), "trace": trace, "next": next }))
        }
        Err(e) => file_problems(&e),
    }
}

// ---------------------------------------------------------------------------
// Win odds of a mid-game state: `mafia odds`.

#[derive(Deserialize)]
struct OddsRequest {
    toml: String,
    #[serde(default = "default_games")]
    games: u64,
    #[serde(default = "default_seed")]
    seed: u64,
}

async fn odds(State(app): Shared, body: Bytes) -> Response {
    let r: OddsRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = app.bound(r.games) {
        return e.into_response();
    }
    let name = "state.toml".to_string();
    let argv: Vec<String> = vec![
        "odds".into(),
        name.clone(),
        "--games".into(),
        r.games.to_string(),
        "--seed".into(),
        r.seed.to_string(),
        "--threads".into(),
        app.o.threads.to_string(),
    ];
    let (report, secs) = match run_blocking(app.clone(), "odds", argv, vec![(name, r.toml)]).await {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = &report.result
        && !matches!(e, crate::error::Error::Missed(_))
    {
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string());
    }
    let tables: Vec<Value> = report.captured.frames.iter().map(|(n, f)| frame_json(n, f)).collect();
    ok(&json!({ "tables": tables, "text": report.captured.text, "seconds": secs }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_file_names_are_written() {
        assert!(plain_name("a.csv").is_ok());
        for bad in ["../a.csv", "/etc/passwd", "a/b.csv", ".hidden", "..", "", "a\\b.csv"] {
            assert!(plain_name(bad).is_err(), "{bad}");
        }
    }
}
