//! One test (or several) per clause of `rules/extended.md`, named after it,
//! plus the interactions between clauses that the text names.
//!
//! Every expectation is derived from the rule text (and, where the text is
//! silent, from the engine's documented decisions, each named in a comment),
//! never copied from the engine's output. Night clauses are tested as pure
//! data: a [`Scenario`] (seats, roles, what carries in, tonight's moves)
//! resolved by [`resolve_scenario`], then the trace, the result, the
//! carry-over and each player's [`Observation`] are read. Day and whole-game
//! clauses drive the engine with scripted players ([`Script`]) through
//! `run_night`, `run_day` and `play_dealt`. Seats count from 0 here.

mod common;
use common::Logged as _;
use common::seat;
use mafia_engine::{
    Camp, CheckOutcome, DeathCause, End, EndCause, Event, Fail, Game, Killer, LynchResult, MissReason, MoveError,
    NightAbility as A, NightChoice, NightMoves, NightResult, NightStep, Observation, Outcome, Phase, PlayerSet,
    Players, Publication, RULE_KEYS, Report, Role as R, Role, RoleSet, Scenario, Seat, Setup, State, Status, Vote,
    play_dealt, resolve_scenario,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

// ---------------------------------------------------------------------------
// Helpers: choices, scenarios, scripted tables
// ---------------------------------------------------------------------------

const P: Vote = Vote::Pass;

fn f(s: Seat) -> Vote {
    Vote::For(s)
}

fn set(seats: &[Seat]) -> PlayerSet {
    seats.iter().copied().collect()
}

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A role move at `t`.
fn act(t: Seat) -> NightChoice {
    NightChoice { act: Some(t), ..NightChoice::default() }
}

/// A two-target move (E11 victim and new target, E17 the compared pair).
fn act2(t: Seat, u: Seat) -> NightChoice {
    NightChoice { act: Some(t), second: Some(u), ..NightChoice::default() }
}

/// A kill nick (C4, E8).
fn kill(t: Seat) -> NightChoice {
    NightChoice { kill: Some(t), ..NightChoice::default() }
}

/// E19: the Role Prostitute borrows `role` and aims it at `t`.
fn borrow(role: Role, t: Seat) -> NightChoice {
    NightChoice { borrow: Some(role), act: Some(t), ..NightChoice::default() }
}

/// E3: a bandit's search nick.
fn search(t: Seat) -> NightChoice {
    NightChoice { search: Some(t), ..NightChoice::default() }
}

/// Night moves by seat.
type Moves = Vec<(Seat, NightChoice)>;

fn blocked(status: Status, by: Option<Seat>) -> Fail {
    Fail::Blocked { status, by }
}

fn mafia_kill(decider: Seat) -> Killer {
    Killer::Camp { camp: Camp::Mafia, decider }
}

/// The scenario of night 1 with default rules.
fn scenario(roles: &[Role], moves: &[(Seat, NightChoice)]) -> Scenario {
    Scenario { name: "test".into(), roles: roles.to_vec(), night: 1, moves: moves.to_vec(), ..Scenario::default() }
}

/// A resolved night: the game, the state after it (the dead not yet removed),
/// the result and the trace.
struct Night {
    st: State,
    res: NightResult,
    log: Vec<Event>,
}

fn resolve(sc: &Scenario) -> Night {
    let mut log = Vec::new();
    match resolve_scenario(sc, &mut log) {
        Ok((_game, st, res)) => Night { st, res, log },
        Err(e) => panic!("scenario refused:\n{e}"),
    }
}

/// Night 1 of `roles` with `moves`, default rules.
fn one_night(roles: &[Role], moves: &[(Seat, NightChoice)]) -> Night {
    resolve(&scenario(roles, moves))
}

/// The reason `seat`'s role move failed, if a failure is in `log`.
fn failure(log: &[Event], seat: Seat) -> Option<Fail> {
    log.iter().find_map(|e| match *e {
        Event::Failed { seat: s, reason, .. } if s == seat => Some(reason),
        _ => None,
    })
}

impl Night {
    fn killed(&self) -> PlayerSet {
        self.res.killed
    }
    fn failed(&self, seat: Seat) -> Option<Fail> {
        failure(&self.log, seat)
    }
    fn obs(&self, s: Seat) -> Observation<'_> {
        self.st.observe(s)
    }
    fn report(&self, s: Seat) -> Option<Report> {
        self.st.observe(s).last_report()
    }
}

/// Scripted players. Tables are keyed by `(day or night, seat)`. Unscripted
/// answers: PASS, keep the vote, the lowest runoff candidate, pardon both
/// (hang both with `hang`), no night move, no secret vote (the open vote),
/// say nothing.
#[derive(Default)]
struct Script {
    votes: HashMap<(u16, Seat), Vote>,
    nights: HashMap<(u16, Seat), NightChoice>,
    secret: HashMap<u16, Seat>,
    posts: HashMap<(u16, Seat), Publication>,
    runoffs: HashMap<Seat, Seat>,
    last_words: Vec<Seat>,
    /// E7: the Boss's proxy moves, by member.
    proxies: HashMap<Seat, NightChoice>,
    /// Members the Boss was asked about.
    asked_proxy: Vec<Seat>,
    /// E12: the appointment answer (`None` = the default, the best-ranked vacancy).
    appoint: Option<Option<Role>>,
    /// E12: who was asked to appoint the Actor, and the vacancies offered.
    asked_appoint: Vec<(Seat, RoleSet)>,
    /// C12.3: every hang-both vote hangs both.
    hang: bool,
    /// C12.3: a seat's own hang-both choice (over `hang`).
    hangs: HashMap<Seat, bool>,
}

impl Script {
    /// First votes of day `day`: `votes[i]` is seat `i`'s.
    fn day_votes(&mut self, day: u16, votes: &[Vote]) -> &mut Self {
        for (s, &v) in votes.iter().enumerate() {
            self.votes.insert((day, Seat::from_index(s)), v);
        }
        self
    }
    /// Seat `seat`'s choice on night `night`.
    fn at(&mut self, night: u16, seat: Seat, choice: NightChoice) -> &mut Self {
        self.nights.insert((night, seat), choice);
        self
    }
}

impl Players for Script {
    fn new_game(&mut self, _obs: &Observation<'_>) {}
    fn post(&mut self, obs: &Observation<'_>) -> Publication {
        assert!(obs.is_alive(obs.seat()));
        self.posts.get(&(obs.day(), obs.seat())).copied().unwrap_or(Publication::NONE)
    }
    fn vote(&mut self, obs: &Observation<'_>) -> Vote {
        assert!(obs.is_alive(obs.seat()), "dead seat {} asked to vote", obs.seat().index());
        self.votes.get(&(obs.day(), obs.seat())).copied().unwrap_or(P)
    }
    fn revise(&mut self, _obs: &Observation<'_>) -> Option<Vote> {
        None
    }
    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet) -> Seat {
        self.runoffs.get(&obs.seat()).copied().unwrap_or_else(|| candidates.lowest().expect("candidates"))
    }
    fn hang_both(&mut self, obs: &Observation<'_>, _pair: PlayerSet) -> bool {
        self.hangs.get(&obs.seat()).copied().unwrap_or(self.hang)
    }
    fn night(&mut self, obs: &Observation<'_>) -> NightChoice {
        assert!(obs.is_alive(obs.seat()), "dead seat {} asked for a night move", obs.seat().index());
        self.nights.get(&(obs.day(), obs.seat())).copied().unwrap_or_default()
    }
    fn secret_vote(&mut self, obs: &Observation<'_>) -> Option<Seat> {
        self.secret.get(&obs.day()).copied()
    }
    fn proxy(&mut self, obs: &Observation<'_>, member: Seat) -> NightChoice {
        assert_eq!(obs.role(), Role::Boss, "only the Boss is asked for proxy moves");
        self.asked_proxy.push(member);
        self.proxies.get(&member).copied().unwrap_or_default()
    }
    fn appoint(&mut self, obs: &Observation<'_>, vacant: RoleSet) -> Option<Role> {
        self.asked_appoint.push((obs.seat(), vacant));
        self.appoint.unwrap_or_else(|| vacant.best_ranked())
    }
    fn last_word(&mut self, obs: &Observation<'_>) -> Publication {
        assert!(!obs.is_alive(obs.seat()));
        self.last_words.push(obs.seat());
        Publication::NONE
    }
}

/// One game with a fixed deal, scripted players and a recorded log.
struct Table {
    game: Game,
    state: State,
    p: Script,
    log: Vec<Event>,
}

fn table(roles: &[Role], rules: &[(&str, &str)]) -> Table {
    let mut setup = Setup::of_roles("test", roles);
    for (k, v) in rules {
        setup.rules.set(k, v).expect("a valid rule setting");
    }
    let game = Game::new(&setup).expect("a valid setup");
    let mut state = State::default();
    state.set_roles(&game, roles);
    Table { game, state, p: Script::default(), log: Vec::new() }
}

impl Table {
    fn day(&mut self, day: u16) -> Option<End> {
        self.state.run_day(&self.game, day, &mut self.p, &mut rng(1), &mut rng(2), &mut self.log)
    }
    fn night(&mut self, night: u16) -> Option<End> {
        self.state.run_night(&self.game, night, &mut self.p, &mut NightMoves::default(), &mut rng(3), &mut self.log)
    }
    fn play(&mut self) -> Outcome {
        play_dealt(
            &self.game,
            &mut self.state,
            &mut NightMoves::default(),
            &mut self.p,
            &mut rng(1),
            &mut rng(2),
            &mut self.log,
        )
    }
    fn obs(&self, s: Seat) -> Observation<'_> {
        self.state.observe(s)
    }
    /// The events of night `n` (from its start to the next phase).
    fn night_log(&self, n: u16) -> &[Event] {
        let start = self.index_of(Event::NightStart { night: n, alive: self.night_alive(n) });
        let end = self.log[start + 1..]
            .iter()
            .position(|e| matches!(e, Event::DayStart { .. } | Event::NightStart { .. }))
            .map_or(self.log.len(), |i| start + 1 + i);
        &self.log[start..end]
    }
    fn night_alive(&self, n: u16) -> PlayerSet {
        self.log
            .iter()
            .find_map(|e| match *e {
                Event::NightStart { night, alive } if night == n => Some(alive),
                _ => None,
            })
            .unwrap_or_else(|| panic!("night {n} was not played"))
    }
    fn failed_on(&self, night: u16, seat: Seat) -> Option<Fail> {
        failure(self.night_log(night), seat)
    }
    fn on(&self, night: u16, e: Event) -> bool {
        self.night_log(night).contains(&e)
    }
}

fn end(winner: Option<Camp>, cause: EndCause) -> Option<End> {
    Some(End { winner, cause })
}

// ---------------------------------------------------------------------------
// E1 Camps
// ---------------------------------------------------------------------------

#[test]
fn e1_mafia_know_each_other_town_and_bandits_know_only_themselves() {
    let t = table(&[R::Boss, R::Thief, R::Mafioso, R::Detective, R::Citizen, R::Psycho, R::Thug], &[]);
    for s in Seat::all(3) {
        assert_eq!(t.obs(s).camp_mates(), set(&[seat(0), seat(1), seat(2)]), "mafia seat {s:?}");
        assert_eq!(t.obs(s).mate_role(seat(0)), Some(R::Boss));
    }
    for s in Seat::all(7).skip(3) {
        assert_eq!(t.obs(s).camp_mates(), set(&[s]), "seat {s:?} knows only himself");
    }
    // The two bandits do not know each other at the start (E3 is how they meet).
    assert_eq!(t.obs(seat(5)).known_camp(seat(6)), None);
    assert_eq!(t.obs(seat(6)).known_camp(seat(5)), None);
}

// ---------------------------------------------------------------------------
// E2 The end
// ---------------------------------------------------------------------------

#[test]
fn e2_when_only_bandits_are_left_the_bandits_win() {
    // Boss 0, mafioso 1, Detective 2, citizen 3, Psycho 4, Thug 5.
    let mut t = table(&[R::Boss, R::Mafioso, R::Detective, R::Citizen, R::Psycho, R::Thug], &[]);
    t.p.day_votes(1, &[f(seat(2)), f(seat(2)), f(seat(0)), f(seat(0)), f(seat(0)), f(seat(0))]);
    t.p.at(1, seat(1), kill(seat(3)));
    t.p.day_votes(2, &[P, f(seat(2)), f(seat(1)), P, f(seat(2)), f(seat(2))]);
    // Mafia and bandits alive after day 2: three camps were two, the game goes on (E2).
    t.p.day_votes(3, &[P, f(seat(4)), P, P, f(seat(1)), f(seat(1))]);
    let out = t.play();
    assert_eq!(
        t.deaths(),
        vec![
            (seat(0), DeathCause::Lynched),
            (seat(3), DeathCause::Killed),
            (seat(2), DeathCause::Lynched),
            (seat(1), DeathCause::Lynched)
        ]
    );
    assert!(t.has(Event::NightStart { night: 2, alive: set(&[seat(1), seat(4), seat(5)]) }));
    assert_eq!((out.winner, out.cause, out.days), (Some(Camp::Bandits), EndCause::OnlyBandits, 3));
    assert_eq!(out.survivors, set(&[seat(4), seat(5)]));
}

#[test]
fn e2_when_only_mafia_are_left_the_mafia_win() {
    // Boss 0, Detective 1, Psycho 2, citizen 3.
    let mut t = table(&[R::Boss, R::Detective, R::Psycho, R::Citizen], &[]);
    t.p.day_votes(1, &[f(seat(2)), f(seat(2)), f(seat(0)), f(seat(2))]);
    t.p.at(1, seat(0), kill(seat(1))).at(2, seat(0), kill(seat(3)));
    let out = t.play();
    assert_eq!(
        t.deaths(),
        vec![(seat(2), DeathCause::Lynched), (seat(1), DeathCause::Killed), (seat(3), DeathCause::Killed)]
    );
    // Boss against one citizen after night 1 is no end with extended roles (elimination, E2).
    assert_eq!((out.winner, out.cause, out.days), (Some(Camp::Mafia), EndCause::TownEliminated, 2));
}

#[test]
fn e2_when_only_town_is_left_the_town_wins() {
    // Boss 0, Thug 1, Detective 2, citizens 3 and 4.
    let mut t = table(&[R::Boss, R::Thug, R::Detective, R::Citizen, R::Citizen], &[]);
    t.p.day_votes(1, &[f(seat(1)), f(seat(0)), f(seat(0)), f(seat(0)), f(seat(0))]);
    t.p.day_votes(2, &[P, f(seat(2)), f(seat(1)), f(seat(1)), f(seat(1))]);
    let out = t.play();
    assert_eq!(t.deaths(), vec![(seat(0), DeathCause::Lynched), (seat(1), DeathCause::Lynched)]);
    // Town and a bandit after day 1: not over.
    assert!(t.has(Event::NightStart { night: 1, alive: set(&[seat(1), seat(2), seat(3), seat(4)]) }));
    assert_eq!((out.winner, out.cause, out.days), (Some(Camp::Town), EndCause::MafiaEliminated, 2));
}

#[test]
fn e2_nobody_alive_is_a_draw() {
    // Boss 0, Psycho 1, Shooter 2. Night 1 the Psycho invites the Shooter;
    // night 2 he invites the Boss and the Boss kills him: the Psycho dies,
    // the blast takes tonight's guest (E24), last night's guest dies (E23).
    let mut t = table(&[R::Boss, R::Psycho, R::Shooter], &[]);
    t.p.at(1, seat(1), act(seat(2))).at(2, seat(1), act(seat(0))).at(2, seat(0), kill(seat(1)));
    let out = t.play();
    assert_eq!((out.winner, out.cause, out.days), (None, EndCause::Nobody, 2));
    assert_eq!(out.survivors, PlayerSet::EMPTY);
    assert!(t.has(Event::NightKill { target: seat(2), by: Killer::Guest(seat(1)) }));
    assert!(t.has(Event::NightKill { target: seat(0), by: Killer::Blast(seat(1)) }));
}

#[test]
fn e2_the_day_cap_applies() {
    let mut t = table(&[R::Boss, R::Detective, R::Psycho], &[("day_cap", "2")]);
    let out = t.play();
    assert_eq!((out.winner, out.cause, out.days), (None, EndCause::DayCap, 2));
    assert_eq!(out.survivors, set(&[seat(0), seat(1), seat(2)]));
}

#[test]
fn e2_mafia_win_parity_is_the_classic_alternative() {
    // Boss 0, Thief 1, Detective 2, citizens 3 and 4: a kill leaves 2 against 2.
    let roles = [R::Boss, R::Thief, R::Detective, R::Citizen, R::Citizen];
    let mut t = table(&roles, &[("mafia_win", "parity")]);
    t.p.at(1, seat(0), kill(seat(4)));
    assert_eq!(t.night(1), end(Some(Camp::Mafia), EndCause::Parity));
    // By default an extended game plays on past parity (E2: all alive in one camp).
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(0), kill(seat(4)));
    assert_eq!(t.night(1), None);
}

#[test]
fn e2_parity_waits_while_bandits_live() {
    // Decision (rules.rs MafiaWin::Parity): parity counts only when no bandit is alive.
    let mut t = table(&[R::Boss, R::Thief, R::Detective, R::Citizen, R::Psycho], &[("mafia_win", "parity")]);
    t.p.at(1, seat(0), kill(seat(3))).at(2, seat(0), kill(seat(4)));
    assert_eq!(t.night(1), None, "2 mafia against a town player and a bandit");
    assert_eq!(t.night(2), end(Some(Camp::Mafia), EndCause::Parity));
}

// ---------------------------------------------------------------------------
// E3 Bandits find each other
// ---------------------------------------------------------------------------

#[test]
fn e3_a_bandit_naming_a_bandit_introduces_the_two() {
    // Boss 0, Detective 1, Psycho 2, Thug 3, Miner 4.
    let n = one_night(
        &[R::Boss, R::Detective, R::Psycho, R::Thug, R::Miner],
        &[(seat(2), search(seat(3))), (seat(4), search(seat(1)))],
    );
    assert!(n.has(Event::BanditsMeet { a: seat(2), b: seat(3) }));
    assert_eq!(n.count(|e| matches!(e, Event::BanditsMeet { .. })), 1, "the Miner named a town player");
    assert_eq!(n.obs(seat(2)).camp_mates(), set(&[seat(2), seat(3)]));
    assert_eq!(n.obs(seat(3)).camp_mates(), set(&[seat(2), seat(3)]), "both learn each other");
    assert_eq!(n.obs(seat(4)).camp_mates(), set(&[seat(4)]));
    assert_eq!(n.obs(seat(2)).known_camp(seat(3)), Some(Camp::Bandits));
    assert_eq!(n.obs(seat(1)).camp_mates(), set(&[seat(1)]));
}

#[test]
fn e3_searches_across_nights_introduce_only_the_named_pairs() {
    // Boss 0, Detective 1, Psycho 2, Thug 3, Miner 4, citizen 5.
    let mut t = table(&[R::Boss, R::Detective, R::Psycho, R::Thug, R::Miner, R::Citizen], &[]);
    t.p.at(1, seat(2), search(seat(3)));
    t.p.at(2, seat(4), search(seat(2))).at(2, seat(3), search(seat(5)));
    t.night(1);
    assert_eq!(t.obs(seat(2)).camp_mates(), set(&[seat(2), seat(3)]));
    assert_eq!(
        t.obs(seat(2)).search_targets(),
        set(&[seat(0), seat(1), seat(4), seat(5)]),
        "a known mate is no longer searched for"
    );
    t.night(2);
    assert!(t.on(2, Event::BanditsMeet { a: seat(4), b: seat(2) }));
    assert_eq!(t.obs(seat(4)).camp_mates(), set(&[seat(2), seat(4)]), "the Miner learns the Psycho, not the Thug");
    assert_eq!(t.obs(seat(2)).camp_mates(), set(&[seat(2), seat(3), seat(4)]));
    assert_eq!(t.obs(seat(3)).camp_mates(), set(&[seat(2), seat(3)]));
}

