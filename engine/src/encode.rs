//! The observation tensor (issue 36): a fixed-size `f32` vector per seat,
//! computed from the seat's [`View`] alone — so it holds nothing the view
//! does not, and the leak test that covers the views covers it
//! (`engine/tests/views.rs`). Defined once, here; the Python module and the
//! environments read it, none rebuilds features by hand.
//!
//! Every feature is in `[0, 1]`. With `N` seats, `R` = [`Role::COUNT`]
//! roles and `K` = [`Part::COUNT`] decision parts, the blocks in order
//! ([`Layout::blocks`] lists them with their widths; [`Layout::names`]
//! names every feature):
//!
//! | block | width | what |
//! |---|---|---|
//! | `seat` | N | own seat, one-hot |
//! | `role` | R | own role, one-hot ([`Role::ALL`]'s order) |
//! | `camp` | 3 | own camp, one-hot (town, mafia, bandits) |
//! | `alive` | N | the living players |
//! | `mate` | N | the camp mates the seat knows |
//! | `phase` | 3 | night flag; the phase's number / the day cap; nights without a kill / 3 (C8), clipped |
//! | `decision` | K | the decision part asked, one-hot (none outside a decision) |
//! | `checked`, `found_town`, `found_mafia`, `found_bandits`, `found_role` | 5 N | the seat's own checks |
//! | `report` | 3 + 3 N + 3 | its last report (E17, E22, E27): kind one-hot (compare, watch, scout); three seat masks (compare: `a`, `b`; watch: the house; scout: checked, robbed, healed); three values (compare: same camp; watch: visitors per camp / 3, clipped) |
//! | `claim` | N × R | each seat's latest public role claim |
//! | `named_town`, `named_mafia`, `named_bandits`, `accused` | 4 N | how often each seat was published in each camp, and accused, by anyone (count / 3, clipped) |
//! | `votes_on`, `votes_pass` | 2 N | today's open votes: on each seat / N; who votes PASS |
//! | `my_vote` | N + 1 | the seat's own open vote today: index 0 is PASS or none |
//! | `lynched`, `dead` | 2 N | the players lynched; dead otherwise |
//! | `known` | N × R | roles the seat knows: its own, its mates', those revealed at death |

use crate::{Camp, Event, Phase, Report, Request, Role, Seat, View, Vote};

/// A part of a decision, as the action space asks it: a night's moves are
/// asked as up to three parts (the kill nick, the role's move, the search).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// C10: a day post.
    Post,
    /// C10: the first vote.
    Vote,
    /// C10: the change of vote.
    Revise,
    /// C12.2: a defence.
    Defence,
    /// C12.4/C12.5: a runoff vote.
    Runoff,
    /// C12.3: hang both or pardon both.
    HangBoth,
    /// C4/C5: the camp kill's nick.
    NightKill,
    /// The role's night move.
    NightMove,
    /// E28: a bandit's search nick.
    NightSearch,
    /// E7: the Boss's move for a member.
    Proxy,
    /// E12: the Actor's appointment.
    Appoint,
    /// E16/E19: where the secret votes go.
    SecretVote,
    /// C13: a last word.
    LastWord,
}

impl Part {
    /// How many parts there are.
    pub const COUNT: usize = 13;
    /// Every part, in the one-hot's order.
    pub const ALL: [Part; Part::COUNT] = [
        Part::Post,
        Part::Vote,
        Part::Revise,
        Part::Defence,
        Part::Runoff,
        Part::HangBoth,
        Part::NightKill,
        Part::NightMove,
        Part::NightSearch,
        Part::Proxy,
        Part::Appoint,
        Part::SecretVote,
        Part::LastWord,
    ];

