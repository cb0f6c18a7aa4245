//! Source files and the problems found in them: every problem carries the file, line, column
//! and field, and a file's problems are reported all at once.
//!
//! Scenario, army-list and data files are TOML. The way to read one is:
//!
//! 1. [`TomlDoc::parse`] the [`Source`] (a syntax error comes back as a located [`Diagnostic`]);
//! 2. make a [`Problems`] accumulator with [`TomlDoc::problems`];
//! 3. check the top-level keys ([`TomlDoc::check_top_level_keys`]) and deserialize each section
//!    independently into raw structs (`#[serde(deny_unknown_fields)]`) with
//!    [`TomlDoc::section`], [`TomlDoc::optional_section`] and [`TomlDoc::array`]: a bad element
//!    of an array of tables is reported and skipped, and the other elements still come back;
//! 4. validate the raw structs into the playable state, reporting each problem with
//!    [`Problems::error`] and a [`FieldPath`] such as `unit[3].position`, which is looked up in
//!    the document to find its line and column;
//! 5. [`Problems::finish`] (or [`Problems::finish_with`]) returns every problem at once.
//!
//! ```
//! use serde::Deserialize;
//! use tabletop::diagnostics::{Source, TomlDoc};
//!
//! #[derive(Deserialize)]
//! #[serde(deny_unknown_fields)]
//! struct RawUnit {
//!     name: String,
//!     strength: u32,
//! }
//!
//! let source = Source::new(
//!     "battle.toml",
//!     "[[unit]]\nname = \"Velites\"\nstrength = 12\n\n[[unit]]\nname = \"Hastati\"\nstrength = \"x\"\n",
//! );
//! let doc = TomlDoc::parse(&source).unwrap();
//! let mut problems = doc.problems();
//! doc.check_top_level_keys(&["unit"], &mut problems);
//! let units = doc.array::<RawUnit>("unit", &mut problems);
//! assert_eq!(units.len(), 1); // the second unit is reported, the first still read
//! for (i, unit) in &units {
//!     if unit.strength > 10 {
//!         problems.error(("unit", *i, "strength"), "at most 10 stands");
//!     }
//! }
//! let all = problems.finish().unwrap_err();
//! assert_eq!(all.len(), 2);
//! assert_eq!(all.0[0].to_string(), "battle.toml:3:12: unit[0].strength: at most 10 stands");
//! assert_eq!(
//!     all.0[1].to_string(),
//!     "battle.toml:7:12: unit[1].strength: expected a whole number, found the string \"x\""
//! );
//! ```
//!
//! Array indices in field paths count from 0, as the indices [`TomlDoc::array`] returns do.
//! Lines and columns count from 1; columns count characters, not bytes.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use toml_edit::Item;

/// A file's name and text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The file's name or path, as the user gave it.
    pub name: String,
    /// The file's text.
    pub text: String,
}

impl Source {
    /// A source from its name and text.
    ///
    /// For a data file embedded in the binary, name it by its path in the repository:
    /// `Source::new("crates/movement/data/rates.toml", include_str!("../data/rates.toml"))`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        Source { name: name.into(), text: text.into() }
    }

    /// Reads a file.
    pub fn read(path: &std::path::Path) -> Result<Source, Diagnostics> {
        std::fs::read_to_string(path).map(|t| Source::new(path.display().to_string(), t)).map_err(
            |e| {
                Diagnostics(vec![Diagnostic {
                    file: path.display().to_string(),
                    line: 0,
                    column: 0,
                    field: String::new(),
                    message: format!("cannot read the file: {e}"),
                }])
            },
        )
    }

    /// The 1-based line and column (counting characters) of a byte offset into the text.
    /// Offsets past the end give the position just after the last character; an offset inside
    /// a multi-byte character gives that character's position.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line = before.matches('\n').count() + 1;
        let column = before[line_start..].chars().count() + 1;
        (line, column)
    }

    /// A diagnostic at a byte offset into this file.
    pub fn diagnostic_at(
        &self,
        offset: usize,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let (line, column) = self.line_col(offset);
        Diagnostic {
            file: self.name.clone(),
            line,
            column,
            field: field.into(),
            message: message.into(),
        }
    }
}

