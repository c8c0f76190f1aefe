//! Integration tests of the `mafia` binary: determinism across thread counts,
//! sweeps and several setups, every kind of bad input (exit code 2 and a
//! message naming the problem, never a panic), the listing commands, replays
//! and the bench command.

use serde_json::Value;
use std::path::{Path, PathBuf};

mod common;
use common::*;

// ---------------------------------------------------------------------------
// Determinism

/// The files a run with `--out DIR/<stem>.<ext> --games-out DIR/g<stem>.<ext>`
/// writes.
fn outputs(dir: &TempDir, stem: &str, ext: &str) -> [PathBuf; 4] {
    [
        dir.path(&format!("{stem}.{ext}")),
        dir.path(&format!("{stem}.roles.{ext}")),
        dir.path(&format!("{stem}.days.{ext}")),
        dir.path(&format!("g{stem}.{ext}")),
    ]
}

/// `mafia run` with `extra` (setups, agents, games) on `threads`, writing
/// every output file; returns stdout and the files.
fn run_with_threads(dir: &TempDir, threads: &str, ext: &str, extra: &[&str]) -> (String, [PathBuf; 4]) {
    let stem = format!("t{threads}");
    let files = outputs(dir, &stem, ext);
    let (out, games) = (files[0].display().to_string(), files[3].display().to_string());
    let mut args = vec!["run", "--seed", "7", "--threads", threads, "--quiet", "--out", &out, "--games-out", &games];
    args.extend(extra);
    (ok(&args), files)
}

fn assert_same_on_any_thread_count(ext: &str, threads: &[&str]) -> String {
    same_on_any_thread_count(&format!("threads-{ext}"), ext, threads, &["--games", "30000"])
}

/// Runs `extra` on each thread count; stdout and every file must be
/// byte-identical. Returns the stdout.
fn same_on_any_thread_count(name: &str, ext: &str, threads: &[&str], extra: &[&str]) -> String {
    let dir = TempDir::new(name);
    let (stdout1, files1) = run_with_threads(&dir, threads[0], ext, extra);
    assert!(stdout1.contains("town_rate"), "{stdout1}");
    for t in &threads[1..] {
        let (stdout, files) = run_with_threads(&dir, t, ext, extra);
        assert_eq!(stdout, stdout1, "stdout with --threads {t}");
        for (a, b) in files1.iter().zip(&files) {
            let (x, y) = (read(a), read(b));
            assert!(!x.is_empty(), "{} is empty", a.display());
            assert!(x == y, "{} and {} differ (--threads {} vs {t})", a.display(), b.display(), threads[0]);
        }
    }
    if ext == "parquet" {
        for f in &files1 {
            let b = read(f);
            assert!(b.starts_with(b"PAR1") && b.ends_with(b"PAR1"), "{} is a whole Parquet file", f.display());
        }
    }
    stdout1
}

#[test]
fn csv_outputs_and_stdout_do_not_depend_on_threads() {
    assert_same_on_any_thread_count("csv", &["1", "2", "4"]);
}

#[test]
fn parquet_outputs_do_not_depend_on_threads() {
    assert_same_on_any_thread_count("parquet", &["1", "2", "4"]);
}

/// The two extended presets in one run, random agents on the first.
const EXTENDED_RUN: [&str; 8] =
    ["--games", "20000", "--setup", "extended", "--setup", "forum-16", "--agents", "random"];

#[test]
fn e1_extended_runs_do_not_depend_on_threads_csv() {
    let stdout = same_on_any_thread_count("ext-csv", "csv", &["1", "2", "4"], &EXTENDED_RUN);
    // Three camps: the bandit columns and the E2 end print.
    for col in ["bandits_rate", "bandits_lo", "bandits_hi", "end_only_bandits", "psycho", "trickster", "forum-16"] {
        assert!(stdout.contains(col), "{col}: {stdout}");
    }
}

#[test]
fn e1_extended_runs_do_not_depend_on_threads_parquet() {
    same_on_any_thread_count("ext-pq", "parquet", &["1", "2", "4"], &EXTENDED_RUN);
}

