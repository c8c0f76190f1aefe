//! Which strategy plays which seat: a default, overridden per camp, then
//! per role (`--agents classic,mafia=random,commissar=classic`).

use crate::agent::Agent;
use mafia_engine::{Camp, Role};
use std::fmt;
use std::sync::Arc;

/// A built-in strategy or a registered plugin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Random,
    Classic,
    /// The n-th plugin registered on the lineup.
    Plugin(u8),
}

/// The built-in strategies: name and one line about each.
pub const BUILTIN: [(&str, &str); 2] = [
    ("random", "uniformly random votes, checks and (coordinated) kills; never PASS, never changes"),
    ("classic", "forum play: kill order, Commissar hunt and reveal, suspicion-scored votes"),
];

/// Makes a fresh agent for a plugin strategy (one per seat per worker).
pub type AgentFactory = Arc<dyn Fn() -> Box<dyn Agent> + Send + Sync>;

/// A strategy assignment.
#[derive(Clone)]
pub struct Lineup {
    default: Strategy,
    camps: [Option<Strategy>; Camp::COUNT],
    roles: [Option<Strategy>; Role::COUNT],
    plugins: Vec<(String, AgentFactory)>,
}

/// Why a lineup spec was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineupError {
    UnknownStrategy { name: String, known: Vec<String> },
    UnknownKey { key: String },
    Malformed { part: String },
}

impl fmt::Display for LineupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineupError::UnknownStrategy { name, known } => {
                write!(f, "unknown strategy `{name}` (known: {})", known.join(", "))
            }
            LineupError::UnknownKey { key } => {
                let roles: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
                write!(
                    f,
                    "`{key}` is neither a camp (town, mafia, bandits), a role ({}) nor `default`",
                    roles.join(", ")
                )
            }
            LineupError::Malformed { part } => {
                write!(f, "`{part}` is not STRATEGY or KEY=STRATEGY")
            }
        }
    }
}

impl std::error::Error for LineupError {}

impl Default for Lineup {
    fn default() -> Self {
        Lineup::all(Strategy::Classic)
    }
}

impl fmt::Debug for Lineup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

impl Lineup {
    /// Every seat plays `s`.
    pub fn all(s: Strategy) -> Lineup {
        Lineup { default: s, camps: [None; Camp::COUNT], roles: [None; Role::COUNT], plugins: Vec::new() }
    }

    /// Registers a plugin strategy under `name`, usable in specs afterwards.
    pub fn register(&mut self, name: &str, factory: AgentFactory) -> Strategy {
        self.plugins.push((name.to_string(), factory));
        Strategy::Plugin((self.plugins.len() - 1) as u8)
    }

    pub fn plugin(&self, i: u8) -> &AgentFactory {
        &self.plugins[i as usize].1
    }

    /// All strategy names this lineup accepts.
    pub fn strategy_names(&self) -> Vec<String> {
        BUILTIN.iter().map(|(n, _)| n.to_string()).chain(self.plugins.iter().map(|(n, _)| n.clone())).collect()
    }

    pub fn strategy(&self, name: &str) -> Result<Strategy, LineupError> {
        match name {
            "random" => Ok(Strategy::Random),
            "classic" => Ok(Strategy::Classic),
            _ => {
                self.plugins.iter().position(|(n, _)| n == name).map(|i| Strategy::Plugin(i as u8)).ok_or_else(|| {
                    LineupError::UnknownStrategy { name: name.to_string(), known: self.strategy_names() }
                })
            }
        }
    }

    pub fn strategy_name(&self, s: Strategy) -> &str {
        match s {
            Strategy::Random => "random",
            Strategy::Classic => "classic",
            Strategy::Plugin(i) => &self.plugins[i as usize].0,
        }
    }

    /// Sets one key (`default`, a camp or a role) to a strategy name.
    pub fn set(&mut self, key: &str, strategy: &str) -> Result<(), LineupError> {
        let s = self.strategy(strategy)?;
        if key == "default" || key == "all" {
            self.default = s;
        } else if let Some(c) = Camp::from_name(key) {
            self.camps[c as usize] = Some(s);
        } else if let Some(r) = Role::from_name(key) {
            self.roles[r as usize] = Some(s);
        } else {
            return Err(LineupError::UnknownKey { key: key.to_string() });
        }
        Ok(())
    }

    /// Applies a spec: `STRATEGY` (every seat) and/or `KEY=STRATEGY` parts,
    /// comma-separated, left to right.
    pub fn apply(&mut self, spec: &str) -> Result<(), LineupError> {
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                None => self.set("default", part)?,
                Some((k, v)) if !k.trim().is_empty() && !v.trim().is_empty() => self.set(k.trim(), v.trim())?,
                Some(_) => {
                    return Err(LineupError::Malformed { part: part.to_string() });
                }
            }
        }
        Ok(())
    }

    /// The strategy that plays `role`: role override, else camp, else default.
    #[inline]
    pub fn for_role(&self, role: Role) -> Strategy {
        self.roles[role as usize].or(self.camps[role.camp() as usize]).unwrap_or(self.default)
    }

    /// A short label: the default, then overrides (`classic,mafia=random`).
    pub fn label(&self) -> String {
        let mut parts = vec![self.strategy_name(self.default).to_string()];
        for c in Camp::ALL {
            if let Some(s) = self.camps[c as usize] {
                parts.push(format!("{}={}", c.name(), self.strategy_name(s)));
            }
        }
        for r in Role::ALL {
            if let Some(s) = self.roles[r as usize] {
                parts.push(format!("{}={}", r.name(), self.strategy_name(s)));
            }
        }
        parts.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_overrides_camp_overrides_default() {
        let mut l = Lineup::all(Strategy::Classic);
        l.apply("mafia=random,don=classic").unwrap();
        assert_eq!(l.for_role(Role::Mafioso), Strategy::Random);
        assert_eq!(l.for_role(Role::Don), Strategy::Classic);
        assert_eq!(l.for_role(Role::Citizen), Strategy::Classic);
        assert_eq!(l.label(), "classic,mafia=random,don=classic");
    }

    #[test]
    fn bad_specs_name_the_problem() {
        let mut l = Lineup::default();
        let e = l.apply("clever").unwrap_err();
        assert!(e.to_string().contains("unknown strategy `clever`"), "{e}");
        let e = l.apply("sheriff=random").unwrap_err();
        assert!(e.to_string().contains("`sheriff`"), "{e}");
        assert!(matches!(l.apply("mafia="), Err(LineupError::Malformed { .. })));
    }
}
