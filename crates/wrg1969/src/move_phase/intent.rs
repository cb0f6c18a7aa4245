//! What each unit means to do this period, before anything moves: its rout, its pursuit, its
//! reaction result, the move its side directs, or its order (WRG-ROUT, WRG-PURS, WRG-RRES,
//! WRG-ORD, WRG-R-08, -21, -24).

use super::mover::{
    Allow, EPS, Kind, Mover, Reach, area_centre, footprint, nearest_enemy, reach, routing,
};
use super::track::{Pose, Track};
use crate::Data;
use crate::moves::{check_charge, pursuit_speed, rout_speed};
use crate::orders::{Objective, Order, Verb};
use crate::plan::Step;
use crate::reaction::Effect;
use crate::state::{State, Unit};
use tabletop::geometry::{Facing, Point, Rect, Vec2, rotation};
use tabletop::rules::Refusal;

/// Why a unit moves as it does, for the book-keeping after the move.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// It stands: waiting, holding, halted, fighting.
    Still,
    /// It routs (k = the period of its rout).
    Rout {
        /// k.
        k: u32,
    },
    /// It pursues (k = the period of its pursuit).
    Pursuit {
        /// k.
        k: u32,
        /// It stands at an obstacle already (WRG-PURS-03).
        at_obstacle: bool,
    },
    /// It carries out a reaction result, one period of which passes.
    Running,
    /// It rallies back after combat (WRG-AFTER-02, -04).
    FallBack,
    /// It makes the move its side directs.
    Plan,
    /// It follows its order.
    Order(Goal),
}

/// What completes an order (WRG-CHORD-12).
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// Nothing this period.
    Open,
    /// Reaching a point; the way's allowance at the end of each route leg.
    Point {
        /// The point.
        at: Point,
        /// Allowance spent at each route point.
        route_ends: Vec<f64>,
    },
    /// Reaching a feature (its standard inside the area).
    Feature {
        /// The area.
        area: usize,
        /// Allowance spent at each route point.
        route_ends: Vec<f64>,
    },
    /// Following a route on a bearing.
    Route {
        /// Allowance spent at each route point.
        route_ends: Vec<f64>,
    },
    /// A wheel order: its whole angle (degrees, clockwise) and what this period's wheel costs.
    Wheel {
        /// Degrees still to wheel.
        degrees: f64,
        /// The wheel's allowance.
        cost: f64,
    },
    /// The order is done before the move (its enemy is gone or running).
    Done,
}

/// A unit's intent.
#[derive(Clone, Debug)]
pub struct Intent {
    /// Its move, if it moves.
    pub mover: Option<Mover>,
    /// Why.
    pub source: Source,
    /// A change of formation first (WRG-MOVE-15).
    pub reform: Option<u32>,
}

impl Intent {
    fn still(source: Source) -> Intent {
        Intent { mover: None, source, reform: None }
    }
}

/// What the intents are read from.
pub struct Cx<'a> {
    /// The tables.
    pub data: &'a Data,
    /// The state before the move.
    pub state: &'a State,
    /// Units in hand-to-hand.
    pub fighting: &'a [bool],
    /// Scratch space.
    pub pad: super::mover::Pad,
}

/// Where a unit stands.
pub fn pose_of(u: &Unit) -> Pose {
    Pose { at: u.at, facing: u.facing }
}

