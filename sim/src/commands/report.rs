//! `mafia report STUDY.toml`: runs a study's experiments and writes a report
//! a person reads — Markdown with the conclusion at the top, every figure
//! with its 95% interval, SVG plots ([`crate::output::plot`], drawn with
//! `plotters`) and each experiment's full table as CSV — into the study
//! file's folder. Nothing in the output depends on the time, the machine or
//! the thread count, so the same file and seed regenerate it byte for byte.
//! The study file's format is `input/study_file.rs`'s.
//!
//! The conclusion's figures (`{town_diff@rules.absence=0.1,…}`) are filled
//! from the tables just played, so a regenerated report never keeps a
//! number its data no longer gives; each figure's point and column are
//! checked before the first game. The plots' axes are labelled in words
//! with their units, and each has a subtitle with the setup, the lineup and
//! the games per point.

use crate::args::{GameArgs, make_points};
use crate::commands::experiment::{compact, experiment_frame, play_points, reference_pairs};
use crate::error::Error;
use crate::exec::Finish;
use crate::exec::{Budget, Points};
use crate::input::ExperimentFile;
use crate::input::{Figure, Piece, PlotSpec, load_study};
use crate::output::plot;
use crate::output::thousands;
use crate::shard::Layout;
use clap::Args;
use mafia_engine::{Camp, Role};
use polars::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The study file (.toml): experiments, plots and the conclusion.
    #[arg(value_name = "STUDY")]
    pub study: PathBuf,
    /// Where to write (default: the study file's folder).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Worker threads (0 = every core); the report does not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// No progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}

/// One experiment's results for the report.
struct Ran {
    x: ExperimentFile,
    points: Points,
    df: DataFrame,
    played: String,
}

