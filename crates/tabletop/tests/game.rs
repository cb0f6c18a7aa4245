//! The game loop, records, replay checkups and the random-game harness, exercised on a tiny
//! dice race so that the core is tested without any real rule set.

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::dice::{DiceSource, Die, Roll, roll};
use tabletop::game::{Game, ReplayError};
use tabletop::harness::{HarnessConfig, run};
use tabletop::render::Scene;
use tabletop::rules::{Actor, Narrate, Outcome, Pending, Refusal, RuleId, RuleSet, Side, Viewer};
use tabletop::terrain::Table;
use tabletop::{Diagnostic, Diagnostics, SeededDice, Source};

/// Each side in turn either rolls a d6 and advances that many steps, or (once per game) rests.
/// The first to reach the goal wins.
struct Race;

#[derive(Clone, Debug)]
struct RaceScenario {
    goal: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct RaceState {
    goal: u32,
    position: [u32; 2],
    rested: [bool; 2],
    to_move: Side,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RaceCommand {
    Roll,
    Rest,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum RaceEvent {
    Advanced { side: Side, roll: Roll },
    Rested { side: Side },
}

impl Narrate for RaceEvent {
    fn rules(&self) -> Vec<RuleId> {
        match self {
            RaceEvent::Advanced { roll, .. } => vec![roll.rule.clone()],
            RaceEvent::Rested { .. } => vec![RuleId::new("RACE-REST")],
        }
    }
    fn describe(&self) -> String {
        match self {
            RaceEvent::Advanced { side, roll } => {
                format!("{side} rolls {} and advances", roll.value)
            }
            RaceEvent::Rested { side } => format!("{side} rests"),
        }
    }
}

impl RuleSet for Race {
    type Scenario = RaceScenario;
    type State = RaceState;
    type Command = RaceCommand;
    type Event = RaceEvent;
    type View = RaceState;

    fn id(&self) -> &'static str {
        "race"
    }
    fn version(&self) -> &'static str {
        "1"
    }
    fn load_scenario(&self, source: &Source) -> Result<RaceScenario, Diagnostics> {
        source.text.trim().parse().map(|goal| RaceScenario { goal }).map_err(|_| {
            Diagnostics(vec![Diagnostic {
                file: source.name.clone(),
                line: 1,
                column: 1,
                field: "goal".into(),
                message: "expected a whole number".into(),
            }])
        })
    }
    fn setup(&self, s: &RaceScenario, _: &mut dyn DiceSource) -> (RaceState, Vec<RaceEvent>) {
        let state =
            RaceState { goal: s.goal, position: [0, 0], rested: [false; 2], to_move: Side::Red };
        (state, vec![])
    }
    fn pending(&self, s: &RaceState) -> Pending {
        if self.outcome(s).is_some() {
            Pending::Over
        } else {
            Pending::Side { side: s.to_move, what: "roll or rest".into() }
        }
    }
    fn check(&self, s: &RaceState, actor: Actor, c: &RaceCommand) -> Result<(), Refusal> {
        if actor != Actor::Side(s.to_move) {
            return Err(Refusal::new("RACE-TURN", "it is not your turn"));
        }
        if matches!(c, RaceCommand::Rest) && s.rested[s.to_move.index()] {
            return Err(Refusal::new("RACE-REST", "you have rested already"));
        }
        Ok(())
    }
    fn execute(
        &self,
        s: &RaceState,
        _: Actor,
        c: &RaceCommand,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<RaceEvent>, Refusal> {
        Ok(vec![match c {
            RaceCommand::Roll => RaceEvent::Advanced {
                side: s.to_move,
                roll: roll(dice, Die::D6, "advance", RuleId::new("RACE-ROLL")),
            },
            RaceCommand::Rest => RaceEvent::Rested { side: s.to_move },
        }])
    }
    fn apply(&self, s: &mut RaceState, e: &RaceEvent) {
        match e {
            RaceEvent::Advanced { side, roll } => s.position[side.index()] += roll.value as u32,
            RaceEvent::Rested { side } => s.rested[side.index()] = true,
        }
        s.to_move = s.to_move.other();
    }
    fn view(&self, s: &RaceState, _: Viewer) -> RaceState {
        s.clone()
    }
    fn outcome(&self, s: &RaceState) -> Option<Outcome> {
        Side::BOTH.into_iter().find(|side| s.position[side.index()] >= s.goal).map(|side| Outcome {
            winner: Some(side),
            reason: "[RACE-GOAL] reached the goal".into(),
        })
    }
    fn legal_commands(&self, s: &RaceState, side: Side) -> Option<Vec<RaceCommand>> {
        let mut v = vec![RaceCommand::Roll];
        if !s.rested[side.index()] {
            v.push(RaceCommand::Rest);
        }
        Some(v)
    }
    fn candidates(&self, s: &RaceState, side: Side, _: &mut SeededDice) -> Vec<RaceCommand> {
        self.legal_commands(s, side).unwrap_or_default()
    }
    fn scene(&self, _: &RaceState, _: Viewer) -> Scene {
        Scene {
            title: "race".into(),
            table: Table {
                width: 10.0,
                height: 10.0,
                areas: vec![],
                lines: vec![],
                slope_band: 1.0,
            },
            pieces: vec![],
            marks: vec![],
            grid: None,
        }
    }
}

fn start(seed: u64) -> Game<Race> {
    Game::new(Arc::new(Race), Source::new("race.txt", "20"), seed).unwrap()
}

#[test]
fn a_refused_command_changes_nothing() {
    let mut g = start(3);
    g.submit(Actor::Side(Side::Red), RaceCommand::Rest).unwrap();
    g.submit(Actor::Side(Side::Blue), RaceCommand::Roll).unwrap();
    let hash = g.state_hash();
    let log = g.log().len();
    let err = g.submit(Actor::Side(Side::Red), RaceCommand::Rest).unwrap_err();
    assert_eq!(err.rule.as_str(), "RACE-REST");
    let err = g.submit(Actor::Side(Side::Blue), RaceCommand::Roll).unwrap_err();
    assert_eq!(err.to_string(), "[RACE-TURN] it is not your turn");
    assert_eq!(g.state_hash(), hash);
    assert_eq!(g.log().len(), log);
    assert_eq!(g.command_count(), 2);
}

#[test]
fn every_roll_is_in_the_log_with_its_rule() {
    let mut g = start(9);
    g.submit(Actor::Side(Side::Red), RaceCommand::Roll).unwrap();
    let line = &g.log()[0];
    assert!(line.text.starts_with("[RACE-ROLL] red rolls "), "{}", line.text);
    assert_eq!(line.rules, vec![RuleId::new("RACE-ROLL")]);
}

#[test]
fn replay_reproduces_the_game_and_reports_the_first_divergence() {
    let mut g = start(11);
    let mut side = Side::Red;
    while g.pending() != Pending::Over {
        g.submit(Actor::Side(side), RaceCommand::Roll).unwrap();
        side = side.other();
    }
    let record = g.record();
    let replayed = Game::replay(Arc::new(Race), &record).unwrap();
    assert_eq!(replayed.state_hash(), g.state_hash());
    assert_eq!(replayed.log(), g.log());

    // Another seed gives other dice: the first command already diverges.
    let mut other = record.clone();
    other.seed = 12;
    match Game::replay(Arc::new(Race), &other) {
        Err(ReplayError::Diverged { index, .. }) => assert_eq!(index, 0),
        Err(e) => panic!("expected a divergence, got {e}"),
        Ok(_) => panic!("expected a divergence, the replay agreed"),
    }

    // Tampering with the third command's hash is reported at index 2.
    let mut tampered = record.clone();
    tampered.commands[2].hash = Some("0000000000000000".into());
    match Game::replay(Arc::new(Race), &tampered) {
        Err(ReplayError::Diverged { index, .. }) => assert_eq!(index, 2),
        other => panic!("expected a divergence at 2, got {:?}", other.err()),
    }
}

#[test]
fn a_game_without_hashing_records_no_hashes_and_plays_the_same() {
    let (mut hashed, mut bare) = (start(5), start(5));
    bare.set_hashing(false);
    let mut side = Side::Red;
    while hashed.pending() != Pending::Over {
        hashed.submit(Actor::Side(side), RaceCommand::Roll).unwrap();
        bare.submit(Actor::Side(side), RaceCommand::Roll).unwrap();
        side = side.other();
    }
    let (with, without) = (hashed.record(), bare.record());
    assert!(with.commands.iter().all(|c| c.hash.is_some()), "hashing is on at first");
    assert!(without.commands.iter().all(|c| c.hash.is_none()));
    assert_eq!(bare.state_hash(), hashed.state_hash());
    assert_eq!(bare.log(), hashed.log());
    // A record without hashes still replays (with nothing to check against).
    let replayed = Game::replay(Arc::new(Race), &without).unwrap();
    assert_eq!(replayed.state_hash(), hashed.state_hash());
}

#[test]
fn replay_refuses_a_record_of_another_rule_set_and_a_bad_command() {
    let g = start(1);
    let mut r = g.record();
    r.ruleset = "chess".into();
    assert!(matches!(Game::replay(Arc::new(Race), &r), Err(ReplayError::WrongRuleSet { .. })));
    let mut r = g.record();
    r.commands.push(tabletop::game::RecordedCommand {
        actor: Actor::Side(Side::Red),
        command: serde_json::json!("fly"),
        hash: None,
    });
    match Game::replay(Arc::new(Race), &r) {
        Err(ReplayError::BadCommand { index, .. }) => assert_eq!(index, 0),
        other => panic!("expected a bad command, got {:?}", other.err()),
    }
}

#[test]
fn harness_plays_many_games_and_counts_results() {
    let report = run(
        Arc::new(Race),
        &Source::new("race.txt", "30"),
        &HarnessConfig { games: 200, seed: 5, max_commands: 200, check_every: 1 },
    )
    .unwrap();
    assert_eq!(report.games, 200);
    assert_eq!(report.red_wins + report.blue_wins + report.draws, 200);
    assert!(report.red_wins > 0 && report.blue_wins > 0);
    // A race to 30 on a d6 needs at least 5 rolls per side before anyone can win: 9 commands.
    assert!(report.commands >= 200 * 9);
}

#[test]
fn harness_reports_a_game_that_does_not_end() {
    let failure = run(
        Arc::new(Race),
        &Source::new("race.txt", "1000"),
        &HarnessConfig { games: 1, seed: 5, max_commands: 50, check_every: 10 },
    )
    .unwrap_err();
    assert_eq!(failure.seed, 5);
    assert!(failure.problem.contains("did not end within 50"), "{failure}");
}

#[test]
fn hosted_games_speak_json() {
    use tabletop::host::{Host, Registry};
    let mut reg = Registry::new();
    reg.add(Box::new(Host::new(Race)));
    let rules = reg.get("race").unwrap();
    assert!(reg.get("chess").is_none());
    let mut game = rules.new_game(Source::new("race.txt", "10"), 4).unwrap();
    let lines = game.submit(Actor::Side(Side::Red), serde_json::json!("roll")).unwrap();
    assert_eq!(lines.len(), 1);
    let err = game.submit(Actor::Side(Side::Blue), serde_json::json!({"fly": 1})).unwrap_err();
    assert_eq!(err.rule.as_str(), "CORE-CMD");
    assert_eq!(game.command_count(), 1);
    let again = rules.replay(&game.record()).unwrap();
    assert_eq!(again.state_hash(), game.state_hash());
    assert!(rules.validate(&Source::new("bad.txt", "x")).is_err());
}

#[test]
fn a_scenario_read_once_starts_the_games_its_file_would() {
    use tabletop::host::{Host, Registry};
    let mut reg = Registry::new();
    reg.add(Box::new(Host::new(Race)));
    let rules = reg.get("race").unwrap();
    let source = Source::new("race.txt", "10");
    let loaded = rules.load(source.clone()).unwrap();
    for seed in [1, 4, 9] {
        let (mut a, mut b) = (loaded.new_game(seed), rules.new_game(source.clone(), seed).unwrap());
        let mut side = Side::Red;
        while a.outcome().is_none() {
            let roll = serde_json::json!("roll");
            assert_eq!(
                a.submit(Actor::Side(side), roll.clone()),
                b.submit(Actor::Side(side), roll)
            );
            side = side.other();
        }
        assert_eq!(a.record(), b.record());
        assert_eq!(a.state_hash(), b.state_hash());
    }
    assert!(rules.load(Source::new("bad.txt", "x")).is_err());
}

#[test]
fn a_game_knows_which_commands_rolled_dice() {
    let mut g = start(5);
    g.submit(Actor::Side(Side::Red), RaceCommand::Rest).unwrap();
    g.submit(Actor::Side(Side::Blue), RaceCommand::Roll).unwrap();
    // A refused command rolls nothing and is not counted.
    assert!(g.submit(Actor::Side(Side::Red), RaceCommand::Rest).is_err());
    assert_eq!(g.rolled_dice(0), Some(false));
    assert_eq!(g.rolled_dice(1), Some(true));
    assert_eq!(g.rolled_dice(2), None);
    assert_eq!(g.commands().len(), 2);
    // Replay finds the same, and the host reports it with the recorded commands.
    let again = Game::replay(Arc::new(Race), &g.record()).unwrap();
    assert_eq!((again.rolled_dice(0), again.rolled_dice(1)), (Some(false), Some(true)));
    let hosted: Box<dyn tabletop::host::HostedGame> = Box::new(g.clone());
    assert_eq!(hosted.rolled_dice(1), Some(true));
    assert_eq!(hosted.recorded(0), Some(g.commands()[0].clone()));
    assert_eq!(hosted.recorded(2), None);
    let text = hosted.view_text(Viewer::Side(Side::Red));
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&text).unwrap(),
        hosted.view(Viewer::Side(Side::Red))
    );
}
