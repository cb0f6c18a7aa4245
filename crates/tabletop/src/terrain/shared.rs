//! A table shared by every copy of a game's state.

use super::Table;
use serde::{Deserialize, Serialize};
use std::ops::Deref;
use std::sync::Arc;

/// A table shared between states (it never changes in play). Two are equal when they are the
/// same table, found at once by identity, or hold equal terrain; it serialises as the table.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SharedTable(pub Arc<Table>);

impl SharedTable {
    /// Shares a table.
    pub fn new(table: Table) -> SharedTable {
        SharedTable(Arc::new(table))
    }
}

impl PartialEq for SharedTable {
    fn eq(&self, other: &SharedTable) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl Deref for SharedTable {
    type Target = Table;

    fn deref(&self) -> &Table {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_are_equal_by_identity_and_equal_tables_by_content() {
        let table = |width: f64| Table {
            width,
            height: 36.0,
            areas: Vec::new(),
            lines: Vec::new(),
            slope_band: 0.0,
        };
        let t = table(48.0);
        let a = SharedTable::new(t.clone());
        assert_eq!(a, a.clone());
        assert_eq!(a, SharedTable::new(t));
        assert_ne!(a, SharedTable::new(table(60.0)));
        assert_eq!(a.width, 48.0);
        let back: SharedTable = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(back, a);
    }
}
