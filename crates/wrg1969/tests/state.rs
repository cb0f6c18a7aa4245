//! The battle's set-up and its first stage: orders written in secret before the first period.
use tabletop::diagnostics::Source;
use tabletop::rules::{Side, Viewer};
use wrg1969::Data;
use wrg1969::orders::{Objective, Order, Verb};
use wrg1969::state::*;

fn hill() -> (Data, State) {
    let d = Data::embedded().unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/scenarios/wrg1969/the_hill.toml")).unwrap();
    let sc = wrg1969::scenario::load(&d, &Source::new("the_hill.toml", text)).unwrap();
    let st = setup(&sc);
    (d, st)
}

fn advance_to(feature: &str) -> Order {
    Order::new(Verb::Advance { to: Objective::Feature { id: feature.into() } })
}

#[test]
fn setup_places_every_unit_with_its_written_order() {
    let (d, st) = hill();
    assert_eq!(st.units.len(), 10 + 7);
    assert_eq!(st.units[0].side, Side::Red);
    assert_eq!(st.units[10].side, Side::Blue);
    assert_eq!(&*st.units[10].name, "Chariots of the nobles");
    assert!(st.units.iter().all(|u| u.standing.order().is_some()));
    assert_eq!(waiting(&st), vec![Side::Red, Side::Blue]);
    // Remaining points at the start: the lists less their messengers (not yet on the table).
    assert_eq!(remaining_points(&d, &st, Side::Red), 786 - 16);
    assert_eq!(remaining_points(&d, &st, Side::Blue), 790 - 12);
}

// Checks WRG-ORD-01.
#[test]
fn wrg_ord_01_orders_are_written_before_the_battle() {
    let (_, mut st) = hill();
    let w = vec![Written { unit: 0, order: Some(advance_to("Windmill Hill")) }];
    check_written(&st, Side::Red, &w).unwrap();
    apply_written(&mut st, Side::Red, &w);
    assert_eq!(waiting(&st), vec![Side::Blue]);
    // Once only.
    assert_eq!(check_written(&st, Side::Red, &w).unwrap_err().rule.as_str(), "WRG-ORD-01");
    // Never after the battle has begun.
    st.period = 1;
    let b = vec![Written { unit: 10, order: None }];
    assert_eq!(check_written(&st, Side::Blue, &b).unwrap_err().rule.as_str(), "WRG-ORD-01");
    assert!(waiting(&st).is_empty());
}

#[test]
fn refused_orders_leave_the_state_unchanged() {
    let (_, st) = hill();
    let before = st.clone();
    // The Batavians (unit 3) cannot see the copse behind the hill.
    let w = vec![Written { unit: 3, order: Some(advance_to("Beech Copse")) }];
    let e = check_written(&st, Side::Red, &w).unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-ORD-03");
    // A unit of the other side.
    let w = vec![Written { unit: 12, order: None }];
    assert_eq!(check_written(&st, Side::Red, &w).unwrap_err().rule.as_str(), "WRG-ORD-01");
    // Attacking a friend.
    let w = vec![Written { unit: 0, order: Some(Order::new(Verb::Attack { unit: 1 })) }];
    assert_eq!(check_written(&st, Side::Red, &w).unwrap_err().rule.as_str(), "WRG-ORD-14");
    // Skirmishing heavy foot.
    let w = vec![Written { unit: 0, order: Some(Order::new(Verb::Skirmish { unit: 12 })) }];
    assert_eq!(check_written(&st, Side::Red, &w).unwrap_err().rule.as_str(), "WRG-ORD-11");
    assert_eq!(st, before);
}

#[test]
fn a_side_never_sees_the_other_sides_orders() {
    let (_, st) = hill();
    let red = view(&st, Viewer::Side(Side::Red));
    assert!(red.units.iter().filter(|u| u.side == Side::Red).all(|u| u.order.is_some()));
    assert!(
        red.units
            .iter()
            .filter(|u| u.side == Side::Blue)
            .all(|u| u.order.is_none() && u.has_order.is_none())
    );
    let text = serde_json::to_string(&view(&st, Viewer::Side(Side::Blue))).unwrap();
    // The Batavians' hold order (no blue unit has one) does not leak into blue's view, while
    // it is in red's.
    let hold = serde_json::to_string(st.units[3].standing.order().unwrap()).unwrap();
    assert!(hold.contains("\"hold\""));
    assert!(!text.contains(&hold));
    assert!(serde_json::to_string(&red).unwrap().contains(&hold));
    let spectator = view(&st, Viewer::Spectator);
    assert!(spectator.units.iter().all(|u| u.order.is_none()));
    let umpire = view(&st, Viewer::Umpire);
    assert!(umpire.units.iter().all(|u| u.order.is_some()));
}

#[test]
fn the_state_survives_a_serde_round_trip() {
    let (_, st) = hill();
    let text = serde_json::to_string(&st).unwrap();
    let back: State = serde_json::from_str(&text).unwrap();
    assert_eq!(back, st);
}

