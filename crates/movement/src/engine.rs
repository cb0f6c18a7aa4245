//! The move planner: it walks a move's steps from the unit's pose, prices each one (terrain,
//! direction, facing, wheel, formation change, obstacles) and finds what the move runs into
//! (terrain it may not enter, friends, enemies, gaps in an enemy line), without touching the
//! state.

use crate::Movement;
use crate::ground::{Blocked, Ground, MoverKind};
use crate::layout::{Pose, centroid, layout, outline, ranks, shape_problem};
use crate::model::{Formation, Turn};
use crate::shapes::{
    box_around, boxes_apart, convex_hull, convex_overlap, padded, rect_poly, sweep_interval, swept,
};
use crate::state::{CostItem, Factor, Leg, LegKind, State, Step, Unit, UnitId};
use std::collections::BTreeSet;
use tabletop::geometry::{Facing, Point, Rect, Sector, Vec2, Wheel, direction_sector, rotation};
use tabletop::rules::{Refusal, RuleId};

/// What a move does when it would run into an enemy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnEnemy {
    /// Refuse, citing this rule.
    Refuse(&'static str),
    /// Stop at first contact and drop the rest of the path (a charge).
    StopAtContact,
    /// Stop at first contact, as a compulsory move does.
    StopShort,
}

/// What a move does when it would run into friends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFriend {
    /// Refuse (MOV-THRU-02).
    Refuse,
    /// Stop at first contact (compulsory regrouping).
    StopShort,
    /// Pass through (a move imposed by a morale result).
    PassThrough,
}

/// How a move is planned.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Enemy rule.
    pub enemy: OnEnemy,
    /// Friend rule.
    pub friend: OnFriend,
    /// Terrain that blocks: refuse (false) or stop short (true).
    pub stop_at_terrain: bool,
    /// May leave the table (a unit driven off is lost).
    pub may_leave_table: bool,
    /// The allowance, for the WRG obstacle fraction.
    pub allowance: f64,
}

/// A planned move.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The pose at the end.
    pub pose: Pose,
    /// The reference point's path, start included.
    pub path: Vec<Point>,
    /// Total cost in inches.
    pub cost: f64,
    /// Cost after each step that was carried out.
    pub cumulative: Vec<f64>,
    /// What was paid for.
    pub items: Vec<CostItem>,
    /// The rules applied.
    pub rules: BTreeSet<&'static str>,
    /// The move ends in melee contact with an enemy.
    pub ends_in_contact: bool,
    /// The move was cut short where it met an enemy, friend or closed terrain.
    pub stopped: Option<String>,
    /// Steps dropped after the stop.
    pub dropped_steps: usize,
    /// Linear obstacles crossed (indices into the table's lines).
    pub obstacles: Vec<usize>,
    /// The unit left the table (only with `may_leave_table`).
    pub left_table: bool,
    /// After a formation change: the old index of the stand now in each place, when the
    /// stands change places.
    pub reorder: Option<Vec<usize>>,
    /// The steps carried out, each with its poses and cost.
    pub legs: Vec<Leg>,
    /// A stretch of the path passed through friends (a move imposed by a morale result).
    pub through_friends: bool,
    /// Inches measured by the last wheel or change of formation (for its leg).
    pub last_measured: f64,
    /// The rule that cut the move short, when something did.
    pub stop_rule: Option<&'static str>,
}

fn refuse(rule: &'static str, reason: impl Into<String>) -> Refusal {
    Refusal::new(rule, reason)
}

/// The planner for one unit in one state.
pub struct Planner<'a> {
    /// The rules.
    pub rules: &'a Movement,
    /// The state.
    pub state: &'a State,
    /// The unit.
    pub unit: &'a Unit,
    /// The terrain.
    pub ground: Ground<'a>,
    /// The unit, for terrain.
    pub who: MoverKind,
    /// Every other unit on the table with the box its stands lie in, made when first asked
    /// (the broad phase of every test against other units).
    boxes: std::cell::OnceCell<Vec<(&'a Unit, Point, Point)>>,
    /// The same units by the west edge of their boxes, for the broad phase of a large battle.
    by_x: std::cell::OnceCell<ByX>,
    /// The changes of facing worked out so far: a compulsory move's many trial plans all
    /// begin with the same turn, whose search for a clear shift may test hundreds of places.
    turns: std::cell::RefCell<Vec<TurnMemo>>,
}

/// A change of facing worked out: from this pose, by this turn, for this mover, the result.
type TurnMemo = ((Pose, Turn, MoverKind), Result<Pose, Refusal>);

/// How far around a unit's stands a planner expects its tests to lie (inches): the terrain
/// that could block a footprint is looked for there once (a test outside looks at the whole
/// table, as every test once did).
const REACH: f64 = 40.0;

/// How many changes of facing a planner remembers.
const TURNS_REMEMBERED: usize = 8;

/// The box around some rectangles: (lowest corner, highest corner).
fn bounds_of(rects: impl IntoIterator<Item = Rect>) -> (Point, Point) {
    box_around(rects.into_iter().flat_map(|r| {
        let (a, b) = r.bounds();
        [a, b]
    }))
}

/// A box sure to hold some rectangles, cheaper than [`bounds_of`]: each rectangle's centre
/// give or take its half-diagonal (no corners are worked out). For the broad phase, where a
/// box a little too large only lets an exact test through.
fn loose_bounds_of(rects: impl IntoIterator<Item = Rect>) -> (Point, Point) {
    let mut lo = Point::new(f64::INFINITY, f64::INFINITY);
    let mut hi = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for r in rects {
        let h = 0.5 * r.width.hypot(r.depth) + 1e-9;
        lo = Point::new(lo.x.min(r.centre.x - h), lo.y.min(r.centre.y - h));
        hi = Point::new(hi.x.max(r.centre.x + h), hi.y.max(r.centre.y + h));
    }
    (lo, hi)
}

/// Boxes by their west edge: the boxes that may come near a box, found without looking at
/// every one (a battle of a hundred units asks this many times a plan).
struct ByX {
    /// Indices of the boxes with finite west and east edges, by west edge.
    order: Vec<usize>,
    /// Their west edges, in that order.
    west: Vec<f64>,
    /// The widest of them.
    widest: f64,
    /// The other boxes' indices: tried every time.
    odd: Vec<usize>,
}

/// Below this many boxes every box is tried.
const FEW_BOXES: usize = 24;

impl ByX {
    fn new(boxes: &[(&Unit, Point, Point)]) -> ByX {
        let mut order = Vec::new();
        let mut odd = Vec::new();
        let mut widest: f64 = 0.0;
        for (i, (_, lo, hi)) in boxes.iter().enumerate() {
            if lo.x.is_finite() && hi.x.is_finite() {
                order.push(i);
                widest = widest.max(hi.x - lo.x);
            } else {
                odd.push(i);
            }
        }
        order.sort_by(|a, b| boxes[*a].1.x.total_cmp(&boxes[*b].1.x).then(a.cmp(b)));
        let west = order.iter().map(|i| boxes[*i].1.x).collect();
        ByX { order, west, widest, odd }
    }

