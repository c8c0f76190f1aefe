//! The day: modkills (C15), absence (C16), posts, votes and the one change
//! (C10), the lynch outcome (C11) and the catastrophe (C12), last words (C13)
//! and the end check (C19).

use crate::decide::Players;
use crate::event::{DeathCause, EndCause, Event, Log, LynchResult};
use crate::rules::{LynchLimit, RunoffAllTied, RunoffMarks, TieBreak};
use crate::seat::MAX_PLAYERS;
use crate::seat::{PlayerSet, Seat};
use crate::setup::Game;
use crate::speech::{Publication, Vote};
use crate::state::{End, NO_VOTE, PASS, Phase, State, decode, draw_each, encode};
use crate::util::pick;
use rand::Rng;

impl State {
    /// C13: every player who left this phase gets his last word.
    #[inline(always)]
    pub(crate) fn last_words<P: Players, L: Log>(&mut self, players: &mut P, log: &mut L) {
        let leaving = self.leaving;
        self.leaving = PlayerSet::EMPTY;
        // A quiet seat's last word is empty: logged, not asked, nothing published.
        if !L::ENABLED && leaving.inter(self.talkers).is_empty() {
            return;
        }
        for s in leaving.iter() {
            let what = if self.talkers.contains(s) { players.last_word(&self.observe(s)) } else { Publication::NONE };
            self.publish(s, &what);
            if L::ENABLED {
                log.push(Event::LastWord { seat: s, what });
            }
        }
    }