pub fn cmd_report(a: ReportArgs) -> Result<(), Error> {
    let study = load_study(&a.study)?;
    let dir = match &a.out_dir {
        Some(d) => d.clone(),
        None => a.study.parent().map_or(PathBuf::from("."), Path::to_path_buf),
    };
    std::fs::create_dir_all(&dir).map_err(|e| Error::Io(format!("{}: {e}", dir.display())))?;
    let study_name = a.study.display().to_string();
    // Check every experiment's points before playing any.
    let mut made = Vec::new();
    for x in &study.experiments {
        let base = GameArgs {
            setup: vec![x.setup.clone()],
            rules: vec![],
            agents: x.agents.clone(),
            ext: crate::args::ExtArgs::default_settings(),
        };
        let points = make_points(&base, &x.setup, &x.rules, &x.axes, x.skip_invalid)
            .map_err(|e| e.context(format!("{study_name}: experiment {}", x.name)))?;
        let pairs = reference_pairs(&points, x.reference.as_ref())?;
        made.push((x.clone(), points, pairs));
    }
    // Every figure of the conclusion found (its point, its column) before
    // the first game: a frame of no games has the columns the played one will.
    let mut figures = Vec::new();
    for piece in &study.conclusion_pieces {
        let Piece::Figure(f) = piece else { continue };
        let Some(k) = made.iter().position(|(x, _, _)| x.name == f.experiment) else { continue };
        let (_, points, pairs) = &made[k];
        let jobs: Vec<crate::exec::Job> = points.points.iter().map(|p| p.job.clone()).collect();
        let empty = crate::exec::Counts::new(&jobs, pairs);
        let frame = experiment_frame(&Layout::of(points), &empty, Finish::Complete)?;
        let row = figure_row(f, points).and_then(|row| {
            check_column(f, &frame)?;
            Ok(row)
        });
        figures.push(row.map(|row| (k, row)).map_err(|m| Error::Invalid(format!("{study_name}: conclusion: {m}"))));
    }
    let figures: Vec<(usize, usize)> = figures.into_iter().collect::<Result<_, _>>()?;
    // Every file of the report claimed before the first game (issue 35).
    let _claim = crate::output::claim(&[Some(crate::output::Output {
        flag: "the report",
        path: dir.join("README.md"),
        beside: study
            .plots
            .iter()
            .map(|p| dir.join(&p.file))
            .chain(study.experiments.iter().map(|x| dir.join(format!("{}.csv", x.name))))
            .collect(),
    })])?;
    crate::exec::install_interrupt_handler();
    let mut ran = Vec::new();
    let mut missed = Vec::new();
    for (x, points, pairs) in made {
        let games = x.games.unwrap_or(if x.precision.is_some() {
            100_000_000
        } else {
            crate::commands::experiment::DEFAULT_GAMES
        });
        let b = Budget {
            games,
            first: 0,
            seed: x.seed.unwrap_or(1),
            threads: a.threads,
            precision: x.precision,
            progress: !a.quiet,
        };
        if !a.quiet {
            eprintln!("experiment {}: {} points", x.name, points.points.len());
        }
        let (counts, finish) = play_points(&points, pairs, &b)?;
        if finish == Finish::Interrupted {
            return Err(Error::Interrupted(format!("interrupted during experiment {}: no report written", x.name)));
        }
        missed.push(
            crate::commands::experiment::missed_precision(&counts, finish, x.precision, games)
                .map_err(|e| e.context(format!("{study_name}: experiment {}", x.name))),
        );
        let df = experiment_frame(&Layout::of(&points), &counts, finish)?;
        let mut played = crate::commands::experiment::played_line(&counts, finish, x.precision, games);
        if let Some(note) = crate::commands::experiment::shared_games_note(&counts) {
            // "note: …" as a second sentence of the paragraph.
            played = format!("{played}. {}", capitalise(note.trim_start_matches("note: ")));
        }
        ran.push(Ran { x, points, df, played });
    }
    // The report's files, written as one set at the end: all or nothing.
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", study.title);
    if !study.conclusion.is_empty() {
        let conclusion = fill_conclusion(&study.conclusion_pieces, &figures, &ran)
            .map_err(|m| Error::Invalid(format!("{study_name}: conclusion: {m}")))?;
        let _ = writeln!(md, "**Conclusion.** {conclusion}\n");
    }
    // As given, without a leading `./`, so the report does not depend on how it was run.
    let rel = a.study.display().to_string().trim_start_matches("./").to_string();
    let _ = writeln!(
        md,
        "**Regenerate:** `cargo run --release -- report {rel}` (the same file and seeds give this report byte for byte).\n"
    );
    if !study.about.is_empty() {
        let _ = writeln!(md, "{}\n", study.about);
    }
    for (i, p) in study.plots.iter().enumerate() {
        let r = ran
            .iter()
            .find(|r| r.x.name == p.experiment)
            .ok_or_else(|| Error::Invalid(format!("plot {}: no experiment", i + 1)))?;
        let svg =
            draw(p, r).map_err(|e| Error::Plot(e).context(format!("{study_name}: plot {} ({})", i + 1, p.title)))?;
        files.push((dir.join(&p.file), svg.into_bytes()));
        let _ = writeln!(md, "![{}]({})\n", p.title, p.file);
    }
    for r in &ran {
        let _ = writeln!(md, "## Experiment `{}`\n", r.x.name);
        let _ = writeln!(md, "{}\n", describe(&r.x, &r.points));
        let shown = compact(&r.df, &r.points.axes)?;
        md.push_str(&markdown_table(&shown));
        let _ = writeln!(md, "\n{}. Full table: [`{}.csv`]({}.csv).\n", capitalise(&r.played), r.x.name, r.x.name);
        let path = dir.join(format!("{}.csv", r.x.name));
        let mut df = r.df.clone();
        let mut buf = Vec::new();
        CsvWriter::new(&mut buf)
            .include_header(true)
            .finish(&mut df)
            .map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
        files.push((path, buf));
    }
    files.push((dir.join("README.md"), md.into_bytes()));
    crate::output::write_set(&files).map_err(Error::Io)?;
    for (w, _) in files {
        eprintln!("wrote {}", w.display());
    }
    // Written, but a precision the study asks for and missed fails it.
    Error::all(missed)
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().collect::<String>() + c.as_str())
}