#[test]
fn e3_the_search_is_not_blocked() {
    // Decision: the search is a camp move, not a role move: a robbed or
    // hexed bandit still finds his mate. Boss 0, Thief 1, Witch 2, Psycho 3, Thug 4, Miner 5.
    let mut sc = scenario(
        &[R::Boss, R::Thief, R::Witch, R::Psycho, R::Thug, R::Miner],
        &[
            (seat(1), act(seat(3))),
            (seat(3), NightChoice { search: Some(seat(4)), act: Some(seat(0)), ..NightChoice::default() }),
            (seat(5), search(seat(3))),
        ],
    );
    sc.carry.hexed = vec![seat(5)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert!(n.has(Event::StatusSet { seat: seat(3), status: Status::Robbed, by: seat(1) }));
    assert_eq!(n.failed(seat(3)), Some(blocked(Status::Robbed, Some(seat(1)))), "the robbed Psycho's invitation fails");
    assert!(n.has(Event::BanditsMeet { a: seat(3), b: seat(4) }));
    assert!(n.has(Event::BanditsMeet { a: seat(5), b: seat(3) }));
    assert_eq!(n.obs(seat(3)).camp_mates(), set(&[seat(3), seat(4), seat(5)]));
}

#[test]
fn e3_only_bandits_search_and_never_themselves() {
    let n = one_night(&[R::Boss, R::Detective, R::Psycho, R::Thug], &[]);
    assert_eq!(n.st.check_search(seat(1), Some(seat(2))), Err(MoveError::NotABandit));
    assert_eq!(n.st.check_search(seat(0), Some(seat(2))), Err(MoveError::NotABandit));
    assert_eq!(n.st.check_search(seat(2), Some(seat(2))), Err(MoveError::SearchTarget(seat(2))));
    assert_eq!(n.st.check_search(seat(2), Some(seat(3))), Ok(Some(seat(3))));
    assert!(n.obs(seat(1)).search_targets().is_empty());
}

// ---------------------------------------------------------------------------
// E4 Setup
// ---------------------------------------------------------------------------

#[test]
fn e4_a_setup_mixes_named_roles_with_plain_players() {
    let roles = [R::Boss, R::Mafioso, R::Mafioso, R::Detective, R::Citizen, R::Citizen, R::Citizen, R::Psycho];
    let g = Game::new(&Setup::of_roles("mix", &roles)).expect("plain players mix with named roles");
    assert!(g.is_extended());
    assert_eq!((g.count(R::Mafioso), g.count(R::Citizen), g.players()), (2, 3, 8));
    // Decision: every named role is one person.
    let e = Game::new(&Setup::of_roles("two thieves", &[R::Thief, R::Thief, R::Detective, R::Psycho])).unwrap_err();
    assert!(e.problems.iter().any(|p| p.path == "roles.thief"), "{e}");
}

/// E4 (each named role one person, its seat kept): `Observation::deals`,
/// the one-load answer for an extended role, says what the setup's public
/// role list says, for every role, on every preset and on mixes.
#[test]
fn e4_whether_the_setup_deals_a_role_is_public_and_one_answer() {
    let mut setups: Vec<Setup> = mafia_engine::PRESETS.iter().map(|p| p.setup()).collect();
    setups.push(Setup::of_roles("mix", &[R::Boss, R::Mafioso, R::Detective, R::Citizen, R::Citizen, R::Shooter]));
    setups.push(Setup::of_roles("classic mix", &[R::Don, R::Commissar, R::Citizen, R::Citizen, R::Mafioso]));
    for setup in setups {
        let game = Game::new(&setup).unwrap();
        let mut st = State::default();
        st.deal(&game, &mut rng(7));
        for s in Seat::all(game.players()) {
            let obs = st.observe(s);
            for role in Role::ALL {
                assert_eq!(obs.deals(role), obs.setup_roles().contains(role), "{} {role:?}", setup.name);
                assert_eq!(obs.deals(role), game.count(role) > 0, "{} {role:?}", setup.name);
            }
        }
    }
}

#[test]
fn e4_the_day_follows_the_classic_vote_hidden_roles_and_last_words() {
    // Boss 0, Detective 1, citizens 2 and 3, Psycho 4.
    let roles = [R::Boss, R::Detective, R::Citizen, R::Citizen, R::Psycho];
    for (reveal, shown) in [("false", None), ("true", Some(R::Boss))] {
        let mut t = table(&roles, &[("reveal_roles_on_death", reveal)]);
        t.p.day_votes(2, &[f(seat(1)), f(seat(0)), f(seat(0)), f(seat(0)), f(seat(1))]);
        t.night(1);
        t.day(2);
        assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(0))]);
        assert!(t.has(Event::Died { seat: seat(0), cause: DeathCause::Lynched, revealed: shown }));
        assert_eq!(t.p.last_words, [seat(0)], "C13: the lynched speaks a last word");
    }
    // C11.2: day 1, a single vote against PASS pardons.
    let mut t = table(&roles, &[]);
    t.p.day_votes(1, &[P, f(seat(0)), P, P, P]);
    t.day(1);
    assert_eq!(t.lynches(), vec![LynchResult::Pardoned(seat(0))]);
}

// ---------------------------------------------------------------------------
// E5 Megaphone
// ---------------------------------------------------------------------------

#[test]
fn e5_the_megaphone_ban_has_no_engine_effect() {
    // Decision: the ban constrains talk, which strategies model. No rule
    // setting exists for it, and a relayed check is recorded like any post.
    assert!(RULE_KEYS.iter().all(|k| !k.name.contains("megaphone") && !k.name.contains("relay")));
    let mut t = table(&[R::Boss, R::Detective, R::Citizen, R::Citizen, R::Psycho], &[]);
    t.p.at(1, seat(1), act(seat(0)));
    let mut relay = Publication { claim: Some(R::Detective), ..Publication::NONE };
    relay.camps[Camp::Mafia as usize] = set(&[seat(0)]);
    t.p.posts.insert((2, seat(1)), relay);
    t.night(1);
    assert_eq!(t.day(2), None);
    assert_eq!(*t.obs(seat(2)).said(seat(1)), relay);
    assert!(t.deaths().is_empty(), "nobody is removed for relaying");
}

// ---------------------------------------------------------------------------
// E6 Blocked and unreachable
// ---------------------------------------------------------------------------

#[test]
fn e6_robbed_beaten_invited_or_hexed_makes_no_role_move() {
    // Boss 0, Thief 1, Detective 2, Witch 3, Psycho 4, Thug 5, citizen 6.
    let roles = [R::Boss, R::Thief, R::Detective, R::Witch, R::Psycho, R::Thug, R::Citizen];
    let cases: [(Option<Seat>, Fail); 4] = [
        (Some(seat(1)), blocked(Status::Robbed, Some(seat(1)))),
        (Some(seat(5)), blocked(Status::Beaten, Some(seat(5)))),
        (Some(seat(4)), blocked(Status::Invited, Some(seat(4)))),
        (None, blocked(Status::Hexed, None)),
    ];
    for (blocker, want) in cases {
        let mut moves = vec![(seat(2), act(seat(0)))];
        moves.extend(blocker.map(|s| (s, act(seat(2)))));
        let mut sc = scenario(&roles, &moves);
        if blocker.is_none() {
            sc.carry.hexed = vec![seat(2)];
            sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
        }
        let n = resolve(&sc);
        assert_eq!(n.failed(seat(2)), Some(want));
        assert!(!n.has(Event::CampCheck { seat: seat(2), target: seat(0), camp: Camp::Mafia }));
        assert!(n.obs(seat(2)).checked().is_empty(), "{want:?}: the Detective learned something");
        assert_eq!(n.obs(seat(2)).last_check(), None);
    }
}

#[test]
fn e6_every_move_at_a_beaten_player_fails() {
    // Decision ("nobody can find him"): the Thug beats citizen 8; everybody else aims at him.
    let roles = [
        R::Boss,        // 0
        R::Thief,       // 1
        R::Detective,   // 2
        R::Doctor,      // 3
        R::Journalist,  // 4
        R::Witch,       // 5
        R::Psycho,      // 6
        R::Thug,        // 7
        R::Citizen,     // 8
        R::Shooter,     // 9
        R::Sleepwalker, // 10
        R::Miner,       // 11
        R::Swindler,    // 12
    ];
    let n = one_night(
        &roles,
        &[
            (seat(7), act(seat(8))),
            (seat(0), NightChoice { kill: Some(seat(8)), act: Some(seat(8)), ..NightChoice::default() }),
            (seat(1), act(seat(8))),
            (seat(2), act(seat(8))),
            (seat(3), act(seat(8))),
            (seat(4), act2(seat(0), seat(8))),
            (seat(5), act(seat(8))),
            (seat(6), act(seat(8))),
            (seat(9), act(seat(8))),
            (seat(10), act(seat(8))),
            (seat(11), act(seat(8))),
            (seat(12), act2(seat(8), seat(0))),
        ],
    );
    assert!(n.has(Event::StatusSet { seat: seat(8), status: Status::Beaten, by: seat(7) }));
    for s in [0, 1, 2, 3, 4, 5, 6, 9, 11, 12].map(Seat::new) {
        assert_eq!(n.failed(s), Some(Fail::TargetBeaten), "seat {s:?}");
    }
    // E22: the Sleepwalker watching the beaten house is beaten too.
    assert!(n.has(Event::BeatenWatching { seat: seat(10) }));
    assert_eq!(n.failed(seat(10)), Some(blocked(Status::Beaten, Some(seat(7)))));
    assert!(n.has(Event::KillFailed { target: seat(8), by: mafia_kill(seat(0)), reason: Fail::TargetBeaten }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
    let carry = n.st.carry();
    assert_eq!(
        (carry.hex_next, carry.mines, carry.guest, carry.swindled),
        (PlayerSet::EMPTY, PlayerSet::EMPTY, None, PlayerSet::EMPTY)
    );
    assert!(n.obs(seat(2)).checked().is_empty() && n.obs(seat(0)).checked().is_empty());
}

#[test]
fn e6_an_invited_player_can_be_neither_healed_nor_killed_tonight() {
    // Boss 0, Doctor 1, Shooter 2, Psycho 3, citizen 4.
    let n = one_night(
        &[R::Boss, R::Doctor, R::Shooter, R::Psycho, R::Citizen],
        &[(seat(3), act(seat(4))), (seat(1), act(seat(4))), (seat(0), kill(seat(4))), (seat(2), act(seat(4)))],
    );
    assert_eq!(n.failed(seat(1)), Some(Fail::TargetInvited));
    assert!(n.has(Event::KillFailed { target: seat(4), by: mafia_kill(seat(0)), reason: Fail::TargetInvited }));
    assert!(n.has(Event::KillFailed { target: seat(4), by: Killer::Shooter(seat(2)), reason: Fail::TargetInvited }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
    assert_eq!(n.st.carry().guest, Some(seat(4)));
}

#[test]
fn e6_a_blocked_player_still_votes() {
    // Boss 0, Thief 1, Detective 2, citizens 3 and 4, Psycho 5. The robbed
    // Detective's vote breaks what would be a 1–1 tie.
    let mut t = table(&[R::Boss, R::Thief, R::Detective, R::Citizen, R::Citizen, R::Psycho], &[]);
    t.p.at(1, seat(1), act(seat(2))).at(1, seat(2), act(seat(5)));
    t.p.day_votes(2, &[f(seat(3)), P, f(seat(5)), f(seat(5)), P, P]);
    t.night(1);
    assert_eq!(t.failed_on(1, seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    t.day(2);
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(5))]);
}

// ---------------------------------------------------------------------------
// E7 Boss
// ---------------------------------------------------------------------------

#[test]
fn e7_boss_learns_role_or_plain_and_the_camp() {
    // Boss 0, mafioso 1, citizen 2, Detective 3, Thug 4.
    let roles = [R::Boss, R::Mafioso, R::Citizen, R::Detective, R::Thug];
    for (x, plain, camp) in
        [(1, true, Camp::Mafia), (2, true, Camp::Town), (3, false, Camp::Town), (4, false, Camp::Bandits)]
            .map(|(x, p, c)| (seat(x), p, c))
    {
        let n = one_night(&roles, &[(seat(0), act(x))]);
        assert!(n.has(Event::BossCheck { seat: seat(0), target: x, plain, camp }), "seat {x:?}");
        let o = n.obs(seat(0));
        assert_eq!(o.checked(), set(&[x]));
        assert!(o.found_in_camp(camp).contains(x));
        assert_eq!(o.found_holders().contains(x), !plain);
        assert_eq!(o.last_check(), Some((x, CheckOutcome::Camp(camp))));
    }
}

#[test]
fn e7_boss_check_fails_when_beaten_hexed_invited_or_the_suspect_is_beaten() {
    // Boss 0, Thief 1, Witch 2, Psycho 3, Thug 4, citizen 5.
    let roles = [R::Boss, R::Thief, R::Witch, R::Psycho, R::Thug, R::Citizen];
    let cases: [(Moves, bool, Fail); 5] = [
        (vec![(seat(4), act(seat(0)))], false, blocked(Status::Beaten, Some(seat(4)))),
        (vec![], true, blocked(Status::Hexed, None)),
        (vec![(seat(3), act(seat(0)))], false, blocked(Status::Invited, Some(seat(3)))),
        (vec![(seat(4), act(seat(5)))], false, Fail::TargetBeaten),
        // Decision (E6 is the general maker rule): robbed by his own Thief, the Boss fails too.
        (vec![(seat(1), act(seat(0)))], false, blocked(Status::Robbed, Some(seat(1)))),
    ];
    for (mut moves, hexed, want) in cases {
        moves.push((seat(0), act(seat(5))));
        let mut sc = scenario(&roles, &moves);
        if hexed {
            sc.carry.hexed = vec![seat(0)];
            sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
        }
        let n = resolve(&sc);
        assert_eq!(n.failed(seat(0)), Some(want));
        assert!(n.obs(seat(0)).checked().is_empty(), "{want:?}");
    }
}

#[test]
fn e7_the_boss_sends_a_move_for_a_member_who_sent_none() {
    // Boss 0, Thief 1, Guard 2, Detective 3, citizens 4, 5, Psycho 6.
    let roles = [R::Boss, R::Thief, R::Guard, R::Detective, R::Citizen, R::Citizen, R::Psycho];
    let mut t = table(&roles, &[]);
    // The Thief sends nothing; the Guard guards himself. The Boss robs the Detective for the Thief.
    t.p.at(1, seat(0), kill(seat(4))).at(1, seat(2), act(seat(2))).at(1, seat(3), act(seat(6)));
    t.p.proxies.insert(seat(1), act(seat(3)));
    t.p.proxies.insert(seat(2), act(seat(0)));
    assert_eq!(t.night(1), None);
    // Asked only for the member who sent none; the Guard's own move stands.
    assert_eq!(t.p.asked_proxy, [seat(1)]);
    assert!(t.has(Event::Proxy { boss: seat(0), member: seat(1) }));
    // The move is the Thief's own: it robs the Detective, whose check fails (E9).
    assert!(t.has(Event::StatusSet { seat: seat(3), status: Status::Robbed, by: seat(1) }));
    assert!(t.has(Event::Failed {
        seat: seat(3),
        ability: A::CheckCamp,
        reason: blocked(Status::Robbed, Some(seat(1)))
    }));
    assert!(t.has(Event::Guarded { seat: seat(2), by: seat(2) }));
}

#[test]
fn e7_a_proxy_move_is_judged_as_the_members_and_illegal_ones_are_refused() {
    // Boss 0, Thief 1, Detective 2, citizen 3, Psycho 4; the Thief is absent-minded, the Boss names the Thief himself.
    let roles = [R::Boss, R::Thief, R::Detective, R::Citizen, R::Psycho];
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(0), kill(seat(3)));
    t.p.proxies.insert(seat(1), act(seat(1)));
    assert_eq!(t.night(1), None);
    assert_eq!(t.count(|e| matches!(e, Event::Proxy { .. })), 0);
    assert!(t.has(Event::Illegal { seat: seat(0), what: "proxy move" }));
    assert_eq!(t.state.illegal_decisions(), 1);
}

#[test]
fn e7_the_boss_decides_the_camp_kill() {
    // Boss 0, Thief 1, mafioso 2, citizens 3–5, Psycho 6: three different nicks.
    let roles = [R::Boss, R::Thief, R::Mafioso, R::Citizen, R::Citizen, R::Citizen, R::Psycho];
    let n = one_night(&roles, &[(seat(0), kill(seat(3))), (seat(1), kill(seat(4))), (seat(2), kill(seat(5)))]);
    assert_eq!(n.killed(), set(&[seat(3)]));
    assert!(n.has(Event::NightKill { target: seat(3), by: mafia_kill(seat(0)) }));
}

#[test]
fn e7_a_blocked_boss_still_decides_the_kill() {
    // Decision: the camp kill is a camp move; blocks stop role moves only.
    // Boss 0, Psycho 1, citizen 2, Witch 3.
    let mut sc = scenario(
        &[R::Boss, R::Psycho, R::Citizen, R::Witch],
        &[
            (seat(1), act(seat(0))),
            (seat(0), NightChoice { kill: Some(seat(2)), act: Some(seat(3)), ..NightChoice::default() }),
        ],
    );
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(0)), Some(blocked(Status::Invited, Some(seat(1)))), "his check fails");
    assert_eq!(n.killed(), set(&[seat(2)]), "his kill stands");
    sc.moves = vec![(seat(0), kill(seat(2)))];
    sc.carry.hexed = vec![seat(0)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    assert_eq!(resolve(&sc).killed(), set(&[seat(2)]));
}

// ---------------------------------------------------------------------------
// E8 Camp kill
// ---------------------------------------------------------------------------

#[test]
fn e8_rank_is_boss_thief_guard_swindler_actor() {
    // Decision: the rank of E8, the classic Don after the Boss, plain mafiosi last.
    let ranks: Vec<u8> = [R::Boss, R::Don, R::Thief, R::Guard, R::Swindler, R::Actor, R::Mafioso]
        .iter()
        .map(|r| r.info().rank)
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] < w[1]), "{ranks:?}");
}

#[test]
fn e8_the_highest_ranked_sender_decides() {
    // Boss 0, Thief 1, Guard 2, Swindler 3, Actor 4, mafioso 5, citizens 6–11, Psycho 12.
    let roles = [
        R::Boss,
        R::Thief,
        R::Guard,
        R::Swindler,
        R::Actor,
        R::Mafioso,
        R::Citizen,
        R::Citizen,
        R::Citizen,
        R::Citizen,
        R::Citizen,
        R::Citizen,
        R::Psycho,
    ];
    // Each member s nicks 6 + s.
    let nicks = |senders: &[Seat]| -> Vec<(Seat, NightChoice)> {
        senders.iter().map(|&s| (s, kill(seat(6 + s.get())))).collect()
    };
    // (dead before tonight, senders, decider)
    // The unappointed Actor (4) sends no nick (E12); see the E12 tests.
    let cases: [(&[Seat], &[Seat], Seat); 6] = [
        (&[], &[seat(0), seat(1), seat(2), seat(3), seat(5)], seat(0)),
        (&[], &[seat(1), seat(2), seat(3), seat(5)], seat(1)), // the Boss alive but silent
        (&[seat(0)], &[seat(1), seat(2), seat(3), seat(5)], seat(1)),
        (&[seat(0)], &[seat(2), seat(3), seat(5)], seat(2)),
        (&[seat(0)], &[seat(3), seat(5)], seat(3)),
        (&[seat(0)], &[seat(5)], seat(5)),
    ];
    for (dead, senders, decider) in cases {
        let mut sc = scenario(&roles, &nicks(senders));
        sc.carry.dead = dead.to_vec();
        let n = resolve(&sc);
        assert_eq!(n.killed(), set(&[seat(6 + decider.get())]), "dead {dead:?}, senders {senders:?}");
        assert!(n.has(Event::NightKill { target: seat(6 + decider.get()), by: mafia_kill(decider) }));
    }
}

#[test]
fn e8_the_kill_fails_on_the_invited_healed_guarded_and_beaten() {
    // Boss 0, Guard 1, Doctor 2, Psycho 3, Thug 4, Lucky 5, citizen 6, mafioso 7.
    let roles = [R::Boss, R::Guard, R::Doctor, R::Psycho, R::Thug, R::Lucky, R::Citizen, R::Mafioso];
    let cases: [(Seat, (Seat, Seat), Fail); 4] = [
        (seat(6), (seat(3), seat(6)), Fail::TargetInvited),
        (seat(6), (seat(2), seat(6)), Fail::TargetHealed),
        (seat(7), (seat(1), seat(7)), Fail::TargetGuarded),
        (seat(6), (seat(4), seat(6)), Fail::TargetBeaten),
    ];
    for (victim, (s, t), reason) in cases {
        let n = one_night(&roles, &[(seat(0), kill(victim)), (s, act(t))]);
        assert!(n.has(Event::KillFailed { target: victim, by: mafia_kill(seat(0)), reason }), "{reason:?}");
        assert_eq!(n.killed(), PlayerSet::EMPTY);
        assert!(n.res.shot, "C8: a prevented kill counts as a kill tried");
    }
}

#[test]
fn e8_a_lucky_with_his_spare_life_survives_and_spends_it() {
    // Boss 0, Lucky 1, citizen 2, Psycho 3.
    let n = one_night(&[R::Boss, R::Lucky, R::Citizen, R::Psycho], &[(seat(0), kill(seat(1)))]);
    assert!(n.has(Event::SpareLife { seat: seat(1) }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
    assert!(!n.st.carry().spare_life.contains(seat(1)));
    assert!(!n.obs(seat(1)).has_spare_life());
}

#[test]
fn e8_no_nick_no_kill() {
    let n = one_night(&[R::Boss, R::Thief, R::Citizen, R::Psycho], &[]);
    assert!(n.has(Event::NightMiss(MissReason::Silent(seat(0)))));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
    assert!(!n.res.shot);
}

#[test]
fn e8_camp_kill_unanimous_setting_needs_every_nick_to_agree() {
    // C4 as a setting: Boss 0, Thief 1, citizens 2 and 3, Psycho 4.
    let roles = [R::Boss, R::Thief, R::Citizen, R::Citizen, R::Psycho];
    let mut sc = scenario(&roles, &[(seat(0), kill(seat(2))), (seat(1), kill(seat(3)))]);
    sc.rules.set("camp_kill", "unanimous").unwrap();
    let n = resolve(&sc);
    assert!(n.has(Event::NightMiss(MissReason::Disagree(seat(0), seat(1)))));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
    sc.moves = vec![(seat(0), kill(seat(2))), (seat(1), kill(seat(2)))];
    assert_eq!(resolve(&sc).killed(), set(&[seat(2)]));
    // With the default (leader) the same disagreement is the Boss's kill.
    let n = one_night(&roles, &[(seat(0), kill(seat(2))), (seat(1), kill(seat(3)))]);
    assert_eq!(n.killed(), set(&[seat(2)]));
}

// ---------------------------------------------------------------------------
// E9 Thief
// ---------------------------------------------------------------------------

#[test]
fn e9_thief_robbery_makes_the_move_fail() {
    // Boss 0, Thief 1, Detective 2, Psycho 3.
    let n =
        one_night(&[R::Boss, R::Thief, R::Detective, R::Psycho], &[(seat(1), act(seat(2))), (seat(2), act(seat(3)))]);
    assert!(n.has(Event::StatusSet { seat: seat(2), status: Status::Robbed, by: seat(1) }));
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    assert!(n.obs(seat(2)).checked().is_empty());
}

#[test]
fn e9_thief_fails_when_hexed_or_invited() {
    // Boss 0, Thief 1, Detective 2, Witch 3, Psycho 4.
    let roles = [R::Boss, R::Thief, R::Detective, R::Witch, R::Psycho];
    let mut sc = scenario(&roles, &[(seat(1), act(seat(2))), (seat(2), act(seat(0)))]);
    sc.carry.hexed = vec![seat(1)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Hexed, None)));
    assert!(n.has(Event::CampCheck { seat: seat(2), target: seat(0), camp: Camp::Mafia }));
    let n = one_night(&roles, &[(seat(1), act(seat(2))), (seat(2), act(seat(0))), (seat(4), act(seat(1)))]);
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Invited, Some(seat(4)))));
    assert!(n.has(Event::CampCheck { seat: seat(2), target: seat(0), camp: Camp::Mafia }));
    // A Thief who "forgot" robs nobody.
    let n = one_night(&roles, &[(seat(2), act(seat(0)))]);
    assert_eq!(n.count(|e| matches!(e, Event::StatusSet { .. })), 0);
    assert!(n.has(Event::CampCheck { seat: seat(2), target: seat(0), camp: Camp::Mafia }));
}

