//! A scripted manoeuvre general for the movement rule set ([`Scripted`]) and [`register`], which
//! offers it on a [`Host`] as `scripted`.
//!
//! It plays the way a wargamer moves a brigade under this chapter, to take and hold the
//! scenario's objectives and to drive the enemy off:
//!
//! - Each objective is given to the nearest unit of foot or horse that has none yet; the others
//!   strike at the enemy nearest the objectives; skirmishers screen; guns go forward limbered
//!   and unlimber when the enemy comes into range; the general keeps behind the middle of his
//!   army, and rides to a unit that has lost touch with it.
//! - Units march by the cheapest route (`route`): over a ford or a bridge and along a road in a
//!   column of one file, round dense trees, through them in open order; on a long march out of
//!   the enemy's reach they force-march when their discipline makes the check likely.
//! - A line turns a right angle by a change of facing (which makes it a column: the stands turn
//!   about their own centres), a column turns by wheeling, and a line squares up to the enemy
//!   with a short wheel. Near the enemy a column deploys into line.
//! - A unit charges (under a battle command) when it can reach an enemy within its charge
//!   bonus and the odds favour it: a flank or rear, a deeper formation, a shaken foe.
//! - Foot caught in the open by horse forms a circle, and opens out again when the horse has
//!   gone; poor or wild foot holding an objective against a deeper column forms a mass.
//! - A unit in melee fights on while it can; a shaken one, or one taken in the flank, is pulled
//!   out or turned to face under a battle command.
//!
//! It draws nothing from its generator. It remembers, within one side's phase, the units it
//! has chosen not to move, and from decision to decision the distances between units that have
//! not moved, so it is not reusable from game to game.

use crate::Movement;
use crate::data::TerrainData;
use crate::engine::{Planner, best_mass_files};
use crate::layout::{Pose, outline};
use crate::model::{Discipline, Formation, MoraleState, TroopType, Turn};
use crate::regroup::unit_distance;
use crate::route::{Router, Traveller};
use crate::state::{Command, State, Step, Unit, UnitId};
use bots::{Bot, BotError, Hosted};
use std::collections::{BTreeMap, BTreeSet};
use tabletop::SeededDice;
use tabletop::geometry::{Facing, Pivot, Point, Sector, Vec2};
use tabletop::host::{BotSpec, Host, HostedBot};
use tabletop::rules::{Actor, RuleSet, Side};

/// What the scripted player is, for bot listings.
pub const SCRIPTED_ABOUT: &str = "a scripted manoeuvre general: takes and holds the objectives, \
    marches in column by road and ford, force-marches out of reach, deploys into line, wheels, \
    charges flanks, forms circle against horse, limbers and unlimbers its guns";

/// The scripted player.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    /// The units it chose not to move in the current phase: (turn, side, unit).
    declined: BTreeSet<(u32, Side, UnitId)>,
    /// Where each unit is to go: an objective (its place there) and the objective's radius,
    /// given once, at the general's first decision.
    goals: BTreeMap<UnitId, (Point, f64)>,
    /// The edge distances measured so far, kept from one decision to the next.
    distances: std::cell::RefCell<Distances>,
}

/// The edge distances between units the general has measured, kept while neither unit's
/// stands move: a command moves one unit, so the next decision measures again only the pairs
/// it is in.
#[derive(Clone, Debug, Default)]
struct Distances {
    /// Each unit's stands when last seen, and how many times they have been seen to change.
    seen: Vec<(Vec<tabletop::Rect>, u64)>,
    /// (a, b) with a ≤ b: the versions of a's and b's stands the distance was measured at.
    pairs: std::collections::HashMap<(UnitId, UnitId), (u64, u64, f64)>,
    /// Each unit's look when last seen (stands, pose, on the table, side, all to the bit), and
    /// how many times it has been seen to change.
    looks: Vec<(Look, u64)>,
    /// By side: how many times one of its units' looks has changed.
    epochs: BTreeMap<Side, u64>,
    /// The enemy nearest each unit, by the side the general commands: with the unit's look
    /// version and the sum of the other sides' epochs it was found at.
    nearest: std::collections::HashMap<(Side, UnitId), (u64, u64, Option<UnitId>)>,
    /// The ground the ways below were measured over: the table (held, so that it stays the
    /// same one), the weather and the terrain's prices.
    ground: Option<(std::sync::Arc<tabletop::terrain::Table>, crate::model::Weather, TerrainData)>,
    /// (enemy, unit): the versions of both looks a way was measured at, and the way.
    ways: std::collections::HashMap<(UnitId, UnitId), (u64, u64, f64)>,
}

/// What the nearest enemy depends on, of one unit.
#[derive(Clone, Debug)]
struct Look {
    rects: Vec<tabletop::Rect>,
    pose: crate::layout::Pose,
    on_table: bool,
    side: Side,
    size: (f64, f64),
}

impl Look {
    fn of(u: &Unit) -> Look {
        Look {
            rects: u.rects(),
            pose: u.pose,
            on_table: u.on_table,
            side: u.side,
            size: u.stand_size,
        }
    }

    /// The same to the bit.
    fn is(&self, u: &Unit) -> bool {
        use crate::hashing::{same_pose, same_rect};
        self.on_table == u.on_table
            && self.side == u.side
            && self.size.0.to_bits() == u.stand_size.0.to_bits()
            && self.size.1.to_bits() == u.stand_size.1.to_bits()
            && same_pose(&self.pose, &u.pose)
            && self.rects.len() == u.stands.len()
            && self.rects.iter().zip(&u.stands).all(|(r, s)| same_rect(r, &s.rect))
    }
}

impl Distances {
    /// Notes which units' stands have changed since the last look.
    fn refresh(&mut self, state: &State, terrain: &TerrainData) {
        let same_ground = self.ground.as_ref().is_some_and(|(t, w, d)| {
            std::sync::Arc::ptr_eq(t, &state.table) && *w == state.weather && d == terrain
        });
        if !same_ground {
            self.ground = Some((state.table.clone(), state.weather, terrain.clone()));
            self.ways.clear();
        }
        self.seen.resize_with(state.units.len(), || (Vec::new(), 0));
        for (u, (rects, version)) in state.units.iter().zip(self.seen.iter_mut()) {
            let same = rects.len() == u.stands.len()
                && rects.iter().zip(&u.stands).all(|(r, s)| *r == s.rect);
            if !same {
                *rects = u.stands.iter().map(|s| s.rect).collect();
                *version += 1;
            }
        }
        if self.looks.len() != state.units.len() {
            // Another state altogether: nothing seen before counts.
            self.looks.clear();
            self.nearest.clear();
            self.ways.clear();
            for s in self.epochs.values_mut() {
                *s += 1;
            }
        }
        for (i, u) in state.units.iter().enumerate() {
            match self.looks.get_mut(i) {
                Some((look, version)) => {
                    if !look.is(u) {
                        *self.epochs.entry(look.side).or_insert(0) += 1;
                        *self.epochs.entry(u.side).or_insert(0) += 1;
                        *look = Look::of(u);
                        *version += 1;
                    }
                }
                None => {
                    *self.epochs.entry(u.side).or_insert(0) += 1;
                    self.looks.push((Look::of(u), 0));
                }
            }
        }
    }