    /// The part's name (snake_case, as in feature names).
    pub fn name(self) -> &'static str {
        match self {
            Part::Post => "post",
            Part::Vote => "vote",
            Part::Revise => "revise",
            Part::Defence => "defence",
            Part::Runoff => "runoff",
            Part::HangBoth => "hang_both",
            Part::NightKill => "night_kill",
            Part::NightMove => "night_move",
            Part::NightSearch => "night_search",
            Part::Proxy => "proxy",
            Part::Appoint => "appoint",
            Part::SecretVote => "secret_vote",
            Part::LastWord => "last_word",
        }
    }

    fn index(self) -> usize {
        Part::ALL.iter().position(|&p| p == self).expect("listed")
    }

    /// The parts `request` is asked as, in order (none for a start, or for
    /// a night or appointment with nothing to choose).
    pub fn of(request: &Request) -> Vec<Part> {
        match request {
            Request::Start => vec![],
            Request::Post { .. } => vec![Part::Post],
            Request::Vote { .. } => vec![Part::Vote],
            Request::Revise { .. } => vec![Part::Revise],
            Request::Defence { .. } => vec![Part::Defence],
            Request::Runoff { .. } => vec![Part::Runoff],
            Request::HangBoth { .. } => vec![Part::HangBoth],
            Request::Night { options } => {
                let has_move = options.act.as_ref().is_some_and(|m| !m.targets.is_empty())
                    || options.borrow.iter().any(|b| !b.act.targets.is_empty());
                night_parts(options, has_move)
            }
            Request::Proxy { act, .. } => {
                if act.targets.is_empty() {
                    vec![]
                } else {
                    vec![Part::Proxy]
                }
            }
            Request::Appoint { vacant } => {
                if vacant.is_empty() {
                    vec![]
                } else {
                    vec![Part::Appoint]
                }
            }
            Request::SecretVote { .. } => vec![Part::SecretVote],
            Request::LastWord { .. } => vec![Part::LastWord],
        }
    }
}

/// A night's parts: the kill nick, the move (when `has_move`), the search.
fn night_parts(options: &crate::NightOptions, has_move: bool) -> Vec<Part> {
    let mut parts = Vec::with_capacity(3);
    if options.kill.is_some_and(|k| !k.is_empty()) {
        parts.push(Part::NightKill);
    }
    if has_move {
        parts.push(Part::NightMove);
    }
    if options.search.is_some_and(|s| !s.is_empty()) {
        parts.push(Part::NightSearch);
    }
    parts
}

/// The observation tensor's layout for an `N`-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    players: usize,
}

const R: usize = Role::COUNT;

impl Layout {
    /// The layout for `players` seats.
    pub fn new(players: usize) -> Layout {
        Layout { players }
    }

    /// The blocks, in order: name and width.
    pub fn blocks(&self) -> Vec<(&'static str, usize)> {
        let n = self.players;
        vec![
            ("seat", n),
            ("role", R),
            ("camp", Camp::COUNT),
            ("alive", n),
            ("mate", n),
            ("phase", 3),
            ("decision", Part::COUNT),
            ("checked", n),
            ("found_town", n),
            ("found_mafia", n),
            ("found_bandits", n),
            ("found_role", n),
            ("report_kind", 3),
            ("report_a", n),
            ("report_b", n),
            ("report_c", n),
            ("report_value", 3),
            ("claim", n * R),
            ("named_town", n),
            ("named_mafia", n),
            ("named_bandits", n),
            ("accused", n),
            ("votes_on", n),
            ("votes_pass", n),
            ("my_vote", n + 1),
            ("lynched", n),
            ("dead", n),
            ("known", n * R),
        ]
    }

    /// The layout described, for the JSON Schema's `Encoding` and `mafia
    /// encoding`: every block with its offset, width and meaning, every
    /// feature's name, and what each action means per decision part.
    pub fn describe(&self) -> Encoding {
        let mut at = 0;
        let blocks = self
            .blocks()
            .into_iter()
            .map(|(name, width)| {
                let b = Block { name: name.to_string(), offset: at, width, about: block_about(name).to_string() };
                at += width;
                b
            })
            .collect();
        let n = self.players;
        Encoding {
            players: n,
            observation_len: self.len(),
            blocks,
            names: self.names(),
            actions: actions(n),
            parts: Part::ALL
                .iter()
                .map(|&p| {
                    let (none, seat, yes, alt) = action_meanings(p);
                    PartActions {
                        part: p.name().to_string(),
                        action_0: none.to_string(),
                        seat_actions: seat.to_string(),
                        action_n1: yes.to_string(),
                        action_n2: alt.to_string(),
                    }
                })
                .collect(),
        }
    }