/// What an experiment played, in words.
fn describe(x: &ExperimentFile, points: &Points) -> String {
    let mut s = format!(
        "Setup `{}`",
        Path::new(&x.setup).file_name().map_or(x.setup.clone(), |f| f.to_string_lossy().to_string())
    );
    if let Some(a) = &x.agents {
        let _ = write!(s, ", agents `{a}`");
    }
    if !x.rules.is_empty() {
        let r: Vec<String> = x.rules.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = write!(s, ", rules `{}`", r.join(" "));
    }
    let _ = write!(s, "; {} points", points.points.len());
    for a in &points.axes {
        let _ = write!(s, ", `{}` in {}", a.name, a.values.join(", "));
    }
    let _ = write!(s, "; seed {}", x.seed.unwrap_or(1));
    if let Some(h) = x.precision {
        let _ = write!(
            s,
            "; each point played until every 95% interval was within ±{h} (at most {} games)",
            x.games.unwrap_or(100_000_000)
        );
    }
    if let Some((k, v)) = &x.reference {
        let _ = write!(s, "; differences are paired against `{k}={v}` on the same games");
    }
    if !points.skipped.is_empty() {
        let _ = write!(s, "; {} configurations make no game and are left out", points.skipped.len());
    }
    s.push('.');
    s
}

