//! Melee played through the game: two rounds over two game moves, front ranks then two deep,
//! reinforcements, losses and retreats, pull-outs, face to face, bonus moves and their chains,
//! shock, ties, and the recovery rolls after a defeat (FMT-MELEE-*, FMT-SHOCK-*, FMT-MOR-*,
//! FMT-SEQ-*).

mod common;
use common::*;
use freemove::state::{Command, Event, Morale, Phase};
use tabletop::geometry::Point;
use tabletop::rules::{RuleSet, Side};

/// Red A at (20, 20) backed two deep by A2, touching blue B backed by B2; red R stands off to
/// the side, and blue light infantry C to the east.
fn two_lines() -> T {
    T::new(&scenario(
        "",
        &format!(
            "{}{}{}{}{}{}",
            stand("red", "heavy_infantry", 20.0, 20.0, 0.0),
            stand("red", "heavy_infantry", 20.0, 18.25, 0.0),
            stand("blue", "heavy_infantry", 20.0, 21.75, 180.0),
            stand("blue", "heavy_infantry", 20.0, 23.5, 180.0),
            stand("red", "heavy_infantry", 30.0, 16.0, 0.0),
            stand("blue", "light_infantry", 23.5, 18.25, 270.0)
        ),
    ))
}

const A: usize = 0;
const A2: usize = 1;
const B: usize = 2;
const B2: usize = 3;
const R: usize = 4;
const C: usize = 5;

