//! The Free Move scenario file: `[scenario]`, two `[[side]]`s, the `[[stand]]`s, and the shared
//! `[table]`, `[[area]]`, `[[line]]` of `tabletop::table_file`. Every problem is reported at
//! once, with its line and column.
//!
//! ```toml
//! ruleset = "freemove"
//!
//! [scenario]
//! name = "The Legion and the Host"
//! description = "…"          # optional
//! game_moves = 20            # optional (default from data/rules.toml; not in the source)
//! window_seconds = 60        # optional: the primary window (default: FMT-R-02)
//! handling_seconds = 4       # optional: one step's handling time (FMT-R-02)
//! grid = 2.0                 # optional: grid mode with cells this wide (FMT-TIME-19)
//! close_range_die = false    # optional variant (FMT-FIRE-11)
//! deployment = "hidden"      # optional: each side places its stands in secret within 12" of
//!                            # its edge before the first move (not in the source)
//!
//! [[side]]
//! side = "red"
//! name = "Legio X"
//! edge = "south"             # south | north | east | west
//!
//! [[stand]]
//! side = "red"
//! type = "heavy_infantry"    # heavy_infantry | light_infantry | archers | heavy_cavalry | light_cavalry
//! at = [20.0, 6.0]           # the centre of the first stand
//! facing = 0.0               # compass bearing: 0 north, 90 east
//! count = 4                  # optional: this many side by side, to the first one's right
//! ranks = 2                  # optional: this many ranks, each behind the one before
//! number = 1                 # optional: the first flag number (default: the next free one)
//! name = "I Cohort"          # optional (default: type and number)
//! bow = false                # optional: light infantry with bows (shoot as archers)
//! ```

use crate::Freemove;
use crate::geom::SLACK;
use crate::state::{Edge, Morale, Phase, SideInfo, Stand, State};
use serde::Deserialize;
use std::sync::Arc;
use tabletop::diagnostics::{Diagnostics, FieldPath, Source, TomlDoc};
use tabletop::geometry::{Facing, Vec2};
use tabletop::rules::Side;
use tabletop::table_file::{TABLE_KEYS, parse_table};
use tabletop::terrain::Table;

/// The largest scenario this rule set takes: more stands than this is refused.
pub const MAX_STANDS: usize = 2000;

const KEYS: [&str; 3] = ["scenario", "side", "stand"];

/// `[scenario]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    game_moves: Option<u32>,
    #[serde(default)]
    window_seconds: Option<f64>,
    #[serde(default)]
    handling_seconds: Option<f64>,
    #[serde(default)]
    grid: Option<f64>,
    #[serde(default)]
    close_range_die: bool,
    #[serde(default)]
    deployment: Option<String>,
}

/// `[[side]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSide {
    side: Side,
    name: String,
    edge: Edge,
}

/// `[[stand]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStand {
    side: Side,
    #[serde(rename = "type")]
    troop: String,
    at: [f64; 2],
    #[serde(default)]
    facing: f64,
    #[serde(default = "one")]
    count: u32,
    #[serde(default = "one")]
    ranks: u32,
    #[serde(default)]
    number: Option<u32>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    bow: bool,
}

fn one() -> u32 {
    1
}

/// A validated scenario: the starting state without its dice.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The starting state.
    pub state: State,
    /// The scenario's description.
    pub description: String,
}

impl Freemove {
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
        let stands = doc.array::<RawStand>("stand", &mut p);
        let r = &self.data.rules;

