//! Two toy rule sets for testing bots without a real one.
//!
//! - [`Nim`]: a pile of stones; each side in turn takes 1, 2 or 3; who takes the last stone
//!   wins. Discrete: it lists its legal commands. The side to move wins exactly when the pile
//!   is not a multiple of 4, by leaving a multiple of 4.
//! - [`Gamble`]: a race to a goal; each side in turn either steps 2 (safe) or rolls a d6 and
//!   steps its face, or nothing on a 1 (risky). Continuous in form: it offers only sampled
//!   candidates, so the search widens progressively; and it rolls dice, so the search meets
//!   chance.

#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use tabletop::dice::{DiceSource, Die, Roll, roll};
use tabletop::render::Scene;
use tabletop::rules::{
    Actor, Narrate, Outcome, Pending, Refusal, RuleId, RuleSet, Side, SideSummary, Summary, Viewer,
};
use tabletop::terrain::Table;
use tabletop::{Diagnostic, Diagnostics, SeededDice, Source};

fn table() -> Table {
    Table { width: 10.0, height: 10.0, areas: vec![], lines: vec![], slope_band: 1.0 }
}

fn bad(source: &Source, message: &str) -> Diagnostics {
    Diagnostics(vec![Diagnostic {
        file: source.name.clone(),
        line: 1,
        column: 1,
        field: "scenario".into(),
        message: message.into(),
    }])
}

/// Nim with takes of 1 to 3.
pub struct Nim;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NimState {
    pub pile: u32,
    pub to_move: Side,
    pub winner: Option<Side>,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Take(pub u32);

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Took {
    pub side: Side,
    pub stones: u32,
}

impl Narrate for Took {
    fn rules(&self) -> Vec<RuleId> {
        vec![RuleId::new("NIM-TAKE")]
    }
    fn describe(&self) -> String {
        format!("{} takes {}", self.side, self.stones)
    }
}

impl RuleSet for Nim {
    type Scenario = NimState;
    type State = NimState;
    type Command = Take;
    type Event = Took;
    type View = NimState;

    fn id(&self) -> &'static str {
        "nim"
    }
    fn version(&self) -> &'static str {
        "1"
    }
    fn load_scenario(&self, source: &Source) -> Result<NimState, Diagnostics> {
        let pile = source.text.trim().parse().map_err(|_| bad(source, "a pile size"))?;
        Ok(NimState { pile, to_move: Side::Red, winner: None })
    }
    fn setup(&self, s: &NimState, _: &mut dyn DiceSource) -> (NimState, Vec<Took>) {
        (s.clone(), vec![])
    }
    fn pending(&self, s: &NimState) -> Pending {
        match s.winner {
            Some(_) => Pending::Over,
            None => Pending::Side { side: s.to_move, what: "take".into() },
        }
    }
    fn check(&self, s: &NimState, actor: Actor, c: &Take) -> Result<(), Refusal> {
        if s.winner.is_some() || actor != Actor::Side(s.to_move) {
            return Err(Refusal::new("NIM-TURN", "not your turn"));
        }
        if c.0 == 0 || c.0 > 3 || c.0 > s.pile {
            return Err(Refusal::new("NIM-TAKE", "take 1 to 3 stones from the pile"));
        }
        Ok(())
    }
    fn execute(
        &self,
        s: &NimState,
        _: Actor,
        c: &Take,
        _: &mut dyn DiceSource,
    ) -> Result<Vec<Took>, Refusal> {
        Ok(vec![Took { side: s.to_move, stones: c.0 }])
    }
    fn apply(&self, s: &mut NimState, e: &Took) {
        s.pile -= e.stones;
        if s.pile == 0 {
            s.winner = Some(e.side);
        }
        s.to_move = e.side.other();
    }
    fn view(&self, s: &NimState, _: Viewer) -> NimState {
        s.clone()
    }
    fn outcome(&self, s: &NimState) -> Option<Outcome> {
        s.winner.map(|w| Outcome { winner: Some(w), reason: "[NIM-TAKE] took the last".into() })
    }
    fn legal_commands(&self, s: &NimState, side: Side) -> Option<Vec<Take>> {
        if s.winner.is_some() || side != s.to_move {
            return Some(vec![]);
        }
        Some((1..=s.pile.min(3)).map(Take).collect())
    }
    fn candidates(&self, s: &NimState, side: Side, _: &mut SeededDice) -> Vec<Take> {
        self.legal_commands(s, side).unwrap_or_default()
    }
    fn scene(&self, _: &NimState, _: Viewer) -> Scene {
        Scene::new("nim", table())
    }
}

