//! `strategikon duel`: the exact odds of one combat, by enumerating the dice.

use anyhow::bail;
use othw::Othw;
use othw::combat::Aspect;
use othw::data::{Special, Specials, UnitType};
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
    /// A general with the attacker (his attack dice used).
    pub general: Option<&'a str>,
    /// A general with the defender.
    pub defender_general: Option<&'a str>,
    /// Each fighter's strength points at the start of the round (attacker, defender); their
    /// types' full strength when not given.
    pub sp: Option<(u8, u8)>,
    /// Traits (specials) added to the attacker's type, by their data names.
    pub attacker_traits: &'a [String],
    /// Traits added to the defender's type.
    pub defender_traits: &'a [String],
}

/// Parses `--sp ATT,DEF` (e.g. `2,4`).
pub fn parse_sp(text: &str) -> Result<(u8, u8), String> {
    let (a, d) = text
        .split_once(',')
        .ok_or_else(|| format!("'{text}': give both strengths as ATTACKER,DEFENDER, e.g. 2,4"))?;
    let n = |x: &str| {
        x.trim()
            .parse::<u8>()
            .ok()
            .filter(|&v| v > 0)
            .ok_or_else(|| format!("'{}' is not a strength of 1 or more", x.trim()))
    };
    Ok((n(a)?, n(d)?))
}

/// Adds the named traits to `ty`; an unknown name or an elephant both African and Indian is
/// refused with the list of known names.
fn add_traits(ty: &mut UnitType, names: &[String], who: &str) -> anyhow::Result<()> {
    for name in names.iter().flat_map(|n| n.split(',')).map(str::trim).filter(|n| !n.is_empty()) {
        let Some(sp) = Special::ALL.into_iter().find(|s| s.name().eq_ignore_ascii_case(name))
        else {
            let known: Vec<&str> = Special::ALL.iter().map(|s| s.name()).collect();
            bail!("unknown trait '{name}' for the {who}: known traits are {}", known.join(", "));
        };
        ty.specials = Specials(ty.specials.0 | sp.bit());
    }
    if ty.specials.has(Special::African) && ty.specials.has(Special::Indian) {
        bail!("the {who} is an African or an Indian elephant, not both");
    }
    Ok(())
}

/// The general called `name` (any case), or an error listing the known ones.
fn general(rules: &Othw, name: &str) -> anyhow::Result<DuelGeneral> {
    match rules.data.generals.iter().find(|g| g.name.eq_ignore_ascii_case(name)) {
        Some(g) => Ok(DuelGeneral::of(g)),
        None => {
            let known: Vec<&str> = rules.data.generals.iter().map(|g| g.name.as_str()).collect();
            bail!("unknown general '{name}': known generals are {}", known.join(", "))
        }
    }
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

fn fighter(f: &Fighter, odds: &SideOdds) -> serde_json::Value {
    let traits: Vec<&str> = f.ty.specials.list().into_iter().map(|s| s.name()).collect();
    json!({
        "unit": format!("{}:{}", f.ty.roster, f.ty.name),
        "strength": f.sp,
        "traits": traits,
        "odds": side(odds),
    })
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
        "general_out_of_action": ratio(s.general_out),
    })
}

/// Computes the odds and returns them as JSON, with a text rendering.
pub fn answer(q: &DuelQuestion) -> anyhow::Result<(serde_json::Value, String)> {
    if q.rear && q.flank {
        bail!("an attack comes from the flank or from the rear, not both");
    }
    let rules = Othw::new();
    let (mut at, mut de) = (unit_type(&rules, q.attacker)?, unit_type(&rules, q.defender)?);
    add_traits(&mut at, q.attacker_traits, "attacker")?;
    add_traits(&mut de, q.defender_traits, "defender")?;
    let mut attacker = Fighter::new(at);
    let mut defender = Fighter::new(de);
    if let Some((a, d)) = q.sp {
        for (f, sp, who) in [(&mut attacker, a, "attacker"), (&mut defender, d, "defender")] {
            if sp == 0 || sp > f.ty.s {
                bail!("the {who}'s strength must be 1 to {} (its type's full strength)", f.ty.s);
            }
            f.sp = sp;
        }
    }
    match q.terrain {
        Some(DuelTerrain::Wood) => defender.terrain = CellTerrain::Wood,
        Some(DuelTerrain::Ford) => defender.terrain = CellTerrain::Ford,
        Some(DuelTerrain::Downhill) => attacker.terrain = CellTerrain::Hill,
        None => {}
    }
    if let Some(name) = q.general {
        attacker.general = Some(general(&rules, name)?);
    }
    if let Some(name) = q.defender_general {
        defender.general = Some(general(&rules, name)?);
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
        "attacker": fighter(&attacker, &odds.attacker),
        "defender": fighter(&defender, &odds.defender),
        "aspect": format!("{aspect:?}").to_lowercase(),
        "terrain": q.terrain.map(|t| format!("{t:?}").to_lowercase()),
        "general": q.general,
        "defender_general": q.defender_general,
        "draw": ratio(odds.draw),
        "method": "exact: every combination of the dice enumerated (OTHW-CMB)",
    });
    let mut text = format!(
        "{} ({} SP) attacks {} ({} SP) ({}{}{}{})\n",
        attacker.ty.name,
        attacker.sp,
        defender.ty.name,
        defender.sp,
        format!("{aspect:?}").to_lowercase(),
        q.terrain.map(|t| format!(", {t:?}").to_lowercase()).unwrap_or_default(),
        q.general.map(|g| format!(", with {g}")).unwrap_or_default(),
        q.defender_general.map(|g| format!(", {g} defending")).unwrap_or_default(),
    );
    for (who, f, s) in
        [("attacker", &attacker, &odds.attacker), ("defender", &defender, &odds.defender)]
    {
        text += &format!(
            "  {who}: {} dice needing {}+; wins {:.4}, breaks {:.4}",
            s.dice,
            s.need,
            s.wins.to_f64(),
            s.breaks.to_f64()
        );
        if f.ty.specials.has(Special::Rampage) {
            text += &format!(", rampages {:.4}", s.rampages.to_f64());
        }
        if f.general.is_some() {
            text += &format!(", general out of action {:.4}", s.general_out.to_f64());
        }
        text += "\n    hits taken:";
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