#[test]
fn e9_the_sleepwalker_does_not_see_the_thief_but_the_scout_learns_his_target() {
    // Boss 0, Thief 1, Sleepwalker 2, Scout 3, citizen 4.
    let n = one_night(
        &[R::Boss, R::Thief, R::Sleepwalker, R::Scout, R::Citizen],
        &[(seat(1), act(seat(4))), (seat(2), act(seat(4))), (seat(3), NightChoice::default())],
    );
    assert!(n.has(Event::StatusSet { seat: seat(4), status: Status::Robbed, by: seat(1) }));
    assert_eq!(n.report(seat(2)), Some(Report::Watch { target: seat(4), camps: [0; 3] }));
    assert_eq!(n.report(seat(3)), Some(Report::Scout { checked: None, robbed: Some(seat(4)), healed: None }));
}

#[test]
fn e9_a_robbed_player_acts_normally_next_night() {
    // Boss 0, Thief 1, Detective 2, Psycho 3, citizen 4.
    let mut t = table(&[R::Boss, R::Thief, R::Detective, R::Psycho, R::Citizen], &[]);
    t.p.at(1, seat(1), act(seat(2))).at(1, seat(2), act(seat(3)));
    t.p.at(2, seat(1), act(seat(4))).at(2, seat(2), act(seat(3)));
    t.night(1);
    t.night(2);
    assert_eq!(t.failed_on(1, seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    assert_eq!(t.failed_on(2, seat(2)), None);
    assert!(t.on(2, Event::CampCheck { seat: seat(2), target: seat(3), camp: Camp::Bandits }));
}

// ---------------------------------------------------------------------------
// E10 Guard
// ---------------------------------------------------------------------------

#[test]
fn e10_every_shot_at_the_guarded_fails() {
    // Boss 0, Thief 1, Guard 2, Shooter 3, citizen 4, Psycho 5. The Boss sends
    // no nick, so the Thief's nick (at his own Boss) is the camp's kill.
    let n = one_night(
        &[R::Boss, R::Thief, R::Guard, R::Shooter, R::Citizen, R::Psycho],
        &[(seat(2), act(seat(0))), (seat(1), kill(seat(0))), (seat(3), act(seat(0)))],
    );
    assert!(n.has(Event::Guarded { seat: seat(0), by: seat(2) }));
    assert!(n.has(Event::KillFailed { target: seat(0), by: mafia_kill(seat(1)), reason: Fail::TargetGuarded }));
    assert!(n.has(Event::KillFailed { target: seat(0), by: Killer::Shooter(seat(3)), reason: Fail::TargetGuarded }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
}

#[test]
fn e10_a_shot_at_the_guard_kills_only_the_guard() {
    let n = one_night(
        &[R::Boss, R::Thief, R::Guard, R::Shooter, R::Citizen, R::Psycho],
        &[(seat(2), act(seat(0))), (seat(1), kill(seat(0))), (seat(3), act(seat(2)))],
    );
    assert_eq!(n.killed(), set(&[seat(2)]));
    assert!(n.has(Event::KillFailed { target: seat(0), by: mafia_kill(seat(1)), reason: Fail::TargetGuarded }));
}

#[test]
fn e10_a_guard_who_guards_himself_survives_shots() {
    // Decision.
    let n = one_night(&[R::Boss, R::Guard, R::Shooter, R::Psycho], &[(seat(1), act(seat(1))), (seat(2), act(seat(1)))]);
    assert!(n.has(Event::KillFailed { target: seat(1), by: Killer::Shooter(seat(2)), reason: Fail::TargetGuarded }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
}

#[test]
fn e10_guard_fails_when_invited_or_hexed_or_the_guarded_is_invited() {
    // Boss 0, Guard 1, Witch 2, Shooter 3, Psycho 4.
    let roles = [R::Boss, R::Guard, R::Witch, R::Shooter, R::Psycho];
    let n = one_night(&roles, &[(seat(1), act(seat(0))), (seat(3), act(seat(0))), (seat(4), act(seat(1)))]);
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Invited, Some(seat(4)))));
    assert_eq!(n.killed(), set(&[seat(0)]));
    let mut sc = scenario(&roles, &[(seat(1), act(seat(0))), (seat(3), act(seat(0)))]);
    sc.carry.hexed = vec![seat(1)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Hexed, None)));
    assert_eq!(n.killed(), set(&[seat(0)]));
    let n = one_night(&roles, &[(seat(1), act(seat(0))), (seat(4), act(seat(0)))]);
    assert_eq!(n.failed(seat(1)), Some(Fail::TargetInvited));
    assert!(!n.has(Event::Guarded { seat: seat(0), by: seat(1) }));
}

#[test]
fn e10_the_guard_guards_only_mafia() {
    let n = one_night(&[R::Boss, R::Guard, R::Citizen, R::Psycho], &[]);
    assert!(
        matches!(n.st.check_move(seat(1), &act(seat(2))), Err(MoveError::Target { target, .. }) if target == seat(2))
    );
    assert_eq!(n.obs(seat(1)).targets(A::Guard), set(&[seat(0), seat(1)]));
}

// ---------------------------------------------------------------------------
// E11 Swindler
// ---------------------------------------------------------------------------

#[test]
fn e11_the_swindled_move_goes_to_the_new_target() {
    // Boss 0, Swindler 1, Detective 2, citizen 3, Psycho 4.
    let n = one_night(
        &[R::Boss, R::Swindler, R::Detective, R::Citizen, R::Psycho],
        &[(seat(2), act(seat(3))), (seat(1), act2(seat(2), seat(4)))],
    );
    assert!(n.has(Event::Redirected { by: seat(1), victim: seat(2), from: Some(seat(3)), to: seat(4) }));
    assert!(n.has(Event::CampCheck { seat: seat(2), target: seat(4), camp: Camp::Bandits }));
    assert_eq!(n.obs(seat(2)).checked(), set(&[seat(4)]));
}

#[test]
fn e11_blockers_and_killers_can_be_swindled() {
    // The Psycho's guest: Boss 0, Swindler 1, Detective 2, citizen 3, Psycho 4.
    let n = one_night(
        &[R::Boss, R::Swindler, R::Detective, R::Citizen, R::Psycho],
        &[(seat(4), act(seat(3))), (seat(1), act2(seat(4), seat(2))), (seat(2), act(seat(0)))],
    );
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Invited, Some(seat(4)))));
    assert_eq!(n.st.carry().guest, Some(seat(2)));
    // The Thug's beating: Boss 0, Swindler 1, Detective 2, citizen 3, Thug 4.
    let n = one_night(
        &[R::Boss, R::Swindler, R::Detective, R::Citizen, R::Thug],
        &[(seat(4), act(seat(3))), (seat(1), act2(seat(4), seat(2))), (seat(2), act(seat(0)))],
    );
    assert!(n.has(Event::StatusSet { seat: seat(2), status: Status::Beaten, by: seat(4) }));
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Beaten, Some(seat(4)))));
    // The Shooter's shot: Boss 0, Swindler 1, Shooter 2, citizen 3, Psycho 4.
    let n = one_night(
        &[R::Boss, R::Swindler, R::Shooter, R::Citizen, R::Psycho],
        &[(seat(2), act(seat(3))), (seat(1), act2(seat(2), seat(4)))],
    );
    assert_eq!(n.killed(), set(&[seat(4)]));
    // The Doctor's heal: Boss 0, Swindler 1, Doctor 2, citizen 3, Psycho 4; the Boss kills 3.
    let n = one_night(
        &[R::Boss, R::Swindler, R::Doctor, R::Citizen, R::Psycho],
        &[(seat(2), act(seat(3))), (seat(1), act2(seat(2), seat(4))), (seat(0), kill(seat(3)))],
    );
    assert!(n.has(Event::Healed { seat: seat(4), by: seat(2) }));
    assert_eq!(n.killed(), set(&[seat(3)]));
}

#[test]
fn e11_swindle_fails_on_a_mafioso() {
    // Boss 0, Swindler 1, Thief 2, Detective 3, citizen 4.
    let n = one_night(
        &[R::Boss, R::Swindler, R::Thief, R::Detective, R::Citizen],
        &[(seat(2), act(seat(3))), (seat(1), act2(seat(2), seat(4)))],
    );
    assert_eq!(n.failed(seat(1)), Some(Fail::TargetMafia));
    assert!(
        n.has(Event::StatusSet { seat: seat(3), status: Status::Robbed, by: seat(2) }),
        "the Thief robs whom he chose"
    );
    assert_eq!(n.st.carry().swindled, PlayerSet::EMPTY);
}

#[test]
fn e11_swindle_fails_when_the_swindler_is_beaten_or_hexed() {
    // Boss 0, Swindler 1, Detective 2, citizen 3, Thug 4, Witch 5.
    let roles = [R::Boss, R::Swindler, R::Detective, R::Citizen, R::Thug, R::Witch];
    let n = one_night(&roles, &[(seat(4), act(seat(1))), (seat(1), act2(seat(2), seat(4))), (seat(2), act(seat(3)))]);
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Beaten, Some(seat(4)))));
    assert!(n.has(Event::CampCheck { seat: seat(2), target: seat(3), camp: Camp::Town }));
    let mut sc = scenario(&roles, &[(seat(1), act2(seat(2), seat(4))), (seat(2), act(seat(3)))]);
    sc.carry.hexed = vec![seat(1)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Hexed, None)));
    assert!(n.has(Event::CampCheck { seat: seat(2), target: seat(3), camp: Camp::Town }));
    // Decision: a swindle of a beaten player fails (nobody can find him, E6).
    let n = one_night(&roles, &[(seat(4), act(seat(2))), (seat(1), act2(seat(2), seat(3)))]);
    assert_eq!(n.failed(seat(1)), Some(Fail::TargetBeaten));
}

#[test]
fn e11_never_the_same_player_twice_in_one_game() {
    // Boss 0, Swindler 1, Detective 2, citizen 3, Psycho 4.
    let roles = [R::Boss, R::Swindler, R::Detective, R::Citizen, R::Psycho];
    let n = one_night(&roles, &[(seat(2), act(seat(3))), (seat(1), act2(seat(2), seat(4)))]);
    assert_eq!(n.st.carry().swindled, set(&[seat(2)]));
    assert!(
        matches!(n.st.check_move(seat(1), &act2(seat(2), seat(3))), Err(MoveError::Target { target, .. }) if target == seat(2))
    );
    assert!(!n.obs(seat(1)).targets(A::Swindle).contains(seat(2)));
    assert!(n.st.check_move(seat(1), &act2(seat(4), seat(3))).is_ok());
    // The same history carried in a scenario.
    let mut sc = scenario(&roles, &[(seat(1), act2(seat(2), seat(3)))]);
    sc.carry.swindled = vec![seat(2)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let e = resolve_scenario(&sc, &mut Vec::new()).unwrap_err();
    assert_eq!(e.problems[0].path, "moves.0", "{e}");
}

#[test]
fn e11_a_swindled_sleepwalker_watches_the_new_house() {
    // Boss 0, Swindler 1, Sleepwalker 2, citizens 3 and 4, Detective 5.
    let n = one_night(
        &[R::Boss, R::Swindler, R::Sleepwalker, R::Citizen, R::Citizen, R::Detective],
        &[(seat(2), act(seat(3))), (seat(1), act2(seat(2), seat(4))), (seat(5), act(seat(4)))],
    );
    assert_eq!(n.report(seat(2)), Some(Report::Watch { target: seat(4), camps: [1, 0, 0] }));
}

#[test]
fn e11_a_swindle_of_a_player_without_a_move_does_nothing() {
    // Boss 0, Swindler 1, Chosen 2 (no night move), Detective 3, Psycho 4.
    let roles = [R::Boss, R::Swindler, R::Chosen, R::Detective, R::Psycho];
    let n = one_night(&roles, &[(seat(1), act2(seat(2), seat(4)))]);
    assert_eq!(n.failed(seat(1)), Some(Fail::NothingToRedirect));
    assert_eq!(n.count(|e| matches!(e, Event::Redirected { .. })), 0);
    // He is not used up: a later swindle of him is still allowed.
    assert_eq!(n.st.carry().swindled, PlayerSet::EMPTY);
    // A Detective who sent nothing tonight is the same case.
    let n = one_night(&roles, &[(seat(1), act2(seat(3), seat(4)))]);
    assert_eq!(n.failed(seat(1)), Some(Fail::NothingToRedirect));
}

// ---------------------------------------------------------------------------
// E12 Actor
// ---------------------------------------------------------------------------

#[test]
fn e12_the_actor_only_votes_until_appointed() {
    let n = one_night(&[R::Boss, R::Actor, R::Detective, R::Psycho], &[]);
    assert_eq!(n.st.check_move(seat(1), &act(seat(2))), Err(MoveError::NoMove(R::Actor)));
    assert_eq!(n.obs(seat(1)).ability(), A::None);
    // «До назначения на роль, Актер участвует только в линчевании»: no nick either.
    assert!(!n.obs(seat(1)).shoots(), "no say in the camp kill before his appointment");
    // The refusal says the rule: he is a mafia member, not yet appointed (issue 35).
    let e = n.st.check_kill(seat(1), Some(seat(2)));
    assert_eq!(e, Err(MoveError::UnappointedActor));
    let text = e.unwrap_err().to_string();
    assert!(text.contains("until he is appointed") && text.contains("E12"), "{text}");
    assert!(!text.contains("only mafia members"), "{text}");
    // A citizen's nick is still refused as before.
    assert_eq!(n.st.check_kill(seat(2), Some(seat(3))), Err(MoveError::NotAShooter));
}

#[test]
fn e12_the_actor_takes_the_dead_members_role_from_the_next_night() {
    // Boss 0, Thief 1, Actor 2, Shooter 3, Detective 4, citizen 5, Psycho 6.
    let mut t = table(&[R::Boss, R::Thief, R::Actor, R::Shooter, R::Detective, R::Citizen, R::Psycho], &[]);
    t.p.at(1, seat(3), act(seat(1))).at(1, seat(2), act(seat(4)));
    t.p.at(2, seat(2), act(seat(4))).at(2, seat(4), act(seat(0)));
    t.night(1);
    assert_eq!(t.deaths(), vec![(seat(1), DeathCause::Killed)]);
    assert_eq!(t.state.illegal_decisions(), 1, "no move on the night the Thief dies");
    t.night(2);
    assert!(t.on(2, Event::Promoted { seat: seat(2), role: R::Thief }));
    assert_eq!(t.failed_on(2, seat(4)), Some(blocked(Status::Robbed, Some(seat(2)))));
    assert_eq!(t.obs(seat(2)).acting_role(), R::Thief);
    assert_eq!(t.obs(seat(2)).role(), R::Actor);
    assert_eq!(t.state.illegal_decisions(), 1);
}

#[test]
fn e12_the_bosss_death_and_a_plain_mafiosos_appoint_nobody() {
    // Boss 0, Actor 1, mafioso 2, Detective 3, Psycho 4.
    let roles = [R::Boss, R::Actor, R::Mafioso, R::Detective, R::Psycho];
    for dead in [vec![seat(0)], vec![seat(2)], vec![seat(0), seat(2)]] {
        let mut sc = scenario(&roles, &[]);
        sc.carry.dead = dead.clone();
        let n = resolve(&sc);
        assert_eq!(n.count(|e| matches!(e, Event::Promoted { .. })), 0, "dead {dead:?}");
        assert_eq!(n.obs(seat(1)).acting_role(), R::Actor);
    }
}

#[test]
fn e12_with_the_boss_dead_the_actor_appoints_himself() {
    // Boss 0, Actor 1, Guard 2, Detective 3, Psycho 4.
    let mut sc = scenario(&[R::Boss, R::Actor, R::Guard, R::Detective, R::Psycho], &[(seat(1), act(seat(1)))]);
    sc.carry.dead = vec![seat(0), seat(2)];
    let n = resolve(&sc);
    assert!(n.has(Event::Promoted { seat: seat(1), role: R::Guard }));
    assert!(n.has(Event::Guarded { seat: seat(1), by: seat(1) }));
}

#[test]
fn e12_the_best_ranked_vacant_role_is_taken() {
    // Decision: with two vacant roles the Actor takes the best-ranked (E8's rank).
    let mut sc = scenario(&[R::Boss, R::Thief, R::Swindler, R::Actor, R::Detective, R::Psycho], &[]);
    sc.carry.dead = vec![seat(2), seat(1)];
    let n = resolve(&sc);
    assert!(n.has(Event::Promoted { seat: seat(3), role: R::Thief }));
    assert_eq!(n.obs(seat(3)).ability(), A::Rob);
}

#[test]
fn e12_e8_an_appointed_actor_ranks_as_the_role_he_took() {
    // Boss 0 (dead), Thief 1 (dead), Guard 2, Actor 3, Detective 4, Psycho 5, citizens 6, 7.
    // The Actor is the Thief from tonight, so his nick outranks the Guard's (E8: Thief before Guard).
    let mut sc =
        scenario(&[R::Boss, R::Thief, R::Guard, R::Actor, R::Detective, R::Psycho, R::Citizen, R::Citizen], &[]);
    sc.carry.dead = vec![seat(0), seat(1)];
    sc.moves = vec![(seat(2), kill(seat(6))), (seat(3), kill(seat(7)))];
    let n = resolve(&sc);
    assert!(n.has(Event::Promoted { seat: seat(3), role: R::Thief }));
    assert!(n.has(Event::NightKill { target: seat(7), by: mafia_kill(seat(3)) }));
    assert_eq!(n.res.killed, set(&[seat(7)]));
}

// ---------------------------------------------------------------------------
// E13 Detective
// ---------------------------------------------------------------------------

#[test]
fn e13_detective_learns_the_camp() {
    // Boss 0, Detective 1, citizen 2, Psycho 3.
    let roles = [R::Boss, R::Detective, R::Citizen, R::Psycho];
    for (x, camp) in [(0, Camp::Mafia), (2, Camp::Town), (3, Camp::Bandits)].map(|(x, c)| (seat(x), c)) {
        let n = one_night(&roles, &[(seat(1), act(x))]);
        assert!(n.has(Event::CampCheck { seat: seat(1), target: x, camp }));
        assert_eq!(n.obs(seat(1)).found_in_camp(camp), set(&[x]));
        assert_eq!(n.obs(seat(1)).known_camp(x), Some(camp));
        assert_eq!(n.obs(seat(1)).last_check(), Some((x, CheckOutcome::Camp(camp))));
    }
}

#[test]
fn e13_a_failed_check_leaves_no_old_answer() {
    // Boss 0, Thief 1, Detective 2, citizen 3, Psycho 4: night 1 the Detective
    // checks the Psycho; night 2 he is robbed: his last answer is gone, the
    // camps he found stay.
    let roles = [R::Boss, R::Thief, R::Detective, R::Citizen, R::Psycho];
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(2), act(seat(4))).at(2, seat(1), act(seat(2))).at(2, seat(2), act(seat(3)));
    assert_eq!(t.night(1), None);
    assert_eq!(t.obs(seat(2)).last_check(), Some((seat(4), CheckOutcome::Camp(Camp::Bandits))));
    assert_eq!(t.night(2), None);
    assert_eq!(t.obs(seat(2)).last_check(), None);
    assert_eq!(t.obs(seat(2)).found_in_camp(Camp::Bandits), set(&[seat(4)]));
}

#[test]
fn e13_detective_fails_when_robbed_or_the_suspect_is_beaten() {
    // Boss 0, Thief 1, Detective 2, Thug 3, citizen 4 (the other blocks: E6).
    let roles = [R::Boss, R::Thief, R::Detective, R::Thug, R::Citizen];
    let n = one_night(&roles, &[(seat(1), act(seat(2))), (seat(2), act(seat(4)))]);
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    let n = one_night(&roles, &[(seat(3), act(seat(4))), (seat(2), act(seat(4)))]);
    assert_eq!(n.failed(seat(2)), Some(Fail::TargetBeaten));
    assert!(n.obs(seat(2)).checked().is_empty());
}

#[test]
fn e13_a_detective_killed_tonight_still_learns() {
    // E30: information before kills; "dead" in failure lists is dead at dusk.
    let n = one_night(&[R::Boss, R::Detective, R::Psycho], &[(seat(0), kill(seat(1))), (seat(1), act(seat(0)))]);
    assert_eq!(n.killed(), set(&[seat(1)]));
    assert!(n.has(Event::CampCheck { seat: seat(1), target: seat(0), camp: Camp::Mafia }));
}