/// The safe-or-risky race.
pub struct Gamble;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GambleState {
    pub goal: u32,
    pub at: [u32; 2],
    pub to_move: Side,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Play {
    Safe,
    Risky,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stepped {
    pub side: Side,
    pub by: u32,
    pub roll: Option<Roll>,
}

impl Narrate for Stepped {
    fn rules(&self) -> Vec<RuleId> {
        vec![RuleId::new("GAMBLE-STEP")]
    }
    fn describe(&self) -> String {
        format!("{} steps {}", self.side, self.by)
    }
}

impl RuleSet for Gamble {
    type Scenario = GambleState;
    type State = GambleState;
    type Command = Play;
    type Event = Stepped;
    type View = GambleState;

    fn id(&self) -> &'static str {
        "gamble"
    }
    fn version(&self) -> &'static str {
        "1"
    }
    fn load_scenario(&self, source: &Source) -> Result<GambleState, Diagnostics> {
        let goal = source.text.trim().parse().map_err(|_| bad(source, "a goal"))?;
        Ok(GambleState { goal, at: [0, 0], to_move: Side::Red })
    }
    fn setup(&self, s: &GambleState, _: &mut dyn DiceSource) -> (GambleState, Vec<Stepped>) {
        (s.clone(), vec![])
    }
    fn pending(&self, s: &GambleState) -> Pending {
        match self.outcome(s) {
            Some(_) => Pending::Over,
            None => Pending::Side { side: s.to_move, what: "step".into() },
        }
    }
    fn check(&self, s: &GambleState, actor: Actor, _: &Play) -> Result<(), Refusal> {
        if self.outcome(s).is_some() || actor != Actor::Side(s.to_move) {
            return Err(Refusal::new("GAMBLE-TURN", "not your turn"));
        }
        Ok(())
    }
    fn execute(
        &self,
        s: &GambleState,
        _: Actor,
        c: &Play,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Stepped>, Refusal> {
        Ok(vec![match c {
            Play::Safe => Stepped { side: s.to_move, by: 2, roll: None },
            Play::Risky => {
                let r = roll(dice, Die::D6, "risky step", RuleId::new("GAMBLE-STEP"));
                let by = if r.value == 1 { 0 } else { u32::from(r.value) };
                Stepped { side: s.to_move, by, roll: Some(r) }
            }
        }])
    }
    fn apply(&self, s: &mut GambleState, e: &Stepped) {
        s.at[e.side.index()] += e.by;
        s.to_move = e.side.other();
    }
    fn view(&self, s: &GambleState, _: Viewer) -> GambleState {
        s.clone()
    }
    fn outcome(&self, s: &GambleState) -> Option<Outcome> {
        Side::BOTH
            .into_iter()
            .find(|side| s.at[side.index()] >= s.goal)
            .map(|w| Outcome { winner: Some(w), reason: "[GAMBLE-GOAL] reached the goal".into() })
    }
    fn summary(&self, s: &GambleState) -> Summary {
        // Progress stands for strength, so searches may value unfinished races.
        let side = |side: Side| {
            let mut e = SideSummary::new(side);
            e.strength = Some(f64::from(s.at[side.index()]) + 1.0);
            e
        };
        Summary { sides: vec![side(Side::Red), side(Side::Blue)] }
    }
    fn candidates(&self, s: &GambleState, side: Side, rng: &mut SeededDice) -> Vec<Play> {
        if self.check(s, Actor::Side(side), &Play::Safe).is_err() {
            return vec![];
        }
        // A sample, in a random order, as a continuous rule set's would be.
        if rng.below(2) == 0 {
            vec![Play::Safe, Play::Risky]
        } else {
            vec![Play::Risky, Play::Safe]
        }
    }
    fn scene(&self, _: &GambleState, _: Viewer) -> Scene {
        Scene::new("gamble", table())
    }
}

/// Plays a game of `rules` from `state` with a bot per side; returns the winner.
pub fn play<R: RuleSet>(
    rules: &R,
    mut state: R::State,
    bots: &mut [Box<dyn bots::Bot<R>>; 2],
    rng: &mut SeededDice,
    dice: &mut SeededDice,
) -> Option<Side> {
    for _ in 0..10_000 {
        if let Some(o) = rules.outcome(&state) {
            return o.winner;
        }
        let side = rules.pending(&state).sides()[0];
        let c = bots[side.index()].choose(rules, &state, side, rng).expect("a command");
        bots::step(rules, &mut state, side, &c, dice).expect("a legal command");
    }
    panic!("the toy game did not end");
}