#[test]
fn e2_extended_tables_count_three_camps() {
    let dir = TempDir::new("ext-tables");
    let (s, g) = (dir.path("s.csv"), dir.path("g.csv"));
    let mut args = vec!["run", "--quiet", "--out", s.to_str().unwrap(), "--games-out", g.to_str().unwrap()];
    args.extend(&EXTENDED_RUN[2..]);
    args.extend(["--games", "3000"]);
    ok(&args);
    let rows = csv_rows(&s);
    assert_eq!(rows.len(), 2);
    for (r, (setup, players)) in rows.iter().zip([("extended", "20"), ("forum-16", "16")]) {
        assert_eq!((col(r, "setup"), col(r, "players")), (setup, players));
        let wins: f64 = ["town_wins", "mafia_wins", "bandits_wins", "draws"].iter().map(|c| num(r, c)).sum();
        assert_eq!(wins, 3000.0, "{r:?}");
        let ends: f64 = r.iter().filter(|(k, _)| k.starts_with("end_")).map(|(k, _)| num(r, k)).sum();
        assert_eq!(ends, 3000.0, "{r:?}");
        // E2: with extended roles the classic parity and three-night ends are off.
        assert_eq!(num(r, "end_parity"), 0.0, "{r:?}");
        assert_eq!(num(r, "end_no_kill_rule"), 0.0, "{r:?}");
        assert!(num(r, "bandits_wins") > 0.0 && num(r, "bandits_wins") == num(r, "end_only_bandits"), "{r:?}");
        let (lo, rate, hi) = (num(r, "bandits_lo"), num(r, "bandits_rate"), num(r, "bandits_hi"));
        assert!(0.0 < lo && lo < rate && rate < hi && hi < 1.0, "{lo} {rate} {hi}");
    }
    // Roles: all 20 of the extended preset, the 14 kinds of forum-16, each dealt once a game but citizens.
    let roles = csv_rows(&dir.path("s.roles.csv"));
    assert_eq!(roles.iter().filter(|r| col(r, "setup") == "extended").count(), 20);
    assert_eq!(roles.iter().filter(|r| col(r, "setup") == "forum-16").count(), 14);
    for r in &roles {
        let dealt = if col(r, "role") == "citizen" { 9000.0 } else { 3000.0 };
        assert_eq!(num(r, "dealt"), dealt, "{r:?}");
    }
    // Per-game rows: bandit wins are named, deals have 20 and 16 roles.
    let games = csv_rows(&g);
    assert_eq!(games.len(), 6000);
    assert!(games.iter().any(|r| col(r, "winner") == "bandits" && col(r, "end_cause") == "only_bandits"));
    assert_eq!(col(&games[0], "deal").split(',').count(), 20);
    assert_eq!(col(&games[3000], "deal").split(',').count(), 16);
}

#[test]
fn games_out_has_one_row_per_game_in_order() {
    let dir = TempDir::new("rows");
    let g = dir.path("g.csv");
    ok(&[
        "run",
        "--games",
        "20000",
        "--seed",
        "7",
        "--threads",
        "3",
        "--quiet",
        "--games-out",
        &g.display().to_string(),
    ]);
    let rows = csv_rows(&g);
    assert_eq!(rows.len(), 20000);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(col(r, "game"), i.to_string(), "rows are in game order");
        assert_eq!(col(r, "seed"), "7");
        assert_eq!(col(r, "deal").split(',').count(), 10, "{r:?}");
    }
}

/// The per-game content of a games-out file, without the seed column.
fn games_without_seed(p: &Path) -> Vec<String> {
    csv_rows(p).iter().map(|r| ["game", "winner", "end_cause", "days", "deal"].map(|c| col(r, c)).join("|")).collect()
}

#[test]
fn a_different_seed_gives_different_games() {
    let dir = TempDir::new("seeds");
    let mut games = Vec::new();
    for seed in ["7", "8", "7"] {
        let g = dir.path(&format!("g{}.csv", games.len()));
        ok(&[
            "run",
            "--games",
            "2000",
            "--seed",
            seed,
            "--threads",
            "2",
            "--quiet",
            "--games-out",
            &g.display().to_string(),
        ]);
        games.push(games_without_seed(&g));
    }
    assert_eq!(games[0], games[2], "the same seed gives the same games");
    assert_ne!(games[0], games[1], "another seed gives other games");
    assert_eq!(games[0].len(), games[1].len());
}

#[test]
fn run_is_the_default_command() {
    let args = ["--games", "3000", "--seed", "5", "--quiet"];
    let plain = ok(&args);
    let mut with_run = vec!["run"];
    with_run.extend(args);
    assert_eq!(plain, ok(&with_run));
}

// ---------------------------------------------------------------------------
// Variants

#[test]
fn a_sweep_gives_one_row_per_value_on_the_same_deals() {
    let dir = TempDir::new("sweep");
    let (s, g) = (dir.path("s.csv"), dir.path("g.csv"));
    ok(&[
        "run",
        "--games",
        "2000",
        "--quiet",
        "--sweep",
        "no_kill_limit=auto,off",
        "--out",
        &s.display().to_string(),
        "--games-out",
        &g.display().to_string(),
    ]);
    let rows = csv_rows(&s);
    assert_eq!(rows.len(), 2, "{rows:?}");
    // auto (3 for the classic set, C8) is the default, so the first variant's label has no rule changes.
    assert_eq!(col(&rows[0], "rules"), "");
    assert_eq!(col(&rows[1], "rules"), "no_kill_limit=off");
    for r in &rows {
        assert_eq!(col(r, "games"), "2000");
        assert_eq!(col(r, "setup"), "classic");
    }
    // Variants share the seed: game i has the same deal in both.
    let games = csv_rows(&g);
    assert_eq!(games.len(), 4000);
    let (a, b) = games.split_at(2000);
    for (x, y) in a.iter().zip(b) {
        assert_eq!(col(x, "game"), col(y, "game"));
        assert_eq!(col(x, "deal"), col(y, "deal"));
        assert_eq!(col(x, "rules"), "");
        assert_eq!(col(y, "rules"), "no_kill_limit=off");
    }
    // The days table has rows for both variants.
    let days = csv_rows(&dir.path("s.days.csv"));
    for rules in ["", "no_kill_limit=off"] {
        assert!(days.iter().any(|r| col(r, "rules") == rules), "{days:?}");
    }
}

