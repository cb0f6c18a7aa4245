//! The [`RuleSet`] implementation: the commands a side gives (its written orders before the
//! battle, then a secret plan each period), their checks, the events, views and drawing.
//!
//! # Events and the period
//!
//! A period is resolved as one step once both sides have planned: [`Event::Resolved`] carries
//! the faces of every die thrown in it, in order, and applying it runs the period again with
//! those faces ([`crate::period::resolve`] is a pure function of the state and the faces). The
//! [`Event::Noted`] events that follow it tell the log what happened, each with its rules and
//! dice; they change nothing. So the state is always a function of the events, and every roll
//! is in the log.

use crate::Data;
use crate::orders::check_order;
use crate::plan::Plan;
use crate::report::Note;
use crate::scenario::{Scenario, eye, sees_area};
use crate::state::{self, State, Written};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::sync::{Arc, Mutex};
use tabletop::diagnostics::{Diagnostics, Source};
use tabletop::dice::{DiceSource, Die, SeededDice};
use tabletop::geometry::Point;
use tabletop::render::{Mark, Piece, Scene};
use tabletop::rules::{
    Actor, Narrate, Outcome, Pending, Refusal, RuleId, RuleSet, Side, SideSummary, Summary, Viewer,
};

/// The tables with the readings chosen by a battle, made once per choice.
type Readings = Arc<Mutex<Vec<(Vec<(String, String)>, Arc<Data>)>>>;

/// The WRG Ancient Wargames Rules (1969) with their tables.
#[derive(Clone, Debug)]
pub struct Wrg1969 {
    /// The tables (the default readings).
    pub data: Arc<Data>,
    readings: Readings,
}

impl Default for Wrg1969 {
    fn default() -> Self {
        Wrg1969::new()
    }
}

impl Wrg1969 {
    /// The rule set with its embedded tables (part of the program; the tests pin that they
    /// load).
    pub fn new() -> Wrg1969 {
        let data = Data::embedded().unwrap_or_else(|e| panic!("embedded wrg1969 data: {e}"));
        Wrg1969::with_data(data)
    }

    /// The rule set with other tables (a variant reading, house rules).
    pub fn with_data(data: Data) -> Wrg1969 {
        Wrg1969 { data: Arc::new(data), readings: Readings::default() }
    }

    /// The tables a battle is played with: the rule set's, with the battle's chosen readings
    /// (WRG-R-45). Each choice is made once and kept.
    pub fn data_for(&self, st: &State) -> Arc<Data> {
        if st.variants.is_empty() {
            return self.data.clone();
        }
        let mut cache = self.readings.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, d)) = cache.iter().find(|(v, _)| *v == st.variants) {
            return d.clone();
        }
        // The scenario's choices were checked when it loaded; one that no longer applies
        // leaves the default reading.
        let d = Arc::new(
            self.data
                .with_variants(st.variants.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                .unwrap_or_else(|_| (*self.data).clone()),
        );
        cache.push((st.variants.clone(), d.clone()));
        d
    }
}

/// A command from a side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "command")]
pub enum Command {
    /// The side's written orders, before the battle (WRG-ORD-01); units not listed keep the
    /// orders of the scenario file.
    Write {
        /// The orders.
        orders: Vec<Written>,
    },
    /// The side's secret plan for the coming period (WRG-R-08).
    Plan(Plan),
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A side wrote its orders (secret).
    Wrote {
        /// The side.
        side: Side,
        /// The orders.
        orders: Vec<Written>,
    },
    /// A side made its plan for the coming period (secret until the period is played).
    Planned {
        /// The side.
        side: Side,
        /// The plan.
        plan: Plan,
    },
    /// The period was played with these dice.
    Resolved {
        /// The period.
        period: u32,
        /// Every die's face, in the order thrown.
        faces: Vec<u8>,
    },
    /// What happened in the period, for the log.
    Noted(Note),
}

