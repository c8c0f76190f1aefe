//! E30.4, information on people: the Boss's check (E7), the Don's (C5), the
//! Commissar's and the Detective's (C6, E13), the Journalist's comparison
//! (E17). Answered against the roles at dusk (C7). The check bodies here
//! serve the classic fast path too (`resolve_classic`), so the two paths
//! cannot drift apart.

use super::moves::NightMoves;
use super::resolve::Tonight;
use crate::event::{Event, Log, Report};
use crate::role::{Camp, NightAbility, Role};
use crate::seat::Seat;
use crate::state::{CheckOutcome, State};

impl State {
    /// C5: checker `s` asks whether `x` holds `role` ("is he the Commissar?").
    #[inline]
    pub(super) fn role_check<L: Log>(&mut self, s: Seat, x: Seat, role: Role, log: &mut L) {
        let yes = self.roles[x] == role;
        let k = self.know(s);
        k.checked.insert(x);
        if yes {
            k.role_yes.insert(x);
        }
        k.last = Some((x, CheckOutcome::IsRole(role, yes)));
        if L::ENABLED {
            log.push(Event::RoleCheck { seat: s, target: x, role, yes });
        }
    }

    /// C6/E13: checker `s` learns the camp of `x`.
    #[inline]
    pub(super) fn camp_check<L: Log>(&mut self, s: Seat, x: Seat, log: &mut L) {
        let camp = self.roles[x].camp();
        let k = self.know(s);
        k.checked.insert(x);
        k.camps[camp as usize].insert(x);
        k.last = Some((x, CheckOutcome::Camp(camp)));
        if L::ENABLED {
            log.push(Event::CampCheck { seat: s, target: x, camp });
        }
    }

    /// E7: the Boss `s` learns whether `x` holds a role or is plain, and his camp.
    fn boss_check<L: Log>(&mut self, s: Seat, x: Seat, log: &mut L) {
        let info = self.roles[x].info();
        let k = self.know(s);
        k.checked.insert(x);
        k.camps[info.camp as usize].insert(x);
        if !info.plain {
            k.holders.insert(x);
        }
        k.last = Some((x, CheckOutcome::Camp(info.camp)));
        if L::ENABLED {
            log.push(Event::BossCheck { seat: s, target: x, plain: info.plain, camp: info.camp });
        }
    }

    /// C5, C6, E7, E13, E17: checks of people, judged at dusk (C7).
    #[inline(always)] // one copy per call site: the default order and `step_dyn` (resolve.rs)
    pub(super) fn information<L: Log>(&mut self, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        // Checks do not affect each other (C7), so they resolve in seat order.
        let m = &moves.makers;
        let makers = m[NightAbility::BossCheck.index()]
            .union(m[NightAbility::CheckIsRole(Role::Commissar).index()])
            .union(m[NightAbility::CheckCamp.index()])
            .union(m[NightAbility::Compare.index()]);
        for s in makers.iter() {
            let ability = moves.ability[s];
            // Each move judged as itself, so its table row folds away.
            let judged = match ability {
                NightAbility::BossCheck => self.judge(t, moves, s, NightAbility::BossCheck, log),
                NightAbility::CheckIsRole(role) => self.judge(t, moves, s, NightAbility::CheckIsRole(role), log),
                NightAbility::CheckCamp => self.judge(t, moves, s, NightAbility::CheckCamp, log),
                NightAbility::Compare => self.judge(t, moves, s, NightAbility::Compare, log),
                _ => continue,
            };
            let Some((x, second)) = judged else { continue };
            let my_camp: Camp = self.roles[s].camp();
            match ability {
                NightAbility::BossCheck => self.boss_check(s, x, log),
                NightAbility::CheckIsRole(role) => self.role_check(s, x, role, log),
                NightAbility::CheckCamp => {
                    self.camp_check(s, x, log);
                    t.scout[0] = Some(x);
                }
                NightAbility::Compare => {
                    // E17: same camp or different.
                    let b = second.expect("a comparison names two players");
                    let same = self.roles[x].camp() == self.roles[b].camp();
                    let report = Report::Compare { a: x, b, same };
                    self.know(s).report = Some(report);
                    t.visit(my_camp, b);
                    if L::ENABLED {
                        log.push(Event::Learned { seat: s, report });
                    }
                }
                _ => continue,
            }
            t.visit(my_camp, x);
        }
    }
}
