//! The movement scenario file: `[scenario]`, `[[side]]`, `[[objective]]`, `[[unit]]`, and the
//! shared `[table]`, `[[area]]`, `[[line]]` of `tabletop::table_file`. Every problem in the file
//! is reported at once, with its line and column.

use crate::Movement;
use crate::ground::Ground;
use crate::layout::{Pose, layout, shape_problem};
use crate::model::{
    Armor, Discipline, Edge, Formation, Melee, MoraleState, PieceClass, TroopType, Weather,
};
use serde::Deserialize;
use tabletop::diagnostics::{Diagnostics, FieldPath, Source, TomlDoc};
use tabletop::geometry::{Facing, Rect, Vec2};
use tabletop::rules::Side;
use tabletop::table_file::{TABLE_KEYS, parse_table};
use tabletop::terrain::Table;

/// `[scenario]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    /// The battle's name.
    pub name: String,
    /// How many turns the battle lasts.
    pub turns: u32,
    /// dry or wet.
    #[serde(default)]
    pub weather: Weather,
    /// umpire (default) or morale_checks: how melee contact is resolved.
    #[serde(default)]
    pub melee: Melee,
    /// The side that moves first each turn.
    pub first: Side,
}

/// `[[side]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    /// red or blue.
    pub side: Side,
    /// The army's name.
    pub name: String,
    /// Its own table edge.
    pub edge: Edge,
    /// The name of its army leader unit.
    #[serde(default)]
    pub army_leader: Option<String>,
}

/// `[[objective]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawObjective {
    /// Its name.
    pub name: String,
    /// Its centre `[x, y]`.
    pub position: [f64; 2],
    /// Holding radius in inches.
    pub radius: f64,
}

/// `[[unit]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUnit {
    /// Unique name.
    pub name: String,
    /// red or blue.
    pub side: Side,
    /// Troop type.
    #[serde(rename = "type")]
    pub troop: TroopType,
    /// Armor class (every stand), unless `stand_armor` gives one per stand.
    #[serde(default)]
    pub armor: Option<Armor>,
    /// One armor class per stand.
    #[serde(default)]
    pub stand_armor: Option<Vec<Armor>>,
    /// Discipline.
    pub discipline: Discipline,
    /// Formation.
    pub formation: Formation,
    /// Stands per rank.
    #[serde(default)]
    pub files: Option<u32>,
    /// Number of stands (or the length of `stand_armor`).
    #[serde(default)]
    pub stands: Option<u32>,
    /// Open-order gap.
    #[serde(default)]
    pub gap: Option<f64>,
    /// Front centre (circle: centre) `[x, y]`.
    pub position: [f64; 2],
    /// Compass degrees, 0 = north.
    pub facing: f64,
    /// Morale state at the start.
    #[serde(default)]
    pub morale: Option<MoraleState>,
    /// EP per stand.
    #[serde(default)]
    pub ep: Option<i32>,
    /// Skirmishers.
    #[serde(default)]
    pub skirmisher: bool,
    /// Levy.
    #[serde(default)]
    pub levy: bool,
    /// A leader.
    #[serde(default)]
    pub leader: bool,
    /// A character.
    #[serde(default)]
    pub character: bool,
    /// Mounted (leaders, characters, creatures: sets the stand size).
    #[serde(default)]
    pub mounted: Option<bool>,
    /// Artillery piece class.
    #[serde(default)]
    pub artillery: Option<PieceClass>,
    /// Artillery starts limbered.
    #[serde(default)]
    pub limbered: Option<bool>,
    /// A creature's own rate.
    #[serde(default)]
    pub rate: Option<f64>,
    /// Its brigade leader's name.
    #[serde(default)]
    pub brigade_leader: Option<String>,
}

/// A validated unit.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitSpec {
    /// The raw entry.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Type.
    pub troop: TroopType,
    /// Armor per stand.
    pub armor: Vec<Armor>,
    /// Discipline.
    pub discipline: Discipline,
    /// Pose.
    pub pose: Pose,
    /// Stand size.
    pub stand_size: (f64, f64),
    /// Morale.
    pub morale: MoraleState,
    /// EP per stand.
    pub ep: i32,
    /// Flags.
    pub skirmisher: bool,
    /// Levy.
    pub levy: bool,
    /// Leader.
    pub leader: bool,
    /// Character.
    pub character: bool,
    /// Army leader.
    pub army_leader: bool,
    /// Mounted.
    pub mounted: bool,
    /// Artillery: class and limbered.
    pub artillery: Option<(PieceClass, bool)>,
    /// Creature rate.
    pub rate: Option<f64>,
    /// Brigade leader's index.
    pub brigade_leader: Option<usize>,
}

