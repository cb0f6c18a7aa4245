//! The hand-to-hand part of a period on the table.
use tabletop::diagnostics::Source;
use tabletop::dice::{Die, ScriptedDice};
use tabletop::geometry::{Facing, Vec2};
use wrg1969::Data;
use wrg1969::after::Verdict;
use wrg1969::melee_phase::{contacts, fight_all, front_contact};
use wrg1969::state::*;

fn hill() -> (Data, State) {
    let d = Data::embedded().unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/scenarios/wrg1969/the_hill.toml")).unwrap();
    let sc = wrg1969::scenario::load(&d, &Source::new("the_hill.toml", text)).unwrap();
    (d, setup(&sc))
}

/// The Iceni warband (id 11) charges home on the first cohort (id 0), front to front.
fn charged() -> (Data, State) {
    let (d, mut st) = hill();
    st.units[11].at = Vec2::new(24.0, 7.5);
    st.units[11].facing = Facing::from_bearing_degrees(180.0);
    st.units[11].motion = Motion::Charged;
    (d, st)
}

// Checks WRG-MELEE-01, WRG-MELEE-02.
#[test]
fn who_fights() {
    let (d, st) = charged();
    assert_eq!(contacts(&d, &st), vec![(0, 11)]);
    assert_eq!(front_contact(&d, &st.units[0], &st.units[11]), 10);
    assert_eq!(front_contact(&d, &st.units[11], &st.units[0]), 10);
    let mut dice = ScriptedDice::new([3, 4, 4, 2]);
    let mut st2 = st.clone();
    let r = fight_all(&d, &mut st2, &[], &mut dice);
    // The legion's second rank fights beside the first; the barbarians' does not.
    assert_eq!(r[0].figures, [20, 10]);
    // If the legion had shot this period, its second rank would not fight.
    let mut dice = ScriptedDice::new([3, 4, 4, 2]);
    let mut st3 = st.clone();
    assert_eq!(fight_all(&d, &mut st3, &[0], &mut dice)[0].figures, [10, 10]);
}

// Checks WRG-MELEE-06, WRG-RAND-02, WRG-RAND-03, WRG-AFTER-05.
#[test]
fn the_round_is_struck_together_and_judged() {
    let (d, mut st) = charged();
    // Legion: red 3, black 4 (average dice) = +1; warband: red 4 (average), black 2 (d6) = -2.
    let mut dice = ScriptedDice::new([3, 4, 4, 2]);
    let r = fight_all(&d, &mut st, &[], &mut dice);
    assert_eq!(r[0].rolls[0][0].die, Die::Average);
    assert_eq!(r[0].rolls[1][1].die, Die::D6);
    // Legion: pilum against MI 5 + 1 = 6 with 20 figures: 64 men.
    // Warband: spear against MI 4 + 1 charging - 2 = 3 with 10 figures: 16 men.
    assert_eq!(r[0].dealt, [64, 16]);
    // The warband lost more, and more than a man a figure: pushed back 3".
    assert_eq!(r[0].verdict, Verdict::PushedBack { side: 1, distance: 3.0 });
    assert_eq!((st.units[11].block.figures, st.units[11].carried), (37, 4));
    assert_eq!((st.units[0].block.figures, st.units[0].carried), (20, 16));
    assert_eq!((st.units[11].pushed_back, st.units[0].pushed_back), (1, 0));
    assert_eq!((st.units[11].fight_periods, st.units[0].fight_periods), (1, 1));
}

// Checks WRG-RAND-04.
#[test]
fn the_general_in_the_front_rank_ignores_a_bad_throw() {
    let (d, mut st) = charged();
    st.generals[0].attached = Some(0);
    // Red 5, black 2: -3, disregarded: pilum 5 with 20 figures: 50 men.
    let mut dice = ScriptedDice::new([5, 2, 4, 2]);
    let r = fight_all(&d, &mut st, &[], &mut dice);
    assert_eq!(r[0].dealt[0], 50);
}

