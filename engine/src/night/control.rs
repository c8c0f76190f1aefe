//! E30.2, control moves: the Thief's robbery, the Psycho's invitation, the
//! Thug's beating and the Swindler's redirect, resolved as E29's dependency
//! graph with its cycle rule (or as a plain sequence). The Sleepwalker's
//! "beaten too" (E22, E26) is settled here too, as it is a consequence of
//! the beating and ranks with the Thug in E29's priority.

use super::moves::NightMoves;
use super::resolve::Tonight;
use crate::event::{Event, Fail, Log, Status};
use crate::role::{Camp, NightAbility, Role, Targets};
use crate::rules::{Resolution, ThiefAtPsycho};
use crate::seat::{PlayerSet, Seat};
use crate::setup::Game;
use crate::state::State;

/// Where a control move stands in E29's graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Waits on a move that may block it.
    Undecided,
    Stands,
    /// Fails, for `Ctl::reason`.
    Fails,
}

/// A control move in the E29 graph.
#[derive(Clone, Copy)]
struct Ctl {
    seat: Seat,
    ability: NightAbility,
    target: Seat,
    /// The Swindler's new target (E11); the target itself for a block.
    to: Seat,
    verdict: Verdict,
    /// Why a failed move failed.
    reason: Option<Fail>,
    /// The status this move puts on its target if it stands; `None` for the
    /// redirect, and for a robbery of the Psycho under `thief_at_psycho =
    /// house` (E9), which fails at his door and blocks nobody.
    blocks: Option<Status>,
    /// E29: a cycle was broken at this move: it stands as made, unredirected.
    pinned: bool,
}

impl Ctl {
    #[inline]
    fn undecided(&self) -> bool {
        self.verdict == Verdict::Undecided
    }
    #[inline]
    fn stands(&self) -> bool {
        self.verdict == Verdict::Stands
    }
    #[inline]
    fn fails(&self) -> bool {
        self.verdict == Verdict::Fails
    }
    #[inline]
    fn fail(&mut self, reason: Fail) {
        self.verdict = Verdict::Fails;
        self.reason = Some(reason);
    }
}

/// The graph's capacity. Every control role is a named, unique role (E4);
/// the Actor takes the Thief's or the Swindler's move only once its holder
/// is dead, and the Role Prostitute borrows only town roles: so at most one
/// living maker of each of the four control moves.
const MAX_CONTROL: usize = 4;

/// The control moves in E29's priority (Thief, Psycho, Thug, Swindler).
const CONTROL: [NightAbility; 4] = [NightAbility::Rob, NightAbility::Invite, NightAbility::Beat, NightAbility::Swindle];

/// What tonight's control moves need (see `control_shape`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// No control move.
    None,
    /// Nothing to decide: `control_settled`.
    Settled,
    /// E29's graph (or the sequence): `control_graph`.
    Graph,
}

/// E29 with nothing to decide: at most one maker of each control move (the
/// graph's capacity, MAX_CONTROL), and no control move names another control
/// maker. Then no block reaches a control move and the swindle's victim
/// makes none, so every move the carried hex does not stop stands as made,
/// in the graph (its first round, no cycle) and in the sequence alike:
/// `control_settled` applies them directly, in the order `control_graph`
/// would.
#[inline(always)]
fn control_shape(moves: &NightMoves) -> Shape {
    let m = &moves.makers;
    let [rob, invite, beat, swindle] = CONTROL.map(|a| m[a.index()]);
    let seats = rob.union(invite).union(beat).union(swindle);
    if seats.is_empty() {
        return Shape::None;
    }
    let single = |x: PlayerSet| x.0 & x.0.wrapping_sub(1) == 0;
    if single(rob) && single(invite) && single(beat) && single(swindle) {
        let mut named = PlayerSet::EMPTY;
        for s in seats.iter() {
            named = named.union(PlayerSet::single(moves.target(s)).without(s));
        }
        if named.inter(seats).is_empty() {
            return Shape::Settled;
        }
    }
    Shape::Graph
}

impl State {
    /// E29: control moves. A control move stands unless its maker is blocked
    /// by a control move that stands; a standing redirect rewrites its
    /// victim's target first. A cycle is broken at the highest-priority
    /// maker (Thief, Psycho, Thug, Swindler). `sequential`: in that order,
    /// an earlier move always wins and the redirect reaches only later steps.
    #[inline(always)] // one copy per call site: the default order and `step_dyn` (resolve.rs)
    pub(super) fn control<L: Log>(&mut self, game: &Game, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        match control_shape(moves) {
            Shape::None => {}
            Shape::Settled => self.control_settled(game, moves, t, log),
            Shape::Graph => self.control_graph(game, moves, t, log),
        }
    }

