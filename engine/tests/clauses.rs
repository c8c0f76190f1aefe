//! One test (or a few) per clause of `rules/classic.md`, named after the clause.
//!
//! Every expectation is derived from the rule text, not from running the
//! engine. Most tests fix a deal with a role string (`D` Don, `M` mafioso,
//! `C` Commissar, `c` citizen; seat `i` gets the `i`-th letter) and drive the
//! engine with a [`Script`]: scripted players that answer from tables and
//! record every question they were asked. The script itself checks two
//! invariants in every test: the dead are never asked anything but their last
//! word, and a last word is only asked of the dead. [`Table::day`] checks a
//! third after every day: at most two players leave in one lynch (C12.6).
//! A few property tests play many games with random players ([`Chaos`]).

mod common;
use common::Logged as _;
use common::seat;
use mafia_engine::{
    Camp, Chance, CheckOutcome, DeathCause, End, EndCause, Event, Game, LynchResult, MissReason, NightChoice,
    NightMoves, Observation, Outcome, Phase, PlayerSet, Players, Preset, Publication, Role, Rules, RunoffAllTied, Seat,
    Setup, State, Vote, below, pick, play, play_dealt,
};
use rand::{Rng, SeedableRng, TryRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::convert::Infallible;

// ---------------------------------------------------------------------------
// Helpers
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

fn claim(role: Role) -> Publication {
    Publication { claim: Some(role), ..Publication::NONE }
}

/// What a scripted player was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// With the camp mates the player was told of (C2).
    NewGame(PlayerSet),
    Post,
    Vote,
    Revise,
    Defence,
    /// With the candidates.
    Runoff(PlayerSet),
    /// With the pair.
    HangBoth(PlayerSet),
    Night,
    LastWord,
}

#[derive(Clone, Copy, Debug)]
struct Call {
    phase: Phase,
    seat: Seat,
    ask: Ask,
}

/// Scripted players. Tables are keyed by `(day or night, seat)`; day/night
/// `0` means "every day" / "every night". Unscripted answers: PASS, keep the
/// vote, the lowest candidate, pardon, no nick and no move, say nothing, and
/// an honest last word (own role and own check results).
#[derive(Default)]
struct Script {
    votes: HashMap<(u16, Seat), Vote>,
    changes: HashMap<(u16, Seat), Vote>,
    /// Successive runoff answers of a seat (the last one repeats).
    runoffs: HashMap<Seat, Vec<Seat>>,
    hangs: HashMap<Seat, bool>,
    kills: HashMap<(u16, Seat), Seat>,
    acts: HashMap<(u16, Seat), Seat>,
    posts: HashMap<Seat, Publication>,
    defences: HashMap<Seat, Publication>,
    last_words: HashMap<Seat, Publication>,
    calls: Vec<Call>,
}

fn lookup<T: Copy>(m: &HashMap<(u16, Seat), T>, when: u16, s: Seat) -> Option<T> {
    m.get(&(when, s)).or_else(|| m.get(&(0, s))).copied()
}

impl Script {
    /// First votes of day `day`: `votes[i]` is seat `i`'s.
    fn day_votes(&mut self, day: u16, votes: &[Vote]) -> &mut Self {
        for (s, &v) in votes.iter().enumerate() {
            self.votes.insert((day, Seat::from_index(s)), v);
        }
        self
    }
    fn change(&mut self, day: u16, seat: Seat, v: Vote) -> &mut Self {
        self.changes.insert((day, seat), v);
        self
    }
    fn runoff(&mut self, seat: Seat, answers: &[Seat]) -> &mut Self {
        self.runoffs.insert(seat, answers.to_vec());
        self
    }
    fn hang(&mut self, seats: &[Seat], hang: bool) -> &mut Self {
        for &s in seats {
            self.hangs.insert(s, hang);
        }
        self
    }
    /// The nick each of `shooters` sends on night `night`.
    fn shoot(&mut self, night: u16, shooters: &[Seat], target: Seat) -> &mut Self {
        for &s in shooters {
            self.kills.insert((night, s), target);
        }
        self
    }
    fn act(&mut self, night: u16, seat: Seat, target: Seat) -> &mut Self {
        self.acts.insert((night, seat), target);
        self
    }

    /// Seats asked something matching `what`, in the order asked.
    fn asked(&self, what: impl Fn(&Ask) -> bool) -> Vec<Seat> {
        self.calls.iter().filter(|c| what(&c.ask)).map(|c| c.seat).collect()
    }
    /// Like [`Script::asked`], restricted to one phase.
    fn asked_in(&self, phase: Phase, what: impl Fn(&Ask) -> bool) -> Vec<Seat> {
        self.calls.iter().filter(|c| c.phase == phase && what(&c.ask)).map(|c| c.seat).collect()
    }

    fn record(&mut self, obs: &Observation<'_>, ask: Ask) {
        let s = obs.seat();
        match ask {
            // C13: a last word is the word of a player who has just left.
            Ask::LastWord => assert!(!obs.is_alive(s), "living seat {s:?} asked for a last word"),
            // The dead take no further part (a new game starts with everyone alive).
            _ => assert!(obs.is_alive(s), "dead seat {s:?} asked {ask:?}"),
        }
        self.calls.push(Call { phase: obs.phase(), seat: s, ask });
    }
}

/// A last word that tells the truth: the own role, the camps learned (C6),
/// and a Commissar the Don found (C5) named as town.
fn honest(obs: &Observation<'_>) -> Publication {
    let mut p = claim(obs.role());
    for c in Camp::ALL {
        p.camps[c as usize] = obs.found_in_camp(c);
    }
    p.camps[Camp::Town as usize] = p.camps[Camp::Town as usize].union(obs.found_role());
    p
}

impl Players for Script {
    fn new_game(&mut self, obs: &Observation<'_>) {
        self.record(obs, Ask::NewGame(obs.camp_mates()));
    }
    fn post(&mut self, obs: &Observation<'_>) -> Publication {
        self.record(obs, Ask::Post);
        self.posts.get(&obs.seat()).copied().unwrap_or(Publication::NONE)
    }
    fn vote(&mut self, obs: &Observation<'_>) -> Vote {
        self.record(obs, Ask::Vote);
        lookup(&self.votes, obs.day(), obs.seat()).unwrap_or(Vote::Pass)
    }
    fn revise(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        self.record(obs, Ask::Revise);
        lookup(&self.changes, obs.day(), obs.seat())
    }
    fn defence(&mut self, obs: &Observation<'_>) -> Publication {
        self.record(obs, Ask::Defence);
        self.defences.get(&obs.seat()).copied().unwrap_or(Publication::NONE)
    }
    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet) -> Seat {
        let s = obs.seat();
        let round = self.asked(|a| matches!(a, Ask::Runoff(_))).iter().filter(|&&x| x == s).count();
        self.record(obs, Ask::Runoff(candidates));
        match self.runoffs.get(&s) {
            Some(answers) => answers[round.min(answers.len() - 1)],
            None => candidates.lowest().expect("a runoff has candidates"),
        }
    }
    fn hang_both(&mut self, obs: &Observation<'_>, pair: PlayerSet) -> bool {
        self.record(obs, Ask::HangBoth(pair));
        self.hangs.get(&obs.seat()).copied().unwrap_or(false)
    }
    fn night(&mut self, obs: &Observation<'_>) -> NightChoice {
        self.record(obs, Ask::Night);
        NightChoice {
            kill: lookup(&self.kills, obs.day(), obs.seat()),
            act: lookup(&self.acts, obs.day(), obs.seat()),
            ..NightChoice::default()
        }
    }
    fn last_word(&mut self, obs: &Observation<'_>) -> Publication {
        self.record(obs, Ask::LastWord);
        self.last_words.get(&obs.seat()).copied().unwrap_or_else(|| honest(obs))
    }
}

/// A random generator that returns the given words, then `u32::MAX` forever.
/// Against a probability threshold (C15, C16) `GONE` always "happens" and
/// `HERE` never does (for probabilities below 1).
struct Words {
    words: Vec<u32>,
    at: usize,
}

const GONE: u32 = 0;
const HERE: u32 = u32::MAX;

fn words(w: &[u32]) -> Words {
    Words { words: w.to_vec(), at: 0 }
}

impl TryRng for Words {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let w = self.words.get(self.at).copied().unwrap_or(HERE);
        self.at += 1;
        Ok(w)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let lo = self.try_next_u32()? as u64;
        let hi = self.try_next_u32()? as u64;
        Ok(lo | (hi << 32))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(4) {
            let w = self.try_next_u32()?.to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
        Ok(())
    }
}

fn roles_of(spec: &str) -> Vec<Role> {
    spec.chars()
        .map(|c| match c {
            'D' => Role::Don,
            'M' => Role::Mafioso,
            'C' => Role::Commissar,
            'c' => Role::Citizen,
            _ => panic!("unknown role letter {c:?}"),
        })
        .collect()
}

/// One game with a fixed deal, scripted players and a recorded log.
struct Table {
    game: Game,
    state: State,
    p: Script,
    log: Vec<Event>,
}

fn table(spec: &str, rules: &[(&str, &str)]) -> Table {
    let roles = roles_of(spec);
    let mut setup = Setup::new("test");
    for &r in &roles {
        setup.counts[r as usize] += 1;
    }
    for (k, v) in rules {
        setup.rules.set(k, v).expect("a valid rule setting");
    }
    let game = Game::new(&setup).expect("a valid setup");
    let mut state = State::default();
    state.set_roles(&game, &roles);
    Table { game, state, p: Script::default(), log: Vec::new() }
}

