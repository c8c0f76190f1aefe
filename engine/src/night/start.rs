//! E30.1, the start of night: the Actor's appointment (E12) and the
//! Deputy's promotion (E14), who sends the mafia's nicks tonight (E12), the
//! carried hex (E18), and the past day's marks expire (E16/E19, E25, E28).

use crate::event::{Event, Log};
use crate::role::{Camp, Role, RoleSet};
use crate::seat::{PlayerSet, Seat};
use crate::setup::Game;
use crate::state::{Phase, State};

impl State {
    /// E12: a vacancy the Actor may fill tonight, if any: who makes the
    /// appointment (the Boss, or the Actor himself once the Boss is dead),
    /// the Actor, and the vacant roles — the roles of dead mafia
    /// role-holders other than the Boss («Может заменить любого, кроме Босса»).
    pub fn actor_vacancy(&self) -> Option<(Seat, Seat, RoleSet)> {
        let actor = self.holder(Role::Actor)?;
        if !self.alive.contains(actor) || self.acting[actor] != Role::Actor {
            return None;
        }
        let mut vacant = RoleSet::EMPTY;
        for d in self.camp_members[Camp::Mafia as usize].minus(self.alive).iter() {
            let r = self.acting[d];
            if !r.info().plain && !matches!(r, Role::Boss | Role::Actor) {
                vacant.insert(r);
            }
        }
        if vacant.is_empty() {
            return None;
        }
        let by = self.holder(Role::Boss).filter(|&b| self.alive.contains(b)).unwrap_or(actor);
        Some((by, actor, vacant))
    }

    /// E12: the Actor takes `role` from tonight for the rest of the game.
    pub fn appoint_actor<L: Log>(&mut self, actor: Seat, role: Role, log: &mut L) {
        self.acting[actor] = role;
        if L::ENABLED {
            log.push(Event::Promoted { seat: actor, role });
        }
    }

    /// E30.1, before moves are asked for (after the Actor's appointment):
    /// the Deputy's promotion (E14) takes effect; the Actor sends nicks once
    /// appointed or last of his camp (E12); last night's hex holds (E18);
    /// the marks for the day that passed expire (E19, E25, E28).
    pub fn begin_night<L: Log>(&mut self, game: &Game, log: &mut L) {
        if !game.extended {
            return;
        }
        self.mines = PlayerSet::EMPTY;
        self.tricked = PlayerSet::EMPTY;
        self.secret_voters = PlayerSet::EMPTY;
        // E12: «До назначения на роль, Актер участвует только в линчевании»:
        // no nick and no say in the kill, unless he is all that is left of the mafia.
        if let Some(actor) = self.holder(Role::Actor) {
            let appointed = self.acting[actor] != Role::Actor;
            let last = self.living(Camp::Mafia) == PlayerSet::single(actor);
            if appointed || last {
                self.shooters.insert(actor);
            } else {
                self.shooters.remove(actor);
            }
        }
        // E14: the first of the Detective and the Doctor to die is replaced by the Deputy.
        if let Some(deputy) =
            self.holder(Role::Deputy).filter(|&d| self.alive.contains(d) && self.acting[d] == Role::Deputy)
        {
            let died = |s: Option<Seat>| -> Option<(u32, Seat)> {
                let s = s.filter(|&s| !self.alive.contains(s))?;
                let when = match self.death[s] {
                    Some((Phase::Day(d), _)) => 2 * d as u32,
                    Some((Phase::Night(d), _)) => 2 * d as u32 + 1,
                    None => 0,
                };
                Some((when, s))
            };
            let det = self.holder(Role::Detective);
            let doc = self.holder(Role::Doctor);
            let pick = match (died(det), died(doc)) {
                (Some((a, _)), Some((b, _))) if b < a => Some((Role::Doctor, det)),
                (Some(_), _) => Some((Role::Detective, doc)),
                (None, Some(_)) => Some((Role::Doctor, det)),
                (None, None) => None,
            };
            if let Some((role, other)) = pick {
                self.acting[deputy] = role;
                if L::ENABLED {
                    log.push(Event::Promoted { seat: deputy, role });
                }
                if let Some(other) = other.filter(|&o| self.alive.contains(o)) {
                    self.know(deputy).mates.insert(other);
                    self.know(other).mates.insert(deputy);
                    if L::ENABLED {
                        log.push(Event::Introduced { a: deputy, b: other });
                    }
                }
            }
        }
        // E18: last night's hex holds tonight.
        self.hexed = self.hex_next.inter(self.alive);
        self.hex_next = PlayerSet::EMPTY;
        if L::ENABLED {
            for s in self.hexed.iter() {
                log.push(Event::HexHolds { seat: s });
            }
        }
    }
}
