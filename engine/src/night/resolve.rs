//! Resolving the accepted moves: one night's statuses on the stack
//! ([`Tonight`]), the shared judgement of a move (E6 blocks, the E11
//! redirect, a beaten target), and the walk over the game's night order
//! (E30) that calls each step's file.

use super::moves::NightMoves;
use super::order::{NIGHT_ORDER, NightStep};
use crate::event::{Event, Fail, Killer, Log, Status};
use crate::role::{Camp, NightAbility, Role, Targets};
use crate::rules::RepeatTarget;
use crate::seat::{MAX_PLAYERS, PlayerSet, Seat};
use crate::setup::Game;
use crate::state::State;

/// What a night did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NightResult {
    /// Who died.
    pub killed: PlayerSet,
    /// E32: the Psycho's guests among them, announced first.
    pub guests: PlayerSet,
    /// C8: whether the mafia's kill was tried (a prevented kill counts).
    /// Other deaths (the Psycho's guest, the Shooter, the blast) are not
    /// the mafia's kill and do not reset the no-kill count.
    pub shot: bool,
}

/// Statuses and records of one night, on the stack.
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct Tonight {
    pub(super) robbed: PlayerSet,
    pub(super) beaten: PlayerSet,
    pub(super) invited: PlayerSet,
    pub(super) healed: PlayerSet,
    pub(super) guarded: PlayerSet,
    /// E6: every maker a status stops tonight (robbed, beaten, invited or
    /// hexed): `robbed ∪ beaten ∪ invited ∪ hexed`, kept by `control` (the
    /// only step that sets the three), so a move is judged with one test.
    pub(super) stopped: PlayerSet,
    pub(super) by_rob: Option<Seat>,
    pub(super) by_beat: Option<Seat>,
    pub(super) by_invite: Option<Seat>,
    /// E23: tonight's guest.
    pub(super) guest: Option<Seat>,
    /// E23: who healed last night's guest tonight.
    pub(super) guest_healer: Option<Seat>,
    pub(super) psycho: Option<Seat>,
    /// E11: the standing redirect's victim (none or one player) and his new target.
    pub(super) redirected: PlayerSet,
    pub(super) redirect_to: Seat,
    /// E22: per house, the number of successful moves on it tonight by the
    /// members of each camp (one visitor, one count: the Sleepwalker learns
    /// the camp of each). A Sleepwalker reads the house he actually watches
    /// (after a redirect) at his step. A fixed table (192 bytes, cleared
    /// with the night): a count never exceeds the table's seats.
    pub(super) visits: [[u8; Camp::COUNT]; MAX_PLAYERS],
    /// E27: the successful check, robbery and heal.
    pub(super) scout: [Option<Seat>; 3],
    pub(super) hits: PlayerSet,
    pub(super) guests: PlayerSet,
    /// Targets of kills stopped by a heal or the Guard (E10, E15, E24): the
    /// protections that saved somebody, for the behaviour counts.
    pub(super) saved: PlayerSet,
    pub(super) psycho_tried: bool,
    /// C8: the mafia's kill was tried tonight (a prevented kill counts).
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
            stopped: PlayerSet::EMPTY,
            by_rob: None,
            by_beat: None,
            by_invite: None,
            guest: None,
            guest_healer: None,
            psycho: None,
            redirected: PlayerSet::EMPTY,
            redirect_to: Seat::new(0),
            visits: [[0; Camp::COUNT]; MAX_PLAYERS],
            scout: [None; 3],
            hits: PlayerSet::EMPTY,
            guests: PlayerSet::EMPTY,
            saved: PlayerSet::EMPTY,
            psycho_tried: false,
            shot: false,
        }
    }

    /// A successful move by a member of `camp` on `target` (E22: a
    /// Sleepwalker at that house sees it).
    #[inline]
    pub(super) fn visit(&mut self, camp: Camp, target: Seat) {
        self.visits[target.index()][camp as usize] += 1;
    }

    /// The target `s`'s move reaches: E11's redirect if `s` is its victim.
    #[inline]
    pub(super) fn aim(&self, s: Seat, named: Seat) -> Seat {
        if self.redirected.contains(s) { self.redirect_to } else { named }
    }
}

impl State {
    /// Why `s`'s blockable move fails (E6), if it does.
    #[inline]
    pub(super) fn blocked(&self, t: &Tonight, s: Seat) -> Option<Fail> {
        if t.robbed.contains(s) {
            Some(Fail::Blocked { status: Status::Robbed, by: t.by_rob })
        } else if t.beaten.contains(s) {
            Some(Fail::Blocked { status: Status::Beaten, by: t.by_beat })
        } else if t.invited.contains(s) {
            Some(Fail::Blocked { status: Status::Invited, by: t.by_invite })
        } else if self.hexed.contains(s) {
            Some(Fail::Blocked { status: Status::Hexed, by: None })
        } else {
            None
        }
    }

    /// Judges `s`'s move `ability`, one without a target (E27, a borrowed
    /// Chosen's votes), at its step: only the maker's blocks (E6). Whether
    /// it goes ahead. `ability` is the move `moves` holds for `s` (a maker
    /// of `moves.makers[a]` makes `a`); a caller that loops over one
    /// move's makers passes it as a constant, so its table row folds away.
    #[inline(always)]
    pub(super) fn judge_untargeted<L: Log>(&self, t: &Tonight, s: Seat, ability: NightAbility, log: &mut L) -> bool {
        if !t.stopped.contains(s) {
            return true;
        }
        match self.blocked(t, s) {
            Some(reason) if ability.info().blockable => {
                if L::ENABLED {
                    log.push(Event::Failed { seat: s, ability, reason });
                }
                false
            }
            _ => true,
        }
    }

