//! The standard bots registered on a host: made by name for any rule set, answering in JSON.

mod toys;

use tabletop::host::{BotSpec, Host, HostedRuleSet};
use tabletop::{Actor, SeededDice, Side, Source};
use toys::{Gamble, Nim};

#[test]
fn every_rule_set_gets_random_and_mcts_by_name() {
    let host = bots::with_standard_bots(Host::new(Nim));
    let names: Vec<String> = host.bots().into_iter().map(|b| b.name).collect();
    assert_eq!(names, ["random", "mcts"]);
    let mut game = host.new_game(Source::new("nim.txt", "6"), 1).unwrap();
    let mut bot = host.new_bot(&BotSpec::parse("mcts:500").unwrap()).unwrap();
    assert!(bot.describe().contains("500 iterations"), "{}", bot.describe());
    let command = bot.choose(game.as_ref(), Side::Red, &mut SeededDice::new(3)).unwrap();
    assert_eq!(command, serde_json::json!(2), "leave 4 stones");
    game.submit(Actor::Side(Side::Red), command).unwrap();

    let mut random = host.new_bot(&BotSpec::named("random")).unwrap();
    let command = random.choose(game.as_ref(), Side::Blue, &mut SeededDice::new(3)).unwrap();
    game.submit(Actor::Side(Side::Blue), command).unwrap();
}

#[test]
fn unknown_bots_and_bad_parameters_are_refused_with_a_message() {
    let host = bots::with_standard_bots(Host::new(Gamble));
    let err = host.new_bot(&BotSpec::named("napoleon")).err().unwrap();
    assert!(err.contains("unknown bot 'napoleon'") && err.contains("random, mcts"), "{err}");
    let err = host.new_bot(&BotSpec::parse("random:3").unwrap()).err().unwrap();
    assert!(err.contains("takes no parameters"), "{err}");
    let err = host.new_bot(&BotSpec::parse("mcts:speed=3").unwrap()).err().unwrap();
    assert!(err.contains("no parameter 'speed'"), "{err}");
    assert!(BotSpec::parse("mcts:").is_err());
    assert!(BotSpec::parse(":3").is_err());
    assert!(BotSpec::parse("mcts:a=1,a=2").is_err());
}

#[test]
fn a_bot_refuses_a_game_of_another_rule_set() {
    let nim = bots::with_standard_bots(Host::new(Nim));
    let gamble = bots::with_standard_bots(Host::new(Gamble));
    let game = gamble.new_game(Source::new("g.txt", "10"), 1).unwrap();
    let mut bot = nim.new_bot(&BotSpec::named("random")).unwrap();
    assert!(bot.choose(game.as_ref(), Side::Red, &mut SeededDice::new(1)).is_err());
}
