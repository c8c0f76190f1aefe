//! Roles and camps as closed enums with constant tables.
//!
//! Every role is one row of [`ROLE_INFO`]; adding a role (the extended set of
//! `extended.md`) is a new variant and a new row, not a new code path in the
//! hot loop.

/// A camp (team). Three camps exist so the extended rules (E1) fit: town,
/// mafia and bandits. The classic set uses the first two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Camp {
    Town = 0,
    Mafia = 1,
    Bandits = 2,
}

impl Camp {
    pub const COUNT: usize = 3;
    pub const ALL: [Camp; 3] = [Camp::Town, Camp::Mafia, Camp::Bandits];

    pub const fn name(self) -> &'static str {
        match self {
            Camp::Town => "town",
            Camp::Mafia => "mafia",
            Camp::Bandits => "bandits",
        }
    }

    pub fn from_name(s: &str) -> Option<Camp> {
        Camp::ALL.into_iter().find(|c| c.name() == s)
    }

    /// Whether members of the camp know each other from the start (C2, E1).
    pub const fn members_know_each_other(self) -> bool {
        matches!(self, Camp::Mafia)
    }
}

/// What a role may do at night. The night resolver dispatches on this, in
/// the order given by the night-step table (see `night.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NightAbility {
    /// No individual move (the camp kill is a camp move, see [`RoleInfo::shoots`]).
    None,
    /// C5: learns whether the target holds `role` (the Don: "is he the Commissar?").
    CheckIsRole(Role),
    /// C6: learns the target's camp (the Commissar).
    CheckCamp,
}

/// A role. Plain players are roles too (`Citizen`, `Mafioso`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    Citizen = 0,
    Commissar = 1,
    Mafioso = 2,
    Don = 3,
}

/// One row of the role table.
#[derive(Clone, Copy, Debug)]
pub struct RoleInfo {
    pub role: Role,
    /// The name used in setup files, on the command line and in tables.
    pub name: &'static str,
    pub camp: Camp,
    /// Takes part in the camp's night kill (C4).
    pub shoots: bool,
    pub night: NightAbility,
    /// At most one of this role in a setup (C1 deals one Don, one Commissar).
    pub unique: bool,
    /// A plain player without a role of his own (E4, E7 tell them apart).
    pub plain: bool,
}

/// The role table, indexed by `Role as usize`.
pub const ROLE_INFO: [RoleInfo; Role::COUNT] = [
    RoleInfo {
        role: Role::Citizen,
        name: "citizen",
        camp: Camp::Town,
        shoots: false,
        night: NightAbility::None,
        unique: false,
        plain: true,
    },
    RoleInfo {
        role: Role::Commissar,
        name: "commissar",
        camp: Camp::Town,
        shoots: false,
        night: NightAbility::CheckCamp,
        unique: true,
        plain: false,
    },
    RoleInfo {
        role: Role::Mafioso,
        name: "mafioso",
        camp: Camp::Mafia,
        shoots: true,
        night: NightAbility::None,
        unique: false,
        plain: true,
    },
    RoleInfo {
        role: Role::Don,
        name: "don",
        camp: Camp::Mafia,
        shoots: true,
        night: NightAbility::CheckIsRole(Role::Commissar),
        unique: true,
        plain: false,
    },
];

impl Role {
    pub const COUNT: usize = 4;
    pub const ALL: [Role; Role::COUNT] = [Role::Citizen, Role::Commissar, Role::Mafioso, Role::Don];

    #[inline]
    pub const fn info(self) -> &'static RoleInfo {
        &ROLE_INFO[self as usize]
    }
    #[inline]
    pub const fn camp(self) -> Camp {
        self.info().camp
    }
    pub const fn name(self) -> &'static str {
        self.info().name
    }
    pub fn from_name(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == s)
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
    }
}
