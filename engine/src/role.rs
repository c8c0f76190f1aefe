//! Roles and camps as closed enums with constant tables.
//!
//! Every role is one row of [`ROLE_INFO`]; every night move is one
//! [`NightAbility`] with its own row of properties ([`NightAbility::info`]).
//! The classic set (`classic.md`: citizen, commissar, mafioso, don) and the
//! extended set (`extended.md`, E7–E28) share the tables, so a setup may mix
//! them.

/// A camp (team): town, mafia and bandits (E1). The classic set uses the first two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Camp {
    /// The town (C1, E1).
    Town = 0,
    /// The mafia (C1, E1).
    Mafia = 1,
    /// The bandits (E1, E3).
    Bandits = 2,
}

impl Camp {
    /// How many camps there are.
    pub const COUNT: usize = 3;
    /// Every camp, in index order.
    pub const ALL: [Camp; 3] = [Camp::Town, Camp::Mafia, Camp::Bandits];

    /// The camp's name in tables and lineups.
    pub const fn name(self) -> &'static str {
        match self {
            Camp::Town => "town",
            Camp::Mafia => "mafia",
            Camp::Bandits => "bandits",
        }
    }

    /// The camp of this name.
    pub fn from_name(s: &str) -> Option<Camp> {
        Camp::ALL.into_iter().find(|c| c.name() == s)
    }

    /// One camp per member counted in `counts` (indexed by camp), in camp
    /// order: `[2, 0, 1]` gives town, town, bandits. How a watch report
    /// (E22: the camp of each visitor) reads as a list, in JSON and text.
    pub fn each(counts: [u8; Camp::COUNT]) -> impl Iterator<Item = Camp> {
        Camp::ALL.into_iter().flat_map(move |c| std::iter::repeat_n(c, counts[c as usize].into()))
    }

    /// Whether members of the camp know each other from the start (C2, E1).
    /// Bandits find each other during the game (E3).
    pub const fn members_know_each_other(self) -> bool {
        matches!(self, Camp::Mafia)
    }
}

/// A night move. The resolver dispatches on this, in the order of the night
/// steps (see `night.rs`); [`NightAbility::info`] gives each move's table row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum NightAbility {
    /// No individual move (the camp kill is a camp move, see [`RoleInfo::shoots`]).
    None = 0,
    /// E9: the Thief robs (blocks) a player. Control.
    Rob,
    /// E23: the Psycho invites a guest (blocks; the guest dies next night). Control.
    Invite,
    /// E26: the Thug beats a player (blocks; unreachable). Control.
    Beat,
    /// E11: the Swindler sends a player's move to a new target. Control.
    Swindle,
    /// E10: the Guard guards a mafioso against kills. Protection.
    Guard,
    /// E15: the Doctor heals. Protection.
    Heal,
    /// E7: the Boss learns "role or plain" and the camp. Information.
    BossCheck,
    /// C5: the Don learns whether the target holds the given role. Information.
    CheckIsRole(Role),
    /// C6, E13: the Commissar / the Detective learns the target's camp. Information.
    CheckCamp,
    /// E17: the Journalist compares two players' camps. Information.
    Compare,
    /// E20: the Shooter shoots. Kills.
    Shoot,
    /// E18: the Witch hexes a player for next night. Marks.
    Hex,
    /// E25: the Miner mines a player for the next day's vote. Marks.
    Mine,
    /// E28: the Trickster removes a player's vote next day. Marks.
    Trick,
    /// E22: the Sleepwalker watches a house. Information on moves.
    Watch,
    /// E27: the Scout learns the Detective's, Thief's and Doctor's targets. Information on moves.
    Scout,
    /// E19: the Role Prostitute borrows a dead town role's move.
    Borrow,
    /// E16 via E19: the Role Prostitute borrowed the Chosen: secret votes at
    /// the next day's count. Marks.
    Votes,
}

/// How many targets a move names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targets {
    /// No target (the Scout's report; the Prostitute names a role, then the role's targets).
    Zero,
    /// One target.
    One,
    /// The Swindler (victim, new target) and the Journalist (two players).
    Two,
}

/// One row of the move table.
#[derive(Clone, Copy, Debug)]
pub struct AbilityInfo {
    /// The move's name in tables and messages.
    pub name: &'static str,
    /// How many targets it names.
    pub targets: Targets,
    /// The maker may name himself (E10 Guard, E15 Doctor, E26 Thug).
    pub self_allowed: bool,
    /// The move fails when its maker is robbed, beaten, invited or hexed
    /// (E6). The Trickster's pick cannot be stopped (E28).
    pub blockable: bool,
    /// The move fails when its target is beaten (E6). The Thug's own beating
    /// and the Trickster's pick are exempt.
    pub fails_on_beaten: bool,
    /// What the move does, for the night-order table.
    pub about: &'static str,
}

