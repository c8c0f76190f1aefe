//! The strategy library's catalogue: every strategy a lineup may name, the
//! roles it plays, and its parameters with their values, defaults and
//! sources (the project's shared `strategy-notes.md`, beside this repository). `mafia strategies` prints it.
//!
//! The `forum` family is one agent ([`crate::ForumAgent`]) whose behaviour
//! is a [`Config`]: each named strategy of the family (`town`, `reveal`,
//! `mafia`, …) is the unit that sets some of its parameters, for the roles
//! it plays. A lineup layers them: the default's parameters, then the
//! camp's, then the role's (`forum:trust=0.5,commissar=reveal:on=at-once`).
//!
//! Each parameter is declared once, as a row of `forum_parameters!` below;
//! the catalogue's lists, [`Config`], its default and [`Config::set`] are
//! made from the rows, so they cannot disagree.

use mafia_engine::{Camp, Role};
use std::fmt;

/// The values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A probability or weight in 0..=1.
    Fraction,
    /// A whole number in 0..=max.
    Count(u8),
    /// `true` or `false`.
    Flag,
}

impl Values {
    /// The values a parameter search tries (`best-response`): every word,
    /// fractions in quarters, every count, both flags.
    pub fn candidates(self) -> Vec<String> {
        match self {
            Values::Choice(words) => words.iter().map(|w| w.to_string()).collect(),
            Values::Fraction => ["0", "0.25", "0.5", "0.75", "1"].map(String::from).to_vec(),
            Values::Count(max) => (0..=max).map(|k| k.to_string()).collect(),
            Values::Flag => vec!["false".into(), "true".into()],
        }
    }
}

impl fmt::Display for Values {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Values::Choice(words) => f.write_str(&words.join("|")),
            Values::Fraction => f.write_str("0..1"),
            Values::Count(max) => write!(f, "0..{max}"),
            Values::Flag => f.write_str("true|false"),
        }
    }
}

/// One parameter of a strategy.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Its name in lineups (`trust`).
    pub name: &'static str,
    /// The values it takes.
    pub values: Values,
    /// Its default, as written in a lineup.
    pub default: &'static str,
    /// What it does, with its source in the strategy notes.
    pub about: &'static str,
    /// It decides how a seat reads the thread (`forum/read.rs`'s reading
    /// class), so every camp's model of the town depends on it.
    pub reads_thread: bool,
}

/// Which roles a strategy plays.
#[derive(Clone, Copy, Debug)]
pub enum Plays {
    /// Every role.
    All,
    /// Every role of a camp.
    Camp(Camp),
    /// These roles.
    Roles(&'static [Role]),
}

impl Plays {
    /// Whether it plays role `r`.
    pub fn role(self, r: Role) -> bool {
        match self {
            Plays::All => true,
            Plays::Camp(c) => r.camp() == c,
            Plays::Roles(rs) => rs.contains(&r),
        }
    }
    /// Whether it plays every role of camp `c`.
    pub fn camp(self, c: Camp) -> bool {
        Role::ALL.iter().filter(|r| r.camp() == c).all(|&r| self.role(r))
    }
}

impl fmt::Display for Plays {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Plays::All => f.write_str("every role"),
            Plays::Camp(c) => write!(f, "the {} camp", c.name()),
            Plays::Roles(rs) => f.write_str(&rs.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")),
        }
    }
}

/// A strategy of the catalogue.
#[derive(Clone, Copy, Debug)]
pub struct StrategyInfo {
    /// Its name in lineups (`town`, `reveal`, `random`).
    pub name: &'static str,
    /// The roles it plays.
    pub plays: Plays,
    /// What it does, in one line.
    pub about: &'static str,
    /// Its parameters.
    pub params: &'static [Param],
}