#[test]
fn two_setups_give_two_rows() {
    let dir = TempDir::new("setups");
    let s = dir.path("s.csv");
    let stdout = ok(&[
        "run",
        "--games",
        "2000",
        "--quiet",
        "--setup",
        "classic",
        "--setup",
        "classic-13",
        "--out",
        &s.display().to_string(),
    ]);
    let rows = csv_rows(&s);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!((col(&rows[0], "setup"), col(&rows[0], "players")), ("classic", "10"));
    assert_eq!((col(&rows[1], "setup"), col(&rows[1], "players")), ("classic-13", "13"));
    assert!(stdout.contains("classic-13"), "{stdout}");
    // Roles table: 4 roles per setup.
    assert_eq!(csv_rows(&dir.path("s.roles.csv")).len(), 8);
}

/// The summary of a 2000-game classic run, as `column -> value`.
fn classic_summary(dir: &TempDir) -> Vec<(String, String)> {
    let s = dir.path("s.csv");
    ok(&["run", "--games", "2000", "--quiet", "--out", &s.display().to_string()]);
    let mut rows = csv_rows(&s);
    assert_eq!(rows.len(), 1);
    rows.remove(0)
}

fn num(row: &[(String, String)], name: &str) -> f64 {
    col(row, name).parse().unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn summary_rates_lie_within_their_bounds() {
    let dir = TempDir::new("bounds");
    let row = classic_summary(&dir);
    for camp in ["town", "mafia"] {
        let lo = num(&row, &format!("{camp}_lo"));
        let rate = num(&row, &format!("{camp}_rate"));
        let hi = num(&row, &format!("{camp}_hi"));
        assert!(0.0 < lo && lo < rate && rate < hi && hi < 1.0, "{camp}: {lo} {rate} {hi}");
        assert_eq!(rate, num(&row, &format!("{camp}_wins")) / 2000.0);
    }
    assert_eq!(num(&row, "town_wins") + num(&row, "mafia_wins") + num(&row, "draws"), 2000.0);
}

#[test]
fn wilson_interval_of_zero_wins_starts_at_zero() {
    // No bandits in the classic set: 0 wins of 2000. The Wilson lower bound
    // of 0 successes is exactly 0 (and must not exceed the rate, 0).
    let dir = TempDir::new("wilson");
    let row = classic_summary(&dir);
    assert_eq!(num(&row, "bandits_wins"), 0.0);
    assert_eq!(num(&row, "bandits_rate"), 0.0);
    assert_eq!(num(&row, "bandits_lo"), 0.0, "bandits_lo is {:?}", col(&row, "bandits_lo"));
    assert!(num(&row, "bandits_hi") > 0.0);
}

// ---------------------------------------------------------------------------
// Bad input: exit code 2, a message naming the problem, no panic

#[test]
fn bad_flags_and_values_are_refused() {
    let run = |extra: &[&str], needles: &[&str]| {
        let mut args = vec!["run", "--games", "10", "--quiet"];
        args.extend(extra);
        fails(&args, needles);
    };
    run(&["--bogus"], &["--bogus"]);
    fails(&["run", "--games", "0"], &["--games", "0"]);
    fails(&["run", "--games", "many"], &["--games", "many"]);
    run(&["--rule", "bogus=1"], &["unknown rule", "bogus"]);
    run(&["--rule", "absence=2"], &["absence", "`2`", "0.0..=1.0"]);
    run(&["--rule", "no_kill_limit=zero"], &["no_kill_limit", "zero", "off"]);
    run(&["--rule", "absence"], &["--rule absence", "KEY=VALUE"]);
    run(&["--agents", "clever"], &["unknown strategy `clever`"]);
    run(&["--agents", "sheriff=random"], &["`sheriff`"]);
    run(&["--agents", "mafia="], &["mafia="]);
    run(&["--setup", "nosuch"], &["nosuch", "no such preset"]);
    run(&["--out", "x.json"], &["x.json", ".csv"]);
    run(&["--games-out", "x.txt"], &["x.txt", ".parquet"]);
    run(&["--out", "/nonexistent-dir/x.csv"], &["/nonexistent-dir", "does not exist"]);
    run(&["--sweep", "absence="], &["--sweep absence=", "no values"]);
    run(&["--sweep", "absence=0.1,2"], &["absence", "`2`"]);
    run(&["--sweep", "speed=1,2"], &["unknown rule", "speed"]);
    // Issue 35: two axes of one setting would label rows with values never played.
    run(
        &["--sweep", "absence=0,0.1", "--sweep", "rules.absence=0.2,0.3"],
        &["--sweep", "absence", "rules.absence", "one axis"],
    );
    run(&["--sweep", "absence=0,0.1", "--sweep", "absence=0.2"], &["--sweep", "absence", "one axis"]);
    // A grid too large to hold is refused with its size, not an allocation failure.
    run(
        &["--sweep", "day_cap=1..400", "--sweep", "runoff_rounds=1..100"],
        &["40000 points", "400 × 100", "at most 10000"],
    );
    fails(&["replay", "--setup", "classic", "--setup", "classic-13"], &["exactly one --setup"]);
    fails(&["bench", "--games", "0"], &["--games", "0"]);
    fails(&["bench", "--games", "100", "--vs", "nosuch"], &["nosuch"]);
    fails(&["bench", "--games", "100", "--vs", "random", "--rounds", "0"], &["--rounds", "0"]);
}

#[test]
fn bench_vs_prints_the_cost_ratio_of_two_lineups() {
    let out =
        ok(&["bench", "--games", "4000", "--threads", "1", "--agents", "forum", "--vs", "random", "--rounds", "3"]);
    assert!(out.contains("vs random: 3 rounds of 1333 games each"), "{out}");
    let ns = |label: &str| -> f64 {
        let line = out.lines().find(|l| l.starts_with(label)).unwrap_or_else(|| panic!("{label}: {out}"));
        line[label.len()..].split_whitespace().next().unwrap().parse().unwrap()
    };
    let (forum, random) = (ns("game loop, forum"), ns("game loop, random"));
    assert!(forum > 0.0 && random > 0.0, "{out}");
    let ratio: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("cost ratio forum/random: "))
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    // The median of the rounds' ratios lies between the lowest and highest round.
    let range = out.split("(rounds ").nth(1).unwrap();
    let (lo, hi) = range.trim_end_matches([')', '\n']).split_once('–').unwrap();
    let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.trim_end_matches(')').parse().unwrap());
    assert!(lo <= ratio && ratio <= hi && lo > 0.0, "{out}");
}

