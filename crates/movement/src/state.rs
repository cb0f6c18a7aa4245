//! The game state, commands and events of the movement rule set.

use crate::layout::{Pose, layout};
use crate::model::{
    Armor, Discipline, Edge, Formation, Melee, MoraleState, PieceClass, TroopType, Turn, Weather,
};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::dice::Roll;
use tabletop::geometry::{Pivot, Point, Rect};
use tabletop::rules::{Narrate, RuleId, Side};
use tabletop::terrain::Table;

/// A unit's index in [`State::units`]: a small integer, stable for the whole game.
pub type UnitId = usize;

/// One stand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stand {
    /// Its footprint.
    pub rect: Rect,
    /// Its armor class (stands of one unit may differ, MOV-GEN-02).
    pub armor: Armor,
    /// Endurance points left.
    pub ep: i32,
}

/// Artillery state (MOV-LIMB).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limber {
    /// The piece's class.
    pub class: PieceClass,
    /// Limbered (ready to move) or unlimbered (ready to shoot).
    pub limbered: bool,
    /// Limbering or unlimbering now: the state flips at the end of this phase.
    pub changing: bool,
    /// The turn of the last change (no shooting that turn).
    pub changed_turn: Option<u32>,
    /// The last turn it shot.
    pub shot_turn: Option<u32>,
}

/// One unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Its index.
    pub id: UnitId,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Its troop type.
    pub troop: TroopType,
    /// Its discipline.
    pub discipline: Discipline,
    /// Its own rate, for creatures outside T1 (MOV-GEN-10).
    pub rate: Option<f64>,
    /// Mounted (stand size, WRG obstacle fraction).
    pub mounted: bool,
    /// Designated skirmishers (may use open order).
    pub skirmisher: bool,
    /// Levy (must stay in mass).
    pub levy: bool,
    /// A leader stand.
    pub leader: bool,
    /// A character stand.
    pub character: bool,
    /// The army's leader.
    pub army_leader: bool,
    /// Its brigade leader.
    pub brigade_leader: Option<UnitId>,
    /// Stand width × depth.
    pub stand_size: (f64, f64),
    /// Its pose.
    pub pose: Pose,
    /// Its stands, in layout order.
    pub stands: Vec<Stand>,
    /// Its morale state.
    pub morale: MoraleState,
    /// Artillery only.
    pub limber: Option<Limber>,
    /// Still on the table.
    pub on_table: bool,
    /// Has moved (or been moved) this phase.
    pub moved: bool,
    /// A forced march was refused by the discipline check this phase (MOV-R-28).
    pub forced_march_failed: bool,
    /// Exhausted: barred from moving in this turn's phase (MOV-FM-07, MOV-R-32).
    pub exhausted_turn: Option<u32>,
    /// Separated from its army (MOV-R-22).
    pub separated: bool,
    /// Driven off by a morale result and not yet rallied (MOV-REG-02).
    pub driven_off: bool,
    /// Held in place by magic or another effect (MOV-REG-03).
    pub held: bool,
    /// Allowance left after a regroup move that reached its group, for forming up (MOV-REG-10).
    pub regroup_left: Option<f64>,
}

impl Unit {
    /// The stands' rectangles.
    pub fn rects(&self) -> Vec<Rect> {
        self.stands.iter().map(|s| s.rect).collect()
    }

    /// The box around the stands: (lowest corner, highest corner); empty for no stands.
    pub fn bounds(&self) -> (Point, Point) {
        crate::shapes::box_around(self.stands.iter().flat_map(|s| s.rect.corners()))
    }

    /// Re-lays the stands for a pose, keeping armor and EP in order.
    pub fn set_pose(&mut self, pose: Pose) {
        let rects = layout(&pose, self.stands.len(), self.stand_size);
        for (s, r) in self.stands.iter_mut().zip(rects) {
            s.rect = r;
        }
        self.pose = pose;
    }

    /// A lone leader or character stand (moves freely, MOV-REG-05, MOV-R-11).
    pub fn is_personality(&self) -> bool {
        self.leader || self.character
    }

    /// Artillery or siege equipment.
    pub fn is_artillery(&self) -> bool {
        self.limber.is_some()
    }

