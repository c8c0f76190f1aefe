//! `mafia setups` and `mafia rules`: the built-in setups (with the
//! strategies) and the rule settings, as tables for people.

use crate::error::Error;
use mafia_agents::STRATEGIES;
use mafia_engine::{PRESETS, RULE_KEYS};
use std::io::Write;

/// `mafia setups`: each preset with its roles by camp, then the strategies.
pub fn cmd_setups() -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    for p in PRESETS.iter() {
        let players: u64 = p.counts.iter().map(|c| c.1).sum();
        writeln!(out, "{:<12} {:>2} players  {}", p.name, players, p.about)?;
        // The roles by camp, as a setup file's [roles] table writes them.
        for camp in mafia_engine::Camp::ALL {
            let roles: Vec<String> =
                p.counts.iter().filter(|(r, _)| r.camp() == camp).map(|(r, c)| format!("{r}={c}")).collect();
            if !roles.is_empty() {
                writeln!(out, "{:<13}{:<9}{}", "", camp.name(), roles.join(" "))?;
            }
        }
    }
    writeln!(out, "\nstrategies:")?;
    for s in STRATEGIES {
        writeln!(out, "  {:<10} {}", s.name, s.about)?;
    }
    Ok(())
}

/// `mafia rules`: every rule setting, its values, its clause and default.
pub fn cmd_rules() -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    // The long `auto` defaults go last, so the columns stay narrow.
    let w = |f: fn(&mafia_engine::RuleKey) -> &str, head: &str| {
        RULE_KEYS.iter().map(|k| f(k).len()).chain([head.len()]).max().unwrap_or(0)
    };
    let (wn, wv, wc) = (w(|k| k.name, "rule"), w(|k| k.values, "values"), w(|k| k.clause, "clause"));
    writeln!(out, "{:<wn$}  {:<wv$}  {:<wc$}  default", "rule", "values", "clause")?;
    for k in RULE_KEYS.iter() {
        writeln!(out, "{:<wn$}  {:<wv$}  {:<wc$}  {}", k.name, k.values, k.clause, k.default_text())?;
    }
    Ok(())
}
