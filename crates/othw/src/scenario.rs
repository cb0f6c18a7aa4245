//! Scenario files: TOML with a top-level `ruleset = "othw"`, read into raw structs (unknown
//! fields refused) and validated into a playable [`Scenario`], every problem reported at once
//! with its file, line and column.
//!
//! ```toml
//! ruleset = "othw"
//!
//! [scenario]
//! name = "Open field"
//! turns = 15          # optional (default from data/rules.toml)
//! first = "red"       # red, blue or roll (a seeded roll-off)
//!
//! [board]             # optional: default 12 × 8 with 2 deployment rows
//! cols = 12
//! rows = 8
//! deployment_rows = 2
//!
//! [[terrain]]
//! kind = "wood"       # wood, hill, river, ford
//! cells = [[3, 4], [4, 4]]
//!
//! [[side]]
//! side = "red"
//! name = "Rome"
//! roster = "roman"    # generic, roman, carthaginian
//! edge = "south"      # optional: red south, blue north
//! general = "Generic general"
//!
//! [[unit]]
//! side = "red"
//! type = "Legion"
//! name = "Legio I"    # optional; a name the other side also uses gets its side, "(red)"
//! at = [5, 1]         # column, row from the south-west corner (A1)
//! facing = "north"    # optional: towards the enemy
//! general = true      # the general's unit
//! ```
//!
//! `[[unit_type]]` tables (the roster columns plus `name`) add custom types any side may use.

use crate::Othw;
use crate::data::{GeneralProfile, RawUnitType, UnitType, validate_unit_type};
use crate::state::{Board, Edge};
use serde::Deserialize;
use std::sync::Arc;
use tabletop::diagnostics::{Diagnostics, FieldPath, Source, TomlDoc};
use tabletop::grid::{CellPos, CellTerrain, Grid, GridFacing};
use tabletop::rules::Side;

/// Who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// This side.
    Side(Side),
    /// A seeded d6 roll-off (OTHW-M-04).
    Roll,
}

/// One side of a validated scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioSide {
    /// The army's name (shared with the states made from the scenario).
    pub name: Arc<str>,
    /// Its roster.
    pub roster: String,
    /// Its own edge.
    pub edge: Edge,
    /// Its general.
    pub general: Option<GeneralProfile>,
}

/// One unit of a validated scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioUnit {
    /// Its side.
    pub side: Side,
    /// Its name (shared with the states made from the scenario).
    pub name: Arc<str>,
    /// Its type.
    pub ty: UnitType,
    /// Where it deploys.
    pub at: CellPos,
    /// Its facing.
    pub facing: GridFacing,
    /// The general is with it.
    pub general: bool,
}

/// A validated, playable scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// Its description, if any.
    pub description: String,
    /// Turns.
    pub turns: u16,
    /// Who moves first.
    pub first: First,
    /// The board (shared with the states made from the scenario).
    pub board: Arc<Board>,
    /// Red and blue.
    pub sides: [ScenarioSide; 2],
    /// The units.
    pub units: Vec<ScenarioUnit>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHead {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    turns: Option<u16>,
    #[serde(default)]
    first: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    #[serde(default)]
    cols: Option<u32>,
    #[serde(default)]
    rows: Option<u32>,
    #[serde(default)]
    deployment_rows: Option<u32>,
}

