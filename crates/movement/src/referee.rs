//! The referee: answers to a tabletop umpire's questions, JSON in and JSON out, for
//! `strategikon referee movement QUESTION.json` and the browser's referee panel.
//!
//! Questions (`"question"` names the kind):
//! - `path_cost`: what a path costs a unit, and whether it fits its allowance;
//! - `how_far`: how far along a path the unit gets;
//! - `wheel`: what a wheel costs;
//! - `facing`: what changes of facing cost;
//! - `forced_march`: whether a unit may forced-march, its discipline check, attrition and
//!   exhaustion chance, and, given the dice rolled, the results.
//!
//! A unit is given by its profile (type, armor, discipline, formation, files, stands, facing in
//! compass degrees, and optionally its own stand footprint `stand_size = [width, depth]`); terrain by a scenario or table file (`"terrain": {"file": "…"}`) or inline
//! table TOML (`"terrain": {"toml": "…"}`); every answer lists the rules it applied.

use crate::Movement;
use crate::engine::Planner;
use crate::layout::{Pose, canonical};
use crate::model::{
    Armor, Discipline, Formation, MoraleState, PieceClass, TroopType, Turn, Weather,
};
use crate::scenario::{Scenario, SideSpec, UnitSpec};
use crate::state::{CostItem, State, Step};
use serde::{Deserialize, Serialize};
use tabletop::diagnostics::{Source, TomlDoc};
use tabletop::geometry::{Facing, Pivot, Vec2};
use tabletop::rules::Side;
use tabletop::terrain::Table;

/// Why a question could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// The question is malformed.
    #[error("the question is malformed: {0}")]
    Malformed(String),
    /// The terrain could not be read.
    #[error("the terrain could not be read:\n{0}")]
    Terrain(String),
    /// The rules refuse what is asked.
    #[error("{0}")]
    Refused(#[from] tabletop::rules::Refusal),
}

fn one() -> u32 {
    1
}

/// A unit's profile.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Troop type.
    #[serde(rename = "type")]
    pub troop: TroopType,
    /// Armor class.
    #[serde(default)]
    pub armor: Option<Armor>,
    /// Discipline.
    pub discipline: Discipline,
    /// Formation (default line).
    #[serde(default)]
    pub formation: Option<Formation>,
    /// Files (default 1).
    #[serde(default = "one")]
    pub files: u32,
    /// Stands (default 1).
    #[serde(default = "one")]
    pub stands: u32,
    /// Facing in compass degrees (default: along the path's first leg, or north).
    #[serde(default)]
    pub facing: Option<f64>,
    /// A creature's own rate.
    #[serde(default)]
    pub rate: Option<f64>,
    /// Artillery piece class.
    #[serde(default)]
    pub artillery: Option<PieceClass>,
    /// Skirmishers.
    #[serde(default)]
    pub skirmisher: bool,
    /// A leader or character stand.
    #[serde(default)]
    pub leader: bool,
    /// Mounted (for leaders and creatures).
    #[serde(default)]
    pub mounted: Option<bool>,
    /// Morale state (default Firm).
    #[serde(default)]
    pub morale: Option<MoraleState>,
    /// The stands' own footprint, `[width, depth]` in inches, instead of the data's sizes (for
    /// bases of another size on a real table).
    #[serde(default)]
    pub stand_size: Option<[f64; 2]>,
}

/// Where the terrain comes from.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum TerrainSource {
    /// A scenario or table file on disk (its `[table]`, `[[area]]`, `[[line]]`).
    File(String),
    /// Table TOML inline.
    Toml(String),
}

