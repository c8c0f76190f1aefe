//! Integration tests of choosing strategies and comparing them: `[agents]`
//! in setup files and `--agents` (every problem a message with its line or
//! flag, exit code 2), `mafia strategies`, the behaviour columns of `run`,
//! `mafia duel`, `mafia league` and `mafia best-response` on small runs.

use mafia_agents::{PRESET_LINEUPS, STRATEGIES};
use std::path::Path;

mod common;
use common::*;

/// A CSV file (no quoted commas in these tables' values but the lineups,
/// which are quoted) as rows of `column -> value`.
fn csv_rows(p: &str) -> Vec<Vec<(String, String)>> {
    let body = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("read {p}: {e}"));
    let fields = |line: &str| -> Vec<String> {
        let mut out = vec![String::new()];
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => out.push(String::new()),
                c => out.last_mut().unwrap().push(c),
            }
        }
        out
    };
    let mut lines = body.lines();
    let header = fields(lines.next().expect("a header"));
    lines.map(|l| header.iter().cloned().zip(fields(l)).collect()).collect()
}

/// The words of a command line.
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

fn col<'a>(row: &'a [(String, String)], name: &str) -> &'a str {
    &row.iter().find(|(k, _)| k == name).unwrap_or_else(|| panic!("no column {name} in {row:?}")).1
}

fn num(row: &[(String, String)], name: &str) -> f64 {
    col(row, name).parse().unwrap_or_else(|e| panic!("{name} = {:?}: {e}", col(row, name)))
}

fn row_for<'a>(rows: &'a [Vec<(String, String)>], key: &str, value: &str) -> &'a [(String, String)] {
    rows.iter().find(|r| col(r, key) == value).unwrap_or_else(|| panic!("no row with {key} = {value}: {rows:?}"))
}

const CLASSIC: &str = "[roles]\ndon = 1\nmafioso = 2\ncommissar = 1\ncitizen = 6\n";

// ---------------------------------------------------------------------------
// Choosing strategies

#[test]
fn setup_file_agents_take_specs_and_tables() {
    let dir = TempDir::new("agents-good");
    let f = dir.write(
        "chosen.toml",
        &format!(
            "{CLASSIC}\n[agents]\ndefault = \"forum\"\nmafia = \"mafia:bus=0.25\"\n\
             commissar = {{ strategy = \"reveal\", on = \"first-mafia\", by_day = 3 }}\n\
             town = {{ strategy = \"town\", trust = 0.5, day1_pass = false }}\n"
        ),
    );
    let s = dir.file("s.csv");
    ok(&["run", "--games", "500", "--quiet", "--setup", &f, "--out", &s]);
    let rows = csv_rows(&s);
    assert_eq!(
        col(&rows[0], "agents"),
        "forum,town=town:trust=0.5:day1_pass=false,mafia=mafia:bus=0.25,commissar=reveal:on=first-mafia:by_day=3"
    );
    // The same lineup on the command line gives the same games.
    let s2 = dir.file("s2.csv");
    ok(&[
        "run",
        "--games",
        "500",
        "--quiet",
        "--out",
        &s2,
        "--agents",
        "forum,town=town:trust=0.5:day1_pass=false,mafia=mafia:bus=0.25,commissar=reveal:on=first-mafia:by_day=3",
    ]);
    let (a, b) = (&csv_rows(&s)[0], &csv_rows(&s2)[0]);
    assert_eq!(col(a, "town_wins"), col(b, "town_wins"));
}

