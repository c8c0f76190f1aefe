//! The `mafia` binary with agents in other processes (`ext:COMMAND`): runs
//! reproduce whatever the pool size, faults are reported in a table and
//! written beside `--out`, bad options exit 2, and `mafia host` speaks the
//! protocol.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

mod common;
use common::*;

/// Fault limits no deliberately broken agent below reaches: the tests that
/// count faults read them from a run that finished.
const TOLERANT: [&str; 4] = ["--ext-max-faults", "1", "--ext-max-forfeits", "99999"];

/// `args` with the fault limits lifted ([`TOLERANT`]).
fn tolerant<'a>(args: &[&'a str]) -> Vec<&'a str> {
    args.iter().copied().chain(TOLERANT).collect()
}

fn agent(mode: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol/tests/agents/seeded.py");
    format!("ext:{} {mode}", p.display())
}

#[test]
fn an_external_run_reproduces_whatever_the_pool_size() {
    let spec = format!("forum,town={}", agent("ok"));
    let run = |procs: &str| ok(&["run", "--games", "300", "--seed", "4", "--agents", &spec, "--ext-procs", procs]);
    let one = run("1");
    assert_eq!(one, run("2"));
    assert!(one.contains("no faults"), "{one}");
    assert!(one.contains("town=ext:"), "{one}");
}

#[test]
fn faults_are_a_table_written_beside_the_summary() {
    let dir = TempDir::new("ext-faults");
    let out = dir.path("s.csv");
    let spec = format!("forum,seat2={}", agent("illegal"));
    let text =
        ok(&tolerant(&["run", "--games", "40", "--agents", &spec, "--ext-procs", "1", "--out", out.to_str().unwrap()]));
    assert!(text.contains("faults") && text.contains("illegal"), "{text}");
    let faults = std::fs::read_to_string(dir.path("s.faults.csv")).unwrap();
    let mut lines = faults.lines();
    assert_eq!(lines.next().unwrap(), "agent,seat,timeout,malformed,mismatch,illegal,crash,down,forfeits");
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(row[1], "2", "{faults}");
    let illegal: u64 = row[5].parse().unwrap();
    assert!(illegal > 0, "{faults}");
    // Issue 35: the summary's `illegal` stayed 0; it counts the external
    // agent's illegal answers (each replaced by the fallback) too.
    let summary = csv_rows(&out);
    assert_eq!(col(&summary[0], "illegal"), illegal.to_string(), "{summary:?}");
}

#[test]
fn forfeited_games_are_not_counted() {
    let spec = format!("forum,mafia={}", agent("illegal"));
    let text =
        ok(&tolerant(&["run", "--games", "30", "--agents", &spec, "--ext-fallback", "forfeit", "--ext-procs", "1"]));
    assert!(text.contains("games forfeited (not in the win rates)"), "{text}");
}

#[test]
fn bad_external_options_exit_2() {
    let spec = agent("ok");
    fails(&["run", "--games", "5", "--agents", &spec, "--ext-fallback", "never"], &["--ext-fallback", "`never`"]);
    fails(&["run", "--games", "5", "--agents", &spec, "--ext-timeout", "0"], &["--ext-timeout 0"]);
    let dir = TempDir::new("ext-bad-log");
    let file = dir.write("file", "");
    let under_a_file = format!("{file}/logs");
    fails(
        &["run", "--games", "5", "--agents", &spec, "--ext-log", &under_a_file],
        &["--ext-log", "cannot make the folder"],
    );
    fails(
        &["run", "--games", "5", "--agents", &spec, "--ext-max-faults", "1.5"],
        &["--ext-max-faults 1.5", "from 0 to 1"],
    );
    // The folder is made by the first log: a run without external agents makes none.
    let unused = dir.path("unused-logs");
    ok(&["run", "--games", "5", "--quiet", "--ext-log", unused.to_str().unwrap()]);
    assert!(!unused.exists());
    fails(&["run", "--games", "5", "--agents", "ext:./no/such/agent.py"], &["no such program", "agent.py"]);
    fails(&["run", "--games", "5", "--agents", "seat11=random"], &["seat11", "10 seats"]);
    fails(&["run", "--games", "5", "--agents", "seat2=reveal"], &["reveal", "seat2"]);
}