    /// Plays day `day`. Returns the end of the game if it ended today.
    pub fn run_day<P, H, A, L>(
        &mut self,
        game: &Game,
        day: u16,
        players: &mut P,
        host: &mut H,
        activity: &mut A,
        log: &mut L,
    ) -> Option<End>
    where
        P: Players,
        H: Rng + ?Sized,
        A: Rng + ?Sized,
        L: Log,
    {
        let rules = &game.rules;
        // C3: a game still running after the day cap is a draw.
        if day > rules.day_cap {
            self.phase = Phase::Day(rules.day_cap);
            return Some(self.finish(End { winner: None, cause: EndCause::DayCap }, log));
        }
        self.phase = Phase::Day(day);
        self.version = self.version.wrapping_add(1);
        players.begin_phase(day, false);
        if L::ENABLED {
            log.push(Event::DayStart { day, alive: self.alive });
        }
        // Whole arrays (64 bytes each, a few vector moves): a slice of the
        // game's length is a call to `memcpy`/`memset`. Seats past the
        // game's are never written, so they stay `NO_VOTE` and 0.
        self.prev_votes = self.votes;
        self.votes = [NO_VOTE; MAX_PLAYERS];
        self.tally = [0; MAX_PLAYERS];
        self.changed = PlayerSet::EMPTY;

        // C15: modkills, one draw per living player from the activity stream.
        {
            let gone = draw_each(self.alive, game.modkill_threshold, activity);
            if L::ENABLED {
                for s in gone.iter() {
                    log.push(Event::Modkill { seat: s });
                }
            }
            if !gone.is_empty() {
                self.eliminate(gone, DeathCause::Modkilled, log);
                self.last_words(players, log);
                if let Some(end) = self.end_check(game.mafia_win) {
                    return Some(self.finish(end, log));
                }
                // C15: on a day with a modkill no lynch vote is held.
                if L::ENABLED {
                    log.push(Event::Lynch(LynchResult::NoVoteModkillDay));
                }
                return None;
            }
        }

        // C16: who is here today.
        self.draw_presence(game.absence_threshold, activity, log);
        let present = self.present;

        // Posts (a Commissar may reveal here).
        for s in present.inter(self.talkers).iter() {
            let what = players.post(&self.observe(s));
            if !what.is_empty() {
                self.publish(s, &what);
                if L::ENABLED {
                    log.push(Event::Post { seat: s, what });
                }
            }
        }

        // C10: first votes, in seat order.
        for s in present.iter() {
            let v = players.vote(&self.observe(s));
            if self.vote_is_legal(s, v) {
                self.set_vote(s, v);
                if L::ENABLED {
                    log.push(Event::Vote { seat: s, vote: v, change: false });
                }
            } else {
                self.refuse(s, "vote", log);
            }
        }
        // C10: one change per player, in seat order; the second vote is final.
        for s in present.inter(self.talkers).iter() {
            if self.votes[s] == NO_VOTE {
                continue;
            }
            if let Some(v) = players.revise(&self.observe(s)) {
                if encode(v) == self.votes[s] {
                    continue;
                }
                if self.vote_is_legal(s, v) {
                    self.set_vote(s, v);
                    self.changed.insert(s);
                    if L::ENABLED {
                        log.push(Event::Vote { seat: s, vote: v, change: true });
                    }
                } else {
                    self.refuse(s, "vote change", log);
                }
            }
        }

        // E16, E25, E28: the extended marks on the count.
        let mut counted = if game.extended { Some(self.count_marks(game, players, present, log)) } else { None };
        let result = match &counted {
            Some(tally) => lynch_result_of(tally, self.alive, day, rules.first_day_pardon),
            None => self.lynch_result(day, rules.first_day_pardon),
        };
        let hanged = match result {
            LynchResult::Lynched(s) => {
                if L::ENABLED {
                    log.push(Event::Lynch(LynchResult::Lynched(s)));
                }
                PlayerSet::single(s)
            }
            LynchResult::Tie(leaders) => {
                if L::ENABLED {
                    log.push(Event::Lynch(LynchResult::Tie(leaders)));
                }
                match rules.tie_break {
                    TieBreak::Random => {
                        let s = pick(host, leaders).expect("a tie has leaders");
                        if L::ENABLED {
                            log.push(Event::RandomTieBreak { leaders, hanged: s });
                        }
                        PlayerSet::single(s)
                    }
                    TieBreak::Catastrophe => {
                        // E25/E28 with `runoff_marks = marked`: the runoffs are
                        // counts of the day too. The Trickster's pick votes, not
                        // counted; each revote raises a candidate's count for
                        // the mines to his highest of the day.
                        let (removed, peak) = match counted.as_mut() {
                            Some(peak) if rules.runoff_marks == RunoffMarks::Marked => (self.tricked, Some(peak)),
                            _ => (PlayerSet::EMPTY, None),
                        };
                        let round = Runoff { rounds: rules.runoff_rounds, all_tied: rules.runoff_all_tied, removed };
                        self.catastrophe(leaders, round, peak, players, log)
                    }
                }
            }
            other => {
                if L::ENABLED {
                    log.push(Event::Lynch(other));
                }
                PlayerSet::EMPTY
            }
        };
        // E25: a mined player with 3 or more votes dies, lynched or not
        // (in the day's count; with `runoff_marks = marked`, in any count).
        // `lynch_limit = day`: C12.6's "never more than two leave" bounds
        // the mines too, which go off in seat order while fewer than two
        // have left (a mine on a hanged player still goes off).
        let mut mined = PlayerSet::EMPTY;
        if let Some(tally) = &counted {
            let day_limit = rules.lynch_limit == LynchLimit::Day;
            for s in self.mines.inter(self.alive).iter() {
                let votes = tally[s];
                if votes >= 3 {
                    if day_limit && !hanged.contains(s) && hanged.len() + mined.len() >= 2 {
                        continue;
                    }
                    if L::ENABLED {
                        log.push(Event::MineExplodes { seat: s, votes });
                    }
                    if !hanged.contains(s) {
                        mined.insert(s);
                    }
                }
            }
        }
        if !hanged.is_empty() || !mined.is_empty() {
            // C12.6: one or two leave by the lynch; with the mines, one elimination (C19 checks after it).
            debug_assert!(hanged.len() <= 2);
            if !hanged.is_empty() {
                self.eliminate(hanged, DeathCause::Lynched, log);
            }
            if !mined.is_empty() {
                self.eliminate(mined, DeathCause::Mined, log);
            }
            self.last_words(players, log);
            if let Some(end) = self.end_check(game.mafia_win) {
                return Some(self.finish(end, log));
            }
        }
        None
    }

    /// E28, E16: today's count: the Trickster's removed votes do not count;
    /// the Chosen's secret votes do. Nobody sees this count but the host.
    fn count_marks<P: Players, L: Log>(
        &mut self,
        game: &Game,
        players: &mut P,
        present: PlayerSet,
        log: &mut L,
    ) -> [u8; MAX_PLAYERS] {
        let mut tally = self.tally;
        for s in self.tricked.inter(present).iter() {
            if let Some(Vote::For(t)) = decode(self.votes[s]) {
                tally[t] -= 1;
                if L::ENABLED {
                    log.push(Event::VoteRemoved { seat: s });
                }
            }
        }
        // E16: the Chosen; E19: a Role Prostitute who borrowed him last night.
        let k = game.rules.chosen_secret_votes;
        let mut secret = self.secret_voters;
        if let Some(chosen) = self.holder(crate::Role::Chosen) {
            secret.insert(chosen);
        }
        // E18 with `hex_takes_secret_votes`: a hex cast last night (and not
        // lifted by a heal) takes the secret votes of the day before the
        // night it blocks. By default the Chosen keeps them (RULES.md, E16).
        if game.rules.hex_takes_secret_votes {
            secret = secret.minus(self.hex_next);
        }
        for voter in secret.inter(present).iter() {
            if k == 0 {
                break;
            }
            let open = match decode(self.votes[voter]) {
                Some(Vote::For(t)) => Some(t),
                _ => None,
            };
            let target = match players.secret_vote(&self.observe(voter)) {
                Some(t) if t != voter && self.alive.contains(t) => Some(t),
                Some(_) => {
                    self.refuse(voter, "secret vote", log);
                    open
                }
                None => open,
            };
            if let Some(t) = target {
                tally[t] += k;
                if L::ENABLED {
                    log.push(Event::SecretVotes { seat: voter, target: t, votes: k });
                }
            }
        }
        tally
    }

