//! Invariants over many seeded games, checked from the event log and the
//! outcome (clauses C1–C19 of `rules/classic.md`), plus replay determinism,
//! common random numbers and the observation boundary (C2, C9).
//!
//! Every game of every configuration goes through [`check`], an independent
//! re-reading of the rules that follows the log event by event. A failure
//! names the configuration, the game index and the broken clause, and prints
//! the whole event log.

// `is_multiple_of` is newer than the workspace's rust-version (1.85).
#![allow(clippy::manual_is_multiple_of)]

mod common;
use common::ensure;
use mafia_agents::{Lineup, Purpose, Stream, Worker, master_key};
use mafia_engine::{
    Camp, DeathCause, EndCause, Event, Game, LynchResult, MafiaWin, MissReason, NightChoice, NightMoves, NoLog,
    Observation, Outcome, PlayerSet, Players, Preset, Publication, Role, Seat, State, TieBreak, Vote, below,
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

fn dump(log: &[Event]) -> String {
    let mut s = String::new();
    for (i, e) in log.iter().enumerate() {
        let _ = writeln!(s, "  {i:4}: {e:?}");
    }
    s
}

fn is_mafia(roles: &[Role], s: Seat) -> bool {
    roles[s as usize].camp() == Camp::Mafia
}

/// C17, C18 and E2, restated for the classic camps: the end that holds for
/// the living set `alive`, if any.
fn end_state(roles: &[Role], alive: PlayerSet, win: MafiaWin) -> Option<(Option<Camp>, EndCause)> {
    if alive.is_empty() {
        return Some((None, EndCause::Nobody));
    }
    let m = alive.iter().filter(|&s| is_mafia(roles, s)).count();
    let t = alive.len() as usize - m;
    if m == 0 {
        return Some((Some(Camp::Town), EndCause::MafiaEliminated));
    }
    if t == 0 {
        return Some((Some(Camp::Mafia), EndCause::TownEliminated));
    }
    if win == MafiaWin::Parity && m >= t {
        return Some((Some(Camp::Mafia), EndCause::Parity));
    }
    None
}

/// The seats of `among` with the most votes in `tally` (all of `among` when
/// nobody has a vote).
fn leaders(tally: &[u32; 64], among: PlayerSet) -> PlayerSet {
    let best = among.iter().map(|s| tally[s as usize]).max().unwrap_or(0);
    among.iter().filter(|&s| tally[s as usize] == best).collect()
}

/// C11: the lynch result of a day's final votes.
fn expected_lynch(votes: &[Option<Vote>; 64], alive: PlayerSet, day: u16, pardon: bool) -> LynchResult {
    let mut tally = [0u32; 64];
    let mut total = 0;
    for s in alive.iter() {
        if let Some(Vote::For(t)) = votes[s as usize] {
            tally[t as usize] += 1;
            total += 1;
        }
    }
    if total == 0 {
        return LynchResult::AllPass;
    }
    let lead = leaders(&tally, alive);
    if day == 1 && pardon && total == 1 {
        return LynchResult::Pardoned(lead.lowest().unwrap());
    }
    if lead.len() == 1 { LynchResult::Lynched(lead.lowest().unwrap()) } else { LynchResult::Tie(lead) }
}

/// What the checked games exercised (so a test can show its invariants were
/// not vacuous).
#[derive(Debug, Default)]
struct Seen {
    games: u64,
    ends: [u64; EndCause::COUNT],
    lynch_ties: u64,
    random_tie_breaks: u64,
    no_runoff_at_four: u64,
    revotes: u64,
    hang_both_votes: u64,
    runoff_exhausted: u64,
    two_lynched: u64,
    vote_changes: u64,
    passes: u64,
    pardons: u64,
    absences: u64,
    modkills: u64,
    night_kills: u64,
    night_misses: u64,
    camp_checks: u64,
    role_checks: u64,
    revealed_deaths: u64,
    last_words: u64,
    /// C12 (`runoff_all_tied = revote`): runoffs in which every living
    /// player was tied, so the tied voted (never for themselves).
    all_tied_runoffs: u64,
    /// Runoff votes the tied cast in such runoffs.
    all_tied_votes: u64,
    /// C12 (`runoff_all_tied = nobody`): runoffs with every living player
    /// tied, so nobody voted.
    silent_runoffs: u64,
    /// C12.2/C12.8 violations: a tied player's vote in the runoff while
    /// others were alive to vote.
    tied_runoff_votes: u64,
    tied_runoff_first: Option<String>,
    /// The configuration, game and log of the first such violation.
    tied_runoff_game: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cur {
    Start,
    Day(u16),
    Night(u16),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Runoff {
    None,
    Revote,
    HangBoth,
}

/// C12: a runoff that began with every living player tied (the tied vote
/// under `runoff_all_tied = revote`, nobody under `nobody`).
fn count_all_tied(seen: &mut Seen, alive: PlayerSet, tie: PlayerSet, revote: bool) {
    if alive.minus(tie).is_empty() {
        if revote {
            seen.all_tied_runoffs += 1;
        } else {
            seen.silent_runoffs += 1;
        }
    }
}

/// Checks one game's log and outcome against the rules. `Err` names the
/// event index and the clause.
fn check(game: &Game, log: &[Event], out: &Outcome, seen: &mut Seen) -> Result<(), String> {
    let rules = *game.rules();
    let n = game.players();
    seen.games += 1;
    // C12 (`runoff_all_tied`): when every living player is tied, `revote`
    // has the tied vote in the runoff (never for themselves); `nobody`
    // leaves it without voters. Read by the setting's name and value.
    let all_tied_revote = match rules.get("runoff_all_tied").as_deref() {
        Some("revote") => true,
        Some("nobody") => false,
        other => return Err(format!("C12: unknown runoff_all_tied {other:?}")),
    };
    // C12.2/C12.8: who votes in the runoff (the revotes and the hang-both
    // vote): every living player other than the originally tied; when that
    // is nobody, the tied themselves under `revote`.
    let runoff_voters = |alive: PlayerSet, tie: PlayerSet| {
        let others = alive.minus(tie);
        if others.is_empty() && all_tied_revote { tie } else { others }
    };

    // C1: the deal comes first, one role per seat, the setup's multiset.
    let roles = common::read_deal(game, log)?;
    let roles = &roles[..];
    let shooters_all: PlayerSet = (0..n as Seat).filter(|&s| roles[s as usize].info().shoots).collect();

    let mut alive = PlayerSet::first(n);
    let mut dead = PlayerSet::EMPTY;
    let mut owe_last_word = PlayerSet::EMPTY;
    let mut must_end = false;
    let mut batch_open = false;
    let mut cur = Cur::Start;
    let mut illegal = 0u32;
    let mut nights_without_kill = 0u8;

    // Day state.
    let mut present = PlayerSet::EMPTY;
    let mut votes = [None::<Vote>; 64];
    let mut changed = PlayerSet::EMPTY;
    let mut modkilled = PlayerSet::EMPTY;
    let mut lynch: Option<LynchResult> = None;
    let mut tie = PlayerSet::EMPTY;
    let mut runoff = Runoff::None;
    let mut round = 0u8;
    let mut candidates = PlayerSet::EMPTY;
    let mut tally = [0u32; 64];
    let mut round_voters = PlayerSet::EMPTY;
    let mut pair = PlayerSet::EMPTY;
    let mut hang_voters = PlayerSet::EMPTY;
    let mut hang_yes = 0u32;
    let mut hang_no = 0u32;
    let mut voters = PlayerSet::EMPTY;
    let mut to_hang: Option<PlayerSet> = None;
    let mut lynched = PlayerSet::EMPTY;

    // Night state.
    let mut nicks = [None::<Seat>; 64];
    let mut acts = [None::<Seat>; 64];
    let mut acted = PlayerSet::EMPTY;
    let mut nicked = PlayerSet::EMPTY;
    let mut kill: Option<Seat> = None;
    let mut missed = false;
    let mut counted = false;

    let even = |alive: PlayerSet| alive.len() % 2 == 0;

    for (idx, &e) in log.iter().enumerate().skip(n) {
        let at = |msg: String| format!("event {idx} ({e:?}): {msg}");
        // The dead never act (a last word right after death is allowed).
        let actor = match e {
            Event::Vote { seat, .. }
            | Event::Post { seat, .. }
            | Event::RunoffVote { seat, .. }
            | Event::HangChoice { seat, .. }
            | Event::NightKillNick { seat, .. }
            | Event::NightAct { seat, .. }
            | Event::Defence { seat, .. }
            | Event::Absent { seat }
            | Event::Modkill { seat } => Some(seat),
            _ => None,
        };
        if let Some(s) = actor {
            ensure!(!dead.contains(s), "{}", at(format!("seat {s} acted after its death")));
            ensure!(alive.contains(s), "{}", at(format!("seat {s} is not a living player")));
        }
        // C19: the end is checked after every elimination — one batch of
        // deaths (a night kill, a lynch of one or two, a day's modkills).
        // Once it holds, only that batch's last words (C13) precede the end.
        if batch_open && !matches!(e, Event::Died { .. }) {
            batch_open = false;
            must_end = end_state(roles, alive, game.mafia_win()).is_some();
        }
        if must_end {
            ensure!(
                matches!(e, Event::LastWord { .. } | Event::GameEnd { .. }),
                "{}",
                at("C19: the game went on after an end held".into())
            );
        }
        match e {
            Event::Deal { .. } => return Err(at("a deal after the start".into())),
            Event::DayStart { day, alive: a } => {
                ensure!(owe_last_word.is_empty(), "{}", at(format!("C13: {owe_last_word:?} got no last word")));
                let expect_day = match cur {
                    Cur::Start => 1,
                    Cur::Night(d) => d + 1,
                    Cur::Day(d) => return Err(at(format!("day {day} right after day {d}"))),
                };
                ensure!(day == expect_day, "{}", at(format!("C3: expected day {expect_day}")));
                ensure!(day <= rules.day_cap, "{}", at(format!("C3: day past the cap {}", rules.day_cap)));
                ensure!(a == alive, "{}", at(format!("alive set differs from the deaths logged: {alive:?}")));
                if let Cur::Night(_) = cur {
                    ensure!(kill.is_some() != missed, "{}", at("C4: a night needs exactly one of kill or miss".into()));
                    ensure!(kill.is_some() || counted, "{}", at("C8: a night without a kill was not counted".into()));
                }
                if let Some(limit) = game.no_kill_limit() {
                    ensure!(
                        nights_without_kill < limit,
                        "{}",
                        at(format!("C8: {nights_without_kill} nights without a kill"))
                    );
                }
                cur = Cur::Day(day);
                present = alive;
                votes = [None; 64];
                changed = PlayerSet::EMPTY;
                modkilled = PlayerSet::EMPTY;
                lynch = None;
                tie = PlayerSet::EMPTY;
                voters = PlayerSet::EMPTY;
                runoff = Runoff::None;
                round = 0;
                candidates = PlayerSet::EMPTY;
                pair = PlayerSet::EMPTY;
                to_hang = None;
                lynched = PlayerSet::EMPTY;
            }
            Event::NightStart { night, alive: a } => {
                ensure!(owe_last_word.is_empty(), "{}", at(format!("C13: {owe_last_word:?} got no last word")));
                ensure!(cur == Cur::Day(night), "{}", at(format!("night {night} after {cur:?}")));
                ensure!(a == alive, "{}", at(format!("alive set differs from the deaths logged: {alive:?}")));
                ensure!(lynch.is_some(), "{}", at("a day ended without a lynch result".into()));
                if modkilled.is_empty() {
                    let decided = to_hang.ok_or_else(|| at("the day's lynch was never decided".into()))?;
                    ensure!(
                        lynched == decided,
                        "{}",
                        at(format!("lynched {lynched:?} but the vote hanged {decided:?}"))
                    );
                }
                cur = Cur::Night(night);
                present = alive;
                votes = [None; 64];
                nicks = [None; 64];
                acts = [None; 64];
                acted = PlayerSet::EMPTY;
                nicked = PlayerSet::EMPTY;
                kill = None;
                missed = false;
                counted = false;
            }
            Event::Absent { seat } => {
                ensure!(present.contains(seat), "{}", at("absent twice in a phase".into()));
                ensure!(
                    match cur {
                        Cur::Day(_) => votes.iter().all(Option::is_none),
                        _ => nicked.is_empty() && acted.is_empty(),
                    },
                    "{}",
                    at("C16: absence drawn after decisions".into())
                );
                present.remove(seat);
                seen.absences += 1;
            }
            Event::Modkill { seat } => {
                ensure!(matches!(cur, Cur::Day(_)), "{}", at("C15: a modkill outside a day".into()));
                ensure!(votes.iter().all(Option::is_none), "{}", at("C15: a modkill after votes".into()));
                modkilled.insert(seat);
                seen.modkills += 1;
            }
            Event::Post { seat, .. } => {
                ensure!(matches!(cur, Cur::Day(_)), "{}", at("a post outside a day".into()));
                ensure!(present.contains(seat), "{}", at("C16: an absent player posted".into()));
                ensure!(modkilled.is_empty(), "{}", at("C15: posts on a modkill day".into()));
                ensure!(lynch.is_none(), "{}", at("a post after the lynch".into()));
            }
            Event::Vote { seat, vote, change } => {
                ensure!(matches!(cur, Cur::Day(_)), "{}", at("a vote outside a day".into()));
                ensure!(present.contains(seat), "{}", at("C16: an absent player voted".into()));
                ensure!(modkilled.is_empty(), "{}", at("C15: a vote on a modkill day".into()));
                ensure!(lynch.is_none(), "{}", at("a vote after the lynch result".into()));
                if let Vote::For(t) = vote {
                    ensure!(t != seat, "{}", at("C10: a vote for oneself".into()));
                    ensure!(alive.contains(t), "{}", at("C10: a vote for a player not alive".into()));
                } else {
                    seen.passes += 1;
                }
                let prev = votes[seat as usize];
                if change {
                    ensure!(prev.is_some(), "{}", at("C10: a change before a first vote".into()));
                    ensure!(!changed.contains(seat), "{}", at("C10: a second vote change in one day".into()));
                    ensure!(prev != Some(vote), "{}", at("C10: a change to the same vote".into()));
                    changed.insert(seat);
                    seen.vote_changes += 1;
                } else {
                    ensure!(prev.is_none(), "{}", at("C10: two first votes in one day".into()));
                }
                votes[seat as usize] = Some(vote);
            }
            Event::Illegal { .. } => illegal += 1,
            Event::Lynch(r) => {
                let Cur::Day(day) = cur else {
                    return Err(at("a lynch outside a day".into()));
                };
                ensure!(lynch.is_none(), "{}", at("two lynch results in one day".into()));
                let expected = if modkilled.is_empty() {
                    expected_lynch(&votes, alive, day, rules.first_day_pardon)
                } else {
                    LynchResult::NoVoteModkillDay
                };
                ensure!(r == expected, "{}", at(format!("C11: the votes {votes:?} give {expected:?}")));
                lynch = Some(r);
                match r {
                    LynchResult::Lynched(s) => to_hang = Some(PlayerSet::single(s)),
                    LynchResult::Tie(l) => {
                        tie = l;
                        voters = runoff_voters(alive, tie);
                        seen.lynch_ties += 1;
                    }
                    LynchResult::Pardoned(_) => {
                        seen.pardons += 1;
                        to_hang = Some(PlayerSet::EMPTY)
                    }
                    LynchResult::AllPass | LynchResult::NoVoteModkillDay => to_hang = Some(PlayerSet::EMPTY),
                }
            }
            Event::RandomTieBreak { leaders: l, hanged } => {
                ensure!(
                    rules.tie_break == TieBreak::Random,
                    "{}",
                    at("C12: a random tie-break under catastrophe".into())
                );
                ensure!(!tie.is_empty() && to_hang.is_none(), "{}", at("a tie-break without a tie".into()));
                ensure!(l == tie && tie.contains(hanged), "{}", at(format!("the tie was {tie:?}")));
                to_hang = Some(PlayerSet::single(hanged));
                seen.random_tie_breaks += 1;
            }
            Event::NoRunoffAtFour => {
                ensure!(rules.tie_break == TieBreak::Catastrophe, "{}", at("C12.1 under random tie-break".into()));
                ensure!(!tie.is_empty() && to_hang.is_none(), "{}", at("C12.1 without a tie".into()));
                ensure!(alive.len() == 4, "{}", at(format!("C12.1 with {} alive", alive.len())));
                to_hang = Some(PlayerSet::EMPTY);
                seen.no_runoff_at_four += 1;
            }
            Event::Defence { seat, .. } => {
                ensure!(tie.contains(seat), "{}", at("C12.2: a defence from a player not tied".into()));
                ensure!(runoff == Runoff::None, "{}", at("C12.2: a defence after the runoff began".into()));
            }
            Event::Revote { round: r, candidates: c } => {
                ensure!(rules.tie_break == TieBreak::Catastrophe, "{}", at("a revote under random tie-break".into()));
                ensure!(!tie.is_empty() && to_hang.is_none(), "{}", at("a revote without an open tie".into()));
                ensure!(alive.len() != 4, "{}", at("C12.1: a revote with 4 alive".into()));
                // C12: the first revote, then at most `runoff_rounds` repeats of a tied one.
                ensure!(
                    r == round + 1 && r <= rules.runoff_rounds + 1,
                    "{}",
                    at(format!("C12: revote round after {round}"))
                );
                if r == 1 {
                    ensure!(runoff == Runoff::None, "{}", at("round 1 twice".into()));
                    ensure!(c == tie, "{}", at(format!("C12.4/5: round 1 must be among the tied {tie:?}")));
                    ensure!(
                        !(even(alive) && tie.len() == 2),
                        "{}",
                        at("C12.3: two tied, even count: no revote".into())
                    );
                    count_all_tied(seen, alive, tie, all_tied_revote);
                } else {
                    ensure!(
                        round_voters == voters,
                        "{}",
                        at(format!("C12.8: round {round} voters {round_voters:?}, expected {voters:?}"))
                    );
                    let l = leaders(&tally, candidates);
                    ensure!(c == l && l.len() >= 2, "{}", at(format!("the revote must be among the leaders {l:?}")));
                    ensure!(!(even(alive) && l.len() == 2), "{}", at("C12.4: two leaders go to hang-both".into()));
                }
                runoff = Runoff::Revote;
                round = r;
                candidates = c;
                tally = [0; 64];
                round_voters = PlayerSet::EMPTY;
                seen.revotes += 1;
            }
            Event::RunoffVote { seat, choice } => {
                ensure!(runoff == Runoff::Revote, "{}", at("a runoff vote outside a revote".into()));
                ensure!(
                    !tie.contains(seat) || voters.contains(seat),
                    "{}",
                    at(format!("C12.2: tied player {seat} voted in the runoff (tied {tie:?}, voters {voters:?})"))
                );
                ensure!(
                    voters.contains(seat),
                    "{}",
                    at(format!("C12.8: seat {seat} is not a runoff voter {voters:?}"))
                );
                // C12 (`runoff_all_tied = revote`): a tied voter never votes for himself.
                ensure!(choice != seat, "{}", at(format!("C12: runoff voter {seat} voted for himself")));
                ensure!(candidates.contains(choice), "{}", at(format!("C12.8: not a candidate of {candidates:?}")));
                if tie.contains(seat) {
                    seen.all_tied_votes += 1;
                }
                ensure!(!round_voters.contains(seat), "{}", at("C12.8: two runoff votes in one round".into()));
                round_voters.insert(seat);
                tally[choice as usize] += 1;
            }
            Event::HangBothVote { pair: p } => {
                ensure!(rules.tie_break == TieBreak::Catastrophe, "{}", at("hang-both under random tie-break".into()));
                ensure!(
                    to_hang.is_none() && runoff != Runoff::HangBoth,
                    "{}",
                    at("hang-both without an open tie".into())
                );
                ensure!(
                    even(alive) && p.len() == 2,
                    "{}",
                    at("C12.3: hang-both needs an even count and a pair".into())
                );
                if runoff == Runoff::None {
                    ensure!(p == tie, "{}", at(format!("C12.3: the pair must be the tied {tie:?}")));
                    count_all_tied(seen, alive, tie, all_tied_revote);
                } else {
                    ensure!(
                        round_voters == voters,
                        "{}",
                        at(format!("C12.8: round {round} voters {round_voters:?}, expected {voters:?}"))
                    );
                    let l = leaders(&tally, candidates);
                    ensure!(p == l, "{}", at(format!("C12.4: the pair must be the revote's leaders {l:?}")));
                }
                runoff = Runoff::HangBoth;
                pair = p;
                hang_voters = PlayerSet::EMPTY;
                hang_yes = 0;
                hang_no = 0;
                seen.hang_both_votes += 1;
            }
            Event::HangChoice { seat, hang } => {
                ensure!(runoff == Runoff::HangBoth, "{}", at("a hang choice outside a hang-both vote".into()));
                // C12.3: the pair votes on itself only when every living player
                // is tied and the tied are the voters (`runoff_all_tied = revote`).
                ensure!(
                    !pair.contains(seat) || voters.contains(seat),
                    "{}",
                    at("C12.3: a player of the pair voted on it".into())
                );
                // C12.2/C12.8: the tied never vote in the runoff while others
                // are alive to vote. Recorded rather than failed here, so one
                // known violation does not hide the others;
                // `tied_players_never_vote_in_a_runoff` asserts on it.
                if tie.contains(seat) && !voters.contains(seat) {
                    seen.tied_runoff_votes += 1;
                    if seen.tied_runoff_first.is_none() {
                        seen.tied_runoff_first = Some(at(format!(
                            "C12.2/C12.8: tied player {seat} voted in the runoff's hang-both vote (tied {tie:?}, pair {pair:?})"
                        )));
                    }
                }
                ensure!(
                    tie.contains(seat) || voters.contains(seat),
                    "{}",
                    at(format!("C12.8: seat {seat} is not a runoff voter {voters:?}"))
                );
                ensure!(!hang_voters.contains(seat), "{}", at("two hang choices".into()));
                hang_voters.insert(seat);
                if tie.contains(seat) && voters.contains(seat) {
                    seen.all_tied_votes += 1;
                }
                if hang { hang_yes += 1 } else { hang_no += 1 }
            }
            Event::RunoffResult { hanged } => {
                ensure!(to_hang.is_none(), "{}", at("a runoff result without an open tie".into()));
                ensure!(hanged.minus(tie).is_empty() && hanged.len() <= 2, "{}", at("C12.6".into()));
                match runoff {
                    Runoff::HangBoth => {
                        // (Tied players outside the voters are recorded above.)
                        ensure!(
                            hang_voters.minus(tie.minus(voters)) == voters,
                            "{}",
                            at(format!("C12.8: hang-both voters {hang_voters:?}, expected {voters:?}"))
                        );
                        let expect = if hang_yes > hang_no { pair } else { PlayerSet::EMPTY };
                        ensure!(hanged == expect, "{}", at(format!("C12.3: {hang_yes} hang vs {hang_no} pardon")));
                    }
                    Runoff::Revote => {
                        ensure!(
                            round_voters == voters,
                            "{}",
                            at(format!("C12.8: round voters {round_voters:?}, expected {voters:?}"))
                        );
                        let l = leaders(&tally, candidates);
                        ensure!(l.len() == 1 && hanged == l, "{}", at(format!("C12.4/5: the leaders are {l:?}")));
                    }
                    Runoff::None => return Err(at("a runoff result without a runoff".into())),
                }
                to_hang = Some(hanged);
            }
            Event::RunoffExhausted => {
                ensure!(
                    runoff == Runoff::Revote && round == rules.runoff_rounds + 1,
                    "{}",
                    at("C12: exhausted before `runoff_rounds` repeats".into())
                );
                ensure!(round_voters == voters, "{}", at(format!("C12.8: round voters, expected {voters:?}")));
                let l = leaders(&tally, candidates);
                ensure!(l.len() >= 2 && !(even(alive) && l.len() == 2), "{}", at(format!("leaders {l:?}")));
                ensure!(to_hang.is_none(), "{}", at("exhausted after a decision".into()));
                to_hang = Some(PlayerSet::EMPTY);
                seen.runoff_exhausted += 1;
            }
            Event::NightKillNick { seat, target } => {
                ensure!(matches!(cur, Cur::Night(_)), "{}", at("a nick outside a night".into()));
                ensure!(present.contains(seat), "{}", at("C16: an absent player sent a nick".into()));
                ensure!(shooters_all.contains(seat), "{}", at("C4: a nick from a non-shooter".into()));
                ensure!(alive.contains(target), "{}", at("C4: a nick for a player not alive".into()));
                ensure!(!nicked.contains(seat) && kill.is_none() && !missed, "{}", at("a nick out of order".into()));
                nicked.insert(seat);
                nicks[seat as usize] = Some(target);
            }
            Event::NightAct { seat, target: Some(target), .. } => {
                ensure!(matches!(cur, Cur::Night(_)), "{}", at("a night act outside a night".into()));
                ensure!(present.contains(seat), "{}", at("C16: an absent player acted".into()));
                ensure!(
                    matches!(roles[seat as usize], Role::Don | Role::Commissar),
                    "{}",
                    at("C5/C6: a night act from a role without one".into())
                );
                ensure!(alive.contains(target) && target != seat, "{}", at("C5/C6: an illegal check target".into()));
                ensure!(!acted.contains(seat), "{}", at("two night acts".into()));
                acted.insert(seat);
                acts[seat as usize] = Some(target);
            }
            Event::CampCheck { seat, target, camp } => {
                ensure!(roles[seat as usize] == Role::Commissar, "{}", at("C6: not the Commissar".into()));
                ensure!(acts[seat as usize] == Some(target), "{}", at("C6: a check nobody asked for".into()));
                ensure!(camp == roles[target as usize].camp(), "{}", at("C6: the wrong camp".into()));
                seen.camp_checks += 1;
            }
            Event::RoleCheck { seat, target, role, yes } => {
                ensure!(roles[seat as usize] == Role::Don, "{}", at("C5: not the Don".into()));
                ensure!(acts[seat as usize] == Some(target), "{}", at("C5: a check nobody asked for".into()));
                ensure!(role == Role::Commissar, "{}", at("C5: the Don asks about the Commissar".into()));
                ensure!(yes == (roles[target as usize] == Role::Commissar), "{}", at("C5: the wrong answer".into()));
                seen.role_checks += 1;
            }
            Event::NightKill { target, .. } => {
                ensure!(matches!(cur, Cur::Night(_)), "{}", at("a kill outside a night".into()));
                let shooters = shooters_all.inter(alive);
                ensure!(
                    !shooters.is_empty() && shooters.iter().all(|s| nicks[s as usize] == Some(target)),
                    "{}",
                    at(format!("C4: the living shooters {shooters:?} did not all send {target}"))
                );
                ensure!(kill.is_none() && !missed, "{}", at("two kill results in a night".into()));
                kill = Some(target);
                nights_without_kill = 0;
                seen.night_kills += 1;
            }
            Event::NightMiss(reason) => {
                ensure!(matches!(cur, Cur::Night(_)), "{}", at("a miss outside a night".into()));
                let shooters = shooters_all.inter(alive);
                match reason {
                    MissReason::Silent(s) => ensure!(
                        shooters.contains(s) && nicks[s as usize].is_none(),
                        "{}",
                        at("C4: a silent shooter who sent a nick".into())
                    ),
                    MissReason::Disagree(a, b) => ensure!(
                        shooters.contains(a)
                            && shooters.contains(b)
                            && nicks[a as usize].is_some()
                            && nicks[b as usize].is_some()
                            && nicks[a as usize] != nicks[b as usize],
                        "{}",
                        at("C4: a disagreement that is not one".into())
                    ),
                }
                ensure!(kill.is_none() && !missed, "{}", at("two kill results in a night".into()));
                missed = true;
                seen.night_misses += 1;
            }
            Event::NoKillCount { nights } => {
                ensure!(matches!(cur, Cur::Night(_)), "{}", at("a no-kill count outside a night".into()));
                ensure!(kill.is_none() && missed && !counted, "{}", at("C8: counted a night with a kill".into()));
                ensure!(
                    nights == nights_without_kill + 1,
                    "{}",
                    at(format!("C8: {nights_without_kill} nights without a kill before"))
                );
                nights_without_kill = nights;
                counted = true;
            }
            Event::Died { seat, cause, revealed } => {
                ensure!(alive.contains(seat), "{}", at("a death of a player not alive".into()));
                // C9 setting; C15: a modkilled player's role stays hidden regardless.
                let shown = rules.reveal_roles_on_death && cause != DeathCause::Modkilled;
                let expect_reveal = shown.then_some(roles[seat as usize]);
                ensure!(revealed == expect_reveal, "{}", at(format!("C9: expected revealed {expect_reveal:?}")));
                match cause {
                    DeathCause::Lynched => {
                        ensure!(matches!(cur, Cur::Day(_)), "{}", at("a lynch death outside a day".into()));
                        let decided = to_hang.ok_or_else(|| at("a lynch death before a decision".into()))?;
                        ensure!(decided.contains(seat), "{}", at(format!("the vote hanged {decided:?}")));
                        lynched.insert(seat);
                        ensure!(lynched.len() <= 2, "{}", at("C12.6: more than two left in one lynch".into()));
                        if lynched.len() == 2 {
                            seen.two_lynched += 1;
                        }
                    }
                    DeathCause::Mined => return Err(at("E25: a mine in the classic set".into())),
                    DeathCause::Killed => {
                        ensure!(matches!(cur, Cur::Night(_)), "{}", at("a kill death outside a night".into()));
                        ensure!(kill == Some(seat), "{}", at(format!("C4: the kill was {kill:?}")));
                    }
                    DeathCause::Modkilled => {
                        ensure!(modkilled.contains(seat), "{}", at("C15: a modkill death without a modkill".into()));
                    }
                }
                alive.remove(seat);
                dead.insert(seat);
                owe_last_word.insert(seat);
                if revealed.is_some() {
                    seen.revealed_deaths += 1;
                }
                batch_open = true;
            }
            Event::LastWord { seat, .. } => {
                ensure!(
                    owe_last_word.contains(seat),
                    "{}",
                    at("C13: a last word from a player who did not just leave".into())
                );
                owe_last_word.remove(seat);
                seen.last_words += 1;
            }
            Event::GameEnd { winner, cause, day } => {
                ensure!(idx == log.len() - 1, "{}", at("GameEnd is not the last event".into()));
                ensure!(owe_last_word.is_empty(), "{}", at(format!("C13: {owe_last_word:?} got no last word")));
                let holds = end_state(roles, alive, game.mafia_win());
                match cause {
                    EndCause::MafiaEliminated
                    | EndCause::TownEliminated
                    | EndCause::Parity
                    | EndCause::Nobody
                    | EndCause::OnlyBandits => {
                        ensure!(
                            holds == Some((winner, cause)),
                            "{}",
                            at(format!("C17/C18/E2: the living {alive:?} give {holds:?}"))
                        );
                        ensure!(must_end, "{}", at("C19: an end outside an elimination".into()));
                    }
                    EndCause::NoKillRule => {
                        ensure!(holds.is_none(), "{}", at(format!("C19: {holds:?} held already")));
                        ensure!(winner == Some(Camp::Town), "{}", at("C8: the town wins".into()));
                        ensure!(
                            game.no_kill_limit() == Some(nights_without_kill) && counted,
                            "{}",
                            at(format!(
                                "C8: {nights_without_kill} nights without a kill, limit {:?}",
                                game.no_kill_limit()
                            ))
                        );
                    }
                    EndCause::DayCap => {
                        ensure!(holds.is_none(), "{}", at(format!("C19: {holds:?} held already")));
                        ensure!(winner.is_none(), "{}", at("C3: a capped game is a draw".into()));
                        ensure!(
                            cur == Cur::Night(rules.day_cap) && day == rules.day_cap,
                            "{}",
                            at(format!("C3: the cap is {}", rules.day_cap))
                        );
                        ensure!(kill.is_some() != missed, "{}", at("C4: the last night had no result".into()));
                    }
                }
                let phase_day = match cur {
                    Cur::Day(d) | Cur::Night(d) => d,
                    Cur::Start => 0,
                };
                ensure!(day == phase_day, "{}", at(format!("the game ended in {cur:?}")));
                ensure!(out.winner == winner && out.cause == cause, "{}", at(format!("outcome {out:?}")));
                ensure!(out.days == day, "{}", at(format!("outcome days {}", out.days)));
                ensure!(out.survivors == alive, "{}", at(format!("outcome survivors {:?}", out.survivors)));
                seen.ends[cause as usize] += 1;
                cur = Cur::Start; // consumed: nothing may follow (checked by position)
            }
            other => return Err(at(format!("not an event of the classic set: {other:?}"))),
        }
    }
    ensure!(matches!(log.last(), Some(Event::GameEnd { .. })), "the game did not end with a GameEnd event");
    ensure!(
        illegal == 0 && out.illegal_decisions == 0,
        "built-in agents made illegal decisions: {illegal} Illegal events, outcome counts {}",
        out.illegal_decisions
    );
    Ok(())
}

/// Plays `GAMES` games per preset and lineup under `rules` and checks each.
fn run_variant(rules: &[(&str, &str)]) -> Seen {
    let mut seen = Seen::default();
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
                if seen.tied_runoff_votes > tied_before && seen.tied_runoff_game.is_none() {
                    seen.tied_runoff_game = Some(format!(
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
    seen
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
    let s = run_variant(&[]);
    assert!(s.revotes > 0 && s.hang_both_votes > 0, "{s:?}");
    assert!(s.all_tied_runoffs > 0, "the all-tied exception was exercised: {s:?}");
    assert!(
        s.tied_runoff_votes == 0,
        "{} hang-both votes were cast by tied players; the first:\n{}",
        s.tied_runoff_votes,
        s.tied_runoff_game.as_deref().unwrap_or("")
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
                *s = (*s + 1) % game.players() as Seat;
            }
            refused(&bad, &out, "C11");
            tried[5] += 1;
        }
        // A night kill nobody agreed on.
        if let Some(k) = pos(&|e| matches!(e, Event::NightKill { .. })) {
            let mut bad = log.clone();
            if let Event::NightKill { target, .. } = &mut bad[k] {
                *target = (*target + 1) % game.players() as Seat;
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
                *choice = (0..game.players() as Seat).find(|&s| !tied.contains(s) && s != voter).unwrap();
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
    let n = o.players() as Seat;
    let _ = write!(
        s,
        "seat={} role={:?} camp={:?} n={} phase={:?} day={} alive={:?} others={:?} mates={:?} \
         checked={:?} found_role={:?} last={:?} nwk={}",
        o.seat(),
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
    for p in 0..n {
        let _ = write!(
            s,
            " | {p}: alive={} mate={:?} known={:?} revealed={:?} vote={:?} changed={} for={} prev={:?} said={:?} death={:?}",
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
        mix(mix(self.salt, o.alive().0), mix(phase, o.seat() as u64 * 64 + what))
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
    let n = game.players() as Seat;
    let mut states = [State::default(), State::default()];
    let mut scripts = [0, 1].map(|_| Script { salt, observer, snaps: Vec::new() });
    let mut host = [0, 1].map(|_| Stream::new(key, index, Purpose::Host));
    let mut activity = [0, 1].map(|_| Stream::new(key, index, Purpose::Activity));
    let mut moves = NightMoves::default();
    for k in 0..2 {
        states[k].set_roles(game, roles[k]);
        for s in 0..n {
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
                let mut rng = Stream::new(key, 1_000_000 + i, Purpose::Seat(0));
                let mut roles_a = vec![Role::Citizen; n];
                {
                    let mut st = State::default();
                    st.deal(&game, &mut Stream::new(key, i, Purpose::Deal));
                    roles_a.copy_from_slice(st.roles());
                }
                let town: Vec<Seat> = (0..n as Seat).filter(|&s| roles_a[s as usize].camp() == Camp::Town).collect();
                // Half the games watch the Commissar, half a citizen.
                let observer = if i % 2 == 0 {
                    commissar_observers += 1;
                    town.iter().copied().find(|&s| roles_a[s as usize] == Role::Commissar).unwrap()
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
                let mut free: Vec<Seat> = (0..n as Seat)
                    .filter(|&s| s != observer && !checked.contains(s))
                    .filter(|&s| !game.rules().reveal_roles_on_death || st.alive().contains(s))
                    .collect();
                let hidden: Vec<Role> = free.iter().map(|&s| roles_a[s as usize]).collect();
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
                        roles_b[s as usize] = r;
                    }
                }

                // The very start: a fresh `set_roles` state.
                let (mut sa, mut sb) = (State::default(), State::default());
                sa.set_roles(&game, &roles_a);
                sb.set_roles(&game, &roles_b);
                for &t in &town {
                    if roles_b[t as usize] == roles_a[t as usize] {
                        let (oa, ob) = (sa.observe(t), sb.observe(t));
                        for s in 0..n as Seat {
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
                        "{preset} {rules:?} game {i}: seat {observer} ({:?}) sees a difference at step {k}\n\
                         roles A {roles_a:?}\nroles B {roles_b:?}\nA: {x}\nB: {y}",
                        roles_a[observer as usize]
                    );
                }
                assert_eq!(a.len(), b.len());
                compared += a.len() as u64;

                // Control: the seat the Commissar checked first, moved to the
                // other camp, must change what he sees from that night on
                // (the comparison has teeth).
                if let Some(c) = first_check {
                    let other = (0..n as Seat)
                        .filter(|&s| s != observer)
                        .find(|&s| roles_a[s as usize].camp() != roles_a[c as usize].camp())
                        .expect("both camps have members");
                    let mut roles_c = roles_a.clone();
                    roles_c.swap(c as usize, other as usize);
                    let [a2, c2] = lockstep(&game, [&roles_a, &roles_c], observer, salt, i);
                    if c2.iter().any(|x| x.starts_with("after night 1:")) {
                        assert!(a2 != c2, "game {i}: moving checked seat {c} to the other camp went unseen");
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
        let n = game.players() as Seat;
        let mut w = Worker::new(make_lineup("classic"), key);
        for i in 0..500 {
            w.play(&game, i, &mut NoLog);
            let mut fresh = State::default();
            fresh.set_roles(&game, w.state.roles());
            for st in [&w.state, &fresh] {
                let mafia: PlayerSet = (0..n).filter(|&s| st.role(s).camp() == Camp::Mafia).collect();
                assert_eq!(mafia.len() as usize, game.count(Role::Don) + game.count(Role::Mafioso));
                assert_eq!(st.camp_members(Camp::Mafia), mafia);
                for s in 0..n {
                    let o = st.observe(s);
                    assert_eq!(o.role(), st.role(s));
                    if mafia.contains(s) {
                        assert_eq!(o.camp_mates(), mafia, "{preset} game {i} seat {s}");
                        for t in 0..n {
                            let expect = mafia.contains(t).then(|| st.role(t));
                            assert_eq!(o.mate_role(t), expect, "{preset} game {i} seat {s} on {t}");
                            if mafia.contains(t) {
                                assert_eq!(o.known_camp(t), Some(Camp::Mafia));
                            }
                        }
                    } else {
                        assert_eq!(o.camp_mates(), PlayerSet::single(s), "{preset} game {i} seat {s}");
                        for t in (0..n).filter(|&t| t != s) {
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
