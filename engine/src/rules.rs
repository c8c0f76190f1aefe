//! Rule settings: every **Decision** of the rules documents that designers may
//! change, with its name, default and accepted values.
//!
//! Each setting is declared once, as one row of `rule_settings!` below: its
//! name, type, range, default, clause and description. The [`Rules`] struct,
//! its default, [`RULE_KEYS`], [`Rules::set`]/[`Rules::get`], the JSON and the
//! JSON Schema are all made from those rows, so they cannot disagree.
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
    /// No such rule.
    Off,
    /// The town wins after this many consecutive nights without a kill.
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

/// C12.6/E25: what «never more than two leave» bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LynchLimit {
    /// The lynch only: the mine is E25's own death ("lynched or not"), so
    /// two hanged together and a third mined leave on one day.
    Lynch,
    /// The day: the mines go off (in seat order) only while fewer than two
    /// have left that day, so with two hanged a mine on a third does not.
    Day,
}

/// E25/E28 in the runoffs (C12): which counts of the day the marks read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunoffMarks {
    /// The day's count only: the runoff revotes and the hang-both vote are
    /// plain (a removed voter votes in them; they set off no mine).
    Plain,
    /// Every count of the day: the Trickster's pick's runoff votes and
    /// hang-both choice do not count, and a mined candidate with 3 or more
    /// votes in a revote dies (the hang-both vote names nobody).
    Marked,
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

/// How a setting whose values are words reads and prints them: each word is
/// written once, beside its variant, and the listing of accepted values
/// (`catastrophe | random`) is made from the same words.
macro_rules! words {
    ($($ty:ident { $first:ident: $first_word:literal $(, $variant:ident: $word:literal)* $(,)? })*) => {$(
        impl Setting for $ty {
            const VALUES: &'static str = concat!($first_word $(, " | ", $word)*);
            fn read(text: &str) -> Option<Self> {
                match text {
                    $first_word => Some($ty::$first),
                    $($word => Some($ty::$variant),)*
                    _ => None,
                }
            }
            fn json(self) -> Json {
                Json::Text(match self { $ty::$first => $first_word, $($ty::$variant => $word,)* }.into())
            }
            fn schema() -> Schema {
                json_schema!({ "type": "string", "enum": [$first_word $(, $word)*] })
            }
        }
    )*};
}

words! {
    TieBreak { Catastrophe: "catastrophe", Random: "random" }
    MafiaWin { Parity: "parity", Elimination: "elimination", Auto: "auto" }
    Resolution { Graph: "graph", Sequential: "sequential" }
    CampKill { Unanimous: "unanimous", Leader: "leader", Auto: "auto" }
    RunoffAllTied { Revote: "revote", Nobody: "nobody" }
    ThiefAtPsycho { Guest: "guest", House: "house" }
    RepeatTarget { Named: "named", Reached: "reached" }
    LynchLimit { Lynch: "lynch", Day: "day" }
    RunoffMarks { Plain: "plain", Marked: "marked" }
}

