//! `mafia odds`: win odds from a mid-game state. From the start state with
//! nothing known it plays exactly the games of `mafia run` (the same seed,
//! games and agents give the same counts); a state already decided by the
//! numbers is reported decided (exit 2), not played; the output does not depend on the thread
//! count; the example files run; bad files exit 2 naming the line.

mod common;
use common::mafia;
use mafia_agents::Lineup;
use mafia_engine::{Camp, Game, Preset, Seat};
use mafia_sim::{Job, Odds, RunSpec, Variant, parse_position, play_range, run};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn odds_of(text: &str, agents: &str, seed: u64, games: u64, threads: usize) -> Odds {
    let file = parse_position("state.toml", text).unwrap_or_else(|e| panic!("{e}"));
    let start = file.start().unwrap_or_else(|e| panic!("{e}"));
    let mut lineup = Lineup::default();
    lineup.apply(agents).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    play_range(&pool, &start, &lineup, seed, 0, games, &indicatif::ProgressBar::hidden())
}

#[test]
fn c1_odds_from_the_start_state_equal_a_plain_run() {
    for (preset, agents) in [("classic", "forum"), ("classic", "random"), ("forum-16", "forum")] {
        let (seed, games) = (7, 3000);
        let odds = odds_of(&format!("setup = \"{preset}\"\n"), agents, seed, games, 2);
        let mut lineup = Lineup::default();
        lineup.apply(agents).unwrap();
        let game = Game::new(&Preset::find(preset).unwrap().setup()).unwrap();
        let variant = Variant { setup: preset.into(), rules: game.rules_label(), agents: lineup.label(), players: 0 };
        let spec = RunSpec {
            jobs: vec![Job { game, lineup, variant, ext: vec![] }],
            games,
            first: 0,
            seed,
            threads: 1,
            progress: false,
            games_out: None,
            precision: None,
        };
        let t = &run(&spec).unwrap().tallies[0];
        assert_eq!(odds.games, t.games, "{preset} {agents}");
        assert_eq!(odds.wins, t.wins, "{preset} {agents}: wins by camp");
        assert_eq!(odds.draws, t.draws, "{preset} {agents}");
        assert_eq!(odds.unsampled, 0);
        // From day 1 the days left are the days played, less the first.
        let days: u64 = t.days.iter().enumerate().map(|(d, &c)| d as u64 * c).sum();
        assert_eq!(odds.days_left, days - t.games, "{preset} {agents}");
    }
}

#[test]
fn c17_c18_decided_positions_are_reported_not_played() {
    // Every mafioso dead: the town has won (C17); nothing is simulated.
    let town = "setup = \"classic\"\nday = 4\nseats = [\"don\", \"mafioso\", \"mafioso\", \"commissar\", \
                \"citizen\", \"citizen\", \"citizen\", \"citizen\", \"citizen\", \"citizen\"]\n\
                [carry]\ndead = [1, 2, 3]\nkilled = [2]\n";
    let (code, err) = bad("decided-town", town);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(":5:") && err.contains("already decided: the town camp has won") && err.contains("C17"),
        "{err}"
    );
    // Two mafia against two town: parity (C18).
    let mafia = town.replace("dead = [1, 2, 3]\nkilled = [2]", "dead = [1, 4, 5, 6, 7, 8]\nkilled = [4, 6, 8]");
    let (code, err) = bad("decided-mafia", &mafia);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("the mafia camp has won") && err.contains("C18"), "{err}");
    // One mafioso left among seven town, and the no-kill count at two: the town's game.
    let one = town.replace("dead = [1, 2, 3]\nkilled = [2]", "dead = [1, 2]\nnights_without_kill = 2");
    let o = odds_of(&one, "forum", 1, 2000, 2);
    let share = o.wins[Camp::Town as usize] as f64 / o.games as f64;
    assert!(share > 0.55, "town wins {share}");
}