// ---------------------------------------------------------------------------
// E14 Deputy
// ---------------------------------------------------------------------------

#[test]
fn e14_deputy_becomes_the_detective_and_meets_the_doctor() {
    // Boss 0, Detective 1, Deputy 2, Doctor 3, citizens 4 and 5, Psycho 6.
    let mut t = table(&[R::Boss, R::Detective, R::Deputy, R::Doctor, R::Citizen, R::Citizen, R::Psycho], &[]);
    t.p.at(1, seat(0), kill(seat(1))).at(1, seat(2), act(seat(0))).at(1, seat(3), act(seat(4)));
    t.p.at(2, seat(2), act(seat(0))).at(2, seat(3), act(seat(5)));
    t.p.at(3, seat(0), kill(seat(3))).at(3, seat(2), act(seat(6)));
    t.p.at(4, seat(2), act(seat(4)));
    t.night(1);
    assert_eq!(t.state.illegal_decisions(), 1, "no move before the promotion");
    assert_eq!(t.obs(seat(2)).camp_mates(), set(&[seat(2)]));
    t.night(2);
    assert!(t.on(2, Event::Promoted { seat: seat(2), role: R::Detective }));
    assert!(t.on(2, Event::Introduced { a: seat(2), b: seat(3) }));
    assert!(t.on(2, Event::CampCheck { seat: seat(2), target: seat(0), camp: Camp::Mafia }));
    assert_eq!(t.obs(seat(2)).camp_mates(), set(&[seat(2), seat(3)]));
    assert_eq!(t.obs(seat(3)).camp_mates(), set(&[seat(2), seat(3)]));
    // The Doctor's later death changes nothing: the role is his for the rest of the game.
    t.night(3);
    t.night(4);
    assert_eq!(t.deaths(), vec![(seat(1), DeathCause::Killed), (seat(3), DeathCause::Killed)]);
    assert!(t.on(4, Event::CampCheck { seat: seat(2), target: seat(4), camp: Camp::Town }));
    assert_eq!(t.count(|e| matches!(e, Event::Promoted { .. })), 1);
    assert_eq!(t.obs(seat(2)).acting_role(), R::Detective);
}

#[test]
fn e14_deputy_becomes_the_doctor_when_the_doctor_dies_first() {
    // Boss 0, Detective 1, Deputy 2, Doctor 3, citizen 4, Psycho 5, citizen 6.
    let mut t = table(&[R::Boss, R::Detective, R::Deputy, R::Doctor, R::Citizen, R::Psycho, R::Citizen], &[]);
    t.p.day_votes(1, &[f(seat(3)), f(seat(3)), f(seat(3)), f(seat(0)), f(seat(3)), f(seat(3)), f(seat(3))]);
    t.p.at(1, seat(2), act(seat(4))).at(1, seat(0), kill(seat(4)));
    t.day(1);
    t.night(1);
    assert!(t.on(1, Event::Promoted { seat: seat(2), role: R::Doctor }));
    assert!(t.on(1, Event::Introduced { a: seat(2), b: seat(1) }));
    assert!(t.on(1, Event::KillFailed { target: seat(4), by: mafia_kill(seat(0)), reason: Fail::TargetHealed }));
    assert_eq!(t.deaths(), vec![(seat(3), DeathCause::Lynched)]);
}

#[test]
fn e14_both_dying_in_one_phase_makes_the_deputy_a_detective() {
    // Decision: same phase → the Detective. Boss 0, Detective 1, Deputy 2,
    // Doctor 3, Shooter 4, citizen 5, Psycho 6.
    let mut t = table(&[R::Boss, R::Detective, R::Deputy, R::Doctor, R::Shooter, R::Citizen, R::Psycho], &[]);
    t.p.at(1, seat(0), kill(seat(1))).at(1, seat(4), act(seat(3)));
    t.p.at(2, seat(2), act(seat(6)));
    t.night(1);
    t.night(2);
    assert!(t.on(2, Event::Promoted { seat: seat(2), role: R::Detective }));
    assert!(!t.has(Event::Introduced { a: seat(2), b: seat(3) }), "the Doctor is dead: no introduction");
    assert!(t.on(2, Event::CampCheck { seat: seat(2), target: seat(6), camp: Camp::Bandits }));
    // A scenario with both dead follows the order of its dead list.
    let mut sc = scenario(&[R::Boss, R::Detective, R::Deputy, R::Doctor, R::Psycho], &[]);
    sc.carry.dead = vec![seat(3), seat(1)];
    assert_eq!(resolve(&sc).obs(seat(2)).acting_role(), R::Doctor);
}

// ---------------------------------------------------------------------------
// E15 Doctor
// ---------------------------------------------------------------------------

#[test]
fn e15_a_healed_player_survives_every_kill_tonight() {
    // Boss 0, Doctor 1, Shooter 2, citizens 3 and 4, Psycho 5.
    let roles = [R::Boss, R::Doctor, R::Shooter, R::Citizen, R::Citizen, R::Psycho];
    let n = one_night(&roles, &[(seat(1), act(seat(3))), (seat(0), kill(seat(3))), (seat(2), act(seat(3)))]);
    assert!(n.has(Event::Healed { seat: seat(3), by: seat(1) }));
    assert!(n.has(Event::KillFailed { target: seat(3), by: mafia_kill(seat(0)), reason: Fail::TargetHealed }));
    assert!(n.has(Event::KillFailed { target: seat(3), by: Killer::Shooter(seat(2)), reason: Fail::TargetHealed }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
    // Himself included.
    let n = one_night(&roles, &[(seat(1), act(seat(1))), (seat(0), kill(seat(1)))]);
    assert_eq!(n.killed(), PlayerSet::EMPTY);
}

#[test]
fn e15_never_the_same_player_two_nights_running() {
    // Boss 0, Doctor 1, citizens 2 and 3, Psycho 4.
    let roles = [R::Boss, R::Doctor, R::Citizen, R::Citizen, R::Psycho];
    let mut sc = scenario(&roles, &[(seat(1), act(seat(3)))]);
    sc.carry.last_targets = vec![(seat(1), seat(2))];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert!(n.has(Event::Healed { seat: seat(3), by: seat(1) }), "another player than last night's");
    // Next night: not 3 again, but 2 again (a night between) is fine.
    assert_eq!(n.st.next_bar(seat(1)), Some(seat(3)));
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(1), act(seat(3))).at(2, seat(1), act(seat(3))).at(3, seat(1), act(seat(2)));
    t.night(1);
    t.night(2);
    assert_eq!(t.state.illegal_decisions(), 1, "3 again on night 2 is refused");
    t.night(3);
    assert!(t.on(3, Event::Healed { seat: seat(2), by: seat(1) }));
    assert_eq!(t.state.illegal_decisions(), 1);
    sc.moves = vec![(seat(1), act(seat(2)))];
    let e = resolve_scenario(&sc, &mut Vec::new()).unwrap_err();
    assert_eq!(e.problems[0].path, "moves.0");
}

#[test]
fn e15_doctor_fails_when_robbed_or_hexed() {
    // Boss 0, Thief 1, Doctor 2, Witch 3, citizen 4, Psycho 5.
    let roles = [R::Boss, R::Thief, R::Doctor, R::Witch, R::Citizen, R::Psycho];
    let n = one_night(&roles, &[(seat(1), act(seat(2))), (seat(2), act(seat(4))), (seat(0), kill(seat(4)))]);
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    assert_eq!(n.killed(), set(&[seat(4)]));
    let mut sc = scenario(&roles, &[(seat(2), act(seat(4))), (seat(0), kill(seat(4)))]);
    sc.carry.hexed = vec![seat(2)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Hexed, None)));
    assert_eq!(n.killed(), set(&[seat(4)]));
}

#[test]
fn e15_a_heal_lifts_a_hex_cast_tonight() {
    // Boss 0, Doctor 1, Witch 2, Detective 3, Psycho 4.
    let roles = [R::Boss, R::Doctor, R::Witch, R::Detective, R::Psycho];
    let n = one_night(&roles, &[(seat(2), act(seat(3))), (seat(1), act(seat(3)))]);
    assert!(n.has(Event::HexLifted { seat: seat(3) }));
    assert_eq!(n.st.carry().hex_next, PlayerSet::EMPTY);
    let n = one_night(&roles, &[(seat(2), act(seat(3))), (seat(1), act(seat(4)))]);
    assert_eq!(n.st.carry().hex_next, set(&[seat(3)]));
}

#[test]
fn e15_a_heal_saves_last_nights_guest() {
    // Boss 0, Doctor 1, Psycho 2, citizen 3.
    let mut sc = scenario(&[R::Boss, R::Doctor, R::Psycho, R::Citizen], &[(seat(1), act(seat(3)))]);
    sc.carry.guest = Some(seat(3));
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert!(n.has(Event::GuestSaved { seat: seat(3), by: seat(1) }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
    assert_eq!(n.st.carry().guest, None);
}

// ---------------------------------------------------------------------------
// E16 Chosen
// ---------------------------------------------------------------------------

/// Chosen 0, Boss 1, citizens 2 and 3, Psycho 4, citizen 5; night 1 quiet.
/// Day 2's open votes tie 3–3 between the Boss and the Psycho: the Chosen, 4
/// and 5 vote the Boss, 1, 2 and 3 the Psycho.
fn chosen_table(rules: &[(&str, &str)]) -> Table {
    let mut t = table(&[R::Chosen, R::Boss, R::Citizen, R::Citizen, R::Psycho, R::Citizen], rules);
    t.p.day_votes(2, &[f(seat(1)), f(seat(4)), f(seat(4)), f(seat(4)), f(seat(1)), f(seat(1))]);
    t.night(1);
    t
}

#[test]
fn e16_secret_votes_go_to_the_open_votes_target_by_default() {
    // Decision: 2 secret votes, to the open vote's target.
    let mut t = chosen_table(&[]);
    t.day(2);
    assert!(t.has(Event::SecretVotes { seat: seat(0), target: seat(1), votes: 2 }));
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(1))]);
    assert_eq!(t.deaths(), vec![(seat(1), DeathCause::Lynched)]);
    // Nobody sees them: the public tally shows the open votes only.
    assert_eq!(t.obs(seat(2)).votes_for(seat(1)), 3);
}

#[test]
fn e16_secret_votes_go_to_the_player_the_chosen_names() {
    let mut t = chosen_table(&[]);
    t.p.secret.insert(2, seat(4));
    t.day(2);
    assert!(t.has(Event::SecretVotes { seat: seat(0), target: seat(4), votes: 2 }));
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched)]);
    // A secret vote for himself is refused and falls back to the open vote.
    let mut t = chosen_table(&[]);
    t.p.secret.insert(2, seat(0));
    t.day(2);
    assert_eq!(t.state.illegal_decisions(), 1);
    assert_eq!(t.deaths(), vec![(seat(1), DeathCause::Lynched)]);
}

#[test]
fn e16_chosen_secret_votes_setting_sets_their_count() {
    let mut t = chosen_table(&[("chosen_secret_votes", "0")]);
    t.day(2);
    assert_eq!(t.count(|e| matches!(e, Event::SecretVotes { .. })), 0);
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(1), seat(4)]))]);
    let mut t = chosen_table(&[("chosen_secret_votes", "1")]);
    t.day(2);
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(1))]);
}

#[test]
fn e16_e18_a_hexed_chosen_keeps_his_secret_votes_by_default() {
    // Decision (issue 35): the hex takes a night move; the Chosen votes by day.
    // Chosen 0, Boss 1, Witch 2, citizen 3, Psycho 4, citizen 5; the Witch
    // hexes the Chosen on night 1; day 2 ties 3–3 on the open votes.
    let mut t = hexed_chosen_table(&[]);
    t.day(2);
    assert!(t.has(Event::SecretVotes { seat: seat(0), target: seat(1), votes: 2 }));
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(1))]);
}

#[test]
fn e16_e18_hex_takes_secret_votes_setting_takes_the_days_votes() {
    // `hex_takes_secret_votes = true`: the hex cast last night takes his
    // votes on the day that follows, so the open votes' tie stands.
    let mut t = hexed_chosen_table(&[("hex_takes_secret_votes", "true")]);
    t.day(2);
    assert_eq!(t.count(|e| matches!(e, Event::SecretVotes { .. })), 0);
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(1), seat(4)]))]);
    // A heal on the night of the hex lifts it (E15): the votes stay.
    let mut t =
        table(&[R::Chosen, R::Boss, R::Witch, R::Doctor, R::Psycho, R::Citizen], &[("hex_takes_secret_votes", "true")]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(4)), f(seat(4)), f(seat(4)), f(seat(1)), f(seat(1))]);
    t.p.at(1, seat(2), act(seat(0)));
    t.p.at(1, seat(3), act(seat(0)));
    t.night(1);
    t.day(2);
    assert!(t.has(Event::SecretVotes { seat: seat(0), target: seat(1), votes: 2 }));
}

/// [`chosen_table`] with the Witch at seat 2 hexing the Chosen on night 1.
fn hexed_chosen_table(rules: &[(&str, &str)]) -> Table {
    let mut t = table(&[R::Chosen, R::Boss, R::Witch, R::Citizen, R::Psycho, R::Citizen], rules);
    t.p.day_votes(2, &[f(seat(1)), f(seat(4)), f(seat(4)), f(seat(4)), f(seat(1)), f(seat(1))]);
    t.p.at(1, seat(2), act(seat(0)));
    t.night(1);
    assert_eq!(t.state.carry().hex_next, set(&[seat(0)]));
    t
}

// ---------------------------------------------------------------------------
// E17 Journalist
// ---------------------------------------------------------------------------

#[test]
fn e17_journalist_learns_same_or_different_camps() {
    // Boss 0, Thief 1, Journalist 2, citizen 3, Psycho 4, Thug 5.
    let roles = [R::Boss, R::Thief, R::Journalist, R::Citizen, R::Psycho, R::Thug];
    for (a, b, same) in
        [(0, 1, true), (0, 3, false), (4, 5, true), (3, 4, false)].map(|(a, b, s)| (seat(a), seat(b), s))
    {
        let n = one_night(&roles, &[(seat(2), act2(a, b))]);
        let report = Report::Compare { a, b, same };
        assert!(n.has(Event::Learned { seat: seat(2), report }));
        assert_eq!(n.report(seat(2)), Some(report));
    }
}

#[test]
fn e17_journalist_fails_when_robbed_beaten_invited_or_hexed() {
    // Boss 0, Thief 1, Journalist 2, citizen 3, Psycho 4, Thug 5, Witch 6.
    let roles = [R::Boss, R::Thief, R::Journalist, R::Citizen, R::Psycho, R::Thug, R::Witch];
    let cases: [(Option<Seat>, Fail); 4] = [
        (Some(seat(1)), blocked(Status::Robbed, Some(seat(1)))),
        (Some(seat(5)), blocked(Status::Beaten, Some(seat(5)))),
        (Some(seat(4)), blocked(Status::Invited, Some(seat(4)))),
        (None, blocked(Status::Hexed, None)),
    ];
    for (blocker, want) in cases {
        let mut moves = vec![(seat(2), act2(seat(0), seat(3)))];
        moves.extend(blocker.map(|s| (s, act(seat(2)))));
        let mut sc = scenario(&roles, &moves);
        if blocker.is_none() {
            sc.carry.hexed = vec![seat(2)];
            sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
        }
        let n = resolve(&sc);
        assert_eq!(n.failed(seat(2)), Some(want));
        assert_eq!(n.count(|e| matches!(e, Event::Learned { .. })), 0);
        assert_eq!(n.report(seat(2)), None);
    }
    // E6: either compared player beaten.
    let n = one_night(&roles, &[(seat(5), act(seat(3))), (seat(2), act2(seat(0), seat(3)))]);
    assert_eq!(n.failed(seat(2)), Some(Fail::TargetBeaten));
}

// ---------------------------------------------------------------------------
// E18 Witch
// ---------------------------------------------------------------------------

#[test]
fn e18_a_hex_blocks_exactly_the_next_night() {
    // Boss 0, Witch 1, Detective 2, citizen 3, Psycho 4.
    let mut t = table(&[R::Boss, R::Witch, R::Detective, R::Citizen, R::Psycho], &[]);
    t.p.at(1, seat(1), act(seat(2))).at(1, seat(2), act(seat(4)));
    t.p.at(2, seat(2), act(seat(0)));
    t.p.at(3, seat(2), act(seat(3)));
    t.night(1);
    assert!(
        t.on(1, Event::CampCheck { seat: seat(2), target: seat(4), camp: Camp::Bandits }),
        "not on the night it is cast"
    );
    assert_eq!(t.state.carry().hex_next, set(&[seat(2)]));
    t.night(2);
    assert!(t.on(2, Event::HexHolds { seat: seat(2) }));
    assert_eq!(t.failed_on(2, seat(2)), Some(blocked(Status::Hexed, None)));
    t.night(3);
    assert_eq!(t.failed_on(3, seat(2)), None);
    assert!(t.on(3, Event::CampCheck { seat: seat(2), target: seat(3), camp: Camp::Town }));
}

#[test]
fn e18_a_heal_on_the_night_of_the_hex_lifts_it() {
    // Boss 0, Witch 1, Detective 2, Doctor 3, Psycho 4.
    let mut t = table(&[R::Boss, R::Witch, R::Detective, R::Doctor, R::Psycho], &[]);
    t.p.at(1, seat(1), act(seat(2))).at(1, seat(3), act(seat(2)));
    t.p.at(2, seat(2), act(seat(0)));
    t.night(1);
    assert!(t.on(1, Event::HexLifted { seat: seat(2) }));
    t.night(2);
    assert!(!t.has(Event::HexHolds { seat: seat(2) }));
    assert!(t.on(2, Event::CampCheck { seat: seat(2), target: seat(0), camp: Camp::Mafia }));
}

#[test]
fn e18_the_hex_of_a_witch_who_then_dies_still_holds() {
    // Killed the same night: Boss 0, Witch 1, Detective 2, citizen 3, Psycho 4.
    let roles = [R::Boss, R::Witch, R::Detective, R::Citizen, R::Psycho];
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(0), kill(seat(1))).at(1, seat(1), act(seat(2)));
    t.p.at(2, seat(2), act(seat(0)));
    t.night(1);
    assert_eq!(t.deaths(), vec![(seat(1), DeathCause::Killed)]);
    t.night(2);
    assert_eq!(t.failed_on(2, seat(2)), Some(blocked(Status::Hexed, None)));
    // Lynched the next day.
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(1), act(seat(2))).at(2, seat(2), act(seat(0)));
    t.p.day_votes(2, &[f(seat(1)), P, f(seat(1)), f(seat(1)), f(seat(1))]);
    t.night(1);
    t.day(2);
    assert_eq!(t.deaths(), vec![(seat(1), DeathCause::Lynched)]);
    t.night(2);
    assert_eq!(t.failed_on(2, seat(2)), Some(blocked(Status::Hexed, None)));
}

#[test]
fn e18_witch_fails_when_robbed_beaten_or_invited() {
    // Boss 0, Thief 1, Witch 2, Detective 3, Psycho 4, Thug 5.
    let roles = [R::Boss, R::Thief, R::Witch, R::Detective, R::Psycho, R::Thug];
    for (blocker, status) in [(1, Status::Robbed), (5, Status::Beaten), (4, Status::Invited)].map(|(b, s)| (seat(b), s))
    {
        let n = one_night(&roles, &[(seat(2), act(seat(3))), (blocker, act(seat(2)))]);
        assert_eq!(n.failed(seat(2)), Some(blocked(status, Some(blocker))));
        assert_eq!(n.st.carry().hex_next, PlayerSet::EMPTY);
    }
}

#[test]
fn e18_a_hexed_maker_of_a_control_move_fails() {
    // E29: the carried hex blocks. Boss 0, Witch 1, Thug 2, Psycho 3, Detective 4.
    let mut sc = scenario(
        &[R::Boss, R::Witch, R::Thug, R::Psycho, R::Detective],
        &[(seat(2), act(seat(4))), (seat(3), act(seat(4))), (seat(4), act(seat(0)))],
    );
    sc.carry.hexed = vec![seat(2), seat(3)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Hexed, None)));
    assert_eq!(n.failed(seat(3)), Some(blocked(Status::Hexed, None)));
    assert!(n.has(Event::CampCheck { seat: seat(4), target: seat(0), camp: Camp::Mafia }));
}

// ---------------------------------------------------------------------------
// E19 Role Prostitute
// ---------------------------------------------------------------------------

#[test]
fn e19_no_move_on_night_one() {
    // Boss 0, Prostitute 1, Detective 2 (lynched on day 1), Psycho 3.
    let mut sc = scenario(&[R::Boss, R::Prostitute, R::Detective, R::Psycho], &[]);
    sc.carry.dead = vec![seat(2)];
    let n = resolve(&sc);
    assert_eq!(n.st.check_move(seat(1), &borrow(R::Detective, seat(0))), Err(MoveError::BorrowNightOne));
    assert!(n.obs(seat(1)).borrowable().is_empty());
    sc.moves = vec![(seat(1), borrow(R::Detective, seat(0)))];
    assert_eq!(resolve_scenario(&sc, &mut Vec::new()).unwrap_err().problems[0].path, "moves.0");
}