impl Narrate for Event {
    fn rules(&self) -> Vec<RuleId> {
        match self {
            Event::Wrote { orders, .. } => {
                // Written in the structured vocabulary (WRG-ORD-14); a feature named only if
                // the unit could see it (WRG-ORD-03).
                let mut r = vec![RuleId::new("WRG-ORD-01"), RuleId::new("WRG-ORD-14")];
                let feature = orders
                    .iter()
                    .filter_map(|w| w.order.as_ref())
                    .any(|o| crate::orders::features(o).contains(&"WRG-ORD-03"));
                if feature {
                    r.push(RuleId::new("WRG-ORD-03"));
                }
                r
            }
            Event::Planned { .. } | Event::Resolved { .. } => vec![RuleId::new("WRG-MOVE-01")],
            Event::Noted(n) => n.rules.clone(),
        }
    }

    fn describe(&self) -> String {
        match self {
            Event::Wrote { side, .. } => format!("{side} writes its orders"),
            Event::Planned { side, .. } => format!("{side} makes its plan"),
            Event::Resolved { period, faces } => {
                format!("period {period} is played ({} dice)", faces.len())
            }
            Event::Noted(n) => n.describe(),
        }
    }
}

/// A period played: the tables' identity, the state before, the faces, the state after.
type Played = (usize, State, Vec<u8>, State);

thread_local! {
    /// The last period played by `execute` on this thread: the tables' identity, the state
    /// before, the faces thrown and the state after. `apply` of the same period to an equal
    /// state takes the result instead of playing the period again: the period is a pure
    /// function of the tables, the state and the faces, so the result is the same.
    static LAST_PERIOD: RefCell<Option<Played>> = const { RefCell::new(None) };
}

/// Dice that remember every face they show.
struct Recording<'a> {
    inner: &'a mut dyn DiceSource,
    faces: Vec<u8>,
}

impl DiceSource for Recording<'_> {
    fn face(&mut self, die: Die) -> u8 {
        let f = self.inner.face(die);
        self.faces.push(f);
        f
    }
}

/// Dice that show recorded faces again. A face the die cannot show, or a record that runs out,
/// gives the die's lowest face: an altered record replays to a different state (which replay
/// reports by its hash) rather than failing.
struct Replay<'a> {
    faces: &'a [u8],
    next: usize,
}

impl DiceSource for Replay<'_> {
    fn face(&mut self, die: Die) -> u8 {
        let f = self.faces.get(self.next).copied();
        self.next += 1;
        match f {
            Some(v) if die.can_show(v) => v,
            _ => (1..=10).find(|v| die.can_show(*v)).unwrap_or(1),
        }
    }
}

/// A unit as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GeneralView {
    /// His side.
    pub side: Side,
    /// Where he is.
    pub at: Point,
    /// The unit he is with.
    pub attached: Option<u16>,
    /// He has fallen or been taken.
    pub fallen: bool,
}

/// What one viewer sees.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The period reached, and the last.
    pub turn: [u32; 2],
    /// The units, with orders only for the viewer's own side.
    #[serde(flatten)]
    pub table: state::View,
    /// Which sides have planned the coming period.
    pub planned: [bool; 2],
    /// The Generals.
    pub generals: Vec<GeneralView>,
    /// Figures each side holds prisoner.
    pub prisoners: [u32; 2],
}

