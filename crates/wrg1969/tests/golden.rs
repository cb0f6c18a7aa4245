//! The golden playthrough: a short seeded battle between the scripted generals, narrated with
//! every die and its rule, compared exactly with `tests/golden/the_ford_seed7.txt`; and the
//! record of the same battle replays to the same state.

use tabletop::game::Game;
use tabletop::rules::{Narrate, RuleSet};
use wrg1969::Wrg1969;
use wrg1969::bot::Scripted;

/// The ford, cut to eight periods.
fn short_ford() -> tabletop::Source {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/wrg1969/the_ford.toml");
    let text = std::fs::read_to_string(path).expect("the scenario is there");
    assert!(text.contains("periods = 30"));
    tabletop::Source::new("the_ford.toml", text.replacen("periods = 30", "periods = 8", 1))
}

fn play() -> (Game<Wrg1969>, String) {
    let rules = std::sync::Arc::new(Wrg1969::new());
    let mut game = Game::new(rules.clone(), short_ford(), 7).expect("the scenario loads");
    let mut log = String::new();
    let mut rng = tabletop::SeededDice::new(99);
    let mut bot = Scripted;
    while let Some(&side) = game.pending().sides().first() {
        let c = bots::Bot::choose(&mut bot, &*rules, game.state(), side, &mut rng).unwrap();
        let events = game.submit(tabletop::rules::Actor::Side(side), c).expect("accepted");
        for e in events.iter() {
            log.push_str(&e.narrate().text);
            log.push('\n');
        }
    }
    let outcome = rules.outcome(game.state()).expect("over after eight periods");
    log.push_str(&outcome.reason);
    log.push('\n');
    (game, log)
}

#[test]
fn golden_playthrough_of_a_seeded_battle_at_the_ford() {
    let (game, got) = play();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/the_ford_seed7.txt");
    if std::env::var_os("WRG_UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &got).expect("write the golden file");
    }
    let want = std::fs::read_to_string(path).expect("the golden file exists");
    assert!(
        got == want,
        "the narrated log changed: review it and rerun with WRG_UPDATE_GOLDEN=1\n{got}"
    );
    // The record stands alone and replays to the same state.
    let record = game.record();
    let again = Game::<Wrg1969>::replay(std::sync::Arc::new(Wrg1969::new()), &record)
        .expect("the record replays");
    assert_eq!(again.state_hash(), game.state_hash());
}