fn started() -> (Data, State) {
    let (d, mut st) = hill();
    for side in [Side::Red, Side::Blue] {
        apply_written(&mut st, side, &[]);
    }
    begin_period(&mut st);
    (d, st)
}

// Checks WRG-CHORD-02, WRG-CHORD-03, WRG-CHORD-06.
#[test]
fn wrg_chord_02_a_messenger_rides_and_the_unit_digests() {
    let (d, mut st) = started();
    assert_eq!(st.period, 1);
    // Red's General at (36, 1.5) sends the Numidians (unit 8, at (60, 9.5)) a new order.
    let order = advance_to("Windmill Hill");
    check_dictate(&d, &st, Side::Red, 8, &order, 1).unwrap();
    apply_dictate(&mut st, Side::Red, 8, &order);
    assert_eq!(st.free_messengers[0], 1);
    let distance = st.generals[0].at.distance(st.units[8].at);
    let expect =
        wrg1969::orders::by_messenger(&d, 1, distance, wrg1969::model::TroopType::LightCavalry);
    // Period 1: dictated; the messenger waits.
    ride_messengers(&d, &mut st);
    assert!(st.units[8].incoming.is_none());
    let mut arrived = None;
    for _ in 0..6 {
        begin_period(&mut st);
        ride_messengers(&d, &mut st);
        if arrived.is_none() && st.units[8].incoming.is_some() {
            arrived = Some(st.period);
        }
    }
    assert_eq!(arrived, Some(expect.arrives));
    // The unit acts on it from the period after arrival.
    assert_eq!(st.units[8].standing.order(), Some(&order));
    // And the messenger has ridden back and is free again.
    assert_eq!(st.free_messengers[0], 2);
    assert!(st.messengers.is_empty());
}

// Checks WRG-CHORD-01.
#[test]
fn wrg_chord_01_new_orders_answer_events_and_need_a_messenger() {
    let (d, mut st) = started();
    let order = advance_to("Windmill Hill");
    assert_eq!(
        check_dictate(&d, &st, Side::Red, 8, &order, 0).unwrap_err().rule.as_str(),
        "WRG-CHORD-01"
    );
    apply_dictate(&mut st, Side::Red, 8, &order);
    apply_dictate(&mut st, Side::Red, 7, &order);
    let before = st.clone();
    assert_eq!(
        check_dictate(&d, &st, Side::Red, 6, &order, 1).unwrap_err().rule.as_str(),
        "WRG-CHORD-02"
    );
    assert_eq!(st, before);
    // Not a red unit.
    assert_eq!(
        check_dictate(&d, &st, Side::Red, 12, &order, 1).unwrap_err().rule.as_str(),
        "WRG-ORD-14"
    );
}

// Checks WRG-CHORD-10.
#[test]
fn wrg_chord_10_the_general_at_the_head_of_a_unit_orders_it_at_once() {
    let (d, mut st) = started();
    st.generals[0].attached = Some(0);
    st.free_messengers[0] = 0;
    let order = Order::new(Verb::Hold { at: None });
    check_dictate(&d, &st, Side::Red, 0, &order, 1).unwrap();
    apply_dictate(&mut st, Side::Red, 0, &order);
    assert_eq!(st.units[0].standing.order(), Some(&order));
    assert!(st.messengers.is_empty());
}

// Checks WRG-CHORD-08, WRG-CHORD-09.
#[test]
fn wrg_chord_08_a_signal_reaches_units_within_25_inches() {
    let (d, mut st) = started();
    st.signals[0] = vec![(Order::new(Verb::Hold { at: None }), vec![])];
    let reached = give_signal(&d, &mut st, Side::Red, 0).unwrap();
    // The General at (36, 1.5): every red unit but the far cavalry wings and the Numidians.
    for id in &reached {
        assert!(st.units[*id as usize].at.distance(st.generals[0].at) <= 25.0);
    }
    assert!(reached.contains(&0) && !reached.contains(&8));
    assert!(
        st.units
            .iter()
            .filter(|u| u.side == Side::Red)
            .all(|u| reached.contains(&u.id) || u.at.distance(st.generals[0].at) > 25.0)
    );
    // They act on it from the next period.
    assert!(st.units[0].standing.order() != Some(&Order::new(Verb::Hold { at: None })));
    begin_period(&mut st);
    assert_eq!(st.units[0].standing.order(), Some(&Order::new(Verb::Hold { at: None })));
    assert!(give_signal(&d, &mut st, Side::Red, 3).is_err());
}

// Checks WRG-ROUT-01: a unit that breaks turns its back to run.
#[test]
fn wrg_rout_01_a_broken_unit_turns_its_back_once() {
    let (d, mut st) = hill();
    let before = st.units[0].facing;
    let _ = break_unit(&d, &mut st, 0);
    assert_eq!(st.units[0].facing, before.reversed());
    assert!(st.units[0].rout.is_some() && st.units[0].standing.order().is_none());
    // Breaking again while it runs does not turn it round again.
    let _ = break_unit(&d, &mut st, 0);
    assert_eq!(st.units[0].facing, before.reversed());
}
