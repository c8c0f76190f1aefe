//! Result tables: turns per-variant [`Tally`] counters into Polars data
//! frames, prints them for people and writes them as Parquet or CSV for
//! Python Polars, DuckDB and friends.
//!
//! Three tables, all keyed by the variant label `setup, rules, agents`:
//!
//! * `summary`: one row per variant: wins by camp (`town_wins`,
//!   `mafia_wins`, `bandits_wins`, each with `_rate`, `_lo`, `_hi`: Wilson
//!   95% bounds), draws, ends by cause (`end_<cause>` for every
//!   [`EndCause`], `end_only_bandits` included), game length, illegal
//!   decisions (the engine's refusals, and external agents' illegal
//!   answers replaced by their fallback), and how the games were played ([`PLAY_COLUMNS`]: the share
//!   of lynched players who were mafia or bandits, and per game: lynches,
//!   night kills, saves, reveals, false claims, nights the information roles
//!   survived);
//! * `roles`: one row per (variant, role dealt): survival and win rates;
//! * `days`: one row per (variant, day on which games ended): the
//!   distribution of game length.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use mafia_agents::Lineup;
use mafia_engine::{Camp, EndCause, Role};
use polars::prelude::*;

use super::columns::Cols;
use super::files::{out_format, sibling, write_frame_set};
use crate::stats::{Tally, wilson};

/// A row label: which variant a tally belongs to.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Variant {
    /// The setup's name.
    pub setup: String,
    /// A short text like `no_kill_limit=off absence=0.05`; empty = defaults.
    pub rules: String,
    /// The lineup's label.
    pub agents: String,
    /// Players at the table.
    pub players: usize,
}

/// The three result tables (see the module docs for their columns).
pub struct Tables {
    /// Camp win rates, end causes, game length and how the games were played: one row per variant.
    pub summary: DataFrame,
    /// Per role: survival and win rates.
    pub roles: DataFrame,
    /// The distribution of game lengths in days.
    pub days: DataFrame,
}

// ---------------------------------------------------------------------------
// Building

/// The label columns `setup, rules, agents`, one entry per row.
#[derive(Default)]
struct Labels<'a> {
    setup: Vec<&'a str>,
    rules: Vec<&'a str>,
    agents: Vec<&'a str>,
}

impl<'a> Labels<'a> {
    fn push(&mut self, v: &'a Variant) {
        self.setup.push(&v.setup);
        self.rules.push(&v.rules);
        self.agents.push(&v.agents);
    }

    fn into_cols(self) -> Cols {
        let mut c = Cols::default();
        c.push("setup", self.setup);
        c.push("rules", self.rules);
        c.push("agents", self.agents);
        c
    }
}

/// `k / n`, or null when `n` is 0.
fn rate(k: u64, n: u64) -> Option<f64> {
    (n > 0).then(|| k as f64 / n as f64)
}

/// The last day on which some game ended (0 when there are no games).
fn max_day(t: &Tally) -> u32 {
    t.days.iter().rposition(|&c| c > 0).unwrap_or(0) as u32
}

/// The behaviour columns of the summary, with what each means: shares of the
/// players lynched, then means per game (from [`mafia_engine::Stats`]).
pub const PLAY_COLUMNS: [(&str, &str); 8] = [
    ("lynch_hit_mafia", "share of the players lynched who were mafia"),
    ("lynch_hit_bandits", "share of the players lynched who were bandits"),
    ("lynches", "players lynched per game"),
    ("night_kills", "players killed at night per game"),
    ("saves", "kills stopped by a heal or the Guard per game (guests healed included)"),
    ("reveals", "information roles who claimed their role, per game"),
    ("false_claims", "claims of a role not held, per game"),
    ("info_nights", "nights the town's information roles lived through, per game"),
];