    /// Judges `s`'s non-control move `ability` at its step: the maker's
    /// blocks (E6), the redirect (E11), a beaten target (E6). Returns the
    /// targets it reaches. `ability` is the move `moves` holds for `s`, as
    /// for `judge_untargeted`.
    #[inline(always)]
    pub(super) fn judge<L: Log>(
        &self,
        t: &Tonight,
        moves: &NightMoves,
        s: Seat,
        ability: NightAbility,
        log: &mut L,
    ) -> Option<(Seat, Option<Seat>)> {
        debug_assert_eq!(moves.ability[s], ability);
        let info = ability.info();
        let fail = |reason: Fail, log: &mut L| {
            if L::ENABLED {
                log.push(Event::Failed { seat: s, ability, reason });
            }
        };
        if info.blockable
            && t.stopped.contains(s)
            && let Some(reason) = self.blocked(t, s)
        {
            fail(reason, log);
            return None;
        }
        // E28: no redirect reaches the Trickster's pick: a swindle of him fails
        // (`control`), so he is never `t.redirected`.
        let target = t.aim(s, moves.target(s));
        let second = (info.targets == Targets::Two).then_some(moves.second[s]);
        if info.fails_on_beaten && (t.beaten.contains(target) || second.is_some_and(|x| t.beaten.contains(x))) {
            fail(Fail::TargetBeaten, log);
            return None;
        }
        Some((target, second))
    }

    #[inline]
    pub(super) fn succeed<L: Log>(&self, s: Seat, ability: NightAbility, target: Option<Seat>, log: &mut L) {
        if L::ENABLED {
            log.push(Event::Succeeded { seat: s, ability, target });
        }
    }

    /// E15/E26 with `repeat_target = reached`: `s`'s heal or beating reached
    /// `target` tonight, which bars him from it tomorrow night.
    #[inline]
    pub(super) fn reached(&mut self, game: &Game, s: Seat, target: Seat) {
        if game.rules.repeat_target == RepeatTarget::Reached {
            self.bar_next_night(s, target);
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
        t.psycho = self.holder(Role::Psycho);
        t.stopped = self.hexed;
        if game.night_order == NIGHT_ORDER {
            // The default order (E30) written out, so each step is compiled in
            // place with its step known (the same walk as the loop below).
            self.step(game, moves, &mut t, NightStep::StartOfNight, log);
            self.step(game, moves, &mut t, NightStep::Control, log);
            self.step(game, moves, &mut t, NightStep::Protection, log);
            self.step(game, moves, &mut t, NightStep::Information, log);
            self.step(game, moves, &mut t, NightStep::Kills, log);
            self.step(game, moves, &mut t, NightStep::Marks, log);
            self.step(game, moves, &mut t, NightStep::InformationOnMoves, log);
        } else {
            for &step in game.night_order.iter() {
                self.step_dyn(game, moves, &mut t, step, log);
            }
        }
        // E23: tonight's guest dies next night, unless he died tonight.
        self.guest = t.guest.filter(|&g| !t.hits.contains(g));
        // E15/E26 (`repeat_target = named`): tonight's named heal and beating targets.
        if game.rules.repeat_target == RepeatTarget::Named {
            let m = &moves.makers;
            for s in m[NightAbility::Heal.index()].union(m[NightAbility::Beat.index()]).iter() {
                self.bar_next_night(s, moves.target(s));
            }
        }
        self.stats.saves = self.stats.saves.saturating_add(t.saved.minus(t.hits).len() as u8);
        NightResult { killed: t.hits, guests: t.guests.inter(t.hits), shot: t.shot }
    }

    /// One step of the night order (E30).
    #[inline(always)]
    fn step<L: Log>(&mut self, game: &Game, moves: &NightMoves, t: &mut Tonight, step: NightStep, log: &mut L) {
        if L::ENABLED {
            log.push(Event::Step(step));
        }
        // Steps no role of the setup can use are skipped.
        if game.active_steps & (1 << step as u8) == 0 {
            return;
        }
        match step {
            NightStep::StartOfNight => {}
            NightStep::Control => self.control(game, moves, t, log),
            NightStep::Protection => self.protection(game, moves, t, log),
            NightStep::Information => self.information(moves, t, log),
            NightStep::Kills => self.kills(game, moves, t, log),
            NightStep::Marks => self.marks(moves, t, log),
            NightStep::InformationOnMoves => self.information_on_moves(moves, t, log),
        }
    }

    /// One step of a reordered night (E30), compiled once for every step.
    #[inline(never)]
    fn step_dyn<L: Log>(&mut self, game: &Game, moves: &NightMoves, t: &mut Tonight, step: NightStep, log: &mut L) {
        self.step(game, moves, t, step, log);
    }

    /// The classic set's night (C4–C7): checks, then the camp kill; no
    /// statuses exist, so nothing blocks or protects. The same events and
    /// results as the general walk over the same moves.
    pub(super) fn resolve_classic<L: Log>(&mut self, game: &Game, moves: &NightMoves, log: &mut L) -> NightResult {
        let mut result = NightResult::default();
        for &step in game.night_order.iter() {
            match step {
                NightStep::Information => {
                    // C5/C6 through the general path's check bodies.
                    let m = &moves.makers;
                    let makers =
                        m[NightAbility::CheckIsRole(Role::Commissar).index()].union(m[NightAbility::CheckCamp.index()]);
                    for s in makers.iter() {
                        let x = moves.target(s);
                        match moves.ability[s] {
                            NightAbility::CheckIsRole(role) => self.role_check(s, x, role, log),
                            _ => self.camp_check(s, x, log),
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
