//! Exact worked examples for terrain: path costs (MOV-TER-13's ford example, uphill doubling,
//! hedge surcharges), slopes, fords at bends, footprints against rivers, and line of sight.

use tabletop::geometry::{Facing, Point, Rect, Vec2};
use tabletop::terrain::{
    Advance, Area, AreaKind, BlockReason, Blocked, CostModel, Crossing, CrossingKind,
    DefaultSightRule, FeatureRef, FeatureSet, Ground, LineKind, LinearFeature, MAX_FEATURES,
    Polygon, Stop, Table, advance, line_of_sight, path_cost,
};

const EPS: f64 = 1e-12;

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= EPS * (1.0 + b.abs())
}

fn near(a: Point, b: Point) -> bool {
    (a - b).length() <= 1e-12
}

fn table() -> Table {
    Table { width: 48.0, height: 48.0, areas: vec![], lines: vec![], slope_band: 1.0 }
}

fn area(kind: AreaKind, pts: &[(f64, f64)], height: f64) -> Area {
    Area {
        name: format!("{kind:?}"),
        kind,
        polygon: Polygon::new(pts.iter().map(|&(x, y)| p(x, y)).collect()),
        height,
    }
}

fn square(kind: AreaKind, x0: f64, y0: f64, x1: f64, y1: f64, height: f64) -> Area {
    area(kind, &[(x0, y0), (x1, y0), (x1, y1), (x0, y1)], height)
}

fn line(kind: LineKind, pts: &[(f64, f64)], width: f64, crossings: Vec<Crossing>) -> LinearFeature {
    LinearFeature {
        name: format!("{kind:?}"),
        kind,
        path: pts.iter().map(|&(x, y)| p(x, y)).collect(),
        width,
        crossings,
    }
}

/// A T3-like test model: firm ×1, ford ×2, paved road ×½, wood ×2, river impassable outside a
/// ford or bridge, dense trees impassable, uphill (rise > 0.05) doubles, hedge +2, wall +3.
struct T3;

impl CostModel for T3 {
    fn multiplier(&self, t: &Table, g: &Ground, _dir: Vec2) -> Option<f64> {
        let mut worst: f64 = 1.0;
        let mut road = false;
        for j in g.bands.iter() {
            match t.lines[j].kind {
                LineKind::River | LineKind::Stream => {
                    if g.in_ford(j) {
                        worst = worst.max(2.0);
                    } else if g.on_bridge(j) {
                        road = true;
                    } else {
                        return None;
                    }
                }
                LineKind::PavedRoad | LineKind::DirtRoad => road = true,
                LineKind::Hedge | LineKind::Wall => {}
            }
        }
        for i in g.areas.iter() {
            match t.areas[i].kind {
                AreaKind::Wood | AreaKind::Marsh | AreaKind::Rough => worst = worst.max(2.0),
                AreaKind::DenseTrees => return None,
                AreaKind::Hill | AreaKind::Village | AreaKind::Open => {}
            }
        }
        let mut m = if road && worst == 1.0 { 0.5 } else { worst };
        if g.is_uphill(0.05) {
            m *= 2.0;
        }
        Some(m)
    }

    fn crossing_cost(&self, t: &Table, feature: usize, _g: &Ground) -> Option<f64> {
        Some(match t.lines[feature].kind {
            LineKind::Hedge => 2.0,
            LineKind::Wall => 3.0,
            _ => 0.0,
        })
    }
}

/// A 3" river along y = 10 with a 4"-wide ford centred at x = 5, and a paved road running north
/// from (5, 15).
fn ford_table() -> Table {
    let mut t = table();
    t.lines.push(line(
        LineKind::River,
        &[(0.0, 10.0), (40.0, 10.0)],
        3.0,
        vec![Crossing { kind: CrossingKind::Ford, at: 5.0, width: 4.0 }],
    ));
    t.lines.push(line(LineKind::PavedRoad, &[(5.0, 15.0), (5.0, 40.0)], 1.0, vec![]));
    t
}

