//! The game's state as set up from a scenario, and the first stage of a battle: each side
//! writing its orders in secret before the first period (WRG-ORD-01, WRG-ORD-03), and what
//! each viewer may see of them (a side never sees the other's orders).
//!
//! The period itself (movement, shooting, hand-to-hand, after combat, tests) is built on the
//! mechanics modules in a later stage; see `docs/rulings/wrg1969.md`.

use crate::Data;
use crate::after::GeneralRisk;
use crate::model::*;
use crate::orders::{Objective, Order, Standing, Verb, check_order};
use crate::scenario::{Scenario, TerrainObjective, eye, sees_area};
use crate::unit::Block;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::geometry::{Facing, Point};
use tabletop::rules::{Refusal, Side, Viewer};
use tabletop::terrain::SharedTable;

/// A unit in play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Its id: its index in the state's list.
    pub id: u16,
    /// Its side.
    pub side: Side,
    /// Its name.
    pub name: Arc<str>,
    /// Its type.
    pub troop: TroopType,
    /// Regular or barbarian.
    pub status: Status,
    /// Its reaction class.
    pub class: ReactionClass,
    /// Its hand-to-hand class.
    pub melee: MeleeClass,
    /// Its missile weapon.
    pub missile: Option<MissileWeapon>,
    /// Figures at the start of the battle.
    pub start_figures: u32,
    /// Its figures now, in ranks and files.
    pub block: Block,
    /// Men lost but not yet a whole figure (WRG-CAS-03).
    pub carried: u32,
    /// Its standard.
    pub at: Point,
    /// Its facing.
    pub facing: Facing,
    /// Its order, or waiting.
    pub standing: Standing,
    /// A new order that has reached it: the order and the first period it acts on it
    /// (WRG-CHORD-02, -09).
    pub incoming: Option<(Order, u32)>,
    /// How that order came (WRG-CHORD-02, -09).
    #[serde(default)]
    pub incoming_by: Option<Bearer>,
    /// How it moved this period (WRG-R-13).
    pub motion: Motion,
    /// What disorganises it now (WRG-DIS).
    pub causes: Vec<crate::combat::Cause>,
    /// The causes it had when this period began: those not raised again expire at the next
    /// (WRG-DIS-02).
    #[serde(default)]
    pub causes_at_start: Vec<crate::combat::Cause>,
    /// Inches its standard moved this period (WRG-TAC-04, WRG-FIRE-05).
    pub moved: f64,
    /// Inches its standard moved last period: under 1" it stood (WRG-R-13, -27).
    #[serde(default)]
    pub moved_last: f64,
    /// It carries shields (WRG-SCALE-14).
    pub shield: bool,
    /// Cavalry armoured head to foot (WRG-SHLD-03).
    pub fully_armoured: bool,
    /// The kind of chariot, for chariots (WRG-FIRE-14).
    pub chariot: Option<ChariotKind>,
    /// Periods of its present fight so far (WRG-AFTER-04).
    pub fight_periods: u32,
    /// Push-backs in a row (WRG-AFTER-06).
    pub pushed_back: u32,
    /// A multi-period reaction result being carried out (WRG-RRES-10).
    pub running: Option<crate::reaction::Running>,
    /// It has taken its first test within 15" of the enemy (WRG-RT-02).
    pub tested_within_range: bool,
    /// Its owner must write it a new order at once (WRG-RRES-05).
    pub awaiting_order: bool,
    /// An Asiatic levy (ordinary reaction dice, WRG-M-16).
    pub levy: bool,
    /// Broken and running: how long (WRG-ROUT).
    #[serde(default)]
    pub rout: Option<Rout>,
    /// Pursuing routers (WRG-PURS).
    #[serde(default)]
    pub pursuit: Option<Pursuit>,
    /// Off the table (WRG-LEAVE).
    #[serde(default)]
    pub away: Option<Away>,
    /// Enemy figures that shot at it this period (WRG-RFAC-16), kept to the end-of-period
    /// tests.
    #[serde(default)]
    pub shot_at: u32,
    /// Where it broke, when it broke (or was sent off by its below-half test) this period: its
    /// friends within 15" of there test (WRG-RT-05).
    #[serde(default)]
    pub broke_at: Option<Point>,
    /// The causes of disorganisation the log has told of (WRG-DIS-01, -02).
    #[serde(default)]
    pub causes_told: Vec<crate::combat::Cause>,
    /// A fall-back the after-combat rules impose on it next period (WRG-AFTER-02, -04).
    #[serde(default)]
    pub falling_back: Option<FallingBack>,
}

