//! Starting the game (LIB-START-01..06): the table, the armies, the roll for edges, the secret
//! deployment inside 18" of one's own edge, the roll for the first move.

mod common;
use common::*;
use liberal::state::{Command, Event, Flag, Formation, Phase, Place, Placement, Role, Stage};
use tabletop::geometry::{Facing, Point};
use tabletop::rules::{RuleSet, Side, Viewer};

/// Red infantry in the south, blue infantry in the north, far apart.
fn two_units() -> String {
    let body = unit("red", "infantry", 20.0, 10.0, 0.0, "")
        + &unit("blue", "infantry", 50.0, 40.0, 180.0, "");
    scenario("", &body)
}

fn place(x: f64, y: f64, bearing: f64) -> Place {
    Place {
        at: Point::new(x, y),
        facing: Facing::from_bearing_degrees(bearing),
        formation: Formation::Line,
    }
}

#[test]
fn lib_start_01_the_terrain_is_laid_out_before_anything_else() {
    // "LIB-START-01": the scenario's table, a wood and a road, are laid before the armies are
    // chosen and before any die.
    let body = unit("red", "infantry", 20.0, 10.0, 0.0, "")
        + &unit("blue", "infantry", 50.0, 40.0, 180.0, "")
        + "[[area]]\nname = \"Copse\"\nkind = \"wood\"\npoints = [[30, 20], [40, 20], [40, 28], [30, 28]]\n\n"
        + "[[line]]\nname = \"Pike\"\nkind = \"dirt_road\"\nwidth = 2.0\npoints = [[0, 24], [72, 24]]\n";
    let t = T::new(&scenario("", &body), &[6, 1]);
    assert_eq!(t.st.table.width, 72.0);
    assert_eq!(t.st.table.height, 48.0);
    assert_eq!(t.st.table.areas.len(), 1);
    assert_eq!(t.st.table.lines.len(), 1);
    // The first event lays the table; the roll for edges comes after it.
    match &t.events[0] {
        Event::Laid { terrain, units } => {
            assert_eq!(*terrain, 2);
            assert_eq!(*units, [1, 1]);
        }
        e => panic!("the table is laid first, not {e:?}"),
    }
    assert!(T::cites(&t.events[..1], "LIB-START-01"));
    let roll = t.events.iter().position(|e| matches!(e, Event::RollOff { .. })).expect("a roll");
    assert!(roll > 0);
}

#[test]
fn lib_start_02_each_side_has_a_roster_of_units() {
    // "LIB-START-02": troop type, figures, officers, colour bearer and guns for each unit.
    let body = unit("red", "infantry", 20.0, 10.0, 0.0, "")
        + &unit("red", "horse_artillery", 40.0, 10.0, 0.0, "")
        + &unit("blue", "light_cavalry", 50.0, 40.0, 180.0, "");
    let t = T::new(&scenario("", &body), &[6, 1]);
    assert!(matches!(t.events[0], Event::Laid { units: [2, 1], .. }));
    assert!(T::cites(&t.events[..1], "LIB-START-02"));
    let inf = &t.st.units[0];
    assert_eq!(inf.side, Side::Red);
    assert_eq!(t.rules.data.troops[inf.troop].id, "infantry");
    assert_eq!(inf.figures.len(), 24);
    for role in [Role::Commander, Role::Second, Role::Colours] {
        assert_eq!(inf.figures.iter().filter(|f| f.role == role).count(), 1, "{role:?}");
    }
    assert_eq!(inf.flag, Flag::Carried);
    assert!(inf.gun.is_none());
    let bty = &t.st.units[1];
    assert!(bty.gun.is_some(), "a battery has its gun");
    assert_eq!(bty.figures.len(), 4, "and its crew");
    assert!(bty.figures.iter().all(|f| t.rules.data.troops[f.troop].id == "artillerymen"));
    let cav = &t.st.units[2];
    assert_eq!(cav.side, Side::Blue);
    assert_eq!(cav.figures.len(), 12);
    assert!(cav.mounted);
    // A side may place only its own units.
    let mut t = t;
    t.side(Side::Red, Command::ChooseEdge { south: true }, &[]);
    let c =
        Command::Deploy { placements: vec![Placement { unit: 2, place: place(50.0, 10.0, 0.0) }] };
    assert_eq!(t.refused_rule(Side::Red, c), "LIB-START-02");
}

