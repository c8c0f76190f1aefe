//! Setup files: a TOML file naming the roles, the rule settings, the night
//! order and the strategies, read into the engine's unchecked [`Setup`] plus
//! an agents assignment.
//!
//! Every problem is reported at once, each with the line and column (1-based)
//! it comes from: TOML syntax errors, unknown keys, values of the wrong type,
//! values refused by [`Rules::set`] (the one parser of rule values), unknown
//! night steps, unknown strategies, parameters and values (the strategy
//! catalogue's checks, `mafia_agents::STRATEGIES`), a strategy that does not
//! play its key, agents for a role the setup does not deal and, when all of
//! that is fine, the problems [`Game::new`] finds with the counts (located
//! at the key they name).
//!
//! ```toml
//! name = "forum-16"            # optional; default: the file stem
//! base = "classic"             # optional: start from a built-in preset's roles
//! # Optional, E30: the night order, every step once, "start" first. Steps:
//! # start, control, protection, information, kills, marks, watchers
//! # (`mafia night-order` prints what each does). Default: that order.
//! night_order = ["start", "control", "protection", "information", "kills", "marks", "watchers"]
//!
//! [roles]                      # role = count; named roles at most once
//! # classic (classic.md):  citizen, commissar, mafioso, don
//! # mafia (extended.md):   boss, thief, guard, swindler, actor
//! # town:                  detective, deputy, doctor, chosen, journalist, witch,
//! #                        prostitute (or role-prostitute), lucky, shooter, sleepwalker
//! # bandits:               psycho, miner, thug, scout, trickster
//! # Plain players (citizen, mafioso) may be any number.
//! don = 1
//! mafioso = 3
//! commissar = 1
//! citizen = 8
//!
//! [rules]                      # see `mafia rules` for every key, value and default
//! no_kill_limit = 3            # integer, "off" or "auto"
//! tie_break = "catastrophe"
//! absence = 0.05
//! first_day_pardon = true
//! mafia_win = "auto"           # parity | elimination | auto
//! camp_kill = "auto"           # unanimous | leader | auto (C4, E8)
//! resolution = "graph"         # graph | sequential (E29)
//! blast_heal = false           # E24
//! chosen_secret_votes = 2      # E16
//!
//! [agents]                     # `mafia strategies` lists them, with parameters
//! default = "forum"            # every seat
//! mafia = "mafia:bus=0.25"     # a camp: town | mafia | bandits; NAME:PARAM=VALUE…
//! don = "random"               # a role the setup deals (overrides the camp)
//! commissar = { strategy = "reveal", on = "first-mafia", by_day = 3 }
//! ```

use super::diagnostics::{
    Diagnostic, FileError, LineIndex, Problems, Syntax, beside, in_file_order, parse, stem_name, unreadable,
};
use super::toml_text::{Key, Val, a_or_an, entries, entry_start, role_names, rule_text};
use mafia_agents::{Config, Lineup, LineupError, StrategyInfo, parse_spec};
use mafia_engine::{Camp, Game, NIGHT_ORDER, NightStep, PRESETS, Preset, RULE_KEYS, Role, RuleError, Rules, Setup};
use std::ops::Range;
use std::path::Path;
use toml::de::{DeTable, DeValue};

/// The top-level keys a setup file may have.
const TOP_KEYS: [&str; 6] = ["name", "base", "night_order", "roles", "rules", "agents"];

/// Counts above this are refused before they reach the engine, so the sum of
/// all counts cannot overflow.
const MAX_COUNT: u64 = u32::MAX as u64;

/// A setup file, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupFile {
    /// The setup; [`Game::new`] accepts it.
    pub setup: Setup,
    /// `(key, spec)` pairs of the `[agents]` table in file order; a key is
    /// `default`, a camp name or a role name, a spec `NAME[:PARAM=VALUE…]`
    /// (checked: [`Lineup::set`] accepts it).
    pub agents: Vec<(String, String)>,
    /// The preset named by `base`: the file's seats start from its default
    /// lineup ([`mafia_agents::Lineup::for_preset`]), then `[agents]` applies.
    pub base: Option<&'static str>,
}

/// Reads and checks a setup file. An I/O error is one diagnostic at 1:1. The
/// setup's name defaults to the file stem.
pub fn load_setup(path: &Path, strategies: &[&str]) -> Result<SetupFile, FileError> {
    let label = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => parse_setup(&label, &text, strategies),
        Err(e) => Err(unreadable(&label, format!("cannot read the setup file: {e}"))),
    }
}

/// Parses and checks the text of a setup file. `file_label` names the file in
/// the diagnostics, and its stem is the setup's name unless the file gives
/// one; `strategies` are the valid strategy names.
pub fn parse_setup(file_label: &str, text: &str, strategies: &[&str]) -> Result<SetupFile, FileError> {
    let lines = LineIndex::new(text);
    let (doc, syntax) = parse(text, &lines, Syntax::All);
    let mut reader = Reader { problems: Problems::new(&lines) };
    let (setup, agents, base) = reader.read(&doc, file_label, strategies);

    let diagnostics = if syntax.is_empty() {
        let mut diagnostics = reader.problems.diagnostics;
        let clean = diagnostics.is_empty();
        if let Err(e) = Game::new(&setup) {
            for p in e.problems {
                // With other problems in the file the counts may be partial
                // (an unknown role was dropped), so only problems of one named
                // key (`roles.don`) are sure; whole-table ones wait for a clean file.
                if !clean && !p.path.contains('.') {
                    continue;
                }
                let (line, col) = locate_path(&doc, &p.path).map_or((1, 1), |at| lines.locate(at));
                diagnostics.push(Diagnostic { line, col, message: p.message });
            }
        }
        diagnostics
    } else {
        // The document was recovered from syntax errors.
        beside(syntax, reader.problems.diagnostics)
    };
    in_file_order(file_label, diagnostics)?;
    Ok(SetupFile { setup, agents, base })
}

