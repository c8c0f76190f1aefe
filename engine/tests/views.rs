//! No leaks across the agent boundary.
//!
//! Every seat of every preset, and of random extended setups, plays through
//! the owned [`View`] only: each decision is a function of the whole view
//! (its JSON text seeds the choice). Then the same game is played again with
//! the roles of two seats swapped that an observer cannot tell apart at the
//! deal (neither is a camp mate he knows). Until the rules reveal the
//! difference, the observer's views must be identical, byte for byte, in
//! the two games; and the first difference must be something the rules let
//! him see: a public event (a post, a vote, a death, a count, the end), his
//! own private news (a check result, a report, a meeting), or what his camp
//! shares (C2: the mafia's nicks and moves). A leak — the Guard's targets
//! listing the mafia, a hidden role in the record, an option that depends on
//! a hidden fact — shows as a difference that is none of these.

use mafia_engine::{
    Answer, Ask, Camp, Event, Game, Log, MoveOptions, NightChoice, Observation, PRESETS, PlayerSet, Players,
    Publication, Request, Role, RoleSet, Seat, Setup, State, View, Vote,
    encode::{self, ActionError, Layout, Part, Turn},
    play_dealt,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::rc::Rc;

/// The game's log, shared by the engine (writing) and the seats (reading).
#[derive(Clone, Default)]
struct Record(Rc<RefCell<Vec<Event>>>);

impl Log for Record {
    const ENABLED: bool = true;
    fn push(&mut self, e: Event) {
        self.0.borrow_mut().push(e);
    }
}

/// Every seat decides from its view alone; every view is kept.
struct ViewPlayers {
    record: Record,
    /// Per seat: each view and its JSON.
    views: Vec<Vec<(String, View)>>,
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

fn pick(rng: &mut ChaCha8Rng, set: PlayerSet) -> Option<Seat> {
    if set.is_empty() { None } else { set.nth(rng.random_range(0..set.len())) }
}

fn targets(rng: &mut ChaCha8Rng, m: &MoveOptions) -> (Option<Seat>, Option<Seat>) {
    let first = pick(rng, m.targets);
    let second = first.and_then(|f| m.second.iter().find(|o| o.first == f)).and_then(|o| pick(rng, o.options));
    (first, second)
}

/// A talkative, view-only strategy: claims, camp statements, vote changes,
/// every kind of night move, with choices seeded by the view's text.
fn decide(view: &View, text: &str) -> Answer {
    let mut rng = ChaCha8Rng::seed_from_u64(fnv(text));
    let say = |rng: &mut ChaCha8Rng, claims: RoleSet| {
        let mut p = Publication::NONE;
        if rng.random_range(0..3) == 0 && !claims.is_empty() {
            p.claim = claims.nth(rng.random_range(0..claims.len()));
        }
        // Tell the truth about my checks, claim a false one, or accuse somebody.
        p.camps[Camp::Mafia as usize] = view.private.found_mafia;
        if rng.random_range(0..4) == 0
            && let Some(s) = pick(rng, view.alive.without(view.seat))
        {
            p.camps[Camp::Mafia as usize].insert(s);
        }
        if let Some(s) = pick(rng, view.alive.without(view.seat)) {
            p.accuse.insert(s);
        }
        p
    };
    match &view.request {
        Request::Start => Answer::Ready,
        Request::Post { options } => Answer::Post { say: say(&mut rng, options.claims), text: None },
        Request::Defence { options } => Answer::Defence { say: say(&mut rng, options.claims), text: None },
        Request::LastWord { options } => Answer::LastWord { say: say(&mut rng, options.claims), text: None },
        Request::Vote { options } => {
            let vote = if rng.random_range(0..6) == 0 { None } else { pick(&mut rng, *options) };
            Answer::Vote { vote: vote.map_or(Vote::Pass, Vote::For) }
        }
        Request::Revise { options, .. } => Answer::Revise {
            vote: if rng.random_range(0..3) == 0 { pick(&mut rng, *options).map(Vote::For) } else { None },
        },
        Request::Runoff { options } => Answer::Runoff { choice: pick(&mut rng, *options).expect("candidates") },
        Request::HangBoth { .. } => Answer::HangBoth { hang: rng.random() },
        Request::Night { options } => {
            let mut c = NightChoice { kill: options.kill.and_then(|k| pick(&mut rng, k)), ..Default::default() };
            if !options.borrow.is_empty() && rng.random() {
                let b = &options.borrow[rng.random_range(0..options.borrow.len())];
                c.borrow = Some(b.role);
                (c.act, c.second) = targets(&mut rng, &b.act);
            } else if let Some(m) = &options.act
                && rng.random_range(0..5) > 0
            {
                (c.act, c.second) = targets(&mut rng, m);
            }
            c.search = options.search.and_then(|s| pick(&mut rng, s));
            c.defer = options.defer && rng.random_range(0..4) == 0;
            Answer::Night { moves: c }
        }
        Request::Proxy { act, .. } => {
            let mut c = NightChoice::default();
            (c.act, c.second) = targets(&mut rng, act);
            Answer::Proxy { moves: c }
        }
        Request::Appoint { vacant } => Answer::Appoint { role: vacant.nth(rng.random_range(0..vacant.len())) },
        Request::SecretVote { options, .. } => Answer::SecretVote { target: pick(&mut rng, *options) },
    }
}

impl ViewPlayers {
    fn ask(&mut self, obs: &Observation<'_>, ask: Ask) -> Answer {
        let view = View::new(obs, &self.record.0.borrow(), &[], ask);
        let text = serde_json::to_string(&view).expect("a view serialises");
        let answer = decide(&view, &text);
        self.views[obs.seat()].push((text, view));
        answer
    }
}

macro_rules! answer {
    ($e:expr, $p:pat => $v:expr) => {
        match $e {
            $p => $v,
            other => panic!("a {} answer to another request", other.name()),
        }
    };
}

impl Players for ViewPlayers {
    fn new_game(&mut self, obs: &Observation<'_>) {
        self.ask(obs, Ask::Start);
    }
    fn post(&mut self, obs: &Observation<'_>) -> Publication {
        answer!(self.ask(obs, Ask::Post), Answer::Post { say, .. } => say)
    }
    fn vote(&mut self, obs: &Observation<'_>) -> Vote {
        answer!(self.ask(obs, Ask::Vote), Answer::Vote { vote } => vote)
    }
    fn revise(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        answer!(self.ask(obs, Ask::Revise), Answer::Revise { vote } => vote)
    }
    fn defence(&mut self, obs: &Observation<'_>) -> Publication {
        answer!(self.ask(obs, Ask::Defence), Answer::Defence { say, .. } => say)
    }
    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet) -> Seat {
        answer!(self.ask(obs, Ask::Runoff(candidates)), Answer::Runoff { choice } => choice)
    }
    fn hang_both(&mut self, obs: &Observation<'_>, pair: PlayerSet) -> bool {
        answer!(self.ask(obs, Ask::HangBoth(pair)), Answer::HangBoth { hang } => hang)
    }
    fn night(&mut self, obs: &Observation<'_>) -> NightChoice {
        answer!(self.ask(obs, Ask::Night), Answer::Night { moves } => moves)
    }
    fn proxy(&mut self, obs: &Observation<'_>, member: Seat) -> NightChoice {
        answer!(self.ask(obs, Ask::Proxy(member)), Answer::Proxy { moves } => moves)
    }
    fn appoint(&mut self, obs: &Observation<'_>, vacant: RoleSet) -> Option<Role> {
        answer!(self.ask(obs, Ask::Appoint(vacant)), Answer::Appoint { role } => role)
    }
    fn secret_vote(&mut self, obs: &Observation<'_>) -> Option<Seat> {
        answer!(self.ask(obs, Ask::SecretVote), Answer::SecretVote { target } => target)
    }
    fn last_word(&mut self, obs: &Observation<'_>) -> Publication {
        answer!(self.ask(obs, Ask::LastWord), Answer::LastWord { say, .. } => say)
    }
}

/// Plays one game with `roles` by seat; host and activity draws from `seed`.
fn play_views(game: &Game, roles: &[Role], seed: u64) -> (ViewPlayers, Vec<Event>) {
    let mut state = State::default();
    state.set_roles(game, roles);
    let record = Record::default();
    let mut players = ViewPlayers { record: record.clone(), views: vec![Vec::new(); roles.len()] };
    let mut host = ChaCha8Rng::seed_from_u64(seed);
    let mut activity = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut moves = Default::default();
    let mut log = record.clone();
    let out = play_dealt(game, &mut state, &mut moves, &mut players, &mut host, &mut activity, &mut log);
    // The strategy picks only among the options its requests list: all legal.
    assert_eq!(out.illegal_decisions, 0, "a listed option was refused: {:?}", record.0.borrow());
    let events = record.0.borrow().clone();
    (players, events)
}

/// Whether `e` may be the first thing that differs in `me`'s record when
/// two hidden roles are swapped: what the rules make public, `me`'s own
/// news, and (for the mafia, C2) what a known mate did. Written apart from
/// `Event::audience`, which it checks.
fn may_differ(e: &Event, me: Seat, mates: PlayerSet) -> bool {
    let mine = |s: Seat| s == me;
    let ours = |s: Seat| s == me || mates.contains(s);
    match *e {
        Event::Post { .. }
        | Event::Vote { .. }
        | Event::Defence { .. }
        | Event::LastWord { .. }
        | Event::RunoffVote { .. }
        | Event::HangChoice { .. }
        | Event::Lynch(_)
        | Event::Revote { .. }
        | Event::HangBothVote { .. }
        | Event::RunoffResult { .. }
        | Event::RunoffExhausted
        | Event::NoRunoffAtFour
        | Event::RandomTieBreak { .. }
        | Event::MineExplodes { .. }
        | Event::VoteRemoved { .. }
        | Event::Died { .. }
        | Event::DayStart { .. }
        | Event::NightStart { .. }
        | Event::NoKillCount { .. }
        | Event::GameEnd { .. } => true,
        Event::CampCheck { seat, .. }
        | Event::RoleCheck { seat, .. }
        | Event::BossCheck { seat, .. }
        | Event::Learned { seat, .. }
        | Event::SpareLife { seat }
        | Event::SecretVotes { seat, .. }
        | Event::Illegal { seat, .. }
        | Event::Borrowed { seat, .. }
        | Event::SearchNick { seat, .. } => mine(seat),
        Event::BanditsMeet { a, b } | Event::Introduced { a, b } => mine(a) || mine(b),
        Event::NightKillNick { seat, .. } | Event::NightAct { seat, .. } | Event::Promoted { seat, .. } => ours(seat),
        Event::Proxy { boss, .. } => ours(boss),
        Event::NightMiss(_) => !mates.is_empty(),
        _ => false,
    }
}

/// Swaps hidden roles for every seat as observer and compares its views.
/// Returns how many views were compared equal.
fn check_twins(game: &Game, roles: &[Role], seed: u64, rng: &mut ChaCha8Rng) -> usize {
    let n = roles.len();
    let (a, _) = play_views(game, roles, seed);
    let mut compared = 0;
    let mut state = State::default();
    state.set_roles(game, roles);
    for me in Seat::all(n) {
        let mates = state.observe(me).camp_mates().without(me);
        let strangers: Vec<Seat> = Seat::all(n).filter(|&s| s != me && !mates.contains(s)).collect();
        // Two strangers with different roles.
        let pairs: Vec<(Seat, Seat)> = strangers
            .iter()
            .flat_map(|&x| strangers.iter().map(move |&y| (x, y)))
            .filter(|&(x, y)| x < y && roles[x] != roles[y])
            .collect();
        if pairs.is_empty() {
            continue;
        }
        let (x, y) = pairs[rng.random_range(0..pairs.len())];
        let mut swapped = roles.to_vec();
        swapped.swap(x.index(), y.index());
        let (b, _) = play_views(game, &swapped, seed);
        let (va, vb) = (&a.views[me], &b.views[me]);
        let mut differed = false;
        let case = || {
            let (rm, rx, ry) = (roles[me], roles[x], roles[y]);
            format!(
                "seat {} (a {rm}), when seats {} and {} swap roles ({rx} and {ry})",
                me.number(),
                x.number(),
                y.number()
            )
        };
        for (i, ((ta, a), (tb, b))) in va.iter().zip(vb).enumerate() {
            let (ra, rb) = (&a.record, &b.record);
            if ta == tb {
                // Issue 36: the observation tensor, too, is the same until the record differs.
                assert_eq!(tensors(a), tensors(b), "LEAK: {}: tensor #{i} differs with the same view", case());
                compared += 1;
                continue;
            }
            assert_ne!(ra, rb, "LEAK: {}: view #{i} differs with the same record:\n  A: {ta}\n  B: {tb}", case());
            let j = ra.iter().zip(rb).position(|(p, q)| p != q).unwrap_or(ra.len().min(rb.len()));
            for e in [ra.get(j), rb.get(j)].into_iter().flatten() {
                assert!(may_differ(e, me, mates), "LEAK: {} learns {e:?}", case());
            }
            differed = true;
            break;
        }
        if !differed {
            // The observer's whole game looked the same: the same number of views too.
            assert!(
                va.len() == vb.len() || va.last() == vb.last(),
                "seat {} sees games of different lengths",
                me.number()
            );
        }
    }
    compared
}

/// The observation tensors of a view, one per part of its request (or the
/// one of no decision).
fn tensors(view: &View) -> Vec<Vec<f32>> {
    let layout = Layout::new(view.setup.players as usize);
    let parts = Part::of(&view.request);
    let asked: Vec<Option<Part>> = if parts.is_empty() { vec![None] } else { parts.into_iter().map(Some).collect() };
    asked
        .into_iter()
        .map(|p| {
            let mut x = vec![0.0; layout.len()];
            encode::observe(view, p, &mut x);
            x
        })
        .collect()
}

/// Issue 36: every view's tensor has its layout's length and names, values
/// in [0, 1], and says what the view says in the blocks checked here.
#[test]
fn every_view_encodes_within_its_layout() {
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    let mut checked = 0;
    for preset in PRESETS.iter() {
        let game = Game::new(&preset.setup()).unwrap();
        let layout = Layout::new(game.players());
        assert_eq!(layout.names().len(), layout.len(), "{}", preset.name);
        let at = |name: &str| layout.range(name).unwrap_or_else(|| panic!("block {name}"));
        for g in 0..3 {
            let roles = deal(&game, &mut rng);
            let (players, _) = play_views(&game, &roles, g);
            for (_, view) in players.views.iter().flatten() {
                for x in tensors(view) {
                    assert!(x.iter().all(|v| (0.0..=1.0).contains(v)), "{}: a value out of [0, 1]", preset.name);
                    let ones = |name: &str| -> Vec<usize> {
                        x[at(name)].iter().enumerate().filter(|(_, v)| **v == 1.0).map(|(i, _)| i).collect()
                    };
                    assert_eq!(ones("seat"), vec![view.seat.index()]);
                    assert_eq!(ones("role"), vec![view.private.role as usize]);
                    assert_eq!(ones("alive"), view.alive.iter().map(|s| s.index()).collect::<Vec<_>>());
                    assert_eq!(
                        ones("found_mafia"),
                        view.private.found_mafia.iter().map(|s| s.index()).collect::<Vec<_>>()
                    );
                    // Own role known; every death in the record in `lynched` or `dead`.
                    assert_eq!(
                        x[at("known").start + view.seat.index() * Role::COUNT + view.private.role as usize],
                        1.0
                    );
                    for e in &view.record {
                        if let Event::Died { seat, .. } = e {
                            assert!(ones("lynched").contains(&seat.index()) || ones("dead").contains(&seat.index()));
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "{checked} tensors checked");
}

/// Issue 36: for every request of every preset's views, every action the
/// mask allows, at every part, completed by random legal actions, makes an
/// answer the request admits; an action the mask forbids is refused.
#[test]
fn every_legal_action_makes_an_admitted_answer() {
    let mut rng = ChaCha8Rng::seed_from_u64(3600);
    let mut answers = 0;
    for preset in PRESETS.iter() {
        let game = Game::new(&preset.setup()).unwrap();
        let n = game.players();
        let encoding = Layout::new(n).describe();
        let described = &encoding.parts;
        assert_eq!(encoding.actions, n + 3);
        assert_eq!(encoding.names.len(), encoding.observation_len);
        for b in &encoding.blocks {
            assert_eq!(Layout::new(n).range(&b.name), Some(b.offset..b.offset + b.width), "{}", b.name);
            assert!(!b.about.is_empty(), "block {} is described", b.name);
        }
        for g in 0..2 {
            let roles = deal(&game, &mut rng);
            let (players, _) = play_views(&game, &roles, g);
            for (_, view) in players.views.iter().flatten() {
                let turn = Turn::new(view, &mut rng);
                let mut mask = vec![0u8; encode::actions(n)];
                // Every prefix of the parts: each legal action, then random legal ones.
                let mut prefix = turn.clone();
                while prefix.part().is_some() {
                    prefix.mask(&mut mask);
                    let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a] == 1).collect();
                    assert!(!legal.is_empty(), "{}: no legal action for {:?}", preset.name, prefix.part());
                    if let Some(bad) = (0..mask.len()).find(|&a| mask[a] == 0) {
                        assert_eq!(prefix.clone().act(bad, &mut rng), Err(ActionError::Illegal(bad)));
                    }
                    // Every legal action has a meaning in the described encoding.
                    let part = prefix.part().expect("asked").name();
                    let meanings = described.iter().find(|p| p.part == part).expect("every part described");
                    for &a in &legal {
                        let meaning = match a {
                            0 => &meanings.action_0,
                            a if a <= n => &meanings.seat_actions,
                            a if a == n + 1 => &meanings.action_n1,
                            _ => &meanings.action_n2,
                        };
                        assert!(
                            !meaning.is_empty(),
                            "{}: action {a} of {part} is legal but described as not",
                            preset.name
                        );
                    }
                    for &a in &legal {
                        let mut t = prefix.clone();
                        t.act(a, &mut rng).unwrap();
                        while t.part().is_some() {
                            t.mask(&mut mask);
                            let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a] == 1).collect();
                            t.act(legal[rng.random_range(0..legal.len())], &mut rng).unwrap();
                        }
                        let answer = t.answer().expect("every part chosen");
                        assert!(view.request.admits(answer), "{}: {answer:?} to {:?}", preset.name, view.request);
                        answers += 1;
                    }
                    let pick = legal[rng.random_range(0..legal.len())];
                    prefix.act(pick, &mut rng).unwrap();
                }
                let answer = prefix.answer().expect("a turn ends with an answer");
                assert!(view.request.admits(answer), "{}: {answer:?} to {:?}", preset.name, view.request);
                assert_eq!(prefix.act(0, &mut rng), Err(ActionError::Done));
            }
        }
    }
    assert!(answers > 10_000, "{answers} answers checked");
}

fn deal(game: &Game, rng: &mut ChaCha8Rng) -> Vec<Role> {
    let mut state = State::default();
    state.deal(game, rng);
    state.roles().to_vec()
}

#[test]
fn no_view_leaks_a_hidden_fact_in_any_preset() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for preset in PRESETS.iter() {
        for rules in [vec![], vec![("reveal_roles_on_death", "true"), ("tie_break", "random"), ("absence", "0.1")]] {
            let mut setup = preset.setup();
            for (k, v) in &rules {
                setup.rules.set(k, v).unwrap();
            }
            let game = Game::new(&setup).unwrap();
            let mut compared = 0;
            for g in 0..6 {
                let roles = deal(&game, &mut rng);
                compared += check_twins(&game, &roles, g, &mut rng);
            }
            assert!(compared > 50, "{}: only {compared} views compared", preset.name);
        }
    }
}

/// A random setup drawn from all 24 roles.
fn random_setup(rng: &mut ChaCha8Rng) -> Game {
    loop {
        let n = rng.random_range(6..=20u64);
        let mut setup = Setup::new("random");
        let mafia: Vec<Role> = Role::ALL.iter().copied().filter(|r| r.camp() == Camp::Mafia).collect();
        let town: Vec<Role> = Role::ALL.iter().copied().filter(|r| r.camp() == Camp::Town).collect();
        let bandits: Vec<Role> = Role::ALL.iter().copied().filter(|r| r.camp() == Camp::Bandits).collect();
        let m = 1 + n / 4;
        let b = if rng.random() { rng.random_range(0..=2u64) } else { 0 };
        let add = |setup: &mut Setup, pool: &[Role], k: u64, rng: &mut ChaCha8Rng| {
            for _ in 0..k {
                let r = pool[rng.random_range(0..pool.len())];
                let c = &mut setup.counts[r as usize];
                if *c == 0 || !r.info().unique {
                    *c += 1;
                }
            }
        };
        add(&mut setup, &mafia, m, rng);
        add(&mut setup, &bandits, b, rng);
        let have = setup.players();
        add(&mut setup, &town, n.saturating_sub(have), rng);
        for (k, v) in [("resolution", ["graph", "sequential"]), ("tie_break", ["catastrophe", "random"])] {
            setup.rules.set(k, v[rng.random_range(0..2)]).unwrap();
        }
        if rng.random() {
            setup.rules.set("reveal_roles_on_death", "true").unwrap();
        }
        if let Ok(game) = Game::new(&setup) {
            return game;
        }
    }
}

#[test]
fn no_view_leaks_a_hidden_fact_in_random_extended_setups() {
    let mut rng = ChaCha8Rng::seed_from_u64(88);
    let mut compared = 0;
    for g in 0..48 {
        let game = random_setup(&mut rng);
        let roles = deal(&game, &mut rng);
        compared += check_twins(&game, &roles, g, &mut rng);
    }
    assert!(compared > 500, "only {compared} views compared");
}

/// The leak the issue named: any seat could list the living mafia by asking
/// for the Guard's targets (E10). Only the Guard's own view lists them now.
#[test]
fn e10_only_the_guard_is_offered_the_mafia_as_targets() {
    let preset = PRESETS.iter().find(|p| p.name == "extended").unwrap();
    let game = Game::new(&preset.setup()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let mut state = State::default();
    state.deal(&game, &mut rng);
    let mafia = state.living(Camp::Mafia);
    for s in Seat::all(state.players()) {
        let obs = state.observe(s);
        let listed = obs.targets(mafia_engine::NightAbility::Guard);
        if state.role(s) == Role::Guard {
            assert_eq!(listed, mafia);
        } else {
            assert!(listed.is_empty(), "seat {} ({}) sees {listed:?}", s.number(), state.role(s));
        }
    }
}

/// Requests and answers survive JSON both ways (an agent in another
/// language reads the one and writes the other), and a game asks every
/// common kind of decision.
#[test]
fn requests_and_answers_round_trip_through_json() {
    let preset = PRESETS.iter().find(|p| p.name == "extended").unwrap();
    let game = Game::new(&preset.setup()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let roles = deal(&game, &mut rng);
    let (players, _) = play_views(&game, &roles, 3);
    let mut kinds = std::collections::BTreeSet::new();
    for (text, view) in players.views.iter().flatten() {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        let seat = v["seat"].as_u64().unwrap();
        assert_eq!(seat, u64::from(view.seat.number()), "seats are numbered from 1");
        let request: Request = serde_json::from_value(v["request"].clone()).unwrap();
        assert_eq!(request, view.request);
        kinds.insert(request.name());
        let answer = decide(view, text);
        let back: Answer = serde_json::from_str(&serde_json::to_string(&answer).unwrap()).unwrap();
        assert_eq!(back, answer);
    }
    for k in ["start", "post", "vote", "revise", "night", "last_word"] {
        assert!(kinds.contains(k), "no {k} request in {kinds:?}");
    }
}

/// The seats a mask allows (actions `1..=n`).
fn mask_seats(mask: &[u8], n: usize) -> PlayerSet {
    let mut s = PlayerSet::EMPTY;
    for i in 0..n {
        if mask[i + 1] == 1 {
            s.insert(Seat::new(i as u8));
        }
    }
    s
}

/// Issue 36: the mask of every part lists exactly the options the request
/// lists — no more (the engine would refuse them), no fewer (a learner
/// could not reach them) — on every preset and on random setups of all 24
/// roles: the seats of a vote, a runoff, a secret vote, a night's kill,
/// search and single-target move, the subjects of a speech; "pass" or "no
/// move" exactly where the request admits one.
#[test]
fn every_mask_lists_exactly_the_requests_options() {
    let mut rng = ChaCha8Rng::seed_from_u64(3601);
    let mut games: Vec<Game> = PRESETS.iter().map(|p| Game::new(&p.setup()).unwrap()).collect();
    games.extend((0..24).map(|_| random_setup(&mut rng)));
    let mut checked = 0;
    for (g, game) in games.iter().enumerate().flat_map(|(i, game)| [(2 * i, game), (2 * i + 1, game)]) {
        let n = game.players();
        let roles = deal(game, &mut rng);
        let (players, _) = play_views(game, &roles, g as u64);
        let mut mask = vec![0u8; encode::actions(n)];
        for (_, view) in players.views.iter().flatten() {
            let mut turn = Turn::new(view, &mut rng);
            while let Some(part) = turn.part() {
                turn.mask(&mut mask);
                let seats = mask_seats(&mask, n);
                let none = mask[0] == 1;
                let me = view.seat;
                match (&view.request, part) {
                    (Request::Vote { options }, _) => {
                        assert_eq!((seats, none), (*options, view.request.admits(&Answer::Vote { vote: Vote::Pass })));
                    }
                    (Request::Revise { options, .. }, _) => assert_eq!((seats, none), (*options, true)),
                    (Request::Runoff { options }, _) => assert_eq!((seats, none), (*options, false)),
                    (Request::SecretVote { options, .. }, _) => assert_eq!(seats, *options),
                    (Request::Post { options } | Request::Defence { options } | Request::LastWord { options }, _) => {
                        assert_eq!((seats, none), (options.about, true), "{me:?}")
                    }
                    (Request::Night { options }, Part::NightKill) => {
                        assert_eq!((seats, none), (options.kill.expect("a kill part has a kill"), true))
                    }
                    (Request::Night { options }, Part::NightSearch) => {
                        assert_eq!((seats, none), (options.search.expect("a search part has a search"), true))
                    }
                    (Request::Night { options }, Part::NightMove) if options.borrow.is_empty() => {
                        let m = options.act.as_ref().expect("a move part has a move");
                        // A two-target move's first targets: those with a second.
                        let firsts = if m.second.is_empty() {
                            m.targets
                        } else {
                            m.second.iter().filter(|o| !o.options.is_empty()).map(|o| o.first).collect()
                        };
                        assert_eq!((seats, none), (firsts, true));
                    }
                    _ => {}
                }
                checked += 1;
                let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a] == 1).collect();
                turn.act(legal[rng.random_range(0..legal.len())], &mut rng).unwrap();
            }
        }
    }
    assert!(checked > 5_000, "{checked} parts checked");
}