impl Table {
    fn day(&mut self, day: u16) -> Option<End> {
        self.day_with(day, &mut rng(100), &mut rng(200))
    }
    fn day_with(&mut self, day: u16, host: &mut impl Rng, activity: &mut impl Rng) -> Option<End> {
        let from = self.log.len();
        let end = self.state.run_day(&self.game, day, &mut self.p, host, activity, &mut self.log);
        // C12.6: never more than two leave in one day's lynch.
        let lynched =
            self.log[from..].iter().filter(|e| matches!(e, Event::Died { cause: DeathCause::Lynched, .. })).count();
        assert!(lynched <= 2, "{lynched} lynched on day {day}");
        end
    }
    fn night(&mut self, night: u16) -> Option<End> {
        self.night_with(night, &mut rng(300))
    }
    fn night_with(&mut self, night: u16, activity: &mut impl Rng) -> Option<End> {
        self.state.run_night(&self.game, night, &mut self.p, &mut NightMoves::default(), activity, &mut self.log)
    }
    /// A whole game from the fixed deal.
    fn play(&mut self, activity: &mut impl Rng) -> Outcome {
        play_dealt(
            &self.game,
            &mut self.state,
            &mut NightMoves::default(),
            &mut self.p,
            &mut rng(100),
            activity,
            &mut self.log,
        )
    }

    /// The phases in the order they started.
    fn phases(&self) -> Vec<Phase> {
        self.log
            .iter()
            .filter_map(|e| match *e {
                Event::DayStart { day, .. } => Some(Phase::Day(day)),
                Event::NightStart { night, .. } => Some(Phase::Night(night)),
                _ => None,
            })
            .collect()
    }
}

fn is_vote(a: &Ask) -> bool {
    matches!(a, Ask::Vote)
}
fn is_runoff(a: &Ask) -> bool {
    matches!(a, Ask::Runoff(_))
}
fn is_hang(a: &Ask) -> bool {
    matches!(a, Ask::HangBoth(_))
}
fn is_defence(a: &Ask) -> bool {
    matches!(a, Ask::Defence)
}
fn is_night(a: &Ask) -> bool {
    matches!(a, Ask::Night)
}

fn sorted(mut v: Vec<Seat>) -> Vec<Seat> {
    v.sort_unstable();
    v
}

fn end(winner: Option<Camp>, cause: EndCause) -> Option<End> {
    Some(End { winner, cause })
}

/// Random players for property tests: random votes, changes, runoff and
/// hang choices; the mafia usually agree on the lowest non-mafioso.
struct Chaos {
    rng: ChaCha8Rng,
}

impl Chaos {
    fn coin(&mut self, num: u32, den: u32) -> bool {
        below(&mut self.rng, den) < num
    }
    fn alive(obs: &Observation<'_>) {
        assert!(obs.is_alive(obs.seat()), "dead seat {} asked", obs.seat().index());
    }
}

impl Players for Chaos {
    fn new_game(&mut self, _obs: &Observation<'_>) {}
    fn post(&mut self, obs: &Observation<'_>) -> Publication {
        Chaos::alive(obs);
        Publication::NONE
    }
    fn vote(&mut self, obs: &Observation<'_>) -> Vote {
        Chaos::alive(obs);
        if self.coin(1, 5) { Vote::Pass } else { pick(&mut self.rng, obs.others_alive()).map_or(Vote::Pass, Vote::For) }
    }
    fn revise(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        if self.coin(1, 3) { Some(self.vote(obs)) } else { None }
    }
    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet) -> Seat {
        Chaos::alive(obs);
        pick(&mut self.rng, candidates).expect("a runoff has candidates")
    }
    fn hang_both(&mut self, obs: &Observation<'_>, _pair: PlayerSet) -> bool {
        Chaos::alive(obs);
        self.coin(1, 2)
    }
    fn night(&mut self, obs: &Observation<'_>) -> NightChoice {
        Chaos::alive(obs);
        let kill = if self.coin(4, 5) {
            obs.alive().minus(obs.camp_mates()).lowest()
        } else {
            pick(&mut self.rng, obs.alive())
        };
        NightChoice { kill, act: pick(&mut self.rng, obs.others_alive()), ..NightChoice::default() }
    }
    fn last_word(&mut self, obs: &Observation<'_>) -> Publication {
        assert!(!obs.is_alive(obs.seat()));
        Publication::NONE
    }
}

/// Plays `games` random games for each of several setups and rule variants
/// and hands each game and its log to `check`.
fn random_games(games: u64, mut check: impl FnMut(&Game, &[Event])) {
    let variants: [(&str, &[(&str, &str)]); 6] = [
        ("classic", &[]),
        ("classic", &[("tie_break", "random")]),
        ("classic", &[("absence", "0.15"), ("modkill", "0.03")]),
        ("classic", &[("mafia_win", "elimination")]),
        ("classic", &[("no_kill_limit", "off"), ("day_cap", "8")]),
        ("classic-13", &[("runoff_rounds", "1")]),
    ];
    let mut state = State::default();
    let mut moves = NightMoves::default();
    for (v, (preset, rules)) in variants.iter().enumerate() {
        let mut setup = Preset::find(preset).unwrap().setup();
        for (k, val) in rules.iter() {
            setup.rules.set(k, val).unwrap();
        }
        let game = Game::new(&setup).unwrap();
        for g in 0..games {
            let seed = ((v as u64) << 32) | g;
            let mut players = Chaos { rng: rng(seed ^ 0xC4A0) };
            let mut log = Vec::new();
            play(
                &game,
                &mut state,
                &mut moves,
                &mut players,
                Chance { deal: &mut rng(seed), host: &mut rng(seed ^ 0x4057), activity: &mut rng(seed ^ 0xAC71) },
                &mut log,
            );
            check(&game, &log);
        }
    }
}

// ---------------------------------------------------------------------------
// C1 Players and roles
// ---------------------------------------------------------------------------

#[test]
fn c1_classic_preset_is_ten_players_don_two_mafiosi_commissar_six_citizens() {
    let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
    assert_eq!(game.players(), 10);
    assert_eq!(game.count(Role::Don), 1);
    assert_eq!(game.count(Role::Mafioso), 2);
    assert_eq!(game.count(Role::Commissar), 1);
    assert_eq!(game.count(Role::Citizen), 6);
    let mafia = game.role_list().iter().filter(|r| r.camp() == Camp::Mafia).count();
    assert_eq!((mafia, game.players() - mafia), (3, 7));
}

#[test]
fn c1_deal_is_a_permutation_of_the_setup_roles() {
    let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
    let mut want = game.role_list().to_vec();
    want.sort();
    let mut state = State::default();
    let mut deal = rng(1);
    for _ in 0..1000 {
        state.deal(&game, &mut deal);
        let mut got = state.roles().to_vec();
        got.sort();
        assert_eq!(got, want);
        assert_eq!(state.alive(), PlayerSet::first(10));
        assert_eq!(state.camp_members(Camp::Mafia).len(), 3);
        // The deal by role (what the tables count per role) is the same deal.
        let by_role = state.role_seats();
        for r in Role::ALL {
            let seats: PlayerSet = Seat::all(10).filter(|&s| state.role(s) == r).collect();
            assert_eq!(by_role.seats[r as usize], seats, "{r:?}");
            assert_eq!(by_role.dealt.contains(r), !seats.is_empty(), "{r:?}");
        }
    }
    // `play` deals too: its Deal events are a permutation of the setup.
    let mut p = Script::default();
    let mut log = Vec::new();
    play(
        &game,
        &mut state,
        &mut NightMoves::default(),
        &mut p,
        Chance { deal: &mut rng(7), host: &mut rng(8), activity: &mut rng(9) },
        &mut log,
    );
    let mut dealt: Vec<Role> = log
        .iter()
        .filter_map(|e| match *e {
            Event::Deal { role, .. } => Some(role),
            _ => None,
        })
        .collect();
    dealt.sort();
    assert_eq!(dealt, want);
}

#[test]
fn c1_deal_is_uniform() {
    // Uniform deal: seat s holds role r with probability count(r)/10, and two
    // given seats are both mafia with probability 3/10 * 2/9 = 1/15.
    let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
    const N: usize = 20_000;
    let mut count = [[0usize; Role::COUNT]; 10];
    let mut both_mafia = 0usize;
    let mut state = State::default();
    let mut deal = rng(2);
    for _ in 0..N {
        state.deal(&game, &mut deal);
        for (s, &r) in state.roles().iter().enumerate() {
            count[s][r as usize] += 1;
        }
        if state.role(seat(0)).camp() == Camp::Mafia && state.role(seat(9)).camp() == Camp::Mafia {
            both_mafia += 1;
        }
    }
    let within = |got: usize, p: f64| {
        let mean = N as f64 * p;
        let sd = (N as f64 * p * (1.0 - p)).sqrt();
        (got as f64 - mean).abs() <= 5.0 * sd
    };
    for (s, row) in count.iter().enumerate() {
        for r in Role::ALL {
            let p = game.count(r) as f64 / 10.0;
            assert!(within(row[r as usize], p), "seat {s} got {r} {} times of {N}", row[r as usize]);
        }
    }
    assert!(within(both_mafia, 1.0 / 15.0), "{both_mafia}");
}

// ---------------------------------------------------------------------------
// C2 Knowledge at start
// ---------------------------------------------------------------------------