    /// The current ranks (for depth, MOV-R-17): circle and open order count 1.
    pub fn ranks(&self) -> u32 {
        match self.pose.formation {
            Formation::Circle | Formation::OpenOrder => 1,
            _ => crate::layout::ranks(self.stands.len(), self.pose.files),
        }
    }
}

/// A side's standing data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideState {
    /// Which side.
    pub side: Side,
    /// Its name.
    pub name: String,
    /// Its own table edge (flight goes toward it).
    pub edge: Edge,
}

/// An objective held at the end of the battle (the victory condition, NIS).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Objective {
    /// Its name.
    pub name: String,
    /// Its centre.
    pub at: Point,
    /// A side holds it with a stand within this distance and no enemy stand within it.
    pub radius: f64,
}

/// The state of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The scenario's name.
    pub scenario: String,
    /// The table (shared, read-only).
    #[serde(serialize_with = "crate::hashing::table")]
    pub table: Arc<Table>,
    /// The weather.
    pub weather: Weather,
    /// How melee contact is resolved.
    #[serde(default)]
    pub melee: Melee,
    /// The turn, from 1.
    pub turn: u32,
    /// The last turn.
    pub turns: u32,
    /// The side that moves first in each turn.
    pub first: Side,
    /// The side whose movement phase it is.
    pub phase: Side,
    /// Set when the battle is over.
    pub over: bool,
    /// The two sides.
    pub sides: Vec<SideState>,
    /// The units.
    #[serde(serialize_with = "crate::hashing::units")]
    pub units: Vec<Unit>,
    /// The objectives.
    pub objectives: Vec<Objective>,
}

impl State {
    /// The unit with this id, if any.
    pub fn unit(&self, id: UnitId) -> Option<&Unit> {
        self.units.get(id)
    }

    /// A side's data.
    pub fn side(&self, side: Side) -> Option<&SideState> {
        self.sides.iter().find(|s| s.side == side)
    }

    /// The units of a side still on the table.
    pub fn units_of(&self, side: Side) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.side == side && u.on_table)
    }

    /// The unit named `name`.
    pub fn find(&self, name: &str) -> Option<UnitId> {
        self.units.iter().position(|u| u.name == name)
    }
}

/// One step of a move (MOV-R-30: segments, wheels, facing changes and one formation change).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Move the reference point straight to a point, keeping the facing.
    Advance {
        /// The destination of the reference point.
        to: [f64; 2],
    },
    /// A change of facing.
    Face(Turn),
    /// A wheel about a front corner.
    Wheel {
        /// The corner that stays still.
        pivot: Pivot,
        /// Degrees; positive swings the free flank forward, negative back.
        degrees: f64,
    },
    /// A change of formation.
    Form {
        /// The new formation.
        formation: Formation,
        /// Stands per rank (ignored by the circle); defaults to the current files.
        #[serde(default)]
        files: Option<u32>,
        /// The open-order gap; defaults to the data's.
        #[serde(default)]
        gap: Option<f64>,
    },
}

/// A command.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// A unit's move for this phase.
    Move {
        /// The unit.
        unit: UnitId,
        /// Declares a forced march (discipline check first, MOV-FM-01).
        #[serde(default)]
        forced_march: bool,
        /// Moves under a battle command (needed to start or end in melee contact).
        #[serde(default)]
        battle_command: bool,
        /// The steps.
        steps: Vec<Step>,
    },
    /// Limber an artillery piece (takes the turn, MOV-LIMB-01).
    Limber {
        /// The piece.
        unit: UnitId,
    },
    /// Unlimber an artillery piece.
    Unlimber {
        /// The piece.
        unit: UnitId,
    },
    /// Declare that a piece shoots (resolved by hand; refused when it may not, MOV-LIMB-02).
    Shoot {
        /// The piece.
        unit: UnitId,
    },
    /// End this side's movement phase.
    EndPhase,
    /// Umpire: set a unit's morale state.
    SetMorale {
        /// The unit.
        unit: UnitId,
        /// The new state.
        state: MoraleState,
    },
    /// Umpire: set the EP of one stand (0 removes it) or of every stand.
    SetEndurance {
        /// The unit.
        unit: UnitId,
        /// The stand's index, or every stand.
        #[serde(default)]
        stand: Option<usize>,
        /// The EP.
        ep: i32,
    },
    /// Umpire: remove a unit from the table.
    Remove {
        /// The unit.
        unit: UnitId,
    },
    /// Umpire: a morale result drives the unit off (it flees until it rallies).
    DriveOff {
        /// The unit.
        unit: UnitId,
    },
    /// Umpire: mark a unit separated from its army, or not.
    MarkSeparated {
        /// The unit.
        unit: UnitId,
        /// Separated or not.
        separated: bool,
    },
    /// Umpire: hold a unit in place (magic or another effect), or release it.
    Hold {
        /// The unit.
        unit: UnitId,
        /// Held or not.
        held: bool,
    },
    /// Umpire: the engine rolls a T6 morale check for the unit, with the depth bonus.
    MoraleCheck {
        /// The unit.
        unit: UnitId,
    },
    /// Umpire: the unit rallies (the morale chapter's rally, resolved by hand).
    Rally {
        /// The unit.
        unit: UnitId,
    },
}

