//! Unit tests of `src/league/sheet.rs`.
