//! Scenario-file diagnostics: every problem located by file, line, column and field, and all
//! of them reported at once.

use serde::Deserialize;
use tabletop::diagnostics::{Diagnostic, FieldPath, Segment, Source, TomlDoc};

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    name: String,
    side: String,
    position: [f64; 2],
    #[serde(default)]
    facing: f64,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct RawBattle {
    title: String,
    #[serde(default)]
    turns: Option<u32>,
}

fn parse(text: &str) -> TomlDoc {
    TomlDoc::parse(&Source::new("battle.toml", text)).expect("valid TOML")
}

/// The line and column of the first occurrence of `needle` in `text`.
fn pos(text: &str, needle: &str) -> (usize, usize) {
    let off = text.find(needle).expect("needle in text");
    let before = &text[..off];
    let line = before.matches('\n').count() + 1;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..].chars().count() + 1;
    (line, col)
}

fn at(d: &Diagnostic) -> (usize, usize) {
    (d.line, d.column)
}

const THREE_UNITS: &str = r#"[battle]
title = "Zama"

[[unit]]
name = "Velites"
side = "red"
position = [10.0, 4.0]

[[unit]]
name = "Hastati"
side = "red"
colour = "crimson"
position = [20.0, 4.0]

[[unit]]
name = "Elephants"
side = "blue"
position = [20.0, 30.0]
facing = 180
"#;

#[test]
fn syntax_error_is_located() {
    let text = "[table]\nwidth = 48.0\nheight = = 36\n";
    let err = TomlDoc::parse(&Source::new("t.toml", text)).unwrap_err();
    assert_eq!(err.len(), 1);
    let d = &err.0[0];
    assert_eq!(d.file, "t.toml");
    assert_eq!(d.line, 3);
    assert_eq!(d.column, 10, "{d}");
    assert!(d.message.starts_with("invalid TOML"), "{d}");
}

#[test]
fn syntax_error_column_counts_characters_not_bytes() {
    // "é" is two bytes; the column must count it once.
    let text = "name = \"é\" x\n";
    let err = TomlDoc::parse(&Source::new("t.toml", text)).unwrap_err();
    let d = &err.0[0];
    assert_eq!((d.line, d.column), (1, 12), "{d}");
}

#[test]
fn duplicate_key_is_a_syntax_error() {
    let text = "a = 1\nb = 2\na = 3\n";
    let err = TomlDoc::parse(&Source::new("t.toml", text)).unwrap_err();
    assert_eq!(err.0[0].line, 3, "{}", err);
}

#[test]
fn unknown_field_in_second_element_reported_others_parsed() {
    let doc = parse(THREE_UNITS);
    let mut problems = doc.problems();
    let units = doc.array::<RawUnit>("unit", &mut problems);
    let indices: Vec<usize> = units.iter().map(|(i, _)| *i).collect();
    assert_eq!(indices, vec![0, 2]);
    assert_eq!(units[1].1.name, "Elephants");
    assert_eq!(units[1].1.facing, 180.0);
    let err = problems.finish().unwrap_err();
    assert_eq!(err.len(), 1, "{err}");
    let d = &err.0[0];
    assert_eq!(at(d), pos(THREE_UNITS, "colour"));
    assert_eq!(d.field, "unit[1].colour");
    assert!(d.message.starts_with("unknown field `colour`, expected one of `name`, `side`"), "{d}");
    assert_eq!(d.file, "battle.toml");
}

#[test]
fn problems_in_two_elements_are_both_reported() {
    let text = r#"
[[unit]]
name = "Velites"
side = "red"
position = [10.0, "four"]

[[unit]]
name = "Hastati"
side = "red"
position = [20.0, 4.0]

[[unit]]
name = "Principes"
side = 3
position = [30.0, 4.0]
"#;
    let doc = parse(text);
    let mut problems = doc.problems();
    let units = doc.array::<RawUnit>("unit", &mut problems);
    assert_eq!(units.len(), 1);
    assert_eq!(units[0].0, 1);
    let err = problems.finish().unwrap_err();
    assert_eq!(err.len(), 2, "{err}");
    assert_eq!(at(&err.0[0]), pos(text, "\"four\""));
    assert_eq!(err.0[0].field, "unit[0].position[1]");
    assert_eq!(err.0[0].message, "expected a number, found the string \"four\"");
    assert_eq!(at(&err.0[1]), pos(text, "3\n"));
    assert_eq!(err.0[1].field, "unit[2].side");
    assert_eq!(err.0[1].message, "expected a string, found the whole number 3");
}

