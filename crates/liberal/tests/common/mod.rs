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

/// Dice for working out a test's script: the scripted faces, then `fallback` (at most the die's
/// top face); every roll is printed with its die.
pub struct ProbeDice {
    /// Faces still to show.
    pub faces: std::collections::VecDeque<u8>,
    /// The face once the script is spent.
    pub fallback: u8,
    /// Dice rolled.
    pub used: usize,
}

impl tabletop::dice::DiceSource for ProbeDice {
    fn face(&mut self, die: tabletop::dice::Die) -> u8 {
        let top = die.faces().min(255) as u8;
        let v = self.faces.pop_front().unwrap_or(self.fallback.min(top));
        self.used += 1;
        eprintln!("probe die {}: {} shows {v}", self.used, die.name());
        v
    }
}

impl T {
    /// Carries out a command on a copy of the game with these faces, then `fallback` faces,
    /// printing the dice and the log; returns how many dice were rolled. For working a test
    /// out, not for asserting.
    pub fn probe(&self, side: Side, c: Command, faces: &[u8], fallback: u8) -> usize {
        let mut copy = self.st.clone();
        let mut dice = ProbeDice { faces: faces.iter().copied().collect(), fallback, used: 0 };
        match self.rules.perform(&mut copy, Actor::Side(side), &c, &mut dice) {
            Ok(ev) => {
                for l in T::log(&ev) {
                    eprintln!("probe: {l}");
                }
            }
            Err(r) => eprintln!("probe: refused: {r}"),
        }
        dice.used
    }

    /// The rule a refusal cites.
    pub fn refused_rule(&self, side: Side, c: Command) -> String {
        self.refused(side, c).rule.as_str().to_string()
    }
}

// ---- Helpers for the fire, artillery, melee, square and house tests (appended). ----

/// A scenario as [`scenario`] on a 72" × `height` table: on a 36" table the two 18" zones meet,
/// so units may start a few inches apart.
pub fn scenario_h(height: f64, head: &str, body: &str) -> String {
    scenario(head, body).replacen("height = 48.0", &format!("height = {height:?}"), 1)
}

/// The volleys a unit fired in these events, with their hits.
pub fn volleys_of(
    ev: &[Event],
    firer: usize,
) -> Vec<(liberal::state::Volley, Vec<liberal::state::Hit>)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Fired { volley, hits, .. } if volley.firer == firer => {
                Some((volley.clone(), hits.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Every volley in these events.
pub fn all_volleys(ev: &[Event]) -> Vec<liberal::state::Volley> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Fired { volley, .. } => Some(volley.clone()),
            _ => None,
        })
        .collect()
}

/// The shots a battery fired in these events, with their hits.
pub fn cannons_of(
    ev: &[Event],
    gun: usize,
) -> Vec<(liberal::state::Cannonade, Vec<liberal::state::Hit>)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Cannon { shot, hits, .. } if shot.gun == gun => {
                Some((shot.clone(), hits.clone()))
            }
            _ => None,
        })
        .collect()
}

/// A hand-to-hand as logged.
#[derive(Clone, Debug)]
pub struct MeleeLog {
    /// The attacker.
    pub attacker: usize,
    /// The defenders gathered.
    pub defenders: Vec<usize>,
    /// A house fight.
    pub house: bool,
    /// The single fights.
    pub fights: Vec<liberal::state::Fight>,
    /// The rank results.
    pub ranks: Vec<(bool, Vec<(usize, usize)>)>,
    /// The attacker won.
    pub attacker_won: bool,
    /// Squares broken to support.
    pub broken: Vec<usize>,
    /// The rules cited.
    pub rules: Vec<String>,
}

/// The hand-to-hands in these events.
pub fn melees(ev: &[Event]) -> Vec<MeleeLog> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Melee {
                attacker,
                defenders,
                house,
                fights,
                ranks,
                attacker_won,
                broken,
                rules,
                ..
            } => Some(MeleeLog {
                attacker: *attacker,
                defenders: defenders.clone(),
                house: *house,
                fights: fights.clone(),
                ranks: ranks.clone(),
                attacker_won: *attacker_won,
                broken: broken.clone(),
                rules: rules.iter().map(|r| r.as_str().to_string()).collect(),
            }),
            _ => None,
        })
        .collect()
}

/// The moves of a unit in these events.
pub fn moves_of(ev: &[Event], unit: usize) -> Vec<(liberal::state::Moved, Vec<String>)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Moved { moved, rules, .. } if moved.unit == unit => {
                Some((moved.clone(), rules.iter().map(|r| r.as_str().to_string()).collect()))
            }
            _ => None,
        })
        .collect()
}

/// The dice for one volley of `firer` at `target` as the engine would work it now: the
/// remainder die showing its top face (so no extra casualty), then `face` for every casualty
/// (at most the target's strength).
pub fn volley_script(
    t: &T,
    firer: usize,
    target: usize,
    standing: bool,
    dirs: usize,
    face: u8,
) -> Vec<u8> {
    let (f, g) = (&t.st.units[firer], &t.st.units[target]);
    let s = t.rules.shooting(&t.st, f, g, standing, dirs).expect("the firer can shoot");
    let b = &t.rules.data.rules.fire.band[t.rules.band(f, s.distance, s.range)];
    let d = b.per_casualty as usize;
    let mut v = Vec::new();
    if !s.figures.is_multiple_of(d) {
        v.push(d as u8);
    }
    let (cover, _) = t.rules.cover(&t.st, f, g);
    let n = ((s.figures / d) as u32).saturating_sub(cover) as usize;
    v.extend(std::iter::repeat_n(face, n.min(g.strength())));
    v
}

/// One single fight the attacker wins, then the loser's fate die.
pub fn a_wins(fate: u8) -> [u8; 3] {
    [6, 1, fate]
}

/// One single fight the defender wins, then the loser's fate die.
pub fn d_wins(fate: u8) -> [u8; 3] {
    [1, 6, fate]
}

/// Dice for a run of single fights ('a' attacker wins, 'd' defender wins), each loser taking
/// `fate`.
pub fn fights(pattern: &str, fate: u8) -> Vec<u8> {
    pattern.chars().flat_map(|c| if c == 'a' { a_wins(fate) } else { d_wins(fate) }).collect()
}
