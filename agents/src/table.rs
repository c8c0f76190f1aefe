//! The table: one game's seats, their agents and streams, as the engine's
//! [`Players`]; and [`Worker`], the per-thread bundle that plays games
//! without allocating.

use crate::agent::{Agent, Cx, Io};
use crate::classic::ClassicAgent;
use crate::forum::{ForumAgent, Public, Turn};
use crate::lineup::{Lineup, Pick, Signal, Strategy};
use crate::random::RandomAgent;
use crate::streams::{GameStreams, Purpose, Stream};
use mafia_engine::{
    Camp, Chance, Event, Game, Log, MAX_PLAYERS, NightChoice, NightMoves, Observation, Outcome, PlayerSet, Players,
    Publication, Role, RoleSet, Seat, Start, State, Vote,
};
use std::sync::{Arc, Mutex};

/// The seats of a game as the engine's [`Players`].
pub struct Table {
    lineup: Lineup,
    streams: GameStreams,
    kind: [Strategy; MAX_PLAYERS],
    random: RandomAgent,
    classic: Box<[ClassicAgent]>,
    forum: Box<[ForumAgent]>,
    /// The forum seats' shared public read (reset every game the lineup uses them).
    forum_public: Box<Public>,
    /// Per pick value (0: the usual layers, `i`: a mixed camp's `i`-th
    /// alternative), per role: which of the lineup's distinct `forum`
    /// configurations it plays with (roles with equal parameters share one).
    config_id: Box<[[u16; Role::COUNT]]>,
    /// Which alternative each mixed camp plays this game (all 0 without a mix).
    pick: Pick,
    /// Every role's strategy and configuration id without a mix (pick 0).
    role_kind: [Strategy; Role::COUNT],
    role_config: [u16; Role::COUNT],
    /// Per pick value, every role's strategy (a lineup with a mix).
    kind_by_pick: Box<[[Strategy; Role::COUNT]]>,
    /// Whether the lineup has a mix (`Lineup::is_mixed`, kept).
    mixed: bool,
    /// Whether every seat plays `random` in every game (no mix, no seat's
    /// own strategy): `kind` stays as made and a seat's new game is a no-op.
    all_random: bool,
    /// Per seat: the configuration its `forum` agent holds (`u16::MAX`:
    /// none, or a seat's own override), so a seat dealt a role of the same
    /// configuration as last game is not configured again.
    forum_config: [u16; MAX_PLAYERS],
    uses_forum: bool,
    /// Plugin agents, per plugin, per seat (made once per worker).
    plugins: Vec<Vec<Box<dyn Agent>>>,
    /// Per camp: the shared stream at the start of this phase, and the
    /// furthest any member has read it.
    shared_start: [Stream; Camp::COUNT],
    shared_end: [Stream; Camp::COUNT],
    shared_work: Stream,
    /// Camps with a seat this game (bit per camp; set by `new_game`).
    camps_seated: u8,
    /// The game's event log, kept only when a plugin plays (plugins may
    /// build the owned [`mafia_engine::View`], which needs it).
    record: Option<Arc<Mutex<Vec<Event>>>>,
    /// The game's free-text lines (written only by plugins).
    talk: Vec<String>,
    /// The index of the game being played.
    game: u64,
    /// Whether a camp plays an adaptive reply (`Lineup::is_adaptive`, kept).
    adaptive: bool,
    /// Night 1 has begun and the adaptive replies have not been read yet.
    adapt_due: bool,
    /// Each seat's role this game (for the adaptive replies, by camp).
    seat_role: [Role; MAX_PLAYERS],
    /// Per camp and pick value: the signals of the replies that may apply
    /// (`Lineup::reply_signals`); bit `i` of a game's outcome is signal `i`.
    adapt_signals: Box<[Vec<Signal>]>,
    /// Per pick value and role: the configuration for each outcome of the
    /// signals (made once here, so night 1 parses nothing); empty where
    /// seats have their own parameters (`seatN=…`: adapted on the spot).
    adapted: Box<[Vec<crate::strategy::Config>]>,
}

