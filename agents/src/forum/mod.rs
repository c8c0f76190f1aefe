//! The `forum` strategies: the default play of every role of both rule
//! sets, one agent whose behaviour is a [`Config`] of documented parameters
//! (see [`crate::strategy`] for the catalogue and the project's shared `strategy-notes.md`
//! for the sources). Each unit is a small module:
//!
//! - [`read`]: the public read every unit shares (claims, counter-claims,
//!   published checks, votes, night deaths);
//! - [`town`]: the town's day play and the information roles' reveals;
//! - [`mafia`]: the mafia's kill plan, fake claims, bussing, skipped shots,
//!   the Don's and the Boss's checks and signals;
//! - [`night`]: every role's night move (checks, protection, blocks,
//!   watches, the bandits' moves).
//!
//! Conventions a forum player recognises: a found mafioso gets revealed and
//! lynched, the mafia hunt a revealed Commissar, doctors protect revealed
//! information roles.

mod mafia;
mod night;
pub(crate) mod read;
mod town;

use crate::agent::{Agent, Cx};
use crate::strategy::{Config, MovePlan, RevealOn, ScoutPlan};
use mafia_engine::{
    Camp, MAX_PLAYERS, NightAbility, NightChoice, NoKillLimit, Observation, PlayerSet, Publication, Report, Role,
    RoleSet, Seat, Vote,
};
use rand::Rng as _;
pub(crate) use read::Public;
use read::{Read, ReadingClass, Ties};

/// One seat's `forum` player.
#[derive(Clone, Debug)]
pub struct ForumAgent {
    pub(crate) cfg: Config,
    /// How my parameters read the thread (from `cfg`).
    class: ReadingClass,
    /// The public read of a stand-alone agent (`Agent for ForumAgent`); a
    /// table's seats have none and decide with the table's (see [`Turn`]).
    own_public: Option<Box<Public>>,
    /// The information role has claimed publicly.
    pub(crate) revealed: bool,
    /// The last day this agent read the thread (present for the post).
    pub(crate) seen_day: u16,
    /// Mafia: the conference's kill order (non-mafia seats).
    pub(crate) order: [Seat; MAX_PLAYERS],
    pub(crate) order_len: u8,
    /// Mafia: the conference's roll for a fake claim (shared by all members).
    pub(crate) fake_roll: u32,
    /// Mafia: the conference's roll for `blend` (`u32::MAX` without one).
    pub(crate) blend_roll: u32,
    /// Mafia: this member fakes an information role (claimed).
    pub(crate) faking: Option<Role>,
    /// Mafia: the fake claimed first (`preempt`), not as a counter-claim.
    pub(crate) preempted: bool,
    /// Mafia: the Boss's and the Don's seats (C2: the conference names them).
    pub(crate) leaders: [Option<Seat>; 2],
    /// An information role who reveals at once this game (`reveal`'s `mix`).
    pub(crate) early: bool,
    /// `reveal`'s `counter`: this game, a claim of my role is answered at once.
    pub(crate) countering: bool,
    /// The Journalist's finds from his comparisons (E17): enemies, town.
    pub(crate) compared: [PlayerSet; 2],
    /// The Sleepwalker's finds from his watches (E22): players a mafia
    /// visitor came to, whom he clears of the mafia.
    pub(crate) watched: PlayerSet,
    /// The Scout's reports (E27): everybody the Detective's successful
    /// checks reached, which tell the real claimant from a fake.
    pub(crate) scouted: PlayerSet,
    /// `town`'s `pass_first`: per seat, the days he voted a name first.
    pub(crate) first_named: [u8; MAX_PLAYERS],
    /// `town`'s `pass_tell`: per seat, the days he voted PASS first while
    /// the town named.
    pub(crate) first_passed: [u8; MAX_PLAYERS],
    /// `mafia`'s `mimic`: whether most first votes outside the camp were
    /// PASS on the last day this member changed votes.
    pub(crate) outsiders_passed: Option<bool>,
    /// The day `first_named` (or `first_passed`, `outsiders_passed`) was last counted.
    pub(crate) first_day: u16,
    /// My order of preference among equals this game (the mafia's is the
    /// conference's, shared).
    pub(crate) ties: Ties,
}

