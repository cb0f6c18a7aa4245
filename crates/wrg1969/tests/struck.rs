//! Units struck on its way by a charge aimed at another, played through the game on the hill:
//! light infantry evade cavalry whichever unit the charge was aimed at, and a formed unit
//! struck after the charger's normal move tests for being charged (WRG-ORD-09, WRG-MOVE-08,
//! WRG-RT-03, WRG-RT-12, WRG-RT-13).

mod common;

use common::*;
use tabletop::rules::Side::{Blue, Red};
use wrg1969::report::Note;

fn says<'a>(notes: &'a [Note], what: &[&str]) -> Option<&'a Note> {
    notes.iter().find(|n| what.iter().all(|w| n.text.contains(w)))
}

// Checks WRG-ORD-09, WRG-MOVE-08, WRG-MOVE-09.
#[test]
fn wrg_ord_09_light_infantry_in_the_way_of_a_cavalry_charge_evade_it() {
    // Ala Petriana (8" normal, 20" charge) charge the Trinovantes 19" off; the British
    // slingers, light infantry, stand across the way 10" ahead. They were not the charge's
    // target, but light infantry always try to evade attacking cavalry: they run, and the horse
    // ride on.
    let mut g = load("the_hill.toml")
        .quiet()
        .put(Red, "Ala Petriana", 50.0, 12.0, 0.0, 6)
        .put(Blue, "Slingers", 50.0, 24.0, 180.0, 12)
        .put(Blue, "Warband of the Trinovantes", 50.0, 33.0, 180.0, 20)
        .order(Red, "Ala Petriana", attack(2))
        .game(3);
    let notes = quiet_period(&mut g);
    assert!(says(&notes, &["Ala Petriana charge Warband of the Trinovantes"]).is_some());
    let evade = says(&notes, &["Slingers evade", "from Ala Petriana"])
        .unwrap_or_else(|| panic!("{notes:#?}"));
    assert!(cites(evade, "WRG-MOVE-08"), "{}", evade.describe());
    assert!(
        !notes.iter().any(|n| n.text.contains("Ala Petriana (") && n.text.contains("Slingers ("))
    );
}

// Checks WRG-RT-03, WRG-RT-12.
#[test]
fn wrg_rt_03_a_unit_struck_by_a_charge_aimed_at_another_tests_for_being_charged() {
    // Ala Petriana charge the Trinovantes; the queen's following, formed foot, stand across the
    // way 12" ahead, past the horse's 8" normal move: struck there, they test for being
    // charged as any charged unit does.
    let mut g = load("the_hill.toml")
        .quiet()
        .put(Red, "Ala Petriana", 50.0, 12.0, 0.0, 6)
        .put(Blue, "The queen's following", 50.0, 26.0, 180.0, 10)
        .put(Blue, "Warband of the Trinovantes", 50.0, 33.0, 180.0, 20)
        .order(Red, "Ala Petriana", attack(2))
        .game(3);
    let notes = quiet_period(&mut g);
    assert!(says(&notes, &["Ala Petriana charge Warband of the Trinovantes"]).is_some());
    let tested = notes
        .iter()
        .any(|n| n.text.starts_with("The queen's following test") && cites(n, "WRG-RT-03"));
    assert!(tested, "no test for being charged: {notes:#?}");
}
