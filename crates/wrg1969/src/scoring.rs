//! Scoring a battle from its state: terrain objectives held (WRG-VIC-02, -03, WRG-R-40) and
//! the final score of remaining figures plus terrain (WRG-VIC-01, WRG-R-39).

use crate::Data;
use crate::ground::reach_on_table;
use crate::report::{Note, Total};
use crate::situation::unit_sees;
use crate::state::{Motion, State, Unit, remaining_points};
use crate::victory::{Hold, Standing, TERRAIN_POINTS_MAX, feature_points, hold, score};
use tabletop::geometry::Point;
use tabletop::rules::Side;

fn footprint(data: &Data, u: &Unit) -> tabletop::geometry::Rect {
    u.block.footprint(data, u.troop, u.at, u.facing)
}

/// Whether some enemy unit could charge `holder` next period: it sees it, and its charge
/// along the straight line, paying terrain, reaches the holder's footprint (WRG-R-40).
pub fn chargeable(data: &Data, state: &State, holder: &Unit) -> bool {
    state
        .units
        .iter()
        .filter(|e| e.side != holder.side && e.on_table() && e.motion != Motion::Routing)
        .any(|e| {
            let Some(charge) = data.moves(e.troop).charge else { return false };
            // The cheap tests first: no charge covers more than its distance.
            let gap = footprint(data, e).distance(&footprint(data, holder));
            let need = gap.min(e.at.distance(holder.at));
            if need > charge + 1e-9 {
                return false;
            }
            let path = [e.at, holder.at];
            let (a, _) = reach_on_table(data, &state.table, e.troop, &path, charge, 0.0);
            // The standard travels the gap plus half the charger's own depth to its front.
            a.distance + 1e-9 >= need && unit_sees(state, e, holder)
        })
}

/// How near an objective a unit must stand to block the enemy's way to it (WRG-VIC-02; not
/// in the source: the engine's ruling).
pub const BLOCKING_REACH: f64 = 6.0;

/// Each side's hold on objective `k` (WRG-VIC-02, -03). A side occupies it when one of its
/// units' standards stands in it and no enemy's does; with no standard of either side in it,
/// a side blocks it when the straight way to it from every enemy unit in play runs through one
/// of its units standing within [`BLOCKING_REACH`] of it. Held either way, the holders keep
/// its full value unless an enemy could charge one of them next period (half).
pub fn objective_hold(data: &Data, state: &State, k: usize) -> [Hold; 2] {
    objective_holders(data, state, k).map(|h| h.map_or(Hold::Nobody, |h| h.hold))
}

/// How a side holds an objective (WRG-VIC-02, -03).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holding {
    /// Its hold: secure or contested.
    pub hold: Hold,
    /// It occupies the objective (else it blocks the enemy's way to it).
    pub occupies: bool,
    /// The units that hold it.
    pub units: Vec<u16>,
}

/// Each side's hold on objective `k` with how it holds it (WRG-VIC-02, -03).
pub fn objective_holders(data: &Data, state: &State, k: usize) -> [Option<Holding>; 2] {
    let mut out = [None, None];
    let Some(obj) = state.objectives.get(k) else { return out };
    let Some(area) = state.table.areas.get(obj.area) else { return out };
    let standing = |u: &&Unit| u.on_table() && u.motion != Motion::Routing;
    let inside = |u: &Unit| area.polygon.contains(u.at);
    let occupiers: Vec<&Unit> = state.units.iter().filter(standing).filter(|u| inside(u)).collect();
    for side in Side::BOTH {
        let mine: Vec<&Unit> = occupiers.iter().copied().filter(|u| u.side == side).collect();
        let theirs = occupiers.iter().any(|u| u.side != side);
        let (occupies, holders) = if theirs {
            continue;
        } else if !mine.is_empty() {
            (true, mine)
        } else if occupiers.is_empty() {
            match blockers(data, state, side, &area.polygon) {
                Some(b) => (false, b),
                None => continue,
            }
        } else {
            continue;
        };
        let enemy_can_charge = holders.iter().any(|u| chargeable(data, state, u));
        let hold = hold(Standing { occupies, blocks: !occupies, enemy_can_charge });
        let units = holders.iter().map(|u| u.id).collect();
        out[side.index()] = Some(Holding { hold, occupies, units });
    }
    out
}

