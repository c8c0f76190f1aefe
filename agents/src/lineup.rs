//! Which strategy plays which seat: a default, overridden per camp, then
//! per role, then per seat, each with parameters
//! (`--agents forum,mafia=mafia:bus=0.2,commissar=reveal:on=at-once,seat3=random`).
//! A strategy named `ext:COMMAND` is an agent in another process; the
//! caller registers it as a plugin under that name before applying the spec.

use crate::agent::Agent;
use crate::strategy::{Config, STRATEGIES, StrategyInfo};
use mafia_engine::{Camp, MAX_PLAYERS, Role, RoleSet, Seat};
use std::fmt;
use std::sync::Arc;

/// How a seat is played: a built-in agent or a registered plugin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Uniformly random legal play ([`crate::RandomAgent`]).
    Random,
    /// The classic seed's strategies ([`crate::ClassicAgent`]).
    Classic,
    /// The `forum` family ([`crate::ForumAgent`]), with the seat's [`Config`].
    Forum,
    /// The n-th plugin registered on the lineup.
    Plugin(u8),
}

/// Makes a fresh agent for a plugin strategy (one per seat per worker).
pub type AgentFactory = Arc<dyn Fn() -> Box<dyn Agent> + Send + Sync>;

/// One assignment: a strategy by name, with its parameters as given.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Choice {
    strategy: Strategy,
    name: String,
    params: Vec<(String, String)>,
}

impl Choice {
    fn label(&self) -> String {
        let mut s = self.name.clone();
        for (k, v) in &self.params {
            s.push_str(&format!(":{k}={v}"));
        }
        s
    }
}

/// The strategy and parameters of every role.
type RoleTable = [(Strategy, Config); Role::COUNT];

/// One alternative of a camp's mixed strategy (`mafia@0.3=forum:fake=0`):
/// the camp's layer in a share of the games.
#[derive(Clone)]
struct Alternative {
    /// The share as given (for the label).
    share: String,
    /// The game plays this alternative when the camp's mix word (see
    /// [`crate::streams::Purpose::Mix`]) is below `upper` and not below the
    /// previous alternative's.
    upper: u64,
    choice: Choice,
    /// Adaptive replies of this alternative alone (`CAMP@?SIGNAL=…` after
    /// it); the camp's own lie over them where both signals show.
    replies: Vec<(Signal, Choice)>,
    /// Every role's strategy and parameters with this camp layer (only the
    /// camp's roles are read).
    table: Box<RoleTable>,
}

/// One alternative of a camp's mix as given: `(share, strategy, parameters)`.
pub type MixPart = (String, String, Vec<(String, String)>);

/// The most alternatives one camp's mix may have (a game's pick is a byte,
/// and the table numbers every distinct configuration in one).
pub const MAX_ALTERNATIVES: usize = 16;

/// Which alternative each camp plays this game: 0 its usual layers, `i`
/// its `i`-th alternative (see [`Lineup::pick`]).
pub type Pick = [u8; Camp::COUNT];

/// A strategy assignment.
#[derive(Clone)]
pub struct Lineup {
    default: Choice,
    camps: [Option<Choice>; Camp::COUNT],
    /// Per camp: its mixed strategy's alternatives, in the order given;
    /// the games none of them takes play the camp's usual layers.
    mixes: [Vec<Alternative>; Camp::COUNT],
    roles: [Option<Choice>; Role::COUNT],
    /// Per seat (`seat3=…`), over everything else; rarely used, so boxed.
    seats: Option<Box<[Option<Choice>; MAX_PLAYERS]>>,
    /// Per camp, its adaptive replies (`CAMP?SIGNAL=…`), in the order
    /// given: parameters the camp's `forum` seats take from night 1 on in
    /// games whose first day showed the signal (a later reply's over an
    /// earlier one's where both signals show).
    adaptive: [Vec<(Signal, Choice)>; Camp::COUNT],
    plugins: Vec<(String, AgentFactory)>,
    /// Per role: the strategy that plays it and its parameters, layered.
    table: [(Strategy, Config); Role::COUNT],
}

/// What the first day's public record shows, read at night 1 by an
/// adaptive reply (`CAMP?NAME>K`): everybody sees it, so a camp's seats
/// agree on it, and it tells apart the ways another camp may play (a
/// pass-first town passes; an early-revealing one claims).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signal {
    /// What it counts.
    pub kind: SignalKind,
    /// The signal holds when the count is above this (`>`) or below it (`<`).
    pub threshold: u8,
    /// `true`: holds above the threshold (`>`); `false`: below (`<`).
    pub above: bool,
}

/// The counts a [`Signal`] reads off day 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalKind {
    /// Final day-1 votes that were PASS (C10).
    Passes,
    /// Role claims made by the end of day 1.
    Claims,
    /// Day-1 votes changed (C10: one change a day).
    Changes,
    /// Players lynched on day 1 (0 or 1; 2 when both tied were hanged, C12.3).
    Lynched,
}

impl SignalKind {
    /// Every kind, in the order of their names.
    pub const ALL: [SignalKind; 4] = [SignalKind::Passes, SignalKind::Claims, SignalKind::Changes, SignalKind::Lynched];
    /// The kind's name in a lineup (`passes`).
    pub fn name(self) -> &'static str {
        match self {
            SignalKind::Passes => "passes",
            SignalKind::Claims => "claims",
            SignalKind::Changes => "changes",
            SignalKind::Lynched => "lynched",
        }
    }
}

impl Signal {
    /// Parses `passes>3`, `claims<1`, …
    pub fn parse(text: &str) -> Option<Signal> {
        let (name, k, above) = match (text.split_once('>'), text.split_once('<')) {
            (Some((n, k)), None) => (n, k, true),
            (None, Some((n, k))) => (n, k, false),
            _ => return None,
        };
        let kind = SignalKind::ALL.into_iter().find(|s| s.name() == name.trim())?;
        Some(Signal { kind, threshold: k.trim().parse().ok()?, above })
    }

    /// The count of day 1's public record the signal reads (call at night 1).
    pub fn count(self, obs: &mafia_engine::Observation<'_>) -> u32 {
        use mafia_engine::{DeathCause, Phase, Vote};
        let seats = Seat::all(obs.players());
        match self.kind {
            SignalKind::Passes => seats.filter(|&s| obs.vote_of(s) == Some(Vote::Pass)).count() as u32,
            SignalKind::Claims => obs.claims_made() as u32,
            SignalKind::Changes => obs.changed().len(),
            SignalKind::Lynched => {
                seats.filter(|&s| obs.death(s) == Some((Phase::Day(1), DeathCause::Lynched))).count() as u32
            }
        }
    }

    /// Whether day 1 showed the signal (call at night 1).
    pub fn holds(self, obs: &mafia_engine::Observation<'_>) -> bool {
        let n = self.count(obs);
        if self.above { n > self.threshold as u32 } else { n < self.threshold as u32 }
    }
}

impl fmt::Display for Signal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.kind.name(), if self.above { '>' } else { '<' }, self.threshold)
    }
}

