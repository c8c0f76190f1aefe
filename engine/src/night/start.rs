//! E30.1, the start of night: appointments and promotions (E12, E14), the
//! carried hex (E18), and the past day's marks expire (E25, E28).

use crate::event::{Event, Log};
use crate::role::{Camp, Role};
use crate::seat::PlayerSet;
use crate::setup::Game;
use crate::state::{NONE, Phase, State};

impl State {
    /// E30.1, before moves are asked for: the Actor's appointment (E12) and
    /// the Deputy's promotion (E14) take effect; last night's hex holds
    /// (E18); the marks for the day that passed expire (E25, E28).
    pub fn begin_night<L: Log>(&mut self, game: &Game, log: &mut L) {
        if !game.extended {
            return;
        }
        self.mines = PlayerSet::EMPTY;
        self.tricked = PlayerSet::EMPTY;
        // E12: a mafia role-holder other than the Boss died: the Actor takes his role.
        let actor = self.seat_of[Role::Actor as usize];
        if actor != NONE && self.alive.contains(actor) && self.acting[actor as usize] == Role::Actor {
            let dead = self.camp_members[Camp::Mafia as usize].minus(self.alive);
            let mut best: Option<Role> = None;
            for d in dead.iter() {
                let r = self.acting[d as usize];
                if !r.info().plain
                    && !matches!(r, Role::Boss | Role::Actor)
                    && best.is_none_or(|b| r.info().rank < b.info().rank)
                {
                    best = Some(r);
                }
            }
            if let Some(r) = best {
                self.acting[actor as usize] = r;
                if L::ENABLED {
                    log.push(Event::Promoted { seat: actor, role: r });
                }
            }
        }
        // E14: the first of the Detective and the Doctor to die is replaced by the Deputy.
        let deputy = self.seat_of[Role::Deputy as usize];
        if deputy != NONE && self.alive.contains(deputy) && self.acting[deputy as usize] == Role::Deputy {
            let key = |s: u8| -> Option<u32> {
                if s == NONE || self.alive.contains(s) {
                    return None;
                }
                Some(match self.death[s as usize] {
                    Some((Phase::Day(d), _)) => 2 * d as u32,
                    Some((Phase::Night(d), _)) => 2 * d as u32 + 1,
                    None => 0,
                })
            };
            let det = self.seat_of[Role::Detective as usize];
            let doc = self.seat_of[Role::Doctor as usize];
            let pick = match (key(det), key(doc)) {
                (Some(a), Some(b)) if b < a => Some((Role::Doctor, det)),
                (Some(_), _) => Some((Role::Detective, doc)),
                (None, Some(_)) => Some((Role::Doctor, det)),
                (None, None) => None,
            };
            if let Some((role, other)) = pick {
                self.acting[deputy as usize] = role;
                if L::ENABLED {
                    log.push(Event::Promoted { seat: deputy, role });
                }
                if other != NONE && self.alive.contains(other) {
                    self.knowledge[deputy as usize].mates.insert(other);
                    self.knowledge[other as usize].mates.insert(deputy);
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
