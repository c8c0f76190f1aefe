//! Invariants over many seeded games, checked from the event log and the
//! outcome (clauses C1–C19 of `rules/classic.md`), plus replay determinism,
//! common random numbers and the observation boundary (C2, C9).
//!
//! Every game of every configuration goes through `mafia_check::classic::check`,
//! an independent re-reading of the rules that follows the log event by
//! event (what it checks is in `check/src/classic.rs`). A failure names the
//! configuration, the game index and the broken clause, and prints the whole
//! event log.

// `is_multiple_of` is newer than the workspace's rust-version (1.85).
#![allow(clippy::manual_is_multiple_of)]

use mafia_agents::{Lineup, Purpose, Stream, Worker, master_key};
use mafia_check::classic::{Seen, check};
use mafia_check::dump;
use mafia_engine::{
    Camp, EndCause, Event, Game, LynchResult, NightChoice, NightMoves, NoLog, Observation, Outcome, PlayerSet, Players,
    Preset, Publication, Role, Seat, State, Vote, below,
};
use std::fmt::Write as _;

const SEED: u64 = 0x5EED_2024;
const PRESETS: [&str; 2] = ["classic", "classic-13"];
const LINEUPS: [&str; 6] =
    ["random", "classic", "forum", "classic,mafia=random", "random,mafia=classic", "forum,mafia=mafia:skip=0.3:fake=1"];
/// Games per (preset, lineup) in each rules variant.
const GAMES: u64 = 3000;

fn make_game(preset: &str, rules: &[(&str, &str)]) -> Game {
    let mut setup = Preset::find(preset).expect("a built-in preset").setup();
    for &(k, v) in rules {
        setup.rules.set(k, v).unwrap_or_else(|e| panic!("rule {k}={v}: {e}"));
    }
    Game::new(&setup).unwrap_or_else(|e| panic!("{preset} {rules:?}: {e}"))
}

fn make_lineup(spec: &str) -> Lineup {
    let mut l = Lineup::default();
    l.apply(spec).unwrap_or_else(|e| panic!("lineup {spec}: {e}"));
    l
}

/// Plays `GAMES` games per preset and lineup under `rules` and checks each.
fn run_variant(rules: &[(&str, &str)]) -> Seen {
    run_variant_traced(rules).0
}

/// [`run_variant`], with the configuration, game and log of the first
/// C12.2/C12.8 violation counted in `Seen::tied_runoff_votes`.
fn run_variant_traced(rules: &[(&str, &str)]) -> (Seen, Option<String>) {
    let mut seen = Seen::default();
    let mut tied_runoff_game = None;
    let mut log: Vec<Event> = Vec::new();
    for preset in PRESETS {
        let game = make_game(preset, rules);
        for spec in LINEUPS {
            let mut w = Worker::new(make_lineup(spec), master_key(SEED));
            for i in 0..GAMES {
                log.clear();
                let out = w.play(&game, i, &mut log);
                let tied_before = seen.tied_runoff_votes;
                if let Err(e) = check(&game, &log, &out, &mut seen) {
                    panic!(
                        "{preset} {rules:?} lineup `{spec}` seed {SEED:#x} game {i}: {e}\noutcome {out:?}\n{}",
                        dump(&log)
                    );
                }
                if seen.tied_runoff_votes > tied_before && tied_runoff_game.is_none() {
                    tied_runoff_game = Some(format!(
                        "{preset} {rules:?} lineup `{spec}` seed {SEED:#x} game {i}: {}\n{}",
                        seen.tied_runoff_first.as_deref().unwrap_or(""),
                        dump(&log)
                    ));
                }
            }
        }
    }
    eprintln!(
        "{rules:?}: {} games, ends {:?}, ties {}, revotes {}, hang-both {}, all tied {} (votes {}), silent {}, \
         tied runoff votes {}",
        seen.games,
        seen.ends,
        seen.lynch_ties,
        seen.revotes,
        seen.hang_both_votes,
        seen.all_tied_runoffs,
        seen.all_tied_votes,
        seen.silent_runoffs,
        seen.tied_runoff_votes
    );
    (seen, tied_runoff_game)
}

fn ends(seen: &Seen, c: EndCause) -> u64 {
    seen.ends[c as usize]
}