#[test]
fn ford_then_firm_then_road_costs_exactly_twelve() {
    let t = ford_table();
    // The river's south edge is y = 8.5; the road's band begins at the bottom of its end cap,
    // y = 14.5.
    let path = [p(5.0, 8.5), p(5.0, 20.5)];
    let c = path_cost(&t, &path, &T3).expect("passable at the ford");
    assert!(close(c.cost, 12.0), "cost {}", c.cost);
    assert!(close(c.length, 12.0), "length {}", c.length);
    // 3" at ×2 (split where the path meets the river's centreline), 3" at ×1, 6" at ×½.
    let by_mult =
        |m: f64| -> f64 { c.pieces.iter().filter(|q| q.multiplier == m).map(|q| q.length).sum() };
    assert!(close(by_mult(2.0), 3.0));
    assert!(close(by_mult(1.0), 3.0));
    assert!(close(by_mult(0.5), 6.0));
    // The road piece is split where the path joins the road's centreline at (5, 15).
    assert_eq!(c.pieces.len(), 5);
    assert!(c.pieces.iter().take(2).all(|q| q.ground.in_ford(0) && q.ground.in_band(0)));
    assert!(near(c.pieces[1].from, p(5.0, 10.0)));
    assert!(near(c.pieces[2].from, p(5.0, 11.5)));
    assert!(near(c.pieces[3].from, p(5.0, 14.5)));
    assert!(c.pieces[3].ground.in_band(1));
    // The river's centreline is met once, and the road's where the path joins it; both free of
    // charge in this model.
    let met: Vec<(usize, f64)> = c.crossings.iter().map(|x| (x.feature, x.distance)).collect();
    assert_eq!(met, vec![(0, 1.5), (1, 6.5)]);
}

#[test]
fn advance_with_twelve_reaches_the_end_and_eleven_stops_on_the_road() {
    let t = ford_table();
    let path = [p(5.0, 8.5), p(5.0, 20.5)];
    let a = advance(&t, &path, &T3, 12.0);
    assert_eq!(a.stop, Stop::End);
    assert!(near(a.end, p(5.0, 20.5)));
    assert!(close(a.distance, 12.0));
    assert!(close(a.cost, 12.0));
    // With 11, 9 goes on ford and firm ground and 2 buys 4" of road.
    let a = advance(&t, &path, &T3, 11.0);
    assert_eq!(a.stop, Stop::Budget);
    assert!(near(a.end, p(5.0, 18.5)), "{:?}", a.end);
    assert!(close(a.distance, 10.0));
    assert!(close(a.cost, 11.0));
    // Halfway through the ford.
    let a = advance(&t, &path, &T3, 1.0);
    assert!(near(a.end, p(5.0, 9.0)));
    // A seventh inch of road is refused (MOV-TER-13).
    let c = path_cost(&t, &[p(5.0, 8.5), p(5.0, 21.5)], &T3).unwrap();
    assert!(close(c.cost, 12.5));
}

#[test]
fn crossing_the_river_outside_the_ford_is_blocked_at_its_edge() {
    let t = ford_table();
    let err = path_cost(&t, &[p(20.0, 5.0), p(20.0, 15.0)], &T3).unwrap_err();
    assert!(near(err.at, p(20.0, 8.5)), "{:?}", err.at);
    assert!(close(err.distance, 3.5));
    match err.reason {
        BlockReason::Impassable { entered, ground } => {
            assert_eq!(entered, Some(FeatureRef::Line(0)));
            assert!(ground.in_band(0) && !ground.in_crossing(0));
        }
        r => panic!("unexpected {r:?}"),
    }
    let a: Advance = advance(&t, &[p(20.0, 5.0), p(20.0, 15.0)], &T3, 100.0);
    assert!(matches!(a.stop, Stop::Blocked(Blocked { .. })));
    assert!(near(a.end, p(20.0, 8.5)));
    assert!(close(a.cost, 3.5));
    // Just beside the ford (its stretch is x in [3, 7]) is still river.
    assert!(path_cost(&t, &[p(7.01, 5.0), p(7.01, 15.0)], &T3).is_err());
    assert!(path_cost(&t, &[p(6.99, 5.0), p(6.99, 15.0)], &T3).is_ok());
}

#[test]
fn wading_along_the_river_enters_and_leaves_the_ford_exactly() {
    let t = ford_table();
    let pieces = t.pieces(p(1.0, 9.0), p(9.0, 9.0));
    let fords: Vec<(f64, f64)> =
        pieces.iter().filter(|q| q.ground.in_ford(0)).map(|q| (q.from.x, q.to.x)).collect();
    assert_eq!(fords.len(), 1);
    assert!(close(fords[0].0, 3.0) && close(fords[0].1, 7.0), "{fords:?}");
    assert!(pieces.iter().all(|q| q.ground.in_band(0)));
}

