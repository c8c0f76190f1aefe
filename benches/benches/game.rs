//! Criterion benches of the engine hot paths.
//!
//! - `game/classic/random`, `game/classic/classic`: one whole game of the
//!   classic setup (C1) played by a reused [`Worker`] with every seat on the
//!   `random` or `classic` strategy; each iteration plays the next game index
//!   of the run, so every iteration is a new deal. This is the per-game cost
//!   behind `mafia run` (no event log).
//! - `day/catastrophe/odd9_three_way`: day 2 of a classic game with 9 alive;
//!   the first votes tie three players, the first revote ties again, the
//!   second hangs one (C12.5).
//! - `day/catastrophe/even10_hang_both`: day 1 with 10 alive; the first votes
//!   tie two players and the hang-both vote hangs both (C12.3).
//! - `night/classic/resolve_night`: resolving prepared night moves (a
//!   unanimous kill, the Don's and the Commissar's checks: C4–C7).
//! - `night/classic/run_night`: a whole night with scripted players: moves,
//!   resolution, the death, the last word, the end check and C8's counter.
//! - `game/extended/random`: one whole game of the `extended` preset (E1: the
//!   20 extended roles) with every seat on `random`, as `game/classic/random`.
//! - `resolve_night/extended`: resolving one full night of the `extended`
//!   preset with every role that has a move moving (night 2 of a fixed deal:
//!   the Actor and the Deputy promoted, the Role Prostitute borrowing, last
//!   night's guest and hex carried; blocks, a redirect, a guard, a heal, a
//!   spare life, checks, reports, marks and the bandits' search). Resolution
//!   changes the state (knowledge, the carried guest, the spare life), so each
//!   iteration resolves a fresh copy of the prepared state: `iter_batched_ref`
//!   clones it outside the timed part, 16 copies a batch (about 125 KB, so
//!   they stay in cache). The timed work is the full resolution every time.
//!
//! The day and night benches reset the state from a template outside the
//! timed part (`iter_batched_ref`). Before measuring, every bench asserts what
//! it measures: determinism of whole runs (a second, independent run must
//! agree game by game) and bounds the rules imply, or the exact outcome of the
//! scripted day or night.
//!
//! Run: `cargo bench --workspace --bench game` (all), `cargo bench
//! --workspace --bench game -- game/` (a filter), or `cargo bench
//! --workspace --bench game -- --test` (each bench once, as a smoke test).
//! `--workspace` keeps the feature set of `cargo build --release` and
//! `cargo test --release --workspace`, so neither rebuilds after it (`-p
//! mafia-benches` alone unifies features differently and makes the next
//! `cargo run --release` recompile).

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use mafia_agents::{Lineup, Strategy, Worker, master_key};
use mafia_benches::{
    COMMISSAR, DEAL, DON, MAFIOSI, Script, classic_game, dealt, ext, extended_game, extended_night, max_days,
    night_moves, play_run, tally,
};
use mafia_engine::{
    Camp, CheckOutcome, EndCause, Event, Fail, Game, Killer, LynchResult, NightAbility, NightMoves, NoLog, PlayerSet,
    Report, Role, Seat, State, Status,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;

/// Games in each determinism check.
const CHECK_GAMES: u64 = 2_000;
/// Games in the random agents' win-rate check: enough that the sampling
/// error (about 0.002 at a rate near 0.1) is small against the bounds.
const RATE_GAMES: u64 = 20_000;
/// Extended games in the outcome check (each camp's share is far above 1/1000).
const EXTENDED_GAMES: u64 = 5_000;
const SEED: u64 = 1;

/// Plays games `0..games` twice on two fresh workers, in opposite orders, and
/// asserts that every game has the same outcome both times: a game depends
/// only on (seed, index). Returns the outcomes in index order.
fn assert_deterministic(game: &Game, lineup: &Lineup, games: u64) -> Vec<(u64, mafia_engine::Outcome)> {
    let forward = play_run(game, lineup, SEED, 0..games);
    let mut backward = play_run(game, lineup, SEED, (0..games).rev());
    backward.reverse();
    assert_eq!(tally(&forward), tally(&backward), "tallies of two runs");
    for (a, b) in forward.iter().zip(&backward) {
        assert_eq!(a, b, "game {} differs between two runs", a.0);
    }
    forward
}

/// Bounds every game must meet under the classic rules (see [`max_days`]).
fn assert_within_rules(game: &Game, outcomes: &[(u64, mafia_engine::Outcome)], limit: u8) {
    let bound = max_days(game.players(), limit);
    assert!(bound <= game.rules().day_cap, "the bound {bound} is under the day cap");
    for (i, o) in outcomes {
        assert!(o.days >= 1 && o.days <= bound, "game {i} lasted {} days, over the bound {bound}", o.days);
        assert_ne!(o.cause, EndCause::DayCap, "game {i} hit the day cap");
        assert!(o.winner.is_some(), "game {i}: no draw is possible here");
    }
}

fn check_random(game: &Game, lineup: &Lineup) {
    let outcomes = assert_deterministic(game, lineup, CHECK_GAMES);
    // `random` mafia always shoot one living non-mafia together (the camp's
    // shared stream), so no night is a miss: the bound with limit 1, and the
    // game ends by C17 or C18 only.
    assert_within_rules(game, &outcomes, 1);
    let many = play_run(game, lineup, SEED, 0..RATE_GAMES);
    assert_within_rules(game, &many, 1);
    let t = tally(&many);
    assert_eq!(t.count(EndCause::MafiaEliminated) + t.count(EndCause::Parity), t.games, "{t:?}");
    assert_eq!(t.illegal, 0, "`random` picks only legal targets: {t:?}");
    let rate = t.town_rate();
    assert!((0.05..=0.40).contains(&rate), "town win rate of random agents {rate} outside [0.05, 0.40]: {t:?}");
}

fn check_classic(game: &Game, lineup: &Lineup) {
    let outcomes = assert_deterministic(game, lineup, CHECK_GAMES);
    let limit = game.no_kill_limit().expect("classic has C8 on");
    assert_within_rules(game, &outcomes, limit);
    let t = tally(&outcomes);
    assert!(t.town_wins > 0 && t.mafia_wins > 0, "both camps win some games: {t:?}");
}

/// Outcomes every extended game of the `extended` preset must have: E2's
/// ends by elimination (its default `mafia_win`), no C8 (its default
/// `no_kill_limit` is off), the day cap as the only bound on length.
fn check_extended_random(game: &Game, lineup: &Lineup) {
    assert!(game.is_extended() && game.no_kill_limit().is_none());
    let outcomes = assert_deterministic(game, lineup, CHECK_GAMES);
    let many = play_run(game, lineup, SEED, 0..EXTENDED_GAMES);
    let cap = game.rules().day_cap;
    for (i, o) in outcomes.iter().chain(&many) {
        assert!(o.days >= 1 && o.days <= cap, "game {i} lasted {} days (cap {cap})", o.days);
        let winner = match o.cause {
            EndCause::MafiaEliminated => Some(Camp::Town),
            EndCause::TownEliminated => Some(Camp::Mafia),
            EndCause::OnlyBandits => Some(Camp::Bandits),
            EndCause::Nobody | EndCause::DayCap => None,
            other => panic!("game {i} ended by {other:?}, which the extended preset's rules do not have"),
        };
        assert_eq!(o.winner, winner, "game {i}: {o:?}");
        assert_eq!(o.survivors.is_empty(), o.cause == EndCause::Nobody, "game {i}: {o:?}");
    }
    let t = tally(&many);
    assert_eq!(t.illegal, 0, "`random` picks only legal moves: {t:?}");
    // Every camp wins some games (three camps, E1), and most games end in a win.
    let share = |wins: u64| wins * 1000 / t.games;
    assert!(
        share(t.town_wins) > 0 && share(t.mafia_wins) > 0 && share(t.bandit_wins) > 0,
        "each camp wins more than 1 game in 1000: {t:?}"
    );
    assert!(t.draws * 2 < t.games, "draws are a minority: {t:?}");
}

fn bench_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("game");
    let game = classic_game();
    for (name, strategy) in [("random", Strategy::Random), ("classic", Strategy::Classic), ("forum", Strategy::Forum)] {
        let lineup = Lineup::all(strategy);
        match strategy {
            Strategy::Random => check_random(&game, &lineup),
            _ => check_classic(&game, &lineup),
        }
        let mut worker = Worker::new(lineup, master_key(SEED));
        let mut index = 0u64;
        group.bench_function(BenchmarkId::new("classic", name), |b| {
            b.iter(|| {
                index += 1;
                worker.play(&game, index, &mut NoLog)
            })
        });
    }
    let game = extended_game();
    let lineup = Lineup::all(Strategy::Random);
    check_extended_random(&game, &lineup);
    let mut worker = Worker::new(lineup, master_key(SEED));
    let mut index = 0u64;
    group.bench_function(BenchmarkId::new("extended", "random"), |b| {
        b.iter(|| {
            index += 1;
            worker.play(&game, index, &mut NoLog)
        })
    });
    // The default strategy set of the extended preset (issue 8's cost target).
    let lineup = Lineup::all(Strategy::Forum);
    let outcomes = assert_deterministic(&game, &lineup, CHECK_GAMES);
    let t = tally(&outcomes);
    assert!(t.town_wins > 0 && t.mafia_wins > 0 && t.illegal == 0, "forum plays legal, contested games: {t:?}");
    let mut worker = Worker::new(lineup, master_key(SEED));
    let mut index = 0u64;
    group.bench_function(BenchmarkId::new("extended", "forum"), |b| {
        b.iter(|| {
            index += 1;
            worker.play(&game, index, &mut NoLog)
        })
    });
    group.finish();
}

