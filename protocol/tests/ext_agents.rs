//! External agents through the protocol: real processes (`tests/agents/seeded.py`),
//! real games. Results reproduce whatever the pool size and thread count;
//! every misbehaviour of an agent ends in the stated fallback, counted, with
//! every game finished.

use mafia_agents::{Lineup, Strategy, Worker, master_key};
use mafia_engine::{Game, NoLog, Outcome, Preset, Seat};
use mafia_protocol::{Fallback, FaultKind, Pool, Settings};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn agent(mode: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/agents/seeded.py");
    format!("{} {mode}", path.display())
}

fn settings(mode: &str, procs: usize) -> Settings {
    let mut s = Settings::new(&agent(mode));
    s.procs = procs;
    s.timeout = Duration::from_millis(1500);
    s.restarts = 2;
    s.log_dir = std::env::temp_dir();
    s
}

fn classic() -> Game {
    Game::new(&Preset::find("classic").expect("a preset").setup()).expect("valid")
}

/// A lineup with `spec` (which names `ext:…` agents) and the pools it made.
fn lineup(spec: &str, base: &Settings) -> (Lineup, Vec<Arc<Pool>>) {
    let mut l = Lineup::default();
    let mut pools = Vec::new();
    mafia_protocol::register(&mut l, &[spec], base, &mut pools).expect("the agent exists");
    l.apply(spec).expect("a valid spec");
    (l, pools)
}

/// Plays games `0..n` on `threads` rayon threads; outcomes in game order.
fn play(l: &Lineup, n: u64, threads: usize) -> Vec<(Outcome, bool)> {
    use rayon::prelude::*;
    let game = classic();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("threads");
    pool.install(|| {
        (0..n)
            .into_par_iter()
            .map_init(
                || Worker::new(l.clone(), master_key(7)),
                |w, i| {
                    let o = w.play(&game, i, &mut NoLog);
                    (o, !w.forfeited().is_empty())
                },
            )
            .collect()
    })
}

fn spec(mode: &str) -> String {
    format!("forum,mafia=ext:{}", agent(mode))
}

#[test]
fn same_seed_same_games_whatever_the_pool_size_and_threads() {
    let (one, pools_one) = lineup(&spec("ok"), &settings("ok", 1));
    let (three, pools_three) = lineup(&spec("ok"), &settings("ok", 3));
    let a = play(&one, 60, 1);
    let b = play(&three, 60, 3);
    assert_eq!(a, b);
    // The agent really played: no fallback, and its seats are plugins.
    assert_eq!(pools_one[0].faults().total(), 0);
    assert_eq!(pools_three[0].faults().total(), 0);
    assert!(matches!(one.for_role(mafia_engine::Role::Mafioso), Strategy::Plugin(_)));
    // And the games differ from the forum mafia's (the agent's moves count).
    let forum = play(&Lineup::default(), 60, 1);
    assert_ne!(a.iter().map(|g| g.0.winner).collect::<Vec<_>>(), forum.iter().map(|g| g.0.winner).collect::<Vec<_>>());
}

/// Plays `games` with a misbehaving mafia and returns the faults of the
/// mafia seats, by kind, and the forfeited games.
fn misbehave(mode: &str, fallback: Fallback, games: u64) -> ([u64; FaultKind::COUNT], usize, Vec<(Outcome, bool)>) {
    let mut s = settings(mode, 1);
    s.fallback = fallback;
    let (l, pools) = lineup(&spec(mode), &s);
    let played = play(&l, games, 1);
    let f = pools[0].faults();
    let mut by_kind = [0; FaultKind::COUNT];
    for seat in Seat::all(10) {
        for k in FaultKind::ALL {
            by_kind[k as usize] += f.get(seat, k);
        }
    }
    let forfeits = played.iter().filter(|g| g.1).count();
    (by_kind, forfeits, played)
}

#[test]
fn an_agent_that_prints_garbage_falls_back_and_the_run_finishes() {
    let (f, _, played) = misbehave("garbage", Fallback::Random, 8);
    assert_eq!(played.len(), 8);
    assert!(f[FaultKind::Malformed as usize] >= 3, "{f:?}");
    // Killed at each garbage line, restarted twice, then down for the rest.
    assert!(f[FaultKind::Down as usize] > 0, "{f:?}");
}