/// One problem in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The file.
    pub file: String,
    /// 1-based line (0 when the problem is with the file as a whole).
    pub line: usize,
    /// 1-based column, counting characters (0 when the problem is with the file as a whole).
    pub column: usize,
    /// The field's path, such as `unit[2].position`; empty for the file as a whole.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl Diagnostic {
    /// A problem with a file as a whole (line and column 0, no field).
    pub fn whole_file(file: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.into(),
            line: 0,
            column: 0,
            field: String::new(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: ", self.file)?;
        } else {
            write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        }
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)
    }
}

/// All the problems found in a file (never empty when returned as an error).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The number of problems.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are no problems.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The problems in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Diagnostics {
        Diagnostics(vec![d])
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

// ---------------------------------------------------------------------------------------------
// Field paths
// ---------------------------------------------------------------------------------------------

/// One step of a [`FieldPath`]: a key in a table or an index into an array.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A key in a table.
    Key(String),
    /// An index into an array or array of tables, counting from 0.
    Index(usize),
}

/// Where a value sits in a document: `unit[3].position` is the key `unit`, the index 3, the
/// key `position`. The empty path is the document itself.
///
/// Build one by parsing text (`FieldPath::from("unit[3].position")`), from a tuple
/// (`("unit", 3, "position").into()`), or step by step
/// (`FieldPath::root().key("unit").index(3).key("position")`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldPath(Vec<Segment>);

impl FieldPath {
    /// The empty path: the document as a whole.
    pub fn root() -> FieldPath {
        FieldPath(Vec::new())
    }

    /// This path followed by a key.
    pub fn key(mut self, key: impl Into<String>) -> FieldPath {
        self.0.push(Segment::Key(key.into()));
        self
    }

    /// This path followed by an array index.
    pub fn index(mut self, index: usize) -> FieldPath {
        self.0.push(Segment::Index(index));
        self
    }

    /// This path followed by all the steps of another.
    pub fn join(mut self, rest: &FieldPath) -> FieldPath {
        self.0.extend(rest.0.iter().cloned());
        self
    }

    /// The steps.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// True for the document itself.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The path with its last step removed (the root stays the root).
    pub fn parent(&self) -> FieldPath {
        let mut p = self.clone();
        p.0.pop();
        p
    }

