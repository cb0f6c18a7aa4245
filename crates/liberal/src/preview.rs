//! The liberal move worked out before it is made: where each step ends and the fire each step
//! will draw from every enemy in range (expected casualties per step), for the player's
//! planning and for the scripted general.

use crate::Liberal;
use crate::state::{Formation, Leg, Mover, Objective, Place, State, UnitId};
use serde::Serialize;
use tabletop::geometry::Point;

/// Where a forward step of a liberal move ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The place reached.
    pub to: Place,
    /// The enemy touched, if any (LIB-R-39).
    pub met: Option<UnitId>,
    /// The step's allowance.
    pub allowance: f64,
    /// Why.
    pub basis: String,
    /// What the step used.
    pub used: f64,
    /// The unit reached its objective or can go no further.
    pub arrived: bool,
}

/// One step of the planned move as previewed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepPreview {
    /// Where the front centre ends, `[x, y]`.
    pub at: [f64; 2],
    /// The enemies that could fire at the mover after this step, with the casualties each is
    /// expected to cause.
    pub fire: Vec<(UnitId, f64)>,
    /// Their sum.
    pub expected: f64,
    /// The step ends in contact with this enemy.
    pub contact: Option<UnitId>,
}

impl Liberal {
    /// The next forward step of a liberal mover (LIB-LIBERAL-04, -07, LIB-R-16).
    pub fn forward_step(&self, st: &State, m: &Mover) -> Step {
        let u = &st.units[m.unit];
        let from = u.place;
        let goal = match m.objective {
            Objective::Point { at } => at,
            Objective::Unit { unit } => self.footprint(&st.units[unit]).centre,
        };
        let form = match m.formation {
            Some(f) => f,
            _ if from.formation == Formation::House => Formation::Line,
            _ => from.formation,
        };
        let road = matches!(form, Formation::Column | Formation::RoadColumn)
            && self.on_road(st, from.at, goal);
        let (allowance, basis) = self.allowance(st, u, form, road);
        let mut face = self.facing_to(from.at, goal).unwrap_or(from.facing);
        let turned = Place { at: from.at, facing: face, formation: form };
        let wheel = self.move_cost(u, &from, &turned);
        let half = self.footprint(u).width / 2.0;
        if wheel > allowance + 1e-9 && half > 1e-9 {
            // The wheel alone is more than the step's allowance: turn as far as it goes
            // (LIB-LIBERAL-04, LIB-M-06).
            let a = allowance / half;
            let sign = if from.facing.vector().cross(face.vector()) >= 0.0 { 1.0 } else { -1.0 };
            face = from.facing.rotated(tabletop::geometry::rotation(sign * a));
        }
        let left = (allowance - wheel).max(0.0);
        let dist = from.at.distance(goal);
        let go = left.min(dist);
        let at = if dist > 1e-9 { from.at.lerp(goal, go / dist) } else { goal };
        let (to, met) = self.path_to(st, m.unit, Place { at, facing: face, formation: form });
        let used = self.move_cost(u, &from, &to);
        let stuck = from.at.distance(to.at) < 1e-9
            && from.facing.angle_to(to.facing) < 1e-9
            && met.is_none()
            && from.formation == form;
        let there = matches!(m.objective, Objective::Point { .. }) && to.at.distance(goal) < 0.05;
        Step { to, met, allowance, basis, used, arrived: stuck || (met.is_none() && there) }
    }

    /// The expected fire on `unit` where it stands, from every enemy that could fire at it
    /// (LIB-R-08): each enemy's expected casualties.
    pub fn fire_on(&self, st: &State, unit: UnitId) -> Vec<(UnitId, f64)> {
        let u = &st.units[unit];
        let mut v = Vec::new();
        for e in st.units.iter().filter(|e| e.side != u.side && e.present()) {
            if let Some(g) = &e.gun {
                if g.spiked || g.destroyed || e.strength() < self.data.rules.artillery.crew_needed {
                    continue;
                }
                let Ok(d) = self.gun_reach(st, e, u, crate::state::Shot::Round) else { continue };
                let shot = self.best_shot(d);
                if self.gun_reach(st, e, u, shot).is_ok() {
                    v.push((e.id, self.expected_cannon(st, e, u, shot)));
                }
            } else if let Some(s) = self.shooting(st, e, u, true, 1) {
                v.push((e.id, self.expected_volley(st, &s, e, u)));
            }
        }
        v
    }

    /// Works out a liberal move of `unit` to `objective` step by step: each step and the
    /// expected fire on its end, each enemy's share (at most `max_steps` steps). The mover alone
    /// is moved; the others stand where they are.
    pub fn plan_liberal(
        &self,
        st: &State,
        unit: UnitId,
        objective: Objective,
        formation: Option<Formation>,
        max_steps: usize,
    ) -> Vec<(Step, Vec<(UnitId, f64)>)> {
        let mut s = st.clone();
        let mut m = Mover {
            unit,
            objective,
            formation,
            start: s.units[unit].place,
            steps: 0,
            leg: Leg::Forward,
        };
        let mut out = Vec::new();
        for _ in 0..max_steps {
            let step = self.forward_step(&s, &m);
            s.units[unit].place = step.to;
            m.steps += 1;
            if m.formation == Some(step.to.formation) {
                m.formation = None;
            }
            let fire = self.fire_on(&s, unit);
            let end = step.arrived || step.met.is_some();
            out.push((step, fire));
            if end {
                break;
            }
        }
        out
    }

    /// Previews a liberal move: each step's end and the fire it draws (see
    /// [`Liberal::plan_liberal`]).
    pub fn preview(
        &self,
        st: &State,
        unit: UnitId,
        objective: Objective,
        formation: Option<Formation>,
        max_steps: usize,
    ) -> Vec<StepPreview> {
        self.plan_liberal(st, unit, objective, formation, max_steps)
            .into_iter()
            .map(|(step, fire)| StepPreview {
                at: [step.to.at.x, step.to.at.y],
                expected: fire.iter().map(|f| f.1).sum(),
                fire,
                contact: step.met,
            })
            .collect()
    }
}

/// The point a unit's front would reach toward `goal` with `distance` to go.
pub fn toward(from: Point, goal: Point, distance: f64) -> Point {
    let d = from.distance(goal);
    if d <= distance || d < 1e-9 { goal } else { from.lerp(goal, distance / d) }
}
