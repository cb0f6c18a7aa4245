//! The chapter's terrain model over tabletop's [`Table`]: the multiplier of the ground under a
//! point (T3), uphill detection from the hills' height field (MOV-R-02), the exact cut points of
//! a straight path at every terrain boundary, and the linear obstacles a path crosses.
//!
//! Areas and bands are cut exactly (segment against polygon edges, band sides, band end
//! circles and the ends of fords and bridges). The inner edge of a hill's slope band and the
//! changes of slope direction within it are found by sampling every 0.1" and bisecting to
//! 1e-7": a documented approximation (docs/rulings/movement.md).

use crate::data::{ObstacleModel, TerrainData};
use crate::model::Weather;
use crate::shapes::{
    convex_overlaps_polygon, point_in_polygon, polyline_at, polyline_distance, segment_circle,
    segment_cuts,
};
use tabletop::geometry::{Point, Rect, Vec2};
use tabletop::terrain::{AreaKind, CrossingKind, LineKind, LinearFeature, Table};

/// What a stand is, for terrain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoverKind {
    /// In line, column, circle or mass (formed troops, MOV-R-11).
    pub formed: bool,
    /// Limbered artillery or a wagon: crosses hedges and walls only at gaps (MOV-R-33).
    pub wheeled: bool,
    /// Mounted (for the WRG fraction).
    pub mounted: bool,
}

/// Why the ground refuses a stand.
#[derive(Clone, Debug, PartialEq)]
pub enum Blocked {
    /// River water outside a ford or bridge (MOV-TER-06).
    River(String),
    /// Dense trees closed to formed troops (MOV-TER-11).
    DenseTrees(String),
    /// A hedge or wall without a gap, for wheeled pieces (MOV-R-33).
    Obstacle(String),
    /// Off the table.
    OffTable,
}

impl Blocked {
    /// The rule that blocks.
    pub fn rule(&self) -> &'static str {
        match self {
            Blocked::River(_) => "MOV-TER-06",
            Blocked::DenseTrees(_) => "MOV-TER-11",
            Blocked::Obstacle(_) => "MOV-TER-12",
            Blocked::OffTable => "MOV-GEN-01",
        }
    }

    /// In words.
    pub fn describe(&self) -> String {
        match self {
            Blocked::River(n) => {
                format!("the river '{n}' can be crossed only at a ford or a bridge")
            }
            Blocked::DenseTrees(n) => {
                format!("formed troops may not enter the dense trees '{n}'")
            }
            Blocked::Obstacle(n) => {
                format!("limbered artillery and wagons may cross '{n}' only at a gap")
            }
            Blocked::OffTable => "voluntary moves must stay on the table".to_string(),
        }
    }
}

/// What the ground under a point is made of, for the log.
#[derive(Clone, Debug, PartialEq)]
pub struct GroundInfo {
    /// The multiplier of the ground (before uphill and direction).
    pub ground: f64,
    /// The rule behind it.
    pub rule: &'static str,
    /// True when the piece climbs.
    pub uphill: bool,
}

/// The terrain of one table under one weather, priced by T3.
pub struct Ground<'a> {
    /// The table.
    pub table: &'a Table,
    /// T3.
    pub data: &'a TerrainData,
    /// The weather.
    pub weather: Weather,
}

fn in_band(p: Point, line: &LinearFeature) -> Option<f64> {
    let (d, s) = polyline_distance(p, &line.path);
    (d <= line.width / 2.0).then_some(s)
}

fn crossing_at(line: &LinearFeature, s: f64) -> Option<CrossingKind> {
    line.crossings.iter().find(|c| (s - c.at).abs() <= c.width / 2.0).map(|c| c.kind)
}