    /// Records `s`'s current vote, keeping the tally in step.
    #[inline]
    fn set_vote(&mut self, s: Seat, v: Vote) {
        let old = self.votes[s];
        if old != NO_VOTE && old != PASS {
            self.tally[old as usize] -= 1;
        }
        let new = encode(v);
        if new != PASS {
            self.tally[new as usize] += 1;
        }
        self.votes[s] = new;
    }

    /// C10: a vote is for a living player other than the voter, or PASS.
    #[inline]
    fn vote_is_legal(&self, voter: Seat, v: Vote) -> bool {
        match v {
            Vote::Pass => true,
            // The options the voter is shown (`Observation::vote_options`).
            Vote::For(t) => self.observe(voter).vote_options().contains(t),
        }
    }

    pub(crate) fn refuse<L: Log>(&mut self, seat: Seat, what: &'static str, log: &mut L) {
        self.illegal += 1;
        if L::ENABLED {
            log.push(Event::Illegal { seat, what });
        }
    }

    /// C11: the outcome of today's final votes.
    pub(crate) fn lynch_result(&self, day: u16, first_day_pardon: bool) -> LynchResult {
        lynch_result_of(&self.tally, self.alive, day, first_day_pardon)
    }
}

/// C11: the outcome of a count.
fn lynch_result_of(tally: &[u8; MAX_PLAYERS], alive: PlayerSet, day: u16, first_day_pardon: bool) -> LynchResult {
    {
        // Only the living vote and only the living are voted for today.
        let (leaders, best) = leaders_of(tally, alive);
        // C11.1: nobody voted for anybody.
        if best == 0 {
            return LynchResult::AllPass;
        }
        // C11.2: day 1, one vote for a player and every other cast vote PASS.
        if day == 1 && first_day_pardon && best == 1 && leaders.len() == 1 {
            return LynchResult::Pardoned(leaders.lowest().expect("one vote has a target"));
        }
        // C11.3 / C11.4.
        if leaders.len() == 1 { LynchResult::Lynched(leaders.lowest().unwrap()) } else { LynchResult::Tie(leaders) }
    }
}

/// How the runoffs of a catastrophe are held (C12): the rule settings they
/// read, and whose runoff votes do not count (E28 with `runoff_marks =
/// marked`; otherwise nobody's).
#[derive(Clone, Copy)]
pub(crate) struct Runoff {
    pub(crate) rounds: u8,
    pub(crate) all_tied: RunoffAllTied,
    pub(crate) removed: PlayerSet,
}