/// The most signals whose outcomes a table lays out in advance (2^this
/// configurations a role and pick).
const MAX_LAID_SIGNALS: usize = 6;

/// Calls one agent method with its context, dispatching statically for the
/// built-in strategies.
macro_rules! ask {
    ($t:ident, $obs:ident, |$a:ident, $cx:ident| $body:expr) => {
        ask!(@ $t, $obs, false, |$a, $cx| $body)
    };
    ($t:ident, $obs:ident, shared, |$a:ident, $cx:ident| $body:expr) => {
        ask!(@ $t, $obs, true, |$a, $cx| $body)
    };
    (@ $t:ident, $obs:ident, $with_shared:expr, |$a:ident, $cx:ident| $body:expr) => {{
        let s = ($obs.seat()).index();
        let camp = $obs.camp();
        // Only the conference and night moves are pre-agreed; other calls get no shared stream.
        let coordinated = $with_shared && camp.members_know_each_other();
        if coordinated {
            $t.shared_work.sync_to(&$t.shared_start[camp as usize]);
        }
        let rng = $t.streams.top_up(Purpose::Seat(Seat::from_index(s)));
        let mut $cx = Cx { rng, shared: if coordinated { Some(&mut $t.shared_work) } else { None }, io: None };
        let r = match $t.kind[s] {
            Strategy::Random => {
                let $a = &mut $t.random;
                $body
            }
            Strategy::Classic => {
                let $a = &mut $t.classic[s];
                $body
            }
            // The seat decides with the table's public read (two pointers;
            // its decisions are out of line, so this arm stays small).
            Strategy::Forum => {
                let $a = &mut Turn::new(&mut $t.forum[s], &mut $t.forum_public);
                $body
            }
            Strategy::Plugin(p) => {
                // Plugins may build the owned view: they get the log (see `Worker::play`).
                let guard = lock_record(&$t.record);
                $cx.io = guard.as_deref().map(|record| Io { record, talk: &mut $t.talk, game: $t.game });
                let $a = &mut *$t.plugins[p as usize][s];
                $body
            }
        };
        if coordinated {
            // The next member reads the phase's draws again from its start:
            // with the block this member loaded, if it had to load one.
            $t.shared_start[camp as usize].adopt_next(&$t.shared_work);
            if $t.shared_work.position() > $t.shared_end[camp as usize].position() {
                $t.shared_end[camp as usize].sync_to(&$t.shared_work);
            }
        }
        r
    }};
}

/// The plugins' log, locked for one call (out of line: the built-in
/// strategies' calls stay small enough to inline into the engine's loops).
#[cold]
#[inline(never)]
fn lock_record(record: &Option<Arc<Mutex<Vec<Event>>>>) -> Option<std::sync::MutexGuard<'_, Vec<Event>>> {
    record.as_ref().map(|r| r.lock().unwrap_or_else(|e| e.into_inner()))
}