impl Ground<'_> {
    /// The height of the ground at `p`: each hill contour containing it adds its height,
    /// rising linearly across the slope band inside its edge.
    pub fn elevation(&self, p: Point) -> f64 {
        let band = self.table.slope_band;
        let mut e = 0.0;
        for a in &self.table.areas {
            if a.kind != AreaKind::Hill || !point_in_polygon(p, &a.polygon.points) {
                continue;
            }
            let pts = &a.polygon.points;
            let mut d = f64::INFINITY;
            for i in 0..pts.len() {
                d = d.min(tabletop::geometry::point_segment_distance(
                    p,
                    pts[i],
                    pts[(i + 1) % pts.len()],
                ));
            }
            e += if band > 0.0 { a.height * (d / band).min(1.0) } else { a.height };
        }
        e
    }

    /// True when moving from `p` along the unit vector `dir` climbs faster than the threshold.
    pub fn uphill(&self, p: Point, dir: Vec2) -> bool {
        if !self.table.areas.iter().any(|a| a.kind == AreaKind::Hill) {
            return false;
        }
        // A one-sided difference in the direction of travel: a point on the plateau just past
        // the slope band is level, a point just inside it climbs.
        let h = 1e-8;
        let rise = (self.elevation(p + dir * h) - self.elevation(p)) / h;
        rise > self.data.slope.uphill_threshold
    }

    fn road_multiplier(&self, kind: LineKind) -> Option<f64> {
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

    /// The road under `p`, if any: its multiplier (the cheapest road there).
    pub fn road_at(&self, p: Point) -> Option<f64> {
        let mut best: Option<f64> = None;
        for l in &self.table.lines {
            if let Some(m) = self.road_multiplier(l.kind)
                && in_band(p, l).is_some()
            {
                best = Some(best.map_or(m, |b: f64| b.min(m)));
            }
        }
        best
    }

    /// The multiplier of the ground at `p` for a mover going along `dir` (ground × uphill),
    /// with the rule it comes from, or why the ground is closed.
    pub fn at(&self, p: Point, dir: Vec2, who: MoverKind) -> Result<GroundInfo, Blocked> {
        let m = &self.data.multiplier;
        if p.x < 0.0 || p.y < 0.0 || p.x > self.table.width || p.y > self.table.height {
            return Err(Blocked::OffTable);
        }
        let mut ground: Option<(f64, &'static str)> = None;
        // Water first: rivers and streams, with their fords and bridges.
        for l in &self.table.lines {
            if !matches!(l.kind, LineKind::River | LineKind::Stream) {
                continue;
            }
            if let Some(s) = in_band(p, l) {
                let g = match crossing_at(l, s) {
                    Some(CrossingKind::Ford) => (m.ford, "MOV-TER-07"),
                    Some(CrossingKind::Bridge) => (self.road_at(p).unwrap_or(m.firm), "MOV-TER-08"),
                    None if l.kind == LineKind::River => {
                        return Err(Blocked::River(l.name.clone()));
                    }
                    None => (m.stream, "MOV-TER-12"),
                };
                ground = Some(match ground {
                    Some(o) if o.0 >= g.0 => o,
                    _ => g,
                });
            }
        }
        let ground = match ground {
            Some(g) => g,
            None => match self.road_at(p) {
                Some(r) => (
                    r,
                    if r == m.paved_road && self.weather == Weather::Dry {
                        "MOV-TER-09"
                    } else {
                        "MOV-TER-10"
                    },
                ),
                None => {
                    let mut g = (m.firm, "MOV-TER-02");
                    for a in &self.table.areas {
                        let v = match a.kind {
                            AreaKind::Hill => continue,
                            AreaKind::Wood => (m.light_woods, "MOV-TER-12"),
                            AreaKind::Rough => (m.brush, "MOV-TER-12"),
                            AreaKind::Marsh => (m.mud, "MOV-TER-03"),
                            AreaKind::Village => (m.village, "MOV-TER-12"),
                            AreaKind::DenseTrees => (m.dense_trees_open, "MOV-TER-11"),
                        };
                        if !point_in_polygon(p, &a.polygon.points) {
                            continue;
                        }
                        if a.kind == AreaKind::DenseTrees && who.formed {
                            return Err(Blocked::DenseTrees(a.name.clone()));
                        }
                        if v.0 > g.0 {
                            g = v;
                        }
                    }
                    g
                }
            },
        };
        let uphill = self.uphill(p, dir);
        Ok(GroundInfo {
            ground: ground.0 * if uphill { m.uphill } else { 1.0 },
            rule: if uphill { "MOV-TER-04" } else { ground.1 },
            uphill,
        })
    }

    /// Every parameter in (0, 1) where the segment `a`–`b` crosses a terrain boundary.
    pub fn cuts(&self, a: Point, b: Point, out: &mut Vec<f64>) {
        if a.distance(b) == 0.0 {
            return;
        }
        let (slo, shi) =
            (Vec2::new(a.x.min(b.x), a.y.min(b.y)), Vec2::new(a.x.max(b.x), a.y.max(b.y)));
        for ar in &self.table.areas {
            let pts = &ar.polygon.points;
            let (plo, phi) = poly_bounds(pts);
            if plo.x > shi.x || phi.x < slo.x || plo.y > shi.y || phi.y < slo.y {
                continue;
            }
            for i in 0..pts.len() {
                segment_cuts(a, b, pts[i], pts[(i + 1) % pts.len()], out);
            }
        }
        for l in &self.table.lines {
            if matches!(l.kind, LineKind::Wall | LineKind::Hedge) {
                continue;
            }
            let h = l.width / 2.0;
            for w in l.path.windows(2) {
                let Some(t) = (w[1] - w[0]).normalized() else {
                    continue;
                };
                let n = t.perp_left() * h;
                segment_cuts(a, b, w[0] + n, w[1] + n, out);
                segment_cuts(a, b, w[0] - n, w[1] - n, out);
            }
            for v in &l.path {
                segment_circle(a, b, *v, h, out);
            }
            for c in &l.crossings {
                for s in [c.at - c.width / 2.0, c.at + c.width / 2.0] {
                    if let Some((q, t)) = polyline_at(&l.path, s) {
                        let n = t.perp_left() * (h + 0.01);
                        segment_cuts(a, b, q - n, q + n, out);
                    }
                }
            }
        }
        // Hill slope bands: sample, then bisect changes of the local slope classification
        // (only where the segment comes near a hill).
        let (lo, hi) =
            (Vec2::new(a.x.min(b.x), a.y.min(b.y)), Vec2::new(a.x.max(b.x), a.y.max(b.y)));
        let near_hill = self.table.areas.iter().any(|x| {
            x.kind == AreaKind::Hill && {
                let (plo, phi) = poly_bounds(&x.polygon.points);
                plo.x <= hi.x && phi.x >= lo.x && plo.y <= hi.y && phi.y >= lo.y
            }
        });
        if near_hill {
            let len = a.distance(b);
            let Some(dir) = (b - a).normalized() else {
                return;
            };
            let steps = ((len / 0.1).ceil() as usize).max(1);
            let class = |t: f64| self.uphill(a.lerp(b, t), dir);
            let mut prev = class(0.0);
            let mut t_prev = 0.0;
            for i in 1..=steps {
                let t = i as f64 / steps as f64;
                let c = class(t);
                if c != prev {
                    let (mut lo, mut hi) = (t_prev, t);
                    for _ in 0..40 {
                        let mid = 0.5 * (lo + hi);
                        if class(mid) == prev {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    out.push(0.5 * (lo + hi));
                }
                prev = c;
                t_prev = t;
            }
        }
    }

    /// The linear obstacles (hedges, walls, streams) whose centreline the segment crosses
    /// outside a gap, by index into `table.lines`; and any a wheeled mover may not cross.
    pub fn obstacles_crossed(
        &self,
        a: Point,
        b: Point,
        who: MoverKind,
        out: &mut Vec<usize>,
    ) -> Result<(), Blocked> {
        for (i, l) in self.table.lines.iter().enumerate() {
            if !matches!(l.kind, LineKind::Wall | LineKind::Hedge | LineKind::Stream) {
                continue;
            }
            let mut run = 0.0;
            for w in l.path.windows(2) {
                let seg = w[0].distance(w[1]);
                if let Some((t, u)) = tabletop::geometry::segment_intersection(a, b, w[0], w[1])
                    && t > 0.0
                {
                    let s = run + u * seg;
                    if crossing_at(l, s).is_none() {
                        if who.wheeled && l.kind != LineKind::Stream {
                            return Err(Blocked::Obstacle(l.name.clone()));
                        }
                        if !out.contains(&i) {
                            out.push(i);
                        }
                    }
                }
                run += seg;
            }
        }
        Ok(())
    }

    /// The surcharge for crossing obstacle `index` (MOV-TER-12), given the unit's allowance
    /// for the WRG reading.
    pub fn surcharge(&self, index: usize, allowance: f64, who: MoverKind) -> f64 {
        let Some(l) = self.table.lines.get(index) else {
            return 0.0;
        };
        match self.data.obstacle_model {
            ObstacleModel::Surcharge => match l.kind {
                LineKind::Hedge => self.data.surcharge.hedge,
                LineKind::Wall => self.data.surcharge.wall,
                LineKind::Stream => self.data.surcharge.stream,
                _ => 0.0,
            },
            ObstacleModel::WrgFraction => {
                allowance
                    * if who.mounted {
                        self.data.wrg_fraction.mounted
                    } else {
                        self.data.wrg_fraction.foot
                    }
            }
        }
    }

    /// Why a footprint may not stand where it is: off the table, on river water outside a
    /// crossing (MOV-R-12), or in dense trees when formed (MOV-TER-11). `shape` is a convex
    /// polygon (a stand, or the area it sweeps).
    pub fn footprint_blocked(&self, shape: &[Point], who: MoverKind) -> Option<Blocked> {
        for p in shape {
            if p.x < -1e-9
                || p.y < -1e-9
                || p.x > self.table.width + 1e-9
                || p.y > self.table.height + 1e-9
            {
                return Some(Blocked::OffTable);
            }
        }
        for l in &self.table.lines {
            if l.kind != LineKind::River {
                continue;
            }
            for piece in river_pieces(l) {
                if crate::shapes::convex_overlap(shape, &piece) {
                    return Some(Blocked::River(l.name.clone()));
                }
            }
        }
        if who.formed {
            for a in &self.table.areas {
                if a.kind == AreaKind::DenseTrees
                    && convex_overlaps_polygon(shape, &a.polygon.points)
                    && !self.road_covers(shape)
                {
                    return Some(Blocked::DenseTrees(a.name.clone()));
                }
            }
        }
        None
    }

    fn road_covers(&self, shape: &[Point]) -> bool {
        shape.iter().all(|p| self.road_at(*p).is_some())
    }

    /// True when the rectangle is legal ground for the mover.
    pub fn rect_ok(&self, r: &Rect, who: MoverKind) -> Result<(), Blocked> {
        match self.footprint_blocked(&crate::shapes::rect_poly(r), who) {
            Some(b) => Err(b),
            None => Ok(()),
        }
    }
}

/// The river's water outside its crossings, as convex quadrilaterals (one per stretch of each
/// centreline segment between crossings).
pub fn river_pieces(l: &LinearFeature) -> Vec<Vec<Point>> {
    let h = l.width / 2.0;
    let mut out = Vec::new();
    let mut run = 0.0;
    for w in l.path.windows(2) {
        let len = w[0].distance(w[1]);
        let Some(t) = (w[1] - w[0]).normalized() else {
            continue;
        };
        // Open stretches of this segment: [run, run+len] minus the crossings.
        let mut open = vec![(run, run + len)];
        for c in &l.crossings {
            let (c0, c1) = (c.at - c.width / 2.0, c.at + c.width / 2.0);
            open = open
                .into_iter()
                .flat_map(|(s0, s1)| {
                    let mut v = Vec::new();
                    if c1 <= s0 || c0 >= s1 {
                        v.push((s0, s1));
                    } else {
                        if c0 > s0 {
                            v.push((s0, c0));
                        }
                        if c1 < s1 {
                            v.push((c1, s1));
                        }
                    }
                    v
                })
                .collect();
        }
        let n = t.perp_left() * h;
        for (s0, s1) in open {
            if s1 - s0 <= 1e-9 {
                continue;
            }
            let p0 = w[0] + t * (s0 - run);
            let p1 = w[0] + t * (s1 - run);
            out.push(vec![p0 - n, p1 - n, p1 + n, p0 + n]);
        }
        run += len;
    }
    out
}

/// The bounding box of a polygon.
fn poly_bounds(pts: &[Point]) -> (Point, Point) {
    let mut lo = Vec2::new(f64::INFINITY, f64::INFINITY);
    let mut hi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in pts {
        lo.x = lo.x.min(p.x);
        lo.y = lo.y.min(p.y);
        hi.x = hi.x.max(p.x);
        hi.y = hi.y.max(p.y);
    }
    (lo, hi)
}
