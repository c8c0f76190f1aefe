//! The classic checker: one game's event log and outcome re-read against
//! clauses C1–C19 of `rules/classic.md`.
//!
//! [`check`] is an independent re-reading of the rules that follows the log
//! event by event: it keeps its own living set, votes, tallies, runoff and
//! night state, and never asks the engine what is legal. What it checks:
//! - C1: the deal comes first, one role per seat, the setup's multiset;
//! - C3: days and nights alternate from day 1, up to the day cap (a capped
//!   game is a draw);
//! - the dead never act, nor the absent (C16); absence is drawn before any
//!   decision of the phase;
//! - C4: the night kill is the one target every living shooter sent, or a
//!   miss (a silent shooter, or two who disagree); exactly one of the two a
//!   night; C5/C6: the Don's and the Commissar's checks answer truly, and
//!   only what was asked;
//! - C8: the count of nights without a kill, and the town's win at the
//!   limit;
//! - C9: roles are revealed on death exactly as the setting says (never on a
//!   modkill, C15);
//! - C10: no vote for oneself or for the dead, at most one change of vote a
//!   day, to a different vote;
//! - C11: the lynch result is what the day's final votes give (the first
//!   day's pardon included);
//! - C12: the runoff in all its branches: no runoff at four (C12.1), the
//!   hang-both vote (C12.3), the revotes among the leaders (C12.4/C12.5) up
//!   to `runoff_rounds` repeats, at most two leave by one lynch (C12.6), the
//!   runoff's voters (C12.2/C12.8: every living player other than the tied;
//!   with every living player tied, the tied under `runoff_all_tied =
//!   revote`, never for themselves, nobody under `nobody`); or the random
//!   tie-break;
//! - C13: every player who leaves gets a last word, and only they;
//! - C15: a modkill day has no votes and no lynch;
//! - C17–C19 (and E2 for the classic camps): the end is checked after every
//!   batch of deaths, the game stops as soon as an end holds, and the winner
//!   and cause are the ones the living set gives;
//! - the outcome agrees with the log (winner, cause, days, survivors);
//! - no `Illegal` events and no illegal decisions counted (the checker is
//!   meant for built-in agents, which never make one).
//!
//! A tied player's vote in a runoff's hang-both vote while others were alive
//! to vote (C12.2/C12.8) is counted in [`Seen::tied_runoff_votes`] rather
//! than refused, so that one known violation does not hide the others.
//!
//! The checker is for games without extended roles whose camp kill follows
//! C4 (not `camp_kill = leader`): see the crate docs for which checker
//! applies to a game.

use crate::{Cur, ensure, read_deal};
use mafia_engine::{
    Camp, DeathCause, EndCause, Event, Game, LynchResult, MafiaWin, MissReason, Outcome, PlayerSet, Role, Seat,
    TieBreak, Vote,
};

fn is_mafia(roles: &[Role], s: Seat) -> bool {
    roles[s].camp() == Camp::Mafia
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
    let best = among.iter().map(|s| tally[s]).max().unwrap_or(0);
    among.iter().filter(|&s| tally[s] == best).collect()
}