/// Why a lineup spec was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineupError {
    /// No strategy of this name.
    UnknownStrategy {
        /// The name given.
        name: String,
        /// The names a lineup knows.
        known: Vec<String>,
    },
    /// A key that is no camp, role or seat (`default`, `town`, `doctor`, `P3`).
    UnknownKey {
        /// The key given.
        key: String,
    },
    /// A part that is no `KEY=STRATEGY`.
    Malformed {
        /// The part as written.
        part: String,
    },
    /// The strategy has no parameter of this name.
    UnknownParam {
        /// The strategy.
        strategy: String,
        /// The parameter given.
        param: String,
        /// The strategy's parameters.
        known: Vec<String>,
    },
    /// A parameter's value out of its range.
    BadValue {
        /// The strategy.
        strategy: String,
        /// The parameter.
        param: String,
        /// The value given.
        value: String,
        /// The values it takes.
        expected: String,
    },
    /// The strategy plays other roles than the key names.
    NotForKey {
        /// The strategy.
        strategy: String,
        /// The key it was given to.
        key: String,
        /// The roles it plays.
        plays: String,
    },
    /// The key names a role the setup does not deal.
    AbsentRole {
        /// The key.
        key: String,
    },
    /// An external agent (`ext:COMMAND`) that cannot run.
    External {
        /// Why.
        message: String,
    },
    /// The key names a seat the setup does not have.
    AbsentSeat {
        /// The key.
        key: String,
        /// The table's size.
        players: usize,
    },
    /// A camp's alternative (`CAMP@SHARE=…`) with a share that is no
    /// number in (0, 1], or shares of one camp that add up to more than 1.
    BadShare {
        /// The key.
        key: String,
        /// What is wrong with the share.
        why: String,
    },
    /// `preset:NAME` names no preset.
    UnknownPreset {
        /// The name given.
        name: String,
    },
    /// An adaptive reply's signal (`CAMP@?NAME>K`) that does not parse.
    BadSignal {
        /// The key as written.
        key: String,
    },
}

impl fmt::Display for LineupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineupError::UnknownStrategy { name, known } => {
                write!(f, "unknown strategy `{name}` (known: {}; `mafia strategies` lists them)", known.join(", "))
            }
            LineupError::UnknownKey { key } => {
                let roles: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
                write!(
                    f,
                    "`{key}` is neither a camp (town, mafia, bandits), a camp's alternative (CAMP@SHARE, e.g. mafia@0.3), a camp's adaptive reply (CAMP?SIGNAL>K, e.g. mafia?passes>3), a role ({}), a seat (seat1 … seat{MAX_PLAYERS}) nor `default`",
                    roles.join(", ")
                )
            }
            LineupError::Malformed { part } => {
                write!(f, "`{part}` is not STRATEGY[:PARAM=VALUE…] or KEY=STRATEGY[:PARAM=VALUE…]")
            }
            LineupError::UnknownParam { strategy, param, known } => {
                let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
                write!(f, "strategy `{strategy}` has no parameter `{param}` (its parameters: {known})")
            }
            LineupError::BadValue { strategy, param, value, expected } => {
                write!(f, "`{strategy}:{param}={value}`: `{param}` takes {expected}")
            }
            LineupError::NotForKey { strategy, key, plays } => {
                write!(f, "strategy `{strategy}` plays {plays}, not `{key}`")
            }
            LineupError::AbsentRole { key } => {
                write!(f, "agents are set for `{key}`, but the setup deals no {key}")
            }
            LineupError::External { message } => f.write_str(message),
            LineupError::AbsentSeat { key, players } => {
                write!(f, "agents are set for `{key}`, but the setup has {players} seats")
            }
            LineupError::BadShare { key, why } => write!(f, "`{key}`: {why}"),
            LineupError::BadSignal { key } => {
                let names: Vec<&str> = SignalKind::ALL.iter().map(|k| k.name()).collect();
                write!(
                    f,
                    "`{key}`: an adaptive reply is CAMP?SIGNAL>K or CAMP?SIGNAL<K (SIGNAL one of {}, K a count) \
                     set to a strategy of the forum family",
                    names.join(", ")
                )
            }
            LineupError::UnknownPreset { name } => {
                let names: Vec<&str> = mafia_engine::PRESETS.iter().map(|p| p.name).collect();
                write!(f, "`preset:{name}`: no such preset ({})", names.join(", "))
            }
        }
    }
}

impl std::error::Error for LineupError {}

impl Default for Lineup {
    /// Every seat plays the `forum` strategies with their defaults.
    fn default() -> Self {
        Lineup::all(Strategy::Forum)
    }
}

