//! Study files, the input of `mafia report`: a title, the conclusion,
//! experiments (each the keys of an experiment file) and plots of their
//! tables.
//!
//! The conclusion's figures come from the data, so that they cannot go
//! stale: `{town_diff@rules.no_kill_limit=3,rules.absence=0.1}` is filled
//! from the experiment's table when the report is written ([`Figure`]). A
//! number typed in the conclusion is refused, naming it, unless it is a
//! value of an axis (the question's own parameters: "at 10% absence"), part
//! of a name (`C8`, `forum-16`, in a code span), a date, the intervals'
//! level (95%), or marked `{cited:…}` as quoted from elsewhere.
//!
//! ```toml
//! title = "Do three nights without a kill favour the town?"
//! conclusion = """Plain words, written after reading the results: the rule gives
//! the town {town_diff@rules.no_kill_limit=3,rules.absence=0.1|ci} points at 10% absence."""
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
//! x_label = "Absence (%)"         # optional: the axes' words (default: from the column and axis names)
//! y_label = "Town win rate (%)"
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
    /// The x axis's words, if the study gives them.
    pub x_label: Option<String>,
    /// The value axis's words, if the study gives them.
    pub y_label: Option<String>,
}

/// A figure of the conclusion, `{[EXPERIMENT:]COLUMN@AXIS=VALUE,…[|FLAGS]}`:
/// one cell of an experiment's table (the point with these axis values;
/// every axis with more than one value named), written when the report is.
/// Rates (`*_rate`, their `*_lo`/`*_hi`) read as percentages, differences
/// (`*_diff…`) as percentage points, counts with thousands separated.
/// Flags, comma-separated: `ci` adds the 95% interval (`46.5% [46.0%,
/// 47.0%]`; one-sided at 0% and 100%: `0.0% [≤ 0.2%]`), `.N` N decimals
/// (default 1), `abs` the size of a difference without its sign, `+` a sign
/// on positive numbers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figure {
    /// As written, braces included, for messages.
    pub text: String,
    pub experiment: String,
    pub column: String,
    pub at: Vec<(String, String)>,
    pub interval: bool,
    pub decimals: Option<usize>,
    pub abs: bool,
    pub sign: bool,
}

/// A piece of the conclusion: words as written, or a figure to fill.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Text(String),
    Figure(Figure),
}

/// A study file, read and checked.
#[derive(Clone, Debug, Default)]
pub struct Study {
    pub title: String,
    pub conclusion: String,
    /// The conclusion, its figures parsed and checked against the experiments' axes.
    pub conclusion_pieces: Vec<Piece>,
    pub about: String,
    pub experiments: Vec<ExperimentFile>,
    pub plots: Vec<PlotSpec>,
}

const STUDY_KEYS: [&str; 8] = ["title", "conclusion", "about", "seed", "precision", "games", "experiment", "plot"];

const PLOT_KEYS: [&str; 13] = [
    "experiment",
    "kind",
    "x",
    "y",
    "series",
    "value",
    "label",
    "where",
    "title",
    "file",
    "name",
    "x_label",
    "y_label",
];

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
    // Where the conclusion's text begins in the file, for its problems' positions.
    let mut conclusion_at = 0;
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
            "conclusion" => {
                st.conclusion = text_of(&mut fp);
                let span = v.span();
                conclusion_at = text
                    .get(span.clone())
                    .and_then(|src| src.find(st.conclusion.as_str()))
                    .map_or(span.start, |i| span.start + i);
            }
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
                "x_label" => p.x_label = Some(s),
                "y_label" => p.y_label = Some(s),
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
    let (pieces, problems) = parse_conclusion(&st.conclusion, &st.experiments);
    for (at, m) in problems {
        fp.at(conclusion_at + at, m);
    }
    st.conclusion_pieces = pieces;
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