#[test]
fn lib_start_03_the_higher_die_chooses_the_side_of_the_table_ties_again() {
    // "LIB-START-03": red 3, blue 3 is a tie and both throw again; then red 2, blue 5.
    let mut t = T::new(&two_units(), &[3, 3, 2, 5]);
    let roll = t
        .events
        .iter()
        .find_map(|e| match e {
            Event::RollOff { rolls, winner, rule, .. } => {
                Some((rolls.clone(), *winner, rule.clone()))
            }
            _ => None,
        })
        .expect("the roll for edges");
    assert_eq!(roll.0, vec![(3, 3), (2, 5)]);
    assert_eq!(roll.1, Side::Blue);
    assert_eq!(roll.2.as_str(), "LIB-START-03");
    assert_eq!(t.st.phase, Phase::Edge { side: Side::Blue });
    // The loser does not choose.
    assert_eq!(t.refused_rule(Side::Red, Command::ChooseEdge { south: true }), "LIB-SEQ-08");
    // Blue takes the south edge: the armies change ends of the table.
    let ev = t.side(Side::Blue, Command::ChooseEdge { south: true }, &[]);
    assert!(T::cites(&ev, "LIB-START-03"));
    assert!(t.st.side(Side::Blue).south);
    assert!(!t.st.side(Side::Red).south);
    assert_eq!(t.st.units[1].place.at, Point::new(22.0, 8.0));
    assert_eq!(t.st.units[0].place.at, Point::new(52.0, 38.0));
    assert!(matches!(t.st.phase, Phase::Deploy { .. }));
}

#[test]
fn lib_start_04_starting_positions_are_secret_until_both_are_in() {
    // "LIB-START-04"
    let mut t = T::new(&two_units(), &[6, 1]);
    t.side(Side::Red, Command::ChooseEdge { south: true }, &[]);
    let plan = vec![Placement { unit: 0, place: place(30.0, 12.0, 0.0) }];
    let ev = t.side(Side::Red, Command::Deploy { placements: plan.clone() }, &[]);
    assert!(T::cites(&ev, "LIB-START-04"));
    // The log says only that red has drawn up, not where.
    let log = T::log(&ev).join("\n");
    assert!(log.contains("secret"), "{log}");
    assert!(!log.contains("30"), "the log gives the plan away: {log}");
    // Nothing is placed yet; blue sees neither red's plan nor a moved unit; red sees its plan.
    assert_eq!(t.st.units[0].place.at, Point::new(20.0, 10.0));
    let blue = t.rules.view(&t.st, Viewer::Side(Side::Blue));
    assert_eq!(blue.own_plan, None);
    assert_eq!(blue.units[0].at, [20.0, 10.0]);
    let red = t.rules.view(&t.st, Viewer::Side(Side::Red));
    assert_eq!(red.own_plan, Some(plan.clone()));
    // Red cannot change or repeat its plan; blue is still to draw up.
    assert_eq!(t.refused_rule(Side::Red, Command::Deploy { placements: Vec::new() }), "LIB-SEQ-08");
    // Blue commits: both are revealed and set up together, then the roll for first move.
    let ev = t.side(Side::Blue, Command::Deploy { placements: Vec::new() }, &[6, 1]);
    let revealed = ev.iter().position(|e| matches!(e, Event::Revealed)).expect("revealed");
    let first = ev.iter().position(|e| matches!(e, Event::RollOff { .. })).expect("roll");
    assert!(revealed < first);
    assert_eq!(t.st.units[0].place.at, Point::new(30.0, 12.0));
}

