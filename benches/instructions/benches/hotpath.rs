//! Instruction counts of the hot path, under valgrind's callgrind (gungraun):
//! deterministic for a given binary, so CI can hold them to a committed
//! baseline (`baseline.json`, checked by `check.py`) where wall-clock times
//! on a shared machine are noise.
//!
//! - `resolve_night::classic`: 16 resolutions (each of a fresh copy of the
//!   state) of the classic night of `mafia_benches::night_moves`
//!   (a unanimous kill, the Don's and the Commissar's checks; C4–C6).
//! - `resolve_night::extended`: 16 resolutions of one full night of the
//!   `extended` preset with every role that has a move moving
//!   (`mafia_benches::extended_night`), as the criterion bench
//!   `resolve_night/extended`.
//! - `game::*`: whole games played by a reused worker, the per-game cost
//!   behind `mafia run` (no event log): `classic` with `random` agents (the
//!   uniform model) and with the default `forum` strategies, `extended` with
//!   `random` and `forum`; and each preset's default lineup (a mix of
//!   `forum` settings per camp, what `cargo run --release` plays), whose
//!   camps read the thread by different parameters. Each plays a fixed
//!   range of game indices, so the count is of the same games every time;
//!   divide by the games for a per-game figure.
//!
//! Set-up (the game, the worker, the prepared states) is outside the counted
//! part, and so is dropping it: each bench hands its boxed input back.

use gungraun::{library_benchmark, library_benchmark_group, main};
use mafia_agents::{Lineup, Strategy, Worker, master_key};
use mafia_benches::{classic_game, dealt, extended_game, extended_night, night_moves};
use mafia_engine::{Game, NightMoves, NoLog, State};
use std::hint::black_box;

/// Games per `game::*` bench.
pub const CLASSIC_GAMES: u64 = 1000;
pub const EXTENDED_GAMES: u64 = 100;
/// Nights per `resolve_night::*` bench, each on a fresh copy of the state.
pub const NIGHTS: usize = 16;

/// What a night bench resolves: the game, `NIGHTS` copies of the state, the moves.
type Nights = Box<(Game, Vec<State>, NightMoves)>;

fn classic_night() -> Nights {
    let game = classic_game();
    let state = dealt(&game);
    Box::new((game, vec![state; NIGHTS], night_moves()))
}

fn extended_full_night() -> Nights {
    let game = extended_game();
    let (state, moves) = extended_night(&game);
    Box::new((game, vec![state; NIGHTS], moves))
}

// Resolves each copy once. The input goes back out, so its drop is not counted.
#[library_benchmark]
#[bench::classic(setup = classic_night)]
#[bench::extended(setup = extended_full_night)]
fn resolve_night(mut input: Nights) -> Nights {
    let (game, states, moves) = &mut *input;
    for state in states.iter_mut() {
        black_box(state.resolve_night(black_box(game), black_box(moves), &mut NoLog).shot);
    }
    input
}

type Games = Box<(Game, Worker, u64)>;

fn worker(game: Game, strategy: Strategy, games: u64) -> Games {
    Box::new((game, Worker::new(Lineup::all(strategy), master_key(1)), games))
}

fn classic_random() -> Games {
    worker(classic_game(), Strategy::Random, CLASSIC_GAMES)
}

fn classic_forum() -> Games {
    worker(classic_game(), Strategy::Forum, CLASSIC_GAMES)
}

fn extended_random() -> Games {
    worker(extended_game(), Strategy::Random, EXTENDED_GAMES)
}

fn extended_forum() -> Games {
    worker(extended_game(), Strategy::Forum, EXTENDED_GAMES)
}

fn preset(game: Game, name: &str, games: u64) -> Games {
    Box::new((game, Worker::new(Lineup::for_preset(name), master_key(1)), games))
}

fn classic_preset() -> Games {
    preset(classic_game(), "classic", CLASSIC_GAMES)
}

fn extended_preset() -> Games {
    preset(extended_game(), "extended", EXTENDED_GAMES)
}

// Plays games `0..games` on the worker. The input goes back out, so its drop is not counted.
#[library_benchmark]
#[bench::classic_random(setup = classic_random)]
#[bench::classic_forum(setup = classic_forum)]
#[bench::extended_random(setup = extended_random)]
#[bench::extended_forum(setup = extended_forum)]
#[bench::classic_preset(setup = classic_preset)]
#[bench::extended_preset(setup = extended_preset)]
fn game(mut input: Games) -> Games {
    let (game, w, games) = &mut *input;
    for i in 0..*games {
        black_box(w.play(black_box(game), i, &mut NoLog).days);
    }
    input
}

library_benchmark_group!(name = resolve; benchmarks = resolve_night);
library_benchmark_group!(name = games; benchmarks = game);

main!(library_benchmark_groups = resolve, games);
