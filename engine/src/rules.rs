//! Rule settings: every **Decision** of the rules documents that designers may
//! change, with its name, default and accepted values.
//!
//! Settings are set by name from strings (`key=value` on the command line) or
//! from typed setup-file values; both go through [`Rules::set`], so there is
//! one parser and one list of names ([`RULE_KEYS`]).
//!
//! In JSON, [`Rules`] is an object with every setting by its name, valued
//! as [`Rules::get`] tells it but typed: numbers as numbers, `true`/`false`
//! as booleans, words as strings (`{"no_kill_limit": 3, "tie_break":
//! "catastrophe", "absence": 0.0, …}`).

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserializer};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// How a tie for the most votes is settled (C12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The full catastrophe procedure of C12.
    Catastrophe,
    /// One of the leaders, uniformly at random (host's draw), is hanged.
    Random,
}

/// When the mafia win (C18, E2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MafiaWin {
    /// `parity` for a setup of classic roles only (C18), `elimination` for
    /// one with any extended role (E2). Resolved by `Game::new`.
    Auto,
    /// Living mafia at least as many as everybody else alive (and no bandits alive).
    Parity,
    /// Everybody else dead.
    Elimination,
}

/// C8: after how many nights without a kill the town wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoKillLimit {
    /// 3 for a setup of classic roles only (C8), off for one with any
    /// extended role (E2 names no such rule). Resolved by `Game::new`.
    Auto,
    Off,
    Nights(u8),
}

/// How E29's control moves resolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The dependency graph of E29 with its cycle rule.
    Graph,
    /// The plain sequence Thief, Psycho, Thug, Swindler: an earlier move always wins.
    Sequential,
}

/// E9: how «ворует у шизика» (the robbery fails if the Thief … "robs at the
/// Psycho's") is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThiefAtPsycho {
    /// «у шизика» as everywhere in the seed: the Thief is the Psycho's guest
    /// (already E6's general block).
    Guest,
    /// Literally: robbing the Psycho's house fails (besides E6).
    House,
}

/// E15/E26: "never the same player two nights running" is about…
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepeatTarget {
    /// …the player named, whatever became of the move.
    Named,
    /// …the player the move reached: after a redirect (E11), and nobody if it failed.
    Reached,
}

/// C12: a runoff when every living player is among the tied (three alive,
/// one vote each), so nobody is left to revote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunoffAllTied {
    /// «Голосовать во втором туре должны все»: the tied revote among
    /// themselves, never for themselves.
    Revote,
    /// Nobody votes, so nobody is hanged.
    Nobody,
}

/// Who decides a camp's night kill (C4, E8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CampKill {
    /// `unanimous` for a setup of classic roles only, `leader` otherwise.
    Auto,
    /// C4: every living shooter must send the same nick.
    Unanimous,
    /// E8: the highest-ranked member who sent a nick decides.
    Leader,
}

/// The rule settings of one game. Probabilities are kept both as `f64` (for
/// display) and as a `u32` threshold compared with one random word, so the
/// hot path does no floating point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// C8: consecutive nights without a kill that give the town the win.
    pub no_kill_limit: NoKillLimit,
    /// C12: how ties for the lead are settled.
    pub tie_break: TieBreak,
    /// C12: how many times a tied revote is repeated (after the first revote) before nobody is hanged.
    pub runoff_rounds: u8,
    /// C11.2: on day 1 a single vote against PASS votes pardons.
    pub first_day_pardon: bool,
    /// C9: announce roles of the dead.
    pub reveal_roles_on_death: bool,
    /// C18: parity or elimination.
    pub mafia_win: MafiaWin,
    /// C3: a game still running after this many days is a draw.
    pub day_cap: u16,
    /// C16: per player, per phase probability of being absent.
    pub absence: f64,
    /// C15: per player, per day probability of a modkill.
    pub modkill: f64,
    /// E29: graph or sequential resolution of control moves.
    pub resolution: Resolution,
    /// E24: whether a heal saves the Psycho's guest from the blast.
    pub blast_heal: bool,
    /// E16: the Chosen's secret extra votes.
    pub chosen_secret_votes: u8,
    /// C4/E8: who decides the camp kill.
    pub camp_kill: CampKill,
    /// E9: the two readings of «ворует у шизика».
    pub thief_at_psycho: ThiefAtPsycho,
    /// E15/E26: the player named or the player reached.
    pub repeat_target: RepeatTarget,
    /// C12: who revotes when all the living are tied.
    pub runoff_all_tied: RunoffAllTied,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            no_kill_limit: NoKillLimit::Auto,
            tie_break: TieBreak::Catastrophe,
            runoff_rounds: 3,
            first_day_pardon: true,
            reveal_roles_on_death: false,
            mafia_win: MafiaWin::Auto,
            day_cap: 50,
            absence: 0.0,
            modkill: 0.0,
            resolution: Resolution::Graph,
            blast_heal: false,
            chosen_secret_votes: 2,
            camp_kill: CampKill::Auto,
            thief_at_psycho: ThiefAtPsycho::Guest,
            repeat_target: RepeatTarget::Named,
            runoff_all_tied: RunoffAllTied::Revote,
        }
    }
}

