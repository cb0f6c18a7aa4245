//! Compulsory movement at the start of a side's phase (MOV-REG): separated units regroup toward
//! their nearer leader or the largest friendly group; units driven off flee toward their own
//! table edge until they rally.

use crate::Movement;
use crate::engine::{OnEnemy, OnFriend, Options, Plan, Planner};
use crate::layout::{centroid, layout};
use crate::model::{Edge, MoraleState, Turn};
use crate::state::{AllowanceBasis, Event, MoveKind, State, Step, Unit, UnitId};
use serde::{Deserialize, Serialize};
use tabletop::geometry::{Point, Rect, Sector, Vec2, direction_sector};
use tabletop::rules::RuleId;

/// Where a separated unit heads (MOV-REG-06, MOV-REG-08).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Target {
    /// A leader: reached on entering its command range.
    Leader {
        /// The leader.
        unit: UnitId,
        /// Its command range.
        range: f64,
    },
    /// The largest group of friendly units: reached within the regroup distance.
    Group {
        /// The units of the group.
        units: Vec<UnitId>,
    },
}

/// A test of whether a compulsory move has reached its goal.
type ReachedTest<'a> = dyn Fn(&State, Point) -> bool + 'a;

/// Edge-to-edge distance between two units.
pub fn unit_distance(a: &Unit, b: &Unit) -> f64 {
    let mut best = f64::INFINITY;
    for s in &a.stands {
        for t in &b.stands {
            if crate::shapes::rect_distance_lower_bound(&s.rect, &t.rect) < best {
                best = best.min(s.rect.distance(&t.rect));
            }
        }
    }
    best
}

fn nearest_point(r: &Rect, p: Point) -> Point {
    let l = r.to_local(p);
    r.to_world(Vec2::new(
        l.x.clamp(-r.width / 2.0, r.width / 2.0),
        l.y.clamp(-r.depth / 2.0, r.depth / 2.0),
    ))
}

impl Movement {
    fn leaders_of(&self, state: &State, u: &Unit) -> Vec<(UnitId, f64)> {
        let r = &self.data.geometry.command_range;
        let mut out = Vec::new();
        if let Some(b) = u.brigade_leader
            && let Some(l) = state.unit(b)
            && l.on_table
            && l.side == u.side
        {
            out.push((b, r.brigade));
        }
        for l in state.units_of(u.side) {
            if l.army_leader && l.id != u.id && !out.iter().any(|(x, _)| *x == l.id) {
                out.push((l.id, r.army));
            }
        }
        out
    }

    /// True when the unit is separated by distance (MOV-R-22): outside its leaders' command
    /// ranges and farther than the separation distance from every other friendly unit.
    pub fn separated_by_distance(&self, state: &State, unit: UnitId) -> bool {
        let Some(u) = state.unit(unit) else {
            return false;
        };
        if u.is_personality() {
            return false;
        }
        let in_range = self
            .leaders_of(state, u)
            .iter()
            .any(|(l, range)| unit_distance(u, &state.units[*l]) <= *range);
        if in_range {
            return false;
        }
        let sep = self.data.geometry.regroup.separation;
        let others: Vec<&Unit> = state.units_of(u.side).filter(|o| o.id != u.id).collect();
        if others.is_empty() {
            return false;
        }
        others.iter().all(|o| unit_distance(u, o) > sep)
    }

    /// True when every other friendly unit on the table is farther than the separation
    /// distance (MOV-R-22's distance test, whatever the unit is).
    pub fn apart_from_army(&self, state: &State, unit: UnitId) -> bool {
        let Some(u) = state.unit(unit) else {
            return false;
        };
        let sep = self.data.geometry.regroup.separation;
        let mut others = state.units_of(u.side).filter(|o| o.id != u.id).peekable();
        others.peek().is_some() && others.all(|o| unit_distance(u, o) > sep)
    }

