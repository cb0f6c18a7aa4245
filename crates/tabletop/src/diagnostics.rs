//! Source files and the problems found in them: every problem carries the file, line, column
//! and field, and a file's problems are reported all at once.

use serde::{Deserialize, Serialize};
use std::fmt;

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
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
        }
    }

    /// Reads a file.
    pub fn read(path: &std::path::Path) -> Result<Source, Diagnostics> {
        std::fs::read_to_string(path)
            .map(|t| Source::new(path.display().to_string(), t))
            .map_err(|e| {
                Diagnostics(vec![Diagnostic {
                    file: path.display().to_string(),
                    line: 0,
                    column: 0,
                    field: String::new(),
                    message: format!("cannot read the file: {e}"),
                }])
            })
    }
}

/// One problem in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The file.
    pub file: String,
    /// 1-based line (0 when the problem is with the file as a whole).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The field's path, such as `unit[2].position`; empty for the file as a whole.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)
    }
}

/// All the problems found in a file (never empty when returned as an error).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostics(pub Vec<Diagnostic>);

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