#[test]
fn c2_mafia_know_each_other_town_know_only_themselves() {
    let spec = "cMcDCcMccc";
    let mafia = set(&[seat(1), seat(3), seat(6)]);
    let mut t = table(spec, &[("no_kill_limit", "1")]);
    t.play(&mut rng(0));
    // Every seat is told its camp mates once, before anything else happens.
    let first: Vec<Call> = t.p.calls[..10].to_vec();
    for (s, call) in first.iter().enumerate() {
        let s = Seat::from_index(s);
        assert_eq!(call.seat, s);
        assert_eq!(call.phase, Phase::Day(1));
        let want = if mafia.contains(s) { mafia } else { PlayerSet::single(s) };
        assert_eq!(call.ask, Ask::NewGame(want), "seat {s:?}");
    }
    assert_eq!(t.p.asked(|a| matches!(a, Ask::NewGame(_))).len(), 10, "one conference call per seat");
    // Through the observation: the mafia know each other's roles (the
    // conference names the Don); a town player knows no one else's.
    let st = &t.state;
    assert_eq!(st.observe(seat(1)).mate_role(seat(3)), Some(Role::Don));
    assert_eq!(st.observe(seat(3)).mate_role(seat(6)), Some(Role::Mafioso));
    assert_eq!(st.observe(seat(6)).known_camp(seat(1)), Some(Camp::Mafia));
    for viewer in Seat::all(10) {
        if mafia.contains(viewer) {
            continue;
        }
        assert_eq!(st.observe(viewer).camp_mates(), PlayerSet::single(viewer));
        assert_eq!(st.observe(viewer).role(), roles_of(spec)[viewer]);
        for other in Seat::all(10).filter(|&o| o != viewer) {
            assert_eq!(st.observe(viewer).mate_role(other), None);
            assert_eq!(st.observe(viewer).known_camp(other), None);
        }
    }
}

// ---------------------------------------------------------------------------
// C3 Phases
// ---------------------------------------------------------------------------

#[test]
fn c3_game_starts_with_day_one_all_alive_then_night_one_day_two() {
    let mut t = table("DMMCcccccc", &[("no_kill_limit", "off"), ("day_cap", "3")]);
    t.play(&mut rng(0));
    assert_eq!(
        t.phases(),
        vec![Phase::Day(1), Phase::Night(1), Phase::Day(2), Phase::Night(2), Phase::Day(3), Phase::Night(3)]
    );
    assert!(matches!(
        t.log.iter().find(|e| matches!(e, Event::DayStart { .. })),
        Some(Event::DayStart { day: 1, alive }) if *alive == PlayerSet::first(10)
    ));
    // The first question after the conference is a day-1 question.
    let first = t.p.calls[10];
    assert_eq!(first.phase, Phase::Day(1));
    assert_eq!(first.ask, Ask::Post);
}

#[test]
fn c3_day_cap_ends_in_a_draw() {
    // Nobody is ever lynched and the mafia never shoot; with the no-kill
    // rule off nothing else ends the game.
    let mut t = table("DMMCcccccc", &[("no_kill_limit", "off"), ("day_cap", "4")]);
    let out = t.play(&mut rng(0));
    assert_eq!(out.winner, None);
    assert_eq!(out.cause, EndCause::DayCap);
    assert_eq!(out.days, 4);
    assert_eq!(out.survivors, PlayerSet::first(10));
    let days = t.count(|e| matches!(e, Event::DayStart { .. }));
    assert_eq!(days, 4, "exactly the capped number of days is played");

    // The default cap is 50 days.
    assert_eq!(Rules::default().day_cap, 50);
    let mut t = table("DMMCcccccc", &[("no_kill_limit", "off")]);
    let out = t.play(&mut rng(0));
    assert_eq!((out.winner, out.cause, out.days), (None, EndCause::DayCap, 50));
}

// ---------------------------------------------------------------------------
// C4 Mafia kill
// ---------------------------------------------------------------------------

#[test]
fn c4_same_nick_from_every_living_mafioso_kills() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.shoot(1, &[seat(0), seat(1), seat(2)], seat(5));
    assert_eq!(t.night(1), None);
    assert_eq!(t.deaths(), vec![(seat(5), DeathCause::Killed)]);
    assert!(t.count(|e| matches!(e, Event::NightKill { target, .. } if *target == seat(5))) == 1);
    assert!(!t.state.alive().contains(seat(5)));
    assert_eq!(t.state.nights_without_kill(), 0);
}

#[test]
fn c4_split_nicks_are_a_miss() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.shoot(1, &[seat(0), seat(1)], seat(5)).shoot(1, &[seat(2)], seat(6));
    t.night(1);
    assert_eq!(t.deaths(), vec![]);
    assert_eq!(t.count(|e| matches!(e, Event::NightMiss(MissReason::Disagree(..)))), 1);
    assert_eq!(t.state.alive(), PlayerSet::first(10));
    assert_eq!(t.state.nights_without_kill(), 1);
}

#[test]
fn c4_a_living_mafioso_sending_nothing_is_a_miss() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.shoot(1, &[seat(0), seat(1)], seat(5)); // seat 2 sends nothing
    t.night(1);
    assert_eq!(t.deaths(), vec![]);
    assert!(t.has(Event::NightMiss(MissReason::Silent(seat(2)))));
    assert_eq!(t.state.nights_without_kill(), 1);
}

#[test]
fn c4_only_living_mafiosi_must_agree() {
    let mut t = table("DMMCcccccc", &[]);
    // Day 1: nine votes lynch mafioso 2.
    t.p.day_votes(
        1,
        &[
            f(seat(2)),
            f(seat(2)),
            f(seat(0)),
            f(seat(2)),
            f(seat(2)),
            f(seat(2)),
            f(seat(2)),
            f(seat(2)),
            f(seat(2)),
            f(seat(2)),
        ],
    );
    t.day(1);
    assert_eq!(t.deaths(), vec![(seat(2), DeathCause::Lynched)]);
    // Night 1: the two living mafiosi agree; the dead one is not asked.
    t.p.shoot(1, &[seat(0), seat(1)], seat(5));
    t.night(1);
    assert_eq!(t.deaths(), vec![(seat(2), DeathCause::Lynched), (seat(5), DeathCause::Killed)]);
    assert!(!t.p.asked_in(Phase::Night(1), is_night).contains(&seat(2)));
}

#[test]
fn c4_any_living_player_is_a_legal_target() {
    // The mafia may shoot one of their own.
    let mut t = table("DMMCcccccc", &[]);
    t.p.shoot(1, &[seat(0), seat(1), seat(2)], seat(1));
    t.night(1);
    assert_eq!(t.deaths(), vec![(seat(1), DeathCause::Killed)]);
    assert_eq!(t.state.illegal_decisions(), 0);
    // A dead player is not a legal target: the nick counts as nothing sent.
    t.p.shoot(2, &[seat(0), seat(2)], seat(1));
    t.night(2);
    assert_eq!(t.deaths().len(), 1);
    assert_eq!(t.state.illegal_decisions(), 2);
    assert!(t.has(Event::NightMiss(MissReason::Silent(seat(0)))));
}

// ---------------------------------------------------------------------------
// C5 Don's check
// ---------------------------------------------------------------------------

#[test]
fn c5_dons_check_answers_yes_for_the_commissar() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.act(1, seat(0), seat(3));
    t.night(1);
    assert!(t.has(Event::RoleCheck { seat: seat(0), target: seat(3), role: Role::Commissar, yes: true }));
    let don = t.state.observe(seat(0));
    assert_eq!(don.found_role(), set(&[seat(3)]));
    assert_eq!(don.last_check(), Some((seat(3), CheckOutcome::IsRole(Role::Commissar, true))));
}

#[test]
fn c5_dons_check_answers_no_for_anyone_else() {
    let mut t = table("DMMCcccccc", &[("no_kill_limit", "off")]);
    t.p.act(1, seat(0), seat(5)).act(2, seat(0), seat(1));
    t.night(1);
    t.night(2);
    for target in [5, 1].map(Seat::new) {
        assert!(t.has(Event::RoleCheck { seat: seat(0), target, role: Role::Commissar, yes: false }));
    }
    let don = t.state.observe(seat(0));
    assert_eq!(don.found_role(), PlayerSet::EMPTY);
    assert_eq!(don.checked(), set(&[seat(1), seat(5)]));
    assert_eq!(don.last_check(), Some((seat(1), CheckOutcome::IsRole(Role::Commissar, false))));
}

#[test]
fn c5_the_check_dies_with_the_don() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.day_votes(
        1,
        &[
            f(seat(1)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
        ],
    );
    t.day(1);
    assert_eq!(t.deaths(), vec![(seat(0), DeathCause::Lynched)]);
    // The mafiosi try the Don's move: nobody checks anything.
    t.p.act(1, seat(1), seat(3)).act(1, seat(2), seat(3)).shoot(1, &[seat(1), seat(2)], seat(5));
    t.night(1);
    assert_eq!(t.count(|e| matches!(e, Event::RoleCheck { .. })), 0);
    for s in [1, 2].map(Seat::new) {
        assert_eq!(t.state.observe(s).checked(), PlayerSet::EMPTY);
        assert_eq!(t.state.observe(s).last_check(), None);
    }
    // The mafia's kill itself goes on.
    assert!(t.count(|e| matches!(e, Event::NightKill { target, .. } if *target == seat(5))) == 1);
}

// ---------------------------------------------------------------------------
// C6 Commissar's check
// ---------------------------------------------------------------------------

