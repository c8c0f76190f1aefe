//! Shards, merge, checkpoints and resume (`--shard K/N`, `--counts FILE`,
//! `--resume`, `mafia merge`): the merged tables are the single run's byte
//! for byte, a bad set of shards is refused by name, and a run killed
//! (SIGKILL) or stopped (SIGTERM) part-way resumes to exactly the tables
//! of an uninterrupted run.

mod common;
use common::{TempDir, fails, ok, read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The three table files `--out X.ext` writes.
fn tables(dir: &TempDir, stem: &str, ext: &str) -> Vec<Vec<u8>> {
    ["", ".roles", ".days"]
        .iter()
        .map(|part| dir.path(&format!("{stem}{part}.{ext}")))
        .filter(|p| p.exists())
        .map(|p| read(&p))
        .collect()
}

/// Plays `args` as `n` shards (on one thread each), merges them to
/// `merged.EXT`, and returns merge's stdout.
fn shard_and_merge(dir: &TempDir, args: &[&str], n: u64, ext: &str) -> String {
    let mut files = Vec::new();
    for k in 0..n {
        let counts = dir.file(&format!("shard-{ext}-{n}-{k}.json"));
        let shard = format!("{k}/{n}");
        let mut a = args.to_vec();
        a.extend(["--quiet", "--threads", "1", "--shard", &shard, "--counts", &counts]);
        ok(&a);
        files.push(counts);
    }
    // Any order.
    files.reverse();
    let out = dir.file(&format!("merged.{ext}"));
    let mut a: Vec<&str> = vec!["merge"];
    a.extend(files.iter().map(String::as_str));
    a.extend(["--out", &out]);
    ok(&a)
}

fn single(dir: &TempDir, args: &[&str], ext: &str) -> String {
    let out = dir.file(&format!("single.{ext}"));
    let mut a = args.to_vec();
    a.extend(["--quiet", "--threads", "2", "--out", &out]);
    ok(&a)
}

#[test]
fn shards_of_a_run_merge_to_the_single_run_byte_for_byte() {
    let dir = TempDir::new("merge-run");
    let args =
        ["run", "--setup", "classic", "--setup", "extended", "--games", "6001", "--seed", "11", "--first-game", "5"];
    for ext in ["csv", "parquet"] {
        let want = single(&dir, &args, ext);
        for n in [1, 3, 7] {
            let got = shard_and_merge(&dir, &args, n, ext);
            assert_eq!(got, want, "{n} shards: the printed tables");
            let (a, b) = (tables(&dir, "merged", ext), tables(&dir, "single", ext));
            assert_eq!(a.len(), 3);
            assert!(a == b, "{n} shards: the {ext} tables differ from the single run's");
        }
    }
}

#[test]
fn shards_of_an_experiment_and_a_comparison_merge_byte_for_byte() {
    let dir = TempDir::new("merge-exp");
    let file = dir.write(
        "x.toml",
        "setup = \"classic\"\nagents = \"forum\"\nseed = 5\nprecision = 0.01\n\
         [grid]\n\"rules.no_kill_limit\" = [\"off\", 3]\nmafia = [2, 3]\n\
         [reference]\n\"rules.no_kill_limit\" = \"off\"\n",
    );
    // The file's precision would stop points early: a shard refuses it unless told to ignore it.
    fails(
        &["experiment", &file, "--games", "3000", "--shard", "0/2", "--counts", &dir.file("c.json")],
        &["--no-precision"],
    );
    let args = ["experiment", file.as_str(), "--no-precision", "--games", "3000"];
    let want = single(&dir, &args, "parquet");
    assert_eq!(shard_and_merge(&dir, &args, 4, "parquet"), want);
    assert!(tables(&dir, "merged", "parquet") == tables(&dir, "single", "parquet"));

    let dir = TempDir::new("merge-compare");
    let args = ["compare", "--a", "no_kill_limit=3", "--b", "no_kill_limit=off", "--games", "5000", "--seed", "3"];
    let want = single(&dir, &args, "csv");
    assert_eq!(shard_and_merge(&dir, &args, 2, "csv"), want);
    assert!(tables(&dir, "merged", "csv") == tables(&dir, "single", "csv"));
}

/// Edits a counts file as text, as someone who knows the checksum's rule
/// would: the edit, then the checksum recomputed (to make a foreign or an
/// inconsistent one; the checks past the checksum must refuse it).
fn edit(from: &str, to: &str, f: impl Fn(String) -> String) {
    std::fs::write(to, reseal(&f(String::from_utf8(std::fs::read(from).unwrap()).unwrap()))).unwrap();
}

/// Edits a counts file as text and leaves its checksum as it was.
fn edit_raw(from: &str, to: &str, f: impl Fn(String) -> String) {
    std::fs::write(to, f(String::from_utf8(std::fs::read(from).unwrap()).unwrap())).unwrap();
}

/// The counts file `text` with its checksum recomputed: the checksum is
/// the last member, `sha256:` and the hex SHA-256 of the file's bytes
/// without it (docs/src/guide/clusters.md).
fn reseal(text: &str) -> String {
    use sha2::{Digest, Sha256};
    let member = ",\"checksum\":\"";
    let at = text.rfind(member).expect("a checksum");
    let body = format!("{}}}", &text[..at]);
    let hex: String = Sha256::digest(body.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    format!("{}{member}sha256:{hex}\"}}", &text[..at])
}

/// Replaces `from` in `text` once, where it must be.
fn once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} once in {text}");
    text.replacen(from, to, 1)
}

