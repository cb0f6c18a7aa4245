//! Routes across the table for the scripted general: the shortest way for a unit's reference
//! point from here to there that keeps out of ground the unit may not enter (river water outside
//! a ford or bridge, dense trees for formed troops), preferring roads when a column can use
//! them. A route is a list of waypoints over a small graph (the crossings' approaches, the
//! corners of closed woods, the roads' ends and bends), searched with Dijkstra's algorithm; the
//! rules still price and check every move the general then makes.

use crate::data::TerrainData;
use crate::model::Weather;
use crate::shapes::{box_around, boxes_apart, padded, point_in_polygon};
use tabletop::geometry::{Point, Vec2, segment_intersection};
use tabletop::terrain::{AreaKind, LineKind, Table};

/// Who is routed: what ground is closed to it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Traveller {
    /// Formed troops may not enter dense trees.
    pub formed: bool,
    /// Half the unit's frontage: how far to keep from the corners of closed ground.
    pub half_width: f64,
    /// May march on roads (a column of one file, or a single stand).
    pub on_roads: bool,
}

/// One waypoint of a route.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Waypoint {
    /// Where the reference point goes.
    pub at: Point,
    /// The leg to it is a river crossing (the unit should be narrow and square to it).
    pub crossing: bool,
    /// The leg to it runs along a road.
    pub road: bool,
}

/// A route: the waypoints after the start, and its estimated cost in inches.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    /// The waypoints, the goal last.
    pub waypoints: Vec<Waypoint>,
    /// The estimated cost (distance weighted by roads and slow ground).
    pub cost: f64,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    at: Point,
    /// On a road: its index (for legs along it).
    road: Option<(usize, f64)>,
    /// One end of a crossing: the crossing's id (the pair's other end shares it).
    crossing: Option<usize>,
}

fn polyline_point(line: &[Point], s: f64) -> Option<(Point, Vec2)> {
    crate::shapes::polyline_at(line, s)
}

fn polyline_length(line: &[Point]) -> f64 {
    line.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The ground's rough multiplier at a point for routing (slow areas count double).
fn slow_at(table: &Table, p: Point) -> f64 {
    let mut m: f64 = 1.0;
    for a in &table.areas {
        if matches!(a.kind, AreaKind::Marsh | AreaKind::Rough | AreaKind::Wood | AreaKind::Village)
            && point_in_polygon(p, &a.polygon.points)
        {
            m = m.max(2.0);
        }
    }
    m
}

/// Plans routes on one table.
pub struct Router<'a> {
    table: &'a Table,
    data: &'a TerrainData,
    weather: Weather,
    /// The closed ground's edges with their boxes, made at the first question.
    index: std::cell::OnceCell<Index>,
}

/// One piece of a river's band: a segment of its centreline with the run along the river to
/// its start, and the box that holds the band there.
struct RiverPiece {
    line: usize,
    from: Point,
    to: Point,
    run: f64,
    box_: (Point, Point),
}

/// The closed ground of a table, in pieces that a leg can skip by their boxes.
struct Index {
    rivers: Vec<RiverPiece>,
    /// Dense-tree areas (by index) with their boxes.
    woods: Vec<(usize, (Point, Point))>,
}