/// A question.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "question", rename_all = "snake_case", deny_unknown_fields)]
pub enum Question {
    /// The cost of a path.
    PathCost {
        /// The unit.
        unit: Profile,
        /// The path of the unit's reference point (front centre), start first.
        path: Vec<[f64; 2]>,
        /// Terrain, if any (open firm ground otherwise).
        #[serde(default)]
        terrain: Option<TerrainSource>,
        /// Weather (default dry).
        #[serde(default)]
        weather: Option<Weather>,
        /// On a forced march.
        #[serde(default)]
        forced_march: bool,
        /// A charge ending in contact (4/3 allowance).
        #[serde(default)]
        charge: bool,
    },
    /// How far along a path the unit gets.
    HowFar {
        /// The unit.
        unit: Profile,
        /// The path.
        path: Vec<[f64; 2]>,
        /// Terrain.
        #[serde(default)]
        terrain: Option<TerrainSource>,
        /// Weather.
        #[serde(default)]
        weather: Option<Weather>,
        /// On a forced march.
        #[serde(default)]
        forced_march: bool,
        /// A charge.
        #[serde(default)]
        charge: bool,
    },
    /// The cost of a wheel.
    Wheel {
        /// The unit.
        unit: Profile,
        /// Degrees (negative: backward).
        degrees: f64,
        /// The pivot corner (default left).
        #[serde(default)]
        pivot: Option<Pivot>,
    },
    /// The cost of changes of facing.
    Facing {
        /// The unit.
        unit: Profile,
        /// The changes, in order.
        turns: Vec<Turn>,
    },
    /// A forced march: allowed? check, attrition, exhaustion.
    ForcedMarch {
        /// The unit.
        unit: Profile,
        /// It starts in melee contact.
        #[serde(default)]
        in_contact: bool,
        /// The d10 rolled for the discipline check, if rolled.
        #[serde(default)]
        discipline_roll: Option<u8>,
        /// The d10 rolled for exhaustion, if rolled.
        #[serde(default)]
        exhaustion_roll: Option<u8>,
        /// EP per stand before the march (default from the data).
        #[serde(default)]
        ep: Option<i32>,
    },
}

/// An answer.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Answer {
    /// What was asked.
    pub question: String,
    /// The cost in inches, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// The allowance that applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowance: Option<f64>,
    /// Allowance left (negative when over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<f64>,
    /// Whether it fits the allowance, or is allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed: Option<bool>,
    /// For `how_far`: where the unit stops and the distance covered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reaches: Option<[f64; 2]>,
    /// Distance covered along the path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// What was paid for.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub items: Vec<CostItem>,
    /// Other findings, by name.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub facts: Vec<(String, serde_json::Value)>,
    /// The rules applied.
    pub rules: Vec<String>,
    /// Remarks.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub notes: Vec<String>,
}

/// Answers a question given as JSON.
pub fn answer(question: &serde_json::Value) -> Result<serde_json::Value, RefereeError> {
    let q: Question = serde_json::from_value(question.clone())
        .map_err(|e| RefereeError::Malformed(e.to_string()))?;
    let a = Movement::new().answer(&q)?;
    serde_json::to_value(a).map_err(|e| RefereeError::Malformed(e.to_string()))
}

fn read_table(src: &TerrainSource) -> Result<Table, RefereeError> {
    let source = match src {
        TerrainSource::File(path) => Source::read(std::path::Path::new(path))
            .map_err(|d| RefereeError::Terrain(d.to_string()))?,
        TerrainSource::Toml(text) => Source::new("terrain", text.clone()),
    };
    let doc = TomlDoc::parse(&source).map_err(|d| RefereeError::Terrain(d.to_string()))?;
    let mut problems = doc.problems();
    let table = tabletop::table_file::parse_table(&doc, &mut problems);
    problems.finish().map_err(|d| RefereeError::Terrain(d.to_string()))?;
    table.ok_or_else(|| RefereeError::Terrain("no table".into()))
}

fn finite(p: &[[f64; 2]]) -> Result<Vec<Vec2>, RefereeError> {
    p.iter()
        .map(|q| {
            let v = Vec2::new(q[0], q[1]);
            if v.is_finite() {
                Ok(v)
            } else {
                Err(RefereeError::Malformed("path points must be finite numbers".into()))
            }
        })
        .collect()
}

