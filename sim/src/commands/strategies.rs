//! `mafia strategies`: the strategy catalogue (`mafia_agents::STRATEGIES`)
//! for people — every strategy, the roles it plays, what it does, and each
//! parameter with its values and default — and how to choose them.

use crate::error::Error;
use mafia_agents::{STRATEGIES, StrategyInfo};
use std::fmt::Write;
use std::io::Write as _;

/// Lines are wrapped to this width.
const WIDTH: usize = 100;

/// `text` wrapped to [`WIDTH`], every line starting with `indent` spaces
/// (the first one too).
fn wrap(text: &str, indent: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent + line.len() + 1 + word.len() > WIDTH {
            let _ = writeln!(out, "{:indent$}{line}", "");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{:indent$}{line}", "");
    }
    out
}

/// One strategy: its head line, what it does, its parameters.
fn strategy_text(s: &StrategyInfo, out: &mut String) {
    let _ = writeln!(out, "{} — plays {}", s.name, s.plays);
    out.push_str(&wrap(s.about, 4));
    if s.name == "forum" {
        out.push_str(&wrap("parameters: every parameter below, for the roles each strategy plays", 4));
    } else if s.params.is_empty() {
        out.push_str(&wrap("parameters: none", 4));
    }
    let wn = s.params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let wv = s.params.iter().map(|p| p.values.to_string().len()).max().unwrap_or(0);
    for p in s.params {
        let line = format!("    {:<wn$}  {:<wv$}  default {}", p.name, p.values.to_string(), p.default);
        let _ = writeln!(out, "{}", line.trim_end());
        out.push_str(&wrap(p.about, 8));
    }
}

/// The whole listing.
pub fn strategies_text() -> String {
    let mut out = String::new();
    out.push_str(&wrap(
        "Strategies are chosen per seat: a default, then per camp (town, mafia, bandits), then per role. A \
         role's choice overrides its camp's, a camp's the default's, and the forum family's parameters layer the \
         same way. A strategy may be set only for the roles it plays, and only for roles the setup deals. \
         A camp may play a mix: `CAMP@SHARE=STRATEGY[:PARAM=VALUE…]` (several per camp, shares adding up to at \
         most 1) plays that camp layer instead in a share of the games, one alternative per game for every seat \
         of the camp alike, drawn from the game's own mix stream; the other games play the camp's usual layers. A \
         camp's and a role's layers lie over every alternative; a new default replaces every mix.",
        0,
    ));
    out.push_str(
        "\n  on the command line:  --agents forum,mafia=mafia:bus=0.25,commissar=reveal:on=at-once\n  \
         in a setup file:      [agents]\n                        mafia = \"mafia:bus=0.25\"\n                        \
         commissar = { strategy = \"reveal\", on = \"first-mafia\", by_day = 3 }\n  \
         a mix:                --agents forum,mafia@0.3=forum:fake=1,mafia@0.2=forum:preempt=1\n",
    );
    for s in STRATEGIES {
        out.push('\n');
        strategy_text(s, &mut out);
    }
    out
}

pub fn cmd_strategies() -> Result<(), Error> {
    std::io::stdout().lock().write_all(strategies_text().as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_strategy_and_parameter_is_listed_within_the_width() {
        let text = strategies_text();
        for s in STRATEGIES {
            assert!(text.contains(&format!("\n{} — plays ", s.name)), "{}: {text}", s.name);
            for p in s.params {
                let line = format!("{}  ", p.name);
                assert!(text.lines().any(|l| l.trim_start().starts_with(&line) && l.contains(p.default)), "{}", p.name);
            }
        }
        for l in text.lines() {
            // Only a single word longer than the width may stick out.
            assert!(l.chars().count() <= WIDTH || !l.trim().contains(' '), "{l}");
        }
    }

    #[test]
    fn wrap_keeps_words_whole() {
        assert_eq!(wrap("a b c", 2), "  a b c\n");
        let long = "word ".repeat(40);
        let w = wrap(&long, 4);
        assert!(w.lines().count() > 1);
        assert!(w.lines().all(|l| l.starts_with("    word") && l.len() <= WIDTH));
    }
}