#[test]
fn an_answer_for_the_wrong_game_is_a_mismatch() {
    let (f, _, played) = misbehave("wrong-game", Fallback::Random, 5);
    assert_eq!(played.len(), 5);
    assert!(f[FaultKind::Mismatch as usize] > 0, "{f:?}");
    assert_eq!(f[FaultKind::Crash as usize] + f[FaultKind::Malformed as usize], 0, "{f:?}");
}

#[test]
fn an_illegal_answer_is_refused_before_the_engine() {
    let (f, _, played) = misbehave("illegal", Fallback::Random, 5);
    assert!(f[FaultKind::Illegal as usize] > 0, "{f:?}");
    // The fallback is legal: the engine refused nothing.
    assert!(played.iter().all(|g| g.0.illegal_decisions == 0));
}

#[test]
fn an_agent_that_exits_at_start_is_restarted_then_down() {
    let (f, _, played) = misbehave("exit", Fallback::Random, 4);
    assert_eq!(played.len(), 4);
    // The starts at a game's start (before any decision) are counted
    // nowhere: each decision is one crash or, restarts used up, one down
    // (issue 35: the agent that never started was counted twice).
    assert!(f[FaultKind::Down as usize] > 0, "{f:?}");
    assert_eq!(f.iter().sum::<u64>(), f[FaultKind::Crash as usize] + f[FaultKind::Down as usize], "{f:?}");
    // Every decision asked got no answer: one fault each, no more.
    let (l, pools) = lineup(&spec("exit"), &settings("exit", 1));
    play(&l, 4, 1);
    assert_eq!(pools[0].faults().total(), pools[0].faults().requests());
}

#[test]
fn an_agent_that_never_answers_times_out() {
    let (f, _, played) = misbehave("silent", Fallback::Random, 2);
    assert_eq!(played.len(), 2);
    assert!(f[FaultKind::Timeout as usize] >= 1, "{f:?}");
}

#[test]
fn a_crashing_agent_is_restarted() {
    let (l, pools) = lineup(&spec("crash-3"), &settings("crash-3", 1));
    let played = play(&l, 3, 1);
    assert_eq!(played.len(), 3);
    // Each start answers three requests and exits; the pool restarts it
    // (a request in flight at the exit falls back as a crash).
    let f = pools[0].faults();
    assert!(f.restarts() >= 1, "restarts {}", f.restarts());
}

#[test]
fn a_flood_on_stderr_goes_to_a_capped_log_not_the_results() {
    let dir = std::env::temp_dir().join(format!("mafia-ext-flood-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = settings("flood", 1);
    s.log_dir = dir.clone();
    let (l, pools) = lineup(&spec("flood"), &s);
    let played = play(&l, 5, 1);
    assert_eq!(pools[0].faults().total(), 0);
    assert_eq!(played, play(&lineup(&spec("ok"), &settings("ok", 1)).0, 5, 1));
    drop(l);
    drop(pools);
    let logs: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(logs.len(), 1);
    let size = logs[0].metadata().unwrap().len();
    assert!(size <= (16 << 20) + 200, "{size}");
    let tail = std::fs::read_to_string(logs[0].path()).unwrap();
    assert!(tail.contains("bytes of standard error dropped here"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_quiet_agent_leaves_no_log_file() {
    let dir = std::env::temp_dir().join(format!("mafia-ext-quiet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = settings("ok", 2);
    s.log_dir = dir.clone();
    let (l, pools) = lineup(&spec("ok"), &s);
    assert_eq!(play(&l, 4, 2).len(), 4);
    assert!(pools[0].faults().total() == 0);
    drop(l);
    drop(pools);
    // The log threads end with the processes; give them a moment to have
    // created a file if they were going to.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let logs: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    assert!(logs.is_empty(), "{logs:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn forfeit_gives_up_the_game_at_the_first_fault() {
    let (f, forfeits, played) = misbehave("illegal", Fallback::Forfeit, 6);
    assert_eq!(played.len(), 6);
    assert!(forfeits > 0 && f[FaultKind::Illegal as usize] > 0, "{forfeits} {f:?}");
    // One fault per forfeited seat and game: later decisions are not asked.
    assert!(f[FaultKind::Illegal as usize] <= 3 * forfeits as u64, "{f:?}");
}

#[test]
fn a_missing_program_is_refused_before_any_game() {
    let mut l = Lineup::default();
    let e =
        mafia_protocol::register(&mut l, &["ext:./no/such/agent.py"], &Settings::new(""), &mut Vec::new()).unwrap_err();
    assert!(e.to_string().contains("no such program"), "{e}");
}