/// Declares every parameter of the `forum` family once, unit by unit: its
/// [`Config`] field and type, its name in lineups, its range (a count's
/// `max`), default, whether it shapes the reading of the thread, and what
/// it does with its source. Made from the rows: each unit's [`Param`] list
/// (the catalogue `mafia strategies` prints), the [`Config`] struct, its
/// default and the setter behind [`Config::set`]. The field's type says how
/// the text reads ([`ParamValue`]) and so which values it lists.
macro_rules! forum_parameters {
    ($(
        $unit:ident: [$(
            $field:ident: $ty:ty {
                name: $name:literal,
                $(max: $max:literal,)?
                default: $default:literal,
                $(reads_thread: $reads:literal,)?
                about: $about:literal $(,)?
            }
        ),* $(,)?]
    ),* $(,)?) => {
        $(
            const $unit: &[Param] = &[$(
                Param {
                    name: $name,
                    values: forum_parameters!(@values $ty $(, $max)?),
                    default: $default,
                    about: $about,
                    reads_thread: forum_parameters!(@reads $($reads)?),
                },
            )*];
        )*

        /// Every parameter of the `forum` family, typed. Fractions are kept as
        /// thresholds on a 32-bit draw (`p · 2³²`, a `u32`) or, for the town's
        /// public coin, in steps of 1/[`COIN_STEPS`] (a `u16`), so playing
        /// needs no floats. Each field's doc is its catalogue entry.
        // The entries' source tags (`[derived]`) are text, not links.
        #[allow(rustdoc::broken_intra_doc_links)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Config {
            $($(#[doc = $about] pub $field: $ty,)*)*
        }

        impl Default for Config {
            /// The catalogue's defaults, each read from its text.
            fn default() -> Self {
                Config {$($(
                    $field: <$ty as ParamValue>::read($default)
                        .expect(concat!("the default of `", $name, "` is one of its values")),
                )*)*}
            }
        }

        impl Config {
            /// Sets the parameter called `name` from its text; false if the
            /// text is not one of its values (or the name is unknown).
            fn set_text(&mut self, name: &str, text: &str) -> bool {
                match name {
                    $($($name => match <$ty as ParamValue>::read(text) $(.filter(|&k| k <= $max))? {
                        Some(v) => {
                            self.$field = v;
                            true
                        }
                        None => false,
                    },)*)*
                    _ => false,
                }
            }
        }
    };
    (@values $ty:ty) => { <$ty as ParamValue>::VALUES };
    (@values $ty:ty, $max:literal) => { Values::Count($max) };
    (@reads) => { false };
    (@reads $reads:literal) => { $reads };
}

forum_parameters! {
    TOWN: [
        trust: u32 {
            name: "trust",
            default: "0.8",
            reads_thread: true,
            about: "how far an uncontested claim and its published checks are believed: from 0.5 they are taken as proof (exposed are lynched, cleared are spared), below as leads that only move suspicion, 0 ignores them [notes §2 trust_uncontested]",
        },
        counterclaim: Counterclaim {
            name: "counterclaim",
            default: "later",
            reads_thread: true,
            about: "two claim the same information role: lynch the later claimant, the earlier one, both in order, believe the one whose checks agree with what is known, or let a public coin choose whom to believe (`coin`); a third claim is a fake whatever was decided (a claim of a dead Detective's role where a Deputy is dealt is his successor's, E14, not a counter-claim). A mafioso who claims first (`mafia`'s `preempt`) turns `later` against the real one, one who counter-claims (`fake`) turns `earlier` [notes §2 counterclaim_policy]",
        },
        coin: u16 {
            name: "coin",
            default: "0.5",
            reads_thread: true,
            about: "with `counterclaim = coin`: the chance that the town's public coin (one roll a game, made when the first counter-claim appears, from a stream nobody can steer) sides with the earlier claimant; else the town believes the later one (in steps of 1/4096) [derived: notes §5 mix where the opponent keys on you]",
        },
        coin_both: u16 {
            name: "coin_both",
            default: "0",
            reads_thread: true,
            about: "with `counterclaim = coin`: the chance that the same roll says to believe neither claimant and lynch both; `coin` then decides between them in the other games (in steps of 1/4096) [derived: notes §5 mix where the opponent keys on you]",
        },
        day1_pass: bool {
            name: "day1_pass",
            default: "true",
            about: "vote PASS on day 1 when nothing is known (C11.2's pardon) [notes §2 day1_pass]",
        },
        pass_on_even: bool {
            name: "pass_on_even",
            default: "false",
            about: "vote PASS without information when an even number are alive (C18 parity) [notes §1 pass_on_even_alive]",
        },
        pass_first: u16 {
            name: "pass_first",
            default: "0",
            about: "chance per game (the town's public coin: every town seat alike) that the town votes PASS first every day unless somebody is exposed, reads each first vote for a name as the mafia's bloc and changes, all alike, onto the player who voted a name first on most days (in steps of 1/4096) [derived: the Python rule_based town]",
        },
        pass_tell: bool {
            name: "pass_tell",
            default: "false",
            about: "in a game the town votes names first (not `pass_first`), read a first vote of PASS on a day the town names (not day 1 under `day1_pass`, not an even count under `pass_on_even`) as the mafia's (a blending mafia, `blend`, passes first while the town names) and change, all alike, onto the player who passed first on most such days, unless an exposed player leads [derived: a learned `classic` seat, docs/src/research/play.md]",
        },
    ],
    REVEAL: [
        reveal_on: RevealOn {
            name: "on",
            default: "first-mafia",
            about: "when the information role claims and publishes every check: the first day, the day after his first mafia find, from day 2 or 3, or only in his last word (C13) [notes §2 reveal_on]",
        },
        reveal_mix: u32 {
            name: "mix",
            default: "0",
            about: "chance per game to reveal at once whatever `on` says: a mixed timing the mafia cannot key on (with some settings of the other parameters the best replies cycle: reveals at once are met by no fake claims, later reveals by fakes) [notes §5 mix where the opponent keys on you]",
        },
        reveal_by_day: u8 {
            name: "by_day",
            max: 6,
            default: "3",
            about: "reveal on this day at the latest whatever was found (0: no deadline) [notes §2 reveal_by_day]",
        },
        reveal_counter: u32 {
            name: "counter",
            default: "0",
            about: "chance per game to claim the same day another living player claims my role, whatever `on` says: he is a fake for sure, and the town can only weigh two claims it has heard [derived: notes §2 counterclaim_policy]",
        },
    ],
    CHECK: [
        check: CheckPlan {
            name: "whom",
            default: "uncertain",
            about: "whom to check: an unchecked player whose camp is open (neither cleared nor exposed, and not the town's top suspect, whom the day's vote settles), at random among them (the vote record's most suspicious of them checked no better); for the mafia: claimants first, then who voted most against the camp; or any unchecked player [notes §2 check_score, don_check; derived: `mafia moves`]",
        },
    ],
    MAFIA: [
        kill: KillPlan {
            name: "kill",
            default: "hunt",
            about: "the nick: hunt (a revealed or Don-found information role, then a cleared town leader, then the agreed order) or the agreed order alone; both keep every nick a function of public facts (C2, C4) [notes §2 kill_priority]",
        },
        skip: u32 {
            name: "skip",
            default: "0",
            about: "chance the camp agrees to skip tonight's shot (drawn from the shared stream: all skip together; what makes C8's no-kill rule bite) [notes §2 allow_skip]",
        },
        fake: u32 {
            name: "fake",
            default: "0",
            about: "chance a member counter-claims the role of a revealed information role, publishing him as mafia [notes §2 fake_claim_prob]",
        },
        preempt: u32 {
            name: "preempt",
            default: "0",
            about: "chance per game a member claims an information role first: before anybody claims it, or as the successor of a dead Detective where a Deputy is dealt (E14); he then publishes one made-up find per night gone (a townsman as mafia while none he named lives, else a partner as town) and any later claimant as mafia [derived: notes §2 fake_claim_prob, E14]",
        },
        bus: u32 {
            name: "bus",
            default: "1",
            about: "chance to vote with the town for a partner who is lynched anyway (to look town) [notes §2 bus_threshold]",
        },
        blend: u32 {
            name: "blend",
            default: "0",
            about: "chance per game (one roll of the camp's shared stream) that the camp votes PASS first every day while nobody outside it is exposed, as a `pass_first` town does: no first vote for a name to mark them [derived]",
        },
        mimic: bool {
            name: "mimic",
            default: "false",
            about: "each member's first vote follows what most of today's first votes outside the camp so far were (PASS or a name), so neither a `pass_first` town nor a `pass_tell` town reads the camp's first votes; `blend`'s roll decides only for a member who votes before anybody outside the camp [derived: a learned `classic` seat, docs/src/research/play.md]",
        },
        mimic_quorum: u8 {
            name: "quorum",
            max: 4,
            default: "1",
            about: "with `mimic`: on day 1 the first votes outside the camp are followed once at least this many have been cast, so a player who votes first cannot steer the camp's first votes; before that `blend`'s roll decides. Later days need one (a member before the quorum would go by the day before, which cost the camp 3-11 points against the `classic` town) [derived: a learned `classic` seat, docs/src/research/play.md]",
        },
    ],
    PROTECT: [
        heal: HealPlan {
            name: "heal",
            default: "revealed",
            about: "the Doctor: a revealed information role first (else himself, else the most trusted), himself first, or anybody (E15) [notes §3 heal_order]",
        },
    ],
    SHOOTER: [
        shoot: ShootPlan {
            name: "shoot",
            default: "open",
            about: "the Shooter fires at a player exposed as mafia or bandit (by his own knowledge or a trusted claim); when nobody is exposed: with `open`, from night 1, at a random living player neither cleared nor a believed claimant (enemies are 40-53% of the others in `forum-16` and `extended`: a random shot beat the town's top suspect by 1-2 points, who is lynched anyway); with `suspect` at the town's top suspect from night 2, with `second` at the most suspicious after him; with `exposed` only at the exposed, or never (E20) [notes §3 shoot_if; derived: `mafia moves`]",
        },
    ],
    BANDITS: [
        search_nights: u8 {
            name: "search_nights",
            max: 12,
            default: "12",
            about: "nights a bandit searches for partners (E3: besides his role move, so it costs nothing; 12 covers nearly every game, and the bandits' best response in `extended`) [notes §3 search_nights]",
        },
        scout: ScoutPlan {
            name: "scout",
            default: "quiet",
            about: "what the Scout's reports move in his vote (E27: he learns whom the Detective checked, so the claimant who published that player is the real one): nothing (`quiet`), a vote for the fake claimants they unmask (`fakes`: the mafia's, whose lynch helps the town more: it cost the bandits 0.42 points [0.36, 0.48] in `extended`), or for the real Detective (`real`: voting a believed player marks the Scout: 0.47 [0.41, 0.53]) [notes §3 Scout; derived: paired runs]",
        },
    ],
    PROSTITUTE: [
        borrow: BorrowPlan {
            name: "borrow",
            default: "detective",
            about: "the role borrowed first when several are available: the Detective (then Doctor, Shooter), the Doctor (then Detective), or any (E19) [notes §3]",
        },
    ],
    NIGHT: [
        moves: MovePlan {
            name: "move",
            default: "usual",
            about: "the role's own move (its night move, the Role Prostitute's borrowing, the Chosen's secret votes): the forum convention, a uniformly random legal move, or no move; everything else (votes, claims, the camp's kill and search) plays as usual. A yardstick: `mafia moves` pairs each role's usual move against the other two (E7: a Boss alive proxies a mafia member who sends no move) [derived: the agents issue's role test]",
        },
    ],
}

/// Every strategy a lineup may name.
pub const STRATEGIES: &[StrategyInfo] = &[
    StrategyInfo {
        name: "forum",
        plays: Plays::All,
        about: "the default: every role plays its forum conventions below with their default parameters (any of them may be set here); `classic` plays it with its own mixed parameters (the book: docs/src/research/play.md)",
        params: &[],
    },
    StrategyInfo {
        name: "town",
        plays: Plays::Camp(Camp::Town),
        about: "day play of the town: a suspicion model built from public events only (claims, counter-claims, votes, night deaths, published checks)",
        params: TOWN,
    },
    StrategyInfo {
        name: "reveal",
        plays: Plays::Roles(&[Role::Commissar, Role::Detective, Role::Deputy]),
        about: "the information roles' reveal policy",
        params: REVEAL,
    },
    StrategyInfo {
        name: "check",
        plays: Plays::Roles(&[Role::Commissar, Role::Detective, Role::Deputy, Role::Don, Role::Boss]),
        about: "whom a checker checks (C5, C6, E7, E13)",
        params: CHECK,
    },
    StrategyInfo {
        name: "mafia",
        plays: Plays::Camp(Camp::Mafia),
        about: "the mafia: kill plan (C2, C4), fake claims, bussing, skipped shots; the Don signals a found Commissar by his vote, the Boss proxies idle members and appoints the Actor",
        params: MAFIA,
    },
    StrategyInfo {
        name: "protect",
        plays: Plays::Roles(&[Role::Doctor]),
        about: "whom the Doctor heals",
        params: PROTECT,
    },
    StrategyInfo {
        name: "shooter",
        plays: Plays::Roles(&[Role::Shooter]),
        about: "the Shooter's trigger discipline",
        params: SHOOTER,
    },
    StrategyInfo {
        name: "prostitute",
        plays: Plays::Roles(&[Role::Prostitute]),
        about: "which role the Role Prostitute borrows",
        params: PROSTITUTE,
    },
    StrategyInfo {
        name: "bandits",
        plays: Plays::Camp(Camp::Bandits),
        about: "the bandits: search, then the Psycho invites an outsider the Doctor will not heal, the Thug beats only himself (every other night: out of reach), the Miner mines the town's top suspect, the Trickster removes the strongest anti-bandit vote",
        params: BANDITS,
    },
    StrategyInfo {
        name: "night",
        plays: Plays::All,
        about: "whether a role makes its own move as the conventions say, at random or not at all (a yardstick for what each role's move is worth)",
        params: NIGHT,
    },
    StrategyInfo {
        name: "classic",
        plays: Plays::All,
        about: "the earlier default: kill order, Commissar hunt and reveal, suspicion-scored votes; extended roles move at random",
        params: &[],
    },
    StrategyInfo {
        name: "random",
        plays: Plays::All,
        about: "uniformly random votes, checks and (coordinated) kills; never PASS, never changes",
        params: &[],
    },
];

impl StrategyInfo {
    /// The catalogue's strategy of this name.
    pub fn find(name: &str) -> Option<&'static StrategyInfo> {
        STRATEGIES.iter().find(|s| s.name == name)
    }
    /// Whether the strategy belongs to the `forum` family (a [`Config`] unit).
    pub fn is_forum(&self) -> bool {
        !matches!(self.name, "classic" | "random")
    }
    /// The parameters it accepts: its own; `forum` accepts every unit's.
    pub fn accepted(&self) -> Vec<&'static Param> {
        if self.name == "forum" {
            STRATEGIES.iter().flat_map(|s| s.params.iter()).collect()
        } else {
            self.params.iter().collect()
        }
    }
}

