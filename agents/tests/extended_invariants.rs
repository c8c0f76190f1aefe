//! Invariants of the extended rule set (E1–E32) over seeded random setups.
//!
//! Setups are drawn from every role of both rule sets (each named role at
//! most once, plain citizens and mafiosi any number), 4–32 players, with
//! random rule variants; `Game::new` refuses what is not a game (one camp,
//! parity before day 1) and the draw is repeated. Every game is played with
//! a `Vec<Event>` log and read back by `mafia_check::extended::check`, an
//! independent reading of the rules that follows the log event by event (it
//! never asks the engine what is legal: it keeps its own statuses, carries
//! and counts; the checker itself is in `check/src/extended.rs`). A failure
//! names the setup, the lineup, the game index and the broken clause, and
//! prints the whole log.
//!
//! What is checked is listed in the checker's own docs
//! (`check/src/extended.rs`); the suite asserts that every rule the checker
//! reads was exercised (`assert_exercised`), and that each kind of corruption
//! of a valid log is refused for the right reason.

// Let chains are newer than the workspace's rust-version (1.85).
#![allow(clippy::collapsible_if)]

use mafia_agents::{Lineup, Worker, master_key};
use mafia_check::extended::{Seen, check};
use mafia_check::{Cur, dump};
use mafia_engine::{
    Camp, DeathCause, EndCause, Event, Fail, Game, Killer, LynchResult, NightAbility, NoLog, PlayerSet, Report, Role,
    Seat, Setup, Status, below,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const SEED: u64 = 0xE57E_2DED;

// ---------------------------------------------------------------------------
// Random setups.

/// A drawn setup: the checked game and a label naming it for failures.
struct Drawn {
    game: Game,
    label: String,
}

fn choose<'a>(rng: &mut ChaCha8Rng, options: &[&'a str]) -> &'a str {
    options[below(rng, options.len() as u32) as usize]
}

/// Setup `index` of the suite: 4–32 players, a random subset of the named
/// roles of both rule sets (each at most once), the rest plain citizens and
/// mafiosi, and random rule variants. Redrawn until `Game::new` accepts it.
fn draw_setup(index: u64) -> Drawn {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let named: Vec<Role> = Role::ALL.into_iter().filter(|r| !r.info().plain).collect();
    assert_eq!(named.len(), 22, "every named role of both sets");
    loop {
        let n = 4 + below(&mut rng, 29) as usize;
        let mut pool = named.clone();
        for i in (1..pool.len()).rev() {
            let j = below(&mut rng, i as u32 + 1) as usize;
            pool.swap(i, j);
        }
        let k = below(&mut rng, pool.len().min(n) as u32 + 1) as usize;
        let mut setup = Setup::new(&format!("random-{index}"));
        for &r in &pool[..k] {
            setup.counts[r as usize] += 1;
        }
        // Plain players: each a mafioso with probability p/8.
        let p = below(&mut rng, 4);
        for _ in k..n {
            let r = if below(&mut rng, 8) < p { Role::Mafioso } else { Role::Citizen };
            setup.counts[r as usize] += 1;
        }
        let mut rules: Vec<(&str, &str)> = vec![
            ("resolution", choose(&mut rng, &["graph", "sequential"])),
            ("blast_heal", choose(&mut rng, &["false", "true"])),
            ("chosen_secret_votes", choose(&mut rng, &["0", "1", "2", "3"])),
            ("camp_kill", choose(&mut rng, &["auto", "unanimous", "leader"])),
            ("mafia_win", choose(&mut rng, &["auto", "parity", "elimination"])),
            ("no_kill_limit", choose(&mut rng, &["auto", "off", "1", "2", "3"])),
            ("absence", choose(&mut rng, &["0", "0", "0", "0.1"])),
            ("reveal_roles_on_death", choose(&mut rng, &["false", "true"])),
            ("tie_break", choose(&mut rng, &["catastrophe", "catastrophe", "catastrophe", "random"])),
            ("modkill", choose(&mut rng, &["0", "0", "0", "0", "0", "0.02"])),
            ("runoff_all_tied", choose(&mut rng, &["revote", "nobody"])),
            ("thief_at_psycho", choose(&mut rng, &["guest", "house"])),
            ("repeat_target", choose(&mut rng, &["named", "reached"])),
        ];
        rules.push(("day_cap", choose(&mut rng, &["50", "50", "50", "50", "3", "6"])));
        // Drawn after the others, so the settings above stay as they were drawn.
        rules.push(("hex_takes_secret_votes", choose(&mut rng, &["false", "true"])));
        rules.push(("lynch_limit", choose(&mut rng, &["lynch", "day"])));
        rules.push(("runoff_marks", choose(&mut rng, &["plain", "marked"])));
        for (key, value) in &rules {
            setup.rules.set(key, value).unwrap_or_else(|e| panic!("{key}={value}: {e}"));
        }
        let Ok(game) = Game::new(&setup) else { continue };
        let roles: Vec<String> = Role::ALL
            .iter()
            .filter(|r| setup.counts[**r as usize] > 0)
            .map(|r| format!("{}×{}", r.name(), setup.counts[*r as usize]))
            .collect();
        let label = format!("setup {index} ({n} players: {}; rules {})", roles.join(" "), {
            let d = setup.rules.diff_from_default();
            if d.is_empty() { "default".to_string() } else { d.join(" ") }
        });
        return Drawn { game, label };
    }
}