impl Wrg1969 {
    fn over(&self, st: &State) -> Option<Outcome> {
        if st.period == 0 {
            return None;
        }
        let wiped: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| {
                !st.units.iter().any(|u| {
                    u.side == *s
                        && u.block.figures > 0
                        && u.away.is_none_or(|a| !matches!(a.state, crate::after::OffTable::Gone))
                })
            })
            .collect();
        if st.period < st.limit && wiped.is_empty() {
            return None;
        }
        let scores = crate::scoring::scores(&self.data_for(st), st);
        let winner = crate::victory::winner(scores).map(|i| Side::BOTH[i]);
        let why = if wiped.is_empty() {
            format!("the time limit of {} periods", st.limit)
        } else {
            format!("{} has no troops left", wiped[0])
        };
        Some(Outcome {
            winner,
            reason: format!(
                "[WRG-VIC-01] after {} periods ({why}): red scores {}, blue {}",
                st.period, scores[0], scores[1]
            ),
        })
    }

    fn check_plan(&self, st: &State, side: Side, plan: &Plan) -> Result<(), Refusal> {
        let data = &*self.data_for(st);
        for (i, m) in plan.moves.iter().enumerate() {
            if plan.moves[..i].iter().any(|x| x.unit == m.unit) {
                return Err(Refusal::new("WRG-R-08", format!("unit {} is moved twice", m.unit)));
            }
            crate::move_phase::check_move(data, st, side, m)?;
        }
        let mut messengers = 0;
        let seen = if plan.dictate.is_empty() { 0 } else { events_seen(st, side) };
        for (i, d) in plan.dictate.iter().enumerate() {
            if plan.dictate[..i].iter().any(|x| x.unit == d.unit) {
                return Err(Refusal::new(
                    "WRG-ORD-14",
                    format!("unit {} is given two orders", d.unit),
                ));
            }
            let u = st
                .units
                .get(d.unit as usize)
                .filter(|u| u.side == side && u.on_table())
                .ok_or_else(|| {
                    Refusal::new("WRG-ORD-14", format!("{side} has no unit {}", d.unit))
                })?;
            if u.awaiting_order {
                let table = &st.table;
                check_order(&d.order, u.troop, Some((table.width, table.height)), |id| {
                    let i = table.areas.iter().position(|a| a.name == id)?;
                    Some(sees_area(table, u.at, eye(u.troop), i))
                })?;
                continue;
            }
            state::check_dictate(data, st, side, d.unit, &d.order, seen)?;
            if state::general(st, side).is_none_or(|g| g.attached != Some(d.unit)) {
                messengers += 1;
            }
        }
        if messengers > st.free_messengers[side.index()] {
            return Err(Refusal::new(
                "WRG-CHORD-02",
                format!(
                    "{messengers} orders need messengers but only {} are free",
                    st.free_messengers[side.index()]
                ),
            ));
        }
        if let Some(k) = plan.signal {
            let n = st.signals.get(side.index()).map_or(0, Vec::len);
            if k as usize >= n {
                return Err(Refusal::new("WRG-CHORD-07", format!("{side} has no signal {k}")));
            }
        }
        if let Some(g) = &plan.general {
            check_general_ride(data, st, side, g)?;
        }
        crate::test_phase::check_plan(data, st, side, plan)?;
        let contacts = if plan.break_off.is_empty() {
            Vec::new()
        } else {
            crate::melee_phase::contacts(data, st)
        };
        for &id in &plan.break_off {
            let own = st.units.get(id as usize).is_some_and(|u| u.side == side && u.on_table());
            if !own || !contacts.iter().any(|&(a, b)| a == id || b == id) {
                return Err(Refusal::new(
                    "WRG-BRK-01",
                    format!("unit {id} is not a {side} unit in hand-to-hand"),
                ));
            }
        }
        Ok(())
    }
}

/// Whether a General has something that new orders may answer (WRG-CHORD-01): a unit of his
/// that is broken, waiting for orders or has finished its order, or an enemy unit he can see.
/// Returns 1 at the first such thing found (the rules ask only whether there is one), else 0.
pub fn events_seen(st: &State, side: Side) -> u32 {
    let Some(g) = state::general(st, side) else { return 0 };
    let own = st.units.iter().filter(|u| u.side == side && u.on_table());
    if own.clone().any(|u| u.rout.is_some() || u.awaiting_order || u.standing.order().is_none()) {
        return 1;
    }
    let rule = tabletop::terrain::DefaultSightRule { see_into: 3.0 };
    let seen = st.units.iter().filter(|u| u.side != side && u.on_table()).any(|u| {
        tabletop::terrain::line_of_sight(&st.table, g.at, eye(g.troop), u.at, eye(u.troop), &rule)
    });
    u32::from(seen)
}