#[test]
fn e19_from_night_two_she_makes_a_dead_town_roles_move_once() {
    let mut sc =
        scenario(&[R::Boss, R::Prostitute, R::Detective, R::Psycho], &[(seat(1), borrow(R::Detective, seat(0)))]);
    sc.night = 2;
    sc.carry.dead = vec![seat(2)];
    let n = resolve(&sc);
    assert!(n.has(Event::Borrowed { seat: seat(1), role: R::Detective }));
    assert!(n.has(Event::CampCheck { seat: seat(1), target: seat(0), camp: Camp::Mafia }));
    assert_eq!(n.obs(seat(1)).found_in_camp(Camp::Mafia), set(&[seat(0)]));
    assert!(n.st.carry().borrowed.contains(R::Detective));
    // Each dead role at most once.
    assert_eq!(n.st.check_move(seat(1), &borrow(R::Detective, seat(3))), Err(MoveError::CannotBorrow(R::Detective)));
    assert!(n.obs(seat(1)).borrowable().is_empty());
    sc.carry.borrowed = vec![R::Detective];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    assert_eq!(resolve_scenario(&sc, &mut Vec::new()).unwrap_err().problems[0].path, "moves.0");
}

#[test]
fn e19_only_dead_town_roles_never_the_lucky_or_the_deputy() {
    // Boss 0, Prostitute 1, Detective 2, Lucky 3, Deputy 4, Thief 5, Doctor 6, Psycho 7, citizen 8.
    let mut sc = scenario(
        &[R::Boss, R::Prostitute, R::Detective, R::Lucky, R::Deputy, R::Thief, R::Doctor, R::Psycho, R::Citizen],
        &[],
    );
    sc.night = 3;
    sc.carry.dead = vec![seat(3), seat(4), seat(5), seat(8)];
    let n = resolve(&sc);
    assert!(n.obs(seat(1)).borrowable().is_empty());
    for r in [R::Lucky, R::Deputy, R::Thief, R::Detective, R::Doctor, R::Citizen] {
        assert_eq!(n.st.check_move(seat(1), &borrow(r, seat(0))), Err(MoveError::CannotBorrow(r)), "{r}");
    }
    assert_eq!(n.st.check_move(seat(1), &act(seat(0))), Err(MoveError::BorrowMissing));
    // Another role cannot borrow.
    assert_eq!(n.st.check_move(seat(6), &borrow(R::Detective, seat(0))), Err(MoveError::NotABorrower(R::Doctor)));
}

#[test]
fn e19_a_blocked_borrow_is_still_used_up() {
    // Decision: the borrow is used up when submitted.
    let mut sc = scenario(
        &[R::Boss, R::Prostitute, R::Detective, R::Psycho, R::Thief],
        &[(seat(4), act(seat(1))), (seat(1), borrow(R::Detective, seat(0)))],
    );
    sc.night = 2;
    sc.carry.dead = vec![seat(2)];
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Robbed, Some(seat(4)))));
    assert!(n.obs(seat(1)).checked().is_empty());
    assert!(n.st.carry().borrowed.contains(R::Detective));
}

#[test]
fn e19_the_borrowed_move_keeps_its_conditions() {
    // A borrowed heal cannot reach tonight's guest (E23). Boss 0, Prostitute 1, Doctor 2, Psycho 3, citizen 4.
    let mut sc = scenario(
        &[R::Boss, R::Prostitute, R::Doctor, R::Psycho, R::Citizen],
        &[(seat(3), act(seat(4))), (seat(1), borrow(R::Doctor, seat(4)))],
    );
    sc.night = 2;
    sc.carry.dead = vec![seat(2)];
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(1)), Some(Fail::TargetInvited));
}

// ---------------------------------------------------------------------------
// E20 Shooter
// ---------------------------------------------------------------------------

#[test]
fn e20_the_shooter_kills() {
    let n = one_night(&[R::Boss, R::Shooter, R::Citizen, R::Psycho], &[(seat(1), act(seat(0)))]);
    assert_eq!(n.killed(), set(&[seat(0)]));
    assert!(n.has(Event::NightKill { target: seat(0), by: Killer::Shooter(seat(1)) }));
    // He may shoot anybody, his own camp included.
    let n = one_night(&[R::Boss, R::Shooter, R::Citizen, R::Psycho], &[(seat(1), act(seat(2)))]);
    assert_eq!(n.killed(), set(&[seat(2)]));
}

#[test]
fn e20_shooter_fails_when_beaten_robbed_invited_or_hexed() {
    // Boss 0, Thief 1, Shooter 2, Witch 3, Psycho 4, Thug 5, citizen 6.
    let roles = [R::Boss, R::Thief, R::Shooter, R::Witch, R::Psycho, R::Thug, R::Citizen];
    let cases: [(Option<Seat>, Fail); 4] = [
        (Some(seat(5)), blocked(Status::Beaten, Some(seat(5)))),
        (Some(seat(1)), blocked(Status::Robbed, Some(seat(1)))),
        (Some(seat(4)), blocked(Status::Invited, Some(seat(4)))),
        (None, blocked(Status::Hexed, None)),
    ];
    for (blocker, want) in cases {
        let mut moves = vec![(seat(2), act(seat(6)))];
        moves.extend(blocker.map(|s| (s, act(seat(2)))));
        let mut sc = scenario(&roles, &moves);
        if blocker.is_none() {
            sc.carry.hexed = vec![seat(2)];
            sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
        }
        let n = resolve(&sc);
        assert_eq!(n.failed(seat(2)), Some(want));
        assert_eq!(n.killed(), PlayerSet::EMPTY);
    }
}

#[test]
fn e20_the_shot_fails_on_the_beaten_invited_healed_or_guarded() {
    // Boss 0, Guard 1, Shooter 2, Doctor 3, Psycho 4, Thug 5, citizen 6.
    let roles = [R::Boss, R::Guard, R::Shooter, R::Doctor, R::Psycho, R::Thug, R::Citizen];
    let n = one_night(&roles, &[(seat(5), act(seat(6))), (seat(2), act(seat(6)))]);
    assert_eq!(n.failed(seat(2)), Some(Fail::TargetBeaten));
    for (victim, (s, t), reason) in
        [(6, (4, 6), Fail::TargetInvited), (6, (3, 6), Fail::TargetHealed), (0, (1, 0), Fail::TargetGuarded)]
            .map(|(v, (s, t), r)| (seat(v), (seat(s), seat(t)), r))
    {
        let n = one_night(&roles, &[(s, act(t)), (seat(2), act(victim))]);
        assert!(n.has(Event::KillFailed { target: victim, by: Killer::Shooter(seat(2)), reason }), "{reason:?}");
        assert_eq!(n.killed(), PlayerSet::EMPTY);
    }
}

// ---------------------------------------------------------------------------
// E21 Lucky
// ---------------------------------------------------------------------------

#[test]
fn e21_every_shot_of_one_night_costs_the_one_spare_life() {
    // Boss 0, Shooter 1, Lucky 2, citizen 3, Psycho 4.
    let n = one_night(
        &[R::Boss, R::Shooter, R::Lucky, R::Citizen, R::Psycho],
        &[(seat(0), kill(seat(2))), (seat(1), act(seat(2)))],
    );
    assert!(n.has(Event::NightKill { target: seat(2), by: mafia_kill(seat(0)) }));
    assert!(n.has(Event::NightKill { target: seat(2), by: Killer::Shooter(seat(1)) }));
    assert_eq!(n.count(|e| matches!(e, Event::SpareLife { .. })), 1);
    assert_eq!(n.killed(), PlayerSet::EMPTY);
    assert!(!n.st.carry().spare_life.contains(seat(2)));
}

#[test]
fn e21_the_spare_life_is_used_once() {
    let roles = [R::Boss, R::Shooter, R::Lucky, R::Citizen, R::Psycho];
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(0), kill(seat(2))).at(2, seat(0), kill(seat(2)));
    assert!(t.obs(seat(2)).has_spare_life());
    t.night(1);
    assert!(t.on(1, Event::SpareLife { seat: seat(2) }));
    assert!(t.deaths().is_empty());
    t.night(2);
    assert_eq!(t.deaths(), vec![(seat(2), DeathCause::Killed)]);
    // The same carried in a scenario.
    let mut sc = scenario(&roles, &[(seat(0), kill(seat(2)))]);
    sc.carry.spare_life_spent = vec![seat(2)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    assert_eq!(resolve(&sc).killed(), set(&[seat(2)]));
}

#[test]
fn e21_no_spare_life_against_the_lynch() {
    // Boss 0, Lucky 1, citizens 2 and 3, Psycho 4.
    let mut t = table(&[R::Boss, R::Lucky, R::Citizen, R::Citizen, R::Psycho], &[]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(0)), f(seat(1)), f(seat(1)), f(seat(1))]);
    t.night(1);
    t.day(2);
    assert_eq!(t.deaths(), vec![(seat(1), DeathCause::Lynched)]);
    assert!(!t.has(Event::SpareLife { seat: seat(1) }));
}

#[test]
fn e21_a_healed_lucky_keeps_his_spare_life() {
    // E30.5: the spare life absorbs only what reaches him. Boss 0, Doctor 1, Lucky 2, Psycho 3.
    let n = one_night(&[R::Boss, R::Doctor, R::Lucky, R::Psycho], &[(seat(1), act(seat(2))), (seat(0), kill(seat(2)))]);
    assert!(n.has(Event::KillFailed { target: seat(2), by: mafia_kill(seat(0)), reason: Fail::TargetHealed }));
    assert!(n.st.carry().spare_life.contains(seat(2)));
}

#[test]
fn e21_the_spare_life_absorbs_the_guests_death() {
    // Decision: the guest's death is a kill; the spare life absorbs it.
    let mut sc = scenario(&[R::Boss, R::Psycho, R::Lucky, R::Citizen], &[]);
    sc.carry.guest = Some(seat(2));
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert!(n.has(Event::NightKill { target: seat(2), by: Killer::Guest(seat(1)) }));
    assert!(n.has(Event::SpareLife { seat: seat(2) }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
}

// ---------------------------------------------------------------------------
// E22 Sleepwalker
// ---------------------------------------------------------------------------

#[test]
fn e22_sleepwalker_learns_the_camps_of_successful_visitors() {
    // Boss 0, Sleepwalker 1, Detective 2, Miner 3, citizen 4.
    let roles = [R::Boss, R::Sleepwalker, R::Detective, R::Miner, R::Citizen];
    let n = one_night(
        &roles,
        &[(seat(1), act(seat(4))), (seat(2), act(seat(4))), (seat(0), act(seat(4))), (seat(3), act(seat(4)))],
    );
    assert_eq!(n.report(seat(1)), Some(Report::Watch { target: seat(4), camps: [1, 1, 1] }));
    let n = one_night(&roles, &[(seat(1), act(seat(4))), (seat(3), act(seat(4)))]);
    assert_eq!(n.report(seat(1)), Some(Report::Watch { target: seat(4), camps: [0, 0, 1] }));
}

#[test]
fn e22_two_town_visitors_are_two_reports() {
    // The seed: he learns the status «каждого, кто заходил» — of each
    // visitor, so two town visitors are two, not one "town".
    // Boss 0, Sleepwalker 1, Detective 2, Doctor 3, citizen 4, Journalist 5, citizen 6.
    let roles = [R::Boss, R::Sleepwalker, R::Detective, R::Doctor, R::Citizen, R::Journalist, R::Citizen];
    let n = one_night(&roles, &[(seat(1), act(seat(4))), (seat(2), act(seat(4))), (seat(3), act(seat(4)))]);
    assert_eq!(n.report(seat(1)), Some(Report::Watch { target: seat(4), camps: [2, 0, 0] }));
    // Three town visitors (the Journalist's comparison visits both houses) and the Boss.
    let n = one_night(
        &roles,
        &[
            (seat(1), act(seat(4))),
            (seat(2), act(seat(4))),
            (seat(3), act(seat(4))),
            (seat(5), act2(seat(6), seat(4))),
            (seat(0), act(seat(4))),
        ],
    );
    assert_eq!(n.report(seat(1)), Some(Report::Watch { target: seat(4), camps: [3, 1, 0] }));
}

#[test]
fn e22_a_failed_move_leaves_no_trace() {
    // E30. Boss 0, Thief 1, Sleepwalker 2, Detective 3, Witch 4, citizen 5, Psycho 6.
    // The Detective is hexed; the Thief is never seen.
    let mut sc = scenario(
        &[R::Boss, R::Thief, R::Sleepwalker, R::Detective, R::Witch, R::Citizen, R::Psycho],
        &[(seat(2), act(seat(5))), (seat(1), act(seat(5))), (seat(3), act(seat(5)))],
    );
    sc.carry.hexed = vec![seat(3)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(3)), Some(blocked(Status::Hexed, None)));
    assert_eq!(n.report(seat(2)), Some(Report::Watch { target: seat(5), camps: [0, 0, 0] }));
}

#[test]
fn e22_the_camp_kill_shows_the_deciders_camp() {
    let n = one_night(
        &[R::Boss, R::Sleepwalker, R::Citizen, R::Psycho],
        &[(seat(0), kill(seat(2))), (seat(1), act(seat(2)))],
    );
    assert_eq!(n.killed(), set(&[seat(2)]));
    assert_eq!(n.report(seat(1)), Some(Report::Watch { target: seat(2), camps: [0, 1, 0] }));
}

#[test]
fn e22_the_thug_beating_the_watched_beats_the_sleepwalker_too() {
    // Boss 0, Sleepwalker 1, citizen 2, Thug 3, Psycho 4. Beaten, he is unreachable (E6).
    let n = one_night(
        &[R::Boss, R::Sleepwalker, R::Citizen, R::Thug, R::Psycho],
        &[(seat(3), act(seat(2))), (seat(1), act(seat(2))), (seat(0), kill(seat(1)))],
    );
    assert!(n.has(Event::BeatenWatching { seat: seat(1) }));
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Beaten, Some(seat(3)))));
    assert_eq!(n.report(seat(1)), None);
    assert!(n.has(Event::KillFailed { target: seat(1), by: mafia_kill(seat(0)), reason: Fail::TargetBeaten }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
}

#[test]
fn e22_sleepwalker_fails_when_robbed_invited_or_hexed() {
    // Boss 0, Thief 1, Sleepwalker 2, Witch 3, Psycho 4, citizen 5.
    let roles = [R::Boss, R::Thief, R::Sleepwalker, R::Witch, R::Psycho, R::Citizen];
    for (blocker, status) in [(1, Status::Robbed), (4, Status::Invited)].map(|(b, s)| (seat(b), s)) {
        let n = one_night(&roles, &[(seat(2), act(seat(5))), (blocker, act(seat(2)))]);
        assert_eq!(n.failed(seat(2)), Some(blocked(status, Some(blocker))));
        assert_eq!(n.report(seat(2)), None);
    }
    let mut sc = scenario(&roles, &[(seat(2), act(seat(5)))]);
    sc.carry.hexed = vec![seat(2)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Hexed, None)));
    assert_eq!(n.report(seat(2)), None);
}

// ---------------------------------------------------------------------------
// E23 Psycho
// ---------------------------------------------------------------------------

#[test]
fn e23_the_guest_is_blocked_and_cannot_be_healed_tonight() {
    // Boss 0, Psycho 1, Detective 2, Doctor 3, citizen 4.
    let n = one_night(
        &[R::Boss, R::Psycho, R::Detective, R::Doctor, R::Citizen],
        &[(seat(1), act(seat(2))), (seat(2), act(seat(0))), (seat(3), act(seat(2)))],
    );
    assert!(n.has(Event::StatusSet { seat: seat(2), status: Status::Invited, by: seat(1) }));
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Invited, Some(seat(1)))));
    assert_eq!(n.failed(seat(3)), Some(Fail::TargetInvited));
    assert_eq!(n.killed(), PlayerSet::EMPTY, "the guest dies the next night, not tonight");
    assert_eq!(n.st.carry().guest, Some(seat(2)));
}

#[test]
fn e23_the_guest_dies_next_night_unless_healed() {
    // Boss 0, Psycho 1, Detective 2, Doctor 3, citizen 4.
    let roles = [R::Boss, R::Psycho, R::Detective, R::Doctor, R::Citizen];
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(1), act(seat(2)));
    t.night(1);
    assert!(t.deaths().is_empty());
    t.night(2);
    assert!(t.on(2, Event::NightKill { target: seat(2), by: Killer::Guest(seat(1)) }));
    assert_eq!(t.deaths(), vec![(seat(2), DeathCause::Killed)]);
    // Healed on the next night he lives.
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(1), act(seat(2))).at(2, seat(3), act(seat(2)));
    t.night(1);
    t.night(2);
    assert!(t.on(2, Event::GuestSaved { seat: seat(2), by: seat(3) }));
    assert!(t.deaths().is_empty());
    assert_eq!(t.state.carry().guest, None);
}

#[test]
fn e23_psycho_fails_when_robbed_or_hexed() {
    // Boss 0, Thief 1, Psycho 2, Witch 3, Detective 4.
    let roles = [R::Boss, R::Thief, R::Psycho, R::Witch, R::Detective];
    let n = one_night(&roles, &[(seat(1), act(seat(2))), (seat(2), act(seat(4))), (seat(4), act(seat(0)))]);
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    assert_eq!(n.st.carry().guest, None);
    assert!(n.has(Event::CampCheck { seat: seat(4), target: seat(0), camp: Camp::Mafia }));
    let mut sc = scenario(&roles, &[(seat(2), act(seat(4)))]);
    sc.carry.hexed = vec![seat(2)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Hexed, None)));
    assert_eq!(n.st.carry().guest, None);
}

#[test]
fn e23_the_guard_does_not_stop_the_guests_death() {
    // Decision: only a heal saves the guest. Boss 0, Guard 1, Psycho 2, Detective 3.
    let mut sc = scenario(&[R::Boss, R::Guard, R::Psycho, R::Detective], &[(seat(1), act(seat(0)))]);
    sc.carry.guest = Some(seat(0));
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert!(n.has(Event::Guarded { seat: seat(0), by: seat(1) }));
    assert_eq!(n.killed(), set(&[seat(0)]));
    assert_eq!(n.res.guests, set(&[seat(0)]));
}

// ---------------------------------------------------------------------------
// E24 Blast
// ---------------------------------------------------------------------------

/// Boss 0, Psycho 1, Doctor 2, Detective 3, Shooter 4, citizen 5, Thief 6;
/// the Psycho invites the Detective.
const BLAST: [Role; 7] = [R::Boss, R::Psycho, R::Doctor, R::Detective, R::Shooter, R::Citizen, R::Thief];

#[test]
fn e24_killing_the_psycho_kills_his_guest() {
    let n = one_night(&BLAST, &[(seat(1), act(seat(3))), (seat(0), kill(seat(1)))]);
    assert_eq!(n.killed(), set(&[seat(1), seat(3)]));
    assert!(n.has(Event::NightKill { target: seat(3), by: Killer::Blast(seat(1)) }));
    assert_eq!(n.res.guests, set(&[seat(3)]));
    // The Shooter's try at him does it too.
    let n = one_night(&BLAST, &[(seat(1), act(seat(3))), (seat(4), act(seat(1)))]);
    assert_eq!(n.killed(), set(&[seat(1), seat(3)]));
}

#[test]
fn e24_a_try_that_fails_still_blasts() {
    // The Psycho is healed and lives; the try at him takes the guest.
    let n = one_night(&BLAST, &[(seat(1), act(seat(3))), (seat(2), act(seat(1))), (seat(0), kill(seat(1)))]);
    assert!(n.has(Event::KillFailed { target: seat(1), by: mafia_kill(seat(0)), reason: Fail::TargetHealed }));
    assert_eq!(n.killed(), set(&[seat(3)]));
}

#[test]
fn e24_a_blocked_shooter_tries_nothing() {
    // Decision: only an unblocked Shooter aiming at the Psycho counts as a try.
    let n = one_night(&BLAST, &[(seat(1), act(seat(3))), (seat(6), act(seat(4))), (seat(4), act(seat(1)))]);
    assert_eq!(n.failed(seat(4)), Some(blocked(Status::Robbed, Some(seat(6)))));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
    // No guest, no blast: a robbed Psycho invites nobody.
    let n = one_night(&BLAST, &[(seat(6), act(seat(1))), (seat(1), act(seat(3))), (seat(0), kill(seat(1)))]);
    assert_eq!(n.killed(), set(&[seat(1)]));
}

#[test]
fn e24_by_default_a_heal_does_not_save_the_guest_from_the_blast() {
    // Decision (blast_heal = false): the guest cannot be healed that night (E23).
    let n = one_night(&BLAST, &[(seat(1), act(seat(3))), (seat(2), act(seat(3))), (seat(0), kill(seat(1)))]);
    assert_eq!(n.failed(seat(2)), Some(Fail::TargetInvited));
    assert_eq!(n.killed(), set(&[seat(1), seat(3)]));
}

#[test]
fn e24_blast_heal_lets_a_heal_save_the_guest() {
    // The seed's "unless healed", as the setting `blast_heal = true`.
    let mut sc = scenario(
        &BLAST,
        &[(seat(1), act(seat(3))), (seat(2), act(seat(3))), (seat(0), kill(seat(1))), (seat(3), act(seat(0)))],
    );
    sc.rules.set("blast_heal", "true").unwrap();
    let n = resolve(&sc);
    assert!(n.has(Event::KillFailed { target: seat(3), by: Killer::Blast(seat(1)), reason: Fail::TargetHealed }));
    assert_eq!(n.killed(), set(&[seat(1)]));
    // The heal does not free the guest tonight: he is still blocked.
    assert_eq!(n.failed(seat(3)), Some(blocked(Status::Invited, Some(seat(1)))));
    // E23 frees no guest when his Psycho dies: he is still due to die next night unless healed then.
    assert_eq!(n.st.carry().guest, Some(seat(3)));
}

// ---------------------------------------------------------------------------
// E25 Miner
// ---------------------------------------------------------------------------

/// The table of the E25/E28 day tests: Miner 0, Boss 1, citizens 2–6,
/// Chosen 7, Trickster 8, Doctor 9.
const MINE_TABLE: [R; 10] =
    [R::Miner, R::Boss, R::Citizen, R::Citizen, R::Citizen, R::Citizen, R::Citizen, R::Chosen, R::Trickster, R::Doctor];

