//! E30.6, marks for later: the Witch's hex (E18), the Miner's mine (E25),
//! the Trickster's pick (E28), and a borrowed Chosen's secret votes (E19,
//! E16).

use super::moves::NightMoves;
use super::resolve::Tonight;
use crate::event::{Event, Log};
use crate::role::NightAbility;
use crate::state::State;

impl State {
    /// E18, E25, E28, E19: marks that act later.
    #[inline(always)] // one copy per call site: the default order and `step_dyn` (resolve.rs)
    pub(super) fn marks<L: Log>(&mut self, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        for s in moves.makers[NightAbility::Hex.index()].iter() {
            let Some((x, _)) = self.judge(t, moves, s, NightAbility::Hex, log) else { continue };
            if t.healed.contains(x) {
                // E15/E18: a heal tonight lifts the hex cast tonight.
                if L::ENABLED {
                    log.push(Event::HexLifted { seat: x });
                }
                continue;
            }
            self.hex_next.insert(x);
            t.visit(self.roles[s].camp(), x);
            self.succeed(s, NightAbility::Hex, Some(x), log);
        }
        for s in moves.makers[NightAbility::Mine.index()].iter() {
            let Some((x, _)) = self.judge(t, moves, s, NightAbility::Mine, log) else { continue };
            self.mines.insert(x);
            t.visit(self.roles[s].camp(), x);
            self.succeed(s, NightAbility::Mine, Some(x), log);
        }
        for s in moves.makers[NightAbility::Trick.index()].iter() {
            // E28: «вопреки всем ходам»: no block and no redirect (see `judge`).
            let Some((x, _)) = self.judge(t, moves, s, NightAbility::Trick, log) else { continue };
            self.tricked.insert(x);
            t.visit(self.roles[s].camp(), x);
            self.succeed(s, NightAbility::Trick, Some(x), log);
        }
        for s in moves.makers[NightAbility::Votes.index()].iter() {
            // E19: the borrowed Chosen's votes, made "under its conditions":
            // a move of tonight, so E6's blocks stop it; it has no target.
            if !self.judge_untargeted(t, s, NightAbility::Votes, log) {
                continue;
            }
            self.secret_voters.insert(s);
            self.succeed(s, NightAbility::Votes, None, log);
        }
    }
}