/// The conclusion's pieces and its problems (byte offset in `text`,
/// message): figures checked against the experiments' axes, and every
/// number typed in the words refused unless it is an axis value, part of a
/// name or a date, in a code span, or `{cited:…}`. `{{` and `}}` are braces.
pub fn parse_conclusion(text: &str, experiments: &[ExperimentFile]) -> (Vec<Piece>, Vec<(usize, String)>) {
    let mut pieces = Vec::new();
    let mut problems = Vec::new();
    let mut words = String::new();
    // Numbers the words may use: those written in the axes' values.
    let allowed: Vec<f64> =
        experiments.iter().flat_map(|x| &x.axes).flat_map(|a| &a.values).flat_map(|v| numbers_in(v)).collect();
    let check = |seg: &str, at: usize, problems: &mut Vec<(usize, String)>| {
        for (i, tok) in typed_numbers(seg) {
            let (num, pct) = match tok.strip_suffix('%') {
                Some(t) => (t, true),
                None => (tok.as_str(), false),
            };
            let Ok(v) = num.replace(',', "").parse::<f64>() else { continue };
            // "95%" is the level of every interval, not a result.
            if tok == "95%" {
                continue;
            }
            let v = if pct { v / 100.0 } else { v };
            if !allowed.iter().any(|a| (a - v).abs() < 1e-9) {
                problems.push((
                    at + i,
                    format!(
                        "the conclusion's number {tok} is typed and can go stale: fill it from the data with a \
                         figure, {{COLUMN@AXIS=VALUE,…}}, or mark a number from elsewhere {{cited:{tok}}}"
                    ),
                ));
            }
        }
    };
    let mut i = 0;
    let b = text.as_bytes();
    let mut seg_start = 0;
    while i < b.len() {
        match b[i] {
            b'{' if b.get(i + 1) == Some(&b'{') => {
                check(&text[seg_start..i], seg_start, &mut problems);
                words.push_str(&text[seg_start..i]);
                words.push('{');
                i += 2;
                seg_start = i;
            }
            b'}' if b.get(i + 1) == Some(&b'}') => {
                check(&text[seg_start..i], seg_start, &mut problems);
                words.push_str(&text[seg_start..i]);
                words.push('}');
                i += 2;
                seg_start = i;
            }
            b'`' => {
                // A code span is a name, as written.
                check(&text[seg_start..i], seg_start, &mut problems);
                let end = text[i + 1..].find('`').map_or(text.len(), |e| i + 1 + e + 1);
                words.push_str(&text[seg_start..end]);
                i = end;
                seg_start = i;
            }
            b'{' => {
                check(&text[seg_start..i], seg_start, &mut problems);
                words.push_str(&text[seg_start..i]);
                let Some(len) = text[i..].find('}') else {
                    problems.push((i, "a `{` without its `}` (write `{{` for a brace)".into()));
                    seg_start = text.len();
                    break;
                };
                let inner = &text[i + 1..i + len];
                let whole = &text[i..=i + len];
                if let Some(cited) = inner.strip_prefix("cited:") {
                    words.push_str(cited.trim());
                } else {
                    match parse_figure(whole, inner, experiments) {
                        Ok(f) => {
                            if !words.is_empty() {
                                pieces.push(Piece::Text(std::mem::take(&mut words)));
                            }
                            pieces.push(Piece::Figure(f));
                        }
                        Err(m) => problems.push((i, m)),
                    }
                }
                i += len + 1;
                seg_start = i;
            }
            b'}' => {
                problems.push((i, "a `}` without its `{` (write `}}` for a brace)".into()));
                i += 1;
            }
            _ => i += 1,
        }
    }
    if seg_start < text.len() {
        check(&text[seg_start..], seg_start, &mut problems);
        words.push_str(&text[seg_start..]);
    }
    if !words.is_empty() {
        pieces.push(Piece::Text(words));
    }
    (pieces, problems)
}