impl Movement {
    /// Builds a one-unit state for a profile at `at`, on a table.
    fn referee_state(
        &self,
        unit: &Profile,
        at: Vec2,
        toward: Option<Vec2>,
        table: Option<Table>,
        weather: Weather,
    ) -> Result<State, RefereeError> {
        if unit.stands == 0 || unit.stands > 200 || unit.files == 0 {
            return Err(RefereeError::Malformed("stands and files must be 1..200".into()));
        }
        if unit.troop == TroopType::Creature && !unit.rate.is_some_and(|r| r.is_finite() && r > 0.0)
        {
            return Err(RefereeError::Malformed(
                "a creature needs its own positive rate (MOV-GEN-10)".into(),
            ));
        }
        if unit.troop == TroopType::Artillery && unit.artillery.is_none() {
            return Err(RefereeError::Malformed(
                "artillery needs \"artillery\": light|heavy|siege".into(),
            ));
        }
        let facing = match (unit.facing, toward) {
            (Some(d), _) if d.is_finite() => Facing::from_bearing_degrees(d),
            (Some(_), _) => return Err(RefereeError::Malformed("facing must be a number".into())),
            (None, Some(v)) => Facing::from_vector(v).unwrap_or(Facing::NORTH),
            (None, None) => Facing::NORTH,
        };
        let formation = unit.formation.unwrap_or(Formation::Line);
        let n = unit.stands as usize;
        let mounted = unit.mounted.unwrap_or(unit.troop.mounted());
        let artillery = unit.artillery.is_some();
        let size = match unit.stand_size {
            Some([w, d])
                if w.is_finite()
                    && d.is_finite()
                    && w > 0.0
                    && d > 0.0
                    && w <= 100.0
                    && d <= 100.0 =>
            {
                (w, d)
            }
            Some(_) => {
                return Err(RefereeError::Malformed(
                    "stand_size must be two positive numbers of inches".into(),
                ));
            }
            None => self.stand_size(unit.troop, unit.leader, mounted, artillery),
        };
        // Open ground around the question unless a table is given.
        let (table, shift) = match table {
            Some(t) => (t, Vec2::ZERO),
            None => (
                Table {
                    width: 100_000.0,
                    height: 100_000.0,
                    areas: vec![],
                    lines: vec![],
                    slope_band: 1.0,
                },
                Vec2::new(50_000.0, 50_000.0),
            ),
        };
        let pose = Pose {
            at: at + shift,
            facing: canonical(facing),
            formation,
            files: unit.files,
            gap: if formation == Formation::OpenOrder {
                self.data.geometry.open_order.default_gap
            } else {
                0.0
            },
        };
        let armor = unit.armor.unwrap_or(Armor::Unarmored);
        let spec = UnitSpec {
            name: "unit".into(),
            side: Side::Red,
            troop: unit.troop,
            armor: vec![armor; n],
            discipline: unit.discipline,
            pose,
            stand_size: size,
            morale: unit.morale.unwrap_or(MoraleState::Firm),
            ep: self.data.geometry.endurance.default,
            skirmisher: unit.skirmisher,
            levy: false,
            leader: unit.leader,
            character: false,
            army_leader: false,
            mounted,
            artillery: unit.artillery.map(|c| (c, true)),
            rate: unit.rate,
            brigade_leader: None,
        };
        let sc = Scenario {
            name: "referee".into(),
            turns: 1,
            weather,
            melee: crate::model::Melee::Umpire,
            first: Side::Red,
            table,
            sides: vec![
                SideSpec { side: Side::Red, name: "red".into(), edge: crate::model::Edge::South },
                SideSpec { side: Side::Blue, name: "blue".into(), edge: crate::model::Edge::North },
            ],
            objectives: vec![],
            units: vec![spec],
        };
        let mut st = self.initial_state(&sc);
        st.units[0].pose = pose;
        // Keep the shift for reporting.
        st.objectives.push(crate::state::Objective {
            name: "origin".into(),
            at: shift,
            radius: 0.0,
        });
        Ok(st)
    }

