//! Shared helpers for the Liberal Move tests: small scenarios from TOML snippets, a game driven
//! through the rules' own `check`/`perform` with scripted dice, and the log.
#![allow(dead_code)]

use liberal::Liberal;
use liberal::state::{Choice, Command, Event, Objective, Order, Phase, Stage, State};
use tabletop::diagnostics::Source;
use tabletop::dice::ScriptedDice;
use tabletop::geometry::Point;
use tabletop::rules::{Actor, Narrate, Refusal, RuleSet, Side};

/// A scenario on a 72" × 48" table, red in the south, blue in the north; `body` holds the
/// `[[unit]]` entries and any terrain; `head` extra `[scenario]` keys.
pub fn scenario(head: &str, body: &str) -> String {
    format!(
        r#"ruleset = "liberal"

[scenario]
name = "test"
{head}

[table]
width = 72.0
height = 48.0

[[side]]
side = "red"
name = "Red"
edge = "south"

[[side]]
side = "blue"
name = "Blue"
edge = "north"

{body}
"#
    )
}

/// A `[[unit]]` entry: `extra` holds further keys (`figures = 12`, `formation = "column"`).
pub fn unit(side: &str, ty: &str, x: f64, y: f64, facing: f64, extra: &str) -> String {
    format!(
        "[[unit]]\nside = \"{side}\"\ntype = \"{ty}\"\nat = [{x:?}, {y:?}]\nfacing = {facing:?}\n{extra}\n\n"
    )
}

/// A game under test.
pub struct T {
    /// The rules.
    pub rules: Liberal,
    /// The state.
    pub st: State,
    /// Every event so far.
    pub events: Vec<Event>,
}

impl T {
    /// A game of a scenario's text, before the roll for edges.
    pub fn new(text: &str, setup_dice: &[u8]) -> T {
        let rules = Liberal::new();
        let sc =
            rules.load_scenario(&Source::new("test.toml", text)).unwrap_or_else(|e| panic!("{e}"));
        let mut dice = ScriptedDice::new(setup_dice.iter().copied());
        let (st, events) = rules.setup(&sc, &mut dice);
        T { rules, st, events }
    }

    /// A game of a scenario's text at red's first declaration: red wins the roll for edges
    /// (dice 6, 1) and keeps the south, both keep their places, and red moves first (6, 1).
    pub fn at_red_turn(text: &str) -> T {
        let mut t = T::new(text, &[6, 1]);
        t.side(Side::Red, Command::ChooseEdge { south: true }, &[]);
        t.side(Side::Red, Command::Deploy { placements: Vec::new() }, &[]);
        t.side(Side::Blue, Command::Deploy { placements: Vec::new() }, &[6, 1]);
        assert!(matches!(t.st.phase, Phase::Turn { side: Side::Red, stage: Stage::Declare, .. }));
        t
    }

    /// A game of a ready scenario at red's first declaration.
    pub fn ready_scenario(name: &str) -> T {
        let text = std::fs::read_to_string(format!(
            "{}/../../scenarios/liberal/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("the scenario");
        T::at_red_turn(&text)
    }

    /// Carries out a command with these dice; panics with the refusal if it is refused, or if
    /// the rules rolled fewer dice than scripted.
    pub fn go(&mut self, actor: Actor, c: Command, faces: &[u8]) -> Vec<Event> {
        let mut dice = ScriptedDice::new(faces.iter().copied());
        let ev = self
            .rules
            .perform(&mut self.st, actor, &c, &mut dice)
            .unwrap_or_else(|r| panic!("refused: {r} ({c:?})"));
        if dice.remaining() > 0 {
            for l in T::log(&ev) {
                eprintln!("{l}");
            }
        }
        assert_eq!(
            dice.remaining(),
            0,
            "dice left over after {c:?}: the rules rolled fewer than scripted"
        );
        self.events.extend(ev.clone());
        ev
    }

    /// As [`T::go`] for a side.
    pub fn side(&mut self, side: Side, c: Command, faces: &[u8]) -> Vec<Event> {
        self.go(Actor::Side(side), c, faces)
    }

    /// Declares these orders for a side.
    pub fn declare(&mut self, side: Side, orders: Vec<Order>, faces: &[u8]) -> Vec<Event> {
        self.side(side, Command::Declare { orders }, faces)
    }

    /// The refusal of a command, asserting that nothing changed.
    pub fn refused(&self, side: Side, c: Command) -> Refusal {
        let mut copy = self.st.clone();
        let mut dice = ScriptedDice::new([]);
        let r = self
            .rules
            .perform(&mut copy, Actor::Side(side), &c, &mut dice)
            .expect_err("it should be refused");
        assert_eq!(copy, self.st, "a refusal changed the state");
        r
    }

    /// The log lines of these events.
    pub fn log(ev: &[Event]) -> Vec<String> {
        ev.iter().map(|e| e.narrate().text).collect()
    }

    /// Whether any of these events cites the rule.
    pub fn cites(ev: &[Event], rule: &str) -> bool {
        ev.iter().any(|e| e.rules().iter().any(|r| r.as_str() == rule))
    }
}

/// An order.
pub fn order(unit: usize, choice: Choice) -> Order {
    Order { unit, choice }
}

/// A normal move to a point.
pub fn normal(unit: usize, x: f64, y: f64) -> Order {
    order(
        unit,
        Choice::Normal {
            to: Point::new(x, y),
            facing: None,
            formation: None,
            mount: None,
            target: None,
        },
    )
}

/// A liberal move to assault an enemy unit.
pub fn assault(unit: usize, enemy: usize) -> Order {
    order(unit, Choice::Liberal { objective: Objective::Unit { unit: enemy }, formation: None })
}

/// Standing fast.
pub fn stand(unit: usize) -> Order {
    order(unit, Choice::StandFast { target: None })
}