#[test]
fn a_bad_output_path_costs_no_games() {
    let dir = TempDir::new("costs");
    let g = dir.path("g.csv");
    // The bad --out is noticed before any game, so --games-out is not written.
    fails(
        &[
            "run",
            "--games",
            "10",
            "--quiet",
            "--games-out",
            &g.display().to_string(),
            "--out",
            "/nonexistent-dir/x.csv",
        ],
        &["does not exist"],
    );
    assert!(!g.exists());
}

#[test]
fn the_same_file_for_summary_and_games_is_refused() {
    // `--out F --games-out F` would write the games, then overwrite them with
    // the summary; the command line should refuse it before playing.
    let dir = TempDir::new("same");
    let f = dir.path("same.csv").display().to_string();
    fails(&["run", "--games", "10", "--quiet", "--out", &f, "--games-out", &f], &["same.csv"]);
}

#[test]
fn setup_file_syntax_errors_give_a_line() {
    let dir = TempDir::new("syntax");
    let f = dir.write("syntax.toml", "name = \"x\"\n[roles]\ncitizen = 8x\nmafioso = 2\n");
    fails(&["run", "--games", "10", "--quiet", "--setup", &f], &[&format!("{f}:3:"), "invalid TOML"]);
}

#[test]
fn every_setup_file_problem_is_reported_with_its_line() {
    let dir = TempDir::new("problems");
    let f = dir.write("problems.toml", "[roles]\ndon = 1\nwerewolf = 2\ncitizen = 6\n\n[rules]\nabsence = 1.5\n");
    let err = fails(
        &["run", "--games", "10", "--quiet", "--setup", &f],
        &[&format!("{f}:3:1: unknown role `werewolf`"), &format!("{f}:7:11: rule `absence`: `1.5` is not valid")],
    );
    assert_eq!(err.matches(&f).count(), 2, "exactly two problems: {err}");
}

#[test]
fn a_setup_with_an_impossible_count_is_refused() {
    let dir = TempDir::new("impossible");
    let f = dir.write("impossible.toml", "name = \"x\"\n\n[roles]\nmafioso = 5\ncitizen = 2\n");
    for cmd in ["run", "replay", "bench"] {
        let mut args = vec![cmd, "--setup", &f];
        if cmd != "replay" {
            args.extend(["--games", "10"]);
        }
        fails(&args, &[&format!("{f}:3:"), "5 mafia against 2", "parity"]);
    }
}

#[test]
fn a_setup_file_that_cannot_be_read_is_reported() {
    let dir = TempDir::new("unreadable");
    let d = dir.0.display().to_string();
    fails(&["run", "--games", "10", "--quiet", "--setup", &d], &["cannot read the setup file"]);
}

// ---------------------------------------------------------------------------
// Setup files that work

#[test]
fn a_setup_file_with_agents_and_rules_runs() {
    let dir = TempDir::new("good");
    let f = dir.write(
        "my-setup.toml",
        "[roles]\ndon = 1\nmafioso = 2\ncommissar = 1\ncitizen = 6\n\n\
         [rules]\ntie_break = \"random\"\n\n[agents]\ndefault = \"random\"\n",
    );
    let s = dir.path("s.csv");
    let stdout = ok(&["run", "--games", "2000", "--quiet", "--setup", &f, "--out", &s.display().to_string()]);
    assert!(stdout.contains("my-setup"), "{stdout}");
    let rows = csv_rows(&s);
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(col(r, "setup"), "my-setup", "named after the file stem");
    assert_eq!(col(r, "rules"), "tie_break=random");
    assert_eq!(col(r, "agents"), "random");
    assert_eq!(col(r, "players"), "10");
    assert_eq!(col(r, "games"), "2000");
    // `--agents` on the command line overrides the file's [agents].
    let s2 = dir.path("s2.csv");
    ok(&[
        "run",
        "--games",
        "100",
        "--quiet",
        "--setup",
        &f,
        "--agents",
        "mafia=classic",
        "--out",
        &s2.display().to_string(),
    ]);
    assert_eq!(col(&csv_rows(&s2)[0], "agents"), "random,mafia=classic");
}

// ---------------------------------------------------------------------------
// Listings, replay, bench

