//! Every move shows how its cost and its allowance were made, each part with its rule, and
//! cites the rules it applied: positions from the ready scenarios, commands through the game,
//! the log and the state checked.
mod common;
use common::*;
use movement::Turn;
use movement::state::{Command, Event, LegKind, MoveKind, Step};
use tabletop::dice::ScriptedDice;
use tabletop::game::Game;
use tabletop::geometry::Pivot;
use tabletop::rules::RuleSet;

fn scenario(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../scenarios/movement/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("a ready scenario")
}

/// The `Moved` event among `ev`.
fn the_move(ev: &[Event]) -> Event {
    ev.iter().find(|e| matches!(e, Event::Moved { .. })).cloned().expect("a Moved event")
}

fn cited(e: &Event) -> Vec<String> {
    match e {
        Event::Moved { rules, .. } => rules.iter().map(|r| r.to_string()).collect(),
        _ => vec![],
    }
}

fn cites(e: &Event, ids: &[&str]) {
    let c = cited(e);
    for id in ids {
        assert!(c.contains(&id.to_string()), "{id} not cited: {c:?}");
    }
}

fn not_cited(e: &Event, ids: &[&str]) {
    let c = cited(e);
    for id in ids {
        assert!(!c.contains(&id.to_string()), "{id} cited: {c:?}");
    }
}

fn id(g: &Game<movement::Movement>, name: &str) -> usize {
    g.state().find(name).unwrap_or_else(|| panic!("no unit {name}"))
}

/// MOV-GEN-03, MOV-GEN-04, MOV-GEN-02: Red Archers (ford.toml) turn left and cross the marsh;
/// the log lists every part with its rule (the turn's fixed cost, each stretch's inches times
/// its ground and its direction), the parts add up to the cost, the allowance shows its rate,
/// and what is left is lost.
#[test]
fn mov_gen_03_a_move_lists_its_parts_and_they_add_up() {
    let mut g = game(&ford_text());
    let archers = id(&g, "Red Archers");
    let ev = ok(&mut g, RED, mv(archers, vec![face(Turn::Left), adv(22.0, 13.5)]));
    let e = the_move(&ev);
    let Event::Moved { cost, allowance, items, legs, basis, lost, .. } = &e else { unreachable!() };
    assert_eq!(legs.len(), 2);
    assert_eq!((legs[0].kind, legs[1].kind), (LegKind::Face, LegKind::Advance));
    assert_eq!(items[0].rule.as_str(), "MOV-FACE-02");
    close(items[0].cost, 1.0);
    assert!(items[0].inches.is_none());
    let mud = items
        .iter()
        .find(|i| i.factors.iter().any(|f| f.rule.as_str() == "MOV-TER-03"))
        .expect("a stretch of mud");
    close(mud.cost, mud.inches.unwrap() * mud.factors.iter().map(|f| f.value).product::<f64>());
    assert_eq!(mud.factors.last().unwrap().rule.as_str(), "MOV-DIR-01");
    close(items.iter().map(|i| i.cost).sum::<f64>(), *cost);
    close(legs.iter().map(|l| l.cost).sum::<f64>(), *cost);
    let b = basis.as_ref().expect("the allowance's basis");
    close(b.base, 12.0);
    assert!(b.rules.iter().any(|r| r.as_str() == "MOV-GEN-02"));
    close(*allowance, 12.0);
    close(*lost, allowance - cost);
    cites(
        &e,
        &[
            "MOV-GEN-02",
            "MOV-GEN-03",
            "MOV-GEN-04",
            "MOV-TER-01",
            "MOV-TER-03",
            "MOV-GEN-11",
            "MOV-DIR-04",
            "MOV-DIR-06",
            "MOV-FACE-01",
            "MOV-FACE-02",
            "MOV-FACE-05",
            "MOV-FACE-06",
        ],
    );
    let text = g.log().last().unwrap().text.clone();
    for part in [
        "× mud ×2 [MOV-TER-03]",
        "× forward ×1 [MOV-DIR-01]",
        "[MOV-GEN-03]",
        "left is lost [MOV-GEN-04]",
        "light infantry in light armor 12\" [MOV-GEN-02]",
    ] {
        assert!(text.contains(part), "{part} not in: {text}");
    }
}