impl Table {
    /// A table for `lineup` whose streams come from master key `key`.
    pub fn new(lineup: Lineup, key: [u8; 32]) -> Table {
        let plugins: Vec<Vec<Box<dyn Agent>>> =
            (0..lineup.plugins()).map(|p| (0..MAX_PLAYERS).map(|_| (lineup.plugin(p as u8))()).collect()).collect();
        let blank = Stream::new(key, 0, Purpose::Host);
        let record = (!plugins.is_empty()).then(|| Arc::new(Mutex::new(Vec::new())));
        let uses_forum = lineup.uses(Strategy::Forum);
        // One public read per worker, shared by its forum seats.
        let mut forum_public = Box::<Public>::default();
        forum_public.coin.key = key;
        let forum = vec![ForumAgent::for_table(); MAX_PLAYERS].into_boxed_slice();
        // Per pick value and role: its strategy, and its configuration
        // numbered among every distinct one any role plays in any alternative.
        let mut distinct: Vec<crate::strategy::Config> = Vec::new();
        let picks = lineup.most_alternatives() + 1;
        let mut config_id = vec![[0u16; Role::COUNT]; picks].into_boxed_slice();
        let mut kind_by_pick = vec![[Strategy::Random; Role::COUNT]; picks].into_boxed_slice();
        for p in 0..picks {
            for r in Role::ALL {
                let (kind, config) = *lineup.variant(&lineup.pick_for(r, p), r);
                let id = distinct.iter().position(|c| *c == config).unwrap_or_else(|| {
                    distinct.push(config);
                    distinct.len() - 1
                });
                // At most 24 roles × (MAX_ALTERNATIVES + 1) picks: far below u16::MAX.
                config_id[p][r as usize] = id as u16;
                kind_by_pick[p][r as usize] = kind;
            }
        }
        let role_kind = kind_by_pick[0];
        let lineup_mixed = lineup.is_mixed();
        let adaptive = lineup.is_adaptive();
        // The adaptive replies' configurations, laid out per outcome.
        let (mut adapt_signals, mut adapted) = (Vec::new(), Vec::new());
        if adaptive {
            for c in Camp::ALL {
                for p in 0..picks {
                    adapt_signals.push(lineup.reply_signals(c, p));
                }
            }
            let laid =
                !lineup.has_seat_overrides() && adapt_signals.iter().all(|s: &Vec<Signal>| s.len() <= MAX_LAID_SIGNALS);
            for p in 0..picks {
                for r in Role::ALL {
                    let signals = &adapt_signals[r.camp() as usize * picks + p];
                    let base = lineup.variant(&lineup.pick_for(r, p), r).1;
                    let outcomes = if laid { 1usize << signals.len() } else { 0 };
                    adapted.push(
                        (0..outcomes)
                            .map(|m| {
                                lineup.adapted(r.camp(), p, &base, |sig| {
                                    signals.iter().position(|&x| x == sig).is_some_and(|i| m & (1 << i) != 0)
                                })
                            })
                            .collect(),
                    );
                }
            }
        }
        let all_random =
            !lineup_mixed && !lineup.has_seat_overrides() && kind_by_pick[0].iter().all(|&k| k == Strategy::Random);
        Table {
            lineup,
            streams: GameStreams::new(key),
            kind: [Strategy::Random; MAX_PLAYERS],
            random: RandomAgent,
            classic: vec![ClassicAgent::default(); MAX_PLAYERS].into_boxed_slice(),
            uses_forum,
            forum,
            forum_public,
            role_kind,
            role_config: config_id[0],
            kind_by_pick,
            mixed: lineup_mixed,
            all_random,
            config_id,
            pick: [0; Camp::COUNT],
            forum_config: [u16::MAX; MAX_PLAYERS],
            plugins,
            shared_start: [blank.clone(), blank.clone(), blank.clone()],
            shared_end: [blank.clone(), blank.clone(), blank.clone()],
            shared_work: blank,
            camps_seated: 0,
            record,
            talk: Vec::new(),
            game: 0,
            adaptive,
            adapt_due: false,
            seat_role: [Role::Citizen; MAX_PLAYERS],
            adapt_signals: adapt_signals.into_boxed_slice(),
            adapted: adapted.into_boxed_slice(),
        }
    }

    /// The lineup it plays.
    pub fn lineup(&self) -> &Lineup {
        &self.lineup
    }

    /// This game's alternatives of the mixed camps, from the mix stream
    /// (drawn only by a lineup with a mix: other lineups' games are unchanged).
    #[inline(never)]
    fn pick_mix(&mut self) {
        let s = self.streams.top_up(Purpose::Mix);
        let words = std::array::from_fn(|_| {
            use rand::Rng as _;
            s.next_u32()
        });
        self.pick = self.lineup.pick(words);
    }