impl fmt::Debug for Lineup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// The default lineup of each preset, as an `--agents` spec: every preset
/// plays a mix solved for it by `experiments/solve_mix.py` (double oracle
/// with `mafia best-response` as the oracle; `--general`, each camp for its
/// own win rate, where the bandits or draws make the game other than
/// zero-sum). Each camp plays one of a few settings of the `forum`
/// parameters per game, and some settings carry an adaptive reply
/// (`CAMP@?SIGNAL=…`: from night 1, in the games whose first day showed the
/// signal). The book's "How good is the play" (docs/src/research/play.md)
/// has each mix in words and each camp's best reply to it.
///
/// All four were solved again on 2026-12-04 (night) with the town's
/// `pass_tell` and the mafia's `mimic` in the space (a learned `classic`
/// seat had found the PASS tell, worth 28–55 points to the town against
/// the mixes before; the book's "The PASS tell"), and `classic-13`,
/// `forum-16` and `extended` once more on 2026-12-05 with an oracle that
/// also searches adaptive replies over the mix (`--adaptive-base both`;
/// `extended` with Lemke–Howson for its three-camp game, converged: the
/// oracle's last replies under 1 point). The full searches of the book
/// (3,000,000 games, 4 rounds, adaptive replies) then find at most 0.9
/// (town) and 2.1 (mafia) points on `classic`, 0.3 and 2.3 on
/// `classic-13`, 0.4, 0.4 and 0.1 (bandits) on `forum-16`, and 2.1, 0.5
/// and 0.2 on `extended` (with its Guard's move of that day); see the
/// book for every camp and the learned reply. `extended`'s
/// bandits, held fixed by the solver, read the thread as their best reply
/// to it does (`trust=0`, `counterclaim=earlier`). `classic`'s default
/// layer under its alternatives is the earlier per-parameter mix, which
/// still sets what no alternative does. A setup not listed here (a setup
/// file without `base`) plays the catalogue's defaults: re-solve per setup,
/// the strategy notes advise.
pub const PRESET_LINEUPS: &[(&str, &str)] = &[
    (
        "classic",
        concat!(
            "forum:counterclaim=coin:coin=0.47:coin_both=0.33:mix=0.24:counter=0.7:preempt=0.2:fake=0.41:pass_first=0.06:blend=0.83,",
            "town@0.0314=forum:counterclaim=both:mix=0:pass_first=0:pass_tell=true,",
            "town@?passes>0=forum:counterclaim=earlier:on=day3,",
            "town@0.4778=forum:counterclaim=both:mix=0:on=day2:pass_first=1:pass_tell=true,",
            "town@?passes>0=forum:whom=random,",
            "town@0.3492=forum:by_day=4:counter=1:counterclaim=both:mix=0:pass_first=0:pass_tell=true,",
            "town@?lynched>0=forum:trust=0:counterclaim=earlier:pass_first=1:on=day3:mix=0:counter=1:move=none,",
            "town@0.1416=forum:counterclaim=both:mix=0:on=day2:pass_first=1:pass_tell=true,",
            "town@?passes>5=forum:pass_first=0:pass_tell=true:by_day=1,",
            "mafia@0.0309=forum:blend=1:fake=0:preempt=0,",
            "mafia@?passes>2=forum:trust=0:counterclaim=both:whom=random:fake=0:preempt=1:blend=1:move=none,",
            "mafia@0.2118=forum:blend=1:fake=0:mimic=true:quorum=3:preempt=0,",
            "mafia@0.1047=forum:blend=1:fake=0:mimic=true:quorum=3:preempt=0,",
            "mafia@?passes>2=forum:counterclaim=both:kill=order:preempt=1:move=none,",
            "mafia@0.1047=forum:blend=1:fake=0:mimic=true:quorum=3:preempt=0,",
            "mafia@?passes>0=forum:counterclaim=both:kill=order:preempt=1:move=none,",
            "mafia@0.336=forum,",
            "mafia@?passes>2=forum:counterclaim=earlier:kill=order:fake=1:preempt=0:blend=1:mimic=true:quorum=3:move=none,",
            "mafia@0.2119=forum:blend=1:fake=0:mimic=true:quorum=3:preempt=0,",
            "mafia@?lynched>0=forum:counterclaim=earlier:kill=order:fake=0:preempt=0.75:blend=1"
        ),
    ),
    (
        "extended",
        concat!(
            "forum,",
            "town@0.031=forum:mix=1:pass_first=1:shoot=suspect,",
            "town@0.1495=forum:counterclaim=checks:on=day2:pass_tell=true:shoot=second,",
            "town@0.0052=forum:day1_pass=false:on=day2:pass_tell=true:shoot=second,",
            "town@?passes>0=forum:trust=0:counterclaim=earlier:pass_first=1:on=day3:counter=1:heal=revealed:shoot=suspect:borrow=random,",
            "town@0.101=forum:day1_pass=false:on=day2:pass_tell=true:shoot=second,",
            "town@0.0113=forum:day1_pass=false:on=day2:pass_tell=true:shoot=second,",
            "town@?claims>0=forum:trust=0:counterclaim=earlier:pass_first=1:on=at-once:counter=1:heal=self:shoot=suspect,",
            "town@0.2909=forum:counterclaim=earlier:pass_tell=true:shoot=suspect:trust=0.25,",
            "town@?lynched>0=forum:on=day3,",
            "town@0.236=forum:counter=0.25:on=day2:pass_first=1:shoot=second,",
            "town@?lynched>0=forum:trust=0:counterclaim=earlier:pass_first=1:on=day3:counter=0:heal=revealed:shoot=suspect,",
            "town@0.1399=forum:counterclaim=earlier:pass_tell=true:shoot=suspect:trust=0.25,",
            "town@?changes>0=forum:trust=0:counterclaim=earlier:pass_first=1:on=day3:counter=0:heal=revealed:shoot=suspect,",
            "town@0.0352=forum:counter=0.25:on=day2:pass_first=1:shoot=second,",
            "town@?changes>0=forum:trust=0:counterclaim=earlier:pass_first=1:on=day3:counter=0:heal=revealed:shoot=suspect,",
            "mafia@0.1299=forum:blend=1:mimic=true:quorum=4:trust=0.25,",
            "mafia@?changes>0=forum:counterclaim=earlier:fake=0:preempt=1,",
            "mafia@0.2827=forum:counterclaim=both:fake=1:mimic=true:trust=0.25,",
            "mafia@?changes>0=forum:counterclaim=earlier:fake=0:preempt=1,",
            "mafia@0.1285=forum:counterclaim=both:fake=1:mimic=true:trust=0.25,",
            "mafia@?claims>0=forum:counterclaim=later:preempt=1,",
            "mafia@0.1429=forum:blend=1:mimic=true:quorum=4:trust=0.25,",
            "mafia@?claims>0=forum:counterclaim=later:preempt=1,",
            "mafia@0.0375=forum:mimic=true:trust=0.25,",
            "mafia@?passes>0=forum:kill=order,",
            "mafia@0.1174=forum:mimic=true:trust=0.25,",
            "mafia@?lynched>0=forum:trust=0.25:counterclaim=earlier:fake=0:preempt=1:mimic=true,",
            "mafia@0.0207=forum,",
            "mafia@?lynched>0=forum:trust=0.25:counterclaim=earlier:fake=0:preempt=1:mimic=true,",
            "mafia@0.0044=forum:counterclaim=checks:kill=order:mimic=true:preempt=1:quorum=3:trust=0.25,",
            "mafia@?passes>0=forum:trust=0.25:counterclaim=earlier:preempt=1:mimic=true,",
            "mafia@0.136=forum:kill=order:trust=0,",
            "mafia@?changes>0=forum:trust=0.25:mimic=true,",
            "bandits@1=forum:counterclaim=earlier:trust=0"
        ),
    ),
    (
        "forum-16",
        concat!(
            "forum,",
            "town@0.4795=forum:counterclaim=checks:heal=self:on=day2:pass_first=1,",
            "town@0.2522=forum:by_day=5:counter=1:counterclaim=earlier:pass_first=1,",
            "town@?passes>0=forum:counterclaim=both:pass_first=0:pass_tell=true,",
            "town@0.0283=forum:by_day=5:counter=1:counterclaim=earlier:on=last-word:pass_first=1:shoot=suspect:trust=0.25,",
            "town@0.24=forum:by_day=0:counter=1:counterclaim=earlier:pass_first=1,",
            "town@?lynched>0=forum:by_day=6:shoot=second,",
            "mafia@0.1993=forum:blend=1:counterclaim=earlier:fake=1:mimic=true:move=random,",
            "mafia@0.1324=forum:blend=1:fake=1,",
            "mafia@0.2889=forum:blend=1:mimic=true:whom=random,",
            "mafia@0.3794=forum:blend=1:mimic=true:whom=random,",
            "mafia@?passes>0=forum:counterclaim=both:fake=0:preempt=1:move=usual"
        ),
    ),
    (
        "classic-13",
        concat!(
            "forum,",
            "town@0.0529=forum:counter=1:counterclaim=both:pass_first=1,",
            "town@?passes>3=forum:counterclaim=checks:day1_pass=false:pass_first=0:pass_tell=true:mix=0:by_day=4,",
            "town@0.0206=forum:counter=1:counterclaim=earlier:on=day3:pass_tell=true:whom=random,",
            "town@?changes>0=forum:whom=uncertain,",
            "town@0.1568=forum:by_day=5:counter=1:counterclaim=earlier:day1_pass=false:pass_tell=true,",
            "town@?passes>0=forum:move=random,",
            "town@0.0249=forum:by_day=5:counter=1:counterclaim=both:pass_first=1,",
            "town@?passes>3=forum:by_day=4,",
            "town@0.0465=forum:by_day=4:day1_pass=false:pass_tell=true,",
            "town@?lynched>0=forum:pass_first=1,",
            "town@0.344=forum:by_day=5:counter=1:counterclaim=both:day1_pass=false:pass_tell=true,",
            "town@?changes>1=forum:counterclaim=both:pass_first=1:by_day=4:counter=1,",
            "town@0.091=forum:by_day=5:counter=1:counterclaim=both:day1_pass=false:pass_tell=true,",
            "town@?passes>0=forum:on=at-once,",
            "town@0.1005=forum:counter=0:counterclaim=later:day1_pass=false:on=at-once:pass_tell=true:whom=random,",
            "town@?claims>1=forum:counterclaim=earlier:day1_pass=false:pass_first=1,",
            "town@0.1291=forum:counter=0:counterclaim=later:day1_pass=false:on=at-once:pass_tell=true:whom=random,",
            "town@?changes>0=forum:pass_first=0.75,",
            "town@0.0337=forum:counter=0.25:counterclaim=later:day1_pass=false:mix=0:on=at-once:pass_tell=true:whom=random,",
            "mafia@0.0327=forum:fake=1:mimic=true:move=none,",
            "mafia@?changes>1=forum:counterclaim=earlier:kill=order:preempt=1,",
            "mafia@0.0571=forum:blend=0.25:mimic=true,",
            "mafia@?changes>1=forum:trust=0:counterclaim=earlier:kill=order:fake=0:preempt=1:blend=1:mimic=false:move=none,",
            "mafia@0.0465=forum:blend=0:mimic=true,",
            "mafia@?passes>0=forum:counterclaim=earlier:kill=order:fake=1:mimic=true:move=none,",
            "mafia@0.0302=forum:mimic=true:preempt=0.25,",
            "mafia@?changes>0=forum:trust=0.25:counterclaim=later:kill=hunt:fake=0:preempt=1:blend=1:move=none,",
            "mafia@0.1335=forum:mimic=true:move=random,",
            "mafia@?changes>1=forum:trust=0.25:counterclaim=both:kill=order:fake=1:blend=1:mimic=true:move=none,",
            "mafia@0.0569=forum:mimic=true:quorum=3,",
            "mafia@?changes>0=forum:trust=0.25:preempt=1,",
            "mafia@0.0378=forum,",
            "mafia@?changes>1=forum:trust=0:counterclaim=earlier:kill=order:fake=0:preempt=1:blend=1:mimic=false:move=none,",
            "mafia@0.0116=forum,",
            "mafia@?changes>1=forum:fake=1:blend=1:move=none,",
            "mafia@0.0078=forum,",
            "mafia@?changes>1=forum:counterclaim=earlier:kill=order:fake=1:preempt=1:blend=1:mimic=false:move=none,",
            "mafia@0.5859=forum:mimic=true:move=random,",
            "mafia@?claims>0=forum:kill=hunt:skip=0.25:fake=0:mimic=true"
        ),
    ),
];

