//! Artillery (LIB-ART-01..16), played through the turn's steps B and C.

mod common;
use common::*;
use liberal::data::Fate;
use liberal::state::{Choice, Command, Event, Order, Shot, Status};
use tabletop::geometry::Point;
use tabletop::rules::Side;

/// A gun order.
fn gun(
    unit: usize,
    to: Option<(f64, f64)>,
    facing: Option<f64>,
    target: Option<usize>,
    shot: Shot,
) -> Order {
    order(unit, Choice::Gun { to: to.map(|(x, y)| Point::new(x, y)), facing, target, shot })
}

/// Fire round shot at a target.
fn fire_at(unit: usize, target: usize) -> Order {
    gun(unit, None, None, Some(target), Shot::Round)
}

/// A red gun of `ty` at (gx, gy) facing `gf` and a blue line of 24 at (36, by) facing north, its
/// back to the gun (it never fires back); `terrain` is added to the scenario.
fn battery(ty: &str, gx: f64, gy: f64, gf: f64, extra: &str, by: f64, terrain: &str) -> T {
    let body =
        unit("red", ty, gx, gy, gf, extra) + &unit("blue", "infantry", 36.0, by, 0.0, "") + terrain;
    T::at_red_turn(&scenario("", &body))
}

fn declare_refused(t: &T, orders: Vec<Order>) -> String {
    t.refused_rule(Side::Red, Command::Declare { orders })
}

#[test]
fn lib_art_01_a_gun_needs_two_figures() {
    // "LIB-ART-01": a gun with 1 crew can neither fire nor move (LIB-CHOICE-08).
    let t = battery("horse_artillery", 36.0, 10.0, 0.0, "figures = 1", 44.0, "");
    assert_eq!(declare_refused(&t, vec![fire_at(0, 1)]), "LIB-ART-01");
    assert_eq!(
        declare_refused(&t, vec![gun(0, Some((36.0, 12.0)), None, None, Shot::Round)]),
        "LIB-CHOICE-08"
    );
    // With 2 it fires: a miss.
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "figures = 2", 44.0, "");
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[1]);
    assert_eq!(cannons_of(&ev, 0).len(), 1);
    assert!(T::cites(&ev, "LIB-ART-01"));
}

#[test]
fn lib_art_02_artillerymen_fire_every_turn() {
    // "LIB-ART-02": a gun served by artillerymen fires in game turns 1 and 2.
    let mut t = battery("foot_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[1]);
    assert!(T::cites(&ev, "LIB-ART-02"));
    assert_eq!(t.st.units[0].gun.as_ref().unwrap().fired_turn, Some(1));
    t.declare(Side::Blue, vec![], &[]);
    assert_eq!(t.st.game_turn, 2);
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[1]);
    assert_eq!(cannons_of(&ev, 0).len(), 1);
    assert_eq!(t.st.units[0].gun.as_ref().unwrap().fired_turn, Some(2));
}

/// A red horse gun whose artillerymen blue's gun kills in turn 1, with red infantry (facing
/// away from the enemy, so it never fires) beside it; in turn 2 two infantrymen crew it. Blue
/// also has a line of 12 far off at (10, 44). The game is at red's declaration of game turn 3.
fn infantry_crewed() -> T {
    let body = unit("red", "horse_artillery", 36.0, 10.0, 0.0, "")
        + &unit("red", "infantry", 40.5, 8.0, 180.0, "figures = 12")
        + &unit("blue", "horse_artillery", 36.0, 36.0, 180.0, "")
        + &unit("blue", "infantry", 10.0, 44.0, 180.0, "figures = 12");
    let mut t = T::at_red_turn(&scenario("", &body));
    t.declare(Side::Red, vec![], &[]);
    // Blue's gun: to hit 2, 4 casualties, the count 3, 3, 3, 3 kills all four; red's gun fires
    // back at the same moment (LIB-R-20) and misses (1).
    let ev = t.declare(Side::Blue, vec![fire_at(2, 0)], &[2, 4, 3, 3, 3, 3, 1]);
    assert_eq!(cannons_of(&ev, 2)[0].1.len(), 4);
    assert_eq!(t.st.units[0].strength(), 0);
    assert_eq!(t.rules.artillerymen(&t.st.units[0]), 0);
    let ev = t.declare(Side::Red, vec![order(1, Choice::Crew { gun: 0, figures: 2 })], &[]);
    assert!(ev.iter().any(|e| matches!(e, Event::Crewed { from: 1, gun: 0, .. })));
    assert_eq!(t.st.units[0].strength(), 2);
    t.declare(Side::Blue, vec![], &[]);
    assert_eq!(t.st.game_turn, 3);
    t
}