/// When an information role reveals (the `reveal` strategy's `on`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RevealOn {
    /// On day 1 (`at-once`).
    AtOnce,
    /// The day after his first mafia find (`first-mafia`).
    FirstMafia,
    /// From day 2 or 3 (`day2`, `day3`).
    Day(u8),
    /// Only in his last word, C13 (`last-word`).
    LastWord,
}

/// Whom the town believes when two claim the same information role
/// (`counterclaim`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counterclaim {
    /// The earlier claimant: the later one is lynched.
    Later,
    /// The later claimant: the earlier one is lynched.
    Earlier,
    /// Neither: both are lynched in turn.
    Both,
    /// The one whose checks agree with what is known.
    Checks,
    /// A public coin decides (`coin`, `coin_both`).
    Coin,
}

/// Whom a checker checks (`whom`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckPlan {
    /// An unchecked player whose camp the record leaves open.
    Uncertain,
    /// Any unchecked player.
    Random,
}

/// How the mafia choose the nick (`kill`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KillPlan {
    /// A revealed or found information role, then a cleared town leader, then the order.
    Hunt,
    /// The agreed order alone.
    Order,
}

/// Whom the Doctor heals first (`heal`, E15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HealPlan {
    /// A revealed information role (else himself, else the most trusted).
    Revealed,
    /// Himself.
    SelfFirst,
    /// Anybody.
    Random,
}

