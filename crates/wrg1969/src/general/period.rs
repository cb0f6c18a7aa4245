//! The scripted general's plan for one period: new orders where they are wanted, the reserve
//! committed, archers and reserve moved behind the line, ways round friends, break-offs,
//! stances, optional tests, signals and the General's ride (see [`super`]).

use super::{Picture, Role, fights, is_reserve, mismatch};
use crate::orders::{Objective, Order, Verb};
use crate::plan::{Dictation, GeneralMove, Plan, Step, UnitMove, UnitStance};
use crate::reaction::Stance;
use crate::rules_impl::{Command, Wrg1969};
use crate::state::State;
use tabletop::geometry::{Facing, Point, Sector, Vec2};
use tabletop::rules::{Actor, RuleSet, Side, Viewer};

/// How near an enemy may come to the reserve before it is committed, inches.
const RESERVE_ALARM: f64 = 14.0;
/// How far behind the line the reserve and the General keep, inches.
const BEHIND: f64 = 7.0;
/// The least room the General keeps between himself and an enemy's charge, inches.
const GENERAL_MARGIN: f64 = 3.0;

struct Cx<'a> {
    rules: &'a Wrg1969,
    st: &'a State,
    side: Side,
    p: Picture<'a>,
    fights: Vec<(u16, u16)>,
}