#[test]
fn lib_art_03_an_infantry_crew_fires_every_other_turn() {
    // "LIB-ART-03" (LIB-R-26): the gun fired (back) in game turn 1, so not in 2; it fires in 3,
    // not in 4, and again in 5.
    let mut t = infantry_crewed();
    let ev = t.declare(Side::Red, vec![fire_at(0, 2)], &[1, 1]);
    assert!(T::cites(&ev, "LIB-ART-03"));
    // End of blue's turn 3: night, and the roll for the next day's first move (red).
    t.declare(Side::Blue, vec![], &[6, 1]);
    assert_eq!((t.st.game_turn, t.st.day), (4, 2));
    assert_eq!(declare_refused(&t, vec![fire_at(0, 2)]), "LIB-ART-03");
    t.declare(Side::Red, vec![], &[]);
    t.declare(Side::Blue, vec![], &[]);
    assert_eq!(t.st.game_turn, 5);
    let ev = t.declare(Side::Red, vec![fire_at(0, 2)], &[1, 1]);
    assert_eq!(cannons_of(&ev, 0).len(), 1);
}

#[test]
fn lib_art_04_a_foot_gun_moves_or_fires() {
    // "LIB-ART-04": a foot gun may not move and fire in one turn.
    let t = battery("foot_artillery", 36.0, 6.0, 0.0, "", 44.0, "");
    assert_eq!(
        declare_refused(&t, vec![gun(0, Some((36.0, 8.0)), None, Some(1), Shot::Round)]),
        "LIB-ART-04"
    );
    // It may move (2")...
    let mut t = battery("foot_artillery", 36.0, 6.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![gun(0, Some((36.0, 8.0)), None, None, Shot::Round)], &[]);
    assert!(cannons_of(&ev, 0).is_empty());
    assert!((t.st.units[0].place.at.y - 8.0).abs() < 1e-6);
    // ... or fire.
    let mut t = battery("foot_artillery", 36.0, 6.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[1]);
    assert_eq!(cannons_of(&ev, 0).len(), 1);
}

#[test]
fn lib_art_05_a_horse_gun_moves_and_fires() {
    // "LIB-ART-05": moved 2" in step B, it fires in step C (a miss).
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    let ev =
        t.declare(Side::Red, vec![gun(0, Some((36.0, 12.0)), None, Some(1), Shot::Round)], &[1]);
    let mv = moves_of(&ev, 0);
    assert_eq!(mv.len(), 1);
    assert!(mv[0].1.iter().any(|r| r == "LIB-ART-05"));
    let moved_at = ev.iter().position(|e| matches!(e, Event::Moved { .. })).unwrap();
    let fired_at = ev.iter().position(|e| matches!(e, Event::Cannon { .. })).unwrap();
    assert!(moved_at < fired_at, "step B before step C");
    assert!((t.st.units[0].place.at.y - 12.0).abs() < 1e-6);
}

#[test]
fn lib_art_06_direct_fire_needs_a_clear_line() {
    // "LIB-ART-06": red's own infantry stands between the gun and its target.
    let screen = unit("red", "infantry", 36.0, 16.0, 0.0, "");
    let t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, &screen);
    assert_eq!(declare_refused(&t, vec![fire_at(0, 1)]), "LIB-ART-06");
    // A house between blocks too (LIB-M-08).
    let house = "[[area]]\nname = \"Inn\"\nkind = \"village\"\npoints = [[34.0, 24.0], [38.0, 24.0], [38.0, 27.0], [34.0, 27.0]]\n\n";
    let t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, house);
    assert_eq!(declare_refused(&t, vec![fire_at(0, 1)]), "LIB-ART-06");
    // A clear line: it fires.
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[1]);
    assert!(T::cites(&ev, "LIB-ART-06"));
}

