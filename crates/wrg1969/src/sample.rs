//! Sampled legal commands, for bots and the random-game harness: orders for every unit before
//! the battle, and plans with directed moves, dictations, signals and rides that pass the
//! rule set's own checks.

use crate::orders::{Objective, Order, Verb};
use crate::plan::{Dictation, GeneralMove, Plan, Step, UnitMove};
use crate::rules_impl::{Command, Wrg1969};
use crate::state::{State, Written};
use tabletop::dice::SeededDice;
use tabletop::geometry::Point;
use tabletop::rules::{Actor, RuleSet, Side};

fn below(rng: &mut SeededDice, n: usize) -> usize {
    if n == 0 { 0 } else { tabletop::dice::uniform_below(n as u32, || rng.next_u32()) as usize }
}

fn unit_interval(rng: &mut SeededDice) -> f64 {
    f64::from(rng.next_u32()) / f64::from(u32::MAX)
}

/// A random order for a unit of `side`: attack or skirmish an enemy, advance to a point,
/// hold, evade.
fn random_order(st: &State, side: Side, rng: &mut SeededDice) -> Option<Order> {
    let enemies: Vec<u16> =
        st.units.iter().filter(|u| u.side != side && u.on_table()).map(|u| u.id).collect();
    let verb = match below(rng, 5) {
        0 | 1 if !enemies.is_empty() => Verb::Attack { unit: enemies[below(rng, enemies.len())] },
        2 => Verb::Advance {
            to: Objective::Point {
                x: (unit_interval(rng) * st.table.width).floor(),
                y: (unit_interval(rng) * st.table.height).floor(),
            },
        },
        3 if !enemies.is_empty() => Verb::Skirmish { unit: enemies[below(rng, enemies.len())] },
        4 => Verb::Evade,
        _ => Verb::Hold { at: None },
    };
    Some(Order::new(verb))
}

/// Sampled commands for `side` that pass `check`.
pub fn candidates(r: &Wrg1969, st: &State, side: Side, rng: &mut SeededDice) -> Vec<Command> {
    let mut out = Vec::new();
    let ok = |c: &Command| r.check(st, Actor::Side(side), c).is_ok();
    if !crate::state::waiting(st).is_empty() {
        out.push(Command::Write { orders: vec![] });
        for _ in 0..3 {
            let mut orders = Vec::new();
            for u in st.units.iter().filter(|u| u.side == side) {
                let w = Written { unit: u.id, order: random_order(st, side, rng) };
                let one = Command::Write { orders: vec![w.clone()] };
                if ok(&one) {
                    orders.push(w);
                }
            }
            out.push(Command::Write { orders });
        }
        out.retain(ok);
        return out;
    }
    if st.plans[side.index()].is_some() {
        return out;
    }
    out.push(Command::Plan(Plan::default()));
    let data = r.data_for(st);
    let own: Vec<&crate::state::Unit> =
        st.units.iter().filter(|u| u.side == side && u.on_table()).collect();
    for _ in 0..4 {
        let mut plan = Plan::default();
        for u in &own {
            if below(rng, 3) != 0 {
                continue;
            }
            let step = match below(rng, 4) {
                0 => Step::Halt,
                1 => {
                    let enemies: Vec<u16> = st
                        .units
                        .iter()
                        .filter(|e| e.side != side && e.on_table())
                        .map(|e| e.id)
                        .collect();
                    if enemies.is_empty() {
                        continue;
                    }
                    Step::Charge { target: enemies[below(rng, enemies.len())] }
                }
                2 => Step::StepBack { inches: 1.0 + 2.0 * unit_interval(rng) },
                _ => {
                    let reach = data.moves(u.troop).normal * unit_interval(rng);
                    let to = u.at + u.facing.vector() * reach;
                    Step::MoveTo { x: to.x, y: to.y, facing: None }
                }
            };
            let m = UnitMove { unit: u.id, step };
            if crate::move_phase::check_move(&data, st, side, &m).is_ok() {
                plan.moves.push(m);
            }
        }
        if below(rng, 2) == 0
            && let Some(u) = own.get(below(rng, own.len()))
            && let Some(order) = random_order(st, side, rng)
        {
            let d = Dictation { unit: u.id, order };
            let trial = Plan { dictate: vec![d.clone()], ..Plan::default() };
            if ok(&Command::Plan(trial)) {
                plan.dictate.push(d);
            }
        }
        if let Some(g) = crate::state::general(st, side)
            && below(rng, 2) == 0
        {
            // A ride of up to 6" each way, kept on the table.
            let dx = 12.0 * unit_interval(rng) - 6.0;
            let dy = 12.0 * unit_interval(rng) - 6.0;
            let to = Point::new(
                (g.at.x + dx).clamp(0.5, st.table.width - 0.5),
                (g.at.y + dy).clamp(0.5, st.table.height - 0.5),
            );
            plan.general = Some(GeneralMove { x: to.x, y: to.y, join: None });
        }
        let n = st.signals.get(side.index()).map_or(0, Vec::len);
        if n > 0 && below(rng, 4) == 0 {
            plan.signal = Some(below(rng, n) as u8);
        }
        out.push(Command::Plan(plan));
    }
    out.retain(ok);
    out
}