fn make_lineup(spec: &str) -> Lineup {
    let mut l = Lineup::default();
    l.apply(spec).unwrap_or_else(|e| panic!("lineup {spec}: {e}"));
    l
}

// ---------------------------------------------------------------------------
// The suite.

/// Plays `games` games of each setup in `setups` with each lineup and checks every one.
fn run_suite(lineups: &[&str], setups: std::ops::Range<u64>, games: u64) -> Seen {
    let mut seen = Seen::default();
    let mut log: Vec<Event> = Vec::new();
    for index in setups {
        let drawn = draw_setup(index);
        for spec in lineups {
            let mut w = Worker::new(make_lineup(spec), master_key(SEED ^ index));
            for i in 0..games {
                log.clear();
                let out = w.play(&drawn.game, i, &mut log);
                if let Err(e) = check(&drawn.game, &log, &out, &mut seen) {
                    panic!("{} lineup `{spec}` game {i}: {e}\noutcome {out:?}\n{}", drawn.label, dump(&log));
                }
            }
        }
    }
    eprintln!("{lineups:?}: {seen:?}");
    seen
}

/// Setups per test and games per setup and lineup.
const SETUPS: u64 = 600;
const GAMES: u64 = 40;

fn assert_exercised(seen: &Seen) {
    assert!(seen.extended_games * 10 >= seen.games * 9, "mostly extended games: {seen:?}");
    for (what, count) in [
        ("successes", seen.successes),
        ("blocked moves", seen.blocked),
        ("moves at a beaten target", seen.target_beaten),
        ("redirects", seen.redirects),
        ("spare lives", seen.spare_lives),
        ("guest deaths", seen.guest_deaths),
        ("guests saved", seen.guests_saved),
        ("blasts", seen.blasts),
        ("hexes held", seen.hexes_held),
        ("mines exploded", seen.mines_exploded),
        ("votes removed", seen.votes_removed),
        ("secret votes", seen.secret_votes),
        ("borrows", seen.borrows),
        ("Boss's proxy moves", seen.proxies),
        ("promotions", seen.promotions),
        ("bandits met", seen.bandits_met),
        ("kills stopped", seen.kills_stopped),
        ("leader kills", seen.leader_kills),
        ("secret votes of a Role Prostitute who borrowed the Chosen", seen.borrowed_secret_votes),
        ("Sleepwalkers' reports", seen.watch_reports),
        ("watchers beaten too", seen.beaten_watching),
        ("swindles of the Trickster", seen.unredirectable),
        ("robberies of the Psycho under thief_at_psycho = house", seen.robbed_psycho_house),
        ("counted nights whose deaths were not the mafia's kill", seen.counted_other_kills),
        ("bars set by repeat_target = reached", seen.reached_bars),
        ("secret votes a hex took (hex_takes_secret_votes)", seen.hexed_secret_voters),
        ("runoff votes of the tied, all the living tied", seen.all_tied_votes),
    ] {
        assert!(count > 0, "no {what} in the suite: {seen:?}");
    }
    for cause in [EndCause::MafiaEliminated, EndCause::TownEliminated, EndCause::OnlyBandits, EndCause::DayCap] {
        assert!(seen.ends[cause as usize] > 0, "no game ended by {}: {seen:?}", cause.name());
    }
}