impl NightAbility {
    /// Every ability with a move, in the order moves of one step resolve.
    pub const MOVES: [NightAbility; 18] = [
        NightAbility::Rob,
        NightAbility::Invite,
        NightAbility::Beat,
        NightAbility::Swindle,
        NightAbility::Guard,
        NightAbility::Heal,
        NightAbility::BossCheck,
        NightAbility::CheckIsRole(Role::Commissar),
        NightAbility::CheckCamp,
        NightAbility::Compare,
        NightAbility::Shoot,
        NightAbility::Hex,
        NightAbility::Mine,
        NightAbility::Trick,
        NightAbility::Watch,
        NightAbility::Scout,
        NightAbility::Borrow,
        NightAbility::Votes,
    ];

    /// A dense index, `0..=18` (the Don's check is one index whatever its role).
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            NightAbility::None => 0,
            NightAbility::Rob => 1,
            NightAbility::Invite => 2,
            NightAbility::Beat => 3,
            NightAbility::Swindle => 4,
            NightAbility::Guard => 5,
            NightAbility::Heal => 6,
            NightAbility::BossCheck => 7,
            NightAbility::CheckIsRole(_) => 8,
            NightAbility::CheckCamp => 9,
            NightAbility::Compare => 10,
            NightAbility::Shoot => 11,
            NightAbility::Hex => 12,
            NightAbility::Mine => 13,
            NightAbility::Trick => 14,
            NightAbility::Watch => 15,
            NightAbility::Scout => 16,
            NightAbility::Borrow => 17,
            NightAbility::Votes => 18,
        }
    }
    /// How many moves there are.
    pub const COUNT: usize = 19;

    /// The move's table row (a lookup in a table built at compile time).
    #[inline]
    pub const fn info(self) -> AbilityInfo {
        ABILITY_INFO[self.index()]
    }

    const fn row(self) -> AbilityInfo {
        use Targets::*;
        let (name, targets, self_allowed, blockable, fails_on_beaten, about) = match self {
            NightAbility::None => ("none", Zero, false, false, false, "no move"),
            NightAbility::Rob => ("rob", One, false, true, true, "Thief robs: the target's role move fails (E9)"),
            NightAbility::Invite => {
                ("invite", One, false, true, true, "Psycho invites: the guest is blocked and dies next night (E23)")
            }
            NightAbility::Beat => ("beat", One, true, true, false, "Thug beats: blocked and unreachable (E26, E6)"),
            NightAbility::Swindle => {
                ("swindle", Two, false, true, true, "Swindler sends a non-mafia player's move to a new target (E11)")
            }
            NightAbility::Guard => ("guard", One, true, true, true, "Guard guards a mafioso against kills (E10)"),
            NightAbility::Heal => {
                ("heal", One, true, true, true, "Doctor heals; not the same player twice running (E15)")
            }
            NightAbility::BossCheck => {
                ("boss-check", One, false, true, true, "Boss learns role-or-plain and camp (E7)")
            }
            NightAbility::CheckIsRole(_) => {
                ("don-check", One, false, true, true, "Don asks: is he the Commissar? (C5)")
            }
            NightAbility::CheckCamp => {
                ("camp-check", One, false, true, true, "Commissar/Detective learns the camp (C6, E13)")
            }
            NightAbility::Compare => ("compare", Two, false, true, true, "Journalist: same camp or different (E17)"),
            NightAbility::Shoot => ("shoot", One, false, true, true, "Shooter kills (E20)"),
            NightAbility::Hex => {
                ("hex", One, false, true, true, "Witch hexes for next night; a heal tonight lifts it (E18)")
            }
            NightAbility::Mine => ("mine", One, false, true, true, "Miner mines: 3+ votes next day kill (E25)"),
            NightAbility::Trick => {
                ("trick", One, false, false, false, "Trickster removes a vote next day; unstoppable (E28)")
            }
            NightAbility::Watch => {
                ("watch", One, false, true, true, "Sleepwalker learns the camps of successful visitors (E22)")
            }
            NightAbility::Scout => {
                ("scout", Zero, false, true, false, "Scout learns whom the Detective, Thief, Doctor reached (E27)")
            }
            NightAbility::Borrow => (
                "borrow",
                Zero,
                false,
                true,
                false,
                "Role Prostitute makes a dead town role's move, in its place (E19)",
            ),
            NightAbility::Votes => (
                "secret-votes",
                Zero,
                false,
                true,
                false,
                "Role Prostitute as the Chosen: secret votes at the next day's count (E19, E16)",
            ),
        };
        AbilityInfo { name, targets, self_allowed, blockable, fails_on_beaten, about }
    }
}

