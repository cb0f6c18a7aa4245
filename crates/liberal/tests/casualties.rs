//! The casualty count along the formation (LIB-CAS).

mod common;
use common::*;
use liberal::data::Fate;
use liberal::state::{Event, Status};
use tabletop::rules::Side;

/// Red infantry 24 strong in line 12" from a blue line of 24: red stands fast and fires.
fn facing_lines() -> T {
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, "")
        + &unit("blue", "infantry", 36.0, 32.0, 180.0, "");
    T::at_red_turn(&scenario("", &body))
}

#[test]
fn lib_cas_06_the_worked_count_dice_3_4_4_6_on_two_ranks_of_12() {
    let mut t = facing_lines();
    // 24 firers at 16" − (0.75) ≈ 15.25": medium band (1 per 4) → 6 casualties, no remainder;
    // the count's dice 3, 4, 4, 6, then 3 and 3 for the last two; blue returns fire (LIB-R-20):
    // 24 figures, medium, 6 casualties, dice 1 ×6... use 5s.
    let count = [3, 4, 4, 6, 3, 3];
    let back = [5, 5, 5, 5, 5, 5];
    let mut dice = count.to_vec();
    dice.extend(back);
    let ev = t.declare(Side::Red, vec![stand(0)], &dice);
    for l in T::log(&ev) {
        eprintln!("{l}");
    }
    let fired = ev
        .iter()
        .find_map(|e| match e {
            Event::Fired { volley, hits, .. } if volley.firer == 0 => {
                Some((volley.clone(), hits.clone()))
            }
            _ => None,
        })
        .expect("red fires");
    assert_eq!(fired.0.figures, 24);
    assert_eq!(fired.0.casualties, 6);
    let numbers: Vec<usize> = fired.1.iter().map(|h| h.number).collect();
    assert_eq!(&numbers[..4], &[3, 7, 11, 17], "third dead, 4 on wounded, 4 on wounded, 6 on dead");
    let fates: Vec<Fate> = fired.1.iter().map(|h| h.fate).collect();
    assert_eq!(&fates[..4], &[Fate::Dead, Fate::Wounded, Fate::Wounded, Fate::Dead]);
    // Figure 17 is the second rank's fifth from the left.
    let blue = &t.st.units[1];
    assert_eq!(blue.figures[16].status, Status::Dead);
    assert!(matches!(blue.figures[6].status, Status::Wounded { .. }));
    assert!(T::cites(&ev, "LIB-CAS-06") || T::cites(&ev, "LIB-CAS-04"));
}