#[test]
fn e1_e32_invariants_random_setups_random_agents() {
    let seen = run_suite(&["random"], 0..SETUPS, GAMES);
    assert_exercised(&seen);
    // C12.6/E25 (`lynch_limit = day`): two hanged and a third mined is rare
    // (the classic agents' suite has none), so it is asserted here only.
    assert!(seen.mines_withheld > 0, "no mine kept from a third by two hanged: {seen:?}");
    // E25/E28 (`runoff_marks = marked`): the marks on the runoffs.
    assert!(seen.runoff_votes_removed > 0 && seen.runoff_mines > 0, "runoff marks unexercised: {seen:?}");
    assert!(
        seen.cycles_broken > 0 && seen.overruled > 0 && seen.sequential_late_status > 0,
        "E29's cycles, overruled redirects and the sequence's late statuses were exercised: {seen:?}"
    );
    // E12: an Actor's nicks (appointed, or the last of the mafia); E22/E29:
    // swindles of a watcher walking round a house the Thug came to.
    assert!(seen.actor_nicks > 0 && seen.swindles_on_beaten_walkers > 0, "{seen:?}");
}

#[test]
fn e1_e32_invariants_random_setups_classic_agents() {
    let seen = run_suite(&["classic"], SETUPS..2 * SETUPS, GAMES);
    assert_exercised(&seen);
}

#[test]
fn e1_e32_invariants_random_setups_forum_agents() {
    let seen = run_suite(&["forum"], 4 * SETUPS..5 * SETUPS, GAMES);
    // Deliberate play leaves some corners to the random suite (the forum
    // Swindler never swindles the Trickster); the common ones must show.
    assert!(seen.extended_games > 10_000 && seen.proxies > 0 && seen.secret_votes > 0, "{seen:?}");
    assert!(seen.promotions > 0 && seen.borrows > 0 && seen.kills_stopped > 0 && seen.redirects > 0, "{seen:?}");
}

#[test]
fn e1_e32_invariants_random_setups_mixed_lineups() {
    let seen = run_suite(&["classic,mafia=random", "random,bandits=classic"], 2 * SETUPS..3 * SETUPS, GAMES / 2);
    assert_exercised(&seen);
}

/// The observation API gives legal targets: `random` agents choose only
/// from what their observation offers, and the engine refuses none of it.
#[test]
fn random_agents_choose_only_legal_moves_in_extended_games() {
    let mut games = 0u64;
    let mut illegal = 0u64;
    let mut extended = 0u64;
    for index in 10_000..10_000 + 4 * SETUPS {
        let drawn = draw_setup(index);
        extended += drawn.game.is_extended() as u64;
        let mut w = Worker::new(make_lineup("random"), master_key(SEED ^ index));
        for i in 0..200 {
            let out = w.play(&drawn.game, i, &mut NoLog);
            games += 1;
            illegal += out.illegal_decisions as u64;
            assert!(out.days >= 1 && out.days <= drawn.game.rules().day_cap, "{}: game {i} {out:?}", drawn.label);
        }
    }
    assert!(extended * 10 >= 4 * SETUPS * 9, "mostly extended setups: {extended}");
    assert_eq!(illegal, 0, "{illegal} illegal decisions in {games} games");
}

/// The phase each event of a log belongs to (`None` before day 1).
fn phases(log: &[Event]) -> Vec<Cur> {
    let mut cur = Cur::Start;
    log.iter()
        .map(|e| {
            match *e {
                Event::DayStart { day, .. } => cur = Cur::Day(day),
                Event::NightStart { night, .. } => cur = Cur::Night(night),
                _ => {}
            }
            cur
        })
        .collect()
}