/// [`MINE_TABLE`]. Night 1: the Miner mines citizen 3 (plus `night1`); day
/// 2 is played with `votes`.
fn mine_day(night1: &[(Seat, NightChoice)], votes: &[Vote]) -> Table {
    mine_day_with(&[], false, night1, votes)
}

/// [`mine_day`] under `rules`, the hang-both votes hanging both if `hang`.
fn mine_day_with(rules: &[(&str, &str)], hang: bool, night1: &[(Seat, NightChoice)], votes: &[Vote]) -> Table {
    let mut t = table(&MINE_TABLE, rules);
    t.p.hang = hang;
    t.p.at(1, seat(0), act(seat(3)));
    for &(s, c) in night1 {
        t.p.at(1, s, c);
    }
    t.p.day_votes(2, votes);
    t.night(1);
    assert_eq!(t.state.carry().mines, set(&[seat(3)]));
    t.day(2);
    t
}

#[test]
fn e25_a_mined_player_with_three_votes_dies_though_not_lynched() {
    // 3 votes on 3, 4 on 4.
    let t =
        mine_day(&[], &[f(seat(3)), f(seat(3)), f(seat(3)), P, P, f(seat(4)), f(seat(4)), P, f(seat(4)), f(seat(4))]);
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(4))]);
    assert!(t.has(Event::MineExplodes { seat: seat(3), votes: 3 }));
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched), (seat(3), DeathCause::Mined)]);
    let mut spoke = t.p.last_words.clone();
    spoke.sort_unstable();
    assert_eq!(spoke, [3, 4].map(Seat::new), "C13: both leave with a last word");
}

/// Day 2 of [`mine_day`]: 3 open votes on the mined 3; 4 and 5 tied on
/// 4 (on 4 the open votes of 5 and the Chosen, and his 2 secret votes), ten alive, so
/// C12.3's hang-both vote, which hangs both.
fn three_leave() -> [Vote; 10] {
    [f(seat(3)), f(seat(3)), f(seat(3)), f(seat(5)), f(seat(5)), f(seat(4)), f(seat(5)), f(seat(4)), f(seat(5)), P]
}

#[test]
fn e25_c12_two_hanged_and_a_third_mined_leave_by_default() {
    // Decision (issue 35, `lynch_limit = lynch`): C12.6 bounds the lynch only.
    let t = mine_day_with(&[], true, &[], &three_leave());
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(4), seat(5)]))]);
    assert!(t.has(Event::MineExplodes { seat: seat(3), votes: 3 }));
    assert_eq!(
        t.deaths(),
        vec![(seat(4), DeathCause::Lynched), (seat(5), DeathCause::Lynched), (seat(3), DeathCause::Mined)]
    );
}

#[test]
fn e25_c12_lynch_limit_day_keeps_the_mine_from_a_third() {
    // `lynch_limit = day`: "never more than two leave" bounds the day, so
    // with two hanged the mine on a third does not go off.
    let t = mine_day_with(&[("lynch_limit", "day")], true, &[], &three_leave());
    assert_eq!(t.count(|e| matches!(e, Event::MineExplodes { .. })), 0);
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched), (seat(5), DeathCause::Lynched)]);
    // One hanged and one mined are two: the mine goes off as ever.
    let t = mine_day_with(
        &[("lynch_limit", "day")],
        true,
        &[],
        &[f(seat(3)), f(seat(3)), f(seat(3)), P, P, f(seat(4)), f(seat(4)), P, f(seat(4)), f(seat(4))],
    );
    assert!(t.has(Event::MineExplodes { seat: seat(3), votes: 3 }));
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched), (seat(3), DeathCause::Mined)]);
    // Pardoned both: the mine goes off.
    let t = mine_day_with(&[("lynch_limit", "day")], false, &[], &three_leave());
    assert_eq!(t.deaths(), vec![(seat(3), DeathCause::Mined)]);
}

/// Miner 0, Boss 1, citizens 2–6, Chosen 7, Trickster 8, Doctor 9, under
/// `rules`, with `night1`'s moves. Day 2 ties 2–2–2 between 4, 5 and 6
/// (the Chosen passes); the runoff's voters 0–3 and 7–9 vote as `runoff`.
fn runoff_day(rules: &[(&str, &str)], night1: &[(Seat, NightChoice)], runoff: [u8; 7]) -> Table {
    let mut t = table(&MINE_TABLE, rules);
    for &(s, c) in night1 {
        t.p.at(1, s, c);
    }
    t.p.day_votes(2, &[f(seat(4)), f(seat(4)), f(seat(5)), f(seat(5)), P, P, P, P, f(seat(6)), f(seat(6))]);
    for (v, c) in [0, 1, 2, 3, 7, 8, 9].into_iter().zip(runoff) {
        t.p.runoffs.insert(seat(v), seat(c));
    }
    t.night(1);
    t.day(2);
    t
}

#[test]
fn e28_c12_a_removed_vote_counts_in_the_runoff_by_default() {
    // Decision (issue 35, `runoff_marks = plain`): the Trickster's removal
    // is the day's count only. The Chosen (7), tricked, decides the runoff.
    let t = runoff_day(&[], &[(seat(8), act(seat(7)))], [4, 4, 5, 5, 6, 6, 6]);
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(4), seat(5), seat(6)]))]);
    assert_eq!(t.deaths(), vec![(seat(6), DeathCause::Lynched)]);
}

#[test]
fn e28_c12_runoff_marks_remove_the_vote_from_the_runoff() {
    // `runoff_marks = marked`: his runoff vote does not count either, so
    // the revote ties 2–2–2 again, every round, and nobody is hanged.
    let t = runoff_day(&[("runoff_marks", "marked")], &[(seat(8), act(seat(7)))], [4, 4, 5, 5, 6, 6, 6]);
    assert!(t.has(Event::RunoffVote { seat: seat(7), choice: seat(6) }), "he votes; it is not counted");
    assert!(t.has(Event::RunoffExhausted));
    assert_eq!(t.deaths(), Vec::<(Seat, DeathCause)>::new());
}

#[test]
fn e28_c12_runoff_marks_remove_the_choice_from_the_hang_both_vote() {
    // Day 2 of `runoff_day`'s table ties 4 and 5 at two votes, ten alive:
    // C12.3's hang-both vote, 4 to hang (0–3) against 4 to pardon (6–9),
    // a tie that pardons. The Trickster picked 9 (who passed by day).
    let hanged = |rules: &[(&str, &str)]| {
        let mut t = table(&MINE_TABLE, rules);
        t.p.at(1, seat(8), act(seat(9)));
        t.p.day_votes(2, &[f(seat(4)), f(seat(4)), f(seat(5)), f(seat(5)), P, P, P, P, P, P]);
        for (v, h) in [(0, true), (1, true), (2, true), (3, true), (6, false), (7, false), (8, false), (9, false)] {
            t.p.hangs.insert(seat(v), h);
        }
        t.night(1);
        t.day(2);
        assert!(t.has(Event::HangChoice { seat: seat(9), hang: false }), "he chooses; it is not counted");
        t.deaths()
    };
    assert_eq!(hanged(&[]), Vec::<(Seat, DeathCause)>::new(), "plain: 4–4 pardons");
    assert_eq!(
        hanged(&[("runoff_marks", "marked")]),
        vec![(seat(4), DeathCause::Lynched), (seat(5), DeathCause::Lynched)],
        "marked: 4–3 hangs both"
    );
}

#[test]
fn e25_c12_a_runoff_never_sets_off_a_mine_by_default() {
    // Decision (issue 35): the mine reads the day's count; 4, mined, has 2 there and 3 in the runoff.
    let t = runoff_day(&[], &[(seat(0), act(seat(4)))], [4, 4, 4, 6, 6, 6, 6]);
    assert_eq!(t.count(|e| matches!(e, Event::MineExplodes { .. })), 0);
    assert_eq!(t.deaths(), vec![(seat(6), DeathCause::Lynched)]);
}

#[test]
fn e25_c12_runoff_marks_let_a_runoff_set_off_a_mine() {
    // `runoff_marks = marked`: 3 runoff votes on the mined 4 set it off.
    let t = runoff_day(&[("runoff_marks", "marked")], &[(seat(0), act(seat(4)))], [4, 4, 4, 6, 6, 6, 6]);
    assert!(t.has(Event::MineExplodes { seat: seat(4), votes: 3 }));
    assert_eq!(t.deaths(), vec![(seat(6), DeathCause::Lynched), (seat(4), DeathCause::Mined)]);
}

#[test]
fn e25_a_mined_player_lynched_dies_once() {
    let t = mine_day(&[], &[f(seat(3)), f(seat(3)), f(seat(3)), P, P, f(seat(3)), P, P, P, P]);
    assert!(t.has(Event::MineExplodes { seat: seat(3), votes: 4 }));
    assert_eq!(t.deaths(), vec![(seat(3), DeathCause::Lynched)]);
}

#[test]
fn e25_two_votes_are_not_enough() {
    let t = mine_day(&[], &[f(seat(3)), f(seat(3)), P, P, P, f(seat(4)), f(seat(4)), P, f(seat(4)), P]);
    assert_eq!(t.count(|e| matches!(e, Event::MineExplodes { .. })), 0);
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched)]);
}

#[test]
fn e25_healing_does_not_help() {
    let t = mine_day(
        &[(seat(9), act(seat(3)))],
        &[f(seat(3)), f(seat(3)), f(seat(3)), P, P, f(seat(4)), f(seat(4)), P, f(seat(4)), f(seat(4))],
    );
    assert!(t.on(1, Event::Healed { seat: seat(3), by: seat(9) }));
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched), (seat(3), DeathCause::Mined)]);
}

#[test]
fn e25_the_chosens_secret_votes_count() {
    // Decision: one open vote (the Chosen's) plus his 2 secret votes make 3.
    let t = mine_day(&[], &[P, P, P, P, P, f(seat(4)), f(seat(4)), f(seat(3)), f(seat(4)), f(seat(4))]);
    assert!(t.has(Event::SecretVotes { seat: seat(7), target: seat(3), votes: 2 }));
    assert!(t.has(Event::MineExplodes { seat: seat(3), votes: 3 }));
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched), (seat(3), DeathCause::Mined)]);
}

#[test]
fn e25_a_vote_removed_by_the_trickster_does_not_count() {
    // Decision: three open votes on 3, but the Trickster removed the Miner's.
    let t = mine_day(
        &[(seat(8), act(seat(0)))],
        &[f(seat(3)), f(seat(3)), f(seat(3)), P, P, f(seat(4)), f(seat(4)), P, f(seat(4)), f(seat(4))],
    );
    assert!(t.has(Event::VoteRemoved { seat: seat(0) }));
    assert_eq!(t.count(|e| matches!(e, Event::MineExplodes { .. })), 0);
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched)]);
}

#[test]
fn e25_the_mine_lasts_for_the_next_day_only() {
    let roles = [R::Miner, R::Boss, R::Citizen, R::Citizen, R::Citizen, R::Citizen, R::Citizen];
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(0), act(seat(3)));
    t.p.day_votes(3, &[f(seat(3)), f(seat(3)), f(seat(3)), P, f(seat(5)), f(seat(4)), f(seat(4))]);
    t.night(1);
    t.day(2);
    t.night(2);
    assert_eq!(t.state.carry().mines, PlayerSet::EMPTY);
    t.day(3);
    assert_eq!(t.lynches(), vec![LynchResult::AllPass, LynchResult::Lynched(seat(3))]);
    assert_eq!(t.count(|e| matches!(e, Event::MineExplodes { .. })), 0);
}

// ---------------------------------------------------------------------------
// E26 Thug
// ---------------------------------------------------------------------------

#[test]
fn e26_the_beaten_player_is_blocked_and_unreachable() {
    // Boss 0, Thug 1, Detective 2, Psycho 3.
    let n = one_night(
        &[R::Boss, R::Thug, R::Detective, R::Psycho],
        &[(seat(1), act(seat(2))), (seat(2), act(seat(0))), (seat(0), kill(seat(2)))],
    );
    assert!(n.has(Event::StatusSet { seat: seat(2), status: Status::Beaten, by: seat(1) }));
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Beaten, Some(seat(1)))));
    assert!(n.has(Event::KillFailed { target: seat(2), by: mafia_kill(seat(0)), reason: Fail::TargetBeaten }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
}

#[test]
fn e26_the_thug_may_beat_himself() {
    // Boss 0, Thug 1, Shooter 2, Psycho 3.
    let n = one_night(
        &[R::Boss, R::Thug, R::Shooter, R::Psycho],
        &[(seat(1), act(seat(1))), (seat(2), act(seat(1))), (seat(0), kill(seat(1)))],
    );
    assert!(n.has(Event::StatusSet { seat: seat(1), status: Status::Beaten, by: seat(1) }));
    assert_eq!(n.failed(seat(2)), Some(Fail::TargetBeaten));
    assert!(n.has(Event::KillFailed { target: seat(1), by: mafia_kill(seat(0)), reason: Fail::TargetBeaten }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
}

#[test]
fn e26_never_the_same_player_two_nights_running() {
    let roles = [R::Boss, R::Thug, R::Citizen, R::Citizen, R::Psycho];
    let mut sc = scenario(&roles, &[(seat(1), act(seat(3)))]);
    sc.carry.last_targets = vec![(seat(1), seat(2))];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert!(n.has(Event::StatusSet { seat: seat(3), status: Status::Beaten, by: seat(1) }));
    assert_eq!(n.st.next_bar(seat(1)), Some(seat(3)), "not 3 next night; 2 (a night between) is fine");
    sc.moves = vec![(seat(1), act(seat(2)))];
    assert_eq!(resolve_scenario(&sc, &mut Vec::new()).unwrap_err().problems[0].path, "moves.0");
    // Himself two nights running neither.
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(1), act(seat(1))).at(2, seat(1), act(seat(1)));
    t.night(1);
    t.night(2);
    assert_eq!(t.state.illegal_decisions(), 1);
    assert!(!t.on(2, Event::StatusSet { seat: seat(1), status: Status::Beaten, by: seat(1) }));
}

#[test]
fn e26_thug_fails_when_robbed_invited_or_hexed() {
    // Decision (no failure list in the seed). Boss 0, Thug 1, Thief 2, Witch 3, Psycho 4, Detective 5.
    let roles = [R::Boss, R::Thug, R::Thief, R::Witch, R::Psycho, R::Detective];
    for (blocker, status) in [(2, Status::Robbed), (4, Status::Invited)].map(|(b, s)| (seat(b), s)) {
        let n = one_night(&roles, &[(seat(1), act(seat(5))), (seat(5), act(seat(0))), (blocker, act(seat(1)))]);
        assert_eq!(n.failed(seat(1)), Some(blocked(status, Some(blocker))));
        assert!(n.has(Event::CampCheck { seat: seat(5), target: seat(0), camp: Camp::Mafia }));
    }
    let mut sc = scenario(&roles, &[(seat(1), act(seat(5))), (seat(5), act(seat(0)))]);
    sc.carry.hexed = vec![seat(1)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Hexed, None)));
    assert!(n.has(Event::CampCheck { seat: seat(5), target: seat(0), camp: Camp::Mafia }));
}

// ---------------------------------------------------------------------------
// E27 Scout
// ---------------------------------------------------------------------------

#[test]
fn e27_scout_learns_the_successful_check_robbery_and_heal() {
    // Boss 0, Thief 1, Detective 2, Doctor 3, Scout 4, citizens 5 and 6, Psycho 7.
    let roles = [R::Boss, R::Thief, R::Detective, R::Doctor, R::Scout, R::Citizen, R::Citizen, R::Psycho];
    let n = one_night(
        &roles,
        &[(seat(1), act(seat(5))), (seat(2), act(seat(7))), (seat(3), act(seat(6))), (seat(4), NightChoice::default())],
    );
    let report = Report::Scout { checked: Some(seat(7)), robbed: Some(seat(5)), healed: Some(seat(6)) };
    assert!(n.has(Event::Learned { seat: seat(4), report }));
    assert_eq!(n.report(seat(4)), Some(report));
    // The robbed Detective's check and the invited Doctor's heal failed: not learned.
    let n = one_night(
        &roles,
        &[
            (seat(1), act(seat(2))),
            (seat(2), act(seat(7))),
            (seat(7), act(seat(3))),
            (seat(3), act(seat(6))),
            (seat(4), NightChoice::default()),
        ],
    );
    assert_eq!(n.report(seat(4)), Some(Report::Scout { checked: None, robbed: Some(seat(2)), healed: None }));
    // Robbed, the Scout learns nothing.
    let n = one_night(&roles, &[(seat(1), act(seat(4))), (seat(2), act(seat(7))), (seat(4), NightChoice::default())]);
    assert_eq!(n.failed(seat(4)), Some(blocked(Status::Robbed, Some(seat(1)))));
    assert_eq!(n.report(seat(4)), None);
}

#[test]
fn e27_in_a_mixed_set_the_commissars_check_counts() {
    // Decision: the Scout learns camp checks, the Commissar's too. Boss 0, Commissar 1, Scout 2, citizen 3.
    let n = one_night(
        &[R::Boss, R::Commissar, R::Scout, R::Citizen],
        &[(seat(1), act(seat(3))), (seat(2), NightChoice::default())],
    );
    assert_eq!(n.report(seat(2)), Some(Report::Scout { checked: Some(seat(3)), robbed: None, healed: None }));
}

// ---------------------------------------------------------------------------
// E28 Trickster
// ---------------------------------------------------------------------------

#[test]
fn e28_the_named_players_vote_is_removed_next_day() {
    // Trickster 0, Boss 1, citizens 2–4, Psycho 5. Open votes tie 2–2 (Boss:
    // 2, 3; citizen 4: 0, 1); without citizen 2's vote, citizen 4 is lynched.
    let mut t = table(&[R::Trickster, R::Boss, R::Citizen, R::Citizen, R::Citizen, R::Psycho], &[]);
    t.p.at(1, seat(0), act(seat(2)));
    t.p.day_votes(2, &[f(seat(4)), f(seat(4)), f(seat(1)), f(seat(1)), P, P]);
    t.night(1);
    assert_eq!(t.state.carry().tricked, set(&[seat(2)]));
    t.day(2);
    assert!(t.has(Event::VoteRemoved { seat: seat(2) }));
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(4))]);
    assert_eq!(t.obs(seat(3)).votes_for(seat(1)), 2, "the public record keeps the open vote");
}

#[test]
fn e28_nothing_can_stop_the_trickster() {
    // Decision: the pick is not blocked, and not stopped by a beaten target.
    // Boss 0, Thief 1, Trickster 2, Thug 3, Psycho 4, Witch 5, citizen 6.
    let roles = [R::Boss, R::Thief, R::Trickster, R::Thug, R::Psycho, R::Witch, R::Citizen];
    let cases: [(Moves, bool); 5] = [
        (vec![(seat(1), act(seat(2)))], false),
        (vec![(seat(3), act(seat(2)))], false),
        (vec![(seat(4), act(seat(2)))], false),
        (vec![], true),
        (vec![(seat(3), act(seat(6)))], false),
    ];
    for (mut moves, hexed) in cases {
        moves.push((seat(2), act(seat(6))));
        let mut sc = scenario(&roles, &moves);
        if hexed {
            sc.carry.hexed = vec![seat(2)];
            sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
        }
        let n = resolve(&sc);
        assert_eq!(n.failed(seat(2)), None, "{moves:?}");
        assert!(n.has(Event::Succeeded { seat: seat(2), ability: A::Trick, target: Some(seat(6)) }));
        assert_eq!(n.st.carry().tricked, set(&[seat(6)]));
    }
}

#[test]
fn e28_the_chosens_secret_votes_stay() {
    // Trickster 0, Boss 1, Chosen 2, citizens 3 and 4, Psycho 5. The Chosen
    // is tricked: his open vote for the Boss is removed, his 2 secret ones
    // stay: the Boss has citizen 4's vote + 2 = 3 against citizen 4's 2.
    let mut t = table(&[R::Trickster, R::Boss, R::Chosen, R::Citizen, R::Citizen, R::Psycho], &[]);
    t.p.at(1, seat(0), act(seat(2)));
    t.p.day_votes(2, &[f(seat(4)), P, f(seat(1)), f(seat(4)), f(seat(1)), P]);
    t.night(1);
    t.day(2);
    assert!(t.has(Event::VoteRemoved { seat: seat(2) }));
    assert!(t.has(Event::SecretVotes { seat: seat(2), target: seat(1), votes: 2 }));
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(1))]);
}

#[test]
fn e28_the_removal_lasts_for_the_next_day_only() {
    let mut t = table(&[R::Trickster, R::Boss, R::Citizen, R::Citizen, R::Citizen, R::Psycho], &[]);
    t.p.at(1, seat(0), act(seat(2)));
    t.p.day_votes(3, &[f(seat(4)), f(seat(4)), f(seat(1)), f(seat(1)), P, f(seat(1))]);
    t.night(1);
    t.day(2);
    t.night(2);
    assert_eq!(t.state.carry().tricked, PlayerSet::EMPTY);
    t.day(3);
    assert_eq!(t.count(|e| matches!(e, Event::VoteRemoved { .. })), 0);
    assert_eq!(t.lynches(), vec![LynchResult::AllPass, LynchResult::Lynched(seat(1))]);
}

// ---------------------------------------------------------------------------
// E29 Control moves: blocks and redirects
// ---------------------------------------------------------------------------

fn with_resolution(mut sc: Scenario, resolution: &str) -> Night {
    sc.rules.set("resolution", resolution).unwrap();
    resolve(&sc)
}

