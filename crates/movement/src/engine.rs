//! The move planner: it walks a move's steps from the unit's pose, prices each one (terrain,
//! direction, facing, wheel, formation change, obstacles) and finds what the move runs into
//! (terrain it may not enter, friends, enemies, gaps in an enemy line), without touching the
//! state.

use crate::Movement;
use crate::ground::{Blocked, Ground, MoverKind};
use crate::layout::{Pose, centroid, layout, outline, ranks, shape_problem};
use crate::model::{Formation, Turn};
use crate::shapes::{convex_hull, convex_overlap, rect_poly, sweep_interval, swept};
use crate::state::{CostItem, State, Step, Unit, UnitId};
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
}

impl<'a> Planner<'a> {
    /// A planner for `unit` in `state`.
    pub fn new(rules: &'a Movement, state: &'a State, unit: UnitId) -> Option<Planner<'a>> {
        let u = state.units.get(unit)?;
        Some(Planner {
            rules,
            state,
            unit: u,
            ground: Ground {
                table: &state.table,
                data: &rules.data.terrain,
                weather: state.weather,
            },
            who: rules.mover_kind(u, u.pose.formation),
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

    fn others(&self, enemy: bool) -> impl Iterator<Item = (&'a Unit, Rect)> + '_ {
        let me = self.unit;
        self.state
            .units
            .iter()
            .filter(move |u| u.on_table && u.id != me.id && ((u.side != me.side) == enemy))
            .flat_map(|u| u.stands.iter().map(move |s| (u, s.rect)))
    }

    /// True when the stands at this pose touch an enemy stand (melee contact).
    pub fn in_contact(&self, pose: &Pose) -> bool {
        let mine = layout(pose, self.n(), self.size());
        let tol = self.tol();
        self.others(true).any(|(_, r)| mine.iter().any(|m| crate::shapes::within(m, &r, tol)))
    }

    /// Why the stands may not stand at this pose (terrain, table, other units), if anything.
    pub fn static_problem(&self, pose: &Pose, who: MoverKind) -> Option<Refusal> {
        let mine = layout(pose, self.n(), self.size());
        for r in &mine {
            if let Err(b) = self.ground.rect_ok(r, who) {
                return Some(refuse(b.rule(), b.describe()));
            }
        }
        for (u, r) in self.others(false).chain(self.others(true)) {
            if mine.iter().any(|m| m.overlaps(&r)) {
                return Some(refuse("MOV-THRU-04", format!("the unit would overlap '{}'", u.name)));
            }
        }
        None
    }

    /// The direction factor for a displacement (MOV-DIR): forward 1, sideways or back 2.
    pub fn direction_factor(&self, pose: &Pose, d: Vec2) -> (f64, &'static str, Sector) {
        let f = &self.rules.data.facing.direction;
        if pose.formation == Formation::Circle {
            return (f.forward, "MOV-FORM-04", Sector::Front);
        }
        match direction_sector(pose.facing, d) {
            Sector::Front => (f.forward, "MOV-DIR-01", Sector::Front),
            Sector::Rear => (f.backward, "MOV-DIR-02", Sector::Rear),
            s => (f.sideways, "MOV-DIR-03", s),
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
            let mut worst = TerrainPiece {
                rule: "MOV-TER-02",
                what: "firm ground",
                length: 0.0,
                multiplier: 0.0,
            };
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
                        what: if g.uphill { "uphill" } else { g.what },
                        length: 0.0,
                        multiplier: g.ground,
                    };
                }
            }
            if worst.multiplier == 0.0 {
                worst.multiplier = self.rules.data.terrain.multiplier.firm;
            }
            worst.length = (t1 - t0) * measure;
            into.push(worst);
        }
        Ok(())
    }