    /// A seat's new game (`Players::new_game`) unless every seat is `random`.
    #[inline(never)]
    fn seat_new_game(&mut self, obs: &Observation<'_>) {
        let role = obs.role();
        self.seat_role[obs.seat()] = role;
        // Without a mix every game plays pick 0.
        let (role_kind, role_config) = match self.mixed {
            false => (self.role_kind[role as usize], self.role_config[role as usize]),
            true => {
                let p = self.pick[role.camp() as usize] as usize;
                (self.kind_by_pick[p][role as usize], self.config_id[p][role as usize])
            }
        };
        let kind = match self.lineup.has_seat_overrides() {
            false => role_kind,
            true => self.lineup.strategy_of(&self.pick, obs.seat(), role),
        };
        self.kind[obs.seat()] = kind;
        if kind == Strategy::Forum {
            let s = obs.seat().index();
            match self.lineup.has_seat_overrides() {
                false => {
                    let id = role_config;
                    if self.forum_config[s] != id {
                        self.forum[s].configure(&self.lineup.variant(&self.pick, role).1);
                        self.forum_config[s] = id;
                    }
                }
                true => {
                    self.forum[s].configure(&self.lineup.for_seat(&self.pick, obs.seat(), obs.role()).1);
                    self.forum_config[s] = u16::MAX;
                }
            }
        }
        if kind == Strategy::Random {
            return; // `random` keeps no per-game memory and draws nothing here.
        }
        if kind == Strategy::Forum && !obs.camp().members_know_each_other() {
            // No conference, no shared stream and no public read: straight to the seat.
            let rng = self.streams.get(Purpose::Seat(obs.seat()));
            let mut seat = Turn::new(&mut self.forum[obs.seat()], &mut self.forum_public);
            return seat.new_game(obs, &mut Cx { rng, shared: None, io: None });
        }
        ask!(self, obs, shared, |a, cx| a.new_game(obs, &mut cx))
    }

    /// Night 1's first decision: each camp with an adaptive reply reads
    /// day 1's public record, and where it shows the signal, the camp's
    /// `forum` seats take the reply's parameters for the rest of the game
    /// (configured again at their next game).
    #[cold]
    #[inline(never)]
    fn adapt(&mut self, obs: &Observation<'_>) {
        self.adapt_due = false;
        let picks = self.config_id.len();
        for c in Camp::ALL {
            // The replies of the camp and of the alternative it plays this
            // game, by which of their signals day 1 showed.
            let p = self.pick[c as usize] as usize;
            let signals = &self.adapt_signals[c as usize * picks + p];
            let shown = signals.iter().enumerate().fold(0usize, |m, (i, s)| m | (s.holds(obs) as usize) << i);
            if shown == 0 {
                continue;
            }
            for s in 0..obs.players() {
                let role = self.seat_role[s];
                if self.kind[s] != Strategy::Forum || role.camp() != c {
                    continue;
                }
                let cfg = match self.adapted[p * Role::COUNT + role as usize].get(shown) {
                    Some(cfg) => *cfg,
                    // A seat's own parameters (or too many signals): on the spot.
                    None => self.lineup.adapted(c, p, &self.forum[s].cfg, |signal| signal.holds(obs)),
                };
                self.forum[s].configure(&cfg);
                self.forum_config[s] = u16::MAX;
            }
        }
    }

    /// Which alternative each mixed camp plays in the game being played.
    pub fn pick(&self) -> Pick {
        self.pick
    }

    #[inline(never)]
    fn ask_post(&mut self, obs: &Observation<'_>) -> Publication {
        ask!(self, obs, |a, cx| a.post(obs, &mut cx))
    }
    #[inline(never)]
    fn ask_revise(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        ask!(self, obs, |a, cx| a.revise(obs, &mut cx))
    }
    #[inline(never)]
    fn ask_last_word(&mut self, obs: &Observation<'_>) -> Publication {
        ask!(self, obs, |a, cx| a.last_word(obs, &mut cx))
    }

