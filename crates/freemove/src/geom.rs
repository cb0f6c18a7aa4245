//! Stands on the table: their footprints, what a step costs over the ground, where a moving
//! stand first touches an enemy, and the terrain questions the rules ask (hills, houses, walls,
//! broken ground, water, roads).

use crate::Freemove;
use crate::data::{Troop, WeaponKind};
use crate::state::{CostItem, Stand, StandId, State};
use tabletop::geometry::{Facing, Point, Rect, Vec2};
use tabletop::rules::{Refusal, RuleId};
use tabletop::terrain::{AreaKind, LineKind, Table};

/// A tolerance for lengths compared with allowances.
pub const SLACK: f64 = 1e-6;

/// A step measured over the ground.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Inches from centre to centre.
    pub length: f64,
    /// Inches of allowance the way costs.
    pub cost: f64,
    /// The allowance of one step.
    pub allowance: f64,
    /// What the cost is made of.
    pub items: Vec<CostItem>,
    /// What set the allowance.
    pub basis: String,
    /// Rules applied.
    pub rules: Vec<RuleId>,
}

/// How a stand is moving, for its allowance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gait {
    /// A single stand: normal, or the road length when the whole step lies on a road.
    Single,
    /// In column (FMT-TIME-08, FMT-R-34).
    Column,
    /// In square: half an infantry move (FMT-SQ-05).
    Square,
}

fn refuse(rule: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(rule, why)
}

/// A compass bearing in degrees for a facing.
pub fn bearing(f: Facing) -> f64 {
    let b = f.bearing_degrees();
    if b.abs() < 1e-9 { 0.0 } else { b }
}

/// Whether `kind` is broken ground (woods, dense trees, marsh, rough).
pub fn broken(kind: AreaKind) -> bool {
    matches!(kind, AreaKind::Wood | AreaKind::DenseTrees | AreaKind::Marsh | AreaKind::Rough)
}

impl Freemove {
    /// The stand's type.
    pub fn troop(&self, s: &Stand) -> &Troop {
        &self.data.troops[s.troop]
    }

    /// Current points: start less kills (FMT-ROS-03, FMT-ROS-05).
    pub fn points(&self, s: &Stand) -> u32 {
        self.troop(s).points.saturating_sub(s.kills)
    }

    /// What the stand shoots with (bow-armed light infantry shoot as archers).
    pub fn weapon(&self, s: &Stand) -> WeaponKind {
        if s.bow { WeaponKind::Bow } else { self.troop(s).weapon }
    }

    /// Infantry (may form squares, enter houses).
    pub fn infantry(&self, s: &Stand) -> bool {
        !self.troop(s).mounted
    }

    /// A stand's footprint at a centre and facing.
    pub fn footprint(&self, at: Point, facing: Facing) -> Rect {
        Rect::new(at, facing, self.data.rules.stand.width, self.data.rules.stand.depth)
    }

    /// The touching distance.
    pub fn eps(&self) -> f64 {
        self.data.rules.contact.epsilon
    }

    /// Whether two stands touch.
    pub fn touching(&self, a: &Rect, b: &Rect) -> bool {
        a.within(b, self.eps() + SLACK)
    }

    /// The enemy stands touching this one.
    pub fn enemies_touching(&self, st: &State, id: StandId) -> Vec<StandId> {
        let s = &st.stands[id];
        st.stands
            .iter()
            .filter(|o| o.on_table && o.side != s.side && self.touching(&s.rect, &o.rect))
            .map(|o| o.id)
            .collect()
    }

    /// The hill (area index) whose outline holds `p`, the last listed if several do.
    pub fn hill_at(&self, table: &Table, p: Point) -> Option<usize> {
        table
            .areas
            .iter()
            .enumerate()
            .filter(|(_, a)| a.kind == AreaKind::Hill && a.polygon.contains(p))
            .map(|(i, _)| i)
            .next_back()
    }

    /// The house (a village area) whose outline holds `p`.
    pub fn house_at(&self, table: &Table, p: Point) -> Option<usize> {
        table.areas.iter().position(|a| a.kind == AreaKind::Village && a.polygon.contains(p))
    }

