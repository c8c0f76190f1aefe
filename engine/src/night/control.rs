//! E30.2, control moves: the Thief's robbery, the Psycho's invitation, the
//! Thug's beating and the Swindler's redirect, resolved as E29's dependency
//! graph with its cycle rule (or as a plain sequence).

use super::moves::NightMoves;
use super::moves::opt;
use super::resolve::Tonight;
use crate::event::{Event, Fail, Log, Status};
use crate::role::{Camp, NightAbility, Targets};
use crate::rules::Resolution;
use crate::seat::Seat;
use crate::setup::Game;
use crate::state::{NONE, State};

const UNDECIDED: u8 = 0;
const STANDS: u8 = 1;
const FAILS: u8 = 2;

/// A control move in the E29 graph.
#[derive(Clone, Copy)]
struct Ctl {
    seat: Seat,
    ability: NightAbility,
    target: u8,
    second: u8,
    state: u8,
    reason: Option<Fail>,
    /// E29: a cycle was broken at this move: it stands as made, unredirected.
    pinned: bool,
}

fn block_status(a: NightAbility) -> Option<Status> {
    match a {
        NightAbility::Rob => Some(Status::Robbed),
        NightAbility::Invite => Some(Status::Invited),
        NightAbility::Beat => Some(Status::Beaten),
        _ => None,
    }
}

