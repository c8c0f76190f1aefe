//! Issue 35, "Files": every file the program writes is claimed before the
//! first game (a target another live run is writing is refused), written
//! to a unique temporary file and renamed whole, and nothing half-written
//! remains whatever ends the run — a Ctrl-C or SIGTERM (which say what was
//! kept), a second signal, `kill -9` (the next run to the target removes
//! what it left), or an output that cannot be written (the others are
//! written all the same). A missed precision exits non-zero.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::*;

/// Starts `mafia args` in the background, its output captured.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_mafia"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the mafia binary")
}

/// Waits (at most two minutes) until `path` exists.
fn wait_for(path: &Path) {
    let start = Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < Duration::from_secs(120), "{} never appeared", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` (`TERM`, `KILL`) to the child.
fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
    assert!(status.success(), "kill -{signal}");
}

/// The child's exit code, standard output and standard error.
fn finish(child: Child) -> (Option<i32>, String, String) {
    let out = child.wait_with_output().unwrap();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// The names in `dir`, sorted.
fn names(dir: &TempDir) -> Vec<String> {
    let mut n: Vec<String> =
        std::fs::read_dir(&dir.0).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    n.sort();
    n
}

/// A run long enough to act on while it plays (it is stopped first).
const LONG: &[&str] = &["run", "--setup", "extended", "--games", "100000000", "--quiet"];

#[test]
fn a_target_another_live_run_is_writing_is_refused() {
    let dir = TempDir::new("live");
    let (t, c) = (dir.file("t.csv"), dir.file("c.json"));
    let first = spawn(&[LONG, &["--out", &t, "--counts", &c, "--checkpoint-secs", "0.1"]].concat());
    // The first checkpoint: the games are being played.
    wait_for(&dir.path("c.json"));
    let pid = format!("process {}", first.id());
    // The same table, or the same counts file beside another table: refused, naming the holder.
    fails(&["run", "--games", "100", "--quiet", "--out", &t], &["--out", "t.csv", "another run", &pid, "is writing"]);
    let u = dir.file("u.csv");
    fails(&["run", "--games", "100", "--quiet", "--out", &u, "--counts", &c], &["--counts", "c.json", &pid]);
    assert!(!dir.path("u.csv").exists(), "the refused run wrote nothing");
    // The first run, stopped, keeps its outputs and leaves no lock or temporary file.
    signal(&first, "TERM");
    let (code, out, err) = finish(first);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.contains("Outcomes") && err.contains("--resume"), "{err}");
    assert_eq!(names(&dir), ["c.json", "t.csv", "t.days.csv", "t.roles.csv"]);
    // Now free: the next run takes it.
    ok(&["run", "--games", "100", "--quiet", "--out", &t]);
}

#[test]
fn sigterm_on_games_out_leaves_nothing_half_written_and_says_so() {
    let dir = TempDir::new("term-games");
    let child = spawn(&[LONG, &["--games-out", &dir.file("g.csv"), "--out", &dir.file("t.csv")]].concat());
    // The rows' temporary file: the games are being played.
    wait_for(&dir.path(&format!("g.csv.{}-0.tmp", child.id())));
    signal(&child, "TERM");
    let (code, out, err) = finish(child);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    for needle in ["interrupted after", "nothing was written", "g.csv", "temporary file is removed", "--counts"] {
        assert!(err.contains(needle), "stderr lacks {needle:?}: {err}");
    }
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));
}

#[test]
fn a_second_signal_quits_at_once_and_removes_what_is_unfinished() {
    let dir = TempDir::new("term-twice");
    let child = spawn(&[LONG, &["--games-out", &dir.file("g.csv")]].concat());
    wait_for(&dir.path(&format!("g.csv.{}-0.tmp", child.id())));
    signal(&child, "TERM");
    std::thread::sleep(Duration::from_millis(50));
    signal(&child, "TERM");
    let (code, _, err) = finish(child);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("stopped: removed the unfinished") && err.contains("g.csv."), "{err}");
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));
}

#[test]
fn what_a_killed_run_left_is_removed_by_the_next_run_to_the_target() {
    let dir = TempDir::new("kill9");
    let g = dir.file("g.csv");
    let child = spawn(&[LONG, &["--games-out", &g]].concat());
    let pid = child.id();
    wait_for(&dir.path(&format!("g.csv.{pid}-0.tmp")));
    signal(&child, "KILL");
    let (code, _, _) = finish(child);
    assert_eq!(code, None, "killed by a signal");
    let left = names(&dir);
    assert!(left.contains(&format!("g.csv.{pid}-0.tmp")), "{left:?}");
    let out = mafia(&["run", "--games", "100", "--quiet", "--games-out", &g]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&format!("removed {}", dir.path(&format!("g.csv.{pid}-0.tmp")).display())), "{err}");
    assert!(err.contains(&format!("killed (process {pid})")), "{err}");
    assert_eq!(names(&dir), ["g.csv"]);
    assert_eq!(csv_rows(&dir.path("g.csv")).len(), 100);
}

/// Issue 35: a counts file that could not be written at the end ended the
/// run before the tables were printed and written elsewhere.
#[test]
fn a_counts_file_that_cannot_be_written_does_not_lose_the_tables() {
    let dir = TempDir::new("lose-one");
    std::fs::create_dir(dir.path("d")).unwrap();
    let (t, c) = (dir.file("t.csv"), dir.file("d/c.json"));
    let child =
        spawn(&["run", "--games", "6000000", "--quiet", "--out", &t, "--counts", &c, "--checkpoint-secs", "1000"]);
    wait_for(&dir.path("d/.c.json.lock"));
    // Once the games are being played (the counts file's checks are
    // made in milliseconds), a folder where the counts file goes: its
    // rename at the end fails.
    std::thread::sleep(Duration::from_secs(1));
    std::fs::create_dir(dir.path("d/c.json")).unwrap();
    let (code, out, err) = finish(child);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.contains("Outcomes"), "the tables are printed: {out}");
    assert!(err.contains("c.json") && err.contains("cannot write"), "{err}");
    assert_eq!(csv_rows(&dir.path("t.csv")).len(), 1, "and written");
    let mut left: Vec<String> = std::fs::read_dir(dir.path("d"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["c.json"], "no temporary file or lock left beside the folder");
}

#[test]
fn outputs_on_one_file_are_refused_in_every_command() {
    let dir = TempDir::new("clash");
    let t = dir.file("t.csv");
    fails(
        &["compare", "--games", "100", "--quiet", "--a", "absence=0.1", "--out", &t, "--counts", &t],
        &["--out", "--counts", "name one file"],
    );
    let x = dir.write("x.toml", "[grid]\nabsence = [0.0, 0.1]\n");
    fails(
        &["experiment", &x, "--games", "100", "--quiet", "--out", &t, "--counts", &dir.file("t.roles.csv")],
        &["--counts", "t.roles.csv", "would overwrite a file written by --out"],
    );
    assert_eq!(names(&dir), ["x.toml"], "nothing written");
}

/// The principle "fail loudly": a run that did not reach the precision it
/// was asked for says so and exits 1, after writing what it played.
#[test]
fn a_missed_precision_exits_one_after_writing_the_outputs() {
    let dir = TempDir::new("missed");
    let t = dir.file("t.csv");
    for args in [
        vec!["run", "--games", "2000", "--precision", "0.001", "--quiet", "--out", &t],
        vec!["compare", "--games", "2048", "--precision", "0.001", "--a", "absence=0.1", "--quiet", "--out", &t],
    ] {
        let _ = std::fs::remove_file(&t);
        let out = mafia(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}", show(&args, &out));
        assert!(err.contains("not reached within") && err.contains("0.001"), "{err}");
        assert!(text(&out.stdout).contains("reached"), "the played line says it too");
        assert!(dir.path("t.csv").exists(), "the outputs are written");
    }
    // Reached: exit 0.
    ok(&["run", "--games", "100000", "--precision", "0.05", "--quiet"]);
}