impl Cx<'_> {
    fn ok(&self, plan: Plan) -> bool {
        self.rules.check(self.st, Actor::Side(self.side), &Command::Plan(plan)).is_ok()
    }

    fn move_ok(&self, unit: u16, step: Step) -> bool {
        self.ok(Plan { moves: vec![UnitMove { unit, step }], ..Plan::default() })
    }

    fn in_fight(&self, id: u16) -> bool {
        self.fights.iter().any(|&(a, b)| a == id || b == id)
    }

    fn foes_of(&self, id: u16) -> impl Iterator<Item = u16> + '_ {
        self.fights.iter().filter_map(move |&(a, b)| {
            if a == id {
                Some(b)
            } else if b == id {
                Some(a)
            } else {
                None
            }
        })
    }

    fn gone(&self, id: u16) -> bool {
        self.p.units.get(id as usize).is_none_or(|e| e.figures == 0 || e.routing || e.away)
    }

    /// Whether the unit carries out a reaction result, pursues or routs: it cannot be directed.
    fn busy(&self, id: u16) -> bool {
        let u = self.p.unit(id);
        u.routing
            || u.pursuing
            || self.st.units.get(id as usize).is_some_and(|s| s.running.is_some())
    }

    /// Whether a friend will stand where it is this period: fighting, holding, or waiting.
    fn stands(&self, id: u16) -> bool {
        let u = self.p.unit(id);
        self.in_fight(id)
            || self.st.units.get(id as usize).is_some_and(|s| s.running.is_some())
            || matches!(u.order.as_ref().map(|o| &o.verb), None | Some(Verb::Hold { .. }))
    }

    fn target_of(&self, id: u16) -> Option<u16> {
        match self.p.unit(id).order.as_ref().map(|o| &o.verb) {
            Some(Verb::Attack { unit }) | Some(Verb::Skirmish { unit }) => Some(*unit),
            _ => None,
        }
    }

    /// The best enemy for a unit of the line to attack, with a bonus for enemies already
    /// fighting a friend (`engaged`), most of all in their flank or rear.
    fn best_attack(&self, id: u16, engaged: f64, not: Option<u16>) -> Vec<u16> {
        let p = &self.p;
        let u = p.unit(id);
        let w = p.rects[id as usize].width;
        let mut crowd: Vec<u16> = Vec::new();
        for &o in p.own.iter().filter(|&&o| o != id) {
            if let Some(e) = self.target_of(o) {
                crowd.push(e);
            }
        }
        let mut scored: Vec<(f64, u16)> = p
            .foes
            .iter()
            .copied()
            .filter(|&e| Some(e) != not)
            .map(|e| {
                let f = p.unit(e);
                let mut c = u.at.distance(f.at)
                    + 1.5 * (p.lat(u.at) - p.lat(f.at)).abs()
                    + mismatch(u, f)
                    + 6.0 * crowd.iter().filter(|&&x| x == e).count() as f64;
                if self
                    .fights
                    .iter()
                    .any(|&(a, b)| (a == e || b == e) && p.own.contains(&(a ^ b ^ e)))
                {
                    c -= engaged;
                    if p.rects[e as usize].sector_of(u.at) != Sector::Front {
                        c -= engaged * 0.5;
                    }
                }
                (c, e)
            })
            .collect();
        let by_cost = |a: &(f64, u16), b: &(f64, u16)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        scored.sort_by(by_cost);
        // A friend across the way costs 15" more; only the enemies that could still be among
        // the best three with it are looked at (the cost only grows).
        let mut best: Vec<(f64, u16)> = Vec::with_capacity(4);
        for (c, e) in scored {
            if best.len() == 3 && c > best[2].0 {
                break;
            }
            let f = p.unit(e);
            let barred = p
                .friend_across(u.at, f.at, w, &[id])
                .is_some_and(|x| !self.foes_of(e).any(|y| y == x));
            best.push((if barred { c + 15.0 } else { c }, e));
            best.sort_by(by_cost);
            best.truncate(3);
        }
        best.into_iter().map(|(_, e)| e).collect()
    }

    /// The best enemy for a screen to skirmish against.
    fn best_skirmish(&self, id: u16) -> Vec<u16> {
        let p = &self.p;
        let u = p.unit(id);
        let mut scored: Vec<(f64, u16)> = p
            .foes
            .iter()
            .copied()
            .map(|e| {
                let f = p.unit(e);
                let loose = if f.troop.is_light() { 4.0 } else { 0.0 };
                (u.at.distance(f.at) + (p.lat(u.at) - p.lat(f.at)).abs() + loose, e)
            })
            .collect();
        scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, e)| e).take(3).collect()
    }

    /// The orders a unit may be given now, best first.
    fn new_orders(&self, id: u16, engaged: f64, not: Option<u16>) -> Vec<Order> {
        let bearing = super::write::axis_bearing(&self.p);
        match self.p.role(id) {
            Role::Engine => vec![Order::new(Verb::Hold { at: None })],
            Role::Shooter => {
                vec![Order::new(Verb::Advance { to: Objective::Bearing { degrees: bearing } })]
            }
            Role::Screen => self
                .best_skirmish(id)
                .into_iter()
                .map(|e| Order::new(Verb::Skirmish { unit: e }))
                .collect(),
            Role::Line | Role::Horse => self
                .best_attack(id, engaged, not)
                .into_iter()
                .map(|e| Order::new(Verb::Attack { unit: e }))
                .collect(),
        }
    }

    /// Whether the reserve should go in now.
    fn reserve_called(&self, id: u16) -> bool {
        let p = &self.p;
        let u = p.unit(id);
        let broke = p
            .units
            .iter()
            .any(|f| f.side == self.side && f.routing && !f.away && f.at.distance(u.at) <= 24.0);
        let near = p.foes.iter().any(|&e| p.gap(id, e) <= RESERVE_ALARM);
        let locked = p.own.iter().filter(|&&o| self.in_fight(o)).count() >= 2;
        let late = self.st.period * 2 >= self.st.limit;
        broke || near || locked || late
    }

    /// The point behind the middle of the line (without `skip`), `back` inches behind it.
    fn behind_line(&self, skip: u16, back: f64) -> Option<Point> {
        let p = &self.p;
        let line: Vec<u16> = p
            .own
            .iter()
            .copied()
            .filter(|&o| o != skip && matches!(p.role(o), Role::Line | Role::Horse))
            .filter(|&o| !is_reserve(p.data, p.unit(o)))
            .collect();
        if line.is_empty() {
            return None;
        }
        let n = line.len() as f64;
        let lat = line.iter().map(|&o| p.lat(p.unit(o).at)).sum::<f64>() / n;
        let fwd = line.iter().map(|&o| p.fwd(p.unit(o).at)).sum::<f64>() / n;
        Some(p.origin + p.right * lat + p.axis * (fwd - back))
    }

    /// A directed move toward `to` (ending facing `facing`), as far along as the unit's move
    /// allows: the whole way, or part of it.
    fn move_toward(&self, id: u16, to: Point, facing: Option<f64>) -> Option<UnitMove> {
        let from = self.p.unit(id).at;
        if from.distance(to) < 0.3 {
            return None;
        }
        for share in [1.0, 0.6, 0.3] {
            let at = from.lerp(to, share);
            let step = Step::MoveTo { x: at.x, y: at.y, facing };
            if self.move_ok(id, step.clone()) {
                return Some(UnitMove { unit: id, step });
            }
        }
        None
    }

    /// The friend across a unit's way to its enemy this period and the next, if any.
    fn barred_by(&self, id: u16, target: u16) -> Option<u16> {
        let p = &self.p;
        let u = p.unit(id);
        let (_, charge) = p.speeds(id);
        let t = p.unit(target);
        let gap = p.gap(id, target);
        let reach = gap.min(charge + 2.0);
        let dir = (t.at - u.at).normalized()?;
        let front = p.rects[id as usize].front_centre();
        let end = front + dir * reach;
        p.friend_across(u.at, end, p.rects[id as usize].width, &[id])
    }

    /// A step round a friend that bars the way: forward and aside, as far as the move allows.
    fn round(&self, id: u16, friend: u16, target: u16) -> Option<UnitMove> {
        let p = &self.p;
        let u = p.unit(id);
        let dir = (p.unit(target).at - u.at).normalized()?;
        let side = Facing::from_vector(dir)?.right();
        let half = p.rects[id as usize].width / 2.0 + 0.4;
        let lats = p.rects[friend as usize].corners().map(|c| (c - u.at).dot(side));
        let right = lats.iter().copied().fold(f64::MIN, f64::max) + half;
        let left = lats.iter().copied().fold(f64::MAX, f64::min) - half;
        let mut sides = [right, left];
        sides.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
        let (normal, _) = p.speeds(id);
        for shift in sides {
            let tries = [
                (shift, 0.5 * normal),
                (shift, 0.25 * normal),
                (shift, 0.0),
                (shift * 0.6, 0.1 * normal),
                (shift * 0.4, 0.0),
            ];
            for (lat, fwd) in tries {
                let to: Point = u.at + side * lat + dir * fwd;
                if !self.st.table.contains_point(to) {
                    continue;
                }
                let step = Step::MoveTo { x: to.x, y: to.y, facing: None };
                if self.move_ok(id, step.clone()) {
                    return Some(UnitMove { unit: id, step });
                }
            }
        }
        None
    }
}

