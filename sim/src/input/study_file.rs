//! Study files, the input of `mafia report`: a title, the conclusion,
//! experiments (each the keys of an experiment file) and plots of their
//! tables.
//!
//! ```toml
//! title = "Do three nights without a kill favour the town?"
//! conclusion = """Plain words, written after reading the results."""
//! about = """Optional: the question and the method."""
//! seed = 2026                    # every experiment's seed unless it sets its own
//! precision = 0.005              # likewise (± on every interval)
//! games = 2000000                # likewise: the most games per point
//!
//! [[experiment]]                 # the keys of an experiment file
//! name = "forum"
//! setup = "classic"
//! agents = "forum"
//! grid = { "rules.no_kill_limit" = ["off", 2, 3, 4], "rules.absence" = [0, 0.1, 0.2, 0.3] }
//! reference = { "rules.no_kill_limit" = "off" }
//!
//! [[plot]]
//! experiment = "forum"           # which experiment's table
//! kind = "line"                  # line | bars | heatmap
//! x = "rules.absence"            # line: a numeric axis; heatmap: the columns
//! series = "rules.no_kill_limit" # line: one line per value (optional)
//! y = "town_rate"                # line/bars: CAMP_rate or CAMP_diff; heatmap: the rows' axis
//! value = "town_rate"            # heatmap: the cell value; bars: as y
//! label = "replace"              # bars: the axis naming each bar
//! where = { "agents.mafia" = "forum" }  # optional: only the points with these values
//! title = "Town win rate"
//! file = "town-rate.svg"         # optional; default: plot-N.svg
//! ```

use super::diagnostics::{LineIndex, Problems, parse_strict};
use super::experiment_file::{ExperimentFile, read_experiment};
use super::toml_text::{entries, entry_start, rule_text};
use crate::error::Error;
use crate::stats::check_precision;
use std::path::Path;
use toml::de::DeValue;

/// One plot of a study.
#[derive(Clone, Debug, Default)]
pub struct PlotSpec {
    pub experiment: String,
    pub kind: String,
    pub x: Option<String>,
    pub y: Option<String>,
    pub series: Option<String>,
    pub value: Option<String>,
    pub label: Option<String>,
    pub filter: Vec<(String, String)>,
    pub title: String,
    pub file: String,
}

/// A study file, read and checked.
#[derive(Clone, Debug, Default)]
pub struct Study {
    pub title: String,
    pub conclusion: String,
    pub about: String,
    pub experiments: Vec<ExperimentFile>,
    pub plots: Vec<PlotSpec>,
}

const STUDY_KEYS: [&str; 8] = ["title", "conclusion", "about", "seed", "precision", "games", "experiment", "plot"];

const PLOT_KEYS: [&str; 11] =
    ["experiment", "kind", "x", "y", "series", "value", "label", "where", "title", "file", "name"];

