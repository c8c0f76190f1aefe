//! The night order (E30) as data: the steps, the default order, and the
//! step each move belongs to. A setup may reorder the steps (`Game::new`
//! checks it), so nothing here knows about a game.

use crate::role::{Camp, NightAbility, Role};

/// A step of the night order (E30). Each move belongs to one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum NightStep {
    /// Promotions and appointments; last night's hex holds; statuses expire (E30.1).
    StartOfNight = 0,
    /// Blocks and redirects (E29).
    Control = 1,
    /// Guards and heals.
    Protection = 2,
    /// Checks of people: the Boss, the Don, the Commissar, the Detective, the Journalist.
    Information = 3,
    /// The guest's death, the camp kill, the Shooter, the blast, the spare life.
    Kills = 4,
    /// Marks for later: hexes, mines, the Trickster's pick.
    Marks = 5,
    /// Information on moves: the Sleepwalker, the Scout, the bandits' search.
    InformationOnMoves = 6,
}

impl NightStep {
    /// Every step, in the default order.
    pub const ALL: [NightStep; 7] = NIGHT_ORDER;

    /// The step's name in tables and messages.
    pub const fn name(self) -> &'static str {
        match self {
            NightStep::StartOfNight => "start of night",
            NightStep::Control => "control moves",
            NightStep::Protection => "protection",
            NightStep::Information => "information on people",
            NightStep::Kills => "kills",
            NightStep::Marks => "marks for later",
            NightStep::InformationOnMoves => "information on moves",
        }
    }

    /// The short key used in setup files (`night_order = ["control", …]`).
    pub const fn key(self) -> &'static str {
        match self {
            NightStep::StartOfNight => "start",
            NightStep::Control => "control",
            NightStep::Protection => "protection",
            NightStep::Information => "information",
            NightStep::Kills => "kills",
            NightStep::Marks => "marks",
            NightStep::InformationOnMoves => "watchers",
        }
    }

    /// The step of a setup file's `night_order` key.
    pub fn from_key(s: &str) -> Option<NightStep> {
        NightStep::ALL.into_iter().find(|k| k.key() == s)
    }

    /// What the step does, for the night-order table.
    pub const fn about(self) -> &'static str {
        match self {
            NightStep::StartOfNight => {
                "promotions and appointments (E12, E14); last night's hex holds (E18); statuses expire"
            }
            NightStep::Control => "blocks and redirects, as E29's dependency graph (or in sequence)",
            NightStep::Protection => "guards and heals",
            NightStep::Information => "checks of people, answered against the state at dusk (C7)",
            NightStep::Kills => {
                "last night's guest dies unless healed (E23); each camp's kill (C4, E8); the Shooter; \
                 the blast (E24); a Lucky's spare life absorbs what reaches him (E21)"
            }
            NightStep::Marks => {
                "marks that act later: hex (next night), mine, vote removal and a borrowed Chosen's votes (next day)"
            }
            NightStep::InformationOnMoves => "reports on who moved where (E22, E27); the bandits' search (E3)",
        }
    }

    /// The moves that resolve in this step, in their order within it.
    pub fn abilities(self) -> impl Iterator<Item = NightAbility> {
        NightAbility::MOVES.into_iter().filter(move |a| a.step() == Some(self))
    }

    /// The roles whose moves resolve in this step (camp kills and the
    /// bandits' search count as moves of every member).
    pub fn roles(self) -> impl Iterator<Item = Role> {
        Role::ALL.into_iter().filter(move |r| {
            let info = r.info();
            (self == NightStep::Kills && info.shoots)
                || (self == NightStep::InformationOnMoves && info.camp == Camp::Bandits)
                || info.night.step() == Some(self)
        })
    }
}

/// The default night order (E30), as data.
pub const NIGHT_ORDER: [NightStep; 7] = [
    NightStep::StartOfNight,
    NightStep::Control,
    NightStep::Protection,
    NightStep::Information,
    NightStep::Kills,
    NightStep::Marks,
    NightStep::InformationOnMoves,
];

impl NightAbility {
    /// The step this move resolves in. The Role Prostitute's borrowed move
    /// sits where the borrowed role sits (E31), so `Borrow` has none.
    pub const fn step(self) -> Option<NightStep> {
        match self {
            NightAbility::None | NightAbility::Borrow => None,
            NightAbility::Rob | NightAbility::Invite | NightAbility::Beat | NightAbility::Swindle => {
                Some(NightStep::Control)
            }
            NightAbility::Guard | NightAbility::Heal => Some(NightStep::Protection),
            NightAbility::BossCheck
            | NightAbility::CheckIsRole(_)
            | NightAbility::CheckCamp
            | NightAbility::Compare => Some(NightStep::Information),
            NightAbility::Shoot => Some(NightStep::Kills),
            NightAbility::Hex | NightAbility::Mine | NightAbility::Trick | NightAbility::Votes => {
                Some(NightStep::Marks)
            }
            NightAbility::Watch | NightAbility::Scout => Some(NightStep::InformationOnMoves),
        }
    }
}