fn bearing(v: Vec2) -> f64 {
    Facing::from_vector(v).map_or(0.0, |f| f.bearing_degrees())
}

/// The plan for the coming period.
pub fn plan(rules: &Wrg1969, st: &State, side: Side) -> Plan {
    let view = rules.view(st, Viewer::Side(side));
    let data = rules.data_for(st);
    let cx = Cx {
        rules,
        st,
        side,
        p: Picture::new(&data, side, &view.table.units),
        fights: fights(&data, st),
    };
    let p = &cx.p;
    let general = view.generals.iter().find(|g| g.side == side && !g.fallen);
    let attached = general.and_then(|g| g.attached);
    let mut plan = Plan::default();

    // 1. New orders: to units without a task, to the reserve when it is called, to units a
    // standing friend bars from their enemy.
    let mut wanting: Vec<(u8, f64, u16, Vec<Order>)> = Vec::new();
    let mut barred: Vec<(u16, u16, u16)> = Vec::new();
    for &id in &p.own {
        let u = p.unit(id);
        if u.pursuing || (u.incoming && !u.awaiting_order) {
            continue;
        }
        let verb = u.order.as_ref().map(|o| &o.verb);
        let stale = u.awaiting_order
            || match verb {
                None => true,
                Some(Verb::Attack { unit }) | Some(Verb::Skirmish { unit }) => cx.gone(*unit),
                _ => false,
            };
        let near = p.foes.iter().map(|&e| u.at.distance(p.unit(e).at)).fold(f64::MAX, f64::min);
        if stale {
            let rank = if u.awaiting_order { 0 } else { 2 };
            wanting.push((rank, near, id, cx.new_orders(id, 6.0, None)));
            continue;
        }
        if is_reserve(&data, u) && cx.reserve_called(id) {
            wanting.push((1, near, id, cx.new_orders(id, 12.0, None)));
            continue;
        }
        if let Some(Verb::Attack { unit }) = verb
            && !cx.in_fight(id)
            && !cx.busy(id)
            && let Some(f) = cx.barred_by(id, *unit)
        {
            barred.push((id, f, *unit));
        }
    }
    // Barred units step round the friend; failing that, a unit barred by a friend that stands
    // is sent against an enemy it can reach, and one barred by a friend on the move lets it
    // pass if the friend is barred by it in turn.
    for &(id, f, target) in &barred {
        if let Some(m) = cx.round(id, f, target) {
            plan.moves.push(m);
        } else if cx.stands(f) {
            let others: Vec<Order> = cx
                .new_orders(id, 6.0, Some(target))
                .into_iter()
                .filter(|o| {
                    matches!(o.verb, Verb::Attack { unit } if p.friend_across(
                        p.unit(id).at, p.unit(unit).at, p.rects[id as usize].width, &[id]).is_none())
                })
                .collect();
            if !others.is_empty() {
                wanting.push((3, 0.0, id, others));
            }
        } else if barred.iter().any(|&(o, g, _)| o == f && g == id) && id > f {
            plan.moves.push(UnitMove { unit: id, step: Step::Halt });
        }
    }
    wanting.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));

    // A signal only where it helps: it reaches units without a task and no unit busy with an
    // order of its own, and sends them to a feature not yet held (WRG-CHORD-07, -08).
    let stale: Vec<u16> = wanting.iter().filter(|w| w.0 != 1 && w.0 != 3).map(|w| w.2).collect();
    if let Some((k, stirred)) = signal_to_give(&cx, &stale) {
        let trial = Plan { signal: Some(k), ..Plan::default() };
        if cx.ok(trial) {
            plan.signal = Some(k);
            wanting.retain(|w| !stirred.contains(&w.2));
        }
    }
    for (_, _, unit, orders) in wanting {
        for order in orders {
            if p.unit(unit).order.as_ref() == Some(&order) && !p.unit(unit).awaiting_order {
                break;
            }
            let mut trial = Plan { dictate: plan.dictate.clone(), ..Plan::default() };
            trial.dictate.push(Dictation { unit, order: order.clone() });
            if cx.ok(trial) {
                plan.dictate.push(Dictation { unit, order });
                break;
            }
        }
    }

    // 2. Directed moves within the orders: archers behind the friend they support, the
    // reserve behind the middle of the line.
    let bearing_axis = bearing(p.axis);
    let dictated: Vec<u16> = plan.dictate.iter().map(|d| d.unit).collect();
    let mut moves: Vec<UnitMove> = Vec::new();
    for &id in &p.own {
        if plan.moves.iter().any(|m| m.unit == id) || cx.in_fight(id) || cx.busy(id) {
            continue;
        }
        let u = p.unit(id);
        let on_bearing = matches!(
            u.order.as_ref().map(|o| &o.verb),
            Some(Verb::Advance { to: Objective::Bearing { .. } })
        );
        if !on_bearing || dictated.contains(&id) {
            continue;
        }
        let to = match p.role(id) {
            Role::Shooter => shooter_station(&cx, id),
            _ => cx.behind_line(id, BEHIND),
        };
        let step = match to {
            Some(to) => cx.move_toward(id, to, Some(bearing_axis)),
            None => None,
        };
        moves.push(step.unwrap_or(UnitMove { unit: id, step: Step::Halt }));
    }
    plan.moves.extend(moves);

    // 3. Break-offs (WRG-BRK-01 .. -03): from a fight it cannot win, or one in which no figure
    // strikes, when the run outdistances the enemy's charge.
    for &id in &p.own {
        if !cx.in_fight(id) {
            continue;
        }
        if breaks_off(&cx, id) {
            let trial = Plan { break_off: vec![id], ..Plan::default() };
            if cx.ok(trial) {
                plan.break_off.push(id);
            }
        }
    }

    // 4. Stances (WRG-R-17): rouse the units about to charge.
    for &id in &p.own {
        if cx.in_fight(id) || cx.busy(id) {
            continue;
        }
        if let Some(Verb::Attack { unit }) = p.unit(id).order.as_ref().map(|o| &o.verb)
            && !cx.gone(*unit)
            && p.gap(id, *unit) <= p.speeds(id).1 * 2.0
        {
            plan.stances.push(UnitStance { unit: id, stance: Stance::Rouse });
        }
    }

    // 5. Optional tests for units with no order and none on its way (WRG-RT-01), the table
    // read once for them all.
    let mut lines: Option<crate::situation::Sightlines> = None;
    for &id in &p.own {
        let u = p.unit(id);
        if dictated.contains(&id) || u.order.is_some() || u.incoming || u.pursuing {
            continue;
        }
        let sl = lines.get_or_insert_with(|| crate::situation::Sightlines::new(&data, st));
        if crate::test_phase::optional_promising_in(&data, sl, id) {
            let trial = Plan { test: vec![id], ..Plan::default() };
            if cx.ok(trial) {
                plan.test.push(id);
            }
        }
    }

    // 6. The General's ride.
    if let Some(g) = general {
        let committed: Vec<u16> = plan.dictate.iter().map(|d| d.unit).collect();
        if let Some(ride) = general_ride(&cx, g.at, attached, &committed) {
            // Bad going may cut his ride short: a shorter one (joining only what he reaches).
            for share in [1.0, 0.5, 0.25] {
                let to = g.at.lerp(Point::new(ride.x, ride.y), share);
                let join = ride.join.filter(|_| share == 1.0);
                let ride = GeneralMove { x: to.x, y: to.y, join };
                if cx.ok(Plan { general: Some(ride.clone()), ..Plan::default() }) {
                    plan.general = Some(ride);
                    break;
                }
            }
        }
    }
    plan
}

