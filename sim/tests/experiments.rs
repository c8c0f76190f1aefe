//! Experiments, comparisons, precision stopping, the SPRT, balance search
//! and reports: each on small runs, with known answers where the uniform
//! model gives them (`random` agents, `tie_break = random`: the lynched
//! player is uniform among the living, so the town's chance to win is a
//! recursion over the living mafia and town; see agents/tests/known_answer.rs).

use mafia_engine::Camp;
use mafia_sim::{Budget, ExtArgs, GameArgs, Sprt, Verdict, compare_points, play_compare};
use std::collections::BTreeMap;

mod common;
use common::*;

/// The town's exact chance to win the uniform model from a day with `m`
/// mafia and `t` town alive (C17, C18 checked after each lynch and kill).
fn town_wins(m: u32, t: u32) -> f64 {
    fn day(m: u32, t: u32, memo: &mut BTreeMap<(u32, u32), f64>) -> f64 {
        if let Some(&p) = memo.get(&(m, t)) {
            return p;
        }
        let lynch_mafia = m as f64 / (m + t) as f64;
        // After the lynch: town wins at m = 0; the mafia at m ≥ t; else a night kill.
        let after = |m: u32, t: u32, memo: &mut BTreeMap<(u32, u32), f64>| {
            if m == 0 {
                1.0
            } else if m >= t || m >= t - 1 {
                0.0
            } else {
                day(m, t - 1, memo)
            }
        };
        let p = lynch_mafia * after(m - 1, t, memo) + (1.0 - lynch_mafia) * after(m, t - 1, memo);
        memo.insert((m, t), p);
        p
    }
    day(m, t, &mut BTreeMap::new())
}

fn uniform_args(setup: &str) -> GameArgs {
    GameArgs {
        setup: vec![setup.to_string()],
        rules: vec!["tie_break=random".into()],
        agents: Some("random".into()),
        ext: ExtArgs::default_settings(),
    }
}

const UNIFORM: &str = "name = \"uniform\"\n[roles]\nmafioso = 3\ncitizen = 7\n[rules]\ntie_break = \"random\"\n";

#[test]
fn town_wins_recursion_is_a_probability() {
    let p = town_wins(3, 7);
    assert!(p > 0.0 && p < 1.0, "{p}");
    assert!(town_wins(1, 9) > town_wins(2, 8) && town_wins(2, 8) > town_wins(3, 7));
}

// ---------------------------------------------------------------------------
// mafia experiment

#[test]
fn an_experiment_gives_one_row_per_point_and_matches_the_sweep_shorthand() {
    let dir = TempDir::new("exp");
    let file = dir.write(
        "x.toml",
        "setup = \"classic\"\nagents = \"forum\"\nseed = 5\ngames = 3000\n[grid]\n\"rules.no_kill_limit\" = [3, \"off\"]\n\"rules.absence\" = [0, 0.2]\n[reference]\n\"rules.no_kill_limit\" = \"off\"\n",
    );
    let out = dir.file("x.csv");
    let printed = ok(&["experiment", &file, "--quiet", "--out", &out]);
    assert!(printed.contains("played 12000 games (3000 per point)"), "{printed}");
    let rows = csv_rows(std::path::Path::new(&out));
    assert_eq!(rows.len(), 4);
    assert_eq!(col(&rows[0], "rules.no_kill_limit"), "3");
    assert_eq!(col(&rows[1], "rules.absence"), "0.2");
    // The reference points have no difference; the others one against the rule off.
    assert_eq!(col(&rows[2], "town_diff"), "");
    assert_eq!(col(&rows[0], "reference"), "rules.no_kill_limit=off rules.absence=0");
    let d: f64 = col(&rows[1], "town_diff").parse().unwrap();
    let (ra, rb): (f64, f64) =
        (col(&rows[1], "town_rate").parse().unwrap(), col(&rows[3], "town_rate").parse().unwrap());
    assert!((d - (ra - rb)).abs() < 1e-9, "the paired mean is the difference of the rates: {d} vs {ra} - {rb}");
    // `run --sweep` is the same grid on the same seeds: the same wins.
    let sweep = dir.file("s.csv");
    ok(&[
        "run",
        "--agents",
        "forum",
        "--seed",
        "5",
        "--games",
        "3000",
        "--quiet",
        "--sweep",
        "no_kill_limit=3,off",
        "--sweep",
        "absence=0,0.2",
        "--out",
        &sweep,
    ]);
    let srows = csv_rows(std::path::Path::new(&sweep));
    for (a, b) in rows.iter().zip(&srows) {
        for c in ["games", "town_wins", "mafia_wins", "days_mean", "lynches"] {
            assert_eq!(col(a, c), col(b, c), "{c}");
        }
    }
}