    /// The sum of the epochs of the sides other than `side`: it grows whenever one of their
    /// units changes its look.
    fn others_epoch(&self, side: Side) -> u64 {
        self.epochs.iter().filter(|(s, _)| **s != side).map(|(_, e)| *e).sum()
    }

    fn version(&self, id: UnitId) -> u64 {
        self.seen.get(id).map_or(u64::MAX, |s| s.1)
    }
}

/// The range within which the general's guns look for targets (the chapter leaves shooting to
/// another; this is the bot's choice, not a rule).
fn gun_range(u: &Unit) -> f64 {
    match u.limber.as_ref().map(|l| l.class) {
        Some(crate::model::PieceClass::Light) => 24.0,
        _ => 30.0,
    }
}

/// The signed angle in degrees from a facing to a direction: positive to the right.
fn turn_to(f: Facing, d: Vec2) -> f64 {
    let Some(g) = Facing::from_vector(d) else { return 0.0 };
    let mut a = g.bearing_degrees() - f.bearing_degrees();
    while a > 180.0 {
        a -= 360.0;
    }
    while a <= -180.0 {
        a += 360.0;
    }
    a
}

fn centre_of(u: &Unit) -> Point {
    crate::layout::centroid(&u.rects())
}

fn advance(to: Point) -> Step {
    Step::Advance { to: [to.x, to.y] }
}

/// The part a unit plays this phase.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    /// Take and hold the objective at this point.
    Hold(Point, f64),
    /// Strike at the enemy.
    Strike,
}

/// What the general knows in one decision.
struct Ctx<'a> {
    rules: &'a Movement,
    state: &'a State,
    side: Side,
    goals: &'a BTreeMap<UnitId, (Point, f64)>,
    /// Distances kept from earlier decisions.
    distances: &'a std::cell::RefCell<Distances>,
    /// Figures worked out once per decision.
    memo: Memo<'a>,
}

/// What a decision remembers of the table it looks at: the router, each unit's bounding box,
/// the enemies' ways, the contacts and a planner a unit, so the general's many questions of
/// "who is nearest" and "who can reach me" cost one measurement each and skip the pairs whose
/// boxes are already farther than the best.
#[derive(Default)]
struct Memo<'a> {
    router: std::cell::OnceCell<Router<'a>>,
    boxes: std::cell::OnceCell<Vec<(Point, Point)>>,
    ways: std::cell::RefCell<std::collections::HashMap<(UnitId, UnitId), f64>>,
    /// Each unit's charge reach, by id, once worked out.
    reaches: std::cell::RefCell<Vec<Option<f64>>>,
    contacts: std::cell::OnceCell<Vec<bool>>,
    planners: std::cell::RefCell<std::collections::HashMap<UnitId, std::rc::Rc<Planner<'a>>>>,
}

impl<'a> Ctx<'a> {
    fn new(
        rules: &'a Movement,
        state: &'a State,
        side: Side,
        goals: &'a BTreeMap<UnitId, (Point, f64)>,
        distances: &'a std::cell::RefCell<Distances>,
    ) -> Self {
        distances.borrow_mut().refresh(state, &rules.data.terrain);
        Ctx { rules, state, side, goals, distances, memo: Memo::default() }
    }

