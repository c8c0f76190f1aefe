//! Resolving the accepted moves: one night's statuses on the stack
//! ([`Tonight`]), the shared judgement of a move (E6 blocks, the E11
//! redirect, a beaten target), and the walk over the game's night order
//! (E30) that calls each step's file.

use super::moves::{NightMoves, opt};
use super::order::NightStep;
use crate::event::{Event, Fail, Killer, Log, Status};
use crate::role::{Camp, NightAbility, Role};
use crate::seat::{MAX_PLAYERS, PlayerSet, Seat};
use crate::setup::Game;
use crate::state::{CheckOutcome, NONE, State};

/// What a night did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NightResult {
    /// Who died.
    pub killed: PlayerSet,
    /// E32: the Psycho's guests among them, announced first.
    pub guests: PlayerSet,
    /// C8: whether a kill was tried (a prevented kill counts).
    pub shot: bool,
}

/// Statuses and records of one night, on the stack.
pub(super) struct Tonight {
    pub(super) robbed: PlayerSet,
    pub(super) beaten: PlayerSet,
    pub(super) invited: PlayerSet,
    pub(super) healed: PlayerSet,
    pub(super) guarded: PlayerSet,
    pub(super) by_rob: u8,
    pub(super) by_beat: u8,
    pub(super) by_invite: u8,
    /// E23: tonight's guest.
    pub(super) guest: u8,
    /// E23: who healed last night's guest tonight (`NONE`).
    pub(super) guest_healer: u8,
    pub(super) psycho: u8,
    /// E11: the standing redirect, victim → new target.
    pub(super) victim: u8,
    pub(super) redirect_to: u8,
    /// E22: the watched house and the camps of successful visitors so far.
    pub(super) watch: u8,
    pub(super) seen: [bool; Camp::COUNT],
    /// E27: successful check, robbery, heal.
    pub(super) scout: [u8; 3],
    pub(super) hits: PlayerSet,
    pub(super) guests: PlayerSet,
    pub(super) psycho_tried: bool,
    pub(super) shot: bool,
}

impl Tonight {
    pub(super) fn new() -> Tonight {
        Tonight {
            robbed: PlayerSet::EMPTY,
            beaten: PlayerSet::EMPTY,
            invited: PlayerSet::EMPTY,
            healed: PlayerSet::EMPTY,
            guarded: PlayerSet::EMPTY,
            by_rob: NONE,
            by_beat: NONE,
            by_invite: NONE,
            guest: NONE,
            guest_healer: NONE,
            psycho: NONE,
            victim: NONE,
            redirect_to: NONE,
            watch: NONE,
            seen: [false; Camp::COUNT],
            scout: [NONE; 3],
            hits: PlayerSet::EMPTY,
            guests: PlayerSet::EMPTY,
            psycho_tried: false,
            shot: false,
        }
    }

    /// A successful move by a member of `camp` on `target` (E22: the Sleepwalker sees it).
    #[inline]
    pub(super) fn visit(&mut self, camp: Camp, target: u8) {
        if target == self.watch {
            self.seen[camp as usize] = true;
        }
    }
}

impl State {
    /// Why `s`'s blockable move fails (E6), if it does.
    #[inline]
    pub(super) fn blocked(&self, t: &Tonight, s: Seat) -> Option<Fail> {
        let by = |x: u8| if x == NONE { None } else { Some(x) };
        if t.robbed.contains(s) {
            Some(Fail::Blocked { status: Status::Robbed, by: by(t.by_rob) })
        } else if t.beaten.contains(s) {
            Some(Fail::Blocked { status: Status::Beaten, by: by(t.by_beat) })
        } else if t.invited.contains(s) {
            Some(Fail::Blocked { status: Status::Invited, by: by(t.by_invite) })
        } else if self.hexed.contains(s) {
            Some(Fail::Blocked { status: Status::Hexed, by: None })
        } else {
            None
        }
    }

    /// Judges a non-control move at its step: the maker's blocks (E6), the
    /// redirect (E11), a beaten target (E6). Returns the targets it reaches.
    #[inline]
    pub(super) fn judge<L: Log>(&self, t: &Tonight, moves: &NightMoves, s: Seat, log: &mut L) -> Option<(u8, u8)> {
        let ability = moves.ability[s as usize];
        let info = ability.info();
        let fail = |reason: Fail, log: &mut L| {
            if L::ENABLED {
                log.push(Event::Failed { seat: s, ability, reason });
            }
        };
        if info.blockable {
            if let Some(reason) = self.blocked(t, s) {
                fail(reason, log);
                return None;
            }
        }
        let target = if s == t.victim { t.redirect_to } else { moves.act[s as usize] };
        let second = moves.second[s as usize];
        if info.fails_on_beaten
            && ((target != NONE && t.beaten.contains(target)) || (second != NONE && t.beaten.contains(second)))
        {
            fail(Fail::TargetBeaten, log);
            return None;
        }
        Some((target, second))
    }

