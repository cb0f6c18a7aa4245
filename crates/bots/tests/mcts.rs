//! The MCTS bot on toy games: it finds known winning moves (with and without dice), beats
//! random play decisively, reproduces its choices from a seed and keeps to its budget.

mod toys;

use bots::{Bot, Budget, Hooks, Mcts, MctsConfig, RandomBot};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tabletop::rules::Side;
use tabletop::{RuleSet, SeededDice};
use toys::{Gamble, GambleState, Nim, NimState, Play, Take, play};

fn mcts(iterations: u32) -> Mcts<Nim> {
    Mcts::new(MctsConfig { budget: Budget::Iterations(iterations), ..MctsConfig::default() })
}

fn nim(pile: u32, to_move: Side) -> NimState {
    NimState { pile, to_move, winner: None }
}

#[test]
fn mcts_finds_the_winning_nim_move() {
    // The side to move wins by leaving a multiple of 4.
    for pile in [5, 6, 7, 9, 10, 11, 13, 14, 15] {
        for seed in 0..4 {
            // Deeper piles need more iterations: random play-outs blur who wins from afar.
            let mut bot = mcts(if pile > 11 { 5000 } else { 1000 });
            let mut rng = SeededDice::new(seed);
            let take = bot.choose(&Nim, &nim(pile, Side::Blue), Side::Blue, &mut rng).unwrap();
            assert_eq!(take, Take(pile % 4), "pile {pile}, seed {seed}");
            let stats = bot.last_stats().unwrap();
            // Near the end the random play-outs see the win clearly.
            assert!(pile > 7 || stats.chosen_value > 0.7, "pile {pile}: {stats:?}");
        }
    }
}

#[test]
fn mcts_takes_the_sure_step_or_the_long_shot_as_the_dice_require() {
    let rules = Gamble;
    let mut bot: Mcts<Gamble> =
        Mcts::new(MctsConfig { budget: Budget::Iterations(600), ..MctsConfig::default() });
    // Red needs 2 and blue will surely finish next: safe wins always, risky 5 times in 6.
    let sure = GambleState { goal: 20, at: [18, 19], to_move: Side::Red };
    // Red needs 6 and blue will surely finish next: only a risky 6 can win.
    let long = GambleState { goal: 20, at: [14, 19], to_move: Side::Red };
    for seed in 0..5 {
        let mut rng = SeededDice::new(seed);
        assert_eq!(bot.choose(&rules, &sure, Side::Red, &mut rng).unwrap(), Play::Safe);
        assert_eq!(bot.choose(&rules, &long, Side::Red, &mut rng).unwrap(), Play::Risky);
        let v = bot.last_stats().unwrap().chosen_value;
        assert!((0.05..0.35).contains(&v), "a 1-in-6 chance is valued {v}");
    }
}

#[test]
fn mcts_beats_random_play_decisively() {
    let games = 200;
    let mut won = 0;
    let mut rng = SeededDice::new(2026);
    let mut dice = SeededDice::new(7);
    for g in 0..games {
        let pile = 10 + rng.below(16);
        let mcts_side = if g % 2 == 0 { Side::Red } else { Side::Blue };
        let mut players: [Box<dyn Bot<Nim>>; 2] = [Box::new(RandomBot), Box::new(RandomBot)];
        players[mcts_side.index()] = Box::new(mcts(300));
        let start = nim(pile, if g % 4 < 2 { Side::Red } else { Side::Blue });
        if play(&Nim, start, &mut players, &mut rng, &mut dice) == Some(mcts_side) {
            won += 1;
        }
    }
    eprintln!("nim: MCTS (300 iterations) won {won} of {games} against random");
    assert!(won * 100 >= games * 90, "MCTS won {won} of {games}");
}

