//! Win rates of a lineup on a preset, without the CLI's tables: a quick
//! look while tuning strategies.
//!
//! ```text
//! cargo run --release -p mafia-agents --example rates -- classic forum 20000
//! ```

use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{Camp, Game, NoLog, Preset};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset = args.first().map_or("classic", String::as_str);
    let spec = args.get(1).map_or("forum", String::as_str);
    let games: u64 = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(20_000);
    let Some(p) = Preset::find(preset) else {
        eprintln!("no preset `{preset}`");
        std::process::exit(2);
    };
    let game = Game::new(&p.setup()).expect("presets are valid");
    let mut lineup = Lineup::default();
    if let Err(e) = lineup.apply(spec) {
        eprintln!("--agents {spec}: {e}");
        std::process::exit(2);
    }
    let mut w = Worker::new(lineup, master_key(1));
    let mut wins = [0u64; Camp::COUNT];
    let (mut days, mut illegal, mut lynched, mut lynched_enemy, mut saves, mut reveals, mut fakes) =
        (0, 0, 0, 0, 0, 0, 0);
    for i in 0..games {
        let o = w.play(&game, i, &mut NoLog);
        if let Some(c) = o.winner {
            wins[c as usize] += 1;
        }
        days += o.days as u64;
        illegal += o.illegal_decisions as u64;
        lynched += o.stats.lynched.iter().map(|&x| x as u64).sum::<u64>();
        lynched_enemy += (o.stats.lynched[1] + o.stats.lynched[2]) as u64;
        saves += o.stats.saves as u64;
        reveals += o.stats.reveals as u64;
        fakes += o.stats.false_claims as u64;
    }
    let g = games as f64;
    println!(
        "{preset} [{spec}] {games} games: town {:.3} mafia {:.3} bandits {:.3} | days {:.2} lynch-hit {:.3} saves {:.3} reveals {:.3} false-claims {:.3} illegal {illegal}",
        wins[0] as f64 / g,
        wins[1] as f64 / g,
        wins[2] as f64 / g,
        days as f64 / g,
        lynched_enemy as f64 / lynched.max(1) as f64,
        saves as f64 / g,
        reveals as f64 / g,
        fakes as f64 / g,
    );
}