    /// Whether the straight line from `a` to `b` crosses a wall.
    pub fn crosses_wall(&self, table: &Table, a: Point, b: Point) -> bool {
        table
            .lines
            .iter()
            .any(|l| l.kind == LineKind::Wall && !l.centreline_crossings(a, b).is_empty())
    }

    /// The allowance of one step.
    pub fn allowance_len(&self, st: &State, s: &Stand, gait: Gait, on_road: bool) -> f64 {
        let t = self.troop(s);
        match gait {
            Gait::Square => {
                let slowest = s
                    .square
                    .and_then(|q| st.square(q))
                    .map(|q| {
                        q.stands
                            .iter()
                            .map(|i| self.troop(&st.stands[*i]).normal)
                            .fold(t.normal, f64::min)
                    })
                    .unwrap_or(t.normal);
                slowest / 2.0
            }
            Gait::Column => t.column,
            Gait::Single if on_road => t.column,
            Gait::Single => t.normal,
        }
    }

    /// The allowance of one step and what set it.
    pub fn allowance(&self, st: &State, s: &Stand, gait: Gait, on_road: bool) -> (f64, String) {
        let t = self.troop(s);
        let a = self.allowance_len(st, s, gait, on_road);
        let basis = match gait {
            Gait::Square => format!("half the slowest infantry move in the square, {}\"", a * 2.0),
            Gait::Column => format!("{} in column, {a}\"", t.name),
            Gait::Single if on_road => format!("{} on a road, {a}\"", t.name),
            Gait::Single => format!("{} normal move, {a}\"", t.name),
        };
        (a, basis)
    }

    /// Whether the whole straight way from `a` to `b` lies on a road.
    pub fn on_road(&self, table: &Table, a: Point, b: Point) -> bool {
        if a.distance(b) < SLACK {
            return false;
        }
        table.lines.iter().any(|l| {
            matches!(l.kind, LineKind::PavedRoad | LineKind::DirtRoad) && {
                let iv = l.band_intervals(a, b);
                iv.first().is_some_and(|f| f.0 <= 1e-9)
                    && iv.iter().any(|x| x.1 >= 1.0 - 1e-9)
                    && iv.len() == 1
            }
        })
    }

    /// Measures a stand's step from `from` to the footprint `to` over the ground: the length
    /// and its cost against the allowance (terrain defaults: docs/rulings/freemove.md), or the
    /// rule that forbids the way.
    pub fn measure(
        &self,
        st: &State,
        s: &Stand,
        from: &Rect,
        to: &Rect,
        gait: Gait,
    ) -> Result<Measured, Refusal> {
        self.measure_way(st, s, from, to, gait, true)
    }

