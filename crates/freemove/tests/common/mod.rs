//! Shared helpers for the Free Move tests: small scenarios from TOML snippets, a game driven
//! through the rules' own `check`/`perform` with scripted dice, and the log.
#![allow(dead_code)]

use freemove::Freemove;
use freemove::state::{Command, Event, Phase, Placement, ReadyOrders, State};
use tabletop::diagnostics::Source;
use tabletop::dice::ScriptedDice;
use tabletop::geometry::Point;
use tabletop::rules::{Actor, Narrate, Refusal, RuleSet, Side};

/// A scenario on a 48" × 36" table, red in the south, blue in the north; `body` holds the
/// `[[stand]]` entries and any terrain; `head` extra `[scenario]` keys.
pub fn scenario(head: &str, body: &str) -> String {
    format!(
        r#"ruleset = "freemove"

[scenario]
name = "test"
{head}

[table]
width = 48.0
height = 36.0

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

/// A `[[stand]]` entry.
pub fn stand(side: &str, ty: &str, x: f64, y: f64, facing: f64) -> String {
    format!(
        "[[stand]]\nside = \"{side}\"\ntype = \"{ty}\"\nat = [{x:?}, {y:?}]\nfacing = {facing:?}\n\n"
    )
}

/// A game under test.
pub struct T {
    /// The rules.
    pub rules: Freemove,
    /// The state.
    pub st: State,
    /// Every event so far.
    pub events: Vec<Event>,
}

impl T {
    /// A game of a scenario's text.
    pub fn new(text: &str) -> T {
        let rules = Freemove::new();
        let sc =
            rules.load_scenario(&Source::new("test.toml", text)).unwrap_or_else(|e| panic!("{e}"));
        let mut dice = ScriptedDice::new([]);
        let (st, events) = rules.setup(&sc, &mut dice);
        T { rules, st, events }
    }

    /// A game of a ready scenario.
    pub fn ready_scenario(name: &str) -> T {
        let text = std::fs::read_to_string(format!(
            "{}/../../scenarios/freemove/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("the scenario");
        T::new(&text)
    }

    /// Carries out a command; panics with the refusal if it is refused.
    pub fn go(&mut self, actor: Actor, c: Command, faces: &[u8]) -> Vec<Event> {
        let mut dice = ScriptedDice::new(faces.iter().copied());
        let ev = self
            .rules
            .perform(&mut self.st, actor, &c, &mut dice)
            .unwrap_or_else(|r| panic!("refused: {r} ({c:?})"));
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

    /// Both sides ready with nothing declared; the window opens with these initiative dice.
    pub fn ready(&mut self, initiative: &[u8]) {
        if matches!(self.st.phase, Phase::Deploy { .. }) {
            // A hidden deployment: both sides keep the scenario's places.
            self.side(Side::Red, Command::Deploy { placements: Vec::new() }, &[]);
            self.side(Side::Blue, Command::Deploy { placements: Vec::new() }, &[]);
        }
        self.side(Side::Red, Command::Ready(ReadyOrders::default()), &[]);
        self.side(Side::Blue, Command::Ready(ReadyOrders::default()), initiative);
    }

    /// The moment a side acts next.
    pub fn at(&self, side: Side) -> u64 {
        self.rules.free_at(&self.st, side).expect("in the timed move")
    }

    /// A step of a stand now.
    pub fn step(
        &mut self,
        side: Side,
        stand: usize,
        x: f64,
        y: f64,
        facing: Option<f64>,
    ) -> Vec<Event> {
        let at = self.at(side);
        self.side(side, Command::Step { at_ms: at, stand, to: Point::new(x, y), facing }, &[])
    }

    /// The command of a step now, for refusals.
    pub fn step_cmd(
        &self,
        side: Side,
        stand: usize,
        x: f64,
        y: f64,
        facing: Option<f64>,
    ) -> Command {
        Command::Step { at_ms: self.at(side), stand, to: Point::new(x, y), facing }
    }

    /// A side is done for the window.
    pub fn done(&mut self, side: Side, faces: &[u8]) -> Vec<Event> {
        let at = self.at(side);
        self.side(side, Command::Done { at_ms: at }, faces)
    }

    /// Both sides done, red first; `faces` for what follows the bell.
    pub fn bell(&mut self, faces: &[u8]) -> Vec<Event> {
        self.done(Side::Red, &[]);
        self.done(Side::Blue, faces)
    }

    /// Hands in empty secret orders for whatever the phase asks of both sides, red then blue,
    /// the last with `faces`.
    pub fn pass(&mut self, faces: &[u8]) -> Vec<Event> {
        let waiting = self.rules.pending(&self.st).sides();
        let mut out = Vec::new();
        for (k, side) in waiting.iter().enumerate() {
            let c = match &self.st.phase {
                Phase::Rearrange { .. } => Command::Rearrange { moves: Vec::new() },
                Phase::Fire { .. } => Command::Fire { targets: Vec::new() },
                Phase::PullOut { .. } => Command::PullOut { melees: Vec::new() },
                Phase::Bonus { .. } => Command::Bonus { moves: Vec::new() },
                Phase::Ready { .. } => Command::Ready(ReadyOrders::default()),
                p => panic!("nothing to pass in {p:?}"),
            };
            let f = if k + 1 == waiting.len() { faces } else { &[] };
            out.extend(self.side(*side, c, f));
        }
        out
    }

    /// The log so far.
    pub fn log(&self) -> Vec<String> {
        self.events.iter().map(|e| e.narrate().text).collect()
    }

    /// Whether a log line holds every one of these pieces.
    pub fn logged(&self, pieces: &[&str]) -> bool {
        self.log().iter().any(|l| pieces.iter().all(|p| l.contains(p)))
    }

    /// Asserts a log line holds every piece.
    pub fn assert_logged(&self, pieces: &[&str]) {
        assert!(self.logged(pieces), "no log line with {pieces:?}:\n{}", self.log().join("\n"));
    }

    /// A stand's points now.
    pub fn points(&self, id: usize) -> u32 {
        self.rules.points(&self.st.stands[id])
    }

    /// A placement.
    pub fn place(&self, stand: usize, x: f64, y: f64, facing: f64) -> Placement {
        Placement { stand, to: Point::new(x, y), facing }
    }
}