#[test]
fn several_problems_in_one_element_are_all_reported() {
    let text = r#"
[[unit]]
name = "Velites"
colour = "red"
side = 7
position = [1.0, 2.0]
morale = "high"
"#;
    let doc = parse(text);
    let mut problems = doc.problems();
    let units = doc.array::<RawUnit>("unit", &mut problems);
    assert!(units.is_empty());
    let err = problems.finish().unwrap_err();
    let fields: Vec<&str> = err.iter().map(|d| d.field.as_str()).collect();
    assert_eq!(fields, vec!["unit[0].colour", "unit[0].side", "unit[0].morale"], "{err}");
}

#[test]
fn missing_required_field_reported_at_element_header() {
    let text = r#"
[[unit]]
name = "Velites"
side = "red"
position = [1.0, 2.0]

[[unit]]
name = "Hastati"
position = [1.0, 2.0]
"#;
    let doc = parse(text);
    let mut problems = doc.problems();
    let units = doc.array::<RawUnit>("unit", &mut problems);
    assert_eq!(units.len(), 1);
    let err = problems.finish().unwrap_err();
    assert_eq!(err.len(), 1, "{err}");
    let d = &err.0[0];
    assert_eq!((d.line, d.column), (7, 1), "{d}");
    assert_eq!(d.field, "unit[1]");
    assert_eq!(d.message, "missing required field `side`");
}

#[test]
fn semantic_error_located_by_path() {
    let doc = parse(THREE_UNITS);
    let mut problems = doc.problems();
    problems.error(("unit", 2, "position"), "unit 'Elephants' is placed off the table");
    problems.error("unit[0].name", "duplicate name");
    // A field that is not in the file falls back to its element's header.
    problems.error(FieldPath::root().key("unit").index(0).key("facing"), "no facing");
    let err = problems.finish().unwrap_err();
    assert_eq!(err.len(), 3);
    // Sorted in file order.
    assert_eq!(at(&err.0[0]), (4, 1));
    assert_eq!(err.0[0].field, "unit[0].facing");
    assert_eq!(at(&err.0[1]), pos(THREE_UNITS, "\"Velites\""));
    assert_eq!(err.0[1].field, "unit[0].name");
    assert_eq!(at(&err.0[2]), pos(THREE_UNITS, "[20.0, 30.0]"));
    assert_eq!(
        err.0[2].to_string(),
        format!(
            "battle.toml:{}:{}: unit[2].position: unit 'Elephants' is placed off the table",
            err.0[2].line, err.0[2].column
        )
    );
}

#[test]
fn unknown_top_level_keys_are_reported() {
    let text = "seed = 3\n[battle]\ntitle = \"x\"\n\n[weather]\nrain = true\n";
    let doc = parse(text);
    let mut problems = doc.problems();
    doc.check_top_level_keys(&["battle", "unit"], &mut problems);
    let err = problems.finish().unwrap_err();
    assert_eq!(err.len(), 2, "{err}");
    assert_eq!(err.0[0].field, "seed");
    assert_eq!(at(&err.0[0]), (1, 1));
    assert_eq!(err.0[1].field, "weather");
    assert_eq!(err.0[1].line, 5);
    assert_eq!(
        err.0[1].message,
        "unknown top-level key `weather`, expected one of `battle` or `unit`"
    );
}

#[test]
fn sections_required_and_optional() {
    let doc = parse(THREE_UNITS);
    let mut problems = doc.problems();
    let battle: RawBattle = doc.section("battle", &mut problems).unwrap();
    assert_eq!(battle.title, "Zama");
    assert_eq!(battle.turns, None);
    assert!(doc.optional_section::<RawBattle>("other", &mut problems).is_none());
    assert!(problems.is_empty());
    assert!(doc.section::<RawBattle>("table", &mut problems).is_none());
    let err = problems.finish().unwrap_err();
    assert_eq!(err.0[0].message, "missing required section or key `table`");
    assert_eq!(err.0[0].field, "table");
}

#[test]
fn wrong_type_in_section_and_not_an_array() {
    let text = "unit = 3\n[battle]\ntitle = \"x\"\nturns = -2\n";
    let doc = parse(text);
    let mut problems = doc.problems();
    assert!(doc.section::<RawBattle>("battle", &mut problems).is_none());
    assert!(doc.array::<RawUnit>("unit", &mut problems).is_empty());
    let err = problems.finish().unwrap_err();
    assert_eq!(err.len(), 2, "{err}");
    assert_eq!(err.0[0].field, "unit");
    assert!(err.0[0].message.contains("found a whole number"), "{}", err.0[0]);
    assert_eq!(err.0[1].field, "battle.turns");
    assert_eq!(at(&err.0[1]), (4, 9));
    assert!(err.0[1].message.contains("-2"), "{}", err.0[1]);
}

