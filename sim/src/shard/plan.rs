//! What each command that can shard needs, besides the counts, to build its
//! tables: plain data, stored in the counts file, so `merge` needs neither
//! the setup files nor the agents. The renderers that turn a plan and its
//! counts into tables are the commands' own (`commands/run.rs`,
//! `experiment.rs`, `compare.rs`).

use crate::exec::{Points, point_camps};
use crate::grid::Axis;
use crate::output::Variant;
use crate::stats::Sprt;
use mafia_engine::Camp;
use serde::{Deserialize, Serialize};

/// What a command needs, besides the counts, to build its tables: plain
/// data, so `merge` needs neither the setup files nor the agents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Plan {
    Run(RunPlan),
    Experiment(ExperimentPlan),
    Compare(ComparePlan),
}

impl Plan {
    pub fn command(&self) -> &'static str {
        match self {
            Plan::Run(_) => "run",
            Plan::Experiment(_) => "experiment",
            Plan::Compare(_) => "compare",
        }
    }
}

/// What `run`'s tables need besides the counts (see [`crate::shard::Plan`]):
/// per variant its label and the camps it deals, and the stopping rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RunPlan {
    pub variants: Vec<PointInfo>,
    pub precision: Option<f64>,
    pub games: u64,
}

/// What an experiment's output needs besides the counts (see
/// [`crate::shard::Plan`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ExperimentPlan {
    pub name: String,
    pub layout: Layout,
    pub reference: Option<(String, String)>,
    pub precision: Option<f64>,
    pub games: u64,
}

/// What an experiment's table needs of its points: the axes, and per point
/// its values, its variant and the camps it deals. Plain data: a counts
/// file ([`crate::shard`]) stores it, so `merge` builds the same table
/// without the setup files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Layout {
    pub axes: Vec<Axis>,
    pub points: Vec<PointInfo>,
}

impl Layout {
    /// What the table needs of the points (plain data).
    pub fn of(points: &Points) -> Layout {
        let infos = points
            .points
            .iter()
            .map(|p| PointInfo { values: p.values.clone(), variant: p.job.variant.clone(), camps: point_camps(&p.job) })
            .collect();
        Layout { axes: points.axes.clone(), points: infos }
    }
}

/// A point of a [`Layout`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PointInfo {
    pub values: Vec<String>,
    pub variant: Variant,
    #[serde(with = "camp_names")]
    #[schemars(with = "Vec<String>")]
    pub camps: Vec<Camp>,
}

impl PointInfo {
    /// `axis=value` pairs, for labels.
    pub fn label(&self, axes: &[Axis]) -> String {
        axes.iter().zip(&self.values).map(|(a, v)| format!("{}={v}", a.name)).collect::<Vec<_>>().join(" ")
    }
}

/// What a comparison's output needs besides the counts (see
/// [`crate::shard::Plan`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ComparePlan {
    /// The variants' labels, A then B.
    pub labels: [String; 2],
    #[serde(with = "camp_names")]
    #[schemars(with = "Vec<String>")]
    pub camps: Vec<Camp>,
    pub precision: Option<f64>,
    pub games: u64,
    pub sprt: Option<Sprt>,
    #[serde(with = "camp_name")]
    #[schemars(with = "String")]
    pub camp: Camp,
}

/// Camps as their names in a counts file.
pub mod camp_names {
    use mafia_engine::Camp;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(camps: &[Camp], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(camps.iter().map(|c| c.name()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Camp>, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        names
            .iter()
            .map(|n| Camp::from_name(n).ok_or_else(|| serde::de::Error::custom(format!("`{n}` is not a camp"))))
            .collect()
    }
}

/// One camp as its name.
pub mod camp_name {
    use mafia_engine::Camp;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(camp: &Camp, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(camp.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Camp, D::Error> {
        let n = String::deserialize(d)?;
        Camp::from_name(&n).ok_or_else(|| serde::de::Error::custom(format!("`{n}` is not a camp")))
    }
}