/// When and at whom the Shooter fires (`shoot`, E20).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShootPlan {
    /// Only at a player exposed as mafia or bandit.
    Exposed,
    /// The exposed, else the town's top suspect from night 2.
    Suspect,
    /// The exposed, else the most suspicious after the top suspect.
    Second,
    /// The exposed, else from night 1 a random player neither cleared nor believed.
    Open,
    /// Never.
    Never,
}

/// How a role makes its own move (the `night` strategy's `move`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MovePlan {
    /// The forum convention.
    Usual,
    /// A uniformly random legal move.
    Random,
    /// No move.
    None,
}

/// What the Scout's reports move in his vote (the `bandits` strategy's `scout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoutPlan {
    /// Nothing.
    Quiet,
    /// A vote for the fake claimants they unmask.
    Fakes,
    /// A vote for the real Detective.
    Real,
}

/// The role the Role Prostitute borrows first (`borrow`, E19).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BorrowPlan {
    /// The Detective, then the Doctor, then the Shooter.
    Detective,
    /// The Doctor, then the Detective.
    Doctor,
    /// Any.
    Random,
}

/// A parameter whose values are words: each word written once, beside
/// the value it names, in the order the catalogue lists them.
trait Words: Copy + 'static {
    const WORDS: &'static [(Self, &'static str)];
    /// The words alone, for [`Values::Choice`].
    const NAMES: &'static [&'static str];
}