/// A fall-back after combat, made in the next period's movement: cavalry repulsed by
/// infantry rally 10" back, disorganised and unable to countercharge; cavalry fights
/// undecided after 3 periods both rally 5" back (WRG-AFTER-02, -04, WRG-DIS-06, -14).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FallingBack {
    /// How far, inches.
    pub inches: f64,
    /// Repulsed by infantry (WRG-AFTER-02); otherwise the mutual fall-back (WRG-AFTER-04).
    pub repulsed: bool,
}

impl Unit {
    /// Whether the unit is on the table with figures left.
    pub fn on_table(&self) -> bool {
        self.block.figures > 0 && self.away.is_none()
    }

    /// The unit leaves the table in `period` where it stands, to throw for its return or gone
    /// for good by `why`; it pursues no more (WRG-LEAVE-01, -05, WRG-PURS-06). A unit already
    /// off stays as it is.
    pub fn leave_table(&mut self, why: crate::after::Left, period: u32) {
        if self.away.is_none() {
            self.away = Some(Away {
                state: crate::after::left_table(why),
                at: self.at,
                facing: self.facing,
                left_in: period,
            });
        }
        self.pursuit = None;
    }
}

/// A broken unit running (WRG-ROUT-01 .. -03).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rout {
    /// Periods it has run, this one included once it has moved (k in WRG-R-22).
    pub periods: u32,
    /// The period it broke.
    pub broke_in: u32,
}

/// A unit pursuing routers (WRG-PURS-01 .. -04).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pursuit {
    /// The routers.
    pub target: u16,
    /// Periods pursued so far (k in WRG-R-22).
    pub periods: u32,
    /// Where the pursuit began.
    pub from: Point,
    /// The farthest it has gone from there, inches.
    pub farthest: f64,
}

/// A unit off the table (WRG-LEAVE-01 .. -05, WRG-PURS-06, WRG-RT-09).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Away {
    /// Its return throws or delay, or gone for good.
    pub state: crate::after::OffTable,
    /// Where it left, and where it comes back.
    pub at: Point,
    /// Its facing when it left.
    pub facing: Facing,
    /// The period it left.
    pub left_in: u32,
}

/// How a unit moved this period, as the reaction factors see it (WRG-R-13).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Motion {
    /// It stood, or moved less than 1".
    #[default]
    Still,
    /// It moved 1" or more forward.
    Advanced,
    /// It charged.
    Charged,
    /// It retired, retreated or evaded 1" or more.
    Retired,
    /// It is broken and running.
    Routing,
}

/// A General in play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct General {
    /// His side.
    pub side: Side,
    /// His figure's type.
    pub troop: TroopType,
    /// Where he is.
    pub at: Point,
    /// His facing.
    pub facing: Facing,
    /// The unit he has joined, if any (WRG-CHORD-10).
    pub attached: Option<u16>,
    /// His share of losses (WRG-GEN-01).
    pub risk: GeneralRisk,
    /// Regular or barbarian: his dice when he fights alone (WRG-M-01).
    pub status: Status,
    /// His hand-to-hand class, when he fights alone (WRG-M-01).
    pub melee: MeleeClass,
    /// Inches he rode this period (WRG-TAC-04).
    #[serde(default)]
    pub rode: f64,
    /// He has ridden this trip's period at the gallop; a trip ends with a period he does not
    /// ride (WRG-CHORD-03, -04, WRG-R-42).
    #[serde(default)]
    pub galloped: bool,
}

/// How a new order reached a unit (WRG-CHORD-02, -09).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bearer {
    /// A messenger.
    Messenger,
    /// A pre-arranged signal.
    Signal,
}