    /// The regroup target of a unit (MOV-REG-06, MOV-REG-08, MOV-R-23).
    pub fn regroup_target(&self, state: &State, unit: UnitId) -> Option<Target> {
        let u = state.unit(unit)?;
        let leaders = self.leaders_of(state, u);
        if let Some((l, range)) = leaders.iter().map(|(l, r)| (*l, *r)).min_by(|a, b| {
            unit_distance(u, &state.units[a.0])
                .total_cmp(&unit_distance(u, &state.units[b.0]))
                .then(a.0.cmp(&b.0))
        }) {
            return Some(Target::Leader { unit: l, range });
        }
        // Single-linkage clusters of the other friendly units.
        let others: Vec<&Unit> = state.units_of(u.side).filter(|o| o.id != u.id).collect();
        if others.is_empty() {
            return None;
        }
        let link = self.data.geometry.regroup.cluster_link;
        let mut cluster = vec![usize::MAX; others.len()];
        let mut next = 0;
        for i in 0..others.len() {
            if cluster[i] != usize::MAX {
                continue;
            }
            cluster[i] = next;
            let mut stack = vec![i];
            while let Some(a) = stack.pop() {
                for b in 0..others.len() {
                    if cluster[b] == usize::MAX && unit_distance(others[a], others[b]) <= link {
                        cluster[b] = next;
                        stack.push(b);
                    }
                }
            }
            next += 1;
        }
        let mut best: Option<(usize, f64, usize)> = None; // (stands, distance, cluster)
        for c in 0..next {
            let members: Vec<&Unit> =
                (0..others.len()).filter(|&i| cluster[i] == c).map(|i| others[i]).collect();
            let stands: usize = members.iter().map(|m| m.stands.len()).sum();
            let dist = members.iter().map(|m| unit_distance(u, m)).fold(f64::INFINITY, f64::min);
            let better = match best {
                None => true,
                Some((s, d, _)) => stands > s || (stands == s && dist < d),
            };
            if better {
                best = Some((stands, dist, c));
            }
        }
        let (_, _, c) = best?;
        Some(Target::Group {
            units: (0..others.len()).filter(|&i| cluster[i] == c).map(|i| others[i].id).collect(),
        })
    }

    fn reached(&self, state: &State, u: &Unit, target: &Target) -> bool {
        match target {
            Target::Leader { unit, range } => unit_distance(u, &state.units[*unit]) <= *range,
            Target::Group { units } => units
                .iter()
                .any(|o| unit_distance(u, &state.units[*o]) <= self.data.geometry.regroup.reached),
        }
    }

    fn target_point(&self, state: &State, u: &Unit, target: &Target) -> Option<Point> {
        let c = centroid(&u.rects());
        let ids: Vec<UnitId> = match target {
            Target::Leader { unit, .. } => vec![*unit],
            Target::Group { units } => units.clone(),
        };
        let nearest = ids.iter().min_by(|a, b| {
            unit_distance(u, &state.units[**a])
                .total_cmp(&unit_distance(u, &state.units[**b]))
                .then(a.cmp(b))
        })?;
        state.units[*nearest]
            .stands
            .iter()
            .map(|s| nearest_point(&s.rect, c))
            .min_by(|a, b| a.distance(c).total_cmp(&b.distance(c)))
    }

