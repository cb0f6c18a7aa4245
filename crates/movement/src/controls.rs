//! The browser client's controls for the movement rule set: which units a side may command now,
//! their allowances and menus, the measurement of a dragged move, and the roster sheet.
//!
//! Nothing here prices or judges a move by itself: every menu entry is a [`Command`] that
//! `check` accepts now, and a dragged move is planned by the crate's own [`Planner`] (terrain
//! through tabletop's terrain splitter, direction, facing, wheel and obstacle costs) and judged
//! by `check`.

use crate::Movement;
use crate::engine::{OnEnemy, OnFriend, Options, Plan, Planner};
use crate::layout::{Pose, canonical, outline};
use crate::model::{Armor, Formation, TroopType, Turn};
use crate::state::{Command, State, Step, Unit, UnitId};
use tabletop::controls::{
    Action, Controls, Drag, MeasureRequest, Measurement, RosterRow, UnitControl,
};
use tabletop::geometry::{Facing, Pivot, Point, Vec2, Wheel};
use tabletop::rules::{Actor, Refusal, RuleSet, Side, Viewer};

/// Refusals that a battle command lifts: a move that starts or ends in melee contact, or runs
/// into an enemy (then it is a charge and stops at contact).
const NEEDS_BATTLE_COMMAND: [&str; 3] = ["MOV-GEN-06", "MOV-GEN-07", "MOV-THRU-01"];

/// Angles within this many degrees of a right angle count as a change of facing.
const SNAP_DEGREES: f64 = 0.5;

/// Steps of bisection at most when finding how far an allowance lasts (to 1e-4").
const BISECTIONS: usize = 40;

/// Where a unit's centre is: the middle of its outline, the point the client drags.
fn centre(u: &Unit, pose: &Pose) -> Point {
    outline(pose, u.stands.len(), u.stand_size).centre
}

/// The reference point (front centre, or a circle's centre) of `pose` moved so that the
/// outline's centre stands at `to`.
fn reference_for(u: &Unit, pose: &Pose, to: Point) -> Point {
    to + (pose.at - centre(u, pose))
}

fn inches(x: f64) -> String {
    format!("{x:.2}\"")
}

fn troop_words(t: TroopType) -> String {
    t.name().replace('_', " ")
}

fn turn_words(t: Turn) -> &'static str {
    match t {
        Turn::Right => "Turn to the right",
        Turn::Left => "Turn to the left",
        Turn::About => "About face",
    }
}

fn formation_rules(f: Formation) -> &'static [&'static str] {
    match f {
        Formation::Line | Formation::Column => &["MOV-FORM-01", "MOV-FORM-11", "MOV-FORM-12"],
        Formation::Circle => &["MOV-FORM-01", "MOV-FORM-04", "MOV-FORM-12"],
        Formation::OpenOrder => &["MOV-FORM-01", "MOV-FORM-05", "MOV-FORM-06", "MOV-FORM-12"],
        Formation::Mass => &["MOV-FORM-01", "MOV-FORM-08", "MOV-FORM-12"],
    }
}

/// A candidate move to a dragged pose: its steps, with the centre intended after each.
struct Route {
    steps: Vec<Step>,
    centres: Vec<Point>,
}

/// A route judged: the command `check` accepts (or the one it refuses, and why).
struct Judged {
    route: Route,
    command: Command,
    verdict: Result<(), Refusal>,
    cost: f64,
}