fn builtin_name(s: Strategy) -> &'static str {
    match s {
        Strategy::Random => "random",
        Strategy::Classic => "classic",
        _ => "forum",
    }
}

impl Lineup {
    /// The default lineup of the preset `name` ([`PRESET_LINEUPS`]; `forum`
    /// for a preset not listed there, or a name that is no preset).
    pub fn for_preset(name: &str) -> Lineup {
        let mut l = Lineup::default();
        if let Some((_, spec)) = PRESET_LINEUPS.iter().find(|(p, _)| *p == name) {
            // Every spec of the table is applied by a test (`every_preset_lineup_applies_and_names_a_preset`).
            l.apply(spec).expect("PRESET_LINEUPS holds valid specs");
        }
        l
    }

    /// Every seat plays `s` (a built-in strategy) with default parameters.
    pub fn all(s: Strategy) -> Lineup {
        let default = Choice { strategy: s, name: builtin_name(s).to_string(), params: Vec::new() };
        let mut l = Lineup {
            default,
            camps: Default::default(),
            mixes: Default::default(),
            roles: Default::default(),
            seats: None,
            adaptive: Default::default(),
            plugins: Vec::new(),
            table: [(s, Config::default()); Role::COUNT],
        };
        l.layer();
        l
    }

    /// Registers a plugin strategy under `name`, usable in specs afterwards.
    pub fn register(&mut self, name: &str, factory: AgentFactory) -> Strategy {
        self.plugins.push((name.to_string(), factory));
        Strategy::Plugin((self.plugins.len() - 1) as u8)
    }

    /// Registers a strategy that reads the owned view ([`crate::DataAgent`]):
    /// each seat it plays gets a fresh `make()`.
    pub fn register_data<A, F>(&mut self, name: &str, make: F) -> Strategy
    where
        A: crate::DataAgent + 'static,
        F: Fn() -> A + Send + Sync + 'static,
    {
        self.register(name, Arc::new(move || Box::new(crate::DataPlayer { agent: make() }) as Box<dyn Agent>))
    }

    /// The factory of the `i`-th registered plugin.
    pub fn plugin(&self, i: u8) -> &AgentFactory {
        &self.plugins[i as usize].1
    }

    /// How many plugins are registered.
    pub fn plugins(&self) -> usize {
        self.plugins.len()
    }

    /// All strategy names this lineup accepts: the catalogue's and the plugins'.
    pub fn strategy_names(&self) -> Vec<String> {
        STRATEGIES.iter().map(|s| s.name.to_string()).chain(self.plugins.iter().map(|(n, _)| n.clone())).collect()
    }