#[test]
fn experiment_output_is_the_same_on_one_and_two_threads() {
    let dir = TempDir::new("exp-threads");
    let file =
        dir.write("x.toml", "seed = 9\ngames = 5000\nprecision = 0.02\n[grid]\nmafia = [2, 3]\nplayers = [9, 10]\n");
    let one = ok(&["experiment", &file, "--quiet", "--threads", "1"]);
    let two = ok(&["experiment", &file, "--quiet", "--threads", "2"]);
    assert_eq!(one, two);
    assert!(one.contains("players"), "{one}");
}

#[test]
fn bad_experiment_files_name_the_line() {
    let dir = TempDir::new("exp-bad");
    let f = dir.write("a.toml", "[grid]\nspeed = [1, 2]\n");
    fails(&["experiment", &f], &["a.toml:2:1", "unknown rule `speed`"]);
    let f = dir.write("b.toml", "setup = \"nosuch\"\n");
    fails(&["experiment", &f], &["b.toml:1:9", "nosuch"]);
    let f = dir.write("c.toml", "[grid]\n\"rules.absence\" = [0, 7]\n");
    fails(&["experiment", &f], &["c.toml:2:1", "absence"]);
    let f = dir.write("d.toml", "[grid]\nplayers = [10, 3]\n");
    fails(&["experiment", &f], &["players=3", "makes no game", "4 players who are not citizens"]);
    let f = dir.write("e.toml", "gmaes = 3\n");
    fails(&["experiment", &f], &["e.toml:1:1", "unknown key `gmaes`"]);
    let f = dir.write("f.toml", "[grid\n");
    fails(&["experiment", &f], &["f.toml:1", "invalid TOML"]);
    let f = dir.write("g.toml", "[grid]\nmafia = [2, 3]\n[reference]\nplayers = 10\n");
    fails(&["experiment", &f], &["[reference] players"]);
    fails(&["experiment", &dir.file("missing.toml")], &["missing.toml"]);
    let f = dir.write("h.toml", "precision = 2\n");
    fails(&["experiment", &f], &["h.toml:1:13", "precision"]);
    // Issue 35: one setting on two axes, and a grid too large to hold.
    let f = dir.write("i.toml", "[grid]\nabsence = [0, 0.1]\n\"rules.absence\" = [0.2]\n");
    fails(&["experiment", &f], &["i.toml:3:1", "rules.absence", "absence", "one axis"]);
    let big: Vec<String> = (1..=400).map(|v| v.to_string()).collect();
    let f = dir.write(
        "j.toml",
        &format!("[grid]\nday_cap = [{0}]\nchosen_secret_votes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nrunoff_rounds = [{1}]\n", big.join(", "), big[..100].join(", ")),
    );
    fails(&["experiment", &f], &["j.toml", "440000 points", "at most"]);
}

// ---------------------------------------------------------------------------
// Precision stopping