macro_rules! words {
    ($($ty:ident { $($variant:ident $(($arg:expr))?: $word:literal),* $(,)? })*) => {$(
        impl Words for $ty {
            const WORDS: &'static [(Self, &'static str)] = &[$(($ty::$variant $(($arg))?, $word)),*];
            const NAMES: &'static [&'static str] = &[$($word),*];
        }
    )*};
}

words! {
    Counterclaim { Later: "later", Earlier: "earlier", Both: "both", Checks: "checks", Coin: "coin" }
    RevealOn { AtOnce: "at-once", FirstMafia: "first-mafia", Day(2): "day2", Day(3): "day3", LastWord: "last-word" }
    CheckPlan { Uncertain: "uncertain", Random: "random" }
    KillPlan { Hunt: "hunt", Order: "order" }
    HealPlan { Revealed: "revealed", SelfFirst: "self", Random: "random" }
    ShootPlan { Open: "open", Exposed: "exposed", Suspect: "suspect", Second: "second", Never: "never" }
    BorrowPlan { Detective: "detective", Doctor: "doctor", Random: "random" }
    MovePlan { Usual: "usual", Random: "random", None: "none" }
    ScoutPlan { Quiet: "quiet", Fakes: "fakes", Real: "real" }
}

/// How a [`Config`] field's type reads a parameter's text, and so which
/// values the parameter lists (a count's row narrows `0..255` to its `max`).
trait ParamValue: Copy {
    const VALUES: Values;
    fn read(text: &str) -> Option<Self>;
}