    /// Where block `name` sits in the tensor (`None`: no such block).
    pub fn range(&self, name: &str) -> Option<std::ops::Range<usize>> {
        let mut at = 0;
        for (block, width) in self.blocks() {
            if block == name {
                return Some(at..at + width);
            }
            at += width;
        }
        None
    }

    /// The tensor's length.
    pub fn len(&self) -> usize {
        self.blocks().iter().map(|b| b.1).sum()
    }

    /// Whether the tensor is empty (never: every game has seats).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The name of every feature, in order (`seat_3`, `role_doctor`,
    /// `claim_2_commissar`, `my_vote_pass`, …).
    pub fn names(&self) -> Vec<String> {
        let seats = 1..=self.players;
        let mut names = Vec::with_capacity(self.len());
        for (block, width) in self.blocks() {
            match block {
                "role" => names.extend(Role::ALL.iter().map(|r| format!("role_{}", r.name()))),
                "camp" => names.extend(Camp::ALL.iter().map(|c| format!("camp_{}", c.name()))),
                "phase" => names.extend(["night", "phase_fraction", "nights_without_kill"].map(String::from)),
                "decision" => names.extend(Part::ALL.iter().map(|p| format!("decision_{}", p.name()))),
                "report_kind" => names.extend(["compare", "watch", "scout"].map(|k| format!("report_{k}"))),
                "report_value" => names.extend((1..=3).map(|i| format!("report_value_{i}"))),
                "claim" | "known" => {
                    for s in seats.clone() {
                        names.extend(Role::ALL.iter().map(|r| format!("{block}_{s}_{}", r.name())));
                    }
                }
                "my_vote" => {
                    names.push("my_vote_pass".into());
                    names.extend(seats.clone().map(|s| format!("my_vote_{s}")));
                }
                _ => {
                    debug_assert_eq!(width, self.players, "{block}");
                    names.extend(seats.clone().map(|s| format!("{block}_{s}")));
                }
            }
        }
        names
    }
}

/// The encodings of an `N`-player game described: what `mafia encoding`
/// prints (JSON; `Encoding` in `schema/mafia-lab.schema.json`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Encoding {
    /// The seats.
    pub players: usize,
    /// The observation tensor's length: the blocks' widths summed.
    pub observation_len: usize,
    /// The tensor's blocks, in order.
    pub blocks: Vec<Block>,
    /// Every feature's name, in order (`seat_3`, `role_doctor`, `claim_2_commissar`, …).
    pub names: Vec<String>,
    /// The number of discrete actions: `players + 3`.
    pub actions: usize,
    /// What each action means, per decision part (empty: not legal there).
    pub parts: Vec<PartActions>,
}

/// One block of the observation tensor.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Block {
    /// The block's name (its features' names start with it).
    pub name: String,
    /// Its first index in the tensor.
    pub offset: usize,
    /// Its number of features.
    pub width: usize,
    /// What it holds; every feature is in [0, 1].
    pub about: String,
}

/// The meaning of the actions when one decision part is asked.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct PartActions {
    /// The part (`vote`, `night_move`, …; the observation's `decision` one-hot).
    pub part: String,
    /// Action 0.
    pub action_0: String,
    /// Actions 1 to N: seat i.
    pub seat_actions: String,
    /// Action N+1.
    pub action_n1: String,
    /// Action N+2.
    pub action_n2: String,
}

