//! The JSON encoding of the engine's values, written once with serde and
//! described by the same derives as a JSON Schema (`schemars`).
//!
//! Conventions, everywhere JSON leaves the program (replays, the night
//! calculator, the agent boundary):
//! - a seat is its forum number, **1-based** (`1..=64`), as in setup and
//!   scenario files; a set of seats is a sorted array of such numbers;
//! - a role, a camp, a night move and every other closed enum is its
//!   snake_case name (`"commissar"`, `"town"`, `"heal"`);
//! - a vote is a seat number or the string `"pass"`.
//!
//! A [`Seat`] serializes as its number and its schema is the `Seat`
//! definition, so a field of type `Seat`, `Option<Seat>`, `Vec<Seat>` or
//! `[Seat; 2]` needs no attribute, in this crate or any other.

use crate::night::order::NightStep;
use crate::role::{Camp, NightAbility, Role, RoleSet};
use crate::seat::{MAX_PLAYERS, PlayerSet, Seat};
use crate::speech::Vote;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserializer};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

fn seat_from_number<E: de::Error>(n: u64) -> Result<Seat, E> {
    Seat::from_number(n).ok_or_else(|| E::custom(format_args!("seat {n} is out of range 1..={MAX_PLAYERS}")))
}

/// A seat is its 1-based number, so `Option<Seat>`, `Vec<Seat>` and
/// `[Seat; 2]` need no attribute.
impl Serialize for Seat {
    #[inline]
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_u8(self.number())
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        seat_from_number(u64::deserialize(d)?)
    }
}

/// Camp flags (`[bool; Camp::COUNT]`, indexed by `Camp as usize`) as the
/// array of the names of the camps that are set, in camp order.
pub(crate) mod camp_counts {
    use super::*;

    /// One camp a visitor, in camp order: `[2, 0, 1]` is `["town", "town", "bandits"]`.
    pub fn serialize<S: Serializer>(counts: &[u8; Camp::COUNT], ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_seq(Camp::each(*counts))
    }
    /// Counts the entries of each camp, in any order; more than a table's
    /// seats of one camp is refused (a count is a `u8`).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; Camp::COUNT], D::Error> {
        let mut counts = [0u8; Camp::COUNT];
        for c in Vec::<Camp>::deserialize(d)? {
            let n = &mut counts[c as usize];
            if usize::from(*n) >= MAX_PLAYERS {
                return Err(serde::de::Error::custom(format!("more than {MAX_PLAYERS} visitors of one camp")));
            }
            *n += 1;
        }
        Ok(counts)
    }
}

/// The schema of [`camp_counts`].
pub(crate) struct CampCounts;

impl JsonSchema for CampCounts {
    fn schema_name() -> Cow<'static, str> {
        "CampCounts".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "One camp for each visitor, in camp order (town, mafia, bandits): two town visitors are \"town\" twice.",
            "type": "array", "items": g.subschema_for::<Camp>()
        })
    }
}

impl JsonSchema for Seat {
    fn schema_name() -> Cow<'static, str> {
        "Seat".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A seat, numbered from 1 as on the forum.",
            "type": "integer", "minimum": 1, "maximum": MAX_PLAYERS
        })
    }
}

impl Serialize for PlayerSet {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut seq = ser.serialize_seq(Some(self.len() as usize))?;
        for s in self.iter() {
            seq.serialize_element(&s)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for PlayerSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut set = PlayerSet::EMPTY;
        for n in Vec::<u64>::deserialize(d)? {
            set.insert(seat_from_number(n)?);
        }
        Ok(set)
    }
}

impl JsonSchema for PlayerSet {
    fn schema_name() -> Cow<'static, str> {
        "Seats".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A set of seats: seat numbers (from 1) in increasing order.",
            "type": "array", "items": g.subschema_for::<Seat>(), "uniqueItems": true
        })
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = Cow::<str>::deserialize(d)?;
        Role::from_name(&name).ok_or_else(|| de::Error::custom(format_args!("unknown role `{name}`")))
    }
}