#[test]
fn c2_a_view_deals_only_what_the_seat_does_not_know() {
    let text = std::fs::read_to_string(root().join("scenarios/odds/classic-day-3-commissar.toml")).unwrap();
    let start = parse_position("c.toml", &text).unwrap().start().unwrap();
    assert_eq!(start.fixed().iter().filter(|r| r.is_some()).count(), 1, "only his own role");
    let mut r = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(5);
    for _ in 0..2000 {
        let mut roles = [mafia_engine::Role::Citizen; 10];
        assert!(start.sample(&mut r, &mut roles));
        assert_eq!(roles[3], mafia_engine::Role::Commissar);
        assert_eq!(roles[1].camp(), Camp::Mafia, "C6: seat 2 checked mafia");
        assert_eq!(roles[4].camp(), Camp::Town, "C6: seat 5 checked town");
    }
    // The view and the full position differ only in what is dealt: both play.
    let o = odds_of(&text, "forum", 3, 300, 2);
    assert_eq!(o.games, 300);
}

#[test]
fn the_same_seed_gives_the_same_output_on_one_and_two_threads() {
    let file = root().join("scenarios/odds/forum-16-night-3.toml");
    let f = file.to_str().unwrap();
    let one = mafia(&["odds", f, "--games", "3000", "--seed", "9", "--threads", "1", "--quiet"]);
    let two = mafia(&["odds", f, "--games", "3000", "--seed", "9", "--threads", "2", "--quiet"]);
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    assert_eq!(one.stdout, two.stdout);
    let text = String::from_utf8_lossy(&one.stdout);
    assert!(text.contains("sampled per game: seats 1, 2, 3, 4, 6,"), "{text}");
    assert!(text.contains("town") && text.contains("bandits") && text.contains("draw"), "{text}");
}

#[test]
fn a_precision_the_games_cannot_reach_is_said() {
    // Issue 35: `odds --precision` said nothing when `--games` ran out first.
    let file = root().join("scenarios/odds/classic-day-3-commissar.toml");
    let f = file.to_str().unwrap();
    let short = mafia(&["odds", f, "--games", "3000", "--precision", "0.001", "--quiet"]);
    // And fails loudly: exit 1, after the table.
    let err = String::from_utf8_lossy(&short.stderr);
    assert_eq!(short.status.code(), Some(1), "{err}");
    assert!(err.contains("--precision 0.001: not reached within --games 3000"), "{err}");
    let text = String::from_utf8_lossy(&short.stdout);
    assert!(
        text.contains("played 3000 games: the cap of 3000 games reached before every interval was within ±0.001"),
        "{text}"
    );
    let met = mafia(&["odds", f, "--games", "100000", "--precision", "0.02", "--quiet"]);
    assert!(met.status.success(), "{}", String::from_utf8_lossy(&met.stderr));
    let text = String::from_utf8_lossy(&met.stdout);
    assert!(text.contains(": every interval within ±0.02"), "{text}");
    assert!(!text.contains("played 100000 games"), "it stopped at a checkpoint: {text}");
}

