//! Written orders as a small structured vocabulary, and how they change: messengers, signals
//! and the General at the head of a unit (WRG-ORD-01 .. -14, WRG-CHORD-01 .. -12).

use crate::Data;
use crate::model::TroopType;
use serde::{Deserialize, Serialize};
use tabletop::geometry::Point;
use tabletop::rules::Refusal;

/// Where an order sends a unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Objective {
    /// A point on the table.
    Point {
        /// Inches.
        x: f64,
        /// Inches.
        y: f64,
    },
    /// A named terrain feature (it must be visible from the start, WRG-ORD-03).
    Feature {
        /// The feature's id in the scenario.
        id: String,
    },
    /// A compass bearing, in degrees (always allowed, WRG-ORD-03).
    Bearing {
        /// Degrees clockwise from north.
        degrees: f64,
    },
}

/// What an order tells a unit to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "verb")]
pub enum Verb {
    /// Advance to a point or feature, or along a bearing.
    Advance {
        /// Where.
        to: Objective,
    },
    /// Attack an enemy unit.
    Attack {
        /// The enemy unit's id.
        unit: u16,
    },
    /// Hold a position or feature.
    Hold {
        /// Where (its present place when absent).
        #[serde(default)]
        at: Option<Objective>,
    },
    /// Skirmish against a target (light troops, WRG-ORD-11).
    Skirmish {
        /// The enemy unit's id.
        unit: u16,
    },
    /// Evade whatever charges it.
    Evade,
    /// Wheel through an angle, then halt.
    Wheel {
        /// Degrees, positive to the right.
        degrees: f64,
    },
    /// Retire to a point or feature.
    Retire {
        /// Where.
        to: Objective,
    },
}

/// A formation an order may prescribe (WRG-M-08).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// Line.
    Line,
    /// Column.
    Column,
    /// Square.
    Square,
    /// Skirmish order (light troops).
    Skirmish,
}

/// A written order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Order {
    /// What to do.
    #[serde(rename = "action")]
    pub verb: Verb,
    /// The route, point by point (straight to the objective when empty, WRG-ORD-04).
    #[serde(default)]
    pub route: Vec<[f64; 2]>,
    /// The formation, if prescribed (any, when not, WRG-ORD-02).
    #[serde(default)]
    pub formation: Option<Formation>,
    /// The pace as a share of the normal move (full speed when absent, WRG-ORD-02).
    #[serde(default)]
    pub pace: Option<f64>,
    /// Forbids evading (WRG-ORD-09).
    #[serde(default)]
    pub no_evade: bool,
    /// Forbids countercharging (WRG-ORD-08).
    #[serde(default)]
    pub no_countercharge: bool,
    /// Restricts shooting (WRG-ORD-07).
    #[serde(default)]
    pub hold_fire: bool,
}

impl Order {
    /// An order with just a verb.
    pub fn new(verb: Verb) -> Order {
        Order {
            verb,
            route: vec![],
            formation: None,
            pace: None,
            no_evade: false,
            no_countercharge: false,
            hold_fire: false,
        }
    }

    /// The pace the unit moves at: full normal speed unless the order says (WRG-ORD-02).
    pub fn pace(&self) -> f64 {
        self.pace.unwrap_or(1.0)
    }

    /// The way points from the unit's position: the route, then the objective; straight to
    /// the objective when no route is given (WRG-ORD-04).
    pub fn way(&self, objective: Option<Point>) -> Vec<Point> {
        let mut out: Vec<Point> = self.route.iter().map(|p| Point::new(p[0], p[1])).collect();
        out.extend(objective);
        out
    }
}

/// The least pace an order may set, as a share of the normal move: one of the period's twenty
/// time steps (WRG-ORD-02).
pub const SLOWEST_PACE: f64 = 0.05;

/// The most points a written route may have (WRG-ORD-04).
pub const MAX_ROUTE: usize = 32;

