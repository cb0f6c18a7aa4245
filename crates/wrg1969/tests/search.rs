//! `mcts` on WRG 1969 sees only its side's view: each search iteration starts from a state in
//! which the enemy's orders, messengers, signals and plan are drawn afresh from what the side
//! can see (`wrg1969::search`), so two battles that differ only in what the side cannot see
//! search alike.

use bots::{Bot, Budget, Mcts, MctsConfig};
use std::sync::Arc;
use tabletop::SeededDice;
use tabletop::rules::{Actor, RuleSet, Side};
use wrg1969::orders::{Order, Standing, Verb};
use wrg1969::plan::{Dictation, Plan};
use wrg1969::search::{WrgHooks, determinize};
use wrg1969::state::{Errand, Messenger, State};
use wrg1969::{Command, Wrg1969};

/// The ford after both sides have written their orders (red as the scenario has them).
fn ford() -> (Wrg1969, State) {
    let rules = Wrg1969::new();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/wrg1969/the_ford.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let sc = rules.load_scenario(&tabletop::Source::new("the_ford.toml", text)).unwrap();
    let mut dice = SeededDice::new(1);
    let (mut st, _) = rules.setup(&sc, &mut dice);
    // Red's General has two messengers.
    st.free_messengers[0] = 2;
    for side in Side::BOTH {
        let c = Command::Write { orders: vec![] };
        rules.perform(&mut st, Actor::Side(side), &c, &mut dice).unwrap();
    }
    (rules, st)
}

/// The same battle with red's secrets changed: other orders, a messenger riding with an order,
/// and red's plan for the coming period made.
fn other_secrets(st: &State) -> State {
    let mut b = st.clone();
    for u in b.units.iter_mut().filter(|u| u.side == Side::Red) {
        u.standing = Standing::Active { order: Order::new(Verb::Attack { unit: 9 }) };
    }
    b.free_messengers[0] -= 1;
    b.messengers.push(Messenger {
        side: Side::Red,
        order: Order::new(Verb::Evade),
        unit: 3,
        at: b.generals[0].at,
        leaves: 1,
        galloped: false,
        errand: Errand::Out,
        wounds: 0,
    });
    b.plans[0] = Some(Plan {
        dictate: vec![Dictation { unit: 0, order: Order::new(Verb::Hold { at: None }) }],
        ..Plan::default()
    });
    b
}

// Checks WRG-ORD-01, WRG-R-08: the search draws what blue cannot see from what it can.
#[test]
fn determinized_states_depend_only_on_what_the_side_sees() {
    let (rules, a) = ford();
    let mut a = a;
    a.plans[0] = Some(Plan::default());
    let b = other_secrets(&a);
    assert_ne!(a, b);
    for seed in 1..=5 {
        let da = determinize(&rules, &a, Side::Blue, &mut SeededDice::new(seed));
        let db = determinize(&rules, &b, Side::Blue, &mut SeededDice::new(seed));
        assert_eq!(da, db, "seed {seed}: a hidden difference came through");
        // Blue's own orders are its own and stay as they were.
        for (u, v) in da.units.iter().zip(&a.units).filter(|(u, _)| u.side == Side::Blue) {
            assert_eq!(u.standing, v.standing);
        }
        // Red has planned (that much blue sees), and the plan is a legal one.
        let red = da.plans[0].clone().expect("red's plan is drawn");
        let mut fresh = da.clone();
        fresh.plans[0] = None;
        assert!(rules.check(&fresh, Actor::Side(Side::Red), &Command::Plan(red)).is_ok());
    }
    // Different draws guess different orders.
    let d1 = determinize(&rules, &a, Side::Blue, &mut SeededDice::new(1));
    let guesses: Vec<_> = (2..=12)
        .map(|s| determinize(&rules, &a, Side::Blue, &mut SeededDice::new(s)))
        .filter(|d| d.units != d1.units)
        .collect();
    assert!(!guesses.is_empty(), "every draw guessed the same orders");
}

// Checks WRG-ORD-01: `mcts` chooses the same command whatever the enemy's secrets.
#[test]
fn mcts_chooses_alike_whatever_the_enemy_hides() {
    let (rules, a) = ford();
    let mut a = a;
    a.plans[0] = Some(Plan::default());
    let b = other_secrets(&a);
    let config = MctsConfig {
        budget: Budget::Iterations(12),
        rollout_depth: Some(2),
        ..MctsConfig::default()
    };
    let choose = |st: &State| {
        let mut bot = Mcts::with_hooks(config.clone(), Arc::new(WrgHooks));
        bot.choose(&rules, st, Side::Blue, &mut SeededDice::new(7)).expect("a command")
    };
    let (ca, cb) = (choose(&a), choose(&b));
    assert_eq!(ca, cb);
    assert!(rules.check(&a, Actor::Side(Side::Blue), &ca).is_ok());
}