/// Where a close-order archer unit stands: a little behind the friend of the line nearest its
/// lane, or where it is if no friend is ahead of it.
fn shooter_station(cx: &Cx, id: u16) -> Option<Point> {
    let p = &cx.p;
    let u = p.unit(id);
    let friend = p
        .own
        .iter()
        .copied()
        .filter(|&o| o != id && matches!(p.role(o), Role::Line))
        .filter(|&o| p.fwd(p.unit(o).at) >= p.fwd(u.at) - 1.0)
        .min_by(|a, b| {
            let key = |o: u16| {
                let at = p.unit(o).at;
                (p.lat(at) - p.lat(u.at)).abs() + 0.3 * (p.fwd(at) - p.fwd(u.at)).abs()
            };
            key(*a).total_cmp(&key(*b)).then(a.cmp(b))
        })?;
    let f = p.unit(friend);
    let back = p.rects[friend as usize].depth / 2.0 + p.rects[id as usize].depth / 2.0 + 1.0;
    let to = f.at - p.axis * back;
    // Never nearer the enemy than the friend's own rear.
    let foe_near = p.foes.iter().any(|&e| p.rects[e as usize].distance_to_point(to) < 3.0);
    (!foe_near).then_some(to)
}

/// Whether a unit in hand-to-hand should break off now.
fn breaks_off(cx: &Cx, id: u16) -> bool {
    let p = &cx.p;
    let data = p.data;
    let st = cx.st;
    let u = &st.units[id as usize];
    // Cavalry thrown back rally back out of the fight by themselves (WRG-AFTER-02).
    if u.falling_back.is_some() {
        return false;
    }
    let (_, charge) = p.speeds(id);
    let run = charge - data.movement.distances.rout_slowdown;
    let mut null = true;
    let mut theirs = 0;
    for e in cx.foes_of(id) {
        let Some(f) = st.units.get(e as usize) else { continue };
        let (_, reach) = p.speeds(e);
        if run <= reach + 1.0 {
            return false;
        }
        let mine = crate::melee_phase::front_contact(data, u, f);
        let their = crate::melee_phase::front_contact(data, f, u);
        if mine + their > 0 {
            null = false;
        }
        theirs += f.block.figures;
    }
    let losing = u.block.figures * 2 < theirs
        || (u.block.figures * 2 < u.start_figures && theirs > u.block.figures);
    null || losing
}