    /// The router over this table, made once a decision.
    fn router(&self) -> &Router<'a> {
        self.memo.router.get_or_init(|| {
            Router::new(&self.state.table, &self.rules.data.terrain, self.state.weather)
        })
    }

    /// The least edge-to-edge distance between two units' stands, measured once while
    /// neither moves.
    fn dist(&self, a: &Unit, b: &Unit) -> f64 {
        let key = if a.id <= b.id { (a.id, b.id) } else { (b.id, a.id) };
        let mut cache = self.distances.borrow_mut();
        let versions = (cache.version(key.0), cache.version(key.1));
        if let Some(&(va, vb, d)) = cache.pairs.get(&key)
            && (va, vb) == versions
        {
            return d;
        }
        let d = unit_distance(a, b);
        cache.pairs.insert(key, (versions.0, versions.1, d));
        d
    }

    /// A lower bound of [`Ctx::dist`]: the gap between the two units' bounding boxes.
    fn dist_bound(&self, a: &Unit, b: &Unit) -> f64 {
        let ((alo, ahi), (blo, bhi)) = (self.unit_box(a), self.unit_box(b));
        let dx = (blo.x - ahi.x).max(alo.x - bhi.x).max(0.0);
        let dy = (blo.y - ahi.y).max(alo.y - bhi.y).max(0.0);
        // A hair under the true gap, so rounding never prunes the nearest.
        (dx.hypot(dy) - 1e-9).max(0.0)
    }

    /// The box around a unit's stands.
    fn unit_box(&self, u: &Unit) -> (Point, Point) {
        let boxes =
            self.memo.boxes.get_or_init(|| self.state.units.iter().map(Unit::bounds).collect());
        boxes.get(u.id).copied().unwrap_or((
            Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
            Point::new(f64::INFINITY, f64::INFINITY),
        ))
    }

    /// Whether the unit is in melee contact ([`Movement::units_in_contact`], worked out once a
    /// decision for every unit: the general asks it of every unit).
    fn in_contact(&self, u: &Unit) -> bool {
        let contacts = self.memo.contacts.get_or_init(|| self.rules.units_in_contact(self.state));
        contacts.get(u.id).copied().unwrap_or(false)
    }

    /// The unit among `among` nearest `u` edge to edge; ties go to the nearer pose when
    /// `by_pose`, then to the lower id.
    fn nearest(
        &self,
        u: &Unit,
        among: impl Iterator<Item = &'a Unit>,
        by_pose: bool,
    ) -> Option<&'a Unit> {
        // The candidates by their bound, then id, taken off a heap in that order: the search
        // usually stops after the first few, and sorting them all would cost more.
        let mut cands: std::collections::BinaryHeap<std::cmp::Reverse<Bound<'a>>> =
            among.map(|e| std::cmp::Reverse(Bound(self.dist_bound(u, e), e))).collect();
        let at = u.pose.at;
        let mut best: Option<(f64, f64, &'a Unit)> = None;
        while let Some(std::cmp::Reverse(Bound(bound, e))) = cands.pop() {
            if best.is_some_and(|(d, _, _)| bound > d) {
                break;
            }
            let d = self.dist(u, e);
            let p = if by_pose { e.pose.at.distance(at) } else { 0.0 };
            let better = match best {
                None => true,
                Some((bd, bp, b)) => {
                    d.total_cmp(&bd).then(p.total_cmp(&bp)).then(e.id.cmp(&b.id)).is_lt()
                }
            };
            if better {
                best = Some((d, p, e));
            }
        }
        best.map(|(_, _, e)| e)
    }

    fn enemies(&self) -> impl Iterator<Item = &'a Unit> + '_ {
        let side = self.side;
        self.state.units.iter().filter(move |u| u.on_table && u.side != side)
    }

    fn friends(&self) -> impl Iterator<Item = &'a Unit> + '_ {
        let side = self.side;
        self.state.units.iter().filter(move |u| u.on_table && u.side == side)
    }

    fn is_fighter(u: &Unit) -> bool {
        !u.is_personality() && !u.is_artillery()
    }

    fn role_of(&self, id: UnitId) -> Role {
        match self.goals.get(&id) {
            Some((at, r)) => Role::Hold(*at, *r),
            None => Role::Strike,
        }
    }

    /// The enemy nearest a unit, remembered from one decision to the next while neither the
    /// unit nor any enemy changes its look.
    fn nearest_enemy(&self, u: &Unit) -> Option<&'a Unit> {
        if !self.state.units.get(u.id).is_some_and(|s| std::ptr::eq(s, u)) {
            return self.nearest(u, self.enemies(), true);
        }
        let key = {
            let d = self.distances.borrow();
            (d.looks.get(u.id).map_or(u64::MAX, |l| l.1), d.others_epoch(self.side))
        };
        let known = self.distances.borrow().nearest.get(&(self.side, u.id)).copied();
        if let Some((v, e, found)) = known
            && (v, e) == key
        {
            return found.map(|id| &self.state.units[id]);
        }
        let found = self.nearest(u, self.enemies(), true);
        self.distances
            .borrow_mut()
            .nearest
            .insert((self.side, u.id), (key.0, key.1, found.map(|e| e.id)));
        found
    }

    /// How far an enemy reaches with a charge.
    fn reach(&self, e: &Unit) -> f64 {
        if e.is_artillery() || e.pose.formation == Formation::Circle {
            return 0.0;
        }
        // Remembered only for the state's own units (not for a copy moved in a probe).
        if !self.state.units.get(e.id).is_some_and(|s| std::ptr::eq(s, e)) {
            return self.rules.allowance(e, false, true).this_move;
        }
        if let Some(Some(r)) = self.memo.reaches.borrow().get(e.id) {
            return *r;
        }
        let r = self.rules.allowance(e, false, true).this_move;
        let mut reaches = self.memo.reaches.borrow_mut();
        if reaches.len() <= e.id {
            reaches.resize(e.id + 1, None);
        }
        reaches[e.id] = Some(r);
        r
    }

    /// How far an enemy has to go to reach this unit: straight when nothing closed lies between,
    /// otherwise round by its route (a river is crossed only at a ford or bridge).
    fn way(&self, e: &Unit, u: &Unit) -> f64 {
        if let Some(w) = self.memo.ways.borrow().get(&(e.id, u.id)) {
            return *w;
        }
        // Kept from one decision to the next for the state's own units, while neither changes
        // its look (and the ground is the same).
        let own = |x: &Unit| self.state.units.get(x.id).is_some_and(|s| std::ptr::eq(s, x));
        let key = (own(e) && own(u)).then(|| {
            let d = self.distances.borrow();
            let v = |id: UnitId| d.looks.get(id).map_or(u64::MAX, |l| l.1);
            (v(e.id), v(u.id))
        });
        let known = key.and_then(|k| {
            let d = self.distances.borrow();
            d.ways.get(&(e.id, u.id)).filter(|(a, b, _)| (*a, *b) == k).map(|w| w.2)
        });
        let w = match known {
            Some(w) => w,
            None => {
                let w = self.way_measured(e, u);
                if let Some((a, b)) = key {
                    self.distances.borrow_mut().ways.insert((e.id, u.id), (a, b, w));
                }
                w
            }
        };
        self.memo.ways.borrow_mut().insert((e.id, u.id), w);
        w
    }

    fn way_measured(&self, e: &Unit, u: &Unit) -> f64 {
        let d = self.dist(e, u);
        let router = self.router();
        let who = Traveller {
            formed: e.pose.formation != Formation::OpenOrder,
            half_width: e.stand_size.0 / 2.0,
            on_roads: false,
        };
        let (a, b) = (centre_of(e), centre_of(u));
        if router.leg_open(a, b, who) {
            return d;
        }
        match router.route(a, b, who) {
            Some(r) => d.max(r.cost - a.distance(b) + d),
            None => f64::INFINITY,
        }
    }

    /// The nearest distance at which some formed enemy could charge this unit next phase, less
    /// that enemy's reach: negative when within reach.
    fn margin(&self, u: &Unit) -> f64 {
        self.enemies()
            .filter(|e| !e.driven_off)
            .map(|e| (e, self.reach(e)))
            .filter(|&(e, reach)| {
                reach > 0.0 && self.dist_bound(u, e) - reach < 4.0 && self.dist(u, e) - reach < 4.0
            })
            .map(|(e, reach)| self.way(e, u) - reach)
            .fold(f64::INFINITY, f64::min)
    }

    fn plan(
        &self,
        id: UnitId,
        steps: &[Step],
        forced: bool,
        battle: bool,
    ) -> Option<crate::engine::Plan> {
        let planner = self.planner(id)?;
        self.rules.plan_move_with(&planner, steps, forced, battle).ok()
    }

    /// The planner for one of the units, made once a decision.
    fn planner(&self, id: UnitId) -> Option<std::rc::Rc<Planner<'a>>> {
        if let Some(p) = self.memo.planners.borrow().get(&id) {
            return Some(p.clone());
        }
        let p = std::rc::Rc::new(Planner::new(self.rules, self.state, id)?);
        self.memo.planners.borrow_mut().insert(id, p.clone());
        Some(p)
    }

    /// A command if the rules accept it.
    fn legal(&self, c: Command) -> Option<Command> {
        self.rules.check(self.state, Actor::Side(self.side), &c).is_ok().then_some(c)
    }

    fn mv(&self, unit: UnitId, steps: Vec<Step>, forced: bool, battle: bool) -> Option<Command> {
        if steps.is_empty() {
            return None;
        }
        self.legal(Command::Move { unit, forced_march: forced, battle_command: battle, steps })
    }

    /// The pose after some steps, if they are legal.
    fn pose_after(&self, id: UnitId, steps: &[Step], forced: bool, battle: bool) -> Option<Pose> {
        if steps.is_empty() {
            return Some(self.state.units[id].pose);
        }
        self.plan(id, steps, forced, battle).map(|p| p.pose)
    }

    /// Steps that turn a unit at `pose` toward `dir`: a column (or a lone stand) wheels; a line
    /// or a mass changes facing for a turn of more than 45° and otherwise marches obliquely
    /// (within 45° of its front a move costs no more, MOV-DIR-04); `exact` squares a column up.
    fn orient(&self, u: &Unit, pose: &Pose, dir: Vec2, exact: bool) -> Vec<Step> {
        if pose.formation == Formation::Circle {
            return vec![];
        }
        let a = turn_to(pose.facing, dir);
        if u.stands.len() == 1 && a.abs() > 60.0 {
            // A lone stand: a change of facing costs less than a wide wheel.
            return vec![Step::Face(if a.abs() > 135.0 {
                Turn::About
            } else if a > 0.0 {
                Turn::Right
            } else {
                Turn::Left
            })];
        }
        let column_like = pose.files <= 1 || (u.stands.len() == 1);
        if column_like {
            if a.abs() <= if exact { 2.0 } else { 10.0 } {
                return vec![];
            }
            let pivot = if a > 0.0 { Pivot::Right } else { Pivot::Left };
            return vec![Step::Wheel { pivot, degrees: a.abs().min(180.0) }];
        }
        if a.abs() <= 45.0 {
            vec![]
        } else if a.abs() <= 135.0 {
            vec![Step::Face(if a > 0.0 { Turn::Right } else { Turn::Left })]
        } else {
            vec![Step::Face(Turn::About)]
        }
    }

    /// The longest advance toward `goal` after `prefix` that the rules accept within the
    /// allowance, not ending in contact; tries a fan of headings when the straight way is
    /// barred. Returns the steps.
    fn longest(
        &self,
        id: UnitId,
        prefix: &[Step],
        goal: Point,
        forced: bool,
        battle: bool,
    ) -> Option<(Vec<Step>, f64)> {
        let u = &self.state.units[id];
        let allowance = self.rules.allowance(u, forced, false).this_move;
        let start = self.pose_after(id, prefix, forced, battle)?;
        let full = goal - start.at;
        let dist = full.length();
        if dist < 0.05 {
            return None;
        }
        let fits = |to: Point| -> bool {
            let mut s = prefix.to_vec();
            s.push(advance(to));
            self.plan(id, &s, forced, battle).is_some_and(|p| {
                p.cost <= allowance + 1e-9 && !p.ends_in_contact && p.stopped.is_none()
            })
        };
        let mut best: Option<(Point, f64)> = None;
        let headings: [f64; 5] = [0.0, 30.0, -30.0, 60.0, -60.0];
        for (k, deg) in headings.iter().enumerate() {
            let dir = full.rotate_by(tabletop::geometry::rotation(deg.to_radians()));
            let reach = |t: f64| start.at + dir * t;
            let got = if fits(reach(1.0)) {
                1.0
            } else {
                let (mut lo, mut hi) = (0.0, 1.0);
                for _ in 0..9 {
                    let mid = 0.5 * (lo + hi);
                    if fits(reach(mid)) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                lo
            };
            let gain = (dir * got).dot(full) / dist;
            if got * dist >= 0.1 && best.is_none_or(|b| gain > b.1 + 0.25) {
                best = Some((reach(got), gain));
            }
            // The straight way is good enough unless it barely moves.
            if k == 0 && got >= 0.3 {
                break;
            }
        }
        let (to, gain) = best?;
        if gain < 0.5_f64.min(dist - 0.05) {
            return None;
        }
        let mut s = prefix.to_vec();
        s.push(advance(to));
        Some((s, gain))
    }

    /// True when a forced march makes sense for this unit toward a goal this far away.
    fn wants_forced_march(&self, u: &Unit, distance: f64) -> bool {
        let normal = self.rules.allowance(u, false, false).this_move;
        if u.pose.formation == Formation::Circle
            || u.forced_march_failed
            || !matches!(u.morale, MoraleState::Firm | MoraleState::Checked)
            || distance < normal * 1.3
        {
            return false;
        }
        if !u.is_personality() && self.rules.discipline_target(u.discipline) > 6 {
            return false;
        }
        let per = if u.is_personality() {
            self.rules.data.forced_march.attrition.leader
        } else {
            self.rules.data.forced_march.attrition.get(u.discipline)
        };
        if u.stands.iter().any(|s| s.ep <= per * 2) {
            return false;
        }
        // Out of every enemy's reach even after marching twice as far.
        self.margin(u) > 2.0 * normal + 2.0
    }

    /// A march toward `goal`: by its route, in column over crossings and along roads, forced
    /// when far and safe, deploying into line near the enemy, and facing the enemy at the end.
    fn march(&self, u: &Unit, goal: Point, keep_out: bool) -> Option<Command> {
        let id = u.id;
        let frame = outline(&u.pose, u.stands.len(), u.stand_size);
        let open = u.pose.formation == Formation::OpenOrder;
        let formed = !(open || (u.is_personality() && u.stands.len() == 1));
        let router = self.router();
        // A unit that can form a column of one file needs a crossing only that wide.
        let can_narrow =
            !u.levy && u.pose.formation != Formation::Circle && u.regroup_left.is_none();
        let narrow = Traveller {
            formed,
            half_width: if can_narrow || u.stands.len() == 1 {
                u.stand_size.0 / 2.0
            } else {
                frame.width / 2.0
            },
            on_roads: can_narrow || frame.width <= u.stand_size.0 + 1e-9,
        };
        let route = router.route(u.pose.at, goal, narrow)?;
        let first = *route.waypoints.first()?;
        let needs_column = route.waypoints.iter().take(2).any(|w| w.crossing || w.road)
            && frame.width > u.stand_size.0 * 1.5;
        let near_enemy = self.margin(u) < self.rules.allowance(u, false, false).this_move + 4.0;
        let mut prefix: Vec<Step> = Vec::new();
        let can_form = u.regroup_left.is_none() && !u.levy && u.stands.len() > 1;
        if can_form && needs_column && !near_enemy && u.pose.formation != Formation::Circle {
            let f = Step::Form { formation: Formation::Column, files: Some(1), gap: None };
            if self.pose_after(id, std::slice::from_ref(&f), false, false).is_some() {
                prefix.push(f);
            }
        } else if can_form
            && near_enemy
            && u.pose.formation == Formation::Column
            && u.stands.len() >= 4
            && !u.skirmisher
        {
            let files = (u.stands.len() as u32).div_ceil(2);
            let f = Step::Form { formation: Formation::Line, files: Some(files), gap: None };
            if self.pose_after(id, std::slice::from_ref(&f), false, false).is_some() {
                prefix.push(f);
            }
        } else if can_form && u.skirmisher && !open && near_enemy {
            let f = Step::Form { formation: Formation::OpenOrder, files: None, gap: None };
            if self.pose_after(id, std::slice::from_ref(&f), false, false).is_some() {
                prefix.push(f);
            }
        }
        let distance = route.cost;
        let forced = prefix.is_empty() && self.wants_forced_march(u, distance);
        let pose = self.pose_after(id, &prefix, forced, false)?;
        let mut steps = prefix.clone();
        steps.extend(self.orient(u, &pose, first.at - pose.at, first.crossing || first.road));
        if self.pose_after(id, &steps, forced, false).is_none() {
            steps = prefix;
        }
        // Keep out of the enemy's reach when told to (skirmishers, guns, the general).
        let mut goal1 = first.at;
        if keep_out {
            goal1 = self.short_of_danger(u, pose.at, goal1);
        }
        let (mut steps, _) = self.longest(id, &steps, goal1, forced, false)?;
        // A second leg when the first waypoint was reached with allowance to spare.
        if route.waypoints.len() > 1
            && let Some(p) = self.plan(id, &steps, forced, false)
            && p.pose.at.distance(first.at) < 0.05
        {
            let next = route.waypoints[1];
            let mut more = steps.clone();
            more.extend(self.orient(u, &p.pose, next.at - p.pose.at, next.crossing || next.road));
            let goal2 =
                if keep_out { self.short_of_danger(u, p.pose.at, next.at) } else { next.at };
            if let Some((s, _)) = self.longest(id, &more, goal2, forced, false) {
                steps = s;
            }
        }

        // Worth the allowance only if it gets somewhere.
        let before = u.pose.at.distance(goal);
        let after = self.plan(id, &steps, forced, false).map(|p| p.pose.at.distance(goal))?;
        if before - after < f64::min(1.0, 0.5 * before) {
            return None;
        }
        let c = self.mv(id, steps.clone(), forced, false);
        if c.is_none() && forced {
            return self.mv(id, steps, false, false);
        }
        c
    }

    /// The dense trees nearest a unit in open order, if it could reach their middle this
    /// phase: there no formed enemy can follow (MOV-TER-11).
    fn refuge(&self, u: &Unit) -> Option<Point> {
        if u.pose.formation != Formation::OpenOrder {
            return None;
        }
        let allowance = self.rules.allowance(u, false, false).this_move;
        self.state
            .table
            .areas
            .iter()
            .filter(|a| a.kind == tabletop::terrain::AreaKind::DenseTrees)
            .map(|a| {
                let pts = &a.polygon.points;
                pts.iter().fold(Vec2::ZERO, |s, p| s + *p) * (1.0 / pts.len().max(1) as f64)
            })
            .filter(|c| c.distance(u.pose.at) <= allowance + 3.0)
            .min_by(|a, b| a.distance(u.pose.at).total_cmp(&b.distance(u.pose.at)))
    }

    /// Where along the way from `from` toward `to` the unit stops to keep out of every formed
    /// enemy's charge reach (with a 1" margin).
    fn short_of_danger(&self, u: &Unit, from: Point, to: Point) -> Point {
        let mut t_best = 1.0;
        for e in self.enemies().filter(|e| !e.driven_off && self.reach(e) > 0.0) {
            let keep = self.reach(e) + 1.0 + u.stand_size.1;
            let c = centre_of(e);
            let probe = |t: f64| {
                from.lerp(to, t).distance(c)
                    - outline(&e.pose, e.stands.len(), e.stand_size).width / 2.0
            };
            if probe(1.0) >= keep {
                continue;
            }
            let (mut lo, mut hi) = (0.0, 1.0);
            if probe(0.0) < keep {
                return from;
            }
            for _ in 0..12 {
                let m = 0.5 * (lo + hi);
                if probe(m) >= keep {
                    lo = m;
                } else {
                    hi = m;
                }
            }
            t_best = f64::min(t_best, lo);
        }
        from.lerp(to, t_best)
    }

    /// Adds a last step that faces the nearest enemy: a change of facing when it stands more
    /// than 45° off the front, or a short wheel to square a line up, if the allowance is left.
    fn face_the_enemy(&self, u: &Unit, steps: &mut Vec<Step>, holding: bool) {
        if u.pose.formation == Formation::Circle
            || u.is_artillery() && steps.iter().any(|s| matches!(s, Step::Advance { .. }))
        {
            return;
        }
        let Some(e) = self.nearest_enemy(u) else { return };
        // Only when it matters: the enemy could reach it next phase, or it holds its ground.
        let near = if holding {
            2.5 * self.rules.allowance(u, false, false).this_move + 6.0
        } else {
            self.reach(e) + 2.0
        };
        if self.dist(u, e) > near {
            return;
        }
        let Some(p) = self.plan(u.id, steps, false, false) else { return };
        if p.pose.formation == Formation::Circle {
            return;
        }
        let allowance = self.rules.allowance(u, false, false).this_move;
        let a = turn_to(p.pose.facing, centre_of(e) - p.pose.at);
        let extra = if a.abs() > 45.0 {
            if p.pose.files <= 1 && u.stands.len() > 1 {
                return;
            }
            Step::Face(if a.abs() > 135.0 {
                Turn::About
            } else if a > 0.0 {
                Turn::Right
            } else {
                Turn::Left
            })
        } else if a.abs() > 12.0 {
            Step::Wheel {
                pivot: if a > 0.0 { Pivot::Right } else { Pivot::Left },
                degrees: a.abs(),
            }
        } else {
            return;
        };
        let mut more = steps.clone();
        more.push(extra);
        if self
            .plan(u.id, &more, false, false)
            .is_some_and(|q| q.cost <= allowance + 1e-9 && !q.ends_in_contact)
        {
            *steps = more;
        }
    }

    /// Falls back straight away from the enemies whose charge could reach it, turning about
    /// first if they are ahead.
    fn fall_back(&self, u: &Unit) -> Option<Command> {
        let threats: Vec<(&Unit, f64)> = self
            .enemies()
            .filter(|e| !e.driven_off)
            .map(|e| (e, self.reach(e)))
            // The way is never shorter than the straight gap: only enemies within reach of
            // this unit by the gap can be within reach by the way.
            .filter(|&(e, reach)| {
                reach > 0.0 && self.dist_bound(u, e) < reach && self.dist(u, e) < reach
            })
            .map(|(e, reach)| (e, self.way(e, u) - reach))
            .filter(|(_, m)| *m < 0.0)
            .collect();
        let away = threats
            .iter()
            .map(|(e, _)| (centre_of(u) - centre_of(e)).normalized().unwrap_or(Vec2::ZERO))
            .fold(Vec2::ZERO, |s, v| s + v)
            .normalized()?;
        let need = threats.iter().map(|t| -t.1).fold(0.0, f64::max) + 1.0;
        let mut prefix = self.orient(u, &u.pose, away, false);
        if self.pose_after(u.id, &prefix, false, false).is_none() {
            prefix.clear();
        }
        let start = self.pose_after(u.id, &prefix, false, false)?;
        let goal = start.at + away * need.min(self.rules.allowance(u, false, false).this_move);
        let (steps, _) = self.longest(u.id, &prefix, goal, false, false)?;
        self.mv(u.id, steps, false, false)
    }

    /// The best charge this unit can make now, if the odds favour one.
    fn charge(&self, u: &Unit, role: Role) -> Option<Command> {
        if !Ctx::is_fighter(u)
            || u.pose.formation == Formation::Circle
            || !matches!(u.morale, MoraleState::Firm | MoraleState::Checked)
            || u.regroup_left.is_some()
        {
            return None;
        }
        let allowance = self.rules.allowance(u, false, true).this_move;
        let mut best: Option<(i32, Command)> = None;
        for e in self.enemies() {
            if self.dist(u, e) > allowance {
                continue;
            }
            let soft =
                e.is_artillery() || e.is_personality() || e.pose.formation == Formation::OpenOrder;
            if u.pose.formation == Formation::OpenOrder && !soft {
                continue;
            }
            // Aim at the nearest enemy stand.
            let aim = e
                .stands
                .iter()
                .map(|s| s.rect.centre)
                .min_by(|a, b| a.distance(u.pose.at).total_cmp(&b.distance(u.pose.at)))?;
            let dir = aim - u.pose.at;
            let mut steps = self.orient(u, &u.pose, dir, false);
            let start = self.pose_after(u.id, &steps, false, true).unwrap_or(u.pose);
            let d = aim - start.at;
            let Some(n) = d.normalized() else { continue };
            steps.push(advance(start.at + d + n * 2.0));
            let Some(p) = self.plan(u.id, &steps, false, true) else { continue };
            if !p.ends_in_contact || p.cost > allowance + 1e-9 {
                continue;
            }
            // Score the charge as a wargamer would.
            let mut probe = self.state.clone();
            probe.units[u.id].set_pose(p.pose);
            let contacts = self.rules.contacts(&probe, e.id);
            let on_flank = contacts.iter().any(|(c, s)| *c == u.id && *s != Sector::Front);
            let mut score = 0;
            if on_flank {
                score += 3;
            }
            let (mine, theirs) = (probe.units[u.id].ranks(), e.ranks());
            if mine > theirs && p.pose.formation != Formation::Mass {
                score += 2;
            } else if theirs > mine && e.pose.formation != Formation::Mass && !on_flank {
                score -= 2;
            }
            score += match e.morale {
                MoraleState::Firm => 0,
                MoraleState::Checked => 1,
                _ => 2,
            };
            if u.morale == MoraleState::Checked {
                score -= 1;
            }
            if soft {
                score += 2;
            }
            if matches!(u.discipline, Discipline::Excellent | Discipline::Good)
                && matches!(e.discipline, Discipline::Poor | Discipline::Wild)
            {
                score += 1;
            }
            if let Role::Hold(at, r) = role
                && e.stands.iter().any(|s| s.rect.distance_to_point(at) <= r + 3.0)
            {
                score += 1;
            }
            if u.troop.mounted() && !e.troop.mounted() && e.pose.formation != Formation::Circle {
                score += 1;
            }
            if score >= 1
                && best.as_ref().is_none_or(|b| score > b.0)
                && let Some(c) = self.mv(u.id, steps, false, true)
            {
                best = Some((score, c));
            }
        }
        best.map(|b| b.1)
    }

    /// In melee: fight on, turn to face a foe on the flank, or pull a shaken unit out, each
    /// under a battle command (MOV-GEN-06).
    fn in_melee(&self, u: &Unit) -> Option<Command> {
        let contacts = self.rules.contacts(self.state, u.id);
        let weak = matches!(u.morale, MoraleState::Shaken | MoraleState::Broken)
            || !Ctx::is_fighter(u)
            || u.pose.formation == Formation::OpenOrder;
        if weak {
            let away = contacts
                .iter()
                .map(|(e, _)| u.pose.at - centre_of(&self.state.units[*e]))
                .fold(Vec2::ZERO, |s, v| s + v.normalized().unwrap_or(Vec2::ZERO));
            let away = away.normalized()?;
            let mut prefix = if u.pose.formation == Formation::Circle {
                vec![]
            } else if turn_to(u.pose.facing, away).abs() > 135.0 {
                vec![Step::Face(Turn::About)]
            } else {
                vec![]
            };
            if self.pose_after(u.id, &prefix, false, true).is_none() {
                prefix.clear();
            }
            let start = self.pose_after(u.id, &prefix, false, true)?;
            let goal = start.at + away * self.rules.allowance(u, false, false).this_move;
            let (steps, _) = self.longest(u.id, &prefix, goal, false, true)?;
            return self.mv(u.id, steps, false, true);
        }
        let front = contacts.iter().any(|(_, s)| *s == Sector::Front);
        if !front && u.pose.formation != Formation::Circle {
            let (e, s) = contacts.first()?;
            let _ = e;
            let t = match s {
                Sector::Right => Turn::Right,
                Sector::Left => Turn::Left,
                Sector::Rear => Turn::About,
                Sector::Front => return None,
            };
            return self.mv(u.id, vec![Step::Face(t)], false, true);
        }
        None
    }

    /// The guns: unlimber with a target in range, shoot, limber up when the enemy is out of
    /// range, otherwise go forward limbered.
    fn gun(&self, u: &Unit, role_goal: Point) -> Option<Command> {
        let l = u.limber.as_ref()?;
        let range = gun_range(u);
        let nearest = self.nearest_enemy(u).map(|e| self.dist(u, e)).unwrap_or(f64::INFINITY);
        if !l.limbered {
            if nearest <= range {
                if let Some(c) = self.legal(Command::Shoot { unit: u.id }) {
                    return Some(c);
                }
                if let Some(e) = self.nearest_enemy(u)
                    && let a = turn_to(u.pose.facing, centre_of(e) - u.pose.at)
                    && a.abs() > 45.0
                {
                    let t = if a.abs() > 135.0 {
                        Turn::About
                    } else if a > 0.0 {
                        Turn::Right
                    } else {
                        Turn::Left
                    };
                    return self.mv(u.id, vec![Step::Face(t)], false, false);
                }
                return None;
            }
            if nearest > range + 6.0 {
                return self.legal(Command::Limber { unit: u.id });
            }
            return None;
        }
        if nearest <= range - 4.0 {
            return self.legal(Command::Unlimber { unit: u.id });
        }
        self.march(u, role_goal, true)
    }

    /// The general: rides to a unit that has lost touch with the army; otherwise, when some of
    /// his units are beyond his command range, toward the middle of the army, keeping out of the
    /// enemy's reach; otherwise he stays where he is.
    fn general(&self, u: &Unit) -> Option<Command> {
        let lost = self.nearest(
            u,
            self.friends().filter(|f| f.separated && !f.driven_off && Ctx::is_fighter(f)),
            false,
        );
        let range = if u.army_leader {
            self.rules.data.geometry.command_range.army
        } else {
            self.rules.data.geometry.command_range.brigade
        };
        if !u.leader {
            // A character keeps close behind the nearest fighting unit of its side.
            let f = self.nearest(
                u,
                self.friends().filter(|f| Ctx::is_fighter(f) && !f.driven_off),
                false,
            )?;
            if self.dist(u, f) <= 3.0 {
                return None;
            }
            let goal = f.pose.at
                - f.pose.facing.vector()
                    * (outline(&f.pose, f.stands.len(), f.stand_size).depth + 2.0);
            return self.march(u, goal, true);
        }
        let goal = match lost {
            Some(f) => centre_of(f),
            None => {
                let own: Vec<&Unit> = self.friends().filter(|f| Ctx::is_fighter(f)).collect();
                if own.is_empty() || own.iter().all(|f| self.dist(u, f) <= range) {
                    return None;
                }
                let mid =
                    own.iter().fold(Vec2::ZERO, |s, f| s + centre_of(f)) * (1.0 / own.len() as f64);
                let foe: Vec<Point> = self.enemies().map(centre_of).collect();
                let back = if foe.is_empty() {
                    Vec2::ZERO
                } else {
                    let f = foe.iter().fold(Vec2::ZERO, |s, p| s + *p) * (1.0 / foe.len() as f64);
                    (mid - f).normalized().unwrap_or(Vec2::ZERO) * 4.0
                };
                mid + back
            }
        };
        let goal = Point::new(
            goal.x.clamp(1.0, self.state.table.width - 1.0),
            goal.y.clamp(1.0, self.state.table.height - 1.0),
        );
        if u.pose.at.distance(goal) < 4.0 {
            return None;
        }
        self.march(u, goal, true)
    }

    /// A defensive formation when the situation calls for one: a circle for foot caught alone
    /// by horse (and back to line when it has gone), a mass for poor foot holding against a
    /// deeper column, open order for skirmishers near the enemy.
    fn form_up(&self, u: &Unit, role: Role) -> Option<Command> {
        if u.levy || u.regroup_left.is_some() || u.stands.len() < 2 || !Ctx::is_fighter(u) {
            return None;
        }
        // Horse that could reach it next phase; `flank`: from outside its front.
        let horse_near = |extra: f64, flank: bool| {
            self.enemies().any(|e| {
                e.troop.mounted()
                    && !e.driven_off
                    && !e.is_personality()
                    && self.dist(u, e) <= self.reach(e) + extra
                    && self.way(e, u) <= self.reach(e) + extra
                    && (!flank
                        || crate::engine::direction_sector_of(
                            u.pose.facing,
                            centre_of(e) - centre_of(u),
                        ) != Sector::Front)
            })
        };
        let foot = !u.troop.mounted() && u.troop != TroopType::Creature;
        let alone = self.friends().all(|f| f.id == u.id || self.dist(u, f) > 3.0);
        let form = |formation: Formation, files: Option<u32>| -> Option<Command> {
            self.mv(u.id, vec![Step::Form { formation, files, gap: None }], false, false)
        };
        if u.pose.formation == Formation::Circle {
            if !horse_near(6.0, false) {
                return form(Formation::Line, Some((u.stands.len() as u32).div_ceil(2)));
            }
            return None;
        }
        if foot
            && !u.skirmisher
            && u.stands.len() >= 4
            && alone
            && horse_near(0.0, true)
            && !self.in_contact(u)
        {
            return form(Formation::Circle, None);
        }
        if let Role::Hold(at, r) = role
            && foot
            && matches!(u.discipline, Discipline::Poor | Discipline::Wild)
            && u.pose.formation != Formation::Mass
            && u.stands.iter().any(|s| s.rect.distance_to_point(at) <= r)
        {
            let deeper = self.enemies().any(|e| {
                e.ranks() > u.ranks() && !e.driven_off && self.dist(u, e) <= 2.0 * self.reach(e)
            });
            if deeper {
                return form(Formation::Mass, Some(best_mass_files(u.stands.len(), u.stand_size)));
            }
        }
        None
    }

    /// The whole decision for one unit, or `None` to leave it where it is.
    fn decide(&self, id: UnitId) -> Option<Command> {
        let u = &self.state.units[id];
        let role = self.role_of(id);
        let barred = self.rules.move_barred(self.state, Actor::Side(self.side), id).is_some();
        if u.is_artillery() {
            if let Some(l) = &u.limber
                && !l.limbered
                && !l.changing
            {
                // An unlimbered gun may shoot even after turning.
                if let Some(c) = self.gun(u, u.pose.at) {
                    return Some(c);
                }
            }
            if barred {
                return None;
            }
            let goal = match role {
                Role::Hold(at, _) => at,
                Role::Strike => self.support_point(u),
            };
            return self.gun(u, goal);
        }
        if barred {
            return None;
        }
        if u.regroup_left.is_some() {
            let mut steps = Vec::new();
            self.face_the_enemy(u, &mut steps, true);
            return self.mv(id, steps, false, false);
        }
        if self.in_contact(&self.state.units[id]) {
            return self.in_melee(u);
        }
        if u.is_personality() {
            return self.general(u);
        }
        if let Some(c) = self.form_up(u, role) {
            return Some(c);
        }
        if let Some(c) = self.charge(u, role) {
            return Some(c);
        }
        let keep_out = u.pose.formation == Formation::OpenOrder || u.skirmisher;
        if keep_out && self.margin(u) < 0.0 {
            if let Some(wood) = self.refuge(u)
                && let Some(c) = self.march(u, wood, false)
            {
                return Some(c);
            }
            return self.fall_back(u);
        }
        match role {
            Role::Hold(at, r) => {
                let inside = u.stands.iter().any(|s| s.rect.distance_to_point(at) <= r * 0.5);
                if inside {
                    let mut steps = Vec::new();
                    self.face_the_enemy(u, &mut steps, true);
                    return self.mv(id, steps, false, false);
                }
                self.march(u, at, keep_out)
            }
            Role::Strike => {
                let goal = self.strike_point(u)?;
                self.march(u, goal, keep_out)
            }
        }
    }

    /// Where a striking unit heads: the enemy nearest the objectives (or nearest to it).
    fn strike_point(&self, u: &Unit) -> Option<Point> {
        let objs: Vec<Point> = self.state.objectives.iter().map(|o| o.at).collect();
        let target = self.enemies().filter(|e| !e.driven_off).min_by(|a, b| {
            let score = |e: &Unit| {
                let to_obj =
                    objs.iter().map(|o| centre_of(e).distance(*o)).fold(f64::INFINITY, f64::min);
                self.dist(u, e) + if to_obj.is_finite() { 0.5 * to_obj } else { 0.0 }
            };
            score(a).total_cmp(&score(b)).then(a.id.cmp(&b.id))
        })?;
        let c = centre_of(target);
        // Stop a little short: the charge is decided when in reach.
        let d = c - u.pose.at;
        let len = d.length();
        let stop = (len - 2.0).max(0.0);
        Some(u.pose.at + d.normalized().unwrap_or(Vec2::ZERO) * stop)
    }

    /// Where a gun without an objective goes: behind the nearest friendly fighting unit.
    fn support_point(&self, u: &Unit) -> Point {
        let best = self.nearest(u, self.friends().filter(|f| Ctx::is_fighter(f)), false);
        match best {
            Some(f) => f.pose.at - f.pose.facing.vector() * 4.0,
            None => u.pose.at,
        }
    }

    /// The order in which units are considered: those in melee, the guns, then by distance to
    /// the enemy, the general last; units `skip` names (already declined this phase) are left
    /// out before any distance is measured.
    fn order(&self, skip: impl Fn(UnitId) -> bool) -> Vec<UnitId> {
        let mut v: Vec<(u8, f64, UnitId)> = self
            .friends()
            .filter(|u| !skip(u.id))
            .map(|u| {
                let rank = if self.in_contact(u) {
                    0
                } else if u.is_artillery() {
                    1
                } else if u.is_personality() {
                    3
                } else {
                    2
                };
                let d = self.nearest_enemy(u).map_or(f64::INFINITY, |e| self.dist(u, e));
                (rank, d, u.id)
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        v.into_iter().map(|x| x.2).collect()
    }
}

/// A unit with a lower bound of its distance, ordered by the bound, then by the unit's id.
struct Bound<'a>(f64, &'a Unit);

impl PartialEq for Bound<'_> {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o).is_eq()
    }
}

