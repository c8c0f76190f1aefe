//! `mafia report STUDY.toml`: runs a study's experiments and writes a report
//! a person reads — Markdown with the conclusion at the top, every figure
//! with its 95% interval, SVG plots ([`crate::output::plot`], drawn with
//! `plotters`) and each experiment's full table as CSV — into the study
//! file's folder. Nothing in the output depends on the time, the machine or
//! the thread count, so the same file and seed regenerate it byte for byte.
//! The study file's format is `input/study_file.rs`'s.

use crate::args::{GameArgs, make_points};
use crate::commands::experiment::{compact, experiment_frame, play_points, reference_pairs};
use crate::error::Error;
use crate::exec::Finish;
use crate::exec::{Budget, Points};
use crate::input::ExperimentFile;
use crate::input::{PlotSpec, load_study};
use crate::output::plot;
use crate::shard::Layout;
use clap::Args;
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
        let _ = writeln!(md, "**Conclusion.** {}\n", study.conclusion);
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
    match p.kind.as_str() {
        "line" => {
            let (x, y) = (p.x.as_deref().unwrap_or(""), p.y.as_deref().unwrap_or(""));
            let xa = axis_of(x)?;
            let sa = p.series.as_deref().map(axis_of).transpose()?;
            let mut series: Vec<plot::Series> = Vec::new();
            for &i in &idx {
                let pt = &r.points.points[i];
                let label = sa.map_or(y.to_string(), |s| format!("{} = {}", r.points.axes[s].name, pt.values[s]));
                let xv: f64 = pt.values[xa].parse().map_err(|_| format!("{x} = {}: not a number", pt.values[xa]))?;
                let Some((v, lo, hi)) = value_at(&r.df, y, i)? else { continue };
                match series.iter_mut().find(|s| s.label == label) {
                    Some(s) => s.points.push(plot::Point { x: xv, y: v, lo, hi }),
                    None => series.push(plot::Series { label, points: vec![plot::Point { x: xv, y: v, lo, hi }] }),
                }
            }
            let reference = if y.ends_with("_diff") {
                Some((0.0, "no difference".to_string()))
            } else if y.ends_with("_rate") {
                Some((0.5, "50%".to_string()))
            } else {
                None
            };
            plot::line_chart(&plot::LineChart {
                title: p.title.clone(),
                x_label: x.to_string(),
                y_label: format!("{y} (95% interval)"),
                series,
                y_range: None,
                reference,
                percent: pct(y),
            })
        }
        "bars" => {
            let y = p.y.as_deref().or(p.value.as_deref()).unwrap_or("");
            let la = axis_of(p.label.as_deref().unwrap_or(""))?;
            let mut bars = Vec::new();
            for &i in &idx {
                let Some((v, lo, hi)) = value_at(&r.df, y, i)? else { continue };
                bars.push(plot::Bar { label: r.points.points[i].values[la].clone(), value: v, lo, hi });
            }
            plot::bar_chart(&plot::BarChart {
                title: p.title.clone(),
                y_label: format!("{y} (95% interval)"),
                bars,
                reference: y.ends_with("_diff").then(|| (0.0, "no difference".to_string())),
                percent: pct(y),
            })
        }
        _ => {
            let (x, y, value) =
                (p.x.as_deref().unwrap_or(""), p.y.as_deref().unwrap_or(""), p.value.as_deref().unwrap_or(""));
            let (xa, ya) = (axis_of(x)?, axis_of(y)?);
            let xs = r.points.axes[xa].values.clone();
            let ys = r.points.axes[ya].values.clone();
            let mut cells = vec![vec![None; xs.len()]; ys.len()];
            let mut half = vec![vec![None; xs.len()]; ys.len()];
            for &i in &idx {
                let pt = &r.points.points[i];
                let (cx, cy) =
                    (xs.iter().position(|v| *v == pt.values[xa]), ys.iter().position(|v| *v == pt.values[ya]));
                if let (Some(cx), Some(cy), Some((v, lo, hi))) = (cx, cy, value_at(&r.df, value, i)?) {
                    cells[cy][cx] = Some(v);
                    half[cy][cx] = Some((hi - lo) / 2.0);
                }
            }
            plot::heatmap(&plot::Heatmap {
                title: p.title.clone(),
                x_label: x.to_string(),
                y_label: y.to_string(),
                xs,
                ys,
                cells,
                centre: 0.5,
                annotate: true,
                half,
            })
        }
    }
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
}