/// Declares every rule setting once, one row each:
///
/// ```text
/// /// Its description (the field's doc).
/// name: Type = default, [range LO..=HI,] clause "C…" [, note "what the default means"];
/// ```
///
/// and makes from the rows the [`Rules`] struct (plain fields, read directly
/// by the hot path), its `Default`, [`RULE_KEYS`], the typed reading and
/// writing behind [`Rules::set`], [`Rules::get`] and the JSON, and each
/// setting's JSON Schema. The type says how the words read ([`Setting`]);
/// the range, where there is one, narrows it and is what `mafia rules` shows.
macro_rules! rule_settings {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident: $ty:ty = $default:expr,
            $(range $lo:literal ..= $hi:literal,)?
            clause $clause:literal
            $(, note $note:literal)?;
    )*) => {
        /// The rule settings of one game. Probabilities are kept here as
        /// `f64` (for display); `Game::new` turns them into thresholds
        /// compared with one 32-bit random word, so the hot path does no
        /// floating point.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Rules {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl Default for Rules {
            fn default() -> Self {
                Rules { $($name: $default,)* }
            }
        }

        /// Every rule setting, in the order they are documented.
        pub const RULE_KEYS: &[RuleKey] = &[$(
            RuleKey {
                name: stringify!($name),
                values: rule_settings!(@values $ty $(, $lo, $hi)?),
                clause: $clause,
                note: rule_settings!(@note $($note)?),
                about: concat!($($doc),*),
            },
        )*];

        impl Rules {
            /// Sets `key` from its trimmed words; false if they are not one of
            /// its values (or the key is unknown).
            fn set_words(&mut self, key: &str, text: &str) -> bool {
                match key {
                    $(stringify!($name) => match <$ty as Setting>::read(text)
                        $(.filter(|x| ($lo..=$hi).contains(x)))?
                    {
                        Some(x) => {
                            self.$name = x;
                            true
                        }
                        None => false,
                    },)*
                    _ => false,
                }
            }

            /// The value of `key` typed for JSON; `None` for an unknown key.
            fn json_value(&self, key: &str) -> Option<Json> {
                match key {
                    $(stringify!($name) => Some(self.$name.json()),)*
                    _ => None,
                }
            }
        }

        /// The JSON Schema of one setting's value (without its description).
        fn value_schema(key: &str) -> Option<Schema> {
            match key {
                $(stringify!($name) => Some(rule_settings!(@schema $ty $(, $lo, $hi)?)),)*
                _ => None,
            }
        }
    };
    (@values $ty:ty) => { <$ty as Setting>::VALUES };
    (@values $ty:ty, $lo:literal, $hi:literal) => { concat!(stringify!($lo), "..=", stringify!($hi)) };
    (@note) => { None };
    (@note $note:literal) => { Some($note) };
    (@schema $ty:ty) => { <$ty as Setting>::schema() };
    (@schema $ty:ty, $lo:literal, $hi:literal) => {{
        let mut schema = <$ty as Setting>::schema();
        let bounds = json_schema!({ "minimum": $lo, "maximum": $hi });
        for (k, v) in bounds.as_object().into_iter().flatten() {
            schema.insert(k.clone(), v.clone());
        }
        schema
    }};
}

rule_settings! {
    /// C8: consecutive nights without a kill that give the town the win.
    no_kill_limit: NoKillLimit = NoKillLimit::Auto, clause "C8",
        note "3 for classic roles only, off with extended roles";
    /// C12: how ties for the lead are settled.
    tie_break: TieBreak = TieBreak::Catastrophe, clause "C12";
    /// C12: how many times a tied revote is repeated (after the first revote) before nobody is hanged.
    runoff_rounds: u8 = 3, range 1..=100, clause "C12";
    /// C11.2: on day 1 a single vote against PASS votes pardons.
    first_day_pardon: bool = true, clause "C11.2";
    /// C9: announce roles of the dead.
    reveal_roles_on_death: bool = false, clause "C9";
    /// C18: parity or elimination.
    mafia_win: MafiaWin = MafiaWin::Auto, clause "C18, E2",
        note "parity for classic roles only, elimination with extended roles";
    /// C3: a game still running after this many days is a draw.
    day_cap: u16 = 50, range 1..=10000, clause "C3";
    /// C16: per player, per phase probability of being absent.
    absence: f64 = 0.0, range 0.0..=1.0, clause "C16";
    /// C15: per player, per day probability of a modkill.
    modkill: f64 = 0.0, range 0.0..=1.0, clause "C15";
    /// E29: graph or sequential resolution of control moves.
    resolution: Resolution = Resolution::Graph, clause "E29";
    /// E24: whether a heal saves the Psycho's guest from the blast.
    blast_heal: bool = false, clause "E24";
    /// E16: the Chosen's secret extra votes.
    chosen_secret_votes: u8 = 2, range 0..=10, clause "E16";
    /// C4/E8: who decides the camp kill.
    camp_kill: CampKill = CampKill::Auto, clause "C4, E8",
        note "unanimous for classic roles only, leader with extended roles";
    /// C12: who revotes when all the living are tied.
    runoff_all_tied: RunoffAllTied = RunoffAllTied::Revote, clause "C12",
        note "everyone tied: the tied revote, never for themselves";
    /// E9: the two readings of «ворует у шизика».
    thief_at_psycho: ThiefAtPsycho = ThiefAtPsycho::Guest, clause "E9",
        note "the Thief fails as the Psycho's guest; `house`: robbing the Psycho fails too";
    /// E15/E26: the player named or the player reached.
    repeat_target: RepeatTarget = RepeatTarget::Named, clause "E15, E26",
        note "the Doctor's/Thug's bar is the player named last night; `reached`: the one reached";
    /// E16/E18: whether the hex cast last night takes the Chosen's secret votes of the day.
    hex_takes_secret_votes: bool = false, clause "E16, E18",
        note "a hexed Chosen keeps his secret votes; `true`: a hex cast last night takes that day's";
    /// C12.6/E25: whether "never more than two leave" bounds the lynch or the whole day (the mine too).
    lynch_limit: LynchLimit = LynchLimit::Lynch, clause "C12, E25",
        note "two hanged and a third mined leave; `day`: with two hanged a mine on a third does not go off";
    /// E25/E28 in C12's runoffs: whether removed votes and mines apply to the revotes too.
    runoff_marks: RunoffMarks = RunoffMarks::Plain, clause "C12, E25, E28",
        note "the marks act on the day's count only; `marked`: on the runoffs too";
}