#[test]
fn precision_stopping_meets_its_precision_and_stops_at_the_same_game() {
    let dir = TempDir::new("precision");
    let a = dir.file("a.csv");
    let b = dir.file("b.csv");
    let args = |out: &str, threads: &str| {
        ok(&["run", "--precision", "0.01", "--quiet", "--seed", "4", "--threads", threads, "--out", out])
    };
    let pa = args(&a, "1");
    let pb = args(&b, "2");
    assert_eq!(pa, pb, "the same seed stops at the same game on any thread count");
    let rows = csv_rows(std::path::Path::new(&a));
    let games: u64 = col(&rows[0], "games").parse().unwrap();
    assert!(games < 1_000_000, "stopped early: {games}");
    for camp in ["town", "mafia"] {
        let (lo, hi): (f64, f64) = (
            col(&rows[0], &format!("{camp}_lo")).parse().unwrap(),
            col(&rows[0], &format!("{camp}_hi")).parse().unwrap(),
        );
        assert!((hi - lo) / 2.0 <= 0.01, "{camp}: [{lo}, {hi}]");
    }
    // One checkpoint earlier the interval was still too wide (it stopped at the first that met it).
    let schedule = mafia_sim::Schedule { max: 1_000_000 };
    let points: Vec<u64> = schedule.points().collect();
    let at = points.iter().position(|&p| p == games).expect("stopped at a checkpoint");
    assert!(at > 0);
    let before =
        ok(&["run", "--games", &points[at - 1].to_string(), "--quiet", "--seed", "4", "--out", &dir.file("c.csv")]);
    assert!(!before.is_empty());
    let prev = csv_rows(&dir.path("c.csv"));
    let half = |c: &str| {
        let (lo, hi): (f64, f64) =
            (col(&prev[0], &format!("{c}_lo")).parse().unwrap(), col(&prev[0], &format!("{c}_hi")).parse().unwrap());
        (hi - lo) / 2.0
    };
    assert!(half("town").max(half("mafia")) > 0.01);
    assert!(pa.contains(&format!("played {games} games per variant: every interval within ±0.01")), "{pa}");
}

#[test]
fn experiment_precision_covers_rates_and_differences() {
    let dir = TempDir::new("exp-prec");
    let file = dir.write(
        "x.toml",
        "seed = 2\nprecision = 0.01\n[grid]\n\"rules.no_kill_limit\" = [\"off\", 2]\n\"rules.absence\" = [0.2]\n[reference]\n\"rules.no_kill_limit\" = \"off\"\n",
    );
    let out = dir.file("x.csv");
    ok(&["experiment", &file, "--quiet", "--out", &out]);
    for r in csv_rows(std::path::Path::new(&out)) {
        for c in ["town", "mafia"] {
            let hw = |a: &str, b: &str| -> f64 {
                let (lo, hi): (f64, f64) = (col(&r, a).parse().unwrap_or(0.0), col(&r, b).parse().unwrap_or(0.0));
                (hi - lo) / 2.0
            };
            assert!(hw(&format!("{c}_lo"), &format!("{c}_hi")) <= 0.01);
            assert!(hw(&format!("{c}_diff_lo"), &format!("{c}_diff_hi")) <= 0.01);
        }
    }
}

// ---------------------------------------------------------------------------
// mafia compare

#[test]
fn the_paired_interval_is_narrower_than_the_independent_one_on_a_rule_change() {
    let dir = TempDir::new("compare");
    let out = dir.file("c.csv");
    let printed = ok(&[
        "compare",
        "--rule",
        "absence=0.15",
        "--a",
        "no_kill_limit=3",
        "--b",
        "no_kill_limit=off",
        "--games",
        "20000",
        "--quiet",
        "--out",
        &out,
    ]);
    assert!(printed.contains("variance reduction by pairing"), "{printed}");
    let rows = csv_rows(std::path::Path::new(&out));
    assert_eq!(rows.len(), 2);
    for r in &rows {
        let paired: f64 = col(r, "paired_half").parse().unwrap();
        let independent: f64 = col(r, "independent_half").parse().unwrap();
        assert!(paired < independent / 2.0, "paired ±{paired} vs independent ±{independent}");
        let diff: f64 = col(r, "diff").parse().unwrap();
        let (a, b): (f64, f64) = (col(r, "a_rate").parse().unwrap(), col(r, "b_rate").parse().unwrap());
        assert!((diff - (a - b)).abs() < 1e-9);
    }
}