    /// Parses `unit[3].position`, `side[0]."odd key"`, `table`. Text that is not a well-formed
    /// path is still accepted: whatever cannot be read as an index is taken as a key.
    pub fn parse(text: &str) -> FieldPath {
        let mut out = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        let mut key = String::new();
        let mut have_key = false;
        let flush = |key: &mut String, have_key: &mut bool, out: &mut Vec<Segment>| {
            if *have_key || !key.is_empty() {
                out.push(Segment::Key(std::mem::take(key)));
            }
            *have_key = false;
        };
        while i < chars.len() {
            match chars[i] {
                '.' => {
                    flush(&mut key, &mut have_key, &mut out);
                    i += 1;
                }
                '"' => {
                    i += 1;
                    while i < chars.len() && chars[i] != '"' {
                        if chars[i] == '\\' && i + 1 < chars.len() {
                            i += 1;
                        }
                        key.push(chars[i]);
                        i += 1;
                    }
                    have_key = true;
                    i += 1;
                }
                '[' => {
                    let close = chars[i..].iter().position(|&c| c == ']').map(|p| p + i);
                    let index = close.and_then(|c| {
                        chars[i + 1..c].iter().collect::<String>().trim().parse::<usize>().ok()
                    });
                    match (close, index) {
                        (Some(c), Some(n)) => {
                            flush(&mut key, &mut have_key, &mut out);
                            out.push(Segment::Index(n));
                            i = c + 1;
                        }
                        _ => {
                            key.push('[');
                            i += 1;
                        }
                    }
                }
                c => {
                    key.push(c);
                    i += 1;
                }
            }
        }
        flush(&mut key, &mut have_key, &mut out);
        FieldPath(out)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            match s {
                Segment::Index(n) => write!(f, "[{n}]")?,
                Segment::Key(k) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    let bare = !k.is_empty()
                        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                    if bare {
                        f.write_str(k)?;
                    } else {
                        write!(f, "{k:?}")?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl From<&str> for FieldPath {
    fn from(s: &str) -> FieldPath {
        FieldPath::parse(s)
    }
}

impl From<String> for FieldPath {
    fn from(s: String) -> FieldPath {
        FieldPath::parse(&s)
    }
}

impl From<&String> for FieldPath {
    fn from(s: &String) -> FieldPath {
        FieldPath::parse(s)
    }
}

impl From<&FieldPath> for FieldPath {
    fn from(p: &FieldPath) -> FieldPath {
        p.clone()
    }
}

impl From<Vec<Segment>> for FieldPath {
    fn from(v: Vec<Segment>) -> FieldPath {
        FieldPath(v)
    }
}

impl From<(&str, usize)> for FieldPath {
    fn from((a, i): (&str, usize)) -> FieldPath {
        FieldPath::root().key(a).index(i)
    }
}

impl From<(&str, usize, &str)> for FieldPath {
    fn from((a, i, b): (&str, usize, &str)) -> FieldPath {
        FieldPath::root().key(a).index(i).key(b)
    }
}

impl From<(&str, usize, &str, usize)> for FieldPath {
    fn from((a, i, b, j): (&str, usize, &str, usize)) -> FieldPath {
        FieldPath::root().key(a).index(i).key(b).index(j)
    }
}

impl From<(&str, usize, &str, usize, &str)> for FieldPath {
    fn from((a, i, b, j, c): (&str, usize, &str, usize, &str)) -> FieldPath {
        FieldPath::root().key(a).index(i).key(b).index(j).key(c)
    }
}

// ---------------------------------------------------------------------------------------------
// Parsed documents
// ---------------------------------------------------------------------------------------------

/// The top-level key naming the rule set a file is for.
pub const RULESET_KEY: &str = "ruleset";

/// A parsed TOML file that remembers where every key and value came from, so that problems
/// found while reading or validating it can be reported at their line and column.
#[derive(Clone, Debug)]
pub struct TomlDoc {
    source: Source,
    doc: toml_edit::Document<String>,
}

/// Whether `c` is one of Unicode's invisible text-direction controls (embeddings, overrides,
/// isolates and marks), which can make a name shown to another player read as something it
/// is not.
pub fn is_direction_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The most problems reported in one element of an array or in one section.
const MAX_PROBLEMS_PER_ELEMENT: usize = 32;

impl TomlDoc {
    /// Parses a source. A syntax error comes back as a diagnostic at its line and column, and
    /// so does an invisible direction control (see [`is_direction_control`]): in a name it
    /// would make the log and the table read differently than the name is.
    pub fn parse(source: &Source) -> Result<TomlDoc, Diagnostics> {
        if let Some((offset, c)) =
            source.text.char_indices().find(|(_, c)| is_direction_control(*c))
        {
            let message = format!(
                "an invisible text-direction control (U+{:04X}) is not allowed: it would make \
                 a name read differently than it is written",
                c as u32
            );
            return Err(source.diagnostic_at(offset, "", message).into());
        }
        match toml_edit::Document::parse(source.text.clone()) {
            Ok(doc) => Ok(TomlDoc { source: source.clone(), doc }),
            Err(e) => {
                let offset = e.span().map_or(0, |s| s.start);
                let message = syntax_message(e.message());
                Err(source.diagnostic_at(offset, "", message).into())
            }
        }
    }

    /// The source the document was parsed from.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The parsed document, for reading it directly where the helpers here do not fit.
    pub fn document(&self) -> &toml_edit::Document<String> {
        &self.doc
    }

    /// A fresh accumulator for this document's problems.
    pub fn problems(&self) -> Problems<'_> {
        Problems::new(self)
    }

    /// True when the document has something at `path`.
    pub fn contains(&self, path: impl Into<FieldPath>) -> bool {
        self.item(&path.into()).is_some()
    }

    /// The raw item at a path, if there is one.
    pub fn item(&self, path: &FieldPath) -> Option<&Item> {
        let mut item = self.doc.as_item();
        for seg in path.segments() {
            item = child(item, seg)?;
        }
        Some(item)
    }

    /// Reports every top-level key or section not in `allowed`, at the key, with the list of
    /// keys that are allowed.
    pub fn check_top_level_keys(&self, allowed: &[&str], problems: &mut Problems<'_>) {
        for (key, _) in self.doc.as_table().iter() {
            if !allowed.contains(&key) {
                let expected = if allowed.is_empty() {
                    "this file takes no top-level keys".to_string()
                } else {
                    format!("expected one of {}", backticked(allowed))
                };
                let path = FieldPath::root().key(key);
                let message = format!("unknown top-level key `{key}`, {expected}");
                let at_key = self.doc.as_table().key(key).and_then(|k| k.span());
                match at_key {
                    Some(s) => {
                        problems.push(self.source.diagnostic_at(s.start, path.to_string(), message))
                    }
                    None => problems.error(path, message),
                }
            }
        }
    }

    /// Checks the file's optional top-level `ruleset = "…"` key, which names the rule set a
    /// scenario or army list is for: when present it must be the string `id`. Callers list
    /// [`RULESET_KEY`] among their allowed top-level keys.
    pub fn check_ruleset(&self, id: &str, problems: &mut Problems<'_>) {
        let Some(item) = self.doc.as_table().get(RULESET_KEY) else { return };
        match item.as_str() {
            Some(found) if found == id => {}
            Some(found) => problems.error(
                RULESET_KEY,
                format!("this file is for the rule set `{found}`, but it is being read as `{id}`"),
            ),
            None => problems.error(RULESET_KEY, format!("expected the rule set's id, \"{id}\"")),
        }
    }

    /// Deserializes the required value or section at `path` (usually a top-level key such as
    /// `"table"`). A missing section is reported; so is every problem inside it (unknown field,
    /// wrong type, missing field) at its own line and column. Returns `None` when anything
    /// was wrong.
    pub fn section<T: DeserializeOwned>(
        &self,
        path: impl Into<FieldPath>,
        problems: &mut Problems<'_>,
    ) -> Option<T> {
        let path = path.into();
        match self.item(&path) {
            Some(item) => self.deserialize_item(&path, item, problems),
            None => {
                problems.error(&path, missing_message(&path));
                None
            }
        }
    }

    /// Like [`TomlDoc::section`], but a missing section is not a problem: it gives `None`
    /// without a report.
    pub fn optional_section<T: DeserializeOwned>(
        &self,
        path: impl Into<FieldPath>,
        problems: &mut Problems<'_>,
    ) -> Option<T> {
        let path = path.into();
        let item = self.item(&path)?;
        self.deserialize_item(&path, item, problems)
    }

    /// Deserializes each element of the array of tables (`[[unit]]`) or array at `path`
    /// separately, so that a bad element is reported and skipped while the others still come
    /// back, each with its index (counting from 0). A missing key gives an empty list without a
    /// report; something there that is not an array is reported.
    pub fn array<T: DeserializeOwned>(
        &self,
        path: impl Into<FieldPath>,
        problems: &mut Problems<'_>,
    ) -> Vec<(usize, T)> {
        let path = path.into();
        let Some(item) = self.item(&path) else {
            return Vec::new();
        };
        let len = match item {
            Item::ArrayOfTables(a) => a.len(),
            Item::Value(toml_edit::Value::Array(a)) => a.len(),
            other => {
                let name = path.segments().last().map_or_else(String::new, |s| match s {
                    Segment::Key(k) => k.clone(),
                    Segment::Index(_) => String::new(),
                });
                problems.error(
                    &path,
                    format!(
                        "expected an array of tables (one `[[{name}]]` section each), found {}",
                        describe_item(other)
                    ),
                );
                return Vec::new();
            }
        };
        let mut out = Vec::with_capacity(len);
        for i in 0..len {
            if let Some(el) = item.get(i) {
                let p = path.clone().index(i);
                if let Some(v) = self.deserialize_item(&p, el, problems) {
                    out.push((i, v));
                }
            }
        }
        out
    }

    /// The 1-based line and column of the value at `path`, or of its nearest parent that
    /// exists in the document; `(0, 0)` when not even the first step exists.
    pub fn locate(&self, path: &FieldPath) -> (usize, usize) {
        match self.span_of(path) {
            Some(offset) => self.source.line_col(offset),
            None => (0, 0),
        }
    }

    /// The byte offset to report a problem at `path` at: the value's start, or its key's when
    /// the value has no position (a table made by dotted keys), or the nearest parent's.
    fn span_of(&self, path: &FieldPath) -> Option<usize> {
        let mut item = self.doc.as_item();
        let mut best: Option<usize> = None;
        for seg in path.segments() {
            let key_span = match (seg, item.as_table_like()) {
                (Segment::Key(k), Some(t)) => t.key(k).and_then(|k| k.span()),
                _ => None,
            };
            let Some(next) = child(item, seg) else {
                break;
            };
            item = next;
            if let Some(s) = item.span().or(key_span) {
                best = Some(s.start);
            }
        }
        best
    }

    /// Deserializes one item, reporting as many of its problems as can be found: after each
    /// error the offending key is taken out and the item tried again.
    fn deserialize_item<T: DeserializeOwned>(
        &self,
        path: &FieldPath,
        item: &Item,
        problems: &mut Problems<'_>,
    ) -> Option<T> {
        let mut item = item.clone();
        let mut removed: Vec<FieldPath> = Vec::new();
        let mut failed = false;
        for _ in 0..MAX_PROBLEMS_PER_ELEMENT {
            let err = match deserialize_one::<T>(&item) {
                Ok(v) => return (!failed).then_some(v),
                Err(e) => e,
            };
            let span = err.span();
            let rel = span.as_ref().and_then(|s| find_span(&item, s)).unwrap_or_default();
            let message = err.message().to_string();
            // A field taken out after an earlier problem now shows as missing: that is not
            // news, and nothing more can be learnt from this item.
            if let Some(field) = missing_field_name(&message) {
                let p = rel.clone().key(field);
                if removed.contains(&p) {
                    break;
                }
            }
            failed = true;
            let full = path.clone().join(&rel);
            let diag = match &span {
                Some(s) => self.source.diagnostic_at(s.start, full.to_string(), humanize(&message)),
                None => problems.diagnostic(&full, humanize(&message)),
            };
            problems.push(diag);
            // Take out the deepest key on the problem's path and try again.
            let Some(cut) = rel.segments().iter().rposition(|s| matches!(s, Segment::Key(_)))
            else {
                break;
            };
            let key_path = FieldPath(rel.segments()[..=cut].to_vec());
            if !remove_at(&mut item, &key_path) {
                break;
            }
            removed.push(key_path);
        }
        None
    }
}

/// Deserializes a value from a (span-keeping) item.
fn deserialize_one<T: DeserializeOwned>(item: &Item) -> Result<T, toml_edit::de::Error> {
    #[derive(Deserialize)]
    struct Wrap<T> {
        v: T,
    }
    let mut table = toml_edit::Table::new();
    table.insert("v", item.clone());
    toml_edit::de::from_document::<Wrap<T>>(toml_edit::DocumentMut::from(table)).map(|w| w.v)
}

/// The child of an item one step down.
fn child<'a>(item: &'a Item, seg: &Segment) -> Option<&'a Item> {
    match seg {
        Segment::Key(k) => item.as_table_like().and_then(|t| t.get(k)),
        Segment::Index(i) => item.get(*i),
    }
}

/// The children of an item with the path step to each and the key's span.
fn children(item: &Item) -> Vec<(Segment, Option<Range<usize>>, &Item)> {
    if let Some(t) = item.as_table_like() {
        t.iter()
            .map(|(k, v)| {
                let ks = t.key(k).and_then(|k| k.span());
                (Segment::Key(k.to_string()), ks, v)
            })
            .collect()
    } else {
        let len = match item {
            Item::ArrayOfTables(a) => a.len(),
            Item::Value(toml_edit::Value::Array(a)) => a.len(),
            _ => 0,
        };
        (0..len).filter_map(|i| item.get(i).map(|c| (Segment::Index(i), None, c))).collect()
    }
}

/// The path (relative to `item`) of the deepest key or value that starts where `span` does,
/// or else of the deepest value that contains it.
fn find_span(item: &Item, span: &Range<usize>) -> Option<FieldPath> {
    fn walk(
        item: &Item,
        span: &Range<usize>,
        here: &mut Vec<Segment>,
        exact: &mut Option<Vec<Segment>>,
        within: &mut Option<Vec<Segment>>,
    ) {
        for (seg, key_span, c) in children(item) {
            here.push(seg);
            let vs = c.span();
            if key_span.as_ref().is_some_and(|k| k.start == span.start)
                || vs.as_ref().is_some_and(|v| v.start == span.start)
            {
                *exact = Some(here.clone());
            }
            if vs.as_ref().is_some_and(|v| v.start <= span.start && span.end <= v.end)
                && within.as_ref().is_none_or(|w| w.len() < here.len())
            {
                *within = Some(here.clone());
            }
            walk(c, span, here, exact, within);
            here.pop();
        }
    }
    if item.span().is_some_and(|s| s.start == span.start) {
        return Some(FieldPath::root());
    }
    let (mut exact, mut within) = (None, None);
    walk(item, span, &mut Vec::new(), &mut exact, &mut within);
    exact.or(within).map(FieldPath)
}

/// Removes the key at the end of `path` (relative to `item`); false if it is not there.
fn remove_at(item: &mut Item, path: &FieldPath) -> bool {
    let Some((Segment::Key(last), parents)) = path.segments().split_last() else {
        return false;
    };
    let mut cur = item;
    for seg in parents {
        let next = match seg {
            Segment::Key(k) => cur.as_table_like_mut().and_then(|t| t.get_mut(k)),
            Segment::Index(i) => cur.get_mut(*i),
        };
        match next {
            Some(n) => cur = n,
            None => return false,
        }
    }
    cur.as_table_like_mut().and_then(|t| t.remove(last)).is_some()
}

fn missing_field_name(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `").and_then(|r| r.strip_suffix('`'))
}

fn missing_message(path: &FieldPath) -> String {
    match path.segments() {
        [Segment::Key(k)] => format!("missing required section or key `{k}`"),
        _ => format!("missing required `{path}`"),
    }
}

fn backticked(names: &[&str]) -> String {
    let mut s = String::new();
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            s.push_str(if i + 1 == names.len() { " or " } else { ", " });
        }
        s.push('`');
        s.push_str(n);
        s.push('`');
    }
    s
}