/// The General rides to a point on the table or to a unit of his own side to join, no farther
/// than his figure's move carries him this period: its normal move paying the ground, or the
/// trip's one period at the gallop (WRG-CHORD-03, -04, -10, WRG-M-01, WRG-R-42).
fn check_general_ride(
    data: &Data,
    st: &State,
    side: Side,
    to: &crate::plan::GeneralMove,
) -> Result<(), Refusal> {
    let g = state::general(st, side)
        .ok_or_else(|| Refusal::new("WRG-CHORD-04", "the side has no General"))?;
    if g.risk.fallen(data) {
        return Err(Refusal::new("WRG-GEN-02", "the General has fallen"));
    }
    let target = match to.join {
        Some(j) => st
            .units
            .get(j as usize)
            .filter(|u| u.side == side && u.on_table())
            .map(|u| u.at)
            .ok_or_else(|| {
                Refusal::new("WRG-CHORD-10", format!("{side} has no unit {j} to join"))
            })?,
        None => Point::new(to.x, to.y),
    };
    if !target.x.is_finite() || !target.y.is_finite() || !st.table.contains_point(target) {
        return Err(Refusal::new("WRG-CHORD-04", "the General must stay on the table"));
    }
    let leg = crate::riders::general_leg(data, st, side, to)
        .ok_or_else(|| Refusal::new("WRG-CHORD-04", "the side has no General"))?;
    if !leg.arrived {
        return Err(Refusal::new(
            "WRG-CHORD-04",
            format!(
                "the General gets only {:.1}\" of the {:.1}\" this period: his figure's move, the \
                 ground paid for{} (WRG-M-01)",
                g.at.distance(leg.end),
                g.at.distance(target),
                if g.galloped { ", his trip's gallop spent" } else { ", at the gallop" }
            ),
        ));
    }
    Ok(())
}

