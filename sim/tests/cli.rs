//! Integration tests of the `mafia` binary: determinism across thread counts,
//! sweeps and several setups, every kind of bad input (exit code 2 and a
//! message naming the problem, never a panic), the listing commands, replays
//! and the bench command.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh folder under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("mafia-cli-test-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temp dir");
        TempDir(dir)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }

    /// Writes `text` to `file` in the folder and returns its path as a string.
    fn write(&self, file: &str, text: &str) -> String {
        let p = self.path(file);
        std::fs::write(&p, text).expect("write a temp file");
        p.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn mafia(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mafia")).args(args).output().expect("run the mafia binary")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn show(args: &[&str], out: &Output) -> String {
    format!(
        "mafia {}\nexit: {:?}\n--- stdout\n{}\n--- stderr\n{}",
        args.join(" "),
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// Runs `mafia args`, asserts success, returns stdout.
fn ok(args: &[&str]) -> String {
    let out = mafia(args);
    assert!(out.status.success(), "{}", show(args, &out));
    assert!(!text(&out.stderr).contains("panicked"), "{}", show(args, &out));
    text(&out.stdout)
}

/// Runs `mafia args`, asserts exit code 2, no panic, nothing on stdout and a
/// message containing every one of `needles`; returns stderr.
fn fails(args: &[&str], needles: &[&str]) -> String {
    let out = mafia(args);
    let err = text(&out.stderr);
    let shown = show(args, &out);
    assert_eq!(out.status.code(), Some(2), "{shown}");
    assert!(!err.contains("panicked"), "{shown}");
    assert!(out.stdout.is_empty(), "no results on bad input: {shown}");
    for n in needles {
        assert!(err.contains(n), "stderr lacks {n:?}: {shown}");
    }
    err
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("read {}: {e}", p.display()))
}

/// Splits one CSV line into fields (double-quoted fields may hold commas).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

/// A CSV file as rows of `column -> value`, in file order.
fn csv_rows(p: &Path) -> Vec<Vec<(String, String)>> {
    let body = text(&read(p));
    let mut lines = body.lines();
    let header = csv_fields(lines.next().expect("a header line"));
    lines
        .map(|l| {
            let f = csv_fields(l);
            assert_eq!(f.len(), header.len(), "row {l:?} of {}", p.display());
            header.iter().cloned().zip(f).collect()
        })
        .collect()
}

fn col<'a>(row: &'a [(String, String)], name: &str) -> &'a str {
    &row.iter().find(|(k, _)| k == name).unwrap_or_else(|| panic!("no column {name} in {row:?}")).1
}

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

fn run_with_threads(dir: &TempDir, threads: &str, ext: &str) -> (String, [PathBuf; 4]) {
    let stem = format!("t{threads}");
    let files = outputs(dir, &stem, ext);
    let (out, games) = (files[0].display().to_string(), files[3].display().to_string());
    let stdout = ok(&[
        "run",
        "--games",
        "30000",
        "--seed",
        "7",
        "--threads",
        threads,
        "--quiet",
        "--out",
        &out,
        "--games-out",
        &games,
    ]);
    (stdout, files)
}

fn assert_same_on_any_thread_count(ext: &str, threads: &[&str]) {
    let dir = TempDir::new(&format!("threads-{ext}"));
    let (stdout1, files1) = run_with_threads(&dir, threads[0], ext);
    assert!(stdout1.contains("town_rate"), "{stdout1}");
    for t in &threads[1..] {
        let (stdout, files) = run_with_threads(&dir, t, ext);
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
}

#[test]
fn csv_outputs_and_stdout_do_not_depend_on_threads() {
    assert_same_on_any_thread_count("csv", &["1", "2", "4"]);
}

#[test]
fn parquet_outputs_do_not_depend_on_threads() {
    assert_same_on_any_thread_count("parquet", &["1", "2", "4"]);
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
        "no_kill_limit=3,off",
        "--out",
        &s.display().to_string(),
        "--games-out",
        &g.display().to_string(),
    ]);
    let rows = csv_rows(&s);
    assert_eq!(rows.len(), 2, "{rows:?}");
    // 3 is the default, so the first variant's label has no rule changes.
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
    fails(&["replay", "--setup", "classic", "--setup", "classic-13"], &["exactly one --setup"]);
    fails(&["bench", "--games", "0"], &["--games", "0"]);
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
    for name in ["classic", "classic-13", "random"] {
        assert!(first_words.contains(&name), "{name} missing: {out}");
    }
    let classic = out.lines().find(|l| l.starts_with("classic ")).unwrap();
    assert!(classic.contains("10 players"), "{classic}");
}

#[test]
fn rules_lists_every_rule_with_its_default() {
    let out = ok(&["rules"]);
    for (rule, default) in [
        ("no_kill_limit", "3"),
        ("tie_break", "catastrophe"),
        ("runoff_rounds", "3"),
        ("first_day_pardon", "true"),
        ("reveal_roles_on_death", "false"),
        ("mafia_win", "parity"),
        ("day_cap", "50"),
        ("absence", "0.0"),
        ("modkill", "0.0"),
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

#[test]
fn night_order_lists_the_steps_and_their_roles() {
    let out = ok(&["night-order"]);
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 7, "{out}");
    // C5/C6 checks come before the C4 kill (C7: checks see the state at dusk).
    let info = rows.iter().position(|l| l.contains("information on people")).unwrap();
    let kills = rows.iter().position(|l| l.contains("kills")).unwrap();
    assert!(info < kills, "{out}");
    assert!(rows[info].contains("commissar") && rows[info].contains("don"), "{out}");
    assert!(rows[kills].contains("mafioso") && rows[kills].contains("don"), "{out}");
}
