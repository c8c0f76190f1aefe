//! Positions: a game stopped between phases and played on from there
//! (`Position`, `Start`, `play_from`, `play_on`). The start position with
//! nothing known plays exactly the plain game; a checked position names
//! every problem with a path; what carries into the position (C8's count,
//! the dead, the checks, the public record) is what the game plays on
//! with; and the roles a view leaves unknown are dealt uniformly among the
//! deals that fit what the view knows.

use mafia_engine::{
    Camp, Chance, Check, CheckOutcome, DayVote, EndCause, Event, Game, NightChoice, NightMoves, Observation, Phase,
    PlayerSet, Players, Position, Preset, Publication, Role, Seat, Setup, Start, State, Vote, below, death_bounds,
    pick, play, play_dealt, play_from,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Random legal-ish players from a seeded stream; `shoot = false` never sends a kill nick.
struct Rand {
    rng: ChaCha8Rng,
    shoot: bool,
}

impl Players for Rand {
    fn new_game(&mut self, _: &Observation<'_>) {}
    fn post(&mut self, _: &Observation<'_>) -> Publication {
        Publication::NONE
    }
    fn vote(&mut self, obs: &Observation<'_>) -> Vote {
        if below(&mut self.rng, 5) == 0 {
            Vote::Pass
        } else {
            pick(&mut self.rng, obs.others_alive()).map_or(Vote::Pass, Vote::For)
        }
    }
    fn revise(&mut self, _: &Observation<'_>) -> Option<Vote> {
        None
    }
    fn runoff(&mut self, _: &Observation<'_>, candidates: PlayerSet) -> Seat {
        pick(&mut self.rng, candidates).expect("a runoff has candidates")
    }
    fn hang_both(&mut self, _: &Observation<'_>, _: PlayerSet) -> bool {
        below(&mut self.rng, 2) == 1
    }
    fn night(&mut self, obs: &Observation<'_>) -> NightChoice {
        let kill = if self.shoot { obs.alive().minus(obs.camp_mates()).lowest() } else { None };
        NightChoice { kill, act: pick(&mut self.rng, obs.others_alive()), ..NightChoice::default() }
    }
    fn last_word(&mut self, _: &Observation<'_>) -> Publication {
        Publication::NONE
    }
}

fn players(seed: u64) -> Rand {
    Rand { rng: rng(seed), shoot: true }
}

fn preset(name: &str) -> Setup {
    Preset::find(name).unwrap().setup()
}

fn paths(pos: &Position) -> Vec<String> {
    match Start::new(pos) {
        Ok(_) => panic!("expected problems for {pos:#?}"),
        Err(e) => e.problems.into_iter().map(|p| p.path).collect(),
    }
}

#[test]
fn c3_play_from_day_1_equals_play_and_play_dealt() {
    for name in ["classic", "classic-13", "extended"] {
        let setup = preset(name);
        let game = Game::new(&setup).unwrap();
        let start = Start::new(&Position::start_of(&setup)).unwrap();
        assert_eq!(start.sampled().len() as usize, game.players(), "{name}: nothing known, every seat dealt");
        for seed in 0..200u64 {
            // The plain game.
            let (mut st, mut log) = (State::default(), Vec::<Event>::new());
            let (mut d, mut h, mut a) = (rng(seed), rng(seed + 1000), rng(seed + 2000));
            let plain = play(
                &game,
                &mut st,
                &mut NightMoves::default(),
                &mut players(seed),
                Chance { deal: &mut d, host: &mut h, activity: &mut a },
                &mut log,
            );
            let dealt: Vec<Role> = st.roles().to_vec();
            // From the start position, nothing known: the same deal, the same game.
            let (mut st2, mut log2) = (State::default(), Vec::<Event>::new());
            let (mut d, mut h, mut a) = (rng(seed), rng(seed + 1000), rng(seed + 2000));
            let from = play_from(
                &start,
                &mut st2,
                &mut NightMoves::default(),
                &mut players(seed),
                Chance { deal: &mut d, host: &mut h, activity: &mut a },
                &mut log2,
            )
            .unwrap();
            assert_eq!(st2.roles(), &dealt[..], "{name} seed {seed}: the deal");
            assert_eq!(from, plain, "{name} seed {seed}");
            assert_eq!(log2, log, "{name} seed {seed}");
            // Every role fixed to that deal: play_dealt's game.
            let mut pos = Position::start_of(&setup);
            pos.roles = dealt.iter().map(|&r| Some(r)).collect();
            let fixed = Start::new(&pos).unwrap();
            assert!(fixed.sampled().is_empty());
            let (mut st3, mut log3) = (State::default(), Vec::<Event>::new());
            let (mut d, mut h, mut a) = (rng(99), rng(seed + 1000), rng(seed + 2000));
            let again = play_from(
                &fixed,
                &mut st3,
                &mut NightMoves::default(),
                &mut players(seed),
                Chance { deal: &mut d, host: &mut h, activity: &mut a },
                &mut log3,
            )
            .unwrap();
            let (mut st4, mut log4) = (State::default(), Vec::<Event>::new());
            st4.set_roles(&game, &dealt);
            let (mut h, mut a) = (rng(seed + 1000), rng(seed + 2000));
            let dealt_out =
                play_dealt(&game, &mut st4, &mut NightMoves::default(), &mut players(seed), &mut h, &mut a, &mut log4);
            assert_eq!(again, dealt_out, "{name} seed {seed}");
            assert_eq!(log3, log4, "{name} seed {seed}");
        }
    }
}

/// A classic position at `phase` with every role named: seats 0–2 mafia
/// (the Don first), 3 the Commissar, the rest citizens.
fn classic_known(phase: Phase) -> Position {
    let mut pos = Position::start_of(&preset("classic"));
    let mut roles = vec![Some(Role::Citizen); 10];
    roles[0] = Some(Role::Don);
    roles[1] = Some(Role::Mafioso);
    roles[2] = Some(Role::Mafioso);
    roles[3] = Some(Role::Commissar);
    pos.roles = roles;
    pos.phase = phase;
    pos
}

fn play_once(start: &Start, seed: u64, p: &mut Rand) -> (mafia_engine::Outcome, Vec<Event>) {
    let (mut st, mut log) = (State::default(), Vec::<Event>::new());
    let (mut d, mut h, mut a) = (rng(seed), rng(seed + 1), rng(seed + 2));
    let o = play_from(
        start,
        &mut st,
        &mut NightMoves::default(),
        p,
        Chance { deal: &mut d, host: &mut h, activity: &mut a },
        &mut log,
    )
    .unwrap();
    (o, log)
}

#[test]
fn c8_no_kill_counter_carries_into_the_position() {
    // Two nights without a kill already: a third miss tonight gives the town the win (limit 3).
    let mut pos = classic_known(Phase::Night(3));
    pos.nights_without_kill = 2;
    let start = Start::new(&pos).unwrap();
    let mut p = Rand { rng: rng(1), shoot: false };
    let (o, log) = play_once(&start, 1, &mut p);
    assert_eq!(o.winner, Some(Camp::Town));
    assert_eq!(o.cause, EndCause::NoKillRule);
    assert_eq!(o.days, 3, "it ends in night 3");
    assert!(log.contains(&Event::NoKillCount { nights: 3 }));
    // The count at the limit is refused: the town would have won already.
    pos.nights_without_kill = 3;
    assert!(paths(&pos).contains(&"nights_without_kill".to_string()));
}

#[test]
fn c17_c18_a_position_already_decided_by_the_numbers_ends_at_once() {
    // All three mafia dead: the town has won (C17).
    let mut pos = classic_known(Phase::Day(4));
    pos.carry.dead = vec![Seat::new(0), Seat::new(1), Seat::new(2)];
    pos.killed = vec![];
    let start = Start::new(&pos).unwrap();
    let (o, log) = play_once(&start, 3, &mut players(3));
    assert_eq!((o.winner, o.cause, o.days), (Some(Camp::Town), EndCause::MafiaEliminated, 4));
    assert!(!log.iter().any(|e| matches!(e, Event::DayStart { .. })), "no day is played");
    // Two mafia against two town: parity (C18).
    let mut pos = classic_known(Phase::Night(4));
    pos.carry.dead = vec![Seat::new(0), Seat::new(3), Seat::new(4), Seat::new(5), Seat::new(6), Seat::new(7)];
    pos.killed = vec![Seat::new(3), Seat::new(5), Seat::new(7)];
    let start = Start::new(&pos).unwrap();
    let (o, _) = play_once(&start, 4, &mut players(4));
    assert_eq!((o.winner, o.cause), (Some(Camp::Mafia), EndCause::Parity));
}

#[test]
fn c3_c12_e8_more_dead_than_the_phases_allow_is_refused() {
    let s = Seat::new;
    // The morning of day 3 in classic: two days of at most two hanged
    // (C12's hang-both) and two nights of one kill (C4): six at most.
    let mut pos = classic_known(Phase::Day(3));
    pos.carry.dead = (3..10).map(s).collect();
    pos.killed = vec![s(3), s(4)];
    assert_eq!(paths(&pos), vec!["dead".to_string()], "seven dead by the morning of day 3");
    pos.carry.dead.pop();
    Start::new(&pos).unwrap();
    // Three night kills in two nights.
    pos.killed = vec![s(3), s(4), s(5)];
    assert_eq!(paths(&pos), vec!["killed".to_string()]);
    // With `tie_break = random` one is lynched a day.
    let mut pos = classic_known(Phase::Day(3));
    pos.setup = pos.setup.rule("tie_break", "random").unwrap();
    pos.carry.dead = vec![s(3), s(4), s(5), s(6)];
    pos.killed = vec![s(6)];
    assert_eq!(paths(&pos), vec!["dead".to_string()]);
    // Modkills (C15) are not bounded.
    pos.modkilled = vec![s(4)];
    Start::new(&pos).unwrap();
    // Under extended roles a night can take more: a Psycho's two guests,
    // a Shooter's shot and the camp kill.
    let (per_day, per_night) = death_bounds(&Game::new(&preset("extended")).unwrap());
    assert!(per_night >= 2 && per_day >= 2, "{per_day} {per_night}");
}

#[test]
fn c12_e25_a_days_dead_are_bounded_by_the_lynch_limit() {
    // A Miner in play: by default (`lynch_limit = lynch`) two hanged and a
    // third mined may leave on one day; with `day` two at most.
    let setup = preset("extended");
    let game = Game::new(&setup).unwrap();
    assert!(game.count(Role::Miner) > 0, "the extended preset deals a Miner");
    assert_eq!(death_bounds(&game).0, 3);
    let game = Game::new(&setup.rule("lynch_limit", "day").unwrap()).unwrap();
    assert_eq!(death_bounds(&game).0, 2);
}

#[test]
fn c17_c18_e2_a_decided_position_says_so_whatever_the_deal() {
    let s = Seat::new;
    // Every mafia role dead and announced: the town has won, whatever the rest hold.
    let mut pos = classic_known(Phase::Day(4));
    pos.carry.dead = vec![s(0), s(1), s(2)];
    let end = Start::new(&pos).unwrap().decided().unwrap();
    assert_eq!((end.winner, end.cause), (Some(Camp::Town), EndCause::MafiaEliminated));
    // Unknown living roles that could still be mafia: not decided.
    pos.roles = vec![None; 10];
    pos.roles[0] = Some(Role::Don);
    assert_eq!(Start::new(&pos).unwrap().decided(), None);
    // The Don and the Commissar left, the dead's roles unknown (dealt per
    // game): one against one is parity (C18) whatever the dead held.
    let mut pos = classic_known(Phase::Night(5));
    pos.roles = vec![None; 10];
    pos.roles[0] = Some(Role::Don);
    pos.roles[3] = Some(Role::Commissar);
    pos.carry.dead = [1, 2, 4, 5, 6, 7, 8, 9].map(s).to_vec();
    pos.killed = vec![s(1), s(2), s(4), s(5)];
    let end = Start::new(&pos).unwrap().decided().unwrap();
    assert_eq!((end.winner, end.cause), (Some(Camp::Mafia), EndCause::Parity));
    // A fresh start is never decided.
    assert_eq!(Start::new(&Position::start_of(&preset("classic"))).unwrap().decided(), None);
}

#[test]
fn c9_the_dead_and_the_record_carry_into_the_observation() {
    let mut pos = classic_known(Phase::Day(3));
    pos.carry.dead = vec![Seat::new(5), Seat::new(7)];
    pos.killed = vec![Seat::new(7)];
    let mut claim = Publication::NONE;
    claim.claim = Some(Role::Commissar);
    claim.camps[Camp::Mafia as usize] = PlayerSet::single(Seat::new(1));
    pos.published = vec![(Seat::new(3), claim)];
    pos.checks = vec![
        Check { by: Seat::new(3), target: Seat::new(1), outcome: None },
        Check { by: Seat::new(0), target: Seat::new(4), outcome: None },
    ];
    let start = Start::new(&pos).unwrap();
    let mut st = State::default();
    start.set_up(
        &mut st,
        &[
            Role::Don,
            Role::Mafioso,
            Role::Mafioso,
            Role::Commissar,
            Role::Citizen,
            Role::Citizen,
            Role::Citizen,
            Role::Citizen,
            Role::Citizen,
            Role::Citizen,
        ],
    );
    assert_eq!(st.phase(), Phase::Day(3));
    assert!(!st.alive().contains(Seat::new(5)) && !st.alive().contains(Seat::new(7)));
    let com = st.observe(Seat::new(3));
    // C6: the Commissar's check; read from the known role.
    assert_eq!(com.found_in_camp(Camp::Mafia), PlayerSet::single(Seat::new(1)));
    assert_eq!(com.last_check(), Some((Seat::new(1), CheckOutcome::Camp(Camp::Mafia))));
    // C5: the Don's "no".
    let don = st.observe(Seat::new(0));
    assert!(don.checked().contains(Seat::new(4)) && don.found_role().is_empty());
    // The public record: the claim, the deaths (a kill at night, a lynch by day).
    let town = st.observe(Seat::new(6));
    assert_eq!(town.claimants(Role::Commissar), PlayerSet::single(Seat::new(3)));
    assert_eq!(town.killed_at_night(), PlayerSet::single(Seat::new(7)));
    assert!(matches!(town.death(Seat::new(5)), Some((Phase::Day(_), mafia_engine::DeathCause::Lynched))));
    // C2: the mafia know each other; the town does not.
    assert_eq!(st.observe(Seat::new(1)).camp_mates(), PlayerSet::first(3));
    assert_eq!(town.camp_mates(), PlayerSet::single(Seat::new(6)));
}

/// What the players saw at their first decision of the game.
#[derive(Default)]
struct Seen {
    prev: Vec<Option<Vote>>,
    today: Vec<Option<Vote>>,
    tally: Vec<u32>,
    past: Vec<PlayerSet>,
    ranks: Vec<u16>,
    asked: bool,
}

impl Seen {
    fn look(&mut self, obs: &Observation<'_>) {
        if !self.asked {
            self.asked = true;
            let seats = Seat::all(10); // the classic table
            self.prev = seats.clone().map(|s| obs.prev_vote_of(s)).collect();
            self.past = obs.carried_votes().map_or(vec![PlayerSet::EMPTY; 10], |v| v[..10].to_vec());
            self.ranks = seats.clone().map(|s| obs.claim_rank(s)).collect();
            self.today = seats.clone().map(|s| obs.vote_of(s)).collect();
            self.tally = seats.map(|s| obs.votes_for(s)).collect();
        }
    }
}

impl Players for Seen {
    fn new_game(&mut self, _: &Observation<'_>) {}
    fn post(&mut self, obs: &Observation<'_>) -> Publication {
        self.look(obs);
        Publication::NONE
    }
    fn vote(&mut self, obs: &Observation<'_>) -> Vote {
        self.look(obs);
        Vote::Pass
    }
    fn revise(&mut self, _: &Observation<'_>) -> Option<Vote> {
        None
    }
    fn runoff(&mut self, _: &Observation<'_>, candidates: PlayerSet) -> Seat {
        candidates.lowest().expect("a runoff has candidates")
    }
    fn hang_both(&mut self, _: &Observation<'_>, _: PlayerSet) -> bool {
        false
    }
    fn night(&mut self, obs: &Observation<'_>) -> NightChoice {
        self.look(obs);
        NightChoice::default()
    }
    fn last_word(&mut self, _: &Observation<'_>) -> Publication {
        Publication::NONE
    }
}

fn first_sight(start: &Start) -> Seen {
    let mut seen = Seen::default();
    let mut st = State::default();
    let (mut d, mut h, mut a) = (rng(5), rng(6), rng(7));
    let chance = Chance { deal: &mut d, host: &mut h, activity: &mut a };
    play_from(start, &mut st, &mut NightMoves::default(), &mut seen, chance, &mut Vec::<Event>::new()).unwrap();
    assert!(seen.asked, "somebody was asked to decide");
    seen
}

fn set(seats: &[Seat]) -> PlayerSet {
    seats.iter().copied().collect()
}

/// Votes of `day`: (voter, vote) pairs.
fn on(day: u16, votes: &[(Seat, Vote)]) -> Vec<DayVote> {
    votes.iter().map(|&(by, vote)| DayVote { day, by, vote }).collect()
}

#[test]
fn c10_the_last_days_votes_carry_into_a_position() {
    let votes =
        [(4, Vote::For(Seat::new(1))), (5, Vote::For(Seat::new(1))), (6, Vote::Pass), (0, Vote::For(Seat::new(3)))]
            .map(|(by, v)| (Seat::new(by), v));
    // At day 3 they are yesterday's votes, and today's count starts empty.
    let mut pos = classic_known(Phase::Day(3));
    pos.votes = on(2, &votes);
    let seen = first_sight(&Start::new(&pos).unwrap());
    assert_eq!(seen.prev[4], Some(Vote::For(Seat::new(1))));
    assert_eq!(seen.prev[6], Some(Vote::Pass));
    assert_eq!(seen.prev[0], Some(Vote::For(Seat::new(3))));
    assert_eq!(seen.prev[7], None, "an unlisted seat cast no vote");
    assert!(seen.today.iter().all(Option::is_none) && seen.tally.iter().all(|&c| c == 0));
    // At night 3 they are today's votes (what C4's signal reads) and their count.
    let mut pos = classic_known(Phase::Night(3));
    pos.votes = on(3, &votes);
    let seen = first_sight(&Start::new(&pos).unwrap());
    assert_eq!(seen.today[0], Some(Vote::For(Seat::new(3))), "the Don's vote, the kill signal (C4)");
    assert_eq!((seen.tally[1], seen.tally[3], seen.tally[6]), (2, 1, 0));
    assert!(seen.prev.iter().all(Option::is_none));
    // Bad votes: before day 1 there is no day; a self-vote; a voter twice.
    let mut pos = classic_known(Phase::Day(1));
    pos.votes = on(1, &[(Seat::new(4), Vote::For(Seat::new(1)))]);
    assert_eq!(paths(&pos), ["votes.0"]);
    let mut pos = classic_known(Phase::Night(2));
    pos.votes = on(
        2,
        &[(Seat::new(4), Vote::For(Seat::new(4))), (Seat::new(5), Vote::For(Seat::new(1))), (Seat::new(5), Vote::Pass)],
    );
    assert_eq!(paths(&pos), ["votes.0", "votes.2"]);
}

#[test]
fn c10_earlier_days_votes_carry_into_a_position_as_a_record() {
    // Day 4: day 3's votes are yesterday's count; days 1 and 2 are the
    // record the players start from.
    let mut pos = classic_known(Phase::Day(4));
    pos.votes = on(1, &[(Seat::new(4), Vote::For(Seat::new(1))), (Seat::new(5), Vote::Pass)]);
    pos.votes.extend(on(2, &[(Seat::new(4), Vote::For(Seat::new(2))), (Seat::new(6), Vote::For(Seat::new(1)))]));
    pos.votes.extend(on(3, &[(Seat::new(4), Vote::For(Seat::new(3))), (Seat::new(7), Vote::For(Seat::new(0)))]));
    let seen = first_sight(&Start::new(&pos).unwrap());
    assert_eq!(seen.past[4], set(&[Seat::new(1), Seat::new(2)]), "a voter's targets of every earlier day");
    assert_eq!(seen.past[6], set(&[Seat::new(1)]));
    assert!(seen.past[5].is_empty(), "a PASS names nobody");
    assert!(seen.past[7].is_empty(), "day 3 is yesterday's count, not the record");
    assert_eq!(
        (seen.prev[4], seen.prev[7], seen.prev[6]),
        (Some(Vote::For(Seat::new(3))), Some(Vote::For(Seat::new(0))), None)
    );
    // Night 3: day 3's votes are today's count; day 1's the record.
    let mut pos = classic_known(Phase::Night(3));
    pos.votes = on(1, &[(Seat::new(4), Vote::For(Seat::new(1)))]);
    pos.votes.extend(on(3, &[(Seat::new(4), Vote::For(Seat::new(3)))]));
    let seen = first_sight(&Start::new(&pos).unwrap());
    assert_eq!(seen.past[4], set(&[Seat::new(1)]));
    assert_eq!((seen.today[4], seen.tally[3]), (Some(Vote::For(Seat::new(3))), 1));
    // The record is the position's: the next game dealt on the same state starts empty.
    let start = Start::new(&classic_known(Phase::Day(4))).unwrap();
    let mut st = State::default();
    let (mut d, mut h, mut a) = (rng(5), rng(6), rng(7));
    let mut pos = classic_known(Phase::Day(4));
    pos.votes = on(1, &[(Seat::new(4), Vote::For(Seat::new(1)))]);
    let carried = Start::new(&pos).unwrap();
    let mut seen = Seen::default();
    for s in [&carried, &start] {
        seen.asked = false;
        let chance = Chance { deal: &mut d, host: &mut h, activity: &mut a };
        play_from(s, &mut st, &mut NightMoves::default(), &mut seen, chance, &mut Vec::<Event>::new()).unwrap();
    }
    assert!(seen.past.iter().all(|v| v.is_empty()), "the last game's record leaked: {:?}", seen.past);
    // A day not finished before the position, day 0, a voter twice on one day.
    let mut pos = classic_known(Phase::Day(3));
    pos.votes = on(3, &[(Seat::new(4), Vote::For(Seat::new(1)))]);
    pos.votes.extend(on(0, &[(Seat::new(4), Vote::For(Seat::new(1)))]));
    pos.votes.extend(on(
        1,
        &[
            (Seat::new(4), Vote::For(Seat::new(1))),
            (Seat::new(5), Vote::For(Seat::new(2))),
            (Seat::new(4), Vote::For(Seat::new(2))),
        ],
    ));
    pos.votes.extend(on(2, &[(Seat::new(4), Vote::For(Seat::new(1)))]));
    assert_eq!(paths(&pos), ["votes.0", "votes.1", "votes.4"]);
}

#[test]
fn c10_claims_in_a_position_rank_in_the_order_given() {
    // Seat 8 claimed Commissar before seat 3 (the real Commissar) counter-claimed.
    let mut pos = classic_known(Phase::Day(3));
    let commissar = Publication { claim: Some(Role::Commissar), ..Publication::NONE };
    pos.published = vec![(Seat::new(7), commissar), (Seat::new(2), commissar)];
    let seen = first_sight(&Start::new(&pos).unwrap());
    assert_eq!((seen.ranks[7], seen.ranks[2], seen.ranks[0]), (1, 2, 0));
    pos.published.reverse();
    let seen = first_sight(&Start::new(&pos).unwrap());
    assert_eq!((seen.ranks[2], seen.ranks[7]), (1, 2));
}

#[test]
fn c15_a_modkilled_players_role_stays_hidden_in_a_position() {
    // Roles are announced on death (C9), but not a modkilled player's (C15):
    // his role need not be given, and nobody learns it.
    let mut pos = classic_known(Phase::Day(3));
    pos.setup.rules.reveal_roles_on_death = true;
    pos.roles[8] = None;
    pos.roles[9] = None;
    pos.carry.dead = vec![Seat::new(8), Seat::new(5)];
    pos.modkilled = vec![Seat::new(8)];
    let start = Start::new(&pos).unwrap();
    let mut st = State::default();
    let mut roles = [Role::Citizen; 10];
    roles[..4].copy_from_slice(&[Role::Don, Role::Mafioso, Role::Mafioso, Role::Commissar]);
    start.set_up(&mut st, &roles);
    let town = st.observe(Seat::new(6));
    assert!(matches!(town.death(Seat::new(8)), Some((_, mafia_engine::DeathCause::Modkilled))));
    assert_eq!(town.revealed_role(Seat::new(8)), None, "C15: never announced");
    assert_eq!(town.revealed_role(Seat::new(5)), Some(Role::Citizen), "C9: the lynched one's role was");
    // A lynched seat of unknown role is still refused under the reveal setting.
    pos.modkilled = vec![];
    assert_eq!(paths(&pos), ["dead.0"]);
    // Modkilled must be dead, and not also killed at night.
    let mut pos = classic_known(Phase::Day(3));
    pos.carry.dead = vec![Seat::new(5), Seat::new(7)];
    pos.killed = vec![Seat::new(7)];
    pos.modkilled = vec![Seat::new(7), Seat::new(4)];
    assert_eq!(paths(&pos), ["modkilled.0", "modkilled.1"]);
}

#[test]
fn bad_positions_name_every_problem_with_a_path() {
    let mut pos = classic_known(Phase::Day(3));
    pos.roles[5] = Some(Role::Mafioso); // a third mafioso: one more than dealt
    pos.carry.dead = vec![Seat::new(4), Seat::new(4)];
    pos.killed = vec![Seat::new(6)];
    pos.view = Some(Seat::new(4));
    pos.checks = vec![Check { by: Seat::new(6), target: Seat::new(2), outcome: None }];
    let p = paths(&pos);
    for want in ["seats.5", "dead.1", "killed.0", "view", "checks.0"] {
        assert!(p.iter().any(|x| x == want), "{want} not in {p:?}");
    }
    // Wrong seat count; a phase that does not exist.
    let mut pos = classic_known(Phase::Day(0));
    pos.roles.pop();
    assert_eq!(paths(&pos), ["seats"]);
    let pos = classic_known(Phase::Night(0));
    assert_eq!(paths(&pos), ["phase"]);
    // A Don's check answered with a camp; a check of a hidden seat with no answer.
    let mut pos = classic_known(Phase::Day(2));
    pos.checks = vec![Check { by: Seat::new(0), target: Seat::new(5), outcome: Some(CheckOutcome::Camp(Camp::Town)) }];
    assert_eq!(paths(&pos), ["checks.0"]);
    let mut pos = Position::start_of(&preset("classic"));
    pos.roles[3] = Some(Role::Commissar);
    pos.checks = vec![Check { by: Seat::new(3), target: Seat::new(5), outcome: None }];
    assert_eq!(paths(&pos), ["checks.0"]);
    // Knowledge no deal fits: four checks finding mafia, the setup deals three.
    let mut pos = Position::start_of(&preset("classic"));
    pos.roles[0] = Some(Role::Commissar);
    pos.phase = Phase::Day(5);
    pos.checks = (1..5)
        .map(|t| Check { by: Seat::new(0), target: Seat::new(t), outcome: Some(CheckOutcome::Camp(Camp::Mafia)) })
        .collect();
    assert_eq!(paths(&pos), ["checks"]);
    // E15: a dead Doctor has no last heal to carry.
    let mut setup = Setup::new("x");
    setup.counts[Role::Doctor as usize] = 1;
    setup.counts[Role::Citizen as usize] = 3;
    setup.counts[Role::Boss as usize] = 1;
    let mut pos = Position::start_of(&setup);
    pos.roles =
        vec![Some(Role::Boss), Some(Role::Doctor), Some(Role::Citizen), Some(Role::Citizen), Some(Role::Citizen)];
    pos.phase = Phase::Day(2);
    pos.carry.dead = vec![Seat::new(1)];
    pos.carry.last_targets = vec![(Seat::new(1), Seat::new(2))];
    assert_eq!(paths(&pos), ["last_targets.0"]);
}

#[test]
fn c2_a_viewers_knowledge_is_fixed_and_the_rest_dealt_uniformly() {
    // The Commissar (seat 0) found seat 3 mafia and seat 4 town; the file names every role.
    let mut pos = classic_known(Phase::Day(3));
    pos.roles.swap(0, 3); // seat 0 Commissar, seat 3 Don
    pos.view = Some(Seat::new(0));
    pos.checks = vec![
        Check { by: Seat::new(0), target: Seat::new(3), outcome: None },
        Check { by: Seat::new(0), target: Seat::new(4), outcome: Some(CheckOutcome::Camp(Camp::Town)) },
    ];
    let start = Start::new(&pos).unwrap();
    assert_eq!(start.sampled(), PlayerSet::first(10).without(Seat::new(0)), "only his own role is fixed");
    let game = start.game();
    let mut r = rng(11);
    let mut don_at_3 = 0;
    let mut mafia_at = [0u32; 10];
    let tries = 6000;
    for _ in 0..tries {
        let mut roles = [Role::Citizen; 10];
        assert!(start.sample(&mut r, &mut roles));
        let mut sorted = roles.to_vec();
        sorted.sort();
        let mut want = game.role_list().to_vec();
        want.sort();
        assert_eq!(sorted, want, "a deal of the setup");
        assert_eq!(roles[0], Role::Commissar);
        assert_eq!(roles[3].camp(), Camp::Mafia, "C6: his check found seat 4 mafia");
        assert_eq!(roles[4].camp(), Camp::Town);
        don_at_3 += (roles[3] == Role::Don) as u32;
        for (s, r) in roles.iter().enumerate() {
            mafia_at[s] += (r.camp() == Camp::Mafia) as u32;
        }
    }
    // Uniform among fitting deals: seat 3 is the Don one time in three; the
    // two other mafia spread evenly over the seven unchecked seats (2/7 each).
    let share = don_at_3 as f64 / tries as f64;
    assert!((share - 1.0 / 3.0).abs() < 0.03, "{share}");
    for s in [1, 2, 5, 6, 7, 8, 9] {
        let p = mafia_at[s] as f64 / tries as f64;
        assert!((p - 2.0 / 7.0).abs() < 0.03, "seat {s}: {p}");
    }
    // A mafioso's view: his mates (C2) fixed, the town dealt among the rest.
    let mut pos = classic_known(Phase::Night(2));
    pos.view = Some(Seat::new(1));
    let start = Start::new(&pos).unwrap();
    assert_eq!(start.sampled(), PlayerSet::first(10).minus(PlayerSet::first(3)));
    let mut commissar_at = [0u32; 10];
    for _ in 0..3000 {
        let mut roles = [Role::Citizen; 10];
        assert!(start.sample(&mut r, &mut roles));
        assert_eq!(&roles[..3], &[Role::Don, Role::Mafioso, Role::Mafioso]);
        commissar_at[roles.iter().position(|&x| x == Role::Commissar).unwrap()] += 1;
    }
    assert!(commissar_at[3..].iter().all(|&c| c > 300), "{commissar_at:?}");
    // A mafioso's view must name all his mates.
    let mut pos = Position::start_of(&preset("classic"));
    pos.roles[1] = Some(Role::Mafioso);
    pos.view = Some(Seat::new(1));
    assert_eq!(paths(&pos), ["view"]);
}