#[test]
fn the_example_states_run_and_write_tables() {
    let dir = std::env::temp_dir().join(format!("odds-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(root().join("scenarios/odds"))
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().to_str()?.strip_suffix(".toml").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "{names:?}");
    for name in names {
        let file = root().join(format!("scenarios/odds/{name}.toml"));
        let out = dir.join(format!("{name}.csv"));
        let o = mafia(&["odds", file.to_str().unwrap(), "--games", "400", "--quiet", "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let csv = std::fs::read_to_string(&out).unwrap();
        assert!(csv.starts_with("camp,games,wins,rate,lo,hi,mean_days_left"), "{csv}");
        assert!(csv.lines().any(|l| l.starts_with("draw,400,")), "{csv}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Writes `text` to a temporary state file, runs `mafia odds` on it and
/// returns (exit code, stderr).
fn bad(name: &str, text: &str) -> (Option<i32>, String) {
    let path = std::env::temp_dir().join(format!("odds-bad-{}-{name}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let o = mafia(&["odds", path.to_str().unwrap(), "--games", "10", "--quiet"]);
    std::fs::remove_file(&path).ok();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn bad_state_files_exit_2_naming_the_line() {
    let seats = "seats = [\"don\", \"mafioso\", \"mafioso\", \"commissar\", \"citizen\", \"citizen\", \
                 \"citizen\", \"citizen\", \"citizen\", \"citizen\"]\n";
    let cases: Vec<(&str, String, &str, &str)> = vec![
        ("syntax", "setup = \"classic\"\nday = 3x\n".into(), ":2:", "invalid TOML"),
        ("role", "setup = \"classic\"\nseats = [\"don\", \"werewolf\"]\n".into(), ":2:", "unknown role `werewolf`"),
        ("seat", format!("setup = \"classic\"\n{seats}[carry]\ndead = [11]\n"), ":4:", "seat 11 does not exist"),
        ("view-dead", format!("day = 2\nview = 4\n{seats}[carry]\ndead = [4]\n"), ":2:", "is dead"),
        (
            "four-mafia",
            "setup = \"classic\"\nseats = [\"don\", \"mafioso\", \"mafioso\",\n  \"mafioso\", \"?\", \"?\", \"?\", \"?\", \"?\", \"?\"]\n".into(),
            ":3:",
            "the setup deals 2 mafioso",
        ),
        (
            "dead-healer",
            "day = 2\nseats = [\"boss\", \"doctor\", \"citizen\", \"citizen\", \"citizen\"]\n[carry]\ndead = [2]\nlast_heal = 3\n".into(),
            ":5:",
            "is dead: no move to carry",
        ),
        (
            "impossible-checks",
            "setup = \"classic\"\nday = 5\nview = 1\nseats = [\"commissar\", \"?\", \"?\", \"?\", \"?\", \"?\", \"?\", \"?\", \"?\", \"?\"]\n\
             [[check]]\nby = 1\ntarget = 2\ncamp = \"mafia\"\n[[check]]\nby = 1\ntarget = 3\ncamp = \"mafia\"\n\
             [[check]]\nby = 1\ntarget = 4\ncamp = \"mafia\"\n[[check]]\nby = 1\ntarget = 5\ncamp = \"mafia\"\n"
                .into(),
            ":",
            "no deal of the setup fits",
        ),
        ("no-setup", "day = 2\nseats = [\"don\", \"?\", \"citizen\"]\n".into(), ":1:", "give `setup` or [roles]"),
        ("c8", format!("night = 4\n{seats}[carry]\nnights_without_kill = 3\n"), ":4:", "already won"),
        ("self-vote", format!("day = 2\n{seats}[[vote]]\nby = 5\nfor = 5\n"), ":3:", "votes for himself"),
        ("vote-day-1", format!("day = 1\n{seats}[[vote]]\nby = 5\nfor = 6\n"), ":3:", "no day before it"),
        ("vote-key", format!("day = 2\n{seats}[[vote]]\nby = 5\nagainst = 6\n"), ":5:", "unknown key `against`"),
        ("vote-pas", format!("day = 2\n{seats}[[vote]]\nby = 5\nfor = \"pas\"\n"), ":5:", "neither a seat number nor a role"),
        ("vote-today", format!("day = 3\n{seats}[[vote]]\nby = 5\nfor = 6\nday = 3\n"), ":3:", "votes may be given for days 1 to 2"),
        ("vote-day-0", format!("day = 3\n{seats}[[vote]]\nby = 5\nfor = 6\nday = 0\n"), ":6:", "`day` must be a number from 1"),
        (
            "vote-twice",
            format!("day = 3\n{seats}[[vote]]\nby = 5\nfor = 6\nday = 1\n[[vote]]\nby = 5\nfor = 7\nday = 1\n"),
            ":7:",
            "seat 5 votes twice on day 1",
        ),
        // Issue 35: seven dead by the morning of day 3 in a 10-player game:
        // two days of at most two hanged (C12) and two nights of one kill.
        (
            "seven-dead-by-day-3",
            format!("day = 3\n{seats}[carry]\ndead = [4, 5, 6, 7, 8, 9, 10]\nkilled = [9, 10]\n"),
            ":4:",
            "5 died by day (lynched or mined), but 2 finished days allow at most 4",
        ),
        (
            "three-killed-in-two-nights",
            format!("day = 3\n{seats}[carry]\ndead = [8, 9, 10]\nkilled = [8, 9, 10]\n"),
            ":5:",
            "3 killed at night, but 2 finished nights allow at most 2",
        ),
        // Issue 35: no night came before day 1 or night 1 to leave a hex behind.
        ("hex-on-day-1", format!("day = 1\n{seats}[carry]\nhexed = [5]\n"), ":4:", "night 1 has no night before it"),
        (
            "modkilled-alive",
            format!("day = 3\n{seats}[carry]\ndead = [7]\nmodkilled = [8]\n"),
            ":5:",
            "seat 8 is not among the dead",
        ),
    ];
    for (name, text, at, needle) in cases {
        let (code, err) = bad(name, &text);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert!(err.contains(at) && err.contains(needle), "{name}: expected {at} and `{needle}` in:\n{err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

#[test]
fn c10_c15_votes_and_modkills_read_from_a_state_file() {
    let text = "setup = \"classic\"\nday = 3\n\
                seats = [\"don\", \"?\", \"?\", \"commissar\", \"?\", \"?\", \"?\", \"citizen\", \"?\", \"?\"]\n\
                [rules]\nreveal_roles_on_death = true\n[carry]\ndead = [9, 8]\nkilled = [8]\nmodkilled = [9]\n\
                [[vote]]\nby = \"don\"\nfor = 4\n[[vote]]\nby = 2\nfor = \"pass\"\n";
    let file = parse_position("state.toml", text).unwrap_or_else(|e| panic!("{e}"));
    let pos = &file.position;
    use mafia_engine::{DayVote, Vote};
    let day2 = |by, vote| DayVote { day: 2, by, vote };
    assert_eq!(pos.votes, [day2(Seat::new(0), Vote::For(Seat::new(3))), day2(Seat::new(1), Vote::Pass)]);
    assert_eq!(pos.modkilled, [Seat::new(8)]);
    // C9 wants the roles of the dead, but not a modkilled player's (C15): seat 9's is unknown.
    let start = file.start().unwrap_or_else(|e| panic!("{e}"));
    assert!(start.sampled().contains(Seat::new(8)));
    // The votes reach the players: the same games without them end otherwise.
    let with = odds_of(text, "forum", 3, 4000, 1);
    let none = odds_of(&text[..text.find("[[vote]]").unwrap()], "forum", 3, 4000, 1);
    assert_eq!((with.games, none.games), (4000, 4000));
    assert_ne!(with, none, "the votes changed no game");
}

#[test]
fn c10_earlier_days_votes_read_from_a_state_file_reach_the_players() {
    // Day 3 of the classic example's table: day 2's votes (no `day`: the
    // last finished day) and day 1's, which only the record of past votes
    // holds (the forum town scores voters by whom they voted for).
    let base = "setup = \"classic\"\nday = 3\n\
                seats = [\"don\", \"?\", \"?\", \"commissar\", \"?\", \"?\", \"?\", \"?\", \"?\", \"?\"]\n\
                [carry]\ndead = [10, 9]\nkilled = [10]\n\
                [[said]]\nseat = 4\nclaim = \"commissar\"\ntown = [5, 6]\nmafia = [1]\n\
                [[vote]]\nby = \"don\"\nfor = 9\n[[vote]]\nby = 2\nfor = 9\n";
    let mut text = base.to_string();
    // Votes for the cleared (5, 6) count against a voter, for the exposed Don (1) for him.
    for (by, t) in [(1, 5), (2, 5), (3, 7), (7, 6), (8, 1)] {
        text += &format!("[[vote]]\nby = {by}\nfor = {t}\nday = 1\n");
    }
    let file = parse_position("state.toml", &text).unwrap_or_else(|e| panic!("{e}"));
    use mafia_engine::{DayVote, Vote};
    assert_eq!(file.position.votes[0], DayVote { day: 2, by: Seat::new(0), vote: Vote::For(Seat::new(8)) });
    assert_eq!(file.position.votes[2], DayVote { day: 1, by: Seat::new(0), vote: Vote::For(Seat::new(4)) });
    // Day 1's votes reach the players: the same games without them end otherwise.
    let with = odds_of(&text, "forum", 3, 4000, 1);
    let without = odds_of(base, "forum", 3, 4000, 1);
    assert_eq!((with.games, without.games), (4000, 4000));
    assert_ne!(with, without, "day 1's votes changed no game");
}

#[test]
fn c10_the_order_of_claims_in_a_state_file_decides_the_counter_claim() {
    // A mafioso (seat 8) and the Commissar (seat 4) both claim Commissar and
    // name each other. The `forum` town lynches the later claimant
    // (`counterclaim = later`): the order of the [[said]] entries is the
    // order the claims were made in.
    let head = "setup = \"classic\"\nday = 3\n\
                seats = [\"citizen\", \"mafioso\", \"don\", \"commissar\", \"citizen\", \"citizen\", \"citizen\", \"mafioso\", \"citizen\", \"citizen\"]\n\
                [carry]\ndead = [10, 9]\nkilled = [10]\n";
    let fake = "[[said]]\nseat = 8\nclaim = \"commissar\"\nmafia = [4]\n";
    let real = "[[said]]\nseat = 4\nclaim = \"commissar\"\nmafia = [8]\n";
    let real_first = odds_of(&format!("{head}{real}{fake}"), "forum", 5, 4000, 1);
    let fake_first = odds_of(&format!("{head}{fake}{real}"), "forum", 5, 4000, 1);
    let town = |o: &Odds| o.wins[Camp::Town as usize] as f64 / o.games as f64;
    assert!(
        town(&real_first) > town(&fake_first) + 0.1,
        "the real Commissar first: {:.3}, the fake first: {:.3}",
        town(&real_first),
        town(&fake_first)
    );
}

/// Mutated example states (lines dropped, duplicated or swapped, numbers
/// and names changed) never panic: each reads and plays, or fails naming a
/// line of the file.
#[test]
fn mutated_state_files_never_panic_and_name_a_line() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    let mut below = |n: usize| mafia_engine::below(&mut rng, n as u32) as usize;
    let names = ["classic-day-3", "classic-day-3-commissar", "forum-16-night-3", "classic-night-2-votes"];
    let swaps = [("4", "11"), ("3", "0"), ("mafia", "town"), ("citizen", "don"), ("day", "night"), ("= 1", "= 9")];
    let lineup = Lineup::default();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let (mut ok, mut failed) = (0, 0);
    for round in 0..400 {
        let text = std::fs::read_to_string(root().join(format!("scenarios/odds/{}.toml", names[round % 4]))).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for _ in 0..1 + below(3) {
            let i = below(lines.len());
            match below(4) {
                0 => {
                    lines.remove(i);
                }
                1 => lines.insert(i, lines[i].clone()),
                2 => {
                    let j = below(lines.len());
                    lines.swap(i, j);
                }
                _ => {
                    let (a, b) = swaps[below(swaps.len())];
                    lines[i] = lines[i].replacen(a, b, 1);
                }
            }
        }
        let text = lines.join("\n");
        let n = lines.len().max(1);
        match parse_position("m.toml", &text).and_then(|f| f.start()) {
            Ok(start) => {
                let o = play_range(&pool, &start, &lineup, 1, 0, 3, &indicatif::ProgressBar::hidden());
                assert_eq!(o.games + o.unsampled, 3);
                ok += 1;
            }
            Err(e) => {
                assert!(!e.diagnostics.is_empty());
                for d in &e.diagnostics {
                    assert!(d.line >= 1 && d.line <= n + 1, "line {} of {n}: {}\n{text}", d.line, d.message);
                }
                failed += 1;
            }
        }
    }
    assert!(ok > 20 && failed > 20, "{ok} read, {failed} refused");
}
