//! Drawing a table or grid as SVG, and as PNG through resvg.
//!
//! [`to_svg`] draws a [`Scene`] as one SVG document whose user unit is the inch: the table's
//! cloth, its terrain areas (hills tinted by height with the slope band hachured, woods, dense
//! trees, villages, marsh and rough ground, each with its own pattern and its name), linear
//! features at their width (rivers, streams, roads, walls, hedges) with their fords and
//! bridges, an optional square grid, the pieces (outline in the side's colour, stands, a thick
//! front edge and a facing arrow, label and detail), marks, a scale bar in inches, a north
//! arrow and the title. North (up the table, `y` growing) is up the image.
//!
//! [`to_png`] rasterises the same drawing at a chosen number of pixels per inch. It uses the
//! system's fonts when there are any; without fonts the text is left out, nothing fails.
//!
//! Nothing here panics on any scene: non-finite coordinates are skipped, absurd sizes are
//! clamped in the SVG and refused for PNG with a [`RenderError`].

use crate::geometry::{Point, Rect, Vec2};
use crate::rules::Side;
use crate::terrain::{AreaKind, CrossingKind, LineKind, LinearFeature, Table};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};
use svg::node::element::{
    Circle, ClipPath, Definitions, Group, Line, Path, Pattern, Polygon, Polyline, Rectangle, Text,
    Title,
};

/// A piece on the table: a unit's outline, its stands, its side and its label.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    /// The unit's ID, for clients that let a player pick it (none for markers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The unit's outline (drawn with its facing marked on the front edge).
    pub outline: Rect,
    /// The stands inside it, if they are drawn separately.
    pub stands: Vec<Rect>,
    /// The owning side, or `None` for neutral markers.
    pub side: Option<Side>,
    /// The label drawn on it.
    pub label: String,
    /// A second line: strength, state, casualties.
    pub detail: String,
}

/// A line drawn over the table: a planned path, a measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    /// The points of the polyline.
    pub points: Vec<Point>,
    /// A label at its end.
    pub label: String,
}

/// A square grid drawn over the table, for rule sets played on a grid.
///
/// Cell `(col, row)` covers `col * cell ..= (col + 1) * cell` east and
/// `row * cell ..= (row + 1) * cell` north of the table's south-west corner, so row 0 is the
/// southern (bottom) row. A grid scene's [`Table`] is normally `cols * cell` by `rows * cell`
/// with no areas or lines.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GridLayer {
    /// Number of columns (west to east).
    pub cols: u32,
    /// Number of rows (south to north).
    pub rows: u32,
    /// The side of a cell, in inches.
    pub cell: f64,
    /// Each cell's terrain, row by row from the south-west corner (index `row * cols + col`);
    /// `None` (or a missing entry) is open ground. Known kinds, each with its own fill:
    /// `clear`/`open`, `hill`, `wood`/`woods`/`forest`, `dense_trees`/`jungle`,
    /// `village`/`town`/`building`, `marsh`/`swamp`/`mud`, `rough`/`brush`/`scrub`,
    /// `river`/`water`/`lake`/`stream`, `road`/`paved_road`/`dirt_road`, `ford`, `bridge`,
    /// `wall`, `hedge`, `impassable`/`cliff`. Other kinds are drawn hatched grey with their name.
    #[serde(default)]
    pub cells: Vec<Option<String>>,
    /// Draw column letters and row numbers round the grid.
    #[serde(default)]
    pub coordinates: bool,
}

/// Everything needed to draw one moment of a battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// A caption drawn above the table.
    pub title: String,
    /// The table and its terrain.
    pub table: Table,
    /// The pieces.
    pub pieces: Vec<Piece>,
    /// Lines to draw over the table.
    pub marks: Vec<Mark>,
    /// A square grid over the table, for grid rule sets; `None` on a continuous table.
    #[serde(default)]
    pub grid: Option<GridLayer>,
}

impl Scene {
    /// A scene of a table with no pieces, marks or grid.
    pub fn new(title: impl Into<String>, table: Table) -> Scene {
        Scene { title: title.into(), table, pieces: Vec::new(), marks: Vec::new(), grid: None }
    }
}

/// Why a scene could not be drawn as PNG.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The scale was not a positive finite number.
    #[error("the scale must be a positive number of pixels per inch, not {0}")]
    BadScale(f32),
    /// The image would be too big to make.
    #[error("the image would be {width} by {height} pixels, more than {max} pixels in all")]
    TooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
        /// The most pixels allowed.
        max: u64,
    },
    /// The SVG could not be read back (a bug: please report it).
    #[error("the drawing could not be read: {0}")]
    Svg(String),
    /// The PNG could not be encoded.
    #[error("the PNG could not be encoded: {0}")]
    Encode(String),
}

/// The scale of [`to_svg`]'s `width` and `height` attributes: 20 pixels per inch.
pub const SVG_PIXELS_PER_INCH: f64 = 20.0;

/// The most pixels [`to_png`] will make (64 megapixels).
pub const MAX_PNG_PIXELS: u64 = 64_000_000;

/// The largest table side drawn, in inches; larger sizes are clamped.
const MAX_TABLE_INCHES: f64 = 10_000.0;
const SIDE_MARGIN: f64 = 1.5;
const TOP_MARGIN: f64 = 2.2;
const BOTTOM_MARGIN: f64 = 2.4;
const FONT: &str = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";

/// The scene as an SVG document. One user unit is one inch; the `width` and `height`
/// attributes are at [`SVG_PIXELS_PER_INCH`].
pub fn to_svg(scene: &Scene) -> String {
    build_svg(scene, SVG_PIXELS_PER_INCH)
}

