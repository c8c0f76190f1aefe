//! What players say and vote in public: day votes (C10) and publications
//! (posts, defences, last words: C10, C12.2, C13). Plain values that the
//! state records and the event log tells; they import nothing of the game.

use crate::role::{Camp, Role};
use crate::seat::{PlayerSet, Seat};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A day vote (C10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vote {
    /// A vote to lynch a living player other than the voter.
    For(Seat),
    /// "Against all".
    Pass,
}

/// What a player publishes in the day thread or in his last word (C13): an
/// optional role claim and camp statements about players ("I checked 3: he
/// is mafia"). It may be true or false; the engine only records it.
///
/// JSON: `{"claim": role or null, "town": [seats], "mafia": [seats],
/// "bandits": [seats]}`, one key per camp (every key always present).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(into = "PublicationJson", from = "PublicationJson")]
pub struct Publication {
    pub claim: Option<Role>,
    /// `camps[c]`: the players this speaker states to be in camp `c`.
    pub camps: [PlayerSet; Camp::COUNT],
}

/// What a player publishes: an optional role claim and the players he
/// names in each camp.
#[derive(Serialize, Deserialize, JsonSchema)]
struct PublicationJson {
    /// The role he claims (`null`: no claim).
    claim: Option<Role>,
    /// The players he states to be town.
    town: PlayerSet,
    /// The players he states to be mafia.
    mafia: PlayerSet,
    /// The players he states to be bandits.
    bandits: PlayerSet,
}

impl From<Publication> for PublicationJson {
    fn from(p: Publication) -> Self {
        let [town, mafia, bandits] = p.camps;
        PublicationJson { claim: p.claim, town, mafia, bandits }
    }
}

impl From<PublicationJson> for Publication {
    fn from(p: PublicationJson) -> Self {
        Publication { claim: p.claim, camps: [p.town, p.mafia, p.bandits] }
    }
}

impl Publication {
    pub const NONE: Publication = Publication { claim: None, camps: [PlayerSet::EMPTY; Camp::COUNT] };

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.claim.is_none() && self.camps.iter().all(|s| s.is_empty())
    }
    /// Adds everything `other` says to `self` (a speaker's record is the union of his posts).
    pub fn merge(&mut self, other: &Publication) {
        if other.claim.is_some() {
            self.claim = other.claim;
        }
        for c in 0..Camp::COUNT {
            self.camps[c] = self.camps[c].union(other.camps[c]);
        }
    }
}