    /// Answers a typed question.
    pub fn answer(&self, q: &Question) -> Result<Answer, RefereeError> {
        match q {
            Question::PathCost { unit, path, terrain, weather, forced_march, charge }
            | Question::HowFar { unit, path, terrain, weather, forced_march, charge } => {
                let how_far = matches!(q, Question::HowFar { .. });
                let pts = finite(path)?;
                if pts.len() < 2 {
                    return Err(RefereeError::Malformed("a path needs at least two points".into()));
                }
                if pts.len() > 256 {
                    return Err(RefereeError::Malformed("at most 256 path points".into()));
                }
                let table = terrain.as_ref().map(read_table).transpose()?;
                let st = self.referee_state(
                    unit,
                    pts[0],
                    Some(pts[1] - pts[0]),
                    table,
                    weather.unwrap_or_default(),
                )?;
                let shift = st.objectives[0].at;
                let u = &st.units[0];
                let allowance = self.allowance(u, *forced_march, *charge && !*forced_march);
                let mut rules: Vec<String> =
                    allowance.rules.iter().map(|r| r.to_string()).collect();
                let steps: Vec<Step> = pts[1..]
                    .iter()
                    .map(|p| Step::Advance { to: [p.x + shift.x, p.y + shift.y] })
                    .collect();
                let tol = self.data.geometry.tolerance.cost;
                let planner = Planner::new(self, &st, 0)
                    .ok_or_else(|| RefereeError::Malformed("no unit".into()))?;
                let opts = crate::engine::Options {
                    enemy: crate::engine::OnEnemy::StopAtContact,
                    friend: crate::engine::OnFriend::Refuse,
                    stop_at_terrain: false,
                    may_leave_table: false,
                    allowance: allowance.this_move,
                };
                if !how_far {
                    let plan = planner.plan(&steps, opts)?;
                    rules.extend(plan.rules.iter().map(|r| r.to_string()));
                    rules.sort();
                    rules.dedup();
                    return Ok(Answer {
                        question: "path_cost".into(),
                        cost: Some(plan.cost),
                        allowance: Some(allowance.this_move),
                        left: Some(allowance.this_move - plan.cost),
                        allowed: Some(plan.cost <= allowance.this_move + tol),
                        items: plan.items,
                        rules,
                        ..Answer::default()
                    });
                }
                // How far: whole legs while they fit, then bisect the last; measured exactly,
                // without the legality tolerance.
                let tol = 1e-9;
                let mut done = 0usize;
                let mut best = planner.plan(&[], opts)?;
                let mut note = Vec::new();
                for k in 1..=steps.len() {
                    match planner.plan(&steps[..k], opts) {
                        Ok(p) if p.cost <= allowance.this_move + tol => {
                            best = p;
                            done = k;
                        }
                        Ok(_) => break,
                        Err(r) => {
                            note.push(format!("beyond leg {k}: {r}"));
                            break;
                        }
                    }
                }
                if done < steps.len() {
                    let from = pts[done];
                    let to = pts[done + 1];
                    let (mut lo, mut hi) = (0.0, 1.0);
                    for _ in 0..50 {
                        let mid = 0.5 * (lo + hi);
                        let p = from.lerp(to, mid);
                        let mut s = steps[..done].to_vec();
                        s.push(Step::Advance { to: [p.x + shift.x, p.y + shift.y] });
                        match planner.plan(&s, opts) {
                            Ok(pl) if pl.cost <= allowance.this_move + tol => {
                                lo = mid;
                                best = pl;
                            }
                            _ => hi = mid,
                        }
                    }
                }
                let end = best.pose.at - shift;
                let distance: f64 = best.path.windows(2).map(|w| w[0].distance(w[1])).sum();
                rules.extend(best.rules.iter().map(|r| r.to_string()));
                rules.sort();
                rules.dedup();
                Ok(Answer {
                    question: "how_far".into(),
                    cost: Some(best.cost),
                    allowance: Some(allowance.this_move),
                    left: Some(allowance.this_move - best.cost),
                    allowed: Some(done == steps.len()),
                    reaches: Some([end.x, end.y]),
                    distance: Some(distance),
                    items: best.items,
                    rules,
                    notes: note,
                    ..Answer::default()
                })
            }
            Question::Wheel { unit, degrees, pivot } => {
                let st = self.referee_state(unit, Vec2::ZERO, None, None, Weather::Dry)?;
                let steps =
                    [Step::Wheel { pivot: pivot.unwrap_or(Pivot::Left), degrees: *degrees }];
                let plan = self.plan_move(&st, 0, &steps, false, false)?;
                let planner = Planner::new(self, &st, 0)
                    .ok_or_else(|| RefereeError::Malformed("no unit".into()))?;
                let radius = planner.wheel_radius(&st.units[0].pose);
                let allowance = self.allowance(&st.units[0], false, false).this_move;
                let mut rules: Vec<String> = plan.rules.iter().map(|r| r.to_string()).collect();
                rules.push("MOV-R-06".into());
                Ok(Answer {
                    question: "wheel".into(),
                    cost: Some(plan.cost),
                    allowance: Some(allowance),
                    left: Some(allowance - plan.cost),
                    allowed: Some(plan.cost <= allowance + self.data.geometry.tolerance.cost),
                    items: plan.items,
                    facts: vec![("measured_radius".into(), serde_json::json!(radius))],
                    rules,
                    ..Answer::default()
                })
            }
            Question::Facing { unit, turns } => {
                if turns.len() > 16 {
                    return Err(RefereeError::Malformed("at most 16 changes of facing".into()));
                }
                let st = self.referee_state(unit, Vec2::ZERO, None, None, Weather::Dry)?;
                let steps: Vec<Step> = turns.iter().map(|t| Step::Face(*t)).collect();
                let plan = self.plan_move(&st, 0, &steps, false, false)?;
                let allowance = self.allowance(&st.units[0], false, false).this_move;
                Ok(Answer {
                    question: "facing".into(),
                    cost: Some(plan.cost),
                    allowance: Some(allowance),
                    left: Some(allowance - plan.cost),
                    allowed: Some(plan.cost <= allowance + self.data.geometry.tolerance.cost),
                    items: plan.items,
                    rules: vec![
                        "MOV-FACE-01".into(),
                        "MOV-FACE-02".into(),
                        "MOV-FACE-03".into(),
                        "MOV-FACE-06".into(),
                    ],
                    ..Answer::default()
                })
            }
            Question::ForcedMarch { unit, in_contact, discipline_roll, exhaustion_roll, ep } => {
                for r in [discipline_roll, exhaustion_roll].into_iter().flatten() {
                    if !(1..=10).contains(r) {
                        return Err(RefereeError::Malformed(format!(
                            "a d10 shows 1 to 10, not {r}"
                        )));
                    }
                }
                let st = self.referee_state(unit, Vec2::ZERO, None, None, Weather::Dry)?;
                let u = &st.units[0];
                let morale = if u.is_personality() { MoraleState::Firm } else { u.morale };
                let mut rules = vec!["MOV-FM-01".to_string(), "MOV-FM-02".into()];
                let mut facts: Vec<(String, serde_json::Value)> = Vec::new();
                let mut notes = Vec::new();
                let mut allowed = true;
                if u.pose.formation == Formation::Circle
                    || self.data.forced_march.exhaustion_from(morale).is_none()
                {
                    allowed = false;
                    rules.push("MOV-FM-09".into());
                    notes.push(
                        "shaken and Broken units and units in circle may not forced-march".into(),
                    );
                }
                if *in_contact {
                    allowed = false;
                    rules.push("MOV-FM-03".into());
                    notes.push("a forced march may not start in melee contact".into());
                }
                let normal = self.allowance(u, false, false).normal;
                let doubled = self.allowance(u, true, false).this_move;
                let target = self.discipline_target(u.discipline);
                facts.push(("normal_allowance".into(), serde_json::json!(normal)));
                facts.push(("forced_march_allowance".into(), serde_json::json!(doubled)));
                if u.is_personality() {
                    notes.push("leaders and characters need no discipline check".into());
                } else {
                    rules.push("MOV-R-20".into());
                    facts.push(("discipline_check_passes_on".into(), serde_json::json!(target)));
                    facts.push((
                        "discipline_check_chance".into(),
                        serde_json::json!((11 - target as i32) as f64 / 10.0),
                    ));
                }
                let per = if u.is_personality() {
                    self.data.forced_march.attrition.leader
                } else {
                    self.data.forced_march.attrition.get(u.discipline)
                };
                let start_ep = ep.unwrap_or(self.data.geometry.endurance.default);
                let from = self.data.forced_march.exhaustion_from(morale);
                let mut chances = serde_json::Map::new();
                for m in [
                    MoraleState::Firm,
                    MoraleState::Checked,
                    MoraleState::Shaken,
                    MoraleState::Broken,
                ] {
                    let v = self
                        .data
                        .forced_march
                        .exhaustion_from(m)
                        .map(|f| (11 - f as i32) as f64 / 10.0);
                    chances.insert(format!("{m}").to_lowercase(), serde_json::json!(v));
                }
                facts.push((
                    "exhaustion_chance_by_morale".into(),
                    serde_json::Value::Object(chances),
                ));
                if let Some(r) = discipline_roll
                    && !u.is_personality()
                {
                    let pass = *r >= target;
                    facts.push(("discipline_check_passed".into(), serde_json::json!(pass)));
                    if !pass {
                        allowed = false;
                        rules.push("MOV-R-28".into());
                        notes.push(
                            "the check failed: the unit may still make a normal move (MOV-R-28)"
                                .into(),
                        );
                    }
                }
                facts.push(("forced_march_made".into(), serde_json::json!(allowed)));
                if !allowed {
                    // No forced march is made, so nothing follows from one (MOV-FM-05,
                    // MOV-FM-06 apply only after a march): no attrition, no exhaustion roll.
                    facts.push(("ep_lost_per_stand".into(), serde_json::json!(0)));
                    facts.push(("ep_after".into(), serde_json::json!(start_ep)));
                    facts.push(("exhausted".into(), serde_json::json!(false)));
                    notes.push(
                        "no forced march is made: no attrition and no exhaustion roll".into(),
                    );
                    if exhaustion_roll.is_some() {
                        notes
                            .push("the exhaustion die is not rolled without a forced march".into());
                    }
                    return Ok(Answer {
                        question: "forced_march".into(),
                        allowance: Some(normal),
                        allowed: Some(false),
                        facts,
                        rules,
                        notes,
                        ..Answer::default()
                    });
                }
                rules.push("MOV-FM-05".into());
                facts.push(("ep_lost_per_stand".into(), serde_json::json!(per)));
                facts.push(("ep_after".into(), serde_json::json!((start_ep - per).max(0))));
                rules.push("MOV-FM-06".into());
                if let Some(f) = from {
                    facts.push(("exhausted_on".into(), serde_json::json!(format!("{f}-10"))));
                    facts.push((
                        "exhaustion_chance".into(),
                        serde_json::json!((11 - f as i32) as f64 / 10.0),
                    ));
                }
                if let (Some(r), Some(f)) = (exhaustion_roll, from) {
                    let ex = *r >= f;
                    facts.push(("exhausted".into(), serde_json::json!(ex)));
                    if ex {
                        rules.push("MOV-FM-07".into());
                        notes.push(
                            "exhausted: it may not move next turn except for morale results".into(),
                        );
                    }
                }
                Ok(Answer {
                    question: "forced_march".into(),
                    allowance: Some(doubled),
                    allowed: Some(allowed),
                    facts,
                    rules,
                    notes,
                    ..Answer::default()
                })
            }
        }
    }
}