#[test]
fn compare_refuses_bad_variants() {
    fails(&["compare"], &["--a KEY=VALUE"]);
    fails(&["compare", "--a", "speed=3"], &["--a speed=3", "unknown rule"]);
    fails(&["compare", "--a", "mafia=9"], &["--a", "mafia=9"]);
    fails(&["compare", "--a", "x"], &["expected KEY=VALUE"]);
    fails(&["compare", "--a", "absence=0.1", "--sprt", "0.05", "--alpha", "0.7"], &["--alpha"]);
    fails(&["compare", "--a", "absence=0.1", "--precision", "0"], &["--precision"]);
}

/// The SPRT on the uniform model, whose exact win rates are known: with
/// H1 at the true difference it should accept H1 (error rate β), with H0 at
/// the true difference it should accept H0 (error rate α).
#[test]
fn sprt_error_rates_hold_on_the_uniform_model() {
    let dir = TempDir::new("sprt");
    let setup = dir.write("u.toml", UNIFORM);
    let base = uniform_args(&setup);
    // A: 3 mafia and 7 town; B: 3 mafia and 6 town.
    let points = compare_points(&base, &[], &["players=9".into()]).unwrap();
    let truth = town_wins(3, 7) - town_wins(3, 6);
    let delta = 0.03;
    let (alpha, beta) = (0.1, 0.1);
    let runs = 30;
    let mut wrong_h1 = 0;
    let mut wrong_h0 = 0;
    for seed in 0..runs {
        let b = Budget { games: 2_000_000, first: 0, seed, threads: 2, precision: None, progress: false };
        // H1 true: H0 says truth − δ, H1 says the truth.
        let t = Sprt::new(truth - delta, truth, alpha, beta).unwrap();
        let (_, _, v) = play_compare(&points, &b, Some(t), Camp::Town).unwrap();
        assert_ne!(v, Verdict::Open, "seed {seed}: undecided");
        wrong_h0 += (v == Verdict::H0) as u32;
        // H0 true: H0 says the truth, H1 says truth + δ.
        let t = Sprt::new(truth, truth + delta, alpha, beta).unwrap();
        let (_, _, v) = play_compare(&points, &b, Some(t), Camp::Town).unwrap();
        wrong_h1 += (v == Verdict::H1) as u32;
    }
    // Expected at most 10% (3 of 30) each; 9 would be a 1-in-1000 event.
    assert!(wrong_h0 <= 8, "accepted H0 when H1 held in {wrong_h0} of {runs}");
    assert!(wrong_h1 <= 8, "accepted H1 when H0 held in {wrong_h1} of {runs}");
}

/// Issue 35: under the precision rule a point and its reference stop at
/// different game counts; the difference is paired over the games both
/// played, so it is not the difference of the printed rates. The output
/// says so, in the console and in a study's report.
#[test]
fn a_difference_over_fewer_games_than_its_rates_says_so() {
    let dir = TempDir::new("shared");
    let file = dir.write(
        "x.toml",
        "seed = 2\nprecision = 0.01\n[grid]\n\"rules.no_kill_limit\" = [\"off\", 2]\n\"rules.absence\" = [0.2]\n[reference]\n\"rules.no_kill_limit\" = \"off\"\n",
    );
    let out = dir.file("x.csv");
    let printed = ok(&["experiment", &file, "--quiet", "--out", &out]);
    let rows = csv_rows(std::path::Path::new(&out));
    let reference_games = col(&rows[0], "games");
    let r = &rows[1];
    // The situation of the issue: the point stopped before its reference.
    assert_eq!(col(r, "paired_games"), col(r, "games"));
    assert_ne!(col(r, "games"), reference_games);
    assert!(
        printed.contains("note: 1 difference is paired over fewer games than its rates")
            && printed.contains("not the difference of the printed rates"),
        "{printed}"
    );
    // Without a precision rule every point plays every game: no note.
    let file = dir.write("y.toml", "seed = 2\ngames = 3000\n[grid]\n\"rules.no_kill_limit\" = [\"off\", 2]\n[reference]\n\"rules.no_kill_limit\" = \"off\"\n");
    assert!(!ok(&["experiment", &file, "--quiet"]).contains("note:"));
}