/// One rule setting: name, accepted values, default and the clause it comes from.
pub struct RuleKey {
    pub name: &'static str,
    pub values: &'static str,
    pub default: &'static str,
    pub clause: &'static str,
}

/// Every rule setting, in the order they are documented.
pub const RULE_KEYS: [RuleKey; 16] = [
    RuleKey {
        name: "no_kill_limit",
        values: "1..=255, off or auto",
        default: "auto (3 for classic roles only, off with extended roles)",
        clause: "C8",
    },
    RuleKey { name: "tie_break", values: "catastrophe | random", default: "catastrophe", clause: "C12" },
    RuleKey { name: "runoff_rounds", values: "1..=100", default: "3", clause: "C12" },
    RuleKey { name: "first_day_pardon", values: "true | false", default: "true", clause: "C11.2" },
    RuleKey { name: "reveal_roles_on_death", values: "true | false", default: "false", clause: "C9" },
    RuleKey {
        name: "mafia_win",
        values: "parity | elimination | auto",
        default: "auto (parity for classic roles only, elimination with extended roles)",
        clause: "C18, E2",
    },
    RuleKey { name: "day_cap", values: "1..=10000", default: "50", clause: "C3" },
    RuleKey { name: "absence", values: "0.0..=1.0", default: "0.0", clause: "C16" },
    RuleKey { name: "modkill", values: "0.0..=1.0", default: "0.0", clause: "C15" },
    RuleKey { name: "resolution", values: "graph | sequential", default: "graph", clause: "E29" },
    RuleKey { name: "blast_heal", values: "true | false", default: "false", clause: "E24" },
    RuleKey { name: "chosen_secret_votes", values: "0..=10", default: "2", clause: "E16" },
    RuleKey {
        name: "camp_kill",
        values: "unanimous | leader | auto",
        default: "auto (unanimous for classic roles only, leader with extended roles)",
        clause: "C4, E8",
    },
    RuleKey {
        name: "runoff_all_tied",
        values: "revote | nobody",
        default: "revote (everyone tied: the tied revote, never for themselves)",
        clause: "C12",
    },
    RuleKey {
        name: "thief_at_psycho",
        values: "guest | house",
        default: "guest (the Thief fails as the Psycho's guest; `house`: robbing the Psycho fails too)",
        clause: "E9",
    },
    RuleKey {
        name: "repeat_target",
        values: "named | reached",
        default: "named (the Doctor's/Thug's bar is the player named last night; `reached`: the one reached)",
        clause: "E15, E26",
    },
];

/// Why a rule setting was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    UnknownKey { key: String },
    BadValue { key: &'static str, value: String, expected: &'static str },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::UnknownKey { key } => {
                let names: Vec<&str> = RULE_KEYS.iter().map(|k| k.name).collect();
                write!(f, "unknown rule `{key}` (known rules: {})", names.join(", "))
            }
            RuleError::BadValue { key, value, expected } => {
                write!(f, "rule `{key}`: `{value}` is not valid (expected {expected})")
            }
        }
    }
}

impl std::error::Error for RuleError {}

/// A probability as a threshold for one `u32` draw: `draw < threshold` happens
/// with the probability (to within 2^-32). 1.0 maps to "always".
#[inline]
pub fn probability_threshold(p: f64) -> u64 {
    (p * 4294967296.0).round() as u64
}

