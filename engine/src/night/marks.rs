//! E30.6, marks for later: the Witch's hex (E18), the Miner's mine (E25),
//! the Trickster's pick (E28).

use super::moves::NightMoves;
use super::resolve::Tonight;
use crate::event::{Event, Log};
use crate::role::NightAbility;
use crate::state::State;

impl State {
    /// E18, E25, E28: marks that act later.
    pub(super) fn marks<L: Log>(&mut self, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        for s in moves.makers[NightAbility::Hex.index()].iter() {
            let Some((x, _)) = self.judge(t, moves, s, log) else { continue };
            if t.healed.contains(x) {
                // E15/E18: a heal tonight lifts the hex cast tonight.
                if L::ENABLED {
                    log.push(Event::HexLifted { seat: x });
                }
                continue;
            }
            self.hex_next.insert(x);
            t.visit(self.roles[s as usize].camp(), x);
            self.succeed(s, NightAbility::Hex, x, log);
        }
        for s in moves.makers[NightAbility::Mine.index()].iter() {
            let Some((x, _)) = self.judge(t, moves, s, log) else { continue };
            self.mines.insert(x);
            t.visit(self.roles[s as usize].camp(), x);
            self.succeed(s, NightAbility::Mine, x, log);
        }
        for s in moves.makers[NightAbility::Trick.index()].iter() {
            let Some((x, _)) = self.judge(t, moves, s, log) else { continue };
            self.tricked.insert(x);
            t.visit(self.roles[s as usize].camp(), x);
            self.succeed(s, NightAbility::Trick, x, log);
        }
    }
}