    /// Positions every stream for game `index`; each coordinated camp's
    /// shared stream starts at its beginning (the conference, C2).
    fn start_game(&mut self, index: u64, players: usize) {
        self.streams.start_game(index, players);
        self.game = index;
        if self.mixed {
            self.pick_mix();
        }
        self.camps_seated = 0;
        self.adapt_due = false;
        self.talk.clear();
        if self.uses_forum {
            self.forum_public.reset();
            self.forum_public.coin.game = index;
            // A mixed lineup's game has generated the block of the lazy
            // purposes' openings for its picks (`pick_mix`): the town's
            // public coin takes its words from there, not from a stream of
            // its own (otherwise it draws them itself, when first needed).
            if self.mixed {
                let town = self.streams.top_up(Purpose::Camp(Camp::Town));
                let words: [u32; 3] = std::array::from_fn(|_| {
                    use rand::Rng as _;
                    town.next_u32()
                });
                self.forum_public.coin.set_words(words);
            }
        }
        for c in Camp::ALL {
            if c.members_know_each_other() {
                let i = c as usize;
                self.streams.start_of(Purpose::Camp(c), &mut self.shared_start[i]);
                self.shared_end[i].sync_to(&self.shared_start[i]);
            }
        }
    }
}

impl Table {
    /// The game is over: every plugin seat learns the ending.
    fn finish(&mut self, state: &State, outcome: &Outcome) {
        if self.plugins.is_empty() {
            return;
        }
        for s in Seat::all(state.players()) {
            if let Strategy::Plugin(_) = self.kind[s] {
                let obs = state.observe(s);
                let ending = mafia_engine::Ending::of(outcome, state.roles(), Some(s));
                ask!(self, obs, |a, cx| a.end(&obs, &ending, &mut cx));
            }
        }
    }

    /// The seats whose agents forfeited the game just played.
    pub fn forfeited(&self, players: usize) -> PlayerSet {
        let mut out = PlayerSet::EMPTY;
        for s in 0..players {
            if let Strategy::Plugin(p) = self.kind[s]
                && self.plugins[p as usize][s].forfeited()
            {
                out.insert(Seat::from_index(s));
            }
        }
        out
    }

    /// The illegal answers the plugin agents gave in the game just played
    /// (see [`Agent::illegal_answers`]).
    pub fn illegal_answers(&self, players: usize) -> u32 {
        (0..players)
            .map(|s| match self.kind[s] {
                Strategy::Plugin(p) => self.plugins[p as usize][s].illegal_answers(),
                _ => 0,
            })
            .sum()
    }

    /// The decisions of the game just played the plugin agents' fallbacks
    /// answered (see [`Agent::replaced_answers`]).
    pub fn replaced_answers(&self, players: usize) -> u32 {
        (0..players)
            .map(|s| match self.kind[s] {
                Strategy::Plugin(p) => self.plugins[p as usize][s].replaced_answers(),
                _ => 0,
            })
            .sum()
    }
}

impl Players for Table {
    #[inline(always)]
    fn new_game(&mut self, obs: &Observation<'_>) {
        self.camps_seated |= 1 << obs.camp() as u8;
        if self.all_random {
            return; // `kind` is `random` for good; `random` keeps no per-game memory.
        }
        self.seat_new_game(obs);
    }

    #[inline(always)]
    fn quiet(&self, s: Seat) -> bool {
        let s = s.index();
        match self.kind[s] {
            // `random` never speaks nor changes its vote (RandomAgent::quiet).
            Strategy::Random => true,
            Strategy::Classic => self.classic[s].quiet(),
            Strategy::Forum => self.forum[s].quiet(),
            Strategy::Plugin(p) => self.plugins[p as usize][s].quiet(),
        }
    }

    fn begin_phase(&mut self, day: u16, night: bool) {
        // Night 1: the adaptive replies read day 1 at the night's first decision.
        self.adapt_due = self.adaptive && night && day == 1;
        // Each phase's shared draws start past everything any member read before.
        for c in Camp::ALL {
            if c.members_know_each_other() && self.camps_seated & (1 << c as u8) != 0 {
                let i = c as usize;
                let (start, end) = (&mut self.shared_start[i], &self.shared_end[i]);
                start.sync_to(end);
            }
        }
    }

