//! The scripted general: it weighs each liberal move by the fire the engine expects it to draw
//! step by step, forms squares when cavalry comes near, keeps its guns crewed and fires them at
//! the best targets, holds and assaults houses when the numbers favour it, and calls off a
//! move that is going badly. It reads only what is on the table.
//!
//! Also the candidate commands for the random bot and the search.

use crate::Liberal;
use crate::data::Kind;
use crate::state::{
    Choice, Command, Formation, Leg, Objective, Order, Phase, Shot, Stage, State, Unit, UnitId,
};
use bots::{Bot, BotError};
use tabletop::dice::SeededDice;
use tabletop::geometry::Point;
use tabletop::host::Host;
use tabletop::rules::{Actor, RuleSet, Side};

/// Registers the scripted general as `scripted`.
pub fn register(host: Host<Liberal>) -> Host<Liberal> {
    host.with_bot(
        "scripted",
        "the scripted general: weighs liberal moves by the expected fire along the way, forms squares against horse, keeps guns crewed and firing at the best targets, assaults houses at good odds",
        |_spec| Ok(Box::new(bots::Hosted::new(Scripted))),
    )
}

/// The scripted general.
#[derive(Clone, Debug, Default)]
pub struct Scripted;

impl Bot<Liberal> for Scripted {
    fn describe(&self) -> String {
        "scripted".into()
    }

    fn reusable(&self) -> bool {
        true
    }

    fn choose(
        &mut self,
        rules: &Liberal,
        st: &State,
        side: Side,
        _rng: &mut SeededDice,
    ) -> Result<Command, BotError> {
        Ok(decide(rules, st, side))
    }
}

fn enemies(st: &State, side: Side) -> Vec<UnitId> {
    st.units.iter().filter(|u| u.side != side && u.present()).map(|u| u.id).collect()
}

fn nearest(r: &Liberal, st: &State, u: &Unit, among: &[UnitId]) -> Option<(UnitId, f64)> {
    let fp = r.footprint(u);
    among
        .iter()
        .filter(|e| st.units[**e].strength() > 0 || st.units[**e].gun.is_some())
        .map(|e| (*e, fp.distance(&r.footprint(&st.units[*e]))))
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
}

/// A normal move of `u` toward `goal`, as far as its allowance goes (with the wheel counted).
fn step_toward(r: &Liberal, st: &State, u: &Unit, goal: Point, stop_short: f64) -> Option<Choice> {
    let d = u.place.at.distance(goal) - stop_short;
    if d < 0.5 {
        return None;
    }
    let form =
        if u.place.formation == Formation::House { Formation::Line } else { u.place.formation };
    let (allowance, _) = r.allowance(st, u, form, false);
    let face = r.facing_to(u.place.at, goal)?;
    let turned = crate::state::Place { at: u.place.at, facing: face, formation: form };
    let wheel = r.move_cost(u, &u.place, &turned);
    let go = (allowance - wheel - 0.01).min(d);
    if go < 0.25 {
        // Turn first.
        return (wheel <= allowance).then_some(Choice::Normal {
            to: u.place.at,
            facing: Some(face.bearing_degrees()),
            formation: Some(form),
            mount: None,
            target: None,
        });
    }
    let to = crate::preview::toward(u.place.at, goal, go);
    Some(Choice::Normal { to, facing: None, formation: Some(form), mount: None, target: None })
}

fn ok(r: &Liberal, st: &State, side: Side, o: &Order) -> bool {
    r.check(st, Actor::Side(side), &Command::Declare { orders: vec![o.clone()] }).is_ok()
}