#[test]
fn every_agents_problem_in_a_setup_file_has_its_line() {
    let dir = TempDir::new("agents-bad");
    let f = dir.write(
        "bad.toml",
        &format!(
            "{CLASSIC}\n[agents]\n\
             default = \"clever\"\n\
             mafia = \"mafia:when=never\"\n\
             commissar = {{ strategy = \"reveal\", on = \"never\" }}\n\
             citizen = \"protect\"\n\
             doctor = \"forum\"\n\
             town = {{ strategy = \"town\", trust = [1] }}\n"
        ),
    );
    let err = fails(
        &["run", "--games", "10", "--quiet", "--setup", &f],
        &[
            &format!("{f}:8:11: unknown strategy `clever`"),
            &format!("{f}:9:9: strategy `mafia` has no parameter `when`"),
            "`reveal:on=never`: `on` takes at-once|first-mafia",
            &format!("{f}:11:11: strategy `protect` plays doctor, not `citizen`"),
            &format!("{f}:12:1: agents are set for `doctor`, but the setup deals no doctor"),
            &format!("{f}:13:"),
            "parameter `trust` of `town` must be a string, a number or a boolean",
        ],
    );
    // The bad value is located at the value itself.
    assert!(err.contains(&format!("{f}:10:")), "{err}");
    assert_eq!(err.matches(&f).count(), 6, "one line per problem: {err}");
    // Every command that reads setups says the same.
    for cmd in [&["replay"][..], &["duel", "--for", "mafia", "--a", "forum", "--b", "random"]] {
        let mut args = cmd.to_vec();
        args.extend(["--setup", &f]);
        fails(&args, &["unknown strategy `clever`"]);
    }
}

/// The agents a replay's first line names.
fn replay_agents(args: &[&str]) -> String {
    let mut all = vec!["replay", "--seed", "1", "--game", "0"];
    all.extend(args);
    let out = ok(&all);
    let head = out.lines().next().unwrap_or_default();
    head.split(", agents ").nth(1).and_then(|t| t.split(", ").next()).unwrap_or_default().to_string()
}

#[test]
fn a_preset_plays_its_own_default_lineup_and_a_file_with_base_inherits_it() {
    let (_, spec) = PRESET_LINEUPS.iter().find(|(p, _)| *p == "classic").unwrap();
    let classic = "preset:classic";
    assert_eq!(replay_agents(&[]), classic, "`classic` is the default setup");
    assert_eq!(replay_agents(&["--setup", "classic"]), classic);
    assert_eq!(
        replay_agents(&["--setup", "classic", "--agents", spec]),
        classic,
        "the label names the preset's lineup"
    );
    for preset in ["classic-13", "extended", "forum-16"] {
        assert_eq!(replay_agents(&["--setup", preset]), format!("preset:{preset}"), "every preset has its mix");
    }
    // `--agents` replaces the default key and keeps the rest.
    assert_eq!(replay_agents(&["--setup", "classic", "--agents", "forum"]), "forum");
    // A camp layer lies over the preset's mix.
    assert_eq!(replay_agents(&["--setup", "classic", "--agents", "mafia=random"]), format!("{classic},mafia=random"));
    assert_eq!(
        replay_agents(&["--setup", "classic", "--agents", "commissar=reveal"]),
        format!("{classic},commissar=reveal")
    );
    let dir = TempDir::new("preset-lineup");
    let based = dir.write("based.toml", "base = \"classic\"\n[rules]\nabsence = 0.1\n");
    assert_eq!(replay_agents(&["--setup", &based]), classic);
    let own = dir.write("own.toml", "base = \"classic\"\n[agents]\ndefault = \"random\"\n");
    assert_eq!(replay_agents(&["--setup", &own]), "random");
    let plain = dir.write("plain.toml", "[roles]\nmafioso = 3\ncitizen = 7\n");
    assert_eq!(replay_agents(&["--setup", &plain]), "forum", "a file without `base` plays `forum`");
}