    fn add_terrain_items(
        &self,
        plan: &mut Plan,
        pieces: Vec<TerrainPiece>,
        factor: f64,
        dir_rule: &'static str,
        label: &str,
    ) -> f64 {
        // Group by ground and multiplier, keeping the order of first appearance.
        let mut grouped: Vec<TerrainPiece> = Vec::new();
        for p in pieces {
            match grouped
                .iter_mut()
                .find(|g| g.rule == p.rule && g.what == p.what && g.multiplier == p.multiplier)
            {
                Some(g) => g.length += p.length,
                None => grouped.push(p),
            }
        }
        let mut total = 0.0;
        for g in grouped {
            let cost = g.length * g.multiplier * factor;
            total += cost;
            plan.rules.insert(g.rule);
            plan.rules.insert(dir_rule);
            let mut what =
                format!("{label}: {:.2}\" of {} ×{}", g.length, g.what, fmt_num(g.multiplier));
            if factor != 1.0 {
                what.push_str(&format!(" ×{} ({})", fmt_num(factor), direction_word(dir_rule)));
            }
            plan.items.push(CostItem { rule: RuleId::new(g.rule), what, cost });
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
        };
        let mut formed_once = false;
        for (i, step) in steps.iter().enumerate() {
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
            if stop || plan.left_table {
                plan.dropped_steps = steps.len() - i - 1;
                break;
            }
        }
        plan.pose = pose;
        plan.ends_in_contact = !plan.left_table && self.in_contact(&pose);
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
        // Terrain and the table edge along the swept footprints.
        {
            let blocked_at = |t: f64| -> Option<Blocked> {
                let d = d_full * t;
                stands.iter().find_map(|s| self.ground.footprint_blocked(&swept(s, d), self.who))
            };
            if let Some(b) = blocked_at(1.0) {
                if b == Blocked::OffTable && opts.may_leave_table {
                    plan.left_table = true;
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
                } else {
                    return Err(refuse(b.rule(), b.describe()));
                }
            }
        }
        // Other units: the first overlap along the path.
        let first = |enemy: bool, t_end: f64| -> Option<(f64, String)> {
            let mut best: Option<(f64, String)> = None;
            for s in &stands {
                for (u, r) in self.others(enemy) {
                    if let Some((enter, exit)) = sweep_interval(s, d_full, &r)
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
                    stop = Some(format!("stopped short of the friendly unit '{name}'"));
                }
                OnFriend::PassThrough => {}
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
                    stop = Some(format!("stopped at contact with the enemy unit '{name}'"));
                }
            }
        }
        // Gaps between enemy stands narrower than the stand's frontage (MOV-THRU-03).
        let d = d_full * t_end;
        let enemy: Vec<Rect> = self.others(true).map(|(_, r)| r).collect();
        for s in &stands {
            let sweep = swept(s, d);
            let (lo, hi) = bounds(&sweep);
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
        let (factor, dir_rule, _) = self.direction_factor(pose, d);
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
            pieces.push(TerrainPiece {
                rule: "MOV-TER-02",
                what: "firm ground",
                length: measure,
                multiplier: 1.0,
            });
        }
        let label = "advance".to_string();
        plan.cost += self.add_terrain_items(plan, pieces, factor, dir_rule, &label);
        plan.rules.insert(dir_rule);
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
                    plan.items.push(CostItem {
                        rule: RuleId::new("MOV-TER-12"),
                        what: format!("crossing '{}'", self.state.table.lines[o].name),
                        cost: c,
                    });
                }
            }
        }
        pose.at += d;
        plan.path.push(pose.at);
        if let Some(s) = stop {
            plan.stopped = Some(s);
            if stop_is_contact {
                plan.rules.insert("MOV-GEN-07");
            }
            return Ok(true);
        }
        Ok(plan.left_table)
    }

    /// The pose after a change of facing, repacked by MOV-R-07, or why it is illegal.
    pub fn turned(&self, pose: &Pose, turn: Turn) -> Result<Pose, Refusal> {
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
        *pose = self.turned(pose, turn)?;
        plan.cost += cost;
        plan.rules.insert("MOV-FACE-02");
        plan.items.push(CostItem {
            rule: RuleId::new("MOV-FACE-02"),
            what: format!(
                "change of facing {} ({:?} discipline)",
                match turn {
                    Turn::Right => "to the right",
                    Turn::Left => "to the left",
                    Turn::About => "to the rear",
                },
                self.unit.discipline
            )
            .to_lowercase(),
            cost,
        });
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
        let mut stop: Option<(String, bool)> = None;
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
                            stop = Some((format!("stopped short of '{name}'"), false))
                        }
                        OnFriend::PassThrough => {
                            last_ok = f;
                            let _ = p;
                            continue;
                        }
                    },
                    Collision::Terrain(rule) => {
                        if opts.stop_at_terrain {
                            stop = Some((name, false));
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
        let factor = if backward { dir.backward_wheel } else { 1.0 };
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
        if pieces.iter().all(|p| p.rule == "MOV-TER-02") && (terrain_total - base).abs() < 1e-9 {
            pieces = vec![TerrainPiece {
                rule: "MOV-TER-02",
                what: "firm ground",
                length: base,
                multiplier: 1.0,
            }];
        }
        let label = format!("wheel {degrees:.0}° on a {radius:.2}\" radius");
        let dir_rule = if backward { "MOV-WHEEL-05" } else { "MOV-WHEEL-04" };
        plan.cost += self.add_terrain_items(plan, pieces, factor, dir_rule, &label);
        plan.rules.insert("MOV-WHEEL-03");
        *pose = at_fraction(done).0;
        plan.path.push(pose.at);
        if let Some((s, contact)) = stop {
            plan.stopped = Some(s);
            if contact {
                plan.rules.insert("MOV-GEN-07");
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
        for (u, r) in self.others(true) {
            if rects.iter().any(|m| m.overlaps(&r)) {
                return Some((Collision::Enemy, u.name.clone()));
            }
        }
        for (u, r) in self.others(false) {
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
        let label = format!("forming {formation}: farthest stand");
        plan.cost += self.add_terrain_items(plan, worst, 1.0, "MOV-FORM-12", &label);
        let turns = old
            .iter()
            .enumerate()
            .any(|(i, a)| (a.facing.vector() - next[slot_of[i]].facing.vector()).length() > 1e-9);
        if turns {
            let c = self.rules.data.facing.cost.get(u.discipline);
            plan.cost += c;
            plan.items.push(CostItem {
                rule: RuleId::new("MOV-FORM-12"),
                what: "stands turn while forming".into(),
                cost: c,
            });
        }
        plan.rules.insert("MOV-FORM-12");
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

fn bounds(poly: &[Point]) -> (Point, Point) {
    let mut lo = Vec2::new(f64::INFINITY, f64::INFINITY);
    let mut hi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in poly {
        lo.x = lo.x.min(p.x);
        lo.y = lo.y.min(p.y);
        hi.x = hi.x.max(p.x);
        hi.y = hi.y.max(p.y);
    }
    (lo, hi)
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

/// One piece of priced ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TerrainPiece {
    /// The rule.
    pub rule: &'static str,
    /// The ground in words.
    pub what: &'static str,
    /// Inches measured.
    pub length: f64,
    /// The multiplier (ground × uphill).
    pub multiplier: f64,
}

fn fmt_num(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn direction_word(rule: &str) -> &'static str {
    match rule {
        "MOV-DIR-02" => "backward",
        "MOV-DIR-03" => "sideways",
        "MOV-WHEEL-05" => "backward wheel",
        _ => "direction",
    }
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