#[test]
fn uphill_doubles_and_downhill_does_not() {
    let mut t = table();
    t.areas.push(square(AreaKind::Hill, 10.0, 10.0, 20.0, 20.0, 1.0));
    // 5" firm, 1" slope uphill at ×2, 4" of plateau.
    let up = path_cost(&t, &[p(15.0, 5.0), p(15.0, 15.0)], &T3).unwrap();
    assert!(close(up.cost, 11.0), "{}", up.cost);
    let slope: Vec<_> = up.pieces.iter().filter(|q| q.ground.rise != 0.0).collect();
    assert_eq!(slope.len(), 1);
    assert!(close(slope[0].ground.rise, 1.0));
    assert!(near(slope[0].from, p(15.0, 10.0)) && near(slope[0].to, p(15.0, 11.0)));
    let down = path_cost(&t, &[p(15.0, 15.0), p(15.0, 5.0)], &T3).unwrap();
    assert!(close(down.cost, 10.0), "{}", down.cost);
    // Climbing at 45° to the contour: √2" on the slope, rising 1/√2 per inch.
    let diag = t.pieces(p(12.0, 8.0), p(16.0, 12.0));
    let s: Vec<_> = diag.iter().filter(|q| q.ground.rise != 0.0).collect();
    assert_eq!(s.len(), 1);
    assert!(close(s[0].length, 2f64.sqrt()));
    assert!(close(s[0].ground.rise, 1.0 / 2f64.sqrt()));
}

#[test]
fn nested_hills_stack_and_ramps_meet_on_bisectors() {
    let mut t = table();
    t.areas.push(square(AreaKind::Hill, 10.0, 10.0, 20.0, 20.0, 1.0));
    t.areas.push(square(AreaKind::Hill, 12.0, 12.0, 18.0, 18.0, 2.0));
    t.areas.push(square(AreaKind::Wood, 0.0, 0.0, 5.0, 5.0, 0.0));
    assert!(close(t.elevation(p(5.0, 5.0)), 0.0));
    assert!(close(t.elevation(p(10.5, 15.0)), 0.5));
    assert!(close(t.elevation(p(11.0, 15.0)), 1.0));
    assert!(close(t.elevation(p(12.25, 15.0)), 1.5));
    assert!(close(t.elevation(p(15.0, 15.0)), 3.0));
    // Near a convex corner the nearer edge sets the height.
    assert!(close(t.elevation(p(10.2, 10.6)), 0.2));
    assert!(close(t.elevation(p(10.6, 10.2)), 0.2));
    // Profile across both: up 1, up 2, down 2, down 1.
    let s = t.sight(p(5.0, 15.0), p(25.0, 15.0));
    assert!(close(s.max_elevation, 3.0));
    let rises: Vec<f64> = t
        .pieces(p(5.0, 15.0), p(25.0, 15.0))
        .iter()
        .map(|q| q.ground.rise)
        .filter(|r| *r != 0.0)
        .collect();
    assert_eq!(rises, vec![1.0, 2.0, -2.0, -1.0]);
}

#[test]
fn reflex_corner_ramps_are_square() {
    // An L-shaped hill with a reflex vertex at (5, 5).
    let mut t = table();
    t.areas.push(area(
        AreaKind::Hill,
        &[(0.0, 0.0), (10.0, 0.0), (10.0, 5.0), (5.0, 5.0), (5.0, 10.0), (0.0, 10.0)],
        1.0,
    ));
    assert!(close(t.elevation(p(4.8, 4.5)), 0.5));
    assert!(close(t.elevation(p(4.5, 4.8)), 0.5));
    assert!(close(t.elevation(p(4.5, 4.5)), 0.5));
    assert!(close(t.elevation(p(3.9, 4.5)), 1.0));
    // Walking diagonally out of the inner corner: down at 1/√2 per inch on one ramp, then the
    // other, both exact.
    let pieces = t.pieces(p(4.0, 3.0), p(5.0, 4.0));
    assert!(pieces.iter().all(|q| q.ground.in_area(0)));
    let total_rise: f64 = pieces.iter().map(|q| q.ground.rise * q.length).sum();
    assert!(close(total_rise, t.elevation(p(5.0, 4.0)) - t.elevation(p(4.0, 3.0))));
}