/// A state with [`DEAL`] dealt, before day 1.
fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0)
}

/// The C11/C12 events of a log, for checking the procedure a day followed.
fn lynch_events(log: &[Event]) -> Vec<Event> {
    log.iter()
        .copied()
        .filter(|e| {
            matches!(
                e,
                Event::Lynch(_)
                    | Event::Revote { .. }
                    | Event::HangBothVote { .. }
                    | Event::RunoffResult { .. }
                    | Event::RunoffExhausted
            )
        })
        .collect()
}

fn set(seats: &[Seat]) -> PlayerSet {
    seats.iter().copied().collect()
}

/// Day 2 with 9 alive (the mafia killed seat 9 on night 1). First votes:
/// 3 each for seats 0, 1 and 2. Odd count: a revote among them by the six
/// others (C12.2, C12.5); round 1 ties 2-2-2 (again a revote among the three
/// leaders), round 2 gives seat 0 three votes: he alone is hanged.
fn odd_day(game: &Game) -> (State, Script) {
    let mut night = Script::default();
    for m in [DON, MAFIOSI[0], MAFIOSI[1]] {
        night = night.with_night(m, Some(Seat::new(9)), None);
    }
    let mut state = dealt(game);
    let mut moves = NightMoves::default();
    let end = state.run_night(game, 1, &mut night, &mut moves, &mut rng(), &mut NoLog);
    assert_eq!(end, None);
    assert_eq!(state.alive(), PlayerSet::first(9), "night 1 killed seat 9");

    let script = Script::default()
        .with_votes(&[
            (Seat::new(0), Seat::new(1)),
            (Seat::new(1), Seat::new(2)),
            (Seat::new(2), Seat::new(0)),
            (Seat::new(3), Seat::new(0)),
            (Seat::new(4), Seat::new(0)),
            (Seat::new(5), Seat::new(1)),
            (Seat::new(6), Seat::new(1)),
            (Seat::new(7), Seat::new(2)),
            (Seat::new(8), Seat::new(2)),
        ])
        .with_runoff(&[
            (Seat::new(3), Seat::new(0)),
            (Seat::new(4), Seat::new(1)),
            (Seat::new(5), Seat::new(2)),
            (Seat::new(6), Seat::new(0)),
            (Seat::new(7), Seat::new(1)),
            (Seat::new(8), Seat::new(2)),
        ])
        .with_runoff(&[
            (Seat::new(3), Seat::new(0)),
            (Seat::new(4), Seat::new(0)),
            (Seat::new(5), Seat::new(0)),
            (Seat::new(6), Seat::new(1)),
            (Seat::new(7), Seat::new(1)),
            (Seat::new(8), Seat::new(2)),
        ]);
    (state, script)
}