#[test]
fn agents_on_the_command_line_are_checked_the_same_way() {
    let run = |agents: &str, needles: &[&str]| {
        fails(&["run", "--games", "10", "--quiet", "--agents", agents], needles);
    };
    run("clever", &["--agents clever", "unknown strategy `clever`"]);
    let reveal = STRATEGIES.iter().find(|s| s.name == "reveal").unwrap();
    let known = reveal.params.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
    run("commissar=reveal:when=1", &["--agents commissar=reveal:when=1", "no parameter `when`", &known]);
    run("commissar=reveal:on=never", &["`on` takes at-once|first-mafia"]);
    run("mafia=mafia:bus=2", &["`bus` takes 0..1"]);
    run("doctor=reveal", &["plays commissar, detective, deputy, not `doctor`"]);
    run("town=mafia", &["strategy `mafia` plays the mafia camp, not `town`"]);
    // A role the setup does not deal (the preset is classic).
    run("doctor=protect", &["--agents doctor=protect", "the setup deals no doctor", "classic"]);
    fails(
        &["run", "--games", "10", "--quiet", "--setup", "extended", "--agents", "forum,don=forum"],
        &["--agents forum,don=forum", "deals no don", "extended"],
    );
    // Two setups: the one without the role is named.
    fails(
        &["run", "--games", "10", "--quiet", "--setup", "extended", "--setup", "classic", "--agents", "doctor=protect"],
        &["deals no doctor", "(setup classic)"],
    );
}

#[test]
fn strategies_lists_every_strategy_and_parameter() {
    let out = ok(&["strategies"]);
    assert!(out.contains("--agents forum,mafia=mafia:bus=0.25"), "{out}");
    assert!(out.contains("commissar = { strategy = \"reveal\""), "{out}");
    for s in STRATEGIES {
        let head = out.lines().find(|l| l.starts_with(&format!("{} — plays ", s.name)));
        let head = head.unwrap_or_else(|| panic!("no entry for {}: {out}", s.name));
        assert!(head.ends_with(&s.plays.to_string()), "{head}");
        for p in s.params {
            let line = out.lines().find(|l| l.trim_start().starts_with(&format!("{}  ", p.name)));
            let line = line.unwrap_or_else(|| panic!("no line for {}.{}: {out}", s.name, p.name));
            assert!(line.contains(&p.values.to_string()), "{line}");
            assert!(line.trim_end().ends_with(&format!("default {}", p.default)), "{line}");
        }
    }
    assert!(out.lines().all(|l| l.chars().count() <= 100 || !l.trim().contains(' ')), "{out}");
}

// ---------------------------------------------------------------------------
// Behaviour columns

#[test]
fn run_tables_have_behaviour_columns() {
    let dir = TempDir::new("play");
    let s = dir.file("s.csv");
    let out = ok(&["run", "--games", "3000", "--quiet", "--out", &s, "--agents", "forum"]);
    assert!(out.contains("How the games were played"), "{out}");
    assert!(!out.contains("lynch_hit_bandits"), "no bandits dealt: {out}");
    let r = &csv_rows(&s)[0];
    let hit = num(r, "lynch_hit_mafia");
    assert!((0.0..=1.0).contains(&hit), "{hit}");
    assert!(num(r, "lynches") > 0.5, "classic games lynch someone");
    assert!(num(r, "night_kills") > 0.5);
    for c in ["saves", "reveals", "false_claims", "info_nights"] {
        assert!(num(r, c) >= 0.0, "{c}");
    }
    // With bandits the share of bandits lynched shows too.
    let out = ok(&["run", "--games", "300", "--quiet", "--setup", "extended", "--agents", "random"]);
    assert!(out.contains("lynch_hit_bandits"), "{out}");
}

// ---------------------------------------------------------------------------
// Duels