/// Issue 35: with no or few differing games the variance ratio was printed
/// as "infx" or "2990.5x fewer games". It is shown only from 100
/// discordant games on; below that the line says why and the column is empty.
#[test]
fn the_variance_ratio_needs_enough_differing_games() {
    let dir = TempDir::new("ratio");
    let out = dir.file("r.csv");
    let printed = ok(&[
        "compare",
        "--rule",
        "absence=0.15",
        "--a",
        "absence=0.15",
        "--b",
        "absence=0.15",
        "--games",
        "3000",
        "--quiet",
        "--out",
        &out,
    ]);
    assert!(!printed.contains("inf") && !printed.contains("fewer games"), "{printed}");
    assert!(printed.contains("no ratio: 0 games differed, fewer than 100"), "{printed}");
    for r in csv_rows(std::path::Path::new(&out)) {
        assert_eq!(col(&r, "variance_ratio"), "", "{r:?}");
    }
}

/// Issue 35: two identical variants never differ, so the LLR stayed 0 and
/// the test ran to the cap. Now it stops at the first checkpoint (2,048
/// games) with H0 (no difference) against H1 = 0.02, and with "neither"
/// when H0 and H1 are as far from 0, and the output says no game differed.
#[test]
fn sprt_stops_at_once_when_the_arms_play_identical_games() {
    let dir = TempDir::new("sprt-same");
    let setup = dir.write("u.toml", UNIFORM);
    let base = uniform_args(&setup);
    let points = compare_points(&base, &[], &[]).unwrap();
    let b = Budget { games: 100_000_000, first: 0, seed: 3, threads: 2, precision: None, progress: false };
    let t = Sprt::new(0.0, 0.02, 0.05, 0.05).unwrap();
    let (c, _, v) = play_compare(&points, &b, Some(t), Camp::Town).unwrap();
    assert_eq!((v, c.pair_games[0]), (Verdict::H0, 2048));
    let t = Sprt::new(-0.02, 0.02, 0.05, 0.05).unwrap();
    let (c, _, v) = play_compare(&points, &b, Some(t), Camp::Town).unwrap();
    assert_eq!((v, c.pair_games[0]), (Verdict::Identical, 2048));
    let out = ok(&[
        "compare",
        "--setup",
        &setup,
        "--agents",
        "random",
        "--a",
        "absence=0",
        "--b",
        "absence=0",
        "--sprt",
        "0.02",
        "--games",
        "100000000",
        "--seed",
        "3",
    ]);
    assert!(out.contains("H0 accepted") && out.contains("after 2048 paired games"), "{out}");
    assert!(out.contains("the arms played identical games"), "{out}");
}

// ---------------------------------------------------------------------------
// mafia balance