impl Cx<'_> {
    /// How far a unit gets along a way. Wheeled vehicles stop at a wall or hedge; standing at
    /// one with 5 figures or more they are man-handled across in the whole period
    /// (WRG-TERR-02, WRG-R-44).
    pub fn reach(&mut self, u: &Unit, track: &Track, allowance: f64) -> Reach {
        let mut r = reach(self.data, self.state, u.troop, track, allowance, &mut self.pad);
        if !u.troop.is_wheeled() {
            return r;
        }
        track.leg_points(&mut self.pad.legs);
        let Some(c) =
            crate::ground::first_wall(self.data, &self.state.table, u.troop, &self.pad.legs)
        else {
            return r;
        };
        let turns = track.turn_cost_before_legs();
        if c > MANHANDLE_AT {
            // Up to the wall, which they do not cross: no obstacle cut (WRG-TERR-01).
            let legs = &mut self.pad.legs;
            truncate(legs, c - STOP_AT_WALL);
            let model = crate::ground::WrgGround { data: self.data, troop: u.troop };
            // Turns are paid first, at the going's rate (WRG-TERR-04).
            let left = (allowance - turns * r.turn_rate).max(0.0);
            let adv = tabletop::terrain::advance_with(
                &self.state.table,
                legs,
                &model,
                left,
                &mut self.pad.split,
            );
            // A turn it cannot finish takes the whole allowance.
            r.limit = turns.min(allowance.max(0.0) / r.turn_rate) + adv.distance;
            r.rate = allowance.max(0.0) / super::mover::STEPS as f64;
        } else if crate::moves::can_manhandle(self.data, u.troop, u.block.figures).is_ok() {
            let (_, depth) = u.block.size(self.data, u.troop);
            r.limit = turns + c + depth / 2.0 + STOP_AT_WALL;
            r.rate = r.limit / super::mover::STEPS as f64;
            r.manhandled = true;
        } else {
            r.limit = turns.min(r.limit);
        }
        r.slowed = true;
        r
    }

    fn normal(&self, u: &Unit) -> f64 {
        self.data.moves(u.troop).normal
    }

    /// A unit moves along `way` (points after its standard): it turns to face the first leg
    /// (paying the wheel unless `free`), each leg facing its way, or keeping its facing when
    /// `keep` (WRG-ORD-04, WRG-MOVE-14). Returns the mover and the allowance at each point.
    pub fn along(
        &mut self,
        u: &Unit,
        way: &[Point],
        allowance: f64,
        kind: Kind,
        free: bool,
        keep: bool,
    ) -> Option<(Mover, Vec<f64>)> {
        let (w, _) = u.block.size(self.data, u.troop);
        let mut track = Track::new(pose_of(u));
        let mut ends = Vec::with_capacity(way.len());
        for (i, &p) in way.iter().enumerate() {
            let from = track.end().at;
            let d = p - from;
            if d.length_squared().sqrt() <= EPS {
                ends.push(track.cost());
                continue;
            }
            if keep {
                track.line_to(p, Some(u.facing));
            } else {
                let face = Facing::from_vector(d)?;
                if i == 0 {
                    track.turn_to(face, w, free);
                }
                track.line_to(p, Some(face));
            }
            ends.push(track.cost());
        }
        if track.segs.is_empty() {
            return None;
        }
        let r = self.reach(u, &track, allowance);
        if r.limit <= EPS {
            return None;
        }
        Some((Mover::new(u, self.data, kind, track, r), ends))
    }

    /// Straight toward a point, stopping `short` inches before it (turning to face it).
    pub(super) fn toward(
        &mut self,
        u: &Unit,
        to: Point,
        short: f64,
        allowance: f64,
        kind: Kind,
        free: bool,
    ) -> Option<Mover> {
        let d = to - u.at;
        let len = d.length_squared().sqrt();
        let go = len - short;
        if go <= 1e-6 || !go.is_finite() {
            return None;
        }
        let p = u.at + d * (go / len);
        self.along(u, &[p], allowance, kind, free, false).map(|(m, _)| m)
    }

    /// A wheel about a flank figure, as far as the allowance goes (WRG-MOVE-14).
    fn wheel(&mut self, u: &Unit, degrees: f64, allowance: f64) -> Option<(Mover, f64)> {
        if !degrees.is_finite() || degrees.abs() < 1e-9 {
            return None;
        }
        let rect = footprint(self.data, u);
        let mut track = Track::new(pose_of(u));
        track.wheel(&rect, degrees.to_radians());
        let cost = track.cost();
        // Wheeling pays the going it is made on (WRG-MOVE-14, WRG-TERR-04).
        let per =
            crate::ground::going_multiplier(self.data, &self.state.table, u.troop, u.at, u.facing);
        let r = Reach {
            limit: cost.min(allowance.max(0.0) / per),
            rate: allowance.max(0.0) / super::mover::STEPS as f64,
            slowed: per > 1.0,
            blocked_at: None,
            budget: allowance.max(0.0),
            asked: allowance.max(0.0),
            cut: false,
            manhandled: false,
            turn_rate: per,
        };
        Some((Mover::new(u, self.data, Kind::Forward, track, r), cost))
    }
}

/// Cuts a polyline to its first `len` inches.
fn truncate(pts: &mut Vec<Point>, len: f64) {
    let mut left = len.max(0.0);
    for k in 1..pts.len() {
        let d = pts[k - 1].distance(pts[k]);
        if d >= left {
            if d > 0.0 {
                pts[k] = pts[k - 1].lerp(pts[k], left / d);
            }
            pts.truncate(k + 1);
            return;
        }
        left -= d;
    }
}

