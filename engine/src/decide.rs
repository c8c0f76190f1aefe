//! The decision interface: what the engine asks of the players and the
//! shapes of their answers. The engine calls a [`Players`] implementation at
//! each decision point with an [`Observation`] — what that one player may
//! know — and never with the state itself.

use crate::role::{Role, RoleSet};
use crate::seat::{PlayerSet, Seat};
use crate::speech::{Publication, Vote};
use crate::state::Observation;

/// A player's night submission: the nick for the camp kill (C4, E8), if his
/// role shoots; his role move (C5, C6, E7–E28): its target, a second target
/// for the Swindler and the Journalist (E11, E17), the role the Role
/// Prostitute borrows (E19); and a bandit's search nick (E3). A mafia
/// member may leave his role move to the Boss's discretion (`defer`, E7).
///
/// In JSON every field may be left out (none): `{"kill": 3, "target": 5}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct NightChoice {
    /// C4/E8: the nick for the camp kill.
    pub kill: Option<Seat>,
    /// The role move's target.
    #[serde(rename = "target")]
    pub act: Option<Seat>,
    /// The second target of a two-target move (E11, E17).
    pub second: Option<Seat>,
    /// E19: the role the Role Prostitute borrows tonight.
    pub borrow: Option<Role>,
    /// E3: the bandit's search nick.
    pub search: Option<Seat>,
    /// E7: «Участник может оставить изменение хода на усмотрение» the Boss:
    /// the Boss is asked ([`Players::proxy`]) and his move, if any, replaces
    /// this one.
    pub defer: bool,
}

/// The players of one game, as the engine sees them: something that answers
/// decisions. Implemented by the agents crate (one agent per seat) and by
/// scripted players in tests.
pub trait Players {
    /// A new game; called once per seat before day 1 (the C2 conference happens here).
    fn new_game(&mut self, obs: &Observation<'_>);
    /// Whether seat `s` is *quiet* this game: it never posts, never changes
    /// its vote, never defends and says nothing in its last word. The engine
    /// then skips asking (the answers would be empty); nothing else changes.
    /// Asked once per seat after [`Players::new_game`]. Default: not quiet.
    fn quiet(&self, _s: Seat) -> bool {
        false
    }
    /// A phase begins (`night` false = day). Drivers refresh any shared,
    /// pre-agreed randomness here.
    fn begin_phase(&mut self, _day: u16, _night: bool) {}
    /// A day post (C10's discussion; a Commissar may reveal here).
    fn post(&mut self, obs: &Observation<'_>) -> Publication;
    /// The first vote of the day (C10).
    fn vote(&mut self, obs: &Observation<'_>) -> Vote;
    /// The one allowed change of vote (C10); `None` keeps the vote.
    fn revise(&mut self, obs: &Observation<'_>) -> Option<Vote>;
    /// A defence post of a tied player before a runoff (C12.2).
    fn defence(&mut self, _obs: &Observation<'_>) -> Publication {
        Publication::NONE
    }
    /// A runoff revote among `candidates` (C12.4, C12.5): one of them, no PASS.
    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet) -> Seat;
    /// A hang-both (`true`) or pardon-both (`false`) vote on `pair` (C12.3).
    fn hang_both(&mut self, obs: &Observation<'_>, pair: PlayerSet) -> bool;
    /// Night moves (C4–C6, E3, E7–E28).
    fn night(&mut self, obs: &Observation<'_>) -> NightChoice;
    /// E7: the Boss's move on behalf of mafia member `member`, who sent no
    /// role move tonight (absent, or chose not to) or left his move to the
    /// Boss (`NightChoice::defer`). Asked of the Boss only; judged as the
    /// member's own move; a move replaces the member's, none leaves it.
    /// Default: none.
    fn proxy(&mut self, _obs: &Observation<'_>, _member: Seat) -> NightChoice {
        NightChoice::default()
    }
    /// E12: which of the `vacant` mafia roles the Actor takes from tonight;
    /// `None` = no appointment yet (asked again next night). Asked of the
    /// Boss (of the Actor himself once the Boss is dead) at the start of a
    /// night with a vacancy. Default: the best-ranked vacancy (E8's rank).
    fn appoint(&mut self, _obs: &Observation<'_>, vacant: RoleSet) -> Option<Role> {
        vacant.best_ranked()
    }
    /// E16: whom the Chosen (or the Role Prostitute who borrowed him last
    /// night, E19) gives his secret votes; `None` = his open vote's target.
    fn secret_vote(&mut self, _obs: &Observation<'_>) -> Option<Seat> {
        None
    }
    /// The last word of an eliminated player (C13).
    fn last_word(&mut self, obs: &Observation<'_>) -> Publication;
}