#[test]
fn c6_commissar_learns_the_team() {
    let mut t = table("DMMCcccccc", &[("no_kill_limit", "off")]);
    t.p.act(1, seat(3), seat(0)).act(2, seat(3), seat(5)).act(3, seat(3), seat(2));
    for n in 1..=3 {
        t.night(n);
    }
    for (target, camp) in [(0, Camp::Mafia), (5, Camp::Town), (2, Camp::Mafia)].map(|(s, c)| (seat(s), c)) {
        assert!(t.has(Event::CampCheck { seat: seat(3), target, camp }));
    }
    let com = t.state.observe(seat(3));
    assert_eq!(com.found_in_camp(Camp::Mafia), set(&[seat(0), seat(2)]));
    assert_eq!(com.found_in_camp(Camp::Town), set(&[seat(5)]));
    assert_eq!(com.known_camp(seat(0)), Some(Camp::Mafia));
    assert_eq!(com.known_camp(seat(5)), Some(Camp::Town));
    assert_eq!(com.known_camp(seat(1)), None, "unchecked stays unknown");
    assert_eq!(com.last_check(), Some((seat(2), CheckOutcome::Camp(Camp::Mafia))));
    // Nobody else learns it.
    assert_eq!(t.state.observe(seat(5)).known_camp(seat(0)), None);
}

// ---------------------------------------------------------------------------
// C7 Simultaneity
// ---------------------------------------------------------------------------

#[test]
fn c7_commissar_killed_tonight_gets_his_result_and_publishes_it() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.act(1, seat(3), seat(0)).shoot(1, &[seat(0), seat(1), seat(2)], seat(3));
    t.night(1);
    assert_eq!(t.deaths(), vec![(seat(3), DeathCause::Killed)]);
    assert!(t.has(Event::CampCheck { seat: seat(3), target: seat(0), camp: Camp::Mafia }));
    // His (honest, scripted) last word is built from what his observation
    // says at that moment: the check is there.
    let mut want = claim(Role::Commissar);
    want.camps[Camp::Mafia as usize] = set(&[seat(0)]);
    assert!(t.has(Event::LastWord { seat: seat(3), what: want }));
    assert!(
        t.index_of(Event::LastWord { seat: seat(3), what: want })
            > t.log
                .iter()
                .position(|e| matches!(e, Event::NightKill { target, .. } if *target == seat(3)))
                .expect("night kill")
    );
    assert_eq!(t.state.observe(seat(7)).said(seat(3)).camps[Camp::Mafia as usize], set(&[seat(0)]));
}

#[test]
fn c7_don_killed_tonight_still_gets_his_check() {
    // The mafia shoot their own Don (C4: any living player) while he checks.
    let mut t = table("DMMCcccccc", &[]);
    t.p.act(1, seat(0), seat(3)).shoot(1, &[seat(0), seat(1), seat(2)], seat(0));
    t.night(1);
    assert_eq!(t.deaths(), vec![(seat(0), DeathCause::Killed)]);
    assert_eq!(t.state.observe(seat(0)).found_role(), set(&[seat(3)]));
    let mut want = claim(Role::Don);
    want.camps[Camp::Town as usize] = set(&[seat(3)]);
    assert!(t.has(Event::LastWord { seat: seat(0), what: want }));
}

// ---------------------------------------------------------------------------
// C8 The no-kill rule
// ---------------------------------------------------------------------------

#[test]
fn c8_three_consecutive_misses_give_the_town_the_win() {
    let mut t = table("DMMCcccccc", &[]);
    // Two mafiosi agree every night, the third never sends a nick.
    t.p.shoot(0, &[seat(0), seat(1)], seat(5));
    let out = t.play(&mut rng(0));
    assert_eq!(out.winner, Some(Camp::Town));
    assert_eq!(out.cause, EndCause::NoKillRule);
    assert_eq!(out.days, 3, "ends at once after night 3");
    assert_eq!(out.survivors, PlayerSet::first(10));
    let counts: Vec<u8> = t
        .log
        .iter()
        .filter_map(|e| match *e {
            Event::NoKillCount { nights } => Some(nights),
            _ => None,
        })
        .collect();
    assert_eq!(counts, vec![1, 2, 3]);
    assert_eq!(t.phases().last(), Some(&Phase::Night(3)));
}

#[test]
fn c8_a_kill_resets_the_count() {
    let mut t = table("DMMCcccccc", &[]);
    // Misses on nights 1, 2; a kill on night 3; misses from night 4 on.
    t.p.shoot(3, &[seat(0), seat(1), seat(2)], seat(9));
    let out = t.play(&mut rng(0));
    assert_eq!(out.winner, Some(Camp::Town));
    assert_eq!(out.cause, EndCause::NoKillRule);
    assert_eq!(out.days, 6, "misses on nights 4, 5, 6 after the kill of night 3");
    assert_eq!(t.deaths(), vec![(seat(9), DeathCause::Killed)]);
}

#[test]
fn c8_no_kill_limit_off_disables_the_rule() {
    let mut t = table("DMMCcccccc", &[("no_kill_limit", "off"), ("day_cap", "10")]);
    let out = t.play(&mut rng(0));
    assert_eq!(out.cause, EndCause::DayCap);
    assert_eq!(out.winner, None);
    assert!(t.state.nights_without_kill() >= 3);
    // The limit is a setting with default 3.
    assert_eq!(Rules::default().no_kill_limit, mafia_engine::NoKillLimit::Auto);
    assert_eq!(Game::new(&Preset::find("classic").unwrap().setup()).unwrap().no_kill_limit(), Some(3));
}

#[test]
fn c8_a_lone_mafioso_may_skip_but_three_skips_in_a_row_lose() {
    let mut t = table("Mccccccc", &[]);
    // Skips nights 1–2, shoots on night 3, skips 4–5 (still allowed), then 6.
    t.p.shoot(3, &[seat(0)], seat(7));
    let out = t.play(&mut rng(0));
    assert_eq!(out.winner, Some(Camp::Town));
    assert_eq!(out.cause, EndCause::NoKillRule);
    assert_eq!(out.days, 6);
    assert_eq!(t.deaths(), vec![(seat(7), DeathCause::Killed)]);
}

// ---------------------------------------------------------------------------
// C9 Roles stay hidden
// ---------------------------------------------------------------------------

#[test]
fn c9_deaths_are_announced_without_the_role() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.day_votes(
        2,
        &[
            f(seat(1)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
        ],
    );
    t.day(2);
    t.p.shoot(2, &[seat(1), seat(2)], seat(3));
    t.night(2);
    assert!(t.has(Event::Died { seat: seat(0), cause: DeathCause::Lynched, revealed: None }));
    assert!(t.has(Event::Died { seat: seat(3), cause: DeathCause::Killed, revealed: None }));
    let st = &t.state;
    for viewer in [4, 5, 9].map(Seat::new) {
        let obs = st.observe(viewer);
        for dead in [0, 3].map(Seat::new) {
            assert_eq!(obs.revealed_role(dead), None);
            assert_eq!(obs.known_camp(dead), None);
            assert!(obs.death(dead).is_some(), "the death itself is public");
        }
        assert_eq!(obs.revealed_in_camp(Camp::Mafia), PlayerSet::EMPTY);
        assert_eq!(obs.revealed_in_camp(Camp::Town), PlayerSet::EMPTY);
        for other in Seat::all(10).filter(|&o| o != viewer) {
            assert_eq!(obs.revealed_role(other), None, "{viewer:?} sees {other:?}");
            assert_eq!(obs.mate_role(other), None);
        }
    }
}

#[test]
fn c9_reveal_roles_on_death_announces_the_role() {
    assert!(!Rules::default().reveal_roles_on_death);
    let mut t = table("DMMCcccccc", &[("reveal_roles_on_death", "true")]);
    t.p.day_votes(
        2,
        &[
            f(seat(1)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
        ],
    );
    t.day(2);
    assert!(t.has(Event::Died { seat: seat(0), cause: DeathCause::Lynched, revealed: Some(Role::Don) }));
    let obs = t.state.observe(seat(5));
    assert_eq!(obs.revealed_role(seat(0)), Some(Role::Don));
    assert_eq!(obs.known_camp(seat(0)), Some(Camp::Mafia));
    assert_eq!(obs.revealed_in_camp(Camp::Mafia), set(&[seat(0)]));
    // The living stay hidden.
    assert_eq!(obs.revealed_role(seat(1)), None);
    assert_eq!(obs.known_camp(seat(1)), None);
}

// ---------------------------------------------------------------------------
// C10 Votes
// ---------------------------------------------------------------------------

#[test]
fn c10_no_vote_for_oneself_or_for_the_dead() {
    let mut t = table("DMMCcccccc", &[]);
    // Seat 4 votes for himself; everybody else passes. Counted, it would be
    // the only vote of day 2 and would lynch him (C11.3).
    t.p.day_votes(2, &[P, P, P, P, f(seat(4)), P, P, P, P, P]);
    t.day(2);
    assert!(t.has(Event::Illegal { seat: seat(4), what: "vote" }));
    assert_eq!(t.lynches(), vec![LynchResult::AllPass]);
    assert_eq!(t.deaths(), vec![]);
    assert_eq!(t.state.observe(seat(0)).vote_of(seat(4)), None);

    // Night 2 kills 9; on day 3 a vote for 9 is refused.
    t.p.shoot(2, &[seat(0), seat(1), seat(2)], seat(9));
    t.night(2);
    t.p.day_votes(3, &[P, P, P, P, P, f(seat(9)), P, P, P]);
    t.day(3);
    assert!(t.has(Event::Illegal { seat: seat(5), what: "vote" }));
    assert_eq!(t.lynches(), vec![LynchResult::AllPass, LynchResult::AllPass]);
}

#[test]
fn c10_one_change_and_the_second_vote_is_final() {
    let mut t = table("DMMCcccccc", &[]);
    // First votes: 5 leads 3–2. Seats 1 and 2 change to 6: 6 leads 4–1.
    t.p.day_votes(2, &[P, f(seat(5)), f(seat(5)), f(seat(5)), f(seat(6)), f(seat(6)), f(seat(4)), P, P, P]);
    t.p.change(2, seat(1), f(seat(6))).change(2, seat(2), f(seat(6)));
    t.day(2);
    assert!(t.has(Event::Vote { seat: seat(1), vote: f(seat(6)), change: true }));
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(6))]);
    assert_eq!(t.deaths(), vec![(seat(6), DeathCause::Lynched)]);
    // Each player is offered his one change exactly once: no third vote.
    assert_eq!(sorted(t.p.asked(|a| matches!(a, Ask::Revise))), Seat::all(10).collect::<Vec<Seat>>());
    let obs = t.state.observe(seat(0));
    assert!(obs.has_changed(seat(1)) && obs.has_changed(seat(2)) && !obs.has_changed(seat(3)));
    assert_eq!(obs.vote_of(seat(1)), Some(f(seat(6))));
}