/// C11: the lynch result of a day's final votes.
fn expected_lynch(votes: &[Option<Vote>; 64], alive: PlayerSet, day: u16, pardon: bool) -> LynchResult {
    let mut tally = [0u32; 64];
    let mut total = 0;
    for s in alive.iter() {
        if let Some(Vote::For(t)) = votes[s] {
            tally[t] += 1;
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
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// Games checked (passed or refused).
    pub games: u64,
    /// Games by how they ended (`EndCause as usize`), once the end checked out.
    pub ends: [u64; EndCause::COUNT],
    /// C12: day votes that ended in a tie for the lead.
    pub lynch_ties: u64,
    /// C12 (`tie_break = random`): ties settled by the host's draw.
    pub random_tie_breaks: u64,
    /// C12.1: ties with four alive, where nobody is hanged.
    pub no_runoff_at_four: u64,
    /// C12: tied revotes held.
    pub revotes: u64,
    /// C12: votes on hanging both tied players.
    pub hang_both_votes: u64,
    /// C12: runoffs that ran out of rounds (nobody hanged).
    pub runoff_exhausted: u64,
    /// C12.6: lynches that took two players.
    pub two_lynched: u64,
    /// C10: votes changed (at most one a player a day).
    pub vote_changes: u64,
    /// C10/C11: PASS votes cast.
    pub passes: u64,
    /// C11.2: day-1 pardons (one vote against PASS votes).
    pub pardons: u64,
    /// C16: players absent for a phase.
    pub absences: u64,
    /// C15: players the host removed.
    pub modkills: u64,
    /// C4: night kills carried out.
    pub night_kills: u64,
    /// C4: nights whose kill did not happen.
    pub night_misses: u64,
    /// C6: the Commissar's checks of a camp.
    pub camp_checks: u64,
    /// C5: the Don's checks for the Commissar.
    pub role_checks: u64,
    /// C9: deaths whose role was announced.
    pub revealed_deaths: u64,
    /// C13: last words spoken.
    pub last_words: u64,
    /// C12 (`runoff_all_tied = revote`): runoffs in which every living
    /// player was tied, so the tied voted (never for themselves).
    pub all_tied_runoffs: u64,
    /// Runoff votes the tied cast in such runoffs.
    pub all_tied_votes: u64,
    /// C12 (`runoff_all_tied = nobody`): runoffs with every living player
    /// tied, so nobody voted.
    pub silent_runoffs: u64,
    /// C12.2/C12.8 violations: a tied player's vote in the runoff while
    /// others were alive to vote.
    pub tied_runoff_votes: u64,
    /// The first such violation: the event and the clause.
    pub tied_runoff_first: Option<String>,
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
pub fn check(game: &Game, log: &[Event], out: &Outcome, seen: &mut Seen) -> Result<(), String> {
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
    let roles = read_deal(game, log)?;
    let roles = &roles[..n];
    let shooters_all: PlayerSet = Seat::all(n).filter(|&s| roles[s].info().shoots).collect();

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
            ensure!(!dead.contains(s), "{}", at(format!("seat {s:?} acted after its death")));
            ensure!(alive.contains(s), "{}", at(format!("seat {s:?} is not a living player")));
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
                let prev = votes[seat];
                if change {
                    ensure!(prev.is_some(), "{}", at("C10: a change before a first vote".into()));
                    ensure!(!changed.contains(seat), "{}", at("C10: a second vote change in one day".into()));
                    ensure!(prev != Some(vote), "{}", at("C10: a change to the same vote".into()));
                    changed.insert(seat);
                    seen.vote_changes += 1;
                } else {
                    ensure!(prev.is_none(), "{}", at("C10: two first votes in one day".into()));
                }
                votes[seat] = Some(vote);
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
                    at(format!("C12.2: tied player {seat:?} voted in the runoff (tied {tie:?}, voters {voters:?})"))
                );
                ensure!(
                    voters.contains(seat),
                    "{}",
                    at(format!("C12.8: seat {seat:?} is not a runoff voter {voters:?}"))
                );
                // C12 (`runoff_all_tied = revote`): a tied voter never votes for himself.
                ensure!(choice != seat, "{}", at(format!("C12: runoff voter {seat:?} voted for himself")));
                ensure!(candidates.contains(choice), "{}", at(format!("C12.8: not a candidate of {candidates:?}")));
                if tie.contains(seat) {
                    seen.all_tied_votes += 1;
                }
                ensure!(!round_voters.contains(seat), "{}", at("C12.8: two runoff votes in one round".into()));
                round_voters.insert(seat);
                tally[choice] += 1;
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
                            "C12.2/C12.8: tied player {seat:?} voted in the runoff's hang-both vote (tied {tie:?}, pair {pair:?})"
                        )));
                    }
                }
                ensure!(
                    tie.contains(seat) || voters.contains(seat),
                    "{}",
                    at(format!("C12.8: seat {seat:?} is not a runoff voter {voters:?}"))
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
                nicks[seat] = Some(target);
            }
            Event::NightAct { seat, target: Some(target), .. } => {
                ensure!(matches!(cur, Cur::Night(_)), "{}", at("a night act outside a night".into()));
                ensure!(present.contains(seat), "{}", at("C16: an absent player acted".into()));
                ensure!(
                    matches!(roles[seat], Role::Don | Role::Commissar),
                    "{}",
                    at("C5/C6: a night act from a role without one".into())
                );
                ensure!(alive.contains(target) && target != seat, "{}", at("C5/C6: an illegal check target".into()));
                ensure!(!acted.contains(seat), "{}", at("two night acts".into()));
                acted.insert(seat);
                acts[seat] = Some(target);
            }
            Event::CampCheck { seat, target, camp } => {
                ensure!(roles[seat] == Role::Commissar, "{}", at("C6: not the Commissar".into()));
                ensure!(acts[seat] == Some(target), "{}", at("C6: a check nobody asked for".into()));
                ensure!(camp == roles[target].camp(), "{}", at("C6: the wrong camp".into()));
                seen.camp_checks += 1;
            }
            Event::RoleCheck { seat, target, role, yes } => {
                ensure!(roles[seat] == Role::Don, "{}", at("C5: not the Don".into()));
                ensure!(acts[seat] == Some(target), "{}", at("C5: a check nobody asked for".into()));
                ensure!(role == Role::Commissar, "{}", at("C5: the Don asks about the Commissar".into()));
                ensure!(yes == (roles[target] == Role::Commissar), "{}", at("C5: the wrong answer".into()));
                seen.role_checks += 1;
            }
            Event::NightKill { target, .. } => {
                ensure!(matches!(cur, Cur::Night(_)), "{}", at("a kill outside a night".into()));
                let shooters = shooters_all.inter(alive);
                ensure!(
                    !shooters.is_empty() && shooters.iter().all(|s| nicks[s] == Some(target)),
                    "{}",
                    at(format!("C4: the living shooters {shooters:?} did not all send {target:?}"))
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
                        shooters.contains(s) && nicks[s].is_none(),
                        "{}",
                        at("C4: a silent shooter who sent a nick".into())
                    ),
                    MissReason::Disagree(a, b) => ensure!(
                        shooters.contains(a)
                            && shooters.contains(b)
                            && nicks[a].is_some()
                            && nicks[b].is_some()
                            && nicks[a] != nicks[b],
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
                let expect_reveal = shown.then_some(roles[seat]);
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
