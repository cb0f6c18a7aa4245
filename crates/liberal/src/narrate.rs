//! Each event told in words for the battle log, with the rules it applied.

use crate::state::{Event, Hit, Leg, Objective, Order};
use tabletop::rules::{Narrate, RuleId};

fn rid(v: &[RuleId]) -> Vec<RuleId> {
    v.to_vec()
}

/// The `i`-th name an event carries, or the unit's number where it has none.
fn nm(names: &[String], i: usize, id: usize) -> String {
    match names.get(i) {
        Some(n) if !n.is_empty() => n.clone(),
        _ => format!("unit {id}"),
    }
}

fn hits(h: &[Hit]) -> String {
    if h.is_empty() {
        return "no one hit".into();
    }
    let v: Vec<String> =
        h.iter().map(|x| format!("die {} → figure {} {:?}", x.die, x.number, x.fate)).collect();
    v.join("; ")
}

fn order(o: &Order, names: &[String]) -> String {
    use crate::state::Choice::*;
    let n = |id: usize| nm(names, id, id);
    match &o.choice {
        StandFast { target: None } => "stand fast".to_string(),
        StandFast { target: Some(t) } => format!("stand fast, firing at {}", n(*t)),
        Normal { mount: Some(m), .. } => {
            if *m {
                "mount".into()
            } else {
                "dismount".into()
            }
        }
        Normal { to, formation, .. } => format!(
            "normal move to ({:.1}, {:.1}){}",
            to.x,
            to.y,
            formation.map(|f| format!(" in {}", f.name())).unwrap_or_default()
        ),
        Liberal { objective, .. } => match objective {
            Objective::Point { at } => format!("liberal move to ({:.1}, {:.1})", at.x, at.y),
            Objective::Unit { unit } => format!("liberal move to assault {}", n(*unit)),
        },
        Gun { to, target, shot, .. } => format!(
            "gun{}{}",
            to.map(|p| format!(" to ({:.1}, {:.1})", p.x, p.y)).unwrap_or_default(),
            target
                .map(|t| format!(
                    ", {} at {}",
                    if *shot == crate::state::Shot::Grape { "grape" } else { "round shot" },
                    n(t)
                ))
                .unwrap_or_else(|| ", no target".to_string())
        ),
        Spike { gun } => format!("spike the gun of {}", n(*gun)),
        Crew { gun, figures } => format!("send {figures} to crew {}", n(*gun)),
    }
}

impl Narrate for Event {
    fn rules(&self) -> Vec<RuleId> {
        let one = |s: &'static str| vec![RuleId::new(s)];
        match self {
            Event::RollOff { rule, .. } => rid(std::slice::from_ref(rule)),
            Event::EdgeTaken { .. } => one("LIB-START-03"),
            Event::Deployed { .. } => one("LIB-START-04"),
            Event::Laid { .. } => vec![RuleId::new("LIB-START-01"), RuleId::new("LIB-START-02")],
            Event::Revealed => vec![RuleId::new("LIB-START-04"), RuleId::new("LIB-START-05")],
            Event::TurnBegins { .. } => vec![RuleId::new("LIB-SEQ-01"), RuleId::new("LIB-R-14")],
            Event::Rejoined { .. } => one("LIB-R-33"),
            Event::Declared { orders, .. } => {
                use crate::state::Choice;
                let mut v = vec![RuleId::new("LIB-SEQ-02"), RuleId::new("LIB-CHOICE-01")];
                if orders.iter().any(|o| matches!(o.choice, Choice::Liberal { .. })) {
                    v.extend([RuleId::new("LIB-LIBERAL-02"), RuleId::new("LIB-LIBERAL-03")]);
                }
                if orders.iter().any(|o| matches!(o.choice, Choice::Gun { .. })) {
                    v.push(RuleId::new("LIB-SEQ-03"));
                }
                v
            }
            Event::Moved { rules, .. }
            | Event::Fired { rules, .. }
            | Event::Cannon { rules, .. }
            | Event::Morale { rules, .. }
            | Event::Leg { rules, .. }
            | Event::Melee { rules, .. } => rid(rules),
            Event::HitsApplied { .. } => {
                vec![
                    RuleId::new("LIB-FIRE-03"),
                    RuleId::new("LIB-CAS-07"),
                    RuleId::new("LIB-CAS-08"),
                    RuleId::new("LIB-CAS-09"),
                ]
            }
            Event::FlagTaken { .. } => one("LIB-R-35"),
            Event::Spiked { die, .. } => {
                vec![die.rule.clone(), RuleId::new("LIB-ART-15"), RuleId::new("LIB-ART-16")]
            }
            Event::Crewed { .. } => vec![RuleId::new("LIB-ART-01"), RuleId::new("LIB-M-19")],
            Event::GunTaken { .. } => one("LIB-HTH-15"),
            Event::Reformed { .. } => one("LIB-HTH-14"),
            Event::Staged { stage } => match stage {
                crate::state::Stage::Liberal { .. } => vec![
                    RuleId::new("LIB-SEQ-07"),
                    RuleId::new("LIB-LIBERAL-08"),
                    RuleId::new("LIB-LIBERAL-09"),
                ],
                crate::state::Stage::Reform { .. } => {
                    vec![RuleId::new("LIB-SEQ-07"), RuleId::new("LIB-HTH-14")]
                }
                crate::state::Stage::Declare => one("LIB-SEQ-07"),
            },
            Event::MoversSet { .. } => {
                vec![RuleId::new("LIB-SEQ-06"), RuleId::new("LIB-LIBERAL-13")]
            }
            Event::Demoted { .. } => vec![RuleId::new("LIB-ART-14"), RuleId::new("LIB-R-25")],
            Event::ChangeOrdered { .. } => one("LIB-LIBERAL-07"),
            Event::Mounted { .. } => one("LIB-M-10"),
            Event::StageSet { .. } => one("LIB-SEQ-07"),
            Event::Night { .. } => vec![
                RuleId::new("LIB-DAY-01"),
                RuleId::new("LIB-DAY-02"),
                RuleId::new("LIB-DAY-03"),
                RuleId::new("LIB-DAY-04"),
                RuleId::new("LIB-R-36"),
            ],
            Event::Ended { .. } => one("LIB-M-17"),
        }
    }