    /// The indices, in order, of every box that may come within `margin` of `near` (a few more
    /// perhaps, never fewer): a box whose west edge lies farther west than the widest box
    /// (and a margin) from `near`, or farther east than the margin, is apart from it.
    fn maybe_near(
        &self,
        boxes: &[(&Unit, Point, Point)],
        near: (Point, Point),
        margin: f64,
    ) -> Vec<usize> {
        let slack = margin + 1.0;
        let (west, east) = (near.0.x - self.widest - slack, near.1.x + slack);
        if boxes.len() < FEW_BOXES || !(west.is_finite() && east.is_finite()) {
            return (0..boxes.len()).collect();
        }
        let start = self.west.partition_point(|x| *x < west);
        let end = start + self.west[start..].partition_point(|x| *x <= east);
        let mut picked: Vec<usize> = self.order[start..end].to_vec();
        picked.extend_from_slice(&self.odd);
        picked.sort_unstable();
        picked
    }
}

/// Every unit on the table with the box its stands lie in, as a planner's tests against other
/// units see them, made once for the planners of many units in one state.
pub struct OtherUnits<'a>(Vec<(&'a Unit, Point, Point)>);

impl<'a> OtherUnits<'a> {
    /// The units of `state` on the table, with their boxes.
    pub fn new(state: &'a State) -> OtherUnits<'a> {
        OtherUnits(
            state
                .units
                .iter()
                .filter(|u| u.on_table)
                .map(|u| {
                    let (lo, hi) = loose_bounds_of(u.stands.iter().map(|s| s.rect));
                    (u, lo, hi)
                })
                .collect(),
        )
    }
}

impl<'a> Planner<'a> {
    /// A planner for `unit` in `state`.
    pub fn new(rules: &'a Movement, state: &'a State, unit: UnitId) -> Option<Planner<'a>> {
        let u = state.units.get(unit)?;
        Some(Planner {
            rules,
            state,
            unit: u,
            ground: Ground::new(&state.table, &rules.data.terrain, state.weather)
                .focused(padded(u.bounds(), REACH)),
            who: rules.mover_kind(u, u.pose.formation),
            boxes: std::cell::OnceCell::new(),
            by_x: std::cell::OnceCell::new(),
            turns: std::cell::RefCell::new(Vec::new()),
        })
    }

    fn n(&self) -> usize {
        self.unit.stands.len()
    }

    fn size(&self) -> (f64, f64) {
        self.unit.stand_size
    }

    fn tol(&self) -> f64 {
        self.rules.data.geometry.tolerance.contact
    }