impl Movement {
    /// A unit of `side` by its client ID (its index), if it is on the table.
    fn client_unit<'s>(&self, state: &'s State, side: Side, id: &str) -> Option<&'s Unit> {
        let id: UnitId = id.trim().parse().ok()?;
        state.unit(id).filter(|u| u.side == side && u.on_table)
    }

    /// `command` if `check` accepts it for `side`, else the same move under a battle command
    /// where that is what it lacks; `None` if neither passes.
    fn client_accepted(&self, state: &State, side: Side, command: Command) -> Option<Command> {
        let actor = Actor::Side(side);
        match self.check(state, actor, &command) {
            Ok(()) => Some(command),
            Err(r) if NEEDS_BATTLE_COMMAND.contains(&r.rule.as_str()) => match command {
                Command::Move { unit, forced_march, battle_command: false, steps } => {
                    let c = Command::Move { unit, forced_march, battle_command: true, steps };
                    self.check(state, actor, &c).is_ok().then_some(c)
                }
                _ => None,
            },
            Err(_) => None,
        }
    }

    /// What the client may offer `side` now (see [`RuleSet::controls`]).
    pub(crate) fn client_controls(&self, state: &State, side: Side) -> Controls {
        let mut controls =
            Controls { prompt: self.pending(state).what().to_string(), ..Controls::default() };
        // Only a side the game waits for may act (the server refuses the others).
        if !self.pending(state).sides().contains(&side) {
            return controls;
        }
        if self.check(state, Actor::Side(side), &Command::EndPhase).is_ok() {
            controls.actions.push(Action::send(
                format!("End the {side} movement phase"),
                &["MOV-GEN-01", "MOV-GEN-04"],
                serde_json::to_value(Command::EndPhase).unwrap_or_default(),
            ));
        }
        for u in state.units_of(side) {
            if let Some(c) = self.unit_control(state, side, u) {
                controls.units.push(c);
            }
        }
        controls
    }

    /// The control of one unit, if it may do anything now.
    fn unit_control(&self, state: &State, side: Side, u: &Unit) -> Option<UnitControl> {
        let may_move = self.move_barred(state, Actor::Side(side), u.id).is_none();
        let unlimbered = u.limber.as_ref().is_some_and(|l| !l.limbered);
        let drag = if may_move && !unlimbered && u.regroup_left.is_none() {
            Drag::Free
        } else {
            Drag::None
        };
        let mut actions = Vec::new();
        if may_move {
            self.facing_actions(state, side, u, &mut actions);
            self.wheel_actions(state, side, u, &mut actions);
            self.form_actions(state, side, u, &mut actions);
            self.forced_march_action(state, side, u, &mut actions);
        }
        self.artillery_actions(state, side, u, &mut actions);
        if drag == Drag::None && actions.is_empty() {
            return None;
        }
        let (allowance, allowance_text) = self.allowance_words(u);
        Some(UnitControl {
            unit: u.id.to_string(),
            label: u.name.clone(),
            allowance: Some(allowance),
            allowance_text,
            drag,
            actions,
        })
    }

    /// The unit's allowance for a move now, and what sets it, in words.
    fn allowance_words(&self, u: &Unit) -> (f64, String) {
        if let Some(left) = u.regroup_left {
            return (
                left,
                format!("{} left after regrouping, for forming up only [MOV-REG-10]", inches(left)),
            );
        }
        let (normal, rules) = self.normal_allowance(u, u.pose.formation);
        let mut what = Vec::new();
        if u.rate.is_some() {
            what.push("its own rate".to_string());
        } else if let Some(l) = &u.limber {
            what.push(format!("{:?} piece", l.class).to_lowercase());
            if !l.limbered {
                what.push("unlimbered: changes of facing only".into());
            }
        } else {
            let role = if u.army_leader {
                " army leader"
            } else if u.leader {
                " leader"
            } else if u.character {
                " character"
            } else {
                ""
            };
            what.push(format!("{}{role}", troop_words(u.troop)));
            // The slowest stand's armor sets the pace (MOV-GEN-02, MOV-R-10).
            let slowest = u
                .stands
                .iter()
                .filter_map(|s| {
                    self.data.rates.humanoid.get(&u.troop).map(|row| (row.get(s.armor), s.armor))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0));
            match slowest {
                Some((_, Armor::Unarmored)) => what.push("unarmored".into()),
                Some((_, armor)) => what.push(format!("{armor:?} armor").to_lowercase()),
                None => {}
            }
        }
        if u.pose.formation == Formation::Circle {
            what.push("a third in circle".into());
        }
        let mut text = format!("{} ({} [{}])", inches(normal), what.join(", "), rules.join(", "));
        let movable = u.limber.as_ref().is_none_or(|l| l.limbered);
        if movable && u.pose.formation != Formation::Circle {
            let charge = self.allowance(u, false, true).this_move;
            text.push_str(&format!("; {} for a charge [MOV-GEN-08]", inches(charge)));
            let may_force = !u.forced_march_failed
                && (u.is_personality()
                    || self.data.forced_march.exhaustion_from(u.morale).is_some());
            if may_force {
                let forced = self.allowance(u, true, false).this_move;
                text.push_str(&format!("; {} on a forced march [MOV-FM-02]", inches(forced)));
            }
        }
        (normal, text)
    }

    /// Offers `command` (or its battle-command form) if `check` accepts it, labelled with its
    /// cost when it is a move.
    fn offer(
        &self,
        state: &State,
        side: Side,
        label: String,
        rules: &[&str],
        command: Command,
        out: &mut Vec<Action>,
    ) {
        let Some(c) = self.client_accepted(state, side, command) else { return };
        let mut label = label;
        let mut rules: Vec<&str> = rules.to_vec();
        if let Command::Move { unit, forced_march, battle_command, steps } = &c {
            if let Ok(plan) = self.plan_move(state, *unit, steps, *forced_march, *battle_command) {
                label.push_str(&format!(" ({})", inches(plan.cost)));
            }
            if *battle_command {
                label.push_str(", under a battle command");
                rules.push("MOV-GEN-06");
            }
        }
        if let Ok(json) = serde_json::to_value(&c) {
            out.push(Action::send(label, &rules, json));
        }
    }

    fn one_step(unit: UnitId, step: Step) -> Command {
        Command::Move { unit, forced_march: false, battle_command: false, steps: vec![step] }
    }

    fn facing_actions(&self, state: &State, side: Side, u: &Unit, out: &mut Vec<Action>) {
        for turn in [Turn::Right, Turn::Left, Turn::About] {
            self.offer(
                state,
                side,
                turn_words(turn).to_string(),
                &["MOV-FACE-01", "MOV-FACE-02"],
                Self::one_step(u.id, Step::Face(turn)),
                out,
            );
        }
    }

    fn wheel_actions(&self, state: &State, side: Side, u: &Unit, out: &mut Vec<Action>) {
        for (pivot, way) in [(Pivot::Left, "left"), (Pivot::Right, "right")] {
            for degrees in [45.0, 90.0] {
                self.offer(
                    state,
                    side,
                    format!("Wheel {degrees:.0}° to the {way} on the {way} front corner"),
                    &["MOV-WHEEL-01", "MOV-WHEEL-03", "MOV-WHEEL-04"],
                    Self::one_step(u.id, Step::Wheel { pivot, degrees }),
                    out,
                );
            }
        }
    }

    fn form_actions(&self, state: &State, side: Side, u: &Unit, out: &mut Vec<Action>) {
        let n = u.stands.len() as u32;
        if n == 0 {
            return;
        }
        let mut tried: Vec<(Formation, Option<u32>)> = Vec::new();
        for formation in [
            Formation::Line,
            Formation::Column,
            Formation::Mass,
            Formation::OpenOrder,
            Formation::Circle,
        ] {
            let files: Vec<Option<u32>> = match formation {
                Formation::Line => vec![Some(n), Some(n.div_ceil(2)), Some(n.div_ceil(3))],
                Formation::Column => vec![Some(1), Some(2)],
                Formation::Mass | Formation::OpenOrder | Formation::Circle => vec![None],
            };
            // A lone stand stands the same in line, column and mass: only open order (for
            // skirmishers) and back change anything for it.
            if n == 1
                && formation != Formation::OpenOrder
                && u.pose.formation != Formation::OpenOrder
            {
                continue;
            }
            for f in files {
                let effective = match (formation, f) {
                    (Formation::Circle, _) => None,
                    (_, Some(f)) => Some(f),
                    (_, None) if formation == u.pose.formation => Some(u.pose.files),
                    (_, None) => None,
                };
                if formation == u.pose.formation
                    && (formation == Formation::Circle || effective == Some(u.pose.files))
                {
                    continue;
                }
                if tried.contains(&(formation, effective)) {
                    continue;
                }
                tried.push((formation, effective));
                let label = match f {
                    Some(k) => {
                        format!("Form {formation}, {k} file{}", if k == 1 { "" } else { "s" })
                    }
                    None => format!("Form {formation}"),
                };
                self.offer(
                    state,
                    side,
                    label,
                    formation_rules(formation),
                    Self::one_step(u.id, Step::Form { formation, files: f, gap: None }),
                    out,
                );
            }
        }
    }

    /// A forced march straight ahead, as far as the doubled allowance and the ground allow.
    fn forced_march_action(&self, state: &State, side: Side, u: &Unit, out: &mut Vec<Action>) {
        let full = self.allowance(u, true, false).this_move;
        if full.is_nan() || full <= 0.0 {
            return;
        }
        let march = |d: f64| {
            let to = u.pose.at + u.pose.facing.vector() * d;
            Command::Move {
                unit: u.id,
                forced_march: true,
                battle_command: false,
                steps: vec![Step::Advance { to: [to.x, to.y] }],
            }
        };
        let ok = |d: f64| self.check(state, Actor::Side(side), &march(d)).is_ok();
        let distance = if ok(full) {
            full
        } else {
            let (mut lo, mut hi) = (0.0, full);
            for _ in 0..12 {
                let mid = 0.5 * (lo + hi);
                if ok(mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            // Whole tenths of an inch, short of the limit.
            (lo * 10.0).floor() / 10.0
        };
        if distance < 0.1 || !ok(distance) {
            return;
        }
        self.offer(
            state,
            side,
            format!(
                "Forced march {} straight ahead (discipline check, then attrition and exhaustion)",
                inches(distance)
            ),
            &["MOV-FM-01", "MOV-FM-02", "MOV-FM-05", "MOV-FM-06"],
            march(distance),
            out,
        );
    }

    fn artillery_actions(&self, state: &State, side: Side, u: &Unit, out: &mut Vec<Action>) {
        if u.limber.is_none() {
            return;
        }
        let offers = [
            (
                "Limber up (takes the whole turn)",
                &["MOV-LIMB-01"][..],
                Command::Limber { unit: u.id },
            ),
            (
                "Unlimber (takes the whole turn)",
                &["MOV-LIMB-01"][..],
                Command::Unlimber { unit: u.id },
            ),
            (
                "Shoot (resolve by hand)",
                &["MOV-LIMB-02", "MOV-LIMB-03"][..],
                Command::Shoot { unit: u.id },
            ),
        ];
        for (label, rules, command) in offers {
            self.offer(state, side, label.to_string(), rules, command, out);
        }
    }

    /// The routes that take the unit's centre to `to` with `facing`: a straight move, or a
    /// change of facing or a wheel before or after it.
    fn routes(&self, state: &State, u: &Unit, to: Point, facing: Option<Facing>) -> Vec<Route> {
        let p0 = u.pose;
        let c0 = centre(u, &p0);
        let straight = |pose: &Pose, from: Point| -> Vec<(Step, Point)> {
            if from.distance(to) < 1e-9 {
                return vec![];
            }
            let r = reference_for(u, pose, to);
            vec![(Step::Advance { to: [r.x, r.y] }, to)]
        };
        let route = |parts: Vec<(Step, Point)>| {
            let (steps, centres) = parts.into_iter().unzip();
            Route { steps, centres }
        };
        let delta = match facing {
            Some(f) if p0.formation != Formation::Circle => {
                let d = (f.bearing_degrees() - p0.facing.bearing_degrees()).rem_euclid(360.0);
                if d > 180.0 { d - 360.0 } else { d }
            }
            _ => 0.0,
        };
        if delta.abs() < SNAP_DEGREES || (360.0 - delta.abs()) < SNAP_DEGREES {
            return vec![route(straight(&p0, c0))];
        }
        let mut out = Vec::new();
        let turn = if (delta - 90.0).abs() < SNAP_DEGREES {
            Some(Turn::Right)
        } else if (delta + 90.0).abs() < SNAP_DEGREES {
            Some(Turn::Left)
        } else if (delta.abs() - 180.0).abs() < SNAP_DEGREES {
            Some(Turn::About)
        } else {
            None
        };
        if let Some(turn) = turn {
            // The turned pose where the unit stands (MOV-R-07 keeps the centroid).
            let p1 = self.turned_pose(state, u.id, turn).unwrap_or(p0);
            let c1 = centre(u, &p1);
            // Turn, then move.
            let mut parts = vec![(Step::Face(turn), c1)];
            parts.extend(straight(&p1, c1));
            out.push(route(parts));
            // Move, then turn: the turn shifts the centre by the same amount anywhere.
            let before = to - (c1 - c0);
            let mut parts = Vec::new();
            if before.distance(c0) >= 1e-9 {
                let r = reference_for(u, &p0, before);
                parts.push((Step::Advance { to: [r.x, r.y] }, before));
            }
            parts.push((Step::Face(turn), to));
            out.push(route(parts));
        }
        // A forward wheel through the angle, on the corner of the side it turns to.
        // Whole millionths of a degree: the client's bearing, without float dust.
        let degrees = ((delta.abs() * 1e6).round() / 1e6).min(180.0);
        let pivot = if delta > 0.0 { Pivot::Right } else { Pivot::Left };
        let frame = outline(&p0, u.stands.len(), u.stand_size);
        let moved = Wheel { pivot, radians: degrees.to_radians() }.apply(&frame, &frame);
        let w = Pose { at: moved.front_centre(), facing: canonical(moved.facing), ..p0 };
        let cw = centre(u, &w);
        let wheel = Step::Wheel { pivot, degrees };
        // Wheel, then move.
        let mut parts = vec![(wheel.clone(), cw)];
        parts.extend(straight(&w, cw));
        out.push(route(parts));
        // Move, then wheel: a wheel is a rigid turn about a corner, so it shifts the centre by
        // the same amount wherever the unit stands.
        let before = to - (cw - c0);
        let mut parts = Vec::new();
        if before.distance(c0) >= 1e-9 {
            let r = reference_for(u, &p0, before);
            parts.push((Step::Advance { to: [r.x, r.y] }, before));
        }
        parts.push((wheel, to));
        out.push(route(parts));
        out
    }

    /// The plan of `steps` as far as it gets: stopping (not refusing) at closed ground,
    /// friends and enemies, as a measurement must.
    fn lenient_plan(&self, state: &State, u: &Unit, steps: &[Step]) -> Result<Plan, Refusal> {
        let planner = Planner::new(self, state, u.id)
            .ok_or_else(|| Refusal::new("MOV-GEN-01", format!("there is no unit {}", u.id)))?;
        planner.plan(
            steps,
            Options {
                enemy: OnEnemy::StopShort,
                friend: OnFriend::StopShort,
                stop_at_terrain: true,
                may_leave_table: false,
                allowance: self.allowance(u, false, false).this_move,
            },
        )
    }

    /// Measures a dragged move (see [`RuleSet::measure`]).
    pub(crate) fn client_measure(
        &self,
        state: &State,
        side: Side,
        request: &MeasureRequest,
    ) -> Option<Measurement> {
        let u = self.client_unit(state, side, &request.unit)?;
        if !request.to.is_finite() || self.move_barred(state, Actor::Side(side), u.id).is_some() {
            return None;
        }
        let c0 = centre(u, &u.pose);
        // A point so far away that its distance overflows is no drop on any table.
        if !c0.distance(request.to).is_finite() {
            return None;
        }
        let facing = request.facing.filter(|f| f.vector().is_finite());
        let routes = self.routes(state, u, request.to, facing);
        let mut judged: Vec<Judged> = routes
            .into_iter()
            .map(|route| {
                let plain = Command::Move {
                    unit: u.id,
                    forced_march: false,
                    battle_command: false,
                    steps: route.steps.clone(),
                };
                let (command, verdict) = match self.check(state, Actor::Side(side), &plain) {
                    Ok(()) => (plain, Ok(())),
                    // What a battle command lifts: the same move as a charge.
                    Err(r) if NEEDS_BATTLE_COMMAND.contains(&r.rule.as_str()) => {
                        let charge = Command::Move {
                            unit: u.id,
                            forced_march: false,
                            battle_command: true,
                            steps: route.steps.clone(),
                        };
                        match self.check(state, Actor::Side(side), &charge) {
                            Ok(()) => (charge, Ok(())),
                            Err(_) => (plain, Err(r)),
                        }
                    }
                    Err(r) => (plain, Err(r)),
                };
                let cost = self
                    .lenient_plan(state, u, &route.steps)
                    .map(|p| p.cost)
                    .unwrap_or(f64::INFINITY);
                Judged { route, command, verdict, cost }
            })
            .collect();
        // The cheapest route the rules accept; failing that, the cheapest refused one (the
        // first route on ties).
        let best = (0..judged.len()).min_by(|&a, &b| {
            let (x, y) = (&judged[a], &judged[b]);
            y.verdict.is_ok().cmp(&x.verdict.is_ok()).then(x.cost.total_cmp(&y.cost))
        })?;
        let chosen = judged.swap_remove(best);
        let Judged { route, command, verdict, .. } = chosen;
        let battle_command = matches!(command, Command::Move { battle_command: true, .. });

        // The path of the centre, and the distance along it after each step.
        let mut path = vec![c0];
        let mut along = Vec::with_capacity(route.centres.len());
        let mut length = 0.0;
        for c in &route.centres {
            let last = *path.last().unwrap_or(&c0);
            let d = last.distance(*c);
            if d > 1e-9 {
                length += d;
                path.push(*c);
            }
            along.push(length);
        }
        if path.len() == 1 {
            path.push(c0);
        }

        let full = self.lenient_plan(state, u, &route.steps);
        let charge = battle_command && full.as_ref().is_ok_and(|p| p.ends_in_contact);
        let allowance = match u.regroup_left {
            Some(left) => left,
            None => self.allowance(u, false, charge).this_move,
        };
        // Measured exactly, without the legality tolerance (a legal move is covered whole).
        let tol = 1e-9;
        let fits = |p: &Plan| p.stopped.is_none() && p.cost <= allowance + tol;

        // How far the allowance lasts: whole steps while they fit, then the part of the next.
        // A legal move that is not a charge is covered whole, and its plan is the one above.
        let covered = verdict.is_ok() && !charge;
        let mut within = 0.0;
        let mut last_ok: Option<Plan> = None;
        let steps = if covered && full.is_ok() { 0 } else { route.steps.len() };
        for k in 1..=steps {
            let before = if k == 1 { 0.0 } else { along[k - 2] };
            // Where the reference point stands when the step begins: the steps before it all
            // fitted, and `last_ok` is their plan.
            let from = match k {
                1 => Some(u.pose.at),
                _ => last_ok.as_ref().map(|p| p.pose.at),
            };
            let plan = self.lenient_plan(state, u, &route.steps[..k]);
            if let Ok(p) = &plan
                && fits(p)
            {
                within = along[k - 1];
                last_ok = plan.ok();
                continue;
            }
            if let Ok(p) = &plan {
                last_ok = Some(p.clone());
            }
            within = before;
            let partial = |f: f64| -> Option<Step> {
                match &route.steps[k - 1] {
                    Step::Advance { to } => {
                        let p = from?.lerp(Vec2::new(to[0], to[1]), f);
                        Some(Step::Advance { to: [p.x, p.y] })
                    }
                    Step::Wheel { pivot, degrees } => {
                        Some(Step::Wheel { pivot: *pivot, degrees: degrees * f })
                    }
                    _ => None,
                }
            };
            if partial(1.0).is_some() {
                let seg = along[k - 1] - before;
                let (mut lo, mut hi) = (0.0, 1.0);
                for _ in 0..BISECTIONS {
                    if (hi - lo) * seg < 1e-4 {
                        break;
                    }
                    let mid = 0.5 * (lo + hi);
                    let ok = partial(mid).is_some_and(|s| {
                        let mut steps = route.steps[..k - 1].to_vec();
                        steps.push(s);
                        self.lenient_plan(state, u, &steps).is_ok_and(|p| fits(&p))
                    });
                    if ok {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                within = before + seg * lo;
            }
            break;
        }
        if covered {
            within = length;
        }
        let measured = full.ok().or(last_ok);
        let cost = measured.as_ref().map_or(0.0, |p| p.cost);

        let mut notes: Vec<String> = Vec::new();
        if let Some(p) = &measured {
            for item in &p.items {
                notes.push(item.describe());
            }
            if let Some(why) = &p.stopped {
                match (&verdict, charge) {
                    (_, true) => notes.push(format!("{why} [MOV-GEN-07]")),
                    (Err(r), false) => notes.push(format!("{why} [{}]", r.rule)),
                    (Ok(()), false) => notes.push(why.clone()),
                }
            }
        }
        if facing.is_some() && u.pose.formation == Formation::Circle {
            notes.push("a circle faces every way: the facing is kept [MOV-FORM-04]".into());
        }
        if charge {
            notes.push(format!(
                "a charge under a battle command: {} of allowance, stopping at contact [MOV-GEN-07, MOV-GEN-08]",
                inches(allowance)
            ));
        }
        if verdict.is_err() && u.regroup_left.is_none() {
            let forced = Command::Move {
                unit: u.id,
                forced_march: true,
                battle_command: false,
                steps: route.steps.clone(),
            };
            if self.check(state, Actor::Side(side), &forced).is_ok() {
                notes.push(format!(
                    "a forced march ({} allowance) would cover it [MOV-FM-01, MOV-FM-02]",
                    inches(self.allowance(u, true, false).this_move)
                ));
            }
        }

        let (action, rule, reason) = match verdict {
            Ok(()) => {
                let label = if charge {
                    format!("Charge with {} ({})", u.name, inches(cost))
                } else {
                    format!("Move {} ({} of {})", u.name, inches(cost), inches(allowance))
                };
                let mut rules = vec!["MOV-GEN-01", "MOV-GEN-03"];
                if battle_command {
                    rules.extend(["MOV-GEN-07", "MOV-GEN-08"]);
                }
                let action = serde_json::to_value(&command)
                    .ok()
                    .map(|json| Action::send(label, &rules, json));
                (action, None, None)
            }
            Err(r) => (None, Some(r.rule.to_string()), Some(r.reason)),
        };
        Some(Measurement {
            unit: u.id.to_string(),
            path,
            length,
            cost,
            allowance,
            within: if within.is_finite() { within.clamp(0.0, length) } else { 0.0 },
            notes,
            action,
            rule,
            reason,
        })
    }

    /// The roster sheet (see [`RuleSet::roster`]). The chapter hides nothing, so every viewer
    /// sees every unit.
    pub(crate) fn client_roster(&self, state: &State, _viewer: Viewer) -> Vec<RosterRow> {
        let full_ep = self.data.geometry.endurance.default;
        let contact = self.units_in_contact(state);
        state
            .units
            .iter()
            .map(|u| {
                let mut kind = if let Some(l) = &u.limber {
                    format!("{:?} piece", l.class).to_lowercase()
                } else if u.rate.is_some() {
                    format!("{} (own rate)", troop_words(u.troop))
                } else {
                    troop_words(u.troop)
                };
                if u.army_leader {
                    kind.push_str(", army leader");
                } else if u.leader {
                    kind.push_str(", leader");
                } else if u.character {
                    kind.push_str(", character");
                }
                let mut armors: Vec<Armor> = u.stands.iter().map(|s| s.armor).collect();
                armors.sort();
                armors.dedup();
                if u.limber.is_none() {
                    match armors.as_slice() {
                        [] => {}
                        [Armor::Unarmored] => kind.push_str(", unarmored"),
                        [a] => kind.push_str(&format!(", {a:?} armor").to_lowercase()),
                        _ => kind.push_str(", mixed armor"),
                    }
                }
                kind.push_str(&format!(", {:?}", u.discipline).to_lowercase());
                if u.skirmisher {
                    kind.push_str(", skirmishers");
                }
                if u.levy {
                    kind.push_str(", levy");
                }
                let ep: i32 = u.stands.iter().map(|s| s.ep).sum();
                let stands = u.stands.len();
                let strength = if u.on_table {
                    format!("{stands} stand{}, {ep} EP", if stands == 1 { "" } else { "s" })
                } else {
                    "off the table".to_string()
                };
                let below: i32 = u.stands.iter().map(|s| (full_ep - s.ep).max(0)).sum();
                let losses = if !u.on_table {
                    "the whole unit".to_string()
                } else if below > 0 {
                    format!("{below} EP below {full_ep} a stand")
                } else {
                    "none".to_string()
                };
                let mut flags = vec![u.pose.formation.to_string(), u.morale.to_string()];
                if !u.on_table {
                    flags.push("off the table".into());
                }
                if u.moved {
                    flags.push("moved".into());
                }
                if u.exhausted_turn.is_some_and(|t| t >= state.turn) {
                    flags.push("exhausted".into());
                }
                if u.forced_march_failed {
                    flags.push("forced march refused".into());
                }
                if u.separated {
                    flags.push("separated".into());
                }
                if u.driven_off {
                    flags.push("driven off".into());
                }
                if u.held {
                    flags.push("held".into());
                }
                if let Some(l) = &u.limber {
                    flags.push(
                        match (l.limbered, l.changing) {
                            (true, false) => "limbered",
                            (false, false) => "unlimbered",
                            (true, true) => "unlimbering",
                            (false, true) => "limbering",
                        }
                        .into(),
                    );
                }
                if u.on_table && contact.get(u.id).copied().unwrap_or(false) {
                    flags.push("in melee contact".into());
                }
                RosterRow {
                    side: u.side.name().to_string(),
                    unit: u.id.to_string(),
                    label: u.name.clone(),
                    kind,
                    strength,
                    losses,
                    state: flags.join(", "),
                }
            })
            .collect()
    }
}