#[test]
fn invariants_default_rules() {
    let s = run_variant(&[]);
    assert_eq!(s.games, 2 * LINEUPS.len() as u64 * GAMES);
    assert!(ends(&s, EndCause::MafiaEliminated) > 0 && ends(&s, EndCause::Parity) > 0);
    // The catastrophe (C12) in all its branches was exercised.
    assert!(s.lynch_ties > 0 && s.revotes > 0 && s.hang_both_votes > 0, "{s:?}");
    assert!(s.no_runoff_at_four > 0 && s.two_lynched > 0, "{s:?}");
    // C12 (`runoff_all_tied = revote`, the default): all the living tied, the tied revote.
    assert!(s.all_tied_runoffs > 0 && s.all_tied_votes > 0 && s.silent_runoffs == 0, "{s:?}");
    assert!(s.vote_changes > 0 && s.camp_checks > 0 && s.role_checks > 0, "{s:?}");
    assert_eq!(s.absences + s.modkills + s.revealed_deaths, 0, "{s:?}");
    assert_eq!(s.random_tie_breaks, 0);
}

#[test]
fn invariants_tie_break_random() {
    let s = run_variant(&[("tie_break", "random")]);
    assert!(s.random_tie_breaks > 0, "{s:?}");
    assert_eq!(s.revotes + s.hang_both_votes + s.no_runoff_at_four, 0, "{s:?}");
}

#[test]
fn invariants_absence() {
    let s = run_variant(&[("absence", "0.2")]);
    assert!(s.absences > 0 && s.night_misses > 0, "{s:?}");
    assert!(ends(&s, EndCause::NoKillRule) > 0, "{s:?}");
}

#[test]
fn invariants_modkill() {
    let s = run_variant(&[("modkill", "0.05")]);
    assert!(s.modkills > 0, "{s:?}");
}

#[test]
fn invariants_no_kill_limit_off() {
    let s = run_variant(&[("no_kill_limit", "off"), ("absence", "0.2")]);
    assert!(s.night_misses > 0, "{s:?}");
    assert_eq!(ends(&s, EndCause::NoKillRule), 0, "{s:?}");
}

#[test]
fn invariants_reveal_roles_on_death() {
    let s = run_variant(&[("reveal_roles_on_death", "true")]);
    assert!(s.revealed_deaths > 0, "{s:?}");
}

#[test]
fn invariants_mafia_win_elimination() {
    let s = run_variant(&[("mafia_win", "elimination")]);
    assert_eq!(ends(&s, EndCause::Parity), 0, "{s:?}");
    assert!(ends(&s, EndCause::TownEliminated) > 0, "{s:?}");
}

#[test]
fn invariants_day_cap_3() {
    let s = run_variant(&[("day_cap", "3")]);
    assert!(ends(&s, EndCause::DayCap) > 0, "{s:?}");
}

#[test]
fn invariants_everything_at_once() {
    let s = run_variant(&[
        ("absence", "0.2"),
        ("modkill", "0.05"),
        ("reveal_roles_on_death", "true"),
        ("no_kill_limit", "2"),
        ("runoff_rounds", "1"),
        ("first_day_pardon", "false"),
        ("runoff_all_tied", "nobody"),
    ]);
    assert!(s.modkills > 0 && s.absences > 0 && s.runoff_exhausted > 0, "{s:?}");
    // C12 (`runoff_all_tied = nobody`): all the living tied, nobody votes.
    assert!(s.silent_runoffs > 0 && s.all_tied_runoffs == 0 && s.all_tied_votes == 0, "{s:?}");
}

/// C12.2/C12.8: "the *other* living players revote", and the runoff "lasts
/// until every living player (other than the tied) has posted": while
/// anybody else is alive, no tied player votes in any part of the runoff —
/// neither in a revote (C12.4, C12.5) nor in the hang-both vote that follows
/// a revote with two leaders (C12.4), where the tied player who did not lead
/// is still one of the tied. The one exception is a tie of every living
/// player under `runoff_all_tied = revote` (the default): then the tied are
/// the voters, never for themselves.
#[test]
fn tied_players_never_vote_in_a_runoff() {
    let (s, tied_runoff_game) = run_variant_traced(&[]);
    assert!(s.revotes > 0 && s.hang_both_votes > 0, "{s:?}");
    assert!(s.all_tied_runoffs > 0, "the all-tied exception was exercised: {s:?}");
    assert!(
        s.tied_runoff_votes == 0,
        "{} hang-both votes were cast by tied players; the first:\n{}",
        s.tied_runoff_votes,
        tied_runoff_game.as_deref().unwrap_or("")
    );
}

