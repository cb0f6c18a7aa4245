//! The on-disk format of a continuous table and its terrain, shared by every continuous-table
//! rule set's scenario file.
//!
//! A scenario file holds the table under three top-level keys, [`TABLE_KEYS`], beside the rule
//! set's own keys (`[[unit]]`, `[[side]]`, …). Distances are in inches; the origin is the
//! table's south-west corner, `x` grows east and `y` grows north (up the table).
//!
//! ```toml
//! [table]
//! width = 48.0          # inches, east–west
//! height = 36.0         # inches, north–south
//! slope_band = 1.0      # optional (default 1): width of the slope inside each hill contour
//!
//! [[area]]
//! name = "Windmill Hill"   # optional
//! kind = "hill"            # hill | wood | dense_trees | village | marsh | rough | open
//! height = 1.0             # hills only, optional (default 1): contour levels
//! points = [[10, 10], [16, 10], [16, 15], [10, 15]]   # the outline, not closed
//!
//! [[line]]
//! name = "Stour"           # optional
//! kind = "river"           # river | stream | paved_road | dirt_road | wall | hedge
//! width = 3.0              # full width, inches
//! points = [[0, 18], [48, 18]]                        # the centreline
//!
//! [[line.crossing]]        # rivers and streams only; or `crossings = [{ … }, …]`
//! kind = "ford"            # ford | bridge
//! at = 24.0                # inches along the centreline from its first point
//! width = 4.0              # inches along the line
//! ```
//!
//! A rule set's scenario loader reads the table from its own document with [`parse_table`];
//! a file that holds only a table is read with [`load_table`].
//!
//! Validation: sizes are finite and positive; an outline has at least three distinct points,
//! encloses some area and does not cross itself; a centreline has at least two points and no
//! repeated consecutive point; crossings lie within their line's length and do not overlap.
//! Terrain may run past the table's edge, but terrain entirely off the table is an error.

use crate::diagnostics::{Diagnostic, Diagnostics, FieldPath, Problems, Source, TomlDoc};
use crate::geometry::Point;
use crate::terrain::{
    Area, AreaKind, Crossing, CrossingKind, LineKind, LinearFeature, Polygon, Table,
};
use serde::{Deserialize, Serialize};

/// The top-level keys the table format uses: `table`, `area` and `line`. A scenario format
/// that embeds a table allows these beside its own keys.
pub const TABLE_KEYS: [&str; 3] = ["table", "area", "line"];

/// The `[table]` section as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    /// East–west size in inches.
    pub width: f64,
    /// North–south size in inches.
    pub height: f64,
    /// Width of the slope band inside each hill contour, in inches (default 1).
    #[serde(default = "default_slope_band")]
    pub slope_band: f64,
}

fn default_slope_band() -> f64 {
    1.0
}

/// One `[[area]]` as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawArea {
    /// The name players know it by (may be left out).
    #[serde(default)]
    pub name: String,
    /// What it is.
    pub kind: AreaKind,
    /// For hills: the contour's height in levels (default 1). Not allowed on other areas.
    #[serde(default)]
    pub height: Option<f64>,
    /// The outline's vertices `[x, y]` in order, not closed.
    pub points: Vec<[f64; 2]>,
}

/// One `[[line]]` as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLine {
    /// The name players know it by (may be left out).
    #[serde(default)]
    pub name: String,
    /// What it is.
    pub kind: LineKind,
    /// Its full width in inches.
    pub width: f64,
    /// The centreline's points `[x, y]` in order.
    pub points: Vec<[f64; 2]>,
    /// Fords and bridges (`[[line.crossing]]`, or `crossings = [...]`).
    #[serde(default, alias = "crossings", skip_serializing_if = "Vec::is_empty")]
    pub crossing: Vec<RawCrossing>,
}

/// One ford or bridge as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCrossing {
    /// Ford or bridge.
    pub kind: CrossingKind,
    /// Inches along the centreline, from its first point, to the crossing's middle.
    pub at: f64,
    /// Its width along the line, in inches.
    pub width: f64,
}