impl Default for ForumAgent {
    fn default() -> Self {
        ForumAgent {
            cfg: Config::default(),
            class: ReadingClass::of(&Config::default()),
            own_public: Some(Box::default()),
            revealed: false,
            seen_day: 0,
            order: [Seat::new(0); MAX_PLAYERS],
            order_len: 0,
            fake_roll: u32::MAX,
            blend_roll: u32::MAX,
            faking: None,
            preempted: false,
            leaders: [None; 2],
            early: false,
            countering: false,
            compared: [PlayerSet::EMPTY; 2],
            watched: PlayerSet::EMPTY,
            scouted: PlayerSet::EMPTY,
            first_named: [0; MAX_PLAYERS],
            first_passed: [0; MAX_PLAYERS],
            outsiders_passed: None,
            first_day: 0,
            ties: Ties::default(),
        }
    }
}

impl ForumAgent {
    /// A seat of a table, which decides with the table's public read.
    pub(crate) fn for_table() -> ForumAgent {
        ForumAgent { own_public: None, ..ForumAgent::default() }
    }

    /// Sets the parameters this seat plays with (from the lineup).
    pub fn configure(&mut self, cfg: &Config) {
        self.cfg = *cfg;
        self.class = ReadingClass::of(cfg);
    }

    /// Whether this seat may have something to post today: only an
    /// information role and the mafia ever post (see `post`). For the
    /// others the table skips the call; it would draw nothing and read
    /// nothing, only note that the seat saw today's thread.
    #[inline]
    pub(crate) fn posts(&mut self, obs: &Observation<'_>) -> bool {
        if !matches!(speaks(obs), Speaks::Nothing) || obs.camp() == Camp::Mafia {
            return true;
        }
        self.seen_day = obs.day();
        false
    }

    /// A decision of a stand-alone agent, with its own public read.
    fn alone<R>(&mut self, f: impl FnOnce(&mut Turn<'_>) -> R) -> R {
        let mut public = self.own_public.take().unwrap_or_default();
        let r = f(&mut Turn { seat: self, public: &mut public });
        self.own_public = Some(public);
        r
    }
}

/// One forum seat deciding: its own state (which it derefs to) with the
/// public read it decides by, borrowed for the decision — the table's,
/// shared by its forum seats, or a stand-alone agent's own. Built for
/// each call: two pointers, no copy and no swap.
pub(crate) struct Turn<'a> {
    seat: &'a mut ForumAgent,
    pub(crate) public: &'a mut Public,
}

impl<'a> Turn<'a> {
    #[inline]
    pub(crate) fn new(seat: &'a mut ForumAgent, public: &'a mut Public) -> Turn<'a> {
        Turn { seat, public }
    }
}

impl std::ops::Deref for Turn<'_> {
    type Target = ForumAgent;
    #[inline]
    fn deref(&self) -> &ForumAgent {
        self.seat
    }
}

impl std::ops::DerefMut for Turn<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut ForumAgent {
        self.seat
    }
}

