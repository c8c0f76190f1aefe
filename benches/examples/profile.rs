//! A profiling target without Polars or threads: plays N games of a preset
//! on one worker and prints a checksum. For `perf record` or
//! `valgrind --tool=callgrind`:
//!
//! ```text
//! CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo build --release -p mafia-benches --example profile
//! valgrind --tool=callgrind target/release/examples/profile classic random 20000
//! valgrind --tool=callgrind target/release/examples/profile uniform random 20000   # the limit kernel's model
//! ```

use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{Game, NoLog, Preset};

fn main() {
    let mut args = std::env::args().skip(1);
    let setup = args.next().unwrap_or_else(|| "classic".into());
    let agents = args.next().unwrap_or_else(|| "random".into());
    let games: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(100_000);
    // `night extended N`: N resolutions of the criterion bench's full
    // extended night (`resolve_night/extended`), each of a fresh copy.
    if setup == "night" {
        let game = mafia_benches::extended_game();
        let (state, moves) = mafia_benches::extended_night(&game);
        let mut shot = 0u64;
        for _ in 0..games {
            let mut s = std::hint::black_box(state.clone());
            shot += s.resolve_night(&game, &moves, &mut NoLog).shot as u64;
        }
        println!("{games} extended nights: {shot} shot");
        return;
    }
    // `uniform`: the limit kernel's model (3 mafiosi, 7 citizens, random tie-breaks).
    let setup_value = if setup == "uniform" {
        mafia_engine::Setup::new("uniform")
            .with(mafia_engine::Role::Mafioso, 3)
            .with(mafia_engine::Role::Citizen, 7)
            .rule("tie_break", "random")
            .expect("a valid rule")
    } else {
        let Some(preset) = Preset::find(&setup) else {
            eprintln!("unknown preset {setup} (or `uniform`)");
            std::process::exit(2);
        };
        preset.setup()
    };
    let game = Game::new(&setup_value).expect("presets are valid");
    let mut lineup = Lineup::default();
    if let Err(e) = lineup.apply(&agents) {
        eprintln!("{e}");
        std::process::exit(2);
    }
    let mut w = Worker::new(lineup, master_key(1));
    let mut checksum = 0u64;
    for i in 0..games {
        let o = w.play(&game, i, &mut NoLog);
        checksum = checksum.wrapping_mul(31).wrapping_add(o.days as u64 * 4 + o.winner.map_or(0, |c| c as u64 + 1));
    }
    println!("{games} games of {setup} with {agents}: checksum {checksum}");
}