/// The checker has teeth: valid logs pass it, and each kind of corruption
/// of a valid log is refused for the right reason.
#[test]
fn the_checker_refuses_broken_logs() {
    let game = make_game("classic", &[]);
    let mut w = Worker::new(make_lineup("classic,mafia=random"), master_key(SEED));
    let mut tried = [0u32; 10];
    for i in 0..200 {
        let (log, out) = play_logged(&mut w, &game, i);
        let mut seen = Seen::default();
        check(&game, &log, &out, &mut seen).expect("a valid game passes");
        let refused = |log: &[Event], out: &Outcome, why: &str| {
            let err = check(&game, log, out, &mut Seen::default()).expect_err(why);
            assert!(err.contains(why), "expected `{why}`, got: {err}\n{}", dump(log));
        };
        let pos = |f: &dyn Fn(&Event) -> bool| log.iter().position(f);

        // No end.
        refused(&log[..log.len() - 1], &out, "did not end with a GameEnd");
        tried[0] += 1;
        // The wrong winner.
        let mut bad = log.clone();
        if let Some(Event::GameEnd { winner, .. }) = bad.last_mut() {
            *winner = match *winner {
                Some(Camp::Town) => Some(Camp::Mafia),
                _ => Some(Camp::Town),
            };
        }
        refused(&bad, &out, "C17/C18/E2");
        tried[1] += 1;
        // The outcome disagrees with the log.
        refused(&log, &Outcome { days: out.days + 1, ..out }, "outcome days");
        tried[2] += 1;
        // A dead player votes.
        if let Some(d) = pos(&|e| matches!(e, Event::Died { .. })) {
            let Event::Died { seat: dead, .. } = log[d] else { unreachable!() };
            if let Some(v) = log[d..].iter().position(|e| matches!(e, Event::Vote { seat, .. } if *seat != dead)) {
                let mut bad = log.clone();
                if let Event::Vote { seat, .. } = &mut bad[d + v] {
                    *seat = dead;
                }
                refused(&bad, &out, "acted after its death");
                tried[3] += 1;
            }
        }
        // A second change of vote in one day.
        if let Some(c) = pos(&|e| matches!(e, Event::Vote { change: true, .. })) {
            let Event::Vote { seat, .. } = log[c] else { unreachable!() };
            let Event::Vote { vote: first, .. } = log[..c]
                .iter()
                .rev()
                .find(|e| matches!(e, Event::Vote { seat: s, .. } if *s == seat))
                .copied()
                .unwrap()
            else {
                unreachable!()
            };
            let mut bad = log.clone();
            bad.insert(c + 1, Event::Vote { seat, vote: first, change: true });
            refused(&bad, &out, "C10: a second vote change");
            tried[4] += 1;
        }
        // The lynch goes to somebody the votes did not choose.
        if let Some(l) = pos(&|e| matches!(e, Event::Lynch(LynchResult::Lynched(_)))) {
            let mut bad = log.clone();
            if let Event::Lynch(LynchResult::Lynched(s)) = &mut bad[l] {
                *s = Seat::from_index((s.index() + 1) % game.players());
            }
            refused(&bad, &out, "C11");
            tried[5] += 1;
        }
        // A night kill nobody agreed on.
        if let Some(k) = pos(&|e| matches!(e, Event::NightKill { .. })) {
            let mut bad = log.clone();
            if let Event::NightKill { target, .. } = &mut bad[k] {
                *target = Seat::from_index((target.index() + 1) % game.players());
            }
            refused(&bad, &out, "C4");
            tried[6] += 1;
        }
        // Each runoff vote: its index, its voter and the day's tie.
        let mut tie = PlayerSet::EMPTY;
        let mut runoff_votes = Vec::new();
        for (k, e) in log.iter().enumerate() {
            match *e {
                Event::Lynch(LynchResult::Tie(t)) => tie = t,
                Event::RunoffVote { seat, .. } => runoff_votes.push((k, seat, tie)),
                _ => {}
            }
        }
        // A runoff vote for a player who is not a candidate, or from a tied
        // player while others are alive to vote.
        if let Some(&(r, voter, tied)) = runoff_votes.iter().find(|(_, seat, tied)| !tied.contains(*seat)) {
            let mut bad = log.clone();
            if let Event::RunoffVote { choice, .. } = &mut bad[r] {
                *choice = Seat::all(game.players()).find(|&s| !tied.contains(s) && s != voter).unwrap();
            }
            refused(&bad, &out, "not a candidate");
            let mut bad = log.clone();
            if let Event::RunoffVote { seat, .. } = &mut bad[r] {
                *seat = tied.lowest().unwrap();
            }
            refused(&bad, &out, "C12.2");
            tried[7] += 1;
        }
        // Every living player tied (`runoff_all_tied = revote`): the tied
        // vote, but never for themselves, and all of them vote.
        if let Some(&(r, seat, _)) = runoff_votes.iter().find(|(_, seat, tied)| tied.contains(*seat)) {
            let mut bad = log.clone();
            if let Event::RunoffVote { choice, .. } = &mut bad[r] {
                *choice = seat;
            }
            refused(&bad, &out, "voted for himself");
            tried[8] += 1;
            let mut bad = log.clone();
            bad.remove(r);
            refused(&bad, &out, "C12.8: round");
            tried[9] += 1;
        }
    }
    assert!(tried.iter().all(|&t| t > 0), "{tried:?}");
}