#[derive(Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum RawKind {
    Wood,
    Hill,
    River,
    Ford,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerrain {
    kind: RawKind,
    cells: Vec<[i32; 2]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSide {
    side: Side,
    name: String,
    roster: String,
    #[serde(default)]
    edge: Option<Edge>,
    #[serde(default)]
    general: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    side: Side,
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    name: Option<String>,
    at: [i32; 2],
    #[serde(default)]
    facing: Option<GridFacing>,
    #[serde(default)]
    general: bool,
}

const TOP: [&str; 7] = [
    tabletop::diagnostics::RULESET_KEY,
    "scenario",
    "board",
    "terrain",
    "side",
    "unit",
    "unit_type",
];

impl Othw {
    /// Reads and validates a scenario file, reporting every problem at once.
    pub fn scenario(&self, source: &Source) -> Result<Scenario, Diagnostics> {
        let doc = TomlDoc::parse(source)?;
        let mut p = doc.problems();
        doc.check_top_level_keys(&TOP, &mut p);
        if doc.contains(tabletop::diagnostics::RULESET_KEY) {
            doc.check_ruleset("othw", &mut p);
        } else {
            p.error(
                tabletop::diagnostics::RULESET_KEY,
                "missing required key `ruleset`: an O/THW scenario starts with `ruleset = \"othw\"`",
            );
        }
        let head: Option<RawHead> = doc.section("scenario", &mut p);
        let raw_board: Option<RawBoard> = doc.optional_section("board", &mut p);
        let terrain = doc.array::<RawTerrain>("terrain", &mut p);
        let raw_sides = doc.array::<RawSide>("side", &mut p);
        let raw_units = doc.array::<RawUnit>("unit", &mut p);
        let raw_types = doc.array::<RawUnitType>("unit_type", &mut p);
        let rules = &self.data.rules;

        // The board.
        let cols = raw_board.as_ref().and_then(|b| b.cols).unwrap_or(rules.board.cols);
        let rows = raw_board.as_ref().and_then(|b| b.rows).unwrap_or(rules.board.rows);
        let deployment_rows = raw_board
            .as_ref()
            .and_then(|b| b.deployment_rows)
            .unwrap_or(rules.board.deployment_rows);
        let mut board_ok = true;
        if !(4..=60).contains(&cols) {
            p.error("board.cols", "the board needs 4 to 60 columns");
            board_ok = false;
        }
        if !(4..=60).contains(&rows) {
            p.error("board.rows", "the board needs 4 to 60 rows");
            board_ok = false;
        }
        if board_ok && (deployment_rows == 0 || deployment_rows * 2 >= rows) {
            p.error("board.deployment_rows", "the deployment zones must leave rows between them");
            board_ok = false;
        }
        let (cols, rows) =
            if board_ok { (cols, rows) } else { (rules.board.cols, rules.board.rows) };
        let deployment_rows = if board_ok { deployment_rows } else { rules.board.deployment_rows };
        let mut board = Board { grid: Grid::new(cols, rows), deployment_rows };
        for (i, t) in &terrain {
            for (j, c) in t.cells.iter().enumerate() {
                let pos = CellPos::new(c[0], c[1]);
                let path = FieldPath::root().key("terrain").index(*i).key("cells").index(j);
                if !board.grid.in_bounds(pos) {
                    p.error(path, format!("[{}, {}] is off the {cols} × {rows} board", c[0], c[1]));
                    continue;
                }
                let kind = match t.kind {
                    RawKind::Wood => CellTerrain::Wood,
                    RawKind::Hill => CellTerrain::Hill,
                    RawKind::River => CellTerrain::River,
                    RawKind::Ford => CellTerrain::Ford,
                };
                if matches!(kind, CellTerrain::River | CellTerrain::Ford)
                    && (board.in_zone(pos, Edge::South) || board.in_zone(pos, Edge::North))
                {
                    p.error(
                        path.clone(),
                        "rivers and fords may not lie in a deployment zone (OTHW-M-06)",
                    );
                }
                if board.grid.terrain(pos) != Some(CellTerrain::Open) {
                    p.error(path, format!("[{}, {}] already has terrain", c[0], c[1]));
                    continue;
                }
                board.grid.set_terrain(pos, kind);
            }
        }

        // Sides.
        let mut sides: [Option<ScenarioSide>; 2] = [None, None];
        for (i, s) in &raw_sides {
            let path = FieldPath::root().key("side").index(*i);
            if sides[s.side.index()].is_some() {
                p.error(path.clone().key("side"), format!("{} is given twice", s.side));
                continue;
            }
            if self.data.roster(&s.roster).is_none() {
                let known: Vec<&str> = self.data.rosters.iter().map(|r| r.id.as_str()).collect();
                p.error(
                    path.clone().key("roster"),
                    format!(
                        "unknown roster '{}': known rosters are {}",
                        s.roster,
                        known.join(", ")
                    ),
                );
            }
            let general = match &s.general {
                None => None,
                Some(g) => match self.data.general(g) {
                    Some(x) => Some(x.clone()),
                    None => {
                        let known: Vec<&str> =
                            self.data.generals.iter().map(|x| x.name.as_str()).collect();
                        p.error(
                            path.clone().key("general"),
                            format!(
                                "unknown general '{g}': known generals are {}",
                                known.join(", ")
                            ),
                        );
                        None
                    }
                },
            };
            let edge = s.edge.unwrap_or(match s.side {
                Side::Red => Edge::South,
                Side::Blue => Edge::North,
            });
            sides[s.side.index()] = Some(ScenarioSide {
                name: Arc::from(s.name.as_str()),
                roster: s.roster.clone(),
                edge,
                general,
            });
        }
        if raw_sides.len() == doc_len(&doc, "side") {
            for s in Side::BOTH {
                if sides[s.index()].is_none() {
                    p.error("side", format!("no [[side]] for {s}"));
                }
            }
        }
        if let (Some(r), Some(b)) = (&sides[0], &sides[1])
            && r.edge == b.edge
        {
            p.error("side", "the two sides need different base edges");
        }

        // Custom unit types.
        let default_tests = rules.combat.retreat_tests;
        let mut custom: Vec<UnitType> = Vec::new();
        for (i, r) in &raw_types {
            let path = FieldPath::root().key("unit_type").index(*i);
            if let Some(t) = validate_unit_type(r, "scenario", default_tests, &path, &mut p) {
                custom.push(t);
            }
        }

        // Units.
        let mut units: Vec<ScenarioUnit> = Vec::new();
        let mut taken: Vec<(CellPos, usize)> = Vec::new();
        let mut general_units = [0usize; 2];
        if raw_units.len() > 250 {
            p.error("unit", "at most 250 units");
        }
        for (i, u) in &raw_units {
            let path = FieldPath::root().key("unit").index(*i);
            let side = sides[u.side.index()].as_ref();
            let ty = custom.iter().find(|t| *t.name == *u.ty).cloned().or_else(|| {
                side.and_then(|s| self.data.roster(&s.roster)).and_then(|r| r.get(&u.ty)).cloned()
            });
            let Some(ty) = ty else {
                let roster = side.map_or("?", |s| s.roster.as_str());
                let known = self
                    .data
                    .roster(roster)
                    .map(|r| r.types.iter().map(|t| &*t.name).collect::<Vec<_>>().join(", "))
                    .unwrap_or_default();
                p.error(
                    path.clone().key("type"),
                    format!(
                        "unknown unit type '{}' in roster '{roster}': known types are {known}",
                        u.ty
                    ),
                );
                continue;
            };
            let pos = CellPos::new(u.at[0], u.at[1]);
            let at_path = path.clone().key("at");
            if !board.grid.in_bounds(pos) {
                p.error(
                    at_path,
                    format!("[{}, {}] is off the {cols} × {rows} board", u.at[0], u.at[1]),
                );
                continue;
            }
            if let Some(s) = side
                && !board.in_zone(pos, s.edge)
            {
                p.error(
                    at_path.clone(),
                    format!(
                        "[{}, {}] is outside {}'s deployment zone (the {} rows next to its {:?} edge)",
                        u.at[0], u.at[1], u.side, deployment_rows, s.edge
                    ),
                );
            }
            if board.impassable(pos) {
                p.error(at_path.clone(), "a unit cannot stand in the river");
            }
            if let Some((_, j)) = taken.iter().find(|(q, _)| *q == pos) {
                p.error(
                    at_path.clone(),
                    format!("unit[{j}] already stands on [{}, {}]", u.at[0], u.at[1]),
                );
            }
            taken.push((pos, *i));
            if u.general {
                general_units[u.side.index()] += 1;
                if side.is_some_and(|s| s.general.is_none()) {
                    p.error(path.clone().key("general"), format!("{} has no general", u.side));
                }
                if general_units[u.side.index()] > 1 {
                    p.error(path.clone().key("general"), "a general can be with one unit only");
                }
            }
            let facing = u
                .facing
                .unwrap_or_else(|| side.map_or(GridFacing::North, |s| s.edge.facing().reversed()));
            let n = units.iter().filter(|x| x.side == u.side && x.ty.name == ty.name).count() + 1;
            let name = u.name.clone().unwrap_or_else(|| format!("{} {n}", ty.name));
            if units.iter().any(|x| x.side == u.side && *x.name == *name) {
                p.error(
                    path.clone().key("name"),
                    format!("{} already has a unit called '{name}'", u.side),
                );
            }
            units.push(ScenarioUnit {
                side: u.side,
                name: Arc::from(name),
                ty,
                at: pos,
                facing,
                general: u.general,
            });
        }
        // A name both sides use is told apart by its side everywhere it is printed.
        let shared: Vec<bool> = units
            .iter()
            .map(|u| units.iter().any(|v| v.side != u.side && v.name == u.name))
            .collect();
        for (u, shared) in units.iter_mut().zip(shared) {
            if shared {
                u.name = Arc::from(format!("{} ({})", u.name, u.side));
            }
        }
        for s in Side::BOTH {
            if let Some(x) = &sides[s.index()] {
                if x.general.is_some() && general_units[s.index()] == 0 {
                    p.error(
                        "side",
                        format!("{s}'s general is with no unit: mark one with `general = true`"),
                    );
                }
                if !units.iter().any(|u| u.side == s) && p.is_empty() {
                    p.error("unit", format!("{s} has no units"));
                }
            }
        }

        // The head.
        let mut first = First::Side(Side::Red);
        let mut turns = rules.board.turns;
        let mut name = String::new();
        let mut description = String::new();
        if let Some(h) = &head {
            name = h.name.clone();
            description = h.description.clone().unwrap_or_default();
            if let Some(t) = h.turns {
                if t == 0 || t > 200 {
                    p.error("scenario.turns", "turns must be 1 to 200");
                } else {
                    turns = t;
                }
            }
            match h.first.as_deref() {
                None | Some("red") => first = First::Side(Side::Red),
                Some("blue") => first = First::Side(Side::Blue),
                Some("roll") => first = First::Roll,
                Some(other) => p.error(
                    "scenario.first",
                    format!("unknown value '{other}': expected red, blue or roll"),
                ),
            }
        }
        let [red, blue] = sides;
        match (red, blue, head) {
            (Some(red), Some(blue), Some(_)) if p.is_empty() => {
                let board = Arc::new(board);
                Ok(Scenario { name, description, turns, first, board, sides: [red, blue], units })
            }
            _ => match p.finish() {
                Err(d) => Err(d),
                Ok(()) => Err(Diagnostics(vec![tabletop::Diagnostic::whole_file(
                    source.name.clone(),
                    "the scenario is incomplete",
                )])),
            },
        }
    }
}

fn doc_len(doc: &TomlDoc, key: &str) -> usize {
    match doc.item(&FieldPath::root().key(key)) {
        Some(toml_edit_item) => toml_edit_item.as_array_of_tables().map_or(0, |a| a.len()),
        None => 0,
    }
}
