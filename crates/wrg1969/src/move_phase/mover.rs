//! A unit on the move this period: its way, how far it may go along it, how fast, and what
//! it may and may not run into; with the measures every part of the movement shares.

use super::track::{Pose, Track};
use crate::Data;
use crate::ground::reach_on_table;
use crate::model::TroopType;
use crate::state::{State, Unit};
use tabletop::geometry::{Facing, Point, Rect};
use tabletop::terrain::Stop;

/// The time steps of a period (WRG-R-08).
pub const STEPS: u32 = 20;

/// Slack for measuring.
pub const EPS: f64 = 1e-9;

/// What kind of move it is, for what it may run into and how it counts (WRG-R-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Broken and running (WRG-ROUT-01).
    Rout,
    /// Following routers (WRG-PURS-01).
    Pursue {
        /// The routers.
        target: u16,
    },
    /// A charge declared at a unit (WRG-MOVE-04).
    Charge {
        /// The unit charged.
        target: u16,
        /// Ordered into hand-to-hand (an attack order): it tests before contact (WRG-RT-04).
        ordered: bool,
    },
    /// Cavalry countercharging a charger (WRG-ORD-08, WRG-M-07).
    Counter {
        /// The charger.
        target: u16,
    },
    /// Evading a charge (WRG-MOVE-09).
    Evade,
    /// A move forward or to a place, stopping 1" short of the enemy (WRG-R-08).
    Forward,
    /// A move back: retreat, retire, fall back, step back (WRG-R-21).
    Back,
}

impl Kind {
    /// Whether the move may end in contact with an enemy.
    pub fn contacts(self) -> bool {
        matches!(self, Kind::Charge { .. } | Kind::Counter { .. } | Kind::Pursue { .. })
    }
}

/// A unit moving this period.
#[derive(Clone, Debug)]
pub struct Mover {
    /// The unit.
    pub id: u16,
    /// What kind of move.
    pub kind: Kind,
    /// Its way.
    pub track: Track,
    /// How much of the way (in inches of allowance) it may cover this period.
    pub limit: f64,
    /// Inches of allowance a time step.
    pub rate: f64,
    /// It moves in the steps after this one.
    pub from_step: u32,
    /// Allowance spent so far.
    pub param: f64,
    /// It has stopped for the period.
    pub stopped: bool,
    /// Its standard may leave the table (WRG-LEAVE).
    pub leaves: bool,
    /// Friends it may pass through (evaders, WRG-MOVE-12) or has burst through (routers).
    pub passes_friends: bool,
    /// Friends passed through.
    pub passed: Vec<u16>,
    /// Where, along the way, the charger has used its normal move (WRG-RT-12).
    pub normal_point: Option<f64>,
    /// Terrain or an obstacle cut its move (WRG-DIS-07).
    pub slowed: bool,
    /// It stops at an obstacle (pursuers, WRG-PURS-03).
    pub obstacle_at: Option<f64>,
    /// Frontage and depth.
    pub size: (f64, f64),
    /// The units it may meet this period (worked out before the steps).
    pub near: Vec<u16>,
    /// Allowance lost waiting behind friends that were in the way (WRG-R-08).
    pub lag: f64,
    /// What last stopped it or held it up, for the log.
    pub held: Option<Held>,
    /// Inches of allowance it had this period, after any obstacle cut (what `limit` was
    /// worked out from).
    pub budget: f64,
    /// The allowance asked for, before any obstacle cut.
    pub asked: f64,
    /// Crossing a linear obstacle cut its allowance (WRG-TERR-01).
    pub cut: bool,
    /// How its allowance was made, for the log.
    pub allow: Allow,
    /// The share of the period its allowance covers (1 unless it started part-way).
    pub share: f64,
    /// Allowance lost going round something (a router's swerve, WRG-ROUT-04, -05).
    pub lost: f64,
    /// A wheeled vehicle man-handled over a wall or hedge this period (WRG-TERR-02).
    pub manhandled: bool,
    /// A step straight back without turning (WRG-MOVE-03).
    pub step_back: bool,
    /// It has gone round a friend in its way this period (WRG-R-08).
    pub rerouted: bool,
    /// It found no way round the friend in its way this period.
    pub no_way_round: bool,
    /// The enemy it answers (the charger an evader runs from).
    pub answers: Option<u16>,
    /// A move its side directed in its plan: it goes exactly as directed.
    pub directed: bool,
    /// Friends it has begun to pass through in an ordinary move, and where along its way it
    /// met them: it may not end the period inside them (WRG-R-08).
    pub threaded: Vec<(u16, f64)>,
    /// How far its standard moved lining up on the face it struck (WRG-MELEE-01).
    pub lined_up: f64,
    /// Undone: the unit was put back to before this move, which the log does not tell.
    pub undone: bool,
    /// Inches of allowance an inch of wheeling costs: the going it wheels on (WRG-TERR-04).
    pub turn_rate: f64,
    /// Where the friend that held it up and the unit itself stood then (positions and
    /// facings): while both stand so, trying again would only meet the friend again.
    pub held_at: Option<[(Point, Facing); 2]>,
}