#[test]
fn lib_art_07_the_180_degree_arc() {
    // "LIB-ART-07": a gun facing east fires at a target some 20° east of north without moving.
    let mut t = battery("foot_artillery", 20.0, 10.0, 90.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[1]);
    assert_eq!(cannons_of(&ev, 0).len(), 1);
    assert!(moves_of(&ev, 0).is_empty());
    assert!(T::cites(&ev, "LIB-ART-07"));
    // Facing south the target is behind it: refused.
    let t = battery("foot_artillery", 36.0, 10.0, 180.0, "", 44.0, "");
    assert_eq!(declare_refused(&t, vec![fire_at(0, 1)]), "LIB-ART-07");
    // Turning about to face it is a move: a foot gun then may not fire (LIB-R-22) ...
    assert_eq!(
        declare_refused(&t, vec![gun(0, None, Some(0.0), Some(1), Shot::Round)]),
        "LIB-ART-04"
    );
    // ... a horse gun may.
    let mut t = battery("horse_artillery", 36.0, 10.0, 180.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![gun(0, None, Some(0.0), Some(1), Shot::Round)], &[1]);
    assert_eq!(cannons_of(&ev, 0).len(), 1);
    assert_eq!(moves_of(&ev, 0).len(), 1, "turning beyond the arc is a move");
    assert!(t.st.units[0].place.facing.bearing_degrees().abs() < 1e-6);
}

#[test]
fn lib_art_08_round_shot_ranges() {
    // "LIB-ART-08": the target 36.5" away is out of a horse gun's 36" ...
    let t = battery("horse_artillery", 36.0, 6.0, 0.0, "", 44.0, "");
    assert_eq!(declare_refused(&t, vec![fire_at(0, 1)]), "LIB-ART-08");
    // ... and inside a foot gun's 48".
    let mut t = battery("foot_artillery", 36.0, 6.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[1]);
    let c = &cannons_of(&ev, 0)[0].0;
    assert!((c.distance - 36.5).abs() < 0.05, "{}", c.distance);
    assert!(T::cites(&ev, "LIB-ART-08"));
}

#[test]
fn lib_art_09_even_dice_hit() {
    // "LIB-ART-09": to hit 4: a hit, casualty die 2, the count 3, 3.
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[4, 2, 3, 3]);
    let (c, hits) = &cannons_of(&ev, 0)[0];
    assert!(c.hit);
    assert_eq!((c.casualties, hits.len()), (2, 2));
    // To hit 3: a miss, and no further die.
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[3]);
    let (c, hits) = &cannons_of(&ev, 0)[0];
    assert!(!c.hit && c.casualty_die.is_none() && hits.is_empty());
    assert_eq!(t.st.units[1].strength(), 24);
    assert!(T::cites(&ev, "LIB-ART-09"));
}

#[test]
fn lib_art_10_cover_reduces_the_casualty_die() {
    // "LIB-ART-10": in a wood (light cover) a casualty die of 4 gives 3.
    let wood = "[[area]]\nkind = \"wood\"\npoints = [[30.0, 42.5], [42.0, 42.5], [42.0, 46.0], [30.0, 46.0]]\n\n";
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, wood);
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[2, 4, 3, 3, 3]);
    let (c, hits) = &cannons_of(&ev, 0)[0];
    assert_eq!((c.cover, c.casualties, hits.len()), (1, 3, 3));
    // Behind a wall (heavy cover) 4 gives 2 ...
    let wall = "[[line]]\nkind = \"wall\"\nwidth = 0.5\npoints = [[0.0, 41.5], [72.0, 41.5]]\n\n";
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, wall);
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[2, 4, 3, 3]);
    let (c, _) = &cannons_of(&ev, 0)[0];
    assert_eq!((c.cover, c.casualties), (2, 2));
    // ... and 1 gives none, never below 0: no count.
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, wall);
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[2, 1]);
    let (c, hits) = &cannons_of(&ev, 0)[0];
    assert_eq!((c.casualties, hits.len()), (0, 0));
    // In the open a 6 against infantry is simply 6 casualties.
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[2, 6, 5, 5, 5, 5, 5, 5]);
    let (c, _) = &cannons_of(&ev, 0)[0];
    assert_eq!((c.cover, c.casualties, c.destroyed), (0, 6, false));
    assert!(T::cites(&ev, "LIB-ART-10"));
}

