//! Events told as log lines, each with the rules it applies and the figures it was made of.

use crate::geom::{fmt_in, fmt_pt};
use crate::state::{Event, MeleeSide, Morale, Secret};
use tabletop::dice::Roll;
use tabletop::rules::RuleId;

fn ids(v: &[&'static str]) -> Vec<RuleId> {
    v.iter().map(|r| RuleId::new(r)).collect()
}

/// Game time in seconds as the log writes it: `4s`, `16.5s`.
pub fn secs(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    if (s - s.round()).abs() < 1e-9 { format!("{}s", s.round() as u64) } else { format!("{s:.1}s") }
}

fn morale(m: &Morale) -> String {
    match m {
        Morale::Steady => "steady".into(),
        Morale::Broken { roll_from } => format!("shaken, rolls at game move {roll_from}"),
        Morale::Wavering { roll_from } => {
            format!("wavering (may not advance), rolls again at game move {roll_from}")
        }
    }
}

fn dice(r: &[Roll]) -> String {
    r.iter().map(|x| x.value.to_string()).collect::<Vec<_>>().join(", then ")
}

fn side_total(s: &MeleeSide) -> String {
    let parts: Vec<String> = s.stands.iter().map(|x| x.3.clone()).collect();
    let value = s.halves as f64 / 2.0;
    let die = s.rolls.last().map_or(0, |r| r.value);
    format!(
        "{}: {} = {} points counted, value {}; die {} × {} = {}",
        s.side,
        parts.join(" + "),
        s.points,
        fmt_in(value),
        dice(&s.rolls),
        fmt_in(value),
        fmt_in(die as f64 * value)
    )
}

/// The rules an event applies.
pub fn rules(e: &Event) -> Vec<RuleId> {
    match e {
        Event::MoveBegun { .. } => ids(&["FMT-SEQ-01"]),
        Event::Recovery { rules, .. } => rules.clone(),
        Event::Ready { .. } => ids(&["FMT-TIME-01", "FMT-R-30"]),
        Event::SquareFormed { .. } => ids(&["FMT-SQ-01"]),
        Event::SquareGone { rule, .. } => vec![rule.clone()],
        Event::Flagged { .. } => ids(&["FMT-FC-01", "FMT-FC-02", "FMT-R-22"]),
        Event::WindowOpened { rules, .. } => rules.clone(),
        Event::StepBegun { .. } => ids(&["FMT-TIME-06", "FMT-R-01", "FMT-R-05"]),
        Event::Waited { .. } => ids(&["FMT-TIME-14", "FMT-R-08"]),
        Event::Finished { .. } => ids(&["FMT-TIME-06"]),
        Event::Stepped { rules, .. } => rules.clone(),
        Event::Contact { .. } => {
            ids(&["FMT-TIME-11", "FMT-TIME-12", "FMT-TIME-13", "FMT-FIRE-10", "FMT-R-07"])
        }
        Event::StepVoid { rule, .. } => vec![rule.clone()],
        Event::TimeCalled { .. } => ids(&["FMT-TIME-16", "FMT-R-11"]),
        Event::WindowClosed { .. } => ids(&["FMT-TIME-10"]),
        Event::Submitted { orders, .. } => match orders {
            Secret::Deploy { .. } => ids(&["FMT-NIS-01"]),
            Secret::Rearrange { .. } => ids(&["FMT-REARR-01", "FMT-R-33"]),
            Secret::Fire { .. } => ids(&["FMT-TIME-15", "FMT-R-35"]),
            Secret::PullOut { .. } => ids(&["FMT-MELEE-22", "FMT-R-29"]),
        },
        Event::Deployed { .. } => ids(&["FMT-NIS-01"]),
        Event::Rearranged { .. } => ids(&["FMT-REARR-01", "FMT-REARR-02"]),
        Event::NotRearranged { rule, .. } => vec![rule.clone()],
        Event::Shot { rules, .. } => rules.clone(),
        Event::Killed { rule, .. } => {
            vec![rule.clone(), RuleId::new("FMT-ROS-03"), RuleId::new("FMT-ROS-06")]
        }
        Event::Removed { rule, .. } => vec![rule.clone()],
        Event::BowmenMorale { .. } => ids(&["FMT-MOR-01", "FMT-FIRE-13"]),
        Event::Charged { .. } => ids(&["FMT-FC-04"]),
        Event::Lapsed { .. } => ids(&["FMT-R-22"]),
        Event::Fought { rules, .. } => rules.clone(),
        Event::Continues { .. } => ids(&["FMT-MELEE-08", "FMT-MELEE-10"]),
        Event::Ended { rule, .. } => vec![rule.clone()],
        Event::Retreated { rules, .. } => rules.clone(),
        Event::PulledOut { .. } => ids(&["FMT-MELEE-22", "FMT-MELEE-24", "FMT-R-29"]),
        Event::Closed { .. } => ids(&["FMT-MELEE-09", "FMT-R-28"]),
        Event::BonusMoved { chain, .. } => {
            if *chain > 0 {
                ids(&["FMT-MELEE-14", "FMT-MELEE-17", "FMT-R-26"])
            } else {
                ids(&["FMT-MELEE-14", "FMT-R-25", "FMT-R-26"])
            }
        }
        Event::PhaseBegun { .. } => ids(&["FMT-R-30"]),
        Event::NoCombat { .. } => ids(&["FMT-TIME-17", "FMT-R-11"]),
        Event::BattleOver { .. } => ids(&["FMT-SEQ-01"]),
        Event::Noted { rules, .. } => rules.clone(),
        Event::Mustered { .. } => ids(&["FMT-ROS-01", "FMT-ROS-02", "FMT-ROS-07"]),
    }
}

/// An event in words.
pub fn describe(e: &Event) -> String {
    match e {
        Event::MoveBegun { game_move } => format!("game move {game_move} begins"),
        Event::Recovery { who, roll, morale: m, .. } => {
            format!("{who} rolls {} to recover: {}", roll.value, morale(m))
        }
        Event::Ready { side, orders } => {
            let mut parts = Vec::new();
            if !orders.keep.is_empty() {
                parts.push(format!("{} square(s) stay squares", orders.keep.len()));
            }
            if !orders.form.is_empty() {
                parts.push(format!("forms {} square(s)", orders.form.len()));
            }
            if !orders.fire_and_charge.is_empty() {
                parts.push(format!(
                    "calls Fire and Charge for {} stand(s)",
                    orders.fire_and_charge.len()
                ));
            }
            if parts.is_empty() {
                format!("{side} is ready")
            } else {
                format!("{side} is ready: {}", parts.join("; "))
            }
        }
        Event::SquareFormed { square, .. } => {
            format!("{} forms square {} of {} stands", square.side, square.id, square.stands.len())
        }
        Event::SquareGone { square, why, .. } => format!("square {square} is broken: {why}"),
        Event::Flagged { who, at_ms, .. } => {
            format!("{who} calls a Fire and Charge at {}", secs(*at_ms))
        }
        Event::WindowOpened { length_ms, basis, tie, rolls, .. } => format!(
            "the timed move begins: {} on the clock ({basis}); initiative dice {} — {tie} wins the initiative and goes first at ties, the sides taking turns every handling time",
            secs(*length_ms),
            dice(rolls)
        ),
        Event::StepBegun { side, flight } => format!(
            "{side} begins a step at {}, landing at {}",
            secs(flight.issued_ms),
            secs(flight.lands_ms)
        ),
        Event::Waited { side, at_ms, until_ms } => {
            format!("{side} watches from {} to {}", secs(*at_ms), secs(*until_ms))
        }
        Event::Finished { side, at_ms } => {
            format!("{side} moves no more this timed move ({})", secs(*at_ms))
        }
        Event::Stepped { who, at_ms, from, to, length, cost, allowance, items, basis, .. } => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| {
                    if (i.factor - 1.0).abs() < 1e-9 {
                        format!("{}\" {} [{}]", fmt_in(i.inches), i.what, i.rule)
                    } else {
                        format!(
                            "{}\" {} ×{} [{}]",
                            fmt_in(i.inches),
                            i.what,
                            fmt_in(i.factor),
                            i.rule
                        )
                    }
                })
                .collect();
            format!(
                "{}: {who} steps {}\" from {} to {} (cost {}\" = {}; allowance {}\", {basis})",
                secs(*at_ms),
                fmt_in(*length),
                fmt_pt(from.centre),
                fmt_pt(to.centre),
                fmt_in(*cost),
                if parts.is_empty() { "0".into() } else { parts.join(" + ") },
                fmt_in(*allowance)
            )
        }
        Event::Contact { names, at_ms, uphill, .. } => format!(
            "{}: {} touches {}: both are frozen in melee contact (no missiles while charging), stands beside and behind them still free{}",
            secs(*at_ms),
            names.0,
            names.1,
            if *uphill { " (it came up the hill)" } else { "" }
        ),
        Event::StepVoid { side, at_ms, why, .. } => {
            format!("{side}'s step landing at {} does not happen: {why}", secs(*at_ms))
        }
        Event::TimeCalled { side, at_ms } => format!(
            "{side} calls \"Time!\" at {}: movement stops, no combat this game move",
            secs(*at_ms)
        ),
        Event::WindowClosed { at_ms, void } => {
            if void.is_empty() {
                format!("the bell rings at {}: all movement stops", secs(*at_ms))
            } else {
                let v: Vec<String> = void.iter().map(|s| s.to_string()).collect();
                format!(
                    "the bell rings at {}: all movement stops; the step {} had under way does not happen",
                    secs(*at_ms),
                    v.join(" and ")
                )
            }
        }
        Event::Deployed { who, to, .. } => format!("{who} is deployed at {}", fmt_pt(to.centre)),
        Event::Submitted { side, orders } => match orders {
            Secret::Deploy { .. } => format!("{side} has placed its stands"),
            Secret::Rearrange { .. } => format!("{side} hands in its rearrangement"),
            Secret::Fire { .. } => format!("{side} names its targets"),
            Secret::PullOut { .. } => format!("{side} declares whether it pulls out"),
        },
        Event::Rearranged { who, from, to, .. } => {
            format!("{who} is rearranged from {} to {}", fmt_pt(from.centre), fmt_pt(to.centre))
        }
        Event::NotRearranged { who, why, .. } => format!("{who} cannot be rearranged: {why}"),
        Event::Shot { names, weapon, row, roll, hit, .. } => {
            let how = match roll {
                None => "an automatic kill".to_string(),
                Some(r) => format!("rolls {}", r.value),
            };
            format!(
                "{} shoots {weapon} at {} ({row}): {how} — {}",
                names.0,
                names.1,
                if *hit { "1 point killed" } else { "a miss" }
            )
        }
        Event::Killed { who, kills, left, cause, .. } => {
            format!("{who} loses {kills} point(s) to {cause}: {left} left on the roster")
        }
        Event::Removed { who, why, .. } => format!("{who} is removed: {why}"),
        Event::BowmenMorale { red, blue, loser } => format!(
            "bowmen's morale: red {} points, dice {}; blue {} points, dice {}: {loser}'s bowmen retreat",
            red.1,
            dice(&red.2),
            blue.1,
            dice(&blue.2)
        ),
        Event::Charged { who, to, .. } => {
            format!("{who} charges home after its javelins, to {}", fmt_pt(to.centre))
        }
        Event::Lapsed { who, why, .. } => format!("{who}'s Fire and Charge lapses: {why}"),
        Event::Fought { melee, round, single, red, blue, winner, losses, .. } => {
            let kind = match (round, single) {
                (0, Some(why)) => format!("melee {melee}, a single round: {why}"),
                (0, None) => format!("melee {melee}, a single round"),
                (r, _) => format!("melee {melee}, round {r}"),
            };
            format!(
                "{kind} — {}; {} — {winner} wins: the loser loses {} (half its counted points, rounded up), the winner {} (half of that)",
                side_total(red),
                side_total(blue),
                losses.0,
                losses.1
            )
        }
        Event::Continues { melee } => format!(
            "melee {} goes on: its stands stay frozen through the next timed move, and round 2 is fought at the end of game move {}",
            melee.id, melee.round_two
        ),
        Event::Ended { melee, why, .. } => format!("melee {melee} is over: {why}"),
        Event::Retreated { who, from, to, moves, morale: m, .. } => format!(
            "{who} falls back {} move(s), from {} to {}, its back to the enemy: {}",
            moves,
            fmt_pt(from.centre),
            fmt_pt(to.centre),
            morale(m)
        ),
        Event::PulledOut { side, melee, points, penalty } => format!(
            "{side} pulls out of melee {melee}: 20% of its {points} points, {penalty}, is lost"
        ),
        Event::Closed { who, to, .. } => {
            format!("{who} closes up face to face, to {}", fmt_pt(to.centre))
        }
        Event::BonusMoved { who, from, to, chain, .. } => format!(
            "{who} makes a bonus move{} from {} to {}",
            if *chain > 0 { format!(" (chain {})", chain + 1) } else { String::new() },
            fmt_pt(from.centre),
            fmt_pt(to.centre)
        ),
        Event::PhaseBegun { phase } => match phase {
            crate::state::Phase::Deploy { .. } => {
                "both sides place their stands near their own edges, in secret (not in the source)"
                    .into()
            }
            crate::state::Phase::Ready { .. } => {
                "both sides declare squares and Fire and Charge, then say they are ready".into()
            }
            crate::state::Phase::Window { .. } => "the timed move".into(),
            crate::state::Phase::Rearrange { .. } => {
                "stands not engaged and out of missile range may be tidied up, sideways or back"
                    .into()
            }
            crate::state::Phase::Fire { .. } => {
                "missile fire: both sides name their targets".into()
            }
            crate::state::Phase::PullOut { melees, .. } => {
                format!("after round 1 of {} melee(s), each side may pull out", melees.len())
            }
            crate::state::Phase::Bonus { queue } => format!(
                "{} wins a bonus move for {} stand(s)",
                queue[0].side,
                queue[0].stands.len()
            ),
            crate::state::Phase::Over => "the battle is over".into(),
        },
        Event::NoCombat { game_move } => format!(
            "\"Time\" was called: no fire or melee in game move {game_move}; contacts stand for the next timed move"
        ),
        Event::Noted { text, .. } => text.clone(),
        Event::Mustered { side, stands, points, types } => {
            let t: Vec<String> =
                types.iter().map(|(n, c, p)| format!("{c} {n} of {p} points")).collect();
            format!(
                "{side} musters {stands} stands on 2\" × 1.75\" trays, {points} points: {}",
                t.join(", ")
            )
        }
        Event::BattleOver { winner, reason } => match winner {
            Some(w) => format!("{w} wins: {reason}"),
            None => format!("a draw: {reason}"),
        },
    }
}