/// Day 1 with 10 alive. First votes: 5 each for seats 0 and 1. Even count,
/// two tied: the eight others vote hang-both or pardon-both (C12.3); with
/// `hangers` of them for hanging.
fn even_day(game: &Game, hangers: usize) -> (State, Script) {
    let mut script = Script::default().with_votes(&[
        (Seat::new(0), Seat::new(1)),
        (Seat::new(1), Seat::new(0)),
        (Seat::new(2), Seat::new(0)),
        (Seat::new(3), Seat::new(0)),
        (Seat::new(4), Seat::new(0)),
        (Seat::new(5), Seat::new(0)),
        (Seat::new(6), Seat::new(1)),
        (Seat::new(7), Seat::new(1)),
        (Seat::new(8), Seat::new(1)),
        (Seat::new(9), Seat::new(1)),
    ]);
    for (k, v) in (2..10u8).enumerate() {
        script.hang[v as usize] = k < hangers;
    }
    (dealt(game), script)
}

fn run_day_logged(game: &Game, day: u16, state: &mut State, script: &mut Script) -> Vec<Event> {
    let mut log: Vec<Event> = Vec::new();
    let end = state.run_day(game, day, script, &mut rng(), &mut rng(), &mut log);
    assert_eq!(end, None, "the game goes on: {log:?}");
    lynch_events(&log)
}

