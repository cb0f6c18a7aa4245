//! Geometry and terrain kernels: rectangle overlap and distance, and costing a 12" path across
//! a table with 30 terrain features.
//!
//! Run with `cargo bench -p tabletop --bench geometry`.

use divan::{Bencher, black_box};
use tabletop::geometry::{Facing, Point, Rect, Vec2};
use tabletop::terrain::{
    Area, AreaKind, CostModel, Crossing, CrossingKind, Ground, LineKind, LinearFeature, Polygon,
    Scratch, Table, path_cost_with,
};

fn main() {
    divan::main();
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// A regular-ish polygon of `n` vertices about `(cx, cy)`, radii alternating `r` and `0.8 r`.
fn blob(cx: f64, cy: f64, r: f64, n: usize) -> Polygon {
    Polygon::new(
        (0..n)
            .map(|i| {
                let a = i as f64 / n as f64 * std::f64::consts::TAU;
                let rr = if i % 2 == 0 { r } else { 0.8 * r };
                p(cx + rr * libm::cos(a), cy + rr * libm::sin(a))
            })
            .collect(),
    )
}

fn area(kind: AreaKind, poly: Polygon, height: f64) -> Area {
    Area { name: format!("{kind:?}"), kind, polygon: poly, height }
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

/// A 72" × 48" table with 20 areas and 10 linear features, the 12" path from (30, 18) to
/// (30, 30) crossing two nested hills, the river at its ford, a hedge, a wood, and reaching a
/// road.
fn table_30() -> Table {
    use AreaKind::*;
    let mut areas = vec![
        area(Hill, blob(30.0, 16.0, 4.0, 8), 1.0),
        area(Hill, blob(30.0, 16.0, 2.0, 8), 1.0),
        area(Hill, blob(60.0, 38.0, 6.0, 10), 1.0),
        area(Hill, blob(10.0, 38.0, 5.0, 8), 2.0),
        area(Wood, blob(31.5, 29.0, 2.5, 7), 0.0),
        area(Wood, blob(45.0, 10.0, 4.0, 7), 0.0),
        area(Wood, blob(12.0, 10.0, 3.0, 6), 0.0),
        area(Wood, blob(66.0, 8.0, 3.0, 8), 0.0),
        area(Wood, blob(50.0, 40.0, 2.5, 6), 0.0),
        area(Wood, blob(20.0, 44.0, 3.0, 8), 0.0),
        area(Wood, blob(5.0, 25.0, 2.0, 6), 0.0),
        area(Wood, blob(40.0, 34.0, 3.0, 7), 0.0),
        area(Village, blob(22.0, 31.0, 2.5, 4), 0.0),
        area(Village, blob(55.0, 20.0, 3.0, 4), 0.0),
        area(Village, blob(8.0, 4.0, 2.0, 4), 0.0),
        area(Marsh, blob(36.0, 20.0, 2.5, 9), 0.0),
        area(Marsh, blob(64.0, 30.0, 3.0, 9), 0.0),
        area(Rough, blob(26.0, 22.0, 2.0, 5), 0.0),
        area(Rough, blob(70.0, 45.0, 2.0, 5), 0.0),
        area(DenseTrees, blob(46.0, 44.0, 3.0, 6), 0.0),
    ];
    areas.truncate(20);
    let lines = vec![
        line(
            LineKind::River,
            &[(0.0, 22.0), (20.0, 24.0), (36.0, 24.0), (50.0, 26.0), (72.0, 25.0)],
            3.0,
            vec![
                Crossing { kind: CrossingKind::Ford, at: 20.0f64.hypot(2.0) + 10.0, width: 4.0 },
                Crossing { kind: CrossingKind::Bridge, at: 55.0, width: 2.0 },
            ],
        ),
        line(LineKind::Stream, &[(10.0, 0.0), (14.0, 12.0), (18.0, 23.5)], 1.0, vec![]),
        line(LineKind::Stream, &[(60.0, 48.0), (58.0, 36.0), (62.0, 25.5)], 1.0, vec![]),
        line(LineKind::PavedRoad, &[(30.0, 30.5), (30.0, 48.0)], 1.0, vec![]),
        line(LineKind::DirtRoad, &[(0.0, 10.0), (72.0, 12.0)], 1.0, vec![]),
        line(LineKind::PavedRoad, &[(48.0, 26.0), (56.0, 48.0)], 1.0, vec![]),
        line(LineKind::Hedge, &[(20.0, 28.0), (40.0, 28.5)], 0.2, vec![]),
        line(LineKind::Hedge, &[(0.0, 30.0), (15.0, 30.0), (15.0, 48.0)], 0.2, vec![]),
        line(LineKind::Wall, &[(40.0, 0.0), (40.0, 8.0)], 0.3, vec![]),
        line(LineKind::Wall, &[(62.0, 14.0), (72.0, 14.0)], 0.3, vec![]),
    ];
    Table { width: 72.0, height: 48.0, areas, lines, slope_band: 1.0 }
}

/// The T3 cost model of the movement digest, simplified.
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
        let m = if road && worst == 1.0 { 0.5 } else { worst };
        Some(if g.rise > 0.05 { 2.0 * m } else { m })
    }

    fn crossing_cost(&self, t: &Table, feature: usize, _g: &Ground) -> Option<f64> {
        Some(match t.lines[feature].kind {
            LineKind::Hedge => 2.0,
            LineKind::Wall => 3.0,
            _ => 0.0,
        })
    }
}

