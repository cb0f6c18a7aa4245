//! The "12. Movement" rule set.