#[test]
fn balance_finds_the_fair_point_of_the_uniform_model() {
    let dir = TempDir::new("balance");
    let setup = dir.write("u.toml", UNIFORM);
    // 12 players, 1 to 5 mafia: the exact town win rates.
    let exact: Vec<(u32, f64)> = (1..=5).map(|m| (m, town_wins(m, 12 - m))).collect();
    let mut by_distance = exact.clone();
    by_distance.sort_by(|a, b| (a.1 - 0.5).abs().total_cmp(&(b.1 - 0.5).abs()));
    let fair = by_distance[0].0;
    assert!((by_distance[1].1 - 0.5).abs() - (by_distance[0].1 - 0.5).abs() > 0.03, "a clear answer: {exact:?}");
    let out = dir.file("b.csv");
    let printed = ok(&[
        "balance",
        "--setup",
        &setup,
        "--agents",
        "random",
        "--grid",
        "players=12",
        "--grid",
        "mafia=1..5",
        "--precision",
        "0.01",
        "--quiet",
        "--out",
        &out,
    ]);
    let rows = csv_rows(std::path::Path::new(&out));
    assert_eq!(col(&rows[0], "mafia"), fair.to_string(), "{printed}");
    assert_eq!(col(&rows[0], "status"), "nearest");
    let rate: f64 = col(&rows[0], "town_rate").parse().unwrap();
    assert!((rate - by_distance[0].1).abs() < 0.03, "{rate} vs exact {}", by_distance[0].1);
    // The clear losers were dropped after fewer games than the winner played.
    let games = |r: &[(String, String)]| col(r, "games").parse::<u64>().unwrap();
    let last = rows.last().unwrap();
    assert_eq!(col(last, "status"), "dropped");
    assert!(games(last) < games(&rows[0]));
    assert!(printed.contains("played"), "{printed}");
}

#[test]
fn balance_refuses_bad_input() {
    fails(&["balance", "--grid", "mafia=1..3", "--target", "2"], &["--target 2"]);
    fails(&["balance", "--grid", "mafia"], &["--grid mafia", "KEY=V1"]);
    fails(&["balance", "--grid", "mafia=3..1"], &["3..1"]);
    fails(&["balance", "--grid", "mafia=1", "--camp", "pirates"], &["--camp pirates"]);
}

// ---------------------------------------------------------------------------
// mafia report

const STUDY: &str = r#"
title = "A small study"
conclusion = "The town wins less with more mafia."
seed = 3
precision = 0.03

[[experiment]]
name = "small"
setup = "classic"
agents = "random"
grid = { players = ["9", "10"], "rules.no_kill_limit" = ["off", 3] }
reference = { "rules.no_kill_limit" = "off" }

[[plot]]
kind = "line"
x = "players"
series = "rules.no_kill_limit"
y = "town_rate"
title = "Town win rate"
file = "rate.svg"

[[plot]]
kind = "heatmap"
x = "players"
y = "rules.no_kill_limit"
value = "town_rate"
title = "Heat"

[[plot]]
kind = "bars"
label = "players"
y = "town_diff"
where = { "rules.no_kill_limit" = "3" }
title = "Diff"
"#;

#[test]
fn a_report_regenerates_byte_identically() {
    let dir = TempDir::new("report");
    std::fs::create_dir_all(dir.path("s")).unwrap();
    let study = dir.write("s/study.toml", STUDY);
    ok(&["report", &study, "--quiet", "--threads", "1"]);
    let files = ["README.md", "rate.svg", "plot-2.svg", "plot-3.svg", "small.csv"];
    let first: Vec<Vec<u8>> = files.iter().map(|f| read(&dir.path(&format!("s/{f}")))).collect();
    ok(&["report", &study, "--quiet", "--threads", "2"]);
    for (f, a) in files.iter().zip(&first) {
        assert_eq!(&read(&dir.path(&format!("s/{f}"))), a, "{f} changed");
    }
    let md = text(&first[0]);
    assert!(md.starts_with("# A small study\n\n**Conclusion.** The town wins less"), "{md}");
    assert!(md.contains("![Town win rate](rate.svg)"));
    assert!(md.contains("town_rate [95%]"));
    let svg = text(&first[1]);
    assert!(svg.starts_with("<svg") && svg.contains("Town win rate"));
}