#[test]
fn c10_yesterdays_final_votes_are_public_the_next_day() {
    let mut t = table("DMMCcccccc", &[]);
    // Day 1: seat 5 changes from 2 to 3 (his final vote); 1 and 3 tie.
    t.p.day_votes(1, &[P, P, P, P, f(seat(1)), f(seat(2)), P, P, P, P]).change(1, seat(5), f(seat(3)));
    t.day(1);
    t.night(1);
    t.day(2);
    // Day 2: everybody reads day 1's final votes, the changes included.
    for viewer in [0, 3, 9].map(Seat::new) {
        let obs = t.state.observe(viewer);
        assert_eq!(
            (obs.prev_vote_of(seat(4)), obs.prev_vote_of(seat(5)), obs.prev_vote_of(seat(6))),
            (Some(f(seat(1))), Some(f(seat(3))), Some(P))
        );
        // A game played from day 1 carries no older record (a position may).
        assert_eq!(obs.carried_votes(), None);
    }
}

#[test]
fn c10_an_absent_player_casts_nothing() {
    let mut t = table("DMMCcccccc", &[("absence", "0.5")]);
    // Day 2 presence draws, seat by seat: 5..9 absent.
    let mut activity = words(&[HERE, HERE, HERE, HERE, HERE, GONE, GONE, GONE, GONE, GONE]);
    t.p.day_votes(2, &[f(seat(1)), P, P, P, P, f(seat(2)), f(seat(2)), f(seat(2)), f(seat(2)), f(seat(2))]);
    t.day_with(2, &mut rng(0), &mut activity);
    for s in (5..10).map(Seat::new) {
        assert!(t.has(Event::Absent { seat: s }));
    }
    // The absent are asked nothing: their scripted votes for 2 never count.
    assert_eq!(sorted(t.p.asked(is_vote)), [0, 1, 2, 3, 4].map(Seat::new));
    assert!(t.p.calls.iter().all(|c| c.seat < seat(5)), "absent seats asked: {:?}", t.p.calls);
    let obs = t.state.observe(seat(0));
    for s in (5..10).map(Seat::new) {
        assert_eq!(obs.vote_of(s), None, "neither PASS nor a vote");
    }
    assert_eq!(obs.vote_of(seat(1)), Some(P));
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(1))]);
}

// ---------------------------------------------------------------------------
// C11 Lynch outcome
// ---------------------------------------------------------------------------

#[test]
fn c11_all_pass_nobody_dies() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.day_votes(2, &[P; 10]);
    assert_eq!(t.day(2), None);
    assert_eq!(t.lynches(), vec![LynchResult::AllPass]);
    assert_eq!(t.deaths(), vec![]);
}

#[test]
fn c11_only_pass_and_absence_nobody_dies() {
    let mut t = table("DMMCcccccc", &[("absence", "0.5")]);
    let mut activity = words(&[GONE, GONE, GONE, GONE, GONE, GONE, HERE, HERE, HERE, HERE]);
    t.p.day_votes(2, &[P; 10]);
    t.day_with(2, &mut rng(0), &mut activity);
    assert_eq!(t.lynches(), vec![LynchResult::AllPass]);
    assert_eq!(t.deaths(), vec![]);
}

#[test]
fn c11_day1_single_vote_is_pardoned() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.day_votes(1, &[f(seat(4)), P, P, P, P, P, P, P, P, P]);
    assert_eq!(t.day(1), None);
    assert_eq!(t.lynches(), vec![LynchResult::Pardoned(seat(4))]);
    assert_eq!(t.deaths(), vec![]);
    assert!(Rules::default().first_day_pardon);
}

#[test]
fn c11_day1_pardon_setting_off_lynches() {
    let mut t = table("DMMCcccccc", &[("first_day_pardon", "false")]);
    t.p.day_votes(1, &[f(seat(4)), P, P, P, P, P, P, P, P, P]);
    t.day(1);
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(4))]);
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched)]);
}

#[test]
fn c11_day1_two_votes_are_not_pardoned() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.day_votes(1, &[f(seat(4)), f(seat(4)), P, P, P, P, P, P, P, P]);
    t.day(1);
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(4))]);
}

#[test]
fn c11_other_days_one_vote_is_enough_against_many_pass() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.day_votes(2, &[f(seat(4)), P, P, P, P, P, P, P, P, P]);
    t.day(2);
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(4))]);
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched)]);
}

#[test]
fn c11_the_most_votes_are_lynched_even_when_pass_outnumbers_them() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.day_votes(3, &[f(seat(4)), f(seat(4)), f(seat(5)), P, P, P, P, P, P, P]);
    t.day(3);
    assert_eq!(t.lynches(), vec![LynchResult::Lynched(seat(4))]);
    assert_eq!(t.deaths(), vec![(seat(4), DeathCause::Lynched)]);
}

// ---------------------------------------------------------------------------
// C12 Catastrophe
// ---------------------------------------------------------------------------

#[test]
fn c12_four_alive_no_runoff() {
    let mut t = table("Mccc", &[]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(0)), P, P]);
    assert_eq!(t.day(2), None);
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(0), seat(1)]))]);
    assert!(t.has(Event::NoRunoffAtFour));
    assert_eq!(t.deaths(), vec![]);
    assert!(t.p.asked(|a| is_defence(a) || is_runoff(a) || is_hang(a)).is_empty());
    // Night falls: the game goes on.
    assert_eq!(t.state.end(), None);
    assert_eq!(t.state.alive().len(), 4);
}

#[test]
fn c12_even_two_tied_majority_hangs_both() {
    let mut t = table("cccccM", &[]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(0)), f(seat(0)), f(seat(1)), P, P]);
    t.p.hang(&[seat(2), seat(3), seat(4)], true).hang(&[seat(5)], false);
    t.p.defences.insert(seat(0), claim(Role::Commissar));
    assert_eq!(t.day(2), None);
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(0), seat(1)]))]);
    // C12.2: the tied defend; the other living players vote, all of them.
    assert_eq!(sorted(t.p.asked(is_defence)), [0, 1].map(Seat::new));
    assert!(t.has(Event::Defence { seat: seat(0), what: claim(Role::Commissar) }));
    assert!(t.has(Event::HangBothVote { pair: set(&[seat(0), seat(1)]) }));
    assert_eq!(sorted(t.p.asked(is_hang)), [2, 3, 4, 5].map(Seat::new));
    assert!(t.p.asked(is_runoff).is_empty(), "two tied, even: no revote");
    assert_eq!(t.deaths(), vec![(seat(0), DeathCause::Lynched), (seat(1), DeathCause::Lynched)]);
}

#[test]
fn c12_even_two_tied_tie_or_minority_pardons_both() {
    for hangers in [&[seat(2), seat(3)][..], &[seat(2)][..], &[][..]] {
        let mut t = table("cccccM", &[]);
        t.p.day_votes(2, &[f(seat(1)), f(seat(0)), f(seat(0)), f(seat(1)), P, P]);
        t.p.hang(hangers, true);
        t.day(2);
        assert!(t.has(Event::HangBothVote { pair: set(&[seat(0), seat(1)]) }));
        assert_eq!(t.deaths(), vec![], "{} of 4 for hanging", hangers.len());
        assert!(t.has(Event::RunoffResult { hanged: PlayerSet::EMPTY }));
    }
}

#[test]
fn c12_even_three_tied_revote_one_leader_is_hanged_alone() {
    let mut t = table("cccccM", &[]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(2)), f(seat(0)), P, P, P]);
    t.p.runoff(seat(3), &[seat(0)]).runoff(seat(4), &[seat(0)]).runoff(seat(5), &[seat(1)]);
    t.day(2);
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(0), seat(1), seat(2)]))]);
    assert!(t.has(Event::Revote { round: 1, candidates: set(&[seat(0), seat(1), seat(2)]) }));
    assert_eq!(sorted(t.p.asked(is_runoff)), [3, 4, 5].map(Seat::new));
    assert!(t.p.asked(is_hang).is_empty());
    assert_eq!(t.deaths(), vec![(seat(0), DeathCause::Lynched)]);
}

