//! Scenario files: one night as the host sees it — the seats and their roles,
//! what carries over from earlier phases and every submitted move — read into
//! the engine's [`Scenario`] and resolved by [`resolve_scenario`]. This is the
//! input of `mafia resolve`.
//!
//! Like setup files, every problem of the file is reported at once with its
//! line and column (1-based): TOML syntax errors, unknown keys, values of the
//! wrong type, unknown roles and steps, seats that do not exist, and values
//! refused by [`Rules::set`]. A file without those problems goes to the
//! engine, whose problems come back with a path (`moves.3`, `dead.1`,
//! `guest`, …) that is mapped back to the line of that item.
//!
//! ```toml
//! name = "thief-robs-psycho"     # optional; default: the file stem
//! night = 2                      # optional; default 1
//! seats = ["boss", "thief", "psycho", "doctor", "citizen", "citizen"]   # seat 1 first
//! night_order = ["start", "control", "protection", "information", "kills", "marks", "watchers"]  # optional
//!
//! [rules]                        # optional, as in setup files
//! resolution = "graph"
//!
//! [carry]                        # optional: what earlier phases left behind
//! dead = [6]                     # in the order they died
//! guest = 5                      # last night's guest of the Psycho (E23)
//!
//! [[move]]
//! seat = "thief"                 # a seat number, or a role held by one seat
//! target = 3
//!
//! [[move]]
//! seat = 1
//! kill = 4                       # the mafia's kill nick
//! ```
//!
//! Move keys: `seat` (required), `target` and `second` (the role move),
//! `borrow` (the Role Prostitute's borrowed role), `kill` (the camp kill
//! nick) and `search` (a bandit's search nick, E3). Carry keys: `dead`,
//! `actor`, `deputy`, `hexed`, `guest`, `last_heal`, `last_beating`,
//! `spare_life_spent`, `swindled`, `borrowed`, `bandits_known`.

use super::diagnostics::{
    Diagnostic, FileError, LineIndex, Problems, Syntax, beside, file_error, in_file_order, parse, stem_name, unreadable,
};
use super::toml_text::{Key, Val, a_type, entries, entry_start, integer, role_names, rule_text};
use mafia_engine::{
    Event, Game, Log, MAX_PLAYERS, NightResult, NightStep, NoLog, RULE_KEYS, Role, RuleError, Rules, Scenario, Seat,
    State, resolve_scenario,
};
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use toml::de::{DeTable, DeValue};

/// The top-level keys of a scenario file.
pub const TOP_KEYS: [&str; 7] = ["name", "night", "seats", "night_order", "rules", "carry", "move"];

/// The keys of the `[carry]` table.
pub const CARRY_KEYS: [&str; 11] = [
    "dead",
    "actor",
    "deputy",
    "hexed",
    "guest",
    "last_heal",
    "last_beating",
    "spare_life_spent",
    "swindled",
    "borrowed",
    "bandits_known",
];

/// The keys of a `[[move]]` entry.
pub const MOVE_KEYS: [&str; 6] = ["seat", "target", "second", "borrow", "kill", "search"];

/// A scenario file, read and checked for everything but the rules of the night.
#[derive(Clone, Debug)]
pub struct ScenarioFile {
    /// The file, as given to [`parse_scenario`] or [`load_scenario`].
    pub file: String,
    /// The night it describes.
    pub scenario: Scenario,
    /// Where each item the engine may name lives in the file: path → (line, col).
    places: HashMap<String, (usize, usize)>,
}

/// A resolved night: the scenario, the checked game, the state after the
/// night (before the dead are removed), the night's result and the trace.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The scenario resolved.
    pub scenario: Scenario,
    /// Its checked game.
    pub game: Game,
    /// The state after the night, before the dead are removed.
    pub state: State,
    /// What the night did.
    pub result: NightResult,
    /// The trace: the start of the night, the moves and every step.
    pub log: Vec<Event>,
}

/// Reads and checks a scenario file. An I/O error is one diagnostic at 1:1.
pub fn load_scenario(path: &Path) -> Result<ScenarioFile, FileError> {
    let label = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => parse_scenario(&label, &text),
            Err(e) => {
                // Point at the first byte that is not UTF-8.
                let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let text = String::from_utf8_lossy(good);
                let (line, col) = LineIndex::new(&text).locate(text.len());
                Err(FileError {
                    file: label,
                    diagnostics: vec![Diagnostic { line, col, message: "the file is not UTF-8 text".into() }],
                })
            }
        },
        Err(e) => Err(unreadable(&label, format!("cannot read the scenario file: {e}"))),
    }
}