/// One rule setting as `mafia rules` lists it: name, accepted values, clause
/// and what its default means. Made from the [`Rules`] declaration.
pub struct RuleKey {
    /// The setting's key (`no_kill_limit`).
    pub name: &'static str,
    /// The values it accepts, in words.
    pub values: &'static str,
    /// The clauses it comes from.
    pub clause: &'static str,
    /// What the default means, where its word alone does not say (`auto`).
    pub note: Option<&'static str>,
    /// The one-line description: the declaration's doc comment.
    pub about: &'static str,
}

impl RuleKey {
    /// The default as listed: its words, then the note in brackets. A
    /// probability shows its decimal point (`0.0`).
    pub fn default_text(&self) -> String {
        let words = match Rules::default().json_value(self.name) {
            Some(Json::Float(x)) => format!("{x:?}"),
            Some(v) => v.into_text(),
            None => String::new(),
        };
        match self.note {
            Some(note) => format!("{words} ({note})"),
            None => words,
        }
    }
}

/// The kind of value a rule setting holds: how it reads from its words, how
/// it is typed in JSON (its words are that value printed), and its schema.
trait Setting: Copy {
    /// The accepted values, as listed, for a setting declared without a range.
    const VALUES: &'static str;
    /// The value these words name, if any (before the row's range, if any).
    fn read(text: &str) -> Option<Self>;
    fn json(self) -> Json;
    fn schema() -> Schema;
}

impl Setting for bool {
    const VALUES: &'static str = "true | false";
    fn read(text: &str) -> Option<Self> {
        match text {
            "true" | "on" | "yes" => Some(true),
            "false" | "off" | "no" => Some(false),
            _ => None,
        }
    }
    fn json(self) -> Json {
        Json::Bool(self)
    }
    fn schema() -> Schema {
        json_schema!({ "type": "boolean" })
    }
}

/// Whole numbers: read as Rust parses them, an integer in JSON.
macro_rules! whole_number_setting {
    ($($ty:ty: $values:literal),*) => {$(
        impl Setting for $ty {
            const VALUES: &'static str = $values;
            fn read(text: &str) -> Option<Self> {
                text.parse().ok()
            }
            fn json(self) -> Json {
                Json::Int(self.into())
            }
            fn schema() -> Schema {
                json_schema!({ "type": "integer" })
            }
        }
    )*};
}

whole_number_setting!(u8: "0..=255", u16: "0..=65535");

/// A probability (its row gives the range `0.0..=1.0`).
impl Setting for f64 {
    const VALUES: &'static str = "a number";
    fn read(text: &str) -> Option<Self> {
        // `+ 0.0` turns -0.0 into 0.0, so it labels and compares as the default.
        text.parse::<f64>().ok().map(|p| p + 0.0)
    }
    fn json(self) -> Json {
        Json::Float(self)
    }
    fn schema() -> Schema {
        json_schema!({ "type": "number" })
    }
}

impl Setting for NoKillLimit {
    const VALUES: &'static str = "1..=255, off or auto";
    fn read(text: &str) -> Option<Self> {
        match text {
            "off" => Some(NoKillLimit::Off),
            "auto" => Some(NoKillLimit::Auto),
            _ => text.parse::<u8>().ok().filter(|&n| n >= 1).map(NoKillLimit::Nights),
        }
    }
    fn json(self) -> Json {
        match self {
            NoKillLimit::Auto => Json::Text("auto".into()),
            NoKillLimit::Off => Json::Text("off".into()),
            NoKillLimit::Nights(n) => Json::Int(n.into()),
        }
    }
    fn schema() -> Schema {
        json_schema!({
            "oneOf": [{ "type": "integer", "minimum": 1, "maximum": 255 }, { "enum": ["off", "auto"] }]
        })
    }
}

