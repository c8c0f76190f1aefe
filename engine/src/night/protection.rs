//! E30.3, protection: the Guard guards (E10), the Doctor heals (E15).

use super::moves::NightMoves;
use super::resolve::Tonight;
use crate::event::{Event, Fail, Log};
use crate::role::NightAbility;
use crate::setup::Game;
use crate::state::State;

impl State {
    /// E10, E15: guards and heals. `blast_heal` (E24): a heal may reach
    /// tonight's guest, so that it can save him from the blast.
    #[inline(always)] // one copy per call site: the default order and `step_dyn` (resolve.rs)
    pub(super) fn protection<L: Log>(&mut self, game: &Game, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        for s in moves.makers[NightAbility::Guard.index()].iter() {
            let Some((g, _)) = self.judge(t, moves, s, NightAbility::Guard, log) else { continue };
            if t.invited.contains(g) {
                if L::ENABLED {
                    log.push(Event::Failed { seat: s, ability: NightAbility::Guard, reason: Fail::TargetInvited });
                }
                continue;
            }
            t.guarded.insert(g);
            t.visit(self.roles[s].camp(), g);
            self.succeed(s, NightAbility::Guard, Some(g), log);
            if L::ENABLED {
                log.push(Event::Guarded { seat: g, by: s });
            }
        }
        for s in moves.makers[NightAbility::Heal.index()].iter() {
            let Some((h, _)) = self.judge(t, moves, s, NightAbility::Heal, log) else { continue };
            // E23: the guest cannot be healed on the night of the invitation,
            // unless the setting takes the seed's "unless healed" of E24.
            if t.invited.contains(h) && !game.rules.blast_heal {
                if L::ENABLED {
                    log.push(Event::Failed { seat: s, ability: NightAbility::Heal, reason: Fail::TargetInvited });
                }
                continue;
            }
            t.healed.insert(h);
            if self.guest == Some(h) {
                t.guest_healer = Some(s);
            }
            t.scout[2] = Some(h);
            t.visit(self.roles[s].camp(), h);
            self.reached(game, s, h);
            self.succeed(s, NightAbility::Heal, Some(h), log);
            if L::ENABLED {
                log.push(Event::Healed { seat: h, by: s });
            }
        }
    }
}