/// A chance in 0..=1.
fn chance(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p))
}

/// A fraction as a threshold on a 32-bit draw.
impl ParamValue for u32 {
    const VALUES: Values = Values::Fraction;
    fn read(text: &str) -> Option<Self> {
        chance(text).map(threshold)
    }
}

/// A chance of the town's public coin, in steps of 1/[`COIN_STEPS`].
impl ParamValue for u16 {
    const VALUES: Values = Values::Fraction;
    fn read(text: &str) -> Option<Self> {
        chance(text).map(|p| (p * COIN_STEPS as f64).round() as u16)
    }
}

/// A count.
impl ParamValue for u8 {
    const VALUES: Values = Values::Count(u8::MAX);
    fn read(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

impl ParamValue for bool {
    const VALUES: Values = Values::Flag;
    fn read(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

impl<T: Words> ParamValue for T {
    const VALUES: Values = Values::Choice(T::NAMES);
    fn read(text: &str) -> Option<Self> {
        T::WORDS.iter().find(|&&(_, w)| w == text).map(|&(v, _)| v)
    }
}

/// The public coin's chances are kept in steps of 1/`COIN_STEPS`: a draw's
/// top 12 bits below the count of steps (0 never, `COIN_STEPS` always).
pub const COIN_STEPS: u16 = 4096;

/// A fraction as a threshold on a 32-bit draw (`draw < t` has probability `p`).
pub fn threshold(p: f64) -> u32 {
    (p.clamp(0.0, 1.0) * 4294967295.0).round() as u32
}

/// Why a parameter value was refused: the values it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadValue {
    /// The values it takes, in words.
    pub expected: String,
}

impl Config {
    /// Sets a parameter by name from its text (names and values as in [`STRATEGIES`]).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), BadValue> {
        let param = STRATEGIES
            .iter()
            .flat_map(|s| s.params.iter())
            .find(|p| p.name == name)
            .ok_or_else(|| BadValue { expected: "a known parameter".into() })?;
        if self.set_text(name, value) { Ok(()) } else { Err(BadValue { expected: param.values.to_string() }) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_settable_to_every_candidate_and_refuses_nonsense() {
        for s in STRATEGIES {
            for p in s.params {
                for v in p.values.candidates() {
                    Config::default().set(p.name, &v).unwrap_or_else(|e| panic!("{}={v}: {e:?}", p.name));
                }
                let e = Config::default().set(p.name, "nonsense").unwrap_err();
                assert_eq!(e.expected, p.values.to_string());
                assert!(p.values.candidates().contains(&p.default.to_string()) || p.values == Values::Fraction);
            }
        }
        assert!(Config::default().set("trust", "1.5").is_err());
        assert!(Config::default().set("telepathy", "1").is_err());
    }

    #[test]
    fn parameter_names_are_unique() {
        let mut names: Vec<&str> = STRATEGIES.iter().flat_map(|s| s.params.iter().map(|p| p.name)).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n);
    }
}