    #[inline]
    pub(super) fn succeed<L: Log>(&self, s: Seat, ability: NightAbility, target: u8, log: &mut L) {
        if L::ENABLED {
            log.push(Event::Succeeded { seat: s, ability, target: opt(target) });
        }
    }

    /// Resolves the accepted moves in the game's night order. Does not
    /// remove the dead (the caller does, so last words and end checks
    /// follow C13/C19).
    pub fn resolve_night<L: Log>(&mut self, game: &Game, moves: &NightMoves, log: &mut L) -> NightResult {
        if !game.extended {
            return self.resolve_classic(game, moves, log);
        }
        let mut t = Tonight::new();
        if game.extended {
            t.psycho = self.seat_of[Role::Psycho as usize];
            for w in moves.makers[NightAbility::Watch.index()].iter() {
                t.watch = moves.act[w as usize];
            }
        }
        for &step in game.night_order.iter() {
            // Step markers only in extended games, so classic stories stay as they were.
            if L::ENABLED && game.extended {
                log.push(Event::Step(step));
            }
            // Steps no role of the setup can use are skipped (classic: all but checks and kills).
            if game.active_steps & (1 << step as u8) == 0 {
                continue;
            }
            match step {
                NightStep::StartOfNight => {}
                NightStep::Control => self.control(game, moves, &mut t, log),
                NightStep::Protection => self.protection(moves, game.rules.blast_heal, &mut t, log),
                NightStep::Information => self.information(moves, &mut t, log),
                NightStep::Kills => self.kills(game, moves, &mut t, log),
                NightStep::Marks => self.marks(moves, &mut t, log),
                NightStep::InformationOnMoves => self.information_on_moves(moves, &mut t, log),
            }
        }
        if game.extended {
            // E23: tonight's guest dies next night; E15/E26: tonight's heal and beating.
            self.guest = if t.hits.contains(t.guest) { NONE } else { t.guest };
            self.prev_target = [NONE; MAX_PLAYERS];
            let m = &moves.makers;
            for s in m[NightAbility::Heal.index()].union(m[NightAbility::Beat.index()]).iter() {
                self.prev_target[s as usize] = moves.act[s as usize];
            }
        }
        NightResult { killed: t.hits, guests: t.guests.inter(t.hits), shot: t.shot }
    }

    /// The classic set's night (C4–C7): checks, then the camp kill; no
    /// statuses exist, so nothing blocks or protects. The same events and
    /// results as the general walk over the same moves.
    pub(super) fn resolve_classic<L: Log>(&mut self, game: &Game, moves: &NightMoves, log: &mut L) -> NightResult {
        let mut result = NightResult::default();
        for &step in game.night_order.iter() {
            match step {
                NightStep::Information => {
                    let m = &moves.makers;
                    let makers =
                        m[NightAbility::CheckIsRole(Role::Commissar).index()].union(m[NightAbility::CheckCamp.index()]);
                    for s in makers.iter() {
                        let x = moves.act[s as usize];
                        let k = &mut self.knowledge[s as usize];
                        k.checked.insert(x);
                        match moves.ability[s as usize] {
                            NightAbility::CheckIsRole(role) => {
                                // C5: the Don asks "is he the Commissar?".
                                let yes = self.roles[x as usize] == role;
                                if yes {
                                    k.role_yes.insert(x);
                                }
                                k.last = Some((x, CheckOutcome::IsRole(role, yes)));
                                if L::ENABLED {
                                    log.push(Event::RoleCheck { seat: s, target: x, role, yes });
                                }
                            }
                            _ => {
                                // C6: the camp.
                                let camp = self.roles[x as usize].camp();
                                k.camps[camp as usize].insert(x);
                                k.last = Some((x, CheckOutcome::Camp(camp)));
                                if L::ENABLED {
                                    log.push(Event::CampCheck { seat: s, target: x, camp });
                                }
                            }
                        }
                    }
                }
                NightStep::Kills => {
                    // Classic roles: only the mafia shoot.
                    {
                        let camp = Camp::Mafia;
                        let decided = if game.leader_kill {
                            self.leader_kill(camp, moves, log)
                        } else {
                            self.camp_kill(camp, moves, log)
                        };
                        if let Some((target, decider)) = decided {
                            result.shot = true;
                            result.killed.insert(target);
                            if L::ENABLED {
                                log.push(Event::NightKill { target, by: Killer::Camp { camp, decider } });
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        result
    }
}