/// How a mover's allowance was made (the parts the log shows, WRG-MOVE-02, -04, -07, -09,
/// WRG-ROUT-02, WRG-PURS-01, WRG-R-22).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Allow {
    /// The normal move at the order's pace (WRG-MOVE-02, WRG-ORD-02).
    Normal {
        /// The pace, 1 for full speed.
        pace: f64,
        /// A square moves at half speed (WRG-M-08).
        square: bool,
    },
    /// The normal move, carrying out a reaction result (its rule).
    Result {
        /// The result's rule.
        rule: &'static str,
    },
    /// The charge move: the normal move and the charge bonus (WRG-MOVE-04, -07).
    Charge,
    /// The charge move of a countercharge (WRG-ORD-08).
    Counter,
    /// The evade (WRG-MOVE-09).
    Evade,
    /// Routers in their k-th period: charge − 2k (WRG-ROUT-02).
    Rout {
        /// k.
        k: u32,
    },
    /// Pursuers in their k-th period: charge − 3k (WRG-PURS-01).
    Pursuit {
        /// k.
        k: u32,
    },
    /// A distance the rules fix (a fall-back after combat, WRG-AFTER-02, -04).
    Fixed {
        /// The rule.
        rule: &'static str,
        /// What it is.
        what: &'static str,
        /// Inches.
        inches: f64,
    },
}

impl Allow {
    /// The usual allowance of a kind of move.
    pub fn of(kind: Kind) -> Allow {
        match kind {
            Kind::Rout => Allow::Rout { k: 1 },
            Kind::Pursue { .. } => Allow::Pursuit { k: 1 },
            Kind::Charge { .. } => Allow::Charge,
            Kind::Counter { .. } => Allow::Counter,
            Kind::Evade => Allow::Evade,
            Kind::Forward | Kind::Back => Allow::Normal { pace: 1.0, square: false },
        }
    }
}

/// What stopped a move or held it up (WRG-MOVE-01, WRG-R-08).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// A friend in the way that it may not pass: only light infantry, evaders and routers pass
    /// through friends (and friends through light infantry).
    Friend(u16),
    /// An enemy 1" away: only a charge, countercharge or pursuit comes nearer.
    Short(u16),
    /// The table's edge.
    Edge,
    /// Pursuers touching the routers they follow: they keep to the routers' heels, going on
    /// as the routers run (WRG-PURS-01).
    Heels(u16),
}

impl Mover {
    /// A mover with its way and reach.
    pub fn new(u: &Unit, data: &Data, kind: Kind, track: Track, reach: Reach) -> Mover {
        Mover {
            id: u.id,
            kind,
            track,
            limit: reach.limit,
            rate: reach.rate,
            from_step: 0,
            param: 0.0,
            stopped: false,
            leaves: false,
            passes_friends: false,
            passed: Vec::new(),
            normal_point: None,
            slowed: reach.slowed,
            obstacle_at: None,
            size: u.block.size(data, u.troop),
            near: Vec::new(),
            lag: 0.0,
            held: None,
            held_at: None,
            budget: reach.budget,
            asked: reach.asked,
            cut: reach.cut,
            allow: Allow::of(kind),
            share: 1.0,
            lost: 0.0,
            manhandled: reach.manhandled,
            step_back: false,
            rerouted: false,
            no_way_round: false,
            answers: None,
            directed: false,
            threaded: Vec::new(),
            lined_up: 0.0,
            undone: false,
            turn_rate: reach.turn_rate.max(1.0),
        }
    }

    /// Where it stands after spending `p`.
    pub fn pose(&self, p: f64) -> Pose {
        self.track.pose(p)
    }

    /// Its footprint at a pose.
    pub fn rect(&self, p: Pose) -> Rect {
        Rect::new(p.at, p.facing, self.size.0, self.size.1)
    }
}

