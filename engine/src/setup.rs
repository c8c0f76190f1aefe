//! Setups: an unchecked [`Setup`] (what a file or preset says) becomes a
//! checked [`Game`] through [`Game::new`], which reports *every* problem at
//! once. The inner loop never re-validates.

use crate::night::order::{NIGHT_ORDER, NightStep};
use crate::role::{Camp, Role, RoleSet, RuleSet};
use crate::rules::{CampKill, MafiaWin, NoKillLimit, Rules, probability_threshold};
use crate::seat::MAX_PLAYERS;
use std::fmt;

/// What a setup file or preset says, before checking. Counts are wide so an
/// absurd count is reported rather than wrapped.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The setup's name (a preset's, or the file's stem).
    pub name: String,
    /// How many of each role, indexed by `Role as usize`.
    pub counts: [u64; Role::COUNT],
    /// The rule settings.
    pub rules: Rules,
    /// E30: a designer's night order (every step once, the start of night
    /// first); `None` = the default [`NIGHT_ORDER`].
    pub night_order: Option<Vec<NightStep>>,
}

impl Setup {
    /// A setup named `name` with no roles and the default rules.
    pub fn new(name: &str) -> Setup {
        Setup { name: name.to_string(), counts: [0; Role::COUNT], rules: Rules::default(), night_order: None }
    }
    /// The setup of the given roles, one entry per seat (tests, scenarios).
    pub fn of_roles(name: &str, roles: &[Role]) -> Setup {
        let mut s = Setup::new(name);
        for &r in roles {
            s.counts[r as usize] += 1;
        }
        s
    }
    /// Sets a rule by name (see [`Rules::set`]).
    pub fn rule(mut self, key: &str, value: &str) -> Result<Setup, crate::RuleError> {
        self.rules.set(key, value)?;
        Ok(self)
    }
    /// The setup with `count` players of `role`.
    pub fn with(mut self, role: Role, count: u64) -> Setup {
        self.counts[role as usize] = count;
        self
    }
    /// How many players the counts add up to.
    pub fn players(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// One problem with a setup, with the place it comes from (`roles.don`,
/// `rules.absence`, or `roles` for the whole table), so a file reader can
/// point at the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupProblem {
    /// Where: `roles.don`, `rules.absence`, `roles` for the whole table, …
    pub path: String,
    /// What is wrong, in words.
    pub message: String,
}

/// Every problem found in a setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// Every problem, in the order found.
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
    /// The roles present.
    pub(crate) present: RoleSet,
    /// Any role of the extended set is present (E1–E32 apply).
    pub(crate) extended: bool,
    /// `rules.mafia_win`, `rules.no_kill_limit` and `rules.camp_kill` with `auto` resolved.
    pub(crate) mafia_win: MafiaWin,
    pub(crate) no_kill_limit: Option<u8>,
    pub(crate) leader_kill: bool,
    pub(crate) night_order: [NightStep; 7],
    /// Bit `step as u8` set: some role of the setup can make a move in that
    /// step tonight (its own, an appointed or promoted one, a borrowed one,
    /// a camp kill, a guest's death, a search). Other steps are skipped.
    pub(crate) active_steps: u8,
    /// The rules with every `auto` resolved ([`Game::resolved_rules`]).
    pub(crate) resolved: Rules,
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
        let extended = Role::ALL.iter().any(|r| r.info().set == RuleSet::Extended && setup.counts[*r as usize] > 0);
        let mafia_win = match setup.rules.mafia_win {
            MafiaWin::Auto if extended => MafiaWin::Elimination,
            MafiaWin::Auto => MafiaWin::Parity,
            w => w,
        };
        let mafia = in_camp(Camp::Mafia);
        let bandits = in_camp(Camp::Bandits);
        let town = in_camp(Camp::Town);
        let camps = [mafia, town, bandits].iter().filter(|&&c| c > 0).count();
        if n > 0 && camps < 2 {
            push("roles", "all players are in one camp: the game would be over before it starts (C17, C18, E2)".into());
        } else if n == 0 {
            push("roles", "no players".into());
        } else if mafia > 0 && bandits == 0 && mafia_win == MafiaWin::Parity && mafia >= town {
            push(
                "roles",
                format!("{mafia} mafia against {town} others: the mafia already have parity before day 1 (C18)"),
            );
        }
        let mut night_order = NIGHT_ORDER;
        if let Some(order) = &setup.night_order {
            let mut seen = [false; 7];
            let mut ok = order.len() == 7;
            for &step in order {
                ok &= !std::mem::replace(&mut seen[step as usize], true);
            }
            if !ok {
                let missing: Vec<&str> = NIGHT_ORDER.iter().filter(|s| !seen[**s as usize]).map(|s| s.key()).collect();
                push(
                    "night_order",
                    format!(
                        "must name each of the 7 steps once, got {} entries{}",
                        order.len(),
                        if missing.is_empty() { String::new() } else { format!(" (missing: {})", missing.join(", ")) }
                    ),
                );
            } else if order[0] != NightStep::StartOfNight {
                push("night_order", "the start of night must come first (E30.1)".into());
            } else {
                night_order.copy_from_slice(order);
            }
        }
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        let mut roles = [Role::Citizen; MAX_PLAYERS];
        let mut counts = [0u8; Role::COUNT];
        let mut present = RoleSet::EMPTY;
        let mut k = 0;
        for role in Role::ALL {
            let c = setup.counts[role as usize] as usize;
            counts[role as usize] = c as u8;
            if c > 0 {
                present.insert(role);
            }
            roles[k..k + c].fill(role);
            k += c;
        }
        let mut game = Game {
            name: setup.name.clone(),
            n: n as u8,
            roles,
            counts,
            rules: setup.rules,
            absence_threshold: probability_threshold(setup.rules.absence),
            modkill_threshold: probability_threshold(setup.rules.modkill),
            present,
            extended,
            mafia_win,
            no_kill_limit: match setup.rules.no_kill_limit {
                NoKillLimit::Auto if extended => None,
                NoKillLimit::Auto => Some(3),
                NoKillLimit::Off => None,
                NoKillLimit::Nights(k) => Some(k),
            },
            leader_kill: match setup.rules.camp_kill {
                CampKill::Auto => extended,
                CampKill::Unanimous => false,
                CampKill::Leader => true,
            },
            night_order,
            active_steps: active_steps(present),
            resolved: setup.rules,
        };
        game.resolved = game.resolve_auto();
        Ok(game)
    }

    /// The rules this game plays, every `auto` resolved (C4/E8, C8, C18/E2).
    pub fn resolved_rules(&self) -> Rules {
        self.resolved
    }

    fn resolve_auto(&self) -> Rules {
        Rules {
            mafia_win: self.mafia_win,
            no_kill_limit: match self.no_kill_limit {
                None => NoKillLimit::Off,
                Some(k) => NoKillLimit::Nights(k),
            },
            camp_kill: if self.leader_kill { CampKill::Leader } else { CampKill::Unanimous },
            ..self.rules
        }
    }

    /// The label of the rules a run of this game plays: every *resolved*
    /// setting that differs from the classic seed's rules ([`Rules::classic`]),
    /// as `key=value` pairs in [`crate::RULE_KEYS`] order. Two runs with the
    /// same label played the same rules; an `auto` that switched is named.
    pub fn rules_label(&self) -> String {
        self.resolved_rules().diff(&Rules::classic()).join(" ")
    }

    /// The settings left at `auto` and what they resolved to, as
    /// `key=value` pairs (empty when none is `auto`).
    pub fn auto_choices(&self) -> Vec<String> {
        let resolved = self.resolved_rules();
        ["mafia_win", "no_kill_limit", "camp_kill"]
            .into_iter()
            .filter(|k| self.rules.get(k).as_deref() == Some("auto"))
            .map(|k| format!("{k}={}", resolved.get(k).unwrap_or_default()))
            .collect()
    }

    /// Whether the setup deals extended roles together with roles of the
    /// classic set or plain players, so `auto` settings took their extended
    /// values in a game a designer may read as classic.
    pub fn mixes_rule_sets(&self) -> bool {
        self.extended && self.present.iter().any(|r| r.info().set != RuleSet::Extended)
    }

    /// C18/E2 with `auto` resolved.
    pub fn mafia_win(&self) -> MafiaWin {
        self.mafia_win
    }
    /// C8 with `auto` resolved; `None` = off.
    pub fn no_kill_limit(&self) -> Option<u8> {
        self.no_kill_limit
    }
    /// C4/E8 with `auto` resolved: whether the highest-ranked sender decides the kill.
    pub fn leader_kill(&self) -> bool {
        self.leader_kill
    }
    /// Whether any extended role is present.
    pub fn is_extended(&self) -> bool {
        self.extended
    }
    /// The night order (E30), possibly reordered by the setup.
    pub fn night_order(&self) -> &[NightStep; 7] {
        &self.night_order
    }
    /// The roles present.
    pub fn roles_present(&self) -> RoleSet {
        self.present
    }

    /// The setup's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// How many players sit at the table.
    pub fn players(&self) -> usize {
        self.n as usize
    }
    /// The rule settings.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// How many players of `role` are dealt.
    pub fn count(&self, role: Role) -> usize {
        self.counts[role as usize] as usize
    }
    /// The roles of the setup in a fixed order (the deal's starting point).
    pub fn role_list(&self) -> &[Role] {
        &self.roles[..self.n as usize]
    }
}