#[test]
fn merge_names_missing_duplicated_foreign_and_unfinished_shards() {
    let dir = TempDir::new("merge-bad");
    let base = ["run", "--games", "900", "--seed", "2", "--quiet"];
    let shard = |k: u64, n: u64, extra: &[&str]| {
        let counts = dir.file(&format!("s{k}of{n}{}.json", extra.join("")));
        let s = format!("{k}/{n}");
        let mut a = base.to_vec();
        a.extend(["--shard", &s, "--counts", &counts]);
        a.extend(extra);
        ok(&a);
        counts
    };
    let (s0, s1, s2) = (shard(0, 3, &[]), shard(1, 3, &[]), shard(2, 3, &[]));
    fails(&["merge", &s0, &s2], &["missing 1 of 3 shards", "1/3 (games 300..600)"]);
    fails(&["merge", &s0, &s1, &s1, &s2], &["shard 1/3 given twice"]);
    // Another seed, other rules, another split, another command.
    let other_seed = {
        let counts = dir.file("seed.json");
        ok(&["run", "--games", "900", "--seed", "3", "--quiet", "--shard", "1/3", "--counts", &counts]);
        counts
    };
    fails(&["merge", &s0, &other_seed, &s2], &["seed.json", "is not of the same run", "seed 3, not 2"]);
    let rules = shard(1, 3, &["--rule", "no_kill_limit=2"]);
    fails(&["merge", &s0, &rules, &s2], &["another setup, rules or agents"]);
    let split = shard(1, 2, &[]);
    fails(&["merge", &s0, &split, &s2], &["merge the shards of one split"]);
    let code = dir.file("code.json");
    edit(&s1, &code, |t| t.replace("(executable ", "(executable 0"));
    fails(&["merge", &s0, &code, &s2], &["other code"]);
    // Unfinished: a checkpoint of a shard still playing.
    let running = dir.file("running.json");
    edit(&s1, &running, |t| t.replace("\"state\":\"complete\"", "\"state\":\"running\""));
    fails(&["merge", &s0, &running, &s2], &["running.json", "unfinished", "--resume"]);
    // Not a counts file at all.
    let junk = dir.write("junk.json", "{\"format\": \"something else\"}");
    fails(&["merge", &s0, &junk], &["junk.json", "format"]);
    fails(&["merge", &dir.file("absent.json")], &["absent.json", "cannot read"]);
    // And the whole set merges.
    assert!(ok(&["merge", &s2, &s1, &s0]).contains("Outcomes"));
}

#[test]
fn counts_options_refuse_bad_input() {
    let dir = TempDir::new("counts-bad");
    let c = dir.file("c.json");
    fails(&["run", "--games", "100", "--shard", "2/2", "--counts", &c], &["--shard 2/2", "K/N"]);
    fails(&["run", "--games", "100", "--shard", "1/2"], &["--shard 1/2 needs --counts"]);
    fails(&["run", "--games", "100", "--resume"], &["--resume needs --counts"]);
    fails(&["run", "--games", "3", "--shard", "0/4", "--counts", &c], &["4 shards of 3 games"]);
    fails(&["run", "--games", "100", "--counts", &dir.file("no/such/dir/c.json")], &["does not exist"]);
    fails(
        &["run", "--games", "100", "--games-out", &dir.file("g.csv"), "--counts", &c],
        &["--games-out cannot be sharded"],
    );
    fails(&["run", "--games", "100", "--precision", "0.1", "--shard", "0/2", "--counts", &c], &["--precision"]);
    fails(&["compare", "--a", "no_kill_limit=3", "--sprt", "0.02", "--shard", "0/2", "--counts", &c], &["--sprt"]);
    ok(&["run", "--games", "100", "--quiet", "--counts", &c]);
    fails(&["run", "--games", "100", "--counts", &c], &["the file exists", "--resume"]);
    fails(&["run", "--games", "100", "--seed", "9", "--counts", &c, "--resume"], &["not this run's", "seed 1, not 9"]);
    fails(&["run", "--games", "200", "--counts", &c, "--resume"], &["games 0..100, not 0..200"]);
}

