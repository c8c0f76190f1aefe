//! State files, the input of `mafia odds`: a mid-game state
//! ([`mafia_engine::Position`]) — the setup, the phase, what is known of the
//! seats, what carries over, the checks and their answers, what was said and
//! the votes.
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

use super::diagnostics::{
    Diagnostic, FileError, LineIndex, Problems, Syntax, beside, file_error, in_file_order, parse, stem_name, unreadable,
};
use super::scenario_file::Reader;
use super::toml_text::{Val, a_type, entries, entry_start, integer, role_names};
use mafia_engine::{
    Camp, Check, CheckOutcome, DayVote, MAX_PLAYERS, PRESETS, Phase, PlayerSet, Position, Preset, Publication, Role,
    Scenario, Seat, Setup, Start, Vote,
};
use std::collections::HashMap;
use std::path::Path;
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

/// A state file, read and checked for everything but the rules of the game.
#[derive(Clone, Debug)]
pub struct PositionFile {
    /// The file, as given.
    pub file: String,
    /// The position it describes.
    pub position: Position,
    places: HashMap<String, (usize, usize)>,
}

/// Reads and checks a state file. An I/O error is one diagnostic at 1:1.
pub fn load_position(path: &Path) -> Result<PositionFile, FileError> {
    let label = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| unreadable(&label, format!("cannot read the state file: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| unreadable(&label, "the file is not UTF-8 text".into()))?;
    parse_position(&label, &text)
}

/// Parses and checks the text of a state file (see the module doc).
pub fn parse_position(file_label: &str, text: &str) -> Result<PositionFile, FileError> {
    let lines = LineIndex::new(text);
    let (doc, syntax) = parse(text, &lines, Syntax::FirstPerLine);
    let stem = stem_name(Path::new(file_label)).unwrap_or_else(|| file_label.to_string());
    let mut r = Reader {
        problems: Problems::new(&lines),
        places: HashMap::new(),
        roles: None,
        n: None,
        engine_safe: true,
        sc: Scenario { name: stem, night: 1, ..Scenario::default() },
        carry_extra: &CARRY_EXTRA,
    };
    let mut pos = read(&mut r, &doc);
    in_file_order(file_label, beside(syntax, r.problems.diagnostics))?;
    pos.name = r.sc.name.clone();
    Ok(PositionFile { file: file_label.to_string(), position: pos, places: r.places })
}

impl PositionFile {
    /// Checks the position in the engine; its problems come back at their
    /// lines. A position already decided by the numbers whatever the deal
    /// (C17, C18, E2) is refused at `dead`: there is nothing to play, as C8's
    /// reached limit is refused at `nights_without_kill`.
    pub fn start(&self) -> Result<Start, FileError> {
        let start = self.checked()?;
        if let Some(end) = start.decided() {
            let (line, col) = self.place("dead");
            let who = match end.winner {
                Some(c) => format!("the {} camp has won", c.name()),
                None => "nobody is left: a draw".into(),
            };
            let why = match end.cause {
                mafia_engine::EndCause::MafiaEliminated => "no mafioso and no bandit is alive, C17",
                mafia_engine::EndCause::Parity => "the living mafia are at least as many as the rest, C18",
                mafia_engine::EndCause::TownEliminated => "only the mafia are alive, C18, E2",
                mafia_engine::EndCause::OnlyBandits => "only bandits are alive, E2",
                _ => "nobody is alive, C19, E2",
            };
            let message = format!("the position is already decided: {who} ({why}); there is nothing to play");
            return Err(file_error(&self.file, vec![Diagnostic { line, col, message }]));
        }
        Ok(start)
    }

    fn checked(&self) -> Result<Start, FileError> {
        Start::new(&self.position).map_err(|e| {
            let diagnostics: Vec<Diagnostic> = e
                .problems
                .into_iter()
                .map(|p| {
                    let (line, col) = self.place(&p.path);
                    Diagnostic { line, col, message: p.message }
                })
                .collect();
            file_error(&self.file, diagnostics)
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
                "killed" => {
                    r.place("killed".into(), entry_start(k, v));
                    pos.killed = r.seat_list("killed", v, "killed");
                }
                "modkilled" => {
                    r.place("modkilled".into(), entry_start(k, v));
                    pos.modkilled = r.seat_list("modkilled", v, "modkilled");
                }
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
        pos.carry = std::mem::take(&mut r.sc.carry);
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