#[test]
fn setups_lists_the_presets_and_strategies() {
    let out = ok(&["setups"]);
    let first_words: Vec<&str> = out.lines().filter_map(|l| l.split_whitespace().next()).collect();
    for name in ["classic", "classic-13", "extended", "forum-16", "random", "classic"] {
        assert!(first_words.contains(&name), "{name} missing: {out}");
    }
    let classic = out.lines().find(|l| l.starts_with("classic ")).unwrap();
    assert!(classic.contains("10 players"), "{classic}");
    let extended = out.lines().position(|l| l.starts_with("extended ")).unwrap();
    assert!(out.lines().nth(extended).unwrap().contains("20 players"), "{out}");
    // The roles by camp follow, as a setup file writes them.
    let block: Vec<&str> = out.lines().skip(extended + 1).take(3).collect();
    assert!(block[0].split_whitespace().eq(
        "town detective=1 deputy=1 doctor=1 chosen=1 journalist=1 witch=1 prostitute=1 lucky=1 shooter=1 sleepwalker=1"
            .split_whitespace()
    ));
    assert!(block[1].split_whitespace().eq("mafia boss=1 thief=1 guard=1 swindler=1 actor=1".split_whitespace()));
    assert!(block[2].split_whitespace().eq("bandits psycho=1 miner=1 thug=1 scout=1 trickster=1".split_whitespace()));
}

#[test]
fn rules_lists_every_rule_with_its_default() {
    let out = ok(&["rules"]);
    for (rule, default) in [
        ("no_kill_limit", "auto"),
        ("tie_break", "catastrophe"),
        ("runoff_rounds", "3"),
        ("first_day_pardon", "true"),
        ("reveal_roles_on_death", "false"),
        ("mafia_win", "auto"),
        ("day_cap", "50"),
        ("absence", "0.0"),
        ("modkill", "0.0"),
        ("resolution", "graph"),
        ("blast_heal", "false"),
        ("chosen_secret_votes", "2"),
        ("camp_kill", "auto"),
    ] {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(rule))
            .unwrap_or_else(|| panic!("{rule} missing: {out}"));
        assert!(line.split_whitespace().any(|w| w == default), "{rule} default {default}: {line}");
    }
}

#[test]
fn replay_tells_a_story() {
    let args = ["replay", "--seed", "3", "--game-index", "5"];
    let story = ok(&args);
    assert!(story.contains("Game 5 of seed 3"), "{story}");
    assert!(story.contains("Deal:"), "{story}");
    assert!(story.contains("Day 1."), "{story}");
    assert!(story.contains("Game over"), "{story}");
    assert_eq!(story, ok(&args), "a replay is deterministic");
}

#[test]
fn replay_json_lines_match_the_run() {
    let json = ok(&["replay", "--seed", "3", "--game-index", "5", "--json"]);
    let events: Vec<Value> =
        json.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}"))).collect();
    assert!(events.len() > 3, "{json}");
    let first = &events[0];
    assert_eq!(first["event"], "game");
    assert_eq!((first["seed"].as_u64(), first["game"].as_u64()), (Some(3), Some(5)));
    let end = events.last().unwrap();
    assert_eq!(end["event"], "end", "{json}");
    assert_eq!(events.iter().filter(|e| e["event"] == "end").count(), 1, "one end");

    // The replay is the game `mafia run` played for (seed 3, index 5).
    let deal: Vec<&str> = events.iter().filter(|e| e["event"] == "deal").map(|e| e["role"].as_str().unwrap()).collect();
    let dir = TempDir::new("replay");
    let g = dir.path("g.csv");
    ok(&["run", "--games", "6", "--seed", "3", "--quiet", "--games-out", &g.display().to_string()]);
    let rows = csv_rows(&g);
    let row = &rows[5];
    assert_eq!(col(row, "game"), "5");
    assert_eq!(col(row, "deal"), deal.join(","));
    assert_eq!(col(row, "winner"), end["winner"].as_str().unwrap_or("draw"));
    assert_eq!(col(row, "end_cause"), end["cause"].as_str().unwrap());
    assert_eq!(col(row, "days"), end["day"].to_string());
}

#[test]
fn bench_prints_games_per_second() {
    let out = ok(&["bench", "--games", "20000", "--threads", "2"]);
    // The bare loop, the runner on 1 thread and the runner on 2.
    assert_eq!(out.matches("games/s").count(), 3, "{out}");
    assert!(out.contains("game loop, 1 thread"), "{out}");
    assert!(out.contains("runner, 1 thread"), "{out}");
    assert!(out.contains("runner, 2 threads"), "{out}");
    // Both runner measurements tallied the same games.
    let wins: Vec<&str> =
        out.lines().filter_map(|l| l.split("town wins ").nth(1)).map(|w| w.split([')', ';']).next().unwrap()).collect();
    assert_eq!(wins.len(), 2, "{out}");
    assert_eq!(wins[0], wins[1], "{out}");
}

#[test]
fn shards_of_a_run_add_up_to_the_whole_run() {
    // A cluster splits one run by game index: same seed, disjoint ranges.
    let dir = TempDir::new("shards");
    let p = |f: &str| dir.path(f).display().to_string();
    ok(&["run", "--games", "3000", "--seed", "9", "--quiet", "--games-out", &p("all.csv"), "--out", &p("all-sum.csv")]);
    ok(&["run", "--games", "1800", "--seed", "9", "--quiet", "--games-out", &p("a.csv"), "--out", &p("a-sum.csv")]);
    let second = ["run", "--games", "1200", "--first-game", "1800", "--seed", "9", "--quiet"];
    ok(&[&second[..], &["--games-out", &p("b.csv"), "--out", &p("b-sum.csv")]].concat());
    // Per-game rows: the shards' rows, in order, are the whole run's rows.
    let mut shards = csv_rows(&dir.path("a.csv"));
    shards.extend(csv_rows(&dir.path("b.csv")));
    assert_eq!(shards, csv_rows(&dir.path("all.csv")));
    // Tallies: the shards' counts add up to the whole run's.
    let count = |f: &str, c: &str| -> u64 { col(&csv_rows(&dir.path(f))[0], c).parse().unwrap() };
    for c in ["games", "town_wins", "mafia_wins", "end_parity", "end_mafia_eliminated"] {
        assert_eq!(count("a-sum.csv", c) + count("b-sum.csv", c), count("all-sum.csv", c), "{c}");
    }
}