#[test]
fn lib_art_11_a_six_destroys_a_gun() {
    // "LIB-ART-11" (LIB-R-23): red's horse gun hits blue's battery (2), the casualty die shows
    // 6: the gun is destroyed; a fresh die of 3 kills three of its crew (count 3, 3, 3). Blue's
    // gun fires back at the same moment and misses (1).
    let body = unit("red", "horse_artillery", 36.0, 10.0, 0.0, "")
        + &unit("blue", "horse_artillery", 36.0, 40.0, 180.0, "");
    let mut t = T::at_red_turn(&scenario("", &body));
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[2, 6, 3, 3, 3, 3, 1]);
    let (c, hits) = &cannons_of(&ev, 0)[0];
    assert!(c.destroyed);
    assert_eq!(c.crew_die.as_ref().map(|r| r.value), Some(3));
    assert_eq!((c.casualties, hits.len()), (3, 3));
    assert!(T::cites(&ev, "LIB-ART-11"));
    assert!(cannons_of(&ev, 1)[0].0.to_hit.is_some(), "blue fired back before the hit applied");
    let g = t.st.units[1].gun.as_ref().unwrap();
    assert!(g.destroyed);
    assert_eq!(t.st.units[1].strength(), 1);
    // Blue's destroyed gun cannot fire.
    assert_eq!(
        t.refused_rule(Side::Blue, Command::Declare { orders: vec![fire_at(1, 0)] }),
        "LIB-ART-11"
    );
    // Behind a hedge (light cover) the 6 still destroys the gun, and the fresh die of 3 less 1
    // kills two.
    let hedge = "[[line]]\nkind = \"hedge\"\nwidth = 0.5\npoints = [[0.0, 39.5], [72.0, 39.5]]\n\n";
    let body = unit("red", "horse_artillery", 36.0, 10.0, 0.0, "")
        + &unit("blue", "horse_artillery", 36.0, 40.0, 180.0, "")
        + hedge;
    let mut t = T::at_red_turn(&scenario("", &body));
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[2, 6, 3, 3, 3, 1]);
    let (c, hits) = &cannons_of(&ev, 0)[0];
    assert!(c.destroyed);
    assert_eq!((c.cover, c.casualties, hits.len()), (1, 2, 2));
    assert_eq!(t.st.units[1].strength(), 2);
}

#[test]
fn lib_art_12_grape() {
    // "LIB-ART-12" (LIB-R-24): within 12", no to-hit roll; the die (4) is the casualties, and
    // the target's wood does not reduce them.
    let wood = "[[area]]\nkind = \"wood\"\npoints = [[30.0, 19.5], [42.0, 19.5], [42.0, 23.0], [30.0, 23.0]]\n\n";
    let body = unit("red", "horse_artillery", 36.0, 10.0, 0.0, "")
        + &unit("blue", "infantry", 36.0, 21.0, 0.0, "")
        + wood;
    let mut t = T::at_red_turn(&scenario_h(36.0, "", &body));
    let ev = t.declare(Side::Red, vec![gun(0, None, None, Some(1), Shot::Grape)], &[4, 3, 3, 3, 3]);
    let (c, hits) = &cannons_of(&ev, 0)[0];
    assert_eq!(c.shot, Shot::Grape);
    assert!(c.to_hit.is_none());
    assert_eq!((c.cover, c.casualties, hits.len()), (0, 4, 4));
    assert!(c.distance <= 12.0);
    assert!(T::cites(&ev, "LIB-ART-12"));
    // Grape never destroys a gun (LIB-R-24): a 6 at a battery 10" off kills its crew (4 of
    // them, the count 3, 3, 3, 3) but leaves the gun; blue's gun fires grape back (1, the
    // count 3).
    let body = unit("red", "horse_artillery", 36.0, 10.0, 0.0, "")
        + &unit("blue", "horse_artillery", 36.0, 19.0, 180.0, "");
    let mut t = T::at_red_turn(&scenario_h(36.0, "", &body));
    let ev = t.declare(
        Side::Red,
        vec![gun(0, None, None, Some(1), Shot::Grape)],
        &[6, 3, 3, 3, 3, 1, 3],
    );
    let (c, hits) = &cannons_of(&ev, 0)[0];
    assert_eq!((c.casualties, c.destroyed, hits.len()), (6, false, 4));
    assert!(!t.st.units[1].gun.as_ref().unwrap().destroyed);
    assert_eq!(cannons_of(&ev, 1)[0].0.shot, Shot::Grape);
    // Beyond 12": refused.
    let body = unit("red", "horse_artillery", 36.0, 10.0, 0.0, "")
        + &unit("blue", "infantry", 36.0, 24.0, 0.0, "");
    let t = T::at_red_turn(&scenario_h(36.0, "", &body));
    assert_eq!(declare_refused(&t, vec![gun(0, None, None, Some(1), Shot::Grape)]), "LIB-ART-12");
}

