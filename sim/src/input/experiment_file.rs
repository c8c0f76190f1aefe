//! Experiment files, the input of `mafia experiment` (and each
//! `[[experiment]]` table of a study): a base setup and a grid of
//! variations ([`crate::grid`]), every point played on the same seeds.
//!
//! ```toml
//! name = "three-nights"          # optional; default: the file stem
//! setup = "classic"              # a preset, or a setup file (relative to this file)
//! agents = "forum"               # optional: the base lineup (`--agents` syntax)
//! seed = 2026                    # optional (default 1; --seed overrides)
//! games = 1000000                # optional: games per point, the most with a precision (--games overrides)
//! precision = 0.005              # optional: stop a point when its 95% intervals are ±this (--precision overrides)
//! skip_invalid = false           # optional: leave out grid points that make no game instead of failing
//!
//! [rules]                        # optional: rule settings of every point (`mafia rules`)
//! tie_break = "random"
//!
//! [grid]                         # the axes; points are every combination, the first axis slowest
//! "rules.no_kill_limit" = ["off", 2, 3, 4]   # rules.KEY: a rule setting
//! "rules.absence" = [0, 0.1, 0.2, 0.3]
//! # players = [7, 8, 9]          # the player count: citizens are added or removed
//! # mafia = [2, 3]               # the mafia camp's size: mafiosi are added or removed
//! # "roles.doctor" = [0, 1]      # roles.ROLE: a role's count
//! # replace = ["none", "commissar"]  # one player of a role becomes a plain player of his camp
//! # agents = ["forum", "classic"]    # a whole lineup
//! # "agents.mafia" = ["forum", "mafia:skip=0.3"]  # agents.KEY: the strategy of a camp, role or seat
//!
//! [reference]                    # optional: each point's paired difference is taken against
//! "rules.no_kill_limit" = "off"  # the point with this value and the other axes equal
//! ```
//!
//! Without `[reference]` the table has no paired differences.
//!
//! A syntax error stops the reading; every other problem is reported at
//! once with its line and column.

use super::diagnostics::{LineIndex, Problems, parse_strict, stem_name};
use super::toml_text::{Val, entries, entry_start, rule_text};
use crate::error::Error;
use crate::grid::Axis;
use crate::stats::check_precision;
use std::path::Path;
use toml::de::{DeTable, DeValue};

/// An experiment file, read and checked for everything but its points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExperimentFile {
    pub name: String,
    /// A preset name or a setup file path (resolved against the file's folder).
    pub setup: String,
    pub agents: Option<String>,
    pub seed: Option<u64>,
    pub games: Option<u64>,
    pub precision: Option<f64>,
    pub skip_invalid: bool,
    pub rules: Vec<(String, String)>,
    pub axes: Vec<Axis>,
    pub reference: Option<(String, String)>,
}

/// The top-level keys of an experiment file (a study's `[[experiment]]`
/// tables take the same keys).
pub const EXPERIMENT_KEYS: [&str; 10] =
    ["name", "setup", "agents", "seed", "games", "precision", "skip_invalid", "rules", "grid", "reference"];