/// Reads and validates the table and its terrain (the keys `table`, `area` and `line`) from a
/// scenario document, recording every problem in `problems`. Other keys are left alone: the
/// caller checks its document's top-level keys, allowing [`TABLE_KEYS`]. Returns `None` when
/// anything about the table was wrong.
pub fn parse_table(doc: &TomlDoc, problems: &mut Problems<'_>) -> Option<Table> {
    let before = problems.len();
    let raw_table = doc.section::<RawTable>("table", problems);
    let raw_areas = doc.array::<RawArea>("area", problems);
    let raw_lines = doc.array::<RawLine>("line", problems);

    let size = raw_table.as_ref().and_then(|t| check_table(t, problems));

    let mut areas = Vec::with_capacity(raw_areas.len());
    for (i, raw) in &raw_areas {
        if let Some(a) = check_area(*i, raw, size, problems) {
            areas.push(a);
        }
    }
    let mut lines = Vec::with_capacity(raw_lines.len());
    for (i, raw) in &raw_lines {
        if let Some(l) = check_line(*i, raw, size, problems) {
            lines.push(l);
        }
    }
    if problems.len() > before {
        return None;
    }
    let (width, height, slope_band) = size?;
    Some(Table { width, height, areas, lines, slope_band })
}

/// Reads a file that holds only a table and its terrain: any top-level key other than
/// [`TABLE_KEYS`] is a problem. Every problem in the file is reported at once.
pub fn load_table(source: &Source) -> Result<Table, Diagnostics> {
    let doc = TomlDoc::parse(source)?;
    let mut problems = doc.problems();
    doc.check_top_level_keys(&TABLE_KEYS, &mut problems);
    let table = parse_table(&doc, &mut problems);
    problems.finish()?;
    // `parse_table` reports why it fails, so this is only a safeguard.
    table.ok_or_else(|| {
        Diagnostic::whole_file(source.name.clone(), "the table could not be read").into()
    })
}

/// Checks the table's size: (width, height, slope band) when good.
fn check_table(t: &RawTable, problems: &mut Problems<'_>) -> Option<(f64, f64, f64)> {
    let mut ok = true;
    for (key, v) in [("width", t.width), ("height", t.height)] {
        if !(v.is_finite() && v > 0.0) {
            problems.error(
                FieldPath::root().key("table").key(key),
                format!("the table's {key} must be a positive number of inches, not {}", num(v)),
            );
            ok = false;
        }
    }
    if !(t.slope_band.is_finite() && t.slope_band >= 0.0) {
        problems.error(
            "table.slope_band",
            format!(
                "the slope band must be zero or a positive number of inches, not {}",
                num(t.slope_band)
            ),
        );
        ok = false;
    }
    ok.then_some((t.width, t.height, t.slope_band))
}