    /// The strategy a name stands for.
    pub fn strategy(&self, name: &str) -> Result<Strategy, LineupError> {
        if let Some(info) = StrategyInfo::find(name) {
            return Ok(match info.name {
                "random" => Strategy::Random,
                "classic" => Strategy::Classic,
                _ => Strategy::Forum,
            });
        }
        self.plugins
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| Strategy::Plugin(i as u8))
            .ok_or_else(|| LineupError::UnknownStrategy { name: name.to_string(), known: self.strategy_names() })
    }

    /// Sets one key (`default`, a camp or a role) to a strategy with
    /// parameters (`name`, `[(param, value)]`), checking both.
    pub fn set_with(&mut self, key: &str, name: &str, params: &[(String, String)]) -> Result<(), LineupError> {
        let strategy = self.strategy(name)?;
        let info = StrategyInfo::find(name);
        // Check the parameters against the strategy's.
        let mut probe = Config::default();
        for (k, v) in params {
            let accepted = info.map(|i| i.accepted()).unwrap_or_default();
            if !accepted.iter().any(|p| p.name == k) {
                return Err(LineupError::UnknownParam {
                    strategy: name.to_string(),
                    param: k.clone(),
                    known: accepted.iter().map(|p| p.name.to_string()).collect(),
                });
            }
            probe.set(k, v).map_err(|e| LineupError::BadValue {
                strategy: name.to_string(),
                param: k.clone(),
                value: v.clone(),
                expected: e.expected,
            })?;
        }
        let choice = Choice { strategy, name: name.to_string(), params: params.to_vec() };
        let plays = info.map(|i| i.plays);
        let refuse = |plays: crate::strategy::Plays| LineupError::NotForKey {
            strategy: name.to_string(),
            key: key.to_string(),
            plays: plays.to_string(),
        };
        if key == "default" || key == "all" {
            if let Some(p) = plays.filter(|p| !matches!(p, crate::strategy::Plays::All)) {
                return Err(refuse(p));
            }
            // A new default replaces the mixes given over the old one.
            self.default = choice;
            self.mixes = Default::default();
        } else if let Some(c) = Camp::from_name(key) {
            if let Some(p) = plays.filter(|p| !p.camp(c)) {
                return Err(refuse(p));
            }
            // A camp layer lies over every alternative of the camp's mix.
            self.camps[c as usize] = Some(choice);
        } else if let Some((camp, signal)) = key.split_once('?') {
            // `CAMP@?SIGNAL`: a reply of the camp's last alternative.
            let (camp, of_alternative) = match camp.trim().strip_suffix('@') {
                Some(c) => (c, true),
                None => (camp.trim(), false),
            };
            let Some(c) = Camp::from_name(camp) else {
                return Err(LineupError::UnknownKey { key: key.to_string() });
            };
            let Some(signal) = Signal::parse(signal) else {
                return Err(LineupError::BadSignal { key: key.to_string() });
            };
            if strategy != Strategy::Forum {
                return Err(LineupError::BadSignal { key: format!("{key}={name}") });
            }
            if let Some(p) = plays.filter(|p| !p.camp(c)) {
                return Err(refuse(p));
            }
            // The same signal again replaces its reply (in its place).
            let replies = match of_alternative {
                false => &mut self.adaptive[c as usize],
                true => match self.mixes[c as usize].last_mut() {
                    Some(a) => &mut a.replies,
                    None => {
                        return Err(LineupError::BadSignal {
                            key: format!("{key} (no alternative of the {} camp before it)", c.name()),
                        });
                    }
                },
            };
            match replies.iter_mut().find(|(s, _)| *s == signal) {
                Some(slot) => slot.1 = choice,
                None => replies.push((signal, choice)),
            }
        } else if let Some((camp, share)) = key.split_once('@') {
            let Some(c) = Camp::from_name(camp.trim()) else {
                return Err(LineupError::UnknownKey { key: key.to_string() });
            };
            if let Some(p) = plays.filter(|p| !p.camp(c)) {
                return Err(refuse(p));
            }
            let bad = |why: String| LineupError::BadShare { key: key.to_string(), why };
            if self.mixes[c as usize].len() >= MAX_ALTERNATIVES {
                return Err(bad(format!("a camp's mix takes at most {MAX_ALTERNATIVES} alternatives")));
            }
            let share = share.trim();
            let x = parse_share(share).map_err(bad)?;
            let before: f64 = self.mixes[c as usize].iter().map(|a| a.share.parse::<f64>().unwrap_or(0.0)).sum();
            if before + x > 1.0 + 1e-9 {
                return Err(bad(format!(
                    "the {} camp's alternatives add up to {} (more than 1)",
                    c.name(),
                    ((before + x) * 1e6).round() / 1e6
                )));
            }
            // On a 32-bit word: `before + x` of 2^32 (a share of 1 takes every word).
            let upper = ((before + x).min(1.0) * 4294967296.0).round() as u64;
            let table = Box::new(self.table);
            self.mixes[c as usize].push(Alternative {
                share: share.to_string(),
                upper,
                choice,
                table,
                replies: Vec::new(),
            });
        } else if let Some(r) = Role::from_name(key) {
            if let Some(p) = plays.filter(|p| !p.role(r)) {
                return Err(refuse(p));
            }
            self.roles[r as usize] = Some(choice);
        } else if let Some(seat) = seat_key(key) {
            // A seat may be dealt any role: only strategies that play every role.
            if let Some(p) = plays.filter(|p| !matches!(p, crate::strategy::Plays::All)) {
                return Err(refuse(p));
            }
            self.seats.get_or_insert_with(|| Box::new(std::array::from_fn(|_| None)))[seat] = Some(choice);
        } else {
            return Err(LineupError::UnknownKey { key: key.to_string() });
        }
        self.layer();
        Ok(())
    }

    /// Sets one key to a strategy spec `NAME[:PARAM=VALUE…]`.
    pub fn set(&mut self, key: &str, spec: &str) -> Result<(), LineupError> {
        let (name, params) = parse_spec(spec)?;
        self.set_with(key, &name, &params)
    }

    /// Sets `param = value` on `role`'s own layer and keeps whatever else
    /// the layer sets (a role without a layer gets one of the `forum`
    /// family holding just this parameter). Refused for a role whose seats
    /// play a strategy outside the family, where the parameter would mean
    /// nothing. `mafia moves` measures each role's `move` this way.
    pub fn set_role_param(&mut self, role: Role, param: &str, value: &str) -> Result<(), LineupError> {
        if self.for_role(role) != Strategy::Forum {
            let name = self.strategy_name(self.for_role(role)).to_string();
            return Err(LineupError::External {
                message: format!(
                    "`{}` plays `{name}`, not the forum family: its parameter `{param}` means nothing there",
                    role.name()
                ),
            });
        }
        let mut params = self.roles[role as usize].as_ref().map(|c| c.params.clone()).unwrap_or_default();
        params.retain(|(k, _)| k != param);
        params.push((param.to_string(), value.to_string()));
        self.set_with(role.name(), "forum", &params)
    }

    /// Applies a spec: `STRATEGY[:P=V…]` (every seat) and/or
    /// `KEY=STRATEGY[:P=V…]` parts, comma-separated, left to right.
    pub fn apply(&mut self, spec: &str) -> Result<(), LineupError> {
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if let Some(name) = part.strip_prefix("preset:") {
                self.use_preset(name.trim())?;
                continue;
            }
            match split_part(part) {
                (None, value) => self.set("default", value)?,
                (Some(k), v) if k.is_empty() || v.is_empty() => {
                    return Err(LineupError::Malformed { part: part.to_string() });
                }
                (Some(k), v) => self.set(k, v)?,
            }
        }
        Ok(())
    }

    /// `preset:NAME`: every layer becomes the preset's default lineup
    /// (registered plugins are kept).
    fn use_preset(&mut self, name: &str) -> Result<(), LineupError> {
        if mafia_engine::Preset::find(name).is_none() {
            return Err(LineupError::UnknownPreset { name: name.to_string() });
        }
        let p = Lineup::for_preset(name);
        self.default = p.default;
        self.camps = p.camps;
        self.mixes = p.mixes;
        self.roles = p.roles;
        self.seats = p.seats;
        self.adaptive = p.adaptive;
        self.layer();
        Ok(())
    }

    /// Refuses a lineup that names a role the setup does not deal.
    pub fn check_roles(&self, dealt: RoleSet) -> Result<(), LineupError> {
        for r in Role::ALL {
            if self.roles[r as usize].is_some() && !dealt.contains(r) {
                return Err(LineupError::AbsentRole { key: r.name().to_string() });
            }
        }
        Ok(())
    }

    /// Refuses a lineup that names a seat beyond the setup's `players`.
    pub fn check_seats(&self, players: usize) -> Result<(), LineupError> {
        if let Some(seats) = &self.seats
            && let Some(s) = (players..MAX_PLAYERS).find(|&s| seats[s].is_some())
        {
            return Err(LineupError::AbsentSeat { key: format!("seat{}", s + 1), players });
        }
        Ok(())
    }

    /// Whether any seat has a strategy of its own (`seatN=…`).
    #[inline]
    pub fn has_seat_overrides(&self) -> bool {
        self.seats.is_some()
    }

    /// The strategy of `seat`, dealt `role`, when the camps play `pick`:
    /// the seat's override, else the role's.
    #[inline]
    pub fn strategy_of(&self, pick: &Pick, seat: Seat, role: Role) -> Strategy {
        let of_role = self.variant(pick, role).0;
        match &self.seats {
            None => of_role,
            Some(seats) => seats[seat].as_ref().map_or(of_role, |c| c.strategy),
        }
    }

    /// The strategy and parameters of `seat`, dealt `role`, when the camps
    /// play `pick`: the seat's override (its parameters layered over the
    /// role's), else the role's.
    pub fn for_seat(&self, pick: &Pick, seat: Seat, role: Role) -> (Strategy, Config) {
        let (strategy, mut config) = *self.variant(pick, role);
        match self.seats.as_ref().and_then(|s| s[seat].as_ref()) {
            None => (strategy, config),
            Some(choice) => {
                for (k, v) in &choice.params {
                    config.set(k, v).expect("checked by set_with");
                }
                (choice.strategy, config)
            }
        }
    }

    /// Whether any seat, role, camp or the default is played by `s`.
    pub fn uses(&self, s: Strategy) -> bool {
        Role::ALL.iter().any(|&r| self.for_role(r) == s)
            || self.mixes.iter().flatten().any(|a| a.table.iter().any(|&(t, _)| t == s))
            || self.seats.as_ref().is_some_and(|seats| seats.iter().flatten().any(|c| c.strategy == s))
    }

    /// Recomputes each role's strategy and parameters: default, then (for
    /// a camp's alternative) the alternative, then camp, then role.
    fn layer(&mut self) {
        // The catalogue's defaults, parsed once (each parameter is set from its text).
        let defaults = Config::default();
        let layered = |alt: Option<&Choice>, table: &mut RoleTable| {
            for r in Role::ALL {
                let camp = self.camps[r.camp() as usize].as_ref();
                let layers = [Some(&self.default), alt, camp, self.roles[r as usize].as_ref()];
                let mut strategy = self.default.strategy;
                let mut config = defaults;
                for choice in layers.into_iter().flatten() {
                    strategy = choice.strategy;
                    for (k, v) in &choice.params {
                        config.set(k, v).expect("checked by set_with");
                    }
                }
                table[r as usize] = (strategy, config);
            }
        };
        let mut table = self.table;
        layered(None, &mut table);
        let mut mixes = std::mem::take(&mut self.mixes);
        for alt in mixes.iter_mut().flatten() {
            layered(Some(&alt.choice), &mut alt.table);
        }
        self.mixes = mixes;
        self.table = table;
    }

    /// The camp's adaptive replies, in order: each signal with the
    /// parameters its `forum` seats take from night 1 in games that show it.
    pub fn adaptive_of(&self, camp: Camp) -> Vec<(Signal, &[(String, String)])> {
        self.adaptive[camp as usize].iter().map(|(s, c)| (*s, c.params.as_slice())).collect()
    }

    /// Whether any camp, or any alternative of a camp's mix, has an adaptive reply.
    #[inline]
    pub fn is_adaptive(&self) -> bool {
        self.adaptive.iter().any(|r| !r.is_empty()) || self.mixes.iter().flatten().any(|a| !a.replies.is_empty())
    }

    /// Whether a reply of the camp, or of its alternative `p` (see
    /// [`Lineup::alternative_replies`]), has its signal shown (`shows`).
    /// Allocates nothing (a table asks it at every game's night 1).
    #[inline]
    pub fn any_reply_shows(&self, camp: Camp, p: usize, shows: impl Fn(Signal) -> bool) -> bool {
        let alt = p.checked_sub(1).and_then(|i| self.mixes[camp as usize].get(i)).map(|a| a.replies.iter());
        self.adaptive[camp as usize].iter().chain(alt.into_iter().flatten()).any(|(s, _)| shows(*s))
    }

    /// The adaptive replies of the camp's alternative `p` (1-based, as a
    /// [`Pick`] numbers it; none for 0, the usual layers).
    pub fn alternative_replies(&self, camp: Camp, p: usize) -> Vec<(Signal, &[(String, String)])> {
        match p.checked_sub(1).and_then(|i| self.mixes[camp as usize].get(i)) {
            Some(a) => a.replies.iter().map(|(s, c)| (*s, c.params.as_slice())).collect(),
            None => Vec::new(),
        }
    }

    /// The distinct signals of the replies that may apply to the camp when
    /// it plays its alternative `p` (its own and the alternative's), in a
    /// fixed order: a table numbers the replies' outcomes by them.
    pub fn reply_signals(&self, camp: Camp, p: usize) -> Vec<Signal> {
        let mut v: Vec<Signal> = Vec::new();
        let alt = p.checked_sub(1).and_then(|i| self.mixes[camp as usize].get(i)).map(|a| a.replies.iter());
        for (signal, _) in alt.into_iter().flatten().chain(self.adaptive[camp as usize].iter()) {
            if !v.contains(signal) {
                v.push(*signal);
            }
        }
        v
    }

    /// `config` with the parameters of the camp's adaptive replies applied,
    /// in order, for those whose signal `shows` (all of them: what the
    /// replies can make of `config` at most): those of its alternative `p`
    /// of the mix (0: none), then the camp's own over them.
    pub fn adapted(&self, camp: Camp, p: usize, config: &Config, shows: impl Fn(Signal) -> bool) -> Config {
        let mut c = *config;
        let own = self.adaptive[camp as usize].iter();
        let alt = p.checked_sub(1).and_then(|i| self.mixes[camp as usize].get(i)).map(|a| a.replies.iter());
        // The camp's own replies lie over its alternative's, as a camp
        // layer lies over the alternatives (what a search's reply needs).
        for (signal, choice) in alt.into_iter().flatten().chain(own) {
            if shows(*signal) {
                for (k, v) in &choice.params {
                    c.set(k, v).expect("checked by set_with");
                }
            }
        }
        c
    }

    /// Drops the camp's mix: it plays its usual layers in every game.
    pub fn clear_mix(&mut self, camp: Camp) {
        self.mixes[camp as usize].clear();
        self.layer();
    }

    /// Whether any camp plays a mixed strategy (`CAMP@SHARE=…`).
    #[inline]
    pub fn is_mixed(&self) -> bool {
        self.mixes.iter().any(|m| !m.is_empty())
    }

    /// The camp's alternatives as `(share, strategy, parameters)`, in order.
    pub fn mix_of(&self, camp: Camp) -> Vec<MixPart> {
        self.mixes[camp as usize]
            .iter()
            .map(|a| (a.share.clone(), a.choice.name.clone(), a.choice.params.clone()))
            .collect()
    }

    /// Which alternative each camp plays, from the game's mix words (word
    /// `c` for camp `c`, uniform on u32): the first alternative whose share
    /// the word falls in, else the usual layers (0).
    #[inline]
    pub fn pick(&self, words: [u32; Camp::COUNT]) -> Pick {
        let mut pick = [0u8; Camp::COUNT];
        for c in 0..Camp::COUNT {
            if let Some(i) = self.mixes[c].iter().position(|a| (words[c] as u64) < a.upper) {
                pick[c] = i as u8 + 1;
            }
        }
        pick
    }

    /// The strategy and parameters of `role` when the camps play `pick`.
    #[inline]
    pub fn variant(&self, pick: &Pick, role: Role) -> &(Strategy, Config) {
        match pick[role.camp() as usize] {
            0 => &self.table[role as usize],
            i => &self.mixes[role.camp() as usize][i as usize - 1].table[role as usize],
        }
    }

    /// The most alternatives any camp has (pick values run `0..=this`).
    pub fn most_alternatives(&self) -> usize {
        self.mixes.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// The pick under which `role` plays its camp's alternative `p` (its
    /// usual layers beyond the camp's last alternative): every pick value
    /// for every role, as the table numbers them.
    pub fn pick_for(&self, role: Role, p: usize) -> Pick {
        let mut pick = [0u8; Camp::COUNT];
        pick[role.camp() as usize] = p.min(self.mixes[role.camp() as usize].len()) as u8;
        pick
    }

    /// The name a strategy goes by (a plugin's as registered).
    pub fn strategy_name(&self, s: Strategy) -> &str {
        match s {
            Strategy::Plugin(i) => &self.plugins[i as usize].0,
            other => builtin_name(other),
        }
    }

    /// The strategy that plays `role`: role override, else camp, else default.
    #[inline]
    pub fn for_role(&self, role: Role) -> Strategy {
        self.table[role as usize].0
    }

    /// The parameters of the `forum` strategies for `role`, layered.
    #[inline]
    pub fn config(&self, role: Role) -> &Config {
        &self.table[role as usize].1
    }

    /// A short label: the default, then overrides (`forum,mafia=random`);
    /// a lineup that starts from a preset's mixed default lineup
    /// ([`PRESET_LINEUPS`]) names it (`preset:classic,commissar=…`).
    /// Applying the label gives the same lineup.
    pub fn label(&self) -> String {
        for (name, _) in PRESET_LINEUPS {
            let p = Lineup::for_preset(name);
            let same_mixes = (0..Camp::COUNT).all(|c| {
                self.mixes[c].len() == p.mixes[c].len()
                    && self.mixes[c]
                        .iter()
                        .zip(&p.mixes[c])
                        .all(|(a, b)| a.share == b.share && a.choice == b.choice && a.replies == b.replies)
            });
            let plain = p.camps.iter().all(Option::is_none)
                && p.roles.iter().all(Option::is_none)
                && p.adaptive.iter().all(Vec::is_empty);
            if self.default == p.default && same_mixes && plain {
                return self.parts(Some(name)).join(",");
            }
        }
        self.full_label()
    }

    /// The label with every part written out (no `preset:`).
    pub fn full_label(&self) -> String {
        self.parts(None).join(",")
    }

    /// The label's parts; with `preset`, that preset's lineup stands for
    /// the default and the mixes.
    fn parts(&self, preset: Option<&str>) -> Vec<String> {
        let mut parts = vec![match preset {
            Some(name) => format!("preset:{name}"),
            None => self.default.label(),
        }];
        for c in Camp::ALL.into_iter().filter(|_| preset.is_none()) {
            for a in &self.mixes[c as usize] {
                parts.push(format!("{}@{}={}", c.name(), a.share, a.choice.label()));
                for (signal, r) in &a.replies {
                    parts.push(format!("{}@?{signal}={}", c.name(), r.label()));
                }
            }
        }
        for c in Camp::ALL {
            if let Some(s) = &self.camps[c as usize] {
                parts.push(format!("{}={}", c.name(), s.label()));
            }
        }
        for r in Role::ALL {
            if let Some(s) = &self.roles[r as usize] {
                parts.push(format!("{}={}", r.name(), s.label()));
            }
        }
        for c in Camp::ALL {
            for (signal, s) in &self.adaptive[c as usize] {
                parts.push(format!("{}?{signal}={}", c.name(), s.label()));
            }
        }
        for (i, s) in self.seats.iter().flat_map(|seats| seats.iter().enumerate()) {
            if let Some(s) = s {
                parts.push(format!("seat{}={}", i + 1, s.label()));
            }
        }
        parts
    }
}

