//! The movement part of a period on the table: orders, directed moves, charges with their
//! tests, evades and countercharges, routs and pursuits, terrain and the table's edge.
use tabletop::diagnostics::Source;
use tabletop::dice::ScriptedDice;
use tabletop::geometry::{Facing, Vec2};
use tabletop::rules::Side;
use tabletop::table_file::load_table;
use wrg1969::Data;
use wrg1969::after::{Left, OffTable};
use wrg1969::combat::Cause;
use wrg1969::model::{Status, TroopType};
use wrg1969::move_phase::{Movement, caught_from_behind, check_move, move_all, outdistanced};
use wrg1969::orders::{Objective, Order, Standing, Verb};
use wrg1969::plan::{Plan, Step, UnitMove};
use wrg1969::reaction::{Effect, Running, Trigger};
use wrg1969::state::*;
use wrg1969::unit::Block;

fn hill() -> (Data, State) {
    let d = Data::embedded().unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/scenarios/wrg1969/the_hill.toml")).unwrap();
    let sc = wrg1969::scenario::load(&d, &Source::new("the_hill.toml", text)).unwrap();
    let mut st = setup(&sc);
    st.period = 1;
    (d, st)
}

/// The hill with only the units named on the table, every other one gone.
fn only(ids: &[u16]) -> (Data, State) {
    let (d, mut st) = hill();
    for u in &mut st.units {
        if !ids.contains(&u.id) {
            u.away = Some(Away { state: OffTable::Gone, at: u.at, facing: u.facing, left_in: 0 });
        }
    }
    (d, st)
}

/// An open table 72" by 48" with extra terrain.
fn table(extra: &str) -> tabletop::terrain::SharedTable {
    let text = format!("[table]\nwidth = 72.0\nheight = 48.0\n{extra}");
    tabletop::terrain::SharedTable::new(load_table(&Source::new("t.toml", text)).unwrap())
}

fn place(st: &mut State, id: u16, x: f64, y: f64, bearing: f64) {
    let u = &mut st.units[id as usize];
    u.at = Vec2::new(x, y);
    u.facing = Facing::from_bearing_degrees(bearing);
}

fn order(st: &mut State, id: u16, verb: Verb) {
    st.units[id as usize].standing = Standing::Active { order: Order::new(verb) };
}

fn wait(st: &mut State, id: u16) {
    st.units[id as usize].standing = Standing::Waiting;
}

fn plan(st: &mut State, side: Side, moves: Vec<UnitMove>) {
    st.plans[side.index()] = Some(Plan { moves, ..Plan::default() });
}

fn no_dice() -> ScriptedDice {
    ScriptedDice::new([])
}

/// The dice of a period in which a unit ordered to attack charges: its test as it sets out
/// (probability dice, 5, 5, 5: it carries on, WRG-RT-04), then `then`.
fn go(then: impl IntoIterator<Item = u8>) -> ScriptedDice {
    ScriptedDice::new([5, 5, 5].into_iter().chain(then))
}