/// What each block holds (see the module's table).
fn block_about(name: &str) -> &'static str {
    match name {
        "seat" => "own seat, one-hot",
        "role" => "own role, one-hot, in the roles' order",
        "camp" => "own camp, one-hot: town, mafia, bandits",
        "alive" => "the living players",
        "mate" => "the camp mates the seat knows",
        "phase" => "night flag; the phase's number / the day cap; nights without a kill / 3 (C8), clipped",
        "decision" => "the decision part asked, one-hot (all zero outside a decision)",
        "checked" => "the players the seat checked",
        "found_town" => "the players its checks found town",
        "found_mafia" => "the players its checks found mafia",
        "found_bandits" => "the players its checks found bandits",
        "found_role" => "the players whose role its checks found",
        "report_kind" => "its last report (E17, E22, E27), one-hot: compare, watch, scout",
        "report_a" => "the report's first seat: compare's a, watch's house, scout's checked",
        "report_b" => "the report's second seat: compare's b, scout's robbed",
        "report_c" => "the report's third seat: scout's healed",
        "report_value" => "compare: same camp; watch: visitors from town, mafia, bandits / 3, clipped",
        "claim" => "each seat's latest public role claim, one-hot per seat",
        "named_town" => "how often each seat was published town, by anyone / 3, clipped",
        "named_mafia" => "how often each seat was published mafia, by anyone / 3, clipped",
        "named_bandits" => "how often each seat was published bandits, by anyone / 3, clipped",
        "accused" => "how often each seat was accused / 3, clipped",
        "votes_on" => "today's open votes on each seat / N",
        "votes_pass" => "who votes PASS today",
        "my_vote" => "own open vote today, one-hot: index 0 is PASS or none, then the seats",
        "lynched" => "the players lynched",
        "dead" => "the players dead otherwise",
        "known" => "roles the seat knows: its own, its mates', those revealed at death; one-hot per seat",
        _ => "",
    }
}

/// What actions 0, 1..=N, N+1 and N+2 mean for `part` ("" where illegal).
fn action_meanings(part: Part) -> (&'static str, &'static str, &'static str, &'static str) {
    match part {
        Part::Vote => ("vote PASS", "vote seat i", "", ""),
        Part::Revise => ("keep the vote", "change it to seat i", "change it to PASS", ""),
        Part::Runoff => ("", "vote candidate i", "", ""),
        Part::HangBoth => ("pardon both", "", "hang both", ""),
        Part::Post | Part::Defence | Part::LastWord => (
            "say nothing",
            "accuse seat i",
            "claim own role and publish own checks",
            "claim Commissar (Detective where no Commissar), no checks",
        ),
        Part::NightKill => ("no nick", "nick seat i", "", ""),
        Part::NightMove | Part::Proxy => ("no move", "the move's target i (a second target drawn)", "", ""),
        Part::NightSearch => ("no search", "search nick seat i", "", ""),
        Part::Appoint => ("no appointment", "", "the first vacant role", ""),
        Part::SecretVote => ("with the open vote", "give them to seat i", "", ""),
    }
}

/// What the tensor reads of the public record — claims, published checks,
/// accusations, today's votes, deaths and the roles revealed at death —
/// folded event by event. Every event it reads is public (its audience is
/// every seat, [`Event::audience`]), so the summary of the whole game's log
/// equals the summary of any seat's record: an environment may keep one,
/// read incrementally, for every seat ([`observe_with`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Public {
    claims: [Option<Role>; crate::MAX_PLAYERS],
    named: [[u8; crate::MAX_PLAYERS]; 3],
    accused: [u8; crate::MAX_PLAYERS],
    votes: [Option<Vote>; crate::MAX_PLAYERS],
    lynched: crate::PlayerSet,
    dead: crate::PlayerSet,
    revealed: [Option<Role>; crate::MAX_PLAYERS],
}

impl Default for Public {
    fn default() -> Public {
        Public {
            claims: [None; crate::MAX_PLAYERS],
            named: [[0; crate::MAX_PLAYERS]; 3],
            accused: [0; crate::MAX_PLAYERS],
            votes: [None; crate::MAX_PLAYERS],
            lynched: crate::PlayerSet::EMPTY,
            dead: crate::PlayerSet::EMPTY,
            revealed: [None; crate::MAX_PLAYERS],
        }
    }
}

impl Public {
    /// The summary of `record`.
    pub fn of(record: &[Event]) -> Public {
        let mut p = Public::default();
        for e in record {
            p.read(e);
        }
        p
    }

