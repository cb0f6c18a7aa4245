//! A scripted WRG 1969 player ([`Scripted`]) and [`register`], which offers it on a [`Host`].
//!
//! It plays as a general of the period must: it writes every unit an order before the battle
//! and afterwards changes orders only as the rules let it, by messenger (or at once to a unit
//! that awaits an order after its test, or the unit its General is with). It reads only what
//! its side may see: the view of the state for its side (its own orders, never the enemy's)
//! and the table and objectives that the scenario shows both players.
//!
//! # Orders before the battle
//!
//! - Each terrain objective is given to the nearest unit of foot that can see it (an advance
//!   to the feature), if any can.
//! - Light troops with missiles skirmish against the nearest enemy; engines hold.
//! - Everyone else attacks the nearest enemy unit, no enemy unit drawing more than two
//!   attackers while another is unattacked.
//!
//! # Each period
//!
//! - A unit awaiting an order after its test (WRG-RRES-05) is told at once to attack the
//!   nearest enemy.
//! - A unit whose order has closed, or whose target has broken or left, gets a new attack
//!   order by messenger, nearest to the enemy first, while messengers are free and its
//!   General has something to answer (WRG-CHORD-01).
//! - When two or more units within 25" of the General have no task, and no fewer than the
//!   units there busy with orders of their own, he gives the first pre-arranged signal that
//!   sends units forward instead of sending each a messenger.
//! - The General rides to rally the nearest of his routing units within his ride; otherwise
//!   he keeps 6" behind the middle of his army.
//!
//! It draws nothing from its generator: it is deterministic.

use crate::orders::{Objective, Order, Verb};
use crate::plan::{Dictation, GeneralMove, Plan};
use crate::rules_impl::{Command, View, Wrg1969};
use crate::scenario::{eye, sees_area};
use crate::state::{State, UnitView, Written};
use bots::{Bot, BotError, Hosted};
use tabletop::SeededDice;
use tabletop::geometry::Point;
use tabletop::host::{BotSpec, Host, HostedBot};
use tabletop::rules::{Actor, RuleSet, Side, Viewer};

/// What the scripted player is, for bot listings.
pub const SCRIPTED_ABOUT: &str = "a scripted WRG 1969 general: writes attack, skirmish and \
    objective orders, changes them only by messenger, rides to rally routers";

/// The scripted player.
#[derive(Clone, Debug, Default)]
pub struct Scripted;

/// How near his station a unit must stand for the scripted General to join it, inches.
const HOST_NEAR: f64 = 4.0;

fn nearest<'a>(from: Point, among: impl Iterator<Item = &'a UnitView>) -> Option<&'a UnitView> {
    among.min_by(|a, b| a.at.distance(from).total_cmp(&b.at.distance(from)).then(a.id.cmp(&b.id)))
}

fn is_skirmisher(rules: &Wrg1969, u: &UnitView) -> bool {
    let _ = rules;
    u.troop.is_light() && u.missile.is_some()
}

impl Scripted {
    /// The orders written before the battle.
    pub fn write(&self, rules: &Wrg1969, st: &State, side: Side) -> Vec<Written> {
        let view = rules.view(st, Viewer::Side(side));
        let own: Vec<&UnitView> = view.table.units.iter().filter(|u| u.side == side).collect();
        let enemies: Vec<&UnitView> =
            view.table.units.iter().filter(|u| u.side != side && u.figures > 0).collect();
        let mut orders = Vec::new();
        let mut taken: Vec<u16> = Vec::new();
        for obj in &st.objectives {
            let Some(area) = st.table.areas.get(obj.area) else { continue };
            let seeing = own.iter().filter(|u| {
                !taken.contains(&u.id)
                    && u.troop.is_infantry()
                    && !u.troop.is_light()
                    && sees_area(&st.table, u.at, eye(u.troop), obj.area)
            });
            let centre = area.polygon.centroid().unwrap_or(Point::new(0.0, 0.0));
            if let Some(u) = nearest(centre, seeing.copied()) {
                taken.push(u.id);
                let order =
                    Order::new(Verb::Advance { to: Objective::Feature { id: area.name.clone() } });
                orders.push(Written { unit: u.id, order: Some(order) });
            }
        }
        let mut attackers = vec![0u32; st.units.len()];
        for u in own.iter().filter(|u| !taken.contains(&u.id)) {
            let order = if u.troop.is_engine() {
                Order::new(Verb::Hold { at: None })
            } else if is_skirmisher(rules, u) {
                match nearest(u.at, enemies.iter().copied()) {
                    Some(e) => Order::new(Verb::Skirmish { unit: e.id }),
                    None => Order::new(Verb::Hold { at: None }),
                }
            } else {
                let fewest = enemies.iter().map(|e| attackers[e.id as usize]).min().unwrap_or(0);
                let open = enemies
                    .iter()
                    .copied()
                    .filter(|e| attackers[e.id as usize] < 2.max(fewest + 1));
                match nearest(u.at, open) {
                    Some(e) => {
                        attackers[e.id as usize] += 1;
                        Order::new(Verb::Attack { unit: e.id })
                    }
                    None => Order::new(Verb::Hold { at: None }),
                }
            };
            orders.push(Written { unit: u.id, order: Some(order) });
        }
        // Keep only what the rules accept (a feature out of sight, light foot against horse).
        orders
            .into_iter()
            .map(|w| {
                let one = Command::Write { orders: vec![w.clone()] };
                if rules.check(st, Actor::Side(side), &one).is_ok() {
                    w
                } else {
                    Written { unit: w.unit, order: Some(Order::new(Verb::Hold { at: None })) }
                }
            })
            .collect()
    }