/// A side, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct SideSpec {
    /// Which.
    pub side: Side,
    /// Name.
    pub name: String,
    /// Edge.
    pub edge: Edge,
}

/// A validated, playable scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Name.
    pub name: String,
    /// Turns.
    pub turns: u32,
    /// Weather.
    pub weather: Weather,
    /// How melee contact is resolved.
    pub melee: Melee,
    /// First side.
    pub first: Side,
    /// The table.
    pub table: Table,
    /// Both sides.
    pub sides: Vec<SideSpec>,
    /// Objectives: (name, centre, radius).
    pub objectives: Vec<(String, Vec2, f64)>,
    /// Units.
    pub units: Vec<UnitSpec>,
}

/// The top-level keys of a movement scenario.
pub const KEYS: [&str; 4] = ["scenario", "side", "objective", "unit"];

impl Movement {
    /// Stand size for a unit profile.
    pub fn stand_size(
        &self,
        troop: TroopType,
        leaderish: bool,
        mounted: bool,
        artillery: bool,
    ) -> (f64, f64) {
        let s = &self.data.geometry.stand;
        let v = if artillery || troop == TroopType::Artillery {
            s.artillery
        } else if leaderish {
            s.leader
        } else if mounted {
            s.mounted
        } else {
            s.foot
        };
        (v[0], v[1])
    }

    /// Reads and validates a scenario file.
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
        let objectives = doc.array::<RawObjective>("objective", &mut p);
        let units = doc.array::<RawUnit>("unit", &mut p);
        let unit_count = doc
            .item(&FieldPath::root().key("unit"))
            .and_then(|i| i.as_array_of_tables().map(|a| a.len()))
            .unwrap_or(0);