#[test]
fn hedge_surcharge_is_paid_once_per_crossing() {
    let mut t = table();
    t.lines.push(line(LineKind::Hedge, &[(0.0, 10.0), (10.0, 10.0), (20.0, 12.0)], 0.2, vec![]));
    let straight = path_cost(&t, &[p(5.0, 5.0), p(5.0, 15.0)], &T3).unwrap();
    assert!(close(straight.cost, 12.0), "{}", straight.cost);
    assert_eq!(straight.crossings.len(), 1);
    // Through the hedge's own vertex: still one crossing.
    let at_vertex = path_cost(&t, &[p(10.0, 5.0), p(10.0, 15.0)], &T3).unwrap();
    assert!(close(at_vertex.cost, 12.0));
    assert_eq!(at_vertex.crossings.len(), 1);
    // With a path vertex on the hedge: one crossing.
    let kinked = path_cost(&t, &[p(5.0, 5.0), p(5.0, 10.0), p(5.0, 15.0)], &T3).unwrap();
    assert!(close(kinked.cost, 12.0));
    // Over and back: two crossings.
    let back = path_cost(&t, &[p(5.0, 5.0), p(5.0, 15.0), p(8.0, 5.0)], &T3).unwrap();
    assert_eq!(back.crossings.len(), 2);
    assert!(close(back.cost, 10.0 + 109f64.sqrt() + 4.0));
    // Stopping on the hedge, or starting on it, is not crossing it.
    let stop = path_cost(&t, &[p(5.0, 5.0), p(5.0, 10.0)], &T3).unwrap();
    assert!(close(stop.cost, 5.0));
    let start = path_cost(&t, &[p(5.0, 10.0), p(5.0, 15.0)], &T3).unwrap();
    assert!(close(start.cost, 5.0));
    // A budget that cannot pay the surcharge stops in front of the hedge.
    let a = advance(&t, &[p(5.0, 5.0), p(5.0, 15.0)], &T3, 6.0);
    assert_eq!(a.stop, Stop::Budget);
    assert!(near(a.end, p(5.0, 10.0)));
    assert!(close(a.cost, 5.0));
}

#[test]
fn ford_at_a_bend_covers_the_outer_wedge() {
    let mut t = table();
    // A 2"-wide river turning left at (10, 10); a 4" ford centred on the bend.
    t.lines.push(line(
        LineKind::River,
        &[(0.0, 10.0), (10.0, 10.0), (10.0, 20.0)],
        2.0,
        vec![Crossing { kind: CrossingKind::Ford, at: 10.0, width: 4.0 }],
    ));
    let river = &t.lines[0];
    // Outer wedge: nearest centreline point is the vertex.
    assert!(river.in_crossing(0, p(10.7, 9.3)));
    assert!(!river.in_crossing(0, p(10.8, 9.3)));
    // Inside the bend, near the vertex.
    assert!(river.in_crossing(0, p(9.5, 10.5)));
    // Along the arms, the stretch ends 2" from the vertex on each.
    assert!(river.in_crossing(0, p(8.01, 10.9)));
    assert!(!river.in_crossing(0, p(7.99, 9.1)));
    assert!(river.in_crossing(0, p(10.9, 11.99)));
    assert!(!river.in_crossing(0, p(9.1, 12.01)));
    // A path across the bend diagonally stays in the ford.
    let c = path_cost(&t, &[p(12.0, 8.0), p(8.0, 12.0)], &T3).unwrap();
    let wet: f64 = c.pieces.iter().filter(|q| q.ground.in_ford(0)).map(|q| q.length).sum();
    let band = t.lines[0].band_intervals(p(12.0, 8.0), p(8.0, 12.0));
    let band_len: f64 = band.iter().map(|(a, b)| (b - a) * 32f64.sqrt()).sum();
    assert!(close(wet, band_len));
}