/// Checks an order for a unit when it is written: features must be visible from the unit's
/// starting point, skirmishing is for light troops, numbers must be sane: finite, a wheel of
/// at most a whole turn, a pace of at least [`SLOWEST_PACE`], points on the table (`table`,
/// its width and height, when known) (WRG-ORD-02, WRG-ORD-03, WRG-ORD-11, WRG-ORD-14).
pub fn check_order(
    order: &Order,
    troop: TroopType,
    table: Option<(f64, f64)>,
    can_see: impl Fn(&str) -> Option<bool>,
) -> Result<(), Refusal> {
    let near_table = |x: f64, y: f64| {
        table.is_none_or(|(w, h)| (0.0..=w).contains(&x) && (0.0..=h).contains(&y))
    };
    let far = || Refusal::new("WRG-ORD-14", "the point is off the table");
    let feature = |o: &Objective| -> Result<(), Refusal> {
        match o {
            Objective::Feature { id } => match can_see(id) {
                None => Err(Refusal::new("WRG-ORD-14", format!("there is no feature `{id}`"))),
                Some(false) => Err(Refusal::new(
                    "WRG-ORD-03",
                    format!(
                        "the unit cannot see `{id}` from where it stands; give it a direction instead"
                    ),
                )),
                Some(true) => Ok(()),
            },
            Objective::Point { x, y } if !(x.is_finite() && y.is_finite()) => {
                Err(Refusal::new("WRG-ORD-14", "a point must be two finite numbers"))
            }
            Objective::Point { x, y } if !near_table(*x, *y) => Err(far()),
            Objective::Bearing { degrees } if !degrees.is_finite() => {
                Err(Refusal::new("WRG-ORD-14", "a bearing must be a finite number"))
            }
            _ => Ok(()),
        }
    };
    match &order.verb {
        Verb::Advance { to } | Verb::Retire { to } => feature(to)?,
        Verb::Hold { at: Some(at) } => feature(at)?,
        Verb::Skirmish { .. } if !troop.is_light() => {
            return Err(Refusal::new(
                "WRG-ORD-11",
                format!("only light troops skirmish, not {troop}"),
            ));
        }
        Verb::Wheel { degrees } if !degrees.is_finite() => {
            return Err(Refusal::new("WRG-ORD-14", "a wheel needs a finite angle"));
        }
        Verb::Wheel { degrees } if degrees.abs() > 360.0 => {
            return Err(Refusal::new(
                "WRG-ORD-14",
                format!("a wheel is at most a whole turn (360°), not {degrees:.0}°"),
            ));
        }
        _ => {}
    }
    if let Some(p) = order.pace
        && !(SLOWEST_PACE..=1.0).contains(&p)
    {
        return Err(Refusal::new(
            "WRG-ORD-02",
            format!("a pace is a share of the normal move, from {SLOWEST_PACE} to 1"),
        ));
    }
    if order.formation == Some(Formation::Skirmish) && !troop.is_light() {
        return Err(Refusal::new("WRG-ORD-11", "only light troops take skirmish order"));
    }
    if order.route.iter().any(|p| !(p[0].is_finite() && p[1].is_finite())) {
        return Err(Refusal::new("WRG-ORD-14", "route points must be finite numbers"));
    }
    if order.route.iter().any(|p| !near_table(p[0], p[1])) {
        return Err(far());
    }
    if order.route.len() > MAX_ROUTE {
        return Err(Refusal::new(
            "WRG-ORD-04",
            format!("a route has at most {MAX_ROUTE} points, not {}", order.route.len()),
        ));
    }
    Ok(())
}

/// Whether a unit may halt of its own accord: not while a forced reaction result or a forced
/// move after combat holds it; a halted unit keeps its order (WRG-ORD-05, WRG-ORD-06).
pub fn may_halt(forced: bool) -> Result<(), Refusal> {
    if forced {
        Err(Refusal::new(
            "WRG-ORD-05",
            "a unit under a forced reaction or after-combat move cannot halt",
        ))
    } else {
        Ok(())
    }
}

/// Whether missile troops may shoot at targets in front on their own initiative
/// (WRG-ORD-07).
pub fn shoots_at_will(order: Option<&Order>) -> bool {
    order.is_none_or(|o| !o.hold_fire)
}