        if let Some(h) = &head {
            if h.turns == 0 {
                p.error("scenario.turns", "a battle lasts at least one turn");
            }
            if h.turns > 1000 {
                p.error("scenario.turns", "at most 1000 turns");
            }
        }
        // Sides.
        let mut side_specs: Vec<SideSpec> = Vec::new();
        for (i, s) in &sides {
            if side_specs.iter().any(|x| x.side == s.side) {
                p.error(("side", *i, "side"), format!("the {} side is given twice", s.side));
                continue;
            }
            side_specs.push(SideSpec { side: s.side, name: s.name.clone(), edge: s.edge });
        }
        if side_specs.len() != 2
            && sides.len()
                == doc
                    .item(&"side".into())
                    .and_then(|i| i.as_array_of_tables().map(|a| a.len()))
                    .unwrap_or(0)
        {
            p.error("side", "a battle needs exactly two [[side]] entries, red and blue");
        }
        side_specs.sort_by_key(|s| s.side);
        // Objectives.
        let mut objs = Vec::new();
        for (i, o) in &objectives {
            let at = Vec2::new(o.position[0], o.position[1]);
            if !at.is_finite() {
                p.error(("objective", *i, "position"), "the position must be finite");
            } else if let Some(t) = &table
                && (at.x < 0.0 || at.y < 0.0 || at.x > t.width || at.y > t.height)
            {
                p.error(("objective", *i, "position"), "the objective lies off the table");
            }
            if !(o.radius.is_finite() && o.radius > 0.0) {
                p.error(
                    ("objective", *i, "radius"),
                    "the radius must be a positive number of inches",
                );
            }
            objs.push((o.name.clone(), at, o.radius));
        }
        // Units: names first, for references.
        let names: Vec<(usize, String)> = units.iter().map(|(i, u)| (*i, u.name.clone())).collect();
        for (k, (i, n)) in names.iter().enumerate() {
            if names[..k].iter().any(|(_, m)| m == n) {
                p.error(("unit", *i, "name"), format!("the unit name '{n}' is used twice"));
            }
            if n.trim().is_empty() {
                p.error(("unit", *i, "name"), "a unit needs a name");
            }
        }
        let index_of = |name: &str| units.iter().position(|(_, u)| u.name == name);
        let mut specs: Vec<(usize, UnitSpec)> = Vec::new();
        for (i, u) in &units {
            let i = *i;
            let before = p.len();
            let artillery = u.troop == TroopType::Artillery || u.artillery.is_some();
            if artillery && u.troop != TroopType::Artillery {
                p.error(
                    ("unit", i, "artillery"),
                    "only units of type \"artillery\" have a piece class",
                );
            }
            if u.troop == TroopType::Artillery && u.artillery.is_none() {
                p.error(
                    ("unit", i, "type"),
                    "an artillery unit needs `artillery = \"light\" | \"heavy\" | \"siege\"`",
                );
            }
            if u.limbered.is_some() && !artillery {
                p.error(("unit", i, "limbered"), "only artillery limbers");
            }
            if u.troop == TroopType::Creature {
                match u.rate {
                    Some(r) if r.is_finite() && r > 0.0 => {}
                    Some(_) => {
                        p.error(("unit", i, "rate"), "the rate must be a positive number of inches")
                    }
                    None => {
                        p.error(("unit", i, "type"), "a creature needs its own `rate` (MOV-GEN-10)")
                    }
                }
            } else if u.rate.is_some() {
                p.error(
                    ("unit", i, "rate"),
                    "only creatures give their own rate; T1 sets the others (MOV-GEN-10)",
                );
            }
            // Stands and armor.
            let count = match (&u.stand_armor, u.stands) {
                (Some(v), Some(n)) if v.len() as u32 != n => {
                    p.error(
                        ("unit", i, "stands"),
                        format!("stands = {n} but stand_armor lists {}", v.len()),
                    );
                    v.len()
                }
                (Some(v), _) => v.len(),
                (None, Some(n)) => n as usize,
                (None, None) => {
                    if u.leader || u.character || artillery {
                        1
                    } else {
                        p.error(("unit", i, "stands"), "give the number of stands");
                        0
                    }
                }
            };
            if count > 200 {
                p.error(("unit", i, "stands"), "at most 200 stands in a unit");
            }
            if count == 0 && before == p.len() {
                p.error(("unit", i, "stands"), "a unit has at least one stand");
            }
            let armor: Vec<Armor> = match (&u.stand_armor, u.armor) {
                (Some(v), None) => v.clone(),
                (Some(_), Some(_)) => {
                    p.error(("unit", i, "armor"), "give either armor or stand_armor, not both");
                    vec![]
                }
                (None, Some(a)) => vec![a; count],
                (None, None) => {
                    if artillery || u.troop == TroopType::Creature {
                        vec![Armor::Unarmored; count]
                    } else {
                        p.error(
                            ("unit", i, "armor"),
                            "give the armor class (unarmored, light, medium, heavy)",
                        );
                        vec![]
                    }
                }
            };
            if (u.leader || u.character) && count != 1 {
                p.error(("unit", i, "stands"), "a leader or character is a single stand");
            }
            if u.levy && u.formation != Formation::Mass {
                p.error(("unit", i, "formation"), "[MOV-FORM-07] a levy unit must be in mass");
            }
            if u.formation == Formation::OpenOrder && !u.skirmisher {
                p.error(
                    ("unit", i, "formation"),
                    "[MOV-FORM-05] only skirmishers may be in open order",
                );
            }
            if let Some(e) = u.ep
                && e <= 0
            {
                p.error(("unit", i, "ep"), "EP must be at least 1");
            }
            let at = Vec2::new(u.position[0], u.position[1]);
            if !at.is_finite() {
                p.error(("unit", i, "position"), "the position must be finite");
            }
            if !u.facing.is_finite() {
                p.error(("unit", i, "facing"), "the facing must be a number of degrees");
            }
            let brigade_leader = match &u.brigade_leader {
                None => None,
                Some(n) => match index_of(n) {
                    Some(j) if units[j].1.leader => Some(j),
                    Some(_) => {
                        p.error(("unit", i, "brigade_leader"), format!("'{n}' is not a leader"));
                        None
                    }
                    None => {
                        p.error(
                            ("unit", i, "brigade_leader"),
                            format!("there is no unit named '{n}'"),
                        );
                        None
                    }
                },
            };
            if p.len() > before {
                continue;
            }
            let mounted = u.mounted.unwrap_or(u.troop.mounted());
            let size = self.stand_size(u.troop, u.leader || u.character, mounted, artillery);
            let files = match u.formation {
                Formation::Circle => 1,
                _ => u.files.unwrap_or(1).max(1),
            };
            if u.files == Some(0) {
                p.error(("unit", i, "files"), "at least one file");
                continue;
            }
            let pose = Pose {
                at,
                facing: crate::layout::canonical(Facing::from_bearing_degrees(u.facing)),
                formation: u.formation,
                files,
                gap: if u.formation == Formation::OpenOrder {
                    u.gap.unwrap_or(self.data.geometry.open_order.default_gap)
                } else {
                    0.0
                },
            };
            if let Some((rule, why)) =
                shape_problem(&pose, count, size, self.data.geometry.open_order.max_gap)
            {
                p.error(("unit", i, "formation"), format!("[{rule}] {why}"));
                continue;
            }
            specs.push((
                i,
                UnitSpec {
                    name: u.name.clone(),
                    side: u.side,
                    troop: u.troop,
                    armor,
                    discipline: u.discipline,
                    pose,
                    stand_size: size,
                    morale: u.morale.unwrap_or(MoraleState::Firm),
                    ep: u.ep.unwrap_or(self.data.geometry.endurance.default),
                    skirmisher: u.skirmisher,
                    levy: u.levy,
                    leader: u.leader,
                    character: u.character,
                    army_leader: false,
                    mounted,
                    artillery: u.artillery.map(|c| (c, u.limbered.unwrap_or(true))),
                    rate: u.rate,
                    brigade_leader,
                },
            ));
        }
        // Army leaders.
        for (i, s) in &sides {
            if let Some(n) = &s.army_leader {
                match specs.iter_mut().find(|(_, u)| &u.name == n) {
                    Some((_, u)) if u.leader && u.side == s.side => u.army_leader = true,
                    Some(_) => p.error(
                        ("side", *i, "army_leader"),
                        format!("'{n}' is not a leader of the {} side", s.side),
                    ),
                    None => {
                        if index_of(n).is_none() {
                            p.error(
                                ("side", *i, "army_leader"),
                                format!("there is no unit named '{n}'"),
                            );
                        }
                    }
                }
            }
        }
        // Placement: on the table, on legal ground, not overlapping.
        if let Some(t) = &table {
            let ground = Ground::new(
                t,
                &self.data.terrain,
                head.as_ref().map(|h| h.weather).unwrap_or_default(),
            );
            let placed: Vec<(usize, Vec<Rect>)> = specs
                .iter()
                .map(|(i, u)| (*i, layout(&u.pose, u.armor.len(), u.stand_size)))
                .collect();
            for (k, (i, u)) in specs.iter().enumerate() {
                let who = self.mover_kind_of(
                    u.pose.formation,
                    u.leader || u.character,
                    u.artillery.is_some_and(|a| a.1),
                    u.mounted,
                    u.stand_size,
                    u.armor.len(),
                );
                for r in &placed[k].1 {
                    if let Some(b) = ground.footprint_blocked(&crate::shapes::rect_poly(r), who) {
                        let msg = match b {
                            crate::ground::Blocked::OffTable => format!(
                                "'{}' does not fit on the {} by {} table",
                                u.name, t.width, t.height
                            ),
                            other => format!(
                                "'{}' is placed in impassable terrain: {}",
                                u.name,
                                other.describe()
                            ),
                        };
                        p.error(("unit", *i, "position"), msg);
                        break;
                    }
                }
                for (j, other) in placed.iter().take(k) {
                    if placed[k].1.iter().any(|a| other.iter().any(|b| a.overlaps(b))) {
                        let other_name = &units
                            .iter()
                            .find(|(x, _)| x == j)
                            .map(|(_, u)| u.name.clone())
                            .unwrap_or_default();
                        p.error(
                            ("unit", *i, "position"),
                            format!("'{}' overlaps '{}'", u.name, other_name),
                        );
                    }
                }
            }
        }
        for s in Side::BOTH {
            if side_specs.iter().any(|x| x.side == s)
                && !specs.iter().any(|(_, u)| u.side == s)
                && unit_count > 0
                && specs.len() == units.len()
                && units.len() == unit_count
            {
                p.error("unit", format!("the {s} side has no units"));
            }
        }
        let _ = unit_count;
        p.finish()?;
        let (Some(table), Some(head)) = (table, head) else {
            return Err(Diagnostics(vec![tabletop::diagnostics::Diagnostic::whole_file(
                source.name.clone(),
                "the scenario could not be read",
            )]));
        };
        Ok(Scenario {
            name: head.name,
            turns: head.turns,
            weather: head.weather,
            melee: head.melee,
            first: head.first,
            table,
            sides: side_specs,
            objectives: objs,
            units: specs.into_iter().map(|(_, u)| u).collect(),
        })
    }
}