/// `{[EXPERIMENT:]COLUMN@AXIS=VALUE,…[|FLAGS]}` read and checked against the experiment's axes.
fn parse_figure(whole: &str, inner: &str, experiments: &[ExperimentFile]) -> Result<Figure, String> {
    let mut f = Figure { text: whole.to_string(), ..Figure::default() };
    let (body, flags) = inner.split_once('|').unwrap_or((inner, ""));
    for flag in flags.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match flag {
            "ci" => f.interval = true,
            "abs" => f.abs = true,
            "+" => f.sign = true,
            _ => match flag.strip_prefix('.').and_then(|d| d.parse::<usize>().ok()).filter(|&d| d <= 4) {
                Some(d) => f.decimals = Some(d),
                None => return Err(format!("{whole}: unknown flag `{flag}` (ci, .N for N decimals, abs, +)")),
            },
        }
    }
    let (head, at) = body.split_once('@').unwrap_or((body, ""));
    let (exp, column) = match head.split_once(':') {
        Some((e, c)) => (Some(e.trim()), c.trim()),
        None => (None, head.trim()),
    };
    let names = || experiments.iter().map(|x| x.name.as_str()).collect::<Vec<_>>().join(", ");
    let x = match exp {
        Some(e) => experiments
            .iter()
            .find(|x| x.name == e)
            .ok_or_else(|| format!("{whole}: no experiment named `{e}` (experiments: {})", names()))?,
        None if experiments.len() == 1 => &experiments[0],
        None => return Err(format!("{whole}: name the experiment, {{NAME:{column}@…}} (experiments: {})", names())),
    };
    f.experiment = x.name.clone();
    if column.is_empty() || !column.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("{whole}: `{column}` is not a column name (town_rate, town_diff, games, …)"));
    }
    f.column = column.to_string();
    for pair in at.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(format!("{whole}: `{pair}` is not AXIS=VALUE"));
        };
        let (k, v) = (k.trim(), v.trim());
        let Some(axis) = x.axes.iter().find(|a| a.name == k) else {
            let axes = x.axes.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ");
            return Err(format!("{whole}: `{k}` is not an axis of experiment `{}` (its axes: {axes})", x.name));
        };
        if !axis.values.iter().any(|a| a == v) {
            return Err(format!("{whole}: {k} = {v} is not a value of the axis ({})", axis.values.join(", ")));
        }
        if f.at.iter().any(|(a, _)| a == k) {
            return Err(format!("{whole}: `{k}` is named twice"));
        }
        f.at.push((k.to_string(), v.to_string()));
    }
    if let Some(a) = x.axes.iter().find(|a| a.values.len() > 1 && !f.at.iter().any(|(k, _)| *k == a.name)) {
        return Err(format!(
            "{whole}: give `{}` a value ({}): a figure is one point of experiment `{}`",
            a.name,
            a.values.join(", "),
            x.name
        ));
    }
    Ok(f)
}

/// The numbers written in an axis value (`mafia:skip=0.2` → 0.2; `3` → 3).
fn numbers_in(s: &str) -> Vec<f64> {
    s.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter_map(|t| t.parse::<f64>().ok()).collect()
}

