//! The "12. Movement" chapter as a Strategikon rule set: manoeuvre on a continuous table.
//!
//! Two sides alternate movement phases. Each unit makes at most one move per phase: straight
//! segments, wheels, changes of facing and one change of formation, priced against its
//! allowance (T1) with terrain (T3), the backward/sideways doubling, facing costs (T2) and the
//! wheel measured on the outside. Charges stop at contact and may use the one-third bonus;
//! forced marches roll a discipline check, cost EP and may exhaust. Separated units regroup or
//! flee by themselves at the start of their side's phase. Combat is left to the players: the
//! umpire sets morale states and EP, drives units off, rallies them and asks the engine for
//! morale checks (T6 with the depth bonus).
//!
//! Every number lives in `data/*.toml`; every event and refusal cites its rule ID; see
//! `docs/rulings/movement.md` for the interpretations.

#![warn(missing_docs)]

pub mod bot;
mod controls;
pub mod data;
pub mod depth;
pub mod engine;
pub mod ground;
mod hashing;
pub mod layout;
pub mod model;
pub mod referee;
pub mod regroup;
pub mod route;
mod rules_impl;
pub mod scenario;
pub mod search;
pub mod shapes;
pub mod state;
pub mod value;

pub use data::Data;
pub use model::{
    Armor, Discipline, Formation, Melee, MoraleState, PieceClass, TroopType, Turn, Weather,
};
pub use scenario::Scenario;
pub use state::{AllowanceBasis, Command, Event, Factor, State, Step, Unit, UnitId};

use crate::engine::{OnEnemy, OnFriend, Options, Plan, Planner};
use crate::ground::MoverKind;
use crate::layout::Pose;
use serde::Serialize;
use tabletop::rules::{Refusal, RuleId, Side};

/// The rule set's ID, as scenario files name it (`ruleset = "movement"`).
pub const ID: &str = "movement";

/// The movement rule set: the chapter's tables and nothing else.
#[derive(Clone, Debug, PartialEq)]
pub struct Movement {
    /// The data tables.
    pub data: Data,
}

impl Default for Movement {
    fn default() -> Self {
        Movement::new()
    }
}

/// The allowance of a move, and where it comes from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Allowance {
    /// The unit's normal allowance (after the circle's third).
    pub normal: f64,
    /// The allowance for this move.
    pub this_move: f64,
    /// The rules that set it.
    pub rules: Vec<&'static str>,
    /// How it was made: the rate and each factor with its rule.
    pub basis: AllowanceBasis,
}

impl Movement {
    /// The rule set with its embedded tables.
    pub fn new() -> Movement {
        // The embedded tables are part of the program; the test suite pins that they load.
        let data = Data::embedded().unwrap_or_else(|e| panic!("embedded movement data: {e}"));
        Movement { data }
    }

    /// The rule set with other tables (switches, house rules).
    pub fn with_data(data: Data) -> Movement {
        Movement { data }
    }

    /// How terrain sees a unit in a formation.
    pub fn mover_kind(&self, u: &Unit, formation: Formation) -> MoverKind {
        self.mover_kind_of(
            formation,
            u.is_personality(),
            u.limber.as_ref().is_some_and(|l| l.limbered),
            u.mounted,
            u.stand_size,
            u.stands.len(),
        )
    }

    /// How terrain sees a unit from its profile (MOV-R-11, MOV-R-33).
    pub fn mover_kind_of(
        &self,
        formation: Formation,
        personality: bool,
        limbered: bool,
        mounted: bool,
        _size: (f64, f64),
        stands: usize,
    ) -> MoverKind {
        let lone = personality && stands == 1;
        MoverKind {
            formed: !(formation == Formation::OpenOrder || lone),
            wheeled: limbered,
            mounted,
        }
    }

    /// The normal allowance of a unit (MOV-GEN-02, MOV-GEN-10, MOV-FORM-04, MOV-R-10).
    pub fn normal_allowance(&self, u: &Unit, formation: Formation) -> (f64, Vec<&'static str>) {
        let mut rules = vec!["MOV-GEN-02"];
        let base = if let Some(r) = u.rate {
            rules.push("MOV-GEN-10");
            r
        } else if let Some(l) = &u.limber {
            rules.push("MOV-LIMB-03");
            // Unlimbered, the rate is only spent on changes of facing.
            self.data.rates.artillery.get(l.class)
        } else {
            u.stands
                .iter()
                .filter_map(|s| self.data.rates.humanoid.get(&u.troop).map(|row| row.get(s.armor)))
                .fold(f64::INFINITY, f64::min)
        };
        let base = if base.is_finite() { base } else { 0.0 };
        if formation == Formation::Circle {
            rules.push("MOV-FORM-04");
            (base * self.data.rates.multipliers.circle, rules)
        } else {
            (base, rules)
        }
    }

