//! Known answers: with `random` agents and `tie_break = random` (absence 0,
//! modkill 0) the chance that the town wins is exactly computable, and the
//! simulation must agree with it.
//!
//! **Derivation.** A `random` agent votes for a uniformly random other
//! living player, never PASS, never changes (random.rs). The leader is
//! lynched; a tie for the lead is broken by the host, uniformly among the
//! leaders (C12 with `tie_break = random`, also with 4 alive: C12.1 belongs
//! to the catastrophe procedure). The joint law of the votes is invariant
//! under any permutation of the living players, and so is "the leader, ties
//! broken uniformly"; hence the lynched player is uniform among the living,
//! and with `m` mafia and `t` town alive a mafioso is lynched with
//! probability m/(m+t). The day-1 pardon (C11.2) needs exactly one vote cast
//! for a player, but every living player votes, so it never applies. At
//! night every living shooter sends the nick drawn from the mafia's shared
//! stream (the same draw for all: C2's pre-agreed plan), a uniformly random
//! living non-mafia player, so the shot is unanimous and one town player
//! dies; the no-kill rule (C8) never triggers. The end is checked after every
//! elimination (C19): town wins when m = 0 (C17), the mafia when m ≥ t
//! (parity, C18). Roles inside a camp (Don, Commissar) change nothing: random
//! agents ignore what they learn. So the game is a Markov chain on (m, t),
//! and the recursion below gives the exact law of (winner, last day).

use mafia_agents::{Lineup, Strategy, Worker, master_key};
use mafia_engine::{Camp, EndCause, Game, NoLog, Preset, Role, Setup};
use std::collections::BTreeMap;

/// The exact law of (town wins, last day reached), from a day with `m`
/// mafia and `t` town alive.
fn exact(m: u32, t: u32) -> BTreeMap<(bool, u16), f64> {
    fn day(m: u32, t: u32, d: u16, p: f64, out: &mut BTreeMap<(bool, u16), f64>) {
        let lynch_mafia = m as f64 / (m + t) as f64;
        if m > 0 {
            after_lynch(m - 1, t, d, p * lynch_mafia, out);
        }
        if t > 0 {
            after_lynch(m, t - 1, d, p * (1.0 - lynch_mafia), out);
        }
    }
    fn after_lynch(m: u32, t: u32, d: u16, p: f64, out: &mut BTreeMap<(bool, u16), f64>) {
        if m == 0 {
            *out.entry((true, d)).or_default() += p; // C17
        } else if m >= t {
            *out.entry((false, d)).or_default() += p; // C18
        } else {
            // Night d: one town player is shot; then C19.
            let t = t - 1;
            if m >= t {
                *out.entry((false, d)).or_default() += p;
            } else {
                day(m, t, d + 1, p, out);
            }
        }
    }
    let mut out = BTreeMap::new();
    day(m, t, 1, 1.0, &mut out);
    out
}

struct Law {
    town: f64,
    mean_days: f64,
    var_days: f64,
    cells: BTreeMap<(bool, u16), f64>,
}

fn law(m: u32, t: u32) -> Law {
    let cells = exact(m, t);
    let total: f64 = cells.values().sum();
    assert!((total - 1.0).abs() < 1e-12, "the law sums to {total}");
    let town = cells.iter().filter(|(k, _)| k.0).map(|(_, p)| p).sum();
    let mean_days: f64 = cells.iter().map(|(k, p)| k.1 as f64 * p).sum();
    let var_days = cells.iter().map(|(k, p)| (k.1 as f64 - mean_days).powi(2) * p).sum();
    Law { town, mean_days, var_days, cells }
}

