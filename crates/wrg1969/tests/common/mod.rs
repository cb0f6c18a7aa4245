//! Set-ups for tests that play periods through the game: a ready scenario with units placed
//! where the test needs them (editing the scenario before the first period), both sides'
//! orders written, then plans submitted and the period's notes read back.
#![allow(dead_code)]

use std::sync::Arc;
use tabletop::diagnostics::Source;
use tabletop::game::Game;
use tabletop::geometry::{Facing, Point};
use tabletop::rules::{Actor, Side};
use wrg1969::orders::{Order, Verb};
use wrg1969::plan::Plan;
use wrg1969::report::{Fact, Note};
use wrg1969::scenario::Scenario;
use wrg1969::unit::Block;
use wrg1969::{Command, Data, Event, Wrg1969};

/// A ready scenario being set up for a test.
pub struct Setup {
    /// The scenario.
    pub sc: Scenario,
    source: Source,
}

/// Loads a ready scenario.
pub fn load(name: &str) -> Setup {
    let path = format!("{}/../../scenarios/wrg1969/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the scenario is there");
    let source = Source::new(name, text);
    let sc = wrg1969::scenario::load(&Data::embedded().unwrap(), &source).expect("it loads");
    Setup { sc, source }
}

fn side_index(side: Side) -> usize {
    match side {
        Side::Red => 0,
        Side::Blue => 1,
    }
}

impl Setup {
    /// The place of a unit in its side's list.
    pub fn index(&self, side: Side, name: &str) -> usize {
        let s = &self.sc.sides[side_index(side)];
        s.army.units.iter().position(|u| u.name == name).unwrap_or_else(|| panic!("no {name}"))
    }

    /// Every unit holds where it stands and keeps its shot (WRG-ORD-07), so only what the test
    /// sets up happens.
    pub fn quiet(mut self) -> Setup {
        for s in &mut self.sc.sides {
            for p in &mut s.units {
                p.order = Some(Order { hold_fire: true, ..Order::new(Verb::Hold { at: None }) });
            }
        }
        self
    }

    /// Places a unit: its standard, facing (degrees) and figures abreast.
    pub fn put(
        mut self,
        side: Side,
        name: &str,
        x: f64,
        y: f64,
        bearing: f64,
        files: u32,
    ) -> Setup {
        let i = self.index(side, name);
        let figures = self.sc.sides[side_index(side)].army.units[i].figures;
        let p = self.sc.sides[side_index(side)].units.iter_mut().find(|p| p.index == i).unwrap();
        p.at = Point::new(x, y);
        p.facing = Facing::from_bearing_degrees(bearing);
        p.block = Block::new(figures, files);
        self
    }

    /// Gives a unit its written order.
    pub fn order(mut self, side: Side, name: &str, order: Order) -> Setup {
        let i = self.index(side, name);
        let p = self.sc.sides[side_index(side)].units.iter_mut().find(|p| p.index == i).unwrap();
        p.order = Some(order);
        self
    }

    /// Places a side's General.
    pub fn general(mut self, side: Side, x: f64, y: f64) -> Setup {
        self.sc.sides[side_index(side)].general.0 = Point::new(x, y);
        self
    }

    /// The game before either side has written its orders.
    pub fn game_unwritten(self, seed: u64) -> Game<Wrg1969> {
        Game::from_scenario(Arc::new(Wrg1969::new()), self.sc, self.source, seed)
    }

    /// The game, both sides' orders written as set up.
    pub fn game(self, seed: u64) -> Game<Wrg1969> {
        let mut g = Game::from_scenario(Arc::new(Wrg1969::new()), self.sc, self.source, seed);
        for side in Side::BOTH {
            g.submit(Actor::Side(side), Command::Write { orders: vec![] }).expect("accepted");
        }
        g
    }
}

/// The order to attack or skirmish an enemy unit, by its place in the enemy's list.
pub fn attack(enemy_index: usize) -> Order {
    Order::new(Verb::Attack { unit: enemy_index as u16 })
}

/// The id of a unit in play.
pub fn id(g: &Game<Wrg1969>, name: &str) -> u16 {
    g.state().units.iter().position(|u| &*u.name == name).unwrap_or_else(|| panic!("no {name}"))
        as u16
}

/// Plays one period with these plans; returns its notes.
pub fn period(g: &mut Game<Wrg1969>, red: Plan, blue: Plan) -> Vec<Note> {
    let mut notes = Vec::new();
    for (side, plan) in [(Side::Red, red), (Side::Blue, blue)] {
        let events =
            g.submit(Actor::Side(side), Command::Plan(plan)).expect("the plan is accepted");
        notes.extend(events.iter().filter_map(|e| match e {
            Event::Noted(n) => Some(n.clone()),
            _ => None,
        }));
    }
    for n in &notes {
        for t in &n.totals {
            assert!(t.adds_up(), "{} does not add up: {}", t.what, n.describe());
        }
    }
    notes
}

/// Plays one period in which neither side directs anything.
pub fn quiet_period(g: &mut Game<Wrg1969>) -> Vec<Note> {
    period(g, Plan::default(), Plan::default())
}

/// Whether a note cites a rule.
pub fn cites(n: &Note, rule: &str) -> bool {
    n.rules.iter().any(|r| r.as_str() == rule)
        || n.totals.iter().any(|t| t.parts.iter().any(|p| p.rule.as_str() == rule))
}

/// The shots of a period: (note, shooter, target unit, step, figures).
pub fn shots(notes: &[Note]) -> Vec<(&Note, u16, Option<u16>, u32, u32)> {
    notes
        .iter()
        .filter_map(|n| match &n.fact {
            Some(Fact::Shot { shooter, target, step, figures, .. }) => {
                Some((n, *shooter, *target, *step, *figures))
            }
            _ => None,
        })
        .collect()
}

/// The part of a note's total with this rule, if any.
pub fn part(n: &Note, rule: &str) -> Option<f64> {
    n.totals.iter().flat_map(|t| &t.parts).find(|p| p.rule.as_str() == rule).map(|p| p.value)
}