/// How far a unit gets along a way this period, and how fast.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reach {
    /// Allowance it may spend along the way.
    pub limit: f64,
    /// Allowance a time step.
    pub rate: f64,
    /// Terrain or an obstacle cut it.
    pub slowed: bool,
    /// Where impassable ground stops the legs, measured along them, if it does.
    pub blocked_at: Option<f64>,
    /// The allowance it was worked out from, after any obstacle cut.
    pub budget: f64,
    /// The allowance asked for, before any obstacle cut.
    pub asked: f64,
    /// Crossing a linear obstacle cut the allowance (WRG-TERR-01).
    pub cut: bool,
    /// A wheeled vehicle is man-handled over a wall or hedge (WRG-TERR-02).
    pub manhandled: bool,
    /// Inches of allowance an inch of wheeling costs: the going it wheels on (WRG-TERR-04).
    pub turn_rate: f64,
}

/// Scratch space for working out ways, kept between units.
#[derive(Debug, Default)]
pub struct Pad {
    /// The legs of a way.
    pub legs: Vec<Point>,
    /// The terrain walker's scratch.
    pub split: tabletop::terrain::Scratch,
}

/// How far `allowance` carries a unit of `troop` along `track` over the table: turns are paid
/// first, then the legs at their going with the obstacle rule, then any turn at the end
/// (WRG-MOVE-02, -14, WRG-TERR-01, -04, -07, WRG-R-31).
pub fn reach(
    data: &Data,
    state: &State,
    troop: TroopType,
    track: &Track,
    allowance: f64,
    pad: &mut Pad,
) -> Reach {
    let legs = &mut pad.legs;
    let allowance = if allowance.is_finite() { allowance.max(0.0) } else { 0.0 };
    let rate = allowance / STEPS as f64;
    // Wheels pay the going the unit stands on (WRG-MOVE-14, WRG-TERR-04).
    let per_turn = if track
        .segs
        .iter()
        .any(|s| matches!(s, super::track::Seg::Turn { cost, .. } if *cost > 0.0))
    {
        crate::ground::going_multiplier(
            data,
            &state.table,
            troop,
            track.start.at,
            track.start.facing,
        )
    } else {
        1.0
    };
    let whole = |limit: f64| Reach {
        limit,
        rate,
        slowed: per_turn > 1.0,
        blocked_at: None,
        budget: allowance,
        asked: allowance,
        cut: false,
        manhandled: false,
        turn_rate: per_turn,
    };
    let turns = track.turn_cost_before_legs();
    let turns_paid = turns * per_turn;
    if turns_paid >= allowance {
        return whole(allowance / per_turn);
    }
    track.leg_points(legs);
    let left = allowance - turns_paid;
    if legs.len() < 2 {
        let all = track.cost();
        return whole(all.min(allowance / per_turn));
    }
    let legs_len: f64 = legs.windows(2).map(|w| w[0].distance(w[1])).sum();
    let (adv, cut) = if crate::ground::has_obstacles(&state.table) {
        reach_on_table(data, &state.table, troop, legs, allowance, turns_paid)
    } else {
        let model = crate::ground::WrgGround { data, troop };
        (tabletop::terrain::advance_with(&state.table, legs, &model, left, &mut pad.split), false)
    };
    // The obstacle rule cuts the whole period's allowance (WRG-TERR-01, WRG-R-31).
    let budget =
        if cut { crate::moves::obstacle_allowance(data, troop, allowance) } else { allowance };
    let mut limit = turns + adv.distance;
    let mut blocked_at = None;
    let mut slowed = cut || (per_turn > 1.0 && turns > 0.0);
    match adv.stop {
        Stop::End => {
            let spent = adv.cost;
            let tail = track.cost() - turns - legs_len;
            limit += tail.max(0.0).min(((budget - turns_paid - spent) / per_turn).max(0.0));
            slowed |= adv.cost > adv.distance + 1e-6;
        }
        Stop::Budget => {
            slowed |= adv.distance + 1e-6 < (budget - turns_paid).max(0.0).min(legs_len)
        }
        Stop::Blocked(b) => blocked_at = Some(b.distance),
    }
    let rate = if matches!(adv.stop, Stop::Budget) { limit / STEPS as f64 } else { rate };
    Reach {
        limit,
        rate,
        slowed,
        blocked_at,
        budget,
        asked: allowance,
        cut,
        manhandled: false,
        turn_rate: per_turn,
    }
}