/// The checker has teeth: valid logs pass it, and each kind of corruption
/// of a valid log is refused for the right reason.
#[test]
fn the_extended_checker_refuses_broken_logs() {
    const KINDS: usize = 18;
    let mut tried = [0u32; KINDS];
    for index in 20_000..20_040 {
        let drawn = draw_setup(index);
        let game = &drawn.game;
        let mut w = Worker::new(make_lineup("random"), master_key(SEED ^ index));
        for i in 0..25 {
            let mut log = Vec::new();
            let out = w.play(game, i, &mut log);
            check(game, &log, &out, &mut Seen::default()).expect("a valid game passes");
            let refused = |bad: &[Event], why: &str| {
                let err = check(game, bad, &out, &mut Seen::default()).expect_err(why);
                assert!(err.contains(why), "expected `{why}`, got: {err}\n{}", dump(bad));
            };
            let phase = phases(&log);
            // Who was alive at the start of the night of event `k`.
            let alive_then = |k: usize| {
                log[..k].iter().rev().find_map(|e| match *e {
                    Event::NightStart { alive, .. } => Some(alive),
                    _ => None,
                })
            };
            let act_of = |idx: usize, seat: Seat| {
                log[..idx].iter().rev().find_map(|e| match *e {
                    Event::NightAct { seat: s, target, .. } if s == seat => Some(target),
                    _ => None,
                })
            };
            // The first event after `idx` that ends the night's resolution.
            let resolution_end = |idx: usize| {
                idx + log[idx..]
                    .iter()
                    .position(|e| {
                        matches!(
                            e,
                            Event::Died { .. }
                                | Event::NoKillCount { .. }
                                | Event::DayStart { .. }
                                | Event::GameEnd { .. }
                        )
                    })
                    .unwrap()
            };

            // 0. No end.
            refused(&log[..log.len() - 1], "did not end with a GameEnd");
            tried[0] += 1;
            // 1. A blocked maker succeeds.
            let blocked = log.iter().position(|e| {
                matches!(e, Event::Failed { ability, reason: Fail::Blocked { .. }, .. }
                    if matches!(ability, NightAbility::Heal | NightAbility::Guard | NightAbility::Mine | NightAbility::Watch))
            });
            if let Some(f) = blocked {
                let Event::Failed { seat, ability, .. } = log[f] else { unreachable!() };
                let redirected = log[..f]
                    .iter()
                    .rev()
                    .take_while(|e| !matches!(e, Event::NightStart { .. }))
                    .any(|e| matches!(e, Event::Redirected { victim, .. } if *victim == seat));
                if !redirected {
                    let mut bad = log.clone();
                    bad[f] = Event::Succeeded { seat, ability, target: act_of(f, seat).flatten() };
                    refused(&bad, "while blocked");
                    tried[1] += 1;
                }
            }
            // 2. A failed robbery leaves a status.
            if let Some(f) = log.iter().position(|e| matches!(e, Event::Failed { ability: NightAbility::Rob, .. })) {
                let Event::Failed { seat, .. } = log[f] else { unreachable!() };
                if let Some(Some(t)) = act_of(f, seat) {
                    let mut bad = log.clone();
                    bad.insert(resolution_end(f), Event::StatusSet { seat: t, status: Status::Robbed, by: seat });
                    refused(&bad, "failed move put");
                    tried[2] += 1;
                }
            }
            // 3. A hex holds that nobody cast.
            if game.is_extended() {
                if let Some(ns) = log.iter().position(|e| matches!(e, Event::NightStart { night: 1, .. })) {
                    let Event::NightStart { alive, .. } = log[ns] else { unreachable!() };
                    let mut bad = log.clone();
                    bad.insert(ns + 1, Event::HexHolds { seat: alive.lowest().unwrap() });
                    refused(&bad, "E18");
                    tried[3] += 1;
                }
            }
            // 4. A second spare life.
            if let Some(l) = log.iter().position(|e| matches!(e, Event::SpareLife { .. })) {
                let mut bad = log.clone();
                bad.insert(l + 1, log[l]);
                refused(&bad, "E21: a second spare life");
                tried[4] += 1;
            }
            // 5. The Swindler names a victim she swindled before.
            if let Some(r) = log.iter().position(|e| matches!(e, Event::Redirected { .. })) {
                let Event::Redirected { by, victim, .. } = log[r] else { unreachable!() };
                let later = log[r..].iter().position(
                    |e| matches!(e, Event::NightAct { seat, ability: NightAbility::Swindle, .. } if *seat == by),
                );
                let usable = later.filter(|&a| {
                    alive_then(r + a).is_some_and(|al| al.contains(victim))
                        && !matches!(log[r + a], Event::NightAct { second: Some(u), .. } if u == victim)
                });
                if let Some(a) = usable {
                    let mut bad = log.clone();
                    if let Event::NightAct { target, .. } = &mut bad[r + a] {
                        *target = Some(victim);
                    }
                    refused(&bad, "E11");
                    tried[5] += 1;
                }
            }
            // 6. A heal of the same player two nights running: the player named
            // last night (`repeat_target = named`) or the one the heal reached
            // (`reached`).
            let reached = game.rules().get("repeat_target").as_deref() == Some("reached");
            for (h, e) in log.iter().enumerate() {
                let Event::NightAct { seat, ability: NightAbility::Heal, target, .. } = *e else { continue };
                let Cur::Night(night) = phase[h] else { unreachable!() };
                let bar = if reached {
                    log[h..].iter().enumerate().find_map(|(k, e)| match *e {
                        Event::Succeeded { seat: s, ability: NightAbility::Heal, target }
                            if s == seat && phase[h + k] == Cur::Night(night) =>
                        {
                            target
                        }
                        _ => None,
                    })
                } else {
                    target
                };
                let next = log[h..].iter().enumerate().position(|(k, e)| {
                    phase[h + k] == Cur::Night(night + 1)
                        && matches!(e, Event::NightAct { seat: s, ability: NightAbility::Heal, .. } if *s == seat)
                });
                let Some(t) = bar else { continue };
                if let Some(k) = next.filter(|&k| alive_then(h + k).is_some_and(|al| al.contains(t))) {
                    let mut bad = log.clone();
                    if let Event::NightAct { target: x, .. } = &mut bad[h + k] {
                        *x = Some(t);
                    }
                    refused(&bad, "two nights running");
                    tried[6] += 1;
                    break;
                }
            }
            // 7. A dead player moves.
            if let Some(d) = log.iter().position(|e| matches!(e, Event::Died { .. })) {
                let Event::Died { seat: dead, .. } = log[d] else { unreachable!() };
                if let Some(a) = log[d..].iter().position(|e| matches!(e, Event::NightAct { .. })) {
                    let mut bad = log.clone();
                    if let Event::NightAct { seat, .. } = &mut bad[d + a] {
                        *seat = dead;
                    }
                    refused(&bad, "acted after its death");
                    tried[7] += 1;
                }
            }
            // 8. A built-in agent's illegal decision.
            {
                let mut bad = log.clone();
                bad.insert(game.players() + 1, Event::Illegal { seat: Seat::new(0), what: "vote" });
                refused(&bad, "illegal decisions");
                tried[8] += 1;
            }
            // 9. A kill reaches a healed or guarded player.
            let stopped = log.iter().position(|e| {
                matches!(
                    e,
                    Event::KillFailed { reason: Fail::TargetHealed | Fail::TargetGuarded, by: Killer::Camp { .. }, .. }
                )
            });
            if let Some(k) = stopped {
                let Event::KillFailed { target, by, .. } = log[k] else { unreachable!() };
                let mut bad = log.clone();
                bad[k] = Event::NightKill { target, by };
                refused(&bad, "through");
                tried[9] += 1;
            }
            // 10. The Psycho's guest announced after the others (E32).
            for (g, e) in log.iter().enumerate() {
                let Event::NightKill { target: guest, by: Killer::Guest(_) } = *e else { continue };
                let end = resolution_end(g);
                let died: Vec<usize> = (end..log.len())
                    .take_while(|&k| matches!(log[k], Event::Died { cause: DeathCause::Killed, .. }))
                    .collect();
                let first_guest =
                    died.first().is_some_and(|&k| matches!(log[k], Event::Died { seat, .. } if seat == guest));
                if died.len() >= 2 && first_guest {
                    let mut bad = log.clone();
                    bad.swap(died[0], died[1]);
                    refused(&bad, "E32");
                    tried[10] += 1;
                    break;
                }
            }
            let roles: Vec<Role> = log[..game.players()]
                .iter()
                .map(|e| match *e {
                    Event::Deal { role, .. } => role,
                    _ => unreachable!(),
                })
                .collect();
            let seat_of = |r: Role| roles.iter().position(|&x| x == r).map(Seat::from_index);
            // The night's events from its start `ns` to its first step marker.
            let first_step = |ns: usize| ns + log[ns..].iter().position(|e| matches!(e, Event::Step(_))).unwrap();
            // 11. C8: a night whose only deaths were not the mafia's kill (the
            // guest, the Shooter, the blast) goes uncounted.
            for (c, e) in log.iter().enumerate() {
                if !matches!(e, Event::NoKillCount { .. }) || !matches!(log.get(c + 1), Some(Event::DayStart { .. })) {
                    continue;
                }
                let ns = log[..c].iter().rposition(|e| matches!(e, Event::NightStart { .. })).unwrap();
                let other_kill = log[ns..c].iter().any(|e| {
                    matches!(e, Event::NightKill { by: Killer::Guest(_) | Killer::Shooter(_) | Killer::Blast(_), .. })
                });
                if other_kill {
                    let mut bad = log.clone();
                    bad.remove(c);
                    refused(&bad, "C8: a night without the mafia's kill was not counted");
                    tried[11] += 1;
                    break;
                }
            }
            // 12. E12: the Actor, not appointed and not the last of the mafia, sends a nick.
            if let Some(actor) = seat_of(Role::Actor) {
                for (ns, e) in log.iter().enumerate() {
                    let Event::NightStart { alive, .. } = *e else { continue };
                    let step = first_step(ns);
                    let appointed =
                        log[..step].iter().any(|e| matches!(e, Event::Promoted { seat, .. } if *seat == actor));
                    let absent = log[ns..step].iter().any(|e| matches!(e, Event::Absent { seat } if *seat == actor));
                    let mafia = alive.iter().filter(|&s| roles[s].camp() == Camp::Mafia).count();
                    if alive.contains(actor) && !appointed && !absent && mafia > 1 {
                        let mut bad = log.clone();
                        let target = alive.iter().find(|&s| s != actor).unwrap();
                        bad.insert(step, Event::NightKillNick { seat: actor, target });
                        refused(&bad, "C4/E12: a nick from the actor");
                        tried[12] += 1;
                        break;
                    }
                }
            }
            // 13. E22: a watch report with one town visitor more than came (a camp
            // that did not visit, or two visitors where one came).
            if let Some(l) = log.iter().position(|e| matches!(e, Event::Learned { report: Report::Watch { .. }, .. })) {
                let mut bad = log.clone();
                if let Event::Learned { report: Report::Watch { camps, .. }, .. } = &mut bad[l] {
                    camps[Camp::Town as usize] += 1;
                }
                refused(&bad, "E22: the report on");
                tried[13] += 1;
            }
            // 14. E28: a swindle said to fail on the Trickster's pick, of a player who made none.
            let swindle_failed = log.iter().position(|e| {
                matches!(
                    e,
                    Event::Failed {
                        ability: NightAbility::Swindle,
                        reason: Fail::NothingToRedirect | Fail::TargetMafia,
                        ..
                    }
                )
            });
            if let Some(f) = swindle_failed {
                let mut bad = log.clone();
                if let Event::Failed { reason, .. } = &mut bad[f] {
                    *reason = Fail::Unredirectable;
                }
                refused(&bad, "E28: unredirectable, but");
                tried[14] += 1;
            }
            // 15. E16/E19: secret votes from a player who is neither the Chosen
            // nor a Role Prostitute who borrowed him.
            if let Some(v) = log.iter().position(|e| matches!(e, Event::SecretVotes { .. })) {
                let Event::SecretVotes { seat: voter, .. } = log[v] else { unreachable!() };
                let alive = log[..v]
                    .iter()
                    .rev()
                    .find_map(|e| match *e {
                        Event::DayStart { alive, .. } => Some(alive),
                        _ => None,
                    })
                    .unwrap();
                let other = alive.iter().find(|&s| s != voter && !matches!(roles[s], Role::Chosen | Role::Prostitute));
                if let Some(other) = other {
                    let mut bad = log.clone();
                    if let Event::SecretVotes { seat, .. } = &mut bad[v] {
                        *seat = other;
                    }
                    refused(&bad, "E16/E19: secret votes from the");
                    tried[15] += 1;
                }
            }
            // 16. E9 (`thief_at_psycho = house`): a robbery of the Psycho succeeds.
            if let Some(f) = log
                .iter()
                .position(|e| matches!(e, Event::Failed { ability: NightAbility::Rob, reason: Fail::TargetPsycho, .. }))
            {
                let Event::Failed { seat, .. } = log[f] else { unreachable!() };
                let mut bad = log.clone();
                bad[f] = Event::Succeeded { seat, ability: NightAbility::Rob, target: seat_of(Role::Psycho) };
                refused(&bad, "E9: the Psycho robbed");
                tried[16] += 1;
            }
            // 17. C12 (`runoff_all_tied = revote`): a tied voter votes for himself.
            let mut tie = PlayerSet::EMPTY;
            for (r, e) in log.iter().enumerate() {
                match *e {
                    Event::Lynch(LynchResult::Tie(t)) => tie = t,
                    Event::RunoffVote { seat, .. } if tie.contains(seat) => {
                        let mut bad = log.clone();
                        if let Event::RunoffVote { choice, .. } = &mut bad[r] {
                            *choice = seat;
                        }
                        refused(&bad, "voted for himself");
                        tried[17] += 1;
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
    eprintln!("corruptions tried: {tried:?}");
    assert!(tried.iter().all(|&t| t > 0), "every corruption was tried: {tried:?}");
}