/// Issue 37: the conclusion's figures are written from the table the
/// report plays, so they match its CSV; a number typed in the conclusion is
/// refused (exit 2, naming it, at its line and column) before any game.
#[test]
fn a_conclusion_is_filled_from_the_data_and_a_typed_number_refused() {
    let dir = TempDir::new("report-figures");
    std::fs::create_dir_all(dir.path("s")).unwrap();
    let study = STUDY.replace(
        "conclusion = \"The town wins less with more mafia.\"",
        "conclusion = \"With 9 players the town wins {town_rate@players=9,rules.no_kill_limit=off|ci} of \
         {games@players=9,rules.no_kill_limit=off} games; the rule gives it {town_diff@players=9,rules.no_kill_limit=3|+} points.\"",
    );
    let f = dir.write("s/study.toml", &study);
    ok(&["report", &f, "--quiet", "--threads", "2"]);
    let md = text(&read(&dir.path("s/README.md")));
    let csv = text(&read(&dir.path("s/small.csv")));
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = csv.lines().find(|l| l.starts_with("9,off,")).unwrap().split(',').collect();
    let col = |name: &str| row[head.iter().position(|h| *h == name).unwrap()].parse::<f64>().unwrap();
    let want = format!(
        "With 9 players the town wins {:.1}% [{:.1}%, {:.1}%] of {} games",
        100.0 * col("town_rate"),
        100.0 * col("town_lo"),
        100.0 * col("town_hi"),
        // Thousands separated, as the report writes counts.
        match col("games") as u64 {
            g if g >= 1000 => format!("{},{:03}", g / 1000, g % 1000),
            g => g.to_string(),
        }
    );
    assert!(md.contains(&want), "{want}\n{md}");
    assert!(!md.contains('{'), "every figure filled: {md}");
    // The plots read in words, with a subtitle.
    let svg = text(&read(&dir.path("s/rate.svg")));
    for s in ["Town win rate (%)", "Players at the table (players)", "Setup classic", "games per point"] {
        assert!(svg.contains(s), "rate.svg lacks {s}");
    }
    // A stale number: refused, named, nothing played.
    let f = dir.write(
        "stale.toml",
        &STUDY.replace("The town wins less with more mafia.", "The town wins 46.5% with 9 players."),
    );
    let err = fails(&["report", &f], &["stale.toml:3:29", "number 46.5% is typed"]);
    assert!(!err.contains("wrote"), "{err}");
    // A figure of a column the table does not have: refused before the games.
    let f = dir.write(
        "nocol.toml",
        &STUDY.replace("The town wins less with more mafia.", "{twon_rate@players=9,rules.no_kill_limit=3}"),
    );
    fails(&["report", &f], &["conclusion", "has no column `twon_rate`"]);
}

#[test]
fn bad_study_files_name_the_problem() {
    let dir = TempDir::new("report-bad");
    let f = dir.write("a.toml", "title = \"x\"\n");
    fails(&["report", &f], &["at least one [[experiment]]"]);
    let f = dir.write(
        "b.toml",
        "title = \"x\"\n[[experiment]]\nname = \"e\"\n[[plot]]\nexperiment = \"nope\"\nkind = \"line\"\n",
    );
    fails(&["report", &f], &["b.toml:4", "no experiment named `nope`"]);
    let f = dir.write("c.toml", "title = \"x\"\n[[experiment]]\n[[plot]]\nkind = \"pie\"\n");
    fails(&["report", &f], &["kind `pie`"]);
    let f = dir.write(
        "d.toml",
        "title = \"x\"\n[[experiment]]\ngames = 10\ngrid = { mafia = [2, 3] }\n[[plot]]\nkind = \"line\"\nx = \"players\"\ny = \"town_rate\"\n",
    );
    fails(&["report", &f], &["plot 1", "`players` is not an axis"]);
    // Issue 35: the whole file is checked before any game, every problem
    // with its line and column (one bad field does not hide the next), and
    // no report folder is made.
    let f = dir.write(
        "e.toml",
        "title = \"x\"\n[[experiment]]\ngames = 100000000\ngrid = { mafia = [2, 3], replace = [\"none\", \"don\"] }\n         [[plot]]\nkind = \"line\"\nx = \"players\"\ny = \"town_rate\"\nseries = \"doctor\"\n         [[plot]]\nkind = \"line\"\nx = \"replace\"\ny = \"town_rate\"\nwhere = { mafia = 4 }\n",
    );
    let out = fails(
        &["report", &f],
        &[
            "e.toml:7:5: plot 1 x: `players` is not an axis of experiment",
            "e.toml:9:10: plot 1 series: `doctor` is not an axis",
            "e.toml:12:5: plot 2 x: `replace` has values that are not numbers",
            "e.toml:14:11: plot 2 where: mafia = 4 is not a value of the axis (2, 3)",
        ],
    );
    assert!(!out.contains("Experiment"), "nothing was played: {out}");
}