#[test]
fn footprints_against_rivers_woods_and_the_table_edge() {
    let mut t = ford_table();
    t.areas.push(square(AreaKind::DenseTrees, 30.0, 30.0, 40.0, 40.0, 0.0));
    // A stand inside the ford.
    let in_ford = Rect::new(p(5.0, 10.0), Facing::NORTH, 1.5, 1.0);
    assert!(t.rect_overlaps_band(&in_ford, 0));
    assert!(!t.rect_overlaps_band_outside_crossings(&in_ford, 0));
    assert!(t.rect_in_crossing(&in_ford, 0));
    // A line too wide for the ford.
    let wide = Rect::new(p(5.0, 10.0), Facing::NORTH, 6.0, 1.0);
    assert!(t.rect_overlaps_band_outside_crossings(&wide, 0));
    // Exactly as wide as the ford: fits.
    let exact = Rect::new(p(5.0, 10.0), Facing::NORTH, 4.0, 1.0);
    assert!(!t.rect_overlaps_band_outside_crossings(&exact, 0));
    // On the bank, touching the band's edge, is not in the river.
    let bank = Rect::new(p(20.0, 8.0), Facing::NORTH, 1.5, 1.0);
    assert!(!t.rect_overlaps_band(&bank, 0));
    let wet = Rect::new(p(20.0, 8.01), Facing::NORTH, 1.5, 1.0);
    assert!(t.rect_overlaps_band_outside_crossings(&wet, 0));
    // Dense trees: touching the edge vs overlapping.
    let touching = Rect::new(p(29.25, 35.0), Facing::NORTH, 1.5, 1.0);
    assert!(t.areas_overlapping_rect(&touching).is_empty());
    let inside = Rect::new(p(29.5, 35.0), Facing::from_bearing_degrees(30.0), 1.5, 1.0);
    assert_eq!(t.areas_overlapping_rect(&inside), vec![0]);
    assert_eq!(t.lines_overlapping_rect(&wet), vec![0]);
    // Table edges.
    assert!(t.contains_rect(&Rect::new(p(0.75, 0.5), Facing::NORTH, 1.5, 1.0)));
    assert!(!t.contains_rect(&Rect::new(p(0.7, 0.5), Facing::NORTH, 1.5, 1.0)));
}

#[test]
fn woods_block_sight_unless_seen_from_the_edge() {
    let mut t = table();
    t.areas.push(square(AreaKind::Wood, 10.0, 0.0, 20.0, 20.0, 0.0));
    let rule = DefaultSightRule::default();
    assert!(!line_of_sight(&t, p(5.0, 10.0), 0.0, p(25.0, 10.0), 0.0, &rule));
    assert!(line_of_sight(&t, p(5.0, 25.0), 0.0, p(25.0, 25.0), 0.0, &rule));
    // From 1.5" inside the wood, out of it.
    assert!(line_of_sight(&t, p(11.5, 10.0), 0.0, p(5.0, 10.0), 0.0, &rule));
    assert!(line_of_sight(&t, p(5.0, 10.0), 0.0, p(12.0, 10.0), 0.0, &rule));
    assert!(!line_of_sight(&t, p(12.5, 10.0), 0.0, p(5.0, 10.0), 0.0, &rule));
    let s = t.sight(p(5.0, 10.0), p(25.0, 10.0));
    assert_eq!(s.obstructions.len(), 1);
    assert_eq!(s.obstructions[0].feature, FeatureRef::Area(0));
    assert!(close(s.obstructions[0].enter, 0.25) && close(s.obstructions[0].exit, 0.75));
    assert!(close(s.obstructions[0].length, 10.0));
}

#[test]
fn hills_block_sight_by_height() {
    let mut t = table();
    t.areas.push(square(AreaKind::Hill, 10.0, 10.0, 20.0, 20.0, 1.0));
    t.lines.push(line(LineKind::Hedge, &[(0.0, 5.0), (40.0, 5.0)], 0.2, vec![]));
    let rule = DefaultSightRule::default();
    // Both on the flat, eyes at ground level: the hill is in the way.
    assert!(!line_of_sight(&t, p(5.0, 15.0), 0.0, p(25.0, 15.0), 0.0, &rule));
    // Eyes two levels up see over it.
    assert!(line_of_sight(&t, p(5.0, 15.0), 2.0, p(25.0, 15.0), 2.0, &rule));
    // Exactly level with the top: grazing is not blocked.
    assert!(line_of_sight(&t, p(5.0, 15.0), 1.0, p(25.0, 15.0), 1.0, &rule));
    // From the middle of the plateau, the flat top hides the foot of the hill...
    assert!(!line_of_sight(&t, p(15.0, 15.0), 0.0, p(25.0, 15.0), 0.0, &rule));
    // ...but not from half a level up: at the crest the line is at 1.1.
    assert!(line_of_sight(&t, p(15.0, 15.0), 0.5, p(25.0, 15.0), 0.5, &rule));
    let s = t.sight(p(15.0, 15.0), p(25.0, 15.0));
    assert!(close(s.start_elevation, 1.0) && close(s.end_elevation, 0.0));
    assert!(close(s.max_elevation, 1.0));
    assert!(close(s.clearance_deficit(0.5, 0.5), -0.1));
    // Hedges do not block; open ground does not either.
    assert!(line_of_sight(&t, p(5.0, 0.0), 0.0, p(5.0, 9.0), 0.0, &rule));
    let s = t.sight(p(5.0, 0.0), p(5.0, 9.0));
    assert_eq!(s.obstructions.len(), 1);
    assert_eq!(s.obstructions[0].feature, FeatureRef::Line(0));
}