/// Why a unit moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// A player's move.
    Voluntary,
    /// A forced march.
    ForcedMarch,
    /// A charge (ends in contact under a battle command).
    Charge,
    /// Compulsory regrouping (MOV-REG-03).
    Regroup,
    /// Flight away from the fighting (MOV-REG-02).
    Flight,
}

/// One factor of a cost or an allowance: a multiplier and the rule behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Factor {
    /// The rule.
    pub rule: RuleId,
    /// What it is ("mud", "uphill", "sideways", "forced march").
    pub what: String,
    /// The multiplier.
    pub value: f64,
}

impl Factor {
    /// A factor.
    pub fn new(rule: &'static str, what: impl Into<String>, value: f64) -> Factor {
        Factor { rule: RuleId::new(rule), what: what.into(), value }
    }
}

/// One item of a move's cost, for the log and the referee. A cost by distance gives the
/// inches measured and its factors (cost = inches × every factor); a fixed cost (a change of
/// facing, an obstacle's surcharge, stands turning as they form) gives neither.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostItem {
    /// The rule applied.
    pub rule: RuleId,
    /// What was paid for.
    pub what: String,
    /// Inches of allowance.
    pub cost: f64,
    /// The leg of the move (the index into the move's legs) it belongs to.
    #[serde(default)]
    pub leg: usize,
    /// Inches measured, for a cost by distance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inches: Option<f64>,
    /// The multipliers of a cost by distance, each with its rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub factors: Vec<Factor>,
}

impl CostItem {
    /// A fixed cost.
    pub fn fixed(rule: &'static str, what: impl Into<String>, cost: f64) -> CostItem {
        CostItem {
            rule: RuleId::new(rule),
            what: what.into(),
            cost,
            leg: 0,
            inches: None,
            factors: Vec::new(),
        }
    }

    /// The item in words, with its parts: `advance: 3.00" × mud ×2 [MOV-TER-03] × forward ×1
    /// [MOV-DIR-01] = 6.00"`, or `change of facing to the right 1.00" [MOV-FACE-02]`.
    pub fn describe(&self) -> String {
        match self.inches {
            Some(inches) => {
                let mut s = format!("{}: {inches:.2}\"", self.what);
                for f in &self.factors {
                    s.push_str(&format!(" × {} ×{} [{}]", f.what, fmt_factor(f.value), f.rule));
                }
                s.push_str(&format!(" = {:.2}\"", self.cost));
                s
            }
            None => format!("{} {:.2}\" [{}]", self.what, self.cost, self.rule),
        }
    }
}

/// A multiplier in words: `2`, `0.5`, `1.333`.
pub fn fmt_factor(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What kind of step a leg of a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LegKind {
    /// A straight advance of the reference point.
    Advance,
    /// A change of facing.
    Face,
    /// A wheel about a front corner.
    Wheel,
    /// A change of formation.
    Form,
}

/// One step of a move as it was carried out, with its cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Leg {
    /// The kind of step.
    pub kind: LegKind,
    /// The pose before it.
    pub from: Pose,
    /// The pose after it.
    pub to: Pose,
    /// Inches measured: the reference point's travel (an advance), the outside of the turn (a
    /// wheel, MOV-WHEEL-03), the farthest stand's path (a change of formation, MOV-FORM-12);
    /// nothing for a change of facing.
    pub measured: f64,
    /// Inches of allowance it cost (the sum of its items).
    pub cost: f64,
}