/// How far short of a wall wheeled vehicles stop, and how near they must be to be man-handled
/// over it (WRG-TERR-02).
const STOP_AT_WALL: f64 = 0.25;
const MANHANDLE_AT: f64 = 0.3;

/// The clockwise angle of a direction given in a unit's own frame (x right, y ahead).
fn clockwise(x: f64, y: f64) -> f64 {
    let Some(f) = Facing::from_vector(Vec2::new(x, y)) else { return 0.0 };
    let a = Facing::NORTH.angle_to(f);
    if x < 0.0 { -a } else { a }
}

/// The wheel (clockwise radians, about the front corner on the side it turns to) that brings
/// `target` straight ahead of the unit's front (WRG-MOVE-05, -06); `None` when it lies behind.
pub fn aim(rect: &Rect, target: Point) -> Option<f64> {
    let l0 = rect.to_local(target);
    if l0.y - rect.depth / 2.0 <= 0.0 {
        return None;
    }
    let right = l0.x > 0.0;
    let pivot = if right { rect.front_right() } else { rect.front_left() };
    let mut th: f64 = 0.0;
    for _ in 0..24 {
        let r = rect.rotated_about(pivot, rotation(-th));
        let l = r.to_local(target);
        let ahead = l.y - r.depth / 2.0;
        if ahead <= 0.0 {
            return None;
        }
        let d = clockwise(l.x, ahead);
        th += d;
        if (right && th < 0.0) || (!right && th > 0.0) {
            th = 0.0;
        }
        if d.abs() < 1e-10 {
            break;
        }
    }
    (th.abs() <= std::f64::consts::FRAC_PI_2 && th.is_finite()).then_some(th)
}

/// How far a footprint runs straight along `dir` before it touches `target`, up to `most`.
pub fn run_to_contact(rect: &Rect, dir: Vec2, target: &Rect, most: f64) -> Option<f64> {
    let mut d = 0.0;
    for _ in 0..400 {
        let g = rect.translated(dir * d).distance(target);
        if g <= 0.02 {
            return Some(d);
        }
        d += g;
        if d > most + 1e-9 {
            return None;
        }
    }
    None
}

/// Works out a charge by `u` at `t` in the `time_left` share of the period: a wheel about a
/// flank to bring it square to the target, then the straight run; the wheel within charge −
/// straight part, the whole within the charge distance after terrain and obstacles
/// (WRG-MOVE-04 .. -07, WRG-TERR-07, WRG-RT-12).
pub fn charge_way(
    cx: &mut Cx,
    u: &Unit,
    t: &Unit,
    time_left: f64,
    ordered: bool,
) -> Result<Mover, Refusal> {
    let data = cx.data;
    let row = data.moves(u.troop);
    let Some(charge) = row.charge else {
        return Err(Refusal::new("WRG-MOVE-04", format!("{} cannot charge", u.troop)));
    };
    if t.side == u.side || !t.on_table() {
        return Err(Refusal::new("WRG-ORD-14", format!("{} is not an enemy on the table", t.name)));
    }
    if routing(t) {
        return Err(Refusal::new(
            "WRG-PURS-01",
            format!("{} are running: they are pursued, not charged", t.name),
        ));
    }
    let rect = footprint(data, u);
    let trect = footprint(data, t);
    let radii = 0.5
        * ((rect.width * rect.width + rect.depth * rect.depth).sqrt()
            + (trect.width * trect.width + trect.depth * trect.depth).sqrt());
    if (t.at - u.at).length_squared().sqrt() - radii > charge + 1e-6 {
        return Err(Refusal::new(
            "WRG-MOVE-04",
            format!("{} charge at most {charge}\", and {} are farther", u.name, t.name),
        ));
    }
    let theta = aim(&rect, trect.centre).ok_or_else(|| {
        Refusal::new("WRG-MOVE-06", format!("{} cannot wheel to face {}", u.name, t.name))
    })?;
    let mut track = Track::new(pose_of(u));
    track.wheel(&rect, theta);
    let wheel = track.cost();
    let after = track.end();
    let run_most = (charge - wheel).max(0.0);
    let front = Rect::new(after.at, after.facing, rect.width, rect.depth);
    let run = run_to_contact(&front, after.facing.vector(), &trect, run_most);
    check_charge(data, u.troop, wheel, run.unwrap_or(run_most + 1.0))?;
    let run = run.unwrap_or(run_most);
    track.line(after.facing.vector(), run_most.max(run), after.facing);
    let r = cx.reach(u, &track, charge * time_left);
    if wheel + run > r.limit + 1e-6 {
        return Err(Refusal::new(
            "WRG-TERR-07",
            format!(
                "{} cannot reach {} this period: {:.1}\" needed, the ground allows {:.1}\"",
                u.name,
                t.name,
                wheel + run,
                r.limit
            ),
        ));
    }
    let normal = cx.reach(u, &track, row.normal * time_left).limit;
    let mut mover = Mover::new(u, data, Kind::Charge { target: t.id, ordered }, track, r);
    mover.normal_point = Some(normal);
    mover.share = time_left;
    Ok(mover)
}