fn check_area(
    i: usize,
    raw: &RawArea,
    size: Option<(f64, f64, f64)>,
    problems: &mut Problems<'_>,
) -> Option<Area> {
    let before = problems.len();
    let what = describe("area", i, &raw.name, kind_name(&raw.kind));
    let height = match (raw.kind, raw.height) {
        (AreaKind::Hill, None) => 1.0,
        (AreaKind::Hill, Some(h)) => {
            if !(h.is_finite() && h > 0.0) {
                problems.error(
                    ("area", i, "height"),
                    format!("{what}: a hill's height must be a positive number, not {}", num(h)),
                );
            }
            h
        }
        (_, Some(_)) => {
            problems.error(("area", i, "height"), format!("{what}: only hills have a height"));
            0.0
        }
        (_, None) => 0.0,
    };
    let points = check_points(("area", i), &what, &raw.points, problems)?;
    // An outline may repeat its first point at the end; it is closed anyway.
    let mut pts = points;
    if pts.len() > 1 && pts.first() == pts.last() {
        pts.pop();
    }
    if pts.len() < 3 {
        problems.error(
            ("area", i, "points"),
            format!("{what}: an outline needs at least 3 different points, found {}", pts.len()),
        );
        return None;
    }
    if all_collinear(&pts) {
        problems.error(
            ("area", i, "points"),
            format!("{what}: the outline encloses no area (its points lie on one line)"),
        );
        return None;
    }
    if let Some((a, b)) = first_self_crossing(&pts) {
        let n = pts.len();
        problems.error(
            FieldPath::from(("area", i, "points")).index(a),
            format!(
                "{what}: the outline crosses itself: the edge {}–{} meets the edge {}–{}",
                pt(pts[a]),
                pt(pts[(a + 1) % n]),
                pt(pts[b]),
                pt(pts[(b + 1) % n]),
            ),
        );
        return None;
    }
    let area = shoelace(&pts).abs();
    if area <= 1e-9 {
        problems.error(("area", i, "points"), format!("{what}: the outline encloses no area"));
        return None;
    }
    if let Some((w, h, _)) = size
        && !polygon_meets_table(&pts, w, h)
    {
        problems.error(
            ("area", i, "points"),
            format!("{what} lies entirely off the {} by {} table", inches(w), inches(h)),
        );
    }
    (problems.len() == before).then(|| Area {
        name: raw.name.clone(),
        kind: raw.kind,
        polygon: Polygon { points: pts },
        height,
    })
}

fn check_line(
    i: usize,
    raw: &RawLine,
    size: Option<(f64, f64, f64)>,
    problems: &mut Problems<'_>,
) -> Option<LinearFeature> {
    let before = problems.len();
    let what = describe("line", i, &raw.name, kind_name(&raw.kind));
    if !(raw.width.is_finite() && raw.width > 0.0) {
        problems.error(
            ("line", i, "width"),
            format!(
                "{what}: the width must be a positive number of inches, not {}",
                num(raw.width)
            ),
        );
    }
    let points = check_points(("line", i), &what, &raw.points, problems);
    if let Some(p) = &points
        && p.len() < 2
    {
        problems.error(
            ("line", i, "points"),
            format!("{what}: a line needs at least 2 points, found {}", p.len()),
        );
    }
    let points = points.filter(|p| p.len() >= 2);
    let length = points.as_ref().map(|p| polyline_length(p));

    if let Some((w, h, _)) = size
        && let Some(p) = &points
        && !polyline_meets_table(p, w, h)
    {
        problems.error(
            ("line", i, "points"),
            format!("{what} lies entirely off the {} by {} table", inches(w), inches(h)),
        );
    }

    let crossing_key = crossing_key(problems.doc(), i);
    let mut crossings: Vec<(usize, Crossing)> = Vec::new();
    if !raw.crossing.is_empty() && !matches!(raw.kind, LineKind::River | LineKind::Stream) {
        problems.error(
            ("line", i, crossing_key),
            format!("{what}: only rivers and streams have fords and bridges",),
        );
    }
    for (j, c) in raw.crossing.iter().enumerate() {
        let path = FieldPath::from(("line", i, crossing_key)).index(j);
        let cname = kind_name(&c.kind);
        if !(c.width.is_finite() && c.width > 0.0) {
            problems.error(
                path.clone().key("width"),
                format!(
                    "{what}: the {cname}'s width must be a positive number of inches, not {}",
                    num(c.width)
                ),
            );
        }
        if !c.at.is_finite() {
            problems.error(
                path.clone().key("at"),
                format!(
                    "{what}: the {cname}'s position must be a number of inches, not {}",
                    num(c.at)
                ),
            );
        } else if let Some(len) = length
            && !(0.0..=len + 1e-9).contains(&c.at)
        {
            problems.error(
                path.clone().key("at"),
                format!(
                    "{what}: the {cname} at {} along the line is beyond its ends: the line is {} long",
                    inches(c.at),
                    inches(len)
                ),
            );
        }
        crossings.push((j, Crossing { kind: c.kind, at: c.at, width: c.width }));
    }
    // Overlapping crossings.
    let mut sorted: Vec<&(usize, Crossing)> = crossings
        .iter()
        .filter(|(_, c)| c.at.is_finite() && c.width.is_finite() && c.width > 0.0)
        .collect();
    sorted.sort_by(|a, b| a.1.at.total_cmp(&b.1.at));
    for pair in sorted.windows(2) {
        let (a, b) = (&pair[0].1, &pair[1].1);
        if a.at + a.width / 2.0 > b.at - b.width / 2.0 + 1e-9 {
            problems.error(
                FieldPath::from(("line", i, crossing_key)).index(pair[1].0),
                format!(
                    "{what}: the {} at {} overlaps the {} at {}",
                    kind_name(&b.kind),
                    inches(b.at),
                    kind_name(&a.kind),
                    inches(a.at)
                ),
            );
        }
    }
    let points = points?;
    (problems.len() == before).then(|| LinearFeature {
        name: raw.name.clone(),
        kind: raw.kind,
        path: points,
        width: raw.width,
        crossings: crossings.into_iter().map(|(_, c)| c).collect(),
    })
}