/// Whether a unit may evade a charge: light infantry, light cavalry and chariots unless their
/// order forbids; light infantry must try to evade a cavalry charge (WRG-ORD-09,
/// WRG-MOVE-08). Returns (may, must).
pub fn evade_choice(
    data: &Data,
    troop: TroopType,
    order: Option<&Order>,
    charger: TroopType,
) -> (bool, bool) {
    let forbidden = order.is_some_and(|o| o.no_evade);
    let may = crate::moves::can_evade(data, troop) && !forbidden;
    let must = may && troop == TroopType::LightInfantry && charger.is_cavalry();
    (may, must)
}

/// Whether skirmishers may evade an enemy move that would reach them, charge or not
/// (WRG-ORD-12).
pub fn skirmisher_may_evade(
    data: &Data,
    troop: TroopType,
    order: Option<&Order>,
    would_reach: bool,
) -> bool {
    would_reach
        && matches!(order.map(|o| &o.verb), Some(Verb::Skirmish { .. }))
        && crate::moves::can_evade(data, troop)
}

/// Whether light infantry may charge cavalry: only cavalry standing still (WRG-ORD-10,
/// WRG-R-27).
pub fn light_infantry_may_charge(
    troop: TroopType,
    target: TroopType,
    target_standing: bool,
) -> Result<(), Refusal> {
    if troop == TroopType::LightInfantry && target.is_cavalry() && !target_standing {
        return Err(Refusal::new("WRG-ORD-10", "light infantry may attack only standing cavalry"));
    }
    Ok(())
}

/// A unit's order and its life (WRG-ORD-01, -13, WRG-CHORD-12).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Standing {
    /// Obeying an order.
    Active {
        /// The order.
        order: Order,
    },
    /// Without an order: it waits where it is (WRG-ORD-13).
    Waiting,
}

/// Why an order closes (WRG-CHORD-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Closed {
    /// Carried out.
    Completed,
    /// Replaced by another.
    Altered,
    /// Displaced by a reaction result.
    Displaced,
    /// The unit broke.
    Broke,
}

impl Standing {
    /// The order closes: the unit waits (WRG-CHORD-12, WRG-ORD-13).
    pub fn close(&mut self, _why: Closed) {
        *self = Standing::Waiting;
    }

    /// The order, if any.
    pub fn order(&self) -> Option<&Order> {
        match self {
            Standing::Active { order } => Some(order),
            Standing::Waiting => None,
        }
    }
}

/// Whether the General may issue a new order this period: only in answer to something he saw
/// or was told (WRG-CHORD-01, WRG-R-06); an umpire may lift the check.
pub fn may_issue(events_seen_or_reported: u32, umpire_lifts_check: bool) -> Result<(), Refusal> {
    if events_seen_or_reported == 0 && !umpire_lifts_check {
        return Err(Refusal::new(
            "WRG-CHORD-01",
            "new orders must answer events the General saw or had reported to him",
        ));
    }
    Ok(())
}

/// The periods a messenger (or the General) needs for a trip of `distance` inches: normal
/// speed, with one period at the gallop per trip (WRG-CHORD-03, -04, WRG-R-42).
pub fn trip_periods(distance: f64, normal: f64, gallop: f64) -> u32 {
    if distance <= gallop + 1e-9 {
        return 1;
    }
    if normal <= 0.0 {
        return u32::MAX;
    }
    1 + ((distance - gallop) / normal - 1e-9).ceil().max(0.0) as u32
}

/// The life of an order sent by messenger (WRG-CHORD-02, -06, WRG-R-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timeline {
    /// The period the General dictates it (and stays still).
    pub dictated: u32,
    /// The period the messenger sets out.
    pub leaves: u32,
    /// The period it reaches the unit's standard, which the unit spends digesting it.
    pub arrives: u32,
    /// The first period the unit acts on it.
    pub acts_from: u32,
}