    /// E29 when no control move names another control maker (see
    /// `control`): the hexed makers fail (E6), the rest stand; their effects
    /// land as in `control_graph`, through the same helpers.
    fn control_settled<L: Log>(&mut self, game: &Game, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        let m = &moves.makers;
        let hexed = self.hexed;
        if L::ENABLED {
            // E6/E29: the carried hex always stands; in the graph's order.
            for a in CONTROL {
                for s in m[a.index()].inter(hexed).iter() {
                    let reason = Fail::Blocked { status: Status::Hexed, by: None };
                    log.push(Event::Failed { seat: s, ability: a, reason });
                }
            }
        }
        for s in m[NightAbility::Beat.index()].minus(hexed).iter() {
            self.beating_lands(game, t, s, moves.target(s), log);
        }
        let beaten_houses = t.beaten;
        for s in m[NightAbility::Swindle.index()].minus(hexed).iter() {
            let (victim, to) = (moves.target(s), moves.second[s]);
            let mafia = self.camp_members[Camp::Mafia as usize];
            // No cycle, so no pinned victim (E29).
            self.swindle_lands(moves, t, s, victim, to, mafia, beaten_houses, false, log);
        }
        let psycho = self.holder(Role::Psycho);
        let house = game.rules.thief_at_psycho == ThiefAtPsycho::House;
        for s in m[NightAbility::Rob.index()].minus(hexed).iter() {
            let target = moves.target(s);
            let harmless = house && Some(target) == psycho;
            self.block_lands(t, s, NightAbility::Rob, target, harmless, beaten_houses, log);
        }
        for s in m[NightAbility::Invite.index()].minus(hexed).iter() {
            self.block_lands(t, s, NightAbility::Invite, moves.target(s), false, beaten_houses, log);
        }
        self.walkers(moves, t, beaten_houses, log);
    }