    /// The allowance of a move: normal, doubled on a forced march, or 4/3 for a charge that
    /// ends in contact (MOV-GEN-08, MOV-FM-02, MOV-FM-04, MOV-R-29).
    pub fn allowance(&self, u: &Unit, forced: bool, charge: bool) -> Allowance {
        let (normal, mut rules) = self.normal_allowance(u, u.pose.formation);
        let m = &self.data.rates.multipliers;
        let mut basis = self.rate_basis(u);
        if u.pose.formation == Formation::Circle {
            basis.factors.push(Factor::new("MOV-FORM-04", "in circle", m.circle));
        }
        let this_move = if forced {
            rules.push("MOV-FM-02");
            basis.factors.push(Factor::new("MOV-FM-02", "forced march", m.forced_march));
            // The charge bonus never combines with a forced march (MOV-FM-04).
            basis.factors.push(Factor::new("MOV-FM-04", "no charge bonus on a forced march", 1.0));
            normal * m.forced_march
        } else if charge {
            rules.push("MOV-GEN-08");
            basis.factors.push(Factor::new("MOV-GEN-08", "charge bonus", m.charge));
            normal * m.charge
        } else {
            normal
        };
        Allowance { normal, this_move, rules, basis }
    }

    /// The rate a unit's allowance starts from, and why: its slowest stand's T1 rate
    /// (MOV-GEN-02, MOV-R-10), a creature's own rate (MOV-GEN-10) or its piece's (MOV-LIMB-03).
    pub fn rate_basis(&self, u: &Unit) -> AllowanceBasis {
        let (base, what, rules) = if let Some(r) = u.rate {
            (r, "its own rate (a creature)".to_string(), vec!["MOV-GEN-02", "MOV-GEN-10"])
        } else if let Some(l) = &u.limber {
            (
                self.data.rates.artillery.get(l.class),
                format!("the limbered rate of a {:?} piece", l.class).to_lowercase(),
                vec!["MOV-LIMB-03"],
            )
        } else {
            let slowest = u
                .stands
                .iter()
                .map(|s| s.armor)
                .filter_map(|a| self.data.rates.humanoid.get(&u.troop).map(|row| (row.get(a), a)))
                .fold(None, |b: Option<(f64, Armor)>, x| match b {
                    Some(b) if b.0 <= x.0 => Some(b),
                    _ => Some(x),
                });
            let mixed = u.stands.windows(2).any(|w| w[0].armor != w[1].armor);
            match slowest {
                Some((r, a)) => (
                    r,
                    format!(
                        "{} {}{}",
                        u.troop.name().replace('_', " "),
                        match a {
                            Armor::Unarmored => "without armor",
                            Armor::Light => "in light armor",
                            Armor::Medium => "in medium armor",
                            Armor::Heavy => "in heavy armor",
                        },
                        if mixed { ", its slowest stand" } else { "" }
                    ),
                    if mixed { vec!["MOV-GEN-02", "MOV-R-10"] } else { vec!["MOV-GEN-02"] },
                ),
                None => (0.0, "no rate".to_string(), vec!["MOV-GEN-02"]),
            }
        };
        AllowanceBasis {
            base,
            what,
            rules: rules.into_iter().map(RuleId::new).collect(),
            factors: Vec::new(),
        }
    }

    /// Plans a player's move for `unit` without changing anything: the cost, the end pose,
    /// what it runs into. This is the pre-measuring of MOV-GEN-09.
    pub fn plan_move(
        &self,
        state: &State,
        unit: UnitId,
        steps: &[Step],
        forced_march: bool,
        battle_command: bool,
    ) -> Result<Plan, Refusal> {
        let planner = Planner::new(self, state, unit)
            .ok_or_else(|| Refusal::new("MOV-GEN-01", format!("there is no unit {unit}")))?;
        self.plan_move_with(&planner, steps, forced_march, battle_command)
    }