#[test]
fn mcts_beats_random_play_in_a_dice_race() {
    // Risky steps 10/3 on average against safe's 2: a clear but not overwhelming edge.
    let games = 200;
    let mut won = 0;
    let mut rng = SeededDice::new(11);
    let mut dice = SeededDice::new(12);
    for g in 0..games {
        let mcts_side = if g % 2 == 0 { Side::Red } else { Side::Blue };
        let mut players: [Box<dyn Bot<Gamble>>; 2] = [Box::new(RandomBot), Box::new(RandomBot)];
        players[mcts_side.index()] = Box::new(Mcts::new(MctsConfig {
            budget: Budget::Iterations(200),
            ..MctsConfig::default()
        }));
        let start = GambleState { goal: 24, at: [0, 0], to_move: Side::Red };
        if play(&Gamble, start, &mut players, &mut rng, &mut dice) == Some(mcts_side) {
            won += 1;
        }
    }
    eprintln!("dice race: MCTS (200 iterations) won {won} of {games} against random");
    assert!(won * 100 >= games * 60, "MCTS won {won} of {games}");
}

#[test]
fn a_seed_reproduces_every_choice() {
    let run = |seed: u64| {
        let mut rng = SeededDice::new(seed);
        let mut dice = SeededDice::new(seed + 100);
        let mut bot: Mcts<Gamble> =
            Mcts::new(MctsConfig { budget: Budget::Iterations(50), ..MctsConfig::default() });
        let mut state = GambleState { goal: 30, at: [0, 0], to_move: Side::Red };
        let mut trail = Vec::new();
        while Gamble.pending(&state) != tabletop::Pending::Over {
            let side = state.to_move;
            let c = bot.choose(&Gamble, &state, side, &mut rng).unwrap();
            let s = bot.last_stats().unwrap();
            trail.push((c, s.nodes, s.playout_commands, s.chosen_visits));
            bots::step(&Gamble, &mut state, side, &c, &mut dice).unwrap();
        }
        trail
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

#[test]
fn the_budget_is_kept() {
    for n in [1, 17, 400] {
        let mut bot = mcts(n);
        bot.choose(&Nim, &nim(30, Side::Red), Side::Red, &mut SeededDice::new(1)).unwrap();
        assert_eq!(bot.last_stats().unwrap().iterations, u64::from(n));
    }
    let mut timed: Mcts<Nim> = Mcts::new(MctsConfig {
        budget: Budget::Time(Duration::from_millis(40)),
        ..MctsConfig::default()
    });
    let started = Instant::now();
    timed.choose(&Nim, &nim(30, Side::Red), Side::Red, &mut SeededDice::new(1)).unwrap();
    let took = started.elapsed();
    let stats = timed.last_stats().unwrap();
    assert!(stats.iterations >= 1);
    assert!(took >= Duration::from_millis(40), "{took:?}");
    // One Nim iteration takes microseconds: the search stops soon after its time.
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn a_forced_choice_is_made_without_search() {
    let mut bot = mcts(1000);
    let take = bot.choose(&Nim, &nim(1, Side::Red), Side::Red, &mut SeededDice::new(1)).unwrap();
    assert_eq!(take, Take(1));
    assert_eq!(bot.last_stats().unwrap().iterations, 0);
    let err = bot.choose(&Nim, &nim(3, Side::Red), Side::Blue, &mut SeededDice::new(1));
    assert!(err.is_err());
}

#[test]
fn play_outs_stop_early_only_where_the_rule_set_values_states() {
    let mut bot = mcts(20);
    bot.choose(&Nim, &nim(30, Side::Red), Side::Red, &mut SeededDice::new(1)).unwrap();
    assert_eq!(bot.last_stats().unwrap().playout_depth, bots::mcts::UNINFORMED_DEPTH);
    let race = GambleState { goal: 200, at: [0, 0], to_move: Side::Red };
    let mut gamble: Mcts<Gamble> =
        Mcts::new(MctsConfig { budget: Budget::Iterations(20), ..MctsConfig::default() });
    gamble.choose(&Gamble, &race, Side::Red, &mut SeededDice::new(1)).unwrap();
    let stats = gamble.last_stats().unwrap();
    assert_eq!(stats.playout_depth, bots::mcts::INFORMED_DEPTH);
    assert!(stats.playout_commands <= 20 * u64::from(bots::mcts::INFORMED_DEPTH));
    let mut fixed: Mcts<Gamble> = Mcts::new(MctsConfig {
        budget: Budget::Iterations(20),
        rollout_depth: Some(3),
        ..MctsConfig::default()
    });
    fixed.choose(&Gamble, &race, Side::Red, &mut SeededDice::new(1)).unwrap();
    assert_eq!(fixed.last_stats().unwrap().playout_depth, 3);
    assert!(fixed.last_stats().unwrap().playout_commands <= 60);
}

/// Hooks that count the states they draw, as a hidden-information rule set's would sample.
struct Counting(AtomicUsize);

impl Hooks<Nim> for Counting {
    fn determinize(&self, _: &Nim, state: &NimState, _: Side, _: &mut SeededDice) -> NimState {
        self.0.fetch_add(1, Ordering::Relaxed);
        state.clone()
    }
}

#[test]
fn every_iteration_searches_from_a_determinized_state() {
    let hooks = Arc::new(Counting(AtomicUsize::new(0)));
    let mut bot: Mcts<Nim> = Mcts::with_hooks(
        MctsConfig { budget: Budget::Iterations(123), ..MctsConfig::default() },
        hooks.clone(),
    );
    let take = bot.choose(&Nim, &nim(6, Side::Red), Side::Red, &mut SeededDice::new(1)).unwrap();
    assert_eq!(take, Take(2));
    assert_eq!(hooks.0.load(Ordering::Relaxed), 123);
}

/// Nim hooks that offer only the takes listed (in that order, where legal) and key states by
/// pile and mover, so the tree can be reused.
struct Offer(Vec<u32>, bool);

impl Hooks<Nim> for Offer {
    fn options(&self, _: &Nim, s: &NimState, _: Side, _: &mut SeededDice) -> Option<Vec<Take>> {
        Some(self.0.iter().filter(|&&t| t <= s.pile).map(|&t| Take(t)).collect())
    }

    fn state_key(&self, _: &Nim, s: &NimState) -> Option<u64> {
        self.1.then(|| u64::from(s.pile) << 2 | s.to_move.index() as u64)
    }
}

fn offering(takes: &[u32], reuse: bool, iterations: u32) -> Mcts<Nim> {
    Mcts::with_hooks(
        MctsConfig { budget: Budget::Iterations(iterations), ..MctsConfig::default() },
        Arc::new(Offer(takes.to_vec(), reuse)),
    )
}

#[test]
fn the_search_keeps_to_the_options_the_hooks_offer() {
    // From 7 the winning take is 3; offered only 1 and 2, the search must pick one of them.
    let mut bot = offering(&[1, 2], false, 400);
    let take = bot.choose(&Nim, &nim(7, Side::Red), Side::Red, &mut SeededDice::new(1)).unwrap();
    assert!(take == Take(1) || take == Take(2), "{take:?}");
    assert_eq!(bot.last_stats().unwrap().root_children, 2);
    // Offered everything in a poor order, it still finds the win once the list is unpruned.
    let mut bot = offering(&[1, 2, 3], false, 1000);
    let take = bot.choose(&Nim, &nim(7, Side::Red), Side::Red, &mut SeededDice::new(1)).unwrap();
    assert_eq!(take, Take(3));
    // One option is taken without search.
    let mut bot = offering(&[2], false, 1000);
    let take = bot.choose(&Nim, &nim(7, Side::Red), Side::Red, &mut SeededDice::new(1)).unwrap();
    assert_eq!(take, Take(2));
    assert_eq!(bot.last_stats().unwrap().iterations, 0);
}

#[test]
fn options_are_unpruned_in_order_as_visits_grow() {
    // With one iteration only the first option (and the first reply) can have been tried.
    let mut bot = offering(&[3, 2, 1], false, 1);
    let take = bot.choose(&Nim, &nim(9, Side::Red), Side::Red, &mut SeededDice::new(4)).unwrap();
    let stats = bot.last_stats().unwrap();
    assert_eq!(stats.root_children, 2, "⌈2·√1⌉ options at the first visit");
    assert!(take == Take(3) || take == Take(2), "{take:?}");
}

#[test]
fn a_position_the_last_tree_never_met_is_searched_exactly_as_afresh() {
    let (state, next) = (nim(30, Side::Red), nim(31, Side::Red));
    let mut used = offering(&[1, 2, 3], true, 300);
    used.choose(&Nim, &state, Side::Red, &mut SeededDice::new(1)).unwrap();
    // Piles only shrink: 31 stones cannot be in the tree grown from 30.
    let a = used.choose(&Nim, &next, Side::Red, &mut SeededDice::new(9)).unwrap();
    let sa = used.last_stats().unwrap().clone();
    let mut fresh = offering(&[1, 2, 3], true, 300);
    let b = fresh.choose(&Nim, &next, Side::Red, &mut SeededDice::new(9)).unwrap();
    let sb = fresh.last_stats().unwrap().clone();
    assert_eq!(a, b);
    assert_eq!(sa.reused, 0);
    assert_eq!(
        (sa.iterations, sa.nodes, sa.playout_commands, sa.chosen_visits, sa.chosen_value),
        (sb.iterations, sb.nodes, sb.playout_commands, sb.chosen_visits, sb.chosen_value)
    );
    // The same bot without keys searches afresh as well.
    let mut keyless = offering(&[1, 2, 3], false, 300);
    keyless.choose(&Nim, &state, Side::Red, &mut SeededDice::new(1)).unwrap();
    let c = keyless.choose(&Nim, &next, Side::Red, &mut SeededDice::new(9)).unwrap();
    assert_eq!((c, keyless.last_stats().unwrap().reused), (b, 0));
}

#[test]
fn the_tree_is_reused_from_the_position_reached() {
    let mut bot = offering(&[1, 2, 3], true, 1000);
    let mut rng = SeededDice::new(3);
    let mut state = nim(10, Side::Red);
    let take = bot.choose(&Nim, &state, Side::Red, &mut rng).unwrap();
    assert_eq!(take, Take(2), "leave 8");
    assert_eq!(bot.last_stats().unwrap().reused, 0);
    let mut dice = SeededDice::new(0);
    bots::step(&Nim, &mut state, Side::Red, &take, &mut dice).unwrap();
    bots::step(&Nim, &mut state, Side::Blue, &Take(1), &mut dice).unwrap();
    // 7 stones, red to move: a position the last search met often.
    let take = bot.choose(&Nim, &state, Side::Red, &mut rng).unwrap();
    assert_eq!(take, Take(3), "leave 4");
    let stats = bot.last_stats().unwrap();
    assert!(stats.reused > 0, "{stats:?}");
    assert_eq!(stats.iterations, 1000, "the budget counts this decision's iterations");
}

#[test]
fn a_seed_reproduces_every_choice_with_tree_reuse() {
    let run = |seed: u64| {
        let mut rng = SeededDice::new(seed);
        let mut dice = SeededDice::new(seed + 100);
        let mut bot = offering(&[1, 2, 3], true, 60);
        let mut state = nim(40, Side::Red);
        let mut trail = Vec::new();
        while Nim.pending(&state) != tabletop::Pending::Over {
            let side = state.to_move;
            let c = bot.choose(&Nim, &state, side, &mut rng).unwrap();
            let s = bot.last_stats().unwrap();
            trail.push((c, s.nodes, s.reused, s.playout_commands, s.chosen_visits));
            bots::step(&Nim, &mut state, side, &c, &mut dice).unwrap();
        }
        trail
    };
    let a = run(5);
    assert_eq!(a, run(5));
    assert!(a.iter().any(|t| t.2 > 0), "the tree was never reused: {a:?}");
}
