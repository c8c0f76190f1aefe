//! E30.7, information on moves: the Sleepwalker (E22), the Scout (E27),
//! the bandits' search (E3).

use super::moves::NightMoves;
use super::resolve::Tonight;
use crate::event::{Event, Log, Report};
use crate::role::{Camp, NightAbility};
use crate::state::State;

impl State {
    /// E22, E27, E3: reports on moves and the bandits' search.
    #[inline(always)] // one copy per call site: the default order and `step_dyn` (resolve.rs)
    pub(super) fn information_on_moves<L: Log>(&mut self, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        for s in moves.makers[NightAbility::Watch.index()].iter() {
            // `judge` gives the house he actually watches (after E11's redirect).
            let Some((x, _)) = self.judge(t, moves, s, NightAbility::Watch, log) else { continue };
            let camps = t.visits[x.index()];
            let report = Report::Watch { target: x, camps };
            self.know(s).report = Some(report);
            if L::ENABLED {
                log.push(Event::Learned { seat: s, report });
            }
        }
        for s in moves.makers[NightAbility::Scout.index()].iter() {
            if !self.judge_untargeted(t, s, NightAbility::Scout, log) {
                continue;
            }
            let [checked, robbed, healed] = t.scout;
            let report = Report::Scout { checked, robbed, healed };
            self.know(s).report = Some(report);
            if L::ENABLED {
                log.push(Event::Learned { seat: s, report });
            }
        }
        // E3: a bandit naming a bandit: the host introduces the two.
        let bandits = self.camp_members[Camp::Bandits as usize];
        for s in bandits.inter(self.alive).iter() {
            let Some(x) = moves.search(s) else { continue };
            if bandits.contains(x) && !self.knowledge[s].mates.contains(x) {
                self.know(s).mates.insert(x);
                self.know(x).mates.insert(s);
                if L::ENABLED {
                    log.push(Event::BanditsMeet { a: s, b: x });
                }
            }
        }
    }
}
