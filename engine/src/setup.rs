//! Setups: an unchecked [`Setup`] (what a file or preset says) becomes a
//! checked [`Game`] through [`Game::new`], which reports *every* problem at
//! once. The inner loop never re-validates.

use crate::role::{Camp, Role};
use crate::rules::{MafiaWin, Rules, probability_threshold};
use crate::seat::MAX_PLAYERS;
use std::fmt;

/// What a setup file or preset says, before checking. Counts are wide so an
/// absurd count is reported rather than wrapped.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub name: String,
    /// How many of each role, indexed by `Role as usize`.
    pub counts: [u64; Role::COUNT],
    pub rules: Rules,
}

impl Setup {
    pub fn new(name: &str) -> Setup {
        Setup { name: name.to_string(), counts: [0; Role::COUNT], rules: Rules::default() }
    }
    pub fn with(mut self, role: Role, count: u64) -> Setup {
        self.counts[role as usize] = count;
        self
    }
    pub fn players(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// One problem with a setup, with the place it comes from (`roles.don`,
/// `rules.absence`, or `roles` for the whole table), so a file reader can
/// point at the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupProblem {
    pub path: String,
    pub message: String,
}

/// Every problem found in a setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}: {}", p.path, p.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupError {}

/// A checked setup: the roles to deal and the rules. Immutable; shared by
/// every worker.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) name: String,
    pub(crate) n: u8,
    /// The multiset of roles in a fixed order (by role, then copy); the deal
    /// shuffles a copy of it.
    pub(crate) roles: [Role; MAX_PLAYERS],
    pub(crate) counts: [u8; Role::COUNT],
    pub(crate) rules: Rules,
    pub(crate) absence_threshold: u64,
    pub(crate) modkill_threshold: u64,
}

impl Game {
    /// Checks a setup and reports every problem at once.
    pub fn new(setup: &Setup) -> Result<Game, SetupError> {
        let mut problems = Vec::new();
        let mut push = |path: &str, message: String| problems.push(SetupProblem { path: path.to_string(), message });
        let n = setup.players();
        for role in Role::ALL {
            let c = setup.counts[role as usize];
            if role.info().unique && c > 1 {
                push(&format!("roles.{}", role.name()), format!("at most one {} per game, got {c}", role.name()));
            }
        }
        if n > MAX_PLAYERS as u64 {
            push("roles", format!("{n} players; the engine supports at most {MAX_PLAYERS}"));
        }
        let in_camp = |camp: Camp| -> u64 {
            Role::ALL.iter().filter(|r| r.camp() == camp).map(|&r| setup.counts[r as usize]).sum()
        };
        let mafia = in_camp(Camp::Mafia);
        let others = n - mafia;
        if mafia == 0 {
            push("roles", "no mafia role: the game would be over before it starts (C17)".to_string());
        }
        if others == 0 {
            push("roles", "nobody outside the mafia: the game would be over before it starts (C18)".to_string());
        } else if mafia > 0 && setup.rules.mafia_win == MafiaWin::Parity && mafia >= others {
            push(
                "roles",
                format!("{mafia} mafia against {others} others: the mafia already have parity before day 1 (C18)"),
            );
        }
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        let mut roles = [Role::Citizen; MAX_PLAYERS];
        let mut counts = [0u8; Role::COUNT];
        let mut k = 0;
        for role in Role::ALL {
            let c = setup.counts[role as usize] as usize;
            counts[role as usize] = c as u8;
            roles[k..k + c].fill(role);
            k += c;
        }
        Ok(Game {
            name: setup.name.clone(),
            n: n as u8,
            roles,
            counts,
            rules: setup.rules,
            absence_threshold: probability_threshold(setup.rules.absence),
            modkill_threshold: probability_threshold(setup.rules.modkill),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn players(&self) -> usize {
        self.n as usize
    }
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn count(&self, role: Role) -> usize {
        self.counts[role as usize] as usize
    }
    /// The roles of the setup in a fixed order (the deal's starting point).
    pub fn role_list(&self) -> &[Role] {
        &self.roles[..self.n as usize]
    }
}

/// A built-in setup.
pub struct Preset {
    pub name: &'static str,
    pub about: &'static str,
    pub counts: &'static [(Role, u64)],
}

/// The built-in setups.
pub const PRESETS: [Preset; 2] = [
    Preset {
        name: "classic",
        about: "C1: 10 players; Don and 2 mafiosi against the Commissar and 6 citizens",
        counts: &[(Role::Don, 1), (Role::Mafioso, 2), (Role::Commissar, 1), (Role::Citizen, 6)],
    },
    Preset {
        name: "classic-13",
        about: "13 players; Don and 3 mafiosi against the Commissar and 8 citizens",
        counts: &[(Role::Don, 1), (Role::Mafioso, 3), (Role::Commissar, 1), (Role::Citizen, 8)],
    },
];

impl Preset {
    pub fn find(name: &str) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.name == name)
    }
    pub fn setup(&self) -> Setup {
        let mut s = Setup::new(self.name);
        for &(r, c) in self.counts {
            s.counts[r as usize] = c;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c1_classic_preset_has_ten_players_three_mafia() {
        let g = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
        assert_eq!(g.players(), 10);
        assert_eq!(g.count(Role::Don), 1);
        assert_eq!(g.count(Role::Mafioso), 2);
        assert_eq!(g.count(Role::Commissar), 1);
        assert_eq!(g.count(Role::Citizen), 6);
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let s = Setup::new("bad").with(Role::Don, 2).with(Role::Commissar, 3).with(Role::Citizen, 0);
        let e = Game::new(&s).unwrap_err();
        let paths: Vec<&str> = e.problems.iter().map(|p| p.path.as_str()).collect();
        assert!(paths.contains(&"roles.don"), "{e}");
        assert!(paths.contains(&"roles.commissar"), "{e}");
        assert_eq!(e.problems.len(), 2, "{e}");
    }

    #[test]
    fn impossible_counts_are_refused() {
        assert!(Game::new(&Setup::new("x").with(Role::Citizen, 5)).is_err());
        assert!(Game::new(&Setup::new("x").with(Role::Mafioso, 2).with(Role::Citizen, 2)).is_err());
        assert!(Game::new(&Setup::new("x").with(Role::Mafioso, 1).with(Role::Citizen, 64)).is_err());
        assert!(Game::new(&Setup::new("x").with(Role::Mafioso, 1).with(Role::Citizen, 63)).is_ok());
    }
}