/// The pre-arranged signal to give, if any, and the units it reaches: one that sends units to
/// a feature his side does not hold, or against an enemy, given only when it reaches at least
/// two units without a task (`stale`) and no unit busy with an order of its own, which it
/// would override (WRG-CHORD-07, -08).
fn signal_to_give(cx: &Cx, stale: &[u16]) -> Option<(u8, Vec<u16>)> {
    let data = cx.p.data;
    let st = cx.st;
    let side = cx.side;
    let g = crate::state::general(st, side).filter(|g| !g.risk.fallen(data))?;
    let held = |id: &str| {
        st.table
            .areas
            .iter()
            .find(|a| a.name == id)
            .is_some_and(|a| cx.p.own.iter().any(|&o| a.polygon.contains(cx.p.unit(o).at)))
    };
    let k = st.signals.get(side.index())?.iter().position(|(o, _)| match &o.verb {
        Verb::Attack { unit } => !cx.gone(*unit),
        Verb::Advance { to: Objective::Feature { id } } => !held(id),
        _ => false,
    })?;
    let range = data.movement.distances.signal_range;
    let (mut stirred, mut busy) = (Vec::new(), 0);
    for &id in &cx.p.own {
        let u = cx.p.unit(id);
        if u.at.distance(g.at) > range {
            continue;
        }
        if stale.contains(&id) {
            stirred.push(id);
        } else {
            busy += 1;
        }
    }
    (stirred.len() >= 2 && busy == 0).then_some((k as u8, stirred))
}