/// MOV-GEN-02, MOV-R-10: a unit of mixed armor moves at its slowest stand's rate, and says so
/// (Red Crossbows, thornwood.toml: medium and heavy armor).
#[test]
fn mov_gen_02_the_slowest_stand_sets_the_allowance_and_the_log_says_which() {
    let mut g = game(&scenario("thornwood.toml"));
    end(&mut g); // blue moves first
    let xb = id(&g, "Red Crossbows");
    let ev = ok(&mut g, RED, mv(xb, vec![adv(6.0, 13.0)]));
    let Event::Moved { basis, allowance, .. } = the_move(&ev) else { unreachable!() };
    let b = basis.unwrap();
    close(b.base, 8.0);
    close(allowance, 8.0);
    assert!(b.what.contains("slowest stand"), "{}", b.what);
    assert!(b.rules.iter().any(|r| r.as_str() == "MOV-R-10"));
}

/// MOV-GEN-10: a creature moves at its own rate (the Ogres of vell.toml, 15").
#[test]
fn mov_gen_10_a_creature_moves_at_its_own_rate() {
    let mut g = game(&scenario("vell.toml"));
    let ogres = id(&g, "Ogres");
    let ev = ok(&mut g, RED, mv(ogres, vec![adv(20.0, 14.0)]));
    let e = the_move(&ev);
    let Event::Moved { basis, allowance, .. } = &e else { unreachable!() };
    close(basis.as_ref().unwrap().base, 15.0);
    close(*allowance, 15.0);
    cites(&e, &["MOV-GEN-10"]);
}

/// MOV-FACE-03 (with MOV-FACE-01, -05, -06): two changes of facing in one move are each paid
/// at the fixed cost and cited.
#[test]
fn mov_face_03_each_change_in_a_move_is_paid_and_cited() {
    let mut g = game(&ford_text());
    let levy = id(&g, "Red Levy"); // poor: 2" a change
    let ev = ok(&mut g, RED, mv(levy, vec![face(Turn::Right), face(Turn::Right)]));
    let e = the_move(&ev);
    let Event::Moved { cost, items, .. } = &e else { unreachable!() };
    close(*cost, 4.0);
    assert_eq!(items.iter().filter(|i| i.rule.as_str() == "MOV-FACE-02").count(), 2);
    cites(
        &e,
        &["MOV-FACE-01", "MOV-FACE-03", "MOV-FACE-05", "MOV-FACE-06", "MOV-FORM-07", "MOV-FORM-08"],
    );
    assert_eq!(g.state().units[levy].pose.formation, movement::Formation::Mass);
}

/// MOV-DIR-04: a path exactly 45° off the front is forward (×1), even when the facing and the
/// path come from rounded sines and cosines.
#[test]
fn mov_dir_04_exactly_forty_five_degrees_is_forward() {
    let text = ford_text()
        .replace("position = [30.0, 4.0]\nfacing = 0.0", "position = [30.0, 4.0]\nfacing = 30.0");
    let mut g = game(&text);
    let gun = id(&g, "Red Gun");
    let at = g.state().units[gun].pose.at;
    let a = 75f64.to_radians();
    let to = at + tabletop::geometry::Vec2::new(a.sin(), a.cos()) * 1.2;
    let ev = ok(&mut g, RED, mv(gun, vec![adv(to.x, to.y)]));
    let e = the_move(&ev);
    let Event::Moved { cost, .. } = &e else { unreachable!() };
    close(*cost, 1.2);
    cites(&e, &["MOV-DIR-01", "MOV-DIR-04"]);
    not_cited(&e, &["MOV-DIR-03"]);
}

/// MOV-WHEEL-02 (with MOV-WHEEL-01, -03, -04, -05): a wheel and an advance in one move; the
/// wheel measures frontage × angle on the outside, about a front corner that stays put.
#[test]
fn mov_wheel_02_a_wheel_mixed_with_an_advance() {
    let mut g = game(&ford_text());
    let sp = id(&g, "Red Spearmen"); // 4 files: 6" of frontage
    let before = g.state().units[sp].clone();
    let ev = ok(&mut g, RED, mv(sp, vec![Step::Wheel { pivot: Pivot::Right, degrees: 30.0 }]));
    let e = the_move(&ev);
    let Event::Moved { legs, cost, .. } = &e else { unreachable!() };
    let arc = 6.0 * 30f64.to_radians();
    close(legs[0].measured, arc);
    close(*cost, arc);
    let (a, b) = (
        movement::layout::outline(&before.pose, 8, before.stand_size),
        movement::layout::outline(&g.state().units[sp].pose, 8, before.stand_size),
    );
    assert!(a.front_right().distance(b.front_right()) < 1e-9);
    cites(&e, &["MOV-WHEEL-01", "MOV-WHEEL-03", "MOV-WHEEL-04", "MOV-WHEEL-05"]);
    not_cited(&e, &["MOV-WHEEL-02"]);
    // Next turn: a wheel and an advance together.
    end(&mut g);
    end(&mut g);
    let p = g.state().units[sp].pose;
    let to = p.at + p.facing.vector() * 1.0;
    let ev = ok(
        &mut g,
        RED,
        mv(sp, vec![Step::Wheel { pivot: Pivot::Left, degrees: 15.0 }, adv(to.x, to.y)]),
    );
    cites(&the_move(&ev), &["MOV-WHEEL-02"]);
}