impl JsonSchema for Role {
    fn schema_name() -> Cow<'static, str> {
        "Role".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
        json_schema!({ "description": "A role, by its name.", "type": "string", "enum": names })
    }
}

impl Serialize for RoleSet {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for RoleSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut set = RoleSet::EMPTY;
        for r in Vec::<Role>::deserialize(d)? {
            set.insert(r);
        }
        Ok(set)
    }
}

impl JsonSchema for RoleSet {
    fn schema_name() -> Cow<'static, str> {
        "Roles".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A set of roles, in role order.",
            "type": "array", "items": g.subschema_for::<Role>(), "uniqueItems": true
        })
    }
}

impl Serialize for Camp {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Camp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = Cow::<str>::deserialize(d)?;
        Camp::from_name(&name).ok_or_else(|| de::Error::custom(format_args!("unknown camp `{name}`")))
    }
}

impl JsonSchema for Camp {
    fn schema_name() -> Cow<'static, str> {
        "Camp".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": ["town", "mafia", "bandits"] })
    }
}

impl Serialize for Vote {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            Vote::For(s) => s.serialize(ser),
            Vote::Pass => ser.serialize_str("pass"),
        }
    }
}

impl<'de> Deserialize<'de> for Vote {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw<'a> {
            Seat(u64),
            Word(Cow<'a, str>),
        }
        match Raw::deserialize(d)? {
            Raw::Seat(n) => Ok(Vote::For(seat_from_number(n)?)),
            Raw::Word(w) if w.eq_ignore_ascii_case("pass") => Ok(Vote::Pass),
            Raw::Word(w) => Err(de::Error::custom(format_args!("a vote is a seat number or \"pass\", not `{w}`"))),
        }
    }
}

impl JsonSchema for Vote {
    fn schema_name() -> Cow<'static, str> {
        "Vote".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A day vote (C10): a seat number, or \"pass\" (against all).",
            "oneOf": [g.subschema_for::<Seat>(), { "const": "pass" }]
        })
    }
}

impl Serialize for NightStep {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(self.key())
    }
}

impl<'de> Deserialize<'de> for NightStep {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let key = Cow::<str>::deserialize(d)?;
        NightStep::from_key(&key).ok_or_else(|| de::Error::custom(format_args!("unknown night step `{key}`")))
    }
}

impl JsonSchema for NightStep {
    fn schema_name() -> Cow<'static, str> {
        "NightStep".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let keys: Vec<&str> = NightStep::ALL.iter().map(|s| s.key()).collect();
        json_schema!({
            "description": "A step of the night order (E30), by the key setup files use in `night_order`.",
            "type": "string", "enum": keys
        })
    }
}

/// `Event::Step`'s body: the step's key and its name in words.
#[derive(Serialize, JsonSchema)]
pub(crate) struct StepEvent {
    /// The step, by its key.
    step: NightStep,
    /// The step's name in words ("control moves").
    name: &'static str,
}

/// Serializes `Event::Step` as a [`StepEvent`].
pub(crate) fn step_event<S: Serializer>(step: &NightStep, ser: S) -> Result<S::Ok, S::Error> {
    StepEvent { step: *step, name: step.name() }.serialize(ser)
}

/// A night move's JSON name: its name in the move table (`mafia night-order`)
/// with `_` for `-`. The Don's check is `don_check` whatever role it asks
/// about: the role table fixes that role (C5: the Commissar).
const fn move_name(a: NightAbility) -> &'static str {
    match a {
        NightAbility::None => "none",
        NightAbility::Rob => "rob",
        NightAbility::Invite => "invite",
        NightAbility::Beat => "beat",
        NightAbility::Swindle => "swindle",
        NightAbility::Guard => "guard",
        NightAbility::Heal => "heal",
        NightAbility::BossCheck => "boss_check",
        NightAbility::CheckIsRole(_) => "don_check",
        NightAbility::CheckCamp => "camp_check",
        NightAbility::Compare => "compare",
        NightAbility::Shoot => "shoot",
        NightAbility::Hex => "hex",
        NightAbility::Mine => "mine",
        NightAbility::Trick => "trick",
        NightAbility::Watch => "watch",
        NightAbility::Scout => "scout",
        NightAbility::Borrow => "borrow",
        NightAbility::Votes => "secret_votes",
    }
}

