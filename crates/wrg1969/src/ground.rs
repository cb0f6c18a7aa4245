//! Moving over the real table: the WRG prices of each piece of ground as a
//! [`CostModel`], and how far an allowance carries a unit along a path, with the obstacle
//! rule applied to the whole period's allowance (WRG-TERR-01, -03, -04, -05, -07,
//! WRG-CHAMP-02, WRG-R-31).

use crate::Data;
use crate::model::TroopType;
use crate::moves::{Going, cost_per_inch, obstacle_allowance};
use tabletop::geometry::{Point, Vec2};
use tabletop::terrain::cost::{Advance, CostModel, advance, path_cost};
use tabletop::terrain::{AreaKind, Ground, LineKind, Table};

/// The WRG price of ground for one troop type.
pub struct WrgGround<'a> {
    /// The tables.
    pub data: &'a Data,
    /// Who moves.
    pub troop: TroopType,
}

impl WrgGround<'_> {
    /// The kind of going of a piece of ground.
    pub fn going(&self, table: &Table, g: &Ground) -> Option<Going> {
        let mut road = false;
        let mut stream = false;
        for j in g.bands.iter() {
            let Some(line) = table.lines.get(j) else { continue };
            let crossing = g.in_ford(j) || g.bridges.contains(j);
            match line.kind {
                LineKind::PavedRoad | LineKind::DirtRoad => road = true,
                LineKind::River if !crossing => return None,
                LineKind::Stream if !crossing => stream = true,
                _ => {}
            }
        }
        if stream {
            return Some(Going::Stream);
        }
        if road {
            // Roads spare the bad going they run through, and give no bonus (WRG-TERR-05).
            return Some(Going::Road);
        }
        // Fords are no obstacle, whatever ground is drawn over them (WRG-TERR-03).
        if !g.fords.is_empty() {
            return Some(Going::Ford);
        }
        let bad_area = g.areas.iter().any(|i| {
            table.areas.get(i).is_some_and(|a| {
                matches!(
                    a.kind,
                    AreaKind::Wood
                        | AreaKind::DenseTrees
                        | AreaKind::Village
                        | AreaKind::Marsh
                        | AreaKind::Rough
                )
            })
        });
        if bad_area || g.rise.abs() > 1e-9 {
            return Some(Going::Bad);
        }
        Some(Going::Open)
    }
}

impl CostModel for WrgGround<'_> {
    fn multiplier(&self, table: &Table, ground: &Ground, _direction: Vec2) -> Option<f64> {
        self.going(table, ground).map(|g| cost_per_inch(self.data, self.troop, g))
    }

    fn crossing_cost(&self, _table: &Table, _feature: usize, _ground: &Ground) -> Option<f64> {
        // Obstacles cut the period's allowance instead of adding a surcharge (WRG-R-31).
        Some(0.0)
    }
}

/// Whether a path crosses a linear obstacle: a wall or hedge anywhere, a stream away from its
/// fords and bridges (WRG-TERR-01, WRG-TERR-03).
pub fn crosses_obstacle(data: &Data, table: &Table, troop: TroopType, path: &[Point]) -> bool {
    let model = WrgGround { data, troop };
    let Ok(cost) = path_cost(table, path, &model) else { return false };
    cost.crossings.iter().any(|c| {
        table
            .lines
            .get(c.feature)
            .is_some_and(|l| matches!(l.kind, LineKind::Wall | LineKind::Hedge))
    })
}

/// How far `allowance` carries a unit of `troop` along `path` this period, `before` inches of
/// it having gone on turns before the path: the obstacle rule first cuts the whole allowance
/// if the path crosses a linear obstacle, then each piece is paid at its going (WRG-TERR-01,
/// -04, -07, WRG-R-31). Returns the advance along the path and whether an obstacle cut it.
pub fn reach_on_table(
    data: &Data,
    table: &Table,
    troop: TroopType,
    path: &[Point],
    allowance: f64,
    before: f64,
) -> (Advance, bool) {
    let model = WrgGround { data, troop };
    let first = advance(table, path, &model, (allowance - before).max(0.0));
    let travelled: Vec<Point> = trim(path, first.distance);
    let cut = crosses_obstacle(data, table, troop, &travelled);
    if !cut {
        return (first, false);
    }
    let left = (obstacle_allowance(data, troop, allowance) - before).max(0.0);
    let cut = advance(table, path, &model, left);
    if crosses_obstacle(data, table, troop, &trim(path, cut.distance)) {
        return (cut, true);
    }
    // The cut allowance does not get it over this period: it goes up to the obstacle with
    // its whole allowance, and crosses next period (WRG-R-31).
    let at = first_wall(data, table, troop, &travelled).unwrap_or(0.0);
    let upto = trim(path, (at - STOP_SHORT_OF_OBSTACLE).max(0.0));
    (advance(table, &upto, &model, (allowance - before).max(0.0)), false)
}

