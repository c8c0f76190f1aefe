//! The grid of an experiment: axes that vary a base setup and lineup (a
//! rule, a role's count, a replaced role, the mafia's size, the player
//! count, a whole lineup or one key of it), and the points, every
//! combination of the axes' values. `run --sweep`, `compare`, `balance`,
//! experiment files and studies all vary a setup this way. Plain data over
//! the engine and the agents: imports nothing of `sim`.
//!
//! The changes of a point apply in a fixed order, whatever the order of the
//! axes: rules, role counts, replace, mafia, players, agents.

use mafia_agents::Lineup;
use mafia_engine::{Camp, Role, Setup};

/// What an axis varies.
#[derive(Clone, Debug, PartialEq)]
pub enum AxisKind {
    /// `rules.KEY`.
    Rule(String),
    /// `roles.ROLE`: the count of a role.
    Count(Role),
    /// `replace`: one player of the role (or `none`) becomes a plain player.
    Replace,
    /// `mafia`: the size of the mafia camp (mafiosi added or removed).
    Mafia,
    /// `players`: the player count (citizens added or removed).
    Players,
    /// `agents`: a whole lineup spec.
    Agents,
    /// `agents.KEY`: the strategy of a camp, role or seat.
    AgentsKey(String),
}

impl AxisKind {
    /// Reads an axis name; `Err` says what names exist.
    pub fn parse(name: &str) -> Result<AxisKind, String> {
        let name = name.trim();
        if let Some(k) = name.strip_prefix("rules.") {
            let mut probe = mafia_engine::Rules::default();
            let default = probe.get(k).ok_or_else(|| format!("unknown rule `{k}` (see `mafia rules`)"))?;
            probe.set(k, &default).map_err(|e| e.to_string())?;
            return Ok(AxisKind::Rule(k.to_string()));
        }
        if let Some(r) = name.strip_prefix("roles.") {
            return Role::from_name(r).map(AxisKind::Count).ok_or_else(|| format!("`{r}` is not a role"));
        }
        if let Some(k) = name.strip_prefix("agents.") {
            return Ok(AxisKind::AgentsKey(k.to_string()));
        }
        match name {
            "replace" => Ok(AxisKind::Replace),
            "mafia" => Ok(AxisKind::Mafia),
            "players" => Ok(AxisKind::Players),
            "agents" => Ok(AxisKind::Agents),
            // A bare rule key, as `--rule` and `--sweep` write it.
            _ if mafia_engine::Rules::default().get(name).is_some() => Ok(AxisKind::Rule(name.to_string())),
            _ => Err(format!(
                "unknown rule `{name}` (see `mafia rules`), and not an axis: rules.KEY, roles.ROLE, replace, mafia, players, agents or agents.KEY"
            )),
        }
    }

    /// The order in which a point's changes apply.
    fn rank(&self) -> u8 {
        match self {
            AxisKind::Rule(_) => 0,
            AxisKind::Count(_) => 1,
            AxisKind::Replace => 2,
            AxisKind::Mafia => 3,
            AxisKind::Players => 4,
            AxisKind::Agents => 5,
            AxisKind::AgentsKey(_) => 6,
        }
    }
}

/// One axis of a grid: its name (the table's column) and values. In a
/// counts file it is its name and values, checked again when read.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(into = "AxisData", try_from = "AxisData")]
pub struct Axis {
    /// The axis's name: its key in the grid and its column in the table.
    pub name: String,
    /// What it varies.
    pub kind: AxisKind,
    /// Its values, as written.
    pub values: Vec<String>,
}

/// An [`Axis`] as a counts file writes it.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[schemars(rename = "Axis")]
pub struct AxisData {
    name: String,
    values: Vec<String>,
}

impl From<Axis> for AxisData {
    fn from(a: Axis) -> AxisData {
        AxisData { name: a.name, values: a.values }
    }
}

impl schemars::JsonSchema for Axis {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        AxisData::schema_name()
    }

    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        AxisData::json_schema(g)
    }
}

impl TryFrom<AxisData> for Axis {
    type Error = String;
    fn try_from(a: AxisData) -> Result<Axis, String> {
        Axis::new(&a.name, a.values)
    }
}