/// Whether the file wrote `crossing` or `crossings` for line `i`, for locating problems.
fn crossing_key(doc: &TomlDoc, i: usize) -> &'static str {
    if doc.contains(("line", i, "crossings")) { "crossings" } else { "crossing" }
}

/// Checks that every point is finite and no point repeats the one before.
fn check_points(
    base: (&str, usize),
    what: &str,
    raw: &[[f64; 2]],
    problems: &mut Problems<'_>,
) -> Option<Vec<Point>> {
    let mut ok = true;
    let path = FieldPath::from(base).key("points");
    let mut out: Vec<Point> = Vec::with_capacity(raw.len());
    for (j, [x, y]) in raw.iter().copied().enumerate() {
        let p = Point::new(x, y);
        if !p.is_finite() {
            problems.error(
                path.clone().index(j),
                format!("{what}: point [{}, {}] is not a pair of finite numbers", num(x), num(y)),
            );
            ok = false;
            continue;
        }
        if out.last() == Some(&p) {
            problems.error(
                path.clone().index(j),
                format!("{what}: point {} repeats the point before it", pt(p)),
            );
            ok = false;
        }
        out.push(p);
    }
    ok.then_some(out)
}

fn describe(section: &str, i: usize, name: &str, kind: String) -> String {
    let kind = kind.replace('_', " ");
    if name.is_empty() { format!("{section} {i} ({kind})") } else { format!("{kind} '{name}'") }
}

fn kind_name<T: Serialize>(kind: &T) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn num(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        format!("{v}")
    }
}

fn inches(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    format!("{r}\"")
}

fn pt(p: Point) -> String {
    format!("({}, {})", num(p.x), num(p.y))
}

/// The signed area of a polygon (positive when anticlockwise).
fn shoelace(p: &[Point]) -> f64 {
    let n = p.len();
    (0..n).map(|i| p[i].cross(p[(i + 1) % n])).sum::<f64>() / 2.0
}

/// True when every point lies on the line through the first two (within rounding).
fn all_collinear(p: &[Point]) -> bool {
    let (a, b) = (p[0], p[1]);
    let ab = b - a;
    p[2..].iter().all(|&c| {
        let ac = c - a;
        ab.cross(ac).abs() <= 1e-12 * (ab.length() * ac.length()).max(1e-300)
    })
}

fn polyline_length(p: &[Point]) -> f64 {
    p.windows(2).map(|w| w[0].distance(w[1])).sum()
}

fn orient(a: Point, b: Point, c: Point) -> f64 {
    (b - a).cross(c - a)
}

fn on_segment(a: Point, b: Point, p: Point) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// True when the closed segments `a–b` and `c–d` share any point.
fn segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool {
    let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0))
        && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0))
    {
        return true;
    }
    (o1 == 0.0 && on_segment(a, b, c))
        || (o2 == 0.0 && on_segment(a, b, d))
        || (o3 == 0.0 && on_segment(c, d, a))
        || (o4 == 0.0 && on_segment(c, d, b))
}