    /// As [`Freemove::measure`]; with `end` false the footprint at the end is not judged (a
    /// charge stops where it touches, before it).
    pub fn measure_way(
        &self,
        st: &State,
        s: &Stand,
        from: &Rect,
        to: &Rect,
        gait: Gait,
        end: bool,
    ) -> Result<Measured, Refusal> {
        let table = &st.table;
        let (a, b) = (from.centre, to.centre);
        if !(b.is_finite() && to.facing.vector().is_finite()) {
            return Err(refuse("FMT-TIME-07", "the step must go to a finite point"));
        }
        if end && !table.contains_rect(to) {
            return Err(refuse("FMT-TIME-07", "the step would leave the table"));
        }
        let t = self.troop(s);
        let road = gait == Gait::Single && self.on_road(table, a, b);
        // What set the allowance is put into words only for a step that lands.
        let allowance = self.allowance_len(st, s, gait, road);
        let basis = String::new();
        let length = a.distance(b);
        let mut rules = vec![RuleId::new("FMT-TIME-07")];
        if road || gait == Gait::Column {
            rules.push(RuleId::new("FMT-TIME-08"));
        }
        if gait == Gait::Square {
            rules.push(RuleId::new("FMT-SQ-05"));
        }
        let mut items = Vec::new();
        let mut whole: Option<String> = None;
        let mut broken_len = 0.0;
        for area in &table.areas {
            if broken(area.kind) {
                broken_len += area.polygon.length_inside(a, b);
            }
            if end
                && area.kind == AreaKind::Village
                && area.polygon.contains(b)
                && (t.mounted || gait == Gait::Square)
            {
                return Err(refuse(
                    "FMT-DEF-05",
                    format!("only foot stands enter a house (not {})", t.name),
                ));
            }
        }
        if gait == Gait::Square {
            if broken_len > SLACK {
                return Err(refuse("FMT-SQ-07", "a square cannot move through broken ground"));
            }
            if table.elevation(b) > table.elevation(a) + 1e-9 {
                return Err(refuse("FMT-SQ-07", "a square cannot move up a hill"));
            }
            if self.hill_at(table, a).is_some() && length > SLACK {
                return Err(refuse("FMT-SQ-07", "a square formed on a hill cannot move"));
            }
        }
        let open = (length - broken_len).max(0.0);
        if open > 0.0 {
            items.push(CostItem {
                inches: open,
                factor: 1.0,
                what: "open ground".into(),
                rule: RuleId::new("FMT-TIME-07"),
            });
        }
        if broken_len > 0.0 {
            items.push(CostItem {
                inches: broken_len,
                factor: self.data.rules.terrain.broken_cost,
                what: "broken ground (not in the source)".into(),
                rule: RuleId::new("FMT-TIME-09"),
            });
        }
        for (j, l) in table.lines.iter().enumerate() {
            match l.kind {
                LineKind::River | LineKind::Stream => {
                    let band = l.band_intervals(a, b);
                    let mut dry: f64 = band.iter().map(|x| x.1 - x.0).sum();
                    for c in 0..l.crossings.len() {
                        dry -= l.crossing_intervals(c, a, b).iter().map(|x| x.1 - x.0).sum::<f64>();
                    }
                    if dry * length > 0.01
                        || (end && table.rect_overlaps_band_outside_crossings(to, j))
                    {
                        return Err(refuse(
                            "FMT-TIME-09",
                            format!(
                                "{} is water, crossed only at a ford or bridge (not in the source)",
                                name_of(&l.name, "the river")
                            ),
                        ));
                    }
                }
                LineKind::Wall | LineKind::Hedge => {
                    let n = l.centreline_crossings(a, b).len();
                    if n > 0 {
                        let share = if t.mounted {
                            self.data.rules.terrain.wall_horse
                        } else {
                            self.data.rules.terrain.wall_foot
                        };
                        if share >= 1.0 {
                            // A crossing that costs a whole move is the whole step.
                            whole = Some(name_of(&l.name, "a wall").to_string());
                            continue;
                        }
                        items.push(CostItem {
                            inches: share * t.normal * n as f64,
                            factor: 1.0,
                            what: format!(
                                "crossing {} (not in the source)",
                                name_of(&l.name, "a wall")
                            ),
                            rule: RuleId::new("FMT-TIME-09"),
                        });
                    }
                }
                _ => {}
            }
        }
        if let Some(name) = whole {
            let so_far: f64 = items.iter().map(|i| i.inches * i.factor).sum();
            items.push(CostItem {
                inches: (allowance - so_far).max(0.0),
                factor: 1.0,
                what: format!("crossing {name} takes the whole move (not in the source)"),
                rule: RuleId::new("FMT-TIME-09"),
            });
        }
        let cost: f64 = items.iter().map(|i| i.inches * i.factor).sum();
        if cost > allowance + SLACK {
            return Err(refuse(
                if gait == Gait::Square { "FMT-SQ-05" } else { "FMT-TIME-07" },
                format!(
                    "the step costs {}\" of a {}\" move: a longer way is a chain of steps",
                    fmt_in(cost),
                    fmt_in(allowance)
                ),
            ));
        }
        Ok(Measured { length, cost, allowance, items, basis, rules })
    }

    /// Whether a footprint overlaps a stand on the table other than those in `except`.
    pub fn overlapping(&self, st: &State, r: &Rect, except: &[StandId]) -> Option<StandId> {
        st.stands
            .iter()
            .filter(|o| o.on_table && !except.contains(&o.id))
            .find(|o| o.rect.within(r, 0.0) && o.rect.overlaps(r))
            .map(|o| o.id)
    }

