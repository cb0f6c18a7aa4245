//! Drawing scenes as SVG and PNG.

use tabletop::diagnostics::Source;
use tabletop::geometry::{Facing, Point, Rect};
use tabletop::render::{self, GridLayer, Mark, Piece, RenderError, Scene};
use tabletop::rules::Side;
use tabletop::table_file::load_table;
use tabletop::terrain::Table;

const TABLE: &str = r#"
[table]
width = 48
height = 36

[[area]]
name = "Windmill Hill"
kind = "hill"
points = [[6, 22], [15, 21], [18, 26], [14, 31], [7, 30], [4, 26]]

[[area]]
name = "Windmill Hill"
kind = "hill"
points = [[9, 25], [13, 24.5], [14, 27], [12, 29], [9, 28.5]]

[[area]]
name = "Oak Wood"
kind = "wood"
points = [[30, 24], [40, 23], [43, 29], [37, 33], [31, 31]]

[[area]]
name = "Thicket"
kind = "dense_trees"
points = [[2, 2], [8, 2], [9, 7], [3, 8]]

[[area]]
name = "Lower Farthing"
kind = "village"
points = [[33, 4], [40, 4], [40, 10], [33, 10]]

[[area]]
name = "Sedge Fen"
kind = "marsh"
points = [[14, 3], [22, 2], [24, 7], [16, 9]]

[[area]]
name = "Broken Ground"
kind = "rough"
points = [[42, 14], [47, 13], [47, 20], [43, 21]]

[[line]]
name = "River Stour"
kind = "river"
width = 2.5
points = [[0, 17], [12, 18.5], [26, 16], [38, 18], [48, 17]]
crossings = [
  { kind = "ford", at = 8, width = 3 },
  { kind = "bridge", at = 29.5, width = 2 },
]

[[line]]
name = "Salisbury Road"
kind = "dirt_road"
width = 1.2
points = [[28, 0], [28, 12], [27.8, 16.3], [28, 22], [24, 36]]

[[line]]
kind = "wall"
width = 0.4
points = [[31, 11.5], [41, 11.5]]

[[line]]
kind = "hedge"
width = 0.5
points = [[2, 12], [20, 12]]
"#;

/// True when the SVG has a text node holding exactly `text`.
fn has_text(svg: &str, text: &str) -> bool {
    svg.contains(&format!(">{text}<")) || svg.contains(&format!(">\n{text}\n<"))
}

fn table() -> Table {
    load_table(&Source::new("example.toml", TABLE)).expect("example table is valid")
}

fn example() -> Scene {
    let mut s = Scene::new("Battle of the Stour — turn 3, red to move", table());
    let unit = |x: f64, y: f64, facing: Facing, side: Option<Side>, label: &str, detail: &str| {
        let outline = Rect::new(Point::new(x, y), facing, 6.0, 1.5);
        let stands = (0..4)
            .map(|i| {
                let off = -2.25 + 1.5 * i as f64;
                Rect::new(outline.centre + facing.right() * off, facing, 1.5, 1.5)
            })
            .collect();
        Piece { id: None, outline, stands, side, label: label.into(), detail: detail.into() }
    };
    s.pieces.push(unit(12.0, 8.0, Facing::NORTH, Some(Side::Red), "Velites", "16 figs"));
    s.pieces.push(unit(
        22.0,
        11.0,
        Facing::from_bearing_degrees(30.0),
        Some(Side::Red),
        "Hastati",
        "disordered",
    ));
    s.pieces.push(unit(20.0, 26.0, Facing::SOUTH, Some(Side::Blue), "Elephants", ""));
    s.pieces.push(unit(36.0, 20.5, Facing::WEST, Some(Side::Blue), "Numidians", "24 figs"));
    s.pieces.push(Piece {
        id: None,
        outline: Rect::new(Point::new(44.0, 32.0), Facing::NORTH, 1.0, 1.0),
        stands: vec![],
        side: None,
        label: "Objective".into(),
        detail: String::new(),
    });
    s.marks.push(Mark {
        points: vec![Point::new(12.0, 8.75), Point::new(12.0, 14.0), Point::new(9.5, 15.5)],
        label: "8\" move".into(),
    });
    s
}