// Checks WRG-AFTER-05, WRG-TAC-06.
#[test]
fn the_warband_is_pushed_back_and_the_legion_follows_up() {
    use wrg1969::melee_phase::{Outcome, carry_out};
    let (d, mut st) = charged();
    let mut dice = ScriptedDice::new([3, 4, 4, 2]);
    let r = fight_all(&d, &mut st, &[], &mut dice);
    let o = carry_out(&d, &mut st, &r, &mut dice);
    assert_eq!(
        o,
        vec![Outcome::PushedBack { unit: 11, by: 0, distance: 3.0, followed: 3.0, held: None }]
    );
    assert!((st.units[11].at.y - 10.5).abs() < 1e-9);
    assert!((st.units[0].at.y - 9.0).abs() < 1e-9);
    // Still in contact, the legion now following up.
    assert_eq!(contacts(&d, &st), vec![(0, 11)]);
    assert_eq!(st.units[0].motion, Motion::Charged);
}

// Checks WRG-AFTER-02, WRG-DIS-06.
#[test]
fn cavalry_repulsed_by_steady_foot_fall_back_ten() {
    use wrg1969::melee_phase::{Outcome, carry_out};
    let (d, mut st) = hill();
    // The British light horse (id 15), six abreast, ride into the first cohort's front.
    st.units[15].block = wrg1969::unit::Block::new(16, 6);
    st.units[15].at = Vec2::new(26.0, 9.0);
    st.units[15].facing = Facing::from_bearing_degrees(180.0);
    st.units[15].motion = Motion::Charged;
    assert_eq!(contacts(&d, &st), vec![(0, 15)]);
    let mut dice = ScriptedDice::new([3, 3, 3, 3]);
    let r = fight_all(&d, &mut st, &[], &mut dice);
    assert!(matches!(r[0].verdict, Verdict::MountedFallBack { side: 1, .. }), "{:?}", r[0]);
    let o = carry_out(&d, &mut st, &r, &mut dice);
    assert_eq!(o, vec![Outcome::FellBack { unit: 15, distance: 10.0 }]);
    // They rally back in the next period's movement (WRG-AFTER-02).
    assert!((st.units[15].at.y - 9.0).abs() < 1e-9);
    assert_eq!(
        st.units[15].falling_back,
        Some(wrg1969::state::FallingBack { inches: 10.0, repulsed: true })
    );
    assert!(st.units[15].causes.contains(&wrg1969::combat::Cause::ChargeRepulsed));
}

// Checks WRG-AFTER-07, WRG-ROUT-01.
#[test]
fn broken_against_the_table_edge_half_surrender() {
    use wrg1969::melee_phase::{Outcome, carry_out};
    let (d, mut st) = hill();
    // The scorpions' crew (id 9) at the table's south edge, caught by the chariots (id 10).
    st.units[9].at = Vec2::new(20.0, 0.75);
    st.units[10].at = Vec2::new(20.0, 2.5);
    st.units[10].facing = Facing::from_bearing_degrees(180.0);
    st.units[10].motion = Motion::Charged;
    let mut dice = ScriptedDice::new([3, 3, 3, 6]);
    let r = fight_all(&d, &mut st, &[], &mut dice);
    let o = carry_out(&d, &mut st, &r, &mut dice);
    assert!(o.contains(&Outcome::Surrendered { unit: 9, prisoners: 1 }), "{o:?} {:?}", r[0]);
    assert!(o.iter().any(|x| matches!(x, Outcome::Broke { unit: 9, .. })));
    assert_eq!(st.units[9].motion, Motion::Routing);
    assert!((st.units[9].facing.bearing_degrees() - 180.0).abs() < 1e-9);
}

// Checks WRG-MELEE-01 after a charge that strikes at an angle: the charger lines up.
#[test]
fn wrg_melee_01_a_charger_striking_at_an_angle_lines_up_and_its_front_fights() {
    let (d, mut st) = hill();
    let cohort = st.units[0].clone();
    // The warband arrives askew, a corner just touching the cohort's front.
    st.units[11].at = cohort.at + Vec2::new(3.0, 2.2);
    st.units[11].facing = Facing::from_bearing_degrees(215.0);
    assert!(front_contact(&d, &st.units[11], &st.units[0]) < 3);
    wrg1969::contact::line_up(&d, &mut st, 11, 0);
    let w = &st.units[11];
    // It now faces the cohort's front squarely, its front edge against it.
    assert!((w.facing.bearing_degrees() - 180.0).abs() < 1e-9, "{}", w.facing.bearing_degrees());
    assert!(contacts(&d, &st).contains(&(0, 11)));
    let front = w.block.front_rank();
    assert!(front_contact(&d, &st.units[11], &st.units[0]) >= front / 2, "too few in contact");
    // A charger hitting the right flank lines up on the flank, facing west.
    let (d, mut st) = hill();
    let c = st.units[0].clone();
    let r = c.facing.right();
    st.units[11].at = c.at + r * 9.0 + c.facing.vector() * 0.3;
    st.units[11].facing = Facing::from_bearing_degrees(250.0);
    // (Nobody else near: a charger does not line up into other units.)
    for u in st.units.iter_mut().filter(|u| u.id != 0 && u.id != 11) {
        let n = u.block.figures;
        u.block.lose(n);
    }
    wrg1969::contact::line_up(&d, &mut st, 11, 0);
    let bearing = st.units[11].facing.bearing_degrees();
    let want = (c.facing.bearing_degrees() + 270.0).rem_euclid(360.0);
    assert!((bearing - want).abs() < 1e-9, "{bearing} vs {want}");
    assert!(contacts(&d, &st).contains(&(0, 11)));
}