const ABILITY_INFO: [AbilityInfo; NightAbility::COUNT] = {
    let mut t = [NightAbility::None.row(); NightAbility::COUNT];
    let mut i = 0;
    while i < NightAbility::MOVES.len() {
        let a = NightAbility::MOVES[i];
        t[a.index()] = a.row();
        i += 1;
    }
    t
};

/// A role. Plain players are roles too (`Citizen`, `Mafioso`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// C1, E4: a plain town player.
    Citizen = 0,
    /// C6: the town's checker: learns a player's camp each night.
    Commissar = 1,
    /// C1, E4: a plain mafia member, who shoots in the camp kill.
    Mafioso = 2,
    /// C5: the classic mafia's leader: asks each night whether a player is the Commissar.
    Don = 3,
    /// E7, E8: the extended mafia's leader: decides the kill, checks a player, moves for a silent member.
    Boss = 4,
    /// E9: robs a player: his move fails tonight.
    Thief = 5,
    /// E10: guards a mafioso against the night's kills.
    Guard = 6,
    /// E11: sends a non-mafia player's move tonight to another target.
    Swindler = 7,
    /// E12: only votes until appointed to a vacant mafia role.
    Actor = 8,
    /// E13: the extended town's checker: learns a player's camp each night.
    Detective = 9,
    /// E14: becomes the Detective or the Doctor when the first of them dies.
    Deputy = 10,
    /// E15: heals a player against the night's kills, never the same one two nights running.
    Doctor = 11,
    /// E16: gives secret extra votes in the day vote.
    Chosen = 12,
    /// E17: learns whether two players are of one camp.
    Journalist = 13,
    /// E18: hexes a player: he makes no role move the next night.
    Witch = 14,
    /// E19: the Role Prostitute: from night 2, makes the move of a dead town player's role.
    Prostitute = 15,
    /// E21: has one spare life against kills (none against the lynch).
    Lucky = 16,
    /// E20: kills a player at night.
    Shooter = 17,
    /// E22: watches a house and learns the camp of each successful visitor.
    Sleepwalker = 18,
    /// E23, E24: invites a guest, who dies the next night; a kill at the Psycho blasts the guest.
    Psycho = 19,
    /// E25: mines a player: three or more votes against him the next day kill him.
    Miner = 20,
    /// E26: beats a player: he is blocked and unreachable tonight (E6).
    Thug = 21,
    /// E27: learns whom the Detective checked, the Thief robbed and the Doctor healed.
    Scout = 22,
    /// E28: removes a player's lynch vote of the next day.
    Trickster = 23,
}

/// Which rule set a role comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSet {
    /// `classic.md`.
    Classic,
    /// `extended.md`.
    Extended,
    /// Plain players, in both.
    Both,
}

/// One row of the role table.
#[derive(Clone, Copy, Debug)]
pub struct RoleInfo {
    /// The role.
    pub role: Role,
    /// The name used in setup files, on the command line and in tables.
    pub name: &'static str,
    /// Its camp.
    pub camp: Camp,
    /// Takes part in the camp's night kill (C4, E8) from the start. The
    /// Actor does not until he is appointed, or is the last of his camp (E12).
    pub shoots: bool,
    /// Its night move (`None` for none).
    pub night: NightAbility,
    /// At most one of this role in a setup (C1 deals one Don; every named
    /// extended role is one person, E4).
    pub unique: bool,
    /// A plain player without a role of his own (E4, E7 tell them apart).
    pub plain: bool,
    /// E8: who decides the camp kill, lower first (the Boss, then his
    /// stand-ins); [`RoleInfo::UNRANKED`] for a role outside that order.
    pub rank: u8,
    /// The rule set that has it (classic, extended or both).
    pub set: RuleSet,
    /// The clause that defines the role.
    pub clause: &'static str,
}

impl RoleInfo {
    /// The rank of a role outside E8's order (every town and bandit role):
    /// it sorts after every ranked one. A plain `u8` rather than an
    /// `Option`, so the kill decision compares ranks with one `<`.
    pub const UNRANKED: u8 = u8::MAX;