// ---------------------------------------------------------------------------
// Interruption

#[cfg(unix)]
#[test]
fn ctrl_c_prints_the_points_finished_so_far() {
    use std::process::{Command, Stdio};
    let dir = TempDir::new("interrupt");
    let file = dir.write("x.toml", "games = 1000000000\n[grid]\n\"rules.absence\" = [0, 0.1]\n");
    let child = Command::new(env!("CARGO_BIN_EXE_mafia"))
        .args(["experiment", &file, "--quiet", "--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: kill(2) on the child's pid, which has not been waited for.
    let r = unsafe { libc_kill(child.id() as i32, 2) };
    assert_eq!(r, 0);
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("interrupted"), "{stdout}");
    assert!(stdout.contains("finished"), "the table says which points finished: {stdout}");
    assert!(text(&out.stderr).contains("interrupted"));
}

#[cfg(unix)]
unsafe extern "C" {
    #[link_name = "kill"]
    fn libc_kill(pid: i32, sig: i32) -> i32;
}

#[test]
fn odds_with_a_precision_stop_at_a_checkpoint_within_it() {
    let state = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/odds/classic-day-3.toml");
    let a = ok(&["odds", state, "--precision", "0.02", "--quiet", "--threads", "1"]);
    let b = ok(&["odds", state, "--precision", "0.02", "--quiet", "--threads", "2"]);
    assert_eq!(a, b, "the same seed stops at the same game");
    let title = a.lines().find(|l| l.starts_with("Win odds from")).expect("a title line");
    let games: u64 =
        title.split("): ").nth(1).and_then(|s| s.split(' ').next()).and_then(|g| g.parse().ok()).expect(title);
    assert!(games < 100_000, "{a}");
    assert!(mafia_sim::Schedule { max: 100_000 }.points().any(|p| p == games), "{games} is a checkpoint");
}

#[test]
fn balance_under_best_response_gives_each_camp_its_race_winner() {
    let dir = TempDir::new("balance-br");
    let out = dir.file("b.csv");
    ok(&[
        "balance",
        "--grid",
        "players=9,10",
        "--grid",
        "mafia=3",
        "--best-response",
        "--br-games",
        "12000",
        "--precision",
        "0.03",
        "--quiet",
        "--out",
        &out,
    ]);
    let rows = csv_rows(std::path::Path::new(&out));
    assert_eq!(rows.len(), 2);
    for r in &rows {
        let br = col(r, "best_response");
        assert!(br.starts_with("town: ") && br.contains("; mafia: "), "{br}");
        // The lineup played is the race winners': a changed setting shows in it.
        let mafia_setting = br.split("; mafia: ").nth(1).unwrap();
        if mafia_setting != "(default)" {
            let first = mafia_setting.split(' ').next().unwrap();
            assert!(col(r, "lineup").contains(first), "{} lacks {first}", col(r, "lineup"));
        }
    }
    // Only the forum strategies have parameters to search.
    fails(&["balance", "--grid", "mafia=2,3", "--agents", "random", "--best-response"], &["--best-response", "forum"]);
}