/// Whether cavalry stood, as anyone watching could tell: they moved less than 1" last period
/// and are not running or pursuing (WRG-ORD-10, WRG-R-27). Whether they also declare no move
/// this period is judged in the period, when the charges are declared.
pub fn standing(u: &Unit) -> bool {
    u.moved_last < 1.0 && !routing(u) && u.pursuit.is_none()
}

/// Whether `u` may charge `t` at all: light infantry only standing cavalry (WRG-ORD-10).
pub fn may_charge(u: &Unit, t: &Unit) -> Result<(), Refusal> {
    crate::orders::light_infantry_may_charge(u.troop, t.troop, standing(t))
}

/// The routers' run this period: straight on, backs to the enemy, at rout speed, going round
/// impassable ground at a cost of 5" (WRG-ROUT-01, -02, -04, WRG-TERR-07).
pub fn rout_mover(cx: &mut Cx, u: &Unit, k: u32, time_left: f64) -> Option<Mover> {
    let speed = rout_speed(cx.data, u.troop, k) * time_left;
    let mut m = run_straight(cx, u, u.facing, speed, Kind::Rout)?;
    m.leaves = true;
    m.allow = Allow::Rout { k };
    m.share = time_left;
    Some(m)
}

/// A run straight along `heading` for `allowance`, swerving round impassable ground at a cost
/// of 5" (WRG-MOVE-10, WRG-ROUT-04).
pub fn run_straight(
    cx: &mut Cx,
    u: &Unit,
    heading: Facing,
    allowance: f64,
    kind: Kind,
) -> Option<Mover> {
    if allowance <= EPS {
        return None;
    }
    let mut track = Track::new(pose_of(u));
    if u.facing.vector().dot(heading.vector()) < 1.0 - 1e-12 {
        track.turn_to(heading, 0.0, true);
    }
    track.line(heading.vector(), allowance, heading);
    let mut r = cx.reach(u, &track, allowance);
    // Routers treat enemy troops across their way as they treat impassable ground: they
    // swerve round them (WRG-ROUT-04, WRG-R-23).
    let turned = u.facing.vector().dot(heading.vector()) < 1.0 - 1e-12;
    if kind == Kind::Rout && r.blocked_at.is_none() && !turned {
        let clear = enemy_free_run(cx, u, u.at, heading, r.limit);
        if clear + EPS < r.limit && clear > 0.05 {
            r.blocked_at = Some(clear);
        }
    }
    let Some(b) = r.blocked_at else {
        return Some(Mover::new(u, cx.data, kind, track, r));
    };
    // Swerve round: the best of four ways off the line, left first on a tie.
    let b = (b - 0.05).max(0.0);
    let left = crate::after::swerve_round_obstacle(cx.data, allowance - b);
    let at = track.pose(b).at;
    let mut best: Option<(f64, Facing)> = None;
    for deg in [-90.0f64, 90.0, -45.0, 45.0] {
        let dir = heading.rotated(rotation(-deg.to_radians()));
        let mut probe = Track::new(Pose { at, facing: dir });
        probe.line(dir.vector(), left, dir);
        let mut got = cx.reach(u, &probe, left).limit;
        if kind == Kind::Rout {
            got = got.min(enemy_free_run(cx, u, at, dir, got));
        }
        if best.is_none_or(|(g, _)| got > g + 1e-9) {
            best = Some((got, dir));
        }
    }
    let mut out = Track::new(pose_of(u));
    out.segs
        .extend(track.segs.iter().filter(|s| matches!(s, super::track::Seg::Turn { .. })).copied());
    out.line_to(at, Some(heading));
    let (got, dir) = best?;
    if got > EPS {
        out.line(dir.vector(), got, dir);
    }
    let limit = out.cost();
    let reach = Reach {
        limit,
        rate: allowance / super::mover::STEPS as f64,
        slowed: true,
        blocked_at: None,
        budget: allowance,
        asked: allowance,
        cut: false,
        manhandled: false,
        turn_rate: 1.0,
    };
    if limit <= EPS {
        return None;
    }
    let mut m = Mover::new(u, cx.data, kind, out, reach);
    m.lost = (allowance - b) - left;
    super::moved::fit_to_budget(cx.data, cx.state, u, &mut m, allowance);
    Some(m)
}