/// The scripted general's choice for one unit.
fn plan_unit(r: &Liberal, st: &State, side: Side, u: &Unit) -> Option<Choice> {
    let foes = enemies(st, side);
    let (near, dist) = nearest(r, st, u, &foes)?;
    let kind = r.data.troops[u.troop].kind;
    if u.gun.is_some() {
        let target = crate::turn::best_target(r, st, u.id, true, &foes);
        if let Some((t, shot)) = target
            && r.gun_barred(u, st.game_turn).is_none()
        {
            return Some(Choice::Gun {
                to: None,
                facing: None,
                target: Some(t),
                shot: shot.unwrap_or(Shot::Round),
            });
        }
        if u.strength() >= r.data.rules.artillery.crew_needed && dist > 20.0 {
            let goal = r.footprint(&st.units[near]).centre;
            if let Some(Choice::Normal { to, .. }) = step_toward(r, st, u, goal, 24.0) {
                return Some(Choice::Gun {
                    to: Some(to),
                    facing: None,
                    target: None,
                    shot: Shot::Round,
                });
            }
        }
        return None;
    }
    if u.strength() == 0 {
        return None;
    }
    // Crew an abandoned friendly gun beside us.
    if kind == Kind::Foot
        && let Some(g) = st.units.iter().find(|g| {
            g.side == side
                && g.gun.as_ref().is_some_and(|x| !x.spiked && !x.destroyed)
                && g.strength() < r.data.rules.artillery.crew_needed
                && r.footprint(u).within(&r.footprint(g), 2.0)
        })
        && u.strength() > 6
    {
        return Some(Choice::Crew { gun: g.id, figures: 2 });
    }
    // Go to an unmanned friendly gun near by that no enemy threatens, to crew it next turn.
    if kind == Kind::Foot
        && u.strength() > 6
        && u.place.formation != Formation::House
        && let Some(g) = st.units.iter().find(|g| {
            g.side == side
                && g.gun.as_ref().is_some_and(|x| !x.spiked && !x.destroyed)
                && g.strength() < r.data.rules.artillery.crew_needed
                && r.footprint(u).distance(&r.footprint(g)) < 10.0
                && !foes.iter().any(|e| r.footprint(&st.units[*e]).distance(&r.footprint(g)) < 8.0)
        })
        && let Some(c) = step_toward(r, st, u, r.footprint(g).centre, 1.5)
    {
        return Some(c);
    }
    // Squares against horse.
    let horse_near = foes.iter().any(|e| {
        let x = &st.units[*e];
        r.is_mounted(x) && r.footprint(u).distance(&r.footprint(x)) < 14.0
    });
    if kind == Kind::Foot && horse_near && u.place.formation != Formation::House {
        if u.place.formation != Formation::Square {
            return Some(Choice::Normal {
                to: u.place.at,
                facing: None,
                formation: Some(Formation::Square),
                mount: None,
                target: None,
            });
        }
        return Some(Choice::StandFast { target: None });
    }
    if u.place.formation == Formation::Square && !horse_near {
        return Some(Choice::Normal {
            to: u.place.at,
            facing: None,
            formation: Some(Formation::Line),
            mount: None,
            target: None,
        });
    }
    // Dismounted cavalry remount.
    if kind == Kind::Horse && !u.mounted {
        return Some(Choice::Normal {
            to: u.place.at,
            facing: None,
            formation: None,
            mount: Some(true),
            target: None,
        });
    }
    // Assault: the enemy unit whose taking costs least against the fire along the way.
    let mine = u.strength() as f64;
    let can_fire = foes.iter().any(|e| {
        let t = &st.units[*e];
        r.shooting(st, u, t, true, 1).is_some_and(|s| r.expected_volley(st, &s, u, t) >= 0.3)
    });
    // Weigh each side's men by their hand-to-hand bonus: a +1 wins about 70% of fights.
    let weight = |x: &Unit, extra: i32| {
        let b = r.data.troops[x.troop].hth_bonus * i32::from(r.is_mounted(x)) + extra;
        1.0 + 0.8 * b as f64
    };
    // The enemies worth an assault at the odds, nearest first; only the three nearest are
    // previewed step by step.
    let mut worth: Vec<(f64, UnitId, f64)> = Vec::new();
    for &e in &foes {
        let t = &st.units[e];
        if t.strength() == 0 && t.gun.is_none() {
            continue;
        }
        // Foot that can fire from where it stands assaults only houses.
        if kind != Kind::Horse && can_fire && t.house.is_none() {
            continue;
        }
        let gap = r.footprint(u).distance(&r.footprint(t));
        if gap > 40.0 || (t.gun.is_some() && gap > 24.0) {
            continue;
        }
        let def_extra = i32::from(t.house.is_some() || t.place.formation == Formation::Square);
        let odds = mine * weight(u, 0) / (t.strength().max(1) as f64 * weight(t, def_extra));
        let need = if t.house.is_some() { 1.5 } else { 1.0 };
        if odds >= need {
            worth.push((gap, e, odds));
        }
    }
    worth.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut best: Option<(f64, UnitId)> = None;
    for &(_, e, odds) in worth.iter().take(3) {
        let plan = r.preview(st, u.id, Objective::Unit { unit: e }, None, 12);
        if plan.last().is_none_or(|p| p.contact.is_none()) {
            continue;
        }
        let loss: f64 = plan.iter().map(|p| p.expected).sum();
        if loss > mine * 0.35 {
            continue;
        }
        let score = loss - odds;
        if best.is_none_or(|b| score < b.0) {
            best = Some((score, e));
        }
    }
    if let Some((_, e)) = best
        && (kind == Kind::Horse || !can_fire || st.units[e].house.is_some())
    {
        return Some(Choice::Liberal { objective: Objective::Unit { unit: e }, formation: None });
    }
    if can_fire {
        return Some(Choice::StandFast { target: None });
    }
    // Take an empty house near by.
    if kind == Kind::Foot {
        for (i, a) in st.table.areas.iter().enumerate() {
            if st.houses.get(i).is_none_or(|c| *c < u.strength()) {
                continue;
            }
            if st.units.iter().any(|o| o.house == Some(i) && o.strength() > 0) {
                continue;
            }
            let Some(c) = a.polygon.centroid() else { continue };
            let d = u.place.at.distance(c);
            if d < 14.0 {
                let (allow, _) = r.allowance(st, u, Formation::House, false);
                if d <= allow - 0.1 {
                    return Some(Choice::Normal {
                        to: c,
                        facing: None,
                        formation: None,
                        mount: None,
                        target: None,
                    });
                }
                return step_toward(r, st, u, c, 0.0);
            }
        }
    }
    let goal = r.footprint(&st.units[near]).centre;
    let range = r.small_arms_range(u, false).unwrap_or(12.0);
    step_toward(r, st, u, goal, (range * 0.7).max(3.0)).or(Some(Choice::StandFast { target: None }))
}