impl State {
    /// C12: the catastrophe procedure for a tie among `tied`. Returns who is
    /// hanged: nobody, one, or two (C12.6: never more). With `peak` (E25
    /// with `runoff_marks = marked`), each revote raises a candidate's count
    /// there to the most votes he had in any count of the day.
    pub(crate) fn catastrophe<P: Players, L: Log>(
        &mut self,
        tied: PlayerSet,
        runoff: Runoff,
        mut peak: Option<&mut [u8; MAX_PLAYERS]>,
        players: &mut P,
        log: &mut L,
    ) -> PlayerSet {
        let Runoff { rounds: runoff_rounds, all_tied, removed } = runoff;
        let alive_n = self.alive.len();
        // C12.1: with exactly 4 alive there is no runoff.
        if alive_n == 4 {
            if L::ENABLED {
                log.push(Event::NoRunoffAtFour);
            }
            return PlayerSet::EMPTY;
        }
        // C12.2: the tied may each write a defence.
        for s in tied.inter(self.talkers).iter() {
            let what = players.defence(&self.observe(s));
            if !what.is_empty() {
                self.publish(s, &what);
                if L::ENABLED {
                    log.push(Event::Defence { seat: s, what });
                }
            }
        }
        let even = alive_n.is_multiple_of(2);
        // C12.2: the voters are the other living players. C12 «Голосовать во
        // втором туре должны все»: when all the living are tied, nobody else
        // is left, and `runoff_all_tied = revote` has the tied vote (never
        // for themselves); `nobody` leaves the runoff without voters.
        let mut voters = self.alive.minus(tied);
        if voters.is_empty() && all_tied == RunoffAllTied::Revote {
            voters = tied;
        }
        // C12.3: even count, two tied: hang both or pardon both.
        if even && tied.len() == 2 {
            return self.hang_both_vote(tied, voters, removed, players, log);
        }
        // C12.4 / C12.5: revotes among the tied; a tied revote is repeated at most `runoff_rounds` times.
        let mut candidates = tied;
        // The first revote, then at most `runoff_rounds` repeats of a tied one.
        for round in 1..=runoff_rounds + 1 {
            if L::ENABLED {
                log.push(Event::Revote { round, candidates });
            }
            // E28 (`runoff_marks = marked`): the loop that leaves removed
            // votes out is taken only when a voter's vote is removed, so
            // the plain count (every classic game) tests nothing per vote.
            let tally = if removed.inter(voters).is_empty() {
                self.runoff_votes::<false, P, L>(voters, candidates, removed, players, log)
            } else {
                self.runoff_votes::<true, P, L>(voters, candidates, removed, players, log)
            };
            if let Some(peak) = peak.as_deref_mut() {
                for c in candidates.iter() {
                    peak[c] = peak[c].max(tally[c]);
                }
            }
            let (leaders, _) = leaders_of(&tally, candidates);
            if leaders.len() == 1 {
                if L::ENABLED {
                    log.push(Event::RunoffResult { hanged: leaders });
                }
                return leaders;
            }
            // C12.4: even count, two leaders: hang both or pardon both.
            if even && leaders.len() == 2 {
                return self.hang_both_vote(leaders, voters, removed, players, log);
            }
            // Three or more leaders (even) or a repeated tie (odd): vote again among the leaders.
            candidates = leaders;
        }
        if L::ENABLED {
            log.push(Event::RunoffExhausted);
        }
        PlayerSet::EMPTY
    }

    /// C12.2/C12.8: one revote: every voter votes, exactly once, for one
    /// of the candidates (never himself); no PASS, no absence. With
    /// `MARKED`, the votes of `removed` are cast but not counted (E28).
    #[inline(always)]
    fn runoff_votes<const MARKED: bool, P: Players, L: Log>(
        &mut self,
        voters: PlayerSet,
        candidates: PlayerSet,
        removed: PlayerSet,
        players: &mut P,
        log: &mut L,
    ) -> [u8; MAX_PLAYERS] {
        let mut tally = [0u8; MAX_PLAYERS];
        for v in voters.iter() {
            // A tied voter never votes for himself (`runoff_all_tied`).
            let options = candidates.without(v);
            let c = players.runoff(&self.observe(v), options);
            if options.contains(c) {
                tally[c] += if MARKED { u8::from(!removed.contains(v)) } else { 1 };
                if L::ENABLED {
                    log.push(Event::RunoffVote { seat: v, choice: c });
                }
            } else {
                self.refuse(v, "runoff vote", log);
            }
        }
        tally
    }

    /// C12.3: the voters (every living player but the originally tied,
    /// C12.2/C12.8) vote hang-both or pardon-both; a tie pardons. The
    /// choices of `removed` (E28 with `runoff_marks = marked`) do not count.
    fn hang_both_vote<P: Players, L: Log>(
        &mut self,
        pair: PlayerSet,
        voters: PlayerSet,
        removed: PlayerSet,
        players: &mut P,
        log: &mut L,
    ) -> PlayerSet {
        if L::ENABLED {
            log.push(Event::HangBothVote { pair });
        }
        let mut hang = 0u32;
        let mut pardon = 0u32;
        for v in voters.iter() {
            let h = players.hang_both(&self.observe(v), pair);
            // E28 (`runoff_marks = marked`): a removed choice is cast, not
            // counted; `removed` is empty in every classic game.
            if h {
                hang += 1
            } else {
                pardon += 1
            }
            if !removed.is_empty() && removed.contains(v) {
                if h { hang -= 1 } else { pardon -= 1 }
            }
            if L::ENABLED {
                log.push(Event::HangChoice { seat: v, hang: h });
            }
        }
        let hanged = if hang > pardon { pair } else { PlayerSet::EMPTY };
        if L::ENABLED {
            log.push(Event::RunoffResult { hanged });
        }
        hanged
    }
}

/// The seats of `among` with the most votes in `tally`, and that count.
/// Two passes without data-dependent branches: votes are random, so a
/// branchy running maximum mispredicts on the hot path.
#[inline]
fn leaders_of(tally: &[u8; crate::MAX_PLAYERS], among: PlayerSet) -> (PlayerSet, u8) {
    let mut best = 0u8;
    for s in among.iter() {
        best = best.max(tally[s]);
    }
    let mut leaders = 0u64;
    for s in among.iter() {
        leaders |= ((tally[s] == best) as u64) << s.get();
    }
    (PlayerSet(leaders), best)
}