impl Rules {
    /// Sets one rule from its textual value. Strings are compared exactly;
    /// numbers accept what Rust's parsers accept.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        let v = value.trim();
        let Some(k) = RULE_KEYS.iter().find(|k| k.name == key) else {
            return Err(RuleError::UnknownKey { key: key.to_string() });
        };
        let bad = || RuleError::BadValue { key: k.name, value: value.to_string(), expected: k.values };
        match k.name {
            "no_kill_limit" => {
                self.no_kill_limit = match v {
                    "off" => NoKillLimit::Off,
                    "auto" => NoKillLimit::Auto,
                    _ => match v.parse::<u8>() {
                        Ok(n) if n >= 1 => NoKillLimit::Nights(n),
                        _ => return Err(bad()),
                    },
                }
            }
            "tie_break" => {
                self.tie_break = match v {
                    "catastrophe" => TieBreak::Catastrophe,
                    "random" => TieBreak::Random,
                    _ => return Err(bad()),
                }
            }
            "runoff_rounds" => match v.parse::<u8>() {
                Ok(n) if (1..=100).contains(&n) => self.runoff_rounds = n,
                _ => return Err(bad()),
            },
            "first_day_pardon" => self.first_day_pardon = parse_bool(v).ok_or_else(bad)?,
            "reveal_roles_on_death" => self.reveal_roles_on_death = parse_bool(v).ok_or_else(bad)?,
            "mafia_win" => {
                self.mafia_win = match v {
                    "parity" => MafiaWin::Parity,
                    "elimination" => MafiaWin::Elimination,
                    "auto" => MafiaWin::Auto,
                    _ => return Err(bad()),
                }
            }
            "day_cap" => match v.parse::<u16>() {
                Ok(n) if (1..=10000).contains(&n) => self.day_cap = n,
                _ => return Err(bad()),
            },
            "absence" => self.absence = parse_probability(v).ok_or_else(bad)?,
            "modkill" => self.modkill = parse_probability(v).ok_or_else(bad)?,
            "resolution" => {
                self.resolution = match v {
                    "graph" => Resolution::Graph,
                    "sequential" => Resolution::Sequential,
                    _ => return Err(bad()),
                }
            }
            "blast_heal" => self.blast_heal = parse_bool(v).ok_or_else(bad)?,
            "chosen_secret_votes" => match v.parse::<u8>() {
                Ok(n) if n <= 10 => self.chosen_secret_votes = n,
                _ => return Err(bad()),
            },
            "camp_kill" => {
                self.camp_kill = match v {
                    "unanimous" => CampKill::Unanimous,
                    "leader" => CampKill::Leader,
                    "auto" => CampKill::Auto,
                    _ => return Err(bad()),
                }
            }
            "runoff_all_tied" => {
                self.runoff_all_tied = match v {
                    "revote" => RunoffAllTied::Revote,
                    "nobody" => RunoffAllTied::Nobody,
                    _ => return Err(bad()),
                }
            }
            "thief_at_psycho" => {
                self.thief_at_psycho = match v {
                    "guest" => ThiefAtPsycho::Guest,
                    "house" => ThiefAtPsycho::House,
                    _ => return Err(bad()),
                }
            }
            "repeat_target" => {
                self.repeat_target = match v {
                    "named" => RepeatTarget::Named,
                    "reached" => RepeatTarget::Reached,
                    _ => return Err(bad()),
                }
            }
            _ => unreachable!("every RULE_KEYS entry is handled above"),
        }
        Ok(())
    }

    /// The current value of a rule, as [`Rules::set`] would accept it.
    pub fn get(&self, key: &str) -> Option<String> {
        Some(match key {
            "no_kill_limit" => match self.no_kill_limit {
                NoKillLimit::Auto => "auto".into(),
                NoKillLimit::Off => "off".into(),
                NoKillLimit::Nights(n) => n.to_string(),
            },
            "tie_break" => match self.tie_break {
                TieBreak::Catastrophe => "catastrophe".into(),
                TieBreak::Random => "random".into(),
            },
            "runoff_rounds" => self.runoff_rounds.to_string(),
            "first_day_pardon" => self.first_day_pardon.to_string(),
            "reveal_roles_on_death" => self.reveal_roles_on_death.to_string(),
            "mafia_win" => match self.mafia_win {
                MafiaWin::Auto => "auto".into(),
                MafiaWin::Parity => "parity".into(),
                MafiaWin::Elimination => "elimination".into(),
            },
            "day_cap" => self.day_cap.to_string(),
            "absence" => self.absence.to_string(),
            "modkill" => self.modkill.to_string(),
            "resolution" => match self.resolution {
                Resolution::Graph => "graph".into(),
                Resolution::Sequential => "sequential".into(),
            },
            "blast_heal" => self.blast_heal.to_string(),
            "chosen_secret_votes" => self.chosen_secret_votes.to_string(),
            "camp_kill" => match self.camp_kill {
                CampKill::Auto => "auto".into(),
                CampKill::Unanimous => "unanimous".into(),
                CampKill::Leader => "leader".into(),
            },
            "runoff_all_tied" => match self.runoff_all_tied {
                RunoffAllTied::Revote => "revote".into(),
                RunoffAllTied::Nobody => "nobody".into(),
            },
            "thief_at_psycho" => match self.thief_at_psycho {
                ThiefAtPsycho::Guest => "guest".into(),
                ThiefAtPsycho::House => "house".into(),
            },
            "repeat_target" => match self.repeat_target {
                RepeatTarget::Named => "named".into(),
                RepeatTarget::Reached => "reached".into(),
            },
            _ => return None,
        })
    }

    /// The classic seed's rules: the defaults with every `auto` at its
    /// classic value (C4 unanimous, C8 three nights, C18 parity). A run's
    /// label lists what differs from these (see `Game::rules_label`).
    pub fn classic() -> Rules {
        Rules {
            no_kill_limit: NoKillLimit::Nights(3),
            mafia_win: MafiaWin::Parity,
            camp_kill: CampKill::Unanimous,
            ..Rules::default()
        }
    }

    /// `key=value` pairs of the settings that differ from `base`, in
    /// [`RULE_KEYS`] order.
    pub fn diff(&self, base: &Rules) -> Vec<String> {
        RULE_KEYS
            .iter()
            .filter(|k| self.get(k.name) != base.get(k.name))
            .map(|k| format!("{}={}", k.name, self.get(k.name).unwrap_or_default()))
            .collect()
    }

    /// `key=value` pairs of the settings that differ from the defaults.
    pub fn diff_from_default(&self) -> Vec<String> {
        self.diff(&Rules::default())
    }
}