        if let Some(h) = &head {
            if h.name.trim().is_empty() {
                p.error("scenario.name", "a scenario needs a name");
            }
            if let Some(m) = h.game_moves
                && !(1..=1000).contains(&m)
            {
                p.error("scenario.game_moves", "1 to 1000 game moves");
            }
            if let Some(w) = h.window_seconds
                && !(w.is_finite() && (1.0..=3600.0).contains(&w))
            {
                p.error("scenario.window_seconds", "a window of 1 second to an hour");
            }
            if let Some(w) = h.handling_seconds
                && !(w.is_finite() && (0.1..=600.0).contains(&w))
            {
                p.error("scenario.handling_seconds", "0.1 seconds to 10 minutes");
            }
            if let Some(g) = h.grid
                && !(g.is_finite() && (0.5..=12.0).contains(&g))
            {
                p.error("scenario.grid", "a cell of 0.5\" to 12\"");
            }
            if let Some(d) = &h.deployment
                && d != "hidden"
                && d != "as_placed"
            {
                p.error("scenario.deployment", "\"hidden\" or \"as_placed\" (the default)");
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
                edge: s.edge,
                start_points: 0,
                start_stands: 0,
            });
        }
        let side_count = doc
            .item(&"side".into())
            .and_then(|i| i.as_array_of_tables().map(|a| a.len()))
            .unwrap_or(0);
        if infos.len() != 2 && sides.len() == side_count {
            p.error("side", "a battle needs exactly two [[side]] entries, red and blue");
        }
        infos.sort_by_key(|s| s.side);

        let mut out: Vec<Stand> = Vec::new();
        let mut numbers: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        let total: u64 = stands.iter().map(|(_, s)| s.count as u64 * s.ranks as u64).sum();
        if total > MAX_STANDS as u64 {
            p.error("stand", format!("{total} stands: at most {MAX_STANDS}"));
        }
        let (w, d) = (r.stand.width, r.stand.depth);
        for (i, s) in &stands {
            let i = *i;
            let path = |k: &str| FieldPath::root().key("stand").index(i).key(k);
            let Some(troop) = self.data.troop(&s.troop) else {
                let known: Vec<&str> = self.data.troops.iter().map(|t| t.id.as_str()).collect();
                p.error(
                    path("type"),
                    format!("unknown stand type '{}': {}", s.troop, known.join(", ")),
                );
                continue;
            };
            if s.bow && self.data.troops[troop].id != "light_infantry" {
                p.error(path("bow"), "only light infantry may be marked as bow-armed");
            }
            let at = Vec2::new(s.at[0], s.at[1]);
            if !at.is_finite() {
                p.error(path("at"), "the position must be finite");
                continue;
            }
            if !(s.facing.is_finite() && s.facing.abs() <= 360.0) {
                p.error(path("facing"), "a compass bearing from -360 to 360 degrees");
                continue;
            }
            if s.count == 0 || s.ranks == 0 || total > MAX_STANDS as u64 {
                if s.count == 0 || s.ranks == 0 {
                    p.error(path("count"), "at least one stand and one rank");
                }
                continue;
            }
            if let Some(n) = &s.name
                && (n.trim().is_empty() || n.len() > 80)
            {
                p.error(path("name"), "a name of 1 to 80 characters");
            }
            let facing = Facing::from_bearing_degrees(s.facing);
            let side_idx = s.side.index();
            let mut next =
                s.number.unwrap_or_else(|| numbers[side_idx].iter().max().map_or(1, |m| m + 1));
            let t = &self.data.troops[troop];
            for rank in 0..s.ranks {
                for file in 0..s.count {
                    let centre = at + facing.right() * (w * file as f64)
                        - facing.vector() * (d * rank as f64);
                    let rect = self.footprint(centre, facing);
                    if numbers[side_idx].contains(&next) {
                        p.error(
                            path("number"),
                            format!("{} already has a stand numbered {next}", s.side),
                        );
                    }
                    numbers[side_idx].push(next);
                    let name = match &s.name {
                        Some(n) if s.count * s.ranks == 1 => n.clone(),
                        Some(n) => format!("{n} {}", file + rank * s.count + 1),
                        None => format!("{} {next}", t.abbrev),
                    };
                    if let Some(tb) = &table
                        && !tb.contains_rect(&rect)
                    {
                        p.error(path("at"), format!("stand {next} ({name}) lies off the table"));
                    }
                    if let Some(o) = out.iter().find(|o| o.rect.overlaps(&rect)) {
                        p.error(path("at"), format!("stand {name} overlaps {}", o.name));
                    }
                    out.push(Stand {
                        id: out.len(),
                        number: next,
                        name,
                        side: s.side,
                        troop,
                        bow: s.bow,
                        rect,
                        kills: 0,
                        on_table: true,
                        morale: Morale::Steady,
                        frozen: false,
                        fire_and_charge: false,
                        square: None,
                        charged: false,
                        uphill: false,
                        attacked_by: None,
                        history: Vec::new(),
                    });
                    next += 1;
                }
            }
        }
        for side in Side::BOTH {
            if !stands.is_empty() && !out.iter().any(|s| s.side == side) && infos.len() == 2 {
                p.error("stand", format!("the {side} side has no stands"));
            }
        }
        if let Some(tb) = &table {
            let t = Arc::new(tb.clone());
            for s in &out {
                for (j, l) in t.lines.iter().enumerate() {
                    if matches!(
                        l.kind,
                        tabletop::terrain::LineKind::River | tabletop::terrain::LineKind::Stream
                    ) && t.rect_overlaps_band_outside_crossings(&s.rect, j)
                    {
                        p.error("stand", format!("{} stands in the water of {}", s.name, l.name));
                    }
                }
                if !self.infantry(s) && self.house_at(&t, s.rect.centre).is_some() {
                    p.error("stand", format!("{} is mounted and cannot stand in a house", s.name));
                }
            }
        }
        let (Some(head), Some(table)) = (head, table) else {
            return Err(p.finish().err().unwrap_or_default());
        };
        if infos.len() != 2 {
            return Err(p.finish().err().unwrap_or_default());
        }
        for info in infos.iter_mut() {
            info.start_points =
                out.iter().filter(|s| s.side == info.side).map(|s| self.points(s)).sum();
            info.start_stands = out.iter().filter(|s| s.side == info.side).count() as u32;
        }
        let handling_ms =
            head.handling_seconds.map_or(r.clock.handling_ms, |s| (s * 1000.0).round() as u64);
        let primary_ms = match head.window_seconds {
            Some(s) => (s * 1000.0).round() as u64,
            None => primary(handling_ms, &infos, r.clock.round_ms, r.clock.minimum_ms),
        };
        if let Some(g) = head.grid {
            check_grid(self, &table, g, &out, &mut p);
        }
        if head.deployment.as_deref() == Some("hidden") {
            let depth = r.deployment.depth;
            let across = |e: Edge| match e {
                Edge::South | Edge::North => table.height,
                Edge::East | Edge::West => table.width,
            };
            if infos.iter().any(|i| across(i.edge) <= 2.0 * depth) {
                p.error(
                    "scenario.deployment",
                    format!(
                        "a hidden deployment needs more than {}\" between the edges",
                        2.0 * depth
                    ),
                );
            }
        }
        let infos: [SideInfo; 2] = [infos[0].clone(), infos[1].clone()];
        let state = State {
            scenario: head.name.clone(),
            table: Arc::new(table),
            grid: head.grid,
            close_range_die: head.close_range_die,
            game_move: 1,
            game_moves: head.game_moves.unwrap_or(r.victory.game_moves),
            handling_ms,
            primary_ms,
            sides: infos,
            stands: out,
            squares: Vec::new(),
            melees: Vec::new(),
            phase: if head.deployment.as_deref() == Some("hidden") {
                Phase::Deploy { orders: [None, None] }
            } else {
                Phase::Ready { orders: [None, None] }
            },
            time_called: false,
            next_id: 1,
            outcome: None,
            initiative: Side::Red,
        };
        p.finish_with(Scenario { state, description: head.description })
    }
}