#[test]
fn svg_has_labels_areas_and_scale_bar() {
    let scene = example();
    let svg = render::to_svg(&scene);
    for p in &scene.pieces {
        assert!(has_text(&svg, &p.label), "label {} missing", p.label);
    }
    assert!(has_text(&svg, "16 figs"));
    assert!(svg.matches("<polygon").count() >= scene.table.areas.len());
    for area in &scene.table.areas {
        assert!(svg.contains(&area.name), "area name {}", area.name);
    }
    let area_groups = svg.matches("class=\"area ").count();
    assert_eq!(area_groups, scene.table.areas.len());
    assert!(svg.contains("class=\"scale-bar\""));
    assert!(svg.contains("12\u{2033}"), "scale bar reaches 12 inches");
    assert!(svg.contains("River Stour"));
    assert!(svg.contains("class=\"ford\""));
    assert!(svg.contains("class=\"bridge\""));
    assert!(has_text(&svg, "8\" move"));
    assert!(svg.contains("Battle of the Stour"));
}

#[test]
fn svg_parses_back_with_usvg() {
    let svg = render::to_svg(&example());
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    // 48" + 2 × 1.5" margins at 20 px per inch.
    assert_eq!(tree.size().width(), 51.0 * 20.0);
}

#[test]
fn png_has_signature_and_size() {
    let scene = example();
    let png = render::to_png(&scene, 10.0).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // The IHDR chunk holds the width and height.
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((w, h), (510, 406));
    assert_eq!(render::png_size(&scene, 10.0), (510, 406));
}

#[test]
fn example_png_for_eyes() {
    let png = render::to_png(&example(), 24.0).unwrap();
    let path = std::env::temp_dir().join("scene.png");
    std::fs::write(&path, png).unwrap();
}

#[test]
fn grid_scene_draws_cells() {
    let mut scene = Scene::new(
        "O/THW skirmish",
        Table { width: 12.0, height: 8.0, areas: vec![], lines: vec![], slope_band: 0.0 },
    );
    let mut cells = vec![None; 6 * 4];
    cells[0] = Some("woods".to_string());
    cells[7] = Some("hill".to_string());
    cells[9] = Some("river".to_string());
    cells[23] = Some("lava".to_string());
    scene.grid = Some(GridLayer { cols: 6, rows: 4, cell: 2.0, cells, coordinates: true });
    scene.pieces.push(Piece {
        id: None,
        outline: Rect::new(Point::new(3.0, 3.0), Facing::EAST, 1.6, 1.6),
        stands: vec![],
        side: Some(Side::Blue),
        label: "Band".into(),
        detail: "5".into(),
    });
    let svg = render::to_svg(&scene);
    assert!(svg.contains("class=\"grid-lines\""));
    assert!(svg.contains("url(#stk-wood)"));
    assert!(has_text(&svg, "lava"), "unknown kinds are named");
    assert!(has_text(&svg, "F"), "column letters");
    let png = render::to_png(&scene, 20.0).unwrap();
    std::fs::write(std::env::temp_dir().join("grid.png"), png).unwrap();
}

#[test]
fn hostile_scenes_never_panic() {
    let mut scene = example();
    scene.title = "<script>&\u{0}\u{7}".into();
    scene.table.areas[0].polygon.points[1] = Point::new(f64::NAN, 1.0);
    scene.table.lines[0].width = f64::INFINITY;
    scene.table.lines[0].crossings[0].at = -1e300;
    scene.table.lines[1].path.clear();
    scene.pieces[0].outline.width = f64::NAN;
    scene.pieces[1].label = "a\u{1}b".into();
    scene.marks.push(Mark { points: vec![], label: "nothing".into() });
    scene.grid =
        Some(GridLayer { cols: u32::MAX, rows: 3, cell: -1.0, cells: vec![], coordinates: true });
    let svg = render::to_svg(&scene);
    resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    render::to_png(&scene, 5.0).unwrap();

    let mut huge = example();
    huge.table.width = f64::NAN;
    huge.table.height = 1e300;
    let svg = render::to_svg(&huge);
    resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    assert!(matches!(render::to_png(&huge, 100.0), Err(RenderError::TooLarge { .. })));
    assert!(matches!(render::to_png(&example(), 0.0), Err(RenderError::BadScale(_))));
    assert!(matches!(render::to_png(&example(), f32::NAN), Err(RenderError::BadScale(_))));
}

#[test]
fn scene_without_grid_field_deserializes() {
    let scene = example();
    let mut v = serde_json::to_value(&scene).unwrap();
    v.as_object_mut().unwrap().remove("grid");
    let back: Scene = serde_json::from_value(v).unwrap();
    assert_eq!(back, scene);
}