impl Turn<'_> {
    /// Brings the table's public read up to date before a decision that
    /// reads it (see [`Public::sync`] on why the decisions that call this
    /// must not change). Called once, on entry, by each decision that may
    /// read (the helpers they call read without syncing again).
    #[inline]
    pub(crate) fn refresh(&mut self, obs: &Observation<'_>) {
        let (class, cfg) = (self.seat.class, &self.seat.cfg);
        self.public.sync(obs, class, cfg);
    }

    /// My read today (after [`ForumAgent::refresh`]).
    #[inline]
    pub(crate) fn read(&self, obs: &Observation<'_>) -> Read<'_> {
        self.public.read_for(obs, &self.seat.ties)
    }

    /// The day post ([`Agent::post`]; it draws nothing, so the table calls
    /// it without a stream).
    pub(crate) fn day_post(&mut self, obs: &Observation<'_>) -> Publication {
        // Neither a reveal nor a fake claim needs the read: no refresh here.
        self.seen_day = obs.day();
        match speaks(obs) {
            Speaks::Checks(role) => {
                if self.reveals_today(obs, role) {
                    self.revealed = true;
                    return report(obs, role);
                }
                return Publication::NONE;
            }
            Speaks::Comparisons => {
                // E17: he claims once a comparison has shown him a living enemy.
                self.note_comparison(obs);
                if self.revealed || !self.compared[0].inter(obs.alive()).is_empty() {
                    self.revealed = true;
                    return self.journalist_report();
                }
            }
            Speaks::Watches => {
                // E22: he claims once a watch has shown him a mafia visitor.
                self.note_watch(obs);
                if self.revealed || !self.watched.inter(obs.alive()).is_empty() {
                    self.revealed = true;
                    return self.sleepwalker_report();
                }
            }
            Speaks::Nothing => {}
        }
        if obs.camp() == Camp::Mafia {
            return self.mafia_post(obs);
        }
        Publication::NONE
    }

    /// E22: what the Sleepwalker's last watch tells him. He watches the
    /// believed information role (see `night.rs`), and a mafia visitor who
    /// left him alive made a check (the Boss checks the claimants first,
    /// E7) or a swindle (the Swindler sends a claimant's move astray, E11):
    /// moves on outsiders, so the claimant is no mafioso and the claim is
    /// real. (The Guard's visit to a fake is the exception; the Thief's
    /// visit is unseen, E9; a kill that lands leaves the watched dead and
    /// the watch failed.) Few whom he clears are mafiosi (17%, against 21%
    /// of the others), but the claim is what counts: a believed claimant
    /// more, whom the town does not lynch. The gain against a random watch
    /// and against none is in the book, docs/src/research/play.md (`mafia moves`); taking a visited
    /// player for a mafioso lost the town 3-4 points, clearing the town's
    /// top suspect 0.3-0.9.
    fn note_watch(&mut self, obs: &Observation<'_>) {
        let Some(Report::Watch { target, camps }) = obs.last_report() else { return };
        if camps[Camp::Mafia as usize] == 0 || self.watched.contains(target) {
            return;
        }
        self.refresh(obs);
        if !self.read(obs).exposed.contains(target) {
            self.watched.insert(target);
        }
    }

    /// The Sleepwalker's claim: the players his watches cleared of the mafia.
    fn sleepwalker_report(&self) -> Publication {
        let mut p = Publication { claim: Some(Role::Sleepwalker), ..Publication::NONE };
        p.camps[Camp::Town as usize] = self.watched;
        p
    }

    /// E27: the Scout's last report: whom the Detective checked.
    pub(crate) fn note_scouting(&mut self, obs: &Observation<'_>) {
        if let Some(Report::Scout { checked: Some(c), .. }) = obs.last_report() {
            self.scouted.insert(c);
        }
    }

    /// E27: the Detective claimants the Scout's reports unmask: when one
    /// claimant published a player the real Detective's checks reached,
    /// he is the real one (a fake names whom he likes; the real one
    /// publishes every check) and the others are fakes; `plan` says which
    /// of the two to return (empty when the reports tell nothing).
    pub(crate) fn scouted_claimants(&self, obs: &Observation<'_>, plan: ScoutPlan) -> PlayerSet {
        let claimants = obs.claimants(Role::Detective);
        if self.scouted.is_empty() || claimants.len() < 2 {
            return PlayerSet::EMPTY;
        }
        let named = |s: Seat| {
            let said = obs.said(s);
            Camp::ALL.iter().fold(said.accuse, |acc, &c| acc.union(said.camps[c as usize]))
        };
        let real: PlayerSet = claimants.iter().filter(|&s| !named(s).inter(self.scouted).is_empty()).collect();
        match plan {
            _ if real.len() != 1 => PlayerSet::EMPTY,
            ScoutPlan::Fakes => claimants.minus(real),
            ScoutPlan::Real => real,
            ScoutPlan::Quiet => PlayerSet::EMPTY,
        }
    }

    /// E17: what the Journalist's last comparison tells him, read against
    /// whom he takes for town and for enemies: a player in the same camp as
    /// a cleared one is town, in another camp an enemy; in the same camp as
    /// an exposed one, an enemy. An answer that contradicts his read (two
    /// cleared players in different camps: one was taken for town wrongly,
    /// say a night's victim who was not) tells him nothing.
    fn note_comparison(&mut self, obs: &Observation<'_>) {
        let Some(Report::Compare { a, b, same }) = obs.last_report() else { return };
        self.refresh(obs);
        let read = self.read(obs);
        // A player killed at night is taken for town by the read, but not
        // as an anchor: the Shooter's victims, often enemies, die at night
        // too.
        let (cleared, exposed) = (read.cleared.minus(obs.killed_at_night()), read.exposed);
        let pair = PlayerSet::single(a).with(b);
        let contradiction = if same {
            !pair.inter(cleared).is_empty() && !pair.inter(exposed).is_empty()
        } else {
            pair.minus(cleared).is_empty()
        };
        if contradiction {
            return;
        }
        let [mut enemy, mut town] = self.compared;
        for (x, y) in [(a, b), (b, a)] {
            if cleared.contains(y) {
                if same { town.insert(x) } else { enemy.insert(x) }
            } else if exposed.contains(y) && same {
                enemy.insert(x);
            }
        }
        self.compared = [enemy, town.minus(enemy)];
    }

    /// The Journalist's claim: the enemies his comparisons found (accused)
    /// and the town they cleared.
    fn journalist_report(&self) -> Publication {
        let mut p = Publication { claim: Some(Role::Journalist), ..Publication::NONE };
        p.accuse = self.compared[0];
        p.camps[Camp::Town as usize] = self.compared[1];
        p
    }

    /// The change of vote ([`Agent::revise`]; draws nothing). In line in
    /// the table's dispatch: the engine asks it only of talking seats, so
    /// the quiet `random` seats' loops do not grow.
    #[inline]
    pub(crate) fn vote_change(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        self.refresh(obs);
        match obs.camp() {
            Camp::Town => self.town_revise(obs),
            _ => self.outsider_revise(obs),
        }
    }

    /// The last word ([`Agent::last_word`]; draws nothing).
    pub(crate) fn final_word(&mut self, obs: &Observation<'_>) -> Publication {
        match speaks(obs) {
            Speaks::Checks(role) => return report(obs, role),
            Speaks::Comparisons => {
                self.note_comparison(obs);
                if !self.compared[0].union(self.compared[1]).is_empty() {
                    return self.journalist_report();
                }
            }
            Speaks::Watches => {
                self.note_watch(obs);
                if !self.watched.is_empty() {
                    return self.sleepwalker_report();
                }
            }
            Speaks::Nothing => {}
        }
        if let Some(role) = self.faking {
            return self.fake_report(obs, role);
        }
        // C13: a town player accuses his top suspect (the club's "best move"
        // of a night victim, whom the town reads first).
        if obs.camp() == Camp::Town {
            self.refresh(obs);
            let read = self.read(obs);
            let mut p = Publication::NONE;
            if let Some(s) = read.suspect(obs, obs.others_alive()) {
                p.accuse.insert(s);
            }
            return p;
        }
        Publication::NONE
    }

    /// Who voted for whom on earlier days, by voter (public memory).
    pub(crate) fn voted_all(&self) -> &[PlayerSet; MAX_PLAYERS] {
        self.public.voted_all()
    }

    /// Whether this information role claims today (see `reveal`'s `on`).
    fn reveals_today(&self, obs: &Observation<'_>, role: Role) -> bool {
        if self.revealed || self.early {
            return true;
        }
        if self.countering && !obs.claimants(role).inter(obs.alive()).without(obs.seat()).is_empty() {
            return true;
        }
        let day = obs.day() as u8;
        let found =
            !obs.found_in_camp(Camp::Mafia).union(obs.found_in_camp(Camp::Bandits)).inter(obs.alive()).is_empty();
        let by = self.cfg.reveal_by_day;
        match self.cfg.reveal_on {
            RevealOn::LastWord => false,
            RevealOn::AtOnce => true,
            RevealOn::FirstMafia => found || (by > 0 && day >= by),
            RevealOn::Day(k) => day >= k || found && by > 0 && day >= by,
        }
    }
}

