//! The hot path allocates nothing: after a worker is made, playing games
//! (random and classic agents, every rule that draws; `classic-13`,
//! `extended` and `forum-16`), and playing on from a position, does not
//! touch the heap. A counting global allocator proves it. Checking each game
//! with a reused `mafia_check::Checker` (`mafia run --check`) allocates only
//! the few rule settings the checkers read by name.

use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{Check, Event, Game, NoLog, Phase, Position, Preset, Role, Seat, Start};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set on the thread that plays the counted games: the test harness's
    /// own threads allocate now and then (its start-up, its output), and
    /// those allocations are not the hot path's.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Plays 1999 games after one warm-up game and asserts none of them allocated.
fn assert_no_allocations(preset: &str, agents: &str, rules: &[(&str, &str)]) {
    let mut setup = Preset::find(preset).unwrap().setup();
    for (k, v) in rules {
        setup.rules.set(k, v).unwrap();
    }
    let game = Game::new(&setup).unwrap();
    let mut lineup = Lineup::default();
    lineup.apply(agents).unwrap();
    let mut worker = Worker::new(lineup, master_key(5));
    // Warm up once, then count.
    worker.play(&game, 0, &mut NoLog);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let mut days = 0u64;
    for i in 1..2000 {
        days += worker.play(&game, i, &mut NoLog).days as u64;
    }
    COUNTING.with(|c| c.set(false));
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert!(days > 2000, "the games were played ({preset}, {agents})");
    assert_eq!(after - before, 0, "{preset}, {agents}, {rules:?}: {} allocations in 1999 games", after - before);
}

/// Plays 2,000 games into a reused log, checks each with a reused
/// [`mafia_check::Checker`] after 200 warm-up games, and returns the
/// allocations the 2,000 checks made.
fn check_allocations(preset: &str, agents: &str) -> usize {
    let game = Game::new(&Preset::find(preset).unwrap().setup()).unwrap();
    let mut lineup = Lineup::default();
    lineup.apply(agents).unwrap();
    let mut worker = Worker::new(lineup, master_key(5));
    let mut checker = mafia_check::Checker::new();
    let mut log: Vec<Event> = Vec::new();
    let mut allocations = 0;
    for i in 0..2200 {
        log.clear();
        let out = worker.play(&game, i, &mut log);
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        COUNTING.with(|c| c.set(i >= 200));
        checker.check(&game, &log, &out).unwrap_or_else(|e| panic!("{preset}, {agents}: game {i}: {e}"));
        COUNTING.with(|c| c.set(false));
        allocations += ALLOCATIONS.load(Ordering::Relaxed) - before;
    }
    allocations
}

// One test function: the cases run one after the other on one thread.
#[test]
fn playing_games_allocates_nothing() {
    for (agents, rules) in [
        ("random", vec![]),
        ("classic", vec![]),
        ("forum", vec![]),
        ("forum:counterclaim=checks:trust=0.25,mafia=mafia:skip=0.5:fake=1", vec![("reveal_roles_on_death", "true")]),
        ("classic,mafia=random", vec![("tie_break", "random"), ("absence", "0.1"), ("modkill", "0.02")]),
    ] {
        assert_no_allocations("classic-13", agents, &rules);
    }
    // A mixed lineup: each game's pick and both camps' reads.
    assert_no_allocations("classic", "preset:classic", &[]);
    assert_no_allocations("classic", "random,town@0.5=forum,mafia@0.3=classic", &[]);
    // The extended set (E1–E32): every role's move, the control graph and the
    // sequence, carried hexes, guests, mines and vote marks.
    for preset in ["extended", "forum-16"] {
        for (agents, rules) in [
            ("random", vec![]),
            ("classic", vec![]),
            ("forum", vec![]),
            ("forum,prostitute=prostitute:borrow=random,doctor=protect:heal=random", vec![("absence", "0.1")]),
            ("classic,bandits=random", vec![("resolution", "sequential"), ("camp_kill", "unanimous")]),
            ("random", vec![("absence", "0.1"), ("modkill", "0.02"), ("tie_break", "random"), ("mafia_win", "parity")]),
        ] {
            assert_no_allocations(preset, agents, &rules);
        }
    }
    // Playing on from a position (`mafia odds`): dealing the unknown roles
    // under a view's check results and setting the position up allocate nothing.
    let mut pos = Position::start_of(&Preset::find("classic").unwrap().setup());
    pos.roles[0] = Some(Role::Commissar);
    pos.roles[4] = Some(Role::Mafioso);
    pos.view = Some(Seat::new(0));
    pos.phase = Phase::Day(3);
    pos.carry.dead = vec![Seat::new(7), Seat::new(8)];
    pos.killed = vec![Seat::new(8)];
    pos.nights_without_kill = 1;
    pos.checks = vec![Check { by: Seat::new(0), target: Seat::new(4), outcome: None }];
    let start = Start::new(&pos).unwrap();
    let mut worker = Worker::new(Lineup::default(), master_key(5));
    worker.play_from(&start, 0, &mut NoLog);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let mut played = 0;
    for i in 1..2000 {
        played += worker.play_from(&start, i, &mut NoLog).is_some() as u32;
    }
    COUNTING.with(|c| c.set(false));
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(played, 1999);
    assert_eq!(after - before, 0, "play_from: {} allocations in 1999 games", after - before);
    // The checkers: one allocation a game for the classic checker's rule
    // setting read by name, three for the extended one's (their buffers are
    // reused: before they were, a game cost about 4 and 65).
    for (preset, agents, per_game) in
        [("classic-13", "forum", 1), ("classic", "random", 1), ("extended", "random", 3), ("forum-16", "forum", 3)]
    {
        let allocations = check_allocations(preset, agents);
        eprintln!("{preset}, {agents}: {allocations} allocations checking 2000 games");
        assert!(
            allocations <= per_game * 2000 + 20,
            "{preset}, {agents}: {allocations} allocations checking 2000 games"
        );
    }
}