/// A rule's value in JSON.
#[derive(Deserialize)]
#[serde(untagged)]
enum RuleValue {
    Bool(bool),
    Int(u64),
    Float(f64),
    Text(String),
}

impl Rules {
    /// The value of `key` (one of [`RULE_KEYS`]) typed for JSON.
    fn json_value(&self, key: &str) -> RuleValue {
        match key {
            "no_kill_limit" => match self.no_kill_limit {
                NoKillLimit::Nights(n) => RuleValue::Int(n as u64),
                _ => RuleValue::Text(self.get(key).unwrap_or_default()),
            },
            "runoff_rounds" => RuleValue::Int(self.runoff_rounds as u64),
            "day_cap" => RuleValue::Int(self.day_cap as u64),
            "chosen_secret_votes" => RuleValue::Int(self.chosen_secret_votes as u64),
            "first_day_pardon" => RuleValue::Bool(self.first_day_pardon),
            "reveal_roles_on_death" => RuleValue::Bool(self.reveal_roles_on_death),
            "blast_heal" => RuleValue::Bool(self.blast_heal),
            "absence" => RuleValue::Float(self.absence),
            "modkill" => RuleValue::Float(self.modkill),
            _ => RuleValue::Text(self.get(key).unwrap_or_default()),
        }
    }
}

impl Serialize for Rules {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut m = ser.serialize_struct("Rules", RULE_KEYS.len())?;
        for k in RULE_KEYS.iter() {
            match self.json_value(k.name) {
                RuleValue::Bool(b) => m.serialize_field(k.name, &b)?,
                RuleValue::Int(n) => m.serialize_field(k.name, &n)?,
                RuleValue::Float(x) => m.serialize_field(k.name, &x)?,
                RuleValue::Text(t) => m.serialize_field(k.name, &t)?,
            }
        }
        m.end()
    }
}

/// Settings missing from the object keep their defaults; every value goes
/// through [`Rules::set`], so JSON accepts what setup files accept.
impl<'de> Deserialize<'de> for Rules {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut rules = Rules::default();
        for (key, value) in BTreeMap::<String, RuleValue>::deserialize(d)? {
            let text = match value {
                RuleValue::Bool(b) => b.to_string(),
                RuleValue::Int(n) => n.to_string(),
                RuleValue::Float(x) => x.to_string(),
                RuleValue::Text(t) => t,
            };
            rules.set(&key, &text).map_err(de::Error::custom)?;
        }
        Ok(rules)
    }
}