/// Every night move, `None` first, as the move table lists them.
fn all_moves() -> impl Iterator<Item = NightAbility> {
    std::iter::once(NightAbility::None).chain(NightAbility::MOVES)
}

impl Serialize for NightAbility {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(move_name(*self))
    }
}

impl<'de> Deserialize<'de> for NightAbility {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = Cow::<str>::deserialize(d)?;
        all_moves()
            .find(|&a| move_name(a) == name)
            .ok_or_else(|| de::Error::custom(format_args!("unknown night move `{name}`")))
    }
}

impl JsonSchema for NightAbility {
    fn schema_name() -> Cow<'static, str> {
        "NightMove".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = all_moves().map(move_name).collect();
        json_schema!({
            "description": "A night move, by its name in the move table (`mafia night-order`) with `_` for `-`. \
                `don_check` is the Don's check (C5), which asks whether the target is the Commissar; \
                the `role_check` event names the role asked about.",
            "type": "string", "enum": names
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_numbered_from_one_both_ways() {
        let set: PlayerSet = [0u8, 4, 63].into_iter().map(Seat::new).collect();
        let text = serde_json::to_string(&set).unwrap();
        assert_eq!(text, "[1,5,64]");
        assert_eq!(serde_json::from_str::<PlayerSet>(&text).unwrap(), set);
        assert!(serde_json::from_str::<PlayerSet>("[0]").is_err());
        assert!(serde_json::from_str::<PlayerSet>("[65]").is_err());
        assert_eq!(serde_json::to_string(&Vote::For(Seat::new(2))).unwrap(), "3");
        assert_eq!(serde_json::from_str::<Vote>("\"pass\"").unwrap(), Vote::Pass);
        assert_eq!(serde_json::from_str::<Vote>("3").unwrap(), Vote::For(Seat::new(2)));
        assert!(serde_json::from_str::<Vote>("\"abstain\"").is_err());
        assert_eq!(serde_json::to_string(&(Some(Seat::new(0)), [Seat::new(1), Seat::new(63)])).unwrap(), "[1,[2,64]]");
        assert_eq!(serde_json::from_str::<Option<Seat>>("7").unwrap(), Some(Seat::new(6)));
        let err = serde_json::from_str::<Seat>("0").unwrap_err().to_string();
        assert!(err.starts_with("seat 0 is out of range 1..=64"), "{err}");
        assert!(serde_json::from_str::<Vec<Seat>>("[1, 65]").is_err());
        assert_eq!(serde_json::to_string(&Role::Prostitute).unwrap(), format!("\"{}\"", Role::Prostitute.name()));
        assert!(serde_json::from_str::<Role>("\"wizard\"").is_err());
    }

    #[test]
    fn moves_and_steps_are_their_table_names() {
        for a in all_moves() {
            let text = serde_json::to_string(&a).unwrap();
            assert_eq!(text, format!("\"{}\"", a.info().name.replace('-', "_")));
            assert_eq!(serde_json::from_str::<NightAbility>(&text).unwrap(), a);
        }
        for s in NightStep::ALL {
            let text = serde_json::to_string(&s).unwrap();
            assert_eq!(text, format!("\"{}\"", s.key()));
            assert_eq!(serde_json::from_str::<NightStep>(&text).unwrap(), s);
        }
        let counts = [2, 0, 1];
        #[derive(Serialize, Deserialize)]
        struct F(#[serde(with = "camp_counts")] [u8; Camp::COUNT]);
        let text = serde_json::to_string(&F(counts)).unwrap();
        assert_eq!(text, r#"["town","town","bandits"]"#);
        assert_eq!(serde_json::from_str::<F>(&text).unwrap().0, counts);
        assert_eq!(serde_json::from_str::<F>(r#"["bandits","town","town"]"#).unwrap().0, counts);
    }
}