    // The forum seats' frequent decisions that draw nothing go straight to
    // the seat (no stream); the other strategies' through `ask!`, out of line.
    #[inline(always)]
    fn post(&mut self, obs: &Observation<'_>) -> Publication {
        let s = obs.seat().index();
        if self.kind[s] == Strategy::Forum {
            // Most forum seats never post: answered here, without the call.
            if !self.forum[s].posts(obs) {
                return Publication::NONE;
            }
            return Turn::new(&mut self.forum[s], &mut self.forum_public).day_post(obs);
        }
        self.ask_post(obs)
    }
    // Inlined into the engine's vote loop, as the night move is (see `night`).
    #[inline(always)]
    fn vote(&mut self, obs: &Observation<'_>) -> Vote {
        if self.kind[obs.seat()] == Strategy::Random {
            // Any `random` seat: the same draw `ask!` would hand
            // `RandomAgent::vote`, without the dispatch (the uniform model's
            // hottest decision).
            let rng = self.streams.top_up(Purpose::Seat(obs.seat()));
            return crate::random::vote(obs, rng);
        }
        ask!(self, obs, |a, cx| a.vote(obs, &mut cx))
    }
    #[inline(always)]
    fn revise(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        let s = obs.seat().index();
        if self.kind[s] == Strategy::Forum {
            return Turn::new(&mut self.forum[s], &mut self.forum_public).vote_change(obs);
        }
        self.ask_revise(obs)
    }
    fn defence(&mut self, obs: &Observation<'_>) -> Publication {
        ask!(self, obs, |a, cx| a.defence(obs, &mut cx))
    }
    #[inline(always)]
    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet) -> Seat {
        ask!(self, obs, |a, cx| a.runoff(obs, candidates, &mut cx))
    }
    #[inline(always)]
    fn hang_both(&mut self, obs: &Observation<'_>, pair: PlayerSet) -> bool {
        ask!(self, obs, |a, cx| a.hang_both(obs, pair, &mut cx))
    }
    // Inlined into the engine's collector: a `NightChoice` (10 bytes) returned
    // through memory is built byte by byte and re-read wide, a store-forwarding
    // stall on every night move.
    #[inline(always)]
    fn night(&mut self, obs: &Observation<'_>) -> NightChoice {
        if self.adapt_due {
            self.adapt(obs);
        }
        ask!(self, obs, shared, |a, cx| a.night(obs, &mut cx))
    }
    fn proxy(&mut self, obs: &Observation<'_>, member: Seat) -> NightChoice {
        ask!(self, obs, |a, cx| a.proxy(obs, member, &mut cx))
    }
    fn appoint(&mut self, obs: &Observation<'_>, vacant: RoleSet) -> Option<Role> {
        ask!(self, obs, shared, |a, cx| a.appoint(obs, vacant, &mut cx))
    }
    fn secret_vote(&mut self, obs: &Observation<'_>) -> Option<Seat> {
        ask!(self, obs, |a, cx| a.secret_vote(obs, &mut cx))
    }
    #[inline(always)]
    fn last_word(&mut self, obs: &Observation<'_>) -> Publication {
        let s = obs.seat().index();
        if self.kind[s] == Strategy::Forum {
            return Turn::new(&mut self.forum[s], &mut self.forum_public).final_word(obs);
        }
        self.ask_last_word(obs)
    }
}

/// The log of a game with plugins: the caller's log, plus every event kept
/// for the plugins' views.
struct Recording<'a, L> {
    inner: &'a mut L,
    record: &'a Mutex<Vec<Event>>,
}

impl<L: Log> Log for Recording<'_, L> {
    const ENABLED: bool = true;
    fn push(&mut self, e: Event) {
        self.record.lock().unwrap_or_else(|e| e.into_inner()).push(e);
        if L::ENABLED {
            self.inner.push(e);
        }
    }
}

/// Everything one thread needs to play games of one setup and lineup,
/// allocated once and reused for every game.
pub struct Worker {
    /// The agents and their streams.
    pub table: Table,
    /// The engine's state (scratch space, reused).
    pub state: State,
    /// The night's moves (scratch space, reused).
    pub moves: NightMoves,
    /// The game's deal, host and activity streams (the engine's `Chance`),
    /// set from the table's streams at each game's start.
    chance: [Stream; 3],
}