/// The first pair of edges (by their first vertex's index) of a closed outline that meet
/// where they should not: non-adjacent edges that touch, or adjacent edges that fold back
/// along each other.
fn first_self_crossing(p: &[Point]) -> Option<(usize, usize)> {
    let n = p.len();
    for i in 0..n {
        let (a, b) = (p[i], p[(i + 1) % n]);
        for j in i + 1..n {
            let (c, d) = (p[j], p[(j + 1) % n]);
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            if adjacent {
                // They share one vertex; they must not run back along each other.
                let (shared, u, v) = if j == i + 1 { (b, a, d) } else { (a, b, c) };
                let (eu, ev) = (u - shared, v - shared);
                if eu.cross(ev) == 0.0 && eu.dot(ev) > 0.0 {
                    return Some((i, j));
                }
            } else if segments_meet(a, b, c, d) {
                return Some((i, j));
            }
        }
    }
    None
}

fn strictly_inside_table(p: Point, w: f64, h: f64) -> bool {
    p.x > 0.0 && p.x < w && p.y > 0.0 && p.y < h
}

/// Even–odd point-in-polygon test (boundary points may go either way).
fn point_in_polygon(p: Point, poly: &[Point]) -> bool {
    let n = poly.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// The part of segment `a–b` inside the open table rectangle has positive length.
fn segment_crosses_table(a: Point, b: Point, w: f64, h: f64) -> bool {
    // Liang–Barsky clipping against [0, w] × [0, h].
    let d = b - a;
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q) in [(-d.x, a.x), (d.x, w - a.x), (-d.y, a.y), (d.y, h - a.y)] {
        if p == 0.0 {
            if q <= 0.0 {
                return false;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    if t1 - t0 <= 1e-12 {
        return false;
    }
    // Strictly inside, not just along an edge.
    let mid = a.lerp(b, (t0 + t1) / 2.0);
    strictly_inside_table(mid, w, h)
}

fn polygon_meets_table(poly: &[Point], w: f64, h: f64) -> bool {
    if poly.iter().any(|&p| strictly_inside_table(p, w, h)) {
        return true;
    }
    let centre = Point::new(w / 2.0, h / 2.0);
    if point_in_polygon(centre, poly) {
        return true;
    }
    let n = poly.len();
    (0..n).any(|i| segment_crosses_table(poly[i], poly[(i + 1) % n], w, h))
}

fn polyline_meets_table(line: &[Point], w: f64, h: f64) -> bool {
    line.iter().any(|&p| strictly_inside_table(p, w, h))
        || line.windows(2).any(|s| segment_crosses_table(s[0], s[1], w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
[table]
width = 48.0
height = 36

[[area]]
name = "Windmill Hill"
kind = "hill"
height = 2
points = [[10, 10], [16, 10], [16, 15], [10, 15], [10, 10]]

[[area]]
name = "Long Wood"
kind = "wood"
points = [[40, 30], [52, 30], [52, 40], [40, 40]]

[[line]]
name = "Stour"
kind = "river"
width = 3.0
points = [[0, 18], [48, 18]]

[[line.crossing]]
kind = "ford"
at = 24.0
width = 4.0

[[line.crossing]]
kind = "bridge"
at = 40.0
width = 2.0

[[line]]
kind = "dirt_road"
width = 1
points = [[24, 0], [24, 36]]
"#;

    fn load(text: &str) -> Result<Table, Diagnostics> {
        load_table(&Source::new("table.toml", text))
    }

    fn errors(text: &str) -> Vec<(usize, String, String)> {
        load(text)
            .expect_err("problems expected")
            .into_iter()
            .map(|d| (d.line, d.field, d.message))
            .collect()
    }

    #[test]
    fn good_table_loads() {
        let t = load(GOOD).unwrap();
        assert_eq!((t.width, t.height, t.slope_band), (48.0, 36.0, 1.0));
        assert_eq!(t.areas.len(), 2);
        let hill = &t.areas[0];
        assert_eq!(hill.kind, AreaKind::Hill);
        assert_eq!(hill.height, 2.0);
        assert_eq!(hill.polygon.points.len(), 4, "closing point dropped");
        assert_eq!(t.areas[1].height, 0.0);
        assert_eq!(t.lines.len(), 2);
        let river = &t.lines[0];
        assert_eq!(river.kind, LineKind::River);
        assert_eq!(river.crossings.len(), 2);
        assert_eq!(river.crossings[0].kind, CrossingKind::Ford);
        assert_eq!(river.crossings[1].at, 40.0);
        assert_eq!(t.lines[1].name, "");
        assert_eq!(t.lines[1].path, vec![Point::new(24.0, 0.0), Point::new(24.0, 36.0)]);
    }

    #[test]
    fn inline_crossings_and_default_hill_height() {
        let text = r#"
[table]
width = 24
height = 24
slope_band = 0.5
[[area]]
kind = "hill"
points = [[1, 1], [5, 1], [3, 4]]
[[line]]
kind = "stream"
width = 1
points = [[0, 12], [24, 12]]
crossings = [{ kind = "ford", at = 6, width = 2 }]
"#;
        let t = load(text).unwrap();
        assert_eq!(t.slope_band, 0.5);
        assert_eq!(t.areas[0].height, 1.0);
        assert_eq!(t.lines[0].crossings[0].at, 6.0);
    }

    #[test]
    fn every_problem_reported_at_once() {
        let text = r#"
[table]
width = -48
height = 36
[[area]]
name = "Bowtie"
kind = "wood"
points = [[0, 0], [10, 10], [10, 0], [0, 10]]
[[area]]
name = "Flat"
kind = "marsh"
points = [[0, 0], [5, 5], [10, 10]]
[[area]]
kind = "village"
height = 2
points = [[1, 1], [2, 1]]
[[line]]
name = "Stour"
kind = "river"
width = 0
points = [[0, 18]]
[[line.crossing]]
kind = "ford"
at = 3
width = 1
[[line]]
name = "Wall"
kind = "wall"
width = 0.5
points = [[1, 1], [1, 1], [3, 3]]
crossings = [{ kind = "bridge", at = 1, width = 1 }]
"#;
        let e = errors(text);
        let fields: Vec<&str> = e.iter().map(|(_, f, _)| f.as_str()).collect();
        assert_eq!(
            fields,
            vec![
                "table.width",
                "area[0].points[0]",
                "area[1].points",
                "area[2].height",
                "area[2].points",
                "line[0].width",
                "line[0].points",
                "line[1].points[1]",
                "line[1].crossings",
            ],
            "{e:#?}"
        );
        assert_eq!(e[0].0, 3);
        assert!(e[0].2.contains("positive number of inches, not -48"), "{}", e[0].2);
        assert!(e[1].2.contains("crosses itself"), "{}", e[1].2);
        assert!(e[2].2.contains("encloses no area"), "{}", e[2].2);
        assert!(e[3].2.contains("only hills have a height"), "{}", e[3].2);
        assert!(e[4].2.contains("at least 3 different points, found 2"), "{}", e[4].2);
        assert!(e[6].2.contains("at least 2 points, found 1"), "{}", e[6].2);
        assert!(e[7].2.contains("repeats the point before it"), "{}", e[7].2);
        assert!(e[8].2.contains("only rivers and streams"), "{}", e[8].2);
    }

    #[test]
    fn terrain_off_the_table_and_crossings_beyond_the_line() {
        let text = r#"
[table]
width = 48
height = 36
[[area]]
name = "Far Wood"
kind = "wood"
points = [[50, 0], [60, 0], [60, 10], [50, 10]]
[[area]]
name = "Edge Wood"
kind = "wood"
points = [[40, -5], [60, -5], [60, 5], [40, 5]]
[[area]]
name = "Everything"
kind = "rough"
points = [[-10, -10], [100, -10], [100, 100], [-10, 100]]
[[line]]
name = "Stour"
kind = "river"
width = 3
points = [[0, 18], [48, 18]]
crossings = [
  { kind = "ford", at = 50, width = 4 },
  { kind = "ford", at = 10, width = 4 },
  { kind = "bridge", at = 11, width = 2 },
]
[[line]]
name = "Outside"
kind = "hedge"
width = 0.5
points = [[0, -1], [48, -1]]
[[line]]
name = "Along the edge"
kind = "hedge"
width = 0.5
points = [[0, 0], [48, 0]]
"#;
        let e = errors(text);
        let fields: Vec<&str> = e.iter().map(|(_, f, _)| f.as_str()).collect();
        assert_eq!(
            fields,
            vec![
                "area[0].points",
                "line[0].crossings[0].at",
                "line[0].crossings[2]",
                "line[1].points",
                "line[2].points",
            ],
            "{e:#?}"
        );
        assert_eq!(e[0].2, "wood 'Far Wood' lies entirely off the 48\" by 36\" table");
        assert!(e[1].2.contains("beyond its ends: the line is 48\" long"), "{}", e[1].2);
        assert!(e[2].2.contains("bridge at 11\" overlaps the ford at 10\""), "{}", e[2].2);
    }

    #[test]
    fn serde_problems_located_and_other_keys_rejected() {
        let text = r#"
[table]
width = 48
height = 36
colour = "green"
[[area]]
kind = "forest"
points = [[1, 1], [5, 1], [3, 4]]
[[area]]
kind = "wood"
points = [[1, 1], [5, 1], [3]]
[[unit]]
name = "x"
"#;
        let e = errors(text);
        let got: Vec<(usize, &str)> = e.iter().map(|(l, f, _)| (*l, f.as_str())).collect();
        assert_eq!(
            got,
            vec![(5, "table.colour"), (7, "area[0].kind"), (11, "area[1].points[2]"), (12, "unit"),],
            "{e:#?}"
        );
        assert!(e[1].2.starts_with("unknown value `forest`, expected one of `hill`"), "{}", e[1].2);
        assert_eq!(e[2].2, "expected an array of 2 items, found an array of 1 item");
    }

    #[test]
    fn missing_table_section() {
        let e = errors("[[area]]\nkind = \"wood\"\npoints = [[1, 1], [5, 1], [3, 4]]\n");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].1, "table");
        assert_eq!(e[0].2, "missing required section or key `table`");
    }

    #[test]
    fn parse_table_reads_only_its_keys() {
        let text = format!("{GOOD}\n[[unit]]\nname = \"Velites\"\n");
        let doc = TomlDoc::parse(&Source::new("s.toml", text)).unwrap();
        let mut problems = doc.problems();
        let t = parse_table(&doc, &mut problems).unwrap();
        assert_eq!(t.areas.len(), 2);
        assert!(problems.is_empty());
    }

    #[test]
    fn self_crossing_detection() {
        let p = |v: &[(f64, f64)]| v.iter().map(|&(x, y)| Point::new(x, y)).collect::<Vec<_>>();
        assert_eq!(first_self_crossing(&p(&[(0., 0.), (4., 0.), (4., 4.), (0., 4.)])), None);
        // Concave but simple.
        assert_eq!(
            first_self_crossing(&p(&[(0., 0.), (4., 0.), (2., 1.), (4., 4.), (0., 4.)])),
            None
        );
        assert!(first_self_crossing(&p(&[(0., 0.), (4., 4.), (4., 0.), (0., 4.)])).is_some());
        // A vertex touching another edge.
        assert!(
            first_self_crossing(&p(&[(0., 0.), (4., 0.), (4., 4.), (2., 0.), (0., 4.)])).is_some()
        );
        // A spike folding back along itself.
        assert!(first_self_crossing(&p(&[(0., 0.), (4., 0.), (2., 0.), (2., 3.)])).is_some());
    }
}