/// The size in pixels of [`to_png`]'s image of a scene at a scale: the table and the margins
/// round it (1.5" each side, 2.2" above for the title, 2.4" below for the scale bar), each
/// rounded up to whole pixels.
pub fn png_size(scene: &Scene, pixels_per_inch: f32) -> (u64, u64) {
    let f = Frame::new(&scene.table);
    let ppi = f64::from(pixels_per_inch);
    let px = |v: f64| {
        let p = (v * ppi).ceil();
        if p.is_finite() && p >= 1.0 { p.min(u64::MAX as f64) as u64 } else { 1 }
    };
    (px(f.total_w()), px(f.total_h()))
}

/// The scene as a PNG image at `pixels_per_inch` (see [`png_size`] for its size).
pub fn to_png(scene: &Scene, pixels_per_inch: f32) -> Result<Vec<u8>, RenderError> {
    png_with_fonts(scene, pixels_per_inch, system_fonts())
}

/// The system's fonts, loaded once.
fn system_fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            db.load_system_fonts();
            Arc::new(db)
        })
        .clone()
}

fn png_with_fonts(
    scene: &Scene,
    pixels_per_inch: f32,
    fonts: Arc<resvg::usvg::fontdb::Database>,
) -> Result<Vec<u8>, RenderError> {
    if !(pixels_per_inch.is_finite() && pixels_per_inch > 0.0) {
        return Err(RenderError::BadScale(pixels_per_inch));
    }
    let (width, height) = png_size(scene, pixels_per_inch);
    if width.saturating_mul(height) > MAX_PNG_PIXELS || width > u32::MAX as u64 {
        return Err(RenderError::TooLarge { width, height, max: MAX_PNG_PIXELS });
    }
    let text = build_svg(scene, f64::from(pixels_per_inch));
    let options = resvg::usvg::Options { fontdb: fonts, ..Default::default() };
    let tree = resvg::usvg::Tree::from_str(&text, &options)
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    let (w, h) = (width as u32, height as u32);
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).ok_or(RenderError::TooLarge {
        width,
        height,
        max: MAX_PNG_PIXELS,
    })?;
    let size = tree.size();
    let transform = resvg::tiny_skia::Transform::from_scale(
        w as f32 / size.width().max(f32::MIN_POSITIVE),
        h as f32 / size.height().max(f32::MIN_POSITIVE),
    );
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| RenderError::Encode(e.to_string()))
}

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

/// Where the table sits in the drawing, in inches.
struct Frame {
    w: f64,
    h: f64,
}

impl Frame {
    fn new(t: &Table) -> Frame {
        let clamp = |v: f64| if v.is_finite() && v > 0.0 { v.min(MAX_TABLE_INCHES) } else { 1.0 };
        Frame { w: clamp(t.width), h: clamp(t.height) }
    }

    fn total_w(&self) -> f64 {
        self.w + 2.0 * SIDE_MARGIN
    }

    fn total_h(&self) -> f64 {
        self.h + TOP_MARGIN + BOTTOM_MARGIN
    }

    /// A table point in drawing coordinates (y down), or `None` if not finite.
    fn xy(&self, p: Point) -> Option<(f64, f64)> {
        let (x, y) = (SIDE_MARGIN + p.x, TOP_MARGIN + self.h - p.y);
        (x.is_finite() && y.is_finite() && x.abs() < 1e9 && y.abs() < 1e9).then_some((x, y))
    }

    /// A `points` attribute, or `None` when any point is not finite or there are too few.
    fn points(&self, pts: &[Point], min: usize) -> Option<String> {
        if pts.len() < min {
            return None;
        }
        let mut s = String::new();
        for p in pts {
            let (x, y) = self.xy(*p)?;
            if !s.is_empty() {
                s.push(' ');
            }
            let _ = write!(s, "{},{}", n(x), n(y));
        }
        Some(s)
    }

    /// A closed path's `d` attribute.
    fn path(&self, pts: &[Point], closed: bool) -> Option<String> {
        let mut s = String::new();
        for (i, p) in pts.iter().enumerate() {
            let (x, y) = self.xy(*p)?;
            let _ = write!(s, "{}{},{} ", if i == 0 { 'M' } else { 'L' }, n(x), n(y));
        }
        if closed {
            s.push('Z');
        }
        (!pts.is_empty()).then_some(s)
    }
}