/// How an allowance was made: the rate of the unit's slowest stand (or its own rate, or its
/// piece's) times every factor that applies (MOV-GEN-02).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AllowanceBasis {
    /// The rate, in inches.
    pub base: f64,
    /// Where the rate comes from, in words.
    pub what: String,
    /// The rules that give the rate.
    pub rules: Vec<RuleId>,
    /// The factors (circle ⅓, forced march ×2, charge 4/3), each with its rule.
    pub factors: Vec<Factor>,
}

impl AllowanceBasis {
    /// The allowance: the base times every factor.
    pub fn value(&self) -> f64 {
        self.factors.iter().fold(self.base, |a, f| a * f.value)
    }

    /// In words, with its parts.
    pub fn describe(&self) -> String {
        let rules: Vec<&str> = self.rules.iter().map(|r| r.as_str()).collect();
        let mut s = format!("{} {}\" [{}]", self.what, fmt_factor(self.base), rules.join(", "));
        for f in &self.factors {
            s.push_str(&format!(" × {} ×{} [{}]", f.what, fmt_factor(f.value), f.rule));
        }
        s
    }
}

/// The depth comparison of a unit in melee, for the log (MOV-DEPTH-01..05, MOV-R-17).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthInfo {
    /// The bonus (0 or the flat +1).
    pub bonus: i32,
    /// The unit's ranks.
    pub ranks: u32,
    /// The deepest enemy in front contact.
    pub enemy_ranks: u32,
    /// Why.
    pub reason: String,
    /// The rule.
    pub rule: RuleId,
}

/// A change to the state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A side's movement phase begins.
    PhaseStarted {
        /// The side.
        side: Side,
        /// The turn.
        turn: u32,
    },
    /// A unit moved.
    Moved {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// Why.
        kind: MoveKind,
        /// The pose before.
        from: Pose,
        /// The pose after.
        to: Pose,
        /// The reference point's path.
        path: Vec<Point>,
        /// Inches of allowance spent.
        cost: f64,
        /// The allowance.
        allowance: f64,
        /// What was paid for.
        items: Vec<CostItem>,
        /// The steps as carried out, each with its poses and cost.
        #[serde(default)]
        legs: Vec<Leg>,
        /// How the allowance was made.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        basis: Option<Box<AllowanceBasis>>,
        /// Allowance left at the end and lost (MOV-GEN-04); none when it may still be spent
        /// forming up after regrouping (MOV-REG-10).
        #[serde(default)]
        lost: f64,
        /// A note (stopped at contact, truncated…).
        note: String,
        /// After a formation change, the old index of the stand in each new place.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reorder: Option<Vec<usize>>,
        /// The rules applied.
        rules: Vec<RuleId>,
    },
    /// A discipline check (T6).
    DisciplineCheck {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// The die.
        roll: Roll,
        /// The target.
        target: u8,
        /// Passed.
        passed: bool,
    },
    /// A forced march refused by a failed check: the unit may still move normally (MOV-R-28).
    ForcedMarchFailed {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
    },
    /// Forced-march attrition (MOV-FM-05).
    Attrition {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// EP lost by each stand.
        per_stand: i32,
        /// EP of each stand after.
        after: Vec<i32>,
    },
    /// The exhaustion roll (MOV-FM-06).
    ExhaustionRoll {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// The die.
        roll: Roll,
        /// Exhausted on this or higher.
        from: u8,
        /// Exhausted.
        exhausted: bool,
        /// The turn it may not move in.
        barred_turn: u32,
    },
    /// Exhaustion clears at the end of the barred phase (MOV-R-32).
    ExhaustionCleared {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
    },
    /// A piece starts to limber or unlimber (MOV-LIMB-01).
    LimberStarted {
        /// The piece.
        unit: UnitId,
        /// The piece's name, for the log.
        #[serde(default)]
        name: String,
        /// Limbering (true) or unlimbering.
        limbering: bool,
    },
    /// A piece's limbering or unlimbering is done.
    LimberDone {
        /// The piece.
        unit: UnitId,
        /// The piece's name, for the log.
        #[serde(default)]
        name: String,
        /// Now limbered.
        limbered: bool,
    },
    /// A piece shoots (resolved by hand).
    Shot {
        /// The piece.
        unit: UnitId,
        /// The piece's name, for the log.
        #[serde(default)]
        name: String,
    },
    /// A morale state set by the umpire.
    MoraleSet {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// The new state.
        state: MoraleState,
    },
    /// EP set by the umpire.
    EnduranceSet {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// EP of each stand after (stands at 0 are removed).
        after: Vec<i32>,
    },
    /// Stands at 0 EP leave the unit (MOV-R-27).
    StandsLost {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// Indices of the stands removed.
        stands: Vec<usize>,
        /// The pose after closing up.
        pose: Pose,
    },
    /// A unit leaves the table.
    Removed {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// Why.
        reason: String,
        /// The rule.
        rule: RuleId,
    },
    /// A unit is driven off by a morale result.
    DrivenOff {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
    },
    /// A unit's separation changes.
    Separation {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// Now separated.
        separated: bool,
        /// Why.
        reason: String,
        /// The rule.
        rule: RuleId,
    },
    /// A unit is held or released.
    Held {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// Held.
        held: bool,
    },
    /// A morale check (T6, with the depth bonus).
    MoraleChecked {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// The die.
        roll: Roll,
        /// The modifiers, by name.
        modifiers: Vec<(String, i32)>,
        /// Roll plus modifiers.
        total: i32,
        /// The target.
        target: i32,
        /// Passed.
        passed: bool,
        /// The depth comparison, when the unit is in melee contact (MOV-DEPTH).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        depth: Option<DepthInfo>,
        /// Why the check was taken: the umpire's command, melee contact (`MOV-GAME-MELEE`) or
        /// a driven-off unit's test to rally (`MOV-GAME-RALLY`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cause: Option<RuleId>,
    },
    /// The result of a failed morale check in melee (`MOV-GAME-MELEE`, NIS): the unit drops one
    /// morale state and, shaken or Broken, is driven off (MOV-REG-02).
    MeleeResult {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
        /// Its morale state before.
        from: MoraleState,
        /// Its morale state after.
        to: MoraleState,
        /// Driven off by it.
        driven_off: bool,
    },
    /// A unit rallies.
    Rallied {
        /// The unit.
        unit: UnitId,
        /// The unit's name, for the log.
        #[serde(default)]
        name: String,
    },
    /// A side's movement phase ends.
    PhaseEnded {
        /// The side.
        side: Side,
    },
    /// The battle is over.
    BattleOver {
        /// Why.
        reason: String,
    },
}