#[test]
fn c12_even_three_tied_two_leaders_go_to_the_hang_both_vote() {
    let mut t = table("cccccccM", &[]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(2)), f(seat(0)), f(seat(0)), f(seat(1)), f(seat(2)), P, P]);
    // Revote among 0, 1, 2: 2–2–1.
    t.p.runoff(seat(3), &[seat(0)])
        .runoff(seat(4), &[seat(0)])
        .runoff(seat(5), &[seat(1)])
        .runoff(seat(6), &[seat(1)])
        .runoff(seat(7), &[seat(2)]);
    t.p.hang(&[seat(3), seat(4), seat(5), seat(6), seat(7)], true);
    t.day(2);
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(0), seat(1), seat(2)]))]);
    assert_eq!(sorted(t.p.asked(is_runoff)), [3, 4, 5, 6, 7].map(Seat::new));
    assert!(t.has(Event::HangBothVote { pair: set(&[seat(0), seat(1)]) }));
    let hang_voters = t.p.asked(is_hang);
    assert!(!hang_voters.contains(&seat(0)) && !hang_voters.contains(&seat(1)));
    for s in (3..8).map(Seat::new) {
        assert!(hang_voters.contains(&s));
    }
    assert_eq!(t.deaths(), vec![(seat(0), DeathCause::Lynched), (seat(1), DeathCause::Lynched)]);
}

#[test]
fn c12_even_three_leaders_revote_again() {
    let mut t = table("cccccM", &[]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(2)), f(seat(0)), P, P, P]);
    // Round 1: 1–1–1; round 2: 0 leads.
    t.p.runoff(seat(3), &[seat(0), seat(0)]).runoff(seat(4), &[seat(1), seat(0)]).runoff(seat(5), &[seat(2), seat(2)]);
    t.day(2);
    for round in [1, 2] {
        assert!(t.has(Event::Revote { round, candidates: set(&[seat(0), seat(1), seat(2)]) }));
    }
    assert_eq!(sorted(t.p.asked(is_runoff)), [3, 3, 4, 4, 5, 5].map(Seat::new));
    assert!(t.p.asked(is_hang).is_empty());
    assert_eq!(t.deaths(), vec![(seat(0), DeathCause::Lynched)]);
}

#[test]
fn c12_odd_revote_among_the_tied_and_the_leader_is_hanged() {
    let mut t = table("ccccccM", &[]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(0)), f(seat(0)), f(seat(1)), P, P, P]);
    t.p.runoff(seat(2), &[seat(0)])
        .runoff(seat(3), &[seat(1)])
        .runoff(seat(4), &[seat(1)])
        .runoff(seat(5), &[seat(1)])
        .runoff(seat(6), &[seat(0)]);
    t.day(2);
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(0), seat(1)]))]);
    assert!(t.p.asked(is_hang).is_empty(), "odd: no hang-both vote");
    assert_eq!(sorted(t.p.asked(is_defence)), [0, 1].map(Seat::new));
    assert_eq!(
        t.p.calls.iter().filter(|c| is_runoff(&c.ask)).map(|c| (c.seat, c.ask)).collect::<Vec<_>>(),
        (2..7).map(|s| (seat(s), Ask::Runoff(set(&[seat(0), seat(1)])))).collect::<Vec<_>>()
    );
    assert_eq!(t.deaths(), vec![(seat(1), DeathCause::Lynched)]);
}

#[test]
fn c12_everyone_tied_the_tied_revote_never_for_themselves() {
    // Three alive, one vote each: nobody stands outside the tie. «Голосовать во
    // втором туре должны все»: with `runoff_all_tied = revote` (the default) the
    // tied revote, each among the others. Mafioso 0, citizens 1 and 2.
    let mut t = table("Mcc", &[]);
    assert_eq!(t.game.rules().runoff_all_tied, RunoffAllTied::Revote);
    t.p.day_votes(2, &[f(seat(1)), f(seat(2)), f(seat(0))]);
    t.p.runoff(seat(0), &[seat(1)]).runoff(seat(1), &[seat(0)]).runoff(seat(2), &[seat(0)]);
    t.day(2);
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(0), seat(1), seat(2)]))]);
    assert_eq!(
        t.p.calls.iter().filter(|c| is_runoff(&c.ask)).map(|c| (c.seat, c.ask)).collect::<Vec<_>>(),
        vec![
            (seat(0), Ask::Runoff(set(&[seat(1), seat(2)]))),
            (seat(1), Ask::Runoff(set(&[seat(0), seat(2)]))),
            (seat(2), Ask::Runoff(set(&[seat(0), seat(1)])))
        ]
    );
    assert_eq!(t.deaths(), vec![(seat(0), DeathCause::Lynched)]);
    assert_eq!(t.state.end(), Some(End { winner: Some(Camp::Town), cause: EndCause::MafiaEliminated }));
}

#[test]
fn c12_everyone_tied_runoff_all_tied_nobody_hangs_nobody() {
    let mut t = table("Mcc", &[("runoff_all_tied", "nobody")]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(2)), f(seat(0))]);
    t.day(2);
    assert!(t.p.asked(is_runoff).is_empty(), "nobody is left to revote");
    assert!(t.has(Event::RunoffExhausted));
    assert_eq!(t.deaths(), vec![]);
}

#[test]
fn c12_everyone_tied_two_alive_vote_hang_both_themselves() {
    // Two alive (elimination rules keep the game going), one vote each: the
    // hang-both vote is theirs (C12.3 with `runoff_all_tied = revote`).
    let mut t = table("Mc", &[("mafia_win", "elimination")]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(0))]);
    t.p.hang(&[seat(0)], true).hang(&[seat(1)], false);
    t.day(2);
    assert_eq!(sorted(t.p.asked(is_hang)), [0, 1].map(Seat::new));
    assert_eq!(t.deaths(), vec![], "a tie in the hang-both vote pardons");
}

#[test]
fn c12_repeated_tie_is_revoted_at_most_runoff_rounds_times_then_nobody() {
    // "A revote that ties again under 4 or 5 is repeated at most
    // `runoff_rounds` times; then nobody is hanged": the first revote plus
    // at most `runoff_rounds` repetitions.
    assert_eq!(Rules::default().runoff_rounds, 3);
    for rounds in [1u8, 3] {
        let r = rounds.to_string();
        // Odd (7 alive): tied 0, 1, 2; the revotes keep tying 0 and 1 at 2–2.
        let mut t = table("ccccccM", &[("runoff_rounds", &r)]);
        t.p.day_votes(2, &[f(seat(1)), f(seat(2)), f(seat(0)), P, P, P, P]);
        t.p.runoff(seat(3), &[seat(0)])
            .runoff(seat(4), &[seat(0)])
            .runoff(seat(5), &[seat(1)])
            .runoff(seat(6), &[seat(1)]);
        t.day(2);
        let revotes = t.count(|e| matches!(e, Event::Revote { .. }));
        assert_eq!(revotes, 1 + rounds as usize, "odd, runoff_rounds={rounds}");
        assert_eq!(t.p.asked(is_runoff).len(), 4 * (1 + rounds as usize));
        assert!(t.has(Event::RunoffExhausted));
        assert_eq!(t.deaths(), vec![]);

        // Even (6 alive): three leaders every time.
        let mut t = table("cccccM", &[("runoff_rounds", &r)]);
        t.p.day_votes(2, &[f(seat(1)), f(seat(2)), f(seat(0)), P, P, P]);
        t.p.runoff(seat(3), &[seat(0)]).runoff(seat(4), &[seat(1)]).runoff(seat(5), &[seat(2)]);
        t.day(2);
        let revotes = t.count(|e| matches!(e, Event::Revote { .. }));
        assert_eq!(revotes, 1 + rounds as usize, "even, runoff_rounds={rounds}");
        assert!(t.has(Event::RunoffExhausted));
        assert_eq!(t.deaths(), vec![]);
    }
}

#[test]
fn c12_runoff_accepts_only_candidates() {
    // PASS cannot even be expressed (a runoff answer is a seat); an answer
    // that is not a candidate is refused and counts for nobody.
    let mut t = table("ccccccM", &[]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(0)), f(seat(0)), f(seat(1)), P, P, P]);
    // Round 1: 0–0–1–1 and seat 6 names non-candidate 3: a 2–2 tie.
    // Round 2: seat 6 names 1: 1 leads 3–2.
    t.p.runoff(seat(2), &[seat(0)])
        .runoff(seat(3), &[seat(0)])
        .runoff(seat(4), &[seat(1)])
        .runoff(seat(5), &[seat(1)])
        .runoff(seat(6), &[seat(3), seat(1)]);
    t.day(2);
    assert!(t.has(Event::Illegal { seat: seat(6), what: "runoff vote" }));
    assert_eq!(t.state.illegal_decisions(), 1);
    assert!(!t.has(Event::RunoffVote { seat: seat(6), choice: seat(3) }));
    assert!(t.has(Event::Revote { round: 2, candidates: set(&[seat(0), seat(1)]) }));
    assert_eq!(t.deaths(), vec![(seat(1), DeathCause::Lynched)]);
}

#[test]
fn c12_the_absent_still_vote_in_the_runoff() {
    // C12.8: every living player other than the tied votes; no absence.
    let mut t = table("ccccccM", &[("absence", "0.5")]);
    let mut activity = words(&[HERE, HERE, HERE, HERE, HERE, GONE, GONE]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(0)), f(seat(0)), f(seat(1)), P, f(seat(0)), f(seat(0))]);
    t.p.runoff(seat(2), &[seat(0)])
        .runoff(seat(3), &[seat(1)])
        .runoff(seat(4), &[seat(0)])
        .runoff(seat(5), &[seat(0)])
        .runoff(seat(6), &[seat(1)]);
    t.day_with(2, &mut rng(0), &mut activity);
    assert_eq!(sorted(t.p.asked(is_vote)), [0, 1, 2, 3, 4].map(Seat::new));
    assert_eq!(t.lynches(), vec![LynchResult::Tie(set(&[seat(0), seat(1)]))]);
    assert_eq!(sorted(t.p.asked(is_runoff)), [2, 3, 4, 5, 6].map(Seat::new));
    assert_eq!(t.deaths(), vec![(seat(0), DeathCause::Lynched)]);
}