/// How far short of a wall or hedge a unit that cannot get over it this period stops.
const STOP_SHORT_OF_OBSTACLE: f64 = 0.25;

/// Whether the table has any linear obstacle (a wall or hedge) that can cut a period's
/// allowance (WRG-TERR-01).
pub fn has_obstacles(table: &Table) -> bool {
    table.lines.iter().any(|l| matches!(l.kind, LineKind::Wall | LineKind::Hedge))
}

/// How far along `path` it first crosses a wall or hedge (WRG-TERR-01, -02).
pub fn first_wall(data: &Data, table: &Table, troop: TroopType, path: &[Point]) -> Option<f64> {
    if !has_obstacles(table) {
        return None;
    }
    let model = WrgGround { data, troop };
    let cost = match path_cost(table, path, &model) {
        Ok(c) => c,
        Err(b) => path_cost(table, &trim(path, b.distance), &model).unwrap_or_default(),
    };
    cost.crossings
        .iter()
        .find(|c| {
            table
                .lines
                .get(c.feature)
                .is_some_and(|l| matches!(l.kind, LineKind::Wall | LineKind::Hedge))
        })
        .map(|c| c.distance)
}

/// How far along `path` the first obstacle lies: a wall or hedge, the band of a stream or
/// river away from its fords and bridges, or ground the troops cannot enter
/// (WRG-PURS-03, WRG-TERR-01, WRG-TERR-03).
pub fn first_obstacle(data: &Data, table: &Table, troop: TroopType, path: &[Point]) -> Option<f64> {
    let model = WrgGround { data, troop };
    let (cost, blocked) = match path_cost(table, path, &model) {
        Ok(c) => (c, None),
        Err(b) => {
            let upto = trim(path, b.distance);
            (path_cost(table, &upto, &model).unwrap_or_default(), Some(b.distance))
        }
    };
    let mut first = blocked;
    let mut keep = |d: f64| {
        if first.is_none_or(|f| d < f) {
            first = Some(d);
        }
    };
    for p in &cost.pieces {
        let water = p.ground.bands.iter().any(|j| {
            table.lines.get(j).is_some_and(|l| {
                matches!(l.kind, LineKind::River | LineKind::Stream)
                    && !(p.ground.in_ford(j) || p.ground.bridges.contains(j))
            })
        });
        if water {
            keep(p.start);
            break;
        }
    }
    for c in &cost.crossings {
        if table
            .lines
            .get(c.feature)
            .is_some_and(|l| matches!(l.kind, LineKind::Wall | LineKind::Hedge))
        {
            keep(c.distance);
            break;
        }
    }
    first
}

/// Inches of allowance an inch of movement costs troops of `troop` on the ground at `at`
/// (going the way `facing`): 1 on open ground, ×2 or ×4 in bad going, the stream bed's rate
/// (WRG-TERR-04, -06, WRG-CHAMP-02). Wheels are paid at this rate.
pub fn going_multiplier(
    data: &Data,
    table: &Table,
    troop: TroopType,
    at: Point,
    facing: tabletop::geometry::Facing,
) -> f64 {
    if table.areas.is_empty() && table.lines.is_empty() {
        return 1.0;
    }
    let model = WrgGround { data, troop };
    let probe = [at, at + facing.vector() * 0.01];
    path_cost(table, &probe, &model)
        .ok()
        .and_then(|c| c.pieces.first().and_then(|p| model.going(table, &p.ground)))
        .map_or(1.0, |g| cost_per_inch(data, troop, g))
}

/// Whether troops of `troop` going straight from `from` to `to` meet ground they cannot
/// enter (a river away from its crossings, WRG-ROUT-04, WRG-AFTER-07).
pub fn impassable_between(
    data: &Data,
    table: &Table,
    troop: TroopType,
    from: Point,
    to: Point,
) -> bool {
    let model = WrgGround { data, troop };
    path_cost(table, &[from, to], &model).is_err()
}

