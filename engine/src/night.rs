//! The night: collecting moves, then resolving them step by step in the
//! order of a table ([`NIGHT_ORDER`]).
//!
//! The steps are those of E30 so the extended roles slot in as rows of the
//! role table and arms of [`State::resolve_night`], not as a rewrite. In the
//! classic set only two steps have movers: information (the Don's and the
//! Commissar's checks, C5–C6) and kills (the camp kill, C4). Night moves are
//! simultaneous (C7): every check is judged against the state at dusk, and a
//! checker killed tonight still learns his answer.

use crate::decide::Players;
use crate::event::{DeathCause, EndCause, Event, Log, MissReason};
use crate::role::{Camp, NightAbility, Role};
use crate::seat::{MAX_PLAYERS, PlayerSet, Seat};
use crate::setup::Game;
use crate::state::{CheckOutcome, End, Phase, State};
use rand::Rng;

/// A step of the night order (E30). Each role's move belongs to one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NightStep {
    /// Statuses of last night expire; carried effects take hold (E30.1).
    StartOfNight,
    /// Blocks and redirects (E29). No classic role.
    Control,
    /// Guards and heals. No classic role.
    Protection,
    /// Checks of people: the Don (C5), the Commissar (C6).
    Information,
    /// The camp kill (C4).
    Kills,
    /// Marks for later (hexes, mines). No classic role.
    Marks,
    /// Information on moves (watchers). No classic role.
    InformationOnMoves,
}

impl NightStep {
    pub const fn name(self) -> &'static str {
        match self {
            NightStep::StartOfNight => "start of night",
            NightStep::Control => "control moves",
            NightStep::Protection => "protection",
            NightStep::Information => "information on people",
            NightStep::Kills => "kills",
            NightStep::Marks => "marks for later",
            NightStep::InformationOnMoves => "information on moves",
        }
    }

    /// What the step does, for the night-order table.
    pub const fn about(self) -> &'static str {
        match self {
            NightStep::StartOfNight => "last night's statuses expire; carried effects take hold",
            NightStep::Control => "blocks and redirects",
            NightStep::Protection => "guards and heals",
            NightStep::Information => "checks of people, answered against the state at dusk (C7)",
            NightStep::Kills => "each camp's kill: all its living shooters must name the same player (C4)",
            NightStep::Marks => "marks that act later (the next night or day)",
            NightStep::InformationOnMoves => "reports on who moved where",
        }
    }

    /// The roles whose moves resolve in this step.
    pub fn roles(self) -> impl Iterator<Item = Role> {
        Role::ALL.into_iter().filter(move |r| {
            let info = r.info();
            (self == NightStep::Kills && info.shoots) || info.night.step() == Some(self)
        })
    }
}

/// The default night order (E30), as data.
pub const NIGHT_ORDER: [NightStep; 7] = [
    NightStep::StartOfNight,
    NightStep::Control,
    NightStep::Protection,
    NightStep::Information,
    NightStep::Kills,
    NightStep::Marks,
    NightStep::InformationOnMoves,
];

impl NightAbility {
    /// The step this ability resolves in.
    pub const fn step(self) -> Option<NightStep> {
        match self {
            NightAbility::None => None,
            NightAbility::CheckIsRole(_) | NightAbility::CheckCamp => Some(NightStep::Information),
        }
    }
}

const NONE: u8 = 0xFF;

/// Everybody's submitted night moves, validated. Fixed arrays; reused.
#[derive(Clone, Debug)]
pub struct NightMoves {
    /// C4: each shooter's nick (`NONE` = sent nothing).
    kill: [u8; MAX_PLAYERS],
    /// Each player's own role move target (`NONE` = none).
    act: [u8; MAX_PLAYERS],
}

impl Default for NightMoves {
    fn default() -> Self {
        NightMoves { kill: [NONE; MAX_PLAYERS], act: [NONE; MAX_PLAYERS] }
    }
}

impl NightMoves {
    pub fn clear(&mut self) {
        self.kill.fill(NONE);
        self.act.fill(NONE);
    }
    pub fn set_kill(&mut self, shooter: Seat, target: Option<Seat>) {
        self.kill[shooter as usize] = target.unwrap_or(NONE);
    }
    pub fn set_act(&mut self, actor: Seat, target: Option<Seat>) {
        self.act[actor as usize] = target.unwrap_or(NONE);
    }
    pub fn kill(&self, shooter: Seat) -> Option<Seat> {
        Some(self.kill[shooter as usize]).filter(|&t| t != NONE)
    }
    pub fn act(&self, actor: Seat) -> Option<Seat> {
        Some(self.act[actor as usize]).filter(|&t| t != NONE)
    }
}

/// What a night did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NightResult {
    /// Who died.
    pub killed: PlayerSet,
    /// C8: whether a valid unanimous shot was made (a prevented shot counts).
    pub shot: bool,
}

impl State {
    /// Plays night `night`: absence, moves, resolution, deaths, last words,
    /// the end check (C19) and the no-kill rule (C8).
    pub fn run_night<P, A, L>(
        &mut self,
        game: &Game,
        night: u16,
        players: &mut P,
        moves: &mut NightMoves,
        activity: &mut A,
        log: &mut L,
    ) -> Option<End>
    where
        P: Players,
        A: Rng + ?Sized,
        L: Log,
    {
        self.phase = Phase::Night(night);
        players.begin_phase(night, true);
        if L::ENABLED {
            log.push(Event::NightStart { night, alive: self.alive });
        }
        self.draw_presence(game.absence_threshold, activity, log);
        self.collect_night_moves(players, moves, log);
        let result = self.resolve_night(moves, log);
        if !result.killed.is_empty() {
            self.eliminate(result.killed, DeathCause::Killed, log);
            self.last_words(players, log);
            if let Some(end) = self.end_check(game.rules.mafia_win) {
                return Some(self.finish(end, log));
            }
        }
        // C8: consecutive nights without a valid shot give the town the win.
        if result.shot {
            self.nights_without_kill = 0;
        } else {
            self.nights_without_kill = self.nights_without_kill.saturating_add(1);
            if L::ENABLED {
                log.push(Event::NoKillCount { nights: self.nights_without_kill });
            }
            if let Some(limit) = game.rules.no_kill_limit {
                if self.nights_without_kill >= limit {
                    return Some(self.finish(End { winner: Some(Camp::Town), cause: EndCause::NoKillRule }, log));
                }
            }
        }
        None
    }