/// MOV-TER-08 (with MOV-TER-06, MOV-TER-10): over Vell Bridge in the rain the bridge costs as
/// the wet dirt road it carries (×2), and the river crossed at it is cited.
#[test]
fn mov_ter_08_a_wet_bridge_costs_as_its_muddy_track() {
    let text = scenario("vell.toml")
        .replace("position = [24.0, 2.5]\nfacing = 0.0", "position = [12.0, 15.0]\nfacing = 0.0");
    let mut g = game(&text);
    let warlord = id(&g, "Red Warlord");
    let ev = ok(&mut g, RED, mv(warlord, vec![adv(12.0, 20.6)]));
    let e = the_move(&ev);
    let Event::Moved { items, cost, .. } = &e else { unreachable!() };
    let bridge =
        items.iter().find(|i| i.factors[0].rule.as_str() == "MOV-TER-08").expect("the bridge");
    close(bridge.factors[0].value, 2.0);
    assert!(bridge.factors[0].what.contains("wet"), "{}", bridge.factors[0].what);
    close(*cost, 5.6 * 2.0);
    cites(&e, &["MOV-TER-06", "MOV-TER-08", "MOV-TER-10"]);
}

/// MOV-TER-14: terrain and direction multiply (sideways through mud ×4), and the log shows
/// both factors.
#[test]
fn mov_ter_14_mud_and_a_sidestep_multiply() {
    let text = ford_text()
        .replace("position = [24.0, 4.0]\nfacing = 0.0", "position = [22.0, 13.0]\nfacing = 0.0");
    let mut g = game(&text);
    let general = id(&g, "Red General");
    let ev = ok(&mut g, RED, mv(general, vec![adv(24.0, 13.0)]));
    let e = the_move(&ev);
    let Event::Moved { cost, items, .. } = &e else { unreachable!() };
    close(*cost, 8.0);
    let f: Vec<&str> = items[0].factors.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(f, ["MOV-TER-03", "MOV-DIR-03"]);
    cites(&e, &["MOV-TER-14", "MOV-GEN-11"]);
}

/// MOV-FORM-11, MOV-FORM-03: a line turned to a flank becomes a column (its stands turn about
/// their own centres), and is cited as such.
#[test]
fn mov_form_11_a_line_turned_to_the_flank_is_a_column() {
    let mut g = game(&ford_text());
    let sp = id(&g, "Red Spearmen");
    let ev = ok(&mut g, RED, mv(sp, vec![face(Turn::Right)]));
    assert_eq!(g.state().units[sp].pose.formation, movement::Formation::Column);
    cites(&the_move(&ev), &["MOV-FORM-11", "MOV-FORM-03", "MOV-FACE-05"]);
}

/// MOV-FORM-05, MOV-FORM-06, MOV-FORM-02, MOV-FORM-01: skirmishers close into a line and open
/// out again; each change cites its formation's rules.
#[test]
fn mov_form_05_skirmishers_close_up_and_open_out() {
    let mut g = game(&ford_text());
    end(&mut g);
    let sk = id(&g, "Blue Skirmishers");
    let line = Step::Form { formation: movement::Formation::Line, files: Some(3), gap: None };
    let ev = ok(&mut g, BLUE, mv(sk, vec![line]));
    let e = the_move(&ev);
    cites(&e, &["MOV-FORM-01", "MOV-FORM-02", "MOV-FORM-11", "MOV-FORM-12"]);
    not_cited(&e, &["MOV-FORM-05", "MOV-FORM-06"]);
    end(&mut g);
    end(&mut g);
    let open =
        Step::Form { formation: movement::Formation::OpenOrder, files: Some(3), gap: Some(2.0) };
    let ev = ok(&mut g, BLUE, mv(sk, vec![open]));
    let e = the_move(&ev);
    cites(&e, &["MOV-FORM-05", "MOV-FORM-06"]);
    not_cited(&e, &["MOV-FORM-02"]);
}