    /// A row of the table with what every row names: the role, its name,
    /// its camp, the rule set and the clause. The rest starts as the common
    /// case (no night move, unique, unranked) and is changed by the named
    /// setters below, so a row says only what is particular to its role.
    const fn new(role: Role, name: &'static str, camp: Camp, set: RuleSet, clause: &'static str) -> RoleInfo {
        // E12: «До назначения на роль, Актер участвует только в линчевании».
        let shoots = matches!(camp, Camp::Mafia) && !matches!(role, Role::Actor);
        RoleInfo {
            role,
            name,
            camp,
            shoots,
            night: NightAbility::None,
            unique: true,
            plain: false,
            rank: RoleInfo::UNRANKED,
            set,
            clause,
        }
    }

    /// The role's night move.
    const fn night(self, night: NightAbility) -> RoleInfo {
        RoleInfo { night, ..self }
    }

    /// A plain player (citizen, mafioso): any number may be dealt.
    const fn plain(self) -> RoleInfo {
        RoleInfo { plain: true, unique: false, ..self }
    }

    /// E8: the role's place in the order that decides the camp kill.
    const fn kill_rank(self, rank: u8) -> RoleInfo {
        RoleInfo { rank, ..self }
    }
}

use Camp::{Bandits, Mafia, Town};
use NightAbility as A;
use RuleSet::{Both, Classic, Extended};

/// The role table, indexed by `Role as usize`. E8's kill rank: Boss, Thief,
/// Guard, Swindler, Actor; the classic Don ranks after the Boss and plain
/// mafiosi last (a mixed set's decision, `RULES.md`).
pub const ROLE_INFO: [RoleInfo; Role::COUNT] = [
    RoleInfo::new(Role::Citizen, "citizen", Town, Both, "C1, E4").plain(),
    RoleInfo::new(Role::Commissar, "commissar", Town, Classic, "C6").night(A::CheckCamp),
    RoleInfo::new(Role::Mafioso, "mafioso", Mafia, Both, "C1, E4").plain().kill_rank(7),
    RoleInfo::new(Role::Don, "don", Mafia, Classic, "C5").night(A::CheckIsRole(Role::Commissar)).kill_rank(1),
    RoleInfo::new(Role::Boss, "boss", Mafia, Extended, "E7, E8").night(A::BossCheck).kill_rank(0),
    RoleInfo::new(Role::Thief, "thief", Mafia, Extended, "E9").night(A::Rob).kill_rank(2),
    RoleInfo::new(Role::Guard, "guard", Mafia, Extended, "E10").night(A::Guard).kill_rank(3),
    RoleInfo::new(Role::Swindler, "swindler", Mafia, Extended, "E11").night(A::Swindle).kill_rank(4),
    RoleInfo::new(Role::Actor, "actor", Mafia, Extended, "E12").kill_rank(5),
    RoleInfo::new(Role::Detective, "detective", Town, Extended, "E13").night(A::CheckCamp),
    RoleInfo::new(Role::Deputy, "deputy", Town, Extended, "E14"),
    RoleInfo::new(Role::Doctor, "doctor", Town, Extended, "E15").night(A::Heal),
    RoleInfo::new(Role::Chosen, "chosen", Town, Extended, "E16"),
    RoleInfo::new(Role::Journalist, "journalist", Town, Extended, "E17").night(A::Compare),
    RoleInfo::new(Role::Witch, "witch", Town, Extended, "E18").night(A::Hex),
    RoleInfo::new(Role::Prostitute, "prostitute", Town, Extended, "E19").night(A::Borrow),
    RoleInfo::new(Role::Lucky, "lucky", Town, Extended, "E21"),
    RoleInfo::new(Role::Shooter, "shooter", Town, Extended, "E20").night(A::Shoot),
    RoleInfo::new(Role::Sleepwalker, "sleepwalker", Town, Extended, "E22").night(A::Watch),
    RoleInfo::new(Role::Psycho, "psycho", Bandits, Extended, "E23, E24").night(A::Invite),
    RoleInfo::new(Role::Miner, "miner", Bandits, Extended, "E25").night(A::Mine),
    RoleInfo::new(Role::Thug, "thug", Bandits, Extended, "E26").night(A::Beat),
    RoleInfo::new(Role::Scout, "scout", Bandits, Extended, "E27").night(A::Scout),
    RoleInfo::new(Role::Trickster, "trickster", Bandits, Extended, "E28").night(A::Trick),
];