/// Why a rule setting was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// No setting of this name.
    UnknownKey {
        /// The key given.
        key: String,
    },
    /// A value the setting does not take.
    BadValue {
        /// The setting.
        key: &'static str,
        /// The value given.
        value: String,
        /// The values it takes.
        expected: &'static str,
    },
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
        let Some(k) = RULE_KEYS.iter().find(|k| k.name == key) else {
            return Err(RuleError::UnknownKey { key: key.to_string() });
        };
        if self.set_words(k.name, value.trim()) {
            Ok(())
        } else {
            Err(RuleError::BadValue { key: k.name, value: value.to_string(), expected: k.values })
        }
    }

    /// The current value of a rule, as [`Rules::set`] would accept it.
    pub fn get(&self, key: &str) -> Option<String> {
        self.json_value(key).map(Json::into_text)
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

/// A rule's value in JSON: numbers as numbers, `true`/`false` as booleans,
/// words as strings. Printed, it is the value's words.
#[derive(Deserialize)]
#[serde(untagged)]
enum Json {
    Bool(bool),
    Int(u64),
    Float(f64),
    Text(String),
}

impl Json {
    fn into_text(self) -> String {
        match self {
            Json::Bool(b) => b.to_string(),
            Json::Int(n) => n.to_string(),
            Json::Float(x) => x.to_string(),
            Json::Text(t) => t,
        }
    }
}

impl Serialize for Rules {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut m = ser.serialize_struct("Rules", RULE_KEYS.len())?;
        for k in RULE_KEYS.iter() {
            match self.json_value(k.name) {
                Some(Json::Bool(b)) => m.serialize_field(k.name, &b)?,
                Some(Json::Int(n)) => m.serialize_field(k.name, &n)?,
                Some(Json::Float(x)) => m.serialize_field(k.name, &x)?,
                Some(Json::Text(t)) => m.serialize_field(k.name, &t)?,
                None => unreachable!("every RULE_KEYS entry has a value"),
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
        for (key, value) in BTreeMap::<String, Json>::deserialize(d)? {
            rules.set(&key, &value.into_text()).map_err(de::Error::custom)?;
        }
        Ok(rules)
    }
}

impl JsonSchema for Rules {
    fn schema_name() -> Cow<'static, str> {
        "Rules".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
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
            let mut p = value_schema(k.name).expect("every RULE_KEYS entry has a schema");
            let about = format!("{}: {}. Default: {}.", k.clause, k.values, k.default_text());
            p.insert("description".into(), about.into());
            properties.insert(k.name.into(), p.to_value());
        }
        schema
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips_through_get_and_set() {
        let mut r = Rules::default();
        for k in RULE_KEYS.iter() {
            let v = r.get(k.name).expect("known key");
            let text = k.default_text();
            let default = text.split(' ').next().unwrap();
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

    /// The book's table of settings (`docs/src/guide/rule-settings.md`) is
    /// written by hand, with links and explanations, so a test keeps it to
    /// the declaration: every setting, in order, with its values, default
    /// word and clauses.
    #[test]
    fn the_books_table_lists_every_setting_as_declared() {
        let page = include_str!("../../docs/src/guide/rule-settings.md");
        let rows: Vec<Vec<String>> = page
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(|l| {
                let cells = l.trim_matches(|c| c == '|' || c == ' ').split(" | ");
                cells.map(|c| c.replace('`', "").replace("\\|", "|").replace("bool", "true | false")).collect()
            })
            .collect();
        let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(names, RULE_KEYS.iter().map(|k| k.name).collect::<Vec<_>>());
        for (k, row) in RULE_KEYS.iter().zip(&rows) {
            assert!(row[1].starts_with(k.values), "{}: values {:?}, declared {:?}", k.name, row[1], k.values);
            let word = k.default_text().split(' ').next().unwrap().to_string();
            assert!(row[2].starts_with(&word), "{}: default {:?}, declared {word:?}", k.name, row[2]);
            let clauses: Vec<&str> =
                row[3].split(", ").map(|c| c.split(']').next().unwrap().trim_start_matches('[')).collect();
            assert_eq!(clauses.join(", "), k.clause, "{}", k.name);
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