/// The General's ride: to rally the nearest of his routers within his ride; else with the
/// reserve (joining it); else behind the middle of the fighting or of the line, out of reach
/// of every enemy's charge.
fn general_ride(
    cx: &Cx,
    at: Point,
    attached: Option<u16>,
    committed: &[u16],
) -> Option<GeneralMove> {
    let p = &cx.p;
    let st = cx.st;
    let g = crate::state::general(st, cx.side)?;
    let reach = crate::riders::general_speeds(p.data, g).0;
    // Routers to rally (WRG-ROUT-03).
    let router = p
        .units
        .iter()
        .filter(|u| u.side == cx.side && u.routing && !u.away && u.figures > 0)
        .filter(|u| u.at.distance(at) <= reach)
        .min_by(|a, b| a.at.distance(at).total_cmp(&b.at.distance(at)).then(a.id.cmp(&b.id)));
    if let Some(r) = router {
        return Some(GeneralMove { x: r.at.x, y: r.at.y, join: None });
    }
    // Danger: within an enemy's charge (and a margin) of its footprint.
    let danger = |q: Point| {
        p.foes.iter().any(|&e| {
            let (_, charge) = p.speeds(e);
            p.rects[e as usize].distance_to_point(q) <= charge + GENERAL_MARGIN
        })
    };
    // With the reserve, while it waits.
    let reserve =
        p.own.iter().copied().find(|&o| is_reserve(p.data, p.unit(o)) && !committed.contains(&o));
    if let Some(r) = reserve
        && !danger(p.unit(r).at)
    {
        if attached == Some(r) {
            return None;
        }
        let to = p.unit(r).at;
        if at.distance(to) <= reach {
            return Some(GeneralMove { x: to.x, y: to.y, join: Some(r) });
        }
        let step = at.lerp(to, reach / at.distance(to));
        return Some(GeneralMove { x: step.x, y: step.y, join: None });
    }
    // Behind the middle of the fighting, or of the line.
    let fighting: Vec<Point> =
        p.own.iter().copied().filter(|&o| cx.in_fight(o)).map(|o| p.unit(o).at).collect();
    let mid = if fighting.is_empty() {
        cx.behind_line(u16::MAX, 0.0)?
    } else {
        let n = fighting.len() as f64;
        fighting.iter().fold(Point::new(0.0, 0.0), |s, q| s + *q * (1.0 / n))
    };
    let mut station = mid - p.axis * BEHIND;
    let mut k = 0;
    while danger(station) && k < 12 {
        station -= p.axis * 2.0;
        k += 1;
    }
    let margin = 0.5;
    station = Point::new(
        station.x.clamp(margin, st.table.width - margin),
        station.y.clamp(margin, st.table.height - margin),
    );
    let gap = at.distance(station);
    if gap < 0.5 && attached.is_none() {
        return None;
    }
    let to = if gap > reach { at.lerp(station, reach / gap) } else { station };
    Some(GeneralMove { x: to.x, y: to.y, join: None })
}