/// How far a unit's footprint may go from `at` along `heading` (up to `most` inches) before
/// it comes within 1" of an enemy that is not running, as the units stand now (every
/// quarter inch).
fn enemy_free_run(cx: &Cx, u: &Unit, at: Point, heading: Facing, most: f64) -> f64 {
    let data = cx.data;
    let (w, d) = u.block.size(data, u.troop);
    let mine = 0.5 * (w * w + d * d).sqrt();
    let foes: Vec<Rect> = cx
        .state
        .units
        .iter()
        .filter(|e| e.side != u.side && e.on_table() && !routing(e))
        .map(|e| footprint(data, e))
        .filter(|f| f.centre.distance(at) <= most + mine + f.half_diagonal() + 1.0)
        .collect();
    if foes.is_empty() {
        return most;
    }
    let start = Rect::new(at, heading, w, d);
    // Enemies it already stands within 1" of (the ones it runs from) do not stop it.
    let ahead: Vec<&Rect> = foes.iter().filter(|f| f.distance(&start) > 1.0).collect();
    let steps = (most / 0.25).ceil() as usize;
    for k in 1..=steps {
        let p = (k as f64 * 0.25).min(most);
        let r = Rect::new(at + heading.vector() * p, heading, w, d);
        if ahead.iter().any(|f| f.distance(&r) < 1.0) {
            return ((k - 1) as f64 * 0.25).min(most);
        }
    }
    most
}

/// The pursuers' move: at pursuit speed toward where the routers run to, stopping at the
/// first obstacle (WRG-PURS-01, -03). Returns the move and whether it stands at an obstacle
/// already.
pub fn pursuit_mover(
    cx: &mut Cx,
    u: &Unit,
    target: u16,
    k: u32,
    aim_at: Point,
) -> (Option<Mover>, bool) {
    let speed = pursuit_speed(cx.data, u.troop, k);
    let d = aim_at - u.at;
    let len = d.length_squared().sqrt();
    let Some(face) = Facing::from_vector(d) else { return (None, false) };
    let mut probe = Track::new(pose_of(u));
    probe.line(face.vector(), len.max(speed), face);
    probe.leg_points(&mut cx.pad.legs);
    let obstacle = crate::ground::first_obstacle(cx.data, &cx.state.table, u.troop, &cx.pad.legs)
        .filter(|o| *o <= speed.min(len) + EPS);
    let go = obstacle.map_or(len, |o| o.min(len));
    let to = u.at + face.vector() * go;
    let Some((mut m, _)) = cx.along(u, &[to], speed, Kind::Pursue { target }, true, false) else {
        return (None, obstacle.is_some_and(|o| o <= 1e-6));
    };
    if let Some(o) = obstacle
        && m.limit + 1e-6 >= o
    {
        m.obstacle_at = Some(o);
    }
    m.leaves = true;
    m.allow = Allow::Pursuit { k };
    (Some(m), false)
}

/// A fall-back after combat: turned about, straight back the distance the rules fix, then
/// facing the enemy again; cavalry repulsed are disorganised and cannot countercharge
/// meanwhile (WRG-AFTER-02, -04, WRG-DIS-06, -14, WRG-M-18).
pub fn fall_back_mover(cx: &mut Cx, u: &Unit, f: crate::state::FallingBack) -> Option<Mover> {
    let mut track = Track::new(pose_of(u));
    let back = u.facing.reversed();
    track.turn_to(back, 0.0, true);
    track.line(back.vector(), f.inches, back);
    track.turn_to(u.facing, 0.0, true);
    let r = cx.reach(u, &track, f.inches);
    let mut m = Mover::new(u, cx.data, Kind::Back, track, r);
    m.allow = if f.repulsed {
        Allow::Fixed { rule: "WRG-AFTER-02", what: "repulsed, rally back", inches: f.inches }
    } else {
        Allow::Fixed { rule: "WRG-AFTER-04", what: "undecided, rally back", inches: f.inches }
    };
    m.leaves = true;
    Some(m)
}