/// Parses and checks the text of a scenario file; `file_label` names the file
/// in diagnostics and its stem is the scenario's name unless the file gives one.
pub fn parse_scenario(file_label: &str, text: &str) -> Result<ScenarioFile, FileError> {
    let lines = LineIndex::new(text);
    let (doc, syntax) = parse(text, &lines, Syntax::FirstPerLine);
    let stem = stem_name(Path::new(file_label)).unwrap_or_else(|| file_label.to_string());
    let mut reader = Reader {
        problems: Problems::new(&lines),
        places: HashMap::new(),
        roles: None,
        n: None,
        engine_safe: true,
        sc: Scenario { name: stem, night: 1, ..Scenario::default() },
        carry_extra: &[],
    };
    reader.read(&doc);
    let diagnostics = if syntax.is_empty() {
        let mut diagnostics = reader.problems.diagnostics;
        if !diagnostics.is_empty() && reader.engine_safe && reader.roles.is_some() {
            // Report the engine's problems with what did parse too, except on
            // lines that already have a problem (most likely echoes of it).
            let partial = ScenarioFile {
                file: file_label.to_string(),
                scenario: reader.sc.clone(),
                places: reader.places.clone(),
            };
            if let Err(e) = partial.resolve_with(&mut NoLog) {
                diagnostics = beside(diagnostics, e.diagnostics);
            }
        }
        diagnostics
    } else {
        // A document recovered from syntax errors.
        beside(syntax, reader.problems.diagnostics)
    };
    in_file_order(file_label, diagnostics)?;
    Ok(ScenarioFile { file: file_label.to_string(), scenario: reader.sc, places: reader.places })
}

impl ScenarioFile {
    /// Resolves the night. The engine's problems (a move the role does not
    /// have, a move by a dead player, a carry-over that does not fit the
    /// roles, …) come back located at their items.
    pub fn resolve(&self) -> Result<Resolved, FileError> {
        let mut log = Vec::new();
        let (game, state, result) = self.resolve_with(&mut log)?;
        Ok(Resolved { scenario: self.scenario.clone(), game, state, result, log })
    }

    fn resolve_with<L: Log>(&self, log: &mut L) -> Result<(Game, State, NightResult), FileError> {
        match resolve_scenario(&self.scenario, log) {
            Ok(done) => Ok(done),
            Err(e) => {
                let diagnostics: Vec<Diagnostic> = e
                    .problems
                    .into_iter()
                    .map(|p| {
                        let (line, col) = self.place(&p.path, &p.message);
                        Diagnostic { line, col, message: p.message }
                    })
                    .collect();
                Err(file_error(&self.file, diagnostics))
            }
        }
    }

    /// The place of an engine problem: the item its path names (a move's
    /// problem at the key it is about), else the nearest enclosing item, else 1:1.
    fn place(&self, path: &str, message: &str) -> (usize, usize) {
        // A move's problem is about one of its keys (MSRV 1.85: no let chains).
        let field = if path.starts_with("moves.") { move_field(message) } else { None };
        if let Some(&at) = field.and_then(|f| self.places.get(&format!("{path}.{f}"))) {
            return at;
        }
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

/// The key of a `[[move]]` entry that an engine problem with a move is about
/// (see [`mafia_engine::MoveError`]'s messages, after the `seat N (role): ` prefix).
fn move_field(message: &str) -> Option<&'static str> {
    let m = message.split_once("): ").map_or(message, |(_, rest)| rest);
    if m.starts_with("the player is dead") || m.contains("has two entries") {
        Some("seat")
    } else if m.starts_with("only mafia members send a kill nick")
        || m.starts_with("the Actor sends no kill nick")
        || m.starts_with("kill target")
    {
        Some("kill")
    } else if m.starts_with("only bandits search") || m.starts_with("search target") {
        Some("search")
    } else if m.starts_with("second target") || m.starts_with("the move takes one target only") {
        Some("second")
    } else if m.starts_with("only the Role Prostitute borrows")
        || m.starts_with("the Role Prostitute has no move on night 1")
        || m.contains("cannot be borrowed")
    {
        Some("borrow")
    } else if m.starts_with("target ")
        || m.starts_with("the Role Prostitute must name")
        || m.contains("has no night move")
        || m.starts_with("the move needs a target")
    {
        Some("target")
    } else {
        None
    }
}

/// Reads a parsed document into a [`Scenario`], collecting diagnostics and
/// the places of the items the engine may name. (`position_file.rs` reads a
/// position's seats, rules and carry with it too.)
pub(crate) struct Reader<'a> {
    pub(crate) problems: Problems<'a>,
    pub(crate) places: HashMap<String, (usize, usize)>,
    /// The seats' roles, once `seats` is read and valid (`None`: a seat
    /// whose role a position leaves unknown).
    pub(crate) roles: Option<Vec<Option<Role>>>,
    /// The number of seats, once `seats` is read as an array.
    pub(crate) n: Option<usize>,
    /// Whether the engine may check the scenario despite problems found here:
    /// what was dropped cannot make it report a problem that is not there.
    pub(crate) engine_safe: bool,
    pub(crate) sc: Scenario,
    /// Keys of `[carry]` the caller reads itself (a position's).
    pub(crate) carry_extra: &'static [&'static str],
}