/// Reads a study file.
pub fn load_study(path: &Path) -> Result<Study, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    let label = path.display().to_string();
    let lines = LineIndex::new(&text);
    let doc = parse_strict(&label, &text, &lines)?;
    let mut fp = Problems::new(&lines);
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut st = Study::default();
    let (mut seed, mut precision, mut games) = (None, None, None);
    let mut tables = Vec::new();
    let mut plots = Vec::new();
    for (k, v) in entries(&doc) {
        let key: &str = k.get_ref();
        let text_of = |fp: &mut Problems<'_>| match v.get_ref() {
            DeValue::String(s) => s.trim().to_string(),
            _ => {
                fp.at(v.span().start, format!("`{key}` takes a string"));
                String::new()
            }
        };
        match key {
            "title" => st.title = text_of(&mut fp),
            "conclusion" => st.conclusion = text_of(&mut fp),
            "about" => st.about = text_of(&mut fp),
            "seed" | "precision" | "games" => {
                let t = rule_text(v.get_ref()).unwrap_or_default();
                match key {
                    "seed" => seed = t.parse::<u64>().ok().or_else(|| fp_none(&mut fp, v.span().start, "seed")),
                    "games" => {
                        games = t
                            .parse::<u64>()
                            .ok()
                            .filter(|&g| g > 0)
                            .or_else(|| fp_none(&mut fp, v.span().start, "games"))
                    }
                    _ => {
                        precision = t
                            .parse::<f64>()
                            .ok()
                            .and_then(|h| check_precision(h).ok())
                            .or_else(|| fp_none(&mut fp, v.span().start, "precision"))
                    }
                }
            }
            "experiment" | "plot" => match v.get_ref() {
                DeValue::Array(items) => {
                    for it in items.iter() {
                        match it.get_ref() {
                            DeValue::Table(t) if key == "experiment" => tables.push((it.span().start, t)),
                            DeValue::Table(t) => plots.push((it.span().start, t)),
                            _ => fp.at(it.span().start, format!("`{key}` entries are tables ([[{key}]])")),
                        }
                    }
                }
                _ => fp.at(entry_start(k, v), format!("write `{key}` as [[{key}]] tables")),
            },
            _ => fp.at(k.span().start, format!("unknown key `{key}` (known: {})", STUDY_KEYS.join(", "))),
        }
    }
    for (i, (at, t)) in tables.iter().enumerate() {
        let mut x = read_experiment(t, dir, &format!("experiment-{}", i + 1), &mut fp);
        x.seed = x.seed.or(seed);
        x.precision = x.precision.or(precision);
        x.games = x.games.or(games);
        if st.experiments.iter().any(|e: &ExperimentFile| e.name == x.name) {
            fp.at(*at, format!("two experiments are named `{}`", x.name));
        }
        st.experiments.push(x);
    }
    for (i, (at, t)) in plots.iter().enumerate() {
        let mut p = PlotSpec { file: format!("plot-{}.svg", i + 1), ..PlotSpec::default() };
        // Where each axis the plot names was written, to check it against
        // its experiment once the plot is read: (position, key, axis name,
        // the value a `where` filter asks of it).
        let mut names: Vec<(usize, String, String, Option<String>)> = Vec::new();
        for (k, v) in entries(t) {
            let key: &str = k.get_ref();
            if key == "where" {
                match v.get_ref() {
                    DeValue::Table(w) => {
                        for (wk, wv) in entries(w) {
                            let name: &str = wk.get_ref();
                            let value = rule_text(wv.get_ref()).unwrap_or_default();
                            names.push((wk.span().start, "where".into(), name.to_string(), Some(value.clone())));
                            p.filter.push((name.to_string(), value));
                        }
                    }
                    _ => fp.at(v.span().start, "`where` takes a table of axis = value".into()),
                }
                continue;
            }
            let Some(s) = rule_text(v.get_ref()) else {
                fp.at(v.span().start, format!("plot.{key} takes a string"));
                continue;
            };
            if matches!(key, "x" | "y" | "series" | "label") {
                names.push((v.span().start, key.to_string(), s.clone(), None));
            }
            match key {
                "experiment" => p.experiment = s,
                "kind" => p.kind = s,
                "x" => p.x = Some(s),
                "y" => p.y = Some(s),
                "series" => p.series = Some(s),
                "value" => p.value = Some(s),
                "label" => p.label = Some(s),
                "title" | "name" => p.title = s,
                "file" if s.ends_with(".svg") && !s.contains('/') => p.file = s,
                "file" => fp.at(v.span().start, "plot.file: a file name ending in .svg, no folder".into()),
                _ => fp.at(k.span().start, format!("unknown plot key `{key}` (known: {})", PLOT_KEYS.join(", "))),
            }
        }
        if p.experiment.is_empty() && st.experiments.len() == 1 {
            p.experiment = st.experiments[0].name.clone();
        }
        match st.experiments.iter().find(|e| e.name == p.experiment) {
            None => fp.at(*at, format!("plot {}: no experiment named `{}`", i + 1, p.experiment)),
            Some(x) => check_plot_axes(&mut fp, i, &p.kind, x, &names),
        }
        let need = |fp: &mut Problems<'_>, what: &str, v: &Option<String>| {
            if v.is_none() {
                fp.at(*at, format!("plot {} ({}): give `{what}`", i + 1, p.kind));
            }
        };
        match p.kind.as_str() {
            "line" => {
                need(&mut fp, "x", &p.x);
                need(&mut fp, "y", &p.y);
            }
            "bars" => {
                need(&mut fp, "label", &p.label);
                if p.y.is_none() && p.value.is_none() {
                    need(&mut fp, "y", &p.y);
                }
            }
            "heatmap" => {
                need(&mut fp, "x", &p.x);
                need(&mut fp, "y", &p.y);
                need(&mut fp, "value", &p.value);
            }
            other => fp.at(*at, format!("plot {}: kind `{other}` (line, bars or heatmap)", i + 1)),
        }
        if st.plots.iter().any(|q: &PlotSpec| q.file == p.file) {
            fp.at(*at, format!("two plots write {}", p.file));
        }
        st.plots.push(p);
    }
    if st.title.is_empty() {
        fp.at(0, "give the study a `title`".into());
    }
    if st.experiments.is_empty() {
        fp.at(0, "a study needs at least one [[experiment]]".into());
    }
    Ok(fp.result(&label, st)?)
}

fn fp_none<T>(fp: &mut Problems<'_>, at: usize, key: &str) -> Option<T> {
    fp.at(at, format!("`{key}`: give a positive number"));
    None
}

/// Checks the axes a plot names against its experiment's grid, every one
/// (so one bad field does not hide the next), before any game is played:
/// the axes a kind reads (`x`, and `series` of a line; `label` of bars;
/// `x` and `y` of a heatmap), every `where` axis and its value, and that a
/// line's `x` axis has numbers.
fn check_plot_axes(
    fp: &mut Problems<'_>,
    i: usize,
    kind: &str,
    x: &ExperimentFile,
    names: &[(usize, String, String, Option<String>)],
) {
    let axis_names = || x.axes.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ");
    for (at, key, name, value) in names {
        let reads_axis = match key.as_str() {
            "x" => matches!(kind, "line" | "heatmap"),
            "series" => kind == "line",
            "label" => kind == "bars",
            "y" => kind == "heatmap",
            _ => true,
        };
        if !reads_axis {
            continue;
        }
        let Some(axis) = x.axes.iter().find(|a| &a.name == name) else {
            fp.at(
                *at,
                format!(
                    "plot {} {key}: `{name}` is not an axis of experiment `{}` (its axes: {})",
                    i + 1,
                    x.name,
                    axis_names()
                ),
            );
            continue;
        };
        if let Some(v) = value
            && !axis.values.contains(v)
        {
            fp.at(
                *at,
                format!("plot {} where: {name} = {v} is not a value of the axis ({})", i + 1, axis.values.join(", ")),
            );
        }
        if key == "x" && kind == "line" && axis.values.iter().any(|v| v.parse::<f64>().is_err()) {
            fp.at(*at, format!("plot {} x: `{name}` has values that are not numbers; a line needs numbers", i + 1));
        }
    }
}