#[test]
fn inline_array_of_tables_elements_are_separate() {
    let text = r#"unit = [
  { name = "A", side = "red", position = [1, 2] },
  { name = "B", side = "red", position = [1, 2], extra = 1 },
]
"#;
    let doc = parse(text);
    let mut problems = doc.problems();
    let units = doc.array::<RawUnit>("unit", &mut problems);
    assert_eq!(units.len(), 1);
    assert_eq!(units[0].1.position, [1.0, 2.0]);
    let err = problems.finish().unwrap_err();
    assert_eq!(err.0[0].field, "unit[1].extra");
    assert_eq!(at(&err.0[0]), pos(text, "extra"));
}

#[test]
fn nested_arrays_of_tables_are_located() {
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Crossing {
        at: f64,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Line {
        name: String,
        #[serde(default)]
        crossing: Vec<Crossing>,
    }
    let text =
        "[[line]]\nname = \"Stour\"\n[[line.crossing]]\nat = 3.0\n[[line.crossing]]\nat = \"x\"\n";
    let doc = parse(text);
    let mut problems = doc.problems();
    assert!(doc.array::<Line>("line", &mut problems).is_empty());
    let err = problems.finish().unwrap_err();
    assert_eq!(err.len(), 1, "{err}");
    assert_eq!(err.0[0].field, "line[0].crossing[1].at");
    assert_eq!(at(&err.0[0]), (6, 6));
}

#[test]
fn embedded_data_file_names_its_path() {
    let src = Source::new("crates/movement/data/rates.toml", "[rates]\nfoot = \"slow\"\n");
    let doc = TomlDoc::parse(&src).unwrap();
    let mut problems = doc.problems();
    problems.error("rates.foot", "expected a number of inches");
    let err = problems.finish().unwrap_err();
    assert_eq!(
        err.to_string(),
        "crates/movement/data/rates.toml:2:8: rates.foot: expected a number of inches"
    );
}

#[test]
fn file_errors_and_finish_with() {
    let doc = parse("a = 1\n");
    let problems = doc.problems();
    assert_eq!(problems.finish_with(5), Ok(5));
    let mut problems = doc.problems();
    problems.file_error("the battle has no units");
    problems.file_error("the battle has no units");
    let err = problems.finish().unwrap_err();
    assert_eq!(err.len(), 1, "repeats removed");
    assert_eq!(err.0[0].to_string(), "battle.toml: the battle has no units");
}

#[test]
fn field_paths_parse_and_print() {
    let p = FieldPath::parse("unit[3].position[0]");
    assert_eq!(
        p.segments(),
        &[
            Segment::Key("unit".into()),
            Segment::Index(3),
            Segment::Key("position".into()),
            Segment::Index(0)
        ]
    );
    assert_eq!(p.to_string(), "unit[3].position[0]");
    assert_eq!(FieldPath::from(("side", 1, "name")).to_string(), "side[1].name");
    let odd = FieldPath::root().key("odd key").key("x");
    assert_eq!(odd.to_string(), "\"odd key\".x");
    assert_eq!(FieldPath::parse(&odd.to_string()), odd);
    // Malformed text never panics.
    for s in ["", "[", "]", "a[", "a[x]", "\"", "a..b", "[99999999999999999999999]"] {
        let _ = FieldPath::parse(s).to_string();
    }
}

#[test]
fn line_col_of_offsets() {
    let s = Source::new("x", "ab\nçd\n");
    assert_eq!(s.line_col(0), (1, 1));
    assert_eq!(s.line_col(3), (2, 1));
    assert_eq!(s.line_col(5), (2, 2)); // after the two-byte ç
    assert_eq!(s.line_col(4), (2, 1)); // inside ç
    assert_eq!(s.line_col(100), (3, 1));
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    fn exercise(text: &str) {
        let Ok(doc) = TomlDoc::parse(&Source::new("f.toml", text)) else { return };
        let mut problems = doc.problems();
        doc.check_top_level_keys(&["battle"], &mut problems);
        let _ = doc.array::<RawUnit>("unit", &mut problems);
        let _ = doc.optional_section::<RawBattle>("battle", &mut problems);
        problems.error("unit[1].position[7].x", "probe");
        if let Err(all) = problems.finish() {
            for d in all {
                assert!(d.line <= text.lines().count() + 1, "{d}");
            }
        }
        let _ = tabletop::table_file::load_table(&Source::new("t.toml", text));
    }

    proptest! {
        #[test]
        fn arbitrary_text(text in ".{0,200}") {
            exercise(&text);
        }

        #[test]
        fn damaged_scenario(cuts in proptest::collection::vec((0usize..400, 0usize..6), 1..6)) {
            let mut text = THREE_UNITS.to_string();
            for (at, len) in cuts {
                let mut at = at.min(text.len());
                while !text.is_char_boundary(at) { at -= 1; }
                let mut end = (at + len).min(text.len());
                while !text.is_char_boundary(end) { end -= 1; }
                text.replace_range(at..end, "");
            }
            exercise(&text);
        }
    }
}