/// A reaction result being carried out (WRG-RRES-01 .. -09, WRG-R-21, -24), in the
/// `time_left` share of the period.
pub fn running_mover(cx: &mut Cx, u: &Unit, e: Effect, time_left: f64) -> Option<Mover> {
    let mut m = running_way(cx, u, e, time_left)?;
    if !matches!(m.kind, Kind::Charge { .. }) {
        m.allow = Allow::Result { rule: e.rule() };
    }
    m.share = time_left;
    Some(m)
}

fn running_way(cx: &mut Cx, u: &Unit, e: Effect, time_left: f64) -> Option<Mover> {
    let normal = cx.normal(u) * time_left;
    let enemy = nearest_enemy(cx.state, u).map(|e| (e.id, e.at));
    let away = enemy
        .and_then(|(_, at)| Facing::from_vector(u.at - at))
        .unwrap_or_else(|| u.facing.reversed());
    match e {
        Effect::Retreat { .. } => {
            let mut m = run_straight(cx, u, away, normal, Kind::Back)?;
            m.leaves = true;
            Some(m)
        }
        Effect::Retire { .. } => {
            let mut track = Track::new(pose_of(u));
            track.line(away.vector(), normal, u.facing);
            let r = cx.reach(u, &track, normal);
            let mut m = Mover::new(u, cx.data, Kind::Back, track, r);
            m.leaves = true;
            Some(m)
        }
        Effect::FallBack { .. } => {
            let enemy_at = enemy.map(|(_, at)| at);
            let friend = cx
                .state
                .units
                .iter()
                .filter(|f| f.side == u.side && f.id != u.id && f.on_table() && !routing(f))
                .filter(|f| enemy_at.is_none_or(|e| (f.at - u.at).dot(u.at - e) > 0.0))
                .min_by(|a, b| {
                    a.at.distance(u.at).total_cmp(&b.at.distance(u.at)).then(a.id.cmp(&b.id))
                });
            let to = match friend {
                Some(f) => f.at,
                None => u.at + away.vector() * normal,
            };
            let (mut m, _) = cx.along(u, &[to], normal, Kind::Back, true, true)?;
            m.leaves = true;
            Some(m)
        }
        Effect::MoveTowardEnemy { .. } => {
            let (_, at) = enemy?;
            cx.toward(u, at, 0.0, normal, Kind::Forward, true)
        }
        Effect::UncontrolledAdvance { .. } => uncontrolled(cx, u, time_left),
        _ => None,
    }
}

/// An uncontrolled advance: charge the nearest enemy the charge can reach, or else go at
/// normal pace straight at the nearest enemy; no test before contact (WRG-RRES-06, WRG-R-24).
pub fn uncontrolled(cx: &mut Cx, u: &Unit, time_left: f64) -> Option<Mover> {
    let state = cx.state;
    let reach_most = cx.data.moves(u.troop).charge.unwrap_or(0.0) + 20.0;
    let mut near: Vec<&Unit> = state
        .units
        .iter()
        .filter(|e| {
            e.side != u.side && e.on_table() && !routing(e) && e.at.distance(u.at) <= reach_most
        })
        .collect();
    near.sort_by(|a, b| a.at.distance(u.at).total_cmp(&b.at.distance(u.at)).then(a.id.cmp(&b.id)));
    for t in near {
        if may_charge(u, t).is_ok()
            && let Ok(c) = charge_way(cx, u, t, time_left, false)
        {
            return Some(c);
        }
    }
    let at = nearest_enemy(state, u)?.at;
    cx.toward(u, at, 0.0, cx.normal(u) * time_left, Kind::Forward, true)
}

