//! The page's setup form and the setup file it stands for. The page edits a
//! [`Form`] (a name, a base preset, role counts, rule settings, the
//! lineup); the server writes it as the setup file TOML a person would
//! write ([`Form::to_toml`]) and reads that text with the command line's
//! own reader ([`crate::input::parse_setup`]), so a value is refused with
//! the message `mafia run --setup FILE` would print, and the message is put
//! beside the field on the line it came from. Nothing is checked here.

use crate::error::FileError;
use crate::input::SetupFile;
use mafia_engine::{Preset, Role, Rules};
use serde::{Deserialize, Serialize};

/// The setup as the page edits it. Values are text, as typed: the
/// reader decides what they mean.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Form {
    /// The setup's name (a table row's `setup`).
    #[serde(default)]
    pub name: String,
    /// A preset the setup starts from (its default lineup; `null`: none).
    #[serde(default)]
    pub base: Option<String>,
    /// `(role, count)`, in the page's order.
    #[serde(default)]
    pub roles: Vec<(String, String)>,
    /// `(key, value)` of the settings that differ from the defaults.
    #[serde(default)]
    pub rules: Vec<(String, String)>,
    /// `(key, spec)` of the lineup: `default`, a camp or a role.
    #[serde(default)]
    pub agents: Vec<(String, String)>,
    /// E30's night order, when not the default.
    #[serde(default)]
    pub night_order: Option<Vec<String>>,
}

/// One problem of a form, at its field (`roles.don`, `rules.absence`,
/// `agents.mafia`, `name`; `setup` for the setup as a whole).
#[derive(Clone, Debug, Serialize)]
pub struct FieldProblem {
    /// The field the problem's line holds.
    pub field: String,
    /// The reader's message.
    pub message: String,
}

/// A TOML string literal.
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A value as TOML: a number or `true`/`false` as it is, anything else as
/// a string (which the reader then judges, as it would in a file).
fn literal(v: &str) -> String {
    let t = v.trim();
    let number =
        t.parse::<i64>().is_ok() || (t.parse::<f64>().is_ok_and(f64::is_finite) && !t.contains(['n', 'N', 'i', 'I']));
    if number || t == "true" || t == "false" { t.to_string() } else { quoted(v) }
}

/// A key as TOML (bare when it may be).
fn key(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        k.to_string()
    } else {
        quoted(k)
    }
}

impl Form {
    /// The setup file this form stands for, and the field of each of its
    /// lines (`fields[line - 1]`).
    pub fn to_toml(&self) -> (String, Vec<String>) {
        let mut text = String::new();
        let mut fields = Vec::new();
        let mut line = |text: &mut String, l: String, field: &str| {
            text.push_str(&l);
            text.push('\n');
            fields.push(field.to_string());
        };
        line(&mut text, "# A setup file made in the studio (`mafia run --setup THIS.toml` plays it).".into(), "setup");
        line(&mut text, format!("name = {}", quoted(&self.name)), "name");
        if let Some(b) = self.base.as_deref().filter(|b| !b.is_empty()) {
            line(&mut text, format!("base = {}", quoted(b)), "base");
        }
        if let Some(order) = &self.night_order {
            let steps: Vec<String> = order.iter().map(|s| quoted(s)).collect();
            line(&mut text, format!("night_order = [{}]", steps.join(", ")), "night_order");
        }
        for (table, entries, lit) in
            [("roles", &self.roles, true), ("rules", &self.rules, true), ("agents", &self.agents, false)]
        {
            if entries.is_empty() && table != "roles" {
                continue;
            }
            line(&mut text, String::new(), "setup");
            line(&mut text, format!("[{table}]"), table);
            for (k, v) in entries {
                let value = if lit { literal(v) } else { quoted(v) };
                line(&mut text, format!("{} = {value}", key(k)), &format!("{table}.{k}"));
            }
        }
        (text, fields)
    }

    /// The form of a setup file that the reader accepted: its roles (every
    /// role it deals), the rules that differ from the defaults, its lineup.
    pub fn of_file(file: &SetupFile) -> Form {
        let s = &file.setup;
        let defaults = Rules::default();
        Form {
            name: s.name.clone(),
            base: file.base.map(str::to_string),
            roles: Role::ALL
                .iter()
                .filter(|r| s.counts[**r as usize] > 0)
                .map(|r| (r.name().to_string(), s.counts[*r as usize].to_string()))
                .collect(),
            rules: s
                .rules
                .diff(&defaults)
                .into_iter()
                .filter_map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
                .collect(),
            agents: file.agents.clone(),
            night_order: s.night_order.as_ref().map(|o| o.iter().map(|st| st.key().to_string()).collect()),
        }
    }

    /// The form of a preset: its roles, the default rules, no lineup of
    /// its own (the preset's default lineup plays, through `base`).
    pub fn of_preset(p: &Preset) -> Form {
        Form {
            name: format!("my-{}", p.name),
            base: Some(p.name.to_string()),
            roles: p.counts.iter().map(|(r, c)| (r.name().to_string(), c.to_string())).collect(),
            rules: vec![],
            agents: vec![],
            night_order: None,
        }
    }
}

/// The reader's problems put at the fields of their lines.
pub fn field_problems(e: &FileError, fields: &[String]) -> Vec<FieldProblem> {
    e.diagnostics
        .iter()
        .map(|d| FieldProblem {
            field: fields.get(d.line.saturating_sub(1)).cloned().unwrap_or_else(|| "setup".into()),
            message: d.message.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_is_a_setup_file_the_reader_accepts_and_reads_back() {
        let form = Form::of_preset(&mafia_engine::PRESETS[0]);
        let (text, fields) = form.to_toml();
        assert_eq!(text.lines().count(), fields.len());
        let names = ["forum", "random", "classic"];
        let file = crate::input::parse_setup("t.toml", &text, &names).unwrap();
        let back = Form::of_file(&file);
        assert_eq!(back.base.as_deref(), Some("classic"));
        let (mut got, mut roles) = (back.roles, form.roles.clone());
        got.sort();
        roles.sort();
        assert_eq!(got, roles);
    }

    #[test]
    fn a_refused_count_is_put_at_its_field() {
        let mut form = Form::of_preset(&mafia_engine::PRESETS[0]);
        form.roles[0].1 = "2".into(); // two Dons: a unique role
        let (text, fields) = form.to_toml();
        let e = crate::input::parse_setup("t.toml", &text, &["forum"]).unwrap_err();
        let p = field_problems(&e, &fields);
        assert!(p.iter().any(|p| p.field == "roles.don"), "{p:?}");
    }
}