#[test]
fn a_duel_of_a_strategy_against_itself_differs_by_exactly_zero() {
    let dir = TempDir::new("duel-self");
    let out = dir.file("d.csv");
    let mut args = words("duel --for commissar --a reveal:on=at-once --b reveal:on=at-once --games 2000 --quiet");
    args.extend(["--out", &out]);
    let stdout = ok(&args);
    assert!(stdout.contains("Duel on `commissar`"), "{stdout}");
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 2, "one row per camp of classic: {rows:?}");
    for r in &rows {
        assert_eq!(num(r, "diff"), 0.0);
        assert!(num(r, "diff_lo") <= 0.0 && num(r, "diff_hi") >= 0.0);
        assert_eq!((col(r, "a_only"), col(r, "b_only")), ("0", "0"));
        assert_eq!(col(r, "a_rate"), col(r, "b_rate"));
        assert_eq!(col(r, "games"), "2000");
    }
    // The behaviour table goes beside it.
    let play = csv_rows(&dir.file("d.play.csv"));
    assert_eq!(play.len(), 2);
    assert_eq!(col(&play[0], "lineup"), "preset:classic,commissar=reveal:on=at-once");
}

#[test]
fn random_mafia_clearly_lose_to_the_default() {
    let dir = TempDir::new("duel-random");
    let out = dir.file("d.csv");
    let mut args = words("duel --setup classic --for mafia --a random --b forum --games 3000 -q");
    args.extend(["--out", &out]);
    ok(&args);
    let rows = csv_rows(&out);
    let m = row_for(&rows, "camp", "mafia");
    assert!(num(m, "diff_hi") < 0.0, "random is clearly worse for the mafia: {m:?}");
    assert!(num(m, "a_rate") < num(m, "b_rate"));
    // The town gains what the mafia lose (no draws in classic).
    let t = row_for(&rows, "camp", "town");
    assert!(num(t, "diff_lo") > 0.0, "{t:?}");
    // The paired interval is narrower than the two Wilson intervals side by side.
    let paired = num(m, "diff_hi") - num(m, "diff_lo");
    let unpaired = (num(m, "a_hi") - num(m, "a_lo")) + (num(m, "b_hi") - num(m, "b_lo"));
    assert!(paired < unpaired, "{paired} vs {unpaired}");
}