/// The behaviour values of one tally, in [`PLAY_COLUMNS`] order (`None`:
/// no lynch or no game to divide by).
pub fn play_values(t: &Tally) -> [Option<f64>; 8] {
    let lynches = t.lynches();
    let per_game = |k: u64| rate(k, t.games);
    [
        rate(t.lynched[Camp::Mafia as usize], lynches),
        rate(t.lynched[Camp::Bandits as usize], lynches),
        per_game(lynches),
        per_game(t.night_kills()),
        per_game(t.saves),
        per_game(t.reveals),
        per_game(t.false_claims),
        per_game(t.info_nights),
    ]
}

/// One row per variant: its name, the lineup it played, the draw rate and
/// the behaviour columns of the run tables.
pub fn play_frame(rows: &[(&str, &Lineup, &Tally)]) -> PolarsResult<DataFrame> {
    let mut c = Cols::default();
    c.str("variant", rows.iter().map(|r| r.0.to_string()).collect());
    c.str("lineup", rows.iter().map(|r| r.1.label()).collect());
    c.f64("draw_rate", rows.iter().map(|r| r.2.draws as f64 / r.2.games.max(1) as f64).collect());
    let bandits = rows
        .iter()
        .any(|r| r.2.role_dealt.iter().enumerate().any(|(i, &n)| n > 0 && Role::ALL[i].camp() == Camp::Bandits));
    for (i, (name, _)) in PLAY_COLUMNS.iter().enumerate() {
        if *name == "lynch_hit_bandits" && !bandits {
            continue;
        }
        c.0.push(Column::new((*name).into(), rows.iter().map(|r| play_values(r.2)[i]).collect::<Vec<Option<f64>>>()));
    }
    c.frame()
}

/// Builds the `summary`, `roles` and `days` tables from labelled tallies.
pub fn build_tables(rows: &[(Variant, &Tally)]) -> PolarsResult<Tables> {
    Ok(Tables { summary: summary_frame(rows)?, roles: roles_frame(rows)?, days: days_frame(rows)? })
}

pub fn summary_frame(rows: &[(Variant, &Tally)]) -> PolarsResult<DataFrame> {
    let mut labels = Labels::default();
    for (v, _) in rows {
        labels.push(v);
    }
    let mut c = labels.into_cols();
    let per = |f: &dyn Fn(&Tally) -> u64| rows.iter().map(|(_, t)| f(t)).collect::<Vec<u64>>();
    c.push("players", rows.iter().map(|(v, _)| v.players as u32).collect::<Vec<u32>>());
    c.push("games", per(&|t| t.games));
    for camp in Camp::ALL {
        let name = camp.name();
        let wins = per(&|t| t.wins[camp as usize]);
        let games = per(&|t| t.games);
        let bounds: Vec<(f64, f64)> = wins.iter().zip(&games).map(|(&k, &n)| wilson(k, n)).collect();
        let rates: Vec<Option<f64>> = wins.iter().zip(&games).map(|(&k, &n)| rate(k, n)).collect();
        c.push(&format!("{name}_wins"), wins);
        c.push(&format!("{name}_rate"), rates);
        c.push(&format!("{name}_lo"), bounds.iter().map(|b| b.0).collect::<Vec<f64>>());
        c.push(&format!("{name}_hi"), bounds.iter().map(|b| b.1).collect::<Vec<f64>>());
    }
    c.push("draws", per(&|t| t.draws));
    c.push("draw_rate", rows.iter().map(|(_, t)| rate(t.draws, t.games)).collect::<Vec<_>>());
    for cause in EndCause::ALL {
        c.push(&format!("end_{}", cause.name()), per(&|t| t.causes[cause as usize]));
    }
    let if_games =
        |f: &dyn Fn(&Tally) -> u32| rows.iter().map(|(_, t)| (t.games > 0).then(|| f(t))).collect::<Vec<Option<u32>>>();
    c.push("days_mean", rows.iter().map(|(_, t)| (t.games > 0).then(|| t.mean_days())).collect::<Vec<_>>());
    c.push("days_p50", if_games(&|t| t.days_quantile(0.5) as u32));
    c.push("days_p90", if_games(&|t| t.days_quantile(0.9) as u32));
    c.push("days_max", if_games(&max_day));
    c.push("illegal", per(&|t| t.illegal));
    for (i, (name, _)) in PLAY_COLUMNS.iter().enumerate() {
        c.push(name, rows.iter().map(|(_, t)| play_values(t)[i]).collect::<Vec<Option<f64>>>());
    }
    c.frame()
}