impl RuleSet for Wrg1969 {
    type Scenario = Scenario;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn id(&self) -> &'static str {
        crate::ID
    }

    fn version(&self) -> &'static str {
        env!("CARGO_PKG_VERSION")
    }

    fn load_scenario(&self, source: &Source) -> Result<Scenario, Diagnostics> {
        crate::scenario::load(&self.data, source)
    }

    fn setup(&self, scenario: &Scenario, _dice: &mut dyn DiceSource) -> (State, Vec<Event>) {
        (state::setup(scenario), vec![])
    }

    fn pending(&self, st: &State) -> Pending {
        if self.over(st).is_some() {
            return Pending::Over;
        }
        let waiting = state::waiting(st);
        if !waiting.is_empty() {
            return Pending::Both { waiting, what: "write your orders".into() };
        }
        let waiting: Vec<Side> =
            Side::BOTH.into_iter().filter(|s| st.plans[s.index()].is_none()).collect();
        Pending::Both { waiting, what: format!("plan period {}", st.period + 1) }
    }

    fn check(&self, st: &State, actor: Actor, command: &Command) -> Result<(), Refusal> {
        let Actor::Side(side) = actor else {
            return Err(Refusal::new("WRG-ORD-01", "only a side gives orders"));
        };
        if self.over(st).is_some() {
            return Err(Refusal::new("WRG-VIC-01", "the battle is over"));
        }
        match command {
            Command::Write { orders } => state::check_written(st, side, orders),
            Command::Plan(plan) => {
                if !state::waiting(st).is_empty() {
                    return Err(Refusal::new(
                        "WRG-ORD-01",
                        "orders are written before the first period is planned",
                    ));
                }
                if st.plans[side.index()].is_some() {
                    return Err(Refusal::new(
                        "WRG-R-08",
                        format!("{side} has already planned period {}", st.period + 1),
                    ));
                }
                self.check_plan(st, side, plan)
            }
        }
    }

    fn execute(
        &self,
        st: &State,
        actor: Actor,
        command: &Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, Refusal> {
        self.check(st, actor, command)?;
        let Actor::Side(side) = actor else { unreachable!("check refuses other actors") };
        match command {
            Command::Write { orders } => Ok(vec![Event::Wrote { side, orders: orders.clone() }]),
            Command::Plan(plan) => {
                let planned = Event::Planned { side, plan: plan.clone() };
                if st.plans[side.other().index()].is_none() {
                    return Ok(vec![planned]);
                }
                let mut next = st.clone();
                self.apply(&mut next, &planned);
                let before = next.clone();
                let mut rec = Recording { inner: dice, faces: Vec::new() };
                let data = self.data_for(st);
                let mut notes = crate::period::resolve(&data, &mut next, &mut rec);
                if self.outcome(&next).is_some() {
                    notes.push(crate::scoring::score_note(&data, &next));
                }
                let key = Arc::as_ptr(&data) as usize;
                LAST_PERIOD
                    .with(|c| *c.borrow_mut() = Some((key, before, rec.faces.clone(), next)));
                let mut events =
                    vec![planned, Event::Resolved { period: st.period + 1, faces: rec.faces }];
                events.extend(notes.into_iter().map(Event::Noted));
                Ok(events)
            }
        }
    }

    fn apply(&self, st: &mut State, event: &Event) {
        match event {
            Event::Wrote { side, orders } => state::apply_written(st, *side, orders),
            Event::Planned { side, plan } => st.plans[side.index()] = Some(plan.clone()),
            Event::Resolved { faces, .. } => {
                let data = self.data_for(st);
                let key = Arc::as_ptr(&data) as usize;
                // The period this thread has just played in `execute`, if it is this one.
                let played = LAST_PERIOD.with(|c| c.borrow_mut().take()).and_then(
                    |(k, before, f, after)| {
                        (k == key && f == *faces && before == *st).then_some(after)
                    },
                );
                match played {
                    Some(after) => *st = after,
                    None => {
                        crate::period::resolve(&data, st, &mut Replay { faces, next: 0 });
                    }
                }
            }
            Event::Noted(_) => {}
        }
    }

    fn view(&self, st: &State, viewer: Viewer) -> View {
        let data = self.data_for(st);
        View {
            turn: [st.period, st.limit],
            table: state::view(st, viewer),
            planned: [st.plans[0].is_some(), st.plans[1].is_some()],
            generals: st
                .generals
                .iter()
                .map(|g| GeneralView {
                    side: g.side,
                    at: g.at,
                    attached: g.attached,
                    fallen: g.risk.fallen(&data),
                })
                .collect(),
            prisoners: st.prisoners,
        }
    }

    fn outcome(&self, st: &State) -> Option<Outcome> {
        self.over(st)
    }

    fn candidates(&self, st: &State, side: Side, rng: &mut SeededDice) -> Vec<Command> {
        crate::sample::candidates(self, st, side, rng)
    }

    fn scene(&self, st: &State, viewer: Viewer) -> Scene {
        scene(&self.data_for(st), st, viewer)
    }

    fn turn(&self, st: &State) -> Option<u32> {
        Some(st.period.max(1))
    }

    fn summary(&self, st: &State) -> Summary {
        let scores = crate::scoring::scores(&self.data_for(st), st);
        Summary {
            sides: Side::BOTH
                .into_iter()
                .map(|s| {
                    let own = || st.units.iter().filter(move |u| u.side == s);
                    let mut x = SideSummary::new(s);
                    x.units_start = Some(own().count() as u32);
                    x.units_lost =
                        Some(own().filter(|u| !u.on_table() || u.rout.is_some()).count() as u32);
                    x.strength_start = Some(own().map(|u| f64::from(u.start_figures)).sum());
                    x.strength = Some(
                        own().filter(|u| u.on_table()).map(|u| f64::from(u.block.figures)).sum(),
                    );
                    x.other.insert("score".into(), f64::from(scores[s.index()]));
                    x.other.insert("prisoners_taken".into(), f64::from(st.prisoners[s.index()]));
                    x
                })
                .collect(),
        }
    }

    fn evaluate(&self, st: &State, side: Side) -> Option<f64> {
        let s = crate::scoring::scores(&self.data_for(st), st);
        let total = f64::from(s[0]) + f64::from(s[1]);
        (total > 0.0).then(|| f64::from(s[side.index()]) / total)
    }

    fn controls(&self, st: &State, side: Side) -> tabletop::controls::Controls {
        crate::controls::controls(self, st, side)
    }

    fn measure(
        &self,
        st: &State,
        side: Side,
        request: &tabletop::controls::MeasureRequest,
    ) -> Option<tabletop::controls::Measurement> {
        crate::controls::measure(self, st, side, request)
    }

    fn roster(&self, st: &State, viewer: Viewer) -> Vec<tabletop::controls::RosterRow> {
        crate::controls::roster(self, st, viewer)
    }
}