fn find<'t, 'i>(table: &'t DeTable<'i>, key: &str) -> Option<(&'t Key<'i>, &'t Val<'i>)> {
    table.iter().find(|(k, _)| k.get_ref().as_ref() == key)
}

/// The byte offset of an engine problem's path (`roles`, `roles.don`,
/// `rules.absence`): the deepest key of the path present in the file; for a
/// role count that comes from a preset, the `base` key.
fn locate_path(doc: &DeTable<'_>, path: &str) -> Option<usize> {
    let mut table = Some(doc);
    let mut found = None;
    for segment in path.split('.') {
        let Some((k, v)) = table.and_then(|t| find(t, segment)) else {
            break;
        };
        found = Some(if found.is_none() { entry_start(k, v) } else { k.span().start });
        table = match v.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => None,
        };
    }
    found.or_else(|| {
        if path == "roles" || path.starts_with("roles.") {
            find(doc, "base").map(|(k, _)| k.span().start)
        } else {
            None
        }
    })
}

fn step_keys() -> String {
    NIGHT_ORDER.iter().map(|s| format!("\"{}\"", s.key())).collect::<Vec<_>>().join(", ")
}

fn camp_names() -> String {
    Camp::ALL.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
}

/// TOML puts a key written after `[roles]` into that table; say where
/// `night_order` belongs instead of calling it an unknown role or rule.
fn misplaced_night_order(table: &str) -> String {
    format!("`night_order` is a top-level key: move it above the first table (it is read here as part of [{table}])")
}

/// Reads a parsed document, collecting diagnostics.
struct Reader<'a> {
    problems: Problems<'a>,
}