#[test]
fn c12_tie_break_random_hangs_one_of_the_leaders() {
    for (spec, votes, leaders, games) in [
        ("cccccM", &[f(seat(1)), f(seat(0)), f(seat(0)), f(seat(1)), P, P][..], set(&[seat(0), seat(1)]), 200),
        ("cccccM", &[f(seat(1)), f(seat(2)), f(seat(0)), P, P, P][..], set(&[seat(0), seat(1), seat(2)]), 300),
    ] {
        let mut hanged = [0u32; 3];
        for seed in 0..games {
            let mut t = table(spec, &[("tie_break", "random")]);
            t.p.day_votes(2, votes);
            t.day_with(2, &mut rng(seed), &mut rng(0));
            let d = t.deaths();
            assert_eq!(d.len(), 1, "exactly one is hanged");
            let (s, cause) = d[0];
            assert_eq!(cause, DeathCause::Lynched);
            assert!(leaders.contains(s));
            assert!(t.has(Event::RandomTieBreak { leaders, hanged: s }));
            assert!(t.p.asked(|a| is_defence(a) || is_runoff(a) || is_hang(a)).is_empty());
            hanged[s] += 1;
        }
        // Uniform: each of k leaders about games/k times (5 standard deviations).
        let k = leaders.len() as f64;
        let mean = games as f64 / k;
        let sd = (games as f64 * (1.0 / k) * (1.0 - 1.0 / k)).sqrt();
        for s in leaders.iter() {
            let got = hanged[s] as f64;
            assert!((got - mean).abs() < 5.0 * sd, "{s:?} hanged {got} of {games}");
        }
    }
}

#[test]
fn c12_never_more_than_two_leave_in_one_lynch() {
    let mut doubles = 0;
    random_games(300, |_, log| {
        let mut lynched = 0;
        for e in log {
            match e {
                Event::DayStart { .. } | Event::NightStart { .. } => lynched = 0,
                Event::Died { cause: DeathCause::Lynched, .. } => {
                    lynched += 1;
                    assert!(lynched <= 2, "{log:#?}");
                    if lynched == 2 {
                        doubles += 1;
                    }
                }
                _ => {}
            }
        }
    });
    assert!(doubles > 0, "no hang-both happened: the test proves nothing");
}

// ---------------------------------------------------------------------------
// C13 Last word
// ---------------------------------------------------------------------------

#[test]
fn c13_a_lynched_player_gets_a_last_word_in_the_record() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.day_votes(
        2,
        &[
            f(seat(4)),
            f(seat(4)),
            f(seat(4)),
            f(seat(4)),
            f(seat(0)),
            f(seat(4)),
            f(seat(4)),
            f(seat(4)),
            f(seat(4)),
            f(seat(4)),
        ],
    );
    let lie = claim(Role::Commissar);
    t.p.last_words.insert(seat(4), lie);
    t.day(2);
    let died = t.index_of(Event::Died { seat: seat(4), cause: DeathCause::Lynched, revealed: None });
    let word = t.index_of(Event::LastWord { seat: seat(4), what: lie });
    assert!(word > died);
    assert_eq!(t.p.asked(|a| matches!(a, Ask::LastWord)), [seat(4)]);
    let obs = t.state.observe(seat(0));
    assert_eq!(*obs.said(seat(4)), lie);
    assert!(obs.claimants(Role::Commissar).contains(seat(4)));
}

#[test]
fn c10_c13_claims_rank_in_the_order_they_were_made() {
    // Day 2: seat 7 claims Commissar in his post; seat 4 is lynched and
    // counter-claims in his last word: the later claim, from a lower seat.
    let mut t = table("DMMCcccccc", &[]);
    t.p.posts.insert(seat(7), claim(Role::Commissar));
    t.p.day_votes(
        2,
        &[
            f(seat(4)),
            f(seat(4)),
            f(seat(4)),
            f(seat(4)),
            f(seat(0)),
            f(seat(4)),
            f(seat(4)),
            f(seat(4)),
            f(seat(4)),
            f(seat(4)),
        ],
    );
    t.p.last_words.insert(seat(4), claim(Role::Commissar));
    t.day(2);
    for viewer in [0, 5, 9].map(Seat::new) {
        let obs = t.state.observe(viewer);
        assert_eq!(obs.claimants(Role::Commissar), set(&[seat(4), seat(7)]));
        assert_eq!((obs.claim_rank(seat(7)), obs.claim_rank(seat(4)), obs.claim_rank(seat(3))), (1, 2, 0));
    }
}

#[test]
fn c13_the_commissar_last_word_can_include_his_checks() {
    let mut t = table("DMMCcccccc", &[]);
    t.p.act(1, seat(3), seat(0)).act(2, seat(3), seat(5)).shoot(2, &[seat(0), seat(1), seat(2)], seat(3));
    t.night(1);
    t.night(2);
    let mut want = claim(Role::Commissar);
    want.camps[Camp::Mafia as usize] = set(&[seat(0)]);
    want.camps[Camp::Town as usize] = set(&[seat(5)]);
    assert!(t.has(Event::LastWord { seat: seat(3), what: want }));
    assert_eq!(*t.state.observe(seat(9)).said(seat(3)), want);
}

#[test]
fn c13_every_eliminated_player_gets_exactly_one_last_word() {
    random_games(200, |_, log| {
        for (i, e) in log.iter().enumerate() {
            if let Event::Died { seat, .. } = *e {
                let words: Vec<usize> = log
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| matches!(x, Event::LastWord { seat: s, .. } if *s == seat))
                    .map(|(j, _)| j)
                    .collect();
                assert_eq!(words.len(), 1, "seat {seat:?}: {log:#?}");
                assert!(words[0] > i);
            }
        }
    });
}

// ---------------------------------------------------------------------------
// C14 Fast day and fast night (modelled by absence)
// ---------------------------------------------------------------------------

#[test]
fn c14_an_absent_mafioso_sends_no_nick_and_the_shot_is_missed() {
    let mut t = table("DMMCcccccc", &[("absence", "0.5")]);
    // Night 1 presence draws, seat by seat: mafioso 2 is not online.
    let mut activity = words(&[HERE, HERE, GONE]);
    t.p.shoot(1, &[seat(0), seat(1), seat(2)], seat(5));
    t.night_with(1, &mut activity);
    assert!(t.has(Event::Absent { seat: seat(2) }));
    assert!(!t.p.asked(is_night).contains(&seat(2)));
    assert!(t.has(Event::NightMiss(MissReason::Silent(seat(2)))));
    assert_eq!(t.deaths(), vec![]);
    assert_eq!(t.state.nights_without_kill(), 1);
}

// ---------------------------------------------------------------------------
// C15 Modkills
// ---------------------------------------------------------------------------

