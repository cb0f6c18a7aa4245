//! The Liberal Move scenario file: `[scenario]`, two `[[side]]`s, the `[[unit]]`s, optional
//! `[[house]]` capacities, and the shared `[table]`, `[[area]]`, `[[line]]` of
//! `tabletop::table_file`. Every problem is reported at once, with its line and column.
//!
//! ```toml
//! ruleset = "liberal"
//!
//! [scenario]
//! name = "The Mill at Guilford"
//! description = "…"          # optional
//! days = 3                   # optional (default from data/rules.toml, LIB-M-17)
//!
//! [[side]]
//! side = "red"
//! name = "Crown forces"
//! edge = "south"             # south | north: the edge its units are drawn up along
//!
//! [[house]]                  # optional: every village area is a house; this sets one's size
//! area = "Mill"              # the area's name
//! capacity = 20              # figures it holds (default from data/rules.toml)
//!
//! [[firing_ground]]          # optional: ground from which more ranks of a line fire
//! area = "Gallows ridge"     # the area's name (LIB-FIRE-04: "unless terrain dictates")
//! ranks = 3                  # ranks that fire there (matters for lines deeper than the
//!                            # default two, `formation.line_ranks` in data/rules.toml)
//!
//! [[unit]]
//! side = "red"
//! type = "infantry"          # infantry | grenadiers | sharpshooters | light_cavalry |
//!                            # heavy_cavalry | horse_artillery | foot_artillery
//! name = "33rd Foot"         # optional
//! at = [20.0, 6.0]           # the front rank's centre (a square's centre)
//! facing = 0.0               # compass bearing: 0 north, 90 east
//! formation = "line"         # line | column | road_column | square (default line; guns none)
//! figures = 24               # optional: figures with the officers and colours (default
//!                            # 24 foot, 12 horse; a battery's crew 4)
//! officers = true            # optional: a commander, a second officer and colours
//! mounted = true             # optional, cavalry: on horseback (default true)
//! ```
//!
//! Units are placed for their side's stated edge; a side that takes the other edge after the
//! roll (LIB-START-03) has its units turned about the table's centre.

use crate::Liberal;
use crate::data::Kind;
use crate::state::{
    Figure, Flag, Formation, Gun, Phase, Place, Role, SideInfo, State, Status, Unit,
};
use serde::Deserialize;
use std::sync::Arc;
use tabletop::diagnostics::{Diagnostics, FieldPath, Source, TomlDoc};
use tabletop::geometry::{Facing, Point};
use tabletop::rules::Side;
use tabletop::table_file::{TABLE_KEYS, parse_table};
use tabletop::terrain::AreaKind;

/// The most figures a scenario may hold.
pub const MAX_FIGURES: usize = 5000;

