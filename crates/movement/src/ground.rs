//! The chapter's terrain prices (T3) over tabletop's [`Table`]: the multiplier of a piece of
//! path whose ground `Table::pieces` has worked out exactly (areas, bands, fords, bridges and the
//! rise of the hill slopes, MOV-R-02), the footprint tests for ground a stand may not stand on
//! (river water outside crossings, dense trees for formed troops, the table's edge), and the
//! linear obstacles a path crosses.

use crate::data::{ObstacleModel, TerrainData};
use crate::model::Weather;
use crate::shapes::{
    EPS, box_around, boxes_apart, convex_overlaps_polygon, polyline_distance, swept,
};
use tabletop::geometry::{Point, Rect, Vec2};
use tabletop::terrain::{
    AreaKind, CrossingKind, Ground as TerrainGround, LineKind, LinearFeature, Table,
};

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

/// What the ground under a piece of path is made of, for the log and the referee.
#[derive(Clone, Debug, PartialEq)]
pub struct GroundInfo {
    /// The whole multiplier: the ground underfoot, doubled when the piece climbs.
    pub ground: f64,
    /// The multiplier of the ground underfoot alone.
    pub base: f64,
    /// The rule behind the ground underfoot.
    pub rule: &'static str,
    /// The ground in words ("ford", "mud", "dirt road (wet)").
    pub what: &'static str,
    /// Other rules the ground applies: the river crossed at a ford or bridge (MOV-TER-06), the
    /// road a bridge carries (MOV-TER-09, MOV-TER-10).
    pub also: [Option<&'static str>; 2],
    /// True when the piece climbs (MOV-TER-04).
    pub uphill: bool,
    /// True when the piece is on a hill without climbing: level or downhill (MOV-TER-05).
    pub on_slope: bool,
}

/// The terrain of one table under one weather, priced by T3.
pub struct Ground<'a> {
    /// The table.
    pub table: &'a Table,
    /// T3.
    pub data: &'a TerrainData,
    /// The weather.
    pub weather: Weather,
    /// The water every footprint test meets, worked out once: each river's open pieces and
    /// each dense wood, with the box around it.
    blocks: std::cell::OnceCell<Blocks>,
    /// A box most tests are made in (around one unit's reach), if any: the blocks that come
    /// near it, made when first asked, serve every test inside it.
    focus: Option<(Point, Point)>,
    near: std::cell::OnceCell<Blocks>,
}

/// The ground that may close a footprint, with boxes for a cheap first test.
#[derive(Clone, Default)]
struct Blocks {
    /// River water outside crossings: (index of the line, piece, box).
    rivers: Vec<(usize, Vec<Point>, (Point, Point))>,
    /// Dense trees: (index of the area, box).
    woods: Vec<(usize, (Point, Point))>,
}

fn in_band(p: Point, line: &LinearFeature) -> Option<f64> {
    let (d, s) = polyline_distance(p, &line.path);
    (d <= line.width / 2.0).then_some(s)
}

fn crossing_at(line: &LinearFeature, s: f64) -> Option<CrossingKind> {
    line.crossings.iter().find(|c| (s - c.at).abs() <= c.width / 2.0).map(|c| c.kind)
}

