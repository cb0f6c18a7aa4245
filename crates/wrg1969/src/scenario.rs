//! Scenario files: the table and its terrain, the objectives the umpire scores, and for each
//! side its army list, its deployment and the orders written before the battle
//! (WRG-ORD-01, WRG-ORD-03, WRG-CHORD-07, WRG-VIC-01, WRG-M-05, WRG-M-12).
//!
//! ```toml
//! ruleset = "wrg1969"
//! name = "The ford of the Sabis"
//! periods = 30                      # the time limit in periods (default 30)
//!
//! [table]                           # the shared table format (tabletop::table_file)
//! width = 72.0
//! height = 48.0
//!
//! [[area]]
//! name = "Windmill Hill"
//! kind = "hill"
//! points = [[30, 20], [42, 20], [42, 28], [30, 28]]
//!
//! [[objective]]                     # terrain the umpire awards points for, 200 at most
//! feature = "Windmill Hill"
//! points = 100
//!
//! [[side]]
//! side = "red"
//! army = "early_imperial_roman"     # one of the lists in data/armies
//! deploy = [[0, 0], [72, 12]]       # the deployment zone's corners
//! general = { at = [36, 3], facing = 0 }
//!
//! [[side.unit]]
//! unit = "Legio XX, first cohort"   # a unit of the list, by name
//! at = [30, 6]                      # its standard
//! facing = 0                        # degrees, 0 = north (up the table)
//! files = 10                        # figures abreast
//! order = { action = { verb = "advance", to = { kind = "feature", id = "Windmill Hill" } } }
//!
//! [[side.signal]]                   # at most 4, written before the battle
//! order = { action = { verb = "hold" } }
//! units = ["Legio XX, first cohort"]
//! ```

use crate::Data;
use crate::army::{Army, LISTS};
use crate::orders::{MAX_SIGNALS, Objective, Order, Verb, check_order};
use crate::unit::Block;
use crate::victory::TERRAIN_POINTS_MAX;
use serde::{Deserialize, Serialize};
use tabletop::diagnostics::{Diagnostics, FieldPath, RULESET_KEY, Source, TomlDoc};
use tabletop::geometry::{Facing, Point, Rect, Vec2};
use tabletop::rules::Side;
use tabletop::table_file::{TABLE_KEYS, parse_table};
use tabletop::terrain::Table;
use tabletop::terrain::sight::{DefaultSightRule, line_of_sight};

/// The default time limit in periods (WRG-M-12).
pub const DEFAULT_PERIODS: u32 = 30;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawObjective {
    feature: String,
    points: u32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlace {
    at: [f64; 2],
    #[serde(default)]
    facing: f64,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    unit: String,
    at: [f64; 2],
    #[serde(default)]
    facing: f64,
    files: u32,
    #[serde(default)]
    order: Option<Order>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSignal {
    order: Order,
    #[serde(default)]
    units: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSide {
    side: Side,
    army: String,
    deploy: [[f64; 2]; 2],
    general: RawPlace,
    #[serde(default, rename = "unit")]
    _unit: Option<toml_value::Ignored>,
    #[serde(default, rename = "signal")]
    _signal: Option<toml_value::Ignored>,
}

mod toml_value {
    /// Accepts anything; the element is read on its own elsewhere.
    #[derive(Clone, Debug, Default)]
    pub struct Ignored;
    impl<'de> serde::Deserialize<'de> for Ignored {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            serde::de::IgnoredAny::deserialize(d).map(|_| Ignored)
        }
    }
}

/// A unit placed on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placed {
    /// Its index in the side's army list.
    pub index: usize,
    /// Its standard.
    pub at: Point,
    /// Its facing.
    pub facing: Facing,
    /// Its block of figures.
    pub block: Block,
    /// Its written order, if any (WRG-ORD-01, -13).
    pub order: Option<Order>,
}

/// A pre-arranged signal (WRG-CHORD-07).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Signal {
    /// The order it gives.
    pub order: Order,
    /// The army indices of the units it is for (all that see it, when empty).
    pub units: Vec<usize>,
}