/// The state of a battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The scenario's name.
    pub name: String,
    /// The table (shared, never changed in play).
    pub table: SharedTable,
    /// The period: 0 while orders are being written.
    pub period: u32,
    /// The time limit.
    pub limit: u32,
    /// Terrain objectives.
    pub objectives: Vec<TerrainObjective>,
    /// Every unit, red's first.
    pub units: Vec<Unit>,
    /// Red's and blue's Generals.
    pub generals: Vec<General>,
    /// Which sides have committed their written orders.
    pub committed: [bool; 2],
    /// Messengers riding (WRG-CHORD-03).
    pub messengers: Vec<Messenger>,
    /// Messengers waiting by each General (red, blue).
    pub free_messengers: [u32; 2],
    /// Each side's pre-arranged signals, with unit ids (WRG-CHORD-07).
    pub signals: Vec<Vec<(Order, Vec<u16>)>>,
    /// Each side's plan for this period, once made (secret until the period is resolved).
    #[serde(default)]
    pub plans: [Option<crate::plan::Plan>; 2],
    /// Figures each side holds prisoner (WRG-AFTER-07, WRG-CHAMP-10).
    #[serde(default)]
    pub prisoners: [u32; 2],
    /// The doubtful readings this battle is played with (WRG-R-45): variant and option.
    #[serde(default)]
    pub variants: Vec<(String, String)>,
}

/// Where a messenger is going.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Errand {
    /// Carrying an order to a unit.
    Out,
    /// Riding back to the General.
    Back,
}

/// A messenger on his way (WRG-CHORD-02, -03, -05).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Messenger {
    /// His side.
    pub side: Side,
    /// The order he carries.
    pub order: Order,
    /// The unit it is for.
    pub unit: u16,
    /// Where he is.
    pub at: Point,
    /// The first period he rides (the one after the General dictated).
    pub leaves: u32,
    /// He has used this trip's gallop.
    pub galloped: bool,
    /// Out or back.
    pub errand: Errand,
    /// Men of his figure lost in fights on the way (he falls at 20, WRG-CHORD-05).
    #[serde(default)]
    pub wounds: u32,
}

/// Sets up the state from a scenario: the units as deployed, with the orders written in the
/// file, and no side yet committed.
pub fn setup(scenario: &Scenario) -> State {
    // Orders in a scenario name enemy units by their place in the enemy's list; in play,
    // units are numbered across both sides, red's first.
    let offsets: Vec<(Side, u16)> = {
        let mut o = 0u16;
        scenario
            .sides
            .iter()
            .map(|s| {
                let here = (s.side, o);
                o += s.units.len() as u16;
                here
            })
            .collect()
    };
    let enemy_offset = |side: Side| offsets.iter().find(|(s, _)| *s != side).map_or(0, |(_, o)| *o);
    let globalise = |side: Side, o: &Order| -> Order {
        let mut o = o.clone();
        if let Verb::Attack { unit } | Verb::Skirmish { unit } = &mut o.verb {
            *unit += enemy_offset(side);
        }
        o
    };
    let mut units = Vec::new();
    let mut generals = Vec::new();
    for s in &scenario.sides {
        for p in &s.units {
            let u = &s.army.units[p.index];
            units.push(Unit {
                id: units.len() as u16,
                side: s.side,
                name: Arc::from(u.name.as_str()),
                troop: u.troop,
                status: u.status,
                class: u.class,
                melee: u.melee,
                missile: u.missile,
                start_figures: u.figures,
                block: p.block,
                carried: 0,
                at: p.at,
                facing: p.facing,
                standing: match &p.order {
                    Some(o) => Standing::Active { order: globalise(s.side, o) },
                    None => Standing::Waiting,
                },
                incoming: None,
                incoming_by: None,
                motion: Motion::Still,
                causes: Vec::new(),
                causes_at_start: Vec::new(),
                moved: 0.0,
                moved_last: 0.0,
                shield: u.shield,
                fully_armoured: u.fully_armoured,
                chariot: u.chariot,
                fight_periods: 0,
                pushed_back: 0,
                running: None,
                tested_within_range: false,
                awaiting_order: false,
                levy: u.levy,
                rout: None,
                pursuit: None,
                away: None,
                shot_at: 0,
                broke_at: None,
                causes_told: Vec::new(),
                falling_back: None,
            });
        }
        generals.push(General {
            side: s.side,
            troop: s.army.general.troop,
            at: s.general.0,
            facing: s.general.1,
            attached: None,
            risk: GeneralRisk::default(),
            status: s.army.general.status,
            melee: s.army.general.melee,
            rode: 0.0,
            galloped: false,
        });
    }
    let mut offset = 0u16;
    let mut signals = Vec::new();
    let mut free_messengers = [0u32; 2];
    for s in &scenario.sides {
        signals.push(
            s.signals
                .iter()
                .map(|g| {
                    (
                        globalise(s.side, &g.order),
                        g.units.iter().map(|i| offset + *i as u16).collect(),
                    )
                })
                .collect(),
        );
        free_messengers[s.side.index()] = s.army.messengers;
        offset += s.units.len() as u16;
    }
    State {
        messengers: Vec::new(),
        free_messengers,
        signals,
        name: scenario.name.clone(),
        table: SharedTable::new(scenario.table.clone()),
        period: 0,
        limit: scenario.periods,
        objectives: scenario.objectives.clone(),
        units,
        generals,
        committed: [false, false],
        plans: [None, None],
        prisoners: [0, 0],
        variants: scenario.variants.clone(),
    }
}

