//! `mafia odds STATE.toml`: win odds per camp from a mid-game state, by
//! Monte Carlo. The file describes a position ([`mafia_engine::Position`]);
//! every game plays on from it with the chosen agents ([`Worker::play_from`]),
//! the roles it leaves unknown dealt anew per game from the game's deal
//! stream, uniformly among the deals that fit what is known. Games run in
//! fixed chunks on a rayon pool and merge by addition ([`play_range`]), so
//! the result is the same on any thread count. With nothing known at day 1
//! every game is exactly the game `mafia run` plays with the same seed.
//!
//! The format reuses the night calculator's (`scenario_file.rs`): `seats`,
//! `[rules]` and `[carry]` read the same way, seats are numbers from 1 or a
//! role one seat holds, and every problem is reported at once with its
//! line and column (exit code 2).
//!
//! ```toml
//! name = "day-3"                 # optional; default: the file stem
//! setup = "classic"              # a preset (public role counts); or a [roles] table;
//!                                # or neither when `seats` names every role
//! day = 3                        # the phase: `day = N` (before its posts and votes)
//!                                # or `night = N` (before its moves); default day 1
//! view = 1                       # optional: fix only what this seat knows, deal the rest
//! seats = ["commissar", "?", "don", "mafioso", "citizen", "?", "?", "?", "?", "?"]
//!                                # optional; "?" = unknown (dealt per game)
//!
//! [roles]                        # instead of `setup`: how many of each role
//! don = 1
//!
//! [rules]                        # optional, as in setup files
//! reveal_roles_on_death = false
//!
//! [carry]                        # as in scenario files, plus:
//! dead = [5, 8]                  # in the order they died
//! killed = [8]                   # those of `dead` killed at night (the rest were lynched)
//! modkilled = []                 # those of `dead` the host removed (C15): roles never announced
//! nights_without_kill = 0        # C8's count so far
//!
//! [[check]]                      # an earlier check and its answer (C5, C6, E13)
//! by = "commissar"
//! target = 3
//! camp = "mafia"                 # the Commissar's or Detective's answer;
//!                                # `commissar = true|false` for the Don's; read
//!                                # from the target's role when it is known
//!
//! [[said]]                       # what a player published (C10 posts, C13 last words);
//!                                # claims count as made in the order of the entries
//! seat = 1
//! claim = "commissar"            # a role claim (true or false)
//! mafia = [3]                    # players he says he found in a camp (town, mafia, bandits)
//! accuse = [4]
//!
//! [[vote]]                       # a final vote of a finished day (C10)
//! by = 2                         # a seat or a role one seat holds
//! for = 5                        # the same, or "pass"; unlisted: no vote that day
//! day = 2                        # optional; default the last finished day: at
//!                                # `day = N` day N-1 (yesterday's count, as the players
//!                                # read it), at `night = N` day N (C4's signal);
//!                                # earlier days' votes join the record the town reads
//! ```
//!
//! With `view`, only the view seat's own role, his camp mates where the
//! rules say so (C2, E1), the announced roles of the dead (C9's setting),
//! and the holders a `[carry]` item names stay fixed; his checks
//! constrain the deal (a Don's "yes" pins the Commissar); every other role named in
//! `seats` is dealt per game (and listed as sampled in the output).

use crate::error::Error;
use crate::error::{Diagnostic, FileError};
use crate::exec::paired::check_out;
use crate::exec::runner::CHUNK;
use crate::input::scenario_file::{Reader, a_type, integer};
use crate::input::toml_text::{LineIndex, Val, entries, entry_start, role_names};
use crate::output::{Cols, Printed, rate_cols, write_frames};
use clap::Args;
use indicatif::ProgressBar;
use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{
    Camp, Check, CheckOutcome, DayVote, MAX_PLAYERS, NoLog, PRESETS, Phase, PlayerSet, Position, Preset, Publication,
    Role, Scenario, Seat, Setup, Start, Vote,
};
use polars::prelude::DataFrame;
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use toml::de::{DeTable, DeValue};