/// The numbered step lines of `mafia night-order` (`3. protection — …`).
fn step_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.split('.').next().is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())))
        .collect()
}

#[test]
fn e30_night_order_lists_the_steps_and_their_roles() {
    let out = ok(&["night-order"]);
    let rows = step_lines(&out);
    let names: Vec<&str> = rows.iter().map(|l| l.split(" — ").next().unwrap()).collect();
    assert_eq!(
        names,
        [
            "1. start of night",
            "2. control moves",
            "3. protection",
            "4. information on people",
            "5. kills",
            "6. marks for later",
            "7. information on moves"
        ],
        "{out}"
    );
    // C5/C6 checks come before the C4 kill (C7: checks see the state at dusk).
    assert!(rows[3].contains("commissar") && rows[3].contains("don") && rows[3].contains("boss"), "{out}");
    assert!(rows[4].contains("mafioso") && rows[4].contains("shooter"), "{out}");
    assert!(rows[1].ends_with("thief, swindler, psycho, thug"), "{out}");
    // Each move's line, the resolution setting, the Prostitute's note.
    for needle in [
        "rob         Thief robs",
        "swindle     Swindler sends",
        "watch       Sleepwalker",
        "search      each bandit",
        "resolution = graph",
        "(E31)",
    ] {
        assert!(out.contains(needle), "{needle}: {out}");
    }
}

#[test]
fn e30_night_order_of_a_setup_shows_its_roles_and_order() {
    // Classic: only the Don and the Commissar check, the mafia kill.
    let out = ok(&["night-order", "--setup", "classic"]);
    let rows = step_lines(&out);
    assert_eq!(rows.len(), 7, "{out}");
    assert!(rows[3].ends_with("— commissar, don"), "{out}");
    assert!(rows[4].ends_with("— mafioso, don"), "{out}");
    assert!(rows[1].ends_with("control moves"), "no control move in the classic set: {out}");
    assert!(!out.contains("thief") && !out.contains("(E31)"), "{out}");
    assert!(out.contains("camp_kill = unanimous"), "{out}");

    // A setup file's own order and resolution.
    let dir = TempDir::new("night-order");
    let f = dir.write(
        "reordered.toml",
        "night_order = [\"start\", \"protection\", \"control\", \"information\", \"kills\", \"watchers\", \"marks\"]\n\
         [roles]\nthief = 1\ndoctor = 1\npsycho = 1\ncitizen = 3\n[rules]\nresolution = \"sequential\"\n",
    );
    let out = ok(&["night-order", "--setup", &f]);
    let rows = step_lines(&out);
    assert_eq!(rows[1], "2. protection — doctor", "{out}");
    assert_eq!(rows[2], "3. control moves — thief, psycho", "{out}");
    assert_eq!(rows[5], "6. information on moves — psycho", "{out}");
    assert!(rows[6].starts_with("7. marks for later"), "{out}");
    assert!(out.contains("resolution = sequential"), "{out}");
    assert!(out.contains("camp_kill = leader"), "{out}");
    // --rule overrides the file.
    let out = ok(&["night-order", "--setup", &f, "--rule", "resolution=graph"]);
    assert!(out.contains("resolution = graph"), "{out}");
    fails(&["night-order", "--setup", "nosuch"], &["nosuch", "no such preset"]);
    fails(&["night-order", "--rule", "resolution=tree"], &["resolution", "tree", "graph | sequential"]);
}

// ---------------------------------------------------------------------------
// The extended set: setup files, bench, replay

#[test]
fn e30_a_bad_night_order_in_a_setup_file_gives_its_line() {
    let dir = TempDir::new("bad-order");
    let f = dir.write(
        "bad-order.toml",
        "name = \"x\"\n\nnight_order = [\"start\", \"control\", \"dusk\", \"protection\", \"information\", \
         \"kills\", \"marks\", \"watchers\"]\n[roles]\nboss = 1\ndoctor = 1\ncitizen = 3\n",
    );
    for cmd in ["run", "replay", "bench", "night-order"] {
        let mut args = vec![cmd, "--setup", &f];
        if matches!(cmd, "run" | "bench") {
            args.extend(["--games", "10"]);
        }
        fails(&args, &[&format!("{f}:3:36: unknown night step `dusk`"), "\"watchers\""]);
    }
    let f =
        dir.write("twice.toml", "night_order = [\"start\", \"kills\", \"kills\"]\n[roles]\nboss = 1\ncitizen = 3\n");
    fails(&["run", "--games", "10", "--setup", &f], &[&format!("{f}:1:34: night step `kills` is named twice")]);
}

