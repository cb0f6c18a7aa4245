//! The program's library half: the rule sets it hosts and their referees ([`registry`]),
//! shared by the `strategikon` binary and the fuzz targets.

pub mod registry;