/// A number for an attribute: at most three decimals, no trailing zeros.
fn n(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    let s = format!("{:.3}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" || s.is_empty() { "0".into() } else { s.to_string() }
}

/// Text safe to put in XML: control characters dropped (the svg crate escapes `<`, `>`, `&`).
fn clean(s: &str) -> String {
    s.chars().filter(|c| !c.is_control() || *c == '\t').take(200).collect()
}

fn label(x: f64, y: f64, size: f64, text: &str) -> Text {
    Text::new(clean(text))
        .set("x", n(x))
        .set("y", n(y))
        .set("font-size", n(size))
        .set("font-family", FONT)
        .set("text-anchor", "middle")
        .set("paint-order", "stroke")
        .set("stroke-linejoin", "round")
}

// ---------------------------------------------------------------------------------------------
// Colours and patterns
// ---------------------------------------------------------------------------------------------

const CLOTH: &str = "#6f9a4c";
const CLOTH_EDGE: &str = "#4b3621";
const PAPER: &str = "#f3efe3";
const INK: &str = "#222222";

fn side_colours(side: Option<Side>) -> (&'static str, &'static str) {
    match side {
        Some(Side::Red) => ("#c8413a", "#6e1510"),
        Some(Side::Blue) => ("#3a67c8", "#10286e"),
        None => ("#9a9a9a", "#444444"),
    }
}

fn area_fill(kind: AreaKind) -> (&'static str, &'static str) {
    // (fill, outline)
    match kind {
        AreaKind::Hill => ("#d8c58a", "#7a6030"),
        AreaKind::Wood => ("url(#stk-wood)", "#24451b"),
        AreaKind::DenseTrees => ("url(#stk-dense)", "#142e10"),
        AreaKind::Village => ("url(#stk-village)", "#5e4632"),
        AreaKind::Marsh => ("url(#stk-marsh)", "#3f6a6a"),
        AreaKind::Rough => ("url(#stk-rough)", "#6f6a3a"),
        AreaKind::Open => ("none", "#9a8f5a"),
    }
}

/// Pattern tiles, in inches.
fn definitions() -> Definitions {
    let tile = |id: &str, size: f64, bg: &str| {
        Pattern::new()
            .set("id", id)
            .set("patternUnits", "userSpaceOnUse")
            .set("width", n(size))
            .set("height", n(size))
            .add(Rectangle::new().set("width", n(size)).set("height", n(size)).set("fill", bg))
    };
    let tree = |x: f64, y: f64, r: f64, fill: &str| {
        Circle::new()
            .set("cx", n(x))
            .set("cy", n(y))
            .set("r", n(r))
            .set("fill", fill)
            .set("stroke", "#1c3814")
            .set("stroke-width", "0.03")
    };
    let wood = tile("stk-wood", 1.6, "#4f7f36")
        .add(tree(0.4, 0.4, 0.3, "#2f5a22"))
        .add(tree(1.2, 1.1, 0.34, "#3a6a2a"))
        .add(tree(1.25, 0.3, 0.2, "#2f5a22"))
        .add(tree(0.35, 1.25, 0.22, "#3a6a2a"));
    let dense = tile("stk-dense", 1.0, "#24461a")
        .add(tree(0.25, 0.25, 0.26, "#1a3a12"))
        .add(tree(0.75, 0.75, 0.28, "#2c5420"))
        .add(tree(0.75, 0.2, 0.2, "#2c5420"))
        .add(tree(0.2, 0.75, 0.2, "#1a3a12"));
    let house = |x: f64, y: f64, w: f64, h: f64| {
        Rectangle::new()
            .set("x", n(x))
            .set("y", n(y))
            .set("width", n(w))
            .set("height", n(h))
            .set("fill", "#9b5a3c")
            .set("stroke", "#4a2a1a")
            .set("stroke-width", "0.04")
    };
    let village = tile("stk-village", 2.0, "#c9b48e")
        .add(house(0.2, 0.3, 0.7, 0.45))
        .add(house(1.2, 0.2, 0.45, 0.6))
        .add(house(0.4, 1.2, 0.5, 0.5))
        .add(house(1.1, 1.25, 0.7, 0.4));
    let reed = |x: f64, y: f64| {
        Line::new()
            .set("x1", n(x))
            .set("y1", n(y))
            .set("x2", n(x + 0.4))
            .set("y2", n(y))
            .set("stroke", "#3f7896")
            .set("stroke-width", "0.06")
            .set("stroke-linecap", "round")
    };
    let tuft = |x: f64, y: f64| {
        Path::new()
            .set("d", format!("M{},{} l0.08,-0.18 l0.08,0.18", n(x), n(y)))
            .set("fill", "none")
            .set("stroke", "#4e4a22")
            .set("stroke-width", "0.04")
    };
    let marsh = tile("stk-marsh", 1.2, "#7f9f78")
        .add(reed(0.1, 0.3))
        .add(reed(0.7, 0.9))
        .add(tuft(0.7, 0.35))
        .add(tuft(0.15, 0.95));
    let rough = tile("stk-rough", 1.0, "#9a9a62")
        .add(tuft(0.15, 0.35))
        .add(tuft(0.6, 0.85))
        .add(
            Circle::new().set("cx", "0.7").set("cy", "0.3").set("r", "0.06").set("fill", "#6d6745"),
        )
        .add(
            Circle::new()
                .set("cx", "0.3")
                .set("cy", "0.75")
                .set("r", "0.05")
                .set("fill", "#6d6745"),
        );
    let unknown = Pattern::new()
        .set("id", "stk-unknown")
        .set("patternUnits", "userSpaceOnUse")
        .set("width", "0.4")
        .set("height", "0.4")
        .add(Rectangle::new().set("width", "0.4").set("height", "0.4").set("fill", "#b8b8b8"))
        .add(
            Line::new()
                .set("x1", "0")
                .set("y1", "0.4")
                .set("x2", "0.4")
                .set("y2", "0")
                .set("stroke", "#7a7a7a")
                .set("stroke-width", "0.05"),
        );
    Definitions::new().add(wood).add(dense).add(village).add(marsh).add(rough).add(unknown)
}

/// (fill, edge, width factor, dash) of a linear feature.
fn line_style(kind: LineKind) -> (&'static str, &'static str, Option<&'static str>) {
    match kind {
        LineKind::River => ("#4a86c5", "#2b5688", None),
        LineKind::Stream => ("#5e9fd8", "#356a9a", None),
        LineKind::PavedRoad => ("#a59d90", "#6e665a", None),
        LineKind::DirtRoad => ("#a97b45", "#7a5228", None),
        LineKind::Wall => ("#9d958a", "#4d4740", Some("0.5 0.08")),
        LineKind::Hedge => ("#2f5f22", "#173512", None),
    }
}

/// Fill for a grid cell's terrain kind, and whether the name should be written on it.
fn cell_fill(kind: &str) -> (&'static str, bool) {
    match kind.trim().to_ascii_lowercase().replace([' ', '-'], "_").as_str() {
        "" | "clear" | "open" | "grass" | "plain" | "field" => ("none", false),
        "hill" | "hills" | "high_ground" => ("#c9b77e", false),
        "wood" | "woods" | "forest" | "trees" => ("url(#stk-wood)", false),
        "dense_trees" | "dense_wood" | "jungle" => ("url(#stk-dense)", false),
        "village" | "town" | "building" | "buildings" | "city" => ("url(#stk-village)", false),
        "marsh" | "swamp" | "mud" | "bog" => ("url(#stk-marsh)", false),
        "rough" | "brush" | "scrub" | "rocks" => ("url(#stk-rough)", false),
        "river" | "water" | "lake" | "stream" | "sea" => ("#4a86c5", false),
        "road" | "paved_road" | "dirt_road" | "track" => ("#a97b45", false),
        "ford" => ("#8fb8d8", true),
        "bridge" => ("#7b5a3a", true),
        "wall" => ("#9d958a", false),
        "hedge" => ("#2f5f22", false),
        "impassable" | "cliff" | "mountain" => ("#5a5248", false),
        _ => ("url(#stk-unknown)", true),
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------------

fn build_svg(scene: &Scene, pixels_per_inch: f64) -> String {
    let f = Frame::new(&scene.table);
    let (tw, th) = (f.total_w(), f.total_h());
    let mut doc = svg::Document::new()
        .set("viewBox", format!("0 0 {} {}", n(tw), n(th)))
        .set("width", n(tw * pixels_per_inch))
        .set("height", n(th * pixels_per_inch))
        .set("font-family", FONT)
        .add(Title::new(clean(&scene.title)))
        .add(definitions())
        .add(Rectangle::new().set("width", n(tw)).set("height", n(th)).set("fill", PAPER));

    // The table: a wooden edge and green cloth.
    doc = doc
        .add(
            Rectangle::new()
                .set("x", n(SIDE_MARGIN - 0.25))
                .set("y", n(TOP_MARGIN - 0.25))
                .set("width", n(f.w + 0.5))
                .set("height", n(f.h + 0.5))
                .set("rx", "0.15")
                .set("fill", CLOTH_EDGE),
        )
        .add(
            Rectangle::new()
                .set("class", "table")
                .set("x", n(SIDE_MARGIN))
                .set("y", n(TOP_MARGIN))
                .set("width", n(f.w))
                .set("height", n(f.h))
                .set("fill", CLOTH),
        );

    // Everything on the table is clipped to it.
    let clip = ClipPath::new().set("id", "stk-table").add(
        Rectangle::new()
            .set("x", n(SIDE_MARGIN))
            .set("y", n(TOP_MARGIN))
            .set("width", n(f.w))
            .set("height", n(f.h)),
    );
    let mut on_table = Group::new().set("clip-path", "url(#stk-table)");
    let mut names = Group::new().set("class", "terrain-names");

    if let Some(grid) = &scene.grid {
        on_table = on_table.add(draw_grid(&f, grid));
    }
    // Where names have been put, so that they do not pile up.
    let mut placed: Vec<Point> = Vec::new();
    for (i, area) in scene.table.areas.iter().enumerate() {
        if let Some(g) = draw_area(&f, i, area, scene.table.slope_band) {
            on_table = on_table.add(g);
        }
        // Stacked contours of one hill share its name: write it once.
        let named_before = scene.table.areas[..i].iter().any(|a| a.name == area.name);
        if !area.name.is_empty()
            && !named_before
            && let Some(c) = centroid(&area.polygon.points)
            && let Some((x, y)) = f.xy(c)
        {
            placed.push(c);
            names = names.add(
                label(x, y + 0.18, 0.5, &area.name)
                    .set("font-style", "italic")
                    .set("fill", "#1f2a14")
                    .set("stroke", "#eee8cf")
                    .set("stroke-width", "0.1")
                    .set("stroke-opacity", "0.8"),
            );
        }
    }
    // Water first, then roads, then walls and hedges on top.
    let mut lines: Vec<&LinearFeature> = scene.table.lines.iter().collect();
    lines.sort_by_key(|l| match l.kind {
        LineKind::River | LineKind::Stream => 0,
        LineKind::PavedRoad | LineKind::DirtRoad => 1,
        LineKind::Wall | LineKind::Hedge => 2,
    });
    for line in lines {
        if let Some(g) = draw_line(&f, line) {
            on_table = on_table.add(g);
        }
        if line.name.is_empty() {
            continue;
        }
        if let Some((at, angle)) = line_label_place(&f, line, &placed) {
            placed.push(at);
            let Some((x, y)) = f.xy(at) else { continue };
            let fill = match line.kind {
                LineKind::River | LineKind::Stream => "#15365e",
                _ => "#3a2714",
            };
            names = names.add(
                label(x, y + 0.15, 0.45, &line.name)
                    .set("transform", format!("rotate({} {} {})", n(angle), n(x), n(y)))
                    .set("font-style", "italic")
                    .set("fill", fill)
                    .set("stroke", "#eee8cf")
                    .set("stroke-width", "0.1")
                    .set("stroke-opacity", "0.8"),
            );
        }
    }
    if let Some(grid) = &scene.grid {
        on_table = on_table.add(draw_grid_lines(&f, grid));
    }
    on_table = on_table.add(names);
    for piece in &scene.pieces {
        if let Some(g) = draw_piece(&f, piece) {
            on_table = on_table.add(g);
        }
    }
    for mark in &scene.marks {
        if let Some(g) = draw_mark(&f, mark) {
            on_table = on_table.add(g);
        }
    }
    doc = doc.add(Definitions::new().add(clip)).add(on_table);
    if let Some(grid) = &scene.grid
        && grid.coordinates
    {
        doc = doc.add(draw_grid_coordinates(&f, grid));
    }

    // Title and table size.
    doc = doc
        .add(
            Text::new(clean(&scene.title))
                .set("class", "title")
                .set("x", n(SIDE_MARGIN))
                .set("y", n(TOP_MARGIN - 0.85))
                .set("font-size", "0.8")
                .set("font-weight", "bold")
                .set("fill", INK),
        )
        .add(
            Text::new(format!("{}\u{2033} \u{d7} {}\u{2033}", n(f.w), n(f.h)))
                .set("x", n(SIDE_MARGIN + f.w))
                .set("y", n(TOP_MARGIN - 0.85))
                .set("font-size", "0.45")
                .set("text-anchor", "end")
                .set("fill", "#555555"),
        );
    doc = doc.add(scale_bar(&f)).add(north_arrow(&f));
    doc.to_string()
}

fn draw_area(f: &Frame, i: usize, area: &crate::terrain::Area, band: f64) -> Option<Group> {
    let pts = &area.polygon.points;
    let points = f.points(pts, 3)?;
    let (fill, stroke) = area_fill(area.kind);
    let kind = serde_json::to_value(area.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let mut g = Group::new().set("class", format!("area {kind}"));
    if !area.name.is_empty() {
        g = g.add(Title::new(clean(&area.name)));
    }
    if area.kind == AreaKind::Hill {
        let h = if area.height.is_finite() { area.height } else { 1.0 };
        let opacity = (0.45 + 0.2 * (h - 1.0)).clamp(0.3, 0.9);
        g = g.add(
            Polygon::new()
                .set("points", points.clone())
                .set("fill", fill)
                .set("fill-opacity", n(opacity))
                .set("stroke", stroke)
                .set("stroke-width", "0.06")
                .set("stroke-linejoin", "round"),
        );
        // The slope band: a tint and hachures inside the contour, as on a map.
        if band.is_finite() && band > 0.0 {
            let band = band.min(100.0);
            let id = format!("stk-hill-{i}");
            let d = f.path(pts, true)?;
            g = g
                .add(Definitions::new().add(
                    ClipPath::new().set("id", id.clone()).add(Path::new().set("d", d.clone())),
                ))
                .add(
                    Path::new()
                        .set("d", d.clone())
                        .set("fill", "none")
                        .set("stroke", "#8a6d35")
                        .set("stroke-opacity", "0.25")
                        .set("stroke-width", n(2.0 * band))
                        .set("stroke-linejoin", "round")
                        .set("clip-path", format!("url(#{id})")),
                )
                .add(
                    Path::new()
                        .set("d", d)
                        .set("fill", "none")
                        .set("stroke", "#6b5228")
                        .set("stroke-opacity", "0.7")
                        .set("stroke-width", n(2.0 * band))
                        .set("stroke-dasharray", "0.05 0.22")
                        .set("stroke-linejoin", "round")
                        .set("clip-path", format!("url(#{id})")),
                );
        }
    } else {
        g = g.add(
            Polygon::new()
                .set("points", points)
                .set("fill", fill)
                .set("stroke", stroke)
                .set("stroke-width", "0.06")
                .set("stroke-linejoin", "round"),
        );
    }
    Some(g)
}

fn draw_line(f: &Frame, line: &LinearFeature) -> Option<Group> {
    let points = f.points(&line.path, 2)?;
    let w = if line.width.is_finite() && line.width > 0.0 { line.width.min(100.0) } else { 0.1 };
    let (fill, edge, dash) = line_style(line.kind);
    let kind = serde_json::to_value(line.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let base = |colour: &str, width: f64| {
        Polyline::new()
            .set("points", points.clone())
            .set("fill", "none")
            .set("stroke", colour.to_string())
            .set("stroke-width", n(width))
            .set("stroke-linejoin", "round")
            .set("stroke-linecap", "round")
    };
    let mut g = Group::new().set("class", format!("line {kind}"));
    if !line.name.is_empty() {
        g = g.add(Title::new(clean(&line.name)));
    }
    g = g.add(base(edge, w + 0.12));
    let mut top = base(fill, w);
    if let Some(d) = dash {
        top = top.set("stroke-dasharray", d);
    }
    g = g.add(top);
    if line.kind == LineKind::Hedge {
        g = g.add(base("#3f7a2e", w * 0.5).set("stroke-dasharray", "0.08 0.25"));
    }
    if matches!(line.kind, LineKind::River | LineKind::Stream) {
        // A lighter current down the middle.
        g = g.add(base("#7fb0e0", w * 0.25).set("stroke-opacity", "0.6"));
    }
    let length = polyline_length(&line.path);
    for c in &line.crossings {
        if !(c.at.is_finite() && c.width.is_finite() && c.width > 0.0) {
            continue;
        }
        let part = sub_polyline(&line.path, c.at - c.width / 2.0, c.at + c.width / 2.0, length);
        let Some(pts) = f.points(&part, 2) else { continue };
        let piece = |colour: &str, width: f64| {
            Polyline::new()
                .set("points", pts.clone())
                .set("fill", "none")
                .set("stroke", colour.to_string())
                .set("stroke-width", n(width))
                .set("stroke-linecap", "butt")
                .set("stroke-linejoin", "round")
        };
        match c.kind {
            CrossingKind::Ford => {
                g = g.add(
                    Group::new()
                        .set("class", "ford")
                        .add(Title::new("ford"))
                        .add(piece("#c7b27a", w))
                        .add(piece("#8fb8d8", w).set("stroke-dasharray", "0.12 0.12")),
                );
            }
            CrossingKind::Bridge => {
                g = g.add(
                    Group::new()
                        .set("class", "bridge")
                        .add(Title::new("bridge"))
                        .add(piece("#3e2a18", w + 0.7))
                        .add(piece("#8a6440", w + 0.5))
                        .add(piece("#6e4e30", w + 0.5).set("stroke-dasharray", "0.04 0.2")),
                );
            }
        }
    }
    Some(g)
}

fn draw_piece(f: &Frame, piece: &Piece) -> Option<Group> {
    let r = &piece.outline;
    if !(r.width.is_finite() && r.depth.is_finite() && r.centre.is_finite()) {
        return None;
    }
    let (fill, edge) = side_colours(piece.side);
    let corners = r.corners();
    let mut g = Group::new().set("class", "piece");
    g = g.add(Title::new(clean(format!("{} {}", piece.label, piece.detail).trim())));
    g = g.add(
        Polygon::new()
            .set("points", f.points(&corners, 4)?)
            .set("fill", fill)
            .set("fill-opacity", "0.88")
            .set("stroke", edge)
            .set("stroke-width", "0.05")
            .set("stroke-linejoin", "round"),
    );
    for s in &piece.stands {
        if let Some(p) = f.points(&s.corners(), 4) {
            g = g.add(
                Polygon::new()
                    .set("points", p)
                    .set("fill", "none")
                    .set("stroke", edge)
                    .set("stroke-opacity", "0.6")
                    .set("stroke-width", "0.03"),
            );
        }
    }
    // The front edge, thick, and an arrow just behind it pointing the way the unit faces.
    let (fl, fr) = (f.xy(corners[0])?, f.xy(corners[1])?);
    g = g.add(
        Line::new()
            .set("class", "front")
            .set("x1", n(fl.0))
            .set("y1", n(fl.1))
            .set("x2", n(fr.0))
            .set("y2", n(fr.1))
            .set("stroke", "#111111")
            .set("stroke-width", "0.14")
            .set("stroke-linecap", "round"),
    );
    let size = (r.width.abs().min(r.depth.abs()) * 0.45).clamp(0.05, 0.5);
    let fc = r.front_centre();
    let (fwd, right) = (r.facing.vector(), r.facing.right());
    let tip = fc - fwd * 0.1;
    let back = tip - fwd * size;
    let tri = [tip, back + right * (size * 0.6), back - right * (size * 0.6)];
    if let Some(p) = f.points(&tri, 3) {
        g = g.add(
            Polygon::new().set("points", p).set("fill", "#111111").set("fill-opacity", "0.85"),
        );
    }
    if let Some((x, y)) = f.xy(r.centre) {
        let has_detail = !piece.detail.trim().is_empty();
        let ly = if has_detail { y - 0.02 } else { y + 0.15 };
        if !piece.label.trim().is_empty() {
            g = g.add(
                label(x, ly, 0.42, &piece.label)
                    .set("font-weight", "bold")
                    .set("fill", "#ffffff")
                    .set("stroke", edge)
                    .set("stroke-width", "0.09"),
            );
        }
        if has_detail {
            g = g.add(
                label(x, ly + 0.4, 0.32, &piece.detail)
                    .set("fill", "#ffffff")
                    .set("stroke", edge)
                    .set("stroke-width", "0.08"),
            );
        }
    }
    Some(g)
}

fn draw_mark(f: &Frame, mark: &Mark) -> Option<Group> {
    let mut g = Group::new().set("class", "mark");
    let pts = f.points(&mark.points, 1)?;
    if mark.points.len() >= 2 {
        g = g
            .add(
                Polyline::new()
                    .set("points", pts.clone())
                    .set("fill", "none")
                    .set("stroke", "#1b1b1b")
                    .set("stroke-opacity", "0.5")
                    .set("stroke-width", "0.14")
                    .set("stroke-linejoin", "round"),
            )
            .add(
                Polyline::new()
                    .set("points", pts)
                    .set("fill", "none")
                    .set("stroke", "#ffe44d")
                    .set("stroke-width", "0.07")
                    .set("stroke-dasharray", "0.3 0.15")
                    .set("stroke-linejoin", "round"),
            );
    }
    let first = f.xy(*mark.points.first()?)?;
    let last = f.xy(*mark.points.last()?)?;
    for (x, y) in [first, last] {
        g = g.add(
            Circle::new()
                .set("cx", n(x))
                .set("cy", n(y))
                .set("r", "0.1")
                .set("fill", "#ffe44d")
                .set("stroke", "#1b1b1b")
                .set("stroke-width", "0.03"),
        );
    }
    if !mark.label.trim().is_empty() {
        g = g.add(
            label(last.0 + 0.2, last.1 - 0.2, 0.38, &mark.label)
                .set("text-anchor", "start")
                .set("fill", "#1b1b1b")
                .set("stroke", "#fff7c0")
                .set("stroke-width", "0.1"),
        );
    }
    Some(g)
}

/// Cells to draw at most (larger grids are drawn as lines only).
const MAX_GRID_CELLS: u64 = 250_000;

fn grid_ok(grid: &GridLayer) -> bool {
    grid.cell.is_finite()
        && grid.cell > 0.0
        && u64::from(grid.cols) * u64::from(grid.rows) <= MAX_GRID_CELLS
}

fn draw_grid(f: &Frame, grid: &GridLayer) -> Group {
    let mut g = Group::new().set("class", "grid-cells");
    if !grid_ok(grid) {
        return g;
    }
    let c = grid.cell;
    for row in 0..grid.rows {
        for col in 0..grid.cols {
            let idx = row as usize * grid.cols as usize + col as usize;
            let Some(Some(kind)) = grid.cells.get(idx) else { continue };
            let (fill, named) = cell_fill(kind);
            if fill == "none" && !named {
                continue;
            }
            let nw = Point::new(f64::from(col) * c, f64::from(row + 1) * c);
            let Some((x, y)) = f.xy(nw) else { continue };
            let mut cell = Group::new().add(Title::new(clean(kind))).add(
                Rectangle::new()
                    .set("x", n(x))
                    .set("y", n(y))
                    .set("width", n(c))
                    .set("height", n(c))
                    .set("fill", fill),
            );
            if named {
                cell = cell.add(
                    label(x + c / 2.0, y + c / 2.0 + 0.1, (c * 0.18).clamp(0.1, 0.4), kind)
                        .set("fill", INK)
                        .set("stroke", "#ffffff")
                        .set("stroke-width", "0.06"),
                );
            }
            g = g.add(cell);
        }
    }
    g
}

fn draw_grid_lines(f: &Frame, grid: &GridLayer) -> Group {
    let mut g = Group::new().set("class", "grid-lines");
    if !(grid.cell.is_finite() && grid.cell > 0.0) || grid.cols > 5_000 || grid.rows > 5_000 {
        return g;
    }
    let c = grid.cell;
    let (gw, gh) = (f64::from(grid.cols) * c, f64::from(grid.rows) * c);
    let mut d = String::new();
    for col in 0..=grid.cols {
        let x = f64::from(col) * c;
        if let (Some(a), Some(b)) = (f.xy(Point::new(x, 0.0)), f.xy(Point::new(x, gh))) {
            let _ = write!(d, "M{},{} L{},{} ", n(a.0), n(a.1), n(b.0), n(b.1));
        }
    }
    for row in 0..=grid.rows {
        let y = f64::from(row) * c;
        if let (Some(a), Some(b)) = (f.xy(Point::new(0.0, y)), f.xy(Point::new(gw, y))) {
            let _ = write!(d, "M{},{} L{},{} ", n(a.0), n(a.1), n(b.0), n(b.1));
        }
    }
    if !d.is_empty() {
        g = g.add(
            Path::new()
                .set("d", d)
                .set("fill", "none")
                .set("stroke", "#1d2a12")
                .set("stroke-opacity", "0.45")
                .set("stroke-width", n((c * 0.02).clamp(0.01, 0.06))),
        );
    }
    g
}

/// Column letters: A … Z, AA, AB, …
fn column_name(mut col: u32) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (col % 26) as u8);
        if col < 26 {
            break;
        }
        col = col / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

fn draw_grid_coordinates(f: &Frame, grid: &GridLayer) -> Group {
    let mut g = Group::new().set("class", "grid-coordinates");
    if !grid_ok(grid) || grid.cols > 500 || grid.rows > 500 {
        return g;
    }
    let c = grid.cell;
    let size = (c * 0.3).clamp(0.15, 0.45);
    for col in 0..grid.cols {
        if let Some((x, y)) = f.xy(Point::new((f64::from(col) + 0.5) * c, 0.0)) {
            g = g.add(label(x, y + 0.35 + size, size, &column_name(col)).set("fill", INK));
        }
    }
    for row in 0..grid.rows {
        if let Some((x, y)) = f.xy(Point::new(0.0, (f64::from(row) + 0.5) * c)) {
            g = g.add(
                label(x - 0.35, y + size * 0.35, size, &(row + 1).to_string())
                    .set("text-anchor", "end")
                    .set("fill", INK),
            );
        }
    }
    g
}

fn scale_bar(f: &Frame) -> Group {
    let mut g = Group::new().set("class", "scale-bar");
    let len = (f.w / 2.0).floor().clamp(1.0, 12.0) as u32;
    let x0 = SIDE_MARGIN;
    let y0 = TOP_MARGIN + f.h + 1.2;
    let seg_h = 0.22;
    for i in 0..len {
        g = g.add(
            Rectangle::new()
                .set("x", n(x0 + f64::from(i)))
                .set("y", n(y0))
                .set("width", "1")
                .set("height", n(seg_h))
                .set("fill", if i % 2 == 0 { INK } else { "#ffffff" })
                .set("stroke", INK)
                .set("stroke-width", "0.03"),
        );
    }
    let mut ticks = vec![0, len];
    if len >= 4 && len.is_multiple_of(2) {
        ticks.insert(1, len / 2);
    }
    for t in ticks {
        let text = if t == 0 { "0".to_string() } else { format!("{t}\u{2033}") };
        g = g.add(
            Text::new(text)
                .set("x", n(x0 + f64::from(t)))
                .set("y", n(y0 + seg_h + 0.5))
                .set("font-size", "0.4")
                .set("text-anchor", "middle")
                .set("fill", INK),
        );
    }
    g.add(
        Text::new("inches")
            .set("x", n(x0 + f64::from(len) + 0.5))
            .set("y", n(y0 + seg_h))
            .set("font-size", "0.35")
            .set("fill", "#555555"),
    )
}

fn north_arrow(f: &Frame) -> Group {
    let x = SIDE_MARGIN + f.w - 0.4;
    let y = TOP_MARGIN + f.h + 1.1;
    Group::new()
        .set("class", "north")
        .add(
            Polygon::new()
                .set(
                    "points",
                    format!(
                        "{},{} {},{} {},{} {},{}",
                        n(x),
                        n(y),
                        n(x + 0.25),
                        n(y + 0.8),
                        n(x),
                        n(y + 0.6),
                        n(x - 0.25),
                        n(y + 0.8)
                    ),
                )
                .set("fill", INK),
        )
        .add(
            Text::new("N")
                .set("x", n(x - 0.45))
                .set("y", n(y + 0.65))
                .set("font-size", "0.45")
                .set("font-weight", "bold")
                .set("text-anchor", "end")
                .set("fill", INK),
        )
}

// ---------------------------------------------------------------------------------------------
// Small geometry helpers
// ---------------------------------------------------------------------------------------------

/// Where to write a line's name: beside the line, at the first of a few places along it that
/// is clear of the names already written, turned to run along the line (never upside down).
/// Returns the point on the table and the rotation in degrees (clockwise, as SVG turns).
fn line_label_place(f: &Frame, line: &LinearFeature, placed: &[Point]) -> Option<(Point, f64)> {
    let length = polyline_length(&line.path);
    if !(length.is_finite() && length > 0.0) {
        return None;
    }
    let offset =
        if line.width.is_finite() { line.width.clamp(0.0, 20.0) / 2.0 + 0.35 } else { 0.5 };
    let mut first = None;
    for t in [0.5, 0.3, 0.7, 0.15, 0.85] {
        let Some((p, dir)) = point_along(&line.path, length * t) else { continue };
        let left = dir.perp_left();
        let up = if left.y < 0.0 { -left } else { left };
        let at = p + up * offset;
        // On the drawing, y runs down: the angle of the line's direction seen on screen.
        let mut angle = (-dir.y).atan2(dir.x).to_degrees();
        if angle > 90.0 {
            angle -= 180.0;
        } else if angle < -90.0 {
            angle += 180.0;
        }
        let inside = at.x > 1.0 && at.x < f.w - 1.0 && at.y > 0.5 && at.y < f.h - 0.5;
        let clear = placed.iter().all(|q| q.distance(at) > 5.0);
        if inside && clear {
            return Some((at, angle));
        }
        first.get_or_insert((at, angle));
    }
    first
}

/// The area-weighted centroid of a polygon (the vertices' mean when it has no area).
fn centroid(pts: &[Point]) -> Option<Point> {
    if pts.is_empty() || pts.iter().any(|p| !p.is_finite()) {
        return None;
    }
    let k = pts.len();
    let (mut a, mut cx, mut cy) = (0.0, 0.0, 0.0);
    for i in 0..k {
        let (p, q) = (pts[i], pts[(i + 1) % k]);
        let c = p.cross(q);
        a += c;
        cx += (p.x + q.x) * c;
        cy += (p.y + q.y) * c;
    }
    if a.abs() > 1e-12 {
        Some(Point::new(cx / (3.0 * a), cy / (3.0 * a)))
    } else {
        let sum = pts.iter().fold(Vec2::ZERO, |s, p| s + *p);
        Some(sum * (1.0 / k as f64))
    }
}

fn polyline_length(pts: &[Point]) -> f64 {
    pts.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The point `s` inches along a polyline and the direction there.
fn point_along(pts: &[Point], s: f64) -> Option<(Point, Vec2)> {
    if pts.len() < 2 || !s.is_finite() {
        return None;
    }
    let mut left = s.max(0.0);
    for w in pts.windows(2) {
        let l = w[0].distance(w[1]);
        if !l.is_finite() {
            return None;
        }
        if l > 0.0 && left <= l {
            return Some((w[0].lerp(w[1], left / l), (w[1] - w[0]) * (1.0 / l)));
        }
        left -= l;
    }
    let (a, b) = (pts[pts.len() - 2], pts[pts.len() - 1]);
    Some((b, (b - a).normalized().unwrap_or(Vec2::new(1.0, 0.0))))
}

/// The part of a polyline between `s0` and `s1` inches along it, clamped to its ends.
fn sub_polyline(pts: &[Point], s0: f64, s1: f64, length: f64) -> Vec<Point> {
    if pts.len() < 2 || !(length.is_finite() && length > 0.0 && s0.is_finite() && s1.is_finite()) {
        return Vec::new();
    }
    let (s0, s1) = (s0.clamp(0.0, length), s1.clamp(0.0, length));
    if s1 <= s0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut at = 0.0;
    for w in pts.windows(2) {
        let l = w[0].distance(w[1]);
        let (a, b) = (at, at + l);
        if b >= s0 && a <= s1 && l > 0.0 {
            let t0 = ((s0 - a) / l).clamp(0.0, 1.0);
            let t1 = ((s1 - a) / l).clamp(0.0, 1.0);
            let p0 = w[0].lerp(w[1], t0);
            if out.last() != Some(&p0) {
                out.push(p0);
            }
            out.push(w[0].lerp(w[1], t1));
        }
        at = b;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Facing;

    fn scene() -> Scene {
        let mut s = Scene::new(
            "no fonts",
            Table { width: 12.0, height: 8.0, areas: vec![], lines: vec![], slope_band: 1.0 },
        );
        s.pieces.push(Piece {
            id: None,
            outline: Rect::new(Point::new(6.0, 4.0), Facing::NORTH, 4.0, 1.0),
            stands: vec![],
            side: Some(Side::Red),
            label: "Velites".into(),
            detail: "12 figures".into(),
        });
        s
    }

    #[test]
    fn png_without_any_font_still_renders() {
        let empty = Arc::new(resvg::usvg::fontdb::Database::new());
        let png = png_with_fonts(&scene(), 10.0, empty).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    }

    #[test]
    fn sub_polyline_follows_corners() {
        let pts = [Point::new(0.0, 0.0), Point::new(4.0, 0.0), Point::new(4.0, 4.0)];
        let part = sub_polyline(&pts, 3.0, 5.0, 8.0);
        assert_eq!(part, vec![Point::new(3.0, 0.0), Point::new(4.0, 0.0), Point::new(4.0, 1.0)]);
        assert!(sub_polyline(&pts, 9.0, 10.0, 8.0).is_empty());
    }

    #[test]
    fn column_names() {
        assert_eq!(column_name(0), "A");
        assert_eq!(column_name(25), "Z");
        assert_eq!(column_name(26), "AA");
        assert_eq!(column_name(27), "AB");
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(n(0.1 + 0.2), "0.3");
        assert_eq!(n(48.0), "48");
        assert_eq!(n(-0.0001), "0");
        assert_eq!(n(f64::NAN), "0");
    }
}