impl Reader<'_> {
    pub(crate) fn report(&mut self, at: usize, message: String) {
        self.problems.at(at, message);
    }

    pub(crate) fn report_span(&mut self, span: Range<usize>, message: String) {
        self.problems.at_span(span, message);
    }

    pub(crate) fn place(&mut self, path: String, at: usize) {
        let loc = self.problems.locate(at);
        self.places.insert(path, loc);
    }

    fn read(&mut self, doc: &DeTable<'_>) {
        let all = entries(doc);
        // The seats first: seat references by role name need them.
        if let Some(&(k, v)) = all.iter().find(|(k, _)| k.get_ref() == "seats") {
            self.read_seats(k, v);
        } else {
            self.report(
                0,
                "no `seats`: list the role of each seat, e.g. seats = [\"boss\", \"doctor\", \"citizen\"]".into(),
            );
        }
        let mut carry = None;
        let mut moves = None;
        for (k, v) in all {
            let key = k.get_ref().as_ref();
            match key {
                "seats" => {}
                "name" => match v.get_ref() {
                    DeValue::String(s) if s.trim().is_empty() => {
                        self.report_span(v.span(), "`name` must not be empty".into())
                    }
                    DeValue::String(s) => self.sc.name = s.to_string(),
                    other => self.report_span(v.span(), format!("`name` must be a string, got {}", a_type(other))),
                },
                "night" => {
                    self.place("night".into(), entry_start(k, v));
                    match integer(v.get_ref()) {
                        Some(n) if (0..=u16::MAX as i128).contains(&n) => self.sc.night = n as u16,
                        bad => {
                            // A night that did not parse would be taken for night 1 (E19 echoes).
                            self.engine_safe = false;
                            let msg = match bad {
                                Some(n) => format!("`night` must be 1 to {}, got {n}", u16::MAX),
                                None => format!(
                                    "`night` must be an integer (nights count from 1), got {}",
                                    a_type(v.get_ref())
                                ),
                            };
                            self.report_span(v.span(), msg);
                        }
                    }
                }
                "night_order" => self.read_night_order(k, v),
                "rules" => match v.get_ref() {
                    DeValue::Table(t) => self.read_rules(t),
                    other => self.report(entry_start(k, v), format!("`rules` must be a table, got {}", a_type(other))),
                },
                "carry" => match v.get_ref() {
                    DeValue::Table(t) => carry = Some(t),
                    other => self.report(entry_start(k, v), format!("`carry` must be a table, got {}", a_type(other))),
                },
                "move" => moves = Some(v),
                _ => {
                    self.report(entry_start(k, v), format!("unknown key `{key}` (known keys: {})", TOP_KEYS.join(", ")))
                }
            }
        }
        if let Some(t) = carry {
            self.read_carry(t);
        }
        if let Some(v) = moves {
            self.read_moves(v);
        }
    }

    fn read_seats(&mut self, k: &Key<'_>, v: &Val<'_>) {
        self.place("roles".into(), entry_start(k, v));
        let DeValue::Array(items) = v.get_ref() else {
            let msg = format!("`seats` must be an array of role names, seat 1 first, got {}", a_type(v.get_ref()));
            return self.report_span(v.span(), msg);
        };
        self.n = Some(items.len());
        let mut roles = Vec::new();
        let mut ok = true;
        for (i, item) in items.iter().enumerate() {
            match item.get_ref() {
                DeValue::String(s) => match Role::from_name(s) {
                    Some(r) => {
                        // The last seat of a role: where "at most one" points.
                        self.place(format!("roles.{}", r.name()), item.span().start);
                        roles.push(r);
                    }
                    None => {
                        ok = false;
                        self.report_span(
                            item.span(),
                            format!("seat {}: unknown role `{s}` (roles: {})", i + 1, role_names()),
                        )
                    }
                },
                other => {
                    ok = false;
                    self.report_span(
                        item.span(),
                        format!("seat {}: expected a role name, got {}", i + 1, a_type(other)),
                    )
                }
            }
        }
        if ok && roles.len() > MAX_PLAYERS {
            ok = false;
            self.report_span(v.span(), format!("{} seats; the engine supports at most {MAX_PLAYERS}", roles.len()));
        }
        if ok {
            self.roles = Some(roles.iter().map(|&r| Some(r)).collect());
            self.sc.roles = roles;
        }
    }

    fn read_night_order(&mut self, k: &Key<'_>, v: &Val<'_>) {
        self.place("night_order".into(), entry_start(k, v));
        let keys = || NightStep::ALL.iter().map(|s| s.key()).collect::<Vec<_>>().join(", ");
        let DeValue::Array(items) = v.get_ref() else {
            let msg = format!("`night_order` must be an array of steps ({}), got {}", keys(), a_type(v.get_ref()));
            return self.report_span(v.span(), msg);
        };
        let mut order = Vec::new();
        let mut ok = true;
        for item in items.iter() {
            match item.get_ref() {
                DeValue::String(s) => match NightStep::from_key(s) {
                    Some(step) => order.push(step),
                    None => {
                        ok = false;
                        self.report_span(item.span(), format!("unknown night step `{s}` (steps: {})", keys()))
                    }
                },
                other => {
                    ok = false;
                    self.report_span(item.span(), format!("expected a night step ({}), got {}", keys(), a_type(other)))
                }
            }
        }
        // A partial order would only echo the bad step as "each step once".
        if ok {
            self.sc.night_order = Some(order);
        }
    }

    pub(crate) fn read_rules(&mut self, table: &DeTable<'_>) {
        let mut rules = Rules::default();
        for (k, v) in entries(table) {
            let key = k.get_ref().as_ref();
            self.place(format!("rules.{key}"), k.span().start);
            let Some(text) = rule_text(v.get_ref()) else {
                match RULE_KEYS.iter().find(|r| r.name == key) {
                    Some(r) => self.report_span(
                        v.span(),
                        format!("rule `{key}`: expected {}, got {}", r.values, a_type(v.get_ref())),
                    ),
                    None => self.report_span(k.span(), RuleError::UnknownKey { key: key.to_string() }.to_string()),
                }
                continue;
            };
            match rules.set(key, &text) {
                Ok(()) => {}
                Err(e @ RuleError::UnknownKey { .. }) => self.report_span(k.span(), e.to_string()),
                Err(e) => self.report_span(v.span(), e.to_string()),
            }
        }
        self.sc.rules = rules;
    }

    /// A seat: a number from 1, or the name of a role exactly one seat holds.
    pub(crate) fn seat(&mut self, v: &Val<'_>, what: &str) -> Option<Seat> {
        let n = self.n;
        match v.get_ref() {
            DeValue::Integer(_) => {
                let x = integer(v.get_ref()).unwrap_or(i128::MAX);
                let max = n.unwrap_or(MAX_PLAYERS);
                if (1..=max as i128).contains(&x) {
                    Some(Seat::from_index((x - 1) as usize))
                } else {
                    let msg = match n {
                        Some(n) => format!("{what}: seat {x} does not exist (seats are 1 to {n})"),
                        None => format!("{what}: seat {x} does not exist (seats count from 1)"),
                    };
                    self.report_span(v.span(), msg);
                    None
                }
            }
            DeValue::String(s) => {
                let Some(role) = Role::from_name(s) else {
                    let msg = format!("{what}: `{s}` is neither a seat number nor a role (roles: {})", role_names());
                    self.report_span(v.span(), msg);
                    return None;
                };
                // Without valid seats the name cannot be looked up; `seats` has its own diagnostic.
                let roles = self.roles.as_ref()?;
                let holders: Vec<usize> = (0..roles.len()).filter(|&i| roles[i] == Some(role)).collect();
                match holders.as_slice() {
                    [one] => Some(Seat::from_index(*one)),
                    [] => {
                        self.report_span(v.span(), format!("{what}: no seat holds the {role}"));
                        None
                    }
                    many => {
                        let msg = format!(
                            "{what}: {} seats hold the {role} ({}): name the seat by number",
                            many.len(),
                            many.iter().map(|i| (i + 1).to_string()).collect::<Vec<_>>().join(", ")
                        );
                        self.report_span(v.span(), msg);
                        None
                    }
                }
            }
            other => {
                let msg = format!("{what}: expected a seat number (or a role one seat holds), got {}", a_type(other));
                self.report_span(v.span(), msg);
                None
            }
        }
    }

    pub(crate) fn role(&mut self, v: &Val<'_>, what: &str) -> Option<Role> {
        match v.get_ref() {
            DeValue::String(s) => match Role::from_name(s) {
                Some(r) => Some(r),
                None => {
                    self.report_span(v.span(), format!("{what}: unknown role `{s}` (roles: {})", role_names()));
                    None
                }
            },
            other => {
                self.report_span(v.span(), format!("{what}: expected a role name, got {}", a_type(other)));
                None
            }
        }
    }

    /// A list of seats; each item's place is recorded as `path.<index in the scenario list>`.
    pub(crate) fn seat_list(&mut self, key: &str, v: &Val<'_>, path: &str) -> Vec<Seat> {
        let DeValue::Array(items) = v.get_ref() else {
            let msg = format!("`{key}` must be an array of seats, e.g. {key} = [3], got {}", a_type(v.get_ref()));
            self.report_span(v.span(), msg);
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items.iter() {
            if let Some(s) = self.seat(item, key) {
                self.place(format!("{path}.{}", out.len()), item.span().start);
                out.push(s);
            }
        }
        out
    }

    /// The seat holding `role` (the roles are valid when this is asked).
    fn holder(&self, role: Role) -> Option<Seat> {
        self.roles.as_ref()?.iter().position(|&r| r == Some(role)).map(Seat::from_index)
    }

    /// Reads a `[carry]` table into the scenario's [`CarryOver`](mafia_engine::CarryOver): the one
    /// reader of the keys a scenario and a position file share (a position
    /// reads its own keys after it and takes the carry-over as it is).
    pub(crate) fn read_carry(&mut self, table: &DeTable<'_>) {
        let mut last_heal = None;
        for (k, v) in entries(table) {
            let key = k.get_ref().as_ref();
            let before = self.problems.len();
            match key {
                "dead" => self.sc.carry.dead = self.seat_list(key, v, "dead"),
                "hexed" => self.sc.carry.hexed = self.seat_list(key, v, "hexed"),
                "spare_life_spent" => self.sc.carry.spare_life_spent = self.seat_list(key, v, "spare_life_spent"),
                "swindled" => self.sc.carry.swindled = self.seat_list(key, v, "swindled"),
                "guest" => {
                    self.place("guest".into(), entry_start(k, v));
                    self.sc.carry.guest = self.seat(v, key);
                }
                "actor" | "deputy" => {
                    let who = if key == "actor" { Role::Actor } else { Role::Deputy };
                    let Some(role) = self.role(v, key) else { continue };
                    if self.roles.is_none() {
                        continue;
                    }
                    match self.holder(who) {
                        Some(s) => {
                            self.place(format!("acting.{}", self.sc.carry.acting.len()), v.span().start);
                            self.sc.carry.acting.push((s, role));
                        }
                        None => self.report(entry_start(k, v), format!("`{key}`: no seat holds the {who}")),
                    }
                }
                "last_heal" => {
                    if let Some(t) = self.seat(v, key) {
                        last_heal = Some((t, v.span().start, entry_start(k, v)));
                    }
                }
                "last_beating" => {
                    let Some(t) = self.seat(v, key) else { continue };
                    match self.holder(Role::Thug) {
                        Some(thug) => {
                            self.place(format!("last_targets.{}", self.sc.carry.last_targets.len()), v.span().start);
                            self.sc.carry.last_targets.push((thug, t));
                        }
                        None if self.roles.is_some() => {
                            self.report(entry_start(k, v), "`last_beating`: no seat holds the thug (E26)".into())
                        }
                        None => {}
                    }
                }
                "borrowed" => {
                    let DeValue::Array(items) = v.get_ref() else {
                        let msg = format!(
                            "`borrowed` must be an array of roles, e.g. borrowed = [\"doctor\"], got {}",
                            a_type(v.get_ref())
                        );
                        self.report_span(v.span(), msg);
                        continue;
                    };
                    for item in items.iter() {
                        if let Some(r) = self.role(item, key) {
                            self.place(format!("borrowed.{}", self.sc.carry.borrowed.len()), item.span().start);
                            self.sc.carry.borrowed.push(r);
                        }
                    }
                }
                "bandits_known" => {
                    let bad = |v: &DeValue<'_>| {
                        format!(
                            "`bandits_known` must be an array of seat pairs, e.g. bandits_known = [[3, 7]], got {}",
                            a_type(v)
                        )
                    };
                    let DeValue::Array(items) = v.get_ref() else {
                        self.report_span(v.span(), bad(v.get_ref()));
                        continue;
                    };
                    for item in items.iter() {
                        match item.get_ref() {
                            DeValue::Array(pair) if pair.len() == 2 => {
                                let a = self.seat(&pair[0], key);
                                let b = self.seat(&pair[1], key);
                                if let (Some(a), Some(b)) = (a, b) {
                                    self.place(
                                        format!("bandits_known.{}", self.sc.carry.bandits_known.len()),
                                        item.span().start,
                                    );
                                    self.sc.carry.bandits_known.push((a, b));
                                }
                            }
                            DeValue::Array(pair) => self.report_span(
                                item.span(),
                                format!("`bandits_known`: a pair names two seats, got {}", pair.len()),
                            ),
                            other => self.report_span(item.span(), bad(other)),
                        }
                    }
                }
                _ if self.carry_extra.contains(&key) => {}
                _ => {
                    let known: Vec<&str> = CARRY_KEYS.iter().chain(self.carry_extra).copied().collect();
                    self.report_span(
                        k.span(),
                        format!("unknown key `{key}` in [carry] (known keys: {})", known.join(", ")),
                    )
                }
            }
            // A dropped death or appointment changes who acts as what (E12, E14):
            // the engine would refuse moves for the wrong reason.
            if self.problems.len() > before && matches!(key, "dead" | "actor" | "deputy") {
                self.engine_safe = false;
            }
        }
        // E15: the last heal belongs to whoever acts as the Doctor: the Deputy
        // when `deputy = "doctor"`, else the Doctor.
        if let Some((t, at, key_at)) = last_heal {
            let deputy = self.sc.carry.acting.iter().find(|&&(_, r)| r == Role::Doctor).map(|&(s, _)| s);
            match deputy.or_else(|| self.holder(Role::Doctor)) {
                Some(doc) => {
                    self.place(format!("last_targets.{}", self.sc.carry.last_targets.len()), at);
                    self.sc.carry.last_targets.push((doc, t));
                }
                None if self.roles.is_some() => {
                    self.report(key_at, "`last_heal`: no seat holds the doctor (E15)".into())
                }
                None => {}
            }
        }
    }

    fn read_moves(&mut self, v: &Val<'_>) {
        let DeValue::Array(items) = v.get_ref() else {
            let msg = format!("`move` must be [[move]] tables, got {}", a_type(v.get_ref()));
            return self.report_span(v.span(), msg);
        };
        for item in items.iter() {
            let DeValue::Table(t) = item.get_ref() else {
                let msg =
                    format!("a move must be a table like {{ seat = 3, target = 7 }}, got {}", a_type(item.get_ref()));
                self.report_span(item.span(), msg);
                continue;
            };
            let i = self.sc.moves.len();
            let mut choice = mafia_engine::NightChoice::default();
            let mut seat = None;
            let mut complete = true;
            let mut places = vec![(format!("moves.{i}"), item.span().start)];
            for (k, v) in entries(t) {
                let key = k.get_ref().as_ref();
                if MOVE_KEYS.contains(&key) {
                    places.push((format!("moves.{i}.{key}"), entry_start(k, v)));
                }
                let ok = match key {
                    "seat" => {
                        seat = self.seat(v, "seat");
                        seat.is_some()
                    }
                    "target" => {
                        choice.act = self.seat(v, "target");
                        choice.act.is_some()
                    }
                    "second" => {
                        choice.second = self.seat(v, "second");
                        choice.second.is_some()
                    }
                    "kill" => {
                        choice.kill = self.seat(v, "kill");
                        choice.kill.is_some()
                    }
                    "search" => {
                        choice.search = self.seat(v, "search");
                        choice.search.is_some()
                    }
                    "borrow" => {
                        choice.borrow = self.role(v, "borrow");
                        choice.borrow.is_some()
                    }
                    _ => {
                        self.report_span(
                            k.span(),
                            format!("unknown key `{key}` in a move (known keys: {})", MOVE_KEYS.join(", ")),
                        );
                        false
                    }
                };
                complete &= ok;
            }
            if seat.is_none() && !t.iter().any(|(k, _)| k.get_ref() == "seat") {
                self.report_span(item.span(), "a move needs `seat`: who makes it".into());
            }
            if let (Some(s), true) = (seat, complete) {
                for (path, at) in places {
                    self.place(path, at);
                }
                self.sc.moves.push((s, choice));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mafia_engine::MoveError;

    fn errors(text: &str) -> Vec<Diagnostic> {
        match parse_scenario("scenarios/test.toml", text).and_then(|f| f.resolve().map(|_| ())) {
            Ok(()) => panic!("expected errors for:\n{text}"),
            Err(e) => e.diagnostics,
        }
    }

    fn has(ds: &[Diagnostic], line: usize, needle: &str) -> bool {
        ds.iter().any(|d| d.line == line && d.message.contains(needle))
    }

    #[test]
    fn every_move_error_names_the_key_it_is_about() {
        let cases = [
            (MoveError::Dead, "seat"),
            (MoveError::NotAShooter, "kill"),
            (MoveError::UnappointedActor, "kill"),
            (MoveError::KillTarget(Seat::new(3)), "kill"),
            (MoveError::NoMove(Role::Citizen), "target"),
            (MoveError::BorrowMissing, "target"),
            (MoveError::NotABorrower(Role::Doctor), "borrow"),
            (MoveError::BorrowNightOne, "borrow"),
            (MoveError::CannotBorrow(Role::Lucky), "borrow"),
            (MoveError::MissingTarget, "target"),
            (MoveError::UnexpectedSecond, "second"),
            (MoveError::Target { target: Seat::new(2), why: "x" }, "target"),
            (MoveError::Second { target: Seat::new(2), why: "x" }, "second"),
            (MoveError::NotABandit, "search"),
            (MoveError::SearchTarget(Seat::new(1)), "search"),
        ];
        for (e, field) in cases {
            let message = format!("seat 4 (thief): {e}");
            assert_eq!(move_field(&message), Some(field), "{message}");
        }
        // A missing second target is a problem of the whole move.
        assert_eq!(move_field(&format!("seat 1 (swindler): {}", MoveError::MissingSecond)), None);
        assert_eq!(move_field("seat 2 has two entries"), Some("seat"));
    }

    const GOOD: &str = r#"name = "probe"
night = 2
seats = ["boss", "thief", "psycho", "doctor", "citizen", "citizen", "detective", "witch"]
[rules]
resolution = "sequential"
[carry]
dead = [6]
hexed = ["detective"]
guest = 5
last_heal = 4
[[move]]
seat = "thief"
target = "psycho"
[[move]]
seat = 1
kill = 4
target = 3
"#;

    #[test]
    fn a_good_file_reads_into_the_scenario() {
        let f = parse_scenario("scenarios/probe-file.toml", GOOD).unwrap();
        let sc = &f.scenario;
        assert_eq!(sc.name, "probe");
        assert_eq!(sc.night, 2);
        assert_eq!(sc.roles.len(), 8);
        assert_eq!(sc.roles[2], Role::Psycho);
        assert_eq!(sc.rules.resolution, mafia_engine::Resolution::Sequential);
        assert_eq!(sc.carry.dead, [Seat::new(5)]);
        assert_eq!(sc.carry.hexed, [Seat::new(6)]);
        assert_eq!(sc.carry.guest, Some(Seat::new(4)));
        assert_eq!(sc.carry.last_targets, [(Seat::new(3), Seat::new(3))]);
        assert_eq!(sc.moves.len(), 2);
        assert_eq!(sc.moves[0].0, Seat::new(1));
        assert_eq!(sc.moves[0].1.act, Some(Seat::new(2)));
        assert_eq!(sc.moves[1].1.kill, Some(Seat::new(3)));
        let r = f.resolve().unwrap();
        assert!(r.result.killed.contains(Seat::new(4)), "the unhealed guest dies (E23)");
    }

    #[test]
    fn the_name_defaults_to_the_file_stem() {
        let f = parse_scenario("x/my-night.toml", "seats = [\"mafioso\", \"citizen\", \"citizen\", \"citizen\"]\n")
            .unwrap();
        assert_eq!(f.scenario.name, "my-night");
        assert_eq!(f.scenario.night, 1);
    }

    #[test]
    fn parse_problems_are_reported_at_once_with_their_lines() {
        let text = r#"seats = ["boss", "werewolf", "citizen"]
colour = "red"
night = "two"
[carry]
dead = 3
nope = 1
[[move]]
seat = 1
target = 99
[[move]]
target = 2
"#;
        let ds = errors(text);
        assert!(has(&ds, 1, "unknown role `werewolf`"), "{ds:#?}");
        assert!(has(&ds, 2, "unknown key `colour`"), "{ds:#?}");
        assert!(has(&ds, 3, "`night` must be an integer"), "{ds:#?}");
        assert!(has(&ds, 5, "`dead` must be an array"), "{ds:#?}");
        assert!(has(&ds, 6, "unknown key `nope` in [carry]"), "{ds:#?}");
        assert!(has(&ds, 9, "seat 99 does not exist"), "{ds:#?}");
        assert!(has(&ds, 10, "a move needs `seat`"), "{ds:#?}");
        assert_eq!(ds.len(), 7, "{ds:#?}");
    }

    #[test]
    fn engine_problems_point_at_their_items() {
        let text = r#"seats = ["boss", "thief", "citizen", "doctor", "citizen"]
night = 2
[carry]
dead = [3,
  3]
guest = 2
[[move]]
seat = 3
target = 1
"#;
        let ds = errors(text);
        assert!(has(&ds, 5, "listed twice"), "{ds:#?}");
        assert!(has(&ds, 6, "needs a Psycho"), "{ds:#?}");
        assert_eq!(ds.len(), 2, "{ds:#?}");
        // Issue 35: on night 1 the guest is refused as carried from before the game.
        let ds = errors(&text.replace("night = 2", "night = 1"));
        assert!(has(&ds, 6, "night 1 has no night before it"), "{ds:#?}");

        let text = "seats = [\"boss\", \"thief\", \"citizen\", \"doctor\", \"citizen\"]\n[carry]\ndead = [3]\n\
                    [[move]]\nseat = 3\n\n[[move]]\nseat = 2\ntarget = 2\n[[move]]\nseat = 4\nkill = 1\n";
        let ds = errors(text);
        assert!(has(&ds, 5, "dead"), "{ds:#?}");
        assert!(has(&ds, 9, "target 2 is not allowed"), "{ds:#?}");
        assert!(has(&ds, 12, "kill nick"), "{ds:#?}");
    }

    #[test]
    fn seats_named_by_role_must_be_unique_holders() {
        let ds = errors(
            "seats = [\"mafioso\", \"mafioso\", \"citizen\", \"citizen\", \"citizen\", \"citizen\"]\n[[move]]\nseat = \"mafioso\"\nkill = \"doctor\"\n",
        );
        assert!(has(&ds, 3, "2 seats hold the mafioso (1, 2)"), "{ds:#?}");
        assert!(has(&ds, 4, "no seat holds the doctor"), "{ds:#?}");
    }

    #[test]
    fn a_duplicate_unique_role_points_at_its_second_seat() {
        let ds = errors("seats = [\"boss\",\n  \"citizen\",\n  \"boss\", \"citizen\", \"citizen\"]\n");
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert_eq!((ds[0].line, ds[0].col), (3, 3), "{ds:#?}");
        assert!(ds[0].message.contains("at most one boss"), "{ds:#?}");
    }

    #[test]
    fn syntax_errors_give_a_line_and_keep_other_problems() {
        let ds = errors("seats = [\"boss\", \"citizen\", \"citizen\"]\nnight = 2x\nfoo = 1\n");
        assert!(has(&ds, 2, "invalid TOML"), "{ds:#?}");
        assert!(has(&ds, 3, "unknown key `foo`"), "{ds:#?}");
    }
}