/// When an order dictated in `period` to a unit `distance` away acts, by a messenger of
/// `messenger` type (WRG-CHORD-02, -03, -06).
pub fn by_messenger(data: &Data, period: u32, distance: f64, messenger: TroopType) -> Timeline {
    let row = data.moves(messenger);
    let trip = trip_periods(distance, row.normal, row.charge.unwrap_or(row.normal));
    let leaves = period + 1;
    let arrives = leaves.saturating_add(trip - 1);
    Timeline { dictated: period, leaves, arrives, acts_from: arrives.saturating_add(1) }
}

/// The most pre-arranged signals a side may write down (WRG-CHORD-07).
pub const MAX_SIGNALS: usize = 4;

/// A pre-arranged signal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Signal {
    /// What it means: the order it gives.
    pub order: Order,
    /// The units it is for (all that see it, when empty).
    #[serde(default)]
    pub units: Vec<u16>,
}

/// Checks a side's signals before the battle (WRG-CHORD-07).
pub fn check_signals(signals: &[Signal]) -> Result<(), Refusal> {
    if signals.len() > MAX_SIGNALS {
        return Err(Refusal::new(
            "WRG-CHORD-07",
            format!("at most {MAX_SIGNALS} pre-arranged signals, {} written", signals.len()),
        ));
    }
    Ok(())
}

/// Whether a signal reaches a unit: its standard within 25" of the General's and able to see
/// it, and the signal for it (WRG-CHORD-08).
pub fn signal_reaches(data: &Data, signal: &Signal, unit: u16, distance: f64, sees: bool) -> bool {
    sees && distance <= data.movement.distances.signal_range + 1e-9
        && (signal.units.is_empty() || signal.units.contains(&unit))
}

/// The period a signal given in `period` is acted on (WRG-CHORD-09).
pub fn signal_acts_from(period: u32) -> u32 {
    period + 1
}

/// The period a unit the C-in-C has joined acts on his word: at once (WRG-CHORD-10).
pub fn attached_acts_from(period: u32) -> u32 {
    period
}

/// An order in words, for the log: what, where, how fast and in what formation, by which way
/// (WRG-ORD-02, -04).
pub fn words(state: &crate::state::State, o: &Order) -> String {
    let name =
        |id: u16| state.units.get(id as usize).map_or("?".to_string(), |u| u.name.to_string());
    let place = |t: &Objective| match t {
        Objective::Point { x, y } => format!("({x:.1}, {y:.1})"),
        Objective::Feature { id } => id.clone(),
        Objective::Bearing { degrees } => format!("bearing {degrees:.0}°"),
    };
    let what = match &o.verb {
        Verb::Advance { to } => format!("advance to {}", place(to)),
        Verb::Attack { unit } => format!("attack {}", name(*unit)),
        Verb::Hold { at: None } => "hold where they stand".to_string(),
        Verb::Hold { at: Some(at) } => format!("hold {}", place(at)),
        Verb::Skirmish { unit } => format!("skirmish against {}", name(*unit)),
        Verb::Evade => "evade whatever charges them".to_string(),
        Verb::Wheel { degrees } => format!("wheel {degrees:.0}°"),
        Verb::Retire { to } => format!("retire to {}", place(to)),
    };
    let pace = match o.pace {
        Some(p) => format!("at {:.0}% of their pace", p * 100.0),
        None => "at full pace".to_string(),
    };
    let formation = match o.formation {
        Some(f) => format!("in {f:?}").to_lowercase(),
        None => "in a formation of their choosing".to_string(),
    };
    let way = if o.route.is_empty() { "straight there" } else { "by the route given" };
    format!("{what}, {pace} {formation}, {way}")
}

/// The note of a unit taking up a new order (`rule`: how it came), with the general features
/// of orders it applies (WRG-ORD-02, -03, -04, -11).
pub fn taken_note(
    state: &crate::state::State,
    unit: u16,
    o: &Order,
    rule: &'static str,
) -> crate::report::Note {
    let name = state.units.get(unit as usize).map_or("?", |u| &u.name);
    let mut n = crate::report::Note::new(
        rule,
        format!("{name} take up their new order: {}", words(state, o)),
    );
    for r in features(o) {
        n = n.and(r);
    }
    n
}