/// A facing as whole compass degrees, with no "-0".
fn bearing(f: tabletop::geometry::Facing) -> f64 {
    let b = f.bearing_degrees().round().rem_euclid(360.0);
    if b == 0.0 { 0.0 } else { b }
}

impl Event {
    /// The unit the event is about and its name slot, if it is about one.
    pub fn unit_name_mut(&mut self) -> Option<(UnitId, &mut String)> {
        match self {
            Event::Moved { unit, name, .. } => Some((*unit, name)),
            Event::DisciplineCheck { unit, name, .. } => Some((*unit, name)),
            Event::ForcedMarchFailed { unit, name, .. } => Some((*unit, name)),
            Event::Attrition { unit, name, .. } => Some((*unit, name)),
            Event::ExhaustionRoll { unit, name, .. } => Some((*unit, name)),
            Event::ExhaustionCleared { unit, name, .. } => Some((*unit, name)),
            Event::LimberStarted { unit, name, .. } => Some((*unit, name)),
            Event::LimberDone { unit, name, .. } => Some((*unit, name)),
            Event::Shot { unit, name, .. } => Some((*unit, name)),
            Event::MoraleSet { unit, name, .. } => Some((*unit, name)),
            Event::EnduranceSet { unit, name, .. } => Some((*unit, name)),
            Event::StandsLost { unit, name, .. } => Some((*unit, name)),
            Event::Removed { unit, name, .. } => Some((*unit, name)),
            Event::DrivenOff { unit, name, .. } => Some((*unit, name)),
            Event::Separation { unit, name, .. } => Some((*unit, name)),
            Event::Held { unit, name, .. } => Some((*unit, name)),
            Event::MoraleChecked { unit, name, .. } => Some((*unit, name)),
            Event::MeleeResult { unit, name, .. } => Some((*unit, name)),
            Event::Rallied { unit, name, .. } => Some((*unit, name)),
            _ => None,
        }
    }