fn describe_item(item: &Item) -> &'static str {
    match item {
        Item::None => "nothing",
        Item::Table(_) => "a table",
        Item::ArrayOfTables(_) => "an array of tables",
        Item::Value(v) => match v {
            toml_edit::Value::String(_) => "a string",
            toml_edit::Value::Integer(_) => "a whole number",
            toml_edit::Value::Float(_) => "a number",
            toml_edit::Value::Boolean(_) => "true or false",
            toml_edit::Value::Datetime(_) => "a date or time",
            toml_edit::Value::Array(_) => "an array",
            toml_edit::Value::InlineTable(_) => "a table",
        },
    }
}

/// A TOML syntax error's message, first letter in lower case, trimmed.
fn syntax_message(message: &str) -> String {
    let m = message.trim();
    if m.is_empty() { "invalid TOML".to_string() } else { format!("invalid TOML: {m}") }
}

/// Rewrites serde's messages in plain words.
fn humanize(message: &str) -> String {
    let m = message.trim();
    if let Some(rest) = m.strip_prefix("invalid type: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!("expected {}, found {}", expected_words(expected), found_words(found));
    }
    if let Some(rest) = m.strip_prefix("invalid value: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!(
            "{} is not allowed here: expected {}",
            found_words(found),
            expected_words(expected)
        );
    }
    if let Some(rest) = m.strip_prefix("invalid length ")
        && let Some((n, expected)) = rest.split_once(", expected ")
    {
        let items = if n == "1" { "item" } else { "items" };
        return format!("expected {}, found an array of {n} {items}", expected_words(expected));
    }
    if let Some(field) = missing_field_name(m) {
        return format!("missing required field `{field}`");
    }
    if let Some(rest) = m.strip_prefix("unknown variant ") {
        return format!("unknown value {rest}");
    }
    m.to_string()
}