    /// E29's dependency graph with its cycle rule, or the plain sequence.
    fn control_graph<L: Log>(&mut self, game: &Game, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        let blank = Ctl {
            seat: Seat::new(0),
            ability: NightAbility::None,
            target: Seat::new(0),
            to: Seat::new(0),
            verdict: Verdict::Undecided,
            reason: None,
            blocks: None,
            pinned: false,
        };
        let psycho = self.holder(Role::Psycho);
        let house = game.rules.thief_at_psycho == ThiefAtPsycho::House;
        let mut ctl = [blank; MAX_CONTROL];
        let mut k = 0;
        for (a, status) in
            CONTROL.into_iter().zip([Some(Status::Robbed), Some(Status::Invited), Some(Status::Beaten), None])
        {
            for s in moves.makers[a.index()].iter() {
                if k < ctl.len() {
                    let target = moves.target(s);
                    let to = if a == NightAbility::Swindle { moves.second[s] } else { target };
                    let harmless = house && a == NightAbility::Rob && Some(target) == psycho;
                    let blocks = if harmless { None } else { status };
                    ctl[k] = Ctl {
                        seat: s,
                        ability: a,
                        target,
                        to,
                        verdict: Verdict::Undecided,
                        reason: None,
                        blocks,
                        pinned: false,
                    };
                    // E6/E29: the carried hex always stands.
                    if self.hexed.contains(s) {
                        ctl[k].fail(Fail::Blocked { status: Status::Hexed, by: None });
                    }
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
        // The control move the swindle names, if any (E11: never a mafioso's;
        // the graph only), found once: the swindle's target never changes.
        let victim_move = swindle
            .filter(|_| graph)
            .and_then(|w| (0..k).find(|&j| j != w && ctl[j].seat == ctl[w].target && !mafia.contains(ctl[j].seat)));
        // Whether control move `j` is the swindle's victim, and the swindle's index.
        let redirectable = |ctl: &[Ctl], j: usize| -> Option<usize> {
            if victim_move == Some(j) && !ctl[j].pinned { swindle } else { None }
        };
        // The targets control move `j` may reach: (definite, other possible).
        let possible = |ctl: &[Ctl], j: usize| -> (Seat, Option<Seat>) {
            match redirectable(ctl, j) {
                Some(w) if ctl[w].stands() => (ctl[w].to, None),
                Some(w) if ctl[w].undecided() => (ctl[j].target, Some(ctl[w].to)),
                _ => (ctl[j].target, None),
            }
        };
        if graph {
            loop {
                let mut progress = false;
                for i in 0..k {
                    if !ctl[i].undecided() {
                        continue;
                    }
                    let me = ctl[i].seat;
                    let mut maybe = false;
                    let mut by = None;
                    for j in 0..k {
                        if j == i || ctl[j].fails() || ctl[j].blocks.is_none() {
                            continue;
                        }
                        let (a, b) = possible(ctl, j);
                        if a == me && b.is_none() && ctl[j].stands() {
                            by = Some(j);
                            break;
                        }
                        maybe |= a == me || b == Some(me);
                    }
                    if let Some(j) = by {
                        let status = ctl[j].blocks.expect("a blocking move");
                        ctl[i].fail(Fail::Blocked { status, by: Some(ctl[j].seat) });
                        progress = true;
                    } else if !maybe {
                        ctl[i].verdict = Verdict::Stands;
                        progress = true;
                    }
                }
                if !progress {
                    // E29: a cycle; it is broken at the highest-priority maker in it: an
                    // undecided move, or a standing one whose target waits on an undecided
                    // redirect. His move stands as made.
                    let in_cycle = |ctl: &[Ctl], i: usize| {
                        ctl[i].undecided()
                            || (ctl[i].stands() && redirectable(ctl, i).is_some_and(|w| ctl[w].undecided()))
                    };
                    match (0..k).find(|&i| in_cycle(ctl, i)) {
                        Some(i) => {
                            if redirectable(ctl, i).is_some_and(|w| ctl[w].undecided()) {
                                ctl[i].pinned = true;
                            }
                            ctl[i].verdict = Verdict::Stands;
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
                if ctl[i].fails() {
                    continue;
                }
                let me = ctl[i].seat;
                let by = (0..i).find(|&j| ctl[j].stands() && ctl[j].blocks.is_some() && ctl[j].target == me);
                match by {
                    Some(j) => {
                        let status = ctl[j].blocks.expect("a blocking move");
                        ctl[i].fail(Fail::Blocked { status, by: Some(ctl[j].seat) });
                    }
                    None => ctl[i].verdict = Verdict::Stands,
                }
            }
        }
        // Final targets: a standing redirect rewrites its victim's target (graph only).
        for j in 0..k {
            if ctl[j].fails() {
                if L::ENABLED {
                    let reason = ctl[j].reason.expect("a failed move has a reason");
                    log.push(Event::Failed { seat: ctl[j].seat, ability: ctl[j].ability, reason });
                }
                continue;
            }
            if let Some(w) = redirectable(ctl, j)
                && ctl[w].stands()
            {
                ctl[j].target = ctl[w].to;
            }
        }
        // The beating first: every other move checks for a beaten target (E6).
        for c in ctl.iter().filter(|c| c.stands() && c.ability == NightAbility::Beat) {
            self.beating_lands(game, t, c.seat, c.target, log);
        }
        // The houses the Thug came to; `t.beaten` grows below with the
        // Sleepwalkers beaten there, who do not make their houses beaten.
        let beaten_houses = t.beaten;
        // E11: the redirect.
        if let Some(w) = swindle {
            let c = ctl[w];
            if c.stands() {
                let pinned = ctl.iter().any(|v| v.pinned && v.seat == c.target);
                self.swindle_lands(moves, t, c.seat, c.target, c.to, mafia, beaten_houses, pinned, log);
            }
        }
        for c in ctl.iter().filter(|c| c.stands()) {
            if matches!(c.ability, NightAbility::Rob | NightAbility::Invite) {
                self.block_lands(t, c.seat, c.ability, c.target, c.blocks.is_none(), beaten_houses, log);
            }
        }
        self.walkers(moves, t, beaten_houses, log);
    }

    /// E26: a standing beating lands on `target`.
    #[inline]
    fn beating_lands<L: Log>(&mut self, game: &Game, t: &mut Tonight, s: Seat, target: Seat, log: &mut L) {
        t.beaten.insert(target);
        t.by_beat = Some(s);
        t.visit(Camp::Bandits, target);
        // E15/E26 (`repeat_target = reached`): the beating reached its target.
        self.reached(game, s, target);
        self.succeed(s, NightAbility::Beat, Some(target), log);
        if L::ENABLED {
            log.push(Event::StatusSet { seat: target, status: Status::Beaten, by: s });
        }
    }

    /// E11: the standing swindle of `s` sends `victim`'s move to `to`, unless
    /// it fails at the victim. `beaten_houses`: where the Thug came;
    /// `pinned`: the victim's move won a cycle (E29).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn swindle_lands<L: Log>(
        &mut self,
        moves: &NightMoves,
        t: &mut Tonight,
        s: Seat,
        victim: Seat,
        to: Seat,
        mafia: PlayerSet,
        beaten_houses: PlayerSet,
        pinned: bool,
        log: &mut L,
    ) {
        let fail = if mafia.contains(victim) {
            Some(Fail::TargetMafia)
        } else if beaten_houses.contains(victim) {
            // E6. A Sleepwalker is not beaten yet: E29's redirect rewrites
            // his target before his walk is judged, so he walks where he is
            // sent, and is beaten too only if the Thug came there (below).
            Some(Fail::TargetBeaten)
        } else if moves.ability(victim).info().targets == Targets::Zero {
            // E11: "his move goes to the new target": no move with a target, nothing to send.
            Some(Fail::NothingToRedirect)
        } else if moves.ability(victim) == NightAbility::Trick {
            // E28: the Trickster acts «вопреки всем ходам».
            Some(Fail::Unredirectable)
        } else if pinned {
            // E29: the victim's move won the cycle and stands as made.
            Some(Fail::Overruled)
        } else {
            None
        };
        match fail {
            Some(reason) => {
                if L::ENABLED {
                    log.push(Event::Failed { seat: s, ability: NightAbility::Swindle, reason });
                }
            }
            None => {
                t.redirected = PlayerSet::single(victim);
                t.redirect_to = to;
                self.swindled.insert(victim);
                t.visit(Camp::Mafia, victim);
                self.succeed(s, NightAbility::Swindle, Some(victim), log);
                if L::ENABLED {
                    log.push(Event::Redirected { by: s, victim, from: moves.act(victim), to });
                }
            }
        }
    }

    /// E9, E23: the standing robbery or invitation (`ability`) of `s` puts
    /// its status on `target`, unless the Thug came there (E6) or, for a
    /// `harmless` robbery of the Psycho (E9, `thief_at_psycho = house`), it
    /// fails at his door.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn block_lands<L: Log>(
        &mut self,
        t: &mut Tonight,
        s: Seat,
        ability: NightAbility,
        target: Seat,
        harmless: bool,
        beaten_houses: PlayerSet,
        log: &mut L,
    ) {
        if beaten_houses.contains(target) {
            if L::ENABLED {
                log.push(Event::Failed { seat: s, ability, reason: Fail::TargetBeaten });
            }
            return;
        }
        if harmless {
            // E9 (`thief_at_psycho = house`): robbing the Psycho fails.
            if L::ENABLED {
                log.push(Event::Failed { seat: s, ability, reason: Fail::TargetPsycho });
            }
            return;
        }
        self.succeed(s, ability, Some(target), log);
        if ability == NightAbility::Rob {
            if L::ENABLED {
                log.push(Event::StatusSet { seat: target, status: Status::Robbed, by: s });
            }
            // E9: unnoticed: the Sleepwalker does not see the Thief; E27: the Scout learns it.
            t.robbed.insert(target);
            t.by_rob = Some(s);
            t.scout[1] = Some(target);
        } else {
            if L::ENABLED {
                log.push(Event::StatusSet { seat: target, status: Status::Invited, by: s });
            }
            t.invited.insert(target);
            t.by_invite = Some(s);
            t.guest = Some(target);
            t.visit(Camp::Bandits, target);
        }
    }

    /// E22/E26: a Sleepwalker walking round a house the Thug came to is
    /// beaten too («гуляет»). He walks unless hexed, beaten himself, robbed
    /// or invited (the Thief and the Psycho rank before the Thug, E29: their
    /// moves on him stand); where he walks is his house after the redirect.
    /// Then every status of tonight is known: `t.stopped` (E6).
    #[inline]
    fn walkers<L: Log>(&mut self, moves: &NightMoves, t: &mut Tonight, beaten_houses: PlayerSet, log: &mut L) {
        t.stopped = t.robbed.union(t.beaten).union(t.invited).union(self.hexed);
        let watchers = moves.makers[NightAbility::Watch.index()];
        let walking = watchers.minus(self.hexed).minus(beaten_houses).minus(t.robbed).minus(t.invited);
        for w in walking.iter() {
            if beaten_houses.contains(t.aim(w, moves.target(w))) {
                t.beaten.insert(w);
                t.stopped.insert(w);
                if L::ENABLED {
                    log.push(Event::BeatenWatching { seat: w });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use crate::night::moves::Move;
    use crate::seat::MAX_PLAYERS;
    use crate::setup::Preset;
    use crate::state::Bar;
    use crate::util::{below, pick};
    use rand::SeedableRng;

    /// Tonight after the control step of `st` on `moves`, by `control` or
    /// by the graph alone; the state and the events too.
    #[allow(clippy::type_complexity)]
    fn run(
        game: &Game,
        st: &State,
        moves: &NightMoves,
        graph: bool,
    ) -> (Tonight, Vec<Event>, Tonight, (PlayerSet, [Bar; MAX_PLAYERS])) {
        let fresh = |st: &State| {
            let mut t = Tonight::new();
            t.psycho = st.holder(Role::Psycho);
            t.stopped = st.hexed;
            t
        };
        let mut a = st.clone();
        let mut t = fresh(&a);
        let mut log: Vec<Event> = Vec::new();
        // The silent resolution too (the events are not built there).
        let mut b = st.clone();
        let mut quiet = fresh(&b);
        if graph {
            a.control_graph(game, moves, &mut t, &mut log);
            b.control_graph(game, moves, &mut quiet, &mut crate::event::NoLog);
        } else {
            a.control(game, moves, &mut t, &mut log);
            b.control(game, moves, &mut quiet, &mut crate::event::NoLog);
        }
        // What the step writes in the state: E11's record and E15/E26's bars.
        assert_eq!((a.swindled, a.bars), (b.swindled, b.bars));
        (t, log, quiet, (a.swindled, a.bars))
    }

    /// E29: the fast path (`control_settled`, taken when no control move
    /// names another control maker) does what the graph or the sequence
    /// (`control_graph`) does: the same statuses, redirect, records, state
    /// and events, on random moves of random deals (dead and hexed players,
    /// every control move, the Sleepwalker, moves a swindle cannot send).
    #[test]
    fn e29_settled_control_matches_the_graph() {
        let mut shapes = [0u32; 3];
        for (preset, rules) in [
            ("extended", &[][..]),
            ("extended", &[("resolution", "sequential"), ("thief_at_psycho", "house")][..]),
            ("forum-16", &[("repeat_target", "reached")][..]),
        ] {
            let mut setup = Preset::find(preset).unwrap().setup();
            for (k, v) in rules {
                setup.rules.set(k, v).unwrap();
            }
            let game = Game::new(&setup).unwrap();
            for round in 0..3000u64 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(round);
                let mut st = State::default();
                st.deal(&game, &mut rng);
                for s in Seat::all(game.players()) {
                    if below(&mut rng, 6) == 0 {
                        st.alive.remove(s);
                    }
                }
                for s in st.alive.iter() {
                    if below(&mut rng, 8) == 0 {
                        st.hexed.insert(s);
                    }
                }
                let mut moves = NightMoves::default();
                for s in st.alive.iter() {
                    let a = st.acting[s].info().night;
                    if matches!(a, NightAbility::None | NightAbility::Borrow) || below(&mut rng, 5) == 0 {
                        continue;
                    }
                    let others = st.alive.without(s);
                    let pool = if a.info().self_allowed { st.alive } else { others };
                    let m = match a.info().targets {
                        Targets::Zero => Move::zero(a),
                        Targets::One => Move::one(a, pick(&mut rng, pool).unwrap()),
                        Targets::Two => {
                            let x = pick(&mut rng, pool).unwrap();
                            Move::two(a, x, pick(&mut rng, st.alive.without(x)).unwrap())
                        }
                    };
                    moves.set_move(s, m);
                }
                shapes[control_shape(&moves) as usize] += 1;
                assert_eq!(run(&game, &st, &moves, false), run(&game, &st, &moves, true), "{preset} round {round}");
            }
        }
        // Both paths were compared many times.
        assert!(shapes[Shape::Settled as usize] > 1000 && shapes[Shape::Graph as usize] > 1000, "shapes {shapes:?}");
    }
}
