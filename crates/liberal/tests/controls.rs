//! The browser's controls: through a scripted battle, every action offered passes `check`
//! (drafts put into their command), dragged moves measure to checked orders (a liberal move
//! with a preview step by step), the roster lists every unit, and before the reveal a side's
//! scene shows its own plan and never the enemy's.

use liberal::state::{Command, Phase, Stage, State};
use liberal::{Liberal, bot};
use serde_json::Value;
use std::sync::Arc;
use tabletop::Source;
use tabletop::controls::{Action, Drag, Effect, MeasureRequest, apply_draft};
use tabletop::game::Game;
use tabletop::geometry::Point;
use tabletop::host::HostedRuleSet;
use tabletop::rules::{Actor, RuleSet, Side, Viewer};

fn game(seed: u64) -> Game<Liberal> {
    let name = "courthouse.toml";
    let text = std::fs::read_to_string(format!(
        "{}/../../scenarios/liberal/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the scenario");
    Game::new(
        Arc::new(Liberal::new()),
        Source::new(format!("scenarios/liberal/{name}"), text),
        seed,
    )
    .expect("it loads")
}

/// The command an action makes, given the draft it goes into.
fn command_of(a: &Action, draft: Option<&Value>) -> Value {
    match &a.effect {
        Effect::Send { command } => command.clone(),
        Effect::Draft { at, key, value } => {
            let mut d = draft.expect("a draft action comes with a draft").clone();
            assert!(apply_draft(&mut d, at, key.as_deref(), value), "{} fits its draft", a.label);
            d
        }
    }
}

fn check(r: &Liberal, st: &State, side: Side, a: &Action, draft: Option<&Value>) {
    let json = command_of(a, draft);
    let cmd: Command = serde_json::from_value(json.clone())
        .unwrap_or_else(|e| panic!("{}: not a command ({e}): {json}", a.label));
    if let Err(e) = r.check(st, Actor::Side(side), &cmd) {
        panic!("{} is offered but refused: [{}] {}", a.label, e.rule, e.reason);
    }
}

/// Checks everything `side` is offered now; returns how many measured drops gave an action
/// and how many of those were liberal moves with steps.
fn check_all(r: &Liberal, st: &State, side: Side) -> (usize, usize) {
    let c = r.controls(st, side);
    let draft = c.draft.as_ref().map(|d| d.command.clone());
    for a in &c.actions {
        check(r, st, side, a, draft.as_ref());
    }
    let (mut dropped, mut liberal) = (0, 0);
    // The whole draft: every unit's last dropped move put in together.
    let mut whole = draft.clone();
    for u in &c.units {
        let is_formation = |f: &&Action| {
            matches!(&f.effect, Effect::Draft { at, .. }
                if at.ends_with("/choice/formation") || at.ends_with("/choice/target"))
        };
        for a in &u.actions {
            check(r, st, side, a, draft.as_ref());
            // A formation put on any order from the menu keeps it legal.
            if !is_formation(&a) && draft.is_some() {
                let with = command_of(a, draft.as_ref());
                for f in u.actions.iter().filter(is_formation) {
                    check(r, st, side, f, Some(&with));
                }
            }
        }
        if u.drag != Drag::Free {
            continue;
        }
        let id: usize = u.unit.parse().expect("a unit id");
        let unit = &st.units[id];
        let centre = r.footprint(unit).centre;
        let ahead = unit.place.facing.vector();
        let mut spots: Vec<Point> = [1.0, 3.0, 5.0, 10.0, 20.0, 40.0]
            .iter()
            .map(|d| centre + ahead * *d)
            .chain([centre + unit.place.facing.right() * 2.0])
            .collect();
        for e in st.units.iter().filter(|e| e.side != side && e.present()) {
            spots.push(r.footprint(e).centre);
        }
        for to in spots {
            let Some(m) =
                r.measure(st, side, &MeasureRequest { unit: u.unit.clone(), to, facing: None })
            else {
                continue;
            };
            assert!(m.path.len() >= 2, "a path from where it stands");
            if let Some(a) = &m.action {
                check(r, st, side, a, draft.as_ref());
                if whole.is_some() {
                    whole = Some(command_of(a, whole.as_ref()));
                }
                // A formation put on the dragged move keeps it legal.
                let with = command_of(a, draft.as_ref());
                for f in u.actions.iter().filter(|f| {
                    matches!(&f.effect, Effect::Draft { at, .. }
                if at.ends_with("/choice/formation") || at.ends_with("/choice/target"))
                }) {
                    check(r, st, side, f, Some(&with));
                }
                dropped += 1;
                if m.path.len() > 2 {
                    liberal += 1;
                    assert!(m.notes.iter().any(|n| n.starts_with("step 1:")), "{:?}", m.notes);
                }
            } else {
                assert!(m.rule.is_some(), "a drop that does nothing names its rule");
            }
        }
    }
    if let (Some(w), Some(_)) = (&whole, &c.draft) {
        let cmd: Command = serde_json::from_value(w.clone()).expect("a command");
        if let Err(e) = r.check(st, Actor::Side(side), &cmd) {
            // Two planned placements may overlap each other (each was measured alone).
            assert!(
                matches!(st.phase, Phase::Deploy { .. }) && e.rule.as_str() == "LIB-M-13",
                "the whole draft is refused: [{}] {}",
                e.rule,
                e.reason
            );
        }
    }
    (dropped, liberal)
}

#[test]
fn every_control_offered_through_a_battle_passes_check() {
    for seed in [3, 7, 11] {
        battle_checks(seed);
    }
}

fn battle_checks(seed: u64) {
    let host = bot::register(bots::with_standard_bots(tabletop::host::Host::new(Liberal::new())));
    let spec = "scripted".parse().expect("a spec");
    let mut bots = [host.new_bot(&spec).expect("a bot"), host.new_bot(&spec).expect("a bot")];
    let mut rng = tabletop::dice::SeededDice::new(seed);
    let mut g = game(seed);
    let (mut dropped, mut liberal, mut declares, mut advances) = (0, 0, 0, 0);
    let mut n = 0;
    while g.outcome().is_none() && n < 60 {
        let st = g.state().clone();
        let r = g.rules().clone();
        for side in g.pending().sides() {
            let (d, l) = check_all(&r, &st, side);
            dropped += d;
            liberal += l;
            assert_eq!(r.roster(&st, Viewer::Side(side)).len(), st.units.len());
        }
        match &st.phase {
            Phase::Turn { stage: Stage::Declare, .. } => declares += 1,
            Phase::Turn { stage: Stage::Liberal { .. }, movers, .. } => {
                advances += 1;
                // The movers' stated objectives are drawn for both sides (LIB-LIBERAL-02).
                let going = movers.iter().filter(|m| m.leg != liberal::state::Leg::Done).count();
                for viewer in [Viewer::Side(Side::Red), Viewer::Side(Side::Blue)] {
                    let moves = r
                        .scene(&st, viewer)
                        .marks
                        .iter()
                        .filter(|m| {
                            m.label.contains(": liberal move to")
                                || m.label.contains(": going back")
                        })
                        .count();
                    assert_eq!(moves, going);
                }
            }
            _ => {}
        }
        let side = g.pending().sides()[0];
        let c = bots[side.index()].choose(&g, side, &mut rng).expect("a command");
        g.submit_json(Actor::Side(side), c).expect("legal");
        n += 1;
    }
    assert!(declares > 2, "step A came round");
    assert!(dropped > 10, "drags gave orders: {dropped}");
    assert!(liberal > 2, "some drags previewed liberal moves: {liberal}");
    eprintln!(
        "seed {seed}: declares {declares} advances {advances} dropped {dropped} liberal {liberal}"
    );
}

#[test]
fn before_the_reveal_a_side_sees_its_own_plan_and_never_the_enemys() {
    let mut g = game(5);
    // The edge first.
    while matches!(g.state().phase, Phase::Edge { .. }) {
        let side = g.pending().sides()[0];
        g.submit(Actor::Side(side), Command::ChooseEdge { south: g.state().side(side).south })
            .expect("an edge");
    }
    let r = g.rules().clone();
    let st = g.state().clone();
    let c = r.controls(&st, Side::Red);
    assert!(c.draft.is_some(), "a plan is drafted");
    // Red moves one unit, blue another, each by the measured drop.
    let mut plans = Vec::new();
    for side in Side::BOTH {
        let u = st.units_of(side).find(|u| u.gun.is_none()).expect("a unit");
        let centre = r.footprint(u).centre;
        let shift = if st.side(side).south { -2.0 } else { 2.0 };
        let to = Point::new(centre.x + 1.5, centre.y + shift);
        let m = r
            .measure(&st, side, &MeasureRequest { unit: u.id.to_string(), to, facing: None })
            .expect("measured");
        let a = m.action.unwrap_or_else(|| panic!("placed: {:?} {:?}", m.rule, m.reason));
        let cmd: Command =
            serde_json::from_value(command_of(&a, c.draft.as_ref().map(|d| &d.command)))
                .expect("a command");
        plans.push((side, u.id, cmd));
    }
    let (_, red_unit, red_cmd) = plans[0].clone();
    g.submit(Actor::Side(Side::Red), red_cmd).expect("red's plan");
    let (_, blue_unit, _) = plans[1].clone();
    let st = g.state().clone();
    let red_sees = r.scene(&st, Viewer::Side(Side::Red));
    let blue_sees = r.scene(&st, Viewer::Side(Side::Blue));
    let at = |s: &tabletop::render::Scene, u: usize| {
        s.pieces.iter().find(|p| p.id.as_deref() == Some(&u.to_string())).expect("drawn").outline
    };
    let placed = r.footprint(&st.units[red_unit]);
    assert!(
        at(&red_sees, red_unit).centre.distance(placed.centre) > 1.0,
        "red sees its unit where its plan puts it"
    );
    assert!(
        at(&blue_sees, red_unit).centre.distance(placed.centre) < 1e-9,
        "blue sees red's unit only where the scenario has it"
    );
    assert!(
        at(&blue_sees, blue_unit).centre.distance(r.footprint(&st.units[blue_unit]).centre) < 1e-9
    );
    assert!(r.view(&st, Viewer::Side(Side::Blue)).own_plan.is_none());
    assert!(r.view(&st, Viewer::Side(Side::Red)).own_plan.is_some());
}

#[test]
fn figures_are_drawn_in_their_ranks_officers_larger_guns_with_their_crews() {
    let g = game(1);
    let (r, st) = (g.rules(), g.state());
    let scene = r.scene(st, Viewer::Side(Side::Red));
    for u in st.units.iter().filter(|u| u.present()) {
        let p = scene
            .pieces
            .iter()
            .find(|p| p.id.as_deref() == Some(u.id.to_string().as_str()))
            .expect("every unit is drawn");
        let gun = usize::from(u.gun.is_some());
        assert_eq!(p.stands.len(), u.strength() + gun, "a stand a figure, and the gun");
        if u.gun.is_none() {
            let least = p.stands.iter().map(|s| s.width).fold(f64::INFINITY, f64::min);
            let most = p.stands.iter().map(|s| s.width).fold(0.0, f64::max);
            assert!(most > least * 1.5, "{}: the commander stands out", u.name);
        }
    }
    let rows = r.roster(st, Viewer::Side(Side::Red));
    assert!(rows.iter().any(|row| row.state.contains("gun ready")));
    assert!(rows.iter().all(|row| row.strength.contains(" of ")));
}