#[test]
fn e29_the_thief_psycho_cycle_is_broken_at_the_thief() {
    // Boss 0, Thief 1, Psycho 2, Detective 3: the Thief robs the Psycho, the Psycho invites the Thief.
    let sc =
        scenario(&[R::Boss, R::Thief, R::Psycho, R::Detective], &[(seat(1), act(seat(2))), (seat(2), act(seat(1)))]);
    let g = with_resolution(sc.clone(), "graph");
    assert!(g.has(Event::CycleBroken { seat: seat(1) }));
    assert_eq!(g.failed(seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    assert!(g.has(Event::StatusSet { seat: seat(2), status: Status::Robbed, by: seat(1) }));
    assert_eq!(g.st.carry().guest, None);
    // Sequential: the Thief comes first and wins without any cycle rule.
    let s = with_resolution(sc, "sequential");
    assert_eq!(s.count(|e| matches!(e, Event::CycleBroken { .. })), 0);
    assert_eq!(s.failed(seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    assert_eq!(s.st.carry().guest, None);
}

#[test]
fn e29_a_cycle_through_a_redirect_is_broken_at_the_higher_priority_maker() {
    // Boss 0, Swindler 1, Thug 2, Detective 3: the Thug beats the Swindler
    // while she sends his beating to the Detective. If her swindle stood the
    // beating would miss her; if it reached her, her swindle would fail: a
    // cycle, broken at the Thug (before the Swindler): his move stands as made.
    let n = one_night(
        &[R::Boss, R::Swindler, R::Thug, R::Detective],
        &[(seat(2), act(seat(1))), (seat(1), act2(seat(2), seat(3))), (seat(3), act(seat(2)))],
    );
    assert!(n.has(Event::CycleBroken { seat: seat(2) }));
    assert!(n.has(Event::StatusSet { seat: seat(1), status: Status::Beaten, by: seat(2) }));
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Beaten, Some(seat(2)))));
    assert_eq!(n.count(|e| matches!(e, Event::Redirected { .. })), 0);
    assert!(n.has(Event::CampCheck { seat: seat(3), target: seat(2), camp: Camp::Bandits }));
    // The same with the Psycho inviting the Swindler.
    let n = one_night(
        &[R::Boss, R::Swindler, R::Psycho, R::Detective],
        &[(seat(2), act(seat(1))), (seat(1), act2(seat(2), seat(3))), (seat(3), act(seat(2)))],
    );
    assert!(n.has(Event::CycleBroken { seat: seat(2) }));
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Invited, Some(seat(2)))));
    assert_eq!(n.st.carry().guest, Some(seat(1)));
}

#[test]
fn e29_the_psycho_thug_cycle_is_broken_at_the_psycho() {
    let n =
        one_night(&[R::Boss, R::Psycho, R::Thug, R::Detective], &[(seat(1), act(seat(2))), (seat(2), act(seat(1)))]);
    assert!(n.has(Event::CycleBroken { seat: seat(1) }));
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Invited, Some(seat(1)))));
    assert_eq!(n.st.carry().guest, Some(seat(2)));
}

#[test]
fn e29_a_third_blocker_opens_the_thief_psycho_cycle() {
    // Boss 0, Thief 1, Psycho 2, Thug 3, Detective 4; the Thug beats the Thief.
    let sc = scenario(
        &[R::Boss, R::Thief, R::Psycho, R::Thug, R::Detective],
        &[(seat(1), act(seat(2))), (seat(2), act(seat(1))), (seat(3), act(seat(1)))],
    );
    // Graph: nothing blocks the Thug, so the Thief is blocked and the
    // Psycho is not robbed; his invitation stands, but reaches a beaten
    // player and fails there (E6).
    let g = with_resolution(sc.clone(), "graph");
    assert_eq!(g.count(|e| matches!(e, Event::CycleBroken { .. })), 0);
    assert_eq!(g.failed(seat(1)), Some(blocked(Status::Beaten, Some(seat(3)))));
    assert_eq!(g.failed(seat(2)), Some(Fail::TargetBeaten));
    assert_eq!(g.count(|e| matches!(e, Event::StatusSet { status: Status::Robbed, .. })), 0);
    assert_eq!(g.st.carry().guest, None);
    // Sequential: the Thief came first and robbed the Psycho before the Thug beat him.
    let s = with_resolution(sc, "sequential");
    assert_eq!(s.failed(seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    assert!(s.has(Event::StatusSet { seat: seat(2), status: Status::Robbed, by: seat(1) }));
    assert!(s.has(Event::StatusSet { seat: seat(1), status: Status::Beaten, by: seat(3) }));
    assert_eq!(s.st.carry().guest, None);
}

#[test]
fn e29_a_later_blocker_wins_only_in_the_graph() {
    // Boss 0, Thief 1, Thug 2, Detective 3, Psycho 4: the Thug beats the Thief, who robs the Detective.
    let sc = scenario(
        &[R::Boss, R::Thief, R::Thug, R::Detective, R::Psycho],
        &[(seat(2), act(seat(1))), (seat(1), act(seat(3))), (seat(3), act(seat(0)))],
    );
    let g = with_resolution(sc.clone(), "graph");
    assert_eq!(g.failed(seat(1)), Some(blocked(Status::Beaten, Some(seat(2)))));
    assert!(g.has(Event::CampCheck { seat: seat(3), target: seat(0), camp: Camp::Mafia }));
    let s = with_resolution(sc, "sequential");
    assert_eq!(s.failed(seat(3)), Some(blocked(Status::Robbed, Some(seat(1)))));
}

#[test]
fn e29_the_redirect_of_the_thug_reaches_him_only_in_the_graph() {
    // Boss 0, Swindler 1, Thug 2, Detective 3, Doctor 4, citizen 5. The Thug
    // beats the Detective; the Swindler sends him to the Doctor.
    let sc = scenario(
        &[R::Boss, R::Swindler, R::Thug, R::Detective, R::Doctor, R::Citizen],
        &[(seat(2), act(seat(3))), (seat(1), act2(seat(2), seat(4))), (seat(3), act(seat(0))), (seat(4), act(seat(5)))],
    );
    let g = with_resolution(sc.clone(), "graph");
    assert!(g.has(Event::Redirected { by: seat(1), victim: seat(2), from: Some(seat(3)), to: seat(4) }));
    assert!(g.has(Event::StatusSet { seat: seat(4), status: Status::Beaten, by: seat(2) }));
    assert_eq!(g.failed(seat(4)), Some(blocked(Status::Beaten, Some(seat(2)))));
    assert!(g.has(Event::CampCheck { seat: seat(3), target: seat(0), camp: Camp::Mafia }));
    // Sequential: the Swindler comes after the Thug; the redirect reaches only later steps.
    let s = with_resolution(sc, "sequential");
    assert!(s.has(Event::StatusSet { seat: seat(3), status: Status::Beaten, by: seat(2) }));
    assert_eq!(s.failed(seat(3)), Some(blocked(Status::Beaten, Some(seat(2)))));
    assert!(s.has(Event::Healed { seat: seat(5), by: seat(4) }));
}

#[test]
fn e29_a_swindled_psycho_can_block_the_thief() {
    // Boss 0, Thief 1, Swindler 2, Psycho 3, Detective 4, citizen 5. The
    // Psycho invites 5; the Swindler sends him to the Thief, who robs the Detective.
    let sc = scenario(
        &[R::Boss, R::Thief, R::Swindler, R::Psycho, R::Detective, R::Citizen],
        &[(seat(3), act(seat(5))), (seat(2), act2(seat(3), seat(1))), (seat(1), act(seat(4))), (seat(4), act(seat(0)))],
    );
    let g = with_resolution(sc.clone(), "graph");
    assert_eq!(g.failed(seat(1)), Some(blocked(Status::Invited, Some(seat(3)))));
    assert_eq!(g.st.carry().guest, Some(seat(1)));
    assert!(g.has(Event::CampCheck { seat: seat(4), target: seat(0), camp: Camp::Mafia }));
    let s = with_resolution(sc, "sequential");
    assert_eq!(s.failed(seat(4)), Some(blocked(Status::Robbed, Some(seat(1)))));
    assert_eq!(s.st.carry().guest, Some(seat(5)));
}

// ---------------------------------------------------------------------------
// E30 Default order
// ---------------------------------------------------------------------------

fn order(keys: &[&str]) -> Vec<NightStep> {
    keys.iter().map(|k| NightStep::from_key(k).expect("a step key")).collect()
}

#[test]
fn e30_the_default_order_is_the_seven_steps() {
    let n = one_night(&[R::Boss, R::Detective, R::Psycho], &[]);
    let steps: Vec<NightStep> = n
        .log
        .iter()
        .filter_map(|e| match *e {
            Event::Step(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(steps, order(&["start", "control", "protection", "information", "kills", "marks", "watchers"]));
}

#[test]
fn e30_a_heal_saves_because_protection_comes_before_kills() {
    // Boss 0, Doctor 1, citizen 2, Psycho 3.
    let mut sc =
        scenario(&[R::Boss, R::Doctor, R::Citizen, R::Psycho], &[(seat(1), act(seat(2))), (seat(0), kill(seat(2)))]);
    assert_eq!(resolve(&sc).killed(), PlayerSet::EMPTY);
    // Reordered, kills before protection: the heal no longer saves.
    sc.night_order = Some(order(&["start", "control", "kills", "protection", "information", "marks", "watchers"]));
    let n = resolve(&sc);
    assert_eq!(n.killed(), set(&[seat(2)]));
    assert!(
        n.index_of(Event::NightKill { target: seat(2), by: mafia_kill(seat(0)) })
            < n.index_of(Event::Healed { seat: seat(2), by: seat(1) })
    );
}

#[test]
fn e30_each_step_sees_only_the_statuses_of_earlier_steps() {
    // Information before control: the Detective checks before the Thief robs him.
    let mut sc =
        scenario(&[R::Boss, R::Thief, R::Detective, R::Psycho], &[(seat(1), act(seat(2))), (seat(2), act(seat(0)))]);
    assert_eq!(resolve(&sc).failed(seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    sc.night_order = Some(order(&["start", "information", "control", "protection", "kills", "marks", "watchers"]));
    let n = resolve(&sc);
    assert!(n.has(Event::CampCheck { seat: seat(2), target: seat(0), camp: Camp::Mafia }));
    assert!(n.has(Event::StatusSet { seat: seat(2), status: Status::Robbed, by: seat(1) }));
}

#[test]
fn e30_a_night_order_starts_with_the_start_and_names_every_step_once() {
    let mut sc = scenario(&[R::Boss, R::Detective, R::Psycho], &[]);
    for bad in [
        order(&["control", "start", "protection", "information", "kills", "marks", "watchers"]),
        order(&["start", "control", "protection", "information", "kills", "marks"]),
        order(&["start", "control", "control", "information", "kills", "marks", "watchers"]),
    ] {
        sc.night_order = Some(bad.clone());
        let e = resolve_scenario(&sc, &mut Vec::new()).unwrap_err();
        assert!(e.problems.iter().any(|p| p.path == "night_order"), "{bad:?}: {e}");
    }
}

#[test]
fn e30_last_nights_statuses_expire() {
    // Boss 0, Thief 1, Detective 2, Doctor 3, Thug 4, Psycho 5, citizen 6.
    let mut t = table(&[R::Boss, R::Thief, R::Detective, R::Doctor, R::Thug, R::Psycho, R::Citizen], &[]);
    t.p.at(1, seat(1), act(seat(2))).at(1, seat(4), act(seat(3))).at(1, seat(2), act(seat(0))).at(
        1,
        seat(3),
        act(seat(6)),
    );
    t.p.at(2, seat(1), act(seat(6)))
        .at(2, seat(4), act(seat(6)))
        .at(2, seat(2), act(seat(0)))
        .at(2, seat(3), act(seat(2)))
        .at(2, seat(0), kill(seat(2)));
    t.night(1);
    assert_eq!(t.failed_on(1, seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    assert_eq!(t.failed_on(1, seat(3)), Some(blocked(Status::Beaten, Some(seat(4)))));
    t.night(2);
    assert!(t.on(2, Event::CampCheck { seat: seat(2), target: seat(0), camp: Camp::Mafia }));
    assert!(t.on(2, Event::Healed { seat: seat(2), by: seat(3) }));
    assert!(t.deaths().is_empty());
}

// ---------------------------------------------------------------------------
// E31 The Role Prostitute's borrowed move
// ---------------------------------------------------------------------------

#[test]
fn e31_a_borrowed_heal_sits_in_protection() {
    // Boss 0, Prostitute 1, Doctor 2 (dead), citizen 3, Psycho 4.
    let mut sc = scenario(
        &[R::Boss, R::Prostitute, R::Doctor, R::Citizen, R::Psycho],
        &[(seat(1), borrow(R::Doctor, seat(3))), (seat(0), kill(seat(3)))],
    );
    sc.night = 2;
    sc.carry.dead = vec![seat(2)];
    let n = resolve(&sc);
    assert!(n.has(Event::Healed { seat: seat(3), by: seat(1) }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
    // It moves with its step.
    sc.night_order = Some(order(&["start", "control", "kills", "protection", "information", "marks", "watchers"]));
    assert_eq!(resolve(&sc).killed(), set(&[seat(3)]));
}

#[test]
fn e31_a_borrowed_shot_sits_in_kills() {
    // Boss 0, Prostitute 1, Shooter 2 (dead), Doctor 3, Psycho 4: a heal of the Boss stops the borrowed shot.
    let mut sc = scenario(
        &[R::Boss, R::Prostitute, R::Shooter, R::Doctor, R::Psycho],
        &[(seat(1), borrow(R::Shooter, seat(0)))],
    );
    sc.night = 2;
    sc.carry.dead = vec![seat(2)];
    let n = resolve(&sc);
    assert!(n.has(Event::NightKill { target: seat(0), by: Killer::Shooter(seat(1)) }));
    assert_eq!(n.killed(), set(&[seat(0)]));
    sc.moves.push((seat(3), act(seat(0))));
    let n = resolve(&sc);
    assert!(n.has(Event::KillFailed { target: seat(0), by: Killer::Shooter(seat(1)), reason: Fail::TargetHealed }));
}

// ---------------------------------------------------------------------------
// E32 Day additions
// ---------------------------------------------------------------------------

#[test]
fn e32_the_psychos_guest_is_announced_first_without_roles() {
    // Boss 0, Psycho 1, citizens 2 and 3, Detective 4. Night 1 the Psycho
    // invites the Detective; night 2 the Boss kills citizen 2.
    let mut t = table(&[R::Boss, R::Psycho, R::Citizen, R::Citizen, R::Detective], &[]);
    t.p.at(1, seat(1), act(seat(4))).at(2, seat(0), kill(seat(2)));
    t.night(1);
    t.night(2);
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Killed), (seat(2), DeathCause::Killed)]);
    assert!(t.has(Event::Died { seat: seat(4), cause: DeathCause::Killed, revealed: None }));
    assert!(t.has(Event::Died { seat: seat(2), cause: DeathCause::Killed, revealed: None }));
    assert_eq!(t.obs(seat(3)).killed_at_night(), set(&[seat(2), seat(4)]));
    assert_eq!(t.obs(seat(3)).death(seat(4)), Some((Phase::Night(2), DeathCause::Killed)));
}

#[test]
fn e32_secret_votes_removal_and_mines_apply_to_one_lynch_vote() {
    // Miner 0, Trickster 1, Boss 2, Chosen 3, citizens 4–6. Night 1: the
    // Miner mines 5, the Trickster removes citizen 4's vote. Day 2 open
    // votes: 5 gets 0, 1, 4 (3 open, 2 counted); 6 gets 2, 3 (2 open, 4
    // counted with the Chosen's secret votes).
    let mut t = table(&[R::Miner, R::Trickster, R::Boss, R::Chosen, R::Citizen, R::Citizen, R::Citizen], &[]);
    t.p.at(1, seat(0), act(seat(5))).at(1, seat(1), act(seat(4)));
    t.p.day_votes(2, &[f(seat(5)), f(seat(5)), f(seat(6)), f(seat(6)), f(seat(5)), P, P]);
    t.night(1);
    t.day(2);
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(6))]);
    assert_eq!(t.count(|e| matches!(e, Event::MineExplodes { .. })), 0, "the mined player has 2 counted votes");
    assert_eq!(t.deaths(), vec![(seat(6), DeathCause::Lynched)]);
}

#[test]
fn e32_runoffs_count_plain_votes() {
    // Decision: the marks apply to the count that decides C11/C12; runoffs
    // are plain. Miner 0, Trickster 1, Boss 2, Chosen 3, citizens 4–6.
    // Day 2: 5 gets 0, 1, 2; 6 gets the Chosen's 1 + 2: a tie. In the runoff
    // 5 gets 3 plain votes against 6's 2 (the Chosen's among them).
    let mut t = table(&[R::Miner, R::Trickster, R::Boss, R::Chosen, R::Citizen, R::Citizen, R::Citizen], &[]);
    t.p.day_votes(2, &[f(seat(5)), f(seat(5)), f(seat(5)), f(seat(6)), P, P, P]);
    for (s, c) in [(0, 5), (1, 5), (2, 5), (3, 6), (4, 6)].map(|(s, c)| (seat(s), seat(c))) {
        t.p.runoffs.insert(s, c);
    }
    t.night(1);
    t.day(2);
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(5), seat(6)]))]);
    assert!(t.has(Event::RunoffResult { hanged: set(&[seat(5)]) }));
    assert_eq!(t.deaths(), vec![(seat(5), DeathCause::Lynched)]);
}

// ---------------------------------------------------------------------------
// Interactions across clauses not covered above
// ---------------------------------------------------------------------------

#[test]
fn e14_e19_e23_the_guest_is_saved_by_the_heal_that_reached_him() {
    // Boss 0, Doctor 1 (dead), Deputy 2 (the Doctor now, E14), Psycho 3,
    // citizens 4 and 5, Prostitute 6. Last night's guest is 5; the Deputy
    // heals 4, the Prostitute borrows the Doctor's heal for 5 (E19).
    let mut sc = scenario(
        &[R::Boss, R::Doctor, R::Deputy, R::Psycho, R::Citizen, R::Citizen, R::Prostitute],
        &[(seat(2), act(seat(4))), (seat(6), borrow(R::Doctor, seat(5)))],
    );
    sc.night = 3;
    sc.carry.dead = vec![seat(1)];
    sc.carry.guest = Some(seat(5));
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert!(n.has(Event::Promoted { seat: seat(2), role: R::Doctor }));
    assert!(n.has(Event::Healed { seat: seat(4), by: seat(2) }));
    assert!(n.has(Event::Healed { seat: seat(5), by: seat(6) }));
    assert!(n.has(Event::GuestSaved { seat: seat(5), by: seat(6) }));
    assert_eq!(n.killed(), PlayerSet::EMPTY);
}

#[test]
fn e22_e23_the_psychos_invitation_is_a_visit() {
    // Boss 0, Sleepwalker 1, Psycho 2, citizen 3.
    let n = one_night(
        &[R::Boss, R::Sleepwalker, R::Psycho, R::Citizen],
        &[(seat(1), act(seat(3))), (seat(2), act(seat(3)))],
    );
    assert_eq!(n.report(seat(1)), Some(Report::Watch { target: seat(3), camps: [0, 0, 1] }));
}

#[test]
fn e10_e22_the_guard_and_the_swindler_are_seen_as_mafia() {
    // Boss 0, Guard 1, Swindler 2, Sleepwalker 3, Detective 4, Psycho 5.
    let roles = [R::Boss, R::Guard, R::Swindler, R::Sleepwalker, R::Detective, R::Psycho];
    let n = one_night(&roles, &[(seat(3), act(seat(0))), (seat(1), act(seat(0)))]);
    assert_eq!(n.report(seat(3)), Some(Report::Watch { target: seat(0), camps: [0, 1, 0] }));
    // The Swindler's visit is to her victim's house.
    let n = one_night(&roles, &[(seat(3), act(seat(4))), (seat(4), act(seat(5))), (seat(2), act2(seat(4), seat(0)))]);
    assert_eq!(n.report(seat(3)), Some(Report::Watch { target: seat(4), camps: [0, 1, 0] }));
    assert!(n.has(Event::CampCheck { seat: seat(4), target: seat(0), camp: Camp::Mafia }));
}

impl common::Logged for Night {
    fn events(&self) -> &[Event] {
        &self.log
    }
}

impl common::Logged for Table {
    fn events(&self) -> &[Event] {
        &self.log
    }
}

// ---------------------------------------------------------------------------
// Readings of the seeds settled by the rules-fidelity review (RULES.md)
// ---------------------------------------------------------------------------

#[test]
fn e22_e11_a_sleepwalker_sent_from_a_beaten_house_sees_the_visitors_of_the_new_one() {
    // Boss 0, Swindler 1, Sleepwalker 2, citizens 3 and 4, Thug 5, Psycho 6.
    // The Thug beats 3, where the Sleepwalker meant to walk; the Swindler sends
    // him to 4, which nobody visits. He watches 4: he sees nobody (E22), and
    // is not beaten too, since he does not walk round 3 (E11, E29: the redirect
    // rewrites his target before his walk is judged).
    let roles = [R::Boss, R::Swindler, R::Sleepwalker, R::Citizen, R::Citizen, R::Thug, R::Psycho];
    for resolution in ["graph", "sequential"] {
        let sc =
            scenario(&roles, &[(seat(5), act(seat(3))), (seat(2), act(seat(3))), (seat(1), act2(seat(2), seat(4)))]);
        let n = with_resolution(sc, resolution);
        assert!(
            n.has(Event::Redirected { by: seat(1), victim: seat(2), from: Some(seat(3)), to: seat(4) }),
            "{resolution}"
        );
        assert!(!n.has(Event::BeatenWatching { seat: seat(2) }), "{resolution}");
        assert_eq!(n.report(seat(2)), Some(Report::Watch { target: seat(4), camps: [0, 0, 0] }), "{resolution}");
    }
    // Sent the other way, from an unvisited house to the beaten one, he walks
    // round the beaten house and is beaten too.
    let n = one_night(&roles, &[(seat(5), act(seat(3))), (seat(2), act(seat(4))), (seat(1), act2(seat(2), seat(3)))]);
    assert!(n.has(Event::BeatenWatching { seat: seat(2) }));
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Beaten, Some(seat(5)))));
}