/// The scripted general's command.
pub fn decide(r: &Liberal, st: &State, side: Side) -> Command {
    match &st.phase {
        Phase::Edge { .. } => Command::ChooseEdge { south: st.side(side).south },
        Phase::Deploy { .. } => Command::Deploy { placements: Vec::new() },
        Phase::Turn { stage: Stage::Declare, .. } => {
            let mut orders = Vec::new();
            for u in st.units_of(side).filter(|u| u.present()) {
                if let Some(c) = plan_unit(r, st, side, u) {
                    let o = Order { unit: u.id, choice: c };
                    if ok(r, st, side, &o) {
                        orders.push(o);
                    }
                }
            }
            Command::Declare { orders }
        }
        Phase::Turn { stage: Stage::Liberal { .. }, movers, .. } => {
            let call_off = movers
                .iter()
                .filter(|m| m.leg == Leg::Forward && m.steps >= 1)
                .filter(|m| {
                    let u = &st.units[m.unit];
                    let start = u.figures.len().max(1) as f64;
                    let ahead: f64 = r
                        .preview(st, m.unit, m.objective, None, 6)
                        .iter()
                        .map(|p| p.expected)
                        .sum();
                    (u.strength() as f64) < start * 0.4 || ahead > u.strength() as f64 * 0.5
                })
                .map(|m| m.unit)
                .collect();
            Command::Advance { call_off, reform: Vec::new() }
        }
        Phase::Turn { stage: Stage::Reform { .. }, .. } => Command::Reform { formation: None },
        Phase::Over => Command::Advance { call_off: Vec::new(), reform: Vec::new() },
    }
}

/// Candidate commands for the random bot and the search: the scripted choice, holding, and a
/// varied set of moves; each passes `check`.
pub fn candidates(r: &Liberal, st: &State, side: Side, rng: &mut SeededDice) -> Vec<Command> {
    use tabletop::dice::DiceSource;
    let mut out = vec![decide(r, st, side)];
    match &st.phase {
        Phase::Edge { .. } => out.push(Command::ChooseEdge { south: !st.side(side).south }),
        Phase::Turn { stage: Stage::Declare, .. } => {
            out.push(Command::Declare { orders: Vec::new() });
            let foes = enemies(st, side);
            for _ in 0..3 {
                let mut orders = Vec::new();
                for u in st.units_of(side).filter(|u| u.present() && u.strength() > 0) {
                    let roll = rng.face(tabletop::dice::Die::D6);
                    let Some((e, _)) = nearest(r, st, u, &foes) else { continue };
                    let goal = r.footprint(&st.units[e]).centre;
                    let c = match roll {
                        1 | 2 => Some(Choice::StandFast { target: None }),
                        3 | 4 if u.gun.is_none() => step_toward(r, st, u, goal, 2.0 * roll as f64),
                        5 if u.gun.is_none() => Some(Choice::Liberal {
                            objective: Objective::Unit { unit: e },
                            formation: None,
                        }),
                        _ => plan_unit(r, st, side, u),
                    };
                    if let Some(c) = c {
                        let o = Order { unit: u.id, choice: c };
                        if ok(r, st, side, &o) {
                            orders.push(o);
                        }
                    }
                }
                out.push(Command::Declare { orders });
            }
        }
        Phase::Turn { stage: Stage::Liberal { .. }, movers, .. } => {
            out.push(Command::Advance { call_off: Vec::new(), reform: Vec::new() });
            let all: Vec<UnitId> = movers
                .iter()
                .filter(|m| m.leg == Leg::Forward && m.steps >= 1)
                .map(|m| m.unit)
                .collect();
            out.push(Command::Advance { call_off: all, reform: Vec::new() });
        }
        Phase::Turn { stage: Stage::Reform { .. }, .. } => {
            for f in [Formation::Line, Formation::Column] {
                out.push(Command::Reform { formation: Some(f) });
            }
        }
        _ => {}
    }
    out.retain(|c| r.check(st, Actor::Side(side), c).is_ok());
    out.dedup();
    out
}
