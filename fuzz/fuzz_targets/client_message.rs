//! A message on the game connection, parsed as the server parses it, then put to a ready game
//! of every rule set as the game's actor would put it, from either side: a command is checked
//! and, if legal, carried out; a measure, the controls, the roster, the scene and the
//! candidates are answered.
#![no_main]

use libfuzzer_sys::fuzz_target;
use server::protocol::ClientMessage;
use strategikon_fuzz::{ready_games, text, within};
use tabletop::controls::MeasureRequest;
use tabletop::{Actor, Facing, Point, SeededDice, Side, Viewer};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let Ok(message) = serde_json::from_str::<ClientMessage>(text) else { return };
    for mut game in ready_games() {
        for side in [Side::Red, Side::Blue] {
            let _ = within(1.0, || match &message {
                ClientMessage::Command { command, .. } => {
                    let before = game.state_hash();
                    if game.submit(Actor::Side(side), command.clone()).is_err() {
                        // A refused command leaves the game as it was.
                        assert_eq!(game.state_hash(), before, "a refusal changed the game");
                    }
                }
                ClientMessage::Measure { unit, x, y, bearing, .. } => {
                    // The actor refuses numbers that are not finite before asking.
                    if x.is_finite() && y.is_finite() && bearing.is_none_or(f64::is_finite) {
                        let request = MeasureRequest {
                            unit: unit.clone(),
                            to: Point::new(*x, *y),
                            facing: bearing.map(Facing::from_bearing_degrees),
                        };
                        let _ = game.measure(side, &request);
                    }
                }
                ClientMessage::Controls {} => {
                    let _ = game.controls(side);
                }
                ClientMessage::Roster {} => {
                    let _ = game.roster(Viewer::Side(side));
                }
                ClientMessage::Scene { .. } => {
                    let _ = game.scene(Viewer::Side(side));
                }
                ClientMessage::Candidates {} => {
                    let _ = game.candidates(side, &mut SeededDice::new(1));
                }
                _ => {}
            });
        }
    }
});