impl Axis {
    /// An axis of key `name` over `values`, checked (the key must be a grid key; `A..B` ranges are expanded by the caller).
    pub fn new(name: &str, values: Vec<String>) -> Result<Axis, String> {
        let kind = AxisKind::parse(name)?;
        if values.is_empty() {
            return Err(format!("{name}: no values"));
        }
        for (i, v) in values.iter().enumerate() {
            if values[..i].contains(v) {
                return Err(format!("{name}: `{v}` is given twice"));
            }
            check_value(&kind, v).map_err(|e| format!("{name} = {v}: {e}"))?;
        }
        Ok(Axis { name: name.trim().to_string(), kind, values })
    }

    /// `KEY=V1,V2,…` (`run --sweep` and `balance --grid` write axes so);
    /// `rules.` may be left out of a rule key, and `A..B` is every integer
    /// from A to B.
    pub fn from_flag(flag: &str) -> Result<Axis, String> {
        let (k, vs) = flag.split_once('=').ok_or_else(|| format!("{flag}: expected KEY=V1,V2,…"))?;
        let k = k.trim();
        let grid_key = k.contains('.') || ["replace", "mafia", "players", "agents"].contains(&k);
        let name = if !grid_key { format!("rules.{k}") } else { k.to_string() };
        let mut values = Vec::new();
        for v in vs.split(',').map(str::trim).filter(|v| !v.is_empty()) {
            match v.split_once("..") {
                Some((a, b)) if a.parse::<u64>().is_ok() && b.parse::<u64>().is_ok() => {
                    let (a, b) = (a.parse::<u64>().unwrap_or(0), b.parse::<u64>().unwrap_or(0));
                    if b < a || b - a > 1000 {
                        return Err(format!("{flag}: the range {v} is empty or longer than 1000"));
                    }
                    values.extend((a..=b).map(|x| x.to_string()));
                }
                _ => values.push(v.to_string()),
            }
        }
        Axis::new(&name, values).map_err(|e| format!("{flag}: {e}"))
    }
}

/// Checks one value of an axis without a setup at hand.
fn check_value(kind: &AxisKind, v: &str) -> Result<(), String> {
    match kind {
        AxisKind::Rule(k) => mafia_engine::Rules::default().set(k, v).map_err(|e| e.to_string()),
        AxisKind::Count(_) | AxisKind::Mafia | AxisKind::Players => {
            v.parse::<u64>().map(|_| ()).map_err(|_| "give a whole number".to_string())
        }
        AxisKind::Replace if v == "none" || Role::from_name(v).is_some() => Ok(()),
        AxisKind::Replace => Err("give a role or `none`".into()),
        AxisKind::Agents => crate::library::lineup().apply(v).map_err(|e| e.to_string()),
        AxisKind::AgentsKey(k) => crate::library::lineup().set(k, v).map_err(|e| e.to_string()),
    }
}

/// The plain player who replaces a role of `camp` (bandits have none: a citizen).
fn plain_of(camp: Camp) -> Role {
    match camp {
        Camp::Mafia => Role::Mafioso,
        Camp::Town | Camp::Bandits => Role::Citizen,
    }
}

/// Applies one point's values (`values[a]` for `axes[a]`) to a base setup
/// and lineup. `Err` says why the point makes no game.
pub fn apply_point(setup: &mut Setup, lineup: &mut Lineup, axes: &[Axis], values: &[&str]) -> Result<(), String> {
    let mut order: Vec<usize> = (0..axes.len()).collect();
    order.sort_by_key(|&a| axes[a].kind.rank());
    for a in order {
        let v = values[a];
        let count = |v: &str| v.parse::<u64>().map_err(|_| format!("{} = {v}: give a whole number", axes[a].name));
        match &axes[a].kind {
            AxisKind::Rule(k) => setup.rules.set(k, v).map_err(|e| format!("{} = {v}: {e}", axes[a].name))?,
            AxisKind::Count(r) => setup.counts[*r as usize] = count(v)?,
            AxisKind::Replace if v == "none" => {}
            AxisKind::Replace => {
                let r = Role::from_name(v).ok_or_else(|| format!("replace = {v}: not a role"))?;
                if setup.counts[r as usize] == 0 {
                    return Err(format!("replace = {v}: the setup deals no {}", r.name()));
                }
                setup.counts[r as usize] -= 1;
                setup.counts[plain_of(r.camp()) as usize] += 1;
            }
            AxisKind::Mafia => {
                let others: u64 = Role::ALL
                    .iter()
                    .filter(|r| r.camp() == Camp::Mafia && **r != Role::Mafioso)
                    .map(|&r| setup.counts[r as usize])
                    .sum();
                let want = count(v)?;
                setup.counts[Role::Mafioso as usize] = want
                    .checked_sub(others)
                    .ok_or_else(|| format!("mafia = {v}: the setup has {others} mafia who are not mafiosi"))?;
            }
            AxisKind::Players => {
                let others = setup.players() - setup.counts[Role::Citizen as usize];
                let want = count(v)?;
                setup.counts[Role::Citizen as usize] = want
                    .checked_sub(others)
                    .ok_or_else(|| format!("players = {v}: the setup has {others} players who are not citizens"))?;
            }
            AxisKind::Agents => lineup.apply(v).map_err(|e| format!("agents = {v}: {e}"))?,
            AxisKind::AgentsKey(k) => lineup.set(k, v).map_err(|e| format!("{} = {v}: {e}", axes[a].name))?,
        }
    }
    Ok(())
}