impl Eq for Bound<'_> {}

impl PartialOrd for Bound<'_> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Bound<'_> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0).then(self.1.id.cmp(&o.1.id))
    }
}

impl Bot<Movement> for Scripted {
    fn describe(&self) -> String {
        "scripted".into()
    }

    fn choose(
        &mut self,
        rules: &Movement,
        state: &State,
        side: Side,
        _rng: &mut SeededDice,
    ) -> Result<Command, BotError> {
        if state.phase != side || rules.outcome(state).is_some() {
            return Ok(Command::EndPhase);
        }
        let phase = (state.turn, side);
        self.declined.retain(|(t, s, _)| (*t, *s) == phase);
        if self.goals.is_empty() {
            self.goals = assign_goals(rules, state, side);
        }
        let ctx = Ctx::new(rules, state, side, &self.goals, &self.distances);
        let order = ctx.order(|id| self.declined.contains(&(state.turn, side, id)));
        for id in order {
            match ctx.decide(id) {
                Some(c) => return Ok(c),
                None => {
                    self.declined.insert((state.turn, side, id));
                }
            }
        }
        Ok(Command::EndPhase)
    }
}

/// Gives every fighting unit and gun of `side` an objective to go to, once: each objective, in
/// order, to the nearest unit without one, then every other unit to the objective nearest it.
/// Units sharing an objective take places beside it, 5" apart across the way from their own
/// edge; guns stand 8" back.
fn assign_goals(rules: &Movement, state: &State, side: Side) -> BTreeMap<UnitId, (Point, f64)> {
    let _ = rules;
    let mut out = BTreeMap::new();
    if state.objectives.is_empty() {
        return out;
    }
    let own: Vec<&Unit> = state.units_of(side).filter(|u| !u.is_personality()).collect();
    let home = match state.side(side).map(|s| s.edge) {
        Some(crate::model::Edge::North) => Vec2::new(0.0, 1.0),
        Some(crate::model::Edge::East) => Vec2::new(1.0, 0.0),
        Some(crate::model::Edge::West) => Vec2::new(-1.0, 0.0),
        _ => Vec2::new(0.0, -1.0),
    };
    let across = home.perp_left();
    let mut count = vec![0usize; state.objectives.len()];
    let mut placed: BTreeMap<UnitId, usize> = BTreeMap::new();
    for (k, o) in state.objectives.iter().enumerate() {
        if let Some(u) = own
            .iter()
            .filter(|u| !u.is_artillery() && !placed.contains_key(&u.id))
            .min_by(|a, b| {
                a.pose.at.distance(o.at).total_cmp(&b.pose.at.distance(o.at)).then(a.id.cmp(&b.id))
            })
        {
            placed.insert(u.id, k);
        }
    }
    for u in &own {
        if placed.contains_key(&u.id) {
            continue;
        }
        let k = (0..state.objectives.len())
            .min_by(|a, b| {
                u.pose
                    .at
                    .distance(state.objectives[*a].at)
                    .total_cmp(&u.pose.at.distance(state.objectives[*b].at))
            })
            .unwrap_or(0);
        placed.insert(u.id, k);
    }
    for (id, k) in placed {
        let o = &state.objectives[k];
        let u = &state.units[id];
        let at = if u.is_artillery() {
            o.at + home * 8.0
        } else {
            let slot = count[k];
            count[k] += 1;
            let side_step = match slot {
                0 => 0.0,
                n if n % 2 == 1 => 5.0 * n.div_ceil(2) as f64,
                n => -5.0 * (n / 2) as f64,
            };
            o.at + across * side_step + home * if slot == 0 { 0.0 } else { 2.0 }
        };
        let at = Point::new(
            at.x.clamp(1.0, state.table.width - 1.0),
            at.y.clamp(1.0, state.table.height - 1.0),
        );
        out.insert(id, (at, if u.is_artillery() { 3.0 } else { o.radius }));
    }
    out
}

/// Registers the scripted player as `scripted`, and `mcts` with the movement game's own hooks
/// ([`crate::search`]), on a movement host (call after `bots::with_standard_bots`).
pub fn register(host: Host<Movement>) -> Host<Movement> {
    crate::search::register(host).with_bot("scripted", SCRIPTED_ABOUT, |spec: &BotSpec| {
        spec.only(&[])?;
        Ok(Box::new(Hosted::<Movement, _>::new(Scripted::default())) as Box<dyn HostedBot>)
    })
}
