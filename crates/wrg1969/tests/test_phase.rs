//! End-of-period reaction tests applied to the state.
use tabletop::diagnostics::Source;
use tabletop::dice::{Die, ScriptedDice};
use tabletop::geometry::{Facing, Vec2};
use wrg1969::Data;
use wrg1969::reaction::{Effect, Trigger};
use wrg1969::state::*;
use wrg1969::test_phase::{first_within_range, take_tests};

fn closing() -> (Data, State) {
    let d = Data::embedded().unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/scenarios/wrg1969/the_hill.toml")).unwrap();
    let sc = wrg1969::scenario::load(&d, &Source::new("the_hill.toml", text)).unwrap();
    let mut st = setup(&sc);
    // The Iceni warband (id 11) comes on to 12" from the first cohort, facing it.
    st.units[11].at = Vec2::new(26.0, 18.0);
    st.units[11].facing = Facing::from_bearing_degrees(180.0);
    (d, st)
}

// Checks WRG-RT-02, WRG-RTP-01.
#[test]
fn first_time_within_fifteen_inches() {
    let (d, mut st) = closing();
    let first = first_within_range(&d, &st);
    assert!(first.contains(&0) && first.contains(&11), "{first:?}");
    assert!(!first.contains(&10));
    // The warband (barbarians, d6) throws 1, 1, 1 and, out-faced by three Roman units, falls in
    // the bottom band: not under attack, it retreats for 3 periods; its order is suspended.
    let mut dice = ScriptedDice::new([1, 1, 1]);
    let t = take_tests(&d, &mut st, &[(11, Trigger::FirstContactRange)], &[], &mut dice);
    assert_eq!(t[0].rolls.len(), 3);
    assert_eq!(t[0].rolls[0].die, Die::D6);
    assert!(t[0].outcome.score <= 2, "{:?}", t[0].outcome);
    assert_eq!(t[0].outcome.effect, Effect::Retreat { periods: 3 });
    let u = &st.units[11];
    assert!(u.tested_within_range);
    assert_eq!(u.running.map(|r| (r.effect, r.left)), Some((Effect::Retreat { periods: 3 }, 3)));
    assert!(u.standing.order().is_some());
    // Tested once: not again for coming within range.
    assert!(!first_within_range(&d, &st).contains(&11));
}

// Checks WRG-RRES-01.
#[test]
fn under_attack_the_bottom_band_breaks_the_unit() {
    let (d, mut st) = closing();
    let mut dice = ScriptedDice::new([1, 1, 1]);
    let t = take_tests(&d, &mut st, &[(11, Trigger::MissileLosses)], &[11], &mut dice);
    assert_eq!(t[0].outcome.effect, Effect::Break);
    assert_eq!(st.units[11].motion, Motion::Routing);
    assert!(st.units[11].standing.order().is_none());
}

// Checks WRG-RRES-06.
#[test]
fn elite_legionaries_with_their_blood_up_advance_out_of_hand() {
    let (d, mut st) = closing();
    // The first cohort (class B, average dice) throws 5, 5, 5 with five friends about it.
    let mut dice = ScriptedDice::new([5, 5, 5]);
    let t = take_tests(
        &d,
        &mut st,
        &[(0, Trigger::FirstContactRange), (0, Trigger::Charged)],
        &[],
        &mut dice,
    );
    assert_eq!(t.len(), 1, "one test however many triggers");
    assert_eq!(t[0].rolls[0].die, Die::Average);
    assert!(t[0].outcome.score >= 16, "{:?}", t[0].outcome);
    assert_eq!(t[0].outcome.effect, Effect::UncontrolledAdvance { periods: 2 });
    assert!(st.units[0].standing.order().is_none(), "the order is cancelled");
    assert!(st.units[0].running.is_some());
}