/// The top-level keys of a state file.
pub const TOP_KEYS: [&str; 12] =
    ["name", "setup", "day", "night", "view", "seats", "roles", "rules", "carry", "check", "said", "vote"];
/// The keys of `[carry]` a state file adds to a scenario's.
pub const CARRY_EXTRA: [&str; 3] = ["killed", "modkilled", "nights_without_kill"];
/// The keys of a `[[check]]` entry.
pub const CHECK_KEYS: [&str; 4] = ["by", "target", "camp", "commissar"];
/// The keys of a `[[vote]]` entry.
pub const VOTE_KEYS: [&str; 3] = ["by", "for", "day"];
/// The keys of a `[[said]]` entry.
pub const SAID_KEYS: [&str; 6] = ["seat", "claim", "town", "mafia", "bandits", "accuse"];

/// Win odds per camp from a mid-game state file, by Monte Carlo.
#[derive(Args, Debug)]
pub struct OddsArgs {
    /// The state file (.toml): setup, phase, seats, carry, checks, what was said (see scenarios/odds/).
    #[arg(value_name = "STATE")]
    pub state: PathBuf,
    /// Games to play on from the state.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Stop when every camp's 95% interval is at most ±this (checked at fixed checkpoints; --games is then the most).
    #[arg(long, value_name = "H")]
    pub precision: Option<f64>,
    /// Master seed; the same seed gives the same output on any thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = every core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Strategies, as for `mafia run` (`STRATEGY`, `camp=…`, `role=…`, `seatN=…`).
    #[arg(long, value_name = "SPEC")]
    pub agents: Option<String>,
    /// A rule setting, `key=value` (repeatable), applied after the file's [rules].
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
    /// Write the table (.parquet or .csv).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// A state file, read and checked for everything but the rules of the game.
#[derive(Clone, Debug)]
pub struct PositionFile {
    pub file: String,
    pub position: Position,
    places: HashMap<String, (usize, usize)>,
}

/// Reads and checks a state file. An I/O error is one diagnostic at 1:1.
pub fn load_position(path: &Path) -> Result<PositionFile, FileError> {
    let label = path.display().to_string();
    let fail =
        |message: String| FileError { file: label.clone(), diagnostics: vec![Diagnostic { line: 1, col: 1, message }] };
    let bytes = std::fs::read(path).map_err(|e| fail(format!("cannot read the state file: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| fail("the file is not UTF-8 text".into()))?;
    parse_position(&label, &text)
}

/// Parses and checks the text of a state file (see the module doc).
pub fn parse_position(file_label: &str, text: &str) -> Result<PositionFile, FileError> {
    let lines = LineIndex::new(text);
    let (doc, syntax_errors) = DeTable::parse_recoverable(text);
    let mut syntax = Vec::new();
    for e in &syntax_errors {
        let (line, col) = e.span().map_or((1, 1), |s| lines.locate(s.start));
        if !syntax.iter().any(|d: &Diagnostic| d.line == line) {
            syntax.push(Diagnostic { line, col, message: format!("invalid TOML: {}", e.message()) });
        }
    }
    let stem =
        Path::new(file_label).file_stem().map_or_else(|| file_label.to_string(), |s| s.to_string_lossy().into_owned());
    let mut r = Reader {
        lines: &lines,
        diagnostics: Vec::new(),
        places: HashMap::new(),
        roles: None,
        n: None,
        engine_safe: true,
        sc: Scenario { name: stem, night: 1, ..Scenario::default() },
        carry_extra: &CARRY_EXTRA,
    };
    let mut pos = read(&mut r, doc.get_ref());
    let mut diagnostics = syntax;
    let bad: Vec<usize> = diagnostics.iter().map(|d| d.line).collect();
    diagnostics.extend(r.diagnostics.into_iter().filter(|d| !bad.contains(&d.line)));
    if !diagnostics.is_empty() {
        diagnostics.sort_by_key(|d| (d.line, d.col));
        diagnostics.dedup();
        return Err(FileError { file: file_label.to_string(), diagnostics });
    }
    pos.name = r.sc.name.clone();
    Ok(PositionFile { file: file_label.to_string(), position: pos, places: r.places })
}

impl PositionFile {
    /// Checks the position in the engine; its problems come back at their lines.
    pub fn start(&self) -> Result<Start, FileError> {
        Start::new(&self.position).map_err(|e| {
            let mut diagnostics: Vec<Diagnostic> = e
                .problems
                .into_iter()
                .map(|p| {
                    let (line, col) = self.place(&p.path);
                    Diagnostic { line, col, message: p.message }
                })
                .collect();
            diagnostics.sort_by_key(|d| (d.line, d.col));
            diagnostics.dedup();
            FileError { file: self.file.clone(), diagnostics }
        })
    }

    /// The item a path names, else the nearest enclosing item, else 1:1.
    fn place(&self, path: &str) -> (usize, usize) {
        let mut p = path;
        loop {
            if let Some(&at) = self.places.get(p) {
                return at;
            }
            match p.rfind('.') {
                Some(i) => p = &p[..i],
                None => return (1, 1),
            }
        }
    }
}

fn read(r: &mut Reader<'_>, doc: &DeTable<'_>) -> Position {
    let all = entries(doc);
    let mut pos = Position::start_of(&Setup::new(""));
    // The seats first: seat references by role name need them.
    if let Some(&(k, v)) = all.iter().find(|(k, _)| k.get_ref() == "seats") {
        r.place("seats".into(), entry_start(k, v));
        r.place("roles".into(), entry_start(k, v));
        read_seats(r, v);
    }
    let mut setup: Option<Setup> = None;
    let (mut carry, mut checks, mut said, mut view, mut rules, mut votes) = (None, None, None, None, None, None);
    let mut phase: Option<(Phase, usize)> = None;
    for (k, v) in all {
        let key = k.get_ref().as_ref();
        match key {
            "seats" => {}
            "name" => match v.get_ref() {
                DeValue::String(s) if !s.trim().is_empty() => r.sc.name = s.to_string(),
                other => r.report_span(v.span(), format!("`name` must be a non-empty string, got {}", a_type(other))),
            },
            "setup" => {
                r.place("roles".into(), entry_start(k, v));
                match v.get_ref() {
                    DeValue::String(s) => match Preset::find(s) {
                        Some(p) if setup.is_none() => setup = Some(p.setup()),
                        Some(_) => r.report(entry_start(k, v), "give `setup` or [roles], not both".into()),
                        None => {
                            let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
                            r.report_span(v.span(), format!("no preset `{s}` (presets: {})", names.join(", ")))
                        }
                    },
                    other => r.report_span(v.span(), format!("`setup` must be a preset name, got {}", a_type(other))),
                }
            }
            "roles" => {
                r.place("roles".into(), entry_start(k, v));
                let DeValue::Table(t) = v.get_ref() else {
                    r.report(entry_start(k, v), format!("`roles` must be a table, got {}", a_type(v.get_ref())));
                    continue;
                };
                if setup.is_some() {
                    r.report(entry_start(k, v), "give `setup` or [roles], not both".into());
                    continue;
                }
                let mut s = Setup::new("");
                for (rk, rv) in entries(t) {
                    let name = rk.get_ref().as_ref();
                    let Some(role) = Role::from_name(name) else {
                        r.report_span(rk.span(), format!("unknown role `{name}` (roles: {})", role_names()));
                        continue;
                    };
                    r.place(format!("roles.{}", role.name()), rk.span().start);
                    match integer(rv.get_ref()) {
                        Some(c) if (0..=MAX_PLAYERS as i128).contains(&c) => s.counts[role as usize] = c as u64,
                        _ => r.report_span(rv.span(), format!("`{name}`: a count from 0 to {MAX_PLAYERS}")),
                    }
                }
                setup = Some(s);
            }
            "day" | "night" => {
                r.place("phase".into(), entry_start(k, v));
                match integer(v.get_ref()) {
                    Some(d) if (1..=u16::MAX as i128).contains(&d) => {
                        let p = if key == "day" { Phase::Day(d as u16) } else { Phase::Night(d as u16) };
                        if phase.is_some() {
                            r.report(entry_start(k, v), "give `day` or `night`, not both".into());
                        }
                        phase = Some((p, entry_start(k, v)));
                    }
                    _ => {
                        r.report_span(v.span(), format!("`{key}` must be a number from 1, got {}", a_type(v.get_ref())))
                    }
                }
            }
            "view" => view = Some(v),
            "rules" => match v.get_ref() {
                DeValue::Table(t) => rules = Some(t),
                other => r.report(entry_start(k, v), format!("`rules` must be a table, got {}", a_type(other))),
            },
            "carry" => match v.get_ref() {
                DeValue::Table(t) => carry = Some(t),
                other => r.report(entry_start(k, v), format!("`carry` must be a table, got {}", a_type(other))),
            },
            "check" => checks = Some(v),
            "said" => said = Some(v),
            "vote" => votes = Some(v),
            _ => r.report(entry_start(k, v), format!("unknown key `{key}` (known keys: {})", TOP_KEYS.join(", "))),
        }
    }
    if let Some(t) = rules {
        r.read_rules(t);
    }
    // The setup: a preset, [roles], or the seats when they name every role.
    let mut setup = match setup {
        Some(s) => s,
        None => match &r.roles {
            Some(roles) if roles.iter().all(Option::is_some) => {
                let named: Vec<Role> = roles.iter().flatten().copied().collect();
                Setup::of_roles("", &named)
            }
            Some(_) => {
                r.report(0, "some seats are unknown (\"?\"): give `setup` or [roles], the public role counts".into());
                Setup::new("")
            }
            None => {
                r.report(0, "give `setup` (a preset), [roles] or `seats`: the game's roles".into());
                Setup::new("")
            }
        },
    };
    setup.rules = r.sc.rules;
    setup.name = r.sc.name.clone();
    let n = setup.players().min(MAX_PLAYERS as u64) as usize;
    if r.roles.is_none() {
        r.roles = Some(vec![None; n]);
        r.n = Some(n);
    }
    pos.setup = setup;
    pos.roles = r.roles.clone().unwrap_or_default();
    if let Some((p, _)) = phase {
        pos.phase = p;
    }
    if let Some(v) = view {
        r.place("view".into(), v.span().start);
        pos.view = r.seat(v, "view");
    }
    if let Some(t) = carry {
        r.read_carry(t);
        for (k, v) in entries(t) {
            match k.get_ref().as_ref() {
                "killed" => pos.killed = r.seat_list("killed", v, "killed"),
                "modkilled" => pos.modkilled = r.seat_list("modkilled", v, "modkilled"),
                "nights_without_kill" => {
                    r.place("nights_without_kill".into(), entry_start(k, v));
                    match integer(v.get_ref()) {
                        Some(c) if (0..=255).contains(&c) => pos.nights_without_kill = c as u8,
                        _ => r.report_span(v.span(), "`nights_without_kill`: a count from 0 (C8)".into()),
                    }
                }
                "dead" => {
                    r.place("dead".into(), entry_start(k, v));
                }
                _ => {}
            }
        }
        let sc = &r.sc;
        pos.dead = sc.dead.clone();
        pos.acting = sc.acting.clone();
        pos.hexed = sc.hexed.clone();
        pos.guest = sc.guest;
        pos.last_targets = sc.last_targets.clone();
        pos.spare_life_spent = sc.spare_life_spent.clone();
        pos.swindled = sc.swindled.clone();
        pos.borrowed = sc.borrowed.clone();
        pos.bandits_known = sc.bandits_known.clone();
    }
    if let Some(v) = checks {
        pos.checks = read_checks(r, v);
    }
    if let Some(v) = said {
        pos.published = read_said(r, v);
    }
    if let Some(v) = votes {
        pos.votes = read_votes(r, v, pos.last_vote_day());
    }
    pos
}

fn read_seats(r: &mut Reader<'_>, v: &Val<'_>) {
    let DeValue::Array(items) = v.get_ref() else {
        let msg = format!("`seats` must be an array of role names (\"?\": unknown), got {}", a_type(v.get_ref()));
        return r.report_span(v.span(), msg);
    };
    if items.len() > MAX_PLAYERS {
        return r.report_span(v.span(), format!("{} seats; the engine supports at most {MAX_PLAYERS}", items.len()));
    }
    let mut roles = Vec::new();
    let mut ok = true;
    for (i, item) in items.iter().enumerate() {
        r.place(format!("seats.{i}"), item.span().start);
        match item.get_ref() {
            DeValue::String(s) if s.as_ref() == "?" => roles.push(None),
            DeValue::String(s) => match Role::from_name(s) {
                Some(role) => roles.push(Some(role)),
                None => {
                    ok = false;
                    r.report_span(
                        item.span(),
                        format!("seat {}: unknown role `{s}` (roles: {}, or ?)", i + 1, role_names()),
                    )
                }
            },
            other => {
                ok = false;
                r.report_span(
                    item.span(),
                    format!("seat {}: expected a role name or \"?\", got {}", i + 1, a_type(other)),
                )
            }
        }
    }
    r.n = Some(items.len());
    if ok {
        r.roles = Some(roles);
    }
}

/// The items of an array of tables (`[[check]]`, `[[said]]`).
fn tables<'t, 'i>(r: &mut Reader<'_>, v: &'t Val<'i>, what: &str) -> Vec<(&'t DeTable<'i>, usize)> {
    let DeValue::Array(items) = v.get_ref() else {
        r.report_span(v.span(), format!("`{what}` must be [[{what}]] tables, got {}", a_type(v.get_ref())));
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items.iter() {
        match item.get_ref() {
            DeValue::Table(t) => out.push((t, item.span().start)),
            other => r.report_span(item.span(), format!("a {what} must be a table, got {}", a_type(other))),
        }
    }
    out
}

fn read_checks(r: &mut Reader<'_>, v: &Val<'_>) -> Vec<Check> {
    let mut out = Vec::new();
    for (t, at) in tables(r, v, "check") {
        let (mut by, mut target, mut outcome, mut ok) = (None, None, None, true);
        for (k, v) in entries(t) {
            match k.get_ref().as_ref() {
                "by" => by = r.seat(v, "by"),
                "target" => target = r.seat(v, "target"),
                "camp" => match v.get_ref() {
                    DeValue::String(s) if Camp::from_name(s).is_some() => {
                        outcome = Camp::from_name(s).map(CheckOutcome::Camp)
                    }
                    other => {
                        ok = false;
                        r.report_span(v.span(), format!("`camp`: town, mafia or bandits, got {}", a_type(other)))
                    }
                },
                "commissar" => match v.get_ref() {
                    DeValue::Boolean(b) => outcome = Some(CheckOutcome::IsRole(Role::Commissar, *b)),
                    other => {
                        ok = false;
                        r.report_span(v.span(), format!("`commissar`: true or false, got {}", a_type(other)))
                    }
                },
                key => {
                    ok = false;
                    r.report_span(
                        k.span(),
                        format!("unknown key `{key}` in a check (known keys: {})", CHECK_KEYS.join(", ")),
                    )
                }
            }
        }
        match (by, target) {
            (Some(by), Some(target)) if ok => {
                r.place(format!("checks.{}", out.len()), at);
                out.push(Check { by, target, outcome });
            }
            _ if !t.iter().any(|(k, _)| k.get_ref() == "by") || !t.iter().any(|(k, _)| k.get_ref() == "target") => {
                r.report(at, "a check needs `by` and `target`".into())
            }
            _ => {}
        }
    }
    out
}

/// The `[[vote]]` entries; a vote without `day` is of `last_day`, the last
/// finished day (the engine checks the days).
fn read_votes(r: &mut Reader<'_>, v: &Val<'_>, last_day: u16) -> Vec<DayVote> {
    let mut out = Vec::new();
    for (t, at) in tables(r, v, "vote") {
        let (mut by, mut vote, mut day, mut day_ok) = (None, None, last_day, true);
        for (k, v) in entries(t) {
            match k.get_ref().as_ref() {
                "by" => by = r.seat(v, "by"),
                "day" => match integer(v.get_ref()) {
                    Some(d) if (1..=u16::MAX as i128).contains(&d) => day = d as u16,
                    _ => {
                        day_ok = false;
                        r.report_span(v.span(), format!("`day` must be a number from 1, got {}", a_type(v.get_ref())))
                    }
                },
                "for" => match v.get_ref() {
                    DeValue::String(s) if s.as_ref() == "pass" => vote = Some(Vote::Pass),
                    _ => vote = r.seat(v, "for").map(Vote::For),
                },
                key => r.report_span(
                    k.span(),
                    format!("unknown key `{key}` in a vote (known keys: {})", VOTE_KEYS.join(", ")),
                ),
            }
        }
        match (by, vote) {
            (Some(by), Some(vote)) if day_ok => {
                r.place(format!("votes.{}", out.len()), at);
                out.push(DayVote { day, by, vote });
            }
            _ if !t.iter().any(|(k, _)| k.get_ref() == "by") || !t.iter().any(|(k, _)| k.get_ref() == "for") => {
                r.report(at, "a vote needs `by` and `for` (a seat, a role one seat holds, or \"pass\")".into())
            }
            _ => {}
        }
    }
    out
}

fn read_said(r: &mut Reader<'_>, v: &Val<'_>) -> Vec<(Seat, Publication)> {
    let mut out = Vec::new();
    for (t, at) in tables(r, v, "said") {
        let (mut seat, mut p) = (None, Publication::NONE);
        for (k, v) in entries(t) {
            let key = k.get_ref().as_ref();
            let set = |r: &mut Reader<'_>| -> PlayerSet { r.seat_list(key, v, "said").into_iter().collect() };
            match key {
                "seat" => seat = r.seat(v, "seat"),
                "claim" => p.claim = r.role(v, "claim"),
                "town" => p.camps[Camp::Town as usize] = set(r),
                "mafia" => p.camps[Camp::Mafia as usize] = set(r),
                "bandits" => p.camps[Camp::Bandits as usize] = set(r),
                "accuse" => p.accuse = set(r),
                _ => r.report_span(
                    k.span(),
                    format!("unknown key `{key}` in [[said]] (known keys: {})", SAID_KEYS.join(", ")),
                ),
            }
        }
        match seat {
            Some(s) => {
                r.place(format!("published.{}", out.len()), at);
                out.push((s, p));
            }
            None if !t.iter().any(|(k, _)| k.get_ref() == "seat") => r.report(at, "[[said]] needs `seat`".into()),
            None => {}
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Playing

/// Counts of games played on from a position; merged by addition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Odds {
    pub games: u64,
    pub wins: [u64; Camp::COUNT],
    pub draws: u64,
    /// Days from the position's to the last one reached, summed over games.
    pub days_left: u64,
    /// Games for which no deal fitting the position came up (not counted above).
    pub unsampled: u64,
}

impl Odds {
    pub fn merge(&mut self, o: &Odds) {
        self.games += o.games;
        self.draws += o.draws;
        self.days_left += o.days_left;
        self.unsampled += o.unsampled;
        for c in 0..Camp::COUNT {
            self.wins[c] += o.wins[c];
        }
    }
    pub fn mean_days_left(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.days_left as f64 / self.games as f64 }
    }
}

/// Plays game indices `first..first + games` on from `start` with `lineup`
/// (master seed `seed`) on `pool`: fixed chunks of [`CHUNK`] games merged by
/// addition, so the counts do not depend on the thread count. A
/// precision-stopping caller may call it again with the next range.
pub fn play_range(
    pool: &rayon::ThreadPool,
    start: &Start,
    lineup: &Lineup,
    seed: u64,
    first: u64,
    games: u64,
    pb: &ProgressBar,
) -> Odds {
    let key = master_key(seed);
    let from = match start.position().phase {
        Phase::Day(d) | Phase::Night(d) => d,
    };
    let chunks = games.div_ceil(CHUNK);
    let parts: Vec<Odds> = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map_init(
                || Worker::new(lineup.clone(), key),
                |w, c| {
                    let lo = first + c * CHUNK;
                    let hi = (lo + CHUNK).min(first + games);
                    let mut o = Odds::default();
                    for i in lo..hi {
                        let Some(out) = w.play_from(start, i, &mut NoLog) else {
                            o.unsampled += 1;
                            continue;
                        };
                        o.games += 1;
                        match out.winner {
                            Some(c) => o.wins[c as usize] += 1,
                            None => o.draws += 1,
                        }
                        o.days_left += out.days.saturating_sub(from) as u64;
                    }
                    pb.inc(hi - lo);
                    o
                },
            )
            .collect()
    });
    let mut total = Odds::default();
    for p in &parts {
        total.merge(p);
    }
    total
}

/// The table: one row per camp the setup deals, then the draws: games,
/// wins, the rate with its Wilson 95% interval, and the mean days left.
pub fn odds_frame(start: &Start, o: &Odds) -> polars::prelude::PolarsResult<DataFrame> {
    let camps: Vec<Camp> = crate::stats::camps_dealt(start.game().roles_present());
    let mut names: Vec<String> = camps.iter().map(|c| c.name().to_string()).collect();
    names.push("draw".into());
    let mut wins: Vec<u64> = camps.iter().map(|&c| o.wins[c as usize]).collect();
    wins.push(o.draws);
    let k = names.len();
    let mut c = Cols::default();
    c.str("camp", names);
    c.u64("games", vec![o.games; k]);
    c.u64("wins", wins.clone());
    rate_cols(&mut c, "", wins.iter().map(|&w| (w, o.games)));
    c.f64("mean_days_left", vec![o.mean_days_left(); k]);
    c.frame()
}

fn phase_text(p: Phase) -> String {
    match p {
        Phase::Day(d) => format!("day {d}"),
        Phase::Night(d) => format!("night {d}"),
    }
}

/// What the output says about the roles: which are fixed, which are dealt per game.
pub fn knowledge_text(start: &Start) -> String {
    let pos = start.position();
    let mut s = String::new();
    if let Some(v) = pos.view {
        let role = start.fixed()[v as usize].map_or("?", |r| r.name());
        s.push_str(&format!("view: seat {} ({role}); only what it knows is fixed\n", v + 1));
    }
    let sampled = start.sampled();
    if sampled.is_empty() {
        s.push_str("every role is fixed\n");
        return s;
    }
    let seats: Vec<String> = sampled.iter().map(|x| (x + 1).to_string()).collect();
    let mut counts: Vec<(Role, usize)> = Vec::new();
    for &r in start.sampled_roles() {
        match counts.iter_mut().find(|(x, _)| *x == r) {
            Some(c) => c.1 += 1,
            None => counts.push((r, 1)),
        }
    }
    let roles: Vec<String> = counts.iter().map(|(r, c)| format!("{r}={c}")).collect();
    s.push_str(&format!(
        "sampled per game: seats {} get {}{}\n",
        seats.join(", "),
        roles.join(" "),
        if start.constrained() { ", consistent with the check results" } else { ", uniformly" }
    ));
    s
}

/// `mafia odds`.
pub fn cmd_odds(a: OddsArgs) -> Result<(), Error> {
    check_out(&a.out)?;
    if a.threads > 1024 {
        return Err(Error::Invalid(format!("--threads {}: at most 1024 (0 = every core)", a.threads)));
    }
    let mut file = load_position(&a.state)?;
    for rule in &a.rules {
        let (k, v) = rule
            .split_once('=')
            .ok_or_else(|| Error::Invalid(format!("--rule {rule}: expected KEY=VALUE (see `mafia rules`)")))?;
        file.position.setup.rules.set(k.trim(), v).map_err(|e| Error::Invalid(format!("--rule {rule}: {e}")))?;
    }
    let start = file.start()?;
    // `setup = "classic"` starts from the preset's default lineup; [roles] from `forum`.
    let mut lineup = Lineup::for_preset(&file.position.setup.name);
    if let Some(spec) = &a.agents {
        if !mafia_protocol::ext::commands(spec).is_empty() {
            return Err(Error::Agents(format!("--agents {spec}: external agents (`ext:`) cannot play here")));
        }
        lineup.apply(spec).map_err(|e| Error::Invalid(format!("--agents {spec}: {e}")))?;
        let game = start.game();
        lineup
            .check_roles(game.roles_present())
            .and_then(|_| lineup.check_seats(game.players()))
            .map_err(|e| Error::Invalid(format!("--agents {spec}: {e}")))?;
    }
    let pool = crate::exec::paired::pool(a.threads)?;
    let pb = crate::exec::paired::progress(a.games, !a.quiet);
    let precision = a.precision.map(crate::stats::check_precision).transpose().map_err(Error::Invalid)?;
    let odds = match precision {
        None => play_range(&pool, &start, &lineup, a.seed, 0, a.games, &pb),
        Some(h) => {
            // Game by checkpoint, so the same seed stops at the same game.
            let schedule = crate::stats::Schedule { max: a.games };
            let mut total = Odds::default();
            let mut done = 0;
            for end in schedule.points() {
                total.merge(&play_range(&pool, &start, &lineup, a.seed, done, end - done, &pb));
                done = end;
                let half = total.wins.iter().map(|&w| crate::stats::wilson_half(w, total.games)).fold(0.0, f64::max);
                if half <= h {
                    break;
                }
            }
            total
        }
    };
    pb.finish_and_clear();
    let pos = start.position();
    let alive = start.game().players() - pos.dead.len();
    let mut out = std::io::stdout().lock();
    write!(out, "{}", knowledge_text(&start))?;
    if odds.unsampled > 0 {
        writeln!(
            out,
            "note: {} of {} games found no deal fitting the knowledge in {} draws and were not played",
            odds.unsampled,
            a.games,
            mafia_engine::SAMPLE_TRIES
        )?;
    }
    let title = format!(
        "Win odds from {} ({}, {alive} of {} alive, agents {}): {} games, seed {}, Wilson 95% bounds",
        pos.name,
        phase_text(pos.phase),
        start.game().players(),
        lineup.label(),
        odds.games,
        a.seed
    );
    let frame = odds_frame(&start, &odds)?;
    let mut tables = [Printed::new(&title, frame, "")];
    tables[0].print(&mut out)?;
    out.flush()?;
    if let Some(p) = &a.out {
        for w in write_frames(&mut tables, p).map_err(Error::Io)? {
            eprintln!("wrote {}", w.display());
        }
    }
    Ok(())
}