    /// Asks every present living player with a night move for it and keeps
    /// the legal ones. An illegal target counts as no move (and, for a
    /// shooter, as sending nothing: C4).
    pub fn collect_night_moves<P: Players, L: Log>(&mut self, players: &mut P, moves: &mut NightMoves, log: &mut L) {
        let n = self.n as usize;
        moves.kill[..n].fill(NONE);
        moves.act[..n].fill(NONE);
        for s in self.present.inter(self.night_movers).iter() {
            let info = self.roles[s as usize].info();
            let choice = players.night(&self.observe(s));
            if info.shoots {
                if let Some(t) = choice.kill {
                    // C4: any living player is a legal target.
                    if self.alive.contains(t) {
                        moves.kill[s as usize] = t;
                        if L::ENABLED {
                            log.push(Event::NightKillNick { seat: s, target: t });
                        }
                    } else {
                        self.refuse(s, "night kill target", log);
                    }
                }
            }
            if info.night != NightAbility::None {
                if let Some(t) = choice.act {
                    // C5/C6: a living player other than oneself.
                    if t != s && self.alive.contains(t) {
                        moves.act[s as usize] = t;
                        if L::ENABLED {
                            log.push(Event::NightAct { seat: s, target: t });
                        }
                    } else {
                        self.refuse(s, "night move target", log);
                    }
                }
            }
        }
    }

    /// Resolves submitted moves in the night order. Does not remove the
    /// dead (the caller does, so last words and end checks follow C13/C19).
    pub fn resolve_night<L: Log>(&mut self, moves: &NightMoves, log: &mut L) -> NightResult {
        let mut result = NightResult::default();
        for step in NIGHT_ORDER {
            match step {
                NightStep::Information => {
                    for s in self.alive.inter(self.night_movers).iter() {
                        let Some(t) = moves.act(s) else { continue };
                        match self.roles[s as usize].info().night {
                            NightAbility::CheckCamp => {
                                // C6: the Commissar learns the target's camp.
                                let camp = self.roles[t as usize].camp();
                                let k = &mut self.knowledge[s as usize];
                                k.checked.insert(t);
                                k.camps[camp as usize].insert(t);
                                k.last = Some((t, CheckOutcome::Camp(camp)));
                                if L::ENABLED {
                                    log.push(Event::CampCheck { seat: s, target: t, camp });
                                }
                            }
                            NightAbility::CheckIsRole(role) => {
                                // C5: the Don asks "is he the Commissar?".
                                let yes = self.roles[t as usize] == role;
                                let k = &mut self.knowledge[s as usize];
                                k.checked.insert(t);
                                if yes {
                                    k.role_yes.insert(t);
                                }
                                k.last = Some((t, CheckOutcome::IsRole(role, yes)));
                                if L::ENABLED {
                                    log.push(Event::RoleCheck { seat: s, target: t, role, yes });
                                }
                            }
                            NightAbility::None => {}
                        }
                    }
                }
                NightStep::Kills => {
                    for camp in Camp::ALL {
                        if let Some(target) = self.camp_kill(camp, moves, log) {
                            result.shot = true;
                            result.killed.insert(target);
                            if L::ENABLED {
                                log.push(Event::NightKill { target });
                            }
                        }
                    }
                }
                // No classic role moves in these steps; the extended set fills them.
                NightStep::StartOfNight
                | NightStep::Control
                | NightStep::Protection
                | NightStep::Marks
                | NightStep::InformationOnMoves => {}
            }
        }
        result
    }

    /// C4: the camp's kill. Every living shooter of the camp must send the
    /// same nick; anything else is a miss. `None` for a miss or a camp
    /// without living shooters.
    fn camp_kill<L: Log>(&self, camp: Camp, moves: &NightMoves, log: &mut L) -> Option<Seat> {
        let mut target = NONE;
        let mut first = NONE;
        let mut any = false;
        for s in self.living(camp).inter(self.shooters).iter() {
            any = true;
            let t = moves.kill[s as usize];
            if t == NONE {
                if L::ENABLED {
                    log.push(Event::NightMiss(MissReason::Silent(s)));
                }
                return None;
            }
            if target == NONE {
                target = t;
                first = s;
            } else if target != t {
                if L::ENABLED {
                    log.push(Event::NightMiss(MissReason::Disagree(first, s)));
                }
                return None;
            }
        }
        if any { Some(target) } else { None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_with_a_night_move_has_a_step() {
        for role in Role::ALL {
            let info = role.info();
            let steps: Vec<NightStep> = NIGHT_ORDER.into_iter().filter(|s| s.roles().any(|r| r == role)).collect();
            let expected = info.shoots as usize + (info.night != NightAbility::None) as usize;
            assert_eq!(steps.len(), expected, "{role}: {steps:?}");
        }
        // C5/C6 are information, C4 is a kill.
        assert!(NightStep::Information.roles().eq([Role::Commissar, Role::Don]));
        assert!(NightStep::Kills.roles().eq([Role::Mafioso, Role::Don]));
    }
}
