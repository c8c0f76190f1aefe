//! `mafia night-order`: each step of the night order (E30), the roles that
//! move in it and what each move does; with `--setup`, only the roles the
//! setup deals, in its order.

use crate::args::{apply_rules, check_game, load};
use crate::error::Error;
use clap::Args;
use mafia_engine::{Game, Setup};
use std::io::Write;

#[derive(Args, Debug)]
pub struct NightOrderArgs {
    /// Only the roles of this setup (a preset or a file), in its night order; all roles without it.
    #[arg(long, value_name = "NAME|FILE")]
    pub setup: Option<String>,
    /// A rule setting, `key=value` (repeatable), e.g. `resolution=sequential`.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
}

pub fn cmd_night_order(a: NightOrderArgs) -> Result<(), Error> {
    let game = match &a.setup {
        None if !a.rules.is_empty() => {
            // Rules alone: the default order with those settings, for every role.
            let mut setup = Setup::new("all roles");
            apply_rules(&mut setup, &a.rules)?;
            return write_night_order(&setup.rules, None);
        }
        None => None,
        Some(name) => {
            let mut setup = load(name, None)?.setup;
            apply_rules(&mut setup, &a.rules)?;
            Some(check_game(&setup)?)
        }
    };
    let rules = game.as_ref().map_or_else(mafia_engine::Rules::default, |g| *g.rules());
    write_night_order(&rules, game.as_ref())
}

/// The night-order table (E30): each step of `game`'s order (the default
/// order without a game) with the roles that move in it and what each of
/// their moves does; with a game, only the roles it deals.
fn write_night_order(rules: &mafia_engine::Rules, game: Option<&Game>) -> Result<(), Error> {
    use mafia_engine::{NIGHT_ORDER, NightStep, Resolution, Role};
    let present = |r: Role| game.is_none_or(|g| g.count(r) > 0);
    let names = |roles: &mut dyn Iterator<Item = Role>| -> Vec<&'static str> {
        roles.filter(|&r| present(r)).map(|r| r.name()).collect()
    };
    let order: &[NightStep] = game.map_or(&NIGHT_ORDER[..], |g| &g.night_order()[..]);
    let mut out = std::io::stdout().lock();
    match game {
        Some(g) => writeln!(out, "Night order of setup {} ({} players), E30:", g.name(), g.players())?,
        None => writeln!(out, "Night order (E30), every role:")?,
    }
    writeln!(out, "each step sees what the earlier steps did; a move that fails leaves no trace.")?;
    let (resolution, other) = match rules.resolution {
        Resolution::Graph => ("graph", "sequential: the plain sequence, an earlier move always wins"),
        Resolution::Sequential => ("sequential", "graph: E29's dependency graph with its cycle rule"),
    };
    writeln!(out, "Control moves resolve with resolution = {resolution} (E29; the other value is {other}).")?;
    for (i, step) in order.iter().enumerate() {
        let roles = names(&mut step.roles());
        let roles = if roles.is_empty() { String::new() } else { format!(" — {}", roles.join(", ")) };
        writeln!(out, "\n{}. {}{roles}", i + 1, step.name())?;
        writeln!(out, "   {}", step.about())?;
        // Each move of the step whose role is dealt, with what it does.
        let mut line = |what: &str, about: &str| writeln!(out, "     {what:<11} {about}");
        for ability in step.abilities() {
            let holders = names(&mut Role::ALL.into_iter().filter(|r| r.info().night.index() == ability.index()));
            if !holders.is_empty() {
                line(ability.info().name, ability.info().about)?;
            }
        }
        match step {
            NightStep::StartOfNight => {
                if present(Role::Actor) {
                    line(
                        "appoint",
                        "the Actor takes the dead mafia role the Boss names (by default the best-ranked; E12)",
                    )?;
                }
                if present(Role::Deputy) {
                    line("promote", "the Deputy takes the role of the dead Detective or Doctor (E14)")?;
                }
            }
            NightStep::Kills => {
                // E12: the Actor sends nicks once appointed (or as the last of the mafia).
                let shooters = names(&mut Role::ALL.into_iter().filter(|r| r.info().shoots || *r == Role::Actor));
                if !shooters.is_empty() {
                    let how = match game.map(|g| g.leader_kill()) {
                        Some(true) => "the highest-ranked sender decides (camp_kill = leader)",
                        Some(false) => "every living member sends the same nick (camp_kill = unanimous)",
                        None => "camp_kill: unanimous for classic roles only, else the highest-ranked sender decides",
                    };
                    line("camp kill", &format!("one kill per camp; {how} (C4, E8)"))?;
                }
                if present(Role::Psycho) {
                    line("guest", "last night's guest dies unless healed (E23); the blast (E24)")?;
                }
                if present(Role::Lucky) {
                    line("spare life", "the Lucky's one spare life absorbs every kill of one night (E21)")?;
                }
            }
            NightStep::InformationOnMoves
                if Role::ALL.into_iter().any(|r| r.camp() == mafia_engine::Camp::Bandits && present(r)) =>
            {
                line("search", "each bandit may name a suspected bandit; two bandits meet (E3)")?;
            }
            _ => {}
        }
    }
    if present(Role::Prostitute) {
        writeln!(
            out,
            "\nThe Role Prostitute's borrowed move (E19) is made in the step of the role she borrows (E31)."
        )?;
    }
    Ok(())
}