/// Reads `state` and `done` of a counts file, if it is there and whole.
fn progress(path: &Path) -> Option<(String, u64)> {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    Some((v["state"].as_str()?.to_string(), v["done"].as_u64()?))
}

/// Starts `mafia args` in the background.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_mafia"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mafia")
}

/// Waits until the counts file holds a checkpoint past `after` games of a
/// run still playing; false if the run ended first.
fn wait_for_checkpoint(child: &mut Child, path: &Path, after: u64) -> bool {
    let start = Instant::now();
    loop {
        if let Some((state, done)) = progress(path)
            && state == "running"
            && done > after
        {
            return true;
        }
        if child.try_wait().expect("poll the run").is_some() {
            return false;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "no checkpoint in two minutes");
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn a_run_killed_part_way_resumes_to_the_uninterrupted_tables() {
    let dir = TempDir::new("resume-kill");
    let counts = dir.file("c.json");
    let args = ["run", "--games", "1500000", "--seed", "4", "--agents", "random", "--threads", "1", "--quiet"];
    let with = |extra: &[&str]| -> Vec<String> { args.iter().chain(extra).map(|s| s.to_string()).collect::<Vec<_>>() };
    // Killed (SIGKILL: no chance to write anything) after a checkpoint.
    let first = with(&["--counts", &counts, "--checkpoint-secs", "0"]);
    let mut child = spawn(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(wait_for_checkpoint(&mut child, Path::new(&counts), 0), "the run ended before a checkpoint");
    child.kill().expect("SIGKILL");
    child.wait().unwrap();
    let (state, done) = progress(Path::new(&counts)).expect("the checkpoint survives the kill whole");
    assert_eq!(state, "running");
    assert!(done > 0 && done < 1_500_000, "killed part-way: {done}");
    // Resumed to the end, then the same run uninterrupted.
    let out = dir.file("resumed.csv");
    let resumed =
        ok(&with(&["--counts", &counts, "--resume", "--out", &out]).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(progress(Path::new(&counts)), Some(("complete".to_string(), 1_500_000)));
    let whole_out = dir.file("whole.csv");
    let whole = ok(&with(&["--out", &whole_out]).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(resumed, whole, "the printed tables");
    assert!(tables(&dir, "resumed", "csv") == tables(&dir, "whole", "csv"), "the written tables");
    // Resuming a finished file plays nothing and prints the same.
    let again = ok(&with(&["--counts", &counts, "--resume"]).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(again, whole);
}

#[test]
fn a_shard_stopped_by_sigterm_checkpoints_resumes_and_merges() {
    let dir = TempDir::new("resume-term");
    let file = dir.write(
        "x.toml",
        "setup = \"classic\"\nagents = \"random\"\nseed = 8\n[grid]\n\"rules.no_kill_limit\" = [\"off\", 3]\n\
         [reference]\n\"rules.no_kill_limit\" = \"off\"\n",
    );
    let base = ["experiment", file.as_str(), "--games", "1200000", "--threads", "1", "--quiet"];
    let run = |k: u64, extra: &[&str]| -> Vec<String> {
        let shard = format!("{k}/2");
        let counts = dir.file(&format!("s{k}.json"));
        base.iter()
            .map(|s| s.to_string())
            .chain(["--shard".into(), shard, "--counts".into(), counts])
            .chain(extra.iter().map(|s| s.to_string()))
            .collect()
    };
    let s0 = dir.file("s0.json");
    let a0 = run(0, &["--checkpoint-secs", "0"]);
    let mut child = spawn(&a0.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(wait_for_checkpoint(&mut child, Path::new(&s0), 0), "the shard ended before a checkpoint");
    // What a scheduler sends at the time limit.
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "SIGTERM: exit 2 after the checkpoint");
    let (state, done) = progress(Path::new(&s0)).expect("a checkpoint");
    assert_eq!(state, "interrupted");
    assert!(done < 600_000, "stopped part-way: {done}");
    // Merging now names the unfinished shard.
    ok(&run(1, &[]).iter().map(String::as_str).collect::<Vec<_>>());
    let s1 = dir.file("s1.json");
    fails(&["merge", &s0, &s1], &["s0.json", "unfinished"]);
    ok(&run(0, &["--resume"]).iter().map(String::as_str).collect::<Vec<_>>());
    let merged = ok(&["merge", &s0, &s1, "--out", &dir.file("merged.csv")]);
    let mut a = base.to_vec();
    let single_out = dir.file("single.csv");
    a.extend(["--out", &single_out]);
    assert_eq!(merged, ok(&a));
    assert!(tables(&dir, "merged", "csv") == tables(&dir, "single", "csv"));
}

/// Issue 35: a checkpoint whose `done` was edited was resumed and its games
/// counted twice (a 1.5 M-game run reported 2.1 M). Every counts file now
/// checks itself: an edit breaks its checksum, and an edit with the
/// checksum recomputed breaks its consistency (`done` against the games
/// its tallies count). Both are refused by name and reason, before any game.
#[test]
fn an_edited_done_is_refused_on_resume() {
    let dir = TempDir::new("resume-edited");
    let c = dir.file("c.json");
    let args = ["run", "--games", "3000", "--seed", "5", "--agents", "random", "--quiet", "--threads", "1"];
    let with = |file: &str| -> Vec<String> {
        args.iter().map(|s| s.to_string()).chain(["--counts".into(), file.into(), "--resume".into()]).collect()
    };
    let run = |file: &str| with(file).iter().map(String::as_str).map(String::from).collect::<Vec<_>>();
    let good = ok(&run(&c).iter().map(String::as_str).collect::<Vec<_>>());
    // A checkpoint of the run, half done: edited back to look unfinished.
    let half = |t: String| {
        once(&once(&t, "\"done\":3000,", "\"done\":1500,"), "\"state\":\"complete\"", "\"state\":\"running\"")
    };
    let edited = dir.file("edited.json");
    edit_raw(&c, &edited, half);
    let err = fails(
        &run(&edited).iter().map(String::as_str).collect::<Vec<_>>(),
        &["edited.json", "checksum does not match"],
    );
    assert!(err.contains("play the run again"), "{err}");
    let resealed = dir.file("resealed.json");
    edit(&c, &resealed, half);
    fails(
        &run(&resealed).iter().map(String::as_str).collect::<Vec<_>>(),
        &["resealed.json", "counts 3,000 games for point 1 but says 1,500 done"],
    );
    // The file itself is untouched by the refusals, and still resumes (prints) byte for byte.
    assert_eq!(ok(&run(&c).iter().map(String::as_str).collect::<Vec<_>>()), good);
    // A file of the format before the checksum is refused by name.
    let old = dir.file("old.json");
    edit_raw(&c, &old, |t| once(&t, "mafia-lab counts 2", "mafia-lab counts 1"));
    fails(&run(&old).iter().map(String::as_str).collect::<Vec<_>>(), &["old.json", "`mafia-lab counts 1`", "again"]);
}

/// Issue 35: a shard whose tallies were edited merged into a table with
/// more games than the run had. Its checksum refuses it; with the checksum
/// recomputed, its consistency does: an edited tally no longer adds up, and
/// an edit that keeps the tally whole (a game added to every count) no
/// longer fits the shard's range.
#[test]
fn an_edited_tally_is_refused_by_merge() {
    let dir = TempDir::new("merge-edited");
    let base = ["run", "--games", "1000", "--seed", "6", "--quiet", "--threads", "1"];
    let shard = |k: u64| {
        let counts = dir.file(&format!("s{k}.json"));
        let s = format!("{k}/2");
        let mut a = base.to_vec();
        a.extend(["--shard", &s, "--counts", &counts]);
        ok(&a);
        counts
    };
    let (s0, s1) = (shard(0), shard(1));
    let more = |t: String| once(&t, "\"tallies\":[{\"games\":500,", "\"tallies\":[{\"games\":700,");
    let edited = dir.file("edited.json");
    edit_raw(&s1, &edited, more);
    let err = fails(
        &["merge", &s0, &edited],
        &["edited.json", "checksum does not match its contents", "play shard 1/2 again"],
    );
    assert!(!err.contains("s0.json"), "the good shard is not blamed: {err}");
    let resealed = dir.file("resealed.json");
    edit(&s1, &resealed, more);
    fails(&["merge", &s0, &resealed], &["resealed.json", "counts 700 games", "but says it played 500"]);
    // Five mafia wins turned into town wins: the games and the ends still
    // add up, but the roles on the winning side no longer match the wins.
    let moved = dir.file("moved.json");
    edit(&s1, &moved, |t| {
        let key = "\"tallies\":[{\"games\":500,\"wins\":[";
        let at = t.find(key).unwrap() + key.len();
        let end = at + t[at..].find(']').unwrap();
        let wins: Vec<u64> = t[at..end].split(',').map(|w| w.parse().unwrap()).collect();
        assert!(wins[1] >= 5, "{wins:?}");
        format!("{}{},{},{}{}", &t[..at], wins[0] + 5, wins[1] - 5, wins[2], &t[end..])
    });
    fails(&["merge", &s0, &moved], &["moved.json", "on the winning side, but its camp won"]);
    // The good shards merge, and the merged counts file (checksummed too)
    // merges alone to the same tables.
    let all = dir.file("all.json");
    let merged = ok(&["merge", &s1, &s0, "--counts", &all]);
    assert!(merged.contains("Outcomes"));
    assert_eq!(ok(&["merge", &all]), merged);
}
