//! The table: one game's seats, their agents and streams, as the engine's
//! [`Players`]; and [`Worker`], the per-thread bundle that plays games
//! without allocating.

use crate::agent::{Agent, Cx};
use crate::classic::ClassicAgent;
use crate::lineup::{Lineup, Strategy};
use crate::random::RandomAgent;
use crate::streams::{GameStreams, Purpose, Stream};
use mafia_engine::{
    Camp, Chance, Game, Log, MAX_PLAYERS, NightChoice, NightMoves, Observation, Outcome, PlayerSet, Players,
    Publication, Seat, State, Vote,
};

/// The seats of a game as the engine's [`Players`].
pub struct Table {
    lineup: Lineup,
    streams: GameStreams,
    kind: [Strategy; MAX_PLAYERS],
    random: RandomAgent,
    classic: Box<[ClassicAgent]>,
    /// Plugin agents, per plugin, per seat (made once per worker).
    plugins: Vec<Vec<Box<dyn Agent>>>,
    /// Per camp: the shared stream at the start of this phase, and the
    /// furthest any member has read it.
    shared_start: [Stream; Camp::COUNT],
    shared_end: [Stream; Camp::COUNT],
    shared_work: Stream,
}

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
        let s = $obs.seat() as usize;
        let camp = $obs.camp();
        // Only the conference and night moves are pre-agreed; other calls get no shared stream.
        let coordinated = $with_shared && camp.members_know_each_other();
        if coordinated {
            $t.shared_work.sync_to(&$t.shared_start[camp as usize]);
        }
        let rng = $t.streams.get(Purpose::Seat(s as Seat));
        let mut $cx = Cx { rng, shared: if coordinated { Some(&mut $t.shared_work) } else { None } };
        let r = match $t.kind[s] {
            Strategy::Random => {
                let $a = &mut $t.random;
                $body
            }
            Strategy::Classic => {
                let $a = &mut $t.classic[s];
                $body
            }
            Strategy::Plugin(p) => {
                let $a = &mut *$t.plugins[p as usize][s];
                $body
            }
        };
        if coordinated && $t.shared_work.position() > $t.shared_end[camp as usize].position() {
            $t.shared_end[camp as usize].sync_to(&$t.shared_work);
        }
        r
    }};
}

impl Table {
    pub fn new(lineup: Lineup, key: [u8; 32]) -> Table {
        let plugins = (0..lineup.strategy_names().len().saturating_sub(crate::lineup::BUILTIN.len()))
            .map(|p| (0..MAX_PLAYERS).map(|_| (lineup.plugin(p as u8))()).collect())
            .collect();
        let blank = Stream::new(key, 0, Purpose::Host);
        Table {
            lineup,
            streams: GameStreams::new(key),
            kind: [Strategy::Random; MAX_PLAYERS],
            random: RandomAgent,
            classic: vec![ClassicAgent::default(); MAX_PLAYERS].into_boxed_slice(),
            plugins,
            shared_start: [blank.clone(), blank.clone(), blank.clone()],
            shared_end: [blank.clone(), blank.clone(), blank.clone()],
            shared_work: blank,
        }
    }

    pub fn lineup(&self) -> &Lineup {
        &self.lineup
    }

    /// Positions every stream for game `index`; each coordinated camp's
    /// shared stream starts at its beginning (the conference, C2).
    fn start_game(&mut self, index: u64, players: usize) {
        self.streams.start_game(index, players);
        for c in Camp::ALL {
            if c.members_know_each_other() {
                let i = c as usize;
                self.shared_start[i].clone_from(self.streams.get(Purpose::Camp(c)));
                self.shared_end[i].clone_from(&self.shared_start[i]);
            }
        }
    }
}

impl Players for Table {
    fn new_game(&mut self, obs: &Observation<'_>) {
        let kind = self.lineup.for_role(obs.role());
        self.kind[obs.seat() as usize] = kind;
        if kind == Strategy::Random {
            return; // `random` keeps no per-game memory and draws nothing here.
        }
        ask!(self, obs, shared, |a, cx| a.new_game(obs, &mut cx))
    }

    #[inline]
    fn quiet(&self, s: Seat) -> bool {
        // `random` never speaks nor changes its vote (see random.rs).
        self.kind[s as usize] == Strategy::Random
    }

    fn begin_phase(&mut self, _day: u16, _night: bool) {
        // Each phase's shared draws start past everything any member read before.
        for c in Camp::ALL {
            if c.members_know_each_other() {
                let i = c as usize;
                let (start, end) = (&mut self.shared_start[i], &self.shared_end[i]);
                start.sync_to(end);
            }
        }
    }

    fn post(&mut self, obs: &Observation<'_>) -> Publication {
        ask!(self, obs, |a, cx| a.post(obs, &mut cx))
    }
    #[inline]
    fn vote(&mut self, obs: &Observation<'_>) -> Vote {
        ask!(self, obs, |a, cx| a.vote(obs, &mut cx))
    }
    fn revise(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        ask!(self, obs, |a, cx| a.revise(obs, &mut cx))
    }
    fn defence(&mut self, obs: &Observation<'_>) -> Publication {
        ask!(self, obs, |a, cx| a.defence(obs, &mut cx))
    }
    #[inline]
    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet) -> Seat {
        ask!(self, obs, |a, cx| a.runoff(obs, candidates, &mut cx))
    }
    #[inline]
    fn hang_both(&mut self, obs: &Observation<'_>, pair: PlayerSet) -> bool {
        ask!(self, obs, |a, cx| a.hang_both(obs, pair, &mut cx))
    }
    // Inlined into the engine's collector: a `NightChoice` (10 bytes) returned
    // through memory is built byte by byte and re-read wide, a store-forwarding
    // stall on every night move.
    #[inline(always)]
    fn night(&mut self, obs: &Observation<'_>) -> NightChoice {
        ask!(self, obs, shared, |a, cx| a.night(obs, &mut cx))
    }
    fn proxy(&mut self, obs: &Observation<'_>, member: Seat) -> NightChoice {
        ask!(self, obs, |a, cx| a.proxy(obs, member, &mut cx))
    }
    fn last_word(&mut self, obs: &Observation<'_>) -> Publication {
        ask!(self, obs, |a, cx| a.last_word(obs, &mut cx))
    }
}

/// Everything one thread needs to play games of one setup and lineup,
/// allocated once and reused for every game.
pub struct Worker {
    pub table: Table,
    pub state: State,
    pub moves: NightMoves,
}

impl Worker {
    pub fn new(lineup: Lineup, key: [u8; 32]) -> Worker {
        Worker { table: Table::new(lineup, key), state: State::default(), moves: NightMoves::default() }
    }

    /// Plays game `index` of the run keyed by `key`. Same inputs, same
    /// outcome and the same events, on any thread.
    pub fn play<L: Log>(&mut self, game: &Game, index: u64, log: &mut L) -> Outcome {
        let t = &mut self.table;
        t.start_game(index, game.players());
        let mut deal = t.streams.get(Purpose::Deal).clone();
        let mut host = t.streams.get(Purpose::Host).clone();
        let mut activity = t.streams.get(Purpose::Activity).clone();
        let chance = Chance { deal: &mut deal, host: &mut host, activity: &mut activity };
        mafia_engine::play(game, &mut self.state, &mut self.moves, t, chance, log)
    }
}