#[test]
fn e4_an_unknown_extended_role_in_a_setup_file_gives_its_line() {
    let dir = TempDir::new("bad-role");
    let f = dir.write("bad-role.toml", "[roles]\nboss = 1\npsycho = 1\nnecromancer = 1\ncitizen = 4\n");
    let err = fails(
        &["run", "--games", "10", "--quiet", "--setup", &f],
        &[&format!("{f}:4:1: unknown role `necromancer`"), "trickster", "sleepwalker"],
    );
    assert_eq!(err.matches(&f).count(), 1, "one problem: {err}");
    // A named extended role twice (E4: every named role is one person).
    let f = dir.write("twice.toml", "[roles]\nboss = 1\n\nthug = 2\ncitizen = 4\n");
    fails(&["run", "--games", "10", "--setup", &f], &[&format!("{f}:4:1: at most one thug")]);
}

#[test]
fn the_example_setup_files_run() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../setups");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the setups folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.iter().any(|f| f.ends_with("extended-forum.toml")), "{files:?}");
    for f in &files {
        let f = f.display().to_string();
        let out = ok(&["run", "--games", "2000", "--quiet", "--setup", &f]);
        assert!(out.contains("town_rate"), "{f}: {out}");
        assert!(ok(&["replay", "--setup", &f, "--game", "3"]).contains("Game over"), "{f}");
        ok(&["night-order", "--setup", &f]);
    }
}

#[test]
fn bench_runs_the_extended_preset() {
    let out = ok(&["bench", "--setup", "extended", "--agents", "random", "--games", "20000", "--threads", "2"]);
    assert!(out.contains("setup extended (20 players), agents random"), "{out}");
    assert_eq!(out.matches("games/s").count(), 3, "{out}");
    let wins: Vec<&str> =
        out.lines().filter_map(|l| l.split("town wins ").nth(1)).map(|w| w.split([')', ';']).next().unwrap()).collect();
    assert_eq!(wins.len(), 2, "{out}");
    assert_eq!(wins[0], wins[1], "{out}");
}

#[test]
fn e32_an_extended_replay_is_the_game_the_run_played() {
    let args = ["replay", "--setup", "forum-16", "--agents", "random", "--seed", "4", "--game", "9"];
    let story = ok(&args);
    for needle in ["Game 9 of seed 4: setup forum-16 (16 players), agents random", "-- control moves --", "Game over"] {
        assert!(story.contains(needle), "{needle}: {story}");
    }
    // No event falls through to a debug print.
    assert!(!story.contains('{') && !story.contains("Some("), "{story}");

    let json = ok(&[&args[..], &["--json"]].concat());
    let events: Vec<Value> =
        json.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}"))).collect();
    for e in &events {
        let kind = e["event"].as_str().unwrap_or_else(|| panic!("no event name: {e}"));
        assert!(kind.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{e}");
    }
    assert!(events.iter().any(|e| e["event"] == "step" && e["step"] == "control"), "{json}");
    let end = events.last().unwrap();
    let dir = TempDir::new("ext-replay");
    let g = dir.path("g.csv");
    ok(&[
        "run",
        "--setup",
        "forum-16",
        "--agents",
        "random",
        "--games",
        "10",
        "--seed",
        "4",
        "--quiet",
        "--games-out",
        g.to_str().unwrap(),
    ]);
    let row = &csv_rows(&g)[9];
    let deal: Vec<&str> = events.iter().filter(|e| e["event"] == "deal").map(|e| e["role"].as_str().unwrap()).collect();
    assert_eq!(col(row, "deal"), deal.join(","));
    assert_eq!(col(row, "winner"), end["winner"].as_str().unwrap_or("draw"));
    assert_eq!(col(row, "end_cause"), end["cause"].as_str().unwrap());
    assert_eq!(col(row, "days"), end["day"].to_string());
}

/// Issue 7: a run's label shows the rules it played. A classic setup with one
/// extended role switches three rules through `auto`: every table row names
/// their resolved values, and stderr says what `auto` chose; the same roles
/// with the classic values pinned play, and label, the classic rules.
#[test]
fn c8_e2_e8_labels_name_the_rules_auto_resolved_and_a_mix_is_noted() {
    let dir = TempDir::new("labels");
    let mixed = dir.write("mixed.toml", "name = \"mixed\"\n[roles]\nmafioso = 2\ndoctor = 1\ncitizen = 5\n");
    let out_path = dir.path("m.csv").display().to_string();
    let games_path = dir.path("g.csv").display().to_string();
    let args = ["run", "--setup", &mixed, "--games", "200", "--quiet", "--out", &out_path, "--games-out", &games_path];
    let out = mafia(&args);
    assert!(out.status.success(), "{}", show(&args, &out));
    let err = text(&out.stderr);
    assert!(
        err.contains("note: mixed mixes extended roles")
            && err.contains("mafia_win=elimination, no_kill_limit=off, camp_kill=leader"),
        "{}",
        show(&args, &out)
    );
    let label = "no_kill_limit=off mafia_win=elimination camp_kill=leader";
    for file in ["m.csv", "m.roles.csv", "m.days.csv", "g.csv"] {
        let rows = csv_rows(&dir.path(file));
        assert!(!rows.is_empty(), "{file}");
        for row in &rows {
            assert_eq!(col(row, "rules"), label, "{file}");
        }
    }
    // Pinned to the classic values: the classic label (empty) and no note.
    let pinned = dir.write(
        "pinned.toml",
        "name = \"pinned\"\n[roles]\nmafioso = 2\ndoctor = 1\ncitizen = 5\n\
         [rules]\nno_kill_limit = 3\nmafia_win = \"parity\"\ncamp_kill = \"unanimous\"\n",
    );
    let args = ["run", "--setup", &pinned, "--games", "200", "--quiet", "--out", &out_path];
    let out = mafia(&args);
    assert!(out.status.success(), "{}", show(&args, &out));
    assert!(!text(&out.stderr).contains("note:"), "{}", show(&args, &out));
    assert!(csv_rows(&dir.path("m.csv")).iter().all(|r| col(r, "rules").is_empty()));
}

