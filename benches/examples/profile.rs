//! A profiling target without Polars or threads: plays N games of a preset
//! on one worker and prints a checksum. For `perf record` or
//! `valgrind --tool=callgrind`:
//!
//! ```text
//! CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo build --release -p mafia-benches --example profile
//! valgrind --tool=callgrind target/release/examples/profile classic random 20000
//! ```

use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{Game, NoLog, Preset};

fn main() {
    let mut args = std::env::args().skip(1);
    let setup = args.next().unwrap_or_else(|| "classic".into());
    let agents = args.next().unwrap_or_else(|| "random".into());
    let games: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(100_000);
    let Some(preset) = Preset::find(&setup) else {
        eprintln!("unknown preset {setup}");
        std::process::exit(2);
    };
    let game = Game::new(&preset.setup()).expect("presets are valid");
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
