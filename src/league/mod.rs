//! The league model (league.md): pure code, no web or SQL. The season file's shape (`file`), the
//! season's rule set (`rules`), and the computations built on them.
pub mod file;
pub mod rules;