    /// [`Movement::plan_move`] with a planner already made for the unit (it keeps what it has
    /// worked out of the table, so many trial moves of one unit cost less).
    pub fn plan_move_with(
        &self,
        planner: &Planner<'_>,
        steps: &[Step],
        forced_march: bool,
        battle_command: bool,
    ) -> Result<Plan, Refusal> {
        let u = planner.unit;
        let circle = u.pose.formation == Formation::Circle;
        let enemy = if forced_march {
            OnEnemy::Refuse("MOV-FM-03")
        } else if circle {
            OnEnemy::Refuse("MOV-FORM-04")
        } else if battle_command {
            OnEnemy::StopAtContact
        } else {
            OnEnemy::Refuse("MOV-GEN-07")
        };
        let allowance = self.allowance(u, forced_march, false).this_move;
        planner.plan(
            steps,
            Options {
                enemy,
                friend: OnFriend::Refuse,
                stop_at_terrain: false,
                may_leave_table: false,
                allowance,
            },
        )
    }

    /// True when the unit's stands touch an enemy's (melee contact, MOV-R-34).
    pub fn in_contact(&self, state: &State, unit: UnitId) -> bool {
        Planner::new(self, state, unit).is_some_and(|p| p.in_contact(&state.units[unit].pose))
    }

    /// [`Movement::in_contact`] for every unit, by unit ID: the rules are asked in full only
    /// for the units some enemy's box comes near (a roster or a general asks this of every
    /// unit at once).
    pub fn units_in_contact(&self, state: &State) -> Vec<bool> {
        use crate::shapes::{box_around, boxes_apart};
        let tol = self.data.geometry.tolerance.contact + 1e-3;
        let boxes: Vec<_> = state.units.iter().map(Unit::bounds).collect();
        // The units on the table by the west edge of their boxes, for a sweep: a box whose
        // west edge lies more than the widest box (and a margin) west of a unit's box, or
        // more than the margin east of it, is apart from it. Boxes without a finite west
        // edge are tried against every unit.
        let mut by_x: Vec<usize> = Vec::new();
        let mut odd: Vec<usize> = Vec::new();
        let mut widest: f64 = 0.0;
        for (i, (e, b)) in state.units.iter().zip(&boxes).enumerate() {
            if !e.on_table {
                continue;
            }
            if b.0.x.is_finite() && b.1.x.is_finite() {
                by_x.push(i);
                widest = widest.max(b.1.x - b.0.x);
            } else {
                odd.push(i);
            }
        }
        by_x.sort_by(|a, b| boxes[*a].0.x.total_cmp(&boxes[*b].0.x).then(a.cmp(b)));
        let slack = tol + 1.0;
        // The rules' own contact test, with the other units' boxes made once for all.
        let others = engine::OtherUnits::new(state);
        (state.units.iter())
            .map(|u| {
                let mine = layout::layout(&u.pose, u.stands.len(), u.stand_size);
                let mine = box_around(mine.iter().flat_map(|r| r.corners()));
                let meets = |i: &usize| {
                    let (e, b) = (&state.units[*i], &boxes[*i]);
                    e.on_table && e.id != u.id && e.side != u.side && !boxes_apart(mine, *b, tol)
                };
                let (west, east) = (mine.0.x - widest - slack, mine.1.x + slack);
                let start = by_x.partition_point(|i| boxes[*i].0.x < west);
                let near = odd.iter().any(meets)
                    || by_x[start..].iter().take_while(|i| boxes[**i].0.x <= east).any(meets)
                    || !(west.is_finite() && east.is_finite()) && by_x.iter().any(meets);
                near && Planner::new(self, state, u.id)
                    .is_some_and(|p| p.in_contact_among(&u.pose, &others))
            })
            .collect()
    }

    /// The pose a unit would take after a change of facing, or why it cannot.
    pub fn turned_pose(&self, state: &State, unit: UnitId, turn: Turn) -> Result<Pose, Refusal> {
        let planner = Planner::new(self, state, unit)
            .ok_or_else(|| Refusal::new("MOV-GEN-01", format!("there is no unit {unit}")))?;
        planner.turned(&state.units[unit].pose, turn)
    }

    /// Who is to move, by side.
    pub fn side_to_move(&self, state: &State) -> Option<Side> {
        (!state.over).then_some(state.phase)
    }
}