/// The night steps a setup with the roles `present` can use (see `Game::active_steps`).
fn active_steps(present: RoleSet) -> u8 {
    let mut steps = 1u8 << NightStep::StartOfNight as u8;
    for r in present.iter() {
        let info = r.info();
        // The Actor takes a present mafia role, the Deputy the Detective's or the Doctor's,
        // the Role Prostitute a present town role's: their steps are those roles' steps.
        if let Some(step) = info.night.step() {
            steps |= 1 << step as u8;
        }
        // E12: an Actor sends a nick once appointed or when last of his camp.
        if info.shoots || matches!(r, Role::Psycho | Role::Actor) {
            steps |= 1 << NightStep::Kills as u8;
        }
        if info.camp == Camp::Bandits {
            steps |= 1 << NightStep::InformationOnMoves as u8;
        }
        // E19: a borrowed Chosen's secret votes are a mark for the next day.
        if r == Role::Chosen && present.contains(Role::Prostitute) {
            steps |= 1 << NightStep::Marks as u8;
        }
    }
    steps
}

/// A built-in setup.
pub struct Preset {
    /// The name a command line or lineup uses (`classic`).
    pub name: &'static str,
    /// One line on what it is, with its clause.
    pub about: &'static str,
    /// How many of each role.
    pub counts: &'static [(Role, u64)],
}