/// One written order: a unit of the side and its order (none: it waits).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    /// The unit's id.
    pub unit: u16,
    /// Its order.
    pub order: Option<Order>,
}

/// Checks a side's written orders before the battle: only before the first period, once per
/// side, only for its own units, features the unit can see from where it stands, enemies that
/// exist (WRG-ORD-01, WRG-ORD-03, WRG-ORD-11, WRG-ORD-14).
pub fn check_written(state: &State, side: Side, orders: &[Written]) -> Result<(), Refusal> {
    if state.period > 0 {
        return Err(Refusal::new(
            "WRG-ORD-01",
            "orders are written before the battle; later ones go by messenger or signal",
        ));
    }
    if state.committed[side.index()] {
        return Err(Refusal::new("WRG-ORD-01", format!("{side} has already written its orders")));
    }
    for w in orders {
        let Some(u) = state.units.get(w.unit as usize) else {
            return Err(Refusal::new("WRG-ORD-14", format!("there is no unit {}", w.unit)));
        };
        if u.side != side {
            return Err(Refusal::new("WRG-ORD-01", format!("{} is not a {side} unit", u.name)));
        }
        if orders.iter().filter(|x| x.unit == w.unit).count() > 1 {
            return Err(Refusal::new("WRG-ORD-14", format!("{} is given two orders", u.name)));
        }
        let Some(order) = &w.order else { continue };
        let table = &state.table;
        check_order(order, u.troop, Some((table.width, table.height)), |id| {
            let i = table.areas.iter().position(|a| a.name == id)?;
            Some(sees_area(table, u.at, eye(u.troop), i))
        })?;
        if let Verb::Attack { unit } | Verb::Skirmish { unit } = order.verb {
            let enemy = state.units.get(unit as usize).is_some_and(|e| e.side != side);
            if !enemy {
                return Err(Refusal::new(
                    "WRG-ORD-14",
                    format!("unit {unit} is not an enemy unit"),
                ));
            }
        }
        if let Verb::Advance { to: Objective::Point { x, y } }
        | Verb::Retire { to: Objective::Point { x, y } } = &order.verb
            && !table.contains_point(Point::new(*x, *y))
        {
            return Err(Refusal::new("WRG-ORD-14", "the point is off the table"));
        }
    }
    Ok(())
}

/// Applies checked written orders: the named units take them, and the side is committed.
pub fn apply_written(state: &mut State, side: Side, orders: &[Written]) {
    for w in orders {
        if let Some(u) = state.units.get_mut(w.unit as usize) {
            u.standing = match &w.order {
                Some(o) => Standing::Active { order: o.clone() },
                None => Standing::Waiting,
            };
        }
    }
    state.committed[side.index()] = true;
}

/// The sides still to write their orders before the first period.
pub fn waiting(state: &State) -> Vec<Side> {
    if state.period > 0 {
        return vec![];
    }
    Side::BOTH.into_iter().filter(|s| !state.committed[s.index()]).collect()
}