// Checks WRG-CHAMP-01 (the Notes' lap-round and second rank, in play: WRG-MELEE-02, -03).
#[test]
fn wrg_champ_01_lapping_round_and_the_second_rank_in_play() {
    let (d, mut st) = charged();
    // The warband narrows to 4 files (10 ranks deep): the cohort's front of 10 overlaps it.
    st.units[11].block.files = 4;
    wrg1969::contact::line_up(&d, &mut st, 11, 0);
    let (cohort, band) = (&st.units[0], &st.units[11]);
    assert_eq!((band.block.front_rank(), band.block.ranks()), (4, 10));
    let front = front_contact(&d, cohort, band);
    let lappers = wrg1969::melee_phase::lappers(&d, cohort, band, front);
    // Four warband figures face three cohort figures' front centres; the other 7 are beyond
    // its ends, and its 10-rank flanks have room for them all.
    assert_eq!((front, lappers), (3, 7));
    // First period of the fight: the front in contact and the second rank behind it.
    let mut dice = ScriptedDice::new([3, 4, 4, 2]);
    let mut first = st.clone();
    assert_eq!(fight_all(&d, &mut first, &[], &mut dice)[0].figures[0], 3 + 3);
    // From the second period the lappers fight too.
    st.units[0].fight_periods = 1;
    st.units[11].fight_periods = 1;
    let mut dice = ScriptedDice::new([3, 4, 4, 2]);
    assert_eq!(fight_all(&d, &mut st, &[], &mut dice)[0].figures[0], 3 + 3 + 7);
}

// Checks WRG-AFTER-05, WRG-TAC-06: struck in flank, the loser is pushed away from the winner
// (along the winner's facing), not back into it, and the winner follows the same way.
#[test]
fn a_unit_struck_in_flank_is_pushed_away_from_its_attacker() {
    use wrg1969::melee_phase::{Outcome, carry_out};
    let (d, mut st) = charged();
    // The warband faces east, its flank against the legion's front.
    let (_, legion_depth) = st.units[0].block.size(&d, st.units[0].troop);
    let (warband_width, _) = st.units[11].block.size(&d, st.units[11].troop);
    let front = st.units[0].at.y + legion_depth / 2.0;
    st.units[11].facing = Facing::from_bearing_degrees(90.0);
    st.units[11].at = Vec2::new(st.units[0].at.x, front + warband_width / 2.0);
    st.units[11].motion = Motion::Still;
    st.units[0].motion = Motion::Charged;
    let before = [st.units[0].at, st.units[11].at];
    let mut dice = ScriptedDice::new([3, 4, 4, 2]);
    let r = fight_all(&d, &mut st, &[], &mut dice);
    let o = carry_out(&d, &mut st, &r, &mut dice);
    let Some(&Outcome::PushedBack { unit: 11, by: 0, distance, followed, .. }) = o.first() else {
        panic!("not pushed back: {o:?}");
    };
    // Both moved the legion's way (north), as far as each other.
    let (moved_w, moved_l) = (st.units[11].at - before[1], st.units[0].at - before[0]);
    assert!(moved_w.x.abs() < 1e-9 && (moved_w.y - distance).abs() < 1e-9, "{moved_w:?}");
    assert!(moved_l.x.abs() < 1e-9 && (moved_l.y - followed).abs() < 1e-9, "{moved_l:?}");
    assert_eq!(contacts(&d, &st), vec![(0, 11)]);
}