#[divan::bench]
fn rect_overlap(b: Bencher) {
    let r1 = Rect::new(p(0.0, 0.0), Facing::from_bearing_degrees(10.0), 4.0, 1.0);
    let r2 = Rect::new(p(2.5, 1.0), Facing::from_bearing_degrees(35.0), 1.5, 1.5);
    b.bench(|| black_box(&r1).overlaps(black_box(&r2)));
}

#[divan::bench]
fn rect_distance(b: Bencher) {
    let r1 = Rect::new(p(0.0, 0.0), Facing::from_bearing_degrees(10.0), 4.0, 1.0);
    let r2 = Rect::new(p(5.0, 3.0), Facing::from_bearing_degrees(35.0), 1.5, 1.5);
    b.bench(|| black_box(&r1).distance(black_box(&r2)));
}

#[divan::bench]
fn path_cost_12in_30_features(b: Bencher) {
    let t = table_30();
    let path = [p(30.0, 18.0), p(30.0, 30.0)];
    let mut s = Scratch::default();
    let c = path_cost_with(&t, &path, &T3, true, &mut s).expect("passable");
    assert!(c.pieces.len() >= 10, "the path should cross plenty: {}", c.pieces.len());
    b.bench_local(|| {
        path_cost_with(black_box(&t), black_box(&path), &T3, false, &mut s).map(|c| c.cost)
    });
}

#[divan::bench]
fn path_cost_12in_30_features_breakdown(b: Bencher) {
    let t = table_30();
    let path = [p(30.0, 18.0), p(30.0, 30.0)];
    let mut s = Scratch::default();
    b.bench_local(|| path_cost_with(black_box(&t), black_box(&path), &T3, true, &mut s));
}

#[divan::bench]
fn pieces_12in_30_features(b: Bencher) {
    let t = table_30();
    let (a, z) = (p(30.0, 18.0), p(30.0, 30.0));
    let mut s = Scratch::default();
    let mut out = Vec::new();
    b.bench_local(|| {
        t.pieces_with(black_box(a), black_box(z), &mut s, &mut out);
        out.len()
    });
}

#[divan::bench]
fn sight_12in_30_features(b: Bencher) {
    let t = table_30();
    let (a, z) = (p(30.0, 18.0), p(30.0, 30.0));
    b.bench(|| t.sight(black_box(a), black_box(z)));
}