    /// Fills in the names of the units the events are about, from the state they start from.
    pub fn name_all(events: &mut [Event], state: &State) {
        for e in events {
            if let Some((u, name)) = e.unit_name_mut()
                && let Some(unit) = state.units.get(u)
            {
                name.clone_from(&unit.name);
            }
        }
    }
}

impl Narrate for Event {
    fn rules(&self) -> Vec<RuleId> {
        match self {
            Event::PhaseStarted { .. } | Event::PhaseEnded { .. } => {
                vec![RuleId::new("MOV-GEN-01")]
            }
            Event::Moved { rules, .. } => rules.clone(),
            Event::DisciplineCheck { roll, .. } => {
                vec![RuleId::new("MOV-FM-01"), roll.rule.clone()]
            }
            Event::ForcedMarchFailed { .. } => vec![RuleId::new("MOV-FM-01")],
            Event::Attrition { .. } => vec![RuleId::new("MOV-FM-05")],
            Event::ExhaustionRoll { .. } => vec![RuleId::new("MOV-FM-06")],
            Event::ExhaustionCleared { .. } => vec![RuleId::new("MOV-FM-07")],
            // The turn of a change is the piece's whole turn: it neither moves nor shoots
            // (MOV-LIMB-01..03, MOV-R-19).
            Event::LimberStarted { .. } => vec![
                RuleId::new("MOV-LIMB-01"),
                RuleId::new("MOV-LIMB-02"),
                RuleId::new("MOV-LIMB-03"),
            ],
            Event::LimberDone { .. } => vec![RuleId::new("MOV-LIMB-01")],
            Event::Shot { .. } => vec![RuleId::new("MOV-LIMB-03")],
            Event::MoraleSet { .. } | Event::DrivenOff { .. } | Event::Rallied { .. } => {
                vec![RuleId::new("MOV-REG-04")]
            }
            Event::EnduranceSet { .. } | Event::StandsLost { .. } => vec![RuleId::new("MOV-FM-05")],
            Event::Removed { rule, .. } | Event::Separation { rule, .. } => vec![rule.clone()],
            Event::Held { .. } => vec![RuleId::new("MOV-REG-03")],
            Event::MoraleChecked { depth, cause, modifiers, .. } => {
                let mut r = vec![RuleId::new("MOV-R-21")];
                if let Some(c) = cause {
                    r.push(c.clone());
                }
                if let Some(d) = depth {
                    r.push(d.rule.clone());
                    if d.bonus != 0 {
                        // A flat +1, however many ranks deeper (MOV-DEPTH-05).
                        r.push(RuleId::new("MOV-DEPTH-05"));
                    }
                    if d.rule.as_str() == "MOV-DEPTH-04" {
                        // A mass never receives the bonus (MOV-FORM-09).
                        r.push(RuleId::new("MOV-FORM-09"));
                    }
                }
                let _ = modifiers;
                r
            }
            Event::MeleeResult { driven_off, .. } => {
                let mut r = vec![RuleId::new("MOV-GAME-MELEE")];
                if *driven_off {
                    r.push(RuleId::new("MOV-REG-02"));
                }
                r
            }
            Event::BattleOver { .. } => vec![RuleId::new("MOV-GEN-01")],
        }
    }