/// One part of a spec as `(key, strategy)`: a key comes before the first
/// `=`, unless a `:` (parameters) comes first; no key means `default`.
pub fn split_part(part: &str) -> (Option<&str>, &str) {
    let keyed = match (part.find('='), part.find(':')) {
        (Some(e), Some(c)) => e < c,
        (Some(_), None) => true,
        _ => false,
    };
    match part.split_once('=') {
        Some((k, v)) if keyed => (Some(k.trim()), v.trim()),
        _ => (None, part.trim()),
    }
}

/// A camp alternative's share (`0.3` of `mafia@0.3`): a number in (0, 1],
/// else why not.
pub fn parse_share(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        Ok(_) => Err(format!("the share {text} is not in (0, 1]")),
        Err(_) => Err(format!("`{text}` is no share (a number in (0, 1])")),
    }
}

/// A seat key, `seat1` … `seatN`: the seat (from 0).
fn seat_key(key: &str) -> Option<Seat> {
    let n: usize = key.strip_prefix("seat")?.parse().ok()?;
    (1..=MAX_PLAYERS).contains(&n).then(|| Seat::from_index(n - 1))
}

/// The command of an external agent's spec, `ext:COMMAND`.
pub fn ext_command(spec: &str) -> Option<&str> {
    spec.strip_prefix("ext:").map(str::trim).filter(|c| !c.is_empty())
}