/// The primary window (FMT-R-02): the handling time of half the average army, rounded up, at
/// least the minimum.
pub fn primary(handling_ms: u64, sides: &[SideInfo], round_ms: u64, minimum_ms: u64) -> u64 {
    // h × N̄ / 2 with N̄ = n / 2 is h × n / 4.
    let n: u64 = sides.iter().map(|s| s.start_stands as u64).sum();
    let raw = (handling_ms * n).div_ceil(4);
    (raw.div_ceil(round_ms).max(1) * round_ms).max(minimum_ms)
}

fn check_grid(
    rules: &Freemove,
    table: &Table,
    cell: f64,
    stands: &[Stand],
    p: &mut tabletop::diagnostics::Problems<'_>,
) {
    let _ = rules;
    if (table.width / cell - (table.width / cell).round()).abs() > SLACK
        || (table.height / cell - (table.height / cell).round()).abs() > SLACK
    {
        p.error("scenario.grid", "the table must be a whole number of cells each way");
    }
    for s in stands {
        let c = s.rect.centre;
        let on = |x: f64| ((x / cell - 0.5) - (x / cell - 0.5).round()).abs() < 1e-6;
        if !(on(c.x) && on(c.y)) {
            p.error("stand", format!("in grid mode {} must stand at a cell's centre", s.name));
        }
    }
}
