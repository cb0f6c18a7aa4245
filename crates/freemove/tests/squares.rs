//! Squares, defensive positions and single-round melees, played through the game
//! (FMT-SQ-*, FMT-SHOCK-05, FMT-MELEE-18, 19, 21).

mod common;
use common::*;
use freemove::state::{Command, Phase, ReadyOrders};
use tabletop::geometry::Point;
use tabletop::rules::Side;

/// Four red heavy infantry in a block at (20, 10), blue horse to the north; a minute on the
/// clock.
fn block(blue: &str, extra: &str) -> T {
    T::new(&scenario(
        "window_seconds = 60",
        &format!(
            "[[stand]]\nside = \"red\"\ntype = \"heavy_infantry\"\nat = [20.0, 10.0]\ncount = 2\nranks = 2\n\n{}{}{extra}",
            stand("red", "light_infantry", 10.0, 10.0, 0.0),
            stand("blue", blue, 21.0, 20.0, 180.0)
        ),
    ))
}

fn form(t: &mut T, stands: Vec<usize>, keep: Vec<u32>, faces: &[u8]) {
    t.side(
        Side::Red,
        Command::Ready(ReadyOrders { form: vec![stands], keep, fire_and_charge: vec![] }),
        &[],
    );
    t.side(Side::Blue, Command::Ready(ReadyOrders::default()), faces);
}

#[test]
fn infantry_form_squares_facing_out_fmt_sq_01() {
    let mut t = block("heavy_cavalry", "");
    // Horse cannot: the blue cavalry is no infantry; nor four stands with the skirmishers
    // 10" off.
    let c = Command::Ready(ReadyOrders { form: vec![vec![0, 1, 2, 4]], ..Default::default() });
    assert_eq!(t.refused(Side::Red, c).rule.as_str(), "FMT-SQ-01");
    form(&mut t, vec![0, 1, 2, 3], vec![], &[6, 1]);
    t.assert_logged(&["[FMT-SQ-01]", "red forms square"]);
    let q = &t.st.squares[0];
    assert_eq!(q.stands.len(), 4);
    let facings: Vec<f64> =
        q.stands.iter().map(|i| freemove::geom::bearing(t.st.stands[*i].rect.facing)).collect();
    assert_eq!(facings, vec![0.0, 90.0, 180.0, 270.0]);
}

#[test]
fn a_square_moves_half_an_infantry_move_and_not_up_hills_fmt_sq_05_07() {
    let hill = "[[area]]\nname = \"Knoll\"\nkind = \"hill\"\npoints = [[10.0, 12.5], [30.0, 12.5], [30.0, 18.0], [10.0, 18.0]]\n";
    let mut t = block("heavy_cavalry", hill);
    form(&mut t, vec![0, 1, 2, 3], vec![], &[6, 1]);
    let q = t.st.squares[0].id;
    let at = t.at(Side::Red);
    // Half of 4" is 2".
    let c = Command::MoveSquare { at_ms: at, square: q, by: Point::new(2.5, 0.0) };
    assert_eq!(t.refused(Side::Red, c).rule.as_str(), "FMT-SQ-05");
    // Not up the hill to the north.
    let c = Command::MoveSquare { at_ms: at, square: q, by: Point::new(0.0, 2.0) };
    assert_eq!(t.refused(Side::Red, c).rule.as_str(), "FMT-SQ-07");
    // A stand of the square does not step alone.
    assert_eq!(
        t.refused(Side::Red, t.step_cmd(Side::Red, 0, 21.0, 8.0, None)).rule.as_str(),
        "FMT-SQ-05"
    );
    let before: Vec<Point> = (0..4).map(|i| t.st.stands[i].rect.centre).collect();
    t.side(Side::Red, Command::MoveSquare { at_ms: at, square: q, by: Point::new(-2.0, 0.0) }, &[]);
    t.done(Side::Blue, &[]);
    // Four stands moved: 16 s of handling.
    assert_eq!(t.st.clock().map(|c| c.hands[0].free_ms), Some(16_000));
    for (i, b) in before.iter().enumerate() {
        assert_eq!(t.st.stands[i].rect.centre, *b + Point::new(-2.0, 0.0));
    }
    t.assert_logged(&["[FMT-SQ-05]", "steps 2\""]);
}