#[test]
fn a_two_round_melee_front_ranks_then_two_deep_with_reinforcements_fmt_melee_01_to_13() {
    // FMT-MELEE-01, FMT-MELEE-02: contact made in move 1 is fought at its end and again at the end of move 2; FMT-MELEE-06, FMT-MOR-02: the winner loses half the loser's loss, the loser falls back; FMT-MELEE-12: no shock or volleys in round 2; FMT-MELEE-17: a bonus melee won earns another bonus move.
    let mut t = two_lines();
    t.ready(&[6, 1]);
    // Round 1 at the first bell: the front ranks only, A against B, 8 points each (FMT-MELEE-
    // 02, 03); red rolls 1, blue 6 (FMT-MELEE-04).
    t.bell(&[]);
    if matches!(t.st.phase, Phase::Rearrange { .. }) {
        t.pass(&[]);
    }
    if matches!(t.st.phase, Phase::Fire { .. }) {
        t.pass(&[1, 6]);
    }
    t.assert_logged(&[
        "[FMT-MELEE-03]",
        "melee 1, round 1",
        "red: HI 1: 8 points = 8 points counted",
        "blue: HI 1: 8 points = 8",
    ]);
    // FMT-MELEE-05/06: red loses half its 8, blue half of that.
    assert_eq!(t.points(A), 4);
    assert_eq!(t.points(B), 6);
    assert_eq!(t.points(A2), 8, "the second rank did not fight in round 1");
    // FMT-MELEE-07: A falls back three moves, shaken.
    t.assert_logged(&["[FMT-MELEE-07]", "HI 1 falls back 3 move(s)"]);
    assert!(matches!(t.st.stands[A].morale, Morale::Broken { roll_from: 3 }));
    assert!(t.st.stands[A].rect.centre.y < 9.0);
    // The melee goes on (FMT-MELEE-08); each side may pull out; neither does.
    assert!(matches!(t.st.phase, Phase::PullOut { .. }), "{:?}", t.st.phase);
    t.pass(&[]);
    // FMT-MELEE-09: B closes up on A2.
    t.assert_logged(&["[FMT-MELEE-09]", "HI 1 closes up"]);
    assert!(t.rules.touching(&t.st.stands[B].rect, &t.st.stands[A2].rect));
    // Game move 2: the melee's stands are frozen (FMT-MELEE-08); red brings R in two deep
    // behind A2 (FMT-MELEE-10).
    assert_eq!(t.st.game_move, 2);
    t.ready(&[6, 1]);
    assert!(t.st.stands[A2].frozen && t.st.stands[B].frozen && t.st.stands[B2].frozen);
    let r = t.refused(Side::Red, t.step_cmd(Side::Red, A2, 20.0, 16.0, None));
    assert_eq!(r.rule.as_str(), "FMT-TIME-11");
    let a2 = t.st.stands[A2].rect;
    let behind = a2.centre - tabletop::geometry::Vec2::new(0.0, 1.75);
    t.done(Side::Blue, &[]);
    for (x, y) in [(26.5, 15.0), (22.5, 15.0), (behind.x, behind.y)] {
        t.step(Side::Red, R, x, y, None);
    }
    // Round 2: two ranks a side, no shock and no close-range volleys (FMT-MELEE-11, 12):
    // red A2 8 + R 8 against blue B 6 + B2 8; red rolls 4, blue 2 (FMT-MELEE-13).
    t.done(Side::Red, &[]);
    while matches!(t.st.phase, Phase::Rearrange { .. } | Phase::Fire { .. }) {
        let last = matches!(t.st.phase, Phase::Fire { .. })
            || !t.rules.has_targets(&t.st, Side::Blue) && !t.rules.has_targets(&t.st, Side::Red);
        t.pass(if last { &[4, 2] } else { &[] });
    }
    t.assert_logged(&[
        "[FMT-MELEE-11]",
        "melee 1, round 2",
        "red: HI 2: 8 points + HI 3: 8 points, two deep = 16 points counted",
        "blue: HI 1: 6 points + HI 2: 8 points, two deep = 14",
    ]);
    // Loser 7, spread 3 and 4 (FMT-R-19); winner 4, 2 and 2.
    assert_eq!((t.points(B), t.points(B2)), (3, 4));
    assert_eq!((t.points(A2), t.points(R)), (6, 6));
    assert!(!t.logged(&["to close-range volley"]));
    // FMT-MELEE-14: the winner's bonus move.
    assert!(
        matches!(&t.st.phase, Phase::Bonus { queue } if queue[0].side == Side::Red),
        "{:?}",
        t.st.phase
    );
    // FMT-MELEE-15..17: A2 steps into C; the melee is fought at once in one round, no
    // volleys; red wins (6 × 12 against 1 × 8), and A2 moves again.
    let c = t.st.stands[C].rect.centre;
    let to = Point::new(c.x - 1.75, a2.centre.y);
    let m = t.place(A2, to.x, to.y, 90.0);
    t.side(Side::Red, Command::Bonus { moves: vec![m] }, &[6, 1]);
    t.assert_logged(&["[FMT-MELEE-15]", "[FMT-MELEE-16]", "a single round"]);
    assert!(!t.logged(&["to close-range volley"]));
    t.assert_logged(&["[FMT-MELEE-14]", "HI 2 makes a bonus move"]);
    assert!(
        matches!(&t.st.phase, Phase::Bonus { queue } if queue[0].chain == 1),
        "{:?}",
        t.st.phase
    );
    // FMT-SEQ-03: all settled before the next timed move (which begins with A's recovery
    // roll).
    t.pass(&[4]);
    assert!(matches!(t.st.phase, Phase::Ready { .. }));
    assert_eq!(t.st.game_move, 3);
}

#[test]
fn a_side_may_pull_out_after_round_1_at_a_price_fmt_melee_22_to_25_mor_10() {
    let mut t = two_lines();
    t.ready(&[6, 1]);
    t.bell(&[]);
    while !matches!(t.st.phase, Phase::PullOut { .. }) {
        t.pass(&[1, 6]);
    }
    // Red leaves melee 1: A2's 8 points cost it 20%, 1.6 rounded to 2 (FMT-MELEE-24), and it
    // retreats four moves (FMT-MELEE-23), shaken (FMT-MOR-10).
    t.side(Side::Red, Command::PullOut { melees: vec![1] }, &[]);
    t.side(Side::Blue, Command::PullOut { melees: vec![] }, &[]);
    t.assert_logged(&["[FMT-MELEE-22]", "red pulls out of melee 1", "8 points, 2"]);
    assert_eq!(t.points(A2), 6);
    t.assert_logged(&["[FMT-MELEE-23]", "HI 2 falls back 4 move(s)"]);
    assert!(matches!(t.st.stands[A2].morale, Morale::Broken { .. }));
    // FMT-MELEE-25: blue has no bonus move; the melee is over.
    t.assert_logged(&["[FMT-MELEE-25]", "no bonus move"]);
    assert!(t.st.melees.is_empty());
    assert!(matches!(t.st.phase, Phase::Ready { .. }));
}