/// The table for `viewer`: every unit on it with its figures and state, the Generals, and the
/// orders of the viewer's own side (all of them for the umpire) as lines to their objectives.
pub fn scene(data: &Data, st: &State, viewer: Viewer) -> Scene {
    let title = format!("WRG 1969 — {}: period {} of {}", st.name, st.period, st.limit);
    let mut scene = Scene::new(title, (*st.table).clone());
    let sees_orders = |s: Side| match viewer {
        Viewer::Umpire => true,
        Viewer::Side(v) => v == s,
        Viewer::Spectator => false,
    };
    for u in st.units.iter().filter(|u| u.on_table()) {
        let state = if u.rout.is_some() {
            " ROUTING"
        } else if u.pursuit.is_some() {
            " pursuing"
        } else if u.running.is_some() {
            " (test result)"
        } else {
            ""
        };
        scene.pieces.push(Piece {
            id: Some(u.id.to_string()),
            outline: u.block.footprint(data, u.troop, u.at, u.facing),
            stands: Vec::new(),
            side: Some(u.side),
            label: u.name.to_string(),
            detail: format!(
                "{}/{} figs{}{state}",
                u.block.figures,
                u.start_figures,
                if u.carried > 0 { format!(" +{} hit", u.carried) } else { String::new() }
            ),
        });
        if sees_orders(u.side)
            && let Some(o) = u.standing.order()
            && let Some(to) = objective_point(st, u.at, o)
        {
            let mut points = vec![u.at];
            points.extend(o.route.iter().map(|p| Point::new(p[0], p[1])));
            points.push(to);
            scene.marks.push(Mark { points, label: verb_name(&o.verb).into() });
        }
    }
    for g in st.generals.iter().filter(|g| !g.risk.fallen(data)) {
        let r = tabletop::geometry::Rect::new(g.at, g.facing, 1.0, 1.0);
        scene.pieces.push(Piece {
            id: Some(crate::state::general_piece(g.side)),
            outline: r,
            stands: Vec::new(),
            side: Some(g.side),
            label: "General".into(),
            detail: String::new(),
        });
    }
    scene
}

/// Where an order points, for drawing: the objective's point, the feature's centre, the
/// attacked unit, or 12" along a bearing.
fn objective_point(st: &State, from: Point, o: &crate::orders::Order) -> Option<Point> {
    use crate::orders::{Objective, Verb};
    let place = |obj: &Objective| match obj {
        Objective::Point { x, y } => Some(Point::new(*x, *y)),
        Objective::Feature { id } => {
            st.table.areas.iter().find(|a| &a.name == id).and_then(|a| a.polygon.centroid())
        }
        Objective::Bearing { degrees } => {
            Some(from + tabletop::geometry::Facing::from_bearing_degrees(*degrees).vector() * 12.0)
        }
    };
    match &o.verb {
        Verb::Advance { to } | Verb::Retire { to } => place(to),
        Verb::Hold { at: Some(at) } => place(at),
        Verb::Attack { unit } | Verb::Skirmish { unit } => {
            st.units.get(*unit as usize).filter(|u| u.on_table()).map(|u| u.at)
        }
        _ => None,
    }
}

/// An order's verb in a word.
fn verb_name(v: &crate::orders::Verb) -> &'static str {
    use crate::orders::Verb;
    match v {
        Verb::Advance { .. } => "advance",
        Verb::Attack { .. } => "attack",
        Verb::Hold { .. } => "hold",
        Verb::Skirmish { .. } => "skirmish",
        Verb::Evade => "evade",
        Verb::Wheel { .. } => "wheel",
        Verb::Retire { .. } => "retire",
    }
}