/// The general features of orders an order calls on: full pace and a free formation when it
/// names neither (WRG-ORD-02), a feature it could be given only in sight (WRG-ORD-03), its
/// route or the straight way (WRG-ORD-04), skirmishing (WRG-ORD-11).
pub fn features(o: &Order) -> Vec<&'static str> {
    let mut out = Vec::with_capacity(4);
    if o.pace.is_none() && o.formation.is_none() {
        out.push("WRG-ORD-02");
    }
    let feature = matches!(
        &o.verb,
        Verb::Advance { to: Objective::Feature { .. } }
            | Verb::Retire { to: Objective::Feature { .. } }
            | Verb::Hold { at: Some(Objective::Feature { .. }) }
    );
    if feature {
        out.push("WRG-ORD-03");
    }
    if matches!(o.verb, Verb::Advance { .. } | Verb::Retire { .. } | Verb::Attack { .. }) {
        out.push("WRG-ORD-04");
    }
    if matches!(o.verb, Verb::Skirmish { .. }) {
        out.push("WRG-ORD-11");
    }
    out
}

/// The note of a new order given this period (WRG-CHORD-01, -02, -06, -10, WRG-RRES-05): at
/// once to a unit awaiting one after its test, at once to the unit the C-in-C is with, else
/// dictated, its messenger setting out next period.
pub fn dictated(
    state: &crate::state::State,
    side: tabletop::rules::Side,
    unit: u16,
    o: &Order,
) -> crate::report::Note {
    use crate::report::Note;
    let Some(u) = state.units.get(unit as usize) else { return Note::new("WRG-CHORD-02", "?") };
    let with = crate::state::general(state, side).is_some_and(|g| g.attached == Some(unit));
    let order = words(state, o);
    let n = if u.awaiting_order {
        Note::new("WRG-RRES-05", format!("{} take a new order at once: {order}", u.name))
    } else if with {
        Note::new(
            "WRG-CHORD-10",
            format!("{side}'s General, at their head, gives {} a new order: {order}", u.name),
        )
        .and("WRG-CHORD-01")
    } else {
        Note::new(
            "WRG-CHORD-02",
            format!(
                "{side}'s General dictates a new order for {}, in answer to what he sees: {order}; \
                 the messenger sets out next period",
                u.name
            ),
        )
        .and("WRG-CHORD-01")
        .and("WRG-CHORD-06")
    };
    features(o).into_iter().fold(n, |n, r| n.and(r))
}

/// The note of a pre-arranged signal given from the General's standard: which of the signals
/// written before the battle, and the units that see it within 25" (WRG-CHORD-07, -08, -09).
pub fn signal_note(
    state: &crate::state::State,
    side: tabletop::rules::Side,
    k: u8,
    reached: &[u16],
) -> crate::report::Note {
    let names: Vec<&str> =
        reached.iter().filter_map(|id| state.units.get(*id as usize)).map(|u| &*u.name).collect();
    let seen = if names.is_empty() { "no unit sees it".to_string() } else { names.join(", ") };
    let order = state
        .signals
        .get(side.index())
        .and_then(|s| s.get(k as usize))
        .map_or(String::new(), |(o, _)| words(state, o));
    let mut n = crate::report::Note::new(
        "WRG-CHORD-08",
        format!("{side}'s General gives signal {k} written before the battle ({order}): {seen}"),
    )
    .and("WRG-CHORD-07");
    if !reached.is_empty() {
        n = n.and("WRG-CHORD-09");
    }
    n
}

