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

/// What a player publishes in the day thread, in a defence (C12.2) or in
/// his last word (C13): typed statements a scripted agent can read — an
/// optional role claim, check reveals ("I checked 3: he is mafia", by camp),
/// accusations ("I suspect 5") — and, optionally, a free-text line that
/// scripted agents ignore (its number in the game's talk, kept by the
/// driver: see `View::talk`). It may be true or false; the engine only
/// records it.
///
/// JSON: `{"claim": role or null, "town": [seats], "mafia": [seats],
/// "bandits": [seats], "accuse": [seats], "text": number or null}` (every key
/// always present).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(into = "PublicationJson", from = "PublicationJson")]
// Laid out with the four sets first, so the 16-byte halves an emptiness
// check loads them by are the halves a decision writes its answer by: with
// the claim first, each load straddled two of the callee's stores, which
// the processor cannot forward (a stall on every post the engine asked
// for; ARCHITECTURE.md, "Hot-path notes"). Not a doc comment: the JSON
// schema takes those for its descriptions.
#[repr(C)]
pub struct Publication {
    /// `camps[c]`: the players this speaker states he found in camp `c`
    /// (check reveals; true or false).
    pub camps: [PlayerSet; Camp::COUNT],
    /// The players he accuses (suspicion, not a claimed check).
    pub accuse: PlayerSet,
    /// A free-text line: its number in the game's talk (see `View::talk`).
    pub text: Option<u32>,
    /// The role the speaker claims (true or false).
    pub claim: Option<Role>,
}

/// What a player publishes: an optional role claim, the players he says
/// he found in each camp, the players he accuses, and a free-text line.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PublicationJson {
    /// The role he claims (`null`: no claim).
    #[serde(default)]
    claim: Option<Role>,
    /// The players he states he found town.
    #[serde(default)]
    town: PlayerSet,
    /// The players he states he found mafia.
    #[serde(default)]
    mafia: PlayerSet,
    /// The players he states he found bandits.
    #[serde(default)]
    bandits: PlayerSet,
    /// The players he accuses (suspicion, not a check).
    #[serde(default)]
    accuse: PlayerSet,
    /// His free-text line: an index into the view's `talk` (`null`: none).
    /// An agent answering sends the line itself beside (`text` of the answer).
    #[serde(default)]
    text: Option<u32>,
}

impl From<Publication> for PublicationJson {
    fn from(p: Publication) -> Self {
        let [town, mafia, bandits] = p.camps;
        PublicationJson { claim: p.claim, town, mafia, bandits, accuse: p.accuse, text: p.text }
    }
}

impl From<PublicationJson> for Publication {
    fn from(p: PublicationJson) -> Self {
        Publication { claim: p.claim, camps: [p.town, p.mafia, p.bandits], accuse: p.accuse, text: p.text }
    }
}

impl Publication {
    /// Says nothing.
    pub const NONE: Publication =
        Publication { claim: None, camps: [PlayerSet::EMPTY; Camp::COUNT], accuse: PlayerSet::EMPTY, text: None };

    /// Whether it says nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.claim.is_none() && self.camps.iter().all(|s| s.is_empty()) && self.accuse.is_empty() && self.text.is_none()
    }
    /// Adds everything `other` says to `self` (a speaker's record is the union of his posts).
    pub fn merge(&mut self, other: &Publication) {
        if other.claim.is_some() {
            self.claim = other.claim;
        }
        for c in 0..Camp::COUNT {
            self.camps[c] = self.camps[c].union(other.camps[c]);
        }
        self.accuse = self.accuse.union(other.accuse);
        if other.text.is_some() {
            self.text = other.text;
        }
    }
}