/// A unit's footprint where it stands.
pub fn footprint(data: &Data, u: &Unit) -> Rect {
    u.block.footprint(data, u.troop, u.at, u.facing)
}

/// Whether the unit is broken and running.
pub fn routing(u: &Unit) -> bool {
    u.rout.is_some() || u.motion == crate::state::Motion::Routing
}

/// The nearest enemy on the table that is not running away: nearest standard, then lowest id
/// (WRG-M-19).
pub fn nearest_enemy<'a>(state: &'a State, u: &Unit) -> Option<&'a Unit> {
    state
        .units
        .iter()
        .filter(|e| e.side != u.side && e.on_table() && !routing(e))
        .min_by(|a, b| a.at.distance(u.at).total_cmp(&b.at.distance(u.at)).then(a.id.cmp(&b.id)))
}

/// A lower bound on the distance between two footprints: the widest gap between their shadows
/// on the four axes of their sides (0 when they overlap).
pub fn gap_at_least(a: &Rect, b: &Rect) -> f64 {
    let d = b.centre - a.centre;
    let (ar, af, br, bf) =
        (a.facing.right(), a.facing.vector(), b.facing.right(), b.facing.vector());
    let (aw, ad, bw, bd) = (a.width / 2.0, a.depth / 2.0, b.width / 2.0, b.depth / 2.0);
    let (rr, rf, fr, ff) = (ar.dot(br).abs(), ar.dot(bf).abs(), af.dot(br).abs(), af.dot(bf).abs());
    let gaps = [
        d.dot(ar).abs() - (aw + bw * rr + bd * rf),
        d.dot(af).abs() - (ad + bw * fr + bd * ff),
        d.dot(br).abs() - (bw + aw * rr + ad * fr),
        d.dot(bf).abs() - (bd + aw * rf + ad * ff),
    ];
    gaps.into_iter().fold(0.0, f64::max)
}

/// Whether two units stand in base-to-base contact (as hand-to-hand reads it).
fn touching(data: &Data, a: &Unit, b: &Unit) -> bool {
    let (ra, rb) = (footprint(data, a), footprint(data, b));
    let reach = 0.5
        * ((ra.width * ra.width + ra.depth * ra.depth).sqrt()
            + (rb.width * rb.width + rb.depth * rb.depth).sqrt())
        + crate::melee_phase::CONTACT;
    (a.at - b.at).length_squared() <= reach * reach
        && gap_at_least(&ra, &rb) <= crate::melee_phase::CONTACT
        && ra.touches(&rb, crate::melee_phase::CONTACT)
        && crate::melee_phase::engaged(data, a, b)
}

/// Whether a unit stands in hand-to-hand with an enemy (neither running).
pub fn in_fight(data: &Data, state: &State, u: &Unit) -> bool {
    u.on_table()
        && !routing(u)
        && state
            .units
            .iter()
            .any(|e| e.side != u.side && e.on_table() && !routing(e) && touching(data, u, e))
}

/// For every unit, whether it stands in hand-to-hand with an enemy (neither running).
pub fn fighting(data: &Data, state: &State) -> Vec<bool> {
    let mut out = vec![false; state.units.len()];
    let live = |u: &Unit| u.on_table() && !routing(u);
    for (a, b) in crate::melee_phase::near_pairs(data, state, live) {
        let (a, b) = (a as usize, b as usize);
        if touching(data, &state.units[a], &state.units[b]) {
            out[a] = true;
            out[b] = true;
        }
    }
    out
}

/// The centre of an area, by its outline (for orders naming a feature).
pub fn area_centre(state: &State, i: usize) -> Option<Point> {
    let poly = &state.table.areas.get(i)?.polygon;
    let pts = &poly.points;
    let n = pts.len();
    if n == 0 {
        return None;
    }
    let (mut a, mut cx, mut cy) = (0.0, 0.0, 0.0);
    for k in 0..n {
        let (p, q) = (pts[k], pts[(k + 1) % n]);
        let c = p.x * q.y - q.x * p.y;
        a += c;
        cx += (p.x + q.x) * c;
        cy += (p.y + q.y) * c;
    }
    if a.abs() < 1e-12 {
        let s = pts.iter().fold(Point::ZERO, |s, p| s + *p);
        return Some(s * (1.0 / n as f64));
    }
    let c = Point::new(cx / (3.0 * a), cy / (3.0 * a));
    c.is_finite().then_some(c)
}