// ---------------------------------------------------------------------------
// Replay determinism and common random numbers.

fn play_logged(w: &mut Worker, game: &Game, i: u64) -> (Vec<Event>, Outcome) {
    let mut log = Vec::new();
    let out = w.play(game, i, &mut log);
    (log, out)
}

fn deal_of(log: &[Event]) -> Vec<Event> {
    log.iter().copied().filter(|e| matches!(e, Event::Deal { .. })).collect()
}

#[test]
fn replay_of_a_seed_and_index_is_identical() {
    const N: u64 = 300;
    let variants: [&[(&str, &str)]; 3] = [
        &[],
        &[("tie_break", "random"), ("absence", "0.2")],
        &[("modkill", "0.05"), ("reveal_roles_on_death", "true")],
    ];
    for preset in PRESETS {
        for rules in variants {
            let game = make_game(preset, rules);
            for spec in LINEUPS {
                let key = master_key(SEED);
                let mut a = Worker::new(make_lineup(spec), key);
                let first: Vec<(Vec<Event>, Outcome)> = (0..N).map(|i| play_logged(&mut a, &game, i)).collect();
                // The same worker, in reverse order (a reused worker carries nothing over).
                for i in (0..N).rev() {
                    let again = play_logged(&mut a, &game, i);
                    assert!(
                        again == first[i as usize],
                        "{preset} {rules:?} `{spec}` game {i}: replay on the same worker differs"
                    );
                }
                // A fresh worker, every 7th game only.
                let mut b = Worker::new(make_lineup(spec), key);
                for i in (0..N).step_by(7) {
                    let again = play_logged(&mut b, &game, i);
                    assert!(
                        again == first[i as usize],
                        "{preset} {rules:?} `{spec}` game {i}: replay on a fresh worker differs"
                    );
                }
                // Logging changes nothing: the silent log gives the same outcome.
                for i in 0..N {
                    let quiet = a.play(&game, i, &mut NoLog);
                    assert_eq!(
                        quiet, first[i as usize].1,
                        "{preset} {rules:?} `{spec}` game {i}: NoLog outcome differs"
                    );
                }
                // And another seed gives other games.
                let mut c = Worker::new(make_lineup(spec), master_key(SEED + 1));
                let differ = (0..N).filter(|&i| play_logged(&mut c, &game, i).0 != first[i as usize].0).count();
                assert!(differ as u64 > N * 9 / 10, "{preset} `{spec}`: only {differ} differ");
            }
        }
    }
}

#[test]
fn the_deal_depends_only_on_seed_and_index() {
    const N: u64 = 1000;
    let variants: [&[(&str, &str)]; 8] = [
        &[("no_kill_limit", "off")],
        &[("tie_break", "random")],
        &[("absence", "0.2")],
        &[("modkill", "0.05")],
        &[("reveal_roles_on_death", "true")],
        &[("mafia_win", "elimination")],
        &[("day_cap", "3")],
        &[("runoff_rounds", "1"), ("first_day_pardon", "false")],
    ];
    let key = master_key(SEED);
    for preset in PRESETS {
        let base_game = make_game(preset, &[]);
        let mut base = Worker::new(make_lineup("classic"), key);
        let deals: Vec<Vec<Event>> = (0..N)
            .map(|i| {
                let (log, _) = play_logged(&mut base, &base_game, i);
                // The deal is the deal stream's shuffle, reproducible on its own.
                let mut st = State::default();
                st.deal(&base_game, &mut Stream::new(key, i, Purpose::Deal));
                assert_eq!(st.roles(), base.state.roles(), "{preset} game {i}");
                deal_of(&log)
            })
            .collect();
        let distinct: std::collections::HashSet<Vec<Role>> = deals
            .iter()
            .map(|d| {
                d.iter()
                    .map(|e| match e {
                        Event::Deal { role, .. } => *role,
                        _ => unreachable!(),
                    })
                    .collect()
            })
            .collect();
        assert!(distinct.len() as u64 > N / 2, "{preset}: the deals hardly vary");
        for rules in variants {
            let game = make_game(preset, rules);
            for spec in LINEUPS {
                let mut w = Worker::new(make_lineup(spec), key);
                for i in 0..N {
                    let (log, _) = play_logged(&mut w, &game, i);
                    assert_eq!(
                        deal_of(&log),
                        deals[i as usize],
                        "{preset} {rules:?} `{spec}` game {i}: the deal moved"
                    );
                }
            }
        }
    }
}