// ---------------------------------------------------------------------------
// run --check

#[test]
fn run_check_passes_every_game_through_the_checkers_and_changes_no_figure() {
    let dir = TempDir::new("check");
    for (setup, agents) in
        [("classic", "forum"), ("classic-13", "random"), ("extended", "random"), ("forum-16", "forum")]
    {
        let base = ["run", "--setup", setup, "--agents", agents, "--games", "3000", "--seed", "5", "--quiet"];
        let plain_out = dir.file(&format!("{setup}-plain.csv"));
        let checked_out = dir.file(&format!("{setup}-checked.csv"));
        let plain = ok(&[&base[..], &["--out", &plain_out]].concat());
        let checked = ok(&[&base[..], &["--out", &checked_out, "--check"]].concat());
        assert!(checked.starts_with(&plain), "{setup}: the tables are the same with --check");
        assert!(
            checked.ends_with("checked 3000 games with the invariant checkers (mafia-check): 0 violations\n"),
            "{setup}: {checked}"
        );
        assert_eq!(read(Path::new(&plain_out)), read(Path::new(&checked_out)), "{setup}");
    }
    fails(&["run", "--check", "--games", "10", "--games-out", &dir.file("g.csv")], &["--check", "--games-out"]);
}

/// Issue 35: a temporary name planted as a symlink made the program
/// overwrite the file it pointed to (`<target>.tmp` was opened with
/// `File::create`, which follows links and truncates). Temporary files are
/// now unique and created exclusively, so a planted link is never written
/// through, and no temporary file is left beside the targets.
#[test]
fn a_planted_tmp_symlink_is_never_written_through() {
    let dir = TempDir::new("tmp-link");
    let victim = dir.write("victim.txt", "keep me\n");
    for name in ["t.csv.tmp", "t.roles.csv.tmp", "g.csv.tmp"] {
        std::os::unix::fs::symlink(&victim, dir.path(name)).unwrap();
    }
    ok(&["run", "--games", "200", "--quiet", "--out", &dir.file("t.csv"), "--games-out", &dir.file("g.csv")]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
    assert!(csv_rows(&dir.path("t.csv")).len() == 1);
    assert!(csv_rows(&dir.path("g.csv")).len() == 200);
    // Only the planted links and the files written remain: no temporary file of ours.
    let mut names: Vec<String> =
        std::fs::read_dir(&dir.0).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.retain(|n| n.contains("tmp") && !["t.csv.tmp", "t.roles.csv.tmp", "g.csv.tmp"].contains(&n.as_str()));
    assert!(names.is_empty(), "{names:?}");
}

/// Issue 35: `--counts X --out X` was accepted and one file silently
/// replaced the other. It is refused before any game, and so is a counts
/// file that is one of the tables written beside `--out`.
#[test]
fn counts_and_out_on_one_path_are_refused_before_any_game() {
    let dir = TempDir::new("counts-out");
    let t = dir.file("t.csv");
    fails(&["run", "--games", "100", "--quiet", "--counts", &t, "--out", &t], &["--counts", "--out", "t.csv"]);
    let roles = dir.file("t.roles.csv");
    fails(&["run", "--games", "100", "--quiet", "--counts", &roles, "--out", &t], &["--counts", "t.roles.csv"]);
    assert!(std::fs::read_dir(&dir.0).unwrap().next().is_none(), "nothing written");
}

/// Issue 35: an `--out` that is a folder was found only after every game
/// had been played (and the counts file written). It is refused first.
#[test]
fn an_out_that_is_a_folder_is_refused_before_any_game() {
    let dir = TempDir::new("out-dir");
    std::fs::create_dir(dir.path("t.csv")).unwrap();
    let counts = dir.file("c.json");
    fails(
        &["run", "--games", "100", "--quiet", "--counts", &counts, "--out", &dir.file("t.csv")],
        &["t.csv", "is a folder"],
    );
    assert!(!dir.path("c.json").exists(), "no game was played, no counts written");
}

/// Issue 36: `mafia encoding` describes the tensor and actions of a setup's
/// games; its blocks tile the tensor and name every feature.
#[test]
fn encoding_describes_the_tensor_and_the_actions() {
    let out = ok(&["encoding", "--setup", "extended"]);
    let e: Value = serde_json::from_str(&out).unwrap();
    let players = e["players"].as_u64().unwrap();
    assert_eq!(players, 20);
    assert_eq!(e["actions"].as_u64(), Some(players + 3));
    let mut at = 0;
    for b in e["blocks"].as_array().unwrap() {
        assert_eq!(b["offset"].as_u64(), Some(at), "{b}");
        at += b["width"].as_u64().unwrap();
    }
    assert_eq!(e["observation_len"].as_u64(), Some(at));
    assert_eq!(e["names"].as_array().unwrap().len() as u64, at);
    assert_eq!(e["names"][0], "seat_1");
    assert_eq!(e["parts"].as_array().unwrap().len(), 13);
    fails(&["encoding", "--setup", "nope"], &["--setup nope"]);
}