    /// The plan for the coming period.
    pub fn plan(&self, rules: &Wrg1969, st: &State, side: Side) -> Plan {
        let view: View = rules.view(st, Viewer::Side(side));
        let units = &view.table.units;
        // Enemies worth an order: on the table and not running.
        let enemies: Vec<&UnitView> = units
            .iter()
            .filter(|u| u.side != side && u.figures > 0 && !u.routing && !u.away)
            .collect();
        let mut plan = Plan::default();
        let target_gone =
            |id: u16| units.get(id as usize).is_none_or(|e| e.figures == 0 || e.routing || e.away);
        let mut wanting: Vec<(f64, u16, Order)> = Vec::new();
        for u in units.iter().filter(|u| u.side == side && u.figures > 0 && !u.routing && !u.away) {
            let stale = u.awaiting_order
                || match u.order.as_ref().map(|o| &o.verb) {
                    None => true,
                    Some(Verb::Attack { unit }) | Some(Verb::Skirmish { unit }) => {
                        target_gone(*unit)
                    }
                    _ => false,
                };
            if !stale || u.pursuing || u.incoming {
                continue;
            }
            let Some(e) = nearest(u.at, enemies.iter().copied()) else { continue };
            let verb = if is_skirmisher(rules, u) {
                Verb::Skirmish { unit: e.id }
            } else {
                Verb::Attack { unit: e.id }
            };
            wanting.push((u.at.distance(e.at), u.id, Order::new(verb)));
        }
        wanting.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // Several units near the General left without a task: one signal sets them all going,
        // quicker than messengers (WRG-CHORD-07 .. -09).
        let stale: Vec<u16> = wanting.iter().map(|w| w.1).collect();
        if let Some((k, stirred)) = signal_to_give(&rules.data_for(st), st, side, &stale) {
            let mut trial = plan.clone();
            trial.signal = Some(k);
            if rules.check(st, Actor::Side(side), &Command::Plan(trial.clone())).is_ok() {
                plan = trial;
                wanting.retain(|w| !stirred.contains(&w.1));
            }
        }
        for (_, unit, order) in wanting {
            let mut trial = plan.clone();
            trial.dictate.push(Dictation { unit, order: order.clone() });
            if rules.check(st, Actor::Side(side), &Command::Plan(trial.clone())).is_ok() {
                plan = trial;
            } else {
                let hold = Order::new(Verb::Hold { at: None });
                let mut trial = plan.clone();
                trial.dictate.push(Dictation { unit, order: hold });
                if rules.check(st, Actor::Side(side), &Command::Plan(trial.clone())).is_ok() {
                    plan = trial;
                }
            }
        }
        // Units left without an order and with none on its way may be set going by an
        // optional test when the odds favour it (WRG-RT-01).
        let data = rules.data_for(st);
        let sight = crate::situation::Sightlines::new(&data, st);
        for u in units.iter().filter(|u| u.side == side && u.figures > 0 && !u.away) {
            let asked = plan.dictate.iter().any(|d| d.unit == u.id);
            if asked || u.order.is_some() || u.incoming || u.routing || u.pursuing {
                continue;
            }
            if crate::test_phase::optional_promising_in(&data, &sight, u.id) {
                let mut trial = plan.clone();
                trial.test.push(u.id);
                if rules.check(st, Actor::Side(side), &Command::Plan(trial.clone())).is_ok() {
                    plan = trial;
                }
            }
        }
        if let Some(g) = view.generals.iter().find(|g| g.side == side && !g.fallen) {
            // His figure's own pace (WRG-CHORD-04, WRG-M-01).
            let reach = crate::state::general(st, side)
                .map_or(0.0, |g| crate::riders::general_speeds(&rules.data_for(st), g).0);
            let routers = units.iter().filter(|u| u.side == side && u.routing && !u.away);
            let (to, join) = match nearest(g.at, routers).filter(|u| u.at.distance(g.at) <= reach) {
                Some(u) => (u.at, None),
                None => {
                    let own: Vec<&UnitView> = units
                        .iter()
                        .filter(|u| u.side == side && u.figures > 0 && !u.away)
                        .collect();
                    let foe: Vec<&UnitView> = enemies.clone();
                    let mid = |v: &[&UnitView]| {
                        let n = v.len().max(1) as f64;
                        let (x, y) =
                            v.iter().fold((0.0, 0.0), |(x, y), u| (x + u.at.x, y + u.at.y));
                        Point::new(x / n, y / n)
                    };
                    let (m, f) = (mid(&own), mid(&foe));
                    let away = (m - f)
                        .normalized()
                        .map_or(tabletop::geometry::Vec2::new(0.0, 0.0), |v| v * 6.0);
                    let station = m + away;
                    // He stands with the unit nearest his station, steadying it (WRG-CHORD-10,
                    // WRG-RFAC-26), if one stands within 4" of it.
                    let fresh = own.iter().copied().filter(|u| {
                        !u.routing && !u.pursuing && u.at.distance(station) <= HOST_NEAR
                    });
                    match nearest(station, fresh) {
                        Some(h) => (h.at, Some(h.id)),
                        None => (station, None),
                    }
                }
            };
            let gap = g.at.distance(to);
            let join = join.filter(|_| gap <= reach + 1e-9);
            let step = if gap > reach { g.at.lerp(to, reach / gap) } else { to };
            let step = Point::new(
                step.x.clamp(0.5, st.table.width - 0.5),
                step.y.clamp(0.5, st.table.height - 0.5),
            );
            if (gap > 0.5 && join.is_none()) || (join.is_some() && g.attached != join) {
                // Bad going may cut his ride short: try a shorter one (joining only a unit he
                // reaches).
                for share in [1.0, 0.5, 0.25] {
                    let to = g.at.lerp(step, share);
                    let mut trial = plan.clone();
                    let join = join.filter(|_| share == 1.0);
                    trial.general = Some(GeneralMove { x: to.x, y: to.y, join });
                    if rules.check(st, Actor::Side(side), &Command::Plan(trial.clone())).is_ok() {
                        plan = trial;
                        break;
                    }
                }
            }
        }
        plan
    }
}

