//! The reaction test's situation read off the table (T9 from the state's geometry).
use tabletop::diagnostics::Source;
use tabletop::geometry::{Facing, Vec2};
use wrg1969::Data;
use wrg1969::combat::Cause;
use wrg1969::situation::{read, unit_sees};
use wrg1969::state::*;

fn hill() -> (Data, State) {
    let d = Data::embedded().unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/scenarios/wrg1969/the_hill.toml")).unwrap();
    let sc = wrg1969::scenario::load(&d, &Source::new("the_hill.toml", text)).unwrap();
    (d, setup(&sc))
}

// Checks WRG-RFAC-01, WRG-RFAC-02, WRG-RFAC-13, WRG-CHAMP-08.
#[test]
fn friends_within_fifteen_in_view_and_others_in_sight() {
    let (d, st) = hill();
    let s = read(&d, &st, &st.units[0]);
    // Within 15" of the first cohort: the second cohort, the archers, the slingers, the Ala I
    // Thracum and the scorpions; the third cohort is hidden behind the second (infantry hide
    // infantry on the level).
    assert!(!unit_sees(&st, &st.units[0], &st.units[2]));
    assert_eq!(s.friends_within, 5);
    assert!(s.other_friends_in_sight);
    assert!(s.other_enemy_in_sight);
    assert_eq!((s.enemies_facing_within, s.enemy_cavalry_within), (0, false));
}

// Checks WRG-RFAC-12, WRG-RFAC-14, WRG-RFAC-15, WRG-RFAC-08, WRG-RFAC-17.
#[test]
fn enemies_close_in() {
    let (d, mut st) = hill();
    // A British warband 12" in front, facing the legion, advancing.
    st.units[11].at = Vec2::new(26.0, 18.0);
    st.units[11].motion = Motion::Advanced;
    // British light horse off the legion's right flank, facing north (showing its rear).
    st.units[15].at = Vec2::new(36.0, 10.0);
    st.units[15].facing = Facing::from_bearing_degrees(0.0);
    let s = read(&d, &st, &st.units[0]);
    assert_eq!(s.enemies_facing_within, 1);
    assert!(s.enemy_advancing_within);
    assert!(s.enemy_cavalry_within);
    assert!(s.enemy_showing_flank_within);
    assert!(s.enemy_on_flank);
    assert!(!s.enemy_in_rear);
}

// Checks WRG-RFAC-22, WRG-RFAC-21, WRG-RFAC-24.
#[test]
fn losses_disorder_and_a_routing_friend() {
    let (d, mut st) = hill();
    st.units[0].block.lose(5);
    st.units[0].causes.push(Cause::Terrain);
    st.units[1].motion = Motion::Routing;
    let s = read(&d, &st, &st.units[0]);
    assert_eq!(s.figures_lost, 5);
    assert!(s.disorganised);
    assert_eq!(s.friends_routing_within, 1);
    // Light infantry are not disorganised by terrain.
    st.units[5].causes.push(Cause::Terrain);
    assert!(!read(&d, &st, &st.units[5]).disorganised);
}

// Checks WRG-RDEF-05, WRG-RDEF-06.
#[test]
fn cover_within_ten_friendly_or_not() {
    let (d, mut st) = hill();
    // The Ala I Thracum rides up to within 10" of the Oak Wood, which it can see is empty.
    st.units[6].at = Vec2::new(16.0, 15.0);
    let s = read(&d, &st, &st.units[6]);
    assert!(s.friendly_cover_within && !s.unfriendly_cover_within);
    // British levies slip into the wood.
    st.units[16].at = Vec2::new(8.0, 26.0);
    let s = read(&d, &st, &st.units[6]);
    assert!(s.unfriendly_cover_within && !s.friendly_cover_within);
}

// Checks WRG-VIC-01, WRG-VIC-02, WRG-VIC-03.
#[test]
fn the_hill_held_scores_its_value_or_half() {
    use wrg1969::scoring::{objective_hold, scores};
    use wrg1969::victory::Hold;
    let (d, mut st) = hill();
    assert_eq!(objective_hold(&d, &st, 0), [Hold::Nobody, Hold::Nobody]);
    let start = scores(&d, &st);
    assert_eq!(start, [770, 778]);
    // The first cohort takes the hill. From their start the chariots could charge it next
    // period (18" against a gap of 17.3"); drawn back, no Briton can.
    st.units[0].at = Vec2::new(36.0, 24.0);
    assert_eq!(objective_hold(&d, &st, 0), [Hold::Contested, Hold::Nobody]);
    st.units[10].at = Vec2::new(20.0, 47.0);
    assert_eq!(objective_hold(&d, &st, 0), [Hold::Secure, Hold::Nobody]);
    assert_eq!(scores(&d, &st), [770 + 150, 778]);
    // From the north the chariots would have to cross the Beech Copse and cannot see over
    // the crest: the hill stays secure.
    st.units[10].at = Vec2::new(36.0, 36.0);
    assert_eq!(objective_hold(&d, &st, 0), [Hold::Secure, Hold::Nobody]);
    // The cohort stands at the hill's eastern edge and the chariots come round from the east:
    // 8" of open ground, 1" of slope at four times, 6" to spare: the Romans keep only half.
    st.units[0].at = Vec2::new(40.5, 24.0);
    st.units[10].at = Vec2::new(50.0, 24.0);
    st.units[10].facing = Facing::from_bearing_degrees(270.0);
    assert_eq!(objective_hold(&d, &st, 0), [Hold::Contested, Hold::Nobody]);
    assert_eq!(scores(&d, &st), [770 + 75, 778]);
    // A warband in the hill too: nobody holds it.
    st.units[11].at = Vec2::new(32.0, 21.0);
    assert_eq!(objective_hold(&d, &st, 0), [Hold::Nobody, Hold::Nobody]);
}