/// One side as set up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideSetup {
    /// Which side.
    pub side: Side,
    /// Its army.
    pub army: Army,
    /// Its deployment zone (min, max corners).
    pub deploy: (Point, Point),
    /// The General's figure.
    pub general: (Point, Facing),
    /// Its units, in army order.
    pub units: Vec<Placed>,
    /// Its signals.
    pub signals: Vec<Signal>,
}

/// A terrain objective.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TerrainObjective {
    /// The area's index in the table.
    pub area: usize,
    /// Its value.
    pub points: u32,
}

/// A validated scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// The time limit in periods.
    pub periods: u32,
    /// Doubtful readings chosen for this battle (WRG-R-45): variant and option.
    pub variants: Vec<(String, String)>,
    /// The table.
    pub table: Table,
    /// The objectives.
    pub objectives: Vec<TerrainObjective>,
    /// Red then blue.
    pub sides: Vec<SideSetup>,
}

/// Eye heights in contour levels for sight on the table (WRG-R-02: foot 1, mounted 2,
/// elephants 3, where a contour is 4).
pub fn eye(troop: crate::model::TroopType) -> f64 {
    crate::sight::height(troop) as f64 / crate::sight::CONTOUR as f64
}

/// Whether a unit with its standard at `from` can see the area `i`: it stands in it, or some
/// corner of the area is in sight (WRG-ORD-03, WRG-R-02).
pub fn sees_area(table: &Table, from: Point, eye_height: f64, i: usize) -> bool {
    let Some(area) = table.areas.get(i) else { return false };
    let rule = DefaultSightRule { see_into: 3.0 };
    if area.polygon.contains(from) {
        return true;
    }
    area.polygon.points.iter().any(|p| line_of_sight(table, from, eye_height, *p, 0.0, &rule))
}