    /// Folds one more event in (events the tensor does not read change
    /// nothing).
    pub fn read(&mut self, e: &Event) {
        match *e {
            Event::Post { seat, what } | Event::Defence { seat, what } | Event::LastWord { seat, what } => {
                if let Some(r) = what.claim {
                    self.claims[seat.index()] = Some(r);
                }
                for (c, set) in what.camps.iter().enumerate() {
                    for t in set.iter() {
                        self.named[c][t.index()] = self.named[c][t.index()].saturating_add(1);
                    }
                }
                for t in what.accuse.iter() {
                    self.accused[t.index()] = self.accused[t.index()].saturating_add(1);
                }
            }
            Event::DayStart { .. } => self.votes = [None; crate::MAX_PLAYERS],
            Event::Vote { seat, vote, .. } => self.votes[seat.index()] = Some(vote),
            Event::Died { seat, cause, revealed } => {
                if cause == crate::DeathCause::Lynched {
                    self.lynched.insert(seat);
                } else {
                    self.dead.insert(seat);
                }
                if revealed.is_some() {
                    self.revealed[seat.index()] = revealed;
                }
            }
            _ => {}
        }
    }
}

/// Writes `view`'s tensor into `out` (of [`Layout::len`] for the view's
/// players), with `part` the decision part asked (`None`: no decision).
/// Reads nothing but the view.
pub fn observe(view: &View, part: Option<Part>, out: &mut [f32]) {
    observe_with(view, part, &Public::of(&view.record), out);
}

/// [`observe`] with the public record's summary given: `public` must be
/// the summary of the record up to the view (of the view's own record, or
/// of the game's whole log, which reads the same; the view's record is
/// not read here, and may be left empty).
pub fn observe_with(view: &View, part: Option<Part>, public: &Public, out: &mut [f32]) {
    out.fill(0.0);
    observe_zeroed(view, part, public, out);
}

/// [`observe_with`] into an `out` that is all zero already (a fresh
/// buffer): the same tensor, without clearing it first.
pub fn observe_zeroed(view: &View, part: Option<Part>, public: &Public, out: &mut [f32]) {
    let n = view.setup.players as usize;
    assert_eq!(out.len(), Layout::new(n).len(), "the tensor's length for {n} players");
    debug_assert!(out.iter().all(|&v| v == 0.0), "observe_zeroed wants an all-zero tensor");
    let mut w = Writer { out, at: 0, n };
    let p = &view.private;
    w.one_hot(n, view.seat.index());
    w.one_hot(R, p.role as usize);
    w.one_hot(Camp::COUNT, p.camp as usize);
    w.seats(view.alive.iter());
    w.seats(p.mates.iter().map(|m| m.seat));
    let (night, number) = match view.phase {
        Phase::Day(d) => (false, d),
        Phase::Night(k) => (true, k),
    };
    let cap = view.setup.rules.day_cap.max(1);
    w.values(&[
        f32::from(u8::from(night)),
        clip(f32::from(number) / f32::from(cap)),
        clip(f32::from(view.nights_without_kill) / 3.0),
    ]);
    match part {
        Some(part) => w.one_hot(Part::COUNT, part.index()),
        None => w.skip(Part::COUNT),
    }
    for set in [p.checked, p.found_town, p.found_mafia, p.found_bandits, p.found_role] {
        w.seats(set.iter());
    }
    report(&mut w, p.report);
    // The public record: claims, published checks, accusations, votes, deaths.
    let Public { claims, named, accused, votes, lynched, dead, revealed } = public;
    let mut known: [Option<Role>; crate::MAX_PLAYERS] = [None; crate::MAX_PLAYERS];
    known[view.seat.index()] = Some(p.role);
    for m in &p.mates {
        known[m.seat.index()] = Some(m.role);
    }
    for (k, r) in known.iter_mut().zip(revealed) {
        if r.is_some() {
            *k = *r;
        }
    }
    w.roles(&claims[..n]);
    for counts in named.iter().chain([accused]) {
        w.each(|i| clip(f32::from(counts[i]) / 3.0));
    }
    // Today's open votes: on each seat (a share of the table), passes.
    let at = w.at;
    for v in &votes[..n] {
        if let Some(Vote::For(t)) = v
            && t.index() < n
        {
            w.out[at + t.index()] += 1.0 / n as f32;
        }
    }
    w.skip(n);
    w.each(|voter| f32::from(u8::from(votes[voter] == Some(Vote::Pass))));
    match votes[view.seat.index()] {
        Some(Vote::For(t)) if t.index() < n => w.one_hot(n + 1, t.index() + 1),
        _ => w.one_hot(n + 1, 0),
    }
    w.seats(lynched.iter());
    w.seats(dead.iter());
    w.roles(&known[..n]);
    debug_assert_eq!(w.at, w.out.len());
}