impl Role {
    /// How many roles there are.
    pub const COUNT: usize = 24;
    /// Every role, in index order.
    pub const ALL: [Role; Role::COUNT] = [
        Role::Citizen,
        Role::Commissar,
        Role::Mafioso,
        Role::Don,
        Role::Boss,
        Role::Thief,
        Role::Guard,
        Role::Swindler,
        Role::Actor,
        Role::Detective,
        Role::Deputy,
        Role::Doctor,
        Role::Chosen,
        Role::Journalist,
        Role::Witch,
        Role::Prostitute,
        Role::Lucky,
        Role::Shooter,
        Role::Sleepwalker,
        Role::Psycho,
        Role::Miner,
        Role::Thug,
        Role::Scout,
        Role::Trickster,
    ];

    /// The role's table row.
    #[inline]
    pub const fn info(self) -> &'static RoleInfo {
        &ROLE_INFO[self as usize]
    }
    /// The role's camp.
    #[inline]
    pub const fn camp(self) -> Camp {
        self.info().camp
    }
    /// The role's name in setup files, lineups and tables.
    pub const fn name(self) -> &'static str {
        self.info().name
    }
    /// The role by its name; `role-prostitute` and `role_prostitute` are accepted for `prostitute`.
    pub fn from_name(s: &str) -> Option<Role> {
        match s {
            "role-prostitute" | "role_prostitute" => Some(Role::Prostitute),
            _ => Role::ALL.into_iter().find(|r| r.name() == s),
        }
    }
    /// E19: whether the Role Prostitute may borrow this role: a town role
    /// with a move to make, never the Lucky or the Deputy. The Chosen's
    /// secret votes count as a move (the seed excludes only those two).
    pub const fn borrowable(self) -> bool {
        matches!(self.camp(), Camp::Town)
            && !matches!(self, Role::Lucky | Role::Deputy | Role::Prostitute)
            && !matches!(self.borrowed_move(), NightAbility::None)
    }

    /// E19: the move the Role Prostitute makes when she borrows this role:
    /// its night move, or the Chosen's secret votes (E16).
    pub const fn borrowed_move(self) -> NightAbility {
        match self {
            Role::Chosen => NightAbility::Votes,
            _ => self.info().night,
        }
    }
}

/// A set of roles as a bitset (the Role Prostitute's used roles, E19).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RoleSet(pub u32);

impl RoleSet {
    /// No role.
    pub const EMPTY: RoleSet = RoleSet(0);
    /// Whether `r` is in the set.
    #[inline]
    pub const fn contains(self, r: Role) -> bool {
        (self.0 >> r as u32) & 1 == 1
    }
    /// Adds `r`.
    #[inline]
    pub fn insert(&mut self, r: Role) {
        self.0 |= 1 << r as u32;
    }
    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// How many roles it holds.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// The roles of `self` not in `o`.
    #[inline]
    pub const fn minus(self, o: RoleSet) -> RoleSet {
        RoleSet(self.0 & !o.0)
    }
    /// The roles of either.
    #[inline]
    pub const fn union(self, o: RoleSet) -> RoleSet {
        RoleSet(self.0 | o.0)
    }
    /// The roles it holds, in role order.
    pub fn iter(self) -> impl Iterator<Item = Role> {
        Role::ALL.into_iter().filter(move |&r| self.contains(r))
    }
    /// E8/E12: the member that ranks first (the Actor's default
    /// appointment: the best-ranked vacancy).
    pub fn best_ranked(self) -> Option<Role> {
        self.iter().min_by_key(|r| r.info().rank)
    }
    /// The set of `r` alone.
    #[inline]
    pub const fn single(r: Role) -> RoleSet {
        RoleSet(1 << r as u32)
    }
    /// The `k`-th member in role order.
    pub fn nth(self, k: u32) -> Option<Role> {
        self.iter().nth(k as usize)
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Display for Camp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_match_their_index() {
        for (i, info) in ROLE_INFO.iter().enumerate() {
            assert_eq!(info.role as usize, i, "row {i} is {}", info.name);
            assert_eq!(Role::from_name(info.name), Some(info.role));
        }
        for (i, a) in NightAbility::MOVES.iter().enumerate() {
            assert_eq!(a.index(), i + 1, "{a:?}");
        }
    }

    #[test]
    fn e1_twenty_extended_roles_in_three_camps() {
        let ext: Vec<&RoleInfo> = ROLE_INFO.iter().filter(|i| i.set == RuleSet::Extended).collect();
        assert_eq!(ext.len(), 20);
        let count = |c: Camp| ext.iter().filter(|i| i.camp == c).count();
        assert_eq!((count(Camp::Mafia), count(Camp::Town), count(Camp::Bandits)), (5, 10, 5));
    }
}