    /// The stands of the other units (enemies or friends) whose unit's box comes near the box
    /// `near` (within the contact tolerance and a margin): the only ones a test inside that box
    /// can meet.
    fn others_near(
        &self,
        enemy: bool,
        near: (Point, Point),
    ) -> impl Iterator<Item = (&'a Unit, Rect)> + '_ {
        let me = self.unit;
        let margin = self.tol() + 1e-3;
        let boxes = self.boxes.get_or_init(|| {
            self.state
                .units
                .iter()
                .filter(|u| u.on_table && u.id != me.id)
                .map(|u| {
                    let (lo, hi) = loose_bounds_of(u.stands.iter().map(|s| s.rect));
                    (u, lo, hi)
                })
                .collect()
        });
        let index = self.by_x.get_or_init(|| ByX::new(boxes));
        let picked = index.maybe_near(boxes, near, margin);
        picked
            .into_iter()
            .map(move |i| &boxes[i])
            .filter(move |(u, lo, hi)| {
                (u.side != me.side) == enemy && !boxes_apart(near, (*lo, *hi), margin)
            })
            .flat_map(|(u, _, _)| u.stands.iter().map(move |s| (*u, s.rect)))
    }

    /// [`Planner::others_near`] among `boxes`: other units with their boxes.
    fn near_among<'b>(
        &self,
        boxes: &'b [(&'a Unit, Point, Point)],
        enemy: bool,
        near: (Point, Point),
    ) -> impl Iterator<Item = (&'a Unit, Rect)> + 'b {
        let me = self.unit;
        let margin = self.tol() + 1e-3;
        boxes
            .iter()
            .filter(move |(u, lo, hi)| {
                u.id != me.id
                    && (u.side != me.side) == enemy
                    && !boxes_apart(near, (*lo, *hi), margin)
            })
            .flat_map(|(u, _, _)| u.stands.iter().map(move |s| (*u, s.rect)))
    }

    /// True when the stands at this pose touch an enemy stand (melee contact).
    pub fn in_contact(&self, pose: &Pose) -> bool {
        let mine = layout(pose, self.n(), self.size());
        let tol = self.tol();
        self.others_near(true, bounds_of(mine.iter().copied()))
            .any(|(_, r)| mine.iter().any(|m| crate::shapes::within(m, &r, tol)))
    }

    /// [`Planner::in_contact`] with the other units' boxes made once for many planners.
    pub fn in_contact_among(&self, pose: &Pose, others: &OtherUnits<'a>) -> bool {
        let mine = layout(pose, self.n(), self.size());
        let tol = self.tol();
        self.near_among(&others.0, true, bounds_of(mine.iter().copied()))
            .any(|(_, r)| mine.iter().any(|m| crate::shapes::within(m, &r, tol)))
    }

    /// Why the stands may not stand at this pose (terrain, table, other units), if anything.
    pub fn static_problem(&self, pose: &Pose, who: MoverKind) -> Option<Refusal> {
        let mine = layout(pose, self.n(), self.size());
        for r in &mine {
            if let Err(b) = self.ground.rect_ok(r, who) {
                return Some(refuse(b.rule(), b.describe()));
            }
        }
        let near = bounds_of(mine.iter().copied());
        for (u, r) in self.others_near(false, near).chain(self.others_near(true, near)) {
            if mine.iter().any(|m| m.overlaps(&r)) {
                return Some(refuse("MOV-THRU-04", format!("the unit would overlap '{}'", u.name)));
            }
        }
        None
    }

    /// The direction factor for a displacement (MOV-DIR-01..04, MOV-R-05): forward 1, sideways
    /// or back 2; a circle has no flank or rear (MOV-FORM-04).
    pub fn direction_factor(&self, pose: &Pose, d: Vec2) -> Direction {
        let f = &self.rules.data.facing.direction;
        if pose.formation == Formation::Circle {
            return Direction {
                rule: "MOV-FORM-04",
                what: "a circle: every way is forward",
                value: f.forward,
            };
        }
        match sector_of(pose.facing, d) {
            Sector::Front => Direction { rule: "MOV-DIR-01", what: "forward", value: f.forward },
            Sector::Rear => Direction { rule: "MOV-DIR-02", what: "backward", value: f.backward },
            _ => Direction { rule: "MOV-DIR-03", what: "sideways", value: f.sideways },
        }
    }

    /// The terrain cost of moving stands whose centres are `centres` along chords ending at
    /// `ends`, with the whole-unit rule of MOV-R-01: cut every chord at every terrain boundary
    /// and pay, piece by piece, the measured length times the worst stand's multiplier.
    /// `measure` is the length the unit pays for (the reference point's travel). Returns the
    /// cost by rule, or what blocks.
    fn terrain_cost(
        &self,
        centres: &[Point],
        ends: &[Point],
        measure: f64,
        who: MoverKind,
        into: &mut Vec<TerrainPiece>,
    ) -> Result<(), Blocked> {
        if measure <= 0.0 {
            return Ok(());
        }
        // Each stand's path, split exactly by tabletop's terrain splitter.
        let table = self.ground.table;
        let mut scratch = tabletop::terrain::Scratch::default();
        let mut per_stand: Vec<Vec<tabletop::terrain::PathPiece>> =
            Vec::with_capacity(centres.len());
        let mut cuts = vec![0.0, 1.0];
        for (a, b) in centres.iter().zip(ends) {
            for p in [*a, *b] {
                if !table.contains_point(p) {
                    return Err(Blocked::OffTable);
                }
            }
            let mut out = Vec::new();
            table.pieces_with(*a, *b, &mut scratch, &mut out);
            cuts.extend(out.iter().map(|p| p.t1));
            per_stand.push(out);
        }
        cuts.sort_by(f64::total_cmp);
        cuts.dedup_by(|a, b| (*a - *b).abs() < 1e-12);
        let mut next = vec![0usize; per_stand.len()];
        for w in cuts.windows(2) {
            let (t0, t1) = (w[0], w[1]);
            if t1 - t0 <= 0.0 {
                continue;
            }
            let tm = 0.5 * (t0 + t1);
            let mut worst = TerrainPiece { multiplier: 0.0, ..TerrainPiece::firm(0.0, 0.0) };
            for (k, pieces) in per_stand.iter().enumerate() {
                while next[k] + 1 < pieces.len() && pieces[next[k]].t1 < tm {
                    next[k] += 1;
                }
                let g = match pieces.get(next[k]) {
                    Some(p) => self.ground.piece(&p.ground, who)?,
                    None => continue,
                };
                if g.ground > worst.multiplier {
                    worst = TerrainPiece {
                        rule: g.rule,
                        what: g.what,
                        length: 0.0,
                        multiplier: g.ground,
                        base: g.base,
                        uphill: g.uphill,
                        on_slope: g.on_slope,
                        also: g.also,
                    };
                }
            }
            if worst.multiplier == 0.0 {
                worst = TerrainPiece::firm(0.0, self.rules.data.terrain.multiplier.firm);
            }
            worst.length = (t1 - t0) * measure;
            into.push(worst);
        }
        Ok(())
    }

    /// Adds the items of a cost by distance: one per kind of ground met (in order of first
    /// appearance), each with its inches and its factors (the ground underfoot, uphill, the
    /// direction), and returns their total.
    fn add_terrain_items(
        &self,
        plan: &mut Plan,
        pieces: Vec<TerrainPiece>,
        direction: Option<Direction>,
        label: &str,
    ) -> f64 {
        let mut grouped: Vec<TerrainPiece> = Vec::new();
        for p in pieces {
            match grouped.iter_mut().find(|g| g.same_ground(&p)) {
                Some(g) => g.length += p.length,
                None => grouped.push(p),
            }
        }
        let up = self.rules.data.terrain.multiplier.uphill;
        let mut total = 0.0;
        for g in grouped {
            let mut parts: Vec<(&'static str, &'static str, f64)> = vec![(g.rule, g.what, g.base)];
            if g.uphill {
                parts.push(("MOV-TER-04", "uphill", up));
            }
            if g.on_slope {
                parts.push(("MOV-TER-05", "level or downhill on a hill", 1.0));
            }
            if let Some(d) = direction {
                parts.push((d.rule, d.what, d.value));
            }
            let cost = parts.iter().fold(g.length, |c, f| c * f.2);
            total += cost;
            plan.rules.insert("MOV-TER-01");
            for f in &parts {
                plan.rules.insert(f.0);
            }
            let factors: Vec<Factor> = parts.iter().map(|f| Factor::new(f.0, f.1, f.2)).collect();
            for also in g.also.into_iter().flatten() {
                plan.rules.insert(also);
            }
            if g.rule != "MOV-TER-02" || g.uphill {
                // The same multiplier whatever the troop type and armor.
                plan.rules.insert("MOV-GEN-11");
            }
            if direction.is_some_and(|d| d.value != 1.0) && g.multiplier != 1.0 {
                // Terrain and direction multiply (MOV-R-04).
                plan.rules.insert("MOV-TER-14");
            }
            plan.items.push(CostItem {
                rule: RuleId::new(if g.uphill { "MOV-TER-04" } else { g.rule }),
                what: label.to_string(),
                cost,
                leg: plan.legs.len(),
                inches: Some(g.length),
                factors,
            });
        }
        total
    }

    /// Plans a move from the unit's pose.
    pub fn plan(&self, steps: &[Step], opts: Options) -> Result<Plan, Refusal> {
        let mut pose = self.unit.pose;
        let mut plan = Plan {
            pose,
            path: vec![pose.at],
            cost: 0.0,
            cumulative: Vec::new(),
            items: Vec::new(),
            rules: BTreeSet::new(),
            ends_in_contact: false,
            stopped: None,
            dropped_steps: 0,
            obstacles: Vec::new(),
            left_table: false,
            reorder: None,
            legs: Vec::new(),
            through_friends: false,
            last_measured: 0.0,
            stop_rule: None,
        };
        let mut formed_once = false;
        for (i, step) in steps.iter().enumerate() {
            let from = pose;
            let cost_before = plan.cost;
            let items_before = plan.items.len();
            let stop = match step {
                Step::Advance { to } => {
                    self.advance(&mut pose, Vec2::new(to[0], to[1]), opts, &mut plan)?
                }
                Step::Face(turn) => {
                    self.face(&mut pose, *turn, &mut plan)?;
                    false
                }
                Step::Wheel { pivot, degrees } => {
                    self.wheel(&mut pose, *pivot, *degrees, opts, &mut plan)?
                }
                Step::Form { formation, files, gap } => {
                    if formed_once {
                        return Err(refuse(
                            "MOV-FORM-12",
                            "a move may include only one formation change (MOV-R-30)",
                        ));
                    }
                    formed_once = true;
                    self.form(&mut pose, *formation, *files, *gap, &mut plan)?;
                    false
                }
            };
            plan.cumulative.push(plan.cost);
            plan.pose = pose;
            let leg = plan.legs.len();
            for item in &mut plan.items[items_before..] {
                item.leg = leg;
            }
            let (kind, measured) = match step {
                Step::Advance { .. } => (LegKind::Advance, from.at.distance(pose.at)),
                Step::Face(_) => (LegKind::Face, 0.0),
                Step::Wheel { .. } => (LegKind::Wheel, plan.last_measured),
                Step::Form { .. } => (LegKind::Form, plan.last_measured),
            };
            plan.legs.push(Leg { kind, from, to: pose, measured, cost: plan.cost - cost_before });
            if stop || plan.left_table {
                plan.dropped_steps = steps.len() - i - 1;
                break;
            }
        }
        plan.pose = pose;
        plan.ends_in_contact = !plan.left_table && self.in_contact(&pose);
        if plan.legs.iter().any(|l| l.kind == LegKind::Wheel) && plan.legs.len() > 1 {
            // Wheels mixed with the other steps of a move (MOV-WHEEL-02).
            plan.rules.insert("MOV-WHEEL-02");
        }
        if let Some(first_face) = plan.legs.iter().position(|l| l.kind == LegKind::Face)
            && plan.legs[first_face..].iter().any(|l| {
                l.kind == LegKind::Advance
                    && self.direction_factor(&l.from, l.to.at - l.from.at).rule == "MOV-DIR-01"
            })
        {
            // Turned first, then marched forward (MOV-DIR-06).
            plan.rules.insert("MOV-DIR-06");
        }
        Ok(plan)
    }

    /// A straight segment. Returns true when the move stops here.
    fn advance(
        &self,
        pose: &mut Pose,
        to: Vec2,
        opts: Options,
        plan: &mut Plan,
    ) -> Result<bool, Refusal> {
        if !to.is_finite() {
            return Err(refuse("MOV-GEN-01", "the destination is not a finite point"));
        }
        let d_full = to - pose.at;
        if d_full.length() < 1e-12 {
            return Ok(false);
        }
        let stands = layout(pose, self.n(), self.size());
        let mut t_end: f64 = 1.0;
        let mut stop: Option<String> = None;
        let mut stop_is_contact = false;
        // The path runs off the table (a unit in flight may leave it).
        let mut leaves = false;
        // Terrain and the table edge along the swept footprints.
        {
            let blocked_at = |t: f64| -> Option<Blocked> {
                let d = d_full * t;
                stands.iter().find_map(|s| self.ground.sweep_blocked(s, d, self.who))
            };
            if let Some(b) = blocked_at(1.0) {
                if b == Blocked::OffTable && opts.may_leave_table {
                    leaves = true;
                } else if opts.stop_at_terrain {
                    let (mut lo, mut hi) = (0.0, 1.0);
                    if blocked_at(0.0).is_some() {
                        hi = 0.0;
                    }
                    for _ in 0..40 {
                        if hi - lo < 1e-9 {
                            break;
                        }
                        let mid = 0.5 * (lo + hi);
                        if blocked_at(mid).is_some() {
                            hi = mid;
                        } else {
                            lo = mid;
                        }
                    }
                    t_end = lo;
                    stop = Some(b.describe());
                    plan.stop_rule = Some(b.rule());
                } else {
                    return Err(refuse(b.rule(), b.describe()));
                }
            }
        }
        // Other units: the first overlap along the path.
        let first = |enemy: bool, t_end: f64| -> Option<(f64, String)> {
            let mut best: Option<(f64, String)> = None;
            let path = |s: &Rect| bounds_of([*s, s.translated(d_full * t_end.max(0.0))]);
            let near = box_around(stands.iter().flat_map(|s| {
                let (lo, hi) = path(s);
                [lo, hi]
            }));
            let theirs: Vec<(&Unit, Rect)> = self.others_near(enemy, near).collect();
            for s in &stands {
                let mine = path(s);
                for (u, r) in theirs.iter().filter(|(_, r)| !boxes_apart(mine, r.bounds(), 1e-3)) {
                    if let Some((enter, exit)) = sweep_interval(s, d_full, r)
                        && exit > 1e-12
                        && enter < t_end
                    {
                        let t = enter.max(0.0);
                        if best.as_ref().is_none_or(|b| t < b.0) {
                            best = Some((t, u.name.clone()));
                        }
                    }
                }
            }
            best
        };
        if let Some((t, name)) = first(false, t_end) {
            match opts.friend {
                OnFriend::Refuse => {
                    return Err(refuse(
                        "MOV-THRU-02",
                        format!(
                            "the move would pass through the friendly unit '{name}'; only a move imposed by a morale result may"
                        ),
                    ));
                }
                OnFriend::StopShort => {
                    t_end = t;
                    stop = Some(format!(
                        "stopped short of the friendly unit '{name}': only a move imposed by a morale result passes through friends"
                    ));
                    plan.stop_rule = Some("MOV-THRU-02");
                }
                OnFriend::PassThrough => {
                    plan.through_friends = true;
                    plan.rules.insert("MOV-THRU-02");
                }
            }
        }
        if let Some((t, name)) = first(true, t_end) {
            match opts.enemy {
                OnEnemy::Refuse(rule) => {
                    // Ending in contact is the charge rule's business; entering the enemy's
                    // footprint is forbidden outright (MOV-THRU-01).
                    let ends_touching = t <= 1.0 && (1.0 - t) < 1e-9;
                    let rule =
                        if rule == "MOV-GEN-07" && !ends_touching { "MOV-THRU-01" } else { rule };
                    return Err(refuse(
                        rule,
                        format!(
                            "the move would run into the enemy unit '{name}'; only a charge under a battle command stops at contact"
                        ),
                    ));
                }
                OnEnemy::StopAtContact | OnEnemy::StopShort => {
                    t_end = t;
                    stop_is_contact = true;
                    stop = Some(format!(
                        "stopped at contact with the enemy unit '{name}', which no stand may enter"
                    ));
                    plan.stop_rule = Some("MOV-THRU-01");
                }
            }
        }
        // Gaps between enemy stands narrower than the stand's frontage (MOV-THRU-03).
        let d = d_full * t_end;
        if leaves {
            // Off the table only if the part of the path it makes still gets it there.
            plan.left_table = stands
                .iter()
                .any(|s| s.corners().iter().any(|c| !self.ground.table.contains_point(*c + d)));
        }
        let reach = stands.first().map_or(0.0, |s| s.width);
        let swept_box = bounds_of(stands.iter().flat_map(|s| [*s, s.translated(d)]));
        let enemy: Vec<Rect> =
            self.others_near(true, padded(swept_box, reach)).map(|(_, r)| r).collect();
        // A gap needs two enemy stands.
        for s in stands.iter().filter(|_| enemy.len() >= 2) {
            let sweep = swept(s, d);
            let (lo, hi) = box_around(sweep.iter().copied());
            let near: Vec<&Rect> = enemy
                .iter()
                .filter(|r| {
                    let (a, b) = r.bounds();
                    a.x <= hi.x + s.width
                        && b.x >= lo.x - s.width
                        && a.y <= hi.y + s.width
                        && b.y >= lo.y - s.width
                })
                .collect();
            for i in 0..near.len() {
                for j in i + 1..near.len() {
                    if crate::shapes::rect_distance_lower_bound(near[i], near[j]) >= s.width {
                        continue;
                    }
                    let gap = near[i].distance(near[j]);
                    if gap <= self.tol() || gap >= s.width - 1e-9 {
                        continue;
                    }
                    let mut pts = near[i].corners().to_vec();
                    pts.extend(near[j].corners());
                    let hull = convex_hull(&pts);
                    if convex_overlap(&sweep, &hull) {
                        return Err(refuse(
                            "MOV-THRU-03",
                            format!(
                                "a stand {:.2}\" wide may not enter a {gap:.2}\" gap between enemy stands",
                                s.width
                            ),
                        ));
                    }
                }
            }
        }
        // Cost.
        let direction = self.direction_factor(pose, d);
        let ends: Vec<Point> = stands.iter().map(|s| s.centre + d).collect();
        let centres: Vec<Point> = stands.iter().map(|s| s.centre).collect();
        let mut pieces = Vec::new();
        let measure = d.length();
        if let Err(b) = self.terrain_cost(&centres, &ends, measure, self.who, &mut pieces) {
            if !(plan.left_table && b == Blocked::OffTable) {
                return Err(refuse(b.rule(), b.describe()));
            }
            // Leaving the table: price the flight as firm ground.
            pieces.clear();
            pieces.push(TerrainPiece::firm(measure, self.rules.data.terrain.multiplier.firm));
        }
        plan.cost += self.add_terrain_items(plan, pieces, Some(direction), "advance");
        // The sector of the path against the facing (MOV-DIR-04, MOV-R-05).
        plan.rules.insert("MOV-DIR-04");
        // Linear obstacles, once each per move (MOV-R-33).
        let mut crossed = Vec::new();
        for (a, b) in centres.iter().zip(&ends) {
            if let Err(bk) = self.ground.obstacles_crossed(*a, *b, self.who, &mut crossed) {
                return Err(refuse("MOV-TER-12", bk.describe()));
            }
        }
        for o in crossed {
            if !plan.obstacles.contains(&o) {
                plan.obstacles.push(o);
                let c = self.ground.surcharge(o, opts.allowance, self.who);
                if c > 0.0 {
                    plan.cost += c;
                    plan.rules.insert("MOV-TER-12");
                    plan.items.push(CostItem::fixed(
                        "MOV-TER-12",
                        format!("crossing '{}' once", self.state.table.lines[o].name),
                        c,
                    ));
                }
            }
        }
        pose.at += d;
        plan.path.push(pose.at);
        if let Some(s) = stop {
            plan.stopped = Some(s);
            if stop_is_contact {
                if opts.enemy == OnEnemy::StopAtContact {
                    plan.rules.insert("MOV-GEN-07");
                }
                plan.rules.insert("MOV-THRU-01");
            }
            return Ok(true);
        }
        Ok(plan.left_table)
    }

    /// The pose after a change of facing, repacked by MOV-R-07, or why it is illegal.
    pub fn turned(&self, pose: &Pose, turn: Turn) -> Result<Pose, Refusal> {
        let key = (*pose, turn, self.who);
        if let Some((_, r)) = self.turns.borrow().iter().find(|(k, _)| *k == key) {
            return r.clone();
        }
        let r = self.turned_measured(pose, turn);
        let mut turns = self.turns.borrow_mut();
        if turns.len() >= TURNS_REMEMBERED {
            drop(turns.remove(0));
        }
        turns.push((key, r.clone()));
        r
    }

    fn turned_measured(&self, pose: &Pose, turn: Turn) -> Result<Pose, Refusal> {
        let n = self.n();
        let size = self.size();
        let old = layout(pose, n, size);
        let c0 = centroid(&old);
        let facing = match turn {
            Turn::Right => pose.facing.turned_right(),
            Turn::Left => pose.facing.turned_left(),
            Turn::About => pose.facing.turned_right().turned_right(),
        };
        let mut new = Pose { facing, ..*pose };
        if turn != Turn::About {
            let r = ranks(n, pose.files);
            new.files = r.max(1);
            match pose.formation {
                Formation::Line | Formation::Column if n > 1 => {
                    let (w, d) = crate::layout::extent(&new, n, size);
                    new.formation = if w + 1e-9 >= d { Formation::Line } else { Formation::Column };
                }
                Formation::Mass => {
                    new.files = best_mass_files(n, size);
                }
                _ => {}
            }
        }
        // Keep the centroid.
        new.at = c0;
        let c1 = centroid(&layout(&new, n, size));
        new.at = c0 + (c0 - c1);
        if self.static_problem(&new, self.who).is_none() {
            return Ok(new);
        }
        // The smallest shift that clears, rearward first on ties.
        let step = self.rules.data.geometry.tolerance.shift_step;
        let max = size.1;
        let k = (max / step).floor() as i32;
        let mut cands: Vec<(f64, i32, i32)> = Vec::new();
        for i in -k..=k {
            for j in -k..=k {
                let l = ((i * i + j * j) as f64).sqrt() * step;
                if l > 0.0 && l <= max + 1e-9 {
                    cands.push((l, i, j));
                }
            }
        }
        // i along the new facing (negative = rearward), j to the right.
        cands.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        for (_, i, j) in cands {
            let shift =
                new.facing.vector() * (i as f64 * step) + new.facing.right() * (j as f64 * step);
            let p = Pose { at: new.at + shift, ..new };
            if self.static_problem(&p, self.who).is_none() {
                return Ok(p);
            }
        }
        let why = self.static_problem(&new, self.who).map(|r| r.reason).unwrap_or_default();
        Err(refuse(
            "MOV-FACE-05",
            format!(
                "after the turn the stands do not fit ({why}) and no shift of up to {max}\" clears them"
            ),
        ))
    }

    fn face(&self, pose: &mut Pose, turn: Turn, plan: &mut Plan) -> Result<(), Refusal> {
        if pose.formation == Formation::Circle {
            return Err(refuse(
                "MOV-FORM-04",
                "a circle faces every way and has no facing to change",
            ));
        }
        let cost = self.rules.data.facing.cost.get(self.unit.discipline);
        let before = *pose;
        *pose = self.turned(pose, turn)?;
        plan.cost += cost;
        // One change each, right, left or rear (MOV-FACE-01, MOV-R-08), at the fixed cost of the
        // discipline (MOV-FACE-02), never multiplied (MOV-FACE-06); each stand turns about its
        // own centre and the unit closes up (MOV-FACE-05, MOV-R-07).
        for r in ["MOV-FACE-01", "MOV-FACE-02", "MOV-FACE-05", "MOV-FACE-06"] {
            plan.rules.insert(r);
        }
        if plan.legs.iter().any(|l| l.kind == LegKind::Face) {
            // Several changes in one move, each paid (MOV-FACE-03).
            plan.rules.insert("MOV-FACE-03");
        }
        match (before.formation, pose.formation) {
            (Formation::Mass, _) => {
                // A mass turned stays a mass, as deep as it is wide (MOV-FORM-08); a levy must
                // (MOV-FORM-07).
                plan.rules.insert("MOV-FORM-08");
                if self.unit.levy {
                    plan.rules.insert("MOV-FORM-07");
                }
            }
            (a, b) if a != b => {
                // A line turned into a file is a column, and back (MOV-FORM-11); neither moves
                // differently (MOV-FORM-03).
                plan.rules.insert("MOV-FORM-11");
                plan.rules.insert("MOV-FORM-03");
            }
            _ => {}
        }
        let shifted = {
            // The centroid is kept unless the stands had to be shifted to fit (MOV-R-07).
            let n = self.n();
            let c0 = centroid(&layout(&before, n, self.size()));
            let c1 = centroid(&layout(pose, n, self.size()));
            c0.distance(c1)
        };
        let mut what = format!(
            "change of facing {} ({} discipline, a fixed cost)",
            match turn {
                Turn::Right => "to the right",
                Turn::Left => "to the left",
                Turn::About => "to the rear",
            },
            format!("{:?}", self.unit.discipline).to_lowercase()
        );
        if shifted > 1e-6 {
            what.push_str(&format!(", shifted {shifted:.1}\" to fit"));
        }
        plan.items.push(CostItem::fixed("MOV-FACE-02", what, cost));
        // The reference point moves when the stands turn about their centres.
        plan.path.push(pose.at);
        Ok(())
    }

    /// The measured radius of a wheel (MOV-R-06): the frontage, or the far rear corner under the
    /// `rear_corner` switch.
    pub fn wheel_radius(&self, pose: &Pose) -> f64 {
        let frame = outline(pose, self.n(), self.size());
        if self.rules.data.geometry.wheel.rear_corner {
            frame.width.hypot(frame.depth)
        } else {
            frame.width
        }
    }

    /// A wheel. Returns true when the move stops here.
    fn wheel(
        &self,
        pose: &mut Pose,
        pivot: tabletop::geometry::Pivot,
        degrees: f64,
        opts: Options,
        plan: &mut Plan,
    ) -> Result<bool, Refusal> {
        if pose.formation == Formation::Circle {
            return Err(refuse("MOV-WHEEL-01", "a circle has no front corner to wheel on"));
        }
        if !degrees.is_finite() || degrees.abs() > 180.0 {
            return Err(refuse("MOV-WHEEL-01", "a wheel turns through at most 180°"));
        }
        if degrees == 0.0 {
            return Ok(false);
        }
        let n = self.n();
        let size = self.size();
        let frame = outline(pose, n, size);
        let radians = degrees.to_radians();
        let at_fraction = |f: f64| -> (Pose, Vec<Rect>) {
            let w = Wheel { pivot, radians: radians * f };
            let moved = w.apply(&frame, &frame);
            let p = Pose {
                at: moved.front_centre(),
                facing: crate::layout::canonical(moved.facing),
                ..*pose
            };
            (p, layout(&p, n, size))
        };
        let chords = ((degrees.abs() / 90.0)
            * self.rules.data.geometry.wheel.chords_per_right_angle as f64)
            .ceil()
            .max(1.0) as usize;
        // Collisions at each chord end and midpoint.
        let samples = chords * 2;
        let mut last_ok = 0.0;
        let mut stop: Option<(String, bool, &'static str)> = None;
        for k in 1..=samples {
            let f = k as f64 / samples as f64;
            let (p, rects) = at_fraction(f);
            let problem = self.pose_collision(&rects);
            if let Some((kind, name)) = problem {
                // Bisect to the first contact.
                let (mut lo, mut hi) = (last_ok, f);
                for _ in 0..40 {
                    let mid = 0.5 * (lo + hi);
                    if self.pose_collision(&at_fraction(mid).1).is_some() {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                match kind {
                    Collision::Enemy => match opts.enemy {
                        OnEnemy::Refuse(rule) => {
                            return Err(refuse(
                                rule,
                                format!("the wheel would run into the enemy unit '{name}'"),
                            ));
                        }
                        _ => {
                            stop = Some((
                                format!("stopped at contact with the enemy unit '{name}'"),
                                true,
                                "MOV-THRU-01",
                            ))
                        }
                    },
                    Collision::Friend => match opts.friend {
                        OnFriend::Refuse => {
                            return Err(refuse(
                                "MOV-THRU-02",
                                format!("the wheel would pass through the friendly unit '{name}'"),
                            ));
                        }
                        OnFriend::StopShort => {
                            stop =
                                Some((format!("stopped short of '{name}'"), false, "MOV-THRU-02"))
                        }
                        OnFriend::PassThrough => {
                            last_ok = f;
                            let _ = p;
                            plan.through_friends = true;
                            plan.rules.insert("MOV-THRU-02");
                            continue;
                        }
                    },
                    Collision::Terrain(rule) => {
                        if opts.stop_at_terrain {
                            stop = Some((name, false, rule));
                        } else {
                            return Err(refuse(rule, name));
                        }
                    }
                }
                last_ok = lo;
                break;
            }
            last_ok = f;
        }
        let done = last_ok;
        // Cost: exact W·θ on the outside, weighted by terrain along the stands' chords.
        let radius = self.wheel_radius(pose);
        let base = radius * radians.abs() * done;
        let backward = degrees < 0.0;
        let dir = &self.rules.data.facing.direction;
        let direction = if backward {
            Direction { rule: "MOV-WHEEL-05", what: "backward wheel", value: dir.backward_wheel }
        } else {
            Direction { rule: "MOV-WHEEL-05", what: "forward wheel, not doubled", value: 1.0 }
        };
        let mut pieces = Vec::new();
        let used_chords = ((chords as f64) * done).ceil().max(1.0) as usize;
        let mut prev = layout(pose, n, size).iter().map(|r| r.centre).collect::<Vec<_>>();
        for k in 1..=used_chords {
            let f = (k as f64 / chords as f64).min(done);
            let f0 = ((k - 1) as f64 / chords as f64).min(done);
            if f <= f0 {
                break;
            }
            let next: Vec<Point> = at_fraction(f).1.iter().map(|r| r.centre).collect();
            let measure = radius * radians.abs() * (f - f0);
            if let Err(b) = self.terrain_cost(&prev, &next, measure, self.who, &mut pieces) {
                return Err(refuse(b.rule(), b.describe()));
            }
            prev = next;
        }
        let terrain_total: f64 = pieces.iter().map(|p| p.length * p.multiplier).sum();
        // Rounding of the chord sum: keep the firm-ground wheel exactly W·θ.
        if pieces.iter().all(|p| p.rule == "MOV-TER-02" && !p.uphill && !p.on_slope)
            && (terrain_total - base).abs() < 1e-9
        {
            pieces = vec![TerrainPiece::firm(base, self.rules.data.terrain.multiplier.firm)];
        }
        let label = format!(
            "wheel {:.0}° about the {} front corner (outside of the turn {radius:.2}\" × {:.3} rad)",
            degrees,
            match pivot {
                tabletop::geometry::Pivot::Left => "left",
                tabletop::geometry::Pivot::Right => "right",
            },
            radians.abs() * done
        );
        plan.cost += self.add_terrain_items(plan, pieces, Some(direction), &label);
        plan.last_measured = base;
        for r in ["MOV-WHEEL-01", "MOV-WHEEL-03", "MOV-WHEEL-04", "MOV-WHEEL-05"] {
            plan.rules.insert(r);
        }
        *pose = at_fraction(done).0;
        plan.path.push(pose.at);
        if let Some((s, contact, rule)) = stop {
            plan.stopped = Some(s);
            plan.stop_rule = Some(rule);
            if contact {
                if opts.enemy == OnEnemy::StopAtContact {
                    plan.rules.insert("MOV-GEN-07");
                }
                plan.rules.insert("MOV-THRU-01");
            }
            return Ok(true);
        }
        Ok(false)
    }

    fn pose_collision(&self, rects: &[Rect]) -> Option<(Collision, String)> {
        for r in rects {
            if let Err(b) = self.ground.rect_ok(r, self.who) {
                return Some((Collision::Terrain(b.rule()), b.describe()));
            }
        }
        let near = bounds_of(rects.iter().copied());
        for (u, r) in self.others_near(true, near) {
            if rects.iter().any(|m| m.overlaps(&r)) {
                return Some((Collision::Enemy, u.name.clone()));
            }
        }
        for (u, r) in self.others_near(false, near) {
            if rects.iter().any(|m| m.overlaps(&r)) {
                return Some((Collision::Friend, u.name.clone()));
            }
        }
        None
    }

    /// The pose a formation change leads to (before legality checks of the footprint).
    pub fn formed_pose(
        &self,
        pose: &Pose,
        formation: Formation,
        files: Option<u32>,
        gap: Option<f64>,
    ) -> Pose {
        let n = self.n();
        let size = self.size();
        let old = layout(pose, n, size);
        let c0 = centroid(&old);
        let files = files.unwrap_or(match (pose.formation, formation) {
            (_, Formation::Mass) => best_mass_files(n, size),
            (Formation::Circle, _) => (n as u32).clamp(1, 4),
            _ => pose.files,
        });
        let gap = if formation == Formation::OpenOrder {
            gap.unwrap_or(self.rules.data.geometry.open_order.default_gap)
        } else {
            0.0
        };
        let mut new = Pose { at: pose.at, facing: pose.facing, formation, files, gap };
        if pose.formation == Formation::Circle || formation == Formation::Circle {
            // Keep the centroid.
            new.at = c0;
            let c1 = centroid(&layout(&new, n, size));
            new.at = c0 + (c0 - c1);
        }
        new
    }

    fn form(
        &self,
        pose: &mut Pose,
        formation: Formation,
        files: Option<u32>,
        gap: Option<f64>,
        plan: &mut Plan,
    ) -> Result<(), Refusal> {
        let u = self.unit;
        if u.levy && formation != Formation::Mass {
            return Err(refuse("MOV-FORM-07", "a levy unit must stay in mass"));
        }
        if formation == Formation::OpenOrder && !u.skirmisher {
            return Err(refuse(
                "MOV-FORM-05",
                "only units designated as skirmishers may use open order",
            ));
        }
        if files == Some(0) {
            return Err(refuse("MOV-FORM-01", "a formation needs at least one file"));
        }
        if gap.is_some_and(|g| !g.is_finite()) {
            return Err(refuse("MOV-FORM-06", "the gap must be a number"));
        }
        let n = self.n();
        let size = self.size();
        let new = self.formed_pose(pose, formation, files, gap);
        if let Some((rule, why)) =
            shape_problem(&new, n, size, self.rules.data.geometry.open_order.max_gap)
        {
            return Err(refuse(rule, why));
        }
        let who = self.rules.mover_kind(u, formation);
        if let Some(r) = self.static_problem(&new, who) {
            return Err(r);
        }
        let old = layout(pose, n, size);
        let next = layout(&new, n, size);
        // Each stand goes to the place that makes the farthest move shortest.
        let slot_of = bottleneck_assignment(
            &old.iter().map(|r| r.centre).collect::<Vec<_>>(),
            &next.iter().map(|r| r.centre).collect::<Vec<_>>(),
        );
        // The farthest-travelling stand, costed alone over the terrain (MOV-R-16).
        let mut worst: Vec<TerrainPiece> = Vec::new();
        let mut worst_total = 0.0;
        for (i, a) in old.iter().enumerate() {
            let b = &next[slot_of[i]];
            let mut pieces = Vec::new();
            let d = a.centre.distance(b.centre);
            if let Err(bk) = self.terrain_cost(&[a.centre], &[b.centre], d, who, &mut pieces) {
                return Err(refuse(bk.rule(), bk.describe()));
            }
            let total: f64 = pieces.iter().map(|p| p.length * p.multiplier).sum();
            if total > worst_total {
                worst_total = total;
                worst = pieces;
            }
        }
        if slot_of.iter().enumerate().any(|(i, s)| i != *s) {
            let mut order = vec![0; n];
            for (i, s) in slot_of.iter().enumerate() {
                order[*s] = i;
            }
            plan.reorder = Some(order);
        }
        let label = format!("forming {formation}: the costliest stand's path");
        plan.last_measured = worst.iter().map(|p| p.length).sum();
        plan.cost += self.add_terrain_items(plan, worst, None, &label);
        let turns = old
            .iter()
            .enumerate()
            .any(|(i, a)| (a.facing.vector() - next[slot_of[i]].facing.vector()).length() > 1e-9);
        if turns {
            let c = self.rules.data.facing.cost.get(u.discipline);
            plan.cost += c;
            plan.items.push(CostItem::fixed(
                "MOV-FORM-12",
                format!(
                    "stands turn while forming: one change of facing ({} discipline)",
                    format!("{:?}", u.discipline).to_lowercase()
                ),
                c,
            ));
            plan.rules.insert("MOV-FACE-02");
        }
        // One of the five formations (MOV-FORM-01), each checked by its own geometry.
        plan.rules.insert("MOV-FORM-01");
        plan.rules.insert("MOV-FORM-12");
        if formation != Formation::OpenOrder {
            // Formed: every stand touching (MOV-FORM-02).
            plan.rules.insert("MOV-FORM-02");
        }
        match formation {
            Formation::Line | Formation::Column => {
                plan.rules.insert("MOV-FORM-11");
                if matches!(pose.formation, Formation::Line | Formation::Column)
                    && pose.formation != formation
                {
                    plan.rules.insert("MOV-FORM-03");
                }
            }
            Formation::OpenOrder => {
                plan.rules.insert("MOV-FORM-05");
                plan.rules.insert("MOV-FORM-06");
            }
            Formation::Mass => {
                plan.rules.insert("MOV-FORM-08");
                plan.rules.insert(if u.levy { "MOV-FORM-07" } else { "MOV-FORM-10" });
            }
            Formation::Circle => {
                plan.rules.insert("MOV-FORM-04");
            }
        }
        *pose = new;
        plan.path.push(pose.at);
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Collision {
    Enemy,
    Friend,
    Terrain(&'static str),
}

/// The assignment of stands to new places that makes the longest move as short as possible
/// (a bottleneck assignment): `slot_of[i]` is the new place of stand `i`. Layout order is kept
/// when it is as good; units of more than 32 stands keep layout order.
pub fn bottleneck_assignment(old: &[Point], new: &[Point]) -> Vec<usize> {
    let n = old.len().min(new.len());
    let identity: Vec<usize> = (0..n).collect();
    if n > 32 || n <= 1 {
        return identity;
    }
    let d = |i: usize, j: usize| old[i].distance(new[j]);
    let id_max = (0..n).map(|i| d(i, i)).fold(0.0, f64::max);
    let mut values: Vec<f64> =
        (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).map(|(i, j)| d(i, j)).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    // Perfect matching with every move at most `t` (Kuhn's augmenting paths, in index order).
    let matching = |t: f64| -> Option<Vec<usize>> {
        let mut owner: Vec<Option<usize>> = vec![None; n];
        fn augment(
            i: usize,
            t: f64,
            seen: &mut [bool],
            owner: &mut [Option<usize>],
            d: &dyn Fn(usize, usize) -> f64,
        ) -> bool {
            for j in 0..owner.len() {
                if !seen[j] && d(i, j) <= t + 1e-12 {
                    seen[j] = true;
                    if owner[j].is_none_or(|k| augment(k, t, seen, owner, d)) {
                        owner[j] = Some(i);
                        return true;
                    }
                }
            }
            false
        }
        for i in 0..n {
            let mut seen = vec![false; n];
            if !augment(i, t, &mut seen, &mut owner, &d) {
                return None;
            }
        }
        let mut slot_of = vec![0; n];
        for (j, o) in owner.iter().enumerate() {
            slot_of[(*o)?] = j;
        }
        Some(slot_of)
    };
    let (mut lo, mut hi) = (0usize, values.len() - 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if matching(values[mid]).is_some() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    if id_max <= values[lo] + 1e-9 {
        return identity;
    }
    matching(values[lo]).unwrap_or(identity)
}

/// The direction factor of a piece of a move: its rule, its name and its multiplier.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Direction {
    /// The rule (MOV-DIR-01, -02, -03; MOV-FORM-04 for a circle; MOV-WHEEL-05 for wheels).
    pub rule: &'static str,
    /// In words.
    pub what: &'static str,
    /// The multiplier.
    pub value: f64,
}

/// One piece of priced ground: the ground under the worst-placed stand (MOV-R-01).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TerrainPiece {
    /// The rule of the ground underfoot.
    pub rule: &'static str,
    /// The ground in words.
    pub what: &'static str,
    /// Inches measured.
    pub length: f64,
    /// The whole multiplier (ground × uphill).
    pub multiplier: f64,
    /// The multiplier of the ground underfoot alone.
    pub base: f64,
    /// Climbing (MOV-TER-04).
    pub uphill: bool,
    /// On a hill, level or downhill (MOV-TER-05).
    pub on_slope: bool,
    /// Other rules the ground applies (the river crossed, the road a bridge carries).
    pub also: [Option<&'static str>; 2],
}

impl TerrainPiece {
    /// Firm ground.
    pub fn firm(length: f64, firm: f64) -> TerrainPiece {
        TerrainPiece {
            rule: "MOV-TER-02",
            what: "firm ground",
            length,
            multiplier: firm,
            base: firm,
            uphill: false,
            on_slope: false,
            also: [None, None],
        }
    }

    fn same_ground(&self, o: &TerrainPiece) -> bool {
        self.rule == o.rule
            && self.what == o.what
            && self.multiplier == o.multiplier
            && self.uphill == o.uphill
            && self.on_slope == o.on_slope
            && self.also == o.also
    }
}

/// The sector of a direction from a unit facing `facing` (MOV-DIR-04, MOV-R-05): within 45°
/// of the front is forward, 45° itself included to a billionth of the length moved (so that
/// rounding never makes an exact 45° sideways); within 45° of the rear, the rear; otherwise a
/// flank.
pub fn sector_of(facing: Facing, d: Vec2) -> Sector {
    let along = d.dot(facing.vector());
    let across = d.dot(facing.right());
    let slack = 1e-9 * d.length();
    if along >= across.abs() - slack { Sector::Front } else { direction_sector(facing, d) }
}

/// The sector of a direction from a unit facing `facing` (MOV-DIR-04, MOV-R-05).
pub fn direction_sector_of(facing: Facing, d: Vec2) -> Sector {
    sector_of(facing, d)
}

/// The files that make the squarest mass of `n` stands (MOV-R-14).
pub fn best_mass_files(n: usize, size: (f64, f64)) -> u32 {
    let mut best = (f64::INFINITY, 1u32);
    for f in 1..=n.max(1) as u32 {
        let r = ranks(n, f) as f64;
        let diff = (r * size.1 - f as f64 * size.0).abs();
        if diff < best.0 - 1e-12 {
            best = (diff, f);
        }
    }
    best.1
}

/// Rotation helper kept for callers that turn vectors by degrees.
pub fn turn_vector(v: Vec2, degrees: f64) -> Vec2 {
    v.rotate_by(rotation(degrees.to_radians()))
}

/// A facing from a vector, falling back to north for the zero vector.
pub fn facing_of(v: Vec2) -> Facing {
    Facing::from_vector(v).unwrap_or(Facing::NORTH)
}

/// The polygon of a rectangle (re-exported for callers).
pub fn poly(r: &Rect) -> Vec<Point> {
    rect_poly(r)
}