/// The last report's block: kind, three seat masks, three values.
fn report(w: &mut Writer<'_>, report: Option<Report>) {
    let n = w.n;
    let one = |s: Option<Seat>| s.into_iter().collect::<Vec<Seat>>();
    let (kind, masks, values): (Option<usize>, [Vec<Seat>; 3], [f32; 3]) = match report {
        None => (None, [vec![], vec![], vec![]], [0.0; 3]),
        Some(Report::Compare { a, b, same }) => {
            (Some(0), [vec![a], vec![b], vec![]], [f32::from(u8::from(same)), 0.0, 0.0])
        }
        Some(Report::Watch { target, camps }) => {
            let v = camps.map(|c| clip(f32::from(c) / 3.0));
            (Some(1), [vec![target], vec![], vec![]], v)
        }
        Some(Report::Scout { checked, robbed, healed }) => {
            (Some(2), [one(checked), one(robbed), one(healed)], [0.0; 3])
        }
    };
    match kind {
        Some(k) => w.one_hot(3, k),
        None => w.skip(3),
    }
    for m in masks {
        w.seats(m.into_iter().filter(|s| s.index() < n));
    }
    w.values(&values);
}

fn clip(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// Writes blocks one after another.
struct Writer<'a> {
    out: &'a mut [f32],
    at: usize,
    n: usize,
}

impl Writer<'_> {
    fn skip(&mut self, width: usize) {
        self.at += width;
    }

    fn one_hot(&mut self, width: usize, i: usize) {
        self.out[self.at + i] = 1.0;
        self.at += width;
    }

    fn seats(&mut self, seats: impl Iterator<Item = Seat>) {
        for s in seats {
            self.out[self.at + s.index()] = 1.0;
        }
        self.at += self.n;
    }

    /// One value per seat.
    fn each(&mut self, f: impl Fn(usize) -> f32) {
        for i in 0..self.n {
            self.out[self.at + i] = f(i);
        }
        self.at += self.n;
    }

    fn values(&mut self, v: &[f32]) {
        self.out[self.at..self.at + v.len()].copy_from_slice(v);
        self.at += v.len();
    }

    /// A role one-hot per seat (none: all zero).
    fn roles(&mut self, roles: &[Option<Role>]) {
        for (s, r) in roles.iter().enumerate() {
            if let Some(r) = r {
                self.out[self.at + s * R + *r as usize] = 1.0;
            }
        }
        self.at += roles.len() * R;
    }
}

// ---------------------------------------------------------------------------
// The action space

/// The action space of an `N`-player game: `N + 3` discrete actions. What
/// each means depends on the decision part asked (see [`Turn`]):
///
/// | part | action 0 | actions 1..=N (seat i) | N+1 | N+2 |
/// |---|---|---|---|---|
/// | vote | vote PASS | vote seat i | — | — |
/// | revise | keep the vote | change it to seat i | change it to PASS | — |
/// | runoff | — | vote candidate i | — | — |
/// | hang_both | pardon both | — | hang both | — |
/// | post, defence, last_word | say nothing | accuse seat i | claim own role and publish own checks | claim Commissar (Detective where no Commissar), no checks |
/// | night_kill | no nick | nick seat i | — | — |
/// | night_move, proxy | no move | the move's target i | — | — |
/// | night_search | no search | search nick seat i | — | — |
/// | appoint | no appointment | — | the first vacant role | — |
/// | secret_vote | with the open vote | give them to seat i | — | — |
///
/// What one action cannot say is drawn from the caller's stream: the second
/// target of a two-target move (E11, E17) uniformly among the legal ones for
/// the chosen first, and the Role Prostitute's borrowed role (E19)
/// uniformly among those offered. Nobody defers to the Boss.
pub fn actions(players: usize) -> usize {
    players + 3
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// Every part is chosen: the turn's answer is ready.
    Done,
    /// The action is not legal for the part asked (its mask is 0).
    Illegal(usize),
}

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ActionError::Done => f.write_str("every part of the decision is chosen"),
            ActionError::Illegal(a) => write!(f, "action {a} is not legal here (its mask is 0)"),
        }
    }
}

