//! After the last time step: how each unit moved (WRG-R-13), routers that passed fresh troops
//! or met their General rally (WRG-ROUT-03, -08), pursuers that reached an obstacle give up
//! and fall back (WRG-PURS-03, -04), reaction results count down (WRG-RRES-10), orders are
//! completed or their routes struck off (WRG-CHORD-12, WRG-ORD-04), and terrain disorders
//! (WRG-DIS-07).

use super::intent::{Goal, Source};
use super::mover::{EPS, Held, Kind, routing};
use super::run::{Run, add_cause};
use crate::combat::Cause;
use crate::orders::{Closed, Standing, Verb};
use crate::report::Note;
use crate::state::Motion;
use tabletop::geometry::{Facing, Point};

/// What each unit was at the start of the move.
pub struct Start {
    /// Where it stood.
    pub at: Point,
    /// Why it moved as it did.
    pub source: Option<Source>,
    /// Its first move this period.
    pub mover: Option<usize>,
    /// Its reaction result at the start.
    pub running: Option<crate::reaction::Running>,
    /// Fresh: not running, fighting or disordered.
    pub fresh: bool,
}

/// Books the move.
pub fn finish(run: &mut Run, start: &[Start]) {
    let n = run.state.units.len();
    for id in 0..n {
        let Some(st) = start.get(id) else { continue };
        if !run.state.units[id].on_table() || st.source.is_none() {
            continue;
        }
        let moved = run.moved[id];
        run.state.units[id].moved = moved;
        if let Some(k) = run.slot[id] {
            let kind = run.movers[k].kind;
            let slowed =
                run.movers.iter().any(|m| m.id as usize == id && m.slowed && m.param > EPS);
            let u = &mut run.state.units[id];
            u.motion = if routing(u) {
                Motion::Routing
            } else {
                match kind {
                    Kind::Charge { .. } | Kind::Counter { .. } => Motion::Charged,
                    _ if moved < 1.0 => {
                        if u.motion == Motion::Charged {
                            Motion::Charged
                        } else {
                            Motion::Still
                        }
                    }
                    Kind::Back | Kind::Evade => Motion::Retired,
                    Kind::Rout => Motion::Routing,
                    Kind::Forward | Kind::Pursue { .. } => {
                        let net = u.at - st.at;
                        let first = run.movers[st.mover.unwrap_or(k)].track.start.facing;
                        if net.dot(first.vector()) < -EPS {
                            Motion::Retired
                        } else {
                            Motion::Advanced
                        }
                    }
                }
            };
            if slowed {
                add_cause(u, Cause::Terrain);
            }
            held_note(run, id, k, matches!(st.source, Some(Source::Plan)));
        }
        match &st.source {
            Some(Source::Rout { k }) => {
                let u = &mut run.state.units[id];
                if let Some(r) = &mut u.rout {
                    r.periods = (*k).max(r.periods);
                }
                if moved < 0.05 {
                    cannot_run(run, id);
                }
            }
            Some(Source::Pursuit { k, at_obstacle }) => {
                pursuit_booked(run, id, *k, *at_obstacle, st)
            }
            Some(Source::Running) => {
                let u = &mut run.state.units[id];
                if let Some(r) = st.running
                    && moved <= EPS
                {
                    let text = format!("{} {}", u.name, crate::period::effect_words(r.effect));
                    run.out.notes.push(Note::new(r.effect.rule(), text).and("WRG-RRES-10"));
                }
                if u.running == st.running {
                    u.running = u.running.and_then(|r| r.tick());
                }
            }
            Some(Source::Order(goal)) => order_booked(run, id, goal, st),
            Some(Source::FallBack) => run.state.units[id].falling_back = None,
            _ => {}
        }
        // A unit that broke during the move has run its first period.
        let u = &mut run.state.units[id];
        if let Some(r) = &mut u.rout
            && r.periods == 0
            && moved > 0.0
        {
            r.periods = 1;
        }
    }
    rallies(run, start);
}

/// Routers that could not run on this period (their speed spent, or an enemy in the way) while
/// an enemy touches them: half surrender, and the rest break out and run on (WRG-AFTER-07,
/// WRG-R-36).
fn cannot_run(run: &mut Run, id: usize) {
    let data = run.data;
    let u = &run.state.units[id];
    if !u.on_table() || u.block.figures == 0 {
        return;
    }
    let me = super::mover::footprint(data, u);
    let caught = run.state.units.iter().any(|e| {
        e.side != u.side
            && e.on_table()
            && super::mover::footprint(data, e).distance(&me) <= crate::melee_phase::CONTACT
    });
    if !caught {
        return;
    }
    let (prisoners, _) = crate::after::surrender_split(u.block.figures);
    let taker = u.side.other();
    let u = &mut run.state.units[id];
    u.block.lose(prisoners);
    if u.block.figures == 0 {
        u.carried = 0;
    }
    let text = format!(
        "{} can run no farther with the enemy upon them: {prisoners} figures surrender, the \
         rest break out",
        u.name
    );
    run.state.prisoners[taker.index()] += prisoners;
    run.out.notes.push(Note::new("WRG-AFTER-07", text).and("WRG-R-36"));
}