#[test]
fn bad_input_gives_sane_answers() {
    let mut t = ford_table();
    t.areas.push(area(AreaKind::Hill, &[(1.0, 1.0), (2.0, 2.0)], 1.0));
    t.areas.push(area(AreaKind::Wood, &[], 0.0));
    t.areas.push(area(AreaKind::Hill, &[(1.0, 1.0), (f64::NAN, 2.0), (3.0, 1.0)], f64::INFINITY));
    t.lines.push(line(LineKind::Hedge, &[], 1.0, vec![]));
    t.lines.push(line(LineKind::Wall, &[(3.0, 3.0)], f64::NAN, vec![]));
    t.lines.push(line(
        LineKind::Stream,
        &[(1.0, 1.0), (1.0, 1.0)],
        2.0,
        vec![Crossing { kind: CrossingKind::Bridge, at: f64::NAN, width: -1.0 }],
    ));
    assert!(!t.validate().is_empty());
    let nan = path_cost(&t, &[p(f64::NAN, 0.0), p(1.0, 1.0)], &T3).unwrap_err();
    assert_eq!(nan.reason, BlockReason::InvalidPath);
    let a = advance(&t, &[p(1.0, 1.0), p(f64::INFINITY, 1.0)], &T3, 5.0);
    assert!(matches!(a.stop, Stop::Blocked(_)));
    assert_eq!(path_cost(&t, &[], &T3).unwrap().cost, 0.0);
    assert_eq!(path_cost(&t, &[p(1.0, 1.0), p(1.0, 1.0)], &T3).unwrap().cost, 0.0);
    assert!(t.pieces(p(1.0, 1.0), p(1.0, 1.0)).is_empty());
    let _ = t.pieces(p(0.0, 0.0), p(4.0, 4.0));
    let _ = t.sight(p(0.0, 0.0), p(4.0, 4.0));
    let _ = t.sight(p(0.0, 0.0), p(f64::NAN, 4.0));
    let _ = t.elevation(p(1.5, 1.5));
    let _ = t.elevation(p(f64::NAN, 1.5));
    let r = Rect::new(p(1.0, 1.0), Facing::NORTH, 3.0, 3.0);
    let _ = t.areas_overlapping_rect(&r);
    let _ = t.lines_overlapping_rect(&r);
    for j in 0..t.lines.len() {
        let _ = t.rect_overlaps_band_outside_crossings(&r, j);
    }
    assert!(!t.rect_overlaps_band(&r, 99));
    let advance_zero = advance(&t, &[p(5.0, 8.5), p(5.0, 20.5)], &T3, f64::NAN);
    assert_eq!(advance_zero.stop, Stop::Budget);
    assert_eq!(advance_zero.distance, 0.0);
}

#[test]
fn feature_sets_cover_both_words_and_ignore_the_rest() {
    let s: FeatureSet = [0, 3, 63, 64, 127, 128, 500].into_iter().collect();
    assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 3, 63, 64, 127]);
    assert_eq!(s.len(), 5);
    assert_eq!(s.first(), Some(0));
    assert!(s.contains(64) && !s.contains(65) && !s.contains(128));
    let t: FeatureSet = [3, 64].into_iter().collect();
    assert_eq!(s.minus(t).iter().collect::<Vec<_>>(), vec![0, 63, 127]);
    assert!(FeatureSet::EMPTY.is_empty() && FeatureSet::EMPTY.first().is_none());
}

#[test]
fn areas_beyond_the_cap_are_ignored_and_reported() {
    let mut t = table();
    for i in 0..MAX_FEATURES + 2 {
        let x = (i % 40) as f64;
        t.areas.push(square(AreaKind::Wood, x, 0.0, x + 0.5, 0.5, 0.0));
    }
    assert!(t.validate().iter().any(|m| m.contains("only the first")));
    let pieces = t.pieces(p(-1.0, 0.25), p(45.0, 0.25));
    assert!(pieces.iter().all(|q| q.ground.areas.iter().all(|i| i < MAX_FEATURES)));
    assert!(pieces.iter().any(|q| q.ground.in_area(MAX_FEATURES - 1)));
}