/// A rule that never comes into play in a game must leave that game's
/// whole log unchanged (common random numbers), and where it does come into
/// play, the game up to that point is unchanged.
#[test]
fn rules_that_do_not_bite_leave_the_game_unchanged() {
    const N: u64 = 1500;
    let key = master_key(SEED);
    let base_rules: &[(&str, &str)] = &[("absence", "0.2")];
    let mut bitten = [0u64; 3];
    let mut same = [0u64; 3];
    for preset in PRESETS {
        let base_game = make_game(preset, base_rules);
        let with = |extra: (&'static str, &'static str)| {
            let mut r = base_rules.to_vec();
            r.push(extra);
            make_game(preset, &r)
        };
        let no_limit = with(("no_kill_limit", "off"));
        let capped = with(("day_cap", "3"));
        let elimination = with(("mafia_win", "elimination"));
        for spec in LINEUPS {
            let mut b = Worker::new(make_lineup(spec), key);
            let mut w = Worker::new(make_lineup(spec), key);
            for i in 0..N {
                let (base, out) = play_logged(&mut b, &base_game, i);
                let ctx = || format!("{preset} `{spec}` game {i}\n{}", dump(&base));
                let body = &base[..base.len() - 1]; // all but GameEnd

                // C8: the limit only matters in a game it ended.
                let (log, _) = play_logged(&mut w, &no_limit, i);
                if out.cause == EndCause::NoKillRule {
                    bitten[0] += 1;
                    assert!(log.starts_with(body), "no_kill_limit=off: {}", ctx());
                } else {
                    same[0] += 1;
                    assert!(log == base, "no_kill_limit=off: {}", ctx());
                }

                // C3: the cap only matters in a game that reached day 4.
                let (log, o3) = play_logged(&mut w, &capped, i);
                if out.days <= 3 {
                    same[1] += 1;
                    assert!(log == base, "day_cap=3: {}", ctx());
                } else {
                    bitten[1] += 1;
                    assert_eq!(o3.cause, EndCause::DayCap, "{}", ctx());
                    let cut = base
                        .iter()
                        .position(|e| matches!(e, Event::DayStart { day: 4, .. }))
                        .expect("a game past day 3 has a day 4");
                    assert!(log[..log.len() - 1] == base[..cut], "day_cap=3: {}", ctx());
                }

                // C18: parity only matters in a game it ended.
                let (log, _) = play_logged(&mut w, &elimination, i);
                if out.cause == EndCause::Parity {
                    bitten[2] += 1;
                    assert!(log.starts_with(body), "mafia_win=elimination: {}", ctx());
                } else {
                    same[2] += 1;
                    assert!(log == base, "mafia_win=elimination: {}", ctx());
                }
            }
        }
    }
    eprintln!("bitten {bitten:?}, unchanged {same:?}");
    assert!(bitten.iter().all(|&b| b > 0) && same.iter().all(|&s| s > 0));
}

// ---------------------------------------------------------------------------
// The observation boundary (C2, C9).

/// Every answer an [`Observation`] gives, as text.
fn snapshot(o: &Observation<'_>) -> String {
    let mut s = String::new();
    let n = o.players();
    let _ = write!(
        s,
        "seat={} role={:?} camp={:?} n={} phase={:?} day={} alive={:?} others={:?} mates={:?} \
         checked={:?} found_role={:?} last={:?} nwk={}",
        o.seat().index(),
        o.role(),
        o.camp(),
        o.players(),
        o.phase(),
        o.day(),
        o.alive(),
        o.others_alive(),
        o.camp_mates(),
        o.checked(),
        o.found_role(),
        o.last_check(),
        o.nights_without_kill()
    );
    for c in Camp::ALL {
        let _ = write!(s, " found[{c}]={:?} revealed[{c}]={:?}", o.found_in_camp(c), o.revealed_in_camp(c));
    }
    for r in Role::ALL {
        let _ = write!(s, " claims[{r}]={:?}", o.claimants(r));
    }
    for p in Seat::all(n) {
        let _ = write!(
            s,
            " | {p:?}: alive={} mate={:?} known={:?} revealed={:?} vote={:?} changed={} for={} prev={:?} said={:?} death={:?}",
            o.is_alive(p),
            o.mate_role(p),
            o.known_camp(p),
            o.revealed_role(p),
            o.vote_of(p),
            o.has_changed(p),
            o.votes_for(p),
            o.prev_vote_of(p),
            o.said(p),
            o.death(p)
        );
    }
    s
}

