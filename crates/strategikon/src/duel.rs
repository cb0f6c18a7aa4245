//! `strategikon duel`: the exact odds of one combat, by enumerating the dice.

use anyhow::bail;
use othw::Othw;
use othw::combat::Aspect;
use othw::data::UnitType;
use othw::duel::{DuelGeneral, DuelOdds, Fighter, Ratio, SideOdds};
use serde_json::json;
use tabletop::grid::CellTerrain;

/// Where the fight happens, as the issue names the cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DuelTerrain {
    /// The defender stands in a wood.
    Wood,
    /// The defender stands in a ford.
    Ford,
    /// The attacker charges down from a hill onto a defender below.
    Downhill,
}

/// What the user asked for.
pub struct DuelQuestion<'a> {
    /// The attacking unit type (`NAME` or `ROSTER:NAME`).
    pub attacker: &'a str,
    /// The defending unit type.
    pub defender: &'a str,
    /// The attack comes from the defender's rear.
    pub rear: bool,
    /// The attack comes from the defender's flank.
    pub flank: bool,
    /// The ground.
    pub terrain: Option<DuelTerrain>,
    /// A general with the attacker.
    pub general: Option<&'a str>,
}

/// Looks a unit type up by `NAME` (searching every roster) or `ROSTER:NAME`.
fn unit_type(rules: &Othw, spec: &str) -> anyhow::Result<UnitType> {
    let (roster, name) = match spec.split_once(':') {
        Some((r, n)) => (Some(r.trim()), n.trim()),
        None => (None, spec.trim()),
    };
    let found: Vec<&UnitType> = rules
        .data
        .rosters
        .iter()
        .filter(|r| roster.is_none_or(|want| r.id.eq_ignore_ascii_case(want)))
        .flat_map(|r| r.types.iter())
        .filter(|t| t.name.eq_ignore_ascii_case(name))
        .collect();
    match found.as_slice() {
        [one] => Ok((*one).clone()),
        [] => {
            let known: Vec<String> = rules
                .data
                .rosters
                .iter()
                .flat_map(|r| r.types.iter().map(move |t| format!("{}:{}", r.id, t.name)))
                .collect();
            bail!("unknown unit '{spec}': known units are {}", known.join(", "))
        }
        [first, rest @ ..]
            if rest
                .iter()
                .all(|t| UnitType { roster: first.roster.clone(), ..(*t).clone() } == **first) =>
        {
            // The same profile under several rosters (a warband is a warband).
            Ok((*first).clone())
        }
        many => {
            let rosters: Vec<&str> = many.iter().map(|t| t.roster.as_str()).collect();
            bail!(
                "'{name}' is in several rosters ({}): say which, e.g. '{}:{name}'",
                rosters.join(", "),
                rosters[0]
            )
        }
    }
}

fn ratio(r: Ratio) -> serde_json::Value {
    json!({ "exact": r.to_string(), "p": r.to_f64() })
}

fn side(s: &SideOdds) -> serde_json::Value {
    json!({
        "dice": s.dice,
        "needs": s.need,
        "hits_taken": s.hits_taken.iter().map(|r| ratio(*r)).collect::<Vec<_>>(),
        "wins": ratio(s.wins),
        "breaks": ratio(s.breaks),
        "rampages": ratio(s.rampages),
        "retreat_tests_failed": s.retreat.iter().map(|r| ratio(*r)).collect::<Vec<_>>(),
    })
}

/// Computes the odds and returns them as JSON, with a text rendering.
pub fn answer(q: &DuelQuestion) -> anyhow::Result<(serde_json::Value, String)> {
    if q.rear && q.flank {
        bail!("an attack comes from the flank or from the rear, not both");
    }
    let rules = Othw::new();
    let mut attacker = Fighter::new(unit_type(&rules, q.attacker)?);
    let mut defender = Fighter::new(unit_type(&rules, q.defender)?);
    match q.terrain {
        Some(DuelTerrain::Wood) => defender.terrain = CellTerrain::Wood,
        Some(DuelTerrain::Ford) => defender.terrain = CellTerrain::Ford,
        Some(DuelTerrain::Downhill) => attacker.terrain = CellTerrain::Hill,
        None => {}
    }
    if let Some(name) = q.general {
        let Some(g) = rules.data.generals.iter().find(|g| g.name.eq_ignore_ascii_case(name)) else {
            let known: Vec<&str> = rules.data.generals.iter().map(|g| g.name.as_str()).collect();
            bail!("unknown general '{name}': known generals are {}", known.join(", "));
        };
        attacker.general = Some(DuelGeneral::of(g));
    }
    let aspect = if q.rear {
        Aspect::Rear
    } else if q.flank {
        Aspect::Flank
    } else {
        Aspect::Front
    };
    let odds: DuelOdds = rules.duel(&attacker, &defender, aspect, attacker.general.is_some());
    let value = json!({
        "attacker": { "unit": format!("{}:{}", attacker.ty.roster, attacker.ty.name), "odds": side(&odds.attacker) },
        "defender": { "unit": format!("{}:{}", defender.ty.roster, defender.ty.name), "odds": side(&odds.defender) },
        "aspect": format!("{aspect:?}").to_lowercase(),
        "terrain": q.terrain.map(|t| format!("{t:?}").to_lowercase()),
        "general": q.general,
        "draw": ratio(odds.draw),
        "method": "exact: every combination of the dice enumerated (OTHW-CMB)",
    });
    let mut text = format!(
        "{} attacks {} ({}{}{})\n",
        attacker.ty.name,
        defender.ty.name,
        format!("{aspect:?}").to_lowercase(),
        q.terrain.map(|t| format!(", {t:?}").to_lowercase()).unwrap_or_default(),
        q.general.map(|g| format!(", with {g}")).unwrap_or_default(),
    );
    for (who, s) in [("attacker", &odds.attacker), ("defender", &odds.defender)] {
        text += &format!(
            "  {who}: {} dice needing {}+; wins {:.4}, breaks {:.4}\n    hits taken:",
            s.dice,
            s.need,
            s.wins.to_f64(),
            s.breaks.to_f64()
        );
        for (k, p) in s.hits_taken.iter().enumerate() {
            text += &format!(" {k}: {:.4}", p.to_f64());
        }
        text += "\n    retreat tests failed:";
        for (k, p) in s.retreat.iter().enumerate() {
            text += &format!(" {k}: {:.4}", p.to_f64());
        }
        text += "\n";
    }
    text += &format!("  draw: {:.4} ({})\n", odds.draw.to_f64(), odds.draw);
    Ok((value, text))
}