impl<'a> Router<'a> {
    /// A router over a table.
    pub fn new(table: &'a Table, data: &'a TerrainData, weather: Weather) -> Router<'a> {
        Router { table, data, weather, index: std::cell::OnceCell::new() }
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| {
            let mut rivers = Vec::new();
            for (i, l) in self.table.lines.iter().enumerate() {
                if l.kind != LineKind::River {
                    continue;
                }
                let mut run = 0.0;
                for w in l.path.windows(2) {
                    let box_ = padded(box_around([w[0], w[1]]), l.width / 2.0 + 1e-6);
                    rivers.push(RiverPiece { line: i, from: w[0], to: w[1], run, box_ });
                    run += w[0].distance(w[1]);
                }
            }
            let woods = (self.table.areas.iter().enumerate())
                .filter(|(_, a)| a.kind == AreaKind::DenseTrees)
                .map(|(i, a)| (i, padded(box_around(a.polygon.points.iter().copied()), 1e-6)))
                .collect();
            Index { rivers, woods }
        })
    }

    fn road_factor(&self, kind: LineKind) -> Option<f64> {
        let m = &self.data.multiplier;
        match kind {
            LineKind::PavedRoad => Some(m.paved_road),
            LineKind::DirtRoad => Some(match self.weather {
                Weather::Dry => m.dirt_road_dry,
                Weather::Wet => m.dirt_road_wet,
            }),
            _ => None,
        }
    }

    /// True when the straight leg from `a` to `b` stays out of closed ground for `who`: it
    /// crosses no river outside a crossing, and (formed) enters no dense trees.
    pub fn leg_open(&self, a: Point, b: Point, who: Traveller) -> bool {
        let index = self.index();
        let leg = box_around([a, b]);
        for piece in &index.rivers {
            if boxes_apart(leg, piece.box_, 0.0) {
                continue;
            }
            let l = &self.table.lines[piece.line];
            let (w0, w1) = (piece.from, piece.to);
            let seg = w0.distance(w1);
            // The band's two sides and the centreline: a leg into the water outside a
            // crossing is closed.
            let n = (w1 - w0).normalized().map_or(Vec2::ZERO, |t| t.perp_left());
            for off in [-l.width / 2.0, 0.0, l.width / 2.0] {
                let (p, q) = (w0 + n * off, w1 + n * off);
                if let Some((_, u)) = segment_intersection(a, b, p, q) {
                    let s = piece.run + u * seg;
                    let inside = l.crossings.iter().any(|c| {
                        (s - c.at).abs() <= c.width / 2.0 - who.half_width.min(c.width / 2.0)
                    });
                    if !inside {
                        return false;
                    }
                }
            }
        }
        if who.formed {
            for (i, bx) in &index.woods {
                if boxes_apart(leg, *bx, 0.0) {
                    continue;
                }
                let pts = &self.table.areas[*i].polygon.points;
                if point_in_polygon(a, pts) || point_in_polygon(b, pts) {
                    return false;
                }
                for i in 0..pts.len() {
                    let (p, q) = (pts[i], pts[(i + 1) % pts.len()]);
                    if segment_intersection(a, b, p, q).is_some() {
                        return false;
                    }
                }
            }
        }
        true
    }

    fn leg_cost(&self, a: Point, b: Point) -> f64 {
        let d = a.distance(b);
        if d < 1e-9 {
            return 0.0;
        }
        let mid = a.lerp(b, 0.5);
        let slow = (slow_at(self.table, a.lerp(b, 0.25))
            + slow_at(self.table, mid)
            + slow_at(self.table, a.lerp(b, 0.75)))
            / 3.0;
        d * slow
    }

    /// The cheapest route for `who` from `from` to `to`, or `None` when the goal cannot be
    /// reached.
    pub fn route(&self, from: Point, to: Point, who: Traveller) -> Option<Route> {
        let mut nodes = vec![
            Node { at: from, road: None, crossing: None },
            Node { at: to, road: None, crossing: None },
        ];
        let inside = |p: Point| {
            p.x > 0.5 && p.y > 0.5 && p.x < self.table.width - 0.5 && p.y < self.table.height - 0.5
        };
        // The approaches to every ford and bridge, on both banks.
        let mut crossing_id = 0;
        for l in &self.table.lines {
            if l.kind != LineKind::River {
                continue;
            }
            for c in &l.crossings {
                let Some((p, t)) = polyline_point(&l.path, c.at) else { continue };
                let n = t.perp_left();
                let reach = l.width / 2.0 + 1.0;
                for side in [-1.0, 1.0] {
                    let q = p + n * (side * reach);
                    if inside(q) {
                        nodes.push(Node { at: q, road: None, crossing: Some(crossing_id) });
                    }
                }
                crossing_id += 1;
            }
        }
        // The corners of closed woods, pushed out.
        if who.formed {
            for ar in &self.table.areas {
                if ar.kind != AreaKind::DenseTrees {
                    continue;
                }
                let pts = &ar.polygon.points;
                let c = pts.iter().fold(Vec2::ZERO, |s, p| s + *p) * (1.0 / pts.len() as f64);
                for p in pts {
                    if let Some(out) = (*p - c).normalized() {
                        let q = *p + out * (who.half_width + 1.5);
                        if inside(q) {
                            nodes.push(Node { at: q, road: None, crossing: None });
                        }
                    }
                }
            }
        }
        // Roads: their ends and bends, and the points nearest the start and the goal.
        if who.on_roads {
            for (j, l) in self.table.lines.iter().enumerate() {
                if self.road_factor(l.kind).is_none() {
                    continue;
                }
                let mut run = 0.0;
                let mut marks = vec![0.0];
                for w in l.path.windows(2) {
                    run += w[0].distance(w[1]);
                    marks.push(run);
                }
                for p in [from, to] {
                    let (_, s) = crate::shapes::polyline_distance(p, &l.path);
                    marks.push(s);
                }
                marks.sort_by(f64::total_cmp);
                marks.dedup_by(|a, b| (*a - *b).abs() < 0.25);
                let len = polyline_length(&l.path);
                for s in marks {
                    let s = s.clamp(0.5, (len - 0.5).max(0.5));
                    if let Some((p, _)) = polyline_point(&l.path, s)
                        && inside(p)
                    {
                        nodes.push(Node { at: p, road: Some((j, s)), crossing: None });
                    }
                }
            }
        }
        // A* over the complete graph of open legs: no leg costs less than its length at the
        // cheapest rate on the table (a road's, when the traveller may use one), so that rate
        // times the straight distance to the goal never overestimates, and the search looks
        // only at the nodes that could lie on a cheaper way than the one it finds.
        let cheapest = if who.on_roads {
            (self.table.lines.iter())
                .filter_map(|l| self.road_factor(l.kind))
                .fold(1.0_f64, f64::min)
                .max(0.0)
        } else {
            1.0
        };
        let n = nodes.len();
        let ahead: Vec<f64> = nodes.iter().map(|node| node.at.distance(to) * cheapest).collect();
        let mut best = vec![f64::INFINITY; n];
        let mut prev: Vec<Option<usize>> = vec![None; n];
        let mut done = vec![false; n];
        best[0] = 0.0;
        loop {
            let mut cur = None;
            for i in 0..n {
                if !done[i]
                    && best[i].is_finite()
                    && cur.is_none_or(|c: usize| best[i] + ahead[i] < best[c] + ahead[c])
                {
                    cur = Some(i);
                }
            }
            let Some(i) = cur else { break };
            if i == 1 {
                break;
            }
            done[i] = true;
            for j in 0..n {
                if done[j] || j == i {
                    continue;
                }
                let (a, b) = (nodes[i], nodes[j]);
                // No leg costs less than its length at the cheapest rate: a leg that could not
                // better j's best, or could not lie on a way to the goal cheaper than the one
                // found, is not looked at (neither changes the route found).
                let least = a.at.distance(b.at) * cheapest;
                if best[i] + least >= best[j] - 1e-12
                    || (j != 1 && best[i] + least + ahead[j] >= best[1])
                {
                    continue;
                }
                let along_road = match (a.road, b.road) {
                    (Some((ra, _)), Some((rb, _))) if ra == rb => {
                        self.table.lines.get(ra).and_then(|l| self.road_factor(l.kind)).filter(
                            |_| {
                                // Adjacent marks only: the straight leg follows the road.
                                let (sa, sb) =
                                    (a.road.map_or(0.0, |r| r.1), b.road.map_or(0.0, |r| r.1));
                                (a.at.distance(b.at) - (sa - sb).abs()).abs() < 0.05
                            },
                        )
                    }
                    _ => None,
                };
                if !self.leg_open(a.at, b.at, who) {
                    continue;
                }
                let cost = match along_road {
                    Some(f) => a.at.distance(b.at) * f,
                    None => self.leg_cost(a.at, b.at),
                };
                if best[i] + cost < best[j] - 1e-12 {
                    best[j] = best[i] + cost;
                    prev[j] = Some(i);
                }
            }
        }
        if !best[1].is_finite() {
            return None;
        }
        let mut chain = vec![1usize];
        while let Some(p) = prev[*chain.last().unwrap_or(&0)] {
            chain.push(p);
        }
        chain.reverse();
        let waypoints = chain
            .windows(2)
            .map(|w| {
                let (a, b) = (nodes[w[0]], nodes[w[1]]);
                Waypoint {
                    at: b.at,
                    crossing: a.crossing.is_some() && a.crossing == b.crossing,
                    road: matches!((a.road, b.road), (Some((x, _)), Some((y, _))) if x == y),
                }
            })
            .collect();
        Some(Route { waypoints, cost: best[1] })
    }
}