/// The numbers typed in words, with their byte offsets: digits with
/// thousands separated by commas, decimals and a `%`. Left out: the digits
/// of a name (after a letter, `_`, or a letter and a hyphen: `C8`,
/// `forum-16`) and dates (`2026-12-04`).
fn typed_numbers(s: &str) -> Vec<(usize, String)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    while i < b.len() {
        if !digit(i) {
            i += 1;
            continue;
        }
        let name_char = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let prev = i.checked_sub(1).map(|p| b[p]);
        let in_name = prev.is_some_and(|c| name_char(c) || c == b'.')
            || (prev == Some(b'-') && i >= 2 && b[i - 2].is_ascii_alphabetic());
        let start = i;
        while digit(i) {
            i += 1;
        }
        if in_name {
            while i < b.len() && name_char(b[i]) {
                i += 1;
            }
            continue;
        }
        // A date, YYYY-MM-DD.
        if i - start == 4 && b.get(i) == Some(&b'-') && digit(i + 1) && digit(i + 2) && b.get(i + 3) == Some(&b'-') {
            i += 6;
            continue;
        }
        while b.get(i) == Some(&b',') && digit(i + 1) && digit(i + 2) && digit(i + 3) && !digit(i + 4) {
            i += 4;
        }
        if b.get(i) == Some(&b'.') && digit(i + 1) {
            i += 1;
            while digit(i) {
                i += 1;
            }
        }
        if b.get(i) == Some(&b'%') {
            i += 1;
        }
        out.push((start, s[start..i].to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Axis, AxisKind};

    fn experiment(name: &str) -> ExperimentFile {
        ExperimentFile {
            name: name.into(),
            setup: "classic".into(),
            axes: vec![
                Axis {
                    name: "rules.no_kill_limit".into(),
                    kind: AxisKind::Rule("no_kill_limit".into()),
                    values: vec!["off".into(), "3".into()],
                },
                Axis {
                    name: "rules.absence".into(),
                    kind: AxisKind::Rule("absence".into()),
                    values: vec!["0".into(), "0.1".into()],
                },
                Axis {
                    name: "agents.mafia".into(),
                    kind: AxisKind::AgentsKey("mafia".into()),
                    values: vec!["forum".into()],
                },
            ],
            ..ExperimentFile::default()
        }
    }

    fn problems(text: &str) -> Vec<String> {
        parse_conclusion(text, &[experiment("x")]).1.into_iter().map(|(_, m)| m).collect()
    }

    /// Issue 37: a number typed in the conclusion is refused, named, with
    /// where it is; the question's own parameters, names and dates are not numbers of the data.
    #[test]
    fn a_typed_number_is_refused_by_name() {
        let text = "The town gains 1.5 points at 10% absence with 3 nights (C8, `forum-16`, 2026-12-04).";
        let (_, p) = parse_conclusion(text, &[experiment("x")]);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].0, text.find("1.5").unwrap());
        assert!(p[0].1.contains("number 1.5 is typed") && p[0].1.contains("{cited:1.5}"), "{}", p[0].1);
        for stale in ["46.5%", "2,048", "7"] {
            let p = problems(&format!("the town wins {stale} of its games"));
            assert!(p.len() == 1 && p[0].contains(&format!("number {stale} is typed")), "{stale}: {p:?}");
        }
        // Quoted from elsewhere, and the intervals' level, pass as written.
        let (pieces, p) = parse_conclusion("earlier {cited:37.8%}, 95% intervals", &[experiment("x")]);
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(pieces, vec![Piece::Text("earlier 37.8%, 95% intervals".into())]);
    }

    /// Issue 37: a figure names a column and one point; it is checked
    /// against the axes before any game, and its flags are read.
    #[test]
    fn figures_are_read_and_checked() {
        let (pieces, p) = parse_conclusion(
            "gains {town_diff@rules.no_kill_limit=3, rules.absence=0.1|ci,.2,+} points",
            &[experiment("x")],
        );
        assert!(p.is_empty(), "{p:?}");
        let Piece::Figure(f) = &pieces[1] else { panic!("{pieces:?}") };
        assert_eq!((f.experiment.as_str(), f.column.as_str()), ("x", "town_diff"));
        assert_eq!(f.at, vec![("rules.no_kill_limit".into(), "3".into()), ("rules.absence".into(), "0.1".into())]);
        assert!(f.interval && f.sign && !f.abs && f.decimals == Some(2));
        assert_eq!(pieces[0], Piece::Text("gains ".into()));
        assert_eq!(pieces[2], Piece::Text(" points".into()));
        for (bad, says) in [
            ("{town_diff@rules.absence=0.1}", "give `rules.no_kill_limit` a value (off, 3)"),
            (
                "{town_diff@rules.no_kill_limit=5,rules.absence=0}",
                "rules.no_kill_limit = 5 is not a value of the axis (off, 3)",
            ),
            ("{town_diff@players=9}", "`players` is not an axis of experiment `x`"),
            ("{y:town_rate@rules.no_kill_limit=3,rules.absence=0}", "no experiment named `y`"),
            ("{town_rate@rules.no_kill_limit=3,rules.absence=0|pct}", "unknown flag `pct`"),
            ("{town rate}", "not a column name"),
            ("a { brace", "without its `}`"),
        ] {
            let p = problems(bad);
            assert!(p.len() == 1 && p[0].contains(says), "{bad}: {p:?}");
        }
        // Two experiments: the figure names its own.
        let two = [experiment("a"), experiment("b")];
        let (_, p) = parse_conclusion("{town_rate@rules.no_kill_limit=3,rules.absence=0}", &two);
        assert!(p[0].1.contains("name the experiment"), "{p:?}");
        let (pieces, p) = parse_conclusion("{b:town_rate@rules.no_kill_limit=3,rules.absence=0} {{x}}", &two);
        assert!(p.is_empty(), "{p:?}");
        assert!(matches!(&pieces[0], Piece::Figure(f) if f.experiment == "b"));
        assert_eq!(pieces[1], Piece::Text(" {x}".into()));
    }
}