/// The built-in setups.
pub const PRESETS: [Preset; 4] = [
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
    Preset {
        name: "extended",
        about: "E1: all 20 extended roles once, 20 players (5 mafia, 10 town, 5 bandits)",
        counts: &[
            (Role::Boss, 1),
            (Role::Thief, 1),
            (Role::Guard, 1),
            (Role::Swindler, 1),
            (Role::Actor, 1),
            (Role::Detective, 1),
            (Role::Deputy, 1),
            (Role::Doctor, 1),
            (Role::Chosen, 1),
            (Role::Journalist, 1),
            (Role::Witch, 1),
            (Role::Prostitute, 1),
            (Role::Lucky, 1),
            (Role::Shooter, 1),
            (Role::Sleepwalker, 1),
            (Role::Psycho, 1),
            (Role::Miner, 1),
            (Role::Thug, 1),
            (Role::Scout, 1),
            (Role::Trickster, 1),
        ],
    },
    Preset {
        name: "forum-16",
        about: "E4: a forum-sized mix of 16: Boss, Thief, Swindler, a mafioso; Detective, Doctor, Witch, \
                Lucky, Sleepwalker, Shooter, Chosen, 3 citizens; Psycho, Thug",
        counts: &[
            (Role::Boss, 1),
            (Role::Thief, 1),
            (Role::Swindler, 1),
            (Role::Mafioso, 1),
            (Role::Detective, 1),
            (Role::Doctor, 1),
            (Role::Witch, 1),
            (Role::Lucky, 1),
            (Role::Sleepwalker, 1),
            (Role::Shooter, 1),
            (Role::Chosen, 1),
            (Role::Citizen, 3),
            (Role::Psycho, 1),
            (Role::Thug, 1),
        ],
    },
];

impl Preset {
    /// The preset of this name.
    pub fn find(name: &str) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.name == name)
    }
    /// The preset as an unchecked setup with the default rules.
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