/// The most points a grid may make: each point holds its setup and lineup
/// in memory before any game is played, and a study of more points is
/// better split into several experiments.
pub const MAX_POINTS: u64 = 10_000;

/// Checks a grid as a whole: no two axes vary one setting (`absence` and
/// `rules.absence` would label rows with values never played: the later
/// axis would silently win), and the axes make at most [`MAX_POINTS`]
/// points. The message names the axes.
pub fn check_grid(axes: &[Axis]) -> Result<(), String> {
    for (i, a) in axes.iter().enumerate() {
        if let Some(b) = axes[..i].iter().find(|b| b.kind == a.kind) {
            return Err(format!("`{}` and `{}` vary the same setting: give it one axis", b.name, a.name));
        }
    }
    let sizes: Vec<u64> = axes.iter().map(|a| a.values.len() as u64).collect();
    let points = sizes.iter().try_fold(1u64, |p, &n| p.checked_mul(n)).unwrap_or(u64::MAX);
    if points > MAX_POINTS {
        let product = sizes.iter().map(u64::to_string).collect::<Vec<_>>().join(" × ");
        return Err(format!(
            "the grid makes {points} points ({product}): at most {MAX_POINTS} (split it into several experiments)"
        ));
    }
    Ok(())
}

/// Every combination of the axes' values, the first axis slowest (the
/// grid checked by [`check_grid`]).
pub fn combinations(axes: &[Axis]) -> Result<Vec<Vec<usize>>, String> {
    check_grid(axes)?;
    let mut out: Vec<Vec<usize>> = vec![vec![]];
    for axis in axes {
        out =
            out.into_iter().flat_map(|base| (0..axis.values.len()).map(move |v| [&base[..], &[v]].concat())).collect();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(name: &str, values: &[&str]) -> Axis {
        Axis::new(name, values.iter().map(|v| v.to_string()).collect()).unwrap()
    }

    #[test]
    fn two_axes_of_one_setting_are_refused_whatever_they_are_called() {
        let bare = axis("absence", &["0", "0.1"]);
        let full = axis("rules.absence", &["0.2"]);
        let e = check_grid(&[bare.clone(), full]).unwrap_err();
        assert!(e.contains("`absence` and `rules.absence`") && e.contains("one axis"), "{e}");
        assert!(check_grid(&[axis("roles.doctor", &["0", "1"]), axis("roles.doctor", &["1"])]).is_err());
        // Different settings are fine, and so is a rule beside a role count.
        assert!(check_grid(&[bare, axis("rules.modkill", &["0"]), axis("roles.doctor", &["0"])]).is_ok());
    }

    #[test]
    fn a_grid_of_more_points_than_the_cap_is_refused_before_any_is_made() {
        let big = |name: &str, n: u64| Axis::new(name, (1..=n).map(|v| v.to_string()).collect()).unwrap();
        let e = combinations(&[big("rules.day_cap", 1000), big("rules.runoff_rounds", 100)]).unwrap_err();
        assert!(e.contains("100000 points (1000 × 100)") && e.contains("at most 10000"), "{e}");
        assert_eq!(combinations(&[big("rules.day_cap", 100), big("rules.runoff_rounds", 100)]).unwrap().len(), 10_000);
    }
}