#[test]
fn c15_modkill_leaves_with_last_word_no_lynch_that_day_and_night_comes() {
    let mut t = table("DMMCcccccc", &[("modkill", "0.5"), ("no_kill_limit", "1")]);
    // Day 1 modkill draws, seat by seat: seat 5 is modkilled; no other draw
    // ever lands under the threshold.
    let mut activity = words(&[HERE, HERE, HERE, HERE, HERE, GONE]);
    // Everybody would vote for 0 if a vote were held.
    t.p.day_votes(
        0,
        &[
            f(seat(1)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
        ],
    );
    let out = t.play(&mut activity);
    assert!(t.has(Event::Modkill { seat: seat(5) }));
    assert_eq!(t.deaths(), vec![(seat(5), DeathCause::Modkilled)]);
    assert!(t.has(Event::Died { seat: seat(5), cause: DeathCause::Modkilled, revealed: None }));
    assert!(t.has(Event::LastWord { seat: seat(5), what: claim(Role::Citizen) }));
    assert_eq!(t.lynches(), vec![LynchResult::NoVoteModkillDay]);
    assert!(t.p.asked_in(Phase::Day(1), |a| is_vote(a) || matches!(a, Ask::Post)).is_empty());
    // Night 1 still comes (and, the mafia sending nothing, the limit of 1 ends it).
    assert_eq!(t.phases(), vec![Phase::Day(1), Phase::Night(1)]);
    assert_eq!(sorted(t.p.asked_in(Phase::Night(1), is_night)), [0, 1, 2, 3].map(Seat::new));
    assert_eq!((out.winner, out.cause), (Some(Camp::Town), EndCause::NoKillRule));
}

#[test]
fn c15_modkill_probability_one_removes_everyone() {
    let mut t = table("DMMCcccccc", &[("modkill", "1.0")]);
    let out = t.play(&mut rng(0));
    let deaths = t.deaths();
    assert_eq!(deaths.len(), 10);
    assert!(deaths.iter().all(|&(_, c)| c == DeathCause::Modkilled));
    assert_eq!(t.count(|e| matches!(e, Event::LastWord { .. })), 10);
    assert_eq!(out.survivors, PlayerSet::EMPTY);
    assert!(t.p.asked(is_vote).is_empty());
    // Nobody left: neither camp has won (classic is silent; E2 calls it a draw).
    assert_eq!((out.winner, out.cause, out.days), (None, EndCause::Nobody, 1));
}

// ---------------------------------------------------------------------------
// C16 Activity model
// ---------------------------------------------------------------------------

#[test]
fn c16_absence_probability_one_nobody_votes_no_lynch() {
    let mut t = table("DMMCcccccc", &[("absence", "1.0")]);
    t.p.day_votes(
        0,
        &[
            f(seat(1)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
            f(seat(0)),
        ],
    );
    t.p.shoot(0, &[seat(0), seat(1), seat(2)], seat(5));
    let out = t.play(&mut rng(0));
    assert_eq!(t.lynches(), vec![LynchResult::AllPass; 3]);
    assert_eq!(t.deaths(), vec![]);
    // Nobody was ever asked anything but the conference.
    assert!(t.p.calls.iter().all(|c| matches!(c.ask, Ask::NewGame(_))));
    // The mafia never shoot: C8 gives the town the game after night 3.
    assert_eq!((out.winner, out.cause, out.days), (Some(Camp::Town), EndCause::NoKillRule, 3));
    assert_eq!(t.count(|e| matches!(e, Event::Absent { .. })), 60);
}

#[test]
fn c16_absence_probability_zero_everyone_is_present() {
    assert_eq!(Rules::default().absence, 0.0);
    let mut t = table("DMMCcccccc", &[]);
    // Mafia kill 9, 8, 7 on nights 1–3; nobody is lynched.
    t.p.shoot(1, &[seat(0), seat(1), seat(2)], seat(9)).shoot(2, &[seat(0), seat(1), seat(2)], seat(8)).shoot(
        3,
        &[seat(0), seat(1), seat(2)],
        seat(7),
    );
    t.play(&mut rng(0));
    assert_eq!(t.count(|e| matches!(e, Event::Absent { .. })), 0);
    for (day, alive) in [(1u16, 10usize), (2, 9), (3, 8), (4, 7)] {
        assert_eq!(t.p.asked_in(Phase::Day(day), is_vote).len(), alive, "day {day}");
    }
    for night in 1..=3 {
        assert_eq!(sorted(t.p.asked_in(Phase::Night(night), is_night)), [0, 1, 2, 3].map(Seat::new));
    }
}

// ---------------------------------------------------------------------------
// C17 Town wins
// ---------------------------------------------------------------------------

#[test]
fn c17_town_wins_when_no_mafioso_is_alive() {
    let mut t = table("DMcccccc", &[]);
    t.p.day_votes(2, &[f(seat(2)), f(seat(0)), f(seat(0)), f(seat(0)), f(seat(0)), f(seat(0)), f(seat(0)), f(seat(0))]);
    assert_eq!(t.day(2), None, "one mafioso is still alive");
    t.p.day_votes(3, &[P, f(seat(2)), f(seat(1)), f(seat(1)), f(seat(1)), f(seat(1)), f(seat(1)), f(seat(1))]);
    assert_eq!(t.day(3), end(Some(Camp::Town), EndCause::MafiaEliminated));
    assert_eq!(t.state.end(), end(Some(Camp::Town), EndCause::MafiaEliminated));
}

#[test]
fn c17_town_wins_when_the_mafia_shoot_their_last_member() {
    let mut t = table("Mcccc", &[]);
    t.p.shoot(1, &[seat(0)], seat(0));
    assert_eq!(t.night(1), end(Some(Camp::Town), EndCause::MafiaEliminated));
}

// ---------------------------------------------------------------------------
// C18 Mafia wins
// ---------------------------------------------------------------------------

#[test]
fn c18_mafia_win_at_parity() {
    let mut t = table("MMccc", &[]);
    t.p.shoot(1, &[seat(0), seat(1)], seat(2));
    assert_eq!(t.night(1), end(Some(Camp::Mafia), EndCause::Parity));
    // One more than parity is not yet the end.
    let mut t = table("MMcccc", &[]);
    t.p.shoot(1, &[seat(0), seat(1)], seat(2));
    assert_eq!(t.night(1), None);
}

#[test]
fn c18_mafia_win_elimination_plays_on_past_parity() {
    let mut t = table("MMccc", &[("mafia_win", "elimination")]);
    t.p.shoot(1, &[seat(0), seat(1)], seat(2)).shoot(2, &[seat(0), seat(1)], seat(3)).shoot(
        3,
        &[seat(0), seat(1)],
        seat(4),
    );
    let out = t.play(&mut rng(0));
    assert_eq!(out.winner, Some(Camp::Mafia));
    assert_eq!(out.cause, EndCause::TownEliminated);
    assert_eq!(out.days, 3, "2 vs 2 after night 1 and 2 vs 1 after night 2 go on");
    assert_eq!(out.survivors, set(&[seat(0), seat(1)]));
}

// ---------------------------------------------------------------------------
// C19 End checked after every elimination
// ---------------------------------------------------------------------------

#[test]
fn c19_end_is_checked_after_a_day_lynch() {
    let mut t = table("MMccc", &[]);
    // Day 1: four votes lynch citizen 2 (no pardon); 2 mafia vs 2 town.
    t.p.day_votes(1, &[f(seat(2)), f(seat(2)), f(seat(0)), f(seat(2)), f(seat(2))]);
    let out = t.play(&mut rng(0));
    assert_eq!((out.winner, out.cause, out.days), (Some(Camp::Mafia), EndCause::Parity, 1));
    assert_eq!(t.phases(), vec![Phase::Day(1)], "no night after the end");
    let last_word = t.index_of(Event::LastWord { seat: seat(2), what: claim(Role::Citizen) });
    assert_eq!(t.log[last_word + 1], Event::GameEnd { winner: Some(Camp::Mafia), cause: EndCause::Parity, day: 1 });
}

#[test]
fn c19_end_is_checked_after_a_night_kill() {
    let mut t = table("MMcccc", &[]);
    t.p.shoot(1, &[seat(0), seat(1)], seat(2)).shoot(2, &[seat(0), seat(1)], seat(3));
    let out = t.play(&mut rng(0));
    // 2 vs 3 after night 1 goes on; 2 vs 2 after night 2 ends at once.
    assert_eq!((out.winner, out.cause, out.days), (Some(Camp::Mafia), EndCause::Parity, 2));
    assert_eq!(t.phases().last(), Some(&Phase::Night(2)));
    assert!(matches!(t.log.last(), Some(Event::GameEnd { .. })));
    assert!(!t.log.iter().any(|e| matches!(e, Event::NoKillCount { .. })));
}

#[test]
fn c19_end_is_checked_once_after_a_double_lynch() {
    let mut t = table("Mccccc", &[]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(0)), f(seat(0)), f(seat(1)), P, P]);
    t.p.hang(&[seat(2), seat(3), seat(4), seat(5)], true);
    assert_eq!(t.day(2), end(Some(Camp::Town), EndCause::MafiaEliminated));
    let n = t.log.len();
    assert!(matches!(t.log[n - 1], Event::GameEnd { .. }));
    assert!(matches!(t.log[n - 2], Event::LastWord { seat: s, .. } if s == seat(1)));
    assert!(matches!(t.log[n - 3], Event::LastWord { seat: s, .. } if s == seat(0)));
    assert_eq!(t.count(|e| matches!(e, Event::GameEnd { .. })), 1);
}

#[test]
fn c19_end_is_checked_after_a_modkill() {
    let mut t = table("Mccc", &[("modkill", "0.5")]);
    let mut activity = words(&[GONE, HERE, HERE, HERE]);
    t.p.day_votes(2, &[f(seat(1)), f(seat(0)), f(seat(0)), f(seat(0))]);
    assert_eq!(t.day_with(2, &mut rng(0), &mut activity), end(Some(Camp::Town), EndCause::MafiaEliminated));
    assert!(t.p.asked(is_vote).is_empty());
}

#[test]
fn c19_end_is_checked_after_every_elimination_in_random_games() {
    // Replays each log: after every batch of deaths and its last words, the
    // next event is the game's end exactly when an end condition holds
    // (C17, C18 or its elimination setting, nobody left).
    let mut ends = 0;
    random_games(300, |game, log| {
        let mut roles = Vec::new();
        let mut alive = PlayerSet::EMPTY;
        for (i, e) in log.iter().enumerate() {
            match *e {
                Event::Deal { seat, role } => {
                    roles.push(role);
                    alive.insert(seat);
                }
                Event::Died { seat, .. } => alive.remove(seat),
                Event::LastWord { .. } if !matches!(log.get(i + 1), Some(Event::LastWord { .. })) => {
                    let mafia = alive.iter().filter(|&s| roles[s].camp() == Camp::Mafia).count();
                    let town = alive.len() as usize - mafia;
                    let over = mafia == 0
                        || town == 0
                        || (game.mafia_win() == mafia_engine::MafiaWin::Parity && mafia >= town);
                    // C3's day cap ends a game at the next day's start, not by an end check.
                    let next_is_end =
                        matches!(log.get(i + 1), Some(Event::GameEnd { cause, .. }) if *cause != EndCause::DayCap);
                    assert_eq!(next_is_end, over, "event {i}: {log:#?}");
                    if over {
                        ends += 1;
                    }
                }
                _ => {}
            }
        }
        assert!(matches!(log.last(), Some(Event::GameEnd { .. })));
        assert_eq!(log.iter().filter(|e| matches!(e, Event::GameEnd { .. })).count(), 1);
    });
    assert!(ends > 0);
}

impl common::Logged for Table {
    fn events(&self) -> &[Event] {
        &self.log
    }
}