impl JsonSchema for Rules {
    fn schema_name() -> Cow<'static, str> {
        "Rules".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let words = |values: &str| -> Vec<String> { values.split(" | ").map(str::to_string).collect() };
        let names: Vec<&str> = RULE_KEYS.iter().map(|k| k.name).collect();
        let mut schema = json_schema!({
            "description": "Every rule setting (`mafia rules`) by its name: numbers as numbers, \
                true/false as booleans, words as strings.",
            "type": "object",
            "properties": {},
            "required": names,
            "additionalProperties": false
        });
        let properties = schema.get_mut("properties").and_then(|p| p.as_object_mut()).expect("an object");
        for k in RULE_KEYS.iter() {
            let mut p = match k.name {
                "no_kill_limit" => json_schema!({
                    "oneOf": [{ "type": "integer", "minimum": 1, "maximum": 255 }, { "enum": ["off", "auto"] }]
                }),
                "runoff_rounds" => json_schema!({ "type": "integer", "minimum": 1, "maximum": 100 }),
                "day_cap" => json_schema!({ "type": "integer", "minimum": 1, "maximum": 10000 }),
                "chosen_secret_votes" => json_schema!({ "type": "integer", "minimum": 0, "maximum": 10 }),
                "absence" | "modkill" => json_schema!({ "type": "number", "minimum": 0.0, "maximum": 1.0 }),
                _ if k.values == "true | false" => json_schema!({ "type": "boolean" }),
                _ => json_schema!({ "type": "string", "enum": words(k.values) }),
            };
            p.insert("description".into(), format!("{}: {}. Default: {}.", k.clause, k.values, k.default).into());
            properties.insert(k.name.into(), p.to_value());
        }
        schema
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "true" | "on" | "yes" => Some(true),
        "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

fn parse_probability(v: &str) -> Option<f64> {
    // `+ 0.0` turns -0.0 into 0.0, so it labels and compares as the default.
    v.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p)).map(|p| p + 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips_through_get_and_set() {
        let mut r = Rules::default();
        for k in RULE_KEYS.iter() {
            let v = r.get(k.name).expect("known key");
            let default = k.default.split(' ').next().unwrap();
            assert_eq!(v, default.parse::<f64>().map_or(default.to_string(), |_| v.clone()));
            r.set(k.name, &v).expect("value read back is accepted");
        }
        assert_eq!(r, Rules::default());
    }

    #[test]
    fn rules_are_a_typed_json_object_that_reads_back() {
        let mut r = Rules::default();
        let v = serde_json::to_value(r).unwrap();
        assert_eq!(v.as_object().unwrap().len(), RULE_KEYS.len());
        assert_eq!(v["no_kill_limit"], "auto");
        assert_eq!(v["runoff_rounds"], 3);
        assert_eq!(v["first_day_pardon"], true);
        assert_eq!(v["absence"], 0.0);
        assert_eq!(v["tie_break"], "catastrophe");
        assert_eq!(serde_json::from_value::<Rules>(v).unwrap(), r);
        for (k, x) in [("no_kill_limit", "4"), ("absence", "0.25"), ("blast_heal", "true"), ("camp_kill", "leader")] {
            r.set(k, x).unwrap();
        }
        let v = serde_json::to_value(r).unwrap();
        assert_eq!((v["no_kill_limit"].as_u64(), v["absence"].as_f64()), (Some(4), Some(0.25)));
        assert_eq!(serde_json::from_value::<Rules>(v).unwrap(), r);
        assert!(serde_json::from_str::<Rules>(r#"{"absence": 2}"#).is_err());
        assert!(serde_json::from_str::<Rules>(r#"{"bogus": 1}"#).is_err());
        // Every setting has a schema of its own.
        let schema = serde_json::to_value(schemars::schema_for!(Rules)).unwrap();
        for k in RULE_KEYS.iter() {
            assert!(schema["properties"][k.name]["description"].is_string(), "{}", k.name);
        }
    }

    #[test]
    fn bad_values_are_refused_with_the_key() {
        let mut r = Rules::default();
        assert!(matches!(r.set("no_kill_limit", "0"), Err(RuleError::BadValue { key: "no_kill_limit", .. })));
        assert!(matches!(r.set("absence", "1.5"), Err(RuleError::BadValue { key: "absence", .. })));
        assert!(matches!(r.set("bogus", "1"), Err(RuleError::UnknownKey { .. })));
        r.set("no_kill_limit", "off").unwrap();
        assert_eq!(r.no_kill_limit, NoKillLimit::Off);
    }
}