impl std::error::Error for ActionError {}

/// One decision of one seat asked as discrete actions: the parts of its
/// request, one action each, then the [`Answer`].
#[derive(Clone, Debug)]
pub struct Turn {
    players: usize,
    request: Request,
    /// The own role and checks, for "claim own role and publish own checks".
    own: (Role, [crate::PlayerSet; Camp::COUNT]),
    parts: Vec<Part>,
    next: usize,
    /// The move options of the night move (the borrowed role's, if drawn).
    act: Option<crate::MoveOptions>,
    night: crate::NightChoice,
    answer: Option<Answer>,
}

use crate::Answer;

impl Turn {
    /// The turn of `view`'s request. A borrowed role (E19) is drawn here.
    pub fn new<G: rand::Rng + ?Sized>(view: &View, rng: &mut G) -> Turn {
        let p = &view.private;
        let mut t = Turn {
            players: view.setup.players as usize,
            request: view.request.clone(),
            own: (p.role, [p.found_town, p.found_mafia, p.found_bandits]),
            parts: Vec::new(),
            next: 0,
            act: None,
            night: crate::NightChoice::default(),
            answer: None,
        };
        match &view.request {
            Request::Night { options } => {
                t.act = options.act.clone();
                if !options.borrow.is_empty() {
                    let b = &options.borrow[crate::below(rng, options.borrow.len() as u32) as usize];
                    t.night.borrow = Some(b.role);
                    t.act = Some(b.act.clone());
                }
                t.parts = night_parts(options, t.act.as_ref().is_some_and(|m| !m.targets.is_empty()));
            }
            Request::Proxy { act, .. } => {
                t.act = Some(act.clone());
                t.parts = Part::of(&view.request);
            }
            other => t.parts = Part::of(other),
        }
        if t.parts.is_empty() {
            t.finish();
        }
        t
    }

    /// The part asked now (`None`: the answer is ready).
    pub fn part(&self) -> Option<Part> {
        self.parts.get(self.next).copied()
    }

    /// Every part of the turn, in order.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// The answer, once every part is chosen.
    pub fn answer(&self) -> Option<&Answer> {
        self.answer.as_ref()
    }

    /// Writes the legal actions of the part asked into `mask` (1 legal,
    /// 0 not; of [`actions`] length); all 0 when the answer is ready.
    pub fn mask(&self, mask: &mut [u8]) {
        let n = self.players;
        assert_eq!(mask.len(), actions(n), "the mask's length");
        mask.fill(0);
        let Some(part) = self.part() else { return };
        let (yes, alt) = (n + 1, n + 2);
        let mut seats = |set: crate::PlayerSet| {
            for s in set.iter().filter(|s| s.index() < n) {
                mask[s.index() + 1] = 1;
            }
        };
        match (&self.request, part) {
            (Request::Vote { options }, _) => {
                seats(*options);
                mask[0] = 1;
            }
            (Request::Revise { current, options }, _) => {
                seats(*options);
                mask[0] = 1;
                if *current != Some(Vote::Pass) {
                    mask[yes] = 1;
                }
            }
            (Request::Runoff { options }, _) => seats(*options),
            (Request::HangBoth { .. }, _) => {
                mask[0] = 1;
                mask[yes] = 1;
            }
            (Request::Post { options } | Request::Defence { options } | Request::LastWord { options }, _) => {
                seats(options.about);
                mask[0] = 1;
                mask[yes] = 1;
                if checker_claim(options.claims).is_some() {
                    mask[alt] = 1;
                }
            }
            (Request::Night { options }, Part::NightKill) => {
                seats(options.kill.unwrap_or_default());
                mask[0] = 1;
            }
            (Request::Night { options }, Part::NightSearch) => {
                seats(options.search.unwrap_or_default());
                mask[0] = 1;
            }
            (Request::Night { .. } | Request::Proxy { .. }, _) => {
                if let Some(m) = &self.act {
                    seats(first_targets(m));
                }
                mask[0] = 1;
            }
            (Request::Appoint { .. }, _) => {
                mask[0] = 1;
                mask[yes] = 1;
            }
            (Request::SecretVote { options, .. }, _) => {
                seats(*options);
                mask[0] = 1;
            }
            (Request::Start, _) => {}
        }
    }