    fn describe(&self) -> String {
        match self {
            Event::RollOff { what, rolls, winner, .. } => {
                let v: Vec<String> =
                    rolls.iter().map(|(r, b)| format!("red {r}, blue {b}")).collect();
                format!("roll for {what}: {}; {winner} wins", v.join(", then "))
            }
            Event::EdgeTaken { side, south } => {
                format!("{side} takes the {} edge", if *south { "south" } else { "north" })
            }
            Event::Deployed { side, .. } => format!("{side} has drawn up its positions in secret"),
            Event::Laid { units, terrain } => format!(
                "the table is laid with {terrain} pieces of terrain; red fields {} units, blue {}",
                units[0], units[1]
            ),
            Event::Revealed => "both plans are revealed and the troops set up".into(),
            Event::TurnBegins { side, game_turn, day, .. } => {
                format!("day {day}, game turn {game_turn}: {side}'s turn")
            }
            Event::Rejoined { units } => {
                let n: usize = units.iter().map(|u| u.1.len()).sum();
                format!("{n} runners rejoin the rear ranks")
            }
            Event::Declared { side, orders, names } => {
                let v: Vec<String> = orders
                    .iter()
                    .map(|o| format!("{}: {}", nm(names, o.unit, o.unit), order(o, names)))
                    .collect();
                format!("{side} declares: {}", v.join("; "))
            }
            Event::Moved { moved, .. } => format!(
                "{} moves {:.2}\" (allowance {:.2}\": {}) to ({:.1}, {:.1}) in {}",
                nm(&moved.names, 0, moved.unit),
                moved.used,
                moved.allowance,
                moved.basis,
                moved.to.at.x,
                moved.to.at.y,
                moved.to.formation.name()
            ),
            Event::Fired { volley: v, hits: h, .. } => format!(
                "{} fires at {}: {} figures ({}) at {:.1}\", {} band (stand-in chart), 1 per {}: {} + {}{} − {} cover = {} casualties; count: {}",
                nm(&v.names, 0, v.firer),
                nm(&v.names, 1, v.target),
                v.figures,
                v.basis,
                v.distance,
                v.band,
                v.per_casualty,
                v.base,
                v.extra,
                v.remainder
                    .as_ref()
                    .map(|r| format!(" (remainder die {})", r.value))
                    .unwrap_or_default(),
                v.cover,
                v.casualties,
                hits(h)
            ),
            Event::Cannon { shot: c, hits: h, .. } => format!(
                "{} fires {} at {} ({:.1}\"): to hit {}, casualty die {}{}, cover −{} = {} casualties{}; count: {}",
                nm(&c.names, 0, c.gun),
                match c.shot {
                    crate::state::Shot::Round => "round shot",
                    crate::state::Shot::Grape => "grape",
                },
                nm(&c.names, 1, c.target),
                c.distance,
                c.to_hit.as_ref().map_or("none needed".to_string(), |r| format!(
                    "{} ({})",
                    r.value,
                    if c.hit { "hit" } else { "miss" }
                )),
                c.casualty_die.as_ref().map_or("-".to_string(), |r| r.value.to_string()),
                c.crew_die.as_ref().map(|r| format!(", crew die {}", r.value)).unwrap_or_default(),
                c.cover,
                c.casualties,
                if c.destroyed { "; the gun is destroyed" } else { "" },
                hits(h)
            ),
            Event::HitsApplied { hits } => {
                let n: usize = hits.iter().map(|h| h.1.len()).sum();
                format!("{n} hits of the exchange take effect together")
            }
            Event::FlagTaken { unit, bearer } => match bearer {
                Some(b) => format!("unit {unit}: figure {} takes up the colours", b + 1),
                None => format!("unit {unit}: no one is left to carry the colours"),
            },
            Event::Morale { unit, going_back, names, .. } => {
                let who = nm(names, 0, *unit);
                if *going_back {
                    format!("{who}'s morale figure is hit with a 1: it turns back to its start")
                } else {
                    format!("{who}'s morale figure is hit with a 1: it falls back a move")
                }
            }
            Event::Leg { unit, leg, why, names, .. } => {
                let l = match leg {
                    Leg::Forward => "goes forward",
                    Leg::Back => "turns about and goes back",
                    Leg::Done => "has finished its move",
                };
                format!("{} {l}: {why}", nm(names, 0, *unit))
            }
            Event::Spiked { gun, die, spiked } => format!(
                "spiking the gun of unit {gun}: die {} — {}",
                die.value,
                if *spiked { "spiked" } else { "not spiked" }
            ),
            Event::Crewed { from, gun, figures } => {
                format!("{} figures of unit {from} crew the gun of unit {gun}", figures.len())
            }
            Event::Melee {
                attacker, defenders, fights, ranks, attacker_won, house, names, ..
            } => {
                let them: Vec<String> =
                    defenders.iter().enumerate().map(|(i, d)| nm(names, i + 1, *d)).collect();
                let v: Vec<String> = fights
                    .iter()
                    .map(|f| {
                        format!(
                            "{}+{} v {}+{} {} ({:?})",
                            f.attacker_roll.0,
                            f.attacker_roll.1,
                            f.defender_roll.0,
                            f.defender_roll.1,
                            if f.attacker_won { "A" } else { "D" },
                            f.fate
                        )
                    })
                    .collect();
                let how = if *house {
                    "settled by three fights lost in a row".to_string()
                } else {
                    let n = ranks.len();
                    format!("{n} rank{} beaten", if n == 1 { "" } else { "s" })
                };
                format!(
                    "{}hand-to-hand: {} against {}: {} single fights, {how}; the {} wins. Fights: {}",
                    if *house { "house " } else { "" },
                    nm(names, 0, *attacker),
                    them.join(", "),
                    fights.len(),
                    if *attacker_won { "attacker" } else { "defender" },
                    v.join(", ")
                )
            }
            Event::GunTaken { from, unit } => {
                format!("the gun of unit {from} is taken by {} as {}", unit.side, unit.name)
            }
            Event::Reformed { unit, formation } => {
                format!("unit {unit} re-forms in {}", formation.name())
            }
            Event::Staged { .. } | Event::StageSet { .. } => "the turn goes on".into(),
            Event::MoversSet { movers } => {
                format!("step E: {} liberal movers advance together", movers.len())
            }
            Event::Demoted { unit } => {
                format!("unit {unit}'s horse gun has lost its artillerymen: a foot gun from now on")
            }
            Event::ChangeOrdered { unit, formation } => {
                format!("unit {unit} will form {} on its next step", formation.name())
            }
            Event::Mounted { unit, mounted } => {
                format!("unit {unit} {}", if *mounted { "mounts" } else { "dismounts" })
            }
            Event::Night { day, summary, returned, evacuated, .. } => {
                let v: Vec<String> = summary
                    .iter()
                    .map(|r| {
                        format!(
                            "{}: {} in ranks, {} dead, {} wounded, {} walking wounded, {} captured, colours {:?}",
                            r.name, r.ranks, r.dead, r.wounded, r.walking_wounded, r.captured, r.flag
                        )
                    })
                    .collect();
                let back: usize = returned.iter().map(|r| r.1.len()).sum();
                format!(
                    "night after day {day}: {back} walking wounded return, {} wounded carried off. {}",
                    evacuated.len(),
                    v.join("; ")
                )
            }
            Event::Ended { outcome, points } => {
                let who = match outcome.winner {
                    Some(s) => format!("{s} wins"),
                    None => "a draw".to_string(),
                };
                format!(
                    "the battle ends, {who}: {}; points red {}, blue {}",
                    outcome.reason, points[0], points[1]
                )
            }
        }
    }
}