/// A move its side directs (checked first by the caller) (WRG-MOVE-02, -03, -06, -14, -15).
pub fn plan_intent(cx: &mut Cx, u: &Unit, step: &Step) -> Intent {
    let allowance = order_allowance(cx.data, u);
    let mut it = Intent::still(Source::Plan);
    match *step {
        Step::Halt => {}
        Step::Form { files } => it.reform = Some(files),
        Step::StepBack { inches } => {
            let mut track = Track::new(pose_of(u));
            track.line(-u.facing.vector(), inches, u.facing);
            let r = cx.reach(u, &track, allowance);
            let mut m = Mover::new(u, cx.data, Kind::Back, track, r);
            m.step_back = true;
            it.mover = Some(m);
        }
        Step::Wheel { degrees } => it.mover = cx.wheel(u, degrees, allowance).map(|(m, _)| m),
        Step::MoveTo { x, y, facing } => {
            it.mover = move_to(cx, u, Point::new(x, y), facing, allowance)
        }
        Step::Charge { target } => {
            let ordered = matches!(u.standing.order().map(|o| &o.verb), Some(Verb::Attack { .. }));
            if let Some(t) = cx.state.units.get(target as usize)
                && let Ok(c) = charge_way(cx, u, t, 1.0, ordered)
            {
                it.mover = Some(c);
            }
        }
    }
    if let Some(m) = it.mover.as_mut() {
        m.directed = true;
        if matches!(m.allow, Allow::Normal { .. }) {
            m.allow = normal_allow(u.standing.order());
        }
    }
    it
}

/// A unit's normal move at its order's pace, halved in a square (WRG-MOVE-02, WRG-ORD-02,
/// WRG-M-08).
pub fn order_allowance(data: &crate::Data, u: &Unit) -> f64 {
    let order = u.standing.order();
    let square = order.is_some_and(|o| o.formation == Some(crate::orders::Formation::Square));
    let half = if square { 0.5 } else { 1.0 };
    data.moves(u.troop).normal * order.map_or(1.0, Order::pace) * half
}

/// How a normal move's allowance is made under an order.
pub(super) fn normal_allow(order: Option<&Order>) -> Allow {
    Allow::Normal {
        pace: order.map_or(1.0, Order::pace),
        square: order.is_some_and(|o| o.formation == Some(crate::orders::Formation::Square)),
    }
}

/// A directed move to a point and a final facing: the turn to the way, the way, the turn to
/// the facing, all within the allowance (about-turns are free) (WRG-MOVE-02, -03, -14).
pub fn move_to(
    cx: &mut Cx,
    u: &Unit,
    to: Point,
    facing: Option<f64>,
    allowance: f64,
) -> Option<Mover> {
    let (w, _) = u.block.size(cx.data, u.troop);
    let mut track = Track::new(pose_of(u));
    let d = to - u.at;
    if let Some(face) = Facing::from_vector(d).filter(|_| d.length_squared().sqrt() > EPS) {
        track.turn_to(face, w, false);
        track.line_to(to, Some(face));
    }
    if let Some(f) = facing {
        track.turn_to(Facing::from_bearing_degrees(f), w, false);
    }
    if track.segs.is_empty() {
        return None;
    }
    let forward = d.dot(u.facing.vector()) >= -EPS;
    let r = cx.reach(u, &track, allowance);
    Some(Mover::new(u, cx.data, if forward { Kind::Forward } else { Kind::Back }, track, r))
}

/// The point or way an objective names, from a unit's standard.
fn objective_point(state: &State, o: &Objective) -> Option<Point> {
    match o {
        Objective::Point { x, y } => Some(Point::new(*x, *y)).filter(|p| p.is_finite()),
        Objective::Feature { id } => {
            let i = state.table.areas.iter().position(|a| &a.name == id)?;
            area_centre(state, i)
        }
        Objective::Bearing { .. } => None,
    }
}

/// Whether a unit has reached an objective.
pub(super) fn reached(state: &State, o: &Objective, at: Point) -> bool {
    match o {
        Objective::Point { x, y } => at.distance(Point::new(*x, *y)) <= 0.05,
        Objective::Feature { id } => {
            state.table.areas.iter().find(|a| &a.name == id).is_some_and(|a| a.polygon.contains(at))
        }
        Objective::Bearing { .. } => false,
    }
}

/// The goal of a move to an objective along the order's route.
fn goal_of(state: &State, o: &Objective, ends: Vec<f64>) -> Goal {
    match o {
        Objective::Point { x, y } => Goal::Point { at: Point::new(*x, *y), route_ends: ends },
        Objective::Feature { id } => match state.table.areas.iter().position(|a| &a.name == id) {
            Some(area) => Goal::Feature { area, route_ends: ends },
            None => Goal::Open,
        },
        Objective::Bearing { .. } => Goal::Route { route_ends: ends },
    }
}