/// The next period's movement, the period begun as the game begins it (nothing has moved).
fn next(d: &Data, st: &mut State) -> Movement {
    st.period += 1;
    for u in &mut st.units {
        if u.motion != Motion::Routing {
            u.motion = Motion::Still;
        }
        u.moved = 0.0;
    }
    move_all(d, st, &mut no_dice())
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn gap(d: &Data, st: &State, a: u16, b: u16) -> f64 {
    let (ua, ub) = (&st.units[a as usize], &st.units[b as usize]);
    ua.block
        .footprint(d, ua.troop, ua.at, ua.facing)
        .distance(&ub.block.footprint(d, ub.troop, ub.at, ub.facing))
}

fn has_rule(m: &Movement, rule: &str) -> bool {
    m.notes.iter().any(|n| n.rules.iter().any(|r| r.as_str() == rule))
}

// Checks WRG-MOVE-01, WRG-R-08.
#[test]
fn wrg_move_01_both_sides_move_at_once_and_stop_an_inch_apart() {
    // The first cohort (id 0) and the Iceni warband (id 11) march at each other, 10" between
    // their fronts: both move in the same time steps and halt 1" apart, each about half way.
    let (d, mut st) = only(&[0, 11]);
    place(&mut st, 0, 30.0, 10.0, 0.0);
    place(&mut st, 11, 30.0, 22.0, 180.0);
    st.units[11].block = Block::new(40, 20);
    order(&mut st, 0, Verb::Advance { to: Objective::Bearing { degrees: 0.0 } });
    order(&mut st, 11, Verb::Advance { to: Objective::Bearing { degrees: 180.0 } });
    let before = gap(&d, &st, 0, 11);
    let figures = (st.units[0].block.figures, st.units[11].block.figures);
    let m = move_all(&d, &mut st, &mut no_dice());
    assert!(close(gap(&d, &st, 0, 11), 1.0, 1e-3), "{}", gap(&d, &st, 0, 11));
    let (a, b) = (st.units[0].moved, st.units[11].moved);
    assert!(close(a + b, before - 1.0, 1e-3), "{a} + {b}");
    // Neither side moves first: the shares differ by at most one time step (6" / 20).
    assert!((a - b).abs() <= 0.3 + 1e-9, "{a} vs {b}");
    assert_eq!((st.units[0].motion, st.units[11].motion), (Motion::Advanced, Motion::Advanced));
    // Movement only moves: nobody shoots or fights in it.
    assert_eq!((st.units[0].block.figures, st.units[11].block.figures), figures);
    assert!(m.charges.is_empty() && m.tests.is_empty());
}

// Checks WRG-MOVE-02, WRG-ORD-02.
#[test]
fn wrg_move_02_a_normal_move_goes_its_allowance_and_no_farther() {
    let (d, mut st) = only(&[0]);
    place(&mut st, 0, 30.0, 10.0, 0.0);
    order(&mut st, 0, Verb::Advance { to: Objective::Point { x: 30.0, y: 40.0 } });
    move_all(&d, &mut st, &mut no_dice());
    // Medium infantry: 6" a period.
    assert!(close(st.units[0].at.y, 16.0, 1e-9), "{:?}", st.units[0].at);
    assert!(close(st.units[0].moved, 6.0, 1e-9));
    // At half pace, half as far (WRG-ORD-02).
    let (d, mut st) = only(&[0]);
    place(&mut st, 0, 30.0, 10.0, 0.0);
    st.units[0].standing = Standing::Active {
        order: Order {
            pace: Some(0.5),
            ..Order::new(Verb::Advance { to: Objective::Point { x: 30.0, y: 40.0 } })
        },
    };
    move_all(&d, &mut st, &mut no_dice());
    assert!(close(st.units[0].at.y, 13.0, 1e-9));
    // A directed move past the allowance is refused.
    let e = check_move(
        &d,
        &st,
        Side::Red,
        &UnitMove { unit: 0, step: Step::MoveTo { x: 30.0, y: 20.0, facing: None } },
    )
    .unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-MOVE-02");
}

/// The Ala I Thracum (id 6) as medium cavalry, 6 abreast (4.5" by 3"), at (30, 10) facing
/// north, ordered to attack the Iceni warband (id 11), whose front lies `gap` inches ahead.
fn cavalry_charge(gap: f64) -> (Data, State) {
    let (d, mut st) = only(&[6, 11]);
    st.units[6].troop = TroopType::MediumCavalry;
    st.units[6].block = Block::new(12, 6);
    place(&mut st, 6, 30.0, 10.0, 0.0);
    st.units[11].troop = TroopType::MediumInfantry;
    st.units[11].block = Block::new(40, 20);
    place(&mut st, 11, 30.0, 11.5 + gap + 0.75, 180.0);
    order(&mut st, 6, Verb::Attack { unit: 11 });
    order(&mut st, 11, Verb::Hold { at: None });
    (d, st)
}

// Checks WRG-MOVE-04, WRG-RT-04, WRG-RRES-01.
#[test]
fn wrg_move_04_an_attack_order_charges_home_when_the_charge_reaches() {
    let (d, mut st) = cavalry_charge(15.0);
    // The warband tests as the charge comes in (3 d6): it stands.
    let mut dice = go([6, 6, 5]);
    let m = move_all(&d, &mut st, &mut dice);
    assert_eq!(m.charges, vec![(6, 11)]);
    assert!(close(gap(&d, &st, 6, 11), 0.0, wrg1969::melee_phase::CONTACT));
    assert!(close(st.units[6].moved, 15.0, 1e-3), "{}", st.units[6].moved);
    assert_eq!(st.units[6].motion, Motion::Charged);
    assert_eq!(m.under_attack, vec![11]);
    // Ordered into hand-to-hand: it tested as it set out, and charged on its result
    // (WRG-RT-04).
    assert!(!m.triggers.contains(&(6, Trigger::BeforeContact)));
    assert!(has_rule(&m, "WRG-RT-04") && has_rule(&m, "WRG-MOVE-04"));
    assert_eq!(wrg1969::melee_phase::contacts(&d, &st), vec![(6, 11)]);
    // Out of reach (25" with a 20" charge) it only closes at its normal move.
    let (d, mut st) = cavalry_charge(25.0);
    let m = move_all(&d, &mut st, &mut go([]));
    assert!(m.charges.is_empty() && m.under_attack.is_empty() && m.triggers.is_empty());
    assert!(close(st.units[6].moved, 8.0, 1e-9));
    assert_eq!(st.units[6].motion, Motion::Advanced);
}

// Checks WRG-MOVE-07, WRG-RT-03, WRG-RT-12, WRG-RT-13.
#[test]
fn wrg_move_07_the_charged_unit_tests_when_the_bonus_starts() {
    // 15" away: the charge passes its 8" normal move short of contact; the warband tests.
    let (d, mut st) = cavalry_charge(15.0);
    let mut dice = go([6, 6, 5]);
    let m = move_all(&d, &mut st, &mut dice);
    assert_eq!(m.tests.len(), 1);
    assert_eq!((m.tests[0].unit, m.tests[0].trigger), (11, Trigger::Charged));
    assert_eq!(dice.remaining(), 0);
    // 8.5" away: still beyond the normal move, still a test.
    let (d, mut st) = cavalry_charge(8.5);
    let mut dice = go([6, 6, 5]);
    assert_eq!(move_all(&d, &mut st, &mut dice).tests.len(), 1);
    // 7.5" away: contact inside the normal move, no test (the dice are never touched).
    let (d, mut st) = cavalry_charge(7.5);
    let m = move_all(&d, &mut st, &mut go([]));
    assert!(m.tests.is_empty());
    assert_eq!(m.charges, vec![(6, 11)]);
}

// Checks WRG-MOVE-05, WRG-MOVE-06.
#[test]
fn wrg_move_05_charge_wheels_first_then_runs_straight() {
    // The warband 5" off to the right: the cavalry wheel on their right front corner, then
    // gallop straight at it, and meet it square.
    let (d, mut st) = cavalry_charge(14.0);
    st.units[11].at.x += 5.0;
    let corner = st.units[6]
        .block
        .footprint(&d, st.units[6].troop, st.units[6].at, st.units[6].facing)
        .front_right();
    let mut dice = go([6, 6, 5]);
    let m = move_all(&d, &mut st, &mut dice);
    assert_eq!(m.charges, vec![(6, 11)]);
    let c = &st.units[6];
    let r = c.block.footprint(&d, c.troop, c.at, c.facing);
    // The target's standard lies straight ahead of the charger's front.
    let l = r.to_local(st.units[11].at);
    assert!(l.x.abs() < 0.05, "{l:?}");
    // The wheel turned it right, about the right front corner: the straight run goes along the
    // new facing from the corner's wheel, so the corner moved only along that facing.
    let bearing = c.facing.bearing_degrees();
    assert!(bearing > 1.0 && bearing < 30.0, "{bearing}");
    let moved = r.front_right() - corner;
    let along = moved.dot(c.facing.vector());
    let across = moved.dot(c.facing.right());
    assert!(across.abs() < 1e-6 && along > 10.0, "{along} {across}");
    // A target that needs more than charge − 15" = 5" of wheel cannot be charged.
    let (d, mut st) = cavalry_charge(14.0);
    st.units[11].at = Vec2::new(50.0, 12.0);
    st.units[11].facing = Facing::from_bearing_degrees(270.0);
    let e =
        check_move(&d, &st, Side::Red, &UnitMove { unit: 6, step: Step::Charge { target: 11 } })
            .unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-MOVE-06");
}

// Checks WRG-MOVE-04, WRG-MOVE-06, WRG-ORD-01, WRG-ORD-10.
#[test]
fn wrg_move_04_directed_charges_are_checked() {
    let (d, mut st) = cavalry_charge(15.0);
    let charge = |t| UnitMove { unit: 6, step: Step::Charge { target: t } };
    assert!(check_move(&d, &st, Side::Red, &charge(11)).is_ok());
    // Beyond the 20" charge.
    st.units[11].at.y += 6.0;
    assert_eq!(
        check_move(&d, &st, Side::Red, &charge(11)).unwrap_err().rule.as_str(),
        "WRG-MOVE-04"
    );
    st.units[11].at.y -= 6.0;
    // Only an attack order lets a unit charge (our ruling), and only the unit it names.
    order(&mut st, 6, Verb::Advance { to: Objective::Bearing { degrees: 0.0 } });
    assert_eq!(
        check_move(&d, &st, Side::Red, &charge(11)).unwrap_err().rule.as_str(),
        "WRG-MOVE-04"
    );
    order(&mut st, 6, Verb::Attack { unit: 12 });
    assert_eq!(
        check_move(&d, &st, Side::Red, &charge(11)).unwrap_err().rule.as_str(),
        "WRG-ORD-01"
    );
    // Not its own side's unit, nor a friend.
    assert_eq!(
        check_move(&d, &st, Side::Blue, &charge(11)).unwrap_err().rule.as_str(),
        "WRG-ORD-01"
    );
    // Light infantry may charge cavalry only when they stand (WRG-ORD-10, WRG-R-27): the plan
    // sees whether the cavalry moved last period, never their orders.
    let (d, mut st) = only(&[5, 15]);
    st.units[5].block = Block::new(12, 12);
    place(&mut st, 5, 30.0, 10.0, 0.0);
    place(&mut st, 15, 30.0, 17.0, 180.0);
    order(&mut st, 5, Verb::Attack { unit: 15 });
    let charge = UnitMove { unit: 5, step: Step::Charge { target: 15 } };
    st.units[15].moved_last = 6.0;
    assert_eq!(check_move(&d, &st, Side::Red, &charge).unwrap_err().rule.as_str(), "WRG-ORD-10");
    st.units[15].moved_last = 0.0;
    order(&mut st, 15, Verb::Attack { unit: 5 });
    assert!(check_move(&d, &st, Side::Red, &charge).is_ok());
}

/// The Ala I Thracum (id 6, medium cavalry) ordered to attack the Slingers (id 14, light
/// infantry, 12 abreast, 9" by 1.5"), whose front lies `gap` inches ahead.
fn charge_on_slingers(gap: f64) -> (Data, State) {
    let (d, mut st) = only(&[6, 14]);
    st.units[6].troop = TroopType::MediumCavalry;
    st.units[6].block = Block::new(12, 6);
    place(&mut st, 6, 30.0, 10.0, 0.0);
    st.units[14].block = Block::new(24, 12);
    place(&mut st, 14, 30.0, 11.5 + gap + 0.75, 180.0);
    order(&mut st, 6, Verb::Attack { unit: 14 });
    order(&mut st, 14, Verb::Hold { at: None });
    (d, st)
}

// Checks WRG-MOVE-08, WRG-MOVE-09, WRG-ORD-09, WRG-R-10.
#[test]
fn wrg_move_09_evader_turns_and_runs_10_back() {
    // Light infantry charged by cavalry must evade (WRG-ORD-09): when the cavalry have used
    // their 8" normal move the slingers turn about and run 10" straight back; the 12" of charge
    // left cannot reach 4" + 10".
    let (d, mut st) = charge_on_slingers(12.0);
    let y0 = st.units[14].at.y;
    let m = move_all(&d, &mut st, &mut go([]));
    let s = &st.units[14];
    assert!(close(s.at.y, y0 + 10.0, 1e-6), "{:?}", s.at);
    assert!(close(s.facing.bearing_degrees(), 0.0, 1e-6), "backs to the enemy");
    assert_eq!(s.motion, Motion::Retired);
    assert!(m.charges.is_empty(), "{:?}", m.charges);
    assert!(m.tests.is_empty(), "an evader does not stand to test");
    assert!(has_rule(&m, "WRG-MOVE-09"));
    // The cavalry run on their whole 20" and stop short of nothing.
    assert!(close(st.units[6].moved, 20.0, 1e-6), "{}", st.units[6].moved);
    assert!(gap(&d, &st, 6, 14) > 1.0);
    // Forbidden to evade, they stand and test instead.
    let (d, mut st) = charge_on_slingers(12.0);
    st.units[14].standing =
        Standing::Active { order: Order { no_evade: true, ..Order::new(Verb::Hold { at: None }) } };
    let mut dice = go([6, 6, 6]);
    let m = move_all(&d, &mut st, &mut dice);
    assert_eq!(m.tests.len(), 1);
    assert_eq!(st.units[14].facing.bearing_degrees(), 180.0);
}

// Checks WRG-MOVE-08.
#[test]
fn wrg_move_08_only_light_troops_and_chariots_evade() {
    // The same charge on medium infantry with an evade order: they cannot evade.
    let (d, mut st) = charge_on_slingers(12.0);
    st.units[14].troop = TroopType::MediumInfantry;
    order(&mut st, 14, Verb::Evade);
    let y0 = st.units[14].at.y;
    let mut dice = go([6, 6, 6]);
    let m = move_all(&d, &mut st, &mut dice);
    assert_eq!(m.tests.len(), 1);
    assert!(st.units[14].at.y <= y0 + 1e-9);
    // Light cavalry ordered to evade do.
    let (d, mut st) = charge_on_slingers(12.0);
    st.units[14].troop = TroopType::LightCavalry;
    st.units[14].block = Block::new(8, 8);
    order(&mut st, 14, Verb::Evade);
    let y0 = st.units[14].at.y;
    move_all(&d, &mut st, &mut go([]));
    assert!(close(st.units[14].at.y, y0 + 10.0, 1e-6));
}

// Checks WRG-MOVE-11, WRG-R-10.
#[test]
fn wrg_move_11_an_evader_within_the_remaining_charge_is_caught() {
    // 5" away the cavalry reach the slingers inside their normal move; the slingers evade at
    // contact, but 15" of charge is left against 10": caught, backs turned.
    let (d, mut st) = charge_on_slingers(5.0);
    let m = move_all(&d, &mut st, &mut go([]));
    assert_eq!(m.charges, vec![(6, 14)]);
    assert!(close(gap(&d, &st, 6, 14), 0.0, wrg1969::melee_phase::CONTACT));
    assert!(has_rule(&m, "WRG-MOVE-11"));
    assert!(caught_from_behind(&st, 14, 6));
    assert!(!caught_from_behind(&st, 6, 14));
    assert_eq!(st.units[14].facing.bearing_degrees(), 0.0);
    assert_eq!(wrg1969::melee_phase::contacts(&d, &st), vec![(6, 14)]);
}

// Checks WRG-MOVE-10.
#[test]
fn wrg_move_10_an_evader_goes_round_a_river_losing_5() {
    let (d, mut st) = charge_on_slingers(12.0);
    // A river 3" behind the slingers' rear, with no ford near.
    let y = st.units[14].at.y + 0.75 + 3.0;
    st.table = table(&format!(
        "\n[[line]]\nname = \"River\"\nkind = \"river\"\nwidth = 2.0\npoints = [[0, {}], [72, {}]]\n",
        y + 1.0,
        y + 1.0
    ));
    let y0 = st.units[14].at.y;
    move_all(&d, &mut st, &mut go([]));
    let s = &st.units[14];
    // Straight back to the bank, then round along it: 10" − 5" in all.
    assert!(s.at.y < y + 1e-6, "{:?}", s.at);
    assert!(s.at.y > y0 + 2.5, "{:?}", s.at);
    assert!(close(st.units[14].moved, 5.0, 1e-3), "{}", st.units[14].moved);
    assert!((s.at.x - 30.0).abs() > 1.0, "{:?}", s.at);
}

// Checks WRG-MOVE-12.
#[test]
fn wrg_move_12_evaders_through_friends() {
    // Light horse evading through the Iceni warband disorganise it; slingers would not.
    for (troop, files, disorders) in
        [(TroopType::LightCavalry, 8, true), (TroopType::LightInfantry, 12, false)]
    {
        let (d, mut st) = only(&[6, 14, 11]);
        st.units[6].troop = TroopType::MediumCavalry;
        st.units[6].block = Block::new(12, 6);
        place(&mut st, 6, 30.0, 10.0, 0.0);
        st.units[14].troop = troop;
        st.units[14].block = Block::new(files, files);
        place(&mut st, 14, 30.0, 24.0, 180.0);
        order(&mut st, 14, Verb::Evade);
        order(&mut st, 6, Verb::Attack { unit: 14 });
        st.units[11].block = Block::new(40, 20);
        place(&mut st, 11, 30.0, 30.0, 180.0);
        wait(&mut st, 11);
        // The charge runs on past the evaders into the warband, which tests for being charged
        // (WRG-RT-03): three dice for it.
        move_all(&d, &mut st, &mut go([4, 4, 4]));
        assert!(close(st.units[14].at.y, 34.0, 1e-6), "{:?}", st.units[14].at);
        assert_eq!(st.units[11].causes.contains(&Cause::PassedThrough), disorders, "{troop:?}");
    }
}

// Checks WRG-ORD-08, WRG-R-19, WRG-M-07.
#[test]
fn wrg_ord_08_cavalry_countercharge_cavalry_that_charge_their_front() {
    // The light horse (id 15) as medium cavalry, 16" ahead of the Ala: they test when the Ala
    // have used their normal move, score 6 or more, carry on, and gallop to meet them.
    let (d, mut st) = only(&[6, 15]);
    for id in [6, 15] {
        st.units[id].troop = TroopType::MediumCavalry;
        st.units[id].block = Block::new(12, 6);
    }
    place(&mut st, 6, 30.0, 10.0, 0.0);
    place(&mut st, 15, 30.0, 29.0, 180.0);
    order(&mut st, 6, Verb::Attack { unit: 15 });
    order(&mut st, 15, Verb::Hold { at: None });
    let mut dice = go([4, 4, 4]);
    let m = move_all(&d, &mut st, &mut dice);
    let t = &m.tests[0];
    assert!(t.outcome.score >= 6, "{:?}", t.outcome);
    assert!(matches!(t.outcome.effect, Effect::CarryOn | Effect::NewOrder), "{:?}", t.outcome);
    assert!(has_rule(&m, "WRG-ORD-08"));
    assert_eq!(m.charges.len(), 1);
    assert_eq!((st.units[6].motion, st.units[15].motion), (Motion::Charged, Motion::Charged));
    assert!(st.units[15].moved > 1.0 && st.units[6].moved < 16.0);
    // Forbidden by their order, they wait for the charge.
    let (d, mut st2) = (d, st.clone());
    let _ = &mut st2;
    let (_, mut st) = only(&[6, 15]);
    for id in [6, 15] {
        st.units[id].troop = TroopType::MediumCavalry;
        st.units[id].block = Block::new(12, 6);
    }
    place(&mut st, 6, 30.0, 10.0, 0.0);
    place(&mut st, 15, 30.0, 29.0, 180.0);
    order(&mut st, 6, Verb::Attack { unit: 15 });
    st.units[15].standing = Standing::Active {
        order: Order { no_countercharge: true, ..Order::new(Verb::Hold { at: None }) },
    };
    let mut dice = go([4, 4, 4]);
    let m = move_all(&d, &mut st, &mut dice);
    assert!(!has_rule(&m, "WRG-ORD-08"));
    assert!(close(st.units[15].moved, 0.0, 1e-9));
    assert!(close(st.units[6].moved, 16.0, 1e-3));
}

/// The Iceni warband (id 11, medium infantry, charge 8") broken at (30, 30), backs turned
/// (facing north, away from the Romans), routing since period `broke`.
fn routers(periods: u32) -> (Data, State) {
    let (d, mut st) = only(&[0, 11]);
    st.units[11].troop = TroopType::MediumInfantry;
    st.units[11].block = Block::new(40, 20);
    let _ = break_unit(&d, &mut st, 11);
    place(&mut st, 11, 30.0, 30.0, 0.0);
    st.units[11].rout = Some(Rout { periods, broke_in: 0 });
    place(&mut st, 0, 30.0, 20.0, 0.0);
    wait(&mut st, 0);
    (d, st)
}

// Checks WRG-ROUT-01, WRG-ROUT-02, WRG-R-22.
#[test]
fn wrg_rout_02_routers_run_straight_back_two_inches_slower_each_period() {
    let (d, mut st) = routers(0);
    move_all(&d, &mut st, &mut no_dice());
    // First period: charge 8" less 2".
    assert!(close(st.units[11].at.y, 36.0, 1e-6), "{:?}", st.units[11].at);
    assert!(close(st.units[11].at.x, 30.0, 1e-9));
    assert_eq!(st.units[11].rout.map(|r| r.periods), Some(1));
    assert_eq!(st.units[11].motion, Motion::Routing);
    // Second period: 4".
    next(&d, &mut st);
    assert!(close(st.units[11].at.y, 40.0, 1e-6), "{:?}", st.units[11].at);
    assert_eq!(st.units[11].rout.map(|r| r.periods), Some(2));
    // Broken troops cannot be directed.
    let e = check_move(&d, &st, Side::Blue, &UnitMove { unit: 11, step: Step::Halt }).unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-ROUT-01");
}

// Checks WRG-ROUT-04.
#[test]
fn wrg_rout_04_routers_swerve_round_impassable_ground_losing_5() {
    let (d, mut st) = routers(0);
    // A river 2" beyond the routers' standard.
    st.table = table(
        "\n[[line]]\nname = \"River\"\nkind = \"river\"\nwidth = 2.0\npoints = [[0, 33], [72, 33]]\n",
    );
    move_all(&d, &mut st, &mut no_dice());
    let u = &st.units[11];
    // 6" of run: 2" to the bank, then 5" lost, and nothing left to go round with.
    assert!(u.at.y < 32.0 + 1e-6 && u.at.y > 31.5, "{:?}", u.at);
    assert!(close(u.moved, 2.0, 0.06), "{}", u.moved);
    // With 8" of run (light infantry, 10" charge) 1" is left to go along the bank.
    let (d, mut st) = routers(0);
    st.units[11].troop = TroopType::LightInfantry;
    st.table = table(
        "\n[[line]]\nname = \"River\"\nkind = \"river\"\nwidth = 2.0\npoints = [[0, 33], [72, 33]]\n",
    );
    move_all(&d, &mut st, &mut no_dice());
    assert!(close(st.units[11].moved, 3.0, 0.06), "{}", st.units[11].moved);
    assert!(st.units[11].at.y < 32.0 + 1e-6);
}

// Checks WRG-ROUT-05.
#[test]
fn wrg_rout_05_routers_swerve_to_a_gap_among_friends() {
    let (d, mut st) = routers(0);
    // Routers of light cavalry, 4 abreast (4.5" wide, 3" deep, running 22"), meet the queen's
    // following (id 13, 10 abreast, 5" wide) 2.25" ahead, with open ground to its left.
    st.units[11].troop = TroopType::LightCavalry;
    st.units[11].block = Block::new(8, 4);
    st.units[13].away = None;
    st.units[13].troop = TroopType::MediumInfantry;
    place(&mut st, 13, 31.0, 34.5, 180.0);
    st.units[13].block = Block::new(20, 10);
    wait(&mut st, 13);
    let m = move_all(&d, &mut st, &mut no_dice());
    assert!(has_rule(&m, "WRG-ROUT-05"), "{:?}", m.notes);
    let (r, f) = (&st.units[11], &st.units[13]);
    // Sideways past the friends' left flank (28.5 − 2.25), then straight on.
    assert!(close(r.at.x, 28.5 - 2.25 - 0.05, 1e-3), "{:?}", r.at);
    assert!(r.at.y > 40.0, "{:?}", r.at);
    assert!(!f.causes.contains(&Cause::PassedThrough));
    // 22" of run, 5" of it lost to the swerve.
    assert!(close(r.moved, 17.0, 1e-3), "{}", r.moved);
}

// Checks WRG-ROUT-06, WRG-ROUT-07.
#[test]
fn wrg_rout_06_07_routers_burst_through_and_sweep_barbarians_away() {
    for (status, swept) in [(Status::Regular, false), (Status::Barbarian, true)] {
        let (d, mut st) = routers(0);
        // A wide line of friends 3" ahead, with others on both sides: no gap.
        for (id, x) in [(12u16, 30.0), (13, 20.0), (16, 40.0)] {
            st.units[id as usize].away = None;
            st.units[id as usize].troop = TroopType::MediumInfantry;
            st.units[id as usize].status = status;
            st.units[id as usize].block = Block::new(20, 20);
            place(&mut st, id, x, 34.5, 180.0);
            wait(&mut st, id);
        }
        let m = move_all(&d, &mut st, &mut no_dice());
        assert!(has_rule(&m, "WRG-ROUT-06"), "{:?}", m.notes);
        let f = &st.units[12];
        assert!(f.causes.contains(&Cause::PassedThrough));
        assert_eq!(f.rout.is_some(), swept, "{status:?}");
        assert!(close(st.units[11].at.y, 36.0, 1e-6) || st.units[11].rout.is_none());
    }
    // Light infantry routers disorganise nobody.
    let (d, mut st) = routers(0);
    st.units[11].troop = TroopType::LightInfantry;
    st.units[11].block = Block::new(20, 20);
    for (id, x) in [(12u16, 30.0), (13, 20.0), (16, 40.0)] {
        st.units[id as usize].away = None;
        st.units[id as usize].troop = TroopType::MediumInfantry;
        st.units[id as usize].block = Block::new(20, 20);
        place(&mut st, id, x, 34.5, 180.0);
        wait(&mut st, id);
    }
    move_all(&d, &mut st, &mut no_dice());
    assert!(!st.units[12].causes.contains(&Cause::PassedThrough));
}

// Checks WRG-ROUT-03, WRG-ROUT-08.
#[test]
fn wrg_rout_03_routers_that_pass_fresh_troops_rally() {
    let (d, mut st) = routers(0);
    st.units[12].away = None;
    st.units[12].block = Block::new(10, 5);
    // Fresh friends 2" to the side and 3" ahead of the routers.
    place(&mut st, 12, 38.0, 33.0, 180.0);
    wait(&mut st, 12);
    let m = move_all(&d, &mut st, &mut no_dice());
    let u = &st.units[11];
    assert!(u.rout.is_none(), "{:?}", m.notes);
    assert!(u.standing.order().is_none());
    assert_eq!(u.motion, Motion::Still);
    // They halt facing the enemy.
    assert!(close(u.facing.bearing_degrees(), 180.0, 1e-6));
    assert!(has_rule(&m, "WRG-ROUT-03"));
    // Nobody is pursuing them: they have outdistanced pursuit anyway (WRG-R-23).
    assert!(outdistanced(&d, &st, 11));
}

// Checks WRG-PURS-01, WRG-R-22.
#[test]
fn wrg_purs_01_pursuers_follow_at_charge_less_3() {
    let (d, mut st) = routers(0);
    // The first cohort (medium infantry, charge 8") pursues from 10" behind.
    st.units[0].pursuit =
        Some(Pursuit { target: 11, periods: 0, from: st.units[0].at, farthest: 0.0 });
    move_all(&d, &mut st, &mut no_dice());
    assert!(close(st.units[0].at.y, 25.0, 1e-6), "{:?}", st.units[0].at);
    let p = st.units[0].pursuit.unwrap();
    assert_eq!(p.periods, 1);
    assert!(close(p.farthest, 5.0, 1e-6));
    // Not outdistanced: 2" next period still reaches... not: the pursuers are far behind.
    assert!(!outdistanced(&d, &st, 11) || gap(&d, &st, 0, 11) > 2.0);
    // Pursuers cannot be directed.
    let e = check_move(&d, &st, Side::Red, &UnitMove { unit: 0, step: Step::Halt }).unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-PURS-01");
}

// Checks WRG-PURS-03, WRG-PURS-04.
#[test]
fn wrg_purs_03_04_pursuers_stop_at_an_obstacle_and_fall_back_10() {
    let (d, mut st) = routers(0);
    place(&mut st, 0, 30.0, 10.0, 0.0);
    st.units[0].pursuit =
        Some(Pursuit { target: 11, periods: 0, from: Vec2::new(30.0, 0.0), farthest: 10.0 });
    st.table = table(
        "\n[[line]]\nname = \"Wall\"\nkind = \"wall\"\nwidth = 0.5\npoints = [[0, 13], [72, 13]]\n",
    );
    let m = move_all(&d, &mut st, &mut no_dice());
    assert!(has_rule(&m, "WRG-PURS-03"), "{:?}", m.notes);
    assert!(st.units[0].pursuit.is_none());
    // They got 3" to the wall, 13" from where the pursuit began, and fall back to 3".
    assert!(close(st.units[0].at.y, 3.0, 1e-6), "{:?}", st.units[0].at);
}

// Checks WRG-PURS-06, WRG-LEAVE-05.
#[test]
fn wrg_purs_06_routers_pursued_off_the_table_never_return() {
    let (d, mut st) = routers(0);
    place(&mut st, 11, 30.0, 45.0, 0.0);
    place(&mut st, 0, 30.0, 42.0, 0.0);
    st.units[0].pursuit =
        Some(Pursuit { target: 11, periods: 0, from: st.units[0].at, farthest: 0.0 });
    let m = move_all(&d, &mut st, &mut no_dice());
    assert_eq!(m.left_table, vec![(11, Left::Pursued)]);
    let away = st.units[11].away.unwrap();
    assert_eq!(away.state, OffTable::Gone);
    assert!(close(away.at.y, 48.0, 1e-3));
    assert!(!st.units[11].on_table());
    // Unpursued, they may come back (WRG-LEAVE-01).
    let (d, mut st) = routers(0);
    place(&mut st, 11, 30.0, 45.0, 0.0);
    let m = move_all(&d, &mut st, &mut no_dice());
    assert_eq!(m.left_table, vec![(11, Left::Ordinary)]);
    assert_eq!(st.units[11].away.unwrap().state, OffTable::Throwing { throws: 0 });
}

// Checks WRG-TERR-04, WRG-TERR-07.
#[test]
fn wrg_terr_04_woods_cost_double_for_foot_and_charges_pay_too() {
    let (d, mut st) = only(&[0]);
    st.table = table(
        "\n[[area]]\nname = \"Wood\"\nkind = \"wood\"\npoints = [[20, 12], [40, 12], [40, 30], [20, 30]]\n",
    );
    place(&mut st, 0, 30.0, 10.0, 0.0);
    order(&mut st, 0, Verb::Advance { to: Objective::Point { x: 30.0, y: 40.0 } });
    move_all(&d, &mut st, &mut no_dice());
    // 2" to the wood's edge, then 4" of allowance buys 2" of wood.
    assert!(close(st.units[0].at.y, 14.0, 1e-6), "{:?}", st.units[0].at);
    assert!(st.units[0].causes.contains(&Cause::Terrain));
    // A cavalry charge into the wood: 20" buys 4" to the edge (along the standard's way) and
    // 16" / 4 in it, short of the 10" needed.
    let (d, mut st) = cavalry_charge(10.0);
    st.table = table(
        "\n[[area]]\nname = \"Wood\"\nkind = \"wood\"\npoints = [[0, 14], [72, 14], [72, 48], [0, 48]]\n",
    );
    let e =
        check_move(&d, &st, Side::Red, &UnitMove { unit: 6, step: Step::Charge { target: 11 } })
            .unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-TERR-07");
    let m = move_all(&d, &mut st, &mut no_dice());
    assert!(m.charges.is_empty());
    // So it only closes at its normal move: 4" and 4" / 4.
    assert!(close(st.units[6].moved, 5.0, 1e-6), "{}", st.units[6].moved);
}

// Checks WRG-TERR-01, WRG-R-31.
#[test]
fn wrg_terr_01_a_wall_halves_the_foot_move() {
    let (d, mut st) = only(&[0]);
    st.table = table(
        "\n[[line]]\nname = \"Wall\"\nkind = \"wall\"\nwidth = 0.5\npoints = [[0, 12], [72, 12]]\n",
    );
    place(&mut st, 0, 30.0, 10.0, 0.0);
    order(&mut st, 0, Verb::Advance { to: Objective::Point { x: 30.0, y: 40.0 } });
    move_all(&d, &mut st, &mut no_dice());
    assert!(close(st.units[0].at.y, 13.0, 1e-6), "{:?}", st.units[0].at);
    // A river stops it at the bank (impassable away from fords, WRG-TERR-03).
    let (d, mut st) = only(&[0]);
    st.table = table(
        "\n[[line]]\nname = \"River\"\nkind = \"river\"\nwidth = 2.0\npoints = [[0, 14], [72, 14]]\n",
    );
    place(&mut st, 0, 30.0, 10.0, 0.0);
    order(&mut st, 0, Verb::Advance { to: Objective::Point { x: 30.0, y: 40.0 } });
    move_all(&d, &mut st, &mut no_dice());
    assert!(close(st.units[0].at.y, 13.0, 1e-6), "{:?}", st.units[0].at);
    let e = check_move(
        &d,
        &st,
        Side::Red,
        &UnitMove { unit: 0, step: Step::MoveTo { x: 30.0, y: 16.0, facing: None } },
    )
    .unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-TERR-03");
}

/// The first cohort (id 0) at (30, 20) facing north with the Iceni warband (id 11) 10" ahead.
fn facing_warband() -> (Data, State) {
    let (d, mut st) = only(&[0, 11]);
    st.units[11].block = Block::new(40, 20);
    place(&mut st, 0, 30.0, 20.0, 0.0);
    place(&mut st, 11, 30.0, 30.0, 180.0);
    wait(&mut st, 11);
    (d, st)
}

fn running(st: &mut State, id: u16, e: Effect) {
    st.units[id as usize].running = Running::start(e);
}

// Checks WRG-RRES-01, WRG-R-21, WRG-RRES-10.
#[test]
fn wrg_rres_01_retreat_backs_to_the_enemy_at_normal_speed() {
    let (d, mut st) = facing_warband();
    running(&mut st, 0, Effect::Retreat { periods: 3 });
    move_all(&d, &mut st, &mut no_dice());
    let u = &st.units[0];
    assert!(close(u.at.y, 14.0, 1e-6), "{:?}", u.at);
    assert!(close(u.facing.bearing_degrees(), 180.0, 1e-6), "turned about");
    assert_eq!(u.motion, Motion::Retired);
    // One of its three periods has passed.
    assert_eq!(u.running.map(|r| r.left), Some(2));
    // It is not free to be directed meanwhile.
    let e =
        check_move(&d, &st, Side::Red, &UnitMove { unit: 0, step: Step::StepBack { inches: 1.0 } })
            .unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-RRES-10");
    // Nor may it halt of its own accord (WRG-ORD-05).
    let e = check_move(&d, &st, Side::Red, &UnitMove { unit: 0, step: Step::Halt }).unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-ORD-05");
}

// Checks WRG-RRES-02, WRG-RRES-03, WRG-R-21.
#[test]
fn wrg_rres_02_03_retire_keeps_its_front_halt_stands() {
    let (d, mut st) = facing_warband();
    running(&mut st, 0, Effect::Retire { periods: 2 });
    move_all(&d, &mut st, &mut no_dice());
    assert!(close(st.units[0].at.y, 14.0, 1e-6));
    assert!(close(st.units[0].facing.bearing_degrees(), 0.0, 1e-6), "still facing the enemy");
    assert_eq!(st.units[0].motion, Motion::Retired);
    let (d, mut st) = facing_warband();
    order(&mut st, 0, Verb::Advance { to: Objective::Bearing { degrees: 0.0 } });
    running(&mut st, 0, Effect::Halt { periods: 2 });
    next(&d, &mut st);
    assert!(close(st.units[0].moved, 0.0, 1e-12));
    assert_eq!(st.units[0].running.map(|r| r.left), Some(1));
    next(&d, &mut st);
    assert_eq!(st.units[0].running, None);
    // The halt over, the order holds again.
    next(&d, &mut st);
    assert!(st.units[0].moved > 1.0);
}

// Checks WRG-RRES-09, WRG-R-24.
#[test]
fn wrg_rres_09_move_toward_the_enemy_stops_an_inch_short() {
    let (d, mut st) = facing_warband();
    place(&mut st, 11, 30.0, 27.0, 180.0);
    running(&mut st, 0, Effect::MoveTowardEnemy { periods: 2 });
    let m = move_all(&d, &mut st, &mut no_dice());
    assert!(close(gap(&d, &st, 0, 11), 1.0, 1e-3), "{}", gap(&d, &st, 0, 11));
    assert!(m.charges.is_empty() && m.triggers.is_empty());
    assert_eq!(st.units[0].motion, Motion::Advanced);
}

// Checks WRG-RRES-06, WRG-R-24.
#[test]
fn wrg_rres_06_uncontrolled_advance_charges_the_nearest_enemy_in_reach() {
    let (d, mut st) = facing_warband();
    place(&mut st, 11, 30.0, 27.0, 180.0);
    running(&mut st, 0, Effect::UncontrolledAdvance { periods: 2 });
    // 5.5" between the fronts: inside the cohort's 6" normal move, so no test.
    let m = move_all(&d, &mut st, &mut no_dice());
    assert_eq!(m.charges, vec![(0, 11)]);
    assert_eq!(st.units[0].motion, Motion::Charged);
    // No test before contact for an uncontrolled advance (WRG-R-24).
    assert!(m.triggers.is_empty());
    // Out of reach it goes at normal pace straight at the nearest enemy.
    let (d, mut st) = facing_warband();
    place(&mut st, 11, 30.0, 40.0, 180.0);
    running(&mut st, 0, Effect::UncontrolledAdvance { periods: 2 });
    let m = move_all(&d, &mut st, &mut no_dice());
    assert!(m.charges.is_empty());
    assert!(close(st.units[0].moved, 6.0, 1e-9));
}

// Checks WRG-RRES-08.
#[test]
fn wrg_rres_08_fall_back_toward_friends_away_from_the_enemy() {
    let (d, mut st) = facing_warband();
    st.units[1].away = None;
    place(&mut st, 1, 40.0, 8.0, 0.0);
    running(&mut st, 0, Effect::FallBack { periods: 2 });
    move_all(&d, &mut st, &mut no_dice());
    let u = &st.units[0];
    assert!(u.at.y < 20.0 && u.at.x > 30.0, "{:?}", u.at);
    assert!(close(u.moved, 6.0, 1e-6));
    assert!(close(u.facing.bearing_degrees(), 0.0, 1e-9), "it keeps its front");
}

// Checks WRG-LEAVE-01.
#[test]
fn wrg_leave_01_a_retreat_off_the_table_leaves_it() {
    let (d, mut st) = facing_warband();
    place(&mut st, 0, 30.0, 3.0, 0.0);
    running(&mut st, 0, Effect::Retreat { periods: 3 });
    let m = move_all(&d, &mut st, &mut no_dice());
    assert_eq!(m.left_table, vec![(0, Left::Ordinary)]);
    let a = st.units[0].away.unwrap();
    assert_eq!((a.state, a.left_in), (OffTable::Throwing { throws: 0 }, 1));
    assert!(close(a.at.y, 0.0, 1e-3));
    // An advance stops at the table's edge instead.
    let (d, mut st) = only(&[0]);
    place(&mut st, 0, 30.0, 45.0, 0.0);
    order(&mut st, 0, Verb::Advance { to: Objective::Point { x: 30.0, y: 48.0 } });
    let m = move_all(&d, &mut st, &mut no_dice());
    assert!(m.left_table.is_empty());
    let u = &st.units[0];
    assert!(st.table.contains_rect(&u.block.footprint(&d, u.troop, u.at, u.facing)));
    assert!(close(u.at.y, 48.0 - 0.75, 1e-3), "{:?}", u.at);
}

// Checks WRG-ORD-04, WRG-CHORD-12.
#[test]
fn wrg_ord_04_the_route_then_the_objective() {
    let (d, mut st) = only(&[0]);
    place(&mut st, 0, 30.0, 10.0, 90.0);
    st.units[0].standing = Standing::Active {
        order: Order {
            route: vec![[33.0, 10.0]],
            ..Order::new(Verb::Advance { to: Objective::Point { x: 33.0, y: 30.0 } })
        },
    };
    move_all(&d, &mut st, &mut no_dice());
    let u = &st.units[0];
    assert!(close(u.at.x, 33.0, 1e-6) && close(u.at.y, 13.0, 1e-6), "{:?}", u.at);
    assert!(close(u.facing.bearing_degrees(), 0.0, 1e-6));
    // The route point is struck off.
    assert!(u.standing.order().unwrap().route.is_empty());
    // Arriving completes the order; the unit then waits (WRG-ORD-13).
    for _ in 0..4 {
        next(&d, &mut st);
    }
    assert!(close(st.units[0].at.y, 30.0, 1e-6));
    assert_eq!(st.units[0].standing, Standing::Waiting);
}

// Checks WRG-ORD-11, WRG-ORD-12.
#[test]
fn wrg_ord_11_skirmishers_close_to_their_missile_range() {
    // The Balearic slingers (id 5, sling 12"? as the table says) on the Iceni warband.
    let (d, mut st) = only(&[5, 11]);
    st.units[5].block = Block::new(12, 12);
    st.units[11].block = Block::new(40, 20);
    place(&mut st, 5, 30.0, 10.0, 0.0);
    place(&mut st, 11, 30.0, 32.0, 180.0);
    wait(&mut st, 11);
    order(&mut st, 5, Verb::Skirmish { unit: 11 });
    let range = d.weapon(st.units[5].missile.unwrap()).range;
    for _ in 0..3 {
        next(&d, &mut st);
    }
    let g = gap(&d, &st, 5, 11);
    assert!(g <= range && g >= range - 1.0, "{g} against a range of {range}");
    // In range it stands and shoots.
    next(&d, &mut st);
    assert!(close(st.units[5].moved, 0.0, 1e-12));
}

// Checks WRG-ORD-13, WRG-ORD-01, WRG-ORD-06.
#[test]
fn wrg_ord_13_a_unit_without_an_order_waits() {
    let (d, mut st) = only(&[0, 11]);
    wait(&mut st, 0);
    let at = st.units[0].at;
    move_all(&d, &mut st, &mut no_dice());
    assert_eq!(st.units[0].at, at);
    let to = UnitMove { unit: 0, step: Step::MoveTo { x: at.x, y: at.y + 2.0, facing: None } };
    assert_eq!(check_move(&d, &st, Side::Red, &to).unwrap_err().rule.as_str(), "WRG-ORD-13");
    // It may halt or re-form (WRG-ORD-06).
    assert!(
        check_move(&d, &st, Side::Red, &UnitMove { unit: 0, step: Step::Form { files: 5 } })
            .is_ok()
    );
    // A hold order likewise.
    order(&mut st, 0, Verb::Hold { at: None });
    assert_eq!(check_move(&d, &st, Side::Red, &to).unwrap_err().rule.as_str(), "WRG-ORD-01");
}

// Checks WRG-MOVE-03.
#[test]
fn wrg_move_03_a_step_back_of_at_most_3_inches() {
    let (d, mut st) = facing_warband();
    order(&mut st, 0, Verb::Advance { to: Objective::Bearing { degrees: 0.0 } });
    let back = |inches| UnitMove { unit: 0, step: Step::StepBack { inches } };
    assert_eq!(
        check_move(&d, &st, Side::Red, &back(3.5)).unwrap_err().rule.as_str(),
        "WRG-MOVE-03"
    );
    assert!(check_move(&d, &st, Side::Red, &back(3.0)).is_ok());
    plan(&mut st, Side::Red, vec![back(3.0)]);
    move_all(&d, &mut st, &mut no_dice());
    let u = &st.units[0];
    assert!(close(u.at.y, 17.0, 1e-9));
    assert_eq!(u.facing.bearing_degrees(), 0.0);
    assert_eq!(u.motion, Motion::Retired);
}

// Checks WRG-MOVE-14.
#[test]
fn wrg_move_14_a_wheel_swings_one_flank_about_the_other() {
    let (d, mut st) = facing_warband();
    order(&mut st, 0, Verb::Advance { to: Objective::Bearing { degrees: 0.0 } });
    // 10 abreast: a 5" front. 45° costs the outer figure 3.93", within 6"; 90° costs 7.85".
    let wheel = |degrees| UnitMove { unit: 0, step: Step::Wheel { degrees } };
    assert_eq!(
        check_move(&d, &st, Side::Red, &wheel(90.0)).unwrap_err().rule.as_str(),
        "WRG-MOVE-02"
    );
    assert!(check_move(&d, &st, Side::Red, &wheel(45.0)).is_ok());
    let u = &st.units[0];
    let pivot = u.block.footprint(&d, u.troop, u.at, u.facing).front_right();
    plan(&mut st, Side::Red, vec![wheel(45.0)]);
    move_all(&d, &mut st, &mut no_dice());
    let u = &st.units[0];
    assert!(close(u.facing.bearing_degrees(), 45.0, 1e-9));
    let r = u.block.footprint(&d, u.troop, u.at, u.facing);
    assert!((r.front_right() - pivot).length() < 1e-9, "the right front figure stays put");
    // A wheel order wheels, then the order is done.
    let (d, mut st) = facing_warband();
    order(&mut st, 0, Verb::Wheel { degrees: -30.0 });
    move_all(&d, &mut st, &mut no_dice());
    assert!(close(st.units[0].facing.bearing_degrees(), 330.0, 1e-9));
    assert_eq!(st.units[0].standing, Standing::Waiting);
}

// Checks WRG-MOVE-15, WRG-MOVE-16.
#[test]
fn wrg_move_15_16_reforming_keeps_the_standard() {
    let (d, mut st) = facing_warband();
    let form = |files| UnitMove { unit: 0, step: Step::Form { files } };
    assert_eq!(check_move(&d, &st, Side::Red, &form(21)).unwrap_err().rule.as_str(), "WRG-MOVE-15");
    assert_eq!(check_move(&d, &st, Side::Red, &form(0)).unwrap_err().rule.as_str(), "WRG-MOVE-15");
    let at = st.units[0].at;
    plan(&mut st, Side::Red, vec![form(5)]);
    let m = move_all(&d, &mut st, &mut no_dice());
    assert_eq!((st.units[0].block.files, st.units[0].block.ranks()), (5, 4));
    assert_eq!(st.units[0].at, at);
    assert!(has_rule(&m, "WRG-MOVE-15"));
}

// Checks WRG-ORD-14, WRG-ORD-01, WRG-MOVE-02.
#[test]
fn directed_moves_refuse_bad_numbers_and_change_nothing() {
    let (d, mut st) = facing_warband();
    order(&mut st, 0, Verb::Advance { to: Objective::Bearing { degrees: 0.0 } });
    let before = st.clone();
    for step in [
        Step::MoveTo { x: f64::NAN, y: 1.0, facing: None },
        Step::MoveTo { x: 30.0, y: 22.0, facing: Some(f64::INFINITY) },
        Step::Wheel { degrees: f64::NAN },
        Step::StepBack { inches: -1.0 },
    ] {
        let e = check_move(&d, &st, Side::Red, &UnitMove { unit: 0, step }).unwrap_err();
        assert_eq!(e.rule.as_str(), "WRG-ORD-14");
    }
    let off = UnitMove { unit: 0, step: Step::MoveTo { x: 30.0, y: -1.0, facing: None } };
    assert_eq!(check_move(&d, &st, Side::Red, &off).unwrap_err().rule.as_str(), "WRG-MOVE-02");
    let nobody = UnitMove { unit: 999, step: Step::Halt };
    assert_eq!(check_move(&d, &st, Side::Red, &nobody).unwrap_err().rule.as_str(), "WRG-ORD-01");
    assert_eq!(st, before);
    // A refused move in a plan is not made: the unit follows its order instead.
    plan(
        &mut st,
        Side::Red,
        vec![UnitMove { unit: 0, step: Step::MoveTo { x: f64::NAN, y: 0.0, facing: None } }],
    );
    let m = move_all(&d, &mut st, &mut no_dice());
    assert!(m.notes.iter().any(|n| n.text.contains("refused")));
    assert!(st.units[0].at.is_finite());
}

// Checks WRG-MOVE-02, WRG-R-08.
#[test]
fn directed_moves_go_to_the_point_and_face_as_told() {
    let (d, mut st) = facing_warband();
    order(&mut st, 0, Verb::Advance { to: Objective::Bearing { degrees: 0.0 } });
    // Straight ahead 4", then a small turn: 4" + 5" × 10° in radians = 4.87".
    let to = UnitMove { unit: 0, step: Step::MoveTo { x: 30.0, y: 24.0, facing: Some(10.0) } };
    assert!(check_move(&d, &st, Side::Red, &to).is_ok());
    plan(&mut st, Side::Red, vec![to]);
    move_all(&d, &mut st, &mut no_dice());
    assert!(close(st.units[0].at.y, 24.0, 1e-9));
    assert!(close(st.units[0].facing.bearing_degrees(), 10.0, 1e-6));
    // Marching by its order, it goes round the friend that waits in its way (WRG-R-08).
    let (d, mut st) = facing_warband();
    st.units[1].away = None;
    place(&mut st, 1, 30.0, 25.0, 0.0);
    wait(&mut st, 1);
    order(&mut st, 0, Verb::Advance { to: Objective::Bearing { degrees: 0.0 } });
    let m = move_all(&d, &mut st, &mut no_dice());
    let (a, b) = (&st.units[0], &st.units[1]);
    let ra = a.block.footprint(&d, a.troop, a.at, a.facing);
    assert!(!ra.overlaps(&b.block.footprint(&d, b.troop, b.at, b.facing)));
    assert!(a.at.y > 21.5 && a.moved > 4.0, "{} {:?}", a.moved, m.notes);
    assert!(m.notes.iter().any(|n| n.text.contains("go round")), "{:?}", m.notes);
}

// Checks WRG-PURS-01, WRG-RT-03.
#[test]
fn a_charge_whose_target_breaks_runs_it_down_and_pursues() {
    // The warband breaks at the charge test (1, 1, 1) and runs; the cavalry, with 12" of charge
    // left at 20" against its 6" of rout, catch it and pursue.
    let (d, mut st) = cavalry_charge(10.0);
    let mut dice = go([1, 1, 1]);
    let m = move_all(&d, &mut st, &mut dice);
    assert_eq!(m.tests[0].outcome.effect, Effect::Break);
    let w = &st.units[11];
    assert!(w.rout.is_some());
    assert!(close(w.facing.bearing_degrees(), 0.0, 1e-9), "backs turned");
    assert!(w.moved > 0.0);
    assert_eq!(st.units[6].pursuit.map(|p| p.target), Some(11));
    assert!(m.under_attack.contains(&11));
}

#[test]
fn the_same_state_moves_the_same_way() {
    let (d, mut st) = hill();
    st.units[11].at.y -= 10.0;
    let mut again = st.clone();
    let dice = || ScriptedDice::new(std::iter::repeat_n(4, 200));
    let (mut d1, mut d2) = (dice(), dice());
    let a = move_all(&d, &mut st, &mut d1);
    let b = move_all(&d, &mut again, &mut d2);
    assert_eq!(st, again);
    assert_eq!(a.notes, b.notes);
    assert_eq!(a.charges, b.charges);
}

// Checks WRG-TERR-02, WRG-R-44.
#[test]
fn wrg_terr_02_chariots_are_man_handled_over_a_wall_in_a_whole_period() {
    // The chariots (id 10, 10 of them, 5 abreast) advance on a wall 3" ahead of their standard.
    let (d, mut st) = only(&[10]);
    st.units[10].block = Block::new(10, 5);
    place(&mut st, 10, 30.0, 30.0, 180.0);
    st.table = table(
        "\n[[line]]\nname = \"Wall\"\nkind = \"wall\"\nwidth = 0.5\npoints = [[0, 27], [72, 27]]\n",
    );
    order(&mut st, 10, Verb::Advance { to: Objective::Point { x: 30.0, y: 5.0 } });
    // First period: up to the wall and no farther.
    move_all(&d, &mut st, &mut no_dice());
    assert!(close(st.units[10].at.y, 27.25, 1e-6), "{:?}", st.units[10].at);
    // Second period: man-handled across, and that is the whole period.
    next(&d, &mut st);
    let (_, depth) = st.units[10].block.size(&d, TroopType::Chariot);
    assert!(close(st.units[10].at.y, 27.0 - depth / 2.0 - 0.25, 1e-6), "{:?}", st.units[10].at);
    // Four chariots are too few to man-handle themselves over (WRG-TERR-02).
    let (d, mut st) = only(&[10]);
    st.units[10].block = Block::new(4, 4);
    place(&mut st, 10, 30.0, 27.25, 180.0);
    st.table = table(
        "\n[[line]]\nname = \"Wall\"\nkind = \"wall\"\nwidth = 0.5\npoints = [[0, 27], [72, 27]]\n",
    );
    order(&mut st, 10, Verb::Advance { to: Objective::Point { x: 30.0, y: 5.0 } });
    next(&d, &mut st);
    assert!(close(st.units[10].at.y, 27.25, 1e-9));
}

// Checks WRG-RT-13, WRG-ORD-08.
#[test]
fn wrg_rt_13_no_test_inside_the_normal_move_but_cavalry_may_still_countercharge() {
    let (d, mut st) = only(&[6, 15]);
    for id in [6, 15] {
        st.units[id].troop = TroopType::MediumCavalry;
        st.units[id].block = Block::new(12, 6);
    }
    place(&mut st, 6, 30.0, 10.0, 0.0);
    // 7" between the fronts: inside the Ala's 8" normal move.
    place(&mut st, 15, 30.0, 20.0, 180.0);
    order(&mut st, 6, Verb::Attack { unit: 15 });
    order(&mut st, 15, Verb::Hold { at: None });
    let m = move_all(&d, &mut st, &mut go([]));
    assert!(m.tests.is_empty());
    assert_eq!(m.charges, vec![(6, 15)]);
    assert_eq!(st.units[15].motion, Motion::Charged);
    assert!(has_rule(&m, "WRG-RT-13"));
    // Infantry would not.
    let (d, mut st) = cavalry_charge(7.0);
    move_all(&d, &mut st, &mut go([]));
    assert_eq!(st.units[11].motion, Motion::Still);
}

// Checks WRG-ORD-12, WRG-MOVE-13.
#[test]
fn wrg_ord_12_skirmishers_evade_a_charge_whole() {
    // Light horse skirmishing are charged by medium cavalry: the whole unit evades (our reading of
    // MOVE-13: the engine always evades with the whole unit).
    let (d, mut st) = only(&[6, 15]);
    st.units[6].troop = TroopType::MediumCavalry;
    st.units[6].block = Block::new(12, 6);
    place(&mut st, 6, 30.0, 10.0, 0.0);
    st.units[15].block = Block::new(16, 8);
    place(&mut st, 15, 30.0, 25.0, 180.0);
    order(&mut st, 6, Verb::Attack { unit: 15 });
    order(&mut st, 15, Verb::Skirmish { unit: 6 });
    let m = move_all(&d, &mut st, &mut go([]));
    assert!(m.tests.is_empty());
    assert_eq!(st.units[15].block.figures, 16);
    assert!(close(st.units[15].at.y, 35.0, 1e-6), "{:?}", st.units[15].at);
    assert!(has_rule(&m, "WRG-MOVE-09"));
}

// Checks WRG-ROUT-03.
#[test]
fn wrg_rout_03_routers_met_by_their_general_rally() {
    let (d, mut st) = routers(1);
    let blue = Side::Blue.index();
    st.generals[blue].at = Vec2::new(30.0, 35.5);
    let m = move_all(&d, &mut st, &mut no_dice());
    assert!(st.units[11].rout.is_none(), "{:?}", m.notes);
    assert!(m.notes.iter().any(|n| n.text.contains("General")));
    // Not met, they run on.
    let (d, mut st) = routers(1);
    st.generals[blue].at = Vec2::new(60.0, 46.0);
    move_all(&d, &mut st, &mut no_dice());
    assert!(st.units[11].rout.is_some());
    assert_eq!(st.units[11].rout.map(|r| r.periods), Some(2));
}

// Checks WRG-ORD-03, WRG-CHORD-12.
#[test]
fn an_advance_to_a_feature_is_done_inside_it() {
    // The first cohort advances on Windmill Hill ([30, 20] to [42, 28]).
    let (d, mut st) = only(&[0]);
    for _ in 0..6 {
        next(&d, &mut st);
    }
    let u = &st.units[0];
    let hill = st.table.areas.iter().find(|a| a.name == "Windmill Hill").unwrap();
    assert!(hill.polygon.contains(u.at), "{:?}", u.at);
    assert_eq!(u.standing, Standing::Waiting);
    // Going up the slope cost double (WRG-TERR-04): it took more than the flat 15".
    assert!(u.causes.contains(&Cause::Terrain));
}

// Checks WRG-ORD-01.
#[test]
fn a_hold_order_with_a_place_goes_there_and_stays() {
    let (d, mut st) = only(&[0]);
    place(&mut st, 0, 30.0, 10.0, 0.0);
    order(&mut st, 0, Verb::Hold { at: Some(Objective::Point { x: 30.0, y: 14.0 }) });
    move_all(&d, &mut st, &mut no_dice());
    assert!(close(st.units[0].at.y, 14.0, 1e-9));
    next(&d, &mut st);
    assert!(close(st.units[0].at.y, 14.0, 1e-9));
    assert!(matches!(st.units[0].standing.order().map(|o| &o.verb), Some(Verb::Hold { .. })));
}

// Checks WRG-BRK-01.
#[test]
fn a_unit_that_has_moved_this_period_moves_no_more() {
    // Breaking off at the start of the period is its move (the period's start sets `moved`).
    let (d, mut st) = only(&[0]);
    order(&mut st, 0, Verb::Advance { to: Objective::Bearing { degrees: 0.0 } });
    st.units[0].moved = 4.0;
    st.units[0].motion = Motion::Retired;
    let at = st.units[0].at;
    move_all(&d, &mut st, &mut no_dice());
    assert_eq!(st.units[0].at, at);
    assert_eq!((st.units[0].moved, st.units[0].motion), (4.0, Motion::Retired));
}

// Checks WRG-ORD-14, WRG-ORD-04, WRG-LEAVE-01.
#[test]
fn an_order_to_march_on_a_bearing_may_take_the_unit_off_the_table() {
    // "Move south west may result in troops leaving the field completely."
    let (d, mut st) = only(&[0]);
    place(&mut st, 0, 3.0, 3.0, 225.0);
    order(&mut st, 0, Verb::Advance { to: Objective::Bearing { degrees: 225.0 } });
    let m = move_all(&d, &mut st, &mut no_dice());
    assert_eq!(m.left_table, vec![(0, Left::Ordinary)]);
    let a = st.units[0].away.unwrap();
    assert!(close(a.at.x, 0.0, 1e-3) && close(a.at.y, 0.0, 1e-3), "{:?}", a.at);
}