/// Positions the table's streams for game `index` and sets the worker's
/// copies of the deal, host and activity streams to their starts.
fn start_game<'a>(
    t: &mut Table,
    chance: &'a mut [Stream; 3],
    index: u64,
    players: usize,
) -> Chance<'a, Stream, Stream, Stream> {
    t.start_game(index, players);
    let [deal, host, activity] = chance;
    t.streams.start_of(Purpose::Deal, deal);
    t.streams.start_of(Purpose::Host, host);
    t.streams.start_of(Purpose::Activity, activity);
    Chance { deal, host, activity }
}

impl Worker {
    /// Plays on without the game's record: the plugin agents' views hold
    /// no record and no talk, their free text is dropped and their `end`
    /// is not called. For a caller that reads nothing of it — the light
    /// [`crate::Stepper`], whose environment reads the public record from
    /// the engine's log — it saves a lock per event and per decision.
    pub fn without_record(&mut self) {
        self.table.record = None;
    }

    /// The seats whose agents forfeited the last game (see [`Agent::forfeited`]).
    pub fn forfeited(&self) -> PlayerSet {
        self.table.forfeited(self.state.players())
    }

    /// The illegal answers the agents gave in the last game, replaced
    /// before the engine saw them (see [`Agent::illegal_answers`]): not in
    /// the outcome's `illegal_decisions` (the engine refused none of them).
    pub fn illegal_answers(&self) -> u32 {
        self.table.illegal_answers(self.state.players())
    }

    /// The decisions of the last game the agents' fallbacks answered (see
    /// [`Agent::replaced_answers`]).
    pub fn replaced_answers(&self) -> u32 {
        self.table.replaced_answers(self.state.players())
    }

    /// A worker for `lineup` with master key `key`.
    pub fn new(lineup: Lineup, key: [u8; 32]) -> Worker {
        let chance = [Purpose::Deal, Purpose::Host, Purpose::Activity].map(|p| Stream::new(key, 0, p));
        Worker { table: Table::new(lineup, key), state: State::default(), moves: NightMoves::default(), chance }
    }

    /// Plays game `index` of the run keyed by `key`. Same inputs, same
    /// outcome and the same events, on any thread.
    pub fn play<L: Log>(&mut self, game: &Game, index: u64, log: &mut L) -> Outcome {
        let t = &mut self.table;
        let chance = start_game(t, &mut self.chance, index, game.players());
        match t.record.clone() {
            None => mafia_engine::play(game, &mut self.state, &mut self.moves, t, chance, log),
            Some(record) => {
                record.lock().unwrap_or_else(|e| e.into_inner()).clear();
                let mut log = Recording { inner: log, record: &record };
                let outcome = mafia_engine::play(game, &mut self.state, &mut self.moves, t, chance, &mut log);
                t.finish(&self.state, &outcome);
                outcome
            }
        }
    }

    /// Plays game `index` on from the position `start` (`mafia odds`), with
    /// the same per-game streams as [`Worker::play`]: the roles the
    /// position leaves unknown come from the deal stream (so from the start
    /// of a game with nothing known this is exactly `play`'s game), the rest
    /// from the host, activity, camp and seat streams. The agents start
    /// with no memory of earlier phases: each learns what its observation
    /// holds (role, mates, checks, the public record) in `new_game`.
    /// `None` if no deal fitting the position came up (see [`Start::sample`]).
    pub fn play_from<L: Log>(&mut self, start: &Start, index: u64, log: &mut L) -> Option<Outcome> {
        let t = &mut self.table;
        let chance = start_game(t, &mut self.chance, index, start.game().players());
        match t.record.clone() {
            None => mafia_engine::play_from(start, &mut self.state, &mut self.moves, t, chance, log),
            Some(record) => {
                record.lock().unwrap_or_else(|e| e.into_inner()).clear();
                let mut log = Recording { inner: log, record: &record };
                let outcome = mafia_engine::play_from(start, &mut self.state, &mut self.moves, t, chance, &mut log)?;
                t.finish(&self.state, &outcome);
                Some(outcome)
            }
        }
    }
}
