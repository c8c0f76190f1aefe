//! What the TOML readers share besides their diagnostics: table entries in
//! file order, where an entry starts, the text a rule setting is parsed
//! from, and words for messages (a value's type, the role names).

use mafia_engine::ROLE_INFO;
use toml::Spanned;
use toml::de::{DeString, DeTable, DeValue};

pub(crate) type Key<'i> = Spanned<DeString<'i>>;
pub(crate) type Val<'i> = Spanned<DeValue<'i>>;

/// Where a key and its value start: the earlier of the two spans, so a
/// `[table]` header points at its `[`.
pub(crate) fn entry_start(key: &Key<'_>, value: &Val<'_>) -> usize {
    key.span().start.min(value.span().start)
}

/// A table's entries in file order.
pub(crate) fn entries<'t, 'i>(table: &'t DeTable<'i>) -> Vec<(&'t Key<'i>, &'t Val<'i>)> {
    let mut v: Vec<_> = table.iter().collect();
    v.sort_by_key(|(k, _)| k.span().start);
    v
}

/// The string form [`mafia_engine::Rules::set`] accepts of a TOML scalar, or
/// `None` for arrays, tables and datetimes.
pub(crate) fn rule_text(value: &DeValue<'_>) -> Option<String> {
    match value {
        DeValue::String(s) => Some(s.to_string()),
        DeValue::Integer(i) => {
            Some(i128::from_str_radix(i.as_str(), i.radix()).map_or_else(|_| i.to_string(), |n| n.to_string()))
        }
        // The source text, so `3.0` is not taken for the integer 3.
        DeValue::Float(x) => Some(x.as_str().to_string()),
        DeValue::Boolean(b) => Some(b.to_string()),
        DeValue::Datetime(_) | DeValue::Array(_) | DeValue::Table(_) => None,
    }
}

/// "a" or "an" before a TOML type name.
pub(crate) fn a_or_an(type_str: &str) -> &'static str {
    if type_str.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

/// Every role name, for "unknown role" messages.
pub(crate) fn role_names() -> String {
    ROLE_INFO.iter().map(|r| r.name).collect::<Vec<_>>().join(", ")
}

/// A value's TOML type with "a" or "an", for messages.
pub(crate) fn a_type(v: &DeValue<'_>) -> String {
    let t = v.type_str();
    format!("{} {t}", a_or_an(t))
}

/// A TOML integer as a number (`None` for other values).
pub(crate) fn integer(value: &DeValue<'_>) -> Option<i128> {
    match value {
        DeValue::Integer(i) => Some(i128::from_str_radix(i.as_str(), i.radix()).unwrap_or(i128::MAX)),
        _ => None,
    }
}