/// The pre-arranged signal to give, if any: the first that sends units forward, when at least
/// two of the side's units within signal range of the General are without a task (`stale`)
/// and they are no fewer there than units busy with orders of their own, which the signal
/// would override (WRG-CHORD-07, -08). Returns the signal and the stale units it reaches.
fn signal_to_give(
    data: &crate::Data,
    st: &State,
    side: Side,
    stale: &[u16],
) -> Option<(u8, Vec<u16>)> {
    let g = crate::state::general(st, side).filter(|g| !g.risk.fallen(data))?;
    let k = st
        .signals
        .get(side.index())?
        .iter()
        .position(|(o, _)| matches!(o.verb, Verb::Advance { .. } | Verb::Attack { .. }))?;
    let range = data.movement.distances.signal_range;
    let near = st.units.iter().filter(|u| {
        u.side == side && u.on_table() && u.rout.is_none() && u.at.distance(g.at) <= range
    });
    let (mut stirred, mut busy) = (Vec::new(), 0);
    for u in near {
        if stale.contains(&u.id) {
            stirred.push(u.id);
        } else if u.standing.order().is_some() || u.incoming.is_some() {
            busy += 1;
        }
    }
    (stirred.len() >= 2 && stirred.len() >= busy).then_some((k as u8, stirred))
}

impl Bot<Wrg1969> for Scripted {
    fn describe(&self) -> String {
        "scripted".into()
    }

    fn choose(
        &mut self,
        rules: &Wrg1969,
        state: &State,
        side: Side,
        _rng: &mut SeededDice,
    ) -> Result<Command, BotError> {
        let command = if crate::state::waiting(state).contains(&side) {
            Command::Write { orders: self.write(rules, state, side) }
        } else {
            Command::Plan(self.plan(rules, state, side))
        };
        match rules.check(state, Actor::Side(side), &command) {
            Ok(()) => Ok(command),
            // An empty plan is always allowed while the side has to plan.
            Err(_) => Ok(Command::Plan(Plan::default())),
        }
    }

    /// It keeps nothing between choices.
    fn reusable(&self) -> bool {
        true
    }
}

/// Registers the scripted player as `scripted` and the search as `mcts` (with
/// [`crate::search::WrgHooks`]) on a WRG 1969 host (call after `bots::with_standard_bots`).
pub fn register(host: Host<Wrg1969>) -> Host<Wrg1969> {
    let host = host.with_bot("scripted", SCRIPTED_ABOUT, |spec: &BotSpec| {
        spec.only(&[])?;
        Ok(Box::new(Hosted::<Wrg1969, _>::new(Scripted)) as Box<dyn HostedBot>)
    });
    // `mcts` searching only what its side may see (WRG-ORD-01, WRG-R-08).
    crate::search::register(host)
}