/// A whole number, a string or a float from a TOML value, for messages.
fn kind_name(v: &DeValue<'_>) -> &'static str {
    v.type_str()
}

/// Reads an experiment from a table (a file's top level, or a study's
/// `[[experiment]]`); `dir` resolves a setup file's path.
pub(crate) fn read_experiment(
    t: &DeTable<'_>,
    dir: &Path,
    default_name: &str,
    fp: &mut Problems<'_>,
) -> ExperimentFile {
    let mut x = ExperimentFile { name: default_name.to_string(), ..ExperimentFile::default() };
    let mut setup_at = None;
    let mut grid_at = None;
    for (k, v) in entries(t) {
        let at = entry_start(k, v);
        let key: &str = k.get_ref();
        if key == "grid" {
            grid_at = Some(at);
        }
        let str_of = |fp: &mut Problems<'_>, v: &Val<'_>| -> Option<String> {
            match v.get_ref() {
                DeValue::String(s) => Some(s.to_string()),
                other => {
                    fp.at(v.span().start, format!("`{key}` takes a string, not {}", kind_name(other)));
                    None
                }
            }
        };
        let int_of = |fp: &mut Problems<'_>, v: &Val<'_>| -> Option<u64> {
            match rule_text(v.get_ref()).and_then(|s| s.parse::<u64>().ok()) {
                Some(n) if matches!(v.get_ref(), DeValue::Integer(_)) => Some(n),
                _ => {
                    fp.at(v.span().start, format!("`{key}` takes a whole number"));
                    None
                }
            }
        };
        match key {
            "name" => x.name = str_of(fp, v).unwrap_or_default(),
            "setup" => {
                setup_at = Some(at);
                if let Some(s) = str_of(fp, v) {
                    x.setup = if mafia_engine::Preset::find(&s).is_some() {
                        s
                    } else {
                        let p = dir.join(&s);
                        if !p.exists() {
                            fp.at(
                                v.span().start,
                                format!("setup `{s}`: no such preset and no such file ({})", p.display()),
                            );
                        }
                        p.display().to_string()
                    };
                }
            }
            "agents" => x.agents = str_of(fp, v),
            "seed" => x.seed = int_of(fp, v),
            "games" => match int_of(fp, v) {
                Some(0) => fp.at(v.span().start, "`games` must be at least 1".into()),
                g => x.games = g,
            },
            "precision" => {
                let h = rule_text(v.get_ref()).and_then(|s| s.parse::<f64>().ok());
                match h.map(check_precision) {
                    Some(Ok(h)) => x.precision = Some(h),
                    Some(Err(e)) => fp.at(v.span().start, e.replace("--precision", "precision")),
                    None => fp.at(v.span().start, "`precision` takes a number such as 0.005".into()),
                }
            }
            "skip_invalid" => match v.get_ref() {
                DeValue::Boolean(b) => x.skip_invalid = *b,
                _ => fp.at(v.span().start, "`skip_invalid` takes true or false".into()),
            },
            "rules" | "grid" | "reference" => {
                let DeValue::Table(table) = v.get_ref() else {
                    fp.at(at, format!("`{key}` must be a table"));
                    continue;
                };
                for (rk, rv) in entries(table) {
                    let name: &str = rk.get_ref();
                    let rat = entry_start(rk, rv);
                    match key {
                        "rules" => match rule_text(rv.get_ref()) {
                            Some(val) => match mafia_engine::Rules::default().set(name, &val) {
                                Ok(()) => x.rules.push((name.to_string(), val)),
                                Err(e) => fp.at(rat, format!("rules.{name}: {e}")),
                            },
                            None => fp.at(rat, format!("rules.{name}: give one value")),
                        },
                        "reference" => match rule_text(rv.get_ref()) {
                            Some(val) if x.reference.is_none() => x.reference = Some((name.to_string(), val)),
                            Some(_) => fp.at(rat, "[reference] names one axis".into()),
                            None => fp.at(rat, format!("reference.{name}: give one value")),
                        },
                        _ => {
                            let values: Option<Vec<String>> = match rv.get_ref() {
                                DeValue::Array(items) => items.iter().map(|i| rule_text(i.get_ref())).collect(),
                                other => rule_text(other).map(|s| vec![s]),
                            };
                            match values
                                .ok_or_else(|| format!("grid.{name}: give a list of values"))
                                .and_then(|vs| Axis::new(name, vs).map_err(|e| format!("grid.{e}")))
                            {
                                Ok(axis) => match x.axes.iter().find(|a| a.kind == axis.kind) {
                                    Some(b) => fp.at(
                                        rat,
                                        format!(
                                            "grid.{name}: `{}` and `{name}` vary the same setting: give it one axis",
                                            b.name
                                        ),
                                    ),
                                    None => x.axes.push(axis),
                                },
                                Err(e) => fp.at(rat, e),
                            }
                        }
                    }
                }
            }
            _ => fp.at(k.span().start, format!("unknown key `{key}` (known: {})", EXPERIMENT_KEYS.join(", "))),
        }
    }
    if setup_at.is_none() {
        // The default setup, as for `mafia run`.
        x.setup = "classic".into();
    }
    if let Some((axis, _)) = &x.reference
        && !x.axes.iter().any(|a| &a.name == axis)
    {
        fp.at(0, format!("[reference] {axis}: not an axis of [grid]"));
    }
    if let Err(e) = crate::grid::check_grid(&x.axes) {
        fp.at(grid_at.unwrap_or(0), format!("[grid]: {e}"));
    }
    x
}

/// Reads an experiment file.
pub fn load_experiment(path: &Path) -> Result<ExperimentFile, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    let label = path.display().to_string();
    let lines = LineIndex::new(&text);
    let doc = parse_strict(&label, &text, &lines)?;
    let mut fp = Problems::new(&lines);
    let stem = stem_name(path).unwrap_or_else(|| "experiment".into());
    let dir = path.parent().unwrap_or(Path::new("."));
    let x = read_experiment(&doc, dir, &stem, &mut fp);
    Ok(fp.result(&label, x)?)
}