/// MOV-FORM-10, MOV-FORM-08: troops that are not levy may choose mass.
#[test]
fn mov_form_10_others_may_choose_mass() {
    let mut g = game(&ford_text());
    let sp = id(&g, "Red Spearmen");
    let mass = Step::Form { formation: movement::Formation::Mass, files: None, gap: None };
    let ev = ok(&mut g, RED, mv(sp, vec![mass]));
    assert_eq!(g.state().units[sp].pose.formation, movement::Formation::Mass);
    cites(&the_move(&ev), &["MOV-FORM-10", "MOV-FORM-08"]);
}

/// MOV-FM-08 (with MOV-FM-02, MOV-FM-04): a forced march shows its doubled allowance, without
/// the charge bonus, and pays every cost from it.
#[test]
fn mov_fm_08_a_forced_march_pays_from_the_doubled_allowance() {
    let mut st = state(&ford_text());
    let horse = st.find("Red Horse").unwrap();
    // Discipline check 5 (good: 4+), exhaustion 1.
    let ev = run(&mut st, RED, forced(horse, vec![face(Turn::About), adv(39.5, 2.0)]), &[5, 1]);
    let e = the_move(&ev);
    let Event::Moved { kind, basis, allowance, cost, .. } = &e else { unreachable!() };
    assert_eq!(*kind, MoveKind::ForcedMarch);
    let f: Vec<(&str, f64)> =
        basis.as_ref().unwrap().factors.iter().map(|f| (f.rule.as_str(), f.value)).collect();
    assert_eq!(f, [("MOV-FM-02", 2.0), ("MOV-FM-04", 1.0)]);
    close(*allowance, 36.0);
    assert!(*cost > 1.0 && *cost <= 36.0, "{cost}");
    cites(&e, &["MOV-FM-01", "MOV-FM-02", "MOV-FM-04", "MOV-FM-08"]);
    assert!(ev.iter().any(|e| matches!(e, Event::Attrition { per_stand: 2, .. })));
}

/// MOV-REG-05: a character far from every friendly unit is not bound by regroup movement; its
/// player moves it, and the move says why (the Sorcerer of vell.toml).
#[test]
fn mov_reg_05_a_character_apart_from_the_army_moves_freely() {
    let mut g = game(&scenario("vell.toml"));
    let sorcerer = id(&g, "Sorcerer");
    assert!(!g.state().units[sorcerer].separated);
    assert!(g.events().iter().all(|e| !matches!(e, Event::Moved { .. })));
    let ev = ok(&mut g, RED, mv(sorcerer, vec![adv(6.0, 13.0)]));
    let e = the_move(&ev);
    cites(&e, &["MOV-REG-05"]);
    assert_eq!(g.state().units[sorcerer].pose.at.x, 6.0);
}

/// MOV-TER-06 (with MOV-REG-02): a flight whose way runs into a river outside its crossings
/// stops on the bank, and the log names the rule that stopped it.
#[test]
fn mov_ter_06_a_flight_stopped_by_a_river_says_why() {
    let text = scenario_text(
        &(li("Runner", 30.0, 20.0)
            + "\n[[line]]\nname = \"Deep River\"\nkind = \"river\"\nwidth = 3.0\npoints = [[0.0, 14.0], [60.0, 14.0]]\n"
            + &blue_far()),
    );
    let mut g = game(&text);
    ok(&mut g, tabletop::rules::Actor::Umpire, Command::DriveOff { unit: 0 });
    end(&mut g);
    let ev = end(&mut g);
    let e = the_move(&ev);
    let Event::Moved { kind, note, to, .. } = &e else { unreachable!() };
    assert_eq!(*kind, MoveKind::Flight);
    cites(&e, &["MOV-TER-06", "MOV-REG-02"]);
    assert!(note.contains("river"), "{note}");
    // Stopped on the north bank (the band runs from y 12.5 to 15.5).
    assert!(to.at.y >= 15.5 - 1e-6 && to.at.y < 17.0, "{to:?}");
    assert!(g.state().units[0].on_table);
}

/// MOV-LIMB-01..03: starting to limber cites the whole turn given up (no move, no shot).
#[test]
fn mov_limb_03_limbering_cites_the_turn_it_takes() {
    use tabletop::rules::Narrate;
    let mut g = game(&ford_text());
    let gun = id(&g, "Red Gun");
    let ev = ok(&mut g, RED, Command::Unlimber { unit: gun });
    let r: Vec<String> = ev[0].rules().iter().map(|r| r.to_string()).collect();
    assert_eq!(r, ["MOV-LIMB-01", "MOV-LIMB-02", "MOV-LIMB-03"]);
    let _ = ScriptedDice::new([]);
    let _ = movement::Movement::new().id();
}