/// Nights in a row without a kill after which the last two players, tied,
/// may call the game dead (see [`dead_end`]).
pub(crate) const DEAD_NIGHTS: u8 = 3;

/// Whether I say "hang both" when the last two living players are tied
/// (C12.3; hanging both leaves nobody: a draw, E2). Only when waiting
/// cannot win for me: I have no way to kill at night (the mafia's kill,
/// the Shooter's shot, the Psycho's invitation, a Shooter's move to
/// borrow), my camp does not win by the no-kill rule (C8, the town), and
/// nobody has died for [`DEAD_NIGHTS`] nights. Then the game is a dead
/// draw (the day cap's, C3, only later) or a loss to the other's kill
/// still to come: a draw now is no worse. A tied hang-both vote pardons
/// (C12.3), so a player who can still win plays on by saying pardon.
pub(crate) fn dead_end(obs: &Observation<'_>) -> bool {
    let can_kill = obs.camp() == Camp::Mafia
        || match obs.ability() {
            NightAbility::Shoot | NightAbility::Invite => true,
            NightAbility::Borrow => obs.borrowable().contains(Role::Shooter),
            _ => false,
        };
    let town_waits = obs.camp() == Camp::Town && !matches!(obs.rules().no_kill_limit, NoKillLimit::Off);
    obs.nights_without_kill() >= DEAD_NIGHTS && !can_kill && !town_waits
}