/// Splits `NAME[:PARAM=VALUE…]`; `ext:COMMAND` is a name of its own (no parameters).
pub fn parse_spec(spec: &str) -> Result<(String, Vec<(String, String)>), LineupError> {
    if ext_command(spec.trim()).is_some() {
        return Ok((spec.trim().to_string(), Vec::new()));
    }
    let mut parts = spec.split(':').map(str::trim);
    let name = parts.next().filter(|n| !n.is_empty()).ok_or_else(|| LineupError::Malformed { part: spec.into() })?;
    let mut params = Vec::new();
    for p in parts {
        match p.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() && !v.trim().is_empty() => {
                params.push((k.trim().to_string(), v.trim().to_string()))
            }
            _ => return Err(LineupError::Malformed { part: spec.into() }),
        }
    }
    Ok((name.to_string(), params))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_lineup_applies_and_names_a_preset() {
        for (preset, spec) in PRESET_LINEUPS {
            assert!(mafia_engine::Preset::find(preset).is_some(), "{preset}");
            let mut l = Lineup::default();
            assert_eq!(l.apply(spec), Ok(()), "{preset}: {spec}");
            assert_eq!(Lineup::for_preset(preset).full_label(), *spec);
            assert_eq!(Lineup::for_preset(preset).label(), format!("preset:{preset}"));
            let mut again = Lineup::default();
            again.apply(&format!("preset:{preset},commissar=reveal:on=at-once")).unwrap();
            assert_eq!(again.label(), format!("preset:{preset},commissar=reveal:on=at-once"));
        }
        let e = Lineup::default().apply("preset:nope").unwrap_err();
        assert!(e.to_string().contains("`preset:nope`: no such preset (classic,"), "{e}");
        assert_eq!(Lineup::for_preset("no such preset").label(), "forum");
        // Every preset has a mix solved for it (docs/src/research/play.md).
        for p in mafia_engine::PRESETS {
            assert!(PRESET_LINEUPS.iter().any(|(name, _)| *name == p.name), "{} has no lineup", p.name);
        }
    }

    #[test]
    fn a_seat_overrides_its_role() {
        let mut l = Lineup::all(Strategy::Classic);
        l.apply("mafia=random,seat3=forum:trust=0.5,seat10=classic").unwrap();
        assert_eq!(l.for_seat(&[0; 3], Seat::new(2), Role::Mafioso).0, Strategy::Forum);
        assert_eq!(l.for_seat(&[0; 3], Seat::new(2), Role::Mafioso).1.trust, crate::strategy::threshold(0.5));
        assert_eq!(l.for_seat(&[0; 3], Seat::new(1), Role::Mafioso).0, Strategy::Random);
        assert_eq!(l.for_seat(&[0; 3], Seat::new(9), Role::Don).0, Strategy::Classic);
        assert_eq!(l.label(), "classic,mafia=random,seat3=forum:trust=0.5,seat10=classic");
        assert!(l.uses(Strategy::Forum));
        assert_eq!(l.check_seats(10), Ok(()));
        let e = l.check_seats(9).unwrap_err();
        assert_eq!(e.to_string(), "agents are set for `seat10`, but the setup has 9 seats");
        assert!(matches!(l.apply("seat0=random"), Err(LineupError::UnknownKey { .. })));
        assert!(matches!(l.apply("seat65=random"), Err(LineupError::UnknownKey { .. })));
        // A seat may be dealt any role: only strategies that play them all.
        assert!(matches!(l.apply("seat2=reveal"), Err(LineupError::NotForKey { .. })));
    }

    #[test]
    fn an_external_agent_is_one_name() {
        assert_eq!(parse_spec("ext:./my agent.py --fast").unwrap(), ("ext:./my agent.py --fast".into(), vec![]));
        assert_eq!(ext_command("ext: ./a.py "), Some("./a.py"));
        assert_eq!(ext_command("ext:"), None);
        assert_eq!(ext_command("forum"), None);
    }

    #[test]
    fn role_overrides_camp_overrides_default() {
        let mut l = Lineup::all(Strategy::Classic);
        l.apply("mafia=random,don=classic").unwrap();
        assert_eq!(l.for_role(Role::Mafioso), Strategy::Random);
        assert_eq!(l.for_role(Role::Don), Strategy::Classic);
        assert_eq!(l.for_role(Role::Citizen), Strategy::Classic);
        assert_eq!(l.label(), "classic,mafia=random,don=classic");
    }

    #[test]
    fn bad_specs_name_the_problem() {
        let mut l = Lineup::default();
        let e = l.apply("clever").unwrap_err();
        assert!(e.to_string().contains("unknown strategy `clever`"), "{e}");
        let e = l.apply("commissar=reveal:when=never").unwrap_err();
        assert!(e.to_string().contains("no parameter `when`") && e.to_string().contains("on, mix, by_day"), "{e}");
        let e = l.apply("commissar=reveal:on=never").unwrap_err();
        assert!(e.to_string().contains("at-once|first-mafia"), "{e}");
        let e = l.apply("doctor=reveal").unwrap_err();
        assert!(e.to_string().contains("plays commissar, detective, deputy, not `doctor`"), "{e}");
        let e = l.apply("town=mafia").unwrap_err();
        assert!(matches!(e, LineupError::NotForKey { .. }), "{e}");
        let e = l.apply("forum:bus=2").unwrap_err();
        assert!(e.to_string().contains("0..1"), "{e}");
        let e = l.apply("sheriff=random").unwrap_err();
        assert!(e.to_string().contains("`sheriff`"), "{e}");
        assert!(matches!(l.apply("mafia="), Err(LineupError::Malformed { .. })));
        assert!(matches!(l.apply("forum:trust"), Err(LineupError::Malformed { .. })));
        l.apply("don=forum").unwrap();
        let e = l.check_roles(RoleSet::single(Role::Citizen)).unwrap_err();
        assert!(e.to_string().contains("deals no don"), "{e}");
    }

    #[test]
    fn a_camp_mix_layers_each_alternative_and_round_trips_its_label() {
        let mut l = Lineup::default();
        l.apply(
            "forum:trust=0.5,mafia@0.25=forum:fake=1,mafia@0.5=random,town@1=forum:pass_first=1,don=check:whom=random",
        )
        .unwrap();
        assert!(l.is_mixed());
        assert_eq!(
            l.label(),
            "forum:trust=0.5,town@1=forum:pass_first=1,mafia@0.25=forum:fake=1,mafia@0.5=random,don=check:whom=random"
        );
        let mut again = Lineup::default();
        again.apply(&l.label()).unwrap();
        assert_eq!(again.label(), l.label());
        // Word below 1/4 of the range: the first alternative; below 3/4: the second; above: the usual layers.
        let quarter = 1u32 << 30;
        assert_eq!(l.pick([0, quarter - 1, 0]), [1, 1, 0]);
        assert_eq!(l.pick([u32::MAX, quarter, u32::MAX]), [1, 2, 0]);
        assert_eq!(l.pick([0, 3 * quarter, 0]), [1, 0, 0]);
        use crate::strategy::{COIN_STEPS, CheckPlan, threshold};
        let fake = l.variant(&[0, 1, 0], Role::Mafioso);
        assert_eq!((fake.0, fake.1.fake, fake.1.trust), (Strategy::Forum, u32::MAX, threshold(0.5)));
        // The role layer lies over every alternative of its camp.
        assert_eq!(l.variant(&[0, 1, 0], Role::Don).1.check, CheckPlan::Random);
        assert_eq!(l.variant(&[0, 2, 0], Role::Mafioso).0, Strategy::Random);
        assert_eq!(l.variant(&[0, 2, 0], Role::Don).0, Strategy::Forum);
        assert_eq!(l.variant(&[0, 0, 0], Role::Mafioso).1.fake, 0);
        assert_eq!(l.variant(&[1, 0, 0], Role::Citizen).1.pass_first, COIN_STEPS);
        assert_eq!(l.strategy_of(&[0, 2, 0], Seat::new(4), Role::Mafioso), Strategy::Random);
        // A camp layer lies over every alternative; a new default replaces every mix.
        l.apply("mafia=forum:bus=0.5:fake=0").unwrap();
        assert_eq!(l.mix_of(Camp::Mafia).len(), 2);
        let (strategy, c) = l.variant(&[0, 1, 0], Role::Mafioso);
        assert_eq!((*strategy, c.bus, c.fake), (Strategy::Forum, threshold(0.5), 0));
        assert_eq!(l.variant(&[0, 2, 0], Role::Mafioso).0, Strategy::Forum, "the camp layer's strategy is on top");
        assert!(
            l.label().ends_with("mafia@0.5=random,mafia=forum:bus=0.5:fake=0,don=check:whom=random"),
            "{}",
            l.label()
        );
        l.clear_mix(Camp::Mafia);
        assert!(l.mix_of(Camp::Mafia).is_empty() && l.mix_of(Camp::Town).len() == 1);
        l.apply("forum").unwrap();
        assert!(!l.is_mixed());
    }

    #[test]
    fn a_bad_share_names_the_problem() {
        let mut l = Lineup::default();
        let e = l.apply("mafia@0.7=forum,mafia@0.4=random").unwrap_err();
        assert!(matches!(e, LineupError::BadShare { .. }), "{e}");
        assert!(e.to_string().contains("`mafia@0.4`") && e.to_string().contains("add up to 1.1"), "{e}");
        let many: Vec<String> = (0..=MAX_ALTERNATIVES).map(|_| "town@0.01=forum".to_string()).collect();
        let e = Lineup::default().apply(&many.join(",")).unwrap_err();
        assert!(e.to_string().contains("at most 16 alternatives"), "{e}");
        for bad in ["mafia@0=forum", "mafia@1.5=forum", "mafia@half=forum", "mafia@-0.1=forum"] {
            let e = Lineup::default().apply(bad).unwrap_err();
            assert!(matches!(e, LineupError::BadShare { .. }), "{bad}: {e}");
        }
        let e = Lineup::default().apply("sheriff@0.5=forum").unwrap_err();
        assert!(matches!(e, LineupError::UnknownKey { .. }) && e.to_string().contains("CAMP@SHARE"), "{e}");
        let e = Lineup::default().apply("town@0.5=mafia").unwrap_err();
        assert!(matches!(e, LineupError::NotForKey { .. }), "{e}");
    }

    #[test]
    fn parameters_layer_default_camp_role() {
        let mut l = Lineup::default();
        l.apply("forum:trust=0.5,mafia=mafia:bus=0.25,don=check:whom=random,commissar=reveal:on=at-once").unwrap();
        use crate::strategy::{CheckPlan, RevealOn, threshold};
        assert_eq!(l.config(Role::Citizen).trust, threshold(0.5));
        assert_eq!(l.config(Role::Don).bus, threshold(0.25));
        assert_eq!(l.config(Role::Don).check, CheckPlan::Random);
        assert_eq!(l.config(Role::Mafioso).check, CheckPlan::Uncertain);
        assert_eq!(l.config(Role::Commissar).reveal_on, RevealOn::AtOnce);
        assert_eq!(l.config(Role::Commissar).trust, threshold(0.5));
        assert_eq!(l.for_role(Role::Don), Strategy::Forum);
        assert_eq!(l.label(), "forum:trust=0.5,mafia=mafia:bus=0.25,commissar=reveal:on=at-once,don=check:whom=random");
        let mut again = Lineup::default();
        again.apply(&l.label()).unwrap();
        assert_eq!(again.label(), l.label());
    }
}
