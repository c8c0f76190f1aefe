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
//!
//! The day and night benches reset the state from a template outside the
//! timed part (`iter_batched_ref`). Before measuring, every bench asserts what
//! it measures: determinism of whole runs (a second, independent run must
//! agree game by game) and bounds the rules imply, or the exact outcome of the
//! scripted day or night.
//!
//! Run: `cargo bench -p mafia-benches` (all), `cargo bench -p mafia-benches
//! -- game/` (a filter), or `cargo bench -p mafia-benches -- --test` (each
//! bench once, as a smoke test; `cargo test --release -p mafia-benches
//! --benches` does the same).

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use mafia_agents::{Lineup, Strategy, Worker, master_key};
use mafia_benches::{COMMISSAR, DEAL, DON, MAFIOSI, Script, classic_game, is_deal_of, max_days, play_run, tally};
use mafia_engine::{
    Camp, CheckOutcome, EndCause, Event, Game, LynchResult, Move, NightAbility, NightMoves, NoLog, PlayerSet, Role,
    State,
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

fn bench_games(c: &mut Criterion) {
    let game = classic_game();
    let mut group = c.benchmark_group("game");
    for (name, strategy) in [("random", Strategy::Random), ("classic", Strategy::Classic)] {
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
    group.finish();
}

/// A state with [`DEAL`] dealt, before day 1.
fn dealt(game: &Game) -> State {
    assert!(is_deal_of(game, &DEAL), "DEAL is a classic deal");
    let mut s = State::default();
    s.set_roles(game, &DEAL);
    s
}

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

fn set(seats: &[u8]) -> PlayerSet {
    seats.iter().copied().collect()
}

/// Day 2 with 9 alive (the mafia killed seat 9 on night 1). First votes:
/// 3 each for seats 0, 1 and 2. Odd count: a revote among them by the six
/// others (C12.2, C12.5); round 1 ties 2-2-2 (again a revote among the three
/// leaders), round 2 gives seat 0 three votes: he alone is hanged.
fn odd_day(game: &Game) -> (State, Script) {
    let mut night = Script::default();
    for m in [DON, MAFIOSI[0], MAFIOSI[1]] {
        night = night.with_night(m, Some(9), None);
    }
    let mut state = dealt(game);
    let mut moves = NightMoves::default();
    let end = state.run_night(game, 1, &mut night, &mut moves, &mut rng(), &mut NoLog);
    assert_eq!(end, None);
    assert_eq!(state.alive(), PlayerSet::first(9), "night 1 killed seat 9");

    let script = Script::default()
        .with_votes(&[(0, 1), (1, 2), (2, 0), (3, 0), (4, 0), (5, 1), (6, 1), (7, 2), (8, 2)])
        .with_runoff(&[(3, 0), (4, 1), (5, 2), (6, 0), (7, 1), (8, 2)])
        .with_runoff(&[(3, 0), (4, 0), (5, 0), (6, 1), (7, 1), (8, 2)]);
    (state, script)
}

/// Day 1 with 10 alive. First votes: 5 each for seats 0 and 1. Even count,
/// two tied: the eight others vote hang-both or pardon-both (C12.3); with
/// `hangers` of them for hanging.
fn even_day(game: &Game, hangers: usize) -> (State, Script) {
    let mut script =
        Script::default().with_votes(&[(0, 1), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 1), (7, 1), (8, 1), (9, 1)]);
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
    let tied = set(&[0, 1, 2]);
    assert_eq!(
        events,
        vec![
            Event::Lynch(LynchResult::Tie(tied)),
            Event::Revote { round: 1, candidates: tied },
            Event::Revote { round: 2, candidates: tied },
            Event::RunoffResult { hanged: set(&[0]) },
        ]
    );
    assert_eq!(state.alive(), PlayerSet::first(9).without(0));
    assert_eq!(script.asked.runoff, 12, "six voters, two rounds");
    assert_eq!(script.asked.hang_both, 0);
    assert_eq!(script.asked.last_words, 1);

    // Even, 8 of 8 for hanging: both leave at once (C12.3, C12.6).
    let (mut state, mut script) = even_day(game, 8);
    let pair = set(&[0, 1]);
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
fn night_moves() -> NightMoves {
    let mut moves = NightMoves::default();
    for m in [DON, MAFIOSI[0], MAFIOSI[1]] {
        moves.set_kill(m, Some(9));
    }
    moves.set_move(DON, Move::one(NightAbility::CheckIsRole(Role::Commissar), COMMISSAR));
    moves.set_move(COMMISSAR, Move::one(NightAbility::CheckCamp, MAFIOSI[0]));
    moves
}

fn night_script() -> Script {
    let moves = night_moves();
    let mut script = Script::default();
    for s in 0..DEAL.len() as u8 {
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
    assert_eq!(result.killed, set(&[9]));
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
    let mut script = night_script().with_night(MAFIOSI[1], Some(8), None);
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

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench_games, bench_days, bench_nights
}
criterion_main!(benches);