#[test]
fn mafia_host_plays_a_game_for_its_controller() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mafia"))
        .args(["host", "--setup", "classic"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut next = || {
        let mut line = String::new();
        from.read_line(&mut line).unwrap();
        serde_json::from_str::<serde_json::Value>(&line).unwrap()
    };
    assert_eq!(next()["type"], "hello");
    writeln!(to, r#"{{"type":"hello","protocol":1,"view":false,"start_end":false}}"#).unwrap();
    writeln!(to, r#"{{"type":"play","seed":1,"game":0,"seats":[]}}"#).unwrap();
    let done = next();
    assert_eq!(done["type"], "done", "{done}");
    assert_eq!(done["ending"]["roles"].as_array().unwrap().len(), 10);
    // The same game as `mafia replay --seed 1 --game 0`.
    let story = ok(&["replay", "--seed", "1", "--game", "0"]);
    let day = done["ending"]["days"].as_u64().unwrap();
    assert!(story.contains(&format!("Game over on day {day}")), "{story}");
    drop(to);
    assert!(child.wait().unwrap().success());
}

/// A duel and a league with an external agent report its faults after
/// their tables, as `run` does; a game the agent forfeited is left out of
/// every strategy's count (the pairs stay paired on the games all played).
#[test]
fn duels_and_leagues_report_faults_and_drop_forfeited_games() {
    let b = agent("illegal");
    let text = ok(&tolerant(&[
        "duel",
        "--games",
        "40",
        "--for",
        "town",
        "--a",
        "forum",
        "--b",
        &b,
        "--ext-fallback",
        "forfeit",
        "--ext-procs",
        "1",
        "--quiet",
    ]));
    let played: u64 = text.split("each plays the same ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let forfeited: u64 =
        text.split(" restarts, ").nth(1).unwrap().split(" games forfeited").next().unwrap().parse().unwrap();
    assert!(forfeited > 0, "{text}");
    assert_eq!(played + forfeited, 40, "{text}");

    let dir = TempDir::new("league-faults");
    let out = dir.path("l.csv");
    let text = ok(&tolerant(&[
        "league",
        "--games",
        "30",
        "--for",
        "town",
        "--strategies",
        &format!("forum,random,{b}"),
        "--ext-procs",
        "1",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert!(text.contains("faults") && text.contains("illegal"), "{text}");
    let faults = std::fs::read_to_string(dir.path("l.faults.csv")).unwrap();
    assert!(faults.starts_with("agent,seat,timeout,malformed,mismatch,illegal"), "{faults}");
    assert!(faults.lines().count() > 1, "{faults}");
}

/// The faults of a run split into shards are kept in each shard's counts
/// file, and the merge reports them as the whole run does: the same
/// decisions asked, the same faults, seat by seat.
#[test]
fn a_merge_of_shards_reports_the_faults_of_the_whole_run() {
    let dir = TempDir::new("ext-shards");
    let spec = format!("forum,seat2={},seat5={}", agent("illegal"), agent("wrong-game"));
    let base = tolerant(&["run", "--games", "60", "--seed", "3", "--agents", &spec, "--ext-procs", "1", "--quiet"]);
    let whole = ok(&base);
    let files: Vec<String> = (0..3).map(|k| dir.path(&format!("s{k}.json")).display().to_string()).collect();
    for (k, f) in files.iter().enumerate() {
        let shard = format!("{k}/3");
        let mut a = base.to_vec();
        a.extend(["--shard", &shard, "--counts", f]);
        ok(&a);
    }
    let merged = ok(&tolerant(&["merge", &files[2], &files[0], &files[1]]));
    let faults = |t: &str| t[t.find("external agents").unwrap_or_else(|| panic!("no faults line: {t}"))..].to_string();
    assert!(faults(&whole).contains("illegal") && faults(&whole).contains("mismatch"), "{whole}");
    assert_eq!(faults(&merged), faults(&whole));
}

/// `compare` with an external agent reports its faults after its table (and
/// beside `--out`), whole after a merge of shards too.
#[test]
fn a_comparison_reports_the_external_agents_faults() {
    let dir = TempDir::new("ext-compare");
    let spec = format!("forum,seat2={}", agent("illegal"));
    let out = dir.path("c.csv");
    let base = [
        "compare",
        "--a",
        "no_kill_limit=3",
        "--b",
        "no_kill_limit=off",
        "--games",
        "40",
        "--agents",
        &spec,
        "--quiet",
    ];
    let mut a = base.to_vec();
    a.extend(TOLERANT.into_iter().chain(["--ext-procs", "1", "--out", out.to_str().unwrap()]));
    let whole = ok(&a);
    assert!(whole.contains("external agents") && whole.contains("illegal"), "{whole}");
    assert!(dir.path("c.faults.csv").exists());
    let files: Vec<String> = (0..2).map(|k| dir.path(&format!("s{k}.json")).display().to_string()).collect();
    for (k, f) in files.iter().enumerate() {
        let shard = format!("{k}/2");
        let mut a = base.to_vec();
        a.extend(TOLERANT.into_iter().chain(["--ext-procs", "1", "--shard", &shard, "--counts", f]));
        ok(&a);
    }
    let merged = ok(&tolerant(&["merge", &files[0], &files[1]]));
    let faults = |t: &str| t[t.find("external agents").unwrap()..].to_string();
    assert_eq!(faults(&merged), faults(&whole));
}

/// `best-response` against a camp played by an external agent reports the
/// agent's faults after its tables, and counts no forfeited game.
#[test]
fn a_best_response_against_an_external_camp_reports_its_faults() {
    let spec = format!("forum,town={}", agent("illegal"));
    let text = ok(&tolerant(&[
        "best-response",
        "--camp",
        "mafia",
        "--agents",
        &spec,
        "--max-games",
        "600",
        "--rounds",
        "1",
        "--confirm",
        "0",
        "--signals",
        "none",
        "--ext-procs",
        "1",
        "--ext-fallback",
        "forfeit",
        "-q",
    ]));
    assert!(text.contains("external agents") && text.contains("illegal"), "{text}");
    assert!(text.contains("games forfeited (not in the win rates)"), "{text}");
}

/// A run with an external agent stopped part-way by SIGTERM and resumed
/// reports the faults of the uninterrupted run: the block in play at the
/// interrupt is dropped with its faults, and counted once when played again.
#[test]
fn a_resumed_run_counts_the_faults_of_a_dropped_block_once() {
    use std::time::{Duration, Instant};
    let dir = TempDir::new("ext-resume");
    let counts = dir.file("c.json");
    let spec = format!("forum,seat2={}", agent("illegal"));
    let base =
        tolerant(&["run", "--games", "70000", "--seed", "6", "--agents", &spec, "--ext-procs", "1", "--threads", "1"]);
    let with = |extra: &[&str]| -> Vec<String> { base.iter().chain(extra).map(|s| s.to_string()).collect() };
    let progress = || -> Option<(String, u64)> {
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&counts).ok()?).ok()?;
        Some((v["state"].as_str()?.to_string(), v["done"].as_u64()?))
    };
    let first = with(&["--counts", &counts, "--checkpoint-secs", "0", "--quiet"]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_mafia"))
        .args(&first)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mafia");
    let start = Instant::now();
    loop {
        if progress().is_some_and(|(state, done)| state == "running" && done > 0) {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended before a checkpoint");
        assert!(start.elapsed() < Duration::from_secs(120), "no checkpoint in two minutes");
        std::thread::sleep(Duration::from_millis(2));
    }
    // Mid-block (the first block is 65,536 games): SIGTERM drops the second, in play.
    std::thread::sleep(Duration::from_millis(20));
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    assert_eq!(child.wait().unwrap().code(), Some(2), "SIGTERM: exit 2 after the checkpoint");
    let (state, done) = progress().expect("a checkpoint");
    assert_eq!(state, "interrupted");
    assert!(done < 70000, "stopped part-way: {done}");
    let resumed =
        ok(&with(&["--counts", &counts, "--resume", "--quiet"]).iter().map(String::as_str).collect::<Vec<_>>());
    let whole = ok(&with(&["--quiet"]).iter().map(String::as_str).collect::<Vec<_>>());
    let faults = |t: &str| t[t.find("external agents").unwrap_or_else(|| panic!("no faults line: {t}"))..].to_string();
    assert!(faults(&whole).contains("illegal"), "{whole}");
    assert_eq!(faults(&resumed), faults(&whole));
    assert_eq!(resumed, whole, "the tables too");
}

/// Issue 35: an agent whose every process dies (a `.py` agent whose
/// `python3` lacks its package) made a normal-looking table and exit 0. The
/// run still prints its tables, then fails (exit 1) with a banner naming
/// the agent, its faults by kind and the folder of its standard error,
/// where the traceback is; the faults are one per decision, never more.
#[test]
fn a_broken_agent_fails_the_run_with_a_banner() {
    let dir = TempDir::new("ext-broken");
    let script = dir.write("broken.py", "import mafia_lab_no_such_package\n");
    let logs = dir.path("logs");
    let spec = format!("forum,seat3=ext:{script}");
    let args = [
        "run",
        "--games",
        "20",
        "--agents",
        &spec,
        "--ext-procs",
        "1",
        "--ext-restarts",
        "1",
        "--ext-log",
        logs.to_str().unwrap(),
    ];
    let out = mafia(&args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{}", show(&args, &out));
    assert!(stdout.contains("town"), "the tables are printed first: {stdout}");
    let asked: u64 = stdout.split("): ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let faults: u64 = stdout.split("decisions asked, ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(asked > 0 && faults == asked, "one fault per decision: {stdout}");
    for needle in
        [&format!("ext:{script}"), "crash", "down", logs.to_str().unwrap(), "--ext-max-faults", "virtual environment"]
    {
        assert!(stderr.contains(needle), "`{needle}` in {stderr}");
    }
    let traceback = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .any(|t| t.contains("mafia_lab_no_such_package"));
    assert!(traceback, "the traceback is logged in the folder made for it");
    // Allowed faults: the same run passes.
    let mut allowed = args.to_vec();
    allowed.extend(["--ext-max-faults", "1"]);
    ok(&allowed);
}

/// Issue 35: per-game rows did not say which games had moves replaced by
/// the fallback. With external agents, `--games-out` has a `replaced`
/// column: the decisions of the game the fallback played, adding up to the
/// faults; without them, no such column.
#[test]
fn per_game_rows_count_the_replaced_decisions() {
    let dir = TempDir::new("ext-replaced");
    let rows = dir.path("g.csv");
    let out = dir.path("s.csv");
    let spec = format!("forum,seat2={}", agent("illegal"));
    let args = [
        "run",
        "--games",
        "30",
        "--agents",
        &spec,
        "--ext-procs",
        "1",
        "--ext-max-faults",
        "1",
        "--games-out",
        rows.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    ok(&args);
    let games = csv_rows(&rows);
    assert_eq!(games.len(), 30);
    let replaced: u64 = games.iter().map(|r| col(r, "replaced").parse::<u64>().unwrap()).sum();
    let faults = csv_rows(&dir.path("s.faults.csv"));
    let total: u64 = faults.iter().map(|r| col(r, "illegal").parse::<u64>().unwrap()).sum();
    assert!(replaced > 0 && replaced == total, "{replaced} replaced, {total} faults");
    ok(&["run", "--games", "5", "--games-out", rows.to_str().unwrap(), "--quiet"]);
    assert!(csv_rows(&rows).iter().all(|r| !r.iter().any(|(k, _)| k == "replaced")));
}

/// Issue 35: `merge` applies the fault limits `run` does (`--ext-max-faults`,
/// default 1% of the decisions, `--ext-max-forfeits`, default 0) to the
/// merged shards' faults: past them it writes its outputs, then fails
/// (exit 1) with the banner naming the agent and its faults by kind.
#[test]
fn a_merge_fails_when_the_merged_faults_pass_the_limits() {
    let dir = TempDir::new("ext-merge-limits");
    let spec = format!("forum,seat2={}", agent("illegal"));
    let shards = |fallback: &str| -> Vec<String> {
        let files: Vec<String> = (0..2).map(|k| dir.file(&format!("{fallback}{k}.json"))).collect();
        for (k, f) in files.iter().enumerate() {
            let shard = format!("{k}/2");
            ok(&tolerant(&[
                "run",
                "--games",
                "40",
                "--seed",
                "2",
                "--agents",
                &spec,
                "--ext-procs",
                "1",
                "--ext-fallback",
                fallback,
                "--quiet",
                "--shard",
                &shard,
                "--counts",
                f,
            ]));
        }
        files
    };
    let files = shards("random");
    let out = dir.file("m.csv");
    let args = ["merge", &files[1], &files[0], "--out", &out];
    let merged = mafia(&args);
    let (stdout, stderr) = (text(&merged.stdout), text(&merged.stderr));
    assert_eq!(merged.status.code(), Some(1), "{}", show(&args, &merged));
    assert!(stdout.contains("town") && stdout.contains("external agents"), "the tables first: {stdout}");
    assert!(dir.path("m.csv").exists() && dir.path("m.faults.csv").exists(), "the outputs are written");
    for needle in ["external agent ext:", "illegal", "--ext-max-faults 0.01", "each shard's --ext-log folder"] {
        assert!(stderr.contains(needle), "`{needle}` in {stderr}");
    }
    // The same limits as the shards': it passes.
    let passed = ok(&tolerant(&["merge", &files[1], &files[0]]));
    assert_eq!(passed, stdout, "the same output");
    // Forfeits: past --ext-max-forfeits (default 0) even with every fault allowed.
    let files = shards("forfeit");
    let args = ["merge", &files[0], &files[1], "--ext-max-faults", "1"];
    let merged = mafia(&args);
    assert_eq!(merged.status.code(), Some(1), "{}", show(&args, &merged));
    assert!(text(&merged.stderr).contains("--ext-max-forfeits 0"), "{}", show(&args, &merged));
    fails(&["merge", &files[0], &files[1], "--ext-max-faults", "2"], &["--ext-max-faults 2", "from 0 to 1"]);
}

/// Issue 35: the summary table carries the fault counts. With external
/// agents the `--out` summary has, per row, `ext_forfeited` (games an
/// external agent forfeited: not in the row's games) and `ext_replaced`
/// (decisions of the row's games their fallbacks answered: the per-game
/// rows' `replaced`, summed); without them, no such columns, and the
/// table is as it was. A merge of shards writes the same summary.
#[test]
fn the_summary_table_carries_the_fault_counts() {
    let dir = TempDir::new("ext-summary");
    let spec = format!("forum,seat2={}", agent("illegal"));
    let out = dir.path("s.csv");
    let rows = dir.path("g.csv");
    let base = tolerant(&["run", "--games", "30", "--seed", "4", "--agents", &spec, "--ext-procs", "1", "--quiet"]);
    let mut a = base.clone();
    a.extend(["--out", out.to_str().unwrap()]);
    ok(&a);
    let summary = csv_rows(&out);
    let faults = csv_rows(&dir.path("s.faults.csv"));
    let illegal: u64 = faults.iter().map(|r| col(r, "illegal").parse::<u64>().unwrap()).sum();
    assert!(illegal > 0);
    assert_eq!(col(&summary[0], "ext_replaced"), illegal.to_string(), "{summary:?}");
    assert_eq!(col(&summary[0], "ext_forfeited"), "0", "{summary:?}");
    // The streaming runner's summary says the same, and its rows add up to it.
    let mut g = base.clone();
    let streamed = dir.path("streamed.csv");
    g.extend(["--games-out", rows.to_str().unwrap(), "--out", streamed.to_str().unwrap()]);
    ok(&g);
    assert_eq!(read(&streamed), read(&out), "the same summary on both paths");
    let replaced: u64 = csv_rows(&rows).iter().map(|r| col(r, "replaced").parse::<u64>().unwrap()).sum();
    assert_eq!(replaced, illegal);
    // Shards merge to the same summary.
    let files: Vec<String> = (0..2).map(|k| dir.file(&format!("s{k}.json"))).collect();
    for (k, f) in files.iter().enumerate() {
        let shard = format!("{k}/2");
        let mut a = base.clone();
        a.extend(["--shard", &shard, "--counts", f]);
        ok(&a);
    }
    let merged = dir.path("m.csv");
    ok(&tolerant(&["merge", &files[0], &files[1], "--out", merged.to_str().unwrap()]));
    assert_eq!(read(&merged), read(&out), "a merge writes the single run's summary");
    // Forfeits: the games forfeited, per row.
    let mut f = base.clone();
    f.extend(["--ext-fallback", "forfeit", "--out", out.to_str().unwrap()]);
    let text = ok(&f);
    let forfeited = col(&csv_rows(&out)[0], "ext_forfeited").to_string();
    assert!(forfeited.parse::<u64>().unwrap() > 0);
    assert!(text.contains(&format!("{forfeited} games forfeited")), "{text}");
    // Without external agents: no such columns.
    ok(&["run", "--games", "5", "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(csv_rows(&out).iter().all(|r| !r.iter().any(|(k, _)| k.starts_with("ext_"))));
}