/// An information role's claim with every check he made (C13: his last
/// word may carry them).
pub(crate) fn report(obs: &Observation<'_>, role: Role) -> Publication {
    let mut p = Publication { claim: Some(role), ..Publication::NONE };
    for c in Camp::ALL {
        p.camps[c as usize] = obs.found_in_camp(c);
    }
    p
}

/// What a seat's own claim carries, by the role it acts as: a checker's
/// checks (C6, E13; E14: the promoted Deputy), the Journalist's
/// comparisons (E17), the Sleepwalker's watches (E22), or nothing (no
/// information role).
#[derive(Clone, Copy)]
pub(crate) enum Speaks {
    Checks(Role),
    Comparisons,
    Watches,
    Nothing,
}

#[inline]
pub(crate) fn speaks(obs: &Observation<'_>) -> Speaks {
    match obs.acting_role() {
        r @ (Role::Commissar | Role::Detective) => Speaks::Checks(r),
        Role::Journalist => Speaks::Comparisons,
        Role::Sleepwalker => Speaks::Watches,
        _ => Speaks::Nothing,
    }
}

// A table calls these out of line, so the built-in strategies' dispatch
// stays small enough to inline into the engine's loops.
impl Agent for Turn<'_> {
    fn new_game(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) {
        self.revealed = false;
        self.seen_day = 0;
        self.first_day = 0;
        self.first_named = [0; MAX_PLAYERS];
        self.first_passed = [0; MAX_PLAYERS];
        self.outsiders_passed = None;
        self.order_len = 0;
        self.faking = None;
        self.preempted = false;
        self.fake_roll = u32::MAX;
        if obs.camp() == Camp::Mafia {
            self.conference(obs, cx);
        }
        // `reveal`'s `mix`: this game's timing, drawn once (information roles only).
        self.early = false;
        if obs.role() == Role::Journalist {
            // Read only while acting as the Journalist: reset only then.
            self.compared = [PlayerSet::EMPTY; 2];
        }
        self.watched = PlayerSet::EMPTY;
        self.scouted = PlayerSet::EMPTY;
        if self.cfg.reveal_mix > 0 && matches!(obs.role(), Role::Commissar | Role::Detective | Role::Deputy) {
            self.early = cx.rng.next_u32() < self.cfg.reveal_mix;
        }
        // `reveal`'s `counter`: whether to answer a claim of my role at once this game.
        self.countering = false;
        if self.cfg.reveal_counter > 0 && matches!(obs.role(), Role::Commissar | Role::Detective | Role::Deputy) {
            self.countering = cx.rng.next_u32() < self.cfg.reveal_counter;
        }
        // My order among equals: the mafia's came with the conference.
        if obs.camp() != Camp::Mafia {
            self.ties = Ties::draw(obs.players(), cx.rng);
        }
    }

    fn post(&mut self, obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Publication {
        self.day_post(obs)
    }

    fn vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Vote {
        self.refresh(obs);
        let pick = match obs.camp() {
            Camp::Mafia => self.mafia_vote(obs, cx),
            Camp::Bandits => self.bandit_vote(obs),
            Camp::Town => return self.town_vote(obs, cx),
        };
        pick.filter(|&s| s != obs.seat()).map_or(Vote::Pass, Vote::For)
    }

    fn revise(&mut self, obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Option<Vote> {
        self.vote_change(obs)
    }

    fn defence(&mut self, obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Publication {
        // C12.2: a tied information role claims to save himself (his checks with it).
        match speaks(obs) {
            Speaks::Checks(role) => {
                self.revealed = true;
                report(obs, role)
            }
            Speaks::Comparisons => {
                self.note_comparison(obs);
                self.revealed = true;
                self.journalist_report()
            }
            Speaks::Watches => {
                self.note_watch(obs);
                self.revealed = true;
                self.sleepwalker_report()
            }
            Speaks::Nothing => match self.faking {
                Some(role) => self.fake_report(obs, role),
                None => Publication::NONE,
            },
        }
    }

    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet, cx: &mut Cx<'_>) -> Seat {
        self.refresh(obs);
        let choice = match obs.camp() {
            Camp::Town => self.read(obs).suspect(obs, candidates),
            _ => self.outsider_pick(obs, candidates),
        };
        choice.or_else(|| mafia_engine::pick(cx.rng, candidates)).or(candidates.lowest()).unwrap_or(obs.seat())
    }

    fn hang_both(&mut self, obs: &Observation<'_>, pair: PlayerSet, _cx: &mut Cx<'_>) -> bool {
        self.refresh(obs);
        if pair == obs.alive() {
            // The last two, tied: hanging both leaves nobody, a draw (E2).
            return dead_end(obs);
        }
        let read = self.read(obs);
        if obs.camp() != Camp::Town {
            return pair.inter(obs.camp_mates()).is_empty();
        }
        if !pair.inter(read.exposed).is_empty() {
            return true;
        }
        if !pair.inter(read.cleared).is_empty() {
            return false;
        }
        pair.iter().map(|s| read.score[s]).max().unwrap_or(0) > 0
    }

    fn night(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> NightChoice {
        self.refresh(obs);
        let mut choice = NightChoice::default();
        self.role_move(obs, &mut choice, cx);
        if obs.shoots() {
            choice.kill = self.mafia_target(obs, cx);
        }
        if obs.camp() == Camp::Bandits {
            self.search(obs, &mut choice, cx);
        }
        choice
    }

    fn proxy(&mut self, obs: &Observation<'_>, member: Seat, cx: &mut Cx<'_>) -> NightChoice {
        self.refresh(obs);
        self.proxy_move(obs, member, cx)
    }

    fn appoint(&mut self, _obs: &Observation<'_>, vacant: RoleSet, _cx: &mut Cx<'_>) -> Option<Role> {
        // E12: the Actor takes the best-ranked vacancy (the Boss's gun first).
        vacant.best_ranked()
    }

    fn secret_vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Option<Seat> {
        match self.cfg.moves {
            MovePlan::Usual => {}
            // `night`'s yardsticks: a random living player, or with the open vote.
            MovePlan::Random => return mafia_engine::pick(cx.rng, obs.others_alive()),
            MovePlan::None => return None,
        }
        // E16: on the exposed player with the most votes; else where they
        // tip the count: off a cleared leader onto the most suspicious player
        // they make lead, or onto my own candidate if they make him lead;
        // else with the open vote.
        self.refresh(obs);
        let read = self.read(obs);
        let others = obs.others_alive();
        if let Some(s) = read.ties.best_by(others.inter(read.exposed), |s| obs.votes_for(s) as i32) {
            return Some(s);
        }
        let k = obs.secret_votes() as u32;
        let (top, lead) = read::top_voted(obs, obs.alive());
        let (_, runner_up) = read::top_voted(obs, obs.alive().minus(top));
        // Whom my votes make the only leader: past the most any other has.
        let tippable = |c: Seat| {
            let best_other = if top == PlayerSet::single(c) { runner_up } else { lead };
            obs.votes_for(c) + k > best_other
        };
        let open = others.minus(read.cleared);
        let can: PlayerSet = open.iter().filter(|&c| tippable(c)).collect();
        if lead > 0 && !top.inter(read.cleared).is_empty() && !can.is_empty() {
            return read.suspect(obs, can);
        }
        match obs.vote_of(obs.seat()) {
            Some(Vote::For(t)) if can.contains(t) => Some(t),
            _ => None,
        }
    }

    fn last_word(&mut self, obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Publication {
        self.final_word(obs)
    }
}

// A stand-alone agent (outside a table) decides with its own public read.
impl Agent for ForumAgent {
    fn new_game(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) {
        // A new game: nothing read, remembered or agreed yet (a table
        // resets its shared read the same way at each game's start).
        if let Some(public) = self.own_public.as_deref_mut() {
            public.reset();
        }
        self.alone(|t| t.new_game(obs, cx))
    }
    fn post(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Publication {
        self.alone(|t| t.post(obs, cx))
    }
    fn vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Vote {
        self.alone(|t| t.vote(obs, cx))
    }
    fn revise(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Option<Vote> {
        self.alone(|t| t.revise(obs, cx))
    }
    fn defence(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Publication {
        self.alone(|t| t.defence(obs, cx))
    }
    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet, cx: &mut Cx<'_>) -> Seat {
        self.alone(|t| t.runoff(obs, candidates, cx))
    }
    fn hang_both(&mut self, obs: &Observation<'_>, pair: PlayerSet, cx: &mut Cx<'_>) -> bool {
        self.alone(|t| t.hang_both(obs, pair, cx))
    }
    fn night(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> NightChoice {
        self.alone(|t| t.night(obs, cx))
    }
    fn proxy(&mut self, obs: &Observation<'_>, member: Seat, cx: &mut Cx<'_>) -> NightChoice {
        self.alone(|t| t.proxy(obs, member, cx))
    }
    fn appoint(&mut self, obs: &Observation<'_>, vacant: RoleSet, cx: &mut Cx<'_>) -> Option<Role> {
        self.alone(|t| t.appoint(obs, vacant, cx))
    }
    fn secret_vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Option<Seat> {
        self.alone(|t| t.secret_vote(obs, cx))
    }
    fn last_word(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Publication {
        self.alone(|t| t.last_word(obs, cx))
    }
}