impl State {
    /// E29: control moves. A control move stands unless its maker is blocked
    /// by a control move that stands; a standing redirect rewrites its
    /// victim's target first. A cycle is broken at the highest-priority
    /// maker (Thief, Psycho, Thug, Swindler). `sequential`: in that order,
    /// an earlier move always wins and the redirect reaches only later steps.
    pub(super) fn control<L: Log>(&mut self, game: &Game, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        let blank = Ctl {
            seat: NONE,
            ability: NightAbility::None,
            target: NONE,
            second: NONE,
            state: 0,
            reason: None,
            pinned: false,
        };
        let mut ctl = [blank; 8];
        let mut k = 0;
        for a in [NightAbility::Rob, NightAbility::Invite, NightAbility::Beat, NightAbility::Swindle] {
            for s in moves.makers[a.index()].iter() {
                if k < ctl.len() {
                    let reason = self.hexed.contains(s).then_some(Fail::Blocked { status: Status::Hexed, by: None });
                    ctl[k] = Ctl {
                        seat: s,
                        ability: a,
                        target: moves.act[s as usize],
                        second: moves.second[s as usize],
                        state: if reason.is_some() { FAILS } else { UNDECIDED },
                        reason,
                        pinned: false,
                    };
                    k += 1;
                }
            }
        }
        if k == 0 {
            return;
        }
        let ctl = &mut ctl[..k];
        let mafia = self.camp_members[Camp::Mafia as usize];
        let graph = game.rules.resolution == Resolution::Graph;
        let swindle = ctl.iter().position(|c| c.ability == NightAbility::Swindle);
        // Whether control move `j` is the swindle's victim (E11: never a mafioso).
        let redirectable = |ctl: &[Ctl], j: usize| -> Option<usize> {
            let w = swindle?;
            let victim = w != j && ctl[w].target == ctl[j].seat && !mafia.contains(ctl[j].seat);
            (graph && victim && !ctl[j].pinned).then_some(w)
        };
        // The targets control move `j` may reach: (definite, other possible).
        let possible = |ctl: &[Ctl], j: usize| -> (u8, u8) {
            match redirectable(ctl, j) {
                Some(w) if ctl[w].state == STANDS => (ctl[w].second, NONE),
                Some(w) if ctl[w].state == UNDECIDED => (ctl[j].target, ctl[w].second),
                _ => (ctl[j].target, NONE),
            }
        };
        if graph {
            loop {
                let mut progress = false;
                for i in 0..k {
                    if ctl[i].state != UNDECIDED {
                        continue;
                    }
                    let me = ctl[i].seat;
                    let mut maybe = false;
                    let mut by = None;
                    for j in 0..k {
                        if j == i || ctl[j].state == FAILS || block_status(ctl[j].ability).is_none() {
                            continue;
                        }
                        let (a, b) = possible(ctl, j);
                        if a == me && b == NONE && ctl[j].state == STANDS {
                            by = Some(j);
                            break;
                        }
                        maybe |= a == me || b == me;
                    }
                    if let Some(j) = by {
                        ctl[i].state = FAILS;
                        ctl[i].reason = Some(Fail::Blocked {
                            status: block_status(ctl[j].ability).expect("a blocking move"),
                            by: Some(ctl[j].seat),
                        });
                        progress = true;
                    } else if !maybe {
                        ctl[i].state = STANDS;
                        progress = true;
                    }
                }
                if !progress {
                    // E29: a cycle; it is broken at the highest-priority maker in it: an
                    // undecided move, or a standing one whose target waits on an undecided
                    // redirect. His move stands as made.
                    let in_cycle = |ctl: &[Ctl], i: usize| {
                        ctl[i].state == UNDECIDED
                            || (ctl[i].state == STANDS
                                && redirectable(ctl, i).is_some_and(|w| ctl[w].state == UNDECIDED))
                    };
                    match (0..k).find(|&i| in_cycle(ctl, i)) {
                        Some(i) => {
                            if redirectable(ctl, i).is_some_and(|w| ctl[w].state == UNDECIDED) {
                                ctl[i].pinned = true;
                            }
                            ctl[i].state = STANDS;
                            if L::ENABLED {
                                log.push(Event::CycleBroken { seat: ctl[i].seat });
                            }
                        }
                        None => break,
                    }
                }
            }
        } else {
            for i in 0..k {
                if ctl[i].state == FAILS {
                    continue;
                }
                let me = ctl[i].seat;
                let by = (0..i)
                    .find(|&j| ctl[j].state == STANDS && block_status(ctl[j].ability).is_some() && ctl[j].target == me);
                match by {
                    Some(j) => {
                        ctl[i].state = FAILS;
                        ctl[i].reason = Some(Fail::Blocked {
                            status: block_status(ctl[j].ability).expect("a blocking move"),
                            by: Some(ctl[j].seat),
                        });
                    }
                    None => ctl[i].state = STANDS,
                }
            }
        }
        // Final targets: a standing redirect rewrites its victim's target (graph only).
        for j in 0..k {
            if ctl[j].state == FAILS {
                if L::ENABLED {
                    let reason = ctl[j].reason.expect("a failed move has a reason");
                    log.push(Event::Failed { seat: ctl[j].seat, ability: ctl[j].ability, reason });
                }
                continue;
            }
            if let Some(w) = redirectable(ctl, j) {
                if ctl[w].state == STANDS {
                    ctl[j].target = ctl[w].second;
                }
            }
        }
        // The beating first: every other move checks for a beaten target (E6).
        for c in ctl.iter().filter(|c| c.state == STANDS && c.ability == NightAbility::Beat) {
            t.beaten.insert(c.target);
            t.by_beat = c.seat;
            t.visit(Camp::Bandits, c.target);
            self.succeed(c.seat, c.ability, c.target, log);
            if L::ENABLED {
                log.push(Event::StatusSet { seat: c.target, status: Status::Beaten, by: c.seat });
            }
        }
        // E11: the redirect.
        if let Some(w) = swindle {
            let c = ctl[w];
            if c.state == STANDS {
                if mafia.contains(c.target) {
                    if L::ENABLED {
                        log.push(Event::Failed { seat: c.seat, ability: c.ability, reason: Fail::TargetMafia });
                    }
                } else if t.beaten.contains(c.target) {
                    if L::ENABLED {
                        log.push(Event::Failed { seat: c.seat, ability: c.ability, reason: Fail::TargetBeaten });
                    }
                } else if moves.ability(c.target).info().targets == Targets::Zero {
                    // E11: "his move goes to the new target": no move with a target, nothing to send.
                    if L::ENABLED {
                        log.push(Event::Failed { seat: c.seat, ability: c.ability, reason: Fail::NothingToRedirect });
                    }
                } else if ctl.iter().any(|v| v.pinned && v.seat == c.target) {
                    // E29: the victim's move won the cycle and stands as made.
                    if L::ENABLED {
                        log.push(Event::Failed { seat: c.seat, ability: c.ability, reason: Fail::Overruled });
                    }
                } else {
                    t.victim = c.target;
                    t.redirect_to = c.second;
                    self.swindled.insert(c.target);
                    t.visit(Camp::Mafia, c.target);
                    self.succeed(c.seat, c.ability, c.target, log);
                    let from = moves.act(c.target).map_or(NONE, |x| x);
                    if L::ENABLED {
                        log.push(Event::Redirected { by: c.seat, victim: c.target, from: opt(from), to: c.second });
                    }
                    if moves.makers[NightAbility::Watch.index()].contains(c.target) {
                        t.watch = c.second;
                    }
                }
            }
        }
        // E22: a Sleepwalker watching a beaten house is beaten too.
        if t.by_beat != NONE {
            for w in moves.makers[NightAbility::Watch.index()].iter() {
                let target = if w == t.victim { t.redirect_to } else { moves.act[w as usize] };
                if t.beaten.contains(target) && !t.beaten.contains(w) {
                    t.beaten.insert(w);
                    if L::ENABLED {
                        log.push(Event::BeatenWatching { seat: w });
                    }
                }
            }
        }
        for c in ctl.iter().filter(|c| c.state == STANDS) {
            let status = match c.ability {
                NightAbility::Rob => Status::Robbed,
                NightAbility::Invite => Status::Invited,
                _ => continue,
            };
            if t.beaten.contains(c.target) {
                if L::ENABLED {
                    log.push(Event::Failed { seat: c.seat, ability: c.ability, reason: Fail::TargetBeaten });
                }
                continue;
            }
            self.succeed(c.seat, c.ability, c.target, log);
            if L::ENABLED {
                log.push(Event::StatusSet { seat: c.target, status, by: c.seat });
            }
            if status == Status::Robbed {
                // E9: unnoticed: the Sleepwalker does not see the Thief; E27: the Scout learns it.
                t.robbed.insert(c.target);
                t.by_rob = c.seat;
                t.scout[1] = c.target;
            } else {
                t.invited.insert(c.target);
                t.by_invite = c.seat;
                t.guest = c.target;
                t.visit(Camp::Bandits, c.target);
            }
        }
    }
}