/// The first `distance` inches of a polyline.
fn trim(path: &[Point], distance: f64) -> Vec<Point> {
    let mut out = Vec::with_capacity(path.len());
    let Some(&first) = path.first() else { return out };
    out.push(first);
    let mut left = distance;
    for w in path.windows(2) {
        let len = w[0].distance(w[1]);
        if len >= left {
            if len > 0.0 {
                out.push(w[0].lerp(w[1], left / len));
            }
            return out;
        }
        left -= len;
        out.push(w[1]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::diagnostics::Source;
    use tabletop::table_file::load_table;

    fn table(extra: &str) -> Table {
        let text = format!(
            "[table]\nwidth = 72.0\nheight = 48.0\n\n[[area]]\nname = \"Wood\"\nkind = \"wood\"\npoints = [[10, 10], [20, 10], [20, 20], [10, 20]]\n\n[[line]]\nname = \"Stream\"\nkind = \"stream\"\nwidth = 6.0\npoints = [[0, 30], [72, 30]]\n\n[[line.crossing]]\nkind = \"ford\"\nat = 50.0\nwidth = 6.0\n\n[[line]]\nname = \"Wall\"\nkind = \"wall\"\nwidth = 0.5\npoints = [[40, 0], [40, 20]]\n{extra}"
        );
        load_table(&Source::new("t.toml", text)).unwrap()
    }

    fn d() -> Data {
        Data::embedded().unwrap()
    }

    // Checks WRG-TERR-04.
    #[test]
    fn wrg_terr_04_woods_double_for_foot_quadruple_for_horse() {
        let (d, t) = (d(), table(""));
        let path = [Point::new(15.0, 5.0), Point::new(15.0, 19.0)];
        // 5" of open ground to the wood's edge, then 1" of allowance buys 0.5" of wood (foot).
        let (a, cut) = reach_on_table(&d, &t, TroopType::MediumInfantry, &path, 6.0, 0.0);
        assert!(!cut);
        assert!((a.distance - 5.5).abs() < 1e-9, "{a:?}");
        let (a, _) = reach_on_table(&d, &t, TroopType::MediumCavalry, &path, 8.0, 0.0);
        assert!((a.distance - 5.75).abs() < 1e-9, "{a:?}");
    }

    // Checks WRG-TERR-01.
    #[test]
    fn wrg_terr_01_crossing_a_wall_cuts_the_whole_allowance() {
        let (d, t) = (d(), table(""));
        let path = [Point::new(38.0, 5.0), Point::new(45.0, 5.0)];
        let (a, cut) = reach_on_table(&d, &t, TroopType::MediumInfantry, &path, 6.0, 0.0);
        assert!(cut);
        assert!((a.distance - 3.0).abs() < 1e-9, "{a:?}");
        // 3" from the wall, the cut allowance would not get it over: it goes up to the wall
        // on its whole allowance and crosses next period (WRG-R-31).
        let far = [Point::new(37.0, 5.0), Point::new(45.0, 5.0)];
        let (a, cut) = reach_on_table(&d, &t, TroopType::MediumInfantry, &far, 6.0, 0.0);
        assert!(!cut);
        assert!(a.distance > 2.4 && a.distance < 3.0, "{a:?}");
        // Short of the wall the allowance is whole.
        let short = [Point::new(30.0, 5.0), Point::new(45.0, 5.0)];
        let (a, cut) = reach_on_table(&d, &t, TroopType::MediumInfantry, &short, 6.0, 0.0);
        assert!(!cut);
        assert!((a.distance - 6.0).abs() < 1e-9);
    }

    // Checks WRG-CHAMP-02, WRG-TERR-03.
    #[test]
    fn wrg_champ_02_the_stream_bed_and_its_ford() {
        let (d, t) = (d(), table(""));
        // Medium cavalry starting at the stream's edge (y = 27): 2" a period in the bed.
        let across = [Point::new(10.0, 27.0), Point::new(10.0, 40.0)];
        let (a, _) = reach_on_table(&d, &t, TroopType::MediumCavalry, &across, 8.0, 0.0);
        assert!((a.distance - 2.0).abs() < 1e-9, "{a:?}");
        // At the ford: no penalty.
        let ford = [Point::new(50.0, 27.0), Point::new(50.0, 40.0)];
        let (a, _) = reach_on_table(&d, &t, TroopType::MediumCavalry, &ford, 8.0, 0.0);
        assert!((a.distance - 8.0).abs() < 1e-9, "{a:?}");
    }

    // Checks WRG-TERR-05.
    #[test]
    fn wrg_terr_05_a_road_through_the_wood() {
        let d = d();
        let t = table(
            "\n[[line]]\nname = \"Road\"\nkind = \"dirt_road\"\nwidth = 1.0\npoints = [[15, 0], [15, 48]]\n",
        );
        let path = [Point::new(15.0, 5.0), Point::new(15.0, 19.0)];
        let (a, _) = reach_on_table(&d, &t, TroopType::MediumInfantry, &path, 6.0, 0.0);
        assert!((a.distance - 6.0).abs() < 1e-9, "{a:?}");
    }
}