#[test]
fn a_square_fights_whole_at_half_as_much_again_in_one_round_and_takes_no_shock_fmt_sq_02_03_04_09_shock_05()
 {
    let mut t = block("heavy_cavalry", "");
    form(&mut t, vec![0, 1, 2, 3], vec![], &[6, 1]);
    // The horse charges the square's north face.
    let north = t.st.stands[0].rect;
    let target = Point::new(north.centre.x, north.centre.y + 1.75 + 0.02);
    t.step(Side::Blue, 5, target.x, target.y + 3.0, None);
    t.done(Side::Red, &[]);
    t.step(Side::Blue, 5, target.x, target.y, None);
    // All four stands count (FMT-SQ-03), each ×1.5 (FMT-SQ-02): 32 points, value 48. The horse
    // charged a square: no shock (FMT-SHOCK-05). One round (FMT-SQ-09): red 2 × 48, blue 6 × 8.
    t.done(Side::Blue, &[]);
    t.pass(&[2, 6]);
    assert!(!t.logged(&["to shock"]), "{}", t.log().join("\n"));
    t.assert_logged(&["[FMT-SHOCK-05]", "charged a square: no shock"]);
    t.assert_logged(&[
        "[FMT-SQ-02]",
        "[FMT-SQ-03]",
        "a single round",
        "in square",
        "32 points counted, value 48",
        "red wins",
    ]);
    // FMT-SQ-04: cavalry may attack a square.
    assert!(t.st.melees.is_empty(), "settled in one round");
}

#[test]
fn a_square_is_broken_when_a_stand_is_driven_back_or_destroyed_fmt_sq_06() {
    let mut t = block("light_cavalry", "");
    // The stand that will face north has one point left.
    t.st.stands[0].kills = 7;
    form(&mut t, vec![0, 1, 2, 3], vec![], &[6, 1]);
    t.bell(&[]);
    t.pass(&[]);
    // The horse archers shoot it down (a square is no shelter from missiles, FMT-SQ-04).
    t.side(Side::Blue, Command::Fire { targets: vec![(5, 0)] }, &[3]);
    t.assert_logged(&["[FMT-SQ-04]", "shoots bows at HI 1", "rolls 3"]);
    t.assert_logged(&["[FMT-SQ-06]", "square 1 is broken", "destroyed"]);
    assert!(t.st.squares.is_empty());
    assert!(t.st.stands[1..4].iter().all(|s| s.square.is_none()));
}

#[test]
fn a_square_stays_a_square_only_if_announced_fmt_sq_08() {
    let mut t = block("heavy_cavalry", "");
    form(&mut t, vec![0, 1, 2, 3], vec![], &[6, 1]);
    t.bell(&[]);
    while !matches!(t.st.phase, Phase::Ready { .. }) {
        t.pass(&[]);
    }
    // Kept through the next move when announced...
    let q = t.st.squares[0].id;
    t.side(Side::Red, Command::Ready(ReadyOrders { keep: vec![q], ..Default::default() }), &[]);
    t.side(Side::Blue, Command::Ready(ReadyOrders::default()), &[6, 1]);
    assert_eq!(t.st.squares.len(), 1);
    t.bell(&[]);
    while !matches!(t.st.phase, Phase::Ready { .. }) {
        t.pass(&[]);
    }
    // ...and gone when not.
    t.ready(&[6, 1]);
    assert!(t.st.squares.is_empty());
    t.assert_logged(&["[FMT-SQ-08]", "not announced as staying a square"]);
}

#[test]
fn a_melee_across_a_wall_or_for_a_house_is_settled_at_once_two_deep_fmt_melee_18_19_21() {
    let wall = "[[line]]\nname = \"Dyke\"\nkind = \"wall\"\nwidth = 0.5\npoints = [[0.0, 11.2], [48.0, 11.2]]\n";
    let body = format!(
        "{}{}{}{wall}",
        stand("red", "heavy_infantry", 20.0, 10.0, 0.0),
        stand("red", "heavy_infantry", 20.0, 8.25, 0.0),
        stand("blue", "heavy_infantry", 20.0, 13.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    t.ready(&[6, 1]);
    // Blue climbs to the wall (half a move to cross, not in the source) and meets red behind it.
    t.step(Side::Blue, 2, 20.0, 11.0, None);
    t.done(Side::Red, &[]);
    // Red behind the wall: ×1.5 and two deep (8 × 1.5 + 8 × 1.5 = 24); red 2, blue 5.
    t.done(Side::Blue, &[2, 5]);
    t.assert_logged(&[
        "[FMT-MELEE-18]",
        "[FMT-MELEE-19]",
        "[FMT-MELEE-21]",
        "a single round",
        "behind a wall",
        "16 points counted, value 24",
        "red wins",
    ]);
    assert!(t.st.melees.is_empty());
    // A house: the same.
    let house = "[[area]]\nname = \"Farm\"\nkind = \"village\"\npoints = [[18.5, 8.8], [21.5, 8.8], [21.5, 11.2], [18.5, 11.2]]\n";
    let body = format!(
        "{}{}{house}",
        stand("red", "light_infantry", 20.0, 10.0, 0.0),
        stand("blue", "heavy_infantry", 20.0, 13.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    t.ready(&[6, 1]);
    t.step(Side::Blue, 1, 20.0, 11.0, None);
    t.done(Side::Red, &[]);
    t.done(Side::Blue, &[6, 1]);
    t.assert_logged(&["[FMT-MELEE-18]", "in a house", "value 6"]);
}