    fn describe(&self) -> String {
        match self {
            Event::PhaseStarted { side, turn } => format!("turn {turn}: {side} movement phase"),
            Event::PhaseEnded { side } => format!("{side} ends its movement phase"),
            Event::Moved {
                unit: _,
                name,
                kind,
                cost,
                allowance,
                to,
                note,
                items,
                basis,
                lost,
                ..
            } => {
                let parts: Vec<String> = items.iter().map(CostItem::describe).collect();
                let mut tail = String::new();
                if let Some(b) = basis {
                    tail.push_str(&format!("; allowance {}", b.describe()));
                }
                if *lost > 1e-9 {
                    tail.push_str(&format!("; {lost:.2}\" left is lost [MOV-GEN-04]"));
                }
                format!(
                    "{name} {} to ({:.2}, {:.2}) facing {:.0}°, {} : {:.2}\" of {:.2}\"{}{}{}",
                    match kind {
                        MoveKind::Voluntary => "moves",
                        MoveKind::ForcedMarch => "force-marches",
                        MoveKind::Charge => "charges",
                        MoveKind::Regroup => "regroups",
                        MoveKind::Flight => "flees",
                    },
                    to.at.x,
                    to.at.y,
                    bearing(to.facing),
                    to.formation,
                    cost,
                    allowance,
                    if parts.is_empty() {
                        String::new()
                    } else if parts.len() == 1 {
                        format!(" ({})", parts[0])
                    } else {
                        format!(" ({}) [MOV-GEN-03]", parts.join("; "))
                    },
                    tail,
                    if note.is_empty() { String::new() } else { format!("; {note}") }
                )
            }
            Event::DisciplineCheck { unit: _, name, roll, target, passed } => format!(
                "{name} discipline check: {roll} against {target}+, {}",
                if *passed { "passed" } else { "failed" }
            ),
            Event::ForcedMarchFailed { unit: _, name } => {
                format!("{name} may not forced-march this phase; it may still move normally")
            }
            Event::Attrition { unit: _, name, per_stand, after } => {
                format!(
                    "{name}: forced-march attrition, each stand loses {per_stand} EP (now {after:?})"
                )
            }
            Event::ExhaustionRoll { unit: _, name, roll, from, exhausted, barred_turn } => format!(
                "{name} exhaustion: {roll}, exhausted on {from}+: {}",
                if *exhausted {
                    format!("exhausted, may not move in turn {barred_turn}")
                } else {
                    "not exhausted".to_string()
                }
            ),
            Event::ExhaustionCleared { unit: _, name } => format!("{name} is no longer exhausted"),
            Event::LimberStarted { unit: _, name, limbering } => format!(
                "{name} {} (neither moves nor shoots this turn)",
                if *limbering { "limbers" } else { "unlimbers" }
            ),
            Event::LimberDone { unit: _, name, limbered } => {
                format!("{name} is now {}", if *limbered { "limbered" } else { "unlimbered" })
            }
            Event::Shot { unit: _, name } => format!("{name} shoots (resolve by hand)"),
            Event::MoraleSet { unit: _, name, state } => format!("umpire: {name} is now {state}"),
            Event::EnduranceSet { unit: _, name, after } => {
                format!("umpire: {name} EP now {after:?}")
            }
            Event::StandsLost { unit: _, name, stands, .. } => {
                format!("{name} loses {} stand(s) at 0 EP", stands.len())
            }
            Event::Removed { unit: _, name, reason, .. } => {
                format!("{name} leaves the table: {reason}")
            }
            Event::DrivenOff { unit: _, name } => format!("{name} is driven off and separated"),
            Event::Separation { unit: _, name, separated, reason, .. } => format!(
                "{name} is {}: {reason}",
                if *separated { "separated from its army" } else { "no longer separated" }
            ),
            Event::Held { unit: _, name, held } => {
                format!("{name} is {}", if *held { "held in place" } else { "released" })
            }
            Event::MoraleChecked {
                unit: _,
                name,
                roll,
                modifiers,
                total,
                target,
                passed,
                depth,
                cause,
            } => {
                let m: Vec<String> = modifiers.iter().map(|(n, v)| format!("{n} {v:+}")).collect();
                let why = match cause.as_ref().map(|c| c.as_str()) {
                    Some("MOV-GAME-MELEE") => " in melee",
                    Some("MOV-GAME-RALLY") => " to rally",
                    _ => "",
                };
                let depth = match depth {
                    Some(d) if d.bonus == 0 => {
                        format!("; no depth bonus: {} [{}]", d.reason, d.rule)
                    }
                    _ => String::new(),
                };
                format!(
                    "{name} morale check{why}: {roll} {} = {total} against {target}: {}{depth}",
                    m.join(" "),
                    if *passed { "passed" } else { "failed" }
                )
            }
            Event::MeleeResult { unit: _, name, from, to, driven_off } => format!(
                "{name} fails in melee: {from} to {to}{}",
                if *driven_off { ", driven off" } else { "" }
            ),
            Event::Rallied { unit: _, name } => format!("{name} rallies"),
            Event::BattleOver { reason } => format!("the battle is over: {reason}"),
        }
    }
}