    /// Chooses `action` for the part asked; with the last part, the answer
    /// is made. A second target is drawn from `rng` (see [`actions`]).
    pub fn act<G: rand::Rng + ?Sized>(&mut self, action: usize, rng: &mut G) -> Result<(), ActionError> {
        let Some(part) = self.part() else { return Err(ActionError::Done) };
        let mut mask = vec![0u8; actions(self.players)];
        self.mask(&mut mask);
        if mask.get(action) != Some(&1) {
            return Err(ActionError::Illegal(action));
        }
        let n = self.players;
        let seat = (1..=n).contains(&action).then(|| Seat::from_index(action - 1));
        let yes = action == n + 1;
        let say = |alt: bool| {
            let mut p = crate::Publication::NONE;
            if let Some(s) = seat {
                p.accuse.insert(s);
            } else if yes {
                p.claim = Some(self.own.0);
                p.camps = self.own.1;
            } else if alt
                && let Request::Post { options } | Request::Defence { options } | Request::LastWord { options } =
                    &self.request
            {
                p.claim = checker_claim(options.claims);
            }
            p
        };
        let answer = match (&self.request, part) {
            (Request::Vote { .. }, _) => Some(Answer::Vote { vote: seat.map_or(Vote::Pass, Vote::For) }),
            (Request::Revise { .. }, _) => {
                Some(Answer::Revise { vote: if yes { Some(Vote::Pass) } else { seat.map(Vote::For) } })
            }
            (Request::Runoff { .. }, _) => Some(Answer::Runoff { choice: seat.expect("a masked candidate") }),
            (Request::HangBoth { .. }, _) => Some(Answer::HangBoth { hang: yes }),
            (Request::Post { .. }, _) => Some(Answer::Post { say: say(action == n + 2), text: None }),
            (Request::Defence { .. }, _) => Some(Answer::Defence { say: say(action == n + 2), text: None }),
            (Request::LastWord { .. }, _) => Some(Answer::LastWord { say: say(action == n + 2), text: None }),
            (Request::Night { .. }, Part::NightKill) => {
                self.night.kill = seat;
                None
            }
            (Request::Night { .. }, Part::NightSearch) => {
                self.night.search = seat;
                None
            }
            (Request::Night { .. } | Request::Proxy { .. }, _) => {
                self.night.act = seat;
                if let (Some(t), Some(m)) = (seat, &self.act)
                    && let Some(o) = m.second.iter().find(|o| o.first == t)
                {
                    self.night.second = o.options.nth(crate::below(rng, o.options.len()));
                }
                None
            }
            (Request::Appoint { vacant }, _) => {
                Some(Answer::Appoint { role: if yes { vacant.iter().next() } else { None } })
            }
            (Request::SecretVote { .. }, _) => Some(Answer::SecretVote { target: seat }),
            (Request::Start, _) => None,
        };
        self.next += 1;
        if let Some(a) = answer {
            self.answer = Some(a);
        } else if self.part().is_none() {
            self.finish();
        }
        Ok(())
    }

    /// The answer of a turn whose parts are all chosen (or that has none).
    fn finish(&mut self) {
        self.answer = Some(match &self.request {
            Request::Start => Answer::Ready,
            Request::Night { .. } => Answer::Night { moves: self.night },
            Request::Proxy { .. } => Answer::Proxy { moves: self.night },
            Request::Appoint { .. } => Answer::Appoint { role: None },
            _ => return,
        });
    }
}

/// The checker role to claim with action `N+2`: the Commissar, else the
/// Detective, if the setup has one.
fn checker_claim(claims: crate::RoleSet) -> Option<Role> {
    [Role::Commissar, Role::Detective].into_iter().find(|&r| claims.contains(r))
}

/// The first targets of a move that are legal: for a two-target move, only
/// those with a legal second.
fn first_targets(m: &crate::MoveOptions) -> crate::PlayerSet {
    if m.second.is_empty() {
        return m.targets;
    }
    let mut s = crate::PlayerSet::EMPTY;
    for o in m.second.iter().filter(|o| !o.options.is_empty() && m.targets.contains(o.first)) {
        s.insert(o.first);
    }
    s
}