/// The notes of orders closed this period: units that held an order when the period began and
/// hold none now, with why; they wait where they are for orders (WRG-CHORD-12, WRG-ORD-13).
pub fn closed_notes(state: &crate::state::State, had: &[bool]) -> Vec<crate::report::Note> {
    let mut out = Vec::new();
    for (u, had) in state.units.iter().zip(had) {
        if !*had || u.standing.order().is_some() {
            continue;
        }
        let why = if u.on_table() && u.rout.is_none() && u.running.is_none() && !u.awaiting_order {
            // Carried out: the movement tells of it.
            continue;
        } else if u.rout.is_some() {
            "they broke"
        } else if u.away.is_some() {
            "they left the table"
        } else if u.block.figures == 0 {
            "they are no more"
        } else if u.awaiting_order {
            "their test tells them to act as their General would wish"
        } else {
            "their reaction test displaced it"
        };
        let mut n = crate::report::Note::new(
            "WRG-CHORD-12",
            format!("{} order is crossed out: {why}", crate::melee_phase::possessive(&u.name)),
        );
        if u.on_table() && u.rout.is_none() {
            n.text.push_str("; they wait where they are for orders");
            n = n.and("WRG-ORD-13");
        }
        out.push(n);
    }
    out
}

/// The note of a unit halting on its side's word: it may, not being forced to move, and it
/// keeps its order to take up again when it likes (WRG-ORD-05, -06).
pub fn halt_note(state: &crate::state::State, unit: u16) -> crate::report::Note {
    let Some(u) = state.units.get(unit as usize) else {
        return crate::report::Note::new("WRG-ORD-05", "?");
    };
    let n = crate::report::Note::new("WRG-ORD-05", format!("{} halt", u.name));
    match u.standing.order() {
        Some(o) => {
            let mut n = n.and("WRG-ORD-06");
            n.text.push_str(&format!(", keeping their order ({})", words(state, o)));
            n
        }
        None => n,
    }
}