impl Reader<'_> {
    fn report(&mut self, at: usize, message: String) {
        self.problems.at(at, message);
    }

    fn report_span(&mut self, span: Range<usize>, message: String) {
        self.problems.at_span(span, message);
    }

    fn read(
        &mut self,
        doc: &DeTable<'_>,
        file_label: &str,
        strategies: &[&str],
    ) -> (Setup, Vec<(String, String)>, Option<&'static str>) {
        let stem = stem_name(Path::new(file_label)).unwrap_or_else(|| file_label.to_string());
        let mut name = stem;
        let mut base: Option<&'static Preset> = None;
        let mut roles = None;
        let mut rules = None;
        let mut agents = None;
        let mut night_order = None;

        for (k, v) in entries(doc) {
            let key = k.get_ref().as_ref();
            match key {
                "name" => match v.get_ref() {
                    DeValue::String(s) if s.trim().is_empty() => {
                        self.report_span(v.span(), "`name` must not be empty".to_string())
                    }
                    DeValue::String(s) => name = s.to_string(),
                    other => self.report_span(
                        v.span(),
                        format!("`name` must be a string, got {} {}", a_or_an(other.type_str()), other.type_str()),
                    ),
                },
                "base" => match v.get_ref() {
                    DeValue::String(s) => match Preset::find(s) {
                        Some(p) => base = Some(p),
                        None => {
                            let known: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
                            self.report_span(v.span(), format!("unknown preset `{s}` (presets: {})", known.join(", ")))
                        }
                    },
                    other => self.report_span(
                        v.span(),
                        format!("`base` must be a preset name, got {} {}", a_or_an(other.type_str()), other.type_str()),
                    ),
                },
                "night_order" => night_order = self.read_night_order(v),
                "roles" | "rules" | "agents" => match v.get_ref() {
                    DeValue::Table(t) => match key {
                        "roles" => roles = Some(t),
                        "rules" => rules = Some(t),
                        _ => agents = Some(t),
                    },
                    other => self.report(
                        entry_start(k, v),
                        format!("`{key}` must be a table, got {} {}", a_or_an(other.type_str()), other.type_str()),
                    ),
                },
                _ => {
                    self.report(entry_start(k, v), format!("unknown key `{key}` (known keys: {})", TOP_KEYS.join(", ")))
                }
            }
        }

        let mut setup = match base {
            Some(p) => {
                let mut s = p.setup();
                s.name = name;
                s
            }
            None => Setup::new(&name),
        };
        setup.night_order = night_order;
        let before = self.problems.len();
        if let Some(t) = roles {
            self.read_roles(t, &mut setup);
        }
        let roles_ok = self.problems.len() == before;
        if let Some(t) = rules {
            self.read_rules(t, &mut setup.rules);
        }
        let agents = agents.map_or_else(Vec::new, |t| self.read_agents(t, strategies, &setup, roles_ok));
        (setup, agents, base.map(|p| p.name))
    }

    /// E30: `night_order = ["start", "control", …]`, every step once, the
    /// start of night first. Each problem points at the element it is about;
    /// `None` unless the whole list is good (so the engine does not report
    /// the same list again).
    fn read_night_order(&mut self, value: &Val<'_>) -> Option<Vec<NightStep>> {
        let DeValue::Array(items) = value.get_ref() else {
            let t = value.get_ref().type_str();
            self.report_span(
                value.span(),
                format!("`night_order` must be an array of step names ({}), got {} {t}", step_keys(), a_or_an(t)),
            );
            return None;
        };
        let mut steps = Vec::with_capacity(NIGHT_ORDER.len());
        let mut ok = true;
        for item in items.iter() {
            let step = match item.get_ref() {
                DeValue::String(name) => match NightStep::from_key(name) {
                    Some(step) => step,
                    None => {
                        self.report_span(item.span(), format!("unknown night step `{name}` (steps: {})", step_keys()));
                        ok = false;
                        continue;
                    }
                },
                other => {
                    let t = other.type_str();
                    self.report_span(item.span(), format!("a night step must be a string, got {} {t}", a_or_an(t)));
                    ok = false;
                    continue;
                }
            };
            if steps.contains(&step) {
                self.report_span(item.span(), format!("night step `{}` is named twice", step.key()));
                ok = false;
            } else if steps.is_empty() && step != NightStep::StartOfNight && ok {
                self.report_span(
                    item.span(),
                    format!("the night order must begin with \"start\" (E30.1), not `{}`", step.key()),
                );
                ok = false;
            }
            steps.push(step);
        }
        if !ok {
            return None;
        }
        let missing: Vec<String> =
            NIGHT_ORDER.iter().filter(|s| !steps.contains(s)).map(|s| format!("\"{}\"", s.key())).collect();
        if !missing.is_empty() {
            self.report_span(
                value.span(),
                format!(
                    "`night_order` must name each of the {} steps once; missing {}",
                    NIGHT_ORDER.len(),
                    missing.join(", ")
                ),
            );
            return None;
        }
        Some(steps)
    }

    fn read_roles(&mut self, table: &DeTable<'_>, setup: &mut Setup) {
        for (k, v) in entries(table) {
            let key = k.get_ref().as_ref();
            if key == "night_order" {
                self.report_span(k.span(), misplaced_night_order("roles"));
                continue;
            }
            let Some(role) = Role::from_name(key) else {
                self.report_span(k.span(), format!("unknown role `{key}` (known roles: {})", role_names()));
                continue;
            };
            let count = match v.get_ref() {
                DeValue::Integer(i) => match i128::from_str_radix(i.as_str(), i.radix()) {
                    Ok(n) if n < 0 => Err(format!("count of `{key}` must be a non-negative integer, got {n}")),
                    Ok(n) if n > MAX_COUNT as i128 => Err(format!("count of `{key}` is too large ({n})")),
                    Ok(n) => Ok(n as u64),
                    Err(_) => Err(format!("count of `{key}` is too large ({i})")),
                },
                other => Err(format!(
                    "count of `{key}` must be a non-negative integer, got {} {}",
                    a_or_an(other.type_str()),
                    other.type_str()
                )),
            };
            match count {
                Ok(n) => setup.counts[role as usize] = n,
                Err(message) => self.report_span(v.span(), message),
            }
        }
    }

    fn read_rules(&mut self, table: &DeTable<'_>, rules: &mut Rules) {
        for (k, v) in entries(table) {
            let key = k.get_ref().as_ref();
            if key == "night_order" {
                self.report_span(k.span(), misplaced_night_order("rules"));
                continue;
            }
            let Some(text) = rule_text(v.get_ref()) else {
                let t = v.get_ref().type_str();
                match RULE_KEYS.iter().find(|r| r.name == key) {
                    Some(r) => self
                        .report_span(v.span(), format!("rule `{key}`: expected {}, got {} {t}", r.values, a_or_an(t))),
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
    }

    /// `[agents]`: each key (`default`, a camp or a role) names a strategy,
    /// as a spec string (`"reveal"`, `"reveal:on=at-once"`) or a table
    /// (`{ strategy = "reveal", on = "first-mafia", by_day = 3 }`, values
    /// strings, numbers or booleans). Every problem is reported where it is:
    /// an unknown key or a role the setup does not deal at the key, an
    /// unknown strategy or one that does not play the key at the strategy,
    /// an unknown parameter at its name, a bad value at the value. Returns
    /// `(key, spec)` pairs in file order, each spec `NAME[:PARAM=VALUE…]`.
    fn read_agents(
        &mut self,
        table: &DeTable<'_>,
        strategies: &[&str],
        setup: &Setup,
        roles_ok: bool,
    ) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (k, v) in entries(table) {
            let key = k.get_ref().as_ref();
            let seat_key = key.strip_prefix("seat").and_then(|n| n.parse::<usize>().ok());
            // A camp's alternative of a mix: `"mafia@0.3" = "forum:fake=1"`.
            let share_key = key.split_once('@').filter(|(c, _)| Camp::from_name(c).is_some());
            if let Some((_, share)) = share_key
                && let Err(why) = mafia_agents::parse_share(share)
            {
                self.report_span(k.span(), format!("`{key}`: {why}"));
                continue;
            }
            let key_ok = key == "default"
                || Camp::from_name(key).is_some()
                || share_key.is_some()
                || Role::from_name(key).is_some()
                || seat_key.is_some_and(|n| (1..=mafia_engine::MAX_PLAYERS).contains(&n));
            if !key_ok {
                self.report_span(
                    k.span(),
                    format!(
                        "unknown agents key `{key}` (expected `default`, a camp: {}, a camp's alternative: CAMP@SHARE, a role: {}, or a seat: seat1, seat2, …)",
                        camp_names(),
                        role_names()
                    ),
                );
            } else if let Some(role) = Role::from_name(key) {
                // With a bad [roles] table the counts are partial: say nothing then.
                if roles_ok && setup.counts[role as usize] == 0 {
                    let e = LineupError::AbsentRole { key: role.name().to_string() };
                    self.report_span(k.span(), e.to_string());
                }
            }
            let Some(choice) = self.agent_choice(key, v) else { continue };
            // An external agent (`ext:COMMAND`) is checked when the lineup registers it.
            if !strategies.contains(&choice.name.as_str()) && mafia_agents::ext_command(&choice.name).is_none() {
                let known =
                    if strategies.is_empty() { "none are available".to_string() } else { strategies.join(", ") };
                self.report_span(
                    choice.name_span,
                    format!(
                        "unknown strategy `{}` (known strategies: {known}; `mafia strategies` lists them)",
                        choice.name
                    ),
                );
                continue;
            }
            let mut ok = key_ok;
            if StrategyInfo::find(&choice.name).is_some() {
                // The catalogue's checks, each reported: the strategy for
                // the key, then every parameter and its value.
                if key_ok && let Err(e) = Lineup::default().set_with(key, &choice.name, &[]) {
                    self.report_span(choice.name_span.clone(), e.to_string());
                    ok = false;
                }
                let info = StrategyInfo::find(&choice.name).expect("a catalogue strategy");
                let accepted = info.accepted();
                for (name, value, name_span, value_span) in &choice.params {
                    if !accepted.iter().any(|p| p.name == name) {
                        let e = LineupError::UnknownParam {
                            strategy: choice.name.clone(),
                            param: name.clone(),
                            known: accepted.iter().map(|p| p.name.to_string()).collect(),
                        };
                        self.report_span(name_span.clone(), e.to_string());
                        ok = false;
                    } else if let Err(bad) = Config::default().set(name, value) {
                        let e = LineupError::BadValue {
                            strategy: choice.name.clone(),
                            param: name.clone(),
                            value: value.clone(),
                            expected: bad.expected,
                        };
                        self.report_span(value_span.clone(), e.to_string());
                        ok = false;
                    }
                }
            } else if let Some((name, _, name_span, _)) = choice.params.first() {
                // A plugin strategy: its parameters are its own business.
                self.report_span(
                    name_span.clone(),
                    format!("strategy `{}` takes no parameters (`{name}`)", choice.name),
                );
                ok = false;
            }
            if ok {
                let mut spec = choice.name.clone();
                for (name, value, _, _) in &choice.params {
                    spec.push_str(&format!(":{name}={value}"));
                }
                out.push((key.to_string(), spec));
            }
        }
        out
    }

    /// The strategy and parameters of one `[agents]` entry, as written; a
    /// problem of form (a wrong type, a spec that does not parse) is
    /// reported and gives `None`.
    fn agent_choice(&mut self, key: &str, v: &Val<'_>) -> Option<AgentChoice> {
        match v.get_ref() {
            DeValue::String(s) => match parse_spec(s) {
                Ok((name, params)) => Some(AgentChoice {
                    name,
                    name_span: v.span(),
                    params: params.into_iter().map(|(n, x)| (n, x, v.span(), v.span())).collect(),
                }),
                Err(e) => {
                    self.report_span(v.span(), format!("strategy for `{key}`: {e}"));
                    None
                }
            },
            DeValue::Table(t) => {
                let mut name = None;
                let mut params = Vec::new();
                let mut ok = true;
                for (pk, pv) in entries(t) {
                    let pname = pk.get_ref().as_ref();
                    if pname == "strategy" {
                        match pv.get_ref() {
                            DeValue::String(s) if !s.trim().is_empty() => {
                                name = Some((s.trim().to_string(), pv.span()))
                            }
                            other => {
                                let t = other.type_str();
                                self.report_span(
                                    pv.span(),
                                    format!("`strategy` of `{key}` must be a strategy name, got {} {t}", a_or_an(t)),
                                );
                                ok = false;
                            }
                        }
                        continue;
                    }
                    match rule_text(pv.get_ref()) {
                        Some(text) => params.push((pname.to_string(), text, pk.span(), pv.span())),
                        None => {
                            let t = pv.get_ref().type_str();
                            self.report_span(
                                pv.span(),
                                format!(
                                    "parameter `{pname}` of `{key}` must be a string, a number or a boolean, got {} {t}",
                                    a_or_an(t)
                                ),
                            );
                            ok = false;
                        }
                    }
                }
                let Some((name, name_span)) = name else {
                    if ok {
                        self.report_span(
                            v.span(),
                            format!("`{key}` names no strategy: write {key} = {{ strategy = \"NAME\", … }}"),
                        );
                    }
                    return None;
                };
                ok.then_some(AgentChoice { name, name_span, params })
            }
            other => {
                self.report_span(
                    v.span(),
                    format!(
                        "strategy for `{key}` must be a string or a table, got {} {}",
                        a_or_an(other.type_str()),
                        other.type_str()
                    ),
                );
                None
            }
        }
    }
}

/// One `[agents]` entry as written: the strategy's name and each parameter
/// with its value, with where they are in the file.
struct AgentChoice {
    name: String,
    name_span: Range<usize>,
    /// `(name, value, name's span, value's span)`, in file order.
    params: Vec<(String, String, Range<usize>, Range<usize>)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use mafia_engine::{MafiaWin, ROLE_INFO, TieBreak};

    const STRATEGIES: &[&str] = &["random", "classic"];

    fn parse(text: &str) -> Result<SetupFile, FileError> {
        parse_setup("setups/test.toml", text, STRATEGIES)
    }

    fn errors(text: &str) -> Vec<Diagnostic> {
        match parse(text) {
            Ok(f) => panic!("expected errors, got {f:?}"),
            Err(e) => e.diagnostics,
        }
    }

    /// The diagnostic on `line` whose message contains `needle`.
    fn has(ds: &[Diagnostic], line: usize, needle: &str) -> bool {
        ds.iter().any(|d| d.line == line && d.message.contains(needle))
    }

    #[test]
    fn a_duplicate_unique_role_is_reported_beside_other_problems() {
        let ds = errors("[roles]\ndon = 2\nsheriff = 1\nmafioso = 1\ncitizen = 5\n[rules]\nabsence = 1.5\n");
        assert!(has(&ds, 2, "at most one don"), "{ds:?}");
        assert!(has(&ds, 3, "unknown role `sheriff`"), "{ds:?}");
        assert!(has(&ds, 7, "absence"), "{ds:?}");
        assert_eq!(ds.len(), 3, "{ds:?}");
    }

    const GOOD: &str = r#"name = "classic-13"
[roles]
don = 1
mafioso = 3
commissar = 1
citizen = 8

[rules]
no_kill_limit = "off"
tie_break = "random"
absence = 0.05
first_day_pardon = false
day_cap = 0x20

[agents]
default = "classic"
mafia = "random"
don = "classic"
"#;

    #[test]
    fn a_good_file_parses() {
        let f = parse(GOOD).unwrap();
        let s = &f.setup;
        assert_eq!(s.name, "classic-13");
        assert_eq!(s.counts[Role::Don as usize], 1);
        assert_eq!(s.counts[Role::Mafioso as usize], 3);
        assert_eq!(s.counts[Role::Commissar as usize], 1);
        assert_eq!(s.counts[Role::Citizen as usize], 8);
        assert_eq!(s.players(), 13);
        assert_eq!(s.rules.no_kill_limit, mafia_engine::NoKillLimit::Off);
        assert_eq!(s.rules.tie_break, TieBreak::Random);
        assert_eq!(s.rules.absence, 0.05);
        assert!(!s.rules.first_day_pardon);
        assert_eq!(s.rules.day_cap, 32);
        assert_eq!(s.rules.mafia_win, MafiaWin::Auto, "untouched rules keep their defaults");
        let agents: Vec<(&str, &str)> = f.agents.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(agents, [("default", "classic"), ("mafia", "random"), ("don", "classic")]);
        assert!(Game::new(s).is_ok());
    }

    #[test]
    fn name_defaults_to_the_file_stem() {
        let f = parse("[roles]\nmafioso = 1\ncitizen = 3\n").unwrap();
        assert_eq!(f.setup.name, "test");
        assert!(f.agents.is_empty());
        assert_eq!(f.setup.rules, Rules::default());
    }

    #[test]
    fn several_problems_are_reported_at_once_with_their_lines() {
        let text = r#"[roles]
don = 1
werewolf = 2
citizen = 6

[rules]
absence = 1.5
no_kill_limit = 3

[agents]
default = "clever"
"#;
        let e = parse(text).unwrap_err();
        let ds = &e.diagnostics;
        assert_eq!(ds.len(), 3, "{e}");
        assert_eq!(ds[0], Diagnostic { line: 3, col: 1, message: ds[0].message.clone() });
        assert!(ds[0].message.contains("unknown role `werewolf`"), "{e}");
        assert!(ds[0].message.contains("citizen, commissar, mafioso, don"), "{e}");
        assert_eq!((ds[1].line, ds[1].col), (7, 11), "{e}");
        assert!(ds[1].message.contains("absence") && ds[1].message.contains("1.5"), "{e}");
        assert_eq!((ds[2].line, ds[2].col), (11, 11), "{e}");
        assert!(ds[2].message.contains("unknown strategy `clever`"), "{e}");
        assert!(ds[2].message.contains("random, classic"), "{e}");
        let shown = e.to_string();
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("setups/test.toml:3:1: unknown role"), "{shown}");
        assert!(lines[2].starts_with("setups/test.toml:11:11: unknown strategy"), "{shown}");
    }

    #[test]
    fn keys_and_types_are_checked() {
        let text = r#"name = 7
base = "nope"
colour = "red"
[roles]
citizen = -1
mafioso = 2.0
don = "one"
[rules]
speed = 3
tie_break = 3
day_cap = [1]
no_kill_limit = 3.0
first_day_pardon = "maybe"
[agents]
bandits = "random"
godfather = "random"
town = 1
"#;
        let ds = errors(text);
        assert!(has(&ds, 1, "`name` must be a string, got an integer"), "{ds:#?}");
        assert!(has(&ds, 2, "unknown preset `nope` (presets: classic, classic-13, extended, forum-16"), "{ds:#?}");
        assert!(has(&ds, 3, "unknown key `colour`"), "{ds:#?}");
        assert!(has(&ds, 5, "non-negative integer, got -1"), "{ds:#?}");
        assert!(has(&ds, 6, "non-negative integer, got a float"), "{ds:#?}");
        assert!(has(&ds, 7, "non-negative integer, got a string"), "{ds:#?}");
        assert!(has(&ds, 9, "unknown rule `speed`"), "{ds:#?}");
        assert!(has(&ds, 10, "rule `tie_break`"), "{ds:#?}");
        assert!(has(&ds, 11, "rule `day_cap`: expected 1..=10000, got an array"), "{ds:#?}");
        assert!(has(&ds, 12, "rule `no_kill_limit`: `3.0` is not valid"), "{ds:#?}");
        assert!(has(&ds, 13, "rule `first_day_pardon`"), "{ds:#?}");
        assert!(has(&ds, 16, "unknown agents key `godfather`"), "{ds:#?}");
        assert!(has(&ds, 17, "strategy for `town` must be a string"), "{ds:#?}");
        assert_eq!(ds.len(), 13, "{ds:#?}");
        let sorted: Vec<usize> = ds.iter().map(|d| d.line).collect();
        assert!(sorted.is_sorted(), "diagnostics are in file order: {sorted:?}");
    }

    #[test]
    fn a_camps_mix_is_read_and_a_bad_share_points_at_its_key() {
        let f = parse("base = \"classic\"\n[agents]\n\"mafia@0.3\" = \"random\"\n\"town@1\" = \"classic\"\n").unwrap();
        assert_eq!(f.agents, vec![("mafia@0.3".into(), "random".into()), ("town@1".into(), "classic".into())]);
        let ds = errors("base = \"classic\"\n[agents]\n\"mafia@1.5\" = \"random\"\n\"sheriff@0.5\" = \"random\"\n");
        assert!(has(&ds, 3, "`mafia@1.5`: the share 1.5 is not in (0, 1]"), "{ds:#?}");
        assert!(has(&ds, 4, "unknown agents key `sheriff@0.5`"), "{ds:#?}");
        assert_eq!(ds.len(), 2, "{ds:#?}");
    }

    #[test]
    fn a_count_that_makes_no_game_points_at_the_roles_table() {
        let ds = errors("name = \"x\"\n\n[roles]\nmafioso = 5\ncitizen = 2\n");
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert_eq!((ds[0].line, ds[0].col), (3, 1));
        assert!(ds[0].message.contains("parity"), "{ds:#?}");
    }

    #[test]
    fn a_unique_role_twice_points_at_its_key() {
        let ds = errors("[roles]\ncitizen = 5\n  don = 2\n");
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert_eq!((ds[0].line, ds[0].col), (3, 3));
        assert!(ds[0].message.contains("at most one don"), "{ds:#?}");
    }

    #[test]
    fn too_many_players_are_refused() {
        let ds = errors("[agents]\ndefault = \"random\"\n[roles]\nmafioso = 3\ncitizen = 100\n");
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert_eq!((ds[0].line, ds[0].col), (3, 1));
        assert!(ds[0].message.contains("103 players"), "{ds:#?}");
    }

    #[test]
    fn an_inline_roles_table_is_located_at_its_key() {
        let ds = errors("name = \"x\"\nroles = { citizen = 4 }\n");
        // Town only (E2: the living all belong to one camp).
        assert!(has(&ds, 2, "all players are in one camp"), "{ds:#?}");
        assert_eq!(ds[0].col, 1);
    }

    #[test]
    fn toml_syntax_errors_give_a_line() {
        let ds = errors("name = \"x\"\n[roles]\ncitizen = 8x\nmafioso = 2\n");
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert_eq!((ds[0].line, ds[0].col), (3, 11));
        assert!(ds[0].message.starts_with("invalid TOML"), "{ds:#?}");

        let ds = errors("[roles]\ncitizen = 8\ncitizen = 9\n");
        assert_eq!(ds[0].line, 3, "{ds:#?}");
        assert!(ds[0].message.contains("duplicate key"), "{ds:#?}");
    }

    #[test]
    fn syntax_errors_do_not_hide_other_problems() {
        let ds = errors("[roles]\ncitizen = \nwerewolf = 1\n");
        assert!(has(&ds, 2, "invalid TOML"), "{ds:#?}");
        assert!(has(&ds, 3, "unknown role `werewolf`"), "{ds:#?}");
        assert_eq!(ds.len(), 2, "{ds:#?}");
    }

    #[test]
    fn a_base_preset_with_an_override() {
        let f = parse("base = \"classic\"\n[roles]\ncitizen = 7\n").unwrap();
        assert_eq!(f.setup.name, "test");
        assert_eq!(f.setup.counts[Role::Don as usize], 1);
        assert_eq!(f.setup.counts[Role::Mafioso as usize], 2);
        assert_eq!(f.setup.counts[Role::Commissar as usize], 1);
        assert_eq!(f.setup.counts[Role::Citizen as usize], 7);
        assert_eq!(Game::new(&f.setup).unwrap().players(), 11);

        let f = parse("name = \"mine\"\nbase = \"classic-13\"\n").unwrap();
        assert_eq!(f.setup.name, "mine");
        assert_eq!(f.setup.players(), 13);
    }

    #[test]
    fn overrides_that_empty_the_town_point_at_the_roles_table() {
        // `citizen = 0` and `commissar = 0` leave the classic mafia alone (E2: one camp).
        let ds = errors("\nbase = \"classic\"\n[roles]\ncitizen = 0\ncommissar = 0\n");
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert_eq!((ds[0].line, ds[0].col), (3, 1), "{ds:#?}");
        assert!(ds[0].message.contains("all players are in one camp"), "{ds:#?}");
    }

    #[test]
    fn columns_count_characters() {
        let ds = errors("name = \"é\"; citizen = 1\n");
        assert_eq!(ds[0].line, 1);
        assert_eq!(ds[0].col, 11, "{ds:#?}");
    }

    #[test]
    fn e4_every_role_of_the_table_is_accepted() {
        // Every named role once, plus plain players of both camps.
        let mut text = String::from("[roles]\n");
        for info in ROLE_INFO.iter() {
            text.push_str(&format!("{} = {}\n", info.name, if info.plain { 2 } else { 1 }));
        }
        let f = parse(&text).unwrap_or_else(|e| panic!("{e}"));
        for info in ROLE_INFO.iter() {
            assert_eq!(f.setup.counts[info.role as usize], if info.plain { 2 } else { 1 }, "{}", info.name);
        }
        let game = Game::new(&f.setup).unwrap();
        assert_eq!(game.players(), Role::COUNT + 2);
        assert!(game.is_extended());
    }

    #[test]
    fn e19_role_prostitute_is_an_alias() {
        let f = parse("[roles]\nrole-prostitute = 1\nmafioso = 1\ncitizen = 3\n").unwrap();
        assert_eq!(f.setup.counts[Role::Prostitute as usize], 1);
        let f = parse("[roles]\nrole_prostitute = 1\nboss = 1\npsycho = 1\n").unwrap();
        assert_eq!(f.setup.counts[Role::Prostitute as usize], 1);
        assert_eq!(f.setup.players(), 3);
    }

    #[test]
    fn an_unknown_extended_role_names_the_known_ones() {
        let ds = errors("[roles]\nboss = 1\n  necromancer = 1\ndetective = 1\n");
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert_eq!((ds[0].line, ds[0].col), (3, 3));
        assert!(ds[0].message.contains("unknown role `necromancer`"), "{ds:#?}");
        assert!(ds[0].message.contains("boss") && ds[0].message.contains("trickster"), "{ds:#?}");
    }

    #[test]
    fn e4_a_named_extended_role_twice_points_at_its_key() {
        let ds = errors("[roles]\nboss = 1\ndetective = 1\npsycho = 2\n");
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert_eq!((ds[0].line, ds[0].col), (4, 1));
        assert!(ds[0].message.contains("at most one psycho"), "{ds:#?}");
    }

    #[test]
    fn extended_rule_keys_are_read() {
        let text = "[roles]\nboss = 1\ndoctor = 1\npsycho = 1\ncitizen = 2\n[rules]\nresolution = \"sequential\"\n\
                    blast_heal = true\nchosen_secret_votes = 3\ncamp_kill = \"unanimous\"\nmafia_win = \"parity\"\n";
        let f = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let r = &f.setup.rules;
        assert_eq!(r.resolution, mafia_engine::Resolution::Sequential);
        assert!(r.blast_heal);
        assert_eq!(r.chosen_secret_votes, 3);
        assert_eq!(r.camp_kill, mafia_engine::CampKill::Unanimous);
        assert_eq!(r.mafia_win, MafiaWin::Parity);
        let game = Game::new(&f.setup).unwrap();
        assert!(!game.leader_kill(), "camp_kill = unanimous overrides auto");

        let ds = errors("[roles]\nboss = 1\ncitizen = 3\n[rules]\nresolution = \"tree\"\nchosen_secret_votes = 11\n");
        assert_eq!(ds.len(), 2, "{ds:#?}");
        assert_eq!((ds[0].line, ds[0].col), (5, 14), "{ds:#?}");
        assert!(
            ds[0].message.contains("rule `resolution`: `tree` is not valid (expected graph | sequential)"),
            "{ds:#?}"
        );
        assert_eq!((ds[1].line, ds[1].col), (6, 23), "{ds:#?}");
        assert!(ds[1].message.contains("chosen_secret_votes"), "{ds:#?}");
    }

    #[test]
    fn e30_a_night_order_is_read() {
        let text = "night_order = [\"start\", \"protection\", \"control\", \"information\", \"kills\", \
                    \"watchers\", \"marks\"]\n[roles]\nthief = 1\ndoctor = 1\ncitizen = 3\n";
        let f = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let order = vec![
            NightStep::StartOfNight,
            NightStep::Protection,
            NightStep::Control,
            NightStep::Information,
            NightStep::Kills,
            NightStep::InformationOnMoves,
            NightStep::Marks,
        ];
        assert_eq!(f.setup.night_order.as_ref(), Some(&order));
        assert_eq!(Game::new(&f.setup).unwrap().night_order()[..], order[..]);
        // Without the key, the default order.
        let f = parse("[roles]\nthief = 1\ncitizen = 3\n").unwrap();
        assert_eq!(f.setup.night_order, None);
        assert_eq!(Game::new(&f.setup).unwrap().night_order(), &NIGHT_ORDER);
    }

    #[test]
    fn e30_night_order_problems_point_at_the_step() {
        let roles = "[roles]\nthief = 1\ncitizen = 3\n";
        let check = |order: &str, line: usize, col: usize, needle: &str| {
            let ds = errors(&format!("name = \"x\"\nnight_order = {order}\n{roles}"));
            assert_eq!(ds.len(), 1, "{order}: {ds:#?}");
            assert_eq!((ds[0].line, ds[0].col), (line, col), "{order}: {ds:#?}");
            assert!(ds[0].message.contains(needle), "{order}: {ds:#?}");
        };
        let all = r#""control", "protection", "information", "kills", "marks", "watchers""#;
        check(
            &format!(r#"["start", "dusk", {all}]"#),
            2,
            25,
            "unknown night step `dusk` (steps: \"start\", \"control\"",
        );
        check(&format!(r#"["start", {all}, "kills"]"#), 2, 95, "night step `kills` is named twice");
        check(&format!(r#"[{all}, "start"]"#), 2, 16, "must begin with \"start\" (E30.1), not `control`");
        check(
            r#"["start", "control", "kills"]"#,
            2,
            15,
            "missing \"protection\", \"information\", \"marks\", \"watchers\"",
        );
        check(r#""start control""#, 2, 15, "`night_order` must be an array of step names");
        check(&format!(r#"["start", 3, {all}]"#), 2, 25, "a night step must be a string, got an integer");
        // Written under [roles], TOML makes it a role; say where it belongs.
        let ds = errors(&format!("{roles}night_order = [\"start\"]\n"));
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert_eq!((ds[0].line, ds[0].col), (4, 1), "{ds:#?}");
        assert!(ds[0].message.contains("top-level key"), "{ds:#?}");
    }

    /// The catalogue's names, as the command line passes them.
    fn catalogue() -> Vec<&'static str> {
        mafia_agents::STRATEGIES.iter().map(|s| s.name).collect()
    }

    const CLASSIC_ROLES: &str = "[roles]\ndon = 1\nmafioso = 2\ncommissar = 1\ncitizen = 6\n";

    #[test]
    fn agents_take_specs_and_tables_with_parameters() {
        let text = format!(
            "{CLASSIC_ROLES}[agents]\ndefault = \"forum\"\nmafia = \"mafia:bus=0.25:skip=0\"\n\
             commissar = {{ strategy = \"reveal\", on = \"first-mafia\", by_day = 3 }}\n\
             [agents.don]\nstrategy = \"check\"\nwhom = \"random\"\n"
        );
        let f = parse_setup("t.toml", &text, &catalogue()).unwrap_or_else(|e| panic!("{e}"));
        let agents: Vec<(&str, &str)> = f.agents.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            agents,
            [
                ("default", "forum"),
                ("mafia", "mafia:bus=0.25:skip=0"),
                ("commissar", "reveal:on=first-mafia:by_day=3"),
                ("don", "check:whom=random"),
            ]
        );
        // Each spec is what a lineup accepts.
        let mut l = Lineup::default();
        for (k, v) in &f.agents {
            l.set(k, v).unwrap();
        }
        // Numbers and booleans become their text.
        let f = parse_setup(
            "t.toml",
            &format!("{CLASSIC_ROLES}[agents]\ntown = {{ strategy = \"town\", trust = 0.5, day1_pass = true }}\n"),
            &catalogue(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(f.agents, [("town".to_string(), "town:trust=0.5:day1_pass=true".to_string())]);
    }

    #[test]
    fn every_agents_problem_has_its_line() {
        let text = format!(
            "{CLASSIC_ROLES}[agents]\n\
             default = \"clever\"\n\
             mafia = \"mafia:when=never\"\n\
             town = {{ strategy = \"town\", trust = 1.5, colour = \"red\" }}\n\
             commissar = \"protect\"\n\
             doctor = \"forum\"\n\
             don = {{ on = \"at-once\" }}\n\
             citizen = {{ strategy = \"town\", trust = [1] }}\n\
             mafioso = \"mafia:bus\"\n"
        );
        let e = parse_setup("t.toml", &text, &catalogue()).unwrap_err();
        let ds = &e.diagnostics;
        assert!(has(ds, 7, "unknown strategy `clever`"), "{e}");
        assert!(has(ds, 8, "strategy `mafia` has no parameter `when`"), "{e}");
        assert!(has(ds, 9, "`town:trust=1.5`: `trust` takes 0..1"), "{e}");
        assert!(has(ds, 9, "strategy `town` has no parameter `colour`"), "{e}");
        assert!(has(ds, 10, "strategy `protect` plays doctor, not `commissar`"), "{e}");
        assert!(has(ds, 11, "agents are set for `doctor`, but the setup deals no doctor"), "{e}");
        assert!(has(ds, 12, "`don` names no strategy"), "{e}");
        assert!(has(ds, 13, "parameter `trust` of `citizen` must be a string, a number or a boolean"), "{e}");
        assert!(has(ds, 14, "strategy for `mafioso`"), "{e}");
        assert_eq!(ds.len(), 9, "{e}");
        // The value's own column: `trust = 1.5` points at the 1.5.
        let d = ds.iter().find(|d| d.message.contains("takes 0..1")).unwrap();
        assert_eq!(d.col, text.lines().nth(8).unwrap().find("1.5").unwrap() + 1, "{e}");
    }

    #[test]
    fn load_setup_reads_files_and_reports_io_errors() {
        let dir = std::env::temp_dir().join(format!("mafia-setup-file-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("my-setup.toml");
        std::fs::write(&path, "[roles]\nmafioso = 1\ncitizen = 4\n[agents]\ndefault = \"random\"\n").unwrap();
        let f = load_setup(&path, STRATEGIES).unwrap();
        assert_eq!(f.setup.name, "my-setup");
        assert_eq!(f.setup.players(), 5);
        assert_eq!(f.agents, [("default".to_string(), "random".to_string())]);

        let missing = dir.join("missing.toml");
        let e = load_setup(&missing, STRATEGIES).unwrap_err();
        assert_eq!(e.diagnostics.len(), 1);
        assert_eq!((e.diagnostics[0].line, e.diagnostics[0].col), (1, 1));
        assert!(e.to_string().starts_with(&format!("{}:1:1: cannot read", missing.display())), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