fn expected_words(e: &str) -> String {
    let e = e.trim();
    match e {
        "f64" | "f32" => "a number".into(),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".into(),
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number".into(),
        "a boolean" => "true or false".into(),
        "a sequence" => "an array".into(),
        "a map" => "a table".into(),
        "a character" => "a single character".into(),
        _ => {
            if e.starts_with("struct ") && !e.contains(" with ") {
                "a table".into()
            } else if let Some(rest) = e.strip_prefix("struct ")
                && let Some((_, n)) = rest.split_once(" with ")
            {
                format!("a table or an array of {n}")
            } else if e.starts_with("enum ") || e == "variant identifier" {
                "one of the allowed names".into()
            } else if let Some(n) = e.strip_prefix("a tuple of size ") {
                format!("an array of {n} items")
            } else if let Some(n) = e.strip_prefix("an array of length ") {
                format!("an array of {n} items")
            } else if let Some(n) = e.strip_prefix("tuple struct ") {
                format!("an array ({n})")
            } else {
                e.to_string()
            }
        }
    }
}

fn found_words(f: &str) -> String {
    let f = f.trim();
    let inner = |s: &str| s.trim_matches('`').to_string();
    if let Some(s) = f.strip_prefix("string ") {
        format!("the string {s}")
    } else if let Some(n) = f.strip_prefix("integer ") {
        format!("the whole number {}", inner(n))
    } else if let Some(n) = f.strip_prefix("floating point ") {
        format!("the number {}", inner(n))
    } else if let Some(b) = f.strip_prefix("boolean ") {
        inner(b)
    } else {
        match f {
            "sequence" => "an array".into(),
            "map" => "a table".into(),
            "unit value" | "Option value" => "nothing".into(),
            other => other.to_string(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Problems
// ---------------------------------------------------------------------------------------------

/// The problems found in one document so far. Record them with [`Problems::error`] as they are
/// found, carry on validating, and call [`Problems::finish`] at the end to report them all.
#[derive(Debug)]
pub struct Problems<'d> {
    doc: &'d TomlDoc,
    found: Vec<Diagnostic>,
}

impl<'d> Problems<'d> {
    /// An empty accumulator for a document.
    pub fn new(doc: &'d TomlDoc) -> Problems<'d> {
        Problems { doc, found: Vec::new() }
    }

    /// The document the problems are in.
    pub fn doc(&self) -> &'d TomlDoc {
        self.doc
    }

    /// Records a problem with the value at `path` (such as `"unit[3].position"` or
    /// `("unit", 3, "position")`). The line and column are those of the value, or of its
    /// nearest parent present in the file (the element's `[[unit]]` header when the field is
    /// missing).
    pub fn error(&mut self, path: impl Into<FieldPath>, message: impl Into<String>) {
        let path = path.into();
        let d = self.diagnostic(&path, message);
        self.found.push(d);
    }

    /// Records a problem with the file as a whole (no line, column or field).
    pub fn file_error(&mut self, message: impl Into<String>) {
        self.found.push(Diagnostic::whole_file(self.doc.source.name.clone(), message));
    }

    /// Records a diagnostic made elsewhere.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.found.push(diagnostic);
    }

    /// Records every diagnostic of another report (say, from a file this one refers to).
    pub fn extend(&mut self, diagnostics: Diagnostics) {
        self.found.extend(diagnostics.0);
    }

    /// The diagnostic [`Problems::error`] would record, without recording it.
    pub fn diagnostic(&self, path: &FieldPath, message: impl Into<String>) -> Diagnostic {
        let (line, column) = self.doc.locate(path);
        Diagnostic {
            file: self.doc.source.name.clone(),
            line,
            column,
            field: path.to_string(),
            message: message.into(),
        }
    }

    /// True when no problem has been found.
    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// How many problems have been found.
    pub fn len(&self) -> usize {
        self.found.len()
    }

    /// The problems found so far, in the order found.
    pub fn found(&self) -> &[Diagnostic] {
        &self.found
    }

    /// `Ok` when no problem was found, or else every problem, in file order (whole-file
    /// problems first), exact repeats removed.
    pub fn finish(self) -> Result<(), Diagnostics> {
        self.finish_with(())
    }

    /// `Ok(value)` when no problem was found, or else every problem as [`Problems::finish`].
    pub fn finish_with<T>(self, value: T) -> Result<T, Diagnostics> {
        if self.found.is_empty() {
            return Ok(value);
        }
        let mut found = self.found;
        found.sort_by_key(|d| (d.line, d.column));
        let mut out: Vec<Diagnostic> = Vec::with_capacity(found.len());
        for d in found {
            if !out.contains(&d) {
                out.push(d);
            }
        }
        Err(Diagnostics(out))
    }
}

/// Reads a whole data file as one typed table, then `validate`s it; every problem (TOML syntax,
/// unknown or missing fields, wrong types, and what `validate` finds) goes into `all` with its
/// file, line and column, and the table comes back only if there was none.
pub fn read_whole<T: DeserializeOwned>(
    src: &Source,
    all: &mut Diagnostics,
    validate: impl FnOnce(&T, &mut Problems<'_>),
) -> Option<T> {
    let doc = match TomlDoc::parse(src) {
        Ok(d) => d,
        Err(e) => {
            all.0.extend(e.0);
            return None;
        }
    };
    let mut p = doc.problems();
    let v: Option<T> = doc.section(FieldPath::root(), &mut p);
    if let Some(v) = &v {
        validate(v, &mut p);
    }
    match p.finish_with(v) {
        Ok(v) => v,
        Err(e) => {
            all.0.extend(e.0);
            None
        }
    }
}

/// The value of a top-level `ruleset = "…"` line of a scenario file, if it has one: how an
/// uploaded or named file says which rule set reads it.
pub fn declared_ruleset(text: &str) -> Option<String> {
    top_level_string(text, RULESET_KEY)
}

/// The value of a top-level `key = "…"` line before the first table header. Read line by line,
/// not parsed, so that a file with syntax errors elsewhere still names its rule set and then gets
/// its full diagnostics.
pub fn top_level_string(text: &str, key: &str) -> Option<String> {
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            return None;
        }
        if let Some(rest) = t.strip_prefix(key) {
            // A longer key that starts with this one (`rulesets = …`) is another line.
            let Some(rest) = rest.trim_start().strip_prefix('=') else { continue };
            let rest = rest.trim();
            let value = rest.split('#').next()?.trim().trim_matches('"').trim_matches('\'');
            return (!value.is_empty()).then(|| value.to_string());
        }
    }
    None
}

#[cfg(test)]
mod header_tests {
    use super::declared_ruleset;

    #[test]
    fn finds_the_top_level_ruleset_key_only() {
        assert_eq!(declared_ruleset("# c\nruleset = \"movement\" # x\n"), Some("movement".into()));
        assert_eq!(declared_ruleset("[table]\nruleset = \"movement\"\n"), None);
        assert_eq!(declared_ruleset("rulesets = 3\n"), None);
        // A longer key that starts with this one does not hide the real line after it.
        assert_eq!(declared_ruleset("rulesets = 3\nruleset = \"othw\"\n"), Some("othw".into()));
    }
}