/// Moving on an order to an objective: along its route, then to the objective or on along the
/// bearing (WRG-ORD-02, -04).
fn to_objective(cx: &mut Cx, u: &Unit, order: &Order, to: &Objective, kind: Kind) -> Intent {
    if order.route.is_empty() && reached(cx.state, to, u.at) {
        return Intent::still(Source::Order(Goal::Done));
    }
    let allowance = order_allowance(cx.data, u);
    let mut way = order.way(objective_point(cx.state, to));
    let bearing = match to {
        Objective::Bearing { degrees } if degrees.is_finite() => {
            let f = Facing::from_bearing_degrees(*degrees);
            let last = way.last().copied().unwrap_or(u.at);
            way.push(last + f.vector() * (allowance + 1.0));
            true
        }
        _ => false,
    };
    let Some((mut m, mut ends)) = cx.along(u, &way, allowance, kind, false, false) else {
        return Intent::still(Source::Order(goal_of(cx.state, to, Vec::new())));
    };
    m.leaves = bearing;
    ends.truncate(order.route.len());
    Intent { mover: Some(m), source: Source::Order(goal_of(cx.state, to, ends)), reform: None }
}

/// A unit following its order (WRG-ORD-02, -04, -11, -13).
pub fn order_intent(cx: &mut Cx, u: &Unit, order: &Order) -> Intent {
    let mut it = order_way(cx, u, order);
    if let Some(m) = it.mover.as_mut()
        && matches!(m.allow, Allow::Normal { .. })
    {
        m.allow = normal_allow(Some(order));
    }
    it
}

fn order_way(cx: &mut Cx, u: &Unit, order: &Order) -> Intent {
    let state = cx.state;
    match &order.verb {
        Verb::Advance { to } => to_objective(cx, u, order, to, Kind::Forward),
        Verb::Retire { to } => to_objective(cx, u, order, to, Kind::Back),
        Verb::Hold { at: Some(to) }
            if !reached(state, to, u.at) && !matches!(to, Objective::Bearing { .. }) =>
        {
            let mut it = to_objective(cx, u, order, to, Kind::Forward);
            it.source = Source::Order(Goal::Open);
            it
        }
        Verb::Hold { .. } | Verb::Evade => Intent::still(Source::Order(Goal::Open)),
        Verb::Wheel { degrees } => {
            let allowance = order_allowance(cx.data, u);
            match cx.wheel(u, *degrees, allowance) {
                Some((m, cost)) => Intent {
                    mover: Some(m),
                    source: Source::Order(Goal::Wheel { degrees: *degrees, cost }),
                    reform: None,
                },
                None => Intent::still(Source::Order(Goal::Done)),
            }
        }
        Verb::Attack { unit } | Verb::Skirmish { unit } => {
            let Some(t) = state.units.get(*unit as usize).filter(|t| t.side != u.side) else {
                return Intent::still(Source::Order(Goal::Done));
            };
            if !t.on_table() || routing(t) {
                return Intent::still(Source::Order(Goal::Done));
            }
            let allowance = order_allowance(cx.data, u);
            if matches!(order.verb, Verb::Attack { .. }) {
                if may_charge(u, t).is_ok()
                    && let Ok(c) = charge_way(cx, u, t, 1.0, true)
                {
                    return Intent {
                        mover: Some(c),
                        source: Source::Order(Goal::Open),
                        reform: None,
                    };
                }
                let m = cx.toward(u, t.at, 0.0, allowance, Kind::Forward, false);
                return Intent { mover: m, source: Source::Order(Goal::Open), reform: None };
            }
            // Skirmishers close to within their own missile range and stop (WRG-ORD-11).
            let range = u.missile.map_or(0.0, |w| cx.data.weapon(w).range);
            let trect = footprint(cx.data, t);
            let front = footprint(cx.data, u).front_centre();
            let gap = trect.distance_to_point(front);
            let want = (range - 0.5).max(0.0);
            if gap <= want + EPS {
                return Intent::still(Source::Order(Goal::Open));
            }
            let short = u.at.distance(t.at) - (gap - want);
            let m = cx.toward(u, t.at, short.max(0.0), allowance, Kind::Forward, false);
            Intent { mover: m, source: Source::Order(Goal::Open), reform: None }
        }
    }
}
