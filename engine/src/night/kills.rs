//! E30.5, kills: last night's guest (E23), each camp's kill (C4, E8), the
//! Shooter (E20), the blast (E24), the spare life (E21).

use super::moves::NightMoves;
use super::resolve::Tonight;
use crate::event::{Event, Fail, Killer, Log, MissReason};
use crate::role::{Camp, NightAbility};
use crate::seat::Seat;
use crate::setup::Game;
use crate::state::State;

impl State {
    /// Why a kill does not reach `target` (E6, E8, E10, E15, E20, E23).
    #[inline]
    pub(super) fn kill_stopped(t: &Tonight, target: Seat) -> Option<Fail> {
        if t.invited.contains(target) {
            Some(Fail::TargetInvited)
        } else if t.beaten.contains(target) {
            Some(Fail::TargetBeaten)
        } else if t.healed.contains(target) {
            Some(Fail::TargetHealed)
        } else if t.guarded.contains(target) {
            Some(Fail::TargetGuarded)
        } else {
            None
        }
    }

    /// A kill tried at `target` (E24: a try at the Psycho counts, landed or
    /// not): it lands unless something stops it (`kill_stopped`). `shooter`
    /// is the maker of a role move (the Shooter's), whose success is told.
    #[inline]
    fn try_kill<L: Log>(t: &mut Tonight, target: Seat, by: Killer, camp: Camp, shooter: Option<Seat>, log: &mut L) {
        t.psycho_tried |= Some(target) == t.psycho;
        match Self::kill_stopped(t, target) {
            Some(reason) => {
                if matches!(reason, Fail::TargetHealed | Fail::TargetGuarded) {
                    t.saved.insert(target);
                }
                if L::ENABLED {
                    log.push(Event::KillFailed { target, by, reason });
                }
            }
            None => {
                t.hits.insert(target);
                t.visit(camp, target);
                if L::ENABLED {
                    if let Some(s) = shooter {
                        log.push(Event::Succeeded { seat: s, ability: NightAbility::Shoot, target: Some(target) });
                    }
                    log.push(Event::NightKill { target, by });
                }
            }
        }
    }

    /// E30.5: the guest's death, the camp kills, the Shooter, the blast, the spare life.
    #[inline(always)] // one copy per call site: the default order and `step_dyn` (resolve.rs)
    pub(super) fn kills<L: Log>(&mut self, game: &Game, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        // E23: last night's guest dies unless healed tonight. Not the mafia's
        // kill, so it leaves C8's count alone.
        if let Some(g) = self.guest.filter(|&g| self.alive.contains(g)) {
            match t.guest_healer {
                Some(by) if t.healed.contains(g) => {
                    t.saved.insert(g);
                    if L::ENABLED {
                        log.push(Event::GuestSaved { seat: g, by });
                    }
                }
                _ => {
                    t.hits.insert(g);
                    t.guests.insert(g);
                    if L::ENABLED {
                        let psycho = t.psycho.expect("a guest was invited by the game's Psycho");
                        log.push(Event::NightKill { target: g, by: Killer::Guest(psycho) });
                    }
                }
            }
        }
        // C4/E8: each camp's kill (only the mafia's has shooters). A camp
        // without a living shooter sends no nick and has no kill, silently.
        let armed = self.alive.inter(self.shooters);
        for camp in Camp::ALL {
            if self.camp_members[camp as usize].inter(armed).is_empty() {
                continue;
            }
            let decided =
                if game.leader_kill { self.leader_kill(camp, moves, log) } else { self.camp_kill(camp, moves, log) };
            let Some((target, decider)) = decided else { continue };
            // C8: the count of nights without a kill is about the mafia's kill.
            t.shot |= camp == Camp::Mafia;
            Self::try_kill(t, target, Killer::Camp { camp, decider }, camp, None, log);
        }
        // E20: the Shooter. Not the mafia's kill: C8's count is left alone.
        for s in moves.makers[NightAbility::Shoot.index()].iter() {
            let Some((target, _)) = self.judge(t, moves, s, NightAbility::Shoot, log) else { continue };
            let camp = self.roles[s].camp();
            Self::try_kill(t, target, Killer::Shooter(s), camp, Some(s), log);
        }
        // E24: the blast takes the Psycho's guest of tonight.
        if let (true, Some(guest), Some(psycho)) = (t.psycho_tried, t.guest, t.psycho) {
            let by = Killer::Blast(psycho);
            if game.rules.blast_heal && t.healed.contains(guest) {
                t.saved.insert(guest);
                if L::ENABLED {
                    log.push(Event::KillFailed { target: guest, by, reason: Fail::TargetHealed });
                }
            } else {
                t.hits.insert(guest);
                t.guests.insert(guest);
                if L::ENABLED {
                    log.push(Event::NightKill { target: guest, by });
                }
            }
        }
        // E21: one spare life absorbs every kill that reached the Lucky tonight.
        let saved = t.hits.inter(self.spare_life);
        if !saved.is_empty() {
            self.spare_life = self.spare_life.minus(saved);
            t.hits = t.hits.minus(saved);
            if L::ENABLED {
                for s in saved.iter() {
                    log.push(Event::SpareLife { seat: s });
                }
            }
        }
    }

    /// E8: the highest-ranked living member who sent a nick decides the kill.
    pub(super) fn leader_kill<L: Log>(&self, camp: Camp, moves: &NightMoves, log: &mut L) -> Option<(Seat, Seat)> {
        let members = self.living(camp).inter(self.shooters);
        let mut best: Option<(u8, Seat, Seat)> = None;
        for s in members.iter() {
            if let Some(x) = moves.kill(s) {
                // E12: an appointed Actor "acts in that role": he ranks as it.
                let rank = self.acting[s].info().rank;
                if best.is_none_or(|(r, _, _)| rank < r) {
                    best = Some((rank, x, s));
                }
            }
        }
        if best.is_none()
            && L::ENABLED
            && let Some(s) = members.lowest()
        {
            log.push(Event::NightMiss(MissReason::Silent(s)));
        }
        best.map(|(_, x, s)| (x, s))
    }

    /// C4: the camp's kill. Every living shooter of the camp must send the
    /// same nick; anything else is a miss. `None` for a miss or a camp
    /// without living shooters; else the target and the first shooter.
    pub(super) fn camp_kill<L: Log>(&self, camp: Camp, moves: &NightMoves, log: &mut L) -> Option<(Seat, Seat)> {
        let mut decided: Option<(Seat, Seat)> = None;
        for s in self.living(camp).inter(self.shooters).iter() {
            let Some(x) = moves.kill(s) else {
                if L::ENABLED {
                    log.push(Event::NightMiss(MissReason::Silent(s)));
                }
                return None;
            };
            match decided {
                None => decided = Some((x, s)),
                Some((target, first)) if target != x => {
                    if L::ENABLED {
                        log.push(Event::NightMiss(MissReason::Disagree(first, s)));
                    }
                    return None;
                }
                Some(_) => {}
            }
        }
        decided
    }
}
