//! The night: the start of night (promotions, the carried hex), collecting
//! moves, then resolving them step by step in the night order (E30), a
//! table ([`NIGHT_ORDER`]) that a setup may reorder.
//!
//! Each step sees the statuses set by earlier steps; a move that fails
//! leaves no trace (E30). Control moves (E29) resolve as a dependency graph
//! with a cycle rule, or as a plain sequence (`resolution = sequential`).
//! In the classic set only two steps have movers: information (the Don's
//! and the Commissar's checks, C5–C6) and kills (the camp kill, C4). Checks
//! are judged before kills, so a checker killed tonight still learns his
//! answer (C7), and "dead" in every failure list means dead at dusk.

mod control;
mod information;
mod kills;
mod marks;
mod moves;
pub(crate) mod order;
mod protection;
mod resolve;
mod start;
mod watchers;

pub use moves::{Move, MoveError, NightMoves};
pub use order::{NIGHT_ORDER, NightStep};
pub use resolve::NightResult;

use crate::decide::Players;
use crate::event::{DeathCause, EndCause, Event, Log};
use crate::role::Camp;
use crate::setup::Game;
use crate::state::{End, Phase, State};
use rand::Rng;

impl State {
    /// Plays night `night`: absence, the start of night, moves, resolution,
    /// deaths (the Psycho's guests first, E32), last words, the end check
    /// (C19) and the no-kill rule (C8).
    pub fn run_night<P, A, L>(
        &mut self,
        game: &Game,
        night: u16,
        players: &mut P,
        moves: &mut NightMoves,
        activity: &mut A,
        log: &mut L,
    ) -> Option<End>
    where
        P: Players,
        A: Rng + ?Sized,
        L: Log,
    {
        // The night adds nothing to the public record until somebody dies
        // or speaks (both bump the version): a read of the day's thread
        // stays good through the night's start.
        self.phase = Phase::Night(night);
        players.begin_phase(night, true);
        if L::ENABLED {
            log.push(Event::NightStart { night, alive: self.alive });
        }
        self.draw_presence(game.absence_threshold, activity, log);
        // E12: the Boss's letter naming the Actor's role (not a night move:
        // asked whether or not he is present tonight).
        if game.extended
            && let Some((by, actor, vacant)) = self.actor_vacancy()
        {
            match players.appoint(&self.observe(by), vacant) {
                Some(role) if vacant.contains(role) => self.appoint_actor(actor, role, log),
                Some(_) => self.refuse(by, "appointment", log),
                None => {}
            }
        }
        self.begin_night(game, log);
        self.collect_night_moves(game, players, moves, log);
        let result = self.resolve_night(game, moves, log);
        if !result.killed.is_empty() {
            // E32: the Psycho's guest is announced first, then the rest; one elimination (C19).
            if !result.guests.is_empty() {
                self.eliminate(result.guests, DeathCause::Killed, log);
            }
            self.eliminate(result.killed.minus(result.guests), DeathCause::Killed, log);
            self.last_words(players, log);
            if let Some(end) = self.end_check(game.mafia_win) {
                return Some(self.finish(end, log));
            }
        }
        self.stats.info_nights += self.alive.inter(self.informers).len() as u16;
        // C8: consecutive nights without the mafia's kill give the town the win.
        if result.shot {
            self.nights_without_kill = 0;
        } else {
            self.nights_without_kill = self.nights_without_kill.saturating_add(1);
            if L::ENABLED {
                log.push(Event::NoKillCount { nights: self.nights_without_kill });
            }
            if let Some(limit) = game.no_kill_limit
                && self.nights_without_kill >= limit
            {
                return Some(self.finish(End { winner: Some(Camp::Town), cause: EndCause::NoKillRule }, log));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decide::NightChoice;
    use crate::role::{NightAbility, Role};
    use crate::seat::{PlayerSet, Seat};

    #[test]
    fn every_role_with_a_night_move_has_a_step() {
        for role in Role::ALL {
            let info = role.info();
            let steps: Vec<NightStep> = NIGHT_ORDER.into_iter().filter(|s| s.roles().any(|r| r == role)).collect();
            let own = info.night != NightAbility::None && info.night != NightAbility::Borrow;
            let expected = info.shoots as usize + own as usize + (info.camp == Camp::Bandits) as usize
                - (info.camp == Camp::Bandits && info.night.step() == Some(NightStep::InformationOnMoves)) as usize;
            assert_eq!(steps.len(), expected, "{role}: {steps:?}");
        }
        // C5/C6 are information, C4 is a kill.
        assert!(NightStep::Information.roles().take(2).eq([Role::Commissar, Role::Don]));
        assert!(NightStep::Kills.roles().take(2).eq([Role::Mafioso, Role::Don]));
    }

    /// Random (sometimes illegal) answers from a seeded stream: the same calls
    /// in the same order get the same answers.
    struct Chaos(rand_chacha::ChaCha8Rng);
    impl Chaos {
        fn seat(&mut self, set: PlayerSet) -> Option<Seat> {
            crate::util::pick(&mut self.0, set)
        }
        fn anyone(&mut self, obs: &crate::state::Observation<'_>) -> Option<Seat> {
            // Now and then a dead or absent-minded answer, which must be refused alike.
            let all = PlayerSet::first(obs.players());
            if crate::util::below(&mut self.0, 8) == 0 { self.seat(all) } else { self.seat(obs.others_alive()) }
        }
    }
    impl Players for Chaos {
        fn new_game(&mut self, _: &crate::state::Observation<'_>) {}
        fn post(&mut self, _: &crate::state::Observation<'_>) -> crate::Publication {
            crate::Publication::NONE
        }
        fn vote(&mut self, obs: &crate::state::Observation<'_>) -> crate::Vote {
            self.anyone(obs).map_or(crate::Vote::Pass, crate::Vote::For)
        }
        fn revise(&mut self, _: &crate::state::Observation<'_>) -> Option<crate::Vote> {
            None
        }
        fn runoff(&mut self, _: &crate::state::Observation<'_>, c: PlayerSet) -> Seat {
            self.seat(c).expect("a runoff has candidates")
        }
        fn hang_both(&mut self, _: &crate::state::Observation<'_>, _: PlayerSet) -> bool {
            crate::util::below(&mut self.0, 2) == 1
        }
        fn night(&mut self, obs: &crate::state::Observation<'_>) -> NightChoice {
            let skip = crate::util::below(&mut self.0, 4) == 0;
            NightChoice {
                kill: if skip { None } else { self.anyone(obs) },
                act: self.anyone(obs),
                ..NightChoice::default()
            }
        }
        fn last_word(&mut self, _: &crate::state::Observation<'_>) -> crate::Publication {
            crate::Publication::NONE
        }
    }

    /// The classic fast paths (`collect_classic`, `resolve_classic`) give the
    /// same events, knowledge, deaths and outcomes as the general walk, over
    /// whole games — so over nights of every length, with the dead, earlier
    /// checks and absences carried from night to night.
    #[test]
    fn classic_fast_path_matches_the_general_walk() {
        use crate::setup::{Game, Preset};
        use rand::SeedableRng;
        let mut nights = [0u32; 8];
        for (preset, camp_kill, absence) in
            [("classic", "unanimous", "0"), ("classic-13", "leader", "0"), ("classic", "unanimous", "0.2")]
        {
            let mut setup = Preset::find(preset).unwrap().setup();
            setup.rules.set("camp_kill", camp_kill).unwrap();
            setup.rules.set("absence", absence).unwrap();
            setup.rules.set("no_kill_limit", "off").unwrap();
            let fast = Game::new(&setup).unwrap();
            let mut general = fast.clone();
            general.extended = true;
            general.active_steps = 0x7F;
            for round in 0..400u64 {
                let mut outs = Vec::new();
                for game in [&fast, &general] {
                    let mut st = State::default();
                    let seeded = |k: u64| rand_chacha::ChaCha8Rng::seed_from_u64(round * 4 + k);
                    st.deal(game, &mut seeded(0));
                    let mut log: Vec<Event> = Vec::new();
                    let out = crate::play_dealt(
                        game,
                        &mut st,
                        &mut NightMoves::default(),
                        &mut Chaos(seeded(1)),
                        &mut seeded(2),
                        &mut seeded(3),
                        &mut log,
                    );
                    log.retain(|e| !matches!(e, Event::Step(_)));
                    outs.push((log, out, st.knowledge[..fast.players()].to_vec()));
                }
                let played = outs[0].1.days as usize;
                nights[played.min(7)] += 1;
                assert_eq!(outs[0], outs[1], "{preset} {camp_kill} absence {absence} round {round}");
            }
        }
        // Games (so nights) of many lengths were compared.
        assert!(nights.iter().filter(|&&k| k > 0).count() >= 4, "game lengths {nights:?}");
    }

    #[test]
    fn e30_every_move_has_one_step_in_the_order() {
        for a in NightAbility::MOVES {
            let n = NIGHT_ORDER.iter().filter(|s| s.abilities().any(|b| b == a)).count();
            assert_eq!(n, (a != NightAbility::Borrow) as usize, "{a:?}");
        }
    }
}
