//! The points of a grid over a base setup, each checked (setup, rules,
//! lineup) before any game is played.

use super::{GameArgs, apply_rules, load_with};
use crate::error::Error;
use crate::exec::{Job, Point, Points};
use crate::grid::{Axis, apply_point, combinations};
use crate::output::Variant;
use mafia_engine::Game;

/// Makes the points of `axes` over the setup `setup_name` with the lineup
/// spec `agents` and the rule settings `rules`: every point is checked
/// (setup, rules, lineup) before any game is played.
pub fn make_points(
    base: &GameArgs,
    setup_name: &str,
    rules: &[(String, String)],
    axes: &[Axis],
    skip_invalid: bool,
) -> Result<Points, Error> {
    let settings = base.ext.settings()?;
    let mut pools = Vec::new();
    let loaded = load_with(setup_name, base.agents.as_deref(), Some((&settings, &mut pools)))?;
    let mut points = Vec::new();
    let mut skipped = Vec::new();
    for combo in combinations(axes).map_err(Error::Invalid)? {
        let values: Vec<&str> = combo.iter().enumerate().map(|(a, &v)| axes[a].values[v].as_str()).collect();
        let label = axes.iter().zip(&values).map(|(a, v)| format!("{}={v}", a.name)).collect::<Vec<_>>().join(" ");
        let made = (|| -> Result<Job, String> {
            let mut setup = loaded.setup.clone();
            for (k, v) in rules {
                setup.rules.set(k, v).map_err(|e| format!("rules.{k} = {v}: {e}"))?;
            }
            apply_rules(&mut setup, &base.rules).map_err(|e| e.to_string())?;
            let mut lineup = loaded.lineup.clone();
            apply_point(&mut setup, &mut lineup, axes, &values)?;
            let game = Game::new(&setup).map_err(|e| {
                e.problems.iter().map(|p| format!("{}: {}", p.path, p.message)).collect::<Vec<_>>().join("; ")
            })?;
            lineup.check_roles(game.roles_present()).map_err(|e| e.to_string())?;
            lineup.check_seats(game.players()).map_err(|e| e.to_string())?;
            let variant = Variant {
                setup: setup.name.clone(),
                rules: game.rules_label(),
                agents: lineup.label(),
                players: game.players(),
            };
            Ok(Job { game, lineup, variant, ext: pools.clone() })
        })();
        match made {
            Ok(job) => points.push(Point { values: values.iter().map(|v| v.to_string()).collect(), job }),
            Err(e) if skip_invalid => skipped.push((label, e)),
            Err(e) if label.is_empty() => return Err(Error::Setup(format!("setup {setup_name}: {e}"))),
            Err(e) => return Err(Error::Setup(format!("the point {label} makes no game: {e}"))),
        }
    }
    if points.is_empty() {
        return Err(Error::Setup(format!("no point of the grid makes a game (the first: {})", skipped[0].1)));
    }
    Ok(Points { axes: axes.to_vec(), points, skipped })
}