#[test]
fn heavy_cavalry_shock_kills_before_the_dice_but_not_up_a_hill_fmt_shock_01_to_04_06_seq_02() {
    // FMT-SHOCK-03: the shock kill comes off the defender before the dice.
    for hill in [false, true] {
        let terrain = if hill {
            "[[area]]\nname = \"Rise\"\nkind = \"hill\"\npoints = [[15.0, 13.0], [25.0, 13.0], [25.0, 20.0], [15.0, 20.0]]\n"
        } else {
            ""
        };
        let body = format!(
            "{}{}{terrain}",
            stand("red", "heavy_cavalry", 20.0, 10.0, 0.0),
            stand("blue", "heavy_infantry", 20.0, 14.5, 180.0)
        );
        let mut t = T::new(&scenario("", &body));
        t.ready(&[6, 1]);
        t.step(Side::Red, 0, 20.0, 14.0, None);
        t.done(Side::Blue, &[]);
        t.done(Side::Red, &[6, 1]);
        if hill {
            // FMT-SHOCK-04: up the hill, no shock; the defenders fight at ×1.5 (FMT-MELEE-20).
            assert!(!t.logged(&["to shock"]), "{}", t.log().join("\n"));
            t.assert_logged(&["[FMT-SHOCK-04]", "charged up the hill: no shock"]);
            t.assert_logged(&["[FMT-MELEE-20]", "on a hill, ×1.5"]);
        } else {
            // FMT-SHOCK-02/03: 8 points of heavy cavalry, one kill, taken off first (FMT-SEQ-02).
            t.assert_logged(&["[FMT-SHOCK-02]", "HI 1 loses 1 point(s) to shock"]);
            t.assert_logged(&["melee 1, round 1", "blue: HI 1: 7 points"]);
        }
        // FMT-SHOCK-06: none in round 2.
        let shocks = t.log().iter().filter(|l| l.contains("to shock")).count();
        t.pass(&[]);
        assert_eq!(t.log().iter().filter(|l| l.contains("to shock")).count(), shocks);
    }
    // FMT-SHOCK-01: heavy infantry have none.
    let body = format!(
        "{}{}",
        stand("red", "heavy_infantry", 20.0, 10.0, 0.0),
        stand("blue", "heavy_infantry", 20.0, 13.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    t.ready(&[6, 1]);
    t.step(Side::Red, 0, 20.0, 12.0, None);
    t.done(Side::Blue, &[]);
    t.done(Side::Red, &[6, 1]);
    assert!(!t.logged(&["to shock"]));
}

#[test]
fn equal_products_are_rolled_again_fmt_r_17() {
    let body = format!(
        "{}{}",
        stand("red", "heavy_infantry", 20.0, 10.0, 0.0),
        stand("blue", "heavy_infantry", 20.0, 11.75, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    t.ready(&[6, 1]);
    t.bell(&[3, 3, 5, 2]);
    t.assert_logged(&["[FMT-R-17]", "die 3, then 5", "red wins"]);
}

#[test]
fn a_defeated_stand_stands_still_then_rolls_to_recover_fmt_mor_04_06_07_08_09_r_31() {
    let body = format!(
        "{}{}",
        stand("red", "heavy_infantry", 20.0, 10.0, 0.0),
        stand("blue", "heavy_infantry", 20.0, 30.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    // Defeated in game move 1: still in move 2, rolls at the start of move 3.
    t.st.stands[0].morale = Morale::Broken { roll_from: 3 };
    t.ready(&[6, 1]);
    assert_eq!(
        t.refused(Side::Red, t.step_cmd(Side::Red, 0, 20.0, 12.0, None)).rule.as_str(),
        "FMT-TIME-18"
    );
    let mv = |t: &mut T, faces: &[u8]| {
        t.bell(&[]);
        if matches!(t.st.phase, Phase::Rearrange { .. }) {
            t.pass(faces);
        }
    };
    mv(&mut t, &[]);
    t.ready(&[6, 1]);
    // FMT-MOR-04: still standing in move 2.
    assert_eq!(
        t.refused(Side::Red, t.step_cmd(Side::Red, 0, 20.0, 12.0, None)).rule.as_str(),
        "FMT-TIME-18"
    );
    // Start of move 3: a 1 — back one more move and roll again (FMT-MOR-06, 07).
    mv(&mut t, &[1]);
    t.assert_logged(&["[FMT-MOR-07]", "rolls 1 to recover"]);
    t.assert_logged(&["[FMT-MOR-07]", "falls back 1 move(s)"]);
    assert!(t.st.stands[0].rect.centre.y < 10.0);
    t.ready(&[6, 1]);
    assert_eq!(
        t.refused(Side::Red, t.step_cmd(Side::Red, 0, 20.0, 8.0, None)).rule.as_str(),
        "FMT-TIME-18"
    );
    // Move 4: a 2 — it may turn and fall back but not advance (FMT-MOR-08).
    mv(&mut t, &[2]);
    t.ready(&[6, 1]);
    let y = t.st.stands[0].rect.centre.y;
    assert_eq!(
        t.refused(Side::Red, t.step_cmd(Side::Red, 0, 20.0, y + 2.0, Some(0.0))).rule.as_str(),
        "FMT-MOR-08"
    );
    t.step(Side::Red, 0, 20.0, y - 1.0, Some(0.0));
    // Move 5: a 5 — steady again (FMT-MOR-09).
    mv(&mut t, &[5]);
    t.assert_logged(&["[FMT-MOR-09]", "rolls 5 to recover: steady"]);
    t.ready(&[6, 1]);
    t.step(Side::Red, 0, 20.0, y + 2.0, None);
}

#[test]
fn a_game_move_runs_timed_move_tidy_up_fire_melee_in_that_order_fmt_seq_01() {
    // FMT-SEQ-01: in every game move, the bell, then the tidying up, fire and melee.
    let mut t = T::ready_scenario("legion_and_host.toml");
    let mut rng = tabletop::dice::SeededDice::new(3);
    let mut dice = tabletop::dice::SeededDice::new(5);
    let mut order: Vec<&'static str> = Vec::new();
    while t.st.game_move < 4 && t.st.outcome.is_none() {
        let side = t.rules.pending(&t.st).sides()[0];
        let c = freemove::bot::decide(&t.rules, &t.st, side);
        let _ = &mut rng;
        let ev = t
            .rules
            .perform(&mut t.st, tabletop::Actor::Side(side), &c, &mut dice)
            .expect("the general's command is legal");
        for e in &ev {
            let k = match e {
                Event::WindowClosed { .. } => "bell",
                Event::Rearranged { .. } => "tidy",
                Event::Shot { .. } => "fire",
                Event::Fought { .. } => "melee",
                Event::MoveBegun { .. } => "next",
                _ => continue,
            };
            if order.last() != Some(&k) {
                order.push(k);
            }
        }
    }
    let rank =
        |k: &str| ["bell", "tidy", "fire", "melee", "next"].iter().position(|x| *x == k).unwrap();
    for w in order.split(|k| *k == "next") {
        assert!(w.windows(2).all(|p| rank(p[0]) < rank(p[1])), "{order:?}");
    }
}