/// A unit as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitView {
    /// Its id.
    pub id: u16,
    /// Its side.
    pub side: Side,
    /// Its name.
    pub name: Arc<str>,
    /// Its type.
    pub troop: TroopType,
    /// Its figures.
    pub figures: u32,
    /// Figures abreast.
    pub files: u32,
    /// Its standard.
    pub at: Point,
    /// Its facing in degrees.
    pub facing: f64,
    /// Its order: only for its own side and the umpire.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<Order>,
    /// Whether it has an order (known to its own side and the umpire only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_order: Option<bool>,
    /// Its missile weapon, if any.
    pub missile: Option<MissileWeapon>,
    /// Men lost but not yet a whole figure.
    pub carried: u32,
    /// Broken and running.
    pub routing: bool,
    /// Pursuing routers.
    pub pursuing: bool,
    /// Off the table.
    pub away: bool,
    /// A new order is on its way or being digested (its own side and the umpire only).
    pub incoming: bool,
    /// It awaits a new order from its side at once after its test (WRG-RRES-05; its own
    /// side and the umpire only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub awaiting_order: bool,
}

/// What a viewer sees.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The period.
    pub period: u32,
    /// The units.
    pub units: Vec<UnitView>,
    /// Which sides have committed their orders.
    pub committed: [bool; 2],
}

/// What `viewer` may see: a side sees its own orders and never the other's; spectators see no
/// orders; the umpire sees all.
pub fn view(state: &State, viewer: Viewer) -> View {
    let sees_orders = |s: Side| match viewer {
        Viewer::Umpire => true,
        Viewer::Side(v) => v == s,
        Viewer::Spectator => false,
    };
    View {
        period: state.period,
        committed: state.committed,
        units: state
            .units
            .iter()
            .map(|u| {
                let own = sees_orders(u.side);
                UnitView {
                    id: u.id,
                    side: u.side,
                    name: u.name.clone(),
                    troop: u.troop,
                    figures: u.block.figures,
                    files: u.block.files,
                    at: u.at,
                    facing: u.facing.bearing_degrees(),
                    order: if own { u.standing.order().cloned() } else { None },
                    has_order: own.then(|| u.standing.order().is_some()),
                    missile: u.missile,
                    carried: u.carried,
                    routing: u.rout.is_some(),
                    pursuing: u.pursuit.is_some(),
                    away: u.away.is_some(),
                    incoming: own
                        && (u.incoming.is_some()
                            || state
                                .messengers
                                .iter()
                                .any(|m| m.unit == u.id && m.errand == Errand::Out)),
                    awaiting_order: own && u.awaiting_order,
                }
            })
            .collect(),
    }
}

/// The points of every figure still on the table for a side, the General's included while he
/// lives (WRG-VIC-01, WRG-R-39).
pub fn remaining_points(data: &Data, state: &State, side: Side) -> u32 {
    let units: u32 = state
        .units
        .iter()
        .filter(|u| u.side == side && u.on_table())
        .map(|u| u.block.figures.saturating_mul(data.price(u.troop, u.status)))
        .fold(0u32, u32::saturating_add);
    let general = state
        .generals
        .iter()
        .filter(|g| g.side == side && !g.risk.fallen(data))
        .map(|_| data.general_price(Status::Regular))
        .sum::<u32>();
    units.saturating_add(general)
}

/// The ID of a side's General on the table and in the controls (his piece is not a unit).
pub fn general_piece(side: Side) -> String {
    format!("general-{side}")
}

/// The General of a side.
pub fn general(state: &State, side: Side) -> Option<&General> {
    state.generals.iter().find(|g| g.side == side)
}