#[test]
fn lib_art_13_gun_casualties_are_counted_like_rifle_fire() {
    // "LIB-ART-13": a hit, 3 casualties, the count 3, 4, 4: figures 3 dead, 7 and 11 wounded.
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![fire_at(0, 1)], &[2, 3, 3, 4, 4]);
    let (_, hits) = &cannons_of(&ev, 0)[0];
    assert_eq!(hits.iter().map(|h| h.number).collect::<Vec<_>>(), vec![3, 7, 11]);
    assert_eq!(
        hits.iter().map(|h| h.fate).collect::<Vec<_>>(),
        vec![Fate::Dead, Fate::Wounded, Fate::Wounded]
    );
    assert_eq!(t.st.units[1].figures[2].status, Status::Dead);
    assert!(matches!(t.st.units[1].figures[10].status, Status::Wounded { .. }));
    assert!(T::cites(&ev, "LIB-ART-13"));
}

#[test]
fn lib_art_14_a_horse_gun_without_artillerymen_is_a_foot_gun() {
    // "LIB-ART-14" (LIB-R-25): crewed by infantry alone, the horse gun moves at 6" and may not
    // move and fire, but keeps its 36" range.
    let mut t = infantry_crewed();
    let u = &t.st.units[0];
    let g = u.gun.as_ref().unwrap();
    let foot = t.rules.data.gun("foot_artillery").unwrap();
    assert_eq!(t.rules.gun_kind(g), foot);
    assert_eq!(g.range, 36.0);
    assert_eq!(
        declare_refused(&t, vec![gun(0, Some((36.0, 11.0)), None, Some(2), Shot::Round)]),
        "LIB-ART-04"
    );
    assert_eq!(
        declare_refused(&t, vec![gun(0, Some((36.0, 17.0)), None, None, Shot::Round)]),
        "LIB-CHOICE-04"
    );
    let ev = t.declare(Side::Red, vec![gun(0, Some((36.0, 15.5)), None, None, Shot::Round)], &[]);
    assert_eq!(moves_of(&ev, 0)[0].0.allowance, 6.0);
}

#[test]
fn lib_art_15_spiking() {
    // "LIB-ART-15": the crew spike their own gun: a 3 fails ...
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![order(0, Choice::Spike { gun: 0 })], &[3]);
    assert!(ev.iter().any(|e| matches!(e, Event::Spiked { gun: 0, spiked: false, .. })));
    assert!(!t.st.units[0].gun.as_ref().unwrap().spiked);
    // ... a 4 spikes it, and it never fires again.
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    let ev = t.declare(Side::Red, vec![order(0, Choice::Spike { gun: 0 })], &[4]);
    assert!(ev.iter().any(|e| matches!(e, Event::Spiked { gun: 0, spiked: true, .. })));
    assert!(t.st.units[0].gun.as_ref().unwrap().spiked);
    t.declare(Side::Blue, vec![], &[]);
    assert_eq!(declare_refused(&t, vec![fire_at(0, 1)]), "LIB-ART-15");
    assert_eq!(declare_refused(&t, vec![order(0, Choice::Spike { gun: 0 })]), "LIB-ART-15");
}