const KEYS: [&str; 5] = ["scenario", "side", "unit", "house", "firing_ground"];

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    days: Option<u32>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Edge {
    South,
    North,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSide {
    side: Side,
    name: String,
    edge: Edge,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHouse {
    area: String,
    capacity: usize,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGround {
    area: String,
    ranks: usize,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    side: Side,
    #[serde(rename = "type")]
    troop: String,
    #[serde(default)]
    name: Option<String>,
    at: [f64; 2],
    #[serde(default)]
    facing: f64,
    #[serde(default)]
    formation: Option<Formation>,
    #[serde(default)]
    figures: Option<usize>,
    #[serde(default = "yes")]
    officers: bool,
    #[serde(default = "yes")]
    mounted: bool,
}

fn yes() -> bool {
    true
}

/// A validated scenario: the starting state without its dice.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The starting state (before the roll for edges).
    pub state: State,
    /// The scenario's description.
    pub description: String,
}

impl Liberal {
    /// The figures of a new unit in count order, with the commander and colours in the
    /// middle of the front rank and the second officer in the middle of the second.
    pub fn muster(
        &self,
        troop: usize,
        n: usize,
        officers: bool,
        formation: Formation,
    ) -> Vec<Figure> {
        let mut v = vec![Figure { role: Role::Private, troop, status: Status::Ranks }; n];
        if officers && n >= 3 {
            let w = self.rank_width(formation, n).max(2).min(n);
            let mid = w / 2;
            v[mid - 1].role = Role::Commander;
            v[mid].role = Role::Colours;
            let second = if n > w + mid { w + mid } else { (mid + 1).min(n - 1) };
            v[second].role = Role::Second;
        }
        v
    }

    /// Parses and validates a scenario.
    pub fn parse_scenario(&self, source: &Source) -> Result<Scenario, Diagnostics> {
        let doc = TomlDoc::parse(source)?;
        let mut p = doc.problems();
        let mut allowed: Vec<&str> = KEYS.to_vec();
        allowed.extend(TABLE_KEYS);
        allowed.push(tabletop::diagnostics::RULESET_KEY);
        doc.check_top_level_keys(&allowed, &mut p);
        doc.check_ruleset(crate::ID, &mut p);
        let table = parse_table(&doc, &mut p);
        let head = doc.section::<RawScenario>("scenario", &mut p);
        let sides = doc.array::<RawSide>("side", &mut p);
        let units = doc.array::<RawUnit>("unit", &mut p);
        let houses = doc.array::<RawHouse>("house", &mut p);
        let grounds = doc.array::<RawGround>("firing_ground", &mut p);
        let r = &self.data.rules;

        if let Some(h) = &head {
            if h.name.trim().is_empty() {
                p.error("scenario.name", "a scenario needs a name");
            }
            if let Some(d) = h.days
                && !(1..=100).contains(&d)
            {
                p.error("scenario.days", "1 to 100 days");
            }
        }
        let mut infos: Vec<SideInfo> = Vec::new();
        for (i, s) in &sides {
            if infos.iter().any(|x| x.side == s.side) {
                p.error(("side", *i, "side"), format!("the {} side is given twice", s.side));
                continue;
            }
            infos.push(SideInfo {
                side: s.side,
                name: s.name.clone(),
                south: s.edge == Edge::South,
                flags_taken: 0,
                guns_taken: 0,
            });
        }
        if infos.len() == 2 && infos[0].south == infos[1].south {
            p.error("side", "the two sides need opposite edges, south and north");
        }
        let side_count = doc
            .item(&"side".into())
            .and_then(|i| i.as_array_of_tables().map(|a| a.len()))
            .unwrap_or(0);
        if infos.len() != 2 && sides.len() == side_count {
            p.error("side", "a battle needs exactly two [[side]] entries, red and blue");
        }
        infos.sort_by_key(|s| s.side);

        let mut capacities: Vec<usize> = Vec::new();
        if let Some(t) = &table {
            capacities = t
                .areas
                .iter()
                .map(|a| if a.kind == AreaKind::Village { r.house.capacity } else { 0 })
                .collect();
            for (i, h) in &houses {
                match t.areas.iter().position(|a| a.name == h.area && a.kind == AreaKind::Village) {
                    Some(k) if (1..=500).contains(&h.capacity) => capacities[k] = h.capacity,
                    Some(_) => p.error(("house", *i, "capacity"), "1 to 500 figures"),
                    None => p.error(
                        ("house", *i, "area"),
                        format!("no village area is named '{}'", h.area),
                    ),
                }
            }
        }

        let mut firing_ranks: Vec<usize> = Vec::new();
        if let Some(t) = &table {
            firing_ranks = vec![0; t.areas.len()];
            for (i, g) in &grounds {
                match t.areas.iter().position(|a| a.name == g.area) {
                    Some(k) if (1..=10).contains(&g.ranks) => firing_ranks[k] = g.ranks,
                    Some(_) => p.error(("firing_ground", *i, "ranks"), "1 to 10 ranks"),
                    None => p.error(
                        ("firing_ground", *i, "area"),
                        format!("no area is named '{}'", g.area),
                    ),
                }
            }
        }
        let total: usize =
            units.iter().map(|(_, u)| u.figures.unwrap_or(24).min(MAX_FIGURES + 1)).sum();
        if total > MAX_FIGURES {
            p.error("unit", format!("{total} figures: at most {MAX_FIGURES}"));
        }
        let mut out: Vec<Unit> = Vec::new();
        for (i, u) in &units {
            let i = *i;
            let path = |k: &str| FieldPath::root().key("unit").index(i).key(k);
            let gun = self.data.gun(&u.troop);
            let troop = if gun.is_some() {
                Some(self.data.crew_troop())
            } else {
                self.data.troop(&u.troop)
            };
            let Some(troop) =
                troop.filter(|t| gun.is_some() || self.data.troops[*t].kind != Kind::Crew)
            else {
                let mut known: Vec<&str> = self
                    .data
                    .troops
                    .iter()
                    .filter(|t| t.kind != Kind::Crew)
                    .map(|t| t.id.as_str())
                    .collect();
                known.extend(self.data.guns.iter().map(|g| g.id.as_str()));
                p.error(
                    path("type"),
                    format!("unknown unit type '{}': {}", u.troop, known.join(", ")),
                );
                continue;
            };
            let t = &self.data.troops[troop];
            let at = Point::new(u.at[0], u.at[1]);
            if !at.is_finite() {
                p.error(path("at"), "the position must be finite");
                continue;
            }
            if !(u.facing.is_finite() && u.facing.abs() <= 360.0) {
                p.error(path("facing"), "a compass bearing from -360 to 360 degrees");
                continue;
            }
            let default_n = if gun.is_some() {
                r.artillery.crew
            } else if t.kind == Kind::Horse {
                12
            } else {
                24
            };
            let n = u.figures.unwrap_or(default_n);
            if n == 0 || n > 500 {
                p.error(path("figures"), "1 to 500 figures");
                continue;
            }
            let formation = u.formation.unwrap_or(Formation::Line);
            if formation == Formation::Square && t.kind == Kind::Horse {
                p.error(path("formation"), "cavalry do not form square (LIB-SQUARE-01)");
                continue;
            }
            if formation == Formation::House {
                p.error(path("formation"), "a unit enters a house by moving into it");
                continue;
            }
            if gun.is_some() && u.formation.is_some_and(|f| f != Formation::Line) {
                p.error(path("formation"), "guns have no formations (LIB-CHOICE-05)");
            }
            if let Some(nm) = &u.name
                && (nm.trim().is_empty() || nm.len() > 80)
            {
                p.error(path("name"), "a name of 1 to 80 characters");
            }
            let officers = u.officers && gun.is_none();
            let name = u.name.clone().unwrap_or_else(|| {
                let k = out.iter().filter(|o| o.side == u.side && o.troop == troop).count() + 1;
                match gun {
                    Some(g) => format!("{} {k}", self.data.guns[g].abbrev),
                    None => format!("{} {k}", t.abbrev),
                }
            });
            // A foot unit drawn up inside a house holds it.
            let house = table.as_ref().and_then(|tb| {
                tb.areas.iter().enumerate().position(|(k, a)| {
                    capacities.get(k).is_some_and(|c| *c > 0) && a.polygon.contains(at)
                })
            });
            let (formation, house) = match house {
                Some(h) if gun.is_none() && t.kind == Kind::Foot => {
                    if n > capacities[h] {
                        p.error(
                            path("figures"),
                            format!("{n} figures: the house holds {}", capacities[h]),
                        );
                    }
                    (Formation::House, Some(h))
                }
                _ => (formation, None),
            };
            let unit = Unit {
                id: out.len(),
                name,
                side: u.side,
                troop,
                place: Place { at, facing: Facing::from_bearing_degrees(u.facing), formation },
                mounted: t.kind == Kind::Horse && u.mounted,
                figures: self.muster(troop, n, officers, formation),
                flag: if officers { Flag::Carried } else { Flag::None },
                gun: gun.map(|g| Gun {
                    kind: g,
                    range: self.data.guns[g].range,
                    spiked: false,
                    demoted: false,
                    destroyed: false,
                    fired_turn: None,
                    fired_step: None,
                    moved: false,
                    fired: false,
                }),
                house,
                square_broken: false,
                fired_step: false,
            };
            if let (Some(tb), Some(info)) = (&table, infos.iter().find(|s| s.side == u.side)) {
                let depth = r.deployment.depth;
                for (_, q) in self.positions(&unit) {
                    if !tb.contains_point(q) {
                        p.error(path("at"), format!("{} lies off the table", unit.name));
                        break;
                    }
                    let from_edge = if info.south { q.y } else { tb.height - q.y };
                    if from_edge > depth + 1e-6 {
                        p.error(
                            path("at"),
                            format!(
                                "{} stands {from_edge:.1}\" from its edge: at most {depth}\" (LIB-START-05)",
                                unit.name
                            ),
                        );
                        break;
                    }
                }
            }
            let fp = self.footprint(&unit);
            if let Some(o) = out.iter().find(|o| self.footprint(o).overlaps(&fp)) {
                p.error(path("at"), format!("{} overlaps {}", unit.name, o.name));
            }
            out.push(unit);
        }
        for side in Side::BOTH {
            if !units.is_empty() && infos.len() == 2 && !out.iter().any(|u| u.side == side) {
                p.error("unit", format!("the {side} side has no units"));
            }
        }
        let (Some(head), Some(table)) = (head, table) else {
            return Err(p.finish().err().unwrap_or_default());
        };
        if infos.len() != 2 {
            return Err(p.finish().err().unwrap_or_default());
        }
        let infos: [SideInfo; 2] = [infos[0].clone(), infos[1].clone()];
        let state = State {
            scenario: head.name.clone(),
            table: Arc::new(table),
            houses: capacities,
            firing_ranks,
            units: out,
            sides: infos,
            phase: Phase::Edge { side: Side::Red },
            game_turn: 1,
            day: 1,
            days: head.days.unwrap_or(r.day.days),
            first: Side::Red,
            outcome: None,
            last_hits: Vec::new(),
        };
        p.finish_with(Scenario { state, description: head.description })
    }
}