/// Counts per (town wins, last day), summed over two threads that each play
/// half of the game indices (each game depends only on seed and index, so
/// the sum does not depend on the split).
fn simulate(game: &Game, seed: u64, n: u64) -> BTreeMap<(bool, u16), u64> {
    let key = master_key(seed);
    let halves = [(0, n / 2), (n / 2, n)];
    let parts: Vec<BTreeMap<(bool, u16), u64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = halves
            .iter()
            .map(|&(lo, hi)| {
                scope.spawn(move || {
                    let mut w = Worker::new(Lineup::all(Strategy::Random), key);
                    let mut counts = BTreeMap::new();
                    for i in lo..hi {
                        let out = w.play(game, i, &mut NoLog);
                        assert_eq!(out.illegal_decisions, 0, "game {i}: {out:?}");
                        let town = match (out.winner, out.cause) {
                            (Some(Camp::Town), EndCause::MafiaEliminated) => true,
                            (Some(Camp::Mafia), EndCause::Parity) => false,
                            _ => panic!("game {i}: an end the derivation excludes: {out:?}"),
                        };
                        *counts.entry((town, out.days)).or_insert(0u64) += 1;
                    }
                    counts
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut total = BTreeMap::new();
    for part in parts {
        for (k, c) in part {
            *total.entry(k).or_insert(0) += c;
        }
    }
    total
}

/// Simulates `n` games and compares with the exact law.
///
/// Tolerance: 4.5 standard errors of the estimate, |p̂ − p| < 4.5·√(p(1−p)/N)
/// for the town's win probability and |d̄ − E[d]| < 4.5·√(Var d/N) for the
/// mean last day (the central limit theorem holds well at these N). A
/// correct engine fails one of these with probability ~7e-6 each; the seed is
/// fixed, so the result is reproducible. Each (winner, day) cell is checked
/// at 5 standard errors (~6e-7 each).
fn check_against_law(name: &str, game: &Game, m: u32, t: u32, n: u64) -> (f64, f64) {
    let law = law(m, t);
    let counts = simulate(game, 0xA11CE, n);
    let nf = n as f64;
    assert_eq!(counts.values().sum::<u64>(), n);
    for k in counts.keys() {
        assert!(law.cells.contains_key(k), "{name}: impossible outcome {k:?}");
    }

    let town_wins: u64 = counts.iter().filter(|(k, _)| k.0).map(|(_, c)| c).sum();
    let p_hat = town_wins as f64 / nf;
    let se = (law.town * (1.0 - law.town) / nf).sqrt();
    eprintln!(
        "{name}: exact P(town) = {:.9}, simulated {p_hat:.6} over {n} games ({:+.2} SE)",
        law.town,
        (p_hat - law.town) / se
    );
    assert!(
        (p_hat - law.town).abs() < 4.5 * se,
        "{name}: P(town wins) = {p_hat} over {n} games, exact {} (SE {se})",
        law.town
    );

    let mean = counts.iter().map(|(k, &c)| k.1 as f64 * c as f64).sum::<f64>() / nf;
    let se_days = (law.var_days / nf).sqrt();
    eprintln!(
        "{name}: exact E[days] = {:.9}, simulated {mean:.6} ({:+.2} SE)",
        law.mean_days,
        (mean - law.mean_days) / se_days
    );
    assert!(
        (mean - law.mean_days).abs() < 4.5 * se_days,
        "{name}: mean days {mean} over {n} games, exact {} (SE {se_days})",
        law.mean_days
    );

    for (&k, &q) in &law.cells {
        let got = *counts.get(&k).unwrap_or(&0) as f64 / nf;
        let se = (q * (1.0 - q) / nf).sqrt();
        assert!(
            (got - q).abs() < 5.0 * se,
            "{name}: P(town wins = {}, last day = {}) = {got}, exact {q} (SE {se})",
            k.0,
            k.1
        );
    }
    (p_hat, mean)
}

fn random_tie_break(mut setup: Setup) -> Game {
    setup.rules.set("tie_break", "random").unwrap();
    setup.rules.set("absence", "0").unwrap();
    setup.rules.set("modkill", "0").unwrap();
    Game::new(&setup).unwrap()
}

#[test]
fn the_recursion_matches_closed_forms() {
    // One mafioso, t town: the town must lynch him before parity.
    // 1 vs 4: day 1 (5 alive) 1/5; else night → 1 vs 2, day 2 (3 alive) 1/3.
    assert!((law(1, 4).town - 7.0 / 15.0).abs() < 1e-15);
    // 1 vs 5: 1/6, else 1 vs 3 on day 2 (4 alive): 1/4; else 1 vs 1 → parity.
    assert!((law(1, 5).town - 3.0 / 8.0).abs() < 1e-15);
    // 1 vs 2: lynch him (1/3) or parity.
    let l = law(1, 2);
    assert!((l.town - 1.0 / 3.0).abs() < 1e-15 && (l.mean_days - 1.0).abs() < 1e-15);
    // 2 vs 5 by hand: day 1 (7 alive) mafia 2/7 → 1 vs 5 → night → 1 vs 4
    // (day 2: 1/5 + 4/5·1/3 = 7/15); town 5/7 → 2 vs 4 → night → 2 vs 3 →
    // day 2: mafia 2/5 → 1 vs 3 → night → 1 vs 2 → day 3: 1/3; else parity.
    let p = 2.0 / 7.0 * (7.0 / 15.0) + 5.0 / 7.0 * (2.0 / 5.0) * (1.0 / 3.0);
    assert!((law(2, 5).town - p).abs() < 1e-15);
    // 3 vs 7 by hand (M = a mafioso lynched, T = a town player lynched; the
    // living count is 10, 8, 6, 4 on days 1–4, and two T lynches give
    // parity): MMM wins on day 3, 3/10·2/8·1/6 = 1/80; TMMM, MTMM, MMTM win
    // on day 4, (7·3·2·1 + 3·6·2·1 + 3·2·5·1)/1920 = 108/1920. In all 11/160.
    let l = law(3, 7);
    assert!((l.town - 11.0 / 160.0).abs() < 1e-15, "{}", l.town);
    assert!((l.cells[&(true, 3)] - 1.0 / 80.0).abs() < 1e-15);
    assert!((l.cells[&(true, 4)] - 108.0 / 1920.0).abs() < 1e-15);
}

/// C1's classic preset: the Don and 2 mafiosi against 7 town.
#[test]
fn classic_preset_town_win_rate_is_exact() {
    let game = random_tie_break(Preset::find("classic").unwrap().setup());
    assert_eq!(game.count(Role::Don) + game.count(Role::Mafioso), 3);
    assert_eq!(game.players(), 10);
    let (p_hat, _) = check_against_law("classic 3v7", &game, 3, 7, 1_000_000);
    assert!(p_hat > 0.0, "the town never won");
}

/// The 13-player preset: the Don and 3 mafiosi against 9 town.
#[test]
fn classic_13_town_win_rate_is_exact() {
    let game = random_tie_break(Preset::find("classic-13").unwrap().setup());
    assert_eq!(game.count(Role::Don) + game.count(Role::Mafioso), 4);
    assert_eq!(game.players(), 13);
    check_against_law("classic-13 4v9", &game, 4, 9, 400_000);
}

/// One mafioso and 5 citizens: day 2 has exactly 4 alive, where the host
/// still breaks ties at random (no C12.1 outside the catastrophe); exact
/// P(town) = 3/8.
#[test]
fn one_mafioso_five_citizens_town_win_rate_is_exact() {
    let setup = Setup::new("1v5").with(Role::Mafioso, 1).with(Role::Citizen, 5);
    let game = random_tie_break(setup);
    check_against_law("1v5", &game, 1, 5, 400_000);
    assert!((law(1, 5).town - 0.375).abs() < 1e-15);
}