fn check_days(game: &Game) {
    // Odd: two revote rounds, one hanged.
    let (mut state, mut script) = odd_day(game);
    let events = run_day_logged(game, 2, &mut state, &mut script);
    let tied = set(&[Seat::new(0), Seat::new(1), Seat::new(2)]);
    assert_eq!(
        events,
        vec![
            Event::Lynch(LynchResult::Tie(tied)),
            Event::Revote { round: 1, candidates: tied },
            Event::Revote { round: 2, candidates: tied },
            Event::RunoffResult { hanged: set(&[Seat::new(0)]) },
        ]
    );
    assert_eq!(state.alive(), PlayerSet::first(9).without(Seat::new(0)));
    assert_eq!(script.asked.runoff, 12, "six voters, two rounds");
    assert_eq!(script.asked.hang_both, 0);
    assert_eq!(script.asked.last_words, 1);

    // Even, 8 of 8 for hanging: both leave at once (C12.3, C12.6).
    let (mut state, mut script) = even_day(game, 8);
    let pair = set(&[Seat::new(0), Seat::new(1)]);
    let events = run_day_logged(game, 1, &mut state, &mut script);
    assert_eq!(
        events,
        vec![Event::Lynch(LynchResult::Tie(pair)), Event::HangBothVote { pair }, Event::RunoffResult { hanged: pair },]
    );
    assert_eq!(state.alive(), PlayerSet::first(10).minus(pair));
    assert_eq!(state.alive().len(), 8, "two fewer alive");
    assert_eq!(script.asked.hang_both, 8);
    assert_eq!(script.asked.runoff, 0);
    assert_eq!(script.asked.last_words, 2);

    // Even, 4 against 4: a tie in the hang-both vote pardons both (C12.3).
    let (mut state, mut script) = even_day(game, 4);
    let events = run_day_logged(game, 1, &mut state, &mut script);
    assert_eq!(events.last(), Some(&Event::RunoffResult { hanged: PlayerSet::EMPTY }));
    assert_eq!(state.alive(), PlayerSet::first(10));
}