#[test]
fn lib_start_05_every_figure_within_18_inches_of_its_own_edge() {
    // "LIB-START-05": a line facing north has its front figures half an inch behind its front
    // centre and its rear rank 1" further back.
    let mut t = T::new(&two_units(), &[6, 1]);
    t.side(Side::Red, Command::ChooseEdge { south: true }, &[]);
    let deep =
        Command::Deploy { placements: vec![Placement { unit: 0, place: place(30.0, 18.6, 0.0) }] };
    assert_eq!(t.refused_rule(Side::Red, deep), "LIB-START-05");
    // Blue's zone is the 18" along the north edge.
    let blue_deep = Command::Deploy {
        placements: vec![Placement { unit: 1, place: place(50.0, 29.4, 180.0) }],
    };
    assert_eq!(t.refused_rule(Side::Blue, blue_deep), "LIB-START-05");
    // At 18" exactly is allowed.
    let edge = vec![Placement { unit: 0, place: place(30.0, 18.5, 0.0) }];
    t.side(Side::Red, Command::Deploy { placements: edge }, &[]);
    let edge = vec![Placement { unit: 1, place: place(50.0, 29.5, 180.0) }];
    t.side(Side::Blue, Command::Deploy { placements: edge }, &[6, 1]);
    assert_eq!(t.st.units[0].place.at, Point::new(30.0, 18.5));
    assert_eq!(t.st.units[1].place.at, Point::new(50.0, 29.5));
    // A scenario drawn up too deep does not load.
    let body = unit("red", "infantry", 20.0, 20.0, 0.0, "")
        + &unit("blue", "infantry", 50.0, 40.0, 180.0, "");
    let text = scenario("", &body);
    let err = t
        .rules
        .load_scenario(&tabletop::diagnostics::Source::new("deep.toml", text))
        .expect_err("too deep");
    assert!(err.to_string().contains("LIB-START-05"), "{err}");
}

#[test]
fn lib_start_06_a_second_roll_off_decides_the_first_move() {
    // "LIB-START-06": red 4, blue 4 again; then red 1, blue 3: blue moves first.
    let mut t = T::new(&two_units(), &[6, 1]);
    t.side(Side::Red, Command::ChooseEdge { south: true }, &[]);
    t.side(Side::Red, Command::Deploy { placements: Vec::new() }, &[]);
    let ev = t.side(Side::Blue, Command::Deploy { placements: Vec::new() }, &[4, 4, 1, 3]);
    let roll = ev
        .iter()
        .find_map(|e| match e {
            Event::RollOff { rolls, winner, rule, .. } => {
                Some((rolls.clone(), *winner, rule.clone()))
            }
            _ => None,
        })
        .expect("the roll for first move");
    assert_eq!(
        roll,
        (vec![(4, 4), (1, 3)], Side::Blue, tabletop::rules::RuleId::new("LIB-START-06"))
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::TurnBegins { side: Side::Blue, first: Side::Blue, game_turn: 1, day: 1 }
    )));
    assert!(matches!(t.st.phase, Phase::Turn { side: Side::Blue, stage: Stage::Declare, .. }));
    assert_eq!(t.st.first, Side::Blue);
    assert_eq!(t.refused_rule(Side::Red, Command::Declare { orders: Vec::new() }), "LIB-SEQ-08");
}

#[test]
fn lib_start_04_what_blue_can_see_gives_no_trace_of_reds_plan() {
    // "LIB-START-04": the server sends a player the view and the log, never the events' JSON;
    // before blue commits, neither holds red's plan.
    use tabletop::rules::{Narrate, RuleSet, Viewer};
    let mut t = T::new(&two_units(), &[6, 1]);
    t.side(Side::Red, Command::ChooseEdge { south: true }, &[]);
    let plan = vec![Placement { unit: 0, place: place(30.0, 12.0, 0.0) }];
    t.side(Side::Red, Command::Deploy { placements: plan }, &[]);
    let log: Vec<String> = t.events.iter().map(|e| e.narrate().text).collect();
    assert!(log.iter().all(|l| !l.contains("30.0")), "{log:?}");
    let blue = serde_json::to_string(&t.rules.view(&t.st, Viewer::Side(Side::Blue))).expect("json");
    assert!(!blue.contains("30.0"), "{blue}");
    let red = t.rules.view(&t.st, Viewer::Side(Side::Red));
    assert!(red.own_plan.is_some(), "red sees its own plan");
}