/// Checks a new order dictated during the battle: the General must be alive and have a
/// messenger by him (unless he is with the unit), something he saw or heard must call for it,
/// and the order must be one the unit can be given from where it stands
/// (WRG-CHORD-01, -02, -05, -10, WRG-ORD-03).
pub fn check_dictate(
    data: &Data,
    state: &State,
    side: Side,
    unit: u16,
    order: &Order,
    events_seen: u32,
) -> Result<(), Refusal> {
    if state.period == 0 {
        return Err(Refusal::new("WRG-ORD-01", "before the battle, orders are written, not sent"));
    }
    let g = general(state, side)
        .ok_or_else(|| Refusal::new("WRG-CHORD-01", "the side has no General"))?;
    if g.risk.fallen(data) {
        return Err(Refusal::new(
            "WRG-CHORD-01",
            "the General has fallen: no new orders (WRG-M-10)",
        ));
    }
    crate::orders::may_issue(events_seen, false)?;
    let u = state
        .units
        .get(unit as usize)
        .filter(|u| u.side == side)
        .ok_or_else(|| Refusal::new("WRG-ORD-14", format!("there is no {side} unit {unit}")))?;
    if g.attached != Some(unit) && state.free_messengers[side.index()] == 0 {
        return Err(Refusal::new("WRG-CHORD-02", "no messenger is free to carry the order"));
    }
    let table = &state.table;
    check_order(order, u.troop, Some((table.width, table.height)), |id| {
        let i = table.areas.iter().position(|a| a.name == id)?;
        Some(sees_area(table, u.at, eye(u.troop), i))
    })
}

/// Applies a checked dictation: a unit the General is with takes the order at once
/// (WRG-CHORD-10); otherwise a messenger sets out next period (WRG-CHORD-06, WRG-R-07).
pub fn apply_dictate(state: &mut State, side: Side, unit: u16, order: &Order) {
    let Some(g) = state.generals.iter().find(|g| g.side == side) else { return };
    if g.attached == Some(unit) {
        // The C-in-C at its head: no messenger, no delay (WRG-CHORD-10).
        if let Some(u) = state.units.get_mut(unit as usize) {
            u.standing = Standing::Active { order: order.clone() };
            u.incoming = None;
        }
        return;
    }
    let at = g.at;
    state.free_messengers[side.index()] -= 1;
    state.messengers.push(Messenger {
        side,
        order: order.clone(),
        unit,
        at,
        leaves: state.period + 1,
        galloped: false,
        errand: Errand::Out,
        wounds: 0,
    });
}

/// Moves every messenger one period (see [`crate::riders::ride_messengers`]), returning what
/// the log tells of it (WRG-CHORD-02, -03, -06).
pub fn ride_messengers(data: &Data, state: &mut State) -> Vec<crate::report::Note> {
    crate::riders::ride_messengers(data, state)
}

/// Gives a pre-arranged signal from the General's standard: every unit it is for whose
/// standard is within 25" and can see him takes its order from the next period
/// (WRG-CHORD-08, -09). Returns the units reached.
pub fn give_signal(
    data: &Data,
    state: &mut State,
    side: Side,
    k: usize,
) -> Result<Vec<u16>, Refusal> {
    let (order, units) = state
        .signals
        .get(side.index())
        .and_then(|s| s.get(k))
        .cloned()
        .ok_or_else(|| Refusal::new("WRG-CHORD-07", format!("{side} has no signal {k}")))?;
    let g = general(state, side).ok_or_else(|| Refusal::new("WRG-CHORD-08", "no General"))?.clone();
    let rule = tabletop::terrain::DefaultSightRule { see_into: 3.0 };
    let acts = crate::orders::signal_acts_from(state.period);
    let signal = crate::orders::Signal { order: order.clone(), units: units.clone() };
    let mut reached = Vec::new();
    for u in state.units.iter_mut().filter(|u| u.side == side) {
        let sees = tabletop::terrain::line_of_sight(
            &state.table,
            u.at,
            eye(u.troop),
            g.at,
            eye(g.troop),
            &rule,
        );
        if crate::orders::signal_reaches(data, &signal, u.id, u.at.distance(g.at), sees) {
            u.incoming = Some((order.clone(), acts));
            u.incoming_by = Some(Bearer::Signal);
            reached.push(u.id);
        }
    }
    Ok(reached)
}

/// A unit breaks: it turns its back on the nearest enemy and runs from this period on, its
/// order closed and any reaction result or pursuit ended (WRG-ROUT-01, WRG-CHORD-12).
pub fn break_unit(data: &Data, state: &mut State, id: u16) -> Option<crate::report::Note> {
    break_unit_from(data, state, id, None)
}