fn bench_days(c: &mut Criterion) {
    let game = classic_game();
    check_days(&game);
    let mut group = c.benchmark_group("day");
    let cases = [("odd9_three_way", 2u16, odd_day(&game)), ("even10_hang_both", 1, even_day(&game, 8))];
    for (name, day, (template, mut script)) in cases {
        let (mut host, mut activity) = (rng(), rng());
        group.bench_function(BenchmarkId::new("catastrophe", name), |b| {
            b.iter_batched_ref(
                || template.clone(),
                |state| state.run_day(&game, day, &mut script, &mut host, &mut activity, &mut NoLog),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// The night of [`DEAL`]: the three mafia all name seat 9 (C4), the Don
/// checks the Commissar (C5), the Commissar checks a mafioso (C6).
fn night_script() -> Script {
    let moves = night_moves();
    let mut script = Script::default();
    for s in Seat::all(DEAL.len()) {
        script = script.with_night(s, moves.kill(s), moves.act(s));
    }
    script
}

fn assert_checks(state: &State) {
    assert_eq!(state.observe(DON).last_check(), Some((COMMISSAR, CheckOutcome::IsRole(Role::Commissar, true))));
    assert_eq!(state.observe(COMMISSAR).last_check(), Some((MAFIOSI[0], CheckOutcome::Camp(Camp::Mafia))));
}

fn check_nights(game: &Game) {
    let mut state = dealt(game);
    let result = state.resolve_night(game, &night_moves(), &mut NoLog);
    assert!(result.shot, "a unanimous shot (C4)");
    assert_eq!(result.killed, set(&[Seat::new(9)]));
    assert_checks(&state);
    // Resolution leaves the dead to the caller.
    assert_eq!(state.alive(), PlayerSet::first(10));

    // A whole night: seat 9 dies and speaks; the checks are learned.
    let mut state = dealt(game);
    let mut script = night_script();
    let mut moves = NightMoves::default();
    let end = state.run_night(game, 1, &mut script, &mut moves, &mut rng(), &mut NoLog);
    assert_eq!(end, None);
    assert_eq!(state.alive(), PlayerSet::first(9));
    assert_eq!(state.nights_without_kill(), 0);
    assert_eq!(script.asked.night, 4, "the Don, two mafiosi, the Commissar");
    assert_eq!(script.asked.last_words, 1);
    assert_checks(&state);

    // One mafioso names another target: a miss, nobody dies (C4), and C8's
    // counter moves.
    let mut state = dealt(game);
    let mut script = night_script().with_night(MAFIOSI[1], Some(Seat::new(8)), None);
    let end = state.run_night(game, 1, &mut script, &mut moves, &mut rng(), &mut NoLog);
    assert_eq!(end, None);
    assert_eq!(state.alive(), PlayerSet::first(10));
    assert_eq!(state.nights_without_kill(), 1);
}

fn bench_nights(c: &mut Criterion) {
    let game = classic_game();
    check_nights(&game);
    let mut group = c.benchmark_group("night");

    let mut state = dealt(&game);
    let moves = night_moves();
    group.bench_function(BenchmarkId::new("classic", "resolve_night"), |b| {
        // Resolution only records checks (idempotent) and does not remove
        // the dead, so the same state serves every iteration.
        b.iter(|| state.resolve_night(&game, black_box(&moves), &mut NoLog))
    });

    let template = dealt(&game);
    let mut script = night_script();
    let mut scratch = NightMoves::default();
    let mut activity = rng();
    group.bench_function(BenchmarkId::new("classic", "run_night"), |b| {
        b.iter_batched_ref(
            || template.clone(),
            |state| state.run_night(&game, 1, &mut script, &mut scratch, &mut activity, &mut NoLog),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// Night 2 of [`extended_night`], resolved by hand from the rules:
/// - control (E29, no cycle): the Thief robs the Shooter, the Psycho invites
///   the Journalist, the Thug beats the Witch; the Swindler sends the
///   Doctor's heal from the Chosen to herself (E11);
/// - protection: the Actor, as the Guard, guards the Boss (E10); the Doctor
///   heals the Swindler;
/// - information: the Boss learns the Role Prostitute holds a role and is
///   town (E7); the Deputy, as the Detective, finds the Psycho a bandit; the
///   Role Prostitute, borrowing the Detective's move (E19), finds the Thief
///   mafia; the invited Journalist's comparison fails (E6);
/// - kills: last night's guest, the Chosen, was not healed: he dies (E23);
///   the Boss's kill (E8) reaches the Lucky, whose spare life absorbs it
///   (E21); the robbed Shooter's shot at the Psycho fails, so no blast (E24);
/// - marks: the beaten Witch's hex fails; the Miner mines the Boss; the
///   Trickster picks the Deputy;
/// - information on moves: the Sleepwalker, watching the Swindler, sees the
///   town Doctor's heal (E22); the Scout learns the Role Prostitute's check
///   (the last camp check), the robbery and the heal (E27); four pairs of
///   bandits meet (E3).
fn check_extended_night(game: &Game, template: &State, moves: &NightMoves) {
    use ext::*;
    let mut state = template.clone();
    let mut log: Vec<Event> = Vec::new();
    let result = state.resolve_night(game, moves, &mut log);
    assert_eq!(result.killed, set(&[CHOSEN]), "only the Chosen dies: {log:#?}");
    assert_eq!(result.guests, set(&[CHOSEN]), "E32: he was the Psycho's guest");
    assert!(result.shot);
    let expected = [
        Event::Redirected { by: SWINDLER, victim: DOCTOR, from: Some(CHOSEN), to: SWINDLER },
        Event::StatusSet { seat: SHOOTER, status: Status::Robbed, by: THIEF },
        Event::StatusSet { seat: JOURNALIST, status: Status::Invited, by: PSYCHO },
        Event::StatusSet { seat: WITCH, status: Status::Beaten, by: THUG },
        Event::Guarded { seat: BOSS, by: ACTOR },
        Event::Healed { seat: SWINDLER, by: DOCTOR },
        Event::BossCheck { seat: BOSS, target: PROSTITUTE, plain: false, camp: Camp::Town },
        Event::CampCheck { seat: DEPUTY, target: PSYCHO, camp: Camp::Bandits },
        Event::CampCheck { seat: PROSTITUTE, target: THIEF, camp: Camp::Mafia },
        Event::Failed {
            seat: JOURNALIST,
            ability: NightAbility::Compare,
            reason: Fail::Blocked { status: Status::Invited, by: Some(PSYCHO) },
        },
        Event::NightKill { target: CHOSEN, by: Killer::Guest(PSYCHO) },
        Event::NightKill { target: LUCKY, by: Killer::Camp { camp: Camp::Mafia, decider: BOSS } },
        Event::Failed {
            seat: SHOOTER,
            ability: NightAbility::Shoot,
            reason: Fail::Blocked { status: Status::Robbed, by: Some(THIEF) },
        },
        Event::SpareLife { seat: LUCKY },
        Event::Failed {
            seat: WITCH,
            ability: NightAbility::Hex,
            reason: Fail::Blocked { status: Status::Beaten, by: Some(THUG) },
        },
        Event::Succeeded { seat: MINER, ability: NightAbility::Mine, target: Some(BOSS) },
        Event::Succeeded { seat: TRICKSTER, ability: NightAbility::Trick, target: Some(DEPUTY) },
        Event::Learned { seat: SLEEPWALKER, report: Report::Watch { target: SWINDLER, camps: [1, 0, 0] } },
        Event::Learned {
            seat: SCOUT,
            report: Report::Scout { checked: Some(THIEF), robbed: Some(SHOOTER), healed: Some(SWINDLER) },
        },
    ];
    for e in expected {
        assert!(log.contains(&e), "missing {e:?} in {log:#?}");
    }
    let meets = log.iter().filter(|e| matches!(e, Event::BanditsMeet { .. })).count();
    assert_eq!(
        meets, 4,
        "E3: the Psycho and the Scout, the Scout and the Thug, the Trickster and the Miner, the Thug and the Psycho"
    );
    assert!(!log.iter().any(|e| matches!(e, Event::NightKill { by: Killer::Blast(_), .. })), "no blast");
    // What the night leaves behind.
    let carry = state.carry();
    assert_eq!(carry.guest, Some(JOURNALIST), "E23: tonight's guest dies next night unless healed");
    assert_eq!((carry.mines, carry.tricked), (set(&[BOSS]), set(&[DEPUTY])));
    assert!(carry.hex_next.is_empty() && !carry.spare_life.contains(LUCKY));
    assert_eq!(carry.swindled, set(&[DOCTOR]));
    assert_eq!(state.observe(BOSS).found_holders(), set(&[PROSTITUTE]));
    assert_eq!(state.observe(PSYCHO).camp_mates(), set(&[PSYCHO, SCOUT, THUG]));
    // The silent resolution (the one benched) ends in the same place.
    let mut silent = template.clone();
    assert_eq!(silent.resolve_night(game, moves, &mut NoLog), result);
    assert_eq!(silent.carry(), carry);
    for s in Seat::all(20) {
        assert_eq!(silent.observe(s).last_report(), state.observe(s).last_report());
        assert_eq!(silent.observe(s).last_check(), state.observe(s).last_check());
    }
}

fn bench_extended_night(c: &mut Criterion) {
    let game = extended_game();
    let (template, moves) = extended_night(&game);
    check_extended_night(&game, &template, &moves);
    let mut group = c.benchmark_group("resolve_night");
    group.bench_function("extended", |b| {
        b.iter_batched_ref(
            || template.clone(),
            |state| state.resolve_night(&game, black_box(&moves), &mut NoLog),
            BatchSize::NumIterations(16),
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench_games, bench_days, bench_nights, bench_extended_night
}
criterion_main!(benches);