#[test]
fn lib_art_16_fire_or_spike_not_both() {
    // "LIB-ART-16": one order a gun: firing and spiking together are refused.
    let t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    assert_eq!(
        declare_refused(&t, vec![fire_at(0, 1), order(0, Choice::Spike { gun: 0 })]),
        "LIB-CHOICE-01"
    );
    // A failed attempt uses the gun's turn: replaying the log up to it, the gun may not fire.
    let mut t = battery("horse_artillery", 36.0, 10.0, 0.0, "", 44.0, "");
    let mut st = t.st.clone();
    let ev = t.declare(Side::Red, vec![order(0, Choice::Spike { gun: 0 })], &[1]);
    for e in &ev {
        t.rules.apply_event(&mut st, e);
        if matches!(e, Event::Spiked { .. }) {
            break;
        }
    }
    let barred = t.rules.gun_barred(&st.units[0], st.game_turn).map(|b| b.0);
    assert_eq!(barred, Some("LIB-ART-16"));
}

#[test]
fn lib_art_16_a_gun_that_fired_this_turn_is_not_also_spiked() {
    // "LIB-ART-16" with LIB-HTH-16: blue's gun fires back at red's gun in step C (both miss);
    // in step D red's infantry overruns it. It fired this turn, so its retreating crew may not
    // also spike it: no spike die, and red takes it whole.
    let body = unit("red", "horse_artillery", 20.0, 10.0, 0.0, "")
        + &unit("red", "infantry", 36.0, 16.0, 0.0, "figures = 4\nofficers = false")
        + &unit("blue", "horse_artillery", 36.0, 19.0, 180.0, "");
    let mut t = T::at_red_turn(&scenario_h(36.0, "", &body));
    let mut dice = vec![1, 1];
    dice.extend(fights("aaaa", 3));
    let ev = t.declare(Side::Red, vec![fire_at(0, 2), normal(1, 36.0, 19.0)], &dice);
    assert!(!cannons_of(&ev, 2).is_empty(), "blue's gun fired back");
    assert!(melees(&ev)[0].attacker_won);
    assert!(!ev.iter().any(|e| matches!(e, Event::Spiked { .. })));
    let taken = t.st.units.iter().find(|u| u.side == Side::Red && u.id == 3).expect("taken");
    assert!(!taken.gun.as_ref().unwrap().spiked);
}

#[test]
fn lib_art_03_an_infantry_crew_that_fired_does_not_fire_at_liberal_movers_next_turn() {
    // "LIB-ART-03" (LIB-R-26, LIB-R-09): the infantry-crewed gun fires in game turn 3; in game
    // turn 4 blue's line makes a liberal move to (30, 40), into the gun's range and arc. The
    // gun may not fire in turn 4, so it does not fire at the mover on any step.
    let mut t = infantry_crewed();
    t.declare(Side::Red, vec![fire_at(0, 2)], &[1, 1]);
    t.declare(Side::Blue, vec![], &[6, 1]);
    t.declare(Side::Red, vec![], &[]);
    assert_eq!((t.st.game_turn, t.st.acting()), (4, Some(Side::Blue)));
    let go = order(
        3,
        Choice::Liberal {
            objective: liberal::state::Objective::Point { at: Point::new(30.0, 40.0) },
            formation: None,
        },
    );
    let mut ev = t.declare(Side::Blue, vec![go], &[]);
    while matches!(
        t.st.phase,
        liberal::state::Phase::Turn { stage: liberal::state::Stage::Liberal { .. }, .. }
    ) {
        ev.extend(t.side(
            Side::Blue,
            Command::Advance { call_off: vec![], reform: Vec::new() },
            &[],
        ));
    }
    assert!(t.st.units[3].place.at.distance(Point::new(30.0, 40.0)) < 0.05);
    let reach = t.rules.gun_reach(&t.st, &t.st.units[0], &t.st.units[3], Shot::Round);
    assert!(reach.is_ok(), "the mover ends in the gun's range and arc: {reach:?}");
    assert!(cannons_of(&ev, 0).is_empty(), "the gun fired in game turn 3");
}
