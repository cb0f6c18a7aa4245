//! Scoring a battle from its state: terrain objectives held (WRG-VIC-02, -03, WRG-R-40) and
//! the final score of remaining figures plus terrain (WRG-VIC-01, WRG-R-39).

use crate::Data;
use crate::ground::reach_on_table;
use crate::situation::unit_sees;
use crate::state::{Motion, State, Unit, remaining_points};
use crate::victory::{Hold, Standing, feature_points, hold, score};
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

/// Each side's hold on objective `k` (WRG-VIC-02, -03). A side holds it when one of its
/// units' standards stands in it and no enemy's does.
pub fn objective_hold(data: &Data, state: &State, k: usize) -> [Hold; 2] {
    let mut out = [Hold::Nobody; 2];
    let Some(obj) = state.objectives.get(k) else { return out };
    let Some(area) = state.table.areas.get(obj.area) else { return out };
    let inside =
        |u: &Unit| u.on_table() && u.motion != Motion::Routing && area.polygon.contains(u.at);
    let occupiers: Vec<&Unit> = state.units.iter().filter(|u| inside(u)).collect();
    for side in Side::BOTH {
        let mine: Vec<&&Unit> = occupiers.iter().filter(|u| u.side == side).collect();
        let theirs = occupiers.iter().any(|u| u.side != side);
        if mine.is_empty() || theirs {
            continue;
        }
        let enemy_can_charge = mine.iter().any(|u| chargeable(data, state, u));
        out[side.index()] = hold(Standing { occupies: true, blocks: false, enemy_can_charge });
    }
    out
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
