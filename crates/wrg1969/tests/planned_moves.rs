//! Directed moves at the ford: a unit planned into open ground gets there; one held up by
//! friends is told why in the period's log, and a move into a friend that stands this period is
//! refused when planned (WRG-MOVE-01, WRG-MOVE-02, WRG-R-08).

use std::sync::Arc;
use tabletop::controls::MeasureRequest;
use tabletop::diagnostics::Source;
use tabletop::dice::ScriptedDice;
use tabletop::game::Game;
use tabletop::geometry::{Facing, Point, Vec2};
use tabletop::rules::{Actor, Narrate, RuleSet, Side};
use wrg1969::move_phase::{Movement, check_move, move_all};
use wrg1969::plan::{Plan, Step, UnitMove};
use wrg1969::state::{Motion, State, setup};
use wrg1969::{Command, Data, Wrg1969};

const HOPLITES_RIGHT: u16 = 0;
const SPARTIATES: u16 = 2;
const PELTASTS: u16 = 3;
const ARCHERS: u16 = 4;

fn ford_text() -> String {
    let path = format!("{}/../../scenarios/wrg1969/the_ford.toml", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("the scenario is there")
}

fn the_ford() -> Game<Wrg1969> {
    Game::new(Arc::new(Wrg1969::new()), Source::new("the_ford.toml", ford_text()), 7)
        .expect("the scenario loads")
}

/// Submits a command, returning the narrated log lines it produced.
fn submit(g: &mut Game<Wrg1969>, side: Side, c: Command) -> Vec<String> {
    let events = g.submit(Actor::Side(side), c).expect("accepted");
    events.iter().map(|e| e.narrate().text).collect()
}

/// Both sides keep the scenario's written orders.
fn write_both(g: &mut Game<Wrg1969>) {
    for side in Side::BOTH {
        submit(g, side, Command::Write { orders: vec![] });
    }
}

/// Plays a period with these plans; returns its log.
fn period(g: &mut Game<Wrg1969>, red: Plan, blue: Plan) -> Vec<String> {
    let mut log = submit(g, Side::Red, Command::Plan(red));
    log.extend(submit(g, Side::Blue, Command::Plan(blue)));
    log
}

fn move_to(unit: u16, to: Point, facing: Option<f64>) -> UnitMove {
    UnitMove { unit, step: Step::MoveTo { x: to.x, y: to.y, facing } }
}

fn plan(moves: Vec<UnitMove>) -> Plan {
    Plan { moves, ..Plan::default() }
}

fn at(g: &Game<Wrg1969>, id: u16) -> Point {
    g.state().units[id as usize].at
}

/// The point `inches` ahead of a unit's standard (behind when negative).
fn ahead(g: &Game<Wrg1969>, id: u16, inches: f64) -> Point {
    let u = &g.state().units[id as usize];
    u.at + u.facing.vector() * inches
}

fn refusal(g: &Game<Wrg1969>, side: Side, m: UnitMove) -> Option<(String, String)> {
    g.rules()
        .check(g.state(), Actor::Side(side), &Command::Plan(plan(vec![m])))
        .err()
        .map(|r| (r.rule.as_str().to_string(), r.reason))
}

// Checks WRG-MOVE-01, WRG-MOVE-02, WRG-R-08.
#[test]
fn at_the_ford_units_held_up_by_friends_are_told_and_planned_moves_into_open_ground_arrive() {
    let mut g = the_ford();
    write_both(&mut g);
    // Period 1, both sides following their orders. The Spartiates (37, 6), 4" wide, march on
    // the ford and meet their own Cretan archers holding at (37, 10.5), 9" wide, 4.5" ahead:
    // they stop against them, and the log says so, where, and by which rule.
    let log = period(&mut g, Plan::default(), Plan::default());
    let s = at(&g, SPARTIATES);
    assert!((s.x - 37.5).abs() < 0.05 && (s.y - 9.06).abs() < 0.05, "Spartiates at {s:?}");
    let held = log
        .iter()
        .find(|l| l.contains("Spartiates advance") && l.contains("held up by Cretan archers"))
        .unwrap_or_else(|| panic!("no note on the Spartiates: {log:#?}"));
    assert!(held.starts_with("[WRG-MOVE-02][WRG-R-08][WRG-MOVE-01]"), "{held}");
    assert!(held.contains("(37.5, 9.1)"), "{held}");
    // The blue Elephants, ordered to the ford as well, have their Balearic slingers 0.125"
    // in front, both on the move: light infantry pass through friends on the move as well as
    // standing ones, so the slingers go through and neither holds the other up (WRG-MOVE-12,
    // WRG-R-08).
    assert!(log.iter().any(|l| l.contains("Balearic slingers pass through Elephants")), "{log:#?}");
    assert!(!log.iter().any(|l| l.contains("Elephants advance") && l.contains("held up")));

    // Period 2. Straight on is refused when planned: the archers hold this period, and the
    // movement would stop the Spartiates against them (WRG-R-08).
    let on = move_to(SPARTIATES, ahead(&g, SPARTIATES, 3.0), None);
    let (rule, reason) = refusal(&g, Side::Red, on).expect("refused");
    assert_eq!(rule, "WRG-R-08", "{reason}");
    assert!(reason.contains("Cretan archers") && reason.contains("stand"), "{reason}");
    // The browser's measure of the same drag gives the same verdict, though the ground and the
    // allowance would carry the Spartiates there.
    let to = ahead(&g, SPARTIATES, 3.0);
    let request = MeasureRequest { unit: SPARTIATES.to_string(), to, facing: None };
    let m = g.rules().measure(g.state(), Side::Red, &request).expect("measured");
    assert!((m.within - m.length).abs() < 1e-6 && m.action.is_none(), "{m:?}");
    assert_eq!((m.rule.as_deref(), m.reason.as_deref()), (Some("WRG-R-08"), Some(&*reason)));
    // So is the Hoplites of the right's way on to the ford: their left end is behind the
    // archers' right end.
    let on = move_to(HOPLITES_RIGHT, ahead(&g, HOPLITES_RIGHT, 3.0), None);
    assert_eq!(refusal(&g, Side::Red, on).map(|r| r.0).as_deref(), Some("WRG-R-08"));

    // Into open ground clear of friends: the Spartiates draw back 2" (turning about and
    // back to their front, both free, WRG-MOVE-03), the peltasts go 3" on.
    let sp_from = at(&g, SPARTIATES);
    let sp_to = ahead(&g, SPARTIATES, -2.0);
    let sp_facing = g.state().units[SPARTIATES as usize].facing.bearing_degrees();
    let pe_from = at(&g, PELTASTS);
    let pe_to = ahead(&g, PELTASTS, 3.0);
    let red =
        plan(vec![move_to(SPARTIATES, sp_to, Some(sp_facing)), move_to(PELTASTS, pe_to, None)]);
    let cmd = Command::Plan(red.clone());
    g.rules().check(g.state(), Actor::Side(Side::Red), &cmd).expect("the plan is legal");
    let log = period(&mut g, red, Plan::default());
    for (id, from, to) in [(SPARTIATES, sp_from, sp_to), (PELTASTS, pe_from, pe_to)] {
        let u = &g.state().units[id as usize];
        assert!(
            u.at.distance(to) <= 0.05,
            "{} planned from {from:?} to {to:?} ended at {:?}: {log:#?}",
            u.name,
            u.at
        );
        assert!(
            !log.iter().any(|l| l.contains(&format!("] {} ", u.name)) && l.contains("held up")),
            "{log:#?}"
        );
    }
    let f = g.state().units[SPARTIATES as usize].facing.bearing_degrees();
    assert!((f - sp_facing).abs() < 1e-6, "facing {f}");
    // The archers never moved.
    assert_eq!(at(&g, ARCHERS), Point::new(37.0, 10.5));
}

/// The ford as the movement sees it, period 1 begun, no plans yet; the archers stand aside.
fn ford_state() -> (Data, State) {
    let d = Data::embedded().unwrap();
    let sc = wrg1969::scenario::load(&d, &Source::new("the_ford.toml", ford_text())).unwrap();
    let mut st = setup(&sc);
    st.period = 1;
    place(&mut st, ARCHERS, 10.0, 10.0, 0.0);
    (d, st)
}

fn place(st: &mut State, id: u16, x: f64, y: f64, bearing: f64) {
    let u = &mut st.units[id as usize];
    u.at = Vec2::new(x, y);
    u.facing = Facing::from_bearing_degrees(bearing);
}

fn run(d: &Data, st: &mut State, red: Vec<UnitMove>) -> Movement {
    for m in &red {
        check_move(d, st, Side::Red, m).expect("the directed move is legal");
    }
    st.plans[Side::Red.index()] = Some(plan(red));
    st.plans[Side::Blue.index()] = Some(Plan::default());
    for u in &mut st.units {
        u.motion = Motion::Still;
        u.moved = 0.0;
    }
    move_all(d, st, &mut ScriptedDice::new([]))
}

// Checks WRG-MOVE-01, WRG-R-08.
#[test]
fn a_unit_following_a_friend_that_makes_way_is_not_stopped_by_it() {
    // The Hoplites of the right (id 0, 6" wide) stand in column 0.1" behind the Spartiates
    // (id 2); both are directed 3" straight on at the same pace. The Hoplites move first in
    // the odd steps: in step 1 the Spartiates are still where they stood. They wait for them
    // to make way and go on; they used to stop there for the whole period, 0.1" on.
    let (d, mut st) = ford_state();
    place(&mut st, HOPLITES_RIGHT, 37.0, 6.0 - 1.6, 0.0);
    let moves = vec![
        move_to(HOPLITES_RIGHT, Point::new(37.0, 7.4), None),
        move_to(SPARTIATES, Point::new(37.0, 9.0), None),
    ];
    let m = run(&d, &mut st, moves);
    let (h, s) = (st.units[HOPLITES_RIGHT as usize].at, st.units[SPARTIATES as usize].at);
    assert!(s.distance(Point::new(37.0, 9.0)) < 1e-6, "Spartiates at {s:?}");
    assert!(h.distance(Point::new(37.0, 7.4)) < 1e-3, "Hoplites at {h:?}, notes {:?}", m.notes);
    assert!(!m.notes.iter().any(|n| n.text.contains("held up")), "{:?}", m.notes);
}

// Checks WRG-MOVE-01, WRG-R-08.
#[test]
fn a_unit_held_up_by_a_friend_that_halts_in_its_way_is_told_where_and_why() {
    // As above, but the Spartiates halt. That is not known to the Hoplites' move when it is
    // checked (the Spartiates are ordered to advance), so it is accepted; the movement stops
    // the Hoplites against them and the log says which unit stopped, where and why.
    let (d, mut st) = ford_state();
    place(&mut st, HOPLITES_RIGHT, 37.0, 6.0 - 1.6, 0.0);
    let moves = vec![
        move_to(HOPLITES_RIGHT, Point::new(37.0, 7.4), None),
        UnitMove { unit: SPARTIATES, step: Step::Halt },
    ];
    let m = run(&d, &mut st, moves);
    let h = st.units[HOPLITES_RIGHT as usize].at;
    assert!((h.y - 4.5).abs() < 2e-3 && (h.x - 37.0).abs() < 1e-9, "Hoplites at {h:?}");
    let note = m
        .notes
        .iter()
        .find(|n| {
            n.text.starts_with("Hoplites of the right move")
                && n.text.contains("held up by Spartiates")
        })
        .unwrap_or_else(|| panic!("{:?}", m.notes));
    let rules: Vec<&str> = note.rules.iter().map(|r| r.as_str()).collect();
    assert_eq!(rules, ["WRG-MOVE-02", "WRG-R-08", "WRG-MOVE-01"]);
    assert!(note.text.contains("move 0.1\" of their 3.0\" move"), "{}", note.text);
    assert!(note.text.contains("(37.0, 4.5)"), "{}", note.text);
}

// Checks WRG-R-08, WRG-MOVE-02.
#[test]
fn a_move_into_a_friend_that_stands_is_refused_but_not_one_into_a_friend_on_the_move() {
    let (d, mut st) = ford_state();
    // The archers hold 4.5" ahead of the Spartiates again (3.375" between their fronts and
    // rears): going 4" straight on would run into them.
    place(&mut st, ARCHERS, 37.0, 10.5, 0.0);
    let on = move_to(SPARTIATES, Point::new(37.0, 10.0), None);
    let e = check_move(&d, &st, Side::Red, &on).expect_err("refused");
    assert_eq!(e.rule.as_str(), "WRG-R-08");
    assert!(e.reason.contains("Cretan archers after 3.4\""), "{}", e.reason);
    // Short of them it is legal, and the Spartiates get there.
    let short = move_to(SPARTIATES, Point::new(37.0, 8.5), None);
    check_move(&d, &st, Side::Red, &short).expect("legal");
    run(&d, &mut st, vec![short]);
    assert!(st.units[SPARTIATES as usize].at.distance(Point::new(37.0, 8.5)) < 1e-6);
    // A friend that moves this period by its order (the Hoplites of the right advance to the
    // ford) may yet make way: the move is not refused on its account.
    let (d, mut st) = ford_state();
    place(&mut st, HOPLITES_RIGHT, 37.0, 8.5, 0.0);
    let on = move_to(SPARTIATES, Point::new(37.0, 9.0), None);
    check_move(&d, &st, Side::Red, &on).expect("legal");
}