impl<'a> Ground<'a> {
    /// The ground of `table` priced by `data` under `weather`.
    pub fn new(table: &'a Table, data: &'a TerrainData, weather: Weather) -> Ground<'a> {
        Ground {
            table,
            data,
            weather,
            blocks: std::cell::OnceCell::new(),
            focus: None,
            near: std::cell::OnceCell::new(),
        }
    }

    /// The same ground, with the tests inside `focus` made against the blocks near it alone:
    /// a block apart from the focus is apart from everything inside it, so the answers are
    /// the same.
    pub fn focused(mut self, focus: (Point, Point)) -> Ground<'a> {
        self.focus = Some(focus);
        self.near = std::cell::OnceCell::new();
        self
    }

    /// The blocks a test inside the box `bx` may meet, in the table's order.
    fn blocks_for(&self, bx: (Point, Point)) -> &Blocks {
        if let Some(f) = self.focus
            && bx.0.x >= f.0.x
            && bx.0.y >= f.0.y
            && bx.1.x <= f.1.x
            && bx.1.y <= f.1.y
        {
            return self.near.get_or_init(|| {
                let all = self.blocks();
                Blocks {
                    rivers: (all.rivers.iter())
                        .filter(|(_, _, b)| !boxes_apart(f, *b, EPS))
                        .cloned()
                        .collect(),
                    woods: (all.woods.iter())
                        .filter(|(_, b)| !boxes_apart(f, *b, EPS))
                        .copied()
                        .collect(),
                }
            });
        }
        self.blocks()
    }

    fn blocks(&self) -> &Blocks {
        self.blocks.get_or_init(|| {
            let mut b = Blocks::default();
            for (i, l) in self.table.lines.iter().enumerate() {
                if l.kind == LineKind::River {
                    for piece in river_pieces(l) {
                        let bx = box_around(piece.iter().copied());
                        b.rivers.push((i, piece, bx));
                    }
                }
            }
            for (i, a) in self.table.areas.iter().enumerate() {
                if a.kind == AreaKind::DenseTrees {
                    b.woods.push((i, box_around(a.polygon.points.iter().copied())));
                }
            }
            b
        })
    }

    /// A road's multiplier, rule and name under this weather (MOV-TER-09, MOV-TER-10).
    fn road(&self, kind: LineKind) -> Option<(f64, &'static str, &'static str)> {
        let m = &self.data.multiplier;
        match kind {
            LineKind::PavedRoad => Some((m.paved_road, "MOV-TER-09", "paved road")),
            LineKind::DirtRoad => Some(match self.weather {
                Weather::Dry => (m.dirt_road_dry, "MOV-TER-10", "dirt road (dry)"),
                Weather::Wet => (m.dirt_road_wet, "MOV-TER-10", "dirt road (wet)"),
            }),
            _ => None,
        }
    }

    fn road_multiplier(&self, kind: LineKind) -> Option<f64> {
        self.road(kind).map(|r| r.0)
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

    /// The multiplier of a piece of path whose ground `tabletop::terrain::Table::pieces` has
    /// worked out exactly (areas, bands, fords, bridges, rise), for a mover (ground × uphill),
    /// with the rule it comes from, or why the ground is closed.
    pub fn piece(&self, g: &TerrainGround, who: MoverKind) -> Result<GroundInfo, Blocked> {
        let m = &self.data.multiplier;
        let lines = &self.table.lines;
        // (multiplier, rule, words, the river's rule when a river is crossed)
        let mut water: Option<(f64, &'static str, &'static str, Option<&'static str>)> = None;
        let mut road: Option<(f64, &'static str, &'static str)> = None;
        for j in g.bands.iter() {
            let Some(l) = lines.get(j) else { continue };
            match l.kind {
                LineKind::River | LineKind::Stream => {
                    let river = (l.kind == LineKind::River).then_some("MOV-TER-06");
                    let v = if g.in_ford(j) {
                        (m.ford, "MOV-TER-07", "ford", river)
                    } else if g.on_bridge(j) {
                        (f64::NAN, "MOV-TER-08", "bridge", river)
                    } else if l.kind == LineKind::River {
                        return Err(Blocked::River(l.name.clone()));
                    } else {
                        (m.stream, "MOV-TER-12", "stream", None)
                    };
                    water = Some(match water {
                        Some(o) if o.0 >= v.0 => o,
                        _ => v,
                    });
                }
                k => {
                    if let Some(r) = self.road(k)
                        && road.is_none_or(|b| r.0 < b.0)
                    {
                        road = Some(r);
                    }
                }
            }
        }
        // (multiplier, rule, words, other rules applied)
        let ground: (f64, &'static str, &'static str, [Option<&'static str>; 2]) = match water {
            // A bridge costs as the road over it, or firm ground without one (MOV-TER-08).
            Some((v, rule, _, river)) if v.is_nan() => match road {
                Some((r, road_rule, _)) => (
                    r,
                    rule,
                    if road_rule == "MOV-TER-09" {
                        "bridge (as its paved road)"
                    } else if self.weather == Weather::Dry {
                        "bridge (as its dirt road, dry)"
                    } else {
                        "bridge (as its dirt road, wet)"
                    },
                    [Some(road_rule), river],
                ),
                None => (m.firm, rule, "bridge (as firm ground)", [river, None]),
            },
            Some((v, rule, what, river)) => (v, rule, what, [river, None]),
            None => match road {
                Some((r, rule, what)) => (r, rule, what, [None, None]),
                None => {
                    let mut best = (m.firm, "MOV-TER-02", "firm ground", [None, None]);
                    for i in g.areas.iter() {
                        let Some(a) = self.table.areas.get(i) else { continue };
                        let v = match a.kind {
                            AreaKind::Hill | AreaKind::Open => continue,
                            AreaKind::Wood => (m.light_woods, "MOV-TER-12", "light woods"),
                            AreaKind::Rough => (m.brush, "MOV-TER-12", "brush"),
                            AreaKind::Marsh => (m.mud, "MOV-TER-03", "mud"),
                            AreaKind::Village => (m.village, "MOV-TER-12", "village"),
                            AreaKind::DenseTrees => {
                                if who.formed {
                                    return Err(Blocked::DenseTrees(a.name.clone()));
                                }
                                (m.dense_trees_open, "MOV-TER-11", "dense trees")
                            }
                        };
                        if v.0 > best.0 {
                            best = (v.0, v.1, v.2, [None, None]);
                        }
                    }
                    best
                }
            },
        };
        let uphill = g.is_uphill(self.data.slope.uphill_threshold);
        let on_hill = g
            .areas
            .iter()
            .any(|i| self.table.areas.get(i).is_some_and(|a| a.kind == AreaKind::Hill));
        Ok(GroundInfo {
            ground: ground.0 * if uphill { m.uphill } else { 1.0 },
            base: ground.0,
            rule: ground.1,
            what: ground.2,
            also: ground.3,
            uphill,
            on_slope: on_hill && !uphill,
        })
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
        let mine = box_around(shape.iter().copied());
        let blocks = self.blocks_for(mine);
        for (i, piece, bx) in &blocks.rivers {
            // The piece's own sides first: they part most footprints from the water (the
            // answer is the same whichever sides are tried first).
            if !boxes_apart(mine, *bx, EPS) && crate::shapes::convex_overlap(piece, shape) {
                return Some(Blocked::River(self.table.lines[*i].name.clone()));
            }
        }
        if who.formed {
            for (i, bx) in &blocks.woods {
                let a = &self.table.areas[*i];
                if !boxes_apart(mine, *bx, EPS)
                    && convex_overlaps_polygon(shape, &a.polygon.points)
                    && !self.road_covers(shape)
                {
                    return Some(Blocked::DenseTrees(a.name.clone()));
                }
            }
        }
        None
    }

    /// [`Ground::footprint_blocked`] for the area `rect` sweeps while translated by `d`, with
    /// the box around the sweep tried first: a sweep whose box is on the table and apart from
    /// every river piece (and, for formed troops, every dense wood) is clear, and its hull is
    /// never worked out. The answer is the same either way.
    pub fn sweep_blocked(&self, rect: &Rect, d: Vec2, who: MoverKind) -> Option<Blocked> {
        let c = rect.corners();
        let bx = box_around(c.iter().copied().chain(c.iter().map(|p| *p + d)));
        let on_table = bx.0.x >= -1e-9
            && bx.0.y >= -1e-9
            && bx.1.x <= self.table.width + 1e-9
            && bx.1.y <= self.table.height + 1e-9;
        if on_table {
            let blocks = self.blocks_for(bx);
            let clear = blocks.rivers.iter().all(|(_, _, b)| boxes_apart(bx, *b, EPS))
                && (!who.formed || blocks.woods.iter().all(|(_, b)| boxes_apart(bx, *b, EPS)));
            if clear {
                return None;
            }
        }
        self.footprint_blocked(&swept(rect, d), who)
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