#[test]
fn e22_the_sleepwalker_sees_the_visitors_of_the_house_he_is_sent_to() {
    // Boss 0, Swindler 1, Sleepwalker 2, citizens 3 and 4, Detective 5, Psycho 6.
    // The Psycho invites 3 (a bandit visit) and the Detective checks 4 (a town
    // visit); the Sleepwalker meant 3 but is sent to 4.
    let roles = [R::Boss, R::Swindler, R::Sleepwalker, R::Citizen, R::Citizen, R::Detective, R::Psycho];
    let n = one_night(
        &roles,
        &[(seat(6), act(seat(3))), (seat(5), act(seat(4))), (seat(2), act(seat(3))), (seat(1), act2(seat(2), seat(4)))],
    );
    assert_eq!(n.report(seat(2)), Some(Report::Watch { target: seat(4), camps: [1, 0, 0] }));
}

#[test]
fn e22_e26_a_robbed_invited_or_hexed_sleepwalker_is_not_beaten_too() {
    // Boss 0, Thief 1, Sleepwalker 2, citizen 3, Thug 4, Psycho 5, Witch 6.
    // The Thug beats 3, round whose house the Sleepwalker would walk («гуляет»);
    // a Sleepwalker whose walk does not happen is not beaten there, so he stays
    // reachable: the mafia's kill on him lands.
    let roles = [R::Boss, R::Thief, R::Sleepwalker, R::Citizen, R::Thug, R::Psycho, R::Witch];
    for resolution in ["graph", "sequential"] {
        // Robbed: the Thief ranks before the Thug (E29), so the robbery stands.
        let sc = scenario(
            &roles,
            &[(seat(4), act(seat(3))), (seat(2), act(seat(3))), (seat(1), act(seat(2))), (seat(0), kill(seat(2)))],
        );
        let n = with_resolution(sc, resolution);
        assert!(!n.has(Event::BeatenWatching { seat: seat(2) }), "{resolution}");
        assert!(n.has(Event::StatusSet { seat: seat(2), status: Status::Robbed, by: seat(1) }), "{resolution}");
        assert_eq!(n.failed(seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))), "{resolution}");
        assert_eq!(n.killed(), set(&[seat(2)]), "{resolution}");
        // Invited: the Psycho ranks before the Thug too.
        let sc = scenario(&roles, &[(seat(4), act(seat(3))), (seat(2), act(seat(3))), (seat(5), act(seat(2)))]);
        let n = with_resolution(sc, resolution);
        assert!(!n.has(Event::BeatenWatching { seat: seat(2) }), "{resolution}");
        assert_eq!(n.failed(seat(2)), Some(blocked(Status::Invited, Some(seat(5)))), "{resolution}");
    }
    // Hexed since last night: no walk, no beating.
    let mut sc = scenario(&roles, &[(seat(4), act(seat(3))), (seat(2), act(seat(3))), (seat(0), kill(seat(2)))]);
    sc.carry.hexed = vec![seat(2)];
    sc.night = sc.night.max(2); // a carried item needs a night before (issue 35)
    let n = resolve(&sc);
    assert!(!n.has(Event::BeatenWatching { seat: seat(2) }));
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Hexed, None)));
    assert_eq!(n.killed(), set(&[seat(2)]));
}

#[test]
fn e12_the_unappointed_actor_has_no_say_in_the_camp_kill() {
    // Boss 0 (alive, silent), Actor 1, citizens 2–4, Psycho 5. The Actor's nick
    // is refused: before his appointment he takes part only in the lynch.
    let mut t = table(&[R::Boss, R::Actor, R::Citizen, R::Citizen, R::Citizen, R::Psycho], &[]);
    t.p.at(1, seat(1), kill(seat(2)));
    t.night(1);
    assert_eq!(t.deaths(), Vec::<(Seat, DeathCause)>::new());
    assert_eq!(t.state.illegal_decisions(), 1);
    assert!(t.on(1, Event::NightMiss(MissReason::Silent(seat(0)))));
}

#[test]
fn c4_e12_an_unappointed_actor_does_not_spoil_a_unanimous_kill() {
    // camp_kill = unanimous: the living *shooters* must agree, and the Actor is
    // none before his appointment, so the Boss's nick alone is the kill.
    let roles = [R::Boss, R::Actor, R::Citizen, R::Citizen, R::Citizen, R::Psycho];
    let mut sc = scenario(&roles, &[(seat(0), kill(seat(2)))]);
    sc.rules.set("camp_kill", "unanimous").unwrap();
    let n = resolve(&sc);
    assert_eq!(n.killed(), set(&[seat(2)]));
}

#[test]
fn e12_the_actor_left_alone_in_his_camp_decides_the_kill() {
    // Boss 0 dead (no vacancy: nobody takes the Boss's place), Actor 1 the last
    // living mafioso: «unless he is the last living member of the camp».
    let mut sc =
        scenario(&[R::Boss, R::Actor, R::Citizen, R::Citizen, R::Citizen, R::Psycho], &[(seat(1), kill(seat(3)))]);
    sc.carry.dead = vec![seat(0)];
    let n = resolve(&sc);
    assert!(n.obs(seat(1)).shoots());
    assert!(n.has(Event::NightKill { target: seat(3), by: mafia_kill(seat(1)) }));
}

#[test]
fn e12_the_boss_chooses_the_actors_role() {
    // Boss 0, Thief 1, Swindler 2, Actor 3, Detective 4, citizens 5 and 6, Psycho 7.
    // The appointment is the Boss's letter (E12), a decision of his.
    let roles = [R::Boss, R::Thief, R::Swindler, R::Actor, R::Detective, R::Citizen, R::Citizen, R::Psycho];
    let mut t = table(&roles, &[]);
    // Day 1: the Thief is lynched. Night 1: the Boss waits (no appointment yet),
    // and the mafia's kill takes their own Swindler.
    t.p.day_votes(1, &[f(seat(1)), f(seat(0)), f(seat(1)), f(seat(1)), f(seat(1)), f(seat(1)), f(seat(1)), f(seat(1))]);
    t.day(1);
    t.p.appoint = Some(None);
    t.p.at(1, seat(0), kill(seat(2)));
    t.night(1);
    assert_eq!(t.p.asked_appoint, vec![(seat(0), RoleSet::single(R::Thief))]);
    assert_eq!(t.obs(seat(3)).acting_role(), R::Actor);
    // Night 2: both roles are vacant; he names a role that is not (refused), …
    t.p.day_votes(2, &[P, P, P, P, P, P, P, P]);
    t.day(2);
    t.p.appoint = Some(Some(R::Guard));
    t.night(2);
    let both = RoleSet::single(R::Thief).union(RoleSet::single(R::Swindler));
    assert_eq!(t.p.asked_appoint[1], (seat(0), both));
    assert_eq!(t.state.illegal_decisions(), 1);
    assert_eq!(t.obs(seat(3)).acting_role(), R::Actor);
    // … then, on night 3, the Swindler rather than the best-ranked Thief.
    t.p.appoint = Some(Some(R::Swindler));
    t.p.day_votes(3, &[P, P, P, P, P, P, P, P]);
    t.day(3);
    t.night(3);
    assert!(t.on(3, Event::Promoted { seat: seat(3), role: R::Swindler }));
    assert_eq!(t.obs(seat(3)).acting_role(), R::Swindler);
    assert!(t.obs(seat(3)).shoots(), "appointed, he sends nicks");
}

#[test]
fn e12_an_appointment_may_wait_and_is_asked_again() {
    // Boss 0 dead, Guard 1 dead, Actor 2: with the Boss dead the Actor writes
    // his own letter; answering none leaves him unappointed tonight.
    let roles = [R::Boss, R::Guard, R::Actor, R::Citizen, R::Citizen, R::Citizen, R::Psycho];
    let mut t = table(&roles, &[]);
    t.p.day_votes(1, &[f(seat(3)), f(seat(0)), f(seat(0)), f(seat(0)), f(seat(0)), f(seat(0)), f(seat(0))]);
    t.day(1);
    t.p.appoint = Some(None);
    t.night(1);
    assert_eq!(t.p.asked_appoint, vec![]);
    // Nothing vacant yet (the Boss's place is never vacant). The Guard dies on day 2.
    t.p.day_votes(2, &[P, f(seat(3)), f(seat(1)), f(seat(1)), f(seat(1)), f(seat(1)), f(seat(1))]);
    t.day(2);
    t.night(2);
    assert_eq!(t.p.asked_appoint, vec![(seat(2), RoleSet::single(R::Guard))]);
    assert_eq!(t.obs(seat(2)).acting_role(), R::Actor);
    assert_eq!(t.state.illegal_decisions(), 0);
    t.p.appoint = None;
    t.p.day_votes(3, &[P, P, P, P, P, P, P]);
    t.day(3);
    t.night(3);
    assert!(t.on(3, Event::Promoted { seat: seat(2), role: R::Guard }));
}

#[test]
fn e7_a_member_may_leave_his_move_to_the_boss() {
    // Boss 0, Thief 1, Detective 2, citizens 3 and 4, Psycho 5. The Thief robs 3
    // but leaves the move to the Boss («на усмотрение»); the Boss robs 4 instead.
    let roles = [R::Boss, R::Thief, R::Detective, R::Citizen, R::Citizen, R::Psycho];
    let deferred = NightChoice { act: Some(seat(3)), defer: true, ..NightChoice::default() };
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(1), deferred);
    t.p.proxies.insert(seat(1), act(seat(4)));
    t.night(1);
    assert_eq!(t.p.asked_proxy, [seat(1)]);
    assert!(t.on(1, Event::Proxy { boss: seat(0), member: seat(1) }));
    assert!(t.on(1, Event::StatusSet { seat: seat(4), status: Status::Robbed, by: seat(1) }));
    assert!(!t.on(1, Event::StatusSet { seat: seat(3), status: Status::Robbed, by: seat(1) }));
    // The Boss may let it stand: no answer keeps the member's own move.
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(1), deferred);
    t.night(1);
    assert_eq!(t.p.asked_proxy, [seat(1)]);
    assert!(t.on(1, Event::StatusSet { seat: seat(3), status: Status::Robbed, by: seat(1) }));
    // Without `defer`, a member's own move is never asked about.
    let mut t = table(&roles, &[]);
    t.p.at(1, seat(1), act(seat(3)));
    t.p.proxies.insert(seat(1), act(seat(4)));
    t.night(1);
    assert!(t.p.asked_proxy.is_empty());
    assert!(t.on(1, Event::StatusSet { seat: seat(3), status: Status::Robbed, by: seat(1) }));
}

#[test]
fn e28_the_swindler_cannot_redirect_the_tricksters_pick() {
    // Boss 0, Swindler 1, Trickster 2, citizens 3 and 4, Detective 5.
    // «вопреки всем ходам»: the pick reaches 3 whatever the Swindler does.
    let roles = [R::Boss, R::Swindler, R::Trickster, R::Citizen, R::Citizen, R::Detective];
    let n = one_night(&roles, &[(seat(2), act(seat(3))), (seat(1), act2(seat(2), seat(4)))]);
    assert_eq!(n.failed(seat(1)), Some(Fail::Unredirectable));
    assert_eq!(n.st.carry().tricked, set(&[seat(3)]));
    // The failed swindle does not use the Trickster up (E11: once a swindle on him succeeded).
    assert_eq!(n.st.carry().swindled, PlayerSet::EMPTY);
}

#[test]
fn c8_e20_the_shooters_kills_do_not_reset_the_no_kill_count() {
    // Boss 0, Shooter 1, citizens 2–7, Psycho 8; no_kill_limit = 2. The mafia
    // never shoot; the Shooter kills each night. C8 counts nights without the
    // *mafia's* kill, so the town wins after night 2.
    let roles =
        [R::Boss, R::Shooter, R::Citizen, R::Citizen, R::Citizen, R::Citizen, R::Citizen, R::Citizen, R::Psycho];
    let mut t = table(&roles, &[("no_kill_limit", "2")]);
    t.p.at(1, seat(1), act(seat(2))).at(2, seat(1), act(seat(3)));
    let out = t.play();
    assert_eq!(t.deaths(), vec![(seat(2), DeathCause::Killed), (seat(3), DeathCause::Killed)]);
    assert_eq!((out.winner, out.cause, out.days), (Some(Camp::Town), EndCause::NoKillRule, 2));
}

#[test]
fn c8_e23_the_psychos_guest_dying_does_not_reset_the_no_kill_count() {
    // Boss 0, Psycho 1, citizens 2–6, Detective 7; no_kill_limit = 2. The guest
    // of night 1 dies in night 2: not the mafia's kill.
    let roles = [R::Boss, R::Psycho, R::Citizen, R::Citizen, R::Citizen, R::Citizen, R::Citizen, R::Detective];
    let mut t = table(&roles, &[("no_kill_limit", "2")]);
    t.p.at(1, seat(1), act(seat(2)));
    let out = t.play();
    assert_eq!(t.deaths(), vec![(seat(2), DeathCause::Killed)]);
    assert_eq!((out.winner, out.cause, out.days), (Some(Camp::Town), EndCause::NoKillRule, 2));
    // A tried mafia kill resets it (a prevented kill counts, C8): the game goes on past night 2.
    let mut t = table(&roles, &[("no_kill_limit", "2"), ("day_cap", "3")]);
    t.p.at(1, seat(1), act(seat(2))).at(2, seat(0), kill(seat(1))).at(2, seat(1), act(seat(1)));
    let out = t.play();
    assert_ne!(out.cause, EndCause::NoKillRule, "{out:?}");
}

#[test]
fn e9_thief_at_psycho_house_reading_robbing_the_psycho_fails() {
    // Boss 0, Thief 1, Psycho 2, Detective 3, citizen 4. The Thief robs the
    // Psycho, who invites the Detective.
    let roles = [R::Boss, R::Thief, R::Psycho, R::Detective, R::Citizen];
    let sc = scenario(&roles, &[(seat(1), act(seat(2))), (seat(2), act(seat(3)))]);
    // `guest` (default): «у шизика» = the Thief as the guest; the robbery works.
    let n = resolve(&sc);
    assert!(n.has(Event::StatusSet { seat: seat(2), status: Status::Robbed, by: seat(1) }));
    assert_eq!(n.failed(seat(2)), Some(blocked(Status::Robbed, Some(seat(1)))));
    // `house`: «ворует у шизика» literally: robbing the Psycho fails, his invitation stands.
    let mut sc = sc;
    sc.rules.set("thief_at_psycho", "house").unwrap();
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(1)), Some(Fail::TargetPsycho));
    assert!(n.has(Event::StatusSet { seat: seat(3), status: Status::Invited, by: seat(2) }));
    // Under both readings the Thief who is the Psycho's guest fails (E6).
    let sc = scenario(&roles, &[(seat(1), act(seat(3))), (seat(2), act(seat(1)))]);
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(1)), Some(blocked(Status::Invited, Some(seat(2)))));
}

#[test]
fn e15_e26_repeat_target_named_or_reached() {
    // Boss 0, Swindler 1, Doctor 2, citizens 3 and 4, Psycho 5. Night 1: the
    // Doctor names 3, the Swindler sends the heal to 4.
    let roles = [R::Boss, R::Swindler, R::Doctor, R::Citizen, R::Citizen, R::Psycho];
    for (setting, barred) in [("named", 3), ("reached", 4)] {
        let (allowed, barred) = (seat(7 - barred), seat(barred));
        let mut t = table(&roles, &[("repeat_target", setting)]);
        t.p.at(1, seat(2), act(seat(3))).at(1, seat(1), act2(seat(2), seat(4)));
        t.night(1);
        assert!(t.on(1, Event::Healed { seat: seat(4), by: seat(2) }), "{setting}");
        assert_eq!(t.state.next_bar(seat(2)), Some(barred), "{setting}");
        // Night 2: the barred player is refused, the other one healed.
        t.p.at(2, seat(2), act(barred));
        t.night(2);
        assert_eq!(t.state.illegal_decisions(), 1, "{setting}: {barred:?} barred");
        t.p.at(3, seat(2), act(allowed));
        t.night(3);
        assert!(t.on(3, Event::Healed { seat: allowed, by: seat(2) }), "{setting}: {allowed:?} allowed");
    }
    // `reached`: a heal that failed reached nobody, so nobody is barred.
    let mut sc = scenario(
        &[R::Boss, R::Thief, R::Doctor, R::Citizen, R::Psycho],
        &[(seat(2), act(seat(3))), (seat(1), act(seat(2)))],
    );
    sc.rules.set("repeat_target", "reached").unwrap();
    assert_eq!(resolve(&sc).st.next_bar(seat(2)), None);
    sc.rules.set("repeat_target", "named").unwrap();
    assert_eq!(resolve(&sc).st.next_bar(seat(2)), Some(seat(3)));
}

#[test]
fn e19_e16_the_role_prostitute_may_borrow_the_chosens_secret_votes() {
    // Prostitute 0, Chosen 1, Boss 2, citizens 3–5, Psycho 6.
    let roles = [R::Prostitute, R::Chosen, R::Boss, R::Citizen, R::Citizen, R::Citizen, R::Psycho];
    let mut t = table(&roles, &[]);
    // Day 1: the Chosen is lynched. Night 2: she borrows the Chosen.
    t.p.day_votes(1, &[f(seat(1)), f(seat(0)), f(seat(1)), f(seat(1)), f(seat(1)), f(seat(1)), f(seat(1))]);
    t.day(1);
    t.night(1);
    assert!(t.obs(seat(0)).borrowable().contains(R::Chosen) || t.obs(seat(0)).day() < 2);
    t.day(2);
    t.p.at(2, seat(0), NightChoice { borrow: Some(R::Chosen), ..NightChoice::default() });
    t.night(2);
    assert!(t.on(2, Event::Borrowed { seat: seat(0), role: R::Chosen }));
    // Day 3: 3 and 4 tie on open votes; her two secret votes follow her open vote.
    t.p.day_votes(3, &[f(seat(3)), P, f(seat(4)), f(seat(4)), f(seat(3)), P, P]);
    t.day(3);
    assert!(t.has(Event::SecretVotes { seat: seat(0), target: seat(3), votes: 2 }));
    assert!(t.has(Event::Died { seat: seat(3), cause: DeathCause::Lynched, revealed: None }));
    // The votes are for one day only.
    t.night(3);
    t.p.day_votes(4, &[f(seat(4)), P, f(seat(5)), f(seat(5)), f(seat(4)), P, P]);
    t.day(4);
    assert!(!t.has(Event::SecretVotes { seat: seat(0), target: seat(4), votes: 2 }));
}

#[test]
fn e19_a_blocked_borrow_of_the_chosen_gives_no_votes() {
    // E6: robbed that night, her borrowed move fails; the role is still used up.
    let mut sc = scenario(&[R::Prostitute, R::Chosen, R::Thief, R::Boss, R::Citizen, R::Psycho], &[]);
    sc.night = 2;
    sc.carry.dead = vec![seat(1)];
    sc.moves =
        vec![(seat(0), NightChoice { borrow: Some(R::Chosen), ..NightChoice::default() }), (seat(2), act(seat(0)))];
    let n = resolve(&sc);
    assert_eq!(n.failed(seat(0)), Some(blocked(Status::Robbed, Some(seat(2)))));
    assert!(n.st.carry().borrowed.contains(R::Chosen));
    assert!(!n.has(Event::Succeeded { seat: seat(0), ability: A::Votes, target: None }));
    // Unblocked, the move succeeds as a mark for the next day.
    sc.moves.truncate(1);
    let n = resolve(&sc);
    assert!(n.has(Event::Succeeded { seat: seat(0), ability: A::Votes, target: None }));
}

#[test]
fn e2_c8_a_run_label_names_every_rule_auto_resolved() {
    // Adding one extended role to a classic setup switches three rules through
    // `auto`; the label names the resolved values, not just differences from the defaults.
    let classic =
        Game::new(&Setup::of_roles("c", &[R::Don, R::Mafioso, R::Commissar, R::Citizen, R::Citizen, R::Citizen]))
            .unwrap();
    assert_eq!(classic.rules_label(), "");
    assert!(!classic.mixes_rule_sets());
    let mixed =
        Game::new(&Setup::of_roles("m", &[R::Don, R::Mafioso, R::Commissar, R::Doctor, R::Citizen, R::Citizen]))
            .unwrap();
    assert_eq!(mixed.rules_label(), "no_kill_limit=off mafia_win=elimination camp_kill=leader");
    assert!(mixed.mixes_rule_sets());
    assert_eq!(mixed.auto_choices(), vec!["mafia_win=elimination", "no_kill_limit=off", "camp_kill=leader"]);
    // Set explicitly to the classic values, the mix plays the classic rules and says so.
    let mut setup = Setup::of_roles("m", &[R::Don, R::Mafioso, R::Commissar, R::Doctor, R::Citizen, R::Citizen]);
    for (k, v) in [("no_kill_limit", "3"), ("mafia_win", "parity"), ("camp_kill", "unanimous")] {
        setup.rules.set(k, v).unwrap();
    }
    let pinned = Game::new(&setup).unwrap();
    assert_eq!(pinned.rules_label(), "");
    assert!(pinned.auto_choices().is_empty());
}