/// With external agents (issue 35: "the summary table carries the fault
/// counts"): per row, `ext_forfeited`, the games an external agent
/// forfeited (not in `games`), and `ext_replaced`, the decisions of the
/// row's games that the agents' fallbacks answered (the per-game rows'
/// `replaced`, summed). Added only when external agents played, so other
/// tables stay as they were, like the per-game `replaced` column.
pub fn add_ext_columns(t: &mut Tables, forfeited: &[u64], replaced: &[u64]) -> PolarsResult<()> {
    t.summary.with_column(Column::new("ext_forfeited".into(), forfeited))?;
    t.summary.with_column(Column::new("ext_replaced".into(), replaced))?;
    Ok(())
}

fn roles_frame(rows: &[(Variant, &Tally)]) -> PolarsResult<DataFrame> {
    let mut labels = Labels::default();
    let (mut role, mut camp) = (Vec::new(), Vec::new());
    let (mut dealt, mut survived, mut won) = (Vec::new(), Vec::new(), Vec::new());
    let (mut survival_rate, mut win_rate) = (Vec::new(), Vec::new());
    let (mut win_lo, mut win_hi) = (Vec::new(), Vec::new());
    for (v, t) in rows {
        for r in Role::ALL {
            let i = r as usize;
            let n = t.role_dealt[i];
            if n == 0 {
                continue;
            }
            labels.push(v);
            role.push(r.name());
            camp.push(r.camp().name());
            dealt.push(n);
            survived.push(t.role_survived[i]);
            survival_rate.push(t.role_survived[i] as f64 / n as f64);
            won.push(t.role_won[i]);
            win_rate.push(t.role_won[i] as f64 / n as f64);
            let (lo, hi) = wilson(t.role_won[i], n);
            win_lo.push(lo);
            win_hi.push(hi);
        }
    }
    let mut c = labels.into_cols();
    c.push("role", role);
    c.push("camp", camp);
    c.push("dealt", dealt);
    c.push("survived", survived);
    c.push("survival_rate", survival_rate);
    c.push("won", won);
    c.push("win_rate", win_rate);
    c.push("win_lo", win_lo);
    c.push("win_hi", win_hi);
    c.frame()
}

fn days_frame(rows: &[(Variant, &Tally)]) -> PolarsResult<DataFrame> {
    let mut labels = Labels::default();
    let (mut days, mut games, mut share) = (Vec::new(), Vec::new(), Vec::new());
    for (v, t) in rows {
        for (d, &n) in t.days.iter().enumerate() {
            if n == 0 {
                continue;
            }
            labels.push(v);
            days.push(d as u32);
            games.push(n);
            share.push(n as f64 / t.games.max(1) as f64);
        }
    }
    let mut c = labels.into_cols();
    c.push("days", days);
    c.push("games", games);
    c.push("share", share);
    c.frame()
}

// ---------------------------------------------------------------------------
// Printing

/// Polars' `Display` reads its limits from the environment on every call;
/// set them (once, unless the user already did) so every row and column
/// shows, strings are not cut, the width is not capped and numbers are
/// right-aligned.
pub(super) fn configure_display() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let settings = [
            ("POLARS_FMT_MAX_ROWS", "-1"),
            ("POLARS_FMT_MAX_COLS", "-1"),
            ("POLARS_TABLE_WIDTH", "-1"),
            // Not -1: polars adds to this limit, which would overflow.
            ("POLARS_FMT_STR_LEN", "200"),
            ("POLARS_FMT_TABLE_HIDE_COLUMN_DATA_TYPES", "1"),
            ("POLARS_FMT_TABLE_HIDE_DATAFRAME_SHAPE_INFORMATION", "1"),
            ("POLARS_FMT_TABLE_CELL_NUMERIC_ALIGNMENT", "RIGHT"),
        ];
        for (key, value) in settings {
            if std::env::var_os(key).is_none() {
                // SAFETY: Rust's own environment accesses (polars reads
                // these with `std::env::var`) are serialised by std's lock;
                // this runs once, when results are printed, and the program
                // has no non-Rust code reading the environment meanwhile.
                unsafe { std::env::set_var(key, value) };
            }
        }
    });
}