/// The units of `side` that block the enemy's direct way to `objective`, if they block it:
/// every enemy unit in play finds the straight line from its standard to the objective's
/// centre crossed by one of them, each standing within [`BLOCKING_REACH`] of the objective
/// (WRG-VIC-02).
fn blockers<'a>(
    data: &Data,
    state: &'a State,
    side: Side,
    objective: &tabletop::terrain::Polygon,
) -> Option<Vec<&'a Unit>> {
    let centre = objective.centroid()?;
    let near: Vec<(&Unit, tabletop::geometry::Rect)> = state
        .units
        .iter()
        .filter(|u| u.side == side && u.on_table() && u.motion != Motion::Routing)
        .map(|u| (u, footprint(data, u)))
        .filter(|(_, r)| {
            r.corners().iter().any(|&c| objective.contains(c))
                || objective.distance_to_boundary(r.centre) <= BLOCKING_REACH + r.half_diagonal()
        })
        .collect();
    if near.is_empty() {
        return None;
    }
    let mut used: Vec<&Unit> = Vec::new();
    for e in state.units.iter().filter(|e| e.side != side && e.on_table() && e.rout.is_none()) {
        let (u, _) = near.iter().find(|(_, r)| crosses(r, e.at, centre))?;
        if !used.iter().any(|x| x.id == u.id) {
            used.push(u);
        }
    }
    if used.is_empty() {
        // No enemy in play: the nearest unit holds the way.
        used.push(near[0].0);
    }
    used.sort_by_key(|u| u.id);
    Some(used)
}

/// Whether the segment from `a` to `b` passes through the rectangle.
fn crosses(r: &tabletop::geometry::Rect, a: Point, b: Point) -> bool {
    if r.contains(a) || r.contains(b) {
        return true;
    }
    let c = r.corners();
    (0..4).any(|i| tabletop::geometry::segment_intersection(a, b, c[i], c[(i + 1) % 4]).is_some())
}

/// The final score told for the log: each side's total with its parts — each unit's remaining
/// figures at their points, the General, each objective held (in full or by half), and the cap
/// on terrain points (WRG-VIC-01 .. -03, WRG-R-39).
pub fn score_note(data: &Data, state: &State) -> Note {
    let scores = scores(data, state);
    let mut note = Note::new(
        "WRG-VIC-01",
        format!("The battle ends: red scores {}, blue {}", scores[0], scores[1]),
    );
    let holders: Vec<[Option<Holding>; 2]> =
        (0..state.objectives.len()).map(|k| objective_holders(data, state, k)).collect();
    for side in Side::BOTH {
        let mut t = Total::new(format!("{side}'s score"));
        for u in state.units.iter().filter(|u| u.side == side && u.on_table()) {
            let price = data.price(u.troop, u.status);
            let what = format!("{} ({} at {price})", u.name, figures(u.block.figures));
            t = t.plus("WRG-VIC-01", what, f64::from(u.block.figures * price));
        }
        if state.generals.iter().any(|g| g.side == side && !g.risk.fallen(data)) {
            let price = data.general_price(crate::model::Status::Regular);
            t = t.plus("WRG-VIC-01", "the General", f64::from(price));
        }
        let mut terrain = 0;
        for (k, obj) in state.objectives.iter().enumerate() {
            let Some(Holding { hold, occupies, .. }) = &holders[k][side.index()] else { continue };
            let name = state.table.areas.get(obj.area).map_or("?", |a| a.name.as_str());
            let how = if *occupies { "occupied" } else { "its way blocked" };
            let points = feature_points(obj.points, *hold);
            terrain += points;
            let (rule, what) = match hold {
                Hold::Contested => {
                    ("WRG-VIC-03", format!("{name}, {how}, under threat of a charge"))
                }
                _ => ("WRG-VIC-02", format!("{name}, {how}")),
            };
            t = t.plus(rule, what, f64::from(points));
        }
        if terrain > TERRAIN_POINTS_MAX {
            let over = f64::from(terrain - TERRAIN_POINTS_MAX);
            t = t.plus("WRG-VIC-01", "terrain points over the 200 cap", -over);
        }
        note = note.with_total(t);
    }
    note.and("WRG-R-39")
}

/// The final scores, red then blue: remaining figures' points plus terrain (WRG-VIC-01).
pub fn scores(data: &Data, state: &State) -> [u32; 2] {
    let mut terrain = [0u32; 2];
    for (k, obj) in state.objectives.iter().enumerate() {
        let h = objective_hold(data, state, k);
        for side in Side::BOTH {
            terrain[side.index()] += feature_points(obj.points, h[side.index()]);
        }
    }
    Side::BOTH.map(|s| score(remaining_points(data, state, s), terrain[s.index()]))
}

/// "1 figure", "12 figures".
fn figures(n: u32) -> String {
    if n == 1 { "1 figure".into() } else { format!("{n} figures") }
}