#[test]
fn a_duel_does_not_depend_on_threads() {
    let dir = TempDir::new("duel-threads");
    let mut first: Option<(String, Vec<u8>)> = None;
    for t in ["1", "2", "3"] {
        let out = dir.file(&format!("d{t}.parquet"));
        let mut args = words("duel --for town --a town:trust=0.25 --b forum --games 3000 --seed 9 -q");
        args.extend(["--threads", t, "--out", &out]);
        let stdout = ok(&args);
        let bytes = std::fs::read(&out).unwrap();
        match &first {
            None => first = Some((stdout, bytes)),
            Some((s, b)) => {
                assert_eq!(&stdout, s, "stdout with --threads {t}");
                assert!(&bytes == b, "the file with --threads {t}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Leagues

#[test]
fn a_league_has_a_row_per_pair_and_standings() {
    let dir = TempDir::new("league");
    let out = dir.file("l.csv");
    let mut args = words("league --for mafia --strategies forum,classic,random --games 2000 -q");
    args.extend(["--out", &out]);
    let stdout = ok(&args);
    assert!(stdout.contains("League on `mafia`") && stdout.contains("Standings"), "{stdout}");
    let rows = csv_rows(&out);
    let pairs: Vec<(&str, &str, &str)> = rows.iter().map(|r| (col(r, "a"), col(r, "b"), col(r, "camp"))).collect();
    assert_eq!(
        pairs,
        [("forum", "classic", "mafia"), ("forum", "random", "mafia"), ("classic", "random", "mafia")],
        "every unordered pair once, for the key's camp"
    );
    // Each strategy played the same games in every pair: its rate is the same in each.
    assert_eq!(col(&rows[0], "a_rate"), col(&rows[1], "a_rate"));
    assert_eq!(col(&rows[1], "b_rate"), col(&rows[2], "b_rate"));
    for r in &rows {
        let d = num(r, "diff");
        assert!((d - (num(r, "a_rate") - num(r, "b_rate"))).abs() < 1e-9, "{r:?}");
        assert!(num(r, "diff_lo") <= d && d <= num(r, "diff_hi"));
    }
    let standings = csv_rows(&dir.file("l.standings.csv"));
    assert_eq!(standings.len(), 3);
    assert_eq!(col(&standings[2], "strategy"), "random", "random is last for the mafia");
    assert_eq!(col(&standings[2], "loses_to"), "2");
    assert_eq!(csv_rows(&dir.file("l.play.csv")).len(), 3);
}

// ---------------------------------------------------------------------------
// Best response

#[test]
fn best_response_on_a_tiny_budget_reports_a_setting_and_its_gain() {
    let dir = TempDir::new("best");
    let out = dir.file("b.csv");
    let mut args = words(
        "best-response --camp mafia --block 500 --max-games 20000 --rounds 2 --seed 3 --confirm 2000 --signals none -q",
    );
    args.extend(["--out", &out]);
    let stdout = ok(&args);
    assert!(stdout.contains("Best response of the mafia camp"), "{stdout}");
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    let (gain, lo, hi) = (num(r, "gain"), num(r, "gain_lo"), num(r, "gain_hi"));
    assert!(lo <= gain && gain <= hi, "{r:?}");
    let total: u64 = col(r, "games_total").parse().unwrap();
    // The race's budget, plus the confirmation of a best that is not the default.
    let confirmed = col(r, "measured_on") == "confirmation";
    assert_eq!(confirmed, col(r, "setting") != "(default)", "{r:?}");
    assert!(total > 0 && total <= 20_000 + if confirmed { 4_000 } else { 0 }, "{r:?}");
    if confirmed {
        assert_eq!(col(r, "games"), "2000", "{r:?}");
    }
    assert!(num(r, "others_hi") < 1.0, "{r:?}");
    assert!((num(r, "best_rate") - num(r, "default_rate") - gain).abs() < 1e-9, "{r:?}");
    // The best setting is a lineup the command line accepts.
    let best = col(r, "best").to_string();
    ok(&["run", "--games", "10", "--quiet", "--agents", &best]);
    let cands = csv_rows(&dir.file("b.candidates.csv"));
    assert!(cands.len() > 3, "{cands:?}");
    assert!(cands.iter().any(|c| col(c, "setting").starts_with("bus=")), "the mafia's parameters are tried");
    // The mafia's own reading of the thread is searched too, the town's day play not.
    assert!(cands.iter().any(|c| col(c, "setting").starts_with("trust=")), "the mafia's reading is tried");
    assert!(!cands.iter().any(|c| col(c, "setting").starts_with("pass_first=")), "not the town's");
    assert_eq!(cands.iter().filter(|c| col(c, "status") == "best").count(), col(r, "rounds").parse::<usize>().unwrap());
}

#[test]
fn best_response_finds_a_planted_exploit() {
    // The default weakened in one parameter: the whole town takes no claim
    // for proof (`trust=0` over every setting of its mix), so the
    // Commissar's reveals move nothing; it costs the town about 12 points.
    // The town's search must find a trust back.
    let dir = TempDir::new("best-planted");
    let out = dir.file("b.csv");
    let mut args = words(
        "best-response --camp town --agents preset:classic,town=forum:trust=0 --max-games 200000 --seed 5 --confirm 20000 --signals none -q",
    );
    args.extend(["--out", &out]);
    ok(&args);
    let r = &csv_rows(&out)[0];
    assert!(col(r, "setting").contains("trust="), "the weakened parameter is changed: {r:?}");
    assert!(!col(r, "setting").contains("trust=0 "), "{r:?}");
    assert!(num(r, "gain_lo") > 0.03, "a large gain, measured on fresh games: {r:?}");
    assert_eq!(col(r, "measured_on"), "confirmation");
}

#[test]
fn best_response_finds_the_pass_tell_against_a_blending_mafia() {
    // The exploit a learned seat found (docs/src/research/play.md, "The
    // PASS tell"): a mafia that passes first while the town names marks
    // itself, and until `pass_tell` joined the catalogue no town setting
    // read it. The town's search over its parameters must find it now.
    let dir = TempDir::new("best-pass-tell");
    let out = dir.file("b.csv");
    let mut args = words(
        "best-response --camp town --agents forum,mafia=forum:blend=1 --max-games 200000 --seed 5 --confirm 20000 --signals none -q",
    );
    args.extend(["--out", &out]);
    ok(&args);
    let r = &csv_rows(&out)[0];
    assert!(col(r, "setting").contains("pass_tell=true"), "the tell is read: {r:?}");
    assert!(num(r, "gain_lo") > 0.1, "a large gain, measured on fresh games: {r:?}");
}

#[test]
fn best_response_finds_a_planted_adaptive_exploit() {
    // A default weakened by an adaptive reply of its own: from night 1, in
    // every game (`claims<255` always shows), the mafia skip their kill.
    // Every setting of the camp lies under that reply, so the fixed search
    // cannot undo it; a reply on another signal undoes it only in the games
    // that show that signal; a reply on the same signal undoes it all.
    let dir = TempDir::new("best-planted-adaptive");
    let out = dir.file("b.csv");
    let mut args = words(
        "best-response --camp mafia --agents preset:classic,mafia?claims<255=forum:skip=1 --max-games 100000 \
         --signals passes>0,claims<255 --adaptive-games 100000 --seed 5 --confirm 20000 -q",
    );
    args.extend(["--out", &out]);
    ok(&args);
    let replies = csv_rows(&dir.file("b.replies.csv"));
    let row = |reply: &str| replies.iter().find(|r| col(r, "reply") == reply).unwrap_or_else(|| panic!("{replies:?}"));
    let (fixed, planted, other) = (row("fixed"), row("adaptive (claims<255)"), row("adaptive (passes>0)"));
    assert!(col(planted, "setting").starts_with("if claims<255, from night 1: "), "{planted:?}");
    let gain = |r: &[(String, String)]| col(r, "gain").parse::<f64>().unwrap_or(0.0);
    assert!(num(planted, "gain_lo") > 0.3, "the planted weakness undone: {planted:?}");
    assert!(gain(planted) > gain(other) + 0.02 && gain(other) > gain(fixed) + 0.1, "{replies:?}");
    // The summary reports the largest gain, and which reply found it.
    let r = &csv_rows(&out)[0];
    assert_eq!(col(r, "reply"), "adaptive (claims<255)", "{r:?}");
    assert_eq!(col(r, "gain"), col(planted, "gain"));
    assert!(col(r, "best").contains("mafia?claims<255=forum:"), "{r:?}");
    // Every race's budget, and each reply and the default on the confirmation's games.
    let total: u64 = col(r, "games_total").parse().unwrap();
    assert!(total <= 100_000 + 2 * 100_000 + 4 * 20_000, "{r:?}");
    assert_eq!(col(r, "adaptive_races"), "2");
}

#[test]
fn best_response_adaptive_over_the_fixed_best_is_a_pure_strategy() {
    // `--adaptive-base best`: the adaptive race lies over the fixed search's
    // best (the mix dropped), so the reply is one way to play in every game
    // with its reply from night 1 — what a double oracle's oracle returns.
    let dir = TempDir::new("best-adaptive-base");
    let out = dir.file("b.csv");
    let mut args = words(
        "best-response --camp mafia --agents preset:classic,mafia?claims<255=forum:skip=1 --max-games 60000 \
         --signals claims<255 --adaptive-games 60000 --adaptive-base best --seed 5 --confirm 10000 -q",
    );
    args.extend(["--out", &out]);
    ok(&args);
    let r = &csv_rows(&out)[0];
    assert_eq!(col(r, "reply"), "adaptive (claims<255)", "{r:?}");
    assert_eq!(col(r, "signal"), "claims<255");
    let (base, then) = (col(r, "base_setting"), col(r, "then"));
    assert!(!then.is_empty(), "{r:?}");
    assert_eq!(col(r, "setting"), format!("{base}; if claims<255, from night 1: {then}"));
    let fixed = &csv_rows(&dir.file("b.replies.csv"))[0];
    if col(fixed, "gain").is_empty() {
        assert_eq!(base, "(usual layers)");
    } else {
        assert_eq!(base, col(fixed, "setting"));
    }
    // One way to play: no alternative of the mafia's mix is left.
    let best = col(r, "best");
    assert!(best.contains("mafia?claims<255=forum:") && !best.contains("mafia@"), "{best}");
    ok(&["run", "--games", "10", "--quiet", "--agents", best]);
}

#[test]
fn best_response_does_not_depend_on_threads() {
    let run = |t: &str| {
        let mut args = words("best-response --camp town --block 300 --max-games 15000 --confirm 3000 -q");
        args.extend(["--threads", t]);
        ok(&args)
    };
    assert_eq!(run("1"), run("2"));
}

// ---------------------------------------------------------------------------
// Bad flags

#[test]
fn bad_comparison_flags_are_refused() {
    let duel = |extra: &[&str], needles: &[&str]| {
        let mut args = vec!["duel", "--games", "10", "-q"];
        args.extend(extra);
        fails(&args, needles);
    };
    duel(&["--a", "forum", "--b", "random"], &["--for"]);
    duel(&["--for", "sheriff", "--a", "forum", "--b", "random"], &["--for sheriff", "`sheriff`"]);
    duel(&["--for", "doctor", "--a", "protect", "--b", "forum"], &["--for doctor", "deals no doctor"]);
    duel(&["--for", "bandits", "--a", "random", "--b", "forum"], &["--for bandits", "bandits camp"]);
    duel(&["--for", "mafia", "--a", "clever", "--b", "forum"], &["--a clever", "unknown strategy `clever`"]);
    duel(&["--for", "commissar", "--a", "reveal", "--b", "reveal:on=never"], &["--b reveal:on=never", "`on` takes"]);
    duel(&["--for", "commissar", "--a", "protect", "--b", "forum"], &["--a protect", "plays doctor"]);
    duel(&["--for", "mafia", "--a", "forum", "--b", "random", "--out", "x.json"], &["x.json", ".csv"]);
    duel(&["--for", "mafia", "--a", "forum", "--b", "random", "--agents", "doctor=protect"], &["--agents", "doctor"]);
    fails(&["duel", "--for", "mafia", "--a", "forum", "--b", "random", "--games", "0"], &["--games", "0"]);

    let league = |extra: &[&str], needles: &[&str]| {
        let mut args = vec!["league", "--games", "10", "-q", "--for", "mafia"];
        args.extend(extra);
        fails(&args, needles);
    };
    league(&["--strategies", "forum"], &["at least two"]);
    league(&["--strategies", "forum,random,forum"], &["`forum` is named twice"]);
    league(&["--strategies", "forum,reveal"], &["--strategies reveal", "plays commissar"]);
    fails(&["league", "--for", "mafia"], &["--strategies"]);

    let best = |extra: &[&str], needles: &[&str]| {
        let mut args = vec!["best-response", "--max-games", "100", "-q"];
        args.extend(extra);
        fails(&args, needles);
    };
    best(&["--camp", "wolves"], &["--camp wolves", "town, mafia, bandits"]);
    best(&["--camp", "bandits"], &["--camp bandits", "deals nobody"]);
    best(&["--camp", "mafia", "--agents", "classic"], &["forum strategies", "don plays classic"]);
    best(&["--camp", "mafia", "--tolerance", "2"], &["--tolerance"]);
    best(&["--camp", "mafia", "--rounds", "0"], &["--rounds"]);
    fails(&["best-response", "--camp", "town", "--max-games", "5", "-q"], &["--max-games 5", "not enough"]);
    fails(&["best-response"], &["--camp"]);
    fails(&["best-response", "--camp", "mafia", "--signals", "votes>1", "-q"], &["--signals votes>1", "no signal"]);
    fails(&["best-response", "--camp", "mafia", "--confirm", "0", "-q"], &["--confirm 0", "--signals none"]);
}

#[test]
fn out_files_of_the_comparisons_are_parquet_or_csv() {
    let dir = TempDir::new("out");
    let out = dir.file("d.parquet");
    ok(&["duel", "--for", "mafia", "--a", "forum", "--b", "classic", "--games", "500", "-q", "--out", &out]);
    for f in ["d.parquet", "d.play.parquet"] {
        let b = std::fs::read(Path::new(&dir.file(f))).unwrap();
        assert!(b.starts_with(b"PAR1") && b.ends_with(b"PAR1"), "{f}");
    }
}

// ---------------------------------------------------------------------------
// What each role's move is worth (`mafia moves`)

#[test]
fn moves_pairs_each_roles_usual_move_with_a_random_move_and_no_move() {
    let dir = TempDir::new("moves");
    let out = dir.file("m.csv");
    let mut args = words("moves --setup classic --games 3000 --seed 3 -q");
    args.extend(["--out", &out]);
    let stdout = ok(&args);
    assert!(stdout.contains("What each role's own move is worth"), "{stdout}");
    let rows = csv_rows(&out);
    assert_eq!(rows.iter().map(|r| col(r, "role")).collect::<Vec<_>>(), ["commissar", "don"], "{rows:?}");
    let c = row_for(&rows, "role", "commissar");
    assert_eq!((col(c, "camp"), col(c, "games")), ("town", "3000"));
    // The Commissar's checks are the town's information: without them it
    // loses about 25 points.
    assert!(num(c, "gain_none_lo") > 0.1, "{c:?}");
    assert!((num(c, "usual_rate") - num(c, "none_rate") - num(c, "gain_none")).abs() < 1e-9);
    assert!(col(c, "verdict").starts_with("beats"), "{c:?}");
    // Each yardstick is the usual lineup with that one role changed.
    let d = row_for(&rows, "role", "don");
    assert_eq!(col(d, "camp"), "mafia");
    assert!((num(d, "usual_rate") + num(c, "usual_rate") - 1.0).abs() < 1e-9, "classic has no draws");
}

#[test]
fn moves_check_fails_on_a_role_worse_than_a_yardstick_unless_allowed() {
    // A planted weakness: a Shooter who never fires does worse than a
    // random shot in `forum-16` (enemies are 40% of the others: about 7
    // points).
    let args = words(
        "moves --setup forum-16 --agents preset:forum-16,shooter=shooter:shoot=never --roles shooter --games 20000 -q --check",
    );
    let out = mafia(&args);
    assert_eq!(out.status.code(), Some(1), "{}", show(&args, &out));
    assert!(text(&out.stderr).contains("shooter in forum-16"), "{}", show(&args, &out));
    assert!(text(&out.stdout).contains("worse than a yardstick"), "{}", show(&args, &out));
    let mut allowed = args.clone();
    allowed.extend(["--allow", "shooter@forum-16"]);
    ok(&allowed);
    // The default Shooter passes.
    ok(&words("moves --setup forum-16 --roles shooter --games 20000 -q --check"));
}

#[test]
fn moves_refuses_roles_without_a_move_or_not_dealt_and_a_bad_allow() {
    fails(&words("moves --roles citizen"), &["--roles citizen", "no move of his own"]);
    fails(&words("moves --roles nobody"), &["--roles nobody", "no such role"]);
    fails(&words("moves --setup classic --roles doctor"), &["--roles doctor", "no setup given deals a doctor"]);
    fails(&words("moves --check --allow doctor"), &["--allow doctor", "ROLE@SETUP"]);
    fails(&words("moves --allow doctor@classic"), &["--check"]);
    fails(&words("moves --games 0"), &["--games"]);
}