    /// The compulsory move of a unit toward a direction: a change of facing if the direction is
    /// not to its front, then straight on for the whole allowance or until `done` says stop.
    fn compulsory_move(
        &self,
        planner: &Planner<'_>,
        dir: Vec2,
        kind: MoveKind,
        limit: Option<&ReachedTest<'_>>,
    ) -> Option<(Plan, f64)> {
        let (state, u) = (planner.state, planner.unit);
        let unit = u.id;
        let dir = dir.normalized()?;
        let face = match direction_sector(u.pose.facing, dir) {
            Sector::Front => None,
            Sector::Rear => Some(Turn::About),
            Sector::Right => Some(Turn::Right),
            Sector::Left => Some(Turn::Left),
        };
        let allowance = self.allowance(u, false, false).this_move;
        let flight = kind == MoveKind::Flight;
        let opts = Options {
            enemy: OnEnemy::StopShort,
            friend: if flight { OnFriend::PassThrough } else { OnFriend::StopShort },
            stop_at_terrain: true,
            may_leave_table: flight,
            allowance,
        };
        let start = match face {
            Some(t) => planner.turned(&u.pose, t).ok()?.at,
            None => u.pose.at,
        };
        let steps_for = |s: f64| -> Vec<Step> {
            let mut v = Vec::new();
            if let Some(t) = face {
                v.push(Step::Face(t));
            }
            let to = start + dir * s;
            v.push(Step::Advance { to: [to.x, to.y] });
            v
        };
        // Compulsory moves use the allowance exactly, without the players' tolerance.
        let tol = 1e-9;
        let fits = |s: f64| -> Option<Plan> {
            let p = planner.plan(&steps_for(s), opts).ok()?;
            (p.cost <= allowance + tol).then_some(p)
        };
        // The plan at the low end of the search, kept as the search goes.
        let mut lo_plan = fits(0.0)?;
        let min_mult = self
            .data
            .terrain
            .multiplier
            .paved_road
            .min(self.data.terrain.multiplier.dirt_road_dry)
            .min(1.0);
        let mut lo = 0.0;
        let mut hi = allowance / min_mult + 1.0;
        let hi_start = hi;
        if let Some(limit) = limit {
            // The smallest distance at which the target is reached, if within reach. One copy
            // of the state serves every probe: only this unit's pose changes between them.
            let probe = std::cell::RefCell::new(state.clone());
            let reached_at = |s: f64| -> bool {
                let p = planner.plan(&steps_for(s), opts).ok();
                match p {
                    Some(p) => {
                        let mut probe = probe.borrow_mut();
                        probe.units[unit].set_pose(p.pose);
                        limit(&probe, p.pose.at)
                    }
                    None => false,
                }
            };
            if reached_at(hi) {
                let (mut a, mut b) = (0.0, hi);
                for _ in 0..30 {
                    let m = 0.5 * (a + b);
                    if reached_at(m) {
                        b = m;
                    } else {
                        a = m;
                    }
                }
                hi = b;
                if let Some(p) = fits(hi) {
                    return Some((p, allowance));
                }
            }
        }
        for _ in 0..32 {
            let mid = 0.5 * (lo + hi);
            if let Some(p) = fits(mid) {
                lo = mid;
                lo_plan = p;
            } else {
                hi = mid;
            }
        }
        let mut plan = lo_plan;
        if plan.stopped.is_none() && lo < hi_start - 1e-6 {
            // What stops it short of its whole allowance, when the rules do: closed ground, a
            // narrow gap in the enemy's line, the table's edge.
            if let Err(r) = planner.plan(&steps_for(lo + 0.05), opts)
                && let std::borrow::Cow::Borrowed(rule) = r.rule.0
            {
                plan.stop_rule = Some(rule);
                plan.stopped = Some(format!("stopped: {}", r.reason));
            }
        }
        if !flight || plan.left_table || planner.static_problem(&plan.pose, planner.who).is_none() {
            return Some((plan, allowance));
        }
        // A move imposed by a morale result that ends on friends goes on, free, by the least
        // distance that clears them; if nothing clears, it stops short of them (MOV-R-18).
        let step = self.data.geometry.tolerance.shift_step;
        let mut extra = step;
        while extra <= allowance + 1e-9 {
            if let Ok(p) = planner.plan(&steps_for(lo + extra), opts)
                && p.stopped.is_none()
                && (p.left_table || planner.static_problem(&p.pose, planner.who).is_none())
            {
                // The extra inches are priced like the rest of the path and then given back.
                let mut p = p;
                let free = p.cost - plan.cost;
                let leg = p.legs.len().saturating_sub(1);
                let mut credit = crate::state::CostItem::fixed(
                    "MOV-THRU-04",
                    format!(
                        "the last {extra:.1}\" carried free to end clear of friends (MOV-R-18)"
                    ),
                    -free,
                );
                credit.leg = leg;
                p.items.push(credit);
                if let Some(l) = p.legs.last_mut() {
                    l.cost -= free;
                }
                p.cost = plan.cost;
                p.rules.insert("MOV-THRU-04");
                p.stopped =
                    Some(format!("carried {extra:.1}\" farther, free, to end clear of friends"));
                return Some((p, allowance));
            }
            extra += step;
        }
        let short = Options { friend: OnFriend::StopShort, ..opts };
        let p = planner.plan(&steps_for(lo), short).ok()?;
        Some((p, allowance))
    }