/// Tells the log why a unit stopped short of its way: friends in the way (for every move),
/// an enemy 1" off or the table's edge (for a move its side directed) (WRG-MOVE-01, WRG-R-08,
/// WRG-LEAVE-01).
fn held_note(run: &mut Run, id: usize, k: usize, directed: bool) {
    let m = &run.movers[k];
    if matches!(m.kind, Kind::Rout | Kind::Evade) || m.param >= m.limit - 0.05 {
        return;
    }
    let Some(held) = m.held else { return };
    let planned = m.track.travel(0.0, m.limit);
    let u = &run.state.units[id];
    let name = |o: u16| run.state.units.get(o as usize).map_or("?", |x| &*x.name);
    let at = format!("({:.1}, {:.1})", u.at.x, u.at.y);
    let done = format!("{:.1}\" of their {:.1}\" move", run.moved[id], planned);
    let note = match held {
        Held::Short(e) if directed => Note::new(
            "WRG-R-08",
            format!("{} stop 1\" short of {} at {at} after {done}", u.name, name(e)),
        )
        .and("WRG-MOVE-01"),
        Held::Edge if directed => Note::new(
            "WRG-LEAVE-01",
            format!("{} stop at the table's edge at {at} after {done}", u.name),
        ),
        _ => return,
    };
    run.out.notes.push(note);
}

fn pursuit_booked(run: &mut Run, id: usize, k: u32, at_obstacle: bool, st: &Start) {
    let data = run.data;
    let obstacle = at_obstacle
        || st.mover.is_some_and(|i| {
            let m = &run.movers[i];
            m.obstacle_at.is_some_and(|o| m.param >= o - 1e-6)
        });
    let u = &mut run.state.units[id];
    let Some(p) = &mut u.pursuit else { return };
    p.periods = k;
    p.farthest = p.farthest.max(u.at.distance(p.from));
    if obstacle && let Some(note) = super::pursuit_ends(data, run.state, id as u16, "WRG-PURS-03") {
        run.out.notes.push(note);
    }
}

fn order_booked(run: &mut Run, id: usize, goal: &Goal, st: &Start) {
    let param = st.mover.map_or(0.0, |i| run.movers[i].param);
    let state = &mut *run.state;
    let at = state.units[id].at;
    let table = state.table.clone();
    let u = &mut state.units[id];
    let Standing::Active { order } = &mut u.standing else { return };
    let strike = |order: &mut crate::orders::Order, ends: &[f64]| {
        let passed = ends.iter().take_while(|e| **e <= param + 1e-6).count().min(order.route.len());
        order.route.drain(..passed);
    };
    let done = match goal {
        Goal::Open => false,
        Goal::Done => true,
        Goal::Point { at: p, route_ends } => {
            strike(order, route_ends);
            order.route.is_empty() && at.distance(*p) <= 0.05
        }
        Goal::Feature { area, route_ends } => {
            strike(order, route_ends);
            order.route.is_empty() && table.areas.get(*area).is_some_and(|a| a.polygon.contains(at))
        }
        Goal::Route { route_ends } => {
            strike(order, route_ends);
            false
        }
        Goal::Wheel { degrees, cost } => {
            let share = if *cost > EPS { (param / cost).clamp(0.0, 1.0) } else { 1.0 };
            let left = degrees * (1.0 - share);
            if let Verb::Wheel { degrees: d } = &mut order.verb {
                *d = left;
            }
            left.abs() < 1e-6
        }
    };
    if done {
        u.standing.close(Closed::Completed);
        let text = format!("{} have carried out their order and wait", u.name);
        run.out.notes.push(Note::new("WRG-CHORD-12", text).and("WRG-ORD-13"));
    }
}

/// Routers that passed fresh troops, or were passed by them, or met their General, rally,
/// halt facing the enemy and wait for orders (WRG-ROUT-03, -08, WRG-R-23).
fn rallies(run: &mut Run, start: &[Start]) {
    let data = run.data;
    let n = run.state.units.len();
    for id in 0..n {
        let u = &run.state.units[id];
        if !u.on_table() || !routing(u) || !matches!(start[id].source, Some(Source::Rout { .. })) {
            continue;
        }
        let heading = run.slot[id].map_or(u.facing, |k| run.movers[k].track.start.facing).vector();
        let right = Facing::from_vector(heading).map_or(heading, |f| f.right());
        let (r0, r1) = (start[id].at, u.at);
        let (w, _) = u.block.size(data, u.troop);
        let passed = run.state.units.iter().enumerate().any(|(j, f)| {
            let fresh = start.get(j).is_some_and(|s| s.fresh);
            if j == id || f.side != u.side || !f.on_table() || !fresh || routing(f) {
                return false;
            }
            let (fw, _) = f.block.size(data, f.troop);
            let (f0, f1) = (start[j].at, f.at);
            let (s0, s1) = ((f0 - r0).dot(heading), (f1 - r1).dot(heading));
            let side = (f1 - r1).dot(right).abs();
            s0 > 0.0
                && s1 <= 0.0
                && side <= (w + fw) / 2.0 + data.movement.distances.rout_gap_search
        });
        let general = run.state.generals.iter().any(|g| {
            g.side == u.side
                && !g.risk.fallen(data)
                && (g.attached == Some(id as u16)
                    || u.block.footprint(data, u.troop, u.at, u.facing).distance_to_point(g.at)
                        <= 1.0)
        });
        // Among friends still, they run on (WRG-R-08).
        if !(passed || general) || !super::clear_of_all(data, run.state, id as u16, u.facing) {
            continue;
        }
        let enemy = super::mover::nearest_enemy(run.state, u).map(|e| e.at);
        let face = enemy
            .and_then(|e| Facing::from_vector(e - u.at))
            .filter(|&f| super::clear_of_all(data, run.state, id as u16, f));
        let u = &mut run.state.units[id];
        u.rout = None;
        u.motion = Motion::Still;
        u.running = None;
        if let Some(f) = face {
            u.facing = f;
        }
        let why = if general { "their General meets them" } else { "they pass fresh troops" };
        let text = format!("{} rally: {why}; they wait for orders", u.name);
        run.out.notes.push(Note::new("WRG-ROUT-03", text).and("WRG-ROUT-08"));
    }
}