/// Reads and validates a scenario, reporting every problem with its line and column.
pub fn load(data: &Data, source: &Source) -> Result<Scenario, Diagnostics> {
    let doc = TomlDoc::parse(source)?;
    let mut p = doc.problems();
    let mut allowed = vec![RULESET_KEY, "name", "periods", "variants", "objective", "side"];
    allowed.extend(TABLE_KEYS);
    doc.check_top_level_keys(&allowed, &mut p);
    doc.check_ruleset(crate::ID, &mut p);
    let name: Option<String> = doc.section("name", &mut p);
    let periods: Option<u32> = doc.optional_section("periods", &mut p);
    let variants: std::collections::BTreeMap<String, String> =
        doc.optional_section("variants", &mut p).unwrap_or_default();
    for (k, v) in &variants {
        if let Err(e) = data.with_variant(k, v) {
            p.error(FieldPath::root().key("variants").key(k), e);
        }
    }
    let table = parse_table(&doc, &mut p);
    let objectives_raw: Vec<(usize, RawObjective)> = doc.array("objective", &mut p);
    let sides_raw: Vec<(usize, RawSide)> = doc.array("side", &mut p);

    let area_index =
        |name: &str| table.as_ref().and_then(|t| t.areas.iter().position(|a| a.name == name));
    let mut objectives = Vec::new();
    let mut total = 0u32;
    for (i, o) in &objectives_raw {
        total = total.saturating_add(o.points);
        match area_index(&o.feature) {
            Some(a) => objectives.push(TerrainObjective { area: a, points: o.points }),
            None if table.is_some() => p.error(
                ("objective", *i, "feature"),
                format!("there is no area named `{}`", o.feature),
            ),
            None => {}
        }
    }
    if total > TERRAIN_POINTS_MAX {
        p.error(
            "objective",
            format!(
                "[WRG-VIC-01] objectives are worth {total} points; at most {TERRAIN_POINTS_MAX}"
            ),
        );
    }
    if periods == Some(0) {
        p.error("periods", "a battle lasts at least one period");
    }

    let mut sides: Vec<SideSetup> = Vec::new();
    for (si, rs) in &sides_raw {
        if sides.iter().any(|s| s.side == rs.side) {
            p.error(("side", *si, "side"), format!("the {} side is given twice", rs.side));
            continue;
        }
        let Some((list_name, list_text)) =
            LISTS.iter().find(|(n, _)| n.ends_with(&format!("/{}.toml", rs.army)))
        else {
            let known: Vec<&str> = LISTS
                .iter()
                .filter_map(|(n, _)| n.rsplit('/').next()?.strip_suffix(".toml"))
                .collect();
            p.error(
                ("side", *si, "army"),
                format!("unknown army list; known: {}", known.join(", ")),
            );
            continue;
        };
        let army = match crate::army::load(data, &Source::new(*list_name, *list_text)) {
            Ok(a) => a,
            Err(d) => {
                p.error(("side", *si, "army"), format!("the army list is not legal:\n{d}"));
                continue;
            }
        };
        let [[x0, y0], [x1, y1]] = rs.deploy;
        let zone = (Vec2::new(x0.min(x1), y0.min(y1)), Vec2::new(x0.max(x1), y0.max(y1)));
        if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) {
            p.error(("side", *si, "deploy"), "the zone's corners must be finite numbers");
        }
        let in_zone = |r: &Rect| {
            r.corners().iter().all(|c| {
                c.x >= zone.0.x - 1e-9
                    && c.x <= zone.1.x + 1e-9
                    && c.y >= zone.0.y - 1e-9
                    && c.y <= zone.1.y + 1e-9
            })
        };
        let gen_at = Vec2::new(rs.general.at[0], rs.general.at[1]);
        let gen_facing = Facing::from_bearing_degrees(rs.general.facing);
        let general_ok = gen_at.is_finite()
            && rs.general.facing.is_finite()
            && in_zone(&Rect::new(gen_at, gen_facing, 0.0, 0.0));
        if !general_ok {
            p.error(
                FieldPath::root().key("side").index(*si).key("general").key("at"),
                "[WRG-M-05] the General must start in his side's deployment zone",
            );
        }
        let units_raw: Vec<(usize, RawUnit)> = doc.array(("side", *si, "unit"), &mut p);
        let mut placed: Vec<Option<(usize, Placed)>> = vec![None; army.units.len()];
        for (ui, ru) in &units_raw {
            let path =
                |k: &str| FieldPath::root().key("side").index(*si).key("unit").index(*ui).key(k);
            let Some(index) = army.units.iter().position(|u| u.name == ru.unit) else {
                p.error(path("unit"), format!("the {} army has no unit `{}`", army.name, ru.unit));
                continue;
            };
            if placed[index].is_some() {
                p.error(path("unit"), format!("`{}` is deployed twice", ru.unit));
                continue;
            }
            let u = &army.units[index];
            if ru.files == 0 || ru.files > u.figures {
                p.error(path("files"), format!("between 1 and {} figures abreast", u.figures));
                continue;
            }
            let at = Vec2::new(ru.at[0], ru.at[1]);
            if !(at.is_finite() && ru.facing.is_finite()) {
                p.error(path("at"), "the position and facing must be finite numbers");
                continue;
            }
            let facing = Facing::from_bearing_degrees(ru.facing);
            let block = Block::new(u.figures, ru.files);
            let rect = block.footprint(data, u.troop, at, facing);
            if let Some(t) = &table
                && !t.contains_rect(&rect)
            {
                p.error(path("at"), "the unit does not fit on the table there");
            }
            if !in_zone(&rect) {
                p.error(path("at"), "[WRG-M-05] the unit must deploy inside its side's zone");
            }
            if let Some(order) = &ru.order {
                let t = table.as_ref();
                let check = check_order(order, u.troop, t.map(|t| (t.width, t.height)), |id| {
                    let t = t?;
                    let i = t.areas.iter().position(|a| a.name == id)?;
                    Some(sees_area(t, at, eye(u.troop), i))
                });
                if let Err(r) = check {
                    p.error(path("order"), format!("[{}] {}", r.rule, r.reason));
                }
            }
            placed[index] =
                Some((*ui, Placed { index, at, facing, block, order: ru.order.clone() }));
        }
        for (i, u) in army.units.iter().enumerate() {
            if placed[i].is_none() && !units_raw.is_empty() {
                p.error(
                    FieldPath::root().key("side").index(*si),
                    format!("the army's unit `{}` is not deployed", u.name),
                );
            }
        }
        let units: Vec<(usize, Placed)> = placed.into_iter().flatten().collect();
        for a in 0..units.len() {
            for b in a + 1..units.len() {
                let ra = units[a].1.block.footprint(
                    data,
                    army.units[units[a].1.index].troop,
                    units[a].1.at,
                    units[a].1.facing,
                );
                let rb = units[b].1.block.footprint(
                    data,
                    army.units[units[b].1.index].troop,
                    units[b].1.at,
                    units[b].1.facing,
                );
                if ra.overlaps(&rb) {
                    p.error(
                        FieldPath::root()
                            .key("side")
                            .index(*si)
                            .key("unit")
                            .index(units[b].0)
                            .key("at"),
                        format!(
                            "`{}` overlaps `{}`",
                            army.units[units[b].1.index].name, army.units[units[a].1.index].name
                        ),
                    );
                }
            }
        }
        let signals_raw: Vec<(usize, RawSignal)> = doc.array(("side", *si, "signal"), &mut p);
        if signals_raw.len() > MAX_SIGNALS {
            p.error(
                FieldPath::root().key("side").index(*si).key("signal"),
                format!("[WRG-CHORD-07] at most {MAX_SIGNALS} pre-arranged signals"),
            );
        }
        let mut signals = Vec::new();
        for (gi, rg) in &signals_raw {
            let mut idx = Vec::new();
            for (k, n) in rg.units.iter().enumerate() {
                match army.units.iter().position(|u| &u.name == n) {
                    Some(i) => idx.push(i),
                    None => p.error(
                        FieldPath::root()
                            .key("side")
                            .index(*si)
                            .key("signal")
                            .index(*gi)
                            .key("units")
                            .index(k),
                        format!("no unit `{n}` in the army"),
                    ),
                }
            }
            if let Verb::Advance { to: Objective::Feature { id } }
            | Verb::Retire { to: Objective::Feature { id } } = &rg.order.verb
                && area_index(id).is_none()
            {
                p.error(
                    FieldPath::root().key("side").index(*si).key("signal").index(*gi).key("order"),
                    format!("there is no feature `{id}`"),
                );
            }
            signals.push(Signal { order: rg.order.clone(), units: idx });
        }
        sides.push(SideSetup {
            side: rs.side,
            army,
            deploy: zone,
            general: (gen_at, gen_facing),
            units: units.into_iter().map(|(_, u)| u).collect(),
            signals,
        });
    }
    if sides_raw.len() != 2 && p.is_empty() {
        p.error(FieldPath::root(), "a battle needs two `[[side]]`s, red and blue");
    }
    // Attack and skirmish orders must name an enemy unit by its number in the enemy's list.
    for (si, s) in sides.iter().enumerate() {
        let enemy = sides.iter().find(|o| o.side != s.side);
        for u in &s.units {
            if let Some(Order { verb: Verb::Attack { unit } | Verb::Skirmish { unit }, .. }) =
                &u.order
                && enemy.is_some_and(|e| *unit as usize >= e.army.units.len())
            {
                p.error(
                    FieldPath::root().key("side").index(si),
                    format!(
                        "`{}` is ordered against enemy unit {unit}, which does not exist",
                        s.army.units[u.index].name
                    ),
                );
            }
        }
    }
    sides.sort_by_key(|s| s.side);
    let (Some(name), Some(table)) = (name, table) else {
        return p.finish().and(Err(Diagnostics::default()));
    };
    p.finish_with(Scenario {
        name,
        periods: periods.unwrap_or(DEFAULT_PERIODS),
        variants: variants.into_iter().collect(),
        table,
        objectives,
        sides,
    })
}