    /// A compulsory move straight along `dir` if nothing stops it; otherwise the best of a fan
    /// of headings up to 90° either side (MOV-R-25), scored by the ground gained toward the
    /// edge (flight) or the aim point (regrouping) plus a quarter of the distance marched. The
    /// straight line wins ties within 0.5".
    fn compulsory_route(
        &self,
        state: &State,
        unit: UnitId,
        dir: Vec2,
        aim: Option<Point>,
        kind: MoveKind,
        limit: Option<&ReachedTest<'_>>,
    ) -> Option<(Plan, f64)> {
        // One planner for every heading tried: it keeps what it works out of the table.
        let planner = Planner::new(self, state, unit)?;
        let straight = self.compulsory_move(&planner, dir, kind, limit);
        if straight.as_ref().is_some_and(|(p, _)| p.stopped.is_none() || p.left_table) {
            return straight;
        }
        let u = state.unit(unit)?;
        let start = centroid(&u.rects());
        let n = u.stands.len();
        // Ground gained toward the target, plus a quarter of the distance marched: a unit
        // pressed against an obstacle prefers sliding along it to standing still.
        let toward = match aim {
            Some(a) => (a - start).normalized().unwrap_or(dir),
            None => dir.normalized().unwrap_or(dir),
        };
        // A unit in flight would rather not run into the enemy.
        let score = |p: &Plan| -> f64 {
            let end = centroid(&layout(&p.pose, n, u.stand_size));
            let contact = kind == MoveKind::Flight && !p.left_table && planner.in_contact(&p.pose);
            (end - start).dot(toward) + 0.25 * end.distance(start) - if contact { 3.0 } else { 0.0 }
        };
        let mut best = straight.map(|(p, a)| (score(&p) + 0.5, p, a));
        for deg in [30.0, -30.0, 60.0, -60.0, 90.0, -90.0] {
            let d = dir.rotate_by(tabletop::geometry::rotation(f64::to_radians(deg)));
            if let Some((p, a)) = self.compulsory_move(&planner, d, kind, limit) {
                let sc = score(&p);
                if best.as_ref().is_none_or(|(b, _, _)| sc > *b) {
                    best = Some((sc, p, a));
                }
            }
        }
        best.map(|(_, p, a)| (p, a))
    }

    fn edge_direction(&self, state: &State, u: &Unit) -> Vec2 {
        match state.side(u.side).map(|s| s.edge) {
            Some(Edge::North) => Vec2::new(0.0, 1.0),
            Some(Edge::East) => Vec2::new(1.0, 0.0),
            Some(Edge::West) => Vec2::new(-1.0, 0.0),
            _ => Vec2::new(0.0, -1.0),
        }
    }