pub(super) fn pe(e: PolarsError) -> io::Error {
    io::Error::other(e.to_string())
}

/// A copy of `df` with the named columns, floats rounded to 4 places for
/// display (polars' float precision setting is not reachable from here).
pub(super) fn display_frame(df: &DataFrame, names: &[String]) -> PolarsResult<DataFrame> {
    let mut out = df.select(names)?;
    for name in names {
        let col = out.column(name)?;
        if col.dtype() == &DataType::Float64 {
            // `+ 0.0` shows a rounded -0.0 as 0.0.
            let rounded: Vec<Option<f64>> =
                col.f64()?.iter().map(|v| v.map(|x| (x * 1e4).round() / 1e4 + 0.0)).collect();
            out.replace(name, Column::new(name.as_str().into(), rounded))?;
        }
    }
    Ok(out)
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Prints the tables for people: the summary (in four blocks: outcomes,
/// end causes, game length, play), the roles table and, compactly, the
/// distribution of game length. Bandit columns (`bandits_rate`, `_lo`,
/// `_hi`, `end_only_bandits`, `lynch_hit_bandits`) are left out of the print when no variant
/// deals a bandit role (the files always have them).
pub fn print_tables(t: &Tables, out: &mut impl Write) -> io::Result<()> {
    configure_display();
    let bandits_dealt = match t.roles.column("camp").and_then(|c| c.str()) {
        Ok(camps) => camps.iter().any(|c| c == Some(Camp::Bandits.name())),
        Err(_) => true,
    };
    let label = ["setup", "rules", "agents"];

    let mut outcomes = names(&label);
    outcomes.extend(names(&["players", "games"]));
    for camp in Camp::ALL {
        if camp == Camp::Bandits && !bandits_dealt {
            continue;
        }
        for part in ["rate", "lo", "hi"] {
            outcomes.push(format!("{}_{part}", camp.name()));
        }
    }
    outcomes.push("draw_rate".into());

    let mut ends = names(&label);
    ends.push("draws".into());
    ends.extend(
        EndCause::ALL
            .iter()
            .filter(|&&c| bandits_dealt || c != EndCause::OnlyBandits)
            .map(|c| format!("end_{}", c.name())),
    );

    let mut length = names(&label);
    length.extend(names(&["days_mean", "days_p50", "days_p90", "days_max", "illegal"]));

    let mut play = names(&label);
    play.extend(PLAY_COLUMNS.iter().map(|(n, _)| n.to_string()).filter(|n| bandits_dealt || n != "lynch_hit_bandits"));

    let blocks = [
        ("Outcomes (rates with Wilson 95% bounds)", &outcomes),
        ("How games ended (counts)", &ends),
        ("Game length in days", &length),
        ("How the games were played (lynch_hit_*: share of the lynched; the rest per game)", &play),
    ];
    for (title, cols) in blocks {
        writeln!(out, "{title}")?;
        writeln!(out, "{}", display_frame(&t.summary, cols).map_err(pe)?)?;
        writeln!(out)?;
    }

    writeln!(out, "Roles (survival and win rates per player dealt the role)")?;
    let role_cols = t.roles.get_column_names_owned();
    let role_cols: Vec<String> = role_cols.iter().map(|s| s.to_string()).collect();
    writeln!(out, "{}", display_frame(&t.roles, &role_cols).map_err(pe)?)?;
    writeln!(out)?;

    writeln!(out, "Games ending on day d (share of games)")?;
    print_days(&t.days, out)?;
    Ok(())
}

/// One line per variant: `setup | rules | agents: d3 12.5%  d4 40.0% ...`.
fn print_days(days: &DataFrame, out: &mut impl Write) -> io::Result<()> {
    let get = |name: &str| days.column(name).map_err(pe);
    let setup = get("setup")?.str().map_err(pe)?;
    let rules = get("rules")?.str().map_err(pe)?;
    let agents = get("agents")?.str().map_err(pe)?;
    let day = get("days")?.u32().map_err(pe)?;
    let share = get("share")?.f64().map_err(pe)?;
    let mut current: Option<(Option<&str>, Option<&str>, Option<&str>)> = None;
    let mut prev_day = 0;
    for i in 0..days.height() {
        let key = (setup.get(i), rules.get(i), agents.get(i));
        let d = day.get(i).unwrap_or(0);
        // A new variant starts where the label changes or the days restart
        // (two variants may share a label, e.g. the same setup given twice).
        let new_variant = current != Some(key) || d <= prev_day;
        prev_day = d;
        if new_variant {
            if current.is_some() {
                writeln!(out)?;
            }
            let rules = match key.1 {
                None | Some("") => "default rules",
                Some(r) => r,
            };
            write!(out, "  {} | {} | {}:", key.0.unwrap_or(""), rules, key.2.unwrap_or(""))?;
            current = Some(key);
        }
        write!(out, "  d{} {:.1}%", day.get(i).unwrap_or(0), share.get(i).unwrap_or(0.0) * 100.0)?;
    }
    if current.is_some() {
        writeln!(out)?;
    }
    Ok(())
}

/// The three files [`write_tables`] writes for `path`: the summary itself,
/// then `<stem>.roles.<ext>` and `<stem>.days.<ext>`.
pub fn sibling_paths(path: &Path) -> Vec<PathBuf> {
    vec![path.to_path_buf(), sibling(path, "roles"), sibling(path, "days")]
}

/// The parts of the files written beside a run's `--out` (see
/// [`sibling_paths`]; `faults` when external agents played).
pub const TABLE_PARTS: &[&str] = &["roles", "days", "faults"];

/// Writes the summary to `path`, the roles to `<stem>.roles.<ext>` and the
/// day distribution to `<stem>.days.<ext>` beside it, in the format named by
/// the extension. Returns the paths written.
pub fn write_tables(t: &mut Tables, path: &Path) -> Result<Vec<PathBuf>, String> {
    let format = out_format(path)?;
    let paths = sibling_paths(path);
    let frames = [&mut t.summary, &mut t.roles, &mut t.days];
    // All or nothing (issue 35): never a new summary beside old tables.
    write_frame_set(frames.into_iter().zip(paths.iter().map(PathBuf::as_path)).collect(), format)?;
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::files::OutFormat;
    use crate::output::test_util::{f64_at, read, str_at, temp_dir, u64_at, variant};

    /// 100 games: town 60, mafia 40; all four roles dealt.
    fn tally_a() -> Tally {
        let mut t = Tally::new(10);
        t.games = 100;
        t.wins[Camp::Town as usize] = 60;
        t.wins[Camp::Mafia as usize] = 40;
        t.causes[EndCause::MafiaEliminated as usize] = 60;
        t.causes[EndCause::Parity as usize] = 40;
        t.days[3] = 50;
        t.days[4] = 30;
        t.days[6] = 20;
        t.role_dealt[..4].copy_from_slice(&[400, 100, 100, 100]);
        t.role_survived[..4].copy_from_slice(&[150, 30, 45, 50]);
        t.role_won[..4].copy_from_slice(&[240, 60, 40, 40]);
        t.lynched = [150, 100, 0];
        t.killed = [120, 0, 0];
        t.saves = 0;
        t.reveals = 40;
        t.false_claims = 20;
        t.info_nights = 130;
        t
    }

    /// 10 games: town 5, mafia 3, draws 2; only citizens and mafiosi.
    fn tally_b() -> Tally {
        let mut t = Tally::new(10);
        t.games = 10;
        t.wins[Camp::Town as usize] = 5;
        t.wins[Camp::Mafia as usize] = 3;
        t.draws = 2;
        t.causes[EndCause::MafiaEliminated as usize] = 5;
        t.causes[EndCause::Parity as usize] = 3;
        t.causes[EndCause::DayCap as usize] = 2;
        t.days[2] = 8;
        t.days[10] = 2;
        t.role_dealt[Role::Citizen as usize] = 50;
        t.role_dealt[Role::Mafioso as usize] = 20;
        t.role_survived[Role::Citizen as usize] = 10;
        t.role_won[Role::Citizen as usize] = 25;
        t.role_won[Role::Mafioso as usize] = 6;
        t.illegal = 1;
        t
    }

    /// 1000 games of a three-camp setup: town 500, mafia 300, bandits 150, 50 draws.
    fn tally_extended() -> Tally {
        let mut t = Tally::new(50);
        t.games = 1000;
        t.wins = [500, 300, 150];
        t.draws = 50;
        t.causes[EndCause::MafiaEliminated as usize] = 500;
        t.causes[EndCause::TownEliminated as usize] = 300;
        t.causes[EndCause::OnlyBandits as usize] = 150;
        t.causes[EndCause::Nobody as usize] = 20;
        t.causes[EndCause::DayCap as usize] = 30;
        t.days[8] = 970;
        t.days[50] = 30;
        for r in [Role::Boss, Role::Doctor, Role::Psycho, Role::Citizen] {
            t.role_dealt[r as usize] = 1000;
        }
        t.role_won[Role::Psycho as usize] = 150;
        t.role_survived[Role::Psycho as usize] = 120;
        t
    }

    #[test]
    fn e2_bandit_wins_and_ends_have_columns_and_print() {
        let x = tally_extended();
        let t = build_tables(&[(variant("forum", "", 4), &x)]).unwrap();
        let s = &t.summary;
        assert_eq!(u64_at(s, "bandits_wins", 0), 150);
        assert!((f64_at(s, "bandits_rate", 0) - 0.15).abs() < 1e-12);
        let (lo, hi) = wilson(150, 1000);
        assert_eq!((f64_at(s, "bandits_lo", 0), f64_at(s, "bandits_hi", 0)), (lo, hi));
        assert_eq!(u64_at(s, "end_only_bandits", 0), 150);
        assert_eq!(u64_at(s, "end_nobody_left", 0), 20);
        // Wins and draws add up to the games.
        let sum: u64 = ["town_wins", "mafia_wins", "bandits_wins", "draws"].iter().map(|c| u64_at(s, c, 0)).sum();
        assert_eq!(sum, 1000);
        // Roles print only where dealt, with their camp.
        let r = &t.roles;
        assert_eq!(r.height(), 4);
        let roles: Vec<String> = (0..4).map(|i| str_at(r, "role", i)).collect();
        assert_eq!(roles, ["citizen", "boss", "doctor", "psycho"]);
        assert_eq!(str_at(r, "camp", 3), "bandits");
        assert!((f64_at(r, "win_rate", 3) - 0.15).abs() < 1e-12);
        let mut out = Vec::new();
        print_tables(&t, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for col in ["bandits_rate", "bandits_lo", "bandits_hi", "end_only_bandits", "psycho"] {
            assert!(text.contains(col), "{col}: {text}");
        }
    }

    fn tables() -> Tables {
        let (a, b) = (tally_a(), tally_b());
        let rows =
            [(variant("classic-7", "", 7), &a), (variant("classic-10", "no_kill_limit=off absence=0.05", 10), &b)];
        build_tables(&rows).unwrap()
    }

    #[test]
    fn summary_rows_rates_and_bounds() {
        let t = tables();
        let s = &t.summary;
        assert_eq!(s.height(), 2);
        let cols: Vec<String> = s.get_column_names().iter().map(|c| c.to_string()).collect();
        let expected = [
            "setup",
            "rules",
            "agents",
            "players",
            "games",
            "town_wins",
            "town_rate",
            "town_lo",
            "town_hi",
            "mafia_wins",
            "mafia_rate",
            "mafia_lo",
            "mafia_hi",
            "bandits_wins",
            "bandits_rate",
            "bandits_lo",
            "bandits_hi",
            "draws",
            "draw_rate",
            "end_mafia_eliminated",
            "end_parity",
            "end_town_eliminated",
            "end_no_kill_rule",
            "end_day_cap",
            "end_nobody_left",
            "end_only_bandits",
            "days_mean",
            "days_p50",
            "days_p90",
            "days_max",
            "illegal",
            "lynch_hit_mafia",
            "lynch_hit_bandits",
            "lynches",
            "night_kills",
            "saves",
            "reveals",
            "false_claims",
            "info_nights",
        ];
        assert_eq!(cols, expected);

        assert_eq!(str_at(s, "setup", 0), "classic-7");
        assert_eq!(u64_at(s, "players", 1), 10);
        assert_eq!(u64_at(s, "town_wins", 0), 60);
        assert!((f64_at(s, "town_rate", 0) - 0.6).abs() < 1e-12);
        // Wilson 95% for 60 of 100 is (0.5020, 0.6906).
        assert!((f64_at(s, "town_lo", 0) - 0.5020).abs() < 1e-4);
        assert!((f64_at(s, "town_hi", 0) - 0.6906).abs() < 1e-4);
        let (lo, hi) = wilson(3, 10);
        assert_eq!(f64_at(s, "mafia_lo", 1), lo);
        assert_eq!(f64_at(s, "mafia_hi", 1), hi);
        assert!((f64_at(s, "draw_rate", 1) - 0.2).abs() < 1e-12);
        assert_eq!(u64_at(s, "end_day_cap", 1), 2);
        assert_eq!(u64_at(s, "end_parity", 0), 40);
        // Days: 50 on day 3, 30 on day 4, 20 on day 6.
        assert!((f64_at(s, "days_mean", 0) - 3.9).abs() < 1e-12);
        assert_eq!(u64_at(s, "days_p50", 0), 3);
        assert_eq!(u64_at(s, "days_p90", 0), 6);
        assert_eq!(u64_at(s, "days_max", 1), 10);
        assert_eq!(u64_at(s, "illegal", 1), 1);
        // Play: 250 lynched in 100 games, 100 of them mafia; 120 night kills.
        assert!((f64_at(s, "lynch_hit_mafia", 0) - 0.4).abs() < 1e-12);
        assert_eq!(f64_at(s, "lynch_hit_bandits", 0), 0.0);
        assert!((f64_at(s, "lynches", 0) - 2.5).abs() < 1e-12);
        assert!((f64_at(s, "night_kills", 0) - 1.2).abs() < 1e-12);
        assert!((f64_at(s, "reveals", 0) - 0.4).abs() < 1e-12);
        assert!((f64_at(s, "false_claims", 0) - 0.2).abs() < 1e-12);
        assert!((f64_at(s, "info_nights", 0) - 1.3).abs() < 1e-12);
        // No lynch at all: the share is null, not 0/0.
        assert!(s.column("lynch_hit_mafia").unwrap().get(1).unwrap().is_null());
        assert_eq!(f64_at(s, "lynches", 1), 0.0);
    }

    #[test]
    fn roles_and_days_rows() {
        let t = tables();
        let r = &t.roles;
        // Four roles dealt in the first variant, two in the second.
        assert_eq!(r.height(), 6);
        assert_eq!(r.width(), 12);
        // Row 3: the Don of the first variant.
        assert_eq!(str_at(r, "role", 3), "don");
        assert_eq!(str_at(r, "camp", 3), "mafia");
        assert_eq!(u64_at(r, "dealt", 3), 100);
        assert!((f64_at(r, "survival_rate", 3) - 0.5).abs() < 1e-12);
        assert!((f64_at(r, "win_rate", 3) - 0.4).abs() < 1e-12);
        let (lo, hi) = wilson(40, 100);
        assert_eq!(f64_at(r, "win_lo", 3), lo);
        assert_eq!(f64_at(r, "win_hi", 3), hi);
        // Row 5: the mafiosi of the second variant.
        assert_eq!(str_at(r, "setup", 5), "classic-10");
        assert_eq!(str_at(r, "role", 5), "mafioso");
        assert!((f64_at(r, "win_rate", 5) - 0.3).abs() < 1e-12);

        let d = &t.days;
        assert_eq!(d.height(), 5);
        assert_eq!(u64_at(d, "days", 3), 2);
        assert_eq!(u64_at(d, "games", 3), 8);
        assert!((f64_at(d, "share", 3) - 0.8).abs() < 1e-12);
    }

    #[test]
    fn prints_every_row_and_column() {
        let t = tables();
        let mut out = Vec::new();
        print_tables(&t, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("no_kill_limit=off absence=0.05"), "{text}");
        assert!(text.contains("end_nobody_left"), "{text}");
        assert!(text.contains("win_hi"), "{text}");
        assert!(text.contains("lynch_hit_mafia") && text.contains("info_nights"), "{text}");
        assert!(!text.contains("lynch_hit_bandits"), "{text}");
        assert!(text.contains("classic-10 | no_kill_limit=off absence=0.05 | random:  d2 80.0%  d10 20.0%"), "{text}");
        assert!(text.contains("classic-7 | default rules | random:  d3 50.0%  d4 30.0%  d6 20.0%"), "{text}");
        // No bandit role is dealt, so no bandit columns in the print.
        assert!(!text.contains("bandits_rate"), "{text}");
        assert!(!text.contains("end_only_bandits"), "{text}");
        assert!(!text.contains('…'), "{text}");
    }

    fn write_and_read_back(ext: &str) {
        let dir = temp_dir(ext);
        let mut t = tables();
        let path = dir.join(format!("out.{ext}"));
        let paths = write_tables(&mut t, &path).unwrap();
        assert_eq!(
            paths,
            vec![path.clone(), dir.join(format!("out.roles.{ext}")), dir.join(format!("out.days.{ext}"))]
        );
        let s = read(&paths[0]);
        assert_eq!(s.shape(), t.summary.shape());
        assert_eq!(u64_at(&s, "town_wins", 0), 60);
        assert!((f64_at(&s, "town_lo", 0) - f64_at(&t.summary, "town_lo", 0)).abs() < 1e-12);
        assert_eq!(str_at(&s, "rules", 1), "no_kill_limit=off absence=0.05");
        let r = read(&paths[1]);
        assert_eq!(r.shape(), (6, 12));
        assert_eq!(str_at(&r, "role", 3), "don");
        let d = read(&paths[2]);
        assert_eq!(d.shape(), (5, 6));
        assert!((f64_at(&d, "share", 3) - 0.8).abs() < 1e-12);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tables_round_trip_csv() {
        write_and_read_back("csv");
    }

    #[test]
    fn tables_round_trip_parquet() {
        write_and_read_back("parquet");
    }

    #[test]
    fn out_format_by_extension() {
        assert_eq!(out_format(Path::new("a/b.parquet")), Ok(OutFormat::Parquet));
        assert_eq!(out_format(Path::new("b.PQ")), Ok(OutFormat::Parquet));
        assert_eq!(out_format(Path::new("b.csv")), Ok(OutFormat::Csv));
        let e = out_format(Path::new("x.json")).unwrap_err();
        assert!(e.contains("x.json"), "{e}");
        assert!(e.contains(".parquet") && e.contains(".csv"), "{e}");
        assert!(out_format(Path::new("noext")).unwrap_err().contains("noext"));
        let mut t = tables();
        let e = write_tables(&mut t, Path::new("x.json")).unwrap_err();
        assert!(e.contains("x.json"), "{e}");
    }
}