fn mix(a: u64, b: u64) -> u64 {
    let mut z = a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Scripted players whose public decisions depend only on public facts
/// (seat, phase, who is alive, a per-game salt) — never on anybody's role —
/// so two deals that differ only in hidden roles produce the same public
/// record. Private moves (checks) may use the actor's own knowledge. Every
/// time the observer is asked, his observation is recorded.
struct Script {
    salt: u64,
    observer: Seat,
    snaps: Vec<String>,
}

impl Script {
    fn h(&self, o: &Observation<'_>, what: u64) -> u64 {
        let phase = match o.phase() {
            mafia_engine::Phase::Day(d) => 2 * d as u64,
            mafia_engine::Phase::Night(d) => 2 * d as u64 + 1,
        };
        mix(mix(self.salt, o.alive().0), mix(phase, o.seat().get() as u64 * 64 + what))
    }
    fn see(&mut self, o: &Observation<'_>, what: &str) {
        if o.seat() == self.observer {
            self.snaps.push(format!("{what}: {}", snapshot(o)));
        }
    }
    fn claim(&self, o: &Observation<'_>, what: u64) -> Publication {
        let h = self.h(o, what);
        if h % 4 != 0 {
            return Publication::NONE;
        }
        let others = o.others_alive();
        let mut p =
            Publication { claim: Some(if h % 8 == 0 { Role::Commissar } else { Role::Citizen }), ..Publication::NONE };
        if let Some(t) = others.nth((h >> 8) as u32 % others.len().max(1)) {
            p.camps[if h % 3 == 0 { Camp::Mafia } else { Camp::Town } as usize].insert(t);
        }
        p
    }
}

impl Players for Script {
    fn new_game(&mut self, o: &Observation<'_>) {
        self.see(o, "new_game");
    }
    fn post(&mut self, o: &Observation<'_>) -> Publication {
        self.see(o, "post");
        self.claim(o, 1)
    }
    fn vote(&mut self, o: &Observation<'_>) -> Vote {
        self.see(o, "vote");
        let h = self.h(o, 2);
        let others = o.others_alive();
        if h % 7 == 0 || others.is_empty() {
            Vote::Pass
        } else {
            // Lean on low seats so that lynches and ties both happen.
            let k = ((h >> 8) % others.len() as u64).min((h >> 20) % others.len() as u64);
            Vote::For(others.nth(k as u32).unwrap())
        }
    }
    fn revise(&mut self, o: &Observation<'_>) -> Option<Vote> {
        self.see(o, "revise");
        let h = self.h(o, 3);
        let others = o.others_alive();
        match h % 5 {
            0 => others.nth((h >> 8) as u32 % others.len()).map(Vote::For),
            1 if h % 3 == 0 => Some(Vote::Pass),
            _ => None,
        }
    }
    fn defence(&mut self, o: &Observation<'_>) -> Publication {
        self.see(o, "defence");
        self.claim(o, 4)
    }
    fn runoff(&mut self, o: &Observation<'_>, candidates: PlayerSet) -> Seat {
        self.see(o, "runoff");
        let h = self.h(o, 5 + candidates.0);
        candidates.nth((h >> 8) as u32 % candidates.len()).unwrap()
    }
    fn hang_both(&mut self, o: &Observation<'_>, pair: PlayerSet) -> bool {
        self.see(o, "hang_both");
        self.h(o, 6 + pair.0) % 2 == 0
    }
    fn night(&mut self, o: &Observation<'_>) -> NightChoice {
        self.see(o, "night");
        // Every shooter sends the same nick, a function of public facts only.
        let alive = o.alive();
        let kill = alive.nth((mix(self.salt, alive.0 ^ o.day() as u64) >> 8) as u32 % alive.len());
        // A check: an unchecked living player (own knowledge only).
        let pool = o.others_alive().minus(o.checked());
        let pool = if pool.is_empty() { o.others_alive() } else { pool };
        let act = pool.nth((self.h(o, 7) >> 8) as u32 % pool.len().max(1));
        NightChoice { kill, act, ..NightChoice::default() }
    }
    fn last_word(&mut self, o: &Observation<'_>) -> Publication {
        self.see(o, "last_word");
        self.claim(o, 8)
    }
}

/// Plays two deals in lockstep with the same scripted players and the same
/// host/activity streams, recording `observer`'s observation at every
/// decision and after every phase, until either game ends.
fn lockstep(game: &Game, roles: [&[Role]; 2], observer: Seat, salt: u64, index: u64) -> [Vec<String>; 2] {
    let key = master_key(SEED);
    let n = game.players();
    let mut states = [State::default(), State::default()];
    let mut scripts = [0, 1].map(|_| Script { salt, observer, snaps: Vec::new() });
    let mut host = [0, 1].map(|_| Stream::new(key, index, Purpose::Host));
    let mut activity = [0, 1].map(|_| Stream::new(key, index, Purpose::Activity));
    let mut moves = NightMoves::default();
    for k in 0..2 {
        states[k].set_roles(game, roles[k]);
        for s in Seat::all(n) {
            scripts[k].new_game(&states[k].observe(s));
        }
    }
    let mut day = 1u16;
    loop {
        let mut ended = false;
        for k in 0..2 {
            let e = states[k].run_day(game, day, &mut scripts[k], &mut host[k], &mut activity[k], &mut NoLog);
            scripts[k].snaps.push(format!("after day {day}: {}", snapshot(&states[k].observe(observer))));
            ended |= e.is_some();
        }
        if ended {
            break;
        }
        for k in 0..2 {
            let e = states[k].run_night(game, day, &mut scripts[k], &mut moves, &mut activity[k], &mut NoLog);
            scripts[k].snaps.push(format!("after night {day}: {}", snapshot(&states[k].observe(observer))));
            ended |= e.is_some();
        }
        if ended {
            break;
        }
        day += 1;
    }
    scripts.map(|s| s.snaps)
}

/// A town seat's observation is the same for two deals that differ only in
/// the hidden roles of other seats — at the start (fresh `set_roles`) and at
/// every decision of a whole scripted game. Seats whose camps the observer
/// learned (his checks; with C9's reveal on, the dead) keep their roles.
#[test]
fn town_observations_do_not_leak_hidden_roles() {
    let variants: [&[(&str, &str)]; 3] = [
        &[],
        &[("tie_break", "random"), ("modkill", "0.03")],
        &[("reveal_roles_on_death", "true"), ("mafia_win", "elimination")],
    ];
    let key = master_key(SEED);
    let mut compared = 0u64;
    let mut commissar_observers = 0u64;
    let mut controls = 0u64;
    for preset in PRESETS {
        for rules in variants {
            let game = make_game(preset, rules);
            let n = game.players();
            for i in 0..300u64 {
                let mut rng = Stream::new(key, 1_000_000 + i, Purpose::Seat(Seat::new(0)));
                let mut roles_a = vec![Role::Citizen; n];
                {
                    let mut st = State::default();
                    st.deal(&game, &mut Stream::new(key, i, Purpose::Deal));
                    roles_a.copy_from_slice(st.roles());
                }
                let town: Vec<Seat> = Seat::all(n).filter(|&s| roles_a[s].camp() == Camp::Town).collect();
                // Half the games watch the Commissar, half a citizen.
                let observer = if i % 2 == 0 {
                    commissar_observers += 1;
                    town.iter().copied().find(|&s| roles_a[s] == Role::Commissar).unwrap()
                } else {
                    town[below(&mut rng, town.len() as u32) as usize]
                };
                let salt = mix(SEED, i);

                // Deal A alone first: whom the observer checks, who is dead at the end.
                let mut st = State::default();
                st.set_roles(&game, &roles_a);
                let mut script = Script { salt, observer, snaps: Vec::new() };
                let mut moves = NightMoves::default();
                let mut log_a: Vec<Event> = Vec::new();
                mafia_engine::play_dealt(
                    &game,
                    &mut st,
                    &mut moves,
                    &mut script,
                    &mut Stream::new(key, i, Purpose::Host),
                    &mut Stream::new(key, i, Purpose::Activity),
                    &mut log_a,
                );
                let checked = st.observe(observer).checked();
                let first_check = log_a.iter().find_map(|e| match *e {
                    Event::CampCheck { seat, target, .. } if seat == observer => Some(target),
                    _ => None,
                });
                let mut free: Vec<Seat> = Seat::all(n)
                    .filter(|&s| s != observer && !checked.contains(s))
                    .filter(|&s| !game.rules().reveal_roles_on_death || st.alive().contains(s))
                    .collect();
                let hidden: Vec<Role> = free.iter().map(|&s| roles_a[s]).collect();
                if hidden.iter().all(|&r| r == hidden[0]) {
                    continue; // nothing to permute
                }
                // Deal B: the free seats' roles permuted (until it differs).
                let mut roles_b = roles_a.clone();
                while roles_b == roles_a {
                    for k in (1..free.len()).rev() {
                        let j = below(&mut rng, k as u32 + 1) as usize;
                        free.swap(k, j);
                    }
                    for (&s, &r) in free.iter().zip(&hidden) {
                        roles_b[s] = r;
                    }
                }

                // The very start: a fresh `set_roles` state.
                let (mut sa, mut sb) = (State::default(), State::default());
                sa.set_roles(&game, &roles_a);
                sb.set_roles(&game, &roles_b);
                for &t in &town {
                    if roles_b[t] == roles_a[t] {
                        let (oa, ob) = (sa.observe(t), sb.observe(t));
                        for s in Seat::all(n) {
                            assert_eq!(oa.known_camp(s), ob.known_camp(s));
                            assert_eq!(oa.revealed_role(s), ob.revealed_role(s));
                            assert_eq!(oa.mate_role(s), ob.mate_role(s));
                        }
                        assert_eq!(oa.camp_mates(), ob.camp_mates());
                    }
                }

                let [a, b] = lockstep(&game, [&roles_a, &roles_b], observer, salt, i);
                assert!(a.len() >= 3, "the observer was asked too little");
                for (k, (x, y)) in a.iter().zip(&b).enumerate() {
                    assert!(
                        x == y,
                        "{preset} {rules:?} game {i}: seat {observer:?} ({:?}) sees a difference at step {k}\n\
                         roles A {roles_a:?}\nroles B {roles_b:?}\nA: {x}\nB: {y}",
                        roles_a[observer]
                    );
                }
                assert_eq!(a.len(), b.len());
                compared += a.len() as u64;

                // Control: the seat the Commissar checked first, moved to the
                // other camp, must change what he sees from that night on
                // (the comparison has teeth).
                if let Some(c) = first_check {
                    let other = Seat::all(n)
                        .filter(|&s| s != observer)
                        .find(|&s| roles_a[s].camp() != roles_a[c].camp())
                        .expect("both camps have members");
                    let mut roles_c = roles_a.clone();
                    roles_c.swap(c.index(), other.index());
                    let [a2, c2] = lockstep(&game, [&roles_a, &roles_c], observer, salt, i);
                    if c2.iter().any(|x| x.starts_with("after night 1:")) {
                        assert!(a2 != c2, "game {i}: moving checked seat {c:?} to the other camp went unseen");
                        controls += 1;
                    }
                }
            }
        }
    }
    eprintln!("compared {compared} observations; {commissar_observers} commissar observers; {controls} controls");
    assert!(compared > 15_000 && controls > 200, "{compared} {controls}");
}

/// C2: every mafia seat's camp mates are exactly the mafia, with their
/// roles; a town seat knows only himself. Checked on dealt games and on the
/// state a worker leaves after a game.
#[test]
fn mafia_know_each_other_town_knows_only_itself() {
    let key = master_key(SEED);
    for preset in PRESETS {
        let game = make_game(preset, &[]);
        let n = game.players();
        let mut w = Worker::new(make_lineup("classic"), key);
        for i in 0..500 {
            w.play(&game, i, &mut NoLog);
            let mut fresh = State::default();
            fresh.set_roles(&game, w.state.roles());
            for st in [&w.state, &fresh] {
                let mafia: PlayerSet = Seat::all(n).filter(|&s| st.role(s).camp() == Camp::Mafia).collect();
                assert_eq!(mafia.len() as usize, game.count(Role::Don) + game.count(Role::Mafioso));
                assert_eq!(st.camp_members(Camp::Mafia), mafia);
                for s in Seat::all(n) {
                    let o = st.observe(s);
                    assert_eq!(o.role(), st.role(s));
                    if mafia.contains(s) {
                        assert_eq!(o.camp_mates(), mafia, "{preset} game {i} seat {s:?}");
                        for t in Seat::all(n) {
                            let expect = mafia.contains(t).then(|| st.role(t));
                            assert_eq!(o.mate_role(t), expect, "{preset} game {i} seat {s:?} on {t:?}");
                            if mafia.contains(t) {
                                assert_eq!(o.known_camp(t), Some(Camp::Mafia));
                            }
                        }
                    } else {
                        assert_eq!(o.camp_mates(), PlayerSet::single(s), "{preset} game {i} seat {s:?}");
                        for t in Seat::all(n).filter(|&t| t != s) {
                            assert_eq!(o.mate_role(t), None);
                            assert_eq!(o.revealed_role(t), None, "C9: roles stay hidden by default");
                        }
                        assert_eq!(o.mate_role(s), Some(st.role(s)));
                        assert_eq!(o.known_camp(s), Some(Camp::Town));
                    }
                }
            }
        }
    }
}