    /// The events of one unit's compulsory movement at the start of its side's phase.
    pub fn compulsory_events(&self, state: &State, unit: UnitId) -> Vec<Event> {
        let Some(u) = state.unit(unit) else {
            return vec![];
        };
        let mut out = Vec::new();
        if !u.on_table || u.is_personality() {
            return out;
        }
        // Separation by distance (MOV-R-22).
        let by_distance = self.separated_by_distance(state, unit);
        if !u.separated && by_distance {
            out.push(Event::Separation {
                unit,
                name: String::new(),
                separated: true,
                reason: "outside its leaders' command ranges and far from every friendly unit"
                    .into(),
                rule: RuleId::new("MOV-REG-03"),
            });
        }
        let separated = u.separated || by_distance;
        if !separated {
            return out;
        }
        if u.held {
            return out;
        }
        if u.exhausted_turn == Some(state.turn) && !u.driven_off {
            return out;
        }
        if u.limber.as_ref().is_some_and(|l| !l.limbered) {
            return out;
        }
        if u.driven_off {
            // Flight (MOV-REG-02, MOV-R-24).
            let dir = self.edge_direction(state, u);
            if let Some((plan, allowance)) =
                self.compulsory_route(state, unit, dir, None, MoveKind::Flight, None)
            {
                let basis = self.allowance(u, false, false).basis;
                out.push(moved(u, MoveKind::Flight, &plan, allowance, basis, &["MOV-REG-02"]));
                if plan.left_table {
                    out.push(Event::Removed {
                        unit,
                        name: String::new(),
                        reason: "driven off the table by a morale result, it is lost".into(),
                        rule: RuleId::new("MOV-REG-02"),
                    });
                }
            }
            return out;
        }
        // Regrouping (MOV-REG-01, -03, -04, -06, -08, -09); not from melee contact (MOV-REG-03).
        if self.in_contact(state, unit) {
            return out;
        }
        if !matches!(
            u.morale,
            MoraleState::Firm | MoraleState::Checked | MoraleState::Shaken | MoraleState::Broken
        ) {
            return out;
        }
        let Some(target) = self.regroup_target(state, unit) else {
            return out;
        };
        if self.reached(state, u, &target) {
            out.push(Event::Separation {
                unit,
                name: String::new(),
                separated: false,
                reason: "back with its army".into(),
                rule: RuleId::new("MOV-REG-07"),
            });
            return out;
        }
        let Some(aim) = self.target_point(state, u, &target) else {
            return out;
        };
        let dir = aim - centroid(&u.rects());
        let t2 = target.clone();
        let limit = move |s: &State, _: Point| self.reached(s, &s.units[unit], &t2);
        if let Some((plan, allowance)) =
            self.compulsory_route(state, unit, dir, Some(aim), MoveKind::Regroup, Some(&limit))
        {
            let rule = match target {
                Target::Leader { .. } => "MOV-REG-06",
                Target::Group { .. } => "MOV-REG-08",
            };
            // Firm or checked units head back (MOV-REG-03); shaken or Broken ones only after
            // they rally (MOV-REG-04). Either way they regroup even outside their leader's
            // command range (MOV-REG-01).
            let why = match u.morale {
                MoraleState::Firm | MoraleState::Checked => "MOV-REG-03",
                MoraleState::Shaken | MoraleState::Broken => "MOV-REG-04",
            };
            let basis = self.allowance(u, false, false).basis;
            let mut event = moved(
                u,
                MoveKind::Regroup,
                &plan,
                allowance,
                basis,
                &["MOV-REG-01", why, "MOV-REG-09", "MOV-REG-11", rule],
            );
            let mut probe = state.clone();
            probe.units[unit].set_pose(plan.pose);
            let arrived = self.reached(&probe, &probe.units[unit], &target);
            if arrived && let Event::Moved { lost, rules, .. } = &mut event {
                // What is left may still be spent forming up (MOV-REG-10).
                *lost = 0.0;
                rules.retain(|r| r.as_str() != "MOV-GEN-04");
            }
            out.push(event);
            if arrived {
                out.push(Event::Separation {
                    unit,
                    name: String::new(),
                    separated: false,
                    reason: match target {
                        Target::Leader { unit: l, .. } => {
                            format!("inside the command range of '{}'", state.units[l].name)
                        }
                        Target::Group { .. } => "it has reached the largest friendly group".into(),
                    },
                    rule: RuleId::new("MOV-REG-07"),
                });
            }
        }
        out
    }
}

/// A `Moved` event from a plan, with the allowance it was made against and the rules it
/// applied. Allowance left at the end is lost (MOV-GEN-04).
pub fn moved(
    u: &Unit,
    kind: MoveKind,
    plan: &Plan,
    allowance: f64,
    basis: AllowanceBasis,
    extra: &[&'static str],
) -> Event {
    let mut rules: Vec<RuleId> = extra.iter().map(|r| RuleId::new(r)).collect();
    let mut add = |r: &'static str| {
        let id = RuleId::new(r);
        if !rules.contains(&id) {
            rules.push(id);
        }
    };
    for r in basis.rules.iter().chain(basis.factors.iter().map(|f| &f.rule)) {
        if let std::borrow::Cow::Borrowed(s) = r.0 {
            add(s);
        }
    }
    for r in &plan.rules {
        add(r);
    }
    if plan.items.len() > 1 {
        // The cost is the sum of its parts (MOV-GEN-03).
        add("MOV-GEN-03");
    }
    if let Some(r) = plan.stop_rule {
        add(r);
    }
    let left = allowance - plan.cost;
    let lost = if left > LOST_EPSILON { left } else { 0.0 };
    if lost > 0.0 {
        add("MOV-GEN-04");
    }
    Event::Moved {
        unit: u.id,
        name: String::new(),
        kind,
        from: u.pose,
        to: plan.pose,
        path: plan.path.clone(),
        cost: plan.cost,
        allowance,
        items: plan.items.clone(),
        legs: plan.legs.clone(),
        basis: Some(Box::new(basis)),
        lost,
        note: plan.stopped.clone().unwrap_or_default(),
        reorder: plan.reorder.clone(),
        rules,
    }
}

/// Allowance left over below this is not reported as lost (the compulsory moves' bisection).
pub const LOST_EPSILON: f64 = 1e-6;