/// A unit breaks with its back to `enemy` (the nearest enemy not running when `None`): it
/// runs from this period on, its order closed and any reaction result or pursuit ended
/// (WRG-ROUT-01, WRG-CHORD-12). Turning square to its old front, a unit deeper or wider one
/// way than the other steps off along its new heading as far as it must to stand clear of the
/// units about it; with no room for that, it turns about where it stands (WRG-R-08).
/// Returns the note of that step, if it took one.
#[must_use]
pub fn break_unit_from(
    data: &Data,
    state: &mut State,
    id: u16,
    enemy: Option<u16>,
) -> Option<crate::report::Note> {
    let period = state.period;
    let u = state.units.get(id as usize)?;
    // It turns its back on the enemy and runs, square to its old front, once (WRG-ROUT-01).
    let turn = u.rout.is_none().then(|| {
        let h = crate::after::rout_heading(state, id, enemy);
        let (w, d) = u.block.size(data, u.troop);
        let most = (w - d).abs() / 2.0 + 0.05;
        let clear = |p: Point, f: Facing| crate::move_phase::clear_at(data, state, id, p, f);
        let stepped = (0..=10).map(|k| u.at + h.vector() * (most * k as f64 / 10.0));
        // With no room to turn aside, it turns about where it stands (the same ground).
        stepped.map(|p| (h, p)).find(|&(h, p)| clear(p, h)).unwrap_or_else(|| {
            let about = u.facing.reversed();
            if clear(u.at, about) { (about, u.at) } else { (h, u.at) }
        })
    });
    let u = state.units.get_mut(id as usize)?;
    let mut step = None;
    if let Some((heading, at)) = turn {
        u.broke_at = Some(u.at);
        u.rout = Some(Rout { periods: 0, broke_in: period });
        u.facing = heading;
        if at.distance(u.at) > 1e-9 {
            step = Some((u.at, at));
        }
        u.at = at;
    }
    u.motion = Motion::Routing;
    u.running = None;
    u.pursuit = None;
    u.awaiting_order = false;
    u.standing.close(crate::orders::Closed::Broke);
    let (from, to) = step?;
    let u = &state.units[id as usize];
    let inches = from.distance(to);
    let text = format!(
        "{} turn to run and step off {}\" to stand clear",
        u.name,
        crate::report::number(inches)
    );
    let allowance =
        crate::report::Total::new("allowance").plus("WRG-R-08", "stepping clear", inches);
    let kind = crate::report::MoveKind::Rout;
    Some(crate::move_phase::moved_note(u, kind, (from, to), "WRG-ROUT-01", text, allowance))
}

/// Starts a new period: units whose new order acts now take it (WRG-CHORD-02, -09, -10);
/// returns what the log tells of it.
pub fn begin_period(state: &mut State) -> Vec<crate::report::Note> {
    state.period += 1;
    let p = state.period;
    for g in &mut state.generals {
        g.rode = 0.0;
    }
    let due: Vec<usize> = state
        .units
        .iter()
        .enumerate()
        // Routers take no order until they rally (WRG-ROUT-08); it waits for them.
        .filter(|(_, u)| {
            u.rout.is_none() && u.incoming.as_ref().is_some_and(|(_, from)| *from <= p)
        })
        .map(|(i, _)| i)
        .collect();
    let mut notes = Vec::with_capacity(due.len());
    for i in due {
        let u = &state.units[i];
        let Some((o, _)) = u.incoming.clone() else { continue };
        let rule = match u.incoming_by {
            Some(Bearer::Signal) => "WRG-CHORD-09",
            _ => "WRG-CHORD-02",
        };
        let mut n = crate::orders::taken_note(state, i as u16, &o, rule);
        if u.standing.order().is_some() {
            // The order it replaces is altered, and crossed out (WRG-CHORD-12).
            n = n.and("WRG-CHORD-12");
        }
        notes.push(n);
        let u = &mut state.units[i];
        u.standing = Standing::Active { order: o };
        u.incoming = None;
        u.incoming_by = None;
    }
    notes
}