/// Men a messenger counts as in a fight (WRG-CHORD-05).
pub fn messenger_men(data: &Data) -> u32 {
    data.casualties.men_per_figure
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> Data {
        Data::embedded().unwrap()
    }

    fn feature(id: &str) -> Order {
        Order::new(Verb::Advance { to: Objective::Feature { id: id.into() } })
    }

    // Checks WRG-ORD-03.
    #[test]
    fn wrg_ord_03_only_features_the_unit_can_see() {
        let sees = |id: &str| match id {
            "north_wood" => Some(true),
            "south_wood" => Some(false),
            _ => None,
        };
        assert!(check_order(&feature("north_wood"), TroopType::MediumInfantry, None, sees).is_ok());
        let e =
            check_order(&feature("south_wood"), TroopType::MediumInfantry, None, sees).unwrap_err();
        assert_eq!(e.rule.as_str(), "WRG-ORD-03");
        let bearing = Order::new(Verb::Advance { to: Objective::Bearing { degrees: 225.0 } });
        assert!(check_order(&bearing, TroopType::MediumInfantry, None, sees).is_ok());
        assert_eq!(
            check_order(&feature("atlantis"), TroopType::MediumInfantry, None, sees)
                .unwrap_err()
                .rule
                .as_str(),
            "WRG-ORD-14"
        );
    }

    #[test]
    fn orders_read_from_toml_refuse_unknown_fields() {
        #[derive(serde::Deserialize)]
        struct W {
            order: Order,
        }
        let w: W = toml_edit::de::from_str(
            "order = { action = { verb = \"advance\", to = { kind = \"feature\", id = \"hill\" } }, formation = \"line\" }",
        )
        .unwrap();
        assert_eq!(w.order.formation, Some(Formation::Line));
        assert!(matches!(w.order.verb, Verb::Advance { .. }));
        let bad =
            toml_edit::de::from_str::<W>("order = { action = { verb = \"hold\" }, colour = 1 }");
        assert!(bad.is_err());
    }

    // Checks WRG-ORD-02.
    #[test]
    fn wrg_ord_02_any_formation_full_speed() {
        let o = feature("x");
        assert_eq!((o.pace(), o.formation), (1.0, None));
        let slow = Order { pace: Some(0.5), ..o.clone() };
        assert_eq!(slow.pace(), 0.5);
        let bad = Order { pace: Some(1.5), ..o };
        assert_eq!(
            check_order(&bad, TroopType::HeavyInfantry, None, |_| Some(true))
                .unwrap_err()
                .rule
                .as_str(),
            "WRG-ORD-02"
        );
    }

    // Checks WRG-ORD-04.
    #[test]
    fn wrg_ord_04_straight_unless_a_route() {
        let o = feature("x");
        let goal = Point::new(10.0, 20.0);
        assert_eq!(o.way(Some(goal)), vec![goal]);
        let routed = Order { route: vec![[5.0, 5.0]], ..o };
        assert_eq!(routed.way(Some(goal)), vec![Point::new(5.0, 5.0), goal]);
    }

    // Checks WRG-ORD-05, WRG-ORD-06.
    #[test]
    fn wrg_ord_05_06_halting() {
        assert!(may_halt(false).is_ok());
        assert_eq!(may_halt(true).unwrap_err().rule.as_str(), "WRG-ORD-05");
        // A halted unit still holds its order.
        let s = Standing::Active { order: feature("x") };
        assert!(may_halt(false).is_ok() && s.order().is_some());
    }

    // Checks WRG-ORD-07.
    #[test]
    fn wrg_ord_07_missile_troops_shoot_at_will() {
        assert!(shoots_at_will(None));
        assert!(shoots_at_will(Some(&feature("x"))));
        assert!(!shoots_at_will(Some(&Order { hold_fire: true, ..feature("x") })));
    }

    // Checks WRG-ORD-09.
    #[test]
    fn wrg_ord_09_light_infantry_evade_cavalry() {
        let d = data();
        assert_eq!(
            evade_choice(&d, TroopType::LightInfantry, None, TroopType::HeavyCavalry),
            (true, true)
        );
        assert_eq!(
            evade_choice(&d, TroopType::LightInfantry, None, TroopType::HeavyInfantry),
            (true, false)
        );
        let no = Order { no_evade: true, ..feature("x") };
        assert_eq!(
            evade_choice(&d, TroopType::LightInfantry, Some(&no), TroopType::HeavyCavalry),
            (false, false)
        );
        assert_eq!(
            evade_choice(&d, TroopType::MediumInfantry, None, TroopType::HeavyCavalry),
            (false, false)
        );
    }

    // Checks WRG-ORD-10.
    #[test]
    fn wrg_ord_10_light_infantry_attack_only_standing_cavalry() {
        assert!(
            light_infantry_may_charge(TroopType::LightInfantry, TroopType::MediumCavalry, true)
                .is_ok()
        );
        assert_eq!(
            light_infantry_may_charge(TroopType::LightInfantry, TroopType::MediumCavalry, false)
                .unwrap_err()
                .rule
                .as_str(),
            "WRG-ORD-10"
        );
        assert!(
            light_infantry_may_charge(TroopType::LightInfantry, TroopType::MediumInfantry, false)
                .is_ok()
        );
    }

    // Checks WRG-ORD-11.
    #[test]
    fn wrg_ord_11_skirmish_is_for_light_troops() {
        let s = Order::new(Verb::Skirmish { unit: 3 });
        assert!(check_order(&s, TroopType::LightCavalry, None, |_| Some(true)).is_ok());
        assert_eq!(
            check_order(&s, TroopType::HeavyInfantry, None, |_| Some(true))
                .unwrap_err()
                .rule
                .as_str(),
            "WRG-ORD-11"
        );
    }

    // Checks WRG-ORD-12.
    #[test]
    fn wrg_ord_12_skirmishers_evade_any_move_that_reaches_them() {
        let d = data();
        let s = Order::new(Verb::Skirmish { unit: 3 });
        assert!(skirmisher_may_evade(&d, TroopType::LightInfantry, Some(&s), true));
        assert!(!skirmisher_may_evade(&d, TroopType::LightInfantry, Some(&s), false));
        assert!(!skirmisher_may_evade(&d, TroopType::LightInfantry, Some(&feature("x")), true));
    }

    // Checks WRG-ORD-13.
    #[test]
    fn wrg_ord_13_without_an_order_it_waits() {
        let mut s = Standing::Active { order: feature("x") };
        s.close(Closed::Completed);
        assert_eq!(s, Standing::Waiting);
        assert!(s.order().is_none());
    }

    // Checks WRG-CHORD-12.
    #[test]
    fn wrg_chord_12_orders_close() {
        for why in [Closed::Completed, Closed::Altered, Closed::Displaced, Closed::Broke] {
            let mut s = Standing::Active { order: feature("x") };
            s.close(why);
            assert_eq!(s, Standing::Waiting);
        }
    }

    // Checks WRG-ROUT-08.
    #[test]
    fn wrg_rout_08_rallied_units_wait_without_an_order() {
        // A unit that broke has its order closed; when it rallies it waits for a new one.
        let mut s = Standing::Active { order: feature("x") };
        s.close(Closed::Broke);
        assert_eq!(s, Standing::Waiting);
        assert!(shoots_at_will(s.order()));
    }

    // Checks WRG-CHORD-01.
    #[test]
    fn wrg_chord_01_orders_answer_events() {
        assert_eq!(may_issue(0, false).unwrap_err().rule.as_str(), "WRG-CHORD-01");
        assert!(may_issue(1, false).is_ok());
        assert!(may_issue(0, true).is_ok());
    }

    // Checks WRG-CHORD-03.
    #[test]
    fn wrg_chord_03_one_gallop_per_trip() {
        // Light cavalry: 24" gallop then 16" a period.
        assert_eq!(trip_periods(20.0, 16.0, 24.0), 1);
        assert_eq!(trip_periods(30.0, 16.0, 24.0), 2);
        assert_eq!(trip_periods(40.0, 16.0, 24.0), 2);
        assert_eq!(trip_periods(41.0, 16.0, 24.0), 3);
    }

    // Checks WRG-CHORD-02, WRG-CHORD-06.
    #[test]
    fn wrg_chord_02_06_dictate_ride_digest_act() {
        let d = data();
        let t = by_messenger(&d, 4, 30.0, TroopType::LightCavalry);
        assert_eq!(t, Timeline { dictated: 4, leaves: 5, arrives: 6, acts_from: 7 });
        let near = by_messenger(&d, 4, 10.0, TroopType::LightCavalry);
        assert_eq!((near.arrives, near.acts_from), (5, 6));
    }

    // Checks WRG-CHORD-04.
    #[test]
    fn wrg_chord_04_the_general_rides_under_the_same_limit() {
        // A General on heavy cavalry (8" / 18") riding 30": a gallop and two more periods.
        let d = data();
        let row = d.moves(TroopType::HeavyCavalry);
        assert_eq!(trip_periods(30.0, row.normal, row.charge.unwrap()), 3);
    }

    // Checks WRG-CHORD-05.
    #[test]
    fn wrg_chord_05_messengers_fight_as_twenty_men() {
        assert_eq!(messenger_men(&data()), 20);
    }

    // Checks WRG-CHORD-07.
    #[test]
    fn wrg_chord_07_four_signals() {
        let s = Signal { order: feature("x"), units: vec![] };
        assert!(check_signals(&vec![s.clone(); 4]).is_ok());
        assert_eq!(check_signals(&vec![s; 5]).unwrap_err().rule.as_str(), "WRG-CHORD-07");
    }

    // Checks WRG-CHORD-08.
    #[test]
    fn wrg_chord_08_signals_reach_25_inches_to_units_that_see() {
        let d = data();
        let all = Signal { order: feature("x"), units: vec![] };
        assert!(signal_reaches(&d, &all, 7, 25.0, true));
        assert!(!signal_reaches(&d, &all, 7, 25.5, true));
        assert!(!signal_reaches(&d, &all, 7, 10.0, false));
        let some = Signal { units: vec![2, 3], ..all };
        assert!(!signal_reaches(&d, &some, 7, 10.0, true));
        assert!(signal_reaches(&d, &some, 3, 10.0, true));
    }

    // Checks WRG-CHORD-09, WRG-CHORD-10.
    #[test]
    fn wrg_chord_09_10_signals_next_period_general_at_once() {
        assert_eq!(signal_acts_from(6), 7);
        assert_eq!(attached_acts_from(6), 6);
    }
}