    /// How many stands other than `except` stand in the house `h`.
    pub fn in_house(&self, st: &State, h: usize, except: &[StandId]) -> usize {
        let area = &st.table.areas[h];
        st.stands
            .iter()
            .filter(|o| {
                o.on_table && !except.contains(&o.id) && area.polygon.contains(o.rect.centre)
            })
            .count()
    }

    /// The first enemy a footprint moving by `d` comes within touching distance of: the share
    /// of `d` gone and the enemy (FMT-R-07). The distance between a translating rectangle and a
    /// fixed one is convex along the way, so its least value is found by a ternary search and
    /// the first touch by bisection before it.
    pub fn first_touch(
        &self,
        st: &State,
        side: tabletop::Side,
        r: &Rect,
        d: Vec2,
        ignore: &[StandId],
    ) -> Option<(f64, StandId)> {
        let eps = self.eps();
        let (a, b) = (r.centre, r.centre + d);
        let hd = r.half_diagonal();
        let mut best: Option<(f64, StandId)> = None;
        for o in
            st.stands.iter().filter(|o| o.on_table && o.side != side && !ignore.contains(&o.id))
        {
            // Too far from the way for the circles round the two footprints to meet.
            let reach = hd + o.rect.half_diagonal() + eps + SLACK;
            if tabletop::geometry::point_segment_distance(o.rect.centre, a, b) > reach {
                continue;
            }
            let f = |t: f64| r.translated(d * t).distance(&o.rect);
            if f(0.0) <= eps {
                return Some((0.0, o.id));
            }
            let (mut lo, mut hi) = (0.0, 1.0);
            for _ in 0..36 {
                let m1 = lo + (hi - lo) / 3.0;
                let m2 = hi - (hi - lo) / 3.0;
                if f(m1) <= f(m2) {
                    hi = m2;
                } else {
                    lo = m1;
                }
            }
            let tmin = (lo + hi) / 2.0;
            let tmin = if f(1.0) <= f(tmin) { 1.0 } else { tmin };
            if f(tmin) > eps {
                continue;
            }
            let (mut a, mut b) = (0.0, tmin);
            for _ in 0..48 {
                let m = (a + b) / 2.0;
                if f(m) <= eps {
                    b = m;
                } else {
                    a = m;
                }
            }
            if best.is_none_or(|(t, i)| b < t || (b == t && o.id < i)) {
                best = Some((b, o.id));
            }
        }
        best
    }

    /// The least edge-to-edge distance from a footprint to any enemy stand of `side`'s foe.
    pub fn nearest_enemy_gap(&self, st: &State, side: tabletop::Side, r: &Rect) -> f64 {
        // The edge gap is at least the centres' distance less both half-diagonals.
        let hd = r.half_diagonal();
        let mut best = f64::INFINITY;
        for o in st.stands_of(side.other()) {
            if o.rect.centre.distance(r.centre) - hd - o.rect.half_diagonal() < best {
                best = best.min(o.rect.distance(r));
            }
        }
        best
    }
}

fn name_of<'a>(name: &'a str, default: &'a str) -> &'a str {
    if name.trim().is_empty() { default } else { name }
}

/// Inches as wargamers write them: one decimal, no trailing zero.
pub fn fmt_in(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if (r - r.round()).abs() < 1e-9 { format!("{}", r.round() as i64) } else { format!("{r:.1}") }
}

/// A point written as `(x, y)` in inches.
pub fn fmt_pt(p: Point) -> String {
    format!("({}, {})", fmt_in(p.x), fmt_in(p.y))
}

/// A facing from a bearing, refusing what is not a finite number.
pub fn facing_of(bearing: f64) -> Result<Facing, Refusal> {
    if !bearing.is_finite() || bearing.abs() > 1e6 {
        return Err(refuse("FMT-R-05", "a facing is a finite compass bearing in degrees"));
    }
    Ok(Facing::from_bearing_degrees(bearing))
}