/// A frame as a Markdown table: rates as percentages to two places, a
/// rate's bounds folded into `[lo, hi]`, a rate of 0% or 100% with its
/// one-sided bound, `[≤ hi]` or `[≥ lo]`.
pub fn markdown_table(df: &DataFrame) -> String {
    let cols: Vec<&Column> = df.columns().iter().collect();
    let names: Vec<String> = cols.iter().map(|c| c.name().to_string()).collect();
    // Columns `X_lo`/`X_hi` join `X_rate` or `X_diff` as an interval: each
    // shown column is its name, its index and the indices of its bounds.
    type Shown = (String, usize, Option<(usize, usize)>);
    let mut shown: Vec<Shown> = Vec::new();
    for (i, n) in names.iter().enumerate() {
        if n.ends_with("_lo") || n.ends_with("_hi") {
            continue;
        }
        let stem = n.strip_suffix("_rate").or_else(|| n.strip_suffix("_diff").map(|_| n.as_str()));
        let bounds = stem.and_then(|s| {
            let lo = names.iter().position(|x| *x == format!("{s}_lo"))?;
            let hi = names.iter().position(|x| *x == format!("{s}_hi"))?;
            Some((lo, hi))
        });
        let head = if bounds.is_some() { format!("{n} [95%]") } else { n.clone() };
        shown.push((head, i, bounds));
    }
    let mut out = String::new();
    let _ = writeln!(out, "| {} |", shown.iter().map(|s| s.0.clone()).collect::<Vec<_>>().join(" | "));
    let _ = writeln!(out, "|{}|", shown.iter().map(|_| "---").collect::<Vec<_>>().join("|"));
    for r in 0..df.height() {
        let cells: Vec<String> = shown
            .iter()
            .map(|(name, i, bounds)| {
                let v = cols[*i].get(r).ok();
                let pct = name.contains("_rate") || name.contains("_diff");
                let text = |v: Option<AnyValue<'_>>| cell(v, pct);
                match bounds {
                    Some((lo, hi)) => {
                        let main = text(v);
                        let rate = name.ends_with("_rate [95%]");
                        let x = cols[*i].get(r).ok().and_then(|v| v.extract::<f64>());
                        if main.is_empty() {
                            main
                        } else if rate && x == Some(0.0) {
                            // A rate of 0% has a one-sided bound (stats::wilson).
                            format!("{main} [≤ {}]", text(cols[*hi].get(r).ok()))
                        } else if rate && x == Some(1.0) {
                            format!("{main} [≥ {}]", text(cols[*lo].get(r).ok()))
                        } else {
                            format!("{main} [{}, {}]", text(cols[*lo].get(r).ok()), text(cols[*hi].get(r).ok()))
                        }
                    }
                    None => text(v),
                }
            })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

fn cell(v: Option<AnyValue<'_>>, pct: bool) -> String {
    match v {
        None | Some(AnyValue::Null) => String::new(),
        // No "-0.00%": a rounded zero has no sign.
        Some(AnyValue::Float64(x)) if pct => format!("{:.2}%", 100.0 * x).replace("-0.00%", "0.00%"),
        Some(AnyValue::Float64(x)) => format!("{x:.3}"),
        Some(AnyValue::String(s)) => s.to_string(),
        Some(AnyValue::StringOwned(s)) => s.to_string(),
        Some(other) => other.to_string(),
    }
}

/// The rows of an experiment a plot uses (its `where`), as point indices.
fn rows(p: &PlotSpec, r: &Ran) -> Result<Vec<usize>, String> {
    let axis = |name: &str| {
        r.points
            .axes
            .iter()
            .position(|a| a.name == name)
            .ok_or_else(|| format!("`{name}` is not an axis of experiment {}", r.x.name))
    };
    let filters: Vec<(usize, &String)> =
        p.filter.iter().map(|(k, v)| Ok((axis(k)?, v))).collect::<Result<_, String>>()?;
    Ok((0..r.points.points.len())
        .filter(|&i| filters.iter().all(|(a, v)| &r.points.points[i].values[*a] == *v))
        .collect())
}

/// A column's f64 value at a row (null → None).
fn num(df: &DataFrame, col: &str, row: usize) -> Result<Option<f64>, String> {
    let c = df.column(col).map_err(|_| format!("no column `{col}` (CAMP_rate, CAMP_diff, days_mean, …)"))?;
    match c.get(row).map_err(|e| e.to_string())? {
        AnyValue::Null => Ok(None),
        v => v.extract::<f64>().map(Some).ok_or_else(|| format!("`{col}` is not a number")),
    }
}

/// The interval columns of a value column: `X_rate` → `X_lo`/`X_hi`,
/// `X_diff` → `X_diff_lo`/`X_diff_hi`; other columns have none.
fn bounds_of(col: &str) -> Option<(String, String)> {
    if let Some(s) = col.strip_suffix("_rate") {
        return Some((format!("{s}_lo"), format!("{s}_hi")));
    }
    col.ends_with("_diff").then(|| (format!("{col}_lo"), format!("{col}_hi")))
}

fn value_at(df: &DataFrame, col: &str, row: usize) -> Result<Option<(f64, f64, f64)>, String> {
    let Some(v) = num(df, col, row)? else { return Ok(None) };
    match bounds_of(col) {
        Some((lo, hi)) => Ok(Some((v, num(df, &lo, row)?.unwrap_or(v), num(df, &hi, row)?.unwrap_or(v)))),
        None => Ok(Some((v, v, v))),
    }
}

fn draw(p: &PlotSpec, r: &Ran) -> Result<String, String> {
    let idx = rows(p, r)?;
    let axis_of = |name: &str| {
        r.points
            .axes
            .iter()
            .position(|a| a.name == name)
            .ok_or_else(|| format!("`{name}` is not an axis of experiment {}", r.x.name))
    };
    let pct = |col: &str| col.ends_with("_rate") || col.ends_with("_diff");
    let points = |col: &str| col.ends_with("_diff");
    let subtitle = subtitle(p, r, &idx);
    match p.kind.as_str() {
        "line" => {
            let (x, y) = (p.x.as_deref().unwrap_or(""), p.y.as_deref().unwrap_or(""));
            let xa = axis_of(x)?;
            let sa = p.series.as_deref().map(axis_of).transpose()?;
            let (y_words, camp) = column_words(y);
            // One series per value of the series axis, in its order, even one
            // with no points here: each value keeps its shade and marker in
            // every chart of the study.
            let mut series: Vec<plot::Series> = sa.map_or(Vec::new(), |s| {
                let axis = &r.points.axes[s];
                axis.values
                    .iter()
                    .map(|v| plot::Series { label: value_words(&axis.name, v), points: vec![], camp })
                    .collect()
            });
            for &i in &idx {
                let pt = &r.points.points[i];
                let label = sa.map_or(y_words.clone(), |s| value_words(&r.points.axes[s].name, &pt.values[s]));
                let xv: f64 = pt.values[xa].parse().map_err(|_| format!("{x} = {}: not a number", pt.values[xa]))?;
                let Some((v, lo, hi)) = value_at(&r.df, y, i)? else { continue };
                let point = plot::Point { x: xv, y: v, lo, hi };
                match series.iter_mut().find(|s| s.label == label) {
                    Some(s) => s.points.push(point),
                    None => series.push(plot::Series { label, points: vec![point], camp }),
                }
            }
            let reference = if y.ends_with("_diff") {
                Some((0.0, "no difference".to_string()))
            } else if y.ends_with("_rate") {
                Some((0.5, "50%".to_string()))
            } else {
                None
            };
            let (x_words, x_percent) = axis_words(x, &r.points.axes[xa].values);
            plot::line_chart(&plot::LineChart {
                title: p.title.clone(),
                subtitle,
                x_label: p.x_label.clone().unwrap_or(x_words),
                y_label: p.y_label.clone().unwrap_or(y_words),
                series,
                y_range: None,
                reference,
                percent: pct(y),
                points: points(y),
                x_percent: x_percent && p.x_label.is_none(),
            })
        }
        "bars" => {
            let y = p.y.as_deref().or(p.value.as_deref()).unwrap_or("");
            let la = axis_of(p.label.as_deref().unwrap_or(""))?;
            let (y_words, camp) = column_words(y);
            let mut bars = Vec::new();
            for &i in &idx {
                let Some((v, lo, hi)) = value_at(&r.df, y, i)? else { continue };
                let label = r.points.points[i].values[la].clone();
                // A role's impact is on its own camp.
                let camp = if y == "impact_diff" { Role::from_name(&label).map(Role::camp) } else { camp };
                bars.push(plot::Bar { label, value: v, lo, hi, camp });
            }
            plot::bar_chart(&plot::BarChart {
                title: p.title.clone(),
                subtitle,
                y_label: p.y_label.clone().unwrap_or(y_words),
                bars,
                reference: y.ends_with("_diff").then(|| (0.0, "no difference".to_string())),
                percent: pct(y),
                points: points(y),
            })
        }
        _ => {
            let (x, y, value) =
                (p.x.as_deref().unwrap_or(""), p.y.as_deref().unwrap_or(""), p.value.as_deref().unwrap_or(""));
            let (xa, ya) = (axis_of(x)?, axis_of(y)?);
            let xs = r.points.axes[xa].values.clone();
            let ys = r.points.axes[ya].values.clone();
            let mut cells = vec![vec![None; xs.len()]; ys.len()];
            let mut bounds = vec![vec![None; xs.len()]; ys.len()];
            for &i in &idx {
                let pt = &r.points.points[i];
                let (cx, cy) =
                    (xs.iter().position(|v| *v == pt.values[xa]), ys.iter().position(|v| *v == pt.values[ya]));
                if let (Some(cx), Some(cy), Some((v, lo, hi))) = (cx, cy, value_at(&r.df, value, i)?) {
                    cells[cy][cx] = Some(v);
                    bounds[cy][cx] = Some((lo, hi));
                }
            }
            let (x_words, _) = axis_words(x, &xs);
            let (y_words, _) = axis_words(y, &ys);
            let (value_words, camp) = column_words(value);
            plot::heatmap(&plot::Heatmap {
                title: p.title.clone(),
                subtitle: format!("{subtitle} · cells: {value_words}"),
                x_label: p.x_label.clone().unwrap_or(x_words),
                y_label: p.y_label.clone().unwrap_or(y_words),
                xs,
                ys,
                cells,
                centre: 0.5,
                annotate: true,
                half: vec![],
                bounds,
                camp,
            })
        }
    }
}

/// A column of an experiment's table in words with its unit, and the camp it is about.
fn column_words(col: &str) -> (String, Option<Camp>) {
    if col == "draw_rate" {
        return ("Draws (% of games)".into(), None);
    }
    if col == "impact_diff" {
        return ("Change in the role's camp's win rate (percentage points)".into(), None);
    }
    if let Some(camp) = col.strip_suffix("_rate").and_then(Camp::from_name) {
        return (format!("{} win rate (%)", capitalise(camp.name())), Some(camp));
    }
    if let Some(camp) = col.strip_suffix("_diff").and_then(Camp::from_name) {
        return (format!("Change in {} win rate (percentage points)", camp.name()), Some(camp));
    }
    let words = match col {
        "days_mean" => "Days a game lasts (mean)",
        "days_p50" => "Days a game lasts (median)",
        "days_p90" => "Days a game lasts (90th percentile)",
        "games" => "Games played",
        _ => return (col.to_string(), None),
    };
    (format!("{words} ({col})"), None)
}

/// An axis in words with its unit, its name in parentheses; and whether its
/// values are fractions best read as percentages.
fn axis_words(name: &str, values: &[String]) -> (String, bool) {
    let fractions = values.iter().all(|v| v.parse::<f64>().is_ok_and(|x| (0.0..=1.0).contains(&x)));
    let key = name.strip_prefix("rules.").unwrap_or(name);
    let (words, percent) = match key {
        "absence" => ("Absence per phase (%)".to_string(), fractions),
        "no_kill_limit" => ("Nights without a kill that end the game".to_string(), false),
        "players" => ("Players at the table".to_string(), false),
        "mafia" => ("Mafia members, the Don included".to_string(), false),
        "replace" => ("Role replaced by a plain player".to_string(), false),
        "agents" => ("Lineup".to_string(), false),
        _ => {
            if let Some(camp) = name.strip_prefix("agents.") {
                (format!("Strategy of the {camp}"), false)
            } else if let Some(role) = name.strip_prefix("roles.") {
                (format!("Number of {role}s"), false)
            } else {
                (capitalise(&key.replace('_', " ")), false)
            }
        }
    };
    (format!("{words} ({name})"), percent)
}

/// A series' value in the legend, in words.
fn value_words(axis: &str, v: &str) -> String {
    match axis.strip_prefix("rules.").unwrap_or(axis) {
        "no_kill_limit" if v == "off" => "no such rule (off)".into(),
        "no_kill_limit" => format!("{v} nights without a kill"),
        "players" => format!("{v} players"),
        "mafia" => format!("{v} mafia"),
        "absence" => match v.parse::<f64>() {
            Ok(x) => format!("{}% absence", fixed(x * 100.0, if (x * 100.0).fract() == 0.0 { 0 } else { 1 })),
            Err(_) => format!("absence {v}"),
        },
        key => format!("{} = {v}", key.replace('_', " ")),
    }
}

/// The plot's subtitle: the setup and its players, the lineup, fixed rules
/// and `where` filters, the games per point (or their range) and the seed.
fn subtitle(p: &PlotSpec, r: &Ran, idx: &[usize]) -> String {
    let setup = Path::new(&r.x.setup).file_name().map_or(r.x.setup.clone(), |f| f.to_string_lossy().to_string());
    let distinct = |col: &str| -> Vec<String> {
        let mut v: Vec<String> = idx
            .iter()
            .filter_map(|&i| r.df.column(col).ok()?.get(i).ok().map(|v| cell(Some(v), false)))
            .filter(|s| !s.is_empty())
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let mut parts = vec![match distinct("players").as_slice() {
        [n] => format!("Setup {setup} ({n} players)"),
        _ => format!("Setup {setup}"),
    }];
    match distinct("agents").as_slice() {
        [a] => parts.push(format!("lineup {a}")),
        _ => parts.push(format!("lineup {}", r.x.agents.clone().unwrap_or_else(|| "the preset's default".into()))),
    }
    if !r.x.rules.is_empty() {
        parts
            .push(format!("rules {}", r.x.rules.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")));
    }
    for (k, v) in &p.filter {
        if !k.starts_with("agents") {
            parts.push(format!("{k} = {v}"));
        }
    }
    let games: Vec<u64> = idx.iter().filter_map(|&i| num(&r.df, "games", i).ok().flatten()).map(|g| g as u64).collect();
    let (lo, hi) = (games.iter().min().copied().unwrap_or(0), games.iter().max().copied().unwrap_or(0));
    parts.push(if lo == hi {
        format!("{} games per point", thousands(lo))
    } else {
        format!("{}–{} games per point", thousands(lo), thousands(hi))
    });
    parts.push(format!("seed {}", r.x.seed.unwrap_or(1)));
    parts.join(" · ")
}

/// Fixed-point without a "-0".
fn fixed(v: f64, d: usize) -> String {
    let s = format!("{v:.d$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}

/// The point a figure names: the one whose value on every axis it names is
/// the one it gives (axes of one value need not be named).
fn figure_row(f: &Figure, points: &Points) -> Result<usize, String> {
    let mut want = Vec::new();
    for (k, v) in &f.at {
        let a = points.axes.iter().position(|a| &a.name == k).ok_or_else(|| format!("{}: no axis `{k}`", f.text))?;
        want.push((a, v));
    }
    let found: Vec<usize> =
        (0..points.points.len()).filter(|&i| want.iter().all(|(a, v)| &points.points[i].values[*a] == *v)).collect();
    match found.as_slice() {
        [i] => Ok(*i),
        [] => Err(format!("{}: that configuration makes no game (it is left out of the experiment)", f.text)),
        _ => Err(format!("{}: names {} points; give every axis a value", f.text, found.len())),
    }
}

fn check_column(f: &Figure, df: &DataFrame) -> Result<(), String> {
    if df.column(&f.column).is_ok() {
        return Ok(());
    }
    let numeric: Vec<String> = df
        .columns()
        .iter()
        .filter(|c| c.dtype().is_primitive_numeric())
        .map(|c| c.name().to_string())
        .filter(|n| !n.ends_with("_lo") && !n.ends_with("_hi"))
        .collect();
    Err(format!(
        "{}: experiment `{}` has no column `{}` (its columns: {})",
        f.text,
        f.experiment,
        f.column,
        numeric.join(", ")
    ))
}

/// The conclusion with its figures written from the tables; `figures` are
/// the figures' (experiment, row), in order.
fn fill_conclusion(pieces: &[Piece], figures: &[(usize, usize)], ran: &[Ran]) -> Result<String, String> {
    let mut out = String::new();
    let mut next = figures.iter();
    for piece in pieces {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Figure(f) => {
                let &(k, row) = next.next().ok_or_else(|| format!("{}: not found", f.text))?;
                out.push_str(&figure_text(f, &ran[k].df, row)?);
            }
        }
    }
    Ok(out)
}

/// A figure's text: a rate as a percentage, a difference in points, a count
/// with its thousands separated; with `ci` its 95% interval, one-sided at
/// 0% and 100% and then rounded away from the value.
fn figure_text(f: &Figure, df: &DataFrame, row: usize) -> Result<String, String> {
    let col = f.column.as_str();
    let diff = col.contains("_diff");
    let rate = !diff && (col.ends_with("_rate") || col.ends_with("_lo") || col.ends_with("_hi"));
    let v = num(df, col, row)?.ok_or_else(|| format!("{}: the table has no value there", f.text))?;
    let (mut lo, mut hi) = match bounds_of(col) {
        Some((l, h)) => (num(df, &l, row)?.unwrap_or(v), num(df, &h, row)?.unwrap_or(v)),
        None if f.interval => return Err(format!("{}: `ci` needs a rate or a difference", f.text)),
        None => (v, v),
    };
    let mut v = v;
    if f.abs && v < 0.0 {
        (v, lo, hi) = (-v, -hi, -lo);
    }
    let integral = !diff && !rate && v.fract() == 0.0 && v.abs() < 1e15;
    let d = f.decimals.unwrap_or(if integral {
        0
    } else if diff || rate {
        1
    } else {
        2
    });
    let one = |x: f64| -> String {
        if rate {
            format!("{}%", fixed(x * 100.0, d))
        } else if diff {
            fixed(x * 100.0, d)
        } else if integral && f.decimals.is_none() {
            if x < 0.0 { format!("-{}", thousands(x.abs() as u64)) } else { thousands(x as u64) }
        } else {
            fixed(x, d)
        }
    };
    let mut text = one(v);
    if f.sign && !text.starts_with('-') && text.chars().any(|c| c.is_ascii_digit() && c != '0') {
        text.insert(0, '+');
    }
    if f.interval {
        // The one bound of a rate at 0% or 100%, rounded away from the rate.
        let scale = 10f64.powi(d as i32) * 100.0;
        if rate && v == 0.0 && lo == 0.0 && hi > 0.0 {
            let _ = write!(text, " [≤ {}]", one((hi * scale).ceil() / scale));
        } else if rate && v == 1.0 && hi == 1.0 && lo < 1.0 {
            let _ = write!(text, " [≥ {}]", one((lo * scale).floor() / scale));
        } else {
            let _ = write!(text, " [{}, {}]", one(lo), one(hi));
        }
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 35: a rate of 0% or 100% has a one-sided interval, and the
    /// Markdown says so instead of printing a lower end of 0.
    #[test]
    fn rates_at_0_and_100_percent_show_one_sided_bounds() {
        let (_, u) = crate::stats::wilson(0, 1000);
        let (l, h) = crate::stats::wilson(400, 1000);
        let df = df!(
            "town_rate" => [0.0, 1.0, 0.4],
            "town_lo" => [0.0, 1.0 - u, l],
            "town_hi" => [u, 1.0, h],
        )
        .unwrap();
        let md = markdown_table(&df);
        assert!(md.contains("| 0.00% [≤ 0.30%] |"), "{md}");
        assert!(md.contains("| 100.00% [≥ 99.70%] |"), "{md}");
        assert!(md.contains(&format!("| 40.00% [{:.2}%, {:.2}%] |", 100.0 * l, 100.0 * h)), "{md}");
    }

    fn figure(column: &str, flags: &str) -> Figure {
        let mut f = Figure { text: format!("{{{column}|{flags}}}"), column: column.into(), ..Figure::default() };
        for flag in flags.split(',').filter(|s| !s.is_empty()) {
            match flag {
                "ci" => f.interval = true,
                "abs" => f.abs = true,
                "+" => f.sign = true,
                d => f.decimals = d.strip_prefix('.').and_then(|d| d.parse().ok()),
            }
        }
        f
    }

    /// Issue 37: a figure of the conclusion is written from the table: a
    /// rate as a percentage, a difference in points, a count with its
    /// thousands, a one-sided interval at 0% rounded away from it.
    #[test]
    fn figures_are_filled_from_the_table() {
        let (_, u) = crate::stats::wilson(0, 2048);
        let df = df!(
            "games" => [38912i64, 2048],
            "town_rate" => [0.464509, 0.0],
            "town_lo" => [0.459558, 0.0],
            "town_hi" => [0.469468, u],
            "town_diff" => [-0.05812, 0.0],
            "town_diff_lo" => [-0.0661, 0.0],
            "town_diff_hi" => [-0.0491, 0.0],
        )
        .unwrap();
        let fill = |c: &str, flags: &str, row: usize| figure_text(&figure(c, flags), &df, row).unwrap();
        assert_eq!(fill("town_rate", "", 0), "46.5%");
        assert_eq!(fill("town_rate", "ci", 0), "46.5% [46.0%, 46.9%]");
        assert_eq!(fill("town_rate", "ci,.2", 1), "0.00% [≤ 0.15%]");
        assert_eq!(fill("town_hi", ".2", 1), "0.15%");
        assert_eq!(fill("town_diff", "", 0), "-5.8");
        assert_eq!(fill("town_diff", "ci,abs", 0), "5.8 [4.9, 6.6]");
        assert_eq!(fill("town_diff", "+", 0), "-5.8");
        assert_eq!(fill("town_diff", "abs,+", 0), "+5.8");
        assert_eq!(fill("town_diff", "+", 1), "0.0");
        assert_eq!(fill("games", "", 0), "38,912");
        let e = figure_text(&figure("games", "ci"), &df, 0).unwrap_err();
        assert!(e.contains("`ci` needs a rate or a difference"), "{e}");
    }

    /// The columns a figure may name are the frame's; a wrong one is refused with the list.
    #[test]
    fn a_figure_of_no_column_is_refused() {
        let df = df!("games" => [1i64], "town_rate" => [0.5], "town_lo" => [0.4], "setup" => ["classic"]).unwrap();
        assert!(check_column(&figure("town_rate", ""), &df).is_ok());
        let e = check_column(&Figure { experiment: "x".into(), ..figure("twon_rate", "") }, &df).unwrap_err();
        assert!(e.contains("experiment `x` has no column `twon_rate` (its columns: games, town_rate)"), "{e}");
    }
}
